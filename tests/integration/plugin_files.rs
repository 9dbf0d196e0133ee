//! The plugin files as Claude Code reads them: hooks.json's commands, run the way Claude Code
//! runs them.

use crate::harness::{bin, run_command, Project};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn hooks_json() -> Value {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("hooks/hooks.json"))
            .unwrap();
    serde_json::from_str(&text).unwrap()
}

fn session_start_command() -> String {
    hooks_json()["hooks"]["SessionStart"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Runs SessionStart's shell-form command as Claude Code does: `/bin/sh -c`, with
/// CLAUDE_PLUGIN_ROOT in the environment.
fn run_session_start(p: &Project, plugin_root: &Path) -> crate::harness::Output {
    let mut c = Command::new("/bin/sh");
    c.arg("-c")
        .arg(session_start_command())
        .current_dir(&p.root)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", p.home.path())
        .env("CLAUDE_PLUGIN_ROOT", plugin_root)
        .env("CLAUDE_PROJECT_DIR", &p.root);
    run_command(c, p.event("SessionStart").as_bytes())
}

#[test]
fn session_start_without_a_built_binary_tells_the_user_how_to_build_it() {
    let p = Project::new();
    let plugin = tempfile::tempdir().unwrap();
    let out = run_session_start(&p, plugin.path());
    assert_eq!(out.code, 0, "{out:?}");
    let msg = out.json()["systemMessage"].as_str().unwrap().to_string();
    assert!(
        msg.contains("cargo install --locked --path . --root ."),
        "{msg}"
    );
    assert!(msg.contains(plugin.path().to_str().unwrap()), "{msg}");
    assert_eq!(out.stdout.lines().count(), 1);
}

#[test]
fn session_start_with_the_binary_answers_through_it() {
    let p = Project::new();
    let plugin = tempfile::tempdir().unwrap();
    let b = plugin.path().join("bin/baton");
    std::fs::create_dir_all(b.parent().unwrap()).unwrap();
    // A symlink, not a copy: exec'ing a file just written can fail with ETXTBSY while
    // other test threads fork.
    std::os::unix::fs::symlink(bin(), &b).unwrap();
    let out = run_session_start(&p, plugin.path());
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.json()["hookSpecificOutput"]["hookEventName"],
        "SessionStart"
    );
}

#[test]
fn tool_and_other_events_start_no_shell_and_have_timeouts() {
    let v = hooks_json();
    let events = v["hooks"].as_object().unwrap();
    for name in [
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PreCompact",
        "PostCompact",
        "Stop",
        "SessionEnd",
    ] {
        let hook = &events[name][0]["hooks"][0];
        assert_eq!(hook["command"], "${CLAUDE_PLUGIN_ROOT}/bin/baton", "{name}");
        assert_eq!(hook["args"], serde_json::json!(["hook", name]), "{name}");
        assert!(hook["timeout"].as_u64().unwrap() > 0, "{name}");
    }
    assert_eq!(
        events["PreToolUse"][0]["matcher"],
        "Edit|Write|MultiEdit|NotebookEdit"
    );
    assert!(
        events["SessionEnd"][0]["hooks"][0]["timeout"]
            .as_u64()
            .unwrap()
            <= 2
    );
    assert!(
        events["SessionStart"][0]["hooks"][0]["timeout"]
            .as_u64()
            .unwrap()
            > 0
    );
}

#[test]
fn plugin_and_binary_versions_agree() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(".claude-plugin/plugin.json"),
    )
    .unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(".claude-plugin/marketplace.json"),
    )
    .unwrap();
    let m: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(m["plugins"][0]["version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn the_build_hint_stays_valid_json_for_any_plugin_path() {
    let p = Project::new();
    let base = tempfile::tempdir().unwrap();
    let plugin = base.path().join("we\"ird\\dir");
    std::fs::create_dir_all(&plugin).unwrap();
    let out = run_session_start(&p, &plugin);
    assert_eq!(out.code, 0, "{out:?}");
    let msg = out.json()["systemMessage"].as_str().unwrap().to_string();
    assert!(msg.contains(plugin.to_str().unwrap()), "{msg}");
}
