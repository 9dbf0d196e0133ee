//! The context every command and handler runs in: environment, clock and working directory.
//! Code below `run` reads these through `Ctx`, never from `std::env` directly, so tests can
//! build a `Ctx` by hand.

use super::clock::Clock;
use std::collections::HashMap;
use std::path::PathBuf;

/// Environment variables, either the process's own or a fixed map (tests).
#[derive(Debug, Clone, Default)]
pub struct Env {
    fixed: Option<HashMap<String, String>>,
}

impl Env {
    /// The process environment.
    pub fn process() -> Self {
        Env { fixed: None }
    }

    /// A fixed environment holding only `vars`.
    pub fn fixed<I, K, V>(vars: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        Env {
            fixed: Some(
                vars.into_iter()
                    .map(|(k, v)| (k.into(), v.into()))
                    .collect(),
            ),
        }
    }

    /// The value of `key`; an empty value counts as unset.
    #[allow(clippy::disallowed_methods)] // the one place baton reads its environment
    pub fn var(&self, key: &str) -> Option<String> {
        let value = match &self.fixed {
            Some(map) => map.get(key).cloned(),
            None => std::env::var(key).ok(),
        };
        value.filter(|v| !v.is_empty())
    }
}

/// Environment, clock and working directory of one baton invocation.
#[derive(Debug, Clone)]
pub struct Ctx {
    /// Environment variables.
    pub env: Env,
    /// Time and randomness.
    pub clock: Clock,
    /// The process's working directory.
    pub cwd: PathBuf,
}

impl Ctx {
    /// The context of the running process.
    pub fn from_process() -> Self {
        let env = Env::process();
        let clock = Clock::from_env_value(env.var("BATON_NOW").as_deref());
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        Ctx { env, clock, cwd }
    }

    /// A context for tests.
    pub fn for_test(env: Env, clock: Clock, cwd: PathBuf) -> Self {
        Ctx { env, clock, cwd }
    }
}
