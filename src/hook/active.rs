//! The bus's own handler (the subsystems bring theirs): one short SessionStart line telling
//! the model baton is active and which subsystems have state in this repository.

use crate::core::budget::Section;
use crate::core::error::Result;
use crate::core::event::{EventName, HookEvent};
use crate::core::footprint;
use crate::core::handler::{Contribution, Handler};
use crate::core::project::Project;

/// The status line at SessionStart.
pub(crate) struct ActiveHandler;

impl Handler for ActiveHandler {
    fn name(&self) -> &'static str {
        "baton"
    }

    fn subscribes(&self, event: EventName) -> bool {
        event == EventName::SessionStart
    }

    fn handle(&self, _event: &HookEvent, project: &Project) -> Result<Contribution> {
        let states = footprint::state_folders(&project.root, project.config());
        Ok(Contribution::sections(vec![Section::new(
            "",
            footprint::active_line(&states),
            10,
        )
        .source("baton status")]))
    }
}
