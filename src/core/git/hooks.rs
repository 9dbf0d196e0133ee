//! What a commit runs besides git itself, to say why one failed: the hooks git would run (in
//! `core.hooksPath`, else the common git directory's `hooks/`) and `commit.gpgsign`.

use git2::Repository;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

/// The hooks `git add` and `git commit` run, in the order a commit runs them.
pub(super) const COMMIT_HOOKS: [&str; 6] = [
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "post-index-change",
    "reference-transaction",
];

/// The commit hooks installed: executable files of those names (git skips a hook that is
/// not executable, and `*.sample` files are not hooks).
pub(super) fn installed(repo: &Repository) -> Vec<String> {
    let dir = hooks_dir(repo);
    COMMIT_HOOKS
        .iter()
        .filter(|name| {
            std::fs::metadata(dir.join(name))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
        .map(|name| (*name).to_string())
        .collect()
}

/// Whether commits must be signed (`commit.gpgsign`).
pub(super) fn gpgsign(repo: &Repository) -> bool {
    repo.config()
        .and_then(|mut c| c.snapshot())
        .and_then(|c| c.get_bool("commit.gpgsign"))
        .unwrap_or(false)
}

/// The hooks directory: `core.hooksPath` (`~` expanded; relative to the work tree's top,
/// where git runs hooks), else `<common git dir>/hooks`.
fn hooks_dir(repo: &Repository) -> PathBuf {
    let configured = repo
        .config()
        .and_then(|mut c| c.snapshot())
        .and_then(|c| c.get_path("core.hooksPath"))
        .ok();
    match configured {
        Some(p) if p.is_absolute() => p,
        Some(p) => repo.workdir().unwrap_or(repo.path()).join(p),
        None => repo.commondir().join("hooks"),
    }
}

/// Whether identity key `key` (`user.name`, `user.email`) is missing from the
/// configuration: git would then refuse to commit, so the CLI commit gives a fallback.
pub(super) fn missing_config(repo: &Repository, key: &str) -> bool {
    repo.config()
        .and_then(|mut c| c.snapshot())
        .and_then(|c| c.get_string(key))
        .map_or(true, |v| v.trim().is_empty())
}
