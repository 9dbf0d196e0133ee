//! relay: long autonomous loops split into short sessions (DESIGN.md, "relay"). The running
//! session hands off a committed checkpoint packet and stops; a fresh session verifies the
//! tree and resumes. The CLI (`baton relay …`) and the hook handler call the same functions,
//! each with the run's `Project`.
//!
//! | file | job |
//! |---|---|
//! | layout.rs | where the files live; the lock; sentinels; symlink-safe reads |
//! | loop_state.rs | `loop_state.md` (key: value lines, unknown lines kept) |
//! | packet.rs | `packets/latest.md` (front matter + body); the wake-up prompt |
//! | hand_off.rs | HAND OFF (`baton relay handoff`, the Stop hook at the budget) |
//! | commit.rs | committing exactly the relay's files |
//! | resume.rs, verify.rs | RESUME and its verify script |
//! | heartbeat.rs | `weave send`, best effort (the child's deadline is `core::exec`'s) |
//! | cycle.rs | `baton relay cycle` |
//! | status.rs | what the relay has in a project (`baton relay status`, the hooks) |
//! | handler.rs | SessionStart and Stop |
//! | recall_docs.rs | packets (on disk and in hand-off commits) as documents for `baton recall` |

mod commit;
mod cycle;
mod hand_off;
mod handler;
mod heartbeat;
mod layout;
mod loop_state;
mod packet;
mod recall_docs;
mod resume;
mod rules;
mod status;
mod verify;

pub(crate) use handler::RelayHandler;
pub(crate) use recall_docs::RECALL_DOCS;
pub(crate) use rules::{fix as fix_merge_rules, problems as merge_rule_problems};

use crate::core::error::{Error, Result};
use crate::core::io;
use crate::core::io::out;
use crate::core::project::Project;
use crate::core::yaml;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `baton relay` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Hand off: write and commit the checkpoint packet, print the wake-up prompt. Takes the
    /// orchestrator state as YAML on stdin and/or flags; fields not given carry over from the
    /// previous packet of the same loop.
    Handoff {
        // The orchestrator state: these flags are laid over the YAML on stdin.
        #[command(flatten)]
        input: hand_off::Input,
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
        /// Resume in this project even when the packet names another worktree (one that does
        /// not exist here, e.g. a packet from another clone, is otherwise not resumed: DISCOVER)
        #[arg(long)]
        here: bool,
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
    match project.config_problem_line() {
        Some(p) => Err(Error::Invalid(format!(
            "{p}; the relay does not change its state on the default config: {CONFIG_FIX}"
        ))),
        None => Ok(()),
    }
}

/// Runs a `baton relay` command; returns the exit code.
pub(crate) fn run(command: Command, project: &Project) -> Result<i32> {
    if !matches!(command, Command::Status { .. }) {
        refuse_on_config_problems(project)?;
        project.require_state()?;
        // Nothing is written or committed in the middle of an unresolved merge of the
        // relay's (or the bridge's) files.
        project.refuse_unresolved("relay: nothing done", true)?;
    }
    match command {
        Command::Handoff {
            input,
            no_stdin,
            json,
        } => {
            let from_yaml: hand_off::Input =
                yaml::parse_redacted(&stdin_yaml(no_stdin)?, "stdin", project.redactor())?;
            let input = from_yaml.overlay(input);
            let outcome = hand_off::run(project, &input, hand_off::Limits::cli())?;
            print(json, &outcome, hand_off::render);
            Ok(0)
        }
        Command::Resume { from, here, json } => resume(project, from.as_deref(), here, json),
        Command::Cycle { loop_id, json } => {
            let cycled = cycle::run(project, loop_id.as_deref())?;
            print(json, &cycled, cycle::render);
            Ok(0)
        }
        Command::Status { json } => {
            if let Some(p) = project.config_problem_line() {
                eprintln!(
                    "baton: warning: {p}; this status is read with the defaults: {CONFIG_FIX}"
                );
            }
            print(json, &status::loop_status(project), status::render);
            Ok(0)
        }
    }
}

/// `baton relay resume`: the outcome's text goes to stdout and stderr (what must stop the
/// loop to stderr); the exit code says whether the loop may go on.
fn resume(project: &Project, from: Option<&Path>, here: bool, json: bool) -> Result<i32> {
    let outcome = resume::run(project, from, here)?;
    if json {
        io::print_json(&outcome);
    } else {
        let (out, err) = resume::render(&outcome);
        out!("{out}");
        eprint!("{err}");
    }
    Ok(outcome.exit_code())
}

/// Prints `value` as JSON, or as the text `render` makes of it.
fn print<T: Serialize>(json: bool, value: &T, render: fn(&T) -> String) {
    if json {
        io::print_json(value);
    } else {
        out!("{}", render(value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    /// The `hand_off::Input` the flags of `baton relay handoff ARGS` make.
    fn flags(args: &[&str]) -> hand_off::Input {
        let command_line = ["baton", "handoff"].iter().chain(args);
        match Cli::try_parse_from(command_line).unwrap().command {
            Command::Handoff { input, .. } => input,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn handoff_flags_fill_the_same_input_as_the_yaml_and_override_it() {
        // No flag: nothing given, so nothing overrides the YAML.
        assert_eq!(flags(&[]), hand_off::Input::default());
        let given = flags(&[
            "--loop-id",
            "WL-2",
            "--orchestrator-phase",
            "land",
            "--landed-this-session",
            "4",
            "--finding",
            "a",
            "--finding",
            "b",
        ]);
        assert_eq!(given.orchestrator_phase.as_deref(), Some("land"));
        assert_eq!(given.landed_this_session, Some(4));
        assert_eq!(given.open_findings, Some(vec!["a".into(), "b".into()]));
        assert_eq!(given.decisions, None);
        let yaml: hand_off::Input = yaml::parse(
            "loop_id: WL-1\nverifier_status: green\nopen_findings: [x]\ndecisions: [y]\n",
            "stdin",
        )
        .unwrap();
        let input = yaml.overlay(given);
        assert_eq!(input.loop_id.as_deref(), Some("WL-2"));
        assert_eq!(input.verifier_status.as_deref(), Some("green"));
        assert_eq!(input.open_findings, Some(vec!["a".into(), "b".into()]));
        assert_eq!(input.decisions, Some(vec!["y".into()]));
        assert_eq!(flags(&["--pr-url", ""]).pr_url.as_deref(), Some(""));
        // The YAML keys are the field names; an unknown key is an error.
        assert!(yaml::parse::<hand_off::Input>("phase: x\n", "stdin").is_err());
    }
}
