//! recall: ask the project's past. One search over every store baton keeps — the bridge's
//! memory, the audit trail, handoff artefacts, relay packets, the capture subsystem's
//! session digests and their turns, plus with `--global` the user's cross-project store —
//! from the CLI (`baton recall`, `baton timeline`), chat (`/baton:recall`) and the model's own
//! tools (`baton mcp`, an MCP server).
//!
//! Each store's format belongs to the subsystem that writes it, so each provides its own
//! reader (`<subsystem>/recall_docs.rs`, emitting `core::recall::Doc`s) and the hook bus wires
//! them into `Readers::doc_sources`; recall imports none of them.
//!
//! | file | job |
//! |---|---|
//! | words.rs | words and the stop words questions are made of |
//! | terms.rs | terms: abbreviations written out, British spellings, Snowball stems, compounds |
//! | thesaurus.rs | groups of software words that mean the same thing |
//! | intent.rs | what a question asks for: kinds, failures, the newest; its filler |
//! | query.rs | the query: terms, synonyms, phrases, prefixes; its errors; the prefilter |
//! | when.rs | `--since` / `--until` dates |
//! | rank.rs | BM25F with field weights, coverage, priors, intent and recency; near-duplicates |
//! | excerpt.rs | the marked excerpt of a hit, from the parts that answer |
//! | index/ | the private index the searches keep current (segment.rs: its format) |
//! | search.rs | one search: index → readers → scan → ranker → documents read again → hits |
//! | render.rs | text and JSON |
//! | timeline.rs | what happened in a range, by session |
//! | mcp.rs | the MCP server (JSON-RPC 2.0 over stdio) |

mod excerpt;
mod index;
mod intent;
mod mcp;
mod neighbours;
mod query;
mod rank;
mod render;
mod search;
mod terms;
mod thesaurus;
mod timeline;
mod when;
mod words;

use crate::core::error::{Error, Result};
use crate::core::project::Project;
use crate::core::recall::Kind;
use chrono::Duration;

/// `baton recall`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// What to look for: a question or words (each also finds its other forms, abbreviations
    /// and synonyms: `logging` finds log, `db` database), "quoted phrases" in order
    #[arg(required = true, num_args = 1.., value_name = "QUERY")]
    query: Vec<String>,
    /// Only these kinds (repeat, or separate with commas): decision, convention, learning,
    /// progress, note, correction, prompt, tool, change, handoff, packet, session
    #[arg(long, value_name = "KIND", value_delimiter = ',')]
    kind: Vec<String>,
    /// Only records from this time on: YYYY-MM-DD, RFC 3339, or an age like 7d, 12h, 2w
    #[arg(long, value_name = "DATE")]
    since: Option<String>,
    /// Only records before this time (same formats)
    #[arg(long, value_name = "DATE")]
    until: Option<String>,
    /// The most hits (1 to 100)
    #[arg(long, value_name = "N", default_value_t = 10)]
    limit: usize,
    /// Print JSON instead of text
    #[arg(long)]
    json: bool,
    /// Also search your cross-project store (promoted instincts)
    #[arg(long)]
    global: bool,
}

/// `baton timeline`.
#[derive(Debug, clap::Args)]
pub(crate) struct TimelineArgs {
    /// Start: YYYY-MM-DD, RFC 3339, or an age like 7d, 12h (default: 7d)
    #[arg(long, value_name = "DATE")]
    since: Option<String>,
    /// End (default: now)
    #[arg(long, value_name = "DATE")]
    until: Option<String>,
    /// Only this session (an audit session id, a handoff session id, a loop id)
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// The most sessions shown, newest kept
    #[arg(long, value_name = "N", default_value_t = 50)]
    limit: usize,
    /// Print JSON instead of text
    #[arg(long)]
    json: bool,
    /// Also the cross-project store
    #[arg(long)]
    global: bool,
}

/// The most hits `--limit` takes.
const LIMIT_MAX: usize = 100;

/// A line saying the search ran on the default config (and so maybe in other folders than the
/// user set), when the config has a problem.
pub(crate) fn config_warning(project: &Project) -> Option<String> {
    project.config_problems().first().map(|p| {
        format!(
            "warning: {}; searched with the default paths: fix .claude/baton.yaml (baton doctor lists all)",
            // A problem can quote the repository's config (a key's name, a value): a text
            // from a file of the repository, held to the trust rule.
            crate::core::trust::field(&project.redact(&p.to_string()), project.redactor())
        )
    })
}

/// Runs `baton recall`; returns the exit code (0 with hits or without).
pub(crate) fn run(args: &Args, project: &Project) -> Result<i32> {
    let query = query::Query::parse(&args.query.join(" "))?;
    let mut kinds = Vec::new();
    for k in args.kind.iter().filter(|k| !k.trim().is_empty()) {
        let kind = Kind::parse(k).ok_or_else(|| {
            Error::Usage(format!(
                "unknown kind {:?}: use one of {}",
                crate::core::text::clip(k, 40),
                Kind::names()
            ))
        })?;
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    if !(1..=LIMIT_MAX).contains(&args.limit) {
        return Err(Error::Usage(format!(
            "--limit {} is out of range: use 1 to {LIMIT_MAX}",
            args.limit
        )));
    }
    let since = args
        .since
        .as_deref()
        .map(|v| when::parse(v, project.now(), "--since"))
        .transpose()?;
    let until = args
        .until
        .as_deref()
        .map(|v| when::parse(v, project.now(), "--until"))
        .transpose()?;
    when::check_range(since, until)?;
    let req = search::Request {
        query,
        kinds,
        since,
        until,
        limit: args.limit,
        global: args.global,
    };
    let out = search::search(project, &req)?;
    if let Some(w) = config_warning(project) {
        eprintln!("baton: {w}");
    }
    if args.json {
        crate::core::io::print_json(&render::json(&out, &req));
    } else {
        crate::core::io::print(&render::text(&out, &req, None));
    }
    Ok(0)
}

/// Runs `baton timeline`.
pub(crate) fn run_timeline(args: &TimelineArgs, project: &Project) -> Result<i32> {
    let now = project.now();
    let since = match args.since.as_deref() {
        Some(v) => when::parse(v, now, "--since")?,
        None => now - Duration::days(7),
    };
    let until = args
        .until
        .as_deref()
        .map(|v| when::parse(v, now, "--until"))
        .transpose()?;
    when::check_range(Some(since), until)?;
    if args.limit == 0 {
        return Err(Error::Usage(
            "--limit 0 shows nothing: use 1 or more".into(),
        ));
    }
    let req = timeline::Request {
        since,
        until,
        session: args.session.clone(),
        limit: args.limit,
        global: args.global,
    };
    let t = timeline::timeline(project, &req);
    if let Some(w) = config_warning(project) {
        eprintln!("baton: {w}");
    }
    if args.json {
        crate::core::io::print_json(&t);
    } else {
        crate::core::io::print(&timeline::text(&t, None));
    }
    Ok(0)
}

/// Runs `baton mcp` until stdin closes.
pub(crate) fn run_mcp(project: &Project) -> i32 {
    mcp::serve(project)
}
