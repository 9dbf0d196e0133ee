//! recall's quality on a generated corpus with known answers (issue 38): 41 planted records of
//! every kind, each asked about twice — once in words close to the record's, once in a
//! paraphrase that shares no content word with it (synonyms, abbreviations, inflections) —
//! among look-alikes (records on the same topics, a Grep whose pattern repeats the question's
//! words, the question itself asked earlier as a prompt) and a few thousand noise records.
//! The same 82 questions go through the CLI (`baton recall --json`) and through the MCP
//! `recall` tool. Targets: the answer's record in the top 3 for ≥ 0.9 of the questions, first
//! for ≥ 0.75, and its answer visible in the excerpt for ≥ 0.9 of those hits.
//!
//! `scripts/bench-recall-quality` runs this test and prints the figures; .ci/run runs it.
//! The questions are written the way developers ask; the pipeline is not tuned to them
//! (general rules only: stems, abbreviations, a thesaurus of software words, intent words).

// A corpus reads best as data: short names for its fields, arms that say the same of
// different kinds, lines built by format.
#![allow(
    clippy::many_single_char_names,
    clippy::match_same_arms,
    clippy::cast_possible_truncation,
    clippy::format_collect
)]

use super::capture::{call, event, prompt, result, transcript_path, write_transcript};
use crate::harness::Project;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

/// What is planted, in its store's own format.
enum Plant {
    Decision(&'static str, &'static str, &'static str, &'static str),
    Convention(&'static str, &'static str),
    Learning(&'static str, &'static str, &'static str),
    Progress(&'static str),
    Checkpoint(&'static str),
    Note(&'static str, &'static str),
    Correction(&'static str),
    Prompt(&'static str),
    /// A failed command and its error.
    Failed(&'static str, &'static str),
    /// A file change: the tool and the path.
    Change(&'static str, &'static str),
    /// A handoff: next action, a failed approach, an open question.
    Handoff(&'static str, &'static str, &'static str),
    /// A relay packet: loop id, finding, decision.
    Packet(&'static str, &'static str, &'static str),
    NeedsHuman(&'static str),
    /// A captured turn: request, conclusion.
    Turn(&'static str, &'static str),
    /// A captured test run that exited 0: request, command, output.
    TestRun(&'static str, &'static str, &'static str),
}

impl Plant {
    /// Every word the record holds (for the paraphrase check).
    fn stored(&self) -> String {
        match self {
            Plant::Decision(a, b, c, d) => format!("{a} {b} {c} {d}"),
            Plant::Convention(a, b)
            | Plant::Failed(a, b)
            | Plant::Change(a, b)
            | Plant::Turn(a, b) => format!("{a} {b}"),
            Plant::Learning(a, b, c)
            | Plant::Handoff(a, b, c)
            | Plant::Packet(a, b, c)
            | Plant::TestRun(a, b, c) => format!("{a} {b} {c}"),
            Plant::Progress(a)
            | Plant::Checkpoint(a)
            | Plant::Correction(a)
            | Plant::Prompt(a)
            | Plant::NeedsHuman(a) => (*a).to_string(),
            Plant::Note(a, b) => format!("{a} {b}"),
        }
    }
}

/// One planted record and the two questions that ask for it.
struct Fact {
    plant: Plant,
    /// The kind its hit has.
    kind: &'static str,
    /// Part of its hit's title (or id): which hit it is.
    key: &'static str,
    /// Part of its answer, which the excerpt must show.
    answer: &'static str,
    /// A question in words close to the record's.
    literal: &'static str,
    /// The same question sharing no content word with the record.
    paraphrase: &'static str,
}

const fn fact(
    kind: &'static str,
    plant: Plant,
    key: &'static str,
    answer: &'static str,
    literal: &'static str,
    paraphrase: &'static str,
) -> Fact {
    Fact {
        plant,
        kind,
        key,
        answer,
        literal,
        paraphrase,
    }
}

const FACTS: &[Fact] = &[
    // decisions
    fact("decision", Plant::Decision("Sessions checked with a signed token", "every request to the admin API hit the sessions table", "verify a signed JWT at the edge instead of a table lookup", "no database round-trip per request; keys rotate weekly"),
        "Sessions checked with a signed token", "no database round-trip",
        "why did we switch to a signed JWT for the admin API?", "how are privileged endpoints authorised?"),
    fact("decision", Plant::Decision("Feature flags read from config at startup", "flags were scattered over env vars", "flags live in config/flags.yaml and are read once at boot", "a restart is acceptable; a flag service was overkill"),
        "Feature flags read from config", "config/flags.yaml",
        "where do feature flags live?", "how do we manage toggles?"),
    fact("decision", Plant::Decision("Evict the response cache by LRU", "memory grew without bound under load", "evict least-recently-used entries past 10k", "bounds memory with the least bookkeeping"),
        "Evict the response cache by LRU", "least-recently-used",
        "what did we decide about cache eviction?", "what's our policy for purging stale memoized results?"),
    fact("decision", Plant::Decision("Postgres advisory locks for the job scheduler", "two scheduler replicas ran the same job twice", "take pg_advisory_lock per job id before running it", "no extra service; the lock dies with the connection"),
        "Postgres advisory locks", "pg_advisory_lock",
        "which locking did we choose for the job scheduler?", "why did we pick a mutex in the db for cron?"),
    fact("decision", Plant::Decision("SQLite for the local event store", "developers need the event history offline", "keep events in an embedded SQLite file under .data/", "no server to run on laptops"),
        "SQLite for the local event store", "embedded SQLite file",
        "why did we choose SQLite for events?", "what made us go with an in-process db?"),
    fact("decision", Plant::Decision("Retry webhooks with exponential backoff", "receivers were flooded during outages", "retry up to 8 times, doubling the delay from 1 s", "spreads the load when a receiver comes back"),
        "Retry webhooks with exponential backoff", "doubling the delay",
        "how do webhook retries back off?", "what happens when a callback delivery fails?"),
    fact("decision", Plant::Decision("Keep database migrations forward-only", "a rollback of a data fix lost rows twice", "never write down-migrations; fix forward with a new migration", "undoing data fixes is not safe"),
        "Keep database migrations forward-only", "fix forward",
        "why don't we write down migrations?", "why can't we revert a schema change?"),
    // conventions
    fact("convention", Plant::Convention("Error messages are lower-case", "one line, lower-case, say what to do next"),
        "Error messages are lower-case", "say what to do next",
        "what is our convention for error messages?", "how should failure text be worded?"),
    fact("convention", Plant::Convention("Indent with four spaces", "four spaces, never tabs, in every source file"),
        "Indent with four spaces", "never tabs",
        "do we indent with tabs or spaces?", "what's the indentation style?"),
    fact("convention", Plant::Convention("Log lines are structured JSON", "emit one JSON object per log line with level and msg"),
        "Log lines are structured JSON", "one JSON object per log line",
        "how are log lines formatted?", "what format does our logging use?"),
    fact("convention", Plant::Convention("Test names are sentences", "name each test after the behaviour it checks, as a sentence"),
        "Test names are sentences", "as a sentence",
        "convention for test names", "how should specs be titled?"),
    // learnings
    fact("learning", Plant::Learning("error", "git2-openssl", "git2 with default features pulls in openssl; build it without them"),
        "git2-openssl", "without them",
        "what did we learn about git2 and openssl?", "lesson about the TLS library dragged in by the git bindings"),
    fact("learning", Plant::Learning("error", "flaky-websocket-test", "the websocket test races the server start; wait for the port before connecting"),
        "flaky-websocket-test", "wait for the port",
        "lesson about the flaky websocket test", "why does the ws spec fail intermittently?"),
    fact("learning", Plant::Learning("performance", "serde-untagged-slow", "serde untagged enums try every variant; a tagged enum parsed 5x faster"),
        "serde-untagged-slow", "5x faster",
        "what did we learn about serde untagged enum performance?", "why was deserialization sluggish?"),
    fact("learning", Plant::Learning("insight", "docker-layer-order", "copy Cargo.lock before the sources so the dependency layer stays cached and rebuilds are fast"),
        "docker-layer-order", "Cargo.lock before the sources",
        "learning about docker layer order", "tip for speeding up container image builds"),
    fact("learning", Plant::Learning("error", "jest-fake-timers", "fake timers must be restored in afterEach or later suites hang"),
        "jest-fake-timers", "restored in afterEach",
        "what did we learn about jest fake timers?", "gotcha about mocked clocks making specs stall"),
    // progress
    fact("progress", Plant::Progress("**Completed:**\n- [x] Ported the billing export to the new API\n**Next:**\n- remove the old export job"),
        "Ported the billing export", "Ported the billing export",
        "when was the billing export ported?", "how far did the invoicing extract rewrite get?"),
    fact("progress", Plant::Checkpoint("**Doing:** wiring the retry queue into the webhook sender\n**Left:**\n1. backoff jitter\n2. dead-letter table"),
        "Checkpoint", "dead-letter table",
        "checkpoint about the webhook retry queue", "what was still open on the callback resend work?"),
    // notes
    fact("note", Plant::Note("Attention Points", "[2026-10-02] the nightly backup fills the storage quota by Friday"),
        "nightly backup", "storage quota",
        "note about the nightly backup", "anything to watch about the snapshot job running out of disk?"),
    fact("note", Plant::Note("Follow-Up Items", "[ ] [2026-10-03] check the rate limiter under burst traffic"),
        "rate limiter", "burst traffic",
        "follow up on the rate limiter", "is there a todo about throttling spikes?"),
    fact("note", Plant::Note("Attention Points", "[2026-10-04] the payment webhook signature check is skipped in dev mode"),
        "signature check", "skipped in dev mode",
        "note about the webhook signature check", "anything to watch regarding callback verification?"),
    // corrections
    fact("correction", Plant::Correction("no, the staging database is read-only — use the fixtures instead"),
        "staging database is read-only", "use the fixtures",
        "what did the user say about the staging database?", "what was I told about writing to the preprod db?"),
    fact("correction", Plant::Correction("don't print to stdout, go through the log crate"),
        "go through the log crate", "log crate",
        "what did the user correct about printing to stdout?", "what did the user say about logging?"),
    fact("correction", Plant::Correction("no — timestamps must be UTC, not local time"),
        "timestamps must be UTC", "UTC, not local time",
        "what did the user correct about timestamps?", "what did the user say about timezones?"),
    fact("correction", Plant::Correction("stop mocking the database in integration tests, use a real postgres container"),
        "stop mocking the database", "real postgres container",
        "what did the user correct about mocking the database?", "what did I get told about fakes and stubs in the db suite?"),
    fact("correction", Plant::Correction("no, don't bump dependencies in this change, keep the lockfile as it is"),
        "don't bump dependencies", "keep the lockfile",
        "what did the user say about bumping dependencies?", "what did the user want regarding upgrading deps?"),
    // prompts
    fact("prompt", Plant::Prompt("add a dark-mode toggle to the settings page"),
        "dark-mode toggle", "settings page",
        "when did I ask for the dark-mode toggle?", "when did I request a theme flag?"),
    fact("prompt", Plant::Prompt("the search endpoint is slow on large tenants, profile it"),
        "the search endpoint is slow", "profile it",
        "when did I ask to profile the search endpoint?", "when did I complain about latency of the lookup route?"),
    fact("prompt", Plant::Prompt("write a migration that splits the address column into street and city"),
        "splits the address column", "street and city",
        "when did I ask for the address column migration?", "when did I ask to alter addresses?"),
    // failed tool calls
    fact("tool", Plant::Failed("cargo test --test migrations", "migration 0042_split_address failed: column city already exists"),
        "cargo test --test migrations", "column city already exists",
        "when did the migration test last fail?", "what broke when we ran the migrate checks?"),
    fact("tool", Plant::Failed("npm run build", "Module not found: Can't resolve 'chart.js'"),
        "npm run build", "resolve 'chart.js'",
        "why did the npm build fail?", "what crashed compiling the bundle?"),
    // changes
    fact("change", Plant::Change("Edit", "src/billing/invoice.rs"),
        "src/billing/invoice.rs", "invoice.rs",
        "which change touched the invoice code?", "when were the payments sources modified?"),
    fact("change", Plant::Change("Write", "src/auth/session.rs"),
        "src/auth/session.rs", "auth/session.rs",
        "edits to the auth session file", "when did we touch the sign-in code?"),
    // handoffs
    fact("handoff", Plant::Handoff("Finish the CSV importer's header mapping", "sniffing the delimiter with a regex failed on quoted fields", "should empty rows be skipped?"),
        "CSV importer", "regex failed on quoted fields",
        "handoff about the CSV importer delimiter", "what broke when we tried pattern matching to guess separators?"),
    fact("handoff", Plant::Handoff("Rebase the payments branch onto main", "cherry-picking the refund commits lost the migration", "should refunds reuse the charge id?"),
        "Rebase the payments branch", "Rebase the payments branch",
        "handoff about rebasing payments", "where did we leave the billing work?"),
    // relay packets
    fact("packet", Plant::Packet("WL-031", "login test flaky on CI", "quarantine the login test until the fixture is fixed"),
        "WL-031", "login test flaky",
        "relay packet with the flaky login finding", "what finding said the sign-in spec is intermittent?"),
    fact("packet", Plant::NeedsHuman("NEEDS-HUMAN: verify-on-resume.sh exited 1\n--- output ---\ncargo fmt --check failed in src/webhooks/retry.rs"),
        "NEEDS-HUMAN", "cargo fmt --check failed",
        "why does the loop need a human?", "which lint stopped the unattended run?"),
    // captured sessions: each turn's conclusion, a test run's failure although it exited 0
    fact("session", Plant::Turn("investigate the memory spike in the worker", "The spike comes from buffering whole exports in RAM; streaming them fixed it (peak 2.1 GB down to 180 MB)."),
        "memory spike in the worker", "buffering whole exports",
        "what caused the memory spike in the worker?", "why did the background job run out of heap?"),
    fact("session", Plant::Turn("localize the onboarding emails", "Moved the onboarding email strings into locales/*.ftl; German and French are done, Spanish is still open."),
        "localize the onboarding emails", "Spanish is still open",
        "which session worked on email localization?", "how far did the translation of welcome mails get?"),
    fact("session", Plant::Turn("why is CI slow?", "CI spends 9 of 12 minutes compiling; caching target/ with sccache brings it to 4 minutes."),
        "why is CI slow", "sccache",
        "what did we find about slow CI?", "why does the pipeline take so long?"),
    fact("session", Plant::TestRun("run the parser tests", "cargo test parser 2>&1 | tail -5", "test parser::tests::nested_lists ... FAILED\n\nfailures:\n    parser::tests::nested_lists\n\ntest result: FAILED. 41 passed; 1 failed; 0 ignored"),
        "run the parser tests", "nested_lists",
        "which parser test failed?", "what went red in the tokenizer suite?"),
];

/// Records on the same topics as the facts: they must not outrank the answers.
fn look_alikes(s: &mut State) {
    for (t, c, d) in [
        (
            "Session cookies expire after 30 minutes",
            "idle admin sessions stayed open",
            "expire the session cookie after 30 idle minutes",
        ),
        (
            "Warm the response cache at boot",
            "cold starts were slow",
            "prefill the cache from the top 100 queries",
        ),
        (
            "File locks for the CLI",
            "two CLI runs wrote the same file",
            "take an flock on the state file",
        ),
        (
            "Use Postgres for the reporting store",
            "reports need joins",
            "a read replica of the main database",
        ),
        (
            "Drop the XML export",
            "nobody used it",
            "remove the XML export job",
        ),
    ] {
        s.decision(t, c, d, "it was the simplest option");
    }
    s.conventions.push(convention(
        "Flags of the CLI use kebab-case",
        "every CLI flag is kebab-case",
    ));
    s.conventions.push(convention(
        "Error types per module",
        "each module has one error enum",
    ));
    s.learnings.push(learning(
        "insight",
        "websocket-reconnect",
        "the websocket client reconnects on its own after 5 s",
    ));
    s.learnings.push(learning(
        "insight",
        "openssl-in-ci",
        "CI images already ship openssl 3",
    ));
    for (id, input) in [
        ("la-1", "grep -rn 'feature flags' src/"),
        ("la-2", "rg 'cache eviction' docs/"),
        ("la-3", "grep -rn 'authorize' src/admin/"),
        ("la-4", "rg 'staging database' ."),
        ("la-5", "grep -rn 'migration test' tests/"),
        ("la-6", "rg 'webhook retr' src/"),
        ("la-7", "rg 'log lines' src/"),
    ] {
        s.records
            .push(tool(id, "2026-10-20T10:00:00Z", "Grep", input, None));
    }
    // The questions themselves, asked before as prompts: never an answer.
    for (i, f) in FACTS.iter().enumerate().step_by(3) {
        s.records.push(record_prompt(
            &format!("q-{i}"),
            "2026-11-29T10:00:00Z",
            f.literal,
        ));
    }
    s.records.push(record_prompt(
        "q-recall",
        "2026-11-29T11:00:00Z",
        "/baton:recall where do feature flags live",
    ));
}

// ------------------------------------------------------------------------------------------
// Writing the state
// ------------------------------------------------------------------------------------------

/// A small deterministic random source (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const VOCAB: &[&str] = &[
    "cache",
    "queue",
    "worker",
    "api",
    "token",
    "session",
    "migration",
    "test",
    "build",
    "deploy",
    "config",
    "schema",
    "index",
    "retry",
    "timeout",
    "billing",
    "auth",
    "export",
    "import",
    "search",
    "sync",
    "webhook",
    "email",
    "report",
    "logging",
    "metrics",
    "database",
    "redis",
    "docker",
    "frontend",
    "invoice",
    "address",
    "scheduler",
    "assets",
    "flags",
    "parser",
];

#[derive(Default)]
struct State {
    decisions: Vec<String>,
    conventions: Vec<String>,
    learnings: Vec<Value>,
    progress: Vec<String>,
    notes: Vec<(&'static str, String)>,
    checkpoint: String,
    records: Vec<Value>,
    handoffs: Vec<String>,
    packet: String,
    needs_human: String,
    day: u32,
}

impl State {
    /// The next day of the year (facts and look-alikes spread over it).
    fn next_day(&mut self) -> String {
        self.day = self.day % 300 + 7;
        format!("2026-{:02}-{:02}", self.day / 28 + 1, self.day % 28 + 1)
    }

    fn decision(&mut self, title: &str, context: &str, decision: &str, rationale: &str) {
        let d = self.next_day();
        self.decisions.push(format!(
            "## [{d} 10:15] Decision: {title}\n**Context:** {context}\n**Decision:** {decision}\n**Rationale:** {rationale}\n"
        ));
    }
}

fn convention(title: &str, pattern: &str) -> String {
    format!("## [2026-06-01] Convention: {title}\n**Pattern:** {pattern}\n**Applies to:** src/\n")
}

fn learning(kind: &str, key: &str, insight: &str) -> Value {
    json!({"ts": "2026-07-01T09:00:00Z", "skill": "session-bridge", "type": kind, "key": key,
           "insight": insight, "confidence": 0.7})
}

fn tool(id: &str, ts: &str, tool: &str, input: &str, error: Option<&str>) -> Value {
    let mut r = json!({"id": id, "ts": ts, "type": "data", "tool": tool, "input": input,
                       "outcome": if error.is_some() { "error" } else { "ok" },
                       "claude_session": "cs-1"});
    if let Some(e) = error {
        r["error"] = json!(e);
        r["exit_code"] = json!(1);
    }
    r
}

fn record_prompt(id: &str, ts: &str, text: &str) -> Value {
    json!({"id": id, "ts": ts, "type": "conversation", "role": "user", "text": text,
           "claude_session": "cs-1"})
}

/// Plants one fact (captured turns are written by `capture_turns`).
fn plant(s: &mut State, i: usize, f: &Fact) {
    let ts = format!("{}T12:00:00Z", s.next_day());
    let id = format!("f-{i:03}");
    match &f.plant {
        Plant::Decision(t, c, d, r) => s.decision(t, c, d, r),
        Plant::Convention(t, p) => s.conventions.push(convention(t, p)),
        Plant::Learning(k, key, ins) => s.learnings.push(learning(k, key, ins)),
        Plant::Progress(body) => s
            .progress
            .push(format!("## [{} 18:00] Session Summary\n{body}\n", &ts[..10])),
        Plant::Checkpoint(body) => {
            s.checkpoint = format!("# Checkpoint — {} 10:00\n\n{body}\n", &ts[..10]);
        }
        Plant::Note(section, item) => s.notes.push((section, (*item).to_string())),
        Plant::Correction(text) => s.records.push(json!({"id": id, "ts": ts,
            "type": "user_correction", "text": text, "pattern": "^no\\b", "claude_session": "cs-1"})),
        Plant::Prompt(text) => s.records.push(record_prompt(&id, &ts, text)),
        Plant::Failed(cmd, err) => s.records.push(tool(&id, &ts, "Bash", cmd, Some(err))),
        Plant::Change(t, path) => s.records.push(json!({"id": id, "ts": ts, "type": "change",
            "tool": t, "input": path, "path": path, "outcome": "ok", "claude_session": "cs-1"})),
        Plant::Handoff(next, failed, question) => s.handoffs.push(format!(
            "---\nartifact: session-handoff\nschema_version: 1\nsession_id: SESSION-{n}\ncaptured_at: {ts}\ncaptured_by: agent\nrecommended_next: /dr-next T-1\nnext_action: {next}\nactive_tasks:\n  - T-1\n---\n\n## Layer 1 — Git State\nrepo: . branch: main\n\n## Layer 4 — Open Questions\n- {question}\n\n## Layer 5 — Failed Approaches\n- {failed}\n",
            n = format_args!("2026{:04}-101500", i)
        )),
        Plant::Packet(loop_id, finding, decision) => {
            s.packet = format!("---\nloop_id: {loop_id}\norchestrator_phase: verify\nverifier_status: green\nlanded_this_session: 2\nopen_findings:\n- {finding}\ndecisions:\n- {decision}\nwritten_at: {ts}\n---\n# Relay packet {loop_id}\n\n## Open findings\n\n- {finding}\n\n## Decisions\n\n- {decision}\n");
        }
        Plant::NeedsHuman(text) => s.needs_human = format!("{text}\n"),
        Plant::Turn(..) | Plant::TestRun(..) => {}
    }
}

/// Noise: records of every kind made of the same words as the questions.
fn noise(s: &mut State, rng: &mut Rng) {
    for i in 0..120 {
        let (a, b, c) = (rng.pick(VOCAB), rng.pick(VOCAB), rng.pick(VOCAB));
        s.decision(
            &format!("Move the {a} {b} ({i})"),
            &format!("the {b} {c} was slow"),
            &format!("use the {c} for the {a}"),
            "simpler",
        );
    }
    for i in 0..200 {
        let (a, b, c) = (rng.pick(VOCAB), rng.pick(VOCAB), rng.pick(VOCAB));
        let kind = ["decision", "error", "insight", "performance"][i % 4];
        s.learnings.push(learning(
            kind,
            &format!("{a}-{b}-{i}"),
            &format!("the {a} {b} needs a {c} check"),
        ));
    }
    for i in 0..20 {
        let (a, b) = (rng.pick(VOCAB), rng.pick(VOCAB));
        s.conventions.push(convention(
            &format!("{a} {b} rule {i}"),
            &format!("every {a} has a {b}"),
        ));
        s.notes
            .push(("Active Topics", format!("the {a} talks to the {b} ({i})")));
        s.progress.push(format!(
            "## [2026-05-{:02} 18:00] Session Summary\n**Completed:**\n- [x] tidy the {a} {b}\n",
            i + 1
        ));
    }
    for r in 0..3000 {
        let ts = format!(
            "2026-{:02}-{:02}T{:02}:{:02}:00Z",
            r % 11 + 1,
            r % 28 + 1,
            8 + r % 10,
            r % 60
        );
        let (a, b) = (rng.pick(VOCAB), rng.pick(VOCAB));
        let id = format!("n-{r:05}");
        s.records.push(match r % 10 {
            0 => record_prompt(&id, &ts, &format!("look at the {a} {b} please")),
            1 => json!({"id": id, "ts": ts, "type": "change", "tool": "Edit",
                        "input": format!("src/{a}/{b}.rs"), "path": format!("src/{a}/{b}.rs"),
                        "outcome": "ok", "claude_session": "cs-1"}),
            2 if r % 7 == 0 => tool(
                &id,
                &ts,
                "Bash",
                &format!("cargo test {a}"),
                Some("assertion failed"),
            ),
            _ => tool(
                &id,
                &ts,
                rng.pick(&["Read", "Grep", "Bash", "Glob"]),
                &format!("src/{a}/{b}.rs {a}"),
                None,
            ),
        });
    }
}

fn write_state(p: &Project, s: &State) {
    let md = |header: &str, entries: &[String]| {
        let mut t = format!("{header}\n");
        for e in entries {
            t.push('\n');
            t.push_str(e);
        }
        t
    };
    p.write(".rune/decisions.md", &md("# Decisions Log", &s.decisions));
    p.write(".rune/conventions.md", &md("# Conventions", &s.conventions));
    p.write(".rune/progress.md", &md("# Progress", &s.progress));
    p.write(".rune/checkpoint.md", &s.checkpoint);
    let learnings: String = s.learnings.iter().map(|l| format!("{l}\n")).collect();
    p.write(".rune/learnings.jsonl", &learnings);
    let mut notes = String::from("# Cumulative Project Notes\n");
    for section in ["Attention Points", "Follow-Up Items", "Active Topics"] {
        let _ = write!(notes, "\n## {section}\n");
        for (_, item) in s.notes.iter().filter(|(n, _)| *n == section) {
            let _ = writeln!(notes, "- {item}");
        }
    }
    p.write(".rune/cumulative-notes.md", &notes);
    let dir = ".boo/runs/adhoc_20261001_0800";
    p.write(
        &format!("{dir}/session.json"),
        &json!({"session_id": "adhoc_20261001_0800", "task": "day to day work",
                "start_time": "2026-01-01T08:00:00Z", "end_time": "2026-12-01T18:00:00Z",
                "status": "completed"})
        .to_string(),
    );
    let trail: String = s.records.iter().map(|r| format!("{r}\n")).collect();
    p.write(&format!("{dir}/audit_trail.jsonl"), &trail);
    for (i, h) in s.handoffs.iter().enumerate() {
        p.write(
            &format!("datarim/sessions/SESSION-2026{i:04}-101500.session.md"),
            h,
        );
    }
    p.write(".handoff/packets/latest.md", &s.packet);
    p.write(".handoff/loop/NEEDS-HUMAN", &s.needs_human);
}

/// The captured turns: a transcript per session, read by the real Stop hook.
fn capture_turns(p: &Project) {
    for (i, f) in FACTS.iter().enumerate() {
        let sid = format!("{:08x}-0000-4000-8000-{:012x}", 0x5e55_0000 + i, i);
        let (lines, last): (Vec<Value>, &str) = match &f.plant {
            Plant::Turn(request, conclusion) => (
                vec![
                    prompt(request),
                    call("m1", "t1", "Bash", &json!({"command": "make check"})),
                    result("t1", "ok", false, &json!({"stdout": "ok"})),
                    json!({"type": "assistant", "message": {"id": "m2", "content": [{"type": "text", "text": conclusion}]}}),
                ],
                conclusion,
            ),
            Plant::TestRun(request, command, output) => (
                vec![
                    prompt(request),
                    call("m1", "t1", "Bash", &json!({"command": command})),
                    result(
                        "t1",
                        output,
                        false,
                        &json!({"stdout": output, "stderr": "", "interrupted": false}),
                    ),
                    json!({"type": "assistant", "message": {"id": "m2", "content": [{"type": "text", "text": "Ran the suite."}]}}),
                ],
                "Ran the suite.",
            ),
            _ => continue,
        };
        write_transcript(&transcript_path(p, &sid), &lines);
        let ev = event(
            p,
            "Stop",
            &sid,
            &json!({"stop_hook_active": false, "last_assistant_message": last}),
        );
        let out = p.hook("Stop", ev.as_bytes());
        assert_eq!(out.code, 0, "{out:?}");
    }
}

fn corpus() -> Project {
    let p = Project::new();
    let mut s = State::default();
    for (i, f) in FACTS.iter().enumerate() {
        plant(&mut s, i, f);
    }
    look_alikes(&mut s);
    noise(&mut s, &mut Rng(0x9e37_79b9_7f4a_7c15));
    write_state(&p, &s);
    capture_turns(&p);
    p
}

// ------------------------------------------------------------------------------------------
// The evaluation
// ------------------------------------------------------------------------------------------

/// Words a question is made of beyond its content (for the paraphrase check only).
const QUESTION_WORDS: &[&str] = &[
    "a",
    "about",
    "an",
    "and",
    "anything",
    "are",
    "ask",
    "by",
    "can",
    "can't",
    "did",
    "do",
    "does",
    "don't",
    "for",
    "get",
    "go",
    "happens",
    "how",
    "i",
    "in",
    "is",
    "it",
    "me",
    "of",
    "on",
    "or",
    "our",
    "say",
    "should",
    "so",
    "the",
    "there",
    "to",
    "told",
    "us",
    "user",
    "want",
    "was",
    "we",
    "what",
    "what's",
    "when",
    "where",
    "which",
    "why",
    "with",
    "made",
    "much",
    "long",
    "far",
    "still",
    "open",
    "lesson",
    "gotcha",
    "tip",
    "note",
    "watch",
    "regarding",
    "request",
    "complain",
    "went",
    "find",
    "take",
    "leave",
    "pick",
    "choose",
    "into",
    "up",
    "out",
];

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Where one question's answer stood.
struct Found {
    rank: Option<usize>,
    excerpt_ok: bool,
}

fn rank_in(hits: &[(String, String)], f: &Fact) -> Found {
    let norm = |s: &str| s.replace("**", "").to_lowercase();
    for (i, (head, excerpt)) in hits.iter().enumerate() {
        let kind_ok = head.starts_with(&format!("{} ·", f.kind));
        if kind_ok && norm(&format!("{head} {excerpt}")).contains(&f.key.to_lowercase()) {
            return Found {
                rank: Some(i + 1),
                excerpt_ok: norm(&format!("{head} {excerpt}")).contains(&f.answer.to_lowercase()),
            };
        }
    }
    Found {
        rank: None,
        excerpt_ok: false,
    }
}

/// The CLI's hits: (title and id, excerpt).
fn cli_hits(p: &Project, q: &str) -> Vec<(String, String)> {
    let out = p.run(&["recall", q, "--limit", "5", "--json"], b"", &[]);
    assert_eq!(out.code, 0, "{q}: {out:?}");
    out.json()["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let head = format!(
                "{} · {} {}",
                h["kind"].as_str().unwrap_or(""),
                h["title"].as_str().unwrap_or(""),
                h["id"].as_str().unwrap_or("")
            );
            (head, h["excerpt"].as_str().unwrap_or("").to_string())
        })
        .collect()
}

/// The MCP tool's hits, read from its text: each block's first line (kind, place, id) and
/// title as the head, its third line as the excerpt.
fn mcp_hits(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for block in text.split("\n\n").skip(1) {
        let lines: Vec<&str> = block.lines().collect();
        if lines.len() < 2
            || lines[0]
                .split('.')
                .next()
                .is_none_or(|n| n.parse::<usize>().is_err())
        {
            continue;
        }
        let meta = lines[0].split_once(". ").map_or(lines[0], |(_, m)| m);
        let head = format!("{meta} {}", lines[1]);
        out.push((head, lines.get(2).copied().unwrap_or("").to_string()));
    }
    out
}

struct Mcp {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
    id: u64,
}

impl Mcp {
    fn start(p: &Project) -> Mcp {
        let mut child = p
            .command(&["mcp"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        Mcp { child, out, id: 0 }
    }

    fn recall(&mut self, q: &str) -> String {
        self.id += 1;
        let msg = json!({"jsonrpc": "2.0", "id": self.id, "method": "tools/call",
                         "params": {"name": "recall", "arguments": {"query": q, "limit": 5}}});
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        self.out.read_line(&mut line).unwrap();
        let v: Value = serde_json::from_str(&line).unwrap();
        v["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or("")
            .to_string()
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The figures of one route over every question.
#[derive(Default)]
struct Score {
    asked: usize,
    top1: usize,
    top3: usize,
    excerpt: usize,
    misses: Vec<String>,
    by_kind: BTreeMap<&'static str, (usize, usize)>,
}

impl Score {
    fn add(&mut self, f: &Fact, q: &str, found: &Found, hits: &[(String, String)]) {
        self.asked += 1;
        let e = self.by_kind.entry(f.kind).or_default();
        e.0 += 1;
        match found.rank {
            Some(r) if r <= 3 => {
                self.top3 += 1;
                e.1 += 1;
                self.top1 += usize::from(r == 1);
                if found.excerpt_ok {
                    self.excerpt += 1;
                } else {
                    self.misses
                        .push(format!("excerpt lacks {:?}: {q}", f.answer));
                }
            }
            _ => {
                let got: Vec<&str> = hits.iter().take(3).map(|(h, _)| h.as_str()).collect();
                self.misses
                    .push(format!("{q} → {:?} (wanted {:?})", got, f.key));
            }
        }
    }

    #[allow(clippy::cast_precision_loss)]
    fn line(&self, route: &str) -> String {
        let share = |n: usize, of: usize| n as f64 / of.max(1) as f64;
        format!(
            "{route}: {} questions: top-1 {:.3}, top-3 {:.3}, answer in the excerpt {:.3} of the top-3 hits",
            self.asked,
            share(self.top1, self.asked),
            share(self.top3, self.asked),
            share(self.excerpt, self.top3)
        )
    }

    #[allow(clippy::cast_precision_loss)]
    fn check(&self, route: &str) {
        let share = |n: usize, of: usize| n as f64 / of.max(1) as f64;
        let ok = share(self.top3, self.asked) >= 0.9
            && share(self.top1, self.asked) >= 0.75
            && share(self.excerpt, self.top3) >= 0.9;
        assert!(
            ok,
            "{} (targets: top-3 ≥ 0.9, top-1 ≥ 0.75, excerpt ≥ 0.9)\n{}",
            self.line(route),
            self.misses.join("\n")
        );
    }
}

#[test]
fn the_corpus_is_what_it_claims() {
    assert!(FACTS.len() * 2 >= 80, "at least 80 questions");
    let kinds: std::collections::BTreeSet<&str> = FACTS.iter().map(|f| f.kind).collect();
    assert_eq!(kinds.len(), 12, "every kind is asked about: {kinds:?}");
    // A paraphrase shares no content word with its record.
    for f in FACTS {
        let stored = words(&f.plant.stored());
        for w in words(f.paraphrase) {
            assert!(
                QUESTION_WORDS.contains(&w.as_str()) || !stored.contains(&w),
                "paraphrase {:?} shares {w:?} with its record",
                f.paraphrase
            );
        }
    }
}

#[test]
fn eighty_two_questions_find_their_answers_through_the_cli_and_mcp() {
    let p = corpus();
    let mut cli = [Score::default(), Score::default()];
    let mut mcp = [Score::default(), Score::default()];
    let mut server = Mcp::start(&p);
    for f in FACTS {
        for (i, q) in [f.literal, f.paraphrase].into_iter().enumerate() {
            let hits = cli_hits(&p, q);
            cli[i].add(f, q, &rank_in(&hits, f), &hits);
            let hits = mcp_hits(&server.recall(q));
            mcp[i].add(f, q, &rank_in(&hits, f), &hits);
        }
    }
    let merged = |s: &[Score; 2]| {
        let mut m = Score::default();
        for x in s {
            m.asked += x.asked;
            m.top1 += x.top1;
            m.top3 += x.top3;
            m.excerpt += x.excerpt;
            m.misses.extend(x.misses.iter().cloned());
        }
        m
    };
    let (all_cli, all_mcp) = (merged(&cli), merged(&mcp));
    eprintln!("recall quality (tests/integration/recall_quality.rs):");
    eprintln!("  {}", all_cli.line("CLI"));
    eprintln!("  {}", cli[0].line("CLI, close wording"));
    eprintln!("  {}", cli[1].line("CLI, paraphrases"));
    eprintln!("  {}", all_mcp.line("MCP recall"));
    for (kind, (asked, top3)) in &cli[0].by_kind {
        let para = cli[1].by_kind.get(kind).copied().unwrap_or_default();
        eprintln!(
            "  {kind}: top-3 {}/{} close, {}/{} paraphrased",
            top3, asked, para.1, para.0
        );
    }
    if !all_cli.misses.is_empty() {
        eprintln!("  misses:\n    {}", all_cli.misses.join("\n    "));
    }
    all_cli.check("CLI");
    all_mcp.check("MCP recall");
}

/// Builds the corpus and keeps it, for looking at by hand:
/// `RECALL_QUALITY_KEEP=1 cargo test --test integration keep_the_corpus -- --ignored --nocapture`.
#[test]
#[ignore = "a helper for looking at the corpus by hand"]
fn keep_the_corpus() {
    let p = corpus();
    eprintln!(
        "corpus: HOME={} project={}",
        p.home.path().display(),
        p.root.display()
    );
    std::mem::forget(p);
}

/// The share of `asked` a score reached in the top 3.
#[allow(clippy::cast_precision_loss)]
fn top3_share(s: &Score) -> f64 {
    s.top3 as f64 / s.asked.max(1) as f64
}

/// Questions written blind (tests/fixtures/recall/blind-questions*.json): by someone who saw
/// the planted records and never the pipeline. The first set asks three ways a record —
/// casual, a paraphrase sharing no word with the record, an indirect one about its
/// situation; the second, by another writer who saw neither the pipeline nor the first set,
/// a reworded question in everyday words and a vague half-remembered one. They measure how
/// far the pipeline's general rules reach beyond the questions above, which the pipeline
/// was built on. The floors are a little under what main reached when they were added
/// (top-3: casual 0.976, paraphrase 0.561, indirect 0.439; reworded 0.585, vague 0.610): a
/// change that loses answers fails here. The target (top-3 ≥ 0.9) is not met by
/// these; see docs/recall.md.
#[test]
fn blind_questions_find_their_answers_as_often_as_before() {
    let p = corpus();
    blind(
        &p,
        "blind-questions.json",
        &[("casual", 0.9), ("paraphrase", 0.58), ("indirect", 0.56)],
    );
    blind(
        &p,
        "blind-questions-2.json",
        &[("reworded", 0.63), ("vague", 0.65)],
    );
    blind(
        &p,
        "blind-questions-3.json",
        &[("paraphrase", 0.53), ("symptom", 0.51)],
    );
}

/// Asks the questions of one blind set, prints the figures per style, holds the floors.
fn blind(p: &Project, file: &str, styles: &[(&str, f64)]) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/recall")
        .join(file);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let questions = doc["questions"].as_array().unwrap();
    assert_eq!(
        questions.len(),
        FACTS.len(),
        "{file}: every record asked about"
    );
    let mut scores: Vec<Score> = styles.iter().map(|_| Score::default()).collect();
    for q in questions {
        let n = usize::try_from(q["n"].as_u64().unwrap()).unwrap();
        let f = &FACTS[n - 1];
        for ((style, _), score) in styles.iter().zip(&mut scores) {
            let text = q[*style].as_str().unwrap();
            let hits = cli_hits(p, text);
            score.add(f, text, &rank_in(&hits, f), &hits);
        }
    }
    eprintln!("recall on blind questions (tests/fixtures/recall/{file}):");
    for ((style, _), score) in styles.iter().zip(&scores) {
        eprintln!("  {}", score.line(&format!("CLI, {style}")));
    }
    for ((style, floor), score) in styles.iter().zip(&scores) {
        assert!(
            top3_share(score) >= *floor,
            "{file}: {} fell below its floor {floor}",
            score.line(style),
        );
    }
}
