//! baton's own prompts and tool calls, told apart when no audit session is current: they do
//! not start an automatic one. Claude Code runs a command's shell snippet before it reports
//! the prompt (`/baton:end` ends the session, then UserPromptSubmit brings "/baton:end"), and
//! the Bash call that ran `baton audit end` is reported after it ran; either would otherwise
//! leave a new `(auto)` session holding nothing but itself. They join the session `end` just
//! ended instead. Other baton commands (a report, a status, a recall) start nothing either.
//!
//! Only asked when no session is current, so the hot path pays nothing for it.

use crate::core::event::ToolCall;
use crate::core::shell;

/// The plugin's slash commands (`commands/<name>.md`, called `/baton:<name>`; a test checks
/// the list against the folder).
pub(crate) const COMMANDS: [&str; 10] = [
    "checkpoint",
    "dr-continue",
    "dr-save",
    "end",
    "recall",
    "recover",
    "report-daily",
    "session-relay",
    "start",
    "status",
];

/// Commands that begin work: their prompt starts an automatic session as any prompt does
/// (`/baton:start` then names it; a relay loop is work to record).
const BEGIN_WORK: [&str; 2] = ["start", "session-relay"];

/// What a prompt or tool call does when no session is current.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Own {
    /// Not baton's own: it starts an automatic session (with `audit.auto_start`).
    No,
    /// It ran or reports `baton audit end`: it joins the session that just ended.
    Ending,
    /// Another baton command: recorded in a current session only.
    Quiet,
}

/// The baton command a prompt runs: `/baton:NAME …`, or `/NAME …` (how Claude Code also
/// lets a plugin's command be called when no other has the name).
pub(crate) fn command_of(prompt: &str) -> Option<&'static str> {
    let first = prompt.split_whitespace().next()?;
    let name = first
        .strip_prefix("/baton:")
        .or_else(|| first.strip_prefix('/'))?;
    COMMANDS.iter().copied().find(|c| *c == name)
}

/// `prompt` when no session is current.
pub(crate) fn prompt(prompt: &str) -> Own {
    match command_of(prompt) {
        Some("end") => Own::Ending,
        Some(c) if !BEGIN_WORK.contains(&c) => Own::Quiet,
        _ => Own::No,
    }
}

/// A tool call when no session is current: a Bash command that runs baton, or one of the
/// plugin's MCP tools.
pub(crate) fn tool_call(call: &ToolCall) -> Own {
    if call.tool_name.starts_with("mcp__plugin_baton_") {
        return Own::Quiet;
    }
    if call.tool_name != "Bash" {
        return Own::No;
    }
    let command = call
        .tool_input
        .get("command")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("");
    match baton_args(command) {
        None => Own::No,
        Some(args) if args.first().map(String::as_str) == Some("audit") => {
            match args.get(1).map(String::as_str) {
                Some("end") => Own::Ending,
                // `audit start` runs after its prompt started (or found) a session.
                Some("start") => Own::No,
                _ => Own::Quiet,
            }
        }
        Some(_) => Own::Quiet,
    }
}

/// The arguments of baton when a Bash command runs it (`…/bin/baton audit end` gives
/// `["audit", "end"]`): the first command that does more than `cd` runs a program named
/// `baton`. A command that only mentions baton (`echo baton`, `grep baton`) is not one.
fn baton_args(command: &str) -> Option<Vec<String>> {
    let cmds = shell::commands(command);
    let first = cmds
        .iter()
        .find(|c| c.words.first().is_some_and(|w| w != "cd"))?;
    match first.program()? {
        ("baton", args) => Some(args.to_vec()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bash(command: &str) -> ToolCall {
        ToolCall {
            tool_name: "Bash".into(),
            tool_input: serde_json::json!({ "command": command }),
            tool_response: None,
            tool_use_id: None,
            duration_ms: None,
            error: None,
            is_interrupt: false,
        }
    }

    #[test]
    fn prompts_that_run_baton_commands() {
        for (p, own) in [
            ("/baton:end", Own::Ending),
            ("  /baton:end  ", Own::Ending),
            ("/end", Own::Ending),
            ("/baton:report-daily 20261130 review", Own::Quiet),
            ("/baton:status", Own::Quiet),
            ("/baton:recall parser panic", Own::Quiet),
            ("/baton:start fix the login bug", Own::No),
            ("/baton:session-relay resume", Own::No),
            ("/baton:ending", Own::No),
            ("/endless", Own::No),
            ("please /baton:end it", Own::No),
            ("end the session", Own::No),
            ("/compact", Own::No),
            ("", Own::No),
        ] {
            assert_eq!(prompt(p), own, "{p:?}");
        }
    }

    #[test]
    fn tool_calls_that_run_baton() {
        for (cmd, own) in [
            (
                "/home/me/.claude/plugins/baton/bin/baton audit end",
                Own::Ending,
            ),
            ("'/p/bin/baton' audit end --json", Own::Ending),
            ("/p/bin/baton audit start 'fix it'", Own::No),
            ("/p/bin/baton audit report-daily", Own::Quiet),
            ("/p/bin/baton bridge save < x.yaml", Own::Quiet),
            ("cargo test", Own::No),
            ("echo baton audit end", Own::No),
        ] {
            assert_eq!(tool_call(&bash(cmd)), own, "{cmd}");
        }
        let mut mcp = bash("");
        mcp.tool_name = "mcp__plugin_baton_baton__recall".into();
        assert_eq!(tool_call(&mcp), Own::Quiet);
        let mut edit = bash("");
        edit.tool_name = "Edit".into();
        assert_eq!(tool_call(&edit), Own::No);
    }

    #[test]
    fn baton_runs_are_told_from_mentions() {
        let args = |c: &str| baton_args(c).map(|a| a.join(" "));
        for (cmd, want) in [
            ("/p/bin/baton audit end", Some("audit end")),
            (
                "\"/p q/bin/baton\" audit end --json",
                Some("audit end --json"),
            ),
            ("cd /work && baton status", Some("status")),
            (
                "BATON_NOW=x baton audit start 'a task'",
                Some("audit start a task"),
            ),
            ("baton", Some("")),
            ("echo baton audit end", None),
            ("grep -r baton src", None),
            ("ls; baton status", None),
            ("batons audit end", None),
            ("", None),
        ] {
            assert_eq!(args(cmd).as_deref(), want, "{cmd}");
        }
    }

    /// The list is the plugin's: every `commands/*.md`, nothing else.
    #[test]
    fn the_command_list_is_the_plugins() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("commands");
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| {
                let name = e.unwrap().file_name().into_string().unwrap();
                name.strip_suffix(".md").map(str::to_string)
            })
            .collect();
        names.sort();
        assert_eq!(names, COMMANDS);
    }
}
