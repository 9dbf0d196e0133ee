//! The git module's tests: state reading, and committing through the guard in real
//! repositories (see `testkit`).

use super::testkit::{Fx, DEADLINE};
use super::*;
use std::time::Duration;

fn commit_all(repo: &Repository, msg: &str) {
    let mut index = repo.index().unwrap();
    index
        .add_all(["*"].iter(), git2::IndexAddOption::DEFAULT, None)
        .unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
    let parents: Vec<git2::Commit<'_>> = repo
        .head()
        .ok()
        .and_then(|h| h.peel_to_commit().ok())
        .into_iter()
        .collect();
    let refs: Vec<&git2::Commit<'_>> = parents.iter().collect();
    repo.commit(Some("HEAD"), &sig, &sig, msg, &tree, &refs)
        .unwrap();
}

#[test]
fn changed_since_lists_paths_of_later_commits() {
    let t = tempfile::tempdir().unwrap();
    let repo = Repository::init(t.path()).unwrap();
    std::fs::write(t.path().join("a.txt"), "a").unwrap();
    commit_all(&repo, "first");
    let first = state(t.path())
        .unwrap()
        .repo()
        .unwrap()
        .head_sha
        .clone()
        .unwrap();
    std::fs::write(t.path().join("b.txt"), "b").unwrap();
    commit_all(&repo, "second");
    std::fs::remove_file(t.path().join("a.txt")).unwrap();
    commit_all(&repo, "third");
    let mut paths = changed_since(t.path(), &first).unwrap();
    paths.sort();
    assert_eq!(paths, vec!["a.txt", "b.txt"]);
    assert!(changed_since(t.path(), "0000000").is_err());
}

#[test]
fn no_git_is_a_value() {
    let t = tempfile::tempdir().unwrap();
    if crate::core::root::git_top(t.path()).is_none() {
        assert_eq!(state(t.path()).unwrap(), GitState::NoGit);
    }
}

#[test]
fn reads_head_branch_status_and_last_commit() {
    let t = tempfile::tempdir().unwrap();
    let repo = Repository::init(t.path()).unwrap();
    let unborn = state(t.path()).unwrap();
    let r = unborn.repo().unwrap();
    assert_eq!(r.head_sha, None);
    assert!(r.branch.is_some());

    std::fs::write(t.path().join("a.txt"), "a").unwrap();
    commit_all(&repo, "first");
    std::fs::write(t.path().join("b.txt"), "b").unwrap();
    std::fs::write(t.path().join("a.txt"), "a2").unwrap();
    commit_all(&repo, "second");
    std::fs::write(t.path().join("a.txt"), "a3").unwrap();
    std::fs::write(t.path().join("new.txt"), "n").unwrap();

    let s = state(t.path()).unwrap();
    let r = s.repo().unwrap();
    assert_eq!(r.head_sha.as_ref().unwrap().len(), 40);
    let mut paths = r.last_commit_paths.clone();
    paths.sort();
    assert_eq!(paths, vec!["a.txt", "b.txt"]);
    assert!(r.status.contains(&" M a.txt".to_string()), "{:?}", r.status);
    assert!(
        r.status.contains(&"?? new.txt".to_string()),
        "{:?}",
        r.status
    );
}

/// The status lines that are not about `.rune` (the user's own changes).
fn others(status: &str) -> Vec<String> {
    status
        .lines()
        .filter(|l| !l.contains(".rune"))
        .map(str::to_string)
        .collect()
}

/// A repository where the user has staged `user.txt`, modified `a.txt` without staging, and
/// staged one version of `both.txt` and changed it again; `.rune/` is new.
fn busy_user() -> Fx {
    let fx = Fx::new();
    fx.write("a.txt", "a\n");
    fx.write("both.txt", "1\n");
    fx.git(&["add", "a.txt", "both.txt"]);
    fx.git(&["commit", "-q", "-m", "files"]);
    fx.write("user.txt", "mine\n");
    fx.write("both.txt", "2\n");
    fx.git(&["add", "user.txt", "both.txt"]);
    fx.write("both.txt", "3\n");
    fx.write("a.txt", "a2\n");
    fx.write(".rune/progress.md", "p\n");
    fx.write(".rune/sub/x.md", "x\n");
    fx
}

fn sha(out: &Outcome) -> String {
    match out {
        Outcome::Committed { sha } => sha.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn commits_only_the_given_paths_and_leaves_the_users_changes_as_they_were() {
    let fx = busy_user();
    let before = others(&fx.status());
    assert_eq!(before, vec![" M a.txt", "MM both.txt", "A  user.txt"]);
    let staged_blob = fx.git(&["rev-parse", ":both.txt"]);

    let out = fx.commit(&fx.root, &[".rune"]);
    assert_eq!(sha(&out), fx.head());
    assert_eq!(
        fx.last_commit_paths(),
        vec![".rune/progress.md", ".rune/sub/x.md"]
    );
    assert_eq!(
        fx.git(&["log", "-1", "--format=%s%n%an"]),
        "chore: update rune session state\nTess Ter\n"
    );
    assert_eq!(others(&fx.status()), before);
    assert!(!fx.status().contains(".rune"), "{}", fx.status());
    assert_eq!(fx.git(&["rev-parse", ":both.txt"]), staged_blob);
    assert_eq!(fx.read("both.txt"), "3\n");

    // Nothing new: nothing to commit, no empty commit. A deletion is committed.
    let head = fx.head();
    assert_eq!(fx.commit(&fx.root, &[".rune"]), Outcome::NothingToCommit);
    assert_eq!(fx.head(), head);
    std::fs::remove_file(fx.root.join(".rune/sub/x.md")).unwrap();
    sha(&fx.commit(&fx.root, &[".rune"]));
    assert_eq!(fx.last_commit_paths(), vec![".rune/sub/x.md"]);
    assert_eq!(others(&fx.status()), before);
}

#[test]
fn a_project_in_a_subdirectory_commits_its_own_paths_only() {
    let fx = Fx::new();
    fx.write(".rune/progress.md", "root\n");
    fx.git(&["add", ".rune"]);
    fx.git(&["commit", "-q", "-m", "root rune"]);
    fx.write(".rune/progress.md", "root, hand-edited\n");
    fx.write("packages/foo/.rune/progress.md", "foo\n");
    let project = fx.root.join("packages/foo");

    sha(&fx.commit(&project, &[".rune"]));
    assert_eq!(
        fx.last_commit_paths(),
        vec!["packages/foo/.rune/progress.md"]
    );
    assert_eq!(fx.status(), " M .rune/progress.md\n");
    // Absolute paths work too.
    fx.write("packages/foo/.handoff/p.md", "h\n");
    let abs = project.join(".handoff");
    let out = fx.commit(&project, &[abs.to_str().unwrap()]);
    sha(&out);
    assert_eq!(fx.last_commit_paths(), vec!["packages/foo/.handoff/p.md"]);
}

#[test]
fn the_repositorys_hooks_run() {
    let fx = Fx::new();
    fx.hook(
        "pre-commit",
        "#!/bin/sh\necho ran > \"$(git rev-parse --git-dir)/pre-commit-ran\"\n",
    );
    fx.hook(
        "commit-msg",
        "#!/bin/sh\ngrep -q '^chore: ' \"$1\" || { echo 'commit-msg: needs a type'; exit 1; }\n",
    );
    fx.hook(
        "post-commit",
        "#!/bin/sh\ngit rev-parse HEAD > .git/post-commit-saw\n",
    );
    fx.write(".rune/p", "p\n");
    let sha = sha(&fx.commit(&fx.root, &[".rune"]));
    assert_eq!(fx.read(".git/pre-commit-ran"), "ran\n");
    assert_eq!(fx.read(".git/post-commit-saw"), format!("{sha}\n"));
    assert_eq!(fx.last_commit_paths(), vec![".rune/p"]);
}

#[test]
fn signing_is_honoured() {
    let fx = busy_user();
    // A stand-in for gpg that "signs" as git expects (status line on the status fd, 2).
    fx.hook(
        "fake-gpg",
        "#!/bin/sh\ncat >/dev/null\nprintf '\\n[GNUPG:] SIG_CREATED D 1 8 00 0 X\\n' >&2\n\
         printf -- '-----BEGIN PGP SIGNATURE-----\\nfake\\n-----END PGP SIGNATURE-----\\n'\n",
    );
    let gpg = fx.root.join(".git/hooks/fake-gpg");
    fx.git(&["config", "commit.gpgsign", "true"]);
    fx.git(&["config", "gpg.program", gpg.to_str().unwrap()]);
    sha(&fx.commit(&fx.root, &[".rune"]));
    let raw = fx.git(&["cat-file", "commit", "HEAD"]);
    assert!(
        raw.contains("gpgsig -----BEGIN PGP SIGNATURE-----"),
        "{raw}"
    );
}

#[test]
fn a_linked_worktree_commits_on_its_own_branch() {
    let fx = Fx::new();
    let wt = fx.tmp.path().join("wt");
    fx.git(&["worktree", "add", "-q", "-b", "side", wt.to_str().unwrap()]);
    std::fs::create_dir_all(wt.join(".rune")).unwrap();
    std::fs::write(wt.join(".rune/p"), "p\n").unwrap();
    let main_head = fx.head();
    sha(&fx.commit(&wt, &[".rune"]));
    assert_eq!(fx.head(), main_head);
    let side = fx.git(&["show", "--name-only", "--format=%s", "side"]);
    assert_eq!(side, "chore: update rune session state\n\n.rune/p\n");
}

/// Asks for a commit of `.rune` that must be refused; HEAD, status and the file are as they
/// were (our paths are not left staged).
fn refused_with(fx: &Fx, out: impl FnOnce(&Fx) -> Outcome) -> Refusal {
    let (head, status) = (fx.head(), fx.status());
    let out = out(fx);
    let Some(why) = out.refusal() else {
        panic!("{out:?}")
    };
    assert_eq!(fx.head(), head);
    assert_eq!(fx.status(), status, "index or work tree changed");
    assert_eq!(fx.read(".rune/progress.md"), "p\n");
    assert!(!fx.root.join(".git/index.lock").exists());
    why.clone()
}

#[test]
fn a_rejecting_pre_commit_hook_is_named_with_its_first_line() {
    let fx = busy_user();
    fx.hook(
        "pre-commit",
        "#!/bin/sh\necho 'secret found: .rune/progress.md:1 AKIA0000'\necho 'second line'\nexit 1\n",
    );
    let why = refused_with(&fx, |fx| fx.commit(&fx.root, &[".rune"]));
    assert_eq!(
        why,
        Refusal::HookRejected {
            hook: "pre-commit".into(),
            first_line: "secret found: .rune/progress.md:1 AKIA0000".into()
        }
    );
    assert!(why
        .line(&[".rune"])
        .starts_with("not committed: the pre-commit hook rejected the commit: secret found"));
}

#[test]
fn a_rejecting_commit_msg_hook_is_named() {
    // This time .rune/ is tracked and modified: it stays modified, not staged.
    let fx = Fx::new();
    fx.write(".rune/progress.md", "old\n");
    fx.git(&["add", ".rune"]);
    fx.git(&["commit", "-q", "-m", "rune"]);
    fx.write(".rune/progress.md", "p\n");
    fx.write("user.txt", "mine\n");
    fx.git(&["add", "user.txt"]);
    assert_eq!(fx.status(), " M .rune/progress.md\nA  user.txt\n");
    fx.hook("pre-commit", "#!/bin/sh\nexit 0\n");
    fx.hook(
        "commit-msg",
        "#!/bin/sh\necho 'subject too long' >&2\nexit 1\n",
    );
    let why = refused_with(&fx, |fx| fx.commit(&fx.root, &[".rune"]));
    assert_eq!(
        why,
        Refusal::HookRejected {
            hook: "commit-msg".into(),
            first_line: "subject too long".into()
        }
    );
}

#[test]
fn signing_is_honoured_and_a_failure_refused() {
    let fx = busy_user();
    fx.git(&["config", "commit.gpgsign", "true"]);
    fx.git(&["config", "gpg.program", "/nonexistent/baton-test-gpg"]);
    let why = refused_with(&fx, |fx| fx.commit(&fx.root, &[".rune"]));
    let Refusal::SigningFailed(line) = &why else {
        panic!("{why:?}")
    };
    assert!(line.contains("gpg failed to sign"), "{line}");
}

#[test]
fn a_failing_gpg_program_is_named() {
    let fx = busy_user();
    fx.hook(
        "fake-gpg",
        "#!/bin/sh\necho 'gpg: signing failed: No secret key' >&2\nexit 2\n",
    );
    let gpg = fx.root.join(".git/hooks/fake-gpg");
    fx.git(&["config", "commit.gpgsign", "true"]);
    fx.git(&["config", "gpg.program", gpg.to_str().unwrap()]);
    let why = refused_with(&fx, |fx| fx.commit(&fx.root, &[".rune"]));
    let Refusal::SigningFailed(line) = &why else {
        panic!("{why:?}")
    };
    assert!(line.contains("No secret key"), "{line}");
}

#[test]
fn a_hook_past_the_deadline_is_killed_and_nothing_committed() {
    let fx = busy_user();
    fx.hook("pre-commit", "#!/bin/sh\necho slow\nsleep 37\n");
    let deadline = Duration::from_millis(1500);
    let start = std::time::Instant::now();
    let why = refused_with(&fx, |fx| {
        fx.commit_with(&fx.root, &[".rune"], Some(&fx.path), deadline)
    });
    assert_eq!(why, Refusal::TimedOut(deadline));
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn without_git_on_path_nothing_is_committed() {
    let fx = busy_user();
    for path_env in [None, Some("/nonexistent/baton-no-git")] {
        let why = refused_with(&fx, |fx| {
            fx.commit_with(&fx.root, &[".rune"], path_env, DEADLINE)
        });
        assert_eq!(why, Refusal::NoGitCli);
    }
}

#[test]
fn ignored_paths_are_nothing_to_commit() {
    let fx = Fx::new();
    fx.write(".gitignore", ".rune/\n");
    fx.git(&["add", ".gitignore"]);
    fx.git(&["commit", "-q", "-m", "ignore"]);
    fx.write(".rune/p", "p\n");
    let head = fx.head();
    assert_eq!(fx.commit(&fx.root, &[".rune"]), Outcome::NothingToCommit);
    assert_eq!(fx.head(), head);
    assert_eq!(fx.status(), "");
    // Paths that do not exist at all: nothing to commit either.
    assert_eq!(fx.commit(&fx.root, &[".handoff"]), Outcome::NothingToCommit);
}

#[test]
fn paths_outside_the_work_tree_are_refused() {
    let fx = Fx::new();
    let outside = fx.tmp.path().join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    let out = fx.commit(&fx.root, &[".rune", outside.to_str().unwrap()]);
    assert!(
        matches!(out.refusal(), Some(Refusal::OutsideWorkTree(_))),
        "{out:?}"
    );
    let out = fx.commit(&fx.root, &["../elsewhere"]);
    assert!(
        matches!(out.refusal(), Some(Refusal::OutsideWorkTree(_))),
        "{out:?}"
    );
}

#[test]
fn outside_a_repository_is_a_value() {
    let t = tempfile::tempdir().unwrap();
    if crate::core::root::git_top(t.path()).is_none() {
        let opts = CommitOptions::new(DEADLINE, None);
        let out = commit_paths_guarded(t.path(), &[Path::new(".rune")], "m", &opts).unwrap();
        assert_eq!(out, Outcome::NoGit);
    }
}
