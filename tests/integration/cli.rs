//! The CLI around the hook: `--help`, `status`, `doctor`.

use crate::harness::{bin, Project};
use std::path::{Path, PathBuf};

#[test]
fn help_lists_the_commands_and_bad_usage_is_one_clear_error() {
    let p = Project::new();
    let out = p.run(&["--help"], b"", &[]);
    assert_eq!(out.code, 0);
    for cmd in ["hook", "status", "doctor"] {
        assert!(out.stdout.contains(cmd), "{}", out.stdout);
    }
    let out = p.run(&["frobnicate"], b"", &[]);
    assert_eq!(
        out.code, 2,
        "usage errors of the CLI (not the hook) exit 2: {out:?}"
    );
    assert!(out.stderr.contains("unrecognized subcommand"), "{out:?}");
}

#[test]
fn issue_10_a_secret_given_to_a_bad_flag_is_not_echoed() {
    let p = Project::new();
    let key = ["ghp_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"].concat();
    let pem = [
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx7abc\n-----END RSA ",
        "PRIVATE KEY-----",
    ]
    .concat();
    for secret in [&key, &pem] {
        // clap quotes a bad value in its error.
        let out = p.run(&["relay", "handoff", "--landed", secret], b"", &[]);
        assert_eq!(out.code, 2, "{out:?}");
        assert!(!out.stderr.contains("MIIEowIBAAKCAQEAx7abc"), "{out:?}");
        assert!(!out.stderr.contains(&key), "{out:?}");
    }
}

#[test]
fn status_shows_which_subsystems_have_state() {
    let p = Project::new();
    p.write(".boo/index.json", "[]");
    let out = p.run(&["status", "--json"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    let v = out.json();
    let subs = v["subsystems"].as_array().unwrap();
    let with: Vec<&str> = subs
        .iter()
        .filter(|s| s["has_state"] == true)
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(with, vec!["audit"]);
    p.write(".rune/decisions.md", "# Decisions\n");
    let v = p.run(&["status", "--json"], b"", &[]).json();
    assert!(
        v["details"][0]
            .as_str()
            .unwrap()
            .starts_with("session-bridge: "),
        "{v}"
    );
    let text = p.run(&["status"], b"", &[]);
    assert!(
        text.stdout.contains("  session-bridge: "),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .contains("audit    .boo/                has state"),
        "{}",
        text.stdout
    );
}

/// A copy of the plugin (manifest, hooks) in a temp dir, with or without `bin/baton`.
fn plugin_copy(with_binary: bool) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for rel in [
        ".claude-plugin/plugin.json",
        ".claude-plugin/marketplace.json",
        "hooks/hooks.json",
    ] {
        let to = t.path().join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(repo.join(rel), to).unwrap();
    }
    if with_binary {
        let b: PathBuf = t.path().join("bin/baton");
        std::fs::create_dir_all(b.parent().unwrap()).unwrap();
        // A symlink, not a copy: exec'ing a file just written can fail with ETXTBSY while
        // other test threads fork.
        std::os::unix::fs::symlink(bin(), &b).unwrap();
    }
    t
}

#[test]
fn doctor_is_healthy_on_a_built_plugin() {
    let p = Project::new();
    let plugin = plugin_copy(true);
    let out = p.run(
        &["doctor"],
        b"",
        &[("CLAUDE_PLUGIN_ROOT", plugin.path().to_str().unwrap())],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stdout.contains("FAIL"), "{}", out.stdout);
    for name in [
        "binary",
        "plugin.json",
        "hooks.json",
        "git",
        "config",
        "audit dir",
    ] {
        assert!(out.stdout.contains(name), "{name} missing:\n{}", out.stdout);
    }
}

#[test]
fn doctor_says_how_to_fix_a_missing_binary_and_a_bad_config() {
    let p = Project::new();
    p.write(".claude/baton.yaml", "context_budget_chars: many\n");
    let plugin = plugin_copy(false);
    let out = p.run(
        &["doctor", "--json"],
        b"",
        &[("CLAUDE_PLUGIN_ROOT", plugin.path().to_str().unwrap())],
    );
    assert_eq!(out.code, 1, "{out:?}");
    let v = out.json();
    let checks = v["checks"].as_array().unwrap();
    let fail = |name: &str| {
        checks
            .iter()
            .find(|c| c["name"] == name && c["level"] == "fail")
            .unwrap_or_else(|| panic!("no failing {name} check: {v}"))
            .clone()
    };
    assert!(fail("binary")["fix"]
        .as_str()
        .unwrap()
        .contains("cargo install --locked --path . --root ."));
    assert!(fail("config")["detail"]
        .as_str()
        .unwrap()
        .contains("context_budget_chars"));
}

#[test]
fn issue_17_doctor_lists_every_config_problem_at_once_with_its_key() {
    let p = Project::new();
    p.write(
        ".claude/baton.yaml",
        "relay: {cycle_budget: 0}\naudit: {auto_strat: false}\ncontext_budget_chars: many\n",
    );
    let out = p.run(&["doctor", "--json"], b"", &[]);
    assert_eq!(out.code, 1, "{out:?}");
    let v = out.json();
    let config: Vec<String> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["name"] == "config" && c["level"] == "fail")
        .map(|c| c["detail"].as_str().unwrap().to_string())
        .collect();
    for key in [
        "key `relay.cycle_budget`",
        "key `audit.auto_strat`",
        "key `context_budget_chars`",
    ] {
        assert!(config.iter().any(|d| d.contains(key)), "{key}: {config:#?}");
    }
    assert_eq!(config.len(), 3, "{config:#?}");
}
