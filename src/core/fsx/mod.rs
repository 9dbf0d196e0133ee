//! File-system primitives that keep state whole and private:
//!
//! * `atomic_write`: temp file in the same directory, fsync, rename (a reader sees the old
//!   file or the new one, never half of either); `replace_file` the same without the
//!   fsyncs, for derived state rebuilt when lost, and `replace_file_staged` with its temp
//!   file in another folder of the same file system (for a file in a crowded folder);
//! * `append_line`: one whole line in one `write` under an advisory lock, so parallel hooks
//!   never interleave or lose records (no fsync: this runs on the hook hot path);
//! * `MkdirLock` (lock.rs): a lock that is a directory, with a timeout and recovery of stale
//!   locks (shared with other tools); `FolderLock` (folder_lock.rs): an advisory lock on a
//!   folder itself, which leaves nothing behind and dies with its holder (baton's own);
//!   `try_lock_file`: one run at a time, the others leave at once;
//! * bounded reads (read.rs): regular files only, never a link or a FIFO, a size cap per kind;
//! * paths inside the project (inside.rs): no symlink between the root and a state file;
//! * private dirs (0700) and files (0600), symlink refusal, and id validation for anything
//!   that becomes a path component.

mod folder_lock;
mod inside;
mod lock;
mod read;
mod scratch;

pub use folder_lock::FolderLock;
pub use inside::{check_inside, ensure_dir_in, join_inside};
pub use lock::{LockOptions, MkdirLock, Ownerless, OWNERLESS_GRACE};
pub use read::{
    open_limited, open_regular, read_bytes_limited, read_limited, read_lossy, read_tail, Limit,
};
pub use scratch::{in_scratch, Scratch};

use super::error::{Error, Result};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Mode of files that hold session content.
pub const PRIVATE_FILE: u32 = 0o600;
/// Mode of directories that hold session content.
pub const PRIVATE_DIR: u32 = 0o700;
/// Mode of files meant to be shared (committed memory, packets).
pub const SHARED_FILE: u32 = 0o644;

/// Creates `dir` and its parents if missing and makes `dir` itself 0700. Refuses a symlink.
pub fn ensure_private_dir(dir: &Path) -> Result<()> {
    ensure_dir(dir)?;
    fs::set_permissions(dir, fs::Permissions::from_mode(PRIVATE_DIR))
        .map_err(|e| Error::io("set permissions on", dir, e))
}

/// Creates `dir`, a folder below the user-level folder `base`, with every folder between
/// them 0700 (`base` itself is created as it is when missing). Refuses a symlink at `base`
/// and at each level below it (`ensure_dir_in`); `dir` outside `base` is an error.
pub fn ensure_private_tree(base: &Path, dir: &Path) -> Result<()> {
    if fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        return Ok(());
    }
    ensure_dir(base)?;
    ensure_dir_in(base, dir)?;
    let mut at = dir;
    while at != base {
        fs::set_permissions(at, fs::Permissions::from_mode(PRIVATE_DIR))
            .map_err(|e| Error::io("set permissions on", at, e))?;
        match at.parent() {
            Some(p) => at = p,
            None => break,
        }
    }
    Ok(())
}

/// Creates `dir` (inside `root`) like `ensure_dir_in`, and makes `dir` itself 0700.
pub fn ensure_private_dir_in(root: &Path, dir: &Path) -> Result<()> {
    ensure_dir_in(root, dir)?;
    fs::set_permissions(dir, fs::Permissions::from_mode(PRIVATE_DIR))
        .map_err(|e| Error::io("set permissions on", dir, e))
}

/// Creates `dir` and its parents if missing. Refuses a symlink at `dir` (only there: a state
/// folder under the project root goes through `ensure_dir_in`, which checks every level).
#[allow(clippy::disallowed_methods)] // folders outside any project: the user's own stores
pub fn ensure_dir(dir: &Path) -> Result<()> {
    refuse_symlink(dir)?;
    fs::create_dir_all(dir).map_err(|e| Error::io("create directory", dir, e))
}

/// How every file baton writes into a state folder of its own begins (the `.gitignore` of a
/// private folder, the merge rules of `.rune/` and `.handoff/`): the mark `baton clean` looks
/// for in a folder the config moved.
pub const BATONS_MARK: &str = "# Written by baton";

/// Keeps a state directory out of git without touching the user's own `.gitignore`: writes a
/// `.gitignore` holding `*` inside `dir` (once; an existing one is left as the user made it).
pub fn keep_out_of_git(dir: &Path) -> Result<()> {
    let ignore = dir.join(".gitignore");
    if fs::symlink_metadata(&ignore).is_ok() {
        return Ok(());
    }
    atomic_write(
        &ignore,
        format!("{BATONS_MARK}: this folder is private (baton's docs/configuration.md, \"Where files live\").\n*\n").as_bytes(),
        SHARED_FILE,
    )
}

/// The file in `dir` that baton wrote there (a `.gitignore` or `.gitattributes` that begins
/// with `BATONS_MARK`), relative to `dir`; `None` when there is none.
pub fn batons_mark(dir: &Path) -> Option<&'static str> {
    [".gitignore", ".gitattributes"].into_iter().find(|name| {
        read_limited(&dir.join(name), Limit::CONFIG)
            .ok()
            .flatten()
            .is_some_and(|t| t.starts_with(BATONS_MARK))
    })
}

/// Makes the small text file `path` (a `.gitattributes`, a `.gitignore`) hold each of
/// `lines`: created with `header` and them when missing; otherwise the lines it lacks are
/// added at its end and everything else is kept as its owner made it. Whether it changed.
/// A symlink there is refused.
pub fn ensure_lines(path: &Path, header: &str, lines: &[String]) -> Result<bool> {
    refuse_symlink(path)?;
    let old = read_limited(path, Limit::CONFIG)?;
    let have: Vec<&str> = old
        .as_deref()
        .map_or(Vec::new(), |t| t.lines().map(str::trim).collect());
    let missing: Vec<&String> = lines.iter().filter(|l| !have.contains(&l.trim())).collect();
    if missing.is_empty() && old.is_some() {
        return Ok(false);
    }
    let mut text = old.unwrap_or_else(|| header.to_string());
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    for l in missing {
        text.push_str(l);
        text.push('\n');
    }
    atomic_write(path, text.as_bytes(), SHARED_FILE)?;
    Ok(true)
}

/// Errors when `path` is a symlink (a missing path is fine).
pub fn refuse_symlink(path: &Path) -> Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(Error::Symlink(path.to_path_buf())),
        _ => Ok(()),
    }
}

/// Writes `bytes` to `path` atomically with the given mode. A symlink at `path` is unlinked
/// first, never followed (the handoff spec's T-7).
pub fn atomic_write(path: &Path, bytes: &[u8], mode: u32) -> Result<()> {
    replace(path, bytes, mode, true)
}

/// Replaces `path` with `bytes` as `atomic_write` does (a reader sees the old file or the
/// new one, never half of either, or for a moment none), but without fsync: for derived
/// state that is rebuilt when it is lost (a summary, a cache, capture's session digests
/// rewritten at every Stop). A power loss may lose the newest version — or, on some file
/// systems, leave an empty file, which such a reader must treat as absent. Never for what
/// the user or the model wrote. (An fsync costs a hook about a millisecond, and more on a
/// busy disk.)
///
/// The old file is unlinked before the rename: ext4 (`auto_da_alloc`, on by default) and
/// btrfs start writing a file's unsynced data out when it is renamed over an existing one
/// (0.16 ms a rename of 20 KB on the 2-core VM, 0.02 ms into a free name). A reader between
/// the two sees no file: the same as a lost one.
pub fn replace_file(path: &Path, bytes: &[u8], mode: u32) -> Result<()> {
    replace(path, bytes, mode, false)
}

/// `replace_file`, with the temp file made in `staging` (a folder on the same file system,
/// such as the parent of `path`'s folder) instead of beside `path`: for a small file in a
/// folder of thousands of entries (`.boo/runs/.current_session`), where a writer's look for
/// temp files a killed writer left would otherwise read every entry at every write.
pub fn replace_file_staged(path: &Path, staging: &Path, bytes: &[u8], mode: u32) -> Result<()> {
    match replace_via(path, staging, bytes, mode, false) {
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::CrossesDevices => {
            replace(path, bytes, mode, false)
        }
        other => other,
    }
}

fn replace(path: &Path, bytes: &[u8], mode: u32, durable: bool) -> Result<()> {
    replace_via(path, &parent_of(path)?, bytes, mode, durable)
}

/// Writes `bytes` to a temp file in `staging`, then renames it to `path`.
fn replace_via(path: &Path, staging: &Path, bytes: &[u8], mode: u32, durable: bool) -> Result<()> {
    let dir = parent_of(path)?;
    let name = path
        .file_name()
        .ok_or_else(|| Error::Internal(format!("no file name in {}", path.display())))?;
    let tmp = staging.join(format!(
        ".{}.tmp.{}.{}",
        name.to_string_lossy(),
        std::process::id(),
        unique_suffix()
    ));
    let result = write_new(&tmp, bytes, mode, durable).and_then(|()| {
        if !durable {
            // Not renamed over (see `replace_file`); a symlink goes the same way. Whatever
            // cannot be unlinked (a folder) makes the rename fail with the reason.
            let _ = fs::remove_file(path);
        } else if let Ok(m) = fs::symlink_metadata(path) {
            if m.file_type().is_symlink() {
                fs::remove_file(path).map_err(|e| Error::io("unlink symlink", path, e))?;
            }
        }
        fs::rename(&tmp, path).map_err(|e| Error::io("rename into place", path, e))
    });
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
        return result;
    }
    // Make the rename itself durable; a failure here loses nothing already written.
    #[allow(clippy::disallowed_methods)] // opens a folder we just wrote into, to sync it
    if let Some(d) = durable.then(|| File::open(&dir).ok()).flatten() {
        let _ = d.sync_all();
    }
    sweep_temp_files(staging, Some(&name.to_string_lossy()));
    Ok(())
}

/// What marks a temp file of `atomic_write`: `.<name>.tmp.<pid>.<n>`.
const TEMP_MARK: &str = ".tmp.";
/// A temp file older than this is a leftover whatever its pid says (no write takes so long).
const TEMP_MAX_AGE: std::time::Duration = std::time::Duration::from_secs(600);

/// Removes the temp files a killed writer left in `dir` (of the file `name` only, or of any
/// file): those whose writer no longer runs, or older than ten minutes. `atomic_write` calls
/// it for the file it wrote; a subsystem may call it for its state folder at session start.
/// Best effort: nothing here fails the caller.
#[allow(clippy::disallowed_methods)] // a temp file's age is measured against its file time
pub fn sweep_temp_files(dir: &Path, name: Option<&str>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let prefix = name.map(|n| format!(".{n}{TEMP_MARK}"));
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let file_name = file_name.to_string_lossy();
        let Some(rest) = (match &prefix {
            Some(p) => file_name.strip_prefix(p.as_str()),
            None if file_name.starts_with('.') => {
                file_name.rsplit_once(TEMP_MARK).map(|(_, rest)| rest)
            }
            None => None,
        }) else {
            continue;
        };
        let Some((pid, suffix)) = rest.split_once('.') else {
            continue;
        };
        let (Ok(pid), true) = (
            pid.parse::<u32>(),
            suffix.bytes().all(|b| b.is_ascii_digit()),
        ) else {
            continue;
        };
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .is_some_and(|age| age > TEMP_MAX_AGE);
        if meta.is_file() && (old || !process_runs(pid)) && pid != std::process::id() {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether a process with `pid` runs (where `/proc` says; elsewhere "yes").
pub(crate) fn process_runs(pid: u32) -> bool {
    !Path::new("/proc/self").exists() || Path::new("/proc").join(pid.to_string()).exists()
}

fn write_new(path: &Path, bytes: &[u8], mode: u32, durable: bool) -> Result<()> {
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| Error::io("create", path, e))?;
    f.write_all(bytes)
        .map_err(|e| Error::io("write", path, e))?;
    // The mode given to open is masked by the umask; set it exactly.
    f.set_permissions(fs::Permissions::from_mode(mode))
        .map_err(|e| Error::io("set permissions on", path, e))?;
    if durable {
        f.sync_all().map_err(|e| Error::io("sync", path, e))?;
    }
    Ok(())
}

/// A lock one run at a time holds, taken without waiting: an exclusive advisory lock on the
/// private file `path` (created 0600 if missing, never through a symlink; its folder made
/// 0700). `None` when another process holds it (or it cannot be opened). The kernel lets it
/// go when the returned file is dropped or its holder exits.
pub fn try_lock_file(path: &Path) -> Option<File> {
    ensure_private_dir(path.parent()?).ok()?;
    let f = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(PRIVATE_FILE)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .ok()?;
    f.try_lock().ok()?;
    Some(f)
}

/// Appends `line` and a newline to `path` as one `write` under an exclusive advisory lock.
/// Creates the file with `mode` if missing; never follows a symlink. `line` must not contain
/// a newline (a record is one line).
pub fn append_line(path: &Path, line: &str, mode: u32) -> Result<()> {
    append_lines(path, &[line], mode)
}

/// Appends `lines`, each with a newline, to `path` as one `write` under one exclusive
/// advisory lock (see `append_line`): a batch costs one open, one lock and one write.
pub fn append_lines<S: AsRef<str>>(path: &Path, lines: &[S], mode: u32) -> Result<()> {
    let mut buf = Vec::with_capacity(lines.iter().map(|l| l.as_ref().len() + 1).sum());
    for line in lines {
        let line = line.as_ref();
        if line.contains('\n') {
            return Err(Error::Internal(format!(
                "a line appended to {} contains a newline",
                path.display()
            )));
        }
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
    }
    let mut f = OpenOptions::new()
        .append(true)
        .create(true)
        .mode(mode)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| Error::io("open for append", path, e))?;
    f.lock().map_err(|e| Error::io("lock", path, e))?;
    let written = f.write_all(&buf);
    let _ = f.unlock();
    written.map_err(|e| Error::io("append to", path, e))
}

/// Checks that `value` is safe as one path component: 1–128 characters of letters, digits,
/// `.`, `_` and `-`, starting with a letter or digit (so never `.`, `..` or hidden).
pub fn validate_component(what: &'static str, value: &str) -> Result<()> {
    let bad = |reason| {
        Err(Error::InvalidId {
            what,
            value: value.to_string(),
            reason,
        })
    };
    if value.is_empty() || value.len() > 128 {
        return bad("must be 1 to 128 characters");
    }
    if !value
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
    {
        return bad("may hold only letters, digits, '.', '_' and '-'");
    }
    if !value.as_bytes()[0].is_ascii_alphanumeric() {
        return bad("must start with a letter or digit");
    }
    Ok(())
}

fn parent_of(path: &Path) -> Result<PathBuf> {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => Ok(p.to_path_buf()),
        Some(_) => Ok(PathBuf::from(".")),
        None => Err(Error::Internal(format!("no parent for {}", path.display()))),
    }
}

#[allow(clippy::disallowed_methods)] // uniqueness, not the session's time
pub(crate) fn unique_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    (u64::from(nanos) << 16) ^ COUNTER.fetch_add(1, Ordering::Relaxed)
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;

    fn mode_of(p: &Path) -> u32 {
        fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn atomic_write_creates_replaces_and_sets_mode() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("state.md");
        atomic_write(&p, b"one", PRIVATE_FILE).unwrap();
        atomic_write(&p, b"two", PRIVATE_FILE).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "two");
        assert_eq!(mode_of(&p), 0o600);
        let leftovers: Vec<_> = fs::read_dir(t.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temp file left behind");
    }

    #[test]
    fn the_unsynced_write_replaces_whole_and_private_too() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("digest.json");
        replace_file(&p, b"one", PRIVATE_FILE).unwrap();
        replace_file(&p, b"two", PRIVATE_FILE).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "two");
        assert_eq!(mode_of(&p), 0o600);
        assert_eq!(fs::read_dir(t.path()).unwrap().count(), 1);
    }

    #[test]
    fn issue_10_a_killed_writers_temp_file_is_removed_by_the_next_write() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("latest.md");
        // As a writer killed before its rename leaves it (pid 2147483632 never runs).
        let left = t.path().join(".latest.md.tmp.2147483632.12345");
        fs::write(&left, "half").unwrap();
        let other = t.path().join(".other.md.tmp.2147483632.1");
        fs::write(&other, "half").unwrap();
        atomic_write(&p, b"whole", PRIVATE_FILE).unwrap();
        assert!(!left.exists(), "the leftover of latest.md stayed");
        assert!(other.exists(), "only the written file's leftovers go");
        sweep_temp_files(t.path(), None);
        assert!(!other.exists());
        let names: Vec<_> = fs::read_dir(t.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("latest.md")]);
    }

    #[test]
    fn a_staged_write_makes_its_temp_file_in_the_staging_folder_and_sweeps_only_there() {
        let t = tempfile::tempdir().unwrap();
        let crowded = t.path().join("runs");
        fs::create_dir(&crowded).unwrap();
        let p = crowded.join(".current_session");
        let here = crowded.join("..current_session.tmp.2147483632.1");
        let staged = t.path().join("..current_session.tmp.2147483632.2");
        fs::write(&here, "half").unwrap();
        fs::write(&staged, "half").unwrap();
        let victim = t.path().join("victim");
        fs::write(&victim, "keep me").unwrap();
        std::os::unix::fs::symlink(&victim, &p).unwrap();
        replace_file_staged(&p, t.path(), b"id\n", PRIVATE_FILE).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "id\n");
        assert!(!fs::symlink_metadata(&p).unwrap().file_type().is_symlink());
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep me");
        assert_eq!(mode_of(&p), 0o600);
        assert!(
            !staged.exists(),
            "a leftover in the staging folder is swept"
        );
        assert!(here.exists(), "the crowded folder is not read");
        replace_file_staged(&p, t.path(), b"next\n", PRIVATE_FILE).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "next\n");
        let staging: Vec<_> = fs::read_dir(t.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n.to_string_lossy().contains(".tmp."))
            .collect();
        assert!(staging.is_empty(), "{staging:?}");
    }

    type Write = fn(&Path, &[u8], u32) -> Result<()>;
    /// The two ways a file is replaced, by name.
    const WRITERS: [(&str, Write); 2] = [
        ("atomic_write", atomic_write as Write),
        ("replace_file", replace_file as Write),
    ];

    #[test]
    fn both_writers_replace_a_symlink_instead_of_following_it() {
        for (name, write) in WRITERS {
            let t = tempfile::tempdir().unwrap();
            let victim = t.path().join("victim");
            fs::write(&victim, "keep me").unwrap();
            let p = t.path().join("artefact");
            std::os::unix::fs::symlink(&victim, &p).unwrap();
            write(&p, b"new", PRIVATE_FILE).unwrap();
            assert_eq!(fs::read_to_string(&victim).unwrap(), "keep me", "{name}");
            assert!(!fs::symlink_metadata(&p).unwrap().file_type().is_symlink());
            assert_eq!(fs::read_to_string(&p).unwrap(), "new", "{name}");
        }
    }

    #[test]
    fn both_writers_refuse_a_folder_in_the_files_place_and_leave_no_temp_file() {
        for (name, write) in WRITERS {
            let t = tempfile::tempdir().unwrap();
            let p = t.path().join("summary.json");
            fs::create_dir(&p).unwrap();
            fs::write(p.join("inside"), "kept").unwrap();
            let err = write(&p, b"new", PRIVATE_FILE).unwrap_err();
            let renamed = matches!(err, Error::Io { action, .. } if action == "rename into place");
            assert!(renamed, "{name}: {err}");
            assert_eq!(fs::read_to_string(p.join("inside")).unwrap(), "kept");
            assert_eq!(fs::read_dir(t.path()).unwrap().count(), 1, "{name}");
        }
    }

    #[test]
    fn append_adds_whole_lines_and_refuses_symlinks_and_newlines() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("log.jsonl");
        append_line(&p, "{\"a\":1}", PRIVATE_FILE).unwrap();
        append_line(&p, "{\"a\":2}", PRIVATE_FILE).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "{\"a\":1}\n{\"a\":2}\n");
        assert_eq!(mode_of(&p), 0o600);
        assert!(append_line(&p, "a\nb", PRIVATE_FILE).is_err());
        let link = t.path().join("link.jsonl");
        std::os::unix::fs::symlink(&p, &link).unwrap();
        assert!(append_line(&link, "x", PRIVATE_FILE).is_err());
        assert_eq!(fs::read_to_string(&p).unwrap().lines().count(), 2);
    }

    #[test]
    fn private_dir_is_0700_and_symlinked_dir_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("a/b");
        ensure_private_dir(&d).unwrap();
        assert_eq!(mode_of(&d), 0o700);
        let link = t.path().join("l");
        std::os::unix::fs::symlink(&d, &link).unwrap();
        assert!(matches!(ensure_private_dir(&link), Err(Error::Symlink(_))));
    }

    #[test]
    fn keep_out_of_git_writes_once() {
        let t = tempfile::tempdir().unwrap();
        keep_out_of_git(t.path()).unwrap();
        let text = fs::read_to_string(t.path().join(".gitignore")).unwrap();
        assert!(text.lines().any(|l| l == "*"));
        fs::write(t.path().join(".gitignore"), "mine\n").unwrap();
        keep_out_of_git(t.path()).unwrap();
        assert_eq!(
            fs::read_to_string(t.path().join(".gitignore")).unwrap(),
            "mine\n"
        );
    }

    #[test]
    fn component_validation() {
        for ok in ["adhoc_20261130_1015", "SESSION-20261130-101500", "a.b-c"] {
            validate_component("id", ok).unwrap();
        }
        for bad in [
            "",
            "..",
            ".",
            "../x",
            "a/b",
            ".hidden",
            "a b",
            "x\0",
            &"a".repeat(129),
        ] {
            assert!(validate_component("id", bad).is_err(), "{bad:?}");
        }
    }
}
