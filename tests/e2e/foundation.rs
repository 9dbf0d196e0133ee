//! The foundation's end-to-end tests: hooks fire inside Claude Code, context reaches the
//! model, the plugin validates.

use crate::mock_api::{MockApi, Recorded, FINAL_TEXT, TOOL_COMMAND};
use crate::support::*;
use serde_json::Value;
use std::fs;
use std::path::Path;

// ------------------------------------------------------------------------------------------
// Tests
// ------------------------------------------------------------------------------------------

/// One headless conversation: the scripted model runs `Bash` once and then answers. Checks that
/// the answer came back, that baton's SessionStart context reached the model, and that every
/// baton hook Claude Code ran exited cleanly.
///
/// What Claude Code 2.1.197 records about hooks (observed, and what the checks below rely on):
/// * The transcript gets `"type":"attachment"` lines for a hook only when there is something to
///   show. A hook that exits 0 with empty stdout (baton's UserPromptSubmit, PostToolUse, Stop)
///   leaves **no** line; SessionStart, which prints JSON, leaves a `hook_success` attachment
///   (`hookName`, `hookEvent`, `command`, `exitCode`, `stdout`, `stderr`, `durationMs`) and a
///   `hook_additional_context` one. Failures always leave one: `hook_non_blocking_error`
///   (`exitCode`, `stderr`, `command`), `hook_blocking_error` (`blockingError.{blockingError,
///   command}`) or `hook_cancelled` (only `hookName`/`hookEvent`/`toolUseID`: no command).
/// * So positive evidence that each hook ran and succeeded comes from the output stream instead:
///   with `--output-format stream-json --verbose --include-hook-events`, every hook run is a
///   `{"type":"system","subtype":"hook_started",hook_id,hook_name,hook_event}` line followed by
///   `{"subtype":"hook_response",hook_id,…,"exit_code":N,"outcome":"success"|"error"|"cancelled"}`.
///   The stream's last line is the `{"type":"result",result,session_id,…}` object that
///   `--output-format json` would print alone.
/// * SessionEnd runs after the stream and the transcript are finished; a failed or cancelled
///   SessionEnd hook shows up only on claude's stderr, as
///   `SessionEnd hook [<command>] failed: <stderr or "Hook cancelled">`.
///
/// The sandbox has no user or project settings, so every hook that runs is one of baton's.
#[test]
fn hooks_run_inside_claude_code() {
    let Some(claude) = claude_or_skip("hooks_run_inside_claude_code") else {
        return;
    };
    let sandbox = Sandbox::new();
    let api = MockApi::start();

    let (run, stream) = sandbox.claude_p(&claude, &api, "please run a command", "Bash", "claude-p");
    eprintln!("e2e: claude -p took {:.1?}", run.elapsed);
    let requests = api.requests();

    // (a) The conversation finished with the scripted final answer, after the tool ran.
    let result = check_result(&run, &stream);
    check_tool_output_reached_model(&requests);
    // (b) baton's SessionStart context reached the model.
    check_context_reached_model(&requests);
    // (c) Every hook exited cleanly.
    let session_id = str_at(result, "/session_id");
    assert!(!session_id.is_empty(), "no session_id in the result object");
    check_transcript_hooks(&sandbox.home, session_id);
    let hook_runs = check_stream_hooks(&stream);
    check_stderr_hooks(&run);

    eprintln!(
        "e2e: {} requests to the stand-in, {hook_runs} hook runs reported, all clean",
        requests.len()
    );
}

/// Claude exited 0 and its `result` object carries the scripted final text.
fn check_result<'a>(run: &Run, stream: &'a [Value]) -> &'a Value {
    assert!(run.status.success(), "claude -p failed\n{}", run.describe());
    let result = stream
        .iter()
        .rev()
        .find(|v| str_at(v, "/type") == "result")
        .unwrap_or_else(|| panic!("no result object in claude's output\n{}", run.describe()));
    assert!(
        result_text(stream).contains("E2E-FINAL"),
        "the result does not carry the scripted final text {FINAL_TEXT:?}\n{}",
        run.describe()
    );
    result
}

/// The scripted tool call really ran: its output came back to the stand-in as a tool_result.
fn check_tool_output_reached_model(requests: &[Recorded]) {
    let expected = TOOL_COMMAND.trim_start_matches("echo ");
    assert!(
        requests
            .iter()
            .flat_map(|r| tool_result_texts(&r.json()))
            .any(|t| t.contains(expected)),
        "no request carried the Bash output {expected:?} back as a tool_result; requests: {:?}",
        requests
            .iter()
            .map(|r| format!("{} {}", r.method, r.path))
            .collect::<Vec<_>>()
    );
}

/// Some main-loop request (one with `tools`) contains baton's SessionStart context.
fn check_context_reached_model(requests: &[Recorded]) {
    let main_loop = crate::mock_api::main_requests(requests);
    assert!(
        !main_loop.is_empty(),
        "the stand-in saw no main-loop request (with tools)"
    );
    assert!(
        main_loop
            .iter()
            .any(|r| r.body.contains(BATON_CONTEXT_MARK)),
        "no main-loop request contains {BATON_CONTEXT_MARK:?}; the `system`-role messages \
         of the first one were:\n{}",
        system_messages(&main_loop[0].body)
    );
}

/// The transcript records no hook failure of any kind, and a `hook_success` for baton's
/// SessionStart (the only baton hook with output, hence the only success it records).
pub(crate) fn check_transcript_hooks(home: &Path, session_id: &str) {
    let path = find_transcript(home, session_id).unwrap_or_else(|| {
        panic!(
            "no transcript {session_id}.jsonl under {}",
            home.join(".claude/projects").display()
        )
    });
    let hook_lines: Vec<Value> = json_lines(&fs::read_to_string(&path).unwrap())
        .into_iter()
        .filter(|v| str_at(v, "/type") == "attachment")
        .filter(|v| str_at(v, "/attachment/type").starts_with("hook_"))
        .collect();
    let failures: Vec<String> = hook_lines
        .iter()
        .filter(|v| {
            let kind = str_at(v, "/attachment/type");
            matches!(
                kind,
                "hook_non_blocking_error" | "hook_blocking_error" | "hook_cancelled"
            ) || kind.contains("error")
                || kind.contains("cancel")
        })
        .map(Value::to_string)
        .collect();
    assert!(
        failures.is_empty(),
        "hooks failed (transcript {}):\n{}",
        path.display(),
        failures.join("\n")
    );
    let session_start_ok = hook_lines.iter().any(|v| {
        str_at(v, "/attachment/type") == "hook_success"
            && str_at(v, "/attachment/hookEvent") == "SessionStart"
            && str_at(v, "/attachment/command").contains("bin/baton")
            && v.pointer("/attachment/exitCode").and_then(Value::as_i64) == Some(0)
    });
    assert!(
        session_start_ok,
        "no hook_success attachment for baton's SessionStart in the transcript; hook lines:\n{}",
        hook_lines
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// In the `--include-hook-events` stream, every hook that started answered with outcome
/// `success` and exit code 0, and the events this conversation must fire all did. Returns the
/// number of hook runs.
pub(crate) fn check_stream_hooks(stream: &[Value]) -> usize {
    let of_subtype = |subtype: &str| -> Vec<&Value> {
        stream
            .iter()
            .filter(|v| str_at(v, "/type") == "system" && str_at(v, "/subtype") == subtype)
            .collect()
    };
    let started = of_subtype("hook_started");
    let responses = of_subtype("hook_response");
    let mut bad: Vec<String> = responses
        .iter()
        .filter(|r| {
            str_at(r, "/outcome") != "success"
                || r.get("exit_code").and_then(Value::as_i64) != Some(0)
        })
        .map(ToString::to_string)
        .collect();
    bad.extend(
        started
            .iter()
            .filter(|s| {
                !responses
                    .iter()
                    .any(|r| str_at(r, "/hook_id") == str_at(s, "/hook_id"))
            })
            .map(|s| format!("started but never answered: {s}")),
    );
    assert!(
        bad.is_empty(),
        "hooks did not exit cleanly:\n{}",
        bad.join("\n")
    );
    // PreToolUse is not expected: baton's matcher is Edit|Write|MultiEdit|NotebookEdit.
    for event in ["SessionStart", "UserPromptSubmit", "PostToolUse", "Stop"] {
        assert!(
            responses
                .iter()
                .any(|r| str_at(r, "/hook_event") == event && str_at(r, "/outcome") == "success"),
            "no successful {event} hook in claude's output; hook runs seen: {:?}",
            responses
                .iter()
                .map(|r| str_at(r, "/hook_name"))
                .collect::<Vec<_>>()
        );
    }
    responses.len()
}

/// SessionEnd runs after the stream and the transcript are closed: its failure (non-zero exit
/// or "Hook cancelled") is visible only as a `SessionEnd hook [<command>] failed: …` line on
/// claude's stderr. A success leaves no trace, so this check can only catch failures.
pub(crate) fn check_stderr_hooks(run: &Run) {
    let failed: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains(" hook [") && l.contains("failed"))
        .collect();
    assert!(
        failed.is_empty(),
        "claude reported failed hooks on stderr:\n{}",
        failed.join("\n")
    );
}

/// `claude plugin validate --strict` accepts the repository (its marketplace) and the plugin
/// manifest (plugin.json, hooks/hooks.json, commands, skills).
#[test]
fn plugin_validates_strictly() {
    let Some(claude) = claude_or_skip("plugin_validates_strictly") else {
        return;
    };
    let sandbox = Sandbox::new();
    let repo = Path::new(REPO);
    for (label, target) in [
        ("validate-repo", repo.to_path_buf()),
        ("validate-manifest", repo.join(".claude-plugin/plugin.json")),
    ] {
        // No API is needed; the base URL points at a closed local port all the same.
        let mut cmd = sandbox.claude(&claude, "http://127.0.0.1:9");
        cmd.args(["plugin", "validate", "--strict"]).arg(&target);
        let run = run(cmd, &sandbox.root, label);
        assert!(
            run.status.success(),
            "claude plugin validate --strict {} failed\n{}",
            target.display(),
            run.describe()
        );
        eprintln!(
            "e2e: claude plugin validate --strict {}: ok ({:.1?})",
            target.display(),
            run.elapsed
        );
    }
}
