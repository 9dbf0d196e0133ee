//! audit: the real binary records, moves, ends, recalls and reports.

use crate::harness::Project;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;

fn tool_event(p: &Project, n: usize) -> String {
    json!({
        "session_id": "cs-1",
        "cwd": p.root,
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": format!("echo call-{n}")},
        "tool_response": {"stdout": "x"},
        "tool_use_id": format!("toolu_{n:03}"),
        "duration_ms": n,
    })
    .to_string()
}

fn edit_event(p: &Project, file: &str, n: usize) -> String {
    json!({
        "session_id": "cs-1",
        "cwd": p.root,
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": p.root.join(file), "old_string": "a", "new_string": "FILE BODY"},
        "tool_use_id": format!("toolu_e{n:03}"),
        "duration_ms": 3,
    })
    .to_string()
}

fn prompt_event(p: &Project, prompt: &str) -> String {
    json!({"session_id": "cs-1", "cwd": p.root, "hook_event_name": "UserPromptSubmit", "prompt": prompt}).to_string()
}

fn simple_event(p: &Project, name: &str) -> String {
    json!({"session_id": "cs-1", "cwd": p.root, "hook_event_name": name}).to_string()
}

fn runs(p: &Project) -> PathBuf {
    p.root.join(".boo/runs")
}

fn current(p: &Project) -> String {
    std::fs::read_to_string(runs(p).join(".current_session"))
        .unwrap()
        .trim()
        .to_string()
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn audit(p: &Project, args: &[&str]) -> crate::harness::Output {
    let mut all = vec!["audit"];
    all.extend_from_slice(args);
    p.run(&all, b"", &[])
}

/// 32 PostToolUse hooks and Stops run at once (released together by closing their stdin),
/// three rounds, from no session at all: one session is started, and every call is recorded
/// exactly once.
#[test]
fn parallel_hooks_and_stops_lose_and_duplicate_nothing() {
    let p = Project::new();
    let root = p.root.to_str().unwrap().to_string();
    let mut expected = HashSet::new();
    for round in 0..3 {
        let mut children = Vec::new();
        for i in 0..32 {
            let n = round * 100 + i;
            expected.insert(format!("toolu_{n:03}"));
            children.push((tool_event(&p, n), "PostToolUse"));
            if i % 8 == 4 {
                children.push((simple_event(&p, "Stop"), "Stop"));
            }
        }
        let spawned: Vec<_> = children
            .iter()
            .map(|(_, name)| {
                let mut c = p.command(&["hook", name]);
                c.env("CLAUDE_PROJECT_DIR", &root)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped());
                c.spawn().unwrap()
            })
            .collect();
        let mut waiting = Vec::new();
        for (mut child, (input, _)) in spawned.into_iter().zip(&children) {
            let mut sin = child.stdin.take().unwrap();
            sin.write_all(input.as_bytes()).unwrap();
            waiting.push((child, sin));
        }
        // Release: close every stdin at once.
        let children: Vec<_> = waiting
            .into_iter()
            .map(|(c, sin)| {
                drop(sin);
                c
            })
            .collect();
        for c in children {
            let out = c.wait_with_output().unwrap();
            assert_eq!(out.status.code(), Some(0), "{out:?}");
            assert!(
                out.stderr.is_empty(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    let sessions: Vec<_> = std::fs::read_dir(runs(&p))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_type().unwrap().is_dir())
        .collect();
    assert_eq!(sessions.len(), 1, "one auto session, not one per process");
    let id = current(&p);
    let dir = runs(&p).join(&id);
    // Before ending: buffer + pending hold every record once (raw lines, no dedupe).
    let mut raw: Vec<Value> = lines(&dir.join("audit_buffer.jsonl"));
    raw.extend(lines(&dir.join("audit_pending.jsonl")));
    let ids: Vec<String> = raw
        .iter()
        .map(|r| r["tool_use_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 96, "raw lines");
    assert_eq!(ids.iter().cloned().collect::<HashSet<_>>(), expected);

    let out = audit(&p, &["end"]);
    assert_eq!(out.code, 0, "{out:?}");
    let trail = lines(&dir.join("audit_trail.jsonl"));
    let ids: Vec<&str> = trail
        .iter()
        .map(|r| r["tool_use_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 96);
    assert_eq!(
        ids.iter().map(|s| (*s).to_string()).collect::<HashSet<_>>(),
        expected
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("audit_pending.jsonl")).unwrap(),
        ""
    );
}

#[test]
fn a_session_is_recorded_redacted_and_ended_with_a_summary() {
    let p = Project::new();
    let out = audit(&p, &["start", "fix the login bug"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout
            .contains("Started audit session adhoc_20261130_1015"),
        "{out:?}"
    );
    let secret = ["ghp_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"].concat();
    let mut bash = tool_event(&p, 1);
    bash = bash.replace(
        "echo call-1",
        &format!("git push https://x:{secret}@example.invalid"),
    );
    for ev in [
        bash,
        edit_event(&p, "src/app.rs", 2),
        prompt_event(&p, "No, keep the old API"),
    ] {
        let name = serde_json::from_str::<Value>(&ev).unwrap()["hook_event_name"]
            .as_str()
            .unwrap()
            .to_string();
        let out = p.hook(&name, ev.as_bytes());
        assert_eq!((out.code, out.stdout.as_str()), (0, ""), "{out:?}");
    }
    let failure = json!({"session_id":"cs-1","cwd":p.root,"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"cargo test"},"tool_use_id":"toolu_f","error":"Exit code 101\ntests failed"}).to_string();
    p.hook("PostToolUseFailure", failure.as_bytes());
    // PreCompact moves the buffer and prints nothing.
    let out = p.hook("PreCompact", simple_event(&p, "PreCompact").as_bytes());
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (0, "", "")
    );
    let dir = runs(&p).join("adhoc_20261130_1015");
    let pending = std::fs::read_to_string(dir.join("audit_pending.jsonl")).unwrap();
    assert!(!pending.contains(&secret), "{pending}");
    assert!(!pending.contains("FILE BODY"), "{pending}");
    assert!(pending.contains("[REDACTED]"));
    assert_eq!(pending.lines().count(), 5);
    let recs = lines(&dir.join("audit_pending.jsonl"));
    assert_eq!(recs[1]["type"], "change");
    assert_eq!(recs[1]["path"], "src/app.rs");
    assert_eq!(recs[4]["exit_code"], 101);
    let correction = recs
        .iter()
        .find(|r| r["type"] == "user_correction")
        .unwrap();
    let cid = correction["id"].as_str().unwrap().to_string();

    // The edited file shows in git too; an unrecorded one does not pass the check.
    p.write("src/app.rs", "fn main() {}\n");
    p.write("notes.txt", "stray\n");
    let out = audit(&p, &["persist", &cid, "--to", ".rune/conventions.md"]);
    assert_eq!(out.code, 0, "{out:?}");
    let out = audit(&p, &["end"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = std::fs::read_to_string(dir.join("session_summary.md")).unwrap();
    insta::assert_snapshot!("audit_session_summary", summary);
    assert!(summary.contains("notes.txt"));
    assert!(!summary.contains("src/app.rs without"));
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("session.json")).unwrap()).unwrap();
    assert_eq!(meta["status"], "completed");
    assert_eq!(meta["end_time"], "2026-11-30T10:15:00Z");
    assert!(!runs(&p).join(".current_session").exists());
    let index: Value =
        serde_json::from_str(&std::fs::read_to_string(p.root.join(".boo/index.json")).unwrap())
            .unwrap();
    assert_eq!(index["sessions"][0]["status"], "completed");
    // Ending again: nothing current, a clear error.
    let out = audit(&p, &["end"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("no audit session is current"),
        "{out:?}"
    );
    // But ending by id again is idempotent and appends nothing.
    let before = std::fs::read_to_string(dir.join("audit_trail.jsonl")).unwrap();
    assert_eq!(
        audit(&p, &["end", "--session", "adhoc_20261130_1015"]).code,
        0
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("audit_trail.jsonl")).unwrap(),
        before
    );

    // Privacy: dirs 0700, files 0600, kept out of git.
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&p.root.join(".boo")), 0o700);
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&dir.join("audit_trail.jsonl")), 0o600);
    assert_eq!(mode(&dir.join("session_summary.md")), 0o600);
    assert!(std::fs::read_to_string(p.root.join(".boo/.gitignore"))
        .unwrap()
        .contains('*'));
}

#[test]
fn a_crash_between_copy_and_truncate_does_not_double_records() {
    let p = Project::new();
    assert_eq!(audit(&p, &["start", "t"]).code, 0);
    for n in 0..3 {
        p.hook("PostToolUse", tool_event(&p, n).as_bytes());
    }
    p.hook("Stop", simple_event(&p, "Stop").as_bytes());
    let dir = runs(&p).join(current(&p));
    // As if a previous end copied pending to the trail and died before truncating pending.
    std::fs::copy(
        dir.join("audit_pending.jsonl"),
        dir.join("audit_trail.jsonl"),
    )
    .unwrap();
    assert_eq!(audit(&p, &["end"]).code, 0);
    assert_eq!(lines(&dir.join("audit_trail.jsonl")).len(), 3);
}

#[test]
fn start_refuses_to_replace_a_named_session_without_force() {
    let p = Project::new();
    assert_eq!(audit(&p, &["start", "first"]).code, 0);
    let out = audit(&p, &["start", "second"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("/baton:end"), "{out:?}");
    assert!(out.stderr.contains("--force"), "{out:?}");
    let out = audit(&p, &["start", "second", "--force"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("adhoc_20261130_1015_2"), "{out:?}");
    assert!(out.stdout.contains("Unfinished sessions"), "{out:?}");
    assert!(
        out.stdout.contains("adhoc_20261130_1015 started"),
        "{out:?}"
    );
    // An auto session is adopted instead.
    let q = Project::new();
    q.hook("PostToolUse", tool_event(&q, 1).as_bytes());
    let out = audit(&q, &["start", "named later"]);
    assert!(
        out.stdout
            .contains("Named the session the hooks had started"),
        "{out:?}"
    );
    assert!(!runs(&q).join("adhoc_20261130_1015_2").exists());
}

/// The records of `prompts` sent as UserPromptSubmit events: how many `conversation`
/// records, and each `user_correction`'s text and pattern.
fn corrections_recorded(p: &Project, prompts: &[&str]) -> (usize, Vec<(String, String)>) {
    for prompt in prompts {
        let out = p.hook("UserPromptSubmit", prompt_event(p, prompt).as_bytes());
        assert_eq!((out.code, out.stdout.as_str()), (0, ""), "{out:?}");
    }
    let recs = lines(&runs(p).join(current(p)).join("audit_buffer.jsonl"));
    let conversations = recs.iter().filter(|r| r["type"] == "conversation").count();
    let corrections = recs
        .iter()
        .filter(|r| r["type"] == "user_correction")
        .map(|r| {
            (
                r["text"].as_str().unwrap().to_string(),
                r["pattern"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (conversations, corrections)
}

/// Issue 34: "And no, don't use …" and "No — don't put …" correct the agent by their
/// structure (a leading "and", a dash after "no"); the audit trail's wording-only patterns
/// missed both.
#[test]
fn issue_34_corrections_by_structure_are_recorded() {
    let p = Project::new();
    let prompts = [
        "And no, don't use the global config, read it from the project file",
        "No — don't put the helper in utils.rs, it belongs in core",
        "Don't forget to add tests",
    ];
    let (conversations, corrections) = corrections_recorded(&p, &prompts);
    assert_eq!(conversations, prompts.len());
    let want: Vec<(String, String)> = prompts[..2]
        .iter()
        .map(|t| (t.to_string(), "builtin:negation".to_string()))
        .collect();
    assert_eq!(corrections, want);
}

/// The user's patterns still count: `correction_patterns` adds corrections to the built-in
/// rules (it no longer replaces them), `request_patterns` overrules both.
#[test]
fn user_patterns_add_corrections_and_overrule_them() {
    let p = Project::new();
    p.write(
        ".claude/baton.yaml",
        "audit:\n  correction_patterns: ['^meh\\b']\n  request_patterns: ['^no, but thanks']\n",
    );
    let prompts = [
        "meh, again",
        "No, but thanks for asking",
        "no, the other file",
    ];
    let (conversations, corrections) = corrections_recorded(&p, &prompts);
    assert_eq!(conversations, prompts.len());
    assert_eq!(
        corrections,
        [
            ("meh, again".to_string(), "^meh\\b".to_string()),
            (
                "no, the other file".to_string(),
                "builtin:negation".to_string()
            ),
        ]
    );
}

#[test]
fn with_auto_start_off_nothing_is_recorded_and_session_start_says_how() {
    let p = Project::new();
    p.write(".claude/baton.yaml", "audit:\n  auto_start: false\n");
    p.hook("PostToolUse", tool_event(&p, 1).as_bytes());
    p.hook("UserPromptSubmit", prompt_event(&p, "stop that").as_bytes());
    assert!(!runs(&p).exists() || std::fs::read_dir(runs(&p)).unwrap().count() == 0);
    // Quiet (issue 34): the user turned automatic sessions off; nothing needs attention.
    let out = p.hook("SessionStart", p.event("SessionStart").as_bytes());
    let ctx = out.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!ctx.contains("Audit trail"), "{ctx}");
    // A named session is recorded, and its start says so.
    assert_eq!(audit(&p, &["start", "named task"]).code, 0);
    let out = p.hook("SessionStart", p.event("SessionStart").as_bytes());
    let ctx = out.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        ctx.contains("Recording tool calls to audit session") && ctx.contains("named task"),
        "{ctx}"
    );
}

/// Issue 34: an automatic session that records quietly adds nothing to a session start (it
/// is for recall and the reports); a named one, an unfinished named one, and a note that
/// needs the user do.
#[test]
fn issue_34_an_automatic_session_is_quiet_at_a_session_start() {
    let p = Project::new();
    for sid in ["cs-1", "cs-2", "cs-3"] {
        let start = p
            .event("SessionStart")
            .replace("e9fc0000-0000-4000-8000-000000000001", sid);
        let out = p.hook("SessionStart", start.as_bytes());
        let ctx = out.json()["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(
            !ctx.contains("Audit trail") && !ctx.contains("Recent sessions"),
            "{ctx}"
        );
        p.hook(
            "PostToolUse",
            tool_event(&p, 1)
                .replace("e9fc0000-0000-4000-8000-000000000001", sid)
                .as_bytes(),
        );
    }
    assert!(
        runs(&p).read_dir().unwrap().count() >= 3,
        "the sessions were recorded"
    );
}

#[test]
fn a_corrupt_line_is_reported_with_its_number_and_the_rest_counts() {
    let p = Project::new();
    assert_eq!(audit(&p, &["start", "t"]).code, 0);
    let dir = runs(&p).join(current(&p));
    let good = |n: usize| {
        json!({"id": format!("x{n}"), "ts": "2026-11-30T10:15:00.000Z", "type": "data", "tool": "Read", "input": "a", "outcome": "ok"}).to_string()
    };
    std::fs::write(
        dir.join("audit_trail.jsonl"),
        format!("{}\n{{\"torn\": \n{}\n", good(1), good(2)),
    )
    .unwrap();
    let out = audit(&p, &["end", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let problems = out.json()["problems"].to_string();
    assert!(problems.contains("audit_trail.jsonl:2"), "{problems}");
    let summary = std::fs::read_to_string(dir.join("session_summary.md")).unwrap();
    assert!(summary.contains("- Records: 2"), "{summary}");
    let out = audit(&p, &["recover", &current_or_last(&p)]);
    assert!(out.stdout.contains("audit_trail.jsonl:2"), "{out:?}");
}

/// The input was cut to 200 characters before redaction, so a token straddling the cut left
/// a fragment the redactor no longer recognised.
#[test]
fn a_token_straddling_the_summary_cut_is_redacted_whole() {
    let p = Project::new();
    let token = "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let event = json!({
        "session_id": "cs-1",
        "cwd": p.root,
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": format!("echo {} {token}", "x".repeat(172))},
        "tool_response": {"stdout": "x"},
        "tool_use_id": "toolu_tok",
    })
    .to_string();
    let out = p.hook("PostToolUse", event.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    let buffer = runs(&p).join(current(&p)).join("audit_buffer.jsonl");
    let text = std::fs::read_to_string(buffer).unwrap();
    assert!(!text.contains("ghp_"), "{text}");
    let rec = &lines(&runs(&p).join(current(&p)).join("audit_buffer.jsonl"))[0];
    assert!(
        rec["input"].as_str().unwrap().ends_with("[REDACTED]"),
        "{rec}"
    );
    assert_eq!(rec["redactions"], 1);
}

fn bash_event(p: &Project, command: &str, id: &str) -> String {
    json!({
        "session_id": "cs-1",
        "cwd": p.root,
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_response": {"stdout": ""},
        "tool_use_id": id,
    })
    .to_string()
}

/// Issue 35: the record is the command as it ran, redacted, byte for byte: runs of blanks
/// inside quotes, line breaks and tabs, and its whole length (it was put on one line, blanks
/// collapsed, and cut to 200 characters).
#[test]
fn issue_35_the_input_is_the_redacted_command_byte_for_byte() {
    let p = Project::new();
    let token = "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let command = format!(
        "printf \"a    b\\n\" | grep -c \"a    b\"\n\tcurl -H 'token: {token}' {}",
        "x".repeat(300)
    );
    let out = p.hook(
        "PostToolUse",
        bash_event(&p, &command, "toolu_b").as_bytes(),
    );
    assert_eq!(out.code, 0, "{out:?}");
    let rec = &lines(&runs(&p).join(current(&p)).join("audit_buffer.jsonl"))[0];
    assert_eq!(rec["input"], command.replace(token, "[REDACTED]"), "{rec}");
    assert_eq!(rec["redactions"], 1);
}

/// Issue 35: the trail keeps a long command whole; the session's `summary.json`, which keeps
/// the last records for the recap, keeps it clipped, so the summary stays small.
#[test]
fn issue_35_a_long_command_is_whole_in_the_records_and_clipped_in_the_summary() {
    let p = Project::new();
    let command = format!(
        "cat > big.txt <<'EOF'\n{}\nEOF",
        "line of text\n".repeat(2000)
    );
    let out = p.hook(
        "PostToolUse",
        bash_event(&p, &command, "toolu_long").as_bytes(),
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(p.hook("Stop", simple_event(&p, "Stop").as_bytes()).code, 0);
    let dir = runs(&p).join(current(&p));
    let moved = lines(&dir.join("audit_pending.jsonl"));
    assert_eq!(moved[0]["input"], command.as_str());
    let summary = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    assert!(summary.len() < 4096, "{} bytes", summary.len());
    assert!(
        summary.contains("cat > big.txt <<'EOF' line of text"),
        "{summary}"
    );
}

/// Issue 35: a call is a `change` naming its file only where the command writes one: a
/// heredoc's body is data (it was read as commands: `a > b` made a change to `b`, `1 > 0`
/// one to `0`), and a write by descriptor 2 is a write (it was recorded as a plain read).
#[test]
fn issue_35_heredoc_bodies_are_data_and_a_descriptor_redirect_writes() {
    let p = Project::new();
    let cases = [
        ("cat <<'EOF'\nstep one\na > b\nEOF", "data", None),
        ("python3 - <<EOF\nprint(1 > 0)\nEOF", "data", None),
        (
            "grep -rn TODO src 2> errors.log",
            "change",
            Some("errors.log"),
        ),
    ];
    for (n, (command, _, _)) in cases.iter().enumerate() {
        let out = p.hook(
            "PostToolUse",
            bash_event(&p, command, &format!("toolu_{n}")).as_bytes(),
        );
        assert_eq!(out.code, 0, "{out:?}");
    }
    let recs = lines(&runs(&p).join(current(&p)).join("audit_buffer.jsonl"));
    for (rec, (command, kind, path)) in recs.iter().zip(cases) {
        assert_eq!(rec["type"], kind, "{command:?}");
        assert_eq!(rec["path"].as_str(), path, "{command:?}");
        assert_eq!(rec["input"], command);
    }
    assert_eq!(recs.len(), 3);
}

/// A timestamp that is not ASCII crashed report-daily, end and the index rebuild (a byte
/// slice through a multi-byte character); the line is now reported and skipped.
#[test]
fn a_non_ascii_timestamp_is_reported_with_its_line_and_skipped() {
    let p = Project::new();
    assert_eq!(audit(&p, &["start", "t"]).code, 0);
    let dir = runs(&p).join(current(&p));
    let rec = |n: usize, ts: &str| {
        json!({"id": format!("x{n}"), "ts": ts, "type": "data", "tool": "Read", "input": "a", "outcome": "ok"}).to_string()
    };
    std::fs::write(
        dir.join("audit_trail.jsonl"),
        format!(
            "{}\n{}\n{}\n",
            rec(1, "2026-11-30T10:15:00.000Z"),
            rec(2, "2026-11-28T1\u{e9}:00"),
            rec(3, "2026-11-30T10:16:00.000Z")
        ),
    )
    .unwrap();
    let out = audit(&p, &["report-daily", "20261130"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("audit_trail.jsonl:2"), "{out:?}");
    let out = audit(&p, &["end", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.json()["problems"]
            .to_string()
            .contains("audit_trail.jsonl:2: bad timestamp"),
        "{out:?}"
    );
    let summary = std::fs::read_to_string(dir.join("session_summary.md")).unwrap();
    assert!(summary.contains("- Records: 2"), "{summary}");
    std::fs::remove_file(p.root.join(".boo/index.json")).unwrap();
    let out = audit(&p, &["reindex"]);
    assert_eq!(out.code, 0, "{out:?}");
    let out = audit(&p, &["report-daily", "20261130"]);
    assert_eq!(out.code, 0, "{out:?}");
}

fn current_or_last(p: &Project) -> String {
    let index: Value =
        serde_json::from_str(&std::fs::read_to_string(p.root.join(".boo/index.json")).unwrap())
            .unwrap();
    index["sessions"].as_array().unwrap().last().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_hand_edited_bad_status_is_reported_not_a_panic() {
    let p = Project::new();
    assert_eq!(audit(&p, &["start", "t"]).code, 0);
    let id = current(&p);
    let path = runs(&p).join(&id).join("session.json");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("in_progress", "half-done");
    std::fs::write(&path, text).unwrap();
    let out = audit(&p, &["status"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stdout.contains("\"half-done\""), "{out:?}");
    assert!(out.stderr.starts_with("baton: "), "{out:?}");
    let out = audit(&p, &["recover"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout
            .contains("WARNING: session.json has status \"half-done\""),
        "{out:?}"
    );
    let out = audit(&p, &["report-daily"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("has status \"half-done\""), "{out:?}");
    // A hook still answers.
    let out = p.hook("PostToolUse", tool_event(&p, 1).as_bytes());
    assert_eq!(out.code, 0);
    // Garbage in session.json: a one-line error naming the file.
    std::fs::write(&path, "{oops").unwrap();
    let out = audit(&p, &["recover", &id]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("not a valid session file"), "{out:?}");
}

#[test]
fn recover_levels_and_invalid_ids() {
    let p = Project::new();
    assert_eq!(audit(&p, &["start", "earlier work"]).code, 0);
    p.hook("PostToolUse", edit_event(&p, "src/lib.rs", 1).as_bytes());
    p.hook(
        "UserPromptSubmit",
        prompt_event(&p, "don't add dependencies").as_bytes(),
    );
    assert_eq!(audit(&p, &["end"]).code, 0);
    assert_eq!(audit(&p, &["start", "today's work"]).code, 0);
    for n in 0..5 {
        p.hook("PostToolUse", tool_event(&p, n).as_bytes());
    }
    let out = audit(&p, &["recover"]);
    assert_eq!(out.code, 0, "{out:?}");
    insta::assert_snapshot!("audit_recover_default", out.stdout);
    let out = audit(&p, &["recover", "full"]);
    assert!(
        out.stdout.contains("## L3 — adhoc_20261130_1015_2"),
        "{out:?}"
    );
    assert!(out.stdout.contains("echo call-4"), "{out:?}");
    let out = audit(&p, &["recover", "adhoc_20261130_1015"]);
    assert!(out.stdout.contains("src/lib.rs"), "{out:?}");
    for bad in ["../etc", "a/b", "..", ".hidden"] {
        let out = audit(&p, &["recover", bad]);
        assert_eq!(out.code, 1, "{bad}: {out:?}");
        assert!(out.stderr.contains("invalid session id"), "{bad}: {out:?}");
    }
    let out = audit(&p, &["recover", "adhoc_19990101_0000"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("no session adhoc_19990101_0000"),
        "{out:?}"
    );
    // Budgets: a long trail is cut with a note.
    for n in 10..400 {
        p.hook("PostToolUse", tool_event(&p, n).as_bytes());
    }
    let out = audit(&p, &["recover", "full"]);
    assert!(out.stdout.contains("more characters cut]"), "{out:?}");
    assert!(out.stdout.chars().count() < 3000 * 4 + 200);
}

/// Two sessions on the report day, one the day before (for the review's trend).
fn day_of_work(p: &Project) {
    let yesterday = [("BATON_NOW", "2026-11-29T16:40:00Z")];
    let root = p.root.to_str().unwrap().to_string();
    let env = |now: &'static str| vec![("BATON_NOW", now), ("CLAUDE_PROJECT_DIR", root.as_str())];
    assert_eq!(
        p.run(&["audit", "start", "yesterday's task"], b"", &yesterday)
            .code,
        0
    );
    for n in 0..4 {
        p.run(
            &["hook", "PostToolUse"],
            tool_event(p, n).as_bytes(),
            &env("2026-11-29T16:45:00Z"),
        );
    }
    assert_eq!(
        p.run(
            &["audit", "end"],
            b"",
            &[("BATON_NOW", "2026-11-29T17:30:00Z")]
        )
        .code,
        0
    );

    assert_eq!(
        p.run(
            &["audit", "start", "add the export button"],
            b"",
            &[("BATON_NOW", "2026-11-30T08:05:00Z")]
        )
        .code,
        0
    );
    for n in 10..16 {
        p.run(
            &["hook", "PostToolUse"],
            tool_event(p, n).as_bytes(),
            &env("2026-11-30T08:10:00Z"),
        );
    }
    for n in 0..12 {
        p.run(
            &["hook", "PostToolUse"],
            edit_event(p, "src/export.rs", n).as_bytes(),
            &env("2026-11-30T08:20:00Z"),
        );
    }
    let fail = json!({"session_id":"cs-1","cwd":p.root,"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"cargo build"},"tool_use_id":"toolu_f1","error":"Exit code 101"}).to_string();
    p.run(
        &["hook", "PostToolUseFailure"],
        fail.as_bytes(),
        &env("2026-11-30T08:30:00Z"),
    );
    p.run(
        &["hook", "UserPromptSubmit"],
        prompt_event(p, "Actually, export CSV not JSON").as_bytes(),
        &env("2026-11-30T08:31:00Z"),
    );
    p.write("src/export.rs", "// export\n");
    assert_eq!(
        p.run(
            &["audit", "end"],
            b"",
            &[("BATON_NOW", "2026-11-30T09:00:00Z")]
        )
        .code,
        0
    );

    assert_eq!(
        p.run(
            &["audit", "start", "review the PR"],
            b"",
            &[("BATON_NOW", "2026-11-30T10:00:00Z")]
        )
        .code,
        0
    );
    p.run(&["hook", "PostToolUse"], json!({"session_id":"cs-2","cwd":p.root,"hook_event_name":"PostToolUse","tool_name":"Grep","tool_input":{"pattern":"TODO","path":p.root.join("src")},"tool_use_id":"toolu_g"}).to_string().as_bytes(), &env("2026-11-30T10:05:00Z"));
    save_blocked(p, "release: waiting for the signing key");
}

/// Saves a progress entry with one blocked item through `baton bridge save`: the format the
/// bridge really writes, which the daily report must read through the bridge.
fn save_blocked(p: &Project, item: &str) {
    let yaml = format!("summary: day's work\nprogress:\n  completed: [export]\n  blocked: [\"{item}\"]\n  next: [docs]\n");
    let out = p.run(
        &["bridge", "save"],
        yaml.as_bytes(),
        &[("BATON_NOW", "2026-11-30T10:06:00Z")],
    );
    assert_eq!(out.code, 0, "{out:?}");
}

#[test]
fn issue_9_daily_report_shows_the_blocked_items_bridge_save_wrote() {
    let p = Project::new();
    save_blocked(&p, "deploy: waiting for the staging database");
    let out = audit(&p, &["report-daily", "20261130"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout
            .contains("blocked: deploy: waiting for the staging database"),
        "{}",
        out.stdout
    );
}

#[test]
fn report_daily_markdown_review_and_html() {
    let p = Project::new();
    day_of_work(&p);
    let out = audit(&p, &["report-daily"]);
    assert_eq!(out.code, 0, "{out:?}");
    insta::assert_snapshot!("audit_report_daily", out.stdout);
    let written = std::fs::read_to_string(p.root.join(".boo/reports/daily_20261130.md")).unwrap();
    assert!(out.stdout.starts_with(&written));
    let out = audit(&p, &["report-daily", "20261130", "review", "--html"]);
    assert_eq!(out.code, 0, "{out:?}");
    insta::assert_snapshot!("audit_report_daily_review", out.stdout);
    let html = std::fs::read_to_string(p.root.join(".boo/reports/daily_20261130.html")).unwrap();
    check_well_formed(&html);
    assert!(html.contains("<svg id=\"tool-chart\""));
    assert!(html.contains("<svg id=\"timeline\""));
    assert!(html.contains("<rect"));
    assert!(!html.contains("<script"));
    // An earlier day, and bad arguments.
    let out = audit(&p, &["report-daily", "20261129"]);
    assert!(out.stdout.contains("yesterday's task"), "{out:?}");
    assert!(!out.stdout.contains("| adhoc_20261130_1000"), "{out:?}");
    let out = audit(&p, &["report-daily", "tomorrow"]);
    assert_eq!(out.code, 2, "{out:?}");
}

/// A minimal XML-ish check: every tag closes in order (void elements excepted), attributes
/// are quoted, no stray `<` in text.
fn check_well_formed(html: &str) {
    const VOID: [&str; 6] = ["meta", "br", "hr", "img", "input", "link"];
    let body = html.strip_prefix("<!DOCTYPE html>\n").expect("doctype");
    let mut stack: Vec<String> = Vec::new();
    let mut rest = body;
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        assert!(!text.contains('>'), "stray > in text: {text:.80}");
        let close = rest[open..].find('>').expect("unclosed tag") + open;
        let tag = &rest[open + 1..close];
        assert!(!tag.contains('<'), "< inside a tag: {tag:.80}");
        assert_eq!(
            tag.matches('"').count() % 2,
            0,
            "unbalanced quotes: {tag:.80}"
        );
        if let Some(name) = tag.strip_prefix('/') {
            let top = stack
                .pop()
                .unwrap_or_else(|| panic!("</{name}> closes nothing"));
            assert_eq!(top, name, "</{name}> closes <{top}>");
        } else if !tag.ends_with('/') {
            let name: String = tag
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            if !VOID.contains(&name.as_str()) {
                stack.push(name);
            }
        }
        rest = &rest[close + 1..];
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
}

/// Measures report-daily over 100,000 records in 200 sessions (run by hand:
/// `cargo test --test integration audit::report_daily_scale -- --ignored --nocapture`).
#[test]
#[ignore = "a measurement, run by hand"]
fn report_daily_scale() {
    const TOOLS: [&str; 4] = ["Bash", "Edit", "Read", "Grep"];
    let p = Project::new();
    let runs = runs(&p);
    std::fs::create_dir_all(&runs).unwrap();
    for s in 0..200 {
        let id = format!("adhoc_20261130_{s:04}");
        let dir = runs.join(&id);
        std::fs::create_dir_all(&dir).unwrap();
        let hm = format!("{:02}:{:02}", s % 24, s % 60);
        std::fs::write(
            dir.join("session.json"),
            json!({"session_id": id, "task": format!("task {s}"), "start_time": format!("2026-11-30T{hm}:00Z"), "end_time": format!("2026-11-30T{hm}:30Z"), "status": "completed", "expected_record_types": []}).to_string(),
        )
        .unwrap();
        let mut f = std::fs::File::create(dir.join("audit_trail.jsonl")).unwrap();
        for n in 0..500 {
            let kind = if n % 5 == 0 { "change" } else { "data" };
            writeln!(f, "{}", json!({"id": format!("t-{s}-{n}"), "ts": format!("2026-11-30T{hm}:10.000Z"), "type": kind, "tool": TOOLS[n % 4], "input": "x", "path": format!("src/f{}.rs", n % 50), "outcome": if n % 97 == 0 {"error"} else {"ok"}, "duration_ms": 3})).unwrap();
        }
    }
    assert_eq!(audit(&p, &["reindex"]).code, 0);
    let start = std::time::Instant::now();
    let out = audit(&p, &["report-daily", "20261130"]);
    let took = start.elapsed();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("100000 tool calls"),
        "{}",
        &out.stdout[..500]
    );
    eprintln!("report-daily over 100,000 records in 200 sessions: {took:?}");
}

/// Writes a run directory by hand: session.json and a trail with one Bash call per `ts`.
fn fake_session(p: &Project, id: &str, start: &str, end: Option<&str>, ts: &[&str]) {
    let dir = runs(p).join(id);
    std::fs::create_dir_all(&dir).unwrap();
    let mut meta = json!({"session_id": id, "task": format!("task {id}"), "start_time": start, "status": "in_progress", "expected_record_types": [], "started_by": "auto"});
    if let Some(end) = end {
        meta["end_time"] = json!(end);
        meta["status"] = json!("completed");
        meta["integrity"] = json!([]);
    }
    std::fs::write(dir.join("session.json"), meta.to_string()).unwrap();
    let name = if end.is_some() {
        "audit_trail.jsonl"
    } else {
        "audit_buffer.jsonl"
    };
    let mut f = std::fs::File::create(dir.join(name)).unwrap();
    for (n, t) in ts.iter().enumerate() {
        writeln!(f, "{}", json!({"id": format!("{id}-{n}"), "ts": t, "type": "change", "tool": "Edit", "input": "a.rs", "path": format!("{id}.rs"), "outcome": "ok", "duration_ms": 1})).unwrap();
    }
}

/// A session's whole figures were counted on every day it touched: a session across midnight
/// showed all its calls on both days, an open one on every day since it started.
#[test]
fn report_daily_counts_each_record_on_its_own_day() {
    let p = Project::new();
    fake_session(
        &p,
        "adhoc_20261129_2300",
        "2026-11-29T23:00:00Z",
        Some("2026-11-30T01:00:00Z"),
        &[
            "2026-11-29T23:10:00.000Z",
            "2026-11-29T23:20:00.000Z",
            "2026-11-29T23:30:00.000Z",
            "2026-11-30T00:10:00.000Z",
            "2026-11-30T00:20:00.000Z",
        ],
    );
    fake_session(
        &p,
        "adhoc_20261127_0900",
        "2026-11-27T09:00:00Z",
        None,
        &["2026-11-27T09:10:00.000Z", "2026-11-27T09:20:00.000Z"],
    );
    assert_eq!(audit(&p, &["reindex"]).code, 0);
    let day = |d: &str| {
        let out = audit(&p, &["report-daily", d]);
        assert_eq!(out.code, 0, "{out:?}");
        out.stdout
    };
    let nov29 = day("20261129");
    assert!(nov29.contains("3 tool calls, 0 failed"), "{nov29}");
    assert!(
        nov29.contains("adhoc_20261129_2300.rs — 3 change(s)"),
        "{nov29}"
    );
    let nov30 = day("20261130");
    assert!(nov30.contains("2 tool calls, 0 failed"), "{nov30}");
    assert!(
        nov30.contains("adhoc_20261129_2300.rs — 2 change(s)"),
        "{nov30}"
    );
    assert!(!nov30.contains("adhoc_20261127_0900.rs"), "{nov30}");
    assert!(
        nov30.contains("unfinished session adhoc_20261127_0900"),
        "{nov30}"
    );
    let nov28 = day("20261128");
    assert!(nov28.contains("0 tool calls"), "{nov28}");
    let nov27 = day("20261127");
    assert!(nov27.contains("2 tool calls"), "{nov27}");
    let review = audit(&p, &["report-daily", "20261130", "review"]).stdout;
    assert!(
        review.contains("| 2026-11-29 | 1 | 3 | 0 | 0 |"),
        "{review}"
    );
    // An index written before figures per day were kept is upgraded, not trusted.
    let path = p.root.join(".boo/index.json");
    let mut index: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    index["version"] = json!(1);
    for s in index["sessions"].as_array_mut().unwrap() {
        if let Some(stats) = s.get_mut("stats") {
            stats.as_object_mut().unwrap().remove("by_day");
        }
    }
    std::fs::write(&path, index.to_string()).unwrap();
    let nov30 = day("20261130");
    assert!(nov30.contains("2 tool calls, 0 failed"), "{nov30}");
}

#[test]
fn a_shared_trail_is_left_to_git_and_merges_by_union() {
    let p = Project::new();
    // Sharing is the user's to choose (`config::TRUST_KEYS`): a repository's config that
    // says so is ignored, the user's own is read.
    p.write(".claude/baton.yaml", "audit:\n  shared: true\n");
    p.hook("PostToolUse", tool_event(&p, 1).as_bytes());
    assert!(p.root.join(".boo/.gitignore").exists());
    std::fs::remove_dir_all(p.root.join(".boo")).unwrap();
    let user = p.home.path().join(".config/baton/config.yaml");
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    std::fs::write(&user, "audit:\n  shared: true\n").unwrap();
    p.hook("PostToolUse", tool_event(&p, 1).as_bytes());
    assert!(!p.root.join(".boo/.gitignore").exists());
    let attributes = std::fs::read_to_string(p.root.join(".boo/.gitattributes")).unwrap();
    assert!(attributes.contains("*.jsonl merge=union"));
    let buffer = runs(&p).join(current(&p)).join("audit_buffer.jsonl");
    assert_eq!(
        std::fs::metadata(buffer).unwrap().permissions().mode() & 0o777,
        0o644
    );
}

#[test]
fn session_start_recaps_history_and_lists_unfinished_sessions() {
    let p = Project::new();
    assert_eq!(audit(&p, &["start", "left open"]).code, 0);
    p.hook("PostToolUse", tool_event(&p, 1).as_bytes());
    assert_eq!(audit(&p, &["start", "current work", "--force"]).code, 0);
    p.hook("PostToolUse", tool_event(&p, 2).as_bytes());
    let out = p.hook("SessionStart", p.event("SessionStart").as_bytes());
    let ctx = out.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        ctx.contains("Recording tool calls to audit session adhoc_20261130_1015_2 — current work"),
        "{ctx}"
    );
    assert!(ctx.contains("echo call-2"), "{ctx}");
    assert!(ctx.contains("Recent sessions:"), "{ctx}");
    assert!(ctx.contains("Unfinished sessions"), "{ctx}");
    assert!(ctx.contains("- adhoc_20261130_1015 started"), "{ctx}");
    assert!(ctx.contains("baton audit end --session ID"), "{ctx}");
}

#[test]
fn a_broken_index_is_rebuilt_from_the_run_directories() {
    let p = Project::new();
    assert_eq!(audit(&p, &["start", "indexed task"]).code, 0);
    assert_eq!(audit(&p, &["end"]).code, 0);
    std::fs::write(p.root.join(".boo/index.json"), "{ not json").unwrap();
    let out = audit(&p, &["status"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("rebuilt it from the run directories"),
        "{out:?}"
    );
    let index: Value =
        serde_json::from_str(&std::fs::read_to_string(p.root.join(".boo/index.json")).unwrap())
            .unwrap();
    assert_eq!(index["sessions"][0]["task"], "indexed task");
    assert_eq!(index["sessions"][0]["status"], "completed");
    assert!(index["sessions"][0]["stats"].is_object());
}

/// Integrity results lived only in index.json, so a rebuilt index turned failed checks into
/// passes. They are kept in session.json too; a session whose results are not known says so.
#[test]
fn a_rebuilt_index_keeps_failed_integrity_checks_and_says_unknown_when_not_recorded() {
    let p = Project::new();
    // Two sessions with no records: both fail the "no records" check.
    for task in ["first", "second"] {
        assert_eq!(audit(&p, &["start", task]).code, 0);
        assert_eq!(audit(&p, &["end"]).code, 0);
    }
    let out = audit(&p, &["report-daily", "20261130"]);
    assert!(
        out.stdout
            .contains("2 ended session(s): 0 passed, 2 failed."),
        "{out:?}"
    );
    // The second session.json as an older baton wrote it: no integrity results.
    let meta_path = runs(&p).join("adhoc_20261130_1015_2/session.json");
    let mut meta: Value =
        serde_json::from_str(&std::fs::read_to_string(&meta_path).unwrap()).unwrap();
    assert!(
        meta["integrity"][0]
            .as_str()
            .unwrap()
            .contains("no records"),
        "{meta}"
    );
    meta.as_object_mut().unwrap().remove("integrity");
    std::fs::write(&meta_path, meta.to_string()).unwrap();
    std::fs::write(p.root.join(".boo/index.json"), "{ not json").unwrap();
    let out = audit(&p, &["report-daily", "20261130"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout
            .contains("2 ended session(s): 0 passed, 1 failed, 1 unknown"),
        "{out:?}"
    );
    assert!(out.stdout.contains("| unknown |"), "{out:?}");
    assert!(!out.stdout.contains("| ok |"), "{out:?}");
    let out = audit(&p, &["recover"]);
    assert!(out.stdout.contains("integrity unknown"), "{out:?}");
    // Ending it again runs the checks and records them.
    assert_eq!(
        audit(&p, &["end", "--session", "adhoc_20261130_1015_2"]).code,
        0
    );
    let out = audit(&p, &["report-daily", "20261130"]);
    assert!(
        out.stdout
            .contains("2 ended session(s): 0 passed, 2 failed."),
        "{out:?}"
    );
}

/// A hook that read `.current_session` before `end` cleared it and appended after end's last
/// move left its record in the ended session's buffer forever. Simulated by appending to the
/// buffer by hand after `end`: the next session's start moves it into the trail, once.
#[test]
fn a_late_append_to_an_ended_session_reaches_its_trail() {
    let p = Project::new();
    assert_eq!(audit(&p, &["start", "t"]).code, 0);
    let id = current(&p);
    p.hook("PostToolUse", tool_event(&p, 1).as_bytes());
    assert_eq!(audit(&p, &["end"]).code, 0);
    let dir = runs(&p).join(&id);
    let trail = lines(&dir.join("audit_trail.jsonl"));
    assert_eq!(trail.len(), 1);
    let mut late = trail[0].clone();
    late["id"] = json!("t-late");
    let mut buffer = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join("audit_buffer.jsonl"))
        .unwrap();
    writeln!(buffer, "{late}").unwrap();
    writeln!(buffer, "{}", trail[0]).unwrap();
    drop(buffer);
    // The next tool call starts a new session; the late record lands in the old trail.
    p.hook("PostToolUse", tool_event(&p, 2).as_bytes());
    assert_ne!(current(&p), id);
    let ids: Vec<String> = lines(&dir.join("audit_trail.jsonl"))
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids, vec![trail[0]["id"].as_str().unwrap(), "t-late"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("audit_buffer.jsonl")).unwrap(),
        ""
    );
}

#[test]
fn a_garbled_current_session_file_heals_instead_of_failing_every_call() {
    let p = Project::new();
    p.hook("PostToolUse", tool_event(&p, 1).as_bytes());
    std::fs::write(runs(&p).join(".current_session"), "../../etc\n").unwrap();
    let out = p.hook("PostToolUse", tool_event(&p, 2).as_bytes());
    assert_eq!((out.code, out.stdout.as_str()), (0, ""), "{out:?}");
    assert_eq!(current(&p), "adhoc_20261130_1015_2");
}

/// Overwrites every line of `path` but the last in place with bytes that read as no record,
/// keeping its size, inode and mtime: a reader that parses the file sees one record, the
/// session's summary still matches it.
fn blank_out_keeping_the_stamp(path: &Path) {
    let meta = std::fs::metadata(path).unwrap();
    let mtime = meta.modified().unwrap();
    let text = std::fs::read(path).unwrap();
    // The last line stays: the summary keeps a hash of the file's last 64 bytes, to know at
    // the next move that the file only grew.
    let body = text.strip_suffix(b"\n").unwrap();
    let last = body.iter().rposition(|&b| b == b'\n').unwrap() + 1;
    let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.write_all(&vec![b' '; last]).unwrap();
    f.set_modified(mtime).unwrap();
}

/// What SessionStart adds to the context when Claude session `cs-1` (the one the test
/// events name) starts again after a compaction: its automatic audit session goes on.
fn compaction_start_context(p: &Project) -> String {
    let again = p
        .event("SessionStart")
        .replace("e9fc0000-0000-4000-8000-000000000001", "cs-1")
        .replace("startup", "compact");
    let out = p.hook("SessionStart", again.as_bytes());
    out.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string()
}

/// SessionStart's recap, PreCompact's checkpoint and `end` read the session's summary
/// (`summary.json`, kept by every move of the buffer) and the buffer, not the records: they
/// cost the same at the millionth record as at the first (2M records read took 36 s).
#[test]
fn issue_15_session_start_precompact_and_end_read_the_summary_not_the_trail() {
    let p = Project::new();
    p.write(".rune/progress.md", "# Progress\n");
    // A named session: its start shows the recap (an automatic one is quiet).
    assert_eq!(audit(&p, &["start", "summary reads"]).code, 0);
    for n in 0..5 {
        p.hook("PostToolUse", tool_event(&p, n).as_bytes());
    }
    p.hook("PostToolUse", edit_event(&p, "src/lib.rs", 1).as_bytes());
    p.hook("PostToolUse", edit_event(&p, "src/main.rs", 2).as_bytes());
    p.hook("Stop", simple_event(&p, "Stop").as_bytes());
    p.hook("PostToolUse", tool_event(&p, 9).as_bytes());
    let dir = runs(&p).join(current(&p));
    assert!(dir.join("summary.json").exists());
    blank_out_keeping_the_stamp(&dir.join("audit_pending.jsonl"));

    // The same Claude session starts again (a compaction): its automatic session goes on.
    let ctx = compaction_start_context(&p);
    assert!(ctx.contains("; 8 records"), "{ctx}");
    assert!(ctx.contains("echo call-9"), "{ctx}");

    p.hook("PreCompact", p.event("PreCompact").as_bytes());
    // The automatic checkpoint is put in place once the compaction happened (#12).
    p.hook("PostCompact", p.event("PostCompact").as_bytes());
    let cp = std::fs::read_to_string(p.root.join(".rune/checkpoint.md")).unwrap();
    assert!(
        cp.contains("Files changed this session (audit trail): src/lib.rs, src/main.rs"),
        "{cp}"
    );

    let out = audit(&p, &["end", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = std::fs::read_to_string(dir.join("session_summary.md")).unwrap();
    assert!(
        summary.contains("- Records: 8 (change 2, data 6)"),
        "{summary}"
    );
}

/// A Stop after the session's first move leaves the summary as it was (it neither reads nor
/// writes it: a Stop runs after every turn); the next reader catches up on what moved since,
/// so the recap and `end` count every record.
#[test]
fn issue_15_stops_leave_the_summary_behind_and_readers_catch_up() {
    let p = Project::new();
    // A named session: its start shows the recap (an automatic one is quiet).
    assert_eq!(audit(&p, &["start", "summary reads"]).code, 0);
    for n in 0..3 {
        p.hook("PostToolUse", tool_event(&p, n).as_bytes());
    }
    p.hook("Stop", simple_event(&p, "Stop").as_bytes());
    let dir = runs(&p).join(current(&p));
    let first = std::fs::read(dir.join("summary.json")).unwrap();
    for n in 3..9 {
        p.hook("PostToolUse", tool_event(&p, n).as_bytes());
        if n % 2 == 0 {
            p.hook("Stop", simple_event(&p, "Stop").as_bytes());
        }
    }
    assert_eq!(std::fs::read(dir.join("summary.json")).unwrap(), first);
    assert!(std::fs::read_to_string(dir.join("audit_pending.jsonl"))
        .unwrap()
        .contains("echo call-8"));

    let ctx = compaction_start_context(&p);
    assert!(ctx.contains("; 9 records"), "{ctx}");
    assert!(ctx.contains("echo call-8"), "{ctx}");

    let out = audit(&p, &["end", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = std::fs::read_to_string(dir.join("session_summary.md")).unwrap();
    assert!(summary.contains("- Records: 9 (data 9)"), "{summary}");
}

/// `secs` after 2026-11-30T00:00:00Z, as a `SystemTime`.
fn on_nov_30(secs: u64) -> std::time::SystemTime {
    std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_795_996_800 + secs)
}

/// Sets the mtime of the file `rel` in `p`.
fn set_mtime(p: &Project, rel: &str, t: std::time::SystemTime) {
    std::fs::File::options()
        .write(true)
        .open(p.root.join(rel))
        .unwrap()
        .set_modified(t)
        .unwrap();
}

/// Commits `rel` as it is in the work tree, on HEAD.
fn commit_path(p: &Project, rel: &str, msg: &str) -> git2::Oid {
    let r = git2::Repository::open(&p.root).unwrap();
    let mut idx = r.index().unwrap();
    idx.add_path(Path::new(rel)).unwrap();
    idx.write().unwrap();
    let tree = r.find_tree(idx.write_tree().unwrap()).unwrap();
    let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
    let parent = r.head().unwrap().peel_to_commit().unwrap();
    r.commit(Some("HEAD"), &sig, &sig, msg, &tree, &[&parent])
        .unwrap()
}

/// Rewrites HEAD's reflog: one entry per (commit, time), oldest first — when HEAD moved,
/// independent of this machine's clock.
fn set_reflog(p: &Project, entries: &[(git2::Oid, std::time::SystemTime)]) {
    let r = git2::Repository::open(&p.root).unwrap();
    let mut log = r.reflog("HEAD").unwrap();
    while !log.is_empty() {
        log.remove(0, false).unwrap();
    }
    for (id, t) in entries {
        let secs = t.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
        let when = git2::Time::new(i64::try_from(secs).unwrap(), 0);
        let sig = git2::Signature::new("t", "t@example.invalid", &when).unwrap();
        log.append(*id, &sig, Some("commit")).unwrap();
    }
    log.write().unwrap();
}

/// The seed's `/end` check "all files covered? (changes in audit_trail match modified files)"
/// needs the git state the session began with. A session a tool-call hook started (here the
/// first PostToolUse of a Claude session, later named by `/baton:start`) had none: a file
/// committed during it without a record was missed, and a file dirty before it was blamed.
/// `end` derives its baseline from its start time: HEAD then (HEAD's reflog), and as dirty at
/// the start the changed files last written before it.
#[test]
fn issue_16_a_session_a_hook_started_gets_a_git_baseline() {
    let p = Project::new();
    let init = git2::Repository::open(&p.root)
        .unwrap()
        .head()
        .unwrap()
        .peel_to_commit()
        .unwrap()
        .id();
    // Dirty before the session (10:15): an untracked and a modified file, last written 9:00.
    p.write("before.txt", "stray, from yesterday\n");
    set_mtime(&p, "before.txt", on_nov_30(9 * 3600));
    p.write("README.md", "# demo, edited before\n");
    set_mtime(&p, "README.md", on_nov_30(9 * 3600));
    // The session: its first tool call starts it (no SessionStart), then it is named.
    let out = p.hook("PostToolUse", edit_event(&p, "src/app.rs", 1).as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    let id = current(&p);
    let meta: Value = serde_json::from_str(
        &std::fs::read_to_string(runs(&p).join(&id).join("session.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(meta["started_by"], "auto", "{meta}");
    assert!(meta.get("git_head").is_none(), "the hook read git: {meta}");
    assert_eq!(audit(&p, &["start", "named later"]).code, 0);
    // Its work: the recorded edit, and a commit nobody recorded (10:20).
    p.write("src/app.rs", "fn main() {}\n");
    set_mtime(&p, "src/app.rs", on_nov_30(10 * 3600 + 16 * 60));
    p.write("src/lib.rs", "pub fn f() {}\n");
    set_mtime(&p, "src/lib.rs", on_nov_30(10 * 3600 + 20 * 60));
    let work = commit_path(&p, "src/lib.rs", "unrecorded work");
    set_reflog(
        &p,
        &[
            (init, on_nov_30(10 * 3600)),
            (work, on_nov_30(10 * 3600 + 20 * 60)),
        ],
    );

    let out = p.run(
        &["audit", "end", "--json"],
        b"",
        &[("BATON_NOW", "2026-11-30T10:30:00Z")],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let meta: Value = serde_json::from_str(
        &std::fs::read_to_string(runs(&p).join(&id).join("session.json")).unwrap(),
    )
    .unwrap();
    let problems = meta["integrity"].to_string();
    assert!(
        problems.contains("1 file(s) changed in git without a change record: src/lib.rs"),
        "{meta}"
    );
    assert!(!problems.contains("before.txt"), "{meta}");
    assert!(!problems.contains("README.md"), "{meta}");
    assert_eq!(meta["git_baseline"], "derived", "{meta}");
    assert_eq!(meta["git_head"], init.to_string(), "{meta}");
    assert_eq!(
        meta["git_dirty_at_start"],
        json!(["README.md", "before.txt"])
    );
}

/// The seed's L2 loads "user_correction records + conclusions + daily report §4+§6" within
/// ~1000 tokens. Cut as one text, enough corrections pushed §4 and §6 out entirely; each part
/// now gets a share, and a part that is cut says where its full text is. L3 (~3000 tokens)
/// kept the oldest records of a long trail; it keeps the newest and names the files that hold
/// every record.
#[test]
fn issue_16_recover_shares_l2_and_keeps_the_newest_of_l3() {
    let p = Project::new();
    assert_eq!(audit(&p, &["start", "a long day"]).code, 0);
    let filler = "the build must keep working offline and without the cache ".repeat(5);
    for n in 0..15 {
        let prompt = format!("No, correction number {n}: {filler}");
        let out = p.hook("UserPromptSubmit", prompt_event(&p, &prompt).as_bytes());
        assert_eq!(out.code, 0, "{out:?}");
    }
    let out = audit(&p, &["report-daily", "20261130"]);
    assert_eq!(out.code, 0, "{out:?}");
    let out = audit(&p, &["recover"]);
    assert_eq!(out.code, 0, "{out:?}");
    let l2 = &out.stdout[out.stdout.find("## L2").unwrap()..];
    let l2_body = l2.split_once('\n').unwrap().1.trim_end();
    assert!(
        l2_body.chars().count().div_ceil(4) <= 1000,
        "{} chars",
        l2_body.chars().count()
    );
    assert!(l2.contains("Corrections (newest first"), "{l2}");
    assert!(l2.contains("correction number 14"), "{l2}");
    assert!(l2.contains("## 4. User feedback & corrections"), "{l2}");
    assert!(l2.contains("## 6. Backlog"), "{l2}");
    assert!(
        l2.contains("full text: .boo/reports/daily_20261130.md]"),
        "{l2}"
    );
    assert!(
        l2.contains("full text: `baton recall --kind correction WORDS`]"),
        "{l2}"
    );

    // L3: 400 calls, far more than ~3000 tokens.
    for n in 0..400 {
        p.hook("PostToolUse", tool_event(&p, n).as_bytes());
    }
    let out = audit(&p, &["recover", "full"]);
    assert_eq!(out.code, 0, "{out:?}");
    let l3 = &out.stdout;
    assert!(l3.contains("echo call-399"), "the newest record is missing");
    assert!(!l3.contains("echo call-0\n"), "the oldest record is kept");
    assert!(
        l3.contains("oldest record(s) left out; every record is in .boo/runs/adhoc_20261130_1015/ (audit_trail.jsonl, then audit_pending.jsonl and audit_buffer.jsonl)"),
        "{l3}"
    );
    // The newest are kept in order, up to the last.
    let kept: Vec<usize> = l3
        .lines()
        .filter_map(|l| l.split("echo call-").nth(1))
        .map(|n| n.trim().parse().unwrap())
        .collect();
    assert!(kept.len() > 50, "{kept:?}");
    assert!(kept.windows(2).all(|w| w[1] == w[0] + 1), "{kept:?}");
    assert_eq!(kept.last(), Some(&399));
    assert!(l3.chars().count() < 3000 * 4 + 200);
}

/// A report of a past day (`/report-daily 20261129`) listed in its backlog what came later:
/// a session started the next day, a correction made the next day, the blocked items of the
/// next day's progress entry. It lists what existed by the end of that day.
#[test]
fn issue_16_a_past_days_backlog_lists_nothing_created_after_it() {
    let p = Project::new();
    let at = |args: &[&str], stdin: &str, now: &str| {
        let root = p.root.to_str().unwrap().to_string();
        let out = p.run(
            args,
            stdin.as_bytes(),
            &[("BATON_NOW", now), ("CLAUDE_PROJECT_DIR", &root)],
        );
        assert_eq!(out.code, 0, "{out:?}");
        out
    };
    let blocked =
        |item: &str| format!("summary: work\nprogress:\n  blocked: [\"{item}\"]\n  next: [docs]\n");
    // The 29th: a blocker, a session left open, a correction.
    at(
        &["bridge", "save"],
        &blocked("old blocker"),
        "2026-11-29T09:00:00Z",
    );
    at(
        &["audit", "start", "yesterday's work"],
        "",
        "2026-11-29T09:05:00Z",
    );
    at(
        &["hook", "UserPromptSubmit"],
        &prompt_event(&p, "No, keep the old schema"),
        "2026-11-29T09:10:00Z",
    );
    // The 30th: another blocker, another session, another correction.
    at(
        &["bridge", "save"],
        &blocked("new blocker"),
        "2026-11-30T10:00:00Z",
    );
    at(
        &["audit", "start", "--force", "today's work"],
        "",
        "2026-11-30T10:05:00Z",
    );
    at(
        &["hook", "UserPromptSubmit"],
        &prompt_event(&p, "No, use the other API"),
        "2026-11-30T10:06:00Z",
    );

    let backlog = |day: &str| {
        let out = at(&["audit", "report-daily", day], "", "2026-11-30T12:00:00Z");
        let from = out.stdout.find("## 6. Backlog").unwrap();
        let to = out.stdout.find("## 7.").unwrap();
        out.stdout[from..to].to_string()
    };
    let past = backlog("20261129");
    assert!(
        past.contains("unfinished session adhoc_20261129_0905 — yesterday's work"),
        "{past}"
    );
    assert!(past.contains("\"No, keep the old schema\""), "{past}");
    assert!(past.contains("blocked: old blocker"), "{past}");
    assert!(!past.contains("adhoc_20261130_1005"), "{past}");
    assert!(!past.contains("use the other API"), "{past}");
    assert!(!past.contains("new blocker"), "{past}");
    let today = backlog("20261130");
    assert!(
        today.contains("unfinished session adhoc_20261129_0905"),
        "{today}"
    );
    assert!(
        today.contains("unfinished session adhoc_20261130_1005"),
        "{today}"
    );
    assert!(today.contains("\"No, use the other API\""), "{today}");
    assert!(today.contains("blocked: new blocker"), "{today}");
    assert!(!today.contains("old blocker"), "{today}");
}
