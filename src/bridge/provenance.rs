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
use crate::core::hash::{fnv1a, sha1_hex};
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
    /// Digests read so far, per file (20 bytes each: a large ledger is read without an
    /// allocation per line).
    known: RefCell<HashMap<String, HashSet<[u8; 20]>>>,
}

/// A digest's 40 hex digits as bytes; `None` for anything else.
fn raw(hex: &str) -> Option<[u8; 20]> {
    let b = hex.as_bytes();
    if b.len() != 40 {
        return None;
    }
    let mut out = [0u8; 20];
    for (i, pair) in b.chunks(2).enumerate() {
        let h = char::from(pair[0]).to_digit(16)?;
        let l = char::from(pair[1]).to_digit(16)?;
        out[i] = u8::try_from(h * 16 + l).ok()?;
    }
    Some(out)
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
            .or_insert_with(|| self.read_file(file))
            .contains(&d)
    }

    fn read_file(&self, file: &str) -> HashSet<[u8; 20]> {
        let mut out = HashSet::new();
        for dir in &self.read {
            let Ok(Some(text)) =
                fsx::read_lossy(&dir.join(format!("{file}.jsonl")), fsx::Limit::LOG)
            else {
                continue;
            };
            for line in text.lines() {
                // Lines are written with the digest first: most are read without a parser.
                let fast = line
                    .strip_prefix("{\"digest\":\"")
                    .and_then(|r| r.split('"').next());
                let d = match fast {
                    Some(d) => raw(d),
                    None => serde_json::from_str::<serde_json::Value>(line)
                        .ok()
                        .and_then(|v| v["digest"].as_str().and_then(raw)),
                };
                out.extend(d);
            }
        }
        out
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
        let fresh: Vec<&String> = digests
            .iter()
            .filter(|d| !self.knows_digest(file, d))
            .collect();
        if fresh.is_empty() {
            return Ok(());
        }
        fsx::ensure_private_dir(dir)?;
        let path = dir.join(format!("{file}.jsonl"));
        let ts = time::rfc3339(now);
        for d in &fresh {
            // One whole line per write, under the file's advisory lock (`append_line`).
            let line = serde_json::to_string(&Line {
                digest: d,
                by,
                ts: &ts,
            })
            .map_err(|e| Error::Internal(format!("provenance line: {e}")))?;
            fsx::append_line(&path, &line, fsx::PRIVATE_FILE).map_err(|e| {
                Error::Invalid(format!("provenance ledger {}: {e}", path.display()))
            })?;
        }
        let mut known = self.known.borrow_mut();
        let set = known.entry(file.to_string()).or_default();
        set.extend(fresh.into_iter().filter_map(|d| raw(d)));
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

/// What load knows about a shown entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// baton wrote it (recorded), or a trusted committer committed it.
    Reviewed,
    /// Neither: shown as quoted data, with where it came from.
    Unreviewed(String),
}

impl Verdict {
    pub(crate) fn reviewed(&self) -> bool {
        *self == Verdict::Reviewed
    }
}

/// Origins looked up per load (git blame of one line each); past it, "not looked up".
const MAX_BLAMES: usize = 40;

/// Provenance at load: the ledger, and git for where an unreviewed entry came from.
pub(crate) struct Trust<'a> {
    ledger: Ledger,
    /// The project (git blame, the trusted committers); `None`: no origins (tests).
    project: Option<&'a Project>,
    /// The memory folder, relative to the project root.
    rel: PathBuf,
    /// No ledger yet for this project: the first load since baton kept provenance.
    pub(crate) first: bool,
    texts: RefCell<HashMap<String, Option<String>>>,
    blames: RefCell<usize>,
    /// Unreviewed entries shown, as (file, digest).
    shown: RefCell<HashSet<(String, String)>>,
    /// Look origins up even on a first load, and without the per-load allowance.
    always: bool,
}

impl<'a> Trust<'a> {
    /// The trust of `project`'s memory in `rel` (`paths.bridge`).
    pub(crate) fn of(project: &'a Project, rel: &Path) -> Trust<'a> {
        let ledger = Ledger::of(project);
        Trust {
            first: !ledger.exists(),
            ledger,
            project: Some(project),
            rel: rel.to_path_buf(),
            texts: RefCell::new(HashMap::new()),
            blames: RefCell::new(0),
            shown: RefCell::new(HashSet::new()),
            always: false,
        }
    }

    /// A trust over `ledger` alone (tests).
    #[cfg(test)]
    pub(crate) fn with(ledger: Ledger) -> Trust<'static> {
        Trust {
            first: !ledger.exists(),
            ledger,
            project: None,
            rel: PathBuf::from(".rune"),
            texts: RefCell::new(HashMap::new()),
            blames: RefCell::new(0),
            shown: RefCell::new(HashSet::new()),
            always: false,
        }
    }

    /// The same, looking up every origin (review lists them all; a load on a first run
    /// does not).
    pub(crate) fn looking_up_origins(mut self) -> Self {
        self.always = true;
        self
    }

    /// Whether baton's ledger knows the entry `text` of `file` (no blame, nothing counted as
    /// shown).
    pub(crate) fn knows(&self, file: &str, text: &str) -> bool {
        self.ledger.knows(file, text)
    }

    /// The verdict on the entry `text` of `file`.
    pub(crate) fn verdict(&self, file: &str, text: &str) -> Verdict {
        let d = digest(file, text);
        if self.ledger.knows_digest(file, &d) {
            return Verdict::Reviewed;
        }
        let origin = self.origin(file, text);
        if let Some(o) = &origin {
            let trusted = self.project.is_some_and(|p| {
                o.commit.is_some()
                    && p.config()
                        .bridge
                        .trusted_committers
                        .iter()
                        .any(|t| t.eq_ignore_ascii_case(&o.committer_email))
            });
            if trusted {
                return Verdict::Reviewed;
            }
        }
        self.shown.borrow_mut().insert((file.to_string(), d));
        Verdict::Unreviewed(match origin {
            Some(o) => match o.commit {
                Some(c) => format!("committed by {} in {c}", o.author),
                None => "edited here, not committed".into(),
            },
            None if self.first => {
                "written before baton kept provenance here, or by someone else".into()
            }
            None => "origin unknown".into(),
        })
    }

    /// How many unreviewed entries were shown.
    pub(crate) fn unreviewed_shown(&self) -> usize {
        self.shown.borrow().len()
    }

    /// Who last changed the entry's first line (git blame), within this load's allowance.
    /// On a first load only a team's trusted list makes it worth asking.
    fn origin(&self, file: &str, text: &str) -> Option<crate::core::git::LineOrigin> {
        let project = self.project?;
        if !self.always {
            if self.first && project.config().bridge.trusted_committers.is_empty() {
                return None;
            }
            let mut n = self.blames.borrow_mut();
            if *n >= MAX_BLAMES {
                return None;
            }
            *n += 1;
        }
        let rel = self.rel.join(file);
        let mut texts = self.texts.borrow_mut();
        let body = texts
            .entry(file.to_string())
            .or_insert_with(|| store::read_opt(&project.root.join(&rel)).ok().flatten())
            .as_ref()?;
        let first = text.lines().find(|l| !l.trim().is_empty())?;
        let needle = if matches!(file, store::NOTES | store::TASK_NOTES) {
            text.lines().nth(1).unwrap_or(first).trim()
        } else {
            first.trim()
        };
        let at = body.find(needle)?;
        let line = body[..at].matches('\n').count() + 1;
        // A block entry spans its lines (an edit may be in any of them); an item one line.
        let count = if matches!(file, store::NOTES | store::TASK_NOTES) {
            1
        } else {
            text.lines().count()
        };
        crate::core::git::blame_lines(&project.root, &rel, body.as_bytes(), line, count)
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
}
