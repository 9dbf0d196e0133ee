//! Folds transcript lines into a digest, one at a time, in file order — the reading rules of
//! Claude Code's transcript (reference §3.10):
//!
//! * user prompts: `user` entries whose content is a string or text blocks, except injected
//!   text (`isMeta`), the post-compaction summary (`isCompactSummary`), tool results, and
//!   strings that are Claude Code's own markup (`<command-…>`, `<local-command-…>`,
//!   `<system-reminder>`, `<bash-…>`, `[Request interrupted …`);
//! * assistant text and `tool_use` blocks; one API response may be written as several lines
//!   sharing `message.id`, and a block may be repeated, so tool calls count once per id;
//! * `tool_result` blocks: `is_error` (or a non-zero exit code) makes a failure, paired with
//!   its call for the command; TaskCreate's result names the task's id;
//! * `system` `compact_boundary` entries are counted;
//! * sidechain entries (`isSidechain: true`, a subagent's work) are counted apart and touch
//!   nothing else: a subagent's tool calls never reach the main lists.
//!
//! What must survive between two reads (calls whose result comes in a later read, the ids
//! already counted) is the `Carry`, stored with the digest.

use super::digest::{
    keep_last, Digest, Failure, TurnNote, MAX_CORRECTIONS, MAX_SUBAGENTS, MAX_TURNS,
};
use super::entry::{Block, Content, Entry, Message, ToolInput, ToolUseResult};
use super::tasks;
use crate::core::correction;
use crate::core::shell;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Tool calls remembered while their result is awaited.
const MAX_PENDING: usize = 32;
/// Tool-call ids remembered, to count each call once.
const MAX_SEEN: usize = 64;

/// The reading state carried from one update to the next.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Carry {
    /// Calls of the main session whose result has not been read yet, oldest first.
    pub(crate) pending: Vec<Pending>,
    /// The newest tool-call ids of the main session.
    pub(crate) seen: Vec<String>,
    /// The newest tool-call ids of subagents (`<agent>:<id>`).
    pub(crate) side_seen: Vec<String>,
    /// The last assistant message id.
    pub(crate) message_id: Option<String>,
    /// When the git state was last read (RFC 3339).
    pub(crate) git_read: Option<String>,
    /// A Stop ended the last turn, and no prompt came since: lines of that turn the
    /// transcript shows only now (its last calls, its final message) belong to it.
    pub(crate) stop_closed: bool,
}

/// A call awaiting its result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Pending {
    pub(crate) id: String,
    pub(crate) tool: String,
    /// The command (Bash), path (file tools) or subject (TaskCreate).
    pub(crate) target: String,
}

impl Carry {
    /// Redacts what is kept of pending calls (their commands may hold secrets).
    pub(crate) fn finalize(&mut self, redact: &dyn Fn(&str) -> String) {
        for p in &mut self.pending {
            p.target = crate::core::text::clip(&redact(&p.target), 1_000);
        }
    }
}

/// Prompts that are Claude Code's markup, not the user's words.
const NOT_A_PROMPT: &[&str] = &[
    "<command-",
    "<local-command-",
    "<system-reminder>",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<user-memory-input>",
    "[Request interrupted",
    "Caveat: The messages below",
];

/// One update's folding: the digest, its carry, and the project root for relative paths.
pub(crate) struct Fold<'a> {
    pub(crate) digest: &'a mut Digest,
    pub(crate) carry: &'a mut Carry,
    roots: Vec<PathBuf>,
    /// The time of the entry being folded.
    at: Option<String>,
    /// The prompt id of the user entry being folded.
    prompt_id: Option<String>,
}

impl<'a> Fold<'a> {
    pub(crate) fn new(digest: &'a mut Digest, carry: &'a mut Carry, root: &Path) -> Fold<'a> {
        let mut roots = vec![root.to_path_buf()];
        if let Ok(c) = root.canonicalize() {
            if c != root {
                roots.push(c);
            }
        }
        Fold {
            digest,
            carry,
            roots,
            at: None,
            prompt_id: None,
        }
    }

    /// Folds one line in.
    pub(crate) fn line(&mut self, bytes: &[u8]) {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        match Entry::parse(bytes) {
            Some(e) => self.entry(&e),
            None => self.digest.counts.malformed_lines += 1,
        }
    }

    fn entry(&mut self, e: &Entry) {
        let d = &mut *self.digest;
        d.counts.entries += 1;
        self.at = e.timestamp.get().map(str::to_string);
        if let Some(ts) = e.timestamp.get() {
            if d.started.is_none() {
                d.started = Some(ts.to_string());
            }
            d.last_activity = Some(ts.to_string());
        }
        if e.sidechain.0 {
            self.sidechain(e);
            return;
        }
        if let Some(branch) = e.git_branch.get() {
            d.branch = Some(branch.to_string());
        }
        match e.kind.0.as_str() {
            "user" if !e.meta.0 && !e.compact_summary.0 => {
                if let Some(m) = &e.message.0 {
                    self.prompt_id = e.prompt_id.get().map(str::to_string);
                    self.user(m, &e.tool_use_result, e.timestamp.get());
                }
            }
            "assistant" => {
                if let Some(m) = &e.message.0 {
                    self.assistant(m);
                }
            }
            "system" if e.subtype.is("compact_boundary") => d.counts.compactions += 1,
            _ => {}
        }
    }

    /// A subagent's entry: counted, its tool calls once per id, nothing else.
    fn sidechain(&mut self, e: &Entry) {
        self.digest.counts.sidechain_entries += 1;
        let Some(Message {
            content: Content::Blocks(blocks),
            ..
        }) = &e.message.0
        else {
            return;
        };
        if !e.kind.is("assistant") {
            return;
        }
        for b in blocks.iter().filter(|b| b.kind.is("tool_use")) {
            let key = format!("{}:{}", e.agent_id.0, b.id.0);
            if !remember(&mut self.carry.side_seen, &key) {
                self.digest.counts.sidechain_tool_calls += 1;
            }
        }
    }

    fn user(&mut self, m: &Message, result: &ToolUseResult, at: Option<&str>) {
        let results: Vec<&Block> = match &m.content {
            Content::Blocks(b) => b.iter().filter(|b| b.kind.is("tool_result")).collect(),
            _ => Vec::new(),
        };
        if !results.is_empty() {
            for b in results {
                self.tool_result(b, result, at);
            }
            return;
        }
        if !matches!(result, ToolUseResult::None) {
            return;
        }
        let text = m.content.text();
        let trimmed = text.trim();
        if trimmed.starts_with("[Request interrupted") {
            // The user stopped the turn on purpose: it is over, not cut off.
            self.close_turn(None);
            self.carry.stop_closed = false;
            return;
        }
        if let Some(command) = slash_command(trimmed) {
            // A slash command the user typed starts a turn of its own (its expansion, which
            // follows as injected text, is not the user's words).
            self.start_turn(&command, at, false);
            return;
        }
        if trimmed.is_empty() || NOT_A_PROMPT.iter().any(|p| trimmed.starts_with(p)) {
            return;
        }
        let corrects = correction::classify(trimmed).is_some();
        self.start_turn(trimmed, at, corrects);
        let d = &mut *self.digest;
        d.counts.prompts += 1;
        if d.first_request.is_none() {
            d.first_request = Some(trimmed.to_string());
        }
        d.latest_request = Some(trimmed.to_string());
        if corrects {
            d.corrections.push(trimmed.to_string());
            keep_last(&mut d.corrections, MAX_CORRECTIONS);
        }
    }

    /// A prompt starts a turn: the one under way ends (the user spoke before it did), and a
    /// correction marks the turn it answers as corrected.
    fn start_turn(&mut self, request: &str, at: Option<&str>, correction: bool) {
        self.close_turn(None);
        self.carry.stop_closed = false;
        if correction {
            if let Some(last) = self.digest.turns.last_mut() {
                last.corrected = true;
            }
        }
        self.digest.open_turn = Some(TurnNote {
            request: request.to_string(),
            started: at.map(str::to_string),
            prompt_id: self.prompt_id.clone(),
            fresh: true,
            ..TurnNote::default()
        });
    }

    /// The turn under way ends, with `conclusion` (else what the assistant said last in it)
    /// as its conclusion; kept when anything happened in it.
    pub(crate) fn close_turn(&mut self, conclusion: Option<&str>) {
        let Some(mut turn) = self.digest.open_turn.take() else {
            return;
        };
        if let Some(c) = conclusion.filter(|c| !c.trim().is_empty()) {
            turn.conclusion = c.trim().to_string();
            turn.fresh = true;
        }
        if turn.ended.is_none() {
            turn.ended.clone_from(&self.at);
            turn.fresh = true;
        }
        if turn.conclusion.is_empty() && turn.work == 0 && turn.request.is_empty() {
            return;
        }
        self.digest.turns.push(turn);
        keep_last(&mut self.digest.turns, MAX_TURNS);
    }

    /// A Stop: the turn is over, its final message `text` (Claude Code's
    /// `last_assistant_message`, fresher than the transcript) at `now`.
    pub(crate) fn stop(&mut self, text: Option<&str>, prompt: Option<&str>, now: &str) {
        let text = text.map(str::trim).filter(|t| !t.is_empty());
        // A Stop of a turn whose prompt the transcript does not show yet: the turn under way
        // is an earlier one, which that prompt will end when it is read.
        let other =
            |t: &TurnNote| matches!((t.prompt_id.as_deref(), prompt), (Some(a), Some(b)) if a != b);
        if self.digest.open_turn.as_ref().is_some_and(|t| !other(t)) {
            self.at = Some(now.to_string());
            self.close_turn(text);
            self.carry.stop_closed = true;
        }
    }

    /// The turn under way: the one a Stop ended when the transcript shows more of it only
    /// now, else a new one (the read began inside a turn).
    fn turn(&mut self) -> &mut TurnNote {
        if self.digest.open_turn.is_none() && self.carry.stop_closed {
            self.carry.stop_closed = false;
            self.digest.open_turn = self.digest.turns.pop();
        }
        let at = self.at.clone();
        let turn = self.digest.open_turn.get_or_insert_with(|| TurnNote {
            started: at,
            ..TurnNote::default()
        });
        turn.fresh = true;
        turn
    }

    fn assistant(&mut self, m: &Message) {
        // Claude Code's own words, not the assistant's: no conclusion, no call.
        if m.model.is("<synthetic>") {
            return;
        }
        let id = m.id.get();
        if id.is_none() || id != self.carry.message_id.as_deref() {
            self.digest.counts.assistant_messages += 1;
            self.carry.message_id = id.map(str::to_string);
        }
        let blocks = match &m.content {
            Content::Blocks(b) => b.as_slice(),
            Content::Text(t) => {
                self.assistant_text(t);
                return;
            }
            Content::None => return,
        };
        let mut said = false;
        for b in blocks {
            if b.kind.is("text") {
                said |= self.assistant_text(&b.text.0);
            } else if b.kind.is("tool_use") {
                if b.id.get().is_some() && remember(&mut self.carry.seen, &b.id.0) {
                    continue;
                }
                self.digest.counts.tool_calls += 1;
                let input = b.input.0.as_ref();
                self.tool_use(&b.name.0, &b.id.0, input);
            }
        }
        // The turn's final message: the turn is over.
        if said && m.stop_reason.is("end_turn") {
            self.close_turn(None);
        }
    }

    /// Text of the assistant's; `true` when it counts as what the turn says so far.
    fn assistant_text(&mut self, text: &str) -> bool {
        let text = text.trim();
        if text.is_empty() {
            return false;
        }
        self.digest.last_assistant = Some(text.to_string());
        self.turn().conclusion = text.to_string();
        true
    }

    fn tool_use(&mut self, name: &str, id: &str, input: Option<&ToolInput>) {
        let empty = ToolInput::default();
        let input = input.unwrap_or(&empty);
        if is_work(name, &input.command.0) {
            self.turn().work += 1;
            self.digest.counts.work_calls += 1;
            self.digest.saved_last = false;
            if let Some(at) = &self.at {
                self.digest.last_work = Some(at.clone());
            }
        }
        let mut target = input.file_path.0.clone();
        match name {
            "Edit" | "Write" | "MultiEdit" | "NotebookEdit" => {
                let path = input.file_path.get().or(input.notebook_path.get());
                if let Some(p) = path {
                    target = p.to_string();
                    self.file(p);
                }
            }
            "Bash" => {
                target.clone_from(&input.command.0);
                for p in shell::effects(&input.command.0).writes {
                    self.file(&p);
                }
            }
            "TaskCreate" => {
                let subject = input.subject.get().or(input.description.get());
                target = subject.unwrap_or("a task").to_string();
                tasks::create(&mut self.digest.tasks, &target, id);
            }
            "TaskUpdate" => {
                if let Some(task) = input.task_id.get() {
                    let status = input.status.get().and_then(tasks::status);
                    tasks::update(&mut self.digest.tasks, task, status, input.subject.get());
                }
            }
            "TodoWrite" => {
                let todos = input
                    .todos
                    .0
                    .iter()
                    .map(|t| (t.content.0.clone(), t.status.0.clone()));
                tasks::todo_write(&mut self.digest.tasks, todos);
            }
            "Agent" | "Task" => {
                let d = &mut *self.digest;
                d.counts.subagent_calls += 1;
                d.subagents
                    .push(input.description.get().unwrap_or("a subagent").to_string());
                keep_last(&mut d.subagents, MAX_SUBAGENTS);
            }
            _ => {}
        }
        if !id.is_empty() {
            self.carry.pending.push(Pending {
                id: id.to_string(),
                tool: name.to_string(),
                target,
            });
            keep_last(&mut self.carry.pending, MAX_PENDING);
        }
    }

    fn tool_result(&mut self, b: &Block, result: &ToolUseResult, at: Option<&str>) {
        let call = match self
            .carry
            .pending
            .iter()
            .position(|p| p.id == b.tool_use_id.0)
        {
            Some(i) => self.carry.pending.remove(i),
            None => Pending {
                id: b.tool_use_id.0.clone(),
                tool: "a tool".into(),
                target: String::new(),
            },
        };
        let text = b.content.text();
        let (exit_code, stderr, result_text) = match result {
            ToolUseResult::Fields(f) => (f.exit_code.0.or(f.return_code.0), f.stderr.get(), None),
            ToolUseResult::Text(t) => (None, None, Some(t.as_str())),
            ToolUseResult::None => (None, None, None),
        };
        let failed = b.is_error.0 || exit_code.is_some_and(|c| c != 0);
        // A test run piped through `tail` exits 0 whatever the tests did: its output says.
        let summary = (!failed && call.tool == "Bash" && runs_checks(&call.target))
            .then(|| failure_summary(&text))
            .flatten();
        if let Some(lines) = summary {
            self.turn_error(&lines);
            self.digest.failures.push(Failure {
                tool: call.tool,
                command: call.target,
                error: lines,
                exit_code: exit_code.or(Some(0)),
                at: at.map(str::to_string),
            });
            keep_last(&mut self.digest.failures, super::digest::MAX_FAILURES);
            return;
        }
        let d = &mut *self.digest;
        if !failed {
            if call.tool == "TaskCreate" {
                if let Some(task) = created_task_id(result, &text) {
                    tasks::created(&mut d.tasks, &call.id, &task);
                }
            }
            if call.tool == "Bash" {
                d.failures
                    .retain(|f| !(f.tool == "Bash" && resolves(&call.target, &f.command)));
                // A save through baton that went through: the session's last word, until
                // more work.
                if is_save(&call.target) {
                    d.saved_last = true;
                }
            }
            return;
        }
        d.counts.tool_errors += 1;
        let error = stderr
            .and_then(|s| error_line(s).0)
            .or_else(|| error_line(&text).0)
            .or_else(|| result_text.and_then(|t| error_line(t).0))
            .unwrap_or_else(|| "(no error output)".into());
        self.turn_error(&error);
        let d = &mut *self.digest;
        let command = if call.target.is_empty() {
            call.tool.clone()
        } else if call.tool == "Bash" {
            call.target.clone()
        } else {
            format!("{} {}", call.tool, call.target)
        };
        d.failures.push(Failure {
            tool: call.tool,
            command,
            error,
            exit_code: exit_code.or_else(|| error_line(&text).1),
            at: at.map(str::to_string),
        });
        keep_last(&mut d.failures, super::digest::MAX_FAILURES);
    }

    /// An error line of a tool call of the turn under way (the first few are kept).
    fn turn_error(&mut self, line: &str) {
        let turn = self.turn();
        if turn.errors.len() < super::digest::MAX_TURN_ERRORS
            && !turn.errors.iter().any(|e| e == line)
        {
            turn.errors.push(crate::core::text::clip(line, 1_000));
        }
    }

    /// A file the session touched: made relative to the project root when inside it, moved
    /// to the end when already listed.
    fn file(&mut self, path: &str) {
        let mut rel = path.to_string();
        for root in &self.roots {
            if let Ok(r) = Path::new(path).strip_prefix(root) {
                rel = r.to_string_lossy().into_owned();
                break;
            }
        }
        let files = &mut self.digest.files;
        files.retain(|f| *f != rel);
        files.push(rel);
        keep_last(files, super::digest::MAX_FILES);
    }
}

/// Tools whose call is work in the project: it changes a file, runs something, moves the
/// task list, or hands work to a subagent. Every other tool — a read, a search, a question to
/// the user, a skill, plan mode, an MCP tool — only looks or talks.
const WORK_TOOLS: &[&str] = &[
    "Edit",
    "Write",
    "MultiEdit",
    "NotebookEdit",
    "Bash",
    "TaskCreate",
    "TaskUpdate",
    "TodoWrite",
    "Agent",
    "Task",
];

/// Commands that only look, by their program.
const LOOKING_COMMANDS: &[&str] = &[
    "ls", "cat", "head", "tail", "pwd", "echo", "printf", "grep", "rg", "find", "wc", "which",
    "less", "tree", "stat", "file", "date", "whoami", "env", "type", "du", "df",
];

/// Words a command's program may stand behind (`env X=1 cargo test`, `time make`).
const PREFIXES: &[&str] = &["env", "time", "nice", "nohup", "sudo", "command", "exec"];

/// Whether a call of tool `name` (a Bash `command`) is work in the project (`WORK_TOOLS`; a
/// command that only looks is not). baton's own commands are not work (a save is dated by
/// itself; `status`, `recall` only look).
pub(crate) fn is_work(name: &str, command: &str) -> bool {
    if !WORK_TOOLS.contains(&name) {
        return false;
    }
    if name != "Bash" {
        return true;
    }
    let words: Vec<&str> = command
        .split_whitespace()
        .skip_while(|w| w.contains('=') || PREFIXES.contains(w))
        .collect();
    let first = words.first().copied().unwrap_or("");
    let program = first.rsplit('/').next().unwrap_or(first);
    if program == "baton" {
        return false;
    }
    if !shell::effects(command).writes.is_empty() {
        return true;
    }
    match program {
        "git" => !matches!(
            words.iter().skip(1).find(|w| !w.starts_with('-')).copied(),
            Some("status" | "log" | "diff" | "show" | "branch" | "blame")
        ),
        "find" => words
            .iter()
            .any(|w| matches!(*w, "-delete" | "-exec" | "-execdir")),
        _ => !LOOKING_COMMANDS.contains(&program),
    }
}

/// A command's program and subcommand (`cargo test`, `npm run`, `./test.sh`), after any
/// `VAR=value` and `cd … &&`, and what follows them.
fn command_parts(command: &str) -> (String, Vec<&str>) {
    let last = command.rsplit("&&").next().unwrap_or(command);
    let mut words = last.split_whitespace().skip_while(|w| w.contains('='));
    let program = words.next().unwrap_or("");
    let program = program.rsplit('/').next().unwrap_or(program);
    let rest: Vec<&str> = words
        .take_while(|w| !matches!(*w, "|" | ">" | "2>&1" | ";"))
        .collect();
    match rest.split_first() {
        Some((sub, args))
            if sub.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && !sub.starts_with('-') =>
        {
            (format!("{program} {sub}"), args.to_vec())
        }
        _ => (program.to_string(), rest),
    }
}

/// Whether `passed` succeeding shows that the failure of `failed` is over: the same command,
/// or the same program and subcommand run without narrowing it (`cargo test` after `cargo
/// test parser` failed; not `cargo test other`).
pub(crate) fn resolves(passed: &str, failed: &str) -> bool {
    if passed.trim() == failed.trim() {
        return true;
    }
    let (p, p_args) = command_parts(passed);
    let (f, _) = command_parts(failed);
    !p.is_empty() && p == f && p_args.iter().all(|a| a.starts_with('-'))
}

/// baton's commands that save what comes next (`bridge save`, `bridge checkpoint`,
/// `handoff write`, `relay handoff`).
const SAVES: &[[&str; 2]] = &[
    ["bridge", "save"],
    ["bridge", "checkpoint"],
    ["handoff", "write"],
    ["relay", "handoff"],
];

/// Whether a Bash command runs one of baton's saves.
pub(crate) fn is_save(command: &str) -> bool {
    command
        .split(['\n', ';', '|', '&'])
        .map(|segment| {
            segment
                .split_whitespace()
                .skip_while(|w| w.contains('='))
                .take(3)
                .collect::<Vec<&str>>()
        })
        .any(|w| {
            w.len() == 3
                && w[0].rsplit('/').next() == Some("baton")
                && SAVES.iter().any(|s| w[1] == s[0] && w[2] == s[1])
        })
}

/// Claude Code's own commands that run locally, with no turn of the model's.
const LOCAL_COMMANDS: &[&str] = &[
    "/compact",
    "/clear",
    "/cost",
    "/help",
    "/status",
    "/model",
    "/config",
    "/context",
    "/memory",
    "/resume",
    "/exit",
    "/login",
    "/logout",
    "/doctor",
    "/permissions",
    "/hooks",
    "/mcp",
    "/agents",
    "/plugin",
    "/plugins",
    "/export",
    "/usage",
    "/rewind",
];

/// The slash command a `<command-name>` entry records (`/baton:dr-continue ID`), when it
/// starts a turn of the model's (not one of Claude Code's local commands).
fn slash_command(text: &str) -> Option<String> {
    let name = text
        .strip_prefix("<command-name>")?
        .split("</command-name>")
        .next()?
        .trim();
    if name.is_empty() || LOCAL_COMMANDS.contains(&name) {
        return None;
    }
    let args = text
        .split("<command-args>")
        .nth(1)
        .and_then(|a| a.split("</command-args>").next())
        .map_or("", str::trim);
    Some(if args.is_empty() {
        name.to_string()
    } else {
        format!("{name} {args}")
    })
}

/// Adds `id` to `seen` (the newest `MAX_SEEN`); `true` when it was already there.
fn remember(seen: &mut Vec<String>, id: &str) -> bool {
    if seen.iter().any(|s| s == id) {
        return true;
    }
    seen.push(id.to_string());
    keep_last(seen, MAX_SEEN);
    false
}

/// The id TaskCreate's result names: `{"task": {"id": …}}`, else "Task #N created".
fn created_task_id(result: &ToolUseResult, text: &str) -> Option<String> {
    if let ToolUseResult::Fields(f) = result {
        if let Some(id) = f.task.0.as_ref().and_then(|t| t.id.get()) {
            return Some(id.to_string());
        }
    }
    let rest = text.split("Task #").nth(1)?;
    let id: String = rest
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    (!id.is_empty()).then_some(id)
}

/// The line of an error output that says what went wrong (a line that names an error, else
/// the first that is not just "Exit code N"), and the exit code when a line gives one.
/// Lines of a command's output that report failed tests or an error although the command
/// exited 0 (`cargo test 2>&1 | tail` exits with `tail`'s code): the summary line and the
/// lines that name what failed, the first `SUMMARY_LINES`, joined by ` | `; `None` when the
/// output reports no failure.
pub(crate) fn failure_summary(text: &str) -> Option<String> {
    const SUMMARY_LINES: usize = 3;
    let mut found: Vec<&str> = Vec::new();
    for line in text.lines().map(str::trim) {
        if found.len() == SUMMARY_LINES {
            break;
        }
        if reports_failure(line) && !found.contains(&line) {
            found.push(line);
        }
    }
    (!found.is_empty()).then(|| found.join(" | "))
}

/// Whether a command runs tests, a build or a check (whose output is read for failures):
/// not a `cat` or `grep` of a log that holds "Error:" lines.
fn runs_checks(command: &str) -> bool {
    const RUNNERS: &[&str] = &[
        "test", "build", "check", "make", "cargo", "npm", "pnpm", "yarn", "pytest", "tox", "jest",
        "vitest", "mvn", "gradle", "ctest", "rspec", "lint", "tsc", "go", "bazel", "just", "nox",
        "deno", "bun", "dotnet", "swift", "mix", "rake", "phpunit",
    ];
    let first = command.split(['|', ';', '&']).next().unwrap_or("");
    first
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| RUNNERS.contains(&w))
}

/// Whether an output line reports a failure the way test runners and compilers print it.
fn reports_failure(line: &str) -> bool {
    const STARTS: &[&str] = &[
        "test result: FAILED",
        "FAILED",
        "FAIL ",
        "FAIL:",
        "Error:",
        "error:",
        "error[",
        "ERROR:",
        "Traceback (most recent call last)",
        "npm ERR!",
        "fatal:",
        "panicked at",
        "thread '",
    ];
    if STARTS.iter().any(|s| line.starts_with(s)) {
        // `thread 'x' panicked at …` only; a Rust test's name line `test x ... FAILED` below.
        return !line.starts_with("thread '") || line.contains("panicked");
    }
    if line.ends_with("... FAILED") || line.ends_with(" FAILED") && line.starts_with("test ") {
        return true;
    }
    // pytest's and others' closing line: `=== 2 failed, 5 passed in 1.2s ===`, `Tests: 1 failed`.
    let lower = line.to_ascii_lowercase();
    lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .collect::<Vec<_>>()
        .windows(2)
        .any(|w| w[1] == "failed" && w[0].parse::<u32>().is_ok_and(|n| n > 0))
}

pub(crate) fn error_line(text: &str) -> (Option<String>, Option<i64>) {
    let mut exit = None;
    let mut lines = Vec::new();
    for line in text.lines() {
        let line = line
            .replace("<tool_use_error>", "")
            .replace("</tool_use_error>", "");
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let bare = line.strip_prefix("Error: ").unwrap_or(line);
        if let Some(code) = bare
            .strip_prefix("Exit code ")
            .and_then(|c| c.trim().parse().ok())
        {
            exit = exit.or(Some(code));
            continue;
        }
        lines.push(line.to_string());
    }
    let named = lines.iter().find(|l| {
        let l = l.to_ascii_lowercase();
        [
            "error",
            "fail",
            "fatal",
            "panic",
            "exception",
            "denied",
            "not found",
            "no such",
            "cannot",
            "invalid",
        ]
        .iter()
        .any(|w| l.contains(w))
    });
    (named.or(lines.first()).cloned(), exit)
}

#[cfg(test)]
#[allow(clippy::needless_pass_by_value)] // the line builders take values, as json! literals are
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// Folds `lines` (JSON values, or raw text for broken lines) into a fresh digest.
    fn fold(lines: &[Value]) -> (Digest, Carry) {
        let (mut d, mut c) = (Digest::default(), Carry::default());
        let mut f = Fold::new(&mut d, &mut c, Path::new("/work/proj"));
        for l in lines {
            match l {
                Value::String(raw) => f.line(raw.as_bytes()),
                v => f.line(v.to_string().as_bytes()),
            }
        }
        (d, c)
    }

    fn prompt(text: &str) -> Value {
        json!({"type": "user", "isSidechain": false, "timestamp": "2026-11-30T09:00:00.000Z",
               "message": {"role": "user", "content": text}})
    }

    fn tool_use(msg: &str, id: &str, name: &str, input: Value) -> Value {
        json!({"type": "assistant", "isSidechain": false, "timestamp": "2026-11-30T09:01:00.000Z",
               "message": {"id": msg, "role": "assistant",
                           "content": [{"type": "tool_use", "id": id, "name": name, "input": input}]}})
    }

    fn text(msg: &str, t: &str) -> Value {
        json!({"type": "assistant", "message": {"id": msg, "content": [{"type": "text", "text": t}]}})
    }

    fn result(id: &str, content: &str, is_error: bool, tool_use_result: Value) -> Value {
        json!({"type": "user", "timestamp": "2026-11-30T09:02:00.000Z", "toolUseResult": tool_use_result,
               "message": {"role": "user", "content": [
                   {"type": "tool_result", "tool_use_id": id, "content": content, "is_error": is_error}]}})
    }

    #[test]
    fn a_response_split_across_lines_and_a_repeated_tool_use_count_once() {
        let (d, _) = fold(&[
            prompt("fix the parser"),
            text("msg_1", "Looking at the parser."),
            tool_use(
                "msg_1",
                "toolu_1",
                "Read",
                json!({"file_path": "/work/proj/src/lib.rs"}),
            ),
            tool_use(
                "msg_1",
                "toolu_2",
                "Edit",
                json!({"file_path": "/work/proj/src/lib.rs", "old_string": "a", "new_string": "b"}),
            ),
            // The same block written again (a streamed message repeats).
            tool_use(
                "msg_1",
                "toolu_2",
                "Edit",
                json!({"file_path": "/work/proj/src/lib.rs"}),
            ),
            text("msg_2", "Done: the parser returns an error now."),
        ]);
        assert_eq!(d.counts.assistant_messages, 2);
        assert_eq!(d.counts.tool_calls, 2);
        assert_eq!(d.files, ["src/lib.rs"]);
        assert_eq!(
            d.last_assistant.as_deref(),
            Some("Done: the parser returns an error now.")
        );
        assert_eq!(d.started.as_deref(), Some("2026-11-30T09:00:00.000Z"));
        assert_eq!(d.last_activity.as_deref(), Some("2026-11-30T09:01:00.000Z"));
    }

    #[test]
    fn injected_and_markup_user_lines_are_not_prompts() {
        let mut meta = prompt("Stop hook feedback: keep going");
        meta["isMeta"] = json!(true);
        let mut summary = prompt("This session is being continued from a previous conversation");
        summary["isCompactSummary"] = json!(true);
        let (d, _) = fold(&[
            prompt("<command-name>/clear</command-name>\n<command-message>clear</command-message>"),
            prompt("<local-command-stdout>ok</local-command-stdout>"),
            prompt("<system-reminder>be nice</system-reminder>"),
            meta,
            prompt("build the widget"),
            summary,
            json!({"type": "system", "subtype": "compact_boundary", "compactMetadata": {"trigger": "auto", "preTokens": 1}}),
            json!({"type": "user", "message": {"content": [{"type": "text", "text": "and document it"}, {"type": "image", "source": {}}]}}),
            json!({"type": "summary", "summary": "x", "leafUuid": "y"}),
            json!({"type": "attachment", "attachment": {"type": "hook_success", "stdout": "no, stop"}}),
        ]);
        assert_eq!(d.counts.prompts, 2);
        assert_eq!(d.first_request.as_deref(), Some("build the widget"));
        assert_eq!(d.latest_request.as_deref(), Some("and document it"));
        assert_eq!(d.counts.compactions, 1);
        assert!(d.corrections.is_empty());
    }

    #[test]
    fn sidechain_entries_stay_apart_even_with_colliding_ids() {
        let side = |v: Value| {
            let mut v = v;
            v["isSidechain"] = json!(true);
            v["agentId"] = json!("a69e613d");
            v
        };
        let (d, c) = fold(&[
            prompt("check the build"),
            tool_use(
                "msg_1",
                "toolu_1",
                "Agent",
                json!({"description": "run a check", "prompt": "p", "subagent_type": "general-purpose"}),
            ),
            side(prompt("run a check")),
            side(tool_use(
                "msg_1",
                "toolu_1",
                "Bash",
                json!({"command": "echo x > sub-only.txt; exit 3"}),
            )),
            side(result(
                "toolu_1",
                "fatal: subagent-only failure",
                true,
                json!("Error: Exit code 3"),
            )),
            side(tool_use(
                "msg_2",
                "toolu_2",
                "Write",
                json!({"file_path": "/work/proj/sub.rs", "content": ""}),
            )),
            result(
                "toolu_1",
                "sub done",
                false,
                json!({"status": "completed", "agentId": "a69e613d"}),
            ),
        ]);
        assert_eq!(d.counts.sidechain_entries, 4);
        assert_eq!(d.counts.sidechain_tool_calls, 2);
        assert_eq!(d.counts.tool_calls, 1);
        assert!(d.files.is_empty(), "{:?}", d.files);
        assert!(d.failures.is_empty(), "{:?}", d.failures);
        assert_eq!(d.first_request.as_deref(), Some("check the build"));
        assert_eq!(d.subagents, ["run a check"]);
        assert!(c.pending.is_empty());
    }

    #[test]
    fn malformed_and_blank_lines() {
        let (d, _) = fold(&[
            json!("{\"type\": \"user\", \"message\": "),
            json!("not json at all"),
            json!("[1, 2, 3]"),
            json!("   "),
            prompt("still read"),
        ]);
        assert_eq!(d.counts.malformed_lines, 3);
        assert_eq!(d.counts.entries, 1);
        assert_eq!(d.first_request.as_deref(), Some("still read"));
    }

    #[test]
    fn three_task_creates_and_updates_by_task_id() {
        let (d, _) = fold(&[
            tool_use(
                "m1",
                "t1",
                "TaskCreate",
                json!({"subject": "Write the parser", "description": "d"}),
            ),
            result(
                "t1",
                "Task #1 created successfully: Write the parser",
                false,
                json!({"task": {"id": "1", "subject": "Write the parser"}}),
            ),
            tool_use(
                "m2",
                "t2",
                "TaskCreate",
                json!({"subject": "Add widget tests", "description": "d"}),
            ),
            // No structured result: the id comes from the text.
            result(
                "t2",
                "Task #2 created successfully: Add widget tests",
                false,
                json!(null),
            ),
            tool_use(
                "m3",
                "t3",
                "TaskCreate",
                json!({"subject": "Update the docs", "description": "d"}),
            ),
            result(
                "t3",
                "Task #3 created successfully: Update the docs",
                false,
                json!({"task": {"id": "3"}}),
            ),
            tool_use(
                "m4",
                "t4",
                "TaskUpdate",
                json!({"taskId": "1", "status": "completed"}),
            ),
            tool_use(
                "m5",
                "t5",
                "TaskUpdate",
                json!({"taskId": 2, "status": "in_progress"}),
            ),
            tool_use(
                "m6",
                "t6",
                "TaskUpdate",
                json!({"taskId": "3", "status": "bogus", "subject": "Update the README"}),
            ),
        ]);
        let view: Vec<(Option<&str>, &str, &str)> = d
            .tasks
            .iter()
            .map(|t| (t.id.as_deref(), t.subject.as_str(), t.status.as_str()))
            .collect();
        assert_eq!(
            view,
            [
                (Some("1"), "Write the parser", "completed"),
                (Some("2"), "Add widget tests", "in_progress"),
                (Some("3"), "Update the README", "pending"),
            ]
        );
    }

    #[test]
    fn todo_write_lists() {
        let (d, _) = fold(&[
            tool_use(
                "m1",
                "t1",
                "TodoWrite",
                json!({"todos": [
                    {"content": "Parse input", "status": "completed", "activeForm": "Parsing input"},
                    {"content": "Write tests", "status": "in_progress", "activeForm": "Writing tests"},
                ]}),
            ),
            tool_use(
                "m2",
                "t2",
                "TodoWrite",
                json!({"todos": [
                    {"content": "Parse input", "status": "completed", "activeForm": "x"},
                    {"content": "Write tests", "status": "completed", "activeForm": "x"},
                    {"content": "Ship it", "status": "pending", "activeForm": "x"},
                    "not an item",
                ]}),
            ),
        ]);
        let view: Vec<(&str, &str)> = d
            .tasks
            .iter()
            .map(|t| (t.subject.as_str(), t.status.as_str()))
            .collect();
        assert_eq!(
            view,
            [
                ("Parse input", "completed"),
                ("Write tests", "completed"),
                ("Ship it", "pending")
            ]
        );
        assert!(d.tasks.iter().all(|t| t.todo && t.id.is_none()));
    }

    #[test]
    fn a_failing_bash_is_a_failure_until_the_same_command_succeeds() {
        let cmd = "cargo test --quiet";
        let (d, _) = fold(&[
            tool_use(
                "m1",
                "t1",
                "Bash",
                json!({"command": cmd, "description": "run tests"}),
            ),
            result(
                "t1",
                "Exit code 101\n   Compiling demo\nerror[E0425]: cannot find value `x`\nmore",
                true,
                json!("Error: Exit code 101\n..."),
            ),
            tool_use("m2", "t2", "Edit", json!({"file_path": "/elsewhere/x.rs"})),
            result(
                "t2",
                "<tool_use_error>String to replace not found in file.</tool_use_error>",
                true,
                json!("Error: String to replace not found"),
            ),
        ]);
        assert_eq!(d.counts.tool_errors, 2);
        assert_eq!(d.failures.len(), 2);
        let f = &d.failures[0];
        assert_eq!((f.tool.as_str(), f.command.as_str()), ("Bash", cmd));
        assert_eq!(f.error, "error[E0425]: cannot find value `x`");
        assert_eq!(f.exit_code, Some(101));
        assert_eq!(d.failures[1].command, "Edit /elsewhere/x.rs");
        assert_eq!(d.failures[1].error, "String to replace not found in file.");
        assert_eq!(d.files, ["/elsewhere/x.rs"]);

        // A non-zero exit code in the structured result fails too; the same command passing
        // later clears the failure.
        let (d, _) = fold(&[
            tool_use("m1", "t1", "Bash", json!({"command": "make"})),
            result(
                "t1",
                "",
                false,
                json!({"stdout": "", "stderr": "make: *** No rule to make target\nx", "exitCode": 2}),
            ),
        ]);
        assert_eq!(d.failures[0].error, "make: *** No rule to make target");
        assert_eq!(d.failures[0].exit_code, Some(2));
        let (d, _) = fold(&[
            tool_use("m1", "t1", "Bash", json!({"command": cmd})),
            result("t1", "Exit code 1\nboom", true, json!(null)),
            tool_use("m2", "t2", "Bash", json!({"command": cmd})),
            result("t2", "ok", false, json!({"stdout": "ok", "stderr": ""})),
        ]);
        assert!(d.failures.is_empty());
    }

    #[test]
    fn files_from_edit_tools_and_shell_writes() {
        let (d, _) = fold(&[
            tool_use(
                "m1",
                "t1",
                "Write",
                json!({"file_path": "/work/proj/notes.txt", "content": "x"}),
            ),
            tool_use(
                "m2",
                "t2",
                "NotebookEdit",
                json!({"notebook_path": "/work/proj/a.ipynb", "new_source": "x"}),
            ),
            tool_use(
                "m3",
                "t3",
                "MultiEdit",
                json!({"file_path": "/work/proj/src/lib.rs", "edits": []}),
            ),
            tool_use(
                "m4",
                "t4",
                "Bash",
                json!({"command": "echo x >> log.txt && sed -i 's/a/b/' notes.txt"}),
            ),
        ]);
        assert_eq!(d.files, ["a.ipynb", "src/lib.rs", "log.txt", "notes.txt"]);
    }

    fn final_text(msg: &str, t: &str, at: &str) -> Value {
        json!({"type": "assistant", "timestamp": at, "message": {"id": msg, "stop_reason": "end_turn",
               "content": [{"type": "text", "text": t}]}})
    }

    #[test]
    fn each_turn_keeps_its_conclusion_and_a_correction_marks_the_one_it_answers() {
        let long_end = format!(
            "Root cause found. {} Still open: the docs.",
            "detail ".repeat(900)
        );
        let (d, _) = fold(&[
            prompt("find the bug"),
            tool_use("m1", "t1", "Bash", json!({"command": "cargo test"})),
            final_text("m2", &long_end, "2026-11-30T09:03:00.000Z"),
            prompt("now fix it"),
            tool_use(
                "m3",
                "t2",
                "Edit",
                json!({"file_path": "/work/proj/src/a.rs"}),
            ),
            final_text(
                "m4",
                "I will rewrite it with regex.",
                "2026-11-30T09:04:00.000Z",
            ),
            prompt("No — don't use regex."),
            tool_use(
                "m5",
                "t3",
                "Read",
                json!({"file_path": "/work/proj/src/a.rs"}),
            ),
        ]);
        assert_eq!(d.turns.len(), 2, "{:?}", d.turns);
        assert_eq!(d.turns[0].request, "find the bug");
        assert!(d.turns[0].conclusion.starts_with("Root cause found."));
        assert!(
            d.turns[0].conclusion.ends_with("Still open: the docs."),
            "the end was lost"
        );
        assert_eq!(d.turns[0].work, 1);
        assert!(!d.turns[0].corrected && d.turns[1].corrected);
        let open = d.open_turn.as_ref().unwrap();
        assert_eq!(open.request, "No — don't use regex.");
        assert_eq!(open.work, 0, "a read is not work");
        assert_eq!(d.last_work.as_deref(), Some("2026-11-30T09:01:00.000Z"));
    }

    #[test]
    fn a_stop_ends_the_turn_once_even_when_the_final_line_comes_later() {
        let (mut d, mut c) = (Digest::default(), Carry::default());
        let mut f = Fold::new(&mut d, &mut c, Path::new("/work/proj"));
        f.line(prompt("go").to_string().as_bytes());
        f.line(
            tool_use("m1", "t1", "Bash", json!({"command": "make"}))
                .to_string()
                .as_bytes(),
        );
        f.stop(
            Some("Built. Next: the tests."),
            None,
            "2026-11-30T09:05:00Z",
        );
        // The transcript's last lines of that turn (a call, the final message) arrive at the
        // next read: they are that turn's, not a new one.
        let late = tool_use(
            "m2",
            "t2",
            "TaskUpdate",
            json!({"taskId": "1", "status": "completed"}),
        );
        f.line(late.to_string().as_bytes());
        let last = final_text("m3", "Built. Next: the tests.", "2026-11-30T09:05:00.000Z");
        f.line(last.to_string().as_bytes());
        assert_eq!(d.turns.len(), 1, "{:?}", d.turns);
        assert_eq!(d.turns[0].conclusion, "Built. Next: the tests.");
        assert_eq!(d.turns[0].work, 2);
        assert!(d.open_turn.is_none());
    }

    #[test]
    fn a_stop_of_a_later_turn_does_not_end_an_earlier_one() {
        let (mut d, mut c) = (Digest::default(), Carry::default());
        let mut f = Fold::new(&mut d, &mut c, Path::new("/work/proj"));
        let mut first = prompt("fix it");
        first["promptId"] = json!("p1");
        f.line(first.to_string().as_bytes());
        f.line(
            tool_use("m1", "t1", "Bash", json!({"command": "make"}))
                .to_string()
                .as_bytes(),
        );
        // The session is cut off; resumed, a new prompt's Stop comes before its lines.
        f.stop(Some("All done."), Some("p2"), "2026-11-30T09:05:00Z");
        assert!(
            f.digest.open_turn.is_some(),
            "the cut-off turn took the later answer"
        );
        let mut second = prompt("where were we?");
        second["promptId"] = json!("p2");
        f.line(second.to_string().as_bytes());
        f.line(
            final_text("m2", "All done.", "2026-11-30T09:05:01.000Z")
                .to_string()
                .as_bytes(),
        );
        assert_eq!(d.turns.len(), 2, "{:?}", d.turns);
        assert_eq!(d.turns[0].conclusion, "", "{:?}", d.turns);
        assert_eq!(
            (d.turns[1].request.as_str(), d.turns[1].conclusion.as_str()),
            ("where were we?", "All done.")
        );
    }

    #[test]
    fn a_slash_command_starts_a_turn_and_an_interrupt_ends_one() {
        let (mut d, mut c) = (Digest::default(), Carry::default());
        let mut f = Fold::new(&mut d, &mut c, Path::new("/work/proj"));
        f.line(prompt("fix the parser").to_string().as_bytes());
        f.line(
            tool_use("m1", "t1", "Edit", json!({"file_path": "/work/proj/a.rs"}))
                .to_string()
                .as_bytes(),
        );
        f.stop(
            Some("Fixed the parser. Decision: keep the tokenizer."),
            None,
            "2026-11-30T09:05:00Z",
        );
        // The user runs a plugin's command: its turn is another one.
        let command = prompt("<command-name>/baton:dr-continue</command-name>\n<command-message>baton:dr-continue</command-message>\n<command-args>SESSION-20261130-090000</command-args>");
        f.line(command.to_string().as_bytes());
        f.line(
            tool_use("m2", "t2", "Bash", json!({"command": "make"}))
                .to_string()
                .as_bytes(),
        );
        f.line(
            final_text(
                "m3",
                "Reviewed b.rs, renamed things.",
                "2026-11-30T09:07:00.000Z",
            )
            .to_string()
            .as_bytes(),
        );
        // Then a turn the user stops on purpose.
        f.line(prompt("now rewrite the lexer").to_string().as_bytes());
        f.line(
            tool_use("m4", "t4", "Edit", json!({"file_path": "/work/proj/l.rs"}))
                .to_string()
                .as_bytes(),
        );
        f.line(
            prompt("[Request interrupted by user for tool use]")
                .to_string()
                .as_bytes(),
        );
        assert_eq!(d.turns.len(), 3, "{:?}", d.turns);
        assert_eq!(
            d.turns[0].conclusion,
            "Fixed the parser. Decision: keep the tokenizer."
        );
        assert_eq!(
            d.turns[1].request,
            "/baton:dr-continue SESSION-20261130-090000"
        );
        assert_eq!(d.turns[1].conclusion, "Reviewed b.rs, renamed things.");
        assert!(d.open_turn.is_none(), "a stopped turn is not cut off");
        assert_eq!(d.latest_request.as_deref(), Some("now rewrite the lexer"));
        // Claude Code's own commands start nothing.
        assert_eq!(slash_command("<command-name>/compact</command-name>"), None);
    }

    #[test]
    fn only_a_save_that_went_through_ends_the_work_with_it() {
        let save = json!({"command": "baton bridge checkpoint <<'YAML'\nresume: x\nYAML"});
        let (d, _) = fold(&[
            prompt("save it"),
            tool_use("m1", "t1", "Edit", json!({"file_path": "/work/proj/a.rs"})),
            tool_use("m2", "t2", "Bash", save.clone()),
            result(
                "t2",
                "Exit code 1\nbaton: resume is required",
                true,
                json!("Error: Exit code 1"),
            ),
        ]);
        assert!(!d.saved_last, "a failed save counted");
        let (d, _) = fold(&[
            prompt("save it"),
            tool_use("m1", "t1", "Edit", json!({"file_path": "/work/proj/a.rs"})),
            tool_use("m2", "t2", "Bash", save),
            result(
                "t2",
                "Checkpoint saved",
                false,
                json!({"stdout": "Checkpoint saved"}),
            ),
        ]);
        assert!(d.saved_last);
    }

    #[test]
    fn work_is_what_can_change_something() {
        assert!(is_work("Edit", ""));
        assert!(is_work("Bash", "cargo test"));
        assert!(is_work("Bash", "echo x > out.txt"));
        assert!(is_work("TaskUpdate", ""));
        assert!(!is_work("Read", ""));
        assert!(!is_work("Bash", "ls -la"));
        assert!(!is_work("Bash", "git status"));
        assert!(!is_work("Bash", "baton bridge checkpoint"));
        assert!(!is_work("mcp__plugin_baton_baton__recall", ""));
        for looking in [
            "AskUserQuestion",
            "Skill",
            "ExitPlanMode",
            "mcp__github__get_issue",
        ] {
            assert!(!is_work(looking, ""), "{looking}");
        }
        assert!(is_work("Bash", "env RUST_LOG=1 cargo test"));
        assert!(is_work("Bash", "find target -name '*.tmp' -delete"));
        assert!(!is_work("Bash", "find . -name '*.rs'"));
        assert!(resolves("cargo test", "cargo test parser::empty"));
        assert!(resolves(
            "cargo test --all 2>&1 | tail",
            "RUST_LOG=1 cargo test parser"
        ));
        assert!(!resolves("cargo test other", "cargo test parser"));
        assert!(!resolves("cargo build", "cargo test"));
        assert!(resolves("./test.sh sync", "./test.sh sync"));
        assert!(is_save("/opt/p/bin/baton bridge checkpoint <<'EOF'"));
        assert!(is_save("cd x && baton handoff write --session S"));
        assert!(!is_save("baton bridge status") && !is_save("echo baton bridge save"));
    }

    /// A prompt that corrects the agent lands in `corrections`, as `core::correction` reads
    /// it; issue 34: "And no, don't …" and "No — don't …" did not (they were read by their
    /// first word only).
    #[test]
    fn issue_34_corrections_are_read_by_structure() {
        let (d, _) = fold(&[
            prompt("build it"),
            prompt("And no, don't use the global config, read it from the project file"),
            prompt("Don't forget to add tests"),
            prompt("No — don't put the helper in utils.rs, it belongs in core"),
            prompt("now run the tests"),
            prompt("no, in Rust"),
        ]);
        assert_eq!(
            d.corrections,
            [
                "And no, don't use the global config, read it from the project file",
                "No — don't put the helper in utils.rs, it belongs in core",
                "no, in Rust",
            ]
        );
    }

    #[test]
    fn error_lines() {
        assert_eq!(
            error_line("Exit code 1\nerror: widget exploded"),
            (Some("error: widget exploded".into()), Some(1))
        );
        assert_eq!(error_line("Error: Exit code 2"), (None, Some(2)));
        assert_eq!(
            error_line("\n  plain output\n"),
            (Some("plain output".into()), None)
        );
    }
}
