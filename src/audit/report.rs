//! `baton audit report-daily [YYYYMMDD] [review] [--html]`: the seed's seven sections,
//! written to `.boo/reports/daily_YYYYMMDD.md` and printed. Figures come from the index
//! (sessions that have ended); only sessions still open are read from their files, so the
//! report does not grow with the history (day.rs gathers them). `review` adds trends against
//! the previous seven days and recommended priorities (report_review.rs); `--html` also
//! writes a self-contained page with an SVG chart and a timeline (report_html.rs).

use super::day::{Day, Row};
use super::store::Store;
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::project::Project;
use chrono::{DateTime, NaiveDate, Utc};

/// Width of the longest bar in the markdown chart.
const BAR_WIDTH: u64 = 30;
/// Files listed in section 3; the rest are counted.
const FILES_LISTED: usize = 30;

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

/// Runs the report: writes the files and returns what to print.
pub(crate) fn run(
    store: &Store,
    project: &Project,
    date: NaiveDate,
    with_review: bool,
    html: bool,
) -> Result<String> {
    let day = Day::gather(store, project, date)?;
    let mut text = markdown(&day);
    if with_review {
        text.push_str(&super::report_review::review(store, &day, project.now())?);
    }
    store.ensure()?;
    fsx::ensure_private_dir_in(&store.root, &store.reports())?;
    let stem = format!("daily_{}", date.format("%Y%m%d"));
    let md = store.reports().join(format!("{stem}.md"));
    fsx::atomic_write(&md, text.as_bytes(), store.file_mode())?;
    let rel = project.config().paths.audit.join("reports");
    let mut out = text;
    out.push_str(&format!(
        "\nWritten to {}\n",
        rel.join(format!("{stem}.md")).display()
    ));
    if html {
        let page = super::report_html::render(&day, project.now());
        let path = store.reports().join(format!("{stem}.html"));
        fsx::atomic_write(&path, page.as_bytes(), store.file_mode())?;
        out.push_str(&format!(
            "HTML: {}\n",
            rel.join(format!("{stem}.html")).display()
        ));
    }
    Ok(out)
}

/// The markdown report: a title and the seven sections, in order.
pub(crate) fn markdown(day: &Day) -> String {
    let mut out = format!("# Daily audit report — {}\n", day.date.format("%Y-%m-%d"));
    for section in [
        task_overview,
        operation_stats,
        change_records,
        corrections,
        anomalies,
        backlog,
        integrity_summary,
    ] {
        out.push_str(&section(day));
    }
    out
}

/// § 1: one table row per session.
fn task_overview(day: &Day) -> String {
    let mut out = String::from("\n## 1. Task overview\n\n");
    if day.rows.is_empty() {
        out.push_str("No sessions on this day.\n");
        return out;
    }
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
    out
}

/// § 2: calls, failures, time in tools, and a bar chart of calls per tool.
fn operation_stats(day: &Day) -> String {
    let mut out = String::from("\n## 2. Operation stats\n\n");
    let calls: u64 = day.tools.values().sum();
    let errors: u64 = day.rows.iter().map(|r| r.stats.errors).sum();
    let ms: u64 = day.rows.iter().map(|r| r.stats.duration_ms).sum();
    out.push_str(&format!(
        "{calls} tool calls, {errors} failed, {}.{} s in tools.\n",
        ms / 1000,
        ms % 1000 / 100
    ));
    let sorted = day.tools_sorted();
    if sorted.is_empty() {
        return out;
    }
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
    out
}

/// § 3: the most changed files.
fn change_records(day: &Day) -> String {
    let mut out = String::from("\n## 3. Change records\n\n");
    let files = day.files_sorted();
    if files.is_empty() {
        out.push_str("No file changes recorded.\n");
    }
    for (f, n) in files.iter().take(FILES_LISTED) {
        out.push_str(&format!("- {f} — {n} change(s)\n"));
    }
    if files.len() > FILES_LISTED {
        out.push_str(&format!(
            "- … and {} more files\n",
            files.len() - FILES_LISTED
        ));
    }
    out
}

/// § 4: every correction of the day and where it was persisted.
fn corrections(day: &Day) -> String {
    let mut out = String::from("\n## 4. User feedback & corrections\n\n");
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
    bullets(&mut out, &corrections, "No corrections.");
    out
}

/// § 5.
fn anomalies(day: &Day) -> String {
    let mut out = String::from("\n## 5. Anomaly alerts\n\n");
    bullets(&mut out, &day.anomalies, "None.");
    out
}

/// § 6.
fn backlog(day: &Day) -> String {
    let mut out = String::from("\n## 6. Backlog\n\n");
    bullets(&mut out, &day.backlog, "Nothing outstanding.");
    out
}

/// § 7: how the ended sessions' integrity checks went, and what could not be read.
fn integrity_summary(day: &Day) -> String {
    let mut out = String::from("\n## 7. Integrity summary\n\n");
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

/// `items` as a markdown list, or `none` when there are none.
fn bullets(out: &mut String, items: &[String], none: &str) {
    if items.is_empty() {
        out.push_str(none);
        out.push('\n');
    }
    for i in items {
        out.push_str(&format!("- {i}\n"));
    }
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
