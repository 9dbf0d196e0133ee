//! capture through the real binary: a fabricated Claude Code transcript under a temp HOME's
//! `.claude/projects/<project folder>/<session>.jsonl`; Stop updates the session digest, and
//! SessionStart of another session says where that one left off.

use crate::harness::{Output, Project};
use serde_json::{json, Value};
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

const S1: &str = "11111111-1111-4111-8111-111111111111";
const S2: &str = "22222222-2222-4222-8222-222222222222";

/// Claude Code's folder name for a project path.
pub(crate) fn folder_name(p: &Path) -> String {
    p.to_str()
        .unwrap()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

pub(crate) fn transcript_path(p: &Project, sid: &str) -> PathBuf {
    p.home
        .path()
        .join(".claude/projects")
        .join(folder_name(&p.root))
        .join(format!("{sid}.jsonl"))
}

pub(crate) fn write_transcript(path: &Path, lines: &[Value]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    for l in lines {
        writeln!(f, "{l}").unwrap();
    }
}

pub(crate) fn event(p: &Project, name: &str, sid: &str, extra: &Value) -> String {
    let mut v = json!({
        "session_id": sid,
        "transcript_path": transcript_path(p, sid),
        "cwd": p.root,
        "hook_event_name": name,
    });
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v.to_string()
}

pub(crate) fn stop(p: &Project, sid: &str, last: &str) -> Output {
    let ev = event(
        p,
        "Stop",
        sid,
        &json!({"stop_hook_active": false, "last_assistant_message": last}),
    );
    p.hook("Stop", ev.as_bytes())
}

pub(crate) fn session_start(p: &Project, sid: &str, source: &str) -> String {
    let out = p.hook(
        "SessionStart",
        event(p, "SessionStart", sid, &json!({"source": source})).as_bytes(),
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
    out.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

pub(crate) fn prompt(text: &str) -> Value {
    json!({"type": "user", "isSidechain": false, "timestamp": "2026-11-30T09:00:00.000Z",
           "message": {"role": "user", "content": text}})
}

pub(crate) fn call(msg: &str, id: &str, name: &str, input: &Value) -> Value {
    json!({"type": "assistant", "isSidechain": false, "timestamp": "2026-11-30T09:05:00.000Z",
           "message": {"id": msg, "role": "assistant",
                       "content": [{"type": "tool_use", "id": id, "name": name, "input": input}]}})
}

pub(crate) fn result(id: &str, content: &str, is_error: bool, tool_use_result: &Value) -> Value {
    json!({"type": "user", "isSidechain": false, "toolUseResult": tool_use_result,
           "message": {"role": "user", "content": [
               {"type": "tool_result", "tool_use_id": id, "content": content, "is_error": is_error}]}})
}

/// A session like the one the issue describes: a request, three tasks (one completed, one in
/// progress), a file written, a failing command, and the assistant's last words.
fn session_one(p: &Project) -> Vec<Value> {
    let file = p.root.join("notes/widget.txt");
    let mut lines = vec![prompt("Build the widget parser and keep the docs in step")];
    for (i, subject) in ["Write the parser", "Add widget tests", "Update the docs"]
        .iter()
        .enumerate()
    {
        let n = i + 1;
        lines.push(call(
            &format!("m{n}"),
            &format!("t{n}"),
            "TaskCreate",
            &json!({"subject": subject, "description": "x"}),
        ));
        lines.push(result(
            &format!("t{n}"),
            &format!("Task #{n} created successfully: {subject}"),
            false,
            &json!({"task": {"id": n.to_string(), "subject": subject}}),
        ));
    }
    lines.extend([
        call("m4", "t4", "TaskUpdate", &json!({"taskId": "1", "status": "completed"})),
        result("t4", "Updated task #1 status", false, &json!({"success": true, "taskId": "1"})),
        call("m5", "t5", "TaskUpdate", &json!({"taskId": "2", "status": "in_progress"})),
        result("t5", "Updated task #2 status", false, &json!({"success": true, "taskId": "2"})),
        call("m6", "t6", "Write", &json!({"file_path": file, "content": "hello\n"})),
        result("t6", "File created successfully", false, &json!({"type": "create", "filePath": file})),
        call("m7", "t7", "Bash", &json!({"command": "cargo test widget", "description": "run tests"})),
        result("t7", "Exit code 101\n   Compiling widget\nerror[E0599]: no method named `parse_all` found", true, &json!("Error: Exit code 101")),
        json!({"type": "assistant", "message": {"id": "m8", "content": [{"type": "text", "text": "The widget test fails; next I will add parse_all."}]}}),
    ]);
    lines
}

fn digest_files(p: &Project) -> Vec<PathBuf> {
    walkdir::WalkDir::new(p.home.path().join(".local/state/baton"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "json"))
        .map(walkdir::DirEntry::into_path)
        .collect()
}

#[test]
fn stop_updates_the_digest_and_the_next_session_starts_where_it_left_off() {
    let p = Project::new();
    write_transcript(&transcript_path(&p, S1), &session_one(&p));
    let out = stop(&p, S1, "The widget test fails; next I will add parse_all.");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (0, "", ""),
        "{out:?}"
    );

    let files = digest_files(&p);
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(
        files[0].ends_with(format!("sessions/{S1}.json")),
        "{files:?}"
    );
    let mode = std::fs::metadata(&files[0]).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let digest: Value = serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    assert_eq!(digest["version"], 3);
    assert_eq!(digest["digest"]["counts"]["tool_calls"], 7);
    assert!(
        !p.root.join(".local").exists(),
        "nothing of capture's in the project"
    );

    // A fresh session of the same project sees it.
    let ctx = session_start(&p, S2, "startup");
    assert!(ctx.contains("## Where the last session left off"), "{ctx}");
    assert!(
        ctx.contains("Build the widget parser and keep the docs in step"),
        "{ctx}"
    );
    let open = ctx
        .lines()
        .find(|l| l.starts_with("- Open tasks:"))
        .unwrap();
    assert!(
        open.contains("Add widget tests\" (in progress)")
            && open.contains("Update the docs\" (pending)"),
        "{open}"
    );
    assert!(
        !open.contains("Write the parser"),
        "a completed task shown as open: {open}"
    );
    assert!(
        ctx.contains("error[E0599]: no method named `parse_all` found"),
        "{ctx}"
    );
    assert!(ctx.contains("\"cargo test widget\" (exit 101)"), "{ctx}");
    assert!(ctx.contains("notes/widget.txt"), "{ctx}");
    assert!(ctx.contains("next I will add parse_all"), "{ctx}");

    // The session itself, a compaction, and capture switched off: nothing.
    assert!(!session_start(&p, S1, "startup").contains("Where the last session"));
    assert!(!session_start(&p, S2, "compact").contains("Where the last session"));
    p.write(".claude/baton.yaml", "capture: {enabled: false}\n");
    assert!(!session_start(&p, S2, "startup").contains("Where the last session"));

    // What the CLI says.
    std::fs::remove_file(p.root.join(".claude/baton.yaml")).unwrap();
    let out = p.run(&["capture", "show", "--json"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["digest"]["session_id"], S1);
    let out = p.run(&["capture", "status"], b"", &[]);
    assert!(
        out.stdout.contains("1 digest(s) for this project"),
        "{out:?}"
    );
    assert!(out.stdout.contains(S1), "{out:?}");
}

#[test]
fn a_later_stop_adds_only_what_is_new_and_session_end_marks_the_end() {
    let p = Project::new();
    let path = transcript_path(&p, S1);
    write_transcript(&path, &session_one(&p));
    stop(&p, S1, "first stop");
    write_transcript(
        &path,
        &[
            prompt("no, keep parse_all private"),
            call(
                "m9",
                "t9",
                "TaskUpdate",
                &json!({"taskId": "2", "status": "completed"}),
            ),
            call(
                "m10",
                "t10",
                "Bash",
                &json!({"command": "cargo test widget"}),
            ),
            result(
                "t10",
                "test result: ok",
                false,
                &json!({"stdout": "ok", "stderr": ""}),
            ),
        ],
    );
    stop(&p, S1, "All green now.");
    let out = p.hook(
        "SessionEnd",
        event(
            &p,
            "SessionEnd",
            S1,
            &json!({"reason": "prompt_input_exit"}),
        )
        .as_bytes(),
    );
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (0, "", ""),
        "{out:?}"
    );
    let out = p.run(&["capture", "show", S1, "--json"], b"", &[]);
    let d = &out.json()["digest"];
    assert_eq!(d["counts"]["prompts"], 2);
    assert_eq!(d["counts"]["tool_calls"], 9);
    assert_eq!(
        d["failures"].as_array().unwrap().len(),
        0,
        "the command passed later: {d}"
    );
    assert_eq!(d["corrections"][0], "no, keep parse_all private");
    assert_eq!(d["ended"], "2026-11-30T10:15:00Z");
    assert_eq!(d["end_reason"], "prompt_input_exit");
    assert_eq!(d["last_assistant"], "All green now.");
    assert_eq!(
        d["counts"]["bytes_read"],
        std::fs::metadata(&path).unwrap().len()
    );
    let ctx = session_start(&p, S2, "clear");
    assert!(ctx.contains("ended 2026-11-30 10:15 UTC"), "{ctx}");
    assert!(!ctx.contains("- Last failure"), "{ctx}");
    assert!(
        ctx.contains("- Open tasks: #3 \"Update the docs\" (pending)\n"),
        "{ctx}"
    );
}

#[test]
fn a_subagents_work_does_not_pollute_the_main_lists() {
    let p = Project::new();
    let side = |v: Value| {
        let mut v = v;
        v["isSidechain"] = json!(true);
        v["agentId"] = json!("a69e613d948a4ba6f");
        v
    };
    let mut lines = session_one(&p);
    lines.extend([
        call("m20", "t20", "Agent", &json!({"description": "check the build", "prompt": "run it", "subagent_type": "general-purpose"})),
        side(prompt("run it")),
        // The same ids as the main session's: a subagent numbers its own calls.
        side(call("m1", "t1", "Bash", &json!({"command": "echo x > SUBAGENT-ONLY.txt; exit 3"}))),
        side(result("t1", "Exit code 3\nfatal: SUBAGENT-ONLY failure", true, &json!("Error: Exit code 3"))),
        side(call("m2", "t2", "Write", &json!({"file_path": p.root.join("SUBAGENT-WRITE.rs"), "content": ""}))),
        side(call("m3", "t3", "TaskCreate", &json!({"subject": "SUBAGENT-TASK", "description": "x"}))),
        result("t20", "the build is fine", false, &json!({"status": "completed", "agentId": "a69e613d948a4ba6f"})),
    ]);
    write_transcript(&transcript_path(&p, S1), &lines);
    assert_eq!(stop(&p, S1, "").code, 0);
    let ctx = session_start(&p, S2, "startup");
    assert!(!ctx.contains("SUBAGENT"), "{ctx}");
    assert!(
        ctx.contains("error[E0599]"),
        "the main session's failure stays the last: {ctx}"
    );
    let d = p.run(&["capture", "show", "--json"], b"", &[]).json()["digest"].clone();
    assert_eq!(d["counts"]["sidechain_entries"], 5);
    assert_eq!(d["counts"]["sidechain_tool_calls"], 3);
    assert_eq!(d["counts"]["tool_calls"], 8);
    assert_eq!(d["subagents"][0], "check the build");
}

#[test]
fn another_projects_or_a_missing_transcript_is_not_read_and_a_linked_one_is_reported() {
    let p = Project::new();
    // The right file name, in another project's folder.
    let foreign = p
        .home
        .path()
        .join(".claude/projects/-some-other-project")
        .join(format!("{S1}.jsonl"));
    write_transcript(&foreign, &session_one(&p));
    let ev = event(
        &p,
        "Stop",
        S1,
        &json!({"transcript_path": foreign, "stop_hook_active": false}),
    );
    let out = p.hook("Stop", ev.as_bytes());
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (0, "", ""),
        "{out:?}"
    );
    assert!(digest_files(&p).is_empty());
    let out = p.run(&["capture", "show"], b"", &[]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("no session digest"), "{out:?}");

    // Not written yet (Claude Code writes it lazily; a short session's Stop can come first).
    let out = stop(&p, S1, "done");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (0, "", ""),
        "{out:?}"
    );

    // This project's folder, but the transcript is a link to it: one line, exit 0.
    let mine = transcript_path(&p, S1);
    std::fs::create_dir_all(mine.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&foreign, &mine).unwrap();
    let out = stop(&p, S1, "");
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stderr.lines().count(), 1, "{out:?}");
    assert!(
        out.stderr.contains("capture: refusing to follow symlink"),
        "{out:?}"
    );
    assert!(out.json()["systemMessage"]
        .as_str()
        .unwrap()
        .contains("capture:"));
    assert!(digest_files(&p).is_empty());

    // A FIFO where the transcript should be: refused at once, never waited on.
    std::fs::remove_file(&mine).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&mine).status();
    if made.is_ok_and(|s| s.success()) {
        let out = stop(&p, S1, "");
        assert_eq!(out.code, 0, "{out:?}");
        assert!(out.stderr.contains("a FIFO"), "{out:?}");
    }
}

#[test]
fn secrets_in_the_transcript_reach_neither_the_digest_nor_the_next_session() {
    let p = Project::new();
    let token = ["ghp_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"].concat();
    let key = ["sk-ant-", "api03-abcdefghijklmnopqrstuvwxyz0123"].concat();
    write_transcript(
        &transcript_path(&p, S1),
        &[
            prompt(&format!("push with {token} please")),
            call(
                "m1",
                "t1",
                "Bash",
                &json!({"command": format!("ANTHROPIC_API_KEY={key} ./deploy.sh > deploy-{token}.log")}),
            ),
            result(
                "t1",
                &format!("Exit code 1\nerror: key {key} rejected"),
                true,
                &json!("Error: Exit code 1"),
            ),
        ],
    );
    let out = stop(&p, S1, &format!("I used {token}."));
    assert_eq!(out.code, 0, "{out:?}");
    let text = std::fs::read_to_string(&digest_files(&p)[0]).unwrap();
    assert!(!text.contains(&token) && !text.contains(&key), "{text}");
    let ctx = session_start(&p, S2, "startup");
    assert!(ctx.contains("Where the last session left off"), "{ctx}");
    assert!(!ctx.contains(&token) && !ctx.contains(&key), "{ctx}");
}

/// Hooks get CLAUDE_PLUGIN_DATA, the model's Bash tool and a shell do not: all of them read
/// and write the one private folder, and `baton capture status` names that one.
#[test]
fn issue_39_hooks_and_the_cli_share_one_private_folder() {
    let p = Project::new();
    let data = p.home.path().join(".claude/plugins/data/baton-inline");
    std::fs::create_dir_all(&data).unwrap();
    write_transcript(&transcript_path(&p, S1), &session_one(&p));
    let root = p.root.to_str().unwrap().to_string();
    let env = [
        ("CLAUDE_PROJECT_DIR", root.as_str()),
        ("CLAUDE_PLUGIN_DATA", data.to_str().unwrap()),
    ];
    let ev = event(&p, "Stop", S1, &json!({"stop_hook_active": false}));
    let out = p.run(&["hook", "Stop"], ev.as_bytes(), &env);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{out:?}");
    assert_eq!(
        digest_files(&p).len(),
        1,
        "the digest is in the private folder"
    );
    assert_eq!(
        std::fs::read_dir(&data).unwrap().count(),
        0,
        "nothing in the plugin's data folder"
    );
    let ev = event(&p, "SessionStart", S2, &json!({"source": "startup"}));
    let out = p.run(&["hook", "SessionStart"], ev.as_bytes(), &env);
    let ctx = out.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(ctx.contains("Where the last session left off"), "{ctx}");
    // The CLI, run outside Claude Code, finds it there, and names one folder.
    let out = p.run(&["capture", "show", "--json"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        Path::new(out.json()["path"].as_str().unwrap()),
        digest_files(&p)[0]
    );
    let out = p.run(&["capture", "status"], b"", &[]);
    let state = p.home.path().join(".local/state/baton");
    assert_eq!(
        out.stdout.matches(state.to_str().unwrap()).count(),
        2,
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("read from"), "{}", out.stdout);
    assert!(!out.stdout.contains(".claude/plugins"), "{}", out.stdout);
}

#[test]
fn issue_11_pre_compact_fills_the_automatic_checkpoint_from_the_session() {
    let p = Project::new();
    // A project that uses the bridge (hooks create no .rune/ elsewhere).
    std::fs::create_dir_all(p.root.join(".rune")).unwrap();
    write_transcript(&transcript_path(&p, S1), &session_one(&p));
    let ev = event(
        &p,
        "PreCompact",
        S1,
        &json!({"trigger": "auto", "custom_instructions": null}),
    );
    let out = p.hook("PreCompact", ev.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    // The compaction happened: the session start after it puts the checkpoint in place.
    let after = event(&p, "SessionStart", S1, &json!({"source": "compact"}));
    assert_eq!(p.hook("SessionStart", after.as_bytes()).code, 0);
    let cp = std::fs::read_to_string(p.root.join(".rune/checkpoint.md")).unwrap();
    let doing = cp.split("## What I Was Doing\n").nth(1).unwrap_or("");
    assert!(
        doing.starts_with(
            "Build the widget parser and keep the docs in step — in progress: the model's task \"Add widget tests\""
        ),
        "{cp}"
    );
    let left = cp.split("## What's Left").nth(1).unwrap_or("");
    assert!(
        left.contains(
            "1. the model's task \"Add widget tests\"\n2. the model's task \"Update the docs\"\n"
        ),
        "{cp}"
    );
    assert!(
        !left.contains("Write the parser"),
        "a completed task is left: {cp}"
    );
    assert!(
        cp.contains("Last failure (the session's tool output): \"cargo test widget\""),
        "{cp}"
    );
    assert!(cp.contains("parse_all"), "{cp}");
    assert!(cp.contains("Files in flight: notes/widget.txt"), "{cp}");
    assert!(
        cp.contains("## Resume Command\nThe session's next step (its words, quoted): \"Continue task #2: Add widget tests\"\n"),
        "{cp}"
    );
    // The compaction instructions keep the user's words word for word, and the session's
    // facts (the model's and the tools' text) as data — never its text word for word.
    assert!(
        out.stdout.contains(
            "Keep the user's own words, word for word: the request \"Build the widget parser and keep the docs in step\""
        ),
        "{out:?}"
    );
    assert!(
        out.stdout.contains("#2 Add widget tests (in progress)"),
        "{out:?}"
    );
    assert!(
        !out.stdout.contains("resume point word for word"),
        "{out:?}"
    );
}

#[test]
fn issue_11_the_automatic_handoff_artefact_carries_the_captured_session() {
    let p = Project::new();
    // A project that keeps handoff artefacts (the automatic save is written only there).
    std::fs::create_dir_all(p.root.join("datarim/sessions")).unwrap();
    write_transcript(&transcript_path(&p, S1), &session_one(&p));
    let ev = event(
        &p,
        "PreCompact",
        S1,
        &json!({"trigger": "auto", "custom_instructions": null}),
    );
    let out = p.hook("PreCompact", ev.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    let dir = p.root.join("datarim/sessions");
    let artefact = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".session.md"))
        .expect("an automatic artefact");
    let text = std::fs::read_to_string(&artefact).unwrap();
    let layer2 = text
        .split("## Layer 2")
        .nth(1)
        .unwrap()
        .split("## Layer 3")
        .next()
        .unwrap();
    assert!(
        layer2.contains("- Add widget tests (in_progress)"),
        "{text}"
    );
    assert!(layer2.contains("- Update the docs (pending)"), "{text}");
    assert!(!layer2.contains("Write the parser"), "{text}");
    assert!(text.contains("notes/widget.txt"), "{text}");
    let layer5 = text.split("## Layer 5").nth(1).unwrap();
    assert!(layer5.contains("`cargo test widget` failed"), "{text}");
    assert!(
        // The model's task, quoted (escaped inside the YAML front matter).
        text.contains(r#"continue the task in progress: \"Add widget tests\""#),
        "{text}"
    );
    // The artefact is valid for datarim's consumer.
    let check = p.run(&["handoff", "check", artefact.to_str().unwrap()], b"", &[]);
    assert_eq!(check.code, 0, "{check:?}");
}

#[test]
fn issue_11_the_relay_packet_takes_the_captured_open_work_as_findings() {
    let p = Project::new();
    p.write(
        ".handoff/loop/loop_state.md",
        "loop_id: WL-004\ncycles_this_session: 5\ncycle_budget: 5\n",
    );
    write_transcript(&transcript_path(&p, S1), &session_one(&p));
    let out = stop(&p, S1, "The widget test fails; next I will add parse_all.");
    assert_eq!(out.code, 0, "{out:?}");
    let packet = std::fs::read_to_string(p.root.join(".handoff/packets/latest.md")).unwrap();
    let front = packet.split("\n---\n").next().unwrap();
    assert!(front.contains("`cargo test widget` failed"), "{packet}");
    assert!(
        front.contains("open task: Add widget tests (in_progress, captured)"),
        "{packet}"
    );
    assert!(!front.contains("Write the parser"), "{packet}");

    // Findings the loop wrote itself are never replaced.
    let out = p.run(
        &[
            "relay",
            "handoff",
            "--finding",
            "the loop's own finding",
            "--no-stdin",
        ],
        b"",
        &[("BATON_NOW", "2026-11-30T11:00:00Z")],
    );
    assert_eq!(out.code, 0, "{out:?}");
    p.write(
        ".handoff/loop/loop_state.md",
        &std::fs::read_to_string(p.root.join(".handoff/loop/loop_state.md"))
            .unwrap()
            .replace("cycles_this_session: 0", "cycles_this_session: 5"),
    );
    stop(&p, S1, "again");
    let packet = std::fs::read_to_string(p.root.join(".handoff/packets/latest.md")).unwrap();
    assert!(packet.contains("the loop's own finding"), "{packet}");
    assert!(!packet.contains("(captured)"), "{packet}");
}

#[test]
fn issue_18_recall_finds_a_captured_session() {
    let p = Project::new();
    write_transcript(&transcript_path(&p, S1), &session_one(&p));
    stop(&p, S1, "The widget test fails; next I will add parse_all.");
    let out = p.run(
        &["recall", "widget", "parser", "--kind", "session", "--json"],
        b"",
        &[],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let text = out.stdout;
    assert!(text.contains("Build the widget parser"), "{text}");
    assert!(text.contains(&S1[..8]), "{text}");
}

/// Issue 35: audit (the PostToolUse event) and capture (the same call in the transcript, read
/// at Stop) read a Bash command with one lexer, so the audit trail and the digest name the
/// same files, in the same order: a heredoc's decoy redirect is left out, a write by
/// descriptor 2 counts, `tee` and `cp` name theirs.
#[test]
fn issue_35_one_bash_call_names_the_same_files_in_the_audit_trail_and_the_digest() {
    let p = Project::new();
    let command = "cat > notes.md <<'EOF'\nline > fake.txt\nEOF\ngrep -rn TODO src 2> errors.log | tee -a todo.txt && cp notes.md ./backup/";
    let input = json!({"command": command, "description": "notes"});
    write_transcript(
        &transcript_path(&p, S1),
        &[
            prompt("Collect the TODOs into notes"),
            call("m1", "t1", "Bash", &input),
            result("t1", "", false, &json!({"stdout": ""})),
        ],
    );
    let post = event(
        &p,
        "PostToolUse",
        S1,
        &json!({"tool_name": "Bash", "tool_input": input, "tool_response": {"stdout": ""}, "tool_use_id": "t1"}),
    );
    assert_eq!(p.hook("PostToolUse", post.as_bytes()).code, 0);
    assert_eq!(stop(&p, S1, "Done.").code, 0);

    let want = ["notes.md", "errors.log", "todo.txt", "backup/"];
    let digest = p.run(&["capture", "show", "--json"], b"", &[]).json();
    assert_eq!(digest["digest"]["files"], json!(want), "{digest}");
    let records: Vec<Value> = walkdir::WalkDir::new(p.root.join(".boo/runs"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        .flat_map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap();
            text.lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .collect::<Vec<_>>()
        })
        .filter(|r| r["tool_use_id"] == "t1")
        .collect();
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0]["type"], "change");
    assert_eq!(records[0]["path"], want[0]);
    assert_eq!(records[0]["paths"], json!(want), "{}", records[0]);
}
