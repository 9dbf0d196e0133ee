//! One search: every store's reader (the project's `doc_sources`, each owned by the subsystem
//! that writes the store) is run over one `Scan` whose filter is the query's kinds, time range
//! and prefilter; what passes is ranked (rank.rs); the best hits are redacted and get their
//! excerpt. Nothing is indexed: a streaming scan of a busy year of state (a million audit
//! records, 10,000 decisions, 50,000 learnings) takes well under a second (docs/recall.md),
//! so there is no derived state to keep current, and nothing on the hook path.

use super::excerpt::excerpt;
use super::query::Query;
use super::rank::Ranker;
use super::terms::{term, terms};
use super::words::{is_stop, words};
use crate::core::error::Result;
use crate::core::project::Project;
use crate::core::recall::{Doc, Filter, Kind, Scan, ScanStats, Scope, Trust};
use crate::core::time;
use chrono::{DateTime, Utc};
use serde::Serialize;
use std::ops::Range;
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
    /// `reviewed`, `unreviewed` or `suspicious`, where the store says (the project's memory).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) trust: Option<&'static str>,
    /// Why it is not trusted: its origin, or the integrity rule that flagged it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) trust_note: Option<String>,
    pub(crate) title: String,
    /// The matched words marked `**…**`.
    pub(crate) excerpt: String,
    pub(crate) score: f32,
    /// Near-duplicates this hit stands for (left out of the list).
    #[serde(skip_serializing_if = "is_zero")]
    pub(crate) similar: usize,
    #[serde(skip)]
    pub(crate) at: Option<DateTime<Utc>>,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &usize) -> bool {
    *n == 0
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
    let asked = asked_terms(&req.query);
    let wants_prompts =
        req.query.hints.contains(&Kind::Prompt) || req.kinds.contains(&Kind::Prompt);
    let (stats, stores) = {
        let mut sink = |d: Doc| {
            if !is_a_question(&d, &asked, wants_prompts) {
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
        .map(|r| hit(project, &req.query, &r.doc, r.score, r.similar))
        .collect();
    Ok(Outcome {
        hits,
        matched,
        stats,
        stores,
        elapsed: started.elapsed(),
    })
}

/// The terms of the question's searched words.
fn asked_terms(query: &Query) -> Vec<String> {
    query.terms.iter().map(|t| t.norm.clone()).collect()
}

/// Whether `doc` is someone asking rather than answering: a call of recall itself (the
/// prompt `/baton:recall …`, a `baton recall` command, the MCP tool), or a prompt that asks
/// a question (the current prompt, an earlier one that asked the same) — unless the search
/// asks what the user asked, and then still the one that asks about the same things.
fn is_a_question(doc: &Doc, asked: &[String], wants_prompts: bool) -> bool {
    let calls_recall = |s: &str| {
        let s = s.trim_start();
        s.starts_with("/baton:recall")
            || s.starts_with("baton recall")
            || s.contains("baton__recall")
            || s.starts_with("recall ")
    };
    match doc.kind {
        Kind::Tool => {
            calls_recall(&doc.title) || calls_recall(doc.title.split(": ").nth(1).unwrap_or(""))
        }
        Kind::Prompt => {
            if calls_recall(&doc.text) {
                return true;
            }
            let text = doc.text.trim();
            let said = terms(text);
            // The question itself, typed as a prompt (this very search, or the same before):
            // no word of it that the question does not have.
            let content: Vec<String> = words(text)
                .iter()
                .filter(|w| !is_stop(w))
                .map(|w| term(w))
                .collect();
            if !content.is_empty() && content.iter().all(|t| asked.contains(t)) {
                return true;
            }
            let first = text.split_whitespace().next().unwrap_or("").to_lowercase();
            let question = text.ends_with('?') || QUESTION_WORDS.contains(&first.as_str());
            if !question {
                return false;
            }
            // A question answers nothing, unless the question asks what was asked.
            if !wants_prompts {
                return true;
            }
            let shared = asked.iter().filter(|t| said.contains(t)).count();
            shared * 2 >= asked.len()
        }
        _ => false,
    }
}

/// Words a question to recall starts with.
const QUESTION_WORDS: &[&str] = &[
    "what", "why", "when", "where", "who", "which", "how", "did", "do", "does", "is", "are", "was",
    "were", "can", "could", "remind", "recall",
];

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
fn hit(project: &Project, query: &Query, doc: &Doc, score: f32, similar: usize) -> Hit {
    let red = |s: &str| project.redact(s);
    let (text, answer) = redact_parts(project, &doc.text, &doc.answer);
    let (excerpt, lines_before) = excerpt(&text, &answer, query, EXCERPT_WIDTH);
    let (trust, trust_note) = match &doc.trust {
        None => (None, None),
        Some(t @ Trust::Reviewed) => (Some(t.as_str()), None),
        Some(t @ (Trust::Unreviewed(why) | Trust::Suspicious(why))) => {
            (Some(t.as_str()), Some(red(why)))
        }
    };
    Hit {
        kind: doc.kind.as_str(),
        ts: doc.ts.map(time::rfc3339),
        source: red(&doc.source),
        line: doc.line.map(|l| l + lines_before),
        id: doc.id.as_deref().map(red),
        session: doc.session.as_deref().map(red),
        author: doc.author.as_deref().map(red),
        trust,
        trust_note,
        title: red(&doc.title),
        excerpt,
        score: (score * 1000.0).round() / 1000.0,
        similar,
        at: doc.ts,
    }
}

/// `text` redacted part by part, so the parts that answer still point at their text.
fn redact_parts(
    project: &Project,
    text: &str,
    answer: &[Range<usize>],
) -> (String, Vec<Range<usize>>) {
    let mut cuts: Vec<usize> = answer
        .iter()
        .flat_map(|r| [r.start, r.end])
        .filter(|&i| i <= text.len() && text.is_char_boundary(i))
        .collect();
    cuts.push(0);
    cuts.push(text.len());
    cuts.sort_unstable();
    cuts.dedup();
    let mut out = String::with_capacity(text.len());
    let mut map = vec![(0usize, 0usize)];
    for w in cuts.windows(2) {
        out.push_str(&project.redact(&text[w[0]..w[1]]));
        map.push((w[1], out.len()));
    }
    let at = |i: usize| {
        map.iter()
            .find(|(old, _)| *old == i)
            .map_or(0, |(_, new)| *new)
    };
    let spans = answer
        .iter()
        .map(|r| at(r.start)..at(r.end))
        .filter(|r| r.start < r.end)
        .collect();
    (out, spans)
}
