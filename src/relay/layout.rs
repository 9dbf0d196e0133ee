//! Where the relay's files live under the project root, the relay lock, the sentinels (which
//! one is there, and the first lines of it), and small symlink-safe readers.
//!
//! ```text
//! <paths.relay>/packets/latest.md          the checkpoint packet (committed)
//! <paths.relay>/loop/loop_state.md         key: value lines (committed)
//! <paths.relay>/loop/STOP                  sentinel: a person stopped the loop
//! <paths.relay>/loop/NEEDS-HUMAN           sentinel: verify failed; holds the output
//! <paths.relay>/loop/verify-on-resume.sh   run by `baton relay resume`
//! ```

use crate::core::config::Config;
use crate::core::error::Result;
use crate::core::fsx;
use crate::core::redact::Redactor;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a CLI command waits for the relay lock.
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(10);

/// The relay's paths for one project. `*_rel` are relative to the root (for messages and git).
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub(crate) root: PathBuf,
    pub(crate) packet_rel: PathBuf,
    pub(crate) loop_state_rel: PathBuf,
    pub(crate) stop_rel: PathBuf,
    pub(crate) needs_human_rel: PathBuf,
    pub(crate) verify_rel: PathBuf,
}

/// Which sentinel halts the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Sentinel {
    /// `loop/STOP`: a person stopped the loop.
    Stop,
    /// `loop/NEEDS-HUMAN`: verification failed; a person must look.
    NeedsHuman,
}

impl Layout {
    /// The layout for `root` under `config.paths.relay`.
    pub(crate) fn new(root: &Path, config: &Config) -> Layout {
        let base = &config.paths.relay;
        Layout {
            root: root.to_path_buf(),
            packet_rel: base.join("packets/latest.md"),
            loop_state_rel: base.join("loop/loop_state.md"),
            stop_rel: base.join("loop/STOP"),
            needs_human_rel: base.join("loop/NEEDS-HUMAN"),
            verify_rel: base.join("loop/verify-on-resume.sh"),
        }
    }

    /// `rel` under the root.
    pub(crate) fn abs(&self, rel: &Path) -> PathBuf {
        self.root.join(rel)
    }

    /// The lock that serialises the relay's writers (Stop hook, CLI).
    pub(crate) fn lock_path(&self) -> PathBuf {
        self.abs(&self.loop_state_rel).with_file_name(".relay.lock")
    }

    /// Takes the relay lock (creating the loop dir), waiting up to `LOCK_WAIT`.
    pub(crate) fn lock(&self) -> Result<fsx::MkdirLock> {
        self.lock_within(LOCK_WAIT)
    }

    /// Takes the relay lock, waiting up to `wait` (the Stop hook waits less than the CLI).
    pub(crate) fn lock_within(&self, wait: Duration) -> Result<fsx::MkdirLock> {
        let lock = self.lock_path();
        if let Some(dir) = lock.parent() {
            fsx::ensure_dir_in(&self.root, dir)?;
        }
        fsx::MkdirLock::acquire(&lock, wait, Duration::from_secs(120))
    }

    /// The sentinel present, NEEDS-HUMAN first (it is the more urgent one).
    pub(crate) fn sentinel(&self) -> Option<Sentinel> {
        [Sentinel::NeedsHuman, Sentinel::Stop]
            .into_iter()
            .find(|s| std::fs::symlink_metadata(self.sentinel_path(*s)).is_ok())
    }

    /// Where sentinel `s` lives, relative to the root.
    pub(crate) fn sentinel_rel(&self, s: Sentinel) -> &Path {
        match s {
            Sentinel::Stop => &self.stop_rel,
            Sentinel::NeedsHuman => &self.needs_human_rel,
        }
    }

    /// Where sentinel `s` lives.
    pub(crate) fn sentinel_path(&self, s: Sentinel) -> PathBuf {
        self.abs(self.sentinel_rel(s))
    }

    /// The first `n` lines of sentinel `s`, redacted (empty when unreadable). Anyone may write
    /// a sentinel, and its text is printed where the model reads it.
    pub(crate) fn sentinel_head(&self, s: Sentinel, n: usize, redactor: &Redactor) -> String {
        read_opt(&self.sentinel_path(s))
            .ok()
            .flatten()
            .map(|t| {
                let t = redactor.redact(&t).text;
                t.lines().take(n).collect::<Vec<_>>().join("\n")
            })
            .unwrap_or_default()
    }

    /// A relative path as the user reads it.
    pub(crate) fn show(rel: &Path) -> String {
        rel.display().to_string()
    }
}

/// Reads `path` as text: `None` when it does not exist; a symlink, a FIFO or anything that
/// is not a regular file is refused (the SessionStart and Stop hooks read these files, and a
/// FIFO would block them), and so is a file over the state-file size limit.
pub(crate) fn read_opt(path: &Path) -> Result<Option<String>> {
    fsx::read_limited(path, fsx::Limit::STATE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_follow_the_config() {
        let mut c = Config::default();
        let l = Layout::new(Path::new("/p"), &c);
        assert_eq!(l.packet_rel, Path::new(".handoff/packets/latest.md"));
        assert_eq!(l.lock_path(), Path::new("/p/.handoff/loop/.relay.lock"));
        c.paths.relay = "state/relay".into();
        let l = Layout::new(Path::new("/p"), &c);
        assert_eq!(
            l.loop_state_rel,
            Path::new("state/relay/loop/loop_state.md")
        );
    }

    #[test]
    fn sentinels_and_symlinks() {
        let t = tempfile::tempdir().unwrap();
        let l = Layout::new(t.path(), &Config::default());
        assert_eq!(l.sentinel(), None);
        fsx::ensure_dir_in(t.path(), &t.path().join(".handoff/loop")).unwrap();
        std::fs::write(l.abs(&l.stop_rel), "").unwrap();
        assert_eq!(l.sentinel(), Some(Sentinel::Stop));
        std::fs::write(l.abs(&l.needs_human_rel), "x").unwrap();
        assert_eq!(l.sentinel(), Some(Sentinel::NeedsHuman));
        assert_eq!(read_opt(&t.path().join("nope")).unwrap(), None);
        std::os::unix::fs::symlink("/etc/hostname", t.path().join("link")).unwrap();
        assert!(read_opt(&t.path().join("link")).is_err());
    }

    #[test]
    fn issue_9_read_opt_refuses_a_fifo_instead_of_blocking_on_it() {
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("latest.md");
        let made = crate::core::exec::run(
            {
                let mut c = crate::core::exec::command("mkfifo");
                c.arg(&fifo);
                c
            },
            Duration::from_secs(5),
            false,
        );
        assert!(made.ok(), "mkfifo: {:?}", made.ended);
        // Without the fix this read blocks until a writer opens the FIFO.
        let e = read_opt(&fifo).unwrap_err();
        let fifo_refused = matches!(e, crate::core::error::Error::NotRegular { .. });
        assert!(fifo_refused, "{e}");
        std::fs::create_dir(t.path().join("dir")).unwrap();
        assert!(read_opt(&t.path().join("dir")).is_err());
        std::fs::write(t.path().join("plain"), "x: 1\n").unwrap();
        assert_eq!(
            read_opt(&t.path().join("plain")).unwrap().as_deref(),
            Some("x: 1\n")
        );
    }
}
