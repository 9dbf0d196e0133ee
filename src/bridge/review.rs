//! `baton bridge review`: the memory entries baton did not write (provenance), listed with
//! where they came from and what the integrity scan says of each; accepting one records its
//! digest, so that it loads as reviewed from then on.
//!
//! Accepting is the user's decision, not the model's: it is refused in Claude Code's own
//! shell (`CLAUDECODE` set), where an instruction planted in memory could ask for it. That
//! is friction, not a wall — the model has the user's shell — and the skill says so.

use super::integrity::{self, Scanner};
use super::provenance::{self, digest, entries, Entry, Ledger};
use super::scan_cache::Stamp;
use super::store::{self, Rune};
use super::trust::{Trust, Verdict};
use crate::core::error::{Error, Result};
use crate::core::project::Project;
use crate::core::scan::{scan_text, Finding, MORE};
use crate::core::text::{clip, one_line};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// One unreviewed entry.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Item {
    /// The first 10 hex digits of its digest: what `--accept` takes.
    pub(crate) id: String,
    #[serde(skip)]
    pub(crate) digest: String,
    /// `.rune/<file>`.
    pub(crate) file: String,
    #[serde(skip)]
    pub(crate) name: &'static str,
    pub(crate) line: usize,
    pub(crate) origin: String,
    /// The entry's first line, redacted and shortened.
    pub(crate) excerpt: String,
    /// The integrity rules it matches.
    pub(crate) findings: Vec<String>,
    /// At the block level: `--all` leaves it out.
    pub(crate) blocked: bool,
}

/// The unreviewed entries of the folder, in file order. One pass per file: its entries
/// and their digests from one read, what the integrity scan says of each from the file's
/// scan (cached while the file is unchanged), origins from the origins index.
pub(crate) fn unreviewed(project: &Project) -> Result<Vec<Item>> {
    let rune = Rune::of(project);
    let trust = Trust::of(project, &rune).looking_up_origins();
    let block_at = integrity::block_at(project.config());
    let red = project.redactor();
    let report = Scanner::cached(project, &rune).scan(&rune)?;
    let mut out = Vec::new();
    for name in provenance::FILES {
        let Some(text) = rune.read(name)? else {
            continue;
        };
        let shown = rune.show(name);
        // The findings are the scan's read of the file: a file changed since (its stamp from
        // before that read) would have them put on the wrong entries.
        if report.stamps.get(name).cloned().flatten() != Stamp::of(&rune.path(name)) {
            return Err(Error::Invalid(format!(
                "{shown} changed while it was being reviewed; run the review again"
            )));
        }
        let found = FileFindings::of(&report.findings, &shown, name, &text);
        for e in entries(name, &text) {
            let d = digest(name, &e.text);
            let Verdict::Unreviewed(origin) = trust.verdict_of(name, &d) else {
                continue;
            };
            let findings = found.of_entry(&e, || scan_text(&shown, &e.text, red));
            let first = e.text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            out.push(Item {
                id: d.chars().take(10).collect(),
                digest: d,
                file: shown.clone(),
                name,
                line: e.line,
                origin,
                excerpt: clip(&one_line(&red.redact(first).text), 100),
                blocked: findings.iter().any(|f| f.severity >= block_at),
                findings: findings
                    .iter()
                    .map(|f| format!("{} ({})", f.rule, f.severity.as_str()))
                    .collect(),
            });
        }
    }
    Ok(out)
}

/// The integrity scan's findings in one file, by the entries they fall in: an entry's are
/// those on its lines (a notes item's: its line and its section's heading). Where the file's
/// findings were capped (`more-findings`), the entries from there on are scanned alone.
struct FileFindings<'a> {
    /// The findings of the file, in line order.
    found: Vec<&'a Finding>,
    /// Where the listed findings stop (the capped rest's line).
    capped_from: Option<usize>,
    /// Each entry's last line, by its first line.
    ends: HashMap<usize, usize>,
    /// A notes item's section heading line, by the item's line.
    headings: HashMap<usize, usize>,
}

impl<'a> FileFindings<'a> {
    fn of(all: &'a [Finding], shown: &str, name: &str, text: &str) -> Self {
        let found: Vec<&Finding> = all.iter().filter(|f| f.file == shown).collect();
        let capped_from = found.iter().find(|f| f.rule == MORE).map(|f| f.line);
        let starts: Vec<usize> = entries(name, text).iter().map(|e| e.line).collect();
        let last = text.split('\n').count();
        let block = !matches!(name, store::NOTES | store::TASK_NOTES);
        let ends = starts
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                let end = if block {
                    starts
                        .get(i + 1)
                        .map_or(last, |n| n.saturating_sub(1))
                        .max(s)
                } else {
                    s
                };
                (s, end)
            })
            .collect();
        let mut headings = HashMap::new();
        if !block {
            let mut heading = 0;
            for (i, l) in text.split('\n').enumerate() {
                if l.starts_with("## ") {
                    heading = i + 1;
                } else if heading > 0 {
                    headings.insert(i + 1, heading);
                }
            }
        }
        FileFindings {
            found,
            capped_from,
            ends,
            headings,
        }
    }

    /// The findings of entry `e`; `scan` scans it alone (past the cap).
    fn of_entry(&self, e: &Entry, scan: impl FnOnce() -> Vec<Finding>) -> Vec<Finding> {
        let end = self.ends.get(&e.line).copied().unwrap_or(e.line);
        if self.capped_from.is_some_and(|c| end >= c) {
            return scan();
        }
        let heading = self.headings.get(&e.line).copied();
        self.found
            .iter()
            .filter(|f| (e.line..=end).contains(&f.line) || Some(f.line) == heading)
            .map(|f| (*f).clone())
            .collect()
    }
}

/// What `--accept` / `--all` did.
#[derive(Debug, Default, Serialize)]
pub(crate) struct Accepted {
    pub(crate) accepted: Vec<String>,
    /// Left out by `--all`: at the block level.
    pub(crate) skipped: Vec<String>,
}

/// Accepts the entries whose ids start with one of `ids` (each must name exactly one), or
/// every one that is not at the block level (`all`).
pub(crate) fn accept(project: &Project, ids: &[String], all: bool) -> Result<Accepted> {
    if project.env("CLAUDECODE").is_some() {
        return Err(Error::Invalid(
            "accepting memory is the user's decision, not the model's: run `baton bridge review` in your own terminal (CLAUDECODE is set, so this is Claude Code's shell)".into(),
        ));
    }
    let items = unreviewed(project)?;
    let mut chosen: Vec<&Item> = Vec::new();
    let mut done = Accepted::default();
    for id in ids {
        let id = id.trim().to_ascii_lowercase();
        let hits: Vec<&Item> = items
            .iter()
            .filter(|i| id.len() >= 6 && i.digest.starts_with(&id))
            .collect();
        match hits.as_slice() {
            [one] => chosen.push(one),
            [] => {
                return Err(Error::Invalid(format!(
                    "review: no unreviewed entry has the id {id} (ids are the first 6–10 hex digits `baton bridge review` lists)"
                )))
            }
            _ => {
                return Err(Error::Invalid(format!(
                    "review: the id {id} names {} entries; give more digits",
                    hits.len()
                )))
            }
        }
    }
    if all {
        for i in &items {
            if i.blocked {
                done.skipped.push(i.id.clone());
            } else {
                chosen.push(i);
            }
        }
    }
    // One write per file, under one lock.
    let ledger = Ledger::of(project);
    let mut by_file: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for i in chosen {
        by_file.entry(i.name).or_default().push(i.digest.clone());
        if !done.accepted.contains(&i.id) {
            done.accepted.push(i.id.clone());
        }
    }
    for (name, digests) in by_file {
        ledger.record_digests(name, &digests, "review", project.now())?;
    }
    Ok(done)
}

/// The list for people.
pub(crate) fn render(items: &[Item], rune: &Rune) -> String {
    if items.is_empty() {
        return format!(
            "All memory in {} is reviewed: every entry was written through baton or accepted.\n",
            rune.show("")
        );
    }
    let mut out = format!(
        "Unreviewed memory in {} ({} entr{}): not written through baton, shown to the model only as quoted data.\nAccept one with `baton bridge review --accept ID`, all (but those the integrity scan blocks) with `--all`.\n",
        rune.show(""),
        items.len(),
        if items.len() == 1 { "y" } else { "ies" }
    );
    for i in items {
        out.push_str(&format!(
            "\n  {}  {}:{}  {}\n      > {}\n",
            i.id, i.file, i.line, i.origin, i.excerpt
        ));
        if !i.findings.is_empty() {
            out.push_str(&format!(
                "      ⚠ {}{}\n",
                i.findings.join(", "),
                if i.blocked {
                    " — `--all` leaves it out"
                } else {
                    ""
                }
            ));
        }
    }
    out
}
