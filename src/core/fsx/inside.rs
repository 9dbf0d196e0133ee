//! State paths under the project root, checked component by component: a state folder
//! (`.boo/runs/<id>`, `datarim/sessions`, a `paths.*` value) must not lead out of the project
//! through a symlink anywhere between the root and the file, nor through `..` or an absolute
//! path. The root itself may be reached through links (a home on another volume); what is
//! below it is the project's, possibly committed by someone else, so it is not trusted.

use crate::core::error::{Error, Result};
use std::fs;
use std::path::{Component, Path, PathBuf};

/// Checks that `path` lies under `root` (textually, as `root.join(rel)` makes it) through
/// relative components only, and that no existing component below `root` is a symlink and
/// none but the last is anything other than a directory. A path whose tail does not exist
/// yet is fine: creating it goes through `ensure_dir_in`.
pub fn check_inside(root: &Path, path: &Path) -> Result<()> {
    let outside = || Error::Outside {
        path: path.to_path_buf(),
        root: root.to_path_buf(),
    };
    let rel = path.strip_prefix(root).map_err(|_| outside())?;
    let mut parts = Vec::new();
    for part in rel.components() {
        match part {
            Component::Normal(name) => parts.push(name),
            Component::CurDir => {}
            _ => return Err(outside()),
        }
    }
    let mut at = root.to_path_buf();
    for (i, name) in parts.iter().enumerate() {
        at.push(name);
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => return Err(Error::Symlink(at)),
            Ok(m) if !m.is_dir() && i + 1 < parts.len() => {
                return Err(Error::Invalid(format!(
                    "{} is not a folder, so {} cannot be inside it",
                    at.display(),
                    path.display()
                )))
            }
            Ok(_) => {}
            // The rest does not exist yet: nothing below can be a link.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(Error::io("inspect", &at, e)),
        }
    }
    Ok(())
}

/// `root` joined with the relative `rel`, checked with `check_inside`.
pub fn join_inside(root: &Path, rel: &Path) -> Result<PathBuf> {
    let path = root.join(rel);
    check_inside(root, &path)?;
    Ok(path)
}

/// Creates `dir` (inside `root`) and every missing folder between, one at a time, refusing a
/// symlink at any of them (`create_dir_all` would follow one planted on the way).
pub fn ensure_dir_in(root: &Path, dir: &Path) -> Result<()> {
    check_inside(root, dir)?;
    let rel = dir.strip_prefix(root).map_err(|_| Error::Outside {
        path: dir.to_path_buf(),
        root: root.to_path_buf(),
    })?;
    let mut at = root.to_path_buf();
    for part in rel.components() {
        let Component::Normal(name) = part else {
            continue;
        };
        at.push(name);
        match fs::create_dir(&at) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let m = fs::symlink_metadata(&at).map_err(|e| Error::io("inspect", &at, e))?;
                if m.file_type().is_symlink() {
                    return Err(Error::Symlink(at));
                }
                if !m.is_dir() {
                    return Err(Error::Invalid(format!("{} is not a folder", at.display())));
                }
            }
            Err(e) => return Err(Error::io("create directory", &at, e)),
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_link_anywhere_below_the_root_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("proj");
        let elsewhere = t.path().join("elsewhere");
        fs::create_dir_all(root.join(".boo")).unwrap();
        fs::create_dir_all(&elsewhere).unwrap();
        symlink(&elsewhere, root.join(".boo/runs")).unwrap();
        let deep = root.join(".boo/runs/adhoc_1/audit_buffer.jsonl");
        assert!(
            matches!(check_inside(&root, &deep), Err(Error::Symlink(p)) if p.ends_with(".boo/runs"))
        );
        assert!(ensure_dir_in(&root, &root.join(".boo/runs/adhoc_1")).is_err());
        assert!(
            fs::read_dir(&elsewhere).unwrap().next().is_none(),
            "wrote through the link"
        );
        symlink(&elsewhere, root.join("datarim")).unwrap();
        assert!(ensure_dir_in(&root, &root.join("datarim/sessions")).is_err());
    }

    #[test]
    fn dot_dot_and_foreign_paths_are_refused() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("proj");
        fs::create_dir_all(&root).unwrap();
        assert!(matches!(
            join_inside(&root, Path::new("../x")),
            Err(Error::Outside { .. })
        ));
        assert!(matches!(
            check_inside(&root, Path::new("/etc/passwd")),
            Err(Error::Outside { .. })
        ));
        assert!(matches!(
            join_inside(&root, Path::new("a/../../x")),
            Err(Error::Outside { .. })
        ));
    }

    #[test]
    fn missing_folders_are_made_one_by_one_and_existing_ones_pass() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("proj");
        fs::create_dir_all(&root).unwrap();
        let dir = root.join(".rune/oracle-pending");
        ensure_dir_in(&root, &dir).unwrap();
        assert!(dir.is_dir());
        ensure_dir_in(&root, &dir).unwrap();
        check_inside(&root, &dir.join("x.json")).unwrap();
        fs::write(root.join("file"), "x").unwrap();
        assert!(ensure_dir_in(&root, &root.join("file/sub")).is_err());
    }

    #[test]
    fn a_linked_root_is_fine() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("real");
        fs::create_dir_all(&real).unwrap();
        let link = t.path().join("link");
        symlink(&real, &link).unwrap();
        ensure_dir_in(&link, &link.join(".rune")).unwrap();
        assert!(real.join(".rune").is_dir());
    }
}
