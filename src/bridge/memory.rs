//! The memory sections of load mode: recent conventions and decisions, progress, project
//! notes, task notes, learnings, instincts and cross-project instincts, each entry with its
//! age, each section marked when its file is SUSPICIOUS and left out when it is blocked.

use super::entries::{
    aged, field, heading_of, item_with_age, last_entries, progress_items, section_items,
};
use super::integrity::{Report, Status};
use super::learn;
use super::store::{self, Rune};
use crate::core::budget::Section;
use crate::core::error::Result;
use crate::core::redact::Redactor;
use chrono::{DateTime, Utc};
use std::path::Path;

/// Bytes of learnings.jsonl read for the top 5.
const LEARN_TAIL: u64 = 64 * 1024;

/// What the sections are built from: the folder, the integrity verdicts, the clock.
pub(crate) struct View<'a> {
    pub(crate) rune: &'a Rune,
    pub(crate) report: &'a Report,
    /// The verdict from which a file is not injected.
    pub(crate) block_at: Status,
    pub(crate) now: DateTime<Utc>,
    pub(crate) red: &'a Redactor,
}

impl View<'_> {
    /// Whether `file` may be injected.
    pub(crate) fn ok(&self, file: &str) -> bool {
        self.report.file_status(&self.rune.show(file)) < self.block_at
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
}

/// Entry counts the summary already took.
pub(crate) struct Counts {
    pub(crate) decisions: usize,
    pub(crate) conventions: usize,
    pub(crate) learnings: usize,
}

/// The memory sections, in order.
#[allow(clippy::too_many_lines)]
pub(crate) fn sections(
    v: &View<'_>,
    counts: &Counts,
    progress: Option<&str>,
    global: Option<&Path>,
) -> Result<Vec<Section>> {
    let mut out = Vec::new();
    // Recent conventions (titles; the file holds the patterns).
    if v.ok(store::CONVENTIONS) && counts.conventions > 0 {
        let entries = last_entries(&v.rune.path(store::CONVENTIONS), 3)?;
        let lines: Vec<String> = entries
            .iter()
            .rev()
            .map(|e| {
                let h = heading_of(e);
                let title = h.split_once("Convention:").map_or(h, |(_, t)| t).trim();
                let mut l = format!("- {title} ({})", aged(h, v.now));
                if let Some(a) = field(e, "Applies to") {
                    l.push_str(&format!(" — applies to {a}"));
                }
                l
            })
            .collect();
        out.push(
            Section::new(
                v.mark(store::CONVENTIONS, "Recent conventions".into()),
                lines.join("\n"),
                55,
            )
            .source(v.rune.show(store::CONVENTIONS)),
        );
    }

    // Recent decisions.
    if v.ok(store::DECISIONS) && counts.decisions > 0 {
        let entries = last_entries(&v.rune.path(store::DECISIONS), 3)?;
        let lines: Vec<String> = entries
            .iter()
            .rev()
            .map(|e| {
                let h = heading_of(e);
                let title = h.split_once("Decision:").map_or(h, |(_, t)| t).trim();
                let date = h.get(1..17).unwrap_or("");
                let mut l = format!("- [{date}] {title} ({})", aged(h, v.now));
                if let Some(d) = field(e, "Decision") {
                    l.push_str(&format!(": {d}"));
                }
                l
            })
            .collect();
        out.push(
            Section::new(
                v.mark(store::DECISIONS, "Recent decisions".into()),
                lines.join("\n"),
                70,
            )
            .source(v.rune.show(store::DECISIONS)),
        );
    }

    // Progress.
    if let Some(p) = progress {
        let mut lines = Vec::new();
        for (title, label) in [("In Progress", "In progress"), ("Blocked", "Blocked")] {
            for item in progress_items(p, title) {
                lines.push(format!("- {label}: {item}"));
            }
        }
        if !lines.is_empty() {
            out.push(
                Section::new(
                    v.mark(
                        store::PROGRESS,
                        format!("Progress as of {}", aged(heading_of(p), v.now)),
                    ),
                    lines.join("\n"),
                    75,
                )
                .source(v.rune.show(store::PROGRESS)),
            );
        }
    }

    // Notes: active topics and attention points.
    if v.ok(store::NOTES) {
        if let Some(text) = v.rune.read(store::NOTES)? {
            let mut lines = Vec::new();
            for name in ["Active Topics", "Attention Points", "Follow-Up Items"] {
                let items = section_items(&text, name);
                if items.is_empty() {
                    continue;
                }
                lines.push(format!("{name}:"));
                for i in items.iter().skip(items.len().saturating_sub(5)) {
                    lines.push(item_with_age(i, v.now));
                }
            }
            if !lines.is_empty() {
                out.push(
                    Section::new(
                        v.mark(store::NOTES, "Project understanding".into()),
                        lines.join("\n"),
                        60,
                    )
                    .source(v.rune.show(store::NOTES)),
                );
            }
        }
    }

    // Task notes (autonomous loops).
    if v.ok(store::TASK_NOTES) {
        if let Some((text, _)) = store::read_tail(&v.rune.path(store::TASK_NOTES), 8192)? {
            let left = section_items(&text, "What's Left");
            let failed = section_items(&text, "What Failed");
            let worked = section_items(&text, "What Worked (with evidence)");
            let key = section_items(&text, "Key Context for Next Iteration");
            let mut lines = Vec::new();
            for i in worked.iter().rev().take(3).rev() {
                lines.push(format!(
                    "Worked: {}",
                    item_with_age(i, v.now).trim_start_matches("- ")
                ));
            }
            for i in failed.iter().rev().take(5).rev() {
                lines.push(format!(
                    "Failed before: {}",
                    item_with_age(i, v.now).trim_start_matches("- ")
                ));
            }
            for i in left.iter().rev().take(5).rev() {
                lines.push(format!(
                    "Left: {}",
                    item_with_age(i, v.now).trim_start_matches("- ")
                ));
            }
            for i in key.iter().rev().take(3).rev() {
                lines.push(format!(
                    "Key context: {}",
                    item_with_age(i, v.now).trim_start_matches("- ")
                ));
            }
            if !lines.is_empty() {
                out.push(
                    Section::new(
                        v.mark(store::TASK_NOTES, "Task notes".into()),
                        lines.join("\n"),
                        65,
                    )
                    .source(v.rune.show(store::TASK_NOTES)),
                );
            }
        }
    }

    // Learnings: the top 5 (confidence, then recency) when there are 10+, else the latest.
    if v.ok(store::LEARNINGS) && counts.learnings > 0 {
        if let Some((text, _)) = store::read_tail(&v.rune.path(store::LEARNINGS), LEARN_TAIL)? {
            let mut recs = learn::latest(&learn::parse(&text));
            if counts.learnings >= 10 {
                recs.sort_by(|a, b| {
                    b.confidence
                        .partial_cmp(&a.confidence)
                        .unwrap_or(std::cmp::Ordering::Equal)
                        .then_with(|| learn::when(b).cmp(&learn::when(a)))
                });
            } else {
                recs.reverse();
            }
            recs.truncate(5);
            let lines: Vec<String> = recs
                .iter()
                .map(|r| {
                    let age = DateTime::parse_from_rfc3339(&r.ts).map_or_else(
                        |_| "undated".into(),
                        |t| store::age(t.with_timezone(&Utc), v.now),
                    );
                    format!(
                        "- {} `{}` ({:.1}, {age}): {}",
                        r.kind, r.key, r.confidence, r.insight
                    )
                })
                .collect();
            out.push(
                Section::new(
                    v.mark(
                        store::LEARNINGS,
                        if counts.learnings >= 10 {
                            "Top learnings"
                        } else {
                            "Learnings"
                        }
                        .into(),
                    ),
                    lines.join("\n"),
                    50,
                )
                .source("baton bridge learnings"),
            );
        }
    }

    // Instincts: the stale ones are pruned (the spec prunes at load), the strongest shown.
    if v.ok(store::INSTINCTS) {
        if let Some(text) = v.rune.read(store::INSTINCTS)? {
            let text = prune_instincts(v.rune, text, v.now);
            let lines: Vec<String> = super::instincts::strongest(&text, 5)
                .iter()
                .map(|e| {
                    format!(
                        "- {}: when {} → {} ({:.1}, {})",
                        e.name(),
                        e.field("Trigger"),
                        e.field("Action"),
                        e.confidence,
                        e.at.map_or_else(|| "undated".into(), |t| store::age(t, v.now))
                    )
                })
                .collect();
            if !lines.is_empty() {
                out.push(
                    Section::new(
                        v.mark(store::INSTINCTS, "Instincts".into()),
                        lines.join("\n"),
                        45,
                    )
                    .source(v.rune.show(store::INSTINCTS)),
                );
            }
        }
    }

    // Cross-project instincts from the user-level store.
    if let Some(g) = global {
        let local = if v.ok(store::INSTINCTS) {
            v.rune.read(store::INSTINCTS)?.unwrap_or_default()
        } else {
            String::new()
        };
        let lines = super::global::for_load(g, &local, v.red, v.now);
        if !lines.is_empty() {
            out.push(
                Section::new("Cross-project instincts", lines.join("\n"), 40)
                    .source("~/.local/share/baton/global.jsonl"),
            );
        }
    }
    Ok(out)
}

/// Prunes the stale instincts of `snapshot` (read without the lock) for display, and in the
/// file when the lock is free right now: the file is re-read and pruned under the lock, so an
/// instinct saved since the snapshot is kept. Pruning is housekeeping: a busy lock or a
/// failed write must neither stop nor delay the load.
pub(crate) fn prune_instincts(rune: &Rune, snapshot: String, now: DateTime<Utc>) -> String {
    let Some((pruned, _)) = super::instincts::prune(&snapshot, now) else {
        return snapshot;
    };
    let Ok(_lock) = rune.try_lock() else {
        return pruned;
    };
    match rune.read(store::INSTINCTS) {
        Ok(Some(current)) => match super::instincts::prune(&current, now) {
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
    use crate::bridge::instincts::{add, Entry};
    use crate::bridge::save::Instinct;

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
            dir: tmp.path().join(".rune"),
            rel: ".rune".into(),
        };
        std::fs::create_dir(&rune.dir).unwrap();
        let now = t("2026-11-30T10:00:00Z");
        let old = Entry::new(&inst("old-weak", 0.3), t("2026-09-01T00:00:00Z"));
        let (snapshot, _) = add(None, &[old]);
        // Another process saves an instinct after load's unlocked read.
        let (on_disk, _) = add(Some(&snapshot), &[Entry::new(&inst("fresh", 0.6), now)]);
        rune.write(store::INSTINCTS, &on_disk).unwrap();
        let shown = prune_instincts(&rune, snapshot.clone(), now);
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
        let shown = prune_instincts(&rune, snapshot.clone(), now);
        assert!(start.elapsed() < std::time::Duration::from_secs(1));
        assert!(!shown.contains("old-weak"));
        assert_eq!(rune.read(store::INSTINCTS).unwrap().unwrap(), snapshot);
        drop(held);
    }
}
