//! The handoff subsystem's hook handler.
//!
//! - SessionStart: names the newest saved artefact of this repository (id, next action, the
//!   resume command line) as one short protected section.
//! - PreCompact with `trigger: auto`: saves a minimal artefact (see `auto`) under a fresh id.
//!   It prints nothing: no compaction instructions.

use super::{auto, replay, resume_block, session, writer, KILL_SWITCH};
use crate::core::budget::Section;
use crate::core::error::Result;
use crate::hook::bus::{Contribution, Handler, HookEnv};
use crate::hook::input::{EventKind, EventName, HookEvent};
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

    fn enabled(&self, config: &crate::core::config::Config) -> bool {
        config.handoff.enabled
    }

    fn handle(&self, event: &HookEvent, env: &HookEnv<'_>) -> Result<Contribution> {
        match &event.kind {
            EventKind::SessionStart { .. } => Ok(session_start(env)),
            EventKind::PreCompact { trigger, .. } if trigger == "auto" => {
                pre_compact(env)?;
                Ok(Contribution::default())
            }
            _ => Ok(Contribution::default()),
        }
    }
}

fn session_start(env: &HookEnv<'_>) -> Contribution {
    let dir = session::sessions_dir(&env.root, env.config);
    let Some(newest) = session::list(&dir)
        .iter()
        .find_map(|id| replay::summary(&dir, id))
    else {
        return Contribution::default();
    };
    let cmd = super::resume_command(env.config);
    let next = resume_block::sanitize_annotation(&newest.next_action);
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
                &env.root,
                &session::artefact_path(&dir, &newest.id),
            ))],
        ..Contribution::default()
    }
}

fn pre_compact(env: &HookEnv<'_>) -> Result<()> {
    if !env.config.handoff.auto_save_on_compact
        || env.ctx.env.var(KILL_SWITCH).as_deref() == Some("1")
        || !env.root.is_dir()
    {
        return Ok(());
    }
    let req = auto::request(
        &env.root,
        env.config,
        env.ctx.clock.now(),
        AUTO_LOCK_TIMEOUT,
    )?;
    writer::write(&req, env.config)?;
    Ok(())
}
