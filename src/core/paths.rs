//! Where baton keeps what belongs to the user rather than to a project: the XDG base
//! directories (an empty variable counts as unset, as the spec says), Claude Code's own
//! folder and its per-plugin data folders. Each takes the environment from `Env`, so tests
//! pin them; nothing else in baton computes these folders.
//!
//! A relative value of a variable that names a folder (`XDG_*_HOME`, `CLAUDE_CONFIG_DIR`)
//! counts as unset: it would name another folder from each working directory (a hook starts
//! in the project, a shell anywhere), and a folder inside a repository is not the user's.

use super::ctx::Env;
use std::path::{Path, PathBuf};

/// `$XDG_CONFIG_HOME/baton`, else `~/.config/baton`.
pub fn config_dir(env: &Env) -> Option<PathBuf> {
    xdg(env, "XDG_CONFIG_HOME", ".config")
}

/// `$XDG_DATA_HOME/baton`, else `~/.local/share/baton`.
pub fn data_dir(env: &Env) -> Option<PathBuf> {
    xdg(env, "XDG_DATA_HOME", ".local/share")
}

/// `$XDG_CACHE_HOME/baton`, else `~/.cache/baton`.
pub fn cache_dir(env: &Env) -> Option<PathBuf> {
    xdg(env, "XDG_CACHE_HOME", ".cache")
}

/// `$XDG_STATE_HOME/baton`, else `~/.local/state/baton`.
pub fn state_dir(env: &Env) -> Option<PathBuf> {
    xdg(env, "XDG_STATE_HOME", ".local/state")
}

/// Claude Code's data folder for this plugin (`CLAUDE_PLUGIN_DATA`, kept across plugin
/// updates), when Claude Code runs baton.
pub fn plugin_data_dir(env: &Env) -> Option<PathBuf> {
    env.var("CLAUDE_PLUGIN_DATA").map(PathBuf::from)
}

/// The one folder where baton keeps this user's private state (session digests, the private
/// session log, pending checkpoints, the hook log, provenance): the XDG state folder. Every
/// caller reaches it alike — hooks, the MCP server, the model's Bash tool, a shell — where
/// `CLAUDE_PLUGIN_DATA` reaches only what Claude Code starts itself, so a command run by hand
/// would look in another place than the hooks wrote to.
pub fn private_base(env: &Env) -> Option<PathBuf> {
    state_dir(env)
}

/// The key of a project in baton's per-user folders: FNV-1a (hex) of its canonical root, so
/// the same project has the same key from any working directory.
pub fn project_key(root: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    format!("{:016x}", super::hash::fnv1a(root.as_os_str().as_bytes()))
}

/// The folder of this user's private state of the project at `root`:
/// `<private_base>/projects/<key>/`. Not created here.
pub fn project_state_dir(env: &Env, root: &Path) -> Option<PathBuf> {
    private_base(env).map(|d| d.join("projects").join(project_key(root)))
}

/// The per-user folders that hold private state of the project at `root`, for `baton clean`:
/// `<base>/projects/<project_key>/` under the private base, and under the plugin's data
/// folders (`CLAUDE_PLUGIN_DATA`; run from a shell: Claude Code's `plugins/data/baton*`
/// folders), where earlier builds kept session digests. Only the ones that exist.
pub fn project_state_dirs(env: &Env, root: &Path) -> Vec<PathBuf> {
    let mut bases: Vec<PathBuf> = plugin_data_dir(env).into_iter().collect();
    bases.extend(plugin_data_dirs(env));
    bases.extend(private_base(env));
    let key = project_key(root);
    let mut dirs: Vec<PathBuf> = Vec::new();
    for dir in bases.iter().map(|b| b.join("projects").join(&key)) {
        if dir.is_dir() && !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

/// Claude Code's own folder: `CLAUDE_CONFIG_DIR` when absolute (see the module doc for a
/// relative one), else `$HOME/.claude`.
pub fn claude_dir(env: &Env) -> Option<PathBuf> {
    env.var("CLAUDE_CONFIG_DIR")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| env.var("HOME").map(|h| Path::new(&h).join(".claude")))
}

/// This plugin's data folders where Claude Code keeps them, for a run outside Claude Code
/// (which gives no `CLAUDE_PLUGIN_DATA`): `<claude>/plugins/data/baton` and `baton-*` (one
/// per marketplace), sorted.
pub fn plugin_data_dirs(env: &Env) -> Vec<PathBuf> {
    let Some(Ok(entries)) = claude_dir(env).map(|c| std::fs::read_dir(c.join("plugins/data")))
    else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name == "baton" || name.starts_with("baton-")
        })
        .map(|e| e.path())
        .collect();
    found.sort();
    found
}

/// `$VAR/baton`, else `$HOME/<fallback>/baton`. A relative value is ignored, as the XDG
/// specification asks.
fn xdg(env: &Env, var: &str, fallback: &str) -> Option<PathBuf> {
    env.var(var)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| env.var("HOME").map(|h| Path::new(&h).join(fallback)))
        .map(|base| base.join("baton"))
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their folders directly
mod tests {
    use super::*;

    #[test]
    fn project_state_dirs_are_keyed_by_the_canonical_root_under_each_base() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let root = t.path().join("proj");
        std::fs::create_dir_all(&root).unwrap();
        let key = project_key(&root);
        assert_eq!(key.len(), 16);
        assert_eq!(key, project_key(&root.join("../proj")));
        let data = home
            .join(".claude/plugins/data/baton-baton/projects")
            .join(&key);
        let state = home.join(".local/state/baton/projects").join(&key);
        std::fs::create_dir_all(&data).unwrap();
        std::fs::create_dir_all(&state).unwrap();
        std::fs::create_dir_all(home.join(".claude/plugins/data/other/projects").join(&key))
            .unwrap();
        let env = Env::fixed([("HOME", home.to_str().unwrap())]);
        assert_eq!(project_state_dirs(&env, &root), vec![data, state]);
    }

    #[test]
    fn xdg_variable_wins_and_home_is_the_fallback() {
        let env = Env::fixed([("HOME", "/home/u"), ("XDG_CACHE_HOME", "/c")]);
        assert_eq!(cache_dir(&env), Some(PathBuf::from("/c/baton")));
        assert_eq!(
            data_dir(&env),
            Some(PathBuf::from("/home/u/.local/share/baton"))
        );
        assert_eq!(
            config_dir(&env),
            Some(PathBuf::from("/home/u/.config/baton"))
        );
        assert_eq!(
            state_dir(&env),
            Some(PathBuf::from("/home/u/.local/state/baton"))
        );
    }

    #[test]
    fn claude_dir_takes_an_absolute_config_dir_only() {
        let at = |v: &str| claude_dir(&Env::fixed([("HOME", "/h"), ("CLAUDE_CONFIG_DIR", v)]));
        assert_eq!(at("/cfg"), Some(PathBuf::from("/cfg")));
        for ignored in ["", "rel", "./cfg", "../cfg"] {
            assert_eq!(
                at(ignored),
                Some(PathBuf::from("/h/.claude")),
                "{ignored:?}"
            );
        }
    }

    #[test]
    fn relative_or_empty_values_are_ignored_and_no_home_is_none() {
        let env = Env::fixed([
            ("HOME", "/h"),
            ("XDG_DATA_HOME", "rel"),
            ("XDG_STATE_HOME", ""),
        ]);
        assert_eq!(data_dir(&env), Some(PathBuf::from("/h/.local/share/baton")));
        assert_eq!(
            state_dir(&env),
            Some(PathBuf::from("/h/.local/state/baton"))
        );
        assert_eq!(cache_dir(&Env::fixed::<[(&str, &str); 0], _, _>([])), None);
    }
}
