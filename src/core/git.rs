//! Git state through git2 (local repositories only): HEAD, branch, porcelain status and the
//! paths the last commit touched. A directory that is not in a git repository is the value
//! `GitState::NoGit`, not an error.

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

/// Reads the git state of the repository that contains `dir`.
pub fn state(dir: &Path) -> Result<GitState> {
    let repo = match Repository::discover(dir) {
        Ok(r) => r,
        Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(GitState::NoGit),
        Err(e) => {
            return Err(Error::Git(format!(
                "open {}: {}",
                dir.display(),
                e.message()
            )))
        }
    };
    let head = repo.head().ok();
    let head_commit = head.as_ref().and_then(|h| h.peel_to_commit().ok());
    let branch = head
        .as_ref()
        .filter(|h| h.is_branch())
        .and_then(|h| h.shorthand().map(str::to_string))
        .or_else(|| unborn_branch(&repo));
    Ok(GitState::Repo(RepoState {
        head_sha: head_commit.as_ref().map(|c| c.id().to_string()),
        branch,
        status: porcelain(&repo)?,
        last_commit_paths: match &head_commit {
            Some(c) => paths_changed_by(&repo, c)?,
            None => Vec::new(),
        },
    }))
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
    let git_err = |e: git2::Error| Error::Git(format!("diff of HEAD: {}", e.message()));
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

/// What `commit_paths` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommitOutcome {
    /// Not inside a git repository: nothing committed (a value, not an error).
    NoGit,
    /// The paths hold no change against HEAD.
    NothingToCommit,
    /// A commit was made; its full SHA.
    Committed(String),
}

/// Stages `paths` (relative to the work tree; directories whole, deletions included) and
/// commits exactly those on HEAD with `message`. Changes the user has staged elsewhere stay
/// staged and out of the commit.
pub fn commit_paths(dir: &Path, paths: &[&Path], message: &str) -> Result<CommitOutcome> {
    let git_err = |what: &str, e: git2::Error| Error::Git(format!("{what}: {}", e.message()));
    let repo = match Repository::discover(dir) {
        Ok(r) => r,
        Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(CommitOutcome::NoGit),
        Err(e) => return Err(git_err("open", e)),
    };
    let specs: Vec<String> = paths
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches('/').to_string())
        .collect();
    let mut index = repo.index().map_err(|e| git_err("index", e))?;
    index
        .add_all(specs.iter(), git2::IndexAddOption::DEFAULT, None)
        .map_err(|e| git_err("add", e))?;
    index
        .update_all(specs.iter(), None)
        .map_err(|e| git_err("add", e))?;
    index.write().map_err(|e| git_err("write index", e))?;

    // The commit's tree: HEAD's tree with only our paths replaced by what is now staged.
    let head = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
    let mut mem = git2::Index::new().map_err(|e| git_err("index", e))?;
    if let Some(c) = &head {
        let tree = c.tree().map_err(|e| git_err("HEAD tree", e))?;
        mem.read_tree(&tree).map_err(|e| git_err("HEAD tree", e))?;
    }
    for spec in &specs {
        mem.remove_dir(Path::new(spec), 0)
            .map_err(|e| git_err("index", e))?;
        let _ = mem.remove_path(Path::new(spec));
    }
    for entry in index.iter() {
        let path = String::from_utf8_lossy(&entry.path).into_owned();
        if specs
            .iter()
            .any(|s| path == *s || path.starts_with(&format!("{s}/")))
        {
            mem.add(&entry).map_err(|e| git_err("index", e))?;
        }
    }
    let tree_id = mem
        .write_tree_to(&repo)
        .map_err(|e| git_err("write tree", e))?;
    if head.as_ref().map(git2::Commit::tree_id) == Some(tree_id) {
        return Ok(CommitOutcome::NothingToCommit);
    }
    let tree = repo.find_tree(tree_id).map_err(|e| git_err("tree", e))?;
    let sig = repo
        .signature()
        .or_else(|_| git2::Signature::now("baton", "baton@localhost"))
        .map_err(|e| git_err("signature", e))?;
    let parents: Vec<&git2::Commit<'_>> = head.iter().collect();
    let oid = repo
        .commit(Some("HEAD"), &sig, &sig, message, &tree, &parents)
        .map_err(|e| git_err("commit", e))?;
    Ok(CommitOutcome::Committed(oid.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commit_all(repo: &Repository, msg: &str) {
        let mut index = repo.index().unwrap();
        index
            .add_all(["*"].iter(), git2::IndexAddOption::DEFAULT, None)
            .unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
        let parents: Vec<git2::Commit<'_>> = repo
            .head()
            .ok()
            .and_then(|h| h.peel_to_commit().ok())
            .into_iter()
            .collect();
        let refs: Vec<&git2::Commit<'_>> = parents.iter().collect();
        repo.commit(Some("HEAD"), &sig, &sig, msg, &tree, &refs)
            .unwrap();
    }

    #[test]
    fn commit_paths_commits_only_the_given_paths() {
        let t = tempfile::tempdir().unwrap();
        let repo = Repository::init(t.path()).unwrap();
        std::fs::write(t.path().join("a.txt"), "a").unwrap();
        commit_all(&repo, "first");
        // The user has something staged and something unstaged.
        std::fs::write(t.path().join("user.txt"), "mine").unwrap();
        let mut idx = repo.index().unwrap();
        idx.add_path(Path::new("user.txt")).unwrap();
        idx.write().unwrap();
        std::fs::write(t.path().join("a.txt"), "a2").unwrap();
        std::fs::create_dir_all(t.path().join(".rune/sub")).unwrap();
        std::fs::write(t.path().join(".rune/progress.md"), "p").unwrap();
        std::fs::write(t.path().join(".rune/sub/x.md"), "x").unwrap();

        let out = commit_paths(
            t.path(),
            &[Path::new(".rune")],
            "chore: update rune session state",
        )
        .unwrap();
        let CommitOutcome::Committed(sha) = out else {
            panic!("{out:?}")
        };
        let commit = repo
            .find_commit(git2::Oid::from_str(&sha).unwrap())
            .unwrap();
        assert_eq!(commit.message(), Some("chore: update rune session state"));
        let s = state(t.path()).unwrap();
        let mut paths = s.repo().unwrap().last_commit_paths.clone();
        paths.sort();
        assert_eq!(paths, vec![".rune/progress.md", ".rune/sub/x.md"]);
        // The user's staged file is still staged, not committed; a.txt still modified.
        let st = &s.repo().unwrap().status;
        assert!(st.contains(&"A  user.txt".to_string()), "{st:?}");
        assert!(st.contains(&" M a.txt".to_string()), "{st:?}");

        // Nothing new: nothing to commit. A deletion is committed.
        assert_eq!(
            commit_paths(t.path(), &[Path::new(".rune")], "m").unwrap(),
            CommitOutcome::NothingToCommit
        );
        std::fs::remove_file(t.path().join(".rune/sub/x.md")).unwrap();
        assert!(matches!(
            commit_paths(t.path(), &[Path::new(".rune")], "m").unwrap(),
            CommitOutcome::Committed(_)
        ));
        let s = state(t.path()).unwrap();
        assert_eq!(s.repo().unwrap().last_commit_paths, vec![".rune/sub/x.md"]);
    }

    #[test]
    fn changed_since_lists_paths_of_later_commits() {
        let t = tempfile::tempdir().unwrap();
        let repo = Repository::init(t.path()).unwrap();
        std::fs::write(t.path().join("a.txt"), "a").unwrap();
        commit_all(&repo, "first");
        let first = state(t.path())
            .unwrap()
            .repo()
            .unwrap()
            .head_sha
            .clone()
            .unwrap();
        std::fs::write(t.path().join("b.txt"), "b").unwrap();
        commit_all(&repo, "second");
        std::fs::remove_file(t.path().join("a.txt")).unwrap();
        commit_all(&repo, "third");
        let mut paths = changed_since(t.path(), &first).unwrap();
        paths.sort();
        assert_eq!(paths, vec!["a.txt", "b.txt"]);
        assert!(changed_since(t.path(), "0000000").is_err());
    }

    #[test]
    fn commit_paths_without_git_is_a_value() {
        let t = tempfile::tempdir().unwrap();
        if crate::core::root::git_top(t.path()).is_none() {
            assert_eq!(
                commit_paths(t.path(), &[Path::new(".rune")], "m").unwrap(),
                CommitOutcome::NoGit
            );
        }
    }

    #[test]
    fn no_git_is_a_value() {
        let t = tempfile::tempdir().unwrap();
        if crate::core::root::git_top(t.path()).is_none() {
            assert_eq!(state(t.path()).unwrap(), GitState::NoGit);
        }
    }

    #[test]
    fn reads_head_branch_status_and_last_commit() {
        let t = tempfile::tempdir().unwrap();
        let repo = Repository::init(t.path()).unwrap();
        let unborn = state(t.path()).unwrap();
        let r = unborn.repo().unwrap();
        assert_eq!(r.head_sha, None);
        assert!(r.branch.is_some());

        std::fs::write(t.path().join("a.txt"), "a").unwrap();
        commit_all(&repo, "first");
        std::fs::write(t.path().join("b.txt"), "b").unwrap();
        std::fs::write(t.path().join("a.txt"), "a2").unwrap();
        commit_all(&repo, "second");
        std::fs::write(t.path().join("a.txt"), "a3").unwrap();
        std::fs::write(t.path().join("new.txt"), "n").unwrap();

        let s = state(t.path()).unwrap();
        let r = s.repo().unwrap();
        assert_eq!(r.head_sha.as_ref().unwrap().len(), 40);
        let mut paths = r.last_commit_paths.clone();
        paths.sort();
        assert_eq!(paths, vec!["a.txt", "b.txt"]);
        assert!(r.status.contains(&" M a.txt".to_string()), "{:?}", r.status);
        assert!(
            r.status.contains(&"?? new.txt".to_string()),
            "{:?}",
            r.status
        );
    }
}
