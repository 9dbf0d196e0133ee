//! `.rune/INVARIANTS.md`: the project's discipline rules. Parsed into rules
//! (section, title, WHAT, WHERE globs, WHY), previewed at session start within 500 tokens,
//! and matched against the file an edit is about to touch.
//!
//! Every heading nesting works: the template's `## Section` + `### rule`, `## Section` +
//! `#### rule` (how Rune's loader and `rune onboard` write a rule by hand), and the generated
//! form's `### Section` + `#### rule` under `## Auto-detected (new)`. `## Archived` and
//! everything below it is skipped, except inside a code fence; nothing inside a fence is a
//! heading or a field.

use super::store::{self, Rune};
use crate::core::budget::estimate_tokens;
use crate::core::fsx;
use crate::core::redact::Redactor;
use crate::core::signal::Signal;
use chrono::{DateTime, Utc};
use serde::Serialize;

/// The preview's token budget.
pub(crate) const PREVIEW_TOKENS: usize = 500;
/// Days after which the file is stale.
pub(crate) const STALE_DAYS: i64 = 30;

/// One rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Rule {
    /// `danger`, `critical`, `state` or `cross`.
    pub(crate) section: &'static str,
    pub(crate) title: String,
    pub(crate) what: String,
    #[serde(rename = "where")]
    pub(crate) where_: Vec<String>,
    pub(crate) why: String,
}

impl Rule {
    /// Whether the rule has none of its fields.
    fn is_bare(&self) -> bool {
        self.what.is_empty() && self.where_.is_empty() && self.why.is_empty()
    }
}

/// Counts per section.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Stats {
    pub(crate) danger: usize,
    pub(crate) critical: usize,
    pub(crate) state: usize,
    pub(crate) cross: usize,
    pub(crate) total: usize,
    pub(crate) archived_skipped: bool,
}

/// INVARIANTS.md as read: its rules, counts, preview and staleness. Serialized, it is the
/// `invariants.loaded` payload (`baton bridge invariants --json`).
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct InvariantsFile {
    pub(crate) loaded: bool,
    pub(crate) count: usize,
    pub(crate) rules: Vec<Rule>,
    pub(crate) stats: Stats,
    pub(crate) stale: bool,
    pub(crate) overflow: usize,
    pub(crate) path: String,
    #[serde(skip)]
    pub(crate) preview: String,
    /// Present when the file exists (even with no rules).
    #[serde(skip)]
    pub(crate) present: bool,
}

fn section_key(heading: &str) -> Option<&'static str> {
    let h = heading.trim().to_ascii_lowercase();
    [
        ("danger zones", "danger"),
        ("critical invariants", "critical"),
        ("state machine rules", "state"),
        ("cross-file consistency", "cross"),
    ]
    .into_iter()
    .find(|(label, _)| h.starts_with(label))
    .map(|(_, k)| k)
}

fn rank(section: &str) -> u8 {
    match section {
        "danger" => 0,
        "critical" => 1,
        "state" => 2,
        _ => 3,
    }
}

fn icon(section: &str) -> &'static str {
    match section {
        "danger" => "⚠",
        "critical" => "🔒",
        "state" => "🔁",
        _ => "🔗",
    }
}

/// A heading line: its level and text.
fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    if level == 0 || level > 6 {
        return None;
    }
    let rest = &line[level..];
    rest.starts_with([' ', '\t']).then(|| (level, rest.trim()))
}

/// A WHAT/WHERE/WHY field line: `- **WHAT**: x`, `**WHAT:** x`, `WHAT: x`.
fn field(line: &str) -> Option<(&'static str, String)> {
    let t = line.trim_start_matches(['-', '*', '+', ' ', '\t']);
    for key in ["WHAT", "WHERE", "WHY"] {
        if t.len() > key.len()
            && t.is_char_boundary(key.len())
            && t[..key.len()].eq_ignore_ascii_case(key)
        {
            let rest = t[key.len()..].trim_start_matches('*').trim_start();
            if let Some(v) = rest.strip_prefix(':') {
                let v = v.strip_prefix("**").unwrap_or(v);
                return Some((key, v.trim().to_string()));
            }
        }
    }
    None
}

/// The globs of a WHERE value: every backtick span, else comma/semicolon-separated parts.
pub(crate) fn globs(value: &str) -> Vec<String> {
    let ticks: Vec<String> = value
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let raw = if ticks.is_empty() {
        value
            .split([',', ';'])
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    } else {
        ticks
    };
    raw.into_iter().map(|g| normalise(&g)).collect()
}

fn normalise(path: &str) -> String {
    let p = path.replace('\\', "/");
    let mut p = p.as_str();
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    p.to_string()
}

/// Whether a heading starts the archive: `## Archived`, alone or with a note after it
/// (`## Archived (2026)`, `## Archived — retired rules`).
fn is_archive(level: usize, text: &str) -> bool {
    let t = text.to_lowercase();
    level == 2
        && t.strip_prefix("archived")
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric()))
}

/// The parser's state between lines.
#[derive(Default)]
struct Parser {
    rules: Vec<Rule>,
    /// The current section: its key and heading level.
    section: Option<(&'static str, usize)>,
    /// The rule being read and its heading level.
    current: Option<(usize, Rule)>,
}

impl Parser {
    fn flush(&mut self) {
        if let Some((_, r)) = self.current.take() {
            self.rules.push(r);
        }
    }

    /// A heading inside the sections (not a section's own).
    fn heading(&mut self, level: usize, text: &str) {
        let Some((key, sl)) = self.section else {
            return;
        };
        if level <= sl {
            // Another part of the file at the section's level or above.
            self.flush();
            self.section = None;
            return;
        }
        // A rule is a `####` heading (Rune's loader), or the heading just below its
        // section (the template's `## Section` + `### rule`).
        if level != 4 && level != sl + 1 {
            return;
        }
        // A heading with nothing of its own followed by a deeper rule heading was a
        // group heading (`## Danger Zones` + `### Group` + `#### rule`), not a rule.
        if self
            .current
            .as_ref()
            .is_some_and(|(l, r)| *l < level && r.is_bare())
        {
            self.current = None;
        }
        self.flush();
        if text.is_empty() {
            return;
        }
        self.current = Some((
            level,
            Rule {
                section: key,
                title: text.to_string(),
                what: String::new(),
                where_: Vec::new(),
                why: String::new(),
            },
        ));
    }

    fn field(&mut self, line: &str) {
        let Some((_, rule)) = self.current.as_mut() else {
            return;
        };
        match field(line) {
            Some(("WHAT", v)) => rule.what = v,
            Some(("WHY", v)) => rule.why = v,
            Some(("WHERE", v)) => rule.where_ = globs(&v),
            _ => {}
        }
    }
}

/// Parses the text; returns the rules and whether an `## Archived` section was skipped.
///
/// Sections are the four known headings at any level (`## Danger Zones` in the template,
/// `### Danger Zones` under `## Auto-detected (new)` in what `rune onboard` generates). A
/// rule is a `####` heading in a section, or the heading one level below its section. Lines
/// inside a code fence are neither headings nor fields; `## Archived` ends the rules.
pub(crate) fn parse(text: &str) -> (Vec<Rule>, bool) {
    let mut p = Parser::default();
    let mut fence: Option<&str> = None;
    let mut archived = false;
    for raw in text.lines() {
        let t = raw.trim_start();
        if let Some(delim) = fence {
            if t.starts_with(delim) {
                fence = None;
            }
            continue;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = Some(if t.starts_with("```") { "```" } else { "~~~" });
            continue;
        }
        let line = raw.trim_end();
        match heading(line) {
            Some((level, text)) if is_archive(level, text) => {
                archived = true;
                break;
            }
            Some((level, text)) => match section_key(text) {
                Some(key) => {
                    p.flush();
                    p.section = Some((key, level));
                }
                None => p.heading(level, text),
            },
            None => p.field(line),
        }
    }
    p.flush();
    (p.rules, archived)
}

/// The preview lines within `budget_tokens`, priority order; returns the text and overflow.
pub(crate) fn preview(rules: &[Rule], file: &str, budget_tokens: usize) -> (String, usize) {
    if rules.is_empty() {
        return (String::new(), 0);
    }
    let mut ordered: Vec<&Rule> = rules.iter().collect();
    ordered.sort_by_key(|r| rank(r.section));
    let header = format!("📎 Active Invariants ({file})");
    let mut tokens = estimate_tokens(&header);
    let mut lines = vec![header];
    let mut shown = 0;
    for r in &ordered {
        let place = if r.where_.is_empty() {
            r.title.clone()
        } else {
            r.where_
                .iter()
                .take(2)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        };
        let what = if r.what.is_empty() { &r.title } else { &r.what };
        let line = format!("{}  {place} — {what}", icon(r.section));
        let cost = estimate_tokens(&line);
        if tokens + cost > budget_tokens {
            break;
        }
        tokens += cost;
        lines.push(line);
        shown += 1;
    }
    let overflow = ordered.len() - shown;
    if overflow > 0 {
        lines.push(format!(
            "…+{overflow} more rule{} in {file}",
            if overflow == 1 { "" } else { "s" }
        ));
    }
    (lines.join("\n"), overflow)
}

/// Reads the folder's INVARIANTS.md with the preview within 500 tokens.
pub(crate) fn read(rune: &Rune, now: DateTime<Utc>) -> InvariantsFile {
    read_within(rune, now, PREVIEW_TOKENS)
}

/// Reads the folder's INVARIANTS.md, the preview within `budget_tokens`. Missing → not
/// present; unreadable or without rules → `loaded: false` (never an error).
pub(crate) fn read_within(rune: &Rune, now: DateTime<Utc>, budget_tokens: usize) -> InvariantsFile {
    let path = rune.path(store::INVARIANTS);
    let mut out = InvariantsFile {
        path: path.display().to_string(),
        ..InvariantsFile::default()
    };
    let Ok(meta) = std::fs::symlink_metadata(&path) else {
        return out;
    };
    out.present = true;
    if !meta.is_file() {
        return out;
    }
    let Ok(Some(bytes)) = fsx::read_bytes_limited(&path, fsx::Limit::DOCUMENT) else {
        return out;
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return out;
    };
    let (rules, archived) = parse(&text);
    out.stale = meta.modified().ok().is_some_and(|m| {
        let m: DateTime<Utc> = m.into();
        (now - m).num_days() > STALE_DAYS
    });
    let count = |k: &str| rules.iter().filter(|r| r.section == k).count();
    out.stats = Stats {
        danger: count("danger"),
        critical: count("critical"),
        state: count("state"),
        cross: count("cross"),
        total: rules.len(),
        archived_skipped: archived,
    };
    let (p, overflow) = preview(&rules, &rune.show(store::INVARIANTS), budget_tokens);
    out.preview = p;
    out.overflow = overflow;
    out.loaded = !rules.is_empty();
    out.count = rules.len();
    out.rules = rules;
    out
}

/// The `invariants.loaded` signal of what was read (its payload is `--json`'s).
pub(crate) fn loaded_signal(inv: &InvariantsFile, red: &Redactor) -> Option<Signal> {
    Signal::new("invariants.loaded", inv, red).ok()
}

/// Whether `path` (relative to the root) matches one of the rule's globs.
pub(crate) fn matches(rule: &Rule, path: &str) -> bool {
    let p = normalise(path);
    rule.where_
        .iter()
        .any(|g| crate::core::glob::matches_whole_path(&normalise(g), &p))
}

/// `path` relative to `root` when it is inside it (absolute tool paths), else as given.
pub(crate) fn relative(root: &std::path::Path, path: &str) -> String {
    let p = std::path::Path::new(path);
    p.strip_prefix(root)
        .map_or_else(|_| path.to_string(), |r| r.to_string_lossy().into_owned())
}

/// The rules for an edit of `path`, as context text; `None` when none matches.
pub(crate) fn for_edit(inv: &InvariantsFile, path: &str, file: &str) -> Option<String> {
    let hits: Vec<&Rule> = inv.rules.iter().filter(|r| matches(r, path)).collect();
    if hits.is_empty() {
        return None;
    }
    let mut out = format!("Invariants that apply to {path} (from {file}):\n");
    for r in hits {
        out.push_str(&format!("{} {}", icon(r.section), r.title));
        if !r.what.is_empty() {
            out.push_str(&format!(" — {}", r.what));
        }
        if !r.why.is_empty() {
            out.push_str(&format!(" (why: {})", r.why));
        }
        out.push('\n');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = "# Invariants\n\n## Danger Zones\n\n### Router\n- **WHAT**: L0 router, never bypass\n- **WHERE**: `skills/skill-router/**`\n- **WHY**: everything routes through it\n\n## Critical Invariants\n\n### IR schema\n**WHAT:** IR schema is the adapter contract\n**WHERE:** `compiler/parser.js`, `./compiler/ir/*.js`\n\n```markdown\n### Not a rule\n## Archived\n```\n\n## Cross-File Consistency\n\n### Marketplace\n- **WHERE**: .claude-plugin/marketplace.json, plugin.json\n\n## Archived\n\n### Old rule\n- **WHAT**: gone\n";

    const GENERATED: &str = "# Invariants\n\n## Auto-detected (new)\n\n### State Machine Rules\n\n#### Phase order\n- **WHAT**: phase order is pre → run → post\n- **WHERE**: `compiler/hooks/dispatch.js`\n- **WHY**: hooks depend on it\n\n### Danger Zones\n\n#### Secrets\n- **WHAT**: never log tokens\n- **WHERE**: `src\\auth\\**`\n";

    #[test]
    fn template_nesting_with_fence_and_archived() {
        let (rules, archived) = parse(TEMPLATE);
        assert!(archived);
        let titles: Vec<_> = rules
            .iter()
            .map(|r| (r.section, r.title.as_str()))
            .collect();
        assert_eq!(
            titles,
            vec![
                ("danger", "Router"),
                ("critical", "IR schema"),
                ("cross", "Marketplace")
            ]
        );
        assert_eq!(
            rules[1].where_,
            vec!["compiler/parser.js", "compiler/ir/*.js"]
        );
        assert_eq!(rules[1].why, "");
        assert_eq!(
            rules[2].where_,
            vec![".claude-plugin/marketplace.json", "plugin.json"]
        );
    }

    #[test]
    fn generated_nesting() {
        let (rules, archived) = parse(GENERATED);
        assert!(!archived);
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[0].section, "state");
        assert_eq!(rules[1].where_, vec!["src/auth/**"]);
        assert!(matches(&rules[1], "src/auth/token/mod.rs"));
        assert!(matches(&rules[1], "./src/auth/x.rs"));
        assert!(!matches(&rules[1], "src/authz.rs"));
    }

    #[test]
    fn archived_inside_a_fence_does_not_end_the_rules() {
        let text = "## Danger Zones\n```\n## Archived\n```\n### Kept\n- **WHAT**: x\n";
        let (rules, archived) = parse(text);
        assert_eq!((rules.len(), archived), (1, false));
    }

    #[test]
    fn globs_match_like_the_spec() {
        let r = Rule {
            section: "danger",
            title: "t".into(),
            what: String::new(),
            where_: vec!["**/*.lock".into(), "docs/*.md".into(), "Cargo.toml".into()],
            why: String::new(),
        };
        assert!(matches(&r, "Cargo.lock"));
        assert!(matches(&r, "a/b/Cargo.lock"));
        assert!(matches(&r, "docs/x.md"));
        assert!(!matches(&r, "docs/sub/x.md"));
        assert!(matches(&r, "Cargo.toml"));
        assert!(matches(&r, "docs\\x.md"));
    }

    #[test]
    fn preview_orders_by_priority_and_counts_overflow() {
        let (rules, _) = parse(TEMPLATE);
        let (p, overflow) = preview(&rules, ".rune/INVARIANTS.md", 500);
        assert_eq!(overflow, 0);
        assert!(p.starts_with("📎 Active Invariants (.rune/INVARIANTS.md)\n⚠  skills/skill-router/** — L0 router, never bypass\n🔒"));
        let many: Vec<Rule> = (0..200)
            .map(|i| Rule {
                section: "cross",
                title: format!("rule {i}"),
                what: "keep these two files in step with each other".into(),
                where_: vec![format!("src/module_{i}/**")],
                why: String::new(),
            })
            .collect();
        let (p, overflow) = preview(&many, ".rune/INVARIANTS.md", 500);
        assert!(overflow > 0);
        assert!(estimate_tokens(&p) <= 520);
        assert!(p.ends_with(&format!("…+{overflow} more rules in .rune/INVARIANTS.md")));
    }

    #[test]
    fn no_rules_means_not_loaded() {
        let (rules, _) = parse("just some text\n## Random\n- **WHAT**: x\n");
        assert!(rules.is_empty());
    }
}
