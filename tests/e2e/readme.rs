//! README's install commands, run in order as a new user would (issue 17): each ```sh block
//! under "### From the marketplace" and "### From source", verbatim, through `sh -e`, in a
//! scratch HOME whose `~/your-project` is a git repository. Three stand-ins make that possible
//! on a machine without the network: `git clone https://github.com/baton-dev/baton.git` clones a
//! fresh commit of this repository served over HTTP on 127.0.0.1, `claude plugin marketplace add
//! baton-dev/baton` adds that same repository, and the last `claude` (interactive in README)
//! runs one headless session against the local stand-in of the Messages API. Then: the session's
//! hooks all ran clean, baton's context reached the model, and the checkout stayed clean.
//!
//! The source block builds baton in release mode (`cargo install`), which takes minutes: it
//! runs when `BATON_E2E_SOURCE_INSTALL=1` (.ci/run sets it), into `target/e2e-source-install`,
//! with LTO off to save time (the commands are README's; only the build profile differs).

use crate::install::{check_session_worked, git, path_without_baton, plugin_data, publish};
use crate::mock_api::MockApi;
use crate::stand_in::StandIn;
use crate::support::*;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The ```sh block after the heading `heading` in README.
fn block_after(heading: &str) -> String {
    let text = fs::read_to_string(Path::new(REPO).join("README.md")).unwrap();
    let at = text
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("README has no heading {heading:?}"));
    let rest = &text[at..];
    let open = rest.find("```sh\n").expect("a ```sh block") + "```sh\n".len();
    let close = rest[open..].find("```").unwrap();
    rest[open..open + close].to_string()
}

/// Where a program is on the test's own PATH.
fn which(name: &str) -> PathBuf {
    std::env::var_os("PATH")
        .and_then(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join(name))
                .find(|p| is_executable_file(p))
        })
        .unwrap_or_else(|| panic!("{name} is not on PATH"))
}

/// The stand-ins for `git clone <baton's GitHub URL>`, `claude plugin marketplace add
/// baton-dev/baton` and the interactive `claude`; everything else goes to the real programs.
fn shims(dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    let write = |name: &str, text: String| {
        let p = dir.join(name);
        fs::write(&p, text).unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
    };
    write(
        "git",
        format!(
            "#!/bin/sh\nif [ \"$1\" = clone ] && [ \"$2\" = https://github.com/baton-dev/baton.git ]; then\n  shift 2\n  exec '{git}' clone -q \"$E2E_MARKETPLACE\" \"$@\"\nfi\nexec '{git}' \"$@\"\n",
            git = which("git").display()
        ),
    );
    write(
        "claude",
        "#!/bin/sh\nif [ $# -eq 0 ]; then\n  exec \"$E2E_CLAUDE\" -p 'please run a command' --output-format stream-json --verbose --include-hook-events --allowedTools Bash >\"$E2E_OUT\" 2>\"$E2E_ERR\"\nfi\nif [ \"$1 $2 $3 $4\" = 'plugin marketplace add baton-dev/baton' ]; then\n  shift 4\n  set -- plugin marketplace add \"$E2E_MARKETPLACE\" \"$@\"\nfi\nexec \"$E2E_CLAUDE\" \"$@\"\n".into(),
    );
}

/// Runs a README block with `sh -e` in the sandbox; returns the headless session's run.
fn run_block(
    sandbox: &Sandbox,
    claude: &Path,
    api: &MockApi,
    block: &str,
    env: &[(&str, String)],
    label: &str,
) -> (Run, Vec<serde_json::Value>) {
    let shim_dir = sandbox.root.join("shims");
    shims(&shim_dir);
    let out = sandbox.root.join(format!("{label}.session.stdout"));
    let err = sandbox.root.join(format!("{label}.session.stderr"));
    // The same isolation as Sandbox::claude, for the shell that runs the block.
    let mut cmd = sandbox.claude(Path::new("/bin/sh"), &api.base_url());
    cmd.args(["-e", "-x", "-c", block])
        .current_dir(&sandbox.home)
        .env(
            "PATH",
            format!(
                "{}:{}:{}",
                shim_dir.display(),
                sandbox.home.join(".cargo/bin").display(),
                path_without_baton()
            ),
        )
        .env("E2E_CLAUDE", claude)
        .env("E2E_OUT", &out)
        .env("E2E_ERR", &err)
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())));
    // A source install builds baton (minutes on two cores); the session itself is short.
    let shell = run_for(cmd, &sandbox.root, label, Duration::from_secs(40 * 60));
    assert!(
        shell.status.success(),
        "README block failed\n{}",
        shell.describe()
    );
    let session = Run {
        status: shell.status,
        stdout: fs::read_to_string(&out).unwrap_or_default(),
        stderr: fs::read_to_string(&err).unwrap_or_default(),
        elapsed: shell.elapsed,
    };
    let stream = json_lines(&session.stdout);
    (session, stream)
}

/// `~/your-project`: the user's project README's last line starts Claude Code in.
fn your_project(sandbox: &Sandbox) {
    let p = sandbox.home.join("your-project");
    fs::create_dir_all(&p).unwrap();
    fs::write(p.join("README.md"), "# my project\n").unwrap();
    git(&p, &["init", "-q"]);
    git(&p, &["add", "-A"]);
    git(&p, &["commit", "-q", "-m", "init"]);
}

/// A sandbox with `~/your-project`, and this repository published as GitHub would serve it
/// (the stand-in serves the release too); the stand-in and the marketplace's URL.
fn published() -> (Sandbox, StandIn, String) {
    let sandbox = Sandbox::new();
    your_project(&sandbox);
    let server = StandIn::start();
    let market = publish(
        &sandbox,
        &server,
        Path::new(BATON),
        fs::read(BATON).unwrap(),
    );
    (sandbox, server, market)
}

#[test]
fn readme_marketplace_install_commands_work_in_order() {
    let Some(claude) = claude_or_skip("readme_marketplace_install_commands") else {
        return;
    };
    let (sandbox, server, market) = published();
    let api = MockApi::start();
    let block = block_after("### From the marketplace (no toolchain)");
    assert!(
        block.contains("claude plugin install baton@baton"),
        "{block}"
    );
    let (run, stream) = run_block(
        &sandbox,
        &claude,
        &api,
        &block,
        &[
            ("E2E_MARKETPLACE", market),
            ("BATON_DOWNLOAD_URL", format!("{}/releases", server.url())),
        ],
        "readme-marketplace",
    );
    check_session_worked(&sandbox, &api, &run, &stream);
    assert!(plugin_data(&sandbox)
        .join(format!("bin/baton-{VERSION}"))
        .is_file());
}

#[test]
fn readme_source_install_commands_work_in_order() {
    let Some(claude) = claude_or_skip("readme_source_install_commands") else {
        return;
    };
    if std::env::var_os("BATON_E2E_SOURCE_INSTALL").is_none_or(|v| v != "1") {
        // Written to the stream itself, which libtest does not capture (as claude_or_skip).
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            b"SKIPPED: e2e readme_source_install_commands: a release build of minutes; set BATON_E2E_SOURCE_INSTALL=1 (.ci/run does)\n",
        );
        return;
    }
    let (sandbox, server, market) = published();
    let api = MockApi::start();
    let block = block_after("### From source");
    assert!(block.contains("cargo install"), "{block}");
    let real_home = PathBuf::from(std::env::var("HOME").unwrap());
    let cargo_home =
        std::env::var("CARGO_HOME").map_or_else(|_| real_home.join(".cargo"), PathBuf::from);
    let rustup_home =
        std::env::var("RUSTUP_HOME").map_or_else(|_| real_home.join(".rustup"), PathBuf::from);
    let (run, stream) = run_block(
        &sandbox,
        &claude,
        &api,
        &block,
        &[
            ("E2E_MARKETPLACE", market),
            ("BATON_DOWNLOAD_URL", format!("{}/releases", server.url())),
            // The user's toolchain and crate cache; the build goes to a folder kept between
            // runs, without LTO (minutes less; README's commands are unchanged).
            ("CARGO_HOME", cargo_home.display().to_string()),
            ("RUSTUP_HOME", rustup_home.display().to_string()),
            ("CARGO_NET_OFFLINE", "true".into()),
            (
                "CARGO_INSTALL_ROOT",
                sandbox.home.join(".cargo").display().to_string(),
            ),
            (
                "CARGO_TARGET_DIR",
                Path::new(REPO)
                    .join("target/e2e-source-install")
                    .display()
                    .to_string(),
            ),
            ("CARGO_PROFILE_RELEASE_LTO", "false".into()),
            ("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16".into()),
        ],
        "readme-source",
    );
    check_session_worked(&sandbox, &api, &run, &stream);
    let log = fs::read_to_string(plugin_data(&sandbox).join("bin/install.log")).unwrap();
    assert!(log.contains("installed your build"), "{log}");
    assert!(
        !server.requests().iter().any(|r| r.contains("/releases/")),
        "a source install downloads nothing"
    );
    let status = Command::new("git")
        .args(["status", "--porcelain"])
        .current_dir(sandbox.home.join("src/baton"))
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&status.stdout),
        "",
        "baton left its checkout as cloned"
    );
}

/// Every path under `dir` whose name says it is baton's (links not followed), relative to it.
fn batons_under(dir: &Path) -> Vec<String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains("baton"))
        .map(|e| e.path().strip_prefix(dir).unwrap().display().to_string())
        .collect()
}

/// Issue 39: after README's marketplace install and a session, README's uninstall block, run
/// as it stands (with the shell link doctor suggests made first), leaves nothing baton made:
/// no per-user folder, no data folder, no cached copy of the plugin, no link, no private
/// state in the project.
#[test]
fn issue_39_readme_uninstall_commands_leave_nothing_baton_made() {
    let Some(claude) = claude_or_skip("readme_uninstall_commands") else {
        return;
    };
    let (sandbox, server, market) = published();
    let project = sandbox.home.join("your-project");
    let api = MockApi::start();
    let env = [
        ("E2E_MARKETPLACE", market),
        ("BATON_DOWNLOAD_URL", format!("{}/releases", server.url())),
    ];
    let install = block_after("### From the marketplace (no toolchain)");
    let (session, stream) = run_block(&sandbox, &claude, &api, &install, &env, "readme-install");
    check_session_worked(&sandbox, &api, &session, &stream);
    // What baton keeps: an audit trail in the project, digests and a log per user.
    assert!(project.join(".boo").is_dir());
    assert!(sandbox.home.join(".local/state/baton").is_dir());
    let local_bin = sandbox.home.join(".local/bin");
    fs::create_dir_all(&local_bin).unwrap();
    std::os::unix::fs::symlink(
        plugin_data(&sandbox).join("bin/baton"),
        local_bin.join("baton"),
    )
    .unwrap();

    let uninstall = block_after("## Uninstall and cleanup");
    assert!(
        uninstall.contains("claude plugin uninstall baton@baton"),
        "{uninstall}"
    );
    let shim_dir = sandbox.root.join("shims");
    let mut cmd = sandbox.claude(Path::new("/bin/sh"), &api.base_url());
    cmd.args(["-e", "-x", "-c", &uninstall])
        .current_dir(&project)
        .env(
            "PATH",
            format!(
                "{}:{}:{}",
                shim_dir.display(),
                local_bin.display(),
                path_without_baton()
            ),
        )
        .env("E2E_CLAUDE", &claude);
    for (k, v) in &env {
        cmd.env(k, v);
    }
    let shell = run(cmd, &sandbox.root, "readme-uninstall");
    assert!(
        shell.status.success(),
        "README's uninstall block failed\n{}",
        shell.describe()
    );

    // Nothing of baton's is left: Claude Code's own logs of the MCP server and its
    // transcripts (a folder named after the project's path, here in a `baton-e2e-` temp
    // folder) aside.
    let left: Vec<String> = batons_under(&sandbox.home)
        .into_iter()
        .filter(|p| !p.starts_with(".cache/claude-cli-nodejs/"))
        .filter(|p| !p.starts_with(".claude/projects/"))
        .filter(|p| !p.starts_with("your-project/.git/"))
        .collect();
    assert_eq!(left, Vec::<String>::new(), "{}", shell.describe());
    for private in [".boo", "datarim"] {
        assert!(
            !project.join(private).exists(),
            "{private} is still in the project"
        );
    }
}
