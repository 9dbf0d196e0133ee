//! The memory sections of load mode: recent conventions and decisions, progress, project
//! notes, task notes, learnings, instincts and cross-project instincts, each entry with its
//! age, each section marked when its file is SUSPICIOUS and left out when it is blocked.

use super::author;
use super::entries::{
    aged, field, file_section_items, heading_of, item_time, item_with_age, newest_entries,
    newest_first, progress_items, section_items,
};
use super::global;
use super::instincts;
use super::integrity::Report;
use super::learn;
use super::provenance::item_entry;
use super::shown::Shown;
use super::store::{self, Rune};
use super::trust::{Trust, Verdict};
use crate::core::budget::Section;
use crate::core::error::Result;
use crate::core::fsx;
use crate::core::redact::Redactor;
use crate::core::scan::Status;
use crate::core::time;
use chrono::{DateTime, Utc};
use std::cell::RefCell;
use std::path::Path;

/// Bytes of learnings.jsonl read for the top 5.
const LEARN_TAIL: u64 = 64 * 1024;

/// Bytes of task-notes.md read (its newest iterations).
const TASK_NOTES_TAIL: u64 = 8192;

/// What the sections are built from: the folder, the integrity verdicts, the clock.
pub(crate) struct View<'a> {
    pub(crate) rune: &'a Rune,
    pub(crate) report: &'a Report,
    /// The verdict from which a file is not injected.
    pub(crate) block_at: Status,
    pub(crate) now: DateTime<Utc>,
    /// The project's redactor (it also finds the secrets the integrity scan reports).
    pub(crate) red: &'a Redactor,
    /// Which entries baton wrote (provenance).
    pub(crate) trust: &'a Trust<'a>,
    /// The environment (the user-level stores).
    pub(crate) env: &'a crate::core::ctx::Env,
    /// The current user as entries name their authors (`author::current`): entries by
    /// anyone else say who wrote them.
    pub(crate) me: Option<String>,
    /// What the big files showed while unchanged (`shown`).
    pub(crate) shown: &'a RefCell<Shown>,
}

impl View<'_> {
    /// The newest `n` entries of `file` (`entries::newest_entries`), kept while it is
    /// unchanged.
    fn newest(&self, file: &str, n: usize) -> Result<Vec<String>> {
        self.shown
            .borrow_mut()
            .get(self.rune, file, &format!("newest{n}"), self.red, |p| {
                newest_entries(p, n)
            })
    }

    /// Whether `file` may be injected: below the block level, not left with conflict
    /// markers by a merge, and scanned as far as load reads it (a large file a session start
    /// did not scan whole shows only its scanned end, or nothing: `scan_file`).
    pub(crate) fn ok(&self, file: &str) -> bool {
        if self.report.pending.get(file).is_some_and(|&from| {
            from == super::scan_file::NOT_SCANNED || !super::scan_file::shows_end_only(file)
        }) {
            return false;
        }
        let shown = self.rune.show(file);
        self.report.file_status(&shown) < self.block_at && self.report.conflict_at(&shown).is_none()
    }

    /// The author of `entry` (a block's `**By:**` line) when it is not the current user.
    pub(crate) fn other_author(&self, entry: &str) -> Option<String> {
        author::other(author::of_entry(entry).as_deref(), self.me.as_deref()).map(str::to_string)
    }

    /// Whether `file` is SUSPICIOUS.
    pub(crate) fn suspicious(&self, file: &str) -> bool {
        self.report.file_status(&self.rune.show(file)) == Status::Suspicious
    }

    /// A section title, marked when its file is SUSPICIOUS.
    pub(crate) fn mark(&self, file: &str, title: String) -> String {
        if self.suspicious(file) {
            format!("{title} (⚠ SUSPICIOUS source: {})", self.rune.show(file))
        } else {
            title
        }
    }

    /// The sections of `lines` from `file`: the reviewed lines under `title` (marked when
    /// the file is SUSPICIOUS), the unreviewed ones quoted under a title that says so.
    fn sections(
        &self,
        file: &str,
        title: &str,
        lines: Vec<(String, Verdict)>,
        priority: u8,
    ) -> Vec<Section> {
        let (ok, not): (Vec<_>, Vec<_>) = lines.into_iter().partition(|(_, v)| v.reviewed());
        let mut out = Vec::new();
        out.extend(self.reviewed_section(file, title, ok, priority));
        out.extend(self.unreviewed_section(file, title, &not, priority));
        out
    }

    /// The sections of `lines` (newest first) that keep their order by time: each run of
    /// reviewed or unreviewed lines is one section, so a teammate's newer entry comes before
    /// an older one of yours, and an older one after it.
    fn sections_in_order(
        &self,
        file: &str,
        title: &str,
        lines: Vec<(String, Verdict)>,
        priority: u8,
    ) -> Vec<Section> {
        let mut out = Vec::new();
        let mut run: Vec<(String, Verdict)> = Vec::new();
        for line in lines {
            if run
                .last()
                .is_some_and(|(_, v)| v.reviewed() != line.1.reviewed())
            {
                out.extend(self.sections(file, title, std::mem::take(&mut run), priority));
            }
            run.push(line);
        }
        out.extend(self.sections(file, title, run, priority));
        out
    }

    fn reviewed_section(
        &self,
        file: &str,
        title: &str,
        ok: Vec<(String, Verdict)>,
        priority: u8,
    ) -> Option<Section> {
        if ok.is_empty() {
            return None;
        }
        let body: Vec<String> = ok.into_iter().map(|(l, _)| l).collect();
        Some(
            Section::new(self.mark(file, title.into()), body.join("\n"), priority)
                .source(self.rune.show(file)),
        )
    }

    fn unreviewed_section(
        &self,
        file: &str,
        title: &str,
        not: &[(String, Verdict)],
        priority: u8,
    ) -> Option<Section> {
        if not.is_empty() {
            return None;
        }
        let origin = |v: &Verdict| match v {
            Verdict::Unreviewed(o) => o.clone(),
            Verdict::Reviewed => String::new(),
        };
        // One origin for all (a first load, one teammate's pull) is said once.
        let first = origin(&not[0].1);
        let shared = not.iter().all(|(_, v)| origin(v) == first);
        let body: Vec<String> = not
            .iter()
            .map(|(l, v)| {
                let l = l.trim_start_matches("- ");
                if shared {
                    quote(&format!("- {l}"))
                } else {
                    quote(&format!("- {l} [{}]", origin(v)))
                }
            })
            .collect();
        let head = if shared {
            format!("{title} — ⚠ unreviewed ({first})")
        } else {
            format!("{title} — ⚠ unreviewed (not written through baton)")
        };
        Some(
            Section::new(
                self.mark(file, head),
                body.join("\n"),
                priority.saturating_sub(1),
            )
            .source(self.rune.show(file)),
        )
    }
}

/// `text` as quoted data: every line behind `> `.
pub(crate) fn quote(text: &str) -> String {
    text.lines()
        .map(|l| format!("> {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Entry counts the summary already took.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Counts {
    pub(crate) decisions: usize,
    pub(crate) conventions: usize,
    pub(crate) learnings: usize,
}

/// The memory sections, in order; `progress` is the newest progress entry, `global_store`
/// the user-level store of cross-project instincts.
pub(crate) fn sections(
    v: &View<'_>,
    counts: &Counts,
    progress: Option<&str>,
    global_store: Option<&Path>,
) -> Result<Vec<Section>> {
    let mut out = Vec::new();
    if v.ok(store::CONVENTIONS) && counts.conventions > 0 {
        out.extend(conventions_section(v)?);
    }
    if v.ok(store::DECISIONS) && counts.decisions > 0 {
        out.extend(decisions_section(v)?);
    }
    out.extend(progress.map(|p| progress_section(v, p)).unwrap_or_default());
    if v.ok(store::NOTES) {
        out.extend(notes_section(v)?);
    }
    if v.ok(store::TASK_NOTES) {
        out.extend(task_notes_section(v)?);
    }
    if v.ok(store::LEARNINGS) && counts.learnings > 0 {
        out.extend(learnings_section(v, counts.learnings)?);
    }
    if v.ok(store::INSTINCTS) {
        out.extend(instincts_section(v)?);
    }
    if let Some(g) = global_store {
        out.extend(cross_project_instincts(v, g)?);
        out.extend(cross_project_learnings(v, g));
    }
    Ok(out)
}

/// Recent conventions: the titles of the newest three (the file holds the patterns).
fn conventions_section(v: &View<'_>) -> Result<Vec<Section>> {
    let entries = v.newest(store::CONVENTIONS, 3)?;
    let lines = entries
        .iter()
        .map(|e| {
            let h = heading_of(e);
            let title = h.split_once("Convention:").map_or(h, |(_, t)| t).trim();
            let by = v.other_author(e);
            let mut l = format!(
                "- {title} ({})",
                author::with_age("", by.as_deref(), &aged(h, v.now))
            );
            if let Some(a) = field(e, "Applies to") {
                l.push_str(&format!(" — applies to {a}"));
            }
            (l, v.trust.verdict(store::CONVENTIONS, e))
        })
        .collect();
    Ok(v.sections_in_order(store::CONVENTIONS, "Recent conventions", lines, 55))
}

/// Recent decisions: the newest three, newest first, with what was decided and by whom.
fn decisions_section(v: &View<'_>) -> Result<Vec<Section>> {
    let entries = v.newest(store::DECISIONS, 3)?;
    let lines = entries
        .iter()
        .map(|e| {
            let h = heading_of(e);
            let title = h.split_once("Decision:").map_or(h, |(_, t)| t).trim();
            let date = h
                .strip_prefix('[')
                .and_then(|r| r.split_once(']'))
                .map_or("", |(d, _)| d);
            let by = v.other_author(e);
            let when = author::with_age("decided", by.as_deref(), &aged(h, v.now));
            let mut l = format!("- [{date}] {title} ({when})");
            if let Some(d) = field(e, "Decision") {
                l.push_str(&format!(": {d}"));
            }
            (l, v.trust.verdict(store::DECISIONS, e))
        })
        .collect();
    Ok(v.sections_in_order(store::DECISIONS, "Recent decisions", lines, 70))
}

/// What the newest progress entry has in progress and blocked (and, when it is unreviewed,
/// what it says to do next: the summary does not quote it).
fn progress_section(v: &View<'_>, entry: &str) -> Vec<Section> {
    let verdict = v.trust.verdict(store::PROGRESS, entry);
    let mut lines = Vec::new();
    let mut groups = vec![("In Progress", "In progress"), ("Blocked", "Blocked")];
    if !verdict.reviewed() {
        groups.push(("Next Session Should", "Next"));
    }
    for (title, label) in groups {
        for item in progress_items(entry, title) {
            lines.push((format!("- {label}: {item}"), verdict.clone()));
        }
    }
    let mut title = format!("Progress as of {}", aged(heading_of(entry), v.now));
    if let Some(a) = v.other_author(entry) {
        title.push_str(&format!(" — by {a}"));
    }
    v.sections(store::PROGRESS, &title, lines, 75)
}

/// Project understanding: the newest five items of the notes' active topics, attention
/// points and follow-ups (by their stamps), newest first.
fn notes_section(v: &View<'_>) -> Result<Vec<Section>> {
    const SHOWN: [&str; 3] = ["Active Topics", "Attention Points", "Follow-Up Items"];
    // Each section's newest five items.
    let found = v
        .shown
        .borrow_mut()
        .get(v.rune, store::NOTES, "sections", v.red, |p| {
            Ok(file_section_items(p, &SHOWN)?.map(|found| {
                found
                    .into_iter()
                    .map(|items| {
                        let mut items = newest_first(items, item_time);
                        items.truncate(5);
                        items
                    })
                    .collect::<Vec<_>>()
            }))
        })?;
    let Some(found) = found else {
        return Ok(Vec::new());
    };
    let mut lines = Vec::new();
    for (name, items) in SHOWN.into_iter().zip(found) {
        if items.is_empty() {
            continue;
        }
        let shown: Vec<(String, Verdict)> = items
            .iter()
            .map(|i| {
                (
                    item_with_age(i, v.now, v.me.as_deref()),
                    v.trust.verdict(store::NOTES, &item_entry(name, i)),
                )
            })
            .collect();
        // The label goes with the reviewed items; an unreviewed one carries it inline.
        if shown.iter().any(|(_, vd)| vd.reviewed()) {
            lines.push((format!("{name}:"), Verdict::Reviewed));
        }
        for (l, vd) in shown {
            let l = if vd.reviewed() {
                l
            } else {
                format!("{name}: {}", l.trim_start_matches("- "))
            };
            lines.push((l, vd));
        }
    }
    Ok(v.sections(store::NOTES, "Project understanding", lines, 60))
}

/// Task notes (autonomous loops): what worked, failed, is left, and the key context, from
/// the file's tail, newest first.
fn task_notes_section(v: &View<'_>) -> Result<Vec<Section>> {
    let Some((text, _)) = fsx::read_tail(&v.rune.path(store::TASK_NOTES), TASK_NOTES_TAIL)? else {
        return Ok(Vec::new());
    };
    let mut lines = Vec::new();
    for (section, label, last) in [
        ("What Worked (with evidence)", "Worked", 3),
        ("What Failed", "Failed before", 5),
        ("What's Left", "Left", 5),
        ("Key Context for Next Iteration", "Key context", 3),
    ] {
        let mut items = newest_first(section_items(&text, section), item_time);
        items.truncate(last);
        for i in &items {
            lines.push((
                format!(
                    "{label}: {}",
                    item_with_age(i, v.now, v.me.as_deref()).trim_start_matches("- ")
                ),
                v.trust.verdict(store::TASK_NOTES, &item_entry(section, i)),
            ));
        }
    }
    Ok(v.sections(store::TASK_NOTES, "Task notes", lines, 65))
}

/// Learnings: the top 5 (confidence, then recency) when there are 10+, else the latest.
fn learnings_section(v: &View<'_>, on_file: usize) -> Result<Vec<Section>> {
    let top = on_file >= 10;
    let kind = if top { "top5" } else { "last5" };
    let shown = v
        .shown
        .borrow_mut()
        .get(v.rune, store::LEARNINGS, kind, v.red, |p| {
            shown_learnings(p, top)
        })?;
    let Some(raws) = shown else {
        return Ok(Vec::new());
    };
    let lines = raws
        .iter()
        .filter_map(|raw| Some((raw, serde_json::from_str::<learn::Record>(raw).ok()?)))
        .map(|(raw, r)| {
            let age = time::parse(&r.ts)
                .map_or_else(|| "undated".into(), |t| crate::core::time::age(t, v.now));
            let by = author::other(
                Some(r.by.as_str()).filter(|b| !b.is_empty()),
                v.me.as_deref(),
            );
            let age = author::with_age("", by, &age);
            (
                format!(
                    "- {} `{}` ({:.1}, {age}): {}",
                    r.kind, r.key, r.confidence, r.insight
                ),
                v.trust.verdict(store::LEARNINGS, raw),
            )
        })
        .collect();
    let title = if top { "Top learnings" } else { "Learnings" };
    let mut out = if top {
        v.sections(store::LEARNINGS, title, lines, 50)
    } else {
        v.sections_in_order(store::LEARNINGS, title, lines, 50)
    };
    for s in &mut out {
        s.source = Some("baton bridge learnings".into());
    }
    Ok(out)
}

/// The lines of the learnings shown (at most five, in the order shown), from the file's
/// tail: with `top`, the most confident winners (newest first among equals); else the
/// newest winners. `None` when the file does not exist.
fn shown_learnings(path: &Path, top: bool) -> Result<Option<Vec<String>>> {
    let Some((text, _)) = fsx::read_tail(path, LEARN_TAIL)? else {
        return Ok(None);
    };
    // Each record with the line it came from (its provenance is the line's).
    let (raws, records): (Vec<&str>, Vec<learn::Record>) = text
        .lines()
        .filter_map(|l| {
            serde_json::from_str::<learn::Record>(l)
                .ok()
                .map(|r| (l, r))
        })
        .unzip();
    let mut shown = learn::winners(&records);
    if top {
        // Each time parsed once, not at every comparison.
        let mut keyed: Vec<_> = shown
            .into_iter()
            .map(|i| (learn::when(&records[i]), i))
            .collect();
        keyed.sort_by(|(ta, a), (tb, b)| {
            records[*b]
                .confidence
                .partial_cmp(&records[*a].confidence)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then_with(|| tb.cmp(ta))
        });
        shown = keyed.into_iter().map(|(_, i)| i).collect();
    } else {
        shown.reverse();
    }
    shown.truncate(5);
    Ok(Some(shown.iter().map(|&i| raws[i].to_string()).collect()))
}

/// Instincts: the stale ones are pruned (the spec prunes at load), the strongest shown.
fn instincts_section(v: &View<'_>) -> Result<Vec<Section>> {
    let Some(text) = v.rune.read(store::INSTINCTS)? else {
        return Ok(Vec::new());
    };
    // Current conventions that passed the scan and are reviewed rule instincts out.
    let conventions = if v.ok(store::CONVENTIONS) {
        instincts::conventions(&v.rune.path(store::CONVENTIONS), |e| {
            v.trust.knows(store::CONVENTIONS, e)
        })
    } else {
        Vec::new()
    };
    let text = prune_instincts(v.rune, text, v.now, &conventions);
    let lines = instincts::strongest(&text, 5)
        .iter()
        .map(|e| {
            let age =
                e.at.map_or_else(|| "undated".into(), |t| crate::core::time::age(t, v.now));
            let by = v.other_author(&e.text);
            (
                format!(
                    "- {}: when {} → {} ({:.1}, {})",
                    e.name(),
                    e.field("Trigger"),
                    e.field("Action"),
                    e.confidence,
                    author::with_age("", by.as_deref(), &age)
                ),
                v.trust.verdict(store::INSTINCTS, &e.text),
            )
        })
        .collect();
    Ok(v.sections(store::INSTINCTS, "Instincts", lines, 45))
}

/// Cross-project instincts from the user-level store `dir`, those this project does not
/// hold already: accepted ones as memory, pending ones as unreviewed data.
fn cross_project_instincts(v: &View<'_>, dir: &Path) -> Result<Vec<Section>> {
    let local = if v.ok(store::INSTINCTS) {
        v.rune.read(store::INSTINCTS)?.unwrap_or_default()
    } else {
        String::new()
    };
    let ledger = global::ledger(v.env);
    let lines = global::for_load(dir, &ledger, &local, v.red, v.now);
    Ok(cross_project(
        v,
        store::INSTINCTS,
        "Cross-project instincts",
        lines,
        40,
    ))
}

/// The sections of promoted lines (`(line, accepted)`): accepted ones as memory, pending
/// ones as unreviewed data.
fn cross_project(
    v: &View<'_>,
    file: &str,
    title: &str,
    lines: Vec<(String, bool)>,
    priority: u8,
) -> Vec<Section> {
    let lines: Vec<(String, Verdict)> = lines
        .into_iter()
        .map(|(l, accepted)| {
            let verdict = if accepted {
                Verdict::Reviewed
            } else {
                Verdict::Unreviewed("promoted from other projects, not accepted yet".into())
            };
            (l, verdict)
        })
        .collect();
    let mut out = v.sections(file, title, lines, priority);
    for s in &mut out {
        s.source = Some("baton bridge global list".into());
    }
    out
}

/// Cross-project learnings from the user-level store `dir`, those whose type+key this
/// project does not hold (in the learnings tail load reads): accepted ones as memory,
/// pending ones as unreviewed data.
fn cross_project_learnings(v: &View<'_>, dir: &Path) -> Vec<Section> {
    // Read only when the store holds a learning to check.
    let local: std::cell::OnceCell<Vec<learn::Record>> = std::cell::OnceCell::new();
    let has = |kind: &str, key: &str| {
        local
            .get_or_init(|| {
                let tail = v
                    .ok(store::LEARNINGS)
                    .then(|| fsx::read_tail(&v.rune.path(store::LEARNINGS), LEARN_TAIL));
                match tail {
                    Some(Ok(Some((t, _)))) => learn::parse(&t),
                    _ => Vec::new(),
                }
            })
            .iter()
            .any(|r| r.kind == kind && r.key == key)
    };
    let ledger = global::ledger(v.env);
    let lines = global::learnings_for_load(dir, &ledger, has, v.red, v.now);
    cross_project(v, store::LEARNINGS, "Cross-project learnings", lines, 38)
}

/// Prunes the stale instincts of `snapshot` (read without the lock) and those `conventions`
/// rule out, for display, and in the
/// file when the lock is free right now: the file is re-read and pruned under the lock, so an
/// instinct saved since the snapshot is kept. Pruning is housekeeping: a busy lock or a
/// failed write must neither stop nor delay the load.
pub(crate) fn prune_instincts(
    rune: &Rune,
    snapshot: String,
    now: DateTime<Utc>,
    conventions: &[instincts::Convention],
) -> String {
    let Some((pruned, _)) = instincts::prune(&snapshot, now, conventions) else {
        return snapshot;
    };
    let Ok(_lock) = rune.try_lock() else {
        return pruned;
    };
    match rune.read(store::INSTINCTS) {
        Ok(Some(current)) => match instincts::prune(&current, now, conventions) {
            Some((fresh, _)) => {
                let _ = rune.write(store::INSTINCTS, &fresh);
                fresh
            }
            None => current,
        },
        _ => pruned,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::instincts::{add, Entry, Instinct};

    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn inst(name: &str, c: f64) -> Instinct {
        Instinct {
            name: name.into(),
            trigger: "when x".into(),
            action: "do y".into(),
            confidence: Some(c),
            evidence: "seen".into(),
        }
    }

    #[test]
    fn prune_keeps_an_instinct_saved_after_the_snapshot_and_skips_a_busy_lock() {
        let tmp = tempfile::tempdir().unwrap();
        let rune = Rune {
            root: tmp.path().into(),
            dir: tmp.path().join(".rune"),
            rel: ".rune".into(),
        };
        std::fs::create_dir(&rune.dir).unwrap();
        let now = t("2026-11-30T10:00:00Z");
        let old = Entry::new(&inst("old-weak", 0.3), t("2026-09-01T00:00:00Z"), None);
        let (snapshot, _) = add(None, &[old], &[]);
        // Another process saves an instinct after load's unlocked read.
        let (on_disk, _) = add(
            Some(&snapshot),
            &[Entry::new(&inst("fresh", 0.6), now, None)],
            &[],
        );
        rune.write(store::INSTINCTS, &on_disk).unwrap();
        let shown = prune_instincts(&rune, snapshot.clone(), now, &[]);
        let file = rune.read(store::INSTINCTS).unwrap().unwrap();
        assert!(
            file.contains("fresh") && !file.contains("old-weak"),
            "{file}"
        );
        assert!(shown.contains("fresh"), "{shown}");

        // A busy lock: no wait, no write, the pruned snapshot is shown.
        rune.write(store::INSTINCTS, &snapshot).unwrap();
        let held = rune.lock().unwrap();
        let start = std::time::Instant::now();
        let shown = prune_instincts(&rune, snapshot.clone(), now, &[]);
        assert!(start.elapsed() < std::time::Duration::from_secs(1));
        assert!(!shown.contains("old-weak"));
        assert_eq!(rune.read(store::INSTINCTS).unwrap().unwrap(), snapshot);
        drop(held);
    }
}
