//! Committing the files a command wrote: the guard first, then the paths as pathspecs, then
//! the commit itself through the `git` CLI (hooks and signing honoured); with no `git` on
//! PATH, nothing is committed.

use super::commit::{self, CommitOptions, Outcome, Specs};
use super::conflict::{self, Look, Unresolved};
use super::guard::{self, Refusal};
use super::{cli, pathspec};
use crate::core::error::Result;
use crate::core::exec;
use git2::{ErrorCode, Repository};
use std::path::Path;

/// Commits exactly `paths` (files or folders the command wrote, relative to `project_dir`
/// or absolute; deletions included) with `message`, on the current branch, through the
/// guard: see the module doc for when it refuses. Staged changes elsewhere stay staged and
/// out of the commit; nothing outside `paths` is touched. `Err` only for a repository that
/// cannot be opened or read.
pub fn commit_paths_guarded(
    project_dir: &Path,
    paths: &[&Path],
    message: &str,
    opts: &CommitOptions<'_>,
) -> Result<Outcome> {
    let repo = match Repository::discover(project_dir) {
        Ok(r) => r,
        Err(e) if e.code() == ErrorCode::NotFound => return Ok(Outcome::NoGit),
        Err(e) => return Err(commit::git_err("open", &e)),
    };
    if let Some(why) = guard::blocker(&repo, project_dir) {
        let shown = pathspec::shown(project_dir, repo.workdir(), paths);
        return Ok(Outcome::refused(why, &shown));
    }
    let Some(top) = repo.workdir() else {
        return Ok(Outcome::refused(Refusal::Bare, &[]));
    };
    let specs = match pathspec::relative(project_dir, top, paths) {
        Ok(s) => s,
        Err(p) => {
            let shown = pathspec::shown(project_dir, Some(top), paths);
            return Ok(Outcome::refused(Refusal::OutsideWorkTree(p), &shown));
        }
    };
    let marked: Vec<String> = conflict::unresolved(project_dir, paths, Look::Files)
        .iter()
        .filter(|u| u.line.is_some())
        .map(Unresolved::describe)
        .collect();
    if !marked.is_empty() {
        return Ok(Outcome::refused(Refusal::ConflictMarkers(marked), &specs));
    }
    let specs = Specs::of(&repo, &specs)?;
    if specs.commit.is_empty() {
        return Ok(Outcome::NothingToCommit);
    }
    // Only through git itself, so that the repository's hooks and signing are honoured. (A
    // second path through libgit2, for a machine without git, committed only where nothing
    // was to be honoured; dropped in issue 35: a repository without git to work it is rare,
    // and one path is one set of rules to keep and test.)
    match exec::which("git", opts.path_env) {
        Some(git) => cli::commit(&repo, &git, &specs, message, opts),
        None => Ok(Outcome::refused(Refusal::NoGitCli, &specs.commit)),
    }
}
