//! `session_summary.md`: what one session did, written by `baton audit end`.

use super::stats::Stats;
use super::store::SessionMeta;

/// Renders the summary: the session's facts, then one section each for tool calls, files
/// changed, corrections, failed calls (when any) and the integrity checks.
pub(crate) fn render(
    meta: &SessionMeta,
    stats: &Stats,
    unreadable: &[String],
    problems: &[String],
) -> String {
    let mut out = facts(meta, stats);
    out.push_str(&tool_calls(stats));
    out.push_str(&files_changed(stats));
    out.push_str(&corrections(stats));
    out.push_str(&failures(stats));
    out.push_str(&integrity(unreadable, problems));
    out
}

/// The title and the list of facts: task, times, status, figures.
fn facts(meta: &SessionMeta, stats: &Stats) -> String {
    let mut out = format!("# Session {}\n\n", meta.session_id);
    out.push_str(&format!("- Task: {}\n", meta.task));
    out.push_str(&format!(
        "- Started: {}\n",
        meta.start_time.format("%Y-%m-%d %H:%M UTC")
    ));
    if let Some(end) = meta.end_time {
        let minutes = (end - meta.start_time).num_minutes().max(0);
        out.push_str(&format!(
            "- Ended: {} ({minutes} min)\n",
            end.format("%Y-%m-%d %H:%M UTC")
        ));
    }
    out.push_str(&format!("- Status: {}\n", meta.status));
    let types: Vec<String> = stats
        .by_type
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    out.push_str(&format!(
        "- Records: {}{}\n",
        stats.records,
        if types.is_empty() {
            String::new()
        } else {
            format!(" ({})", types.join(", "))
        }
    ));
    out.push_str(&format!(
        "- Tool calls: {} ({} failed), {} ms in tools\n",
        stats.tools.values().sum::<u64>(),
        stats.errors,
        stats.duration_ms
    ));
    if stats.redactions > 0 {
        out.push_str(&format!("- Secrets redacted: {}\n", stats.redactions));
    }
    out
}

/// Calls per tool, most used first.
fn tool_calls(stats: &Stats) -> String {
    let mut out = String::from("\n## Tool calls\n\n");
    if stats.tools.is_empty() {
        out.push_str("None.\n");
        return out;
    }
    out.push_str("| tool | calls |\n|---|---:|\n");
    let mut tools: Vec<_> = stats.tools.iter().collect();
    tools.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (t, n) in tools {
        out.push_str(&format!("| {t} | {n} |\n"));
    }
    out
}

fn files_changed(stats: &Stats) -> String {
    let mut out = String::from("\n## Files changed\n\n");
    if stats.files.is_empty() && stats.bash_files.is_empty() {
        out.push_str("None recorded.\n");
    }
    for (f, n) in &stats.files {
        out.push_str(&format!(
            "- {f} ({n} edit{})\n",
            if *n == 1 { "" } else { "s" }
        ));
    }
    for f in &stats.bash_files {
        out.push_str(&format!("- {f} (written by a Bash command)\n"));
    }
    out
}

fn corrections(stats: &Stats) -> String {
    let mut out = String::from("\n## Corrections\n\n");
    if stats.corrections.is_empty() {
        out.push_str("None.\n");
    }
    for c in &stats.corrections {
        let to = if c.persisted_to.is_empty() {
            "not persisted yet".to_string()
        } else {
            format!("persisted to {}", c.persisted_to.join(", "))
        };
        out.push_str(&format!("- {} \"{}\" — {to}\n", c.id, c.text));
    }
    out
}

/// The last failed calls; nothing when none failed.
fn failures(stats: &Stats) -> String {
    if stats.failures.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n## Failed tool calls\n\n");
    for f in &stats.failures {
        out.push_str(&format!("- {f}\n"));
    }
    out
}

/// The checks `end` ran, and the unreadable lines beyond the three its problem already names.
fn integrity(unreadable: &[String], problems: &[String]) -> String {
    let mut out = String::from("\n## Integrity\n\n");
    if problems.is_empty() {
        out.push_str("All checks passed: records present, every changed file has a change record, every correction persisted.\n");
    }
    for p in problems {
        out.push_str(&format!("- FAIL: {p}\n"));
    }
    for u in unreadable.iter().skip(3) {
        out.push_str(&format!("- skipped {u}\n"));
    }
    out
}
