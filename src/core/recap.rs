//! A session recap: what baton captured, without the model, of one Claude Code session — what
//! was asked, which tasks stand where, what failed last, which files are in flight, what the
//! assistant said last. The capture subsystem builds it from Claude Code's own records (the
//! transcript and the task list) at Stop, PreCompact and SessionEnd; everyone else reads it
//! through `Project::session_recap`, never from capture's files.
//!
//! A plain view with no logic: every text is already redacted and clipped, every list bounded,
//! so a consumer may print it as it is. The model's explicit saves (a checkpoint, a handoff
//! artefact, a bridge save) take precedence over it; a recap is the automatic fallback.

use chrono::{DateTime, Utc};
use serde::Serialize;
use std::path::PathBuf;

/// What one session left behind, as captured from its transcript.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Recap {
    /// Claude Code's session id.
    pub session_id: String,
    /// The first entry of the transcript.
    pub started: Option<DateTime<Utc>>,
    /// The newest entry read (or the last update, when no entry had a time).
    pub last_activity: Option<DateTime<Utc>>,
    /// When SessionEnd was seen; `None` while the session runs, or when it ended without one
    /// (a crash, a killed terminal).
    pub ended: Option<DateTime<Utc>>,
    /// SessionEnd's `reason` (`clear`, `logout`, `prompt_input_exit`, `other`, …).
    pub end_reason: Option<String>,
    /// The first thing the user asked.
    pub first_request: Option<String>,
    /// The latest thing the user asked (may equal the first).
    pub latest_request: Option<String>,
    /// The user's latest corrections of the agent ("no, …", "don't …"), oldest first.
    pub corrections: Vec<String>,
    /// The task list with each task's latest status, in creation order; deleted tasks are
    /// left out.
    pub tasks: Vec<RecapTask>,
    /// The newest tool call that failed and has not succeeded since.
    pub last_failure: Option<RecapFailure>,
    /// Files the session changed or was changing (relative to the project root when inside
    /// it), least recent first.
    pub files: Vec<String>,
    /// The assistant's last text (its stated next step, often).
    pub last_assistant: Option<String>,
    /// The conclusion of the newest finished turn the user did not correct (its start and
    /// its end).
    pub conclusion: Option<String>,
    /// What the session left open, as one short imperative (from the task list, the turn it
    /// was cut off in, or its conclusion); `None` when it left nothing open.
    pub next_action: Option<String>,
    /// When the session last did work in the project (an edit, a command, a task update).
    pub last_work: Option<DateTime<Utc>>,
    /// The git branch at the last update.
    pub branch: Option<String>,
    /// The git HEAD (full SHA) at the last update.
    pub head: Option<String>,
    /// Where the digest behind this recap lives (private state, for "see …" pointers).
    pub digest_path: PathBuf,
}

/// One task of the session's task list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecapTask {
    /// Claude Code's task id (`1`, `2`, …), when known; `None` for a TodoWrite item.
    pub id: Option<String>,
    /// What the task is.
    pub subject: String,
    /// Where it stands.
    pub status: TaskStatus,
}

/// A task's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// Not started.
    Pending,
    /// Being worked on.
    InProgress,
    /// Done.
    Completed,
}

impl TaskStatus {
    /// The status as Claude Code spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Pending => "pending",
            TaskStatus::InProgress => "in_progress",
            TaskStatus::Completed => "completed",
        }
    }
}

/// A failed tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecapFailure {
    /// The command (Bash) or the tool and its target (`Edit src/lib.rs`).
    pub command: String,
    /// The first line of its error output that says what went wrong.
    pub error: String,
}
