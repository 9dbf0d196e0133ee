//! What the agent touched in the current audit session: the audit's reader for other
//! subsystems (the automatic handoff's Layer 3, the bridge's automatic checkpoint), wired to
//! them through `core::project::Readers`. No audit session, or an unreadable one: an empty
//! list.

use super::sidecar::{self, Caller};
use super::store::Store;
use crate::core::fsx;
use crate::core::project::Project;

/// Paths (relative to the project) of the `change` records of the current audit session, in
/// the order they were first changed, each once.
pub(crate) fn session_changes(project: &Project) -> Vec<String> {
    let store = Store::new(&project.root, project.config());
    if fsx::refuse_symlink(&store.dir).is_err() || fsx::refuse_symlink(&store.runs()).is_err() {
        return Vec::new();
    }
    let Ok(Some(id)) = store.current() else {
        return Vec::new();
    };
    let Ok(run) = store.run_dir(&id) else {
        return Vec::new();
    };
    // The session's summary and its buffer (sidecar.rs): what the changes were, without
    // reading the trail. An unreadable session adds nothing.
    sidecar::view(&run, store.file_mode(), Caller::Hook)
        .map(|v| v.changed)
        .unwrap_or_default()
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;

    use std::path::Path;

    fn project(root: &Path) -> Project {
        Project::for_test(root, None)
    }

    #[test]
    fn change_paths_of_the_current_session_once_each() {
        let t = tempfile::tempdir().unwrap();
        let runs = t.path().join(".boo/runs");
        std::fs::create_dir_all(runs.join("adhoc_20261130_1015")).unwrap();
        std::fs::write(runs.join(".current_session"), "adhoc_20261130_1015\n").unwrap();
        std::fs::write(
            runs.join("adhoc_20261130_1015/audit_pending.jsonl"),
            "{\"type\":\"change\",\"path\":\"src/a.rs\"}\n{\"type\":\"data\",\"tool\":\"Read\"}\nnot json\n",
        )
        .unwrap();
        std::fs::write(
            runs.join("adhoc_20261130_1015/audit_buffer.jsonl"),
            "{\"type\":\"change\",\"path\":\"src/b.rs\"}\n{\"type\":\"change\",\"path\":\"src/a.rs\"}\n{\"type\":\"change\",\"path\":\"\"}\n",
        )
        .unwrap();
        assert_eq!(
            session_changes(&project(t.path())),
            vec!["src/a.rs", "src/b.rs"]
        );
    }

    #[test]
    fn no_session_or_a_bad_id_is_empty() {
        let t = tempfile::tempdir().unwrap();
        assert!(session_changes(&project(t.path())).is_empty());
        let runs = t.path().join(".boo/runs");
        std::fs::create_dir_all(&runs).unwrap();
        std::fs::write(runs.join(".current_session"), "../../etc\n").unwrap();
        assert!(session_changes(&project(t.path())).is_empty());
    }
}
