//! `.rune/progress.md` as other subsystems read it: the bridge writes the file (save.rs), so
//! the bridge owns its reader. The daily report's backlog takes the blocked items from here
//! (through `core::project::Readers`), never by parsing the file its own way.

use super::entries::{last_entries, progress_items};
use super::store::{self, Rune};
use crate::core::project::Project;

/// The label of the blocked items in a progress entry (`**Blocked:**`, as save writes it).
const BLOCKED: &str = "Blocked";

/// The blocked items of the newest progress entry; none when there is no `.rune/`, no entry,
/// or the file cannot be read safely (a symlinked folder, a file that is not regular).
pub(crate) fn blocked_items(project: &Project) -> Vec<String> {
    let rune = Rune::of(project);
    if crate::core::fsx::refuse_symlink(&rune.dir).is_err() {
        return Vec::new();
    }
    let path = rune.path(store::PROGRESS);
    if !store::is_regular(&path) {
        return Vec::new();
    }
    last_entries(&path, 1)
        .ok()
        .and_then(|mut entries| entries.pop())
        .map(|entry| progress_items(&entry, BLOCKED))
        .unwrap_or_default()
}
