//! Stops a debug build at a named point, so a test can kill a real process there: the
//! integration tests run the debug binary with `BATON_TEST_PAUSE_AT=<point>` and
//! `BATON_TEST_PAUSE_FILE=<path>`; at that point the process writes the file and sleeps until
//! it is killed. A release build has no such points (the function is empty).
//!
//! It reads the environment directly, not through `Ctx`: the points lie deep in file moves
//! that are handed no context, and only tests set the variables.

/// Pauses here when this debug build was asked to (see the module doc).
#[cfg(debug_assertions)]
#[allow(clippy::disallowed_methods)] // a test hook of debug builds (module doc)
pub fn pause_at(point: &str) {
    let Some(at) = std::env::var_os("BATON_TEST_PAUSE_AT") else {
        return;
    };
    if at != point {
        return;
    }
    if let Some(file) = std::env::var_os("BATON_TEST_PAUSE_FILE") {
        let _ = std::fs::write(file, point);
    }
    loop {
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
}

/// Pauses here when this debug build was asked to (see the module doc).
#[cfg(not(debug_assertions))]
pub fn pause_at(_point: &str) {}
