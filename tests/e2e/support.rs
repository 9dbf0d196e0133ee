//! What every end-to-end test needs: finding Claude Code, a sandbox (plugin copy, project,
//! HOME), running `claude` with a timeout, and reading what it left behind.

use serde_json::Value;
use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

pub(crate) const REPO: &str = env!("CARGO_MANIFEST_DIR");
pub(crate) const BATON: &str = env!("CARGO_BIN_EXE_baton");
/// Upper bound for one `claude` run; a hung run is killed and the test fails.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(120);
/// What baton's SessionStart context starts with.
pub(crate) const BATON_CONTEXT_MARK: &str = "baton is active";

// ------------------------------------------------------------------------------------------
// Finding Claude Code
// ------------------------------------------------------------------------------------------

pub(crate) fn is_executable_file(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The `claude` binary to test against, or `None` when Claude Code is not installed.
/// A `BATON_CLAUDE` that does not point at an executable is a setup error, not a skip.
pub(crate) fn find_claude() -> Option<PathBuf> {
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
pub(crate) fn claude_or_skip(test: &str) -> Option<PathBuf> {
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

pub(crate) struct Sandbox {
    _tmp: TempDir,
    pub(crate) root: PathBuf,
    pub(crate) home: PathBuf,
    pub(crate) project: PathBuf,
    pub(crate) plugin: PathBuf,
}

impl Sandbox {
    pub(crate) fn new() -> Sandbox {
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
        first_commit(&project);
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
    pub(crate) fn claude(&self, claude: &Path, base_url: &str) -> Command {
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
            .env("XDG_STATE_HOME", self.home.join(".local/state"))
            .env("XDG_CACHE_HOME", self.home.join(".cache"))
            .current_dir(&self.project)
            .stdin(Stdio::null());
        cmd
    }
}

/// A throw-away copy of the plugin: its manifest, hooks, commands and skills from the repository,
/// and the binary cargo built for this test run at `bin/baton`, so a stale `bin/` in the
/// repository never matters.
/// A git repository with one commit, as a user's project has (baton never makes a
/// repository's first commit).
fn first_commit(project: &Path) {
    let repo = git2::Repository::init(project).expect("git init the project");
    fs::write(project.join("README.md"), "# e2e project\n").unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(Path::new("README.md")).unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = git2::Signature::now("e2e", "e2e@example.invalid").unwrap();
    repo.commit(Some("HEAD"), &sig, &sig, "init", &tree, &[])
        .unwrap();
}

pub(crate) fn build_plugin(dst: &Path) {
    let repo = Path::new(REPO);
    for dir in [".claude-plugin", "hooks", "commands", "skills"] {
        let src = repo.join(dir);
        if src.is_dir() {
            copy_dir_all(&src, &dst.join(dir));
        }
    }
    install_binary(dst, Path::new(BATON));
}

pub(crate) fn install_binary(plugin: &Path, binary: &Path) {
    let bin = plugin.join("bin");
    fs::create_dir_all(&bin).unwrap();
    let target = bin.join("baton");
    let _ = fs::remove_file(&target);
    // A symlink, not a copy: exec'ing a file just written fails with ETXTBSY when another
    // test thread forks while the copy's write handle is open.
    std::os::unix::fs::symlink(binary, &target)
        .unwrap_or_else(|e| panic!("link {} to {}: {e}", binary.display(), target.display()));
}

pub(crate) fn copy_dir_all(src: &Path, dst: &Path) {
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

pub(crate) struct Run {
    pub(crate) status: ExitStatus,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) elapsed: Duration,
}

impl Run {
    pub(crate) fn describe(&self) -> String {
        format!(
            "exit: {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.status, self.stdout, self.stderr
        )
    }
}

/// Runs `cmd` with stdout/stderr going to files under `dir` (no pipe to fill up), killing it
/// after [`TIMEOUT`].
pub(crate) fn run(cmd: Command, dir: &Path, label: &str) -> Run {
    run_for(cmd, dir, label, TIMEOUT)
}

/// `run` with another deadline (a run that builds baton takes minutes).
pub(crate) fn run_for(mut cmd: Command, dir: &Path, label: &str, timeout: Duration) -> Run {
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
        if started.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{label}: timed out after {timeout:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
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
pub(crate) fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l.trim()).ok())
        .filter(Value::is_object)
        .collect()
}

pub(crate) fn str_at<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// `<HOME>/.claude/projects/*/<session_id>.jsonl`.
pub(crate) fn find_transcript(home: &Path, session_id: &str) -> Option<PathBuf> {
    let wanted = format!("{session_id}.jsonl");
    walkdir::WalkDir::new(home.join(".claude/projects"))
        .into_iter()
        .filter_map(Result::ok)
        .find(|e| e.file_type().is_file() && e.file_name() == OsStr::new(&wanted))
        .map(walkdir::DirEntry::into_path)
}

/// The texts of every `tool_result` block in a request's `messages`.
pub(crate) fn tool_result_texts(request: &Value) -> Vec<String> {
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
pub(crate) fn system_messages(body: &str) -> String {
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
// One headless conversation
// ------------------------------------------------------------------------------------------

/// The flags that make `claude -p` print its stream with the hook events, as JSON lines.
pub(crate) const STREAM_JSON: [&str; 4] = [
    "--output-format",
    "stream-json",
    "--verbose",
    "--include-hook-events",
];

impl Sandbox {
    /// Runs `claude -p PROMPT` in the project with the plugin loaded, against `api`, with
    /// `--output-format stream-json --verbose --include-hook-events` and `--allowedTools` for
    /// `tools`. Returns the run and its stream lines; `label` names the output files.
    pub(crate) fn claude_p(
        &self,
        claude: &Path,
        api: &crate::mock_api::MockApi,
        prompt: &str,
        tools: &str,
        label: &str,
    ) -> (Run, Vec<Value>) {
        self.claude_p_env(claude, api, prompt, tools, label, &[])
    }

    /// `claude_p` with extra environment variables for Claude Code and its hooks (e.g.
    /// `BATON_NOW` to pin the time baton sees).
    pub(crate) fn claude_p_env(
        &self,
        claude: &Path,
        api: &crate::mock_api::MockApi,
        prompt: &str,
        tools: &str,
        label: &str,
        env: &[(&str, &str)],
    ) -> (Run, Vec<Value>) {
        let mut cmd = self.claude(claude, &api.base_url());
        cmd.envs(env.iter().copied());
        cmd.arg("-p")
            .arg(prompt)
            .arg("--plugin-dir")
            .arg(&self.plugin)
            .args(crate::support::STREAM_JSON)
            .args(["--allowedTools", tools]);
        let run = run(cmd, &self.root, label);
        let stream = json_lines(&run.stdout);
        (run, stream)
    }
}

/// The text of every `system`-role message and text block of a request (where Claude Code
/// 2.1.197 puts SessionStart context), with JSON escapes undone.
pub(crate) fn context_of(request: &crate::mock_api::Recorded) -> String {
    let body = request.json();
    let mut out = Vec::new();
    for msg in body
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        match msg.get("content") {
            Some(Value::String(s)) => out.push(s.clone()),
            Some(Value::Array(blocks)) => out.extend(
                blocks
                    .iter()
                    .filter(|b| str_at(b, "/type") == "text")
                    .map(|b| str_at(b, "/text").to_string()),
            ),
            _ => {}
        }
    }
    if let Some(system) = body.get("system") {
        out.push(system.to_string());
    }
    out.join("\n")
}

/// The final `result` text of a stream (empty when there is none).
pub(crate) fn result_text(stream: &[Value]) -> String {
    stream
        .iter()
        .rev()
        .find(|v| str_at(v, "/type") == "result")
        .map(|v| str_at(v, "/result").to_string())
        .unwrap_or_default()
}
