//! Work a session start leaves for after itself: a large memory file it did not scan whole
//! (`scan_file`), history the origins index has not read yet (`origins_update`). It starts
//! `baton bridge index` in the background, once per run, and does not wait for it; that
//! command scans the folder through the verdict cache and brings the origins index up to
//! HEAD, and the next start finds both done.

use crate::core::project::Project;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether this run started it already.
static STARTED: AtomicBool = AtomicBool::new(false);

/// Starts `baton bridge index` for `project` in the background (once per run).
pub(crate) fn catch_up(project: &Project) {
    if STARTED.swap(true, Ordering::Relaxed) {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut cmd = crate::core::exec::command(exe);
    cmd.args(["bridge", "index", "--quiet"])
        .current_dir(&project.root);
    crate::core::exec::spawn_detached(cmd);
}
