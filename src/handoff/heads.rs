//! Layer 1 of a saved block against the repositories now: each `HEAD: <sha>` (with the
//! `repo:` and `branch:` before it; no repo means the project root) must still exist
//! (SHA-MISSING) and be the current HEAD (OK) or an ancestor of it (STALE: the branch moved
//! on), else NOT-ANCESTOR; another branch checked out is STALE; a repo that is gone is
//! REPO-MISSING. Where the repository has an `origin/main` (see `upstream`), the saved HEAD
//! is measured against it too: STALE when `origin/main` has commits the saved HEAD lacks.

use super::finding::{Finding, Kind};
use super::upstream;
use git2::{Oid, Repository};
use regex::Regex;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

static REPO: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)(?:^|[\s(|*-])repo:\s*`?([^\s`]+)`?").ok());
static BRANCH: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)(?:^|[\s(|*-])branch:\s*`?([^\s`]+)`?").ok());
static HEAD: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?:^|[\s(|*-])HEAD:\s*`?([0-9a-fA-F]{4,40})\b").ok());

/// One `HEAD:` entry of Layer 1.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Entry {
    repo: Option<String>,
    branch: Option<String>,
    sha: Option<String>,
}

fn capture<'a>(re: &LazyLock<Option<Regex>>, line: &'a str) -> Option<&'a str> {
    re.as_ref()?
        .captures(line)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str())
}

/// The HEAD entries of a Layer 1 text.
fn entries(layer1: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut cur = Entry::default();
    for line in layer1.lines() {
        if let Some(r) = capture(&REPO, line) {
            if cur.sha.is_some() {
                out.push(std::mem::take(&mut cur));
            }
            cur = Entry {
                repo: Some(r.to_string()),
                ..Entry::default()
            };
        }
        if let Some(sha) = capture(&HEAD, line) {
            if cur.sha.is_some() {
                let repo = cur.repo.clone();
                out.push(std::mem::take(&mut cur));
                cur.repo = repo;
            }
            cur.sha = Some(sha.to_ascii_lowercase());
        }
        if let Some(b) = capture(&BRANCH, line) {
            cur.branch = Some(b.to_string());
        }
    }
    if cur.sha.is_some() {
        out.push(cur);
    }
    out
}

/// Repositories opened so far, by the path asked for: one replay opens each repository once,
/// for its `HEAD:` lines and the `verified:` SHAs alike.
pub(crate) struct Repos {
    root: PathBuf,
    open: HashMap<PathBuf, Option<Repository>>,
}

impl Repos {
    /// No repository opened yet; relative `repo:` paths resolve against `root`.
    pub(crate) fn new(root: &Path) -> Self {
        Repos {
            root: root.to_path_buf(),
            open: HashMap::new(),
        }
    }

    /// The path a `repo:` value names (none: the project root).
    pub(crate) fn resolve(&self, repo: Option<&str>) -> PathBuf {
        match repo {
            None => self.root.clone(),
            Some(r) => self.root.join(r),
        }
    }

    /// The repository at or above `path`; `None` when there is none.
    pub(crate) fn get(&mut self, path: &Path) -> Option<&Repository> {
        self.open
            .entry(path.to_path_buf())
            .or_insert_with(|| Repository::discover(path).ok())
            .as_ref()
    }
}

/// One finding per `HEAD:` entry of a Layer 1 text, and the repositories they name.
pub(crate) fn check_layer1(repos: &mut Repos, layer1: &str) -> (Vec<Finding>, Vec<PathBuf>) {
    let list = entries(layer1);
    let findings = list.iter().flat_map(|e| check_head(repos, e)).collect();
    let paths = list
        .iter()
        .map(|e| repos.resolve(e.repo.as_deref()))
        .collect();
    (findings, paths)
}

/// The findings of one `HEAD:` entry: against the local HEAD, then against `origin/main`.
fn check_head(repos: &mut Repos, e: &Entry) -> Vec<Finding> {
    let sha = e.sha.clone().unwrap_or_default();
    let path = repos.resolve(e.repo.as_deref());
    let where_ = e.repo.as_deref().unwrap_or(".");
    if !path.exists() {
        return vec![Finding::new(
            Kind::RepoMissing,
            format!("repo {where_} (Layer 1) does not exist here"),
        )];
    }
    let Some(repo) = repos.get(&path) else {
        return vec![Finding::new(
            Kind::RepoMissing,
            format!("repo {where_} (Layer 1) is not a git repository"),
        )];
    };
    let Ok(saved) = repo
        .revparse_single(&sha)
        .and_then(|o| o.peel_to_commit())
        .map(|c| c.id())
    else {
        return vec![Finding::new(
            Kind::ShaMissing,
            format!("HEAD {sha} of repo {where_} (Layer 1) is not in the repository"),
        )];
    };
    let mut out = vec![against_head(repo, where_, saved, e.branch.as_deref())];
    out.extend(against_main(repo, where_, saved));
    out
}

/// The saved HEAD against the HEAD checked out now.
fn against_head(repo: &Repository, where_: &str, saved: Oid, branch: Option<&str>) -> Finding {
    let head = repo.head().ok();
    let now_branch = head
        .as_ref()
        .filter(|h| h.is_branch())
        .and_then(|h| h.shorthand().map(str::to_string));
    let Some(now) = head.and_then(|h| h.peel_to_commit().ok()).map(|c| c.id()) else {
        return Finding::new(
            Kind::Stale,
            format!(
                "repo {where_} has no HEAD commit now (saved {})",
                short(saved)
            ),
        );
    };
    let moved = commit_moved(repo, where_, saved, now);
    let switched = branch_moved(branch, now_branch.as_deref());
    match (moved, switched) {
        (None, None) => Finding::new(
            Kind::Ok,
            format!(
                "repo {where_}: HEAD {} unchanged{}",
                short(saved),
                now_branch.map(|b| format!(" on {b}")).unwrap_or_default()
            ),
        ),
        (None, Some(note)) => Finding::new(Kind::Stale, format!("repo {where_}: {note}")),
        (Some(f), None) => f,
        (Some(f), Some(note)) => Finding::new(f.kind, format!("{}; {note}", f.text)),
    }
}

/// The saved HEAD against `origin/main`, when the repository has one: STALE when
/// `origin/main` has commits the saved HEAD lacks (it moved on since the save, or the two
/// diverged); OK when it is the saved HEAD or behind it (the saved work is not on it yet).
fn against_main(repo: &Repository, where_: &str, saved: Oid) -> Option<Finding> {
    let main = upstream::main(repo)?;
    let name = &main.name;
    let at = main.commit;
    let finding = if at == saved {
        Finding::new(
            Kind::Ok,
            format!(
                "repo {where_}: {name} is at the saved HEAD {}",
                short(saved)
            ),
        )
    } else if repo.graph_descendant_of(saved, at).unwrap_or(false) {
        Finding::new(
            Kind::Ok,
            format!(
                "repo {where_}: the saved HEAD {} is {} commit(s) ahead of {name} ({}): that work is not on {name} (as of the last fetch)",
                short(saved),
                upstream::commits_between(repo, at, saved),
                short(at)
            ),
        )
    } else if repo.graph_descendant_of(at, saved).unwrap_or(false) {
        Finding::new(
            Kind::Stale,
            format!(
                "repo {where_}: {name} moved from the saved HEAD {} to {} ({} commit(s) since the save, as of the last fetch)",
                short(saved),
                short(at),
                upstream::commits_between(repo, saved, at)
            ),
        )
    } else {
        Finding::new(
            Kind::Stale,
            format!(
                "repo {where_}: {name} is at {}, which the saved HEAD {} does not contain ({} commit(s) on {name} not in the saved state, as of the last fetch)",
                short(at),
                short(saved),
                upstream::commits_between(repo, saved, at)
            ),
        )
    };
    Some(finding)
}

/// How HEAD moved since the save: `None` when it is the saved commit, STALE when it descends
/// from it, NOT-ANCESTOR otherwise.
fn commit_moved(repo: &Repository, where_: &str, saved: Oid, now: Oid) -> Option<Finding> {
    if saved == now {
        None
    } else if repo.graph_descendant_of(now, saved).unwrap_or(false) {
        Some(Finding::new(
            Kind::Stale,
            format!(
                "repo {where_}: HEAD moved from {} to {} ({} commit(s) since the save)",
                short(saved),
                short(now),
                upstream::commits_between(repo, saved, now)
            ),
        ))
    } else {
        Some(Finding::new(
            Kind::NotAncestor,
            format!(
                "repo {where_}: saved HEAD {} is not an ancestor of HEAD {} (history rewritten, or another branch checked out)",
                short(saved),
                short(now)
            ),
        ))
    }
}

/// A note when the branch checked out now is not the saved one (`None` when it is, or when
/// the block named no branch).
fn branch_moved(saved: Option<&str>, now: Option<&str>) -> Option<String> {
    match (saved, now) {
        (Some(was), Some(is)) if was.trim_start_matches("refs/heads/") != is => {
            Some(format!("saved on branch {was}, now on {is}"))
        }
        (Some(was), None) => Some(format!("saved on branch {was}, now on a detached HEAD")),
        _ => None,
    }
}

fn short(oid: Oid) -> String {
    oid.to_string().chars().take(10).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn commit(repo: &Repository, file: &str, text: &str) -> Oid {
        let root = repo.workdir().unwrap();
        std::fs::write(root.join(file), text).unwrap();
        let mut index = repo.index().unwrap();
        index.add_path(Path::new(file)).unwrap();
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
        repo.commit(Some("HEAD"), &sig, &sig, "c", &tree, &refs)
            .unwrap()
    }

    #[test]
    fn entries_follow_repo_and_branch() {
        let e = entries(
            "repo: /a  HEAD: abc1234  status: clean\n- repo: b\n  branch: main\n  HEAD: `DEF5678`\nHEAD: 9999aaaa\n",
        );
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].repo.as_deref(), Some("/a"));
        assert_eq!(e[1].branch.as_deref(), Some("main"));
        assert_eq!(e[1].sha.as_deref(), Some("def5678"));
        assert_eq!(e[2].repo.as_deref(), Some("b"));
        assert_eq!(e[2].branch, None);
    }

    #[test]
    fn rewritten_history_is_not_an_ancestor() {
        let t = tempfile::tempdir().unwrap();
        let repo = Repository::init(t.path()).unwrap();
        commit(&repo, "a.txt", "1");
        let side = commit(&repo, "b.txt", "2");
        // Reset HEAD back one commit and commit something else: `side` is no ancestor now.
        let parent = repo.find_commit(side).unwrap().parent(0).unwrap();
        repo.reset(parent.as_object(), git2::ResetType::Hard, None)
            .unwrap();
        commit(&repo, "c.txt", "3");
        let (f, _) = check_layer1(&mut Repos::new(t.path()), &format!("HEAD: {side}\n"));
        assert_eq!(f[0].kind, Kind::NotAncestor, "{f:?}");
    }
}
