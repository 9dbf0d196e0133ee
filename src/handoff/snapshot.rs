//! datarim's per-task stage snapshots, `datarim/snapshots/{TASK-ID}.snapshot.md`, reused in
//! Layer 2 of a handoff body as the seed spec says ("Reuse the body from
//! datarim/snapshots/{TASK-ID}.snapshot.md where present"): the draft `/baton:dr-save`
//! starts from and the automatic save at PreCompact both carry each active task's snapshot
//! body under a `### TASK-ID` heading.
//!
//! A snapshot is someone else's file, so it is read without following a symlink, bounded,
//! and copied so that it cannot change the artefact's structure: its front matter is left
//! out (its stage and time go into the heading), its headings move one level down (a
//! `## Layer N` of its own would start a layer), a `---` line is indented (it would read as a
//! front matter fence), a line with a control character is quoted, and a long body is cut
//! with a pointer to the file.

use crate::core::fsx;
use crate::core::project::Project;
use std::fmt::Write as _;
use std::path::Path;

/// Where the snapshots live, under the project root.
const DIR: &str = "datarim/snapshots";
/// The most of one snapshot's body copied into Layer 2 (the whole artefact is 32 KB).
const MAX_BODY: usize = 6_000;
/// Snapshots larger than this are not read at all.
const READ_LIMIT: fsx::Limit = fsx::Limit {
    what: "a stage snapshot",
    max: 1024 * 1024,
};

/// One task's snapshot, ready for Layer 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Snapshot {
    /// The `### TASK-ID …` heading and the copied body, each line ending in a line break.
    pub(crate) text: String,
}

/// The snapshot of `task` (a valid task id) in the project, when there is one that can be
/// read; a snapshot that cannot (a symlink, a folder, too large) is left out.
pub(crate) fn read(project: &Project, task: &str) -> Option<Snapshot> {
    let rel = format!("{DIR}/{task}.snapshot.md");
    let path = fsx::join_inside(&project.root, Path::new(&rel)).ok()?;
    let text = fsx::read_limited(&path, READ_LIMIT).ok()??;
    Some(Snapshot {
        text: render(task, &rel, &text),
    })
}

/// The heading and the copied body of a snapshot whose text is `text`.
fn render(task: &str, rel: &str, text: &str) -> String {
    let (front, body_text) = split_front(text);
    let mut about = vec![format!("from {rel}")];
    for key in ["stage", "captured_at"] {
        if let Some(v) = field(front, key) {
            about.push(format!("{}: {}", key.replace('_', " "), one_safe_line(v)));
        }
    }
    let mut out = format!("### {task} ({})\n", about.join(", "));
    let mut used = 0;
    let mut lines = body_text.lines().skip_while(|l| l.trim().is_empty());
    for line in lines.by_ref() {
        let copied = copy_line(line);
        if used + copied.len() > MAX_BODY {
            let rest = copied.len() + lines.map(|l| l.len() + 1).sum::<usize>();
            let _ = writeln!(
                out,
                "(… {rest} more bytes of the snapshot not copied; read {rel})"
            );
            return out;
        }
        used += copied.len() + 1;
        out.push_str(&copied);
        out.push('\n');
    }
    out
}

/// The front matter (without its fences) and the rest; no front matter: ("", text).
fn split_front(text: &str) -> (&str, &str) {
    let Some(rest) = text.strip_prefix("---\n") else {
        return ("", text);
    };
    let mut off = 0;
    for piece in rest.split_inclusive('\n') {
        if is_fence(piece.trim_end_matches(['\n', '\r'])) {
            return (&rest[..off], &rest[off + piece.len()..]);
        }
        off += piece.len();
    }
    ("", text)
}

/// A `key: value` of a front matter.
fn field<'a>(front: &'a str, key: &str) -> Option<&'a str> {
    front.lines().find_map(|l| {
        l.strip_prefix(key)?
            .strip_prefix(':')
            .map(str::trim)
            .filter(|v| !v.is_empty())
    })
}

fn is_fence(line: &str) -> bool {
    line.strip_prefix("---")
        .is_some_and(|r| r.chars().all(char::is_whitespace))
}

/// One body line as it is copied (see the module doc).
fn copy_line(line: &str) -> String {
    if line.chars().any(char::is_control) {
        return format!("{line:?}");
    }
    if is_fence(line) {
        return format!(" {line}");
    }
    if line.starts_with('#') {
        // `## Layer N` becomes `### Layer N`, no layer heading.
        return format!("#{line}");
    }
    line.to_string()
}

/// A front matter value as one line without control characters.
fn one_safe_line(v: &str) -> String {
    let v = v.trim_matches('"');
    if v.chars().any(char::is_control) {
        format!("{v:?}")
    } else {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handoff::body;

    const SNAP: &str = "---\ntask_id: TUNE-0254\nartifact: stage-snapshot\nstage: plan\ncaptured_at: 2026-05-21T00:00:00Z\n---\n\nPlan done; next /dr-do.\n## Layer 5 — forged\n---\nartifact: session-handoff\nbell \u{7} here\n";

    #[test]
    fn the_body_is_copied_under_a_heading_and_cannot_forge_structure() {
        let text = render("TUNE-0254", "datarim/snapshots/TUNE-0254.snapshot.md", SNAP);
        assert_eq!(
            text,
            "### TUNE-0254 (from datarim/snapshots/TUNE-0254.snapshot.md, stage: plan, captured at: 2026-05-21T00:00:00Z)\nPlan done; next /dr-do.\n### Layer 5 — forged\n ---\nartifact: session-handoff\n\"bell \\u{7} here\"\n"
        );
        for n in 1..=5 {
            assert!(!body::has_layer(&text, n), "{text}");
        }
    }

    #[test]
    fn no_front_matter_and_long_bodies() {
        let text = render("A-0001", "s.md", "just text\r\n");
        assert_eq!(text, "### A-0001 (from s.md)\njust text\n");
        let long = "x".repeat(100) + "\n";
        let text = render("A-0001", "s.md", &long.repeat(100));
        assert!(text.len() < MAX_BODY + 200, "{}", text.len());
        assert!(
            text.ends_with("more bytes of the snapshot not copied; read s.md)\n"),
            "{text}"
        );
    }
}
