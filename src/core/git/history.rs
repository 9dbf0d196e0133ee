//! Reading a repository's recent history: the messages and changed paths of HEAD's newest
//! first-parent commits (the relay's bootstrap-hazard check looks at every commit since the
//! loop last resumed, not only at HEAD), and which commit HEAD was at a given time (the
//! audit's git baseline for a session that no snapshot was taken for when it began).

use super::paths_changed_by;
use crate::core::error::{Error, Result};
use chrono::{DateTime, Utc};
use git2::Repository;
use std::path::Path;

/// How far back `head_at` walks the first-parent line when the reflog has nothing.
const WALK_MAX: usize = 10_000;

fn open(dir: &Path) -> Result<Repository> {
    Repository::discover(dir)
        .map_err(|e| Error::Git(format!("open {}: {}", dir.display(), e.message())))
}

/// HEAD's first-parent line, newest first: at most `max` commits.
fn first_parents(repo: &Repository, max: usize) -> Vec<git2::Commit<'_>> {
    let mut out = Vec::new();
    let Ok(mut c) = repo.head().and_then(|h| h.peel_to_commit()) else {
        return out;
    };
    while out.len() < max {
        let parent = c.parent(0).ok();
        out.push(c);
        match parent {
            Some(p) => c = p,
            None => break,
        }
    }
    out
}

/// The messages of the newest `max` commits on HEAD's first-parent line, newest first (none
/// before the first commit).
pub fn first_parent_messages(dir: &Path, max: usize) -> Result<Vec<String>> {
    let repo = open(dir)?;
    let line = first_parents(&repo, max);
    let messages = line
        .iter()
        .map(|c| c.message().unwrap_or("").to_string())
        .collect();
    Ok(messages)
}

/// The paths changed by the newest `n` commits on HEAD's first-parent line, each against
/// its first parent; each path once, in the order first seen.
pub fn paths_changed_by_newest(dir: &Path, n: usize) -> Result<Vec<String>> {
    let repo = open(dir)?;
    let mut out: Vec<String> = Vec::new();
    for c in first_parents(&repo, n) {
        for p in paths_changed_by(&repo, &c)? {
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    Ok(out)
}

/// The messages of the stash (`git stash list`), newest first; empty when nothing is stashed.
/// The stash is the repository's, shared by all its worktrees.
pub fn stash_messages(dir: &Path) -> Result<Vec<String>> {
    let repo = open(dir)?;
    if repo.find_reference("refs/stash").is_err() {
        return Ok(Vec::new());
    }
    let reflog = repo
        .reflog("refs/stash")
        .map_err(|e| Error::Git(format!("reflog of the stash: {}", e.message())))?;
    Ok(reflog
        .iter()
        .map(|e| e.message().unwrap_or("").to_string())
        .collect())
}

/// The commit HEAD pointed at, at time `at`, in the repository that holds `dir`.
///
/// HEAD's reflog says it exactly: the newest entry written at or before `at`. Without a
/// reflog, the newest commit on HEAD's first-parent line committed at or before `at`.
/// `None` when git cannot say: the reflog begins after `at` (the repository, its first
/// commit or the clone came later — or the clocks disagree), or no commit is that old.
pub fn head_at(dir: &Path, at: DateTime<Utc>) -> Result<Option<String>> {
    let repo = open(dir)?;
    let secs = at.timestamp();
    let git_err = |e: git2::Error| Error::Git(format!("reflog of HEAD: {}", e.message()));
    let reflog = repo.reflog("HEAD").map_err(git_err)?;
    if !reflog.is_empty() {
        // Entries come newest first.
        let found = reflog
            .iter()
            .find(|e| e.committer().when().seconds() <= secs)
            .map(|e| e.id_new());
        return Ok(found.filter(|id| !id.is_zero()).map(|id| id.to_string()));
    }
    let line = first_parents(&repo, WALK_MAX);
    let found = line
        .iter()
        .find(|c| c.committer().when().seconds() <= secs)
        .map(|c| c.id().to_string());
    Ok(found)
}

/// How far back `work_since` looks for the commit it starts from.
const WORK_WALK_MAX: usize = 200;

/// The user's work on HEAD's first-parent line since a commit (`work_since`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Work {
    /// The commits that change a path outside baton's state folders (an empty commit counts).
    pub commits: usize,
    /// The paths those commits change outside the state folders (relative to the work tree).
    pub paths: std::collections::BTreeSet<String>,
    /// The state folders, relative to the work tree, each ending in `/`.
    state: Vec<String>,
}

impl Work {
    /// Whether `path` (relative to the work tree, as `git status` gives it) lies in one of
    /// baton's state folders.
    pub fn in_state(&self, path: &str) -> bool {
        self.state.iter().any(|o| path.starts_with(o.as_str()))
    }
}

/// `own` (absolute paths) relative to the work tree `workdir`, each ending in `/`; a folder
/// that does not exist yet is placed by its parent, and one outside the work tree is left
/// out.
fn state_prefixes(workdir: &Path, own: &[std::path::PathBuf]) -> Vec<String> {
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let workdir = canon(workdir);
    own.iter()
        .filter_map(|p| {
            let abs = match (p.parent(), p.file_name()) {
                (Some(parent), Some(name)) => canon(parent).join(name),
                _ => canon(p),
            };
            let rel = abs.strip_prefix(&workdir).ok()?;
            let rel = rel.to_string_lossy();
            (!rel.is_empty()).then(|| format!("{rel}/"))
        })
        .collect()
}

/// The commits on HEAD's first-parent line of `repo` after `from` (a full SHA or a prefix of
/// at least 7 characters) that change a path outside `own` (folders given as absolute paths:
/// baton's state folders), and the paths they change there: the user's work since `from`,
/// leaving out baton's own commits of its state. `None` when `from` is not among the newest
/// 200 commits (unknown, or long ago).
pub fn work_since(
    repo: &Repository,
    from: &str,
    own: &[std::path::PathBuf],
) -> Result<Option<Work>> {
    if from.len() < 7 || !from.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let Some(workdir) = repo.workdir().map(Path::to_path_buf) else {
        return Ok(None);
    };
    let mut work = Work {
        state: state_prefixes(&workdir, own),
        ..Work::default()
    };
    let from = from.to_ascii_lowercase();
    for c in first_parents(repo, WORK_WALK_MAX) {
        if c.id().to_string().starts_with(&from) {
            return Ok(Some(work));
        }
        let paths = paths_changed_by(repo, &c)?;
        // An empty commit is the user's; one that changes only state folders is baton's.
        let empty = paths.is_empty();
        let outside: Vec<String> = paths.into_iter().filter(|p| !work.in_state(p)).collect();
        if empty || !outside.is_empty() {
            work.commits += 1;
            work.paths.extend(outside);
        }
    }
    Ok(None)
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their repositories directly
mod tests {
    use super::*;
    use git2::{Oid, Signature, Time};

    /// Commits `file` in `repo` at `secs` (author and committer time), on HEAD.
    fn commit_at(repo: &Repository, file: &str, msg: &str, secs: i64) -> Oid {
        let root = repo.workdir().unwrap().to_path_buf();
        std::fs::write(root.join(file), msg).unwrap();
        let mut idx = repo.index().unwrap();
        idx.add_path(Path::new(file)).unwrap();
        idx.write().unwrap();
        let tree = repo.find_tree(idx.write_tree().unwrap()).unwrap();
        let sig = Signature::new("t", "t@example.invalid", &Time::new(secs, 0)).unwrap();
        let parents: Vec<git2::Commit<'_>> = repo
            .head()
            .ok()
            .and_then(|h| h.peel_to_commit().ok())
            .into_iter()
            .collect();
        let refs: Vec<&git2::Commit<'_>> = parents.iter().collect();
        repo.commit(Some("HEAD"), &sig, &sig, msg, &tree, &refs)
            .unwrap()
    }

    /// Rewrites HEAD's reflog: one entry per (commit, time), oldest first.
    fn reflog(repo: &Repository, entries: &[(Oid, i64)]) {
        let mut log = repo.reflog("HEAD").unwrap();
        while !log.is_empty() {
            log.remove(0, false).unwrap();
        }
        for (id, secs) in entries {
            let sig = Signature::new("t", "t@example.invalid", &Time::new(*secs, 0)).unwrap();
            log.append(*id, &sig, Some("commit")).unwrap();
        }
        log.write().unwrap();
    }

    fn time(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(secs, 0).unwrap()
    }

    #[test]
    fn recent_messages_and_paths_follow_first_parents() {
        let t = tempfile::tempdir().unwrap();
        let repo = Repository::init(t.path()).unwrap();
        assert!(first_parent_messages(t.path(), 5).unwrap().is_empty());
        commit_at(&repo, "a.txt", "one", 1000);
        commit_at(&repo, "b.txt", "two", 2000);
        commit_at(&repo, "c.txt", "three", 3000);
        assert_eq!(
            first_parent_messages(t.path(), 2).unwrap(),
            vec!["three", "two"]
        );
        assert_eq!(first_parent_messages(t.path(), 9).unwrap().len(), 3);
        assert_eq!(
            paths_changed_by_newest(t.path(), 2).unwrap(),
            vec!["c.txt", "b.txt"]
        );
        assert_eq!(paths_changed_by_newest(t.path(), 0).unwrap().len(), 0);
    }

    #[test]
    fn head_at_reads_the_reflog_and_says_none_when_it_is_younger() {
        let t = tempfile::tempdir().unwrap();
        let repo = Repository::init(t.path()).unwrap();
        let one = commit_at(&repo, "a.txt", "one", 1000);
        let two = commit_at(&repo, "b.txt", "two", 2000);
        // HEAD moved to `one` at 1100 and to `two` at 5000 (committed long before it was
        // checked out: the reflog, not the commit time, says when HEAD moved).
        reflog(&repo, &[(one, 1100), (two, 5000)]);
        assert_eq!(
            head_at(t.path(), time(4999)).unwrap(),
            Some(one.to_string())
        );
        assert_eq!(
            head_at(t.path(), time(5000)).unwrap(),
            Some(two.to_string())
        );
        assert_eq!(head_at(t.path(), time(1099)).unwrap(), None);
    }

    #[test]
    fn head_at_without_a_reflog_takes_commit_times() {
        let t = tempfile::tempdir().unwrap();
        let repo = Repository::init(t.path()).unwrap();
        let one = commit_at(&repo, "a.txt", "one", 1000);
        commit_at(&repo, "b.txt", "two", 2000);
        reflog(&repo, &[]);
        assert_eq!(
            head_at(t.path(), time(1500)).unwrap(),
            Some(one.to_string())
        );
        assert_eq!(head_at(t.path(), time(999)).unwrap(), None);
    }

    #[test]
    fn work_since_leaves_out_commits_of_baton_state_only() {
        let t = tempfile::tempdir().unwrap();
        let repo = Repository::init(t.path()).unwrap();
        let root = t.path();
        let base = commit_at(&repo, "a.txt", "base", 1_000);
        std::fs::create_dir_all(root.join(".rune")).unwrap();
        commit_at(
            &repo,
            ".rune/progress.md",
            "chore: update rune session state",
            1_100,
        );
        let own = [root.join(".rune"), root.join(".handoff")];
        let from = base.to_string();
        let commits = |from: &str| work_since(&repo, from, &own).unwrap().map(|w| w.commits);
        assert_eq!(commits(&from), Some(0));
        assert_eq!(commits(&from[..7]), Some(0));
        commit_at(&repo, "b.txt", "the user's work", 1_200);
        assert_eq!(commits(&from), Some(1));
        assert_eq!(commits("deadbee"), None);
        assert_eq!(commits("(no commits)"), None);
        let work = work_since(&repo, &from.to_uppercase(), &own)
            .unwrap()
            .unwrap();
        assert_eq!(work.paths.iter().collect::<Vec<_>>(), ["b.txt"]);
        assert!(work.in_state(".rune/checkpoint.md"));
        assert!(!work.in_state(".runeaway/x") && !work.in_state("b.txt"));
    }
}
