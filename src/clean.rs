//! `baton clean`: removes what baton keeps for one project, after showing it.
//!
//! Private state (removed by `baton clean --yes`): the audit trail (`.boo/`) and the handoff
//! artefacts (`datarim/sessions/`) while they are kept out of git (`audit.shared` and
//! `handoff.shared` off, the default) — from those two folders, at their default names or
//! where the config moved them, only what the inventory (clean/inventory.rs) says baton
//! writes there, then the folder once it is empty: a file or folder of the user's, a link, a
//! FIFO stay, listed with why —, and what baton keeps for the project outside it, per
//! user: the folder `<private state>/projects/<key>/` (session digests, the session log, the
//! hook log; also under the plugin's data folders, where earlier builds kept digests), and the
//! bridge's integrity verdict cache. The folders a removal leaves empty go too (`datarim/`,
//! `~/.cache/baton/`), never beyond the project root or the XDG folder that holds baton's.
//! Shared state — the project memory (`.rune/`), the relay's packet and loop state
//! (`.handoff/`), and a `.boo/` or `datarim/sessions/` made shared — is committed: it goes
//! only with `--committed` (by the same inventory: only baton's files, the folder once empty),
//! and removing it leaves a change for you to commit; the memory's provenance ledger (per
//! user) goes with it. Without `--committed` nothing in those folders is touched. Without
//! `--yes` nothing is removed: the list is what would be. The config (`.claude/baton.yaml`)
//! is never touched.
//!
//! `--user` is the same for what baton keeps for the user outside every project (before an
//! uninstall): its private state, caches and cross-project store go; the user's config, the
//! plugin's data folder and Claude Code's copy of the plugin, and a link the user made, are
//! listed with how each goes.

use crate::bridge;
use crate::core::config;
use crate::core::ctx::Env;
use crate::core::error::{Error, Result};
use crate::core::fsx;
use crate::core::io;
use crate::core::paths;
use crate::core::project::Project;
use serde::Serialize;
use std::path::{Path, PathBuf};

mod inventory;

pub(crate) use inventory::Stay;

/// What to do.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Options {
    /// Remove (else only list).
    pub(crate) yes: bool,
    /// Whose state: the project's (private, or with the committed too) or the user's.
    pub(crate) scope: Scope,
    /// JSON output.
    pub(crate) json: bool,
}

/// What `baton clean` looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The project's private state.
    Project,
    /// The project's private and committed state (`--committed`).
    ProjectAndCommitted,
    /// What baton keeps for the user outside every project (`--user`).
    User,
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
    /// The folder below which the parents a removal leaves empty go too (baton made them:
    /// `datarim/` of `datarim/sessions/`, `~/.cache/baton/integrity/`); never itself.
    #[serde(skip)]
    pub(crate) up_to: Option<PathBuf>,
    /// Why it stays (what is listed but never removed here, and how it goes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
    pub(crate) bytes: u64,
    /// As shown: relative to the project when inside it, a folder with a slash.
    pub(crate) shown: String,
    /// Whether it goes in this run.
    pub(crate) remove: bool,
    /// What is in it that is not baton's, and stays (with the folder): in a state folder in
    /// the project that goes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) stays: Vec<Stay>,
    /// A state folder in the project sorted by the inventory: only what is baton's in it goes.
    #[serde(skip)]
    pub(crate) survey: Option<inventory::Survey>,
}

/// Everything baton keeps for the project that exists.
pub(crate) fn items(project: &Project, committed: bool) -> Vec<Item> {
    let c = project.config();
    let env = &project.ctx.env;
    let root = &project.root;
    let item = |path: PathBuf, what: &'static str, shared: bool, up_to: Option<PathBuf>| {
        let meta = std::fs::symlink_metadata(&path).ok()?;
        Some(Item {
            bytes: size_of(&path),
            shown: shown(root, &path, meta.is_dir()),
            remove: !shared || committed,
            in_project: path.starts_with(root),
            path,
            what,
            committed: shared,
            up_to,
            note: None,
            stays: Vec::new(),
            survey: None,
        })
    };
    let mut out = Vec::new();
    for (key, rel, what, shared) in [
        ("paths.audit", &c.paths.audit, "audit trail", c.audit.shared),
        (
            "paths.handoff",
            &c.paths.handoff,
            "handoff artefacts",
            c.handoff.shared,
        ),
        ("paths.bridge", &c.paths.bridge, "project memory", true),
        (
            "paths.relay",
            &c.paths.relay,
            "relay packet and loop state",
            true,
        ),
    ] {
        if let Some(mut i) = item(root.join(rel), what, shared, Some(root.clone())) {
            i.note = not_batons(root, key, rel, shared);
            i.remove &= i.note.is_none();
            let folder = match key {
                "paths.audit" => inventory::Folder::Audit,
                "paths.handoff" => inventory::Folder::Handoff,
                "paths.bridge" => inventory::Folder::Bridge,
                _ => inventory::Folder::Relay,
            };
            sort_by_inventory(root, &mut i, folder);
            out.push(i);
        }
    }
    for dir in paths::project_state_dirs(env, root) {
        let up_to = user_folder_parent(env, &dir);
        out.extend(item(
            dir,
            "per-user state (session digests, session log)",
            false,
            up_to,
        ));
    }
    for file in bridge::private_files(project) {
        let up_to = user_folder_parent(env, &file);
        out.extend(item(file, "integrity verdict cache", false, up_to));
    }
    // Per user, but it goes with .rune/: without it every entry there reads as unreviewed.
    for dir in bridge::ledger_folders(project) {
        let up_to = user_folder_parent(env, &dir);
        out.extend(item(
            dir,
            "provenance ledger of the project memory",
            true,
            up_to,
        ));
    }
    out
}

/// For a state folder that goes: what in it is baton's (only that goes) and what stays.
/// Private or shared, default name or moved, the same rule: a folder of baton's may hold a
/// file the user put there since (in `.rune/`, also the original Rune's own files).
fn sort_by_inventory(root: &Path, i: &mut Item, folder: inventory::Folder) {
    if !i.remove || !std::fs::symlink_metadata(&i.path).is_ok_and(|m| m.is_dir()) {
        return;
    }
    let survey = inventory::survey(root, &i.path, folder);
    i.bytes = survey.bytes;
    i.stays.clone_from(&survey.stays);
    if survey.removes_nothing() {
        i.remove = false;
        i.note = Some("nothing in it is baton's to remove: what stays is below".into());
    } else {
        i.survey = Some(survey);
    }
}

/// Why the state folder `rel` (the value of `key`) inside the project is not one `clean`
/// may remove, if it is not: baton removes only what it made. A folder at its default name
/// is baton's; one the config moved (a config comes with a clone or a teammate's commit, and
/// may name any folder) only when it holds a file baton wrote there that git does not track
/// (the `.gitignore` of a private folder: one in git could be anyone's) and git tracks
/// nothing in it. A private folder never holds files git tracks: one that does is the
/// project's.
fn not_batons(root: &Path, key: &str, rel: &Path, shared: bool) -> Option<String> {
    let dir = root.join(rel);
    if !std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
        return None;
    }
    let tracked = crate::core::git::tracked_under(root, rel);
    if !config::Paths::is_default(key, rel) {
        let marked = fsx::batons_mark(&dir)
            .is_some_and(|m| !crate::core::git::is_tracked(root, &rel.join(m)));
        if !marked {
            return Some(format!(
                "not removed: `{key}` moves it here, and no file baton wrote (an untracked .gitignore of baton's) says baton made it; remove it yourself if it is baton's"
            ));
        }
        if let Some(file) = tracked {
            return Some(format!(
                "not removed: `{key}` moves it here and git tracks {file} in it; remove it with git if it is baton's"
            ));
        }
    }
    match tracked {
        Some(file) if !shared => Some(format!(
            "not removed: git tracks {file} in it, so it is not baton's private folder"
        )),
        _ => None,
    }
}

/// For a path in one of baton's per-user folders: the folder that holds that one (the XDG
/// folder, so that `~/.local/state/baton/` goes once empty), or the plugin's data folder
/// itself (Claude Code's, removed on uninstall).
fn user_folder_parent(env: &Env, path: &Path) -> Option<PathBuf> {
    let ours = [
        paths::private_base(env),
        paths::cache_dir(env),
        paths::data_dir(env),
    ];
    ours.into_iter()
        .flatten()
        .find(|b| path.starts_with(b))
        .and_then(|b| b.parent().map(Path::to_path_buf))
        .or_else(|| {
            paths::plugin_data_dirs(env)
                .into_iter()
                .chain(paths::plugin_data_dir(env))
                .find(|d| path.starts_with(d))
        })
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
    if opts.yes && opts.scope != Scope::User {
        // The defaults stand in for a broken config: they may name other folders than the
        // ones meant. And never at the file system root or a home folder.
        if let Some(p) = project.config_problem_line() {
            return Err(Error::Invalid(format!(
                "clean: {p}; fix the config first (baton doctor lists every problem)"
            )));
        }
        project.require_state()?;
    }
    let mut items = if opts.scope == Scope::User {
        user_items(&project.ctx.env)
    } else {
        items(project, opts.scope == Scope::ProjectAndCommitted)
    };
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
            "root": (opts.scope != Scope::User).then_some(&project.root),
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

/// `--user`: what baton keeps for the user outside every project. Its own folders go; what
/// is the user's or Claude Code's is listed with how it goes.
pub(crate) fn user_items(env: &Env) -> Vec<Item> {
    let mut out = Vec::new();
    let mut add = |path: Option<PathBuf>, what: &'static str, note: Option<String>| {
        let Some(path) = path else { return };
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            return;
        };
        out.push(Item {
            bytes: size_of(&path),
            shown: format!("{}{}", path.display(), if meta.is_dir() { "/" } else { "" }),
            remove: note.is_none(),
            in_project: false,
            committed: false,
            up_to: None,
            note,
            path,
            what,
            stays: Vec::new(),
            survey: None,
        });
    };
    add(
        paths::private_base(env),
        "private state of every project (session digests and logs, provenance ledgers)",
        None,
    );
    add(paths::cache_dir(env), "caches (integrity verdicts)", None);
    add(
        paths::data_dir(env),
        "the cross-project store (promoted instincts and learnings)",
        None,
    );
    add(
        paths::config_dir(env),
        "your config",
        Some("yours: remove it yourself".into()),
    );
    for dir in paths::plugin_data_dirs(env) {
        add(
            Some(dir),
            "the plugin's data folder (the installed binary)",
            Some("`claude plugin uninstall baton@baton` removes it".into()),
        );
    }
    for dir in plugin_cache_copies(env) {
        let note = format!(
            "Claude Code keeps it after an uninstall: then `rm -rf {}`",
            dir.display()
        );
        add(Some(dir), "Claude Code's copy of the plugin", Some(note));
    }
    let link = env
        .var("HOME")
        .map(|h| Path::new(&h).join(".local/bin/baton"))
        .filter(|l| std::fs::symlink_metadata(l).is_ok_and(|m| m.file_type().is_symlink()));
    let note = link
        .as_ref()
        .map(|l| format!("yours: `rm {}`", l.display()));
    add(link, "your link to the binary", note);
    out
}

/// Claude Code's cached copies of baton's plugin: `<claude>/plugins/cache/<marketplace>/baton`.
fn plugin_cache_copies(env: &Env) -> Vec<PathBuf> {
    let Some(Ok(markets)) =
        paths::claude_dir(env).map(|c| std::fs::read_dir(c.join("plugins/cache")))
    else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = markets
        .flatten()
        .map(|m| m.path().join("baton"))
        .filter(|p| p.is_dir())
        .collect();
    found.sort();
    found
}

/// Removes one item: a project path only when no link lies between the root and it. Then
/// the parents it leaves empty, below its `up_to`.
fn remove(root: &Path, item: &Item) -> Result<()> {
    if item.in_project {
        fsx::check_inside(root, &item.path)?;
    }
    if let Some(survey) = &item.survey {
        if !inventory::remove(root, survey)? {
            return Ok(()); // what stays keeps the folder, and the folders above it
        }
        remove_empty_parents(item);
        return Ok(());
    }
    let meta =
        std::fs::symlink_metadata(&item.path).map_err(|e| Error::io("inspect", &item.path, e))?;
    let result = if meta.is_dir() {
        // remove_dir_all does not follow links inside the folder.
        std::fs::remove_dir_all(&item.path)
    } else {
        std::fs::remove_file(&item.path)
    };
    result.map_err(|e| Error::io("remove", &item.path, e))?;
    remove_empty_parents(item);
    Ok(())
}

/// Removes the parents of a removed item that it left empty, below its `up_to`.
fn remove_empty_parents(item: &Item) {
    if let Some(up_to) = &item.up_to {
        let mut at = item.path.parent();
        // remove_dir removes only an empty folder: the first one that is not ends the walk.
        while let Some(dir) = at.filter(|d| d.starts_with(up_to) && *d != up_to.as_path()) {
            if std::fs::remove_dir(dir).is_err() {
                break;
            }
            at = dir.parent();
        }
    }
}

/// The listing: one line per item, then what happened or what to run.
pub(crate) fn render(root: &Path, items: &[Item], opts: Options) -> String {
    let mut out = if opts.scope == Scope::User {
        "baton clean --user: what baton keeps for you outside your projects\n".to_string()
    } else {
        format!("baton clean: {}\n", root.display())
    };
    if items.is_empty() {
        out.push_str(if opts.scope == Scope::User {
            "Nothing to clean: baton keeps nothing for you outside your projects.\n"
        } else {
            "Nothing to clean: baton keeps nothing for this project.\n"
        });
        return out;
    }
    for i in items {
        let shown = &i.shown;
        let note = i.note.as_ref().map(|n| format!(" ({n})"));
        let (tag, note) = match (i.remove, opts.yes, i.committed) {
            _ if note.is_some() => ("keep   ", note.unwrap_or_default()),
            (true, yes, _) if !i.stays.is_empty() => (
                if yes { "removed" } else { "remove " },
                format!(
                    " (baton's files only: {} other {} stay{}, and the folder with them)",
                    i.stays.len(),
                    if i.stays.len() == 1 {
                        "thing"
                    } else {
                        "things"
                    },
                    if i.stays.len() == 1 { "s" } else { "" },
                ),
            ),
            (true, true, _) => ("removed", String::new()),
            (true, false, _) => ("remove ", String::new()),
            (false, _, true) if i.in_project => {
                ("keep   ", " (committed; --committed removes it too)".into())
            }
            (false, _, true) => (
                "keep   ",
                " (goes with the memory: --committed removes it)".into(),
            ),
            (false, _, false) => ("kept   ", " (could not be removed)".into()),
        };
        out.push_str(&format!(
            "  {tag} {shown}  {}, {}{note}\n",
            i.what,
            human(i.bytes)
        ));
        out.push_str(&render_stays(&i.stays));
    }
    let chosen = items.iter().filter(|i| i.remove).count();
    let again = if opts.scope == Scope::User {
        "baton clean --user --yes"
    } else {
        "baton clean --yes"
    };
    if !opts.yes {
        out.push_str(&match chosen {
            0 => "Nothing would be removed.\n".to_string(),
            n => format!("Nothing was removed. `{again}` removes the {n} marked remove.\n"),
        });
    } else if items.iter().any(|i| i.remove && i.committed) {
        out.push_str(
            "Committed state was removed: commit the change (or `git checkout` it back).\n",
        );
    }
    out
}

/// How many of what stays in a folder the text lists by name (`--json` lists every one).
const STAYS_SHOWN: usize = 5;

/// What stays in a folder that goes, one line each, the first `STAYS_SHOWN`.
fn render_stays(stays: &[Stay]) -> String {
    let mut out = String::new();
    for s in stays.iter().take(STAYS_SHOWN) {
        out.push_str(&format!(
            "            stays  {}  ({})
",
            s.path, s.why
        ));
    }
    if stays.len() > STAYS_SHOWN {
        out.push_str(&format!(
            "            … and {} more (`baton clean --json` lists every one)\n",
            stays.len() - STAYS_SHOWN
        ));
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
