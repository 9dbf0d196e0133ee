//! How `.rune/` travels through git in a team (docs/bridge.md, "Teams"): the files that only
//! grow are merged with git's `union` driver (`.rune/.gitattributes`), so two clones that
//! both saved merge without a conflict; the checkpoint, which is replaced rather than
//! appended, is private to each person (`.rune/.gitignore`). `bridge save` writes both files
//! when they are missing (and commits them with what it saved); the ignore file is written
//! before the first private file (`ensure_private`: `bridge checkpoint` commits it, a hook
//! only writes it); `baton doctor` reports what is missing and `baton doctor --fix` writes it.

use super::store::{self, Rune};
use crate::core::error::Result;
use crate::core::fsx;
use crate::core::git;
use crate::core::project::Project;
use std::path::Path;

/// The attributes file of the folder.
pub(crate) const ATTRIBUTES: &str = ".gitattributes";
/// The ignore file of the folder.
pub(crate) const IGNORE: &str = ".gitignore";

/// The files that only grow (whole entries added, old ones at most pruned): merged by union.
pub(crate) const UNION: [&str; 8] = [
    store::DECISIONS,
    store::CONVENTIONS,
    store::PROGRESS,
    store::SESSION_LOG,
    store::INSTINCTS,
    store::NOTES,
    store::TASK_NOTES,
    store::LEARNINGS,
];

/// What is private to each person: the checkpoint and its archives.
const PRIVATE: [&str; 2] = [store::CHECKPOINT, "checkpoint-*.resolved.md"];

const ATTRIBUTES_HEAD: &str = "# Written by baton: these files only grow, so a merge keeps the lines both sides added\n# (git's union driver) instead of conflicting; baton orders entries by their time.\n# See baton's docs/bridge.md, \"Teams\".\n";

const IGNORE_HEAD: &str = "# Written by baton: the checkpoint is each person's own resume point, never shared.\n# See baton's docs/bridge.md, \"Teams\".\n";

fn attribute_lines() -> Vec<String> {
    UNION.iter().map(|f| format!("{f} merge=union")).collect()
}

fn ignore_lines() -> Vec<String> {
    PRIVATE.iter().map(|f| (*f).to_string()).collect()
}

/// Writes the folder's merge rules and ignore rules where they are missing (an existing
/// file keeps its own lines; the missing ones are added). The files written now. Call under
/// the folder lock.
pub(crate) fn ensure(rune: &Rune) -> Result<Vec<&'static str>> {
    let mut wrote = Vec::new();
    fsx::check_inside(&rune.root, &rune.path(ATTRIBUTES))?;
    if fsx::ensure_lines(&rune.path(ATTRIBUTES), ATTRIBUTES_HEAD, &attribute_lines())? {
        wrote.push(ATTRIBUTES);
    }
    if ensure_private(rune)? {
        wrote.push(IGNORE);
    }
    Ok(wrote)
}

/// Writes the folder's ignore rules where missing, so that the checkpoint is never shared
/// (nor swept into a `git add -A`): every writer of a private file of the folder calls this
/// first, under the folder lock. Whether it wrote the file.
pub(crate) fn ensure_private(rune: &Rune) -> Result<bool> {
    fsx::check_inside(&rune.root, &rune.path(IGNORE))?;
    fsx::ensure_lines(&rune.path(IGNORE), IGNORE_HEAD, &ignore_lines())
}

/// What is missing for the folder to merge cleanly in a team, one line each: a file that
/// git would not merge by union, a checkpoint that git would share. Empty outside a git
/// repository or without a folder.
pub(crate) fn problems(project: &Project) -> Vec<String> {
    let rune = Rune::of(project);
    if !rune.exists() || crate::core::root::git_top(&project.root).is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let not_union: Vec<&str> = UNION
        .iter()
        .copied()
        .filter(|f| git::merge_driver(&project.root, &rune.rel.join(f)).as_deref() != Some("union"))
        .collect();
    if !not_union.is_empty() {
        out.push(format!(
            "{} not merged by union ({}): a pull after two clones saved conflicts",
            rune.show(ATTRIBUTES),
            not_union.join(", ")
        ));
    }
    let cp = rune.rel.join(store::CHECKPOINT);
    if git::is_tracked(&project.root, &cp) {
        out.push(format!(
            "{} is committed, but it is each person's own: `git rm --cached {}` (it stays on disk)",
            rune.show(store::CHECKPOINT),
            rune.show(store::CHECKPOINT)
        ));
    } else if !git::is_ignored(&project.root, &cp) {
        out.push(format!(
            "{} does not keep the checkpoint private",
            rune.show(IGNORE)
        ));
    }
    out
}

/// `baton doctor --fix`: writes the missing rules (the folder is made when missing); the
/// paths written, relative to the project root. A tracked checkpoint is left for the user.
pub(crate) fn fix(project: &Project) -> Result<Vec<String>> {
    let rune = Rune::of(project);
    let _lock = rune.lock()?;
    Ok(ensure(&rune)?
        .into_iter()
        .map(|f| Path::new(&rune.rel).join(f).display().to_string())
        .collect())
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;

    #[test]
    fn rules_are_written_once_and_missing_lines_added() {
        let t = tempfile::tempdir().unwrap();
        let rune = Rune {
            root: t.path().to_path_buf(),
            dir: t.path().join(".rune"),
            rel: ".rune".into(),
        };
        std::fs::create_dir(&rune.dir).unwrap();
        assert_eq!(ensure(&rune).unwrap(), vec![ATTRIBUTES, IGNORE]);
        let text = std::fs::read_to_string(rune.path(ATTRIBUTES)).unwrap();
        assert!(text.contains("decisions.md merge=union\n"), "{text}");
        assert!(text.contains("learnings.jsonl merge=union\n"), "{text}");
        assert!(ensure(&rune).unwrap().is_empty());
        std::fs::write(rune.path(ATTRIBUTES), "# mine\ndecisions.md merge=union").unwrap();
        assert_eq!(ensure(&rune).unwrap(), vec![ATTRIBUTES]);
        let text = std::fs::read_to_string(rune.path(ATTRIBUTES)).unwrap();
        assert!(
            text.starts_with("# mine\ndecisions.md merge=union\nconventions.md"),
            "{text}"
        );
        assert_eq!(text.matches("decisions.md").count(), 1);
    }
}
