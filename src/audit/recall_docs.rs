//! The audit trail as documents for `baton recall` (`core::recall`): one per session (its task
//! and summary, kind `session`) and one per record — `data` → tool, `change` → change,
//! `conversation` → prompt, `user_correction` → correction. The audit owns the format
//! (record.rs), so it owns this reader; the hook bus wires it through `Readers`.
//!
//! A busy year is a million lines, so only the lines holding a query word are parsed
//! (`Scan::candidate_lines`), and a session whose span lies outside the time range is not
//! opened. The trail is private: a `.boo/` that is not the user's own is not searched (unless
//! `audit.shared`), and a line that is not a record is skipped and counted.

use super::record::{self, Kind as RecordKind, Record};
use super::store::{self, Store, BUFFER, PENDING, SUMMARY, TRAIL};
use crate::core::fsx;
use crate::core::project::{DocSource, Project};
use crate::core::recall::{owned_by_me, Doc, Kind, Scan, Scope};
use crate::core::text::{clip, one_line};
use std::collections::HashSet;
use std::path::Path;

/// The audit's reader, for the hook bus's `Readers`.
pub(crate) const RECALL_DOCS: DocSource = DocSource {
    name: "audit",
    kinds: &[
        Kind::Session,
        Kind::Tool,
        Kind::Change,
        Kind::Prompt,
        Kind::Correction,
    ],
    scope: Scope::Project,
    read,
    indexed: true,
};

/// Characters of a record's text used as its title.
const TITLE_MAX: usize = 160;

fn read(project: &Project, scan: &mut Scan<'_>) {
    let store = Store::new(&project.root, project.config());
    let shown = project.config().paths.audit.display().to_string();
    if fsx::refuse_symlink(&store.dir).is_err() || fsx::refuse_symlink(&store.runs()).is_err() {
        scan.withheld(format!("{shown}/: a symlink, not searched"));
        return;
    }
    if !store.runs().is_dir() {
        return;
    }
    if !store.shared && !owned_by_me(&store.dir) {
        scan.withheld(format!("{shown}/: private to another user, not searched"));
        return;
    }
    // The ids are the names of runs/'s folders (a link is no folder: `file_type` does not
    // follow it), and runs/ itself was checked above: each run folder is inside.
    let runs = store.runs();
    for id in store.session_ids() {
        session(
            scan,
            &store,
            &runs.join(&id),
            &format!("{shown}/runs/{id}"),
            &id,
        );
    }
}

/// One session's documents. Each file is asked about just before it is read (recall's
/// index holds the files it has read before, and what comes next is the asked file's).
fn session(scan: &mut Scan<'_>, store: &Store, dir: &Path, rel: &str, id: &str) {
    let mut meta: Option<Option<store::SessionMeta>> = None;
    // The session's span, read once and only when a file of it is read: outside the
    // range, nothing of it is.
    let in_range = |scan: &Scan<'_>, meta: &mut Option<Option<store::SessionMeta>>| {
        let m = meta.get_or_insert_with(|| store::read_meta(store, id).ok());
        m.as_ref()
            .is_none_or(|m| scan.overlaps(Some(m.start_time), m.end_time))
    };
    let (meta_file, summary) = (dir.join(store::SESSION), dir.join(SUMMARY));
    if scan.wants(Kind::Session) && scan.visit(&[&meta_file, &summary]) && in_range(scan, &mut meta)
    {
        session_doc(scan, dir, rel, id, meta.as_ref().and_then(Option::as_ref));
    }
    if !scan.wants_any(&[Kind::Tool, Kind::Change, Kind::Prompt, Kind::Correction]) {
        return;
    }
    let mut seen: HashSet<String> = HashSet::new();
    for file in [TRAIL, PENDING, BUFFER] {
        if scan.visit(&[&dir.join(file)]) && in_range(scan, &mut meta) {
            records(scan, store, dir, rel, id, file, &mut seen);
        }
    }
}

/// The session itself: its task, status and summary.
fn session_doc(
    scan: &mut Scan<'_>,
    dir: &Path,
    rel: &str,
    id: &str,
    meta: Option<&store::SessionMeta>,
) {
    let Some(meta) = meta else {
        return;
    };
    let summary = fsx::read_lossy(&dir.join(SUMMARY), fsx::Limit::DOCUMENT)
        .ok()
        .flatten()
        .unwrap_or_default();
    let mut doc = Doc::new(
        Kind::Session,
        format!("{rel}/{}", store::SESSION),
        format!("Audit session {id}: {}", one_line(&meta.task)),
    );
    doc.ts = Some(meta.start_time);
    doc.id = Some(id.to_string());
    doc.session = Some(id.to_string());
    doc.text = format!("{} ({})\n{summary}", meta.task, meta.status);
    scan.doc(doc);
}

/// The records of one file of a session (trail, pending, buffer); a record id seen once in
/// the session counts once.
fn records(
    scan: &mut Scan<'_>,
    store: &Store,
    dir: &Path,
    rel: &str,
    id: &str,
    file: &str,
    seen: &mut HashSet<String>,
) {
    let path = dir.join(file);
    let source = format!("{rel}/{file}");
    if !store.shared && path.exists() && !owned_by_me(&path) {
        scan.withheld(format!("{source}: private to another user, not searched"));
        return;
    }
    let text = match fsx::read_lossy(&path, fsx::Limit::LOG) {
        Ok(Some(t)) => t,
        Ok(None) => return,
        Err(e) => {
            scan.withheld(format!("{source}: {e}"));
            return;
        }
    };
    // The hooks append to the buffer (and move it to pending) while this reads: a last
    // line without its newline is a write in flight, not a corrupt record.
    let text = match (file, text.rfind('\n')) {
        (TRAIL, _) => text.as_str(),
        (_, Some(i)) => &text[..=i],
        (_, None) => "",
    };
    for (line, raw) in scan.candidate_lines(text) {
        match record::parse::<Record>(raw) {
            Ok(r) => {
                if r.id.as_ref().is_some_and(|i| !seen.insert(i.clone())) {
                    continue;
                }
                if let Some(doc) = to_doc(r, &source, line, id) {
                    scan.doc(doc);
                }
            }
            Err(why) => scan.corrupt(&source, line, &why),
        }
    }
}

/// A record as a document; `None` for record types recall does not show (an `anomaly`).
fn to_doc(r: Record, source: &str, line: usize, session: &str) -> Option<Doc> {
    let mut answer = None;
    let failed = r.failed();
    let (kind, title, text, author) = match &r.kind {
        k @ (RecordKind::Data | RecordKind::Change) => {
            let kind = if *k == RecordKind::Change {
                Kind::Change
            } else {
                Kind::Tool
            };
            let mut text = r.input().to_string();
            let changed = r.changed_paths();
            if !changed.is_empty() {
                text.push_str(&format!(" · changed {}", changed.join(", ")));
            }
            if r.failed() {
                text.push_str(" · failed");
                if let Some(code) = r.exit_code {
                    text.push_str(&format!(" (exit {code})"));
                }
                if let Some(e) = &r.error {
                    text.push_str(": ");
                    let start = text.len();
                    text.push_str(e);
                    answer = Some(start..text.len());
                }
            }
            let verb = if r.failed() { " (failed)" } else { "" };
            let title = format!("{}{verb}: {}", r.tool(), r.input_line());
            let author = r.agent.clone().unwrap_or_else(|| "agent".into());
            (kind, title, text, author)
        }
        RecordKind::Conversation => (
            Kind::Prompt,
            one_line(r.text()),
            r.text().to_string(),
            r.role.clone().unwrap_or_else(|| "user".into()),
        ),
        RecordKind::UserCorrection => {
            let mut text = r.text().to_string();
            answer = Some(0..text.len());
            if let Some(to) = r.persisted_to.as_ref().filter(|t| !t.is_empty()) {
                text.push_str(&format!(" · persisted to {}", to.join(", ")));
            }
            (
                Kind::Correction,
                format!("Correction: {}", one_line(r.text())),
                text,
                "user".into(),
            )
        }
        RecordKind::Other(_) => return None,
    };
    let mut doc = Doc::new(kind, source, clip(&title, TITLE_MAX));
    doc.path = r.changed_paths().first().map(|p| (*p).to_string());
    doc.ts = r.ts;
    doc.line = Some(line);
    doc.id = r.id;
    doc.session = Some(session.to_string());
    doc.alias.clone_from(&r.claude_session);
    doc.author = Some(author);
    doc.failed = failed;
    doc.answer.extend(answer);
    doc.text = text;
    Some(doc)
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;
    use crate::core::recall::Filter;

    fn docs(root: &Path, filter: &Filter) -> (Vec<Doc>, crate::core::recall::ScanStats) {
        let project = Project::for_test(root, None);
        let mut out = Vec::new();
        let mut sink = |d: Doc| out.push(d);
        let mut scan = Scan::new(filter, &mut sink);
        read(&project, &mut scan);
        let stats = scan.into_stats();
        (out, stats)
    }

    fn setup(root: &Path) {
        let run = root.join(".boo/runs/adhoc_20261130_1015");
        std::fs::create_dir_all(&run).unwrap();
        std::fs::write(
            run.join("session.json"),
            r#"{"session_id":"adhoc_20261130_1015","task":"fix the cache","start_time":"2026-11-30T10:15:00Z","status":"completed","end_time":"2026-11-30T11:00:00Z"}"#,
        )
        .unwrap();
        std::fs::write(
            run.join(TRAIL),
            concat!(
                "{\"id\":\"t-1\",\"ts\":\"2026-11-30T10:16:00Z\",\"type\":\"data\",\"tool\":\"Bash\",\"input\":\"cargo test migration\",\"outcome\":\"error\",\"exit_code\":101,\"error\":\"migration_0042 failed\"}\n",
                "{\"id\":\"c-1\",\"ts\":\"2026-11-30T10:17:00Z\",\"type\":\"user_correction\",\"text\":\"no, keep the cache warm\"}\n",
                "not json but mentions cache\n",
                "{\"id\":\"t-2\",\"ts\":\"2026-11-30T10:18:00Z\",\"type\":\"change\",\"tool\":\"Edit\",\"input\":\"src/cache.rs\",\"path\":\"src/cache.rs\",\"outcome\":\"ok\"}\n",
            ),
        )
        .unwrap();
        // The same record again in pending (a rerun): counted once.
        std::fs::write(
            run.join(PENDING),
            "{\"id\":\"c-1\",\"ts\":\"2026-11-30T10:17:00Z\",\"type\":\"user_correction\",\"text\":\"no, keep the cache warm\"}\n",
        )
        .unwrap();
        // A hook's append in flight: no newline yet, so no record and no corrupt line.
        std::fs::write(
            run.join(BUFFER),
            "{\"id\":\"t-9\",\"ts\":\"2026-11-30T10:19:00Z\",\"ty",
        )
        .unwrap();
    }

    #[test]
    fn records_become_documents_of_their_kind() {
        let t = tempfile::tempdir().unwrap();
        setup(t.path());
        let (docs, stats) = docs(t.path(), &Filter::default());
        let kinds: Vec<_> = docs.iter().map(|d| d.kind).collect();
        assert_eq!(
            kinds,
            vec![Kind::Session, Kind::Tool, Kind::Correction, Kind::Change]
        );
        let tool = &docs[1];
        assert_eq!(tool.title, "Bash (failed): cargo test migration");
        assert!(tool
            .text
            .contains("failed (exit 101): migration_0042 failed"));
        assert_eq!(tool.line, Some(1));
        assert_eq!(
            tool.source,
            ".boo/runs/adhoc_20261130_1015/audit_trail.jsonl"
        );
        assert_eq!(docs[2].author.as_deref(), Some("user"));
        assert_eq!(docs[3].line, Some(4));
        assert_eq!(stats.corrupt, 1);
        assert!(
            stats.corrupt_examples[0].contains("audit_trail.jsonl:3: not valid JSON"),
            "{:?}",
            stats.corrupt_examples
        );
    }

    #[test]
    fn only_lines_with_a_query_word_are_parsed() {
        let t = tempfile::tempdir().unwrap();
        setup(t.path());
        let f = Filter {
            prefilter: Some(regex::Regex::new("(?i)warm").unwrap()),
            ..Filter::default()
        };
        let (docs, stats) = docs(t.path(), &f);
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].kind, Kind::Correction);
        // The corrupt line holds no query word: never parsed, so not reported.
        assert_eq!(stats.corrupt, 0);
    }

    #[test]
    fn sessions_outside_the_range_are_not_opened() {
        let t = tempfile::tempdir().unwrap();
        setup(t.path());
        let f = Filter {
            since: crate::core::time::parse("2026-12-01T00:00:00Z"),
            ..Filter::default()
        };
        let (docs, stats) = docs(t.path(), &f);
        assert!(docs.is_empty());
        assert_eq!(stats.corrupt, 0);
    }
}
