//! `baton handoff continue`: validate, re-verify, then replay the newest block in datarim's
//! replay-prompt form: the re-verification findings first, then the recommended next
//! command, one instruction line, and `done before:` over the saved body, where each
//! `verified:` tag no check confirmed reads `unverified:`.
//!
//! Without an id it lists the saved sessions and exits 2: in a shared workspace the newest
//! session may be another agent's, so it never guesses. A TASK-ID (`TUNE-0420`) instead of a
//! session id resumes the newest session whose newest block lists that task as active: the
//! user named the work, so nothing is guessed.

use super::body;
use super::frontmatter;
use super::resume_block;
use super::reverify;
use super::session;
use super::validate::{self, Mode, Verdict};
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::io::{out, outln};
use crate::core::project::Project;
use crate::core::redact::Redactor;
use crate::core::scan::Secrets;
use crate::core::text::{one_line, quotable};
use crate::core::trust;
use std::path::Path;

/// What a listing shows of one saved session (its newest block).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Summary {
    pub(crate) id: String,
    pub(crate) captured_at: String,
    pub(crate) captured_by: String,
    pub(crate) recommended_next: String,
    pub(crate) next_action: String,
    /// The newest block's `active_tasks:`.
    pub(crate) active_tasks: Vec<String>,
    pub(crate) blocks: usize,
    /// Written by baton at a compaction (`auto::AUTO_MARK`), not saved on purpose.
    pub(crate) automatic: bool,
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
        active_tasks: fields
            .lists
            .get("active_tasks")
            .cloned()
            .unwrap_or_default(),
        blocks: with_front.len(),
        automatic: text.contains(super::auto::AUTO_MARK.trim_end()),
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

/// Runs `baton handoff continue [ID | TASK-ID]`.
pub(crate) fn run(arg: Option<&str>, project: &Project) -> Result<i32> {
    let dir = session::sessions_dir(project);
    let Some(arg) = arg else {
        return Ok(list_and_ask(project, &dir));
    };
    let Some((id, resolved)) = resolve(arg, &dir)? else {
        return Ok(1);
    };
    let path = session::artefact_path(&dir, &id);
    let shown = session::display_path(&project.root, &path);
    match validate::check_file(&path, Some(&id), Mode::Light) {
        Verdict::Missing => {
            eprintln!(
                "baton handoff continue: no saved session {id} at {shown}; saved here: {}",
                names_or_none(&session::list(&dir))
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
    let notes = validate::check_text(&text, Some(&id), Mode::Strict);
    let replay = render_replay(&project.root, &shown, &text, &notes, project.redactor());
    out!(
        "{}",
        project.redact(&format!("{}{replay}", resolved.unwrap_or_default()))
    );
    // Picked up: "Resume here" stops naming it (best effort: without it, the session that
    // goes on from it still supersedes it by its work).
    let _ = crate::core::resume_log::record_picked_up(project, &session::point_id(&id));
    Ok(0)
}

/// The session `arg` names: a session id as it is, a TASK-ID as the newest session listing
/// it (with the line that says so); `None` (reported on stderr) when no session lists the
/// task.
fn resolve(arg: &str, dir: &Path) -> Result<Option<(String, Option<String>)>> {
    if session::is_session_id(arg) {
        return Ok(Some((arg.to_string(), None)));
    }
    if !resume_block::is_task_id(arg) {
        return Err(Error::InvalidId {
            what: "session or task id",
            value: arg.to_string(),
            reason: "must match ^SESSION-[0-9]{8}-[0-9]{6}$ (a session id, e.g. SESSION-20261130-101500) or be a task id (e.g. TUNE-0420)",
        });
    }
    let Some(id) = newest_for_task(dir, arg) else {
        eprintln!(
            "baton handoff continue: no saved session lists task {arg} as active in its newest block; saved here: {}",
            names_or_none(&session::list(dir))
        );
        return Ok(None);
    };
    let note = format!(
        "{arg} → {id}: the newest saved session whose newest block lists {arg} as active.\n\n"
    );
    Ok(Some((id, Some(note))))
}

/// The ids, comma-separated, or "none".
fn names_or_none(ids: &[String]) -> String {
    if ids.is_empty() {
        "none".to_string()
    } else {
        ids.join(", ")
    }
}

/// The newest session in `dir` whose newest block lists `task` in `active_tasks:`.
fn newest_for_task(dir: &Path, task: &str) -> Option<String> {
    session::list(dir)
        .into_iter()
        .find(|id| summary(dir, id).is_some_and(|s| s.active_tasks.iter().any(|t| t == task)))
}

/// `continue` without an id: the saved sessions, and the advice to ask the user which one;
/// exit 2.
fn list_and_ask(project: &Project, dir: &Path) -> i32 {
    let list = summaries(dir);
    out!(
        "{}",
        project.redact(&render_list(&project.root, dir, &list, project.redactor()))
    );
    if !list.is_empty() {
        outln!(
            "\nAsk the user which one to resume, then run {} SESSION-ID. baton does not pick for you: in a shared workspace the newest session may be another agent's.",
            super::resume_command(project.config())
        );
    }
    eprintln!("baton handoff continue: no SESSION-ID given; nothing replayed");
    2
}

/// The replay text: header, re-verification, the newest block's body.
fn render_replay(
    root: &Path,
    shown: &str,
    text: &str,
    notes: &[String],
    red: &dyn Secrets,
) -> String {
    let blocks = frontmatter::split_blocks(text);
    let with_front: Vec<_> = blocks.iter().filter(|b| b.front.is_some()).collect();
    let total = with_front.len();
    let Some(newest) = with_front.last() else {
        return format!("{shown} has no block to replay.\n");
    };
    let mut out = header(newest, total, red);
    let checked = reverify::reverify_lines(root, newest.body, newest.body_line);
    out.push_str(&reverification(&checked));
    if !notes.is_empty() {
        out.push_str("\nFormat notes (strict check; the artefact is still usable):\n");
        for n in notes {
            out.push_str(&format!("- {n}\n"));
        }
    }
    out.push_str(&saved_state(
        newest,
        total,
        shown,
        &checked.unconfirmed,
        red,
    ));
    out
}

/// The replay's first lines: which block, and its front matter.
fn header(newest: &frontmatter::Block<'_>, total: usize, red: &dyn Secrets) -> String {
    let fields = frontmatter::parse_fields(newest.front.as_deref().unwrap_or_default());
    // One line each: a quoted value can unquote to line breaks and escape sequences. A value
    // the integrity scan blocks is named, not shown (`core::trust`).
    let get = |k: &str| {
        fields.get(k).map_or_else(
            || "(missing)".to_string(),
            |v| trust::field(&one_line(v), red),
        )
    };
    let tasks = fields
        .lists
        .get("active_tasks")
        .filter(|t| !t.is_empty())
        .map_or_else(
            || "none".to_string(),
            |t| {
                t.iter()
                    .map(|x| trust::field(&one_line(x), red))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        );
    // The artefact's next steps are its writer's words (the model's, a teammate's): shown
    // quoted and said to be so, never as a line of baton's (`core::trust`). A plain command
    // (`/dr-next TUNE-0420`) is datarim's form and names no more than a command.
    let recommended = get("recommended_next");
    let recommended = if plain_command(&recommended) {
        format!("Recommended next: {recommended}")
    } else {
        format!(
            "Recommended next (the artefact's words, quoted): \"{}\"",
            quotable(&recommended, QUOTED_MAX)
        )
    };
    format!(
        "# Resuming {} (block {total} of {total}, captured {} by {})\n\n{recommended}\nNext action (the artefact's words, quoted; check them with the user before acting): \"{}\"\nActive tasks: {tasks}\n",
        get("session_id"),
        get("captured_at"),
        fields.get("captured_by").map_or("(missing)", |b| captured_by_label(b)
            .unwrap_or("? (neither agent nor operator)")),
        match fields.get("next_action") {
            Some(_) => quotable(&get("next_action"), QUOTED_MAX),
            None => "(missing)".into(),
        },
    )
}

/// Characters of a quoted next step.
const QUOTED_MAX: usize = 300;

/// Whether `text` is a plain slash command with at most one plain argument
/// (`/dr-next TUNE-0420`): shown as it is, in datarim's replay form.
fn plain_command(text: &str) -> bool {
    let plain = |w: &str| {
        !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b':' | b'.' | b'_' | b'-'))
    };
    let mut words = text.split(' ');
    let command = words.next().and_then(|c| c.strip_prefix('/'));
    command.is_some_and(plain) && words.next().is_none_or(plain) && words.next().is_none()
}

/// The re-verification section: one line per finding, then what to make of them.
fn reverification(checked: &reverify::Reverified) -> String {
    let findings = &checked.findings;
    let mut out = String::from(
        "\n## Re-verification (checked just now, before acting on anything below)\n\n",
    );
    if checked.files_present > 0 {
        out.push_str(&format!(
            "- OK: {} path(s) that Layer 3 names exist\n",
            checked.files_present
        ));
    }
    for f in findings {
        out.push_str(&format!("- {}: {}\n", f.kind.label(), f.text));
    }
    let bad = findings.iter().filter(|f| f.kind.is_problem()).count();
    if findings.is_empty() && checked.files_present == 0 {
        out.push_str("- nothing to check: no `HEAD:` in Layer 1, no paths in Layer 3, no SHA in a `verified:` line\n\nNothing was checked: compare the saved state with the repository yourself before relying on it.\n");
    } else if bad == 0 {
        out.push_str("\nEvery check passed; the saved state still matches the repository.\n");
    } else {
        out.push_str(&format!(
            "\n{bad} finding(s) above: treat the matching parts of the saved state as stale, re-check them, and tell the user before relying on them.\n"
        ));
    }
    if !checked.unconfirmed.is_empty() {
        out.push_str(&format!(
            "{} `verified:` line(s) below read `unverified:`: a check above failed for them, or they name no commit that could be checked.\n",
            checked.unconfirmed.len()
        ));
    }
    out
}

/// The instruction between the recommended next command and `done before:` (datarim's
/// replay prompt has its own bilingual autonomy block here; this is baton's, which keeps
/// the user in the loop where a finding says the saved state no longer holds).
const REPLAY_INSTRUCTION: &str = "Investigate every finding above yourself and answer what you can without the user; do every step you can do yourself, and ask the user only where a finding makes the next step unsafe.";

/// The newest block in datarim's replay-prompt form: the recommended next command, the
/// instruction, then `done before:` and the body, its unconfirmed `verified:` tags
/// downgraded.
fn saved_state(
    newest: &frontmatter::Block<'_>,
    total: usize,
    shown: &str,
    unconfirmed: &[usize],
    red: &dyn Secrets,
) -> String {
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
    let fields = frontmatter::parse_fields(newest.front.as_deref().unwrap_or_default());
    // A recommended next step that is more than a plain command is the artefact's words: it
    // goes inside the frame, quoted, not before the instruction as a line of baton's.
    let next = fields
        .get("recommended_next")
        .map(|n| trust::field(&one_line(n), red))
        .filter(|n| !n.is_empty());
    let mut quoted = String::new();
    match next {
        Some(n) if plain_command(&n) => out.push_str(&format!("\n{n}\n")),
        Some(n) => {
            quoted = format!(
                "Recommended next (the artefact's words, quoted): \"{}\"\n\n",
                quotable(&n, QUOTED_MAX)
            );
        }
        None => {}
    }
    out.push_str(&format!("\n{REPLAY_INSTRUCTION}\n\ndone before:\n"));
    // The body is the saved session's record: the lines the scan blocks go, and the rest is
    // framed as the data it is.
    let body = trust::lines(downgrade(newest.body, unconfirmed).trim_end(), red);
    out.push_str(&trust::frame("saved session", &format!("{quoted}{body}")));
    out.push('\n');
    out
}

/// `body` with each `verified:` tag (at the start of a word) of the given 0-based lines
/// turned into `unverified:`.
fn downgrade(body: &str, lines: &[usize]) -> String {
    let mut out = String::with_capacity(body.len() + 16 * lines.len());
    for (i, piece) in body.split_inclusive('\n').enumerate() {
        if !lines.contains(&i) {
            out.push_str(piece);
            continue;
        }
        let mut last = 0;
        for at in body::tag_positions(piece, "verified:") {
            out.push_str(&piece[last..at]);
            out.push_str("unverified:");
            last = at + "verified:".len();
        }
        out.push_str(&piece[last..]);
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
        let red = crate::core::redact::Redactor::builtin();
        let out = render_replay(t.path(), "x.session.md", &text, &[], &red);
        assert!(
            out.starts_with("# Resuming SESSION-20261130-101500 (block 2 of 2"),
            "{out}"
        );
        assert!(
            out.contains("Next action (the artefact's words, quoted; check them with the user before acting): \"second\"\n"),
            "{out}"
        );
        assert!(!out.contains("first"), "{out}");
        assert!(out.contains("1 earlier block(s)"), "{out}");
        assert!(out.contains("Every check passed"), "{out}");
        let out = render_replay(
            t.path(),
            "x",
            &format!("{}\n{}", block("a", "- b.rs"), block("b", "- a.rs")),
            &[],
            &red,
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
