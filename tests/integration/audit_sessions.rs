//! Audit sessions keyed to Claude sessions (issue 12): an automatic session lasts as long as
//! its Claude session, `/baton:start` names only this Claude session's records, `/baton:end`
//! leaves no `(auto)` stub, no state outside a git work tree, and every command audit prints
//! exists.

use crate::harness::{Output, Project};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// An event of Claude session `claude`; `extra` adds the event's own fields.
fn event(p: &Project, claude: &str, name: &str, extra: &Value) -> String {
    let mut e = json!({"session_id": claude, "cwd": p.root, "hook_event_name": name});
    if let (Some(e), Some(extra)) = (e.as_object_mut(), extra.as_object()) {
        e.extend(extra.clone());
    }
    e.to_string()
}

fn hook(p: &Project, claude: &str, name: &str, extra: &Value) -> Output {
    let out = p.hook(name, event(p, claude, name, extra).as_bytes());
    assert_eq!(out.code, 0, "{name}: {out:?}");
    assert!(out.stderr.is_empty(), "{name}: {out:?}");
    out
}

fn start(p: &Project, claude: &str, source: &str) -> Output {
    hook(p, claude, "SessionStart", &json!({ "source": source }))
}

fn prompt(p: &Project, claude: &str, text: &str) {
    hook(p, claude, "UserPromptSubmit", &json!({ "prompt": text }));
}

fn bash(p: &Project, claude: &str, command: &str, n: usize) {
    hook(
        p,
        claude,
        "PostToolUse",
        &json!({"tool_name": "Bash", "tool_input": {"command": command}, "tool_response": {"stdout": ""}, "tool_use_id": format!("toolu_{claude}_{n}")}),
    );
}

fn end_session(p: &Project, claude: &str) {
    hook(
        p,
        claude,
        "SessionEnd",
        &json!({"reason": "prompt_input_exit"}),
    );
}

/// `baton ARGS` as the model runs it from Claude session `claude` (Claude Code names its
/// session to the commands it runs).
fn baton(p: &Project, claude: Option<&str>, args: &[&str]) -> Output {
    let root = p.root.to_str().unwrap().to_string();
    let mut env = vec![("CLAUDE_PROJECT_DIR", root.as_str())];
    if let Some(c) = claude {
        env.push(("CLAUDE_CODE_SESSION_ID", c));
    }
    p.run(args, b"", &env)
}

fn runs(p: &Project) -> PathBuf {
    p.root.join(".boo/runs")
}

fn current(p: &Project) -> Option<String> {
    std::fs::read_to_string(runs(p).join(".current_session"))
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn meta(p: &Project, id: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(runs(p).join(id).join("session.json")).unwrap())
        .unwrap()
}

/// Every record of session `id`, from all three of its files.
fn records(p: &Project, id: &str) -> Vec<Value> {
    [
        "audit_trail.jsonl",
        "audit_pending.jsonl",
        "audit_buffer.jsonl",
    ]
    .iter()
    .filter_map(|f| std::fs::read_to_string(runs(p).join(id).join(f)).ok())
    .flat_map(|t| {
        t.lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .collect::<Vec<_>>()
    })
    .collect()
}

fn texts(recs: &[Value]) -> Vec<String> {
    recs.iter()
        .filter(|r| r["type"] == "conversation")
        .map(|r| r["text"].as_str().unwrap_or("").to_string())
        .collect()
}

/// The session ids in the index, oldest first, with their task and status.
/// The index as a command leaves it (hooks record their changes in its journal; any audit
/// command folds them in).
fn index(p: &Project) -> Vec<(String, String, String)> {
    baton(p, None, &["audit", "status"]);
    let text = std::fs::read_to_string(p.root.join(".boo/index.json")).unwrap_or_default();
    let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    v["sessions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap_or("").to_string();
            (s("id"), s("task"), s("status"))
        })
        .collect()
}

fn backlog(p: &Project) -> String {
    let out = baton(p, None, &["audit", "report-daily"]);
    assert_eq!(out.code, 0, "{out:?}");
    let from = out.stdout.find("## 6. Backlog").unwrap();
    let to = out.stdout.find("## 7.").unwrap();
    out.stdout[from..to].to_string()
}

#[test]
fn issue_12_an_automatic_session_ends_with_its_claude_session() {
    let p = Project::new();
    start(&p, "cs-a", "startup");
    let a = current(&p).unwrap();
    assert_eq!(meta(&p, &a)["claude_session"], "cs-a");
    prompt(&p, "cs-a", "add a --json flag to status");
    bash(&p, "cs-a", "cargo test", 1);
    // A compaction and a resume of the same Claude session go on with it.
    start(&p, "cs-a", "compact");
    start(&p, "cs-a", "resume");
    assert_eq!(current(&p).as_deref(), Some(a.as_str()));
    end_session(&p, "cs-a");
    assert_eq!(current(&p), None);
    let first = meta(&p, &a);
    assert_eq!(first["status"], "completed", "{first}");
    assert!(runs(&p).join(&a).join("session_summary.md").is_file());
    let recs = records(&p, &a);
    assert_eq!(recs.len(), 2, "{recs:#?}");
    assert!(
        std::fs::read_to_string(runs(&p).join(&a).join("audit_trail.jsonl"))
            .unwrap()
            .contains("cargo test")
    );

    // Its task says nothing, so recall says what it did.
    let l0 = baton(&p, None, &["audit", "recover"]).stdout;
    assert!(
        l0.contains(&format!(
            "- {a} [completed] (auto): 1 prompt(s), 1 tool call(s)\n"
        )),
        "{l0}"
    );

    // The next Claude session gets its own.
    start(&p, "cs-b", "startup");
    let b = current(&p).unwrap();
    assert_ne!(a, b);
    prompt(&p, "cs-b", "now the docs");
    // Claude session B's SessionEnd never reached baton: C's SessionStart ends B's session.
    start(&p, "cs-c", "startup");
    let third = current(&p).unwrap();
    assert_ne!(b, third);
    assert_eq!(meta(&p, &b)["status"], "completed");
    assert_eq!(texts(&records(&p, &b)), ["now the docs"]);
    // Another Claude session's SessionEnd leaves C's alone.
    end_session(&p, "cs-b");
    assert_eq!(current(&p).as_deref(), Some(third.as_str()));
    assert!(!backlog(&p).contains("unfinished"), "{}", backlog(&p));
}

/// A Claude session that recorded nothing leaves no session behind: no `(auto)` row with a
/// failed "no records" check in every report.
#[test]
fn issue_12_an_automatic_session_that_recorded_nothing_leaves_nothing() {
    let p = Project::new();
    start(&p, "cs-a", "startup");
    let a = current(&p).unwrap();
    end_session(&p, "cs-a");
    assert!(!runs(&p).join(&a).exists());
    assert!(index(&p).is_empty(), "{:?}", index(&p));
    // Nor when the next SessionStart ends it, or `/baton:end` does.
    // (An id nobody recorded under is free again.)
    start(&p, "cs-b", "startup");
    assert_eq!(meta(&p, &current(&p).unwrap())["claude_session"], "cs-b");
    start(&p, "cs-c", "clear");
    let c = current(&p).unwrap();
    assert_eq!(meta(&p, &c)["claude_session"], "cs-c");
    assert_eq!(
        std::fs::read_dir(runs(&p))
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().is_dir())
            .count(),
        1
    );
    let out = baton(&p, Some("cs-c"), &["audit", "end"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("recorded nothing"), "{out:?}");
    assert!(index(&p).is_empty(), "{:?}", index(&p));
    assert_eq!(current(&p), None);
}

/// `/baton:start` names a session that holds this Claude session's records only: the
/// earlier Claude session's prompts stay in a session of their own.
#[test]
fn issue_12_start_never_adopts_another_claude_sessions_records() {
    let p = Project::new();
    start(&p, "cs-a", "startup");
    let a = current(&p).unwrap();
    prompt(&p, "cs-a", "what does this repository do?");
    bash(&p, "cs-a", "ls", 1);
    // B's SessionStart and SessionEnd did not reach baton (hooks installed mid-session, a
    // crash): its prompt lands in A's session, and start, run by B's model, sees that.
    prompt(&p, "cs-b", "/baton:start fix the login bug");
    let out = baton(&p, None, &["audit", "start", "fix the login bug"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout
            .contains(&format!("Ended the automatic session {a}")),
        "{}",
        out.stdout
    );
    let named = current(&p).unwrap();
    assert_ne!(named, a);
    assert_eq!(meta(&p, &named)["task"], "fix the login bug");
    assert_eq!(meta(&p, &a)["status"], "completed");
    bash(&p, "cs-b", "cargo test -p login", 2);
    let recs = records(&p, &named);
    assert!(
        recs.iter().all(|r| r["claude_session"] == "cs-b"),
        "{recs:#?}"
    );
    assert!(!format!("{recs:?}").contains("what does this repository do"));

    // With its SessionStart, the Claude session's own automatic session is named, with the
    // prompt that ran `/baton:start` and what came before it in that Claude session.
    let q = Project::new();
    start(&q, "cs-a", "startup");
    prompt(&q, "cs-a", "unrelated question");
    end_session(&q, "cs-a");
    start(&q, "cs-b", "startup");
    let b = current(&q).unwrap();
    prompt(&q, "cs-b", "/baton:start fix the login bug");
    let out = baton(&q, Some("cs-b"), &["audit", "start", "fix the login bug"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("Named the session"), "{}", out.stdout);
    assert_eq!(current(&q).as_deref(), Some(b.as_str()));
    assert_eq!(texts(&records(&q, &b)), ["/baton:start fix the login bug"]);
    // A named session outlives its Claude session, and the next one records into it.
    end_session(&q, "cs-b");
    start(&q, "cs-c", "startup");
    assert_eq!(current(&q).as_deref(), Some(b.as_str()));
    assert_eq!(meta(&q, &b)["status"], "in_progress");
}

/// `/baton:end` runs `baton audit end` before Claude Code reports the prompt; the prompt (and
/// a Bash call that ran `end`) join the ended session instead of starting an `(auto)` stub.
#[test]
fn issue_12_end_leaves_no_automatic_stub() {
    let p = Project::new();
    start(&p, "cs-a", "startup");
    prompt(&p, "cs-a", "/baton:start export the report");
    assert_eq!(
        baton(&p, Some("cs-a"), &["audit", "start", "export the report"]).code,
        0
    );
    let named = current(&p).unwrap();
    bash(&p, "cs-a", "cargo build", 1);
    // The command's shell snippet ran first.
    let out = baton(&p, Some("cs-a"), &["audit", "end"]);
    assert_eq!(out.code, 0, "{out:?}");
    prompt(&p, "cs-a", "/baton:end");
    assert_eq!(current(&p), None);
    // The skill's way: the model runs `baton audit end` with Bash.
    bash(
        &p,
        "cs-a",
        "/home/u/.claude/plugins/baton/bin/baton audit end",
        2,
    );
    // Other baton commands with no session current start none either.
    prompt(&p, "cs-a", "/baton:report-daily");
    bash(
        &p,
        "cs-a",
        "/home/u/.claude/plugins/baton/bin/baton audit report-daily",
        3,
    );
    hook(&p, "cs-a", "Stop", &json!({}));
    end_session(&p, "cs-a");
    assert_eq!(current(&p), None);
    let sessions = index(&p);
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    assert_eq!(sessions[0].2, "completed");
    let trail = records(&p, &named);
    assert!(
        texts(&trail).contains(&"/baton:end".to_string()),
        "{trail:#?}"
    );
    assert!(
        format!("{trail:?}").contains("baton audit end"),
        "{trail:#?}"
    );
    let b = backlog(&p);
    assert!(b.contains("Nothing outstanding."), "{b}");

    // A real prompt afterwards is work again: it is recorded, in a session of its own that
    // ends with the Claude session.
    start(&p, "cs-b", "startup");
    prompt(&p, "cs-b", "/baton:end");
    bash(&p, "cs-b", "git status", 4);
    end_session(&p, "cs-b");
    let sessions = index(&p);
    assert_eq!(sessions.len(), 2, "{sessions:?}");
    assert!(sessions.iter().all(|s| s.2 == "completed"), "{sessions:?}");
    assert!(backlog(&p).contains("Nothing outstanding."));
}

/// An automatic session left open (its Claude session died, nothing ended it yet) is no
/// unfinished task: the backlog, the SessionStart recap and `start` do not list it.
#[test]
fn issue_12_the_backlog_lists_no_automatic_session() {
    let p = Project::new();
    start(&p, "cs-a", "startup");
    prompt(&p, "cs-a", "look at the flaky test");
    let auto = current(&p).unwrap();
    // A session file from before sessions were keyed, left current; then made not current.
    std::fs::remove_file(runs(&p).join(".current_session")).unwrap();
    assert_eq!(baton(&p, None, &["audit", "start", "named work"]).code, 0);
    let b = backlog(&p);
    assert!(
        b.contains("unfinished session") && b.contains("named work"),
        "{b}"
    );
    assert!(
        !b.contains(&format!("{auto} ")) && !b.contains("(auto)"),
        "{b}"
    );
    let out = start(&p, "cs-b", "startup");
    let ctx = out.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!ctx.contains("Unfinished sessions"), "{ctx}");
    let status = baton(&p, None, &["audit", "status", "--json"]);
    assert_eq!(status.json()["unfinished"], json!([]), "{status:?}");
}

/// Claude Code sets CLAUDE_PROJECT_DIR for every hook; in a folder that is no git work tree
/// nothing appears, whatever runs there, unless the config says so.
#[test]
fn issue_12_no_audit_state_outside_a_git_work_tree() {
    let p = Project::new();
    let plain = p.home.path().join("notes");
    std::fs::create_dir_all(plain.join("sub")).unwrap();
    let dir = plain.to_str().unwrap().to_string();
    let run = |args: &[&str], stdin: &str, cwd: &Path| {
        let mut c = p.command(args);
        c.current_dir(cwd).env("CLAUDE_PROJECT_DIR", &dir);
        crate::harness::run_command(c, stdin.as_bytes())
    };
    let ev = |name: &str, extra: Value| {
        let mut e = json!({"session_id": "cs-plain", "cwd": plain, "hook_event_name": name});
        e.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        e.to_string()
    };
    let events = [
        ("SessionStart", json!({"source": "startup"})),
        (
            "UserPromptSubmit",
            json!({"prompt": "no, use the other API"}),
        ),
        (
            "PostToolUse",
            json!({"tool_name": "Write", "tool_input": {"file_path": plain.join("a.md")}, "tool_use_id": "t1"}),
        ),
        ("PreCompact", json!({"trigger": "manual"})),
        ("Stop", json!({})),
        ("SessionEnd", json!({"reason": "other"})),
    ];
    for cwd in [plain.clone(), plain.join("sub")] {
        for (name, extra) in &events {
            let out = run(&["hook", name], &ev(name, extra.clone()), &cwd);
            assert_eq!(out.code, 0, "{name}: {out:?}");
        }
        for args in [
            &["audit", "status"][..],
            &["audit", "recover"],
            &["audit", "report-daily"],
            &["audit", "start", "notes"],
            &["audit", "end"],
            &["status"],
        ] {
            run(args, "", &cwd);
        }
    }
    let left: Vec<_> = walkdir::WalkDir::new(&plain)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.path().to_path_buf())
        .filter(|f| f != &plain && f != &plain.join("sub"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // Configured, it records there.
    std::fs::create_dir_all(plain.join(".claude")).unwrap();
    std::fs::write(
        plain.join(".claude/baton.yaml"),
        "state_outside_git: true\n",
    )
    .unwrap();
    let out = run(
        &["hook", "SessionStart"],
        &ev("SessionStart", json!({"source": "startup"})),
        &plain,
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(plain.join(".boo/runs/.current_session").is_file());
}

/// The slash commands and `baton` commands audit prints are the plugin's: a
/// `commands/<name>.md` for each `/baton:<name>`, a CLI subcommand for each `baton …`.
#[test]
fn issue_12_every_command_audit_prints_exists() {
    let p = Project::new();
    let mut printed = String::new();
    let mut keep = |o: Output| printed.push_str(&format!("{}\n{}\n", o.stdout, o.stderr));
    keep(start(&p, "cs-a", "startup"));
    prompt(&p, "cs-a", "no, use the other API");
    bash(&p, "cs-a", "touch x.txt", 1);
    keep(baton(&p, Some("cs-a"), &["audit", "start", "a task"]));
    keep(baton(&p, Some("cs-a"), &["audit", "start", "another task"]));
    keep(baton(
        &p,
        None,
        &["audit", "start", "--force", "forced task"],
    ));
    keep(start(&p, "cs-b", "startup"));
    for args in [
        &["audit", "status"][..],
        &["audit", "recover"],
        &["audit", "recover", "full"],
        &["audit", "report-daily", "review"],
        &["audit", "end"],
        &["audit", "end"],
        &["audit", "persist", "c-00000000", "--to", "x"],
    ] {
        keep(baton(&p, None, args));
    }
    let commands: Vec<String> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("commands"))
            .unwrap()
            .filter_map(|e| {
                e.unwrap()
                    .file_name()
                    .into_string()
                    .ok()?
                    .strip_suffix(".md")
                    .map(str::to_string)
            })
            .collect();
    // A slash command: `/name` after a space, quote or bracket, not followed by `/` (a path).
    let mut slash = 0;
    for (at, _) in printed.match_indices('/') {
        let before = printed[..at].chars().last().unwrap_or(' ');
        if !(before.is_whitespace() || "`'\"(".contains(before)) {
            continue;
        }
        let name: String = printed[at + 1..]
            .chars()
            .take_while(|c| {
                c.is_ascii_alphanumeric() || *c == '-' || *c == ':' || *c == '.' || *c == '_'
            })
            .collect();
        if name.is_empty() || printed[at + 1 + name.len()..].starts_with('/') {
            continue;
        }
        let cmd = name.strip_prefix("baton:");
        assert!(
            cmd.is_some_and(|c| commands.iter().any(|x| x == c)),
            "/{name} is not a command of this plugin:\n{printed}"
        );
        slash += 1;
    }
    assert!(slash > 0, "{printed}");
    let mut cli = 0;
    for (at, _) in printed.match_indices("`baton ") {
        let words: Vec<&str> = printed[at + 1..]
            .split('`')
            .next()
            .unwrap()
            .split_whitespace()
            .skip(1)
            .take_while(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
            .take(2)
            .collect();
        let mut args = words.clone();
        args.push("--help");
        let out = p.run(&args, b"", &[]);
        assert_eq!(
            out.code,
            0,
            "`baton {}` is no command: {out:?}",
            words.join(" ")
        );
        cli += 1;
    }
    assert!(cli > 0, "{printed}");
    for word in ["datarim", "weave", "dr-next", "tasks.md"] {
        assert!(!printed.to_lowercase().contains(word), "{word}: {printed}");
    }
}

/// The daily report's backlog shows what `baton bridge save` recorded as blocked, read by the
/// bridge's own reader (`**Blocked:**` items of the newest progress entry), and only that.
#[test]
fn issue_12_the_backlog_shows_the_blocked_items_bridge_save_wrote() {
    let p = Project::new();
    let save = |yaml: &str, now: &str| {
        let out = p.run(&["bridge", "save"], yaml.as_bytes(), &[("BATON_NOW", now)]);
        assert_eq!(out.code, 0, "{out:?}");
    };
    save(
        "summary: release prep\nprogress:\n  completed: [changelog]\n  in_progress: [packaging]\n  blocked: [\"signing — waiting for the release key\", \"docs: review by Ann\"]\n  next: [tag v1]\n",
        "2026-11-30T09:00:00Z",
    );
    let b = backlog(&p);
    assert!(
        b.contains("- blocked: signing — waiting for the release key\n"),
        "{b}"
    );
    assert!(b.contains("- blocked: docs: review by Ann\n"), "{b}");
    assert!(!b.contains("packaging") && !b.contains("tag v1"), "{b}");
    let review = baton(&p, None, &["audit", "report-daily", "review"]);
    assert!(
        review.stdout.contains("Unblock the blocked items"),
        "{review:?}"
    );
    // A later save that says nothing about progress keeps them; one that is blocked no more
    // clears them.
    save("summary: only notes\n", "2026-11-30T10:00:00Z");
    assert!(backlog(&p).contains("blocked: docs: review by Ann"));
    save(
        "summary: unblocked\nprogress:\n  completed: [signing]\n  blocked: []\n",
        "2026-11-30T11:00:00Z",
    );
    assert!(!backlog(&p).contains("blocked:"), "{}", backlog(&p));
}

/// Ending moves a session's records to its trail: a hook ends only one small enough to move
/// within its time, and lets a bigger one go (not current any more) for a command to end.
#[test]
fn issue_12_a_hook_lets_go_of_an_automatic_session_too_big_to_end() {
    let p = Project::new();
    start(&p, "cs-a", "startup");
    let a = current(&p).unwrap();
    prompt(&p, "cs-a", "a long day");
    let line = format!(
        "{{\"claude_session\":\"cs-a\",\"id\":\"t-{{}}\",\"input\":\"{}\",\"outcome\":\"ok\",\"tool\":\"Bash\",\"ts\":\"2026-11-30T10:15:00.000Z\",\"type\":\"data\"}}\n",
        "x".repeat(180)
    );
    let mut big = String::new();
    for i in 0..40_000 {
        big.push_str(&line.replace("{}", &i.to_string()));
    }
    let pending = runs(&p).join(&a).join("audit_pending.jsonl");
    std::fs::write(&pending, &big).unwrap();
    end_session(&p, "cs-a");
    assert_eq!(current(&p), None);
    assert_eq!(meta(&p, &a)["status"], "in_progress");
    // Its buffer (the prompt) moved to pending as at every SessionEnd; nothing to the trail.
    assert!(std::fs::metadata(&pending).unwrap().len() > big.len() as u64);
    assert!(!runs(&p).join(&a).join("audit_trail.jsonl").exists());
    // The next Claude session records into a session of its own.
    start(&p, "cs-b", "startup");
    assert_ne!(current(&p).as_deref(), Some(a.as_str()));
    let out = baton(&p, None, &["audit", "end", "--session", &a, "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(meta(&p, &a)["status"], "completed");
    assert!(
        std::fs::metadata(runs(&p).join(&a).join("audit_trail.jsonl"))
            .unwrap()
            .len()
            > 8 << 20
    );
}

/// Issue 15: the hooks never rewrite the session index, which holds every session ever
/// recorded: they append their changes to its journal (one numbered line each), and the
/// next audit command folds them into index.json.
#[test]
fn issue_15_hooks_journal_their_index_changes_and_a_command_folds_them_in() {
    let p = Project::new();
    let index_json = p.root.join(".boo/index.json");
    let journal = p.root.join(".boo/index.journal.jsonl");
    start(&p, "cs-a", "startup");
    bash(&p, "cs-a", "cargo test", 1);
    end_session(&p, "cs-a");
    start(&p, "cs-b", "startup");
    let written = std::fs::read(&index_json).unwrap();
    bash(&p, "cs-b", "cargo build", 2);
    end_session(&p, "cs-b");
    start(&p, "cs-c", "startup");
    assert_eq!(
        std::fs::read(&index_json).unwrap(),
        written,
        "no hook rewrote it"
    );
    let lines: Vec<Value> = std::fs::read_to_string(&journal)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let seqs: Vec<u64> = lines.iter().map(|l| l["seq"].as_u64().unwrap()).collect();
    assert!(
        seqs.len() >= 2 && seqs.windows(2).all(|w| w[1] == w[0] + 1),
        "{lines:?}"
    );
    // A session start of an automatic session is quiet (issue 34): no recap, no list.
    let recap = start(&p, "cs-c", "resume").json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(!recap.contains("Audit trail"), "{recap}");
    let b = index(&p);
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), "", "folded");
    let statuses: Vec<&str> = b.iter().map(|e| e.2.as_str()).collect();
    assert_eq!(statuses, ["completed", "completed", "in_progress"], "{b:?}");
}
