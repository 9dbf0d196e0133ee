//! `baton relay cycle`: one loop cycle finished. It bumps `cycles_this_session` in the loop
//! state and says when the cycle budget is reached (the next handoff is due).

use super::layout::{Layout, Sentinel};
use super::loop_state::{self as ls, LoopState};
use super::packet::validate_loop_id;
use crate::core::error::Result;
use crate::core::project::Project;
use serde::Serialize;

/// What `baton relay cycle` did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Cycled {
    pub(crate) cycles_this_session: u64,
    pub(crate) cycle_budget: u64,
    pub(crate) budget_reached: bool,
    pub(crate) loop_id: Option<String>,
    pub(crate) sentinel: Option<Sentinel>,
}

/// One loop iteration finished: bumps `cycles_this_session` (not committed: the next
/// handoff or resume commits the loop state), and records `loop_id` when given.
pub(crate) fn run(project: &Project, loop_id: Option<&str>) -> Result<Cycled> {
    if let Some(id) = loop_id {
        validate_loop_id(id)?;
    }
    let config = project.config();
    let layout = Layout::new(&project.root, config);
    let _lock = layout.lock()?;
    let file = layout.abs(&layout.loop_state_rel);
    let mut state = LoopState::load_or_fresh(&layout, config.relay.cycle_budget)?;
    let n = state.number(ls::CYCLES_THIS_SESSION, 0, &file)? + 1;
    let budget = state
        .number(
            ls::CYCLE_BUDGET,
            u64::from(config.relay.cycle_budget),
            &file,
        )?
        .max(1);
    state.set(ls::CYCLES_THIS_SESSION, &n.to_string());
    if let Some(id) = loop_id {
        state.set(ls::LOOP_ID, id);
    }
    state.save(&layout)?;
    Ok(Cycled {
        cycles_this_session: n,
        cycle_budget: budget,
        budget_reached: n >= budget,
        loop_id: state.non_empty(ls::LOOP_ID).map(str::to_string),
        sentinel: layout.sentinel(),
    })
}

/// The CLI's text for a cycle.
pub(crate) fn render(c: &Cycled) -> String {
    let mut out = format!(
        "relay: cycle {} of {} this session{}\n",
        c.cycles_this_session,
        c.cycle_budget,
        c.loop_id
            .as_deref()
            .map(|id| format!(" ({id})"))
            .unwrap_or_default()
    );
    match c.sentinel {
        Some(Sentinel::Stop) => out.push_str("The loop is stopped (STOP): do not start another cycle.\n"),
        Some(Sentinel::NeedsHuman) => {
            out.push_str("The loop is halted for a human (NEEDS-HUMAN): do not start another cycle.\n");
        }
        None if c.budget_reached => out.push_str(
            "Cycle budget reached: hand off now with `baton relay handoff` (the Stop hook also hands off when the session stops).\n",
        ),
        None => {}
    }
    out
}
