//! Shared mechanics, written once: every subsystem and the hook path use these instead of
//! their own copies. Nothing here knows about relay, audit, handoff or bridge.

pub mod activity;
pub mod budget;
pub mod clock;
pub mod config;
pub mod ctx;
pub mod error;
pub mod exec;
pub mod fsx;
pub mod git;
pub mod glob;
pub mod jsonl;
pub mod redact;
pub mod root;
pub mod yaml;
