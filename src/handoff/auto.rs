//! The minimal artefact PreCompact (trigger `auto`) saves, so that an unplanned compaction
//! still leaves a handoff: Layer 1 from git, Layer 2 from `datarim/tasks.md`'s Active
//! section with each task's stage snapshot (`datarim/snapshots/{TASK-ID}.snapshot.md`), Layer 3 from the audit trail's changed files (when an audit session is current)
//! and `git status`, under a fresh id, `captured_by: agent`.
//!
//! Nothing in it is the agent's word, so any line that happens to hold a claim keyword (a
//! branch called `merged-fix`, a task titled "… deployed …") is tagged `assumed:`.

use super::body;
use super::resume_block;
use super::session;
use super::snapshot::{self, Snapshot};
use super::writer::{self, Request};
use crate::core::error::Result;
use crate::core::fsx;
use crate::core::git::{self, GitState};
use crate::core::project::Project;
use crate::core::recap::{Recap, TaskStatus};
use crate::core::text;
use crate::core::time;
use std::path::Path;
use std::time::Duration;

/// The first line of an automatic save's body: how a reader tells it from a saved one.
pub(crate) const AUTO_MARK: &str =
    "Automatic save written by baton before a context compaction; the agent did not write it.\n\n";

/// The next action of an automatic save that knows nothing of the session's work (capture
/// recorded nothing): it names no work of its own ("Resume here" does not let it win).
pub(crate) const GENERIC_NEXT: &str = "Context was compacted automatically; re-check the git state below, then continue the interrupted work.";

/// The status lines listed before "… N more".
const MAX_STATUS_LINES: usize = 60;

/// The request for an automatic save now, under a fresh id; what capture recorded of
/// session `session_id` (its open tasks, files in flight, last failure, where it was going)
/// fills the layers the repository cannot, each line marked as an assumption.
pub(crate) fn request(
    project: &Project,
    session_id: &str,
    lock_timeout: Duration,
) -> Result<Request> {
    let now = project.now();
    let id = writer::next_free_id(&session::sessions_dir(project), now);
    // Read now, not `project.git()` (read once per run, perhaps before): handlers that ran
    // before this one on the same PreCompact may have written into the work tree (the
    // bridge's automatic checkpoint), and Layer 1 is the state at the save.
    let state = git::state(&project.root)?;
    let tasks = ActiveTasks::read(project, &[]);
    let recap = project.session_recap(Some(session_id).filter(|s| !s.is_empty()));
    let mut touched = project.session_changes();
    for f in recap.iter().flat_map(|r| r.files.iter()) {
        if !touched.contains(f) {
            touched.push(f.clone());
        }
    }
    let body = tag_claims(&render_body(
        &project.root,
        &state,
        &tasks,
        &touched,
        Purpose::Automatic(recap.as_ref()),
    ));
    let next_action = recap
        .as_ref()
        .and_then(captured_next)
        .unwrap_or_else(|| GENERIC_NEXT.into());
    Ok(Request {
        session_id: id.clone(),
        captured_by: "agent".into(),
        captured_at: time::rfc3339(now),
        recommended_next: format!("{} {id}", super::resume_command(project.config())),
        next_action,
        active_tasks: resume_block::task_ids(&tasks.lines.join("\n")),
        body,
        lock_timeout,
    })
}

/// A draft body for `/baton:dr-save`: the same git and task facts, with the layers only the
/// agent can write marked for it. `extra` are task ids not in tasks.md's Active section
/// whose snapshots Layer 2 carries too.
pub(crate) fn draft(project: &Project, extra: &[String]) -> Result<String> {
    let state = project.git()?;
    let tasks = ActiveTasks::read(project, extra);
    Ok(tag_claims(&render_body(
        &project.root,
        state,
        &tasks,
        &[],
        Purpose::Draft,
    )))
}

/// The active tasks of `datarim/tasks.md`, and their stage snapshots.
struct ActiveTasks {
    /// Whether the project has a `datarim/tasks.md` at all.
    has_tasks_md: bool,
    /// The task lines of its `## Active` section.
    lines: Vec<String>,
    /// The snapshots of those tasks (and of the extra ones asked for), where present.
    snapshots: Vec<Snapshot>,
}

impl ActiveTasks {
    /// tasks.md's Active section; the snapshots of its task ids and of `extra`.
    fn read(project: &Project, extra: &[String]) -> ActiveTasks {
        let tasks_md = fsx::read_limited(&project.path("datarim/tasks.md"), fsx::Limit::DOCUMENT)
            .ok()
            .flatten();
        let lines = tasks_md.as_deref().map(active_lines).unwrap_or_default();
        let mut ids = resume_block::task_ids(&lines.join("\n"));
        for t in extra {
            if !ids.contains(t) {
                ids.push(t.clone());
            }
        }
        ActiveTasks {
            has_tasks_md: tasks_md.is_some(),
            lines,
            snapshots: ids
                .iter()
                .filter_map(|id| snapshot::read(project, id))
                .collect(),
        }
    }
}

/// The lines of the `## Active` section of tasks.md that list a task (`- …`).
fn active_lines(tasks_md: &str) -> Vec<String> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in tasks_md.lines() {
        if line.starts_with("## ") {
            inside = line.trim_end() == "## Active";
            continue;
        }
        if inside && line.starts_with("- ") {
            out.push(line.to_string());
        }
    }
    out
}

/// Who the body is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose<'a> {
    /// Saved as is at PreCompact, with what capture recorded of the session, if anything.
    Automatic(Option<&'a Recap>),
    /// A draft for `/baton:dr-save`, which the agent completes.
    Draft,
}

/// The most characters of a task or request quoted in the next action.
const QUOTED_MAX: usize = 300;

/// What capture says the session was about to do: the task in progress, else the latest
/// request. Either is quoted: the task is the model's words and the request may be a pasted
/// text, data to the session that resumes, not baton's instruction (Resume here compares
/// actions without their quotes).
fn captured_next(r: &Recap) -> Option<String> {
    let current = r.tasks.iter().find(|t| t.status == TaskStatus::InProgress);
    match (current, &r.latest_request) {
        (Some(t), _) => Some(format!(
            "Context was compacted automatically; continue the task in progress: \"{}\"",
            text::quotable(&t.subject, QUOTED_MAX)
        )),
        (None, Some(req)) => Some(format!(
            "Context was compacted automatically; continue the request: \"{}\"",
            text::quotable(req, QUOTED_MAX)
        )),
        (None, None) => None,
    }
}

/// The five layers, from what the repository says (and, for an automatic save, what capture
/// recorded of the session).
fn render_body(
    root: &Path,
    state: &GitState,
    tasks: &ActiveTasks,
    touched: &[String],
    purpose: Purpose<'_>,
) -> String {
    let recap = match purpose {
        Purpose::Automatic(r) => r,
        Purpose::Draft => None,
    };
    let mut out = String::from(match purpose {
        Purpose::Automatic(_) => AUTO_MARK,
        Purpose::Draft => "",
    });
    out.push_str(&git_layer(root, state));
    out.push_str(&tasks_layer(tasks, recap));
    let status = state.repo().map_or(&[][..], |r| &r.status[..]);
    out.push_str(&files_layer(status, touched));
    out.push_str(&match purpose {
        Purpose::Automatic(_) => format!(
            "\n## Layer 4 — Open Questions\n\nNone recorded (automatic save).\n\n## Layer 5 — Failed Approaches\n\n{}",
            failures_layer(recap)
        ),
        Purpose::Draft => "\n## Layer 4 — Open Questions\n\n(agent: each open question, tagged verified: or assumed:, or None.)\n\n## Layer 5 — Failed Approaches\n\n(agent: each approach tried and abandoned, and why it failed, or None.)\n".into(),
    });
    out
}

/// Layer 5 of an automatic save: the last failure capture saw, or none recorded.
fn failures_layer(recap: Option<&Recap>) -> String {
    match recap.and_then(|r| r.last_failure.as_ref()) {
        Some(f) => format!(
            "- `{}` failed: {} — assumed: captured automatically from the session, not the agent's word\n",
            body_safe(&f.command),
            body_safe(&f.error)
        ),
        None => "None recorded (automatic save): ask the user what was tried if it matters.\n".into(),
    }
}

/// Layer 1: the repository, its branch, HEAD and status lines.
fn git_layer(root: &Path, state: &GitState) -> String {
    let mut out = String::from("## Layer 1 — Git State\n\n");
    let root = body_safe(&root.display().to_string());
    let Some(r) = state.repo() else {
        out.push_str(&format!("repo: {root}  (not a git repository)\n"));
        return out;
    };
    out.push_str(&format!(
        "repo: {root}  branch: {}  HEAD: {}  status: {}\n",
        r.branch.as_deref().unwrap_or("(detached)"),
        r.head_sha.as_deref().unwrap_or("(no commits)"),
        if r.status.is_empty() {
            "clean"
        } else {
            "dirty"
        }
    ));
    for line in r.status.iter().take(MAX_STATUS_LINES) {
        out.push_str(&format!("    {}\n", body_safe(line)));
    }
    if r.status.len() > MAX_STATUS_LINES {
        out.push_str(&format!(
            "    … {} more\n",
            r.status.len() - MAX_STATUS_LINES
        ));
    }
    out
}

/// Layer 2: the Active lines of `datarim/tasks.md`, then the open tasks of the session's own
/// task list (an automatic save).
fn tasks_layer(tasks: &ActiveTasks, recap: Option<&Recap>) -> String {
    let mut out = String::from("\n## Layer 2 — Active Tasks\n\n");
    for line in &tasks.lines {
        out.push_str(&body_safe(line));
        out.push('\n');
    }
    let open: Vec<_> = recap
        .iter()
        .flat_map(|r| r.tasks.iter())
        .filter(|t| t.status != TaskStatus::Completed)
        .collect();
    for t in &open {
        out.push_str(&format!(
            "- {} ({}) — assumed: from the session's task list, captured automatically\n",
            body_safe(&t.subject),
            t.status.as_str()
        ));
    }
    for s in &tasks.snapshots {
        out.push('\n');
        out.push_str(&s.text);
    }
    if tasks.lines.is_empty() && open.is_empty() && tasks.snapshots.is_empty() {
        out.push_str(if tasks.has_tasks_md {
            "No active tasks listed in datarim/tasks.md.\n"
        } else {
            "No active tasks recorded.\n"
        });
    }
    out
}

/// Layer 3: the files the audit trail saw changed this session first, then the other
/// uncommitted ones from `git status`.
fn files_layer(status: &[String], touched: &[String]) -> String {
    let mut out = String::from("\n## Layer 3 — Related Files\n\n");
    for path in touched.iter().take(MAX_STATUS_LINES) {
        out.push_str(&format!(
            "- {} — changed this session (audit trail)\n",
            body_safe(path)
        ));
    }
    if touched.len() > MAX_STATUS_LINES {
        out.push_str(&format!(
            "- … {} more in the audit trail\n",
            touched.len() - MAX_STATUS_LINES
        ));
    }
    if status.is_empty() && touched.is_empty() {
        out.push_str("No uncommitted changes (git status is clean).\n");
    }
    for line in status.iter().take(MAX_STATUS_LINES) {
        let (code, path) = line.split_at(line.len().min(3));
        if touched.iter().any(|t| t == path) {
            continue;
        }
        let note = if code.contains('D') {
            "deleted, uncommitted"
        } else if code.contains('?') {
            "untracked"
        } else {
            "changed, uncommitted"
        };
        out.push_str(&format!("- {} — {note}\n", body_safe(path)));
    }
    out
}

/// Text from the repository (a file name, a tasks.md line) as it goes into the body: as it
/// is, or quoted with escapes when it holds a control character (a file name can hold a line
/// break, which would forge body lines, even a new block).
fn body_safe(text: &str) -> String {
    if text.chars().any(char::is_control) {
        format!("{text:?}")
    } else {
        text.to_string()
    }
}

/// Tags every line that holds a claim keyword as an assumption.
fn tag_claims(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        out.push_str(line);
        if body::claim_keyword(line).is_some() && !body::is_tagged(line) {
            out.push_str("  assumed: captured automatically, not checked");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::git::RepoState;

    #[test]
    fn active_section_only() {
        let md = "# Tasks\n\n## Active\n- A-0001 · wip · P1 · L1 · One → tasks/a.md\nnot a task\n- B-0002 · wip · P1 · L1 · Two\n\n## Done\n- C-0003 · done\n";
        let lines = active_lines(md);
        assert_eq!(lines.len(), 2);
        assert!(lines[1].starts_with("- B-0002"));
    }

    #[test]
    fn only_task_ids_of_the_active_section_become_active_tasks() {
        let md = "## Active\n- A-0001 · one letter\n- [ ] TUNE-0001 todo\n- VERD-0050 · wip · P1 · L1 · Two\n- #42 fix\n";
        let ids = resume_block::task_ids(&active_lines(md).join("\n"));
        assert_eq!(ids, vec!["VERD-0050"]);
    }

    #[test]
    fn control_characters_from_the_repository_are_escaped() {
        let state = GitState::Repo(RepoState {
            head_sha: None,
            branch: None,
            status: vec!["?? a\n---\nartifact: x".into()],
            last_commit_paths: vec![],
        });
        let tasks = ActiveTasks {
            has_tasks_md: true,
            lines: vec!["- AB-0001 · x\u{1b}[2J".into()],
            snapshots: vec![],
        };
        let text = render_body(
            Path::new("/r"),
            &state,
            &tasks,
            &[],
            Purpose::Automatic(None),
        );
        assert!(
            !text.contains('\u{1b}') && !text.contains("\n---\n"),
            "{text}"
        );
        assert!(
            text.contains("- \"a\\n---\\nartifact: x\" — untracked\n"),
            "{text}"
        );
        assert_eq!(body_safe("plain — ok"), "plain — ok");
    }

    #[test]
    fn body_has_every_layer_and_no_untagged_claim() {
        let state = GitState::Repo(RepoState {
            head_sha: Some("0123456789abcdef0123456789abcdef01234567".into()),
            branch: Some("merged-fix".into()),
            status: vec![
                " M src/green.rs".into(),
                "?? new.txt".into(),
                " D old.rs".into(),
            ],
            last_commit_paths: vec![],
        });
        let tasks = ActiveTasks {
            has_tasks_md: true,
            lines: vec!["- A-0001 · wip · P1 · L1 · Get CI passing".into()],
            snapshots: vec![],
        };
        let text = tag_claims(&render_body(
            Path::new("/r"),
            &state,
            &tasks,
            &["src/green.rs".into(), "src/committed.rs".into()],
            Purpose::Automatic(None),
        ));
        for n in 1..=5 {
            assert!(body::has_layer(&text, n), "{n}: {text}");
        }
        assert!(body::untagged_claims(&text, 1).is_empty(), "{text}");
        assert!(text.contains("repo: /r  branch: merged-fix  HEAD: 0123456789abcdef0123456789abcdef01234567  status: dirty"), "{text}");
        // Files from the audit trail come first, each once (src/green.rs is also dirty).
        assert!(
            text.contains("- src/green.rs — changed this session (audit trail)  assumed:"),
            "{text}"
        );
        assert!(
            text.contains("- src/committed.rs — changed this session (audit trail)\n"),
            "{text}"
        );
        assert!(
            !text.contains("src/green.rs — changed, uncommitted"),
            "{text}"
        );
        assert!(text.contains("- old.rs — deleted, uncommitted\n"), "{text}");
        assert!(text.contains("- new.txt — untracked\n"), "{text}");
    }
}
