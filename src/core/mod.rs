//! Shared mechanics, written once: every subsystem and the hook path use these instead of
//! their own copies. Nothing here knows about relay, audit, handoff, bridge or capture (a test reads
//! the imports to keep it so); where one subsystem needs another's data, `project::Readers`
//! carries the owner's reader down from the layer above.
//!
//! The hook contract is here too (`event`, `handler`), so the subsystems implement it without
//! importing the hook layer.

pub mod budget;
pub mod clock;
pub mod config;
pub mod correction;
pub mod ctx;
pub mod deadline;
pub mod error;
pub mod event;
pub mod event_read;
pub mod exec;
pub mod fault;
pub mod footprint;
pub mod fsx;
pub mod git;
pub mod glob;
pub mod handler;
pub mod hash;
pub mod io;
pub mod jsonl;
pub mod paths;
pub mod proc;
pub mod project;
pub mod recall;
pub mod recap;
pub mod redact;
pub mod resume;
pub mod resume_log;
pub mod root;
pub mod scan;
pub mod shell;
pub mod signal;
pub mod text;
pub mod time;
pub mod trust;
pub mod yaml;
