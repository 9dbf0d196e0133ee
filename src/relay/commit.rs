//! Committing the relay's files: exactly the paths given, relative to the git work tree, and
//! what happened said plainly (a `.gitignore` that swallows them is not "already committed").

use crate::core::error::Result;
use crate::core::git::{self, CommitOutcome};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// What a commit did, for people and for `--json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "commit", rename_all = "snake_case")]
pub(crate) enum Committed {
    /// A commit was made.
    Made { sha: String, message: String },
    /// The files were already committed as they are.
    Nothing,
    /// Not a git repository.
    NoGit,
    /// git ignores the relay's files, so nothing could be committed.
    Ignored { path: String },
}

impl Committed {
    /// What `core::git::commit_paths` did, as the relay says it.
    fn from_outcome(o: CommitOutcome, message: &str) -> Committed {
        match o {
            CommitOutcome::Committed(sha) => Committed::Made {
                sha,
                message: message.to_string(),
            },
            CommitOutcome::NothingToCommit => Committed::Nothing,
            CommitOutcome::NoGit => Committed::NoGit,
        }
    }

    /// One line for the user.
    pub(crate) fn line(&self) -> String {
        match self {
            Committed::Made { sha, message } => {
                format!("committed {} \"{message}\"", sha.get(..7).unwrap_or(sha))
            }
            Committed::Nothing => "already committed: no new commit".into(),
            Committed::NoGit => "not a git repository: nothing committed".into(),
            Committed::Ignored { path } => format!(
                "NOT committed: git ignores {path} (a .gitignore rule); the relay's files are meant to be committed, so un-ignore them"
            ),
        }
    }
}

/// Commits `rels` (relative to `root`) with `message`; when nothing was committed because
/// git ignores one of them, says so instead of "already committed".
pub(crate) fn commit(root: &Path, rels: &[&Path], message: &str) -> Result<Committed> {
    let paths: Vec<PathBuf> = rels.iter().map(|r| git_path(root, r)).collect();
    let in_repo: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let outcome = git::commit_paths(root, &in_repo, message)?;
    if outcome == CommitOutcome::NothingToCommit {
        if let Ok(repo) = git2::Repository::discover(root) {
            if let Some(p) = paths
                .iter()
                .find(|p| repo.is_path_ignored(p).unwrap_or(false))
            {
                return Ok(Committed::Ignored {
                    path: p.display().to_string(),
                });
            }
        }
    }
    Ok(Committed::from_outcome(outcome, message))
}

/// `rel` (under `root`) relative to the git work tree that holds `root`.
fn git_path(root: &Path, rel: &Path) -> PathBuf {
    let Some(top) = crate::core::root::git_top(root) else {
        return rel.to_path_buf();
    };
    let (Ok(top), Ok(r)) = (top.canonicalize(), root.canonicalize()) else {
        return rel.to_path_buf();
    };
    match r.strip_prefix(&top) {
        Ok(sub) => sub.join(rel),
        Err(_) => rel.to_path_buf(),
    }
}
