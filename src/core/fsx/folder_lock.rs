//! A lock on a folder itself: an advisory `flock` of the open folder. Taking it creates
//! nothing and leaves nothing behind, and the kernel lets it go when its holder exits or is
//! killed, so it is never stale and never needs breaking. For baton's own short steps in its
//! private folders (an audit session coming into being, the session index rewritten); a lock
//! another tool shares is a `MkdirLock` (datarim's writer takes `mkdir` locks).
//!
//! Two holders exclude each other only when they lock the same folder, and only through this
//! lock: the folder's files are read and written as usual meanwhile.

use crate::core::error::{Error, Result};
use std::fs::{File, OpenOptions, TryLockError};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often a waiting caller tries again.
const POLL: Duration = Duration::from_millis(5);

/// A held folder lock; dropping it (or the process ending) releases it.
#[derive(Debug)]
pub struct FolderLock {
    /// The open folder the lock is held on.
    _held: File,
    path: PathBuf,
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
                        _held: held,
                        path: dir.to_path_buf(),
                    })
                }
                Err(TryLockError::WouldBlock) => {}
                Err(TryLockError::Error(e)) => return Err(Error::io("lock", dir, e)),
            }
            super::lock::wait_before_retry(dir, start, timeout, POLL)?;
        }
    }

    /// The folder locked.
    pub fn path(&self) -> &Path {
        &self.path
    }
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
