//! The audit subsystem's hook handler: which events it takes and what it adds.

use crate::core::error::Result;
use crate::hook::bus::{Contribution, Handler, HookEnv};
use crate::hook::input::{EventName, HookEvent};

/// The audit handler on the bus.
pub(crate) struct AuditHandler;

impl Handler for AuditHandler {
    fn name(&self) -> &'static str {
        "audit"
    }

    fn subscribes(&self, _event: EventName) -> bool {
        false
    }

    fn enabled(&self, config: &crate::core::config::Config) -> bool {
        config.audit.enabled
    }

    fn handle(&self, _event: &HookEvent, _env: &HookEnv<'_>) -> Result<Contribution> {
        Ok(Contribution::default())
    }
}
