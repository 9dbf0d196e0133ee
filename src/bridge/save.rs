//! Save mode: `baton bridge save` takes the session's content as YAML and appends each item
//! to its `.rune/` file in the session-bridge entry format, then commits `.rune/`.

use super::integrity::{self, Status};
use super::learn::{self, Learning};
use super::notes;
use super::store::{self, one_line, Rune};
use crate::core::config::Config;
use crate::core::error::{Error, Result};
use crate::core::git::{self, CommitOutcome};
use crate::core::redact::Redactor;
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

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(clippy::struct_field_names)]
pub(crate) struct Decision {
    pub(crate) title: String,
    pub(crate) context: String,
    pub(crate) decision: String,
    pub(crate) rationale: String,
    pub(crate) impact: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct Convention {
    pub(crate) title: String,
    pub(crate) pattern: String,
    pub(crate) example: String,
    pub(crate) applies_to: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(clippy::struct_field_names)]
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

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct Instinct {
    pub(crate) name: String,
    pub(crate) trigger: String,
    pub(crate) action: String,
    pub(crate) confidence: Option<f64>,
    pub(crate) evidence: String,
}

/// What one save did, for the report (`--json` prints it as is).
#[derive(Debug, Default, serde::Serialize)]
pub(crate) struct Saved {
    decisions: usize,
    conventions: usize,
    progress: Option<(usize, usize, usize)>,
    session_log: usize,
    instincts: Option<(usize, usize)>,
    learnings: Option<(usize, bool)>,
    notes: Option<(usize, usize)>,
    task_notes: Option<usize>,
    promoted: Vec<String>,
    commit: String,
    /// Entries that make their file SUSPICIOUS (saved, but marked at every load).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) warnings: Vec<String>,
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
        for f in integrity::scan_text("entry", text, red) {
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

pub(crate) fn decision_entry(d: &Decision, now: DateTime<Utc>) -> String {
    format!(
        "## [{}] Decision: {}\n\n**Context:** {}\n**Decision:** {}\n**Rationale:** {}\n**Impact:** {}\n",
        store::stamp(now),
        or_dash(&d.title),
        or_dash(&d.context),
        or_dash(&d.decision),
        or_dash(&d.rationale),
        or_dash(&d.impact)
    )
}

fn convention_entry(c: &Convention, now: DateTime<Utc>) -> String {
    // A multi-line example becomes an indented code block: no line of it can start with
    // `## [` and pass for an entry heading.
    let example = if c.example.trim().contains('\n') {
        let lines: Vec<String> = c
            .example
            .trim_end()
            .lines()
            .map(|l| format!("    {l}"))
            .collect();
        format!("\n\n{}\n", lines.join("\n"))
    } else {
        format!(" {}", or_dash(&c.example))
    };
    format!(
        "## [{}] Convention: {}\n\n**Pattern:** {}\n**Example:**{}\n**Applies to:** {}\n",
        store::day(now),
        or_dash(&c.title),
        or_dash(&c.pattern),
        example,
        or_dash(&c.applies_to)
    )
}

fn list(out: &mut String, title: &str, items: &[String], mark: &str) {
    out.push_str(&format!("\n**{title}:**\n"));
    if items.is_empty() {
        out.push_str("- none\n");
    }
    for i in items {
        out.push_str(&format!("- {mark}{}\n", one_line(i)));
    }
}

fn progress_entry(p: &Progress, python: Option<String>, now: DateTime<Utc>) -> String {
    let mut out = format!("## [{}] Session Summary\n", store::stamp(now));
    list(&mut out, "Completed", &p.completed, "[x] ");
    list(&mut out, "In Progress", &p.in_progress, "[ ] ");
    list(&mut out, "Blocked", &p.blocked, "[ ] ");
    list(&mut out, "Next Session Should", &p.next, "");
    if let Some(py) = python {
        out.push_str(&py);
    }
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
        "\n**Python Context:**\n- Python: {} ({})\n- Installed extras: {extras}\n- mypy: {}\n- Coverage: {}\n- Migration: {}\n",
        na(&version),
        na(&venv),
        na(&g.mypy),
        na(&g.coverage),
        na(&g.migration)
    ))
}

fn detect_python_version(root: &Path) -> Option<String> {
    if let Ok(v) = std::fs::read_to_string(root.join(".python-version")) {
        let v = v.lines().next().unwrap_or("").trim().to_string();
        if !v.is_empty() {
            return Some(v);
        }
    }
    let py = std::fs::read_to_string(root.join("pyproject.toml")).ok()?;
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

/// Runs a save: appends everything under the folder lock, then commits.
pub(crate) fn save(
    root: &Path,
    config: &Config,
    input: &SaveInput,
    now: DateTime<Utc>,
    global_store: Option<&Path>,
) -> Result<Saved> {
    let rune = Rune::new(root, config);
    let red = Redactor::with_extra(&config.redact.extra_patterns);
    let clean = |s: String| red.redact(&s).text;
    for l in &input.learnings {
        l.check()?;
    }
    let mut saved = Saved::default();
    {
        let _lock = rune.lock()?;
        if !input.decisions.is_empty() {
            let text: String = input
                .decisions
                .iter()
                .map(|d| decision_entry(d, now))
                .collect::<Vec<_>>()
                .join("\n");
            rune.append(store::DECISIONS, &clean(text))?;
            saved.decisions = input.decisions.len();
        }
        if !input.conventions.is_empty() {
            let text: String = input
                .conventions
                .iter()
                .map(|c| convention_entry(c, now))
                .collect::<Vec<_>>()
                .join("\n");
            rune.append(store::CONVENTIONS, &clean(text))?;
            saved.conventions = input.conventions.len();
        }
        if let Some(p) = &input.progress {
            let py = python_context(root, p.python.as_ref());
            rune.append(store::PROGRESS, &clean(progress_entry(p, py, now)))?;
            saved.progress = Some((p.completed.len(), p.in_progress.len(), p.blocked.len()));
        }
        if let Some(s) = input.summary.as_deref().filter(|s| !s.trim().is_empty()) {
            let line = format!("[{}] — {}", store::stamp(now), one_line(s));
            rune.append(store::SESSION_LOG, &clean(line))?;
            saved.session_log = 1;
        }
        if !input.instincts.is_empty() {
            let entries: Vec<super::instincts::Entry> = input
                .instincts
                .iter()
                .map(|i| super::instincts::Entry::new(i, now))
                .collect();
            let text = rune.read(store::INSTINCTS)?;
            let (new_text, evicted) = super::instincts::add(text.as_deref(), &entries);
            rune.write(store::INSTINCTS, &clean(new_text))?;
            saved.instincts = Some((entries.len(), evicted));
        }
        if let Some(n) = &input.notes {
            let text = rune.read(store::NOTES)?;
            let (new_text, added, pruned) = notes::add_notes(text.as_deref(), n, now);
            if added + pruned > 0 {
                rune.write(store::NOTES, &clean(new_text.clone()))?;
            }
            saved.notes = Some((added, new_text.lines().count()));
        }
        if let Some(t) = &input.task_notes {
            let text = rune.read(store::TASK_NOTES)?;
            let (new_text, added) = notes::add_task_notes(text.as_deref(), t, now);
            if added > 0 {
                rune.write(store::TASK_NOTES, &clean(new_text))?;
            }
            saved.task_notes = Some(added);
        }
        if !input.learnings.is_empty() {
            let compacted = learn::append_all(&rune, &red, &input.learnings, now)?;
            saved.learnings = Some((input.learnings.len(), compacted));
        }
    }
    if let Some(store) = global_store {
        let strong: Vec<(String, String, String, f64)> = input
            .instincts
            .iter()
            .map(|i| {
                (
                    i.name.clone(),
                    i.trigger.clone(),
                    i.action.clone(),
                    i.confidence.unwrap_or(0.5),
                )
            })
            .collect();
        // The promotion is a bonus: a failure there must not fail the save.
        saved.promoted = super::global::record(store, root, &strong, &red, now).unwrap_or_default();
    }
    saved.commit = commit(root, config, &rune);
    Ok(saved)
}

/// Commits `.rune/` when configured; the outcome as the report shows it.
pub(crate) fn commit(root: &Path, config: &Config, rune: &Rune) -> String {
    if !config.bridge.commit {
        return "skipped (bridge.commit is off)".into();
    }
    match git::commit_paths(
        root,
        &[rune.rel.as_path()],
        "chore: update rune session state",
    ) {
        Ok(CommitOutcome::Committed(sha)) => sha.chars().take(7).collect(),
        Ok(CommitOutcome::NoGit) => "skipped (no git)".into(),
        Ok(CommitOutcome::NothingToCommit) => "skipped (nothing to commit)".into(),
        Err(e) => format!("failed ({e}); the files are saved, commit them by hand"),
    }
}

/// The "Session Bridge — Saved" report.
pub(crate) fn report(s: &Saved) -> String {
    let mut out = String::from("## Session Bridge — Saved\n");
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
            "- **task-notes.md**: {n} note{} added\n",
            plural(n)
        ));
    }
    if !s.promoted.is_empty() {
        out.push_str(&format!(
            "- **Cross-project**: promoted to the user-level store (seen in 2+ projects): {}\n",
            s.promoted.join(", ")
        ));
    }
    out.push_str(&format!("- **Git commit**: {}\n", s.commit));
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
