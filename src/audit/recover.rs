//! Graded recall (`baton audit recover`, SessionStart, `baton audit start`):
//!
//! | level | budget | what |
//! |---|---|---|
//! | L0 | ~200 tokens | index.json: the last 5 sessions (id, task, status) |
//! | L1 | ~500 tokens | the current session: session.json and its last 3 records |
//! | L2 | ~1000 tokens | corrections across sessions, ended sessions' outcomes, the latest daily report's corrections and backlog |
//! | L3 | ~3000 tokens | the whole trail and pending records of one session |
//!
//! Each level is cut to its budget and says how much was left out and where the rest is. L2
//! gives each of its four parts a share (`core::budget::share_tokens`), so many corrections do
//! not push the report's sections out; L3 keeps the newest records and names the files that
//! hold them all.

use super::index::{Entry, Index};
use super::record::{Kind, Record};
use super::sidecar::{self, Caller};
use super::store::{self, Store};
use super::trail;
use crate::core::budget::{chars, cut_to_tokens, estimate_tokens, share_tokens, Part};
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::text::{clip, one_line};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub(crate) const L0_TOKENS: usize = 200;
pub(crate) const L1_TOKENS: usize = 500;
pub(crate) const L2_TOKENS: usize = 1000;
pub(crate) const L3_TOKENS: usize = 3000;

/// One record as one short line.
pub(crate) fn line(r: &Record) -> String {
    let hm = r.hour_minute().unwrap_or_else(|| "--:--".into());
    match &r.kind {
        Kind::Data | Kind::Change => {
            let mut l = format!("{hm} {} {}: {}", r.kind.as_str(), r.tool(), r.input_line());
            if r.failed() {
                l.push_str(" [error]");
            }
            l
        }
        Kind::Conversation => format!("{hm} prompt: {}", clip(&one_line(r.text()), 160)),
        Kind::UserCorrection => format!("{hm} CORRECTION {}: {}", r.id(), r.text()),
        Kind::Other(other) => format!("{hm} {other}"),
    }
}

/// L0: the last five sessions.
pub(crate) fn l0(index: &Index) -> String {
    let last = index.last(5);
    if last.is_empty() {
        return "No audit sessions yet.".into();
    }
    let mut out = String::new();
    for e in last.iter().rev() {
        out.push_str(&format!(
            "- {} [{}] {}{}\n",
            e.id,
            e.status,
            e.task,
            figures(e)
        ));
    }
    cut_to_tokens(out.trim_end(), L0_TOKENS)
}

/// What an ended automatic session did, as L0 shows it (its task says nothing):
/// `: 12 tool calls, 2 files changed, 1 correction`. Named sessions and open ones: nothing.
fn figures(e: &Entry) -> String {
    let Some(s) = e.stats.as_ref().filter(|_| e.is_auto()) else {
        return String::new();
    };
    let calls =
        s.by_type.get("data").copied().unwrap_or(0) + s.by_type.get("change").copied().unwrap_or(0);
    let prompts = s.by_type.get("conversation").copied().unwrap_or(0);
    let mut parts = vec![
        format!("{prompts} prompt(s)"),
        format!("{calls} tool call(s)"),
    ];
    if !s.files.is_empty() {
        parts.push(format!("{} file(s) changed", s.files.len()));
    }
    if !s.corrections.is_empty() {
        parts.push(format!("{} correction(s)", s.corrections.len()));
    }
    format!(": {}", parts.join(", "))
}

/// L1: the current session (or `id`) with its last three records.
pub(crate) fn l1(store: &Store, id: Option<&str>) -> Result<String> {
    let id = match id {
        Some(i) => i.to_string(),
        None => match store.current()? {
            Some(i) => i,
            None => return Ok("No session is current.".into()),
        },
    };
    let meta = store::read_meta(store, &id)?;
    let view = sidecar::view(&store.run_dir(&id)?, store.file_mode(), Caller::Command)?;
    Ok(l1_of(&meta, &view))
}

/// L1 of a session from its `session.json` and what its summary and buffer show.
pub(crate) fn l1_of(meta: &store::SessionMeta, view: &sidecar::View) -> String {
    let mut out = format!(
        "Session {} [{}]: {}\nstarted {}",
        meta.session_id,
        meta.status,
        meta.task,
        meta.start_time.format("%Y-%m-%d %H:%M UTC")
    );
    if let Some(end) = meta.end_time {
        out.push_str(&format!(", ended {}", end.format("%Y-%m-%d %H:%M UTC")));
    }
    match view.records {
        Some(n) => out.push_str(&format!("; {n} records\n")),
        None => out.push_str("; records not counted here (`baton audit recover` counts them)\n"),
    }
    if !meta.status_ok() {
        out.push_str(&format!(
            "WARNING: session.json has status {:?} (expected one of {})\n",
            meta.status,
            store::STATUSES.join(", ")
        ));
    }
    let tail = &view.last[view.last.len().saturating_sub(3)..];
    if !tail.is_empty() {
        out.push_str("Last records:\n");
        for rec in tail {
            out.push_str(&format!("- {}\n", line(rec)));
        }
    }
    cut_to_tokens(out.trim_end(), L1_TOKENS)
}

/// A correction as recall lists it.
pub(crate) struct Recalled {
    /// The session it was made in.
    pub(crate) session: String,
    pub(crate) id: String,
    pub(crate) text: String,
    pub(crate) persisted: bool,
}

/// The corrections of every session, newest first.
pub(crate) fn all_corrections(
    store: &Store,
    index: &Index,
    persisted: &HashMap<String, Vec<String>>,
) -> Vec<Recalled> {
    let mut out = Vec::new();
    for e in index.sessions.iter().rev() {
        let Ok((stats, _)) = super::index::stats_of(store, e, persisted) else {
            continue;
        };
        for c in stats.corrections.iter().rev() {
            out.push(Recalled {
                session: e.id.clone(),
                id: c.id.clone(),
                text: c.text.clone(),
                persisted: !c.persisted_to.is_empty(),
            });
        }
    }
    out
}

/// L2: corrections, outcomes of ended sessions, the latest daily report's §4 and §6; each
/// part gets a share of the budget (the corrections a double one).
pub(crate) fn l2(store: &Store, index: &Index) -> Result<String> {
    let persisted = super::persist::load(store)?;
    let mut corrections_text = String::new();
    let corrections = all_corrections(store, index, &persisted);
    if corrections.is_empty() {
        corrections_text.push_str("Corrections: none recorded.\n");
    } else {
        corrections_text.push_str("Corrections (newest first; keep following them):\n");
        for c in corrections.iter().take(15) {
            let mark = if c.persisted {
                "persisted"
            } else {
                "NOT persisted"
            };
            corrections_text.push_str(&format!("- {} ({}, {}, {mark})\n", c.text, c.id, c.session));
        }
    }
    let conclusions = conclusions(index);
    let report = latest_report(store);
    let sections: Vec<String> = report
        .as_ref()
        .map(|(_, text)| {
            ["## 4.", "## 6."]
                .iter()
                .filter_map(|title| section_of(text, title))
                .collect()
        })
        .unwrap_or_default();
    let index_file = shown(store, &store.index_file());
    let report_file = report.as_ref().map(|(path, _)| shown(store, path));
    let mut parts = vec![
        Part {
            text: &corrections_text,
            weight: 2,
            source: Some("`baton recall --kind correction WORDS`"),
        },
        Part {
            text: &conclusions,
            weight: 1,
            source: Some(&index_file),
        },
    ];
    for section in &sections {
        parts.push(Part {
            text: section,
            weight: 1,
            source: report_file.as_deref(),
        });
    }
    Ok(share_tokens(&parts, L2_TOKENS))
}

/// The outcomes of the last five ended sessions.
fn conclusions(index: &Index) -> String {
    let ended: Vec<_> = index
        .sessions
        .iter()
        .rev()
        .filter(|e| e.status == "completed")
        .take(5)
        .collect();
    let mut out = String::new();
    if !ended.is_empty() {
        out.push_str("Conclusions of recent sessions:\n");
        for e in ended {
            let integrity = if e.integrity_unknown {
                "integrity unknown".to_string()
            } else if e.integrity.is_empty() {
                "integrity ok".to_string()
            } else {
                format!("integrity: {}", e.integrity.join("; "))
            };
            let figures = e.stats.as_ref().map_or(String::new(), |s| {
                format!(", {} records, {} file(s) changed", s.records, s.files.len())
            });
            out.push_str(&format!("- {} {}{figures}, {integrity}\n", e.id, e.task));
        }
    }
    out
}

/// `path` as the user finds it: relative to the project root when it is inside.
fn shown(store: &Store, path: &Path) -> String {
    path.strip_prefix(&store.root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The newest daily report: its path and text.
fn latest_report(store: &Store) -> Option<(PathBuf, String)> {
    let mut names: Vec<String> = std::fs::read_dir(store.reports())
        .ok()?
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.starts_with("daily_") && Path::new(n).extension().is_some_and(|e| e == "md"))
        .collect();
    names.sort();
    let path = store.reports().join(names.last()?);
    let text = fsx::read_limited(&path, fsx::Limit::DOCUMENT)
        .ok()
        .flatten()?;
    Some((path, text))
}

/// The markdown section starting with a heading that begins with `prefix`.
fn section_of(text: &str, prefix: &str) -> Option<String> {
    let start = text.find(&format!("\n{prefix}"))? + 1;
    let rest = &text[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    Some(rest[..end].trim_end().to_string())
}

/// Problems (unreadable lines) L3 lists; the rest are counted.
const L3_PROBLEMS: usize = 5;

/// L3: every record of session `id` (trail, pending, buffer). When they do not fit, the
/// newest are kept, and a note says how many older ones were left out and which files hold
/// them all.
pub(crate) fn l3(store: &Store, id: &str) -> Result<String> {
    let dir = store.run_dir(id)?;
    if !dir.is_dir() {
        return Err(Error::NotFound(format!(
            "no session {id} under {}; `baton audit status` lists them",
            store.runs().display()
        )));
    }
    let r = trail::session_records(&dir, id)?;
    let mut head = format!("Full trail of {id} ({} records):\n", r.records.len());
    for p in r.problems.iter().take(L3_PROBLEMS) {
        head.push_str(&format!("! {p}\n"));
    }
    if r.problems.len() > L3_PROBLEMS {
        head.push_str(&format!(
            "! … and {} more unreadable line(s)\n",
            r.problems.len() - L3_PROBLEMS
        ));
    }
    let lines: Vec<String> = r
        .records
        .iter()
        .map(|rec| format!("- {}\n", line(rec)))
        .collect();
    let whole = format!("{head}{}", lines.concat());
    if estimate_tokens(whole.trim_end()) <= L3_TOKENS {
        return Ok(whole.trim_end().to_string());
    }
    let run_dir = shown(store, &dir);
    let note = |older: usize, cut: usize| {
        format!(
            "[… the {older} oldest record(s) left out; every record is in {run_dir}/ \
             (audit_trail.jsonl, then audit_pending.jsonl and audit_buffer.jsonl); \
             {cut} more characters cut]\n"
        )
    };
    // Newest first, as many as fit beside the header and the longest note.
    let mut room =
        (L3_TOKENS * 4).saturating_sub(chars(&head) + chars(&note(lines.len(), chars(&whole))));
    let mut from = lines.len();
    while from > 0 && chars(&lines[from - 1]) <= room {
        room -= chars(&lines[from - 1]);
        from -= 1;
    }
    let cut: usize = lines[..from].iter().map(|l| chars(l)).sum();
    let out = format!("{head}{}{}", note(from, cut), lines[from..].concat());
    Ok(cut_to_tokens(out.trim_end(), L3_TOKENS))
}

/// Named sessions still `in_progress` other than `current`: work someone started and did not
/// end. An automatic one left open (its Claude session ended without a SessionEnd that
/// reached baton) is not listed: the next SessionStart of another Claude session ends it, or
/// it is closed as abandoned once quiet.
pub(crate) fn unfinished<'a>(index: &'a Index, current: Option<&str>) -> Vec<&'a Entry> {
    index
        .sessions
        .iter()
        .filter(|e| e.status == "in_progress" && Some(e.id.as_str()) != current && !e.is_auto())
        .collect()
}

/// What to say about unfinished sessions.
pub(crate) fn unfinished_text(list: &[&Entry]) -> String {
    let mut out = String::from("Unfinished sessions (status in_progress):\n");
    for e in list {
        out.push_str(&format!(
            "- {} started {}: {}\n",
            e.id,
            e.start.format("%Y-%m-%d %H:%M"),
            e.task
        ));
    }
    out.push_str(
        "To close one: `baton audit end --session ID` (runs its integrity check and summary), \
         or review it first with `baton audit recover ID`.",
    );
    out
}

/// What `baton audit recover` prints for `arg` (none, `full`, or a session id).
pub(crate) fn recover(store: &Store, arg: Option<&str>) -> Result<String> {
    let (index, problem) = super::index::load(store)?;
    let mut out = String::new();
    if let Some(p) = problem {
        out.push_str(&format!("note: {p}\n\n"));
    }
    match arg {
        None => {
            out.push_str(&format!("## L0 — recent sessions\n{}\n\n", l0(&index)));
            out.push_str(&format!(
                "## L1 — current session\n{}\n\n",
                l1(store, None)?
            ));
            out.push_str(&format!(
                "## L2 — corrections and conclusions\n{}\n",
                l2(store, &index)?
            ));
        }
        Some("full") => {
            let id = store
                .current()?
                .or_else(|| index.sessions.last().map(|e| e.id.clone()));
            match id {
                Some(id) => out.push_str(&format!("## L3 — {id}\n{}\n", l3(store, &id)?)),
                None => out.push_str("No audit sessions yet.\n"),
            }
        }
        Some(id) => {
            if !store.run_dir(id)?.is_dir() {
                return Err(Error::NotFound(format!(
                    "no session {id} under {}; `baton audit status` lists them",
                    store.runs().display()
                )));
            }
            out.push_str(&format!("## L1 — {id}\n{}\n\n", l1(store, Some(id))?));
            out.push_str(&format!("## L3 — {id}\n{}\n", l3(store, id)?));
        }
    }
    Ok(out)
}
