//! One search: recall's private index (index/) is brought up to date and gives the
//! documents it holds that match; every store's reader (the project's `doc_sources`, each
//! owned by the subsystem that writes the store) runs over one `Scan` whose filter is the
//! query's kinds, time range and prefilter, and reads only what the index does not hold (or
//! everything, without an index); what matches is ranked (rank.rs); the best documents the
//! index found are read again from their files; the hits are redacted and get their excerpt.

use super::excerpt::excerpt;
use super::index::{identity, Index, OnlyGate};
use super::query::Query;
use super::rank::{collapse, Ranked, Ranker};
use super::terms::{term, terms};
use super::words::{is_stop, words};
use crate::core::error::Result;
use crate::core::project::Project;
use crate::core::recall::{Doc, Filter, Kind, Scan, ScanStats, Scope, Trust};
use crate::core::{time, trust};
use chrono::{DateTime, Utc};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
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

/// Runs `req` over the project's stores, through the project's index when there is one.
pub(crate) fn search(project: &Project, req: &Request) -> Result<Outcome> {
    let mut index = Index::open(project);
    search_with(project, req, index.as_mut())
}

/// Runs `req` with `index` (kept open by `baton mcp` between calls): the index is brought up
/// to date, gives the documents it holds that match, and the readers read only what it does
/// not hold. A query with phrases, or an index that cannot be updated, is a plain scan.
pub(crate) fn search_with(
    project: &Project,
    req: &Request,
    index: Option<&mut Index>,
) -> Result<Outcome> {
    let started = Instant::now();
    let (index, withheld): (Option<&Index>, Vec<String>) = match index {
        Some(i) if req.query.phrases.is_empty() => match i.update(project) {
            Ok(withheld) => (Some(&*i), withheld),
            Err(_) => (None, Vec::new()),
        },
        _ => (None, Vec::new()),
    };
    // Expansions count by their rarity where the index knows it (a plain scan does not).
    let weighed;
    let req = match index {
        Some(ix) => {
            let mut query = req.query.clone();
            query.weigh_alternatives(|t| ix.rarity(t));
            weighed = Request {
                query,
                ..req.clone()
            };
            &weighed
        }
        None => req,
    };
    let filter = Filter {
        kinds: req.kinds.clone(),
        since: req.since,
        until: req.until,
        prefilter: Some(req.query.prefilter()?),
        only: None,
    };
    let mut ranker = Ranker::new(&req.query, project.now());
    let indexed = match index {
        Some(ix) => ix.candidates(&req.query, &filter, &mut ranker)?,
        None => 0,
    };
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
        // The index's update has just read the indexed stores: only the others are read.
        let stores = run_sources_but(project, &mut scan, req.global, index.is_some());
        if let Some(ix) = index {
            let (n, examples) = ix.corrupt();
            scan.add_corrupt(n, examples);
            for w in withheld {
                scan.withheld(w);
            }
        }
        (scan.into_stats(), stores)
    };
    let mut stats = stats;
    stats.docs += indexed;
    let matched = ranker.matched();
    let best = ranker.finish(stats.docs, req.limit, &|d| index.and_then(|ix| ix.made(d)));
    let shown: Vec<Ranked> = read_again(project, best)
        .into_iter()
        .filter(|r| r.from_index.is_none() || !is_a_question(&r.doc, &asked, wants_prompts))
        .collect();
    let hits = collapse(shown, req.limit)
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

/// A document's identity among what a reader gives (`index::identity`).
type Id = (String, Option<usize>, Option<String>);

/// The documents the index found, read again from their files to be shown (what the index
/// keeps is only what the ranking needs); one whose file changed meanwhile is left out.
fn read_again(project: &Project, ranked: Vec<Ranked>) -> Vec<Ranked> {
    let files: HashSet<String> = ranked.iter().filter_map(|r| r.from_index.clone()).collect();
    if files.is_empty() {
        return ranked;
    }
    let wanted: HashSet<Id> = ranked
        .iter()
        .filter(|r| r.from_index.is_some())
        .map(|r| identity(&r.doc))
        .collect();
    let mut only: HashMap<String, HashSet<usize>> = HashMap::new();
    for (source, line, _) in &wanted {
        let lines = only.entry(source.clone()).or_default();
        lines.extend(*line);
    }
    let mut found: HashMap<Id, Doc> = HashMap::new();
    {
        let filter = Filter {
            only: Some(only),
            ..Filter::default()
        };
        let mut sink = |d: Doc| {
            let id = identity(&d);
            if wanted.contains(&id) {
                found.insert(id, d);
            }
        };
        let mut gate = OnlyGate(files);
        let mut scan = Scan::gated(&filter, &mut sink, &mut gate);
        for source in project.doc_sources() {
            if source.indexed && source.scope == Scope::Project {
                (source.read)(project, &mut scan);
            }
        }
    }
    ranked
        .into_iter()
        .filter_map(|mut r| {
            if r.from_index.is_some() {
                r.doc = found.remove(&identity(&r.doc))?;
            }
            Some(r)
        })
        .collect()
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
    run_sources_but(project, scan, global, false)
}

/// `run_sources`; with `indexed` (the index just read them), the indexed readers are named
/// as run but not run again.
fn run_sources_but(
    project: &Project,
    scan: &mut Scan<'_>,
    global: bool,
    indexed: bool,
) -> Vec<&'static str> {
    let mut ran = Vec::new();
    for source in project.doc_sources() {
        if (source.scope == Scope::User && !global) || !scan.wants_any(source.kinds) {
            continue;
        }
        if !(indexed && source.indexed && source.scope == Scope::Project) {
            (source.read)(project, scan);
        }
        ran.push(source.name);
    }
    ran
}

/// A ranked document as shown: every part redacted, the excerpt cut from the redacted text.
fn hit(project: &Project, query: &Query, doc: &Doc, score: f32, similar: usize) -> Hit {
    let red = |s: &str| project.redact(s);
    let (text, answer) = redact_parts(project, &doc.text, &doc.answer);
    let (mut excerpt, lines_before) = excerpt(&text, &answer, query, EXCERPT_WIDTH);
    let mut title = red(&doc.title);
    let (mut trust, mut trust_note) = match &doc.trust {
        None => (None, None),
        Some(t @ Trust::Reviewed) => (Some(t.as_str()), None),
        Some(t @ (Trust::Unreviewed(why) | Trust::Suspicious(why))) => {
            (Some(t.as_str()), Some(red(why)))
        }
    };
    // Every channel to the model holds to one trust rule (core::trust): what is neither the
    // user's nor a reviewed save (a record of tool output, a model's words, an unreviewed
    // entry) is scanned as shown; a flagged hit is quoted, a blocked one is named, not shown.
    if !matches!(doc.trust, Some(Trust::Reviewed | Trust::Suspicious(_))) {
        let v = trust::verdict(&format!("{title}\n{excerpt}"), project.redactor());
        if let (true, Some(rule)) = (v.flagged(), v.rule) {
            trust = Some("suspicious");
            trust_note = Some(format!("integrity rule {rule}"));
        }
        if v.blocked() {
            title = trust::left_out(v.rule.unwrap_or("unknown"));
            excerpt.clear();
        }
    }
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
        title,
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
