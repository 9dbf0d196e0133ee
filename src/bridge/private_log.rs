//! The session-log lines hooks write — a session's end, a compaction's summary — kept private
//! to the user, in `session-log.md` of the project's private folder
//! (`core::paths::project_state_dir`), never in `.rune/`: a hook never modifies a tracked
//! file, so `git status` stays clean and a `git pull` never finds baton's lines in its way.
//! The shared `.rune/session-log.md` holds what `baton bridge save` writes on purpose (and
//! commits). Load takes the newest line of either for "Last session"; recall searches both.

use super::store;
use crate::core::ctx::Env;
use crate::core::error::Result;
use crate::core::fsx::{self, Limit};
use crate::core::project::Project;
use crate::core::{paths, signal};
use std::path::{Path, PathBuf};

/// The file's name in the project's private folder.
pub(crate) const FILE: &str = store::SESSION_LOG;
/// Where a full log is moved (one generation kept).
const PREVIOUS: &str = "session-log.1.md";
/// The most of the log that recall reads.
const READ: Limit = Limit {
    what: "the private session log",
    max: 2 * 1024 * 1024,
};

/// The private session log of the project at `root`; `None` without a home folder.
pub(crate) fn path(env: &Env, root: &Path) -> Option<PathBuf> {
    paths::project_state_dir(env, root).map(|d| d.join(FILE))
}

/// Appends one line (a hook's own: quietly, as one locked write).
pub(crate) fn append(project: &Project, line: &str) -> Result<()> {
    signal::append_private_log(project, FILE, PREVIOUS, line)
}

/// The log's last `max` bytes (whole lines); `None` when there is none.
pub(crate) fn tail(env: &Env, root: &Path, max: u64) -> Option<String> {
    let path = path(env, root)?;
    fsx::read_tail(&path, max).ok().flatten().map(|(t, _)| t)
}

/// The whole log (at most 2 MiB: it is moved aside past 1 MiB), for recall.
pub(crate) fn read(env: &Env, root: &Path) -> Option<(PathBuf, String)> {
    let path = path(env, root)?;
    let text = fsx::read_lossy(&path, READ).ok()??;
    Some((path, text))
}
