//! The event bus: where an event goes.
//!
//! `HANDLERS` lists every handler. For one event, each handler that subscribes to it (and is
//! enabled in the config) runs in turn and returns a `Contribution`; a handler that errors or
//! panics is reported and the others still run. `hook::output` merges the contributions.
//!
//! | event | handlers, in order (see each `src/<subsystem>/handler.rs`) |
//! |---|---|
//! | SessionStart | active (status line), relay (packet notice, STOP/NEEDS-HUMAN banner), bridge (integrity scan, checkpoint, memory), handoff (newest artefact), audit (recap; auto-start) |
//! | UserPromptSubmit | audit (conversation, corrections) |
//! | PreToolUse | bridge (invariants for the file; hooks.json matches Edit/Write/MultiEdit/NotebookEdit) |
//! | PostToolUse, PostToolUseFailure | audit (one buffered record) |
//! | PreCompact | bridge (checkpoint; compaction instructions), handoff (automatic artefact on `auto`), audit (buffer → pending) |
//! | PostCompact | bridge (compaction summary to the session log) |
//! | Stop | relay (handoff at the cycle budget), audit (buffer → pending) |
//! | SessionEnd | bridge (session-log line), audit (buffer → pending) |
//! | SubagentStop, others | nobody: the hook exits before loading config |

use super::handlers;
use super::input::{EventName, HookEvent};
use crate::core::budget::Section;
use crate::core::config::Config;
use crate::core::ctx::Ctx;
use crate::core::error::Result;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Mutex;

/// What a handler sees besides the event.
#[derive(Debug)]
pub struct HookEnv<'a> {
    /// Environment, clock, working directory.
    pub ctx: &'a Ctx,
    /// The project root.
    pub root: PathBuf,
    /// The configuration in force.
    pub config: &'a Config,
}

/// What one handler adds to the answer.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Contribution {
    /// Text for the model's context (merged under one budget).
    pub sections: Vec<Section>,
    /// A line for the user (never seen by the model).
    pub system_message: Option<String>,
    /// Block on purpose, with this reason. Ignored when `stop_hook_active` is true.
    pub block: Option<String>,
    /// PreCompact only: instructions for the compaction summary.
    pub compaction_instructions: Option<String>,
}

/// A subscriber of the bus.
pub trait Handler: Sync {
    /// A short name, used in error reports.
    fn name(&self) -> &'static str;
    /// Whether the handler wants this event at all (decided without I/O).
    fn subscribes(&self, event: EventName) -> bool;
    /// Whether the config turns the handler on.
    fn enabled(&self, _config: &Config) -> bool {
        true
    }
    /// Handles the event.
    fn handle(&self, event: &HookEvent, env: &HookEnv<'_>) -> Result<Contribution>;
}

/// Every handler, in the order their contributions appear: a relay banner (STOP,
/// NEEDS-HUMAN) before everything, then the bridge's checkpoint and memory, the newest handoff
/// artefact, and the audit recap last.
static HANDLERS: &[&dyn Handler] = &[
    &handlers::Active,
    &crate::relay::RelayHandler,
    &crate::bridge::BridgeHandler,
    &crate::handoff::HandoffHandler,
    &crate::audit::AuditHandler,
];

/// The handlers in the registry.
pub fn registry() -> &'static [&'static dyn Handler] {
    HANDLERS
}

/// Whether any handler subscribes to `event`: when none does, the hook exits before loading
/// config or touching the disk.
pub fn any_subscriber(handlers: &[&dyn Handler], event: EventName) -> bool {
    handlers.iter().any(|h| h.subscribes(event))
}

/// The result of one dispatch.
#[derive(Debug, Default)]
pub struct Dispatched {
    /// Contributions, in handler order.
    pub contributions: Vec<Contribution>,
    /// One line per failed handler.
    pub errors: Vec<String>,
}

/// Runs every subscribed, enabled handler on `event`.
pub fn dispatch(handlers: &[&dyn Handler], event: &HookEvent, env: &HookEnv<'_>) -> Dispatched {
    let mut out = Dispatched::default();
    for h in handlers
        .iter()
        .filter(|h| h.subscribes(event.name()) && h.enabled(env.config))
    {
        match catch_unwind(AssertUnwindSafe(|| h.handle(event, env))) {
            Ok(Ok(c)) => out.contributions.push(c),
            Ok(Err(e)) => out.errors.push(format!("{}: {e}", h.name())),
            Err(_) => out.errors.push(format!(
                "{}: panicked ({}); this is a bug in baton",
                h.name(),
                take_panic_message().unwrap_or_else(|| "no message".into())
            )),
        }
    }
    out
}

static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Replaces the default panic printer: the message is kept for the one-line report instead of
/// a multi-line dump on stderr.
pub fn install_quiet_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = info.payload().downcast_ref::<String>() {
            s.clone()
        } else {
            "panic".to_string()
        };
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        if let Ok(mut slot) = LAST_PANIC.lock() {
            *slot = Some(format!("{msg}{at}"));
        }
    }));
}

fn take_panic_message() -> Option<String> {
    LAST_PANIC.lock().ok().and_then(|mut s| s.take())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::clock::Clock;
    use crate::core::ctx::Env;
    use crate::core::error::Error;
    use crate::hook::input::parse;

    struct Fixed(&'static str, u8);
    impl Handler for Fixed {
        fn name(&self) -> &'static str {
            self.0
        }
        fn subscribes(&self, e: EventName) -> bool {
            e == EventName::SessionStart
        }
        fn handle(&self, _: &HookEvent, _: &HookEnv<'_>) -> Result<Contribution> {
            match self.1 {
                0 => Ok(Contribution {
                    system_message: Some(self.0.into()),
                    ..Contribution::default()
                }),
                1 => Err(Error::Internal("broken state file".into())),
                _ => panic!("boom"),
            }
        }
    }

    fn run(handlers: &[&dyn Handler], json: &str) -> Dispatched {
        install_quiet_panic_hook();
        let ctx = Ctx::for_test(
            Env::fixed::<[(&str, &str); 0], _, _>([]),
            Clock::System,
            "/".into(),
        );
        let config = Config::default();
        let env = HookEnv {
            ctx: &ctx,
            root: "/".into(),
            config: &config,
        };
        dispatch(handlers, &parse(json.as_bytes(), None).unwrap(), &env)
    }

    #[test]
    fn failing_and_panicking_handlers_do_not_stop_the_others() {
        let (a, b, c, d) = (Fixed("a", 0), Fixed("b", 1), Fixed("c", 2), Fixed("d", 0));
        let out = run(&[&a, &b, &c, &d], r#"{"hook_event_name":"SessionStart"}"#);
        let msgs: Vec<_> = out
            .contributions
            .iter()
            .filter_map(|c| c.system_message.clone())
            .collect();
        assert_eq!(msgs, vec!["a", "d"]);
        assert_eq!(out.errors.len(), 2);
        assert!(
            out.errors[0].starts_with("b: internal error"),
            "{:?}",
            out.errors
        );
        assert!(
            out.errors[1].contains("c: panicked (boom"),
            "{:?}",
            out.errors
        );
    }

    #[test]
    fn unsubscribed_events_reach_nobody() {
        let a = Fixed("a", 2);
        let out = run(&[&a], r#"{"hook_event_name":"PostToolUse"}"#);
        assert!(out.contributions.is_empty() && out.errors.is_empty());
        assert!(!any_subscriber(&[&a], EventName::PostToolUse));
        assert!(any_subscriber(&[&a], EventName::SessionStart));
    }
}
