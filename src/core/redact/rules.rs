//! The built-in rules: what a secret looks like, which literal must occur before a rule's
//! regex runs, and how a rule treats text glued before a token or a token wrapped onto the
//! next line.
//!
//! Every pattern builds with Unicode mode off (ASCII classes, `\b` and `\s` build several
//! times faster); the few classes that must not split a character say `(?u:…)` locally and
//! repeat without a bound (a bounded repetition of a Unicode class cost milliseconds).

use super::flat;
use super::groups::Matcher;
use regex::Regex;
use regex_automata::meta;
use std::sync::OnceLock;

/// `n` characters of `class`, with a line break allowed before each: a token that a terminal
/// or an editor wrapped onto the next line.
macro_rules! wrapped {
    ($class:literal, $n:literal) => {
        concat!(r"(?:(?:\r?\n)?", $class, "){", $n, "}")
    };
}

/// One built-in rule.
pub(super) struct Rule {
    /// Short name, for reports.
    pub(super) name: &'static str,
    /// The regex runs only if the text contains one of these (case-sensitive).
    pub(super) triggers: &'static [&'static str],
    /// …and all of these (case-sensitive): text every match also holds, so a text with a URL
    /// but no `@` compiles no URL-password regex.
    pub(super) requires: &'static [&'static str],
    /// …and, when not empty, a trigger followed (after one optional quote and blanks) by
    /// one of these characters: a key's name is followed by its `=` or `:`, so `Key
    /// decisions` compiles no key-value regex.
    pub(super) followed_by: &'static str,
    pub(super) pattern: &'static str,
    /// Taken only when it looks random (upper and lower case and a digit) if a word
    /// character stands right before it: the prefix is generic enough that `mask-image-…` or
    /// `task_test_…` would otherwise pass for a key. Other token rules take `id_ghp_…` as is.
    pub(super) random_if_glued: bool,
    /// The bytes a secret that ends a line may go on with at the start of the next one (a
    /// wrapped token); `None` when a line break always ends it. See `scan::unwrap_tail`.
    pub(super) wraps: Option<fn(u8) -> bool>,
    /// The rule read by hand on a short text with no line break (`flat`): the same matches as
    /// its flat regex, with nothing to build. `None`: the regex is built.
    pub(super) by_hand: Option<Matcher>,
}

const ALNUM: Option<fn(u8) -> bool> = Some(|b| b.is_ascii_alphanumeric());
const WORD: Option<fn(u8) -> bool> = Some(|b| b.is_ascii_alphanumeric() || b == b'_');
const WORD_DASH: Option<fn(u8) -> bool> = Some(|b| b.is_ascii_alphanumeric() || b"_-".contains(&b));
const SLACK: Option<fn(u8) -> bool> = Some(|b| b.is_ascii_alphanumeric() || b == b'-');
const CLIENT: Option<fn(u8) -> bool> = Some(|b| b.is_ascii_alphanumeric() || b"_-./+".contains(&b));
const BEARER: Option<fn(u8) -> bool> =
    Some(|b| b.is_ascii_alphanumeric() || b"._~+/-".contains(&b));
/// An unquoted value (`=` is left out: `NEXT_VAR=1` on the next line is no continuation).
const VALUE: Option<fn(u8) -> bool> =
    Some(|b| b.is_ascii_alphanumeric() || b"_-+/.~!@#$%^&*".contains(&b));

pub(super) const RULES: &[Rule] = &[
    Rule {
        name: "pem-private-key",
        triggers: &["PRIVATE KEY-----"],
        requires: &[],
        followed_by: "",
        pattern: r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?su:.)*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\z)",
        random_if_glued: false,
        wraps: None,
        by_hand: None,
    },
    Rule {
        // What is left of a key block whose BEGIN line was cut off (a captured tail): the
        // base64 lines before an END line. Runs after the whole-block rule above, so any END
        // still here is an orphan.
        name: "pem-orphan-body",
        triggers: &["PRIVATE KEY-----"],
        requires: &[],
        followed_by: "",
        pattern: r"(?m)(?:^[A-Za-z0-9+/=]{16,}\r?\n)*^[A-Za-z0-9+/=]*-----END [A-Z0-9 ]*PRIVATE KEY-----",
        random_if_glued: false,
        wraps: None,
        by_hand: None,
    },
    Rule {
        name: "aws-access-key",
        triggers: &["AKIA", "ASIA"],
        requires: &[],
        followed_by: "",
        pattern: concat!(r"(?:AKIA|ASIA)", wrapped!("[0-9A-Z]", 16), r"\b"),
        random_if_glued: false,
        wraps: None,
        by_hand: Some(flat::aws_access_key),
    },
    Rule {
        // Classic tokens are 36 characters: taken whole wherever a line break falls. Other
        // lengths (fine-grained tokens are 82) from 20 on, and a wrapped rest after that.
        name: "github-token",
        triggers: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        requires: &[],
        followed_by: "",
        pattern: concat!(
            "gh[pousr]_(?:",
            wrapped!("[A-Za-z0-9]", 36),
            "[A-Za-z0-9]*|",
            wrapped!("[A-Za-z0-9]", 20),
            "[A-Za-z0-9]*)|github_pat_",
            wrapped!("[A-Za-z0-9_]", 20),
            "[A-Za-z0-9_]*",
        ),
        random_if_glued: false,
        wraps: WORD,
        by_hand: Some(flat::github_token),
    },
    Rule {
        name: "gitlab-token",
        triggers: &["glpat-"],
        requires: &[],
        followed_by: "",
        pattern: concat!(
            "glpat-",
            wrapped!(r"[A-Za-z0-9_\-]", 20),
            r"[A-Za-z0-9_\-]*"
        ),
        random_if_glued: false,
        wraps: WORD_DASH,
        by_hand: Some(flat::gitlab_token),
    },
    Rule {
        name: "slack-token",
        triggers: &["xox"],
        requires: &[],
        followed_by: "",
        pattern: concat!(
            "xox[abposr]-",
            wrapped!(r"[A-Za-z0-9\-]", 10),
            r"[A-Za-z0-9\-]*"
        ),
        random_if_glued: false,
        wraps: SLACK,
        by_hand: Some(flat::slack_token),
    },
    Rule {
        name: "google-api-key",
        triggers: &["AIza"],
        requires: &[],
        followed_by: "",
        pattern: concat!("AIza", wrapped!(r"[0-9A-Za-z_\-]", 35)),
        random_if_glued: false,
        wraps: None,
        by_hand: Some(flat::google_api_key),
    },
    Rule {
        name: "stripe-key",
        triggers: &["_live_", "_test_"],
        requires: &[],
        followed_by: "",
        pattern: concat!(
            "(?:sk|rk|pk)_(?:live|test)_",
            wrapped!("[0-9A-Za-z]", 16),
            "[0-9A-Za-z]*"
        ),
        random_if_glued: true,
        wraps: ALNUM,
        by_hand: Some(flat::stripe_key),
    },
    Rule {
        // Anthropic (sk-ant-) and OpenAI project keys (sk-proj-): distinctive enough to be
        // taken glued to anything. Anthropic keys are 108 characters: taken whole wherever a
        // line break falls.
        name: "anthropic-openai-key",
        triggers: &["sk-ant-", "sk-proj-"],
        requires: &[],
        followed_by: "",
        pattern: concat!(
            "sk-ant-(?:api|admin)[0-9]{2}-",
            wrapped!(r"[A-Za-z0-9_\-]", 95),
            r"|sk-(?:ant|proj)-",
            wrapped!(r"[A-Za-z0-9_\-]", 16),
            r"[A-Za-z0-9_\-]*",
        ),
        random_if_glued: false,
        wraps: WORD_DASH,
        by_hand: Some(flat::anthropic_openai_key),
    },
    Rule {
        // The generic sk- prefix (older OpenAI keys and others).
        name: "sk-key",
        triggers: &["sk-"],
        requires: &[],
        followed_by: "",
        pattern: concat!("sk-", wrapped!(r"[A-Za-z0-9_\-]", 20), r"[A-Za-z0-9_\-]*"),
        random_if_glued: true,
        wraps: WORD_DASH,
        by_hand: Some(flat::sk_key),
    },
    Rule {
        name: "client-secret",
        triggers: &["client_secret"],
        requires: &[],
        followed_by: "",
        pattern: concat!(
            "client_secret_",
            wrapped!(r"[A-Za-z0-9_\-]", 6),
            r#"[A-Za-z0-9_\-]*|(?P<keep>\bclient_secret["']?\s*[:=]\s*["']?)[A-Za-z0-9_\-./+]{8,}"#,
        ),
        random_if_glued: true,
        wraps: CLIENT,
        by_hand: Some(flat::client_secret),
    },
    Rule {
        name: "npm-token",
        triggers: &["npm_"],
        requires: &[],
        followed_by: "",
        pattern: concat!("npm_", wrapped!("[A-Za-z0-9]", 36), r"\b"),
        random_if_glued: false,
        wraps: None,
        by_hand: Some(flat::npm_token),
    },
    Rule {
        name: "jwt",
        triggers: &["eyJ"],
        requires: &[],
        followed_by: "",
        pattern: concat!(
            r"eyJ(?:(?:\r?\n)?[A-Za-z0-9_\-]){8,}(?:\r?\n)?\.(?:\r?\n)?",
            r"e(?:\r?\n)?y(?:\r?\n)?J(?:(?:\r?\n)?[A-Za-z0-9_\-]){8,}(?:\r?\n)?\.",
            wrapped!(r"[A-Za-z0-9_\-]", 8),
            r"[A-Za-z0-9_\-]*",
        ),
        random_if_glued: false,
        wraps: WORD_DASH,
        by_hand: Some(flat::jwt),
    },
    Rule {
        name: "bearer-token",
        triggers: &["Bearer", "bearer", "BEARER"],
        requires: &[],
        followed_by: "",
        pattern: concat!(
            r"(?P<keep>\b(?i:bearer)\s+)",
            wrapped!(r"[A-Za-z0-9._~+/\-]", 16),
            r"[A-Za-z0-9._~+/\-]*=*",
        ),
        random_if_glued: false,
        wraps: BEARER,
        by_hand: Some(flat::bearer_token),
    },
    Rule {
        // `scheme://user:password@`. A password wrapped onto the next line is taken when
        // the part before the break is not a port (`http://host:8080` and a mail address on
        // the next line are not a password). The password had a bound of 256 characters,
        // whose Unicode class took 1.5 ms to build; a longer one is now redacted too.
        name: "url-password",
        triggers: &["://"],
        requires: &["@"],
        followed_by: "",
        pattern: concat!(
            r"(?P<keep>[a-zA-Z][a-zA-Z0-9+.\-]*://(?u:[^/\s:@])*:)",
            r"(?:(?u:[^/\s@])+|(?u:[^/\s@])*(?u:[^/\s@0-9])(?u:[^/\s@])*\r?\n(?u:[^/\s:@])+)",
            r"(?P<tail>@)",
        ),
        random_if_glued: false,
        wraps: None,
        by_hand: None,
    },
    Rule {
        // Environment-style assignments: `OPENAI_API_KEY=…`, `DB_PASSWORD='…'`, also with
        // JSON-escaped quotes, and with a lower-case prefix (`id_API_KEY=…`, but not
        // `ERRORTOKEN = token.ERRORTOKEN`: a glued word needs the `_`). `==` comparisons
        // and trivial values (numbers, a few letters, `$VAR`) are left alone:
        // `MAX_TOKEN = 4096`, `SORT_KEY=name`, `if API_KEY == ""`.
        name: "secret-assignment",
        triggers: &["KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD"],
        requires: &[],
        followed_by: "=",
        pattern: concat!(
            r"(?P<keep>\b(?:[A-Za-z0-9_]*_(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD)|PASSWORD|PASSWD|SECRET|TOKEN)",
            r"(?u:\s*)=(?u:\s*))",
            r#"(?P<value>\\"(?:(?u:[^"\\\n])|\\(?u:[^"\n]))*\\"|"(?u:[^"\n])+"|'(?u:[^'\n])+'"#,
            r#"|(?u:[^\s"'\[=\\])(?u:[^\s"'])*)"#,
        ),
        random_if_glued: false,
        wraps: VALUE,
        by_hand: Some(flat::secret_assignment),
    },
    Rule {
        // Keys in config files, JSON and YAML: `"api_key": "…"`, `password: …`,
        // `aws_secret_access_key = …`. The regex finds names ending in key, secret, password
        // or token; `secret_name` says which of them name a secret (matching a list of names
        // case-insensitively in the regex cost half a millisecond to build). The value must
        // look like a secret (8+ characters with a letter and a digit), so code such as
        // `password: String` stays as it is.
        name: "secret-key-value",
        triggers: &[
            "key", "KEY", "Key", "secret", "SECRET", "Secret", "password", "PASSWORD", "Password",
            "passwd", "PASSWD", "Passwd", "token", "TOKEN", "Token",
        ],
        requires: &[],
        followed_by: ":=",
        pattern: concat!(
            r#"(?P<keep>["']?\b(?P<kname>[A-Za-z0-9_\-]*(?:[Kk]ey|KEY|[Ss]ecret|SECRET|[Pp]assw(?:or)?d"#,
            r#"|PASSW(?:OR)?D|[Tt]oken|TOKEN))["']?\s*[:=]\s*["']?)"#,
            r"(?P<kvalue>[A-Za-z0-9_\-+/=.~!@#$%^&*]{8,})",
        ),
        random_if_glued: false,
        wraps: VALUE,
        by_hand: Some(flat::secret_key_value),
    },
];

/// Whether a key name (`api_key`, `clientSecret`, `DB_PASSWORD`) names a secret: it ends
/// in secret, password or passwd, or in an api, secret, access or private key, or in an
/// auth, access, refresh or api token (`_` or `-` between the words or nothing).
pub(super) fn secret_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    let before = |word: &str| {
        n.strip_suffix(word)
            .map(|rest| rest.strip_suffix(['_', '-']).unwrap_or(rest))
    };
    let ends_with_one_of = |rest: Option<&str>, words: &[&str]| {
        rest.is_some_and(|r| words.iter().any(|w| r.ends_with(w)))
    };
    n.ends_with("secret")
        || n.ends_with("password")
        || n.ends_with("passwd")
        || ends_with_one_of(before("key"), &["api", "secret", "access", "private"])
        || ends_with_one_of(before("token"), &["auth", "access", "refresh", "api"])
}

/// Whether `text` holds one of the rule's literal triggers.
pub(super) fn triggered(rule: &Rule, text: &str) -> bool {
    rule.triggers
        .iter()
        .any(|t| has_trigger(text, t, rule.followed_by))
        && rule.requires.iter().all(|r| text.contains(r))
}

/// Whether `text` holds `trigger`, followed by one of `followed_by` (see `Rule`) when that
/// is not empty. Every occurrence is tried, overlapping ones too.
fn has_trigger(text: &str, trigger: &str, followed_by: &str) -> bool {
    if followed_by.is_empty() {
        return text.contains(trigger);
    }
    let step = trigger.chars().next().map_or(1, char::len_utf8);
    let mut from = 0;
    while let Some(i) = text.get(from..).and_then(|t| t.find(trigger)) {
        let at = from + i;
        let rest = &text[at + trigger.len()..];
        let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest).trim_start();
        if rest.starts_with(|c| followed_by.contains(c)) {
            return true;
        }
        from = at + step;
    }
    false
}

/// Each rule's regex, compiled the first time its trigger occurs (compiling all of them up
/// front cost several milliseconds per hook run).
static COMPILED: [OnceLock<Option<Regex>>; RULES.len()] = [const { OnceLock::new() }; RULES.len()];

pub(super) fn compiled(i: usize) -> Option<&'static Regex> {
    COMPILED
        .get(i)?
        .get_or_init(|| build(RULES[i].pattern))
        .as_ref()
}

/// Builds a rule's regex with Unicode mode off (see the module comment).
fn build(pattern: &str) -> Option<Regex> {
    regex::RegexBuilder::new(pattern)
        .unicode(false)
        .build()
        .ok()
}

/// The longest text the rules search with `compiled_short`.
pub(super) const SHORT_TEXT: usize = 2048;

/// Each rule's regex for a short text (a command, a path, a summary), compiled the first time
/// its trigger occurs in one.
static COMPILED_SHORT: [OnceLock<Option<meta::Regex>>; RULES.len()] =
    [const { OnceLock::new() }; RULES.len()];

/// Rule `i`'s regex for a text of up to `SHORT_TEXT` bytes: the same regex, built without a
/// lazy DFA and without literal prefilters, which the `regex` crate builds for every
/// regex (the reverse NFA, a Teddy searcher) and which pay off only on long texts. Such a
/// text is searched by the bounded backtracker or the PikeVM. For a command with three
/// secrets that was 5.5 M of the hook's 8.0 M instructions to build and 2.2 M to search.
pub(super) fn compiled_short(i: usize) -> Option<&'static meta::Regex> {
    COMPILED_SHORT
        .get(i)?
        .get_or_init(|| build_short(RULES[i].pattern))
        .as_ref()
}

/// Each rule's regex for a short text on one line (`compiled_flat`).
static COMPILED_FLAT: [OnceLock<Option<meta::Regex>>; RULES.len()] =
    [const { OnceLock::new() }; RULES.len()];

/// Rule `i`'s regex for a text of up to `SHORT_TEXT` bytes with no line break (a command,
/// a path): the short regex without `wrapped!`'s allowance for a break before each
/// character, which cannot match there. A token of 36 characters, each optionally after a
/// `\r\n`, made most of the states the rules' compile built for a one-line command.
pub(super) fn compiled_flat(i: usize) -> Option<&'static meta::Regex> {
    COMPILED_FLAT
        .get(i)?
        .get_or_init(|| build_short(&flat(RULES[i].pattern)))
        .as_ref()
}

/// `pattern` without `wrapped!`'s line-break allowances.
fn flat(pattern: &str) -> String {
    pattern.replace(r"(?:\r?\n)?", "")
}

fn build_short(pattern: &str) -> Option<meta::Regex> {
    meta::Builder::new()
        .syntax(
            regex_automata::util::syntax::Config::new()
                .unicode(false)
                .utf8(true),
        )
        .configure(
            meta::Config::new()
                .hybrid(false)
                .dfa(false)
                .onepass(false)
                .auto_prefilter(false)
                .utf8_empty(true),
        )
        .build(pattern)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A command with a URL but no `@` holds no URL password: the URL rule is not compiled
    /// for it (that compile was most of what a `curl https://…` call added to PostToolUse).
    #[test]
    fn issue_15_a_url_without_an_at_does_not_trigger_the_url_rule() {
        let url = RULES.iter().find(|r| r.name == "url-password").unwrap();
        assert!(!triggered(
            url,
            "curl -fsSL https://example.invalid/api?page=2 | head"
        ));
        assert!(triggered(
            url,
            "git clone https://user:hunter22@example.invalid/r.git"
        ));
        assert!(!triggered(url, "mail me@example.invalid"));
    }

    /// A key-value rule is compiled only where a key's name is followed by `=` or `:`; the
    /// gate is never shut on a text the rule matches.
    #[test]
    fn issue_15_the_key_value_rules_need_a_name_followed_by_its_sign() {
        let rule = |name| RULES.iter().position(|r| r.name == name).unwrap();
        let (kv, assign) = (rule("secret-key-value"), rule("secret-assignment"));
        let summary = "2. Key decisions: introduced `ParseError`; the token stream is kept.";
        assert!(!triggered(&RULES[kv], summary) && !triggered(&RULES[assign], summary));
        assert!(triggered(&RULES[kv], r#"{"Api_Secret" : "s3cr3tvalue1"}"#));
        assert!(triggered(&RULES[kv], "PASSWD:hunter22abc"));
        assert!(triggered(&RULES[assign], "DB_PASSWORD =  'x'"));
        let pieces = [
            "key",
            "KEY",
            "Key",
            "Secret",
            "passwd",
            "PASSWORD",
            "Token",
            "api_",
            "_",
            "\"",
            "'",
            " ",
            "\t",
            "\n",
            ":",
            "=",
            "==",
            "s3cr3tValue9",
            "x",
            "\\\"",
        ];
        let mut rng = crate::core::clock::Xorshift::new(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: usize| rng.below(n);
        let mut matched = [0; 2];
        for _ in 0..20_000 {
            let text: String = (0..2 + next(8))
                .map(|_| pieces[next(pieces.len())])
                .collect();
            for (k, i) in [kv, assign].into_iter().enumerate() {
                let m = compiled(i).unwrap().is_match(&text);
                matched[k] += usize::from(m);
                assert!(
                    !m || triggered(&RULES[i], &text),
                    "{} on {text:?}",
                    RULES[i].name
                );
            }
        }
        assert!(matched.iter().all(|&n| n > 50), "{matched:?}");
    }

    #[test]
    fn every_rule_compiles_in_ascii_mode() {
        for (i, rule) in RULES.iter().enumerate() {
            assert!(compiled(i).is_some(), "rule {} does not compile", rule.name);
        }
    }

    #[test]
    fn secret_names() {
        for name in [
            "api_key",
            "apiKey",
            "API-KEY",
            "x_api_key",
            "clientSecret",
            "client_secret",
            "DB_PASSWORD",
            "passwd",
            "access_token",
            "refreshToken",
            "aws_secret_access_key",
            "private-key",
            "secret",
        ] {
            assert!(secret_name(name), "{name}");
        }
        for name in [
            "key",
            "sort_key",
            "primary_key",
            "token",
            "next_token",
            "max_tokens",
            "Keys",
        ] {
            assert!(!secret_name(name), "{name}");
        }
    }

    /// Per-rule compile cost, by hand: `cargo test --release --lib rule_compile_cost --
    /// --ignored --nocapture`. Prints the median of 21 builds; asserts nothing about time.
    #[test]
    #[ignore = "a measurement to run by hand"]
    #[allow(clippy::print_stdout)]
    fn rule_compile_cost() {
        let mut total = 0.0;
        for rule in RULES {
            let mut t: Vec<f64> = (0..21)
                .map(|_| {
                    let start = std::time::Instant::now();
                    assert!(build(rule.pattern).is_some(), "{}", rule.name);
                    start.elapsed().as_secs_f64() * 1e6
                })
                .collect();
            t.sort_by(f64::total_cmp);
            total += t[10];
            println!("{:<22} {:>8.1} us", rule.name, t[10]);
        }
        println!("{:<22} {total:>8.1} us", "all rules");
    }
}
