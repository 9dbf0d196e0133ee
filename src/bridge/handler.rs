//! The bridge subsystem's hook handler: which events it takes and what it adds.
//!
//! | event | what the bridge does |
//! |---|---|
//! | SessionStart | load mode (integrity → checkpoint → invariants → summary) |
//! | PreToolUse (Edit, Write, MultiEdit, NotebookEdit) | invariants whose WHERE matches the file |
//! | PreCompact | automatic checkpoint; asks the summary to keep its resume point |
//! | PostCompact | compaction summary → session log |
//! | SessionEnd | one session-log line (only where `.rune/` exists) |

use super::integrity;
use super::invariants;
use super::load::{self, Source};
use super::store::{self, Rune};
use super::{compact, detach};
use crate::core::budget::Section;
use crate::core::config::Config;
use crate::core::error::Result;
use crate::core::event::{EventKind, EventName, HookEvent};
use crate::core::handler::{Contribution, Handler};
use crate::core::project::Project;

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

    fn enabled(&self, config: &Config) -> bool {
        config.bridge.enabled
    }

    fn handle(&self, event: &HookEvent, project: &Project) -> Result<Contribution> {
        let now = project.now();
        match &event.kind {
            EventKind::SessionStart { source } => {
                let src = if source == "compact" {
                    Source::Compact
                } else {
                    Source::Start
                };
                let rune = Rune::new(&project.root, project.config());
                // Orphaned detach records go first; a failure there must not stop the load.
                let _ = detach::cleanup(&rune, now);
                let user = store::UserDirs::from_env(&project.ctx.env, &rune);
                let l = load::load(&project.root, project.config(), now, src, &user)?;
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
                    sections: edit_context(project, path).into_iter().collect(),
                    ..Contribution::default()
                })
            }
            EventKind::PreCompact { trigger, .. } => {
                let rune = Rune::new(&project.root, project.config());
                let user = store::UserDirs::from_env(&project.ctx.env, &rune);
                Ok(Contribution {
                    compaction_instructions: compact::pre_compact(project, trigger, &user)?,
                    ..Contribution::default()
                })
            }
            EventKind::PostCompact {
                compact_summary: Some(summary),
                ..
            } => {
                compact::post_compact(&project.root, project.config(), now, summary)?;
                Ok(Contribution::default())
            }
            EventKind::SessionEnd { reason } => {
                compact::session_end(
                    &project.root,
                    project.config(),
                    now,
                    &event.common.session_id,
                    reason,
                )?;
                Ok(Contribution::default())
            }
            _ => Ok(Contribution::default()),
        }
    }
}

/// The invariants that apply to an edit of `path`, unless the file is missing or TAINTED.
fn edit_context(project: &Project, path: &str) -> Option<Section> {
    let rune = Rune::new(&project.root, project.config());
    // As load: memory is read through its folder, and a symlinked folder could point
    // anywhere.
    if crate::core::fsx::refuse_symlink(&rune.dir).is_err() {
        return None;
    }
    let file = rune.path(store::INVARIANTS);
    if !store::is_regular(&file) {
        return None;
    }
    let show = rune.show(store::INVARIANTS);
    let user = store::UserDirs::from_env(&project.ctx.env, &rune);
    let verdict = integrity::file_verdict(
        &rune,
        store::INVARIANTS,
        project.redactor(),
        user.cache.as_deref(),
        &project.config().redact.extra_patterns,
    )
    .ok()?;
    if verdict >= integrity::block_at(project.config()) {
        return None;
    }
    let loaded = invariants::load(&rune, project.now());
    let rel = invariants::relative(&project.root, path);
    let body = invariants::for_edit(&loaded, &rel, &show)?;
    // The hook's output passes the project's redactor once, for every section.
    Some(Section::new("", body.trim_end(), 80).source(show))
}
