//! `baton clean`: removes what baton keeps for one project, after showing it.
//!
//! Private state (removed by `baton clean --yes`): the audit trail (`.boo/`) and the handoff
//! artefacts (`datarim/sessions/`) while they are kept out of git (`audit.shared` and
//! `handoff.shared` off, the default), and what baton keeps for the project outside it, per
//! user: the folders `<base>/projects/<key>/` under the plugin's data folder and the XDG
//! state folder (session digests and cursors), and the bridge's integrity verdict cache.
//! Shared state — the project memory (`.rune/`), the relay's packet and loop state
//! (`.handoff/`), and a `.boo/` or `datarim/sessions/` made shared — is committed: it goes
//! only with `--committed`, and removing it leaves a change for you to commit; the memory's
//! provenance ledger (per user) goes with it. Without
//! `--yes` nothing is removed: the list is what would be. The config (`.claude/baton.yaml`)
//! and the cross-project store are never touched.

use crate::bridge;
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::io;
use crate::core::paths;
use crate::core::project::Project;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// What to do.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Options {
    /// Remove (else only list).
    pub(crate) yes: bool,
    /// Include committed state.
    pub(crate) committed: bool,
    /// JSON output.
    pub(crate) json: bool,
}

/// One thing baton keeps.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Item {
    pub(crate) path: PathBuf,
    pub(crate) what: &'static str,
    /// Committed with the repository (goes only with `--committed`).
    pub(crate) committed: bool,
    /// Inside the project (checked for links below the root before removal).
    #[serde(skip)]
    pub(crate) in_project: bool,
    pub(crate) bytes: u64,
    /// As shown: relative to the project when inside it, a folder with a slash.
    pub(crate) shown: String,
    /// Whether it goes in this run.
    pub(crate) remove: bool,
}

/// Everything baton keeps for the project that exists.
pub(crate) fn items(project: &Project, committed: bool) -> Vec<Item> {
    let c = project.config();
    let root = &project.root;
    let mut out = Vec::new();
    let mut add = |path: PathBuf, what: &'static str, shared: bool, in_project: bool| {
        if let Ok(meta) = std::fs::symlink_metadata(&path) {
            out.push(Item {
                bytes: size_of(&path),
                shown: shown(root, &path, meta.is_dir()),
                remove: !shared || committed,
                path,
                what,
                committed: shared,
                in_project,
            });
        }
    };
    let root = &project.root;
    add(
        root.join(&c.paths.audit),
        "audit trail",
        c.audit.shared,
        true,
    );
    add(
        root.join(&c.paths.handoff),
        "handoff artefacts",
        c.handoff.shared,
        true,
    );
    add(root.join(&c.paths.bridge), "project memory", true, true);
    add(
        root.join(&c.paths.relay),
        "relay packet and loop state",
        true,
        true,
    );
    for dir in paths::project_state_dirs(&project.ctx.env, root) {
        add(dir, "per-user state (session digests)", false, false);
    }
    for file in bridge::private_files(project) {
        add(file, "integrity verdict cache", false, false);
    }
    // Per user, but it goes with .rune/: without it every entry there reads as unreviewed.
    for dir in bridge::ledger_folders(project) {
        add(dir, "provenance ledger of the project memory", true, false);
    }
    out
}

fn shown(root: &Path, path: &Path, dir: bool) -> String {
    let mut s = path
        .strip_prefix(root)
        .map_or_else(|_| path.display().to_string(), |r| r.display().to_string());
    if dir {
        s.push('/');
    }
    s
}

/// Bytes under `path`, links not followed.
fn size_of(path: &Path) -> u64 {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    if !meta.is_dir() {
        return meta.len();
    }
    std::fs::read_dir(path).map_or(0, |entries| {
        entries.flatten().map(|e| size_of(&e.path())).sum()
    })
}

/// Runs `baton clean`; exit 1 when something could not be removed.
pub(crate) fn run(project: &Project, opts: Options) -> Result<i32> {
    if opts.yes {
        // The defaults stand in for a broken config: they may name other folders than the
        // ones meant. And never at the file system root or a home folder.
        if let Some(p) = project.config_problems().first() {
            return Err(Error::Invalid(format!(
                "clean: {p}; fix the config first (baton doctor lists every problem)"
            )));
        }
        project.require_state()?;
    }
    let mut items = items(project, opts.committed);
    let mut failures = Vec::new();
    if opts.yes {
        for item in items.iter_mut().filter(|i| i.remove) {
            if let Err(e) = remove(&project.root, item) {
                failures.push(e.to_string());
                item.remove = false;
            }
        }
    }
    if opts.json {
        io::print_json(&serde_json::json!({
            "root": project.root,
            "removed": opts.yes,
            "items": items,
            "errors": failures,
        }));
    } else {
        io::print(&render(&project.root, &items, opts));
        for f in &failures {
            eprintln!("baton: clean: {f}");
        }
    }
    Ok(i32::from(!failures.is_empty()))
}

/// Removes one item: a project path only when no link lies between the root and it.
fn remove(root: &Path, item: &Item) -> Result<()> {
    if item.in_project {
        fsx::check_inside(root, &item.path)?;
    }
    let meta =
        std::fs::symlink_metadata(&item.path).map_err(|e| Error::io("inspect", &item.path, e))?;
    let result = if meta.is_dir() {
        // remove_dir_all does not follow links inside the folder.
        std::fs::remove_dir_all(&item.path)
    } else {
        std::fs::remove_file(&item.path)
    };
    result.map_err(|e| Error::io("remove", &item.path, e))
}

/// The listing: one line per item, then what happened or what to run.
pub(crate) fn render(root: &Path, items: &[Item], opts: Options) -> String {
    let mut out = format!("baton clean: {}\n", root.display());
    if items.is_empty() {
        out.push_str("Nothing to clean: baton keeps nothing for this project.\n");
        return out;
    }
    for i in items {
        let shown = &i.shown;
        let (tag, note) = match (i.remove, opts.yes, i.committed) {
            (true, true, _) => ("removed", ""),
            (true, false, _) => ("remove ", ""),
            (false, _, true) if i.in_project => {
                ("keep   ", " (committed; --committed removes it too)")
            }
            (false, _, true) => ("keep   ", " (goes with the memory: --committed removes it)"),
            (false, _, false) => ("kept   ", " (could not be removed)"),
        };
        out.push_str(&format!(
            "  {tag} {shown}  {}, {}{note}\n",
            i.what,
            human(i.bytes)
        ));
    }
    let chosen = items.iter().filter(|i| i.remove).count();
    if !opts.yes {
        out.push_str(&match chosen {
            0 => "Nothing would be removed.\n".to_string(),
            n => {
                format!("Nothing was removed. `baton clean --yes` removes the {n} marked remove.\n")
            }
        });
    } else if items.iter().any(|i| i.remove && i.committed) {
        out.push_str(
            "Committed state was removed: commit the change (or `git checkout` it back).\n",
        );
    }
    out
}

/// `1.2 MB`.
fn human(bytes: u64) -> String {
    #[allow(clippy::cast_precision_loss)] // a size shown to one decimal
    let b = bytes as f64;
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{:.1} KB", b / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} MB", b / 1e6),
        _ => format!("{:.1} GB", b / 1e9),
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their folders directly
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human(999), "999 B");
        assert_eq!(human(1_234), "1.2 KB");
        assert_eq!(human(5_600_000), "5.6 MB");
    }
}
