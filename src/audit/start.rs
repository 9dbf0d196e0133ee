//! `baton audit start TASK [--force]`: the seed's seven steps — id, run dir, session.json,
//! `.current_session`, context recovery (L0 + corrections from L2), the recovery summary, and
//! the unfinished sessions with what to do about them.
//!
//! A current session that was started by hand is never ended silently: start refuses and
//! says to run `/baton:end` or pass `--force` (which leaves it `in_progress`, listed as
//! unfinished). A current session the hooks started on their own (task "(auto)") for the
//! Claude session that asks is adopted: it gets the task, and its records (all of that
//! Claude session) stay with it. One of another Claude session (or of none known) is not:
//! it ends there with its records (auto.rs), and the task gets a new session, so a named
//! session never holds an earlier Claude session's prompts.
//!
//! The Claude session that asks: `CLAUDE_CODE_SESSION_ID`, which Claude Code gives the
//! commands the model runs; else the one of the newest record (the prompt that ran
//! `/baton:start` is reported before the command runs).

use super::auto;
use super::index::{self, Entry};
use super::lifecycle::{self, Baseline, Origin};
use super::recover;
use super::sidecar::{self, Caller};
use super::store::{self, SessionMeta, Store};
use crate::core::error::{Error, Result};
use crate::core::project::Project;

/// The variable in which Claude Code names its session to the commands it runs.
const CLAUDE_SESSION_VAR: &str = "CLAUDE_CODE_SESSION_ID";

/// Runs start; returns the text to print.
pub(crate) fn start(store: &Store, project: &Project, task: &str, force: bool) -> Result<String> {
    let task = task.trim();
    if task.is_empty() || task.contains(['\n', '\r']) {
        return Err(Error::Usage(
            "TASK must be one non-empty line, e.g. baton audit start \"fix the login bug\"".into(),
        ));
    }
    store.ensure()?;
    let lock = store.start_lock()?;
    let mut out = String::new();
    let asker = project.env(CLAUDE_SESSION_VAR).filter(|s| !s.is_empty());
    let current = Current {
        store,
        project,
        asker: asker.as_deref(),
    };
    let meta = if let Some(adopted) = current.adopt_or_leave(task, force, &mut out)? {
        adopted
    } else {
        let origin = Origin {
            task,
            started_by: "start",
            claude_session: current.asker,
        };
        lifecycle::begin(store, project, origin, Baseline::ReadGit)?
    };
    drop(lock);
    index::update(store, |i| {
        index::upsert(i, Entry::from_meta(&meta));
        Ok(())
    })?;
    out.push_str(&format!(
        "Started audit session {} — {}\nRecording to {}\n\n",
        meta.session_id,
        meta.task,
        store.run_dir(&meta.session_id)?.display()
    ));
    out.push_str(&recovery(store, &meta.session_id)?);
    Ok(out)
}

/// The current session as `start` finds it, and the Claude session that asks (if known).
struct Current<'a> {
    store: &'a Store,
    project: &'a Project,
    asker: Option<&'a str>,
}

impl Current<'_> {
    /// What becomes of the current session, if any: this Claude session's automatic one is
    /// adopted (named `task`, returned); another's ends; one started by hand is an error
    /// unless `force`, which leaves it `in_progress`. What was done is said in `out`.
    fn adopt_or_leave(
        &self,
        task: &str,
        force: bool,
        out: &mut String,
    ) -> Result<Option<SessionMeta>> {
        let store = self.store;
        let Some(cur) = store.current()? else {
            return Ok(None);
        };
        match store::read_meta(store, &cur) {
            Ok(m) if m.status == "in_progress" && m.is_auto() => return self.auto(m, task, out),
            Ok(m) if m.status == "in_progress" && !force => {
                return Err(Error::Invalid(format!(
                    "session {} (\"{}\") is still current; end it first with /baton:end \
                     (baton audit end), or pass --force to start anyway and leave it in_progress",
                    m.session_id, m.task
                )));
            }
            Ok(m) if m.status == "in_progress" => {
                out.push_str(&format!(
                    "Left session {} (\"{}\") in_progress (--force); end it later with \
                     `baton audit end --session {}`.\n",
                    m.session_id, m.task, m.session_id
                ));
            }
            Ok(_) => {}
            Err(e) => out.push_str(&format!(
                "The current session {cur} could not be read ({e}); left as it is — \
                 `baton audit status` lists it.\n"
            )),
        }
        Ok(None)
    }

    /// The current automatic session `m`: adopted when it is the asking Claude session's,
    /// else ended (or removed, when it recorded nothing) so the task starts a new one.
    fn auto(
        &self,
        mut m: SessionMeta,
        task: &str,
        out: &mut String,
    ) -> Result<Option<SessionMeta>> {
        let store = self.store;
        let asker = match self.asker {
            Some(a) => Some(a.to_string()),
            None => newest_claude_session(store, &m.session_id),
        };
        let owner = m.claude_session.as_deref();
        if owner.is_some() && (asker.is_none() || asker.as_deref() == owner) {
            m.task = task.to_string();
            m.started_by = Some("start".into());
            store::write_meta(store, &m)?;
            out.push_str(&format!(
                "Named the session the hooks had started for this Claude session ({}): its \
                 records stay with it.\n",
                m.session_id
            ));
            return Ok(Some(m));
        }
        if auto::finish(store, self.project, &m.session_id, Caller::Command)?
            == auto::Finished::Ended
        {
            out.push_str(&format!(
                "Ended the automatic session {}, which holds another Claude session's records \
                 (they stay with it); this task gets a session of its own.\n",
                m.session_id
            ));
        }
        Ok(None)
    }
}

/// The Claude session of the newest record of session `id` (its summary and buffer).
fn newest_claude_session(store: &Store, id: &str) -> Option<String> {
    let dir = store.run_dir(id).ok()?;
    let view = sidecar::view(&dir, store.file_mode(), Caller::Command).ok()?;
    view.last
        .iter()
        .rev()
        .find_map(|r| r.claude_session.clone())
        .filter(|c| !c.is_empty())
}

/// Steps 5-7: recent sessions, corrections to follow, priorities, unfinished sessions.
fn recovery(store: &Store, id: &str) -> Result<String> {
    let mut out = String::new();
    let (idx, _) = index::load(store)?;
    out.push_str(&format!(
        "## Recent sessions (L0)\n{}\n\n",
        recover::l0(&idx)
    ));
    let persisted = super::persist::load(store)?;
    let corrections = recover::all_corrections(store, &idx, &persisted);
    out.push_str("## Corrections to keep following (L2)\n");
    if corrections.is_empty() {
        out.push_str("None recorded.\n");
    }
    for c in corrections.iter().take(10) {
        let mark = if c.persisted {
            ""
        } else {
            " — not yet persisted"
        };
        out.push_str(&format!("- {} ({}, {}{mark})\n", c.text, c.id, c.session));
    }
    let unfinished = recover::unfinished(&idx, Some(id));
    out.push_str("\n## Priorities\n");
    let open = corrections.iter().filter(|c| !c.persisted).count();
    let mut any = false;
    if open > 0 {
        any = true;
        out.push_str(&format!(
            "- {open} correction(s) not persisted: turn each into a convention or instinct, then \
             `baton audit persist ID --to PATH`\n"
        ));
    }
    if !unfinished.is_empty() {
        any = true;
        out.push_str(&format!(
            "- {} unfinished session(s): ask the user whether to end them\n",
            unfinished.len()
        ));
    }
    if !any {
        out.push_str("- Nothing outstanding from earlier sessions.\n");
    }
    if !unfinished.is_empty() {
        out.push('\n');
        out.push_str(&recover::unfinished_text(&unfinished));
        out.push('\n');
    }
    Ok(out)
}
