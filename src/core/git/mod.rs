//! Git, for baton: what a repository's state is (HEAD, branch, porcelain status, the paths
//! the last commit touched), and committing the files a command wrote. A directory that is
//! not in a git repository is a value (`GitState::NoGit`, `Outcome::NoGit`), not an error.
//!
//! # When baton commits, and when it does not
//!
//! Two kinds of state are committed by the command that wrote them: project memory
//! (`.rune/`, by `bridge save`) and relay packets (`.handoff/`, by `relay handoff` and the
//! hand-off at Stop). Such a commit holds only the paths that command wrote — given relative
//! to the project directory, which may be a subdirectory of the repository — and nothing
//! else: changes you staged elsewhere stay staged and out of the commit, changes you did not
//! stage stay as they are.
//!
//! baton commits only on a branch, in a repository at rest. It does not commit when
//! - HEAD is detached (the commit would be left behind at the next checkout);
//! - the branch has no commit yet (baton never makes a repository's first commit);
//! - the repository is bare, or the project directory is inside a `.git` directory;
//! - a merge, a rebase (either kind), a cherry-pick, a revert, a bisect or a `git am` is in
//!   progress, or the index has unmerged (conflicted) paths;
//! - a file to commit still holds conflict markers (`<<<<<<<`, `=======`, `>>>>>>>`);
//! - a path to commit lies outside the work tree.
//!
//! In every such case the files stay written; baton says in one line why it did not commit
//! and the command that commits them by hand.
//!
//! # Through git itself
//!
//! baton commits with the `git` found on the `PATH` it is given: `git add -A -- <paths>`,
//! then `git commit --only -- <paths>`. So your hooks run (pre-commit, prepare-commit-msg,
//! commit-msg, post-commit) and `commit.gpgsign` is honoured. If a hook rejects the commit,
//! signing fails, or the deadline passes (git and its hooks are then killed), nothing is
//! committed and the paths are unstaged again: their index entries are reset to HEAD's, so
//! a commit that did not happen leaves nothing of baton's staged (a version of those paths
//! you had staged yourself is reset too). The outcome names the hook and the first line of
//! its output.
//!
//! Without a `git` on PATH, baton does not commit and says so (it commits only through git,
//! so that hooks and signing always apply). When the paths hold no change against HEAD, or
//! git ignores them, there is nothing to commit and no commit is made.

mod attrs;
mod cli;
mod commit;
mod conflict;
mod folder_log;
mod guard;
mod guarded;
mod history;
mod hooks;
mod pathspec;
pub use attrs::{is_ignored, is_tracked, merge_driver, tracked_under, user_name};
pub use commit::{CommitOptions, Outcome};
pub use conflict::{marker_lines, refusal_line, unresolved, unresolved_with, Look, Unresolved};
pub use folder_log::{CommitInfo, FileChange, FolderLog};
pub use guard::{commit_blocker, Operation, Refusal};
pub use guarded::commit_paths_guarded;
pub use history::{
    first_parent_messages, head_at, paths_changed_by_newest, stash_messages, work_since, Work,
};

use super::error::{Error, Result};
use git2::{Repository, Status, StatusOptions};
use serde::Serialize;
use std::path::Path;

/// What git says about a project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "git", rename_all = "snake_case")]
pub enum GitState {
    /// Not inside a git repository.
    NoGit,
    /// Inside a git repository.
    Repo(RepoState),
}

/// The state of a repository.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RepoState {
    /// Full SHA of HEAD; `None` before the first commit.
    pub head_sha: Option<String>,
    /// Current branch; `None` when HEAD is detached.
    pub branch: Option<String>,
    /// `git status --porcelain` lines (`XY path`).
    pub status: Vec<String>,
    /// Paths changed by the HEAD commit.
    pub last_commit_paths: Vec<String>,
}

impl GitState {
    /// The repository state, if any.
    pub fn repo(&self) -> Option<&RepoState> {
        match self {
            GitState::NoGit => None,
            GitState::Repo(r) => Some(r),
        }
    }
}

/// Where HEAD is: what `state` gives without the status (which reads the whole work tree).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// Full SHA of HEAD; `None` before the first commit.
    pub sha: Option<String>,
    /// Current branch; `None` when HEAD is detached.
    pub branch: Option<String>,
}

/// The repository that contains `dir`; `None` outside one.
pub fn open(dir: &Path) -> Result<Option<Repository>> {
    match Repository::discover(dir) {
        Ok(r) => Ok(Some(r)),
        Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
        Err(e) => Err(Error::Git(format!(
            "open {}: {}",
            dir.display(),
            e.message()
        ))),
    }
}

fn head_of(repo: &Repository) -> (Head, Option<git2::Commit<'_>>) {
    let head = repo.head().ok();
    let commit = head.as_ref().and_then(|h| h.peel_to_commit().ok());
    let branch = head
        .as_ref()
        .filter(|h| h.is_branch())
        .and_then(|h| h.shorthand().map(str::to_string))
        .or_else(|| unborn_branch(repo));
    let sha = commit.as_ref().map(|c| c.id().to_string());
    (Head { sha, branch }, commit)
}

/// Where HEAD is in `repo`.
pub fn head_in(repo: &Repository) -> Head {
    head_of(repo).0
}

/// Reads the git state of the repository that contains `dir`.
pub fn state(dir: &Path) -> Result<GitState> {
    match open(dir)? {
        Some(repo) => Ok(GitState::Repo(state_in(&repo)?)),
        None => Ok(GitState::NoGit),
    }
}

/// Reads the state of `repo`: HEAD, the branch, the status, the paths of the last commit.
pub fn state_in(repo: &Repository) -> Result<RepoState> {
    let (head, head_commit) = head_of(repo);
    Ok(RepoState {
        head_sha: head.sha,
        branch: head.branch,
        status: porcelain(repo)?,
        last_commit_paths: match &head_commit {
            Some(c) => paths_changed_by(repo, c)?,
            None => Vec::new(),
        },
    })
}

/// The branch HEAD points at before the first commit.
fn unborn_branch(repo: &Repository) -> Option<String> {
    let head = repo.find_reference("HEAD").ok()?;
    let target = head.symbolic_target()?;
    target.strip_prefix("refs/heads/").map(str::to_string)
}

fn porcelain(repo: &Repository) -> Result<Vec<String>> {
    if repo.is_bare() {
        return Ok(Vec::new());
    }
    let mut opts = StatusOptions::new();
    opts.include_untracked(true)
        .recurse_untracked_dirs(true)
        .renames_head_to_index(true);
    let statuses = repo
        .statuses(Some(&mut opts))
        .map_err(|e| Error::Git(format!("status: {}", e.message())))?;
    Ok(statuses
        .iter()
        .filter_map(|entry| {
            let path = entry.path()?.to_string();
            let s = entry.status();
            let (x, y) = codes(s);
            (x != ' ' || y != ' ').then(|| format!("{x}{y} {path}"))
        })
        .collect())
}

/// The porcelain v1 `XY` codes of a status.
fn codes(s: Status) -> (char, char) {
    if s.contains(Status::WT_NEW) && !s.intersects(Status::INDEX_NEW) {
        return ('?', '?');
    }
    if s.contains(Status::CONFLICTED) {
        return ('U', 'U');
    }
    let x = if s.contains(Status::INDEX_NEW) {
        'A'
    } else if s.contains(Status::INDEX_MODIFIED) {
        'M'
    } else if s.contains(Status::INDEX_DELETED) {
        'D'
    } else if s.contains(Status::INDEX_RENAMED) {
        'R'
    } else if s.contains(Status::INDEX_TYPECHANGE) {
        'T'
    } else {
        ' '
    };
    let y = if s.contains(Status::WT_MODIFIED) {
        'M'
    } else if s.contains(Status::WT_DELETED) {
        'D'
    } else if s.contains(Status::WT_TYPECHANGE) {
        'T'
    } else if s.contains(Status::WT_RENAMED) {
        'R'
    } else {
        ' '
    };
    (x, y)
}

fn paths_changed_by(repo: &Repository, commit: &git2::Commit<'_>) -> Result<Vec<String>> {
    let git_err =
        |e: git2::Error| Error::Git(format!("diff of commit {}: {}", commit.id(), e.message()));
    let tree = commit.tree().map_err(git_err)?;
    let parent_tree = match commit.parent(0) {
        Ok(p) => Some(p.tree().map_err(git_err)?),
        Err(_) => None,
    };
    let diff = repo
        .diff_tree_to_tree(parent_tree.as_ref(), Some(&tree), None)
        .map_err(git_err)?;
    Ok(delta_paths(&diff))
}

/// The paths a diff touches (the new path, or the old one for a deletion).
fn delta_paths(diff: &git2::Diff<'_>) -> Vec<String> {
    diff.deltas()
        .filter_map(|d| {
            d.new_file()
                .path()
                .or_else(|| d.old_file().path())
                .map(|p| p.to_string_lossy().into_owned())
        })
        .collect()
}

/// Paths changed between revision `from` and HEAD in the repository containing `dir`.
pub fn changed_since(dir: &Path, from: &str) -> Result<Vec<String>> {
    let git_err = |e: git2::Error| Error::Git(format!("diff {from}..HEAD: {}", e.message()));
    let repo = Repository::discover(dir).map_err(git_err)?;
    let old = repo
        .revparse_single(from)
        .and_then(|o| o.peel_to_tree())
        .map_err(git_err)?;
    let new = repo
        .head()
        .and_then(|h| h.peel_to_tree())
        .map_err(git_err)?;
    let diff = repo
        .diff_tree_to_tree(Some(&old), Some(&new), None)
        .map_err(git_err)?;
    Ok(delta_paths(&diff))
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their repositories directly
mod testkit;
#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their repositories directly
mod tests;
