//! Provenance: which memory entries baton wrote itself. Trust does not depend on guessing
//! phrasings: baton records, privately and per project, a digest of every entry it writes
//! (save, checkpoint, learn, the session-log lines of its hooks, review's acceptances); at
//! load an entry whose digest is not recorded — hand-edited, pulled from a teammate,
//! written by another tool — is *unreviewed*.
//!
//! **Where**: with the user, never in the repository: `$XDG_STATE_HOME/baton/provenance/`
//! (default `~/.local/state/…`), one folder per project, named by the FNV-1a of its
//! canonical root. Writes go there even when Claude Code sets `CLAUDE_PLUGIN_DATA`: hooks
//! get that variable but the commands the model or the user runs do not, and every one of
//! them must find the same ledger. `$CLAUDE_PLUGIN_DATA/provenance/` is read as well (and
//! written only where there is no home folder).
//!
//! **Format**: per memory file, `<file>.jsonl`, append-only, one line per entry:
//! `{"digest":"<sha1>","by":"save|checkpoint|learn|hook|review","ts":"…"}`, each line one
//! write under the file's advisory lock; reads are bounded (the log cap) and skip torn lines.
//!
//! **What an entry is** (`entries`): in decisions, conventions, progress and instincts one
//! `## [date] …` block (heading to the next heading); in the session log one `[date] — …`
//! line; in the cumulative and task notes one `- ` item with the section it sits in; in
//! learnings.jsonl one line; checkpoint.md and INVARIANTS.md are one entry each. The digest
//! is the SHA-1 of the file's name and the entry's text with trailing spaces, a BOM and a
//! trailing blank line dropped (so a checkout with CRLF line ends changes nothing).

use super::store;
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::hash::{fnv1a, sha1_hex, DigestSet};
use crate::core::paths;
use crate::core::project::Project;
use crate::core::time;
use chrono::{DateTime, Utc};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The memory files whose entries have provenance (what load shows).
pub(crate) const FILES: [&str; 10] = [
    store::CHECKPOINT,
    store::INVARIANTS,
    store::DECISIONS,
    store::CONVENTIONS,
    store::PROGRESS,
    store::SESSION_LOG,
    store::NOTES,
    store::TASK_NOTES,
    store::LEARNINGS,
    store::INSTINCTS,
];

/// One entry of a memory file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Its first line (1-based).
    pub(crate) line: usize,
    /// Its text (an item's section and item for the notes).
    pub(crate) text: String,
}

/// The digest of an entry of `file`.
pub(crate) fn digest(file: &str, text: &str) -> String {
    let mut norm = String::with_capacity(text.len());
    for l in text.trim_start_matches('\u{FEFF}').lines() {
        norm.push_str(l.trim_end());
        norm.push('\n');
    }
    let norm = norm.trim_end_matches('\n');
    sha1_hex(format!("baton-entry-1\0{file}\0{norm}").as_bytes())
}

/// The entries of a memory file's text (see the module doc).
pub(crate) fn entries(file: &str, text: &str) -> Vec<Entry> {
    match file {
        store::CHECKPOINT | store::INVARIANTS => {
            if text.trim().is_empty() {
                Vec::new()
            } else {
                vec![Entry {
                    line: 1,
                    text: text.to_string(),
                }]
            }
        }
        store::SESSION_LOG => lines_where(text, |l| l.starts_with('[')),
        store::LEARNINGS => lines_where(text, |l| !l.trim().is_empty()),
        store::NOTES | store::TASK_NOTES => items(text),
        store::INSTINCTS => blocks(text, |l| l.starts_with("## ") && l.contains("Instinct:")),
        _ => blocks(text, |l| l.starts_with("## [")),
    }
}

/// Where the last entry of `file`'s `text` begins (for the notes: the last section's
/// heading, which every item's entry names), so that the entries of a text that `text`
/// grew into are those of its end from there; `None` for a file that is one entry.
pub(crate) fn last_entry_start(file: &str, text: &str) -> Option<usize> {
    let line_start = |i: usize| text[..i].rfind('\n').map_or(0, |j| j + 1);
    match file {
        store::CHECKPOINT | store::INVARIANTS => None,
        store::SESSION_LOG | store::LEARNINGS => Some(line_start(text.len())),
        store::NOTES | store::TASK_NOTES => Some(heading_before(text, text.len(), |_| true)),
        store::INSTINCTS => Some(heading_before(text, text.len(), |l| {
            l.contains("Instinct:")
        })),
        _ => Some(heading_before(text, text.len(), |l| l.starts_with("## ["))),
    }
}

/// The start of the last `## ` line before `end` that `is_entry` takes; 0 when none.
fn heading_before(text: &str, end: usize, is_entry: impl Fn(&str) -> bool) -> usize {
    let mut end = end;
    while let Some(i) = text[..end].rfind("## ") {
        let at_line = i == 0 || text.as_bytes()[i - 1] == b'\n';
        let line_end = text[i..].find('\n').map_or(text.len(), |j| i + j);
        if at_line && is_entry(&text[i..line_end]) {
            return i;
        }
        end = i;
    }
    0
}

/// The entry text of a notes item (what `entries` gives for it).
pub(crate) fn item_entry(section: &str, item: &str) -> String {
    format!("{section}\n- {}", item.trim())
}

fn lines_where(text: &str, keep: impl Fn(&str) -> bool) -> Vec<Entry> {
    text.split('\n')
        .enumerate()
        .filter(|(_, l)| keep(l))
        .map(|(i, l)| Entry {
            line: i + 1,
            text: l.trim().to_string(),
        })
        .collect()
}

/// Blocks from a heading line (`starts`) to the next one, as they were written
/// (`merged::repair`); the text before the first is the file's header, not an entry.
fn blocks(text: &str, starts: impl Fn(&str) -> bool) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for (i, l) in text.split('\n').enumerate() {
        if starts(l) {
            out.push(Entry {
                line: i + 1,
                text: String::new(),
            });
        }
        if let Some(e) = out.last_mut() {
            e.text.push_str(l);
            e.text.push('\n');
        }
    }
    let pairs = out
        .into_iter()
        .map(|e| (e.line, e.text.trim_end().to_string()))
        .collect();
    super::merged::repair(pairs)
        .into_iter()
        .map(|(line, text)| Entry { line, text })
        .collect()
}

/// The `- ` items of every `## ` section, each with its section.
fn items(text: &str) -> Vec<Entry> {
    let mut section = String::new();
    let mut out = Vec::new();
    for (i, l) in text.split('\n').enumerate() {
        if let Some(h) = l.strip_prefix("## ") {
            section = h.trim().to_string();
        } else if let Some(item) = l.trim().strip_prefix("- ") {
            if !section.is_empty() {
                out.push(Entry {
                    line: i + 1,
                    text: item_entry(&section, item),
                });
            }
        }
    }
    out
}

/// One line of a ledger file; the digest first, so that reads need no parser.
#[derive(serde::Serialize)]
struct Line<'a> {
    digest: &'a str,
    by: &'a str,
    ts: &'a str,
}

/// The project's ledger.
#[derive(Debug)]
pub(crate) struct Ledger {
    /// Where this run writes (the first of the places read); `None` without a home.
    write: Option<PathBuf>,
    /// Every place read.
    read: Vec<PathBuf>,
    /// What has been read so far, per file.
    known: RefCell<HashMap<String, Known>>,
}

/// What has been read of one memory file's ledger: the digests so far (20 bytes each: a
/// large ledger is read without an allocation per line), each place read from its end. The
/// entries a load asks about are mostly the newest, recorded last, so most lookups stop in the
/// ledger's last kilobytes; a digest that is not there reads the rest, once.
#[derive(Debug, Default)]
struct Known {
    seen: DigestSet,
    /// The places not read back to their start yet, in the order they are read.
    tails: Vec<Tail>,
}

impl Known {
    /// Whether `d` is in the ledger, reading further back only until it is found.
    fn has(&mut self, d: &[u8; 20]) -> bool {
        loop {
            if self.seen.contains(d) {
                return true;
            }
            let Some(tail) = self.tails.first_mut() else {
                return false;
            };
            if !tail.read_back(&mut self.seen) {
                self.tails.remove(0);
            }
        }
    }
}

/// The first chunk read from a ledger's end; each next one is twice as large, up to
/// `LAST_CHUNK`.
const FIRST_CHUNK: u64 = 16 * 1024;
const LAST_CHUNK: u64 = 1024 * 1024;

/// One ledger file, read from its end (the part not read yet is `start..end`).
#[derive(Debug)]
struct Tail {
    file: std::fs::File,
    start: u64,
    end: u64,
    /// The end of a line whose start is further back (the next chunk back ends with it).
    rest: Vec<u8>,
    chunk: u64,
}

impl Tail {
    /// The ledger file at `path`; `None` when there is none or it cannot be read (nothing in
    /// it is known then). Only its last `Limit::LOG` bytes are read.
    fn open(path: &Path) -> Option<Tail> {
        let file = fsx::open_regular(path).ok()??;
        let end = file.metadata().ok()?.len();
        Some(Tail {
            file,
            start: end.saturating_sub(fsx::Limit::LOG.max),
            end,
            rest: Vec::new(),
            chunk: FIRST_CHUNK,
        })
    }

    /// Reads the next chunk back and puts the digests of its whole lines in `seen`; `false`
    /// once the file is read to its start.
    fn read_back(&mut self, seen: &mut DigestSet) -> bool {
        use std::os::unix::fs::FileExt;
        if self.end <= self.start {
            return false;
        }
        let n = self.chunk.min(self.end - self.start);
        let at = self.end - n;
        let mut buf = vec![0u8; usize::try_from(n).unwrap_or(0)];
        if self.file.read_exact_at(&mut buf, at).is_err() {
            // Shrunk or unreadable: what was read stays known, the rest is not.
            self.end = self.start;
            return false;
        }
        self.end = at;
        self.chunk = (self.chunk * 2).min(LAST_CHUNK);
        buf.append(&mut self.rest);
        // Before the chunk's first line break: the end of a line that starts further back.
        let whole = if self.end > self.start {
            let Some(i) = buf.iter().position(|&b| b == b'\n') else {
                self.rest = buf;
                return true;
            };
            i + 1
        } else {
            0
        };
        let body = &buf[whole..];
        let mut from = 0;
        for end in memchr::memchr_iter(b'\n', body).chain(std::iter::once(body.len())) {
            if let Some(d) = line_digest(&body[from..end]) {
                seen.insert(d);
            }
            from = end + 1;
        }
        buf.truncate(whole);
        self.rest = buf;
        self.end > self.start
    }
}

/// The digest of a ledger line; `None` for a torn or foreign line.
fn line_digest(line: &[u8]) -> Option<[u8; 20]> {
    // Lines are written with the digest first: most are read without a parser.
    if let Some(r) = line.strip_prefix(b"{\"digest\":\"") {
        if r.get(40) == Some(&b'"') {
            return raw_bytes(&r[..40]);
        }
    }
    if line.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    serde_json::from_slice::<serde_json::Value>(line)
        .ok()
        .and_then(|v| v["digest"].as_str().and_then(raw))
}

/// A digest's 40 hex digits as bytes; `None` for anything else.
fn raw(hex: &str) -> Option<[u8; 20]> {
    raw_bytes(hex.as_bytes())
}

fn raw_bytes(b: &[u8]) -> Option<[u8; 20]> {
    /// Each byte's value as a hex digit; 0xFF for any other byte.
    const NIBBLE: [u8; 256] = {
        let mut t = [0xFFu8; 256];
        let mut i: u8 = 0;
        while i < 10 {
            t[(b'0' + i) as usize] = i;
            i += 1;
        }
        let mut i: u8 = 0;
        while i < 6 {
            t[(b'a' + i) as usize] = 10 + i;
            t[(b'A' + i) as usize] = 10 + i;
            i += 1;
        }
        t
    };
    if b.len() != 40 {
        return None;
    }
    let mut out = [0u8; 20];
    let mut bad = 0u8;
    for (i, pair) in b.chunks_exact(2).enumerate() {
        let (hi, lo) = (NIBBLE[usize::from(pair[0])], NIBBLE[usize::from(pair[1])]);
        bad |= hi | lo;
        out[i] = hi << 4 | (lo & 0x0F);
    }
    (bad & 0xF0 == 0).then_some(out)
}

/// The folder of a project's ledger under a base folder.
fn folder(base: &Path, root: &Path) -> PathBuf {
    let canonical = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let key = fnv1a(canonical.to_string_lossy().as_bytes());
    base.join("provenance").join(format!("{key:016x}"))
}

impl Ledger {
    /// The ledger of `project`.
    pub(crate) fn of(project: &Project) -> Ledger {
        let env = &project.ctx.env;
        let read: Vec<PathBuf> = [paths::state_dir(env), paths::plugin_data_dir(env)]
            .into_iter()
            .flatten()
            .map(|b| folder(&b, &project.root))
            .collect();
        Ledger {
            write: read.first().cloned(),
            read,
            known: RefCell::new(HashMap::new()),
        }
    }

    /// The user's own ledger named `name` (not a project's): the cross-project store's.
    pub(crate) fn user(env: &crate::core::ctx::Env, name: &str) -> Ledger {
        let read: Vec<PathBuf> = [paths::state_dir(env), paths::plugin_data_dir(env)]
            .into_iter()
            .flatten()
            .map(|b| b.join("provenance").join(name))
            .collect();
        Ledger {
            write: read.first().cloned(),
            read,
            known: RefCell::new(HashMap::new()),
        }
    }

    /// A ledger in `dir` alone (tests).
    #[cfg(test)]
    pub(crate) fn at(dir: &Path) -> Ledger {
        Ledger {
            write: Some(dir.to_path_buf()),
            read: vec![dir.to_path_buf()],
            known: RefCell::new(HashMap::new()),
        }
    }

    /// The ledger's folders that exist (what `baton clean` lists).
    pub(crate) fn folders(&self) -> Vec<PathBuf> {
        self.read.iter().filter(|d| d.is_dir()).cloned().collect()
    }

    /// Whether baton has kept provenance for this project before (any place).
    pub(crate) fn exists(&self) -> bool {
        self.read.iter().any(|d| d.is_dir())
    }

    /// Whether the entry `text` of `file` was recorded.
    pub(crate) fn knows(&self, file: &str, text: &str) -> bool {
        self.knows_digest(file, &digest(file, text))
    }

    /// Whether `d` was recorded for `file`.
    pub(crate) fn knows_digest(&self, file: &str, d: &str) -> bool {
        let Some(d) = raw(d) else {
            return false;
        };
        let mut known = self.known.borrow_mut();
        known
            .entry(file.to_string())
            .or_insert_with(|| self.open(file))
            .has(&d)
    }

    /// `file`'s ledger in every place, nothing read yet.
    fn open(&self, file: &str) -> Known {
        Known {
            seen: DigestSet::default(),
            tails: self
                .read
                .iter()
                .filter_map(|dir| Tail::open(&dir.join(format!("{file}.jsonl"))))
                .collect(),
        }
    }

    /// Records the entries `texts` of `file` as written by baton (`by`: save, checkpoint,
    /// learn, hook, review).
    pub(crate) fn record(
        &self,
        file: &str,
        texts: &[String],
        by: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let digests: Vec<String> = texts.iter().map(|t| digest(file, t)).collect();
        self.record_digests(file, &digests, by, now)
    }

    /// Records digests of `file`.
    pub(crate) fn record_digests(
        &self,
        file: &str,
        digests: &[String],
        by: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let Some(dir) = &self.write else {
            return Ok(());
        };
        let mut once = HashSet::new();
        let fresh: Vec<&String> = digests
            .iter()
            .filter(|d| once.insert(d.as_str()) && !self.knows_digest(file, d))
            .collect();
        if fresh.is_empty() {
            return Ok(());
        }
        fsx::ensure_private_dir(dir)?;
        let path = dir.join(format!("{file}.jsonl"));
        let ts = time::rfc3339(now);
        let lines = fresh
            .iter()
            .map(|d| {
                serde_json::to_string(&Line {
                    digest: d,
                    by,
                    ts: &ts,
                })
                .map_err(|e| Error::Internal(format!("provenance line: {e}")))
            })
            .collect::<Result<Vec<String>>>()?;
        // Whole lines in one write, under the file's advisory lock (`append_lines`).
        fsx::append_lines(&path, &lines, fsx::PRIVATE_FILE)
            .map_err(|e| Error::Invalid(format!("provenance ledger {}: {e}", path.display())))?;
        let mut known = self.known.borrow_mut();
        let k = known.entry(file.to_string()).or_default();
        k.seen.extend(fresh.into_iter().filter_map(|d| raw(d)));
        Ok(())
    }

    /// Records the entries of `file` that `after` has and `before` had not (a whole-file
    /// rewrite: the new entries only, never the ones already there).
    pub(crate) fn record_added(
        &self,
        file: &str,
        before: Option<&str>,
        after: &str,
        by: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let mut old: HashMap<String, usize> = HashMap::new();
        for e in entries(file, before.unwrap_or("")) {
            *old.entry(digest(file, &e.text)).or_default() += 1;
        }
        let mut added = Vec::new();
        for e in entries(file, after) {
            let d = digest(file, &e.text);
            match old.get_mut(&d) {
                Some(n) if *n > 0 => *n -= 1,
                _ => added.push(d),
            }
        }
        self.record_digests(file, &added, by, now)
    }
}

/// Records what a command or hook wrote; a ledger that cannot be written leaves the entries
/// unreviewed (safe) and is said once on stderr by commands, never by hooks.
pub(crate) fn note(result: Result<()>, quiet: bool) {
    if let Err(e) = result {
        if !quiet {
            eprintln!("baton: warning: {e}; the entries just written will load as unreviewed");
        }
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests read what they wrote directly
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-30T10:15:00Z")
            .unwrap()
            .with_timezone(&Utc)
    }

    #[test]
    fn entries_per_file_and_digests_ignore_line_ends() {
        let d = "# Decisions Log\n\n## [2026-11-30 10:15] Decision: a\n\n**Decision:** x\n\n## [2026-11-30 10:16] Decision: b\n";
        let e = entries(store::DECISIONS, d);
        assert_eq!(e.len(), 2);
        assert_eq!((e[0].line, e[1].line), (3, 7));
        assert_eq!(
            digest(store::DECISIONS, &e[0].text),
            digest(store::DECISIONS, &e[0].text.replace('\n', "\r\n"))
        );
        assert_ne!(
            digest(store::DECISIONS, "a"),
            digest(store::CONVENTIONS, "a")
        );
        let n = entries(
            store::NOTES,
            "# N\n\n## Active Topics\n- [2026-11-30] x\n  - y\n## Other\n- z\n",
        );
        assert_eq!(n[0].text, "Active Topics\n- [2026-11-30] x");
        assert_eq!(n[2].text, item_entry("Other", "z"));
        assert_eq!(entries(store::SESSION_LOG, "# Log\n[a] — x\n").len(), 1);
    }

    #[test]
    fn recorded_entries_are_known_and_only_new_ones_are_recorded() {
        let t = tempfile::tempdir().unwrap();
        let l = Ledger::at(&t.path().join("p"));
        assert!(!l.exists());
        let before = "# Instincts\n\n## [2026-11-30] Instinct: a\n**Action:** x\n";
        let after = format!("{before}\n## [2026-11-30] Instinct: b\n**Action:** y\n");
        l.record_added(store::INSTINCTS, Some(before), &after, "save", now())
            .unwrap();
        assert!(l.exists());
        let fresh = Ledger::at(&t.path().join("p"));
        let e = entries(store::INSTINCTS, &after);
        assert!(!fresh.knows(store::INSTINCTS, &e[0].text));
        assert!(fresh.knows(store::INSTINCTS, &e[1].text));
        let text = std::fs::read_to_string(t.path().join("p/instincts.md.jsonl")).unwrap();
        assert!(text.starts_with("{\"digest\":\""), "{text}");
    }

    fn hex(i: usize) -> String {
        sha1_hex(format!("entry {i}").as_bytes())
    }

    /// A ledger of `n` lines in `dir` (some written by hand: keys in another order, CRLF),
    /// with a torn line in the middle and a last line without its line break.
    fn ledger_file(dir: &Path, file: &str, n: usize) {
        std::fs::create_dir_all(dir).unwrap();
        let mut text = String::new();
        for i in 0..n {
            let d = hex(i);
            match i % 7 {
                3 => text.push_str(&format!("{{\"by\":\"review\",\"digest\":\"{d}\"}}\n")),
                5 => text.push_str(&format!("{{\"digest\":\"{d}\",\"by\":\"save\"}}\r\n")),
                _ => text.push_str(&format!(
                    "{{\"digest\":\"{d}\",\"by\":\"hook\",\"ts\":\"2026-11-30T10:15:00Z\"}}\n"
                )),
            }
            if i == n / 2 {
                text.push_str("{\"digest\":\"0123\n\n");
            }
        }
        text.push_str(&format!("{{\"digest\":\"{}\"}}", hex(n)));
        std::fs::write(dir.join(format!("{file}.jsonl")), text).unwrap();
    }

    #[test]
    fn a_ledger_read_from_its_end_knows_every_line_in_every_place() {
        let t = tempfile::tempdir().unwrap();
        let (a, b) = (t.path().join("a"), t.path().join("b"));
        // 40,000 lines (about 3.5 MB): many chunks, lines cut at their edges.
        ledger_file(&a, store::NOTES, 40_000);
        std::fs::create_dir_all(&b).unwrap();
        std::fs::write(
            b.join(format!("{}.jsonl", store::NOTES)),
            format!("{{\"digest\":\"{}\"}}\n", hex(90_000)),
        )
        .unwrap();
        let both = || Ledger {
            write: Some(a.clone()),
            read: vec![a.clone(), b.clone()],
            known: RefCell::new(HashMap::new()),
        };
        // Every line, newest first (each chunk's cut lines are asked for), then samples
        // oldest first and with an absent one first (which reads everything at once).
        let mut asked: Vec<(usize, bool)> = (0..=40_000).map(|i| (i, true)).collect();
        asked.extend([(90_000, true), (40_001, false), (90_001, false)]);
        let newest_first: Vec<(usize, bool)> = asked.iter().rev().copied().collect();
        let sample: Vec<(usize, bool)> = asked.iter().step_by(997).copied().collect();
        let mut absent_first = sample.clone();
        absent_first.insert(0, (40_001, false));
        let orders = [newest_first, sample, absent_first];
        for order in orders {
            let l = both();
            for (i, want) in &order {
                assert_eq!(l.knows_digest(store::NOTES, &hex(*i)), *want, "entry {i}");
            }
        }
        assert!(!both().knows_digest(store::NOTES, "0123"));
        assert!(!both().knows_digest(store::DECISIONS, &hex(1)));
    }

    #[test]
    fn a_recent_digest_is_found_in_the_ledger_s_last_chunk() {
        let t = tempfile::tempdir().unwrap();
        ledger_file(t.path(), store::NOTES, 40_000);
        let l = Ledger::at(t.path());
        assert!(l.knows_digest(store::NOTES, &hex(39_990)));
        let known = l.known.borrow();
        let tail = &known[store::NOTES].tails[0];
        assert!(tail.end > 3_000_000, "read back to {}", tail.end);
    }
}
