//! `baton hook`: one event in, one answer out, exit 0 (or 1 for a non-blocking error).

use super::bus;
use super::output::{self, Rendered};
use crate::core::ctx::Ctx;
use crate::core::deadline;
use crate::core::event::{self, EventName};
use crate::core::project::Project;
use std::io::{Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

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
    // A read error leaves what was read; parsing then reports it. A tool's response is read
    // only as far as the record needs (`event_read`).
    let bytes = crate::core::event_read::read(stdin);
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

/// How long one hook run may spend waiting for locks in all: a fixed share of the timeout
/// hooks.json gives the event (Claude Code cuts SessionEnd at 1.5 s whatever it says), so a
/// lock held by a stuck or unrelated process costs the user at most this.
fn wait_budget(event: EventName) -> Duration {
    let ms = match event {
        EventName::SessionEnd => 800,
        EventName::PreToolUse
        | EventName::PostToolUse
        | EventName::PostToolUseFailure
        | EventName::UserPromptSubmit => 1_500,
        EventName::SessionStart | EventName::PostCompact => 3_000,
        EventName::PreCompact | EventName::Stop => 8_000,
        EventName::SubagentStop | EventName::Other => 1_000,
    };
    Duration::from_millis(ms)
}

fn answer(bytes: &[u8], hint: Option<EventName>, ctx: &Ctx) -> Rendered {
    let start = Instant::now();
    let event = match event::parse(bytes, hint) {
        Ok(e) => e,
        Err(e) => return unreadable(&e.to_string(), hint),
    };
    let _deadline = deadline::set(start + wait_budget(event.name()));
    let handlers = bus::registry();
    if !bus::any_subscriber(handlers, event.name()) {
        return Rendered::default();
    }
    let project = Project::open(
        ctx.clone(),
        None,
        event.common.cwd.as_deref(),
        bus::readers(),
    );
    // No project here (the file system root, the home folder, a folder outside git): the
    // hooks keep quiet and create nothing.
    if project.state_refusal().is_some() {
        return Rendered::default();
    }
    // Config problems are told once per session, at SessionStart; other events run on the
    // defaults quietly (`baton doctor` lists the problems).
    let config_errors: Vec<String> = if event.name() == EventName::SessionStart {
        let mut lines: Vec<String> = project
            .config_problems()
            .iter()
            // A problem can quote the repository's config (an unknown key's name, a value):
            // text from a file of the repository, held to the trust rule (`core::trust`).
            .map(|p| {
                let p = crate::core::trust::field(&p.to_string(), project.redactor());
                format!("{p} (running on defaults; `baton doctor` shows all problems)")
            })
            .collect();
        // Keys that widen trust in a file of the repository: ignored, and said once.
        lines.extend(crate::core::config::untold(
            &project.ctx,
            &project.root,
            project.config_ignored(),
        ));
        lines
    } else {
        Vec::new()
    };
    let mut dispatched = bus::dispatch(handlers, &event, &project);
    if let crate::core::event::EventKind::SessionStart { source } = &event.kind {
        super::resume::merge_into(&mut dispatched, &project, source, &event.common.session_id);
    }
    output::render(
        event.name(),
        event.stop_hook_active(),
        &dispatched,
        &config_errors,
        project.config().context_budget_chars,
        project.redactor(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::clock::Clock;
    use crate::core::ctx::Env;

    /// A small deterministic generator (xorshift), so the test needs no extra crate.
    use crate::core::clock::Xorshift as Rng;

    const SEEDS: &[&str] = &[
        r#"{"session_id":"s","cwd":"/","hook_event_name":"SessionStart","source":"startup"}"#,
        r#"{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"x"},"duration_ms":3}"#,
        r#"{"session_id":"s","hook_event_name":"Stop","stop_hook_active":true,"last_assistant_message":"done"}"#,
        r#"{"session_id":"s","hook_event_name":"PreCompact","trigger":"auto","custom_instructions":null}"#,
    ];

    /// Arbitrary bytes and mangled events never panic, never exit 2, and say at most one line.
    #[test]
    fn mangled_input_never_panics_or_exits_2() {
        let t = tempfile::tempdir().unwrap();
        let ctx = Ctx::for_test(
            Env::fixed([("CLAUDE_PROJECT_DIR", t.path().to_str().unwrap())]),
            Clock::System,
            t.path().to_path_buf(),
        );
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        let hints = [
            None,
            Some("SessionStart"),
            Some("PreCompact"),
            Some("Stop"),
            Some("Bogus"),
        ];
        for i in 0..3000 {
            let mut bytes = SEEDS[i % SEEDS.len()].as_bytes().to_vec();
            match i % 3 {
                0 => {
                    for _ in 0..=rng.below(4) {
                        let at = rng.below(bytes.len());
                        bytes[at] = u8::try_from(rng.below(256)).unwrap();
                    }
                }
                1 => bytes.truncate(rng.below(bytes.len())),
                _ => {
                    bytes = (0..rng.below(64))
                        .map(|_| u8::try_from(rng.below(256)).unwrap())
                        .collect();
                }
            }
            let hint = hints[rng.below(hints.len())];
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let code = run_hook(hint, &ctx, &mut bytes.as_slice(), &mut out, &mut err);
            let err = String::from_utf8_lossy(&err);
            assert!(code == 0 || code == 1, "exit {code} for {bytes:?}");
            assert!(err.lines().count() <= 1, "{err}");
            assert!(!err.contains("panicked"), "{err}");
            let out = String::from_utf8_lossy(&out);
            if out.starts_with('{') {
                serde_json::from_str::<serde_json::Value>(&out).unwrap();
            }
        }
    }
}
