//! The repository's `origin/main`, as the last fetch left it (baton never fetches: no
//! network), for datarim's consumer contract: a `verified:` pushed/merged SHA must be in
//! `origin/main` (`CLAIM-UNVERIFIED` when not, with `CONTENT-LANDED` evidence when the
//! commit's files landed there under another SHA, as after a squash merge), and a saved HEAD
//! is `STALE` when `origin/main` has commits it lacks.
//!
//! `origin/main` is `refs/remotes/origin/main`; a repository without one whose `origin/HEAD`
//! names another default branch (`origin/master`) uses that. No such ref: nothing here
//! applies, and the checks fall back to the local repository.

use git2::{DiffOptions, Oid, Repository};

/// The upstream main branch: its short name (`origin/main`) and commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Main {
    pub(crate) name: String,
    pub(crate) commit: Oid,
}

/// `origin/main` of `repo`, else the branch `origin/HEAD` names; `None` when neither exists.
pub(crate) fn main(repo: &Repository) -> Option<Main> {
    let peel = |r: git2::Reference<'_>| r.peel_to_commit().ok().map(|c| c.id());
    if let Some(commit) = repo
        .find_reference("refs/remotes/origin/main")
        .ok()
        .and_then(peel)
    {
        return Some(Main {
            name: "origin/main".into(),
            commit,
        });
    }
    let head = repo.find_reference("refs/remotes/origin/HEAD").ok()?;
    let name = head
        .symbolic_target()?
        .strip_prefix("refs/remotes/")?
        .to_string();
    let commit = head.resolve().ok().and_then(peel)?;
    Some(Main { name, commit })
}

/// Whether `main` contains commit `sha` (is it, or descends from it).
pub(crate) fn contains(repo: &Repository, main: &Main, sha: Oid) -> bool {
    main.commit == sha || repo.graph_descendant_of(main.commit, sha).unwrap_or(false)
}

/// The content-landing evidence for a commit `main` does not contain: the files `sha`
/// changed (against its first parent), when every one of them is the same in `main` as in
/// `sha` — the work landed under another commit (a squash merge, a cherry-pick), not lost.
/// `None` when any of them differs, or the commit changed no file.
pub(crate) fn landed_files(repo: &Repository, sha: Oid, main: &Main) -> Option<Vec<String>> {
    let commit = repo.find_commit(sha).ok()?;
    let tree = commit.tree().ok()?;
    let parent = commit.parent(0).ok().and_then(|p| p.tree().ok());
    let own = repo
        .diff_tree_to_tree(parent.as_ref(), Some(&tree), None)
        .ok()?;
    let mut paths: Vec<String> = Vec::new();
    for d in own.deltas() {
        for f in [d.old_file(), d.new_file()] {
            if let Some(p) = f.path().map(|p| p.to_string_lossy().into_owned()) {
                if !paths.contains(&p) {
                    paths.push(p);
                }
            }
        }
    }
    if paths.is_empty() {
        return None;
    }
    let main_tree = repo.find_commit(main.commit).ok()?.tree().ok()?;
    let mut opts = DiffOptions::new();
    // The paths are literal file names, not patterns.
    opts.disable_pathspec_match(true);
    for p in &paths {
        opts.pathspec(p);
    }
    let diff = repo
        .diff_tree_to_tree(Some(&tree), Some(&main_tree), Some(&mut opts))
        .ok()?;
    (diff.deltas().len() == 0).then_some(paths)
}

/// The number of commits reachable from `to` and not from `from` ("some" when the walk
/// fails).
pub(crate) fn commits_between(repo: &Repository, from: Oid, to: Oid) -> String {
    let count = || -> Result<usize, git2::Error> {
        let mut walk = repo.revwalk()?;
        walk.push(to)?;
        walk.hide(from)?;
        Ok(walk.take(10_000).count())
    };
    count().map_or_else(|_| "some".into(), |n| n.to_string())
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their repositories directly
mod tests {
    use super::*;
    use crate::handoff::heads::tests::commit;

    /// A repository with `origin/main` pointing at `at`.
    fn set_origin_main(repo: &Repository, at: Oid) {
        repo.reference("refs/remotes/origin/main", at, true, "test")
            .unwrap();
    }

    #[test]
    fn main_is_origin_main_else_origin_head() {
        let t = tempfile::tempdir().unwrap();
        let repo = Repository::init(t.path()).unwrap();
        let a = commit(&repo, "a.txt", "1");
        assert_eq!(main(&repo), None);
        repo.reference("refs/remotes/origin/master", a, true, "test")
            .unwrap();
        repo.reference_symbolic(
            "refs/remotes/origin/HEAD",
            "refs/remotes/origin/master",
            true,
            "test",
        )
        .unwrap();
        assert_eq!(
            main(&repo),
            Some(Main {
                name: "origin/master".into(),
                commit: a
            })
        );
        let b = commit(&repo, "b.txt", "2");
        set_origin_main(&repo, b);
        let m = main(&repo).unwrap();
        assert_eq!((m.name.as_str(), m.commit), ("origin/main", b));
        assert!(contains(&repo, &m, a) && contains(&repo, &m, b));
    }

    #[test]
    fn a_squashed_commit_is_not_contained_but_its_files_landed() {
        let t = tempfile::tempdir().unwrap();
        let repo = Repository::init(t.path()).unwrap();
        let base = commit(&repo, "README.md", "base\n");
        // The agent's commit on a branch …
        let agent = commit(&repo, "work.md", "agent work\n");
        // … and a different commit on main with the same content (a squash merge).
        repo.reset(
            repo.find_commit(base).unwrap().as_object(),
            git2::ResetType::Hard,
            None,
        )
        .unwrap();
        commit(&repo, "other.md", "parallel\n");
        let squash = commit(&repo, "work.md", "agent work\n");
        set_origin_main(&repo, squash);
        let m = main(&repo).unwrap();
        assert!(!contains(&repo, &m, agent));
        assert_eq!(landed_files(&repo, agent, &m), Some(vec!["work.md".into()]));
        // Content that differs did not land.
        let changed = commit(&repo, "work.md", "edited later\n");
        set_origin_main(&repo, changed);
        assert_eq!(landed_files(&repo, agent, &main(&repo).unwrap()), None);
        assert_eq!(commits_between(&repo, base, changed), "3");
    }
}
