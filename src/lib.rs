//! baton: session continuity for Claude Code.
//!
//! One binary serves two callers. Claude Code runs `baton hook` on every hook event (JSON on
//! stdin, hook-protocol JSON on stdout); the plugin's slash commands and skills run the other
//! subcommands as a CLI. Both reach the same subsystem functions. See `hook::bus` for where an
//! event goes.

mod audit;
mod bridge;
mod capture;
mod clean;
mod cli;
pub mod core;
mod doctor;
mod handoff;
pub mod hook;
mod recall;
mod relay;
mod status;

pub use cli::run;
