//! Hook input: the event JSON Claude Code writes on stdin, read into typed events.
//!
//! Parsing is lenient on purpose. Unknown events and unknown fields are accepted (Claude Code
//! adds fields often); a known field of an unexpected type is treated as absent. Only input
//! that is not a JSON object at all is an error.

use super::error::{Error, Result};
use serde_json::Value;
use std::path::PathBuf;

/// The event kinds baton knows by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventName {
    SessionStart,
    UserPromptSubmit,
    PreToolUse,
    PostToolUse,
    PostToolUseFailure,
    PreCompact,
    PostCompact,
    Stop,
    SubagentStop,
    SessionEnd,
    /// Any event baton does not handle.
    Other,
}

impl EventName {
    /// Every named event, for tests and tables.
    pub const ALL: [EventName; 10] = [
        EventName::SessionStart,
        EventName::UserPromptSubmit,
        EventName::PreToolUse,
        EventName::PostToolUse,
        EventName::PostToolUseFailure,
        EventName::PreCompact,
        EventName::PostCompact,
        EventName::Stop,
        EventName::SubagentStop,
        EventName::SessionEnd,
    ];

    /// The event named `name` (exact, case-sensitive, as Claude Code spells it).
    pub fn parse(name: &str) -> EventName {
        EventName::ALL
            .into_iter()
            .find(|e| e.as_str() == name)
            .unwrap_or(EventName::Other)
    }

    /// The name as Claude Code spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            EventName::SessionStart => "SessionStart",
            EventName::UserPromptSubmit => "UserPromptSubmit",
            EventName::PreToolUse => "PreToolUse",
            EventName::PostToolUse => "PostToolUse",
            EventName::PostToolUseFailure => "PostToolUseFailure",
            EventName::PreCompact => "PreCompact",
            EventName::PostCompact => "PostCompact",
            EventName::Stop => "Stop",
            EventName::SubagentStop => "SubagentStop",
            EventName::SessionEnd => "SessionEnd",
            EventName::Other => "Other",
        }
    }
}

/// Fields every event carries.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Common {
    /// Claude Code's session id (empty if missing).
    pub session_id: String,
    /// The session transcript.
    pub transcript_path: Option<PathBuf>,
    /// The session's working directory.
    pub cwd: Option<PathBuf>,
    /// Permission mode, on tool and turn events.
    pub permission_mode: Option<String>,
    /// Set inside a subagent.
    pub agent_id: Option<String>,
    /// Set inside a subagent.
    pub agent_type: Option<String>,
}

/// One tool call, as PreToolUse, PostToolUse and PostToolUseFailure describe it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolCall {
    pub tool_name: String,
    pub tool_input: Value,
    /// PostToolUse only.
    pub tool_response: Option<Value>,
    pub tool_use_id: Option<String>,
    pub duration_ms: Option<u64>,
    /// PostToolUseFailure only.
    pub error: Option<String>,
    pub is_interrupt: bool,
}

/// What happened, with the fields that matter for it.
#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    SessionStart {
        /// `startup`, `resume`, `clear`, `compact` (or a newer value).
        source: String,
    },
    UserPromptSubmit {
        prompt: String,
    },
    PreToolUse(ToolCall),
    PostToolUse(ToolCall),
    PostToolUseFailure(ToolCall),
    PreCompact {
        /// `manual` or `auto`.
        trigger: String,
        custom_instructions: Option<String>,
    },
    PostCompact {
        trigger: String,
        compact_summary: Option<String>,
    },
    Stop {
        stop_hook_active: bool,
        last_assistant_message: Option<String>,
        /// The prompt whose turn ended (Claude Code 2.1.197; the transcript's `promptId`).
        prompt_id: Option<String>,
    },
    SubagentStop {
        stop_hook_active: bool,
        last_assistant_message: Option<String>,
    },
    SessionEnd {
        reason: String,
    },
    /// An event baton does not handle; carries its name.
    Other(String),
}

/// One hook event.
#[derive(Debug, Clone, PartialEq)]
pub struct HookEvent {
    pub common: Common,
    pub kind: EventKind,
}

impl HookEvent {
    /// The event's name.
    pub fn name(&self) -> EventName {
        match &self.kind {
            EventKind::SessionStart { .. } => EventName::SessionStart,
            EventKind::UserPromptSubmit { .. } => EventName::UserPromptSubmit,
            EventKind::PreToolUse(_) => EventName::PreToolUse,
            EventKind::PostToolUse(_) => EventName::PostToolUse,
            EventKind::PostToolUseFailure(_) => EventName::PostToolUseFailure,
            EventKind::PreCompact { .. } => EventName::PreCompact,
            EventKind::PostCompact { .. } => EventName::PostCompact,
            EventKind::Stop { .. } => EventName::Stop,
            EventKind::SubagentStop { .. } => EventName::SubagentStop,
            EventKind::SessionEnd { .. } => EventName::SessionEnd,
            EventKind::Other(_) => EventName::Other,
        }
    }

    /// Whether this is a Stop or SubagentStop that fires again after a block: baton must not
    /// block it again.
    pub fn stop_hook_active(&self) -> bool {
        matches!(
            self.kind,
            EventKind::Stop {
                stop_hook_active: true,
                ..
            } | EventKind::SubagentStop {
                stop_hook_active: true,
                ..
            }
        )
    }
}

/// Parses the bytes Claude Code wrote on stdin. `hint` is the event name hooks.json passed on
/// the command line; it is used only when the input does not name its event.
pub fn parse(bytes: &[u8], hint: Option<EventName>) -> Result<HookEvent> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::Input("empty stdin (expected one JSON event)".into()));
    }
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| Error::Input(format!("not valid JSON ({e})")))?;
    let Value::Object(obj) = value else {
        return Err(Error::Input("expected a JSON object".into()));
    };
    let f = Fields(&obj);
    let name = match f.str("hook_event_name") {
        Some(n) => n,
        None => match hint {
            Some(h) if h != EventName::Other => h.as_str().to_string(),
            _ => return Err(Error::Input("no hook_event_name in the event".into())),
        },
    };
    let common = Common {
        session_id: f.str("session_id").unwrap_or_default(),
        transcript_path: f.str("transcript_path").map(PathBuf::from),
        cwd: f.str("cwd").map(PathBuf::from),
        permission_mode: f.str("permission_mode"),
        agent_id: f.str("agent_id"),
        agent_type: f.str("agent_type"),
    };
    let kind = match EventName::parse(&name) {
        EventName::SessionStart => EventKind::SessionStart {
            source: f.str("source").unwrap_or_else(|| "startup".into()),
        },
        EventName::UserPromptSubmit => EventKind::UserPromptSubmit {
            prompt: f.str("prompt").unwrap_or_default(),
        },
        EventName::PreToolUse => EventKind::PreToolUse(f.tool_call()),
        EventName::PostToolUse => EventKind::PostToolUse(f.tool_call()),
        EventName::PostToolUseFailure => EventKind::PostToolUseFailure(f.tool_call()),
        EventName::PreCompact => EventKind::PreCompact {
            trigger: f.str("trigger").unwrap_or_else(|| "manual".into()),
            custom_instructions: f.str("custom_instructions"),
        },
        EventName::PostCompact => EventKind::PostCompact {
            trigger: f.str("trigger").unwrap_or_else(|| "manual".into()),
            compact_summary: f.str("compact_summary"),
        },
        EventName::Stop => EventKind::Stop {
            stop_hook_active: f.bool("stop_hook_active"),
            last_assistant_message: f.str("last_assistant_message"),
            prompt_id: f.str("prompt_id"),
        },
        EventName::SubagentStop => EventKind::SubagentStop {
            stop_hook_active: f.bool("stop_hook_active"),
            last_assistant_message: f.str("last_assistant_message"),
        },
        EventName::SessionEnd => EventKind::SessionEnd {
            reason: f.str("reason").unwrap_or_else(|| "other".into()),
        },
        EventName::Other => EventKind::Other(name),
    };
    Ok(HookEvent { common, kind })
}

/// Lenient field access on the event object.
struct Fields<'a>(&'a serde_json::Map<String, Value>);

impl Fields<'_> {
    fn str(&self, key: &str) -> Option<String> {
        self.0.get(key).and_then(Value::as_str).map(str::to_string)
    }

    fn bool(&self, key: &str) -> bool {
        self.0.get(key).and_then(Value::as_bool).unwrap_or(false)
    }

    fn tool_call(&self) -> ToolCall {
        let error = match self.0.get("error") {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Null) | None => None,
            Some(other) => Some(other.to_string()),
        };
        ToolCall {
            tool_name: self.str("tool_name").unwrap_or_default(),
            tool_input: self.0.get("tool_input").cloned().unwrap_or(Value::Null),
            tool_response: self.0.get("tool_response").cloned(),
            tool_use_id: self.str("tool_use_id"),
            duration_ms: self.0.get("duration_ms").and_then(Value::as_u64),
            error,
            is_interrupt: self.bool("is_interrupt"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_event_round_trips() {
        for e in EventName::ALL {
            let json = format!(r#"{{"session_id":"s","hook_event_name":"{}"}}"#, e.as_str());
            assert_eq!(parse(json.as_bytes(), None).unwrap().name(), e);
        }
    }

    #[test]
    fn captured_post_tool_use_parses() {
        let json = r#"{"session_id":"e9fc","transcript_path":"/t.jsonl","cwd":"/home/me/proj","permission_mode":"default","effort":{"level":"high"},"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"echo hi","description":"x"},"tool_response":{"stdout":"hi","stderr":"","interrupted":false},"tool_use_id":"toolu_1","duration_ms":85,"brand_new_field":[1,2]}"#;
        let ev = parse(json.as_bytes(), None).unwrap();
        let EventKind::PostToolUse(call) = ev.kind else {
            panic!("{ev:?}")
        };
        assert_eq!(call.tool_name, "Bash");
        assert_eq!(call.tool_input["command"], "echo hi");
        assert_eq!(call.duration_ms, Some(85));
        assert_eq!(ev.common.cwd, Some(PathBuf::from("/home/me/proj")));
    }

    #[test]
    fn unknown_event_and_wrong_types_are_tolerated() {
        let ev = parse(
            br#"{"hook_event_name":"TeammateIdle","session_id":5}"#,
            None,
        )
        .unwrap();
        assert_eq!(ev.kind, EventKind::Other("TeammateIdle".into()));
        assert_eq!(ev.common.session_id, "");
        let ev = parse(
            br#"{"hook_event_name":"Stop","stop_hook_active":"yes"}"#,
            None,
        )
        .unwrap();
        assert!(!ev.stop_hook_active());
        let ev = parse(
            br#"{"hook_event_name":"PreCompact","custom_instructions":null}"#,
            None,
        )
        .unwrap();
        assert!(matches!(
            ev.kind,
            EventKind::PreCompact {
                custom_instructions: None,
                ..
            }
        ));
    }

    #[test]
    fn stop_hook_active_is_seen_on_stop_and_subagent_stop() {
        for name in ["Stop", "SubagentStop"] {
            let json = format!(
                r#"{{"hook_event_name":"{name}","stop_hook_active":true,"agent_type":""}}"#
            );
            assert!(parse(json.as_bytes(), None).unwrap().stop_hook_active());
        }
    }

    #[test]
    fn hint_fills_a_missing_name_only() {
        let ev = parse(br#"{"session_id":"s"}"#, Some(EventName::SessionEnd)).unwrap();
        assert_eq!(ev.name(), EventName::SessionEnd);
        let ev = parse(
            br#"{"hook_event_name":"Stop"}"#,
            Some(EventName::SessionEnd),
        )
        .unwrap();
        assert_eq!(ev.name(), EventName::Stop);
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for bad in [
            &b""[..],
            b"   \n",
            b"{",
            b"[1,2]",
            b"null",
            b"\xff\xfe",
            b"\"str\"",
        ] {
            assert!(parse(bad, None).is_err(), "{bad:?}");
        }
        assert!(parse(b"{}", None).is_err());
    }
}
