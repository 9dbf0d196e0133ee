//! The integrity checks of `baton audit end`:
//!
//! * the session has records;
//! * every file git says changed during the session appears in a `change` record (changed =
//!   touched by commits since the session's starting HEAD, or dirty now, minus what was
//!   already dirty at the start and baton's own state folders);
//! * every correction has somewhere it was persisted to;
//! * no line of the trail was unreadable.

use super::stats::Stats;
use super::store::SessionMeta;
use crate::core::git::{self, GitState};
use crate::core::project::Project;
use std::collections::BTreeSet;

/// What the checks need to know of a session's records (its summary has it).
pub(crate) struct Facts<'a> {
    /// The files `change` records name.
    pub(crate) changed: &'a [String],
    /// `change` records that name no file.
    pub(crate) pathless_changes: u64,
    /// The unreadable lines, as `file:line: why`.
    pub(crate) unreadable: &'a [String],
}

/// The problems found (empty: all checks passed).
pub(crate) fn check(
    meta: &SessionMeta,
    facts: &Facts<'_>,
    stats: &Stats,
    project: &Project,
) -> Vec<String> {
    let mut problems = Vec::new();
    if stats.records == 0 {
        problems.push("no records: the trail of this session is empty".to_string());
    }
    let uncovered = uncovered_files(meta, facts.changed, project);
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
    problems
}

/// Files git says changed during the session that no change record names.
fn uncovered_files(meta: &SessionMeta, touched: &[String], project: &Project) -> Vec<String> {
    let Ok(GitState::Repo(now)) = project.git() else {
        return Vec::new();
    };
    let mut changed: BTreeSet<String> = now
        .status
        .iter()
        .map(|l| super::lifecycle::porcelain_path(l))
        .collect();
    if let (Some(start), Some(head)) = (&meta.git_head, &now.head_sha) {
        if start != head {
            // Unreadable (e.g. the starting commit was gc'ed): only the dirty files count.
            changed.extend(git::changed_since(&project.root, start).unwrap_or_default());
        }
    }
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
