//! doctor's installation checks: where the plugin is, which baton its hooks run (a build in
//! a checkout, the launcher stub of a marketplace install, or the binary the stub installed),
//! whether that binary is the release the plugin pins, and how to reach baton from a shell.
//! (The stub and its bootstrap are plugin/bin/baton and plugin/install/bootstrap.sh; see
//! docs/install.md.)

use super::{check, Check, Level};
use crate::core::ctx::Ctx;
use crate::core::exec;
use crate::core::fsx;
use crate::core::paths;
use serde_json::Value;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

/// The plugin root: `CLAUDE_PLUGIN_ROOT`; else the nearest ancestor holding
/// `.claude-plugin/plugin.json` of the path baton was started as (a hook or slash command
/// starts `<plugin>/bin/baton`), or of the binary itself; else the installed plugin Claude
/// Code lists in `~/.claude/plugins/installed_plugins.json` (baton run from a shell).
pub(crate) fn plugin_root(ctx: &Ctx, started_as: &[Option<PathBuf>]) -> Option<PathBuf> {
    if let Some(r) = ctx.env.var("CLAUDE_PLUGIN_ROOT") {
        return Some(PathBuf::from(r));
    }
    let from_path = started_as.iter().flatten().find_map(|p| {
        let p = if p.is_absolute() {
            p.clone()
        } else if p.components().count() > 1 {
            ctx.cwd.join(p)
        } else {
            return None; // a bare name, found on PATH: says nothing about where
        };
        p.ancestors()
            .skip(1)
            .find(|d| d.join(".claude-plugin/plugin.json").is_file())
            .map(Path::to_path_buf)
    });
    from_path.or_else(|| installed_plugin(ctx))
}

/// The plugin Claude Code runs for `baton@<any marketplace>`: for a marketplace added from a
/// folder on disk, that folder's plugin, which Claude Code runs in place (its cache copy,
/// the `installPath` it lists, is never run); else the install path it lists.
fn installed_plugin(ctx: &Ctx) -> Option<PathBuf> {
    let plugins = paths::claude_dir(&ctx.env)?.join("plugins");
    let installed = read_json_value(&plugins.join("installed_plugins.json"))?;
    let markets = read_json_value(&plugins.join("known_marketplaces.json"));
    installed
        .get("plugins")?
        .as_object()?
        .iter()
        .filter_map(|(id, installs)| Some((id.strip_prefix("baton@")?, installs)))
        .find_map(|(market, installs)| {
            let in_place = markets
                .as_ref()
                .and_then(|m| local_marketplace_plugin(m, market));
            let listed = installs
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|i| i.get("installPath").and_then(Value::as_str))
                .map(PathBuf::from);
            in_place
                .into_iter()
                .chain(listed)
                .find(|p| p.join(".claude-plugin/plugin.json").is_file())
        })
}

/// The folder of baton's plugin in marketplace `market` when that marketplace is a folder on
/// disk (`claude plugin marketplace add ~/src/baton`): its `source` in the marketplace's
/// `marketplace.json`, below that folder.
fn local_marketplace_plugin(markets: &Value, market: &str) -> Option<PathBuf> {
    let source = markets.get(market)?.get("source")?;
    if source.get("source").and_then(Value::as_str) != Some("directory") {
        return None;
    }
    let folder = PathBuf::from(source.get("path").and_then(Value::as_str)?);
    let listing = read_json_value(&folder.join(".claude-plugin/marketplace.json"))?;
    let rel = listing
        .get("plugins")?
        .as_array()?
        .iter()
        .find(|p| p.get("name").and_then(Value::as_str) == Some("baton"))?
        .get("source")?
        .as_str()?;
    let inside = Path::new(rel)
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    inside.then(|| folder.join(rel))
}

fn read_json_value(path: &Path) -> Option<Value> {
    let text = fsx::read_limited(path, fsx::Limit::STATE).ok()??;
    serde_json::from_str(&text).ok()
}

/// The release target this machine's bootstrap downloads (`install/SHA256SUMS` names it).
pub(crate) fn release_target() -> Option<String> {
    let arch = std::env::consts::ARCH;
    if !matches!(arch, "x86_64" | "aarch64") {
        return None;
    }
    match std::env::consts::OS {
        "linux" => Some(format!("{arch}-unknown-linux-gnu")),
        "macos" => Some(format!("{arch}-apple-darwin")),
        _ => None,
    }
}

/// The folders the launcher stub may run the binary from, in the order it looks
/// (plugin/bin/baton): `CLAUDE_PLUGIN_DATA`, what the bootstrap wrote down in
/// `install/data-dir`, the XDG data folder; then Claude Code's data folders of baton
/// (`plugins/data/baton*`), which a hook gets as `CLAUDE_PLUGIN_DATA` and a shell does not.
fn data_dirs(ctx: &Ctx, plugin: &Path) -> Vec<PathBuf> {
    let written = fsx::read_limited(&plugin.join("install/data-dir"), fsx::Limit::CONFIG)
        .ok()
        .flatten()
        .and_then(|t| t.lines().next().map(|l| PathBuf::from(l.trim())))
        .filter(|p| p.is_absolute());
    let mut out: Vec<PathBuf> = Vec::new();
    let found = paths::plugin_data_dir(&ctx.env)
        .into_iter()
        .chain(written)
        .chain(paths::data_dir(&ctx.env))
        .chain(paths::plugin_data_dirs(&ctx.env));
    for d in found {
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

/// Where the plugin's data folder is: the first of `data_dirs` holding this version's
/// binary, else the first that exists.
fn data_dir(ctx: &Ctx, plugin: &Path) -> Option<PathBuf> {
    let dirs = data_dirs(ctx, plugin);
    let binary = format!("bin/baton-{}", env!("CARGO_PKG_VERSION"));
    dirs.iter()
        .find(|d| is_executable(&d.join(&binary)))
        .or_else(|| dirs.iter().find(|d| d.is_dir()))
        .cloned()
}

/// The last line of the bootstrap's log, if any.
fn last_install_result(data: &Path) -> Option<String> {
    let text = fsx::read_limited(&data.join("bin/install.log"), fsx::Limit::STATE).ok()??;
    text.lines().last().map(str::to_string)
}

/// How to build baton from source (a checkout holding no binary yet).
pub(crate) fn build_fix(plugin: &Path) -> String {
    format!(
        "cd {} && cargo install --locked --path . --root .",
        plugin.display()
    )
}

/// What `bin/baton` is.
enum Found {
    Missing,
    NotExecutable,
    /// The launcher stub of a marketplace install.
    Stub,
    /// A symbolic link to this file (a checkout's build linked in).
    Link(PathBuf),
    /// A binary in place: a checkout's own build, or the one the bootstrap put in the stub's
    /// place.
    Binary,
}

fn inspect(bin: &Path) -> Found {
    let Ok(meta) = std::fs::symlink_metadata(bin) else {
        return Found::Missing;
    };
    if meta.file_type().is_symlink() {
        return match std::fs::canonicalize(bin) {
            Ok(target) if is_executable(&target) => Found::Link(target),
            _ => Found::NotExecutable,
        };
    }
    if !is_executable(bin) {
        return Found::NotExecutable;
    }
    // The stub is a shell script; a binary is not.
    let mut head = [0u8; 2];
    let script = fsx::open_regular(bin).ok().flatten().is_some_and(|mut f| {
        std::io::Read::read_exact(&mut f, &mut head).is_ok() && &head == b"#!"
    });
    if script {
        Found::Stub
    } else {
        Found::Binary
    }
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The `binary` check: what the hooks run, and whether it is in order.
pub(crate) fn binary_check(ctx: &Ctx, plugin: &Path, out: &mut Vec<Check>) {
    let bin = plugin.join("bin/baton");
    let shown = bin.display().to_string();
    let marketplace = plugin.join("install/bootstrap.sh").is_file();
    let reinstall = "reinstall the plugin: claude plugin install baton@baton".to_string();
    let data = data_dir(ctx, plugin);
    match inspect(&bin) {
        // The bootstrap put the binary in the stub's place: is it the pinned release?
        Found::Binary if marketplace => out.push(release_check(plugin, &bin)),
        Found::Binary => out.push(check(Level::Ok, "binary", shown, None)),
        Found::Link(target) => out.push(release_check(plugin, &target)),
        Found::Stub => out.push(stub_check(plugin, data.as_deref())),
        Found::NotExecutable => out.push(check(
            Level::Fail,
            "binary",
            format!("{shown} is not executable"),
            Some(if marketplace {
                reinstall
            } else {
                build_fix(plugin)
            }),
        )),
        Found::Missing => out.push(check(
            Level::Fail,
            "binary",
            format!("{shown} is missing: the hooks cannot run"),
            Some(if marketplace {
                reinstall
            } else {
                build_fix(plugin)
            }),
        )),
    }
}

/// The stub in place: fine when the binary it runs is installed (a git checkout keeps its
/// stub), else the install has not happened yet.
fn stub_check(plugin: &Path, data: Option<&Path>) -> Check {
    let version = env!("CARGO_PKG_VERSION");
    let installed = data.map(|d| d.join(format!("bin/baton-{version}")));
    if let Some(b) = installed.as_deref().filter(|b| is_executable(b)) {
        return check(
            Level::Ok,
            "binary",
            format!("the launcher stub runs {}", b.display()),
            None,
        );
    }
    let last = data
        .and_then(last_install_result)
        .map(|l| format!("; the last install said: {l}"))
        .unwrap_or_default();
    check(
        Level::Fail,
        "binary",
        format!("baton's binary is not installed yet (bin/baton is the launcher stub){last}"),
        Some(format!(
            "start a new Claude Code session (its SessionStart installs it), or install it now: {} --version",
            plugin.join("bin/baton").display()
        )),
    )
}

/// The binary the hooks run (in the stub's place, or a link's target): is it the release the
/// plugin pins?
fn release_check(plugin: &Path, target: &Path) -> Check {
    let shown = target.display().to_string();
    let pinned = release_target()
        .and_then(|t| pinned_sum(plugin, &format!("baton-{}-{t}", env!("CARGO_PKG_VERSION"))));
    let Some(expected) = pinned else {
        return check(
            Level::Ok,
            "binary",
            format!("{shown} (your own build)"),
            None,
        );
    };
    match sha256_of(target) {
        Some(actual) if actual == expected => check(
            Level::Ok,
            "binary",
            format!("{shown}, the release pinned in install/SHA256SUMS"),
            None,
        ),
        Some(_) => check(
            Level::Warn,
            "binary",
            format!(
                "{shown} is not the release binary pinned in install/SHA256SUMS (your own build?)"
            ),
            Some(format!(
                "to use the release: rm '{shown}', then start a new Claude Code session"
            )),
        ),
        None => check(
            Level::Warn,
            "binary",
            format!("{shown}: not checked against install/SHA256SUMS (no sha256sum or shasum)"),
            None,
        ),
    }
}

/// The sha256 that `install/SHA256SUMS` pins for `name`.
fn pinned_sum(plugin: &Path, name: &str) -> Option<String> {
    let text = fsx::read_limited(&plugin.join("install/SHA256SUMS"), fsx::Limit::CONFIG).ok()??;
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once("  "))
        .find(|(_, file)| file.trim_start_matches('*') == name)
        .map(|(sum, _)| sum.to_string())
}

/// The sha256 of `file`, by the same tools the bootstrap uses.
fn sha256_of(file: &Path) -> Option<String> {
    for (tool, args) in [("sha256sum", &[][..]), ("shasum", &["-a", "256"][..])] {
        let mut cmd = exec::command(tool);
        cmd.args(args).arg(file);
        let run = exec::run(cmd, Duration::from_secs(20), true);
        if run.ok() {
            return run.output.split_whitespace().next().map(str::to_string);
        }
    }
    None
}

/// The `on PATH` check: can the user run `baton` in a shell? (Claude Code puts the plugin's
/// bin/ on its Bash tool's PATH, so that entry does not count.)
pub(crate) fn path_check(ctx: &Ctx, plugin: Option<&Path>, out: &mut Vec<Check>) {
    let own = plugin.map(|p| p.join("bin"));
    let path = ctx.env.var("PATH").map(|p| {
        p.split(':')
            .filter(|d| own.as_deref() != Some(Path::new(d)))
            .collect::<Vec<_>>()
            .join(":")
    });
    if let Some(found) = exec::which("baton", path.as_deref()) {
        out.push(check(
            Level::Ok,
            "on PATH",
            format!("baton in a shell is {}", found.display()),
            None,
        ));
        return;
    }
    let target = plugin.and_then(|p| link_target(ctx, p));
    let fix = match target {
        Some(t) => format!(
            "mkdir -p ~/.local/bin && ln -sf '{}' ~/.local/bin/baton   (with ~/.local/bin on your PATH)",
            t.display()
        ),
        None => "cargo install --locked --git https://github.com/baton-dev/baton baton".into(),
    };
    // Not a problem: nothing in Claude Code needs it. An ok line that still says how.
    out.push(check(
        Level::Ok,
        "on PATH",
        "not on your shell's PATH (hooks, slash commands and Claude's Bash tool do not need it); to run baton in a shell",
        Some(fix),
    ));
}

/// What a shell link should point at: the data folder's stable `bin/baton` (it follows plugin
/// updates), else the plugin's own binary.
fn link_target(ctx: &Ctx, plugin: &Path) -> Option<PathBuf> {
    if let Some(stable) = data_dir(ctx, plugin).map(|d| d.join("bin/baton")) {
        if is_executable(&stable) {
            return Some(stable);
        }
    }
    let bin = plugin.join("bin/baton");
    matches!(inspect(&bin), Found::Binary | Found::Link(_)).then_some(bin)
}
