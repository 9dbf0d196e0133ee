//! The bridge subsystem's hook handler: which events it takes and what it adds.
//!
//! | event | what the bridge does |
//! |---|---|
//! | SessionStart | load mode (integrity → checkpoint → invariants → summary) |
//! | PreToolUse (Edit, Write, MultiEdit, NotebookEdit) | invariants whose WHERE matches the file |
//! | PreCompact | automatic checkpoint; asks the summary to keep its resume point |
//! | PostCompact | compaction summary → session log |
//! | SessionEnd | one session-log line (only where `.rune/` exists) |

use super::integrity::{self, Status};
use super::invariants;
use super::load::{self, Source};
use super::store::{self, Rune};
use super::{compact, detach};
use crate::core::budget::Section;
use crate::core::error::Result;
use crate::core::redact::Redactor;
use crate::hook::bus::{Contribution, Handler, HookEnv};
use crate::hook::input::{EventKind, EventName, HookEvent};

/// The bridge handler on the bus.
pub(crate) struct BridgeHandler;

const EDIT_TOOLS: [&str; 4] = ["Edit", "Write", "MultiEdit", "NotebookEdit"];

impl Handler for BridgeHandler {
    fn name(&self) -> &'static str {
        "bridge"
    }

    fn subscribes(&self, event: EventName) -> bool {
        matches!(
            event,
            EventName::SessionStart
                | EventName::PreToolUse
                | EventName::PreCompact
                | EventName::PostCompact
                | EventName::SessionEnd
        )
    }

    fn enabled(&self, config: &crate::core::config::Config) -> bool {
        config.bridge.enabled
    }

    fn handle(&self, event: &HookEvent, env: &HookEnv<'_>) -> Result<Contribution> {
        let now = env.ctx.clock.now();
        match &event.kind {
            EventKind::SessionStart { source } => {
                let src = if source == "compact" {
                    Source::Compact
                } else {
                    Source::Start
                };
                let rune = Rune::new(&env.root, env.config);
                // Orphaned detach records go first; a failure there must not stop the load.
                let _ = detach::cleanup(&rune, now);
                let user = store::UserDirs::from_env(&env.ctx.env, &rune);
                let l = load::load(&env.root, env.config, now, src, &user)?;
                Ok(Contribution {
                    sections: l.sections,
                    system_message: l.system_message,
                    ..Contribution::default()
                })
            }
            EventKind::PreToolUse(call) if EDIT_TOOLS.contains(&call.tool_name.as_str()) => {
                let path = call
                    .tool_input
                    .get("file_path")
                    .or_else(|| call.tool_input.get("notebook_path"))
                    .and_then(|v| v.as_str());
                let Some(path) = path else {
                    return Ok(Contribution::default());
                };
                Ok(Contribution {
                    sections: edit_context(env, path).into_iter().collect(),
                    ..Contribution::default()
                })
            }
            EventKind::PreCompact { trigger, .. } => {
                let rune = Rune::new(&env.root, env.config);
                let user = store::UserDirs::from_env(&env.ctx.env, &rune);
                Ok(Contribution {
                    compaction_instructions: compact::pre_compact(
                        &env.root, env.config, now, trigger, &user,
                    )?,
                    ..Contribution::default()
                })
            }
            EventKind::PostCompact {
                compact_summary: Some(summary),
                ..
            } => {
                compact::post_compact(&env.root, env.config, now, summary)?;
                Ok(Contribution::default())
            }
            EventKind::SessionEnd { reason } => {
                compact::session_end(&env.root, env.config, now, &event.common.session_id, reason)?;
                Ok(Contribution::default())
            }
            _ => Ok(Contribution::default()),
        }
    }
}

/// The invariants that apply to an edit of `path`, unless the file is missing or TAINTED.
fn edit_context(env: &HookEnv<'_>, path: &str) -> Option<Section> {
    let rune = Rune::new(&env.root, env.config);
    // As load: memory is read through its folder, and a symlinked folder could point
    // anywhere.
    if crate::core::fsx::refuse_symlink(&rune.dir).is_err() {
        return None;
    }
    let file = rune.path(store::INVARIANTS);
    if !store::is_regular(&file) {
        return None;
    }
    let red = Redactor::with_extra(&env.config.redact.extra_patterns);
    let show = rune.show(store::INVARIANTS);
    let user = store::UserDirs::from_env(&env.ctx.env, &rune);
    let verdict = integrity::file_verdict(
        &rune,
        store::INVARIANTS,
        &red,
        user.cache.as_deref(),
        &env.config.redact.extra_patterns,
    )
    .ok()?;
    let blocked = if env.config.bridge.integrity_block_on == "suspicious" {
        verdict >= Status::Suspicious
    } else {
        verdict == Status::Tainted
    };
    if blocked {
        return None;
    }
    let loaded = invariants::load(&rune, env.ctx.clock.now());
    let rel = invariants::relative(&env.root, path);
    let body = invariants::for_edit(&loaded, &rel, &show)?;
    Some(Section::new("", red.redact(body.trim_end()).text, 80).source(show))
}
