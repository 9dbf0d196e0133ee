//! bridge: the project's memory in `.rune/` (see docs/bridge.md). This
//! folder holds the subsystem: its CLI (`baton bridge …`, one function per subcommand below)
//! and its hook handler (`handler.rs`), both calling the same functions with the run's
//! `Project`.
//!
//! | file | job |
//! |---|---|
//! | store.rs | the folder, its files, atomic rewrite under a lock, file tails, stamps (UTC, marked; any offset read) |
//! | author.rs | who wrote an entry (`**By:**`, ` (by: …)`, `"by"`), from git's `user.name` |
//! | merged.rs | block entries as git's union merge may leave them, given back their shared body |
//! | rules.rs | how `.rune/` travels through git: `.gitattributes` (union), `.gitignore` (the private checkpoint); doctor's check and fix |
//! | save.rs | save mode: entries appended, commit, the Saved report |
//! | instincts.rs, conflict.rs, notes.rs, learn.rs | instincts (max 20; those a convention rules out removed), cumulative and task notes, learnings JSONL |
//! | load.rs, memory.rs, entries.rs | load mode as budget sections; the memory sections; reading tails and counts, entries newest first by time |
//! | progress.rs | progress.md's reader for other subsystems (the daily report's blocked items) |
//! | checkpoint.rs, compact.rs | checkpoint mode; PreCompact / PostCompact / SessionEnd |
//! | invariants.rs | INVARIANTS.md parsing, preview, glob matching |
//! | provenance.rs, review.rs | the ledger of entries baton wrote, trust at load; `baton bridge review` |
//! | integrity.rs | the poisoning scan's policy (`Scanner`): which files, the verdict cache, when to block; the scan itself (rules, checks, prefilter, normalisation, needles, verdicts) is `core::scan` |
//! | scan_cache.rs | the per-user cache of scan verdicts (stamps, counts; the findings are the scanner's) |
//! | detach.rs | detach mode: oracle pending records |
//! | global.rs | cross-project instinct promotion (user-level store; accepted by the user) |
//! | status.rs | `baton bridge status` |
//! | help.rs | the stdin YAML of save and checkpoint, as their `--help` prints it |
//! | recall_docs.rs | `.rune/` (and the cross-project store) as documents for `baton recall` |
//!
//! The files import each other without circles (the layering test checks it): store.rs
//! imports no sibling, and provenance, entries, scan_cache, integrity, global, memory,
//! load, review and handler each build only on files before them in that order (and on the
//! leaf files beside them).

mod author;
mod checkpoint;
mod compact;
mod conflict;
mod detach;
mod entries;
mod global;
mod handler;
mod help;
mod instincts;
mod integrity;
mod invariants;
mod later;
mod learn;
mod load;
mod memory;
mod merged;
mod notes;
mod origins;
mod origins_update;
mod private_log;
mod progress;
mod provenance;
mod recall_docs;
mod review;
mod rules;
mod save;
mod scan_cache;
mod scan_file;
mod scan_runs;
mod shown;
mod status;
mod store;
mod trust;

pub(crate) use handler::BridgeHandler;

/// The per-user files the bridge keeps for this project outside the repository (the
/// integrity verdict caches of its folder), for `baton clean`.
pub(crate) fn private_files(project: &Project) -> Vec<std::path::PathBuf> {
    scan_cache::files_of(&project.ctx.env, &Rune::of(project).dir)
}

/// The folders of the project's provenance ledger, per user (`baton clean` lists them; they
/// go with `.rune/`: without them every entry there would read as unreviewed).
pub(crate) fn ledger_folders(project: &Project) -> Vec<std::path::PathBuf> {
    provenance::Ledger::of(project).folders()
}
/// The names the bridge writes in its folder, for `baton clean`'s inventory
/// (src/clean/inventory/shared.rs): with `--committed` only these go from `.rune/`.
pub(crate) mod written {
    pub(crate) use super::detach::DIR as DETACH_DIR;
    pub(crate) use super::rules::UNION as GROWING;
    pub(crate) use super::store::{CHECKPOINT, INVARIANTS, JOURNAL};
}
pub(crate) use progress::blocked_items;
pub(crate) use recall_docs::{RECALL_DOCS, RECALL_GLOBAL_DOCS};
pub(crate) use rules::{fix as fix_merge_rules, problems as merge_rule_problems};
pub(crate) use status::summary_line;

use crate::core::budget::{self, Section};
use crate::core::error::{Error, Result};
use crate::core::io::outln;
use crate::core::io::{self, Stdin};
use crate::core::project::Project;
use crate::core::signal::Signal;
use integrity::Scanner;
use std::time::Duration;
use store::Rune;

/// `baton bridge` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Append the session's decisions, conventions, progress, learnings, instincts and notes
    /// (YAML on stdin) to .rune/ and commit it
    #[command(after_long_help = help::SAVE)]
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
    #[command(after_long_help = help::CHECKPOINT)]
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
        /// The preview's budget in tokens (default 500), as Rune's loader takes it
        #[arg(long, value_name = "TOKENS", value_parser = clap::value_parser!(u32).range(1..))]
        budget: Option<u32>,
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
        /// Print the result as one JSON line instead of text
        #[arg(long)]
        json: bool,
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
    /// List the memory entries baton did not write (hand edits, teammates' pulls, other
    /// tools) and accept them: accepted entries load as reviewed
    Review {
        /// Accept the entry with this id (the first 6–10 hex digits listed; repeatable)
        #[arg(long = "accept", value_name = "ID")]
        accept: Vec<String>,
        /// Accept every unreviewed entry the integrity scan does not block
        #[arg(long)]
        all: bool,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Do what a session start leaves for later: scan the memory files it did not scan
    /// whole into the verdict cache, and read the memory's git history into the index of
    /// where its entries came from (a session start runs this in the background)
    #[command(hide = true)]
    Index {
        /// Print nothing
        #[arg(long)]
        quiet: bool,
        /// Leave at once when another run is under way (a session start's run); else wait
        /// for it to end
        #[arg(long)]
        background: bool,
    },
    /// The cross-project store: instincts and learnings seen in two or more projects
    Global {
        #[command(subcommand)]
        action: GlobalAction,
    },
    /// What the bridge has in this project
    Status {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
}

/// `baton bridge global` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum GlobalAction {
    /// Every promoted instinct and learning, with its id and whether it is accepted
    List {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Accept a promoted instinct or learning: every project's sessions get it from now on
    Accept {
        /// Its id (the first 6–10 hex digits `list` shows)
        id: String,
    },
    /// Remove a promoted instinct or learning from the user-level store
    Remove {
        /// Its id (the first 6–10 hex digits `list` shows)
        id: String,
    },
}

/// How long a command waits for its input on stdin to be closed. A pipe or a heredoc is done
/// at once; an inherited stdin that nobody closes must not hang the command for ever.
const STDIN_WAIT: Duration = Duration::from_secs(30);

/// The command's input: stdin, read to its end.
fn stdin_text() -> Result<String> {
    match io::read_stdin(STDIN_WAIT)? {
        Stdin::Text(text) => Ok(text),
        Stdin::NotClosed => Err(Error::Stdin(format!(
            "stdin was not closed within {} s; pipe the input in, e.g. `baton bridge save < session.yaml`",
            STDIN_WAIT.as_secs()
        ))),
    }
}

/// Runs a `baton bridge` command; returns the exit code.
pub(crate) fn run(command: Command, project: &Project) -> Result<i32> {
    let writes = matches!(
        command,
        Command::Save { .. }
            | Command::Checkpoint { .. }
            | Command::Learn { .. }
            | Command::Detach
            | Command::Reattach { .. }
            | Command::Complete { .. }
            | Command::Cleanup
    );
    if writes {
        project.require_state()?;
    }
    match command {
        Command::Save { json } => save_command(project, json),
        Command::Load { json } => load_command(project, json),
        Command::Checkpoint { resolve: true } => resolve_command(project),
        Command::Checkpoint { resolve: false } => checkpoint_command(project),
        Command::Integrity { json } => integrity_command(project, json),
        Command::Invariants {
            json,
            match_path,
            budget,
        } => Ok(invariants_command(
            project,
            json,
            match_path.as_deref(),
            budget.map_or(invariants::PREVIEW_TOKENS, |b| b as usize),
        )),
        Command::Learn {
            kind,
            key,
            insight,
            confidence,
            files,
            skill,
        } => learn_command(
            project,
            &learn::Learning {
                kind,
                key,
                insight,
                confidence,
                files,
                skill,
            },
        ),
        Command::Learnings {
            kind,
            skill,
            limit,
            json,
        } => learnings_command(project, kind.as_deref(), skill.as_deref(), limit, json),
        Command::Detach => detach_command(project),
        Command::Reattach { session_id, json } => reattach_command(project, &session_id, json),
        Command::Complete {
            session_id,
            response_id,
        } => complete_command(project, &session_id, &response_id),
        Command::Cleanup => cleanup_command(project),
        Command::Status { json } => status_command(project, json),
        Command::Review { accept, all, json } => review_command(project, &accept, all, json),
        Command::Global { action } => global_command(project, action),
        Command::Index { quiet, background } => index_command(project, quiet, background),
    }
}

/// `baton bridge global list|accept|remove`.
fn global_command(project: &Project, action: GlobalAction) -> Result<i32> {
    let env = &project.ctx.env;
    let dir = global::location(env).ok_or_else(|| {
        Error::Invalid("global: no home folder for the user-level store (set HOME)".into())
    })?;
    let ledger = global::ledger(env);
    match action {
        GlobalAction::List { json } => {
            let all = global::list(&dir, &ledger);
            if json {
                io::print_json(&all);
            } else if all.is_empty() {
                outln!("Nothing cross-project yet (an instinct or a learning saved at confidence ≥ 0.8 in two projects is proposed).");
            } else {
                for p in &all {
                    let line = format!(
                        "{}  {}  {} {}: {} ({}, {} projects)",
                        p["id"].as_str().unwrap_or(""),
                        if p["accepted"] == true {
                            "accepted"
                        } else {
                            "pending "
                        },
                        p["type"].as_str().unwrap_or(""),
                        p["name"].as_str().unwrap_or(""),
                        p["says"].as_str().unwrap_or(""),
                        p["confidence"],
                        p["projects"]
                    );
                    outln!("{}", project.redact(&line));
                }
            }
        }
        GlobalAction::Accept { id } => {
            if project.env("CLAUDECODE").is_some() {
                return Err(Error::Invalid("accepting a cross-project instinct is the user's decision: run `baton bridge global accept` in your own terminal (CLAUDECODE is set)".into()));
            }
            let name = global::accept(&dir, &ledger, &id, project.redactor(), project.now())?;
            outln!(
                "Accepted `{}`: every project's sessions get it from now on.",
                project.redact(&name)
            );
        }
        GlobalAction::Remove { id } => {
            let name = global::remove(&dir, &id)?;
            outln!(
                "Removed `{}` from the user-level store.",
                project.redact(&name)
            );
        }
    }
    Ok(0)
}

/// `baton bridge index`: what a session start leaves for later (`later`). One run at a time:
/// a background run that finds another under way leaves at once; any other waits for it.
fn index_command(project: &Project, quiet: bool, background: bool) -> Result<i32> {
    let Some(_lock) = later::index_lock(project, !background) else {
        if !quiet {
            outln!("another run is indexing this memory; nothing to do");
        }
        return Ok(0);
    };
    let rune = Rune::of(project);
    if rune.exists() {
        Scanner::cached(project, &rune).scan(&rune)?;
    }
    let state = origins_update::update(project, &rune, origins_update::Budget::Whole);
    if !quiet {
        outln!(
            "{}",
            match state {
                origins_update::State::Current(_) => "memory scanned; origins indexed up to HEAD",
                origins_update::State::Behind(_) =>
                    "memory scanned; another run is indexing origins",
                origins_update::State::NoHistory => "memory scanned; no git history",
            }
        );
    }
    Ok(0)
}

/// `baton bridge review`: the list, or the acceptance.
fn review_command(project: &Project, accept: &[String], all: bool, json: bool) -> Result<i32> {
    let rune = Rune::of(project);
    if accept.is_empty() && !all {
        let items = review::unreviewed(project)?;
        if json {
            io::print_json(&serde_json::json!({ "unreviewed": items }));
        } else {
            io::print(&review::render(&items, &rune));
        }
        return Ok(0);
    }
    let done = review::accept(project, accept, all)?;
    if json {
        io::print_json(&done);
    } else {
        outln!(
            "Accepted {} entr{} in {}: {} as reviewed from now on.{}",
            done.accepted.len(),
            if done.accepted.len() == 1 { "y" } else { "ies" },
            rune.show(""),
            if done.accepted.len() == 1 {
                "it loads"
            } else {
                "they load"
            },
            if done.skipped.is_empty() {
                String::new()
            } else {
                format!(
                    " Left out (the integrity scan blocks them; accept each by id if you are sure): {}.",
                    done.skipped.join(", ")
                )
            }
        );
    }
    Ok(0)
}

/// The long help of `baton bridge <name>` (what `--help` prints: options and input).
fn long_help(name: &str) -> String {
    use clap::Subcommand;
    let mut cmd = Command::augment_subcommands(clap::Command::new("bridge"));
    cmd.find_subcommand_mut(name).map_or_else(String::new, |c| {
        let mut c = c.clone().bin_name(format!("baton bridge {name}"));
        c.render_long_help().to_string()
    })
}

/// A command that reads YAML on stdin run with a terminal there (nothing piped in): the
/// input it wants, on stderr, and exit 2 (usage), before anything is read or written.
fn refuse_terminal(name: &str) -> Option<i32> {
    if !io::stdin_is_terminal() {
        return None;
    }
    eprintln!(
        "baton bridge {name}: nothing on stdin (it is a terminal); pipe the YAML in, e.g. `baton bridge {name} < input.yaml`. The input:\n"
    );
    eprint!("{}", long_help(name));
    Some(2)
}

/// `baton bridge save`: screen the input, save it, warm the integrity cache, report. A
/// save that appends nothing writes and commits nothing.
fn save_command(project: &Project, json: bool) -> Result<i32> {
    if let Some(code) = refuse_terminal("save") {
        return Ok(code);
    }
    let text = stdin_text()?;
    let input: save::SaveInput =
        crate::core::yaml::parse_redacted(&text, "stdin", project.redactor())?;
    let warnings = save::screen(
        &text,
        integrity::block_at(project.config()),
        project.redactor(),
    )?;
    let mut saved = save::save(project, &input)?;
    for w in &warnings {
        eprintln!("baton: warning: an entry matches the integrity rule {w}; its file will load marked SUSPICIOUS (`baton bridge integrity`)");
    }
    for n in &saved.notices {
        eprintln!("baton: warning: {n}");
    }
    saved.warnings = warnings;
    // Warm the integrity cache so the next session start does not rescan: what was
    // appended is scanned, not the files it was appended to.
    let rune = Rune::of(project);
    let _ = Scanner::cached(project, &rune).scan_after(&rune, &saved.appended);
    if json {
        io::print_json(&saved);
    } else {
        io::print(&project.redact(&save::report(&saved)));
    }
    Ok(0)
}

/// `baton bridge load`: what a new session is told, through the project's redactor (the
/// hook path leaves that to its output stage).
fn load_command(project: &Project, json: bool) -> Result<i32> {
    let briefing = load::load(project, load::Source::Start)?;
    // The bridge's own resume points, as the session start shows them (there, with the other
    // subsystems' too).
    let situation = crate::core::resume::Situation::cli();
    let resume = crate::core::resume::section(&briefing.resume, project.now(), &situation);
    let sections: Vec<Section> = resume
        .into_iter()
        .map(|(s, _)| s)
        .chain(briefing.sections)
        .map(|mut s| {
            s.title = project.redact(&s.title);
            s.body = project.redact(&s.body);
            s
        })
        .collect();
    let system_message = briefing.system_message.map(|m| project.redact(&m));
    if json {
        let sections: Vec<serde_json::Value> = sections
            .iter()
            .map(
                |s| serde_json::json!({"title": s.title, "body": s.body, "protected": s.protected}),
            )
            .collect();
        io::print_json(&serde_json::json!({
            "integrity": briefing.integrity,
            "system_message": system_message,
            "sections": sections,
        }));
        // Then the `invariants.loaded` signal, one JSON line of its own.
        if let Some(s) = briefing
            .invariants
            .as_ref()
            .and_then(|inv| invariants::loaded_signal(inv, project.redactor()))
        {
            s.print();
        }
    } else if sections.is_empty() {
        outln!(
            "No project memory in {}/ yet. Save some with `baton bridge save`.",
            Rune::of(project).rel.display()
        );
    } else {
        if let Some(m) = &system_message {
            eprintln!("{m}");
        }
        // Redacted before the fit, so the budget counts what is printed.
        outln!(
            "{}",
            budget::fit(&sections, project.config().context_budget_chars)
        );
    }
    Ok(0)
}

/// `baton bridge checkpoint --resolve`.
fn resolve_command(project: &Project) -> Result<i32> {
    integrity::refuse_unresolved(project, "checkpoint not resolved")?;
    match checkpoint::resolve(project)? {
        Some(name) => outln!(
            "Checkpoint resolved: {}/{name}",
            Rune::of(project).rel.display()
        ),
        None => outln!("No active checkpoint to resolve."),
    }
    Ok(0)
}

/// `baton bridge checkpoint`: the checkpoint from YAML on stdin.
fn checkpoint_command(project: &Project) -> Result<i32> {
    if let Some(code) = refuse_terminal("checkpoint") {
        return Ok(code);
    }
    let input: checkpoint::CheckpointInput =
        crate::core::yaml::parse_redacted(&stdin_text()?, "stdin", project.redactor())?;
    integrity::refuse_unresolved(project, "checkpoint not written")?;
    let (g, wrote_ignore) = checkpoint::write(project, &input)?;
    let mut report = checkpoint::report(&input, g.as_ref());
    if wrote_ignore {
        // Written before the checkpoint, committed after it (so the checkpoint's "Last
        // commit" is the user's): the private checkpoint never shows as untracked nor goes
        // into a `git add -A`, and the command commits what it wrote, as `bridge save` does.
        let rune = Rune::of(project);
        let outcome = save::commit(project, &rune, &[rules::IGNORE]);
        report.push_str(&format!(
            "- **Git commit**: {outcome} — {} (written now), so the checkpoint stays yours\n",
            rune.show(rules::IGNORE)
        ));
    }
    io::print(&project.redact(&report));
    Ok(0)
}

/// `baton bridge integrity`: exit 1 when TAINTED.
fn integrity_command(project: &Project, json: bool) -> Result<i32> {
    // An explicit scan reads every file (no cache).
    let report = Scanner::uncached(project).scan(&Rune::of(project))?;
    if json {
        io::print_json(&report);
    } else {
        io::print(&project.redact(&integrity::render(&report)));
    }
    Ok(i32::from(
        report.status() == crate::core::scan::Status::Tainted,
    ))
}

/// `baton bridge invariants`: the preview, the payload, or the rules for one path.
fn invariants_command(
    project: &Project,
    json: bool,
    match_path: Option<&str>,
    budget_tokens: usize,
) -> i32 {
    let rune = Rune::of(project);
    let mut inv = invariants::read_within(&rune, project.now(), budget_tokens);
    if let Some(p) = match_path {
        let rel = invariants::relative(&project.root, p);
        inv.rules.retain(|r| invariants::matches(r, &rel));
    }
    if json {
        // The payload, every string through the redactor (as the signal carries it).
        match invariants::loaded_signal(&inv, project.redactor()) {
            Some(s) => io::print_json(&s.payload),
            None => io::print_json(&inv),
        }
    } else if let Some(p) = match_path {
        match invariants::for_edit(&inv, p, &rune.show(store::INVARIANTS)) {
            Some(t) => io::print(&project.redact(&t)),
            None => outln!("No invariant applies to {p}."),
        }
    } else if inv.loaded {
        outln!("{}", project.redact(&inv.preview));
        if inv.stale {
            outln!("\n⚠ Invariants file is stale (> 30 days since it changed).");
        }
    } else {
        outln!(
            "No invariants loaded — {} missing or without rules.",
            rune.show(store::INVARIANTS)
        );
    }
    0
}

/// `baton bridge learn`: one learning, checked, under the folder lock (refused while
/// `.rune/` or `.handoff/` holds an unresolved merge). It commits nothing: the next save does.
fn learn_command(project: &Project, l: &learn::Learning) -> Result<i32> {
    l.check()?;
    integrity::refuse_unresolved(project, "not recorded")?;
    let rune = Rune::of(project);
    let by = author::current(project);
    let compacted = {
        let _lock = rune.lock()?;
        learn::append_all(
            &rune,
            project.redactor(),
            std::slice::from_ref(l),
            project.now(),
            by.as_deref(),
        )?
    };
    let ledger = provenance::Ledger::of(project);
    let r = learn::record_appended(
        &ledger,
        project.redactor(),
        std::slice::from_ref(l),
        project.now(),
        by.as_deref(),
    );
    provenance::note(r, false);
    let promoted = global::location(&project.ctx.env)
        .map(|dir| global::propose(project, &dir, &[l.candidate()]))
        .unwrap_or_default();
    outln!(
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
    if !promoted.is_empty() {
        outln!(
            "Seen in 2+ projects: proposed for every project; accept it with `baton bridge global accept ID` (`baton bridge global list`)."
        );
    }
    Ok(0)
}

/// `baton bridge learnings`.
fn learnings_command(
    project: &Project,
    kind: Option<&str>,
    skill: Option<&str>,
    limit: Option<usize>,
    json: bool,
) -> Result<i32> {
    let recs = learn::query(&Rune::of(project), kind, skill, limit)?;
    if json {
        io::print_json(&recs);
    } else {
        io::print(&project.redact(&learn::render(&recs)));
    }
    Ok(0)
}

/// `baton bridge detach`: the dispatch from YAML or JSON on stdin; prints one JSON line.
fn detach_command(project: &Project) -> Result<i32> {
    let d: detach::Dispatch = crate::core::yaml::parse(&stdin_text()?, "stdin")?;
    let out = detach::detach(
        &Rune::of(project),
        &d,
        project.now(),
        project.ctx.clock.random_u64(),
    )?;
    io::print_json(&out);
    Ok(0)
}

/// `baton bridge reattach`: the result (one JSON line with `--json`), then the
/// `oracle.failed` signal line when this call failed the record.
fn reattach_command(project: &Project, session_id: &str, json: bool) -> Result<i32> {
    let out = detach::reattach(&Rune::of(project), session_id, project.now())?;
    if json {
        io::print_json(&out);
    } else {
        io::print(&project.redact(&reattach_text(&out)));
    }
    if let Some(payload) = &out.failed {
        Signal::new("oracle.failed", payload, project.redactor())?.print();
    }
    Ok(0)
}

/// What a reattach found, for a person.
fn reattach_text(r: &detach::Reattached) -> String {
    match r.status.as_str() {
        "complete" => format!(
            "{}: complete (response {}).\n{}\n",
            r.session_id,
            r.response_id.as_deref().unwrap_or("without an id"),
            r.response_excerpt.as_deref().unwrap_or("")
        ),
        "not_ready" => format!(
            "{}: not ready; it times out at {}. Go on with other work and reattach later.\n",
            r.session_id, r.timeout_at
        ),
        _ => format!(
            "{}: failed ({}); the second model's answer will not come.\n",
            r.session_id,
            r.reason.as_deref().unwrap_or("timeout")
        ),
    }
}

/// `baton bridge complete`: the response excerpt from stdin, redacted.
fn complete_command(project: &Project, session_id: &str, response_id: &str) -> Result<i32> {
    let r = detach::complete(
        &Rune::of(project),
        session_id,
        response_id,
        &stdin_text()?,
        project.redactor(),
    )?;
    outln!(
        "Record {} is complete; `baton bridge reattach {}` returns it.",
        r.session_id,
        r.session_id
    );
    Ok(0)
}

/// `baton bridge cleanup`.
fn cleanup_command(project: &Project) -> Result<i32> {
    let n = detach::cleanup(&Rune::of(project), project.now())?;
    outln!(
        "Removed {n} orphaned pending record{} (older than 24 hours).",
        if n == 1 { "" } else { "s" }
    );
    Ok(0)
}

/// `baton bridge status`.
fn status_command(project: &Project, json: bool) -> Result<i32> {
    let s = status::folder_status(project)?;
    if json {
        io::print_json(&s);
    } else {
        io::print(&project.redact(&status::render_folder_status(&s)));
    }
    Ok(0)
}
