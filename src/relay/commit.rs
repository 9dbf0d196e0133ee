//! Committing the relay's files: exactly the paths given (relative to the project root),
//! through the git guard (only on a branch, never mid-merge or mid-rebase, with the
//! repository's hooks), and what happened said plainly (a `.gitignore` that swallows them is
//! not "already committed"; a refusal says why and what to run).

use crate::core::error::Result;
use crate::core::git::Outcome;
use crate::core::project::Project;
use serde::Serialize;
use std::path::Path;
use std::time::Duration;

/// The subject of a hand-off commit, before the loop id: `weave-loop: handoff (at WL-NNN)`.
pub(crate) const HANDOFF_SUBJECT: &str = "weave-loop: handoff (at ";
/// The subject of a resume commit, before the loop id: `weave-loop: resume (at WL-NNN)`.
pub(crate) const RESUME_SUBJECT: &str = "weave-loop: resume (at ";

/// How long a relay command lets the commit (and the repository's hooks) run.
pub(crate) const CLI_COMMIT_WAIT: Duration = Duration::from_secs(120);

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
    /// Not committed: the repository's state (a detached HEAD, a merge in progress, …) or a
    /// hook refused; the files stay written. `line` says why and what to run.
    Refused { line: String },
}

impl Committed {
    /// What the git guard did, as the relay says it.
    fn from_outcome(o: Outcome, message: &str) -> Committed {
        match o {
            Outcome::Committed { sha } => Committed::Made {
                sha,
                message: message.to_string(),
            },
            Outcome::NothingToCommit => Committed::Nothing,
            Outcome::NoGit => Committed::NoGit,
            refused @ Outcome::NotCommitted { .. } => Committed::Refused {
                line: refused.to_string(),
            },
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
            Committed::Refused { line } => line.replace("not committed:", "NOT committed:"),
        }
    }
}

/// Commits `rels` (relative to the project root) with `message` within `deadline`; when
/// nothing was committed because git ignores one of them, says so instead of "already
/// committed".
pub(crate) fn commit(
    project: &Project,
    rels: &[&Path],
    message: &str,
    deadline: Duration,
) -> Result<Committed> {
    let outcome = project.commit(rels, message, deadline)?;
    if outcome == Outcome::NothingToCommit {
        if let Ok(repo) = git2::Repository::discover(&project.root) {
            let top = repo.workdir().map(Path::to_path_buf);
            let ignored = rels.iter().find(|rel| {
                let abs = project.path(rel);
                top.as_deref()
                    .and_then(|t| abs.strip_prefix(t).ok())
                    .is_some_and(|in_repo| repo.is_path_ignored(in_repo).unwrap_or(false))
            });
            if let Some(rel) = ignored {
                return Ok(Committed::Ignored {
                    path: rel.display().to_string(),
                });
            }
        }
    }
    Ok(Committed::from_outcome(outcome, message))
}
