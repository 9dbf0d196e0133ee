//! `.boo/index.json`: one entry per session (id, task, status, start, end and, once the
//! session has ended, its figures), so L0 recall and the daily report read one file instead
//! of every trail. A missing or broken index is rebuilt from the run directories.
//!
//! Commands read it whole (`load`) and rewrite it (`update`: under the index lock, atomically
//! and synced). Hooks neither read nor rewrite it whole, which would grow with every session
//! ever recorded: they read its end (`recent`: the newest sessions and the unfinished ones)
//! and record their changes in a journal beside it (`record`); `index_file` has the layout.

use super::index_file;
use super::stats::Stats;
use super::store::{self, Store};
use super::trail;
use crate::core::error::Result;
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
pub(super) const VERSION: u32 = 2;

/// The whole index.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Index {
    #[serde(default)]
    pub(crate) version: u32,
    #[serde(default)]
    pub(crate) sessions: Vec<Entry>,
    /// The last journal change the index holds (`index_file`).
    #[serde(default)]
    pub(crate) seq: u64,
    /// The sessions in progress when it was written (`index_file`: read from its end).
    #[serde(default)]
    pub(crate) unfinished: Vec<String>,
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

/// Reads the index whole (for a command), with the changes hooks recorded since it was
/// written folded into it; rebuilds it when missing or unreadable (the problem is returned
/// too).
pub(crate) fn load(store: &Store) -> Result<(Index, Option<String>)> {
    let path = store.index_file();
    fsx::refuse_symlink(&path)?;
    // The journal before the index: see `index_file`.
    let journal = index_file::journal_after::<Entry>(store, 0)?;
    match fsx::read_limited(&path, fsx::Limit::STATE)? {
        Some(text) => match serde_json::from_str::<Index>(&text) {
            Ok(i) if i.version < VERSION => Ok((update(store, |_| Ok(()))?, None)),
            // A command folds what hooks recorded into the file, so it is current for any
            // other reader too.
            Ok(i) if journal.iter().any(|c| c.seq > i.seq) => {
                Ok((update(store, |_| Ok(()))?, None))
            }
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

/// What a hook reads of the index: the newest sessions (those in the index's last 8 KB, at
/// least eight) and every unfinished one, with the journal applied. It grows with the
/// sessions in progress, never with the history; an index laid out by an older version is
/// read whole once (and laid out anew by the next rewrite).
///
/// Read once per `Store` (one hook run): later calls get that read with the run's own
/// changes (`record_upsert`, `record_removal`) applied, and a rewrite drops it.
pub(crate) fn recent(store: &Store) -> Result<Index> {
    if let Some(index) = kept(store).as_deref() {
        return Ok(index.clone());
    }
    let index = read_recent(store)?;
    *store.recent.borrow_mut() = Some(Box::new(index.clone()));
    Ok(index)
}

/// What `recent` read this run (see `Store::recent`).
fn kept(store: &Store) -> Option<std::cell::RefMut<'_, Index>> {
    std::cell::RefMut::filter_map(store.recent.borrow_mut(), |kept| {
        kept.as_mut()?.downcast_mut::<Index>()
    })
    .ok()
}

/// `recent`, read from the files.
fn read_recent(store: &Store) -> Result<Index> {
    // The journal before the index: see `index_file`.
    let journal = index_file::read_journal(store)?;
    let end = index_file::read_end::<Entry>(store);
    let mut index = match end {
        Some(index_file::End::Tail {
            entries,
            seq,
            unfinished,
        }) => {
            let mut index = Index {
                version: VERSION,
                sessions: entries,
                seq,
                unfinished: Vec::new(),
            };
            // Sessions in progress older than the end read: from their session.json.
            for id in unfinished {
                if index.get(&id).is_none() {
                    if let Ok(meta) = store::read_meta(store, &id) {
                        index.sessions.push(Entry::from_meta(&meta));
                    }
                }
            }
            index
        }
        Some(index_file::End::Whole(text)) => match serde_json::from_str::<Index>(&text) {
            Ok(index) if index.version >= VERSION => index,
            _ => return load(store).map(|(i, _)| i),
        },
        // An index an older version laid out (or a broken one) is read whole once and
        // written anew, so the next hook reads its end.
        None if store.index_file().exists() => return update(store, |_| Ok(())),
        None => return load(store).map(|(i, _)| i),
    };
    let changes = index_file::last_changes(&journal, index.seq);
    apply(&mut index, changes);
    sort(&mut index);
    Ok(index)
}

/// Applies the journal's changes the index does not hold yet.
fn apply(index: &mut Index, journal: Vec<index_file::Line<Entry>>) {
    let held = index.seq;
    for line in journal.into_iter().filter(|l| l.seq > held) {
        if let Some(id) = &line.remove {
            index.sessions.retain(|e| &e.id != id);
        }
        if let Some(entry) = line.upsert {
            upsert(index, entry);
        }
        index.seq = index.seq.max(line.seq);
    }
}

/// Folds what hooks recorded in the journal into index.json (a command's last step, so the
/// file is current for anything else that reads it).
pub(crate) fn fold(store: &Store) -> Result<()> {
    if index_file::journal_after::<Entry>(store, 0)?.is_empty() {
        return Ok(());
    }
    update(store, |_| Ok(())).map(|_| ())
}

/// Records in the journal that session `entry.id` is now `entry` (a hook's `update`).
pub(crate) fn record_upsert(store: &Store, entry: Entry) -> Result<()> {
    record(store, Some(entry), None)
}

/// Records in the journal that session `id` is gone from the index.
pub(crate) fn record_removal(store: &Store, id: &str) -> Result<()> {
    record(store, None, Some(id.to_string()))
}

/// Appends a change to the journal under the index lock (one synced append), and folds the
/// journal into the index once it is past `index_file::JOURNAL_MAX`: what a hook does instead
/// of `update`.
fn record(store: &Store, upsert: Option<Entry>, remove: Option<String>) -> Result<()> {
    store.ensure()?;
    let _lock = store.index_lock()?;
    let line = index_file::Line {
        seq: 0,
        upsert,
        remove,
    };
    let (seq, size) = index_file::append(store, line.clone())?;
    if let Some(mut index) = kept(store) {
        apply(&mut index, vec![index_file::Line { seq, ..line }]);
        sort(&mut index);
    }
    // The change is recorded; folding the journal in is housekeeping the next fold redoes.
    if size > index_file::JOURNAL_MAX {
        let _ = rewrite(store, |_| Ok(()));
    }
    Ok(())
}

/// Changes the index under its lock, with the journal folded in, and writes it atomically
/// and synced (DESIGN: rewrites are fsynced): after a power loss, an index left at its old
/// version would leave the interrupted session out of `/recover`'s list of recent sessions.
pub(crate) fn update(
    store: &Store,
    change: impl FnOnce(&mut Index) -> Result<()>,
) -> Result<Index> {
    store.ensure()?;
    let _lock = store.index_lock()?;
    rewrite(store, change)
}

/// `update` with the lock held.
fn rewrite(store: &Store, change: impl FnOnce(&mut Index) -> Result<()>) -> Result<Index> {
    store.recent.borrow_mut().take();
    let path = store.index_file();
    let journal = index_file::journal_after::<Entry>(store, 0)?;
    let read = fsx::read_limited(&path, fsx::Limit::STATE)
        .ok()
        .flatten()
        .and_then(|t| serde_json::from_str::<Index>(&t).ok());
    let mut index = match read {
        Some(mut index) => {
            if index.version < VERSION {
                upgrade(store, &mut index);
            }
            apply(&mut index, journal);
            index
        }
        // The run directories are what the journal recorded changes of.
        None => Index {
            seq: journal.last().map_or(0, |l| l.seq),
            ..rebuild(store)
        },
    };
    index.version = VERSION;
    change(&mut index)?;
    sort(&mut index);
    let unfinished: Vec<&str> = index
        .sessions
        .iter()
        .filter(|e| e.status == "in_progress")
        .map(|e| e.id.as_str())
        .collect();
    let text = index_file::render(index.version, &index.sessions, index.seq, &unfinished)?;
    fsx::atomic_write(&path, text.as_bytes(), store.file_mode())?;
    index_file::clear_journal(store);
    index.unfinished.clear();
    Ok(index)
}

/// Entries in start order (ties by id).
fn sort(index: &mut Index) {
    index
        .sessions
        .sort_by(|a, b| a.start.cmp(&b.start).then_with(|| a.id.cmp(&b.id)));
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
        ..Index::default()
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

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn store(t: &std::path::Path) -> Store {
        let s = Store {
            root: t.to_path_buf(),
            dir: t.join(".boo"),
            shared: false,
            recent: std::cell::RefCell::default(),
        };
        s.ensure().unwrap();
        s
    }

    fn entry(n: u32, status: &str) -> Entry {
        Entry {
            id: format!("adhoc_20261130_{n:04}"),
            task: "t".into(),
            status: status.into(),
            start: Utc
                .timestamp_opt(1_700_000_000 + i64::from(n) * 60, 0)
                .unwrap(),
            end: None,
            integrity: Vec::new(),
            integrity_unknown: false,
            stats: None,
        }
    }

    fn ids(i: &Index) -> Vec<String> {
        i.sessions.iter().map(|e| e.id.clone()).collect()
    }

    fn journal(s: &Store) -> String {
        std::fs::read_to_string(index_file::journal_file(s)).unwrap_or_default()
    }

    /// An index of `n` completed sessions written as `update` writes it.
    fn big(s: &Store, n: u32) {
        update(s, |i| {
            i.sessions = (0..n).map(|k| entry(k, "completed")).collect();
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn hooks_record_changes_that_readers_see_and_a_command_folds_in() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        big(&s, 2000);
        let written = std::fs::read(s.index_file()).unwrap();
        record_upsert(&s, entry(5000, "in_progress")).unwrap();
        record_upsert(&s, entry(5001, "in_progress")).unwrap();
        record_removal(&s, &entry(5001, "").id).unwrap();
        let mut done = entry(5000, "completed");
        done.end = Some(done.start);
        record_upsert(&s, done.clone()).unwrap();
        assert_eq!(
            std::fs::read(s.index_file()).unwrap(),
            written,
            "hooks do not rewrite it"
        );
        assert_eq!(journal(&s).lines().count(), 4);

        let r = recent(&s).unwrap();
        assert!(r.sessions.len() < 500, "{}", r.sessions.len());
        assert_eq!(r.last(2)[0].id, entry(1999, "").id);
        assert_eq!(r.last(1)[0], done);
        assert_eq!(r.seq, 4);

        let (whole, _) = load(&s).unwrap();
        assert_eq!(whole.sessions.len(), 2001);
        assert_eq!(whole.get(&done.id), Some(&done));
        assert_eq!(
            journal(&s),
            "",
            "a command folds the journal into index.json"
        );
        let on_disk: Index =
            serde_json::from_str(&std::fs::read_to_string(s.index_file()).unwrap()).unwrap();
        assert_eq!(on_disk.sessions.len(), 2001);
        assert_eq!(on_disk.seq, 4);
        // Numbering goes on from the index.
        record_removal(&s, &done.id).unwrap();
        assert!(journal(&s).starts_with("{\"seq\":5,"), "{}", journal(&s));
        assert!(recent(&s).unwrap().get(&done.id).is_none());
    }

    #[test]
    fn a_run_reads_the_index_once_and_sees_its_own_changes() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        big(&s, 20);
        assert_eq!(recent(&s).unwrap().last(1)[0].id, entry(19, "").id);
        // Another process's change after the read: this run keeps what it read ...
        let other = store(t.path());
        record_upsert(&other, entry(30, "in_progress")).unwrap();
        assert!(recent(&s).unwrap().get(&entry(30, "").id).is_none());
        // ... with its own changes applied, in start order.
        record_upsert(&s, entry(25, "in_progress")).unwrap();
        record_removal(&s, &entry(19, "").id).unwrap();
        let r = recent(&s).unwrap();
        assert_eq!(r.last(2)[1].id, entry(25, "").id);
        assert_eq!(r.last(2)[0].id, entry(18, "").id);
        assert_eq!(r.seq, 3);
        // A rewrite drops what was read: the next read sees every change.
        update(&s, |_| Ok(())).unwrap();
        let ids = ids(&recent(&s).unwrap());
        assert_eq!(ids[ids.len() - 2..], [entry(25, "").id, entry(30, "").id]);
        assert_eq!(recent(&store(t.path())).unwrap(), recent(&s).unwrap());
    }

    #[test]
    fn changes_the_index_holds_are_not_applied_again() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        record_upsert(&s, entry(1, "in_progress")).unwrap();
        let stale = journal(&s);
        let mut done = entry(1, "completed");
        done.end = Some(done.start);
        update(&s, |i| {
            upsert(i, done.clone());
            Ok(())
        })
        .unwrap();
        // A crash kept the journal the rewrite emptied: its change is older than the index.
        std::fs::write(index_file::journal_file(&s), &stale).unwrap();
        assert_eq!(recent(&s).unwrap().get(&done.id), Some(&done));
        assert_eq!(load(&s).unwrap().0.get(&done.id), Some(&done));
        record_upsert(&s, entry(2, "in_progress")).unwrap();
        assert!(journal(&s).ends_with("{\"seq\":2,\"upsert\":{\"id\":\"adhoc_20261130_0002\",\"task\":\"t\",\"status\":\"in_progress\",\"start\":\"2023-11-14T22:15:20Z\"}}\n"), "{}", journal(&s));
    }

    #[test]
    fn an_unfinished_session_older_than_the_end_read_is_still_recent() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        let old = store::SessionMeta::new("adhoc_20261130_0003", "named", entry(3, "").start);
        std::fs::create_dir_all(s.runs().join(&old.session_id)).unwrap();
        store::write_meta(&s, &old).unwrap();
        update(&s, |i| {
            i.sessions = (0..2000).map(|k| entry(k, "completed")).collect();
            i.sessions[3] = Entry::from_meta(&old);
            Ok(())
        })
        .unwrap();
        let r = recent(&s).unwrap();
        assert!(r.sessions.len() < 500);
        assert_eq!(
            r.get(&old.session_id).map(|e| e.status.as_str()),
            Some("in_progress")
        );
        assert_eq!(
            r.sessions.first().map(|e| e.id.as_str()),
            Some(old.session_id.as_str())
        );
    }

    #[test]
    fn an_index_laid_out_by_an_older_version_is_laid_out_anew_once() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        let old = Index {
            version: VERSION,
            sessions: (0..2000).map(|k| entry(k, "completed")).collect(),
            ..Index::default()
        };
        std::fs::write(s.index_file(), serde_json::to_string_pretty(&old).unwrap()).unwrap();
        let r = recent(&s).unwrap();
        assert_eq!(r.sessions.len(), 2000, "read whole the first time");
        let text = std::fs::read_to_string(s.index_file()).unwrap();
        assert!(
            text.starts_with("{\"version\":2,\"sessions\":[\n{\"id\":"),
            "{}",
            &text[..80]
        );
        assert!(text.ends_with("\n],\"seq\":0,\"unfinished\":[]}\n"));
        // The next hook (another run: its own store) reads the end.
        assert!(recent(&store(t.path())).unwrap().sessions.len() < 500);
    }

    #[test]
    fn a_journal_past_its_limit_is_folded_by_the_hook_that_passes_it() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        update(&s, |_| Ok(())).unwrap();
        let mut n = 0;
        let mut largest = 0;
        loop {
            record_upsert(&s, entry(n, "in_progress")).unwrap();
            n += 1;
            let size = std::fs::metadata(index_file::journal_file(&s))
                .unwrap()
                .len();
            if size == 0 {
                break;
            }
            largest = size;
            assert!(n < 10_000);
        }
        assert!(largest > index_file::JOURNAL_MAX - 1024, "{largest}");
        let on_disk: Index =
            serde_json::from_str(&std::fs::read_to_string(s.index_file()).unwrap()).unwrap();
        assert_eq!(on_disk.sessions.len(), n as usize);
        assert_eq!(on_disk.unfinished.len(), n as usize);
    }

    /// Many sessions in progress make the closing line longer than the window read first:
    /// the numbering still goes on from the index's, and the change is seen.
    #[test]
    fn a_long_closing_line_does_not_restart_the_numbering() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        update(&s, |i| {
            i.sessions = (0..300).map(|k| entry(k, "in_progress")).collect();
            i.seq = 50;
            Ok(())
        })
        .unwrap();
        let text = std::fs::read_to_string(s.index_file()).unwrap();
        assert!(text.lines().last().unwrap().len() > 5000);
        record_upsert(&s, entry(9000, "completed")).unwrap();
        assert!(journal(&s).starts_with("{\"seq\":51,"), "{}", journal(&s));
        assert!(recent(&s).unwrap().get(&entry(9000, "").id).is_some());
        assert!(load(&s).unwrap().0.get(&entry(9000, "").id).is_some());
    }

    /// A journal line a failed write left without its end does not swallow the next one.
    #[test]
    fn a_torn_journal_line_does_not_swallow_the_next_change() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        update(&s, |_| Ok(())).unwrap();
        record_upsert(&s, entry(1, "in_progress")).unwrap();
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(index_file::journal_file(&s))
            .unwrap();
        std::io::Write::write_all(&mut f, b"{\"seq\":2,\"upsert\":{\"id\":\"adh").unwrap();
        record_upsert(&s, entry(3, "in_progress")).unwrap();
        let r = recent(&s).unwrap();
        assert_eq!(ids(&r), [entry(1, "").id, entry(3, "").id]);
    }

    /// A newest session with large figures (it changed many files) is still read, with the
    /// sessions before it.
    #[test]
    fn a_large_newest_entry_is_read_with_the_ones_before_it() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        let mut big_one = entry(500, "completed");
        let mut stats = Stats::default();
        for k in 0..300 {
            stats.files.insert(format!("src/module_{k}/file_{k}.rs"), 1);
        }
        big_one.stats = Some(stats);
        update(&s, |i| {
            i.sessions = (0..500).map(|k| entry(k, "completed")).collect();
            i.sessions.push(big_one.clone());
            Ok(())
        })
        .unwrap();
        assert!(
            std::fs::read_to_string(s.index_file())
                .unwrap()
                .lines()
                .nth_back(1)
                .unwrap()
                .len()
                > 8192
        );
        let r = recent(&s).unwrap();
        assert_eq!(r.last(1)[0], big_one);
        assert_eq!(r.last(5).len(), 5);
        assert!(r.sessions.len() < 500, "{}", r.sessions.len());
    }

    #[test]
    fn changes_recorded_at_once_from_threads_are_all_kept_in_order() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        update(&s, |_| Ok(())).unwrap();
        std::thread::scope(|scope| {
            for th in 0..8 {
                let s = s.clone();
                scope.spawn(move || {
                    for k in 0..25 {
                        record_upsert(&s, entry(th * 100 + k, "in_progress")).unwrap();
                    }
                });
            }
        });
        let seqs: Vec<u64> = journal(&s)
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["seq"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        let folded = load(&s).unwrap().0;
        assert_eq!(folded.sessions.len(), 200);
        if !seqs.is_empty() {
            assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{seqs:?}");
        }
        assert_eq!(folded.seq, 200);
        assert_eq!(ids(&folded).len(), 200);
    }
}
