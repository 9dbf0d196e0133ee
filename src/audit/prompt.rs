//! The records of one prompt (UserPromptSubmit): a `conversation` record and, when the prompt
//! corrects the agent, a `user_correction` record. The text passes the redactor and is kept
//! on one line, clipped.
//!
//! A prompt corrects the agent when `core::correction` says so (the rule is recorded as
//! `builtin:<rule>`) or it matches one of the user's `audit.correction_patterns` (the
//! pattern is recorded), unless it matches one of the user's `audit.request_patterns`.

use super::record::{Kind, Record};
use crate::core::config::Audit;
use crate::core::correction::{self, HEAD_BYTES};
use crate::core::hash::fnv1a_parts;
use crate::core::project::Project;
use crate::core::scan::needles::{self, Finder};
use crate::core::text::{clip, one_line, prefix_bytes};
use crate::core::time;
use regex::{Regex, RegexBuilder};
use std::sync::OnceLock;

/// Longest prompt text kept in a `conversation` record.
const PROMPT_CHARS: usize = 500;
/// Longest correction text kept.
const CORRECTION_CHARS: usize = 2000;

/// The records of one prompt: a `conversation` record and, when the prompt corrects the
/// agent, a `user_correction` record.
pub(crate) fn records(
    prompt: &str,
    patterns: &Patterns<'_>,
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

/// The user's extra correction patterns and the request patterns that overrule a
/// correction, each compiled only when a prompt holds the words it needs (`core::scan::needles`):
/// compiling a pattern costs about half a millisecond, and most prompts need none. The
/// request patterns are read only once a prompt was found to correct.
pub(crate) struct Patterns<'a> {
    corrections: List,
    request_sources: &'a [String],
    requests: OnceLock<List>,
}

/// Regexes compiled one at a time, when first needed.
struct List {
    /// Each pattern as compiled: in its own Unicode group when it needs one.
    members: Vec<String>,
    /// The pattern of each member, as configured.
    sources: Vec<String>,
    needles: Finder,
    compiled: Vec<OnceLock<Option<Regex>>>,
}

impl List {
    /// Reads `patterns`, case-insensitive (invalid ones are skipped; config validation names
    /// them). ASCII classes where the pattern allows it: Unicode-aware `\b` and case folding
    /// cost milliseconds to compile; a pattern that needs Unicode mode (it names a non-ASCII
    /// class) keeps it, inside its own group. Parses them; compiles nothing.
    fn new(patterns: &[String]) -> List {
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
        List {
            compiled: members.iter().map(|_| OnceLock::new()).collect(),
            members,
            sources,
            needles: Finder::new(&found),
        }
    }

    /// The first pattern, in the configured order, that matches `text`: only those whose
    /// words `text` holds are compiled and run.
    fn first_match(&self, text: &str) -> Option<&str> {
        if self.members.is_empty() {
            return None;
        }
        let candidates = self.needles.candidates(text);
        for (i, _) in candidates.iter().enumerate().filter(|(_, c)| **c) {
            let regex = self.compiled[i].get_or_init(|| {
                RegexBuilder::new(&self.members[i])
                    .case_insensitive(true)
                    .unicode(false)
                    .build()
                    .ok()
            });
            if regex.as_ref().is_some_and(|r| r.is_match(text)) {
                return self.sources.get(i).map(String::as_str);
            }
        }
        None
    }

    /// How many of the patterns have been compiled.
    #[cfg(test)]
    fn compiled_count(&self) -> usize {
        self.compiled.iter().filter(|c| c.get().is_some()).count()
    }
}

/// What makes `prompt` a correction: `builtin:<rule>` (`core::correction`) or the first of
/// the user's correction patterns it matches; `None` when neither does, or when one of the
/// user's request patterns matches it. Patterns read the prompt's first `HEAD_BYTES`, as the
/// built-in rules do.
pub(crate) fn correction_match(prompt: &str, patterns: &Patterns<'_>) -> Option<String> {
    let text = prefix_bytes(prompt.trim(), HEAD_BYTES);
    let found = match correction::classify(prompt) {
        Some(rule) => format!("builtin:{}", rule.name()),
        None => patterns.corrections.first_match(text)?.to_string(),
    };
    let requests = patterns
        .requests
        .get_or_init(|| List::new(patterns.request_sources));
    if requests.first_match(text).is_some() {
        return None;
    }
    Some(found)
}

/// The audit config's `correction_patterns` and `request_patterns`, parsed; nothing compiled.
pub(crate) fn compile_patterns(audit: &Audit) -> Patterns<'_> {
    Patterns {
        corrections: List::new(&audit.correction_patterns),
        request_sources: &audit.request_patterns,
        requests: OnceLock::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::config::Config;

    fn project(at: &str) -> Project {
        Project::for_test("/p", Some(at))
    }

    fn audit_with(corrections: &[&str], requests: &[&str]) -> Audit {
        Audit {
            correction_patterns: corrections.iter().map(|p| (*p).to_string()).collect(),
            request_patterns: requests.iter().map(|p| (*p).to_string()).collect(),
            ..Audit::default()
        }
    }

    /// A correction (as `core::correction` reads it; its table of labelled prompts is the
    /// test of the rules) gets a `user_correction` record naming its rule; a request does
    /// not.
    #[test]
    fn issue_12_corrections_are_told_from_requests() {
        let audit = Config::default().audit;
        let pats = compile_patterns(&audit);
        let at = project("2026-11-30T10:15:00Z");
        let recs = records("No, use tabs", &pats, "cs", &at);
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[1].kind, Kind::UserCorrection);
        assert_eq!(recs[1].pattern.as_deref(), Some("builtin:negation"));
        assert_eq!(recs[1].persisted_to, Some(vec![]));
        assert!(recs[1].id().starts_with("c-"));
        assert_eq!(
            records("Don't forget to add tests", &pats, "cs", &at).len(),
            1
        );
        for (prompt, rule) in [
            ("And no, don't use the global config", "builtin:negation"),
            ("No — don't put the helper in utils.rs", "builtin:negation"),
            ("revert that", "builtin:undo"),
            ("you broke the build", "builtin:complaint"),
        ] {
            assert_eq!(
                correction_match(prompt, &pats).as_deref(),
                Some(rule),
                "{prompt}"
            );
        }
    }

    /// The user's correction patterns add to the built-in rules, the first in the configured
    /// order is named, a pattern that needs Unicode mode keeps it, one that does not build
    /// is left out; a request pattern overrules both.
    #[test]
    fn user_patterns_add_corrections_and_request_patterns_overrule_them() {
        let audit = audit_with(
            &["(", r"^\p{Greek}+\b", "^meh", "^me"],
            &["^no thanks", "^no, but thanks"],
        );
        let pats = compile_patterns(&audit);
        assert_eq!(
            correction_match("Meh, again", &pats).as_deref(),
            Some("^meh")
        );
        assert_eq!(correction_match("mend it", &pats).as_deref(), Some("^me"));
        assert_eq!(
            correction_match("όχι, not that", &pats).as_deref(),
            Some(r"^\p{Greek}+\b")
        );
        assert_eq!(correction_match("fine", &pats), None);
        // The built-in rules still count; a request pattern overrules them too.
        assert_eq!(
            correction_match("no, the other file", &pats).as_deref(),
            Some("builtin:negation")
        );
        assert_eq!(correction_match("No, but thanks for asking", &pats), None);
        assert_eq!(
            correction_match("fine", &compile_patterns(&audit_with(&[], &[]))),
            None
        );
    }

    /// The patterns read the prompt's start only, as the built-in rules do.
    #[test]
    fn patterns_read_only_the_start_of_a_long_prompt() {
        let audit = audit_with(&["grr"], &[]);
        let pats = compile_patterns(&audit);
        let pasted = format!("Here is the log:\n{}\ngrr", "ok line\n".repeat(100));
        assert_eq!(correction_match(&pasted, &pats), None);
        assert!(correction_match(&format!("grr:\n{pasted}"), &pats).is_some());
        let wide = format!("{}grr", "é".repeat(HEAD_BYTES));
        assert_eq!(correction_match(&wide, &pats), None);
    }

    /// With the default config no pattern is compiled or even parsed; with the user's, a
    /// prompt that holds none of the words they need compiles nothing (compiling them cost
    /// every prompt about a millisecond), and one that may match compiles only those whose
    /// words it holds.
    #[test]
    fn issue_15_a_plain_prompt_compiles_no_pattern() {
        let defaults = Config::default().audit;
        assert!(defaults.correction_patterns.is_empty() && defaults.request_patterns.is_empty());
        let audit = audit_with(&["^grr\\b", "^meh\\b", "\\bugh\\b"], &["^grr, fine"]);
        let pats = compile_patterns(&audit);
        for p in [
            "please run the build",
            "The parser in src/lib.rs rejects empty input with a panic. Make it return an error instead, add a test for it, and run cargo test.",
            "Add a --json flag to the status command and document it in the README.",
        ] {
            assert_eq!(correction_match(p, &pats), None);
        }
        assert_eq!(
            pats.corrections.compiled_count(),
            0,
            "compiled for a plain prompt"
        );
        assert!(pats.requests.get().is_none());
        assert!(correction_match("grr, the other one", &pats).is_some());
        assert_eq!(pats.corrections.compiled_count(), 1);
    }

    /// The bytes the untyped builder wrote (before the record had a type), ids included; the
    /// pattern is the built-in rule's name since issue 34.
    #[test]
    fn issue_9_lines_are_the_bytes_the_untyped_builder_wrote() {
        let audit = Config::default().audit;
        let pats = compile_patterns(&audit);
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
                r#"{"claude_session":"cs","id":"c-774795d1","pattern":"builtin:negation","persisted_to":[],"text":"No, use tabs with [REDACTED]","ts":"2026-11-30T10:15:00.123Z","type":"user_correction"}"#,
            ]
        );
    }
}
