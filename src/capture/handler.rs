//! The capture subsystem's hook handler.
//!
//! - Stop, PreCompact, SessionEnd: update the session's digest from its transcript (only the
//!   bytes added since the last update). Nothing printed: no context, no compaction
//!   instructions, never a block. A transcript that should be read and cannot (a link, a
//!   FIFO, a device, another owner's file) is one error line, which the bus reports; one not
//!   written yet is nothing to read.
//! - SessionStart on a fresh session (`startup`, `resume`, `clear`; not `compact`, where the
//!   session goes on with its own context): one protected section, "Where the last session
//!   left off", from the newest digest of another session of this project.
//!
//! On the bus, capture runs before the bridge and the handoff: at PreCompact the digest they
//! read (`Project::session_recap`) is already up to date.

use super::section;
use super::store;
use super::update::{update, Trigger};
use crate::core::config::Config;
use crate::core::error::Result;
use crate::core::event::{EventKind, EventName, HookEvent};
use crate::core::handler::{Contribution, Handler};
use crate::core::project::Project;

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
            EventKind::SessionStart { source } if source != "compact" => {
                // The newest other session that left something to resume.
                let Some((_, s)) =
                    store::find_where(project, None, Some(&common.session_id), |s| {
                        section::worth_saying(&s.digest)
                    })
                else {
                    return Ok(Contribution::default());
                };
                let chars = project.config().capture.section_chars;
                Ok(Contribution {
                    sections: section::section(&s.digest, chars).into_iter().collect(),
                    resume: section::resume_point(&s.digest).into_iter().collect(),
                    ..Contribution::default()
                })
            }
            EventKind::Stop {
                last_assistant_message,
                ..
            } => {
                let last_assistant = last_assistant_message.as_deref();
                update(project, common, Trigger::Stop { last_assistant })?;
                Ok(Contribution::default())
            }
            EventKind::PreCompact { .. } => {
                update(project, common, Trigger::PreCompact)?;
                Ok(Contribution::default())
            }
            EventKind::SessionEnd { reason } => {
                update(project, common, Trigger::SessionEnd { reason })?;
                Ok(Contribution::default())
            }
            _ => Ok(Contribution::default()),
        }
    }
}
