//! Issue #13: one project memory for a team, through git. A bare origin and three clones,
//! each with its own `user.name`; `bridge save` in each, `git pull` and `git push` with the
//! real `git` as a user runs them, in turn, for several rounds: no pull conflicts, every
//! entry once in every clone, load ordered by time and naming the author. A save in the
//! middle of an unresolved merge is refused; conflict markers never reach the model; a relay
//! loop handed off in one clone resumes in another.

use crate::harness::{bin, run_command, Output};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A bare origin and named clones in one temp home.
struct Team {
    home: tempfile::TempDir,
}

impl Team {
    /// The origin with one commit (`README.md`), a global git config that pulls by merge,
    /// and the clones `names`, each with its `user.name`.
    fn new(names: &[&str]) -> Team {
        let t = Team {
            home: tempfile::tempdir().unwrap(),
        };
        std::fs::write(
            t.home.path().join(".gitconfig"),
            "[init]\n\tdefaultBranch = main\n[pull]\n\trebase = false\n[commit]\n\tgpgsign = false\n",
        )
        .unwrap();
        t.git_in(t.home.path(), &["init", "-q", "--bare", "origin.git"]);
        t.git_in(t.home.path(), &["clone", "-q", "origin.git", "seed"]);
        let seed = t.home.path().join("seed");
        std::fs::write(seed.join("README.md"), "# team\n").unwrap();
        t.git_in(&seed, &["add", "README.md"]);
        t.git_in(
            &seed,
            &[
                "-c",
                "user.name=seed",
                "-c",
                "user.email=seed@example.invalid",
                "commit",
                "-q",
                "-m",
                "init",
            ],
        );
        t.git_in(&seed, &["push", "-q", "origin", "main"]);
        for n in names {
            t.clone_as(n);
        }
        t
    }

    /// A new clone named `name` (its folder and its `user.name`).
    fn clone_as(&self, name: &str) {
        self.git_in(self.home.path(), &["clone", "-q", "origin.git", name]);
        let dir = self.dir(name);
        self.git_in(&dir, &["config", "user.name", name]);
        self.git_in(
            &dir,
            &["config", "user.email", &format!("{name}@example.invalid")],
        );
    }

    fn dir(&self, name: &str) -> PathBuf {
        self.home.path().join(name)
    }

    /// `git` in `dir` with the team's home and no system config; its output.
    fn git_run(&self, dir: &Path, args: &[&str]) -> std::process::Output {
        Command::new("git")
            .args(args)
            .current_dir(dir)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap()
    }

    fn git_in(&self, dir: &Path, args: &[&str]) -> String {
        let out = self.git_run(dir, args);
        assert!(
            out.status.success(),
            "git {args:?} in {}: {out:?}",
            dir.display()
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    fn git(&self, name: &str, args: &[&str]) -> String {
        self.git_in(&self.dir(name), args)
    }

    /// `git pull` then `git push` in clone `name`, as its user would; panics when the pull
    /// conflicted.
    fn sync(&self, name: &str) {
        let pull = self.git_run(&self.dir(name), &["pull", "-q"]);
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&pull.stdout),
            String::from_utf8_lossy(&pull.stderr)
        );
        assert!(
            pull.status.success() && !said.contains("CONFLICT"),
            "the pull in {name} conflicted: {said}\n{}",
            self.git(name, &["status", "--short"])
        );
        self.git(name, &["push", "-q", "origin", "main"]);
    }

    /// `baton ARGS` in clone `name` at time `now`, with `stdin`.
    fn baton(&self, name: &str, args: &[&str], stdin: &str, now: &str) -> Output {
        let mut c = Command::new(bin());
        c.args(args)
            .current_dir(self.dir(name))
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("BATON_NOW", now);
        run_command(c, stdin.as_bytes())
    }

    /// What SessionStart tells a session in clone `name` at `now`.
    fn session_start(&self, name: &str, now: &str) -> String {
        let event = format!(
            r#"{{"hook_event_name":"SessionStart","session_id":"s-{name}","transcript_path":"/nonexistent","cwd":"{}","source":"startup"}}"#,
            self.dir(name).display()
        );
        let out = self.baton(name, &["hook", "SessionStart"], &event, now);
        assert_eq!(out.code, 0, "{out:?}");
        let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap_or_default();
        v["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    fn read(&self, name: &str, rel: &str) -> String {
        std::fs::read_to_string(self.dir(name).join(rel)).unwrap_or_default()
    }
}

/// One save of clone `who` in round `round`: a decision, a convention, progress with a next
/// step, a learning under the key every clone uses, a note, a summary.
fn save_yaml(who: &str, round: u32) -> String {
    format!(
        "summary: {who} session {round}\n\
         decisions:\n  - {{title: {who}-decision-{round}, decision: {who} chose {round}, impact: src/lib.rs}}\n\
         conventions:\n  - {{title: {who}-convention-{round}, pattern: {who} pattern {round}}}\n\
         progress:\n  completed: [shared groundwork]\n  in_progress: [the team feature]\n  next: [{who}-next-{round}]\n\
         learnings:\n  - {{type: insight, key: build-cache, insight: {who} learned {round}, confidence: 0.6}}\n\
         notes:\n  active_topics: [{who}-topic-{round}]\n"
    )
}

fn save(t: &Team, who: &str, round: u32, now: &str) {
    let out = t.baton(who, &["bridge", "save"], &save_yaml(who, round), now);
    assert_eq!(out.code, 0, "save in {who}: {out:?}");
    assert!(
        out.stdout.contains("- **Git commit**: ") && !out.stdout.contains("skipped"),
        "{out:?}"
    );
}

/// The memory files of a clone, for comparing clones.
fn memory(t: &Team, name: &str) -> Vec<(String, String)> {
    [
        "decisions.md",
        "conventions.md",
        "progress.md",
        "session-log.md",
        "learnings.jsonl",
        "cumulative-notes.md",
        ".gitattributes",
    ]
    .iter()
    .map(|f| ((*f).to_string(), t.read(name, &format!(".rune/{f}"))))
    .collect()
}

#[test]
fn three_clones_save_pull_and_push_in_turn_without_a_conflict() {
    let names = ["alice", "bob", "carol"];
    let t = Team::new(&names);
    // (who, round, time): saves interleaved with the pulls below; in round 2 and round 3 the
    // newest entry does not end up last in the files.
    let rounds: [&[(&str, u32, &str)]; 3] = [
        &[
            ("alice", 1, "2026-12-01T09:00:00Z"),
            ("bob", 1, "2026-12-01T09:10:00Z"),
            ("carol", 1, "2026-12-01T09:20:00Z"),
        ],
        &[
            ("carol", 2, "2026-12-01T10:00:00Z"),
            ("bob", 2, "2026-12-01T12:00:00Z"),
            ("alice", 2, "2026-12-01T11:00:00Z"),
        ],
        // carol's merge puts her entry before alice's, yet hers is the newer one.
        &[
            ("alice", 3, "2026-12-01T12:30:00Z"),
            ("carol", 3, "2026-12-01T13:00:00Z"),
        ],
    ];
    let mut saved: Vec<(String, u32, String)> = Vec::new();
    for round in rounds {
        for (who, n, now) in round {
            save(&t, who, *n, now);
            saved.push(((*who).to_string(), *n, (*now).to_string()));
        }
        // Pull and push in turn; twice, so every clone has everything.
        for _ in 0..2 {
            for n in names {
                t.sync(n);
            }
        }
        // A save between the pulls of a round, too.
        if saved.len() == 3 {
            save(&t, "bob", 9, "2026-12-01T09:30:00Z");
            saved.push(("bob".into(), 9, "2026-12-01T09:30:00Z".into()));
            t.sync("bob");
        }
    }
    for n in names {
        t.sync(n);
    }
    // Every clone holds the same memory, every entry once.
    let first = memory(&t, "alice");
    for n in names {
        assert_eq!(memory(&t, n), first, "{n} differs from alice");
        assert_eq!(t.git(n, &["status", "--porcelain"]), "", "{n} is not clean");
    }
    let text = |f: &str| t.read("alice", &format!(".rune/{f}"));
    for (who, n, _) in &saved {
        for (file, what) in [
            ("decisions.md", format!("Decision: {who}-decision-{n}\n")),
            (
                "conventions.md",
                format!("Convention: {who}-convention-{n}\n"),
            ),
            (
                "progress.md",
                format!("**Next Session Should:** {who}-next-{n}\n"),
            ),
            (
                "session-log.md",
                format!("— {who} session {n} (by: {who})\n"),
            ),
            (
                "learnings.jsonl",
                format!("\"insight\":\"{who} learned {n}\""),
            ),
            (
                "cumulative-notes.md",
                format!("] {who}-topic-{n} (by: {who})\n"),
            ),
        ] {
            assert_eq!(
                text(file).matches(&what).count(),
                1,
                "{what:?} in {file}:\n{}",
                text(file)
            );
        }
    }
    // Each entry says who wrote it.
    assert_eq!(text("decisions.md").matches("**By:** bob\n").count(), 3);

    // Load in every clone: the newest decision (carol's round 3, 13:00) first, then alice's
    // (12:30) and bob's (12:00); the newest session's next step (carol's); the newest
    // learning of the shared key; the author of a teammate's entry.
    assert!(
        text("decisions.md").find("carol-decision-3")
            < text("decisions.md").find("alice-decision-3"),
        "the newest is not last in the file: the test would not tell time from position"
    );
    let now = "2026-12-01T14:00:00Z";
    for n in names {
        let ctx = t.session_start(n, now);
        let at = |s: &str| {
            ctx.find(s)
                .unwrap_or_else(|| panic!("{s:?} not in {n}'s context:\n{ctx}"))
        };
        let order = [
            at("carol-decision-3 ("),
            at("alice-decision-3 ("),
            at("bob-decision-2 ("),
        ];
        assert!(
            order[0] < order[1] && order[1] < order[2],
            "not newest first in {n}:\n{ctx}"
        );
        for old in ["alice-decision-2", "bob-decision-1", "carol-decision-2"] {
            assert!(
                !ctx.contains(old),
                "only the newest three: {old} in {n}:\n{ctx}"
            );
        }
        if n == "carol" {
            assert!(ctx.contains("carol-decision-3 (1 hour ago)"), "{ctx}");
        } else {
            assert!(
                ctx.contains("carol-decision-3 (decided by carol, 1 hour ago)"),
                "{ctx}"
            );
        }
        at("carol-next-3");
        for stale in ["alice-next-3", "bob-next-2", "alice-next-2"] {
            assert!(!ctx.contains(stale), "{stale} shown in {n}:\n{ctx}");
        }
        // The newest session's next step is the one next action where its author is the
        // reader; a teammate's is quoted there, with who saved it, until it is reviewed.
        if n == "carol" {
            assert!(
                ctx.contains("## Resume here\nNext: \"carol-next-3\"\nFrom: next step of the last bridge save (.rune/progress.md, 1 hour ago)."),
                "{ctx}"
            );
        } else {
            assert!(
                ctx.contains("- next step of the last bridge save (by carol) (.rune/progress.md, 1 hour ago): \"carol-next-3\" — ⚠ unreviewed"),
                "{ctx}"
            );
        }
        at("carol learned 3");
        for lost in ["alice learned 3", "bob learned 2", "alice learned 2"] {
            assert!(
                !ctx.contains(lost),
                "{lost} shown as the latest in {n}:\n{ctx}"
            );
        }
        let learnings = t
            .baton(n, &["bridge", "learnings", "--json"], "", now)
            .json();
        assert_eq!(learnings.as_array().unwrap().len(), 1, "{learnings}");
        assert_eq!(learnings[0]["insight"], "carol learned 3", "{learnings}");
        assert_eq!(learnings[0]["by"], "carol", "{learnings}");
        // Nothing conflicted, nothing suspicious.
        let integrity = t
            .baton(n, &["bridge", "integrity", "--json"], "", now)
            .json();
        assert_eq!(integrity["status"], "CLEAN", "{integrity}");
    }
}

#[test]
fn a_rebasing_pull_merges_the_memory_too() {
    let t = Team::new(&["alice", "bob"]);
    t.git("bob", &["config", "pull.rebase", "true"]);
    save(&t, "alice", 1, "2026-12-01T09:00:00Z");
    save(&t, "bob", 1, "2026-12-01T09:05:00Z");
    t.sync("alice");
    t.sync("bob");
    t.sync("alice");
    assert_eq!(memory(&t, "alice"), memory(&t, "bob"));
    let ctx = t.session_start("alice", "2026-12-01T11:00:00Z");
    assert!(
        ctx.contains("bob-decision-1 (decided by bob, 1 hour ago)"),
        "{ctx}"
    );
    assert!(
        ctx.find("bob-decision-1") < ctx.find("alice-decision-1"),
        "{ctx}"
    );
}

/// Two clones write the same non-log file (INVARIANTS.md is the user's, merged as text):
/// the pull in bob's clone stops with a conflict.
fn conflicted_pull(t: &Team) {
    save(t, "alice", 1, "2026-12-01T09:00:00Z");
    t.sync("alice");
    t.sync("bob");
    for (who, rule) in [("alice", "ALICE-RULE"), ("bob", "BOB-RULE")] {
        std::fs::write(
            t.dir(who).join(".rune/INVARIANTS.md"),
            format!("# Invariants\n\n## Critical Invariants\n\n### {rule}\n- **WHAT**: {rule} holds\n- **WHERE**: `src/**`\n- **WHY**: it matters\n"),
        )
        .unwrap();
        t.git(who, &["add", ".rune/INVARIANTS.md"]);
        t.git(who, &["commit", "-q", "-m", "invariants"]);
    }
    t.git("alice", &["push", "-q", "origin", "main"]);
    let pull = t.git_run(&t.dir("bob"), &["pull", "-q"]);
    assert!(!pull.status.success(), "{pull:?}");
}

#[test]
fn a_save_during_an_unresolved_merge_is_refused_and_stages_nothing() {
    let t = Team::new(&["alice", "bob"]);
    conflicted_pull(&t);
    let before = (
        t.git("bob", &["status", "--porcelain"]),
        t.git("bob", &["rev-parse", "HEAD"]),
        t.read("bob", ".rune/decisions.md"),
        t.read("bob", ".rune/learnings.jsonl"),
    );
    assert!(before.0.contains("AA .rune/INVARIANTS.md"), "{}", before.0);
    let now = "2026-12-01T10:00:00Z";
    for (args, stdin) in [
        (
            &["bridge", "save"][..],
            "summary: in the middle\ndecisions: [{title: Mid-merge, decision: no}]\n",
        ),
        (&["bridge", "checkpoint"][..], "doing: x\nresume: y\n"),
        (
            &[
                "bridge",
                "learn",
                "--type",
                "error",
                "--key",
                "mid-merge",
                "--insight",
                "no",
            ][..],
            "",
        ),
        (
            &["relay", "handoff", "--no-stdin", "--loop-id", "WL-001"][..],
            "",
        ),
    ] {
        let out = t.baton("bob", args, stdin, now);
        assert_eq!(out.code, 1, "{args:?}: {out:?}");
        let line = out.stderr.trim();
        assert_eq!(line.lines().count(), 1, "{out:?}");
        assert!(
            line.contains("unresolved merge conflicts in .rune/INVARIANTS.md (unmerged)")
                && line.contains("git add")
                && line.contains("git commit"),
            "{line}"
        );
    }
    let after = (
        t.git("bob", &["status", "--porcelain"]),
        t.git("bob", &["rev-parse", "HEAD"]),
        t.read("bob", ".rune/decisions.md"),
        t.read("bob", ".rune/learnings.jsonl"),
    );
    assert_eq!(after, before, "something was written or staged");
    assert!(!t.dir("bob").join(".rune/checkpoint.md").exists());
    assert!(!t.dir("bob").join(".handoff").exists());
}

#[test]
fn conflict_markers_left_in_memory_are_reported_and_never_injected() {
    let t = Team::new(&["alice", "bob"]);
    conflicted_pull(&t);
    // bob "resolves" by adding the file as it is, markers and all.
    t.git("bob", &["add", ".rune/INVARIANTS.md"]);
    t.git("bob", &["commit", "-q", "--no-edit"]);
    let now = "2026-12-01T10:00:00Z";
    let out = t.baton("bob", &["bridge", "integrity", "--json"], "", now);
    let v = out.json();
    assert_eq!(v["status"], "SUSPICIOUS", "{v}");
    let markers: Vec<&serde_json::Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "conflict-marker")
        .collect();
    assert_eq!(markers.len(), 3, "{v}");
    assert_eq!(markers[0]["file"], ".rune/INVARIANTS.md");
    assert!(
        markers[0]["excerpt"]
            .as_str()
            .unwrap()
            .starts_with("<<<<<<<"),
        "{v}"
    );
    assert!(markers[0]["line"].as_u64().unwrap() > 0);
    let text = t.baton("bob", &["bridge", "integrity"], "", now);
    assert!(
        text.stdout.contains("SUSPICIOUS .rune/INVARIANTS.md:"),
        "{text:?}"
    );

    let ctx = t.session_start("bob", now);
    assert!(
        !ctx.contains("ALICE-RULE") && !ctx.contains("BOB-RULE"),
        "{ctx}"
    );
    assert!(!ctx.contains("<<<<<<<"), "{ctx}");
    assert!(
        ctx.contains("## ⚠ Project memory: unresolved merge\nNot loaded (a git merge left conflict markers): .rune/INVARIANTS.md (line "),
        "{ctx}"
    );
    // The rest of the memory still loads.
    assert!(ctx.contains("alice-decision-1"), "{ctx}");
    // And nothing is saved on top of it until it is resolved.
    let out = t.baton("bob", &["bridge", "save"], "summary: later\n", now);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stderr
            .contains(".rune/INVARIANTS.md (conflict marker at line "),
        "{out:?}"
    );
    // Resolved: it loads again.
    std::fs::write(
        t.dir("bob").join(".rune/INVARIANTS.md"),
        "# Invariants\n\n## Critical Invariants\n\n### BOB-RULE\n- **WHAT**: BOB-RULE holds\n- **WHERE**: `src/**`\n- **WHY**: it matters\n",
    )
    .unwrap();
    let out = t.baton("bob", &["bridge", "save"], "summary: resolved\n", now);
    assert_eq!(out.code, 0, "{out:?}");
}

#[test]
fn a_relay_loop_handed_off_in_one_clone_resumes_in_another_after_a_pull() {
    let t = Team::new(&["alice", "bob"]);
    let now = "2026-12-01T10:00:00Z";
    let out = t.baton(
        "alice",
        &[
            "relay",
            "handoff",
            "--no-stdin",
            "--loop-id",
            "WL-042",
            "--phase",
            "verify",
        ],
        "",
        now,
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        t.git("alice", &["show", "--name-only", "--format=", "HEAD"]),
        ".handoff/.gitattributes\n.handoff/loop/loop_state.md\n.handoff/packets/latest.md"
    );
    t.sync("alice");
    // bob's machine: alice's folder is not there.
    t.sync("bob");
    let gone = t.home.path().join("alice-elsewhere");
    std::fs::rename(t.dir("alice"), &gone).unwrap();
    let out = t.baton("bob", &["relay", "resume", "--json"], "", now);
    assert_eq!(out.json()["result"], "worktree_missing", "{out:?}");
    let out = t.baton("bob", &["relay", "resume", "--here"], "", now);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("relay: resumed WL-042"), "{out:?}");
    assert!(t
        .read("bob", ".handoff/loop/loop_state.md")
        .contains("cycles_total: 1"));
    t.sync("bob");
    std::fs::rename(&gone, t.dir("alice")).unwrap();
    // alice gets bob's resume without a conflict, and the next hand-off goes on from it.
    t.sync("alice");
    assert_eq!(
        t.read("alice", ".handoff/loop/loop_state.md"),
        t.read("bob", ".handoff/loop/loop_state.md")
    );
    let out = t.baton("alice", &["relay", "status", "--json"], "", now);
    assert_eq!(out.json()["cycles_total"], 1, "{out:?}");
    for f in [".handoff/packets/latest.md", ".handoff/loop/loop_state.md"] {
        let attr = t.git("alice", &["check-attr", "merge", "--", f]);
        assert!(attr.ends_with("merge: unset"), "{attr}");
    }
}

/// `baton doctor`'s line about the bridge's merge rules in alice's clone.
fn bridge_check(t: &Team, now: &str) -> serde_json::Value {
    let out = t.baton("alice", &["doctor", "--json"], "", now);
    let checks = out.json()["checks"].clone();
    checks
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "bridge merge")
        .cloned()
        .unwrap_or_else(|| panic!("{checks}"))
}

#[test]
fn doctor_reports_missing_merge_rules_and_fix_writes_them() {
    let t = Team::new(&["alice"]);
    let now = "2026-12-01T10:00:00Z";
    // A memory folder from before the rules, committed with its checkpoint.
    std::fs::create_dir_all(t.dir("alice").join(".rune")).unwrap();
    std::fs::write(
        t.dir("alice").join(".rune/decisions.md"),
        "# Decisions Log\n",
    )
    .unwrap();
    std::fs::write(
        t.dir("alice").join(".rune/checkpoint.md"),
        "# Checkpoint — 2026-11-30 10:00\n",
    )
    .unwrap();
    t.git("alice", &["add", ".rune"]);
    t.git("alice", &["commit", "-q", "-m", "old memory"]);
    let bridge = bridge_check(&t, now);
    assert_eq!(bridge["level"], "warn", "{bridge}");
    let detail = bridge["detail"].as_str().unwrap();
    assert!(
        detail.contains("not merged by union (decisions.md, conventions.md"),
        "{detail}"
    );
    assert!(
        detail.contains("git rm --cached .rune/checkpoint.md"),
        "{detail}"
    );
    assert!(bridge["fix"]
        .as_str()
        .unwrap()
        .contains("baton doctor --fix"));

    let out = t.baton("alice", &["doctor", "--fix"], "", now);
    assert!(
        out.stdout
            .contains("wrote .rune/.gitattributes .rune/.gitignore"),
        "{out:?}"
    );
    for f in [
        "decisions.md",
        "progress.md",
        "learnings.jsonl",
        "session-log.md",
    ] {
        let attr = t.git(
            "alice",
            &["check-attr", "merge", "--", &format!(".rune/{f}")],
        );
        assert!(attr.ends_with("merge: union"), "{attr}");
    }
    // The tracked checkpoint is left for the user to untrack; once untracked, it is ignored.
    t.git("alice", &["rm", "-q", "--cached", ".rune/checkpoint.md"]);
    let bridge = bridge_check(&t, now);
    assert_eq!(bridge["level"], "ok", "{bridge}");
    assert_eq!(
        t.git("alice", &["check-ignore", ".rune/checkpoint.md"]),
        ".rune/checkpoint.md"
    );
}

#[test]
fn a_save_commits_only_what_it_wrote_and_nothing_when_it_wrote_nothing() {
    let t = Team::new(&["alice"]);
    let now = "2026-12-01T10:00:00Z";
    let head = |t: &Team| t.git("alice", &["rev-parse", "HEAD"]);
    let start = head(&t);
    // Nothing to save: nothing written, nothing committed.
    for stdin in ["", "decisions: []\nprogress: {completed: []}\n"] {
        let out = t.baton("alice", &["bridge", "save"], stdin, now);
        assert_eq!(out.code, 0, "{out:?}");
        assert!(
            out.stdout
                .contains("- **Git commit**: skipped (nothing saved)"),
            "{out:?}"
        );
        assert_eq!(head(&t), start);
    }
    assert!(!t.dir("alice").join(".rune").exists());
    // A first save: its entries and the folder's rules, not a stray file of the folder.
    save(&t, "alice", 1, now);
    std::fs::write(t.dir("alice").join(".rune/scratch.md"), "mine\n").unwrap();
    let out = t.baton(
        "alice",
        &["bridge", "checkpoint"],
        "doing: x\nresume: go on\n",
        now,
    );
    assert_eq!(out.code, 0, "{out:?}");
    let out = t.baton(
        "alice",
        &["bridge", "save"],
        "summary: second\n",
        "2026-12-01T10:05:00Z",
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        t.git("alice", &["show", "--name-only", "--format=", "HEAD"]),
        ".rune/session-log.md"
    );
    let status = t.git("alice", &["status", "--porcelain"]);
    assert_eq!(
        status, "?? .rune/scratch.md",
        "the checkpoint is private: {status}"
    );
    assert_eq!(t.git("alice", &["rev-list", "--count", "HEAD"]), "3");
    // A learning is recorded, not committed (the next save commits it).
    let out = t.baton(
        "alice",
        &[
            "bridge",
            "learn",
            "--type",
            "error",
            "--key",
            "k",
            "--insight",
            "i",
        ],
        "",
        now,
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(t.git("alice", &["rev-list", "--count", "HEAD"]), "3");
}

#[test]
fn save_on_a_terminal_prints_the_input_and_exits_2() {
    let script = Path::new("/usr/bin/script");
    if !script.exists() {
        eprintln!("SKIPPED: no `script` to give baton a terminal");
        return;
    }
    let t = Team::new(&["alice"]);
    for name in ["save", "checkpoint"] {
        let cmd = format!("{} bridge {name}; echo \"exit=$?\"", bin());
        let out = Command::new(script)
            .args(["-qec", &cmd, "/dev/null"])
            .current_dir(t.dir("alice"))
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", t.home.path())
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout).replace('\r', "");
        assert!(said.contains("exit=2"), "{said}");
        assert!(
            said.contains("nothing on stdin (it is a terminal)"),
            "{said}"
        );
        assert!(said.contains("INPUT (YAML on stdin"), "{said}");
        let help = t.baton(
            "alice",
            &["bridge", name, "--help"],
            "",
            "2026-12-01T10:00:00Z",
        );
        let schema = help.stdout.split("INPUT (YAML").nth(1).unwrap();
        assert!(said.contains(schema.lines().nth(2).unwrap()), "{said}");
    }
    assert!(!t.dir("alice").join(".rune").exists());
    assert_eq!(t.git("alice", &["rev-list", "--count", "HEAD"]), "1");
}

#[test]
fn the_daily_report_reads_the_teams_memory_and_never_a_teammates_audit_trail() {
    let t = Team::new(&["alice", "bob"]);
    let day = "2026-12-01T10:00:00Z";
    // alice works with the audit trail on and saves a blocked item; she commits everything.
    t.baton("alice", &["audit", "start", "alice's task"], "", day);
    let out = t.baton(
        "alice",
        &["bridge", "save"],
        "summary: day\nprogress: {completed: [x], blocked: [\"deploy — waiting for ALICE-KEY\"], next: [docs]}\n",
        day,
    );
    assert_eq!(out.code, 0, "{out:?}");
    t.git("alice", &["add", "-A"]);
    let _ = t.git_run(&t.dir("alice"), &["commit", "-q", "-m", "everything"]);
    t.sync("alice");
    t.sync("bob");
    // The trail stayed with alice; bob's report has the team's blocked item, and no session.
    assert!(t.dir("alice").join(".boo").is_dir());
    assert!(
        !t.dir("bob").join(".boo/runs").exists(),
        "alice's trail reached bob"
    );
    let out = t.baton(
        "bob",
        &["audit", "report-daily", "20261201"],
        "",
        "2026-12-01T18:00:00Z",
    );
    assert_eq!(out.code, 0, "{out:?}");
    let report = out.stdout;
    assert!(
        report.contains("blocked: deploy — waiting for ALICE-KEY"),
        "{report}"
    );
    assert!(!report.contains("alice's task"), "{report}");
}

/// The one shape a union merge can still cut: two entries with the same body. The files
/// hold both headings, the body once and both authors; load shows the newest, whole.
#[test]
fn the_same_entry_saved_in_two_clones_merges_and_loads_whole() {
    let t = Team::new(&["alice", "bob"]);
    let same = "instincts:\n  - {name: Format before commit, trigger: before every commit, action: run cargo fmt, confidence: 0.8, evidence: CI failed}\ndecisions:\n  - {title: Use one lock, context: races, decision: one lock for all writers, rationale: simpler, impact: src/lock.rs}\n";
    for (who, now) in [
        ("alice", "2026-12-01T09:00:00Z"),
        ("bob", "2026-12-01T09:30:00Z"),
    ] {
        let out = t.baton(who, &["bridge", "save"], same, now);
        assert_eq!(out.code, 0, "{out:?}");
    }
    t.sync("alice");
    t.sync("bob");
    t.sync("alice");
    assert_eq!(memory(&t, "alice"), memory(&t, "bob"));
    let instincts = t.read("alice", ".rune/instincts.md");
    assert_eq!(
        instincts.matches("Instinct: Format before commit").count(),
        2,
        "{instincts}"
    );
    let ctx = t.session_start("alice", "2026-12-01T12:00:00Z");
    assert!(
        ctx.contains("- Format before commit: when before every commit → run cargo fmt (0.8, by bob, 2 hours ago)"),
        "{ctx}"
    );
    assert_eq!(
        ctx.matches("Format before commit: when").count(),
        1,
        "{ctx}"
    );
    assert!(
        ctx.contains("Use one lock (decided by bob, 2 hours ago): one lock for all writers"),
        "{ctx}"
    );
    assert!(
        ctx.contains("Use one lock (3 hours ago): one lock for all writers"),
        "{ctx}"
    );
    // alice's own entries are still hers (reviewed): the shared body went back to each.
    assert!(
        ctx.contains("## Recent decisions\n- [2026-12-01 09:00:00Z] Use one lock"),
        "{ctx}"
    );
    // The next save writes the instincts repaired.
    let out = t.baton(
        "alice",
        &["bridge", "save"],
        "instincts: [{name: other, trigger: t, action: a}]\n",
        "2026-12-01T12:00:00Z",
    );
    assert_eq!(out.code, 0, "{out:?}");
    let instincts = t.read("alice", ".rune/instincts.md");
    assert_eq!(
        instincts
            .matches("**Trigger:** before every commit")
            .count(),
        2,
        "{instincts}"
    );
}
