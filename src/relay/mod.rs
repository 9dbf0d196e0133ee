//! relay: long autonomous loops split into short sessions (DESIGN.md, "relay"). The running
//! session hands off a committed checkpoint packet and stops; a fresh session verifies the
//! tree and resumes. The CLI (`baton relay …`) and the hook handler call the same functions.
//!
//! | file | job |
//! |---|---|
//! | layout.rs | where the files live; sentinels; symlink-safe reads |
//! | loop_state.rs | `loop_state.md` (key: value lines, unknown lines kept) |
//! | packet.rs | `packets/latest.md` (front matter + body) |
//! | handoff.rs | HAND OFF |
//! | commit.rs | committing exactly the relay's files |
//! | resume.rs, verify.rs | RESUME and its verify script |
//! | proc.rs, heartbeat.rs | a child process with a deadline; `weave send` |
//! | status.rs | status, cycle, the survey the hooks read |
//! | handler.rs | SessionStart and Stop |

mod commit;
mod handler;
mod handoff;
mod heartbeat;
mod layout;
mod loop_state;
mod packet;
mod resume;
mod status;
mod verify;

pub(crate) use handler::RelayHandler;

use crate::core::error::{Error, Result};
use crate::core::io;
use crate::core::project::Project;
use crate::core::yaml;
use handoff::HandoffInput;
use std::path::PathBuf;
use std::time::Duration;

/// `baton relay` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Hand off: write and commit the checkpoint packet, print the wake-up prompt. Takes the
    /// orchestrator state as YAML on stdin and/or flags; fields not given carry over from the
    /// previous packet of the same loop.
    Handoff {
        /// The loop id, WL-NNN (default: the loop state's, else the previous packet's)
        #[arg(long, value_name = "WL-NNN")]
        loop_id: Option<String>,
        /// orchestrator_phase
        #[arg(
            long = "phase",
            visible_alias = "orchestrator-phase",
            value_name = "PHASE"
        )]
        orchestrator_phase: Option<String>,
        /// verifier_status
        #[arg(long, value_name = "STATUS")]
        verifier_status: Option<String>,
        /// guardian_verdict
        #[arg(long, value_name = "VERDICT")]
        guardian_verdict: Option<String>,
        /// pr_url ("" clears it)
        #[arg(long, value_name = "URL")]
        pr_url: Option<String>,
        /// landed_this_session
        #[arg(
            long = "landed",
            visible_alias = "landed-this-session",
            value_name = "N"
        )]
        landed_this_session: Option<u32>,
        /// One open finding (repeat the flag for more; replaces the list)
        #[arg(long = "finding", value_name = "TEXT")]
        open_findings: Vec<String>,
        /// One decision (repeat the flag for more; replaces the list)
        #[arg(long = "decision", value_name = "TEXT")]
        decisions: Vec<String>,
        /// Do not read YAML from stdin
        #[arg(long)]
        no_stdin: bool,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Resume: verify the tree (verify-on-resume.sh), reset the session's cycles, bump the
    /// total, commit. Exit 0: continue the loop; exit 1: do not.
    Resume {
        /// The packet, relative to the project root
        #[arg(long, value_name = "PATH")]
        from: Option<PathBuf>,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// A loop cycle finished: bump cycles_this_session (says when the budget is reached)
    Cycle {
        /// Record the loop id, WL-NNN, in the loop state
        #[arg(long, value_name = "WL-NNN")]
        loop_id: Option<String>,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Loop id, cycles and budget, sentinels, the last packet and whether it is pending
    Status {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
}

/// How long `handoff` waits for stdin to be closed. A heredoc or a pipe is done at once; an
/// inherited stdin that nobody closes must not hang the command.
const STDIN_WAIT: Duration = Duration::from_secs(3);

/// The YAML on stdin, or nothing when stdin is a terminal, `--no-stdin` was given, or stdin
/// was not closed within `STDIN_WAIT` (said on stderr).
fn stdin_yaml(no_stdin: bool) -> Result<String> {
    if no_stdin || io::stdin_is_terminal() {
        return Ok(String::new());
    }
    match io::read_stdin(STDIN_WAIT)? {
        io::Stdin::Text(text) => Ok(text),
        io::Stdin::NotClosed => {
            eprintln!(
                "baton: stdin was not closed within {} s: ignored (pass --no-stdin, or pipe the YAML in)",
                STDIN_WAIT.as_secs()
            );
            Ok(String::new())
        }
    }
}

/// What to do about a config with problems (the defaults are in force then, which may be
/// another relay directory or budget than the user set).
const CONFIG_FIX: &str = "fix .claude/baton.yaml (baton doctor lists all)";

/// A state-changing command refuses to run on the defaults when the config has problems.
fn refuse_on_config_problems(project: &Project) -> Result<()> {
    match project.config_problems().first() {
        Some(p) => Err(Error::Invalid(format!(
            "{p}; the relay does not change its state on the default config: {CONFIG_FIX}"
        ))),
        None => Ok(()),
    }
}

/// Runs a `baton relay` command; returns the exit code.
pub(crate) fn run(command: Command, project: &Project) -> Result<i32> {
    let config = project.config();
    if !matches!(command, Command::Status { .. }) {
        refuse_on_config_problems(project)?;
    }
    match command {
        Command::Handoff {
            loop_id,
            orchestrator_phase,
            verifier_status,
            guardian_verdict,
            pr_url,
            landed_this_session,
            open_findings,
            decisions,
            no_stdin,
            json,
        } => {
            let from_yaml: HandoffInput = yaml::parse(&stdin_yaml(no_stdin)?, "stdin")?;
            let flags = HandoffInput {
                loop_id,
                orchestrator_phase,
                verifier_status,
                guardian_verdict,
                pr_url,
                landed_this_session,
                open_findings: (!open_findings.is_empty()).then_some(open_findings),
                decisions: (!decisions.is_empty()).then_some(decisions),
            };
            let outcome = handoff::handoff(
                &project.ctx,
                &project.root,
                config,
                &from_yaml.overlay(flags),
                handoff::Limits::cli(),
            )?;
            if json {
                io::print_json(&outcome);
            } else {
                crate::out!("{}", handoff::render(&outcome));
            }
            Ok(0)
        }
        Command::Resume { from, json } => {
            let outcome = resume::resume(&project.ctx, &project.root, config, from.as_deref())?;
            if json {
                io::print_json(&outcome);
            } else {
                let (out, err) = resume::render(&outcome);
                crate::out!("{out}");
                eprint!("{err}");
            }
            Ok(outcome.exit_code())
        }
        Command::Cycle { loop_id, json } => {
            let c = status::cycle(&project.root, config, loop_id.as_deref())?;
            if json {
                io::print_json(&c);
            } else {
                crate::out!("{}", status::render_cycle(&c));
            }
            Ok(0)
        }
        Command::Status { json } => {
            if let Some(p) = project.config_problems().first() {
                eprintln!(
                    "baton: warning: {p}; this status is read with the defaults: {CONFIG_FIX}"
                );
            }
            let s = status::survey(&project.root, config);
            if json {
                io::print_json(&s);
            } else {
                crate::out!("{}", status::render(&s));
            }
            Ok(0)
        }
    }
}
