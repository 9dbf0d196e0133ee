//! Save mode: `baton bridge save` takes the session's content as YAML and appends each item
//! to its `.rune/` file in the session-bridge entry format, then commits `.rune/`.

use super::author;
use super::entries::ITEM_SEP;
use super::global;
use super::instincts::{self, Instinct};
use super::integrity;
use super::learn::{self, Learning};
use super::notes;
use super::provenance::{self, Ledger};
use super::rules;
use super::scan_cache::Stamp;
use super::store::{self, Rune};
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::git::Outcome;
use crate::core::project::Project;
use crate::core::redact::Redactor;
use crate::core::scan::{scan_text, Status};
use crate::core::text::one_line;
use chrono::{DateTime, Utc};
use serde::Deserialize;
use std::path::Path;

/// What `baton bridge save` reads on stdin. Every key is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct SaveInput {
    pub(crate) summary: Option<String>,
    pub(crate) decisions: Vec<Decision>,
    pub(crate) conventions: Vec<Convention>,
    pub(crate) progress: Option<Progress>,
    pub(crate) learnings: Vec<Learning>,
    pub(crate) instincts: Vec<Instinct>,
    pub(crate) notes: Option<notes::NotesInput>,
    pub(crate) task_notes: Option<notes::TaskNotesInput>,
}

impl SaveInput {
    /// Whether the input holds nothing to save (then nothing is written or committed, and
    /// no folder is made).
    pub(crate) fn is_empty(&self) -> bool {
        let blank = |v: &[String]| v.iter().all(|s| s.trim().is_empty());
        let notes = self.notes.as_ref().is_none_or(|n| {
            [
                &n.project_profile,
                &n.architecture_map,
                &n.recurring_themes,
                &n.active_topics,
                &n.relationship_map,
                &n.follow_up,
                &n.attention_points,
                &n.resolved,
            ]
            .iter()
            .all(|l| blank(l))
        });
        let task_notes = self.task_notes.as_ref().is_none_or(|t| {
            [&t.worked, &t.failed, &t.left, &t.key_context]
                .iter()
                .all(|l| blank(l))
        });
        self.summary.as_deref().is_none_or(|s| s.trim().is_empty())
            && self.decisions.is_empty()
            && self.conventions.is_empty()
            && self.progress.as_ref().is_none_or(|p| !has_progress(p))
            && self.learnings.is_empty()
            && self.instincts.is_empty()
            && notes
            && task_notes
    }
}

/// One decision (`decisions:`); the field names are the input's YAML keys.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(clippy::struct_field_names)] // `decision` is a YAML key of the save input
pub(crate) struct Decision {
    pub(crate) title: String,
    pub(crate) context: String,
    pub(crate) decision: String,
    pub(crate) rationale: String,
    pub(crate) impact: String,
}

/// One convention (`conventions:`).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct Convention {
    pub(crate) title: String,
    pub(crate) pattern: String,
    pub(crate) example: String,
    pub(crate) applies_to: String,
}

/// The session's progress (`progress:`).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(clippy::struct_field_names)] // `in_progress` is a YAML key of the save input
pub(crate) struct Progress {
    pub(crate) completed: Vec<String>,
    pub(crate) in_progress: Vec<String>,
    pub(crate) blocked: Vec<String>,
    pub(crate) next: Vec<String>,
    /// Python context the model knows (mypy errors, coverage, migration, extras); the
    /// version and virtual environment are detected.
    pub(crate) python: Option<PythonInput>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct PythonInput {
    pub(crate) version: Option<String>,
    pub(crate) venv: Option<String>,
    pub(crate) extras: Vec<String>,
    pub(crate) mypy: Option<String>,
    pub(crate) coverage: Option<String>,
    pub(crate) migration: Option<String>,
}

/// What one save did, for the report (`--json` prints it as is).
#[derive(Debug, Default, serde::Serialize)]
pub(crate) struct Saved {
    decisions: usize,
    conventions: usize,
    progress: Option<(usize, usize, usize)>,
    session_log: usize,
    instincts: Option<(usize, usize)>,
    /// Instincts removed because a convention rules them out: `name (term: convention)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    instincts_conflicting: Vec<String>,
    learnings: Option<(usize, bool)>,
    notes: Option<(usize, usize)>,
    task_notes: Option<usize>,
    /// Task notes removed: completed items, and the oldest past 50 lines.
    #[serde(skip_serializing_if = "is_zero")]
    task_notes_pruned: usize,
    promoted: Vec<String>,
    commit: String,
    /// The files appended to, for the integrity cache (`Scanner::scan_after`).
    #[serde(skip)]
    pub(crate) appended: Vec<integrity::Appended>,
    /// The files of the folder this save wrote (what its commit holds).
    #[serde(skip)]
    pub(crate) written: Vec<&'static str>,
    /// Entries that make their file SUSPICIOUS (saved, but marked at every load).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) warnings: Vec<String>,
    /// The save held a summary and nothing else: a status line, not a save of the session.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) summary_only: bool,
    /// Where the save passed a limit the spec sets (saved all the same).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) notices: Vec<String>,
}

/// Learnings one save is meant to carry at most (the spec: "1-3 entries per session").
pub(crate) const LEARNINGS_PER_SESSION: usize = 3;

/// What the spec's limits say of a save's input: a summary alone, more learnings than a
/// session should record. Nothing is refused: the save goes on, and the report says it.
fn limits(input: &SaveInput, saved: &mut Saved) {
    let has_summary = input
        .summary
        .as_deref()
        .is_some_and(|s| !s.trim().is_empty());
    saved.summary_only = has_summary
        && input.decisions.is_empty()
        && input.conventions.is_empty()
        && input.progress.is_none()
        && input.learnings.is_empty()
        && input.instincts.is_empty()
        && input.notes.is_none()
        && input.task_notes.is_none();
    if saved.summary_only {
        saved.notices.push("only a summary was saved: no decisions, conventions or progress — a session's save records those too (the summary alone is a status line)".into());
    }
    let n = input.learnings.len();
    if n > LEARNINGS_PER_SESSION {
        saved.notices.push(format!(
            "{n} learnings in one save: a session records 1–{LEARNINGS_PER_SESSION}, only the ones that transfer (all {n} were saved)"
        ));
    }
}

/// Checks what a save would add before anything is written: an entry at or above the
/// block level would keep its whole file out of every session, so the save is refused; a
/// SUSPICIOUS one is saved with a warning. Secrets are left out: the save redacts them.
/// `yaml` is the save's input; every string in it is scanned.
pub(crate) fn screen(yaml: &str, block_at: Status, red: &Redactor) -> Result<Vec<String>> {
    fn strings(v: &serde_yaml_ng::Value, out: &mut Vec<String>) {
        match v {
            serde_yaml_ng::Value::String(s) => out.push(s.clone()),
            serde_yaml_ng::Value::Sequence(items) => items.iter().for_each(|i| strings(i, out)),
            serde_yaml_ng::Value::Mapping(m) => m.values().for_each(|i| strings(i, out)),
            serde_yaml_ng::Value::Tagged(t) => strings(&t.value, out),
            _ => {}
        }
    }
    let Ok(value) = serde_yaml_ng::from_str::<serde_yaml_ng::Value>(yaml) else {
        return Ok(Vec::new());
    };
    let mut all = Vec::new();
    strings(&value, &mut all);
    let mut warnings = Vec::new();
    for text in &all {
        for f in scan_text("entry", text, red) {
            if f.rule == "secret" {
                continue;
            }
            let what = format!("[{}] {}", f.rule, f.excerpt);
            if f.severity >= block_at {
                return Err(Error::Invalid(format!(
                    "an entry matches the integrity rule {what}: saved, it would keep its whole file out of every session; reword it and save again"
                )));
            }
            if !warnings.contains(&what) {
                warnings.push(what);
            }
        }
    }
    Ok(warnings)
}

fn or_dash(s: &str) -> String {
    let s = one_line(s);
    if s.is_empty() {
        "—".into()
    } else {
        s
    }
}

/// `**Label:** value` and a newline, or nothing for an empty value.
fn field_line(label: &str, value: &str) -> String {
    let v = one_line(value);
    if v.is_empty() {
        String::new()
    } else {
        format!("**{label}:** {v}\n")
    }
}

/// `**By:** name` and a newline, or nothing when git knows no name.
fn by_line(by: Option<&str>) -> String {
    by.map(author::by_line).unwrap_or_default()
}

/// A decision entry. Block entries hold no blank line and no filler line for an empty field
/// (only `**Decision:**` is always there) and end with their author: git's union merge
/// (`.rune/.gitattributes`) interleaves two sides' new lines only around runs of lines both
/// sides share, which entries written so do not have.
pub(crate) fn decision_entry(d: &Decision, now: DateTime<Utc>, by: Option<&str>) -> String {
    format!(
        "## [{}] Decision: {}\n{}**Decision:** {}\n{}{}{}",
        store::stamp(now),
        or_dash(&d.title),
        field_line("Context", &d.context),
        or_dash(&d.decision),
        field_line("Rationale", &d.rationale),
        field_line("Impact", &d.impact),
        by_line(by)
    )
}

fn convention_entry(c: &Convention, now: DateTime<Utc>, by: Option<&str>) -> String {
    // A multi-line example becomes an indented code block: no line of it can start with
    // `## [` and pass for an entry heading.
    let example = if c.example.trim().contains('\n') {
        let lines: Vec<String> = c
            .example
            .trim_end()
            .lines()
            .map(|l| format!("    {l}"))
            .collect();
        format!("**Example:**\n\n{}\n\n", lines.join("\n"))
    } else {
        field_line("Example", &c.example)
    };
    format!(
        "## [{}] Convention: {}\n**Pattern:** {}\n{example}{}{}",
        store::stamp(now),
        or_dash(&c.title),
        or_dash(&c.pattern),
        field_line("Applies to", &c.applies_to),
        by_line(by)
    )
}

/// `**Title:** item · item`, one line, or nothing when there are none. One line per group
/// (not the spec's list under a label): two sessions that share an item (or two) still
/// share no run of lines, which git's union merge would write once for both.
fn list(out: &mut String, title: &str, items: &[String]) {
    let items: Vec<String> = items
        .iter()
        .map(|i| one_line(i).replace(ITEM_SEP, " - "))
        .filter(|i| !i.is_empty())
        .collect();
    if !items.is_empty() {
        out.push_str(&format!("**{title}:** {}\n", items.join(ITEM_SEP)));
    }
}

fn progress_entry(
    p: &Progress,
    python: Option<String>,
    now: DateTime<Utc>,
    by: Option<&str>,
) -> String {
    let mut out = format!("## [{}] Session Summary\n", store::stamp(now));
    list(&mut out, "Completed", &p.completed);
    list(&mut out, "In Progress", &p.in_progress);
    list(&mut out, "Blocked", &p.blocked);
    list(&mut out, "Next Session Should", &p.next);
    if let Some(py) = python {
        out.push_str(&py);
    }
    out.push_str(&by_line(by));
    out
}

/// The Python context block when the project is a Python project (pyproject.toml or
/// setup.py at the root); what the model gave wins over what is detected.
fn python_context(root: &Path, given: Option<&PythonInput>) -> Option<String> {
    if !root.join("pyproject.toml").is_file() && !root.join("setup.py").is_file() {
        return None;
    }
    let empty = PythonInput::default();
    let g = given.unwrap_or(&empty);
    let version = g.version.clone().or_else(|| detect_python_version(root));
    let venv = g.venv.clone().or_else(|| detect_venv(root));
    let na = |v: &Option<String>| v.as_deref().map_or("n/a".to_string(), one_line);
    let extras = if g.extras.is_empty() {
        "n/a".to_string()
    } else {
        g.extras.join(", ")
    };
    Some(format!(
        "**Python Context:** Python {} ({}) · installed extras: {extras} · mypy: {} · coverage: {} · migration: {}\n",
        na(&version),
        na(&venv),
        na(&g.mypy),
        na(&g.coverage),
        na(&g.migration)
    ))
}

fn detect_python_version(root: &Path) -> Option<String> {
    if let Ok(Some(v)) = fsx::read_limited(&root.join(".python-version"), fsx::Limit::POINTER) {
        let v = v.lines().next().unwrap_or("").trim().to_string();
        if !v.is_empty() {
            return Some(v);
        }
    }
    let py = fsx::read_limited(&root.join("pyproject.toml"), fsx::Limit::STATE).ok()??;
    py.lines().find_map(|l| {
        let l = l.trim();
        let rest = l.strip_prefix("requires-python")?.trim_start();
        let v = rest.strip_prefix('=')?.trim().trim_matches(['"', '\'']);
        Some(v.to_string())
    })
}

fn detect_venv(root: &Path) -> Option<String> {
    let found = [
        ("uv.lock", "uv"),
        ("poetry.lock", "poetry"),
        ("environment.yml", "conda"),
        (".venv", "venv"),
        ("venv", "venv"),
    ]
    .into_iter()
    .find(|(f, _)| root.join(f).exists())?;
    Some(found.1.to_string())
}

/// Runs a save: refused while `.rune/` or `.handoff/` holds an unresolved merge (nothing is
/// written then); appends everything under the folder lock, promotes strong instincts to
/// the user-level store, then commits what it wrote (and the merge rules when it wrote them
/// now) — nothing when it wrote nothing.
pub(crate) fn save(project: &Project, input: &SaveInput) -> Result<Saved> {
    integrity::refuse_unresolved(project, "not saved")?;
    let rune = Rune::of(project);
    for l in &input.learnings {
        l.check()?;
    }
    let by = author::current(project);
    let mut saved = Saved::default();
    limits(input, &mut saved);
    if input.is_empty() {
        saved.commit = commit(project, &rune, &[]);
        return Ok(saved);
    }
    {
        let _lock = rune.lock()?;
        append_entries(project, &rune, input, by.as_deref(), &mut saved)?;
        rewrite_instincts(project, &rune, input, by.as_deref(), &mut saved)?;
        append_notes(project, &rune, input, by.as_deref(), &mut saved)?;
        if !saved.written.is_empty() {
            saved.written.extend(rules::ensure(&rune)?);
        }
    }
    if let Some(dir) = global::location(&project.ctx.env) {
        saved.promoted = promote(project, &dir, input);
    }
    saved.commit = commit(project, &rune, &saved.written);
    Ok(saved)
}

/// Whether a progress input says anything (an entry of empty lists is not written).
fn has_progress(p: &Progress) -> bool {
    [&p.completed, &p.in_progress, &p.blocked, &p.next]
        .iter()
        .any(|l| l.iter().any(|i| !i.trim().is_empty()))
}

/// The decisions, conventions, progress and session-log line, each file's new entries
/// appended in one write. Call under the folder lock. Everything written passes the
/// project's redactor.
fn append_entries(
    project: &Project,
    rune: &Rune,
    input: &SaveInput,
    by: Option<&str>,
    saved: &mut Saved,
) -> Result<()> {
    let now = project.now();
    let clean = |s: String| project.redact(&s);
    let ledger = Ledger::of(project);
    // What is appended is recorded as baton's own (the provenance ledger), and what the
    // integrity cache needs to extend its verdict to the new bytes (`Appended`).
    let mut append = |file: &'static str, text: &str| -> Result<()> {
        let path = rune.path(file);
        let before = Stamp::of(&path);
        let old_len = rune.append(file, text)?;
        saved.appended.push(integrity::Appended {
            name: file.to_string(),
            before,
            old_len,
            after: Stamp::of(&path),
        });
        saved.written.push(file);
        let added: Vec<String> = provenance::entries(file, text)
            .into_iter()
            .map(|e| e.text)
            .collect();
        provenance::note(ledger.record(file, &added, "save", now), false);
        Ok(())
    };
    let blocks: [(&'static str, Vec<String>); 2] = [
        (
            store::DECISIONS,
            input
                .decisions
                .iter()
                .map(|d| decision_entry(d, now, by))
                .collect(),
        ),
        (
            store::CONVENTIONS,
            input
                .conventions
                .iter()
                .map(|c| convention_entry(c, now, by))
                .collect(),
        ),
    ];
    for (file, entries) in blocks {
        if !entries.is_empty() {
            append(file, &clean(entries.join("\n")))?;
        }
    }
    let progress = input.progress.as_ref().filter(|p| has_progress(p));
    if let Some(p) = progress {
        let py = python_context(&project.root, p.python.as_ref());
        append(store::PROGRESS, &clean(progress_entry(p, py, now, by)))?;
    }
    let summary = input.summary.as_deref().filter(|s| !s.trim().is_empty());
    if let Some(s) = summary {
        let by = by.map(author::suffix).unwrap_or_default();
        let line = format!("[{}] — {}{by}", store::stamp(now), one_line(s));
        append(store::SESSION_LOG, &clean(line))?;
    }
    saved.decisions = input.decisions.len();
    saved.conventions = input.conventions.len();
    saved.progress = progress.map(|p| (p.completed.len(), p.in_progress.len(), p.blocked.len()));
    saved.session_log = usize::from(summary.is_some());
    Ok(())
}

/// The save's instincts (the file rewritten with the new ones, 20 at most), and the removal
/// of every instinct a current convention rules out (the spec: "removed immediately"), also
/// when the save brings only conventions. Call under the folder lock, after the conventions
/// were appended.
fn rewrite_instincts(
    project: &Project,
    rune: &Rune,
    input: &SaveInput,
    by: Option<&str>,
    saved: &mut Saved,
) -> Result<()> {
    if input.instincts.is_empty() && input.conventions.is_empty() {
        return Ok(());
    }
    let ledger = Ledger::of(project);
    let now = project.now();
    let entries: Vec<instincts::Entry> = input
        .instincts
        .iter()
        .map(|i| instincts::Entry::new(i, now, by))
        .collect();
    let text = rune.read(store::INSTINCTS)?;
    if text.is_none() && entries.is_empty() {
        return Ok(());
    }
    let conventions = instincts::conventions(&rune.path(store::CONVENTIONS), |e| {
        ledger.knows(store::CONVENTIONS, e)
    });
    let (new_text, added) = instincts::add(text.as_deref(), &entries, &conventions);
    if entries.is_empty() && added.conflicting.is_empty() {
        return Ok(());
    }
    let new_text = project.redact(&new_text);
    rune.write(store::INSTINCTS, &new_text)?;
    saved.written.push(store::INSTINCTS);
    let r = ledger.record_added(store::INSTINCTS, text.as_deref(), &new_text, "save", now);
    provenance::note(r, false);
    if !entries.is_empty() {
        saved.instincts = Some((entries.len(), added.removed));
    }
    saved.instincts_conflicting = added.conflicting;
    Ok(())
}

/// The cumulative notes, task notes and learnings. Call under the folder lock.
fn append_notes(
    project: &Project,
    rune: &Rune,
    input: &SaveInput,
    by: Option<&str>,
    saved: &mut Saved,
) -> Result<()> {
    let now = project.now();
    let ledger = Ledger::of(project);
    if let Some(n) = &input.notes {
        let text = rune.read(store::NOTES)?;
        let (new_text, added, pruned) = notes::add_notes(text.as_deref(), n, now, by);
        if added + pruned > 0 {
            let new_text = project.redact(&new_text);
            rune.write(store::NOTES, &new_text)?;
            saved.written.push(store::NOTES);
            let r = ledger.record_added(store::NOTES, text.as_deref(), &new_text, "save", now);
            provenance::note(r, false);
        }
        saved.notes = Some((added, new_text.lines().count()));
    }
    if let Some(t) = &input.task_notes {
        let text = rune.read(store::TASK_NOTES)?;
        let (new_text, done) = notes::add_task_notes(text.as_deref(), t, now, by);
        if done.added + done.pruned > 0 {
            let new_text = project.redact(&new_text);
            rune.write(store::TASK_NOTES, &new_text)?;
            saved.written.push(store::TASK_NOTES);
            let r = ledger.record_added(store::TASK_NOTES, text.as_deref(), &new_text, "save", now);
            provenance::note(r, false);
        }
        saved.task_notes = Some(done.added);
        saved.task_notes_pruned = done.pruned;
    }
    if !input.learnings.is_empty() {
        let compacted = learn::append_all(rune, project.redactor(), &input.learnings, now, by)?;
        saved.written.push(store::LEARNINGS);
        let r = learn::record_appended(&ledger, project.redactor(), &input.learnings, now, by);
        provenance::note(r, false);
        saved.learnings = Some((input.learnings.len(), compacted));
    }
    Ok(())
}

/// Notes the saved instincts and learnings in the user-level store `dir`; the names
/// promoted now. The promotion is a bonus: a failure there must not fail the save.
fn promote(project: &Project, dir: &Path, input: &SaveInput) -> Vec<String> {
    let instincts = input.instincts.iter().map(|i| global::Candidate::Instinct {
        name: i.name.clone(),
        trigger: i.trigger.clone(),
        action: i.action.clone(),
        confidence: i.confidence.unwrap_or(0.5),
    });
    let candidates: Vec<global::Candidate> = instincts
        .chain(input.learnings.iter().map(learn::Learning::candidate))
        .collect();
    global::propose(project, dir, &candidates)
}

/// How long a save lets the commit (and the repository's hooks) run.
const COMMIT_WAIT: std::time::Duration = std::time::Duration::from_secs(120);

/// Commits the files of the folder this save `wrote` (names in `.rune/`) when configured,
/// and nothing else: not another file of the folder (a checkpoint, a hand edit), not a
/// change staged elsewhere. The outcome as the report shows it.
pub(crate) fn commit(project: &Project, rune: &Rune, wrote: &[&str]) -> String {
    if wrote.is_empty() {
        return "skipped (nothing saved)".into();
    }
    if !project.config().bridge.commit {
        return "skipped (bridge.commit is off)".into();
    }
    let mut paths: Vec<std::path::PathBuf> = Vec::new();
    for f in wrote {
        let p = rune.rel.join(f);
        if !paths.contains(&p) {
            paths.push(p);
        }
    }
    let refs: Vec<&Path> = paths.iter().map(std::path::PathBuf::as_path).collect();
    match project.commit(&refs, "chore: update rune session state", COMMIT_WAIT) {
        Ok(Outcome::Committed { sha }) => sha.chars().take(7).collect(),
        Ok(Outcome::NoGit) => "skipped (no git)".into(),
        Ok(Outcome::NothingToCommit) => "skipped (nothing to commit)".into(),
        Ok(refused @ Outcome::NotCommitted { .. }) => {
            format!("{refused} (the files are saved)")
        }
        Err(e) => format!("failed ({e}); the files are saved, commit them by hand"),
    }
}

/// The "Session Bridge — Saved" report.
pub(crate) fn report(s: &Saved) -> String {
    let mut out = String::from(if s.summary_only {
        "## Session Bridge — Saved (summary only)\n"
    } else {
        "## Session Bridge — Saved\n"
    });
    out.push_str(&format!(
        "- **decisions.md**: {} decision{} appended\n",
        s.decisions,
        plural(s.decisions)
    ));
    out.push_str(&format!(
        "- **conventions.md**: {} convention{} appended\n",
        s.conventions,
        plural(s.conventions)
    ));
    match s.progress {
        Some((c, i, b)) => out.push_str(&format!(
            "- **progress.md**: updated ({c} completed, {i} in progress, {b} blocked)\n"
        )),
        None => out.push_str("- **progress.md**: unchanged (no progress given)\n"),
    }
    out.push_str(&format!(
        "- **session-log.md**: {} entr{} appended\n",
        s.session_log,
        if s.session_log == 1 { "y" } else { "ies" }
    ));
    report_memory(s, &mut out);
    if !s.promoted.is_empty() {
        out.push_str(&format!(
            "- **Cross-project**: proposed for every project (seen in 2+ projects): {} — the user accepts it with `baton bridge global accept ID` (`baton bridge global list`)\n",
            s.promoted.join(", ")
        ));
    }
    out.push_str(&format!("- **Git commit**: {}\n", s.commit));
    for n in &s.notices {
        out.push_str(&format!("- ⚠ {n}\n"));
    }
    out
}

/// The report's lines for instincts, learnings, notes and task notes.
fn report_memory(s: &Saved, out: &mut String) {
    if let Some((n, evicted)) = s.instincts {
        out.push_str(&format!(
            "- **instincts.md**: {n} instinct{} recorded{}\n",
            plural(n),
            if evicted > 0 {
                format!(", {evicted} lowest-confidence evicted (max 20)")
            } else {
                String::new()
            }
        ));
    }
    if !s.instincts_conflicting.is_empty() {
        out.push_str(&format!(
            "- **instincts.md**: removed, a convention rules them out: {}\n",
            s.instincts_conflicting.join("; ")
        ));
    }
    if let Some((n, compacted)) = s.learnings {
        out.push_str(&format!(
            "- **learnings.jsonl**: {n} learning{} appended{}\n",
            plural(n),
            if compacted { ", compacted" } else { "" }
        ));
    }
    if let Some((n, lines)) = s.notes {
        out.push_str(&format!(
            "- **cumulative-notes.md**: {n} note{} added{}\n",
            plural(n),
            if lines > notes::NOTES_MAX_LINES {
                format!(
                    " — {lines} lines, over {}: summarise the older entries of each section",
                    notes::NOTES_MAX_LINES
                )
            } else {
                String::new()
            }
        ));
    }
    if let Some(n) = s.task_notes {
        out.push_str(&format!(
            "- **task-notes.md**: {n} note{} added{}\n",
            plural(n),
            if s.task_notes_pruned > 0 {
                format!(
                    ", {} pruned (completed, or the oldest past {} lines)",
                    s.task_notes_pruned,
                    notes::TASK_NOTES_MAX_LINES
                )
            } else {
                String::new()
            }
        ));
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
