//! Deterministic re-verification of a saved block before the resumed agent acts on it.
//!
//! - Layer 1: each `HEAD:` still in its repository and an ancestor of HEAD (see `heads`).
//! - Layer 3: each path named must exist (FILE-MISSING), unless its line says it was deleted.
//! - Every `verified:` line that names a SHA no repository here contains: CLAIM-UNVERIFIED.
//! - A `verified:` line that says pushed or merged, naming a SHA that `origin/main` does not
//!   contain (see `upstream`): CLAIM-UNVERIFIED, and CONTENT-LANDED when the commit's files
//!   are the same in `origin/main` (the work landed under another SHA, as after a squash).
//!
//! A `verified:` line is confirmed when it names at least one SHA and every check of them
//! passed; the others are shown as `unverified:` in the replay (datarim's downgrade rule).

use super::body;
use super::finding::{Finding, Kind};
use super::heads::{self, Repos};
use super::upstream;
use regex::Regex;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

static HEX: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"\b[0-9a-f]{7,40}\b").ok());
static LINE_SUFFIX: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r":\d+(?::\d+)?$").ok());

/// What re-verification found, and which `verified:` lines it could not confirm.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Reverified {
    pub(crate) findings: Vec<Finding>,
    /// The 0-based lines of the block's body tagged `verified:` that no check confirmed:
    /// one naming no SHA, or one whose SHA failed a check.
    pub(crate) unconfirmed: Vec<usize>,
    /// The paths Layer 3 names that exist (checked, and fine: no finding of their own).
    pub(crate) files_present: usize,
}

/// Re-verifies a block's body: the findings alone. `first_line` is the body's first line in
/// the file.
#[cfg(test)]
pub(crate) fn reverify(root: &Path, block_body: &str, first_line: usize) -> Vec<Finding> {
    reverify_lines(root, block_body, first_line).findings
}

/// Re-verifies a block's body, with the `verified:` lines no check confirmed.
pub(crate) fn reverify_lines(root: &Path, block_body: &str, first_line: usize) -> Reverified {
    let mut repos = Repos::new(root);
    let layer1 = body::layer_text(block_body, 1).unwrap_or("");
    let (mut out, named) = heads::check_layer1(&mut repos, layer1);
    let (missing, files_present) = missing_files(root, block_body, first_line);
    out.extend(missing);
    // A `verified:` SHA may be in the project's repository or in any repository Layer 1
    // names.
    let mut known: Vec<PathBuf> = vec![root.to_path_buf()];
    known.extend(named);
    known.dedup();
    let (claims, unconfirmed) = verified_lines(&mut repos, &known, block_body, first_line);
    out.extend(claims);
    Reverified {
        findings: out,
        unconfirmed,
        files_present,
    }
}

/// FILE-MISSING for each path Layer 3 names that no longer exists; and how many exist.
fn missing_files(root: &Path, block_body: &str, first_line: usize) -> (Vec<Finding>, usize) {
    let Some(layer3) = body::layer_text(block_body, 3) else {
        return (Vec::new(), 0);
    };
    let offset = line_of(block_body, 3);
    let mut out = Vec::new();
    let mut present = 0;
    for (i, line) in layer3.lines().enumerate() {
        if let Some(path) = named_path(line) {
            if std::fs::symlink_metadata(root.join(&path)).is_ok() {
                present += 1;
            } else {
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
    (out, present)
}

/// The findings of every `verified:` line's SHAs (see the module doc), and the lines no
/// check confirmed.
fn verified_lines(
    repos: &mut Repos,
    known: &[PathBuf],
    block_body: &str,
    first_line: usize,
) -> (Vec<Finding>, Vec<usize>) {
    let mut out = Vec::new();
    let mut unconfirmed = Vec::new();
    for (i, line) in block_body.lines().enumerate() {
        if !body::has_tag(line, "verified:") {
            continue;
        }
        let shas = sha_words(line);
        let claim = Claim {
            line: first_line + i,
            text: line,
            lands: {
                let lower = line.to_ascii_lowercase();
                lower.contains("pushed") || lower.contains("merged")
            },
        };
        let mut confirmed = !shas.is_empty();
        for sha in shas {
            confirmed &= check_sha(repos, known, sha, &claim, &mut out);
        }
        if !confirmed {
            unconfirmed.push(i);
        }
    }
    (out, unconfirmed)
}

/// The words of `line` that look like a SHA: 7 to 40 hex digits, mixing digits and letters
/// (`deadbeef` or `1234567` alone is a word or a number more often than a commit).
fn sha_words(line: &str) -> Vec<&str> {
    let Some(hex) = HEX.as_ref() else {
        return Vec::new();
    };
    hex.find_iter(line)
        .map(|m| m.as_str())
        .filter(|sha| {
            sha.bytes().any(|b| b.is_ascii_digit()) && sha.bytes().any(|b| b.is_ascii_alphabetic())
        })
        .collect()
}

/// A `verified:` line being checked.
struct Claim<'a> {
    /// Its line number in the file.
    line: usize,
    text: &'a str,
    /// It says pushed or merged: its SHAs must be in `origin/main`.
    lands: bool,
}

/// Checks one SHA of a `verified:` line; whether it holds. It must be in one of the `known`
/// repositories, and for a pushed/merged claim in that repository's `origin/main` when it
/// has one.
fn check_sha(
    repos: &mut Repos,
    known: &[PathBuf],
    sha: &str,
    claim: &Claim<'_>,
    out: &mut Vec<Finding>,
) -> bool {
    let shown: String = claim.text.trim().chars().take(100).collect();
    let found = known.iter().find_map(|p| {
        let oid = repos
            .get(p)?
            .revparse_single(sha)
            .and_then(|o| o.peel_to_commit())
            .ok()?
            .id();
        Some((p.clone(), oid))
    });
    let Some((path, oid)) = found else {
        out.push(Finding::new(
            Kind::ClaimUnverified,
            format!(
                "line {}: `verified:` names {sha}, which no repository here contains: {shown:?}",
                claim.line
            ),
        ));
        return false;
    };
    let Some(repo) = repos.get(&path).filter(|_| claim.lands) else {
        return true;
    };
    let Some(main) = upstream::main(repo) else {
        return true;
    };
    let name = &main.name;
    if upstream::contains(repo, &main, oid) {
        out.push(Finding::new(
            Kind::Ok,
            format!("line {}: {sha} is in {name}", claim.line),
        ));
        return true;
    }
    out.push(Finding::new(
        Kind::ClaimUnverified,
        format!(
            "line {}: SHA {sha} not found in {name} (as of the last fetch), though the line says it was pushed or merged: {shown:?}",
            claim.line
        ),
    ));
    if let Some(files) = upstream::landed_files(repo, oid, &main) {
        out.push(Finding::new(
            Kind::ContentLanded,
            format!(
                "line {}: the files {sha} changed ({}) are the same in {name}: the work landed under another commit (a squash merge?), not lost",
                claim.line,
                list_some(&files)
            ),
        ));
    }
    false
}

/// Up to five items, then how many more.
fn list_some(items: &[String]) -> String {
    let mut shown = items.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
    if items.len() > 5 {
        shown.push_str(&format!(" and {} more", items.len() - 5));
    }
    shown
}

/// The line (0-based, in the body) of layer `n`'s first content line.
fn line_of(block_body: &str, n: u32) -> usize {
    block_body
        .lines()
        .position(|l| body::layer_number(l) == Some(n))
        .map_or(0, |p| p + 1)
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
    use crate::handoff::heads::tests::commit;
    use git2::Repository;

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
        // `unverified:` is not a `verified:` claim: its SHA is not re-checked.
        let unverified = body.replace(
            "Merged 1234abcd verified: PR",
            "Merged 1234abcd unverified: PR",
        );
        let f = reverify(t.path(), &unverified, 10);
        assert!(f.iter().all(|x| x.kind != Kind::ClaimUnverified), "{f:?}");

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
}
