//! Cross-project promotion. A project's instinct saved at confidence ≥ 0.8 is noted as a
//! sighting in the user-level store; when the same trigger+action has been seen in two or
//! more projects it is proposed in `$XDG_DATA_HOME/baton/global.jsonl` (default
//! `~/.local/share/baton/`). A proposal is *pending* until the user accepts it (`baton
//! bridge global accept ID`, or `bridge.auto_promote: true`); load shows accepted ones as
//! memory and pending ones as unreviewed data. Acceptance is provenance: the digest of the
//! record's content is recorded in the user's provenance ledger (`provenance/global/`), so a
//! record edited afterwards, or written by another tool, is unreviewed again. Projects are
//! named by a hash of their root, not their path; everything written passes the redactor.
//! Sightings come only from baton's own saves, so nothing unreviewed is ever promoted.

use super::integrity::{self, Status};
use super::provenance::{self, Ledger};
use super::store;
use crate::core::ctx::Env;
use crate::core::error::{Error, Result};
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
    /// The projects (hashes of their roots) it was seen in: its origin.
    #[serde(default)]
    pub(crate) from: Vec<String>,
}

impl Promoted {
    /// Its digest: the name, trigger, action and confidence as promoted.
    pub(crate) fn digest(&self) -> String {
        provenance::digest(
            GLOBAL,
            &format!(
                "{}\n{}\n{}\n{:.2}",
                self.name, self.trigger, self.action, self.confidence
            ),
        )
    }

    /// The id `list`, `accept` and `remove` take: the digest's first 10 hex digits.
    pub(crate) fn id(&self) -> String {
        self.digest().chars().take(10).collect()
    }
}

/// The user's ledger of accepted promotions.
pub(crate) fn ledger(env: &Env) -> Ledger {
    Ledger::user(env, "global")
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

/// Notes the strong instincts of `root` and proposes those seen in enough projects
/// (accepted at once when `accept` holds: `bridge.auto_promote`, recorded in `ledger`).
/// Returns the names proposed now.
pub(crate) fn record(
    dir: &Path,
    root: &Path,
    instincts: &[(String, String, String, f64)],
    red: &Redactor,
    now: DateTime<Utc>,
    accept: Option<&Ledger>,
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
            from: projects.into_iter().collect(),
        };
        jsonl::append(&global, &p, fsx::PRIVATE_FILE)?;
        if let Some(l) = accept {
            l.record_digests(GLOBAL, &[p.digest()], "auto_promote", now)?;
        }
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
/// strongest first, at most five; the accepted ones (`true`), then the pending ones (to be
/// shown as unreviewed data); a line that fails the integrity scan is left out.
pub(crate) fn for_load(
    dir: &Path,
    ledger: &Ledger,
    project_instincts: &str,
    red: &Redactor,
    now: DateTime<Utc>,
) -> Vec<(String, bool)> {
    let local = project_instincts.to_lowercase();
    let mut all = read_global(dir);
    all.sort_by(|a, b| {
        b.confidence
            .partial_cmp(&a.confidence)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut lines: Vec<(String, bool)> = all
        .into_iter()
        .filter(|p| !local.contains(&one_line(&p.action).to_lowercase()))
        .map(|p| {
            let age = time::parse(&p.ts)
                .map_or_else(|| "undated".to_string(), |t| crate::core::time::age(t, now));
            let accepted = ledger.knows_digest(GLOBAL, &p.digest());
            let line = format!(
                "- {}: when {} → {} ({:.1}, {} projects, promoted {age}{})",
                p.name,
                p.trigger,
                p.action,
                p.confidence,
                p.projects,
                if accepted {
                    String::new()
                } else {
                    format!("; not accepted: `baton bridge global accept {}`", p.id())
                }
            );
            (line, accepted)
        })
        // An accepted record is the one the user accepted (its digest is recorded), and
        // accepting scans it: only pending ones are scanned here, so a session start with
        // accepted instincts alone compiles no rules.
        .filter(|(l, accepted)| *accepted || clean(l, red))
        .take(5)
        .collect();
    lines.sort_by_key(|(_, accepted)| !*accepted);
    lines
}

/// Whether a line passes the integrity scan without any finding.
fn clean(line: &str, red: &Redactor) -> bool {
    integrity::scan_text("global.jsonl", line, red)
        .iter()
        .all(|f| f.severity == Status::Clean)
}

/// `baton bridge global list`: every promoted instinct with its id and whether it is
/// accepted.
pub(crate) fn list(dir: &Path, ledger: &Ledger) -> Vec<serde_json::Value> {
    read_global(dir)
        .iter()
        .map(|p| {
            serde_json::json!({
                "id": p.id(),
                "accepted": ledger.knows_digest(GLOBAL, &p.digest()),
                "name": p.name,
                "trigger": p.trigger,
                "action": p.action,
                "confidence": p.confidence,
                "projects": p.projects,
                "promoted": p.ts,
            })
        })
        .collect()
}

/// The promoted instinct whose id starts with `id` (6 digits or more, exactly one).
fn find(dir: &Path, id: &str) -> Result<Promoted> {
    let id = id.trim().to_ascii_lowercase();
    let hits: Vec<Promoted> = read_global(dir)
        .into_iter()
        .filter(|p| id.len() >= 6 && p.digest().starts_with(&id))
        .collect();
    let n = hits.len();
    let mut it = hits.into_iter();
    match (it.next(), n) {
        (Some(p), 1) => Ok(p),
        (None, _) => Err(Error::Invalid(format!(
            "global: no cross-project instinct has the id {id} (`baton bridge global list`)"
        ))),
        _ => Err(Error::Invalid(format!(
            "global: the id {id} names {n} instincts; give more digits"
        ))),
    }
}

/// `baton bridge global accept ID`: the promotion applies to every project from now on.
pub(crate) fn accept(
    dir: &Path,
    ledger: &Ledger,
    id: &str,
    red: &Redactor,
    now: DateTime<Utc>,
) -> Result<String> {
    let p = find(dir, id)?;
    let text = format!("{}\n{}\n{}", p.name, p.trigger, p.action);
    if !clean(&text, red) {
        return Err(Error::Invalid(format!(
            "global: `{}` does not pass the integrity scan (`baton bridge integrity` rules); remove it with `baton bridge global remove {}`",
            p.name,
            p.id()
        )));
    }
    ledger.record_digests(GLOBAL, &[p.digest()], "review", now)?;
    Ok(p.name)
}

/// `baton bridge global remove ID`: the instinct leaves the user-level store, and its
/// sightings with it, so it is proposed again only once seen in two projects anew.
pub(crate) fn remove(dir: &Path, id: &str) -> Result<String> {
    let p = find(dir, id)?;
    let _lock = fsx::MkdirLock::acquire(
        &dir.join(".global.lock"),
        std::time::Duration::from_secs(10),
        std::time::Duration::from_secs(60),
    )?;
    let k = key(&p.trigger, &p.action);
    rewrite_without(&dir.join(GLOBAL), |l| {
        serde_json::from_str::<Promoted>(l).is_ok_and(|q| q.digest() == p.digest())
    })?;
    rewrite_without(&dir.join(SIGHTINGS), |l| {
        serde_json::from_str::<Seen>(l).is_ok_and(|s| key(&s.trigger, &s.action) == k)
    })?;
    Ok(p.name)
}

/// Rewrites a JSON Lines file without the lines `drop` picks (atomically).
fn rewrite_without(path: &Path, drop: impl Fn(&str) -> bool) -> Result<()> {
    let Some(text) = store::read_opt(path)? else {
        return Ok(());
    };
    let mut kept = String::with_capacity(text.len());
    for l in text.lines().filter(|l| !drop(l)) {
        kept.push_str(l);
        kept.push('\n');
    }
    fsx::atomic_write(path, kept.as_bytes(), fsx::PRIVATE_FILE)
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
        record(t.path(), Path::new("/p/a"), &i, &red, now, None).unwrap();
        let barrier = std::sync::Barrier::new(8);
        let promoted: usize = std::thread::scope(|s| {
            let hs: Vec<_> = (0..8)
                .map(|k| {
                    let (i, red, barrier, dir) = (&i, &red, &barrier, t.path());
                    let root = format!("/p/b{k}");
                    s.spawn(move || {
                        barrier.wait();
                        record(dir, Path::new(&root), i, red, now, None)
                            .unwrap()
                            .len()
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
        assert!(record(t.path(), a, &i(0.9), &red, now, None)
            .unwrap()
            .is_empty());
        assert!(
            record(t.path(), a, &i(0.9), &red, now, None)
                .unwrap()
                .is_empty(),
            "same project twice"
        );
        assert!(
            record(t.path(), b, &i(0.5), &red, now, None)
                .unwrap()
                .is_empty(),
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
            None,
        )
        .unwrap();
        assert_eq!(p, vec!["fmt first"]);
        assert!(
            record(t.path(), Path::new("/p/c"), &i(0.9), &red, now, None)
                .unwrap()
                .is_empty(),
            "promoted once"
        );
        // Proposed, not accepted: shown as pending (unreviewed) until the user accepts it.
        let ledger = Ledger::at(&t.path().join("ledger"));
        let id = read_global(t.path())[0].id();
        let lines = for_load(t.path(), &ledger, "", &red, now);
        assert_eq!(
            lines,
            vec![(format!("- fmt first: when Before a commit → run the formatter. (0.9, 2 projects, promoted just now; not accepted: `baton bridge global accept {id}`)"), false)]
        );
        accept(t.path(), &ledger, &id[..7], &red, now).unwrap();
        let lines = for_load(t.path(), &ledger, "", &red, now);
        assert_eq!(
            lines,
            vec![("- fmt first: when Before a commit → run the formatter. (0.9, 2 projects, promoted just now)".to_string(), true)]
        );
        assert!(for_load(
            t.path(),
            &ledger,
            "**Action:** Run the formatter.",
            &red,
            now
        )
        .is_empty());
        assert_eq!(list(t.path(), &ledger)[0]["accepted"], true);
        remove(t.path(), &id).unwrap();
        assert!(read_global(t.path()).is_empty());
        // Its sightings went too: one more project does not bring it back.
        let again = record(t.path(), Path::new("/p/d"), &i(0.9), &red, now, None).unwrap();
        assert!(again.is_empty());
    }
}
