//! `.rune/progress.md` as other subsystems read it: the bridge writes the file (save.rs), so
//! the bridge owns its reader. The daily report's backlog takes the blocked items from here
//! (through `core::project::Readers`), never by parsing the file its own way.

use super::entries::{heading_of, newest_first, progress_items, split_entries};
use super::store::{self, Rune};
use crate::core::fsx;
use crate::core::project::Project;
use chrono::{DateTime, Utc};

/// The label of the blocked items in a progress entry (`**Blocked:**`, as save writes it).
const BLOCKED: &str = "Blocked";

/// The blocked items of the newest progress entry written before `until` (an entry whose
/// heading has no readable stamp counts as written before); none when there is no `.rune/`,
/// no such entry, or the file cannot be read safely (a symlinked folder, a file that is not
/// regular).
pub(crate) fn blocked_items(project: &Project, until: DateTime<Utc>) -> Vec<String> {
    let rune = Rune::of(project);
    if crate::core::fsx::refuse_symlink(&rune.dir).is_err() {
        return Vec::new();
    }
    let path = rune.path(store::PROGRESS);
    if !store::is_regular(&path) {
        return Vec::new();
    }
    newest_before(&path, until)
        .map(|entry| progress_items(&entry, BLOCKED))
        .unwrap_or_default()
}

/// The newest entry of `path` (by its stamp, wherever a merge put it) written before
/// `until`: among the entries of the file's end in the common case, else the file read
/// further back (a report of an earlier day; not on the hook path). An entry without a
/// readable stamp counts as written before, after every dated one.
fn newest_before(path: &std::path::Path, until: DateTime<Utc>) -> Option<String> {
    let mut window: u64 = 64 * 1024;
    loop {
        let (text, whole) = fsx::read_tail(path, window).ok()??;
        let entries = newest_first(split_entries(&text), |e| store::parse_stamp(heading_of(e)));
        let found = entries
            .into_iter()
            .find(|e| store::parse_stamp(heading_of(e)).is_none_or(|written| written < until));
        if found.is_some() || whole {
            return found;
        }
        window = window.saturating_mul(4);
    }
}
