//! Integration tests: the real binary on real temp repositories. One binary, one module per
//! area.
#![allow(clippy::unwrap_used, clippy::expect_used, unreachable_pub)]
// The tests drive real processes with real environments; the disallowed-methods rules
// (clippy.toml) guard the library, whose env, clock and children tests must be able to pin.
#![allow(clippy::disallowed_methods)]
// A scenario test reads top to bottom; the 80-line limit (clippy.toml) is for the library.
#![allow(clippy::too_many_lines)]

#[path = "harness.rs"]
mod harness;
#[path = "stand_in.rs"]
mod stand_in;

#[path = "integration/audit.rs"]
mod audit;
#[path = "integration/audit_moves.rs"]
mod audit_moves;
#[path = "integration/audit_sessions.rs"]
mod audit_sessions;
#[path = "integration/bridge.rs"]
mod bridge;
#[path = "integration/bridge_scale.rs"]
mod bridge_scale;
#[path = "integration/capture.rs"]
mod capture;
#[path = "integration/clean_inventory.rs"]
mod clean_inventory;
#[path = "integration/clean_shared.rs"]
mod clean_shared;
#[path = "integration/cli.rs"]
mod cli;
#[path = "integration/concurrency.rs"]
mod concurrency;
#[path = "integration/continuity.rs"]
mod continuity;
#[path = "integration/handoff.rs"]
mod handoff;
#[path = "integration/hook_protocol.rs"]
mod hook_protocol;
#[path = "integration/install.rs"]
mod install;
#[path = "integration/large_memory.rs"]
mod large_memory;
#[path = "integration/layering.rs"]
mod layering;
#[path = "integration/messages.rs"]
mod messages;
#[path = "integration/plugin_files.rs"]
mod plugin_files;
#[path = "integration/poisoning.rs"]
mod poisoning;
#[path = "integration/provenance.rs"]
mod provenance;
#[path = "integration/quiet_repo.rs"]
mod quiet_repo;
#[path = "integration/readme.rs"]
mod readme;
#[path = "integration/recall.rs"]
mod recall;
#[path = "integration/recall_index.rs"]
mod recall_index;
#[path = "integration/recall_quality.rs"]
mod recall_quality;
#[path = "integration/recall_trust.rs"]
mod recall_trust;
#[path = "integration/relay.rs"]
mod relay;
#[path = "integration/resume_here.rs"]
mod resume_here;
#[path = "integration/safety.rs"]
mod safety;
#[path = "integration/shell.rs"]
mod shell;
#[path = "integration/team.rs"]
mod team;
#[path = "integration/trust.rs"]
mod trust;
#[path = "integration/trust_review.rs"]
mod trust_review;
