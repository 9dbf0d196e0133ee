//! The audit subsystem's hook handler: which events it takes and what it adds.
//!
//! * PostToolUse / PostToolUseFailure / UserPromptSubmit: read `.current_session`, append one
//!   line (two for a correction) to its buffer. O(1): no scan, no git.
//! * Stop / PreCompact / SessionEnd: move the buffer to pending. Nothing printed.
//! * SessionStart: start the auto session (with git's baseline), then the recap (L0/L1) and
//!   the unfinished sessions as one context section.

use super::lifecycle;
use super::record;
use super::recover;
use super::store::{Store, BUFFER};
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
        let auto = project.config().audit.auto_start;
        let now = project.now();
        let claude_session = event.common.session_id.as_str();
        match &event.kind {
            EventKind::PostToolUse(call) | EventKind::PostToolUseFailure(call) => {
                let Some(id) = lifecycle::current_or_start(&store, auto, now, None)? else {
                    return Ok(Contribution::default());
                };
                let failed = matches!(event.kind, EventKind::PostToolUseFailure(_));
                let rec = record::tool_record(
                    call,
                    failed,
                    claude_session,
                    event.common.agent_type.as_deref(),
                    now,
                    &project.root,
                    project.redactor(),
                );
                jsonl::append(&store.run_dir(&id)?.join(BUFFER), &rec, store.file_mode())?;
                // The session may have ended since `.current_session` was read; the record is
                // already written, so a failure here changes nothing for the caller.
                let _ = lifecycle::after_append(&store, &id);
                Ok(Contribution::default())
            }
            EventKind::UserPromptSubmit { prompt } => {
                let Some(id) = lifecycle::current_or_start(&store, auto, now, None)? else {
                    return Ok(Contribution::default());
                };
                let patterns =
                    record::compile_patterns(&project.config().audit.correction_patterns);
                let buffer = store.run_dir(&id)?.join(BUFFER);
                for rec in record::prompt_records(
                    prompt,
                    &patterns,
                    claude_session,
                    now,
                    project.redactor(),
                ) {
                    jsonl::append(&buffer, &rec, store.file_mode())?;
                }
                let _ = lifecycle::after_append(&store, &id);
                Ok(Contribution::default())
            }
            EventKind::Stop { .. }
            | EventKind::PreCompact { .. }
            | EventKind::SessionEnd { .. } => {
                lifecycle::flush(&store)?;
                Ok(Contribution::default())
            }
            EventKind::SessionStart { .. } => session_start(&store, auto, project),
            _ => Ok(Contribution::default()),
        }
    }
}

/// The SessionStart recap.
fn session_start(store: &Store, auto: bool, project: &Project) -> Result<Contribution> {
    let now = project.now();
    let current = lifecycle::current_or_start(store, auto, now, Some(&project.root))?;
    let (index, _) = super::index::load(store)?;
    let mut body = String::new();
    match &current {
        Some(id) => {
            let meta = super::store::read_meta(store, id)?;
            body.push_str(&format!(
                "Recording tool calls to audit session {id} — {}.",
                meta.task
            ));
            if meta.task == "(auto)" {
                body.push_str(" Name it with /baton:start \"task\" when the task is clear.");
            }
            let records = super::trail::session_records(&store.run_dir(id)?, id)?;
            if !records.records.is_empty() {
                body.push_str("\n\n");
                body.push_str(&recover::l1(store, None)?);
            }
            if index.sessions.iter().any(|e| &e.id != id) {
                body.push_str("\n\nRecent sessions:\n");
                body.push_str(&recover::l0(&index));
            }
        }
        None => body.push_str(
            "No audit session is current and audit.auto_start is off, so this session's tool \
             calls are not recorded. Start one with /baton:start \"task\" \
             (or `baton audit start \"task\"`).",
        ),
    }
    let unfinished = recover::unfinished(&index, current.as_deref());
    if !unfinished.is_empty() {
        body.push_str("\n\n");
        body.push_str(&recover::unfinished_text(&unfinished));
    }
    Ok(Contribution {
        sections: vec![Section::new("Audit trail", body, 4).source("baton audit recover")],
        ..Contribution::default()
    })
}
