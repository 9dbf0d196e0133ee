//! recall's private index: the documents of the files the stores' readers read, with each
//! term's field-weighted frequency per document, so a search over a busy year reads the
//! postings of its words instead of every store. Derived data of this user, never committed:
//! `<plugin data or XDG state>/projects/<project key>/recall-index/` (0700, files 0600).
//!
//! **Kept current lazily, by the searches, never by a hook.** Before each search the
//! indexed readers run once with a gate (`Scan::visit`): a file whose fingerprint (length,
//! modification time, inode) is what the index holds is not read; one that is new or changed
//! is read whole and its documents go into a new segment; one no longer there (or no longer
//! searchable: an integrity verdict, another user's) is marked gone. So a search costs a
//! `stat` per file plus the reading of what changed since the last one.
//!
//! **Segments** are written whole and never changed (`segment.rs`); the manifest
//! (`manifest.json`) names them, oldest first, and is replaced atomically after the segment
//! it names is written, so a crash leaves the old index or the new one, and a segment no
//! manifest names is swept. A newer segment's view of a file supersedes an older one's.
//! When more than `MAX_SEGMENTS` pile up they are merged into one (their live documents
//! copied, the rest dropped). An index that cannot be read (a torn write, another version) is
//! dropped and built again. Updates take the folder's lock; searches read without it.
//!
//! Readers whose documents do not all come from files (the relay's packets in git history)
//! are not indexed: a search runs them as before.

mod segment;

use super::query::Query;
use super::rank::{each_weighted, idf, IndexedDoc, Ranker};
use crate::core::error::Result;
use crate::core::fsx;
use crate::core::project::Project;
use crate::core::recall::{Doc, Filter, Gate, Kind, Scan, Scope};
use chrono::{DateTime, Utc};
use segment::{DocRec, FileRec, Fingerprint, Segment, SegmentWriter};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Segments kept before they are merged into one.
const MAX_SEGMENTS: usize = 6;
/// How long an update waits for another one.
const LOCK_WAIT: Duration = Duration::from_secs(10);
const MANIFEST: &str = "manifest.json";

#[derive(Debug, Default, Serialize, Deserialize)]
struct Manifest {
    version: u32,
    segments: Vec<String>,
    next: u64,
}

/// Where the index holds a file's documents.
#[derive(Debug, Clone)]
struct Held {
    fp: Fingerprint,
    segment: usize,
    file: u32,
}

/// The index of one project.
#[derive(Debug)]
pub(crate) struct Index {
    dir: PathBuf,
    manifest: Manifest,
    segments: Vec<Segment>,
    held: HashMap<String, Held>,
    /// Live documents per segment and kind (as `Kind::ALL` orders them).
    counts: Vec<[u64; 12]>,
    /// The segments `held` and `counts` were computed for.
    counted: Vec<PathBuf>,
}

impl Index {
    /// The project's index as it is on disk (empty when there is none yet, or it cannot be
    /// read); `None` when there is no private folder to keep one in.
    pub(crate) fn open(project: &Project) -> Option<Index> {
        // The folder both `baton mcp` (started by Claude Code, with `CLAUDE_PLUGIN_DATA`)
        // and the CLI (without it) reach: one index for both.
        let base = crate::core::paths::state_dir(&project.ctx.env)?;
        let dir = crate::core::paths::project_state_dir(&project.ctx.env, &project.root)?
            .join("recall-index");
        fsx::ensure_private_tree(&base, &dir).ok()?;
        let mut index = Index {
            dir,
            manifest: Manifest::default(),
            segments: Vec::new(),
            held: HashMap::new(),
            counts: Vec::new(),
            counted: Vec::new(),
        };
        if index.load().is_err() {
            index.manifest = Manifest::default();
            index.segments.clear();
        }
        index.compute_held();
        Some(index)
    }

    fn load(&mut self) -> Result<()> {
        let path = self.dir.join(MANIFEST);
        let Some(text) = fsx::read_limited(&path, fsx::Limit::DOCUMENT)? else {
            return Ok(());
        };
        let m: Manifest = serde_json::from_str(&text)
            .map_err(|e| crate::core::error::Error::Internal(format!("recall index: {e}")))?;
        // Segments never change: those already loaded are kept (`baton mcp` keeps the index
        // open, and reads only what another search added).
        let mut loaded: HashMap<PathBuf, Segment> = self
            .segments
            .drain(..)
            .map(|s| (s.path.clone(), s))
            .collect();
        let mut segments = Vec::new();
        for name in &m.segments {
            let path = self.dir.join(name);
            match loaded.remove(&path) {
                Some(s) => segments.push(s),
                None => segments.push(Segment::load(&path)?),
            }
        }
        self.manifest = m;
        self.segments = segments;
        Ok(())
    }

    /// Which segment holds each file now (the newest that names it, unless it says gone),
    /// and how many live documents each holds; kept when the segments are what they were.
    fn compute_held(&mut self) {
        let names: Vec<&PathBuf> = self.segments.iter().map(|s| &s.path).collect();
        if self.counts.len() == names.len() && names == self.counted.iter().collect::<Vec<_>>() {
            return;
        }
        self.counted = self.segments.iter().map(|s| s.path.clone()).collect();
        self.held.clear();
        for (si, s) in self.segments.iter().enumerate() {
            for (fi, f) in s.files.iter().enumerate() {
                if f.gone {
                    self.held.remove(&f.key);
                } else {
                    let file = u32::try_from(fi).unwrap_or(u32::MAX);
                    self.held.insert(
                        f.key.clone(),
                        Held {
                            fp: f.fp.clone(),
                            segment: si,
                            file,
                        },
                    );
                }
            }
        }
        self.counts = self.count_kinds();
    }

    /// Whether the file `key` of segment `si` (its number `file`) is the current view.
    fn live(&self, si: usize, file: u32) -> bool {
        let Some(f) = self.segments[si].files.get(file as usize) else {
            return false;
        };
        self.held
            .get(&f.key)
            .is_some_and(|h| h.segment == si && h.file == file)
    }

    /// Brings the index up to date with the stores: reads what changed since, marks what
    /// is gone, writes a segment for it; merges segments when too many pile up. Returns
    /// what the readers did not search, and why (`not searched: …`).
    pub(crate) fn update(&mut self, project: &Project) -> Result<Vec<String>> {
        let _lock = fsx::FolderLock::acquire(&self.dir, LOCK_WAIT)?;
        // Another search may have updated it meanwhile.
        if self.load().is_err() {
            self.manifest = Manifest::default();
            self.segments.clear();
        }
        self.compute_held();
        let updater = RefCell::new(Updater {
            held: &self.held,
            seen: HashSet::new(),
            writer: SegmentWriter::default(),
            current: None,
        });
        let withheld = {
            let filter = Filter::default();
            let mut sink = |d: Doc| updater.borrow_mut().take(&d);
            let mut gate = UpdateGate(&updater);
            let mut scan = Scan::gated(&filter, &mut sink, &mut gate);
            for source in project.doc_sources() {
                if source.indexed && source.scope == Scope::Project {
                    (source.read)(project, &mut scan);
                }
            }
            scan.into_stats().withheld
        };
        let mut u = updater.into_inner();
        let gone: Vec<String> = self
            .held
            .keys()
            .filter(|k| !u.seen.contains(*k))
            .cloned()
            .collect();
        for key in gone {
            u.writer.file(FileRec {
                key,
                gone: true,
                fp: Vec::new(),
                corrupt: 0,
                examples: Vec::new(),
                kinds: [0; 12],
            });
        }
        if !u.writer.files.is_empty() {
            self.add_segment(u.writer)?;
        }
        if self.segments.len() > MAX_SEGMENTS {
            self.merge()?;
        }
        Ok(withheld)
    }

    /// Writes `w` as the newest segment and names it in the manifest.
    fn add_segment(&mut self, w: SegmentWriter) -> Result<()> {
        let name = format!("seg-{:08}.brix", self.manifest.next);
        self.manifest.next += 1;
        w.write(&self.dir.join(&name))?;
        self.manifest.segments.push(name);
        self.save()
    }

    /// Replaces the manifest, reloads, and sweeps segments no manifest names.
    fn save(&mut self) -> Result<()> {
        self.manifest.version = 1;
        let text = serde_json::to_vec(&self.manifest)
            .map_err(|e| crate::core::error::Error::Internal(format!("recall index: {e}")))?;
        fsx::atomic_write(&self.dir.join(MANIFEST), &text, 0o600)?;
        if let Ok(entries) = std::fs::read_dir(&self.dir) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let segment = Path::new(&name).extension().is_some_and(|x| x == "brix");
                if segment && !self.manifest.segments.contains(&name) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        self.load()?;
        self.compute_held();
        Ok(())
    }

    /// Every segment's live documents copied into one.
    fn merge(&mut self) -> Result<()> {
        let mut w = SegmentWriter::default();
        for (si, s) in self.segments.iter().enumerate() {
            let mut files: HashMap<u32, u32> = HashMap::new();
            for (fi, f) in s.files.iter().enumerate() {
                let fi = u32::try_from(fi).unwrap_or(u32::MAX);
                if !f.gone && self.live(si, fi) {
                    // The writer counts the kinds again as the documents come.
                    let rec = FileRec {
                        kinds: [0; 12],
                        ..f.clone()
                    };
                    files.insert(fi, w.file(rec));
                }
            }
            let mut terms: Vec<HashMap<String, f32>> = vec![HashMap::new(); s.doc_count()];
            for e in &s.dict {
                for (d, tf) in s.postings(e)? {
                    if let Some(t) = terms.get_mut(d as usize) {
                        t.insert(e.term.clone(), tf);
                    }
                }
            }
            for (n, t) in terms.into_iter().enumerate() {
                let Some(mut rec) = s.doc(n) else { continue };
                let Some(&file) = files.get(&rec.file) else {
                    continue;
                };
                rec.file = file;
                rec.source = w.string(&s.strings[rec.source as usize]);
                rec.id = rec.id.map(|i| w.string(&s.strings[i as usize]));
                w.doc(rec, t);
            }
        }
        let name = format!("seg-{:08}.brix", self.manifest.next);
        self.manifest.next += 1;
        w.write(&self.dir.join(&name))?;
        self.manifest.segments = vec![name];
        self.save()
    }

    /// The unreadable lines of the files the index holds: how many, the first few.
    pub(crate) fn corrupt(&self) -> (u64, Vec<String>) {
        let mut n = 0u64;
        let mut examples = Vec::new();
        for h in self.held.values() {
            let f = &self.segments[h.segment].files[h.file as usize];
            n += u64::from(f.corrupt);
            examples.extend(f.examples.iter().cloned());
        }
        examples.sort();
        (n, examples)
    }

    /// How rare `term` is among the documents the index holds: its idf over the idf of a
    /// term no document holds (1 for one nobody wrote, towards 0 for one every document has).
    pub(crate) fn rarity(&self, term: &str) -> f32 {
        let n: u64 = self.segments.iter().map(|s| s.doc_count() as u64).sum();
        let df: u64 = self
            .segments
            .iter()
            .filter_map(|s| s.entry(term))
            .map(|e| u64::from(e.count))
            .sum();
        idf(n, df.min(n)) / idf(n, 0)
    }

    /// Hands the ranker every indexed document that matches a word of `q` (a query with no
    /// phrases: those need the words in order, which only the text has), within the kinds
    /// and range of `filter`; returns how many documents the index holds in them.
    pub(crate) fn candidates(
        &self,
        q: &Query,
        filter: &Filter,
        ranker: &mut Ranker<'_>,
    ) -> Result<u64> {
        let units = q.units();
        let mut in_range = 0u64;
        for (si, s) in self.segments.iter().enumerate() {
            // Frequencies per document and part, in one flat array; the documents touched.
            let mut acc = vec![0.0f32; s.doc_count() * units];
            let mut touched: Vec<u32> = Vec::new();
            for (ui, term) in q.terms.iter().enumerate() {
                for e in matching(s, term) {
                    let w = term.weight(&e.term);
                    for (d, tf) in s.postings(e)? {
                        let at = d as usize * units;
                        let Some(row) = acc.get_mut(at..at + units) else {
                            continue;
                        };
                        if row.iter().all(|f| *f == 0.0) {
                            touched.push(d);
                        }
                        row[ui] += w * tf;
                    }
                }
            }
            in_range += self.count_in(si, filter);
            let seg = u32::try_from(si).unwrap_or(u32::MAX);
            for d in touched {
                let Some(rec) = s.doc(d as usize) else {
                    continue;
                };
                if !self.live(si, rec.file) || !wanted(&rec, filter) {
                    continue;
                }
                let at = d as usize * units;
                let doc = IndexedDoc {
                    at: (seg, d),
                    kind: rec.kind,
                    ts: rec.ts.and_then(|t| DateTime::<Utc>::from_timestamp(t, 0)),
                    failed: rec.failed,
                };
                ranker.add_indexed(doc, acc[at..at + units].to_vec(), rec.len as usize);
            }
        }
        Ok(in_range)
    }

    /// An indexed document as the ranking and `read_again` need it, and its file's key.
    pub(crate) fn made(&self, d: &IndexedDoc) -> Option<(Doc, String)> {
        let s = self.segments.get(d.at.0 as usize)?;
        let rec = s.doc(d.at.1 as usize)?;
        let key = s.files.get(rec.file as usize)?.key.clone();
        Some((lite(s, &rec), key))
    }

    /// Live documents of segment `si` within the filter's kinds and range (counted once per
    /// kind for a search without a range).
    fn count_in(&self, si: usize, filter: &Filter) -> u64 {
        if filter.since.is_none() && filter.until.is_none() {
            let per_kind = &self.counts[si];
            return Kind::ALL
                .iter()
                .enumerate()
                .filter(|(_, k)| filter.kinds.is_empty() || filter.kinds.contains(k))
                .map(|(i, _)| per_kind[i])
                .sum();
        }
        let s = &self.segments[si];
        let live: Vec<bool> = (0..s.files.len())
            .map(|f| self.live(si, u32::try_from(f).unwrap_or(u32::MAX)))
            .collect();
        (0..s.doc_count())
            .filter_map(|n| s.doc(n))
            .filter(|r| live.get(r.file as usize).copied().unwrap_or(false) && wanted(r, filter))
            .count() as u64
    }

    /// Live documents per segment and kind: the sum over its live files.
    fn count_kinds(&self) -> Vec<[u64; 12]> {
        self.segments
            .iter()
            .enumerate()
            .map(|(si, s)| {
                let mut counts = [0u64; 12];
                for (fi, f) in s.files.iter().enumerate() {
                    if self.live(si, u32::try_from(fi).unwrap_or(u32::MAX)) {
                        for (c, k) in counts.iter_mut().zip(f.kinds) {
                            *c += u64::from(k);
                        }
                    }
                }
                counts
            })
            .collect()
    }
}

/// The dictionary entries of segment `s` that may match `term` (checked by the caller).
fn matching<'s>(s: &'s Segment, term: &super::query::Term) -> Vec<&'s segment::Entry> {
    let (exact, prefixes) = term.lookups();
    let mut out: Vec<&segment::Entry> = exact.iter().filter_map(|t| s.entry(t)).collect();
    for p in &prefixes {
        out.extend(s.starting_with(p));
    }
    out.sort_by(|a, b| a.term.cmp(&b.term));
    out.dedup_by(|a, b| a.term == b.term);
    out.retain(|e| term.weight(&e.term) > 0.0);
    out
}

/// Whether a document is of the kinds and in the range asked for.
fn wanted(r: &DocRec, filter: &Filter) -> bool {
    if !filter.kinds.is_empty() && !filter.kinds.contains(&r.kind) {
        return false;
    }
    let ts = r.ts.and_then(|s| DateTime::<Utc>::from_timestamp(s, 0));
    match (ts, filter.since, filter.until) {
        (_, None, None) => true,
        (None, _, _) => false,
        (Some(t), since, until) => since.is_none_or(|s| t >= s) && until.is_none_or(|u| t < u),
    }
}

/// What the ranking needs of an indexed document (it is read again to be shown).
fn lite(s: &Segment, r: &DocRec) -> Doc {
    let mut d = Doc::new(r.kind, s.strings[r.source as usize].clone(), "");
    d.ts = r.ts.and_then(|t| DateTime::<Utc>::from_timestamp(t, 0));
    d.line = r.line.map(|l| l as usize);
    d.id = r.id.map(|i| s.strings[i as usize].clone());
    d.failed = r.failed;
    d
}

/// A document's identity among what a reader gives: where it is, and its id when it has no
/// line.
pub(crate) fn identity(d: &Doc) -> (String, Option<usize>, Option<String>) {
    let id = d.line.is_none().then(|| d.id.clone()).flatten();
    (d.source.clone(), d.line, id)
}

/// The update's view of the readers' pass.
struct Updater<'i> {
    held: &'i HashMap<String, Held>,
    seen: HashSet<String>,
    writer: SegmentWriter,
    /// The file being read (its documents come next).
    current: Option<u32>,
}

impl Updater<'_> {
    fn visit(&mut self, paths: &[&Path]) -> bool {
        self.current = None;
        let Some(first) = paths.first() else {
            return false;
        };
        let fp = fingerprint(paths);
        if fp.first().is_none_or(|p| *p == [0, 0, 0]) {
            return false;
        }
        let key = first.to_string_lossy().into_owned();
        self.seen.insert(key.clone());
        if self.held.get(&key).is_some_and(|h| h.fp == fp) {
            return false;
        }
        self.current = Some(self.writer.file(FileRec {
            key,
            gone: false,
            fp,
            corrupt: 0,
            examples: Vec::new(),
            kinds: [0; 12],
        }));
        true
    }

    fn corrupt(&mut self, example: &str) {
        if let Some(f) = self
            .current
            .and_then(|c| self.writer.files.get_mut(c as usize))
        {
            f.corrupt += 1;
            if f.examples.len() < 5 {
                f.examples.push(example.to_string());
            }
        }
    }

    fn take(&mut self, d: &Doc) {
        let Some(file) = self.current else {
            return;
        };
        let mut terms: HashMap<String, f32> = HashMap::new();
        let mut len = 0u32;
        each_weighted(d, |_, t, w, extra| {
            *terms.entry(t.to_string()).or_default() += w;
            len += u32::from(!extra);
        });
        let (source, line, id) = identity(d);
        let rec = DocRec {
            file,
            source: self.writer.string(&source),
            id: id.map(|i| self.writer.string(&i)),
            line: line.and_then(|l| u32::try_from(l).ok()),
            len,
            kind: d.kind,
            failed: d.failed,
            ts: d.ts.map(|t| t.timestamp()),
        };
        self.writer.doc(rec, terms);
    }
}

struct UpdateGate<'u, 'i>(&'u RefCell<Updater<'i>>);

impl Gate for UpdateGate<'_, '_> {
    fn visit(&mut self, paths: &[&Path]) -> bool {
        self.0.borrow_mut().visit(paths)
    }

    fn corrupt(&mut self, example: &str) {
        self.0.borrow_mut().corrupt(example);
    }
}

/// A gate that lets through only the files named (to read some documents again).
pub(crate) struct OnlyGate(pub(crate) HashSet<String>);

impl Gate for OnlyGate {
    fn visit(&mut self, paths: &[&Path]) -> bool {
        paths
            .first()
            .is_some_and(|p| self.0.contains(p.to_string_lossy().as_ref()))
    }
}

/// The fingerprint of `paths`: (length, modification time in ns, inode) each, zeros for
/// one that is missing.
fn fingerprint(paths: &[&Path]) -> Fingerprint {
    use std::os::unix::fs::MetadataExt;
    paths
        .iter()
        .map(|p| match std::fs::metadata(p) {
            Ok(m) if m.is_file() => {
                let ns = u64::try_from(m.mtime())
                    .unwrap_or(0)
                    .saturating_mul(1_000_000_000)
                    .saturating_add(u64::try_from(m.mtime_nsec()).unwrap_or(0));
                [m.len(), ns, m.ino()]
            }
            _ => [0, 0, 0],
        })
        .collect()
}

// A document's kind is stored in a byte.
const _: () = assert!(Kind::ALL.len() < 256);
