//! `baton bridge review`: the memory entries baton did not write (provenance), listed with
//! where they came from and what the integrity scan says of each; accepting one records its
//! digest, so that it loads as reviewed from then on.
//!
//! Accepting is the user's decision, not the model's: it is refused in Claude Code's own
//! shell (`CLAUDECODE` set), where an instruction planted in memory could ask for it. That
//! is friction, not a wall — the model has the user's shell — and the skill says so.

use super::integrity;
use super::provenance::{self, digest, entries, Ledger, Trust, Verdict};
use super::store::Rune;
use crate::core::error::{Error, Result};
use crate::core::project::Project;
use crate::core::text::{clip, one_line};
use serde::Serialize;

/// One unreviewed entry.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Item {
    /// The first 10 hex digits of its digest: what `--accept` takes.
    pub(crate) id: String,
    #[serde(skip)]
    pub(crate) digest: String,
    /// `.rune/<file>`.
    pub(crate) file: String,
    #[serde(skip)]
    pub(crate) name: &'static str,
    pub(crate) line: usize,
    pub(crate) origin: String,
    /// The entry's first line, redacted and shortened.
    pub(crate) excerpt: String,
    /// The integrity rules it matches.
    pub(crate) findings: Vec<String>,
    /// At the block level: `--all` leaves it out.
    pub(crate) blocked: bool,
}

/// The unreviewed entries of the folder, in file order.
pub(crate) fn unreviewed(project: &Project) -> Result<Vec<Item>> {
    let rune = Rune::of(project);
    let trust = Trust::of(project, &rune.rel).looking_up_origins();
    let block_at = integrity::block_at(project.config());
    let red = project.redactor();
    let mut out = Vec::new();
    for name in provenance::FILES {
        let Some(text) = rune.read(name)? else {
            continue;
        };
        for e in entries(name, &text) {
            let Verdict::Unreviewed(origin) = trust.verdict(name, &e.text) else {
                continue;
            };
            let findings = crate::core::scan::scan_text(&rune.show(name), &e.text, red);
            let d = digest(name, &e.text);
            let first = e.text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            out.push(Item {
                id: d.chars().take(10).collect(),
                digest: d,
                file: rune.show(name),
                name,
                line: e.line,
                origin,
                excerpt: clip(&one_line(&red.redact(first).text), 100),
                blocked: findings.iter().any(|f| f.severity >= block_at),
                findings: findings
                    .iter()
                    .map(|f| format!("{} ({})", f.rule, f.severity.as_str()))
                    .collect(),
            });
        }
    }
    Ok(out)
}

/// What `--accept` / `--all` did.
#[derive(Debug, Default, Serialize)]
pub(crate) struct Accepted {
    pub(crate) accepted: Vec<String>,
    /// Left out by `--all`: at the block level.
    pub(crate) skipped: Vec<String>,
}

/// Accepts the entries whose ids start with one of `ids` (each must name exactly one), or
/// every one that is not at the block level (`all`).
pub(crate) fn accept(project: &Project, ids: &[String], all: bool) -> Result<Accepted> {
    if project.env("CLAUDECODE").is_some() {
        return Err(Error::Invalid(
            "accepting memory is the user's decision, not the model's: run `baton bridge review` in your own terminal (CLAUDECODE is set, so this is Claude Code's shell)".into(),
        ));
    }
    let items = unreviewed(project)?;
    let mut chosen: Vec<&Item> = Vec::new();
    let mut done = Accepted::default();
    for id in ids {
        let id = id.trim().to_ascii_lowercase();
        let hits: Vec<&Item> = items
            .iter()
            .filter(|i| id.len() >= 6 && i.digest.starts_with(&id))
            .collect();
        match hits.as_slice() {
            [one] => chosen.push(one),
            [] => {
                return Err(Error::Invalid(format!(
                    "review: no unreviewed entry has the id {id} (ids are the first 6–10 hex digits `baton bridge review` lists)"
                )))
            }
            _ => {
                return Err(Error::Invalid(format!(
                    "review: the id {id} names {} entries; give more digits",
                    hits.len()
                )))
            }
        }
    }
    if all {
        for i in &items {
            if i.blocked {
                done.skipped.push(i.id.clone());
            } else {
                chosen.push(i);
            }
        }
    }
    let ledger = Ledger::of(project);
    for i in chosen {
        ledger.record_digests(
            i.name,
            std::slice::from_ref(&i.digest),
            "review",
            project.now(),
        )?;
        if !done.accepted.contains(&i.id) {
            done.accepted.push(i.id.clone());
        }
    }
    Ok(done)
}

/// The list for people.
pub(crate) fn render(items: &[Item], rune: &Rune) -> String {
    if items.is_empty() {
        return format!(
            "All memory in {} is reviewed: every entry was written through baton or accepted.\n",
            rune.show("")
        );
    }
    let mut out = format!(
        "Unreviewed memory in {} ({} entr{}): not written through baton, shown to the model only as quoted data.\nAccept one with `baton bridge review --accept ID`, all (but those the integrity scan blocks) with `--all`.\n",
        rune.show(""),
        items.len(),
        if items.len() == 1 { "y" } else { "ies" }
    );
    for i in items {
        out.push_str(&format!(
            "\n  {}  {}:{}  {}\n      > {}\n",
            i.id, i.file, i.line, i.origin, i.excerpt
        ));
        if !i.findings.is_empty() {
            out.push_str(&format!(
                "      ⚠ {}{}\n",
                i.findings.join(", "),
                if i.blocked {
                    " — `--all` leaves it out"
                } else {
                    ""
                }
            ));
        }
    }
    out
}
