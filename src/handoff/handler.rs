//! The handoff subsystem's hook handler.
//!
//! - SessionStart: offers the newest artefact of this repository (its next action and the
//!   resume command) to the one "Resume here" section (`core::resume`).
//! - PreCompact with `trigger: auto`: saves a minimal artefact (see `auto`) under a fresh id,
//!   where the project keeps artefacts (`datarim/sessions/` exists). It prints nothing: no
//!   compaction instructions.

use super::{auto, replay, resume_block, session, writer, KILL_SWITCH};
use crate::core::config::Config;
use crate::core::error::Result;
use crate::core::event::{EventKind, EventName, HookEvent};
use crate::core::handler::{Contribution, Handler};
use crate::core::project::Project;
use crate::core::resume::{Precedence, ResumePoint};
use crate::core::time;
use chrono::{DateTime, Utc};
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

/// Artefacts looked at from the newest on, for the newest one saved on purpose: a session
/// start reads no folder that grows with history.
const NEWEST_LOOKED_AT: usize = 8;

/// The newest artefact as a resume point (the one "Resume here" shows it): its next action
/// and the command that resumes from it. When the newest is an automatic one, the newest
/// saved on purpose (among the newest few) is offered too: an explicit save outranks an
/// automatic one, and must not drop out of sight because a compaction came after it.
fn session_start(project: &Project) -> Contribution {
    let dir = session::sessions_dir(project);
    let ids = session::list(&dir);
    // Read lazily: an artefact saved on purpose as the newest is the only one read.
    let mut newest = ids
        .iter()
        .take(NEWEST_LOOKED_AT)
        .filter_map(|id| replay::summary(&dir, id));
    let Some(first) = newest.next() else {
        return Contribution::default();
    };
    let mut resume = vec![artefact_point(project, &dir, &first)];
    if first.automatic {
        resume.extend(
            newest
                .find(|s| !s.automatic)
                .map(|s| artefact_point(project, &dir, &s)),
        );
    }
    Contribution {
        resume,
        ..Contribution::default()
    }
}

/// The artefact `newest` of `dir` as a resume point.
fn artefact_point(
    project: &Project,
    dir: &std::path::Path,
    newest: &replay::Summary,
) -> ResumePoint {
    let cmd = super::resume_command(project.config());
    // Redacted before it is cut: a cut through a secret leaves a piece the redactor (which
    // the hook's output passes again) no longer recognises.
    let next = resume_block::sanitize_annotation(&project.redact(&newest.next_action));
    let by = replay::captured_by_label(&newest.captured_by)
        .map(|b| format!(" by {b}"))
        .unwrap_or_default();
    let (precedence, what) = if newest.automatic {
        (Precedence::Automatic, "automatic handoff")
    } else {
        (Precedence::Explicit, "handoff")
    };
    let point = ResumePoint::new(
        format!("{what} {}{by}", newest.id),
        session::display_path(&project.root, &session::artefact_path(dir, &newest.id)),
        precedence,
        time::parse(&newest.captured_at),
        if next.is_empty() {
            "re-read the saved session and continue its work".to_string()
        } else {
            next
        },
    )
    .id(session::point_id(&newest.id))
    .generic_if(newest.automatic && newest.next_action == super::auto::GENERIC_NEXT)
    .how(format!(
        "the user runs `{cmd} {}` (it re-checks the artefact's claims first)",
        newest.id
    ));
    // Written by the model, or by baton from the session's record: offered as the next
    // action only when the integrity scan passes it.
    match crate::core::trust::doubt_of_action(&point.action, project.redactor()) {
        Some(why) => point.untrusted(why),
        None => point,
    }
}

/// The newest artefact saved on purpose (not an automatic one): when it was captured. What
/// the bridge asks to tell whether a checkpoint was superseded.
pub(crate) fn newest_saved(project: &Project) -> Option<DateTime<Utc>> {
    let dir = session::sessions_dir(project);
    // The newest few only: a session start reads no folder that grows with history.
    session::list(&dir)
        .iter()
        .take(NEWEST_LOOKED_AT)
        .filter_map(|id| replay::summary(&dir, id))
        .find(|s| !s.automatic)
        .and_then(|s| time::parse(&s.captured_at))
}

/// The automatic save at an automatic compaction, only in a project that keeps handoff
/// artefacts (its sessions folder exists): elsewhere the digest capture keeps covers it, and
/// no folder is created in a project that never used the handoff.
fn pre_compact(project: &Project, session_id: &str) -> Result<()> {
    if !project.config().handoff.auto_save_on_compact
        || project.env(KILL_SWITCH).as_deref() == Some("1")
        || !project.root.is_dir()
        || !session::sessions_dir(project).is_dir()
    {
        return Ok(());
    }
    let req = auto::request(project, session_id, AUTO_LOCK_TIMEOUT)?;
    writer::write(&req, project)?;
    Ok(())
}
