//! Continuity in the real Claude Code (issue 34): a session killed in the middle of a turn
//! still hands its last turn on, and a compaction in a project without `.rune/` gets the
//! request, the open tasks, the last failure and the conclusion back.

use crate::conversation::{next_action, session_id, session_starts, Conversation, Options};
use crate::mock_api::{MockApi, Turn};
use crate::support::{claude_or_skip, Sandbox};
use serde_json::json;

const FIX: &str = "Fix the tokenizer crash on empty input";
const CORRECTION: &str = "No — don't use a regex here, write a hand-rolled scanner over the bytes.";

fn task(subject: &str) -> Turn {
    Turn::tool(
        "TaskCreate",
        json!({"subject": subject, "description": subject}),
    )
}

fn update(id: &str, status: &str) -> Turn {
    Turn::tool("TaskUpdate", json!({"taskId": id, "status": status}))
}

/// A fresh session's SessionStart context.
fn fresh_context(sandbox: &Sandbox, claude: &std::path::Path, label: &str) -> String {
    let api = MockApi::conversation(vec![]);
    let mut c = Conversation::start(sandbox, claude, &api, None, &Options::default(), label);
    c.say("where were we?");
    let events = c.end();
    session_starts(&events)
        .into_iter()
        .next()
        .map(|(_, ctx)| ctx)
        .unwrap_or_default()
}

#[test]
fn issue_34_a_session_killed_mid_turn_hands_its_last_turn_on() {
    let Some(claude) = claude_or_skip("continuity kill") else {
        return;
    };
    let sandbox = Sandbox::new();
    let api = MockApi::conversation(vec![
        (
            FIX.into(),
            vec![
                task("Rewrite tokenize() without panicking"),
                update("1", "in_progress"),
                Turn::bash("echo 'FAILED tokenizer::empty_input: index out of bounds' >&2; exit 1"),
                Turn::Text("The empty input indexes past the end. I'll rewrite tokenize() with a regex.".into()),
            ],
        ),
        (
            CORRECTION.into(),
            vec![
                Turn::tool("Write", json!({"file_path": sandbox.project.join("src/scan.rs"), "content": "// scanner\n"})),
                Turn::bash("echo 'FAILED tokenizer::empty_input: unexpected EOF in scan_bytes' >&2; exit 1"),
                Turn::Hang,
            ],
        ),
    ]);
    let mut c = Conversation::start(&sandbox, &claude, &api, None, &Options::default(), "kill-1");
    c.say(FIX);
    let events = c.say_then_kill(CORRECTION, &api);
    let killed = session_id(&events).expect("the killed session's id");

    let ctx = fresh_context(&sandbox, &claude, "kill-2");
    // The lost turn is there: the correction, the failure it hit, that it was cut off.
    assert!(ctx.contains("hand-rolled scanner over the bytes"), "{ctx}");
    assert!(ctx.contains("unexpected EOF in scan_bytes"), "{ctx}");
    assert!(ctx.contains("Cut off in the middle of a turn"), "{ctx}");
    // The statement the user rejected is not handed on as the last word.
    assert!(
        !ctx.contains("with a regex."),
        "the rejected words came back:\n{ctx}"
    );
    let next = next_action(&ctx).unwrap_or_else(|| panic!("no next action in:\n{ctx}"));
    assert!(next.contains("Rewrite tokenize()"), "{next}");
    let short: String = killed.chars().take(8).collect();
    assert!(
        ctx.contains(&format!("session {short}")),
        "not the killed session's record:\n{ctx}"
    );
}

#[test]
fn issue_34_a_compaction_without_rune_gets_the_session_back() {
    let Some(claude) = claude_or_skip("continuity compact") else {
        return;
    };
    let sandbox = Sandbox::new();
    let request = "Migrate the config loader from JSON to TOML";
    let api = MockApi::conversation(vec![(
        request.into(),
        vec![
            task("Parse TOML in load_config"),
            task("Update the sample config"),
            update("1", "in_progress"),
            Turn::bash("echo 'error: expected table, found string at line 3' >&2; exit 1"),
            Turn::Text(
                "load_config parses TOML now. Still open: the sample config in docs/.".into(),
            ),
        ],
    )]);
    let mut c = Conversation::start(
        &sandbox,
        &claude,
        &api,
        None,
        &Options::default(),
        "compact-1",
    );
    c.say(request);
    c.say("/compact");
    let events = c.end();
    let after: Vec<String> = session_starts(&events)
        .into_iter()
        .filter(|(source, _)| source == "compact")
        .map(|(_, ctx)| ctx)
        .collect();
    let ctx = after
        .first()
        .unwrap_or_else(|| panic!("no SessionStart after the compaction: {events:#?}"));
    assert!(ctx.contains("before the compaction"), "{ctx}");
    for fact in [
        request,
        "Parse TOML in load_config",
        "Update the sample config",
        "expected table, found string",
        "Still open: the sample config",
    ] {
        assert!(ctx.contains(fact), "{fact:?} not given back:\n{ctx}");
    }
    assert!(
        !sandbox.project.join(".rune").exists(),
        "a .rune/ was created"
    );
}
