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

/// FNV-1a (hex) of the canonical root: the key of a project in baton's per-user folders.
fn project_key(root: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let bytes = root.canonicalize().unwrap();
    let h = bytes
        .as_os_str()
        .as_bytes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
        });
    format!("{h:016x}")
}

#[test]
fn issue_17_clean_lists_first_then_removes_private_state_and_committed_only_when_asked() {
    let p = Project::new();
    p.write(".claude/baton.yaml", "relay: {cycle_budget: 3}\n");
    let save = p.run(&["bridge", "save"], b"summary: a first save\n", &[]);
    assert_eq!(save.code, 0, "{save:?}");
    p.write(".boo/runs/adhoc_20261130_1015/audit_buffer.jsonl", "{}\n");
    p.write("datarim/sessions/SESSION-20261130-101500.session.md", "x\n");
    p.write(".handoff/loop/loop_state.md", "cycles_this_session: 0\n");
    let digests = p
        .home
        .path()
        .join(".local/state/baton/projects")
        .join(project_key(&p.root))
        .join("sessions");
    std::fs::create_dir_all(&digests).unwrap();
    std::fs::write(digests.join("s.json"), "{}").unwrap();
    // A load caches the verdicts of files older than a second.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    assert_eq!(p.run(&["bridge", "load"], b"", &[]).code, 0);
    let cache = p.home.path().join(".cache/baton/integrity");
    assert!(
        std::fs::read_dir(&cache).unwrap().next().is_some(),
        "the load filled the integrity cache"
    );

    // Without --yes: the list, nothing removed.
    let out = p.run(&["clean"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    for line in [
        "remove  .boo/  audit trail",
        "remove  datarim/sessions/  handoff artefacts",
        "keep    .rune/  project memory",
        "keep    .handoff/  relay packet and loop state",
        "per-user state (session digests, session log)",
        "integrity verdict cache",
        "provenance ledger of the project memory",
        "(goes with the memory: --committed removes it)",
        "Nothing was removed. `baton clean --yes` removes the 4 marked remove.",
    ] {
        assert!(out.stdout.contains(line), "{line}:\n{}", out.stdout);
    }
    assert!(p.root.join(".boo").exists() && digests.exists());

    // --yes: the private state goes, the committed state and the config stay.
    let out = p.run(&["clean", "--yes"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!p.root.join(".boo").exists());
    assert!(!p.root.join("datarim/sessions").exists());
    assert!(!digests.parent().unwrap().exists());
    // Issue 39: and the folders that leaves empty, which baton made.
    assert!(!cache.exists() && !p.home.path().join(".cache/baton").exists());
    assert!(!p.root.join("datarim").exists());
    assert!(!p.home.path().join(".local/state/baton/projects").exists());
    assert!(p.root.join(".rune/decisions.md").exists() || p.root.join(".rune").exists());
    assert!(p.root.join(".handoff/loop/loop_state.md").exists());
    assert!(p.root.join(".claude/baton.yaml").exists());
    // The save's provenance stays with the memory it vouches for.
    let ledger = p.home.path().join(".local/state/baton/provenance");
    assert!(std::fs::read_dir(&ledger).unwrap().next().is_some());

    // --committed too: everything but the config.
    let out = p.run(&["clean", "--yes", "--committed"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!p.root.join(".rune").exists() && !p.root.join(".handoff").exists());
    assert!(out.stdout.contains("commit the change"), "{}", out.stdout);
    assert!(!p.home.path().join(".local/state/baton").exists());
    assert!(p.home.path().join(".local/state").exists());
    assert!(p.root.join(".claude/baton.yaml").exists());
    let out = p.run(&["clean"], b"", &[]);
    assert!(out.stdout.contains("Nothing to clean"), "{}", out.stdout);
}

/// Issue 39: `baton clean --user` lists what baton keeps for the user outside every project;
/// with `--yes` its own folders go, and what is the user's or Claude Code's stays, each with
/// how it goes.
#[test]
fn issue_39_clean_user_removes_batons_folders_and_says_what_stays_and_why() {
    let p = Project::new();
    let home = p.home.path();
    for dir in [
        ".local/state/baton/projects/k",
        ".cache/baton/integrity",
        ".local/share/baton",
        ".config/baton",
        ".claude/plugins/data/baton-baton/bin",
        ".claude/plugins/cache/baton/baton/0.1.0",
        ".claude/plugins/data/other-market",
        ".local/bin",
    ] {
        std::fs::create_dir_all(home.join(dir)).unwrap();
    }
    std::fs::write(
        home.join(".local/state/baton/projects/k/session-log.md"),
        "x\n",
    )
    .unwrap();
    std::fs::write(home.join(".config/baton/config.yaml"), "{}\n").unwrap();
    std::os::unix::fs::symlink(
        home.join(".claude/plugins/data/baton-baton/bin/baton"),
        home.join(".local/bin/baton"),
    )
    .unwrap();
    let out = p.run(&["clean", "--user"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    let h = home.display();
    for line in [
        format!("remove  {h}/.local/state/baton/  private state of every project"),
        format!("remove  {h}/.cache/baton/  caches"),
        format!("remove  {h}/.local/share/baton/  the cross-project store"),
        format!("keep    {h}/.config/baton/  your config"),
        format!("keep    {h}/.claude/plugins/data/baton-baton/  the plugin's data folder (the installed binary)"),
        "`claude plugin uninstall baton@baton` removes it".to_string(),
        format!("keep    {h}/.claude/plugins/cache/baton/baton/  Claude Code's copy of the plugin"),
        format!("then `rm -rf {h}/.claude/plugins/cache/baton/baton`"),
        format!("keep    {h}/.local/bin/baton  your link to the binary"),
        "Nothing was removed. `baton clean --user --yes` removes the 3 marked remove.".to_string(),
    ] {
        assert!(out.stdout.contains(&line), "{line}:\n{}", out.stdout);
    }
    assert!(!out.stdout.contains("other-market"), "{}", out.stdout);
    let out = p.run(&["clean", "--user", "--yes"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    for gone in [".local/state/baton", ".cache/baton", ".local/share/baton"] {
        assert!(!home.join(gone).exists(), "{gone} is still there");
    }
    for kept in [
        ".config/baton",
        ".claude/plugins/data/baton-baton",
        ".local/bin/baton",
    ] {
        assert!(
            std::fs::symlink_metadata(home.join(kept)).is_ok(),
            "{kept} went"
        );
    }
}

#[test]
fn issue_17_clean_never_follows_a_link_out_of_the_project_nor_runs_on_a_broken_config() {
    let p = Project::new();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("keep.txt"), "mine").unwrap();
    std::os::unix::fs::symlink(outside.path(), p.root.join(".boo")).unwrap();
    let out = p.run(&["clean", "--yes"], b"", &[]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("symlink"), "{out:?}");
    assert!(outside.path().join("keep.txt").exists());

    p.write(".claude/baton.yaml", "paths: {audit: 5, bogus: 1}\n");
    p.write("datarim/sessions/x", "x");
    let out = p.run(&["clean", "--yes"], b"", &[]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("fix the config first"), "{out:?}");
    assert!(p.root.join("datarim/sessions/x").exists());
}
