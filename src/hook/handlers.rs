//! The bus's own handlers (the subsystems bring theirs).

use super::bus::{Contribution, Handler, HookEnv};
use super::input::{EventName, HookEvent};
use crate::core::budget::Section;
use crate::core::error::Result;
use crate::status;

/// SessionStart: one short line telling the model baton is active and which subsystems have
/// state in this repository.
pub(crate) struct Active;

impl Handler for Active {
    fn name(&self) -> &'static str {
        "baton"
    }

    fn subscribes(&self, event: EventName) -> bool {
        event == EventName::SessionStart
    }

    fn handle(&self, _event: &HookEvent, env: &HookEnv<'_>) -> Result<Contribution> {
        let states = status::survey(&env.root, env.config);
        Ok(Contribution {
            sections: vec![
                Section::new("", status::active_line(&states), 10).source("baton status")
            ],
            ..Contribution::default()
        })
    }
}
