//! What every store gives `baton recall`: plain documents (`Doc`) of one `Kind`, read by the
//! subsystem that owns the store's format and handed to a `Scan`. The search itself (query,
//! ranking, output, the MCP server) is the recall subsystem's; this file only holds the types
//! the owners and the searcher share, so no subsystem imports another.
//!
//! A reader (`project::DocSource`, wired by the hook bus into `Readers`) gets a `Scan` and
//! calls `doc` for each entry of its store. The scan applies the search's filter (kinds, time
//! range, and a cheap prefilter: a document that contains none of the query's words is
//! counted and dropped before the ranker tokenizes it). Big line-based
//! stores (the audit trail, a million lines in a busy year) ask `candidate_lines` first, so
//! only lines that contain a query word are parsed at all. A line a reader cannot read is
//! reported with `corrupt` (skipped and counted), a store it must not show with `withheld`.

use chrono::{DateTime, Utc};
use regex::Regex;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::Path;

/// What a document is about. The names are what `--kind` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A decision (`.rune/decisions.md`).
    Decision,
    /// A convention or an invariant (`.rune/conventions.md`, `.rune/INVARIANTS.md`).
    Convention,
    /// A learning or an instinct (`.rune/learnings.jsonl`, `.rune/instincts.md`, the user's
    /// cross-project store).
    Learning,
    /// Progress: session summaries, the session log, the checkpoint.
    Progress,
    /// A note (`.rune/cumulative-notes.md`, `.rune/task-notes.md`).
    Note,
    /// A correction the user gave the agent (audit `user_correction`).
    Correction,
    /// A prompt the user typed (audit `conversation`).
    Prompt,
    /// A tool call that changed nothing (audit `data`).
    Tool,
    /// A tool call that changed a file (audit `change`).
    Change,
    /// A handoff artefact's save (`datarim/sessions/`).
    Handoff,
    /// A relay packet or sentinel (`.handoff/`).
    Packet,
    /// A session: an audit session's task and summary; the capture subsystem's digests.
    Session,
}

impl Kind {
    /// Every kind, in the order `--help` lists them.
    pub const ALL: [Kind; 12] = [
        Kind::Decision,
        Kind::Convention,
        Kind::Learning,
        Kind::Progress,
        Kind::Note,
        Kind::Correction,
        Kind::Prompt,
        Kind::Tool,
        Kind::Change,
        Kind::Handoff,
        Kind::Packet,
        Kind::Session,
    ];

    /// The name `--kind` takes and output shows.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Decision => "decision",
            Kind::Convention => "convention",
            Kind::Learning => "learning",
            Kind::Progress => "progress",
            Kind::Note => "note",
            Kind::Correction => "correction",
            Kind::Prompt => "prompt",
            Kind::Tool => "tool",
            Kind::Change => "change",
            Kind::Handoff => "handoff",
            Kind::Packet => "packet",
            Kind::Session => "session",
        }
    }

    /// Its place in `ALL` (for tables indexed by kind).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The kind named `name` (case ignored).
    pub fn parse(name: &str) -> Option<Kind> {
        let name = name.trim().to_ascii_lowercase();
        Kind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// The names of all kinds, joined by `|` (for messages).
    pub fn names() -> String {
        Kind::ALL.map(Kind::as_str).join("|")
    }
}

/// One thing a store holds, as recall sees it. Text is as stored: the searcher redacts what it
/// shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    /// What it is.
    pub kind: Kind,
    /// When it was written, when the store says.
    pub ts: Option<DateTime<Utc>>,
    /// The file it comes from, as a person finds it: relative to the project root, or
    /// `~/…` for the user's own stores.
    pub source: String,
    /// The 1-based line of the file where `text` starts, for line-based stores; `text` is
    /// then the file's text from that line on (so a hit can name the line of its excerpt).
    pub line: Option<usize>,
    /// The store's own id of the entry (`t-…`, `c-…`, a session id), when it has one.
    pub id: Option<String>,
    /// The session it belongs to (an audit session id, a handoff session id, a loop id).
    pub session: Option<String>,
    /// Another id of that session: the Claude Code session an audit record was made in (the
    /// id capture's digests go by), so a timeline shows each session once.
    pub alias: Option<String>,
    /// Who wrote it, where the store says (`user`, `agent`, a subagent, `operator`, a skill).
    pub author: Option<String>,
    /// The project file it is about, when it names one (the file a change touched).
    pub path: Option<String>,
    /// A one-line title (a heading, a tool and its input).
    pub title: String,
    /// The body that is searched along with the title.
    pub text: String,
    /// The parts of `text` that answer questions about it (a decision's decision and
    /// rationale, a turn's conclusion, a failure's error lines), as byte ranges in order:
    /// they weigh more than the rest of the body, and the excerpt is cut from them first.
    pub answer: Vec<Range<usize>>,
    /// A failure: a tool call that failed, an error a session met, a sentinel that halted a
    /// loop.
    pub failed: bool,
    /// Whether the entry can be trusted as the user's or a reviewed save, where the store
    /// says (the project's memory); `None` for records of what happened (the audit trail).
    pub trust: Option<Trust>,
}

/// How far an entry can be trusted (DESIGN.md, Trust).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trust {
    /// Written through baton here, or accepted by `baton bridge review`.
    Reviewed,
    /// Not written through baton here (a hand edit, a teammate's pull, another tool), and
    /// nobody accepted it yet: its origin, as far as known.
    Unreviewed(String),
    /// The integrity scan flagged it: the rule that did.
    Suspicious(String),
}

impl Trust {
    /// The name `--json` gives it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Trust::Reviewed => "reviewed",
            Trust::Unreviewed(_) => "unreviewed",
            Trust::Suspicious(_) => "suspicious",
        }
    }
}

impl Doc {
    /// A document with only the required parts set.
    pub fn new(kind: Kind, source: impl Into<String>, title: impl Into<String>) -> Doc {
        Doc {
            kind,
            ts: None,
            source: source.into(),
            line: None,
            id: None,
            session: None,
            alias: None,
            author: None,
            path: None,
            title: title.into(),
            text: String::new(),
            answer: Vec::new(),
            failed: false,
            trust: None,
        }
    }

    /// Appends `part` to the text on a line of its own; with `answer`, as a part that answers.
    pub fn push(&mut self, part: &str, answer: bool) {
        if !self.text.is_empty() {
            self.text.push('\n');
        }
        let start = self.text.len();
        self.text.push_str(part);
        if answer && !part.is_empty() {
            self.answer.push(start..self.text.len());
        }
    }

    /// Marks as answering the lines of the text that start (after spaces) with one of
    /// `labels` (`**Decision:**`, `**Rationale:**`), each to the next labelled line.
    pub fn mark_labelled(&mut self, labels: &[&str]) {
        let mut at = 0;
        let mut open: Option<usize> = None;
        let mut spans = Vec::new();
        for line in self.text.split_inclusive('\n') {
            let t = line.trim_start();
            let labelled = t.starts_with("**") || t.starts_with('#');
            if labelled {
                if let Some(s) = open.take() {
                    spans.push(s..at);
                }
                if labels.iter().any(|l| t.starts_with(l)) {
                    open = Some(at);
                }
            }
            at += line.len();
        }
        if let Some(s) = open {
            spans.push(s..at);
        }
        for s in spans {
            let end = s.start + self.text[s.clone()].trim_end().len();
            if end > s.start {
                self.answer.push(s.start..end);
            }
        }
    }
}

/// Whose store a source reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// This project's stores.
    Project,
    /// The user's cross-project store (`baton recall --global`).
    User,
}

/// What a search wants: applied by `Scan` before a document reaches the ranker.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Only these kinds (empty: all).
    pub kinds: Vec<Kind>,
    /// Only documents written at or after this time (undated ones are left out).
    pub since: Option<DateTime<Utc>>,
    /// Only documents written before this time (undated ones are left out).
    pub until: Option<DateTime<Utc>>,
    /// Only documents that match this (case-insensitive alternation of the query's words);
    /// none: every document.
    pub prefilter: Option<Regex>,
    /// Only the documents at these lines of these sources (recall reads again the
    /// documents its index found); none: all.
    pub only: Option<HashMap<String, HashSet<usize>>>,
}

/// What a scan counted, for the summary line and `--json`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScanStats {
    /// Documents the stores hold within the filter's kinds and range (read or prefiltered; a
    /// line the prefilter skipped counts whatever its kind: it was never parsed).
    pub docs: u64,
    /// Documents handed on (they passed every filter).
    pub passed: u64,
    /// Lines or entries that could not be read, skipped.
    pub corrupt: u64,
    /// The first few of them, as `file:line: why`.
    pub corrupt_examples: Vec<String>,
    /// Stores or entries not searched, and why (`.rune/x.md: TAINTED …`).
    pub withheld: Vec<String>,
}

/// How many corrupt lines are named; the rest are only counted.
const CORRUPT_EXAMPLES: usize = 5;

/// What decides which files a scan reads: recall's private index, which holds the documents
/// of the files it has read before and answers for them itself.
pub trait Gate {
    /// Whether to read the file at `paths[0]`, whose documents also depend on the rest of
    /// `paths`: false when the index holds its documents as they are.
    fn visit(&mut self, paths: &[&Path]) -> bool;
    /// A line of the file being read that could not be read (`file:line: why`).
    fn corrupt(&mut self, _example: &str) {}
}

/// One search's pass over the stores: the readers call it, it filters and hands on.
pub struct Scan<'a> {
    filter: &'a Filter,
    sink: &'a mut dyn FnMut(Doc),
    stats: ScanStats,
    gate: Option<&'a mut dyn Gate>,
}

impl<'a> Scan<'a> {
    /// A scan that hands the documents passing `filter` to `sink`.
    pub fn new(filter: &'a Filter, sink: &'a mut dyn FnMut(Doc)) -> Scan<'a> {
        Scan {
            filter,
            sink,
            stats: ScanStats::default(),
            gate: None,
        }
    }

    /// The same, reading only the files `gate` lets through.
    pub fn gated(
        filter: &'a Filter,
        sink: &'a mut dyn FnMut(Doc),
        gate: &'a mut dyn Gate,
    ) -> Scan<'a> {
        Scan {
            gate: Some(gate),
            ..Scan::new(filter, sink)
        }
    }

    /// Whether the reader should read the file at `paths[0]` (whose documents also depend
    /// on the other `paths`): always, but when recall's index holds its documents as they
    /// are. A reader asks before it reads a file, and then hands on every document of it.
    pub fn visit(&mut self, paths: &[&Path]) -> bool {
        self.gate.as_mut().is_none_or(|g| g.visit(paths))
    }

    /// What was counted so far.
    pub fn stats(&self) -> &ScanStats {
        &self.stats
    }

    /// What was counted, ending the scan.
    pub fn into_stats(self) -> ScanStats {
        self.stats
    }

    /// Whether documents of `kind` are wanted: a reader skips what is not.
    pub fn wants(&self, kind: Kind) -> bool {
        self.filter.kinds.is_empty() || self.filter.kinds.contains(&kind)
    }

    /// Whether any of `kinds` is wanted.
    pub fn wants_any(&self, kinds: &[Kind]) -> bool {
        kinds.iter().any(|k| self.wants(*k))
    }

    /// Whether something written at `ts` is in the time range.
    pub fn in_range(&self, ts: Option<DateTime<Utc>>) -> bool {
        match (ts, self.filter.since, self.filter.until) {
            (_, None, None) => true,
            (None, _, _) => false,
            (Some(t), since, until) => since.is_none_or(|s| t >= s) && until.is_none_or(|u| t < u),
        }
    }

    /// Whether a span from `start` to `end` (open when `None`) can hold documents in the time
    /// range: a reader skips a whole session that ended before `since` or began after `until`.
    pub fn overlaps(&self, start: Option<DateTime<Utc>>, end: Option<DateTime<Utc>>) -> bool {
        let ends_before = matches!((end, self.filter.since), (Some(e), Some(s)) if e < s);
        let starts_after = matches!((start, self.filter.until), (Some(b), Some(u)) if b >= u);
        !ends_before && !starts_after
    }

    /// The lines of `source` wanted, when the search wants only some documents (a reader
    /// parses just those); `None`: every line may be.
    pub fn only_lines(&self, source: &str) -> Option<HashSet<usize>> {
        let only = self.filter.only.as_ref()?;
        Some(only.get(source).cloned().unwrap_or_default())
    }

    /// Whether the document at `line` of `source` is wanted (see `only_lines`).
    pub fn wants_at(&self, source: &str, line: Option<usize>) -> bool {
        match (&self.filter.only, line) {
            (Some(only), Some(l)) => only.get(source).is_some_and(|ls| ls.contains(&l)),
            _ => true,
        }
    }

    /// Whether `text` may match the query (always, without a query).
    pub fn may_match(&self, text: &str) -> bool {
        self.filter
            .prefilter
            .as_ref()
            .is_none_or(|re| re.is_match(text))
    }

    /// The lines of `text` that may match the query, with their 1-based numbers; the others
    /// are counted as documents seen and never parsed. Without a query, every non-blank line.
    pub fn candidate_lines<'t>(&mut self, text: &'t str) -> Vec<(usize, &'t str)> {
        let Some(re) = &self.filter.prefilter else {
            return text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .map(|(i, l)| (i + 1, l))
                .collect();
        };
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        // Line numbers are counted incrementally between matches: one pass over the bytes.
        let (mut line_no, mut counted_to, mut next_line_start) = (1usize, 0usize, 0usize);
        for m in re.find_iter(text) {
            if m.start() < next_line_start || is_json_key(bytes, m.end()) {
                // Another match on a line already taken, or a field name (`"claude_session":`
                // holds "session" on every audit line): neither makes a line a candidate.
                continue;
            }
            let start = memchr::memrchr(b'\n', &bytes[..m.start()]).map_or(0, |i| i + 1);
            let end = memchr::memchr(b'\n', &bytes[m.end()..]).map_or(text.len(), |i| m.end() + i);
            line_no += newlines(&bytes[counted_to..start]);
            counted_to = start;
            out.push((line_no, &text[start..end]));
            next_line_start = end + 1;
        }
        let lines = newlines(bytes) + usize::from(!text.is_empty() && !text.ends_with('\n'));
        self.stats.docs += (lines.saturating_sub(out.len())) as u64;
        out
    }

    /// Hands on `doc` when its kind, time and text pass the filter; counts it either way
    /// (when its kind and time are wanted).
    pub fn doc(&mut self, doc: Doc) {
        if !self.wants(doc.kind) || !self.in_range(doc.ts) || !self.wants_at(&doc.source, doc.line)
        {
            return;
        }
        self.stats.docs += 1;
        if self.filter.prefilter.is_some()
            && !self.may_match(&doc.title)
            && !self.may_match(&doc.text)
        {
            return;
        }
        self.stats.passed += 1;
        (self.sink)(doc);
    }

    /// A line or entry that could not be read: skipped, counted, and named while few.
    pub fn corrupt(&mut self, source: &str, line: usize, why: &str) {
        let example = format!("{source}:{line}: {why}");
        if let Some(g) = self.gate.as_mut() {
            g.corrupt(&example);
        }
        self.add_corrupt(1, std::iter::once(example));
    }

    /// Lines counted as unreadable elsewhere (recall's index remembers those of the files it
    /// holds), with the first few named.
    pub fn add_corrupt(&mut self, n: u64, examples: impl IntoIterator<Item = String>) {
        self.stats.corrupt += n;
        for e in examples {
            if self.stats.corrupt_examples.len() < CORRUPT_EXAMPLES {
                self.stats.corrupt_examples.push(e);
            }
        }
    }

    /// A store or entry that is not searched, and why.
    pub fn withheld(&mut self, what: impl Into<String>) {
        self.stats.withheld.push(what.into());
    }
}

/// Whether the word that a match ending at `end` is part of closes a JSON object key: the
/// rest of the word, then `":`.
fn is_json_key(bytes: &[u8], end: usize) -> bool {
    let rest = &bytes[end..];
    let word = rest
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .unwrap_or(rest.len());
    let rest = &rest[word..];
    // A match may end with the quote itself (a short word matched with its delimiters).
    rest.starts_with(b"\":")
        || (end > 0 && bytes[end - 1] == b'"' && word == 0 && rest.starts_with(b":"))
}

/// The number of `\n` bytes in `bytes`.
fn newlines(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
}

/// Whether a private store's file or folder belongs to the user running baton: the audit
/// trail and handoff artefacts are searched only for their owner. Where the system does not
/// say who runs baton (no `/proc`), the store's own 0700 folder is the guard.
pub fn owned_by_me(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    // `/proc/self` belongs to the process's effective user; asked once per run.
    static ME: std::sync::OnceLock<Option<u32>> = std::sync::OnceLock::new();
    let Some(me) = *ME.get_or_init(|| std::fs::metadata("/proc/self").ok().map(|m| m.uid())) else {
        return true;
    };
    std::fs::symlink_metadata(path).is_ok_and(|m| m.uid() == me)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(words: &str) -> Filter {
        Filter {
            prefilter: Some(Regex::new(&format!("(?i){words}")).unwrap()),
            ..Filter::default()
        }
    }

    #[test]
    fn kinds_parse_by_name() {
        for k in Kind::ALL {
            assert_eq!(Kind::parse(k.as_str()), Some(k));
        }
        assert_eq!(Kind::parse(" Decision "), Some(Kind::Decision));
        assert_eq!(Kind::parse("decisions"), None);
        for (i, k) in Kind::ALL.iter().enumerate() {
            assert_eq!(k.index(), i);
        }
        assert!(Kind::names().starts_with("decision|convention|"));
    }

    #[test]
    fn candidate_lines_number_lines_and_count_the_rest() {
        let f = filter("cache|retry");
        let mut got = Vec::new();
        let mut sink = |d: Doc| got.push(d);
        let mut scan = Scan::new(&f, &mut sink);
        let text = "a\nthe Cache here\nb\n\nretry and cache\nc";
        let lines = scan.candidate_lines(text);
        assert_eq!(lines, vec![(2, "the Cache here"), (5, "retry and cache")]);
        assert_eq!(scan.stats().docs, 4);
        assert_eq!(scan.candidate_lines("cache"), vec![(1, "cache")]);
        // A field name is no match; a value is.
        let json = "{\"cache_hit\":1}\n{\"input\":\"cache\"}\n";
        assert_eq!(
            scan.candidate_lines(json),
            vec![(2, "{\"input\":\"cache\"}")]
        );
    }

    #[test]
    fn without_a_query_every_line_is_a_candidate() {
        let f = Filter::default();
        let mut sink = |_: Doc| {};
        let mut scan = Scan::new(&f, &mut sink);
        assert_eq!(scan.candidate_lines("a\n\nb\n"), vec![(1, "a"), (3, "b")]);
    }

    #[test]
    fn docs_are_filtered_by_kind_time_and_words() {
        let t = |s| crate::core::time::parse(s);
        let f = Filter {
            kinds: vec![Kind::Decision],
            since: t("2026-11-01T00:00:00Z"),
            ..filter("cache")
        };
        let mut got = Vec::new();
        let mut sink = |d: Doc| got.push(d.title);
        let mut scan = Scan::new(&f, &mut sink);
        let mut d = Doc::new(Kind::Decision, ".rune/decisions.md", "Use a cache");
        d.ts = t("2026-11-02T00:00:00Z");
        scan.doc(d.clone());
        scan.doc(Doc {
            ts: t("2026-10-01T00:00:00Z"),
            ..d.clone()
        });
        scan.doc(Doc {
            ts: None,
            ..d.clone()
        });
        scan.doc(Doc {
            kind: Kind::Note,
            ..d.clone()
        });
        scan.doc(Doc {
            title: "Use a queue".into(),
            ..d.clone()
        });
        let stats = scan.into_stats();
        assert_eq!((stats.docs, stats.passed), (2, 1));
        assert_eq!(got, vec!["Use a cache"]);
    }

    #[test]
    fn spans_overlap_the_range() {
        let t = |s| crate::core::time::parse(s);
        let f = Filter {
            since: t("2026-11-10T00:00:00Z"),
            until: t("2026-11-20T00:00:00Z"),
            ..Filter::default()
        };
        let mut sink = |_: Doc| {};
        let scan = Scan::new(&f, &mut sink);
        assert!(!scan.overlaps(t("2026-11-01T00:00:00Z"), t("2026-11-05T00:00:00Z")));
        assert!(scan.overlaps(t("2026-11-01T00:00:00Z"), None));
        assert!(scan.overlaps(t("2026-11-15T00:00:00Z"), t("2026-11-25T00:00:00Z")));
        assert!(!scan.overlaps(t("2026-11-20T00:00:00Z"), None));
    }

    #[test]
    fn corrupt_lines_are_counted_and_the_first_named() {
        let f = Filter::default();
        let mut sink = |_: Doc| {};
        let mut scan = Scan::new(&f, &mut sink);
        for i in 0..7 {
            scan.corrupt("a.jsonl", i + 1, "not JSON");
        }
        let s = scan.into_stats();
        assert_eq!(s.corrupt, 7);
        assert_eq!(s.corrupt_examples.len(), 5);
        assert_eq!(s.corrupt_examples[0], "a.jsonl:1: not JSON");
    }
}
