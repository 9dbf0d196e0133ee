//! The hook path: `baton hook` reads one event, routes it through the bus, prints the merged
//! answer. Everything here fails open: whatever goes wrong, the user's session goes on, and
//! exit code 2 (Claude Code's "block") is never used.

mod active;
pub mod bus;
pub mod output;
mod resume;
mod run;

pub use run::run_hook;
