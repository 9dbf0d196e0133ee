//! `baton audit status [--json]`: the audit's directory, the current session, the sessions
//! left unfinished, the corrections not yet persisted, and the session files that need fixing
//! by hand (exit 1 when there are any).

use super::index::{self, Entry, Index};
use super::persist::{self, Unpersisted};
use super::recover;
use super::store::{self, Store};
use crate::core::error::{Error, Result};
use crate::core::io::{out, outln};
use crate::core::project::Project;

/// What `status` reports.
struct Survey {
    index: Index,
    current: Option<String>,
    /// The current session's corrections not persisted yet.
    open_corrections: Vec<Unpersisted>,
    /// Session files that need fixing by hand.
    bad: Vec<String>,
    /// The index was unreadable (and rebuilt).
    index_problem: Option<String>,
}

impl Survey {
    fn take(store: &Store) -> Result<Survey> {
        let (index, index_problem) = index::load(store)?;
        let current = store.current()?;
        let mut open_corrections = Vec::new();
        if let Some(id) = &current {
            if store.run_dir(id)?.is_dir() {
                open_corrections = persist::unpersisted_in(store, id)?;
            }
        }
        Ok(Survey {
            index,
            current,
            open_corrections,
            bad: bad_session_files(store),
            index_problem,
        })
    }

    fn unfinished(&self) -> Vec<&Entry> {
        recover::unfinished(&self.index, self.current.as_deref())
    }

    fn problems(&self) -> impl Iterator<Item = &String> {
        self.bad.iter().chain(self.index_problem.iter())
    }
}

/// Prints the status; returns the exit code (1 with `--json` when a session file needs
/// fixing; without it, that is an error after the listing).
pub(crate) fn show(store: &Store, project: &Project, json: bool) -> Result<i32> {
    let s = Survey::take(store)?;
    if json {
        outln!(
            "{}",
            serde_json::json!({
                "dir": store.dir,
                "current": s.current,
                "sessions": s.index.sessions.len(),
                "unfinished": s.unfinished().iter().map(|e| &e.id).collect::<Vec<_>>(),
                "unpersisted_corrections": s.open_corrections.iter().map(|c| serde_json::json!({"id": c.id, "text": c.text})).collect::<Vec<_>>(),
                "problems": s.problems().collect::<Vec<_>>(),
            })
        );
        return Ok(i32::from(!s.bad.is_empty()));
    }
    out!("{}", project.redact(&text(store, &s)));
    if !s.bad.is_empty() {
        return Err(Error::Invalid(format!(
            "{} session file(s) need fixing (listed above)",
            s.bad.len()
        )));
    }
    Ok(0)
}

/// The status as text (tasks and correction texts come from files anyone may edit: the
/// caller prints it through the redactor).
fn text(store: &Store, s: &Survey) -> String {
    let mut out = format!("audit: {}\n", store.dir.display());
    match &s.current {
        Some(id) => {
            let task = s.index.get(id).map_or("", |e| e.task.as_str());
            out.push_str(&format!("current session: {id} — {task}\n"));
        }
        None => out.push_str("current session: none (`baton audit start \"task\"` starts one)\n"),
    }
    out.push_str(&format!("sessions: {}\n", s.index.sessions.len()));
    for e in s.unfinished() {
        out.push_str(&format!(
            "unfinished: {} — {} (`baton audit end --session {}`)\n",
            e.id, e.task, e.id
        ));
    }
    for c in &s.open_corrections {
        out.push_str(&format!(
            "correction not persisted: {} \"{}\"\n",
            c.id, c.text
        ));
    }
    for p in s.problems() {
        out.push_str(&format!("problem: {p}\n"));
    }
    out
}

/// `session.json` files that cannot be read or hold a status the audit does not know.
fn bad_session_files(store: &Store) -> Vec<String> {
    store
        .session_ids()
        .into_iter()
        .filter_map(|id| match store::read_meta(store, &id) {
            Ok(m) if m.status_ok() => None,
            Ok(m) => Some(format!(
                "{id}: session.json has status {:?} (expected one of {}); fix it by hand",
                m.status,
                store::STATUSES.join(", ")
            )),
            Err(e) => Some(format!("{id}: {e}")),
        })
        .collect()
}
