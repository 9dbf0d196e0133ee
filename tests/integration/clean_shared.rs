//! `baton clean --committed --yes` and the user's files inside the shared folders: the project
//! memory (`.rune/`) and the relay's folder (`.handoff/`). It removed both whole, with every
//! untracked file the user kept there (a scratch note, the original Rune's own files), which
//! git cannot bring back. Now only what baton writes there goes (src/clean/inventory.rs), the
//! folder only once empty, and the listing says what stayed and why. The first three tests
//! failed on the code before (f229804); the fourth guards that `clean` without `--committed`
//! leaves both folders alone (it passed before too).

use crate::clean_inventory::{all, users_things, users_things_stayed};
use crate::harness::{Output, Project};
use std::path::Path;

const SAVE: &str = r#"summary: Implemented the audit buffer
decisions:
  - {title: Use git2 without default features, context: No OpenSSL on CI, decision: "git2, default-features = false", rationale: smaller build, impact: src/core/git.rs}
conventions:
  - {title: Async-free hooks, pattern: "Hooks never start a runtime", example: "fn handle()", applies_to: src/hook/}
progress:
  completed: [audit buffer]
  next: [the load snapshot test]
learnings:
  - {type: error, key: git2-openssl, insight: "git2 pulled OpenSSL; default-features off fixed it", confidence: 0.7, files: [Cargo.toml]}
instincts:
  - {name: Format before commit, trigger: before every commit, action: run cargo fmt --all, confidence: 0.6, evidence: CI failed twice on fmt}
notes:
  active_topics: [bridge subsystem]
  follow_up: [global instinct store]
task_notes:
  worked: ["atomic rewrite: tests green"]
  left: [detach mode]
"#;

const CHECKPOINT: &str =
    "doing: retry logic\nleft: [error handling]\nresume: \"Continue the retry logic\"\n";

const STATE_YAML: &str = "loop_id: WL-012\norchestrator_phase: verify\nlanded_this_session: 3\n";

fn ok(p: &Project, args: &[&str], stdin: &str) -> Output {
    let out = p.run(args, stdin.as_bytes(), &[]);
    assert_eq!(out.code, 0, "{args:?}: {out:?}");
    out
}

/// What the bridge and the relay write in a working day: saves, a learning, checkpoints (one
/// resolved), a compaction, the session's hooks, a detached oracle call (one answered, one
/// pending), `doctor --fix`, a hand-off, a cycle and a resume whose check failed (NEEDS-HUMAN).
fn writers_at_work(p: &Project) {
    ok(p, &["bridge", "save"], SAVE);
    ok(
        p,
        &[
            "bridge",
            "learn",
            "--type",
            "insight",
            "--key",
            "retry-budget",
            "--insight",
            "Three retries are enough",
        ],
        "",
    );
    ok(p, &["bridge", "checkpoint"], CHECKPOINT);
    ok(p, &["bridge", "checkpoint", "--resolve"], "");
    ok(p, &["bridge", "checkpoint"], CHECKPOINT);
    p.hooks(&[
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "PreCompact",
        "PostCompact",
        "Stop",
        "SessionEnd",
    ]);
    let detach = |id: &str| {
        format!("sessionId: {id}\ntriggerSignal: agent.stuck\nsourceSkill: debug\ntargetModel: claude-opus-4-8\nbundleHash: sha256:9f3a1b2{}\n", id.len() % 10)
    };
    ok(p, &["bridge", "detach"], &detach("oracle-1764497700-a"));
    ok(
        p,
        &[
            "bridge",
            "complete",
            "oracle-1764497700-a",
            "--response-id",
            "r1",
        ],
        "The bug is in the retry loop.",
    );
    ok(
        p,
        &["bridge", "detach"],
        &detach("oracle-1764497700-pending"),
    );
    ok(p, &["bridge", "save"], "summary: second save\n");
    // `doctor --fix` writes what is missing (here nothing of the folders'); it exits 1 in a
    // checkout without an installed binary, so only its writes count.
    p.run(&["doctor", "--fix"], b"", &[]);
    ok(p, &["relay", "handoff"], STATE_YAML);
    ok(p, &["relay", "cycle"], "");
    // A failing check writes NEEDS-HUMAN; the script is the user's (the relay never writes it).
    p.write(".handoff/loop/verify-on-resume.sh", "exit 3\n");
    let out = p.run(&["relay", "resume"], b"", &[]);
    assert_eq!(out.code, 1, "{out:?}");
    std::fs::remove_file(p.root.join(".handoff/loop/verify-on-resume.sh")).unwrap();
    for f in [
        ".rune/decisions.md",
        ".rune/learnings.jsonl",
        ".rune/checkpoint.md",
        ".rune/.gitignore",
        ".rune/.gitattributes",
        ".rune/oracle-pending/oracle-1764497700-pending.json",
        ".handoff/packets/latest.md",
        ".handoff/loop/loop_state.md",
        ".handoff/loop/NEEDS-HUMAN",
        ".handoff/.gitattributes",
    ] {
        assert!(p.root.join(f).is_file(), "{f}");
    }
}

/// Every path under `dir` (links not followed), relative to it, sorted, with each regular
/// file's bytes.
fn tree(dir: &Path) -> Vec<(String, Option<Vec<u8>>)> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<(String, Option<Vec<u8>>)>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let path = e.path();
            let rel = path.strip_prefix(base).unwrap().display().to_string();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                out.push((format!("{rel}/"), None));
                walk(base, &path, out);
            } else if meta.is_file() {
                out.push((rel, Some(std::fs::read(&path).unwrap())));
            } else {
                out.push((rel, None));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn names(dir: &Path) -> Vec<String> {
    tree(dir).into_iter().map(|(n, _)| n).collect()
}

#[test]
fn clean_committed_keeps_a_users_files_in_the_memory_and_relay_folders() {
    let p = Project::new();
    writers_at_work(&p);
    let outside = p.home.path().join("outside.txt");
    std::fs::write(&outside, "not in the project").unwrap();
    for dir in [".rune", ".handoff"] {
        users_things(&p, dir, &outside);
    }
    // Deep in folders of baton's, and files baton reads but never writes.
    p.write(".rune/oracle-pending/mine.json", "{}");
    p.write(".handoff/loop/notes.md", "loop notes");
    p.write(".rune/INVARIANTS.md", "## Danger Zones\n#### keep\n");
    p.write(".handoff/loop/verify-on-resume.sh", "cargo test\n");

    let out = p.run(&["clean", "--committed", "--yes"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    for dir in [".rune", ".handoff"] {
        users_things_stayed(&p, dir, &outside, &out);
    }
    // Only the user's things are left: every file of baton's went.
    assert_eq!(
        names(&p.root.join(".rune")),
        [
            "INVARIANTS.md",
            "drafts/",
            "drafts/old/",
            "drafts/old/plan.md",
            "link",
            "notes.txt",
            "oracle-pending/",
            "oracle-pending/.gitignore",
            "oracle-pending/mine.json",
            "pipe",
        ],
        "{}",
        all(&out)
    );
    assert_eq!(
        names(&p.root.join(".handoff")),
        [
            "drafts/",
            "drafts/old/",
            "drafts/old/plan.md",
            "link",
            "loop/",
            "loop/notes.md",
            "loop/verify-on-resume.sh",
            "notes.txt",
            "pipe",
        ],
        "{}",
        all(&out)
    );
    for line in [
        "removed .rune/  project memory",
        "stays  .rune/notes.txt  (a file baton does not write here)",
        "stays  .rune/INVARIANTS.md  (baton reads it and never writes it",
        "stays  .rune/drafts/  (a folder baton does not make here)",
        "stays  .rune/link  (a link",
        "stays  .handoff/loop/verify-on-resume.sh  (baton reads it and never writes it",
        "stays  .handoff/notes.txt  (a file baton does not write here)",
        "(baton's files only: 6 other things stay, and the folder with them)",
        "Committed state was removed: commit the change",
    ] {
        assert!(out.stdout.contains(line), "{line}:\n{}", out.stdout);
    }

    // Once the user has taken their things, the next clean takes the rest.
    for dir in [".rune", ".handoff"] {
        let d = p.root.join(dir);
        for f in ["notes.txt", "pipe", "link"] {
            std::fs::remove_file(d.join(f)).unwrap();
        }
        std::fs::remove_dir_all(d.join("drafts")).unwrap();
    }
    for f in [
        ".rune/oracle-pending/mine.json",
        ".rune/INVARIANTS.md",
        ".handoff/loop/notes.md",
        ".handoff/loop/verify-on-resume.sh",
    ] {
        std::fs::remove_file(p.root.join(f)).unwrap();
    }
    let out = p.run(&["clean", "--committed", "--yes"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stdout.contains("stays"), "{}", out.stdout);
    assert!(!p.root.join(".rune").exists(), "{}", all(&out));
    assert!(!p.root.join(".handoff").exists(), "{}", all(&out));
}

/// The inventory knows every file the bridge and the relay write: after their writers ran,
/// one file of the user's in each folder is all `clean --committed --yes` leaves there; once
/// it is gone, both folders go.
#[test]
fn clean_inventory_knows_every_file_the_bridge_and_relay_write() {
    let p = Project::new();
    writers_at_work(&p);
    p.write(".rune/mine.md", "mine");
    p.write(".handoff/mine.md", "mine");
    let out = ok(&p, &["clean", "--committed", "--json"], "");
    let v = out.json();
    for i in v["items"].as_array().unwrap() {
        if i["shown"] == ".rune/" || i["shown"] == ".handoff/" {
            let stays = i["stays"].as_array().unwrap_or_else(|| panic!("{i}"));
            assert_eq!(stays.len(), 1, "{i}");
        }
    }
    let out = ok(&p, &["clean", "--committed", "--yes"], "");
    assert_eq!(names(&p.root.join(".rune")), ["mine.md"], "{}", all(&out));
    assert_eq!(
        names(&p.root.join(".handoff")),
        ["mine.md"],
        "{}",
        all(&out)
    );
    std::fs::remove_file(p.root.join(".rune/mine.md")).unwrap();
    std::fs::remove_file(p.root.join(".handoff/mine.md")).unwrap();
    let out = ok(&p, &["clean", "--committed", "--yes"], "");
    assert!(!p.root.join(".rune").exists(), "{}", all(&out));
    assert!(!p.root.join(".handoff").exists(), "{}", all(&out));
}

#[test]
fn clean_committed_json_says_what_stays_in_the_shared_folders() {
    let p = Project::new();
    writers_at_work(&p);
    p.write(".rune/scratch.md", "mine");
    p.write(".rune/INVARIANTS.md", "## Danger Zones\n");
    p.write(".handoff/loop/STOP", "stopped by hand");
    for args in [
        &["clean", "--committed", "--json"][..],
        &["clean", "--committed", "--yes", "--json"],
    ] {
        let v = ok(&p, args, "").json();
        let items = v["items"].as_array().unwrap();
        let item = |shown: &str| {
            items
                .iter()
                .find(|i| i["shown"] == shown)
                .unwrap_or_else(|| panic!("{shown}: {v}"))
                .clone()
        };
        let rune = item(".rune/");
        assert_eq!(rune["remove"], true, "{v}");
        assert_eq!(
            rune["stays"],
            serde_json::json!([
                {"path": ".rune/INVARIANTS.md", "why": "baton reads it and never writes it (yours, or another tool's)"},
                {"path": ".rune/scratch.md", "why": "a file baton does not write here"},
            ]),
            "{v}"
        );
        let relay = item(".handoff/");
        assert_eq!(
            relay["stays"],
            serde_json::json!([
                {"path": ".handoff/loop/STOP", "why": "baton reads it and never writes it (yours, or another tool's)"},
            ]),
            "{v}"
        );
    }
    assert!(p.root.join(".rune/scratch.md").is_file());
    assert!(!p.root.join(".rune/decisions.md").exists());
    assert_eq!(
        std::fs::read_to_string(p.root.join(".handoff/loop/STOP")).unwrap(),
        "stopped by hand"
    );
    assert!(!p.root.join(".handoff/packets").exists());
}

/// Without `--committed`, `clean --yes` leaves both shared folders as they were, byte for
/// byte, the user's things and baton's.
#[test]
fn clean_without_committed_never_touches_the_shared_folders() {
    let p = Project::new();
    writers_at_work(&p);
    let outside = p.home.path().join("outside.txt");
    std::fs::write(&outside, "x").unwrap();
    users_things(&p, ".rune", &outside);
    p.write(".handoff/mine.md", "mine");
    let before = (tree(&p.root.join(".rune")), tree(&p.root.join(".handoff")));
    let out = ok(&p, &["clean", "--yes"], "");
    let after = (tree(&p.root.join(".rune")), tree(&p.root.join(".handoff")));
    assert_eq!(before, after, "{}", all(&out));
    assert!(
        out.stdout.contains("keep    .rune/  project memory")
            && out
                .stdout
                .contains("(committed; --committed removes it too)"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("stays  .rune/"), "{}", out.stdout);
}
