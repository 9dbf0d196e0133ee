//! Issue #10: baton in a repository whatever state it is in — the nine findings of the red
//! team, each as a test that failed on the code before the fix. Real repositories, the real
//! binary, the real `git` CLI to set up git states.

use crate::harness::{Output, Project};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const SAVE: &str = "summary: a save\ndecisions: [{title: Use git2, decision: yes}]\n";

/// `git` in `dir` with the machine's own configuration kept out.
fn git(p: &Project, dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("HOME", p.home.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", p.home.path().join(".gitconfig-none"))
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .output()
        .unwrap()
}

fn git_ok(p: &Project, args: &[&str]) -> String {
    let out = git(p, &p.root, args);
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn head(p: &Project) -> String {
    git_ok(p, &["rev-parse", "HEAD"])
}

fn commits(p: &Project) -> usize {
    git_ok(p, &["rev-list", "--count", "HEAD"]).parse().unwrap()
}

fn save(p: &Project) -> Output {
    let out = p.run(&["bridge", "save"], SAVE.as_bytes(), &[]);
    assert_eq!(out.code, 0, "{out:?}");
    out
}

/// Runs `f` on another thread and fails the test if it has not returned within `limit` (a
/// hang is the bug, not a slow machine: the limits are far above the normal time).
fn within<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("still running after {limit:?}: it hung"))
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    walk(dir)
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

// 1. Data loss on a detached HEAD ----------------------------------------------------------

#[test]
fn issue_10_1_no_commit_on_a_detached_head() {
    let p = Project::new();
    git_ok(&p, &["checkout", "-q", "--detach"]);
    let before = head(&p);
    let out = save(&p);
    assert!(
        out.stdout.contains("not committed: HEAD is detached"),
        "{out:?}"
    );
    assert_eq!(head(&p), before, "a commit was made on a detached HEAD");
    assert!(p.root.join(".rune/decisions.md").is_file());

    // The relay's hand-off too.
    p.write(
        ".handoff/loop/loop_state.md",
        "loop_id: WL-001\ncycles_this_session: 5\ncycle_budget: 5\n",
    );
    let out = p.run(&["relay", "handoff", "--no-stdin"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("NOT committed"), "{out:?}");
    assert_eq!(head(&p), before);
    assert!(p.root.join(".handoff/packets/latest.md").is_file());
}

// 2. Commits in the wrong git state -------------------------------------------------------

#[test]
fn issue_10_2_no_commit_during_a_merge_and_no_conflict_markers_committed() {
    let p = Project::new();
    p.write("f.txt", "base\n");
    git_ok(&p, &["add", "f.txt"]);
    git_ok(&p, &["commit", "-qm", "base"]);
    git_ok(&p, &["checkout", "-qb", "other"]);
    p.write("f.txt", "other\n");
    git_ok(&p, &["commit", "-qam", "other"]);
    git_ok(&p, &["checkout", "-q", "-"]);
    p.write("f.txt", "mine\n");
    git_ok(&p, &["commit", "-qam", "mine"]);
    let merge = git(&p, &p.root, &["merge", "-q", "other"]);
    assert!(!merge.status.success(), "the merge should conflict");
    let before = head(&p);
    let out = save(&p);
    assert!(
        out.stdout.contains("not committed") && out.stdout.contains("merge"),
        "{out:?}"
    );
    assert_eq!(head(&p), before);
    let staged = git_ok(&p, &["diff", "--cached", "--name-only"]);
    assert!(!staged.contains(".rune"), "staged: {staged}");
}

#[test]
fn issue_10_2_no_commit_mid_rebase_in_an_unborn_repository_or_a_bare_one() {
    // Mid-rebase: a conflicting rebase stops half-way.
    let p = Project::new();
    p.write("f.txt", "base\n");
    git_ok(&p, &["add", "f.txt"]);
    git_ok(&p, &["commit", "-qm", "base"]);
    git_ok(&p, &["checkout", "-qb", "topic"]);
    p.write("f.txt", "topic\n");
    git_ok(&p, &["commit", "-qam", "topic"]);
    git_ok(&p, &["checkout", "-q", "-"]);
    p.write("f.txt", "main\n");
    git_ok(&p, &["commit", "-qam", "main"]);
    git_ok(&p, &["checkout", "-q", "topic"]);
    assert!(
        !git(&p, &p.root, &["rebase", "-q", "master"])
            .status
            .success()
            || !git(&p, &p.root, &["rebase", "-q", "main"]).status.success()
    );
    let before = git_ok(&p, &["rev-parse", "HEAD"]);
    let out = save(&p);
    assert!(
        out.stdout.contains("not committed") && out.stdout.contains("rebase"),
        "{out:?}"
    );
    assert_eq!(git_ok(&p, &["rev-parse", "HEAD"]), before);

    // Unborn: baton never makes a repository's first commit.
    let q = Project::new();
    std::fs::remove_dir_all(q.root.join(".git")).unwrap();
    git_ok(&q, &["init", "-q"]);
    let out = save(&q);
    assert!(out.stdout.contains("not committed"), "{out:?}");
    assert!(!git(&q, &q.root, &["rev-parse", "HEAD"]).status.success());

    // A bare repository as the project: nothing is written into the git directory.
    let r = Project::new();
    let bare = r.home.path().join("bare.git");
    let out = git(
        &r,
        r.home.path(),
        &["init", "-q", "--bare", bare.to_str().unwrap()],
    );
    assert!(out.status.success());
    let before = files_under(&bare).len();
    let dir = bare.to_str().unwrap();
    let out = r.run(&["bridge", "save", "--root", dir], SAVE.as_bytes(), &[]);
    assert_ne!(out.code, 0, "{out:?}");
    let ev = r.event("PostToolUse");
    r.run(
        &["hook", "PostToolUse"],
        ev.as_bytes(),
        &[("CLAUDE_PROJECT_DIR", dir)],
    );
    assert_eq!(
        files_under(&bare).len(),
        before,
        "state written into the git directory"
    );
}

#[test]
fn issue_10_2_commits_run_the_repositorys_hooks_and_signing() {
    let p = Project::new();
    let hooks = p.root.join(".git/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    let marker = p.home.path().join("pre-commit-ran");
    std::fs::write(
        hooks.join("pre-commit"),
        format!("#!/bin/sh\ntouch '{}'\n", marker.display()),
    )
    .unwrap();
    std::fs::set_permissions(
        hooks.join("pre-commit"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let before = commits(&p);
    save(&p);
    assert!(marker.exists(), "the pre-commit hook did not run");
    assert_eq!(commits(&p), before + 1);

    // A hook that rejects: no commit, the hook is named, the files stay.
    std::fs::write(
        hooks.join("pre-commit"),
        "#!/bin/sh\necho 'secret scanner: found something' >&2\nexit 1\n",
    )
    .unwrap();
    let out = p.run(&["bridge", "save"], b"summary: second\n", &[]);
    assert!(
        out.stdout.contains("pre-commit") && out.stdout.contains("secret scanner"),
        "{out:?}"
    );
    assert_eq!(commits(&p), before + 1);
    std::fs::remove_file(hooks.join("pre-commit")).unwrap();

    // Signing that fails: no unsigned commit.
    let gpg = p.home.path().join("gpg-fails");
    std::fs::write(&gpg, "#!/bin/sh\nexit 2\n").unwrap();
    std::fs::set_permissions(&gpg, std::fs::Permissions::from_mode(0o755)).unwrap();
    git_ok(&p, &["config", "commit.gpgsign", "true"]);
    git_ok(&p, &["config", "gpg.program", gpg.to_str().unwrap()]);
    let out = p.run(&["bridge", "save"], b"summary: third\n", &[]);
    assert!(out.stdout.contains("not committed"), "{out:?}");
    assert_eq!(commits(&p), before + 1);
}

// 3. A project in a subdirectory of a repository ------------------------------------------

#[test]
fn issue_10_3_a_project_in_a_subdirectory_commits_its_own_memory_only() {
    let p = Project::new();
    p.write(".rune/decisions.md", "# Decisions Log\n");
    git_ok(&p, &["add", ".rune"]);
    git_ok(&p, &["commit", "-qm", "root memory"]);
    // The user's own uncommitted edit of the root's memory.
    p.write(".rune/decisions.md", "# Decisions Log\nmy hand edit\n");
    let sub = p.root.join("packages/foo");
    std::fs::create_dir_all(&sub).unwrap();
    let out = p.run(
        &["bridge", "save"],
        SAVE.as_bytes(),
        &[("CLAUDE_PROJECT_DIR", sub.to_str().unwrap())],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let changed = git_ok(&p, &["show", "--name-only", "--format=", "HEAD"]);
    assert!(
        changed
            .lines()
            .all(|l| l.starts_with("packages/foo/.rune/")),
        "{changed}"
    );
    assert!(
        changed.contains("packages/foo/.rune/decisions.md"),
        "{changed}"
    );
    let status = git_ok(&p, &["status", "--porcelain"]);
    assert!(status.contains("M .rune/decisions.md"), "{status}");
}

// 4. Symlinked parent folders -------------------------------------------------------------

#[test]
fn issue_10_4_nothing_is_written_through_a_linked_folder() {
    let p = Project::new();
    let outside = p.home.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    // .boo/runs linked outside: the hooks' records must not land there.
    std::fs::create_dir_all(p.root.join(".boo")).unwrap();
    std::os::unix::fs::symlink(&outside, p.root.join(".boo/runs")).unwrap();
    for event in ["SessionStart", "UserPromptSubmit", "PostToolUse", "Stop"] {
        let out = p.hook(event, p.event(event).as_bytes());
        assert_ne!(out.code, 2, "{out:?}");
    }
    assert!(
        files_under(&outside).is_empty(),
        "{:?}",
        files_under(&outside)
    );

    // datarim/ linked outside: a handoff save is refused, nothing written there.
    std::os::unix::fs::symlink(&outside, p.root.join("datarim")).unwrap();
    p.write("body.md", "## Layer 1\nHEAD: abc\n## Layer 5\nnone\n");
    p.write("tasks.txt", "");
    let out = p.run(
        &[
            "handoff",
            "write",
            "--session",
            "SESSION-20261130-101500",
            "--captured-by",
            "agent",
            "--recommended-next",
            "x",
            "--next-action",
            "y",
            "--active-tasks-file",
            "tasks.txt",
            "--body-file",
            "body.md",
        ],
        b"",
        &[],
    );
    assert_ne!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("symlink"), "{out:?}");
    assert!(
        files_under(&outside).is_empty(),
        "{:?}",
        files_under(&outside)
    );

    // The same through a paths.* value whose parent is a link.
    std::os::unix::fs::symlink(&outside, p.root.join("state")).unwrap();
    p.write(".claude/baton.yaml", "paths: {bridge: state/rune}\n");
    let out = p.run(&["bridge", "save"], SAVE.as_bytes(), &[]);
    assert_ne!(out.code, 0, "{out:?}");
    assert!(
        files_under(&outside).is_empty(),
        "{:?}",
        files_under(&outside)
    );
}

// 5. Unbounded reads ----------------------------------------------------------------------

#[test]
fn issue_10_5_endless_files_and_fifos_do_not_hang_a_hook() {
    for rel in [
        ".claude/baton.yaml",
        "datarim/tasks.md",
        ".boo/index.json",
        ".boo/runs/.current_session",
    ] {
        let p = Project::new();
        let path = p.root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        for event in ["SessionStart", "PostToolUse", "PreCompact", "SessionEnd"] {
            let input = p.event(event);
            let root = p.root.to_str().unwrap().to_string();
            let cmd = {
                let mut c = p.command(&["hook", event]);
                c.env("CLAUDE_PROJECT_DIR", &root);
                c
            };
            let out = within(Duration::from_secs(20), move || {
                crate::harness::run_command(cmd, input.as_bytes())
            });
            assert!(out.code == 0 || out.code == 1, "{rel} {event}: {out:?}");
        }
    }
    // A FIFO at the config path: opened without waiting for a writer.
    let p = Project::new();
    std::fs::create_dir_all(p.root.join(".claude")).unwrap();
    let made = Command::new("mkfifo")
        .arg(p.root.join(".claude/baton.yaml"))
        .status()
        .unwrap();
    assert!(made.success());
    let input = p.event("PostToolUse");
    let cmd = {
        let mut c = p.command(&["hook", "PostToolUse"]);
        c.env("CLAUDE_PROJECT_DIR", p.root.to_str().unwrap());
        c
    };
    let out = within(Duration::from_secs(20), move || {
        crate::harness::run_command(cmd, input.as_bytes())
    });
    assert_eq!(out.code, 0, "{out:?}");
}

// 6. Stuck locks --------------------------------------------------------------------------

#[test]
fn issue_10_6_a_lock_without_an_owner_or_with_a_stranger_costs_little() {
    let p = Project::new();
    // Ownerless locks as a crash or a full disk leaves them, everywhere baton locks.
    for lock in [".boo/.lock.start", ".boo/.index.lock", ".rune/.lock"] {
        std::fs::create_dir_all(p.root.join(lock)).unwrap();
    }
    std::fs::create_dir_all(p.root.join(".rune.lock")).unwrap();
    let start = Instant::now();
    let out = p.hook("PostToolUse", p.event("PostToolUse").as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    let out = p.run(&["bridge", "save"], SAVE.as_bytes(), &[]);
    assert_eq!(out.code, 0, "{out:?}");
    // Each wait is the 0.5 s grace at most (it was 5 s each).
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "{:?}",
        start.elapsed()
    );

    // An owner file naming a live process that is not a holder (pid 1, no start time):
    // SessionEnd gives up within its share of Claude Code's 1.5 s.
    let q = Project::new();
    q.hook("PostToolUse", q.event("PostToolUse").as_bytes());
    for lock in [
        ".boo/.lock.flush",
        ".boo/.lock.start",
        ".boo/.index.lock",
        ".rune.lock",
    ] {
        let dir = q.root.join(lock);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("owner"), "pid=1\ntoken=stranger\n").unwrap();
    }
    let start = Instant::now();
    let out = q.hook("SessionEnd", q.event("SessionEnd").as_bytes());
    assert!(out.code == 0 || out.code == 1, "{out:?}");
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
}

// 7. State written where no project is ----------------------------------------------------

#[test]
fn issue_10_7_no_state_in_a_folder_outside_git_or_in_home() {
    let p = Project::new();
    let plain = p.home.path().join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    for dir in [&plain, &p.home.path().to_path_buf()] {
        let before = files_under(dir).len();
        for event in [
            "SessionStart",
            "UserPromptSubmit",
            "PostToolUse",
            "PreCompact",
            "Stop",
            "SessionEnd",
        ] {
            let input = p
                .event(event)
                .replace(p.root.to_str().unwrap(), dir.to_str().unwrap());
            let mut c = p.command(&["hook", event]);
            c.current_dir(dir);
            let out = crate::harness::run_command(c, input.as_bytes());
            assert!(out.code == 0 || out.code == 1, "{event}: {out:?}");
        }
        let after: Vec<_> = files_under(dir)
            .into_iter()
            .filter(|f| !f.starts_with(&p.root))
            .collect();
        assert!(
            after.len() <= before
                && !after.iter().any(|f| f.to_string_lossy().contains(".boo")
                    || f.to_string_lossy().contains(".rune")),
            "{after:?}"
        );
    }
    // A command says why instead of writing.
    let mut c = p.command(&["bridge", "save"]);
    c.current_dir(&plain);
    let out = crate::harness::run_command(c, SAVE.as_bytes());
    assert_ne!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("not inside a git work tree"), "{out:?}");
    assert!(!plain.join(".rune").exists());
}

// 8. Secrets ------------------------------------------------------------------------------

#[test]
fn issue_10_8_a_secret_in_an_audit_task_or_a_checkpoint_is_never_stored_or_echoed() {
    let p = Project::new();
    let token = ["ghp_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"].concat();
    let out = p.run(
        &["audit", "start", &format!("rotate {token} today")],
        b"",
        &[],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stdout.contains(&token), "{out:?}");
    for args in [&["audit", "status"][..], &["audit", "recover"][..]] {
        let out = p.run(args, b"", &[]);
        assert!(!out.stdout.contains(&token), "{args:?}: {out:?}");
    }
    for f in files_under(&p.root.join(".boo")) {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        assert!(!text.contains(&token), "{}", f.display());
    }
    let out = p.run(
        &["bridge", "checkpoint"],
        format!("doing: rotating keys\nresume: \"export GH_TOKEN={token} and rerun\"\n").as_bytes(),
        &[],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stdout.contains(&token), "{out:?}");
}

// 9. Leftovers ----------------------------------------------------------------------------

#[test]
fn issue_10_9_temp_files_of_killed_writers_and_orphaned_auto_sessions_are_cleaned() {
    let p = Project::new();
    p.write(
        ".handoff/loop/loop_state.md",
        "loop_id: WL-001\ncycles_this_session: 5\ncycle_budget: 5\n",
    );
    // What a writer killed before its rename leaves (its pid no longer runs).
    p.write(
        ".handoff/packets/.latest.md.tmp.2147483632.777",
        "half a packet",
    );
    let out = p.run(&["relay", "handoff", "--no-stdin"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!p
        .root
        .join(".handoff/packets/.latest.md.tmp.2147483632.777")
        .exists());
    let status = git_ok(&p, &["status", "--porcelain"]);
    assert!(!status.contains(".tmp."), "{status}");

    // An automatic session whose start was killed before it became current.
    let q = Project::new();
    q.hook("PostToolUse", q.event("PostToolUse").as_bytes());
    let current = std::fs::read_to_string(q.root.join(".boo/runs/.current_session")).unwrap();
    let id = current.trim().to_string();
    std::fs::remove_file(q.root.join(".boo/runs/.current_session")).unwrap();
    // A later session starts (its clock well past the quiet limit).
    let later = [("BATON_NOW", "2030-01-01T10:00:00Z")];
    let root = q.root.to_str().unwrap().to_string();
    let out = q.run(
        &["hook", "SessionStart"],
        q.event("SessionStart").as_bytes(),
        &[later[0], ("CLAUDE_PROJECT_DIR", &root)],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let meta =
        std::fs::read_to_string(q.root.join(format!(".boo/runs/{id}/session.json"))).unwrap();
    assert!(meta.contains("\"abandoned\""), "{meta}");
}
