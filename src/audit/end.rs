//! `baton audit end [--session ID]`: the seed's nine steps, in an order that a rerun after a
//! crash completes without losing or doubling a record:
//!
//! 1. the session: `--session`, else `.current_session`;
//! 2. buffer → pending (`trail::drain_with`: copy then truncate, under the appenders' lock,
//!    slice by slice);
//! 3. pending → trail, dropping records whose id the trail already has (so a crash between
//!    the copy and the truncation is harmless on rerun);
//! 4. (the truncations of 2 and 3 are the "clear buffer files" step);
//! 5. corrections extracted; 6. integrity checks (a session without a git baseline gets one
//!    derived from its start time first); 7. `session_summary.md` (atomic); the
//!    figures of 5–7 come from the session's `summary.json`, kept up to date by every move;
//! 8. the index entry and `session.json` (status `completed`, `end_time`; both atomic; a
//!    rerun keeps the first end time);
//! 9. `.current_session` cleared if it names this session; then one more drain picks up a
//!    hook that appended while the session was ending.
//!
//! Every step is idempotent, so `baton audit end --session ID` finishes a half-ended one.

use super::index::{self, Entry};
use super::integrity;
use super::sidecar::{self, Caller, Fold};
use super::store::{self, Store, SUMMARY};
use super::summary;
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::project::Project;
use chrono::SubsecRound;
use std::path::Path;

/// What ending a session produced.
#[derive(Debug)]
pub(crate) struct Ended {
    pub(crate) id: String,
    pub(crate) summary: String,
    pub(crate) problems: Vec<String>,
}

/// Ends `session` (or the current one).
pub(crate) fn end(store: &Store, project: &Project, session: Option<&str>) -> Result<Ended> {
    let id = which(store, session)?;
    let dir = store.run_dir(&id)?;
    if !dir.is_dir() {
        return Err(Error::NotFound(format!(
            "no session {id} under {}; `baton audit status` lists them",
            store.runs().display()
        )));
    }
    let _lock = store.end_lock(&id)?;
    let mut meta = store::read_meta(store, &id)?;
    let mode = store.file_mode();
    move_all(&dir, mode)?;

    // The figures come from the session's summary (sidecar.rs), rebuilt from the trail only
    // when it is stale or not exact: ending a session of millions of records reads one file.
    let side = sidecar::current(&dir, mode, Caller::Command, true)?
        .ok_or_else(|| Error::Internal(format!("no summary of {id} after a rebuild")))?;
    let persisted = super::persist::load(store)?;
    let stats = side.stats(&persisted);
    let unreadable = side.problems(&id);
    let facts = integrity::Facts {
        changed: side.changed(),
        pathless_changes: side.pathless_changes(),
        unreadable: &unreadable,
    };

    // A session a tool-call hook started has no git baseline yet: derived from its start.
    integrity::derive_baseline(&mut meta, project);
    let checked = integrity::check(&meta, &facts, &stats, project);
    let mut problems = checked.problems;
    let mut stats = stats;
    stats.bash_files = checked.bash_files;
    if !meta.status_ok() {
        problems.push(format!(
            "session.json had status {:?} (expected one of {}); set to completed",
            meta.status,
            store::STATUSES.join(", ")
        ));
    }
    // session.json keeps whole seconds.
    let end_time = meta
        .end_time
        .unwrap_or_else(|| project.now().trunc_subsecs(0));
    meta.status = "completed".into();
    meta.end_time = Some(end_time);
    meta.integrity = Some(problems.clone());

    let text = summary::render(&meta, &stats, &unreadable, &problems);
    fsx::atomic_write(&dir.join(SUMMARY), text.as_bytes(), mode)?;

    let mut entry = Entry::from_meta(&meta);
    entry.stats = Some(stats);
    index::record_upsert(store, entry)?;
    store::write_meta(store, &meta)?;
    if store.current()?.as_deref() == Some(id.as_str()) {
        store.clear_current()?;
    }
    // A hook that read .current_session before it was cleared may have appended since.
    move_all(&dir, mode)?;
    Ok(Ended {
        id,
        summary: text,
        problems,
    })
}

/// Step 1: `--session`, else `.current_session`.
fn which(store: &Store, session: Option<&str>) -> Result<String> {
    match session {
        Some(s) => {
            fsx::validate_component("session id", s)?;
            Ok(s.to_string())
        }
        None => store.current()?.ok_or_else(|| {
            Error::NotFound(
                "no audit session is current; `baton audit status` lists sessions, \
                 `baton audit end --session ID` ends one by id"
                    .into(),
            )
        }),
    }
}

/// Buffer → pending → trail, the session's summary kept along.
fn move_all(dir: &Path, mode: u32) -> Result<()> {
    sidecar::flush(dir, mode, Caller::Command, Fold::Now)?;
    sidecar::settle(dir, mode)?;
    Ok(())
}
