//! The rules, read in order over a prompt's tokens: first what the prompt opens with (after
//! fillers), then phrases anywhere in its start. The word lists are in `words`.

use super::text::{Kind, Text};
use super::words::{
    ACTUALLY, ACTUALLY_ADDS, ANSWER_AUX, ANSWER_REJECTS, ANSWER_SUBJECTS, ANYWHERE, AT_START,
    BACK_THEN, BACK_VERBS, DE_NL_IMPERATIVES, DE_NL_REQUEST, DONT_REQUEST, ENGLISH, ES_CLITICS,
    ES_REQUEST, FILLERS, FILLER_PHRASES, GO_BACK_TO, INSTEAD, INSTEAD_NOT, INTERRUPTS,
    INTERRUPT_AGREE, INTERRUPT_THEN, IT_REQUEST, NEGATIONS, NE_REQUEST, NOT_BEFORE_YOU,
    NOT_REQUEST, NOT_WORDS, NOT_WORDS_REQUEST, NO_I_THEN, NO_MORE, NO_REQUEST, NO_THEN,
    PARTICIPLES, PAS_REQUEST, PT_IMPERATIVES, PT_REQUEST, REDIRECT_START, REPLIES, RESTORE_WHAT,
    RU_NEGATED, RU_REQUEST, SPANISH, STOP_ALONE, STOP_FOREIGN, STOP_WHAT, UNDO_FOREIGN,
    UNDO_HISTORY, UNDO_NOUNS, UNDO_VERBS, UNDO_WHAT, YOU_ADVERBS, YOU_DID,
};
use super::Rule::{self, Complaint, NegatedImperative, Negation, Redirection, Stop, Undo};

/// What a rule made of a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    Correction(Rule),
    /// It only looks like one ("don't forget …", "no, that's fine"): no other rule is asked.
    Request,
    /// This rule cannot tell.
    Unknown,
}
use Verdict::{Correction, Request, Unknown};

fn is_in(word: Option<&str>, list: &[&str]) -> bool {
    word.is_some_and(|w| list.contains(&w))
}

/// The first token at or after `i` that is neither a filler nor punctuation (a `?` stops).
pub(super) fn skip_fillers(t: &Text<'_>, mut i: usize) -> usize {
    loop {
        match t.kind(i) {
            // "en" opens "en vez de", "en fait": not a filler there.
            Some(Kind::Word) if is_in(t.word(i), FILLERS) && !opens_phrase(t, i) => i += 1,
            Some(Kind::Word) => match t.any(i, FILLER_PHRASES) {
                Some(end) => i = end,
                None => return i,
            },
            Some(Kind::Question) | None => return i,
            Some(_) => i += 1,
        }
    }
}

fn opens_phrase(t: &Text<'_>, i: usize) -> bool {
    t.any(i, REDIRECT_START).is_some() || t.any(i, ACTUALLY).is_some()
}

/// What the prompt opens with, at `i` (after fillers).
pub(super) fn lead(t: &Text<'_>, i: usize) -> Verdict {
    if i >= t.len() {
        return Unknown;
    }
    let rules: [fn(&Text<'_>, usize) -> Verdict; 7] =
        [interrupt, actually, negation, negated, undo, stop, at_start];
    rules
        .iter()
        .map(|rule| rule(t, i))
        .find(|v| *v != Unknown)
        .unwrap_or(Unknown)
}

/// "wait, don't push", "hold on, that's the production database": a halt, unless what
/// follows agrees ("wait, you're right") or is not about the agent's work ("wait, is the
/// server still running?").
fn interrupt(t: &Text<'_>, i: usize) -> Verdict {
    let Some(mut j) = t.any(i, INTERRUPTS) else {
        return Unknown;
    };
    while let Some(again) = t.any(j, INTERRUPTS) {
        j = again; // "wait wait wait"
    }
    if t.word(j).is_some() || t.kind(j) == Some(Kind::Question) {
        return Unknown; // "wait for CI", "hold on to the connection"
    }
    let rest = skip_fillers(t, j);
    if rest >= t.len() {
        return Correction(Stop);
    }
    match lead(t, rest) {
        Unknown if t.any(rest, INTERRUPT_AGREE).is_some() => Unknown,
        Unknown if t.any(rest, INTERRUPT_THEN).is_some() => Correction(Stop),
        verdict => verdict,
    }
}

/// "actually, make it 3": a change of course, unless it adds, approves or asks.
fn actually(t: &Text<'_>, i: usize) -> Verdict {
    let Some(j) = t.any(i, ACTUALLY) else {
        return Unknown;
    };
    let rest = skip_punctuation(t, j);
    if rest >= t.len() {
        return Unknown;
    }
    let adds = t.any(rest, REPLIES).is_some() || t.any(rest, ACTUALLY_ADDS).is_some();
    if adds || t.is_question(rest) {
        return Request;
    }
    match lead(t, skip_fillers(t, rest)) {
        Unknown => Correction(Redirection),
        verdict => verdict,
    }
}

fn skip_punctuation(t: &Text<'_>, mut i: usize) -> usize {
    while i < t.len() && t.word(i).is_none() && t.kind(i) != Some(Kind::Question) {
        i += 1;
    }
    i
}

/// "no", "no, …", "no no no", "No — don't …", "nein, nicht …": a correction unless the rest
/// approves ("no, that's fine"), answers a question ("no, I haven't …") or, without a pause,
/// is an ordinary phrase ("no rush", "no need to …", "No funciona …").
fn negation(t: &Text<'_>, i: usize) -> Verdict {
    if !is_in(t.word(i), NEGATIONS) {
        return Unknown;
    }
    let (mut j, mut pause) = (i + 1, false);
    loop {
        match t.kind(j) {
            Some(Kind::Question) => return Unknown,
            Some(Kind::Word) if is_in(t.word(j), NEGATIONS) => pause = true,
            Some(Kind::Word) | None => break,
            Some(_) => pause = true,
        }
        j += 1;
    }
    if j >= t.len() {
        return Correction(Negation);
    }
    if t.any(j, REPLIES).is_some() {
        return Request;
    }
    if pause {
        return if answers(t, j) {
            Unknown
        } else {
            Correction(Negation)
        };
    }
    bare_no(t, i, j)
}

/// "no, I haven't installed it", "no, it doesn't need to …": a pronoun, an auxiliary, "not"
/// (but "no, I don't want …" rejects).
fn answers(t: &Text<'_>, j: usize) -> bool {
    let rejects = is_in(t.word(j), &["i", "we"]) && is_in(t.word(j + 3), ANSWER_REJECTS);
    is_in(t.word(j), ANSWER_SUBJECTS)
        && is_in(t.word(j + 1), ANSWER_AUX)
        && t.word(j + 2) == Some("not")
        && !rejects
}

/// "no" followed straight by a word.
fn bare_no(t: &Text<'_>, i: usize, j: usize) -> Verdict {
    let next = t.word(j);
    if is_in(next, NO_REQUEST) {
        return Request;
    }
    if is_in(next, NO_MORE) {
        return Correction(NegatedImperative);
    }
    let romance = match t.word(i) {
        Some("no") => spanish(t, j),
        Some("non") => italian(next.unwrap_or_default()),
        Some("não" | "nao") => portuguese(next.unwrap_or_default()),
        _ => Unknown,
    };
    if romance != Unknown {
        return romance;
    }
    if next == Some("i") {
        return match t.any(j + 1, NO_I_THEN) {
            Some(_) => Correction(Negation),
            None => Unknown,
        };
    }
    if is_in(next, NO_THEN) {
        Correction(Negation)
    } else {
        Unknown
    }
}

/// Spanish `no` + a verb in the negative imperative (`-es`, `-as`: "no toques", "no lo
/// hagas"), in a sentence that reads as Spanish ("No changes needed" is English).
fn spanish(t: &Text<'_>, j: usize) -> Verdict {
    let k = if is_in(t.word(j), ES_CLITICS) {
        j + 1
    } else {
        j
    };
    let Some(verb) = t.word(k) else {
        return Unknown;
    };
    if ES_REQUEST.contains(&verb) {
        return Request;
    }
    let end = t.sentence_end(j);
    let count = |list: &[&str]| (j..end).filter(|x| is_in(t.word(*x), list)).count();
    let imperative = verb.chars().count() >= 4 && (verb.ends_with("es") || verb.ends_with("as"));
    if imperative && (k > j || count(SPANISH) > count(ENGLISH)) {
        Correction(NegatedImperative)
    } else {
        Unknown
    }
}

/// Italian `non` + an infinitive ("non usare", "non toccarlo").
fn italian(verb: &str) -> Verdict {
    if IT_REQUEST.contains(&verb) {
        return Request;
    }
    let infinitive = |w: &str| ["are", "ere", "ire"].iter().any(|e| w.ends_with(e));
    let with_clitic = ["lo", "la", "li", "le", "ne", "mi", "ti", "ci", "si", "gli"]
        .iter()
        .filter_map(|c| verb.strip_suffix(c))
        .any(|stem| ["ar", "er", "ir"].iter().any(|e| stem.ends_with(e)));
    if verb.chars().count() > 4 && (infinitive(verb) || with_clitic) {
        Correction(NegatedImperative)
    } else {
        Unknown
    }
}

/// Portuguese `não` + an imperative ("não mexa", "não use").
fn portuguese(verb: &str) -> Verdict {
    if PT_REQUEST.contains(&verb) {
        Request
    } else if PT_IMPERATIVES.contains(&verb) {
        Correction(NegatedImperative)
    } else {
        Unknown
    }
}

/// A negated imperative at the start: "don't …", "never …", "not like that", "nicht so",
/// "ne touche pas", "не трогай", "Fass … nicht an"; not "don't forget …", "never mind",
/// "not sure why …".
fn negated(t: &Text<'_>, i: usize) -> Verdict {
    let word = t.word(i).unwrap_or_default();
    let request_if = |yes: bool, rule: Rule| if yes { Request } else { Correction(rule) };
    match word {
        "do" if t.word(i + 1) == Some("not") => after_not(t, i + 2),
        "never" if t.word(i + 1) == Some("mind") => never_mind(t, i + 2),
        "nevermind" => never_mind(t, i + 1),
        "never" => after_not(t, i + 1),
        "not" => request_if(t.any(i + 1, NOT_REQUEST).is_some(), Redirection),
        "ne" | "n'" => request_if(is_in(t.word(i + 1), NE_REQUEST), NegatedImperative),
        "pas" => request_if(t.any(i + 1, PAS_REQUEST).is_some(), Redirection),
        "не" => russian(t.word(i + 1)),
        w if NOT_WORDS.contains(&w) => {
            request_if(is_in(t.word(i + 1), NOT_WORDS_REQUEST), NegatedImperative)
        }
        w if DE_NL_IMPERATIVES.contains(&w) => {
            let end = t.clause_end(i);
            if t.find(i + 1, end, NOT_WORDS).is_none() {
                Unknown
            } else {
                let asks = (i + 1..end).any(|k| is_in(t.word(k), DE_NL_REQUEST));
                request_if(asks, NegatedImperative)
            }
        }
        _ => Unknown,
    }
}

/// "never mind, I found it" asks nothing; "never mind the tests, revert the parser change"
/// corrects in its next clause.
fn never_mind(t: &Text<'_>, i: usize) -> Verdict {
    let next = skip_fillers(t, t.clause_end(i));
    match lead(t, next) {
        Correction(rule) => Correction(rule),
        _ => Request,
    }
}

/// After "don't", "never", "you shouldn't": a request when it is "forget", "worry", …
fn after_not(t: &Text<'_>, k: usize) -> Verdict {
    if t.any(k, DONT_REQUEST).is_some() {
        Request
    } else {
        Correction(NegatedImperative)
    }
}

/// Russian `не` + an imperative ("не трогай", "не пиши", "не коммить"), or `не надо`.
fn russian(word: Option<&str>) -> Verdict {
    let Some(w) = word else {
        return Unknown;
    };
    if RU_REQUEST.contains(&w) {
        return Request;
    }
    let imperative = ["й", "йте", "ь", "ьте", "и", "ите"]
        .iter()
        .any(|e| w.ends_with(e))
        && !["ли", "ой", "ый", "ий", "шь"]
            .iter()
            .any(|e| w.ends_with(e))
        && w.chars().count() >= 4;
    if RU_NEGATED.contains(&w) || imperative {
        Correction(NegatedImperative)
    } else {
        Unknown
    }
}

/// "revert that", "undo your last edit", "change it back", "go back to the previous
/// version", "restore the original …", "Annule ça", "Откати …"; not "revert the version
/// bump from yesterday's commit" (not the agent's work) or "add an undo command".
fn undo(t: &Text<'_>, i: usize) -> Verdict {
    let asking = [
        "can you",
        "could you",
        "would you",
        "will you",
        "can we",
        "let us",
    ];
    let i = t.any(i, &asking).map_or(i, |j| skip_fillers(t, j));
    if let Some(j) = t.any(i, UNDO_VERBS) {
        let end = t.clause_end(j);
        let what = t.is_break(j)
            || t.any(j, UNDO_WHAT).is_some()
            || !(is_in(t.word(j), UNDO_NOUNS) || t.find(j, end, UNDO_HISTORY).is_some());
        return if what { Correction(Undo) } else { Unknown };
    }
    let undone = puts_back(t, i)
        || t.phrase(i, "go back to")
            .is_some_and(|j| t.any(j, GO_BACK_TO).is_some())
        || t.phrase(i, "restore")
            .is_some_and(|j| t.any(j, RESTORE_WHAT).is_some())
        || is_in(t.word(i), UNDO_FOREIGN);
    if undone {
        Correction(Undo)
    } else {
        Unknown
    }
}

/// "change it back", "put the test back, …", "switch back": a verb that puts back, "back"
/// within five words, then the end of the clause or how it was.
fn puts_back(t: &Text<'_>, i: usize) -> bool {
    if !is_in(t.word(i), BACK_VERBS) {
        return false;
    }
    let end = t.clause_end(i).min(i + 7);
    (i + 1..end).any(|k| {
        t.word(k) == Some("back") && (t.is_break(k + 1) || is_in(t.word(k + 1), BACK_THEN))
    })
}

/// "stop", "stop it", "stop doing that", "stop adding …", "Hör auf", "хватит"; not "stop
/// the dev server" or "stop words …".
fn stop(t: &Text<'_>, i: usize) -> Verdict {
    let alone = |j: usize| t.is_break(j) && t.kind(j) != Some(Kind::Question);
    let stops = match t.word(i) {
        Some("stop") => alone(i + 1) || t.any(i + 1, STOP_WHAT).is_some(),
        w if is_in(w, STOP_ALONE) => alone(i + 1),
        _ => t.any(i, STOP_FOREIGN).is_some(),
    };
    if stops {
        Correction(Stop)
    } else {
        Unknown
    }
}

/// Phrases a correction opens with ("I meant …", "why did you …", "wrong file",
/// "instead, …"), and "you" + what the agent did ("you deleted …").
fn at_start(t: &Text<'_>, i: usize) -> Verdict {
    if let Some((_, rule)) = AT_START.iter().find(|(p, _)| t.phrase(i, p).is_some()) {
        return Correction(*rule);
    }
    if t.any(i, REDIRECT_START).is_some() && !t.is_question(i) {
        return Correction(Redirection);
    }
    if t.word(i) == Some("you") {
        let mut j = i + 1;
        while is_in(t.word(j), YOU_ADVERBS) {
            j += 1;
        }
        if t.any(j, YOU_DID).is_some() {
            return Correction(Complaint);
        }
    }
    Unknown
}

/// Phrases that correct anywhere in the start (`ANYWHERE`, "you should have kept …", "…
/// backwards."), then
/// in the first sentence: a redirection ("use X instead") unless it asks, and "you …
/// the wrong …".
pub(super) fn anywhere(t: &Text<'_>, head: usize) -> Option<Rule> {
    // The phrases by their first word: each word of the start is looked up, not compared
    // with every phrase (a 600-byte prompt has over a hundred words).
    let mut by_first: Vec<(&str, usize)> = ANYWHERE
        .iter()
        .enumerate()
        .map(|(k, (p, _))| (p.split(' ').next().unwrap_or(p), k))
        .collect();
    by_first.sort_unstable();
    for i in head..t.len() {
        let Some(word) = t.word(i) else { continue };
        let from = by_first.partition_point(|(first, _)| *first < word);
        for (_, k) in by_first[from..]
            .iter()
            .take_while(|(first, _)| *first == word)
        {
            let (phrase, rule) = ANYWHERE[*k];
            if let Some(end) = t.phrase(i, phrase) {
                let negated = phrase.ends_with(" not") || phrase.ends_with(" never");
                if !(negated && after_not(t, end) == Request) {
                    return Some(rule);
                }
            }
        }
        if t.phrase(i, "you should have")
            .is_some_and(|j| participle(t.word(j)))
        {
            return Some(Complaint);
        }
        // "you've got the arguments backwards" (not "backwards compatibility").
        if t.word(i) == Some("backwards") && t.is_break(i + 1) {
            return Some(Rule::Wrong);
        }
    }
    let end = t.sentence_end(head);
    if !t.is_question(head) {
        let redirects = (head..end).any(|i| {
            t.any(i, INSTEAD)
                .is_some_and(|j| !is_in(t.word(j), INSTEAD_NOT))
        });
        if redirects {
            return Some(Redirection);
        }
    }
    wrong_thing(t, head, end).then_some(Rule::Wrong)
}

fn participle(word: Option<&str>) -> bool {
    word.is_some_and(|w| (w.len() > 4 && w.ends_with("ed")) || PARTICIPLES.contains(&w))
}

/// "you're editing the wrong crate", "you used the wrong API": "the wrong" after a "you" in
/// the same clause that does not ask ("can you fix the wrong date?").
fn wrong_thing(t: &Text<'_>, from: usize, to: usize) -> bool {
    (from..to).any(|p| {
        t.phrase(p, "the wrong").is_some() && {
            let start = (from..p)
                .rev()
                .find(|k| t.is_break(*k))
                .map_or(from, |k| k + 1);
            (start..p).any(|q| {
                t.word(q) == Some("you") && (q == 0 || !is_in(t.word(q - 1), NOT_BEFORE_YOU))
            })
        }
    })
}
