//! What git says about a path and a person: the merge driver its attributes name (from every
//! `.gitattributes` that applies, as git reads them), and who the user is (`user.name`).

use git2::{AttrCheckFlags, AttrValue, Repository};
use std::path::Path;

/// The merge driver git would use for `rel` (relative to `project_dir`; the file need not
/// exist): `Some("union")`, `Some("binary")` for `-merge`, `Some("text")` for `merge` set;
/// `None` when no attribute names one (git's default text merge) or outside a repository.
pub fn merge_driver(project_dir: &Path, rel: &Path) -> Option<String> {
    let (repo, path) = in_repo(project_dir, rel)?;
    let value = repo
        .get_attr(&path, "merge", AttrCheckFlags::FILE_THEN_INDEX)
        .ok()
        .flatten();
    match AttrValue::from_string(value) {
        AttrValue::String(s) => Some(s.to_string()),
        AttrValue::True => Some("text".into()),
        AttrValue::False => Some("binary".into()),
        AttrValue::Bytes(b) => Some(String::from_utf8_lossy(b).into_owned()),
        AttrValue::Unspecified => None,
    }
}

/// `rel` (relative to `project_dir`) relative to the top of its repository's work tree.
fn in_repo(project_dir: &Path, rel: &Path) -> Option<(Repository, std::path::PathBuf)> {
    let repo = Repository::discover(project_dir).ok()?;
    let top = repo.workdir()?.canonicalize().ok()?;
    let abs = project_dir.canonicalize().ok()?.join(rel);
    let inside = abs.strip_prefix(&top).ok()?.to_path_buf();
    Some((repo, inside))
}

/// Whether the index holds `rel` (relative to `project_dir`): git tracks it.
pub fn is_tracked(project_dir: &Path, rel: &Path) -> bool {
    in_repo(project_dir, rel).is_some_and(|(repo, p)| {
        repo.index()
            .ok()
            .is_some_and(|i| i.get_path(&p, 0).is_some())
    })
}

/// The first file the index holds at or below `rel` (relative to `project_dir`), as the work
/// tree names it: a folder that holds one is git's, not a private folder of baton's.
pub fn tracked_under(project_dir: &Path, rel: &Path) -> Option<String> {
    let (repo, p) = in_repo(project_dir, rel)?;
    let index = repo.index().ok()?;
    let spec = p.to_string_lossy().trim_end_matches('/').to_string();
    index
        .iter()
        .find(|e| spec.is_empty() || super::pathspec::under(&spec, &e.path))
        .map(|e| String::from_utf8_lossy(&e.path).into_owned())
}

/// Whether git's ignore rules cover `rel` (relative to `project_dir`).
pub fn is_ignored(project_dir: &Path, rel: &Path) -> bool {
    in_repo(project_dir, rel).is_some_and(|(repo, p)| repo.is_path_ignored(&p).unwrap_or(false))
}

/// The name git gives the author of a commit in `repo`, from its config (then the user's
/// and the system's; the user's own outside a repository, `None`):
/// `author.name`, else `user.name`; `None` when neither is set.
pub fn user_name(repo: Option<&Repository>) -> Option<String> {
    let config = repo
        .and_then(|r| r.config().ok())
        .or_else(|| git2::Config::open_default().ok())?;
    ["author.name", "user.name"].iter().find_map(|key| {
        let name = config.get_string(key).ok()?;
        let name = name.trim();
        (!name.is_empty()).then(|| name.to_string())
    })
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their repositories directly
mod tests {
    use super::*;
    use crate::core::git::testkit::Fx;

    #[test]
    fn merge_drivers_come_from_every_attributes_file() {
        let fx = Fx::new();
        fx.write(
            ".rune/.gitattributes",
            "decisions.md merge=union\nstate.md -merge\n",
        );
        fx.write(".gitattributes", "*.txt merge\n");
        assert_eq!(
            merge_driver(&fx.root, Path::new(".rune/decisions.md")).as_deref(),
            Some("union")
        );
        assert_eq!(
            merge_driver(&fx.root, Path::new(".rune/state.md")).as_deref(),
            Some("binary")
        );
        assert_eq!(
            merge_driver(&fx.root, Path::new("a.txt")).as_deref(),
            Some("text")
        );
        assert_eq!(merge_driver(&fx.root, Path::new(".rune/other.md")), None);
        let repo = Repository::discover(&fx.root).ok();
        assert_eq!(user_name(repo.as_ref()).as_deref(), Some("Tess Ter"));
    }
}
