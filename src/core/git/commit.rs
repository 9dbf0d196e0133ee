//! What a commit of the files a command wrote is: its options, its outcome, its pathspecs
//! sorted by how they are staged, and the index operations around it (`guarded` runs it).

use super::guard::Refusal;
use super::pathspec::under;
use crate::core::error::{Error, Result};
use git2::Repository;
use std::fmt;
use std::path::Path;
use std::time::Duration;

/// How `commit_paths_guarded` may reach git.
#[derive(Debug, Clone, Copy)]
pub struct CommitOptions<'a> {
    /// How long the whole commit may take, hooks and signing included. At the deadline git
    /// and its hooks are killed and nothing is committed.
    pub deadline: Duration,
    /// The `PATH` (from `Ctx::env`) to find `git` on; git and its hooks run with it.
    /// `None`, or no `git` on it: nothing is committed (`Refusal::NoGitCli`).
    pub path_env: Option<&'a str>,
    /// More variables for the `git` child (tests pin `HOME` and the global config here).
    pub env: &'a [(&'a str, &'a str)],
    /// The user's private folder (`core::paths::private_base`): the commit's temp files (its
    /// message, git's trace) go into a scratch folder there, so nothing of baton's is written
    /// into `.git/`. `None`: into the git folder.
    pub scratch: Option<&'a Path>,
}

impl<'a> CommitOptions<'a> {
    /// Options with no extra environment.
    pub fn new(deadline: Duration, path_env: Option<&'a str>) -> Self {
        CommitOptions {
            deadline,
            path_env,
            env: &[],
            scratch: None,
        }
    }

    /// With temp files in a scratch folder under `base` (`CommitOptions::scratch`).
    #[must_use]
    pub fn scratch_under(mut self, base: Option<&'a Path>) -> Self {
        self.scratch = base;
        self
    }
}

/// What `commit_paths_guarded` did. `Display` is one line for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Not inside a git repository: nothing committed (a value, not an error).
    NoGit,
    /// The paths hold no change against HEAD (or git ignores them): no commit.
    NothingToCommit,
    /// A commit was made; its full SHA.
    Committed { sha: String },
    /// Not committed, and why; the files stay written. `paths` are the work-tree-relative
    /// paths the fix names.
    NotCommitted { why: Refusal, paths: Vec<String> },
}

impl Outcome {
    /// The refusal, when nothing was committed because of one.
    pub fn refusal(&self) -> Option<&Refusal> {
        match self {
            Outcome::NotCommitted { why, .. } => Some(why),
            _ => None,
        }
    }

    pub(super) fn refused(why: Refusal, paths: &[String]) -> Outcome {
        Outcome::NotCommitted {
            why,
            paths: paths.to_vec(),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::NoGit => f.write_str("not committed: not inside a git repository"),
            Outcome::NothingToCommit => f.write_str("nothing to commit"),
            Outcome::Committed { sha } => write!(f, "committed {}", sha.get(..7).unwrap_or(sha)),
            Outcome::NotCommitted { why, paths } => f.write_str(&why.line(paths)),
        }
    }
}

/// The pathspecs of one commit, sorted by how they are staged.
#[derive(Debug, Default)]
pub(super) struct Specs {
    /// On disk or in the index, not ignored: `git add -A`.
    pub(super) add: Vec<String>,
    /// Ignored, yet tracked: only the tracked files' changes (`git add -u`).
    pub(super) update: Vec<String>,
    /// What the commit holds: the above, and paths only HEAD still has (deleted, staged).
    pub(super) commit: Vec<String>,
}

impl Specs {
    /// Sorts `specs`; a path that matches nothing (not on disk, not in the index, not in
    /// HEAD) or only ignored untracked files is left out.
    pub(super) fn of(repo: &Repository, specs: &[String]) -> Result<Specs> {
        let index = repo.index().map_err(|e| git_err("index", &e))?;
        let head_tree = repo.head().and_then(|h| h.peel_to_tree()).ok();
        let top = repo.workdir().unwrap_or(Path::new(""));
        let mut out = Specs::default();
        for spec in specs {
            let in_index = index.iter().any(|e| under(spec, &e.path));
            let in_head = head_tree
                .as_ref()
                .is_some_and(|t| t.get_path(Path::new(spec)).is_ok());
            let on_disk = top.join(spec).symlink_metadata().is_ok();
            let ignored = repo.is_path_ignored(spec).unwrap_or(false);
            if ignored && in_index {
                out.update.push(spec.clone());
            } else if !ignored && (on_disk || in_index) {
                out.add.push(spec.clone());
            } else if !in_head {
                continue;
            }
            out.commit.push(spec.clone());
        }
        Ok(out)
    }
}

/// Whether the work tree (with the index's intents to add) holds a change against HEAD under
/// `specs`: what `git commit --only` would commit.
pub(super) fn change_to_commit(repo: &Repository, specs: &[String]) -> Result<bool> {
    let tree = repo
        .head()
        .and_then(|h| h.peel_to_tree())
        .map_err(|e| git_err("HEAD tree", &e))?;
    let mut opts = git2::DiffOptions::new();
    opts.disable_pathspec_match(true)
        .include_untracked(true)
        .recurse_untracked_dirs(true);
    for s in specs {
        opts.pathspec(s);
    }
    let diff = repo
        .diff_tree_to_workdir_with_index(Some(&tree), Some(&mut opts))
        .map_err(|e| git_err("diff", &e))?;
    Ok(super::delta_paths(&diff)
        .iter()
        .any(|p| specs.iter().any(|s| under(s, p.as_bytes()))))
}

/// Resets the index entries under `specs` to HEAD's (`git reset -- <specs>`): a commit that
/// did not happen leaves nothing of ours staged.
pub(super) fn unstage(repo: &Repository, specs: &[String]) -> Result<()> {
    let head = repo
        .head()
        .and_then(|h| h.peel_to_commit())
        .map_err(|e| git_err("HEAD", &e))?;
    repo.reset_default(Some(head.as_object()), specs)
        .map_err(|e| git_err("unstage", &e))
}

pub(super) fn git_err(what: &str, e: &git2::Error) -> Error {
    Error::Git(format!("{what}: {}", e.message()))
}
