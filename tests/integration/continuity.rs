//! Issue 34, through the real binary: each finding of the continuity report, on fabricated
//! Claude Code transcripts (tests/e2e/continuity.rs and scripts/bench-continuity run the
//! same in the real Claude Code).
//!
//! 1. the newest evidence wins "Resume here": a session that worked after an old save;
//! 2. a session killed mid-turn is caught up at the next start;
//! 3. a conclusion keeps its end, and an earlier turn's conclusion survives a later one;
//! 4. a compaction in a project without `.rune/` gets the session back;
//! 5. an automatic checkpoint is resolved by the task updates after it; a continued handoff
//!    is not "Resume here" any more;
//! 7. an automatic next action is a short imperative, and none after finished work.

use crate::capture::{
    call, event, prompt, result, session_start, stop, transcript_path, write_transcript,
};
use crate::harness::Project;
use serde_json::{json, Value};

const S1: &str = "11111111-1111-4111-8111-111111111111";
const S2: &str = "22222222-2222-4222-8222-222222222222";
const S3: &str = "33333333-3333-4333-8333-333333333333";

/// An assistant's final message of a turn, at `at`.
fn said(msg: &str, text: &str, at: &str) -> Value {
    json!({"type": "assistant", "timestamp": at, "message": {"id": msg, "stop_reason": "end_turn",
           "content": [{"type": "text", "text": text}]}})
}

/// A prompt at `at`.
fn asked(text: &str, at: &str) -> Value {
    let mut p = prompt(text);
    p["timestamp"] = json!(at);
    p
}

/// A tool call at `at`.
fn called(msg: &str, id: &str, name: &str, input: &Value, at: &str) -> Value {
    let mut c = call(msg, id, name, input);
    c["timestamp"] = json!(at);
    c
}

/// The "Next:" line of a context's "Resume here", if any.
fn next(ctx: &str) -> Option<String> {
    let at = ctx.find("## Resume here\n")?;
    ctx[at..]
        .lines()
        .take_while(|l| !l.starts_with("## ") || l.starts_with("## Resume"))
        .find(|l| l.starts_with("Next: "))
        .map(str::to_string)
}

fn bridge(p: &Project, args: &[&str], yaml: &str, now: &str) {
    let mut all = vec!["bridge"];
    all.extend(args);
    let out = p.run(&all, yaml.as_bytes(), &[("BATON_NOW", now)]);
    assert_eq!(out.code, 0, "{out:?}");
}

/// Finding 1: a bridge save's next step from 16 days ago does not beat the session that just
/// ended and worked on something else; on `--continue` no next action competes.
#[test]
fn issue_34_the_newest_evidence_wins_resume_here() {
    let p = Project::new();
    bridge(
        &p,
        &["save"],
        "summary: planned billing\nprogress: {next: [Migrate the billing tables]}\n",
        "2026-11-14T10:00:00Z",
    );
    write_transcript(
        &transcript_path(&p, S1),
        &[
            asked(
                "Fix the 500 on /login when the cookie expired",
                "2026-11-30T09:00:00Z",
            ),
            called(
                "m1",
                "t1",
                "Edit",
                &json!({"file_path": p.root.join("src/auth.rs")}),
                "2026-11-30T09:01:00Z",
            ),
            said(
                "m2",
                "Fixed the redirect. Still open: a regression test for the refresh path.",
                "2026-11-30T09:02:00Z",
            ),
        ],
    );
    stop(
        &p,
        S1,
        "Fixed the redirect. Still open: a regression test for the refresh path.",
    );
    let ctx = session_start(&p, S2, "startup");
    let line = next(&ctx).unwrap_or_else(|| panic!("no next action:\n{ctx}"));
    assert!(
        line.contains("regression test for the refresh path"),
        "{line}\n{ctx}"
    );
    assert!(ctx.contains("superseded by the later work"), "{ctx}");
    // The conversation is resumed: Claude Code replays it; baton names no next action.
    let resumed = session_start(&p, S1, "resume");
    assert_eq!(next(&resumed), None, "{resumed}");
}

/// Finding 2: a session killed in the middle of a turn (no Stop, no SessionEnd) is caught up
/// by the next session start: its correction, its failure, the turn it was cut off in — and
/// not the words the user had rejected as its last ones.
#[test]
fn issue_34_a_session_killed_mid_turn_is_caught_up_at_the_next_start() {
    let p = Project::new();
    let path = transcript_path(&p, S1);
    write_transcript(
        &path,
        &[
            asked(
                "The tokenizer panics on empty input",
                "2026-11-30T09:00:00Z",
            ),
            called(
                "m1",
                "t1",
                "Bash",
                &json!({"command": "cargo test tokenizer"}),
                "2026-11-30T09:01:00Z",
            ),
            result(
                "t1",
                "Exit code 101\npanicked at src/tokenizer.rs:42: index out of bounds",
                true,
                &json!("Error: Exit code 101"),
            ),
            said(
                "m2",
                "It reads bytes[0] before checking the length. I'll rewrite it with a regex.",
                "2026-11-30T09:02:00Z",
            ),
        ],
    );
    // The first turn ended normally.
    stop(
        &p,
        S1,
        "It reads bytes[0] before checking the length. I'll rewrite it with a regex.",
    );
    // The second is cut off: its lines are on disk, no hook ran.
    write_transcript(
        &path,
        &[
            asked(
                "No — don't use a regex, write a byte scanner",
                "2026-11-30T09:03:00Z",
            ),
            called(
                "m3",
                "t3",
                "Edit",
                &json!({"file_path": p.root.join("src/tokenizer.rs")}),
                "2026-11-30T09:04:00Z",
            ),
            called(
                "m4",
                "t4",
                "Bash",
                &json!({"command": "cargo test tokenizer"}),
                "2026-11-30T09:05:00Z",
            ),
            result(
                "t4",
                "Exit code 101\nFAILED tokenizer::empty: unexpected EOF in scan_bytes",
                true,
                &json!("Error: Exit code 101"),
            ),
        ],
    );
    let ctx = session_start(&p, S2, "startup");
    assert!(ctx.contains("write a byte scanner"), "{ctx}");
    assert!(ctx.contains("unexpected EOF in scan_bytes"), "{ctx}");
    assert!(ctx.contains("Cut off in the middle of a turn"), "{ctx}");
    assert!(
        ctx.contains("reads bytes[0] before checking the length"),
        "{ctx}"
    );
    assert!(
        !ctx.contains("with a regex."),
        "the rejected words came back:\n{ctx}"
    );
    let line = next(&ctx).unwrap_or_else(|| panic!("no next action:\n{ctx}"));
    assert!(line.contains("write a byte scanner"), "{line}");
    // A session killed before its first Stop (its transcript never read) is found too.
    write_transcript(
        &transcript_path(&p, S3),
        &[
            asked("Add a --json flag to status", "2026-11-30T10:00:00Z"),
            called(
                "m1",
                "t1",
                "Edit",
                &json!({"file_path": p.root.join("src/status.rs")}),
                "2026-11-30T10:01:00Z",
            ),
        ],
    );
    let at_start = p.hook(
        "SessionStart",
        event(&p, "SessionStart", S3, &json!({"source": "startup"})).as_bytes(),
    );
    assert_eq!(at_start.code, 0);
    let ctx = session_start(&p, S2, "startup");
    assert!(ctx.contains("Add a --json flag to status"), "{ctx}");
}

/// Finding 3: the assistant's last message is kept with its end (where "still open" is
/// said), within `capture.section_chars`; an earlier turn's conclusion is not overwritten.
#[test]
fn issue_34_conclusions_keep_their_end_and_earlier_turns_stay() {
    let p = Project::new();
    let long = format!(
        "Root cause: the cache key ignored the locale. {} Still open: migrate the old cache rows.",
        "The investigation went through the cache layer step by step. ".repeat(30)
    );
    write_transcript(
        &transcript_path(&p, S1),
        &[
            asked(
                "Why does the cache return French pages to English users?",
                "2026-11-30T09:00:00Z",
            ),
            called(
                "m1",
                "t1",
                "Bash",
                &json!({"command": "cargo test cache"}),
                "2026-11-30T09:01:00Z",
            ),
            said(
                "m2",
                "Decided: key the cache by locale and user tier.",
                "2026-11-30T09:02:00Z",
            ),
            asked("ok, do it", "2026-11-30T09:03:00Z"),
            called(
                "m3",
                "t3",
                "Edit",
                &json!({"file_path": p.root.join("src/cache.rs")}),
                "2026-11-30T09:04:00Z",
            ),
            said("m4", &long, "2026-11-30T09:05:00Z"),
        ],
    );
    stop(&p, S1, &long);
    p.write(".claude/baton.yaml", "capture: {section_chars: 2000}\n");
    let ctx = session_start(&p, S2, "startup");
    assert!(
        ctx.contains("Root cause: the cache key ignored the locale."),
        "{ctx}"
    );
    assert!(
        ctx.contains("Still open: migrate the old cache rows."),
        "{ctx}"
    );
    assert!(
        ctx.contains("key the cache by locale and user tier"),
        "the earlier conclusion was lost:\n{ctx}"
    );
    let line = next(&ctx).unwrap_or_default();
    assert!(line.contains("migrate the old cache rows"), "{line}");
    // A smaller section is honoured, and still ends with what is open.
    p.write(".claude/baton.yaml", "capture: {section_chars: 600}\n");
    let ctx = session_start(&p, S2, "startup");
    let section = ctx
        .split("## Where the last session left off\n")
        .nth(1)
        .unwrap_or("")
        .split("\n\n## ")
        .next()
        .unwrap_or("");
    // The frame that says it is data comes on top (docs/capture.md).
    assert!(section.contains("⟦session record "), "{section}");
    assert!(section.chars().count() <= 600 + 200, "{section}");
    assert!(
        section.contains("Still open: migrate the old cache rows."),
        "{section}"
    );
}

/// Finding 4: a compaction in a project without `.rune/`: PreCompact tells the summary what
/// to keep, and the start after it gives the request, the open tasks, the last failure and
/// the conclusion back — without creating `.rune/`.
#[test]
fn issue_34_a_compaction_without_rune_gets_the_session_back() {
    let p = Project::new();
    write_transcript(
        &transcript_path(&p, S1),
        &[
            asked("Migrate the config loader to TOML", "2026-11-30T09:00:00Z"),
            called(
                "m1",
                "t1",
                "TaskCreate",
                &json!({"subject": "Parse TOML in load_config"}),
                "2026-11-30T09:01:00Z",
            ),
            result(
                "t1",
                "Task #1 created successfully: Parse TOML in load_config",
                false,
                &json!({"task": {"id": "1"}}),
            ),
            called(
                "m2",
                "t2",
                "Bash",
                &json!({"command": "cargo test config"}),
                "2026-11-30T09:02:00Z",
            ),
            result(
                "t2",
                "Exit code 101\nerror: expected table, found string",
                true,
                &json!("Error: Exit code 101"),
            ),
            said(
                "m3",
                "load_config parses TOML. Next: fix the fixture.",
                "2026-11-30T09:03:00Z",
            ),
        ],
    );
    let pre = p.hook(
        "PreCompact",
        event(&p, "PreCompact", S1, &json!({"trigger": "manual"})).as_bytes(),
    );
    assert_eq!(pre.code, 0, "{pre:?}");
    for kept in [
        "Migrate the config loader to TOML",
        "Parse TOML in load_config",
        "expected table, found string",
        "fix the fixture",
    ] {
        assert!(
            pre.stdout.contains(kept),
            "{kept:?} not asked to be kept: {pre:?}"
        );
    }
    let ctx = session_start(&p, S1, "compact");
    assert!(
        ctx.contains("## Where this session stood before the compaction"),
        "{ctx}"
    );
    for kept in [
        "Migrate the config loader to TOML",
        "Parse TOML in load_config\" (pending)",
        "expected table, found string",
        "fix the fixture",
    ] {
        assert!(ctx.contains(kept), "{kept:?} not given back:\n{ctx}");
    }
    assert!(!p.root.join(".rune").exists(), "a hook created .rune/");
}

/// Finding 5: the automatic checkpoint of a compaction takes this session's tasks only (not
/// an old save's), and is resolved once the tasks it lists are completed; a handoff that was
/// continued is not the next action any more.
#[test]
fn issue_34_automatic_saves_do_not_outlive_their_work() {
    let p = Project::new();
    bridge(
        &p,
        &["save"],
        "summary: old\nprogress: {in_progress: [an old bridge item], next: [an old next step]}\n",
        "2026-11-20T10:00:00Z",
    );
    let path = transcript_path(&p, S1);
    let mut lines = vec![asked(
        "Split server.rs into modules",
        "2026-11-30T09:00:00Z",
    )];
    for (n, subject) in ["Move the routes", "Move the state"].iter().enumerate() {
        let id = format!("t{n}");
        lines.push(called(
            &format!("m{n}"),
            &id,
            "TaskCreate",
            &json!({"subject": subject}),
            "2026-11-30T09:01:00Z",
        ));
        lines.push(result(
            &id,
            &format!("Task #{} created successfully: {subject}", n + 1),
            false,
            &json!({"task": {"id": (n + 1).to_string()}}),
        ));
    }
    write_transcript(&path, &lines);
    p.hook(
        "PreCompact",
        event(&p, "PreCompact", S1, &json!({"trigger": "auto"})).as_bytes(),
    );
    p.hook(
        "PostCompact",
        event(&p, "PostCompact", S1, &json!({"trigger": "auto"})).as_bytes(),
    );
    let cp = std::fs::read_to_string(p.root.join(".rune/checkpoint.md")).unwrap();
    assert!(
        cp.contains("Move the routes") && cp.contains("Move the state"),
        "{cp}"
    );
    assert!(
        !cp.contains("an old bridge item") && !cp.contains("an old next step"),
        "an old save's items mixed in:\n{cp}"
    );
    // The session goes on and completes both tasks.
    write_transcript(
        &path,
        &[
            called(
                "m7",
                "t7",
                "TaskUpdate",
                &json!({"taskId": "1", "status": "completed"}),
                "2026-11-30T09:20:00Z",
            ),
            called(
                "m8",
                "t8",
                "TaskUpdate",
                &json!({"taskId": "2", "status": "completed"}),
                "2026-11-30T09:21:00Z",
            ),
            said("m9", "Both moved; all tests pass.", "2026-11-30T09:22:00Z"),
        ],
    );
    stop(&p, S1, "Both moved; all tests pass.");
    let ctx = session_start(&p, S2, "startup");
    assert!(
        !ctx.contains("Tasks remaining"),
        "the resolved checkpoint is still shown:\n{ctx}"
    );
    assert!(!p.root.join(".rune/checkpoint.md").exists(), "not resolved");
    assert_eq!(next(&ctx), None, "{ctx}");

    // A handoff saved on purpose, then continued: no longer "Resume here".
    let q = Project::new();
    std::fs::create_dir_all(q.root.join("datarim/sessions")).unwrap();
    q.write("body.md", "## Layer 1 — Git State\n\nclean\n\n## Layer 2 — Active Tasks\n\nnone\n\n## Layer 3 — Related Files\n\n- README.md — read\n\n## Layer 4 — Open Questions\n\nNone.\n\n## Layer 5 — Failed Approaches\n\nNone.\n");
    q.write("tasks.txt", "");
    let out = q.run(
        &[
            "handoff",
            "write",
            "--session",
            "SESSION-20261130-090000",
            "--captured-by",
            "agent",
            "--recommended-next",
            "/baton:dr-continue",
            "--next-action",
            "Wire the rate limiter",
            "--active-tasks-file",
            "tasks.txt",
            "--body-file",
            "body.md",
        ],
        b"",
        &[("BATON_NOW", "2026-11-30T09:00:00Z")],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let ctx = session_start(&q, S2, "startup");
    assert!(
        next(&ctx).is_some_and(|l| l.contains("Wire the rate limiter")),
        "{ctx}"
    );
    let out = q.run(
        &["handoff", "continue", "SESSION-20261130-090000"],
        b"",
        &[],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let ctx = session_start(&q, S3, "startup");
    assert!(
        next(&ctx).is_none_or(|l| !l.contains("Wire the rate limiter")),
        "{ctx}"
    );
}

/// Finding 7: an automatic next action is a short imperative (a task, what a conclusion left
/// open), never a quoted prompt; after a session that finished its work, none.
#[test]
fn issue_34_an_automatic_next_action_is_short_and_absent_when_nothing_is_open() {
    let p = Project::new();
    let long_prompt = format!(
        "please look at this log and tell me what is wrong: {}",
        "line of log output ".repeat(40)
    );
    write_transcript(
        &transcript_path(&p, S1),
        &[
            asked(&long_prompt, "2026-11-30T09:00:00Z"),
            called(
                "m1",
                "t1",
                "Bash",
                &json!({"command": "grep ERROR app.log"}),
                "2026-11-30T09:01:00Z",
            ),
            called(
                "m2",
                "t2",
                "Edit",
                &json!({"file_path": p.root.join("src/log.rs")}),
                "2026-11-30T09:02:00Z",
            ),
            said(
                "m3",
                "Fixed: the log rotation dropped the last line. All tests pass.",
                "2026-11-30T09:03:00Z",
            ),
        ],
    );
    stop(
        &p,
        S1,
        "Fixed: the log rotation dropped the last line. All tests pass.",
    );
    let ctx = session_start(&p, S2, "startup");
    assert_eq!(next(&ctx), None, "finished work left a next action:\n{ctx}");
    assert!(ctx.contains("log rotation dropped the last line"), "{ctx}");
    // A chat that did nothing afterwards changes nothing.
    write_transcript(
        &transcript_path(&p, S3),
        &[
            asked("hi, where were we?", "2026-11-30T10:00:00Z"),
            said("m1", "We fixed the log rotation.", "2026-11-30T10:00:05Z"),
        ],
    );
    stop(&p, S3, "We fixed the log rotation.");
    let ctx = session_start(&p, S2, "startup");
    assert_eq!(next(&ctx), None, "{ctx}");
    assert!(!ctx.contains("where were we"), "{ctx}");
}

/// A session still running in another terminal is not "cut off": its turn under way is not
/// handed to the next session as work to finish; once its process is gone, it is.
#[test]
fn issue_34_a_session_running_elsewhere_is_not_taken_over() {
    let p = Project::new();
    let path = transcript_path(&p, S1);
    write_transcript(&path, &[]);
    // Session A starts in another Claude Code process (a long-lived parent of its hook).
    let start = event(&p, "SessionStart", S1, &json!({"source": "startup"}));
    let input = p.home.path().join("a-start.json");
    std::fs::write(&input, start).unwrap();
    // `timeout` stays A's parent (its Claude Code) while the shell under it sleeps.
    let base = p.command(&["hook", "SessionStart"]);
    let mut a = std::process::Command::new("timeout")
        .args([
            "60",
            "sh",
            "-c",
            "\"$0\" hook SessionStart < \"$1\" > /dev/null; exec sleep 60",
        ])
        .arg(crate::harness::bin())
        .arg(&input)
        .env_clear()
        .envs(
            base.get_envs()
                .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v.to_owned()))),
        )
        .env("CLAUDE_PROJECT_DIR", &p.root)
        .current_dir(&p.root)
        .spawn()
        .unwrap();
    // A works: its turn is under way (no Stop yet).
    write_transcript(
        &path,
        &[
            asked(
                "Rename the config keys to snake_case",
                "2026-11-30T09:00:00Z",
            ),
            called(
                "m1",
                "t1",
                "Edit",
                &json!({"file_path": p.root.join("src/config.rs")}),
                "2026-11-30T09:01:00Z",
            ),
        ],
    );
    // Wait for A's start to have noted the session (its digest, with its process).
    let noted = || {
        walkdir::WalkDir::new(p.home.path().join(".local/state/baton"))
            .into_iter()
            .filter_map(Result::ok)
            .any(|e| e.file_name().to_string_lossy() == format!("{S1}.json"))
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !noted() {
        assert!(
            std::time::Instant::now() < deadline,
            "A's session start never ran"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Session B starts here, in this process: A is running, not cut off.
    let ctx = session_start(&p, S2, "startup");
    assert!(
        !ctx.contains("snake_case"),
        "a running session was taken over:\n{ctx}"
    );
    // A's process is gone (a crash): the next start catches it up, cut off.
    let _ = a.kill();
    let _ = a.wait();
    let ctx = session_start(&p, S3, "startup");
    assert!(ctx.contains("snake_case"), "{ctx}");
    assert!(ctx.contains("Cut off in the middle of a turn"), "{ctx}");
}

/// A session start records the next action it offered (the private resume log); a session
/// that went on from it and was cut off saying nothing more than "go on" leaves it the next
/// action, "picked up" by that session.
#[test]
fn issue_34_a_save_picked_up_by_a_session_that_was_cut_off_stays_the_next_action() {
    let p = Project::new();
    bridge(
        &p,
        &["checkpoint"],
        "doing: retries\nresume: Implement exponential backoff in retry(), then its tests\n",
        "2026-11-30T10:00:00Z",
    );
    // Session S2 starts: the checkpoint is its next action.
    let ctx = session_start(&p, S2, "startup");
    assert!(
        next(&ctx).is_some_and(|l| l.contains("exponential backoff")),
        "{ctx}"
    );
    // It goes on from it and is cut off.
    write_transcript(
        &transcript_path(&p, S2),
        &[
            asked("go on", "2026-11-30T10:05:00Z"),
            called(
                "m1",
                "t1",
                "Edit",
                &json!({"file_path": p.root.join("src/retry.rs")}),
                "2026-11-30T10:06:00Z",
            ),
        ],
    );
    let ctx = session_start(&p, S3, "startup");
    let line = next(&ctx).unwrap_or_else(|| panic!("no next action:\n{ctx}"));
    assert!(line.contains("exponential backoff"), "{line}\n{ctx}");
    assert!(ctx.contains("Picked up by last session 22222222"), "{ctx}");
}
