//! The record of one tool call (PostToolUse, PostToolUseFailure): the hot path, one record
//! built and appended per call. Everything taken from the event passes the redactor. A Bash
//! call's command is kept as it ran (display code clips it: `Record::input_line`); another
//! tool's input is summarised (file path, pattern), never copied whole. Which files a Bash
//! call changed comes from the shell lexer capture reads commands with (`core::shell`).

use super::record::{Kind, Outcome, Record};
use crate::core::event::{Common, ToolCall};
use crate::core::hash::fnv1a_parts;
use crate::core::project::Project;
use crate::core::shell;
use crate::core::text::{clip, one_line};
use crate::core::time;
use serde_json::Value;
use std::path::Path;

/// Longest failure text, in characters.
const SUMMARY_CHARS: usize = 200;

/// Tools whose calls change files.
const EDIT_TOOLS: [&str; 4] = ["Edit", "Write", "MultiEdit", "NotebookEdit"];

/// The record of one tool call. `failed` for PostToolUseFailure.
pub(crate) fn record(call: &ToolCall, failed: bool, common: &Common, project: &Project) -> Record {
    let redactor = project.redactor();
    let now = project.now();
    let (summary, file) = summarise(&call.tool_name, &call.tool_input, &project.root);
    let (is_change, bash_paths) = if call.tool_name == "Bash" {
        let e = shell::effects(text_of(&call.tool_input, "command").unwrap_or(""));
        (e.changes, e.writes)
    } else {
        (EDIT_TOOLS.contains(&call.tool_name.as_str()), Vec::new())
    };
    // Redact the whole text, never a piece: a cut could split a secret into a fragment the
    // redactor no longer recognises.
    let input = redactor.redact(&summary);
    let mut redactions = input.count;
    let paths: Vec<String> = match file {
        _ if !is_change => Vec::new(),
        Some(f) => vec![f],
        None => bash_paths,
    };
    let paths: Vec<String> = paths
        .iter()
        .map(|p| {
            let p = redactor.redact(p);
            redactions += p.count;
            p.text
        })
        .collect();
    let error = call.error.as_ref().map(|e| {
        let e = redactor.redact(e);
        redactions += e.count;
        clip(&one_line(&e.text), SUMMARY_CHARS)
    });
    let failed = failed || call.error.is_some() || call.is_interrupt;
    let tool_use_id = call.tool_use_id.as_deref().unwrap_or("");
    Record {
        agent: common.agent_type.clone(),
        claude_session: Some(common.session_id.clone()),
        duration_ms: call.duration_ms,
        error,
        exit_code: exit_code(call).or((call.tool_name == "Bash" && !failed).then_some(0)),
        id: Some(id(call, &common.session_id, &time::rfc3339_millis(now))),
        input: Some(input.text),
        outcome: Some(if failed { Outcome::Error } else { Outcome::Ok }),
        path: paths.first().cloned(),
        paths: (paths.len() > 1).then_some(paths),
        redactions: redactions as u64,
        tool: Some(call.tool_name.clone()),
        tool_use_id: (!tool_use_id.is_empty()).then(|| tool_use_id.to_string()),
        ts: Some(now),
        kind: if is_change { Kind::Change } else { Kind::Data },
        ..Record::default()
    }
}

/// `t-` and a hash of the call: the same for the same call wherever it is computed (so a line
/// copied twice collapses on read). Without a `tool_use_id`, the process id keeps two calls
/// of one tool in the same millisecond apart.
fn id(call: &ToolCall, claude_session: &str, ts: &str) -> String {
    let tool_use_id = call.tool_use_id.as_deref().unwrap_or("");
    let pid = std::process::id().to_string();
    let key = if tool_use_id.is_empty() {
        pid.as_str()
    } else {
        ""
    };
    format!(
        "t-{:016x}",
        fnv1a_parts(&[claude_session, tool_use_id, ts, &call.tool_name, key])
    )
}

/// A path relative to `root` when inside it.
fn rel(path: &str, root: &Path) -> String {
    Path::new(path)
        .strip_prefix(root)
        .map_or_else(|_| path.to_string(), |p| p.to_string_lossy().into_owned())
}

/// A string field of a tool's input.
fn text_of<'a>(input: &'a Value, key: &str) -> Option<&'a str> {
    input.get(key).and_then(Value::as_str)
}

/// The short summary of a tool's input and, for file tools, the file.
fn summarise(tool: &str, input: &Value, root: &Path) -> (String, Option<String>) {
    let file = text_of(input, "file_path")
        .or_else(|| text_of(input, "notebook_path"))
        .map(|p| rel(p, root));
    let field = |key: &str| text_of(input, key).unwrap_or("").to_string();
    let summary = match tool {
        "Bash" => field("command"),
        "Grep" => {
            let mut t = field("pattern");
            if let Some(p) = text_of(input, "path").or_else(|| text_of(input, "glob")) {
                t.push_str(&format!(" in {}", rel(p, root)));
            }
            t
        }
        "Glob" => field("pattern"),
        "WebFetch" => field("url"),
        "WebSearch" => field("query"),
        "Task" | "Agent" => field("description"),
        "TodoWrite" => format!(
            "{} todos",
            input
                .get("todos")
                .and_then(Value::as_array)
                .map_or(0, Vec::len)
        ),
        _ => match (&file, input) {
            (Some(f), _) => f.clone(),
            (None, Value::Object(m)) => {
                let keys: Vec<&str> = m.keys().map(String::as_str).collect();
                format!("({})", keys.join(", "))
            }
            (None, _) => String::new(),
        },
    };
    (summary, file)
}

/// The exit code in a response field, or in a failure text like `Exit code 2`.
fn exit_code(call: &ToolCall) -> Option<i64> {
    if let Some(resp) = &call.tool_response {
        for key in ["exit_code", "exitCode", "returnCode", "code"] {
            if let Some(c) = resp.get(key).and_then(Value::as_i64) {
                return Some(c);
            }
        }
    }
    let err = call.error.as_deref()?;
    let at = err.find("xit code")?;
    err[at + 8..]
        .trim_start()
        .split(|c: char| !c.is_ascii_digit() && c != '-')
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    fn call(tool: &str, input: Value) -> ToolCall {
        ToolCall {
            tool_name: tool.into(),
            tool_input: input,
            tool_use_id: Some("toolu_1".into()),
            duration_ms: Some(12),
            ..ToolCall::default()
        }
    }

    fn project(at: &str) -> Project {
        Project::for_test("/p", Some(at))
    }

    fn common(agent: Option<&str>) -> Common {
        Common {
            session_id: "cs".into(),
            agent_type: agent.map(str::to_string),
            ..Common::default()
        }
    }

    /// A record as JSON, the way tests elsewhere and users read it.
    fn json_of(r: &Record) -> Value {
        serde_json::to_value(r).unwrap()
    }

    #[test]
    fn edit_is_a_change_with_a_relative_path_and_no_contents() {
        let c = call(
            "Write",
            json!({"file_path": "/p/src/a.rs", "content": "SECRET BODY"}),
        );
        let r = json_of(&record(
            &c,
            false,
            &common(None),
            &project("2026-11-30T10:15:00Z"),
        ));
        assert_eq!(r["type"], "change");
        assert_eq!(r["path"], "src/a.rs");
        assert_eq!(r["input"], "src/a.rs");
        assert!(!r.to_string().contains("SECRET BODY"));
        assert_eq!(r["outcome"], "ok");
        assert_eq!(r["duration_ms"], 12);
    }

    #[test]
    fn failure_gets_exit_code_and_the_long_command_is_kept_redacted() {
        let mut c = call(
            "Bash",
            json!({"command": format!("curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789' {}", "x".repeat(400))}),
        );
        c.error = Some("Exit code 7\ncurl failed".into());
        let r = record(
            &c,
            true,
            &common(Some("Explore")),
            &project("2026-11-30T10:15:00Z"),
        );
        assert_eq!((r.outcome, r.exit_code), (Some(Outcome::Error), Some(7)));
        let input = r.input();
        assert!(input.ends_with(&"x".repeat(400)), "{input}");
        assert!(!input.contains("abcdefghijklmnop"), "{input}");
        assert!(r.redactions >= 1);
        assert!(r.input_line().chars().count() <= 200);
    }

    #[test]
    fn a_secret_straddling_the_cut_is_redacted_whole() {
        let token = "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        let mut c = call(
            "Bash",
            json!({"command": format!("echo {} {token}", "x".repeat(172))}),
        );
        c.error = Some(format!("Exit code 1 {} {token} more", "y".repeat(180)));
        let r = json_of(&record(
            &c,
            true,
            &common(None),
            &project("2026-11-30T10:15:00Z"),
        ));
        let input = r["input"].as_str().unwrap();
        assert!(!input.contains("ghp_"), "{input}");
        assert!(input.ends_with("[REDACTED]"), "{input}");
        let error = r["error"].as_str().unwrap();
        assert!(!error.contains("ghp_"), "{error}");
        assert!(error.chars().count() <= 200, "{error}");
        assert_eq!(r["redactions"], 2);
    }

    /// The summary's clip (core::text) on the values the audit's own copy was tested with.
    #[test]
    fn a_cut_never_splits_a_redaction_mark() {
        let cut = |text: &str, max| clip(&one_line(text), max);
        let text = format!("{}[REDACTED] tail", "a".repeat(195));
        assert_eq!(cut(&text, 200), format!("{}…", "a".repeat(195)));
        let text = format!("{}[REDACTED] tail", "a".repeat(189));
        assert_eq!(cut(&text, 200), format!("{}[REDACTED]…", "a".repeat(189)));
        assert_eq!(cut("é short", 200), "é short");
        assert_eq!(cut(&"é".repeat(10), 5), format!("{}…", "é".repeat(4)));
    }

    /// The bytes the untyped builder wrote (before the record had a type), ids included: the
    /// lines on disk, and the ids that collapse copies, stay as they were. A Bash call's input
    /// is the command as it ran (issue 35), line break included.
    #[test]
    fn issue_9_lines_are_the_bytes_the_untyped_builder_wrote() {
        let p = project("2026-11-30T10:15:00.123456Z");
        let write = call("Write", json!({"file_path": "/p/src/a.rs", "content": "x"}));
        assert_eq!(
            serde_json::to_string(&record(&write, false, &common(None), &p)).unwrap(),
            r#"{"claude_session":"cs","duration_ms":12,"id":"t-4d40c55965d88c61","input":"src/a.rs","outcome":"ok","path":"src/a.rs","tool":"Write","tool_use_id":"toolu_1","ts":"2026-11-30T10:15:00.123Z","type":"change"}"#
        );
        let bash = ToolCall {
            tool_name: "Bash".into(),
            tool_input: json!({"command": "echo ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 > out.txt\nls"}),
            tool_use_id: Some("toolu_2".into()),
            error: Some("Exit code 3\nboom".into()),
            ..ToolCall::default()
        };
        assert_eq!(
            serde_json::to_string(&record(&bash, true, &common(Some("Explore")), &p)).unwrap(),
            r#"{"agent":"Explore","claude_session":"cs","error":"Exit code 3 boom","exit_code":3,"id":"t-3e317bd8d5c39259","input":"echo [REDACTED] > out.txt\nls","outcome":"error","path":"out.txt","redactions":1,"tool":"Bash","tool_use_id":"toolu_2","ts":"2026-11-30T10:15:00.123Z","type":"change"}"#
        );
        let ls = ToolCall {
            tool_name: "Bash".into(),
            tool_input: json!({"command": "ls"}),
            tool_use_id: Some("toolu_3".into()),
            ..ToolCall::default()
        };
        let no_session = Common::default();
        assert_eq!(
            serde_json::to_string(&record(&ls, false, &no_session, &p)).unwrap(),
            r#"{"claude_session":"","exit_code":0,"id":"t-62449b1a6445d570","input":"ls","outcome":"ok","tool":"Bash","tool_use_id":"toolu_3","ts":"2026-11-30T10:15:00.123Z","type":"data"}"#
        );
    }

    /// The record of an event read through `event_read` (a response's strings cut) is byte for
    /// byte the record of the event read whole: the fixtures, a 10 MB response, an exit code
    /// after a huge string, a response that is one string.
    #[test]
    fn a_record_is_the_same_when_the_response_is_read_short() {
        use crate::core::event::{self, EventKind};
        let big = "line \"quoted\" \u{e9}\n".repeat(600_000);
        let mut texts: Vec<Vec<u8>> = vec![
            include_bytes!("../../tests/fixtures/hooks/PostToolUse.json").to_vec(),
            include_bytes!("../../tests/fixtures/hooks/PostToolUseFailure.json").to_vec(),
        ];
        for response in [
            json!({"stdout": big, "exit_code": 4}),
            json!({"stdout": big, "stderr": big, "returnCode": 5, "nested": [{"exitCode": 1}]}),
            json!(big),
        ] {
            let e = json!({"session_id": "s", "hook_event_name": "PostToolUse",
                "tool_name": "Bash", "tool_input": {"command": "make > out.log"},
                "tool_response": response, "tool_use_id": "toolu_7", "duration_ms": 9});
            texts.push(serde_json::to_vec(&e).unwrap());
        }
        let p = project("2026-11-30T10:15:00Z");
        let record_of = |bytes: &[u8]| {
            let e = event::parse(bytes, None).unwrap();
            let (EventKind::PostToolUse(c) | EventKind::PostToolUseFailure(c)) = &e.kind else {
                panic!("{:?}", e.kind);
            };
            let failed = matches!(e.kind, EventKind::PostToolUseFailure(_));
            serde_json::to_string(&record(c, failed, &e.common, &p)).unwrap()
        };
        for text in &texts {
            let short = crate::core::event_read::read(&mut text.as_slice());
            assert!(short.len() < 20_000, "{}", short.len());
            assert_eq!(record_of(text), record_of(&short));
        }
    }
}
