//! `baton relay resume [--from PATH]`: the seed's RESUME steps.
//!
//! 1. a sentinel halts: NEEDS-HUMAN (a person must look) or STOP (stopped on purpose); it is
//!    looked for again after the verify script, under the relay lock, before anything changes;
//! 2. no packet → nothing to resume: the weave-loop starts in DISCOVER mode;
//! 3. the packet's `worktree`: when it names another work tree of the same git repository
//!    (same common dir), the resume runs there; otherwise (gone, `/`, another repository) the
//!    resume runs where the packet was found, and says so;
//! 4. a packet already resumed (its id is `last_resumed_packet`) bumps nothing again;
//! 5. `verify-on-resume.sh` runs (see `verify`); a failure writes NEEDS-HUMAN and halts;
//! 6. hazard check and the `weave send relay:resumed` heartbeat, best effort;
//! 7. `cycles_this_session: 0`, `cycles_total` + 1, `last_resumed_packet`, committed as
//!    `weave-loop: resume (at WL-NNN)`.

use super::handoff::{self, stamp, Committed};
use super::heartbeat::{self, Heartbeat};
use super::layout::{read_opt, Layout, Sentinel};
use super::loop_state::{self as ls, LoopState};
use super::packet::Packet;
use super::verify::{self, Verdict};
use crate::core::config::{self, Config};
use crate::core::ctx::Ctx;
use crate::core::error::{Error, Result};
use crate::core::redact::Redactor;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The result of a resume.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub(crate) enum ResumeOutcome {
    /// A sentinel is present: nothing done; the loop must not continue.
    Halted {
        sentinel: Sentinel,
        path: String,
        first_lines: String,
    },
    /// No packet: nothing to resume (DISCOVER mode).
    NoPacket { packet: String },
    /// This packet was resumed before: nothing bumped.
    AlreadyResumed {
        packet_id: String,
        key_state: String,
    },
    /// The verify script failed: NEEDS-HUMAN written.
    VerifyFailed {
        packet_id: String,
        needs_human: String,
        #[serde(flatten)]
        verdict: Verdict,
    },
    /// Resumed.
    Resumed {
        loop_id: String,
        packet_id: String,
        root: PathBuf,
        worktree_note: Option<String>,
        key_state: String,
        open_findings: Vec<String>,
        cycles_total: u64,
        #[serde(flatten)]
        verdict: Verdict,
        #[serde(flatten)]
        commit: Committed,
        #[serde(flatten)]
        heartbeat: Heartbeat,
    },
}

impl ResumeOutcome {
    /// The exit code: 0 when the loop may go on, 1 when it must not.
    pub(crate) fn exit_code(&self) -> i32 {
        match self {
            ResumeOutcome::Halted { .. } | ResumeOutcome::VerifyFailed { .. } => 1,
            _ => 0,
        }
    }
}

/// The first `n` lines of a sentinel file, redacted (empty when unreadable). Anyone may write
/// a sentinel, and its text is printed where the model reads it.
pub(crate) fn sentinel_head(layout: &Layout, s: Sentinel, n: usize, redactor: &Redactor) -> String {
    read_opt(&layout.sentinel_path(s))
        .ok()
        .flatten()
        .map(|t| {
            let t = redactor.redact(&t).text;
            t.lines().take(n).collect::<Vec<_>>().join("\n")
        })
        .unwrap_or_default()
}

fn halted(layout: &Layout, redactor: &Redactor) -> Option<ResumeOutcome> {
    layout.sentinel().map(|s| ResumeOutcome::Halted {
        sentinel: s,
        path: Layout::show(layout.sentinel_rel(s)),
        first_lines: sentinel_head(layout, s, 8, redactor),
    })
}

/// Resumes the loop in `root` from `from` (default: the layout's packet).
pub(crate) fn resume(
    ctx: &Ctx,
    root: &Path,
    config: &Config,
    from: Option<&Path>,
) -> Result<ResumeOutcome> {
    let layout = Layout::new(root, config);
    if let Some(h) = halted(
        &layout,
        &Redactor::with_extra(&config.redact.extra_patterns),
    ) {
        return Ok(h);
    }
    let packet_rel = from.map_or_else(|| layout.packet_rel.clone(), Path::to_path_buf);
    let Some(text) = read_opt(&root.join(&packet_rel))? else {
        return Ok(ResumeOutcome::NoPacket {
            packet: Layout::show(&packet_rel),
        });
    };
    let packet = Packet::parse(&text, &Layout::show(&packet_rel))?;

    // Where to resume: the packet's worktree when it is another directory that exists.
    let (root, loaded_config, worktree_note) = pick_worktree(ctx, root, &packet)?;
    let config = loaded_config.as_ref().unwrap_or(config);
    let layout = Layout::new(&root, config);
    let redactor = Redactor::with_extra(&config.redact.extra_patterns);
    if let Some(h) = halted(&layout, &redactor) {
        return Ok(h);
    }
    let id = packet.id();
    let already = |s: &LoopState| s.non_empty(ls::LAST_RESUMED) == Some(id.as_str());
    if LoopState::load(&layout)?.is_some_and(|s| already(&s)) {
        return Ok(ResumeOutcome::AlreadyResumed {
            packet_id: id,
            key_state: packet.key_state(),
        });
    }

    let timeout = Duration::from_secs(config.relay.verify_timeout_secs);
    let verdict = verify::run(&layout, timeout, &redactor);
    if let Verdict::Failed {
        script,
        reason,
        output,
    } = &verdict
    {
        let text = verify::needs_human_text(
            &stamp(ctx),
            &Layout::show(&packet_rel),
            &id,
            script,
            reason,
            output,
        );
        verify::write_needs_human(&layout, &text)?;
        return Ok(ResumeOutcome::VerifyFailed {
            packet_id: id,
            needs_human: Layout::show(&layout.needs_human_rel),
            verdict,
        });
    }

    let _lock = layout.lock()?;
    // A person may have stopped the loop while the script ran or while another relay command
    // held the lock: look again, under the lock, before anything is bumped or committed.
    if let Some(h) = halted(&layout, &redactor) {
        return Ok(h);
    }
    let state_file = layout.abs(&layout.loop_state_rel);
    let mut state = LoopState::load_or_fresh(&layout, config.relay.cycle_budget)?;
    if already(&state) {
        // Another resume finished while the script ran.
        return Ok(ResumeOutcome::AlreadyResumed {
            packet_id: id,
            key_state: packet.key_state(),
        });
    }
    let hazards = heartbeat::hazard(ctx, &root, config);
    let heartbeat = heartbeat::send(ctx, &root, config, "relay:resumed", &hazards, None);
    let total = state.number(ls::CYCLES_TOTAL, 0, &state_file)? + 1;
    state.set(ls::CYCLES_THIS_SESSION, "0");
    state.set(ls::CYCLES_TOTAL, &total.to_string());
    state.set(ls::LAST_RESUMED, &id);
    state.set(ls::LOOP_ID, &packet.loop_id);
    state.save(&layout)?;
    let message = format!("weave-loop: resume (at {})", packet.loop_id);
    let commit = handoff::commit(&root, &[&layout.loop_state_rel], &message)?;
    Ok(ResumeOutcome::Resumed {
        loop_id: packet.loop_id.clone(),
        packet_id: id,
        key_state: packet.key_state(),
        open_findings: packet.open_findings.clone(),
        root,
        worktree_note,
        cycles_total: total,
        verdict,
        commit,
        heartbeat,
    })
}

/// The root to resume in, its config when it differs from the caller's, and a note.
fn pick_worktree(
    ctx: &Ctx,
    root: &Path,
    packet: &Packet,
) -> Result<(PathBuf, Option<Config>, Option<String>)> {
    if packet.worktree.is_empty() {
        return Ok((root.to_path_buf(), None, None));
    }
    let wt = PathBuf::from(&packet.worktree);
    let same = match (wt.canonicalize(), root.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same {
        return Ok((root.to_path_buf(), None, None));
    }
    if wt.is_dir() && same_repository(&wt, root) {
        let loaded = config::load(ctx, &wt);
        // As for the caller's own config: no state change on the defaults.
        if let Some(p) = loaded.problems.first() {
            return Err(Error::Invalid(format!(
                "the packet's worktree {} has a config problem: {p}; the relay does not change its state on the default config: fix its .claude/baton.yaml (baton doctor lists all)",
                wt.display()
            )));
        }
        let note = format!(
            "the packet's worktree is {}: resumed there; continue the loop in that directory",
            wt.display()
        );
        return Ok((wt, Some(loaded.config), Some(note)));
    }
    let why = if wt.is_dir() {
        "is not a work tree of this repository"
    } else {
        "does not exist here"
    };
    let note = format!(
        "the packet's worktree {} {why}: resumed in {}, where the packet is",
        wt.display(),
        root.display()
    );
    Ok((root.to_path_buf(), None, Some(note)))
}

/// Whether `dir` is inside a (non-bare) work tree of the repository that holds `root`: both
/// share git's common dir (the main `.git` of linked worktrees). A packet names its worktree,
/// and anything else (`/`, another repository) must not get its verify script run or its loop
/// state written.
fn same_repository(dir: &Path, root: &Path) -> bool {
    let (Ok(a), Ok(b)) = (
        git2::Repository::discover(dir),
        git2::Repository::discover(root),
    ) else {
        return false;
    };
    if a.is_bare() || a.workdir().is_none() {
        return false;
    }
    match (a.commondir().canonicalize(), b.commondir().canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// The CLI's text for an outcome: (stdout, stderr).
pub(crate) fn render(o: &ResumeOutcome) -> (String, String) {
    match o {
        ResumeOutcome::Halted {
            sentinel: Sentinel::Stop,
            path,
            ..
        } => (
            String::new(),
            format!("baton: the loop is stopped ({path} exists): not resuming. Do not continue the loop; delete {path} to let it run again.\n"),
        ),
        ResumeOutcome::Halted {
            sentinel: Sentinel::NeedsHuman,
            path,
            first_lines,
        } => (
            format!("{first_lines}\n"),
            format!("baton: the loop is halted for a human ({path} exists): not resuming. Do not continue the loop; a person must fix the tree and delete {path}.\n"),
        ),
        ResumeOutcome::NoPacket { packet } => (
            format!("relay: no packet at {packet}: nothing to resume. Start the weave-loop in DISCOVER mode.\n"),
            String::new(),
        ),
        ResumeOutcome::AlreadyResumed { packet_id, key_state } => (
            format!("relay: packet {packet_id} was already resumed: nothing bumped. State: {key_state}. Continue the weave-loop in CYCLE mode.\n"),
            String::new(),
        ),
        ResumeOutcome::VerifyFailed {
            needs_human,
            verdict,
            ..
        } => {
            let (script, reason, output) = match verdict {
                Verdict::Failed { script, reason, output } => (script.as_str(), reason.as_str(), output.as_str()),
                _ => ("verify script", "failed", ""),
            };
            (
                format!("{}\n", verify::tail(output, 20)),
                format!("baton: {script} {reason}; wrote {needs_human}. Do not continue the loop: fix the tree, delete {needs_human}, then run `baton relay resume`.\n"),
            )
        }
        ResumeOutcome::Resumed {
            loop_id,
            packet_id,
            worktree_note,
            key_state,
            open_findings,
            cycles_total,
            verdict,
            commit,
            heartbeat,
            ..
        } => {
            let mut out = format!("relay: resumed {loop_id} from packet {packet_id}\n");
            if let Some(n) = worktree_note {
                out.push_str(&format!("worktree: {n}\n"));
            }
            out.push_str(&match verdict {
                Verdict::Missing { script } => format!("verify: no {script}: nothing verified (write one to check the tree on every resume)\n"),
                Verdict::Passed { script, millis } => format!("verify: {script} passed ({millis} ms)\n"),
                Verdict::Failed { .. } => String::new(),
            });
            out.push_str(&format!(
                "cycles: this session 0, total {cycles_total}; {}\n{}\nstate: {key_state}\n",
                commit.line(),
                heartbeat.line("relay:resumed")
            ));
            for f in open_findings {
                out.push_str(&format!("open finding: {f}\n"));
            }
            out.push_str("Continue the weave-loop in CYCLE mode; run `baton relay cycle` after each finished cycle.\n");
            (out, String::new())
        }
    }
}
