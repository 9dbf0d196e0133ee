//! The command line (clap) and its dispatch. Every subcommand has `--help`; errors reach the
//! user as one line on stderr.

use crate::core::ctx::Ctx;
use crate::core::project::{Project, Readers};
use crate::{audit, bridge, capture, clean, doctor, handoff, hook, recall, relay, status};
use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::path::PathBuf;

/// baton: session continuity for Claude Code.
#[derive(Debug, Parser)]
#[command(
    name = "baton",
    version,
    about = "Session continuity for Claude Code: relay, audit, handoff and bridge in one hook binary",
    long_about = "Session continuity for Claude Code.\n\nClaude Code runs `baton hook` on every hook event (hooks/hooks.json). \
The plugin's slash commands and skills run the other subcommands. State is kept in plain files. \
In your repository: .rune/ (bridge), .handoff/ (relay), .boo/ (audit) and datarim/sessions/ (handoff); \
per user, outside it: ~/.local/state/baton/ (session digests and logs; `baton capture status` \
shows the folder). `baton clean` lists both."
)]
struct Cli {
    /// Project root (default: CLAUDE_PROJECT_DIR, else the git top of the current directory)
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Read one hook event (JSON) on stdin and print Claude Code's hook JSON; what hooks.json runs
    Hook {
        /// The event name hooks.json passes; used only when the input does not name its event
        event: Option<String>,
    },
    /// One screen: which subsystems have state in this project
    Status {
        /// Print JSON instead of text
        #[arg(long, conflicts_with = "doctor")]
        json: bool,
        /// Then doctor's checks; exits 0 whatever they find (what /baton:status shows:
        /// Claude Code stops a slash command whose shell line exits non-zero)
        #[arg(long)]
        doctor: bool,
    },
    /// Check the installation: binary, plugin files, project, config, state directories, and
    /// the merge rules a team's clones need for .rune/ and .handoff/
    Doctor {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
        /// Write the missing merge rules (.rune/.gitattributes, .rune/.gitignore,
        /// .handoff/.gitattributes); commit them yourself
        #[arg(long)]
        fix: bool,
    },
    /// Remove baton's private state for this project (lists it first; removes with --yes)
    #[command(
        long_about = "Remove what baton keeps for this project that is private: the audit trail (.boo/) and the \
handoff artefacts (datarim/sessions/) while they are kept out of git, and the per-user state outside the \
project (session digests and log, the integrity cache), with the folders that leaves empty. Without --yes \
it only lists what it would remove. From .boo/ and datarim/sessions/ (or where the config moves them) only \
the files baton writes go: a file or folder of yours there stays, and the folder with it, listed with why. The committed state (.rune/, .handoff/) goes only with --committed, by the same rule. \
--user instead lists what baton keeps for you outside every project (its private state, caches and \
cross-project store), and what stays until you or Claude Code remove it."
    )]
    Clean {
        /// Remove (without it, only list what would be removed)
        #[arg(long)]
        yes: bool,
        /// Also remove the committed state: .rune/ (bridge) and .handoff/ (relay)
        #[arg(long, conflicts_with = "user")]
        committed: bool,
        /// What baton keeps for you outside every project, not this project's (before an
        /// uninstall)
        #[arg(long)]
        user: bool,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// relay: hand a long loop from session to session (.handoff/)
    #[command(subcommand)]
    Relay(relay::Command),
    /// audit: named audit sessions over a crash-safe trail (.boo/)
    #[command(subcommand)]
    Audit(audit::Command),
    /// handoff: write, check and resume session artefacts (datarim/sessions/)
    #[command(subcommand)]
    Handoff(handoff::Command),
    /// bridge: the project's memory (.rune/)
    #[command(subcommand)]
    Bridge(bridge::Command),
    /// capture: what baton read of each session from Claude Code's transcript (private state)
    #[command(subcommand)]
    Capture(capture::Command),
    /// Search everything baton keeps about this project: decisions, conventions, learnings,
    /// progress, notes, corrections, prompts, tool calls, changes, handoffs, packets, sessions
    Recall(recall::Args),
    /// What happened in a time range, by session
    Timeline(recall::TimelineArgs),
    /// Serve recall and timeline to the model: an MCP server on stdio (the plugin starts it)
    Mcp,
}

/// Runs baton with `args` (the first is the program name) and returns the exit code.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let is_hook = args.get(1).is_some_and(|a| a == "hook");
    if is_hook {
        // The hot path skips clap: building the whole command tree costs more than most
        // hooks' own work. `baton hook [EVENT]` is all hooks.json ever runs; anything else
        // (`--help`, extra arguments) goes through clap below.
        let event = args.get(2).and_then(|a| a.to_str());
        if args.len() <= 3 && !event.is_some_and(|e| e.starts_with('-')) {
            let ctx = Ctx::from_process();
            let code = run_hook_on_process_streams(event, &ctx);
            note_peak_memory(&ctx);
            return code;
        }
    } else {
        install_cli_panic_hook();
        // datarim's kill switch wins before argument parsing: `baton handoff write` with
        // DATARIM_DISABLE_SESSION_HANDOFF=1 exits 0 even on arguments clap would refuse.
        if handoff::write_switched_off(&args, &Ctx::from_process()) {
            return 0;
        }
    }
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e)
            if is_hook
                && !matches!(
                    e.kind(),
                    clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
                ) =>
        {
            // A hook must never exit 2 (Claude Code would block): report and go on.
            let first = e.to_string();
            let first = first.lines().next().unwrap_or("bad arguments");
            eprintln!("baton: hook: {first}");
            return 1;
        }
        Err(e)
            if matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            ) =>
        {
            let _ = e.print();
            return e.exit_code();
        }
        Err(e) => {
            // The message quotes the arguments; a secret pasted into one (a key given to a
            // flag) must not be echoed to a terminal log or back to the model.
            let project = Project::open(Ctx::from_process(), None, None, Readers::NONE);
            eprint!("{}", project.redact(&e.to_string()));
            return e.exit_code();
        }
    };
    let ctx = Ctx::from_process();
    if let Command::Hook { event } = &cli.command {
        return run_hook_on_process_streams(event.as_deref(), &ctx);
    }
    let project = Project::open(ctx, cli.root, None, hook::bus::readers());
    match dispatch(cli.command, &project) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("baton: {}", project.redact(&e.to_string()));
            e.exit_code()
        }
    }
}

/// Runs one command of the CLI (not `hook`) in `project`.
fn dispatch(command: Command, project: &Project) -> crate::core::error::Result<i32> {
    match command {
        Command::Hook { .. } => Ok(0),
        Command::Status { json, doctor } => {
            let code = status::run(project, json);
            if doctor {
                crate::core::io::print("\n");
                doctor::run(project, false, false);
            }
            Ok(code)
        }
        Command::Doctor { json, fix } => Ok(doctor::run(project, json, fix)),
        Command::Clean {
            yes,
            committed,
            user,
            json,
        } => clean::run(
            project,
            clean::Options {
                yes,
                scope: match (user, committed) {
                    (true, _) => clean::Scope::User,
                    (false, true) => clean::Scope::ProjectAndCommitted,
                    (false, false) => clean::Scope::Project,
                },
                json,
            },
        ),
        Command::Relay(c) => relay::run(c, project),
        Command::Audit(c) => audit::run(c, project),
        Command::Handoff(c) => handoff::run(c, project),
        Command::Bridge(c) => bridge::run(c, project),
        Command::Capture(c) => Ok(capture::run(c, project)),
        Command::Recall(args) => recall::run(&args, project),
        Command::Timeline(args) => recall::run_timeline(&args, project),
        Command::Mcp => Ok(recall::run_mcp(project)),
    }
}

/// `baton hook` on the process's own streams: the hook prints its one answer itself (the
/// CLI's output goes through `core::io`).
#[allow(clippy::disallowed_methods)]
fn run_hook_on_process_streams(event: Option<&str>, ctx: &Ctx) -> i32 {
    hook::run_hook(
        event,
        ctx,
        &mut std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    )
}

/// For `scripts/bench-capture`: when `BATON_PEAK_MEMORY_FILE` names a file, the hook
/// appends its peak resident memory there (the `VmHWM` line of `/proc/self/status`), after
/// it has answered. Unset — always, outside the benchmark — it costs one variable lookup.
fn note_peak_memory(ctx: &Ctx) {
    let Some(file) = ctx.env.var("BATON_PEAK_MEMORY_FILE") else {
        return;
    };
    let status = crate::core::fsx::read_limited(
        std::path::Path::new("/proc/self/status"),
        crate::core::fsx::Limit::STATE,
    );
    if let Some(line) = status.ok().flatten().and_then(|s| {
        s.lines()
            .find(|l| l.starts_with("VmHWM:"))
            .map(crate::core::text::one_line)
    }) {
        let _ = crate::core::fsx::append_line(
            std::path::Path::new(&file),
            &line,
            crate::core::fsx::PRIVATE_FILE,
        );
    }
}

/// For the CLI: a panic is one line on stderr and exit 1, never a backtrace dump. (A closed
/// stdout is not a panic: `core::io` ends the command quietly. The hook path has its own
/// hook that keeps handlers' panics for its one-line report.)
fn install_cli_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(ToString::to_string)
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("baton: internal error (this is a bug in baton): {msg}{at}");
        std::process::exit(1);
    }));
}
