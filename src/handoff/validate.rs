//! The consumer-side validator, `baton handoff check`, with datarim's interface and exit
//! codes: 0 ok, 1 artefact missing, 2 malformed, 3 usage; one line per problem on stderr.
//!
//! What fails a file (exit 2) is what fails it in datarim's `check-session-handoff.sh`: a
//! symlink, more than 32,768 bytes, a first front matter without every mandatory field or
//! without an `active_tasks:` list, no `## Layer 1` or `## Layer 5` heading, a claim line
//! datarim's grep finds untagged. So whatever datarim's own writer produces passes (its claim
//! gate accepts `unverified:`, which baton's does not). baton's stricter rules are warnings
//! on stderr, exit 0: a claim tagged only inside a word, later blocks' front matter, and in
//! strict mode (`--validate-frontmatter`, and a FILE argument), for every block, `artifact:
//! session-handoff`, `schema_version: 1`, a valid session id equal to the file's, an ISO
//! 8601 `captured_at`, `captured_by` agent or operator, both required layers in the block.

use super::body;
use super::frontmatter::{self, FrontMatter, REQUIRED_SCALARS};
use super::session::{self, MAX_BYTES};
use crate::core::fsx;
use std::path::Path;

/// How thorough the check is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Light,
    Strict,
}

/// The outcome of checking one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Valid; `warnings` are baton's stricter rules the file does not meet (see `Graded`).
    Ok {
        blocks: usize,
        warnings: Vec<String>,
    },
    Missing,
    Malformed(Vec<String>),
}

impl Verdict {
    /// datarim's exit code.
    pub(crate) fn exit_code(&self) -> i32 {
        match self {
            Verdict::Ok { .. } => 0,
            Verdict::Missing => 1,
            Verdict::Malformed(_) => 2,
        }
    }
}

/// Files larger than this are not read at all.
const READ_LIMIT: u64 = 4 * 1024 * 1024;

/// Checks the artefact at `path`. `expected_id` is the session id its name says.
pub(crate) fn check_file(path: &Path, expected_id: Option<&str>, mode: Mode) -> Verdict {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Verdict::Missing,
        Err(e) => return Verdict::Malformed(vec![format!("cannot inspect the artefact: {e}")]),
    };
    if meta.file_type().is_symlink() {
        return Verdict::Malformed(vec![
            "artefact path is a symlink (rejected): replace it with the real file".into(),
        ]);
    }
    if !meta.is_file() {
        return Verdict::Malformed(vec!["artefact path is not a regular file".into()]);
    }
    if meta.len() > READ_LIMIT {
        return Verdict::Malformed(vec![over_cap(meta.len())]);
    }
    let limit = fsx::Limit {
        what: "an artefact",
        max: READ_LIMIT,
    };
    let text = match fsx::read_bytes_limited(path, limit) {
        Ok(Some(b)) => match String::from_utf8(b) {
            Ok(t) => t,
            Err(_) => return Verdict::Malformed(vec!["the artefact is not UTF-8 text".into()]),
        },
        Ok(None) => return Verdict::Missing,
        Err(e) => return Verdict::Malformed(vec![format!("cannot read the artefact: {e}")]),
    };
    let graded = grade_text(&text, expected_id, mode);
    if graded.errors.is_empty() {
        Verdict::Ok {
            blocks: count_blocks(&text),
            warnings: graded.warnings,
        }
    } else {
        Verdict::Malformed(graded.errors)
    }
}

fn over_cap(len: u64) -> String {
    format!("artefact is {len} bytes, over the {MAX_BYTES}-byte cap")
}

/// The number of blocks with a front matter.
fn count_blocks(text: &str) -> usize {
    frontmatter::split_blocks(text)
        .iter()
        .filter(|b| b.front.is_some())
        .count()
}

/// What a check found: `errors` fail it (exit 2), as datarim's validator fails the same
/// file; `warnings` are baton's stricter rules where datarim's validator passes the file, so
/// an artefact datarim's own writer produced is accepted, with what baton would have written
/// differently named.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Graded {
    pub(crate) errors: Vec<String>,
    pub(crate) warnings: Vec<String>,
}

/// Every problem of an artefact's text, one line each, errors and warnings alike.
pub(crate) fn check_text(text: &str, expected_id: Option<&str>, mode: Mode) -> Vec<String> {
    let g = grade_text(text, expected_id, mode);
    g.errors.into_iter().chain(g.warnings).collect()
}

/// The problems of an artefact's text, graded. Errors are datarim's rules: at most 32,768
/// bytes; the first block's front matter with every mandatory field and an `active_tasks:`
/// list; a `## Layer 1` and a `## Layer 5` somewhere; no claim line that datarim's grep
/// leaves untagged. Everything else is a warning.
pub(crate) fn grade_text(text: &str, expected_id: Option<&str>, mode: Mode) -> Graded {
    let mut g = Graded::default();
    if text.len() > MAX_BYTES {
        g.errors.push(over_cap(text.len() as u64));
    }
    let blocks = frontmatter::split_blocks(text);
    let many = blocks.len() > 1;
    let mut first_id: Option<String> = None;
    for (i, block) in blocks.iter().enumerate() {
        let at = if many {
            format!("block {} (line {}): ", i + 1, block.first_line)
        } else {
            String::new()
        };
        // datarim's validator reads the first front matter only: a problem of a later block
        // is baton's stricter reading.
        let out = if i == 0 {
            &mut g.errors
        } else {
            &mut g.warnings
        };
        let Some(front) = &block.front else {
            out.push(format!(
                "{at}no front matter: the file must start with a `---` line and the front matter must end with another `---` line"
            ));
            continue;
        };
        if mode == Mode::Light && i > 0 {
            continue;
        }
        let fields = frontmatter::parse_fields(front);
        for key in REQUIRED_SCALARS {
            if fields.get(key).is_none_or(str::is_empty) {
                out.push(format!(
                    "{at}missing mandatory field `{key}` in the front matter"
                ));
            }
        }
        if !fields.lists.contains_key("active_tasks") {
            out.push(format!(
                "{at}missing active_tasks list: write `active_tasks:` on its own line, then one `  - TASK-ID` line per task"
            ));
        }
        if mode == Mode::Strict {
            strict_fields(&fields, &at, expected_id, &mut first_id, &mut g.warnings);
            for (n, name) in [(1, "Git State"), (5, "Failed Approaches")] {
                if body::has_layer(text, n) && !body::has_layer(block.body, n) {
                    g.warnings.push(format!(
                        "{at}missing Layer-{n} block (`## Layer {n} — {name}`)"
                    ));
                }
            }
        }
    }
    for n in [1, 5] {
        if !body::has_layer(text, n) {
            g.errors
                .push(format!("missing Layer-{n} block (`## Layer {n}`)"));
        }
    }
    for block in &blocks {
        for claim in body::untagged_claims(block.body, block.body_line) {
            if datarim_lets_through(&claim.text) {
                g.warnings.push(format!(
                    "{} (datarim's validator lets this line through; baton's writer would refuse it)",
                    claim.describe()
                ));
            } else {
                g.errors.push(claim.describe());
            }
        }
    }
    g
}

/// Whether datarim's claim check skips a line baton reads as an untagged claim: its grep
/// finds `verified:` or `assumed:` anywhere (so `unverified:` counts), and it skips the
/// lines that look like front matter (`---`, a mandatory key, `  - ` list items) wherever
/// they are.
fn datarim_lets_through(line: &str) -> bool {
    const KEYS: [&str; 8] = [
        "artifact:",
        "schema_version:",
        "session_id:",
        "captured_at:",
        "captured_by:",
        "recommended_next:",
        "next_action:",
        "active_tasks:",
    ];
    line.contains("verified:")
        || line.contains("assumed:")
        || line == "---"
        || line.starts_with("  - ")
        || KEYS.iter().any(|k| line.starts_with(k))
}

fn strict_fields(
    fields: &frontmatter::Fields,
    at: &str,
    expected_id: Option<&str>,
    first_id: &mut Option<String>,
    out: &mut Vec<String>,
) {
    let expect = |key: &str, want: &str, out: &mut Vec<String>| {
        if let Some(v) = fields.get(key) {
            if v != want {
                out.push(format!("{at}`{key}` is {v:?}; it must be {want:?}"));
            }
        }
    };
    expect("artifact", "session-handoff", out);
    expect("schema_version", "1", out);
    if let Some(id) = fields.get("session_id") {
        if !session::is_session_id(id) {
            out.push(format!(
                "{at}`session_id` {id:?} does not match {}",
                session::ID_REGEX
            ));
        } else if let Some(want) = expected_id.filter(|w| *w != id) {
            out.push(format!(
                "{at}`session_id` {id} differs from the file's name ({want})"
            ));
        } else if let Some(first) = first_id.as_deref().filter(|f| *f != id) {
            out.push(format!(
                "{at}`session_id` {id} differs from the first block's ({first})"
            ));
        }
        first_id.get_or_insert_with(|| id.to_string());
    }
    if let Some(at_time) = fields.get("captured_at") {
        if chrono::DateTime::parse_from_rfc3339(at_time).is_err() {
            out.push(format!(
                "{at}`captured_at` {at_time:?} is not an ISO 8601 UTC time like 2026-11-30T10:15:00Z"
            ));
        }
    }
    if let Some(by) = fields.get("captured_by") {
        if by != "agent" && by != "operator" {
            out.push(format!(
                "{at}`captured_by` is {by:?}; it must be agent or operator"
            ));
        }
    }
    for line in &fields.odd_lines {
        out.push(format!(
            "{at}front matter line not understood: {line:?} (expected `key: value` or `  - item`)"
        ));
    }
}

/// The self-test: a datarim-style artefact and a baton-rendered one pass; broken copies fail.
pub(crate) fn self_test() -> std::result::Result<(), Vec<String>> {
    let datarim =
        "---\nartifact: session-handoff\nschema_version: 1\nsession_id: SESSION-20260615-000000\n\
captured_at: 2026-06-15T00:00:00Z\ncaptured_by: agent\nrecommended_next: /baton:dr-continue SESSION-20260615-000000\n\
next_action: Continue Phase P2 implementation.\nactive_tasks:\n  - TUNE-0001\n---\n\n\
## Layer 1 — Git State\n\nrepo: /test  HEAD: abc123  status: clean\n\n## Layer 2 — Active Tasks\n\n\
TUNE-0001 | in_progress\n\n## Layer 3 — Related Files\n\nNone.\n\n## Layer 4 — Open Questions\n\n\
None.\n\n## Layer 5 — Failed Approaches\n\nNone attempted yet.\n";
    let baton = frontmatter::render(&FrontMatter {
        session_id: "SESSION-20260615-000000".into(),
        captured_at: "2026-06-15T00:00:00Z".into(),
        captured_by: "operator".into(),
        recommended_next: "/baton:dr-continue SESSION-20260615-000000".into(),
        next_action: "Fix: the parser, then re-run the tests".into(),
        active_tasks: vec![],
    }) + "\n## Layer 1 — Git State\nHEAD: abc1234\n\n## Layer 5 — Failed Approaches\nPushed a fix. verified: CI run 7\n";
    let mut failures = Vec::new();
    for (name, text) in [("datarim-style", datarim), ("baton", baton.as_str())] {
        for mode in [Mode::Light, Mode::Strict] {
            let p = check_text(text, Some("SESSION-20260615-000000"), mode);
            if !p.is_empty() {
                failures.push(format!(
                    "{name} sample rejected ({mode:?}): {}",
                    p.join("; ")
                ));
            }
        }
    }
    for (name, broken) in [
        ("no Layer 5", datarim.replace("## Layer 5", "## Layer five")),
        (
            "untagged claim",
            format!("{datarim}The branch was merged.\n"),
        ),
        ("no next_action", datarim.replace("next_action:", "next:")),
        (
            "over the cap",
            format!("{datarim}{}\n", "x".repeat(MAX_BYTES)),
        ),
        ("no front matter", datarim.replacen("---\n", "", 1)),
    ] {
        if check_text(&broken, None, Mode::Light).is_empty() {
            failures.push(format!("a sample with {name} was accepted"));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_test_passes() {
        self_test().unwrap();
    }

    #[test]
    fn strict_mode_checks_every_block() {
        let good = "---\nartifact: session-handoff\nschema_version: 1\nsession_id: SESSION-20261130-101500\ncaptured_at: 2026-11-30T10:15:00Z\ncaptured_by: agent\nrecommended_next: /x\nnext_action: y\nactive_tasks:\n---\n\n## Layer 1\na\n## Layer 5\nb\n";
        assert!(check_text(good, Some("SESSION-20261130-101500"), Mode::Strict).is_empty());
        let second = good
            .replace("captured_by: agent", "captured_by: robot")
            .replace("SESSION-20261130-101500", "SESSION-20261130-101501")
            .replace("## Layer 5\nb\n", "");
        let text = format!("{good}\n{second}");
        let light = check_text(&text, Some("SESSION-20261130-101500"), Mode::Light);
        assert!(light.is_empty(), "{light:?}");
        let strict = check_text(&text, Some("SESSION-20261130-101500"), Mode::Strict);
        assert_eq!(strict.len(), 3, "{strict:?}");
        assert!(
            strict[0].starts_with("block 2 (line 17): `session_id`"),
            "{strict:?}"
        );
        assert!(
            strict[1].contains("`captured_by` is \"robot\""),
            "{strict:?}"
        );
        assert!(strict[2].contains("missing Layer-5 block"), "{strict:?}");
    }

    #[test]
    fn claims_are_reported_with_file_line_numbers() {
        let text = "---\nartifact: session-handoff\nschema_version: 1\nsession_id: SESSION-20261130-101500\ncaptured_at: 2026-11-30T10:15:00Z\ncaptured_by: agent\nrecommended_next: /x\nnext_action: tests passing\nactive_tasks:\n---\n\n## Layer 1\nCI green\n## Layer 5\nb\n";
        let p = check_text(text, None, Mode::Light);
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(
            p[0].starts_with("line 13: untagged claim (\"green\")"),
            "{p:?}"
        );
    }
}
