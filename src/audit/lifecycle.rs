//! Sessions coming into being and the buffer moving on: shared by the hooks and the CLI.

use super::index::{self, Entry};
use super::store::{self, SessionMeta, Store, BUFFER, PENDING};
use super::trail;
use crate::core::error::{Error, Result};
use crate::core::git;
use chrono::{DateTime, Utc};
use std::path::Path;

/// Creates a session: a new id and run dir, `session.json`, `.current_session`, an index
/// entry. With `root`, git's HEAD and dirty paths are recorded for the integrity check.
pub(crate) fn begin(
    store: &Store,
    task: &str,
    now: DateTime<Utc>,
    started_by: &str,
    root: Option<&Path>,
) -> Result<SessionMeta> {
    let id = store::claim_new_id(store, now)?;
    let mut meta = SessionMeta::new(&id, task, now);
    meta.started_by = Some(started_by.to_string());
    if let Some(root) = root {
        if let Ok(git::GitState::Repo(r)) = git::state(root) {
            meta.git_head = r.head_sha;
            meta.git_dirty_at_start = r.status.iter().map(|l| porcelain_path(l)).collect();
        }
    }
    store::write_meta(store, &meta)?;
    store.set_current(&id)?;
    index::update(store, |i| {
        index::upsert(i, Entry::from_meta(&meta));
        Ok(())
    })?;
    Ok(meta)
}

/// The path of a porcelain line (`XY path`, `XY old -> new`).
pub(crate) fn porcelain_path(line: &str) -> String {
    let p = line.get(3..).unwrap_or("");
    p.rsplit(" -> ").next().unwrap_or(p).to_string()
}

/// The current session; with `auto_start`, one is started when none is current (under a
/// lock, so parallel hooks start one session, not many). `root` as in `begin`.
pub(crate) fn current_or_start(
    store: &Store,
    auto_start: bool,
    now: DateTime<Utc>,
    root: Option<&Path>,
) -> Result<Option<String>> {
    if let Some(id) = usable(store)? {
        return Ok(Some(id));
    }
    if !auto_start {
        return Ok(None);
    }
    store.ensure()?;
    let _lock = store.lock("start")?;
    if let Some(id) = usable(store)? {
        return Ok(Some(id));
    }
    Ok(Some(begin(store, "(auto)", now, "auto", root)?.session_id))
}

/// The current session if its run directory exists. A `.current_session` that holds no valid
/// id counts as none (auto-start then replaces it) instead of failing every tool call.
fn usable(store: &Store) -> Result<Option<String>> {
    let current = match store.current() {
        Ok(c) => c,
        Err(Error::InvalidId { .. }) => None,
        Err(e) => return Err(e),
    };
    Ok(current.filter(|id| store.run_dir(id).is_ok_and(|d| d.is_dir())))
}

/// Moves the current session's buffer to its pending file. Returns the lines moved.
pub(crate) fn flush(store: &Store) -> Result<usize> {
    let Some(id) = store.current()? else {
        return Ok(0);
    };
    flush_session(store, &id)
}

/// Moves the buffer of session `id` to its pending file.
pub(crate) fn flush_session(store: &Store, id: &str) -> Result<usize> {
    let dir = store.run_dir(id)?;
    if !dir.is_dir() {
        return Ok(0);
    }
    trail::drain(
        &dir.join(BUFFER),
        &dir.join(PENDING),
        store.file_mode(),
        false,
    )
}
