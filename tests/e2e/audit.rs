//! The audit inside Claude Code: a scripted session with three tool calls and a correcting
//! prompt leaves exactly those records, redacted; `/baton:end` through Claude Code completes
//! the session and writes its summary.

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
    let id = fs::read_to_string(boo.join("runs/.current_session"))
        .unwrap_or_else(|e| panic!("no current audit session ({e})\n{}", run.describe()))
        .trim()
        .to_string();
    let run_dir = boo.join("runs").join(&id);
    let recs = records(&run_dir, &["audit_buffer.jsonl", "audit_pending.jsonl"]);
    let tools = of_type(&recs, &["data", "change"]);
    assert_eq!(tools.len(), 3, "tool records: {tools:#?}");
    let changes = of_type(&recs, &["change"]);
    assert_eq!(changes.len(), 1, "the redirect is a change: {tools:#?}");
    assert_eq!(of_type(&recs, &["user_correction"]).len(), 1, "{recs:#?}");
    assert_eq!(of_type(&recs, &["conversation"]).len(), 1, "{recs:#?}");
    // Stop moved the buffer to pending.
    assert!(run_dir.join("audit_pending.jsonl").is_file());
    assert_nowhere(&boo, &secret);
    assert!(
        fs::read_to_string(run_dir.join("audit_pending.jsonl"))
            .unwrap()
            .contains("[REDACTED]"),
        "the secret was not replaced by the redaction mark"
    );

    // /baton:end through Claude Code.
    let api = MockApi::with_script(vec![Turn::Text("Ended. E2E-FINAL".into())]);
    let (run, _) = sandbox.claude_p(&claude, &api, "/baton:end", "Bash", "audit-end");
    assert!(run.status.success(), "{}", run.describe());
    let meta: Value =
        serde_json::from_str(&fs::read_to_string(run_dir.join("session.json")).unwrap()).unwrap();
    assert_eq!(meta["status"], "completed", "{meta}");
    let summary = fs::read_to_string(run_dir.join("session_summary.md"))
        .unwrap_or_else(|e| panic!("no session_summary.md ({e})\n{}", run.describe()));
    assert!(summary.contains(&id), "{summary}");
    let trail = records(&run_dir, &["audit_trail.jsonl"]);
    assert_eq!(of_type(&trail, &["data", "change"]).len(), 3, "{trail:#?}");
    assert_eq!(of_type(&trail, &["user_correction"]).len(), 1, "{trail:#?}");
    assert!(
        !boo.join("runs/.current_session").exists()
            || fs::read_to_string(boo.join("runs/.current_session"))
                .unwrap()
                .trim()
                != id
    );
    assert_nowhere(&boo, &secret);
}
