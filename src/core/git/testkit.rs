//! Real repositories in temp dirs for the git module's tests, set up with the `git` CLI under
//! a pinned environment: a temp `HOME`, an empty global config, no system config. Identity,
//! `commit.gpgsign=false` and `core.hooksPath` are set in the repository's own config, which
//! also keeps libgit2 (it reads the machine's global config) from seeing anything else.

use super::{commit_paths_guarded, CommitOptions, Outcome};
use crate::core::ctx::Env;
use crate::core::exec;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The deadline the tests give a commit (generous: CI machines are shared).
pub(super) const DEADLINE: Duration = Duration::from_secs(60);

pub(super) struct Fx {
    pub(super) tmp: tempfile::TempDir,
    /// The work tree's top.
    pub(super) root: PathBuf,
    home: String,
    global: String,
    /// The machine's `PATH`, where `git` is.
    pub(super) path: String,
}

impl Fx {
    /// A repository on `main` with one commit (`README`).
    pub(super) fn new() -> Fx {
        let fx = Fx::unborn();
        fx.write("README", "hi\n");
        fx.git(&["add", "README"]);
        fx.git(&["commit", "-q", "-m", "first"]);
        fx
    }

    /// A repository on `main` with no commit yet.
    pub(super) fn unborn() -> Fx {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(home.join("gitconfig"), "").unwrap();
        let root = tmp.path().join("repo");
        let fx = Fx {
            path: Env::process().var("PATH").unwrap_or_default(),
            global: home.join("gitconfig").to_string_lossy().into_owned(),
            home: home.to_string_lossy().into_owned(),
            tmp,
            root,
        };
        fx.git_in(fx.tmp.path(), &["init", "-q", "-b", "main", "repo"]);
        let hooks = fx.root.join(".git/hooks");
        for (k, v) in [
            ("user.name", "Tess Ter"),
            ("user.email", "tess@example.invalid"),
            ("commit.gpgsign", "false"),
            ("core.hooksPath", hooks.to_str().unwrap()),
        ] {
            fx.git(&["config", k, v]);
        }
        fx
    }

    /// The pinned variables, for the fixture's git and for the commit under test.
    pub(super) fn env(&self) -> Vec<(&str, &str)> {
        vec![
            ("HOME", &self.home),
            ("XDG_CONFIG_HOME", &self.home),
            ("GIT_CONFIG_NOSYSTEM", "1"),
            ("GIT_CONFIG_GLOBAL", &self.global),
        ]
    }

    /// Runs git in `dir`; panics unless it succeeds. Its merged output.
    pub(super) fn git_in(&self, dir: &Path, args: &[&str]) -> String {
        let run = self.run_git(dir, args);
        assert!(run.ok(), "git {args:?}: {run:?}");
        run.output
    }

    fn run_git(&self, dir: &Path, args: &[&str]) -> exec::Run {
        let mut cmd = exec::command("git");
        cmd.current_dir(dir)
            .env("PATH", &self.path)
            .env("LC_ALL", "C")
            .env("GIT_EDITOR", "true")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE");
        for (k, v) in self.env() {
            cmd.env(k, v);
        }
        cmd.args(args);
        exec::run(cmd, DEADLINE, true)
    }

    /// Runs git in the work tree; panics unless it succeeds.
    pub(super) fn git(&self, args: &[&str]) -> String {
        self.git_in(&self.root, args)
    }

    /// Runs git in the work tree; panics if it succeeds (a conflict, a stopped rebase).
    pub(super) fn git_fails(&self, args: &[&str]) -> String {
        let run = self.run_git(&self.root, args);
        assert!(!run.ok(), "git {args:?} succeeded: {run:?}");
        run.output
    }

    pub(super) fn write(&self, rel: &str, text: &str) {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    pub(super) fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root.join(rel)).unwrap()
    }

    /// Installs hook `name` with `script`. Written by a child `sh`, not by this process: a
    /// file this (multi-threaded) process had open for writing could be "text file busy"
    /// when git runs it.
    pub(super) fn hook(&self, name: &str, script: &str) {
        let path = self.root.join(".git/hooks").join(name);
        let mut cmd = exec::command("sh");
        cmd.env("PATH", &self.path).args([
            "-c",
            r#"printf '%s' "$1" > "$2" && chmod 755 "$2""#,
            "sh",
            script,
            path.to_str().unwrap(),
        ]);
        assert!(exec::run(cmd, DEADLINE, true).ok());
    }

    /// HEAD's full SHA; empty before the first commit.
    pub(super) fn head(&self) -> String {
        let run = self.run_git(&self.root, &["rev-parse", "--verify", "-q", "HEAD"]);
        run.output.trim().to_string()
    }

    /// `git status --porcelain` with every untracked file.
    pub(super) fn status(&self) -> String {
        self.git(&["status", "--porcelain=v1", "-uall"])
    }

    /// The paths the HEAD commit changed.
    pub(super) fn last_commit_paths(&self) -> Vec<String> {
        let out = self.git(&["show", "--name-only", "--format=", "HEAD"]);
        let mut v: Vec<String> = out.lines().map(str::to_string).collect();
        v.sort();
        v
    }

    /// Creates branch `other` and moves `main` on, both changing `f` from its base: any
    /// merge, rebase or pick between them conflicts. Ends on `main`.
    pub(super) fn diverge(&self) {
        self.write("f", "base\n");
        self.git(&["add", "f"]);
        self.git(&["commit", "-q", "-m", "base"]);
        self.git(&["checkout", "-q", "-b", "other"]);
        self.write("f", "other\n");
        self.git(&["commit", "-q", "-am", "other"]);
        self.git(&["checkout", "-q", "main"]);
        self.write("f", "main\n");
        self.git(&["commit", "-q", "-am", "main"]);
    }

    /// Commits `paths` from `project` with git on PATH.
    pub(super) fn commit(&self, project: &Path, paths: &[&str]) -> Outcome {
        self.commit_with(project, paths, Some(&self.path), DEADLINE)
    }

    pub(super) fn commit_with(
        &self,
        project: &Path,
        paths: &[&str],
        path_env: Option<&str>,
        deadline: Duration,
    ) -> Outcome {
        let env = self.env();
        // As `Project::commit` does: the temp files in a private scratch folder.
        let state = self.tmp.path().join("state");
        let opts = CommitOptions {
            deadline,
            path_env,
            env: &env,
            scratch: Some(&state),
        };
        let paths: Vec<&Path> = paths.iter().map(Path::new).collect();
        commit_paths_guarded(project, &paths, "chore: update rune session state", &opts).unwrap()
    }
}
