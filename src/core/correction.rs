//! Whether a user's prompt corrects the agent: it rejects or redirects what the agent just
//! did ("no, use the other API", "And no, don't use …", "No — don't put …", "use a BTreeMap
//! instead", "revert that", "you broke the build", "nein, nicht …", "не трогай …"). Capture
//! (the digest's corrections) and the audit trail (`user_correction` records) both ask here.
//!
//! A correction is recognised by its structure as well as its words, over the prompt's first
//! `HEAD_BYTES`, lower-cased and split into words and punctuation (`text`), without a regex:
//!
//! 1. fillers and conjunctions are skipped ("and", "ok but", "hmm,", "thanks, but", "please");
//! 2. what the prompt then opens with decides when it can (`rules::lead`): an interruption
//!    ("wait, …"), "actually, …", a "no" in any of eight languages with or without
//!    punctuation after it, a negated imperative ("don't …", "never …", "ne … pas", "no
//!    toques", "non usare", "не трогай"), an undo, "stop", "I meant …", "why did you …",
//!    "instead, …"; or it is a request that only looks like one ("don't forget …", "no,
//!    that's fine", "no rush", "actually, one more thing", "instead of …?");
//! 3. otherwise phrases that name the agent's mistake count anywhere in the start ("that's
//!    not what I asked", "you forgot …", "please don't …", "you shouldn't …"), and in the
//!    first sentence "… instead" unless it asks, and "you … the wrong …".
//!
//! The words are in `words`; a table of labelled prompts (`correction/prompts.tsv`) is the
//! test, with its precision and recall.

mod rules;
mod text;
mod words;

use rules::Verdict;

/// Bytes of a prompt's start that are read: a correction says so up front, and a long prompt
/// (a pasted log, a diff, a chat) would otherwise match on a quoted "no," or "I said".
pub const HEAD_BYTES: usize = 600;

/// Which rule found a correction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// "no, …", "nope", "no no no", "nein, …", "нет, …".
    Negation,
    /// "don't …", "never …", "please don't …", "you shouldn't …", "ne … pas", "no toques".
    NegatedImperative,
    /// "instead …", "use X instead", "rather than …", "not X but Y", "actually, …", "I'd
    /// rather …".
    Redirection,
    /// "I meant …", "I said …", "that's not what I asked".
    Meant,
    /// "revert that", "undo your last edit", "change it back", "Annule ça".
    Undo,
    /// "you broke …", "why did you …", "you forgot …".
    Complaint,
    /// "that's wrong", "wrong file", "you're on the wrong branch".
    Wrong,
    /// "stop", "stop doing that", "wait, that's the production database".
    Stop,
}

impl Rule {
    /// The rule's name, as the audit trail records it (`builtin:<name>`).
    pub fn name(self) -> &'static str {
        match self {
            Rule::Negation => "negation",
            Rule::NegatedImperative => "negated-imperative",
            Rule::Redirection => "redirection",
            Rule::Meant => "meant",
            Rule::Undo => "undo",
            Rule::Complaint => "complaint",
            Rule::Wrong => "wrong",
            Rule::Stop => "stop",
        }
    }
}

/// The rule by which `prompt` corrects the agent, or `None` when it does not.
pub fn classify(prompt: &str) -> Option<Rule> {
    let lower = text::lower(crate::core::text::prefix_bytes(prompt.trim(), HEAD_BYTES));
    let t = text::Text::new(&lower);
    let head = rules::skip_fillers(&t, 0);
    match rules::lead(&t, head) {
        Verdict::Correction(rule) => Some(rule),
        Verdict::Request => None,
        Verdict::Unknown => rules::anywhere(&t, head),
    }
}

#[cfg(test)]
mod tests;
