//! Work a session start leaves for after itself: a large memory file it did not scan whole
//! (`scan_file`), history the origins index has not read yet (`origins_update`). It starts
//! `baton bridge index` in the background, once per run, and does not wait for it; that
//! command scans the folder through the verdict cache and brings the origins index up to
//! HEAD, and the next start finds both done.
//!
//! One `bridge index` runs at a time for a folder: it holds a lock beside the folder's
//! verdict cache (`<key>.index.lock`) for its whole run; a background run (`--background`,
//! the one a start spawns) that finds it held leaves at once, and a start does not spawn one
//! while it is held (every start that still finds a large file pending spawned another full
//! scan of it); a run in the foreground waits for the one under way.

use super::scan_cache;
use super::store::Rune;
use crate::core::fsx;
use crate::core::project::Project;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Whether this run started it already.
static STARTED: AtomicBool = AtomicBool::new(false);

/// Starts `baton bridge index` for `project` in the background (once per run; not while
/// another run holds the index lock).
pub(crate) fn catch_up(project: &Project) {
    if STARTED.swap(true, Ordering::Relaxed) {
        return;
    }
    if index_lock(project, false).is_none() {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut cmd = crate::core::exec::command(exe);
    cmd.args(["bridge", "index", "--quiet", "--background"])
        .current_dir(&project.root);
    crate::core::exec::spawn_detached(cmd);
}

/// How long a run in the foreground waits for one under way.
const WAIT: Duration = Duration::from_secs(120);

/// The lock of one `bridge index` run over `project`'s memory folder: taken at once, or
/// (`wait`) once the run that holds it ends, up to `WAIT`. `None` when another run holds it
/// (or there is no place for it).
pub(crate) fn index_lock(project: &Project, wait: bool) -> Option<std::fs::File> {
    let rune = Rune::of(project);
    let at = scan_cache::location(&project.ctx.env, &rune.dir)?.with_extension("index.lock");
    let start = Instant::now();
    loop {
        let lock = fsx::try_lock_file(&at);
        if lock.is_some() || !wait || start.elapsed() > WAIT {
            return lock;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
