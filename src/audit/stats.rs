//! Per-session figures, computed once from the records (at `baton audit end`, or on the fly
//! for a session still open) and kept in the index so reports do not rescan trails.

use super::trail::{field, kind};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};

/// How many failure lines and corrections a session keeps in the index.
const KEEP: usize = 20;

/// A correction as the index and reports show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Correction {
    pub(crate) id: String,
    pub(crate) ts: String,
    pub(crate) text: String,
    #[serde(default)]
    pub(crate) persisted_to: Vec<String>,
}

/// The figures of one session.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Stats {
    pub(crate) records: u64,
    pub(crate) by_type: BTreeMap<String, u64>,
    pub(crate) tools: BTreeMap<String, u64>,
    pub(crate) errors: u64,
    /// `HH:MM tool: input` of failed calls (the last few).
    pub(crate) failures: Vec<String>,
    /// Edits per file.
    pub(crate) files: BTreeMap<String, u64>,
    pub(crate) corrections: Vec<Correction>,
    pub(crate) redactions: u64,
    pub(crate) duration_ms: u64,
    pub(crate) first_ts: Option<String>,
    pub(crate) last_ts: Option<String>,
    /// Tool calls per hour of the day (UTC), for the timeline.
    pub(crate) hours: BTreeMap<String, u64>,
    /// Lines that could not be read.
    pub(crate) skipped: u64,
    /// The same figures per UTC day (`YYYY-MM-DD` of each record's `ts`), so a session that
    /// spans midnight or stays open for days counts each record on its own day. Empty inside
    /// a day's figures.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) by_day: BTreeMap<String, Stats>,
}

impl Stats {
    /// Figures of `records` (deduplicated already), whole and per day. `persisted` maps a
    /// correction id to where it was persisted (from `persisted.jsonl`). The `skipped` lines
    /// have no time; they count on the day of the last record.
    pub(crate) fn compute(
        records: &[Value],
        skipped: usize,
        persisted: &HashMap<String, Vec<String>>,
    ) -> Stats {
        let mut s = Stats::tally(records.iter(), persisted);
        s.skipped = skipped as u64;
        let mut days: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
        for r in records {
            if let Some(day) = field(r, "ts").get(..10) {
                days.entry(day).or_default().push(r);
            }
        }
        for (day, recs) in days {
            s.by_day
                .insert(day.to_string(), Stats::tally(recs.into_iter(), persisted));
        }
        if let Some(last) = s.last_ts.as_deref().and_then(|t| t.get(..10)) {
            if let Some(d) = s.by_day.get_mut(last) {
                d.skipped = s.skipped;
            }
        }
        s
    }

    /// The figures of one day (`YYYY-MM-DD`); `None` when figures per day were not kept
    /// (an index written before they were).
    pub(crate) fn day(&self, day: &str) -> Option<Stats> {
        if self.records == 0 {
            return Some(self.clone());
        }
        if self.by_day.is_empty() {
            return None;
        }
        Some(self.by_day.get(day).cloned().unwrap_or_default())
    }

    fn tally<'a>(
        records: impl Iterator<Item = &'a Value>,
        persisted: &HashMap<String, Vec<String>>,
    ) -> Stats {
        let mut s = Stats::default();
        for r in records {
            s.records += 1;
            let k = kind(r);
            *s.by_type.entry(k.to_string()).or_default() += 1;
            let ts = field(r, "ts");
            if !ts.is_empty() {
                if s.first_ts.as_deref().is_none_or(|f| ts < f) {
                    s.first_ts = Some(ts.to_string());
                }
                if s.last_ts.as_deref().is_none_or(|l| ts > l) {
                    s.last_ts = Some(ts.to_string());
                }
            }
            s.redactions += r.get("redactions").and_then(Value::as_u64).unwrap_or(0);
            match k {
                "data" | "change" => {
                    let tool = field(r, "tool");
                    *s.tools.entry(tool.to_string()).or_default() += 1;
                    s.duration_ms += r.get("duration_ms").and_then(Value::as_u64).unwrap_or(0);
                    if let Some(hour) = ts.get(11..13) {
                        *s.hours.entry(hour.to_string()).or_default() += 1;
                    }
                    if field(r, "outcome") == "error" {
                        s.errors += 1;
                        let hm = ts.get(11..16).unwrap_or("");
                        s.failures
                            .push(format!("{hm} {tool}: {}", field(r, "input")));
                    }
                    if k == "change" {
                        let p = field(r, "path");
                        if !p.is_empty() {
                            *s.files.entry(p.to_string()).or_default() += 1;
                        }
                    }
                }
                "user_correction" => {
                    let id = field(r, "id").to_string();
                    let mut to: Vec<String> = r
                        .get("persisted_to")
                        .and_then(Value::as_array)
                        .map(|a| {
                            a.iter()
                                .filter_map(Value::as_str)
                                .map(str::to_string)
                                .collect()
                        })
                        .unwrap_or_default();
                    if let Some(more) = persisted.get(&id) {
                        to.extend(more.iter().cloned());
                    }
                    let mut seen = HashSet::new();
                    to.retain(|p| seen.insert(p.clone()));
                    s.corrections.push(Correction {
                        id,
                        ts: ts.to_string(),
                        text: super::record::cut_redacted(field(r, "text"), 200),
                        persisted_to: to,
                    });
                }
                _ => {}
            }
        }
        if s.failures.len() > KEEP {
            s.failures.drain(..s.failures.len() - KEEP);
        }
        s
    }

    /// Corrections with no `persisted_to`.
    pub(crate) fn unpersisted(&self) -> impl Iterator<Item = &Correction> {
        self.corrections
            .iter()
            .filter(|c| c.persisted_to.is_empty())
    }

    /// Applies later persist marks to the corrections kept here.
    pub(crate) fn apply_persisted(&mut self, persisted: &HashMap<String, Vec<String>>) {
        for c in &mut self.corrections {
            if let Some(more) = persisted.get(&c.id) {
                for p in more {
                    if !c.persisted_to.contains(p) {
                        c.persisted_to.push(p.clone());
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn figures_of_a_small_session() {
        let recs = vec![
            json!({"id":"1","ts":"2026-11-30T10:01:00.000Z","type":"data","tool":"Bash","input":"ls","outcome":"ok","duration_ms":5}),
            json!({"id":"2","ts":"2026-11-30T10:02:00.000Z","type":"change","tool":"Edit","input":"a.rs","path":"a.rs","outcome":"ok"}),
            json!({"id":"3","ts":"2026-11-30T11:03:00.000Z","type":"data","tool":"Bash","input":"false","outcome":"error","redactions":2}),
            json!({"id":"c-1","ts":"2026-11-30T11:04:00.000Z","type":"user_correction","text":"no, tabs","persisted_to":[]}),
        ];
        let mut persisted = HashMap::new();
        persisted.insert("c-1".to_string(), vec![".rune/conventions.md".to_string()]);
        let s = Stats::compute(&recs, 1, &persisted);
        assert_eq!(s.records, 4);
        assert_eq!(s.tools["Bash"], 2);
        assert_eq!(s.errors, 1);
        assert_eq!(s.failures, vec!["11:03 Bash: false"]);
        assert_eq!(s.files["a.rs"], 1);
        assert_eq!(s.redactions, 2);
        assert_eq!(s.hours["10"], 2);
        assert_eq!(s.corrections[0].persisted_to, vec![".rune/conventions.md"]);
        assert_eq!(s.unpersisted().count(), 0);
        assert_eq!(s.skipped, 1);
    }

    #[test]
    fn a_long_correction_is_not_cut_inside_a_redaction_mark() {
        let text = format!("{}[REDACTED] more", "a".repeat(195));
        let recs = vec![
            json!({"id":"c-1","ts":"2026-11-30T11:04:00.000Z","type":"user_correction","text":text}),
        ];
        let s = Stats::compute(&recs, 0, &HashMap::new());
        assert_eq!(s.corrections[0].text, format!("{}…", "a".repeat(195)));
    }

    #[test]
    fn figures_are_kept_per_day() {
        let recs = vec![
            json!({"id":"1","ts":"2026-11-29T23:50:00.000Z","type":"data","tool":"Bash","input":"ls","outcome":"ok"}),
            json!({"id":"2","ts":"2026-11-30T00:10:00.000Z","type":"change","tool":"Edit","path":"a.rs","outcome":"error"}),
            json!({"id":"3","ts":"2026-11-30T00:20:00.000Z","type":"data","tool":"Read","input":"a.rs","outcome":"ok"}),
        ];
        let s = Stats::compute(&recs, 2, &HashMap::new());
        assert_eq!(s.records, 3);
        let d29 = s.day("2026-11-29").unwrap();
        let d30 = s.day("2026-11-30").unwrap();
        assert_eq!((d29.records, d29.errors, d29.skipped), (1, 0, 0));
        assert_eq!((d30.records, d30.errors, d30.skipped), (2, 1, 2));
        assert_eq!(d30.files["a.rs"], 1);
        assert!(d30.by_day.is_empty());
        assert_eq!(s.day("2026-11-28").unwrap().records, 0);
        let mut old = s.clone();
        old.by_day.clear();
        assert!(old.day("2026-11-30").is_none());
    }

    #[test]
    fn a_non_ascii_timestamp_does_not_panic() {
        let recs = vec![
            json!({"id":"1","ts":"2026-11-28T1é:00","type":"data","tool":"Bash","input":"ls","outcome":"error"}),
            json!({"id":"2","ts":"é","type":"change","tool":"Edit","path":"a.rs","outcome":"ok"}),
        ];
        let s = Stats::compute(&recs, 0, &HashMap::new());
        assert_eq!(s.records, 2);
        assert!(s.hours.is_empty(), "{:?}", s.hours);
        assert_eq!(s.errors, 1);
        assert!(s.failures[0].ends_with("Bash: ls"), "{:?}", s.failures);
    }
}
