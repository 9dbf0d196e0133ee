//! A lock on a folder itself: an advisory `flock` of the open folder. Taking it creates
//! nothing and leaves nothing behind, and the kernel lets it go when its holder exits or is
//! killed, so it is never stale and never needs breaking. For baton's own short steps in its
//! private folders (an audit session coming into being, the session index rewritten); a lock
//! another tool shares is a `MkdirLock` (datarim's writer takes `mkdir` locks).
//!
//! Two holders exclude each other only when they lock the same folder, and only through this
//! lock: the folder's files are read and written as usual meanwhile.
//!
//! Where the file system cannot lock a folder (NFS emulates `flock` with a write lock, which
//! a folder opened for reading cannot take), the lock is a `MkdirLock` inside the folder
//! (`.baton.lock`) instead: created and removed each time, broken when its holder is gone.

use crate::core::error::{Error, Result};
use std::fs::{File, OpenOptions, TryLockError};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often a waiting caller tries again.
const POLL: Duration = Duration::from_millis(5);

/// The lock directory used where a folder cannot be locked.
const FALLBACK: &str = ".baton.lock";

/// A held folder lock; dropping it (or the process ending) releases it.
#[derive(Debug)]
pub struct FolderLock {
    _held: Held,
    path: PathBuf,
}

/// What holds the lock.
#[derive(Debug)]
enum Held {
    /// The open folder, locked.
    Folder { _file: File },
    /// The lock directory inside it (a file system that cannot lock a folder).
    Directory { _lock: super::MkdirLock },
}

impl FolderLock {
    /// Locks the folder `dir` (which must exist and not be a symlink), waiting up to
    /// `timeout` for a holder; in a hook run the wait is cut to what is left of the run's
    /// deadline (`core::deadline`).
    pub fn acquire(dir: &Path, timeout: Duration) -> Result<FolderLock> {
        let held = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW)
            .open(dir)
            .map_err(|e| Error::io("open folder to lock", dir, e))?;
        let start = Instant::now();
        let timeout = crate::core::deadline::cap(timeout);
        loop {
            match held.try_lock() {
                Ok(()) => {
                    return Ok(FolderLock {
                        _held: Held::Folder { _file: held },
                        path: dir.to_path_buf(),
                    })
                }
                Err(TryLockError::WouldBlock) => {}
                Err(TryLockError::Error(e)) if cannot_lock_folders(&e) => {
                    return FolderLock::in_directory(dir, timeout.saturating_sub(start.elapsed()));
                }
                Err(TryLockError::Error(e)) => return Err(Error::io("lock", dir, e)),
            }
            super::lock::wait_before_retry(dir, start, timeout, POLL)?;
        }
    }

    /// The lock as a `MkdirLock` inside `dir`, for a file system that cannot lock a folder.
    fn in_directory(dir: &Path, timeout: Duration) -> Result<FolderLock> {
        let lock = super::MkdirLock::acquire(&dir.join(FALLBACK), timeout, STALE_AFTER)?;
        Ok(FolderLock {
            _held: Held::Directory { _lock: lock },
            path: dir.to_path_buf(),
        })
    }

    /// The folder locked.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// How old a fallback lock directory may grow before it is taken over (its holder hung).
const STALE_AFTER: Duration = Duration::from_secs(60);

/// Whether `e`, from locking a folder, says this file system cannot lock folders at all
/// (NFS: `EBADF` for a write lock on a folder opened for reading; `ENOLCK`, `EOPNOTSUPP`,
/// `EINVAL` elsewhere), rather than that locking failed this time.
fn cannot_lock_folders(e: &std::io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EBADF | libc::ENOLCK | libc::EOPNOTSUPP | libc::EINVAL)
    )
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their folders directly
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_excludes_another_until_dropped_and_leaves_nothing() {
        let t = tempfile::tempdir().unwrap();
        let held = FolderLock::acquire(t.path(), Duration::from_secs(1)).unwrap();
        let err = FolderLock::acquire(t.path(), Duration::from_millis(50)).unwrap_err();
        assert!(matches!(err, Error::LockTimeout { .. }), "{err}");
        drop(held);
        FolderLock::acquire(t.path(), Duration::from_millis(50)).unwrap();
        assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 0);
    }

    /// Where folders cannot be locked, the lock directory inside the folder excludes just the
    /// same and goes when dropped.
    #[test]
    fn the_fallback_lock_excludes_and_leaves_nothing() {
        let t = tempfile::tempdir().unwrap();
        let held = FolderLock::in_directory(t.path(), Duration::from_secs(1)).unwrap();
        assert!(t.path().join(FALLBACK).is_dir());
        let err = FolderLock::in_directory(t.path(), Duration::from_millis(50)).unwrap_err();
        assert!(matches!(err, Error::LockTimeout { .. }), "{err}");
        drop(held);
        assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 0);
        assert!(cannot_lock_folders(&std::io::Error::from_raw_os_error(
            libc::EBADF
        )));
        assert!(!cannot_lock_folders(&std::io::Error::from_raw_os_error(
            libc::EIO
        )));
    }

    #[test]
    fn a_symlink_or_a_file_is_not_locked() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("real");
        std::fs::create_dir(&real).unwrap();
        let link = t.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(FolderLock::acquire(&link, Duration::from_millis(10)).is_err());
        let file = t.path().join("file");
        std::fs::write(&file, "x").unwrap();
        assert!(FolderLock::acquire(&file, Duration::from_millis(10)).is_err());
        assert!(FolderLock::acquire(&t.path().join("missing"), Duration::from_millis(10)).is_err());
    }

    #[test]
    fn holders_in_threads_never_overlap() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;
        let t = tempfile::tempdir().unwrap();
        let inside = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (dir, inside, most) = (t.path().to_path_buf(), inside.clone(), most.clone());
                std::thread::spawn(move || {
                    for _ in 0..20 {
                        let _l = FolderLock::acquire(&dir, Duration::from_secs(10)).unwrap();
                        let n = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(n, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_micros(200));
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for th in threads {
            th.join().unwrap();
        }
        assert_eq!(most.load(Ordering::SeqCst), 1);
    }
}
