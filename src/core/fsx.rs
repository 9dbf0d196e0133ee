//! File-system primitives that keep state whole and private:
//!
//! * `atomic_write`: temp file in the same directory, fsync, rename (a reader sees the old
//!   file or the new one, never half of either);
//! * `append_line`: one whole line in one `write` under an advisory lock, so parallel hooks
//!   never interleave or lose records (no fsync: this runs on the hook hot path);
//! * `MkdirLock`: a lock that is a directory, with a timeout and recovery of stale locks;
//! * private dirs (0700) and files (0600), symlink refusal, and id validation for anything
//!   that becomes a path component.

use super::error::{Error, Result};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

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

/// Creates `dir` and its parents if missing. Refuses a symlink at `dir`.
pub fn ensure_dir(dir: &Path) -> Result<()> {
    refuse_symlink(dir)?;
    fs::create_dir_all(dir).map_err(|e| Error::io("create directory", dir, e))
}

/// Keeps a state directory out of git without touching the user's own `.gitignore`: writes a
/// `.gitignore` holding `*` inside `dir` (once; an existing one is left as the user made it).
pub fn keep_out_of_git(dir: &Path) -> Result<()> {
    let ignore = dir.join(".gitignore");
    if fs::symlink_metadata(&ignore).is_ok() {
        return Ok(());
    }
    atomic_write(
        &ignore,
        b"# Written by baton: this folder is private (see README, \"Where files live\").\n*\n",
        SHARED_FILE,
    )
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
    let dir = parent_of(path)?;
    let name = path
        .file_name()
        .ok_or_else(|| Error::Internal(format!("no file name in {}", path.display())))?;
    let tmp = dir.join(format!(
        ".{}.tmp.{}.{}",
        name.to_string_lossy(),
        std::process::id(),
        unique_suffix()
    ));
    let result = write_new(&tmp, bytes, mode).and_then(|()| {
        if let Ok(m) = fs::symlink_metadata(path) {
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
    if let Ok(d) = File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

fn write_new(path: &Path, bytes: &[u8], mode: u32) -> Result<()> {
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
    f.sync_all().map_err(|e| Error::io("sync", path, e))
}

/// Appends `line` and a newline to `path` as one `write` under an exclusive advisory lock.
/// Creates the file with `mode` if missing; never follows a symlink. `line` must not contain
/// a newline (a record is one line).
pub fn append_line(path: &Path, line: &str, mode: u32) -> Result<()> {
    if line.contains('\n') {
        return Err(Error::Internal(format!(
            "a line appended to {} contains a newline",
            path.display()
        )));
    }
    let mut buf = Vec::with_capacity(line.len() + 1);
    buf.extend_from_slice(line.as_bytes());
    buf.push(b'\n');
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

/// A lock held as a directory; removed when dropped (only while it is still ours).
#[derive(Debug)]
pub struct MkdirLock {
    path: PathBuf,
    /// Written into the owner file: tells this holder's lock from a successor's.
    token: String,
}

/// The file inside a lock directory that names its holder.
const OWNER_FILE: &str = "owner";
/// A holder names itself in the owner file microseconds after creating the lock directory;
/// a lock with no readable owner older than this was left by a writer killed in between.
/// (datarim's own writer makes ownerless locks too, held for well under a second.)
const OWNERLESS_GRACE: Duration = Duration::from_secs(5);

/// What a lock's owner file says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Owner {
    pid: Option<u32>,
    token: Option<String>,
}

fn read_owner(path: &Path) -> Owner {
    let text = fs::read_to_string(path.join(OWNER_FILE)).unwrap_or_default();
    let mut owner = Owner::default();
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("pid=") {
            owner.pid = v.trim().parse().ok();
        } else if let Some(v) = line.strip_prefix("token=") {
            owner.token = Some(v.trim().to_string());
        }
    }
    owner
}

impl MkdirLock {
    /// Takes the lock at `path`, waiting up to `timeout`. A lock whose holder process is gone,
    /// or that is older than `stale_after`, is taken over; a live, fresh lock never is.
    pub fn acquire(path: &Path, timeout: Duration, stale_after: Duration) -> Result<MkdirLock> {
        let start = Instant::now();
        loop {
            match fs::create_dir(path) {
                Ok(()) => {
                    let token = format!("{}-{}", std::process::id(), unique_suffix());
                    let owner = format!("pid={}\ntoken={token}\n", std::process::id());
                    let _ = fs::write(path.join(OWNER_FILE), owner);
                    return Ok(MkdirLock {
                        path: path.to_path_buf(),
                        token,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    refuse_symlink(path)?;
                    if let Some(seen) = stale_owner(path, stale_after) {
                        break_lock(path, &seen, stale_after);
                        continue;
                    }
                }
                Err(e) => return Err(Error::io("create lock", path, e)),
            }
            if start.elapsed() >= timeout {
                return Err(Error::LockTimeout {
                    path: path.to_path_buf(),
                    waited_ms: start.elapsed().as_millis(),
                });
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Where the lock lives.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for MkdirLock {
    fn drop(&mut self) {
        // A holder that overran `stale_after` may have been replaced: never remove a
        // successor's lock.
        if read_owner(&self.path).token.as_deref() == Some(self.token.as_str()) {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

/// The owner of the lock at `path` when the lock is stale: its recorded holder no longer
/// runs, or it is older than `stale_after` (which also covers a holder that died before
/// writing its owner file).
#[allow(clippy::disallowed_methods)] // a lock's age is measured against its file time
fn stale_owner(path: &Path, stale_after: Duration) -> Option<Owner> {
    let owner = read_owner(path);
    let age = fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .unwrap_or_default();
    let ownerless = owner.pid.is_none() && owner.token.is_none();
    let stale = age > stale_after
        || (ownerless && age > OWNERLESS_GRACE.min(stale_after))
        || owner.pid.is_some_and(|pid| !process_alive(pid));
    stale.then_some(owner)
}

/// Whether a process with `pid` exists. Where `/proc` is not available the answer is "yes",
/// so only the age rule can break the lock.
fn process_alive(pid: u32) -> bool {
    let proc_root = Path::new("/proc");
    if !proc_root.join("self").exists() {
        return true;
    }
    proc_root.join(pid.to_string()).exists()
}

/// Removes a stale lock without racing other breakers or a new holder: under an advisory
/// lock on the lock directory itself (so nothing is left beside it), the lock is removed only
/// if it is still stale and still held by the owner that was judged stale (a lock taken
/// afresh in between has another token).
fn break_lock(path: &Path, seen: &Owner, stale_after: Duration) {
    let Ok(guard) = File::open(path) else { return };
    if guard.lock().is_err() {
        return;
    }
    if stale_owner(path, stale_after).as_ref() == Some(seen) {
        let _ = fs::remove_dir_all(path);
    }
    let _ = guard.unlock();
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
fn unique_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    (u64::from(nanos) << 16) ^ COUNTER.fetch_add(1, Ordering::Relaxed)
}

#[cfg(test)]
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
    fn atomic_write_replaces_a_symlink_instead_of_following_it() {
        let t = tempfile::tempdir().unwrap();
        let victim = t.path().join("victim");
        fs::write(&victim, "keep me").unwrap();
        let p = t.path().join("artefact");
        std::os::unix::fs::symlink(&victim, &p).unwrap();
        atomic_write(&p, b"new", PRIVATE_FILE).unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep me");
        assert!(!fs::symlink_metadata(&p).unwrap().file_type().is_symlink());
        assert_eq!(fs::read_to_string(&p).unwrap(), "new");
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
    fn live_fresh_lock_is_not_taken_and_times_out() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join(".lock.X");
        let held = MkdirLock::acquire(&p, Duration::from_secs(1), Duration::from_secs(60)).unwrap();
        let err = MkdirLock::acquire(&p, Duration::from_millis(100), Duration::from_secs(60))
            .unwrap_err();
        assert!(matches!(err, Error::LockTimeout { .. }));
        drop(held);
        assert!(!p.exists());
        MkdirLock::acquire(&p, Duration::from_millis(100), Duration::from_secs(60)).unwrap();
    }

    #[test]
    fn lock_of_a_dead_process_is_recovered() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join(".lock.Y");
        fs::create_dir(&p).unwrap();
        // pid 0x7fff_fff0 does not exist on any ordinary system.
        fs::write(p.join(OWNER_FILE), "pid=2147483632\ntoken=dead\n").unwrap();
        let l = MkdirLock::acquire(&p, Duration::from_millis(200), Duration::from_secs(60));
        assert!(l.is_ok());
    }

    #[test]
    fn old_lock_without_owner_is_recovered_but_fresh_one_is_not() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join(".lock.Z");
        fs::create_dir(&p).unwrap();
        assert!(
            MkdirLock::acquire(&p, Duration::from_millis(80), Duration::from_secs(60)).is_err()
        );
        std::thread::sleep(Duration::from_millis(30));
        assert!(
            MkdirLock::acquire(&p, Duration::from_millis(80), Duration::from_millis(10)).is_ok()
        );
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
    fn breaking_a_stale_lock_never_gives_two_holders() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;
        let t = tempfile::tempdir().unwrap();
        for round in 0..40 {
            let p = t.path().join(format!(".lock.R{round}"));
            fs::create_dir(&p).unwrap();
            fs::write(p.join(OWNER_FILE), "pid=2147483632\ntoken=dead\n").unwrap();
            let holders = Arc::new(AtomicUsize::new(0));
            let max = Arc::new(AtomicUsize::new(0));
            let threads: Vec<_> = (0..8)
                .map(|_| {
                    let (p, holders, max) = (p.clone(), holders.clone(), max.clone());
                    std::thread::spawn(move || {
                        let l = MkdirLock::acquire(
                            &p,
                            Duration::from_secs(10),
                            Duration::from_secs(60),
                        )
                        .unwrap();
                        let now = holders.fetch_add(1, Ordering::SeqCst) + 1;
                        max.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(2));
                        holders.fetch_sub(1, Ordering::SeqCst);
                        drop(l);
                    })
                })
                .collect();
            for th in threads {
                th.join().unwrap();
            }
            assert_eq!(
                max.load(Ordering::SeqCst),
                1,
                "round {round}: two holders at once"
            );
        }
    }

    #[test]
    fn an_ownerless_lock_is_broken_after_the_grace_only() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join(".lock.O");
        fs::create_dir(&p).unwrap();
        // Fresh and ownerless: a writer starting up; not taken within 100 ms.
        assert!(
            MkdirLock::acquire(&p, Duration::from_millis(100), Duration::from_secs(60)).is_err()
        );
        // Backdate it past the grace.
        #[allow(clippy::disallowed_methods)] // a file time, set back from the real clock
        let old = SystemTime::now() - Duration::from_secs(10);
        File::open(&p).unwrap().set_modified(old).unwrap();
        assert!(
            MkdirLock::acquire(&p, Duration::from_millis(100), Duration::from_secs(60)).is_ok()
        );
        let leftovers: Vec<_> = fs::read_dir(t.path()).unwrap().collect();
        assert!(leftovers.is_empty(), "nothing left beside the lock");
    }

    #[test]
    fn a_replaced_holder_does_not_remove_its_successors_lock() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join(".lock.S");
        let first =
            MkdirLock::acquire(&p, Duration::from_secs(1), Duration::from_secs(60)).unwrap();
        // As if the first holder overran stale_after and another process took over.
        fs::write(
            p.join(OWNER_FILE),
            format!("pid={}\ntoken=successor\n", std::process::id()),
        )
        .unwrap();
        drop(first);
        assert!(p.exists(), "the successor's lock was removed");
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
