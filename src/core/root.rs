//! Finding the project root: `CLAUDE_PROJECT_DIR` when Claude Code gives it, else the event's
//! `cwd` walked up to the top of its git work tree, else the working directory itself.
//!
//! The walk only stats `.git` in each parent, so it costs microseconds; git itself is not
//! opened here.

use std::path::{Path, PathBuf};

/// The project root for an invocation.
pub fn project_root(project_dir: Option<&str>, event_cwd: Option<&Path>, cwd: &Path) -> PathBuf {
    if let Some(dir) = project_dir {
        let dir = PathBuf::from(dir);
        if dir.is_dir() {
            return dir;
        }
    }
    let start = match event_cwd {
        Some(c) if c.is_dir() => c.to_path_buf(),
        _ => cwd.to_path_buf(),
    };
    git_top(&start).unwrap_or(start)
}

/// The nearest ancestor of `start` (itself included) that holds `.git`.
pub fn git_top(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| dir.join(".git").exists())
        .map(Path::to_path_buf)
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;

    #[test]
    fn project_dir_wins_when_it_exists() {
        let t = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        let got = project_root(t.path().to_str(), Some(other.path()), other.path());
        assert_eq!(got, t.path());
    }

    #[test]
    fn missing_project_dir_falls_back_to_event_cwd_git_top() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir(t.path().join(".git")).unwrap();
        let sub = t.path().join("a/b");
        std::fs::create_dir_all(&sub).unwrap();
        let got = project_root(Some("/nonexistent/baton/x"), Some(&sub), Path::new("/"));
        assert_eq!(got, t.path());
    }

    #[test]
    fn no_git_means_the_cwd_itself() {
        let t = tempfile::tempdir().unwrap();
        let sub = t.path().join("plain");
        std::fs::create_dir_all(&sub).unwrap();
        // tempdirs are not inside a git work tree on CI; guard anyway.
        if git_top(&sub).is_none() {
            assert_eq!(project_root(None, None, &sub), sub);
        }
    }

    #[test]
    fn event_cwd_that_does_not_exist_uses_process_cwd() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir(t.path().join(".git")).unwrap();
        let got = project_root(None, Some(Path::new("/nonexistent/baton/y")), t.path());
        assert_eq!(got, t.path());
    }
}
