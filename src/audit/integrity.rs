//! The integrity checks of `baton audit end`:
//!
//! * the session has records;
//! * every file git says changed during the session appears in a `change` record (changed =
//!   touched by commits since the session's starting HEAD, or dirty now, minus what was
//!   already dirty at the start and baton's own state folders);
//!
//!   a file no change record names that the session's Bash commands wrote (last written
//!   while the session ran Bash calls, `written_by_bash`) is one of its changes, listed as
//!   such, not a problem;
//!
//!   the starting HEAD and dirty files are read when the session begins (`/start`,
//!   SessionStart). A session a tool-call hook started has none (those hooks read no git: they
//!   run on every call), so `end` derives them from the session's start time
//!   (`derive_baseline`): HEAD then, from git's reflog; and, as dirty at the start, the files
//!   git shows as changed whose last write is older than the session;
//! * every correction has somewhere it was persisted to;
//! * no line of the trail was unreadable.

use super::stats::Stats;
use super::store::SessionMeta;
use crate::core::git::{self, GitState, RepoState};
use crate::core::project::Project;
use crate::core::root::git_top;
use std::collections::BTreeSet;
use std::path::Path;
use std::time::SystemTime;

/// `git_baseline` of a session whose baseline `end` derived from its start time.
pub(crate) const BASELINE_DERIVED: &str = "derived";

/// What the checks need to know of a session's records (its summary has it).
pub(crate) struct Facts<'a> {
    /// The files `change` records name.
    pub(crate) changed: &'a [String],
    /// `change` records that name no file.
    pub(crate) pathless_changes: u64,
    /// The unreadable lines, as `file:line: why`.
    pub(crate) unreadable: &'a [String],
}

/// What the checks found.
#[derive(Debug, Default)]
pub(crate) struct Checked {
    /// The problems (empty: all checks passed).
    pub(crate) problems: Vec<String>,
    /// Files git shows changed that no change record names but the session's Bash commands
    /// wrote (`written_by_bash`): the session's changes, not a problem.
    pub(crate) bash_files: Vec<String>,
}

/// Runs the checks.
pub(crate) fn check(
    meta: &SessionMeta,
    facts: &Facts<'_>,
    stats: &Stats,
    project: &Project,
) -> Checked {
    let mut problems = Vec::new();
    if stats.records == 0 {
        problems.push("no records: the trail of this session is empty".to_string());
    }
    let (bash_files, uncovered) = written_by_bash(
        meta,
        stats,
        project,
        uncovered_files(meta, facts.changed, project),
    );
    if !uncovered.is_empty() {
        let pathless = facts.pathless_changes;
        let mut p = format!(
            "{} file(s) changed in git without a change record: {}",
            uncovered.len(),
            uncovered
                .iter()
                .take(10)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        );
        if pathless > 0 {
            p.push_str(&format!(
                " ({pathless} Bash change record(s) name no file and may cover them)"
            ));
        }
        problems.push(p);
    }
    let open: Vec<&str> = stats.unpersisted().map(|c| c.id.as_str()).collect();
    if !open.is_empty() {
        problems.push(format!(
            "{} correction(s) not persisted: {} (`baton audit persist ID --to PATH` once each is a convention or instinct)",
            open.len(),
            open.join(", ")
        ));
    }
    if !facts.unreadable.is_empty() {
        problems.push(format!(
            "{} unreadable line(s) skipped: {}",
            facts.unreadable.len(),
            facts
                .unreadable
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    Checked {
        problems,
        bash_files,
    }
}

/// Splits `files` (changed in git, named by no change record) into those the session's Bash
/// commands most likely wrote and the rest. A Bash call's record names a file only when the
/// command redirects into one (`bash.rs`): what a build, a test run or a script writes
/// (`__pycache__/`, `target/`) is named by none. Such a file counts as the session's when the
/// session ran Bash calls and the file was last written while it ran: at or after its start,
/// and no later than its last record (a hook stamps a call once it has ended) plus two
/// seconds. A file someone else wrote in that time counts too; one written after it does not.
fn written_by_bash(
    meta: &SessionMeta,
    stats: &Stats,
    project: &Project,
    files: Vec<String>,
) -> (Vec<String>, Vec<String>) {
    let last = stats
        .last_ts
        .as_deref()
        .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok());
    let (Some(top), Some(last), true) = (
        git_top(&project.root),
        last,
        stats.tools.get("Bash").is_some_and(|n| *n > 0),
    ) else {
        return (Vec::new(), files);
    };
    let from = SystemTime::from(meta.start_time);
    let to = SystemTime::from(last) + std::time::Duration::from_secs(2);
    files
        .into_iter()
        .partition(|p| last_write(&top, p).is_some_and(|t| t >= from && t <= to))
}

/// Gives a session that began without a git baseline (a tool-call hook started it) one,
/// derived from its start time: `git_head` is where HEAD was then (HEAD's reflog, see
/// `git::head_at`; none when git cannot say, and then only dirty files count), and
/// `git_dirty_at_start` the files git now shows as changed — committed since then or dirty —
/// that were last written before the session began (a deleted file: its folder), which were
/// therefore changed already when it started and not by it. A session with a baseline is left
/// as it is.
pub(crate) fn derive_baseline(meta: &mut SessionMeta, project: &Project) {
    if meta.git_baseline.is_some() || meta.git_head.is_some() || !meta.git_dirty_at_start.is_empty()
    {
        return;
    }
    let (Ok(GitState::Repo(now)), Some(top)) = (project.git(), git_top(&project.root)) else {
        return;
    };
    let head = git::head_at(&project.root, meta.start_time).unwrap_or(None);
    let start = SystemTime::from(meta.start_time);
    meta.git_dirty_at_start = changed_in_git(head.as_deref(), now, project)
        .into_iter()
        .filter(|p| last_write(&top, p).is_some_and(|t| t < start))
        .collect();
    meta.git_head = head;
    meta.git_baseline = Some(BASELINE_DERIVED.into());
}

/// When `rel` (relative to the work tree `top`) was last written; for a path that is gone,
/// when its nearest folder still there was (a deletion changes its folder).
fn last_write(top: &Path, rel: &str) -> Option<SystemTime> {
    let mut path = top.join(rel);
    loop {
        if let Ok(m) = std::fs::symlink_metadata(&path) {
            return m.modified().ok();
        }
        if path == top || !path.pop() {
            return None;
        }
    }
}

/// The files git says changed since `start` (commits since that HEAD, when known) plus the
/// dirty ones, as paths relative to the work tree.
fn changed_in_git(start: Option<&str>, now: &RepoState, project: &Project) -> BTreeSet<String> {
    let mut changed: BTreeSet<String> = now
        .status
        .iter()
        .map(|l| super::lifecycle::porcelain_path(l))
        .collect();
    if let (Some(start), Some(head)) = (start, &now.head_sha) {
        if start != head {
            // Unreadable (e.g. the starting commit was gc'ed): only the dirty files count.
            changed.extend(git::changed_since(&project.root, start).unwrap_or_default());
        }
    }
    changed
}

/// Files git says changed during the session that no change record names.
fn uncovered_files(meta: &SessionMeta, touched: &[String], project: &Project) -> Vec<String> {
    let Ok(GitState::Repo(now)) = project.git() else {
        return Vec::new();
    };
    let mut changed = changed_in_git(meta.git_head.as_deref(), now, project);
    for p in &meta.git_dirty_at_start {
        changed.remove(p);
    }
    let config = project.config();
    let own: Vec<String> = [
        &config.paths.audit,
        &config.paths.bridge,
        &config.paths.relay,
        &config.paths.handoff,
    ]
    .iter()
    .map(|p| format!("{}/", p.display()))
    .collect();
    changed.retain(|p| {
        !own.iter()
            .any(|o| p.starts_with(o.as_str()) || format!("{p}/") == *o)
    });
    let touched: BTreeSet<&str> = touched.iter().map(String::as_str).collect();
    changed
        .into_iter()
        .filter(|p| !touched.contains(p.as_str()))
        .collect()
}
