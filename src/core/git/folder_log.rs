//! The history of one folder of a repository, read for an index kept incrementally (the
//! bridge's origins of memory entries): the commits since the ones already read, oldest
//! first, and per commit the files directly in the folder whose content it changed against
//! every parent, with their blobs before and after. Nothing here walks more than it is
//! asked to: `since` with a bound stops counting past it.

use git2::{ObjectType, Oid, Repository, Sort};
use std::path::{Path, PathBuf};

/// One repository and the folder whose history is read.
pub struct FolderLog {
    repo: Repository,
    /// The folder, relative to the work tree's top.
    folder: PathBuf,
}

/// Who made a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitInfo {
    /// The full id (40 hex digits).
    pub id: String,
    /// `Name <email>` of its author.
    pub author: String,
    /// The committer's email (what a team's trusted list names).
    pub committer_email: String,
    /// Its parents' ids.
    pub parents: Vec<String>,
}

/// A file of the folder whose content a commit changed against every parent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// Its name in the folder.
    pub name: String,
    /// Its blob in the commit.
    pub new: String,
    /// Its blob in each parent that has it.
    pub old: Vec<String>,
}

impl FolderLog {
    /// The history of `folder` (an absolute path) in the repository that holds `dir`; `None`
    /// outside a repository, in a bare one, or when the folder is not inside its work tree.
    pub fn open(dir: &Path, folder: &Path) -> Option<FolderLog> {
        let repo = Repository::discover(dir).ok()?;
        let top = repo.workdir()?.canonicalize().ok()?;
        let parent = folder.parent()?.canonicalize().ok()?;
        let abs = parent.join(folder.file_name()?);
        let rel = abs.strip_prefix(&top).ok()?.to_path_buf();
        (!rel.as_os_str().is_empty()).then_some(FolderLog { repo, folder: rel })
    }

    /// HEAD's commit id; `None` before the first commit.
    pub fn head(&self) -> Option<String> {
        let c = self.repo.head().ok()?.peel_to_commit().ok()?;
        Some(c.id().to_string())
    }

    /// The commits reachable from HEAD and not from any of `known`, oldest first (parents
    /// before children). With `max`, `None` when there are more than `max` of them (and no
    /// more than `max + 1` are looked at). A `known` commit the repository does not have is
    /// left out (its history is read again).
    pub fn since(&self, known: &[String], max: Option<usize>) -> Option<Vec<String>> {
        let mut walk = self.repo.revwalk().ok()?;
        let sort = if max.is_some() {
            // Lazily, newest first: a bounded look stops early however long the history.
            Sort::TIME
        } else {
            Sort::TOPOLOGICAL | Sort::REVERSE
        };
        walk.set_sorting(sort).ok()?;
        walk.push_head().ok()?;
        for k in known {
            if let Ok(id) = Oid::from_str(k) {
                let _ = walk.hide(id);
            }
        }
        let mut out = Vec::new();
        for id in walk {
            out.push(id.ok()?.to_string());
            if max.is_some_and(|m| out.len() > m) {
                return None;
            }
        }
        if max.is_some() {
            out.reverse();
        }
        Some(out)
    }

    /// Who made commit `id`, and the files of the folder it changed against every parent.
    pub fn commit(&self, id: &str) -> Option<(CommitInfo, Vec<FileChange>)> {
        let c = self.repo.find_commit(Oid::from_str(id).ok()?).ok()?;
        let who = |s: git2::Signature<'_>| {
            (
                s.name().unwrap_or("").to_string(),
                s.email().unwrap_or("").to_string(),
            )
        };
        let (name, email) = who(c.author());
        let info = CommitInfo {
            id: c.id().to_string(),
            author: format!("{name} <{email}>"),
            committer_email: who(c.committer()).1,
            parents: c.parent_ids().map(|p| p.to_string()).collect(),
        };
        let files = self.files_of(&c);
        let parents: Vec<Vec<(String, Oid)>> = c.parents().map(|p| self.files_of(&p)).collect();
        if parents.contains(&files) {
            return Some((info, Vec::new()));
        }
        let changes = files
            .into_iter()
            .filter_map(|(name, new)| {
                let old: Vec<Oid> = parents
                    .iter()
                    .filter_map(|p| p.iter().find(|(n, _)| *n == name).map(|(_, o)| *o))
                    .collect();
                (!old.contains(&new)).then(|| FileChange {
                    name,
                    new: new.to_string(),
                    old: old.iter().map(Oid::to_string).collect(),
                })
            })
            .collect();
        Some((info, changes))
    }

    /// The files directly in the folder at commit `c`, with their blobs, by name.
    fn files_of(&self, c: &git2::Commit<'_>) -> Vec<(String, Oid)> {
        let Ok(tree) = c.tree() else {
            return Vec::new();
        };
        let Ok(entry) = tree.get_path(&self.folder) else {
            return Vec::new();
        };
        let Ok(folder) = self.repo.find_tree(entry.id()) else {
            return Vec::new();
        };
        let mut out: Vec<(String, Oid)> = folder
            .iter()
            .filter(|e| e.kind() == Some(ObjectType::Blob))
            .filter_map(|e| Some((e.name()?.to_string(), e.id())))
            .collect();
        out.sort();
        out
    }

    /// The size of blob `id` (read from its header, not inflated); `None` when unknown.
    pub fn blob_size(&self, id: &str) -> Option<usize> {
        let odb = self.repo.odb().ok()?;
        let (size, kind) = odb.read_header(Oid::from_str(id).ok()?).ok()?;
        (kind == ObjectType::Blob).then_some(size)
    }

    /// The text of blob `id` (invalid UTF-8 read as U+FFFD); `None` when it is larger than
    /// `max` bytes or cannot be read.
    pub fn blob_text(&self, id: &str, max: usize) -> Option<String> {
        if self.blob_size(id)? > max {
            return None;
        }
        let blob = self.repo.find_blob(Oid::from_str(id).ok()?).ok()?;
        Some(String::from_utf8_lossy(blob.content()).into_owned())
    }
}
