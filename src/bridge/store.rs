//! The `.rune/` folder: where it is, its files, and the ways the bridge writes them under the
//! folder's lock (a whole-file atomic rewrite, and an append that a killed writer cannot
//! tear), and reading a file's tail.

use crate::core::config::Config;
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::project::Project;
use chrono::{DateTime, Utc};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub(crate) const DECISIONS: &str = "decisions.md";
pub(crate) const CONVENTIONS: &str = "conventions.md";
pub(crate) const PROGRESS: &str = "progress.md";
pub(crate) const SESSION_LOG: &str = "session-log.md";
pub(crate) const INSTINCTS: &str = "instincts.md";
pub(crate) const NOTES: &str = "cumulative-notes.md";
pub(crate) const TASK_NOTES: &str = "task-notes.md";
pub(crate) const LEARNINGS: &str = "learnings.jsonl";
pub(crate) const CHECKPOINT: &str = "checkpoint.md";
pub(crate) const INVARIANTS: &str = "INVARIANTS.md";

/// The header a file gets when the bridge creates it.
pub(crate) fn header(file: &str) -> &'static str {
    match file {
        DECISIONS => "# Decisions Log\n",
        CONVENTIONS => "# Conventions\n",
        PROGRESS => "# Progress\n",
        SESSION_LOG => "# Session Log\n",
        INSTINCTS => "# Instincts\n",
        NOTES => "# Cumulative Project Notes\n",
        TASK_NOTES => "# Task Notes\n",
        _ => "",
    }
}

/// The project's `.rune/` folder.
#[derive(Debug, Clone)]
pub(crate) struct Rune {
    /// The project root: the folder and its files are checked for links below it.
    pub(crate) root: PathBuf,
    /// Absolute path of the folder.
    pub(crate) dir: PathBuf,
    /// The folder relative to the project root (for commits and messages).
    pub(crate) rel: PathBuf,
}

impl Rune {
    /// A `.rune/` folder, made, in a new temporary directory (tests).
    #[cfg(test)]
    pub(crate) fn temp() -> (tempfile::TempDir, Rune) {
        #[allow(clippy::unwrap_used)]
        let t = tempfile::tempdir().unwrap();
        let rune = Rune {
            root: t.path().to_path_buf(),
            dir: t.path().join(".rune"),
            rel: ".rune".into(),
        };
        #[allow(clippy::unwrap_used, clippy::disallowed_methods)]
        std::fs::create_dir_all(&rune.dir).unwrap();
        (t, rune)
    }

    /// The folder of the project's configuration (`paths.bridge`).
    pub(crate) fn of(project: &Project) -> Rune {
        Rune::new(&project.root, project.config())
    }

    /// The folder `config` names under `root`.
    pub(crate) fn new(root: &Path, config: &Config) -> Rune {
        Rune {
            root: root.to_path_buf(),
            dir: root.join(&config.paths.bridge),
            rel: config.paths.bridge.clone(),
        }
    }

    /// The path of `file` in the folder.
    pub(crate) fn path(&self, file: &str) -> PathBuf {
        self.dir.join(file)
    }

    /// `.rune/<file>` as shown to people.
    pub(crate) fn show(&self, file: &str) -> String {
        format!("{}/{file}", self.rel.display())
    }

    /// Whether the folder exists.
    pub(crate) fn exists(&self) -> bool {
        self.dir.is_dir()
    }

    /// Whether the project uses the bridge: its folder exists, or a config file of the
    /// project's turns the bridge on (`bridge.enabled: true`; the user's own file applies to
    /// every project and does not count). Hooks create nothing in `.rune/` otherwise.
    pub(crate) fn in_use(&self, config: &Config) -> bool {
        self.exists() || config.bridge.opted_in
    }

    /// Creates the folder (0700 when new) and takes its writer lock.
    pub(crate) fn lock(&self) -> Result<fsx::MkdirLock> {
        // core::fsx breaks a lock left by a killed writer (dead pid, or no owner after a
        // short grace), so one wait of ten seconds covers it.
        self.lock_within(Duration::from_secs(10))
    }

    /// Takes the writer lock only if it is free now (a hook's housekeeping: skipped when
    /// another writer holds it).
    pub(crate) fn try_lock(&self) -> Result<fsx::MkdirLock> {
        self.lock_within(Duration::ZERO)
    }

    fn lock_within(&self, wait: Duration) -> Result<fsx::MkdirLock> {
        if !self.dir.exists() {
            fsx::ensure_private_dir_in(&self.root, &self.dir)?;
        }
        fsx::refuse_symlink(&self.dir)?;
        // The lock lives beside the folder so `git add .rune/` never sees it.
        let base = self
            .dir
            .file_name()
            .map_or_else(|| "rune".into(), |n| n.to_string_lossy().into_owned());
        let name = format!(".{}.lock", base.trim_start_matches('.'));
        let lock = self
            .dir
            .parent()
            .map_or_else(|| PathBuf::from(&name), |p| p.join(&name));
        let held = fsx::MkdirLock::acquire(&lock, wait, Duration::from_secs(60))?;
        self.undo_torn_append();
        self.sweep_temps();
        Ok(held)
    }

    /// Removes temp files a killed writer left (`.<name>.tmp.<pid>.<n>`): under the lock no
    /// live writer has one, and `git add .rune/` must not pick them up.
    fn sweep_temps(&self) {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for e in rd.filter_map(std::result::Result::ok) {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') && name.contains(".tmp.") {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }

    /// Reads `file` whole; `None` when missing. Refuses a symlink.
    pub(crate) fn read(&self, file: &str) -> Result<Option<String>> {
        read_opt(&self.path(file))
    }

    /// Rewrites `file` atomically (old or new, never torn). Call under `lock`.
    pub(crate) fn write(&self, file: &str, text: &str) -> Result<()> {
        let path = self.path(file);
        fsx::check_inside(&self.root, &path)?;
        fsx::atomic_write(&path, text.as_bytes(), fsx::PRIVATE_FILE)
    }

    /// Appends `entry` (whole lines) to `file`, creating it with its header when missing.
    /// An existing file is never read or rewritten (a decisions log grows with every save: a
    /// 50 MB one was read and rewritten whole): a one-line `[…]` entry to a file that ends
    /// with a newline is one locked append (`fsx::append_line`); anything else is one write
    /// at the end, after a journal that says how long the file was (`undo_torn_append`), so a
    /// writer killed half-way leaves no torn entry. The text added is what a rewrite of the
    /// whole file added: a newline when the file did not end with one, a blank line before an
    /// entry that is not a `[…]` line. Returns the file's length before. Call under `lock`.
    pub(crate) fn append(&self, file: &str, entry: &str) -> Result<u64> {
        let line = entry.trim_end_matches('\n');
        let path = self.path(file);
        fsx::check_inside(&self.root, &path)?;
        let Some(len) = regular_len(&path)? else {
            let mut text = header(file).to_string();
            if !entry.starts_with('[') && !text.is_empty() {
                text.push('\n');
            }
            text.push_str(entry);
            if !entry.ends_with('\n') {
                text.push('\n');
            }
            self.write(file, &text)?;
            return Ok(0);
        };
        let ends_line = ends_with_newline(&path);
        if line.starts_with('[') && !line.contains('\n') && ends_line {
            fsx::append_line(&path, line, fsx::PRIVATE_FILE)?;
            return Ok(len);
        }
        let mut added = String::new();
        if len > 0 && !ends_line {
            added.push('\n');
        }
        if !entry.starts_with('[') && len > 0 {
            added.push('\n');
        }
        added.push_str(entry);
        if !entry.ends_with('\n') {
            added.push('\n');
        }
        let journal = self.dir.join(JOURNAL);
        let note = format!("{file}\t{len}\t{}\n", len + added.len() as u64);
        fsx::atomic_write(&journal, note.as_bytes(), fsx::PRIVATE_FILE)?;
        append_synced(&path, added.as_bytes())?;
        std::fs::remove_file(&journal).map_err(|e| Error::io("remove", &journal, e))?;
        Ok(len)
    }

    /// Undoes an append whose writer died half-way (the journal `append` leaves while it
    /// writes): the file is cut back to its length before, when it is longer than that and
    /// shorter than it would have been. A file that changed otherwise is left as it is. Under
    /// the lock, when it is taken.
    fn undo_torn_append(&self) {
        let journal = self.dir.join(JOURNAL);
        let Ok(Some(note)) = fsx::read_limited(&journal, fsx::Limit::POINTER) else {
            return;
        };
        let mut parts = note.trim_end().split('\t');
        let (Some(file), Some(before), Some(after)) = (
            parts.next(),
            parts.next().and_then(|n| n.parse::<u64>().ok()),
            parts.next().and_then(|n| n.parse::<u64>().ok()),
        ) else {
            let _ = std::fs::remove_file(&journal);
            return;
        };
        if fsx::validate_component("memory file", file).is_ok() {
            let path = self.path(file);
            if let Ok(Some(len)) = regular_len(&path) {
                if len > before && len < after {
                    let _ = std::fs::OpenOptions::new()
                        .write(true)
                        .custom_flags(libc::O_NOFOLLOW)
                        .open(&path)
                        .and_then(|f| f.set_len(before));
                }
            }
        }
        let _ = std::fs::remove_file(&journal);
    }
}

/// The journal of an append in progress (in the folder: `git add` never sees it, as it is
/// removed before the lock is given back; a killed writer's is undone by the next holder).
pub(crate) const JOURNAL: &str = ".append-journal";

/// The length of `path` when it is a regular file; `None` when missing. Refuses anything
/// else (a symlink, a FIFO).
fn regular_len(path: &Path) -> Result<Option<u64>> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_file() => Ok(Some(m.len())),
        Ok(_) => Err(Error::Invalid(format!(
            "{} is not a regular file; the bridge does not write through it",
            path.display()
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io("inspect", path, e)),
    }
}

/// Appends `bytes` to `path` in one write and syncs it (never through a symlink).
fn append_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| Error::io("open for append", path, e))?;
    f.write_all(bytes)
        .map_err(|e| Error::io("append to", path, e))?;
    f.sync_data().map_err(|e| Error::io("sync", path, e))
}

/// Whether `path` is a regular file whose last byte is a newline (reads one byte).
fn ends_with_newline(path: &Path) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let regular = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.len() > 0);
    if !regular {
        return false;
    }
    let mut last = [0u8; 1];
    let Ok(Some(mut f)) = fsx::open_regular(path) else {
        return false;
    };
    f.seek(SeekFrom::End(-1))
        .and_then(|_| f.read_exact(&mut last))
        .is_ok()
        && last[0] == b'\n'
}

/// Whether `path` is a regular file (not a symlink, FIFO, device or folder).
pub(crate) fn is_regular(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file())
}

/// Reads a memory file whole; `None` when missing. Refuses a symlink, a FIFO (the open
/// does not wait for its writer) and anything else that is not a regular file, and a file
/// over the document size limit.
pub(crate) fn read_opt(path: &Path) -> Result<Option<String>> {
    fsx::read_lossy(path, fsx::Limit::DOCUMENT)
}

/// The text of `path` from the first line that starts at or after byte `offset`, and where
/// that line starts. `None` when missing, or when those bytes are not UTF-8 (the offsets of
/// a lossy text would not be the file's).
pub(crate) fn read_from(path: &Path, offset: u64) -> Result<Option<(String, u64)>> {
    let Some(mut f) = fsx::open_regular(path)? else {
        return Ok(None);
    };
    // One byte before, so a line that starts right at `offset` is seen to start there.
    let start = offset.saturating_sub(1);
    f.seek(SeekFrom::Start(start))
        .map_err(|e| Error::io("seek", path, e))?;
    let mut buf = Vec::new();
    f.read_to_end(&mut buf)
        .map_err(|e| Error::io("read", path, e))?;
    let (from, at) = if offset == 0 {
        (0, 0)
    } else {
        match buf.iter().position(|&b| b == b'\n') {
            Some(nl) => (nl + 1, start + nl as u64 + 1),
            None => (buf.len(), start + buf.len() as u64),
        }
    };
    Ok(String::from_utf8(buf.split_off(from)).ok().map(|t| (t, at)))
}

/// The stamp of an entry: `YYYY-MM-DD HH:MM:SSZ`, in UTC and marked so (the one rule for
/// every time the bridge writes; docs/bridge.md, "Times"). To the second, so entries saved a
/// minute apart in two clones still order by time.
pub(crate) fn stamp(now: DateTime<Utc>) -> String {
    now.format("%Y-%m-%d %H:%M:%SZ").to_string()
}

/// `YYYY-MM-DD` (UTC), for file names.
pub(crate) fn day(now: DateTime<Utc>) -> String {
    now.format("%Y-%m-%d").to_string()
}

/// Parses the `[…]` stamp at the start of `s`: `[YYYY-MM-DD HH:MM:SSZ]` (what the bridge
/// writes), any offset (`+02:00`, `-0500`, ` UTC`), a `T` between date and time, minutes
/// only, or a day only (`[YYYY-MM-DD]`, midnight). A stamp without an offset (older entries,
/// other tools) is read as UTC, which is what baton wrote before it marked its stamps.
pub(crate) fn parse_stamp(s: &str) -> Option<DateTime<Utc>> {
    let inner = s.trim_start().strip_prefix('[')?;
    let end = inner.find(']')?;
    parse_time(&inner[..end])
}

/// A stamp's time without its brackets (see `parse_stamp`).
pub(crate) fn parse_time(raw: &str) -> Option<DateTime<Utc>> {
    let raw = raw.trim();
    if let Ok(d) = chrono::NaiveDate::parse_from_str(raw, "%Y-%m-%d") {
        return d.and_hms_opt(0, 0, 0).map(|t| t.and_utc());
    }
    let (local, offset) = split_offset(raw)?;
    let local = local.trim_end().replacen('T', " ", 1);
    let naive = ["%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%d %H:%M"]
        .iter()
        .find_map(|f| chrono::NaiveDateTime::parse_from_str(&local, f).ok())?;
    Some(naive.and_utc() - chrono::Duration::seconds(offset))
}

/// A time and its offset east of UTC in seconds (`Z`, ` UTC`, `±HH:MM`, `±HHMM`, `±HH`;
/// none is UTC).
fn split_offset(raw: &str) -> Option<(&str, i64)> {
    if let Some(t) = raw.strip_suffix('Z').or_else(|| raw.strip_suffix("UTC")) {
        return Some((t, 0));
    }
    // An offset's sign comes after the date (whose own `-` are at 4 and 7).
    let Some(at) = raw.rfind(['+', '-']).filter(|&i| i > 10) else {
        return Some((raw, 0));
    };
    let digits: String = raw[at + 1..].chars().filter(|c| *c != ':').collect();
    if !(digits.len() == 2 || digits.len() == 4) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let h: i64 = digits[..2].parse().ok()?;
    let m: i64 = digits.get(2..).map_or(Some(0), |m| m.parse().ok())?;
    let sign = if raw[at..].starts_with('-') { -1 } else { 1 };
    Some((&raw[..at], sign * (h * 3600 + m * 60)))
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;
    use crate::core::time::age;

    #[test]
    fn stamps_parse_back_and_ages_read_well() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-30T10:15:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let s = format!("[{}] Decision: x", stamp(now));
        assert_eq!(s, "[2026-11-30 10:15:00Z] Decision: x");
        assert_eq!(parse_stamp(&s), Some(now));
        // Offsets, a `T`, minutes only, no offset (UTC), a bad offset.
        for (text, utc) in [
            ("[2026-11-30 11:15:00+01:00]", "2026-11-30T10:15:00Z"),
            ("[2026-11-30T05:15-0500]", "2026-11-30T10:15:00Z"),
            ("[2026-11-30 10:15 UTC]", "2026-11-30T10:15:00Z"),
            ("[2026-11-30 10:15]", "2026-11-30T10:15:00Z"),
            ("[2026-11-30 10:15:30.5Z]", "2026-11-30T10:15:30.500Z"),
        ] {
            assert_eq!(parse_stamp(text), crate::core::time::parse(utc), "{text}");
        }
        assert_eq!(parse_stamp("[2026-11-30 10:15 +1x]"), None);
        assert_eq!(
            parse_stamp("[2026-11-28] Convention"),
            Some(
                chrono::DateTime::parse_from_rfc3339("2026-11-28T00:00:00Z")
                    .unwrap()
                    .with_timezone(&Utc)
            )
        );
        assert_eq!(parse_stamp("no stamp"), None);
        assert_eq!(age(parse_stamp("[2026-11-28]").unwrap(), now), "2 days ago");
        assert_eq!(age(now, now), "just now");
        assert_eq!(age(parse_stamp("[2026-11-30]").unwrap(), now), "today");
        assert_eq!(
            age(parse_stamp("[2026-11-29 18:00]").unwrap(), now),
            "16 hours ago"
        );
    }

    #[test]
    fn an_old_ownerless_lock_is_broken() {
        let t = tempfile::tempdir().unwrap();
        let rune = Rune {
            root: t.path().to_path_buf(),
            dir: t.path().join(".rune"),
            rel: ".rune".into(),
        };
        let lock = t.path().join(".rune.lock");
        std::fs::create_dir(&lock).unwrap();
        #[allow(clippy::disallowed_methods)] // a file time, set back from the real clock
        let old = std::time::SystemTime::now() - Duration::from_secs(10);
        std::fs::File::open(&lock)
            .unwrap()
            .set_modified(old)
            .unwrap();
        let held = rune.lock().unwrap();
        assert!(held.path().join("owner").exists());
    }

    #[test]
    fn a_one_line_entry_is_appended_in_place_and_others_rewrite() {
        let (_dir, rune) = Rune::temp();
        rune.append(SESSION_LOG, "[2026-11-30] — first\n").unwrap();
        let ino = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
        let before = ino(&rune.path(SESSION_LOG));
        rune.append(SESSION_LOG, "[2026-11-30] — second").unwrap();
        assert_eq!(ino(&rune.path(SESSION_LOG)), before, "appended in place");
        assert_eq!(
            std::fs::read_to_string(rune.path(SESSION_LOG)).unwrap(),
            "# Session Log\n[2026-11-30] — first\n[2026-11-30] — second\n"
        );
    }

    /// A save appends to a memory file instead of rewriting it; a writer killed half-way
    /// through leaves its journal, and the next one to take the lock cuts the file back.
    #[test]
    fn issue_15_an_append_adds_what_a_rewrite_added_and_a_torn_one_is_undone() {
        let (_dir, rune) = Rune::temp();
        let entry = "## [2026-11-30 10:15] Decision: A\n\n**Impact:** x\n";
        assert_eq!(rune.append(DECISIONS, entry).unwrap(), 0);
        let first = std::fs::read_to_string(rune.path(DECISIONS)).unwrap();
        assert_eq!(first, format!("# Decisions Log\n\n{entry}"));
        let ino = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
        let before = ino(&rune.path(DECISIONS));
        assert_eq!(rune.append(DECISIONS, entry).unwrap(), first.len() as u64);
        assert_eq!(ino(&rune.path(DECISIONS)), before, "appended in place");
        assert_eq!(
            std::fs::read_to_string(rune.path(DECISIONS)).unwrap(),
            format!("{first}\n{entry}")
        );
        assert!(!rune.dir.join(JOURNAL).exists());
        // A file without its last newline gets one, then the blank line.
        std::fs::write(rune.path(PROGRESS), "# Progress\nx").unwrap();
        rune.append(PROGRESS, "## [2026-11-30 10:15] Session Summary")
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(rune.path(PROGRESS)).unwrap(),
            "# Progress\nx\n\n## [2026-11-30 10:15] Session Summary\n"
        );
        // Killed half-way: the journal is there, the file has half an entry.
        let whole = std::fs::read_to_string(rune.path(DECISIONS)).unwrap();
        std::fs::write(
            rune.dir.join(JOURNAL),
            format!("{DECISIONS}\t{}\t{}\n", whole.len(), whole.len() + 100),
        )
        .unwrap();
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(rune.path(DECISIONS))
            .unwrap();
        f.write_all(b"\n## [2026-11-30 10:16] Decision: B\n\n**Cont")
            .unwrap();
        drop(rune.lock().unwrap());
        assert_eq!(
            std::fs::read_to_string(rune.path(DECISIONS)).unwrap(),
            whole
        );
        assert!(!rune.dir.join(JOURNAL).exists());
    }

    #[test]
    fn tail_starts_at_a_line_boundary() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("f");
        std::fs::write(&p, "aaaa\nbbbb\ncccc\n").unwrap();
        assert_eq!(
            fsx::read_tail(&p, 7).unwrap().unwrap(),
            ("cccc\n".into(), false)
        );
        assert_eq!(
            fsx::read_tail(&p, 100).unwrap().unwrap(),
            ("aaaa\nbbbb\ncccc\n".into(), true)
        );
        assert!(fsx::read_tail(&t.path().join("none"), 7).unwrap().is_none());
    }
}
