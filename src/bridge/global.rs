//! Cross-project promotion. A project's instinct saved at confidence ≥ 0.8 is noted as a
//! sighting in the user-level store; when the same trigger+action has been seen in two or
//! more projects it is promoted to `$XDG_DATA_HOME/baton/global.jsonl` (default
//! `~/.local/share/baton/`), and load shows the promoted ones. Projects are named by a hash
//! of their root, not their path; everything written passes the redactor.

use super::integrity::{self, Status};
use super::store;
use crate::core::ctx::Env;
use crate::core::error::Result;
use crate::core::hash::fnv1a;
use crate::core::redact::Redactor;
use crate::core::text::one_line;
use crate::core::{fsx, jsonl, paths, time};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Confidence at which an instinct counts toward promotion.
pub(crate) const PROMOTE_AT: f64 = 0.8;
/// Distinct projects needed.
pub(crate) const PROJECTS_NEEDED: usize = 2;
const SIGHTINGS: &str = "instinct-sightings.jsonl";
const GLOBAL: &str = "global.jsonl";

/// The user-level store's folder (`$XDG_DATA_HOME/baton`); `None` without a home.
pub(crate) fn location(env: &Env) -> Option<PathBuf> {
    paths::data_dir(env)
}

/// One instinct as the store keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Seen {
    pub(crate) ts: String,
    pub(crate) project: String,
    pub(crate) name: String,
    pub(crate) trigger: String,
    pub(crate) action: String,
    pub(crate) confidence: f64,
}

/// A promoted instinct.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Promoted {
    pub(crate) ts: String,
    #[serde(rename = "type")]
    pub(crate) kind: String,
    pub(crate) name: String,
    pub(crate) trigger: String,
    pub(crate) action: String,
    pub(crate) confidence: f64,
    pub(crate) projects: usize,
    pub(crate) tags: Vec<String>,
}

/// The identity of an instinct: trigger and action, case and spacing ignored.
fn key(trigger: &str, action: &str) -> String {
    let norm = |s: &str| {
        one_line(s)
            .to_lowercase()
            .trim_end_matches(['.', '!', ';'])
            .to_string()
    };
    format!("{}\u{1}{}", norm(trigger), norm(action))
}

/// Notes the strong instincts of `root` and promotes those seen in enough projects.
/// Returns the names promoted now.
pub(crate) fn record(
    dir: &Path,
    root: &Path,
    instincts: &[(String, String, String, f64)],
    red: &Redactor,
    now: DateTime<Utc>,
) -> Result<Vec<String>> {
    let strong: Vec<_> = instincts
        .iter()
        .filter(|(_, _, _, c)| *c >= PROMOTE_AT)
        .collect();
    if strong.is_empty() {
        return Ok(Vec::new());
    }
    fsx::ensure_private_dir(dir)?;
    // One promoter at a time: two saves must not both see a key as not yet promoted.
    let _lock = fsx::MkdirLock::acquire(
        &dir.join(".global.lock"),
        std::time::Duration::from_secs(10),
        std::time::Duration::from_secs(60),
    )?;
    let project = format!("{:016x}", fnv1a(root.to_string_lossy().as_bytes()));
    let ts = time::rfc3339(now);
    let sightings = dir.join(SIGHTINGS);
    for (name, trigger, action, confidence) in &strong {
        let seen = Seen {
            ts: ts.clone(),
            project: project.clone(),
            name: red.redact(&one_line(name)).text,
            trigger: red.redact(&one_line(trigger)).text,
            action: red.redact(&one_line(action)).text,
            confidence: *confidence,
        };
        jsonl::append(&sightings, &seen, fsx::PRIVATE_FILE)?;
    }
    let (records, _) = jsonl::read(&sightings)?;
    let mut by_key: BTreeMap<String, (BTreeSet<String>, Seen)> = BTreeMap::new();
    for r in records {
        let Ok(s) = serde_json::from_value::<Seen>(r) else {
            continue;
        };
        if s.confidence < PROMOTE_AT {
            continue;
        }
        let entry = by_key
            .entry(key(&s.trigger, &s.action))
            .or_insert_with(|| (BTreeSet::new(), s.clone()));
        entry.0.insert(s.project.clone());
        if s.confidence > entry.1.confidence {
            entry.1 = s;
        }
    }
    let global = dir.join(GLOBAL);
    let already: BTreeSet<String> = read_global(dir)
        .iter()
        .map(|p| key(&p.trigger, &p.action))
        .collect();
    let mut promoted = Vec::new();
    for (k, (projects, best)) in by_key {
        if projects.len() < PROJECTS_NEEDED || already.contains(&k) {
            continue;
        }
        let p = Promoted {
            ts: ts.clone(),
            kind: "instinct".into(),
            name: best.name.clone(),
            trigger: best.trigger,
            action: best.action,
            confidence: best.confidence,
            projects: projects.len(),
            tags: vec!["cross-project".into(), "instinct".into()],
        };
        jsonl::append(&global, &p, fsx::PRIVATE_FILE)?;
        promoted.push(best.name);
    }
    Ok(promoted)
}

/// The promoted instincts (unreadable lines skipped).
pub(crate) fn read_global(dir: &Path) -> Vec<Promoted> {
    let Ok(Some(text)) = store::read_opt(&dir.join(GLOBAL)) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| serde_json::from_str::<Promoted>(l).ok())
        .collect()
}

/// Lines for load: the promoted instincts not already in this project's instincts text,
/// strongest first, at most five; a line that fails the integrity scan is left out.
pub(crate) fn for_load(
    dir: &Path,
    project_instincts: &str,
    red: &Redactor,
    now: DateTime<Utc>,
) -> Vec<String> {
    let local = project_instincts.to_lowercase();
    let mut all = read_global(dir);
    all.sort_by(|a, b| {
        b.confidence
            .partial_cmp(&a.confidence)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    all.into_iter()
        .filter(|p| !local.contains(&one_line(&p.action).to_lowercase()))
        .map(|p| {
            let age =
                time::parse(&p.ts).map_or_else(|| "undated".to_string(), |t| store::age(t, now));
            format!(
                "- {}: when {} → {} ({:.1}, {} projects, promoted {age})",
                p.name, p.trigger, p.action, p.confidence, p.projects
            )
        })
        .filter(|l| {
            integrity::scan_text("global.jsonl", l, red)
                .iter()
                .all(|f| f.severity == Status::Clean)
        })
        .take(5)
        .collect()
}

#[cfg(test)]
#[allow(clippy::many_single_char_names)]
mod tests {
    use super::*;

    #[test]
    fn concurrent_saves_promote_once() {
        let t = tempfile::tempdir().unwrap();
        let now = DateTime::parse_from_rfc3339("2026-11-30T10:15:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let red = Redactor::builtin();
        let i = vec![(
            "fmt first".to_string(),
            "Before a commit".to_string(),
            "run the formatter.".to_string(),
            0.9,
        )];
        record(t.path(), Path::new("/p/a"), &i, &red, now).unwrap();
        let barrier = std::sync::Barrier::new(8);
        let promoted: usize = std::thread::scope(|s| {
            let hs: Vec<_> = (0..8)
                .map(|k| {
                    let (i, red, barrier, dir) = (&i, &red, &barrier, t.path());
                    let root = format!("/p/b{k}");
                    s.spawn(move || {
                        barrier.wait();
                        record(dir, Path::new(&root), i, red, now).unwrap().len()
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).sum()
        });
        assert_eq!(promoted, 1);
        assert_eq!(read_global(t.path()).len(), 1);
    }

    #[test]
    fn promoted_after_two_projects_once() {
        let t = tempfile::tempdir().unwrap();
        let now = DateTime::parse_from_rfc3339("2026-11-30T10:15:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let red = Redactor::builtin();
        let i = |c: f64| {
            vec![(
                "fmt first".to_string(),
                "Before a commit".to_string(),
                "run the formatter.".to_string(),
                c,
            )]
        };
        let a = Path::new("/p/a");
        let b = Path::new("/p/b");
        assert!(record(t.path(), a, &i(0.9), &red, now).unwrap().is_empty());
        assert!(
            record(t.path(), a, &i(0.9), &red, now).unwrap().is_empty(),
            "same project twice"
        );
        assert!(
            record(t.path(), b, &i(0.5), &red, now).unwrap().is_empty(),
            "too weak"
        );
        let p = record(
            t.path(),
            b,
            &[(
                "x".into(),
                "before a  commit".into(),
                "Run the formatter".into(),
                0.8,
            )],
            &red,
            now,
        )
        .unwrap();
        assert_eq!(p, vec!["fmt first"]);
        assert!(
            record(t.path(), Path::new("/p/c"), &i(0.9), &red, now)
                .unwrap()
                .is_empty(),
            "promoted once"
        );
        let lines = for_load(t.path(), "", &red, now);
        assert_eq!(
            lines,
            vec!["- fmt first: when Before a commit → run the formatter. (0.9, 2 projects, promoted just now)"]
        );
        assert!(for_load(t.path(), "**Action:** Run the formatter.", &red, now).is_empty());
    }
}
