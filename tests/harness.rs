//! A small harness that runs the real `baton` binary in a fresh temp project.
//!
//! `Project` is a temp dir that is HOME, the XDG dirs and a git repository (the project).
//! `Project::run` starts the binary there with a clean environment (no inherited `BATON_*`,
//! `CLAUDE_*` or XDG variables) and returns what it printed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The built binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_baton")
}

/// A temp home with a git repository in it.
pub struct Project {
    pub home: tempfile::TempDir,
    pub root: PathBuf,
}

/// What one run printed.
#[derive(Debug)]
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    /// stdout as JSON (panics with the output when it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {self:?}"))
    }
}

impl Project {
    /// A new project with an initial commit.
    pub fn new() -> Project {
        let home = tempfile::tempdir().unwrap();
        let root = home.path().join("proj");
        std::fs::create_dir_all(&root).unwrap();
        let repo = git2::Repository::init(&root).unwrap();
        std::fs::write(root.join("README.md"), "# demo\n").unwrap();
        let mut index = repo.index().unwrap();
        index.add_path(Path::new("README.md")).unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
        repo.commit(Some("HEAD"), &sig, &sig, "init", &tree, &[])
            .unwrap();
        Project { home, root }
    }

    /// A fixture event with `CWD` replaced by the project root.
    pub fn event(&self, name: &str) -> String {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/hooks")
            .join(format!("{name}.json"));
        std::fs::read_to_string(path)
            .unwrap()
            .replace("CWD", self.root.to_str().unwrap())
    }

    /// Writes a file under the project root.
    pub fn write(&self, rel: &str, text: &str) {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// The base command: clean environment, cwd = project root.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(bin());
        c.args(args)
            .current_dir(&self.root)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("BATON_NOW", "2026-11-30T10:15:00Z");
        c
    }

    /// Runs baton with `args`, `stdin` and extra `env`.
    pub fn run(&self, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
        let mut c = self.command(args);
        for (k, v) in env {
            c.env(k, v);
        }
        run_command(c, stdin)
    }

    /// Writes `rel` with `text` and commits it alone as the user's own work on HEAD; the new
    /// commit's id.
    pub fn commit_file(&self, rel: &str, text: &str, msg: &str) -> git2::Oid {
        self.write(rel, text);
        let repo = git2::Repository::open(&self.root).unwrap();
        let mut index = repo.index().unwrap();
        index.add_path(Path::new(rel)).unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
        let parent = repo.head().unwrap().peel_to_commit().unwrap();
        repo.commit(Some("HEAD"), &sig, &sig, msg, &tree, &[&parent])
            .unwrap()
    }

    /// The file `name` of this project's private folder (`~/.local/state/baton/projects/<key>/`),
    /// wherever the key puts it; `None` when there is none.
    pub fn private_file(&self, name: &str) -> Option<std::path::PathBuf> {
        let projects = self.home.path().join(".local/state/baton/projects");
        std::fs::read_dir(projects)
            .ok()?
            .flatten()
            .map(|e| e.path().join(name))
            .find(|p| p.is_file())
    }

    /// `git ARGS` in the project, as user `t`; its stdout (a failure fails the test).
    pub fn git(&self, args: &[&str]) -> String {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
            .args(args)
            .current_dir(&self.root)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `git status --porcelain` of the project (untracked files listed one by one).
    pub fn git_status(&self) -> String {
        self.git(&["status", "--porcelain", "--untracked-files=all"])
    }

    /// Runs `baton hook EVENT` as hooks.json does, with CLAUDE_PROJECT_DIR set.
    pub fn hook(&self, event: &str, stdin: &[u8]) -> Output {
        let root = self.root.to_str().unwrap().to_string();
        self.run(&["hook", event], stdin, &[("CLAUDE_PROJECT_DIR", &root)])
    }

    /// Runs each of `events` (fixture events, `self.event`) as a hook, in order; each must exit 0.
    pub fn hooks(&self, events: &[&str]) {
        for event in events {
            let out = self.hook(event, self.event(event).as_bytes());
            assert_eq!(out.code, 0, "{event}: {out:?}");
        }
    }

    /// A session start's answer: the context it adds and its `systemMessage` (empty when
    /// it has none); it must exit 0.
    pub fn start_context(&self) -> (String, String) {
        let out = self.hook("SessionStart", self.event("SessionStart").as_bytes());
        assert_eq!(out.code, 0, "{out:?}");
        let v = out.json();
        (
            v["hookSpecificOutput"]["additionalContext"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            v["systemMessage"].as_str().unwrap_or_default().to_string(),
        )
    }
}

/// Runs a prepared command with `stdin` piped in.
pub fn run_command(mut c: Command, stdin: &[u8]) -> Output {
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut sin = child.stdin.take().unwrap();
        // The binary may exit before reading everything; that is not a test failure.
        let _ = sin.write_all(stdin);
    }
    let out = child.wait_with_output().unwrap();
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
