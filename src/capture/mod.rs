//! capture: continuity without the model. Most sessions end without anyone saving — the
//! terminal is closed, the session crashes, Claude Code compacts on its own — so baton reads
//! Claude Code's own record of each session, read-only and deterministically, and keeps a
//! small digest of what the next session needs: what was asked, what is done, what is open,
//! what failed last, which files are in flight, what was about to happen next.
//!
//! * `transcript` finds the session's transcript (checked: an event can be forged) and reads
//!   only the bytes added since the last read (a cursor: offset, file identity, size);
//! * `entry` reads one transcript line, leniently and cheaply; `fold` applies it to the
//!   digest (`core::shell` says what a shell command writes, `tasks` follows the task list,
//!   including Claude Code's task files);
//! * `digest` is the digest itself (versioned serde, redacted and clipped before it is kept);
//!   `store` keeps it, private to the user, outside the repository (see there for where and
//!   why: `CLAUDE_PLUGIN_DATA` when Claude Code runs baton, else the XDG state folder);
//! * `update` is one update (Stop, PreCompact, SessionEnd), `section` the SessionStart text,
//!   `handler` the bus handler;
//! * other subsystems read a digest as a `core::recap::Recap`, through
//!   `Project::session_recap` (wired to `recap` below), never from capture's files.

mod compaction;
mod digest;
mod entry;
mod fold;
mod handler;
mod intent;
mod recall_docs;
mod recap;
mod section;
mod start;
mod store;
mod tasks;
mod transcript;
mod update;

pub(crate) use handler::CaptureHandler;
pub(crate) use recall_docs::RECALL_DOCS;

use crate::core::io;
use crate::core::io::outln;
use crate::core::project::Project;
use crate::core::recap::Recap;
use std::path::Path;

/// The reader other subsystems get (`Project::session_recap`): the recap of session
/// `session_id`, or — none named — of the session of this project that stated its intent
/// last (the one "Resume here" weighs: `start::newest_stated`), else the most recently
/// updated one.
pub(crate) fn recap(project: &Project, session_id: Option<&str>) -> Option<Recap> {
    if !project.config().capture.enabled {
        return None;
    }
    if session_id.is_none() {
        if let Some((path, s)) = start::newest_stated(project) {
            return Some(recap::recap(&s.digest, &path));
        }
    }
    store::find(project, session_id, None).map(|(path, s)| recap::recap(&s.digest, &path))
}

/// `baton capture` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Where this project's session digests live, how many there are, and the newest
    Status {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Show a session digest: the newest of this project, or SESSION_ID's
    Show {
        /// Claude Code's session id (default: the most recently updated session)
        session_id: Option<String>,
        /// Print the stored digest as JSON instead of text
        #[arg(long)]
        json: bool,
    },
}

/// Runs a `baton capture` subcommand; returns the exit code.
pub(crate) fn run(cmd: Command, project: &Project) -> i32 {
    match cmd {
        Command::Status { json } => status(project, json),
        Command::Show { session_id, json } => show(project, session_id.as_deref(), json),
    }
}

fn status(project: &Project, json: bool) -> i32 {
    let dir = store::write_base(project).map(|b| store::sessions_dir(&b, project));
    // A session start notes its session before anything is read: that note is no digest yet.
    let digests = dir.as_deref().map_or(0, |d| {
        store::list(d)
            .iter()
            .filter(|(_, path, _)| store::load(path).is_some_and(|s| s.cursor.is_some()))
            .count()
    });
    let newest = store::find(project, None, None);
    if json {
        io::print_json(&serde_json::json!({
            "enabled": project.config().capture.enabled,
            "dir": dir,
            "digests": digests,
            "newest": newest.as_ref().map(|(p, s)| serde_json::json!({
                "session_id": s.digest.session_id,
                "updated": s.digest.updated,
                "path": p,
            })),
        }));
        return 0;
    }
    let state = if project.config().capture.enabled {
        "on"
    } else {
        "off (capture.enabled: false)"
    };
    outln!("capture {state} — {}", project.root.display());
    match &dir {
        Some(d) => outln!(
            "  digests: {} (private to you: 0700 folders, 0600 files)",
            d.display()
        ),
        None => outln!("  no place for digests: HOME is not set (set HOME or XDG_STATE_HOME)"),
    }
    outln!("  {digests} digest(s) for this project");
    if let Some((path, s)) = &newest {
        outln!(
            "  newest: session {} (updated {}) — {}",
            s.digest.session_id,
            s.digest.updated.as_deref().unwrap_or("?"),
            path.display()
        );
    }
    0
}

fn show(project: &Project, session_id: Option<&str>, json: bool) -> i32 {
    let Some((path, stored)) = store::find(project, session_id, None) else {
        eprintln!(
            "baton: no session digest {}for this project yet (digests are written at Stop, PreCompact and SessionEnd; `baton capture status` says where)",
            session_id.map(|s| format!("{s} ")).unwrap_or_default()
        );
        return 1;
    };
    if json {
        io::print_json(
            &serde_json::json!({ "path": path, "digest": stored.digest, "cursor": stored.cursor }),
        );
        return 0;
    }
    io::print(&render(&stored.digest, &path));
    0
}

/// The whole digest as text (`baton capture show`).
fn render(d: &digest::Digest, path: &Path) -> String {
    let mut out = format!("session {}\n  digest: {}\n", d.session_id, path.display());
    let mut field = |name: &str, value: Option<&str>| {
        if let Some(v) = value {
            out.push_str(&format!("  {name}: {v}\n"));
        }
    };
    field("started", d.started.as_deref());
    field("last activity", d.last_activity.as_deref());
    field("ended", d.ended.as_deref());
    field("end reason", d.end_reason.as_deref());
    field("branch", d.branch.as_deref());
    field("head", d.head.as_deref());
    field("first request", d.first_request.as_deref());
    field("latest request", d.latest_request.as_deref());
    field("last assistant text", d.last_assistant.as_deref());
    for t in &d.tasks {
        let id =
            t.id.as_deref()
                .map(|i| format!("#{i} "))
                .unwrap_or_default();
        out.push_str(&format!("  task [{}] {id}{}\n", t.status, t.subject));
    }
    for f in &d.failures {
        out.push_str(&format!("  failed: {} — {}\n", f.command, f.error));
    }
    for f in &d.files {
        out.push_str(&format!("  file: {f}\n"));
    }
    for c in &d.corrections {
        out.push_str(&format!("  correction: {c}\n"));
    }
    for s in &d.subagents {
        out.push_str(&format!("  subagent: {s}\n"));
    }
    let c = &d.counts;
    out.push_str(&format!(
        "  read: {} bytes, {} entries ({} malformed, {} over the line limit), {} prompts, {} assistant messages, {} tool calls ({} failed), {} compactions, {} subagent entries\n",
        c.bytes_read, c.entries, c.malformed_lines, c.long_lines, c.prompts, c.assistant_messages, c.tool_calls, c.tool_errors, c.compactions, c.sidechain_entries
    ));
    out
}
