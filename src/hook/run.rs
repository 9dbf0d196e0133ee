//! `baton hook`: one event in, one answer out, exit 0 (or 1 for a non-blocking error).

use super::bus::{self, HookEnv};
use super::input::{self, EventName};
use super::output::{self, Rendered};
use crate::core::config;
use crate::core::ctx::Ctx;
use crate::core::redact::Redactor;
use crate::core::root::project_root;
use std::io::{Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs the hook on `stdin`, writes to `stdout`/`stderr`, returns the exit code. `hint` is the
/// event name hooks.json passes on the command line.
pub fn run_hook(
    hint: Option<&str>,
    ctx: &Ctx,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    bus::install_quiet_panic_hook();
    let hint = hint.map(EventName::parse);
    let mut bytes = Vec::new();
    // A read error leaves what was read; parsing then reports it.
    let _ = stdin.read_to_end(&mut bytes);
    let rendered =
        catch_unwind(AssertUnwindSafe(|| answer(&bytes, hint, ctx))).unwrap_or_else(|_| Rendered {
            stdout: String::new(),
            stderr: Some(
                "baton: internal error (this is a bug in baton); the session goes on".into(),
            ),
            exit_code: 1,
        });
    // A closed pipe is not our problem to report: Claude Code stopped listening.
    let _ = stdout.write_all(rendered.stdout.as_bytes());
    let _ = stdout.flush();
    if let Some(line) = &rendered.stderr {
        let _ = writeln!(stderr, "{line}");
    }
    rendered.exit_code
}

fn answer(bytes: &[u8], hint: Option<EventName>, ctx: &Ctx) -> Rendered {
    let event = match input::parse(bytes, hint) {
        Ok(e) => e,
        Err(e) => return unreadable(&e.to_string(), hint),
    };
    let handlers = bus::registry();
    if !bus::any_subscriber(handlers, event.name()) {
        return Rendered::default();
    }
    let root = project_root(
        ctx.env.var("CLAUDE_PROJECT_DIR").as_deref(),
        event.common.cwd.as_deref(),
        &ctx.cwd,
    );
    let loaded = config::load(ctx, &root);
    // Config problems are told once per session, at SessionStart; other events run on the
    // defaults quietly (`baton doctor` lists the problems).
    let config_errors: Vec<String> = if event.name() == EventName::SessionStart {
        loaded
            .problems
            .iter()
            .map(|p| format!("{p} (running on defaults; `baton doctor` shows all problems)"))
            .collect()
    } else {
        Vec::new()
    };
    let env = HookEnv {
        ctx,
        root,
        config: &loaded.config,
    };
    let dispatched = bus::dispatch(handlers, &event, &env);
    output::render(
        event.name(),
        event.stop_hook_active(),
        &dispatched,
        &config_errors,
        loaded.config.context_budget_chars,
        &Redactor::with_extra(&loaded.config.redact.extra_patterns),
    )
}

/// The answer to input that could not be read: one stderr line, and a `systemMessage` when
/// the event (named on the command line) takes JSON.
fn unreadable(why: &str, hint: Option<EventName>) -> Rendered {
    let line = format!("baton: {why}; event ignored");
    match hint {
        Some(e) if e != EventName::PreCompact && e != EventName::Other => Rendered {
            stdout: format!("{}\n", serde_json::json!({ "systemMessage": line })),
            stderr: Some(line),
            exit_code: 0,
        },
        _ => Rendered {
            stdout: String::new(),
            stderr: Some(line),
            exit_code: 1,
        },
    }
}
