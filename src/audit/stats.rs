//! Per-session figures, computed once from the records (at `baton audit end`, or on the fly
//! for a session still open) and kept in the index so reports do not rescan trails.

use super::record::{Kind, Record};
use crate::core::text::{clip, one_line};
use crate::core::time;
use serde::{Deserialize, Serialize};
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
    /// Files the session's Bash commands wrote, found at its end (`integrity::check`): a
    /// command's record names no file unless it redirects into one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) bash_files: Vec<String>,
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
        records: &[Record],
        skipped: usize,
        persisted: &HashMap<String, Vec<String>>,
    ) -> Stats {
        let mut s = Stats::default();
        for r in records {
            s.add(r);
        }
        s.finish(skipped as u64, persisted)
    }

    /// Adds one record (deduplicated already) to the figures, whole and on its day: what
    /// `compute` does for each record, so a running total (the session's `summary.json`)
    /// comes out as `compute` over all of them would.
    pub(crate) fn add(&mut self, r: &Record) {
        self.add_one(r);
        if let Some(ts) = r.ts {
            self.by_day.entry(day_of(ts)).or_default().add_one(r);
        }
    }

    /// The figures as they are shown: `skipped` unreadable lines (counted on the day of the
    /// last record) and the later persist marks applied to the corrections.
    pub(crate) fn finish(
        mut self,
        skipped: u64,
        persisted: &HashMap<String, Vec<String>>,
    ) -> Stats {
        self.skipped = skipped;
        if let Some(last) = self.last_ts.as_deref().and_then(|t| t.get(..10)) {
            if let Some(d) = self.by_day.get_mut(last) {
                d.skipped = skipped;
            }
        }
        self.apply_persisted(persisted);
        for d in self.by_day.values_mut() {
            d.apply_persisted(persisted);
        }
        self
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

    /// Counts one record in these figures (not in `by_day`).
    fn add_one(&mut self, r: &Record) {
        self.records += 1;
        *self.by_type.entry(r.kind.as_str().to_string()).or_default() += 1;
        if let Some(ts) = r.ts {
            let earlier = |t: &Option<String>| t.as_deref().and_then(time::parse);
            if earlier(&self.first_ts).is_none_or(|f| ts < f) {
                self.first_ts = Some(time::rfc3339_millis(ts));
            }
            if earlier(&self.last_ts).is_none_or(|l| ts > l) {
                self.last_ts = Some(time::rfc3339_millis(ts));
            }
        }
        self.redactions += r.redactions;
        if r.is_tool_call() {
            self.count_tool_call(r);
            if self.failures.len() > KEEP {
                self.failures.drain(..self.failures.len() - KEEP);
            }
        } else if r.kind == Kind::UserCorrection {
            self.corrections.push(correction(r));
        }
    }

    /// Counts one `data` or `change` record.
    fn count_tool_call(&mut self, r: &Record) {
        *self.tools.entry(r.tool().to_string()).or_default() += 1;
        self.duration_ms += r.duration_ms.unwrap_or(0);
        if let Some(ts) = r.ts {
            *self.hours.entry(ts.format("%H").to_string()).or_default() += 1;
        }
        if r.failed() {
            self.errors += 1;
            let hm = r.hour_minute().unwrap_or_default();
            self.failures
                .push(format!("{hm} {}: {}", r.tool(), r.input_line()));
        }
        for p in r.changed_paths() {
            *self.files.entry(p.to_string()).or_default() += 1;
        }
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

/// The UTC day of a record (`YYYY-MM-DD`), the key of `by_day`.
fn day_of(ts: chrono::DateTime<chrono::Utc>) -> String {
    ts.format("%Y-%m-%d").to_string()
}

/// A `user_correction` record as the index keeps it, with its own `persisted_to` (each
/// place once); later marks are added by `finish`.
fn correction(r: &Record) -> Correction {
    let mut to = r.persisted_to.clone().unwrap_or_default();
    let mut seen = HashSet::new();
    to.retain(|p| seen.insert(p.clone()));
    Correction {
        id: r.id().to_string(),
        ts: r.ts.map(time::rfc3339_millis).unwrap_or_default(),
        text: clip(&one_line(r.text()), 200),
        persisted_to: to,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn records(lines: Vec<Value>) -> Vec<Record> {
        lines
            .into_iter()
            .map(|v| serde_json::from_value(v).unwrap())
            .collect()
    }

    #[test]
    fn figures_of_a_small_session() {
        let recs = records(vec![
            json!({"id":"1","ts":"2026-11-30T10:01:00.000Z","type":"data","tool":"Bash","input":"ls","outcome":"ok","duration_ms":5}),
            json!({"id":"2","ts":"2026-11-30T10:02:00.000Z","type":"change","tool":"Edit","input":"a.rs","path":"a.rs","outcome":"ok"}),
            json!({"id":"3","ts":"2026-11-30T11:03:00.000Z","type":"data","tool":"Bash","input":"false","outcome":"error","redactions":2}),
            json!({"id":"c-1","ts":"2026-11-30T11:04:00.000Z","type":"user_correction","text":"no, tabs","persisted_to":[]}),
        ]);
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
        let recs = records(vec![
            json!({"id":"c-1","ts":"2026-11-30T11:04:00.000Z","type":"user_correction","text":text}),
        ]);
        let s = Stats::compute(&recs, 0, &HashMap::new());
        assert_eq!(s.corrections[0].text, format!("{}…", "a".repeat(195)));
    }

    #[test]
    fn figures_are_kept_per_day() {
        let recs = records(vec![
            json!({"id":"1","ts":"2026-11-29T23:50:00.000Z","type":"data","tool":"Bash","input":"ls","outcome":"ok"}),
            json!({"id":"2","ts":"2026-11-30T00:10:00.000Z","type":"change","tool":"Edit","path":"a.rs","outcome":"error"}),
            json!({"id":"3","ts":"2026-11-30T00:20:00.000Z","type":"data","tool":"Read","input":"a.rs","outcome":"ok"}),
        ]);
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

    /// docs/audit.md: report-daily counts each record on the UTC day of its `ts`. A time written with
    /// an offset (a hand-edited or foreign line) was counted on its local day and hour, read
    /// off the text; the typed record reads it in UTC.
    #[test]
    fn issue_9_a_time_with_an_offset_counts_on_its_utc_day() {
        let recs = records(vec![
            json!({"id":"1","ts":"2026-12-01T00:30:00+01:00","type":"data","tool":"Bash","input":"ls","outcome":"error"}),
        ]);
        let s = Stats::compute(&recs, 0, &HashMap::new());
        assert_eq!(s.day("2026-11-30").unwrap().records, 1);
        assert_eq!(s.day("2026-12-01").unwrap().records, 0);
        assert_eq!(s.hours["23"], 1);
        assert_eq!(s.failures, vec!["23:30 Bash: ls"]);
        assert_eq!(s.first_ts.as_deref(), Some("2026-11-30T23:30:00.000Z"));
    }

    /// A timestamp that is not ASCII panicked a byte slice here. Such a line no longer becomes
    /// a record (the reader refuses it and says so); a record without a time still counts.
    #[test]
    fn a_non_ascii_timestamp_does_not_panic() {
        for line in [
            r#"{"id":"1","ts":"2026-11-28T1é:00","type":"data","tool":"Bash","input":"ls","outcome":"error"}"#,
            r#"{"id":"2","ts":"é","type":"change","tool":"Edit","path":"a.rs","outcome":"ok"}"#,
        ] {
            let why = crate::audit::record::parse::<Record>(line).unwrap_err();
            assert!(why.starts_with("bad timestamp"), "{why}");
        }
        let recs = records(vec![
            json!({"id":"1","type":"data","tool":"Bash","input":"ls","outcome":"error"}),
            json!({"id":"2","type":"change","tool":"Edit","path":"a.rs","outcome":"ok"}),
        ]);
        let s = Stats::compute(&recs, 0, &HashMap::new());
        assert_eq!(s.records, 2);
        assert!(s.hours.is_empty(), "{:?}", s.hours);
        assert_eq!(s.errors, 1);
        assert!(s.failures[0].ends_with("Bash: ls"), "{:?}", s.failures);
    }
}
