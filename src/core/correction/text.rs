//! A prompt's start as the correction rules read it: lower-case words and the punctuation
//! between them. English contractions are spelt out ("don't" → `do not`, "that's" → `that
//! is`, "dont" too), a French elision is its own word ("n'utilise" → `n'` `utilise`), curly
//! apostrophes are straight and `ё` is `е`, so each rule names one spelling. A word keeps
//! inner dots, hyphens, slashes and apostrophes (`lib.rs`, `as-tu`, `src/bin`).

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Word,
    /// `,`
    Comma,
    /// `—`, `–`, `--`, a lone `-`, `…`, `...`, `:`: a clause goes on after it.
    Dash,
    /// `.`, `!`, `;`, a line break: the sentence ends.
    End,
    /// `?`
    Question,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Tok<'a> {
    pub(super) text: &'a str,
    pub(super) kind: Kind,
}

/// The tokens of a lower-cased text.
pub(super) struct Text<'a> {
    pub(super) toks: Vec<Tok<'a>>,
}

/// `text` lower-cased, with one apostrophe and `е` for `ё`.
pub(super) fn lower(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\u{2019}' | '\u{2018}' | '\u{02bc}' | '`' | '\u{b4}' => out.push('\''),
            'ё' | 'Ё' => out.push('е'),
            c if c.is_ascii() => out.push(c.to_ascii_lowercase()),
            c => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// Joins the parts of a word: `don't`, `lib.rs`, `as-tu`, `src/bin`.
const CONNECTORS: &[char] = &['\'', '.', '-', '/', '_', '@', '+'];

/// Contractions spelt out, and their spellings without the apostrophe.
const SPELT_OUT: &[(&str, &[&str])] = &[
    ("can't", &["can", "not"]),
    ("cant", &["can", "not"]),
    ("cannot", &["can", "not"]),
    ("won't", &["will", "not"]),
    ("shan't", &["shall", "not"]),
    ("dont", &["do", "not"]),
    ("didnt", &["did", "not"]),
    ("doesnt", &["does", "not"]),
    ("isnt", &["is", "not"]),
    ("wasnt", &["was", "not"]),
    ("arent", &["are", "not"]),
    ("shouldnt", &["should", "not"]),
    ("thats", &["that", "is"]),
    ("youre", &["you", "are"]),
    ("let's", &["let", "us"]),
];

/// Words whose `'s` is "is" (elsewhere it is a possessive and stays).
const IS_AFTER: &[&str] = &[
    "that", "it", "this", "what", "there", "here", "who", "he", "she",
];

/// French elisions, split off their word.
const ELISIONS: &[&str] = &["n'", "l'", "d'", "c'", "j'", "t'", "qu'", "s'", "m'"];

impl<'a> Text<'a> {
    /// The tokens of `lower` (already lower-cased by `lower`).
    pub(super) fn new(lower: &'a str) -> Text<'a> {
        let chars: Vec<(usize, char)> = lower.char_indices().collect();
        let mut text = Text {
            toks: Vec::with_capacity(chars.len() / 4 + 4),
        };
        let at = |k: usize| chars.get(k).map(|(_, c)| *c);
        let word_char = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        let mut k = 0;
        while k < chars.len() {
            let (start, c) = chars[k];
            if word_char(Some(c)) {
                let mut end = k + 1;
                while end < chars.len() {
                    let d = at(end);
                    if word_char(d) {
                        end += 1;
                    } else if d.is_some_and(|d| CONNECTORS.contains(&d)) && word_char(at(end + 1)) {
                        end += 2;
                    } else {
                        break;
                    }
                }
                let stop = chars.get(end).map_or(lower.len(), |(i, _)| *i);
                text.push_word(&lower[start..stop]);
                k = end;
                continue;
            }
            let (kind, width) = match c {
                ',' => (Some(Kind::Comma), 1),
                '\u{2014}' | '\u{2013}' | '\u{2026}' | ':' => (Some(Kind::Dash), 1),
                '-' if at(k + 1) == Some('-') => (Some(Kind::Dash), 2),
                '-' if k == 0 || at(k - 1).is_some_and(char::is_whitespace) => {
                    (Some(Kind::Dash), 1)
                }
                '.' if at(k + 1) == Some('.') => (Some(Kind::Dash), 2),
                '.' | '!' | ';' | '\n' => (Some(Kind::End), 1),
                '?' => (Some(Kind::Question), 1),
                _ => (None, 1),
            };
            if let Some(kind) = kind {
                text.toks.push(Tok { text: "", kind });
            }
            k += width;
        }
        text
    }

    /// Adds a word: contractions spelt out, an elision split off.
    fn push_word(&mut self, w: &'a str) {
        let mut push = |t: &'a str| {
            self.toks.push(Tok {
                text: t,
                kind: Kind::Word,
            });
        };
        if let Some((_, parts)) = SPELT_OUT.iter().find(|(c, _)| *c == w) {
            parts.iter().for_each(|p| push(p));
        } else if let Some(stem) = w.strip_suffix("n't") {
            push(stem);
            push("not");
        } else if let Some(stem) = w.strip_suffix("'s").filter(|s| IS_AFTER.contains(s)) {
            push(stem);
            push("is");
        } else if let Some((stem, full)) = [
            ("'re", "are"),
            ("'ve", "have"),
            ("'d", "would"),
            ("'ll", "will"),
            ("'m", "am"),
        ]
        .iter()
        .find_map(|(end, full)| w.strip_suffix(end).map(|s| (s, *full)))
        .filter(|(s, _)| !s.is_empty())
        {
            push(stem);
            push(full);
        } else if let Some(e) = ELISIONS
            .iter()
            .find(|e| w.len() > e.len() && w.starts_with(**e))
        {
            push(&w[..e.len()]);
            push(&w[e.len()..]);
        } else {
            push(w);
        }
    }

    pub(super) fn len(&self) -> usize {
        self.toks.len()
    }

    /// The word at `i` (`None` past the end or at punctuation).
    pub(super) fn word(&self, i: usize) -> Option<&'a str> {
        self.toks
            .get(i)
            .filter(|t| t.kind == Kind::Word)
            .map(|t| t.text)
    }

    pub(super) fn kind(&self, i: usize) -> Option<Kind> {
        self.toks.get(i).map(|t| t.kind)
    }

    /// Whether `i` is past the end or at punctuation (not a word).
    pub(super) fn is_break(&self, i: usize) -> bool {
        self.word(i).is_none()
    }

    /// Where `phrase` (words separated by spaces; `*ing` matches a word ending in `ing`)
    /// ends when it starts at `i`.
    pub(super) fn phrase(&self, i: usize, phrase: &str) -> Option<usize> {
        // Most tries fail on the first word: compare it before splitting the phrase.
        let first = self.word(i)?;
        let opens = phrase.starts_with('*')
            || (phrase.starts_with(first)
                && matches!(phrase.as_bytes().get(first.len()), None | Some(b' ')));
        if !opens {
            return None;
        }
        let mut k = i;
        for p in phrase.split(' ') {
            let w = self.word(k)?;
            let hit = match p.strip_prefix('*') {
                Some(end) => w.len() > end.len() + 2 && w.ends_with(end),
                None => w == p,
            };
            if !hit {
                return None;
            }
            k += 1;
        }
        Some(k)
    }

    /// The end of the first of `phrases` that starts at `i`.
    pub(super) fn any(&self, i: usize, phrases: &[&str]) -> Option<usize> {
        phrases.iter().find_map(|p| self.phrase(i, p))
    }

    /// Where the first of `phrases` starts and ends inside `from..to`.
    pub(super) fn find(&self, from: usize, to: usize, phrases: &[&str]) -> Option<(usize, usize)> {
        (from..to.min(self.len())).find_map(|i| self.any(i, phrases).map(|end| (i, end)))
    }

    /// The end of the clause that starts at `i` (the first punctuation).
    pub(super) fn clause_end(&self, i: usize) -> usize {
        (i..self.len())
            .find(|k| self.is_break(*k))
            .unwrap_or(self.len())
    }

    /// The end of the sentence that starts at `i` (the first `.`, `!`, `;`, `?` or line break).
    pub(super) fn sentence_end(&self, i: usize) -> usize {
        (i..self.len())
            .find(|k| matches!(self.kind(*k), Some(Kind::End | Kind::Question)))
            .unwrap_or(self.len())
    }

    /// Whether the sentence that starts at `i` is a question (it ends with `?`).
    pub(super) fn is_question(&self, i: usize) -> bool {
        self.kind(self.sentence_end(i)) == Some(Kind::Question)
    }
}
