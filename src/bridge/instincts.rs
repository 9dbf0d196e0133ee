//! `.rune/instincts.md`: learned trigger→action patterns. At most 20 are kept (the lowest
//! confidence is evicted); those older than 30 days with confidence below 0.5 are pruned,
//! and so is one whose action a current convention rules out (`conflict.rs`).

use super::author;
use super::conflict;
use super::entries::{field, heading_of, newest_entries, newest_first};
use super::store;
use crate::core::text::one_line;
use chrono::{DateTime, Utc};
use serde::Deserialize;

/// The most instincts kept.
pub(crate) const MAX: usize = 20;

/// An instinct as given (`instincts:` in the save input).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct Instinct {
    pub(crate) name: String,
    pub(crate) trigger: String,
    pub(crate) action: String,
    pub(crate) confidence: Option<f64>,
    pub(crate) evidence: String,
}

/// One instinct entry.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    pub(crate) text: String,
    pub(crate) confidence: f64,
    pub(crate) at: Option<DateTime<Utc>>,
}

impl Entry {
    /// The entry saved at `now` by `by` (no blank line inside: see `save.rs` on merges).
    pub(crate) fn new(i: &Instinct, now: DateTime<Utc>, by: Option<&str>) -> Entry {
        let confidence = i.confidence.unwrap_or(0.5).clamp(0.1, 1.0);
        let mut text = format!(
            "## [{}] Instinct: {}\n**Trigger:** {}\n**Action:** {}\n**Confidence:** {confidence:.1}\n**Evidence:** {}\n",
            store::stamp(now),
            one_line(&i.name),
            one_line(&i.trigger),
            one_line(&i.action),
            one_line(&i.evidence)
        );
        if let Some(by) = by {
            text.push_str(&author::by_line(by));
        }
        Entry {
            text,
            confidence,
            at: Some(now),
        }
    }
}

impl Entry {
    /// The value of a `**Field:**` line.
    pub(crate) fn field(&self, name: &str) -> String {
        let tag = format!("**{name}:**");
        self.text
            .lines()
            .find_map(|l| l.trim().strip_prefix(&tag).map(|v| v.trim().to_string()))
            .unwrap_or_default()
    }

    /// The name in the heading.
    pub(crate) fn name(&self) -> String {
        self.text
            .lines()
            .next()
            .and_then(|h| h.split_once("Instinct:"))
            .map(|(_, n)| n.trim().to_string())
            .unwrap_or_default()
    }
}

/// Conventions the newest instincts are checked against: the last 50 of conventions.md.
const CONVENTIONS_CHECKED: usize = 50;

/// A convention as the conflict check reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Convention {
    pub(crate) title: String,
    pub(crate) pattern: String,
}

/// The current conventions (the last 50 of `path`) that `trusted` accepts (baton's own, or
/// reviewed: a hand edit nobody accepted removes no instinct).
pub(crate) fn conventions(
    path: &std::path::Path,
    trusted: impl Fn(&str) -> bool,
) -> Vec<Convention> {
    newest_entries(path, CONVENTIONS_CHECKED)
        .unwrap_or_default()
        .into_iter()
        .filter(|e| trusted(e))
        .filter_map(|e| {
            let h = heading_of(&e);
            let title = h.split_once("Convention:").map_or(h, |(_, t)| t).trim();
            Some(Convention {
                title: title.to_string(),
                pattern: field(&e, "Pattern")?,
            })
        })
        .collect()
}

/// Removes the instincts whose action one of `conventions` rules out (or recommends what
/// the action rules out); returns a line for each: `name (term: convention)`.
pub(crate) fn remove_conflicting(
    entries: &mut Vec<Entry>,
    conventions: &[Convention],
) -> Vec<String> {
    let mut gone = Vec::new();
    entries.retain(|e| {
        let action = e.field("Action");
        let hit = conventions
            .iter()
            .find_map(|c| conflict::conflict(&action, &c.pattern).map(|t| (t, &c.title)));
        match hit {
            Some((term, title)) => {
                gone.push(format!("{} (`{term}`: convention {title})", e.name()));
                false
            }
            None => true,
        }
    });
    gone
}

/// Removes the stale instincts (older than 30 days, confidence below 0.5) and those that
/// conflict with a convention; `None` when there are none.
pub(crate) fn prune(
    text: &str,
    now: DateTime<Utc>,
    conventions: &[Convention],
) -> Option<(String, usize)> {
    let (pre, mut entries) = parse(text);
    let before = entries.len();
    remove_conflicting(&mut entries, conventions);
    let keep: Vec<&Entry> = entries.iter().filter(|e| !is_stale(e, now)).collect();
    let removed = before - keep.len();
    if removed == 0 {
        return None;
    }
    let mut out = pre.trim_end().to_string();
    out.push('\n');
    for e in keep {
        out.push('\n');
        out.push_str(&e.text);
    }
    Some((out, removed))
}

/// The strongest `n` instincts, strongest first (equal confidence: the newer first). One
/// instinct saved twice under its name (two people, or a merge that brought it twice) is
/// shown once, in its newest form.
pub(crate) fn strongest(text: &str, n: usize) -> Vec<Entry> {
    let (_, entries) = parse(text);
    let at: std::collections::HashMap<String, Option<DateTime<Utc>>> =
        entries.iter().map(|e| (e.text.clone(), e.at)).collect();
    let texts: Vec<String> = entries.iter().map(|e| e.text.clone()).collect();
    let newest = newest_first(texts, |t| at.get(t).copied().flatten());
    let mut names = std::collections::HashSet::new();
    let mut kept: Vec<Entry> = Vec::new();
    for t in newest {
        let Some(e) = entries.iter().find(|e| e.text == t) else {
            continue;
        };
        if names.insert(e.name().to_lowercase()) {
            kept.push(e.clone());
        }
    }
    // Stable: among equal confidence the newest-first order stays.
    kept.sort_by(|a, b| {
        b.confidence
            .partial_cmp(&a.confidence)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    kept.truncate(n);
    kept
}

/// Splits the file into its preamble and its entries (as they were written: `merged`).
pub(crate) fn parse(text: &str) -> (String, Vec<Entry>) {
    let mut pre = String::new();
    let mut texts: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("## ") && line.contains("Instinct:") {
            texts.push(String::new());
        }
        match texts.last_mut() {
            Some(t) => t.push_str(line),
            None => pre.push_str(line),
        }
    }
    let texts = super::merged::repair_texts(
        texts
            .into_iter()
            .map(|t| t.trim_end().to_string())
            .collect(),
    );
    let entries = texts
        .into_iter()
        .map(|t| {
            let head = t.lines().next().unwrap_or("");
            let confidence = t
                .lines()
                .find_map(|l| l.trim().strip_prefix("**Confidence:**"))
                .map_or(0.5, |v| v.trim().parse().unwrap_or(0.5));
            Entry {
                at: store::parse_stamp(head.get(3..).unwrap_or("")),
                confidence,
                text: t + "\n",
            }
        })
        .collect();
    (pre, entries)
}

/// What `add` did beyond adding.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Added {
    /// Evicted (past 20) or pruned (stale).
    pub(crate) removed: usize,
    /// Removed because a convention rules them out: `name (term: convention)`.
    pub(crate) conflicting: Vec<String>,
}

/// Adds `new` to the file text and removes those that conflict with `conventions`; returns
/// the new text and what was removed.
pub(crate) fn add(
    text: Option<&str>,
    new: &[Entry],
    conventions: &[Convention],
) -> (String, Added) {
    let (pre, mut entries) = parse(text.unwrap_or(""));
    let pre = if pre.trim().is_empty() {
        store::header(store::INSTINCTS).to_string()
    } else {
        pre
    };
    let now = new.iter().filter_map(|e| e.at).max();
    let before = entries.len() + new.len();
    if let Some(now) = now {
        entries.retain(|e| !is_stale(e, now));
    }
    entries.extend(new.iter().cloned());
    let conflicting = remove_conflicting(&mut entries, conventions);
    while entries.len() > MAX {
        // Lowest confidence goes; among equals, the oldest (earliest in the file).
        let mut worst = 0;
        for (i, e) in entries.iter().enumerate() {
            if e.confidence < entries[worst].confidence {
                worst = i;
            }
        }
        entries.remove(worst);
    }
    let removed = before - entries.len() - conflicting.len();
    let mut out = pre.trim_end().to_string();
    out.push('\n');
    for e in &entries {
        out.push('\n');
        out.push_str(&e.text);
    }
    (
        out,
        Added {
            removed,
            conflicting,
        },
    )
}

/// Older than 30 days with confidence below 0.5.
pub(crate) fn is_stale(e: &Entry, now: DateTime<Utc>) -> bool {
    e.confidence < 0.5 && e.at.is_some_and(|at| (now - at).num_days() > 30)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn inst(name: &str, c: f64) -> Instinct {
        Instinct {
            name: name.into(),
            trigger: "when x".into(),
            action: "do y".into(),
            confidence: Some(c),
            evidence: "seen".into(),
        }
    }

    #[test]
    fn twenty_kept_lowest_confidence_evicted() {
        let now = t("2026-11-30T10:00:00Z");
        let mut text = None::<String>;
        for i in 0..20 {
            let c = if i == 7 { 0.3 } else { 0.8 };
            let (out, added) = add(
                text.as_deref(),
                &[Entry::new(&inst(&format!("i{i}"), c), now, None)],
                &[],
            );
            assert_eq!(added.removed, 0);
            text = Some(out);
        }
        let (out, added) = add(
            text.as_deref(),
            &[Entry::new(&inst("new", 0.6), now, None)],
            &[],
        );
        assert_eq!(added.removed, 1);
        let (_, entries) = parse(&out);
        assert_eq!(entries.len(), 20);
        assert!(!out.contains("Instinct: i7\n"), "{out}");
        assert!(out.contains("Instinct: new\n"));
        assert!(out.starts_with("# Instincts\n"));
    }

    #[test]
    fn old_low_confidence_pruned() {
        let old = Entry::new(&inst("old-weak", 0.4), t("2026-09-01T00:00:00Z"), None);
        let strong = Entry::new(&inst("old-strong", 0.9), t("2026-09-01T00:00:00Z"), None);
        let (text, _) = add(None, &[old, strong], &[]);
        let (out, added) = add(
            Some(&text),
            &[Entry::new(
                &inst("fresh", 0.4),
                t("2026-11-30T00:00:00Z"),
                None,
            )],
            &[],
        );
        assert_eq!(added.removed, 1);
        assert!(!out.contains("old-weak") && out.contains("old-strong") && out.contains("fresh"));
    }

    #[test]
    fn an_instinct_a_convention_rules_out_is_removed_at_once() {
        let now = t("2026-11-30T10:00:00Z");
        let mut quick = inst("quick-http", 0.7);
        quick.action = "use `requests` for one-off HTTP calls".into();
        let (text, _) = add(
            None,
            &[
                Entry::new(&quick, now, None),
                Entry::new(&inst("kept", 0.6), now, None),
            ],
            &[],
        );
        let rule = Convention {
            title: "Async-first I/O".into(),
            pattern: "blocking calls (`requests`, `open`) are forbidden in async modules".into(),
        };
        let (out, removed) = prune(&text, now, std::slice::from_ref(&rule)).unwrap();
        assert_eq!(removed, 1);
        assert!(
            !out.contains("quick-http") && out.contains("Instinct: kept"),
            "{out}"
        );
        // Saved together with a convention that rules it out, it is not kept either.
        let (out, added) = add(None, &[Entry::new(&quick, now, None)], &[rule]);
        assert_eq!(
            added.conflicting,
            vec!["quick-http (`requests`: convention Async-first I/O)"]
        );
        assert_eq!(added.removed, 0);
        assert!(!out.contains("quick-http"), "{out}");
    }
}
