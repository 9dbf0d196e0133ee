//! The records of one prompt (UserPromptSubmit): a `conversation` record and, when the prompt
//! matches one of `audit.correction_patterns`, a `user_correction` record. The text passes
//! the redactor and is kept on one line, clipped.

use super::prompt_needles;
use super::record::{Kind, Record};
use crate::core::config::{Audit, CORRECTIONS as BUILT_IN_CORRECTIONS};
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

/// Longest start of a prompt (bytes) the patterns read: a correction says so up front, and a long
/// prompt (a pasted log, a diff, a chat) would otherwise match on a quoted "no," or "I said".
const PATTERN_CHARS: usize = 600;

/// The correction patterns and the request patterns that overrule them, each compiled only
/// when a prompt holds the words it needs (`core::scan::needles`): most prompts correct nothing,
/// and compiling the patterns cost every prompt about a millisecond. The built-in
/// correction patterns are not even parsed: their needles are a table (prompt_needles.rs);
/// the request patterns are read only once a correction pattern matched.
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
    /// class) keeps it, inside its own group. Parses them (the built-in correction patterns
    /// not even that); compiles nothing.
    fn new(patterns: &[String]) -> List {
        if patterns.iter().map(String::as_str).eq(BUILT_IN_CORRECTIONS) {
            return List::of(
                patterns.to_vec(),
                patterns.to_vec(),
                Finder::of_table(prompt_needles::CORRECTIONS),
            );
        }
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
        List::of(members, sources, Finder::new(&found))
    }

    fn of(members: Vec<String>, sources: Vec<String>, needles: Finder) -> List {
        List {
            compiled: members.iter().map(|_| OnceLock::new()).collect(),
            members,
            sources,
            needles,
        }
    }

    /// The first pattern, in the configured order, that matches `text`: only those whose
    /// words `text` holds are compiled and run.
    fn first_match(&self, text: &str) -> Option<&str> {
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

/// The correction pattern `prompt` matches, unless a request pattern matches it too ("don't
/// forget to add tests" asks for something; "no, use the other API" corrects).
pub(crate) fn correction_match(prompt: &str, patterns: &Patterns<'_>) -> Option<String> {
    let text = prefix_bytes(prompt.trim(), PATTERN_CHARS);
    let pattern = patterns.corrections.first_match(text)?;
    let requests = patterns
        .requests
        .get_or_init(|| List::new(patterns.request_sources));
    if requests.first_match(text).is_some() {
        return None;
    }
    Some(pattern.to_string())
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

    /// Real-looking prompts, each a correction of the agent (`true`) or an ordinary request
    /// (`false`), read against the built-in patterns.
    const PROMPTS: &[(&str, bool)] = &[
        // Corrections: the user says the agent did, or is doing, the wrong thing.
        ("No, use the other API", true),
        ("no, not that file — the one in src/bin", true),
        ("Nope. Revert it.", true),
        ("no", true),
        ("No!", true),
        ("no no no, keep the old schema", true),
        ("No I meant the staging server", true),
        ("No, use tabs", true),
        ("don't touch main.rs", true),
        ("Don't use unwrap here, return an error", true),
        ("Do not commit the lockfile", true),
        ("Please don't add comments to every line", true),
        ("stop", true),
        ("Stop, you're deleting the wrong files", true),
        ("stop running the whole test suite every time", true),
        ("Stop it", true),
        ("Please stop adding emojis to the commit messages", true),
        ("Actually, make it 3 retries", true),
        ("actually the port should be 8080, not 3000", true),
        ("That's wrong, the function returns a Result", true),
        ("that's not what I asked for", true),
        ("This is not what I meant", true),
        ("ugh, that's wrong again", true),
        ("That's not it. The bug is in the tokenizer.", true),
        ("That isn't right, the timestamps are UTC", true),
        ("That's incorrect: the limit is 100, not 1000", true),
        ("I said port 8080", true),
        ("I told you not to change the public API", true),
        ("As I said, tabs not spaces", true),
        ("I asked you to keep the old behaviour behind a flag", true),
        ("I meant the other config file", true),
        ("I didn't ask you to refactor the whole module", true),
        ("instead use serde for the parsing", true),
        ("revert that change", true),
        ("Undo the last edit", true),
        ("Can you revert that? It broke the CLI", true),
        ("undo!", true),
        ("Wrong file", true),
        ("You broke the build", true),
        ("You shouldn't have deleted the migration", true),
        ("you forgot to update the docs", true),
        ("You deleted my notes in TODO.md", true),
        ("You didn't run the tests before committing", true),
        ("you were supposed to only change the README", true),
        ("You used the wrong API, it's the v2 one", true),
        ("you're on the wrong branch", true),
        ("you edited the wrong file, it's config/prod.yaml", true),
        ("that's the wrong function", true),
        ("Why did you remove the error handling?", true),
        ("why are you still running cargo build after every edit", true),
        ("You keep adding unwraps", true),
        ("not like that, use a match statement", true),
        ("Not quite — the test should check the error message", true),
        ("Wait, don't push yet", true),
        ("Hold on, that's the production database", true),
        ("This is not what I asked for", true),
        // Requests: the user asks for something, reminds, answers, or reports a bug.
        ("Don't forget to add tests", false),
        ("don't forget to run cargo fmt before committing", false),
        ("Don't worry about the Windows build for now", false),
        ("Do not hesitate to ask if anything is unclear", false),
        ("Don't you think we should cache the lookups?", false),
        ("No problem, go ahead", false),
        ("No worries, take your time", false),
        ("No, that's fine — leave it as it is", false),
        ("no, thanks", false),
        ("Nope, looks good to me", false),
        ("No need to update the changelog for this", false),
        ("Now run the benchmarks", false),
        ("Nothing else, thanks", false),
        ("Note that the API is rate limited", false),
        ("please run a command", false),
        ("notice the bug in parse()", false),
        ("add a stop button to the player", false),
        ("Stop the dev server and restart it with --release", false),
        ("Please stop the docker containers before running the migration", false),
        ("Stop words should be removed before indexing", false),
        ("Let's stop here for today and write a handoff", false),
        ("Run the tests and don't stop at the first failure", false),
        ("Instead of polling, can we use inotify?", false),
        ("Write a function that returns an error instead of panicking", false),
        ("Actually, can you also add a --json flag?", false),
        ("Actually, one more thing: add a changelog entry", false),
        ("actually that works, thanks!", false),
        ("Revert the version bump in Cargo.toml from yesterday's commit", false),
        ("Add an undo command to the editor", false),
        ("Undo support would be nice in the editor", false),
        ("I asked the team, and they prefer snake_case for the API fields", false),
        ("Can you check why the login page shows the wrong date?", false),
        ("Can you fix the wrong date on the invoice page?", false),
        ("The tests are wrong on CI because of the timezone, can you fix them?", false),
        ("It's not what I expected from the docs: the API returns 404. Investigate", false),
        ("Please review the PR and tell me if anything is wrong", false),
        ("Not sure why this fails — can you look?", false),
        ("Wait for CI to finish, then merge", false),
        ("Hold on to the connection instead of reopening it each time", false),
        ("Why does the test fail on CI?", false),
        ("Why do you think the cache misses?", false),
        ("Make sure you keep the old API working", false),
        ("You should have access to the staging bucket now", false),
        ("You can use the fixtures in tests/data", false),
        ("Could you make the error message clearer?", false),
        ("Fix the bug where the parser prints 'no, invalid input'", false),
        ("Go ahead and commit", false),
        ("Keep going", false),
        ("/baton:start fix the login bug", false),
        ("/baton:end", false),
        ("Implement the export endpoint. Don't forget the tests, and no, we don't need a migration.", false),
    ];

    #[test]
    fn issue_12_corrections_are_told_from_requests() {
        let audit = Config::default().audit;
        let pats = compile_patterns(&audit);
        let corrections = PROMPTS.iter().filter(|(_, c)| *c).count();
        assert!(corrections >= 25 && PROMPTS.len() - corrections >= 25);
        let wrong: Vec<String> = PROMPTS
            .iter()
            .filter_map(|(p, want)| {
                let got = correction_match(p, &pats);
                (got.is_some() != *want).then(|| format!("{p:?}: expected {want}, matched {got:?}"))
            })
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
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
        assert_eq!(
            records(
                "Don't forget to add tests",
                &pats,
                "cs",
                &project("2026-11-30T10:15:00Z")
            )
            .len(),
            1
        );
    }

    /// A correction comes first: a long prompt (a pasted log or chat) is read only so far.
    #[test]
    fn only_the_start_of_a_long_prompt_is_read() {
        let audit = Config::default().audit;
        let pats = compile_patterns(&audit);
        let pasted = format!(
            "Here is the log:\n{}\nthat's wrong",
            "ok line\n".repeat(100)
        );
        assert_eq!(correction_match(&pasted, &pats), None);
        assert!(correction_match(&format!("that's wrong:\n{pasted}"), &pats).is_some());
        // A cut inside a character is moved back to its start.
        let wide = format!("{}that's wrong", "é".repeat(PATTERN_CHARS));
        assert_eq!(correction_match(&wide, &pats), None);
    }

    fn audit_with(corrections: &[&str], requests: &[&str]) -> Audit {
        Audit {
            correction_patterns: corrections.iter().map(|p| (*p).to_string()).collect(),
            request_patterns: requests.iter().map(|p| (*p).to_string()).collect(),
            ..Audit::default()
        }
    }

    /// The first pattern in the configured order is named, a pattern that needs Unicode mode
    /// keeps it, one that does not build is left out; a request pattern overrules them.
    #[test]
    fn the_first_matching_pattern_in_order_is_named() {
        let audit = audit_with(&["(", r"^\p{Greek}+\b", "^no", "^n"], &["^no thanks"]);
        let pats = compile_patterns(&audit);
        assert_eq!(correction_match("No way", &pats).as_deref(), Some("^no"));
        assert_eq!(correction_match("nah", &pats).as_deref(), Some("^n"));
        assert_eq!(
            correction_match("όχι, not that", &pats).as_deref(),
            Some(r"^\p{Greek}+\b")
        );
        assert_eq!(correction_match("fine", &pats), None);
        assert_eq!(correction_match("No thanks", &pats), None);
        assert_eq!(
            correction_match("fine", &compile_patterns(&audit_with(&[], &[]))),
            None
        );
    }

    /// A prompt that holds none of the words the patterns need compiles nothing (compiling
    /// them cost every prompt about a millisecond); one that may correct compiles only the
    /// patterns whose words it holds.
    #[test]
    fn issue_15_a_plain_prompt_compiles_no_pattern() {
        let audit = Config::default().audit;
        let pats = compile_patterns(&audit);
        for p in [
            "please run the build",
            // `instead` is a correction only at the start (`^instead\b`).
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
        assert!(correction_match("stop that", &pats).is_some());
        let compiled = pats.corrections.compiled_count();
        assert!(
            (1..=3).contains(&compiled),
            "{compiled} compiled for one prompt"
        );
    }

    /// The table of the built-in patterns' needles is what the patterns give: a pattern
    /// edited without its needles fails here (with the table to paste).
    #[test]
    fn the_needle_table_is_derived_from_the_built_in_patterns() {
        let flags = needles::Flags {
            case_insensitive: true,
            ascii: true,
        };
        let derived: Vec<_> = BUILT_IN_CORRECTIONS
            .iter()
            .map(|p| (*p, needles::derive(p, flags)))
            .collect();
        if let Err(code) =
            needles::check_table("CORRECTIONS", prompt_needles::CORRECTIONS, &derived)
        {
            panic!("src/audit/prompt_needles.rs: CORRECTIONS is not what the patterns give; replace it with:\n{code}");
        }
        // The built-in correction patterns need no Unicode mode: the table's list compiles
        // them as they are.
        for p in BUILT_IN_CORRECTIONS {
            assert!(
                regex_syntax::ParserBuilder::new()
                    .case_insensitive(true)
                    .unicode(false)
                    .build()
                    .parse(p)
                    .is_ok(),
                "{p}"
            );
        }
    }

    /// The bytes the untyped builder wrote (before the record had a type), ids included.
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
                r#"{"claude_session":"cs","id":"c-774795d1","pattern":"^(no|nope)([,.!:;-]|\\s*$)","persisted_to":[],"text":"No, use tabs with [REDACTED]","ts":"2026-11-30T10:15:00.123Z","type":"user_correction"}"#,
            ]
        );
    }
}
