//! The relay's hook handler.
//!
//! * SessionStart: NEEDS-HUMAN → a protected banner (the failure's first lines, "do not
//!   continue the loop"); STOP → the loop is stopped; otherwise, on `startup`, `resume` and
//!   `clear`, a pending packet → that it waits, its key state and the exact resume command.
//!   (On `compact` the session goes on with its own loop: only the sentinels are said.)
//! * Stop: when `cycles_this_session >= cycle_budget` and no sentinel, the handoff is done
//!   with the state carried over from the previous packet. Never blocks; does nothing when
//!   `stop_hook_active` is true or when no loop state exists. It stays well inside the hook's
//!   15 s timeout: 2 s at most for the relay lock (held elsewhere: skipped, said in a
//!   systemMessage) and the heartbeat cut off 6 s after the hook started.

use super::commit::Committed;
use super::hand_off::{self, Limits};
use super::layout::Sentinel;
use super::packet::{wake_up_prompt, Packet};
use super::status::{self, LoopStatus};
use crate::core::budget::Section;
use crate::core::config::Config;
use crate::core::error::{Error, Result};
use crate::core::event::{EventKind, EventName, HookEvent};
use crate::core::handler::{Contribution, Handler};
use crate::core::project::Project;
use crate::core::recap::TaskStatus;
use crate::core::resume::{Precedence, ResumePoint};
use crate::core::scan::Secrets;
use crate::core::text::{clip, fenced, one_line, quotable};
use crate::core::{time, trust};
use std::time::Instant;

/// Characters kept of one finding, decision or NEEDS-HUMAN line in the SessionStart text.
const ITEM_MAX: usize = 300;
/// Findings, and decisions, listed in the SessionStart text.
const ITEMS_SHOWN: usize = 10;

/// The relay handler on the bus.
pub(crate) struct RelayHandler;

impl Handler for RelayHandler {
    fn name(&self) -> &'static str {
        "relay"
    }

    fn subscribes(&self, event: EventName) -> bool {
        matches!(event, EventName::SessionStart | EventName::Stop)
    }

    fn enabled(&self, config: &Config) -> bool {
        config.relay.enabled
    }

    fn handle(&self, event: &HookEvent, project: &Project) -> Result<Contribution> {
        match &event.kind {
            EventKind::SessionStart { source } => {
                let s = status::loop_status(project);
                let (sections, resume) =
                    session_start(&s, source, project.config(), project.redactor());
                Ok(Contribution {
                    sections,
                    resume,
                    system_message: problems_line(&s),
                    ..Contribution::default()
                })
            }
            EventKind::Stop {
                stop_hook_active: false,
                ..
            } => on_stop(project, &event.common.session_id, Instant::now()),
            _ => Ok(Contribution::default()),
        }
    }
}

/// One line for the user about files the relay could not read (the loop state, the packet).
fn problems_line(s: &LoopStatus) -> Option<String> {
    let all: Vec<&str> = s
        .problems
        .iter()
        .map(String::as_str)
        .chain(s.packet_problem.as_deref())
        .collect();
    (!all.is_empty()).then(|| format!("baton relay: {} (run `baton relay status`)", all.join("; ")))
}

/// What SessionStart adds for `source`: a sentinel's banner (and the halt as the one next
/// action), else (not on `compact`) the notice of a pending packet and the packet as a
/// resume point.
pub(crate) fn session_start(
    s: &LoopStatus,
    source: &str,
    config: &Config,
    red: &dyn Secrets,
) -> (Vec<Section>, Vec<ResumePoint>) {
    if let Some((banner, halt)) = sentinel_banner(s, red) {
        return (vec![banner], vec![halt]);
    }
    if source == "compact" || !s.pending {
        return (Vec::new(), Vec::new());
    }
    s.packet
        .as_ref()
        .map(|p| {
            (
                vec![pending_packet(s, p, red)],
                vec![packet_point(s, p, config)],
            )
        })
        .unwrap_or_default()
}

/// The protected banner of a NEEDS-HUMAN or STOP sentinel, and the halt as a resume point.
/// Items are clipped: one item of a protected section must not outgrow the context budget.
fn sentinel_banner(s: &LoopStatus, red: &dyn Secrets) -> Option<(Section, ResumePoint)> {
    let path = s.sentinel_path.as_ref()?;
    match s.sentinel? {
        Sentinel::NeedsHuman => {
            // The failing script's output is tool output: the lines the scan blocks go.
            let head = trust::lines(s.sentinel_head.as_deref().unwrap_or(""), red);
            let head: Vec<String> = head.lines().map(|l| clip(l, ITEM_MAX)).collect();
            // Fenced so that no line of the failing output can close the block.
            let head = fenced(&head.join("\n"));
            let body = format!(
                "The relay loop is HALTED: `{path}` exists because verify-on-resume failed. \
Do not continue the loop, do not resume it and do not start a new cycle. Tell the user, and \
leave fixing the tree and deleting `{path}` to a person.\n\nFirst lines of `{path}`:\n{head}"
            );
            let halt = ResumePoint::new(
                "relay NEEDS-HUMAN",
                path.clone(),
                Precedence::Halted,
                None,
                format!("do not continue the relay loop: verify-on-resume failed (`{path}`). Tell the user; a person fixes the tree and deletes that file."),
            );
            Some((
                Section::new("Relay: NEEDS-HUMAN", body, 250)
                    .protected()
                    .source(path.clone()),
                halt,
            ))
        }
        Sentinel::Stop => Some((
            Section::new(
                "Relay: loop stopped",
                format!(
                    "The relay loop is stopped: `{path}` exists. Do not resume the loop or start a \
new cycle; a person deletes `{path}` to let it run again."
                ),
                200,
            )
            .protected()
            .source(path.clone()),
            ResumePoint::new(
                "relay STOP",
                path.clone(),
                Precedence::Halted,
                None,
                format!("do not resume the relay loop: `{path}` stops it. Go on only with what the user asks; a person deletes that file to let the loop run again."),
            ),
        )),
    }
}

/// The protected notice of the pending packet `p`: its key state, findings and decisions
/// (how to resume it is the packet's resume point). Each value is one line: a packet's YAML
/// strings may hold line breaks, and a line of their own could pass for baton's. The packet
/// is shared through git and written by the model: its text is framed as data, each value
/// quoted, and one the integrity scan blocks is named, not shown.
fn pending_packet(s: &LoopStatus, p: &Packet, red: &dyn Secrets) -> Section {
    let value = |text: &str, max: usize| quotable(&trust::field(&one_line(text), red), max);
    let mut packet = format!("Key state: \"{}\"\n", value(&p.key_state(), 2 * ITEM_MAX));
    for (title, items) in [
        ("Open findings", &p.open_findings),
        ("Decisions", &p.decisions),
    ] {
        if !items.is_empty() {
            packet.push_str(&format!("{title}:\n"));
            for item in items.iter().take(ITEMS_SHOWN) {
                packet.push_str(&format!("- \"{}\"\n", value(item, ITEM_MAX)));
            }
        }
    }
    let body = format!(
        "A relay packet is waiting: `{}` (loop {}, written {}). It is the checkpoint of a \
loop that handed off at its cycle budget.\n{}",
        s.packet_path,
        p.loop_id,
        clip(&one_line(&p.written_at), ITEM_MAX),
        trust::frame("relay packet", packet.trim_end())
    );
    Section::new("Relay packet waiting", body, 200)
        .protected()
        .source(s.packet_path.clone())
}

/// The pending packet as a resume point: resume the loop, verified first.
fn packet_point(s: &LoopStatus, p: &Packet, config: &Config) -> ResumePoint {
    ResumePoint::new(
        format!("relay packet {}", p.loop_id),
        s.packet_path.clone(),
        Precedence::Explicit,
        time::parse(&p.written_at),
        // Only the validated loop id: the packet's free text (its phase, findings) is shown in
        // its own section, never as the next action (a packet is shared through git).
        format!("resume the relay loop {}", p.loop_id),
    )
    .how(format!(
        "run `{}` (or `baton relay resume --from {}`); it runs verify-on-resume.sh first, and if that fails, stop and tell the user",
        wake_up_prompt(config, &s.packet_path),
        s.packet_path
    ))
}

/// The session's open work as packet findings: the last failure and the open tasks capture
/// recorded (none when capture has nothing of the session).
fn captured_findings(project: &Project, session_id: &str) -> Vec<String> {
    let Some(r) = project.session_recap(Some(session_id).filter(|s| !s.is_empty())) else {
        return Vec::new();
    };
    let mut out: Vec<String> = r
        .last_failure
        .iter()
        .map(|f| format!("`{}` failed: {} (captured)", f.command, f.error))
        .collect();
    out.extend(
        r.tasks
            .iter()
            .filter(|t| t.status != TaskStatus::Completed)
            .map(|t| format!("open task: {} ({}, captured)", t.subject, t.status.as_str())),
    );
    out
}

/// Stop: hand off at the cycle budget, within `Limits::stop_hook(start)`. The packet's
/// open findings, when the loop left none, come from what capture recorded of session
/// `session_id` (the last failure, the open tasks), marked as captured.
fn on_stop(project: &Project, session_id: &str, start: Instant) -> Result<Contribution> {
    let s = status::loop_status(project);
    if let Some(not_now) = no_hand_off(project, &s) {
        return Ok(not_now);
    }
    if let Err(e) = project.refuse_unresolved(
        "baton relay: cycle budget reached, but not handed off",
        true,
    ) {
        return Ok(message(e.to_string()));
    }
    let mut input = hand_off::Input::default();
    if s.packet.as_ref().is_none_or(|p| p.open_findings.is_empty()) {
        let findings = captured_findings(project, session_id);
        input.open_findings = (!findings.is_empty()).then_some(findings);
    }
    let outcome = match hand_off::run(project, &input, Limits::stop_hook(start)) {
        Err(Error::LockTimeout { path, .. }) => {
            return Ok(message(format!(
                "baton relay: cycle budget reached, but another relay command holds the lock ({}): handoff skipped; the next Stop tries again, or run `baton relay handoff`",
                path.display()
            )));
        }
        other => other?,
    };
    match outcome {
        hand_off::Outcome::HandedOff {
            loop_id,
            packet,
            changed,
            commit,
            wake_up_prompt,
            ..
        } if changed || matches!(commit, Committed::Made { .. } | Committed::Refused { .. }) => Ok(message(format!(
            "baton relay: cycle budget reached ({}/{}): handed off {loop_id} to {packet}; {}. Next session: {wake_up_prompt}",
            s.cycles_this_session,
            s.cycle_budget,
            commit.line()
        ))),
        _ => Ok(Contribution::default()),
    }
}

/// Why the Stop hook does not hand off now, as what it says then (`Some(nothing said)` when
/// there is no loop, a sentinel, or budget left); `None` when the handoff is due.
fn no_hand_off(project: &Project, s: &LoopStatus) -> Option<Contribution> {
    if !s.problems.is_empty() {
        // A loop state that cannot be read is not acted on; the user hears why. (A broken
        // packet is said below, only when a handoff is due: SessionStart said it already.)
        return Some(Contribution {
            system_message: problems_line(s),
            ..Contribution::default()
        });
    }
    if !s.has_loop_state || s.sentinel.is_some() || s.cycles_this_session < s.cycle_budget {
        return Some(Contribution::default());
    }
    if let Some(problem) = &s.packet_problem {
        return Some(message(format!(
            "baton relay: cycle budget reached ({}/{}) but not handing off: {problem}",
            s.cycles_this_session, s.cycle_budget
        )));
    }
    // The bus runs on the defaults when the config has problems: a handoff there could write
    // another relay directory than the user set. Refuse then.
    if let Some(p) = project.config_problem_line() {
        return Some(message(format!(
            "baton relay: cycle budget reached but not handing off on the default config: {p}; fix .claude/baton.yaml (baton doctor lists all)"
        )));
    }
    None
}

/// A contribution that is only a message for the user.
fn message(text: String) -> Contribution {
    Contribution {
        system_message: Some(text),
        ..Contribution::default()
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;

    /// A project in `root` on the default config.
    fn project(root: &std::path::Path) -> Project {
        Project::for_test(root, None)
    }

    #[test]
    fn long_items_are_clipped_and_compact_says_nothing_of_a_pending_packet() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join(".handoff/packets");
        std::fs::create_dir_all(&p).unwrap();
        let long = "x".repeat(5_000);
        std::fs::write(
            p.join("latest.md"),
            format!("---\nloop_id: WL-1\nwritten_at: 2026-11-30T10:00:00Z\nopen_findings: [{long}]\n---\n"),
        )
        .unwrap();
        let s = status::loop_status(&project(t.path()));
        assert!(s.pending && s.problems.is_empty(), "{s:?}");
        let config = Config::default();
        let red = crate::core::redact::Redactor::builtin();
        let (sections, points) = session_start(&s, "startup", &config, &red);
        assert_eq!(sections.len(), 1);
        assert!(sections[0].protected);
        assert!(sections[0].body.len() < 2_000, "{}", sections[0].body.len());
        assert!(points[0].action.len() < 2_000);
        assert_eq!(
            points[0]
                .how
                .as_deref()
                .map(|h| h.contains("`/baton:session-relay resume`")),
            Some(true),
            "{points:?}"
        );
        assert_eq!(
            session_start(&s, "compact", &config, &red),
            (vec![], vec![])
        );
    }

    #[test]
    fn a_broken_loop_state_still_shows_the_sentinel_and_says_why() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join(".handoff/loop");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("loop_state.md"), "cycles_this_session: lots\n").unwrap();
        std::fs::write(d.join("NEEDS-HUMAN"), "NEEDS-HUMAN: verify exited 1\n").unwrap();
        let s = status::loop_status(&project(t.path()));
        assert_eq!(s.cycles_this_session, 0);
        let line = problems_line(&s).unwrap();
        assert!(line.contains("cycles_this_session: lots"), "{line}");
        let red = crate::core::redact::Redactor::builtin();
        let (sections, points) = session_start(&s, "startup", &Config::default(), &red);
        assert!(
            sections[0].body.contains("NEEDS-HUMAN: verify exited 1"),
            "{sections:?}"
        );
        assert_eq!(points[0].precedence, Precedence::Halted);
    }
}
