//! Handoff artefacts as documents for `baton recall` (`core::recall`): one `handoff` document
//! per saved block of `datarim/sessions/SESSION-….session.md` (its next action, tasks and
//! 5-layer body). The handoff owns the format (frontmatter.rs), so it owns this reader; the
//! hook bus wires it through `Readers`.
//!
//! Artefacts are private (0600 in a 0700 folder): a folder or file that is not the user's own
//! is not searched (unless `handoff.shared`).

use super::frontmatter::{parse_fields, split_blocks};
use super::session::{self, artefact_path, display_path};
use crate::core::fsx;
use crate::core::project::{DocSource, Project};
use crate::core::recall::{owned_by_me, Doc, Kind, Scan, Scope};
use crate::core::text::{clip, one_line};
use crate::core::time;

/// The handoff's reader, for the hook bus's `Readers`.
pub(crate) const RECALL_DOCS: DocSource = DocSource {
    name: "handoff",
    kinds: &[Kind::Handoff],
    scope: Scope::Project,
    read,
    indexed: true,
};

/// Characters of a next action used in the title.
const TITLE_MAX: usize = 160;

fn read(project: &Project, scan: &mut Scan<'_>) {
    let dir = session::sessions_dir(project);
    let shared = project.config().handoff.shared;
    if fsx::refuse_symlink(&dir).is_err() {
        scan.withheld(format!(
            "{}: a symlink, not searched",
            display_path(&project.root, &dir)
        ));
        return;
    }
    if !dir.is_dir() {
        return;
    }
    if !shared && !owned_by_me(&dir) {
        scan.withheld(format!(
            "{}: private to another user, not searched",
            display_path(&project.root, &dir)
        ));
        return;
    }
    for id in session::list(&dir) {
        let path = artefact_path(&dir, &id);
        let source = display_path(&project.root, &path);
        if !shared && !owned_by_me(&path) {
            scan.withheld(format!("{source}: private to another user, not searched"));
            continue;
        }
        if !scan.visit(&[&path]) {
            continue;
        }
        match fsx::read_lossy(&path, fsx::Limit::DOCUMENT) {
            Ok(Some(text)) => blocks(scan, &text, &source, &id),
            Ok(None) => {}
            Err(e) => scan.withheld(format!("{source}: {e}")),
        }
    }
}

/// One document per saved block.
fn blocks(scan: &mut Scan<'_>, text: &str, source: &str, id: &str) {
    for block in split_blocks(text) {
        let Some(front) = &block.front else {
            continue;
        };
        let fields = parse_fields(front);
        let next = fields.get("next_action").unwrap_or("");
        let tasks = fields
            .lists
            .get("active_tasks")
            .map(|t| t.join(", "))
            .unwrap_or_default();
        // The front matter goes into the title (searched too), so the text is the body as
        // it stands in the file from `body_line` on.
        let mut title = format!("Handoff {id}: {}", clip(&one_line(next), TITLE_MAX));
        if !tasks.is_empty() {
            title.push_str(&format!(" (tasks: {tasks})"));
        }
        if let Some(rec) = fields.get("recommended_next").filter(|r| !r.is_empty()) {
            title.push_str(&format!(" → {}", one_line(rec)));
        }
        let mut doc = Doc::new(Kind::Handoff, source, title);
        doc.ts = fields.get("captured_at").and_then(time::parse);
        doc.line = Some(block.body_line);
        doc.id = Some(id.to_string());
        doc.session = Some(id.to_string());
        doc.author = fields.get("captured_by").map(str::to_string);
        doc.text = block.body.to_string();
        scan.doc(doc);
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;
    use crate::core::recall::Filter;

    #[test]
    fn every_saved_block_is_a_document() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("datarim/sessions");
        std::fs::create_dir_all(&dir).unwrap();
        let block = |at: &str, next: &str| {
            format!(
                "---\nartifact: session-handoff\nschema_version: 1\nsession_id: SESSION-20261130-101500\ncaptured_at: {at}\ncaptured_by: agent\nrecommended_next: /dr-next TUNE-0420\nnext_action: {next}\nactive_tasks:\n  - TUNE-0420\n---\n\n## Layer 1 — Git State\nrepo: . branch: main\n\n## Layer 5 — Failed Approaches\n- the flaky websocket test\n"
            )
        };
        std::fs::write(
            dir.join("SESSION-20261130-101500.session.md"),
            format!(
                "{}{}",
                block("2026-11-30T10:15:00Z", "Wire the retry queue."),
                block("2026-11-30T12:00:00Z", "Ship it.")
            ),
        )
        .unwrap();
        std::fs::write(dir.join("notes.md"), "not an artefact").unwrap();
        let project = Project::for_test(t.path(), None);
        let f = Filter::default();
        let mut docs = Vec::new();
        let mut sink = |d: Doc| docs.push(d);
        let mut scan = Scan::new(&f, &mut sink);
        read(&project, &mut scan);
        assert_eq!(docs.len(), 2);
        assert_eq!(
            docs[0].title,
            "Handoff SESSION-20261130-101500: Wire the retry queue. (tasks: TUNE-0420) → /dr-next TUNE-0420"
        );
        assert_eq!(
            docs[0].source,
            "datarim/sessions/SESSION-20261130-101500.session.md"
        );
        assert_eq!(docs[0].line, Some(12));
        assert_eq!(docs[1].line, Some(29));
        assert_eq!(docs[1].ts, time::parse("2026-11-30T12:00:00Z"));
        assert_eq!(docs[0].author.as_deref(), Some("agent"));
        assert!(docs[0].text.contains("the flaky websocket test"));
    }
}
