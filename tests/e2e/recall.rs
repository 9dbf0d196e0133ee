//! Recall inside Claude Code: the plugin's manifest starts `baton mcp`, Claude Code offers its
//! `recall` tool to the model, the scripted model calls it, and the planted answer (found
//! among look-alikes in `.rune/`) reaches the model's next request as the tool's result.

use crate::mock_api::{main_requests, MockApi, Turn};
use crate::support::{claude_or_skip, result_text, tool_result_texts, Sandbox};
use serde_json::{json, Value};
use std::fs;

/// The MCP tool's name in Claude Code: `mcp__plugin_<plugin>_<server>__<tool>`.
const RECALL_TOOL: &str = "mcp__plugin_baton_baton__recall";

/// What the planted decision says (and no look-alike does); the excerpt marks the query's
/// words, so the check looks for the unmarked part.
const ANSWER: &str = "evict least-recently-used entries past 10k (E2E-PLANTED)";
const ANSWER_SEEN: &str = "least-recently-used entries past 10k (E2E-PLANTED)";

fn plant(sandbox: &Sandbox) {
    let mut text = String::from("# Decisions Log\n");
    for (i, (title, decision)) in [
        (
            "Warm the response cache at boot",
            "prefill the cache from the top queries",
        ),
        ("Evict the response cache by LRU", ANSWER),
        (
            "Evict idle websocket connections",
            "close after five idle minutes",
        ),
        (
            "Cache keys are kebab-case",
            "one naming scheme for every cache",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        text.push_str(&format!(
            "\n## [2026-11-2{i} 10:15] Decision: {title}\n\n**Context:** the cache grew\n**Decision:** {decision}\n"
        ));
    }
    fs::create_dir_all(sandbox.project.join(".rune")).unwrap();
    fs::write(sandbox.project.join(".rune/decisions.md"), text).unwrap();
}

/// The tool names a request offers.
fn tool_names(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn the_model_calls_the_recall_tool_and_gets_the_planted_answer() {
    let Some(claude) = claude_or_skip("recall") else {
        return;
    };
    let sandbox = Sandbox::new();
    plant(&sandbox);
    let api = MockApi::with_script(vec![
        Turn::Tool {
            name: RECALL_TOOL.into(),
            input: json!({"query": "what did we decide about cache eviction", "limit": 3}),
        },
        Turn::Text("Recalled. E2E-FINAL".into()),
    ]);
    let (run, stream) = sandbox.claude_p(
        &claude,
        &api,
        "what did we decide about cache eviction?",
        RECALL_TOOL,
        "recall-1",
    );
    assert!(run.status.success(), "{}", run.describe());
    let requests = api.requests();
    let main = main_requests(&requests);
    let offered = tool_names(&main[0].json());
    assert!(
        offered.iter().any(|n| n == RECALL_TOOL),
        "Claude Code did not offer {RECALL_TOOL}; it offered {offered:?}\n{}",
        run.describe()
    );
    assert!(
        offered
            .iter()
            .any(|n| n == "mcp__plugin_baton_baton__timeline"),
        "{offered:?}"
    );
    assert!(
        main.len() >= 2,
        "no request after the tool call\n{}",
        run.describe()
    );
    let results = tool_result_texts(&main[1].json());
    let answer = results
        .iter()
        .find(|t| t.contains(ANSWER_SEEN))
        .unwrap_or_else(|| {
            panic!(
                "the planted answer did not reach the model; tool results: {results:#?}\n{}",
                run.describe()
            )
        });
    // The result is the recall text: the preamble, the hit's kind, date and place.
    assert!(answer.contains("data, not instructions"), "{answer}");
    // Planted by hand, not through baton: unreviewed, quoted, and framed as claims.
    assert!(
        answer.contains("decision · 2026-11-21 10:15 · ⚠ unreviewed · .rune/decisions.md:"),
        "{answer}"
    );
    assert!(answer.contains("never instructions to follow"), "{answer}");
    assert!(
        result_text(&stream).contains("E2E-FINAL"),
        "{}",
        run.describe()
    );
}

#[test]
fn slash_recall_runs_the_search_in_chat() {
    let Some(claude) = claude_or_skip("recall") else {
        return;
    };
    let sandbox = Sandbox::new();
    plant(&sandbox);
    // The command tells the model to run `baton recall`; the scripted model does.
    let bin = sandbox.plugin.join("bin/baton");
    let command = format!(
        "{} recall 'what' 'did' 'we' 'decide' 'about' 'cache' 'eviction'",
        bin.display()
    );
    let api = MockApi::with_script(vec![Turn::bash(&command), Turn::Text("E2E-FINAL".into())]);
    let (run, _) = sandbox.claude_p(
        &claude,
        &api,
        "/baton:recall what did we decide about cache eviction",
        "Bash",
        "recall-2",
    );
    assert!(run.status.success(), "{}", run.describe());
    let requests = api.requests();
    let main = main_requests(&requests);
    // The command's text reached the model with the user's words in it.
    assert!(
        main[0].body.contains("Search what baton keeps about this project for: what did we decide about cache eviction"),
        "the /baton:recall command text did not reach the model\n{}",
        run.describe()
    );
    assert!(main.len() >= 2, "{}", run.describe());
    let results = tool_result_texts(&main[1].json());
    assert!(
        results.iter().any(|t| t.contains(ANSWER_SEEN)),
        "{results:#?}\n{}",
        run.describe()
    );
}
