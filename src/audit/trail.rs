//! Reading and moving the audit's JSON Lines files.
//!
//! * `Records`: the typed lines of one or more files (record.rs has the format); a corrupt
//!   line is reported as `file:line` and skipped, the rest still counts; records with the same
//!   `id` (a union merge or a rerun) collapse, the later one wins.
//! * `drain_with`: moves every line of one file to the end of another without losing or
//!   doubling a line when hooks append and other processes drain at the same time. The source is never
//!   renamed: the drainer takes the same advisory lock the appenders take (`fsx::append_line`
//!   locks the file it opened), copies the lines, and truncates the file while still holding
//!   the lock. An appender that opened the file before the drain waits for the lock and then
//!   writes at the (new) end, because the file is opened with `O_APPEND`. Nothing is ever
//!   written to an inode that is no longer reachable, which is what a rename would risk.
//!   With a limit, one move takes a slice (whole lines) and marks where it stopped
//!   (`cursor`); the source is truncated when its last slice is moved. A move killed at any
//!   point loses nothing and doubles nothing: the next one cuts the destination's torn last
//!   line, and skips the lines of its slice that the destination already ends with (`slice`).

use super::cursor;
use super::record::{self, Record};
use super::slice;
use crate::core::error::{Error, Result};
use crate::core::fault;
use crate::core::fsx;
use serde::de::DeserializeOwned;
use std::collections::{HashMap, HashSet};
use std::fs::OpenOptions;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// The lines of one or more files read as `T` (session records by default; `persist` marks
/// too), and the lines that could not be read.
#[derive(Debug, Clone)]
pub(crate) struct Records<T = Record> {
    pub(crate) records: Vec<T>,
    /// `path:line: why` for each skipped line.
    pub(crate) problems: Vec<String>,
}

impl<T> Default for Records<T> {
    fn default() -> Self {
        Records {
            records: Vec::new(),
            problems: Vec::new(),
        }
    }
}

impl<T: DeserializeOwned> Records<T> {
    /// Adds the lines of `path` (missing file: nothing). `label` names it in problems. Bytes
    /// that are not UTF-8 are read as U+FFFD, so one bad byte costs one line, not the file.
    pub(crate) fn add_file(&mut self, path: &Path, label: &str) -> Result<()> {
        if let Some(text) = fsx::read_lossy(path, fsx::Limit::LOG)? {
            self.add_text(&text, label);
        }
        Ok(())
    }

    /// Adds the lines of `text`; blank lines are no records, and a line `record::parse`
    /// refuses becomes a problem named by `label` and its line number.
    pub(crate) fn add_text(&mut self, text: &str, label: &str) {
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match record::parse(line) {
                Ok(r) => self.records.push(r),
                Err(why) => self
                    .problems
                    .push(format!("{label}:{}: {why}; skipped", i + 1)),
            }
        }
    }
}

impl Records<Record> {
    /// Collapses records with the same `id` (the later one wins, in the earlier's place).
    pub(crate) fn dedupe(&mut self) {
        let records = std::mem::take(&mut self.records);
        let mut last: HashMap<&str, usize> = HashMap::new();
        for (i, r) in records.iter().enumerate() {
            if let Some(id) = r.id.as_deref() {
                last.insert(id, i);
            }
        }
        // Where each kept record comes from: its own place, or the later copy of its id.
        let mut seen = HashSet::new();
        let sources: Vec<usize> = records
            .iter()
            .enumerate()
            .filter_map(|(i, r)| match r.id.as_deref() {
                None => Some(i),
                Some(id) => seen.insert(id).then(|| last[id]),
            })
            .collect();
        let mut slots: Vec<Option<Record>> = records.into_iter().map(Some).collect();
        self.records = sources
            .into_iter()
            .filter_map(|i| slots[i].take())
            .collect();
    }
}

/// The records of a session's trail, pending and buffer, in that order, deduplicated.
pub(crate) fn session_records(run_dir: &Path, id: &str) -> Result<Records> {
    let mut r = Records::default();
    for name in [
        super::store::TRAIL,
        super::store::PENDING,
        super::store::BUFFER,
    ] {
        r.add_file(&run_dir.join(name), &format!("{id}/{name}"))?;
    }
    r.dedupe();
    Ok(r)
}

/// Opens `path` for appending, and reading its end (created with `mode`, never through a
/// symlink).
fn open_append(path: &Path, mode: u32) -> Result<std::fs::File> {
    OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .mode(mode)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| Error::io("open for append", path, e))
}

/// Moves every line of `src` to the end of `dst` (see the module doc). With `dedupe`, lines
/// whose record `id` is already in `dst` (or earlier in the batch) are dropped: that makes a
/// rerun after a crash between the copy and the truncation append nothing twice. Returns the
/// number of lines appended. (The audit moves its files through `sidecar`, which keeps the
/// session's summary along; this is the bare move.)
#[cfg(test)]
pub(crate) fn drain(src: &Path, dst: &Path, mode: u32, dedupe: bool) -> Result<usize> {
    drain_with(src, dst, mode, &mut Dedupe(dedupe), None).map(|m| m.lines)
}

/// What a caller of `drain_with` does inside the move, under both files' locks.
pub(crate) trait Observer {
    /// Before anything is appended: the block to append instead of `block` (the source's
    /// lines, each ending with a newline), or `None` for `block` as it is.
    fn plan(&mut self, block: &[u8], dst: &Path) -> Result<Option<Vec<u8>>>;
    /// Once `appended` is in `dst` (synced) and `src` is empty, both still locked. What
    /// fails here is the observer's own business: the move has happened.
    fn done(&mut self, appended: &[u8]);
}

/// The plain move: everything, or what `dst` does not hold yet.
#[cfg(test)]
struct Dedupe(bool);

#[cfg(test)]
impl Observer for Dedupe {
    fn plan(&mut self, block: &[u8], dst: &Path) -> Result<Option<Vec<u8>>> {
        if self.0 {
            filter_known(block, dst).map(Some)
        } else {
            Ok(None)
        }
    }

    fn done(&mut self, _: &[u8]) {}
}

/// What one move did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Moved {
    /// Lines appended to the destination.
    pub(crate) lines: usize,
    /// Whether lines are left in the source (a move with a limit took a slice).
    pub(crate) left: bool,
}

/// `drain`, with `observer` deciding what is appended and hearing about it once done. With
/// `limit`, at most about that many bytes of `src` move (whole lines; a longer first line
/// whole): the lines moved stay in `src`, which a cursor beside it marks as moved
/// (`cursor`), until the last slice empties it.
pub(crate) fn drain_with(
    src: &Path,
    dst: &Path,
    mode: u32,
    observer: &mut dyn Observer,
    limit: Option<u64>,
) -> Result<Moved> {
    let f = match OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(src)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Moved::default()),
        Err(e) => return Err(Error::io("open", src, e)),
    };
    f.lock().map_err(|e| Error::io("lock", src, e))?;
    let result = drain_locked(&f, src, dst, mode, observer, limit);
    let _ = f.unlock();
    result
}

fn drain_locked(
    f: &std::fs::File,
    src: &Path,
    dst: &Path,
    mode: u32,
    observer: &mut dyn Observer,
    limit: Option<u64>,
) -> Result<Moved> {
    let len = f.metadata().map_err(|e| Error::io("stat", src, e))?.len();
    let start = cursor::start(src, f, len);
    if start >= len {
        if start > 0 {
            // Every line moved, the file not emptied yet (a move killed in between).
            f.set_len(0).map_err(|e| Error::io("truncate", src, e))?;
            cursor::remove(src);
        }
        return Ok(Moved::default());
    }
    fault::pause_at("move:locked");
    let (mut block, end) = slice::read(f, src, start, len, limit)?;
    // A torn last line (a writer died mid-write) is kept whole by adding its newline.
    if block.last() != Some(&b'\n') {
        block.push(b'\n');
    }
    let mut out = open_append(dst, mode)?;
    out.lock().map_err(|e| Error::io("lock", dst, e))?;
    // The destination stays locked until the source is cut and the observer is done, so
    // a reader that takes either lock sees the move whole or not at all.
    let moved = (|| {
        // What a move killed half-way left: a torn last line (its record is still in the
        // source), and lines appended whose source was not cut yet.
        slice::repair_torn_end(&out, dst)?;
        fault::pause_at("move:repaired");
        let skip = slice::already_appended(&out, dst, &block);
        let fresh = &block[skip..];
        let planned = observer.plan(fresh, dst)?;
        let block = planned.as_deref().unwrap_or(fresh);
        let lines = memchr::memchr_iter(b'\n', block).count();
        slice::append(&mut out, dst, block)?;
        fault::pause_at("move:appended");
        out.sync_data().map_err(|e| Error::io("sync", dst, e))?;
        fault::pause_at("move:synced");
        let left = end < len;
        if left {
            cursor::write(src, f, end, mode)?;
        } else {
            f.set_len(0).map_err(|e| Error::io("truncate", src, e))?;
            cursor::remove(src);
        }
        fault::pause_at("move:cut");
        observer.done(block);
        Ok(Moved { lines, left })
    })();
    let _ = out.unlock();
    moved
}

/// The lines of `block` whose `id` is not yet in `dst` (lines without an id are kept).
pub(crate) fn filter_known(block: &[u8], dst: &Path) -> Result<Vec<u8>> {
    let mut known: HashSet<String> = HashSet::new();
    let existing = fsx::read_bytes_limited(dst, fsx::Limit::LOG)?.unwrap_or_default();
    for line in existing.split(|&b| b == b'\n') {
        if let Some(id) = id_of(line) {
            known.insert(id);
        }
    }
    Ok(keep_new(block, &mut known).0)
}

/// The lines of `block` (each ending with a newline) whose record `id` is not in `known`,
/// which takes the ids kept (so a repeat within the block goes too); empty lines go as well.
/// Also the 1-based numbers of the lines left out.
pub(crate) fn keep_new(block: &[u8], known: &mut HashSet<String>) -> (Vec<u8>, Vec<u64>) {
    let mut out = Vec::with_capacity(block.len());
    let mut dropped = Vec::new();
    let body = block.strip_suffix(b"\n").unwrap_or(block);
    for (n, line) in (1u64..).zip(body.split(|&b| b == b'\n')) {
        if block.is_empty() {
            break;
        }
        let repeat = id_of(line).is_some_and(|id| !known.insert(id));
        if line.is_empty() || repeat {
            dropped.push(n);
            continue;
        }
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    (out, dropped)
}

fn id_of(line: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Id {
        id: Option<String>,
    }
    serde_json::from_slice::<Id>(line).ok()?.id
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;
    use crate::core::fsx;

    #[test]
    fn corrupt_line_is_reported_with_its_number() {
        let mut r: Records = Records::default();
        r.add_text("{\"a\":1}\n{torn\n\n[1]\n{\"a\":2}\n", "x/trail");
        assert_eq!(r.records.len(), 2);
        assert_eq!(r.problems.len(), 2);
        assert!(
            r.problems[0].starts_with("x/trail:2: not valid JSON"),
            "{:?}",
            r.problems
        );
        assert!(r.problems[1].starts_with("x/trail:4: not a JSON object"));
    }

    #[test]
    fn a_record_with_a_bad_timestamp_is_reported_and_skipped() {
        let mut r: Records = Records::default();
        r.add_text(
            "{\"id\":\"a\",\"ts\":\"2026-11-30T10:15:00.000Z\"}\n{\"id\":\"b\",\"ts\":\"2026-11-28T1é:00\"}\n{\"id\":\"c\",\"ts\":7}\n{\"id\":\"d\"}\n",
            "x/trail",
        );
        let ids: Vec<&str> = r.records.iter().map(Record::id).collect();
        assert_eq!(ids, vec!["a", "d"]);
        assert_eq!(r.problems.len(), 2);
        assert!(
            r.problems[0].starts_with("x/trail:2: bad timestamp"),
            "{:?}",
            r.problems
        );
        assert!(r.problems[1].starts_with("x/trail:3: bad timestamp"));
    }

    #[test]
    fn same_id_collapses_later_wins() {
        let mut r: Records = Records::default();
        r.add_text(
            "{\"id\":\"a\",\"tool\":\"1\"}\n{\"tool\":\"9\"}\n{\"id\":\"b\"}\n{\"id\":\"a\",\"tool\":\"2\"}\n",
            "t",
        );
        r.dedupe();
        assert_eq!(r.records.len(), 3);
        assert_eq!(r.records[0].tool(), "2");
        assert_eq!(r.records[1].tool(), "9");
        assert_eq!(r.records[2].id(), "b");
    }

    /// Moves in slices, with lines appended between them and moves cut short the ways a
    /// kill leaves them (the slice appended but the source not cut; half of it written): at
    /// the end the destination holds every line once, in order.
    #[test]
    fn issue_37_slices_killed_half_way_lose_and_double_nothing() {
        use crate::core::clock::Xorshift as Rng;
        let t = tempfile::tempdir().unwrap();
        let (src, dst) = (t.path().join("b"), t.path().join("p"));
        let mut rng = Rng::new(0x5EED_1234_ABCD_0001);
        let mut n = 0;
        let add = |k: usize, n: &mut usize| {
            for _ in 0..k {
                fsx::append_line(
                    &src,
                    &format!("{{\"id\":\"r{n}\",\"pad\":\"{}\"}}", "x".repeat(*n % 37)),
                    0o600,
                )
                .unwrap();
                *n += 1;
            }
        };
        add(40, &mut n);
        for round in 0..60 {
            add(rng.below(8), &mut n);
            if round % 4 == 1 {
                // A move killed after its append (whole, or half of it): what it would have
                // appended, by hand.
                let len = std::fs::metadata(&src).unwrap().len();
                let f = std::fs::File::open(&src).unwrap();
                let start = cursor::start(&src, &f, len);
                let (block, _) = slice::read(&f, &src, start, len, Some(100)).unwrap();
                let cut = if round % 8 == 1 {
                    block.len()
                } else {
                    block.len() / 2
                };
                let mut out = std::fs::OpenOptions::new()
                    .append(true)
                    .create(true)
                    .open(&dst)
                    .unwrap();
                std::io::Write::write_all(&mut out, &block[..cut]).unwrap();
            }
            drain_with(&src, &dst, 0o600, &mut Dedupe(false), Some(100)).unwrap();
        }
        while drain_with(&src, &dst, 0o600, &mut Dedupe(false), Some(100))
            .unwrap()
            .left
        {}
        let out = std::fs::read_to_string(&dst).unwrap();
        let ids: Vec<String> = out
            .lines()
            .map(|l| l.split('"').nth(3).unwrap().to_string())
            .collect();
        let expected: Vec<String> = (0..n).map(|i| format!("r{i}")).collect();
        assert_eq!(ids, expected);
        assert_eq!(std::fs::read(&src).unwrap().len(), 0);
        assert!(!cursor::path_of(&src).exists());
    }

    #[test]
    fn drain_moves_everything_and_rerun_adds_nothing_twice() {
        let t = tempfile::tempdir().unwrap();
        let (src, dst) = (t.path().join("p"), t.path().join("t"));
        for i in 0..3 {
            fsx::append_line(&src, &format!("{{\"id\":\"r{i}\"}}"), 0o600).unwrap();
        }
        fsx::append_line(&dst, "{\"id\":\"r0\"}", 0o600).unwrap();
        assert_eq!(drain(&src, &dst, 0o600, true).unwrap(), 2);
        assert_eq!(std::fs::read_to_string(&src).unwrap(), "");
        assert_eq!(std::fs::read_to_string(&dst).unwrap().lines().count(), 3);
        assert_eq!(drain(&src, &dst, 0o600, true).unwrap(), 0);
        assert_eq!(drain(&t.path().join("none"), &dst, 0o600, true).unwrap(), 0);
    }
}
