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

use super::active::ActiveHandler;
use crate::core::event::{EventName, HookEvent};
use crate::core::handler::{Contribution, Handler};
use crate::core::project::{DocSource, Project, Readers};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

/// Every handler, in the order their contributions appear: a relay banner (STOP,
/// NEEDS-HUMAN) before everything, then the bridge's checkpoint and memory, the newest handoff
/// artefact, and the audit recap last.
static HANDLERS: &[&dyn Handler] = &[
    &ActiveHandler,
    &crate::relay::RelayHandler,
    &crate::bridge::BridgeHandler,
    &crate::handoff::HandoffHandler,
    &crate::audit::AuditHandler,
];

/// The handlers in the registry.
pub fn registry() -> &'static [&'static dyn Handler] {
    HANDLERS
}

/// What a subsystem may read of another's state, each wired to the owner's reader (see
/// `core::project`). The CLI gets the same readers as the hooks.
pub fn readers() -> Readers {
    Readers {
        session_changes: crate::audit::session_changes,
        blocked_items: crate::bridge::blocked_items,
        doc_sources: DOC_SOURCES,
    }
}

/// Every store's reader of documents for `baton recall` and the MCP server, each in the
/// subsystem that writes the store (`<subsystem>/recall_docs.rs`).
static DOC_SOURCES: &[DocSource] = &[
    crate::bridge::RECALL_DOCS,
    crate::audit::RECALL_DOCS,
    crate::handoff::RECALL_DOCS,
    crate::relay::RECALL_DOCS,
    // capture: the session digests (kind `session`), once that subsystem is merged:
    // crate::capture::RECALL_DOCS,
    crate::bridge::RECALL_GLOBAL_DOCS,
];

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
pub fn dispatch(handlers: &[&dyn Handler], event: &HookEvent, project: &Project) -> Dispatched {
    let mut out = Dispatched::default();
    for h in handlers
        .iter()
        .filter(|h| h.subscribes(event.name()) && h.enabled(project.config()))
    {
        match catch_unwind(AssertUnwindSafe(|| h.handle(event, project))) {
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

    use crate::core::error::{Error, Result};
    use crate::core::event::parse;

    /// What a test handler does when called.
    enum Does {
        Answer,
        Fail,
        Panic,
    }

    /// A SessionStart handler that answers with its name, fails, or panics.
    struct TestHandler(&'static str, Does);

    impl Handler for TestHandler {
        fn name(&self) -> &'static str {
            self.0
        }
        fn subscribes(&self, e: EventName) -> bool {
            e == EventName::SessionStart
        }
        fn handle(&self, _: &HookEvent, _: &Project) -> Result<Contribution> {
            match self.1 {
                Does::Answer => Ok(Contribution {
                    system_message: Some(self.0.into()),
                    ..Contribution::default()
                }),
                Does::Fail => Err(Error::Internal("broken state file".into())),
                Does::Panic => panic!("boom"),
            }
        }
    }

    fn run(handlers: &[&dyn Handler], json: &str) -> Dispatched {
        install_quiet_panic_hook();
        let project = Project::for_test("/", None);
        dispatch(handlers, &parse(json.as_bytes(), None).unwrap(), &project)
    }

    #[test]
    fn failing_and_panicking_handlers_do_not_stop_the_others() {
        let a = TestHandler("a", Does::Answer);
        let b = TestHandler("b", Does::Fail);
        let c = TestHandler("c", Does::Panic);
        let d = TestHandler("d", Does::Answer);
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
        let a = TestHandler("a", Does::Panic);
        let out = run(&[&a], r#"{"hook_event_name":"PostToolUse"}"#);
        assert!(out.contributions.is_empty() && out.errors.is_empty());
        assert!(!any_subscriber(&[&a], EventName::PostToolUse));
        assert!(any_subscriber(&[&a], EventName::SessionStart));
    }
}
