//! bridge: the project's memory in `.rune/` (see DESIGN.md and README's `### bridge`). This
//! folder holds the subsystem: its CLI (`baton bridge …`) and its hook handler
//! (`handler.rs`), both calling the same functions.
//!
//! | file | job |
//! |---|---|
//! | store.rs | the folder, its files, atomic rewrite under a lock, file tails, stamps |
//! | save.rs | save mode: entries appended, commit, the Saved report |
//! | instincts.rs, notes.rs, learn.rs | instincts (max 20), cumulative and task notes, learnings JSONL |
//! | load.rs, memory.rs, entries.rs | load mode as budget sections; the memory sections; reading tails and counts |
//! | progress.rs | progress.md's reader for other subsystems (the daily report's blocked items) |
//! | checkpoint.rs, compact.rs | checkpoint mode; PreCompact / PostCompact |
//! | invariants.rs | INVARIANTS.md parsing, preview, glob matching |
//! | integrity.rs, scan_cache.rs | the poisoning scan; its per-user verdict cache |
//! | detach.rs | detach mode: oracle pending records |
//! | global.rs | cross-project instinct promotion (user-level store) |
//! | status.rs | `baton bridge status` |

mod checkpoint;
mod compact;
mod detach;
mod entries;
mod global;
mod handler;
mod instincts;
mod integrity;
mod invariants;
mod learn;
mod load;
mod memory;
mod normalize;
mod notes;
mod progress;
mod save;
mod scan_cache;
mod status;
mod store;

pub(crate) use handler::BridgeHandler;
pub(crate) use progress::blocked_items;
pub(crate) use status::summary_line;

use crate::core::budget;
use crate::core::error::{Error, Result};
use crate::core::project::Project;
use crate::core::redact::Redactor;
use std::io::Read;

/// `baton bridge` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Append the session's decisions, conventions, progress, learnings, instincts and notes
    /// (YAML on stdin) to .rune/ and commit it
    Save {
        /// Print what was saved as JSON instead of the report
        #[arg(long)]
        json: bool,
    },
    /// Print what a new session is told about the project (integrity scan first)
    Load {
        /// Print JSON (sections, integrity) instead of text
        #[arg(long)]
        json: bool,
    },
    /// Write .rune/checkpoint.md from YAML on stdin (doing, decisions, left, context, resume)
    Checkpoint {
        /// Archive the active checkpoint as checkpoint-<date>.resolved.md (last 3 kept)
        #[arg(long)]
        resolve: bool,
    },
    /// Scan .rune/ for poisoning: CLEAN, SUSPICIOUS or TAINTED (exit 1 when TAINTED)
    Integrity {
        /// Print JSON: {"status", "findings": [{"file", "line", "rule", "excerpt"}]}
        #[arg(long)]
        json: bool,
    },
    /// Parse .rune/INVARIANTS.md: preview, or the rules that apply to a path
    Invariants {
        /// Print the invariants.loaded payload as JSON
        #[arg(long)]
        json: bool,
        /// Only the rules whose WHERE globs match this path
        #[arg(long = "match", value_name = "PATH")]
        match_path: Option<String>,
    },
    /// Record one learning in .rune/learnings.jsonl
    Learn {
        /// decision, error, insight, convention or performance
        #[arg(long = "type", value_name = "TYPE")]
        kind: String,
        /// Dedup key in kebab-case (the latest entry per key+type wins)
        #[arg(long)]
        key: String,
        /// One or two sentences in causal language
        #[arg(long)]
        insight: String,
        /// 0.1 (hunch) to 1.0 (battle-tested)
        #[arg(long)]
        confidence: Option<f64>,
        /// An affected file (repeatable)
        #[arg(long = "file", value_name = "PATH")]
        files: Vec<String>,
        /// The skill that learned it
        #[arg(long)]
        skill: Option<String>,
    },
    /// List learnings (latest per key+type, newest first)
    Learnings {
        /// Only this type
        #[arg(long = "type", value_name = "TYPE")]
        kind: Option<String>,
        /// Only this skill
        #[arg(long)]
        skill: Option<String>,
        /// At most this many
        #[arg(long)]
        limit: Option<usize>,
        /// Print the records as a JSON array
        #[arg(long)]
        json: bool,
    },
    /// Record a slow second-model dispatch (YAML/JSON on stdin: sessionId, triggerSignal,
    /// sourceSkill, targetModel, bundleHash, timeoutAt); idempotent on sessionId and bundleHash
    Detach,
    /// Check a dispatch: complete (response, record consumed), not_ready, or failed (timeout)
    Reattach {
        /// The sessionId that `detach` returned
        session_id: String,
    },
    /// Store a dispatch's response (the excerpt on stdin, at most 500 characters kept)
    Complete {
        /// The sessionId that `detach` returned
        session_id: String,
        /// The response's id
        #[arg(long)]
        response_id: String,
    },
    /// Delete pending records older than 24 hours (also done at every session start)
    Cleanup,
    /// What the bridge has in this project
    Status {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
}

fn stdin_text() -> Result<String> {
    let mut s = String::new();
    std::io::stdin()
        .read_to_string(&mut s)
        .map_err(|e| Error::Input(format!("could not read stdin: {e}")))?;
    Ok(s)
}

fn json<T: serde::Serialize>(value: &T) -> Result<String> {
    serde_json::to_string_pretty(value).map_err(|e| Error::Internal(e.to_string()))
}

/// Runs a `baton bridge` command; returns the exit code.
#[allow(clippy::too_many_lines)]
pub(crate) fn run(command: Command, project: &Project) -> Result<i32> {
    let config = project.config();
    let now = project.now();
    let rune = store::Rune::new(&project.root, config);
    match command {
        Command::Save { json: as_json } => {
            let text = stdin_text()?;
            let input: save::SaveInput = crate::core::yaml::parse(&text, "stdin")?;
            let red = Redactor::with_extra(&config.redact.extra_patterns);
            let warnings = save::screen(&text, integrity::block_at(config), &red)?;
            let user = store::UserDirs::from_env(&project.ctx.env, &rune);
            let mut saved = save::save(&project.root, config, &input, now, user.global.as_deref())?;
            for w in &warnings {
                eprintln!("baton: warning: an entry matches the integrity rule {w}; its file will load marked SUSPICIOUS (`baton bridge integrity`)");
            }
            saved.warnings = warnings;
            // Warm the integrity cache so the next session start does not rescan.
            let _ = integrity::scan(
                &rune,
                &red,
                user.cache.as_deref(),
                &config.redact.extra_patterns,
            );
            if as_json {
                crate::outln!("{}", json(&saved)?);
            } else {
                crate::out!("{}", save::report(&saved));
            }
            Ok(0)
        }
        Command::Load { json: as_json } => {
            let user = store::UserDirs::from_env(&project.ctx.env, &rune);
            let l = load::load(&project.root, config, now, load::Source::Start, &user)?;
            if as_json {
                let sections: Vec<serde_json::Value> = l
                    .sections
                    .iter()
                    .map(|s| serde_json::json!({"title": s.title, "body": s.body, "protected": s.protected}))
                    .collect();
                crate::outln!(
                    "{}",
                    json(&serde_json::json!({
                        "integrity": l.integrity,
                        "system_message": l.system_message,
                        "sections": sections,
                    }))?
                );
            } else if l.sections.is_empty() {
                crate::outln!(
                    "No project memory in {}/ yet. Save some with `baton bridge save`.",
                    rune.rel.display()
                );
            } else {
                if let Some(m) = &l.system_message {
                    eprintln!("{m}");
                }
                crate::outln!("{}", budget::fit(&l.sections, config.context_budget_chars));
            }
            Ok(0)
        }
        Command::Checkpoint { resolve: true } => {
            match checkpoint::resolve(&project.root, config, now)? {
                Some(name) => crate::outln!("Checkpoint resolved: {}/{name}", rune.rel.display()),
                None => crate::outln!("No active checkpoint to resolve."),
            }
            Ok(0)
        }
        Command::Checkpoint { resolve: false } => {
            let input: checkpoint::CheckpointInput =
                crate::core::yaml::parse(&stdin_text()?, "stdin")?;
            let (_, g) = checkpoint::write(&project.root, config, &input, now)?;
            crate::out!("{}", checkpoint::report(&input, g.as_ref()));
            Ok(0)
        }
        Command::Integrity { json: as_json } => {
            let red = Redactor::with_extra(&config.redact.extra_patterns);
            // An explicit scan reads every file (no cache).
            let report = integrity::scan(&rune, &red, None, &config.redact.extra_patterns)?;
            if as_json {
                crate::outln!("{}", json(&report)?);
            } else {
                crate::out!("{}", integrity::render(&report));
            }
            Ok(i32::from(report.status() == integrity::Status::Tainted))
        }
        Command::Invariants {
            json: as_json,
            match_path,
        } => {
            let mut loaded = invariants::load(&rune, now);
            if let Some(p) = &match_path {
                let rel = invariants::relative(&project.root, p);
                loaded.rules.retain(|r| invariants::matches(r, &rel));
            }
            if as_json {
                crate::outln!("{}", json(&loaded)?);
            } else if let Some(p) = &match_path {
                match invariants::for_edit(&loaded, p, &rune.show(store::INVARIANTS)) {
                    Some(t) => crate::out!("{t}"),
                    None => crate::outln!("No invariant applies to {p}."),
                }
            } else if loaded.loaded {
                crate::outln!("{}", loaded.preview);
                if loaded.stale {
                    crate::outln!("\n⚠ Invariants file is stale (> 30 days since it changed).");
                }
            } else {
                crate::outln!(
                    "No invariants loaded — {} missing or without rules.",
                    rune.show(store::INVARIANTS)
                );
            }
            Ok(0)
        }
        Command::Learn {
            kind,
            key,
            insight,
            confidence,
            files,
            skill,
        } => {
            let l = learn::Learning {
                kind,
                key,
                insight,
                confidence,
                files,
                skill,
            };
            l.check()?;
            let red = Redactor::with_extra(&config.redact.extra_patterns);
            let compacted = {
                let _lock = rune.lock()?;
                learn::append_all(&rune, &red, std::slice::from_ref(&l), now)?
            };
            crate::outln!(
                "Learning `{}` ({}) recorded in {}{}.",
                l.key,
                l.kind,
                rune.show(store::LEARNINGS),
                if compacted {
                    "; the file was compacted"
                } else {
                    ""
                }
            );
            Ok(0)
        }
        Command::Learnings {
            kind,
            skill,
            limit,
            json: as_json,
        } => {
            let recs = learn::query(&rune, kind.as_deref(), skill.as_deref(), limit)?;
            if as_json {
                crate::outln!("{}", json(&recs)?);
            } else {
                crate::out!("{}", learn::render(&recs));
            }
            Ok(0)
        }
        Command::Detach => {
            let d: detach::Dispatch = crate::core::yaml::parse(&stdin_text()?, "stdin")?;
            let out = detach::detach(&rune, &d, now, project.ctx.clock.random_u64())?;
            crate::outln!(
                "{}",
                serde_json::to_string(&out).map_err(|e| Error::Internal(e.to_string()))?
            );
            Ok(0)
        }
        Command::Reattach { session_id } => {
            let out = detach::reattach(&rune, &session_id, now)?;
            crate::outln!(
                "{}",
                serde_json::to_string(&out).map_err(|e| Error::Internal(e.to_string()))?
            );
            if let Some(signal) = &out.signal {
                crate::outln!("{signal}");
            }
            Ok(0)
        }
        Command::Complete {
            session_id,
            response_id,
        } => {
            let red = Redactor::with_extra(&config.redact.extra_patterns);
            let r = detach::complete(&rune, &session_id, &response_id, &stdin_text()?, &red)?;
            crate::outln!(
                "Record {} is complete; `baton bridge reattach {}` returns it.",
                r.session_id,
                r.session_id
            );
            Ok(0)
        }
        Command::Cleanup => {
            let n = detach::cleanup(&rune, now)?;
            crate::outln!(
                "Removed {n} orphaned pending record{} (older than 24 hours).",
                if n == 1 { "" } else { "s" }
            );
            Ok(0)
        }
        Command::Status { json: as_json } => {
            let cache = scan_cache::location(&project.ctx.env, &rune.dir);
            let s = status::survey(&rune, now, cache.as_deref(), &config.redact.extra_patterns)?;
            if as_json {
                crate::outln!("{}", json(&s)?);
            } else {
                crate::out!("{}", status::render(&s));
            }
            Ok(0)
        }
    }
}
