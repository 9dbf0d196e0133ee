//! The marketplace install without a toolchain (issue 17): the launcher stub at
//! `plugin/bin/baton` and `plugin/install/bootstrap.sh`, run the way Claude Code runs them, on a
//! copy of the plugin folder as Claude Code's cache holds it (links followed), against a local
//! stand-in for the release download.

use crate::harness::bin;
use crate::stand_in::{Behaviour, StandIn};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const VERSION: &str = env!("CARGO_PKG_VERSION");
const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// The release target the bootstrap asks for on this machine.
fn target() -> String {
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x86_64",
        "aarch64" => "aarch64",
        other => panic!("no release target for {other}"),
    };
    match std::env::consts::OS {
        "linux" => format!("{arch}-unknown-linux-gnu"),
        "macos" => format!("{arch}-apple-darwin"),
        other => panic!("no release target for {other}"),
    }
}

fn asset() -> String {
    format!("baton-{VERSION}-{}", target())
}

fn sha256(bytes: &[u8]) -> String {
    let mut child = Command::new("sha256sum")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()[..64].to_string()
}

/// The test binary's bytes: what the stand-in serves as the release binary.
fn release_bytes() -> Vec<u8> {
    fs::read(bin()).unwrap()
}

/// Copies `src` to `dst`, following links (as Claude Code's cache copy does for links inside
/// the marketplace).
fn copy_following_links(src: &Path, dst: &Path) {
    for entry in walkdir::WalkDir::new(src).follow_links(true) {
        let entry = entry.unwrap();
        let to = dst.join(entry.path().strip_prefix(src).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&to).unwrap();
        } else {
            fs::copy(entry.path(), &to).unwrap();
        }
    }
}

/// A system PATH with no `baton` on it (a developer may have one installed).
fn path_without_baton() -> String {
    let path = std::env::var("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .filter(|d| !d.join("baton").exists())
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(":")
}

/// A folder of links to the named tools only: a machine that has exactly those.
fn toolbox(dir: &Path, tools: &[&str]) -> String {
    fs::create_dir_all(dir).unwrap();
    for tool in tools {
        let found = ["/usr/bin", "/bin", "/usr/local/bin"]
            .iter()
            .map(|d| Path::new(d).join(tool))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("this test needs {tool}"));
        std::os::unix::fs::symlink(found, dir.join(tool)).unwrap();
    }
    dir.display().to_string()
}

/// Everything a bootstrap needs besides a downloader and a hasher.
const BASE_TOOLS: &[&str] = &[
    "sh", "cat", "sed", "tr", "head", "mkdir", "rm", "mv", "ln", "cp", "chmod", "ls", "date",
    "find", "dd", "uname", "sleep", "wc", "tail",
];

/// A fresh install: a copy of the plugin folder, an empty data folder, a project.
struct Install {
    tmp: tempfile::TempDir,
    plugin: PathBuf,
    data: PathBuf,
    project: PathBuf,
    path: String,
}

/// What one run printed.
#[derive(Debug)]
struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Install {
    fn new() -> Install {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let plugin = root.join("cache/baton/0.1.0");
        copy_following_links(&Path::new(REPO).join("plugin"), &plugin);
        // The user's project: a git repository (baton stays silent outside one).
        let project = root.join("project");
        fs::create_dir_all(&project).unwrap();
        git2::Repository::init(&project).unwrap();
        let install = Install {
            plugin,
            data: root.join("plugin-data"),
            project,
            path: path_without_baton(),
            tmp,
        };
        fs::create_dir_all(install.home()).unwrap();
        install
    }

    fn home(&self) -> PathBuf {
        self.tmp.path().join("home")
    }

    /// Pins `bytes` as this version's release binary for this machine.
    fn pin(&self, bytes: &[u8]) {
        let sums = self.plugin.join("install/SHA256SUMS");
        let mut text = fs::read_to_string(&sums).unwrap();
        text.push_str(&format!("{}  {}\n", sha256(bytes), asset()));
        fs::write(sums, text).unwrap();
    }

    fn stub(&self) -> PathBuf {
        self.plugin.join("bin/baton")
    }

    fn installed(&self) -> PathBuf {
        self.data.join(format!("bin/baton-{VERSION}"))
    }

    /// Runs the plugin's bin/baton with `args` as Claude Code runs a hook: a clean environment
    /// with the plugin's variables, the event on stdin, cwd the project.
    fn run(&self, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Out {
        let mut c = Command::new(self.stub());
        c.args(args)
            .current_dir(&self.project)
            .env_clear()
            .env("PATH", &self.path)
            .env("HOME", self.home())
            .env("CLAUDE_PLUGIN_ROOT", &self.plugin)
            .env("CLAUDE_PLUGIN_DATA", &self.data)
            .env("CLAUDE_PROJECT_DIR", &self.project)
            .envs(env.iter().copied());
        run_retrying(c, stdin)
    }

    fn session_start(&self, url: &str) -> Out {
        self.run(
            &["hook", "SessionStart"],
            &event("SessionStart", &self.project),
            &[("BATON_DOWNLOAD_URL", url)],
        )
    }

    /// The files in the data folder's bin/ (names).
    fn data_files(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(self.data.join("bin"))
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }
}

fn event(name: &str, project: &Path) -> String {
    serde_json::json!({
        "hook_event_name": name,
        "session_id": "0b6c1e2a-1111-4222-8333-444455556666",
        "cwd": project,
        "source": "startup",
        "transcript_path": project.join("none.jsonl"),
    })
    .to_string()
        + "\n"
}

/// Spawns, retrying ETXTBSY: a script written by this (threaded) process can be busy for a
/// moment while another test thread forks.
fn run_retrying(mut c: Command, stdin: &str) -> Out {
    c.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = loop {
        match c.spawn() {
            Ok(child) => break child,
            Err(e)
                if e.raw_os_error() == Some(26) && started.elapsed() < Duration::from_secs(5) =>
            {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("spawn {}: {e}", c.get_program().display()),
        }
    };
    {
        let mut sin = child.stdin.take().unwrap();
        let _ = std::io::Write::write_all(&mut sin, stdin.as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The one systemMessage line of a SessionStart answered by the bootstrap.
fn system_message(out: &Out) -> String {
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stdout.lines().count(), 1, "one line: {out:?}");
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    v["systemMessage"].as_str().unwrap().to_string()
}

/// This version's release pinned in `i` and served half a second late (a download that two
/// starts at once meet); the stand-in and its URL.
fn slow_release(i: &Install) -> (StandIn, String) {
    let bytes = release_bytes();
    i.pin(&bytes);
    let server = StandIn::start();
    let slow = Behaviour {
        delay: Duration::from_millis(500),
        ..Behaviour::default()
    };
    server.file(&format!("/{}", asset()), bytes, slow);
    let url = server.url();
    (server, url)
}

/// Whether `a` is the very file `b` (a hard link to it), not a symbolic link.
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (fs::symlink_metadata(a), fs::symlink_metadata(b)) {
        (Ok(x), Ok(y)) => x.file_type().is_file() && (x.dev(), x.ino()) == (y.dev(), y.ino()),
        _ => false,
    }
}

#[test]
fn issue_17_session_start_installs_a_verified_binary_and_answers_through_it() {
    let i = Install::new();
    let bytes = release_bytes();
    i.pin(&bytes);
    let server = StandIn::start();
    server.file(
        &format!("/{}", asset()),
        bytes.clone(),
        Behaviour::default(),
    );

    let out = i.session_start(&server.url());
    assert_eq!(out.code, 0, "{out:?}");
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        v["hookSpecificOutput"]["hookEventName"], "SessionStart",
        "the binary answered the first SessionStart: {out:?}"
    );
    assert_eq!(fs::read(i.installed()).unwrap(), bytes);
    let mode = fs::metadata(i.installed()).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o755);
    // Hooks now start the binary directly: the stub's place holds the binary itself.
    assert!(
        same_file(&i.stub(), &i.installed()),
        "bin/baton is not the binary"
    );
    assert_eq!(
        i.data_files(),
        vec!["baton", &format!("baton-{VERSION}"), "install.log"],
        "no temp file, no lock left"
    );
    let log = fs::read_to_string(i.data.join("bin/install.log")).unwrap();
    assert!(log.contains("verified against install/SHA256SUMS"), "{log}");
    assert_eq!(server.requests(), vec![format!("GET /{}", asset())]);

    // A second session works offline: nothing is fetched, the hook is answered.
    drop(server);
    let again = i.session_start("http://127.0.0.1:9");
    let v: serde_json::Value = serde_json::from_str(&again.stdout).unwrap();
    assert_eq!(
        v["hookSpecificOutput"]["hookEventName"], "SessionStart",
        "{again:?}"
    );
    let post = i.run(
        &["hook", "PostToolUse"],
        &event("PostToolUse", &i.project),
        &[],
    );
    assert_eq!((post.code, post.stderr.as_str()), (0, ""), "{post:?}");
}

#[test]
fn issue_17_the_plugin_keeps_working_when_its_data_folder_is_removed() {
    // Claude Code removes the data folder on uninstall and may reuse the plugin folder when
    // the same version is installed again: bin/baton must not point into the gone folder.
    let i = Install::new();
    let bytes = release_bytes();
    i.pin(&bytes);
    let server = StandIn::start();
    server.file(&format!("/{}", asset()), bytes, Behaviour::default());
    assert!(i
        .session_start(&server.url())
        .stdout
        .contains("hookSpecificOutput"));
    drop(server);
    fs::remove_dir_all(&i.data).unwrap();
    let post = i.run(
        &["hook", "PostToolUse"],
        &event("PostToolUse", &i.project),
        &[],
    );
    assert_eq!((post.code, post.stderr.as_str()), (0, ""), "{post:?}");
    let v = i.run(&["--version"], "", &[]);
    assert_eq!(v.stdout.trim(), format!("baton {VERSION}"), "{v:?}");
}

#[test]
fn issue_17_a_tampered_binary_is_refused_with_one_line_and_nothing_is_installed() {
    let i = Install::new();
    let bytes = release_bytes();
    i.pin(&bytes);
    let mut tampered = bytes.clone();
    tampered.extend_from_slice(b"\0evil");
    let server = StandIn::start();
    server.file(&format!("/{}", asset()), tampered, Behaviour::default());

    let msg = system_message(&i.session_start(&server.url()));
    assert!(msg.starts_with("baton: refused the download of "), "{msg}");
    assert!(
        msg.contains(&sha256(&bytes)) && msg.contains("Fix:"),
        "{msg}"
    );
    assert!(!i.installed().exists());
    assert_eq!(
        i.data_files(),
        vec!["install.log"],
        "no half-written binary"
    );
    // The stub is still there, and keeps every other hook quiet.
    assert!(fs::symlink_metadata(i.stub())
        .unwrap()
        .file_type()
        .is_file());
    for hook in ["UserPromptSubmit", "PostToolUse", "Stop", "SessionEnd"] {
        let out = i.run(&["hook", hook], &event(hook, &i.project), &[]);
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.as_str()),
            (0, "", ""),
            "{hook}"
        );
    }
}

#[test]
fn issue_17_a_download_that_fails_or_breaks_off_says_so_and_leaves_nothing() {
    let i = Install::new();
    let bytes = release_bytes();
    i.pin(&bytes);
    let msg = system_message(&i.session_start("http://127.0.0.1:9"));
    assert!(
        msg.starts_with("baton: could not download http://127.0.0.1:9/"),
        "{msg}"
    );
    assert!(msg.contains("Fix:"), "{msg}");

    let server = StandIn::start();
    let cut = Behaviour {
        cut_after: Some(bytes.len() / 2),
        ..Behaviour::default()
    };
    server.file(&format!("/{}", asset()), bytes, cut);
    let msg = system_message(&i.session_start(&server.url()));
    assert!(msg.starts_with("baton: could not download"), "{msg}");
    assert_eq!(
        i.data_files(),
        vec!["install.log"],
        "no half-written binary"
    );
}

#[test]
fn issue_17_without_a_pinned_release_it_says_how_to_build_one() {
    let i = Install::new();
    let server = StandIn::start();
    let msg = system_message(&i.session_start(&server.url()));
    // Issue 39: before any release, what a user without a toolchain can do, plainly (no
    // `--tag` of a release that does not exist).
    assert!(
        msg.starts_with(&format!(
            "baton: no binary of baton {VERSION} is published yet, so baton stays off. Fix: install Rust (https://rustup.rs), run cargo install --locked --git https://github.com/baton-dev/baton baton, then start a new session; or remove the plugin: claude plugin uninstall baton@baton"
        )),
        "{msg}"
    );
    assert!(server.requests().is_empty(), "nothing unpinned is fetched");
    // A release pinned for another machine only: this machine has none.
    let other = Install::new();
    let sums = other.plugin.join("install/SHA256SUMS");
    let mut text = fs::read_to_string(&sums).unwrap();
    text.push_str(&format!(
        "{}  baton-{VERSION}-riscv64gc-unknown-linux-gnu\n",
        "0".repeat(64)
    ));
    fs::write(&sums, text).unwrap();
    let msg = system_message(&other.session_start(&server.url()));
    assert!(msg.contains("no release binary baton-"), "{msg}");
    assert!(msg.contains(&format!("--tag v{VERSION}")), "{msg}");
}

#[test]
fn issue_17_a_slow_download_goes_on_in_the_background_and_later_hooks_use_it() {
    let i = Install::new();
    let bytes = release_bytes();
    i.pin(&bytes);
    let server = StandIn::start();
    let slow = Behaviour {
        delay: Duration::from_millis(1500),
        ..Behaviour::default()
    };
    server.file(&format!("/{}", asset()), bytes, slow);
    let out = i.run(
        &["hook", "SessionStart"],
        &event("SessionStart", &i.project),
        &[
            ("BATON_DOWNLOAD_URL", &server.url()),
            ("BATON_INSTALL_WAIT", "0"),
        ],
    );
    let msg = system_message(&out);
    assert!(msg.contains("in the background"), "{msg}");
    let started = Instant::now();
    while !i.installed().exists() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "never installed"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // The stub is replaced last; wait for it, then the next command runs the binary.
    while !same_file(&i.stub(), &i.installed()) {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "stub never replaced"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let v = i.run(&["--version"], "", &[]);
    assert_eq!(v.stdout.trim(), format!("baton {VERSION}"), "{v:?}");
}

#[test]
fn issue_17_downloads_with_wget_and_checks_with_shasum_when_that_is_what_there_is() {
    if !["wget", "shasum"]
        .iter()
        .all(|t| Path::new("/usr/bin").join(t).exists())
    {
        eprintln!("SKIPPED: needs /usr/bin/wget and /usr/bin/shasum");
        return;
    }
    let mut i = Install::new();
    let bytes = release_bytes();
    i.pin(&bytes);
    let mut tools = BASE_TOOLS.to_vec();
    tools.extend(["wget", "shasum", "perl"]);
    i.path = toolbox(&i.tmp.path().join("tools"), &tools);
    let server = StandIn::start();
    server.file(
        &format!("/{}", asset()),
        bytes.clone(),
        Behaviour::default(),
    );
    let out = i.session_start(&server.url());
    let v: serde_json::Value =
        serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    assert_eq!(
        v["hookSpecificOutput"]["hookEventName"], "SessionStart",
        "{out:?}"
    );
    assert_eq!(fs::read(i.installed()).unwrap(), bytes);
}

#[test]
fn issue_17_without_a_downloader_or_a_hasher_it_says_which_is_missing() {
    let mut i = Install::new();
    let bytes = release_bytes();
    i.pin(&bytes);
    let server = StandIn::start();
    server.file(&format!("/{}", asset()), bytes, Behaviour::default());
    i.path = toolbox(&i.tmp.path().join("none"), BASE_TOOLS);
    let msg = system_message(&i.session_start(&server.url()));
    assert!(msg.contains("neither curl nor wget is installed"), "{msg}");

    let mut tools = BASE_TOOLS.to_vec();
    tools.push("curl");
    i.path = toolbox(&i.tmp.path().join("curl-only"), &tools);
    let msg = system_message(&i.session_start(&server.url()));
    assert!(
        msg.contains("none of sha256sum, shasum or openssl"),
        "{msg}"
    );
    assert_eq!(i.data_files(), vec!["install.log"]);
}

#[test]
fn issue_17_your_own_build_of_this_version_on_path_is_used_without_a_download() {
    let mut i = Install::new();
    let own = i.tmp.path().join("cargo-bin");
    fs::create_dir_all(&own).unwrap();
    std::os::unix::fs::symlink(bin(), own.join("baton")).unwrap();
    i.path = format!("{}:{}", own.display(), i.path);
    let server = StandIn::start();
    let out = i.session_start(&server.url());
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        v["hookSpecificOutput"]["hookEventName"], "SessionStart",
        "{out:?}"
    );
    assert!(server.requests().is_empty());
    assert_eq!(fs::read(i.installed()).unwrap(), release_bytes());
    let log = fs::read_to_string(i.data.join("bin/install.log")).unwrap();
    assert!(log.contains("installed your build"), "{log}");
}

#[test]
fn issue_17_in_a_git_checkout_the_tracked_stub_stays_and_runs_the_binary() {
    let i = Install::new();
    // A directory marketplace: Claude Code runs the plugin in place, inside the clone.
    fs::create_dir_all(i.plugin.parent().unwrap().join(".git")).unwrap();
    let bytes = release_bytes();
    i.pin(&bytes);
    let server = StandIn::start();
    server.file(&format!("/{}", asset()), bytes, Behaviour::default());
    let out = i.session_start(&server.url());
    assert!(out.stdout.contains("hookSpecificOutput"), "{out:?}");
    assert!(fs::symlink_metadata(i.stub())
        .unwrap()
        .file_type()
        .is_file());
    // The model's Bash tool has no CLAUDE_PLUGIN_DATA: the stub finds the binary all the same.
    let mut c = Command::new(i.stub());
    c.arg("--version")
        .env_clear()
        .env("PATH", &i.path)
        .env("HOME", i.home());
    let v = run_retrying(c, "");
    assert_eq!(v.stdout.trim(), format!("baton {VERSION}"), "{v:?}");
}

#[test]
fn issue_17_two_sessions_starting_at_once_download_once() {
    let i = Install::new();
    let (server, url) = slow_release(&i);
    let outs: Vec<Out> = std::thread::scope(|s| {
        let a = s.spawn(|| i.session_start(&url));
        let b = s.spawn(|| i.session_start(&url));
        vec![a.join().unwrap(), b.join().unwrap()]
    });
    for out in &outs {
        assert!(out.stdout.contains("hookSpecificOutput"), "{out:?}");
    }
    assert_eq!(server.requests().len(), 1, "{:?}", server.requests());
}

#[test]
fn issue_17_a_command_before_the_install_installs_first_then_runs() {
    let i = Install::new();
    let bytes = release_bytes();
    i.pin(&bytes);
    let server = StandIn::start();
    server.file(&format!("/{}", asset()), bytes, Behaviour::default());
    let out = i.run(&["--version"], "", &[("BATON_DOWNLOAD_URL", &server.url())]);
    assert_eq!(out.stdout.trim(), format!("baton {VERSION}"), "{out:?}");
    assert!(out.stderr.contains("installing baton"), "{out:?}");
    let failed = Install::new().run(
        &["status"],
        "",
        &[("BATON_DOWNLOAD_URL", "http://127.0.0.1:9")],
    );
    assert_eq!(failed.code, 1, "{failed:?}");
    assert!(failed.stderr.contains("Fix:"), "{failed:?}");
}

#[test]
fn issue_17_the_plugin_folder_holds_only_the_plugin_and_one_version() {
    let plugin = Path::new(REPO).join("plugin");
    let mut names: Vec<String> = fs::read_dir(&plugin)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ".claude-plugin",
            "bin",
            "commands",
            "hooks",
            "install",
            "skills"
        ],
        "the marketplace copies this folder: no build output in it"
    );
    for link in ["commands", "hooks", "skills", ".claude-plugin/plugin.json"] {
        let p = plugin.join(link);
        assert!(
            fs::symlink_metadata(&p).unwrap().file_type().is_symlink(),
            "{link}"
        );
        assert_eq!(
            p.canonicalize().unwrap(),
            Path::new(REPO).join(link).canonicalize().unwrap()
        );
    }
    let market: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(Path::new(REPO).join(".claude-plugin/marketplace.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(market["plugins"][0]["source"], "./plugin");
    let stub = fs::read_to_string(plugin.join("bin/baton")).unwrap();
    assert!(
        stub.lines().any(|l| l == format!("version={VERSION}")),
        "the stub's version"
    );
    let mode = fs::metadata(plugin.join("bin/baton"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o111, 0o111, "the stub is executable");
    // Every pinned checksum is of this version's binaries: a version bump must re-pin.
    let sums = fs::read_to_string(plugin.join("install/SHA256SUMS")).unwrap();
    for line in sums
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (sum, file) = line.split_once("  ").unwrap_or_else(|| panic!("{line}"));
        assert!(
            sum.len() == 64 && sum.bytes().all(|b| b.is_ascii_hexdigit()),
            "{line}"
        );
        assert!(file.starts_with(&format!("baton-{VERSION}-")), "{line}");
    }
}

/// `baton doctor` (the test binary) on the plugin copy of `i`, with `path` as PATH.
fn doctor(i: &Install, path: &str) -> serde_json::Value {
    let mut c = Command::new(bin());
    c.args(["doctor", "--json"])
        .current_dir(&i.project)
        .env_clear()
        .env("PATH", path)
        .env("HOME", i.home())
        .env("CLAUDE_PLUGIN_ROOT", &i.plugin)
        .env("CLAUDE_PLUGIN_DATA", &i.data);
    let out = run_retrying(c, "");
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"))
}

fn named<'a>(v: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no {name} check: {v}"))
}

#[test]
fn issue_17_doctor_tells_the_stub_from_the_installed_release_and_says_how_to_reach_baton() {
    let i = Install::new();
    // Before the install: the stub, and what the last attempt said.
    let v = doctor(&i, &i.path);
    let b = named(&v, "binary");
    assert_eq!(b["level"], "fail", "{b}");
    assert!(
        b["detail"].as_str().unwrap().contains("launcher stub"),
        "{b}"
    );
    assert!(
        b["fix"]
            .as_str()
            .unwrap()
            .contains("start a new Claude Code session"),
        "{b}"
    );

    // Installed and pinned: verified.
    let bytes = release_bytes();
    i.pin(&bytes);
    let server = StandIn::start();
    server.file(&format!("/{}", asset()), bytes, Behaviour::default());
    i.session_start(&server.url());
    let v = doctor(&i, &i.path);
    let b = named(&v, "binary");
    assert_eq!(b["level"], "ok", "{b}");
    assert!(
        b["detail"].as_str().unwrap().contains("the release pinned"),
        "{b}"
    );
    // Not on PATH: the exact command, to the stable link that follows updates.
    let p = named(&v, "on PATH");
    assert_eq!(p["level"], "ok", "{p}");
    assert!(
        p["detail"]
            .as_str()
            .unwrap()
            .contains("not on your shell's PATH"),
        "{p}"
    );
    let stable = i.data.join("bin/baton");
    assert!(
        p["fix"]
            .as_str()
            .unwrap()
            .contains(&format!("ln -sf '{}' ~/.local/bin/baton", stable.display())),
        "{p}"
    );
    let on_path = format!("{}:{}", i.data.join("bin").display(), i.path);
    let found = named(&doctor(&i, &on_path), "on PATH").clone();
    assert!(
        found["detail"]
            .as_str()
            .unwrap()
            .starts_with("baton in a shell is "),
        "{found}"
    );
    assert!(found.get("fix").is_none(), "{found}");

    // A binary that is not the pinned one is named.
    let sums = i.plugin.join("install/SHA256SUMS");
    let text = fs::read_to_string(&sums).unwrap();
    fs::write(
        &sums,
        text.replace(&sha256(&release_bytes()), &"0".repeat(64)),
    )
    .unwrap();
    let b = named(&doctor(&i, &i.path), "binary").clone();
    assert_eq!(b["level"], "warn", "{b}");
    assert!(
        b["detail"]
            .as_str()
            .unwrap()
            .contains("not the release binary"),
        "{b}"
    );
}

/// A marketplace added from a folder on disk, as a user's clone has it (links as shipped,
/// a `.git`), Claude Code's records of it (`known_marketplaces.json`, and an
/// `installed_plugins.json` whose install path is a cache copy Claude Code never runs), and
/// this version's binary installed in the plugin's data folder. Returns (clone, data folder).
fn local_marketplace(home: &Path, root: &Path) -> (PathBuf, PathBuf) {
    let clone = root.join("src/baton");
    for dir in [".claude-plugin", "hooks", "commands", "skills", "plugin"] {
        for entry in walkdir::WalkDir::new(Path::new(REPO).join(dir)) {
            let entry = entry.unwrap();
            let rel = entry.path().strip_prefix(REPO).unwrap();
            let to = clone.join(rel);
            if entry.path_is_symlink() {
                fs::create_dir_all(to.parent().unwrap()).unwrap();
                std::os::unix::fs::symlink(fs::read_link(entry.path()).unwrap(), &to).unwrap();
            } else if entry.file_type().is_dir() {
                fs::create_dir_all(&to).unwrap();
            } else {
                fs::copy(entry.path(), &to).unwrap();
            }
        }
    }
    fs::create_dir_all(clone.join(".git")).unwrap();
    let plugins = home.join(".claude/plugins");
    let cache = plugins.join(format!("cache/baton/baton/{VERSION}"));
    copy_following_links(&Path::new(REPO).join("plugin"), &cache);
    fs::write(
        plugins.join("installed_plugins.json"),
        serde_json::json!({"version": 2, "plugins": {"baton@baton": [{"scope": "user", "installPath": cache, "version": VERSION}]}}).to_string(),
    )
    .unwrap();
    fs::write(
        plugins.join("known_marketplaces.json"),
        serde_json::json!({"baton": {"source": {"source": "directory", "path": clone}, "installLocation": clone}}).to_string(),
    )
    .unwrap();
    let data = plugins.join("data/baton-baton");
    fs::create_dir_all(data.join("bin")).unwrap();
    let installed = data.join(format!("bin/baton-{VERSION}"));
    fs::copy(bin(), &installed).unwrap();
    std::os::unix::fs::symlink(format!("baton-{VERSION}"), data.join("bin/baton")).unwrap();
    (clone, data)
}

/// The checks that failed in a `doctor --json` answer, as `name: detail`.
fn failed(v: &serde_json::Value) -> Vec<String> {
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["level"] == "fail")
        .map(|c| format!("{}: {}", c["name"], c["detail"]))
        .collect()
}

/// Issue 39: a marketplace added from a clone runs `plugin/` in place, where
/// `.claude-plugin/plugin.json` is a link as the repository ships it; doctor follows that
/// link, and finds the binary the launcher stub runs whether Claude Code starts it (hook,
/// slash command) or a shell does.
#[test]
fn issue_39_doctor_agrees_with_what_the_hooks_run_for_a_marketplace_in_a_clone() {
    let i = Install::new();
    let root = i.tmp.path().canonicalize().unwrap();
    let (clone, data) = local_marketplace(&i.home(), &root);
    let stub = clone.join("plugin/bin/baton");
    let run = |program: &Path, args: &[&str], claude: bool| {
        let mut c = Command::new(program);
        c.args(args)
            .current_dir(&i.project)
            .env_clear()
            .env("PATH", &i.path)
            .env("HOME", i.home());
        if claude {
            c.env("CLAUDE_PLUGIN_ROOT", clone.join("plugin"))
                .env("CLAUDE_PLUGIN_DATA", &data);
        }
        run_retrying(c, "")
    };
    // As /baton:status runs it: the stub in place, with Claude Code's variables.
    let out = run(&stub, &["doctor", "--json"], true);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(failed(&v), Vec::<String>::new(), "{v}");
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        named(&v, "plugin.json")["detail"],
        format!("baton {VERSION}")
    );
    // In a shell: the data folder's binary (the link doctor tells users to make).
    let out = run(&data.join("bin/baton"), &["doctor", "--json"], false);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(failed(&v), Vec::<String>::new(), "{v}");
    let b = named(&v, "binary");
    assert!(
        b["detail"].as_str().unwrap().contains(&format!(
            "runs {}",
            data.join(format!("bin/baton-{VERSION}")).display()
        )),
        "{b}"
    );
    // A link that leaves the repository is still refused.
    let pj = clone.join("plugin/.claude-plugin/plugin.json");
    fs::remove_file(&pj).unwrap();
    let elsewhere = root.join("elsewhere.json");
    fs::copy(clone.join(".claude-plugin/plugin.json"), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &pj).unwrap();
    let out = run(&stub, &["doctor", "--json"], true);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let p = named(&v, "plugin.json");
    assert_eq!(p["level"], "fail", "{p}");
    assert!(
        p["detail"]
            .as_str()
            .unwrap()
            .contains("outside the plugin's repository"),
        "{p}"
    );
    // /baton:status shows doctor's findings and never fails the slash command.
    let out = run(&stub, &["status", "--doctor"], true);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("FAIL plugin.json"), "{}", out.stdout);
    assert!(
        out.stdout.starts_with(&format!("baton {VERSION} — ")),
        "{}",
        out.stdout
    );
}

/// What an MCP client sends first: initialize, the initialized notification, tools/list.
const MCP_OPENING: &str = concat!(
    r#"{"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.1.197"}},"jsonrpc":"2.0","id":0}"#,
    "\n",
    r#"{"method":"notifications/initialized","jsonrpc":"2.0"}"#,
    "\n",
    r#"{"method":"tools/list","jsonrpc":"2.0","id":1}"#,
    "\n"
);

/// The tool names of the tools/list answer (id 1) of an MCP exchange.
fn mcp_tools(out: &Out) -> Vec<String> {
    let answers: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?} in {out:?}")))
        .collect();
    assert_eq!(
        answers.len(),
        2,
        "initialize and tools/list answered: {out:?}"
    );
    assert_eq!(answers[0]["id"], 0, "{out:?}");
    assert_eq!(
        answers[0]["result"]["serverInfo"]["name"], "baton",
        "{out:?}"
    );
    answers[1]["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{out:?}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

/// Issue 39: Claude Code remembers an MCP server that failed to start (15 minutes), so
/// `baton mcp` through the stub never fails: with no binary to be had it serves no tools
/// and exits 0; with one on the way it installs (or waits for SessionStart's install) and
/// the binary serves recall.
#[test]
fn issue_39_baton_mcp_before_the_install_never_fails() {
    // Nothing to install (no release pinned, no build on PATH): a server with no tools.
    let i = Install::new();
    let out = i.run(
        &["mcp"],
        MCP_OPENING,
        &[("BATON_DOWNLOAD_URL", "http://127.0.0.1:9")],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(mcp_tools(&out), Vec::<String>::new());

    // A release on the way: the server is the binary's, in the same start.
    let i = Install::new();
    let (server, url) = slow_release(&i);
    // SessionStart and the MCP server start together, as Claude Code starts them.
    let (start, mcp) = std::thread::scope(|s| {
        let a = s.spawn(|| i.session_start(&url));
        let b = s.spawn(|| i.run(&["mcp"], MCP_OPENING, &[("BATON_DOWNLOAD_URL", &url)]));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert!(start.stdout.contains("hookSpecificOutput"), "{start:?}");
    assert_eq!(mcp.code, 0, "{mcp:?}");
    assert_eq!(mcp_tools(&mcp), ["recall", "timeline"]);
    assert_eq!(
        server.requests().len(),
        1,
        "one download: {:?}",
        server.requests()
    );
}

/// Issue 36, finding 7: the bootstrap takes only a real executable of this machine that says
/// it is this version, outside the project by real paths. A text file that prints `baton
/// 0.1.0` (it has no `#!` line, so `sh` would run it) is not one; nor is a real build in the
/// project reached through a link to the project folder.
#[test]
fn issue_36_7_only_a_real_executable_outside_the_project_is_taken_as_your_build() {
    // A script posing as a build, outside the project.
    let mut i = Install::new();
    let fake = i.tmp.path().join("fake-bin");
    fs::create_dir_all(&fake).unwrap();
    fs::write(
        fake.join("baton"),
        format!("touch \"$HOME/ran-the-fake\"\necho 'baton {VERSION}'\n"),
    )
    .unwrap();
    fs::set_permissions(fake.join("baton"), fs::Permissions::from_mode(0o755)).unwrap();
    i.path = format!("{}:{}", fake.display(), i.path);
    let server = StandIn::start();
    let out = i.session_start(&server.url());
    assert!(!i.installed().exists(), "the fake was installed: {out:?}");
    assert!(
        !i.home().join("ran-the-fake").exists(),
        "the fake was run to ask its version"
    );

    // A real build inside the project, with the project reached through a link.
    let mut i = Install::new();
    let planted = i.project.join("tools");
    fs::create_dir_all(&planted).unwrap();
    fs::copy(bin(), planted.join("baton")).unwrap();
    let link = i.tmp.path().join("linked-project");
    std::os::unix::fs::symlink(&i.project, &link).unwrap();
    i.path = format!("{}:{}", planted.display(), i.path);
    let out = i.run(
        &["hook", "SessionStart"],
        &event("SessionStart", &link),
        &[
            ("BATON_DOWNLOAD_URL", &server.url()),
            ("CLAUDE_PROJECT_DIR", link.to_str().unwrap()),
        ],
    );
    assert!(
        !i.installed().exists(),
        "the planted build was installed: {out:?}"
    );
    // A link on PATH to a build in the project is the project's too.
    let mut i = Install::new();
    fs::create_dir_all(i.project.join("tools")).unwrap();
    fs::copy(bin(), i.project.join("tools/baton")).unwrap();
    let outside = i.tmp.path().join("my-bin");
    fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(i.project.join("tools/baton"), outside.join("baton")).unwrap();
    i.path = format!("{}:{}", outside.display(), i.path);
    let out = i.session_start(&server.url());
    assert!(
        !i.installed().exists(),
        "a linked planted build was installed: {out:?}"
    );
}
