//! The bridge inside Claude Code: the checkpoint and the invariants reach the model's first
//! request; a compaction keeps that checkpoint (never replaced by an automatic one), and the
//! next session sees it.

use crate::mock_api::{main_requests, MockApi, Turn};
use crate::support::{claude_or_skip, run, Sandbox};
use std::fs;
use std::io::Write;
use std::process::{Command, Stdio};

const INVARIANTS: &str = "# Invariants\n\n## Danger Zones\n\n### Applied migrations\n\
- **WHAT**: never edit an applied migration\n- **WHERE**: `migrations/**`\n\
- **WHY**: production replays them\n";

/// `baton bridge checkpoint` in the project, YAML on stdin.
fn checkpoint(sandbox: &Sandbox, yaml: &str) {
    let mut child = Command::new(sandbox.plugin.join("bin/baton"))
        .args(["bridge", "checkpoint"])
        .current_dir(&sandbox.project)
        .env("HOME", &sandbox.home)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(yaml.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn checkpoint_and_invariants_reach_the_model_and_survive_a_compaction() {
    let Some(claude) = claude_or_skip("bridge") else {
        return;
    };
    let sandbox = Sandbox::new();
    fs::create_dir_all(sandbox.project.join(".rune")).unwrap();
    fs::write(sandbox.project.join(".rune/INVARIANTS.md"), INVARIANTS).unwrap();
    checkpoint(
        &sandbox,
        "doing: wiring the billing retries\nresume: CONTINUE-E2E-RESUME-POINT in src/billing.rs\nleft: [tests]\n",
    );

    // A fresh session: the checkpoint's resume line and the invariants are in its first request.
    let api = MockApi::start();
    let (run1, _) = sandbox.claude_p(&claude, &api, "hello", "Bash", "bridge-1");
    assert!(run1.status.success(), "{}", run1.describe());
    let requests = api.requests();
    let first = main_requests(&requests)[0];
    assert!(
        first.body.contains("CONTINUE-E2E-RESUME-POINT"),
        "no checkpoint in the first request"
    );
    assert!(
        first.body.contains("never edit an applied migration"),
        "no invariants in the first request"
    );
    // Memory arrives inside the frame; the invariants, written by hand, as unreviewed data
    // (#14), while the checkpoint baton wrote is the protected resume point.
    assert!(first.body.contains("⟦memory "), "no memory frame");
    assert!(
        first.body.contains("Active invariants — ⚠ unreviewed"),
        "hand-written invariants not marked unreviewed"
    );
    assert!(
        first.body.contains("## Resume here")
            && first.body.contains("Next: \\\"CONTINUE-E2E-RESUME-POINT"),
        "the checkpoint baton wrote is not the one next action"
    );

    // Compact that conversation: PreCompact writes a new checkpoint from what baton knows.
    let before = fs::read_to_string(sandbox.project.join(".rune/checkpoint.md")).unwrap();
    let api = MockApi::with_script(vec![Turn::Text("Compacted. E2E-FINAL".into())]);
    let mut cmd = sandbox.claude(&claude, &api.base_url());
    cmd.args([
        "-p",
        "/compact keep the resume point",
        "--continue",
        "--plugin-dir",
    ])
    .arg(&sandbox.plugin)
    .args(crate::support::STREAM_JSON);
    let compact = run(cmd, &sandbox.root, "bridge-compact");
    assert!(compact.status.success(), "{}", compact.describe());
    // The model's own checkpoint is never replaced by an automatic one.
    let after = fs::read_to_string(sandbox.project.join(".rune/checkpoint.md")).unwrap();
    assert_eq!(
        before,
        after,
        "PreCompact replaced the written checkpoint\n{}",
        compact.describe()
    );
    assert!(
        after.contains("CONTINUE-E2E-RESUME-POINT"),
        "the resume point was lost: {after}"
    );

    // The session after the compaction sees the checkpoint.
    let api = MockApi::start();
    let (run3, _) = sandbox.claude_p(&claude, &api, "go on", "Bash", "bridge-3");
    assert!(run3.status.success(), "{}", run3.describe());
    let requests = api.requests();
    let first = main_requests(&requests)[0];
    assert!(
        first.body.contains("CONTINUE-E2E-RESUME-POINT"),
        "no checkpoint after the compaction"
    );
}
