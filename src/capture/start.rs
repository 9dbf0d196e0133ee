//! What capture does at a session start, for every source:
//!
//! 1. notes the starting session's transcript in its digest (`update::register`), so that a
//!    session killed before its first Stop is still found later;
//! 2. catches up what earlier sessions of this project left unread (`update::catch_up`,
//!    bounded): a session killed in the middle of a turn has that turn in its digest before
//!    anything is shown;
//! 3. gives what the start needs:
//!    - a fresh start (`startup`, `clear`): "Where the last session left off" from the
//!      newest other session that did work or was cut off (a chat that did nothing is passed
//!      over), and that session as a resume point;
//!    - after a compaction: "Where this session stood before the compaction" from this
//!      session's own digest (PreCompact brought it up to date), and it as a resume point —
//!      in every project, with or without `.rune/`;
//!    - a resumed conversation (`--continue`, `--resume`): no section (Claude Code replays
//!      the conversation); this session and the newest other one as resume points, so "Resume
//!      here" can say what changed elsewhere since.

use super::digest::Digest;
use super::intent;
use super::section::{self, COMPACT_TITLE, TITLE};
use super::store::{self, Stored};
use super::update::{self, CATCH_UP_BUDGET};
use crate::core::event::Common;
use crate::core::handler::Contribution;
use crate::core::project::Project;
use crate::core::resume::Start;

/// How long a start after a compaction waits, at most, for the transcript to be written out.
const COMPACT_SETTLE: std::time::Duration = std::time::Duration::from_millis(300);

/// capture's part of a session start with `source`.
pub(crate) fn session_start(project: &Project, common: &Common, source: &str) -> Contribution {
    let sid = common.session_id.as_str();
    let start = Start::of_source(source);
    // Best effort, both: a start never fails for them.
    let _ = update::register(project, common);
    if start == Start::Compact {
        // The compaction's last lines are being written: read them with the rest.
        if let Ok(Some(path)) = super::transcript::locate(project, common) {
            super::transcript::settle(&path, COMPACT_SETTLE);
        }
    }
    let recent = update::catch_up(
        project,
        (start == Start::Fresh).then_some(sid),
        CATCH_UP_BUDGET,
    );
    let chars = project.config().capture.section_chars;
    let own = || {
        recent
            .iter()
            .find(|(id, _)| id == sid)
            .map(|(_, s)| s.digest.clone())
            .or_else(|| store::find(project, Some(sid), None).map(|(_, s)| s.digest))
    };
    let other = newest_other(&recent, sid);
    let mut out = Contribution::default();
    match start {
        Start::Fresh => {
            if let Some(d) = other {
                out.sections.extend(section::section(d, TITLE, chars));
                out.resume
                    .extend(section::resume_point(d, project.redactor()));
            }
        }
        Start::Compact => {
            if let Some(d) = own() {
                out.sections
                    .extend(section::section(&d, COMPACT_TITLE, chars));
                // The turn under way was not interrupted: it goes on after the compaction.
                let red = project.redactor();
                out.resume
                    .extend(section::resume_point(&d, red).map(|mut p| {
                        if let Some(rest) = p.action.strip_prefix(intent::INTERRUPTED) {
                            p.action = format!("Go on with the request: {rest}");
                        }
                        p
                    }));
            }
        }
        Start::Resumed => {
            let red = project.redactor();
            out.resume
                .extend(own().and_then(|d| section::resume_point(&d, red)));
            out.resume
                .extend(other.and_then(|d| section::resume_point(d, red)));
        }
    }
    out
}

/// The digest of the other session of this project that stated its intent last (did work,
/// or was cut off), among the most recently updated few — not one still running in another
/// terminal (it is not where anything was left off, and its work is not to be taken over).
fn newest_other<'a>(recent: &'a [(String, Stored)], sid: &str) -> Option<&'a Digest> {
    let me = crate::core::proc::host();
    recent
        .iter()
        .filter(|(id, s)| id != sid && !s.running(me))
        .map(|(_, s)| &s.digest)
        .filter(|d| section::worth_saying(d))
        .max_by_key(|d| intent::stated_at(d))
}

/// The digest of this project's session that stated its intent last (did work, or was cut
/// off), among the most recently updated few, with its path: what the bridge weighs a
/// checkpoint against, the same session the start chose.
pub(crate) fn newest_stated(project: &Project) -> Option<(std::path::PathBuf, Stored)> {
    let base = store::write_base(project)?;
    let dir = store::sessions_dir(&base, project);
    store::list(&dir)
        .into_iter()
        .take(update::CATCH_UP_LOOKS_AT)
        .filter_map(|(_, path, _)| store::load(&path).map(|s| (path, s)))
        .filter(|(_, s)| section::worth_saying(&s.digest))
        .max_by_key(|(_, s)| intent::stated_at(&s.digest))
}
