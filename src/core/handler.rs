//! The hook contract between the bus (`hook::bus`) and the subsystems: a `Handler` takes one
//! event and the per-run `Project`, and returns a `Contribution`. It lives in core so that the
//! subsystems implement it without importing the hook layer above them.

use super::budget::Section;
use super::config::Config;
use super::error::Result;
use super::event::{EventName, HookEvent};
use super::project::Project;
use super::resume::ResumePoint;

/// What one handler adds to the answer.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Contribution {
    /// Text for the model's context (merged under one budget).
    pub sections: Vec<Section>,
    /// A line for the user (never seen by the model).
    pub system_message: Option<String>,
    /// Block on purpose, with this reason. Ignored when `stop_hook_active` is true.
    pub block: Option<String>,
    /// PreCompact only: instructions for the compaction summary.
    pub compaction_instructions: Option<String>,
    /// SessionStart only: this handler's candidates for the one "Resume here" section
    /// (`core::resume`), which the output stage builds from every handler's.
    pub resume: Vec<ResumePoint>,
}

impl Contribution {
    /// Context sections only.
    pub fn sections(sections: Vec<Section>) -> Self {
        Contribution {
            sections,
            ..Contribution::default()
        }
    }
}

/// A subscriber of the bus.
pub trait Handler: Sync {
    /// A short name, used in error reports.
    fn name(&self) -> &'static str;
    /// Whether the handler wants this event at all (decided without I/O).
    fn subscribes(&self, event: EventName) -> bool;
    /// Whether the config turns the handler on.
    fn enabled(&self, _config: &Config) -> bool {
        true
    }
    /// Whether the handler must run before the others on this event because they read what
    /// it writes (capture's digest, read by the relay, bridge and handoff at Stop and
    /// PreCompact). Its contribution still appears in registry order.
    fn runs_first(&self, _event: EventName) -> bool {
        false
    }
    /// Handles the event.
    fn handle(&self, event: &HookEvent, project: &Project) -> Result<Contribution>;
}
