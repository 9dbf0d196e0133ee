//! The install a user does (issue 17), in the real Claude Code: a marketplace served the way
//! GitHub serves one (git over HTTP, from a fresh copy of this repository with no built
//! binary), `claude plugin marketplace add` + `claude plugin install` into a scratch HOME,
//! release binaries from a local stand-in of the download (the packaging script's dry run
//! pins their checksums), then real sessions: the first works, with no hook error; the
//! second works offline; a tampered binary is refused with one line. Also: what a
//! marketplace install from a built checkout copies into Claude Code's cache, and the
//! README's install commands run in order.

use crate::foundation::{check_stderr_hooks, check_stream_hooks, check_transcript_hooks};
use crate::mock_api::{main_requests, MockApi};
use crate::stand_in::{Behaviour, StandIn};
use crate::support::*;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The release target the bootstrap asks for on this machine.
fn target() -> String {
    let arch = std::env::consts::ARCH;
    match std::env::consts::OS {
        "macos" => format!("{arch}-apple-darwin"),
        _ => format!("{arch}-unknown-linux-gnu"),
    }
}

fn asset() -> String {
    format!("baton-{VERSION}-{}", target())
}

/// The system PATH without any folder holding a `baton` (the test is about a machine that
/// has none).
pub(crate) fn path_without_baton() -> String {
    let path = std::env::var("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .filter(|d| !d.join("baton").exists())
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(":")
}

/// A fresh clone's files: what `git ls-files` tracks, as the work tree has them now (links
/// stay links), without `target/`, `bin/` or anything else that is not tracked.
pub(crate) fn tracked_copy(dst: &Path) {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(REPO)
        .output()
        .expect("git ls-files");
    assert!(out.status.success(), "git ls-files failed");
    for rel in out.stdout.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let rel = Path::new(std::str::from_utf8(rel).unwrap());
        let src = Path::new(REPO).join(rel);
        let to = dst.join(rel);
        let Ok(meta) = fs::symlink_metadata(&src) else {
            continue; // deleted in the work tree
        };
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        if meta.file_type().is_symlink() {
            std::os::unix::fs::symlink(fs::read_link(&src).unwrap(), &to).unwrap();
        } else {
            fs::copy(&src, &to).unwrap();
        }
    }
}

pub(crate) fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=e2e",
            "-c",
            "user.email=e2e@example.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "core.hooksPath=/dev/null",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?} in {}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The marketplace as GitHub would serve it: a fresh copy of this repository whose
/// `plugin/install/SHA256SUMS` pins `released` (written by scripts/package-release, as a
/// release does), committed and served over git's smart HTTP by `server`; `bytes` are served
/// as the binary at `<url>/releases/<asset>`. Returns the marketplace URL.
pub(crate) fn publish(
    sandbox: &Sandbox,
    server: &StandIn,
    released: &Path,
    bytes: Vec<u8>,
) -> String {
    let checkout = sandbox.root.join("upstream");
    tracked_copy(&checkout);
    let dist = sandbox.root.join("dist");
    let pack = Command::new(checkout.join("scripts/package-release"))
        .args(["--binary"])
        .arg(released)
        .args(["--target", &target(), "--out"])
        .arg(&dist)
        .arg("--pin")
        .arg(checkout.join("plugin/install/SHA256SUMS"))
        .output()
        .expect("scripts/package-release");
    assert!(
        pack.status.success(),
        "package-release: {}",
        String::from_utf8_lossy(&pack.stderr)
    );
    assert!(
        fs::read_to_string(dist.join("SHA256SUMS"))
            .unwrap()
            .contains(&asset()),
        "the dry run wrote the checksum file"
    );
    git(&checkout, &["init", "-q", "-b", "main"]);
    git(&checkout, &["add", "-A"]);
    git(&checkout, &["commit", "-q", "-m", "release"]);
    let served_root = sandbox.root.join("git");
    fs::create_dir_all(&served_root).unwrap();
    git(
        &served_root,
        &[
            "clone",
            "-q",
            "--bare",
            checkout.to_str().unwrap(),
            "baton.git",
        ],
    );
    server.git(served_root);
    server.file(
        &format!("/releases/{}", asset()),
        bytes,
        Behaviour::default(),
    );
    format!("{}/git/baton.git", server.url())
}

/// `claude <args>` in the sandbox, with a PATH that has no baton on it.
pub(crate) fn claude_cmd(sandbox: &Sandbox, claude: &Path, args: &[&str], label: &str) -> Run {
    let mut cmd = sandbox.claude(claude, "http://127.0.0.1:9");
    cmd.env("PATH", path_without_baton()).args(args);
    let run = run(cmd, &sandbox.root, label);
    assert!(run.status.success(), "claude {args:?}\n{}", run.describe());
    run
}

/// One headless session in the project with the marketplace-installed plugin (no
/// `--plugin-dir`), baton's download source at `download`.
fn session(
    sandbox: &Sandbox,
    claude: &Path,
    api: &MockApi,
    download: &str,
    label: &str,
) -> (Run, Vec<Value>) {
    let mut cmd = sandbox.claude(claude, &api.base_url());
    cmd.env("PATH", path_without_baton())
        .env("BATON_DOWNLOAD_URL", download)
        .args(["-p", "please run a command"])
        .args(crate::support::STREAM_JSON)
        .args(["--allowedTools", "Bash"]);
    let run = run(cmd, &sandbox.root, label);
    let stream = json_lines(&run.stdout);
    assert!(run.status.success(), "{label}\n{}", run.describe());
    (run, stream)
}

/// The session's result object's session id.
fn session_id(stream: &[Value]) -> String {
    stream
        .iter()
        .rev()
        .find(|v| str_at(v, "/type") == "result")
        .map(|v| str_at(v, "/session_id").to_string())
        .unwrap_or_default()
}

/// Every hook ran clean (stream, transcript, stderr) and baton's context reached the model.
pub(crate) fn check_session_worked(sandbox: &Sandbox, api: &MockApi, run: &Run, stream: &[Value]) {
    assert!(
        result_text(stream).contains("E2E-FINAL"),
        "no final answer\n{}",
        run.describe()
    );
    check_stream_hooks(stream);
    check_transcript_hooks(&sandbox.home, &session_id(stream));
    check_stderr_hooks(run);
    let requests = api.requests();
    assert!(
        main_requests(&requests)
            .iter()
            .any(|r| r.body.contains(BATON_CONTEXT_MARK)),
        "baton's SessionStart context did not reach the model; SessionStart printed: {:?}",
        stream
            .iter()
            .filter(|v| str_at(v, "/subtype") == "hook_response")
            .filter(|v| str_at(v, "/hook_event") == "SessionStart")
            .map(|v| str_at(v, "/stdout"))
            .collect::<Vec<_>>()
    );
}

pub(crate) fn plugin_data(sandbox: &Sandbox) -> PathBuf {
    sandbox.home.join(".claude/plugins/data/baton-baton")
}

fn cached_plugin(sandbox: &Sandbox) -> PathBuf {
    sandbox
        .home
        .join(format!(".claude/plugins/cache/baton/baton/{VERSION}"))
}

#[test]
fn marketplace_install_without_a_toolchain_works_in_the_first_session_and_offline() {
    let Some(claude) = claude_or_skip("marketplace_install_without_a_toolchain") else {
        return;
    };
    let sandbox = Sandbox::new();
    let server = StandIn::start();
    let binary = fs::read(BATON).unwrap();
    let market = publish(&sandbox, &server, Path::new(BATON), binary.clone());
    claude_cmd(
        &sandbox,
        &claude,
        &["plugin", "marketplace", "add", &market],
        "add",
    );
    claude_cmd(
        &sandbox,
        &claude,
        &["plugin", "install", "baton@baton"],
        "install",
    );
    let cached = cached_plugin(&sandbox);
    assert!(
        fs::symlink_metadata(cached.join("bin/baton"))
            .unwrap()
            .file_type()
            .is_file(),
        "before the first session bin/baton is the stub"
    );

    // First session: SessionStart installs the binary and answers through it.
    let api = MockApi::start();
    let downloads = format!("{}/releases", server.url());
    let (run, stream) = session(&sandbox, &claude, &api, &downloads, "first");
    check_session_worked(&sandbox, &api, &run, &stream);
    let installed = plugin_data(&sandbox).join(format!("bin/baton-{VERSION}"));
    assert_eq!(fs::read(&installed).unwrap(), binary);
    let same = |a: &Path, b: &Path| {
        use std::os::unix::fs::MetadataExt;
        let (x, y) = (fs::symlink_metadata(a).unwrap(), fs::metadata(b).unwrap());
        x.file_type().is_file() && (x.dev(), x.ino()) == (y.dev(), y.ino())
    };
    assert!(
        same(&cached.join("bin/baton"), &installed),
        "hooks now start the binary directly: bin/baton is it"
    );
    let fetched: Vec<String> = server
        .requests()
        .into_iter()
        .filter(|r| r.contains("/releases/"))
        .collect();
    assert_eq!(fetched, vec![format!("GET /releases/{}", asset())]);

    // Uninstall (Claude Code removes the data folder, the binary with it) and install again:
    // the fresh plugin folder has the stub again, and the next session installs again.
    claude_cmd(
        &sandbox,
        &claude,
        &["plugin", "uninstall", "baton@baton"],
        "uninstall",
    );
    assert!(!installed.exists(), "uninstall removed the data folder");
    claude_cmd(
        &sandbox,
        &claude,
        &["plugin", "install", "baton@baton"],
        "reinstall",
    );
    let api = MockApi::start();
    let (run, stream) = session(&sandbox, &claude, &api, &downloads, "after-reinstall");
    check_session_worked(&sandbox, &api, &run, &stream);
    assert_eq!(fs::read(&installed).unwrap(), binary);

    // Then offline: the stand-in is gone and the download source is closed.
    drop(server);
    let api = MockApi::start();
    let (run, stream) = session(&sandbox, &claude, &api, "http://127.0.0.1:9", "offline");
    check_session_worked(&sandbox, &api, &run, &stream);
    eprintln!("e2e: marketplace install: first session, after a reinstall, offline: clean");
}

#[test]
fn marketplace_install_refuses_a_tampered_binary_with_one_line_and_no_hook_error() {
    let Some(claude) = claude_or_skip("marketplace_install_refuses_a_tampered_binary") else {
        return;
    };
    let sandbox = Sandbox::new();
    let server = StandIn::start();
    let mut tampered = fs::read(BATON).unwrap();
    tampered.extend_from_slice(b"\0tampered");
    let market = publish(&sandbox, &server, Path::new(BATON), tampered);
    claude_cmd(
        &sandbox,
        &claude,
        &["plugin", "marketplace", "add", &market],
        "add",
    );
    claude_cmd(
        &sandbox,
        &claude,
        &["plugin", "install", "baton@baton"],
        "install",
    );

    let api = MockApi::start();
    let downloads = format!("{}/releases", server.url());
    let (run, stream) = session(&sandbox, &claude, &api, &downloads, "tampered");
    assert!(
        result_text(&stream).contains("E2E-FINAL"),
        "{}",
        run.describe()
    );
    // Every hook exited 0: the stub keeps them quiet; SessionStart says what happened.
    check_stream_hooks(&stream);
    check_transcript_hooks(&sandbox.home, &session_id(&stream));
    check_stderr_hooks(&run);
    let said: Vec<&str> = stream
        .iter()
        .filter(|v| str_at(v, "/subtype") == "hook_response")
        .filter(|v| str_at(v, "/hook_event") == "SessionStart")
        .map(|v| str_at(v, "/stdout"))
        .collect();
    let line = said.concat();
    assert!(
        line.contains("baton: refused the download of") && line.contains("Fix:"),
        "SessionStart printed: {said:?}"
    );
    assert_eq!(line.trim().lines().count(), 1, "{line}");
    assert!(
        !plugin_data(&sandbox)
            .join(format!("bin/baton-{VERSION}"))
            .exists(),
        "a refused binary is never installed"
    );
}

/// Bytes under `dir`, links not followed.
fn size_of(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter_map(|e| e.path().symlink_metadata().ok())
        .filter(std::fs::Metadata::is_file)
        .map(|m| m.len())
        .sum()
}

#[test]
fn a_marketplace_install_from_a_built_checkout_copies_only_the_plugin() {
    let Some(claude) = claude_or_skip("a_marketplace_install_from_a_built_checkout") else {
        return;
    };
    let sandbox = Sandbox::new();
    let checkout = sandbox.root.join("checkout");
    tracked_copy(&checkout);
    // What a build and the test set-up leave in a checkout: 30 MB of build output, a
    // built binary, npm's caches.
    for (rel, size) in [
        ("target/release/baton", 30 << 20),
        ("bin/baton", 8 << 20),
        (".cache/npm/node_modules/x/blob", 4 << 20),
        ("node_modules/y/blob", 1 << 20),
    ] {
        let p = checkout.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, vec![7u8; size]).unwrap();
    }
    let market = checkout.to_str().unwrap();
    claude_cmd(
        &sandbox,
        &claude,
        &["plugin", "marketplace", "add", market],
        "add",
    );
    claude_cmd(
        &sandbox,
        &claude,
        &["plugin", "install", "baton@baton"],
        "install",
    );
    let cache = sandbox.home.join(".claude/plugins/cache");
    let bytes = size_of(&cache);
    eprintln!("e2e: plugin cache after a marketplace install from a built checkout: {bytes} bytes");
    assert!(
        bytes < 20 << 20,
        "the cache holds {bytes} bytes (target: under 20 MB)"
    );
    for junk in ["target", ".cache", "node_modules", "src", "Cargo.toml"] {
        assert!(
            !cached_plugin(&sandbox).join(junk).exists(),
            "{junk} was copied into the plugin cache"
        );
    }
    assert!(cached_plugin(&sandbox).join("hooks/hooks.json").is_file());
    assert!(cached_plugin(&sandbox)
        .join("install/bootstrap.sh")
        .is_file());
}
