//! The records the hooks write: one per tool call, per prompt, per correction. Everything
//! taken from the event passes the redactor; inputs are summarised (command line, file path,
//! pattern), never copied whole.

use crate::core::event::ToolCall;
use crate::core::redact::Redactor;
use chrono::{DateTime, SecondsFormat, Utc};
use regex::Regex;
use serde_json::{json, Map, Value};
use std::path::Path;

/// Longest summary of a tool input, in characters.
const SUMMARY_CHARS: usize = 200;
/// Longest prompt text kept in a `conversation` record.
const PROMPT_CHARS: usize = 500;
/// Longest correction text kept.
const CORRECTION_CHARS: usize = 2000;

/// Tools whose calls change files.
const EDIT_TOOLS: [&str; 4] = ["Edit", "Write", "MultiEdit", "NotebookEdit"];

/// Cuts `text` to `max` characters, with an ellipsis when cut.
pub(crate) fn cut(text: &str, max: usize) -> String {
    let one_line = text.replace(['\n', '\r'], " ");
    if one_line.chars().count() <= max {
        return one_line;
    }
    let head: String = one_line.chars().take(max.saturating_sub(1)).collect();
    format!("{head}…")
}

/// Cuts already-redacted `text` to `max` characters like `cut`, but never inside a
/// `[REDACTED]` mark: a mark the cut would split is dropped whole.
pub(crate) fn cut_redacted(text: &str, max: usize) -> String {
    let one_line = text.replace(['\n', '\r'], " ");
    if one_line.chars().count() <= max {
        return one_line;
    }
    let mut at = one_line
        .char_indices()
        .nth(max.saturating_sub(1))
        .map_or(one_line.len(), |(i, _)| i);
    let mark = crate::core::redact::MARK;
    for (start, _) in one_line.match_indices(mark) {
        if start < at && at < start + mark.len() {
            at = start;
            break;
        }
    }
    format!("{}…", &one_line[..at])
}

/// The timestamp format of every record.
pub(crate) fn ts(now: DateTime<Utc>) -> String {
    now.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// A stable 64-bit FNV-1a hash, for record ids that are the same wherever they are computed.
pub(crate) fn fnv(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain(std::iter::once(0)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// A path relative to `root` when inside it.
fn rel(path: &str, root: &Path) -> String {
    Path::new(path)
        .strip_prefix(root)
        .map_or_else(|_| path.to_string(), |p| p.to_string_lossy().into_owned())
}

fn s<'a>(input: &'a Value, key: &str) -> Option<&'a str> {
    input.get(key).and_then(Value::as_str)
}

/// The short summary of a tool's input and, for file tools, the file.
fn summarise(tool: &str, input: &Value, root: &Path) -> (String, Option<String>) {
    let file = s(input, "file_path")
        .or_else(|| s(input, "notebook_path"))
        .map(|p| rel(p, root));
    let summary = match tool {
        "Bash" => s(input, "command").unwrap_or("").to_string(),
        "Grep" => {
            let mut t = s(input, "pattern").unwrap_or("").to_string();
            if let Some(p) = s(input, "path").or_else(|| s(input, "glob")) {
                t.push_str(&format!(" in {}", rel(p, root)));
            }
            t
        }
        "Glob" => s(input, "pattern").unwrap_or("").to_string(),
        "WebFetch" => s(input, "url").unwrap_or("").to_string(),
        "WebSearch" => s(input, "query").unwrap_or("").to_string(),
        "Task" | "Agent" => s(input, "description").unwrap_or("").to_string(),
        "TodoWrite" => format!(
            "{} todos",
            input
                .get("todos")
                .and_then(Value::as_array)
                .map_or(0, Vec::len)
        ),
        _ => match &file {
            Some(f) => f.clone(),
            None => match input {
                Value::Object(m) => {
                    let keys: Vec<&str> = m.keys().map(String::as_str).collect();
                    format!("({})", keys.join(", "))
                }
                _ => String::new(),
            },
        },
    };
    (summary, file)
}

/// The exit code in a failure text like `Exit code 2`, or a response field.
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

/// The record of one tool call. `failed` for PostToolUseFailure.
pub(crate) fn tool_record(
    call: &ToolCall,
    failed: bool,
    claude_session: &str,
    agent: Option<&str>,
    now: DateTime<Utc>,
    root: &Path,
    redactor: &Redactor,
) -> Value {
    let (summary, file) = summarise(&call.tool_name, &call.tool_input, root);
    let (is_change, bash_path) = if call.tool_name == "Bash" {
        super::bash::bash_change(s(&call.tool_input, "command").unwrap_or(""))
    } else {
        (EDIT_TOOLS.contains(&call.tool_name.as_str()), None)
    };
    // Redact the whole text, then cut: a cut first could split a secret into a fragment
    // the redactor no longer recognises.
    let clean = redactor.redact(&summary);
    let mut redactions = clean.count;
    let input = cut_redacted(&clean.text, SUMMARY_CHARS);
    let ts = ts(now);
    let tool_use_id = call.tool_use_id.clone().unwrap_or_default();
    let pid = std::process::id().to_string();
    let key = if tool_use_id.is_empty() {
        pid.as_str()
    } else {
        ""
    };
    let id = format!(
        "t-{:016x}",
        fnv(&[claude_session, &tool_use_id, &ts, &call.tool_name, key])
    );
    let mut m = Map::new();
    m.insert("id".into(), json!(id));
    m.insert("ts".into(), json!(ts));
    m.insert(
        "type".into(),
        json!(if is_change { "change" } else { "data" }),
    );
    m.insert("tool".into(), json!(call.tool_name));
    m.insert("input".into(), json!(input));
    if is_change {
        if let Some(p) = file.or(bash_path) {
            let p = redactor.redact(&p);
            redactions += p.count;
            m.insert("path".into(), json!(p.text));
        }
    }
    let failed = failed || call.error.is_some() || call.is_interrupt;
    m.insert("outcome".into(), json!(if failed { "error" } else { "ok" }));
    match exit_code(call) {
        Some(c) => {
            m.insert("exit_code".into(), json!(c));
        }
        None if call.tool_name == "Bash" && !failed => {
            m.insert("exit_code".into(), json!(0));
        }
        None => {}
    }
    if let Some(err) = &call.error {
        let e = redactor.redact(err);
        redactions += e.count;
        m.insert("error".into(), json!(cut_redacted(&e.text, SUMMARY_CHARS)));
    }
    if let Some(d) = call.duration_ms {
        m.insert("duration_ms".into(), json!(d));
    }
    m.insert("claude_session".into(), json!(claude_session));
    if let Some(agent) = agent {
        m.insert("agent".into(), json!(agent));
    }
    if !tool_use_id.is_empty() {
        m.insert("tool_use_id".into(), json!(tool_use_id));
    }
    if redactions > 0 {
        m.insert("redactions".into(), json!(redactions));
    }
    Value::Object(m)
}

/// The records of one prompt: a `conversation` record and, when the prompt corrects the
/// agent, a `user_correction` record.
pub(crate) fn prompt_records(
    prompt: &str,
    patterns: &[Regex],
    claude_session: &str,
    now: DateTime<Utc>,
    redactor: &Redactor,
) -> Vec<Value> {
    let ts = ts(now);
    let clean = redactor.redact(prompt);
    let base = fnv(&[claude_session, &ts, prompt]);
    let mut conv = json!({
        "id": format!("p-{base:016x}"),
        "ts": ts,
        "type": "conversation",
        "role": "user",
        "text": cut_redacted(&clean.text, PROMPT_CHARS),
        "claude_session": claude_session,
    });
    if clean.count > 0 {
        conv["redactions"] = json!(clean.count);
    }
    let mut out = vec![conv];
    if let Some(pattern) = correction_match(prompt, patterns) {
        out.push(json!({
            "id": format!("c-{:08x}", base >> 32),
            "ts": ts,
            "type": "user_correction",
            "text": cut_redacted(&clean.text, CORRECTION_CHARS),
            "pattern": pattern,
            "persisted_to": [],
            "claude_session": claude_session,
        }));
    }
    out
}

/// The first correction pattern `prompt` matches.
pub(crate) fn correction_match(prompt: &str, patterns: &[Regex]) -> Option<String> {
    let text = prompt.trim();
    patterns
        .iter()
        .find(|re| re.is_match(text))
        .map(|re| re.as_str().to_string())
}

/// Compiles the correction patterns case-insensitively (invalid ones are skipped; config
/// validation names them). ASCII classes where the pattern allows it: Unicode-aware `\b` and
/// case folding cost milliseconds to compile, and this runs on every prompt.
pub(crate) fn compile_patterns(patterns: &[String]) -> Vec<Regex> {
    patterns
        .iter()
        .filter_map(|p| {
            regex::RegexBuilder::new(p)
                .case_insensitive(true)
                .unicode(false)
                .build()
                .or_else(|_| regex::RegexBuilder::new(p).case_insensitive(true).build())
                .ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::config::Config;

    fn call(tool: &str, input: Value) -> ToolCall {
        ToolCall {
            tool_name: tool.into(),
            tool_input: input,
            tool_use_id: Some("toolu_1".into()),
            duration_ms: Some(12),
            ..ToolCall::default()
        }
    }

    fn now() -> DateTime<Utc> {
        "2026-11-30T10:15:00Z".parse().unwrap()
    }

    #[test]
    fn edit_is_a_change_with_a_relative_path_and_no_contents() {
        let c = call(
            "Write",
            json!({"file_path": "/p/src/a.rs", "content": "SECRET BODY"}),
        );
        let r = tool_record(
            &c,
            false,
            "cs",
            None,
            now(),
            Path::new("/p"),
            &Redactor::builtin(),
        );
        assert_eq!(r["type"], "change");
        assert_eq!(r["path"], "src/a.rs");
        assert_eq!(r["input"], "src/a.rs");
        assert!(!r.to_string().contains("SECRET BODY"));
        assert_eq!(r["outcome"], "ok");
        assert_eq!(r["duration_ms"], 12);
    }

    #[test]
    fn failure_gets_exit_code_and_redacted_long_command_is_cut() {
        let mut c = call(
            "Bash",
            json!({"command": format!("curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789' {}", "x".repeat(400))}),
        );
        c.error = Some("Exit code 7\ncurl failed".into());
        let r = tool_record(
            &c,
            true,
            "cs",
            Some("Explore"),
            now(),
            Path::new("/p"),
            &Redactor::builtin(),
        );
        assert_eq!(r["outcome"], "error");
        assert_eq!(r["exit_code"], 7);
        let input = r["input"].as_str().unwrap();
        assert!(input.chars().count() <= 200, "{}", input.len());
        assert!(!input.contains("abcdefghijklmnop"), "{input}");
        assert!(r["redactions"].as_u64().unwrap() >= 1);
    }

    #[test]
    fn a_secret_straddling_the_cut_is_redacted_whole() {
        let token = "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        let mut c = call(
            "Bash",
            json!({"command": format!("echo {} {token}", "x".repeat(172))}),
        );
        c.error = Some(format!("Exit code 1 {} {token} more", "y".repeat(180)));
        let r = tool_record(
            &c,
            true,
            "cs",
            None,
            now(),
            Path::new("/p"),
            &Redactor::builtin(),
        );
        let input = r["input"].as_str().unwrap();
        assert!(!input.contains("ghp_"), "{input}");
        assert!(input.ends_with("[REDACTED]"), "{input}");
        let error = r["error"].as_str().unwrap();
        assert!(!error.contains("ghp_"), "{error}");
        assert!(error.chars().count() <= 200, "{error}");
        assert_eq!(r["redactions"], 2);
    }

    #[test]
    fn a_cut_never_splits_a_redaction_mark() {
        let text = format!("{}[REDACTED] tail", "a".repeat(195));
        assert_eq!(cut_redacted(&text, 200), format!("{}…", "a".repeat(195)));
        let text = format!("{}[REDACTED] tail", "a".repeat(189));
        assert_eq!(
            cut_redacted(&text, 200),
            format!("{}[REDACTED]…", "a".repeat(189))
        );
        assert_eq!(cut_redacted("é short", 200), "é short");
        assert_eq!(
            cut_redacted(&"é".repeat(10), 5),
            format!("{}…", "é".repeat(4))
        );
    }

    #[test]
    fn default_patterns_find_corrections_and_leave_plain_prompts() {
        let pats = compile_patterns(&Config::default().audit.correction_patterns);
        for p in [
            "No, use the other file",
            "don't touch main.rs",
            "Stop running the tests",
            "actually, make it 3",
            "that's wrong",
            "I said port 8080",
            "instead use serde",
            "revert that change",
            "This is not what I asked for",
        ] {
            assert!(correction_match(p, &pats).is_some(), "{p}");
        }
        for p in [
            "please run a command",
            "no problem, go ahead",
            "notice the bug",
            "add a stop button",
        ] {
            assert!(correction_match(p, &pats).is_none(), "{p}");
        }
        let recs = prompt_records("No, use tabs", &pats, "cs", now(), &Redactor::builtin());
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[1]["type"], "user_correction");
        assert_eq!(recs[1]["persisted_to"], json!([]));
        assert!(recs[1]["id"].as_str().unwrap().starts_with("c-"));
    }
}
