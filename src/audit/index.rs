//! `.boo/index.json`: one entry per session (id, task, status, start, end and, once the
//! session has ended, its figures), so L0 recall and the daily report read one small file
//! instead of every trail. Updated under a lock and written atomically; a missing or broken
//! index is rebuilt from the run directories.

use super::stats::Stats;
use super::store::{self, Store};
use super::trail;
use crate::core::error::{Error, Result};
use crate::core::fsx;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One session in the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Entry {
    pub(crate) id: String,
    pub(crate) task: String,
    pub(crate) status: String,
    /// As in session.json: whole seconds.
    pub(crate) start: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) end: Option<DateTime<Utc>>,
    /// Problems the integrity check found at the end (empty: passed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) integrity: Vec<String>,
    /// The session ended but its integrity results are not known (an index rebuilt from a
    /// session.json that does not carry them): reports say "unknown", never "ok".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) integrity_unknown: bool,
    /// Figures; present once the session has ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) stats: Option<Stats>,
}

/// The index format: 2 added figures per day (`Stats.by_day`).
const VERSION: u32 = 2;

/// The whole index.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Index {
    #[serde(default)]
    pub(crate) version: u32,
    #[serde(default)]
    pub(crate) sessions: Vec<Entry>,
}

impl Index {
    /// The entry of `id`.
    pub(crate) fn get(&self, id: &str) -> Option<&Entry> {
        self.sessions.iter().find(|e| e.id == id)
    }

    /// The last `n` sessions by start time, newest last.
    pub(crate) fn last(&self, n: usize) -> &[Entry] {
        &self.sessions[self.sessions.len().saturating_sub(n)..]
    }
}

impl Entry {
    /// Whether the hooks started it and nobody named it (its task is still `(auto)`). Such a
    /// session ends with its Claude session: it is never unfinished work.
    pub(crate) fn is_auto(&self) -> bool {
        self.task == store::AUTO_TASK
    }

    /// Whether the session ended with its integrity checks known to have passed.
    pub(crate) fn integrity_passed(&self) -> bool {
        !self.integrity_unknown && self.integrity.is_empty()
    }

    /// The entry of a session as its session.json describes it (no figures).
    pub(crate) fn from_meta(meta: &store::SessionMeta) -> Entry {
        Entry {
            id: meta.session_id.clone(),
            task: meta.task.clone(),
            status: meta.status.clone(),
            start: meta.start_time,
            end: meta.end_time,
            integrity: meta.integrity.clone().unwrap_or_default(),
            integrity_unknown: meta.status == "completed" && meta.integrity.is_none(),
            stats: None,
        }
    }
}

/// Reads the index; rebuilds it when missing or unreadable (the problem is returned too).
pub(crate) fn load(store: &Store) -> Result<(Index, Option<String>)> {
    let path = store.index_file();
    fsx::refuse_symlink(&path)?;
    match fsx::read_limited(&path, fsx::Limit::STATE)? {
        Some(text) => match serde_json::from_str::<Index>(&text) {
            Ok(i) if i.version < VERSION => Ok((update(store, |_| Ok(()))?, None)),
            Ok(i) => Ok((i, None)),
            Err(e) => {
                let why = format!(
                    "{} is not valid ({e}); rebuilt it from the run directories",
                    path.display()
                );
                let i = update(store, |_| Ok(()))?;
                Ok((i, Some(why)))
            }
        },
        None => {
            if store.runs().exists() {
                Ok((update(store, |_| Ok(()))?, None))
            } else {
                Ok((Index::default(), None))
            }
        }
    }
}

/// Changes the index under its lock and writes it atomically and synced (DESIGN: rewrites
/// are fsynced): after a power loss, an index left at its old version would leave the
/// interrupted session out of `/recover`'s list of recent sessions.
pub(crate) fn update(
    store: &Store,
    change: impl FnOnce(&mut Index) -> Result<()>,
) -> Result<Index> {
    store.ensure()?;
    let _lock = fsx::FolderLock::acquire(&store.dir, super::store::LOCK_WAIT)?;
    let path = store.index_file();
    let mut index = fsx::read_limited(&path, fsx::Limit::STATE)
        .ok()
        .flatten()
        .and_then(|t| serde_json::from_str::<Index>(&t).ok())
        .unwrap_or_else(|| rebuild(store));
    if index.version < VERSION {
        upgrade(store, &mut index);
    }
    index.version = VERSION;
    change(&mut index)?;
    index
        .sessions
        .sort_by(|a, b| a.start.cmp(&b.start).then_with(|| a.id.cmp(&b.id)));
    let mut text = serde_json::to_string_pretty(&index)
        .map_err(|e| Error::Internal(format!("serialize index: {e}")))?;
    text.push('\n');
    fsx::atomic_write(&path, text.as_bytes(), store.file_mode())?;
    Ok(index)
}

/// Puts `entry` in place of the entry with its id (or adds it).
pub(crate) fn upsert(index: &mut Index, entry: Entry) {
    match index.sessions.iter_mut().find(|e| e.id == entry.id) {
        Some(slot) => *slot = entry,
        None => index.sessions.push(entry),
    }
}

/// An index built from the run directories: every readable session, with figures for the
/// ones that have ended.
pub(crate) fn rebuild(store: &Store) -> Index {
    let persisted = super::persist::load(store).unwrap_or_default();
    let mut sessions = Vec::new();
    for id in store.session_ids() {
        let Ok(meta) = store::read_meta(store, &id) else {
            continue;
        };
        let mut entry = Entry::from_meta(&meta);
        if meta.status != "in_progress" {
            if let Ok(dir) = store.run_dir(&id) {
                if let Ok(r) = trail::session_records(&dir, &id) {
                    entry.stats = Some(Stats::compute(&r.records, r.problems.len(), &persisted));
                }
            }
        }
        sessions.push(entry);
    }
    Index {
        version: VERSION,
        sessions,
    }
}

/// Recomputes the figures of ended sessions from their files (an older index kept no figures
/// per day); everything else in the entries stays.
fn upgrade(store: &Store, index: &mut Index) {
    let persisted = super::persist::load(store).unwrap_or_default();
    for e in &mut index.sessions {
        if e.stats.is_none() {
            continue;
        }
        if let Ok(r) = store
            .run_dir(&e.id)
            .and_then(|dir| trail::session_records(&dir, &e.id))
        {
            e.stats = Some(Stats::compute(&r.records, r.problems.len(), &persisted));
        }
    }
}

/// Figures of a session: from the index when it has them (with later persist marks
/// applied), else computed from its files.
pub(crate) fn stats_of(
    store: &Store,
    entry: &Entry,
    persisted: &HashMap<String, Vec<String>>,
) -> Result<(Stats, Vec<String>)> {
    if let Some(s) = &entry.stats {
        let mut s = s.clone();
        s.apply_persisted(persisted);
        return Ok((s, Vec::new()));
    }
    let dir = store.run_dir(&entry.id)?;
    let r = trail::session_records(&dir, &entry.id)?;
    Ok((
        Stats::compute(&r.records, r.problems.len(), persisted),
        r.problems,
    ))
}
