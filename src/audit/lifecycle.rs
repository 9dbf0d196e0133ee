//! Sessions coming into being and the buffer moving on: shared by the hooks and the CLI.

use super::index::{self, Entry};
use super::sidecar::{self, Caller, Fold};
use super::store::{self, SessionMeta, Store, BUFFER, PENDING};
use crate::core::error::{Error, Result};
use crate::core::git::GitState;
use crate::core::project::Project;

/// Whether a session begun here records git's HEAD and dirty paths, the baseline of the
/// integrity check at `end`. The tool-call hooks skip it: PostToolUse reads no git (and by
/// then the call has changed the tree); `end` derives the baseline of such a session from its
/// start time (`integrity::derive_baseline`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Baseline {
    ReadGit,
    Skip,
}

/// `git_baseline` of a session whose baseline was read when it began.
pub(crate) const BASELINE_AT_START: &str = "start";

/// Who begins a session: its task, `start` or `auto`, and the Claude Code session it begins
/// in (when known).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Origin<'a> {
    pub(crate) task: &'a str,
    pub(crate) started_by: &'a str,
    pub(crate) claude_session: Option<&'a str>,
}

impl<'a> Origin<'a> {
    /// An automatic session of Claude session `claude`.
    pub(crate) fn auto(claude: &'a str) -> Origin<'a> {
        Origin {
            task: store::AUTO_TASK,
            started_by: store::AUTO_STARTER,
            claude_session: Some(claude).filter(|c| !c.is_empty()),
        }
    }
}

/// Creates a session: a new id and run dir, `session.json`, an index entry, then
/// `.current_session`.
pub(crate) fn begin(
    store: &Store,
    project: &Project,
    origin: Origin<'_>,
    baseline: Baseline,
) -> Result<SessionMeta> {
    // Records a hook appended to a session after it ended (see `after_append`) and that no
    // one moved yet: into their trails before a new session begins. A command looks at every
    // session; a hook's automatic start at the recent ones.
    sweep_ended(store, origin.started_by != store::AUTO_STARTER);
    let now = project.now();
    let id = store::claim_new_id(store, now)?;
    let mut meta = SessionMeta::new(&id, origin.task, now);
    meta.started_by = Some(origin.started_by.to_string());
    meta.claude_session = origin.claude_session.map(str::to_string);
    if baseline == Baseline::ReadGit {
        if let Ok(GitState::Repo(r)) = project.git() {
            meta.git_head.clone_from(&r.head_sha);
            meta.git_dirty_at_start = r.status.iter().map(|l| porcelain_path(l)).collect();
            meta.git_baseline = Some(BASELINE_AT_START.into());
        }
    }
    // Durable first (the file, then its index line), the pointer to it last: see
    // `Store::set_pointer`.
    store::write_meta(store, &meta)?;
    index::record_upsert(store, Entry::from_meta(&meta))?;
    store.set_current(&id)?;
    Ok(meta)
}

/// The path of a porcelain line (`XY path`, `XY old -> new`).
pub(crate) fn porcelain_path(line: &str) -> String {
    let p = line.get(3..).unwrap_or("");
    p.rsplit(" -> ").next().unwrap_or(p).to_string()
}

/// The current session; with `audit.auto_start`, an automatic one of Claude session `claude`
/// is started when none is current (under a lock, so parallel hooks start one session, not
/// many).
pub(crate) fn current_or_start(
    store: &Store,
    project: &Project,
    baseline: Baseline,
    claude: &str,
) -> Result<Option<String>> {
    if let Some(id) = usable(store)? {
        return Ok(Some(id));
    }
    if !project.config().audit.auto_start {
        return Ok(None);
    }
    store.ensure()?;
    let _lock = store.start_lock()?;
    if let Some(id) = usable(store)? {
        return Ok(Some(id));
    }
    Ok(Some(
        begin(store, project, Origin::auto(claude), baseline)?.session_id,
    ))
}

/// The current session if its run directory exists. A `.current_session` that holds no valid
/// id counts as none (auto-start then replaces it) instead of failing every tool call.
pub(crate) fn usable(store: &Store) -> Result<Option<String>> {
    let current = match store.current() {
        Ok(c) => c,
        Err(Error::InvalidId { .. }) => None,
        Err(e) => return Err(e),
    };
    Ok(current.filter(|id| store.run_dir(id).is_ok_and(|d| d.is_dir())))
}

/// An automatic session that is no longer current and has seen nothing for this long was
/// left by a start that was killed half-way (or replaced): it is closed as `abandoned`.
pub(crate) const ORPHAN_AFTER: chrono::Duration = chrono::Duration::minutes(10);

/// Closes orphaned automatic sessions: `in_progress`, begun by a hook, not current, and with
/// no file of theirs changed for `ORPHAN_AFTER`. Reads only the sessions the index lists as
/// in progress (a handful), so it does not grow with the history. Returns the ids closed.
pub(crate) fn abandon_orphans(store: &Store, now: chrono::DateTime<chrono::Utc>) -> Vec<String> {
    let Ok(idx) = index::recent(store) else {
        return Vec::new();
    };
    let current = store.current().ok().flatten();
    let mut closed = Vec::new();
    for e in idx.sessions.iter().filter(|e| e.status == "in_progress") {
        if Some(&e.id) == current.as_ref() {
            continue;
        }
        let Ok(mut meta) = store::read_meta(store, &e.id) else {
            continue;
        };
        let quiet_since = store
            .run_dir(&e.id)
            .ok()
            .and_then(|d| last_change(&d))
            .unwrap_or(meta.start_time);
        if meta.status != "in_progress" || !meta.is_auto() || now - quiet_since < ORPHAN_AFTER {
            continue;
        }
        meta.status = "abandoned".into();
        meta.end_time = Some(now);
        if store::write_meta(store, &meta).is_ok()
            && index::record_upsert(store, Entry::from_meta(&meta)).is_ok()
        {
            closed.push(e.id.clone());
        }
    }
    closed
}

/// When a file in run directory `dir` last changed (its newest mtime).
fn last_change(dir: &std::path::Path) -> Option<chrono::DateTime<chrono::Utc>> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter_map(|e| e.metadata().ok()?.modified().ok())
        .max()
        .map(chrono::DateTime::<chrono::Utc>::from)
}

/// Called by a hook after it appended to the buffer of session `id`. A hook that read
/// `.current_session` before `end` cleared it can append after end's last move; such a
/// record would stay in a completed session's buffer. `end` clears `.current_session`
/// before its last move, so if `id` is still current here, that move will take the record;
/// if not, and the session has ended, the record is moved into the trail now (no duplicates:
/// the move to the trail drops ids the trail has). O(1) in the common case: one small read.
pub(crate) fn after_append(store: &Store, id: &str) -> Result<()> {
    if store.current().ok().flatten().as_deref() == Some(id) {
        return Ok(());
    }
    settle_ended(store, id).map(|_| ())
}

/// Moves leftovers of ended sessions into their trails (errors are skipped: this is
/// housekeeping on the way to something else): of every session (`everything`), or of those
/// `index::recent` holds, so a hook does not look at every session ever recorded. Leftovers
/// are records a hook appended while `end` ran, so they belong to a session that ended
/// lately; an older one's are moved by `baton audit end --session ID` or the next command
/// that begins a session.
pub(crate) fn sweep_ended(store: &Store, everything: bool) {
    let ids = if everything {
        store.session_ids()
    } else {
        index::recent(store)
            .map(|i| {
                i.sessions
                    .into_iter()
                    .filter(|e| e.status != "in_progress")
                    .map(|e| e.id)
                    .collect()
            })
            .unwrap_or_default()
    };
    for id in ids {
        let Ok(dir) = store.run_dir(&id) else {
            continue;
        };
        let nonempty = |name: &str| {
            std::fs::symlink_metadata(dir.join(name)).is_ok_and(|m| m.is_file() && m.len() > 0)
        };
        if nonempty(BUFFER) || nonempty(PENDING) {
            let _ = settle_ended(store, &id);
        }
    }
}

/// If session `id` has ended, moves its buffer and pending file into its trail and, when
/// that moved anything, refreshes its figures in the index (from the session's summary; a
/// hook leaves the figures as they are when the summary is stale over large files, and the
/// next `baton audit end --session ID` or reindex counts them). Returns the lines moved.
fn settle_ended(store: &Store, id: &str) -> Result<usize> {
    let meta = store::read_meta(store, id)?;
    if meta.status != "completed" {
        return Ok(0);
    }
    let dir = store.run_dir(id)?;
    let mode = store.file_mode();
    sidecar::flush(&dir, mode, Caller::Hook, Fold::Now)?;
    let moved = sidecar::settle(&dir, mode)?;
    if moved > 0 {
        let Some(side) = sidecar::current(&dir, mode, Caller::Hook, false)? else {
            return Ok(moved);
        };
        let persisted = super::persist::load(store)?;
        // The figures of an entry that has them (one older than the index's end keeps its
        // own until a command counts them again).
        if let Some(mut entry) = index::recent(store)?
            .get(id)
            .filter(|e| e.stats.is_some())
            .cloned()
        {
            entry.stats = Some(side.stats(&persisted));
            index::record_upsert(store, entry)?;
        }
    }
    Ok(moved)
}

/// Moves the current session's buffer to its pending file (a hook: Stop, PreCompact,
/// SessionEnd). Returns the lines moved.
pub(crate) fn flush(store: &Store, fold: Fold) -> Result<usize> {
    let Some(id) = store.current()? else {
        return Ok(0);
    };
    let dir = store.run_dir(&id)?;
    if !dir.is_dir() {
        return Ok(0);
    }
    sidecar::flush(&dir, store.file_mode(), Caller::Hook, fold)
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;

    use crate::core::config::Config;

    use crate::audit::store::TRAIL;
    use crate::core::fsx;
    use std::path::Path;

    fn project(root: &Path) -> Project {
        Project::for_test(root, Some("2026-11-30T10:15:00Z"))
    }

    fn named(task: &str) -> Origin<'_> {
        Origin {
            task,
            started_by: "start",
            claude_session: None,
        }
    }

    fn line(id: &str) -> String {
        format!("{{\"id\":\"{id}\",\"ts\":\"2026-11-30T10:16:00.000Z\",\"type\":\"data\",\"tool\":\"Read\",\"outcome\":\"ok\"}}")
    }

    /// The pointer to a new session is written last and not synced (`Store::set_pointer`):
    /// a session whose index line could not be written is never made current.
    #[test]
    fn a_session_the_index_does_not_know_is_not_made_current() {
        let t = tempfile::tempdir().unwrap();
        let store = Store::new(t.path(), &Config::default());
        let project = project(t.path());
        store.ensure().unwrap();
        // Where the index's journal goes, a folder: the line cannot be appended.
        std::fs::create_dir(store.dir.join("index.journal.jsonl")).unwrap();
        assert!(begin(&store, &project, named("t"), Baseline::Skip).is_err());
        assert_eq!(store.current().unwrap(), None);
        std::fs::remove_dir(store.dir.join("index.journal.jsonl")).unwrap();
        let id = begin(&store, &project, named("t"), Baseline::Skip)
            .unwrap()
            .session_id;
        assert_eq!(store.current().unwrap(), Some(id));
    }

    /// A hook read `.current_session`, `end` ran to completion (last move included), then the
    /// hook appended: its record reaches the trail once, and the index figures count it.
    #[test]
    fn a_late_append_to_an_ended_session_reaches_its_trail_once() {
        let t = tempfile::tempdir().unwrap();
        let store = Store::new(t.path(), &Config::default());
        let project = project(t.path());
        let id = begin(&store, &project, named("t"), Baseline::Skip)
            .unwrap()
            .session_id;
        let dir = store.run_dir(&id).unwrap();
        fsx::append_line(&dir.join(BUFFER), &line("r1"), 0o600).unwrap();
        super::super::end::end(&store, &project, None).unwrap();
        assert_eq!(store.current().unwrap(), None);
        // The late hook: r2 is new, r1 a duplicate of what the trail has.
        fsx::append_line(&dir.join(BUFFER), &line("r2"), 0o600).unwrap();
        fsx::append_line(&dir.join(BUFFER), &line("r1"), 0o600).unwrap();
        after_append(&store, &id).unwrap();
        let trail = std::fs::read_to_string(dir.join(TRAIL)).unwrap();
        assert_eq!(trail.lines().count(), 2, "{trail}");
        assert!(trail.contains("\"r2\""), "{trail}");
        assert_eq!(std::fs::read_to_string(dir.join(BUFFER)).unwrap(), "");
        assert_eq!(std::fs::read_to_string(dir.join(PENDING)).unwrap(), "");
        let (idx, _) = index::load(&store).unwrap();
        assert_eq!(idx.get(&id).unwrap().stats.as_ref().unwrap().records, 2);
        // A hook whose session is still current leaves the move to `end`.
        let id2 = begin(&store, &project, named("u"), Baseline::Skip)
            .unwrap()
            .session_id;
        let dir2 = store.run_dir(&id2).unwrap();
        fsx::append_line(&dir2.join(BUFFER), &line("s1"), 0o600).unwrap();
        after_append(&store, &id2).unwrap();
        assert!(!dir2.join(TRAIL).exists());
    }

    /// A record left in an ended session's buffer (the hook died before it could move it) is
    /// swept into the trail when the next session begins.
    #[test]
    fn the_next_session_sweeps_leftovers_of_ended_sessions() {
        let t = tempfile::tempdir().unwrap();
        let store = Store::new(t.path(), &Config::default());
        let project = project(t.path());
        let id = begin(&store, &project, named("t"), Baseline::Skip)
            .unwrap()
            .session_id;
        let dir = store.run_dir(&id).unwrap();
        super::super::end::end(&store, &project, None).unwrap();
        fsx::append_line(&dir.join(PENDING), &line("p1"), 0o600).unwrap();
        fsx::append_line(&dir.join(BUFFER), &line("b1"), 0o600).unwrap();
        begin(&store, &project, named("next"), Baseline::Skip).unwrap();
        let trail = std::fs::read_to_string(dir.join(TRAIL)).unwrap();
        assert_eq!(trail.lines().count(), 2, "{trail}");
        assert_eq!(std::fs::read_to_string(dir.join(BUFFER)).unwrap(), "");

        // A hook's automatic start sweeps the sessions that ended lately, which the index's
        // end holds (here: all of them).
        super::super::end::end(&store, &project, None).unwrap();
        let next = store.session_ids().pop().unwrap();
        let dir = store.run_dir(&next).unwrap();
        fsx::append_line(&dir.join(BUFFER), &line("b2"), 0o600).unwrap();
        begin(&store, &project, Origin::auto("cs-x"), Baseline::Skip).unwrap();
        let trail = std::fs::read_to_string(dir.join(TRAIL)).unwrap();
        assert!(trail.contains("\"b2\""), "{trail}");
    }
}
