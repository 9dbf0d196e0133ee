//! Cross-project promotion. A project's instinct or learning saved at confidence ≥ 0.8 is
//! noted as a sighting in the user-level store; when the same one (an instinct's
//! trigger+action, a learning's type+key+insight; case and spacing ignored) has been seen in
//! two or more projects it is proposed in `$XDG_DATA_HOME/baton/global.jsonl` (default
//! `~/.local/share/baton/`). A proposal is *pending* until the user accepts it (`baton
//! bridge global accept ID`, or `bridge.auto_promote: true`); load shows accepted ones as
//! memory and pending ones as unreviewed data. Acceptance is provenance: the digest of the
//! record's content is recorded in the user's provenance ledger (`provenance/global/`), so a
//! record edited afterwards, or written by another tool, is unreviewed again. Projects are
//! named by a hash of their root, not their path; everything written passes the redactor.
//! Sightings come only from baton's own saves, so nothing unreviewed is ever promoted.

use super::provenance::{self, Ledger};
use super::store;
use crate::core::ctx::Env;
use crate::core::error::{Error, Result};
use crate::core::hash::fnv1a;
use crate::core::redact::Redactor;
use crate::core::scan::{scan_text, Status};
use crate::core::text::one_line;
use crate::core::{fsx, jsonl, paths, time};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Confidence at which an instinct or a learning counts toward promotion.
pub(crate) const PROMOTE_AT: f64 = 0.8;
/// Distinct projects needed.
pub(crate) const PROJECTS_NEEDED: usize = 2;
/// The sightings of both kinds (named for the instincts it held first).
const SIGHTINGS: &str = "instinct-sightings.jsonl";
const GLOBAL: &str = "global.jsonl";
const INSTINCT: &str = "instinct";
const LEARNING: &str = "learning";

/// The user-level store's folder (`$XDG_DATA_HOME/baton`); `None` without a home.
pub(crate) fn location(env: &Env) -> Option<PathBuf> {
    paths::data_dir(env)
}

fn instinct_kind() -> String {
    INSTINCT.into()
}

fn is_instinct(kind: &str) -> bool {
    kind == INSTINCT
}

/// What a save offers for promotion: one instinct or one learning.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Candidate {
    Instinct {
        name: String,
        trigger: String,
        action: String,
        confidence: f64,
    },
    Learning {
        /// decision, error, insight, convention or performance.
        kind: String,
        key: String,
        insight: String,
        confidence: f64,
    },
}

/// One sighting as the store keeps it. A learning's key is its `name`, its type
/// `learning_type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Seen {
    pub(crate) ts: String,
    pub(crate) project: String,
    #[serde(
        rename = "type",
        default = "instinct_kind",
        skip_serializing_if = "is_instinct"
    )]
    pub(crate) kind: String,
    pub(crate) name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) trigger: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) action: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) learning_type: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) insight: String,
    pub(crate) confidence: f64,
}

/// A promoted instinct or learning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Promoted {
    pub(crate) ts: String,
    /// `instinct` or `learning`.
    #[serde(rename = "type")]
    pub(crate) kind: String,
    /// An instinct's name, a learning's key.
    pub(crate) name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) trigger: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) action: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) learning_type: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) insight: String,
    pub(crate) confidence: f64,
    pub(crate) projects: usize,
    pub(crate) tags: Vec<String>,
    /// The projects (hashes of their roots) it was seen in: its origin.
    #[serde(default)]
    pub(crate) from: Vec<String>,
}

impl Promoted {
    /// Its digest: what it says and its confidence, as promoted (an instinct's as before
    /// learnings were promoted too, so accepted ones stay accepted).
    pub(crate) fn digest(&self) -> String {
        let text = if self.kind == LEARNING {
            format!(
                "learning\n{}\n{}\n{}\n{:.2}",
                self.learning_type, self.name, self.insight, self.confidence
            )
        } else {
            format!(
                "{}\n{}\n{}\n{:.2}",
                self.name, self.trigger, self.action, self.confidence
            )
        };
        provenance::digest(GLOBAL, &text)
    }

    /// The id `list`, `accept` and `remove` take: the digest's first 10 hex digits.
    pub(crate) fn id(&self) -> String {
        self.digest().chars().take(10).collect()
    }

    /// What it says, in one line: `when T → A` for an instinct, `[type] insight` for a
    /// learning.
    pub(crate) fn says(&self) -> String {
        if self.kind == LEARNING {
            format!("[{}] {}", self.learning_type, self.insight)
        } else {
            format!("when {} → {}", self.trigger, self.action)
        }
    }

    fn identity(&self) -> String {
        identity(
            &self.kind,
            &[&self.trigger, &self.action],
            &[&self.learning_type, &self.name, &self.insight],
        )
    }
}

/// The user's ledger of accepted promotions.
pub(crate) fn ledger(env: &Env) -> Ledger {
    Ledger::user(env, "global")
}

/// The identity of a sighting or promotion: an instinct's trigger and action, a learning's
/// type, key and insight; case and spacing ignored.
fn identity(kind: &str, instinct: &[&str; 2], learning: &[&str; 3]) -> String {
    let norm = |s: &&str| {
        one_line(s)
            .to_lowercase()
            .trim_end_matches(['.', '!', ';'])
            .to_string()
    };
    let parts: Vec<String> = if kind == LEARNING {
        std::iter::once(LEARNING.to_string())
            .chain(learning.iter().map(norm))
            .collect()
    } else {
        instinct.iter().map(norm).collect()
    };
    parts.join("\u{1}")
}

impl Seen {
    fn of(c: &Candidate, ts: &str, project: &str, red: &Redactor) -> Seen {
        let clean = |s: &str| red.redact(&one_line(s)).text;
        let mut seen = Seen {
            ts: ts.to_string(),
            project: project.to_string(),
            kind: INSTINCT.into(),
            name: String::new(),
            trigger: String::new(),
            action: String::new(),
            learning_type: String::new(),
            insight: String::new(),
            confidence: 0.0,
        };
        match c {
            Candidate::Instinct {
                name,
                trigger,
                action,
                confidence,
            } => {
                seen.name = clean(name);
                seen.trigger = clean(trigger);
                seen.action = clean(action);
                seen.confidence = *confidence;
            }
            Candidate::Learning {
                kind,
                key,
                insight,
                confidence,
            } => {
                seen.kind = LEARNING.into();
                seen.name = clean(key);
                seen.learning_type = clean(kind);
                seen.insight = clean(insight);
                seen.confidence = *confidence;
            }
        }
        seen
    }

    fn identity(&self) -> String {
        identity(
            &self.kind,
            &[&self.trigger, &self.action],
            &[&self.learning_type, &self.name, &self.insight],
        )
    }

    fn promoted(self, ts: &str, projects: BTreeSet<String>) -> Promoted {
        let kind_tag = if self.kind == LEARNING {
            self.learning_type.clone()
        } else {
            String::new()
        };
        let mut tags = vec!["cross-project".to_string(), self.kind.clone()];
        tags.extend(Some(kind_tag).filter(|t| !t.is_empty()));
        Promoted {
            ts: ts.to_string(),
            kind: self.kind,
            name: self.name,
            trigger: self.trigger,
            action: self.action,
            learning_type: self.learning_type,
            insight: self.insight,
            confidence: self.confidence,
            projects: projects.len(),
            tags,
            from: projects.into_iter().collect(),
        }
    }
}

fn confidence(c: &Candidate) -> f64 {
    match c {
        Candidate::Instinct { confidence, .. } | Candidate::Learning { confidence, .. } => {
            *confidence
        }
    }
}

/// Notes the strong instincts and learnings of `root` and proposes those seen in enough
/// projects (accepted at once when `accept` holds: `bridge.auto_promote`, recorded in
/// `ledger`). Returns the names (a learning's key) proposed now.
pub(crate) fn record(
    dir: &Path,
    root: &Path,
    candidates: &[Candidate],
    red: &Redactor,
    now: DateTime<Utc>,
    accept: Option<&Ledger>,
) -> Result<Vec<String>> {
    let strong: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| confidence(c) >= PROMOTE_AT)
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
    for c in strong {
        jsonl::append(
            &sightings,
            &Seen::of(c, &ts, &project, red),
            fsx::PRIVATE_FILE,
        )?;
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
            .entry(s.identity())
            .or_insert_with(|| (BTreeSet::new(), s.clone()));
        entry.0.insert(s.project.clone());
        if s.confidence > entry.1.confidence {
            entry.1 = s;
        }
    }
    let global = dir.join(GLOBAL);
    let already: BTreeSet<String> = read_global(dir).iter().map(Promoted::identity).collect();
    let mut promoted = Vec::new();
    for (k, (projects, best)) in by_key {
        if projects.len() < PROJECTS_NEEDED || already.contains(&k) {
            continue;
        }
        let name = best.name.clone();
        let p = best.promoted(&ts, projects);
        jsonl::append(&global, &p, fsx::PRIVATE_FILE)?;
        if let Some(l) = accept {
            l.record_digests(GLOBAL, &[p.digest()], "auto_promote", now)?;
        }
        promoted.push(name);
    }
    Ok(promoted)
}

/// Offers `candidates` of `project` for promotion in the store `dir`: proposed for every
/// project, applied to them only once the user accepts (unless `bridge.auto_promote`).
/// Returns the names proposed now; a failure is no one's concern but the store's (a save
/// or a learning does not fail for it).
pub(crate) fn propose(
    project: &crate::core::project::Project,
    dir: &Path,
    candidates: &[Candidate],
) -> Vec<String> {
    let ledger = ledger(&project.ctx.env);
    let accept = project.config().bridge.auto_promote.then_some(&ledger);
    record(
        dir,
        &project.root,
        candidates,
        project.redactor(),
        project.now(),
        accept,
    )
    .unwrap_or_default()
}

/// The promoted instincts and learnings (unreadable lines skipped).
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
    lines_for_load(dir, ledger, red, now, |p| {
        p.kind == INSTINCT && !local.contains(&one_line(&p.action).to_lowercase())
    })
}

/// Lines for load: the promoted learnings whose key+type this project does not hold
/// (`has`), as `for_load` orders and screens them.
pub(crate) fn learnings_for_load(
    dir: &Path,
    ledger: &Ledger,
    has: impl Fn(&str, &str) -> bool,
    red: &Redactor,
    now: DateTime<Utc>,
) -> Vec<(String, bool)> {
    lines_for_load(dir, ledger, red, now, |p| {
        p.kind == LEARNING && !has(&p.learning_type, &p.name)
    })
}

fn lines_for_load(
    dir: &Path,
    ledger: &Ledger,
    red: &Redactor,
    now: DateTime<Utc>,
    wanted: impl Fn(&Promoted) -> bool,
) -> Vec<(String, bool)> {
    let mut all: Vec<Promoted> = read_global(dir).into_iter().filter(|p| wanted(p)).collect();
    all.sort_by(|a, b| {
        b.confidence
            .partial_cmp(&a.confidence)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut lines: Vec<(String, bool)> = all
        .into_iter()
        .map(|p| {
            let age = time::parse(&p.ts)
                .map_or_else(|| "undated".to_string(), |t| crate::core::time::age(t, now));
            let accepted = ledger.knows_digest(GLOBAL, &p.digest());
            let says = if p.kind == LEARNING {
                format!("{} {}", p.name, p.says())
            } else {
                format!("{}: {}", p.name, p.says())
            };
            let line = format!(
                "- {says} ({:.1}, {} projects, promoted {age}{})",
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
        // accepted ones alone compiles no rules.
        .filter(|(l, accepted)| *accepted || clean(l, red))
        .take(5)
        .collect();
    lines.sort_by_key(|(_, accepted)| !*accepted);
    lines
}

/// Whether a line passes the integrity scan without any finding.
fn clean(line: &str, red: &Redactor) -> bool {
    scan_text("global.jsonl", line, red)
        .iter()
        .all(|f| f.severity == Status::Clean)
}

/// `baton bridge global list`: every promoted instinct and learning with its id and whether
/// it is accepted.
pub(crate) fn list(dir: &Path, ledger: &Ledger) -> Vec<serde_json::Value> {
    read_global(dir)
        .iter()
        .map(|p| {
            let mut v = serde_json::json!({
                "id": p.id(),
                "type": p.kind,
                "accepted": ledger.knows_digest(GLOBAL, &p.digest()),
                "name": p.name,
                "says": p.says(),
                "confidence": p.confidence,
                "projects": p.projects,
                "promoted": p.ts,
            });
            let extra = if p.kind == LEARNING {
                serde_json::json!({"learning_type": p.learning_type, "insight": p.insight})
            } else {
                serde_json::json!({"trigger": p.trigger, "action": p.action})
            };
            if let (Some(m), Some(x)) = (v.as_object_mut(), extra.as_object()) {
                m.extend(x.clone());
            }
            v
        })
        .collect()
}

/// The promoted record whose id starts with `id` (6 digits or more, exactly one).
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
            "global: nothing cross-project has the id {id} (`baton bridge global list`)"
        ))),
        _ => Err(Error::Invalid(format!(
            "global: the id {id} names {n} records; give more digits"
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
    let text = format!("{}\n{}", p.name, p.says());
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

/// `baton bridge global remove ID`: the record leaves the user-level store, and its
/// sightings with it, so it is proposed again only once seen in two projects anew.
pub(crate) fn remove(dir: &Path, id: &str) -> Result<String> {
    let p = find(dir, id)?;
    let _lock = fsx::MkdirLock::acquire(
        &dir.join(".global.lock"),
        std::time::Duration::from_secs(10),
        std::time::Duration::from_secs(60),
    )?;
    let k = p.identity();
    rewrite_without(&dir.join(GLOBAL), |l| {
        serde_json::from_str::<Promoted>(l).is_ok_and(|q| q.digest() == p.digest())
    })?;
    rewrite_without(&dir.join(SIGHTINGS), |l| {
        serde_json::from_str::<Seen>(l).is_ok_and(|s| s.identity() == k)
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

    fn instinct(name: &str, trigger: &str, action: &str, confidence: f64) -> Candidate {
        Candidate::Instinct {
            name: name.into(),
            trigger: trigger.into(),
            action: action.into(),
            confidence,
        }
    }

    fn learning(kind: &str, key: &str, insight: &str, confidence: f64) -> Candidate {
        Candidate::Learning {
            kind: kind.into(),
            key: key.into(),
            insight: insight.into(),
            confidence,
        }
    }

    #[test]
    fn a_learning_seen_in_two_projects_is_proposed_then_accepted() {
        let t = tempfile::tempdir().unwrap();
        let now = DateTime::parse_from_rfc3339("2026-11-30T10:15:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let red = Redactor::builtin();
        let insight = "Renaming a file others append to loses their writes.";
        let l = |c: f64| vec![learning("error", "rename-loses-appends", insight, c)];
        let (a, b) = (Path::new("/p/a"), Path::new("/p/b"));
        assert!(record(t.path(), a, &l(0.9), &red, now, None)
            .unwrap()
            .is_empty());
        assert!(
            record(t.path(), b, &l(0.6), &red, now, None)
                .unwrap()
                .is_empty(),
            "too weak"
        );
        assert!(
            record(
                t.path(),
                b,
                &[learning("insight", "rename-loses-appends", insight, 0.9)],
                &red,
                now,
                None
            )
            .unwrap()
            .is_empty(),
            "another type is another learning"
        );
        let p = record(
            t.path(),
            b,
            &[learning(
                "error",
                "rename-loses-appends",
                "renaming a file others append to  loses their writes",
                0.8,
            )],
            &red,
            now,
            None,
        )
        .unwrap();
        assert_eq!(p, vec!["rename-loses-appends"]);
        let g = read_global(t.path());
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].tags, vec!["cross-project", "learning", "error"]);
        let ledger = Ledger::at(&t.path().join("ledger"));
        let none = |_: &str, _: &str| false;
        let pending = learnings_for_load(t.path(), &ledger, none, &red, now);
        assert_eq!(pending.len(), 1);
        assert!(
            !pending[0].1 && pending[0].0.contains("not accepted"),
            "{pending:?}"
        );
        assert!(
            for_load(t.path(), &ledger, "", &red, now).is_empty(),
            "a learning is not an instinct"
        );
        accept(t.path(), &ledger, &g[0].id(), &red, now).unwrap();
        let shown = learnings_for_load(t.path(), &ledger, none, &red, now);
        assert_eq!(
            shown,
            vec![(
                format!(
                    "- rename-loses-appends [error] {insight} (0.9, 2 projects, promoted just now)"
                ),
                true
            )]
        );
        let here = |k: &str, key: &str| k == "error" && key == "rename-loses-appends";
        assert!(learnings_for_load(t.path(), &ledger, here, &red, now).is_empty());
        assert_eq!(list(t.path(), &ledger)[0]["type"], "learning");
        remove(t.path(), &g[0].id()).unwrap();
        assert!(read_global(t.path()).is_empty());
    }

    #[test]
    fn concurrent_saves_promote_once() {
        let t = tempfile::tempdir().unwrap();
        let now = DateTime::parse_from_rfc3339("2026-11-30T10:15:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let red = Redactor::builtin();
        let i = vec![instinct(
            "fmt first",
            "Before a commit",
            "run the formatter.",
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
            vec![instinct(
                "fmt first",
                "Before a commit",
                "run the formatter.",
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
            &[instinct("x", "before a  commit", "Run the formatter", 0.8)],
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
