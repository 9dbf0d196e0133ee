//! The commit through the `git` CLI, so the repository's hooks run and signing is honoured:
//! `git add -A -- <paths>` (`-u` for ignored paths that are tracked), a check that something
//! is staged under them, then `git commit --only -- <paths>`, which commits those paths and
//! leaves whatever else is staged staged. All of it within the caller's deadline.
//!
//! Which hook rejected a commit comes from git's own trace (`GIT_TRACE2_EVENT`, written to a
//! file in the git directory and removed after): git prints nothing of its own when a hook
//! fails. The message goes through a file too (`-F`, `--cleanup=verbatim`), so it is stored
//! as given.

use super::commit::{self, CommitOptions, Outcome, Specs};
use super::guard::Refusal;
use super::hooks;
use crate::core::error::Result;
use crate::core::exec::{self, Ended, Run};
use crate::core::fsx;
use git2::{Oid, Repository};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The longest line of git's or a hook's output a refusal carries.
const LINE_MAX: usize = 200;

/// Variables an enclosing git process (baton run from a git hook) may have exported that
/// would point git elsewhere than the repository discovered from the project directory.
const REPO_VARS: [&str; 6] = [
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_PREFIX",
    "GIT_OBJECT_DIRECTORY",
];

/// Tells apart the scratch files of commits running at once in one process.
static SCRATCH_SEQ: AtomicUsize = AtomicUsize::new(0);

/// `git` at the work tree's top, within one deadline.
struct Git<'a> {
    program: &'a Path,
    top: &'a Path,
    opts: &'a CommitOptions<'a>,
    start: Instant,
}

impl Git<'_> {
    /// What a commit that did not happen leaves undone: our paths' entries (the intents to
    /// add) reset to HEAD's.
    fn undo(repo: &Repository, paths: &[String]) -> Result<()> {
        commit::unstage(repo, paths)
    }

    /// Runs git with `args` in the time left; `None` when there is none.
    fn run<S: AsRef<std::ffi::OsStr>>(&self, args: &[S], env: &[(&str, &str)]) -> Option<Run> {
        let left = self.opts.deadline.checked_sub(self.start.elapsed())?;
        if left.is_zero() {
            return None;
        }
        let mut cmd = exec::command(self.program);
        cmd.current_dir(self.top);
        for (k, v) in self.opts.env {
            cmd.env(k, v);
        }
        if let Some(path) = self.opts.path_env {
            cmd.env("PATH", path);
        }
        for k in REPO_VARS {
            cmd.env_remove(k);
        }
        // English messages to read, no prompt or editor to wait on.
        cmd.env("LC_ALL", "C")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_EDITOR", "true");
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.args(args);
        Some(exec::run(cmd, left, true))
    }
}

/// Makes the new files under `specs` known to the index without staging anything (`git add
/// --intent-to-add`: an entry with no content, which `git diff --cached` does not show), so
/// that `git commit --only` can take them; the refusal when that failed or ran out of time
/// (our paths' index entries then reset to HEAD's). Nothing of ours is ever staged: `commit
/// --only` stages and commits in one step, under git's own index lock, so a `bridge save`
/// killed at any point leaves the user's index as it was, or committed and up to date.
fn stage(git: &Git<'_>, repo: &Repository, specs: &Specs) -> Result<Option<Outcome>> {
    let paths = &specs.commit;
    for list in [&specs.add] {
        if list.is_empty() {
            continue;
        }
        let mut args = vec!["add".to_string(), "-N".to_string(), "--".to_string()];
        args.extend(list.iter().map(|s| literal(s)));
        match git.run(&args, &[]) {
            Some(run) if run.ok() => {}
            Some(run) if run.ended != Ended::TimedOut => {
                Git::undo(repo, paths)?;
                return Ok(Some(Outcome::refused(
                    Refusal::Failed(first_line(&run.output)),
                    paths,
                )));
            }
            _ => {
                Git::undo(repo, paths)?;
                return Ok(Some(Outcome::refused(
                    Refusal::TimedOut(git.opts.deadline),
                    paths,
                )));
            }
        }
    }
    Ok(None)
}

/// The arguments of `git commit` for `paths` with the message in `message_file`.
fn commit_args(repo: &Repository, message_file: &Path, paths: &[String]) -> Vec<String> {
    // Auto-maintenance (auto-gc before git 2.29) after a commit can repack for seconds:
    // not inside baton's deadline (the user's next commit runs it). A fallback identity is used
    // only where the configuration has none (an author in the environment still wins).
    let mut args: Vec<String> = ["-c", "maintenance.auto=false", "-c", "gc.auto=0"]
        .map(String::from)
        .to_vec();
    if hooks::missing_config(repo, "user.name") {
        args.extend(["-c".into(), "user.name=baton".into()]);
    }
    if hooks::missing_config(repo, "user.email") {
        args.extend(["-c".into(), "user.email=baton@localhost".into()]);
    }
    args.extend(["commit", "--only", "--quiet", "--cleanup=verbatim", "-F"].map(String::from));
    args.push(message_file.to_string_lossy().into_owned());
    args.push("--".into());
    args.extend(paths.iter().map(|s| literal(s)));
    args
}

/// Commits `specs` through `program` (a `git` executable). The repository passed the guard.
pub(super) fn commit(
    repo: &Repository,
    program: &Path,
    specs: &Specs,
    message: &str,
    opts: &CommitOptions<'_>,
) -> Result<Outcome> {
    let paths = &specs.commit;
    let refuse = |why: Refusal| -> Result<Outcome> { Ok(Outcome::refused(why, paths)) };
    let (Some(top), gitdir) = (repo.workdir(), repo.path()) else {
        return refuse(Refusal::Bare);
    };
    if gitdir.join("index.lock").exists() {
        return refuse(Refusal::Failed(
            "another git process is using the index (.git/index.lock exists)".into(),
        ));
    }
    // The temp files go into a private scratch folder, removed when this returns (nothing
    // of baton's in `.git/`).
    let scratch = opts
        .scratch
        .and_then(|base| fsx::Scratch::new(base, "commit").ok());
    let git = Git {
        program,
        top,
        opts,
        start: Instant::now(),
    };
    let before = head(repo);

    if let Some(refused) = stage(&git, repo, specs)? {
        return Ok(refused);
    }
    if !commit::change_to_commit(repo, paths)? {
        Git::undo(repo, paths)?;
        return Ok(Outcome::NothingToCommit);
    }

    let (trace, message_file) = scratch_files(scratch.as_ref().map_or(gitdir, |s| s.path()));
    let _ = std::fs::remove_file(&trace);
    let trace_env = trace.to_string_lossy().into_owned();
    // The message byte for byte: `-m` would end it with a
    // newline. `--cleanup=verbatim` keeps what a commit-msg hook adds, as it adds it.
    if let Err(e) = std::fs::write(&message_file, message) {
        Git::undo(repo, paths)?;
        return refuse(Refusal::Failed(format!(
            "write {}: {e}",
            message_file.display()
        )));
    }
    let args = commit_args(repo, &message_file, paths);
    let run = git.run(
        &args,
        &[
            ("GIT_TRACE2_EVENT", trace_env.as_str()),
            ("GIT_TRACE2_EVENT_BRIEF", "true"),
        ],
    );
    let traced = fsx::read_lossy(&trace, fsx::Limit::STATE)
        .ok()
        .flatten()
        .unwrap_or_default();
    let _ = std::fs::remove_file(&trace);
    let _ = std::fs::remove_file(&message_file);
    drop(scratch);
    let timed_out = run.as_ref().is_none_or(|r| r.ended == Ended::TimedOut);
    if timed_out {
        clear_index_locks(gitdir);
    }

    // A commit that exists is committed, even if git was killed after making it (a
    // post-commit hook still running at the deadline).
    if let Some(after) = head(repo).filter(|a| Some(*a) != before) {
        return Ok(Outcome::Committed {
            sha: after.to_string(),
        });
    }
    let why = match &run {
        Some(run) if run.ok() => return Ok(Outcome::NothingToCommit),
        Some(run) if !timed_out => {
            let Some(why) = refusal_of(repo, &run.output, &traced) else {
                Git::undo(repo, paths)?;
                return Ok(Outcome::NothingToCommit);
            };
            why
        }
        _ => Refusal::TimedOut(opts.deadline),
    };
    Git::undo(repo, paths)?;
    refuse(why)
}

/// Why `git commit` failed, from its output and trace; `None` when it had nothing to commit.
fn refusal_of(repo: &Repository, output: &str, trace: &str) -> Option<Refusal> {
    if let Some(hook) = rejecting_hook(trace) {
        return Some(Refusal::HookRejected {
            hook,
            first_line: first_line(output),
        });
    }
    if let Some(line) = signing_line(output) {
        return Some(Refusal::SigningFailed(line));
    }
    if output.contains("failed to write commit object") && hooks::gpgsign(repo) {
        return Some(Refusal::SigningFailed(first_line(output)));
    }
    if output.contains("nothing to commit") || output.contains("no changes added to commit") {
        return None;
    }
    if trace.trim().is_empty() {
        // No trace (a git without trace2): a commit hook is the likely cause, if there is one.
        let hooks: Vec<String> = hooks::installed(repo)
            .into_iter()
            .filter(|h| {
                matches!(
                    h.as_str(),
                    "pre-commit" | "prepare-commit-msg" | "commit-msg"
                )
            })
            .collect();
        if !hooks.is_empty() {
            return Some(Refusal::HookRejected {
                hook: hooks.join(" or "),
                first_line: first_line(output),
            });
        }
    }
    Some(Refusal::Failed(first_line(output)))
}

/// The hook that exited non-zero, from a trace2 event stream: `child_start` events of class
/// `hook` name it, `child_exit` gives its code. Only the events of the first process (our
/// `git commit`) count; git commands a hook runs write to the same file.
pub(super) fn rejecting_hook(trace: &str) -> Option<String> {
    let mut top_sid: Option<String> = None;
    let mut names: HashMap<i64, String> = HashMap::new();
    for line in trace.lines() {
        let Ok(event) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let field = |k: &str| event.get(k).and_then(serde_json::Value::as_str);
        let Some(sid) = field("sid") else { continue };
        if *top_sid.get_or_insert_with(|| sid.to_string()) != sid {
            continue;
        }
        let id = event.get("child_id").and_then(serde_json::Value::as_i64);
        match (field("event"), id) {
            (Some("child_start"), Some(id)) if field("child_class") == Some("hook") => {
                if let Some(name) = field("hook_name") {
                    names.insert(id, name.to_string());
                }
            }
            (Some("child_exit"), Some(id)) => {
                let code = event.get("code").and_then(serde_json::Value::as_i64);
                if code != Some(0) {
                    if let Some(name) = names.get(&id) {
                        return Some(name.clone());
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// The line saying signing failed ("error: gpg failed to sign the data: <gpg's reason>").
fn signing_line(output: &str) -> Option<String> {
    let lines: Vec<&str> = output
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let i = lines.iter().position(|l| {
        let l = l.to_ascii_lowercase();
        (l.starts_with("error:") || l.starts_with("fatal:")) && l.contains("sign")
    })?;
    let mut line = lines[i].to_string();
    if line.ends_with(':') {
        if let Some(next) = lines.get(i + 1) {
            line.push(' ');
            line.push_str(next);
        }
    }
    Some(clip(&line))
}

/// The first non-empty line of `output`, clipped.
pub(super) fn first_line(output: &str) -> String {
    output
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(clip)
        .unwrap_or_default()
}

fn clip(line: &str) -> String {
    match line.char_indices().nth(LINE_MAX) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_string(),
    }
}

/// A pathspec that means exactly this path (no glob, no magic), without exporting
/// `GIT_LITERAL_PATHSPECS` to the user's hooks as `--literal-pathspecs` would.
fn literal(spec: &str) -> String {
    format!(":(literal){spec}")
}

fn head(repo: &Repository) -> Option<Oid> {
    repo.refname_to_id("HEAD").ok()
}

/// The trace and message files of one commit, in `dir` (a scratch folder, or without one
/// the git directory: private to the repository, writable wherever a commit can be made),
/// removed after it.
fn scratch_files(dir: &Path) -> (PathBuf, PathBuf) {
    let seq = SCRATCH_SEQ.fetch_add(1, Ordering::Relaxed);
    let stem = format!("baton-commit-{}-{seq}", std::process::id());
    (
        dir.join(format!("{stem}.trace2")),
        dir.join(format!("{stem}.msg")),
    )
}

/// Removes the index locks a killed git left behind. There was no `index.lock` when the
/// commit started (it would not have run), so one there now is ours.
fn clear_index_locks(gitdir: &Path) {
    let _ = std::fs::remove_file(gitdir.join("index.lock"));
    let Ok(entries) = std::fs::read_dir(gitdir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("next-index-") && name.ends_with(".lock") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rejecting_hook_is_read_from_our_process_events_only() {
        let trace = r#"{"event":"version","sid":"top","evt":"4"}
{"event":"child_start","sid":"top","child_id":0,"child_class":"hook","hook_name":"pre-commit"}
{"event":"child_start","sid":"top/sub","child_id":0,"child_class":"hook","hook_name":"post-index-change"}
{"event":"child_exit","sid":"top/sub","child_id":0,"code":1}
{"event":"child_exit","sid":"top","child_id":0,"code":0}
not json
{"event":"child_start","sid":"top","child_id":1,"child_class":"hook","hook_name":"commit-msg"}
{"event":"child_exit","sid":"top","child_id":1,"code":1}
"#;
        assert_eq!(rejecting_hook(trace), Some("commit-msg".into()));
        assert_eq!(rejecting_hook(""), None);
        let passed = r#"{"event":"child_start","sid":"s","child_id":0,"child_class":"hook","hook_name":"pre-commit"}
{"event":"child_exit","sid":"s","child_id":0,"code":0}"#;
        assert_eq!(rejecting_hook(passed), None);
    }

    #[test]
    fn signing_and_first_lines_are_one_line() {
        let out = "error: gpg failed to sign the data:\ngpg: boom\n\nfatal: failed to write commit object\n";
        assert_eq!(
            signing_line(out).as_deref(),
            Some("error: gpg failed to sign the data: gpg: boom")
        );
        assert_eq!(signing_line("secret in a.txt\n"), None);
        assert_eq!(first_line("\n  \n  first  \nsecond"), "first");
        let long = "x".repeat(500);
        assert_eq!(first_line(&long).chars().count(), LINE_MAX + 1);
    }
}
