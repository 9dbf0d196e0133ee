//! The audit inside Claude Code: a scripted session with three tool calls and a correcting
//! prompt leaves exactly those records, redacted, in an automatic session that ends with that
//! Claude session; `/baton:start` in the next one names a session of its own records only;
//! `/baton:end` through Claude Code completes it, writes its summary and leaves no `(auto)`
//! stub behind.

use crate::mock_api::{MockApi, Turn};
use crate::support::{claude_or_skip, result_text, Sandbox};
use serde_json::Value;
use std::fs;
use std::path::Path;

/// Every record in the session's .jsonl files.
fn records(run_dir: &Path, files: &[&str]) -> Vec<Value> {
    files
        .iter()
        .filter_map(|f| fs::read_to_string(run_dir.join(f)).ok())
        .flat_map(|t| {
            t.lines()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn of_type<'a>(recs: &'a [Value], types: &[&str]) -> Vec<&'a Value> {
    recs.iter()
        .filter(|r| types.contains(&r["type"].as_str().unwrap_or("")))
        .collect()
}

/// No file under `dir` contains `needle`.
fn assert_nowhere(dir: &Path, needle: &str) {
    for entry in walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
    {
        if entry.file_type().is_file() {
            let text = fs::read_to_string(entry.path()).unwrap_or_default();
            assert!(
                !text.contains(needle),
                "secret in {}",
                entry.path().display()
            );
        }
    }
}

#[test]
fn a_session_is_recorded_redacted_and_ended_through_claude_code() {
    let Some(claude) = claude_or_skip("audit") else {
        return;
    };
    let sandbox = Sandbox::new();
    let secret = ["ghp_", "E2eE2eE2eE2eE2eE2eE2eE2eE2eE2eE2eE2e1"].concat();
    let api = MockApi::with_script(vec![
        Turn::bash("echo one"),
        Turn::bash("echo two > out.txt"),
        Turn::bash(&format!("echo {secret} | wc -c")),
        Turn::Text("Done. E2E-FINAL".into()),
    ]);
    let prompt = format!("no, don't use the old endpoint; use token {secret} instead");
    let (run, stream) = sandbox.claude_p(&claude, &api, &prompt, "Bash", "audit-1");
    assert!(run.status.success(), "{}", run.describe());
    assert!(
        result_text(&stream).contains("E2E-FINAL"),
        "{}",
        run.describe()
    );

    let boo = sandbox.project.join(".boo");
    let runs = boo.join("runs");
    // The automatic session ended with its Claude session (SessionEnd of the `-p` run).
    assert!(
        !runs.join(".current_session").exists(),
        "still current after SessionEnd\n{}",
        run.describe()
    );
    let sessions = session_dirs(&runs);
    assert_eq!(sessions.len(), 1, "{sessions:?}\n{}", run.describe());
    let auto_dir = &sessions[0];
    let auto_meta = session_json(auto_dir);
    assert_eq!(auto_meta["task"], "(auto)", "{auto_meta}");
    assert_eq!(auto_meta["status"], "completed", "{auto_meta}");
    let recs = records(auto_dir, &["audit_trail.jsonl"]);
    let tools = of_type(&recs, &["data", "change"]);
    assert_eq!(tools.len(), 3, "tool records: {tools:#?}");
    let changes = of_type(&recs, &["change"]);
    assert_eq!(changes.len(), 1, "the redirect is a change: {tools:#?}");
    assert_eq!(of_type(&recs, &["user_correction"]).len(), 1, "{recs:#?}");
    assert_eq!(of_type(&recs, &["conversation"]).len(), 1, "{recs:#?}");
    let first_claude = recs[0]["claude_session"].as_str().unwrap().to_string();
    assert!(auto_dir.join("session_summary.md").is_file());
    assert_nowhere(&boo, &secret);
    assert!(
        fs::read_to_string(auto_dir.join("audit_trail.jsonl"))
            .unwrap()
            .contains("[REDACTED]"),
        "the secret was not replaced by the redaction mark"
    );

    // /baton:start in the next Claude session: the model runs `baton audit start`.
    let baton = sandbox.plugin.join("bin/baton");
    let api = MockApi::with_script(vec![
        Turn::bash(&format!("{} audit start 'e2e task'", baton.display())),
        Turn::Text("Started. E2E-FINAL".into()),
    ]);
    let (run, _) = sandbox.claude_p(
        &claude,
        &api,
        "/baton:start e2e task",
        "Bash",
        "audit-start",
    );
    assert!(run.status.success(), "{}", run.describe());
    let id = fs::read_to_string(runs.join(".current_session"))
        .unwrap_or_else(|e| panic!("no current audit session ({e})\n{}", run.describe()))
        .trim()
        .to_string();
    let run_dir = runs.join(&id);
    assert_ne!(&run_dir, auto_dir);
    let meta = session_json(&run_dir);
    assert_eq!(meta["task"], "e2e task", "{meta}");
    assert_eq!(
        meta["status"], "in_progress",
        "a named session outlives its Claude session"
    );
    let recs = records(&run_dir, &["audit_buffer.jsonl", "audit_pending.jsonl"]);
    assert!(!recs.is_empty());
    assert!(
        recs.iter()
            .all(|r| r["claude_session"] != first_claude.as_str()),
        "the named session holds the earlier Claude session's records: {recs:#?}"
    );

    // /baton:end through Claude Code.
    let api = MockApi::with_script(vec![Turn::Text("Ended. E2E-FINAL".into())]);
    let (run, _) = sandbox.claude_p(&claude, &api, "/baton:end", "Bash", "audit-end");
    assert!(run.status.success(), "{}", run.describe());
    let meta = session_json(&run_dir);
    assert_eq!(meta["status"], "completed", "{meta}");
    let summary = fs::read_to_string(run_dir.join("session_summary.md"))
        .unwrap_or_else(|e| panic!("no session_summary.md ({e})\n{}", run.describe()));
    assert!(summary.contains(&id), "{summary}");
    // No `(auto)` stub: the "/baton:end" prompt, reported after the command ran, joined the
    // session it ended.
    assert_eq!(session_dirs(&runs).len(), 2, "{:?}", session_dirs(&runs));
    assert!(!runs.join(".current_session").exists());
    let trail = records(&run_dir, &["audit_trail.jsonl"]);
    assert!(
        trail.iter().any(|r| r["text"] == "/baton:end"),
        "{trail:#?}"
    );
    let report = std::process::Command::new(&baton)
        .args(["audit", "report-daily"])
        .current_dir(&sandbox.project)
        .env("HOME", &sandbox.home)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&report.stdout);
    let backlog = &report[report.find("## 6.").unwrap()..report.find("## 7.").unwrap()];
    assert!(!backlog.contains("unfinished"), "{backlog}");
    assert!(!backlog.contains("(auto)"), "{backlog}");
    assert_nowhere(&boo, &secret);
}

/// The run directories under `runs`, sorted.
fn session_dirs(runs: &Path) -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<_> = fs::read_dir(runs)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

fn session_json(dir: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(dir.join("session.json")).unwrap()).unwrap()
}
