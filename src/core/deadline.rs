//! The time a hook run may still spend waiting. Claude Code gives each hook event a timeout
//! (SessionEnd only 1.5 s in all); a lock held by a stuck or unrelated process must not eat
//! it. `hook::run` sets the run's deadline — a fixed share of the event's timeout — for the
//! thread that runs the handlers, and every lock wait (`fsx::MkdirLock`) is cut to what is
//! left of it. Commands set none and wait as long as their callers ask.
//!
//! It is thread-local rather than a field passed down to every lock: the deadline belongs to
//! the whole hook process, the handlers run on one thread, and unit tests on other threads
//! keep their own (no) deadline.

use std::cell::Cell;
use std::time::{Duration, Instant};

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Sets this thread's deadline until the guard is dropped.
pub fn set(at: Instant) -> Guard {
    let before = DEADLINE.with(|d| d.replace(Some(at)));
    Guard { before }
}

/// Restores the deadline there was before `set`.
#[derive(Debug)]
pub struct Guard {
    before: Option<Instant>,
}

impl Drop for Guard {
    fn drop(&mut self) {
        DEADLINE.with(|d| d.set(self.before));
    }
}

/// Whether this thread runs a hook (a deadline is set: commands set none), so work that
/// grows with the size of the user's files is bounded or left for later.
pub fn on_hook_path() -> bool {
    DEADLINE.with(Cell::get).is_some()
}

/// `wait`, cut to what is left before this thread's deadline (zero once it has passed).
pub fn cap(wait: Duration) -> Duration {
    match DEADLINE.with(Cell::get) {
        Some(at) => wait.min(at.saturating_duration_since(Instant::now())),
        None => wait,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_is_cut_to_the_deadline_and_restored_after() {
        assert_eq!(cap(Duration::from_secs(5)), Duration::from_secs(5));
        {
            let _g = set(Instant::now() + Duration::from_millis(200));
            assert!(cap(Duration::from_secs(5)) <= Duration::from_millis(200));
            assert_eq!(cap(Duration::from_millis(10)), Duration::from_millis(10));
        }
        assert_eq!(cap(Duration::from_secs(5)), Duration::from_secs(5));
        let _g = set(Instant::now());
        assert_eq!(cap(Duration::from_secs(5)), Duration::ZERO);
    }
}
