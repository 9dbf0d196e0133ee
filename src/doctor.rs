//! `baton doctor`: is the installation healthy, and if not, what to do. Each check is one
//! line: ok, warn or fail, with the fix. Every problem is listed at once (every config
//! problem with its key). The checks of the installation itself (which baton the hooks run,
//! the pinned release, a shell's PATH) are in `install.rs`.

mod install;

use crate::core::config;
use crate::core::ctx::Ctx;
use crate::core::fsx;
use crate::core::git::{self, GitState};
use crate::core::io;
use crate::core::project::Project;
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Level {
    Ok,
    Warn,
    Fail,
}

/// One line of the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Check {
    pub(crate) level: Level,
    pub(crate) name: &'static str,
    pub(crate) detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) fix: Option<String>,
}

fn check(
    level: Level,
    name: &'static str,
    detail: impl Into<String>,
    fix: Option<String>,
) -> Check {
    Check {
        level,
        name,
        detail: detail.into(),
        fix,
    }
}

/// The events hooks.json must register, and whether each must use the exec form (no shell
/// on the tool-call path).
const REQUIRED_HOOKS: &[(&str, bool)] = &[
    ("SessionStart", false),
    ("UserPromptSubmit", true),
    ("PreToolUse", true),
    ("PostToolUse", true),
    ("PostToolUseFailure", true),
    ("PreCompact", true),
    ("PostCompact", true),
    ("Stop", true),
    ("SessionEnd", true),
];

/// Runs `baton doctor` (`fix`: with `--fix`); exit 1 when a check failed.
pub(crate) fn run(project: &Project, json: bool, fix: bool) -> i32 {
    // How baton was started says where the plugin is (`<plugin>/bin/baton`, a link when the
    // bootstrap installed the binary); the binary's own path, after that.
    let started_as = std::env::args_os().next().map(PathBuf::from);
    let exe = std::env::current_exe().ok();
    let plugin = install::plugin_root(&project.ctx, &[started_as, exe]);
    let mut checks = run_checks(&project.ctx, &project.root, plugin.as_deref());
    team_checks(project, fix, &mut checks);
    if json {
        io::print_json(&serde_json::json!({ "checks": checks }));
    } else {
        io::print(&render(&checks));
    }
    i32::from(checks.iter().any(|c| c.level == Level::Fail))
}

/// Runs every check.
pub(crate) fn run_checks(ctx: &Ctx, root: &Path, plugin: Option<&Path>) -> Vec<Check> {
    let mut out = Vec::new();
    match plugin {
        Some(p) => plugin_checks(ctx, p, &mut out),
        None => out.push(check(
            Level::Warn,
            "plugin",
            "plugin root not found (not run from the plugin, and CLAUDE_PLUGIN_ROOT is unset)",
            Some("run the plugin's own bin/baton doctor, or set CLAUDE_PLUGIN_ROOT".into()),
        )),
    }
    install::path_check(ctx, plugin, &mut out);
    project_checks(ctx, root, &mut out);
    out
}

/// The merge rules a team's clones need (docs/bridge.md and docs/relay.md, "Teams"): one
/// line per folder that has state, a warning with the fix when rules are missing; with
/// `fix`, they are written first (and the line says to commit them).
fn team_checks(project: &Project, fix: bool, out: &mut Vec<Check>) {
    type Problems = fn(&Project) -> Vec<String>;
    type Fix = fn(&Project) -> crate::core::error::Result<Vec<String>>;
    let folders: [(&'static str, &std::path::Path, Problems, Fix); 2] = [
        (
            "bridge merge",
            &project.config().paths.bridge,
            crate::bridge::merge_rule_problems,
            crate::bridge::fix_merge_rules,
        ),
        (
            "relay merge",
            &project.config().paths.relay,
            crate::relay::merge_rule_problems,
            crate::relay::fix_merge_rules,
        ),
    ];
    for (name, dir, problems, write) in folders {
        let mut found = problems(project);
        let mut wrote = Vec::new();
        if fix && !found.is_empty() {
            match write(project) {
                Ok(w) => wrote = w,
                Err(e) => out.push(check(Level::Fail, name, e.to_string(), None)),
            }
            found = problems(project);
        }
        if !wrote.is_empty() {
            let files = wrote.join(" ");
            out.push(check(
                Level::Ok,
                name,
                format!("wrote {files}"),
                Some(format!(
                    "commit it so every clone merges alike: `git add {files} && git commit -m 'chore: baton merge rules'`"
                )),
            ));
        }
        if found.is_empty() {
            if wrote.is_empty() && project.path(dir).is_dir() {
                out.push(check(
                    Level::Ok,
                    name,
                    format!("{}/ merges cleanly between clones", dir.display()),
                    None,
                ));
            }
            continue;
        }
        out.push(check(
            Level::Warn,
            name,
            found.join("; "),
            Some("run `baton doctor --fix` (it writes the rules), then commit them".into()),
        ));
    }
}

/// The user's regexes, compiled: the config check on the hook path only parses them (a
/// pattern can parse and still not compile, e.g. past the size limit), and a pattern that
/// does not compile is skipped where it is used.
fn pattern_checks(c: &config::Config, out: &mut Vec<Check>) {
    let lists = [
        ("redact.extra_patterns", &c.redact.extra_patterns, false),
        (
            "audit.correction_patterns",
            &c.audit.correction_patterns,
            true,
        ),
        ("audit.request_patterns", &c.audit.request_patterns, true),
    ];
    for (key, patterns, case_insensitive) in lists {
        if patterns.is_empty() {
            continue;
        }
        let failed: Vec<String> = patterns
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                regex::RegexBuilder::new(p)
                    .case_insensitive(case_insensitive)
                    .build()
                    .err()
                    .map(|e| {
                        format!(
                            "{key}[{i}]: {}",
                            crate::core::text::one_line(&e.to_string())
                        )
                    })
            })
            .collect();
        if failed.is_empty() {
            out.push(check(
                Level::Ok,
                "patterns",
                format!("{key}: {} compile", patterns.len()),
                None,
            ));
        } else {
            out.push(check(
                Level::Fail,
                "patterns",
                failed.join("; "),
                Some(format!(
                    "fix or remove the pattern in `{key}`; until then it is skipped"
                )),
            ));
        }
    }
}

fn plugin_checks(ctx: &Ctx, plugin: &Path, out: &mut Vec<Check>) {
    install::binary_check(ctx, plugin, out);
    plugin_json_check(plugin, out);
    marketplace_check(plugin, out);
    hooks_json_check(plugin, out);
}

/// The path to read the plugin's file `rel` from. A link is followed only where the
/// repository ships one: it resolves inside the folder that holds the plugin (a marketplace
/// added from a folder runs `plugin/` in place, where `.claude-plugin/plugin.json` links to
/// the repository's own). Any other link is refused, as everywhere in baton.
fn plugin_file(plugin: &Path, rel: &str) -> Result<PathBuf, String> {
    let path = plugin.join(rel);
    if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Ok(path);
    }
    let target = std::fs::canonicalize(&path)
        .map_err(|e| format!("{}: a link that does not resolve ({e})", path.display()))?;
    let repository = plugin.parent().and_then(|p| std::fs::canonicalize(p).ok());
    match repository {
        Some(r) if target.starts_with(&r) => Ok(target),
        _ => Err(format!(
            "{} links to {}, outside the plugin's repository; baton does not follow it",
            path.display(),
            target.display()
        )),
    }
}

fn plugin_json_check(plugin: &Path, out: &mut Vec<Check>) {
    match plugin_file(plugin, ".claude-plugin/plugin.json").and_then(|p| read_json(&p)) {
        Ok(v) => {
            let version = v.get("version").and_then(Value::as_str).unwrap_or("");
            if v.get("name").and_then(Value::as_str) != Some("baton") {
                out.push(check(
                    Level::Fail,
                    "plugin.json",
                    "name is not \"baton\"",
                    Some("restore .claude-plugin/plugin.json from the repository".into()),
                ));
            } else if version != env!("CARGO_PKG_VERSION") {
                out.push(check(
                    Level::Warn,
                    "plugin.json",
                    format!(
                        "plugin version {version} differs from this binary's {}",
                        env!("CARGO_PKG_VERSION")
                    ),
                    Some(if plugin.join("install/bootstrap.sh").is_file() {
                        "start a new Claude Code session: its SessionStart installs this plugin version's binary".into()
                    } else {
                        install::build_fix(plugin)
                    }),
                ));
            } else {
                out.push(check(
                    Level::Ok,
                    "plugin.json",
                    format!("baton {version}"),
                    None,
                ));
            }
        }
        Err(e) => out.push(check(
            Level::Fail,
            "plugin.json",
            e,
            Some("restore .claude-plugin/plugin.json from the repository".into()),
        )),
    }
}

fn marketplace_check(plugin: &Path, out: &mut Vec<Check>) {
    // Only a repository that is its own marketplace has the file; an installed plugin
    // (Claude Code's copy of plugin/) does not need it.
    let path = plugin.join(".claude-plugin/marketplace.json");
    if !path.exists() {
        return;
    }
    match read_json(&path) {
        Ok(_) => out.push(check(Level::Ok, "marketplace.json", "valid JSON", None)),
        Err(e) => out.push(check(
            Level::Warn,
            "marketplace.json",
            e,
            Some("only needed to install through a marketplace".into()),
        )),
    }
}

fn hooks_json_check(plugin: &Path, out: &mut Vec<Check>) {
    match plugin_file(plugin, "hooks/hooks.json").and_then(|p| read_json(&p)) {
        Ok(v) => {
            let problems = hooks_problems(&v);
            if problems.is_empty() {
                out.push(check(
                    Level::Ok,
                    "hooks.json",
                    format!("{} events wired to bin/baton", REQUIRED_HOOKS.len()),
                    None,
                ));
            } else {
                out.push(check(
                    Level::Fail,
                    "hooks.json",
                    problems.join("; "),
                    Some("restore hooks/hooks.json from the repository".into()),
                ));
            }
        }
        Err(e) => out.push(check(
            Level::Fail,
            "hooks.json",
            e,
            Some("restore hooks/hooks.json from the repository".into()),
        )),
    }
}

/// What is wrong with a hooks.json value.
fn hooks_problems(v: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    for (event, exec_form) in REQUIRED_HOOKS {
        let Some(groups) = v
            .pointer(&format!("/hooks/{event}"))
            .and_then(Value::as_array)
        else {
            problems.push(format!("{event} is not registered"));
            continue;
        };
        let hooks: Vec<&Value> = groups
            .iter()
            .filter_map(|g| g.get("hooks").and_then(Value::as_array))
            .flatten()
            .collect();
        if hooks.is_empty() {
            problems.push(format!("{event} has no hook"));
        }
        for h in hooks {
            if !h.get("timeout").is_some_and(Value::is_number) {
                problems.push(format!("{event} has no timeout in seconds"));
            }
            let command = h.get("command").and_then(Value::as_str).unwrap_or("");
            if !command.contains("bin/baton") {
                problems.push(format!("{event} does not run bin/baton"));
            }
            if *exec_form && h.get("args").is_none() {
                problems.push(format!(
                    "{event} starts a shell (use the exec form: command + args)"
                ));
            }
        }
    }
    problems
}

fn project_checks(ctx: &Ctx, root: &Path, out: &mut Vec<Check>) {
    out.push(check(
        Level::Ok,
        "project",
        root.display().to_string(),
        None,
    ));
    match git::state(root) {
        Ok(GitState::Repo(r)) => out.push(check(
            Level::Ok,
            "git",
            format!(
                "branch {}, HEAD {}",
                r.branch.as_deref().unwrap_or("(detached)"),
                r.head_sha
                    .as_deref()
                    .map_or("(no commits yet)", |s| &s[..s.len().min(12)])
            ),
            None,
        )),
        Ok(GitState::NoGit) => out.push(check(
            Level::Warn,
            "git",
            "not a git repository: relay and bridge will not commit their state",
            Some("git init".into()),
        )),
        Err(e) => out.push(check(Level::Warn, "git", e.to_string(), None)),
    }

    let loaded = config::load(ctx, root);
    if loaded.problems.is_empty() {
        let from = if loaded.sources.is_empty() {
            "defaults (no config file)".to_string()
        } else {
            loaded
                .sources
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push(check(Level::Ok, "config", from, None));
    } else {
        for p in &loaded.problems {
            out.push(check(
                Level::Fail,
                "config",
                p.to_string(),
                Some("fix the key named above; hooks run on defaults until then".into()),
            ));
        }
    }

    out.extend(loaded.ignored.iter().map(|line| {
        let fix = "move the key to your own config file if you mean it (docs/configuration.md)";
        check(Level::Warn, "config", line.clone(), Some(fix.into()))
    }));
    let c = &loaded.config;
    pattern_checks(c, out);
    for (name, dir) in [
        ("relay dir", &c.paths.relay),
        ("audit dir", &c.paths.audit),
        ("handoff dir", &c.paths.handoff),
        ("bridge dir", &c.paths.bridge),
    ] {
        let path = root.join(dir);
        match writable(&path) {
            Ok(()) => out.push(check(
                Level::Ok,
                name,
                format!("{}/ writable", dir.display()),
                None,
            )),
            Err(e) => out.push(check(
                Level::Fail,
                name,
                format!("{}/ is not writable: {e}", dir.display()),
                Some(format!("fix the permissions of {}", path.display())),
            )),
        }
    }
}

/// Whether baton could create files in `dir` (or, when it does not exist yet, in the nearest
/// existing ancestor, where it would be created).
fn writable(dir: &Path) -> Result<(), String> {
    if std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err("it is a symlink; baton does not follow it".into());
    }
    let existing = dir
        .ancestors()
        .find(|d| d.exists())
        .ok_or_else(|| "no existing parent".to_string())?;
    let probe = existing.join(format!(".baton-doctor-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = match fsx::read_limited(path, fsx::Limit::STATE) {
        Ok(Some(text)) => text,
        Ok(None) => return Err(format!("{}: missing", path.display())),
        Err(e) => return Err(e.to_string()),
    };
    serde_json::from_str(&text).map_err(|e| format!("{}: invalid JSON: {e}", path.display()))
}

/// The report as text.
pub(crate) fn render(checks: &[Check]) -> String {
    let mut out = String::new();
    for c in checks {
        let tag = match c.level {
            Level::Ok => "ok  ",
            Level::Warn => "warn",
            Level::Fail => "FAIL",
        };
        out.push_str(&format!("{tag} {:<16} {}", c.name, c.detail));
        if let Some(fix) = &c.fix {
            out.push_str(&format!("\n     {:<16} fix: {fix}", ""));
        }
        out.push('\n');
    }
    let fails = checks.iter().filter(|c| c.level == Level::Fail).count();
    let warns = checks.iter().filter(|c| c.level == Level::Warn).count();
    out.push_str(&match (fails, warns) {
        (0, 0) => "baton is healthy.\n".to_string(),
        (0, w) => format!("baton works; {w} warning(s) above.\n"),
        (f, _) => format!("{f} problem(s) above need fixing.\n"),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_problems_catch_shell_form_and_missing_timeout() {
        let v: Value = serde_json::from_str(
            r#"{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","command":"sh -c 'bin/baton hook'"}]}]}}"#,
        )
        .unwrap();
        let p = hooks_problems(&v).join("\n");
        assert!(p.contains("PostToolUse has no timeout"), "{p}");
        assert!(p.contains("PostToolUse starts a shell"), "{p}");
        assert!(p.contains("SessionStart is not registered"), "{p}");
    }

    /// The hook path only parses the user's patterns; doctor compiles them, so a pattern that
    /// parses but does not compile (past the size limit) is named there.
    #[test]
    fn issue_15_doctor_compiles_the_users_patterns() {
        let mut c = config::Config::default();
        c.redact.extra_patterns = vec!["internal-[0-9]+".into(), r"\w{5000}".into()];
        assert!(crate::core::scan::needles::parses(r"\w{5000}").is_ok());
        let mut out = Vec::new();
        pattern_checks(&c, &mut out);
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0].level, Level::Fail);
        assert!(
            out[0].detail.starts_with("redact.extra_patterns[1]: "),
            "{out:?}"
        );
        c.redact.extra_patterns.pop();
        c.audit.correction_patterns = vec!["^nope".into()];
        let mut out = Vec::new();
        pattern_checks(&c, &mut out);
        assert!(out.iter().all(|c| c.level == Level::Ok), "{out:?}");
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn the_shipped_hooks_json_passes() {
        let text = include_str!("../hooks/hooks.json");
        let v: Value = serde_json::from_str(text).unwrap();
        assert_eq!(hooks_problems(&v), Vec::<String>::new());
    }
}
