//! The automatic session, keyed to its Claude Code session. The hooks start one (task
//! `(auto)`) for the Claude session that finds none current, and it lasts as long as that
//! Claude session: it ends at its SessionEnd, or at the SessionStart of another Claude
//! session (a SessionEnd cut short, a crash). SessionStart with `compact` continues the same
//! Claude session and keeps it; `resume` keeps it when it is the same Claude session.
//! `/baton:start` names it only from its own Claude session. A named session is not keyed:
//! it lasts until `/baton:end`, across Claude sessions.
//!
//! "Ends" is `baton audit end`'s end (trail, integrity checks, summary), except that an
//! automatic session that recorded nothing is removed instead: it would only list an empty
//! `(auto)` row, and a failed "no records" check, in every report. Ending costs what the
//! session holds (its records are moved to the trail), so a hook ends only one of up to
//! `HOOK_END_BYTES`; a bigger one it lets go (no longer current: closed as abandoned once
//! quiet, `baton audit end --session ID` ends it) rather than overrun the event's timeout.

use super::end;
use super::index;
use super::lifecycle::{self, Baseline};
use super::sidecar::Caller;
use super::store::{self, Store, SESSION};
use crate::core::error::Result;
use crate::core::project::Project;
use std::path::Path;

/// The most records (bytes of its buffer and pending file) of an automatic session a hook
/// ends: some tens of thousands of tool calls, a move of tens of milliseconds.
const HOOK_END_BYTES: u64 = 8 * 1024 * 1024;

/// How long after `end` the prompt or tool call that ran it (reported afterwards) still
/// joins the session it ended.
const JOIN_ENDED_WITHIN: chrono::Duration = chrono::Duration::minutes(10);

/// The current session for SessionStart of Claude session `claude` (`source`: startup,
/// resume, clear, compact …): an automatic session of another Claude session ends first
/// (unless the event continues a compacted one), and a new one starts when none is current
/// and `audit.auto_start` is on. Returns the current session and, when the previous one
/// could not be ended, a line that says so.
pub(crate) fn at_session_start(
    store: &Store,
    project: &Project,
    claude: &str,
    source: &str,
) -> Result<(Option<String>, Option<String>)> {
    let mut note = None;
    if let Some(id) = lifecycle::usable(store)? {
        match store::read_meta(store, &id) {
            // A pointer `end` left behind (it stopped before clearing it).
            Ok(meta) if meta.status != "in_progress" => store.clear_current()?,
            Ok(meta) if meta.is_auto() && !continues(&meta, claude, source) => {
                match finish(store, project, &id, Caller::Hook) {
                    Ok(Finished::LetGo) => {
                        note = Some(format!(
                            "The automatic session {id} of an earlier Claude session is too \
                             big to end at a session start; `baton audit end --session {id}` \
                             ends it."
                        ));
                    }
                    Ok(_) => {}
                    Err(e) => {
                        note = Some(format!(
                            "The automatic session {id} of an earlier Claude session could \
                             not be ended ({e}); `baton audit end --session {id}` ends it."
                        ));
                        if store.current()?.as_deref() == Some(id.as_str()) {
                            store.clear_current()?;
                        }
                    }
                }
            }
            _ => return Ok((Some(id), None)),
        }
    }
    let current = lifecycle::current_or_start(store, project, Baseline::ReadGit, claude)?;
    Ok((current, note))
}

/// Whether SessionStart (`source`) of Claude session `claude` continues automatic session
/// `meta`: the same Claude session, or a compaction (which goes on with the conversation).
fn continues(meta: &store::SessionMeta, claude: &str, source: &str) -> bool {
    meta.claude_session.as_deref() == Some(claude) || source == "compact"
}

/// SessionEnd of Claude session `claude`: its automatic session ends with it (one that
/// names no Claude session, from before sessions were keyed, too). A named session, or
/// another Claude session's, is left to go on.
pub(crate) fn at_session_end(store: &Store, project: &Project, claude: &str) -> Result<()> {
    let Some(id) = lifecycle::usable(store)? else {
        return Ok(());
    };
    let meta = store::read_meta(store, &id)?;
    let ours = meta.claude_session.as_deref().is_none_or(|c| c == claude);
    if meta.status == "in_progress" && meta.is_auto() && ours {
        finish(store, project, &id, Caller::Hook)?;
    }
    Ok(())
}

/// What became of an automatic session that ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Finished {
    /// Ended as `baton audit end` ends a session.
    Ended,
    /// It recorded nothing: removed.
    Removed,
    /// Too big for a hook to end: no longer current, left for a command.
    LetGo,
}

/// Ends automatic session `id` as `baton audit end` does, or removes it when it recorded
/// nothing; a hook (`caller`) lets one too big to end in its time go instead.
pub(crate) fn finish(
    store: &Store,
    project: &Project,
    id: &str,
    caller: Caller,
) -> Result<Finished> {
    if discard_if_empty(store, id)? {
        return Ok(Finished::Removed);
    }
    let dir = store.run_dir(id)?;
    if caller == Caller::Hook && unmoved_bytes(&dir) > HOOK_END_BYTES {
        if store.current()?.as_deref() == Some(id) {
            store.clear_current()?;
        }
        return Ok(Finished::LetGo);
    }
    end::end(store, project, Some(id))?;
    Ok(Finished::Ended)
}

/// The bytes of the records of the run directory `dir` not yet in its trail.
fn unmoved_bytes(dir: &Path) -> u64 {
    let buffer = dir.join(store::BUFFER);
    let moved = super::cursor::unmoved_from(&buffer);
    [store::BUFFER, store::PENDING]
        .iter()
        .filter_map(|f| std::fs::symlink_metadata(dir.join(f)).ok())
        .map(|m| m.len())
        .sum::<u64>()
        .saturating_sub(moved)
}

/// `baton audit end [--session ID]` of an automatic session that recorded nothing: removes
/// it and returns its id (`None`: end it as usual).
pub(crate) fn discard_empty_to_end(store: &Store, session: Option<&str>) -> Result<Option<String>> {
    let id = match session {
        Some(s) => s.to_string(),
        None => match store.current()? {
            Some(c) => c,
            None => return Ok(None),
        },
    };
    if store.run_dir(&id)?.join(SESSION).is_file() && discard_if_empty(store, &id)? {
        return Ok(Some(id));
    }
    Ok(None)
}

/// Removes automatic session `id` when it is in progress and recorded nothing (no line in
/// its buffer, pending file or trail): its run directory and its index entry. Returns
/// whether it did.
pub(crate) fn discard_if_empty(store: &Store, id: &str) -> Result<bool> {
    let dir = store.run_dir(id)?;
    let meta = store::read_meta(store, id)?;
    if meta.status != "in_progress" || !meta.is_auto() || !recorded_nothing(&dir) {
        return Ok(false);
    }
    if store.current()?.as_deref() == Some(id) {
        store.clear_current()?;
    }
    // Looked at again once no hook can take it for current any more.
    if !recorded_nothing(&dir) {
        return Ok(false);
    }
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        if entry.file_type().is_ok_and(|t| t.is_file()) && entry.file_name() != SESSION {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    // session.json last: until it goes, the folder is still a session anyone can read.
    let _ = std::fs::remove_file(dir.join(SESSION));
    let _ = std::fs::remove_dir(&dir);
    index::record_removal(store, id)?;
    Ok(true)
}

/// Whether the run directory `dir` holds no record: its record files are missing or empty.
fn recorded_nothing(dir: &Path) -> bool {
    [store::BUFFER, store::PENDING, store::TRAIL]
        .iter()
        .all(|f| std::fs::symlink_metadata(dir.join(f)).map_or(true, |m| m.len() == 0))
}

/// The session `baton audit end` ended last, when it did so within `JOIN_ENDED_WITHIN` of
/// `now`: where the prompt or tool call that ran `end` goes (Claude Code reports it after).
pub(crate) fn just_ended(store: &Store, now: chrono::DateTime<chrono::Utc>) -> Option<String> {
    let id = store.last_ended()?;
    let meta = store::read_meta(store, &id).ok()?;
    let end = meta.end_time?;
    (meta.status == "completed" && (now - end).abs() <= JOIN_ENDED_WITHIN).then_some(id)
}
