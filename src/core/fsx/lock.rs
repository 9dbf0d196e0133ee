//! A lock that is a directory: `mkdir` is atomic on every file system, and datarim's writer
//! locks its sessions folder the same way, so both tools exclude each other.
//!
//! The holder names itself in an owner file inside the directory (`pid`, the process's start
//! time and the boot id, and a random token). A lock is stale — taken over — when its holder
//! is gone: no such process, a process with that pid that started at another time (a reused
//! pid), another boot, or a lock older than the caller's `stale_after`. A lock directory
//! without an owner file is either one of baton's own whose holder died between `mkdir` and
//! writing its name (broken after a short grace), or another tool's bare lock (datarim's),
//! which is waited for and never broken. A holder that cannot write its owner file (a full
//! disk) removes the directory again instead of leaving a nameless lock.

use super::{read_limited, Limit};
use crate::core::error::{Error, Result};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// The file inside a lock directory that names its holder.
const OWNER_FILE: &str = "owner";
/// How long an ownerless lock of baton's own may stand: a holder writes its owner file
/// microseconds after `mkdir`, so one still nameless after this was killed in between.
pub const OWNERLESS_GRACE: Duration = Duration::from_millis(500);
/// How often a waiting caller looks again.
const POLL: Duration = Duration::from_millis(10);

/// What to do with a lock directory that has no owner file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ownerless {
    /// baton's own lock: broken once it is older than this.
    BreakAfter(Duration),
    /// Another tool's lock (datarim's writer holds a bare `mkdir` lock): waited for up to the
    /// timeout, never broken.
    Wait,
}

/// How to take a lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LockOptions {
    /// How long to wait for a live holder.
    pub timeout: Duration,
    /// A lock older than this is taken over even when its holder still runs.
    pub stale_after: Duration,
    /// What an ownerless lock means.
    pub ownerless: Ownerless,
}

/// A held lock; the directory is removed when dropped (only while it is still ours).
#[derive(Debug)]
pub struct MkdirLock {
    path: PathBuf,
    /// Written into the owner file: tells this holder's lock from a successor's.
    token: String,
}

/// What a lock's owner file says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Owner {
    pid: Option<u32>,
    start: Option<u64>,
    boot: Option<String>,
    token: Option<String>,
}

impl Owner {
    fn parse(text: &str) -> Owner {
        let mut owner = Owner::default();
        for line in text.lines() {
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            let value = value.trim();
            match key {
                "pid" => owner.pid = value.parse().ok(),
                "start" => owner.start = value.parse().ok(),
                "boot" => owner.boot = Some(value.to_string()),
                "token" => owner.token = Some(value.to_string()),
                _ => {}
            }
        }
        owner
    }

    fn is_named(&self) -> bool {
        self.pid.is_some() || self.token.is_some()
    }
}

fn read_owner(lock: &Path) -> Owner {
    match read_limited(&lock.join(OWNER_FILE), Limit::POINTER) {
        Ok(Some(text)) => Owner::parse(&text),
        _ => Owner::default(),
    }
}

impl MkdirLock {
    /// Takes baton's own lock at `path`, waiting up to `timeout`; a stale lock (see the
    /// module doc) is taken over, a live, fresh one never is.
    pub fn acquire(path: &Path, timeout: Duration, stale_after: Duration) -> Result<MkdirLock> {
        MkdirLock::acquire_with(
            path,
            &LockOptions {
                timeout,
                stale_after,
                ownerless: Ownerless::BreakAfter(OWNERLESS_GRACE),
            },
        )
    }

    /// Takes the lock at `path` as `opts` say. In a hook run the wait is cut to what is left
    /// of the run's deadline (`core::deadline`).
    pub fn acquire_with(path: &Path, opts: &LockOptions) -> Result<MkdirLock> {
        let start = Instant::now();
        let timeout = crate::core::deadline::cap(opts.timeout);
        loop {
            match fs::create_dir(path) {
                Ok(()) => return MkdirLock::claim(path),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    super::refuse_symlink(path)?;
                    if let Some(seen) = stale_owner(path, opts) {
                        break_lock(path, &seen, opts);
                        continue;
                    }
                }
                Err(e) => return Err(Error::io("create lock", path, e)),
            }
            wait_before_retry(path, start, timeout, POLL)?;
        }
    }

    /// Names this process in the new lock directory; a lock that cannot be named is given
    /// back at once.
    fn claim(path: &Path) -> Result<MkdirLock> {
        let pid = std::process::id();
        let token = format!("{pid}-{}", super::unique_suffix());
        let mut text = format!("pid={pid}\n");
        if let Some(start) = process_start(pid) {
            text.push_str(&format!("start={start}\n"));
        }
        if let Some(boot) = boot_id() {
            text.push_str(&format!("boot={boot}\n"));
        }
        text.push_str(&format!("token={token}\n"));
        let owner = path.join(OWNER_FILE);
        let written = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(super::PRIVATE_FILE)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&owner)
            .and_then(|mut f| f.write_all(text.as_bytes()));
        if let Err(e) = written {
            let _ = fs::remove_dir_all(path);
            return Err(Error::io("name the holder of lock", path, e));
        }
        Ok(MkdirLock {
            path: path.to_path_buf(),
            token,
        })
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

/// Sleeps `poll` (less when the wait would pass `timeout` since `start`) before a lock at
/// `path` is tried again; the timeout error once it has passed.
pub(super) fn wait_before_retry(
    path: &Path,
    start: Instant,
    timeout: Duration,
    poll: Duration,
) -> Result<()> {
    let waited = start.elapsed();
    if waited >= timeout {
        return Err(Error::LockTimeout {
            path: path.to_path_buf(),
            waited_ms: waited.as_millis(),
        });
    }
    std::thread::sleep(poll.min(timeout.saturating_sub(waited)));
    Ok(())
}

/// The owner of the lock at `path` when the lock is stale under `opts`.
#[allow(clippy::disallowed_methods)] // a lock's age is measured against its file time
fn stale_owner(path: &Path, opts: &LockOptions) -> Option<Owner> {
    let owner = read_owner(path);
    let age = fs::symlink_metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .unwrap_or_default();
    let stale = if owner.is_named() {
        age > opts.stale_after || !holder_alive(&owner)
    } else {
        match opts.ownerless {
            Ownerless::BreakAfter(grace) => age > grace.min(opts.stale_after),
            Ownerless::Wait => false,
        }
    };
    stale.then_some(owner)
}

/// Whether the process an owner file names still runs. Where `/proc` is not available the
/// answer is "yes", so only the age rule can break the lock.
fn holder_alive(owner: &Owner) -> bool {
    let Some(pid) = owner.pid else {
        return true;
    };
    if !Path::new("/proc/self").exists() {
        return true;
    }
    if let (Some(theirs), Some(ours)) = (owner.boot.as_deref(), boot_id()) {
        if theirs != ours {
            return false;
        }
    }
    if !super::process_runs(pid) {
        return false;
    }
    match (owner.start, process_start(pid)) {
        (Some(recorded), Some(now)) => recorded == now,
        _ => true,
    }
}

/// When process `pid` started, in clock ticks since boot (`/proc/<pid>/stat` field 22);
/// `None` where `/proc` does not say.
fn process_start(pid: u32) -> Option<u64> {
    let stat = read_limited(
        &Path::new("/proc").join(pid.to_string()).join("stat"),
        Limit::POINTER,
    )
    .ok()??;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(19)?.parse().ok()
}

/// This boot's id (Linux), so a lock from before a reboot is never mistaken for a live one.
fn boot_id() -> Option<String> {
    read_limited(Path::new("/proc/sys/kernel/random/boot_id"), Limit::POINTER)
        .ok()
        .flatten()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// Removes a stale lock without racing other breakers or a new holder: under an advisory
/// lock on the lock directory itself (so nothing is left beside it), the lock is removed only
/// if it is still stale and still held by the owner that was judged stale (a lock taken
/// afresh in between has another token).
#[allow(clippy::disallowed_methods)] // opens the lock folder itself (checked: not a link)
fn break_lock(path: &Path, seen: &Owner, opts: &LockOptions) {
    let Ok(guard) = File::open(path) else { return };
    if guard.lock().is_err() {
        return;
    }
    if stale_owner(path, opts).as_ref() == Some(seen) {
        let _ = fs::remove_dir_all(path);
    }
    let _ = guard.unlock();
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;

    fn backdate(p: &Path, secs: u64) {
        #[allow(clippy::disallowed_methods)] // a file time, set back from the real clock
        let old = SystemTime::now() - Duration::from_secs(secs);
        File::open(p).unwrap().set_modified(old).unwrap();
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
    fn a_reused_pid_or_another_boot_is_not_a_live_holder() {
        let t = tempfile::tempdir().unwrap();
        let ours = std::process::id();
        if process_start(ours).is_none() {
            return; // no /proc here: only the age rule applies
        }
        let p = t.path().join(".lock.P");
        fs::create_dir(&p).unwrap();
        // Our own pid, but a start time it never had: the pid was reused.
        fs::write(
            p.join(OWNER_FILE),
            format!("pid={ours}\nstart=1\ntoken=old\n"),
        )
        .unwrap();
        assert!(
            MkdirLock::acquire(&p, Duration::from_millis(100), Duration::from_secs(60)).is_ok()
        );
        let q = t.path().join(".lock.B");
        fs::create_dir(&q).unwrap();
        fs::write(
            q.join(OWNER_FILE),
            format!("pid={ours}\nboot=another-boot\ntoken=old\n"),
        )
        .unwrap();
        assert!(
            MkdirLock::acquire(&q, Duration::from_millis(100), Duration::from_secs(60)).is_ok()
        );
    }

    #[test]
    fn a_live_holder_is_waited_for() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join(".lock.L");
        let held = MkdirLock::acquire(&p, Duration::from_secs(1), Duration::from_secs(60)).unwrap();
        let owner = fs::read_to_string(p.join(OWNER_FILE)).unwrap();
        assert!(
            owner.contains(&format!("pid={}", std::process::id())),
            "{owner}"
        );
        let err =
            MkdirLock::acquire(&p, Duration::from_millis(60), Duration::from_secs(60)).unwrap_err();
        assert!(matches!(err, Error::LockTimeout { .. }));
        drop(held);
    }

    #[test]
    fn a_foreign_ownerless_lock_is_waited_for_and_never_broken() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join(".lock.D");
        fs::create_dir(&p).unwrap();
        backdate(&p, 3600);
        let opts = LockOptions {
            timeout: Duration::from_millis(80),
            stale_after: Duration::from_secs(60),
            ownerless: Ownerless::Wait,
        };
        let err = MkdirLock::acquire_with(&p, &opts).unwrap_err();
        assert!(matches!(err, Error::LockTimeout { .. }));
        assert!(p.is_dir(), "datarim's lock was removed");
    }

    #[test]
    fn a_lock_that_cannot_be_named_is_given_back() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join(".lock.N");
        fs::create_dir(&p).unwrap();
        // Something already sits where the owner file goes: naming fails.
        std::os::unix::fs::symlink("/dev/null", p.join(OWNER_FILE)).unwrap();
        assert!(MkdirLock::claim(&p).is_err());
        assert!(!p.exists(), "a nameless lock was left behind");
    }

    #[test]
    fn an_owner_file_that_is_a_link_to_an_endless_file_is_not_read() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join(".lock.Z2");
        fs::create_dir(&p).unwrap();
        std::os::unix::fs::symlink("/dev/zero", p.join(OWNER_FILE)).unwrap();
        backdate(&p, 10);
        // Read as ownerless (the link is not followed) and broken after the grace.
        assert!(
            MkdirLock::acquire(&p, Duration::from_millis(200), Duration::from_secs(60)).is_ok()
        );
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
}
