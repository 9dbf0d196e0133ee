//! The checkpoint packet, `packets/latest.md`: a YAML front matter with the orchestrator
//! state, then a markdown body for people. The body is a pure function of the front matter
//! and the wake-up prompt, so the same state always gives the same bytes (what makes a
//! handoff idempotent). The wake-up prompt is built here too, in one place.

use crate::core::config::Config;
use crate::core::error::{Error, Result};
use crate::core::yaml;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// The front matter of a packet. Reading is lenient (other tools may add keys); writing
/// emits the keys in this order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Packet {
    pub(crate) loop_id: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) worktree: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) orchestrator_phase: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) verifier_status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) guardian_verdict: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) pr_url: Option<String>,
    pub(crate) landed_this_session: u32,
    pub(crate) open_findings: Vec<String>,
    pub(crate) decisions: Vec<String>,
    pub(crate) written_at: String,
}

static LOOP_ID: LazyLock<Option<regex::Regex>> =
    LazyLock::new(|| regex::Regex::new(r"^WL-[0-9]{1,9}$").ok());

/// Checks a loop id: `WL-` and 1 to 9 digits (`WL-012`).
pub(crate) fn validate_loop_id(id: &str) -> Result<()> {
    if LOOP_ID.as_ref().is_some_and(|re| re.is_match(id)) {
        Ok(())
    } else {
        Err(Error::InvalidId {
            what: "loop id",
            value: id.to_string(),
            reason: "must be WL- followed by digits, like WL-012",
        })
    }
}

/// The wake-up prompt: what the next session starts with, to resume from the packet at
/// `packet` (relative to the project root): `relay.wake_prompt` (`/baton:session-relay
/// resume` by default) with `{packet}` filled in, or ` from <packet>` added when the packet
/// is not at its default place. The one place that text is built: the packet's Resume
/// section, `baton relay handoff` and the SessionStart notice all take it from here.
pub(crate) fn wake_up_prompt(config: &Config, packet: &str) -> String {
    let prompt = config.relay.wake_prompt.trim();
    if prompt.contains("{packet}") {
        prompt.replace("{packet}", packet)
    } else if packet == DEFAULT_PACKET {
        prompt.to_string()
    } else {
        format!("{prompt} from {packet}")
    }
}

/// Where the packet is when `paths.relay` is not moved.
const DEFAULT_PACKET: &str = ".handoff/packets/latest.md";

impl Packet {
    /// The packet's identity, `WL-NNN@written_at`; what `last_resumed_packet` records.
    pub(crate) fn id(&self) -> String {
        format!("{}@{}", self.loop_id, self.written_at)
    }

    /// Parses a packet file.
    pub(crate) fn parse(text: &str, what: &str) -> Result<Packet> {
        let malformed = |message| Error::Malformed {
            path: what.into(),
            message,
        };
        let (fm, _) = yaml::split_front_matter(text).ok_or_else(|| {
            malformed(format!(
                "{what}: no YAML front matter (a packet starts with a `---` line); fix it, or delete it and hand off again"
            ))
        })?;
        let p: Packet = yaml::parse(fm, what)?;
        validate_loop_id(&p.loop_id).map_err(|e| malformed(format!("{what}: {e}")))?;
        Ok(p)
    }

    /// One line of key state: `phase verify · verifier green · …` (only the fields set).
    pub(crate) fn key_state(&self) -> String {
        let mut parts = Vec::new();
        for (label, v) in [
            ("phase", &self.orchestrator_phase),
            ("verifier", &self.verifier_status),
            ("guardian", &self.guardian_verdict),
        ] {
            if let Some(v) = v {
                parts.push(format!("{label} {v}"));
            }
        }
        parts.push(format!("landed this session {}", self.landed_this_session));
        if let Some(pr) = &self.pr_url {
            parts.push(format!("PR {pr}"));
        }
        parts.join(" · ")
    }

    /// The whole file: front matter and body. `resume_prompt` is the wake-up prompt.
    pub(crate) fn render(&self, resume_prompt: &str) -> Result<String> {
        let fm = serde_yaml_ng::to_string(self)
            .map_err(|e| Error::Internal(format!("packet to YAML: {e}")))?;
        let mut out = format!("---\n{fm}---\n# Relay packet {}\n\n", self.loop_id);
        out.push_str(&format!(
            "Checkpoint of the weave-loop `{}`, written at {} by `baton relay handoff`.\n\n",
            self.loop_id, self.written_at
        ));
        out.push_str(&format!("- State: {}\n", self.key_state()));
        if !self.worktree.is_empty() {
            out.push_str(&format!("- Worktree: `{}`\n", self.worktree));
        }
        for (title, items) in [
            ("Open findings", &self.open_findings),
            ("Decisions", &self.decisions),
        ] {
            out.push_str(&format!("\n## {title}\n\n"));
            if items.is_empty() {
                out.push_str("(none)\n");
            }
            for i in items {
                out.push_str(&format!("- {i}\n"));
            }
        }
        out.push_str(&format!(
            "\n## Resume\n\nIn a fresh session: `{resume_prompt}` (or `baton relay resume`, which runs \
the verify-on-resume script first and stops for a human when it fails).\n"
        ));
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Packet {
        Packet {
            loop_id: "WL-012".into(),
            worktree: "/w".into(),
            orchestrator_phase: Some("verify".into()),
            verifier_status: Some("green".into()),
            guardian_verdict: None,
            pr_url: Some("https://example.invalid/pr/12".into()),
            landed_this_session: 3,
            open_findings: vec!["flaky test: a: b".into()],
            decisions: vec![],
            written_at: "2026-11-30T10:15:00Z".into(),
        }
    }

    #[test]
    fn render_then_parse_round_trips() {
        let p = sample();
        let text = p.render("/weave-loop resume from x").unwrap();
        assert!(
            text.starts_with("---\nloop_id: WL-012\nworktree: /w\n"),
            "{text}"
        );
        assert!(!text.contains("guardian_verdict"), "{text}");
        assert_eq!(Packet::parse(&text, "latest.md").unwrap(), p);
        assert_eq!(p.id(), "WL-012@2026-11-30T10:15:00Z");
        assert_eq!(
            p.key_state(),
            "phase verify · verifier green · landed this session 3 · PR https://example.invalid/pr/12"
        );
    }

    #[test]
    fn bad_packets_and_ids_are_refused() {
        assert!(validate_loop_id("WL-1").is_ok());
        for bad in ["wl-1", "WL-", "WL-12a", "../x", "WL-1234567890"] {
            assert!(validate_loop_id(bad).is_err(), "{bad}");
        }
        for bad in ["# no front matter\n", "---\nloop_id: nope\n---\n"] {
            let e = Packet::parse(bad, "p.md").unwrap_err();
            assert!(
                matches!(&e, Error::Malformed { path, .. } if path.ends_with("p.md")),
                "{e}"
            );
        }
        // Unknown keys from other tools are fine.
        let p = Packet::parse("---\nloop_id: WL-3\nextra: 1\n---\n", "p.md").unwrap();
        assert_eq!(p.loop_id, "WL-3");
    }
}
