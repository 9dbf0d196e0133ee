//! Issue 37: a Stop moves at most a slice of a huge buffer, and a move killed at any point
//! loses and doubles nothing. Real `baton hook Stop` processes are stopped at each stage of a
//! move (a debug build pauses where `BATON_TEST_PAUSE_AT` says) and killed with SIGKILL there;
//! hooks keep appending in between; at the end `baton audit end` moves the rest and the trail
//! holds every record once, and the session's figures count each once.

use crate::harness::Project;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The stages a move pauses at, in order (`trail::drain_with`, `slice::append`).
const STAGES: [&str; 6] = [
    "move:locked",
    "move:repaired",
    "move:half-written",
    "move:appended",
    "move:synced",
    "move:cut",
];

fn event(p: &Project, name: &str) -> String {
    serde_json::json!({"session_id": "cs-1", "cwd": p.root, "hook_event_name": name}).to_string()
}

/// The current session's run folder (a session started by a first tool call).
fn session_dir(p: &Project) -> PathBuf {
    let call = serde_json::json!({
        "session_id": "cs-1", "cwd": p.root, "hook_event_name": "PostToolUse",
        "tool_name": "Bash", "tool_input": {"command": "echo first"},
        "tool_use_id": "toolu_first", "duration_ms": 1,
    });
    assert_eq!(p.hook("PostToolUse", call.to_string().as_bytes()).code, 0);
    let id = std::fs::read_to_string(p.root.join(".boo/runs/.current_session")).unwrap();
    p.root.join(".boo/runs").join(id.trim())
}

/// Appends records `from..to` to the buffer as the hooks write them (one line each).
fn append_records(dir: &Path, from: usize, to: usize) {
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join("audit_buffer.jsonl"))
        .unwrap();
    let mut text = String::new();
    for i in from..to {
        text.push_str(&format!(
            "{{\"claude_session\":\"cs-1\",\"duration_ms\":3,\"id\":\"k-{i:08}\",\"input\":\"cargo test --quiet {}\",\"outcome\":\"ok\",\"tool\":\"Bash\",\"tool_use_id\":\"toolu_{i}\",\"ts\":\"2026-11-30T10:15:00.000Z\",\"type\":\"data\"}}\n",
            "x".repeat(i % 200)
        ));
    }
    f.write_all(text.as_bytes()).unwrap();
}

/// Runs `baton hook Stop`, which pauses at `stage`; kills it with SIGKILL once it is there.
fn stop_killed_at(p: &Project, stage: &str) {
    let marker = p.home.path().join("paused");
    let _ = std::fs::remove_file(&marker);
    let mut c = p.command(&["hook", "Stop"]);
    c.env("CLAUDE_PROJECT_DIR", &p.root)
        .env("BATON_TEST_PAUSE_AT", stage)
        .env("BATON_TEST_PAUSE_FILE", &marker)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut child = c.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(event(p, "Stop").as_bytes())
        .unwrap();
    let started = Instant::now();
    while !marker.exists() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the Stop ended ({status}) before it reached {stage}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{stage} never reached"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Every record id of the file at `path`, with how often it is there; the number of lines
/// that are not records.
fn ids_in(path: &Path) -> (HashMap<String, usize>, usize) {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut ids = HashMap::new();
    let mut bad = 0;
    for line in text.lines() {
        match serde_json::from_str::<serde_json::Value>(line) {
            Ok(v) => {
                *ids.entry(v["id"].as_str().unwrap().to_string())
                    .or_default() += 1;
            }
            Err(_) => bad += 1,
        }
    }
    (ids, bad)
}

fn killed_at_every_stage_loses_and_doubles_nothing(big: bool) {
    let p = Project::new();
    let dir = session_dir(&p);
    // Big: about 10 MB, so each Stop moves one slice of it (4 MB) and leaves a cursor.
    let per_round = if big { 12_000 } else { 20 };
    let mut n = 0;
    for stage in STAGES {
        append_records(&dir, n, n + per_round);
        n += per_round;
        stop_killed_at(&p, stage);
        // Hooks go on appending after the kill; an ordinary Stop moves what it may.
        append_records(&dir, n, n + 3);
        n += 3;
        if stage == "move:half-written" {
            let out = p.hook("Stop", event(&p, "Stop").as_bytes());
            assert_eq!(out.code, 0, "{out:?}");
        }
    }
    // The next Stops move the rest: the pending file holds every record once, whole.
    while std::fs::metadata(dir.join("audit_buffer.jsonl"))
        .unwrap()
        .len()
        > 0
    {
        assert_eq!(p.hook("Stop", event(&p, "Stop").as_bytes()).code, 0);
    }
    for file in ["audit_pending.jsonl", "audit_trail.jsonl"] {
        let (ids, bad) = ids_in(&dir.join(file));
        assert_eq!(bad, 0, "a torn line in {file}");
        let twice: Vec<_> = ids.iter().filter(|(_, c)| **c > 1).collect();
        assert!(
            twice.is_empty(),
            "doubled in {file}: {} records, e.g. {:?}",
            twice.len(),
            twice.first()
        );
        if file == "audit_pending.jsonl" {
            assert_eq!(ids.len(), n + 1, "records in {file}");
        }
        if file == "audit_trail.jsonl" {
            break;
        }
        let out = p.run(&["audit", "end"], b"", &[]);
        assert_eq!(out.code, 0, "{out:?}");
    }
    let (ids, _) = ids_in(&dir.join("audit_trail.jsonl"));
    let missing: Vec<usize> = (0..n)
        .filter(|i| !ids.contains_key(&format!("k-{i:08}")))
        .collect();
    assert!(
        missing.is_empty(),
        "lost {} records: {:?}",
        missing.len(),
        &missing[..missing.len().min(5)]
    );
    // The first tool call's record, and the figures count each record once.
    assert_eq!(ids.len(), n + 1);
    let summary = std::fs::read_to_string(dir.join("session_summary.md")).unwrap();
    assert!(
        summary.contains(&format!("- Records: {}", n + 1)),
        "{summary}"
    );
    assert_eq!(
        std::fs::metadata(dir.join("audit_buffer.jsonl"))
            .unwrap()
            .len(),
        0
    );
    assert!(!dir.join("audit_buffer.jsonl.moved").exists());
}

#[test]
fn issue_37_a_stop_killed_at_every_stage_of_a_move_loses_nothing() {
    killed_at_every_stage_loses_and_doubles_nothing(false);
}

#[test]
fn issue_37_a_stop_killed_at_every_stage_of_a_sliced_move_loses_nothing() {
    killed_at_every_stage_loses_and_doubles_nothing(true);
}

/// A Stop over a buffer larger than its slice moves one slice and leaves the rest, marked by
/// a cursor; the next Stops finish it, and every record reaches the pending file once.
#[test]
fn issue_37_a_stop_moves_a_bounded_slice_of_a_huge_buffer() {
    let p = Project::new();
    let dir = session_dir(&p);
    append_records(&dir, 0, 30_000);
    let buffer = std::fs::metadata(dir.join("audit_buffer.jsonl"))
        .unwrap()
        .len();
    assert!(buffer > 8 * 1024 * 1024, "{buffer}");
    let pending =
        |d: &Path| std::fs::metadata(d.join("audit_pending.jsonl")).map_or(0, |m| m.len());
    assert_eq!(p.hook("Stop", event(&p, "Stop").as_bytes()).code, 0);
    let first = pending(&dir);
    assert!(
        first > 3 * 1024 * 1024 && first <= 4 * 1024 * 1024 + 1024,
        "{first}"
    );
    assert!(dir.join("audit_buffer.jsonl.moved").exists());
    let mut stops = 1;
    while dir.join("audit_buffer.jsonl.moved").exists() {
        assert_eq!(p.hook("Stop", event(&p, "Stop").as_bytes()).code, 0);
        stops += 1;
        assert!(stops < 10);
    }
    assert_eq!(stops, 3);
    assert_eq!(
        std::fs::metadata(dir.join("audit_buffer.jsonl"))
            .unwrap()
            .len(),
        0
    );
    let text = std::fs::read_to_string(dir.join("audit_pending.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 30_001);
    // The summary the moves kept counts every record once.
    let out = p.run(&["audit", "end"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = std::fs::read_to_string(dir.join("session_summary.md")).unwrap();
    assert!(summary.contains("- Records: 30001"), "{summary}");
}
