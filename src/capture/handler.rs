//! The capture subsystem's hook handler.
//!
//! - Stop, PreCompact, SessionEnd: update the session's digest from its transcript (only the
//!   bytes added since the last update). Never a block; nothing printed but, at PreCompact,
//!   what the summary should keep (`compaction.rs`). A transcript that should be read and cannot (a link, a
//!   FIFO, a device, another owner's file) is one error line, which the bus reports; one not
//!   written yet is nothing to read.
//! - SessionStart (every source): catch up what earlier sessions left unread, then "Where
//!   the last session left off" (fresh), "Where this session stood before the compaction"
//!   (compact), and the sessions as resume points (`start.rs`).
//! - SessionEnd also catches up another session that never finished, in what is left of its
//!   short time.
//!
//! On the bus, capture runs before the bridge and the handoff: at PreCompact the digest they
//! read (`Project::session_recap`) is already up to date.

use super::compaction;
use super::update::{update, Trigger};
use crate::core::config::Config;
use crate::core::error::Result;
use crate::core::event::{EventKind, EventName, HookEvent};
use crate::core::handler::{Contribution, Handler};
use crate::core::project::Project;

/// The time by which SessionEnd stops catching up other sessions (its own read comes first).
const SESSION_END_CATCH_UP: std::time::Duration = std::time::Duration::from_millis(700);

/// The capture handler on the bus.
pub(crate) struct CaptureHandler;

impl Handler for CaptureHandler {
    fn name(&self) -> &'static str {
        "capture"
    }

    fn subscribes(&self, event: EventName) -> bool {
        matches!(
            event,
            EventName::SessionStart
                | EventName::Stop
                | EventName::PreCompact
                | EventName::SessionEnd
        )
    }

    fn enabled(&self, config: &Config) -> bool {
        config.capture.enabled
    }

    fn runs_first(&self, event: EventName) -> bool {
        // The relay (Stop), the bridge and the handoff (PreCompact) read the digest.
        matches!(
            event,
            EventName::Stop | EventName::PreCompact | EventName::SessionEnd
        )
    }

    fn handle(&self, event: &HookEvent, project: &Project) -> Result<Contribution> {
        let common = &event.common;
        match &event.kind {
            EventKind::SessionStart { source } => {
                Ok(super::start::session_start(project, common, source))
            }
            EventKind::Stop {
                last_assistant_message,
                prompt_id,
                ..
            } => {
                let trigger = Trigger::Stop {
                    last_assistant: last_assistant_message.as_deref(),
                    prompt_id: prompt_id.as_deref(),
                };
                update(project, common, trigger)?;
                Ok(Contribution::default())
            }
            EventKind::PreCompact { .. } => {
                let Some(path) = update(project, common, Trigger::PreCompact)? else {
                    return Ok(Contribution::default());
                };
                let digest = super::store::load(&path).map(|s| s.digest);
                Ok(Contribution {
                    compaction_instructions: digest.as_ref().and_then(compaction::instructions),
                    ..Contribution::default()
                })
            }
            EventKind::SessionEnd { reason } => {
                let started = std::time::Instant::now();
                update(project, common, Trigger::SessionEnd { reason })?;
                // What is left of SessionEnd's short time: another session that never
                // finished (Claude Code cuts a plugin's SessionEnd off at 1.5 s).
                let left = SESSION_END_CATCH_UP.saturating_sub(started.elapsed());
                if !left.is_zero() {
                    super::update::catch_up(project, Some(&common.session_id), left);
                }
                Ok(Contribution::default())
            }
            _ => Ok(Contribution::default()),
        }
    }
}
