//! relay: `baton relay handoff | resume | cycle | status` and its SessionStart / Stop hooks,
//! on real temp git repositories.

use crate::harness::{Output, Project};
use std::path::Path;

const PACKET: &str = ".handoff/packets/latest.md";
const LOOP_STATE: &str = ".handoff/loop/loop_state.md";
const NEEDS_HUMAN: &str = ".handoff/loop/NEEDS-HUMAN";
const VERIFY: &str = ".handoff/loop/verify-on-resume.sh";

const STATE_YAML: &str = "loop_id: WL-012
orchestrator_phase: verify
verifier_status: green
guardian_verdict: pass
pr_url: https://example.invalid/pr/12
landed_this_session: 3
open_findings: [\"flaky test in tests/net.rs\", \"README out of date\"]
decisions: [\"keep git2 without default features\"]
";

fn repo(p: &Project) -> git2::Repository {
    git2::Repository::open(&p.root).unwrap()
}

fn head(p: &Project) -> (String, String) {
    let r = repo(p);
    let c = r.head().unwrap().peel_to_commit().unwrap();
    (c.id().to_string(), c.message().unwrap_or("").to_string())
}

fn commit_count(p: &Project) -> usize {
    let r = repo(p);
    let mut walk = r.revwalk().unwrap();
    walk.push_head().unwrap();
    walk.count()
}

/// Paths the HEAD commit changed, sorted.
fn head_paths(p: &Project) -> Vec<String> {
    let r = repo(p);
    let c = r.head().unwrap().peel_to_commit().unwrap();
    let parent = c.parent(0).ok().map(|p| p.tree().unwrap());
    let diff = r
        .diff_tree_to_tree(parent.as_ref(), Some(&c.tree().unwrap()), None)
        .unwrap();
    let mut v: Vec<String> = diff
        .deltas()
        .map(|d| d.new_file().path().unwrap().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn read(p: &Project, rel: &str) -> String {
    std::fs::read_to_string(p.root.join(rel)).unwrap()
}

fn exists(p: &Project, rel: &str) -> bool {
    p.root.join(rel).exists()
}

fn relay(p: &Project, args: &[&str], stdin: &str) -> Output {
    let mut all = vec!["relay"];
    all.extend_from_slice(args);
    p.run(&all, stdin.as_bytes(), &[])
}

fn relay_at(p: &Project, args: &[&str], stdin: &str, now: &str) -> Output {
    let mut all = vec!["relay"];
    all.extend_from_slice(args);
    p.run(&all, stdin.as_bytes(), &[("BATON_NOW", now)])
}

/// Replaces the temp root in `text` so snapshots are stable.
fn stable(p: &Project, text: &str) -> String {
    text.replace(p.root.to_str().unwrap(), "[ROOT]")
}

fn handed_off(p: &Project) -> Output {
    let out = relay(p, &["handoff"], STATE_YAML);
    assert_eq!(out.code, 0, "{out:?}");
    out
}

#[test]
fn handoff_commits_exactly_the_packet_and_loop_state() {
    let p = Project::new();
    // The user's own work: a modified tracked file, a staged new file, an untracked file.
    p.write("README.md", "# demo, edited\n");
    p.write("staged.txt", "staged by the user\n");
    let r = repo(&p);
    let mut idx = r.index().unwrap();
    idx.add_path(Path::new("staged.txt")).unwrap();
    idx.write().unwrap();
    p.write("notes.txt", "untracked\n");

    let out = handed_off(&p);
    assert!(
        out.stdout
            .trim_end()
            .ends_with("\n/baton:session-relay resume"),
        "{out:?}"
    );
    // weave is not on PATH: not in use, so nothing is said of it.
    assert!(!out.stdout.contains("heartbeat"), "{out:?}");
    let (_, msg) = head(&p);
    assert_eq!(msg, "weave-loop: handoff (at WL-012)");
    // The first hand-off also commits the folder's merge rule (one writer: `-merge`).
    assert_eq!(
        head_paths(&p),
        vec![".handoff/.gitattributes", LOOP_STATE, PACKET]
    );
    assert_eq!(commit_count(&p), 2);

    // The user's changes are exactly as they were: not committed, the staged one still staged.
    let statuses: Vec<(String, git2::Status)> = r
        .statuses(None)
        .unwrap()
        .iter()
        .map(|e| (e.path().unwrap().to_string(), e.status()))
        .collect();
    assert!(
        statuses.contains(&("README.md".into(), git2::Status::WT_MODIFIED)),
        "{statuses:?}"
    );
    assert!(
        statuses.contains(&("staged.txt".into(), git2::Status::INDEX_NEW)),
        "{statuses:?}"
    );
    assert!(
        statuses.contains(&("notes.txt".into(), git2::Status::WT_NEW)),
        "{statuses:?}"
    );
    assert_eq!(statuses.len(), 3, "{statuses:?}");

    insta::assert_snapshot!("relay_packet", stable(&p, &read(&p, PACKET)));
    let state = read(&p, LOOP_STATE);
    assert!(state.contains("loop_id: WL-012\n"), "{state}");
    assert!(
        state.contains("last_handoff_packet: WL-012@2026-11-30T10:15:00Z\n"),
        "{state}"
    );
    assert!(state.contains("cycles_this_session: 0\n"), "{state}");
}

#[test]
fn second_handoff_with_the_same_state_changes_nothing() {
    let p = Project::new();
    handed_off(&p);
    let before = (head(&p), read(&p, PACKET), read(&p, LOOP_STATE));
    // Later, same state: no rewrite (written_at kept), no commit.
    let out = relay_at(&p, &["handoff"], STATE_YAML, "2026-11-30T11:00:00Z");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("already holds this state"), "{out:?}");
    assert!(out.stdout.contains("no new commit"), "{out:?}");
    assert_eq!(before, (head(&p), read(&p, PACKET), read(&p, LOOP_STATE)));
    // A changed field is a new packet and a new commit.
    let out = relay_at(
        &p,
        &["handoff", "--phase", "land"],
        STATE_YAML,
        "2026-11-30T11:05:00Z",
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(commit_count(&p), 3);
    let packet = read(&p, PACKET);
    assert!(packet.contains("orchestrator_phase: land\n"), "{packet}");
    assert!(
        packet.contains("written_at: 2026-11-30T11:05:00Z\n"),
        "{packet}"
    );
    // Fields not given carry over.
    let out = relay_at(
        &p,
        &["handoff", "--landed", "4"],
        "",
        "2026-11-30T11:10:00Z",
    );
    assert_eq!(out.code, 0, "{out:?}");
    let packet = read(&p, PACKET);
    assert!(packet.contains("orchestrator_phase: land\n"), "{packet}");
    assert!(packet.contains("landed_this_session: 4\n"), "{packet}");
    assert!(
        packet.contains("- keep git2 without default features\n"),
        "{packet}"
    );
}

#[test]
fn stop_and_needs_human_short_circuit_the_handoff() {
    for (sentinel, says) in [("STOP", "stopped"), ("NEEDS-HUMAN", "halted for a human")] {
        let p = Project::new();
        p.write(&format!(".handoff/loop/{sentinel}"), "halt\n");
        let out = relay(&p, &["handoff"], STATE_YAML);
        assert_eq!(out.code, 0, "{sentinel}: {out:?}");
        assert!(out.stdout.contains(says), "{sentinel}: {out:?}");
        assert!(
            out.stdout.contains("nothing to hand off"),
            "{sentinel}: {out:?}"
        );
        assert!(!exists(&p, PACKET), "{sentinel}");
        assert_eq!(commit_count(&p), 1, "{sentinel}");
    }
}

#[test]
fn handoff_without_a_loop_id_is_a_usage_error_and_secrets_are_redacted() {
    let p = Project::new();
    let out = relay(&p, &["handoff", "--phase", "verify"], "");
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("--loop-id WL-NNN"), "{out:?}");
    let out = relay(&p, &["handoff", "--loop-id", "../x"], "");
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("invalid loop id"), "{out:?}");
    let out = relay(&p, &["handoff"], "loop_id: WL-1\nphase: x\n");
    assert_ne!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("phase"), "{out:?}");

    let secret = ["ghp_", "abcdefghijklmnopqrstuvwxyz0123456789"].concat();
    let out = relay(
        &p,
        &[
            "handoff",
            "--loop-id",
            "WL-7",
            "--finding",
            &format!("token {secret} leaked"),
        ],
        "",
    );
    assert_eq!(out.code, 0, "{out:?}");
    let packet = read(&p, PACKET);
    assert!(
        !packet.contains(&secret) && packet.contains("[REDACTED]"),
        "{packet}"
    );
}

fn write_verify(p: &Project, body: &str) {
    p.write(VERIFY, body);
}

#[test]
fn resume_with_a_passing_verify_resets_bumps_and_commits() {
    let p = Project::new();
    handed_off(&p);
    relay(&p, &["cycle"], "");
    relay(&p, &["cycle"], "");
    write_verify(&p, "echo all good\nexit 0\n");
    let out = relay_at(&p, &["resume"], "", "2026-11-30T10:20:00Z");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout
            .contains("verify: .handoff/loop/verify-on-resume.sh passed"),
        "{out:?}"
    );
    assert!(out.stdout.contains("CYCLE mode"), "{out:?}");
    let state = read(&p, LOOP_STATE);
    assert!(state.contains("cycles_this_session: 0\n"), "{state}");
    assert!(state.contains("cycles_total: 1\n"), "{state}");
    assert!(
        state.contains("last_resumed_packet: WL-012@2026-11-30T10:15:00Z\n"),
        "{state}"
    );
    assert_eq!(head(&p).1, "weave-loop: resume (at WL-012)");
    assert_eq!(head_paths(&p), vec![LOOP_STATE]);
    // The verify script itself is the user's: not committed by the relay.
    assert!(!head_paths(&p).contains(&VERIFY.to_string()));
}

#[test]
fn resume_twice_bumps_once() {
    let p = Project::new();
    handed_off(&p);
    assert_eq!(relay(&p, &["resume"], "").code, 0);
    let after_first = (head(&p), read(&p, LOOP_STATE));
    let out = relay(&p, &["resume"], "");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("already resumed: nothing bumped"),
        "{out:?}"
    );
    assert_eq!(after_first, (head(&p), read(&p, LOOP_STATE)));
    assert!(read(&p, LOOP_STATE).contains("cycles_total: 1\n"));
    // A new handoff of the same state after a resume is a new packet, pending again.
    let out = relay_at(&p, &["handoff"], "", "2026-11-30T12:00:00Z");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(read(&p, PACKET).contains("written_at: 2026-11-30T12:00:00Z\n"));
    assert_eq!(relay(&p, &["resume"], "").code, 0);
    assert!(read(&p, LOOP_STATE).contains("cycles_total: 2\n"));
    // Even within the same second: the new packet's written_at is after the last one.
    let out = relay_at(&p, &["handoff"], "", "2026-11-30T12:00:00Z");
    assert!(out.stdout.contains("handed off WL-012"), "{out:?}");
    assert!(read(&p, PACKET).contains("written_at: 2026-11-30T12:00:01Z\n"));
    let v = relay(&p, &["status", "--json"], "").json();
    assert_eq!(v["pending"], true, "{v}");
}

#[test]
fn a_failing_verify_writes_needs_human_with_its_output_and_exits_non_zero() {
    let p = Project::new();
    handed_off(&p);
    let secret = ["ghp_", "abcdefghijklmnopqrstuvwxyz0123456789"].concat();
    write_verify(
        &p,
        &format!("echo 'cargo test: 2 failed'\necho 'token {secret}' >&2\nexit 3\n"),
    );
    let before = (head(&p), read(&p, LOOP_STATE));
    let out = relay(&p, &["resume"], "");
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("exited 3"), "{out:?}");
    assert!(out.stderr.contains("Do not continue the loop"), "{out:?}");
    assert!(out.stdout.contains("cargo test: 2 failed"), "{out:?}");
    let nh = read(&p, NEEDS_HUMAN);
    assert!(
        nh.starts_with("NEEDS-HUMAN: .handoff/loop/verify-on-resume.sh exited 3"),
        "{nh}"
    );
    assert!(nh.contains("cargo test: 2 failed"), "{nh}");
    assert!(!nh.contains(&secret) && nh.contains("[REDACTED]"), "{nh}");
    assert_eq!(before, (head(&p), read(&p, LOOP_STATE)));
    // The loop is now halted: another resume refuses without running the script.
    let out = relay(&p, &["resume"], "");
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("halted for a human"), "{out:?}");
}

#[test]
fn a_hanging_verify_is_killed_at_the_timeout_and_counts_as_a_failure() {
    let p = Project::new();
    p.write(".claude/baton.yaml", "relay:\n  verify_timeout_secs: 1\n");
    handed_off(&p);
    write_verify(&p, "echo started\nsleep 60\necho never\n");
    let start = std::time::Instant::now();
    let out = relay(&p, &["resume"], "");
    let took = start.elapsed();
    assert_eq!(out.code, 1, "{out:?}");
    assert!(took < std::time::Duration::from_secs(20), "took {took:?}");
    let nh = read(&p, NEEDS_HUMAN);
    assert!(nh.contains("timed out after 1 s and was killed"), "{nh}");
    assert!(nh.contains("started") && !nh.contains("never"), "{nh}");
    assert!(read(&p, LOOP_STATE).contains("cycles_total: 0\n"));
}

#[test]
fn resume_without_a_packet_falls_back_to_discover() {
    let p = Project::new();
    let out = relay(&p, &["resume"], "");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("DISCOVER mode"), "{out:?}");
    assert_eq!(commit_count(&p), 1);
}

#[test]
fn cycle_and_status() {
    let p = Project::new();
    p.write(".claude/baton.yaml", "relay:\n  cycle_budget: 2\n");
    let out = relay(&p, &["cycle", "--loop-id", "WL-003"], "");
    assert_eq!(
        out.stdout, "relay: cycle 1 of 2 this session (WL-003)\n",
        "{out:?}"
    );
    let out = relay(&p, &["cycle"], "");
    assert!(out.stdout.contains("Cycle budget reached"), "{out:?}");
    let out = relay(&p, &["status", "--json"], "");
    let v = out.json();
    assert_eq!(v["cycles_this_session"], 2);
    assert_eq!(v["cycle_budget"], 2);
    assert_eq!(v["loop_id"], "WL-003");
    assert_eq!(v["pending"], false);
    let out = relay(&p, &["status"], "");
    assert!(
        out.stdout
            .contains("2 of 2 this session, 0 total (budget reached: hand off)"),
        "{out:?}"
    );
}

fn stop_event(p: &Project, active: bool) -> String {
    p.event("Stop").replace(
        "\"stop_hook_active\":false",
        &format!("\"stop_hook_active\":{active}"),
    )
}

#[test]
fn stop_hook_at_the_budget_hands_off_and_never_blocks() {
    let p = Project::new();
    p.write(".claude/baton.yaml", "relay:\n  cycle_budget: 2\n");
    handed_off(&p);
    assert_eq!(
        relay_at(&p, &["resume"], "", "2026-11-30T10:20:00Z").code,
        0
    );
    let commits = commit_count(&p);
    // Under the budget: nothing.
    relay(&p, &["cycle"], "");
    let out = p.hook("Stop", stop_event(&p, false).as_bytes());
    assert_eq!((out.code, out.stdout.as_str()), (0, ""), "{out:?}");
    assert_eq!(commit_count(&p), commits);
    // At the budget: a handoff, carried over from the previous packet, committed.
    relay(&p, &["cycle"], "");
    let out = p.run(
        &["hook", "Stop"],
        stop_event(&p, false).as_bytes(),
        &[
            ("CLAUDE_PROJECT_DIR", p.root.to_str().unwrap()),
            ("BATON_NOW", "2026-11-30T11:30:00Z"),
        ],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let v = out.json();
    assert!(v.get("decision").is_none(), "{v}");
    assert!(v.get("hookSpecificOutput").is_none(), "{v}");
    let msg = v["systemMessage"].as_str().unwrap();
    assert!(
        msg.contains("cycle budget reached (2/2): handed off WL-012"),
        "{msg}"
    );
    assert_eq!(commit_count(&p), commits + 1);
    assert_eq!(head(&p).1, "weave-loop: handoff (at WL-012)");
    let packet = read(&p, PACKET);
    assert!(
        packet.contains("written_at: 2026-11-30T11:30:00Z\n"),
        "{packet}"
    );
    assert!(packet.contains("orchestrator_phase: verify\n"), "{packet}");
    // What the resumed packet landed belonged to the session before.
    assert!(packet.contains("landed_this_session: 0\n"), "{packet}");
    // Stopping again: the same state, nothing new and nothing said.
    let out = p.hook("Stop", stop_event(&p, false).as_bytes());
    assert_eq!((out.code, out.stdout.as_str()), (0, ""), "{out:?}");
    assert_eq!(commit_count(&p), commits + 1);
}

#[test]
fn stop_hook_does_nothing_when_stop_hook_active_or_a_sentinel_is_set() {
    let p = Project::new();
    p.write(".claude/baton.yaml", "relay:\n  cycle_budget: 1\n");
    relay(&p, &["cycle", "--loop-id", "WL-001"], "");
    let out = p.hook("Stop", stop_event(&p, true).as_bytes());
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (0, "", ""),
        "{out:?}"
    );
    assert!(!exists(&p, PACKET));
    p.write(".handoff/loop/STOP", "");
    let out = p.hook("Stop", stop_event(&p, false).as_bytes());
    assert_eq!((out.code, out.stdout.as_str()), (0, ""), "{out:?}");
    assert!(!exists(&p, PACKET));
    assert_eq!(commit_count(&p), 1);
}

fn context(out: &Output) -> String {
    out.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn session_start_announces_a_pending_packet() {
    let p = Project::new();
    handed_off(&p);
    let out = p.hook("SessionStart", p.event("SessionStart").as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    insta::assert_snapshot!("relay_session_start_pending", stable(&p, &context(&out)));
    // After compaction the running session keeps its loop: not announced again.
    let out = p.hook("SessionStart", p.event("SessionStart.compact").as_bytes());
    assert!(!context(&out).contains("Relay packet waiting"), "{out:?}");
    // Once resumed, nothing is pending.
    assert_eq!(relay(&p, &["resume"], "").code, 0);
    let out = p.hook("SessionStart", p.event("SessionStart").as_bytes());
    assert!(!context(&out).contains("Relay"), "{out:?}");
}

#[test]
fn session_start_banners_for_needs_human_and_stop() {
    let p = Project::new();
    handed_off(&p);
    write_verify(&p, "echo 'error: 3 tests failed'\nexit 1\n");
    assert_eq!(relay(&p, &["resume"], "").code, 1);
    let out = p.hook("SessionStart", p.event("SessionStart").as_bytes());
    let ctx = context(&out);
    assert!(ctx.contains("Do not continue the loop"), "{ctx}");
    assert!(!ctx.contains("Relay packet waiting"), "{ctx}");
    insta::assert_snapshot!("relay_session_start_needs_human", stable(&p, &ctx));

    std::fs::remove_file(p.root.join(NEEDS_HUMAN)).unwrap();
    p.write(".handoff/loop/STOP", "");
    let ctx = context(&p.hook("SessionStart", p.event("SessionStart").as_bytes()));
    assert!(ctx.contains("## Relay: loop stopped"), "{ctx}");
    assert!(!ctx.contains("Relay packet waiting"), "{ctx}");
}

/// A fake `weave` that records its arguments.
fn fake_weave(p: &Project) -> (String, std::path::PathBuf) {
    let bin = p.home.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = p.home.path().join("weave.log");
    let script = bin.join("weave");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"$@\" >> '{}'\n", log.display()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (path, log)
}

#[test]
fn heartbeat_goes_to_weave_unless_the_last_commit_is_a_bootstrap_hazard() {
    let p = Project::new();
    let (path, log) = fake_weave(&p);
    let out = p.run(
        &["relay", "handoff"],
        STATE_YAML.as_bytes(),
        &[("PATH", &path)],
    );
    assert!(
        out.stdout
            .contains("heartbeat: sent `weave send relay:handoff`"),
        "{out:?}"
    );
    let out = p.run(&["relay", "resume"], b"", &[("PATH", &path)]);
    assert!(out.stdout.contains("heartbeat: sent"), "{out:?}");
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "send relay:handoff\nsend relay:resumed\n"
    );

    // The user's last commit touched src/mcp.rs: no heartbeat.
    p.write("src/mcp.rs", "// changed\n");
    let r = repo(&p);
    let mut idx = r.index().unwrap();
    idx.add_path(Path::new("src/mcp.rs")).unwrap();
    idx.write().unwrap();
    let tree = r.find_tree(idx.write_tree().unwrap()).unwrap();
    let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
    let parent = r.head().unwrap().peel_to_commit().unwrap();
    r.commit(Some("HEAD"), &sig, &sig, "touch mcp", &tree, &[&parent])
        .unwrap();
    let out = p.run(
        &["relay", "handoff", "--phase", "land"],
        b"",
        &[("PATH", &path), ("BATON_NOW", "2026-11-30T12:00:00Z")],
    );
    assert!(
        out.stdout
            .contains("heartbeat: skipped (bootstrap hazard: the last commit touched src/mcp.rs)"),
        "{out:?}"
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 2);
}

/// Commits `rel` (written with `text`) as the user's own work.
fn commit_file(p: &Project, rel: &str, text: &str, msg: &str) {
    p.commit_file(rel, text, msg);
}

/// The seed's RESUME step 3 — "if last commit touches mcp.rs/store.rs/inject.rs/setup.rs,
/// skip heartbeat" — meant the work under the loop, but at a resume HEAD is the hand-off
/// commit (only `.handoff/`). The resume looks at every commit since the last resume (at the
/// loop's first resume, at the hand-off's parent): a work commit touching `src/mcp.rs` before
/// the hand-off suppresses `relay:resumed`, even with another commit on top of it; once
/// resumed, the next session's clean work sends it again.
#[test]
fn issue_16_a_hazard_commit_before_the_handoff_suppresses_relay_resumed() {
    let p = Project::new();
    let (path, log) = fake_weave(&p);
    let env = |now: &'static str| [("PATH", path.clone()), ("BATON_NOW", now.to_string())];
    let run = |args: &[&str], stdin: &str, now: &'static str| {
        let e = env(now);
        let e: Vec<(&str, &str)> = e.iter().map(|(k, v)| (*k, v.as_str())).collect();
        p.run(args, stdin.as_bytes(), &e)
    };
    // The loop's first session: the hazard commit right before the hand-off.
    commit_file(&p, "docs/notes.md", "notes\n", "notes");
    commit_file(&p, "src/mcp.rs", "// changed\n", "touch mcp");
    let out = run(&["relay", "handoff"], STATE_YAML, "2026-11-30T10:15:00Z");
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(head(&p).1, "weave-loop: handoff (at WL-012)");
    let out = run(&["relay", "resume"], "", "2026-11-30T10:20:00Z");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains(
            "heartbeat: skipped (bootstrap hazard: a commit since the last resume touched src/mcp.rs)"
        ),
        "{out:?}"
    );
    assert!(!std::fs::read_to_string(&log)
        .unwrap_or_default()
        .contains("relay:resumed"));

    // The next session: the hazard commit, then a clean one, then the hand-off.
    commit_file(&p, "src/mcp.rs", "// changed again\n", "touch mcp again");
    commit_file(&p, "docs/notes.md", "more notes\n", "notes again");
    let out = run(
        &["relay", "handoff", "--phase", "land"],
        "",
        "2026-11-30T11:00:00Z",
    );
    assert_eq!(out.code, 0, "{out:?}");
    let out = run(&["relay", "resume"], "", "2026-11-30T11:05:00Z");
    assert!(
        out.stdout
            .contains("bootstrap hazard: a commit since the last resume touched src/mcp.rs"),
        "{out:?}"
    );

    // The session after: clean work only; the hazard lies before the last resume.
    commit_file(&p, "docs/notes.md", "clean\n", "clean work");
    let out = run(
        &["relay", "handoff", "--phase", "verify"],
        "",
        "2026-11-30T12:00:00Z",
    );
    assert_eq!(out.code, 0, "{out:?}");
    let out = run(&["relay", "resume"], "", "2026-11-30T12:05:00Z");
    assert!(
        out.stdout
            .contains("heartbeat: sent `weave send relay:resumed`"),
        "{out:?}"
    );
}

/// The seed's RESUME step 1: "cd to the worktree in the packet. If missing, fall back to
/// weave-loop DISCOVER." A packet whose worktree is gone is not resumed (nothing verified,
/// bumped or committed; exit 0 as for no packet); `--here` resumes it where it is (a packet
/// pulled from another clone), and after that the packet counts as resumed.
#[test]
fn issue_16_a_packet_whose_worktree_is_gone_falls_back_to_discover() {
    let p = Project::new();
    handed_off(&p);
    write_verify(&p, "touch verified\nexit 0\n");
    let packet = read(&p, PACKET).replace(p.root.to_str().unwrap(), "/nonexistent/elsewhere");
    p.write(PACKET, &packet);
    let commits = commit_count(&p);
    let state = read(&p, LOOP_STATE);
    let out = relay(&p, &["resume"], "");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains(
            "the packet's worktree /nonexistent/elsewhere does not exist: packet WL-012@2026-11-30T10:15:00Z not resumed"
        ),
        "{out:?}"
    );
    assert!(
        out.stdout
            .contains("Start the weave-loop in DISCOVER mode."),
        "{out:?}"
    );
    assert!(
        out.stdout.contains("`baton relay resume --here`"),
        "{out:?}"
    );
    assert!(!exists(&p, "verified"), "the verify script ran");
    assert_eq!(commit_count(&p), commits);
    assert_eq!(read(&p, LOOP_STATE), state);
    let json = relay(&p, &["resume", "--json"], "").json();
    assert_eq!(json["result"], "worktree_missing", "{json}");
    assert_eq!(json["worktree"], "/nonexistent/elsewhere", "{json}");
    // --from is carried into the command that resumes here.
    let out = relay(&p, &["resume", "--from", PACKET], "");
    assert!(
        out.stdout
            .contains(&format!("`baton relay resume --from {PACKET} --here`")),
        "{out:?}"
    );

    // --here: resumed where the packet is, and said so.
    let out = relay(&p, &["resume", "--here"], "");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout
            .contains("the packet's worktree is /nonexistent/elsewhere: resumed in"),
        "{out:?}"
    );
    assert!(exists(&p, "verified"));
    assert_eq!(head(&p).1, "weave-loop: resume (at WL-012)");
    // Resumed once: later resumes say so instead of falling back to DISCOVER.
    let out = relay(&p, &["resume"], "");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("was already resumed"), "{out:?}");
}

#[test]
fn resume_follows_the_packets_worktree_when_it_is_another_work_tree_of_this_repository() {
    // Another work tree of the same repository: the resume (verify, loop state, commit)
    // happens there.
    let a = Project::new();
    let wt = a.home.path().join("wt2");
    repo(&a).worktree("wt2", &wt, None).unwrap();
    let out = a.run(
        &["--root", wt.to_str().unwrap(), "relay", "handoff"],
        STATE_YAML.as_bytes(),
        &[],
    );
    assert_eq!(out.code, 0, "{out:?}");
    std::fs::create_dir_all(a.root.join("inbox")).unwrap();
    std::fs::copy(wt.join(PACKET), a.root.join("inbox/packet.md")).unwrap();
    let out = relay(&a, &["resume", "--from", "inbox/packet.md"], "");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("resumed there"), "{out:?}");
    let wt_repo = git2::Repository::open(&wt).unwrap();
    let wt_head = wt_repo.head().unwrap().peel_to_commit().unwrap();
    assert_eq!(wt_head.message(), Some("weave-loop: resume (at WL-012)"));
    assert_eq!(commit_count(&a), 1);
    assert!(!exists(&a, LOOP_STATE));
}

#[test]
fn resume_does_not_trust_a_packet_worktree_outside_this_repository() {
    // A directory outside any repository (think `worktree: /`; a temp dir here, so that a
    // regression cannot write to the real `/`), and a directory of another repository:
    // neither gets its verify script run or its loop state written; the resume happens where
    // the packet is, and says so.
    let plain = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(plain.path().join(".handoff/loop")).unwrap();
    std::fs::write(plain.path().join(VERIFY), "touch ran-here\nexit 0\n").unwrap();
    let other = Project::new();
    write_verify(&other, "touch ran-here\nexit 0\n");
    let targets = [
        plain.path().display().to_string(),
        other.root.display().to_string(),
    ];
    for target in &targets {
        let p = Project::new();
        handed_off(&p);
        let packet = read(&p, PACKET).replace(
            &format!("worktree: {}", p.root.display()),
            &format!("worktree: {target}"),
        );
        assert!(
            packet.contains(&format!("worktree: {target}\n")),
            "{packet}"
        );
        p.write(PACKET, &packet);
        let out = relay(&p, &["resume"], "");
        assert_eq!(out.code, 0, "{target}: {out:?}");
        assert!(
            out.stdout.contains(&format!(
                "the packet's worktree {target} is not a work tree of this repository"
            )),
            "{target}: {out:?}"
        );
        assert!(!out.stdout.contains("resumed there"), "{target}: {out:?}");
        assert_eq!(head(&p).1, "weave-loop: resume (at WL-012)");
        assert!(read(&p, LOOP_STATE).contains("cycles_total: 1\n"));
    }
    assert!(!exists(&other, "ran-here") && !exists(&other, LOOP_STATE));
    assert!(!plain.path().join("ran-here").exists());
    assert!(!plain.path().join(LOOP_STATE).exists());
    assert_eq!(commit_count(&other), 1);
}

#[test]
fn an_ignored_handoff_dir_is_reported_not_called_committed() {
    let p = Project::new();
    p.write(".gitignore", ".handoff/\n");
    let out = relay(&p, &["handoff"], STATE_YAML);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("NOT committed: git ignores .handoff/"),
        "{out:?}"
    );
    assert_eq!(commit_count(&p), 1);
}

#[test]
fn a_project_below_the_git_top_commits_its_own_paths() {
    let p = Project::new();
    std::fs::create_dir_all(p.root.join("svc")).unwrap();
    let sub = p.root.join("svc");
    let out = p.run(
        &["--root", sub.to_str().unwrap(), "relay", "handoff"],
        STATE_YAML.as_bytes(),
        &[],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        head_paths(&p),
        vec![
            "svc/.handoff/.gitattributes",
            "svc/.handoff/loop/loop_state.md",
            "svc/.handoff/packets/latest.md"
        ]
    );
    // The SessionStart of a resumed Claude Code conversation announces it too.
    let ev = p.event("SessionStart").replace("\"startup\"", "\"resume\"");
    let out = p.run(
        &["hook", "SessionStart"],
        ev.as_bytes(),
        &[("CLAUDE_PROJECT_DIR", sub.to_str().unwrap())],
    );
    assert!(context(&out).contains("## Relay packet waiting"), "{out:?}");
}

#[test]
fn a_dangling_verify_symlink_halts_the_resume_instead_of_passing() {
    let p = Project::new();
    handed_off(&p);
    std::os::unix::fs::symlink(p.root.join("nowhere.sh"), p.root.join(VERIFY)).unwrap();
    let before = (head(&p), read(&p, LOOP_STATE));
    let out = relay(&p, &["resume"], "");
    assert_eq!(out.code, 1, "{out:?}");
    assert!(!out.stdout.contains("nothing verified"), "{out:?}");
    assert!(out.stderr.contains("symlink"), "{out:?}");
    assert!(read(&p, NEEDS_HUMAN).contains("symlink"));
    assert_eq!(before, (head(&p), read(&p, LOOP_STATE)));
    // status says so too, instead of "missing: resume verifies nothing".
    std::fs::remove_file(p.root.join(NEEDS_HUMAN)).unwrap();
    let out = relay(&p, &["status"], "");
    assert!(
        out.stdout
            .contains("(unusable: it is a symlink whose target cannot be read"),
        "{out:?}"
    );
}

#[test]
fn a_stop_created_during_verify_halts_the_resume() {
    let p = Project::new();
    handed_off(&p);
    // The person stops the loop while the (slow) verify script runs.
    write_verify(&p, "touch .handoff/loop/STOP\nexit 0\n");
    let before = (head(&p), read(&p, LOOP_STATE));
    let out = relay(&p, &["resume"], "");
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("the loop is stopped"), "{out:?}");
    assert!(!out.stdout.contains("CYCLE mode"), "{out:?}");
    assert_eq!(before, (head(&p), read(&p, LOOP_STATE)));
}

#[test]
fn a_stop_created_while_the_lock_is_held_halts_the_handoff() {
    let p = Project::new();
    handed_off(&p);
    let commits = commit_count(&p);
    // Another relay command holds the lock: its owner file names a live process (this test).
    let lock = p.root.join(".handoff/loop/.relay.lock");
    hold_lock(&lock);
    let mut c = p.command(&["relay", "handoff", "--phase", "land", "--no-stdin"]);
    c.env("BATON_NOW", "2026-11-30T11:00:00Z");
    let child = std::thread::spawn(move || crate::harness::run_command(c, b""));
    std::thread::sleep(std::time::Duration::from_millis(600));
    p.write(".handoff/loop/STOP", "");
    std::fs::remove_dir_all(&lock).unwrap();
    let out = child.join().unwrap();
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("nothing to hand off"), "{out:?}");
    assert!(!read(&p, PACKET).contains("orchestrator_phase: land"));
    assert_eq!(commit_count(&p), commits);
}

#[test]
fn a_broken_packet_is_refused_by_handoff_and_surfaced_at_session_start_and_in_status() {
    let p = Project::new();
    handed_off(&p);
    let broken = read(&p, PACKET).replace("open_findings:", "open_findings: [unclosed\nx:");
    p.write(PACKET, &broken);
    let commits = commit_count(&p);
    let out = relay_at(
        &p,
        &["handoff", "--loop-id", "WL-012", "--no-stdin"],
        "",
        "2026-11-30T09:00:00Z",
    );
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(out.stderr.lines().count(), 1, "{out:?}");
    assert!(out.stderr.contains(PACKET), "{out:?}");
    assert!(out.stderr.contains("fix the file, or delete it"), "{out:?}");
    assert!(!out.stderr.contains("hook input"), "{out:?}");
    assert_eq!(read(&p, PACKET), broken);
    assert_eq!(commit_count(&p), commits);

    let out = p.hook("SessionStart", p.event("SessionStart").as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    let msg = out.json()["systemMessage"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        msg.contains(PACKET) && msg.contains("not valid YAML"),
        "{out:?}"
    );

    let out = relay(&p, &["status"], "");
    assert!(out.stdout.contains("BROKEN"), "{out:?}");
    assert!(out.stdout.contains("fix it or delete it"), "{out:?}");

    // The Stop hook at the budget does not hand off over it either; it says why.
    let state = read(&p, LOOP_STATE).replace("cycle_budget: 5", "cycle_budget: 1");
    p.write(LOOP_STATE, &state);
    assert_eq!(relay(&p, &["cycle"], "").code, 0);
    let out = p.hook("Stop", stop_event(&p, false).as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    let msg = out.json()["systemMessage"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        msg.contains("not handing off") && msg.contains(PACKET),
        "{msg}"
    );
    assert_eq!(read(&p, PACKET), broken);
    assert_eq!(commit_count(&p), commits);
}

#[test]
fn a_secret_in_a_sentinel_is_redacted_on_stdout() {
    let p = Project::new();
    p.write(
        ".claude/baton.yaml",
        "redact:\n  extra_patterns: ['acme-[0-9]{6}']\n",
    );
    handed_off(&p);
    let secret = ["ghp_", "abcdefghijklmnopqrstuvwxyz0123456789"].concat();
    p.write(
        NEEDS_HUMAN,
        &format!("NEEDS-HUMAN: by hand\ntoken {secret}\ninternal acme-123456\n"),
    );
    for args in [
        &["resume"][..],
        &["resume", "--json"],
        &["status"],
        &["status", "--json"],
    ] {
        let out = relay(&p, args, "");
        for leaked in [secret.as_str(), "acme-123456"] {
            assert!(
                !out.stdout.contains(leaked) && !out.stderr.contains(leaked),
                "{args:?}: {out:?}"
            );
        }
    }
    let out = relay(&p, &["resume"], "");
    assert!(out.stdout.contains("[REDACTED]"), "{out:?}");
    // The status screen's sentinel line is the first line; a secret there is redacted too.
    p.write(NEEDS_HUMAN, &format!("verify leaked {secret}\n"));
    let out = relay(&p, &["status"], "");
    assert!(!out.stdout.contains(&secret), "{out:?}");
    assert!(out.stdout.contains("[REDACTED]"), "{out:?}");
}

#[test]
fn a_config_with_problems_refuses_state_changes_instead_of_running_on_defaults() {
    let p = Project::new();
    // paths.relay is set, but cycle_budget: 0 makes the whole file fall back to the defaults.
    p.write(
        ".claude/baton.yaml",
        "paths:\n  relay: state/relay\nrelay:\n  cycle_budget: 0\n",
    );
    for args in [
        &["cycle", "--loop-id", "WL-001"][..],
        &["handoff", "--loop-id", "WL-001", "--no-stdin"],
        &["resume"],
    ] {
        let out = relay(&p, args, "");
        assert_eq!(out.code, 1, "{args:?}: {out:?}");
        assert!(
            out.stderr.contains("relay.cycle_budget"),
            "{args:?}: {out:?}"
        );
        assert!(
            out.stderr
                .contains("fix .claude/baton.yaml (baton doctor lists all)"),
            "{args:?}: {out:?}"
        );
        assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
    }
    assert!(!exists(&p, ".handoff") && !exists(&p, "state"));
    assert_eq!(commit_count(&p), 1);
    // status still runs, with a warning.
    let out = relay(&p, &["status"], "");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("baton: warning:"), "{out:?}");
    assert!(out.stdout.starts_with("relay — "), "{out:?}");
}

#[test]
fn the_stop_hook_does_not_hand_off_on_a_config_with_problems() {
    let p = Project::new();
    p.write(".claude/baton.yaml", "relay:\n  cycle_budget: 1\n");
    relay(&p, &["cycle", "--loop-id", "WL-001"], "");
    p.write(
        ".claude/baton.yaml",
        "relay:\n  cycle_budget: 1\n  bogus_key: 1\n",
    );
    let out = p.hook("Stop", stop_event(&p, false).as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    let msg = out.json()["systemMessage"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        msg.contains("not handing off on the default config"),
        "{msg}"
    );
    assert!(!exists(&p, PACKET));
    assert_eq!(commit_count(&p), 1);
}

#[test]
fn loop_state_lines_of_keys_baton_does_not_own_survive_a_rewrite() {
    let p = Project::new();
    p.write(
        LOOP_STATE,
        "# mine\nowner: \"team a\"\nx: \"\"\nnote: 'a: b'\nloop_id: WL-004\ncycles_this_session: 0\n",
    );
    assert_eq!(relay(&p, &["cycle"], "").code, 0);
    let state = read(&p, LOOP_STATE);
    assert!(
        state.starts_with(
            "# mine\nowner: \"team a\"\nx: \"\"\nnote: 'a: b'\nloop_id: WL-004\ncycles_this_session: 1\n"
        ),
        "{state}"
    );
}

/// A project at its cycle budget (1), with a packet handed off before.
fn at_the_budget(p: &Project) {
    p.write(
        ".claude/baton.yaml",
        "relay:\n  cycle_budget: 1\n  heartbeat_timeout_ms: 10000\n",
    );
    handed_off(p);
    assert_eq!(relay_at(p, &["resume"], "", "2026-11-30T10:20:00Z").code, 0);
    assert_eq!(relay(p, &["cycle"], "").code, 0);
}

#[test]
fn the_stop_hook_skips_the_handoff_quickly_when_the_lock_is_held() {
    let p = Project::new();
    at_the_budget(&p);
    let commits = commit_count(&p);
    // Another relay command holds the lock (fresh, no owner file: not stale).
    hold_lock(&p.root.join(".handoff/loop/.relay.lock"));
    let start = std::time::Instant::now();
    let out = p.hook("Stop", stop_event(&p, false).as_bytes());
    let took = start.elapsed();
    assert_eq!(out.code, 0, "{out:?}");
    let msg = out.json()["systemMessage"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        msg.contains("another relay command holds the lock") && msg.contains("handoff skipped"),
        "{msg}"
    );
    assert!(took < std::time::Duration::from_secs(8), "took {took:?}");
    assert_eq!(commit_count(&p), commits);
}

#[test]
fn the_stop_hook_caps_a_slow_heartbeat_under_its_timeout() {
    let p = Project::new();
    at_the_budget(&p);
    let bin = p.home.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("weave"), "#!/bin/sh\nsleep 30\n").unwrap();
    std::fs::set_permissions(
        bin.join("weave"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let start = std::time::Instant::now();
    let out = p.run(
        &["hook", "Stop"],
        stop_event(&p, false).as_bytes(),
        &[
            ("CLAUDE_PROJECT_DIR", p.root.to_str().unwrap()),
            ("BATON_NOW", "2026-11-30T11:30:00Z"),
            ("PATH", &path),
        ],
    );
    let took = start.elapsed();
    assert_eq!(out.code, 0, "{out:?}");
    let msg = out.json()["systemMessage"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(msg.contains("handed off WL-012"), "{msg}");
    assert_eq!(head(&p).1, "weave-loop: handoff (at WL-012)");
    // 10 s of configured heartbeat would take the hook past 10 s; capped, it ends by ~8 s,
    // well inside the Stop hook's 15 s timeout.
    assert!(took < std::time::Duration::from_secs(11), "took {took:?}");
}

#[test]
fn resume_in_the_packets_worktree_refuses_when_that_worktree_config_has_problems() {
    let a = Project::new();
    let wt = a.home.path().join("wt3");
    repo(&a).worktree("wt3", &wt, None).unwrap();
    let out = a.run(
        &["--root", wt.to_str().unwrap(), "relay", "handoff"],
        STATE_YAML.as_bytes(),
        &[],
    );
    assert_eq!(out.code, 0, "{out:?}");
    // The worktree's config goes bad after the handoff (it is not committed there).
    std::fs::create_dir_all(wt.join(".claude")).unwrap();
    std::fs::write(wt.join(".claude/baton.yaml"), "relay:\n  cycle_budget: 0\n").unwrap();
    std::fs::create_dir_all(a.root.join("inbox")).unwrap();
    std::fs::copy(wt.join(PACKET), a.root.join("inbox/packet.md")).unwrap();
    let before = std::fs::read_to_string(wt.join(LOOP_STATE)).unwrap();
    let out = relay(&a, &["resume", "--from", "inbox/packet.md"], "");
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("relay.cycle_budget"), "{out:?}");
    assert!(out.stderr.contains("baton doctor lists all"), "{out:?}");
    assert_eq!(
        std::fs::read_to_string(wt.join(LOOP_STATE)).unwrap(),
        before
    );
}

/// A lock directory held by a live process (this test's): an owner file naming its pid.
fn hold_lock(lock: &Path) {
    std::fs::create_dir_all(lock).unwrap();
    std::fs::write(
        lock.join("owner"),
        format!("pid={}\ntoken=test-holder\n", std::process::id()),
    )
    .unwrap();
}

#[test]
fn issue_9_a_fifo_at_the_packet_path_does_not_hang_the_hooks_or_status() {
    let p = Project::new();
    p.write(
        LOOP_STATE,
        "loop_id: WL-1\ncycles_this_session: 5\ncycle_budget: 5\n",
    );
    let fifo = p.root.join(PACKET);
    std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
    let st = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(st.success());
    // A watchdog unblocks a reader stuck on the FIFO, so a regression fails instead of hanging.
    let watch = fifo.clone();
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(15));
        let _ = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(watch);
    });
    let start = std::time::Instant::now();
    let out = p.hook("SessionStart", p.event("SessionStart").as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    let msg = out.json()["systemMessage"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(msg.contains("not a regular file"), "{out:?}");
    // At the budget, Stop says why it does not hand off instead of hanging on the packet.
    let out = p.hook("Stop", stop_event(&p, false).as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("not handing off") && out.stdout.contains("not a regular file"),
        "{out:?}"
    );
    let out = relay(&p, &["status"], "");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("BROKEN"), "{out:?}");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(10),
        "hung on the FIFO"
    );
}
