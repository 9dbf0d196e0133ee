//! One multi-turn session of the real Claude Code: `claude -p --input-format stream-json`
//! with the user's turns written to its stdin one at a time, each waited for (its `result`
//! event), and the stream read as it comes (`--output-format stream-json --verbose
//! --include-hook-events`), so baton's hook answers can be read from it. A turn the scripted
//! API holds back ([`crate::mock_api::Turn::Hang`]) lets the test kill the session in the
//! middle of it, as a crash or a closed terminal would.

use crate::mock_api::MockApi;
use crate::support::{str_at, Sandbox, STREAM_JSON};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Upper bound for one turn (or one hang to show up).
const TURN_TIMEOUT: Duration = Duration::from_secs(120);

/// A running session.
pub(crate) struct Conversation {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Arc<Mutex<Vec<Value>>>,
    label: String,
}

/// How to start one.
pub(crate) struct Options<'a> {
    /// `--allowedTools`.
    pub(crate) tools: &'a str,
    /// More arguments (`--continue`, `--resume ID`).
    pub(crate) extra: &'a [&'a str],
    /// More environment (`BATON_NOW`).
    pub(crate) env: &'a [(&'a str, &'a str)],
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            tools: "Bash Edit Write Read TaskCreate TaskUpdate",
            extra: &[],
            env: &[],
        }
    }
}

impl Conversation {
    /// Starts `claude` in the sandbox's project (or `dir`), against `api`.
    pub(crate) fn start(
        sandbox: &Sandbox,
        claude: &Path,
        api: &MockApi,
        dir: Option<&Path>,
        opts: &Options<'_>,
        label: &str,
    ) -> Conversation {
        let mut cmd = sandbox.claude(claude, &api.base_url());
        if let Some(d) = dir {
            cmd.current_dir(d);
        }
        cmd.envs(opts.env.iter().copied())
            .args(["-p", "--input-format", "stream-json"])
            .args(STREAM_JSON)
            .arg("--plugin-dir")
            .arg(&sandbox.plugin)
            .args(["--allowedTools", opts.tools])
            .args(opts.extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("{label}: spawn claude: {e}"));
        let stdout = child.stdout.take().expect("stdout piped");
        let events: Arc<Mutex<Vec<Value>>> = Arc::default();
        let sink = Arc::clone(&events);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Ok(v) = serde_json::from_str::<Value>(line.trim()) {
                    if let Ok(mut e) = sink.lock() {
                        e.push(v);
                    }
                }
            }
        });
        Conversation {
            stdin: child.stdin.take(),
            child,
            events,
            label: label.to_string(),
        }
    }

    /// Every event so far.
    pub(crate) fn events(&self) -> Vec<Value> {
        self.events.lock().map(|e| e.clone()).unwrap_or_default()
    }

    fn results(&self) -> usize {
        self.events()
            .iter()
            .filter(|v| str_at(v, "/type") == "result")
            .count()
    }

    fn send(&mut self, prompt: &str) {
        let line = json!({"type": "user", "message": {"role": "user", "content": prompt}});
        let stdin = self.stdin.as_mut().expect("the session's stdin is open");
        writeln!(stdin, "{line}").unwrap_or_else(|e| panic!("{}: write a turn: {e}", self.label));
        stdin.flush().ok();
    }

    /// One user turn, waited for to its end.
    pub(crate) fn say(&mut self, prompt: &str) {
        let before = self.results();
        self.send(prompt);
        let started = Instant::now();
        while self.results() <= before {
            assert!(
                started.elapsed() <= TURN_TIMEOUT,
                "{}: no end of the turn {prompt:?} after {TURN_TIMEOUT:?}; events: {:#?}",
                self.label,
                self.events()
            );
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("{}: claude exited ({status}) during {prompt:?}", self.label);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// One user turn that the API holds back partway (`Turn::Hang`): once it does, the
    /// session is killed with SIGKILL — no Stop, no SessionEnd.
    pub(crate) fn say_then_kill(mut self, prompt: &str, api: &MockApi) -> Vec<Value> {
        let before = api.hangs();
        self.send(prompt);
        let started = Instant::now();
        while api.hangs() <= before {
            assert!(
                started.elapsed() <= TURN_TIMEOUT,
                "{}: the API never held a turn back",
                self.label
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        // What came before the held-back request is on disk by now (Claude Code writes the
        // transcript as the turn goes); give its writes a moment.
        std::thread::sleep(Duration::from_millis(800));
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.events()
    }

    /// Ends the session as a user would (end of input): SessionEnd runs.
    pub(crate) fn end(mut self) -> Vec<Value> {
        drop(self.stdin.take());
        let started = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => break,
                _ if started.elapsed() > TURN_TIMEOUT => {
                    let _ = self.child.kill();
                    panic!("{}: claude did not exit at the end of input", self.label);
                }
                _ => std::thread::sleep(Duration::from_millis(50)),
            }
        }
        // The reader thread drains the rest.
        std::thread::sleep(Duration::from_millis(100));
        self.events()
    }
}

impl Drop for Conversation {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The session id the stream names.
pub(crate) fn session_id(events: &[Value]) -> Option<String> {
    events
        .iter()
        .find_map(|v| v.get("session_id").and_then(Value::as_str))
        .map(str::to_string)
}

/// What baton's SessionStart hook gave the model, per start in the stream: (source,
/// additionalContext), read from the hook events (`--include-hook-events`).
pub(crate) fn session_starts(events: &[Value]) -> Vec<(String, String)> {
    events
        .iter()
        .filter(|v| {
            str_at(v, "/subtype") == "hook_response" && str_at(v, "/hook_event") == "SessionStart"
        })
        .map(|v| {
            let source = str_at(v, "/hook_name")
                .split_once(':')
                .map(|(_, s)| s.to_string())
                .unwrap_or_default();
            let out: Value = serde_json::from_str(str_at(v, "/output")).unwrap_or(Value::Null);
            let ctx = str_at(&out, "/hookSpecificOutput/additionalContext").to_string();
            (source, ctx)
        })
        .collect()
}

/// The one "Next:" line of a context's "Resume here" (`None` when it names none).
pub(crate) fn next_action(ctx: &str) -> Option<String> {
    let start = ctx.find("## Resume here\n")?;
    let rest = &ctx[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 3);
    rest[..end]
        .lines()
        .find(|l| l.starts_with("Next: "))
        .map(str::to_string)
}
