//! Issue #16, the handoff part: what a user coming from datarim's session-handoff tools
//! expects, written from the behaviour datarim documents (its writer, validator,
//! stale-runtime detector and `/dr-continue` consumer contract).

use super::{artefact, check_session, commit_file, head_of, save, save_as, temp_file, ID};
use crate::harness::{Output, Project};
use std::path::Path;
use std::time::{Duration, Instant};

/// A Layer 1 line for the project repository at `sha`.
fn layer1(p: &Project, branch: &str, sha: &str) -> String {
    format!(
        "## Layer 1 — Git State\nrepo: {}  branch: {branch}  HEAD: {sha}  status: clean\n",
        p.root.display()
    )
}

/// Points `refs/remotes/origin/main` at `sha` (what a fetch would leave).
fn set_origin_main(p: &Project, sha: &str) {
    let repo = git2::Repository::open(&p.root).unwrap();
    repo.reference(
        "refs/remotes/origin/main",
        git2::Oid::from_str(sha).unwrap(),
        true,
        "test",
    )
    .unwrap();
}

/// Moves the checked-out branch back to `sha`, as `git reset --hard` does.
fn reset_hard(p: &Project, sha: &str) {
    let repo = git2::Repository::open(&p.root).unwrap();
    let obj = repo.revparse_single(sha).unwrap();
    repo.reset(&obj, git2::ResetType::Hard, None).unwrap();
}

fn continue_(p: &Project, arg: &str) -> Output {
    p.run(&["handoff", "continue", arg], b"", &[])
}

/// The 1-based line of the artefact that holds `needle`.
fn line_of(p: &Project, id: &str, needle: &str) -> usize {
    let text = std::fs::read_to_string(artefact(p, id)).unwrap();
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

// ------------------------------------------------------------------------------- the writer

#[test]
fn issue_16_a_bare_mkdir_lock_is_waited_for_up_to_the_timeout_never_taken_over() {
    // datarim's writer holds `.lock.<ID>` as a bare `mkdir` (no owner file): baton waits the
    // whole DR_SESSION_LOCK_TIMEOUT for it, past the 5 s after which it once took it over,
    // then exits 3 and leaves the lock as it was.
    let p = Project::new();
    let lock = p.root.join(format!("datarim/sessions/.lock.{ID}"));
    std::fs::create_dir_all(&lock).unwrap();
    let started = Instant::now();
    let out = save_as(
        &p,
        ID,
        "x",
        super::BODY,
        &[("DR_SESSION_LOCK_TIMEOUT", "6")],
    );
    let waited = started.elapsed();
    assert_eq!(out.code, 3, "{out:?}");
    assert!(waited >= Duration::from_secs(6), "waited only {waited:?}");
    assert!(lock.is_dir(), "the other writer's lock is still there");
    assert_eq!(
        std::fs::read_dir(&lock).unwrap().count(),
        0,
        "and untouched"
    );
    assert!(!artefact(&p, ID).exists());
}

#[test]
fn issue_16_the_kill_switch_wins_before_argument_parsing() {
    let p = Project::new();
    let root = p.root.to_str().unwrap().to_string();
    let off = [("DATARIM_DISABLE_SESSION_HANDOFF", "1")];
    for args in [
        &["handoff", "write", "--bogus"][..],
        &["handoff", "write"],
        &[
            "--root",
            &root,
            "handoff",
            "write",
            "--session",
            "../x",
            "--no-such-flag",
        ],
        &[
            "handoff",
            "--root",
            &root,
            "write",
            "--captured-by",
            "robot",
        ],
    ] {
        let out = p.run(args, b"", &off);
        assert_eq!(out.code, 0, "{args:?}: {out:?}");
        assert_eq!(out.stdout, "", "{args:?}");
        assert!(out.stderr.contains("switched off"), "{out:?}");
    }
    assert!(!p.root.join("datarim").exists());
    // Without the switch clap refuses the unknown flag (2); the switch is the writer's only.
    assert_eq!(p.run(&["handoff", "write", "--bogus"], b"", &[]).code, 2);
    assert_eq!(p.run(&["handoff", "check", "--bogus"], b"", &off).code, 3);
    // The early check reads the command words, not anything that merely looks like them.
    assert_eq!(p.run(&["handoff", "draft", "write"], b"", &off).code, 2);
}

// ---------------------------------------------------------------------------- stale-runtime

#[test]
fn issue_16_stale_runtime_speaks_the_specs_advisory_and_exits_2_on_usage_errors() {
    let p = Project::new();
    let root = p.root.to_str().unwrap().to_string();
    commit_file(&p, "scripts/lib/helper.sh", "echo hi\n");
    let out = p.run(&["handoff", "stale-runtime", "--repo", &root], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout
            .contains("update your Datarim install(s) per your topology"),
        "{out:?}"
    );
    assert!(out.stdout.contains("non-blocking"), "{out:?}");
    for host_or_command in ["arcana", "aether", "install.sh", "ssh ", "http"] {
        assert!(!out.stdout.contains(host_or_command), "{out:?}");
    }
    let missing = format!("{root}/does-not-exist");
    for args in [
        &["--repo", missing.as_str()][..],
        &["--repo", ""],
        &["--repo", &root, "--range", ""],
        &["--bogus"],
    ] {
        let mut all = vec!["handoff", "stale-runtime"];
        all.extend_from_slice(args);
        let out = p.run(&all, b"", &[]);
        assert_eq!(out.code, 2, "{args:?}: {out:?}");
        assert_eq!(out.stdout, "", "{args:?}");
    }
    // A folder that exists but is no repository: git fails, fail-open 3.
    let plain = p.home.path().to_str().unwrap().to_string();
    let out = p.run(&["handoff", "stale-runtime", "--repo", &plain], b"", &[]);
    assert_eq!(out.code, 3, "{out:?}");
}

#[test]
fn issue_16_dr_save_runs_the_stale_runtime_detector_before_the_resume_block() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let save = std::fs::read_to_string(repo.join("commands/dr-save.md")).unwrap();
    let detector = save
        .find("handoff stale-runtime --repo")
        .expect("dr-save.md runs the detector");
    let block = save
        .find("the resume block) to the user **verbatim**")
        .expect("dr-save.md prints the resume block");
    assert!(
        detector < block,
        "the detector runs before the resume block is printed"
    );
    assert!(save.contains("never blocks"), "advisory only");
    let skill =
        std::fs::read_to_string(repo.join("skills/session-handoff-writer/SKILL.md")).unwrap();
    assert!(skill.contains("handoff stale-runtime --repo"));
}

// ----------------------------------------------------------------------------- the validator

#[test]
fn issue_16_check_accepts_what_datarims_writer_produces_and_warns_where_baton_is_stricter() {
    let p = Project::new();
    let path = artefact(&p, ID);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    // datarim's writer lets these through (its claim gate greps `verified:` anywhere);
    // baton's writer would refuse them, so they are written here by hand.
    let front = super::DATARIM_FRONT.replace("captured_by: agent", "captured_by: cron");
    let body = format!(
        "{}CI is green, unverified: nobody looked\n  - merged upstream last week\n",
        super::DATARIM_BODY
    );
    std::fs::write(&path, super::datarim_artefact(&front, &body)).unwrap();
    let green = line_of(&p, ID, "CI is green");
    let root = p.root.to_str().unwrap();
    for args in [
        vec!["--session", ID, "--root", root],
        vec!["--validate-frontmatter", "--session", ID, "--root", root],
        vec![path.to_str().unwrap()],
    ] {
        let out = super::baton_check(&p, &args);
        assert_eq!(out.code, 0, "{args:?}: {out:?}");
        assert!(out.stdout.starts_with("ok: "), "{out:?}");
        assert!(
            out.stderr.contains(&format!(
                "baton handoff check: warning: line {green}: untagged claim (\"green\")"
            )),
            "{out:?}"
        );
        assert!(
            out.stderr.contains("untagged claim (\"merged\")"),
            "{out:?}"
        );
        assert!(
            out.stderr
                .lines()
                .all(|l| l.starts_with("baton handoff check: warning: ")),
            "{out:?}"
        );
    }
    // The strict-only rules are warnings too.
    let strict = super::baton_check(
        &p,
        &["--validate-frontmatter", "--session", ID, "--root", root],
    );
    assert!(
        strict.stderr.contains("`captured_by` is \"cron\""),
        "{strict:?}"
    );
    // `continue` replays it, with the warnings as format notes.
    let out = continue_(&p, ID);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("Format notes"), "{out:?}");
    assert!(out
        .stdout
        .contains("CI is green, unverified: nobody looked"));
    // What datarim's validator fails still fails.
    std::fs::write(
        &path,
        super::datarim_artefact(
            super::DATARIM_FRONT,
            &format!("{}The service was deployed.\n", super::DATARIM_BODY),
        ),
    )
    .unwrap();
    let out = check_session(&p, false);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(!out.stderr.contains("warning"), "{out:?}");
}

// ------------------------------------------------------------------------------- continue

#[test]
fn issue_16_pushed_shas_are_checked_against_origin_main_with_content_landing_evidence() {
    // datarim's squash collision: the agent's commit A is on a branch; a parallel session
    // landed the same content on origin/main under another commit S.
    let p = Project::new();
    let (base, branch) = head_of(&p);
    let other = commit_file(&p, "other.md", "parallel\n");
    let squash = commit_file(&p, "work.md", "agent work\n");
    set_origin_main(&p, &squash);
    reset_hard(&p, &base);
    let agent = commit_file(&p, "work.md", "agent work\n");
    let body = format!(
        "{}\n## Layer 3 — Related Files\n- work.md — added\n\n## Layer 5 — Failed Approaches\nNone.\n\nFeature branch was pushed to origin. verified: SHA {agent} pushed at session end\nMerged {} into main. verified: PR 3\n",
        layer1(&p, &branch, &agent),
        &other[..10]
    );
    assert_eq!(save(&p, &body).code, 0);
    let pushed = line_of(&p, ID, "Feature branch was pushed");
    let merged = line_of(&p, ID, "into main.");
    let out = continue_(&p, ID);
    assert_eq!(out.code, 0, "{out:?}");
    let s = &out.stdout;
    assert!(
        s.contains(&format!(
            "- CLAIM-UNVERIFIED: line {pushed}: SHA {agent} not found in origin/main"
        )),
        "{s}"
    );
    assert!(
        s.contains(&format!(
            "- CONTENT-LANDED: line {pushed}: the files {agent} changed (work.md) are the same in origin/main"
        )),
        "{s}"
    );
    assert!(
        s.contains(&format!(
            "- OK: line {merged}: {} is in origin/main",
            &other[..10]
        )),
        "{s}"
    );
    // The failed claim reads `unverified:` in the replay; the confirmed one keeps its tag.
    assert!(
        s.contains(&format!(
            "Feature branch was pushed to origin. unverified: SHA {agent} pushed"
        )),
        "{s}"
    );
    assert!(s.contains("into main. verified: PR 3"), "{s}");
    // Content that differs is no evidence: CLAIM-UNVERIFIED alone.
    reset_hard(&p, &squash);
    let edited = commit_file(&p, "work.md", "edited on main\n");
    set_origin_main(&p, &edited);
    reset_hard(&p, &agent);
    let s = continue_(&p, ID).stdout;
    assert!(
        s.contains(&format!("line {pushed}: SHA {agent} not found")),
        "{s}"
    );
    assert!(!s.contains("CONTENT-LANDED"), "{s}");
    assert!(s.contains("into main. verified: PR 3"), "{s}");
    // Once origin/main contains the commit, the claim holds.
    set_origin_main(&p, &agent);
    let s = continue_(&p, ID).stdout;
    assert!(
        s.contains(&format!("- OK: line {pushed}: {agent} is in origin/main")),
        "{s}"
    );
    assert!(s.contains("origin. verified: SHA"), "{s}");
}

#[test]
fn issue_16_stale_is_measured_against_origin_main_when_there_is_one() {
    let p = Project::new();
    let (base, branch) = head_of(&p);
    let body = format!(
        "{}\n## Layer 5 — Failed Approaches\nNone.\n",
        layer1(&p, &branch, &base)
    );
    assert_eq!(save(&p, &body).code, 0);
    // No origin/main: the local HEAD is all there is.
    let s = continue_(&p, ID).stdout;
    assert!(!s.contains("origin/main"), "{s}");
    assert!(s.contains("Every check passed"), "{s}");
    set_origin_main(&p, &base);
    let s = continue_(&p, ID).stdout;
    assert!(
        s.contains(&format!(
            "- OK: repo {}: origin/main is at the saved HEAD {}",
            p.root.display(),
            &base[..10]
        )),
        "{s}"
    );
    // origin/main moved on (a fetch brought a commit); the local HEAD did not.
    let upstream = commit_file(&p, "upstream.md", "x\n");
    set_origin_main(&p, &upstream);
    reset_hard(&p, &base);
    let out = continue_(&p, ID);
    assert!(
        out.stdout.contains(&format!(
            "- STALE: repo {}: origin/main moved from the saved HEAD {} to {} (1 commit(s) since the save",
            p.root.display(),
            &base[..10],
            &upstream[..10]
        )),
        "{out:?}"
    );
    assert!(out
        .stdout
        .contains("HEAD {} unchanged".replace("{}", &base[..10]).as_str()));
    assert!(out.stdout.contains("1 finding(s) above"), "{out:?}");
}

#[test]
fn issue_16_the_replay_prompt_has_datarims_done_before_form() {
    let p = Project::new();
    let (sha, branch) = head_of(&p);
    let body = format!(
        "{}\n## Layer 5 — Failed Approaches\nTried X, failed because Y.\nBuilt at {} verified: local build\nTests passing verified: CI run 7\n",
        layer1(&p, &branch, &sha),
        &sha[..12]
    );
    assert_eq!(save(&p, &body).code, 0);
    let out = continue_(&p, ID);
    assert_eq!(out.code, 0, "{out:?}");
    let s = &out.stdout;
    let order = [
        "## Re-verification",
        "## Saved state",
        "\n/dr-next TUNE-0420\n",
        "\nInvestigate every finding above yourself",
        "\ndone before:\n",
        "## Layer 1 — Git State",
        "Tried X, failed because Y.",
    ];
    let at: Vec<usize> = order
        .iter()
        .map(|n| s.find(n).unwrap_or_else(|| panic!("no {n:?} in {s}")))
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}\n{s}");
    // A `verified:` line whose SHA was found keeps its tag; one that names nothing that can
    // be checked is shown downgraded, and the count says so.
    assert!(
        s.contains(&format!("Built at {} verified: local build", &sha[..12])),
        "{s}"
    );
    assert!(s.contains("Tests passing unverified: CI run 7"), "{s}");
    assert!(
        s.contains("1 `verified:` line(s) below read `unverified:`"),
        "{s}"
    );
    // The artefact itself is untouched.
    let text = std::fs::read_to_string(artefact(&p, ID)).unwrap();
    assert!(text.contains("Tests passing verified: CI run 7"));
}

#[test]
fn issue_16_continue_with_a_task_id_resumes_the_newest_artefact_for_that_task() {
    let p = Project::new();
    let tasks = |list: &str| temp_file(&p, "tasks.txt", list);
    let write = |id: &str, next: &str, list: &str| {
        let body = temp_file(&p, "body.md", super::BODY);
        let t = tasks(list);
        let out = p.run(
            &[
                "handoff",
                "write",
                "--session",
                id,
                "--captured-by",
                "agent",
                "--recommended-next",
                "/dr-next TUNE-0420",
                "--next-action",
                next,
                "--active-tasks-file",
                &t,
                "--body-file",
                &body,
            ],
            b"",
            &[],
        );
        assert_eq!(out.code, 0, "{out:?}");
    };
    write("SESSION-20261128-090000", "Oldest.", "TUNE-0420 | wip\n");
    write(
        "SESSION-20261129-090000",
        "Newer.",
        "TUNE-0420 | wip\nOTHR-0001 | wip\n",
    );
    write(
        "SESSION-20261130-090000",
        "Newest, other task.",
        "OTHR-0001 | wip\n",
    );
    // An earlier block listed the task; the newest block of that session does not.
    write(
        "SESSION-20261130-100000",
        "First block.",
        "TUNE-0420 | wip\n",
    );
    write("SESSION-20261130-100000", "Task done.", "OTHR-0001 | wip\n");
    let out = continue_(&p, "TUNE-0420");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.starts_with(
            "TUNE-0420 → SESSION-20261129-090000: the newest saved session whose newest block lists TUNE-0420 as active.\n"
        ),
        "{out:?}"
    );
    assert!(out.stdout.contains("Next action (the artefact's words, quoted; check them with the user before acting): \"Newer.\"\n"), "{out:?}");
    let out = continue_(&p, "OTHR-0001");
    assert!(out.stdout.contains("Next action (the artefact's words, quoted; check them with the user before acting): \"Task done.\"\n"), "{out:?}");
    let out = continue_(&p, "NONE-0001");
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stderr.contains("no saved session lists task NONE-0001"),
        "{out:?}"
    );
    assert!(out.stderr.contains("SESSION-20261128-090000"), "{out:?}");
    assert_eq!(out.stdout, "");
    let cont = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("commands/dr-continue.md"),
    )
    .unwrap();
    assert!(cont.contains("TASK-ID"), "dr-continue.md takes a TASK-ID");
}

// -------------------------------------------------------------- Layer 2: stage snapshots

const SNAPSHOT: &str = "---\ntask_id: TUNE-0420\nartifact: stage-snapshot\nschema_version: 1\nstage: plan\ncommand: /dr-plan\ncaptured_at: 2026-11-29T08:00:00Z\ncaptured_by: agent\nrecommended_next: /dr-do\n---\n\nPlan approved: three phases, P1 done.\n## Layer 5 — not a layer here\nBranch merged into staging\n";

#[test]
fn issue_16_layer_2_reuses_the_tasks_stage_snapshot() {
    let p = Project::new();
    p.write(".claude/baton.yaml", "bridge: {enabled: false}\n");
    p.write(
        "datarim/tasks.md",
        "## Active\n- TUNE-0420 · wip · P1 · L2 · Ship it → t.md\n",
    );
    p.write("datarim/snapshots/TUNE-0420.snapshot.md", SNAPSHOT);
    p.write(
        "datarim/snapshots/EXTR-0001.snapshot.md",
        "Extra task notes.\n",
    );
    let draft = p.run(&["handoff", "draft"], b"", &[]);
    assert_eq!(draft.code, 0, "{draft:?}");
    let d = &draft.stdout;
    let layer2 = d.find("## Layer 2 — Active Tasks").unwrap();
    let layer3 = d.find("## Layer 3 — Related Files").unwrap();
    let heading = d
        .find("### TUNE-0420 (from datarim/snapshots/TUNE-0420.snapshot.md, stage: plan, captured at: 2026-11-29T08:00:00Z)\n")
        .unwrap_or_else(|| panic!("{d}"));
    assert!(layer2 < heading && heading < layer3, "{d}");
    assert!(
        d.contains("\nPlan approved: three phases, P1 done.\n"),
        "{d}"
    );
    // It cannot start a layer, and its claims are tagged as assumptions.
    assert!(d.contains("\n### Layer 5 — not a layer here\n"), "{d}");
    assert!(d.contains("Branch merged into staging  assumed:"), "{d}");
    assert!(
        !d.contains("task_id:") && !d.contains("### EXTR-0001"),
        "{d}"
    );
    // A task not in tasks.md is asked for by name.
    let out = p.run(&["handoff", "draft", "--task", "EXTR-0001"], b"", &[]);
    assert!(
        out.stdout.contains(
            "### EXTR-0001 (from datarim/snapshots/EXTR-0001.snapshot.md)\nExtra task notes.\n"
        ),
        "{out:?}"
    );
    assert_eq!(
        p.run(&["handoff", "draft", "--task", "../x"], b"", &[])
            .code,
        1
    );
    // The draft feeds the writer as it is.
    let tasks = temp_file(&p, "t.txt", "TUNE-0420 | wip\n");
    let out = p.run(
        &[
            "handoff",
            "write",
            "--session",
            ID,
            "--captured-by",
            "agent",
            "--recommended-next",
            "/dr-next TUNE-0420",
            "--next-action",
            "Ship it.",
            "--active-tasks-file",
            &tasks,
            "--body-file",
            "-",
        ],
        d.as_bytes(),
        &[],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(check_session(&p, true).code, 0);
    // The automatic save at PreCompact carries it too.
    let auto = p.event("PreCompact").replace("\"manual\"", "\"auto\"");
    assert_eq!(p.hook("PreCompact", auto.as_bytes()).code, 0);
    let text = std::fs::read_to_string(artefact(&p, "SESSION-20261130-101501")).unwrap();
    assert!(
        text.contains("### TUNE-0420 (from datarim/snapshots/TUNE-0420.snapshot.md"),
        "{text}"
    );
    assert!(
        text.contains("Plan approved: three phases, P1 done."),
        "{text}"
    );
    // A snapshot that is a symlink is not followed.
    let p2 = Project::new();
    p2.write(
        "datarim/tasks.md",
        "## Active\n- TUNE-0420 · wip · P1 · L2 · Ship it\n",
    );
    let outside = p2.home.path().join("secret.md");
    std::fs::write(&outside, "outside the project\n").unwrap();
    std::fs::create_dir_all(p2.root.join("datarim/snapshots")).unwrap();
    std::os::unix::fs::symlink(
        &outside,
        p2.root.join("datarim/snapshots/TUNE-0420.snapshot.md"),
    )
    .unwrap();
    let out = p2.run(&["handoff", "draft"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stdout.contains("outside the project"), "{out:?}");
    assert!(!out.stdout.contains("### TUNE-0420"), "{out:?}");
    let save_md =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("commands/dr-save.md"))
            .unwrap();
    assert!(
        save_md.contains("datarim/snapshots/"),
        "dr-save.md names the snapshots"
    );
}
