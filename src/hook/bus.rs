//! The event bus: where an event goes.
//!
//! `HANDLERS` lists every handler. For one event, each handler that subscribes to it (and is
//! enabled in the config) runs in turn and returns a `Contribution`; a handler that errors or
//! panics is reported and the others still run. `hook::output` merges the contributions.
//!
//! | event | handlers, in order (see each `src/<subsystem>/handler.rs`) |
//! |---|---|
//! | SessionStart | active (status line), relay (packet notice, STOP/NEEDS-HUMAN banner), capture (where the last session left off; not on `compact`), bridge (integrity scan, checkpoint, memory), handoff (newest artefact), audit (recap; auto-start) |
//! | UserPromptSubmit | audit (conversation, corrections) |
//! | PreToolUse | bridge (invariants for the file; hooks.json matches Edit/Write/MultiEdit/NotebookEdit) |
//! | PostToolUse, PostToolUseFailure | audit (one buffered record) |
//! | PreCompact | capture (session digest from the transcript, first: the others read it), bridge (checkpoint; compaction instructions), handoff (automatic artefact on `auto`), audit (buffer → pending) |
//! | PostCompact | bridge (compaction summary to the session log) |
//! | Stop | relay (handoff at the cycle budget), capture (session digest), audit (buffer → pending) |
//! | SessionEnd | capture (session digest), bridge (session-log line), audit (buffer → pending) |
//! | SubagentStop, others | nobody: the hook exits before loading config |

use super::active::ActiveHandler;
use crate::core::event::{EventName, HookEvent};
use crate::core::handler::{Contribution, Handler};
use crate::core::project::{DocSource, Project, Readers};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

/// Every handler, in the order their contributions appear: a relay banner (STOP,
/// NEEDS-HUMAN) before everything, then where the last session left off (capture), the
/// bridge's checkpoint and memory, the newest handoff artefact, and the audit recap last.
static HANDLERS: &[&dyn Handler] = &[
    &ActiveHandler,
    &crate::relay::RelayHandler,
    // Before the bridge and the handoff: at PreCompact they read the digest it updates.
    &crate::capture::CaptureHandler,
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
        session_recap: crate::capture::recap,
        newest_handoff: crate::handoff::newest_saved,
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
    crate::capture::RECALL_DOCS,
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
/// A handler that says it `runs_first` on this event runs before the others (they read what
/// it writes); contributions and errors are listed in registry order all the same.
pub fn dispatch(handlers: &[&dyn Handler], event: &HookEvent, project: &Project) -> Dispatched {
    let name = event.name();
    let chosen: Vec<&dyn Handler> = handlers
        .iter()
        .copied()
        .filter(|h| h.subscribes(name) && h.enabled(project.config()))
        .collect();
    let mut results: Vec<Option<std::result::Result<Contribution, String>>> =
        vec![None; chosen.len()];
    let early = (0..chosen.len()).filter(|&i| chosen[i].runs_first(name));
    let late = (0..chosen.len()).filter(|&i| !chosen[i].runs_first(name));
    for i in early.chain(late) {
        results[i] = Some(run_one(chosen[i], event, project));
    }
    let mut out = Dispatched::default();
    for r in results.into_iter().flatten() {
        match r {
            Ok(c) => out.contributions.push(c),
            Err(e) => out.errors.push(e),
        }
    }
    out
}

/// One handler on `event`: its contribution, or the one line that says how it failed.
fn run_one(
    h: &dyn Handler,
    event: &HookEvent,
    project: &Project,
) -> std::result::Result<Contribution, String> {
    match catch_unwind(AssertUnwindSafe(|| h.handle(event, project))) {
        Ok(Ok(c)) => Ok(c),
        Ok(Err(e)) => Err(format!("{}: {e}", h.name())),
        Err(_) => Err(format!(
            "{}: panicked ({}); this is a bug in baton",
            h.name(),
            take_panic_message().unwrap_or_else(|| "no message".into())
        )),
    }
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

    /// Appends its name to a shared log when called; runs first when `early`.
    struct Logs(&'static str, bool, &'static Mutex<Vec<&'static str>>);

    impl Handler for Logs {
        fn name(&self) -> &'static str {
            self.0
        }
        fn subscribes(&self, _: EventName) -> bool {
            true
        }
        fn runs_first(&self, _: EventName) -> bool {
            self.1
        }
        fn handle(&self, _: &HookEvent, _: &Project) -> Result<Contribution> {
            self.2.lock().unwrap().push(self.0);
            Ok(Contribution {
                system_message: Some(self.0.into()),
                ..Contribution::default()
            })
        }
    }

    #[test]
    fn a_handler_that_feeds_others_runs_first_and_its_answer_stays_in_place() {
        static LOG: Mutex<Vec<&str>> = Mutex::new(Vec::new());
        let (a, b, c) = (
            Logs("a", false, &LOG),
            Logs("b", true, &LOG),
            Logs("c", false, &LOG),
        );
        let out = run(&[&a, &b, &c], r#"{"hook_event_name":"Stop"}"#);
        assert_eq!(*LOG.lock().unwrap(), vec!["b", "a", "c"]);
        let msgs: Vec<_> = out
            .contributions
            .iter()
            .filter_map(|c| c.system_message.clone())
            .collect();
        assert_eq!(msgs, vec!["a", "b", "c"]);
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
