//! The secret redactor. Every byte baton persists or injects passes through it.
//!
//! Each rule has literal triggers; its regex runs only when one of them occurs in the text,
//! so a text with no secret costs one substring search per trigger (this runs on every
//! PostToolUse). Regexes are compiled on first use. A match is replaced by `[REDACTED]`;
//! rules with capture groups named `keep` and `tail` leave those parts (a variable name, a
//! user name, the `@` of a URL) in place.

use regex::Regex;
use std::sync::OnceLock;

/// What a redacted secret becomes.
pub const MARK: &str = "[REDACTED]";

/// One built-in rule.
struct Rule {
    /// Short name, for reports.
    name: &'static str,
    /// The regex runs only if the text contains one of these (case-sensitive).
    triggers: &'static [&'static str],
    pattern: &'static str,
}

const RULES: &[Rule] = &[
    Rule {
        name: "pem-private-key",
        triggers: &["PRIVATE KEY-----"],
        pattern: r"(?s)-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\z)",
    },
    Rule {
        // What is left of a key block whose BEGIN line was cut off (a captured tail): the
        // base64 lines before an END line. Runs after the whole-block rule above, so any END
        // still here is an orphan.
        name: "pem-orphan-body",
        triggers: &["PRIVATE KEY-----"],
        pattern: r"(?m)(?:^[A-Za-z0-9+/=]{16,}\r?\n)*^[A-Za-z0-9+/=]*-----END [A-Z0-9 ]*PRIVATE KEY-----",
    },
    Rule {
        name: "aws-access-key",
        triggers: &["AKIA", "ASIA"],
        pattern: r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
    },
    Rule {
        name: "github-token",
        triggers: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        pattern: r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})",
    },
    Rule {
        name: "gitlab-token",
        triggers: &["glpat-"],
        pattern: r"\bglpat-[A-Za-z0-9_\-]{20,}",
    },
    Rule {
        name: "slack-token",
        triggers: &["xox"],
        pattern: r"\bxox[abposr]-[A-Za-z0-9\-]{10,}",
    },
    Rule {
        name: "google-api-key",
        triggers: &["AIza"],
        pattern: r"\bAIza[0-9A-Za-z_\-]{35}",
    },
    Rule {
        name: "stripe-key",
        triggers: &["_live_", "_test_"],
        pattern: r"\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}",
    },
    Rule {
        // Anthropic (sk-ant-), OpenAI (sk-proj-, sk-…) and the generic sk- prefix.
        name: "sk-key",
        triggers: &["sk-"],
        pattern: r"\bsk-[A-Za-z0-9_\-]{20,}",
    },
    Rule {
        name: "client-secret",
        triggers: &["client_secret"],
        pattern: r#"\bclient_secret_[A-Za-z0-9_\-]{6,}|(?P<keep>\bclient_secret["']?\s*[:=]\s*["']?)[A-Za-z0-9_\-./+]{8,}"#,
    },
    Rule {
        name: "npm-token",
        triggers: &["npm_"],
        pattern: r"\bnpm_[A-Za-z0-9]{36}\b",
    },
    Rule {
        name: "jwt",
        triggers: &["eyJ"],
        pattern: r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
    },
    Rule {
        name: "bearer-token",
        triggers: &["Bearer", "bearer", "BEARER"],
        pattern: r"(?P<keep>\b(?i:bearer)\s+)[A-Za-z0-9._~+/\-]{16,}=*",
    },
    Rule {
        name: "url-password",
        triggers: &["://"],
        pattern: r"(?P<keep>\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^/\s:@]*:)[^/\s@]{1,256}(?P<tail>@)",
    },
    Rule {
        // Environment-style assignments: `OPENAI_API_KEY=…`, `DB_PASSWORD='…'`, also with
        // JSON-escaped quotes. `==` comparisons and trivial values (numbers, a few letters,
        // `$VAR`) are left alone: `MAX_TOKEN = 4096`, `SORT_KEY=name`, `if API_KEY == ""`.
        name: "secret-assignment",
        triggers: &["KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD"],
        pattern: r#"(?P<keep>\b(?:[A-Z0-9_]*_(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD)|PASSWORD|PASSWD|SECRET|TOKEN)\s*=\s*)(?P<value>\\"(?:[^"\\\n]|\\[^"\n])*\\"|"[^"\n]+"|'[^'\n]+'|[^\s"'\[=\\][^\s"']*)"#,
    },
    Rule {
        // Keys in config files, JSON and YAML: `"api_key": "…"`, `password: …`,
        // `aws_secret_access_key = …`. The value must look like a secret (8+ characters with
        // a letter and a digit), so code such as `password: String` stays as it is.
        name: "secret-key-value",
        triggers: &[
            "key", "KEY", "Key", "secret", "SECRET", "password", "PASSWORD", "Password", "passwd",
            "token", "TOKEN", "Token",
        ],
        pattern: r#"(?P<keep>(?i:["']?\b[a-z0-9_\-]*(?:api[_\-]?key|secret[_\-]?key|access[_\-]?key|private[_\-]?key|client[_\-]?secret|secret|password|passwd|auth[_\-]?token|access[_\-]?token|refresh[_\-]?token|api[_\-]?token)["']?)\s*[:=]\s*["']?)(?P<kvalue>[A-Za-z0-9_\-+/=.~!@#$%^&*]{8,})"#,
    },
];

/// Each rule's regex, compiled the first time its trigger occurs (compiling all of them up
/// front cost several milliseconds per hook run).
static COMPILED: [OnceLock<Option<Regex>>; RULES.len()] = [const { OnceLock::new() }; RULES.len()];

fn compiled(i: usize) -> Option<&'static Regex> {
    COMPILED[i]
        .get_or_init(|| {
            // ASCII classes compile several times faster; rules whose pattern needs Unicode
            // semantics (a `.` that must not split a character) fall back to them.
            regex::RegexBuilder::new(RULES[i].pattern)
                .unicode(false)
                .build()
                .or_else(|_| Regex::new(RULES[i].pattern))
                .ok()
        })
        .as_ref()
}

/// A redactor: the built-in rules plus the project's extra patterns.
#[derive(Debug, Default)]
pub struct Redactor {
    extra: Vec<Regex>,
}

/// The result of redacting a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redacted {
    /// The text with every secret replaced by `[REDACTED]`.
    pub text: String,
    /// How many secrets were replaced.
    pub count: usize,
}

impl Redactor {
    /// The built-in rules only.
    pub fn builtin() -> Self {
        Redactor { extra: Vec::new() }
    }

    /// The built-in rules plus `patterns` (invalid ones are skipped; config validation
    /// reports them by key).
    pub fn with_extra(patterns: &[String]) -> Self {
        Redactor {
            extra: patterns.iter().filter_map(|p| Regex::new(p).ok()).collect(),
        }
    }

    /// Redacts `text`.
    pub fn redact(&self, text: &str) -> Redacted {
        let mut out = std::borrow::Cow::Borrowed(text);
        let mut count = 0;
        for (i, rule) in RULES.iter().enumerate() {
            if !rule.triggers.iter().any(|t| out.contains(t)) {
                continue;
            }
            if let Some(re) = compiled(i) {
                if let Some((new, n)) = replace(re, &out) {
                    out = std::borrow::Cow::Owned(new);
                    count += n;
                }
            }
        }
        for re in &self.extra {
            if let Some((new, n)) = replace(re, &out) {
                out = std::borrow::Cow::Owned(new);
                count += n;
            }
        }
        Redacted {
            text: out.into_owned(),
            count,
        }
    }

    /// The names of the built-in rules (for `doctor` and the README).
    pub fn rule_names() -> Vec<&'static str> {
        RULES.iter().map(|r| r.name).collect()
    }
}

/// Replaces every match of `re` in `text`; `None` when nothing matched.
fn replace(re: &Regex, text: &str) -> Option<(String, usize)> {
    let mut count = 0;
    let new = re.replace_all(text, |caps: &regex::Captures<'_>| {
        if let Some(value) = caps.name("value") {
            if trivial(value.as_str()) {
                return caps[0].to_string();
            }
        }
        if let Some(value) = caps.name("kvalue") {
            let v = value.as_str();
            let secret_like =
                v.bytes().any(|b| b.is_ascii_digit()) && v.bytes().any(|b| b.is_ascii_alphabetic());
            if trivial(v) || !secret_like {
                return caps[0].to_string();
            }
        }
        let keep = caps.name("keep").map_or("", |m| m.as_str());
        let tail = caps.name("tail").map_or("", |m| m.as_str());
        count += 1;
        format!("{keep}{MARK}{tail}")
    });
    match new {
        std::borrow::Cow::Owned(s) if count > 0 => Some((s, count)),
        _ => None,
    }
}

/// A value that cannot be a secret worth hiding: already redacted, a number, a few
/// characters, a `$VAR` reference, or (in a key-value pair) text without both a letter and a
/// digit.
fn trivial(value: &str) -> bool {
    let v = value.trim_matches(|c| c == '"' || c == '\'' || c == '\\');
    v.is_empty()
        || v.contains(MARK)
        || v.len() <= 4
        || v.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        || v.starts_with('$')
}

/// Redacts `text` with the built-in rules.
pub fn redact(text: &str) -> Redacted {
    Redactor::builtin().redact(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Test secrets are assembled at run time so this file holds no string a secret scanner
    // would flag.
    fn joined(parts: &[&str]) -> String {
        parts.concat()
    }

    #[test]
    fn every_rule_compiles() {
        for (i, rule) in RULES.iter().enumerate() {
            assert!(compiled(i).is_some(), "rule {} does not compile", rule.name);
        }
    }

    #[test]
    fn each_listed_pattern_is_removed() {
        let cases = [
            joined(&["AKIA", "IOSFODNN7EXAMPLE"]),
            joined(&[
                "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA ",
                "PRIVATE KEY-----",
            ]),
            joined(&["-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA"]),
            joined(&["ghp_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"]),
            joined(&["ghs_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"]),
            joined(&["gho_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"]),
            joined(&["ghu_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"]),
            joined(&["ghr_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"]),
            joined(&[
                "github_pat_",
                "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
            ]),
            joined(&["sk-", "abcdefghijklmnopqrstuvwxyz012345"]),
            joined(&["sk-ant-", "api03-abcdefghijklmnopqrstuvwxyz-0123456789"]),
            joined(&["sk-proj-", "abcdefghijklmnopqrstuvwxyz0123456789"]),
            joined(&["client_secret_", "abcdef123456"]),
            joined(&["glpat-", "abcdefghij0123456789"]),
            joined(&["xoxb-", "1234567890-abcdefghij"]),
            joined(&["xoxp-", "1234567890-abcdefghij"]),
            joined(&["AIza", "SyA1234567890abcdefghijklmnopqrstuv"]),
            joined(&["sk_live_", "abcdefghijklmnop1234"]),
            joined(&["rk_live_", "abcdefghijklmnop1234"]),
            joined(&["npm_", "abcdefghijklmnopqrstuvwxyz0123456789"]),
            joined(&[
                "eyJ",
                "hbGciOiJIUzI1NiJ9.eyJ",
                "zdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            ]),
        ];
        for secret in &cases {
            let text = format!("before {secret} after");
            let r = redact(&text);
            assert!(
                !r.text.contains(secret.as_str()),
                "not removed: {secret}\n{}",
                r.text
            );
            assert!(r.text.contains(MARK), "{secret}");
            assert!(r.text.starts_with("before "), "{}", r.text);
            assert!(r.count >= 1);
        }
    }

    #[test]
    fn contextual_rules_keep_the_label() {
        let bearer = joined(&["Authorization: Bearer ", "abcdefghijklmnop0123456789"]);
        assert_eq!(redact(&bearer).text, "Authorization: Bearer [REDACTED]");
        let url = joined(&[
            "git clone https://alice:",
            "hunter2pass@example.com/repo.git",
        ]);
        assert_eq!(
            redact(&url).text,
            "git clone https://alice:[REDACTED]@example.com/repo.git"
        );
        let env = joined(&[
            "export OPENAI_API_KEY=",
            "abc123def456\nDB_PASSWORD='p4ss w0rd'\nPASSWORD=",
            "x9y8z7",
        ]);
        let r = redact(&env);
        assert_eq!(
            r.text,
            "export OPENAI_API_KEY=[REDACTED]\nDB_PASSWORD=[REDACTED]\nPASSWORD=[REDACTED]"
        );
        assert_eq!(r.count, 3);
        let token = joined(&["GITHUB_TOKEN=\"", "abc def\""]);
        assert_eq!(redact(&token).text, "GITHUB_TOKEN=[REDACTED]");
    }

    #[test]
    fn ordinary_code_and_prose_are_untouched() {
        let text = r#"
commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 (HEAD -> main)
id: 123e4567-e89b-12d3-a456-426614174000
let max_token = tokens.len(); // the token budget
fn secret_key(&self) -> &str { &self.key }
data: aGVsbG8gd29ybGQsIHRoaXMgaXMganVzdCBiYXNlNjQ=
See https://example.com/docs/api:v2 and task-sk-12 in the backlog.
const API_KEY_HEADER: &str = "x-api-key";
if password == "" { return Err(e) }
The PASSWORD field is required.
Bearer tokens are sent in the Authorization header.
sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
"#;
        let r = redact(text);
        assert_eq!(r.count, 0, "{}", r.text);
        assert_eq!(r.text, text);
    }

    #[test]
    fn key_value_secrets_in_config_json_and_yaml() {
        let cases = [
            (
                joined(&[
                    "aws_secret_access_key = ",
                    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                ]),
                "aws_secret_access_key = [REDACTED]",
            ),
            (
                joined(&["{\"api_key\": \"", "a1b2c3d4e5f6g7h8\"}"]),
                "{\"api_key\": \"[REDACTED]\"}",
            ),
            (
                joined(&["password: ", "hunter2hunter2"]),
                "password: [REDACTED]",
            ),
            (
                joined(&["client_secret: '", "Zx9yW8vU7tS6'"]),
                "client_secret: '[REDACTED]'",
            ),
            (
                joined(&["API_KEY=\\\"", "abc def\\\""]),
                "API_KEY=[REDACTED]",
            ),
            (
                joined(&["curl https://:", "tok3nvalue@example.com"]),
                "curl https://:[REDACTED]@example.com",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(redact(&text).text, want, "{text}");
        }
    }

    #[test]
    fn code_that_names_keys_is_left_alone() {
        let text = "MAX_TOKEN = 4096\nSORT_KEY=name\nPRIMARY_KEY = 'id'\nif API_KEY == \"\" { }\n\
            struct C { password: String, api_key: Option<String> }\nlet token = get_token();\n\
            secret: SecretString,\nAPI_KEY=$API_KEY\nmax_tokens: 4096\n";
        let r = redact(text);
        assert_eq!(r.text, text);
        assert_eq!(r.count, 0);
    }

    #[test]
    fn an_orphan_key_body_is_removed() {
        let text = joined(&[
            "log start\nMIIEowIBAAKCAQEAx7\nabcdefghijklmnopqrstuvwxyz012345\n-----END RSA ",
            "PRIVATE KEY-----\ntest failed\n",
        ]);
        let r = redact(&text);
        assert_eq!(r.text, "log start\n[REDACTED]\ntest failed\n");
    }

    #[test]
    fn extra_patterns_apply() {
        let r = Redactor::with_extra(&["ACME-[0-9]{6}".to_string()]).redact("id ACME-123456 ok");
        assert_eq!(r.text, "id [REDACTED] ok");
        assert_eq!(r.count, 1);
    }

    #[test]
    fn redaction_is_idempotent() {
        let once = redact(&joined(&[
            "TOKEN=",
            "abc ghp_",
            "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
        ]))
        .text;
        let twice = redact(&once);
        assert_eq!(twice.text, once);
        assert_eq!(twice.count, 0);
    }
}
