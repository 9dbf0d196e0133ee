//! The inventory of baton's state folders in the project: every file and folder baton writes
//! in the audit trail's folder (`paths.audit`, default `.boo/`) and the handoff artefacts'
//! folder (`paths.handoff`, default `datarim/sessions/`), by place and name, and in the shared
//! ones, the project memory and the relay's folder (`.rune/`, `.handoff/`: shared.rs).
//! `baton clean --yes` (with `--committed` for the shared ones) removes from such a folder
//! only what is listed here, then the folders that leaves empty; anything else — a file of
//! yours, a folder of yours, a link, a FIFO, a file baton only reads — stays (and the folder
//! with it), and the listing says what stayed and why.
//!
//! The writers it follows: audit/store.rs (the audit's layout, its module comment),
//! audit/cursor.rs (`<file>.moved`), audit/report.rs (`reports/`), handoff/session.rs and
//! handoff/writer.rs (artefacts and their locks), and core/fsx: the `.gitignore` that keeps a
//! private folder out of git (baton's mark, `fsx::BATONS_MARK`), the temp files of a write
//! (`.<name>.tmp.<pid>.<n>`) and the lock folders (`.baton.lock/`, `.lock.<ID>/`, each with
//! an `owner` file); and doctor.rs's probe of a folder (`.baton-doctor-<pid>`, removed at
//! once, left only by a killed `baton doctor`). A writer that puts a new file in one of these folders adds it here: until
//! it does, `clean` leaves that file where it is, and the folder with it (the safe way round;
//! `tests/integration/clean_inventory.rs` runs the writers and fails then).
//!
//! baton's mark, the `.gitignore` of a private folder, is removed last and only when nothing
//! else is left in its folder: while a file of yours stays, it stays private as it was. The
//! merge and ignore rules of `.rune/` and `.handoff/` name only baton's files, so they go with
//! them.

mod shared;

use crate::core::error::{Error, Result};
use crate::core::fsx;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Which private state folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Folder {
    /// `paths.audit`.
    Audit,
    /// `paths.handoff`.
    Handoff,
    /// `paths.bridge` (shared).
    Bridge,
    /// `paths.relay` (shared).
    Relay,
}

/// What baton makes at one place in a state folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Made {
    /// A regular file of baton's.
    File,
    /// A folder of baton's (looked into: what is inside is judged name by name).
    Folder,
    /// A `.gitignore` or `.gitattributes`: baton's when it carries baton's mark; removed only
    /// with its folder.
    Mark,
    /// The same, but naming only baton's files: removed with them.
    Rules,
    /// A file baton reads there and never writes: not baton's.
    Read,
    /// Nothing baton makes.
    Nothing,
}

/// The files of an audit session's folder (`runs/<id>/`): audit/store.rs's file names, and
/// the cursors of the two files moved in slices (audit/cursor.rs).
const RUN_FILES: [&str; 8] = [
    "audit_buffer.jsonl",
    "audit_pending.jsonl",
    "audit_trail.jsonl",
    "session.json",
    "session_summary.md",
    "summary.json",
    "audit_buffer.jsonl.moved",
    "audit_pending.jsonl.moved",
];

/// The files at the top of the audit's folder.
const AUDIT_FILES: [&str; 3] = ["index.json", "index.journal.jsonl", "persisted.jsonl"];

/// The pointers in `runs/` (written with their temp file in the audit's folder itself).
const POINTERS: [&str; 2] = [".current_session", ".last_ended"];

/// The lock folder `fsx::FolderLock` makes where a file system cannot lock a folder.
const FOLDER_LOCK: &str = ".baton.lock";

/// The file inside a lock folder that names its holder (`fsx::MkdirLock`).
const LOCK_OWNER: &str = "owner";

/// The `.gitattributes` a shared audit folder gets (audit/store.rs): written without the mark.
const SHARED_AUDIT_ATTRIBUTES: &str = "*.jsonl merge=union\nsummary.json merge=union\n";

/// What baton makes at `rel` (the names below the state folder).
fn made(folder: Folder, rel: &[&str]) -> Made {
    if let Some((name, dirs)) = rel.split_last() {
        if let Some(target) = temp_target(name) {
            let mut at: Vec<&str> = dirs.to_vec();
            at.push(target);
            let staged = folder == Folder::Audit && dirs.is_empty() && POINTERS.contains(&target);
            if staged || matches!(made(folder, &at), Made::File | Made::Mark | Made::Rules) {
                return Made::File;
            }
            return Made::Nothing;
        }
    }
    match folder {
        _ if matches!(rel, [name] if is_doctor_probe(name)) => Made::File,
        Folder::Audit => made_in_audit(rel),
        Folder::Handoff => made_in_handoff(rel),
        Folder::Bridge => shared::made_in_bridge(rel),
        Folder::Relay => shared::made_in_relay(rel),
    }
}

/// `.baton-doctor-<pid>`: the file `baton doctor` writes to see that a folder is writable.
fn is_doctor_probe(name: &str) -> bool {
    name.strip_prefix(".baton-doctor-")
        .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
}

fn made_in_audit(rel: &[&str]) -> Made {
    match rel {
        [] | ["runs" | "reports"] => Made::Folder,
        [".gitignore" | ".gitattributes"] => Made::Mark,
        [name] if AUDIT_FILES.contains(name) => Made::File,
        ["reports", name] if is_daily_report(name) => Made::File,
        ["runs", name] if POINTERS.contains(name) => Made::File,
        ["runs", id] if is_run_id(id) => Made::Folder,
        ["runs", id, name] if is_run_id(id) && RUN_FILES.contains(name) => Made::File,
        _ if is_audit_lock(rel) => Made::Folder,
        [lock @ .., LOCK_OWNER] if is_audit_lock(lock) => Made::File,
        _ => Made::Nothing,
    }
}

/// A lock folder in the audit's folder: `.baton.lock/` in any folder of baton's there, and
/// the `mkdir` locks of builds before 5e89ec7 (`.index.lock/`, `runs/.start.lock/`,
/// `runs/.end.<id>.lock/`), which a holder killed while it held one left behind.
fn is_audit_lock(rel: &[&str]) -> bool {
    match rel {
        [dirs @ .., FOLDER_LOCK] => made_in_audit(dirs) == Made::Folder && !is_audit_lock(dirs),
        [".index.lock"] | ["runs", ".start.lock"] => true,
        ["runs", name] => name
            .strip_prefix(".end.")
            .and_then(|r| r.strip_suffix(".lock"))
            .is_some_and(is_run_id),
        _ => false,
    }
}

fn made_in_handoff(rel: &[&str]) -> Made {
    match rel {
        [] => Made::Folder,
        [".gitignore"] => Made::Mark,
        [name] if is_artefact(name) => Made::File,
        [name] if is_artefact_lock(name) => Made::Folder,
        [lock, LOCK_OWNER] if is_artefact_lock(lock) => Made::File,
        _ => Made::Nothing,
    }
}

/// The file a temp file of `fsx::atomic_write` is for: `.<name>.tmp.<pid>.<n>` → `<name>`.
fn temp_target(name: &str) -> Option<&str> {
    let (target, rest) = name.strip_prefix('.')?.rsplit_once(".tmp.")?;
    let (pid, n) = rest.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(n) && !target.is_empty()).then_some(target)
}

/// `adhoc_YYYYMMDD_HHMM`, with `_2`, `_3` … (audit/store.rs, `claim_new_id`).
fn is_run_id(id: &str) -> bool {
    let Some(rest) = id.strip_prefix("adhoc_") else {
        return false;
    };
    let (stamp, n) = match rest.get(13..) {
        Some("") => (rest, None),
        Some(tail) => (&rest[..13], tail.strip_prefix('_')),
        None => return false,
    };
    let b = stamp.as_bytes();
    b.len() == 13
        && b[8] == b'_'
        && b[..8].iter().chain(&b[9..]).all(u8::is_ascii_digit)
        && n.is_none_or(|n| !n.is_empty() && n.len() <= 3 && n.bytes().all(|c| c.is_ascii_digit()))
}

/// `daily_YYYYMMDD.md` or `.html` (audit/report.rs).
fn is_daily_report(name: &str) -> bool {
    let Some(stem) = name
        .strip_suffix(".md")
        .or_else(|| name.strip_suffix(".html"))
    else {
        return false;
    };
    stem.strip_prefix("daily_")
        .is_some_and(|d| d.len() == 8 && d.bytes().all(|c| c.is_ascii_digit()))
}

/// `SESSION-YYYYMMDD-HHMMSS.session.md` (handoff/session.rs).
fn is_artefact(name: &str) -> bool {
    name.strip_suffix(".session.md")
        .is_some_and(crate::handoff::is_session_id)
}

/// `.lock.SESSION-YYYYMMDD-HHMMSS` (handoff/session.rs; datarim's writer makes the same).
fn is_artefact_lock(name: &str) -> bool {
    name.strip_prefix(".lock.")
        .is_some_and(crate::handoff::is_session_id)
}

/// Whether the `.gitignore` or `.gitattributes` at `path` is baton's.
fn is_marked(folder: Folder, path: &Path) -> bool {
    let Ok(Some(text)) = fsx::read_limited(path, fsx::Limit::CONFIG) else {
        return false;
    };
    text.starts_with(fsx::BATONS_MARK)
        || (folder == Folder::Audit
            && path.ends_with(".gitattributes")
            && text == SHARED_AUDIT_ATTRIBUTES)
}

/// Something in a state folder that is not baton's, and stays.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Stay {
    /// As shown: relative to the project, a folder with a slash.
    pub(crate) path: String,
    pub(crate) why: &'static str,
}

/// What a state folder holds, sorted by the inventory.
#[derive(Debug, Clone, Default)]
pub(crate) struct Survey {
    /// baton's files, in the order met.
    files: Vec<PathBuf>,
    /// baton's folders, each after the folders inside it (the state folder itself last).
    folders: Vec<PathBuf>,
    /// baton's mark files (each removed last, only when nothing else is left in its folder).
    marks: Vec<PathBuf>,
    /// Bytes of baton's files.
    pub(crate) bytes: u64,
    /// What is not baton's, sorted by path.
    pub(crate) stays: Vec<Stay>,
    /// The same, as paths.
    kept: Vec<PathBuf>,
}

impl Survey {
    /// Whether a removal would remove nothing: no file of baton's, and each folder of baton's
    /// holds something that stays (the state folder itself goes only with the rest).
    pub(crate) fn removes_nothing(&self) -> bool {
        !self.stays.is_empty()
            && self.files.is_empty()
            && self
                .folders
                .iter()
                .all(|d| self.kept.iter().any(|k| k.starts_with(d)))
    }
}

const WHY_FILE: &str = "a file baton does not write here";
const WHY_FOLDER: &str = "a folder baton does not make here";
const WHY_LINK: &str = "a link: baton makes none, and never follows one";
const WHY_SPECIAL: &str = "not a regular file (a FIFO, socket or device): baton makes none";
const WHY_MARK: &str = "baton did not write it (it lacks baton's mark)";
const WHY_READ: &str = "baton reads it and never writes it (yours, or another tool's)";
const WHY_NAME: &str = "a name baton never writes (not UTF-8)";
const WHY_UNREAD: &str = "a folder that could not be read";

/// Sorts what the state folder `dir` (of kind `folder`) holds; `root` is the project root,
/// which the paths shown are relative to. Links are never followed.
pub(crate) fn survey(root: &Path, dir: &Path, folder: Folder) -> Survey {
    let mut out = Survey::default();
    visit(root, dir, folder, &mut Vec::new(), &mut out);
    out.folders.push(dir.to_path_buf());
    out.stays.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

fn visit(root: &Path, dir: &Path, folder: Folder, rel: &mut Vec<String>, out: &mut Survey) {
    let shown = |path: &Path, is_dir: bool| {
        let mut s = path
            .strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string();
        if is_dir {
            s.push('/');
        }
        s
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        out.stays.push(Stay {
            path: shown(dir, true),
            why: WHY_UNREAD,
        });
        out.kept.push(dir.to_path_buf());
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue; // gone meanwhile
        };
        let kind = meta.file_type();
        let mut stay = |why| {
            out.stays.push(Stay {
                path: shown(&path, kind.is_dir()),
                why,
            });
            out.kept.push(path.clone());
        };
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            stay(WHY_NAME);
            continue;
        };
        if kind.is_symlink() {
            stay(WHY_LINK);
            continue;
        }
        rel.push(name);
        let names: Vec<&str> = rel.iter().map(String::as_str).collect();
        let place = made(folder, &names);
        if kind.is_dir() {
            if place == Made::Folder {
                visit(root, &path, folder, rel, out);
                out.folders.push(path);
            } else {
                stay(WHY_FOLDER);
            }
        } else if !kind.is_file() {
            stay(WHY_SPECIAL);
        } else {
            match place {
                Made::File => {
                    out.bytes += meta.len();
                    out.files.push(path);
                }
                Made::Mark if is_marked(folder, &path) => {
                    out.bytes += meta.len();
                    out.marks.push(path);
                }
                Made::Rules if is_marked(folder, &path) => {
                    out.bytes += meta.len();
                    out.files.push(path);
                }
                Made::Mark | Made::Rules => stay(WHY_MARK),
                Made::Read => stay(WHY_READ),
                Made::Folder | Made::Nothing => stay(WHY_FILE),
            }
        }
        rel.pop();
    }
}

/// Removes what `survey` found baton's, then each of baton's folders that is left empty (but
/// for baton's mark), the state folder itself last. Each file is checked again just before:
/// still a regular file, no link between `root` and it. Whether the state folder went.
pub(crate) fn remove(root: &Path, survey: &Survey) -> Result<bool> {
    for file in &survey.files {
        fsx::check_inside(root, file)?;
        match std::fs::symlink_metadata(file) {
            Ok(m) if m.is_file() => {}
            _ => continue, // gone, or replaced by something that is not baton's
        }
        match std::fs::remove_file(file) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io("remove", file, e)),
        }
    }
    let Some((top, inner)) = survey.folders.split_last() else {
        return Ok(false);
    };
    for dir in inner {
        // A folder that holds something that stays, stays with it (and its mark).
        let _ = remove_folder(root, dir, &survey.marks);
    }
    remove_folder(root, top, &survey.marks)
}

/// Removes `dir` when nothing but baton's `marks` is left in it, the marks first. Whether it
/// went.
fn remove_folder(root: &Path, dir: &Path, marks: &[PathBuf]) -> Result<bool> {
    let left: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::io("read", dir, e))?
        .flatten()
        .map(|e| e.path())
        .collect();
    if !left.iter().all(|p| marks.contains(p)) {
        return Ok(false);
    }
    for mark in &left {
        fsx::check_inside(root, mark)?;
        std::fs::remove_file(mark).map_err(|e| Error::io("remove", mark, e))?;
    }
    match std::fs::remove_dir(dir) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(true),
        Err(e) => Err(Error::io("remove", dir, e)),
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their folders directly
mod tests {
    use super::*;

    #[test]
    fn clean_inventory_names_what_the_audit_writes_and_nothing_else() {
        let a = |rel: &str| made(Folder::Audit, &rel.split('/').collect::<Vec<_>>());
        for file in [
            "index.json",
            "index.journal.jsonl",
            "persisted.jsonl",
            "reports/daily_20261130.md",
            "reports/daily_20261130.html",
            "runs/.current_session",
            "runs/.last_ended",
            "runs/adhoc_20261130_1015/session.json",
            "runs/adhoc_20261130_1015_2/audit_buffer.jsonl",
            "runs/adhoc_20261130_1015/audit_pending.jsonl.moved",
            "runs/adhoc_20261130_1015/.session.json.tmp.123.4",
            "..current_session.tmp.99.1",
            "runs/..current_session.tmp.1.2",
            ".index.json.tmp.1.2",
            "runs/.baton.lock/owner",
            "runs/adhoc_20261130_1015/.baton.lock/owner",
            ".index.lock/owner",
            "runs/.start.lock/owner",
            "runs/.end.adhoc_20261130_1015.lock/owner",
            "..gitignore.tmp.5.6",
        ] {
            assert_eq!(a(file), Made::File, "{file}");
        }
        for dir in [
            "runs",
            "reports",
            "runs/adhoc_20261130_1015",
            ".baton.lock",
            ".index.lock",
            "runs/.end.adhoc_20261130_1015_2.lock",
        ] {
            assert_eq!(a(dir), Made::Folder, "{dir}");
        }
        assert_eq!(a(".gitignore"), Made::Mark);
        for other in [
            "notes.txt",
            "runs/notes.txt",
            "runs/adhoc_1",
            "runs/adhoc_20261130_1015_",
            "runs/adhoc_20261130_1015_2345",
            "runs/adhoc_20261130_1015/notes.txt",
            "runs/adhoc_20261130_1015/drafts",
            "reports/daily_2026.md",
            "reports/mine.md",
            "index.json/x",
            ".notes.txt.tmp.1.2",
            ".index.json.tmp.1.x",
            "drafts/.baton.lock",
            "runs/.baton.lock/other",
            "runs/.end.mine.lock",
            ".baton.lock/.baton.lock",
            "reports/.index.lock",
            "owner",
            "runs/adhoc_20261130_1015/.gitignore",
            "session.json",
        ] {
            assert_eq!(a(other), Made::Nothing, "{other}");
        }
    }

    #[test]
    fn clean_inventory_names_what_the_handoff_writes_and_nothing_else() {
        let h = |rel: &str| made(Folder::Handoff, &rel.split('/').collect::<Vec<_>>());
        for file in [
            "SESSION-20261130-101500.session.md",
            ".SESSION-20261130-101500.session.md.tmp.12.3",
            ".lock.SESSION-20261130-101500/owner",
        ] {
            assert_eq!(h(file), Made::File, "{file}");
        }
        assert_eq!(h(".lock.SESSION-20261130-101500"), Made::Folder);
        assert_eq!(h(".gitignore"), Made::Mark);
        for other in [
            "notes.md",
            "SESSION-2026-101500.session.md",
            "SESSION-20261130-101500.md",
            "SESSION-20261130-101500.session.md.bak",
            ".lock.mine",
            ".lock.SESSION-20261130-101500/notes",
            "drafts",
            "drafts/SESSION-20261130-101500.session.md",
            "index.json",
        ] {
            assert_eq!(h(other), Made::Nothing, "{other}");
        }
    }

    #[test]
    fn clean_inventory_removes_batons_files_and_keeps_the_rest_with_its_folders() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        let dir = root.join("state");
        let run = dir.join("runs/adhoc_20261130_1015");
        std::fs::create_dir_all(&run).unwrap();
        std::fs::create_dir_all(dir.join("drafts/deep")).unwrap();
        std::fs::write(dir.join(".gitignore"), format!("{}\n*\n", fsx::BATONS_MARK)).unwrap();
        std::fs::write(dir.join("index.json"), "{}").unwrap();
        std::fs::write(run.join("session.json"), "{}").unwrap();
        std::fs::write(run.join("notes.txt"), "mine").unwrap();
        std::fs::write(dir.join("drafts/deep/a.md"), "mine").unwrap();
        std::os::unix::fs::symlink("/etc", dir.join("link")).unwrap();
        let s = survey(root, &dir, Folder::Audit);
        assert!(!s.removes_nothing());
        let stays: Vec<&str> = s.stays.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(
            stays,
            [
                "state/drafts/",
                "state/link",
                "state/runs/adhoc_20261130_1015/notes.txt"
            ]
        );
        assert!(!remove(root, &s).unwrap());
        assert!(!dir.join("index.json").exists() && !run.join("session.json").exists());
        assert!(run.join("notes.txt").is_file() && dir.join("drafts/deep/a.md").is_file());
        assert!(
            dir.join(".gitignore").is_file(),
            "the mark stays with what stays"
        );
        assert!(survey(root, &dir, Folder::Audit).removes_nothing());
        // Once the user's files are gone, the next clean takes the rest.
        std::fs::remove_file(run.join("notes.txt")).unwrap();
        std::fs::remove_dir_all(dir.join("drafts")).unwrap();
        std::fs::remove_file(dir.join("link")).unwrap();
        let s = survey(root, &dir, Folder::Audit);
        assert!(s.stays.is_empty(), "{:?}", s.stays);
        assert!(remove(root, &s).unwrap());
        assert!(!dir.exists());
    }
}
