//! Where baton keeps what belongs to the user rather than to a project: the XDG base
//! directories (an empty variable counts as unset, as the spec says) and Claude Code's
//! per-plugin data folder. Each takes the environment from `Env`, so tests pin them.

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
mod tests {
    use super::*;

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
