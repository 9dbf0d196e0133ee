//! audit: named audit sessions over a crash-safe trail of tool calls, changes and
//! corrections (`.boo/`). The hooks record (handler.rs, with tool_call.rs and prompt.rs); the
//! CLI starts, ends, recalls and reports (`baton audit …`). Layout: store.rs; the records'
//! format: record.rs; both in docs/audit.md.

mod activity;
mod auto;
mod cursor;
mod day;
mod end;
mod handler;
mod index;
mod index_file;
mod integrity;
mod lifecycle;
mod own;
mod persist;
mod prompt;
mod recall_docs;
mod record;
mod recover;
mod report;
mod report_html;
mod report_review;
mod sidecar;
mod slice;
mod start;
mod stats;
mod status;
mod store;
mod summary;
mod tool_call;
mod trail;

pub(crate) use activity::session_changes;
pub(crate) use handler::AuditHandler;
pub(crate) use recall_docs::RECALL_DOCS;

use crate::core::error::Result;
use crate::core::io::{out, outln};
use crate::core::project::Project;
use store::Store;

/// `baton audit` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Start a named audit session (adopts a session the hooks started on their own)
    Start {
        /// What this session is for, e.g. "fix the login bug"
        task: String,
        /// Start even though another session is current (it stays in_progress)
        #[arg(long)]
        force: bool,
    },
    /// End the current session: move its records to the trail, check integrity, summarise
    End {
        /// End this session instead of the current one (e.g. an unfinished one)
        #[arg(long, value_name = "ID")]
        session: Option<String>,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Mark a correction as persisted (it became a convention, instinct or note)
    Persist {
        /// The correction's id (c-…), as `baton audit status` or the summary shows it
        correction_id: String,
        /// Where it now lives (a file path)
        #[arg(long, value_name = "PATH")]
        to: String,
    },
    /// Graded recall: L0-L2 by default, `full` for the whole trail (L3), or one session by id
    Recover {
        /// `full`, or a session id
        target: Option<String>,
    },
    /// The daily report: `report-daily [YYYYMMDD] [review] [--html]`
    ReportDaily {
        /// A date (YYYYMMDD, default today) and/or `review`
        args: Vec<String>,
        /// Also write a self-contained HTML page with a chart and a timeline
        #[arg(long)]
        html: bool,
    },
    /// What the audit subsystem has in this project
    Status {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Rebuild .boo/index.json from the run directories
    #[command(hide = true)]
    Reindex,
}

/// Runs a `baton audit` command; returns the exit code.
pub(crate) fn run(command: Command, project: &Project) -> Result<i32> {
    let store = Store::new(&project.root, project.config());
    if !matches!(command, Command::Status { .. } | Command::Recover { .. }) {
        project.require_state()?;
    }
    match command {
        Command::Start { task, force } => {
            // The task is stored (session.json, the index) and shown in every report: a
            // secret pasted into it is redacted before it is kept.
            let task = project.redact(&task);
            let text = start::start(&store, project, &task, force)?;
            out!("{}", project.redact(&text));
            Ok(0)
        }
        Command::End { session, json } => end_command(&store, project, session.as_deref(), json),
        Command::Persist { correction_id, to } => {
            outln!(
                "{}",
                persist::persist(&store, &correction_id, &to, project.now())?
            );
            Ok(0)
        }
        Command::Recover { target } => {
            let text = recover::recover(&store, target.as_deref())?;
            out!("{}", project.redact(&text));
            Ok(0)
        }
        Command::ReportDaily { args, html } => {
            let (date, review) = report::parse_args(&args, project.now())?;
            let out = report::run(&store, project, date, review, html)?;
            out!("{}", project.redact(&out));
            Ok(0)
        }
        Command::Status { json } => status::show(&store, project, json),
        Command::Reindex => {
            let i = index::update(&store, |i| {
                *i = index::Index {
                    seq: i.seq,
                    ..index::rebuild(&store)
                };
                Ok(())
            })?;
            outln!(
                "indexed {} session(s) in {}",
                i.sessions.len(),
                store.index_file().display()
            );
            Ok(0)
        }
    }
}

/// `baton audit end [--session ID] [--json]`.
fn end_command(store: &Store, project: &Project, session: Option<&str>, json: bool) -> Result<i32> {
    let discarded = auto::discard_empty_to_end(store, session)?;
    // What `end` recorded in the index's journal goes into index.json at once.
    if let Some(id) = discarded {
        index::fold(store)?;
        if json {
            outln!(
                "{}",
                serde_json::json!({"session_id": id, "status": "removed", "integrity_ok": true, "problems": []})
            );
        } else {
            outln!(
                "Session {id} was started by the hooks and recorded nothing: removed it, \
                 there is nothing to end or summarise."
            );
        }
        return Ok(0);
    }
    let ended = end::end(store, project, session)?;
    index::fold(store)?;
    // The prompt or Bash call that ran this is reported after it: it joins this session.
    store.set_last_ended(&ended.id)?;
    if json {
        outln!(
            "{}",
            serde_json::json!({
                "session_id": ended.id,
                "status": "completed",
                "integrity_ok": ended.problems.is_empty(),
                "problems": ended.problems,
            })
        );
    } else {
        out!("{}", project.redact(&ended.summary));
        outln!(
            "\nSummary written to {}",
            store.run_dir(&ended.id)?.join(store::SUMMARY).display()
        );
    }
    Ok(0)
}
