//! `baton audit report-daily [YYYYMMDD] [review] [--html]`: the seed's seven sections,
//! written to `.boo/reports/daily_YYYYMMDD.md` and printed. Figures come from the index
//! (sessions that have ended); only sessions still open are read from their files, so the
//! report does not grow with the history. `review` adds trends against the previous seven
//! days and recommended priorities; `--html` also writes a self-contained page with an SVG
//! chart and a timeline (report_html.rs).

use super::index::{self, Entry};
use super::stats::Stats;
use super::store::{self, Store};
use crate::core::config::Config;
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::project::Project;
use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use std::collections::BTreeMap;

/// Width of the longest bar in the markdown chart.
const BAR_WIDTH: u64 = 30;

/// Reads `[YYYYMMDD] [review]` in any order.
pub(crate) fn parse_args(args: &[String], now: DateTime<Utc>) -> Result<(NaiveDate, bool)> {
    let mut date = now.date_naive();
    let mut review = false;
    for a in args {
        if a == "review" {
            review = true;
        } else if a.len() == 8 && a.bytes().all(|b| b.is_ascii_digit()) {
            date = NaiveDate::parse_from_str(a, "%Y%m%d")
                .map_err(|_| Error::Usage(format!("{a} is not a valid date (YYYYMMDD)")))?;
        } else {
            return Err(Error::Usage(format!(
                "unexpected argument {a:?}: report-daily takes [YYYYMMDD] [review] [--html]"
            )));
        }
    }
    Ok((date, review))
}

/// One session as the report sees it.
pub(crate) struct Row {
    pub(crate) entry: Entry,
    pub(crate) stats: Stats,
}

/// Everything one day's report shows.
pub(crate) struct Day {
    pub(crate) date: NaiveDate,
    pub(crate) rows: Vec<Row>,
    pub(crate) tools: BTreeMap<String, u64>,
    pub(crate) files: BTreeMap<String, u64>,
    pub(crate) anomalies: Vec<String>,
    pub(crate) backlog: Vec<String>,
    pub(crate) integrity: Vec<String>,
}

fn day_bounds(date: NaiveDate) -> (DateTime<Utc>, DateTime<Utc>) {
    let start = Utc.from_utc_datetime(&date.and_hms_opt(0, 0, 0).unwrap_or_default());
    (start, start + Duration::days(1))
}

/// Sessions that were open at some point of `date`.
pub(crate) fn on_day(idx: &index::Index, date: NaiveDate, now: DateTime<Utc>) -> Vec<&Entry> {
    let (from, to) = day_bounds(date);
    idx.sessions
        .iter()
        .filter(|e| e.start < to && e.end.unwrap_or(now.max(e.start)) >= from)
        .collect()
}

/// The sessions of `date` with their figures for that day only (records whose `ts` falls on
/// it), and the lines of their files that could not be read. A session open across the day
/// but with nothing recorded on it is left out unless it started or ended on it.
pub(crate) fn day_rows(
    store: &Store,
    idx: &index::Index,
    persisted: &std::collections::HashMap<String, Vec<String>>,
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

/// Gathers the day.
fn gather(
    store: &Store,
    config: &Config,
    date: NaiveDate,
    now: DateTime<Utc>,
    blocked: Vec<String>,
) -> Result<Day> {
    let (idx, problem) = index::load(store)?;
    let persisted = super::persist::load(store)?;
    let mut day = Day {
        date,
        rows: Vec::new(),
        tools: BTreeMap::new(),
        files: BTreeMap::new(),
        anomalies: Vec::new(),
        backlog: Vec::new(),
        integrity: Vec::new(),
    };
    if let Some(p) = problem {
        day.integrity.push(p);
    }
    let (rows, unreadable) = day_rows(store, &idx, &persisted, date, now)?;
    day.integrity.extend(unreadable);
    for row in &rows {
        for (t, n) in &row.stats.tools {
            *day.tools.entry(t.clone()).or_default() += n;
        }
        for (f, n) in &row.stats.files {
            *day.files.entry(f.clone()).or_default() += n;
        }
    }
    day.rows = rows;
    // session.json may have been edited by hand since the index saw it (one small read per
    // session of the day).
    for row in &mut day.rows {
        match store::read_meta(store, &row.entry.id) {
            Ok(meta) => row.entry.status = meta.status,
            Err(e) => day.integrity.push(format!("{}: {e}", row.entry.id)),
        }
        if !store::STATUSES.contains(&row.entry.status.as_str()) {
            day.integrity.push(format!(
                "{}: session.json has status {:?} (expected one of {}); fix it by hand",
                row.entry.id,
                row.entry.status,
                store::STATUSES.join(", ")
            ));
        }
    }
    anomalies(&mut day, config, now);
    backlog(&idx, blocked, &mut day);
    Ok(day)
}

fn anomalies(day: &mut Day, config: &Config, now: DateTime<Utc>) {
    let limit = Duration::hours(i64::from(config.audit.long_session_hours));
    for row in &day.rows {
        let s = &row.stats;
        let e = &row.entry;
        if s.errors > 0 {
            let last = s
                .failures
                .last()
                .map_or(String::new(), |f| format!("; last: {f}"));
            day.anomalies
                .push(format!("{}: {} failed tool call(s){last}", e.id, s.errors));
        }
        let open_for = e.end.unwrap_or(now) - e.start;
        if open_for > limit {
            let what = if e.status == "in_progress" {
                "still open (abandoned?)"
            } else {
                "long-running"
            };
            day.anomalies
                .push(format!("{}: {what} for {} h", e.id, open_for.num_hours()));
        }
        if s.redactions > 0 {
            day.anomalies.push(format!(
                "{}: {} secret(s) redacted from recorded input",
                e.id, s.redactions
            ));
        }
        if !e.integrity.is_empty() {
            day.anomalies.push(format!(
                "{}: integrity check failed ({})",
                e.id,
                e.integrity.len()
            ));
        }
    }
    for (f, n) in &day.files {
        if *n > u64::from(config.audit.hot_file_edits) {
            day.anomalies.push(format!("{f}: edited {n} times"));
        }
    }
}

/// Unfinished sessions, unpersisted corrections, and the bridge's blocked items (read by the
/// bridge's own reader, handed in by the caller).
fn backlog(idx: &index::Index, blocked: Vec<String>, day: &mut Day) {
    for e in idx.sessions.iter().filter(|e| e.status == "in_progress") {
        day.backlog
            .push(format!("unfinished session {} — {}", e.id, e.task));
    }
    for row in &day.rows {
        for c in row.stats.unpersisted() {
            day.backlog
                .push(format!("correction not persisted: {} \"{}\"", c.id, c.text));
        }
    }
    for item in blocked {
        day.backlog
            .push(format!("blocked: {}", super::record::cut(&item, 160)));
    }
}

/// A unicode bar of `n` scaled to `max`.
fn bar(n: u64, max: u64) -> String {
    if max == 0 {
        return String::new();
    }
    let eighths = (n * BAR_WIDTH * 8).div_ceil(max);
    let full = usize::try_from(eighths / 8).unwrap_or(0);
    let rest = usize::try_from(eighths % 8).unwrap_or(0);
    let parts = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    format!("{}{}", "█".repeat(full), parts[rest])
}

/// Tools by count, most used first.
pub(crate) fn tools_sorted(tools: &BTreeMap<String, u64>) -> Vec<(&String, u64)> {
    let mut v: Vec<_> = tools.iter().map(|(k, v)| (k, *v)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    v
}

fn list(out: &mut String, items: &[String], none: &str) {
    if items.is_empty() {
        out.push_str(none);
        out.push('\n');
    }
    for i in items {
        out.push_str(&format!("- {i}\n"));
    }
}

/// The markdown report.
#[allow(clippy::too_many_lines)] // seven sections in order, read top to bottom
pub(crate) fn markdown(day: &Day) -> String {
    let mut out = format!("# Daily audit report — {}\n", day.date.format("%Y-%m-%d"));

    out.push_str("\n## 1. Task overview\n\n");
    if day.rows.is_empty() {
        out.push_str("No sessions on this day.\n");
    } else {
        out.push_str("| session | task | status | time (UTC) | records | integrity |\n|---|---|---|---|---:|---|\n");
        for r in &day.rows {
            let e = &r.entry;
            let end = e
                .end
                .map_or("open".to_string(), |t| t.format("%H:%M").to_string());
            let integrity = if e.status != "completed" {
                "—".to_string()
            } else if e.integrity_unknown {
                "unknown".to_string()
            } else if e.integrity.is_empty() {
                "ok".to_string()
            } else {
                format!("{} problem(s)", e.integrity.len())
            };
            out.push_str(&format!(
                "| {} | {} | {} | {}–{end} | {} | {integrity} |\n",
                e.id,
                e.task.replace('|', "\\|"),
                e.status,
                e.start.format("%H:%M"),
                r.stats.records
            ));
        }
    }

    out.push_str("\n## 2. Operation stats\n\n");
    let calls: u64 = day.tools.values().sum();
    let errors: u64 = day.rows.iter().map(|r| r.stats.errors).sum();
    let ms: u64 = day.rows.iter().map(|r| r.stats.duration_ms).sum();
    out.push_str(&format!(
        "{calls} tool calls, {errors} failed, {}.{} s in tools.\n",
        ms / 1000,
        ms % 1000 / 100
    ));
    let sorted = tools_sorted(&day.tools);
    if !sorted.is_empty() {
        let width = sorted
            .iter()
            .map(|(t, _)| t.chars().count())
            .max()
            .unwrap_or(0);
        let max = sorted.first().map_or(0, |x| x.1);
        out.push_str("\n```\n");
        for (t, n) in &sorted {
            out.push_str(&format!("{t:<width$}  {} {n}\n", bar(*n, max)));
        }
        out.push_str("```\n");
    }

    out.push_str("\n## 3. Change records\n\n");
    if day.files.is_empty() {
        out.push_str("No file changes recorded.\n");
    } else {
        let mut files: Vec<_> = day.files.iter().collect();
        files.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (f, n) in files.iter().take(30) {
            out.push_str(&format!("- {f} — {n} change(s)\n"));
        }
        if files.len() > 30 {
            out.push_str(&format!("- … and {} more files\n", files.len() - 30));
        }
    }

    out.push_str("\n## 4. User feedback & corrections\n\n");
    let corrections: Vec<String> = day
        .rows
        .iter()
        .flat_map(|r| {
            r.stats.corrections.iter().map(move |c| {
                let to = if c.persisted_to.is_empty() {
                    "not persisted".to_string()
                } else {
                    format!("persisted to {}", c.persisted_to.join(", "))
                };
                format!(
                    "{} ({}, {}): \"{}\" — {to}",
                    c.id,
                    r.entry.id,
                    c.ts.get(11..16).unwrap_or(""),
                    c.text
                )
            })
        })
        .collect();
    list(&mut out, &corrections, "No corrections.");

    out.push_str("\n## 5. Anomaly alerts\n\n");
    list(&mut out, &day.anomalies, "None.");

    out.push_str("\n## 6. Backlog\n\n");
    list(&mut out, &day.backlog, "Nothing outstanding.");

    out.push_str("\n## 7. Integrity summary\n\n");
    let ended: Vec<&Row> = day
        .rows
        .iter()
        .filter(|r| r.entry.status == "completed")
        .collect();
    let passed = ended.iter().filter(|r| r.entry.integrity_passed()).count();
    let unknown = ended.iter().filter(|r| r.entry.integrity_unknown).count();
    let unknown_text = if unknown == 0 {
        String::new()
    } else {
        format!(", {unknown} unknown (not recorded with the session; `baton audit end --session ID` checks again)")
    };
    let skipped: u64 = day.rows.iter().map(|r| r.stats.skipped).sum();
    out.push_str(&format!(
        "{} ended session(s): {passed} passed, {} failed{unknown_text}. {} unreadable line(s) skipped.\n",
        ended.len(),
        ended.len() - passed - unknown,
        skipped
    ));
    for r in &ended {
        for p in &r.entry.integrity {
            out.push_str(&format!("- {}: {p}\n", r.entry.id));
        }
    }
    for p in &day.integrity {
        out.push_str(&format!("- {p}\n"));
    }
    out
}

/// Runs the report: writes the files and returns what to print.
pub(crate) fn run(
    store: &Store,
    project: &Project,
    date: NaiveDate,
    with_review: bool,
    html: bool,
) -> Result<String> {
    let (config, now) = (project.config(), project.now());
    let day = gather(store, config, date, now, project.blocked_items())?;
    let mut text = markdown(&day);
    if with_review {
        text.push_str(&super::report_review::review(store, &day, now)?);
    }
    store.ensure()?;
    fsx::ensure_private_dir(&store.reports())?;
    let stem = format!("daily_{}", date.format("%Y%m%d"));
    let md = store.reports().join(format!("{stem}.md"));
    fsx::atomic_write(&md, text.as_bytes(), store.file_mode())?;
    let rel = config.paths.audit.join("reports");
    let mut out = text;
    out.push_str(&format!(
        "\nWritten to {}\n",
        rel.join(format!("{stem}.md")).display()
    ));
    if html {
        let page = super::report_html::render(&day, now);
        let path = store.reports().join(format!("{stem}.html"));
        fsx::atomic_write(&path, page.as_bytes(), store.file_mode())?;
        out.push_str(&format!(
            "HTML: {}\n",
            rel.join(format!("{stem}.html")).display()
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_in_any_order_and_bad_ones_refused() {
        let now: DateTime<Utc> = "2026-11-30T10:15:00Z".parse().unwrap();
        let a =
            |v: &[&str]| parse_args(&v.iter().map(|s| (*s).to_string()).collect::<Vec<_>>(), now);
        assert_eq!(a(&[]).unwrap(), (now.date_naive(), false));
        assert_eq!(
            a(&["review", "20261129"]).unwrap(),
            (NaiveDate::from_ymd_opt(2026, 11, 29).unwrap(), true)
        );
        assert!(a(&["20261399"]).is_err());
        assert!(a(&["yesterday"]).is_err());
    }

    #[test]
    fn bars_scale() {
        assert_eq!(bar(10, 10).chars().count(), 30);
        assert_eq!(bar(0, 10), "");
        assert!(bar(1, 10).starts_with("███"));
    }
}
