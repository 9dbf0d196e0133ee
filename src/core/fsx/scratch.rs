//! Scratch folders: where baton's commands put temp files (a commit's message and git trace,
//! the body of a handoff the model writes), never `/tmp` nor the repository's `.git/`. Each is
//! a fresh 0700 folder under the user's private state (`<private>/tmp/<what>-<pid>-<n>/`),
//! removed when the `Scratch` is dropped; one a killed process left is swept by the next
//! command that makes one, after a day.

use super::{ensure_private_tree, unique_suffix};
use crate::core::error::{Error, Result};
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How old a scratch folder must be for the next one to sweep it (its process is gone, or
/// it is a handoff's the model never finished).
const STALE: Duration = Duration::from_secs(24 * 60 * 60);

/// A private folder of temp files, removed on drop (unless `keep`).
#[derive(Debug)]
pub struct Scratch {
    dir: PathBuf,
    keep: bool,
}

impl Scratch {
    /// A new folder under `base` (the user's private state folder), named after `what`.
    pub fn new(base: &Path, what: &str) -> Result<Scratch> {
        let parent = base.join("tmp");
        ensure_private_tree(base, &parent)?;
        sweep(&parent);
        let dir = parent.join(format!(
            "{what}-{}-{:x}",
            std::process::id(),
            unique_suffix()
        ));
        std::fs::DirBuilder::new()
            .mode(super::PRIVATE_DIR)
            .create(&dir)
            .map_err(|e| Error::io("create directory", &dir, e))?;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(super::PRIVATE_DIR))
            .map_err(|e| Error::io("set permissions on", &dir, e))?;
        Ok(Scratch { dir, keep: false })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Leaves the folder in place when dropped (a command that hands it to someone else);
    /// the sweep removes it after a day.
    #[must_use]
    pub fn kept(mut self) -> Scratch {
        self.keep = true;
        self
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.dir);
            // And `tmp/` once empty (another process's folder keeps it).
            if let Some(parent) = self.dir.parent() {
                let _ = std::fs::remove_dir(parent);
            }
        }
    }
}

/// Removes the scratch folders under `parent` older than a day.
fn sweep(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE);
        if old && e.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Whether `path` is a file right inside one of the scratch folders under `base`, by its
/// real path: no `..` or `.` in it, and its folder, links resolved, is a folder of
/// `<base>/tmp/` (a lexical check let `<scratch>/../../proj/src/main.rs` pass).
pub fn in_scratch(base: &Path, path: &Path) -> bool {
    use std::path::Component;
    if path
        .components()
        .any(|c| matches!(c, Component::ParentDir | Component::CurDir))
    {
        return false;
    }
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return false;
    };
    let (Ok(dir), Ok(tmp)) = (dir.canonicalize(), base.join("tmp").canonicalize()) else {
        return false;
    };
    dir.parent() == Some(tmp.as_path())
        && std::fs::symlink_metadata(dir.join(name)).is_ok_and(|m| m.file_type().is_file())
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_scratch_folder_is_private_and_goes_when_dropped() {
        let t = tempfile::tempdir().unwrap();
        let s = Scratch::new(t.path(), "commit").unwrap();
        let dir = s.path().to_path_buf();
        assert!(dir.starts_with(t.path().join("tmp")));
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        std::fs::write(dir.join("msg"), "x").unwrap();
        assert!(in_scratch(t.path(), &dir.join("msg")));
        std::fs::write(t.path().join("mine.rs"), "x").unwrap();
        assert!(!in_scratch(t.path(), &dir.join("../../mine.rs")));
        std::os::unix::fs::symlink(t.path(), dir.join("up")).unwrap();
        assert!(!in_scratch(t.path(), &dir.join("up/mine.rs")));
        drop(s);
        assert!(!dir.exists());
        let kept = Scratch::new(t.path(), "handoff").unwrap().kept();
        let dir = kept.path().to_path_buf();
        drop(kept);
        assert!(dir.is_dir());
    }
}
