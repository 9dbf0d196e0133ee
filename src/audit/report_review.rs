//! The `review` part of `baton audit report-daily`: the day against the previous seven, and
//! recommended priorities.

use super::index;
use super::report::{day_rows, Day};
use super::store::Store;
use crate::core::error::Result;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use std::collections::HashMap;

/// Figures of one day for the review's trend table.
fn day_figures(
    store: &Store,
    idx: &index::Index,
    persisted: &HashMap<String, Vec<String>>,
    date: NaiveDate,
    now: DateTime<Utc>,
) -> Result<(u64, u64, u64, u64)> {
    let (mut calls, mut errors, mut corrections, mut sessions) = (0, 0, 0, 0);
    for row in day_rows(store, idx, persisted, date, now)?.0 {
        let s = row.stats;
        sessions += 1;
        calls += s.tools.values().sum::<u64>();
        errors += s.errors;
        corrections += s.corrections.len() as u64;
    }
    Ok((sessions, calls, errors, corrections))
}

/// The `review` section: trends against the previous seven days, recommended priorities.
pub(crate) fn review(store: &Store, day: &Day, now: DateTime<Utc>) -> Result<String> {
    let mut out = String::from("\n## 8. Morning review\n\n| day | sessions | tool calls | failed | corrections |\n|---|---:|---:|---:|---:|\n");
    let (idx, _) = index::load(store)?;
    let persisted = super::persist::load(store)?;
    let mut prev = (0u64, 0u64, 0u64, 0u64);
    for back in (0..=7).rev() {
        let d = day.date - Duration::days(back);
        let f = day_figures(store, &idx, &persisted, d, now)?;
        if back > 0 {
            prev = (prev.0 + f.0, prev.1 + f.1, prev.2 + f.2, prev.3 + f.3);
        }
        out.push_str(&format!(
            "| {}{} | {} | {} | {} | {} |\n",
            d.format("%Y-%m-%d"),
            if back == 0 { " (this day)" } else { "" },
            f.0,
            f.1,
            f.2,
            f.3
        ));
    }
    let today = day_figures(store, &idx, &persisted, day.date, now)?;
    let trend = |name: &str, now_v: u64, sum: u64| {
        // now vs sum/7, in integers: up above 125 %, down below 75 %.
        let tenths = sum * 10 / 7;
        let avg = format!("{}.{}", tenths / 10, tenths % 10);
        let word = if now_v * 28 > sum * 5 {
            "up"
        } else if now_v * 28 < sum * 3 {
            "down"
        } else {
            "steady"
        };
        format!("- {name}: {now_v} vs {avg}/day over the previous 7 days ({word})\n")
    };
    out.push_str("\nTrends:\n");
    out.push_str(&trend("tool calls", today.1, prev.1));
    out.push_str(&trend("failed calls", today.2, prev.2));
    out.push_str(&trend("corrections", today.3, prev.3));
    out.push_str("\nRecommended priorities:\n");
    let mut prios = Vec::new();
    let unfinished = day
        .backlog
        .iter()
        .filter(|b| b.starts_with("unfinished"))
        .count();
    if unfinished > 0 {
        prios.push(format!("End or resume the {unfinished} unfinished session(s) (`baton audit end --session ID`)."));
    }
    let open = day
        .backlog
        .iter()
        .filter(|b| b.starts_with("correction"))
        .count();
    if open > 0 {
        prios.push(format!(
            "Persist the {open} open correction(s) as conventions or instincts."
        ));
    }
    if day.rows.iter().any(|r| !r.entry.integrity.is_empty()) {
        prios.push("Look into the integrity failures in section 7.".into());
    }
    if today.2 > 0 {
        prios.push("Check the failed tool calls in section 5 for a recurring cause.".into());
    }
    if day.backlog.iter().any(|b| b.starts_with("blocked")) {
        prios.push("Unblock the blocked items in section 6.".into());
    }
    if prios.is_empty() {
        prios.push("Nothing pressing: carry on with the next task.".into());
    }
    for (i, p) in prios.iter().enumerate() {
        out.push_str(&format!("{}. {p}\n", i + 1));
    }
    Ok(out)
}
