//! A small thesaurus of software words: groups of words that a developer uses for the same
//! thing ("toggle" for a feature flag, "sign-in" for authentication, "flaky" for an
//! intermittent failure). A question's word also finds the other words of its groups, at
//! `SYNONYM_WEIGHT` of a match of the word itself. Only the question is expanded; records
//! are searched as they are. General words only: nothing here names one project's things.
//!
//! A compound is written with hyphens (`feature-flag`): its term is the joined word, which a
//! text gives for `feature-flag` and `featureflag` alike.

use super::terms::term;
use std::collections::HashMap;
use std::sync::OnceLock;

/// How much a match of a synonym counts against a match of the word itself.
pub(crate) const SYNONYM_WEIGHT: f32 = 0.7;

/// The groups: each line one meaning.
const GROUPS: &[&[&str]] = &[
    &["flag", "toggle", "feature-flag", "featureflag"],
    &["log", "logger", "logging", "tracing", "syslog"],
    &[
        "authorization",
        "authorize",
        "permission",
        "access",
        "rbac",
        "acl",
        "role",
        "privilege",
        "allowed",
        "forbidden",
        "jwt",
        "signed",
    ],
    &[
        "authentication",
        "authenticate",
        "login",
        "log-in",
        "signin",
        "sign-in",
        "logon",
        "sso",
        "oauth",
        "jwt",
        "password",
        "credentials",
    ],
    &["token", "jwt", "bearer"],
    &["cache", "caching", "memoize", "memoization", "memo"],
    &[
        "evict",
        "eviction",
        "expire",
        "expiry",
        "expiration",
        "ttl",
        "invalidate",
        "invalidation",
        "purge",
        "lru",
    ],
    &[
        "database",
        "sql",
        "postgres",
        "postgresql",
        "mysql",
        "sqlite",
        "mariadb",
        "datastore",
    ],
    &["bug", "defect", "regression", "fault", "glitch", "issue"],
    &[
        "fail",
        "failure",
        "failed",
        "failing",
        "broke",
        "broken",
        "crash",
        "crashed",
        "panic",
        "exception",
        "error",
        "errored",
        "red",
    ],
    &[
        "flaky",
        "flake",
        "flakey",
        "intermittent",
        "nondeterministic",
        "sporadic",
        "unstable",
        "racy",
    ],
    &[
        "slow",
        "latency",
        "performance",
        "speed",
        "sluggish",
        "lag",
        "throughput",
        "fast",
        "bottleneck",
    ],
    &[
        "test", "tests", "testing", "suite", "unittest", "spec", "check",
    ],
    &["ci", "pipeline", "workflow", "github-actions", "jenkins"],
    &[
        "deploy",
        "deployment",
        "release",
        "ship",
        "rollout",
        "publish",
    ],
    &["rollback", "revert", "undo", "backout"],
    &["delete", "remove", "drop", "erase", "purge"],
    &["timeout", "deadline", "hang", "hung", "stall", "stuck"],
    &[
        "retry",
        "backoff",
        "reattempt",
        "retries",
        "resend",
        "redeliver",
        "redelivery",
    ],
    &["queue", "job", "worker", "background", "enqueue"],
    &["email", "mail", "smtp", "mailer"],
    &["notification", "notify", "alert", "alerting"],
    &[
        "configuration",
        "setting",
        "settings",
        "option",
        "preference",
    ],
    &[
        "secret",
        "credentials",
        "apikey",
        "api-key",
        "password",
        "vault",
    ],
    &["encrypt", "encryption", "tls", "ssl", "cipher", "https"],
    &["hash", "digest", "checksum", "sha"],
    &["container", "docker", "podman", "image", "dockerfile"],
    &["kubernetes", "pod", "helm", "cluster"],
    &["backend", "server", "service"],
    &["frontend", "ui", "client", "browser", "react"],
    &["endpoint", "route", "api", "rest", "handler"],
    &["parse", "parser", "tokenizer", "tokenize", "lexer", "lex"],
    &["regex", "regexp", "pattern"],
    &["migration", "migrate", "alter", "schema-change"],
    &["index", "indices", "indexes", "indexing"],
    &["search", "lookup", "query", "find"],
    &["dependency", "library", "crate", "package", "module", "gem"],
    &["upgrade", "bump", "update"],
    &["memory", "ram", "heap", "out-of-memory", "leak"],
    &["disk", "storage", "filesystem"],
    &["payment", "billing", "invoice", "charge", "stripe"],
    &[
        "concurrency",
        "parallel",
        "thread",
        "race",
        "mutex",
        "lock",
        "deadlock",
    ],
    &["asynchronous", "await", "tokio", "future", "promise"],
    &["optimize", "speedup", "tune", "tuning", "faster"],
    &["documentation", "readme", "manual", "guide", "docstring"],
    &[
        "lint",
        "linter",
        "clippy",
        "eslint",
        "format",
        "formatter",
        "fmt",
        "prettier",
        "rustfmt",
        "style",
    ],
    &["warning", "warn", "deprecation"],
    &["timezone", "utc", "tz"],
    &["timestamp", "date", "datetime"],
    &["webhook", "callback", "hook"],
    &["cron", "scheduler", "schedule", "periodic", "nightly"],
    &["backup", "snapshot", "restore"],
    &[
        "metric",
        "monitoring",
        "observability",
        "telemetry",
        "dashboard",
        "prometheus",
        "grafana",
    ],
    &["upload", "attachment"],
    &["download", "fetch"],
    &[
        "ratelimit",
        "rate-limit",
        "limiter",
        "throttle",
        "throttling",
        "quota",
    ],
    &["pagination", "paginate", "paging", "cursor"],
    &["validate", "validation", "verify", "check", "sanitize"],
    &[
        "serialize",
        "serialization",
        "deserialize",
        "deserialization",
        "serde",
        "marshal",
        "unmarshal",
        "encode",
        "decode",
        "json",
    ],
    &[
        "compile", "build", "compiler", "bundle", "bundler", "webpack",
    ],
    &["binary", "executable"],
    &["startup", "boot", "launch", "start"],
    &["shutdown", "terminate", "kill", "stop"],
    &["indentation", "indent", "tabs", "spaces", "whitespace"],
    &["wrong", "incorrect", "mistake", "bad"],
    &["fix", "patch", "repair", "resolve", "workaround"],
    &["prefer", "preference", "rather", "instead"],
    &["mock", "stub", "fake"],
    &["fixture", "fixtures", "seed", "testdata"],
    &["staging", "preprod", "pre-production"],
    &["production", "live"],
    &["cli", "terminal", "shell", "command-line"],
    &["unicode", "utf8", "utf-8", "encoding", "charset"],
    &["offline", "airgap", "air-gapped"],
    &["merge", "rebase"],
    &["pull-request", "pr", "merge-request", "review"],
    &["garbage-collection", "gc"],
    &["websocket", "socket"],
    &[
        "locale",
        "translation",
        "internationalization",
        "localization",
    ],
    &["port", "rewrite", "reimplement"],
    &["readonly", "read-only", "immutable"],
    &["duplicate", "dedupe", "deduplicate", "double"],
    &["typo", "misspelling", "spelling"],
    &["dark-mode", "theme"],
    &["crash", "segfault", "abort"],
    &["vendored", "vendor", "bundled", "static"],
    &["openssl", "ssl", "tls"],
    &["reason", "rationale", "because", "why"],
    &[
        "install",
        "installation",
        "setup",
        "set-up",
        "bootstrap",
        "onboarding",
    ],
    &["legacy", "deprecated", "obsolete", "outdated"],
    &["version", "versioning", "semver"],
    &["verbose", "verbosity", "loglevel", "log-level"],
    &[
        "refactor",
        "refactoring",
        "restructure",
        "cleanup",
        "clean-up",
        "tidy",
        "reorganize",
    ],
    &["lockfile", "lock-file"],
    &["workspace", "monorepo"],
    &[
        "security",
        "vulnerability",
        "cve",
        "exploit",
        "injection",
        "xss",
        "csrf",
    ],
    &["benchmark", "bench", "profile", "profiling", "profiler"],
    &["orm", "object-relational"],
    &["typecheck", "type-check", "typing", "mypy", "typescript"],
    &["outage", "incident", "downtime"],
    &["scale", "scaling", "traffic", "capacity"],
    &["accessibility", "screen-reader", "aria"],
    &["name", "naming", "title", "titled", "label"],
    &["message", "text", "wording", "worded", "phrasing"],
    &["embedded", "in-process"],
    &["edit", "modify", "change", "touch", "write"],
];

/// The other terms of every group `t` is in.
pub(crate) fn synonyms(t: &str) -> &'static [String] {
    static MAP: OnceLock<HashMap<String, Vec<String>>> = OnceLock::new();
    let map = MAP.get_or_init(|| {
        let mut map: HashMap<String, Vec<String>> = HashMap::new();
        for group in GROUPS {
            let terms: Vec<String> = group.iter().map(|w| compound(w)).collect();
            for a in &terms {
                let others = map.entry(a.clone()).or_default();
                for b in &terms {
                    if b != a && !others.contains(b) {
                        others.push(b.clone());
                    }
                }
            }
        }
        map
    });
    map.get(t).map_or(&[], Vec::as_slice)
}

/// The term of a word or hyphenated compound of the list.
fn compound(w: &str) -> String {
    term(&w.replace('-', ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_finds_its_group() {
        assert!(synonyms(&term("toggles")).contains(&term("flag")));
        assert!(synonyms(&term("flaky")).contains(&term("intermittent")));
        assert!(synonyms(&term("login")).contains(&term("authentication")));
        // Abbreviations are written out before the lookup: `auth` is authentication.
        assert!(synonyms(&term("auth")).contains(&term("signin")));
        assert!(synonyms("zeppelin").is_empty());
    }
}
