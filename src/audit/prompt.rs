//! The records of one prompt (UserPromptSubmit): a `conversation` record and, when the prompt
//! matches one of `audit.correction_patterns`, a `user_correction` record. The text passes
//! the redactor and is kept on one line, clipped.

use super::record::{Kind, Record};
use crate::core::hash::fnv1a_parts;
use crate::core::needles::{self, Finder};
use crate::core::project::Project;
use crate::core::text::{clip, one_line};
use crate::core::time;
use regex::{RegexSet, RegexSetBuilder};
use std::sync::OnceLock;

/// Longest prompt text kept in a `conversation` record.
const PROMPT_CHARS: usize = 500;
/// Longest correction text kept.
const CORRECTION_CHARS: usize = 2000;

/// The records of one prompt: a `conversation` record and, when the prompt corrects the
/// agent, a `user_correction` record.
pub(crate) fn records(
    prompt: &str,
    patterns: &Patterns,
    claude_session: &str,
    project: &Project,
) -> Vec<Record> {
    let now = project.now();
    let clean = project.redactor().redact(prompt);
    let text = one_line(&clean.text);
    // The ids hash the raw prompt: the same prompt at the same moment is the same record.
    let base = fnv1a_parts(&[claude_session, &time::rfc3339_millis(now), prompt]);
    let mut out = vec![Record {
        claude_session: Some(claude_session.to_string()),
        id: Some(format!("p-{base:016x}")),
        redactions: clean.count as u64,
        role: Some("user".into()),
        text: Some(clip(&text, PROMPT_CHARS)),
        ts: Some(now),
        kind: Kind::Conversation,
        ..Record::default()
    }];
    if let Some(pattern) = correction_match(prompt, patterns) {
        out.push(Record {
            claude_session: Some(claude_session.to_string()),
            id: Some(format!("c-{:08x}", base >> 32)),
            pattern: Some(pattern),
            persisted_to: Some(Vec::new()),
            text: Some(clip(&text, CORRECTION_CHARS)),
            ts: Some(now),
            kind: Kind::UserCorrection,
            ..Record::default()
        });
    }
    out
}

/// The correction patterns, as one set compiled the first time a prompt holds the words one
/// of them needs (`core::needles`): most prompts correct nothing, and compiling the patterns
/// (each on its own, before) cost every prompt about a millisecond.
pub(crate) struct Patterns {
    /// The members of the set: each pattern, in its own Unicode group when it needs one.
    members: Vec<String>,
    /// The pattern of each member, as configured.
    sources: Vec<String>,
    needles: Finder,
    set: OnceLock<Option<RegexSet>>,
}

/// The first correction pattern `prompt` matches.
pub(crate) fn correction_match(prompt: &str, patterns: &Patterns) -> Option<String> {
    let text = prompt.trim();
    if !patterns.needles.candidates(text).contains(&true) {
        return None;
    }
    let set = patterns
        .set
        .get_or_init(|| {
            RegexSetBuilder::new(&patterns.members)
                .case_insensitive(true)
                .unicode(false)
                .build()
                .ok()
        })
        .as_ref()?;
    let first = set.matches(text).into_iter().next()?;
    patterns.sources.get(first).cloned()
}

/// Reads the correction patterns, case-insensitive (invalid ones are skipped; config
/// validation names them). ASCII classes where the pattern allows it: Unicode-aware `\b` and
/// case folding cost milliseconds to compile; a pattern that needs Unicode mode (it names a
/// non-ASCII class) keeps it, inside its own group. Parses them; compiles nothing.
pub(crate) fn compile_patterns(patterns: &[String]) -> Patterns {
    let parses = |p: &str, ascii: bool| {
        regex_syntax::ParserBuilder::new()
            .case_insensitive(true)
            .unicode(!ascii)
            .build()
            .parse(p)
            .is_ok()
    };
    let (mut members, mut sources, mut found) = (Vec::new(), Vec::new(), Vec::new());
    for p in patterns {
        let ascii = parses(p, true);
        if ascii {
            members.push(p.clone());
        } else if parses(p, false) {
            members.push(format!("(?u:{p})"));
        } else {
            continue;
        }
        sources.push(p.clone());
        found.push(needles::derive(
            p,
            needles::Flags {
                case_insensitive: true,
                ascii,
            },
        ));
    }
    Patterns {
        members,
        sources,
        needles: Finder::new(&found),
        set: OnceLock::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::config::Config;

    fn project(at: &str) -> Project {
        Project::for_test("/p", Some(at))
    }

    #[test]
    fn default_patterns_find_corrections_and_leave_plain_prompts() {
        let pats = compile_patterns(&Config::default().audit.correction_patterns);
        for p in [
            "No, use the other file",
            "don't touch main.rs",
            "Stop running the tests",
            "actually, make it 3",
            "that's wrong",
            "I said port 8080",
            "instead use serde",
            "revert that change",
            "This is not what I asked for",
        ] {
            assert!(correction_match(p, &pats).is_some(), "{p}");
        }
        for p in [
            "please run a command",
            "no problem, go ahead",
            "notice the bug",
            "add a stop button",
        ] {
            assert!(correction_match(p, &pats).is_none(), "{p}");
        }
        let recs = records(
            "No, use tabs",
            &pats,
            "cs",
            &project("2026-11-30T10:15:00Z"),
        );
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[1].kind, Kind::UserCorrection);
        assert_eq!(recs[1].persisted_to, Some(vec![]));
        assert!(recs[1].id().starts_with("c-"));
    }

    /// One set for all patterns: the first pattern in the configured order is named, a
    /// pattern that needs Unicode mode keeps it, one that does not build is left out.
    #[test]
    fn the_set_names_the_first_matching_pattern_in_order() {
        let pats = compile_patterns(&[
            "(".to_string(),
            r"^\p{Greek}+\b".to_string(),
            "^no".to_string(),
            "^n".to_string(),
        ]);
        assert_eq!(correction_match("No way", &pats).as_deref(), Some("^no"));
        assert_eq!(correction_match("nah", &pats).as_deref(), Some("^n"));
        assert_eq!(
            correction_match("όχι, not that", &pats).as_deref(),
            Some(r"^\p{Greek}+\b")
        );
        assert_eq!(correction_match("fine", &pats), None);
        assert_eq!(correction_match("fine", &compile_patterns(&[])), None);
    }

    /// A prompt that holds none of the words the patterns need compiles nothing (compiling
    /// them cost every prompt about a millisecond); the first that may correct compiles them.
    #[test]
    fn issue_15_a_plain_prompt_compiles_no_pattern() {
        let pats = compile_patterns(&Config::default().audit.correction_patterns);
        for p in [
            "please run the build",
            // `instead` is a correction only at the start (`^instead\b`).
            "The parser in src/lib.rs rejects empty input with a panic. Make it return an error instead, add a test for it, and run cargo test.",
        ] {
            assert_eq!(correction_match(p, &pats), None);
        }
        assert!(pats.set.get().is_none(), "compiled for a plain prompt");
        assert!(correction_match("stop that", &pats).is_some());
        assert!(pats.set.get().is_some());
    }

    /// The bytes the untyped builder wrote (before the record had a type), ids included.
    #[test]
    fn issue_9_lines_are_the_bytes_the_untyped_builder_wrote() {
        let pats = compile_patterns(&Config::default().audit.correction_patterns);
        let lines: Vec<String> = records(
            "No, use tabs with ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
            &pats,
            "cs",
            &project("2026-11-30T10:15:00.123456Z"),
        )
        .iter()
        .map(|r| serde_json::to_string(r).unwrap())
        .collect();
        assert_eq!(
            lines,
            [
                r#"{"claude_session":"cs","id":"p-774795d162ff1a85","redactions":1,"role":"user","text":"No, use tabs with [REDACTED]","ts":"2026-11-30T10:15:00.123Z","type":"conversation"}"#,
                r#"{"claude_session":"cs","id":"c-774795d1","pattern":"^(no|nope)([,.!:;-]|\\s*$)","persisted_to":[],"text":"No, use tabs with [REDACTED]","ts":"2026-11-30T10:15:00.123Z","type":"user_correction"}"#,
            ]
        );
    }
}
