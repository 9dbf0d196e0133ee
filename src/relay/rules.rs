//! How `.handoff/` travels through git in a team (docs/relay.md, "Teams"): a loop has one
//! writer at a time — the clone that hands off, then the one that resumes after a pull — so
//! the packet and the loop state are never merged line by line. `.handoff/.gitattributes`
//! marks them `-merge` (git's binary rule): when two clones did write them, a pull keeps your
//! version whole, with no conflict markers in it, and reports the conflict; the relay then
//! refuses to run until you keep one side (`git checkout --ours|--theirs -- <file>`,
//! `git add`, commit). `relay handoff` writes the file when missing (and commits it with the
//! packet); `baton doctor` reports it missing and `baton doctor --fix` writes it.

use crate::core::config::Config;
use crate::core::error::Result;
use crate::core::fsx;
use crate::core::git;
use crate::core::project::Project;
use std::path::{Path, PathBuf};

/// The files of one writer, relative to the relay folder.
const SINGLE_WRITER: [&str; 2] = ["packets/*.md", "loop/loop_state.md"];

const HEAD: &str = "# Written by baton: one loop has one writer at a time, so a pull never merges its packet or\n# loop state line by line; two writers conflict and you keep one side. See baton's\n# docs/relay.md, \"Teams\".\n";

/// The attributes file, relative to the project root.
pub(crate) fn path(config: &Config) -> PathBuf {
    config.paths.relay.join(".gitattributes")
}

fn lines() -> Vec<String> {
    SINGLE_WRITER
        .iter()
        .map(|p| format!("{p} -merge"))
        .collect()
}

/// Writes the relay folder's merge rules where they are missing; the file (relative to the
/// root) when written now. Call under the relay lock.
pub(crate) fn ensure(root: &Path, config: &Config) -> Result<Option<PathBuf>> {
    let rel = path(config);
    let abs = root.join(&rel);
    fsx::check_inside(root, &abs)?;
    if let Some(dir) = abs.parent() {
        fsx::ensure_dir_in(root, dir)?;
    }
    Ok(fsx::ensure_lines(&abs, HEAD, &lines())?.then_some(rel))
}

/// What is missing for the packet and the loop state to travel between clones, one line
/// each; empty without a relay folder or outside a git repository.
pub(crate) fn problems(project: &Project) -> Vec<String> {
    let base = &project.config().paths.relay;
    if !project.path(base).is_dir() || crate::core::root::git_top(&project.root).is_none() {
        return Vec::new();
    }
    let files = [
        base.join("packets/latest.md"),
        base.join("loop/loop_state.md"),
    ];
    let merged: Vec<String> = files
        .iter()
        .filter(|f| git::merge_driver(&project.root, f).as_deref() != Some("binary"))
        .map(|f| f.display().to_string())
        .collect();
    if merged.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "{} does not keep {} whole in a merge (one writer at a time: `-merge`)",
        path(project.config()).display(),
        merged.join(", ")
    )]
}

/// `baton doctor --fix`: writes the missing rules; the paths written.
pub(crate) fn fix(project: &Project) -> Result<Vec<String>> {
    let layout = super::layout::Layout::new(&project.root, project.config());
    let _lock = layout.lock()?;
    Ok(ensure(&project.root, project.config())?
        .into_iter()
        .map(|p| p.display().to_string())
        .collect())
}
