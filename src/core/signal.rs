//! Signals: the events the session-bridge spec emits for other tools (`invariants.loaded`
//! when load reads INVARIANTS.md, `oracle.failed` when a detach record times out), each as
//! one JSON line: `{"signal":"<name>","payload":{…}}`. A command prints that line on stdout
//! after its own output; a hook, whose stdout belongs to Claude Code's protocol, appends it
//! to the project's hook log instead, with the time, the event and the session:
//! `hook-log.jsonl` in the project's private folder that hooks and commands both reach
//! (`paths::project_state_dir`: `$XDG_STATE_HOME/baton/projects/<project key>/`).
//! Every string in a payload passes the redactor first. The log stays under 1 MiB: past
//! that it moves to `hook-log.1.jsonl` (the one before is dropped), so it never grows with
//! history.

use super::error::{Error, Result};
use super::project::Project;
use super::redact::Redactor;
use super::{fsx, io, paths, time};
use serde::Serialize;
use serde_json::Value;
use std::path::PathBuf;

/// The hook log's file name in the project's private folder.
pub const HOOK_LOG: &str = "hook-log.jsonl";
/// Where a full hook log is moved.
const HOOK_LOG_PREVIOUS: &str = "hook-log.1.jsonl";
/// Past this size a private log (the hook log) is moved aside.
const HOOK_LOG_MAX: u64 = 1024 * 1024;

/// One signal: its name and payload.
#[derive(Debug, Clone, PartialEq)]
pub struct Signal {
    pub name: &'static str,
    pub payload: Value,
}

#[derive(Serialize)]
struct Line<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    ts: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    event: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<&'a str>,
    signal: &'a str,
    payload: &'a Value,
}

impl Signal {
    /// A signal whose payload is `payload` serialised, every string redacted by `red`.
    pub fn new(name: &'static str, payload: &impl Serialize, red: &Redactor) -> Result<Signal> {
        let mut payload = serde_json::to_value(payload)
            .map_err(|e| Error::Internal(format!("serialize the {name} payload: {e}")))?;
        redact_strings(&mut payload, red);
        Ok(Signal { name, payload })
    }

    /// The signal as a command prints it: one JSON line.
    pub fn line(&self) -> String {
        self.render(None, None, None)
    }

    /// Prints the line on stdout.
    pub fn print(&self) {
        io::write_stdout(format_args!("{}\n", self.line()));
    }

    fn render(&self, ts: Option<String>, event: Option<&str>, session: Option<&str>) -> String {
        let line = Line {
            ts,
            event,
            session: session.filter(|s| !s.is_empty()),
            signal: self.name,
            payload: &self.payload,
        };
        serde_json::to_string(&line).unwrap_or_default()
    }

    /// Appends the signal to the project's hook log (a hook's way to emit it), with the
    /// time, the hook event and the session id.
    pub fn log(&self, project: &Project, event: &str, session: &str) -> Result<()> {
        let ts = time::rfc3339(project.now());
        let line = self.render(Some(ts), Some(event), Some(session));
        append_private_log(project, HOOK_LOG, HOOK_LOG_PREVIOUS, &line)
    }
}

/// Appends `line` to the file `name` in the project's private folder
/// (`paths::project_state_dir`; 0600, its folders 0700), as one locked write. Past 1 MiB the
/// file is first moved to `previous` (the one before is dropped), so it never grows with
/// history. Nothing is written without a home folder.
pub fn append_private_log(project: &Project, name: &str, previous: &str, line: &str) -> Result<()> {
    let Some(dir) = paths::project_state_dir(&project.ctx.env, &project.root) else {
        return Ok(());
    };
    if let Some(base) = paths::private_base(&project.ctx.env) {
        fsx::ensure_private_tree(&base, &dir)?;
    }
    let path = dir.join(name);
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.len() > HOOK_LOG_MAX) {
        let to = dir.join(previous);
        std::fs::rename(&path, &to).map_err(|e| Error::io("rename", &path, e))?;
    }
    fsx::append_line(&path, line, fsx::PRIVATE_FILE)
}

/// The project's hook log; `None` without a home folder.
pub fn hook_log(project: &Project) -> Option<PathBuf> {
    paths::project_state_dir(&project.ctx.env, &project.root).map(|d| d.join(HOOK_LOG))
}

fn redact_strings(v: &mut Value, red: &Redactor) {
    match v {
        Value::String(s) => *s = red.redact(s).text,
        Value::Array(items) => items.iter_mut().for_each(|i| redact_strings(i, red)),
        Value::Object(map) => map.values_mut().for_each(|i| redact_strings(i, red)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signal_is_one_json_line_with_its_strings_redacted() {
        let red = Redactor::builtin();
        let s = Signal::new(
            "oracle.failed",
            &serde_json::json!({"sessionId": "oracle-1-a", "note": "key AKIA1234567890ABCDEF", "n": 3}),
            &red,
        )
        .unwrap();
        let line = s.line();
        assert!(!line.contains('\n'));
        assert!(
            line.starts_with(r#"{"signal":"oracle.failed","payload":{"#),
            "{line}"
        );
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["payload"]["sessionId"], "oracle-1-a");
        assert_eq!(v["payload"]["n"], 3);
        assert!(!line.contains("AKIA1234567890ABCDEF"), "{line}");
    }
}
