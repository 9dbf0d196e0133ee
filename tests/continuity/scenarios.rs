//! The scenarios: realistic sessions of the real Claude Code against the scripted API, each
//! with what a colleague would pass on (its facts) and the right next action, written down
//! before the run. Every session runs over `--input-format stream-json`: several user turns,
//! corrections as user turns, a real `/compact`, a session killed with SIGKILL in the middle
//! of a turn. Prompts and scripts read like real work, and the facts are the ones a person
//! taking over would need: the request, the user's rules, what is open, what failed, what was
//! concluded — and what must *not* be handed on (a plan the user rejected, a failure that was
//! fixed, a task that was finished).

use crate::mock_api::Turn;
use crate::support::Sandbox;
use serde_json::json;

/// What a probe must find in baton's context.
#[derive(Debug, Clone)]
pub(crate) enum Fact {
    /// This text is handed on.
    Has(&'static str),
    /// This text is not (a rejected plan, a fixed failure, a finished task shown as open).
    Lacks(&'static str),
}

/// The next action a fresh start should name.
#[derive(Debug, Clone)]
pub(crate) enum Expect {
    /// A "Next:" line holding every one of these texts (case-insensitive).
    Next(&'static [&'static str]),
    /// No "Next:" line: nothing is due.
    Nothing,
}

/// One user turn of a session.
pub(crate) enum Say {
    /// A prompt; the API answers with its scripted turns.
    Turn(&'static str),
    /// `/compact`, and what the session start after it must give back.
    Compact(Vec<Fact>),
    /// A prompt whose script ends in `Turn::Hang`: the session is killed with SIGKILL there.
    Kill(&'static str),
}

/// One step of a scenario.
pub(crate) enum Step {
    /// A session: the scripted API (prompt → turns) and the user's turns in order.
    Session {
        label: &'static str,
        script: Vec<(&'static str, Vec<Turn>)>,
        says: Vec<Say>,
    },
    /// A fresh session (`claude -p "where were we?"`): what its start must hand on.
    Fresh {
        label: &'static str,
        facts: Vec<Fact>,
        next: Expect,
    },
    /// `--continue` (or `--resume <the last session>`): Claude Code replays the conversation,
    /// so baton must not name a competing next action.
    Continue { label: &'static str, resume: bool },
    /// A baton command in the project (a save made earlier), at `days_ago`.
    Baton {
        args: &'static [&'static str],
        stdin: &'static str,
        days_ago: i64,
    },
    /// A folder the project already has (`.rune/`, `datarim/sessions/`).
    Folder(&'static str),
    /// The project's test script, `./test.sh SUITE`, and what each of its runs of each suite
    /// prints, in order: `ok <output>` passes, `fail <error>` fails (on stderr, exit 1) — so a
    /// suite fails, then passes after a fix, under the same command, as a real one does.
    Tests(&'static [(&'static str, &'static [&'static str])]),
}

/// A scenario.
pub(crate) struct Scenario {
    pub(crate) name: &'static str,
    /// The project uses `.rune/` (its context may be larger than the default footprint's).
    pub(crate) rune: bool,
    pub(crate) steps: fn(&Sandbox) -> Vec<Step>,
}

/// Every scenario.
pub(crate) fn all() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "feature-over-turns",
            rune: false,
            steps: feature_over_turns,
        },
        Scenario {
            name: "killed-mid-turn",
            rune: false,
            steps: killed_mid_turn,
        },
        Scenario {
            name: "compaction",
            rune: false,
            steps: compaction,
        },
        Scenario {
            name: "old-save-in-rune",
            rune: true,
            steps: old_save_in_rune,
        },
        Scenario {
            name: "finished-then-chat",
            rune: false,
            steps: finished_then_chat,
        },
        Scenario {
            name: "checkpoint-then-cut",
            rune: true,
            steps: checkpoint_then_cut,
        },
        Scenario {
            name: "handoff-continued",
            rune: false,
            steps: handoff_continued,
        },
        Scenario {
            name: "compaction-then-done",
            rune: true,
            steps: compaction_then_done,
        },
        Scenario {
            name: "question-for-the-user",
            rune: false,
            steps: question_for_the_user,
        },
        Scenario {
            name: "markdown-wrap-up",
            rune: false,
            steps: markdown_wrap_up,
        },
        Scenario {
            name: "finished-in-open-words",
            rune: false,
            steps: finished_in_open_words,
        },
    ]
}

// ------------------------------------------------------------------------------------------
// Building blocks
// ------------------------------------------------------------------------------------------

fn task(subject: &str) -> Turn {
    Turn::tool(
        "TaskCreate",
        json!({"subject": subject, "description": subject}),
    )
}

fn status(id: &str, status: &str) -> Turn {
    Turn::tool("TaskUpdate", json!({"taskId": id, "status": status}))
}

fn write(sb: &Sandbox, path: &str, content: &str) -> Turn {
    Turn::tool(
        "Write",
        json!({"file_path": sb.project.join(path), "content": content}),
    )
}

/// A run of the project's test suite `suite` (`Step::Tests`).
fn test(suite: &str) -> Turn {
    Turn::bash(&format!("./test.sh {suite}"))
}

/// A command that passes, printing `out`.
fn passes(out: &str) -> Turn {
    Turn::bash(&format!("echo '{out}'"))
}

fn say(text: &str) -> Turn {
    Turn::Text(text.into())
}

fn baton(sb: &Sandbox) -> String {
    sb.plugin.join("bin/baton").display().to_string()
}

// ------------------------------------------------------------------------------------------
// The scenarios
// ------------------------------------------------------------------------------------------

const DRY_RUN: &str =
    "Add a --dry-run flag to the sync command: report what would change, write nothing.";
const NO_SECOND_PATH: &str =
    "No — don't add a second code path; check the flag inside write_all instead.";

/// Several user turns with a task list, a failing test, a correction, a conclusion that says
/// what is still open; the session ends normally.
fn feature_over_turns(sb: &Sandbox) -> Vec<Step> {
    vec![
        Step::Tests(&[
            ("build", &["ok Finished dev profile in 3.1s"]),
            ("sync", &["fail FAILED sync::tests::dry_run_writes_nothing: 2 files were written", "ok test result: ok. 14 passed; 0 failed"]),
        ]),
        Step::Session {
            label: "feature",
            script: vec![
                (
                    DRY_RUN,
                    vec![
                        task("Add --dry-run to SyncOptions and the CLI"),
                        task("Skip every write in dry-run mode"),
                        task("Document --dry-run in docs/sync.md"),
                        status("1", "in_progress"),
                        Turn::tool("Read", json!({"file_path": sb.project.join("README.md")})),
                        write(sb, "src/cli.rs", "// --dry-run flag\n"),
                        test("build"),
                        status("1", "completed"),
                        status("2", "in_progress"),
                        write(sb, "src/sync.rs", "// dry-run path\n"),
                        test("sync"),
                        say("The flag reaches SyncOptions, but dry_run_writes_nothing fails: write_all still runs in dry-run mode. Next I will add a separate dry-run code path in sync()."),
                    ],
                ),
                (
                    NO_SECOND_PATH,
                    vec![
                        write(sb, "src/sync.rs", "// write_all checks dry_run\n"),
                        test("sync"),
                        status("2", "completed"),
                        say("write_all now returns early when dry_run is set, and the sync tests pass (14). Still open: document --dry-run in docs/sync.md (task 3)."),
                    ],
                ),
            ],
            says: vec![Say::Turn(DRY_RUN), Say::Turn(NO_SECOND_PATH)],
        },
        Step::Continue { label: "feature-continue", resume: false },
        Step::Fresh {
            label: "feature-fresh",
            facts: vec![
                Fact::Has("--dry-run flag to the sync command"),
                Fact::Has("don't add a second code path"),
                Fact::Has("Document --dry-run in docs/sync.md"),
                Fact::Has("write_all now returns early"),
                Fact::Lacks("separate dry-run code path"),
                Fact::Lacks("dry_run_writes_nothing: 2 files were written"),
            ],
            next: Expect::Next(&["document --dry-run"]),
        },
    ]
}

const TOKENIZER: &str = "The tokenizer panics on empty input — find out why and fix it.";
const SCANNER: &str = "No, don't use a regex here — write a hand-rolled scanner over the bytes.";

/// A root cause found, a plan the user rejects, and the session killed in the middle of the
/// turn that acts on the correction.
fn killed_mid_turn(sb: &Sandbox) -> Vec<Step> {
    vec![
        Step::Tests(&[(
            "tokenizer",
            &[
                "fail thread 'tokenizer::empty_input' panicked at src/tokenizer.rs:42: index out of bounds",
                "fail FAILED tokenizer::empty_input: unexpected EOF in scan_bytes",
            ],
        )]),
        Step::Session {
            label: "kill",
            script: vec![
                (
                    TOKENIZER,
                    vec![
                        task("Find the empty-input panic"),
                        status("1", "in_progress"),
                        test("tokenizer"),
                        status("1", "completed"),
                        task("Rewrite tokenize() so empty input yields no tokens"),
                        say("Found it: tokenize() reads bytes[0] before checking the length. I'll rewrite tokenize() with a regex."),
                    ],
                ),
                (
                    SCANNER,
                    vec![
                        status("2", "in_progress"),
                        write(sb, "src/tokenizer.rs", "// byte scanner\n"),
                        test("tokenizer"),
                        Turn::Hang,
                    ],
                ),
            ],
            says: vec![Say::Turn(TOKENIZER), Say::Kill(SCANNER)],
        },
        Step::Continue { label: "kill-continue", resume: false },
        Step::Fresh {
            label: "kill-fresh",
            facts: vec![
                Fact::Has("tokenizer panics on empty input"),
                Fact::Has("hand-rolled scanner over the bytes"),
                Fact::Has("unexpected EOF in scan_bytes"),
                Fact::Has("Rewrite tokenize() so empty input yields no tokens (in progress)"),
                Fact::Has("reads bytes[0] before checking the length"),
                Fact::Lacks("rewrite tokenize() with a regex"),
            ],
            next: Expect::Next(&["rewrite tokenize()"]),
        },
    ]
}

const TOML: &str =
    "Migrate the config loader from JSON to TOML; keep old JSON files loading for one release.";

/// A `/compact` in the middle of the work in a project without `.rune/`, the work going on
/// after it.
fn compaction(sb: &Sandbox) -> Vec<Step> {
    vec![
        Step::Tests(&[(
            "config",
            &[
                "fail error: expected table, found string at line 3 of tests/fixtures/app.toml",
                "ok test result: ok. 9 passed",
                "ok test result: ok. 11 passed",
            ],
        )]),
        Step::Session {
            label: "compact",
            script: vec![
                (
                    TOML,
                    vec![
                        task("Parse TOML in load_config"),
                        task("Fall back to JSON for one release"),
                        task("Update the sample config in docs/"),
                        status("1", "in_progress"),
                        write(sb, "src/config.rs", "// toml\n"),
                        test("config"),
                        say("load_config parses TOML; the fixture app.toml still has a string where a table belongs. Next: fix the fixture, then the JSON fallback."),
                    ],
                ),
                (
                    "go on",
                    vec![
                        write(sb, "tests/fixtures/app.toml", "[server]\nport = 8080\n"),
                        test("config"),
                        status("1", "completed"),
                        status("2", "in_progress"),
                        write(sb, "src/config.rs", "// toml + json fallback\n"),
                        test("config"),
                        status("2", "completed"),
                        say("The fixture is fixed and JSON files still load, with a deprecation warning. Still open: update the sample config in docs/ to TOML."),
                    ],
                ),
            ],
            says: vec![
                Say::Turn(TOML),
                Say::Compact(vec![
                    Fact::Has("from JSON to TOML"),
                    Fact::Has("keep old JSON files loading for one release"),
                    Fact::Has("Parse TOML in load_config (in progress)"),
                    Fact::Has("Fall back to JSON for one release"),
                    Fact::Has("expected table, found string at line 3"),
                    Fact::Has("fix the fixture"),
                ]),
                Say::Turn("go on"),
            ],
        },
        Step::Fresh {
            label: "compact-fresh",
            facts: vec![
                Fact::Has("from JSON to TOML"),
                Fact::Has("Update the sample config in docs/"),
                Fact::Has("deprecation warning"),
                Fact::Lacks("Parse TOML in load_config (in progress)"),
            ],
            next: Expect::Next(&["sample config"]),
        },
    ]
}

const LOGIN: &str = "Users get a 500 on /login when their session cookie has expired — fix it.";

/// A project whose memory holds a bridge save from 16 days ago; the session that just ended
/// worked on something else and left it open.
fn old_save_in_rune(sb: &Sandbox) -> Vec<Step> {
    vec![
        Step::Tests(&[(
            "auth",
            &["fail FAILED auth::tests::expired_cookie_redirects: got 500, expected 302", "ok test result: ok. 31 passed"],
        )]),
        Step::Baton {
            args: &["bridge", "save"],
            stdin: "summary: Planned the billing schema migration\nprogress: {in_progress: [billing schema], next: [Migrate the billing tables to the new schema]}\n",
            days_ago: 16,
        },
        Step::Session {
            label: "login",
            script: vec![(
                LOGIN,
                vec![
                    task("Handle the expired session cookie in auth::load_session"),
                    task("Add a regression test for the token refresh path"),
                    status("1", "in_progress"),
                    test("auth"),
                    write(sb, "src/auth.rs", "// expired cookie\n"),
                    test("auth"),
                    status("1", "completed"),
                    say("Expired cookies now redirect to /login (302) instead of a 500. Still open: a regression test for the token refresh path (task 2)."),
                ],
            )],
            says: vec![Say::Turn(LOGIN)],
        },
        Step::Continue { label: "login-continue", resume: false },
        Step::Continue { label: "login-resume", resume: true },
        Step::Fresh {
            label: "login-fresh",
            facts: vec![
                Fact::Has("session cookie has expired"),
                Fact::Has("Add a regression test for the token refresh path"),
                Fact::Has("redirect to /login (302)"),
                Fact::Lacks("Next: \"Migrate the billing tables"),
            ],
            next: Expect::Next(&["regression test"]),
        },
    ]
}

const RENAME: &str = "Rename the util module to helpers and update every import.";

/// A session that finished everything, then a chat that did no work.
fn finished_then_chat(sb: &Sandbox) -> Vec<Step> {
    vec![
        Step::Tests(&[("all", &["ok test result: ok. 212 passed"])]),
        Step::Session {
            label: "rename",
            script: vec![(
                RENAME,
                vec![
                    task("Move src/util.rs to src/helpers.rs"),
                    task("Update every import of util"),
                    status("1", "in_progress"),
                    Turn::bash("mkdir -p src && : > src/util.rs && mv src/util.rs src/helpers.rs"),
                    status("1", "completed"),
                    status("2", "in_progress"),
                    write(sb, "src/lib.rs", "mod helpers;\n"),
                    test("all"),
                    status("2", "completed"),
                    say("Renamed util to helpers and updated 14 imports; all 212 tests pass."),
                ],
            )],
            says: vec![Say::Turn(RENAME)],
        },
        Step::Fresh {
            label: "rename-fresh",
            facts: vec![Fact::Has("Renamed util to helpers")],
            next: Expect::Nothing,
        },
        Step::Session {
            label: "chat",
            script: vec![(
                "hi, where were we?",
                vec![say("We renamed util to helpers; everything passes.")],
            )],
            says: vec![Say::Turn("hi, where were we?")],
        },
        Step::Fresh {
            label: "chat-fresh",
            facts: vec![
                Fact::Has("Renamed util to helpers"),
                Fact::Lacks("where were we"),
            ],
            next: Expect::Nothing,
        },
    ]
}

const RETRIES: &str = "Add retries with exponential backoff to the HTTP client.";

/// An explicit checkpoint saved at the end of a session; the next session goes on from it
/// and is killed before it says anything more.
fn checkpoint_then_cut(sb: &Sandbox) -> Vec<Step> {
    let checkpoint = format!(
        "{} bridge checkpoint <<'YAML'\ndoing: retries in the HTTP client\nleft: [Exponential backoff between attempts, Tests for the retry path]\nresume: Implement exponential backoff in retry() (src/net/retry.rs), then its tests\nYAML",
        baton(sb)
    );
    vec![
        Step::Folder(".rune"),
        Step::Tests(&[("net", &["ok test result: ok. 6 passed"])]),
        Step::Session {
            label: "retry",
            script: vec![(
                RETRIES,
                vec![
                    task("Add retry() with a cap of 5 attempts"),
                    task("Exponential backoff between attempts"),
                    status("1", "in_progress"),
                    write(sb, "src/net/retry.rs", "// retry\n"),
                    test("net"),
                    status("1", "completed"),
                    Turn::bash(&checkpoint),
                    say("retry() is in with a cap of 5 attempts; I saved a checkpoint for the backoff."),
                ],
            )],
            says: vec![Say::Turn(RETRIES)],
        },
        Step::Fresh {
            label: "retry-fresh",
            facts: vec![
                Fact::Has("retry() is in with a cap of 5 attempts"),
                Fact::Has("exponential backoff in retry()"),
            ],
            next: Expect::Next(&["exponential backoff in retry()"]),
        },
        Step::Session {
            label: "retry-cut",
            script: vec![(
                "go on",
                vec![write(sb, "src/net/retry.rs", "// backoff, half done\n"), Turn::Hang],
            )],
            says: vec![Say::Kill("go on")],
        },
        Step::Fresh {
            label: "retry-cut-fresh",
            facts: vec![Fact::Has("Cut off in the middle of a turn")],
            next: Expect::Next(&["exponential backoff in retry()"]),
        },
    ]
}

const SAVED_ID: &str = "SESSION-20261207-090000";

/// A handoff saved on purpose, then continued and its work finished.
fn handoff_continued(sb: &Sandbox) -> Vec<Step> {
    let body = sb.root.join("handoff-body.md");
    let tasks = sb.root.join("handoff-tasks.txt");
    let save = format!(
        "{} handoff write --session {SAVED_ID} --captured-by agent --recommended-next /baton:dr-continue --next-action 'Wire the rate limiter into the API gateway' --active-tasks-file {} --body-file {}",
        baton(sb),
        tasks.display(),
        body.display()
    );
    let body_text = "## Layer 1 — Git State\n\nclean\n\n## Layer 2 — Active Tasks\n\nnone\n\n## Layer 3 — Related Files\n\n- src/gateway.rs — to edit\n\n## Layer 4 — Open Questions\n\nNone.\n\n## Layer 5 — Failed Approaches\n\nA global mutex: too slow under load.\n";
    let resume = format!("{} handoff continue {SAVED_ID}", baton(sb));
    vec![
        Step::Folder("datarim/sessions"),
        Step::Tests(&[("gateway", &["ok test result: ok. 40 passed"])]),
        Step::Session {
            label: "handoff-save",
            script: vec![(
                "Save the session for the next one, I'm switching machines.",
                vec![
                    Turn::tool("Write", json!({"file_path": body, "content": body_text})),
                    Turn::tool("Write", json!({"file_path": tasks, "content": ""})),
                    Turn::bash(&save),
                    say("Saved as SESSION-20261207-090000."),
                ],
            )],
            says: vec![Say::Turn("Save the session for the next one, I'm switching machines.")],
        },
        Step::Fresh {
            label: "handoff-fresh",
            facts: vec![Fact::Has("Wire the rate limiter into the API gateway")],
            next: Expect::Next(&["rate limiter"]),
        },
        Step::Session {
            label: "handoff-continue",
            script: vec![(
                "Continue the saved session SESSION-20261207-090000.",
                vec![
                    Turn::bash(&resume),
                    task("Wire the rate limiter into the API gateway"),
                    status("1", "in_progress"),
                    write(sb, "src/gateway.rs", "// rate limiter\n"),
                    test("gateway"),
                    status("1", "completed"),
                    say("The rate limiter is wired into the gateway with a token bucket; all 40 tests pass. Nothing left open."),
                ],
            )],
            says: vec![Say::Turn("Continue the saved session SESSION-20261207-090000.")],
        },
        Step::Fresh {
            label: "handoff-done-fresh",
            facts: vec![Fact::Has("token bucket")],
            next: Expect::Nothing,
        },
    ]
}

const SPLIT: &str = "Split the 900-line server.rs into modules: routes, state, errors.";

/// A compaction in a project that uses the bridge (an automatic checkpoint lists the tasks
/// left), then the remaining tasks done in the same session.
fn compaction_then_done(sb: &Sandbox) -> Vec<Step> {
    vec![
        Step::Folder(".rune"),
        Step::Tests(&[("all", &["ok test result: ok. 57 passed", "ok test result: ok. 57 passed"])]),
        Step::Session {
            label: "split",
            script: vec![
                (
                    SPLIT,
                    vec![
                        task("Move the routes into routes.rs"),
                        task("Move the shared state into state.rs"),
                        task("Move the error types into errors.rs"),
                        status("1", "in_progress"),
                        write(sb, "src/routes.rs", "// routes\n"),
                        test("all"),
                        status("1", "completed"),
                        say("routes.rs is split out and the tests pass. Next: state.rs, then errors.rs."),
                    ],
                ),
                (
                    "go on",
                    vec![
                        status("2", "in_progress"),
                        write(sb, "src/state.rs", "// state\n"),
                        status("2", "completed"),
                        status("3", "in_progress"),
                        write(sb, "src/errors.rs", "// errors\n"),
                        test("all"),
                        status("3", "completed"),
                        say("server.rs is split into routes, state and errors; all 57 tests pass."),
                    ],
                ),
            ],
            says: vec![
                Say::Turn(SPLIT),
                Say::Compact(vec![
                    Fact::Has("routes, state, errors"),
                    Fact::Has("Move the shared state into state.rs"),
                    Fact::Has("Move the error types into errors.rs"),
                ]),
                Say::Turn("go on"),
            ],
        },
        Step::Fresh {
            label: "split-fresh",
            facts: vec![
                Fact::Has("split into routes, state and errors"),
                Fact::Lacks("Move the shared state into state.rs (pending)"),
                Fact::Lacks("Tasks remaining"),
            ],
            next: Expect::Nothing,
        },
    ]
}

const CACHE: &str = "Cache the expensive /search results; the p95 is 2 seconds.";

/// A session whose last message asks the user to decide something: the decision is what is
/// open.
fn question_for_the_user(sb: &Sandbox) -> Vec<Step> {
    vec![
        Step::Tests(&[("search", &["ok test result: ok. 23 passed"])]),
        Step::Session {
            label: "cache",
            script: vec![(
                CACHE,
                vec![
                    Turn::tool("Read", json!({"file_path": sb.project.join("README.md")})),
                    write(sb, "src/search/cache.rs", "// lru\n"),
                    test("search"),
                    say("I put an LRU cache (10,000 entries, 5 minute TTL) in front of search(); cached queries answer in 50 ms. One decision is yours before I wire it in: should the cache key include the tenant id, or only the normalised query?"),
                ],
            )],
            says: vec![Say::Turn(CACHE)],
        },
        Step::Fresh {
            label: "cache-fresh",
            facts: vec![
                Fact::Has("Cache the expensive /search results"),
                Fact::Has("LRU cache"),
                Fact::Has("include the tenant id"),
            ],
            next: Expect::Next(&["tenant id"]),
        },
    ]
}

const FUZZ: &str = "Set up fuzzing for the parser.";
const NOT_PUBLIC: &str =
    "hmm, actually let's not touch the public API — keep parse() as it is and add parse_strict() beside it";

/// A correction worded loosely, and a wrap-up in markdown whose next steps are a list.
fn markdown_wrap_up(sb: &Sandbox) -> Vec<Step> {
    vec![
        Step::Tests(&[("fuzz", &["fail crash: thread 'main' panicked at 'attempt to subtract with overflow', src/parse.rs:88", "ok no crashes in 60s (1.2M execs)"])]),
        Step::Session {
            label: "fuzz",
            script: vec![
                (
                    FUZZ,
                    vec![
                        write(sb, "fuzz/fuzz_targets/parse.rs", "// target\n"),
                        test("fuzz"),
                        write(sb, "src/parse.rs", "// pub fn parse now checks\n"),
                        say("The fuzz target found an overflow in parse() at src/parse.rs:88. I changed parse() to return an error on truncated input."),
                    ],
                ),
                (
                    NOT_PUBLIC,
                    vec![
                        write(sb, "src/parse.rs", "// parse() as before; parse_strict() added\n"),
                        test("fuzz"),
                        say("## Done\n- parse() is unchanged; the new parse_strict() rejects truncated input\n- The fuzz target runs clean for 60 s (1.2M execs)\n\n## Next steps\n1. Run the fuzzer nightly in CI\n2. Commit the seed corpus under fuzz/corpus/"),
                    ],
                ),
            ],
            says: vec![Say::Turn(FUZZ), Say::Turn(NOT_PUBLIC)],
        },
        Step::Fresh {
            label: "fuzz-fresh",
            facts: vec![
                Fact::Has("Set up fuzzing for the parser"),
                Fact::Has("let's not touch the public API"),
                Fact::Has("parse_strict()"),
                Fact::Has("overflow in parse()"),
                Fact::Lacks("attempt to subtract with overflow', src/parse.rs:88 ("),
            ],
            next: Expect::Next(&["fuzzer nightly in CI"]),
        },
    ]
}

const ENV_VAR: &str = "Rename the API_TOKEN environment variable to SERVICE_TOKEN everywhere.";

/// Work finished, and said so in words that look open: nothing is due.
fn finished_in_open_words(sb: &Sandbox) -> Vec<Step> {
    vec![
        Step::Tests(&[("all", &["ok test result: ok. 88 passed"])]),
        Step::Session {
            label: "env",
            script: vec![(
                ENV_VAR,
                vec![
                    task("Rename the variable in the code"),
                    task("Rename it in the deploy manifests"),
                    status("1", "completed"),
                    write(sb, "src/env.rs", "// SERVICE_TOKEN\n"),
                    write(sb, "deploy/app.yaml", "SERVICE_TOKEN: x\n"),
                    status("2", "completed"),
                    test("all"),
                    say("Renamed API_TOKEN to SERVICE_TOKEN in the code and the deploy manifests; all 88 tests pass. The public API remains unchanged and there are no pending migrations. If the deploy check flakes again I'll rerun it."),
                ],
            )],
            says: vec![Say::Turn(ENV_VAR)],
        },
        Step::Fresh {
            label: "env-fresh",
            facts: vec![
                Fact::Has("Renamed API_TOKEN to SERVICE_TOKEN"),
                Fact::Lacks("Pick up what was left open"),
            ],
            next: Expect::Nothing,
        },
    ]
}
