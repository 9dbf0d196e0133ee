//! One search: every store's reader (the project's `doc_sources`, each owned by the subsystem
//! that writes the store) is run over one `Scan` whose filter is the query's kinds, time range
//! and prefilter; what passes is ranked (rank.rs); the best hits are redacted and get their
//! excerpt. Nothing is indexed: a streaming scan of a busy year of state (a million audit
//! records, 10,000 decisions, 50,000 learnings) takes well under a second (docs/recall.md),
//! so there is no derived state to keep current, and nothing on the hook path.

use super::excerpt::excerpt;
use super::query::Query;
use super::rank::Ranker;
use super::words::words;
use crate::core::error::Result;
use crate::core::project::Project;
use crate::core::recall::{Doc, Filter, Kind, Scan, ScanStats, Scope};
use crate::core::time;
use chrono::{DateTime, Utc};
use serde::Serialize;
use std::time::{Duration, Instant};

/// Characters of a hit's excerpt.
const EXCERPT_WIDTH: usize = 220;

/// What to search for.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    pub(crate) query: Query,
    /// Only these kinds (empty: all).
    pub(crate) kinds: Vec<Kind>,
    pub(crate) since: Option<DateTime<Utc>>,
    pub(crate) until: Option<DateTime<Utc>>,
    /// The most hits.
    pub(crate) limit: usize,
    /// Also the user's cross-project store.
    pub(crate) global: bool,
}

/// One hit, redacted, as shown and as `--json` prints it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Hit {
    pub(crate) kind: &'static str,
    /// RFC 3339, UTC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) ts: Option<String>,
    pub(crate) source: String,
    /// The line of the excerpt in `source`, for line-based stores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) session: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) author: Option<String>,
    pub(crate) title: String,
    /// The matched words marked `**…**`.
    pub(crate) excerpt: String,
    pub(crate) score: f32,
    #[serde(skip)]
    pub(crate) at: Option<DateTime<Utc>>,
}

/// What a search found.
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    pub(crate) hits: Vec<Hit>,
    /// Documents that matched (the hits are the best of them).
    pub(crate) matched: u64,
    pub(crate) stats: ScanStats,
    /// The readers that ran (`bridge`, `audit`, …).
    pub(crate) stores: Vec<&'static str>,
    pub(crate) elapsed: Duration,
}

/// Runs `req` over the project's stores.
pub(crate) fn search(project: &Project, req: &Request) -> Result<Outcome> {
    let started = Instant::now();
    let filter = Filter {
        kinds: req.kinds.clone(),
        since: req.since,
        until: req.until,
        prefilter: Some(req.query.prefilter()?),
    };
    let mut ranker = Ranker::new(&req.query, project.now());
    let asked = words(&req.query.text);
    let (stats, stores) = {
        let mut sink = |d: Doc| {
            if !is_the_question(&d, &asked) {
                ranker.add(d);
            }
        };
        let mut scan = Scan::new(&filter, &mut sink);
        let stores = run_sources(project, &mut scan, req.global);
        (scan.into_stats(), stores)
    };
    let matched = ranker.matched();
    let hits = ranker
        .finish(stats.docs, req.limit)
        .into_iter()
        .map(|r| hit(project, &req.query, &r.doc, r.score))
        .collect();
    Ok(Outcome {
        hits,
        matched,
        stats,
        stores,
        elapsed: started.elapsed(),
    })
}

/// Whether `doc` is the user asking this very question (the audit records the prompt, or
/// `/baton:recall …`, before the search runs): it would match every word and answer nothing.
fn is_the_question(doc: &Doc, asked: &[String]) -> bool {
    if doc.kind != Kind::Prompt {
        return false;
    }
    let said = words(&doc.text);
    let rest = match said.as_slice() {
        [b, r, rest @ ..] if b == "baton" && r == "recall" => rest,
        [r, rest @ ..] if r == "recall" => rest,
        all => all,
    };
    rest == asked
}

/// Runs every reader of the project's stores (and, with `global`, the user's) that can give
/// a wanted kind; returns the names of those that ran.
pub(crate) fn run_sources(
    project: &Project,
    scan: &mut Scan<'_>,
    global: bool,
) -> Vec<&'static str> {
    let mut ran = Vec::new();
    for source in project.doc_sources() {
        if (source.scope == Scope::User && !global) || !scan.wants_any(source.kinds) {
            continue;
        }
        (source.read)(project, scan);
        ran.push(source.name);
    }
    ran
}

/// A ranked document as shown: every part redacted, the excerpt cut from the redacted text.
fn hit(project: &Project, query: &Query, doc: &Doc, score: f32) -> Hit {
    let red = |s: &str| project.redact(s);
    let text = red(&doc.text);
    let (excerpt, lines_before) = excerpt(&text, query, EXCERPT_WIDTH);
    Hit {
        kind: doc.kind.as_str(),
        ts: doc.ts.map(time::rfc3339),
        source: red(&doc.source),
        line: doc.line.map(|l| l + lines_before),
        id: doc.id.as_deref().map(red),
        session: doc.session.as_deref().map(red),
        author: doc.author.as_deref().map(red),
        title: red(&doc.title),
        excerpt,
        score: (score * 1000.0).round() / 1000.0,
        at: doc.ts,
    }
}
