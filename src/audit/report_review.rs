//! The `review` part of `baton audit report-daily`: the day against the previous seven, and
//! recommended priorities.

use super::day::{self, Day};
use super::index::{self, Index};
use super::store::Store;
use crate::core::error::Result;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use std::collections::HashMap;
use std::ops::AddAssign;

/// One day's figures in the trend table.
#[derive(Debug, Clone, Copy, Default)]
struct Figures {
    sessions: u64,
    calls: u64,
    errors: u64,
    corrections: u64,
}

impl AddAssign for Figures {
    fn add_assign(&mut self, o: Figures) {
        self.sessions += o.sessions;
        self.calls += o.calls;
        self.errors += o.errors;
        self.corrections += o.corrections;
    }
}

/// Figures of one day for the review's trend table.
fn figures(
    store: &Store,
    idx: &Index,
    persisted: &HashMap<String, Vec<String>>,
    date: NaiveDate,
    now: DateTime<Utc>,
) -> Result<Figures> {
    let mut f = Figures::default();
    for row in day::rows(store, idx, persisted, date, now)?.0 {
        let s = row.stats;
        f.sessions += 1;
        f.calls += s.tools.values().sum::<u64>();
        f.errors += s.errors;
        f.corrections += s.corrections.len() as u64;
    }
    Ok(f)
}

/// The `review` section: trends against the previous seven days, recommended priorities.
pub(crate) fn review(store: &Store, day: &Day, now: DateTime<Utc>) -> Result<String> {
    let mut out = String::from("\n## 8. Morning review\n\n| day | sessions | tool calls | failed | corrections |\n|---|---:|---:|---:|---:|\n");
    let (idx, _) = index::load(store)?;
    let persisted = super::persist::load(store)?;
    let mut previous = Figures::default();
    for back in (0..=7).rev() {
        let d = day.date - Duration::days(back);
        let f = figures(store, &idx, &persisted, d, now)?;
        if back > 0 {
            previous += f;
        }
        out.push_str(&format!(
            "| {}{} | {} | {} | {} | {} |\n",
            d.format("%Y-%m-%d"),
            if back == 0 { " (this day)" } else { "" },
            f.sessions,
            f.calls,
            f.errors,
            f.corrections
        ));
    }
    let today = figures(store, &idx, &persisted, day.date, now)?;
    out.push_str("\nTrends:\n");
    out.push_str(&trend("tool calls", today.calls, previous.calls));
    out.push_str(&trend("failed calls", today.errors, previous.errors));
    out.push_str(&trend(
        "corrections",
        today.corrections,
        previous.corrections,
    ));
    out.push_str("\nRecommended priorities:\n");
    for (i, p) in priorities(day, &today).iter().enumerate() {
        out.push_str(&format!("{}. {p}\n", i + 1));
    }
    Ok(out)
}

/// One trend line: the day's value against the previous seven days' average.
fn trend(name: &str, value: u64, previous_sum: u64) -> String {
    // value vs sum/7, in integers: up above 125 %, down below 75 %.
    let tenths = previous_sum * 10 / 7;
    let avg = format!("{}.{}", tenths / 10, tenths % 10);
    let word = if value * 28 > previous_sum * 5 {
        "up"
    } else if value * 28 < previous_sum * 3 {
        "down"
    } else {
        "steady"
    };
    format!("- {name}: {value} vs {avg}/day over the previous 7 days ({word})\n")
}

/// What to do first, from the backlog, the integrity checks and the failures.
fn priorities(day: &Day, today: &Figures) -> Vec<String> {
    let mut prios = Vec::new();
    let count = |prefix: &str| day.backlog.iter().filter(|b| b.starts_with(prefix)).count();
    let unfinished = count("unfinished");
    if unfinished > 0 {
        prios.push(format!("End or resume the {unfinished} unfinished session(s) (`baton audit end --session ID`)."));
    }
    let open = count("correction");
    if open > 0 {
        prios.push(format!(
            "Persist the {open} open correction(s) as conventions or instincts."
        ));
    }
    if day.rows.iter().any(|r| !r.entry.integrity.is_empty()) {
        prios.push("Look into the integrity failures in section 7.".into());
    }
    if today.errors > 0 {
        prios.push("Check the failed tool calls in section 5 for a recurring cause.".into());
    }
    if count("blocked") > 0 {
        prios.push("Unblock the blocked items in section 6.".into());
    }
    if prios.is_empty() {
        prios.push("Nothing pressing: carry on with the next task.".into());
    }
    prios
}
