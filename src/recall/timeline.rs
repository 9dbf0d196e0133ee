//! What happened in a time range, by session (`baton timeline`, the MCP `timeline` tool):
//! every store's documents in the range, grouped by their session (an audit session, a
//! handoff's session, a relay loop) or, for memory entries that belong to none, by day. Each
//! group is summed up as it streams by — counts per kind and the first few prompts,
//! corrections, failures, changed files and memory entries — so a long range costs time, not
//! memory. A session is shown once: capture's digest of a Claude Code session joins the audit
//! session whose records were made in it.

use super::render::count;
use super::search::run_sources;
use crate::core::project::Project;
use crate::core::recall::{Doc, Filter, Kind, Scan, ScanStats, Trust};
use crate::core::scan::Secrets;
use crate::core::text::{clip, one_line};
use crate::core::trust;
use chrono::{DateTime, Utc};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

/// Items of one sort listed per session; the rest are counted.
const LISTED: usize = 3;
/// Changed files listed per session.
const FILES_LISTED: usize = 8;
/// Characters of a listed item.
const ITEM_MAX: usize = 120;

/// What to show.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    pub(crate) since: DateTime<Utc>,
    pub(crate) until: Option<DateTime<Utc>>,
    /// Only this session.
    pub(crate) session: Option<String>,
    /// The most sessions (the newest are kept).
    pub(crate) limit: usize,
    pub(crate) global: bool,
}

/// One session's summary.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct Group {
    /// The session id, or `YYYY-MM-DD` for entries of no session.
    pub(crate) key: String,
    /// The audit session's task, a handoff's next action, … when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) label: Option<String>,
    pub(crate) first: Option<DateTime<Utc>>,
    pub(crate) last: Option<DateTime<Utc>>,
    /// Documents per kind.
    pub(crate) counts: BTreeMap<&'static str, u64>,
    pub(crate) failed: u64,
    /// `(kind, time, text)` of the first few of each sort.
    pub(crate) items: Vec<(&'static str, Option<DateTime<Utc>>, String)>,
    pub(crate) files: BTreeSet<String>,
    pub(crate) more_files: u64,
}

impl Group {
    /// Takes in `other`, a view of the same session under another id.
    fn absorb(&mut self, other: Group) {
        for (k, n) in other.counts {
            *self.counts.entry(k).or_default() += n;
        }
        self.first = match (self.first, other.first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.last = self.last.max(other.last);
        self.failed += other.failed;
        if self.label.is_none() {
            self.label = other.label;
        }
        for item in other.items {
            if self.items.iter().filter(|(s, _, _)| *s == item.0).count() < LISTED {
                self.items.push(item);
            }
        }
        for f in other.files {
            if self.files.len() < FILES_LISTED {
                self.files.insert(f);
            } else if !self.files.contains(&f) {
                self.more_files += 1;
            }
        }
        self.more_files += other.more_files;
    }

    /// Counts `doc` and keeps what it shows. What is shown of a document that is not a
    /// reviewed save (a tool call, the model's words, a teammate's entry) holds to the trust
    /// rule (`core::trust`): what the scan blocks is named, not copied.
    fn add(&mut self, doc: &Doc, red: &dyn Secrets) {
        let shown = |text: &str| match doc.trust {
            Some(Trust::Reviewed) => text.to_string(),
            _ => trust::field(text, red),
        };
        *self.counts.entry(doc.kind.as_str()).or_default() += 1;
        if let Some(t) = doc.ts {
            self.first = Some(self.first.map_or(t, |f| f.min(t)));
            self.last = Some(self.last.map_or(t, |l| l.max(t)));
        }
        let failed =
            matches!(doc.kind, Kind::Tool | Kind::Change) && doc.title.contains("(failed)");
        if failed {
            self.failed += 1;
        }
        match doc.kind {
            Kind::Session => self.label = Some(shown(&one_line(&doc.title))),
            Kind::Change => {
                if let Some(f) = doc.path.as_deref() {
                    if self.files.len() < FILES_LISTED {
                        self.files.insert(shown(f));
                    } else if !self.files.contains(f) {
                        self.more_files += 1;
                    }
                }
            }
            Kind::Tool if !failed => {}
            _ => {
                let sort = if failed { "failed" } else { doc.kind.as_str() };
                if self.items.iter().filter(|(s, _, _)| *s == sort).count() < LISTED {
                    let text = clip(&shown(&one_line(&doc.title)), ITEM_MAX);
                    self.items.push((sort, doc.ts, text));
                }
            }
        }
    }
}

/// The timeline of a range.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Timeline {
    pub(crate) since: DateTime<Utc>,
    pub(crate) until: Option<DateTime<Utc>>,
    pub(crate) sessions: Vec<Group>,
    /// Sessions in range left out by the limit (the oldest).
    pub(crate) more_sessions: usize,
    pub(crate) records: u64,
    #[serde(skip)]
    pub(crate) stats: ScanStats,
}

/// Builds the timeline of `req`.
pub(crate) fn timeline(project: &Project, req: &Request) -> Timeline {
    let filter = Filter {
        since: Some(req.since),
        until: req.until,
        ..Filter::default()
    };
    let mut groups: HashMap<String, Group> = HashMap::new();
    // Claude Code's session id → the audit session whose records were made in it.
    let mut joined: HashMap<String, String> = HashMap::new();
    let stats = {
        let mut sink = |d: Doc| {
            let key = d.session.clone().unwrap_or_else(|| {
                d.ts.map_or_else(|| "undated".into(), |t| t.format("%Y-%m-%d").to_string())
            });
            let asked = req.session.as_ref();
            if asked.is_some_and(|s| *s != key && d.alias.as_ref() != Some(s)) {
                return;
            }
            if let Some(a) = d.alias.as_ref().filter(|a| **a != key) {
                joined.entry(a.clone()).or_insert_with(|| key.clone());
            }
            let redacted = redact_doc(project, d);
            groups
                .entry(key.clone())
                .or_insert_with(|| Group {
                    key,
                    ..Group::default()
                })
                .add(&redacted, project.redactor());
        };
        let mut scan = Scan::new(&filter, &mut sink);
        let _ = run_sources(project, &mut scan, req.global);
        scan.into_stats()
    };
    for (alias, key) in &joined {
        if let Some(other) = groups.remove(alias) {
            match groups.get_mut(key) {
                Some(g) => g.absorb(other),
                None => {
                    groups.insert(alias.clone(), other);
                }
            }
        }
    }
    let mut sessions: Vec<Group> = groups.into_values().collect();
    sessions.sort_by(|a, b| a.first.cmp(&b.first).then_with(|| a.key.cmp(&b.key)));
    let more_sessions = sessions.len().saturating_sub(req.limit);
    sessions.drain(..more_sessions);
    Timeline {
        since: req.since,
        until: req.until,
        sessions,
        more_sessions,
        records: stats.passed,
        stats,
    }
}

/// The parts of a document a timeline shows, redacted.
fn redact_doc(project: &Project, mut d: Doc) -> Doc {
    d.title = project.redact(&d.title);
    d.path = d.path.map(|p| project.redact(&p));
    d.text.clear();
    d
}

/// The timeline as text; with `cap`, at most that many characters (whole sessions are left
/// out, oldest first, and the first line says so).
pub(crate) fn text(t: &Timeline, cap: Option<usize>) -> String {
    let blocks: Vec<String> = t.sessions.iter().map(block).collect();
    let mut keep = blocks.len();
    let head = |kept: usize| {
        let left_out = t.more_sessions + (blocks.len() - kept);
        let mut h = format!(
            "Timeline {} → {} (UTC): {} sessions, {} records",
            t.since.format("%Y-%m-%d %H:%M"),
            t.until
                .map_or_else(|| "now".into(), |u| u.format("%Y-%m-%d %H:%M").to_string()),
            kept,
            count(t.records)
        );
        if left_out > 0 {
            h.push_str(&format!(
                " ({left_out} older sessions left out: narrow the range)"
            ));
        }
        h.push('\n');
        h
    };
    if let Some(c) = cap {
        while keep > 0
            && head(keep).chars().count()
                + blocks[blocks.len() - keep..]
                    .iter()
                    .map(|b| b.chars().count())
                    .sum::<usize>()
                > c
        {
            keep -= 1;
        }
    }
    let mut s = head(keep);
    if t.sessions.is_empty() {
        s.push_str("Nothing was recorded in this range.\n");
    }
    for b in &blocks[blocks.len() - keep..] {
        s.push_str(b);
    }
    for w in &t.stats.withheld {
        let _ = writeln!(s, "not searched: {w}");
    }
    match cap {
        Some(c) => clip(&s, c),
        None => s,
    }
}

fn block(g: &Group) -> String {
    let when = match (g.first, g.last) {
        (Some(f), Some(l)) if f.date_naive() == l.date_naive() => {
            format!("{} → {}", f.format("%Y-%m-%d %H:%M"), l.format("%H:%M"))
        }
        (Some(f), Some(l)) => format!(
            "{} → {}",
            f.format("%Y-%m-%d %H:%M"),
            l.format("%Y-%m-%d %H:%M")
        ),
        _ => "undated".into(),
    };
    let mut s = format!("\n■ {} · {when}", g.key);
    if let Some(l) = &g.label {
        s.push_str(&format!(" · {l}"));
    }
    s.push('\n');
    let counts: Vec<String> = g
        .counts
        .iter()
        .filter(|(k, _)| **k != "session")
        .map(|(k, n)| {
            let failed = if *k == "tool" && g.failed > 0 {
                format!(" ({} failed)", g.failed)
            } else {
                String::new()
            };
            format!("{} {k}{failed}", count(*n))
        })
        .collect();
    if !counts.is_empty() {
        let _ = writeln!(s, "  {}", counts.join(" · "));
    }
    for (sort, ts, text) in &g.items {
        let at = ts.map_or_else(String::new, |t| format!(" ({})", t.format("%H:%M")));
        let _ = writeln!(s, "  {sort}: {text}{at}");
    }
    if !g.files.is_empty() {
        let files: Vec<&str> = g.files.iter().map(String::as_str).collect();
        let more = if g.more_files > 0 {
            format!(" (+{} more)", g.more_files)
        } else {
            String::new()
        };
        let _ = writeln!(s, "  changed: {}{more}", files.join(", "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::time;

    fn doc(kind: Kind, session: Option<&str>, title: &str, ts: &str) -> Doc {
        let mut d = Doc::new(kind, "src", title);
        d.session = session.map(str::to_string);
        d.ts = time::parse(ts);
        d
    }

    #[test]
    fn a_group_counts_lists_and_collects_files() {
        let red = crate::core::redact::Redactor::builtin();
        let mut g = Group {
            key: "s1".into(),
            ..Group::default()
        };
        g.add(
            &doc(
                Kind::Session,
                Some("s1"),
                "Audit session s1: fix login",
                "2026-11-28T09:00:00Z",
            ),
            &red,
        );
        g.add(
            &doc(
                Kind::Prompt,
                Some("s1"),
                "fix the login redirect",
                "2026-11-28T09:01:00Z",
            ),
            &red,
        );
        g.add(
            &doc(Kind::Tool, Some("s1"), "Bash: ls", "2026-11-28T09:02:00Z"),
            &red,
        );
        g.add(
            &doc(
                Kind::Tool,
                Some("s1"),
                "Bash (failed): cargo test",
                "2026-11-28T09:03:00Z",
            ),
            &red,
        );
        let mut c = doc(
            Kind::Change,
            Some("s1"),
            "Edit: src/a.rs",
            "2026-11-28T09:04:00Z",
        );
        c.path = Some("src/a.rs".into());
        g.add(&c, &red);
        assert_eq!(g.label.as_deref(), Some("Audit session s1: fix login"));
        assert_eq!(g.counts["tool"], 2);
        assert_eq!(g.failed, 1);
        assert_eq!(g.files.iter().collect::<Vec<_>>(), vec!["src/a.rs"]);
        let b = block(&g);
        assert!(
            b.contains("■ s1 · 2026-11-28 09:00 → 09:04 · Audit session s1: fix login"),
            "{b}"
        );
        assert!(b.contains("2 tool (1 failed)"), "{b}");
        assert!(
            b.contains("  prompt: fix the login redirect (09:01)"),
            "{b}"
        );
        assert!(
            b.contains("  failed: Bash (failed): cargo test (09:03)"),
            "{b}"
        );
        assert!(b.contains("  changed: src/a.rs"), "{b}");
    }

    #[test]
    fn a_capped_timeline_drops_the_oldest_sessions() {
        let red = crate::core::redact::Redactor::builtin();
        let sessions: Vec<Group> = (0..50)
            .map(|i| {
                let mut g = Group {
                    key: format!("s{i:02}"),
                    ..Group::default()
                };
                g.add(
                    &doc(
                        Kind::Prompt,
                        None,
                        &"long prompt ".repeat(10),
                        "2026-11-28T09:01:00Z",
                    ),
                    &red,
                );
                g
            })
            .collect();
        let t = Timeline {
            since: time::parse("2026-11-23T00:00:00Z").unwrap(),
            until: None,
            sessions,
            more_sessions: 0,
            records: 50,
            stats: ScanStats::default(),
        };
        let s = text(&t, Some(2_000));
        assert!(s.chars().count() <= 2_000);
        assert!(s.contains("older sessions left out"), "{s}");
        assert!(s.contains("■ s49"), "the newest stay");
        assert!(!s.contains("■ s00"));
    }
}
