//! Deterministic re-verification of a saved block before the resumed agent acts on it.
//!
//! - Layer 1: each `HEAD: <sha>` (with the `repo:` and `branch:` before it; no repo means the
//!   project root): the SHA must still exist (SHA-MISSING) and be the current HEAD (OK) or an
//!   ancestor of it (STALE: the branch moved on), else NOT-ANCESTOR; a different branch
//!   checked out is STALE; a repo that is gone is REPO-MISSING.
//! - Layer 3: each path named must exist (FILE-MISSING), unless its line says it was deleted.
//! - Every `verified:` line that names a SHA no repository here contains: CLAIM-UNVERIFIED.

use super::body;
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
static HEX: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"\b[0-9a-f]{7,40}\b").ok());
static LINE_SUFFIX: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r":\d+(?::\d+)?$").ok());

/// What a finding says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Ok,
    Stale,
    ShaMissing,
    NotAncestor,
    RepoMissing,
    FileMissing,
    ClaimUnverified,
}

impl Kind {
    /// The label printed.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Kind::Ok => "OK",
            Kind::Stale => "STALE",
            Kind::ShaMissing => "SHA-MISSING",
            Kind::NotAncestor => "NOT-ANCESTOR",
            Kind::RepoMissing => "REPO-MISSING",
            Kind::FileMissing => "FILE-MISSING",
            Kind::ClaimUnverified => "CLAIM-UNVERIFIED",
        }
    }
}

/// One result of re-verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    pub(crate) kind: Kind,
    pub(crate) text: String,
}

impl Finding {
    fn new(kind: Kind, text: impl Into<String>) -> Self {
        Finding {
            kind,
            text: text.into(),
        }
    }
}

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

/// Repositories opened so far, by the path asked for.
struct Repos {
    root: PathBuf,
    open: HashMap<PathBuf, Option<Repository>>,
}

impl Repos {
    fn resolve(&self, repo: Option<&str>) -> PathBuf {
        match repo {
            None => self.root.clone(),
            Some(r) => self.root.join(r),
        }
    }

    fn get(&mut self, path: &Path) -> Option<&Repository> {
        self.open
            .entry(path.to_path_buf())
            .or_insert_with(|| Repository::discover(path).ok())
            .as_ref()
    }
}

/// Re-verifies a block's body. `first_line` is the body's first line in the file.
pub(crate) fn reverify(root: &Path, block_body: &str, first_line: usize) -> Vec<Finding> {
    let mut repos = Repos {
        root: root.to_path_buf(),
        open: HashMap::new(),
    };
    let mut out = Vec::new();
    let layer1 = body::layer_text(block_body, 1).unwrap_or("");
    for e in entries(layer1) {
        out.push(check_head(&mut repos, &e));
    }
    if let Some(layer3) = body::layer_text(block_body, 3) {
        let offset = line_of(block_body, 3);
        for (i, line) in layer3.lines().enumerate() {
            if let Some(path) = named_path(line) {
                let full = root.join(&path);
                if std::fs::symlink_metadata(&full).is_err() {
                    out.push(Finding::new(
                        Kind::FileMissing,
                        format!(
                            "{path} (Layer 3, line {}) no longer exists",
                            first_line + offset + i
                        ),
                    ));
                }
            }
        }
    }
    let mut known: Vec<PathBuf> = vec![root.to_path_buf()];
    known.extend(
        entries(layer1)
            .iter()
            .map(|e| repos.resolve(e.repo.as_deref())),
    );
    known.dedup();
    for (i, line) in block_body.lines().enumerate() {
        if !line.contains("verified:") {
            continue;
        }
        let Some(hex) = HEX.as_ref() else { break };
        for m in hex.find_iter(line) {
            let sha = m.as_str();
            let digits = sha.bytes().any(|b| b.is_ascii_digit());
            let letters = sha.bytes().any(|b| b.is_ascii_alphabetic());
            if !(digits && letters) {
                continue;
            }
            let found = known.iter().any(|p| {
                repos.get(p).is_some_and(|r| {
                    r.revparse_single(sha)
                        .and_then(|o| o.peel_to_commit())
                        .is_ok()
                })
            });
            if !found {
                let shown: String = line.trim().chars().take(100).collect();
                out.push(Finding::new(
                    Kind::ClaimUnverified,
                    format!(
                        "line {}: `verified:` names {sha}, which no repository here contains: {shown:?}",
                        first_line + i
                    ),
                ));
            }
        }
    }
    out
}

/// The line (0-based, in the body) of layer `n`'s first content line.
fn line_of(block_body: &str, n: u32) -> usize {
    block_body
        .lines()
        .position(|l| body::layer_number(l) == Some(n))
        .map_or(0, |p| p + 1)
}

fn check_head(repos: &mut Repos, e: &Entry) -> Finding {
    let sha = e.sha.clone().unwrap_or_default();
    let path = repos.resolve(e.repo.as_deref());
    let where_ = e.repo.as_deref().unwrap_or(".");
    if !path.exists() {
        return Finding::new(
            Kind::RepoMissing,
            format!("repo {where_} (Layer 1) does not exist here"),
        );
    }
    let Some(repo) = repos.get(&path) else {
        return Finding::new(
            Kind::RepoMissing,
            format!("repo {where_} (Layer 1) is not a git repository"),
        );
    };
    let Ok(saved) = repo
        .revparse_single(&sha)
        .and_then(|o| o.peel_to_commit())
        .map(|c| c.id())
    else {
        return Finding::new(
            Kind::ShaMissing,
            format!("HEAD {sha} of repo {where_} (Layer 1) is not in the repository"),
        );
    };
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
    let branch_note = match (&e.branch, &now_branch) {
        (Some(was), Some(is)) if was.trim_start_matches("refs/heads/") != is => {
            Some(format!("saved on branch {was}, now on {is}"))
        }
        (Some(was), None) => Some(format!("saved on branch {was}, now on a detached HEAD")),
        _ => None,
    };
    let base = if saved == now {
        None
    } else if repo.graph_descendant_of(now, saved).unwrap_or(false) {
        Some(Finding::new(
            Kind::Stale,
            format!(
                "repo {where_}: HEAD moved from {} to {} ({} commit(s) since the save)",
                short(saved),
                short(now),
                commits_between(repo, saved, now)
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
    };
    match (base, branch_note) {
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

fn short(oid: Oid) -> String {
    oid.to_string().chars().take(10).collect()
}

fn commits_between(repo: &Repository, from: Oid, to: Oid) -> String {
    let count = || -> Result<usize, git2::Error> {
        let mut walk = repo.revwalk()?;
        walk.push(to)?;
        walk.hide(from)?;
        Ok(walk.take(10_000).count())
    };
    count().map_or_else(|_| "some".into(), |n| n.to_string())
}

/// The path a Layer 3 line names, if it names one: its first token (in backticks or up to
/// a blank), when it looks like a path and the line does not say the file was deleted.
fn named_path(line: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    if ["deleted", "removed", "renamed", "moved"]
        .iter()
        .any(|w| lower.contains(w))
    {
        return None;
    }
    let t = line.trim_start();
    let t = t
        .strip_prefix("- ")
        .or_else(|| t.strip_prefix("* "))
        .or_else(|| t.strip_prefix("+ "))
        .unwrap_or(t)
        .trim_start();
    let token = if let Some(rest) = t.strip_prefix('`') {
        rest.split('`').next()?
    } else {
        t.split_whitespace().next()?
    };
    let token = token.trim_end_matches([':', ',', ';', ')', '.']);
    let token = token.strip_prefix('(').unwrap_or(token);
    let token = match LINE_SUFFIX.as_ref() {
        Some(re) => re.replace(token, "").into_owned(),
        None => token.to_string(),
    };
    if token.is_empty() || token.contains("://") || token.contains('*') {
        return None;
    }
    let has_ext = token.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && !ext.is_empty() && ext.chars().all(char::is_alphanumeric)
    });
    (token.contains('/') || has_ext).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commit(repo: &Repository, file: &str, text: &str) -> Oid {
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
    fn named_paths() {
        assert_eq!(
            named_path("- src/a.rs — edited").as_deref(),
            Some("src/a.rs")
        );
        assert_eq!(
            named_path("- `README.md`: read").as_deref(),
            Some("README.md")
        );
        assert_eq!(named_path("src/x.rs:42 fix").as_deref(), Some("src/x.rs"));
        assert_eq!(named_path("None."), None);
        assert_eq!(named_path("- old.rs (deleted)"), None);
        assert_eq!(named_path("see https://example.invalid/x"), None);
        assert_eq!(named_path("Paths of files:"), None);
    }

    #[test]
    fn heads_files_and_claims_are_rechecked() {
        let t = tempfile::tempdir().unwrap();
        let repo = Repository::init(t.path()).unwrap();
        let first = commit(&repo, "a.txt", "1");
        let branch = repo.head().unwrap().shorthand().unwrap().to_string();
        let body = format!(
            "## Layer 1 — Git State\nrepo: {}  branch: {branch}  HEAD: {first}\n\n## Layer 3 — Related Files\n- a.txt — edited\n- gone.rs — read\n\n## Layer 5\nPushed {} verified: CI\nMerged 1234abcd verified: PR\n",
            t.path().display(),
            &first.to_string()[..8]
        );
        let f = reverify(t.path(), &body, 10);
        let kinds: Vec<Kind> = f.iter().map(|x| x.kind).collect();
        assert_eq!(
            kinds,
            vec![Kind::Ok, Kind::FileMissing, Kind::ClaimUnverified],
            "{f:?}"
        );
        assert!(f[1].text.starts_with("gone.rs (Layer 3, line 15)"), "{f:?}");
        assert!(
            f[2].text.starts_with("line 19: `verified:` names 1234abcd"),
            "{f:?}"
        );

        let second = commit(&repo, "b.txt", "2");
        let f = reverify(t.path(), &body, 10);
        assert_eq!(f[0].kind, Kind::Stale, "{f:?}");
        assert!(f[0].text.contains("(1 commit(s) since the save)"), "{f:?}");
        let _ = second;

        let moved = body.replace(&format!("branch: {branch}"), "branch: feature");
        let f = reverify(t.path(), &moved, 10);
        assert_eq!(f[0].kind, Kind::Stale);
        assert!(f[0].text.contains("saved on branch feature"), "{f:?}");

        let missing = body.replace(
            &first.to_string(),
            "0123456789abcdef0123456789abcdef01234567",
        );
        let f = reverify(t.path(), &missing, 10);
        assert_eq!(f[0].kind, Kind::ShaMissing, "{f:?}");

        let gone = body.replace(&t.path().display().to_string(), "/nonexistent/repo");
        assert_eq!(reverify(t.path(), &gone, 10)[0].kind, Kind::RepoMissing);
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
        let body = format!("## Layer 1\nHEAD: {side}\n## Layer 5\nx\n");
        let f = reverify(t.path(), &body, 1);
        assert_eq!(f[0].kind, Kind::NotAncestor, "{f:?}");
    }
}
