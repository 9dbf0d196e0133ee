//! bridge: see DESIGN.md. This folder holds the subsystem: its CLI (`baton bridge …`) and its
//! hook handler (`handler.rs`), both calling the same functions.

mod handler;

pub(crate) use handler::BridgeHandler;

use crate::cli_env::CliEnv;
use crate::core::error::Result;

/// `baton bridge` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// What the bridge subsystem has in this project
    Status {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
}

/// Runs a `baton bridge` command; returns the exit code.
// A stub until the subsystem lands; it keeps the signature the real one will have.
#[allow(clippy::unnecessary_wraps, clippy::needless_pass_by_value)]
pub(crate) fn run(command: Command, env: &CliEnv) -> Result<i32> {
    match command {
        Command::Status { json } => {
            let _ = (json, env);
            eprintln!("baton: the bridge subsystem is not built yet");
            Ok(1)
        }
    }
}
