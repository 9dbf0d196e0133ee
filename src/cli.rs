//! The command line (clap) and its dispatch. Every subcommand has `--help`; errors reach the
//! user as one line on stderr.

use crate::core::config;
use crate::core::ctx::Ctx;
use crate::core::root::project_root;
use crate::{doctor, hook, status};
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
The plugin's slash commands and skills run the other subcommands. State lives in plain files in your \
repository: .handoff/ (relay), .boo/ (audit), datarim/sessions/ (handoff) and .rune/ (bridge)."
)]
struct Cli {
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
        #[arg(long)]
        json: bool,
        /// Project root (default: CLAUDE_PROJECT_DIR, else the git top of the current directory)
        #[arg(long)]
        root: Option<PathBuf>,
    },
    /// Check the installation: binary, plugin files, project, config, state directories
    Doctor {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
        /// Project root (default: CLAUDE_PROJECT_DIR, else the git top of the current directory)
        #[arg(long)]
        root: Option<PathBuf>,
    },
}

/// Runs baton with `args` (the first is the program name) and returns the exit code.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let is_hook = args.get(1).is_some_and(|a| a == "hook");
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if is_hook => {
            // A hook must never exit 2 (Claude Code would block): report and go on.
            let first = e.to_string();
            let first = first.lines().next().unwrap_or("bad arguments");
            eprintln!("baton: hook: {first}");
            return 1;
        }
        Err(e) => {
            let code = e.exit_code();
            let _ = e.print();
            return code;
        }
    };
    let ctx = Ctx::from_process();
    match cli.command {
        Command::Hook { event } => hook::run_hook(
            event.as_deref(),
            &ctx,
            &mut std::io::stdin().lock(),
            &mut std::io::stdout().lock(),
            &mut std::io::stderr().lock(),
        ),
        Command::Status { json, root } => {
            let root = resolve_root(&ctx, root);
            let loaded = config::load(&ctx, &root);
            let states = status::survey(&root, &loaded.config);
            if json {
                let v = serde_json::json!({
                    "root": root,
                    "version": env!("CARGO_PKG_VERSION"),
                    "subsystems": states,
                    "config_problems": loaded.problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
                });
                println!("{v}");
            } else {
                let note = (!loaded.problems.is_empty())
                    .then(|| format!("{} problem(s); run `baton doctor`", loaded.problems.len()));
                print!("{}", status::render(&root, &states, note.as_deref()));
            }
            0
        }
        Command::Doctor { json, root } => {
            let root = resolve_root(&ctx, root);
            let exe = std::env::current_exe().ok();
            let plugin = doctor::plugin_root(&ctx, exe.as_deref());
            let checks = doctor::run_checks(&ctx, &root, plugin.as_deref());
            if json {
                println!("{}", serde_json::json!({ "checks": checks }));
            } else {
                print!("{}", doctor::render(&checks));
            }
            i32::from(checks.iter().any(|c| c.level == doctor::Level::Fail))
        }
    }
}

fn resolve_root(ctx: &Ctx, explicit: Option<PathBuf>) -> PathBuf {
    match explicit {
        Some(r) => r,
        None => project_root(ctx.env.var("CLAUDE_PROJECT_DIR").as_deref(), None, &ctx.cwd),
    }
}
