//! `baton relay handoff` (and the Stop hook at the cycle budget): the seed's HAND OFF steps.
//!
//! 1. a sentinel (STOP, NEEDS-HUMAN) means the loop is over: nothing to do (looked for
//!    again once the relay lock is held);
//! 2. `packets/latest.md` is written atomically: the fields given replace, the fields not
//!    given carry over from the previous packet of the same loop (`landed_this_session` only
//!    while that packet is not resumed: it counts one session);
//! 3. the packet and `loop_state.md`, and only those, are committed as
//!    `weave-loop: handoff (at WL-NNN)`;
//! 4. the `weave send relay:handoff` heartbeat, best effort;
//! 5. the wake-up prompt is returned for the model to schedule.
//!
//! A packet on disk that does not parse is refused (an error naming the file), not
//! overwritten.
//!
//! Idempotent: when the packet on disk already holds the same state and has not been resumed
//! yet, it is kept byte for byte (its `written_at` too), so a second handoff rewrites nothing
//! and commits nothing.

pub(crate) use super::commit::{commit, Committed};
use super::heartbeat::{self, Heartbeat};
use super::layout::{ensure_dirs, read_opt, Layout, Sentinel};
use super::loop_state::{self as ls, LoopState};
use super::packet::{validate_loop_id, Packet};
use crate::core::config::Config;
use crate::core::ctx::Ctx;
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::redact::Redactor;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::{Duration, Instant};

/// How long a handoff may wait, and until when its heartbeat may run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// The longest wait for the relay lock.
    pub(crate) lock_wait: Duration,
    /// The heartbeat never runs past this.
    pub(crate) deadline: Option<Instant>,
}

impl Limits {
    /// The CLI: the usual lock wait, the configured heartbeat timeout.
    pub(crate) fn cli() -> Limits {
        Limits {
            lock_wait: super::layout::LOCK_WAIT,
            deadline: None,
        }
    }

    /// The Stop hook (15 s timeout in hooks.json; Claude Code kills it there, maybe
    /// mid-commit): 2 s for the lock, and the heartbeat (the last step, after the commit)
    /// stopped 6 s after `start` at the latest, so the whole hook stays under about 8 s.
    pub(crate) fn stop_hook(start: Instant) -> Limits {
        Limits {
            lock_wait: Duration::from_secs(2),
            deadline: Some(start + Duration::from_secs(6)),
        }
    }
}

/// The orchestrator state given to a handoff (YAML on stdin and/or flags). A field left out
/// carries over from the previous packet of the same loop.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct HandoffInput {
    pub(crate) loop_id: Option<String>,
    pub(crate) orchestrator_phase: Option<String>,
    pub(crate) verifier_status: Option<String>,
    pub(crate) guardian_verdict: Option<String>,
    pub(crate) pr_url: Option<String>,
    pub(crate) landed_this_session: Option<u32>,
    pub(crate) open_findings: Option<Vec<String>>,
    pub(crate) decisions: Option<Vec<String>>,
}

impl HandoffInput {
    /// `over`'s fields replace `self`'s where given.
    pub(crate) fn overlay(mut self, over: HandoffInput) -> HandoffInput {
        macro_rules! take {
            ($($f:ident),*) => { $( if over.$f.is_some() { self.$f = over.$f; } )* };
        }
        take!(
            loop_id,
            orchestrator_phase,
            verifier_status,
            guardian_verdict,
            pr_url,
            landed_this_session,
            open_findings,
            decisions
        );
        self
    }
}

/// The result of a handoff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub(crate) enum HandoffOutcome {
    /// A sentinel is present: nothing done.
    Halted { sentinel: Sentinel, path: String },
    /// The packet is in place (written now or already).
    HandedOff {
        loop_id: String,
        packet: String,
        packet_id: String,
        /// Whether the packet or the loop state changed on disk.
        changed: bool,
        #[serde(flatten)]
        commit: Committed,
        #[serde(flatten)]
        heartbeat: Heartbeat,
        wake_up_prompt: String,
    },
}

/// The prompt the next session starts with.
pub(crate) fn wake_up_prompt(layout: &Layout) -> String {
    format!(
        "/weave-loop resume from {}",
        Layout::show(&layout.packet_rel)
    )
}

/// The time as packets and sentinels write it (`2026-11-30T10:15:00Z`).
pub(crate) fn stamp(ctx: &Ctx) -> String {
    ctx.clock
        .now()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The `written_at` of a new packet: now, but always after the previous packet's, so two
/// packets never share an id (`WL-NNN@written_at`), not even within one second.
fn next_stamp(ctx: &Ctx, previous: Option<&Packet>) -> String {
    let mut at = ctx.clock.now();
    if let Some(prev) =
        previous.and_then(|p| chrono::DateTime::parse_from_rfc3339(&p.written_at).ok())
    {
        let after = prev.with_timezone(&chrono::Utc) + chrono::Duration::seconds(1);
        if at < after {
            at = after;
        }
    }
    at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The packet on disk: its text and what it holds. A packet that exists but does not parse is
/// an error, never overwritten: its fields would be dropped silently (and its written_at could
/// move backwards).
fn read_previous(layout: &Layout) -> Result<(Option<String>, Option<Packet>)> {
    let Some(text) = read_opt(&layout.abs(&layout.packet_rel))? else {
        return Ok((None, None));
    };
    let packet = Packet::parse(&text, &Layout::show(&layout.packet_rel)).map_err(|e| {
        Error::Invalid(format!(
            "{e} — not handing off over it (its fields would be lost): fix the file, or delete it to start a fresh packet, then run `baton relay handoff` again"
        ))
    })?;
    Ok((Some(text), Some(packet)))
}

/// Performs a handoff in `root` with `input`.
pub(crate) fn handoff(
    ctx: &Ctx,
    root: &Path,
    config: &Config,
    input: &HandoffInput,
    limits: Limits,
) -> Result<HandoffOutcome> {
    let layout = Layout::new(root, config);
    let halted = |layout: &Layout| {
        layout.sentinel().map(|s| HandoffOutcome::Halted {
            sentinel: s,
            path: Layout::show(layout.sentinel_rel(s)),
        })
    };
    if let Some(h) = halted(&layout) {
        return Ok(h);
    }
    let _lock = layout.lock_within(limits.lock_wait)?;
    // A sentinel may have appeared while another relay command held the lock.
    if let Some(h) = halted(&layout) {
        return Ok(h);
    }
    let mut state = LoopState::load_or_fresh(&layout, config.relay.cycle_budget)?;
    let packet_path = layout.abs(&layout.packet_rel);
    let (old_text, previous) = read_previous(&layout)?;

    let loop_id = input
        .loop_id
        .clone()
        .or_else(|| state.non_empty(ls::LOOP_ID).map(str::to_string))
        .or_else(|| previous.as_ref().map(|p| p.loop_id.clone()))
        .ok_or_else(|| {
            Error::Usage(format!(
                "no loop id: pass --loop-id WL-NNN (or `loop_id: WL-NNN` in the YAML on stdin); neither {} nor a previous packet names one",
                Layout::show(&layout.loop_state_rel)
            ))
        })?;
    validate_loop_id(&loop_id)?;

    let resumed = |p: &Packet| state.non_empty(ls::LAST_RESUMED) == Some(p.id().as_str());
    let mut base = previous
        .clone()
        .filter(|p| p.loop_id == loop_id)
        .unwrap_or_default();
    if resumed(&base) {
        // A new session since that packet: what it landed is not this session's.
        base.landed_this_session = 0;
    }
    let mut packet = merge(
        base,
        input,
        &Redactor::with_extra(&config.redact.extra_patterns),
    );
    packet.loop_id.clone_from(&loop_id);
    packet.worktree = root.display().to_string();
    let prompt = wake_up_prompt(&layout);

    // Same state, not resumed yet: keep the packet as it is (its written_at included).
    let mut unchanged = false;
    if let (Some(prev), Some(old)) = (&previous, &old_text) {
        if !resumed(prev) {
            packet.written_at.clone_from(&prev.written_at);
            unchanged = packet.render(&prompt)? == *old;
        }
    }
    let wrote_packet = !unchanged;
    if wrote_packet {
        packet.written_at = next_stamp(ctx, previous.as_ref());
        let text = packet.render(&prompt)?;
        if let Some(dir) = packet_path.parent() {
            ensure_dirs(root, dir)?;
        }
        fsx::atomic_write(&packet_path, text.as_bytes(), fsx::SHARED_FILE)?;
    }

    state.set(ls::LOOP_ID, &loop_id);
    state.set(ls::LAST_HANDOFF, &packet.id());
    let wrote_state = state.save(&layout)?;

    let hazards = heartbeat::hazard(ctx, root, config);
    let message = format!("weave-loop: handoff (at {loop_id})");
    let commit = commit(
        root,
        &[&layout.packet_rel, &layout.loop_state_rel],
        &message,
    )?;
    let changed = wrote_packet || wrote_state;
    let heartbeat = if changed || matches!(commit, Committed::Made { .. }) {
        heartbeat::send(
            ctx,
            root,
            config,
            "relay:handoff",
            &hazards,
            limits.deadline,
        )
    } else {
        Heartbeat::Skipped {
            reason: "nothing changed since the last handoff".into(),
        }
    };
    Ok(HandoffOutcome::HandedOff {
        loop_id,
        packet: Layout::show(&layout.packet_rel),
        packet_id: packet.id(),
        changed,
        commit,
        heartbeat,
        wake_up_prompt: prompt,
    })
}

/// The previous packet with `input`'s fields laid over it (strings redacted, empty ones
/// cleared).
fn merge(mut p: Packet, input: &HandoffInput, redactor: &Redactor) -> Packet {
    let clean = |s: &str| redactor.redact(s.trim()).text;
    let opt = |v: &Option<String>, old: Option<String>| match v {
        Some(s) if s.trim().is_empty() => None,
        Some(s) => Some(clean(s)),
        None => old,
    };
    p.orchestrator_phase = opt(&input.orchestrator_phase, p.orchestrator_phase.take());
    p.verifier_status = opt(&input.verifier_status, p.verifier_status.take());
    p.guardian_verdict = opt(&input.guardian_verdict, p.guardian_verdict.take());
    p.pr_url = opt(&input.pr_url, p.pr_url.take());
    if let Some(n) = input.landed_this_session {
        p.landed_this_session = n;
    }
    let list = |v: &Vec<String>| -> Vec<String> {
        v.iter()
            .map(|s| clean(&s.replace(['\n', '\r'], " ")))
            .filter(|s| !s.is_empty())
            .collect()
    };
    if let Some(v) = &input.open_findings {
        p.open_findings = list(v);
    }
    if let Some(v) = &input.decisions {
        p.decisions = list(v);
    }
    p
}

/// The CLI's text for an outcome.
pub(crate) fn render(o: &HandoffOutcome) -> String {
    match o {
        HandoffOutcome::Halted { sentinel, path } => match sentinel {
            Sentinel::Stop => format!(
                "relay: the loop is stopped ({path} exists): nothing to hand off. Delete {path} to let the loop run again.\n"
            ),
            Sentinel::NeedsHuman => format!(
                "relay: the loop is halted for a human ({path} exists): nothing to hand off. Read it, fix the tree, delete it, then run `baton relay resume`.\n"
            ),
        },
        HandoffOutcome::HandedOff {
            loop_id,
            packet,
            changed,
            commit,
            heartbeat,
            wake_up_prompt,
            ..
        } => {
            let head = if *changed {
                format!("relay: handed off {loop_id}: wrote {packet}; {}\n", commit.line())
            } else {
                format!(
                    "relay: {packet} already holds this state for {loop_id}: nothing rewritten; {}\n",
                    commit.line()
                )
            };
            format!(
                "{head}{}\nNow schedule a one-shot wake-up (for example CronCreate with recurring: false, about 3 minutes out) with the prompt below, then stop this session:\n{wake_up_prompt}\n",
                heartbeat.line("relay:handoff")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlay_and_merge() {
        let a = HandoffInput {
            loop_id: Some("WL-1".into()),
            decisions: Some(vec!["a".into()]),
            ..HandoffInput::default()
        };
        let b = HandoffInput {
            decisions: Some(vec![]),
            pr_url: Some("u".into()),
            ..HandoffInput::default()
        };
        let m = a.overlay(b);
        assert_eq!(m.loop_id.as_deref(), Some("WL-1"));
        assert_eq!(m.decisions, Some(vec![]));
        let prev = Packet {
            loop_id: "WL-1".into(),
            orchestrator_phase: Some("verify".into()),
            pr_url: Some("old".into()),
            decisions: vec!["x".into()],
            ..Packet::default()
        };
        let input = HandoffInput {
            pr_url: Some(" ".into()),
            open_findings: Some(vec!["line\nbreak".into(), String::new()]),
            ..HandoffInput::default()
        };
        let p = merge(prev, &input, &Redactor::builtin());
        assert_eq!(p.orchestrator_phase.as_deref(), Some("verify"));
        assert_eq!(p.pr_url, None);
        assert_eq!(p.open_findings, vec!["line break"]);
        assert_eq!(p.decisions, vec!["x"]);
    }
}
