//! Reading what load needs from the memory files without reading all of them: the last
//! entries of a log from its tail, entry counts in one pass, one section of a big notes
//! file, the items of a progress entry.

use super::store;
use crate::core::error::Result;
use chrono::{DateTime, Utc};
use std::path::Path;

/// Bytes read from the end of a log to find its last entries (grown when too few).
const TAIL: u64 = 16 * 1024;

/// The last `n` entries of a markdown log whose entries start with `## [`.
pub(crate) fn last_entries(path: &Path, n: usize) -> Result<Vec<String>> {
    let mut window = TAIL;
    loop {
        let Some((text, whole)) = store::read_tail(path, window)? else {
            return Ok(Vec::new());
        };
        let mut starts: Vec<usize> = text.match_indices("\n## [").map(|(i, _)| i + 1).collect();
        if text.starts_with("## [") {
            starts.insert(0, 0);
        }
        if starts.len() > n || whole {
            let from = starts.len().saturating_sub(n);
            let mut out = Vec::new();
            for (k, &s) in starts.iter().enumerate().skip(from) {
                let end = starts.get(k + 1).copied().unwrap_or(text.len());
                out.push(text[s..end].trim_end().to_string());
            }
            return Ok(out);
        }
        window *= 4;
    }
}

/// How many entries (`## [` headings) a file holds: one pass over its bytes.
pub(crate) fn count_entries(path: &Path) -> usize {
    let Ok(Some(text)) = store::read_opt(path) else {
        return 0;
    };
    count_entries_in(&text)
}

/// How many entries (`## [` headings) a text holds.
pub(crate) fn count_entries_in(text: &str) -> usize {
    text.matches("\n## [").count() + usize::from(text.starts_with("## ["))
}

pub(crate) fn heading_of(entry: &str) -> &str {
    entry.lines().next().unwrap_or("").trim_start_matches("## ")
}

pub(crate) fn field(entry: &str, name: &str) -> Option<String> {
    let tag = format!("**{name}:**");
    entry
        .lines()
        .find_map(|l| l.trim().strip_prefix(&tag).map(|v| v.trim().to_string()))
        .filter(|v| !v.is_empty() && v != "—")
}

pub(crate) fn aged(entry_head: &str, now: DateTime<Utc>) -> String {
    store::parse_stamp(entry_head)
        .map_or_else(|| "(undated)".into(), |t| crate::core::time::age(t, now))
}

/// The items under `**Title:**` in a progress entry.
pub(crate) fn progress_items(entry: &str, title: &str) -> Vec<String> {
    let tag = format!("**{title}:**");
    let mut out = Vec::new();
    let mut on = false;
    for l in entry.lines() {
        let t = l.trim();
        if t.starts_with("**") {
            on = t == tag;
            continue;
        }
        if on {
            if let Some(item) = t.strip_prefix("- ") {
                let item = item
                    .trim_start_matches("[ ] ")
                    .trim_start_matches("[x] ")
                    .trim();
                if item != "none" && !item.is_empty() {
                    out.push(item.to_string());
                }
            }
        }
    }
    out
}

/// The `- ` items of one `## Name` section of a big markdown file, without parsing the rest:
/// one pass over its lines (a line search, fast on a file of megabytes), stopping at the
/// next `## ` heading.
pub(crate) fn section_items(text: &str, name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for l in text.split('\n') {
        if inside {
            if l.starts_with("## ") {
                break;
            }
            if let Some(item) = l.trim().strip_prefix("- ") {
                out.push(item.to_string());
            }
        } else if l.strip_prefix("## ") == Some(name) {
            inside = true;
        }
    }
    out
}

/// An item with a leading `[date]` shown with its age.
pub(crate) fn item_with_age(item: &str, now: DateTime<Utc>) -> String {
    let body = item.trim_start_matches("[ ] ").trim_start_matches("[x] ");
    match store::parse_stamp(body) {
        Some(t) => {
            let rest = body.split_once(']').map_or(body, |(_, r)| r).trim();
            format!("- {rest} ({})", crate::core::time::age(t, now))
        }
        None => format!("- {body} (undated)"),
    }
}

pub(crate) fn count_lines(path: &Path) -> usize {
    store::read_opt(path).map_or(0, |t| t.map_or(0, |t| t.matches('\n').count()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_items_take_one_section_only() {
        let text = "# Notes\n\n## Active Topics X\n- no\n## Active Topics\n- a\n  - b\n### Sub\n- c\n## Next\n- d\n";
        assert_eq!(section_items(text, "Active Topics"), vec!["a", "b", "c"]);
        assert_eq!(section_items(text, "Next"), vec!["d"]);
        assert!(section_items(text, "Missing").is_empty());
        assert!(section_items("## Tail", "Tail").is_empty());
    }
}
