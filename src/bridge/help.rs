//! The YAML that `baton bridge save` and `baton bridge checkpoint` read on stdin, as their
//! `--help` prints it: every key, what it is for, and an example to copy. A test parses both
//! texts with the commands' own input types, so the help cannot drift from what is read.

/// `baton bridge save --help`, after the options.
pub(crate) const SAVE: &str = r#"INPUT (YAML on stdin; every key is optional; unknown keys are refused):

  summary: "one paragraph on the session; also its session-log.md line"
  decisions:                      # decisions.md
    - title: "short name"
      context: "what prompted it"
      decision: "what was decided"
      rationale: "why this and not the alternatives"
      impact: "files or areas affected"
  conventions:                    # conventions.md
    - title: "short name"
      pattern: "the rule"
      example: "code that follows it (multi-line is fine)"
      applies_to: "where it applies, e.g. src/hook/"
  progress:                       # progress.md
    completed: ["done this session"]
    in_progress: ["started, not finished"]
    blocked: ["item — the reason"]
    next: ["what the next session should do first"]
    python: {version: "3.12", venv: ".venv", extras: [dev], mypy: "3 errors", coverage: "81%", migration: "0042 pending"}
  learnings:                      # learnings.jsonl (1-3 per session); the latest per key+type wins
    - type: error                 # decision, error, insight, convention or performance
      key: kebab-case-key
      insight: "one or two sentences, cause and effect"
      confidence: 0.7             # 0.1 (hunch) to 1.0 (battle-tested)
      files: [Cargo.toml]
      skill: session-bridge
  instincts:                      # instincts.md (20 at most; one a convention forbids is removed; 0.8+ may go cross-project)
    - name: "short name"
      trigger: "when this happens"
      action: "do this"
      confidence: 0.6
      evidence: "what showed it"
  notes:                          # cumulative-notes.md, one list per section
    project_profile: ["..."]
    architecture_map: ["..."]
    recurring_themes: ["..."]
    active_topics: ["..."]
    relationship_map: ["..."]
    follow_up: ["..."]
    attention_points: ["..."]
    resolved: ["a follow-up now done (its text or a unique part)"]
  task_notes:                     # task-notes.md (50 lines at most: the oldest items go)
    task: "the task's name"
    worked: ["what worked, with evidence"]
    failed: ["what failed and why"]
    left: ["what is left"]
    key_context: ["what the next iteration must know"]
    done: ["a What's Left item now done (its text or a unique part): pruned"]

EXAMPLE:

  baton bridge save <<'YAML'
  summary: Moved the audit buffer behind one lock
  decisions:
    - {title: One lock for appends and moves, context: "records were lost when Stop raced PostToolUse", decision: "movers take the appenders' lock", rationale: "no rename, no lost line", impact: src/audit/buffer.rs}
  progress: {completed: ["buffer mover"], next: ["daily report over the new trail"]}
  learnings:
    - {type: error, key: rename-loses-appends, insight: "renaming a file others append to loses their writes", confidence: 0.9}
  YAML

Appends the entries to .rune/ (timestamped, redacted, never overwriting), commits .rune/
(bridge.commit) and prints "Session Bridge — Saved". An entry that would make its file
TAINTED is refused; one that would make it SUSPICIOUS is saved with a warning."#;

/// `baton bridge checkpoint --help`, after the options.
pub(crate) const CHECKPOINT: &str = r#"INPUT (YAML on stdin; unknown keys are refused):

  doing: "the exact task in progress"                     # required
  decisions: ["load-bearing decisions for what is left"]
  left: ["what is left, in the order to do it"]
  context: ["what is not in the code or git: gotchas, dead ends"]
  resume: "the exact instruction for the next session"   # required

EXAMPLE:

  baton bridge checkpoint <<'YAML'
  doing: "Phase 2 task 3: the retry logic in src/api/client.ts; the happy path is done"
  decisions: ["Exponential backoff without jitter: the server already spreads retries"]
  left: ["Handle 429 and 503 in retry()", "Tests for the retry path"]
  context: ["The mock server drops every third call on purpose"]
  resume: "Continue Phase 2 Task 3: add 429/503 handling to retry() in src/api/client.ts"
  YAML

Writes .rune/checkpoint.md with the git state filled in (branch, commit, uncommitted files);
the next session start shows it first. --resolve archives it once picked up."#;

/// The YAML blocks of a help text: the indented lines after `INPUT` and inside the example's
/// heredoc, each with its two-space margin removed.
#[cfg(test)]
fn blocks(help: &str) -> (String, String) {
    let lines: Vec<&str> = help.lines().collect();
    let start = lines.iter().position(|l| l.starts_with("INPUT")).unwrap() + 1;
    let end = lines.iter().position(|l| l.starts_with("EXAMPLE")).unwrap();
    let schema: Vec<&str> = lines[start..end]
        .iter()
        .map(|l| l.strip_prefix("  ").unwrap_or(l))
        .collect();
    let open = lines.iter().position(|l| l.contains("<<'YAML'")).unwrap() + 1;
    let close = lines.iter().rposition(|l| l.trim() == "YAML").unwrap();
    let example: Vec<&str> = lines[open..close]
        .iter()
        .map(|l| l.strip_prefix("  ").unwrap_or(l))
        .collect();
    (schema.join("\n"), example.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::checkpoint::CheckpointInput;
    use crate::bridge::save::SaveInput;

    #[test]
    fn issue_17_the_help_schemas_and_examples_are_what_the_commands_read() {
        let (schema, example) = blocks(SAVE);
        for text in [&schema, &example] {
            let input: SaveInput = serde_yaml_ng::from_str(text)
                .unwrap_or_else(|e| panic!("bridge save --help: {e}\n{text}"));
            assert!(input.summary.is_some());
        }
        let full: SaveInput = serde_yaml_ng::from_str(&schema).unwrap();
        assert!(full.progress.and_then(|p| p.python).is_some());
        assert!(full.task_notes.is_some() && full.notes.is_some());
        assert_eq!(
            (
                full.decisions.len(),
                full.learnings.len(),
                full.instincts.len()
            ),
            (1, 1, 1)
        );
        let (schema, example) = blocks(CHECKPOINT);
        for text in [&schema, &example] {
            let input: CheckpointInput = serde_yaml_ng::from_str(text)
                .unwrap_or_else(|e| panic!("bridge checkpoint --help: {e}\n{text}"));
            assert!(!input.doing.is_empty() && !input.resume.is_empty());
        }
    }
}
