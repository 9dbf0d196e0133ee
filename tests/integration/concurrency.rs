//! Parallel hooks must not lose or tear a record: 64 real processes append 200 lines each
//! through `core::fsx::append_line` at once, and exactly 12,800 intact JSON lines remain.
//!
//! The child processes are this test binary itself, re-run on the ignored test
//! `append_child` with the target file in the environment.

use std::collections::HashSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PROCESSES: usize = 64;
const LINES: usize = 200;

#[test]
fn locked_append_from_64_processes_keeps_every_line() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("audit_buffer.jsonl");
    let go = dir.path().join("go");
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..PROCESSES)
        .map(|i| {
            Command::new(&exe)
                .args([
                    "--exact",
                    "concurrency::append_child",
                    "--ignored",
                    "--nocapture",
                    "--test-threads=1",
                ])
                .env("BATON_APPEND_TARGET", &target)
                .env("BATON_APPEND_GO", &go)
                .env("BATON_APPEND_ID", i.to_string())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    // Release them all at once.
    std::fs::write(&go, "").unwrap();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    let text = std::fs::read_to_string(&target).unwrap();
    assert!(text.ends_with('\n'));
    let mut seen = HashSet::new();
    for line in text.lines() {
        let v: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("torn line ({e}): {line:.120}"));
        let (p, n) = (v["p"].as_u64().unwrap(), v["n"].as_u64().unwrap());
        assert_eq!(
            v["pad"].as_str().unwrap().len(),
            pad_len(p, n),
            "line {p}/{n} cut short"
        );
        assert!(seen.insert((p, n)), "duplicate line {p}/{n}");
    }
    assert_eq!(seen.len(), PROCESSES * LINES);
    assert_eq!(text.lines().count(), 12_800);
}

/// Lines of varied length, some well over a page, so a torn write would show.
fn pad_len(p: u64, n: u64) -> usize {
    usize::try_from((p * 131 + n * 977) % 9000).unwrap() + 10
}

#[test]
#[ignore = "child process of locked_append_from_64_processes_keeps_every_line"]
fn append_child() {
    let (Ok(target), Ok(go), Ok(id)) = (
        std::env::var("BATON_APPEND_TARGET"),
        std::env::var("BATON_APPEND_GO"),
        std::env::var("BATON_APPEND_ID"),
    ) else {
        panic!("run only as a child of locked_append_from_64_processes_keeps_every_line");
    };
    let p: u64 = id.parse().unwrap();
    let start = Instant::now();
    while !Path::new(&go).exists() {
        assert!(start.elapsed() < Duration::from_secs(30), "never released");
        std::thread::sleep(Duration::from_millis(1));
    }
    for n in 0..LINES as u64 {
        let line =
            serde_json::json!({"p": p, "n": n, "pad": "x".repeat(pad_len(p, n))}).to_string();
        baton::core::fsx::append_line(Path::new(&target), &line, baton::core::fsx::PRIVATE_FILE)
            .unwrap();
    }
}
