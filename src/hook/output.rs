//! Hook output: merges the handlers' contributions into the one answer Claude Code reads.
//!
//! * context sections → one text under the context budget → `hookSpecificOutput.additionalContext`,
//!   only on events whose schema has it (SessionStart, UserPromptSubmit, PreToolUse,
//!   PostToolUse, PostToolUseFailure);
//! * system messages and handler errors → `systemMessage` (the user sees it, the model not);
//! * a block → `decision: "block"` + `reason`, only on events that can be blocked and never
//!   when `stop_hook_active` is true;
//! * PreCompact → plain text only (its stdout becomes compaction instructions, JSON included),
//!   errors to stderr;
//! * PreCompact, PostCompact and SessionEnd never get `hookSpecificOutput`.
//!
//! Everything printed passes the redactor.

use super::bus::Dispatched;
use crate::core::budget;
use crate::core::event::EventName;
use crate::core::redact::Redactor;
use serde_json::{json, Map, Value};

/// What the hook process prints and how it exits.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Rendered {
    /// stdout (empty for "nothing to say").
    pub stdout: String,
    /// One line for stderr, if anything went wrong.
    pub stderr: Option<String>,
    /// 0, or 1 for a non-blocking error. Never 2.
    pub exit_code: i32,
}

/// Whether `event`'s `hookSpecificOutput` accepts `additionalContext`.
pub fn takes_context(event: EventName) -> bool {
    matches!(
        event,
        EventName::SessionStart
            | EventName::UserPromptSubmit
            | EventName::PreToolUse
            | EventName::PostToolUse
            | EventName::PostToolUseFailure
    )
}

/// Whether a handler may block `event` on purpose.
fn can_block(event: EventName) -> bool {
    matches!(
        event,
        EventName::Stop
            | EventName::SubagentStop
            | EventName::UserPromptSubmit
            | EventName::PreToolUse
    )
}

/// Merges `d` into what to print for `event`.
pub fn render(
    event: EventName,
    stop_hook_active: bool,
    d: &Dispatched,
    extra_errors: &[String],
    budget_chars: usize,
    redactor: &Redactor,
) -> Rendered {
    let clean = |s: &str| redactor.redact(s).text;
    let errors: Vec<String> = extra_errors
        .iter()
        .chain(&d.errors)
        .map(|e| clean(e))
        .collect();
    let stderr = (!errors.is_empty()).then(|| format!("baton: {}", errors.join("; ")));

    if event == EventName::PreCompact {
        let text: Vec<&str> = d
            .contributions
            .iter()
            .filter_map(|c| c.compaction_instructions.as_deref())
            .filter(|t| !t.trim().is_empty())
            .collect();
        let stdout = if text.is_empty() {
            String::new()
        } else {
            clean(&format!("{}\n", text.join("\n\n")))
        };
        let exit_code = i32::from(stdout.is_empty() && stderr.is_some());
        return Rendered {
            stdout,
            stderr,
            exit_code,
        };
    }

    let mut out = Map::new();
    let mut messages: Vec<String> = d
        .contributions
        .iter()
        .filter_map(|c| c.system_message.clone())
        .collect();
    if let Some(line) = &stderr {
        messages.push(line.clone());
    }
    if !messages.is_empty() {
        out.insert("systemMessage".into(), json!(clean(&messages.join("\n"))));
    }

    let reasons: Vec<&str> = d
        .contributions
        .iter()
        .filter_map(|c| c.block.as_deref())
        .collect();
    if !reasons.is_empty() && can_block(event) && !stop_hook_active {
        out.insert("decision".into(), json!("block"));
        out.insert("reason".into(), json!(clean(&reasons.join("\n\n"))));
    }

    if takes_context(event) {
        let sections: Vec<budget::Section> = d
            .contributions
            .iter()
            .flat_map(|c| c.sections.iter().cloned())
            .collect();
        if !sections.is_empty() {
            // Redact before fitting, so the budget counts what is really printed.
            let sections: Vec<budget::Section> = sections
                .into_iter()
                .map(|mut s| {
                    s.title = clean(&s.title);
                    s.body = clean(&s.body);
                    s
                })
                .collect();
            let text = budget::fit(&sections, budget_chars);
            out.insert(
                "hookSpecificOutput".into(),
                json!({"hookEventName": event.as_str(), "additionalContext": text}),
            );
        }
    }

    let stdout = if out.is_empty() {
        String::new()
    } else {
        format!("{}\n", Value::Object(out))
    };
    Rendered {
        stdout,
        stderr,
        exit_code: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::budget::Section;
    use crate::core::handler::Contribution;

    fn d(c: Contribution) -> Dispatched {
        Dispatched {
            contributions: vec![c],
            errors: vec![],
        }
    }

    fn ctx_contribution() -> Contribution {
        Contribution {
            sections: vec![Section::new("", "hello", 1)],
            system_message: Some("note".into()),
            block: Some("budget reached".into()),
            compaction_instructions: Some("keep corrections".into()),
            resume: vec![],
        }
    }

    fn json_of(r: &Rendered) -> Value {
        serde_json::from_str(&r.stdout).unwrap()
    }

    /// The shape rules for each event, as a table.
    #[test]
    fn shape_per_event() {
        let r = Redactor::builtin();
        // (event, has hookSpecificOutput, has decision)
        let table = [
            (EventName::SessionStart, true, false),
            (EventName::UserPromptSubmit, true, true),
            (EventName::PreToolUse, true, true),
            (EventName::PostToolUse, true, false),
            (EventName::PostToolUseFailure, true, false),
            (EventName::PostCompact, false, false),
            (EventName::Stop, false, true),
            (EventName::SubagentStop, false, true),
            (EventName::SessionEnd, false, false),
            (EventName::Other, false, false),
        ];
        for (event, hso, decision) in table {
            let out = render(event, false, &d(ctx_contribution()), &[], 8000, &r);
            assert_eq!(out.exit_code, 0);
            let v = json_of(&out);
            assert_eq!(v.get("hookSpecificOutput").is_some(), hso, "{event:?}: {v}");
            if hso {
                assert_eq!(v["hookSpecificOutput"]["hookEventName"], event.as_str());
            }
            assert_eq!(v.get("decision").is_some(), decision, "{event:?}: {v}");
            assert_eq!(v["systemMessage"], "note");
        }
    }

    #[test]
    fn pre_compact_prints_plain_instructions_only() {
        let out = render(
            EventName::PreCompact,
            false,
            &d(ctx_contribution()),
            &[],
            8000,
            &Redactor::builtin(),
        );
        assert_eq!(out.stdout, "keep corrections\n");
        let errs = Dispatched {
            contributions: vec![],
            errors: vec!["audit: disk full".into()],
        };
        let out = render(
            EventName::PreCompact,
            false,
            &errs,
            &[],
            8000,
            &Redactor::builtin(),
        );
        assert_eq!(out.stdout, "");
        assert_eq!(out.stderr.as_deref(), Some("baton: audit: disk full"));
        assert_eq!(out.exit_code, 1);
    }

    #[test]
    fn no_block_when_stop_hook_active() {
        let out = render(
            EventName::Stop,
            true,
            &d(ctx_contribution()),
            &[],
            8000,
            &Redactor::builtin(),
        );
        assert!(json_of(&out).get("decision").is_none());
    }

    #[test]
    fn nothing_to_say_prints_nothing() {
        let out = render(
            EventName::PostToolUse,
            false,
            &Dispatched::default(),
            &[],
            8000,
            &Redactor::builtin(),
        );
        assert_eq!(out, Rendered::default());
    }

    #[test]
    fn errors_become_one_stderr_line_and_a_system_message() {
        let dd = Dispatched {
            contributions: vec![],
            errors: vec!["a: x".into(), "b: y".into()],
        };
        let out = render(
            EventName::SessionStart,
            false,
            &dd,
            &["config: bad".into()],
            8000,
            &Redactor::builtin(),
        );
        assert_eq!(
            out.stderr.as_deref(),
            Some("baton: config: bad; a: x; b: y")
        );
        assert_eq!(
            json_of(&out)["systemMessage"],
            "baton: config: bad; a: x; b: y"
        );
        assert_eq!(out.exit_code, 0);
    }

    #[test]
    fn everything_printed_is_redacted() {
        let secret = ["ghp_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"].concat();
        let c = Contribution {
            sections: vec![Section::new("t", format!("token {secret}"), 1)],
            system_message: Some(format!("msg {secret}")),
            block: None,
            compaction_instructions: Some(secret.clone()),
            resume: vec![],
        };
        for e in [
            EventName::SessionStart,
            EventName::PreCompact,
            EventName::SessionEnd,
        ] {
            let out = render(e, false, &d(c.clone()), &[], 8000, &Redactor::builtin());
            assert!(!out.stdout.contains(&secret), "{e:?}: {}", out.stdout);
        }
    }

    #[test]
    fn context_is_held_to_the_budget() {
        let c = Contribution {
            sections: vec![Section::new("big", "y\n".repeat(10_000), 1)],
            ..Contribution::default()
        };
        let out = render(
            EventName::SessionStart,
            false,
            &d(c),
            &[],
            8000,
            &Redactor::builtin(),
        );
        let ctx = json_of(&out)["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(budget::chars(&ctx) <= 8000);
    }
}
