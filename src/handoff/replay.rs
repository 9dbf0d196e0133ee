//! `baton handoff continue`: validate, re-verify, then replay the newest block.
//!
//! Without an id it lists the saved sessions and exits 2: in a shared workspace the newest
//! session may be another agent's, so it never guesses.

use super::finding::Kind;
use super::frontmatter;
use super::resume_block;
use super::reverify;
use super::session;
use super::validate::{self, Mode, Verdict};
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::project::Project;
use crate::core::redact::Redactor;
use crate::core::text::one_line;
use std::path::Path;

/// What a listing shows of one saved session (its newest block).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Summary {
    pub(crate) id: String,
    pub(crate) captured_at: String,
    pub(crate) captured_by: String,
    pub(crate) recommended_next: String,
    pub(crate) next_action: String,
    pub(crate) blocks: usize,
}

/// Files larger than this are not read for a summary.
const SUMMARY_READ_LIMIT: u64 = 1024 * 1024;

/// The summary of the artefact of `id` in `dir`; `None` when unreadable or without front
/// matter.
pub(crate) fn summary(dir: &Path, id: &str) -> Option<Summary> {
    let path = session::artefact_path(dir, id);
    let meta = std::fs::symlink_metadata(&path).ok()?;
    if !meta.is_file() || meta.len() > SUMMARY_READ_LIMIT {
        return None;
    }
    let text = fsx::read_limited(&path, fsx::Limit::DOCUMENT).ok()??;
    let blocks = frontmatter::split_blocks(&text);
    let with_front: Vec<_> = blocks.iter().filter_map(|b| b.front.as_ref()).collect();
    let fields = frontmatter::parse_fields(with_front.last()?);
    let get = |k: &str| fields.get(k).unwrap_or("").to_string();
    Some(Summary {
        id: id.to_string(),
        captured_at: get("captured_at"),
        captured_by: get("captured_by"),
        recommended_next: get("recommended_next"),
        next_action: get("next_action"),
        blocks: with_front.len(),
    })
}

/// Every saved session in `dir`, newest first.
pub(crate) fn summaries(dir: &Path) -> Vec<Summary> {
    session::list(dir)
        .iter()
        .filter_map(|id| summary(dir, id))
        .collect()
}

/// `captured_by` as shown: `agent` or `operator`; anything else (a file written by another
/// tool or by hand) is not repeated.
pub(crate) fn captured_by_label(raw: &str) -> Option<&'static str> {
    match raw {
        "agent" => Some("agent"),
        "operator" => Some("operator"),
        _ => None,
    }
}

/// The listing as text. Values from the files are shown as one sanitised line each,
/// redacted before they are cut.
pub(crate) fn render_list(
    root: &Path,
    dir: &Path,
    sessions: &[Summary],
    redactor: &Redactor,
) -> String {
    let shown = session::display_path(root, dir);
    if sessions.is_empty() {
        return format!("No saved sessions in {shown}/.\n");
    }
    let mut out = format!("Saved sessions in {shown}/ (newest first):\n");
    for s in sessions {
        let next = resume_block::sanitize_annotation(&redactor.redact(&s.next_action).text);
        out.push_str(&format!(
            "  {}  {} by {}, {} block(s) — {}\n",
            s.id,
            session::saved_time(&s.id).unwrap_or_default(),
            captured_by_label(&s.captured_by).unwrap_or("?"),
            s.blocks,
            next
        ));
    }
    out
}

/// Runs `baton handoff continue [ID]`.
pub(crate) fn run(id: Option<&str>, project: &Project) -> Result<i32> {
    let dir = session::sessions_dir(project);
    let Some(id) = id else {
        return Ok(list_and_ask(project, &dir));
    };
    session::validate_id(id)?;
    let path = session::artefact_path(&dir, id);
    let shown = session::display_path(&project.root, &path);
    match validate::check_file(&path, Some(id), Mode::Light) {
        Verdict::Missing => {
            let others = session::list(&dir);
            eprintln!(
                "baton handoff continue: no saved session {id} at {shown}; saved here: {}",
                if others.is_empty() {
                    "none".to_string()
                } else {
                    others.join(", ")
                }
            );
            return Ok(1);
        }
        Verdict::Malformed(problems) => {
            for p in problems {
                eprintln!("baton handoff continue: {shown}: {p}");
            }
            eprintln!("baton handoff continue: not replayed: the artefact is malformed; tell the user, do not hand-edit it");
            return Ok(2);
        }
        Verdict::Ok { .. } => {}
    }
    let text = fsx::read_limited(&path, fsx::Limit::DOCUMENT)?.ok_or_else(|| {
        Error::io(
            "read",
            &path,
            std::io::Error::from(std::io::ErrorKind::NotFound),
        )
    })?;
    let notes = validate::check_text(&text, Some(id), Mode::Strict);
    crate::out!(
        "{}",
        project.redact(&render_replay(&project.root, &shown, &text, &notes))
    );
    Ok(0)
}

/// `continue` without an id: the saved sessions, and the advice to ask the user which one;
/// exit 2.
fn list_and_ask(project: &Project, dir: &Path) -> i32 {
    let list = summaries(dir);
    crate::out!(
        "{}",
        project.redact(&render_list(&project.root, dir, &list, project.redactor()))
    );
    if !list.is_empty() {
        crate::outln!(
            "\nAsk the user which one to resume, then run {} SESSION-ID. baton does not pick for you: in a shared workspace the newest session may be another agent's.",
            super::resume_command(project.config())
        );
    }
    eprintln!("baton handoff continue: no SESSION-ID given; nothing replayed");
    2
}

/// The replay text: header, re-verification, the newest block's body.
fn render_replay(root: &Path, shown: &str, text: &str, notes: &[String]) -> String {
    let blocks = frontmatter::split_blocks(text);
    let with_front: Vec<_> = blocks.iter().filter(|b| b.front.is_some()).collect();
    let total = with_front.len();
    let Some(newest) = with_front.last() else {
        return format!("{shown} has no block to replay.\n");
    };
    let mut out = header(newest, total);
    out.push_str(&reverification(root, newest));
    if !notes.is_empty() {
        out.push_str("\nFormat notes (strict check; the artefact is still usable):\n");
        for n in notes {
            out.push_str(&format!("- {n}\n"));
        }
    }
    out.push_str(&saved_state(newest, total, shown));
    out
}

/// The replay's first lines: which block, and its front matter.
fn header(newest: &frontmatter::Block<'_>, total: usize) -> String {
    let fields = frontmatter::parse_fields(newest.front.as_deref().unwrap_or_default());
    // One line each: a quoted value can unquote to line breaks and escape sequences.
    let get = |k: &str| {
        fields
            .get(k)
            .map_or_else(|| "(missing)".to_string(), one_line)
    };
    let tasks = fields
        .lists
        .get("active_tasks")
        .filter(|t| !t.is_empty())
        .map_or_else(
            || "none".to_string(),
            |t| t.iter().map(|x| one_line(x)).collect::<Vec<_>>().join(", "),
        );
    format!(
        "# Resuming {} (block {total} of {total}, captured {} by {})\n\nRecommended next: {}\nNext action: {}\nActive tasks: {tasks}\n",
        get("session_id"),
        get("captured_at"),
        fields.get("captured_by").map_or("(missing)", |b| captured_by_label(b)
            .unwrap_or("? (neither agent nor operator)")),
        get("recommended_next"),
        get("next_action"),
    )
}

/// The re-verification section: one line per finding, then what to make of them.
fn reverification(root: &Path, newest: &frontmatter::Block<'_>) -> String {
    let findings = reverify::reverify(root, newest.body, newest.body_line);
    let mut out = String::from(
        "\n## Re-verification (checked just now, before acting on anything below)\n\n",
    );
    if findings.is_empty() {
        out.push_str("- nothing checkable: no `HEAD:` in Layer 1, no paths in Layer 3, no SHA in a `verified:` line\n");
    }
    for f in &findings {
        out.push_str(&format!("- {}: {}\n", f.kind.label(), f.text));
    }
    let bad = findings.iter().filter(|f| f.kind != Kind::Ok).count();
    if bad == 0 {
        out.push_str("\nEvery check passed; the saved state still matches the repository.\n");
    } else {
        out.push_str(&format!(
            "\n{bad} finding(s) above: treat the matching parts of the saved state as stale, re-check them, and tell the user before relying on them.\n"
        ));
    }
    out
}

/// The newest block's body, with where it is in the file.
fn saved_state(newest: &frontmatter::Block<'_>, total: usize, shown: &str) -> String {
    let end_line = newest.body_line + newest.body.lines().count().saturating_sub(1);
    let mut out = format!(
        "\n## Saved state (newest block, lines {}–{end_line} of {shown})\n",
        newest.body_line
    );
    if total > 1 {
        out.push_str(&format!(
            "({} earlier block(s) in the file are not shown; read the file for the full decision log.)\n",
            total - 1
        ));
    }
    out.push_str(newest.body);
    if !newest.body.ends_with('\n') {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_shows_the_newest_block_with_findings_first() {
        let t = tempfile::tempdir().unwrap();
        let block = |next: &str, l3: &str| {
            format!("---\nartifact: session-handoff\nschema_version: 1\nsession_id: SESSION-20261130-101500\ncaptured_at: 2026-11-30T10:15:00Z\ncaptured_by: agent\nrecommended_next: /dr-next A-0001\nnext_action: {next}\nactive_tasks:\n  - A-0001\n---\n\n## Layer 1\nnone\n## Layer 3\n{l3}\n## Layer 5\nnone\n")
        };
        let text = format!(
            "{}\n{}",
            block("first", "- a.rs"),
            block("second", "- b.rs")
        );
        std::fs::write(t.path().join("b.rs"), "").unwrap();
        let out = render_replay(t.path(), "x.session.md", &text, &[]);
        assert!(
            out.starts_with("# Resuming SESSION-20261130-101500 (block 2 of 2"),
            "{out}"
        );
        assert!(out.contains("Next action: second\n"), "{out}");
        assert!(!out.contains("first"), "{out}");
        assert!(out.contains("1 earlier block(s)"), "{out}");
        assert!(out.contains("Every check passed"), "{out}");
        let out = render_replay(
            t.path(),
            "x",
            &format!("{}\n{}", block("a", "- b.rs"), block("b", "- a.rs")),
            &[],
        );
        assert!(
            out.contains("- FILE-MISSING: a.rs (Layer 3, line 35)"),
            "{out}"
        );
    }

    #[test]
    fn summaries_read_the_newest_block() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(
            t.path().join("SESSION-20261130-101500.session.md"),
            "---\nartifact: session-handoff\nnext_action: one\n---\n\n---\nartifact: session-handoff\ncaptured_by: operator\nnext_action: two\n---\nbody\n",
        )
        .unwrap();
        let s = summaries(t.path());
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].next_action, "two");
        assert_eq!(s[0].blocks, 2);
        let text = render_list(t.path(), t.path(), &s, &Redactor::builtin());
        assert!(
            text.contains(
                "SESSION-20261130-101500  2026-11-30 10:15 by operator, 2 block(s) — two"
            ),
            "{text}"
        );
    }
}
