//! Checkpoint mode: one exact resume point in `.rune/checkpoint.md`, with the git state
//! filled in by baton. `--resolve` archives it as `checkpoint-<date>.resolved.md` (last 3
//! kept). PreCompact writes one automatically from what the bridge knows.

use super::notes::Doc;
use super::provenance::{self, Ledger};
use super::store::{self, Rune};
use crate::core::error::{Error, Result};
use crate::core::project::Project;
use crate::core::text::one_line;
use chrono::{DateTime, Utc};
use serde::Deserialize;

/// Resolved checkpoints kept.
const RESOLVED_KEPT: usize = 3;

const DOING: &str = "What I Was Doing";
const GIT: &str = "Current Git State";
const DECISIONS: &str = "Decisions Made This Session (Load-Bearing)";
const LEFT: &str = "What's Left (Ordered)";
const CONTEXT: &str = "Context the Next Session Needs";
const RESUME: &str = "Resume Command";

/// What `baton bridge checkpoint` reads on stdin.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct CheckpointInput {
    pub(crate) doing: String,
    pub(crate) decisions: Vec<String>,
    pub(crate) left: Vec<String>,
    pub(crate) context: Vec<String>,
    pub(crate) resume: String,
}

impl CheckpointInput {
    fn check(&self) -> Result<()> {
        for (key, v) in [("doing", &self.doing), ("resume", &self.resume)] {
            if v.trim().is_empty() {
                return Err(Error::Invalid(format!(
                    "checkpoint: `{key}` is required (doing: the exact task in progress; resume: the instruction for the next session)"
                )));
            }
        }
        Ok(())
    }
}

/// The git facts a checkpoint records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GitFacts {
    pub(crate) branch: String,
    pub(crate) commit: String,
    pub(crate) changed: Vec<String>,
}

/// The project's git facts (read once per run, through `Project`); `None` without a
/// repository or when git cannot be read.
pub(crate) fn git_facts(project: &Project) -> Option<GitFacts> {
    let r = project.git().ok()?.repo()?;
    Some(GitFacts {
        branch: r.branch.clone().unwrap_or_else(|| "(detached)".into()),
        commit: r
            .head_sha
            .as_ref()
            .map_or_else(|| "(no commits)".into(), |s| s.chars().take(7).collect()),
        changed: r.status.clone(),
    })
}

/// Renders a checkpoint.
pub(crate) fn render(input: &CheckpointInput, g: Option<&GitFacts>, now: DateTime<Utc>) -> String {
    let mut out = format!(
        "# Checkpoint — {}\n\n## {DOING}\n{}\n\n## {GIT}\n",
        store::stamp(now),
        one_line(&input.doing)
    );
    match g {
        Some(g) => {
            out.push_str(&format!(
                "- Branch: {}\n- Last commit: {}\n",
                g.branch, g.commit
            ));
            if g.changed.is_empty() {
                out.push_str("- Uncommitted changes: clean\n");
            } else {
                out.push_str("- Uncommitted changes:\n");
                for c in g.changed.iter().take(50) {
                    out.push_str(&format!("  - {}\n", c.trim()));
                }
                if g.changed.len() > 50 {
                    out.push_str(&format!("  - …and {} more\n", g.changed.len() - 50));
                }
            }
        }
        None => out.push_str("- no git repository\n"),
    }
    out.push_str(&format!("\n## {DECISIONS}\n"));
    push_list(&mut out, &input.decisions, false);
    out.push_str(&format!("\n## {LEFT}\n"));
    push_list(&mut out, &input.left, true);
    out.push_str(&format!("\n## {CONTEXT}\n"));
    push_list(&mut out, &input.context, false);
    out.push_str(&format!("\n## {RESUME}\n{}\n", one_line(&input.resume)));
    out
}

fn push_list(out: &mut String, items: &[String], numbered: bool) {
    if items.is_empty() {
        out.push_str("- none\n");
    }
    for (i, item) in items.iter().enumerate() {
        if numbered {
            out.push_str(&format!("{}. {}\n", i + 1, one_line(item)));
        } else {
            out.push_str(&format!("- {}\n", one_line(item)));
        }
    }
}

/// The mark of the context note an automatic checkpoint (written at a compaction) carries.
pub(crate) const AUTO_NOTE: &str = "Auto-checkpoint written by baton";

/// Whether a checkpoint was written by baton at a compaction (not by the user or the model).
pub(crate) fn is_automatic(cp: &Parsed) -> bool {
    cp.context.iter().any(|c| c.starts_with(AUTO_NOTE))
}

/// A checkpoint read back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Parsed {
    pub(crate) written: Option<DateTime<Utc>>,
    pub(crate) written_raw: String,
    pub(crate) doing: String,
    pub(crate) resume: String,
    pub(crate) branch: Option<String>,
    pub(crate) commit: Option<String>,
    pub(crate) dirty: usize,
    pub(crate) left: Vec<String>,
    pub(crate) decisions: Vec<String>,
    pub(crate) context: Vec<String>,
}

fn body(doc: &Doc, name: &str) -> Vec<String> {
    doc.sections
        .iter()
        .filter(|(h, _)| h.starts_with(name))
        .flat_map(|(_, b)| b.iter().cloned())
        .filter(|l| !l.trim().is_empty())
        .collect()
}

fn items(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !l.starts_with("  "))
        .map(|l| {
            let t = l.trim();
            let t = t.strip_prefix("- ").unwrap_or(t);
            let t = t
                .split_once(". ")
                .filter(|(n, _)| n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty())
                .map_or(t, |(_, rest)| rest);
            t.to_string()
        })
        .filter(|t| t != "none")
        .collect()
}

/// Parses a checkpoint text (tolerant: missing parts stay empty).
pub(crate) fn parse(text: &str) -> Parsed {
    let doc = Doc::parse(text);
    let title = doc
        .pre
        .lines()
        .find_map(|l| l.strip_prefix("# Checkpoint"))
        .map(|r| r.trim_start_matches([' ', '—', '-']).trim().to_string())
        .unwrap_or_default();
    let written = store::parse_stamp(&format!("[{title}]"));
    let git = body(&doc, "Current Git State");
    let field = |name: &str| {
        git.iter().find_map(|l| {
            l.trim()
                .strip_prefix("- ")
                .and_then(|r| r.strip_prefix(name))
                .map(|v| v.trim().to_string())
        })
    };
    let dirty = git.iter().filter(|l| l.starts_with("  - ")).count();
    Parsed {
        written,
        written_raw: title,
        doing: body(&doc, "What I Was Doing").join(" "),
        resume: body(&doc, "Resume Command").join(" "),
        branch: field("Branch:"),
        commit: field("Last commit:"),
        dirty,
        left: items(&body(&doc, "What's Left")),
        decisions: items(&body(&doc, "Decisions Made")),
        context: items(&body(&doc, "Context the Next Session")),
    }
}

/// Writes the checkpoint (one active; the previous one is replaced). Returns its text.
pub(crate) fn write(
    project: &Project,
    input: &CheckpointInput,
) -> Result<(String, Option<GitFacts>)> {
    input.check()?;
    let rune = Rune::of(project);
    let g = git_facts(project);
    let text = project.redact(&render(input, g.as_ref(), project.now()));
    let _lock = rune.lock()?;
    rune.write(store::CHECKPOINT, &text)?;
    let ledger = Ledger::of(project);
    let r = ledger.record(
        store::CHECKPOINT,
        std::slice::from_ref(&text),
        "checkpoint",
        project.now(),
    );
    // PreCompact writes checkpoints too: a hook says nothing on stderr.
    provenance::note(r, true);
    Ok((text, g))
}

/// The "Checkpoint Saved" report.
pub(crate) fn report(input: &CheckpointInput, g: Option<&GitFacts>) -> String {
    let git = g.map_or_else(
        || "no git".to_string(),
        |g| {
            let state = if g.changed.is_empty() {
                "clean".to_string()
            } else {
                format!("{} files", g.changed.len())
            };
            format!("{} @ {} — {state}", g.branch, g.commit)
        },
    );
    format!(
        "## Checkpoint Saved\n- **Resume point**: {}\n- **Git state**: {git}\n- **Remaining tasks**: {}\n- Next session will auto-detect this checkpoint and offer to resume.\n",
        one_line(&input.resume),
        input.left.len()
    )
}

/// Archives the active checkpoint; returns the new name, `None` when there was none.
pub(crate) fn resolve(project: &Project) -> Result<Option<String>> {
    let rune = Rune::of(project);
    let _lock = rune.lock()?;
    let from = rune.path(store::CHECKPOINT);
    crate::core::fsx::refuse_symlink(&from)?;
    if !from.is_file() {
        return Ok(None);
    }
    let d = store::day(project.now());
    // The same day again gets the next number past every one used so far, so names sort
    // in the order they were resolved even after older ones were pruned.
    let prefix = format!("checkpoint-{d}");
    let used = std::fs::read_dir(&rune.dir).map_or(0, |rd| {
        rd.filter_map(std::result::Result::ok)
            .filter_map(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                let rest = n.strip_prefix(&prefix)?.strip_suffix(".resolved.md")?;
                if rest.is_empty() {
                    Some(1)
                } else {
                    rest.strip_prefix('-')?.parse::<u32>().ok()
                }
            })
            .max()
            .unwrap_or(0)
    });
    let name = if used == 0 {
        format!("{prefix}.resolved.md")
    } else {
        format!("{prefix}-{}.resolved.md", used + 1)
    };
    let to = rune.path(&name);
    std::fs::rename(&from, &to).map_err(|e| Error::io("rename", &from, e))?;
    prune_resolved(&rune)?;
    Ok(Some(name))
}

/// Keeps the newest three resolved checkpoints.
fn prune_resolved(rune: &Rune) -> Result<()> {
    let Ok(rd) = std::fs::read_dir(&rune.dir) else {
        return Ok(());
    };
    let mut found: Vec<(std::time::SystemTime, String)> = rd
        .filter_map(std::result::Result::ok)
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            (n.starts_with("checkpoint-") && n.ends_with(".resolved.md")).then(|| {
                let t = e
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH);
                (t, n)
            })
        })
        .collect();
    found.sort();
    let extra = found.len().saturating_sub(RESOLVED_KEPT);
    for (_, n) in found.into_iter().take(extra) {
        let p = rune.path(&n);
        std::fs::remove_file(&p).map_err(|e| Error::io("remove", &p, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_parses_back() {
        let now = DateTime::parse_from_rfc3339("2026-11-30T10:15:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let input = CheckpointInput {
            doing: "Phase 2 task 3: retry logic".into(),
            decisions: vec!["Exponential backoff: simpler".into()],
            left: vec!["error handling in src/api/client.ts".into(), "tests".into()],
            context: vec!["the mock server drops every 3rd call".into()],
            resume: "Continue Phase 2 Task 3 in src/api/client.ts".into(),
        };
        let g = GitFacts {
            branch: "main".into(),
            commit: "abc1234".into(),
            changed: vec![" M src/a.rs".into()],
        };
        let p = parse(&render(&input, Some(&g), now));
        assert_eq!(p.written, Some(now));
        assert_eq!(p.doing, input.doing);
        assert_eq!(p.resume, input.resume);
        assert_eq!(p.branch.as_deref(), Some("main"));
        assert_eq!(p.commit.as_deref(), Some("abc1234"));
        assert_eq!(p.dirty, 1);
        assert_eq!(p.left, input.left);
        assert_eq!(p.decisions, input.decisions);
        assert_eq!(p.context, input.context);
    }
}
