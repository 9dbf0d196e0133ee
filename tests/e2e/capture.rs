//! capture inside Claude Code: a session that makes a task list (TaskCreate ×3, TaskUpdate:
//! one completed, one in progress — Claude Code 2.1.197 offers both in `-p` mode), writes a
//! file and runs a failing command, then ends without anyone saving. The next, fresh session
//! (no `--continue`) gets, in its first request, where that one left off — read by baton from
//! Claude Code's own transcript, without the model. And a subagent's work (an Agent call
//! whose subagent runs its own failing command) stays out of the main session's lists.

use crate::mock_api::{main_requests, MockApi, Turn};
use crate::support::{claude_or_skip, context_of, find_transcript, result_text, Run, Sandbox};
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const REQUEST: &str = "Build the widget parser (CAPTURE-E2E-REQUEST)";
const ERROR_LINE: &str = "error: widget exploded CAPTURE-E2E-ERROR";
const NEXT: &str = "The widget test fails; next I will fix parse_all. CAPTURE-E2E-NEXT";
const SUBAGENT_MARK: &str = "CAPTURE-E2E-SUBAGENT";

/// Session one's script: the task list, a file, a failing command, the last words; with an
/// Agent call before the last words when `agent`.
fn session_one(project: &Path, agent: bool) -> Vec<Turn> {
    let mut turns = vec![
        Turn::tool(
            "TaskCreate",
            json!({"subject": "Write the parser CAPTURE-E2E-DONE", "description": "parse input"}),
        ),
        Turn::tool(
            "TaskCreate",
            json!({"subject": "Add widget tests CAPTURE-E2E-OPEN-1", "description": "tests"}),
        ),
        Turn::tool(
            "TaskCreate",
            json!({"subject": "Update the docs CAPTURE-E2E-OPEN-2", "description": "docs"}),
        ),
        Turn::tool("TaskUpdate", json!({"taskId": "1", "status": "completed"})),
        Turn::tool(
            "TaskUpdate",
            json!({"taskId": "2", "status": "in_progress"}),
        ),
        Turn::tool(
            "Write",
            json!({"file_path": project.join("notes/widget-e2e.txt"), "content": "hello\n"}),
        ),
        Turn::bash(&format!("echo '{ERROR_LINE}' >&2; exit 1")),
    ];
    if agent {
        turns.push(Turn::tool(
            "Agent",
            json!({"description": "check the build", "prompt": format!("{SUBAGENT_MARK}: run the build check"), "subagent_type": "general-purpose"}),
        ));
    }
    turns.push(Turn::Text(NEXT.into()));
    turns
}

/// What the subagent does: writes a file and fails, then reports.
fn subagent() -> Vec<Turn> {
    vec![
        Turn::bash(
            "echo x > SUBAGENT-ONLY-FILE.txt; echo 'fatal: SUBAGENT-ONLY-FAILURE' >&2; exit 3",
        ),
        Turn::Text("The build check failed in the subagent.".into()),
    ]
}

/// baton's section in a request's context: from its title to the blank line that ends it
/// (what follows may be Claude Code's own text in the same message, whose git status names
/// untracked files too, when no other section of baton's comes next).
fn section_of(ctx: &str) -> String {
    let start = ctx
        .find("## Where the last session left off")
        .unwrap_or_else(|| panic!("no section in:\n{ctx}"));
    let rest = &ctx[start..];
    let end = rest.find("\n\n").unwrap_or(rest.len());
    rest[..end].to_string()
}

/// The digest files baton wrote (in the user's private folder, the XDG state folder).
fn digests(home: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(home.join(".local/state/baton"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().to_string_lossy().contains("/sessions/"))
        .map(walkdir::DirEntry::into_path)
        .collect()
}

/// `baton capture show SID --json` in the project, as a user would run it (no
/// CLAUDE_PLUGIN_DATA).
fn show(sandbox: &Sandbox, sid: &str) -> Value {
    let out = Command::new(sandbox.plugin.join("bin/baton"))
        .args(["capture", "show", sid, "--json"])
        .current_dir(&sandbox.project)
        .env_remove("CLAUDE_PLUGIN_DATA")
        .env_remove("XDG_STATE_HOME")
        .env("HOME", &sandbox.home)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs session one, then a fresh session two; returns session two's first main-loop
/// request's context and session one's id.
fn two_sessions(claude: &Path, sandbox: &Sandbox, agent: bool, label: &str) -> (String, String) {
    let script = session_one(&sandbox.project, agent);
    let api = if agent {
        MockApi::with_subagent(script, SUBAGENT_MARK, subagent())
    } else {
        MockApi::with_script(script)
    };
    let tools = "Bash Write TaskCreate TaskUpdate Agent";
    let (run, stream) = sandbox.claude_p(claude, &api, REQUEST, tools, &format!("{label}-1"));
    check_run(&run, &stream, NEXT);
    let sid = stream
        .iter()
        .find_map(|v| v.get("session_id").and_then(Value::as_str))
        .unwrap()
        .to_string();
    let transcript = find_transcript(&sandbox.home, &sid).expect("session one's transcript");
    assert!(
        fs::read_to_string(&transcript)
            .unwrap()
            .contains("TaskUpdate"),
        "the script did not run as planned"
    );
    assert_eq!(digests(&sandbox.home).len(), 1, "{}", run.describe());

    let api = MockApi::start();
    let (run, stream) = sandbox.claude_p(claude, &api, "carry on", "Bash", &format!("{label}-2"));
    check_run(&run, &stream, "E2E-FINAL");
    let requests = api.requests();
    let first = main_requests(&requests)
        .into_iter()
        .next()
        .expect("a main-loop request")
        .clone();
    (context_of(&first), sid)
}

/// The run succeeded, ended with `final_text`, and no baton hook reported a problem.
fn check_run(run: &Run, stream: &[Value], final_text: &str) {
    assert!(run.status.success(), "{}", run.describe());
    assert!(
        result_text(stream).contains(final_text),
        "{}",
        run.describe()
    );
    let errors: Vec<&Value> = stream
        .iter()
        .filter(|v| v.to_string().contains("baton: capture"))
        .collect();
    assert!(errors.is_empty(), "a capture error: {errors:#?}");
}

#[test]
fn the_next_session_starts_where_the_last_one_left_off() {
    let Some(claude) = claude_or_skip("capture") else {
        return;
    };
    let sandbox = Sandbox::new();
    let (ctx, sid) = two_sessions(&claude, &sandbox, false, "capture");
    assert!(
        ctx.contains("Where the last session left off"),
        "no section in:\n{ctx}"
    );
    assert!(ctx.contains("CAPTURE-E2E-REQUEST"), "{ctx}");
    let open = ctx
        .lines()
        .find(|l| l.contains("- Open tasks:"))
        .unwrap_or_else(|| panic!("no open tasks line in:\n{ctx}"));
    assert!(
        open.contains("CAPTURE-E2E-OPEN-1\" (in progress)"),
        "{open}"
    );
    assert!(open.contains("CAPTURE-E2E-OPEN-2\" (pending)"), "{open}");
    assert!(
        !open.contains("CAPTURE-E2E-DONE"),
        "a completed task shown as open: {open}"
    );
    assert!(ctx.contains(ERROR_LINE), "{ctx}");
    assert!(ctx.contains("notes/widget-e2e.txt"), "{ctx}");
    assert!(ctx.contains("CAPTURE-E2E-NEXT"), "{ctx}");

    let shown = show(&sandbox, &sid);
    assert_eq!(shown["digest"]["session_id"], sid.as_str(), "{shown}");
    assert_eq!(
        shown["digest"]["end_reason"], "other",
        "SessionEnd was seen: {shown}"
    );
}

#[test]
fn a_subagents_work_stays_out_of_the_main_lists() {
    let Some(claude) = claude_or_skip("capture subagent") else {
        return;
    };
    let sandbox = Sandbox::new();
    let (ctx, sid) = two_sessions(&claude, &sandbox, true, "capture-agent");
    // The subagent ran (its file exists), and it shows nowhere in the next session's context.
    assert!(
        sandbox.project.join("SUBAGENT-ONLY-FILE.txt").is_file(),
        "the subagent did not run its command"
    );
    let ctx = section_of(&ctx);
    assert!(!ctx.contains("SUBAGENT-ONLY"), "{ctx}");
    assert!(
        ctx.contains(ERROR_LINE),
        "the main session's failure is the last one: {ctx}"
    );
    let d = &show(&sandbox, &sid)["digest"];
    assert_eq!(d["subagents"], json!(["check the build"]), "{d}");
    // TaskCreate ×3, TaskUpdate ×2, Write, Bash, Agent: the subagent's Bash is not counted.
    assert_eq!(d["counts"]["tool_calls"], 8, "{d}");
    assert_eq!(d["failures"].as_array().map(Vec::len), Some(1), "{d}");
}

#[test]
fn a_compaction_writes_a_checkpoint_with_the_request_and_the_open_tasks() {
    let Some(claude) = claude_or_skip("capture compaction") else {
        return;
    };
    let sandbox = Sandbox::new();
    // The project uses the bridge (its memory folder exists).
    fs::create_dir_all(sandbox.project.join(".rune")).unwrap();
    let api = MockApi::with_script(session_one(&sandbox.project, false));
    let tools = "Bash Write TaskCreate TaskUpdate";
    let (run, stream) = sandbox.claude_p(&claude, &api, REQUEST, tools, "capture-compact-1");
    check_run(&run, &stream, NEXT);

    // Compact that conversation: PreCompact runs on Claude Code's own transcript.
    let api = MockApi::with_script(vec![Turn::Text("Compacted. E2E-FINAL".into())]);
    let mut cmd = sandbox.claude(&claude, &api.base_url());
    cmd.args(["-p", "/compact", "--continue", "--plugin-dir"])
        .arg(&sandbox.plugin)
        .args(["--output-format", "stream-json", "--verbose"]);
    let compact = crate::support::run(cmd, &sandbox.root, "capture-compact-2");
    assert!(compact.status.success(), "{}", compact.describe());
    let cp = fs::read_to_string(sandbox.project.join(".rune/checkpoint.md"))
        .unwrap_or_else(|e| panic!("no checkpoint ({e})\n{}", compact.describe()));
    let doing = cp.split("## What I Was Doing\n").nth(1).unwrap_or("");
    assert!(doing.starts_with(REQUEST), "{cp}");
    let left = cp.split("## What's Left").nth(1).unwrap_or("");
    let left = left.split("\n## ").next().unwrap_or("");
    assert!(
        left.contains("CAPTURE-E2E-OPEN-1") && left.contains("CAPTURE-E2E-OPEN-2"),
        "{cp}"
    );
    assert!(
        !left.contains("CAPTURE-E2E-DONE"),
        "a completed task left open: {cp}"
    );
}
