//! Quiet in a shared repository (issue 39): a hook never modifies a tracked file, a command
//! commits what it writes, and `.rune/.gitignore` exists before the first private file does,
//! so `git status` stays clean, a `git pull` never finds baton's changes in its way and a
//! `git add -A` never takes a private checkpoint.

use crate::harness::Project;

const CHECKPOINT: &str = "doing: the parser\nresume: Continue the parser at fn parse_expr\n";

fn run(p: &Project, args: &[&str], stdin: &str) -> String {
    let out = p.run(args, stdin.as_bytes(), &[]);
    assert_eq!(out.code, 0, "{out:?}");
    out.stdout
}

#[test]
fn issue_39_a_first_checkpoint_keeps_itself_out_of_git_add_all() {
    let p = Project::new();
    let report = run(&p, &["bridge", "checkpoint"], CHECKPOINT);
    assert!(
        report.contains("- **Git commit**: ") && report.contains(".rune/.gitignore (written now)"),
        "{report}"
    );
    assert_eq!(p.git_status(), "", "git status after a first checkpoint");
    assert_eq!(p.git(&["ls-files", ".rune"]), ".rune/.gitignore\n");
    p.git(&["add", "-A"]);
    assert_eq!(p.git(&["diff", "--cached", "--name-only"]), "");
    assert!(p.root.join(".rune/checkpoint.md").is_file());
    // A second one writes nothing to commit.
    let report = run(&p, &["bridge", "checkpoint"], CHECKPOINT);
    assert!(!report.contains("Git commit"), "{report}");
    let resolved = run(&p, &["bridge", "checkpoint", "--resolve"], "");
    assert!(resolved.starts_with("Checkpoint resolved"), "{resolved}");
    assert_eq!(p.git_status(), "");
}

#[test]
fn issue_39_a_compaction_in_a_folder_without_rules_writes_them_before_the_checkpoint() {
    // A teammate committed .rune/ with a decision only (an older tool, a hand-made folder).
    let p = Project::new();
    p.commit_file(".rune/decisions.md", "# Decisions Log\n", "memory");
    let pre = p.hook("PreCompact", p.event("PreCompact").as_bytes());
    assert_eq!(pre.code, 0, "{pre:?}");
    let post = p.hook("PostCompact", p.event("PostCompact").as_bytes());
    assert_eq!(post.code, 0, "{post:?}");
    assert!(p.root.join(".rune/checkpoint.md").is_file());
    // The hook wrote the ignore file (not committed: hooks never commit) and nothing else.
    assert_eq!(p.git_status(), "?? .rune/.gitignore\n");
    let end = p.hook("SessionEnd", p.event("SessionEnd").as_bytes());
    assert_eq!(end.code, 0, "{end:?}");
    assert_eq!(p.git_status(), "?? .rune/.gitignore\n");
}

#[test]
fn issue_39_a_session_leaves_git_status_clean_where_rune_is_committed() {
    let p = Project::new();
    run(&p, &["bridge", "save"], "summary: Started the parser\n");
    assert_eq!(p.git_status(), "");
    let root = p.root.to_str().unwrap().to_string();
    for event in [
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "Stop",
        "PreCompact",
        "PostCompact",
        "SessionStart.compact",
        "SessionEnd",
    ] {
        let name = event.split('.').next().unwrap();
        let out = p.run(
            &["hook", name],
            p.event(event).as_bytes(),
            &[("CLAUDE_PROJECT_DIR", &root)],
        );
        assert_eq!(out.code, 0, "{event}: {out:?}");
        assert_eq!(p.git_status(), "", "git status after {event}");
    }
}
