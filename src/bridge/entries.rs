//! Reading what load needs from the memory files without reading all of them: the last
//! entries of a log from its tail, entry counts in one pass, one section of a big notes
//! file, the items of a progress entry.

use super::author;
use super::merged;
use super::store;
use crate::core::error::{Error, Result};
use crate::core::fsx;
use chrono::{DateTime, Utc};
use std::path::Path;

/// Bytes read from the end of a log to find its newest entries: a merge (git's union
/// driver) puts what both sides added since they parted at the end, one side's after the
/// other's, so the newest entry is among the last ones but not always the last.
const ORDER_TAIL: u64 = 64 * 1024;

/// The entries (`## [` blocks, each trimmed at its end) of `text`, in file order, as they
/// were written (`merged::repair`); text before the first heading is not an entry.
pub(crate) fn split_entries(text: &str) -> Vec<String> {
    let mut starts: Vec<usize> = text.match_indices("\n## [").map(|(i, _)| i + 1).collect();
    if text.starts_with("## [") {
        starts.insert(0, 0);
    }
    let entries = starts
        .iter()
        .enumerate()
        .map(|(k, &s)| {
            let end = starts.get(k + 1).copied().unwrap_or(text.len());
            text[s..end].trim_end().to_string()
        })
        .collect();
    merged::repair_texts(entries)
}

/// The newest `n` entries of a markdown log by their stamps, newest first, each text once:
/// where a merge put an entry does not change what is shown. Read from the last 64 KB.
pub(crate) fn newest_entries(path: &Path, n: usize) -> Result<Vec<String>> {
    let Some((text, _)) = fsx::read_tail(path, ORDER_TAIL)? else {
        return Ok(Vec::new());
    };
    let mut all = newest_first(split_entries(&text), |e| store::parse_stamp(heading_of(e)));
    all.truncate(n);
    Ok(all)
}

/// `items` (in file order) newest first by `time`, each text once (a merge that brought the
/// same entry twice shows it once). An undated item counts as the oldest; among equal times
/// the later in the file comes first (the entries of one save share their stamp). A merge
/// keeps each side's entries in their order, so where it put them changes nothing shown.
pub(crate) fn newest_first<T: AsRef<str>>(
    items: Vec<T>,
    time: impl Fn(&str) -> Option<DateTime<Utc>>,
) -> Vec<T> {
    let mut seen = std::collections::HashSet::new();
    let mut keyed: Vec<(Option<DateTime<Utc>>, T)> = items
        .into_iter()
        .rev()
        .filter(|i| seen.insert(i.as_ref().trim().to_string()))
        .map(|i| (time(i.as_ref()), i))
        .collect();
    // Stable: equal times keep the reversed file order.
    keyed.sort_by(|(ta, _), (tb, _)| tb.cmp(ta));
    keyed.into_iter().map(|(_, i)| i).collect()
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

/// Between the items of one progress group on its line.
pub(crate) const ITEM_SEP: &str = " · ";

/// The items of group `title` in a progress entry: on its `**Title:** a · b` line (what
/// save writes), or the `- ` items under a `**Title:**` line (the spec's list form).
pub(crate) fn progress_items(entry: &str, title: &str) -> Vec<String> {
    let tag = format!("**{title}:**");
    let clean = |item: &str| {
        item.trim()
            .trim_start_matches("[ ] ")
            .trim_start_matches("[x] ")
            .trim()
            .to_string()
    };
    let mut out = Vec::new();
    let mut on = false;
    for l in entry.lines() {
        let t = l.trim();
        if t.starts_with("**") {
            on = false;
            if let Some(rest) = t.strip_prefix(&tag) {
                on = true;
                out.extend(rest.split(ITEM_SEP).map(clean));
            }
            continue;
        }
        if on {
            if let Some(item) = t.strip_prefix("- ") {
                out.push(clean(item));
            }
        }
    }
    out.retain(|i| !i.is_empty() && i != "none");
    out
}

/// The `- ` items of one `## Name` section of a markdown text, up to the next `## ` heading.
pub(crate) fn section_items(text: &str, name: &str) -> Vec<String> {
    let names = [name];
    let mut items = SectionItems::new(&names);
    text.split('\n').for_each(|l| items.line(l));
    items.lists.pop().unwrap_or_default()
}

/// The items of the sections `names` of a markdown file, one list per name, read as a
/// stream: a notes file can be megabytes, and a buffer for all of it costs more in page
/// faults than finding three sections in it. `Ok(None)` when the file does not exist.
pub(crate) fn file_section_items(path: &Path, names: &[&str]) -> Result<Option<Vec<Vec<String>>>> {
    use std::io::BufRead;
    let Some((file, _)) = fsx::open_limited(path, fsx::Limit::DOCUMENT)? else {
        return Ok(None);
    };
    let mut reader = std::io::BufReader::with_capacity(64 * 1024, file);
    let mut items = SectionItems::new(names);
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| Error::io("read", path, e))?;
        if n == 0 {
            break;
        }
        let l = line.strip_suffix(b"\n").unwrap_or(&line);
        // Only a heading or a line of a wanted section needs to be text.
        if l.starts_with(b"## ") || items.inside.is_some() {
            items.line(&String::from_utf8_lossy(l));
        }
    }
    Ok(Some(items.lists))
}

/// The `- ` items of the first `## {name}` section for each of `names`, fed line by line.
struct SectionItems<'n> {
    names: &'n [&'n str],
    lists: Vec<Vec<String>>,
    met: Vec<bool>,
    /// The section being read, as an index in `names`.
    inside: Option<usize>,
}

impl<'n> SectionItems<'n> {
    fn new(names: &'n [&'n str]) -> SectionItems<'n> {
        SectionItems {
            names,
            lists: vec![Vec::new(); names.len()],
            met: vec![false; names.len()],
            inside: None,
        }
    }

    fn line(&mut self, l: &str) {
        if let Some(heading) = l.strip_prefix("## ") {
            self.inside = self.names.iter().position(|n| *n == heading);
            if let Some(i) = self.inside {
                if std::mem::replace(&mut self.met[i], true) {
                    self.inside = None;
                }
            }
        } else if let (Some(i), Some(item)) = (self.inside, l.trim().strip_prefix("- ")) {
            self.lists[i].push(item.to_string());
        }
    }
}

/// An item with a leading `[date]` shown with its age, and its author when that is not
/// `me` (`- text (by bob, 2 days ago)`).
pub(crate) fn item_with_age(item: &str, now: DateTime<Utc>, me: Option<&str>) -> String {
    let body = item.trim_start_matches("[ ] ").trim_start_matches("[x] ");
    let (body, by) = author::split_line(body);
    let by = author::other(by, me);
    match store::parse_stamp(body) {
        Some(t) => {
            let rest = body.split_once(']').map_or(body, |(_, r)| r).trim();
            format!(
                "- {rest} ({})",
                author::with_age("", by, &crate::core::time::age(t, now))
            )
        }
        None => format!("- {body} ({})", author::with_age("", by, "undated")),
    }
}

/// The stamp of a notes item (`[ ] [date] text`).
pub(crate) fn item_time(item: &str) -> Option<DateTime<Utc>> {
    store::parse_stamp(item.trim_start_matches("[ ] ").trim_start_matches("[x] "))
}

pub(crate) fn count_lines(path: &Path) -> usize {
    store::read_opt(path).map_or(0, |t| t.map_or(0, |t| t.matches('\n').count()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_items_are_read_in_both_forms() {
        let new = "## [2026-11-30 10:15:00Z] Session Summary\n**Completed:** a · b\n**Blocked:** c — why\n**Next Session Should:** n\n**By:** bob\n";
        assert_eq!(progress_items(new, "Completed"), vec!["a", "b"]);
        assert_eq!(progress_items(new, "Blocked"), vec!["c — why"]);
        assert_eq!(progress_items(new, "Next Session Should"), vec!["n"]);
        assert!(progress_items(new, "In Progress").is_empty());
        let old = "## [2026-11-30 10:15] Session Summary\n\n**Completed:**\n- [x] a\n\n**In Progress:**\n- none\n\n**Blocked:**\n- [ ] c — why\n";
        assert_eq!(progress_items(old, "Completed"), vec!["a"]);
        assert!(progress_items(old, "In Progress").is_empty());
        assert_eq!(progress_items(old, "Blocked"), vec!["c — why"]);
    }

    /// Where a merge puts entries changes nothing: newest first by stamp (offsets
    /// honoured, an undated one last), one save's entries later-first, a duplicate once.
    #[test]
    fn entries_order_by_time_not_place_and_duplicates_collapse() {
        let e = |stamp: &str, t: &str| format!("## [{stamp}] Decision: {t}\n**Decision:** x");
        let one = vec![
            e("2026-11-30 12:00:00Z", "noon"),
            e("2026-11-30 14:00:00+03:00", "eleven"),
            "## Decision: undated\n**Decision:** x".to_string(),
            e("2026-11-30 13:00:00Z", "one"),
            e("2026-11-30 13:00:00Z", "one too"),
            e("2026-11-30 12:00:00Z", "noon"),
        ];
        let mut other = one.clone();
        other.rotate_left(2);
        for items in [one, other] {
            let titles: Vec<String> = newest_first(items, |t| store::parse_stamp(heading_of(t)))
                .iter()
                .map(|t| heading_of(t).rsplit(": ").next().unwrap_or("").to_string())
                .collect();
            assert_eq!(titles[..2].len(), 2);
            assert!(
                titles[..2].contains(&"one".to_string())
                    && titles[..2].contains(&"one too".to_string())
            );
            assert_eq!(titles[2..], ["noon", "eleven", "undated"]);
        }
    }

    #[test]
    fn section_items_take_one_section_only() {
        let text = "# Notes\n\n## Active Topics X\n- no\n## Active Topics\n- a\n  - b\n### Sub\n- c\n## Next\n- d\n";
        assert_eq!(section_items(text, "Active Topics"), vec!["a", "b", "c"]);
        assert_eq!(section_items(text, "Next"), vec!["d"]);
        assert!(section_items(text, "Missing").is_empty());
        assert!(section_items("## Tail", "Tail").is_empty());
        // The heading is a line of its own: not inside a line, not the start of a longer one.
        let text = "x ## Next\n- no\n## Nextt\n- no\n## Next\n- yes\n## Next\n- later\n";
        assert_eq!(section_items(text, "Next"), vec!["yes"]);
        assert_eq!(section_items("## Next\n- a", "Next"), vec!["a"]);
    }

    #[test]
    fn a_file_s_sections_read_as_a_stream_are_the_text_s() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("notes.md");
        assert!(file_section_items(&path, &["Next"]).unwrap().is_none());
        let names = ["Active Topics", "Next", "Tail", "Missing"];
        for text in [
            "# Notes\n\n## Active Topics X\n- no\n## Active Topics\n- a\n  - b\n### Sub\n- c\n## Next\n- d\n",
            "x ## Next\n- no\n## Nextt\n- no\n## Next\n- yes\n## Active Topics\n- t\n## Next\n- later\n## Tail",
            "## Next\r\n- crlf heading\n## Tail\n- last, no line break",
            &format!("## Active Topics\n{}## Next\n- n\n", "- filler item\n".repeat(20_000)),
        ] {
            std::fs::write(&path, text).unwrap();
            let want: Vec<Vec<String>> = names.iter().map(|n| section_items(text, n)).collect();
            assert_eq!(file_section_items(&path, &names).unwrap().unwrap(), want);
        }
        std::fs::write(&path, b"## Next\n- caf\xe9\n").unwrap();
        assert_eq!(
            file_section_items(&path, &["Next"]).unwrap().unwrap(),
            [vec!["caf\u{fffd}".to_string()]]
        );
    }
}
