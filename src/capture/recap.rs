//! A digest as the `core::recap::Recap` other subsystems read (through
//! `Project::session_recap`), never capture's files.

use super::digest::Digest;
use super::intent::{self, Intent};
use crate::core::recap::{Recap, RecapFailure, RecapTask, TaskStatus};
use crate::core::time;
use std::path::Path;

/// The view other subsystems read (`core::recap`) of digest `d`, kept at `path`.
pub(crate) fn recap(d: &Digest, path: &Path) -> Recap {
    let at = |s: &Option<String>| s.as_deref().and_then(time::parse);
    Recap {
        session_id: d.session_id.clone(),
        started: at(&d.started),
        last_activity: at(&d.last_activity).or_else(|| at(&d.updated)),
        ended: at(&d.ended),
        end_reason: d.end_reason.clone(),
        first_request: d.first_request.clone(),
        latest_request: d.latest_request.clone(),
        corrections: d.corrections.clone(),
        tasks: d
            .tasks
            .iter()
            .filter_map(|t| {
                let status = match t.status.as_str() {
                    "pending" => TaskStatus::Pending,
                    "in_progress" => TaskStatus::InProgress,
                    "completed" => TaskStatus::Completed,
                    _ => return None,
                };
                Some(RecapTask {
                    id: t.id.clone(),
                    subject: t.subject.clone(),
                    status,
                })
            })
            .collect(),
        last_failure: d.failures.last().map(|f| RecapFailure {
            command: f.command.clone(),
            error: f.error.clone(),
        }),
        files: d.files.clone(),
        last_assistant: d.last_assistant.clone(),
        conclusion: d.last_conclusion().map(|t| t.conclusion.clone()),
        next_action: match intent::of(d) {
            Intent::Open { action, .. } => Some(action),
            _ => None,
        },
        last_work: at(&d.last_work),
        branch: d.branch.clone(),
        head: d.head.clone(),
        digest_path: path.to_path_buf(),
    }
}
