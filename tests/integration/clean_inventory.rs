//! `baton clean --yes` and the user's files inside baton's private state folders. It removed
//! an audit or handoff folder whole once baton had made it (at its default name, or where a
//! teammate's config moved it, once it held baton's mark), with every file the user had put
//! there since. Now only what baton writes there goes (src/clean/inventory.rs), the folder
//! only once empty, and the listing says what stayed and why. The first three tests failed on
//! the code before (81ea795); the last guards the inventory against a writer it does not know.

use crate::handoff::{save_as, BODY};
use crate::harness::{Output, Project};
use std::path::Path;

const ID: &str = "SESSION-20261130-101500";

/// A session's worth of baton's writes: the hooks (the audit trail, and PreCompact's automatic
/// handoff artefact), then a handoff the agent saved.
fn a_session(p: &Project) {
    p.hooks(&[
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "Stop",
        "PreCompact",
        "SessionEnd",
    ]);
    let out = save_as(p, ID, "Continue implementation.", BODY, &[]);
    assert_eq!(out.code, 0, "{out:?}");
}

/// The one audit session folder under `<audit>/runs/`.
fn run_dir(audit: &Path) -> std::path::PathBuf {
    std::fs::read_dir(audit.join("runs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.is_dir())
        .expect("a session folder")
}

/// What the user adds to a state folder `dir` after baton made it (none of it committed): a
/// note, a folder of drafts, a FIFO and a link to a file outside.
pub(crate) fn users_things(p: &Project, dir: &str, outside: &Path) {
    let d = p.root.join(dir);
    std::fs::write(d.join("notes.txt"), "my notes").unwrap();
    std::fs::create_dir_all(d.join("drafts/old")).unwrap();
    std::fs::write(d.join("drafts/old/plan.md"), "my plan").unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(d.join("pipe"))
        .status()
        .unwrap();
    assert!(made.success());
    std::os::unix::fs::symlink(outside, d.join("link")).unwrap();
}

/// That every byte of what `users_things` put in `dir` is still there as it was, and the file
/// outside the project its link points to (`outside`) too.
pub(crate) fn users_things_stayed(p: &Project, dir: &str, outside: &Path, out: &Output) {
    let d = p.root.join(dir);
    let read = |rel: &str| std::fs::read_to_string(d.join(rel)).unwrap_or_default();
    assert_eq!(read("notes.txt"), "my notes", "{dir}: {}", all(out));
    assert_eq!(read("drafts/old/plan.md"), "my plan", "{dir}: {}", all(out));
    let fifo = std::fs::symlink_metadata(d.join("pipe")).unwrap();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&fifo.file_type()));
    assert!(std::fs::symlink_metadata(d.join("link"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(outside).unwrap(),
        "not in the project"
    );
}

pub(crate) fn all(out: &Output) -> String {
    format!("{}\n{}", out.stdout, out.stderr)
}

#[test]
fn clean_keeps_a_users_files_in_a_state_folder_a_teammates_config_moved() {
    let p = Project::new();
    p.commit_file(
        ".claude/baton.yaml",
        "paths: {audit: state/trail, handoff: state/handoffs}\n",
        "team config",
    );
    a_session(&p);
    let trail = p.root.join("state/trail");
    let handoffs = p.root.join("state/handoffs");
    assert!(trail.join(".gitignore").is_file() && handoffs.join(".gitignore").is_file());
    let artefact = handoffs.join(format!("{ID}.session.md"));
    assert!(artefact.is_file());
    let run = run_dir(&trail);
    let outside = p.home.path().join("outside.txt");
    std::fs::write(&outside, "not in the project").unwrap();
    users_things(&p, "state/trail", &outside);
    std::fs::write(run.join("mine.txt"), "deep in a folder baton made").unwrap();
    std::fs::write(handoffs.join("ideas.md"), "my ideas").unwrap();

    let out = p.run(&["clean", "--yes"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    // Every byte of the user's stays.
    users_things_stayed(&p, "state/trail", &outside, &out);
    assert!(run.join("mine.txt").is_file(), "{}", all(&out));
    assert!(handoffs.join("ideas.md").is_file(), "{}", all(&out));
    // baton's files went; its mark stays with what stays, so that stays out of git.
    assert!(!trail.join("index.json").exists(), "{}", all(&out));
    for f in ["session.json", "audit_pending.jsonl", "audit_buffer.jsonl"] {
        assert!(!run.join(f).exists(), "{f}: {}", all(&out));
    }
    assert!(!artefact.exists(), "{}", all(&out));
    assert!(trail.join(".gitignore").is_file() && handoffs.join(".gitignore").is_file());
    assert_eq!(p.git(&["status", "--porcelain", "--", "state"]), "");
    // The listing says what stayed and why.
    for line in [
        "removed state/trail/  audit trail",
        "stays  state/trail/notes.txt  (a file baton does not write here)",
        "stays  state/trail/drafts/  (a folder baton does not make here)",
        "stays  state/trail/link  (a link",
        "stays  state/trail/pipe  (not a regular file",
        "stays  state/handoffs/ideas.md  (a file baton does not write here)",
        "(baton's files only: 1 other thing stays, and the folder with them)",
    ] {
        assert!(out.stdout.contains(line), "{line}:\n{}", out.stdout);
    }
    let mine = run.strip_prefix(&p.root).unwrap().join("mine.txt");
    assert!(
        out.stdout.contains(&format!("stays  {}", mine.display())),
        "{}",
        out.stdout
    );

    // Once the user has taken their files, the next clean takes the rest.
    for f in ["notes.txt", "pipe", "link"] {
        std::fs::remove_file(trail.join(f)).unwrap();
    }
    std::fs::remove_dir_all(trail.join("drafts")).unwrap();
    std::fs::remove_file(run.join("mine.txt")).unwrap();
    std::fs::remove_file(handoffs.join("ideas.md")).unwrap();
    let out = p.run(&["clean", "--yes"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stdout.contains("stays"), "{}", out.stdout);
    assert!(!p.root.join("state").exists(), "{}", all(&out));
}

#[test]
fn clean_keeps_a_users_files_in_the_default_state_folders_too() {
    let p = Project::new();
    a_session(&p);
    let boo = p.root.join(".boo");
    let run = run_dir(&boo);
    let outside = p.home.path().join("outside.txt");
    std::fs::write(&outside, "not in the project").unwrap();
    users_things(&p, ".boo", &outside);
    std::fs::write(run.join("mine.txt"), "deep").unwrap();
    std::fs::write(p.root.join("datarim/sessions/ideas.md"), "my ideas").unwrap();

    let out = p.run(&["clean", "--yes"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(boo.join("notes.txt").is_file(), "{}", all(&out));
    assert!(boo.join("drafts/old/plan.md").is_file(), "{}", all(&out));
    assert!(run.join("mine.txt").is_file(), "{}", all(&out));
    assert!(p.root.join("datarim/sessions/ideas.md").is_file());
    assert!(outside.is_file());
    assert!(!boo.join("index.json").exists() && !run.join("session.json").exists());
    assert!(!p
        .root
        .join(format!("datarim/sessions/{ID}.session.md"))
        .exists());
    for line in [
        "stays  .boo/notes.txt  (a file baton does not write here)",
        "stays  datarim/sessions/ideas.md  (a file baton does not write here)",
    ] {
        assert!(out.stdout.contains(line), "{line}:\n{}", out.stdout);
    }
}

#[test]
fn clean_json_says_what_stays_and_why() {
    let p = Project::new();
    a_session(&p);
    // More than the text names one by one.
    for n in 0..7 {
        p.write(&format!(".boo/note-{n}.txt"), "mine");
    }
    let json_of = |args: &[&str]| {
        let out = p.run(args, b"", &[]);
        assert_eq!(out.code, 0, "{out:?}");
        out.json()
    };
    for args in [&["clean", "--json"][..], &["clean", "--yes", "--json"]] {
        let v = json_of(args);
        let items = v["items"].as_array().unwrap();
        let boo = items
            .iter()
            .find(|i| i["shown"] == ".boo/")
            .unwrap_or_else(|| panic!("{v}"));
        assert_eq!(boo["remove"], true, "{v}");
        let stays = boo["stays"].as_array().unwrap_or_else(|| panic!("{v}"));
        assert_eq!(stays.len(), 7, "{v}");
        assert_eq!(stays[0]["path"], ".boo/note-0.txt", "{v}");
        assert_eq!(stays[0]["why"], "a file baton does not write here", "{v}");
        let sessions = items
            .iter()
            .find(|i| i["shown"] == "datarim/sessions/")
            .unwrap_or_else(|| panic!("{v}"));
        assert!(sessions.get("stays").is_none(), "{v}");
    }
    assert!(p.root.join(".boo/note-6.txt").is_file());
    assert!(!p.root.join("datarim").exists());
    // The text names five and counts the rest.
    let out = p.run(&["clean"], b"", &[]);
    assert!(
        out.stdout
            .contains("… and 2 more (`baton clean --json` lists every one)"),
        "{}",
        out.stdout
    );
}

/// The inventory knows every file baton's writers put in these folders: after a session,
/// a started and ended audit session, a daily report and handoff saves, at the default
/// names and moved, `clean` finds nothing that is not baton's and removes both folders.
#[test]
fn clean_inventory_knows_every_file_batons_writers_make() {
    for config in [None, Some("paths: {audit: s/a, handoff: s/h}\n")] {
        let p = Project::new();
        if let Some(c) = config {
            p.commit_file(".claude/baton.yaml", c, "config");
        }
        a_session(&p);
        for args in [
            &["audit", "start", "add the export button"][..],
            &["audit", "end"],
            &["audit", "report-daily"],
        ] {
            let out = p.run(args, b"", &[]);
            assert_eq!(out.code, 0, "{args:?}: {out:?}");
        }
        let out = save_as(&p, ID, "Then the tests.", BODY, &[]);
        assert_eq!(out.code, 0, "{out:?}");
        let (audit, handoff) = match config {
            None => (".boo", "datarim/sessions"),
            Some(_) => ("s/a", "s/h"),
        };
        assert!(p.root.join(audit).join("reports").is_dir());
        let out = p.run(&["clean", "--json"], b"", &[]);
        let v = out.json();
        for i in v["items"].as_array().unwrap() {
            assert!(i.get("stays").is_none(), "{config:?}: {i}");
        }
        let out = p.run(&["clean", "--yes"], b"", &[]);
        assert_eq!(out.code, 0, "{out:?}");
        assert!(!p.root.join(audit).exists(), "{config:?}: {}", all(&out));
        assert!(!p.root.join(handoff).exists(), "{config:?}: {}", all(&out));
    }
}

/// The listing's format, with what stays under the folder it stays in.
#[test]
fn clean_listing_names_what_stays_under_its_folder() {
    let p = Project::new();
    p.write(
        ".boo/.gitignore",
        "# Written by baton: this folder is private.\n*\n",
    );
    p.write(".boo/index.json", "{}\n");
    p.write(".boo/runs/adhoc_20261130_1015/session.json", "{}\n");
    p.write(".boo/runs/adhoc_20261130_1015/todo.md", "mine\n");
    p.write(".boo/notes.txt", "mine\n");
    p.write("datarim/sessions/SESSION-20261130-101500.session.md", "x\n");
    let root = p.root.to_str().unwrap().to_string();
    let listed = p.run(&["clean"], b"", &[]);
    let removed = p.run(&["clean", "--yes"], b"", &[]);
    let after = p.run(&["clean"], b"", &[]);
    insta::assert_snapshot!(
        "clean_listing_with_what_stays",
        format!(
            "$ baton clean\n{}\n$ baton clean --yes\n{}\n$ baton clean\n{}",
            listed.stdout, removed.stdout, after.stdout
        )
        .replace(&root, "<root>")
    );
}
