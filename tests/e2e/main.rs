//! End-to-end: the real Claude Code against a local stand-in of the Messages API.
//!
//! These tests run the `claude` CLI headless (`-p`) with a throw-away copy of this plugin
//! (`--plugin-dir`) whose `bin/baton` is the binary cargo just built, in a fresh git repository
//! with a fresh `HOME`, talking to [`mock_api::MockApi`] on 127.0.0.1. No real API key is used
//! and nothing leaves the machine.
//!
//! Claude Code is found through `BATON_CLAUDE` (path to the `claude` binary), else
//! `<repo>/.cache/npm/node_modules/.bin/claude` (where `.ci/run` installs it), else `claude` on
//! `PATH`. Without one, each test prints `SKIPPED: …` to stderr and passes.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// The tests drive real processes with real environments; the disallowed-methods rules
// (clippy.toml) guard the library, whose env, clock and children tests must be able to pin.
#![allow(clippy::disallowed_methods)]
// A scenario test reads top to bottom; the 80-line limit (clippy.toml) is for the library.
#![allow(clippy::too_many_lines)]

mod audit;
mod bridge;
mod capture;
mod continuity;
mod conversation;
mod foundation;
mod handoff;
mod install;
mod mock_api;
mod overhead;
mod readme;
mod recall;
mod relay;
#[path = "../stand_in.rs"]
mod stand_in;
mod support;
mod week;
