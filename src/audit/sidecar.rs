//! `runs/<id>/summary.json`: a running summary of the records a session has moved out of its
//! buffer (into `audit_pending.jsonl`, and at `end` into `audit_trail.jsonl`), so the session
//! start's recap, the PreCompact checkpoint's changed files and `end`'s summary read one small
//! file plus the buffer, never the whole trail (principle 1: nothing on the hook path grows
//! with history).
//!
//! It holds the session's figures (`Stats`: counts by type and tool, files changed with their
//! edits, failures, corrections, first and last time, per day), the changed files in the order
//! they were first changed, the last records, the ids of the last few records (a record moved
//! twice collapses, as a read of the files collapses it), and the unreadable lines.
//!
//! It is updated where the buffer moves, inside the move (`trail::drain_with`, under the locks
//! of the buffer and the pending file): never on PostToolUse, which stays one append. A Stop
//! (after every turn) leaves it behind, and folds only at a session's first move and when the
//! pending file grows past a multiple of `FOLD_EVERY` (32 KB); PreCompact, SessionEnd and
//! `end` fold at once. It is derived data, so it is written without fsync: what a crash costs
//! is a rebuild. Each write records the pending file's and the trail's size, inode and mtime,
//! and a hash of the pending file's last 64 bytes. A summary whose pending file has only grown
//! since (same inode, those bytes the same) is caught up: the reader folds what was appended
//! after its mark (a reader holding the pending file's lock also saves it). A summary whose
//! marks differ otherwise from the files (a hand edit, a union merge, a session from before
//! this format) is stale. The CLI then rebuilds it from the files, once; a hook rebuilds it
//! only when the files are small, and otherwise reads a bounded tail (`View::records` is then
//! unknown).

use super::record::{self, Kind, Record, INPUT_SHOWN};
use super::stats::Stats;
use super::store::{BUFFER, PENDING, SIDECAR, TRAIL};
use super::trail::{self, Observer};
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::hash::fnv1a;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet, VecDeque};
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// The format; another one is stale.
const VERSION: u32 = 2;
/// Records kept for the recap.
const LAST: usize = 20;
/// Ids of the last records kept: a record moved again within this window collapses.
const RECENT: usize = 256;
/// Unreadable lines kept by position (beyond that only counted; `end` then reads the files).
const MAX_PROBLEMS: usize = 100;
/// A hook rebuilds a stale summary only when the pending file and the trail are this small.
const HOOK_REBUILD_MAX: u64 = 1024 * 1024;
/// What a hook reads of the pending file's end and of the buffer when the summary is stale
/// or the buffer is large.
const HOOK_TAIL: u64 = 256 * 1024;
/// The most of a buffer a hook reads.
const HOOK_BUFFER_MAX: u64 = 8 * 1024 * 1024;
/// A Stop folds what it moved into the summary only when the pending file grows past a
/// multiple of this; below, the summary stays behind and the next reader or move catches up
/// (folds what was appended since its mark), so a reader folds less than this much, and a
/// Stop neither reads nor writes the summary.
const FOLD_EVERY: u64 = 32 * 1024;
/// The most a catch-up folds; a summary further behind is stale.
const CATCH_UP_MAX: u64 = HOOK_BUFFER_MAX;
/// The bytes before a summary's mark on the pending file it keeps a hash of: a catch-up
/// checks them, to know the file only grew since.
const GUARD: usize = 64;

/// A file as the summary last saw it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Mark {
    len: u64,
    ino: u64,
    mtime_ns: i64,
}

impl Mark {
    /// Whether `now` is the file this mark was taken of, unchanged. An empty file holds no
    /// records whatever its inode and time (a move creates its destination before writing).
    fn same(&self, now: &Mark) -> bool {
        self.len == now.len
            && (self.len == 0 || (self.ino, self.mtime_ns) == (now.ino, now.mtime_ns))
    }

    /// The mark of `path` now (all zero when it is missing).
    fn of(path: &Path) -> Mark {
        std::fs::symlink_metadata(path).map_or_else(
            |_| Mark::default(),
            |m| Mark {
                len: m.len(),
                ino: m.ino(),
                mtime_ns: m.mtime().saturating_mul(1_000_000_000) + m.mtime_nsec(),
            },
        )
    }
}

/// An unreadable line: the file (`audit_pending.jsonl` or `audit_trail.jsonl`), its 1-based
/// line, why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Problem {
    file: String,
    line: u64,
    why: String,
}

/// One of the last records: its id, a hash of its line, whether the trail has it yet.
/// Written as one string, `<hash: 16 hex digits><t|p><id>`: a summary holds `RECENT` of
/// them, and every reader parses them all (as objects they took most of its time).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Recent {
    id: String,
    hash: u64,
    in_trail: bool,
}

impl Serialize for Recent {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let flag = if self.in_trail { 't' } else { 'p' };
        s.collect_str(&format_args!("{:016x}{flag}{}", self.hash, self.id))
    }
}

impl<'de> Deserialize<'de> for Recent {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Recent, D::Error> {
        struct Text;
        impl serde::de::Visitor<'_> for Text {
            type Value = Recent;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string: 16 hex digits, t or p, an id")
            }

            fn visit_str<E: serde::de::Error>(self, s: &str) -> std::result::Result<Recent, E> {
                let bad = || E::invalid_value(serde::de::Unexpected::Str(s), &self);
                let hash = s
                    .get(..16)
                    .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                    .and_then(|h| u64::from_str_radix(h, 16).ok())
                    .ok_or_else(bad)?;
                let in_trail = match s.as_bytes().get(16) {
                    Some(b't') => true,
                    Some(b'p') => false,
                    _ => return Err(bad()),
                };
                Ok(Recent {
                    id: s[17..].to_string(),
                    hash,
                    in_trail,
                })
            }
        }
        d.deserialize_str(Text)
    }
}

/// One of the last records, as its JSON.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(transparent)]
struct Last(Box<serde_json::value::RawValue>);

impl PartialEq for Last {
    fn eq(&self, other: &Last) -> bool {
        self.0.get() == other.0.get()
    }
}

/// The summary of one session's moved records.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Sidecar {
    version: u32,
    pending: Mark,
    trail: Mark,
    /// FNV-1a of the last `GUARD` bytes of the pending file at its mark.
    pending_end: u64,
    /// Lines of the pending file and of the trail, blank and unreadable ones included (line
    /// numbers of problems).
    pending_lines: u64,
    trail_lines: u64,
    stats: Stats,
    /// Changed files in the order they were first changed.
    changed: Vec<String>,
    /// `change` records that name no file (Bash commands whose target is not known).
    pathless_changes: u64,
    /// The last records, oldest first, as JSON kept unparsed (a move reads and writes the
    /// summary but never looks at them; the view parses them).
    last: VecDeque<Last>,
    /// The ids of the last records, a hash of each line, and whether it is in the trail yet
    /// (else in the pending file).
    recent: VecDeque<Recent>,
    problems: Vec<Problem>,
    problem_count: u64,
    /// False once a record came again with other content (a read of the files keeps the later
    /// one; this summary kept the first): `end` then reads the files.
    exact: bool,
}

impl Sidecar {
    fn new() -> Sidecar {
        Sidecar {
            version: VERSION,
            exact: true,
            ..Sidecar::default()
        }
    }

    /// The records folded in (after collapsing repeats).
    pub(crate) fn records(&self) -> u64 {
        self.stats.records
    }

    /// The figures as shown, with `persisted` marks applied.
    pub(crate) fn stats(&self, persisted: &HashMap<String, Vec<String>>) -> Stats {
        self.stats.clone().finish(self.problem_count, persisted)
    }

    /// Changed files, first-change order.
    pub(crate) fn changed(&self) -> &[String] {
        &self.changed
    }

    /// `change` records that name no file.
    pub(crate) fn pathless_changes(&self) -> u64 {
        self.pathless_changes
    }

    /// The unreadable lines as a read of the files names them (`id/file:line: why; skipped`).
    pub(crate) fn problems(&self, id: &str) -> Vec<String> {
        self.problems
            .iter()
            .map(|p| format!("{id}/{}:{}: {}; skipped", p.file, p.line, p.why))
            .collect()
    }

    /// Whether these figures are what a read of the files would give (every repeat was the
    /// same record, every unreadable line is listed).
    pub(crate) fn exact(&self) -> bool {
        self.exact && self.problem_count == self.problems.len() as u64
    }

    /// Brings the summary up to the files of `dir` when they are what it saw, the pending
    /// file perhaps grown since (records a move appended without folding them): folds what
    /// was appended after its mark. Returns whether the summary
    /// now describes the files; false when it is stale (another trail, a pending file
    /// rewritten, replaced or shrunk, too far behind).
    fn catch_up(&mut self, dir: &Path) -> bool {
        if self.version != VERSION || !self.trail.same(&Mark::of(&dir.join(TRAIL))) {
            return false;
        }
        let path = dir.join(PENDING);
        let now = Mark::of(&path);
        if self.pending.same(&now) {
            return true;
        }
        // Not grown, yet not what it saw: rewritten (a grown file is checked below).
        let seen = self.pending.len;
        if now.len <= seen
            || (seen > 0 && now.ino != self.pending.ino)
            || now.len - seen > CATCH_UP_MAX
        {
            return false;
        }
        let from = seen.saturating_sub(GUARD as u64);
        let Some(bytes) = read_range(&path, from, now.len - from) else {
            return false;
        };
        let Ok(known) = usize::try_from(seen - from) else {
            return false;
        };
        // Only a move appends to the pending file, under the locks every reader takes (the
        // buffer's) or every saver holds (the pending file's): a last line without its newline
        // is what a move killed half-way left, which a rebuild reads as a read does.
        if bytes.len() as u64 != now.len - from
            || bytes.last() != Some(&b'\n')
            || fnv1a(&bytes[..known]) != self.pending_end
        {
            return false;
        }
        self.fold(&bytes[known..], PENDING);
        self.pending = now;
        self.pending_end = fnv1a(&bytes[bytes.len().saturating_sub(GUARD)..]);
        true
    }

    /// Folds the lines of `block`, appended to `file` (the pending file or the trail).
    fn fold(&mut self, block: &[u8], file: &str) {
        for line in lines(block) {
            let n = if file == TRAIL {
                self.trail_lines += 1;
                self.trail_lines
            } else {
                self.pending_lines += 1;
                self.pending_lines
            };
            let text = String::from_utf8_lossy(line);
            if text.trim().is_empty() {
                continue;
            }
            match record::parse::<Record>(&text) {
                Ok(r) => self.add(&r, fnv1a(line), file == TRAIL),
                Err(why) => self.problem(file, n, why),
            }
        }
    }

    /// Adds one record, unless its id came within the last `RECENT` records.
    fn add(&mut self, r: &Record, hash: u64, in_trail: bool) {
        if let Some(id) = r.id.as_deref() {
            if let Some(seen) = self.recent.iter().find(|x| x.id == id) {
                self.exact &= seen.hash == hash;
                return;
            }
            self.recent.push_back(Recent {
                id: id.to_string(),
                hash,
                in_trail,
            });
            if self.recent.len() > RECENT {
                self.recent.pop_front();
            }
        }
        self.count(r);
        // Shown (a recap, recover): a long command clipped, so the summary stays small.
        let shown = (r.input().len() > INPUT_SHOWN).then(|| Record {
            input: Some(r.input_line()),
            ..r.clone()
        });
        if let Ok(raw) = serde_json::value::to_raw_value(shown.as_ref().unwrap_or(r)) {
            self.last.push_back(Last(raw));
        }
        if self.last.len() > LAST {
            self.last.pop_front();
        }
    }

    /// Counts a record in the figures and the changed files.
    fn count(&mut self, r: &Record) {
        let paths = r.changed_paths();
        for p in &paths {
            if !self.stats.files.contains_key(*p) && !self.changed.iter().any(|c| c == p) {
                self.changed.push((*p).to_string());
            }
        }
        if paths.is_empty() && r.kind == Kind::Change {
            self.pathless_changes += 1;
        }
        self.stats.add(r);
    }

    fn problem(&mut self, file: &str, line: u64, why: String) {
        self.problem_count += 1;
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(Problem {
                file: file.to_string(),
                line,
                why,
            });
        }
    }

    /// The pending file's lines went to the end of the trail, but for the lines numbered
    /// `dropped` (empty lines, and records the trail had): problems are renumbered.
    fn pending_to_trail(&mut self, dropped: &[u64]) {
        for p in &mut self.problems {
            if p.file == PENDING {
                let before = dropped.iter().filter(|&&d| d < p.line).count() as u64;
                p.file = TRAIL.to_string();
                p.line = self.trail_lines + p.line - before;
            }
        }
        for r in &mut self.recent {
            r.in_trail = true;
        }
        self.trail_lines += self.pending_lines.saturating_sub(dropped.len() as u64);
        self.pending_lines = 0;
    }

    /// Takes the marks of the files of `dir` as they are now (a move, under its locks) and
    /// writes the summary.
    fn save(&mut self, dir: &Path, mode: u32) {
        let pending = dir.join(PENDING);
        self.pending = Mark::of(&pending);
        self.trail = Mark::of(&dir.join(TRAIL));
        self.pending_end = end_hash(&pending, self.pending.len);
        self.write(dir, mode);
    }

    /// Writes the summary with the marks it has (errors are ignored: it is derived, a later
    /// read rebuilds it).
    fn write(&self, dir: &Path, mode: u32) {
        if let Ok(mut bytes) = serde_json::to_vec(self) {
            bytes.push(b'\n');
            let _ = fsx::replace_file(&dir.join(SIDECAR), &bytes, mode);
        }
    }
}

/// The lines of `block` (each ended by a newline; a last line without one counts too).
fn lines(block: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = block.strip_suffix(b"\n").unwrap_or(block);
    body.split(|&b| b == b'\n')
        .filter(move |_| !block.is_empty())
}

/// The summary of `dir` brought up to the files as they are now (`Sidecar::catch_up`), and
/// whether that folded anything; `None` when it is missing or stale.
fn load_current(dir: &Path) -> Option<(Sidecar, bool)> {
    let path = dir.join(SIDECAR);
    let bytes = fsx::read_bytes_limited(&path, fsx::Limit::STATE).ok()??;
    let mut side = serde_json::from_slice::<Sidecar>(&bytes).ok()?;
    let before = side.pending.clone();
    side.catch_up(dir).then(|| {
        let folded = side.pending != before;
        (side, folded)
    })
}

/// `len` bytes of `path` from byte `from` (fewer at its end); `None` when it cannot be read.
fn read_range(path: &Path, from: u64, len: u64) -> Option<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = fsx::open_regular(path).ok()??;
    f.seek(SeekFrom::Start(from)).ok()?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).ok()?);
    f.take(len).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// FNV-1a of the last `GUARD` bytes of the first `len` of `path` (0, which no hash of them
/// is, when they cannot be read: a catch-up then finds the summary stale).
fn end_hash(path: &Path, len: u64) -> u64 {
    let from = len.saturating_sub(GUARD as u64);
    match read_range(path, from, len - from) {
        Some(b) if b.len() as u64 == len - from => fnv1a(&b),
        _ if len == 0 => fnv1a(b""),
        _ => 0,
    }
}

/// The summary rebuilt from the trail and the pending file: every line read, repeats
/// collapsed as a read of the files collapses them (the later one wins, in the earlier's
/// place), so it is exact.
fn rebuild(dir: &Path) -> Result<Sidecar> {
    let mut side = Sidecar::new();
    let mut read: Vec<(Record, u64)> = Vec::new();
    let mut in_trail: HashSet<String> = HashSet::new();
    for file in [TRAIL, PENDING] {
        let Some(text) = fsx::read_lossy(&dir.join(file), fsx::Limit::LOG)? else {
            continue;
        };
        let mut n = 0u64;
        for line in text.lines() {
            n += 1;
            if line.trim().is_empty() {
                continue;
            }
            match record::parse::<Record>(line) {
                Ok(r) => {
                    if file == TRAIL {
                        in_trail.extend(r.id.clone());
                    }
                    read.push((r, fnv1a(line.as_bytes())));
                }
                Err(why) => side.problem(file, n, why),
            }
        }
        if file == TRAIL {
            side.trail_lines = n;
        } else {
            side.pending_lines = n;
        }
    }
    let mut last_of: HashMap<String, usize> = HashMap::new();
    for (i, (r, _)) in read.iter().enumerate() {
        if let Some(id) = &r.id {
            last_of.insert(id.clone(), i);
        }
    }
    let mut slots: Vec<Option<(Record, u64)>> = read.into_iter().map(Some).collect();
    for i in 0..slots.len() {
        let source = match slots[i].as_ref().and_then(|(r, _)| r.id.clone()) {
            None => i,
            Some(id) => match last_of.remove(&id) {
                Some(later) => later,
                None => continue,
            },
        };
        if let Some((r, hash)) = slots[source].take() {
            let trail = r.id.as_ref().is_some_and(|id| in_trail.contains(id));
            side.add(&r, hash, trail);
        }
    }
    Ok(side)
}

/// The size of the pending file and the trail of `dir`.
fn moved_size(dir: &Path) -> u64 {
    Mark::of(&dir.join(PENDING)).len + Mark::of(&dir.join(TRAIL)).len
}

/// Who is asking: a hook (bounded: rebuilds only small files) or a command (rebuilds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Caller {
    Hook,
    Command,
}

impl Caller {
    fn may_rebuild(self, dir: &Path) -> bool {
        self == Caller::Command || moved_size(dir) <= HOOK_REBUILD_MAX
    }
}

/// When a move of the buffer folds what it moved into the summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fold {
    /// At once (PreCompact, SessionEnd, `end`: a reader follows, or the session ends).
    Now,
    /// Only when the pending file grows past a multiple of `FOLD_EVERY` (Stop, after every
    /// turn): else the summary stays behind, and the next reader or move catches up.
    WhenDue,
}

/// The move of the buffer to the pending file, folding what moved into the summary.
struct Flush<'a> {
    dir: &'a Path,
    mode: u32,
    caller: Caller,
    fold: Fold,
    /// The summary as it was before the move (caught up, or rebuilt), when this move folds.
    side: Option<Sidecar>,
}

impl Observer for Flush<'_> {
    fn plan(&mut self, block: &[u8], _: &Path) -> Result<Option<Vec<u8>>> {
        // A session's first move writes its summary whatever `fold` says, so a reader never
        // has to rebuild one.
        if self.fold == Fold::WhenDue && fs::symlink_metadata(self.dir.join(SIDECAR)).is_ok() {
            let before = Mark::of(&self.dir.join(PENDING)).len;
            let after = before + block.len() as u64;
            if before / FOLD_EVERY == after / FOLD_EVERY {
                return Ok(None);
            }
        }
        self.side = load_current(self.dir).map(|(s, _)| s).or_else(|| {
            self.caller
                .may_rebuild(self.dir)
                .then(|| rebuild(self.dir).ok())
                .flatten()
        });
        Ok(None)
    }

    fn done(&mut self, appended: &[u8]) {
        if let Some(side) = &mut self.side {
            side.fold(appended, PENDING);
            side.save(self.dir, self.mode);
        }
    }
}

/// The most of a buffer one hook moves (whole lines): a Stop after a turn that piled up
/// millions of records moves this much, in well under a second, and the next ones move the
/// rest (`trail::drain_with`, `cursor`).
pub(crate) const MOVE_MAX: u64 = 4 * 1024 * 1024;

/// Moves the buffer of the session in `dir` to its pending file (Stop, PreCompact, SessionEnd,
/// `end`), folding what moved into the summary as `fold` says: a hook at most `MOVE_MAX` bytes
/// of it, a command all of it (slice by slice). Returns the lines moved.
pub(crate) fn flush(dir: &Path, mode: u32, caller: Caller, fold: Fold) -> Result<usize> {
    let mut lines = 0;
    loop {
        let mut flush = Flush {
            dir,
            mode,
            caller,
            fold,
            side: None,
        };
        let moved = trail::drain_with(
            &dir.join(BUFFER),
            &dir.join(PENDING),
            mode,
            &mut flush,
            Some(MOVE_MAX),
        )?;
        lines += moved.lines;
        if caller == Caller::Hook || !moved.left {
            return Ok(lines);
        }
    }
}

/// The move of the pending file to the trail.
struct Settle<'a> {
    dir: &'a Path,
    mode: u32,
    side: Option<Sidecar>,
    dropped: Vec<u64>,
}

impl Observer for Settle<'_> {
    fn plan(&mut self, block: &[u8], dst: &Path) -> Result<Option<Vec<u8>>> {
        // Lines whose record the trail has are left out (a late hook's repeat, a rerun after a
        // crash). A summary that matches the files knows the trail's last records; one that
        // does not means a move may have died half-way, so the trail is read.
        self.side = load_current(self.dir).map(|(s, _)| s);
        let Some(side) = &self.side else {
            return trail::filter_known(block, dst).map(Some);
        };
        let mut known: HashSet<String> = side
            .recent
            .iter()
            .filter(|r| r.in_trail)
            .map(|r| r.id.clone())
            .collect();
        let (kept, dropped) = trail::keep_new(block, &mut known);
        self.dropped = dropped;
        Ok(Some(kept))
    }

    fn done(&mut self, _: &[u8]) {
        if let Some(side) = &mut self.side {
            side.pending_to_trail(&self.dropped);
            side.save(self.dir, self.mode);
        }
    }
}

/// Moves the pending file of the session in `dir` to its trail, dropping lines whose id the
/// trail has (a rerun after a crash). Returns the lines appended.
pub(crate) fn settle(dir: &Path, mode: u32) -> Result<usize> {
    let mut settle = Settle {
        dir,
        mode,
        side: None,
        dropped: Vec::new(),
    };
    trail::drain_with(
        &dir.join(PENDING),
        &dir.join(TRAIL),
        mode,
        &mut settle,
        None,
    )
    .map(|m| m.lines)
}

/// The summary of the session in `dir`, rebuilt from the files when stale (and, with
/// `exact`, when it is not what a read of the files gives) if `caller` may: a command always
/// (the rebuild reads the whole trail, once), a hook only over small files (`None` then).
/// Taken under the pending file's lock (when there is one), so no move runs meanwhile; a
/// rebuilt summary carries the marks the files had before they were read, so one that a move
/// without the lock overtook is stale, never wrong.
pub(crate) fn current(
    dir: &Path,
    mode: u32,
    caller: Caller,
    exact: bool,
) -> Result<Option<Sidecar>> {
    let _held = lock(&dir.join(PENDING))?;
    if let Some((mut side, folded)) = load_current(dir).filter(|(s, _)| !exact || s.exact()) {
        if folded {
            side.save(dir, mode);
        }
        return Ok(Some(side));
    }
    if !caller.may_rebuild(dir) {
        return Ok(None);
    }
    let (pending, trail) = (Mark::of(&dir.join(PENDING)), Mark::of(&dir.join(TRAIL)));
    let mut side = rebuild(dir)?;
    side.pending_end = end_hash(&dir.join(PENDING), pending.len);
    side.pending = pending;
    side.trail = trail;
    side.write(dir, mode);
    Ok(Some(side))
}

/// Locks the file at `path` when it is there (never through a symlink; a read creates
/// nothing); the lock goes with the file.
fn lock(path: &Path) -> Result<Option<std::fs::File>> {
    use std::os::unix::fs::OpenOptionsExt;
    let f = match std::fs::OpenOptions::new()
        .append(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io("open", path, e)),
    };
    f.lock().map_err(|e| Error::io("lock", path, e))?;
    Ok(Some(f))
}

/// What a reader sees of a session: the summary plus the records still in the buffer.
#[derive(Debug, Default)]
pub(crate) struct View {
    /// Records in the session; `None` when a hook could not count them (a stale summary over
    /// large files: the recap then shows the last records it read).
    pub(crate) records: Option<u64>,
    /// The last records, oldest first.
    pub(crate) last: Vec<Record>,
    /// Changed files, first-change order (with a stale summary in a hook: those of the last
    /// records read).
    pub(crate) changed: Vec<String>,
}

/// The view of the session in `dir`: the summary (a command rebuilds a stale one; a hook
/// rebuilds it only when small, else reads the pending file's tail) and the buffer, read
/// under the buffer's lock shared, so a move in between is seen whole or not at all.
pub(crate) fn view(dir: &Path, mode: u32, caller: Caller) -> Result<View> {
    if caller == Caller::Command {
        current(dir, mode, caller, false)?;
    }
    let buffer_path = dir.join(BUFFER);
    let held = match fsx::open_regular(&buffer_path) {
        Ok(Some(f)) => {
            f.lock_shared()
                .map_err(|e| Error::io("lock", &buffer_path, e))?;
            Some(f)
        }
        Ok(None) => None,
        Err(e) => return Err(e),
    };
    let side = load_current(dir)
        .map(|(s, _)| s)
        .or_else(|| caller.may_rebuild(dir).then(|| rebuild(dir).ok()).flatten());
    let (buffer, whole) = read_unmoved(&buffer_path)?;
    drop(held);
    let mut seen: HashSet<String> = HashSet::new();
    let mut view = View::default();
    let mut moved: Vec<Record> = Vec::new();
    if let Some(s) = &side {
        seen.extend(s.recent.iter().map(|r| r.id.clone()));
        moved.extend(s.last.iter().filter_map(|l| record::parse(l.0.get()).ok()));
        view.changed.extend(s.changed.iter().cloned());
    } else {
        let (tail, _) = read_tail(&dir.join(PENDING), HOOK_TAIL)?;
        moved.extend(parse_lines(&tail).filter(|r| fresh(&mut seen, r)));
    }
    let buffered: Vec<Record> = parse_lines(&buffer)
        .filter(|r| fresh(&mut seen, r))
        .collect();
    let from_files = if side.is_some() { &[][..] } else { &moved[..] };
    let mut listed: HashSet<String> = view.changed.iter().cloned().collect();
    for p in from_files
        .iter()
        .chain(&buffered)
        .flat_map(Record::changed_paths)
    {
        if listed.insert(p.to_string()) {
            view.changed.push(p.to_string());
        }
    }
    view.records = side
        .as_ref()
        .filter(|_| whole)
        .map(|s| s.records() + buffered.len() as u64);
    moved.extend(buffered);
    let keep = moved.len().saturating_sub(LAST);
    view.last = moved.split_off(keep);
    Ok(view)
}

/// Whether `r` is the first record with its id (records without an id always are).
fn fresh(seen: &mut HashSet<String>, r: &Record) -> bool {
    r.id.as_deref().is_none_or(|i| seen.insert(i.to_string()))
}

/// The records of `text`, unreadable lines skipped.
fn parse_lines(text: &str) -> impl Iterator<Item = Record> + '_ {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| record::parse::<Record>(l).ok())
}

/// What the buffer at `path` holds that was not moved yet (a move in slices leaves the lines
/// it moved in the buffer: `cursor`), its last `HOOK_BUFFER_MAX` bytes at most, from a line
/// boundary; and whether that is all of it.
fn read_unmoved(path: &Path) -> Result<(String, bool)> {
    let from = super::cursor::unmoved_from(path);
    if from == 0 {
        return read_tail(path, HOOK_BUFFER_MAX);
    }
    let len = Mark::of(path).len;
    if len.saturating_sub(from) > HOOK_BUFFER_MAX {
        return Ok((read_tail(path, HOOK_BUFFER_MAX)?.0, false));
    }
    let bytes = read_range(path, from, len - from).unwrap_or_default();
    Ok((String::from_utf8_lossy(&bytes).into_owned(), true))
}

/// The last `max` bytes of `path` from a line boundary, and whether that is all of it
/// (a missing file: empty and whole).
fn read_tail(path: &Path, max: u64) -> Result<(String, bool)> {
    Ok(fsx::read_tail(path, max)?.unwrap_or((String::new(), true)))
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;

    /// The summary as a reader finds it (caught up), or `None` when stale.
    fn loaded(dir: &Path) -> Option<Sidecar> {
        load_current(dir).map(|(s, _)| s)
    }
    use crate::audit::trail::Records;
    use serde_json::json;
    use std::io::Write;

    fn rec(n: usize, kind: &str, extra: &serde_json::Value) -> String {
        let mut v = json!({
            "id": format!("t-{n}"),
            "ts": format!("2026-11-{:02}T{:02}:{:02}:00.000Z", 29 + n % 2, 10 + n % 12, n % 60),
            "type": kind,
            "tool": if kind == "change" { "Edit" } else { "Bash" },
            "input": format!("cmd {n}"),
            "outcome": if n.is_multiple_of(7) { "error" } else { "ok" },
            "duration_ms": n,
        });
        if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        v.to_string()
    }

    fn append(path: &Path, text: &str) {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .unwrap();
        f.write_all(text.as_bytes()).unwrap();
    }

    /// A session's lines, in batches the hooks would append between two moves.
    fn batches() -> Vec<String> {
        let mut out = Vec::new();
        for b in 0..6 {
            let mut text = String::new();
            for n in b * 40..b * 40 + 40 {
                let line = match n % 10 {
                    0 => rec(n, "change", &json!({"path": format!("src/f{}.rs", n % 7)})),
                    1 => rec(n, "change", &json!({})),
                    2 => rec(
                        n,
                        "user_correction",
                        &json!({"text": format!("no, {n}"), "persisted_to": []}),
                    ),
                    3 => rec(
                        n,
                        "conversation",
                        &json!({"text": "a prompt", "role": "user"}),
                    ),
                    _ => rec(n, "data", &json!({})),
                };
                text.push_str(&line);
                text.push('\n');
            }
            // A repeat of a record moved before (a hook that ran twice), a blank line and a
            // torn one.
            if b > 0 {
                text.push_str(&rec(b * 40 - 3, "data", &json!({})));
                text.push('\n');
            }
            text.push_str("\n{\"torn\": \n");
            out.push(text);
        }
        out
    }

    /// What a read of every file gives (the way the audit read sessions before the summary).
    fn read_all(dir: &Path) -> Records {
        let mut r: Records = Records::default();
        for file in [TRAIL, PENDING, BUFFER] {
            r.add_file(&dir.join(file), &format!("s/{file}")).unwrap();
        }
        r.dedupe();
        r
    }

    #[test]
    fn the_summary_of_moves_is_what_a_read_of_the_files_gives() {
        the_summary_is_what_a_read_gives(Fold::Now);
    }

    /// Stop's moves fold only now and then; the settle and the readers catch up.
    #[test]
    fn the_summary_of_moves_that_fold_when_due_is_what_a_read_gives() {
        the_summary_is_what_a_read_gives(Fold::WhenDue);
    }

    fn the_summary_is_what_a_read_gives(fold: Fold) {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path();
        for (i, batch) in batches().iter().enumerate() {
            append(&dir.join(BUFFER), batch);
            assert!(flush(dir, 0o600, Caller::Hook, fold).unwrap() > 0);
            if i == 3 {
                // `end` half-way through: the trail takes what moved so far.
                settle(dir, 0o600).unwrap();
            }
        }
        let side = loaded(dir).expect("kept up to date by every move");
        assert!(side.exact(), "repeats were the same records");
        let all = read_all(dir);
        let none = HashMap::new();
        assert_eq!(
            side.stats(&none),
            Stats::compute(&all.records, all.problems.len(), &none)
        );
        let mut problems = side.problems("s");
        problems.sort();
        let mut expected = all.problems.clone();
        expected.sort();
        assert_eq!(problems, expected);
        let changed: Vec<String> = {
            let mut seen = HashSet::new();
            all.records
                .iter()
                .flat_map(Record::changed_paths)
                .filter(|p| seen.insert(p.to_string()))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(side.changed(), changed.as_slice());
        assert_eq!(side.pathless_changes(), 24);
        // The rest to the trail: the lines are renumbered, the figures stay.
        settle(dir, 0o600).unwrap();
        let side = loaded(dir).unwrap();
        let all = read_all(dir);
        let mut problems = side.problems("s");
        problems.sort();
        let mut expected = all.problems.clone();
        expected.sort();
        assert_eq!(problems, expected);
        assert!(problems
            .iter()
            .all(|p| p.starts_with("s/audit_trail.jsonl:")));
        assert_eq!(rebuild(dir).unwrap().stats, side.stats);
    }

    /// Changes the byte `back` bytes before the end of `path`, in place (same inode, same
    /// length).
    fn edit_before_end(path: &Path, back: u64) {
        use std::io::{Seek, SeekFrom};
        let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
        let len = f.metadata().unwrap().len();
        f.seek(SeekFrom::Start(len - back)).unwrap();
        f.write_all(b"~").unwrap();
    }

    /// Records appended to the pending file after the summary's mark (a Stop's move, a move
    /// that died before its summary was written) are folded by the next reader, and saved by
    /// the next one that holds the lock.
    #[test]
    fn a_summary_behind_a_grown_pending_file_catches_up() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path();
        append(&dir.join(BUFFER), &batches()[0]);
        flush(dir, 0o600, Caller::Hook, Fold::Now).unwrap();
        let saved = std::fs::read(dir.join(SIDECAR)).unwrap();
        let before = loaded(dir).unwrap().records();
        append(
            &dir.join(BUFFER),
            &format!("{}\n", rec(900, "change", &json!({"path": "late.rs"}))),
        );
        flush(dir, 0o600, Caller::Hook, Fold::WhenDue).unwrap();
        assert_eq!(
            std::fs::read(dir.join(SIDECAR)).unwrap(),
            saved,
            "a Stop's small move leaves the summary as it was"
        );
        let v = view(dir, 0o600, Caller::Hook).unwrap();
        assert_eq!(v.records, Some(before + 1));
        assert_eq!(v.changed.last().map(String::as_str), Some("late.rs"));
        assert_eq!(v.last.last().unwrap().id(), "t-900");
        // A last line without its newline (a move killed half-way): stale, until it is whole.
        let half = rec(901, "data", &json!({}));
        append(&dir.join(PENDING), &half[..half.len() / 2]);
        assert!(loaded(dir).is_none());
        append(
            &dir.join(PENDING),
            &format!("{}\n", &half[half.len() / 2..]),
        );
        let side = current(dir, 0o600, Caller::Hook, false).unwrap().unwrap();
        assert_eq!(side.records(), before + 2);
        assert_ne!(std::fs::read(dir.join(SIDECAR)).unwrap(), saved, "saved");
        assert_eq!(side.stats, rebuild(dir).unwrap().stats);
        // Shrunk or replaced: stale.
        std::fs::write(dir.join(PENDING), "").unwrap();
        assert!(loaded(dir).is_none());
    }

    /// A Stop writes the summary at the session's first move and when the pending file
    /// passes a multiple of `FOLD_EVERY`; between, the summary is never more than that behind.
    #[test]
    fn a_stop_folds_when_the_pending_file_passes_a_multiple_of_fold_every() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path();
        let (mut n, mut saves) = (0, 0);
        while Mark::of(&dir.join(PENDING)).len < 3 * FOLD_EVERY {
            let first = !dir.join(SIDECAR).exists();
            let mut text = String::new();
            for i in n..n + 10 {
                text.push_str(&rec(i, "data", &json!({})));
                text.push('\n');
            }
            n += 10;
            append(&dir.join(BUFFER), &text);
            let before = Mark::of(&dir.join(PENDING)).len;
            flush(dir, 0o600, Caller::Hook, Fold::WhenDue).unwrap();
            let after = Mark::of(&dir.join(PENDING)).len;
            let summary: Sidecar =
                serde_json::from_slice(&std::fs::read(dir.join(SIDECAR)).unwrap()).unwrap();
            let due = first || before / FOLD_EVERY != after / FOLD_EVERY;
            assert_eq!(summary.pending.len == after, due, "at {after}");
            assert!(after - summary.pending.len < FOLD_EVERY);
            saves += usize::from(due);
        }
        assert_eq!(saves, 4, "the first move and three multiples");
        assert_eq!(loaded(dir).unwrap().records(), n as u64);
    }

    /// Lines `line(0)`, `line(1)` … until they are over the most a hook rebuilds; and how many.
    fn lines_over_the_rebuild_bound(line: impl Fn(usize) -> String) -> (String, usize) {
        let (mut text, mut n) = (String::new(), 0);
        while text.len() as u64 <= HOOK_REBUILD_MAX {
            text.push_str(&line(n));
            text.push('\n');
            n += 1;
        }
        (text, n)
    }

    /// A first move larger than a hook may rebuild (the setup of the 2M-record bench, a long
    /// turn) still leaves a summary: it is folded from the block, not read back.
    #[test]
    fn a_first_move_over_the_rebuild_bound_writes_the_summary() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path();
        let (text, n) = lines_over_the_rebuild_bound(|n| rec(n, "data", &json!({})));
        append(&dir.join(BUFFER), &text);
        flush(dir, 0o600, Caller::Hook, Fold::WhenDue).unwrap();
        assert_eq!(loaded(dir).unwrap().records(), n as u64);
    }

    #[test]
    fn a_stale_summary_is_rebuilt_by_a_command_and_bounded_in_a_hook() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path();
        for batch in batches() {
            append(&dir.join(BUFFER), &batch);
            flush(dir, 0o600, Caller::Hook, Fold::Now).unwrap();
        }
        // The pending file edited in place (a byte the summary saw, changed), then grown.
        edit_before_end(&dir.join(PENDING), 10);
        append(
            &dir.join(PENDING),
            &format!("{}\n", rec(900, "change", &json!({"path": "late.rs"}))),
        );
        assert!(loaded(dir).is_none(), "stale");
        let v = view(dir, 0o600, Caller::Hook).unwrap();
        assert_eq!(
            v.records,
            Some(read_all(dir).records.len() as u64),
            "small files: rebuilt"
        );
        assert!(v.changed.contains(&"late.rs".to_string()));
        assert!(loaded(dir).is_none(), "a hook's view writes nothing");
        let side = current(dir, 0o600, Caller::Command, true).unwrap().unwrap();
        assert_eq!(side.records(), read_all(dir).records.len() as u64);
        assert!(loaded(dir).is_some(), "the command wrote it");
    }

    #[test]
    fn over_large_files_a_hook_reads_only_the_tail() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path();
        let (big, n) = lines_over_the_rebuild_bound(|n| {
            let path = if n == 0 {
                "first.rs".to_string()
            } else {
                format!("f{}.rs", n % 3)
            };
            rec(n, "change", &json!({"path": path}))
        });
        std::fs::write(dir.join(PENDING), &big).unwrap();
        append(
            &dir.join(BUFFER),
            &format!("{}\n", rec(n, "data", &json!({}))),
        );
        let v = view(dir, 0o600, Caller::Hook).unwrap();
        assert_eq!(v.records, None, "not counted");
        assert_eq!(v.last.last().unwrap().id(), format!("t-{n}"));
        assert!(
            !v.changed.contains(&"first.rs".to_string()),
            "only the tail is read"
        );
        assert!(v.changed.contains(&"f1.rs".to_string()));
        let v = view(dir, 0o600, Caller::Command).unwrap();
        assert_eq!(v.records, Some(n as u64 + 1));
        assert_eq!(v.changed[0], "first.rs");
    }

    /// A command reading a session (recover, end) writes the summary it rebuilt, and creates
    /// no session file for it; a summary a move overtook is stale, never wrong.
    #[test]
    fn a_rebuild_creates_no_file_and_carries_the_marks_from_before_the_read() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path();
        std::fs::write(dir.join(TRAIL), format!("{}\n", rec(1, "data", &json!({})))).unwrap();
        let side = current(dir, 0o600, Caller::Command, true).unwrap().unwrap();
        assert_eq!(side.records(), 1);
        assert!(!dir.join(PENDING).exists() && !dir.join(BUFFER).exists());
        assert!(loaded(dir).is_some());
        append(
            &dir.join(TRAIL),
            &format!("{}\n", rec(2, "data", &json!({}))),
        );
        assert!(loaded(dir).is_none(), "the trail changed after the summary");
    }

    /// The buffer is read with the summary, and a record the summary has collapses.
    #[test]
    fn the_view_adds_the_buffer_and_collapses_repeats() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path();
        append(&dir.join(BUFFER), &batches()[0]);
        flush(dir, 0o600, Caller::Hook, Fold::Now).unwrap();
        let before = loaded(dir).unwrap().records();
        append(
            &dir.join(BUFFER),
            &format!(
                "{}\n{}\n",
                rec(5, "data", &json!({})),
                rec(1000, "change", &json!({"path": "new.rs"}))
            ),
        );
        let v = view(dir, 0o600, Caller::Hook).unwrap();
        assert_eq!(v.records, Some(before + 1));
        assert_eq!(v.changed.last().map(String::as_str), Some("new.rs"));
        assert_eq!(v.last.last().unwrap().id(), "t-1000");
        assert_eq!(v.last.len(), LAST);
    }

    /// A record repeated with other content: the summary keeps the first, a read keeps the
    /// later, so the summary says it is not exact and `end` reads the files.
    #[test]
    fn a_repeat_with_other_content_makes_the_summary_inexact() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path();
        append(
            &dir.join(BUFFER),
            &format!("{}\n", rec(1, "data", &json!({}))),
        );
        flush(dir, 0o600, Caller::Hook, Fold::Now).unwrap();
        append(
            &dir.join(BUFFER),
            &format!("{}\n", rec(1, "data", &json!({"outcome": "error"}))),
        );
        flush(dir, 0o600, Caller::Hook, Fold::Now).unwrap();
        assert!(!loaded(dir).unwrap().exact());
        let side = current(dir, 0o600, Caller::Command, true).unwrap().unwrap();
        assert!(side.exact());
        assert_eq!(
            side.stats(&HashMap::new()).errors,
            1,
            "the later one counts"
        );
    }

    #[test]
    fn a_settle_after_a_late_repeat_leaves_one_line_in_the_trail() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path();
        append(
            &dir.join(BUFFER),
            &format!(
                "{}\n{}\n",
                rec(1, "data", &json!({})),
                rec(2, "data", &json!({}))
            ),
        );
        flush(dir, 0o600, Caller::Command, Fold::Now).unwrap();
        settle(dir, 0o600).unwrap();
        append(
            &dir.join(BUFFER),
            &format!(
                "{}\n{}\n",
                rec(2, "data", &json!({})),
                rec(3, "data", &json!({}))
            ),
        );
        flush(dir, 0o600, Caller::Hook, Fold::Now).unwrap();
        assert_eq!(settle(dir, 0o600).unwrap(), 1);
        let trail = std::fs::read_to_string(dir.join(TRAIL)).unwrap();
        assert_eq!(trail.lines().count(), 3, "{trail}");
        assert_eq!(loaded(dir).unwrap().records(), 3);
    }
}
