//! Ranking: BM25F over terms (k1 = 1.2, b = 0.75), each query word and each phrase scoring
//! on its own, its frequency weighed by the field it stands in — the title
//! (`TITLE_WEIGHT`), the parts of the body that answer (`ANSWER_WEIGHT`: a decision's
//! rationale, a turn's conclusion, an error line), the rest of the body (1) — and then:
//!
//! * the share of the query's parts a document matches multiplies its score, so a document
//!   with all the words beats one that repeats a rare one;
//! * a prior by kind (`prior`): what someone saved or said — decisions, learnings,
//!   corrections, conventions, a session's conclusions — above raw tool calls, whose input
//!   repeats the words they searched for;
//! * the kinds the question points at (intent.rs) count `HINT_BOOST` times, failures
//!   `FAILURE_BOOST` times when it asks what failed;
//! * newer documents a little more (`RECENCY`, halving every `HALF_LIFE_DAYS`: a tie-breaker;
//!   more when the question asks for the last or latest).
//!
//! Near-duplicates (the same text again: a retried command, a correction repeated) collapse
//! into the best of them, which says how many it stands for.
//!
//! The document frequencies come from the documents that passed the prefilter, the
//! document count from everything the stores hold in range. Very broad queries keep the
//! `KEEP` best candidates by a provisional score whenever more than `KEEP_MAX` pile up, so
//! memory stays bounded over a million records.

use super::query::{Query, Term};
use super::terms::each_term;
use crate::core::recall::{Doc, Kind};
use chrono::{DateTime, Utc};
use std::collections::HashSet;

const K1: f32 = 1.2;
const B: f32 = 0.75;
/// How much a title word counts against a body word.
const TITLE_WEIGHT: f32 = 2.5;
/// How much a word in a part that answers counts against a body word.
const ANSWER_WEIGHT: f32 = 1.8;
/// The factor for documents of a kind the question points at.
const HINT_BOOST: f32 = 1.8;
/// The least prior of a kind the question asks for.
const HINTED_PRIOR: f32 = 1.2;
/// The factor for failures when the question asks what failed.
const FAILURE_BOOST: f32 = 1.6;
/// The most a document gains for being new (`RECENT` when the question asks for it).
const RECENCY: f32 = 0.05;
const RECENT: f32 = 0.6;
const HALF_LIFE_DAYS: f32 = 30.0;
/// How much of a document's score its coverage of the question decides (the exponent).
const COVERAGE_POWER: f32 = 1.5;
/// How many kinds there are (tables by kind).
const KINDS: usize = Kind::ALL.len();
/// Candidates kept when pruning, and the number that triggers it.
const KEEP: usize = 2_000;
const KEEP_MAX: usize = 10_000;
/// Two documents of a kind whose first words overlap this much are one.
const DUPLICATE: f32 = 0.85;
/// Words of a document compared for near-duplicates.
const SIGNATURE_WORDS: usize = 48;

/// The prior of a document by what it is: saved knowledge and what the user said above
/// what a tool was asked.
fn prior(kind: Kind, failed: bool) -> f32 {
    match kind {
        Kind::Decision => 1.4,
        Kind::Learning | Kind::Correction => 1.3,
        Kind::Convention => 1.25,
        Kind::Session => 1.2,
        Kind::Note | Kind::Handoff => 1.1,
        Kind::Progress => 1.0,
        Kind::Packet => 0.9,
        Kind::Prompt => 0.75,
        Kind::Tool | Kind::Change if failed => 0.9,
        Kind::Change => 0.6,
        Kind::Tool => 0.5,
    }
}

/// A document the index holds: where (segment, number), and what the score needs of it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct IndexedDoc {
    pub(crate) at: (u32, u32),
    pub(crate) kind: Kind,
    pub(crate) ts: Option<DateTime<Utc>>,
    pub(crate) failed: bool,
}

/// What matched: a document read now, or one the index holds (made a `Doc` only if it
/// ranks among the best).
enum Item {
    Read(Box<Doc>),
    Indexed(IndexedDoc),
}

impl Item {
    fn kind(&self) -> Kind {
        match self {
            Item::Read(d) => d.kind,
            Item::Indexed(i) => i.kind,
        }
    }
    fn ts(&self) -> Option<DateTime<Utc>> {
        match self {
            Item::Read(d) => d.ts,
            Item::Indexed(i) => i.ts,
        }
    }
    fn failed(&self) -> bool {
        match self {
            Item::Read(d) => d.failed,
            Item::Indexed(i) => i.failed,
        }
    }
    /// A stable order among equals: the place a read document stands, an indexed one's.
    fn place(&self) -> (&str, usize, (u32, u32)) {
        match self {
            Item::Read(d) => (d.source.as_str(), d.line.unwrap_or(0), (0, 0)),
            Item::Indexed(i) => ("", 0, i.at),
        }
    }
}

/// A document that matched, with what the score needs.
struct Candidate {
    item: Item,
    /// Weighted term frequency per query part (words, then phrases).
    tf: Vec<f32>,
    /// Terms in the document.
    len: f32,
}

/// A ranked document.
#[derive(Debug, Clone)]
pub(crate) struct Ranked {
    pub(crate) doc: Doc,
    pub(crate) score: f32,
    /// Near-duplicates it stands for.
    pub(crate) similar: usize,
    /// The file the index found it in: `doc` holds only what the ranking needs.
    pub(crate) from_index: Option<String>,
}

/// Collects matching documents and ranks them.
pub(crate) struct Ranker<'q> {
    query: &'q Query,
    weights: Vec<f32>,
    now: DateTime<Utc>,
    candidates: Vec<Candidate>,
    /// Documents containing each part.
    df: Vec<u64>,
    /// Sum of lengths and count of matching documents per kind (for the average length).
    lengths: [(f64, u64); KINDS],
    /// Documents that matched, pruned or not.
    matched: u64,
}

impl<'q> Ranker<'q> {
    pub(crate) fn new(query: &'q Query, now: DateTime<Utc>) -> Ranker<'q> {
        Ranker {
            query,
            weights: query.unit_weights(),
            now,
            candidates: Vec::new(),
            df: vec![0; query.units()],
            lengths: [(0.0, 0); KINDS],
            matched: 0,
        }
    }

    /// How many documents matched.
    pub(crate) fn matched(&self) -> u64 {
        self.matched
    }

    /// Takes `doc` when it matches the query (every phrase, and at least one part).
    pub(crate) fn add(&mut self, doc: Doc) {
        let mut tf = vec![0.0f32; self.query.units()];
        let len = count_into(&doc, self.query, &mut tf);
        self.push(Item::Read(Box::new(doc)), tf, len);
    }

    /// Takes a document the index holds, with its weighted term frequencies and length as
    /// `add` would have counted them.
    pub(crate) fn add_indexed(&mut self, doc: IndexedDoc, tf: Vec<f32>, len: usize) {
        self.push(Item::Indexed(doc), tf, len);
    }

    fn push(&mut self, item: Item, tf: Vec<f32>, len: usize) {
        let q = self.query;
        let phrases_ok = tf[q.terms.len()..].iter().all(|f| *f > 0.0);
        if !phrases_ok || tf.iter().all(|f| *f == 0.0) {
            return;
        }
        self.matched += 1;
        for (d, f) in self.df.iter_mut().zip(&tf) {
            if *f > 0.0 {
                *d += 1;
            }
        }
        let e = &mut self.lengths[item.kind().index()];
        #[allow(clippy::cast_precision_loss)] // word counts far below 2^52
        let words = len as f64;
        e.0 += words;
        e.1 += 1;
        #[allow(clippy::cast_precision_loss)] // word counts far below 2^24
        self.candidates.push(Candidate {
            item,
            tf,
            len: len as f32,
        });
        if self.candidates.len() > KEEP_MAX {
            // An estimate of the document count: what matched so far, at least.
            let n = self.matched.max(1);
            self.keep_best(n, KEEP);
        }
    }

    /// The best documents, best first: enough for `limit` hits once near-duplicates are
    /// collapsed (`collapse`); `docs` is how many documents the stores hold (the N of BM25).
    /// An indexed document is made by `indexed` (what the ranking needs, and its file).
    pub(crate) fn finish(
        mut self,
        docs: u64,
        limit: usize,
        indexed: &dyn Fn(&IndexedDoc) -> Option<(Doc, String)>,
    ) -> Vec<Ranked> {
        let n = docs.max(self.matched);
        let scores = self.keep_best(n, limit.saturating_mul(4).max(limit + 8));
        self.candidates
            .into_iter()
            .zip(scores)
            .filter_map(|(c, score)| {
                let (doc, from_index) = match c.item {
                    Item::Read(d) => (*d, None),
                    Item::Indexed(i) => {
                        let (d, file) = indexed(&i)?;
                        (d, Some(file))
                    }
                };
                Some(Ranked {
                    doc,
                    score,
                    similar: 0,
                    from_index,
                })
            })
            .collect()
    }

    /// Scores every candidate over `n` documents, keeps the best `k` (best first) and
    /// returns their scores.
    fn keep_best(&mut self, n: u64, k: usize) -> Vec<f32> {
        let idf: Vec<f32> = self.df.iter().map(|&d| idf(n, d)).collect();
        #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
        let avg: [f32; KINDS] = self
            .lengths
            .map(|(sum, count)| (sum / count.max(1) as f64).max(1.0) as f32);
        let mut scored: Vec<(f32, Candidate)> = std::mem::take(&mut self.candidates)
            .into_iter()
            .map(|c| (self.score(&c, &idf, &avg), c))
            .collect();
        let order = |(sa, a): &(f32, Candidate), (sb, b): &(f32, Candidate)| {
            sb.total_cmp(sa)
                .then_with(|| b.item.ts().cmp(&a.item.ts()))
                .then_with(|| a.item.place().cmp(&b.item.place()))
        };
        // The best k first (a partial selection), then only those sorted.
        if k < scored.len() {
            scored.select_nth_unstable_by(k, order);
            scored.truncate(k);
        }
        scored.sort_by(order);
        let kept_scores = scored.iter().map(|(s, _)| *s).collect();
        self.candidates = scored.into_iter().map(|(_, c)| c).collect();
        kept_scores
    }

    fn score(&self, c: &Candidate, idf: &[f32], avg: &[f32; KINDS]) -> f32 {
        let kind = c.item.kind();
        let avgdl = avg[kind.index()];
        let mut score = 0.0;
        let (mut got, mut all) = (0.0f32, 0.0f32);
        for (i, &f) in c.tf.iter().enumerate() {
            let w = self.weights[i];
            all += w;
            if f > 0.0 {
                got += w;
                score += w * idf[i] * f * (K1 + 1.0) / (f + K1 * (1.0 - B + B * c.len / avgdl));
            }
        }
        score *= (got / all.max(f32::EPSILON)).powf(COVERAGE_POWER);
        let intent = &self.query.intent;
        // A kind the question asks for is not held back by its prior.
        let prior = prior(kind, c.item.failed());
        if self.query.hints.contains(&kind) {
            score *= prior.max(HINTED_PRIOR) * HINT_BOOST;
        } else {
            score *= prior;
        }
        if intent.failure && c.item.failed() {
            score *= FAILURE_BOOST;
        }
        if let Some(ts) = c.item.ts() {
            #[allow(clippy::cast_precision_loss)] // days: far below 2^24
            let age_days = ((self.now - ts).num_seconds().max(0) as f32) / 86_400.0;
            let weight = if self.query.recent { RECENT } else { RECENCY };
            score *= 1.0 + weight * 0.5f32.powf(age_days / HALF_LIFE_DAYS);
        }
        score
    }
}

/// BM25's inverse document frequency of a term that `df` of `n` documents hold.
#[allow(clippy::cast_precision_loss)] // document counts: a float is what BM25 takes
pub(crate) fn idf(n: u64, df: u64) -> f32 {
    let (n, d) = (n as f32, df as f32);
    (1.0 + (n - d + 0.5) / (d + 0.5)).ln()
}

/// Near-duplicates collapsed: the first `limit` documents that are not one of an earlier
/// one's near-duplicates, each saying how many it stands for.
pub(crate) fn collapse(ranked: Vec<Ranked>, limit: usize) -> Vec<Ranked> {
    let mut out: Vec<(Ranked, HashSet<String>)> = Vec::new();
    for r in ranked {
        let sig = signature(&r.doc);
        if let Some((kept, _)) = out
            .iter_mut()
            .find(|(k, s)| k.doc.kind == r.doc.kind && overlap(s, &sig) >= DUPLICATE)
        {
            kept.similar += 1;
            continue;
        }
        if out.len() < limit {
            out.push((r, sig));
        }
    }
    out.into_iter().map(|(r, _)| r).collect()
}

/// Calls `f(field, term, weight, extra)` for every term of a document, in order: the
/// title's (field 0) at `TITLE_WEIGHT`, the text's (field 1) at `ANSWER_WEIGHT` in the parts
/// that answer and 1 elsewhere; `extra` for a compound's or camelCase word's extra term.
/// The ranking and the index count a document by it alike.
pub(crate) fn each_weighted(doc: &Doc, mut f: impl FnMut(usize, &str, f32, bool)) {
    each_term(&doc.title, |_, _, t, extra| f(0, t, TITLE_WEIGHT, extra));
    let answer = &doc.answer;
    each_term(&doc.text, |s, _, t, extra| {
        let w = if answer.iter().any(|r| r.contains(&s)) {
            ANSWER_WEIGHT
        } else {
            1.0
        };
        f(1, t, w, extra);
    });
}

/// Adds the weighted matches of the document's terms to `tf` (query words first, then
/// phrases) and returns how many terms it has (extras not counted).
fn count_into(doc: &Doc, q: &Query, tf: &mut [f32]) -> usize {
    let words = q.terms.len();
    let mut progress = vec![0usize; q.phrases.len()];
    let (mut n, mut at_field) = (0, 0);
    each_weighted(doc, |field, t, w, extra| {
        if field != at_field {
            // A phrase runs within one field.
            progress.fill(0);
            at_field = field;
        }
        for (i, qt) in q.terms.iter().enumerate() {
            let m = qt.weight(t);
            if m > 0.0 {
                tf[i] += m * w;
            }
        }
        if extra {
            return;
        }
        n += 1;
        for (p, phrase) in q.phrases.iter().enumerate() {
            progress[p] = advance(phrase, progress[p], t);
            if progress[p] == phrase.len() {
                tf[words + p] += w;
                progress[p] = 0;
            }
        }
    });
    n
}

/// How many words of `phrase` have matched in a row after `w`, given `done` before it.
fn advance(phrase: &[Term], done: usize, w: &str) -> usize {
    if phrase[done].weight(w) > 0.0 {
        done + 1
    } else {
        // A broken run may start again at this word.
        usize::from(done > 0 && phrase[0].weight(w) > 0.0)
    }
}

/// The first words of a document's title and text, for the near-duplicate test.
fn signature(doc: &Doc) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut n = 0;
    for text in [&doc.title, &doc.text] {
        each_term(text, |_, _, t, extra| {
            if !extra && n < SIGNATURE_WORDS {
                n += 1;
                out.insert(t.to_string());
            }
        });
    }
    out
}

/// The Jaccard overlap of two signatures.
#[allow(clippy::cast_precision_loss)] // a few dozen words
fn overlap(a: &HashSet<String>, b: &HashSet<String>) -> f32 {
    let union = a.union(b).count();
    if union == 0 {
        return 1.0;
    }
    a.intersection(b).count() as f32 / union as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::time;

    fn doc(kind: Kind, title: &str, text: &str, ts: &str) -> Doc {
        let mut d = Doc::new(kind, "src", title);
        d.text = text.to_string();
        d.ts = time::parse(ts);
        d
    }

    fn rank(query: &str, docs: Vec<Doc>) -> Vec<String> {
        let q = Query::parse(query).unwrap();
        let now = time::parse("2026-11-30T10:15:00Z").unwrap();
        let mut r = Ranker::new(&q, now);
        let n = docs.len() as u64;
        for d in docs {
            r.add(d);
        }
        r.finish(n, 10, &|_| None)
            .into_iter()
            .map(|r| r.doc.title)
            .collect()
    }

    #[test]
    fn all_the_words_beat_one_repeated() {
        let got = rank(
            "cache eviction",
            vec![
                doc(
                    Kind::Note,
                    "cache cache cache",
                    "cache cache",
                    "2026-11-29T00:00:00Z",
                ),
                doc(
                    Kind::Note,
                    "evict the cache by LRU",
                    "",
                    "2026-11-01T00:00:00Z",
                ),
                doc(Kind::Note, "unrelated", "nothing", "2026-11-29T00:00:00Z"),
            ],
        );
        assert_eq!(got, vec!["evict the cache by LRU", "cache cache cache"]);
    }

    #[test]
    fn phrases_must_match_in_order() {
        let got = rank(
            "\"retry queue\"",
            vec![
                doc(Kind::Note, "queue the retry", "", "2026-11-29T00:00:00Z"),
                doc(
                    Kind::Note,
                    "the retry queue is full",
                    "",
                    "2026-11-29T00:00:00Z",
                ),
                doc(Kind::Note, "retry retry queue", "", "2026-11-29T00:00:00Z"),
            ],
        );
        assert_eq!(got, vec!["retry retry queue", "the retry queue is full"]);
    }

    #[test]
    fn the_kind_a_question_names_wins_a_tie_and_newer_wins_the_rest() {
        let got = rank(
            "what did we decide about the cache",
            vec![
                doc(Kind::Note, "cache notes", "", "2026-11-29T00:00:00Z"),
                doc(Kind::Decision, "cache policy", "", "2026-11-01T00:00:00Z"),
            ],
        );
        assert_eq!(got[0], "cache policy");
        let got = rank(
            "cache",
            vec![
                doc(Kind::Note, "cache a", "", "2026-01-01T00:00:00Z"),
                doc(Kind::Note, "cache b", "", "2026-11-29T00:00:00Z"),
            ],
        );
        assert_eq!(got, vec!["cache b", "cache a"]);
    }

    #[test]
    fn many_candidates_stay_bounded_and_the_best_survive() {
        let q = Query::parse("needle rare").unwrap();
        let now = time::parse("2026-11-30T10:15:00Z").unwrap();
        let mut r = Ranker::new(&q, now);
        for i in 0..30_000 {
            r.add(doc(
                Kind::Tool,
                &format!("needle {i}"),
                "",
                "2026-11-29T00:00:00Z",
            ));
        }
        r.add(doc(Kind::Tool, "needle rare", "", "2026-11-29T00:00:00Z"));
        assert!(r.candidates.len() <= KEEP_MAX);
        assert_eq!(r.matched(), 30_001);
        let top = r.finish(1_000_000, 3, &|_| None);
        assert_eq!(top[0].doc.title, "needle rare");
    }
}
