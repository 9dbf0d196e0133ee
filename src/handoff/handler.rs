//! The handoff subsystem's hook handler.
//!
//! - SessionStart: names the newest saved artefact of this repository (id, next action, the
//!   resume command line) as one short protected section.
//! - PreCompact with `trigger: auto`: saves a minimal artefact (see `auto`) under a fresh id.
//!   It prints nothing: no compaction instructions.

use super::{auto, replay, resume_block, session, writer, KILL_SWITCH};
use crate::core::budget::Section;
use crate::core::config::Config;
use crate::core::error::Result;
use crate::core::event::{EventKind, EventName, HookEvent};
use crate::core::handler::{Contribution, Handler};
use crate::core::project::Project;
use std::time::Duration;

/// The lock wait of the automatic save (its id is fresh, so the lock is normally free).
const AUTO_LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// The handoff handler on the bus.
pub(crate) struct HandoffHandler;

impl Handler for HandoffHandler {
    fn name(&self) -> &'static str {
        "handoff"
    }

    fn subscribes(&self, event: EventName) -> bool {
        matches!(event, EventName::SessionStart | EventName::PreCompact)
    }

    fn enabled(&self, config: &Config) -> bool {
        config.handoff.enabled
    }

    fn handle(&self, event: &HookEvent, project: &Project) -> Result<Contribution> {
        match &event.kind {
            EventKind::SessionStart { .. } => Ok(session_start(project)),
            EventKind::PreCompact { trigger, .. } if trigger == "auto" => {
                pre_compact(project, &event.common.session_id)?;
                Ok(Contribution::default())
            }
            _ => Ok(Contribution::default()),
        }
    }
}

fn session_start(project: &Project) -> Contribution {
    let dir = session::sessions_dir(project);
    let Some(newest) = session::list(&dir)
        .iter()
        .find_map(|id| replay::summary(&dir, id))
    else {
        return Contribution::default();
    };
    let cmd = super::resume_command(project.config());
    // Redacted before it is cut: a cut through a secret leaves a piece the redactor (which
    // the hook's output passes again) no longer recognises.
    let next = resume_block::sanitize_annotation(&project.redact(&newest.next_action));
    let saved = session::saved_time(&newest.id).unwrap_or_default();
    let by = replay::captured_by_label(&newest.captured_by)
        .map(|b| format!(" by {b}"))
        .unwrap_or_default();
    let body = format!(
        "Newest saved session artefact here: {} (saved {saved} UTC{by}).\nNext action: {}\nTo resume from it, the user runs: {cmd} {}",
        newest.id,
        if next.is_empty() { "(none given)" } else { &next },
        newest.id
    );
    Contribution {
        sections: vec![Section::new("Session handoff", body, 40)
            .protected()
            .source(session::display_path(
                &project.root,
                &session::artefact_path(&dir, &newest.id),
            ))],
        ..Contribution::default()
    }
}

fn pre_compact(project: &Project, session_id: &str) -> Result<()> {
    if !project.config().handoff.auto_save_on_compact
        || project.env(KILL_SWITCH).as_deref() == Some("1")
        || !project.root.is_dir()
    {
        return Ok(());
    }
    let req = auto::request(project, session_id, AUTO_LOCK_TIMEOUT)?;
    writer::write(&req, project)?;
    Ok(())
}
