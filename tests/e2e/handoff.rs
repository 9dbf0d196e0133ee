//! The handoff inside Claude Code: `/baton:dr-save` runs its `!` lines (a fresh id, a draft
//! body), the scripted model writes the body and calls the writer, and the artefact lands;
//! the next session names it at SessionStart, and `/baton:dr-continue` replays it with the
//! re-verification first.

use crate::mock_api::{MockApi, Recorded, Turn};
use crate::support::{claude_or_skip, result_text, tool_result_texts, Sandbox};
use serde_json::json;
use std::fs;
use std::os::unix::fs::PermissionsExt;

/// With `BATON_NOW` pinned, `baton handoff new-id` answers this id.
const ID: &str = "SESSION-20261130-101500";
const NOW: &str = "2026-11-30T10:15:00Z";

const BODY: &str = "## Layer 1 — Git State\n\nrepo: .  branch: main  status: clean\n\n\
## Layer 2 — Active Tasks\n\nE2E-0001 | in_progress\n\n## Layer 3 — Related Files\n\n\
- README.md — read\n\n## Layer 4 — Open Questions\n\nNone.\n\n\
## Layer 5 — Failed Approaches\n\nNone tried yet.\n";

fn first_main_request(requests: &[Recorded]) -> &Recorded {
    crate::mock_api::main_requests(requests)
        .first()
        .copied()
        .expect("a main-loop request")
}

#[test]
fn dr_save_then_dr_continue_through_claude_code() {
    let Some(claude) = claude_or_skip("handoff") else {
        return;
    };
    let sandbox = Sandbox::new();
    fs::write(sandbox.project.join("README.md"), "# demo\n").unwrap();
    let body = sandbox.root.join("body.md");
    let tasks = sandbox.root.join("tasks.txt");
    let baton = sandbox.plugin.join("bin/baton");
    let write = format!(
        "{} handoff write --session {ID} --captured-by agent --recommended-next '/dr-next E2E-0001' \
         --next-action 'finish the e2e suite' --active-tasks-file {} --body-file {}",
        baton.display(),
        tasks.display(),
        body.display()
    );
    let api = MockApi::with_script(vec![
        Turn::Tool {
            name: "Write".into(),
            input: json!({"file_path": body, "content": BODY}),
        },
        Turn::Tool {
            name: "Write".into(),
            input: json!({"file_path": tasks, "content": "E2E-0001 | in_progress\n"}),
        },
        Turn::bash(&write),
        Turn::Text("Saved. E2E-FINAL".into()),
    ]);
    let (run, stream) = sandbox.claude_p_env(
        &claude,
        &api,
        "/baton:dr-save E2E-0001",
        "Bash Write",
        "dr-save",
        &[("BATON_NOW", NOW)],
    );
    assert!(run.status.success(), "{}", run.describe());
    assert!(
        result_text(&stream).contains("E2E-FINAL"),
        "{}",
        run.describe()
    );
    let requests = api.requests();
    // The command's `!` lines ran before the prompt reached the model.
    let first = first_main_request(&requests);
    assert!(
        first.body.contains(ID),
        "the new id did not reach the model"
    );
    assert!(
        first.body.contains("Layer 1"),
        "the draft body did not reach the model"
    );

    let artefact = sandbox
        .project
        .join(format!("datarim/sessions/{ID}.session.md"));
    let text = fs::read_to_string(&artefact)
        .unwrap_or_else(|e| panic!("no artefact ({e})\n{}", run.describe()));
    assert!(
        text.starts_with("---\nartifact: session-handoff\n"),
        "{text}"
    );
    assert!(text.contains("next_action: finish the e2e suite"), "{text}");
    let mode = fs::metadata(&artefact).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    // The writer's resume block came back to the model as the Bash result.
    let results: Vec<String> = requests
        .iter()
        .flat_map(|r| tool_result_texts(&r.json()))
        .collect();
    assert!(
        results
            .iter()
            .any(|t| t.contains(&format!("/baton:dr-continue {ID}"))),
        "no resume block in the tool results: {results:?}"
    );

    dr_continue(&claude, &sandbox);
}

/// A new session: SessionStart names the artefact, and `/baton:dr-continue` replays it.
fn dr_continue(claude: &std::path::Path, sandbox: &Sandbox) {
    let baton = sandbox.plugin.join("bin/baton");
    let continue_cmd = format!("{} handoff continue {ID}", baton.display());
    let api = MockApi::with_script(vec![
        Turn::bash(&continue_cmd),
        Turn::Text("Resumed. E2E-FINAL".into()),
    ]);
    let (run, stream) = sandbox.claude_p(
        claude,
        &api,
        &format!("/baton:dr-continue {ID}"),
        "Bash",
        "dr-continue",
    );
    assert!(run.status.success(), "{}", run.describe());
    assert!(
        result_text(&stream).contains("E2E-FINAL"),
        "{}",
        run.describe()
    );
    let requests = api.requests();
    let first = first_main_request(&requests);
    assert!(
        first.body.contains(&format!("/baton:dr-continue {ID}")),
        "SessionStart did not name the saved artefact"
    );
    let results: Vec<String> = requests
        .iter()
        .flat_map(|r| tool_result_texts(&r.json()))
        .collect();
    assert!(
        results
            .iter()
            .any(|t| t.contains("Re-verification") && t.contains("finish the e2e suite")),
        "no replay in the tool results: {results:?}"
    );
}

/// Issue #16: the draft `/baton:dr-save` hands the model carries the active task's stage
/// snapshot (Layer 2), the command asks for the stale-runtime detector before the resume
/// block, and `/baton:dr-continue TASK-ID` resumes the newest session of that task in
/// datarim's `done before:` form. (`E2E-0001` of the test above is no datarim task id: the
/// part before the dash is 2 to 10 capitals.)
#[test]
fn issue_16_dr_save_reuses_the_snapshot_and_dr_continue_takes_a_task_id() {
    let Some(claude) = claude_or_skip("handoff") else {
        return;
    };
    let sandbox = Sandbox::new();
    let datarim = sandbox.project.join("datarim");
    fs::create_dir_all(datarim.join("snapshots")).unwrap();
    fs::write(
        datarim.join("tasks.md"),
        "## Active\n- ETOE-0001 · in_progress · P1 · L2 · Finish the e2e suite → tasks/e.md\n",
    )
    .unwrap();
    fs::write(
        datarim.join("snapshots/ETOE-0001.snapshot.md"),
        "---\ntask_id: ETOE-0001\nstage: plan\n---\n\nSNAPSHOT-MARKER: plan approved, phase 1 next.\n",
    )
    .unwrap();
    let body = sandbox.root.join("body.md");
    let tasks = sandbox.root.join("tasks.txt");
    let baton = sandbox.plugin.join("bin/baton");
    let write = format!(
        "{} handoff write --session {ID} --captured-by agent --recommended-next '/dr-next ETOE-0001' \
         --next-action 'finish the e2e suite' --active-tasks-file {} --body-file {}",
        baton.display(),
        tasks.display(),
        body.display()
    );
    let api = MockApi::with_script(vec![
        Turn::Tool {
            name: "Write".into(),
            input: json!({"file_path": body, "content": BODY}),
        },
        Turn::Tool {
            name: "Write".into(),
            input: json!({"file_path": tasks, "content": "ETOE-0001 | in_progress\n"}),
        },
        Turn::bash(&write),
        Turn::Text("Saved. E2E-FINAL".into()),
    ]);
    let (run, _) = sandbox.claude_p_env(
        &claude,
        &api,
        "/baton:dr-save",
        "Bash Write",
        "dr-save-snapshot",
        &[("BATON_NOW", NOW)],
    );
    assert!(run.status.success(), "{}", run.describe());
    let requests = api.requests();
    let first = first_main_request(&requests);
    assert!(
        first.body.contains("SNAPSHOT-MARKER: plan approved"),
        "the snapshot did not reach the model in the draft"
    );
    assert!(
        first.body.contains("handoff stale-runtime --repo"),
        "the command does not ask for the stale-runtime detector"
    );

    let continue_cmd = format!("{} handoff continue ETOE-0001", baton.display());
    let api = MockApi::with_script(vec![
        Turn::bash(&continue_cmd),
        Turn::Text("Resumed. E2E-FINAL".into()),
    ]);
    let (run, _) = sandbox.claude_p(
        &claude,
        &api,
        "/baton:dr-continue ETOE-0001",
        "Bash",
        "dr-continue-task",
    );
    assert!(run.status.success(), "{}", run.describe());
    let results: Vec<String> = api
        .requests()
        .iter()
        .flat_map(|r| tool_result_texts(&r.json()))
        .collect();
    assert!(
        results
            .iter()
            .any(|t| t.contains(&format!("ETOE-0001 → {ID}"))
                && t.contains("\ndone before:\n")
                && t.contains("/dr-next ETOE-0001")),
        "no replay of the task's session in the tool results: {results:?}"
    );
}
