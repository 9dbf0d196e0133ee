//! One segment of recall's index, on disk and in memory: the files it read (each with the
//! fingerprint it had), the documents they gave (what the ranking needs of each: kind, time,
//! length, failed, where it is), and for every term the documents holding it with their
//! field-weighted frequency. Written once (`SegmentWriter::write`, atomically), never
//! changed; a newer segment that names a file again supersedes this one's view of it.
//!
//! Layout (little-endian): `BRIX` + version (u32); the lengths of the strings, files,
//! documents and dictionary sections (u64 each); then those sections, then the postings.
//! Strings: u32 length + UTF-8 each. Files: key (string index), gone (u8), fingerprint
//! (u64 × 3 × parts, parts as u8 first). Documents: `DOC_BYTES` each (see `DocRec`).
//! Dictionary: per term (sorted), its string, where its postings start (u64) and how many
//! (u32). Postings: per document, its number (u32) and frequency × `TF_SCALE` (u16).
//!
//! Loading reads everything but the postings, which are read per term when a query needs
//! them (`postings`).

use crate::core::error::{Error, Result};
use crate::core::recall::Kind;
use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 4] = b"BRIX";
const VERSION: u32 = 2;
/// Bytes of one document record.
const DOC_BYTES: usize = 32;
/// Bytes of one posting.
const POSTING_BYTES: usize = 6;
/// Frequencies are stored as fixed point.
const TF_SCALE: f32 = 64.0;
/// "None" in a u32 field.
const NONE: u32 = u32::MAX;

/// What a file was like when it was read: (length, modification time in ns, inode) per
/// path it depends on; all zero for a path that was missing.
pub(crate) type Fingerprint = Vec<[u64; 3]>;

/// A file a segment read, or found gone.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FileRec {
    pub(crate) key: String,
    pub(crate) gone: bool,
    pub(crate) fp: Fingerprint,
    /// Its lines that could not be read, and the first few of them (`file:line: why`).
    pub(crate) corrupt: u32,
    pub(crate) examples: Vec<String>,
    /// Its documents per kind (as `Kind::ALL` orders them).
    pub(crate) kinds: [u32; 12],
}

/// What the ranking needs of a document, and where to find it again.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DocRec {
    /// Its file, in the segment's files.
    pub(crate) file: u32,
    /// `Doc::source`, `Doc::id` (string indexes).
    pub(crate) source: u32,
    pub(crate) id: Option<u32>,
    pub(crate) line: Option<u32>,
    /// Terms (compounds' extras not counted).
    pub(crate) len: u32,
    pub(crate) kind: Kind,
    pub(crate) failed: bool,
    /// Seconds since the epoch.
    pub(crate) ts: Option<i64>,
}

/// A term's place in the postings.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) term: String,
    at: u64,
    pub(crate) count: u32,
}

/// A loaded segment.
#[derive(Debug)]
pub(crate) struct Segment {
    pub(crate) path: PathBuf,
    file: File,
    postings_at: u64,
    pub(crate) strings: Vec<String>,
    pub(crate) files: Vec<FileRec>,
    docs: Vec<u8>,
    pub(crate) dict: Vec<Entry>,
}

impl Segment {
    /// The segment at `path`; an error when it is not one (a torn write, another version).
    pub(crate) fn load(path: &Path) -> Result<Segment> {
        let bad = |why: &str| Error::Internal(format!("recall index {}: {why}", path.display()));
        let file = crate::core::fsx::open_regular(path)?.ok_or_else(|| bad("missing"))?;
        let mut head = [0u8; 40];
        file.read_exact_at(&mut head, 0)
            .map_err(|_| bad("too short"))?;
        if &head[..4] != MAGIC || u32_at(&head, 4) != VERSION {
            return Err(bad("not an index of this version"));
        }
        let lens: Vec<u64> = (0..4).map(|i| u64_at(&head, 8 + i * 8)).collect();
        let total: u64 = lens.iter().sum();
        // Each section read into its own buffer: the documents' (the largest) is kept as read.
        let read = |at: u64, len: u64| -> Result<Vec<u8>> {
            let mut buf = vec![0u8; usize::try_from(len).map_err(|_| bad("too large"))?];
            file.read_exact_at(&mut buf, 40 + at)
                .map_err(|_| bad("cut short"))?;
            Ok(buf)
        };
        let head_part = read(0, lens[0] + lens[1])?;
        let docs = read(lens[0] + lens[1], lens[2])?;
        let dict_part = read(lens[0] + lens[1] + lens[2], lens[3])?;
        let mut r = Reader::new(&head_part);
        let mut strings = Vec::new();
        while r.at < to_usize(lens[0]) {
            strings.push(r.string().ok_or_else(|| bad("strings"))?);
        }
        let mut files = Vec::new();
        while r.at < head_part.len() {
            files.push(r.file(&strings).ok_or_else(|| bad("files"))?);
        }
        let mut r = Reader::new(&dict_part);
        let mut dict = Vec::new();
        while r.at < dict_part.len() {
            let term = r.string().ok_or_else(|| bad("dictionary"))?;
            let at = r.u64().ok_or_else(|| bad("dictionary"))?;
            let count = r.u32().ok_or_else(|| bad("dictionary"))?;
            dict.push(Entry { term, at, count });
        }
        Ok(Segment {
            path: path.to_path_buf(),
            file,
            postings_at: 40 + total,
            strings,
            files,
            docs,
            dict,
        })
    }

    /// How many documents it holds.
    pub(crate) fn doc_count(&self) -> usize {
        self.docs.len() / DOC_BYTES
    }

    /// Document `n`.
    pub(crate) fn doc(&self, n: usize) -> Option<DocRec> {
        let b = self.docs.get(n * DOC_BYTES..(n + 1) * DOC_BYTES)?;
        let opt = |v: u32| (v != NONE).then_some(v);
        let ts = i64::from_le_bytes(b[24..32].try_into().ok()?);
        Some(DocRec {
            file: u32_at(b, 0),
            source: u32_at(b, 4),
            id: opt(u32_at(b, 8)),
            line: opt(u32_at(b, 12)),
            len: u32_at(b, 16),
            kind: *Kind::ALL.get(usize::from(b[20]))?,
            failed: b[21] != 0,
            ts: (ts != i64::MIN).then_some(ts),
        })
    }

    /// The entries of the dictionary whose term starts with `prefix` (all when empty).
    pub(crate) fn starting_with(&self, prefix: &str) -> &[Entry] {
        let from = self.dict.partition_point(|e| e.term.as_str() < prefix);
        let to = from + self.dict[from..].partition_point(|e| e.term.starts_with(prefix));
        &self.dict[from..to]
    }

    /// The entry of `term`.
    pub(crate) fn entry(&self, term: &str) -> Option<&Entry> {
        self.dict
            .binary_search_by(|e| e.term.as_str().cmp(term))
            .ok()
            .map(|i| &self.dict[i])
    }

    /// The postings of `e`: (document, frequency).
    pub(crate) fn postings(&self, e: &Entry) -> Result<Vec<(u32, f32)>> {
        let mut buf = vec![0u8; e.count as usize * POSTING_BYTES];
        self.file
            .read_exact_at(&mut buf, self.postings_at + e.at)
            .map_err(|err| {
                Error::Internal(format!("recall index {}: {err}", self.path.display()))
            })?;
        Ok(buf
            .chunks_exact(POSTING_BYTES)
            .map(|c| {
                let tf = f32::from(u16::from_le_bytes([c[4], c[5]])) / TF_SCALE;
                (u32_at(c, 0), tf)
            })
            .collect())
    }
}

fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 8)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

/// Reads the sections.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn new(b: &'a [u8]) -> Reader<'a> {
        Reader { b, at: 0 }
    }
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.b.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32_at(self.take(4)?, 0))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64_at(self.take(8)?, 0))
    }
    fn string(&mut self) -> Option<String> {
        let n = self.u32()? as usize;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }
    fn file(&mut self, strings: &[String]) -> Option<FileRec> {
        let key = strings.get(self.u32()? as usize)?.clone();
        let gone = self.take(1)?[0] != 0;
        let parts = self.take(1)?[0];
        let mut fp = Vec::new();
        for _ in 0..parts {
            fp.push([self.u64()?, self.u64()?, self.u64()?]);
        }
        let corrupt = self.u32()?;
        let n = self.take(1)?[0];
        let mut examples = Vec::new();
        for _ in 0..n {
            examples.push(self.string()?);
        }
        let mut kinds = [0u32; 12];
        for k in &mut kinds {
            *k = self.u32()?;
        }
        Some(FileRec {
            key,
            gone,
            fp,
            corrupt,
            examples,
            kinds,
        })
    }
}

/// A segment being made.
#[derive(Default)]
pub(crate) struct SegmentWriter {
    strings: Vec<String>,
    string_ids: HashMap<String, u32>,
    pub(crate) files: Vec<FileRec>,
    docs: Vec<DocRec>,
    postings: HashMap<String, Vec<(u32, f32)>>,
}

impl SegmentWriter {
    /// The index of `s` in the strings.
    pub(crate) fn string(&mut self, s: &str) -> u32 {
        if let Some(i) = self.string_ids.get(s) {
            return *i;
        }
        let i = u32::try_from(self.strings.len()).unwrap_or(NONE);
        self.strings.push(s.to_string());
        self.string_ids.insert(s.to_string(), i);
        i
    }

    /// Adds a file; its number.
    pub(crate) fn file(&mut self, rec: FileRec) -> u32 {
        self.string(&rec.key);
        self.files.push(rec);
        u32::try_from(self.files.len() - 1).unwrap_or(NONE)
    }

    /// Adds a document and its terms' weighted frequencies.
    pub(crate) fn doc(&mut self, rec: DocRec, terms: HashMap<String, f32>) {
        let n = u32::try_from(self.docs.len()).unwrap_or(NONE);
        let kind = rec.kind.index();
        if let Some(f) = self.files.get_mut(rec.file as usize) {
            f.kinds[kind] += 1;
        }
        self.docs.push(rec);
        for (t, tf) in terms {
            self.postings.entry(t).or_default().push((n, tf));
        }
    }

    /// Writes the segment to `path` (atomically, private).
    pub(crate) fn write(self, path: &Path) -> Result<()> {
        let mut strings = Vec::new();
        for s in &self.strings {
            put_str(&mut strings, s);
        }
        let mut files = Vec::new();
        for f in &self.files {
            put_u32(
                &mut files,
                self.string_ids.get(&f.key).copied().unwrap_or(NONE),
            );
            files.push(u8::from(f.gone));
            files.push(u8::try_from(f.fp.len()).unwrap_or(0));
            for part in &f.fp {
                for v in part {
                    files.extend_from_slice(&v.to_le_bytes());
                }
            }
            put_u32(&mut files, f.corrupt);
            let examples = &f.examples[..f.examples.len().min(5)];
            files.push(u8::try_from(examples.len()).unwrap_or(0));
            for e in examples {
                put_str(&mut files, e);
            }
            for k in f.kinds {
                put_u32(&mut files, k);
            }
        }
        let mut docs = Vec::with_capacity(self.docs.len() * DOC_BYTES);
        for d in &self.docs {
            put_doc(&mut docs, d);
        }
        let mut terms: Vec<(String, Vec<(u32, f32)>)> = self.postings.into_iter().collect();
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        let (mut dict, mut postings) = (Vec::new(), Vec::new());
        for (t, list) in terms {
            put_str(&mut dict, &t);
            dict.extend_from_slice(&(postings.len() as u64).to_le_bytes());
            put_u32(&mut dict, u32::try_from(list.len()).unwrap_or(NONE));
            for (d, tf) in list {
                put_u32(&mut postings, d);
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // clamped
                let q = (tf * TF_SCALE).round().clamp(0.0, f32::from(u16::MAX)) as u16;
                postings.extend_from_slice(&q.to_le_bytes());
            }
        }
        let mut out = Vec::with_capacity(40 + strings.len() + docs.len() + postings.len());
        out.extend_from_slice(MAGIC);
        put_u32(&mut out, VERSION);
        for section in [&strings, &files, &docs, &dict] {
            out.extend_from_slice(&(section.len() as u64).to_le_bytes());
        }
        for section in [strings, files, docs, dict, postings] {
            out.extend_from_slice(&section);
        }
        crate::core::fsx::atomic_write(path, &out, 0o600)
    }
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_u32(out, u32::try_from(s.len()).unwrap_or(0));
    out.extend_from_slice(s.as_bytes());
}

fn put_doc(out: &mut Vec<u8>, d: &DocRec) {
    put_u32(out, d.file);
    put_u32(out, d.source);
    put_u32(out, d.id.unwrap_or(NONE));
    put_u32(out, d.line.unwrap_or(NONE));
    put_u32(out, d.len);
    let kind = d.kind.index();
    out.push(u8::try_from(kind).unwrap_or(0));
    out.push(u8::from(d.failed));
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(&d.ts.unwrap_or(i64::MIN).to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_segment_reads_back_what_was_written() {
        let tmp = tempfile::tempdir().unwrap();
        let mut writer = SegmentWriter::default();
        let file = writer.file(FileRec {
            key: "/p/a.jsonl".into(),
            gone: false,
            fp: vec![[10, 20, 30]],
            corrupt: 2,
            examples: vec!["a.jsonl:4: not JSON".into()],
            kinds: [0; 12],
        });
        let source = writer.string("a.jsonl");
        let rec = DocRec {
            file,
            source,
            id: None,
            line: Some(3),
            len: 7,
            kind: Kind::Correction,
            failed: true,
            ts: Some(1_700_000_000),
        };
        let terms: HashMap<String, f32> = [("cache".to_string(), 2.5), ("evict".to_string(), 1.0)]
            .into_iter()
            .collect();
        writer.doc(rec.clone(), terms);
        let path = tmp.path().join("seg");
        writer.write(&path).unwrap();
        let seg = Segment::load(&path).unwrap();
        assert_eq!(seg.doc_count(), 1);
        assert_eq!(seg.doc(0), Some(rec));
        assert_eq!(seg.files[0].fp, vec![[10, 20, 30]]);
        assert_eq!((seg.files[0].corrupt, seg.files[0].examples.len()), (2, 1));
        assert_eq!(seg.files[0].kinds[5], 1, "one correction");
        assert_eq!(seg.strings[seg.doc(0).unwrap().source as usize], "a.jsonl");
        let entry = seg.entry("cache").unwrap();
        assert_eq!(seg.postings(entry).unwrap(), vec![(0, 2.5)]);
        assert_eq!(seg.starting_with("ev").len(), 1);
        assert!(seg.entry("zebra").is_none());
        // A torn file is an error, not a panic.
        std::fs::write(&path, b"BRIX\x01\0\0\0short").unwrap();
        assert!(Segment::load(&path).is_err());
    }
}
