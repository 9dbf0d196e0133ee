//! End-to-end: the real Claude Code against a local stand-in of the Messages API.
//!
//! These tests run the `claude` CLI headless (`-p`) with a throw-away copy of this plugin
//! (`--plugin-dir`) whose `bin/baton` is the binary cargo just built, in a fresh git repository
//! with a fresh `HOME`, talking to [`mock_api::MockApi`] on 127.0.0.1. No real API key is used
//! and nothing leaves the machine.
//!
//! Claude Code is found through `BATON_CLAUDE` (path to the `claude` binary), else
//! `<repo>/.cache/npm/node_modules/.bin/claude` (where `.ci/run` installs it), else `claude` on
//! `PATH`. Without one, each test prints `SKIPPED: …` to stderr and passes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod mock_api;

use mock_api::{MockApi, Recorded, FINAL_TEXT, TOOL_COMMAND};
use serde_json::Value;
use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

const REPO: &str = env!("CARGO_MANIFEST_DIR");
const BATON: &str = env!("CARGO_BIN_EXE_baton");
/// Upper bound for one `claude` run; a hung run is killed and the test fails.
const TIMEOUT: Duration = Duration::from_secs(120);
/// What baton's SessionStart context starts with.
const BATON_CONTEXT_MARK: &str = "baton is active";

// ------------------------------------------------------------------------------------------
// Finding Claude Code
// ------------------------------------------------------------------------------------------

fn is_executable_file(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The `claude` binary to test against, or `None` when Claude Code is not installed.
/// A `BATON_CLAUDE` that does not point at an executable is a setup error, not a skip.
fn find_claude() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("BATON_CLAUDE").filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        assert!(
            is_executable_file(&p),
            "BATON_CLAUDE={} is not an executable file",
            p.display()
        );
        return Some(p);
    }
    let cached = Path::new(REPO).join(".cache/npm/node_modules/.bin/claude");
    if is_executable_file(&cached) {
        return Some(cached);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("claude"))
        .find(|p| is_executable_file(p))
}

/// `find_claude`, printing the skip notice when there is none. The notice is written to the
/// stderr stream itself, which libtest does not capture, so a plain `cargo test` shows it.
fn claude_or_skip(test: &str) -> Option<PathBuf> {
    let found = find_claude();
    match &found {
        Some(p) => eprintln!("e2e {test}: using Claude Code at {}", p.display()),
        None => {
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: e2e {test}: Claude Code not installed (set BATON_CLAUDE or run .ci/run)"
            );
        }
    }
    found
}

// ------------------------------------------------------------------------------------------
// Sandbox: plugin copy, project repository, HOME
// ------------------------------------------------------------------------------------------

struct Sandbox {
    _tmp: TempDir,
    root: PathBuf,
    home: PathBuf,
    project: PathBuf,
    plugin: PathBuf,
}

impl Sandbox {
    fn new() -> Sandbox {
        let tmp = tempfile::Builder::new()
            .prefix("baton-e2e-")
            .tempdir()
            .expect("tempdir");
        // Canonical, so paths compare equal to what Claude Code reports (e.g. /tmp symlinks).
        let root = tmp.path().canonicalize().expect("canonicalize tempdir");
        let home = root.join("home");
        let project = root.join("project");
        let plugin = root.join("plugin");
        fs::create_dir_all(home.join(".config")).unwrap();
        fs::create_dir_all(home.join(".local/share")).unwrap();
        fs::create_dir_all(&project).unwrap();
        git2::Repository::init(&project).expect("git init the project");
        build_plugin(&plugin);
        Sandbox {
            _tmp: tmp,
            root,
            home,
            project,
            plugin,
        }
    }

    /// A `claude` command with an isolated environment: no inherited `ANTHROPIC_*`, `CLAUDE*`,
    /// `BATON_*` or proxy variables; `PATH` and the rest are kept.
    fn claude(&self, claude: &Path, base_url: &str) -> Command {
        let mut cmd = Command::new(claude);
        for (key, _) in std::env::vars_os() {
            let k = key.to_string_lossy();
            let upper = k.to_ascii_uppercase();
            if k.starts_with("ANTHROPIC_")
                || k.starts_with("CLAUDE")
                || k.starts_with("BATON_")
                || upper.ends_with("_PROXY")
            {
                cmd.env_remove(&key);
            }
        }
        cmd.env("ANTHROPIC_BASE_URL", base_url)
            .env("ANTHROPIC_API_KEY", "test-key-not-real")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("NO_PROXY", "127.0.0.1,localhost")
            .env("no_proxy", "127.0.0.1,localhost")
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("XDG_DATA_HOME", self.home.join(".local/share"))
            .current_dir(&self.project)
            .stdin(Stdio::null());
        cmd
    }
}

/// A throw-away copy of the plugin: its manifest, hooks, commands and skills from the repository,
/// and the binary cargo built for this test run at `bin/baton`, so a stale `bin/` in the
/// repository never matters.
fn build_plugin(dst: &Path) {
    let repo = Path::new(REPO);
    for dir in [".claude-plugin", "hooks", "commands", "skills"] {
        let src = repo.join(dir);
        if src.is_dir() {
            copy_dir_all(&src, &dst.join(dir));
        }
    }
    install_binary(dst, Path::new(BATON));
}

fn install_binary(plugin: &Path, binary: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let bin = plugin.join("bin");
    fs::create_dir_all(&bin).unwrap();
    let target = bin.join("baton");
    let _ = fs::remove_file(&target);
    fs::copy(binary, &target)
        .unwrap_or_else(|e| panic!("copy {} to {}: {e}", binary.display(), target.display()));
    fs::set_permissions(&target, fs::Permissions::from_mode(0o755)).unwrap();
}

fn copy_dir_all(src: &Path, dst: &Path) {
    for entry in walkdir::WalkDir::new(src) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(src).unwrap();
        let to = dst.join(rel);
        if entry.file_type().is_dir() {
            fs::create_dir_all(&to).unwrap();
        } else {
            fs::copy(entry.path(), &to).unwrap_or_else(|e| {
                panic!("copy {} to {}: {e}", entry.path().display(), to.display())
            });
        }
    }
}

// ------------------------------------------------------------------------------------------
// Running with a timeout
// ------------------------------------------------------------------------------------------

struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

impl Run {
    fn describe(&self) -> String {
        format!(
            "exit: {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.status, self.stdout, self.stderr
        )
    }
}

/// Runs `cmd` with stdout/stderr going to files under `dir` (no pipe to fill up), killing it
/// after [`TIMEOUT`].
fn run(mut cmd: Command, dir: &Path, label: &str) -> Run {
    let out_path = dir.join(format!("{label}.stdout"));
    let err_path = dir.join(format!("{label}.stderr"));
    cmd.stdout(fs::File::create(&out_path).unwrap())
        .stderr(fs::File::create(&err_path).unwrap());
    let started = Instant::now();
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {}: {e}", cmd.get_program().display()));
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{label}: timed out after {TIMEOUT:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
                fs::read_to_string(&out_path).unwrap_or_default(),
                fs::read_to_string(&err_path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Run {
        status,
        stdout: fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: fs::read_to_string(&err_path).unwrap_or_default(),
        elapsed: started.elapsed(),
    }
}

// ------------------------------------------------------------------------------------------
// Reading what Claude Code left behind
// ------------------------------------------------------------------------------------------

/// `--output-format stream-json` prints one JSON object a line.
fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l.trim()).ok())
        .filter(Value::is_object)
        .collect()
}

fn str_at<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// `<HOME>/.claude/projects/*/<session_id>.jsonl`.
fn find_transcript(home: &Path, session_id: &str) -> Option<PathBuf> {
    let wanted = format!("{session_id}.jsonl");
    walkdir::WalkDir::new(home.join(".claude/projects"))
        .into_iter()
        .filter_map(Result::ok)
        .find(|e| e.file_type().is_file() && e.file_name() == OsStr::new(&wanted))
        .map(walkdir::DirEntry::into_path)
}

/// The texts of every `tool_result` block in a request's `messages`.
fn tool_result_texts(request: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for msg in request
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        for block in msg
            .get("content")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if block.get("type").and_then(Value::as_str) == Some("tool_result") {
                out.push(match block.get("content") {
                    Some(Value::String(s)) => s.clone(),
                    Some(other) => other.to_string(),
                    None => String::new(),
                });
            }
        }
    }
    out
}

/// The `system`-role messages of a request (where Claude Code 2.1.197 puts hook context),
/// for failure messages: the whole body is some 75 KB.
fn system_messages(body: &str) -> String {
    let request: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    request
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|m| str_at(m, "/role") == "system")
        .map(|m| m.get("content").map(Value::to_string).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

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

    let mut cmd = sandbox.claude(&claude, &api.base_url());
    cmd.arg("-p")
        .arg("please run a command")
        .arg("--plugin-dir")
        .arg(&sandbox.plugin)
        .args([
            "--output-format",
            "stream-json",
            "--verbose",
            "--include-hook-events",
        ])
        .args(["--allowedTools", "Bash"]);
    let run = run(cmd, &sandbox.root, "claude-p");
    eprintln!("e2e: claude -p took {:.1?}", run.elapsed);
    let requests = api.requests();
    let stream = json_lines(&run.stdout);

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
        str_at(result, "/result").contains("E2E-FINAL"),
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
    let main_loop: Vec<&Recorded> = requests
        .iter()
        .filter(|r| {
            r.json()
                .get("tools")
                .and_then(Value::as_array)
                .is_some_and(|t| !t.is_empty())
        })
        .collect();
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
fn check_transcript_hooks(home: &Path, session_id: &str) {
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
fn check_stream_hooks(stream: &[Value]) -> usize {
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
fn check_stderr_hooks(run: &Run) {
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
