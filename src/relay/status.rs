//! What the relay has in a project, read once for `baton relay status` and for the hooks
//! (the SessionStart notice, the Stop hook's budget check): the loop state, the sentinels,
//! the packet and whether it is pending, the verify script. Also the `baton relay status`
//! screen.
//!
//! A packet is **pending** when it parses, has a `written_at`, and its id
//! (`WL-NNN@written_at`) differs from `last_resumed_packet` in `loop_state.md`: it was handed
//! off and no session has resumed it. (A packet without `written_at` has no identity to
//! record, so it is never announced; `baton relay resume` still takes it.)

use super::layout::{read_opt, Layout, Sentinel};
use super::loop_state::{self as ls, LoopState};
use super::packet::Packet;
use super::verify;
use crate::core::project::Project;
use serde::Serialize;

/// Lines of a sentinel kept in the status (the SessionStart banner shows them).
const SENTINEL_LINES: usize = 12;

/// What the relay has in a project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct LoopStatus {
    pub(crate) dir: String,
    pub(crate) loop_id: Option<String>,
    pub(crate) cycles_this_session: u64,
    pub(crate) cycle_budget: u64,
    pub(crate) cycles_total: u64,
    pub(crate) has_loop_state: bool,
    pub(crate) sentinel: Option<Sentinel>,
    pub(crate) sentinel_path: Option<String>,
    pub(crate) sentinel_head: Option<String>,
    pub(crate) packet_path: String,
    pub(crate) packet: Option<Packet>,
    /// Why the packet file could not be read, when it exists but is broken.
    pub(crate) packet_problem: Option<String>,
    pub(crate) pending: bool,
    pub(crate) last_resumed_packet: Option<String>,
    pub(crate) verify_script: String,
    pub(crate) verify_script_present: bool,
    /// Why the script that is there cannot be run (a dangling symlink …): resume will fail.
    pub(crate) verify_script_problem: Option<String>,
    /// Files that could not be read as they should (their defaults are used).
    pub(crate) problems: Vec<String>,
}

/// Reads the relay's state (a few small files; no git). Never fails: a broken file becomes a
/// line in `problems` and its defaults, so the sentinels are always reported.
pub(crate) fn loop_status(project: &Project) -> LoopStatus {
    let config = project.config();
    let layout = Layout::new(&project.root, config);
    let file = layout.abs(&layout.loop_state_rel);
    let mut problems = Vec::new();
    let state = LoopState::load(&layout).unwrap_or_else(|e| {
        problems.push(e.to_string());
        None
    });
    let has_loop_state = state.is_some();
    let state = state.unwrap_or_else(|| LoopState::fresh(config.relay.cycle_budget));
    let mut number = |key: &str, default: u64| {
        state.number(key, default, &file).unwrap_or_else(|e| {
            problems.push(e.to_string());
            default
        })
    };
    let cycles_this_session = number(ls::CYCLES_THIS_SESSION, 0);
    let cycle_budget = number(ls::CYCLE_BUDGET, u64::from(config.relay.cycle_budget)).max(1);
    let cycles_total = number(ls::CYCLES_TOTAL, 0);
    let sentinel = layout.sentinel();
    let (packet, packet_problem) = read_packet(&layout);
    let last = state.non_empty(ls::LAST_RESUMED).map(str::to_string);
    let pending = packet.as_ref().is_some_and(|p| {
        !p.written_at.trim().is_empty() && last.as_deref() != Some(p.id().as_str())
    });
    LoopStatus {
        dir: format!("{}/", config.paths.relay.display()),
        loop_id: state
            .non_empty(ls::LOOP_ID)
            .map(str::to_string)
            .or_else(|| packet.as_ref().map(|p| p.loop_id.clone())),
        cycles_this_session,
        cycle_budget,
        cycles_total,
        has_loop_state,
        sentinel,
        sentinel_path: sentinel.map(|s| Layout::show(layout.sentinel_rel(s))),
        sentinel_head: sentinel
            .map(|s| layout.sentinel_head(s, SENTINEL_LINES, project.redactor())),
        packet_path: Layout::show(&layout.packet_rel),
        packet,
        packet_problem,
        pending,
        last_resumed_packet: last,
        verify_script: Layout::show(&layout.verify_rel),
        verify_script_present: verify::script_present(&layout),
        verify_script_problem: verify::script_problem(&layout),
        problems,
    }
}

/// The packet, or why the file that is there cannot be read.
fn read_packet(layout: &Layout) -> (Option<Packet>, Option<String>) {
    match read_opt(&layout.abs(&layout.packet_rel)) {
        Err(e) => (None, Some(e.to_string())),
        Ok(None) => (None, None),
        Ok(Some(t)) => match Packet::parse(&t, &Layout::show(&layout.packet_rel)) {
            Ok(p) => (Some(p), None),
            Err(e) => (None, Some(e.to_string())),
        },
    }
}

/// The `baton relay status` screen.
pub(crate) fn render(s: &LoopStatus) -> String {
    let mut out = format!("relay — {}\n", s.dir);
    out.push_str(&format!(
        "  loop        {}\n",
        s.loop_id.as_deref().unwrap_or("(none yet)")
    ));
    out.push_str(&format!(
        "  cycles      {} of {} this session, {} total{}\n",
        s.cycles_this_session,
        s.cycle_budget,
        s.cycles_total,
        if s.cycles_this_session >= s.cycle_budget {
            " (budget reached: hand off)"
        } else {
            ""
        }
    ));
    let sentinel = match (&s.sentinel, &s.sentinel_path) {
        (Some(Sentinel::Stop), Some(p)) => format!("STOP ({p}): the loop is stopped"),
        (Some(Sentinel::NeedsHuman), Some(p)) => format!(
            "NEEDS-HUMAN ({p}): {}",
            s.sentinel_head
                .as_deref()
                .and_then(|h| h.lines().next())
                .unwrap_or("a person must look")
        ),
        _ => "none".into(),
    };
    out.push_str(&format!("  sentinels   {sentinel}\n"));
    let packet = match (&s.packet, &s.packet_problem) {
        (Some(p), _) => format!(
            "{} — {}, written {}, {}; {}",
            s.packet_path,
            p.loop_id,
            p.written_at,
            if s.pending {
                "pending resume"
            } else {
                "resumed"
            },
            p.key_state()
        ),
        (None, Some(problem)) => format!(
            "{} — BROKEN: {problem}; handoff refuses to overwrite it and resume cannot read it: fix it or delete it",
            s.packet_path
        ),
        (None, None) => format!("none ({} not written yet)", s.packet_path),
    };
    out.push_str(&format!("  packet      {packet}\n"));
    let verify = match (&s.verify_script_problem, s.verify_script_present) {
        (Some(problem), _) => format!("unusable: it {problem}; resume will fail on it"),
        (None, true) => "present".into(),
        (None, false) => "missing: resume verifies nothing".into(),
    };
    out.push_str(&format!("  verify      {} ({verify})\n", s.verify_script));
    for p in &s.problems {
        out.push_str(&format!("  problem     {p}\n"));
    }
    out
}
