//! `baton bridge status`: what the bridge holds in this project, in one screen.

use super::checkpoint;
use super::detach::{self, FileReport};
use super::integrity::Scanner;
use super::invariants;
use super::store::{self, Rune};
use crate::core::error::Result;
use crate::core::project::Project;
use serde::Serialize;

/// What `baton bridge status` shows (`--json` prints it as is).
#[derive(Debug, Serialize)]
pub(crate) struct FolderStatus {
    pub(crate) dir: String,
    pub(crate) exists: bool,
    pub(crate) integrity: &'static str,
    pub(crate) decisions: usize,
    pub(crate) conventions: usize,
    pub(crate) progress_entries: usize,
    pub(crate) sessions: usize,
    pub(crate) instincts: usize,
    pub(crate) learnings: usize,
    pub(crate) checkpoint: Option<String>,
    pub(crate) resolved_checkpoints: usize,
    pub(crate) invariants: usize,
    pub(crate) invariants_stale: bool,
    /// The detach records (`oracle-pending/`), each with what is wrong with it.
    pub(crate) detach_records: Vec<FileReport>,
}

/// Lines of `file` that start with `pat` (entries, or records of a JSONL file).
fn count(rune: &Rune, file: &str, pat: &str) -> usize {
    rune.read(file)
        .ok()
        .flatten()
        .map_or(0, |t| t.lines().filter(|l| l.starts_with(pat)).count())
}

/// The folder's status: counts, the integrity verdict (through the user's verdict cache),
/// the checkpoint and the invariants.
pub(crate) fn folder_status(project: &Project) -> Result<FolderStatus> {
    let rune = &Rune::of(project);
    let exists = rune.exists();
    let status = if exists {
        Scanner::cached(project, rune).scan(rune)?.status().as_str()
    } else {
        "CLEAN"
    };
    let inv = invariants::read(rune, project.now());
    let checkpoint = rune
        .read(store::CHECKPOINT)?
        .map(|t| checkpoint::parse(&t).resume)
        .filter(|r| !r.is_empty());
    let resolved = std::fs::read_dir(&rune.dir).map_or(0, |rd| {
        rd.filter_map(std::result::Result::ok)
            .filter(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.starts_with("checkpoint-") && n.ends_with(".resolved.md")
            })
            .count()
    });
    Ok(FolderStatus {
        dir: format!("{}/", rune.rel.display()),
        exists,
        integrity: status,
        decisions: count(rune, store::DECISIONS, "## ["),
        conventions: count(rune, store::CONVENTIONS, "## ["),
        progress_entries: count(rune, store::PROGRESS, "## ["),
        sessions: count(rune, store::SESSION_LOG, "["),
        instincts: count(rune, store::INSTINCTS, "## ["),
        learnings: count(rune, store::LEARNINGS, "{"),
        checkpoint,
        resolved_checkpoints: resolved,
        invariants: inv.count,
        invariants_stale: inv.stale,
        detach_records: detach::report(rune),
    })
}

/// One line for `baton status`'s bridge row: counts and the checkpoint, without the
/// integrity scan (that is `baton bridge status`).
pub(crate) fn summary_line(project: &Project) -> Option<String> {
    let rune = Rune::of(project);
    if !rune.exists() {
        return None;
    }
    let checkpoint = rune
        .read(store::CHECKPOINT)
        .ok()
        .flatten()
        .map(|t| checkpoint::parse(&t).resume)
        .filter(|r| !r.is_empty());
    Some(format!(
        "session-bridge: {} decisions, {} conventions, {} learnings; checkpoint: {}",
        count(&rune, store::DECISIONS, "## ["),
        count(&rune, store::CONVENTIONS, "## ["),
        count(&rune, store::LEARNINGS, "{"),
        checkpoint.unwrap_or_else(|| "none".into())
    ))
}

/// The status screen.
pub(crate) fn render_folder_status(s: &FolderStatus) -> String {
    if !s.exists {
        return format!(
            "bridge: no project memory in {} yet (`baton bridge save` creates it).\n",
            s.dir
        );
    }
    let mut out = format!("bridge — {}  integrity: {}\n", s.dir, s.integrity);
    out.push_str(&format!(
        "  decisions {}  conventions {}  progress entries {}  sessions logged {}\n",
        s.decisions, s.conventions, s.progress_entries, s.sessions
    ));
    out.push_str(&format!(
        "  instincts {}  learnings {}  invariants {}{}\n",
        s.instincts,
        s.learnings,
        s.invariants,
        if s.invariants_stale { " (stale)" } else { "" }
    ));
    match &s.checkpoint {
        Some(r) => out.push_str(&format!("  checkpoint: {r}\n")),
        None => out.push_str("  checkpoint: none\n"),
    }
    out.push_str(&detach_lines(&s.detach_records));
    if s.resolved_checkpoints > 0 {
        out.push_str(&format!(
            "  resolved checkpoints kept: {}\n",
            s.resolved_checkpoints
        ));
    }
    out
}

/// The detach records: a count per status, then one line per invalid record.
fn detach_lines(records: &[FileReport]) -> String {
    if records.is_empty() {
        return String::new();
    }
    let mut per: Vec<(String, usize)> = Vec::new();
    for r in records.iter().filter(|r| r.problems.is_empty()) {
        let st = r.status.clone().unwrap_or_default();
        match per.iter_mut().find(|(s, _)| *s == st) {
            Some((_, n)) => *n += 1,
            None => per.push((st, 1)),
        }
    }
    let invalid = records.iter().filter(|r| !r.problems.is_empty()).count();
    if invalid > 0 {
        per.push(("invalid".into(), invalid));
    }
    let counts: Vec<String> = per.iter().map(|(s, n)| format!("{n} {s}")).collect();
    let mut out = format!("  detach records: {}\n", counts.join(", "));
    for r in records.iter().filter(|r| !r.problems.is_empty()) {
        out.push_str(&format!(
            "  ⚠ invalid detach record {}: {}\n",
            r.file,
            r.problems.join("; ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_line_counts_and_names_the_checkpoint() {
        let t = tempfile::tempdir().unwrap();
        let project = Project::for_test(t.path(), None);
        assert_eq!(summary_line(&project), None);
        std::fs::create_dir(t.path().join(".rune")).unwrap();
        std::fs::write(
            t.path().join(".rune/decisions.md"),
            "# Decisions Log\n\n## [2026-11-30 10:00] Decision: a\n",
        )
        .unwrap();
        assert_eq!(
            summary_line(&project).unwrap(),
            "session-bridge: 1 decisions, 0 conventions, 0 learnings; checkpoint: none"
        );
    }
}
