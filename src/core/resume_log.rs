//! What became of the resume points a session start offered: which point each Claude session
//! was given as its next action (so a session that went on from it does not count as work
//! that supersedes it), and which saves were picked up for good (a handoff after its
//! `continue`), so "Resume here" stops naming them.
//!
//! One JSON line per fact in `<XDG state>/projects/<key>/resume-log.jsonl`, private to the
//! user (0700 folders, 0600 file): the one folder both the hooks and the CLI reach. Appended
//! under the lock every append takes, never rewritten (a line a session start: about a
//! hundred bytes); read from its last `TAIL` bytes only, so a session start never reads a
//! log that grows with history whole. `baton clean` removes it. Losing it costs little: a
//! save that was picked up is named again, and says how old it is.

use super::error::Result;
use super::fsx;
use super::paths;
use super::project::Project;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The log's file name in the project's private state folder.
const FILE: &str = "resume-log.jsonl";
/// Bytes read from the log's end (about 300 facts; older ones no longer matter: a session
/// that went on from a save, or a handoff continued, that long ago was overtaken since).
const TAIL: u64 = 32 * 1024;

/// One fact.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
struct Line {
    /// When it was written (RFC 3339).
    at: String,
    /// The Claude session a point was offered to.
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<String>,
    /// The point offered (`ResumePoint::id`).
    #[serde(skip_serializing_if = "Option::is_none")]
    offered: Option<String>,
    /// The point picked up for good.
    #[serde(skip_serializing_if = "Option::is_none")]
    picked_up: Option<String>,
}

/// What the log says, newest facts last.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Log {
    /// (Claude session, point offered to it).
    pub offered: Vec<(String, String)>,
    /// Points picked up for good.
    pub picked_up: Vec<String>,
}

impl Log {
    /// The point offered to `session` at its start, if any.
    pub fn offered_to(&self, session: &str) -> Option<&str> {
        self.offered
            .iter()
            .rev()
            .find(|(s, _)| s == session)
            .map(|(_, id)| id.as_str())
    }

    /// Whether point `id` was picked up for good.
    pub fn is_picked_up(&self, id: &str) -> bool {
        self.picked_up.iter().any(|p| p == id)
    }
}

/// The log's path for this project (none without a home for private state).
fn path(project: &Project) -> Option<PathBuf> {
    paths::project_state_dir(&project.ctx.env, &project.root).map(|d| d.join(FILE))
}

/// Reads the log's end; an absent or unreadable log says nothing.
pub fn read(project: &Project) -> Log {
    let mut log = Log::default();
    let Some(text) = path(project)
        .and_then(|p| fsx::read_tail(&p, TAIL).ok().flatten())
        .map(|(text, _)| text)
    else {
        return log;
    };
    for line in text.lines() {
        let Ok(l) = serde_json::from_str::<Line>(line) else {
            continue;
        };
        match (l.session, l.offered, l.picked_up) {
            (Some(s), Some(o), _) => log.offered.push((s, o)),
            (_, _, Some(p)) => log.picked_up.push(p),
            _ => {}
        }
    }
    log
}

/// Records that `point` was offered to Claude session `session` as its next action.
pub fn record_offered(project: &Project, session: &str, point: &str) -> Result<()> {
    append(
        project,
        Line {
            session: Some(session.to_string()),
            offered: Some(point.to_string()),
            ..Line::default()
        },
    )
}

/// Records that `point` was picked up for good (a handoff continued).
pub fn record_picked_up(project: &Project, point: &str) -> Result<()> {
    append(
        project,
        Line {
            picked_up: Some(point.to_string()),
            ..Line::default()
        },
    )
}

fn append(project: &Project, mut line: Line) -> Result<()> {
    let Some(path) = path(project) else {
        return Ok(());
    };
    let Some(state) = paths::state_dir(&project.ctx.env) else {
        return Ok(());
    };
    if let Some(dir) = path.parent() {
        fsx::ensure_private_tree(&state, dir)?;
    }
    line.at = super::time::rfc3339(project.now());
    super::jsonl::append(&path, &line, fsx::PRIVATE_FILE)
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // the test sets up its folder directly
mod tests {
    use super::*;
    use crate::core::clock::Clock;
    use crate::core::config::Config;
    use crate::core::ctx::{Ctx, Env};
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn offered_and_picked_up_points_read_back() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("proj");
        std::fs::create_dir_all(&root).unwrap();
        let env = Env::fixed(vec![(
            "XDG_STATE_HOME".to_string(),
            t.path().join("state").to_string_lossy().into_owned(),
        )]);
        let now = crate::core::time::parse("2026-12-01T12:00:00Z").unwrap();
        let project = Project::with_config(
            Ctx::for_test(env, Clock::fixed(now), root.clone()),
            root,
            Config::default(),
        );
        assert_eq!(read(&project), Log::default());
        record_offered(&project, "s1", "checkpoint:a").unwrap();
        record_offered(&project, "s2", "handoff:B").unwrap();
        record_picked_up(&project, "handoff:B").unwrap();
        let log = read(&project);
        assert_eq!(log.offered_to("s1"), Some("checkpoint:a"));
        assert_eq!(log.offered_to("s3"), None);
        assert!(log.is_picked_up("handoff:B") && !log.is_picked_up("checkpoint:a"));
        let file = path(&project).unwrap();
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}
