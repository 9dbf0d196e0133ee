//! Runs one scenario in its own sandbox and scores what baton handed on: facts found in the
//! context of each fresh start and of each start after a compaction, the next action each
//! fresh start named, the next actions `--continue`/`--resume` starts named (each one a
//! contradiction of the replayed conversation), and baton's characters.

use crate::conversation::{next_action, session_id, session_starts, Conversation, Options};
use crate::mock_api::MockApi;
use crate::scenarios::{Expect, Fact, Say, Scenario, Step};
use crate::support::{install_binary, Sandbox};
use serde::Serialize;
use std::path::Path;
use std::process::Command;

/// What one scenario scored.
#[derive(Debug, Default, Serialize)]
pub(crate) struct Score {
    pub(crate) name: String,
    pub(crate) rune: bool,
    /// Facts found at fresh starts / asked for.
    pub(crate) fresh: (usize, usize),
    /// Facts found after compactions / asked for.
    pub(crate) compact: (usize, usize),
    /// Fresh starts whose next action was right / all fresh starts.
    pub(crate) next_right: (usize, usize),
    /// `--continue`/`--resume` starts that named a next action / all of them.
    pub(crate) contradictions: (usize, usize),
    /// The longest context baton gave a fresh start.
    pub(crate) max_chars: usize,
    /// What went wrong, one line each.
    pub(crate) misses: Vec<String>,
}

/// Runs `scenario` with Claude Code at `claude` and baton at `bin`.
pub(crate) fn run(scenario: &Scenario, claude: &Path, bin: &Path) -> Score {
    let sb = Sandbox::new();
    install_binary(&sb.plugin, bin);
    if std::env::var_os("BENCH_CONTINUITY_KEEP").is_some() {
        eprintln!(
            "bench-continuity: {} kept in {}",
            scenario.name,
            sb.root.display()
        );
    }
    let mut score = Score {
        name: scenario.name.to_string(),
        rune: scenario.rune,
        ..Score::default()
    };
    let mut last_session: Option<String> = None;
    for step in (scenario.steps)(&sb) {
        match step {
            Step::Folder(f) => std::fs::create_dir_all(sb.project.join(f)).unwrap(),
            Step::Tests(suites) => test_script(&sb, suites),
            Step::Baton {
                args,
                stdin,
                days_ago,
            } => baton_at(&sb, args, stdin, days_ago),
            Step::Session {
                label,
                script,
                says,
            } => {
                let sid = session(&sb, claude, label, script, says, &mut score);
                last_session = sid.or(last_session);
            }
            Step::Fresh { label, facts, next } => {
                fresh(&sb, claude, label, &facts, &next, &mut score);
            }
            Step::Continue { label, resume } => {
                let sid = last_session.clone().unwrap_or_default();
                let extra: Vec<&str> = if resume {
                    vec!["--resume", &sid]
                } else {
                    vec!["--continue"]
                };
                continued(&sb, claude, label, &extra, &mut score);
            }
        }
    }
    if std::env::var_os("BENCH_CONTINUITY_KEEP").is_some() {
        std::mem::forget(sb);
    }
    score
}

/// The test script the scenario's sessions run (`Step::Tests`): each run of a suite prints
/// the next scripted outcome.
fn test_script(sb: &Sandbox, suites: &[(&str, &[&str])]) {
    use std::os::unix::fs::PermissionsExt;
    let script = sb.project.join("test.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\n# test.sh SUITE: the next outcome of SUITE (.tests/SUITE): ok passes, fail fails.\nq=\".tests/$1\"\nline=$(head -n 1 \"$q\")\ntail -n +2 \"$q\" > \"$q.rest\" && mv \"$q.rest\" \"$q\"\ncase \"$line\" in\n  ok\\ *) echo \"${line#ok }\" ;;\n  *) echo \"${line#fail }\" >&2; exit 1 ;;\nesac\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let dir = sb.project.join(".tests");
    std::fs::create_dir_all(&dir).unwrap();
    for (suite, outcomes) in suites {
        std::fs::write(dir.join(suite), format!("{}\n", outcomes.join("\n"))).unwrap();
    }
}

/// A baton command in the project, dated `days_ago` days back (a save made earlier).
fn baton_at(sb: &Sandbox, args: &[&str], stdin: &str, days_ago: i64) {
    use std::io::Write;
    let at = chrono::Utc::now() - chrono::Duration::days(days_ago);
    let mut child = Command::new(sb.plugin.join("bin/baton"))
        .args(args)
        .current_dir(&sb.project)
        .env("HOME", &sb.home)
        .env("BATON_NOW", at.to_rfc3339())
        .env_remove("CLAUDE_PLUGIN_DATA")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "baton {args:?} failed");
}

/// A session; returns its id.
fn session(
    sb: &Sandbox,
    claude: &Path,
    label: &str,
    script: Vec<(&'static str, Vec<crate::mock_api::Turn>)>,
    says: Vec<Say>,
    score: &mut Score,
) -> Option<String> {
    let api = MockApi::conversation(
        script
            .into_iter()
            .map(|(p, t)| (p.to_string(), t))
            .collect(),
    );
    let mut c = Some(Conversation::start(
        sb,
        claude,
        &api,
        None,
        &Options::default(),
        label,
    ));
    let mut compact_facts: Vec<Vec<Fact>> = Vec::new();
    let mut killed = None;
    for s in says {
        let Some(conv) = c.as_mut() else { break };
        match s {
            Say::Turn(p) => conv.say(p),
            Say::Compact(facts) => {
                conv.say("/compact");
                compact_facts.push(facts);
                if std::env::var_os("BENCH_CONTINUITY_SHOW").is_some() {
                    let out = Command::new(sb.plugin.join("bin/baton"))
                        .args(["capture", "show"])
                        .current_dir(&sb.project)
                        .env("HOME", &sb.home)
                        .output()
                        .unwrap();
                    eprintln!(
                        "----- {label}: the digest after /compact\n{}-----",
                        String::from_utf8_lossy(&out.stdout)
                    );
                }
            }
            Say::Kill(p) => {
                killed = c.take().map(|conv| conv.say_then_kill(p, &api));
            }
        }
    }
    let events = match (killed, c) {
        (Some(e), _) => e,
        (None, Some(conv)) => conv.end(),
        (None, None) => Vec::new(),
    };
    let compacts: Vec<String> = session_starts(&events)
        .into_iter()
        .filter(|(source, _)| source == "compact")
        .map(|(_, ctx)| ctx)
        .collect();
    for (i, facts) in compact_facts.iter().enumerate() {
        let ctx = compacts.get(i).map_or("", String::as_str);
        if std::env::var_os("BENCH_CONTINUITY_SHOW").is_some() {
            eprintln!(
                "----- {label} after /compact: baton's context ({} chars)\n{ctx}\n-----",
                ctx.chars().count()
            );
        }
        let (got, misses) = check(facts, ctx);
        score.compact.0 += got;
        score.compact.1 += facts.len();
        score.misses.extend(
            misses
                .into_iter()
                .map(|m| format!("{label} after /compact: {m}")),
        );
    }
    session_id(&events)
}

/// A fresh session: its start's facts and next action.
fn fresh(
    sb: &Sandbox,
    claude: &Path,
    label: &str,
    facts: &[Fact],
    next: &Expect,
    score: &mut Score,
) {
    let ctx = start_context(sb, claude, label, &[]);
    let (got, misses) = check(facts, &ctx);
    score.fresh.0 += got;
    score.fresh.1 += facts.len();
    score
        .misses
        .extend(misses.into_iter().map(|m| format!("{label}: {m}")));
    score.max_chars = score.max_chars.max(ctx.chars().count());
    score.next_right.1 += 1;
    let named = next_action(&ctx);
    let right = match (next, &named) {
        (Expect::Nothing, None) => true,
        (Expect::Next(words), Some(line)) => {
            let line = line.to_lowercase();
            words.iter().all(|w| line.contains(&w.to_lowercase()))
        }
        _ => false,
    };
    if right {
        score.next_right.0 += 1;
    } else {
        score.misses.push(format!(
            "{label}: next action {} (wanted {next:?})",
            named.as_deref().unwrap_or("none")
        ));
    }
}

/// A `--continue`/`--resume` start: a next action there contradicts the replayed conversation.
fn continued(sb: &Sandbox, claude: &Path, label: &str, extra: &[&str], score: &mut Score) {
    let ctx = start_context(sb, claude, label, extra);
    score.contradictions.1 += 1;
    if let Some(line) = next_action(&ctx) {
        score.contradictions.0 += 1;
        score.misses.push(format!(
            "{label}: a competing next action on a resumed conversation: {line}"
        ));
    }
}

/// The context baton gave the start of a session that asks "where were we?".
fn start_context(sb: &Sandbox, claude: &Path, label: &str, extra: &[&str]) -> String {
    let api = MockApi::conversation(vec![]);
    let opts = Options {
        extra,
        ..Options::default()
    };
    let mut c = Conversation::start(sb, claude, &api, None, &opts, label);
    c.say("where were we?");
    let events = c.end();
    let ctx = session_starts(&events)
        .into_iter()
        .next()
        .map(|(_, ctx)| ctx)
        .unwrap_or_default();
    if std::env::var_os("BENCH_CONTINUITY_SHOW").is_some() {
        eprintln!(
            "----- {label}: baton's context ({} chars)\n{ctx}\n-----",
            ctx.chars().count()
        );
    }
    ctx
}

/// How many of `facts` hold in `ctx`, and a line for each that does not. A fact is read
/// without its double quotes, and so is the context: baton quotes the model's and a tool's
/// words as data (`#2 "Rewrite tokenize()…" (in progress)`), which hands the fact on all the
/// same.
fn check(facts: &[Fact], ctx: &str) -> (usize, Vec<String>) {
    let unquoted = |t: &str| t.replace(['"', '\u{201c}', '\u{201d}'], "");
    let ctx = unquoted(ctx);
    let holds = |t: &str| ctx.contains(&unquoted(t));
    let mut got = 0;
    let mut misses = Vec::new();
    for f in facts {
        match f {
            Fact::Has(t) if holds(t) => got += 1,
            Fact::Lacks(t) if !holds(t) => got += 1,
            Fact::Has(t) => misses.push(format!("not handed on: {t:?}")),
            Fact::Lacks(t) => misses.push(format!("handed on, and should not be: {t:?}")),
        }
    }
    (got, misses)
}
