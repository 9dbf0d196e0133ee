//! One day of the audit as the daily report shows it: the sessions open that day with their
//! figures for that day only, the day's totals, anomalies, backlog and integrity notes.
//! Gathered once from the index (sessions that have ended) and the files of sessions still
//! open; the markdown (report.rs), the HTML page (report_html.rs) and the review
//! (report_review.rs) only render it.

use super::index::{self, Entry, Index};
use super::stats::Stats;
use super::store::{self, Store};
use crate::core::error::Result;
use crate::core::project::Project;
use crate::core::text::{clip, one_line};
use crate::core::time;
use crate::core::trust;
use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use std::collections::{BTreeMap, HashMap};

/// One session as the report sees it.
pub(crate) struct Row {
    pub(crate) entry: Entry,
    /// Its figures for the day.
    pub(crate) stats: Stats,
}

/// Everything one day's report shows.
pub(crate) struct Day {
    pub(crate) date: NaiveDate,
    pub(crate) rows: Vec<Row>,
    /// Calls per tool, all sessions together.
    pub(crate) tools: BTreeMap<String, u64>,
    /// Changes per file, all sessions together.
    pub(crate) files: BTreeMap<String, u64>,
    pub(crate) anomalies: Vec<String>,
    pub(crate) backlog: Vec<String>,
    /// Problems with the files the figures come from.
    pub(crate) integrity: Vec<String>,
}

impl Day {
    /// Gathers `date` for `project`.
    pub(crate) fn gather(store: &Store, project: &Project, date: NaiveDate) -> Result<Day> {
        let now = project.now();
        let (idx, problem) = index::load(store)?;
        let persisted = super::persist::load(store)?;
        let (rows, unreadable) = rows(store, &idx, &persisted, date, now)?;
        let mut day = Day {
            date,
            rows,
            tools: BTreeMap::new(),
            files: BTreeMap::new(),
            anomalies: Vec::new(),
            backlog: Vec::new(),
            integrity: problem.into_iter().chain(unreadable).collect(),
        };
        for row in &day.rows {
            for (t, n) in &row.stats.tools {
                *day.tools.entry(t.clone()).or_default() += n;
            }
            for (f, n) in &row.stats.files {
                *day.files.entry(f.clone()).or_default() += n;
            }
        }
        day.refresh_statuses(store);
        day.anomalies(project, now);
        let day_end = day_start(date) + Duration::days(1);
        day.backlog(&idx, day_end, project.blocked_items(day_end));
        Ok(day)
    }

    /// Tools by count, most used first.
    pub(crate) fn tools_sorted(&self) -> Vec<(&String, u64)> {
        let mut v: Vec<_> = self.tools.iter().map(|(k, v)| (k, *v)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }

    /// Files by changes, most changed first.
    pub(crate) fn files_sorted(&self) -> Vec<(&String, u64)> {
        let mut v: Vec<_> = self.files.iter().map(|(k, v)| (k, *v)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }

    /// session.json may have been edited by hand since the index saw it (one small read per
    /// session of the day): its status wins, and one the audit does not know is flagged.
    fn refresh_statuses(&mut self, store: &Store) {
        for row in &mut self.rows {
            match store::read_meta(store, &row.entry.id) {
                Ok(meta) => row.entry.status = meta.status,
                Err(e) => self.integrity.push(format!("{}: {e}", row.entry.id)),
            }
            if !store::STATUSES.contains(&row.entry.status.as_str()) {
                self.integrity.push(format!(
                    "{}: session.json has status {:?} (expected one of {}); fix it by hand",
                    row.entry.id,
                    row.entry.status,
                    store::STATUSES.join(", ")
                ));
            }
        }
    }

    /// Failed calls, sessions open too long, redacted secrets, failed integrity checks, files
    /// edited more than `audit.hot_file_edits` times.
    fn anomalies(&mut self, project: &Project, now: DateTime<Utc>) {
        let config = &project.config().audit;
        let limit = Duration::hours(i64::from(config.long_session_hours));
        for row in &self.rows {
            let (s, e) = (&row.stats, &row.entry);
            if s.errors > 0 {
                let last = s
                    .failures
                    .last()
                    // A failure's text is tool output (core::trust: blocked → named).
                    .map_or(String::new(), |f| {
                        format!("; last: {}", trust::field(f, project.redactor()))
                    });
                self.anomalies
                    .push(format!("{}: {} failed tool call(s){last}", e.id, s.errors));
            }
            let open_for = e.end.unwrap_or(now) - e.start;
            if open_for > limit {
                let what = if e.status == "in_progress" {
                    "still open (abandoned?)"
                } else {
                    "long-running"
                };
                self.anomalies
                    .push(format!("{}: {what} for {} h", e.id, open_for.num_hours()));
            }
            if s.redactions > 0 {
                self.anomalies.push(format!(
                    "{}: {} secret(s) redacted from recorded input",
                    e.id, s.redactions
                ));
            }
            if !e.integrity.is_empty() {
                self.anomalies.push(format!(
                    "{}: integrity check failed ({})",
                    e.id,
                    e.integrity.len()
                ));
            }
        }
        for (f, n) in &self.files {
            if *n > u64::from(config.hot_file_edits) {
                let f = trust::field(f, project.redactor());
                self.anomalies.push(format!("{f}: edited {n} times"));
            }
        }
    }

    /// Unfinished named sessions (an automatic one is no task left undone: it ends with its
    /// Claude session), unpersisted corrections, and the bridge's blocked items (read by
    /// the bridge's own reader, through the project): those that existed by `day_end`, so a
    /// report of an earlier day lists nothing that came later.
    fn backlog(&mut self, idx: &Index, day_end: DateTime<Utc>, blocked: Vec<String>) {
        for e in idx
            .sessions
            .iter()
            .filter(|e| e.status == "in_progress" && e.start < day_end && !e.is_auto())
        {
            self.backlog
                .push(format!("unfinished session {} — {}", e.id, e.task));
        }
        for row in &self.rows {
            // A session's figures without a split per day (an older index) hold later days'.
            for c in row
                .stats
                .unpersisted()
                .filter(|c| time::parse(&c.ts).is_none_or(|t| t < day_end))
            {
                self.backlog
                    .push(format!("correction not persisted: {} \"{}\"", c.id, c.text));
            }
        }
        for item in blocked {
            self.backlog
                .push(format!("blocked: {}", clip(&one_line(&item), 160)));
        }
    }
}

/// The sessions of `date` with their figures for that day only (records whose `ts` falls on
/// it), and the lines of their files that could not be read. A session open across the day
/// but with nothing recorded on it is left out unless it started or ended on it.
pub(crate) fn rows(
    store: &Store,
    idx: &Index,
    persisted: &HashMap<String, Vec<String>>,
    date: NaiveDate,
    now: DateTime<Utc>,
) -> Result<(Vec<Row>, Vec<String>)> {
    let key = date.format("%Y-%m-%d").to_string();
    let mut rows = Vec::new();
    let mut unreadable = Vec::new();
    for e in on_day(idx, date, now) {
        let (whole, problems) = index::stats_of(store, e, persisted)?;
        unreadable.extend(problems);
        let stats = whole.day(&key).unwrap_or(whole);
        let touches = e.start.date_naive() == date || e.end.is_some_and(|t| t.date_naive() == date);
        if stats.records == 0 && !touches {
            continue;
        }
        rows.push(Row {
            entry: e.clone(),
            stats,
        });
    }
    Ok((rows, unreadable))
}

/// 00:00 UTC of `date`.
fn day_start(date: NaiveDate) -> DateTime<Utc> {
    Utc.from_utc_datetime(&date.and_hms_opt(0, 0, 0).unwrap_or_default())
}

/// Sessions that were open at some point of `date`.
fn on_day(idx: &Index, date: NaiveDate, now: DateTime<Utc>) -> Vec<&Entry> {
    let start = day_start(date);
    let end = start + Duration::days(1);
    idx.sessions
        .iter()
        .filter(|e| e.start < end && e.end.unwrap_or(now.max(e.start)) >= start)
        .collect()
}
