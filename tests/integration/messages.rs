//! Every message a user sees is true, short and says what to do, and none names another
//! product's commands as forbidden (issue 39). One test reads every string the binary and the
//! plugin can print or show the model (the literals of `src/` outside its tests, the launcher
//! and bootstrap scripts, hooks.json, the commands and skills) for the messages the issue
//! quoted; the others run each of those messages' situations through the binary.

use crate::harness::Project;
use std::path::{Path, PathBuf};

const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// The string literals of a Rust source text, outside its `#[cfg(test)]` part, with line
/// continuations (`\` at a line's end) joined as the compiler joins them.
fn literals(src: &str) -> Vec<String> {
    let src = src.split("#[cfg(test)]").next().unwrap_or("");
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'\'' => {
                // A char literal ('"', '\'', '\u{..}'), else a lifetime.
                if b.get(i + 1) == Some(&b'\\') {
                    i += 2;
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                } else if b.get(i + 2) == Some(&b'\'') {
                    i += 2;
                }
                i += 1;
            }
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|c| **c == b'#').count();
                let open = i + 1 + hashes;
                if b.get(open) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                let rest = &src[open + 1..];
                let end = rest.find(&close).unwrap_or(rest.len());
                out.push(rest[..end].to_string());
                i = open + 1 + end + close.len();
            }
            b'"' => {
                let start = i + 1;
                i = start;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                out.push(unescape(&src[start..i.min(b.len())]));
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// `\n` and `\"` as they print; a `\` that ends a line joins it to the next one's text.
fn unescape(raw: &str) -> String {
    let mut out = String::new();
    let mut lines = raw.split('\n').peekable();
    while let Some(line) = lines.next() {
        match line.strip_suffix('\\') {
            Some(joined) if lines.peek().is_some() => {
                out.push_str(joined);
                if let Some(next) = lines.peek_mut() {
                    *next = next.trim_start();
                }
            }
            _ => {
                out.push_str(line);
                if lines.peek().is_some() {
                    out.push('\n');
                }
            }
        }
    }
    out.replace("\\n", "\n").replace("\\\"", "\"")
}

/// Every string the binary and the plugin can show: `(where, text)`.
fn every_message() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(Path::new(REPO).join("src")) {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy();
        if !name.ends_with(".rs") || name == "tests.rs" || name == "testkit.rs" {
            continue;
        }
        let text = std::fs::read_to_string(e.path()).unwrap();
        let shown = e.path().strip_prefix(REPO).unwrap().display().to_string();
        out.extend(literals(&text).into_iter().map(|l| (shown.clone(), l)));
    }
    let mut files: Vec<PathBuf> = [
        "plugin/bin/baton",
        "plugin/install/bootstrap.sh",
        "hooks/hooks.json",
    ]
    .iter()
    .map(|f| Path::new(REPO).join(f))
    .collect();
    for dir in ["commands", "skills"] {
        for e in walkdir::WalkDir::new(Path::new(REPO).join(dir)) {
            let e = e.unwrap();
            if e.path().extension().is_some_and(|x| x == "md") {
                files.push(e.path().to_path_buf());
            }
        }
    }
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        out.push((f.strip_prefix(REPO).unwrap().display().to_string(), text));
    }
    out
}

#[test]
fn the_literal_reader_reads_what_rust_prints() {
    let src = "let a = '\"'; f(\"one \\\"two\\\"\\n\\\n    three\"); g(r#\"raw \"x\"\"#); // \"not this\"\n#[cfg(test)]\nh(\"test only\");";
    assert_eq!(literals(src), ["one \"two\"\nthree", "raw \"x\""]);
}

/// The messages issue 39 quoted, as patterns: none of them may be printable.
#[test]
fn issue_39_no_message_says_what_the_issue_quoted() {
    let messages = every_message();
    assert!(
        messages.len() > 2_000,
        "only {} strings read",
        messages.len()
    );
    let bad = regex::RegexBuilder::new(
        r"(do not|don't|never)\b[^\n]{0,30}(claude --continue|codex|cursor)|codex resume|cursor chat history|only safe resume path|nothing checkable|and read from|state lives in plain files in your repository",
    )
    .case_insensitive(true)
    .build()
    .unwrap();
    let found: Vec<String> = messages
        .iter()
        .filter_map(|(at, text)| bad.find(text).map(|m| format!("{at}: {:?}", m.as_str())))
        .collect();
    assert!(found.is_empty(), "{found:#?}");
}

fn save(p: &Project, body: &str) -> String {
    let out = crate::handoff::save_as(p, ID, "Ship the parser", body, &[]);
    assert_eq!(out.code, 0, "{out:?}");
    out.stdout
}

const ID: &str = "SESSION-20261130-101500";

/// `handoff continue` with two existing paths in Layer 3 said "nothing checkable: … no paths
/// in Layer 3", then "Every check passed".
#[test]
fn issue_39_handoff_continue_says_what_it_checked() {
    let p = Project::new();
    p.write("src/parser.rs", "fn parse() {}\n");
    let block = save(
        &p,
        "## Layer 1 — Git State\nclean\n\n## Layer 3 — Related Files\n- src/parser.rs — edited\n- README.md — read\n\n## Layer 5 — Failed Approaches\nNone.\n",
    );
    // The resume block says how to resume, and names no other product.
    assert!(
        block.contains("Resume it in a fresh session with the line above"),
        "{block}"
    );
    let out = p.run(&["handoff", "continue", ID], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    let s = out.stdout;
    assert!(
        s.contains("- OK: 2 path(s) that Layer 3 names exist\n"),
        "{s}"
    );
    assert!(!s.contains("nothing to check"), "{s}");
    assert!(s.contains("Every check passed"), "{s}");

    // With nothing to check, it says so, and not that every check passed.
    let q = Project::new();
    let _ = crate::handoff::save_as(
        &q,
        ID,
        "Ship the parser",
        "## Layer 1 — Git State\nclean\n\n## Layer 5 — Failed Approaches\nNone.\n",
        &[],
    );
    let s = q.run(&["handoff", "continue", ID], b"", &[]).stdout;
    assert!(s.contains("- nothing to check: "), "{s}");
    assert!(
        s.contains("Nothing was checked: compare the saved state"),
        "{s}"
    );
    assert!(!s.contains("Every check passed"), "{s}");
}

/// `baton --help` said state lives in the repository, leaving out the per-user state.
#[test]
fn issue_39_help_names_both_places_state_lives() {
    let p = Project::new();
    let out = p.run(&["--help"], b"", &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("In your repository: .rune/"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("per user, outside it: ~/.local/state/baton/"),
        "{}",
        out.stdout
    );
}

/// `/baton:end` said "FAIL: … changed in git without a change record" for files a Bash
/// command of the same session wrote (a test run's `__pycache__/`).
#[test]
fn issue_39_audit_end_counts_what_the_sessions_bash_commands_wrote() {
    let p = Project::new();
    let root = p.root.to_str().unwrap().to_string();
    // The real clock: the check compares the files' times with the session's.
    let env = [("CLAUDE_PROJECT_DIR", root.as_str()), ("BATON_NOW", "")];
    let start = p.run(&["audit", "start", "run the tests"], b"", &env);
    assert_eq!(start.code, 0, "{start:?}");
    // The model runs the tests: python writes its cache; the record names no file.
    let command = "python3 -m pytest -q";
    p.write("src/__pycache__/parser.cpython-312.pyc", "bytecode");
    let event = serde_json::json!({
        "session_id": "e9fc0000-0000-4000-8000-000000000001",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": root,
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_response": {"stdout": "1 passed", "stderr": ""},
        "tool_use_id": "toolu_1",
    })
    .to_string();
    let out = p.run(&["hook", "PostToolUse"], event.as_bytes(), &env);
    assert_eq!(out.code, 0, "{out:?}");
    // A file written an hour after the session's last record is not the session's.
    p.write("later.txt", "later");
    let later = std::fs::File::options()
        .write(true)
        .open(p.root.join("later.txt"))
        .unwrap();
    later
        .set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(3600))
        .unwrap();
    let end = p.run(&["audit", "end"], b"", &env);
    assert_eq!(end.code, 0, "{end:?}");
    let s = end.stdout;
    assert!(
        s.contains("- src/__pycache__/parser.cpython-312.pyc (written by a Bash command)"),
        "{s}"
    );
    assert!(
        s.contains("1 file(s) changed in git without a change record: later.txt"),
        "{s}"
    );
    assert!(!s.contains("without a change record: src/"), "{s}");
}
