//! HAND OFF, the seed's step, for `baton relay handoff` and the Stop hook at the cycle
//! budget. (The file is `hand_off`, the step, so that it is not read as a call into the
//! `handoff` subsystem, which writes session artefacts.)
//!
//! 1. a sentinel (STOP, NEEDS-HUMAN) means the loop is over: nothing to do (looked for
//!    again once the relay lock is held);
//! 2. `packets/latest.md` is written atomically: the fields given replace, the fields not
//!    given carry over from the previous packet of the same loop (`landed_this_session` only
//!    while that packet is not resumed: it counts one session);
//! 3. the packet and `loop_state.md`, and only those (with `.handoff/.gitattributes` when it
//!    is written now: `rules.rs`), are committed as `weave-loop: handoff (at WL-NNN)`;
//! 4. the `weave send relay:handoff` heartbeat, best effort;
//! 5. the wake-up prompt is returned for the model to schedule.
//!
//! A packet on disk that does not parse is refused (an error naming the file), not
//! overwritten.
//!
//! Idempotent: when the packet on disk already holds the same state and has not been resumed
//! yet, it is kept byte for byte (its `written_at` too), so a second handoff rewrites nothing
//! and commits nothing.

use super::commit::{commit, Committed};
use super::heartbeat::{self, Heartbeat};
use super::layout::{read_opt, Layout, Sentinel};
use super::loop_state::{self as ls, LoopState};
use super::packet::{validate_loop_id, wake_up_prompt, Packet};
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::project::Project;
use crate::core::redact::Redactor;
use crate::core::time;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// How long a handoff may wait, and until when its heartbeat may run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// The longest wait for the relay lock.
    pub(crate) lock_wait: Duration,
    /// The heartbeat never runs past this.
    pub(crate) deadline: Option<Instant>,
    /// The longest the commit (with the repository's hooks) may take.
    pub(crate) commit_wait: Duration,
}

impl Limits {
    /// The CLI: the usual lock wait, the configured heartbeat timeout.
    pub(crate) fn cli() -> Limits {
        Limits {
            lock_wait: super::layout::LOCK_WAIT,
            deadline: None,
            commit_wait: super::commit::CLI_COMMIT_WAIT,
        }
    }

    /// The Stop hook (15 s timeout in hooks.json; Claude Code kills it there): 2 s for the
    /// lock, 5 s for the commit and its hooks (a slower pre-commit hook makes the commit
    /// fail, said, the files stay), and the heartbeat (the last step) stopped 8 s after
    /// `start` at the latest, so the whole hook stays under about 10 s of its 15.
    pub(crate) fn stop_hook(start: Instant) -> Limits {
        Limits {
            lock_wait: Duration::from_secs(2),
            deadline: Some(start + Duration::from_secs(8)),
            commit_wait: Duration::from_secs(5),
        }
    }
}

/// The orchestrator state given to a handoff. One struct is both the YAML on stdin and the
/// flags of `baton relay handoff` (the flags are laid over the YAML with `overlay`); the
/// field docs are the flags' `--help` texts. A field left out carries over from the previous
/// packet of the same loop.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, clap::Args)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct Input {
    /// The loop id, WL-NNN (default: the loop state's, else the previous packet's)
    #[arg(long, value_name = "WL-NNN")]
    pub(crate) loop_id: Option<String>,
    /// orchestrator_phase
    #[arg(
        long = "phase",
        visible_alias = "orchestrator-phase",
        value_name = "PHASE"
    )]
    pub(crate) orchestrator_phase: Option<String>,
    /// verifier_status
    #[arg(long, value_name = "STATUS")]
    pub(crate) verifier_status: Option<String>,
    /// guardian_verdict
    #[arg(long, value_name = "VERDICT")]
    pub(crate) guardian_verdict: Option<String>,
    /// pr_url ("" clears it)
    #[arg(long, value_name = "URL")]
    pub(crate) pr_url: Option<String>,
    /// landed_this_session
    #[arg(
        long = "landed",
        visible_alias = "landed-this-session",
        value_name = "N"
    )]
    pub(crate) landed_this_session: Option<u32>,
    /// One open finding (repeat the flag for more; replaces the list)
    // `Option<Vec<_>>`: not given is `None` (the list carries over), given is the new list.
    #[arg(long = "finding", value_name = "TEXT")]
    pub(crate) open_findings: Option<Vec<String>>,
    /// One decision (repeat the flag for more; replaces the list)
    #[arg(long = "decision", value_name = "TEXT")]
    pub(crate) decisions: Option<Vec<String>>,
}

impl Input {
    /// `over`'s fields replace `self`'s where given.
    pub(crate) fn overlay(mut self, over: Input) -> Input {
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
pub(crate) enum Outcome {
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

/// The packet on disk: its text, what it holds, and whether a session resumed from it.
struct Previous {
    text: String,
    packet: Packet,
    /// Its id is `last_resumed_packet`: a new session has begun since it was written.
    resumed: bool,
}

/// Performs a handoff in the project with `input`.
pub(crate) fn run(project: &Project, input: &Input, limits: Limits) -> Result<Outcome> {
    let config = project.config();
    let layout = Layout::new(&project.root, config);
    if let Some(h) = halted(&layout) {
        return Ok(h);
    }
    let _lock = layout.lock_within(limits.lock_wait)?;
    // A sentinel may have appeared while another relay command held the lock.
    if let Some(h) = halted(&layout) {
        return Ok(h);
    }
    let mut state = LoopState::load_or_fresh(&layout, config.relay.cycle_budget)?;
    let previous = read_previous(&layout, &state)?;
    let loop_id = pick_loop_id(input, &state, previous.as_ref(), &layout)?;
    let prompt = wake_up_prompt(config, &Layout::show(&layout.packet_rel));
    let mut packet = next_packet(project, input, &loop_id, previous.as_ref());
    let wrote_packet = write_packet(project, &layout, &mut packet, &prompt, previous.as_ref())?;

    state.set(ls::LOOP_ID, &loop_id);
    state.set(ls::LAST_HANDOFF, &packet.id());
    let wrote_state = state.save(&layout)?;
    let changed = wrote_packet || wrote_state;
    // The merge rules go with the first packet (and whenever they went missing).
    let rules = super::rules::ensure(&project.root, config)?;
    let (commit, heartbeat) = commit_and_beat(
        project,
        &layout,
        &loop_id,
        changed,
        rules.as_deref(),
        limits,
    )?;
    Ok(Outcome::HandedOff {
        loop_id,
        packet: Layout::show(&layout.packet_rel),
        packet_id: packet.id(),
        changed,
        commit,
        heartbeat,
        wake_up_prompt: prompt,
    })
}

/// `Halted` when a sentinel is present.
fn halted(layout: &Layout) -> Option<Outcome> {
    layout.sentinel().map(|s| Outcome::Halted {
        sentinel: s,
        path: Layout::show(layout.sentinel_rel(s)),
    })
}

/// The packet on disk. A packet that exists but does not parse is an error, never
/// overwritten: its fields would be dropped silently (and its written_at could move
/// backwards).
fn read_previous(layout: &Layout, state: &LoopState) -> Result<Option<Previous>> {
    let Some(text) = read_opt(&layout.abs(&layout.packet_rel))? else {
        return Ok(None);
    };
    let packet = Packet::parse(&text, &Layout::show(&layout.packet_rel)).map_err(|e| {
        Error::Invalid(format!(
            "{e} — not handing off over it (its fields would be lost): fix the file, or delete it to start a fresh packet, then run `baton relay handoff` again"
        ))
    })?;
    let resumed = state.non_empty(ls::LAST_RESUMED) == Some(packet.id().as_str());
    Ok(Some(Previous {
        text,
        packet,
        resumed,
    }))
}

/// The loop id: the input's, else the loop state's, else the previous packet's; validated.
fn pick_loop_id(
    input: &Input,
    state: &LoopState,
    previous: Option<&Previous>,
    layout: &Layout,
) -> Result<String> {
    let loop_id = input
        .loop_id
        .clone()
        .or_else(|| state.non_empty(ls::LOOP_ID).map(str::to_string))
        .or_else(|| previous.map(|p| p.packet.loop_id.clone()))
        .ok_or_else(|| {
            Error::Usage(format!(
                "no loop id: pass --loop-id WL-NNN (or `loop_id: WL-NNN` in the YAML on stdin); neither {} nor a previous packet names one",
                Layout::show(&layout.loop_state_rel)
            ))
        })?;
    validate_loop_id(&loop_id)?;
    Ok(loop_id)
}

/// The packet to hand off: the previous packet of the same loop with `input` laid over it,
/// in this work tree (its `written_at` is `write_packet`'s to set).
fn next_packet(
    project: &Project,
    input: &Input,
    loop_id: &str,
    previous: Option<&Previous>,
) -> Packet {
    let mut base = previous
        .filter(|p| p.packet.loop_id == loop_id)
        .map(|p| p.packet.clone())
        .unwrap_or_default();
    if previous.is_some_and(|p| p.resumed) {
        // A new session since that packet: what it landed is not this session's.
        base.landed_this_session = 0;
    }
    let mut packet = merge(base, input, project.redactor());
    packet.loop_id = loop_id.to_string();
    packet.worktree = project.root.display().to_string();
    packet
}

/// Writes `packet` with a new `written_at`, unless the packet on disk holds the same state
/// and is not resumed yet: then it is kept as it is (its `written_at` included, which
/// `packet` takes). Whether the file was written.
fn write_packet(
    project: &Project,
    layout: &Layout,
    packet: &mut Packet,
    prompt: &str,
    previous: Option<&Previous>,
) -> Result<bool> {
    if let Some(prev) = previous {
        if !prev.resumed {
            packet.written_at.clone_from(&prev.packet.written_at);
            if packet.render(prompt)? == prev.text {
                return Ok(false);
            }
        }
    }
    packet.written_at = next_stamp(project.now(), previous.map(|p| &p.packet));
    let text = packet.render(prompt)?;
    let path = layout.abs(&layout.packet_rel);
    if let Some(dir) = path.parent() {
        fsx::ensure_dir_in(&project.root, dir)?;
    }
    fsx::atomic_write(&path, text.as_bytes(), fsx::SHARED_FILE)?;
    Ok(true)
}

/// The `written_at` of a new packet: `now`, but always after the previous packet's, so two
/// packets never share an id (`WL-NNN@written_at`), not even within one second.
fn next_stamp(now: DateTime<Utc>, previous: Option<&Packet>) -> String {
    let after = previous
        .and_then(|p| time::parse(&p.written_at))
        .map(|prev| prev + chrono::Duration::seconds(1));
    time::rfc3339(after.map_or(now, |after| now.max(after)))
}

/// Commits the packet and the loop state, then sends the heartbeat when something changed
/// or was committed now (the hazard check reads the last commit before baton's own).
fn commit_and_beat(
    project: &Project,
    layout: &Layout,
    loop_id: &str,
    changed: bool,
    rules: Option<&std::path::Path>,
    limits: Limits,
) -> Result<(Committed, Heartbeat)> {
    let hazards = heartbeat::hazard(project);
    let message = format!("{}{loop_id})", super::commit::HANDOFF_SUBJECT);
    let mut paths = vec![layout.packet_rel.as_path(), layout.loop_state_rel.as_path()];
    paths.extend(rules);
    let commit = commit(project, &paths, &message, limits.commit_wait)?;
    let heartbeat = if changed || matches!(commit, Committed::Made { .. }) {
        heartbeat::send(project, "relay:handoff", &hazards, limits.deadline)
    } else {
        Heartbeat::Skipped {
            reason: "nothing changed since the last handoff".into(),
        }
    };
    Ok((commit, heartbeat))
}

/// The previous packet with `input`'s fields laid over it (strings redacted, empty ones
/// cleared).
fn merge(mut p: Packet, input: &Input, redactor: &Redactor) -> Packet {
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
pub(crate) fn render(o: &Outcome) -> String {
    match o {
        Outcome::Halted { sentinel, path } => match sentinel {
            Sentinel::Stop => format!(
                "relay: the loop is stopped ({path} exists): nothing to hand off. Delete {path} to let the loop run again.\n"
            ),
            Sentinel::NeedsHuman => format!(
                "relay: the loop is halted for a human ({path} exists): nothing to hand off. Read it, fix the tree, delete it, then run `baton relay resume`.\n"
            ),
        },
        Outcome::HandedOff {
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
            let beat = heartbeat
                .line("relay:handoff")
                .map(|l| format!("{l}\n"))
                .unwrap_or_default();
            format!(
                "{head}{beat}Now schedule a one-shot wake-up (for example CronCreate with recurring: false, about 3 minutes out) with the prompt below, then stop this session:\n{wake_up_prompt}\n"
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlay_and_merge() {
        let a = Input {
            loop_id: Some("WL-1".into()),
            decisions: Some(vec!["a".into()]),
            ..Input::default()
        };
        let b = Input {
            decisions: Some(vec![]),
            pr_url: Some("u".into()),
            ..Input::default()
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
        let input = Input {
            pr_url: Some(" ".into()),
            open_findings: Some(vec!["line\nbreak".into(), String::new()]),
            ..Input::default()
        };
        let p = merge(prev, &input, &Redactor::builtin());
        assert_eq!(p.orchestrator_phase.as_deref(), Some("verify"));
        assert_eq!(p.pr_url, None);
        assert_eq!(p.open_findings, vec!["line break"]);
        assert_eq!(p.decisions, vec!["x"]);
    }

    #[test]
    fn a_new_stamp_comes_after_the_previous_packet() {
        let now = time::parse("2026-11-30T10:15:00Z").unwrap();
        let prev = |at: &str| Packet {
            loop_id: "WL-1".into(),
            written_at: at.into(),
            ..Packet::default()
        };
        assert_eq!(next_stamp(now, None), "2026-11-30T10:15:00Z");
        assert_eq!(
            next_stamp(now, Some(&prev("2026-11-30T10:15:00Z"))),
            "2026-11-30T10:15:01Z"
        );
        assert_eq!(
            next_stamp(now, Some(&prev("2026-11-30T09:00:00Z"))),
            "2026-11-30T10:15:00Z"
        );
        assert_eq!(
            next_stamp(now, Some(&prev("garbage"))),
            "2026-11-30T10:15:00Z"
        );
    }
}
