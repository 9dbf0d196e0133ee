//! handoff: a self-contained, size-capped, secret-free session artefact written before a
//! session is destroyed (`datarim/sessions/SESSION-YYYYMMDD-HHMMSS.session.md`, datarim's
//! format), its validator, and a resume that re-checks the artefact's claims first.
//!
//! `writer` saves (`frontmatter` and `body` are the two halves of a block, `session` the ids
//! and paths), `validate` checks (`check_cli` reads its datarim-style arguments),
//! `resume_block` renders what the user copies, `replay` resumes after `reverify` (with
//! `heads` for Layer 1 and `upstream` for `origin/main`) has re-checked the saved claims
//! into `finding`s, `auto` builds the
//! artefact PreCompact saves and the draft body (with `snapshot`, datarim's per-task stage
//! snapshots, in Layer 2), `stale` is the stale-runtime advisory,
//! `handler` wires SessionStart and PreCompact.

mod auto;
mod body;
mod check_cli;
mod finding;
mod frontmatter;
mod handler;
mod heads;
mod recall_docs;
mod replay;
mod resume_block;
mod reverify;
mod session;
mod snapshot;
mod stale;
mod upstream;
mod validate;
mod writer;

pub(crate) use handler::{newest_saved, HandoffHandler};
pub(crate) use recall_docs::RECALL_DOCS;
pub(crate) use session::is_session_id;

use crate::core::config::Config;
use crate::core::ctx::Ctx;
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::io::{self, Stdin};
use crate::core::io::{out, outln};
use crate::core::project::Project;
use crate::core::time;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The kill switch: set to `1`, saves do nothing and exit 0.
pub(crate) const KILL_SWITCH: &str = "DATARIM_DISABLE_SESSION_HANDOFF";
/// Seconds to wait for another save's lock (default 60).
const LOCK_TIMEOUT_VAR: &str = "DR_SESSION_LOCK_TIMEOUT";

/// Who triggered a save.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CapturedBy {
    Agent,
    Operator,
}

impl CapturedBy {
    fn as_str(self) -> &'static str {
        match self {
            CapturedBy::Agent => "agent",
            CapturedBy::Operator => "operator",
        }
    }
}

/// `baton handoff write` (datarim's writer flags; `--root` is baton's global flag).
#[derive(Debug, clap::Args)]
pub(crate) struct WriteArgs {
    /// Session id, SESSION-YYYYMMDD-HHMMSS (one file per id; a second save appends a block)
    #[arg(long, value_name = "ID", allow_hyphen_values = true)]
    session: String,
    /// Who triggered the save
    #[arg(long, value_enum)]
    captured_by: CapturedBy,
    /// The command the resumed session should run, e.g. "/dr-next TASK-0001"
    #[arg(long, value_name = "CMD", allow_hyphen_values = true)]
    recommended_next: String,
    /// One line: what to do on resume
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    next_action: String,
    /// File listing the active tasks, one per line: TASK-ID | status (`-`: stdin)
    #[arg(long, value_name = "FILE")]
    active_tasks_file: PathBuf,
    /// File holding the 5-layer body, ## Layer 1 … ## Layer 5 (`-`: stdin)
    #[arg(long, value_name = "FILE")]
    body_file: PathBuf,
    /// Override the capture time (ISO 8601 UTC; default: now)
    #[arg(long, value_name = "ISO")]
    captured_at: Option<String>,
}

/// `baton handoff resume-block` (the positional arguments of datarim's renderer).
#[derive(Debug, clap::Args)]
pub(crate) struct ResumeBlockArgs {
    /// The session id, exactly as saved
    session_id: String,
    /// The recommended next command (the TASK-ID is read from it)
    recommended_next: String,
    /// What to do next
    next_action: String,
    /// The active tasks file (TASK-ID | status per line)
    active_tasks_file: PathBuf,
    /// datarim/tasks.md, for the task's title
    tasks_md: Option<PathBuf>,
}

/// `baton handoff` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Save a session artefact before the session is destroyed, then print the resume block.
    /// Exit 0 ok, 1 invalid input or full file, 2 usage, 3 lock held
    Write(WriteArgs),
    /// Print the resume block for a saved session (what `write` prints after a save)
    ResumeBlock(ResumeBlockArgs),
    /// Validate an artefact: --session ID [--root R] | --validate-frontmatter --session ID
    /// [--root R] | --self-test | FILE. Exit 0 ok, 1 missing, 2 malformed, 3 usage
    #[command(disable_help_flag = true)]
    Check {
        /// The arguments, as datarim's check-session-handoff.sh takes them
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Validate a saved session, re-check its claims against the repository, and replay its
    /// newest block. Without an id: list the saved sessions and exit 2
    Continue {
        /// The session id to resume (never guessed)
        session_id: Option<String>,
    },
    /// Advisory: did a commit range change shipped files (default scripts/lib/*.sh,
    /// skills/*/SKILL.md)? Exit 0 (advisory or silent), 3 git failed (fail-open), 2 usage
    /// (an empty --repo or --range, a repo folder that does not exist)
    StaleRuntime {
        /// The repository to inspect
        #[arg(long, value_name = "PATH", default_value = ".")]
        repo: PathBuf,
        /// The commit range
        #[arg(long, value_name = "A..B", default_value = "HEAD~1..HEAD")]
        range: String,
        /// Print nothing; the exit code still says whether git could be read
        #[arg(long)]
        quiet: bool,
    },
    /// Print a fresh session id (SESSION-YYYYMMDD-HHMMSS, now, not taken yet)
    NewId,
    /// Make a private folder (0700, in your private state, never /tmp) for the body and task
    /// files of a `write`, and print its path; `write` removes the files it read from there
    Scratch,
    /// Print a draft 5-layer body from the repository (git state, datarim/tasks.md with each
    /// active task's datarim/snapshots/TASK-ID.snapshot.md, git status) for the agent to
    /// complete before `write`
    Draft {
        /// Also a task not listed in datarim/tasks.md's Active section (its snapshot, when
        /// there is one, goes into Layer 2); repeatable
        #[arg(long = "task", value_name = "TASK-ID")]
        tasks: Vec<String>,
    },
    /// The saved sessions of this project, newest first
    Status {
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
}

/// Whether `args` (the whole command line, program name first) are `baton [--root R] handoff
/// [--root R] write …` while the kill switch is on. datarim's writer checks its switch before
/// it reads a single argument, so a switched-off save exits 0 whatever it was given, even a
/// flag it does not know; clap would exit 2 on that before `write` ran. The CLI asks this
/// before clap parses anything.
pub(crate) fn write_switched_off(args: &[OsString], ctx: &Ctx) -> bool {
    if ctx.env.var(KILL_SWITCH).as_deref() != Some("1") {
        return false;
    }
    let mut words = Vec::new();
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        match a.to_str() {
            Some("--root") => {
                it.next();
            }
            Some(s) if s.starts_with("--root=") => {}
            Some(s) if !s.starts_with('-') && words.len() < 2 => words.push(s),
            _ => break,
        }
        if words.len() == 2 {
            break;
        }
    }
    if words == ["handoff", "write"] {
        eprintln!("baton handoff write: {KILL_SWITCH}=1: handoff is switched off; nothing written");
        return true;
    }
    false
}

/// Runs a `baton handoff` command; returns the exit code.
pub(crate) fn run(command: Command, project: &Project) -> Result<i32> {
    match command {
        Command::Write(args) => write_command(&args, project),
        Command::ResumeBlock(args) => resume_block_command(&args, project),
        Command::Check { args } => Ok(check_cli::run(&args, project)),
        Command::Continue { session_id } => replay::run(session_id.as_deref(), project),
        Command::StaleRuntime { repo, range, quiet } => Ok(stale::run(
            &project.ctx.cwd,
            &repo,
            &range,
            quiet,
            &project.config().handoff.stale_runtime_globs,
        )),
        Command::NewId => {
            let dir = session::sessions_dir(project);
            outln!("{}", writer::next_free_id(&dir, project.now()));
            Ok(0)
        }
        Command::Scratch => {
            let base = crate::core::paths::private_base(&project.ctx.env).ok_or_else(|| {
                Error::Invalid(
                    "handoff scratch: no private folder (set HOME or XDG_STATE_HOME)".into(),
                )
            })?;
            // Kept: the model writes into it; `write` removes what it read, the next
            // scratch folder sweeps one older than a day.
            let s = fsx::Scratch::new(&base, "handoff")?.kept();
            outln!("{}", s.path().display());
            Ok(0)
        }
        Command::Draft { tasks } => {
            for t in &tasks {
                if !resume_block::is_task_id(t) {
                    return Err(Error::InvalidId {
                        what: "task id",
                        value: t.clone(),
                        reason: "must look like TUNE-0420: 2 to 10 capitals, a dash, 4 digits",
                    });
                }
            }
            out!("{}", project.redact(&auto::draft(project, &tasks)?));
            Ok(0)
        }
        Command::Status { json } => {
            list_saved_sessions(project, json);
            Ok(0)
        }
    }
}

/// `baton handoff write`: the checks that need no disk (all problems at once, exit 1), the
/// save, what it did on stderr, and the resume block on stdout.
fn write_command(args: &WriteArgs, project: &Project) -> Result<i32> {
    if project.env(KILL_SWITCH).as_deref() == Some("1") {
        eprintln!("baton handoff write: {KILL_SWITCH}=1: handoff is switched off; nothing written");
        return Ok(0);
    }
    session::validate_id(&args.session)?;
    if args.body_file == Path::new("-") && args.active_tasks_file == Path::new("-") {
        return Err(Error::Usage(
            "only one of --body-file and --active-tasks-file can be - (stdin)".into(),
        ));
    }
    let body = read_input("--body-file", &args.body_file)?;
    let tasks_text = read_input("--active-tasks-file", &args.active_tasks_file)?;
    let active = resume_block::read_active_tasks(&tasks_text);
    let req = writer::Request {
        session_id: args.session.clone(),
        captured_by: args.captured_by.as_str().into(),
        captured_at: args
            .captured_at
            .clone()
            .unwrap_or_else(|| time::rfc3339(project.now())),
        recommended_next: args.recommended_next.clone(),
        next_action: args.next_action.clone(),
        active_tasks: active.ids,
        body,
        lock_timeout: lock_timeout(&project.ctx),
    };
    let problems = writer::problems(&req);
    if !problems.is_empty() {
        for p in &problems {
            eprintln!("baton handoff write: {p}");
        }
        eprintln!("baton handoff write: nothing written; fix the lines above and run it again");
        return Ok(1);
    }
    warn_before_saving(&active.skipped, &req.body);
    let written = writer::write(&req, project)?;
    remove_scratch_inputs(project, &[&args.body_file, &args.active_tasks_file]);
    let shown = session::display_path(&project.root, &written.path);
    report_saved(&written, &shown);
    let md = fsx::read_limited(&project.path("datarim/tasks.md"), fsx::Limit::DOCUMENT)
        .ok()
        .flatten();
    out!(
        "{}",
        resume_block::render(
            &resume_block::Input {
                session_id: &req.session_id,
                recommended_next: &req.recommended_next,
                next_action: &req.next_action,
                active_tasks: &tasks_text,
                tasks_md: md.as_deref(),
                saved_to: &shown,
                command: resume_command(project.config()),
            },
            project.redactor(),
        )?
    );
    Ok(0)
}

/// The input files of a saved `write` that lie in a scratch folder of baton's (`handoff
/// scratch`): removed, and the folder with them once empty. They held the session's body,
/// which is now in the artefact; input files anywhere else are the caller's.
fn remove_scratch_inputs(project: &Project, files: &[&Path]) {
    let Some(base) = crate::core::paths::private_base(&project.ctx.env) else {
        return;
    };
    for f in files {
        let f = project.ctx.cwd.join(f);
        if fsx::in_scratch(&base, &f) && f.is_file() {
            let _ = std::fs::remove_file(&f);
            if let Some(dir) = f.parent() {
                let _ = std::fs::remove_dir(dir);
            }
        }
    }
}

/// Warnings that do not stop the save: active-task lines without a task id, and what looks
/// like raw tool output in the body.
fn warn_before_saving(skipped: &[(usize, String)], body_text: &str) {
    for (n, line) in skipped {
        let shown: String = line.trim().chars().take(60).collect();
        eprintln!(
            "baton handoff write: warning: --active-tasks-file line {n}: {shown:?} starts with no task id (PREFIX-NNNN, e.g. TUNE-0420); skipped"
        );
    }
    for hint in body::raw_output_hints(body_text) {
        eprintln!("baton handoff write: warning: {hint}");
    }
}

/// What the save did, on stderr (`shown`: the artefact's path as the user sees it).
fn report_saved(written: &writer::Written, shown: &str) {
    if written.unlinked_symlink {
        eprintln!(
            "baton handoff write: T-7 removed a symlink at {shown} (its target is untouched)"
        );
    }
    if written.redacted > 0 {
        eprintln!(
            "baton handoff write: T-8 redacted {} secret pattern(s) in the artefact",
            written.redacted
        );
    }
    for (part, bytes) in &written.cut {
        eprintln!("baton handoff write: cap: cut {bytes} bytes of {part} (marked in the file)");
    }
    eprintln!(
        "baton handoff write: saved block {} of {shown} ({} of {} bytes)",
        written.block,
        written.file_bytes,
        session::MAX_BYTES
    );
}

/// `baton handoff resume-block`: the block `write` prints, for a session saved before.
fn resume_block_command(args: &ResumeBlockArgs, project: &Project) -> Result<i32> {
    // Checked before anything is read or printed: the id becomes a path and the command
    // line the user copies.
    session::validate_id(&args.session_id)?;
    // Unreadable files count as empty, as datarim's renderer treats them (`[ -f … ]`): the
    // block then leaves out what they would have added.
    let read = |p: &Path| fsx::read_limited(p, fsx::Limit::DOCUMENT).ok().flatten();
    let active = read(&args.active_tasks_file).unwrap_or_default();
    let md = args.tasks_md.as_deref().and_then(read);
    let saved_to = project
        .config()
        .paths
        .handoff
        .join(format!("{}.session.md", args.session_id))
        .to_string_lossy()
        .into_owned();
    out!(
        "{}",
        resume_block::render(
            &resume_block::Input {
                session_id: &args.session_id,
                recommended_next: &args.recommended_next,
                next_action: &args.next_action,
                active_tasks: &active,
                tasks_md: md.as_deref(),
                saved_to: &saved_to,
                command: resume_command(project.config()),
            },
            project.redactor(),
        )?
    );
    Ok(0)
}

/// The resume slash command to print: `handoff.resume_command` when it is a plain slash
/// command (`/`, then ASCII letters, digits, `:`, `.`, `_`, `-`), else the default
/// `/baton:dr-continue`. The config check refuses only blanks; an escape sequence or a bidi
/// character in the line the user copies would hide what it runs.
pub(crate) fn resume_command(config: &Config) -> &str {
    let cmd = config.handoff.resume_command.as_str();
    let plain = cmd.strip_prefix('/').is_some_and(|rest| {
        !rest.is_empty()
            && rest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '.' | '_' | '-'))
    });
    if plain {
        cmd
    } else {
        DEFAULT_RESUME_COMMAND
    }
}

/// The resume command when the configured one is not printable as is.
const DEFAULT_RESUME_COMMAND: &str = "/baton:dr-continue";

/// How long `--body-file -` (or `--active-tasks-file -`) waits for stdin to be closed. A
/// heredoc or a pipe is done at once; the wait is generous for a slow producer, and is there
/// only so that an inherited stdin that nobody closes cannot hang the save.
const STDIN_WAIT: Duration = Duration::from_secs(60);

/// An input file's text; `-` is stdin (for a quoted heredoc: no shell expansion either way).
fn read_input(flag: &str, path: &Path) -> Result<String> {
    if path == Path::new("-") {
        return match io::read_stdin(STDIN_WAIT) {
            Ok(Stdin::Text(text)) => Ok(text),
            Ok(Stdin::NotClosed) => Err(Error::Stdin(format!(
                "{flag} -: stdin was not closed within {} s; pipe the text in (a quoted heredoc) or pass a file",
                STDIN_WAIT.as_secs()
            ))),
            // core's message names stdin; this one names the flag that asked for it.
            Err(Error::Stdin(why)) => Err(Error::Stdin(format!("{flag} -: {why}"))),
            Err(e) => Err(e),
        };
    }
    let missing = || {
        Error::NotFound(format!(
            "{flag} {}: no such file; write the file first (a path, not inline text)",
            path.display()
        ))
    };
    match fsx::read_limited(path, fsx::Limit::DOCUMENT) {
        Ok(Some(text)) => Ok(text),
        Ok(None) => Err(missing()),
        Err(e) => Err(Error::Invalid(format!("{flag}: {e}"))),
    }
}

/// `DR_SESSION_LOCK_TIMEOUT` in seconds (fractions allowed), default 60.
fn lock_timeout(ctx: &Ctx) -> Duration {
    const DEFAULT: Duration = Duration::from_secs(60);
    match ctx.env.var(LOCK_TIMEOUT_VAR) {
        None => DEFAULT,
        Some(v) => match v.trim().parse::<f64>() {
            Ok(s) if s.is_finite() && (0.0..=86_400.0).contains(&s) => Duration::from_secs_f64(s),
            _ => {
                eprintln!(
                    "baton handoff: {LOCK_TIMEOUT_VAR}={v:?} is not a number of seconds; using 60"
                );
                DEFAULT
            }
        },
    }
}

/// `baton handoff status`: the saved sessions of this project, newest first, as text or
/// JSON. Values read from the files pass the redactor (a file may come from datarim's own
/// writer, whose secret patterns are fewer, or be edited by hand).
fn list_saved_sessions(project: &Project, json: bool) {
    let dir = session::sessions_dir(project);
    let sessions = replay::summaries(&dir);
    if json {
        let list: Vec<_> = sessions
            .iter()
            .map(|s| {
                serde_json::json!({
                    "session_id": s.id,
                    "captured_at": project.redact(&s.captured_at),
                    "captured_by": project.redact(&s.captured_by),
                    "next_action": project.redact(&s.next_action),
                    "blocks": s.blocks,
                })
            })
            .collect();
        io::print_json(&serde_json::json!({
            "dir": session::display_path(&project.root, &dir),
            "sessions": list,
        }));
    } else {
        out!(
            "{}",
            replay::render_list(&project.root, &dir, &sessions, project.redactor())
        );
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;
    use crate::core::clock::Clock;
    use crate::core::config;
    use crate::core::ctx::Env;

    fn problems_for(yaml: &str) -> Vec<String> {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join(".claude")).unwrap();
        std::fs::write(t.path().join(config::PROJECT_CONFIG), yaml).unwrap();
        let ctx = Ctx::for_test(
            Env::fixed([("HOME", t.path().to_str().unwrap())]),
            Clock::System,
            t.path().to_path_buf(),
        );
        config::load(&ctx, t.path())
            .problems
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn handoff_config_keys_are_checked_by_name() {
        assert!(problems_for(
            "handoff:\n  resume_command: /dr-continue\n  stale_runtime_globs: ['lib/**']\n"
        )
        .is_empty());
        let p = problems_for("handoff:\n  resume_command: dr continue\n");
        assert!(p[0].contains("handoff.resume_command"), "{p:?}");
        let p = problems_for("handoff:\n  stale_runtime_globs: ['']\n");
        assert!(p[0].contains("handoff.stale_runtime_globs[0]"), "{p:?}");
        let p = problems_for("handoff:\n  auto_save: false\n");
        assert!(p[0].contains("auto_save"), "{p:?}");
    }

    #[test]
    fn only_a_plain_resume_command_is_printed() {
        let mut config = Config::default();
        for (set, shown) in [
            ("/dr-continue", "/dr-continue"),
            ("/baton:dr-continue", "/baton:dr-continue"),
            ("/dr-continue\u{1b}[2J", DEFAULT_RESUME_COMMAND),
            ("/dr\u{202e}eunitnoc", DEFAULT_RESUME_COMMAND),
            ("/x;rm", DEFAULT_RESUME_COMMAND),
            ("/", DEFAULT_RESUME_COMMAND),
        ] {
            config.handoff.resume_command = set.into();
            assert_eq!(resume_command(&config), shown, "{set:?}");
        }
    }

    #[test]
    fn lock_timeout_reads_seconds_with_a_default() {
        let ctx = |v: &str| {
            Ctx::for_test(
                Env::fixed([(LOCK_TIMEOUT_VAR, v)]),
                Clock::System,
                "/".into(),
            )
        };
        assert_eq!(lock_timeout(&ctx("")), Duration::from_secs(60));
        assert_eq!(lock_timeout(&ctx("2")), Duration::from_secs(2));
        assert_eq!(lock_timeout(&ctx("0.25")), Duration::from_millis(250));
        assert_eq!(lock_timeout(&ctx("soon")), Duration::from_secs(60));
        assert_eq!(lock_timeout(&ctx("-1")), Duration::from_secs(60));
    }
}
