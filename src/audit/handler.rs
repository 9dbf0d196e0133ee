//! The audit subsystem's hook handler: which events it takes and what it adds.
//!
//! * PostToolUse / PostToolUseFailure / UserPromptSubmit: read `.current_session`, append one
//!   line (two for a correction) to its buffer. O(1): no scan, no git. With no session
//!   current, an automatic one starts for this Claude session, unless the prompt or call is
//!   baton's own (own.rs).
//! * Stop / PreCompact: move the buffer to pending. Nothing printed.
//! * SessionEnd: this Claude session's automatic session ends (auto.rs); else the buffer
//!   moves to pending.
//! * SessionStart: an automatic session of another Claude session ends, this one's starts
//!   (with git's baseline), then the recap (L0/L1) and the unfinished sessions as one context
//!   section.

use super::auto;
use super::index;
use super::lifecycle::{self, Baseline};
use super::own::{self, Own};
use super::prompt;
use super::record::Record;
use super::recover;
use super::sidecar::{self, Caller, Fold};
use super::store::{self, Store, BUFFER};
use super::tool_call;
use crate::core::budget::Section;
use crate::core::config::Config;
use crate::core::error::Result;
use crate::core::event::{EventKind, EventName, HookEvent};
use crate::core::handler::{Contribution, Handler};
use crate::core::jsonl;
use crate::core::project::Project;

/// The audit handler on the bus.
pub(crate) struct AuditHandler;

impl Handler for AuditHandler {
    fn name(&self) -> &'static str {
        "audit"
    }

    fn subscribes(&self, event: EventName) -> bool {
        matches!(
            event,
            EventName::SessionStart
                | EventName::UserPromptSubmit
                | EventName::PostToolUse
                | EventName::PostToolUseFailure
                | EventName::PreCompact
                | EventName::Stop
                | EventName::SessionEnd
        )
    }

    fn enabled(&self, config: &Config) -> bool {
        config.audit.enabled
    }

    fn handle(&self, event: &HookEvent, project: &Project) -> Result<Contribution> {
        let store = Store::new(&project.root, project.config());
        let claude = event.common.session_id.as_str();
        match &event.kind {
            EventKind::PostToolUse(call) | EventKind::PostToolUseFailure(call) => {
                let failed = matches!(event.kind, EventKind::PostToolUseFailure(_));
                append(
                    &store,
                    project,
                    claude,
                    || own::tool_call(call),
                    || vec![tool_call::record(call, failed, &event.common, project)],
                )?;
            }
            EventKind::UserPromptSubmit { prompt } => {
                append(
                    &store,
                    project,
                    claude,
                    || own::prompt(prompt),
                    || {
                        let patterns = prompt::compile_patterns(&project.config().audit);
                        prompt::records(prompt, &patterns, claude, project)
                    },
                )?;
            }
            // After every turn: the summary folds what moved only now and then (`Fold`).
            EventKind::Stop { .. } => {
                lifecycle::flush(&store, Fold::WhenDue)?;
            }
            EventKind::PreCompact { .. } => {
                lifecycle::flush(&store, Fold::Now)?;
            }
            // The buffer moves to pending; then this Claude session's automatic session ends
            // with it (any other current session keeps going).
            EventKind::SessionEnd { .. } => {
                lifecycle::flush(&store, Fold::Now)?;
                auto::at_session_end(&store, project, claude)?;
            }
            EventKind::SessionStart { source } => {
                return session_start(&store, project, claude, source)
            }
            _ => {}
        }
        Ok(Contribution::default())
    }
}

/// Appends the records `build` makes to the current session's buffer. With no session
/// current, `own` says what the prompt or call is: baton's `end` joins the session `end`
/// just ended, another baton command records nothing, anything else starts an automatic
/// session of Claude session `claude` when `audit.auto_start` is on. The hot path: one small
/// read of `.current_session`, the records built only when a session records them, one
/// locked append each; no git, no scan.
fn append(
    store: &Store,
    project: &Project,
    claude: &str,
    own: impl FnOnce() -> Own,
    build: impl FnOnce() -> Vec<Record>,
) -> Result<()> {
    let found = if let Some(id) = lifecycle::usable(store)? {
        Some(id)
    } else {
        match own() {
            Own::No => lifecycle::current_or_start(store, project, Baseline::Skip, claude)?,
            Own::Ending => auto::just_ended(store, project.now()),
            Own::Quiet => None,
        }
    };
    let Some(id) = found else {
        return Ok(());
    };
    let buffer = store.run_dir(&id)?.join(BUFFER);
    for record in build() {
        jsonl::append(&buffer, &record, store.file_mode())?;
    }
    // The session may have ended since `.current_session` was read (or had, for the call that
    // ended it); the records are already written, so a failure here changes nothing for the
    // caller.
    let _ = lifecycle::after_append(store, &id);
    Ok(())
}

/// The SessionStart recap, only when there is something to say: the current session when
/// the user named it (its task and last records; the recent sessions), a note when an
/// earlier automatic session could not be ended, the unfinished named sessions. An automatic
/// session that records quietly is not worth the model's attention at every start (it is
/// there for `baton recall` and the reports), so its start says nothing (quiet by default).
fn session_start(
    store: &Store,
    project: &Project,
    claude: &str,
    source: &str,
) -> Result<Contribution> {
    lifecycle::abandon_orphans(store, project.now());
    let (current, note) = auto::at_session_start(store, project, claude, source)?;
    let index = index::recent(store)?;
    let named = match &current {
        Some(id) => Some(store::read_meta(store, id)?).filter(|m| !m.is_auto()),
        None => None,
    };
    let mut parts: Vec<String> = Vec::new();
    if let (Some(id), Some(_)) = (&current, &named) {
        parts.push(recap(store, &index, id)?);
    }
    parts.extend(note);
    let unfinished = recover::unfinished(&index, current.as_deref());
    if !unfinished.is_empty() {
        parts.push(recover::unfinished_text(&unfinished));
    }
    if parts.is_empty() {
        return Ok(Contribution::default());
    }
    Ok(Contribution {
        sections: vec![
            Section::new("Audit trail", parts.join("\n\n"), 4).source("baton audit recover")
        ],
        ..Contribution::default()
    })
}

/// What the recap says about the current session `id` and the sessions before it.
fn recap(store: &Store, index: &index::Index, id: &str) -> Result<String> {
    let meta = store::read_meta(store, id)?;
    let mut body = format!(
        "Recording tool calls to audit session {id} — {}.",
        meta.task
    );
    if meta.is_auto() {
        body.push_str(" Name it with /baton:start \"task\" when the task is clear.");
    }
    // The session's summary and its buffer, not its records: the recap costs the same at
    // the millionth record as at the first.
    let view = sidecar::view(&store.run_dir(id)?, store.file_mode(), Caller::Hook)?;
    if view.records != Some(0) && !view.last.is_empty() {
        body.push_str("\n\n");
        body.push_str(&recover::l1_of(&meta, &view));
    }
    if index.sessions.iter().any(|e| e.id != id) {
        body.push_str("\n\nRecent sessions:\n");
        body.push_str(&recover::l0(index));
    }
    Ok(body)
}
