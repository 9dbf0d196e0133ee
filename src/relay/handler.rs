//! The relay subsystem's hook handler: which events it takes and what it adds.

use crate::core::error::Result;
use crate::hook::bus::{Contribution, Handler, HookEnv};
use crate::hook::input::{EventName, HookEvent};

/// The relay handler on the bus.
pub(crate) struct RelayHandler;

impl Handler for RelayHandler {
    fn name(&self) -> &'static str {
        "relay"
    }

    fn subscribes(&self, _event: EventName) -> bool {
        false
    }

    fn enabled(&self, config: &crate::core::config::Config) -> bool {
        config.relay.enabled
    }

    fn handle(&self, _event: &HookEvent, _env: &HookEnv<'_>) -> Result<Contribution> {
        Ok(Contribution::default())
    }
}
