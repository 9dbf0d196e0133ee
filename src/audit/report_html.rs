//! The daily report as one self-contained HTML page: no script, no external resource; an
//! inline SVG bar chart of tool calls and an SVG timeline of the day's sessions.

use super::day::Day;
use chrono::{DateTime, Timelike, Utc};

/// Escapes text for HTML content and attribute values.
pub(crate) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The bar chart of tool calls.
fn chart(day: &Day) -> String {
    let tools = day.tools_sorted();
    if tools.is_empty() {
        return "<p>No tool calls.</p>".into();
    }
    let max = tools.first().map_or(1, |t| t.1.max(1));
    let row = 22;
    let height = row * tools.len() + 10;
    let mut svg = format!(
        "<svg id=\"tool-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"{height}\" role=\"img\" aria-label=\"Tool calls by tool\">"
    );
    for (i, (tool, n)) in tools.iter().enumerate() {
        let y = i * row + 5;
        let w = (*n * 440).div_ceil(max);
        svg.push_str(&format!(
            "<text x=\"0\" y=\"{}\" font-size=\"13\">{}</text><rect x=\"130\" y=\"{y}\" width=\"{w}\" height=\"16\" fill=\"#4a7bd0\"/><text x=\"{}\" y=\"{}\" font-size=\"12\">{n}</text>",
            y + 13,
            esc(tool),
            136 + w,
            y + 13
        ));
    }
    svg.push_str("</svg>");
    svg
}

/// Minutes since midnight of `t`, clamped to the day.
fn minute_of(t: DateTime<Utc>, day: &Day) -> u32 {
    let d = t.date_naive();
    match d.cmp(&day.date) {
        std::cmp::Ordering::Less => 0,
        std::cmp::Ordering::Greater => 1440,
        std::cmp::Ordering::Equal => t.hour() * 60 + t.minute(),
    }
}

/// The timeline: one bar per session over the 24 hours of the day.
fn timeline(day: &Day, now: DateTime<Utc>) -> String {
    if day.rows.is_empty() {
        return "<p>No sessions.</p>".into();
    }
    let row = 24;
    let sessions_h = row * day.rows.len();
    // One more row: tool calls per hour, all sessions together.
    let height = sessions_h + row + 30;
    let mut svg = format!(
        "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"{height}\" role=\"img\" aria-label=\"Sessions over the day\">"
    );
    for h in (0..=24).step_by(3) {
        let x = 160 + h * 24;
        svg.push_str(&format!(
            "<line x1=\"{x}\" y1=\"0\" x2=\"{x}\" y2=\"{}\" stroke=\"#ddd\"/><text x=\"{}\" y=\"{}\" font-size=\"11\">{h:02}:00</text>",
            height - 18,
            x - 14,
            height - 4
        ));
    }
    for (i, r) in day.rows.iter().enumerate() {
        let y = i * row + 4;
        let from = minute_of(r.entry.start, day);
        let to = minute_of(r.entry.end.unwrap_or(now), day).max(from + 4);
        let x = 160 + from * 24 / 60;
        let w = ((to - from) * 24 / 60).max(2);
        let color = match r.entry.status.as_str() {
            "completed" => "#3c9d5d",
            "in_progress" => "#d0a040",
            _ => "#c04040",
        };
        svg.push_str(&format!(
            "<text x=\"0\" y=\"{}\" font-size=\"12\">{}</text><rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"16\" fill=\"{color}\"><title>{} — {}</title></rect>",
            y + 13,
            esc(&r.entry.id),
            esc(&r.entry.task),
            esc(&r.entry.status)
        ));
    }
    let mut hours = [0u64; 24];
    for r in &day.rows {
        for (h, n) in &r.stats.hours {
            if let Some(slot) = h.parse::<usize>().ok().and_then(|h| hours.get_mut(h)) {
                *slot += n;
            }
        }
    }
    let peak = hours.iter().copied().max().unwrap_or(0).max(1);
    let y = sessions_h + 4;
    svg.push_str(&format!(
        "<text x=\"0\" y=\"{}\" font-size=\"12\">tool calls / hour</text>",
        y + 13
    ));
    for (h, n) in hours.iter().enumerate().filter(|(_, n)| **n > 0) {
        let bar = (n * 16).div_ceil(peak);
        svg.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"22\" height=\"{bar}\" fill=\"#4a7bd0\"><title>{h:02}:00 — {n} call(s)</title></rect>",
            160 + h * 24 + 1,
            y as u64 + 16 - bar
        ));
    }
    svg.push_str("</svg>");
    svg
}

fn items(list: &[String], none: &str) -> String {
    if list.is_empty() {
        return format!("<p>{}</p>", esc(none));
    }
    let mut out = String::from("<ul>");
    for i in list {
        out.push_str(&format!("<li>{}</li>", esc(i)));
    }
    out.push_str("</ul>");
    out
}

/// The page: the markdown report's seven sections, with a timeline after the first.
pub(crate) fn render(day: &Day, now: DateTime<Utc>) -> String {
    let date = day.date.format("%Y-%m-%d").to_string();
    let mut body = format!("<h1>Daily audit report — {date}</h1>");
    body.push_str("<h2>1. Task overview</h2>");
    body.push_str(&overview(day));
    body.push_str("<h2>Timeline</h2>");
    body.push_str(&timeline(day, now));
    body.push_str("<h2>2. Operation stats</h2>");
    body.push_str(&chart(day));
    body.push_str("<h2>3. Change records</h2>");
    let files: Vec<String> = day
        .files_sorted()
        .iter()
        .take(30)
        .map(|(f, n)| format!("{f} — {n} change(s)"))
        .collect();
    body.push_str(&items(&files, "No file changes recorded."));
    body.push_str("<h2>4. User feedback &amp; corrections</h2>");
    let corrections: Vec<String> = day
        .rows
        .iter()
        .flat_map(|r| {
            r.stats
                .corrections
                .iter()
                .map(|c| format!("{}: \"{}\"", c.id, c.text))
        })
        .collect();
    body.push_str(&items(&corrections, "No corrections."));
    body.push_str("<h2>5. Anomaly alerts</h2>");
    body.push_str(&items(&day.anomalies, "None."));
    body.push_str("<h2>6. Backlog</h2>");
    body.push_str(&items(&day.backlog, "Nothing outstanding."));
    body.push_str("<h2>7. Integrity summary</h2>");
    body.push_str(&items(&integrity(day), "All ended sessions passed."));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Daily audit report {date}</title>\
<style>body{{font-family:sans-serif;max-width:60rem;margin:2rem auto;color:#222}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 6px}}</style>\
</head><body>{body}</body></html>\n"
    )
}

/// § 1 as a table.
fn overview(day: &Day) -> String {
    if day.rows.is_empty() {
        return "<p>No sessions on this day.</p>".into();
    }
    let mut out = String::from("<table><thead><tr><th>session</th><th>task</th><th>status</th><th>records</th><th>failed</th></tr></thead><tbody>");
    for r in &day.rows {
        out.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&r.entry.id),
            esc(&r.entry.task),
            esc(&r.entry.status),
            r.stats.records,
            r.stats.errors
        ));
    }
    out.push_str("</tbody></table>");
    out
}

/// § 7's items: failed checks, checks not known, unreadable files.
fn integrity(day: &Day) -> Vec<String> {
    let mut out: Vec<String> = day
        .rows
        .iter()
        .flat_map(|r| {
            r.entry
                .integrity
                .iter()
                .map(move |p| format!("{}: {p}", r.entry.id))
        })
        .collect();
    out.extend(
        day.rows
            .iter()
            .filter(|r| r.entry.status == "completed" && r.entry.integrity_unknown)
            .map(|r| format!("{}: integrity results unknown", r.entry.id)),
    );
    out.extend(day.integrity.iter().cloned());
    out
}
