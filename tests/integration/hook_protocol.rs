//! `baton hook` as Claude Code runs it: every event answered with exit 0 and valid JSON (or
//! nothing); garbage fails open with one stderr line; never exit 2, never a panic message.

use crate::harness::Project;

const EVENTS: &[&str] = &[
    "SessionStart",
    "SessionStart.compact",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PreCompact",
    "PostCompact",
    "Stop",
    "SubagentStop",
    "SessionEnd",
    "Notification",
];

/// The event name a fixture stands for (`SessionStart.compact` → `SessionStart`).
fn event_name(fixture: &str) -> &str {
    fixture.split('.').next().unwrap()
}

#[test]
fn every_event_kind_answers_exit_0_with_valid_json_or_nothing() {
    let p = Project::new();
    for fixture in EVENTS {
        let name = event_name(fixture);
        let out = p.hook(name, p.event(fixture).as_bytes());
        assert_eq!(out.code, 0, "{fixture}: {out:?}");
        assert!(out.stderr.is_empty(), "{fixture}: {out:?}");
        if !out.stdout.trim().is_empty() {
            let v = out.json();
            if let Some(hso) = v.get("hookSpecificOutput") {
                assert_eq!(hso["hookEventName"], name, "{fixture}: {v}");
            }
        }
        if matches!(name, "PreCompact" | "SessionEnd" | "PostCompact") {
            assert!(
                !out.stdout.contains("hookSpecificOutput"),
                "{fixture}: {out:?}"
            );
        }
    }
}

#[test]
fn pre_compact_prints_nothing_stray() {
    let p = Project::new();
    let out = p.hook("PreCompact", p.event("PreCompact").as_bytes());
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (0, "", "")
    );
}

#[test]
fn session_start_injects_the_active_line() {
    let p = Project::new();
    let out = p.hook("SessionStart", p.event("SessionStart").as_bytes());
    insta::assert_snapshot!("session_start_empty_repo", out.stdout);

    p.write(".rune/progress.md", "# Progress\n");
    p.write(".handoff/packets/latest.md", "---\nloop_id: WL-001\n---\n");
    let out = p.hook("SessionStart", p.event("SessionStart").as_bytes());
    insta::assert_snapshot!("session_start_with_state", out.stdout);
}

#[test]
fn project_root_comes_from_the_event_cwd_when_claude_gives_none() {
    let p = Project::new();
    p.write(".rune/notes.md", "x");
    p.write("deep/er/file.txt", "x");
    let sub = p.root.join("deep/er");
    let ev = p
        .event("SessionStart")
        .replace(p.root.to_str().unwrap(), sub.to_str().unwrap());
    // No CLAUDE_PROJECT_DIR: the event's cwd is walked up to the git top.
    let out = p.run(&["hook", "SessionStart"], ev.as_bytes(), &[]);
    let ctx = out.json()["hookSpecificOutput"]["additionalContext"].clone();
    assert!(ctx.as_str().unwrap().contains("bridge (.rune/)"), "{out:?}");
}

#[test]
fn garbage_on_stdin_fails_open_with_one_line() {
    let p = Project::new();
    let inputs: &[&[u8]] = &[
        b"",
        b"\n",
        b"{",
        b"not json at all",
        b"[1,2,3]",
        b"null",
        b"\xff\xfe\x00\x01",
    ];
    for hint in [
        None,
        Some("SessionStart"),
        Some("PostToolUse"),
        Some("PreCompact"),
    ] {
        for input in inputs {
            let args: Vec<&str> = std::iter::once("hook").chain(hint).collect();
            let out = p.run(&args, input, &[]);
            let what = format!(
                "hint {hint:?}, input {:?}: {out:?}",
                String::from_utf8_lossy(input)
            );
            assert!(out.code == 0 || out.code == 1, "{what}");
            assert_eq!(out.stderr.lines().count(), 1, "{what}");
            assert!(out.stderr.starts_with("baton: "), "{what}");
            assert!(!out.stderr.contains("panicked"), "{what}");
            assert!(!out.stderr.contains("RUST_BACKTRACE"), "{what}");
            match hint {
                Some("PreCompact") | None => assert_eq!(out.stdout, "", "{what}"),
                Some(_) => {
                    let v = out.json();
                    assert!(
                        v["systemMessage"].as_str().unwrap().starts_with("baton: "),
                        "{what}"
                    );
                    assert!(v.get("hookSpecificOutput").is_none(), "{what}");
                }
            }
        }
    }
}

#[test]
fn an_event_without_a_name_takes_the_name_hooks_json_passed() {
    let p = Project::new();
    for input in [&b"{\"hook_event_name\": 42}"[..], b"{\"session_id\":\"s\"}"] {
        let out = p.run(&["hook", "SessionStart"], input, &[]);
        assert_eq!(out.code, 0, "{out:?}");
        assert_eq!(
            out.json()["hookSpecificOutput"]["hookEventName"],
            "SessionStart"
        );
        let out = p.run(&["hook"], input, &[]);
        assert_eq!((out.code, out.stdout.as_str()), (1, ""), "{out:?}");
        assert!(out.stderr.contains("no hook_event_name"), "{out:?}");
    }
}

#[test]
fn hook_help_is_help() {
    let p = Project::new();
    let out = p.run(&["hook", "--help"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("Usage: baton hook"), "{out:?}");
}

#[test]
fn wrong_hook_arguments_never_exit_2() {
    let p = Project::new();
    let out = p.run(&["hook", "Stop", "--unknown-flag"], b"{}", &[]);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(out.stderr.lines().count(), 1, "{out:?}");
}

#[test]
fn a_config_error_is_named_at_session_start_and_the_hook_still_answers() {
    let p = Project::new();
    p.write(
        ".claude/baton.yaml",
        "relay:\n  cycle_budget: lots\naudit:\n  auto_strat: true\n",
    );
    let out = p.hook("SessionStart", p.event("SessionStart").as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    let v = out.json();
    let msg = v["systemMessage"].as_str().unwrap();
    assert!(msg.contains(".claude/baton.yaml"), "{msg}");
    assert!(msg.contains("running on defaults"), "{msg}");
    assert!(v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .starts_with("baton is active."));
    assert_eq!(out.stderr.lines().count(), 1, "{out:?}");

    // Other events run on the defaults without a word.
    let out = p.hook("PostToolUse", p.event("PostToolUse").as_bytes());
    assert_eq!((out.code, out.stdout.as_str()), (0, ""), "{out:?}");
}

#[test]
fn broken_state_files_do_not_break_session_start() {
    // Root ignores permission bits (CI runs as root), so the state is broken by content and
    // type instead: a state "directory" that is a file, garbage where JSON and key: value
    // lines are expected, a dangling symlink.
    let p = Project::new();
    p.write(".rune", "not a directory");
    p.write(".boo/index.json", "{not json");
    p.write(".boo/runs/.current_session", "../../etc\n");
    p.write(
        ".handoff/loop/loop_state.md",
        "\u{0}\u{1}binary: [unclosed\n",
    );
    p.write(".handoff/packets/latest.md", "---\nloop_id: [\n");
    std::fs::create_dir_all(p.root.join("datarim")).unwrap();
    std::os::unix::fs::symlink("/nonexistent/baton", p.root.join("datarim/sessions")).unwrap();
    for fixture in [
        "SessionStart",
        "PostToolUse",
        "UserPromptSubmit",
        "Stop",
        "PreCompact",
        "SessionEnd",
    ] {
        let out = p.hook(fixture, p.event(fixture).as_bytes());
        assert!(out.code == 0 || out.code == 1, "{fixture}: {out:?}");
        assert!(out.stderr.lines().count() <= 1, "{fixture}: {out:?}");
        assert!(!out.stderr.contains("panicked"), "{fixture}: {out:?}");
        if out.stdout.starts_with('{') {
            out.json();
        }
    }
    let out = p.hook("SessionStart", p.event("SessionStart").as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .starts_with("baton is active."));
}

#[test]
fn hooks_leave_the_project_untouched_when_nothing_subscribes() {
    let p = Project::new();
    for e in [
        "PostToolUse",
        "PostToolUseFailure",
        "UserPromptSubmit",
        "Stop",
        "SessionEnd",
    ] {
        p.hook(e, p.event(e).as_bytes());
    }
    let entries: Vec<String> = std::fs::read_dir(&p.root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".git" && n != ".boo")
        .collect();
    assert_eq!(entries, vec!["README.md"]);
    // The audit records these events (auto_start) in .boo/, which keeps itself out of git.
    assert!(p.root.join(".boo/.gitignore").exists());
}

#[test]
fn secrets_in_config_driven_output_are_redacted() {
    // The status line names state dirs from config; a secret-looking path must not leak.
    let p = Project::new();
    let secret = ["ghp_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"].concat();
    p.write(
        ".claude/baton.yaml",
        &format!("paths: {{bridge: {secret}}}\n"),
    );
    p.write(&format!("{secret}/x.md"), "x");
    let out = p.hook("SessionStart", p.event("SessionStart").as_bytes());
    assert!(!out.stdout.contains(&secret), "{out:?}");
    assert!(out.stdout.contains("[REDACTED]"), "{out:?}");
}
