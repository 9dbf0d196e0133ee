//! What a question asks for, beyond its words: "what did the user say about …" wants the
//! user's corrections and prompts, "why did we …" decisions and learnings, "what failed …"
//! failures, "what is still open" progress and sessions, "when …" dated records, "last" the
//! newest. The words that only say so ("did the user say", "why", "still") are not searched
//! for; a failure word is searched for at a lower weight (a record that says FAILED is one).

use super::words::is_stop;
use crate::core::recall::Kind;

/// What a question asks for.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Intent {
    /// Kinds it points at.
    pub(crate) kinds: Vec<Kind>,
    /// It asks what failed or broke.
    pub(crate) failure: bool,
    /// It asks when something happened.
    pub(crate) when: bool,
    /// It asks for the newest answer.
    pub(crate) recent: bool,
}

/// How a word of a question is taken.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Role {
    /// Searched for, at this weight.
    Search(f32),
    /// Says what is asked for; not searched for.
    Intent,
    /// A question word or filler.
    Filler,
    /// Part of an idiom that means this word ("takes so long" → slow).
    Means(&'static str),
}

/// Idioms of questions and the word they mean: the idiom's last word is searched as it.
const IDIOMS: &[(&[&str], &str)] = &[
    (&["so", "long"], "slow"),
    (&["too", "long"], "slow"),
    (&["take", "long"], "slow"),
    (&["takes", "long"], "slow"),
    (&["taking", "long"], "slow"),
    (&["went", "red"], "failed"),
    (&["turned", "red"], "failed"),
    (&["go", "with"], "decided"),
    (&["went", "with"], "decided"),
];

/// Marks the idioms of `words` in `roles`; the decision idioms add their kinds.
fn idioms(words: &[String], roles: &mut [Role], intent: &mut Intent) {
    for (pattern, means) in IDIOMS {
        for start in 0..words.len().saturating_sub(pattern.len() - 1) {
            let here = &words[start..start + pattern.len()];
            if here.iter().zip(pattern.iter()).all(|(w, p)| w == p) {
                for r in &mut roles[start..start + pattern.len()] {
                    *r = Role::Filler;
                }
                if let Some(kinds) = kinds_named(means) {
                    intent.ask(kinds);
                } else {
                    roles[start + pattern.len() - 1] = Role::Means(means);
                    if *means == "failed" {
                        intent.failure = true;
                    }
                }
            }
        }
    }
}

/// The weight of a failure word that is also searched for.
const FAILURE_WORD_WEIGHT: f32 = 0.5;

/// Verbs of speech: "the user said / asked / wanted / corrected …".
const SPEECH: &[&str] = &[
    "ask",
    "asked",
    "asking",
    "asks",
    "complain",
    "complained",
    "correct",
    "corrected",
    "corrects",
    "insist",
    "insisted",
    "mention",
    "mentioned",
    "prefer",
    "preferred",
    "request",
    "requested",
    "say",
    "said",
    "says",
    "tell",
    "told",
    "want",
    "wanted",
    "wants",
    "wrote",
];

/// Who speaks in "what did the user say".
const SPEAKERS: &[&str] = &["he", "i", "she", "someone", "they", "user", "users", "you"];

/// Words that ask what failed.
const FAILURE: &[&str] = &[
    "blocked", "break", "breaking", "breaks", "broke", "broken", "crash", "crashed", "crashes",
    "error", "errored", "errors", "fail", "failed", "failing", "fails", "failure", "failures",
    "halted", "red", "stopped", "stuck",
];

/// Words that ask what is still to do.
const OPEN: &[&str] = &[
    "left",
    "outstanding",
    "pending",
    "remaining",
    "remains",
    "still",
    "todo",
    "unfinished",
    "unresolved",
];

/// Filler of developers' questions beyond the stop words, and the pieces of contractions
/// (`don't` → don, t).
const FILLER: &[&str] = &[
    "actually",
    "again",
    "ago",
    "anything",
    "anyway",
    "aren",
    "back",
    "couldn",
    "d",
    "didn",
    "doesn",
    "don",
    "earlier",
    "exactly",
    "happen",
    "happened",
    "happens",
    "isn",
    "kind",
    "know",
    "ll",
    "m",
    "mean",
    "meant",
    "please",
    "previously",
    "re",
    "really",
    "regarding",
    "remember",
    "remind",
    "s",
    "shouldn",
    "something",
    "sort",
    "stuff",
    "t",
    "thing",
    "things",
    "think",
    "thought",
    "ve",
    "wasn",
    "way",
    "weren",
    "won",
    "wouldn",
];

/// Verbs and nouns so general that a question's other words say what it is about: searched
/// for at `LIGHT_WEIGHT` ("what does the logging use?").
const LIGHT: &[&str] = &[
    "code", "file", "files", "make", "need", "needed", "needs", "run", "running", "runs", "thing",
    "use", "used", "uses", "using", "work", "worked", "working", "works",
];

/// The weight of a light word.
const LIGHT_WEIGHT: f32 = 0.3;

/// Words that ask how things are done here: conventions (searched for as well, but "should").
const CONVENTION_CUES: &[&str] = &[
    "format",
    "formatted",
    "formatting",
    "naming",
    "should",
    "style",
];

/// Words that ask about a file change.
const CHANGE_CUES: &[&str] = &[
    "changed", "edit", "edited", "edits", "modified", "modify", "touch", "touched", "wrote",
    "written",
];

/// Words that ask for a warning or a tip: notes and learnings.
const CAUTION_CUES: &[&str] = &[
    "beware", "careful", "caution", "pitfall", "pitfalls", "risk", "risks", "tip", "tips", "trick",
    "tricks", "watch",
];

impl Intent {
    /// Adds `kinds` to what the question points at.
    fn ask(&mut self, kinds: &[Kind]) {
        for k in kinds {
            if !self.kinds.contains(k) {
                self.kinds.push(*k);
            }
        }
    }
}

/// The intent of a question's words (lower-cased, in order) and the role of each word.
pub(crate) fn read(words: &[String]) -> (Intent, Vec<Role>) {
    let mut intent = Intent::default();
    let mut roles: Vec<Role> = words.iter().map(|_| Role::Search(1.0)).collect();
    for i in 0..words.len() {
        let w = words[i].as_str();
        let before = &words[i.saturating_sub(3)..i];
        if SPEECH.contains(&w) && before.iter().any(|p| SPEAKERS.contains(&p.as_str())) {
            intent.ask(&[Kind::Correction, Kind::Prompt]);
            roles[i] = Role::Intent;
            for j in i.saturating_sub(3)..i {
                if SPEAKERS.contains(&words[j].as_str()) {
                    roles[j] = Role::Filler;
                }
            }
        } else if let Some(role) = role_of(words, i, &mut intent) {
            roles[i] = role;
        }
    }
    idioms(words, &mut roles, &mut intent);
    // "What happens when the delivery fails?" asks how things are meant to work.
    let asks_behaviour = words
        .windows(2)
        .any(|w| matches!(w[0].as_str(), "happens" | "happen") && w[1] == "when");
    if asks_behaviour {
        intent.failure = false;
        intent.ask(&[Kind::Decision, Kind::Convention]);
    }
    (intent, roles)
}

/// The role of word `i` when it says more than what to search for (what it asks adds to
/// `intent`); `None` for a word searched as it is.
fn role_of(words: &[String], i: usize, intent: &mut Intent) -> Option<Role> {
    let w = words[i].as_str();
    let open_question = words.iter().any(|x| OPEN.contains(&x.as_str()));
    Some(if let Some(kinds) = kinds_named(w) {
        intent.ask(kinds);
        Role::Intent
    } else if FAILURE.contains(&w) {
        intent.failure = true;
        Role::Search(FAILURE_WORD_WEIGHT)
    } else if OPEN.contains(&w) || (matches!(w, "open" | "do" | "done") && open_question) {
        intent.ask(&[Kind::Progress, Kind::Session, Kind::Note, Kind::Handoff]);
        Role::Intent
    } else if CONVENTION_CUES.contains(&w) {
        intent.ask(&[Kind::Convention]);
        if w == "should" {
            Role::Filler
        } else {
            return None;
        }
    } else if CHANGE_CUES.contains(&w) {
        intent.ask(&[Kind::Change]);
        Role::Intent
    } else if CAUTION_CUES.contains(&w) {
        intent.ask(&[Kind::Note, Kind::Learning]);
        Role::Intent
    } else if matches!(w, "leave" | "paused") && i > 0 && words[i - 1] == "we" {
        intent.ask(&[Kind::Handoff, Kind::Progress, Kind::Session]);
        Role::Intent
    } else if matches!(w, "last" | "latest" | "recent" | "recently" | "newest") {
        intent.recent = true;
        Role::Filler
    } else if w == "when" {
        intent.when = true;
        Role::Filler
    } else if w == "why" {
        intent.ask(&[Kind::Decision, Kind::Learning]);
        Role::Filler
    } else if is_stop(w) || FILLER.contains(&w) {
        Role::Filler
    } else if LIGHT.contains(&w) {
        Role::Search(LIGHT_WEIGHT)
    } else {
        return None;
    })
}

/// The kinds a word names ("decide" → decisions).
fn kinds_named(word: &str) -> Option<&'static [Kind]> {
    Some(match word {
        "decide" | "decided" | "decides" | "deciding" | "decision" | "decisions" | "chose"
        | "choose" | "chosen" | "choice" | "agreed" | "pick" | "picked" | "opted" | "settled" => {
            &[Kind::Decision, Kind::Learning]
        }
        "correct" | "corrected" | "corrects" | "correction" | "corrections" => &[Kind::Correction],
        "convention" | "conventions" | "invariant" | "invariants" | "rule" | "rules" => {
            &[Kind::Convention]
        }
        "learn" | "learned" | "learnt" | "learning" | "learnings" | "lesson" | "lessons"
        | "instinct" | "instincts" | "gotcha" | "gotchas" => &[Kind::Learning],
        "prompt" | "prompted" => &[Kind::Prompt],
        "handoff" | "handoffs" => &[Kind::Handoff],
        "packet" | "packets" => &[Kind::Packet],
        "progress" | "far" => &[Kind::Progress, Kind::Session],
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recall::words::words;

    fn roles(q: &str) -> (Intent, Vec<(String, Role)>) {
        let ws = words(q);
        let (i, r) = read(&ws);
        (i, ws.into_iter().zip(r).collect())
    }

    fn searched(q: &str) -> Vec<String> {
        roles(q)
            .1
            .into_iter()
            .filter(|(_, r)| matches!(r, Role::Search(_)))
            .map(|(w, _)| w)
            .collect()
    }

    #[test]
    fn what_the_user_said_asks_for_corrections_and_prompts() {
        let (i, _) = roles("what did the user say about logging");
        assert_eq!(i.kinds, vec![Kind::Correction, Kind::Prompt]);
        assert_eq!(
            searched("what did the user say about logging"),
            vec!["logging"]
        );
        // "user" on its own is a word like any other.
        assert_eq!(
            searched("the user table schema"),
            vec!["user", "table", "schema"]
        );
    }

    #[test]
    fn why_failed_and_open_questions() {
        let (i, _) = roles("why did we pick sqlite");
        assert_eq!(i.kinds, vec![Kind::Decision, Kind::Learning]);
        assert_eq!(searched("why did we pick sqlite"), vec!["sqlite"]);
        let (i, r) = roles("what broke in the nightly build");
        assert!(i.failure);
        assert_eq!(r[1].1, Role::Search(FAILURE_WORD_WEIGHT));
        let (i, _) = roles("what is still open on the importer");
        assert!(i.kinds.contains(&Kind::Progress));
        let (i, _) = roles("when did the deploy last fail");
        assert!(i.when && i.recent && i.failure);
    }
}
