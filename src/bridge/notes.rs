//! `.rune/cumulative-notes.md` (fixed sections, items added, never removed; resolved
//! follow-ups moved to `## Resolved`, last 10 kept) and `.rune/task-notes.md` (iteration
//! notes for autonomous loops, same section mechanics).

use super::author;
use super::store;
use crate::core::text::one_line;
use chrono::{DateTime, Utc};
use serde::Deserialize;

/// The fixed sections of the cumulative notes, in file order.
pub(crate) const NOTE_SECTIONS: [&str; 7] = [
    "Project Profile",
    "Architecture Map",
    "Recurring Themes",
    "Active Topics",
    "Relationship Map",
    "Follow-Up Items",
    "Attention Points",
];
const RESOLVED: &str = "Resolved";
/// Resolved follow-ups kept.
const RESOLVED_KEPT: usize = 10;
/// Items of Recurring Themes and Relationship Map older than this are pruned at save.
const PRUNE_DAYS: i64 = 60;
/// Above this many lines, the save report asks for a summary of older entries.
pub(crate) const NOTES_MAX_LINES: usize = 200;

/// `notes:` in the save input.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct NotesInput {
    pub(crate) project_profile: Vec<String>,
    pub(crate) architecture_map: Vec<String>,
    pub(crate) recurring_themes: Vec<String>,
    pub(crate) active_topics: Vec<String>,
    pub(crate) relationship_map: Vec<String>,
    pub(crate) follow_up: Vec<String>,
    pub(crate) attention_points: Vec<String>,
    /// Follow-up items now done (their text, or a unique part of it).
    pub(crate) resolved: Vec<String>,
}

/// `task_notes:` in the save input.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct TaskNotesInput {
    pub(crate) task: Option<String>,
    pub(crate) worked: Vec<String>,
    pub(crate) failed: Vec<String>,
    pub(crate) left: Vec<String>,
    pub(crate) key_context: Vec<String>,
    /// What's Left items now done (their text, or a unique part of it): pruned.
    pub(crate) done: Vec<String>,
}

/// A markdown file as a preamble and `## ` sections.
#[derive(Debug, Default)]
pub(crate) struct Doc {
    pub(crate) pre: String,
    pub(crate) sections: Vec<(String, Vec<String>)>,
}

impl Doc {
    pub(crate) fn parse(text: &str) -> Doc {
        let mut d = Doc::default();
        for line in text.lines() {
            if let Some(h) = line.strip_prefix("## ") {
                d.sections.push((h.trim().to_string(), Vec::new()));
            } else if let Some((_, body)) = d.sections.last_mut() {
                body.push(line.to_string());
            } else {
                d.pre.push_str(line);
                d.pre.push('\n');
            }
        }
        d
    }

    fn section(&mut self, name: &str) -> &mut Vec<String> {
        let i = if let Some(i) = self.sections.iter().position(|(h, _)| h == name) {
            i
        } else {
            self.sections.push((name.to_string(), Vec::new()));
            self.sections.len() - 1
        };
        &mut self.sections[i].1
    }

    /// The items (`- …` lines) of a section.
    #[cfg(test)]
    pub(crate) fn items(&self, name: &str) -> Vec<String> {
        self.sections
            .iter()
            .filter(|(h, _)| h == name)
            .flat_map(|(_, b)| b.iter())
            .filter_map(|l| l.trim_start().strip_prefix("- ").map(str::to_string))
            .collect()
    }

    /// Adds an item at the end of a section's items.
    fn push(&mut self, name: &str, item: &str) {
        let body = self.section(name);
        while body.last().is_some_and(|l| l.trim().is_empty()) {
            body.pop();
        }
        body.push(format!("- {item}"));
    }

    pub(crate) fn render(&self) -> String {
        let mut out = self.pre.trim_end().to_string();
        out.push('\n');
        for (h, body) in &self.sections {
            out.push_str(&format!("\n## {h}\n"));
            let mut b: &[String] = body;
            while b.last().is_some_and(|l| l.trim().is_empty()) {
                b = &b[..b.len() - 1];
            }
            for l in b {
                out.push_str(l);
                out.push('\n');
            }
        }
        out
    }
}

fn new_doc(text: Option<&str>, header: &str, sections: &[&str]) -> Doc {
    match text {
        Some(t) if !t.trim().is_empty() => Doc::parse(t),
        _ => Doc {
            pre: header.to_string(),
            sections: sections
                .iter()
                .map(|s| ((*s).to_string(), Vec::new()))
                .collect(),
        },
    }
}

/// Adds the notes; returns the new text, how many items were added or resolved, and how
/// many stale ones were pruned.
pub(crate) fn add_notes(
    text: Option<&str>,
    n: &NotesInput,
    now: DateTime<Utc>,
    by: Option<&str>,
) -> (String, usize, usize) {
    let mut doc = new_doc(text, store::header(store::NOTES), &NOTE_SECTIONS);
    let d = store::stamp(now);
    let by = by.map(author::suffix).unwrap_or_default();
    let mut added = 0;
    let mut pruned = 0;
    // Themes and relationships older than 60 days may be stale: they go.
    for name in [NOTE_SECTIONS[2], NOTE_SECTIONS[4]] {
        let body = doc.section(name);
        let before = body.len();
        body.retain(|l| {
            let item = l.trim_start().strip_prefix("- ").unwrap_or("");
            store::parse_stamp(item).is_none_or(|t| (now - t).num_days() <= PRUNE_DAYS)
        });
        pruned += before - body.len();
    }
    let groups: [(&str, &Vec<String>); 7] = [
        (NOTE_SECTIONS[0], &n.project_profile),
        (NOTE_SECTIONS[1], &n.architecture_map),
        (NOTE_SECTIONS[2], &n.recurring_themes),
        (NOTE_SECTIONS[3], &n.active_topics),
        (NOTE_SECTIONS[4], &n.relationship_map),
        (NOTE_SECTIONS[5], &n.follow_up),
        (NOTE_SECTIONS[6], &n.attention_points),
    ];
    for (section, items) in groups {
        for i in items.iter().filter(|i| !i.trim().is_empty()) {
            let mark = if section == NOTE_SECTIONS[5] {
                "[ ] "
            } else {
                ""
            };
            doc.push(section, &format!("{mark}[{d}] {}{by}", one_line(i)));
            added += 1;
        }
    }
    for done in n
        .resolved
        .iter()
        .map(|s| one_line(s))
        .filter(|s| !s.is_empty())
    {
        let body = doc.section(NOTE_SECTIONS[5]);
        if let Some(pos) = body
            .iter()
            .position(|l| l.trim_start().starts_with("- [ ]") && l.contains(&done))
        {
            let line = body.remove(pos);
            let item = line
                .trim_start()
                .trim_start_matches("- [ ]")
                .trim()
                .to_string();
            doc.push(RESOLVED, &format!("[x] {item} (resolved {d})"));
            added += 1;
        }
    }
    // Keep the last 10 resolved items.
    let resolved = doc.section(RESOLVED);
    let items: Vec<usize> = (0..resolved.len())
        .filter(|&i| resolved[i].trim_start().starts_with("- "))
        .collect();
    if items.len() > RESOLVED_KEPT {
        let drop: Vec<usize> = items[..items.len() - RESOLVED_KEPT].to_vec();
        for i in drop.into_iter().rev() {
            resolved.remove(i);
        }
    }
    if doc
        .sections
        .iter()
        .any(|(h, b)| h == RESOLVED && b.is_empty())
    {
        doc.sections.retain(|(h, _)| h != RESOLVED);
    }
    (doc.render(), added, pruned)
}

const TASK_SECTIONS: [&str; 4] = [
    "What Worked (with evidence)",
    "What Failed",
    "What's Left",
    "Key Context for Next Iteration",
];

/// The most lines task-notes.md keeps (the spec: "max 50 lines").
pub(crate) const TASK_NOTES_MAX_LINES: usize = 50;

/// What adding task notes did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TaskNotesAdded {
    pub(crate) added: usize,
    /// Items removed: completed ones, and the oldest past 50 lines.
    pub(crate) pruned: usize,
}

/// Adds task notes and prunes them (`prune_task_notes`); returns the new text and counts.
pub(crate) fn add_task_notes(
    text: Option<&str>,
    t: &TaskNotesInput,
    now: DateTime<Utc>,
    by: Option<&str>,
) -> (String, TaskNotesAdded) {
    let header = match &t.task {
        Some(name) => format!("# Task Notes: {}\n", one_line(name)),
        None => store::header(store::TASK_NOTES).to_string(),
    };
    let mut doc = new_doc(text, &header, &TASK_SECTIONS);
    let d = store::stamp(now);
    let by = by.map(author::suffix).unwrap_or_default();
    let mut added = 0;
    for (section, items) in [
        (TASK_SECTIONS[0], &t.worked),
        (TASK_SECTIONS[1], &t.failed),
        (TASK_SECTIONS[2], &t.left),
        (TASK_SECTIONS[3], &t.key_context),
    ] {
        for i in items.iter().filter(|i| !i.trim().is_empty()) {
            let mark = if section == TASK_SECTIONS[2] {
                "[ ] "
            } else {
                ""
            };
            doc.push(section, &format!("{mark}[{d}] {}{by}", one_line(i)));
            added += 1;
        }
    }
    let pruned = prune_task_notes(&mut doc, &t.done);
    (doc.render(), TaskNotesAdded { added, pruned })
}

/// Keeps the task notes concise, as the spec asks: What's Left items checked off (`- [x]`)
/// or named in `done` go; then, while the file is over 50 lines, the oldest items go first
/// (by their date, then their place), from What Worked, Key Context and What Failed before
/// What's Left (the open work). Lines that are not items are never removed. Returns how
/// many items went.
fn prune_task_notes(doc: &mut Doc, done: &[String]) -> usize {
    let done: Vec<String> = done
        .iter()
        .map(|s| one_line(s))
        .filter(|s| !s.is_empty())
        .collect();
    let mut pruned = 0;
    if let Some((_, body)) = doc.sections.iter_mut().find(|(h, _)| h == TASK_SECTIONS[2]) {
        let before = body.len();
        body.retain(|l| {
            let t = l.trim_start();
            let checked = t.starts_with("- [x]") || t.starts_with("- [X]");
            let named = t.starts_with("- ") && done.iter().any(|d| t.contains(d.as_str()));
            !(checked || named)
        });
        pruned += before - body.len();
    }
    loop {
        let over = doc
            .render()
            .lines()
            .count()
            .saturating_sub(TASK_NOTES_MAX_LINES);
        let mut items = task_items(doc);
        if over == 0 || items.is_empty() {
            return pruned;
        }
        items.sort();
        let mut gone: Vec<(usize, usize)> = items
            .iter()
            .take(over)
            .map(|i| (i.section, i.line))
            .collect();
        gone.sort_unstable_by(|a, b| b.cmp(a));
        for (si, li) in gone {
            doc.sections[si].1.remove(li);
            pruned += 1;
        }
    }
}

/// One task-notes item, in the order the 50-line limit removes them (fields compared in
/// order): the open work last, then the oldest first (undated, hand-written ones count as
/// the oldest), What Worked, Key Context and What Failed in that order, the earlier first.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct TaskItem {
    open: bool,
    date: Option<DateTime<Utc>>,
    rank: u8,
    section: usize,
    line: usize,
}

/// Every item (`- …` line) of the task notes.
fn task_items(doc: &Doc) -> Vec<TaskItem> {
    let rank = |section: &str| match section {
        s if s == TASK_SECTIONS[0] => 0,
        s if s == TASK_SECTIONS[3] => 1,
        s if s == TASK_SECTIONS[1] => 2,
        _ => 3,
    };
    let mut items = Vec::new();
    for (si, (h, body)) in doc.sections.iter().enumerate() {
        for (li, l) in body.iter().enumerate() {
            let Some(item) = l.trim_start().strip_prefix("- ") else {
                continue;
            };
            items.push(TaskItem {
                open: h == TASK_SECTIONS[2],
                date: store::parse_stamp(item.trim_start_matches("[ ] ")),
                rank: rank(h),
                section: si,
                line: li,
            });
        }
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-30T10:15:00Z")
            .unwrap()
            .with_timezone(&Utc)
    }

    #[test]
    fn notes_go_into_their_sections_and_nothing_is_lost() {
        let n = NotesInput {
            active_topics: vec!["bridge load".into()],
            follow_up: vec!["fix the flaky test".into(), "write docs".into()],
            ..NotesInput::default()
        };
        let (text, added, _) = add_notes(None, &n, now(), None);
        assert_eq!(added, 3);
        assert!(text.starts_with("# Cumulative Project Notes\n\n## Project Profile\n"));
        let n2 = NotesInput {
            active_topics: vec!["invariants".into()],
            resolved: vec!["flaky test".into()],
            ..NotesInput::default()
        };
        let (text2, _, _) = add_notes(Some(&text), &n2, now(), Some("Bob"));
        let doc = Doc::parse(&text2);
        assert_eq!(
            doc.items("Active Topics"),
            vec![
                "[2026-11-30 10:15:00Z] bridge load",
                "[2026-11-30 10:15:00Z] invariants (by: Bob)"
            ]
        );
        assert_eq!(
            doc.items("Follow-Up Items"),
            vec!["[ ] [2026-11-30 10:15:00Z] write docs"]
        );
        assert_eq!(
            doc.items("Resolved"),
            vec!["[x] [2026-11-30 10:15:00Z] fix the flaky test (resolved 2026-11-30 10:15:00Z)"]
        );
    }

    #[test]
    fn old_themes_and_relationships_are_pruned_other_sections_kept() {
        let text = "# Cumulative Project Notes\n\n## Recurring Themes\n- [2026-08-01] old theme\n- [2026-11-01] recent theme\n\n## Relationship Map\n- [2026-07-01] old link\n\n## Project Profile\n- [2026-01-01] ancient but kept\n";
        let (out, added, pruned) = add_notes(Some(text), &NotesInput::default(), now(), None);
        assert_eq!((added, pruned), (0, 2));
        let doc = Doc::parse(&out);
        assert_eq!(
            doc.items("Recurring Themes"),
            vec!["[2026-11-01] recent theme"]
        );
        assert!(doc.items("Relationship Map").is_empty());
        assert_eq!(
            doc.items("Project Profile"),
            vec!["[2026-01-01] ancient but kept"]
        );
    }

    #[test]
    fn only_the_last_ten_resolved_are_kept() {
        let mut text = None::<String>;
        for i in 0..12 {
            let n = NotesInput {
                follow_up: vec![format!("item-{i:02}")],
                ..NotesInput::default()
            };
            text = Some(add_notes(text.as_deref(), &n, now(), None).0);
            let r = NotesInput {
                resolved: vec![format!("item-{i:02}")],
                ..NotesInput::default()
            };
            text = Some(add_notes(text.as_deref(), &r, now(), None).0);
        }
        let doc = Doc::parse(text.as_deref().unwrap());
        let r = doc.items("Resolved");
        assert_eq!(r.len(), 10);
        assert!(r[0].contains("item-02") && r[9].contains("item-11"));
    }
}
