//! The plugin's fixed cost on every request (issue 39): what a Messages request carries with
//! baton installed and not in the same folder — skill descriptions, slash commands, MCP
//! instructions, tool schemas — measured from the requests the stand-in of the API received.
//! The folder is not a git repository, so baton's hooks add no context of their own: the
//! difference is what every turn of every session pays. Target: at most 2,500 characters,
//! with every capability still there (the recall and timeline tools, the four skills, the
//! slash commands when typed).

use crate::mock_api::{main_requests, MockApi};
use crate::support::*;
use serde_json::Value;
use std::fs;

/// The most characters the plugin may add to a request.
const BUDGET: usize = 2_500;

/// The first main-loop request of `claude -p hello` in `dir`, with or without the plugin.
fn first_request(
    sandbox: &Sandbox,
    claude: &std::path::Path,
    dir: &std::path::Path,
    plugin: bool,
) -> Value {
    let api = MockApi::start();
    let mut cmd = sandbox.claude(claude, &api.base_url());
    cmd.current_dir(dir).args(["-p", "hello"]);
    if plugin {
        cmd.arg("--plugin-dir").arg(&sandbox.plugin);
    }
    cmd.args(STREAM_JSON).args(["--allowedTools", "Bash"]);
    let label = if plugin {
        "with-plugin"
    } else {
        "without-plugin"
    };
    let run = run(cmd, &sandbox.root, label);
    assert!(run.status.success(), "{}", run.describe());
    let requests = api.requests();
    main_requests(&requests)
        .first()
        .unwrap_or_else(|| panic!("{label}: no main-loop request\n{}", run.describe()))
        .json()
}

/// Characters of `v` written as compact JSON.
fn chars(v: &Value) -> usize {
    v.to_string().chars().count()
}

/// `a - b`, signed.
fn less(a: usize, b: usize) -> i64 {
    i64::try_from(a).unwrap() - i64::try_from(b).unwrap()
}

/// Characters of every string in `v` (what the model reads, without JSON's quoting).
fn text_chars(v: &Value) -> usize {
    match v {
        Value::String(s) => s.chars().count(),
        Value::Array(a) => a.iter().map(text_chars).sum(),
        Value::Object(o) => o.values().map(text_chars).sum(),
        _ => 0,
    }
}

#[test]
fn issue_39_the_plugin_adds_at_most_2500_characters_to_every_request() {
    let Some(claude) = claude_or_skip("overhead") else {
        return;
    };
    let sandbox = Sandbox::new();
    let plain = sandbox.root.join("plain");
    fs::create_dir_all(&plain).unwrap();
    // The same folder and HOME: the requests differ by the plugin alone.
    let without = first_request(&sandbox, &claude, &plain, false);
    let with = first_request(&sandbox, &claude, &plain, true);

    let names = |r: &Value| -> Vec<String> {
        r["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap_or("").to_string())
            .collect()
    };
    let before = names(&without);
    let added: Vec<&Value> = with["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| !before.contains(&t["name"].as_str().unwrap_or("").to_string()))
        .collect();
    let tools: usize = added.iter().map(|t| chars(t)).sum();
    let listing = less(
        text_chars(&with["messages"]),
        text_chars(&without["messages"]),
    );
    let system = less(text_chars(&with["system"]), text_chars(&without["system"]));
    let total = less(chars(&with), chars(&without));
    eprintln!(
        "e2e: the plugin adds {total} characters to every request: tool schemas {tools}, skill and command listing and MCP instructions {listing}, system prompt {system}"
    );
    assert!(
        total <= i64::try_from(BUDGET).unwrap(),
        "the plugin adds {total} characters to every request (budget {BUDGET}): tools {tools}, messages {listing}, system {system}"
    );

    // Nothing was cut that the model needs: both tools, the four skills.
    let added_names: Vec<&str> = added.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        added_names,
        [
            "mcp__plugin_baton_baton__recall",
            "mcp__plugin_baton_baton__timeline"
        ]
    );
    let text = with["messages"].to_string();
    for skill in [
        "baton:audit-session",
        "baton:session-bridge",
        "baton:session-handoff-writer",
        "baton:session-relay",
    ] {
        assert!(text.contains(skill), "{skill} is not offered");
    }
}
