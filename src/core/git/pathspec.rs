//! The paths a command wrote, as git pathspecs: relative to the project directory (which may
//! be a subdirectory of the work tree) or absolute in, relative to the work tree's top out,
//! `/`-separated, and checked to lie inside the work tree and outside `.git`.

use std::path::{Component, Path, PathBuf};

/// `paths` (relative to `project_dir`, or absolute) relative to the work tree `top`, in
/// order, without repeats. `Err` names the first path outside the work tree.
pub(super) fn relative(
    project_dir: &Path,
    top: &Path,
    paths: &[&Path],
) -> Result<Vec<String>, String> {
    let top = top.canonicalize().unwrap_or_else(|_| top.to_path_buf());
    let project = project_dir
        .canonicalize()
        .unwrap_or_else(|_| project_dir.to_path_buf());
    let mut out: Vec<String> = Vec::new();
    for p in paths {
        let rel = one(&project, &top, p).ok_or_else(|| p.display().to_string())?;
        if !out.contains(&rel) {
            out.push(rel);
        }
    }
    Ok(out)
}

/// Best effort for a message: the paths relative to the work tree where they can be, else
/// as given.
pub(super) fn shown(project_dir: &Path, top: Option<&Path>, paths: &[&Path]) -> Vec<String> {
    let Some(top) = top else {
        return paths.iter().map(|p| p.display().to_string()).collect();
    };
    paths
        .iter()
        .map(|p| {
            relative(project_dir, top, &[p])
                .ok()
                .and_then(|mut v| v.pop())
                .unwrap_or_else(|| p.display().to_string())
        })
        .collect()
}

fn one(project: &Path, top: &Path, p: &Path) -> Option<String> {
    let abs = normalize(&if p.is_absolute() {
        p.to_path_buf()
    } else {
        project.join(p)
    });
    let rel = match abs.strip_prefix(top) {
        Ok(r) => r.to_path_buf(),
        // Spelled through a symlink (`/tmp` for `/private/tmp`): resolve what exists of it.
        Err(_) => resolve_existing(&abs).strip_prefix(top).ok()?.to_path_buf(),
    };
    let parts: Vec<&str> = rel
        .components()
        .map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect::<Option<_>>()?;
    // The top itself would be "everything"; `.git/…` is git's own.
    if parts.is_empty() || parts[0] == ".git" {
        return None;
    }
    Some(parts.join("/"))
}

/// `p` with `.` and `..` resolved without looking at the disk.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `p` with its deepest existing ancestor canonicalized and the rest appended.
fn resolve_existing(p: &Path) -> PathBuf {
    for base in p.ancestors() {
        if let Ok(real) = base.canonicalize() {
            let rest = p.strip_prefix(base).unwrap_or(Path::new(""));
            return if rest.as_os_str().is_empty() {
                real
            } else {
                real.join(rest)
            };
        }
    }
    p.to_path_buf()
}

/// Whether index path `path` is `spec` or under it.
pub(super) fn under(spec: &str, path: &[u8]) -> bool {
    let s = spec.as_bytes();
    path == s || (path.starts_with(s) && path.get(s.len()) == Some(&b'/'))
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;

    #[test]
    fn project_relative_and_absolute_paths_become_work_tree_relative() {
        let t = tempfile::tempdir().unwrap();
        let top = t.path();
        let sub = top.join("packages/foo");
        std::fs::create_dir_all(&sub).unwrap();
        let abs = sub.join(".handoff/p.md");
        let got = relative(
            &sub,
            top,
            &[
                Path::new(".rune"),
                Path::new("./.rune/"),
                &abs,
                Path::new("../bar/x"),
            ],
        )
        .unwrap();
        assert_eq!(
            got,
            vec![
                "packages/foo/.rune",
                "packages/foo/.handoff/p.md",
                "packages/bar/x"
            ]
        );
        assert_eq!(
            relative(top, top, &[Path::new(".rune")]).unwrap(),
            vec![".rune"]
        );
    }

    #[test]
    fn paths_outside_the_work_tree_or_in_git_dir_are_refused() {
        let t = tempfile::tempdir().unwrap();
        let top = t.path().join("repo");
        std::fs::create_dir_all(&top).unwrap();
        for bad in ["../elsewhere", "/etc/passwd", ".", ".git/config"] {
            assert!(
                relative(&top, &top, &[Path::new(bad)]).is_err(),
                "{bad} accepted"
            );
        }
    }
}
