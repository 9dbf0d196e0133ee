//! The relay inside Claude Code: a session whose Stop fires at the cycle budget leaves a
//! committed packet, and the next session's first request carries the resume notice.

use crate::mock_api::MockApi;
use crate::support::{claude_or_skip, result_text, Sandbox};
use std::fs;

#[test]
fn stop_at_the_cycle_budget_hands_off_and_the_next_session_is_told_to_resume() {
    let Some(claude) = claude_or_skip("relay") else {
        return;
    };
    let sandbox = Sandbox::new();
    let loop_dir = sandbox.project.join(".handoff/loop");
    fs::create_dir_all(&loop_dir).unwrap();
    fs::write(
        loop_dir.join("loop_state.md"),
        "loop_id: WL-007\ncycles_this_session: 5\ncycle_budget: 5\ncycles_total: 2\n",
    )
    .unwrap();

    // Session 1: one tool call, then Stop at the budget → handoff.
    let api = MockApi::start();
    let (run, stream) = sandbox.claude_p(&claude, &api, "next cycle", "Bash", "relay-1");
    assert!(run.status.success(), "{}", run.describe());
    assert!(
        result_text(&stream).contains("E2E-FINAL"),
        "{}",
        run.describe()
    );

    let packet = sandbox.project.join(".handoff/packets/latest.md");
    let text = fs::read_to_string(&packet)
        .unwrap_or_else(|e| panic!("no packet after Stop ({e})\n{}", run.describe()));
    assert!(text.contains("loop_id: WL-007"), "{text}");
    let repo = git2::Repository::open(&sandbox.project).unwrap();
    let head = repo.head().unwrap().peel_to_commit().unwrap();
    assert_eq!(head.message(), Some("weave-loop: handoff (at WL-007)"));
    let tree = head.tree().unwrap();
    assert!(tree
        .get_path(std::path::Path::new(".handoff/packets/latest.md"))
        .is_ok());

    // Session 2: the first main-loop request tells the model to resume.
    let api = MockApi::start();
    let (run, _) = sandbox.claude_p(&claude, &api, "hello", "Bash", "relay-2");
    assert!(run.status.success(), "{}", run.describe());
    let first = api
        .requests()
        .into_iter()
        .find(crate::mock_api::Recorded::is_main_loop)
        .expect("a main-loop request");
    assert!(
        first.body.contains("baton relay resume --from"),
        "the first request carries no resume notice"
    );
    assert!(first.body.contains("WL-007"));
}
