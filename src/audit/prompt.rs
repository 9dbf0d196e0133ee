//! The records of one prompt (UserPromptSubmit): a `conversation` record and, when the prompt
//! matches one of `audit.correction_patterns`, a `user_correction` record. The text passes
//! the redactor and is kept on one line, clipped.

use super::record::{Kind, Record};
use crate::core::hash::fnv1a_parts;
use crate::core::project::Project;
use crate::core::text::{clip, one_line};
use crate::core::time;
use regex::Regex;

/// Longest prompt text kept in a `conversation` record.
const PROMPT_CHARS: usize = 500;
/// Longest correction text kept.
const CORRECTION_CHARS: usize = 2000;

/// The records of one prompt: a `conversation` record and, when the prompt corrects the
/// agent, a `user_correction` record.
pub(crate) fn records(
    prompt: &str,
    patterns: &[Regex],
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

/// The first correction pattern `prompt` matches.
pub(crate) fn correction_match(prompt: &str, patterns: &[Regex]) -> Option<String> {
    let text = prompt.trim();
    patterns
        .iter()
        .find(|re| re.is_match(text))
        .map(|re| re.as_str().to_string())
}

/// Compiles the correction patterns case-insensitively (invalid ones are skipped; config
/// validation names them). ASCII classes where the pattern allows it: Unicode-aware `\b` and
/// case folding cost milliseconds to compile, and this runs on every prompt.
pub(crate) fn compile_patterns(patterns: &[String]) -> Vec<Regex> {
    patterns
        .iter()
        .filter_map(|p| {
            regex::RegexBuilder::new(p)
                .case_insensitive(true)
                .unicode(false)
                .build()
                .or_else(|_| regex::RegexBuilder::new(p).case_insensitive(true).build())
                .ok()
        })
        .collect()
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
