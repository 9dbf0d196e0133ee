//! Deterministic re-verification of a saved block before the resumed agent acts on it.
//!
//! - Layer 1: each `HEAD:` still in its repository and an ancestor of HEAD (see `heads`).
//! - Layer 3: each path named must exist (FILE-MISSING), unless its line says it was deleted.
//! - Every `verified:` line that names a SHA no repository here contains: CLAIM-UNVERIFIED.

use super::body;
use super::finding::{Finding, Kind};
use super::heads::{self, Repos};
use regex::Regex;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

static HEX: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"\b[0-9a-f]{7,40}\b").ok());
static LINE_SUFFIX: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r":\d+(?::\d+)?$").ok());

/// Re-verifies a block's body. `first_line` is the body's first line in the file.
pub(crate) fn reverify(root: &Path, block_body: &str, first_line: usize) -> Vec<Finding> {
    let mut repos = Repos::new(root);
    let layer1 = body::layer_text(block_body, 1).unwrap_or("");
    let (mut out, named) = heads::check_layer1(&mut repos, layer1);
    out.extend(missing_files(root, block_body, first_line));
    // A `verified:` SHA may be in the project's repository or in any repository Layer 1
    // names.
    let mut known: Vec<PathBuf> = vec![root.to_path_buf()];
    known.extend(named);
    known.dedup();
    out.extend(unverified_claims(
        &mut repos, &known, block_body, first_line,
    ));
    out
}

/// FILE-MISSING for each path Layer 3 names that no longer exists.
fn missing_files(root: &Path, block_body: &str, first_line: usize) -> Vec<Finding> {
    let Some(layer3) = body::layer_text(block_body, 3) else {
        return Vec::new();
    };
    let offset = line_of(block_body, 3);
    let mut out = Vec::new();
    for (i, line) in layer3.lines().enumerate() {
        if let Some(path) = named_path(line) {
            if std::fs::symlink_metadata(root.join(&path)).is_err() {
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
    out
}

/// CLAIM-UNVERIFIED for each SHA in a `verified:` line that none of the `known`
/// repositories contains.
fn unverified_claims(
    repos: &mut Repos,
    known: &[PathBuf],
    block_body: &str,
    first_line: usize,
) -> Vec<Finding> {
    let Some(hex) = HEX.as_ref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, line) in block_body.lines().enumerate() {
        if !body::has_tag(line, "verified:") {
            continue;
        }
        for m in hex.find_iter(line) {
            let sha = m.as_str();
            // A SHA mixes digits and letters; `deadbeef` or `1234567` alone is a word or a
            // number more often than a commit.
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
