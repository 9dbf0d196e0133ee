//! Configuration: optional `.claude/baton.yaml` in the project, over an optional user file
//! `$XDG_CONFIG_HOME/baton/config.yaml`; `BATON_CONFIG` names another project-level file.
//!
//! Every key has a default (the `Default` impls below are the only place defaults live). An
//! unknown key or a bad value is an error that names the key; the hook path then runs on the
//! defaults and says so in one line, `baton doctor` reports it and exits 1.

use super::ctx::Ctx;
use super::error::Error;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Where the project config lives, relative to the project root.
pub const PROJECT_CONFIG: &str = ".claude/baton.yaml";

/// The whole configuration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The one budget for everything baton injects into the model's context in one event.
    pub context_budget_chars: usize,
    /// Where each subsystem keeps its state, relative to the project root.
    pub paths: Paths,
    /// Relay settings.
    pub relay: Relay,
    /// Audit settings.
    pub audit: Audit,
    /// Handoff settings.
    pub handoff: Handoff,
    /// Bridge settings.
    pub bridge: Bridge,
    /// Capture settings (the session digest read from Claude Code's transcript).
    pub capture: Capture,
    /// Extra redaction rules.
    pub redact: Redact,
    /// Keep state in a project folder that is not inside a git work tree (by default baton
    /// creates nothing there: no `.boo/`, no `.rune/` in a plain folder).
    pub state_outside_git: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            context_budget_chars: 8_000,
            paths: Paths::default(),
            relay: Relay::default(),
            audit: Audit::default(),
            handoff: Handoff::default(),
            bridge: Bridge::default(),
            capture: Capture::default(),
            redact: Redact::default(),
            state_outside_git: false,
        }
    }
}

/// State directories, relative to the project root.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Paths {
    /// The relay's packets and loop state.
    pub relay: PathBuf,
    /// The audit trail.
    pub audit: PathBuf,
    /// Handoff artefacts.
    pub handoff: PathBuf,
    /// The bridge's project memory.
    pub bridge: PathBuf,
}

impl Default for Paths {
    fn default() -> Self {
        Paths {
            relay: PathBuf::from(".handoff"),
            audit: PathBuf::from(".boo"),
            handoff: PathBuf::from("datarim/sessions"),
            bridge: PathBuf::from(".rune"),
        }
    }
}

impl Paths {
    /// The four folders with their keys.
    fn named(&self) -> [(&'static str, &PathBuf); 4] {
        [
            ("paths.relay", &self.relay),
            ("paths.audit", &self.audit),
            ("paths.handoff", &self.handoff),
            ("paths.bridge", &self.bridge),
        ]
    }

    /// A state folder is baton's alone, below the root: `baton clean` removes it and hooks
    /// write into it, so it may not be the project root, git's folder, Claude Code's settings
    /// folder, or another state folder (or inside one). A folder that holds files git tracks
    /// is refused where that is known (`baton clean`).
    fn check(&self) -> std::result::Result<(), String> {
        use std::path::Component;
        let mut seen: Vec<(&str, Vec<String>)> = Vec::new();
        for (name, p) in self.named() {
            // A folder's name is shown to the model (SessionStart names the state folders) and
            // may come from the repository: plain characters only, and a name that is not
            // plain is not repeated.
            let plain = p.to_str().is_some_and(|t| {
                t.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'/'))
            });
            if !plain {
                return Err(format!(
                    "key `{name}`: must be a folder path of letters, digits, '.', '_', '-' and '/' (the value is not repeated: it may come from the repository)"
                ));
            }
            let bad = |why: &str| Err(format!("key `{name}`: {} {why}", p.display()));
            if p.is_absolute()
                || p.components()
                    .any(|c| matches!(c, Component::ParentDir | Component::Prefix(_)))
            {
                return bad("must be a relative path inside the project");
            }
            // Compared without case: on a file system that ignores it, `.Git` is `.git`.
            let parts: Vec<String> = p
                .components()
                .filter_map(|c| match c {
                    Component::Normal(n) => Some(n.to_string_lossy().to_ascii_lowercase()),
                    _ => None,
                })
                .collect();
            if parts.is_empty() {
                return bad("names the project root itself: a state folder must be a folder of its own inside it");
            }
            if parts.iter().any(|c| c == ".git") {
                return bad("is in git's own folder (.git): baton never keeps state there");
            }
            if parts[0] == ".claude" {
                return bad(
                    "is in Claude Code's settings folder (.claude): baton never keeps state there",
                );
            }
            if let Some((other, _)) = seen.iter().find(|(_, o)| {
                let n = o.len().min(parts.len());
                o[..n] == parts[..n]
            }) {
                return bad(&format!(
                    "is the folder of `{other}` or shares one with it: each state folder is its own"
                ));
            }
            seen.push((name, parts));
        }
        Ok(())
    }

    /// A private state folder (`paths.audit`, `paths.handoff`, unless made shared) moved onto
    /// a folder that already exists and holds no file baton wrote there (its untracked
    /// `.gitignore`): a problem (hooks run on the defaults). A hook only ever creates a moved
    /// folder: writing baton's mark into a folder that was there before would make it look
    /// like baton's own, and `baton clean` would remove the user's files with it (a config
    /// comes with a clone or a teammate's commit, and may name any folder). Looked at only
    /// for a moved folder that exists: the common case reads nothing.
    fn moved_onto_a_folder_not_batons(
        &self,
        root: &Path,
        config: &Config,
        file: &Path,
    ) -> Option<Error> {
        for (name, rel, shared) in [
            ("paths.audit", &self.audit, config.audit.shared),
            ("paths.handoff", &self.handoff, config.handoff.shared),
        ] {
            let dir = root.join(rel);
            if shared || Paths::is_default(name, rel) || std::fs::symlink_metadata(&dir).is_err() {
                continue;
            }
            let marked = dir.is_dir()
                && super::fsx::batons_mark(&dir)
                    .is_some_and(|m| !super::git::is_tracked(root, &rel.join(m)));
            if marked {
                continue;
            }
            let why = super::git::tracked_under(root, rel).map_or_else(
                || "already exists and holds no file baton wrote there (an untracked .gitignore of baton's): baton keeps private state only in a folder it made".to_string(),
                |tracked| format!("holds files git tracks ({tracked}): a private state folder must be a folder of baton's own"),
            );
            return Some(Error::Config {
                path: file.to_path_buf(),
                message: format!("key `{name}`: {} {why}", rel.display()),
            });
        }
        None
    }

    /// Whether `rel`, the configured folder of the key `name`, is that key's default.
    pub fn is_default(name: &str, rel: &Path) -> bool {
        Paths::default()
            .named()
            .iter()
            .any(|(n, d)| *n == name && d.as_path() == rel)
    }
}

/// Relay settings.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Relay {
    /// Whether the relay's hooks run.
    pub enabled: bool,
    /// Cycles per session before the relay hands off. Used when `loop_state.md` has no
    /// `cycle_budget` line yet (and written there); the file's value governs a running loop.
    pub cycle_budget: u32,
    /// Seconds `baton relay resume` lets `verify-on-resume.sh` run before it kills the
    /// script's process group and counts the run as a failure.
    pub verify_timeout_secs: u64,
    /// Bootstrap hazard: when the last commit touched a file with one of these names (or
    /// paths), the `weave send` heartbeat is skipped.
    pub hazard_paths: Vec<String>,
    /// Milliseconds the best-effort `weave send` heartbeat may take before it is killed.
    pub heartbeat_timeout_ms: u64,
    /// The prompt a session hands the next one (the wake-up prompt): a slash command. `{packet}`
    /// stands for the packet's path; without it, ` from <path>` is added when the packet is
    /// not at its default place. A weave harness of your own: `/weave-loop resume from {packet}`.
    pub wake_prompt: String,
}

impl Relay {
    /// Range checks of the `relay:` keys; the error names the key.
    fn check(&self) -> std::result::Result<(), String> {
        if self.cycle_budget == 0 {
            return Err("key `relay.cycle_budget`: must be at least 1".into());
        }
        if !(1..=86_400).contains(&self.verify_timeout_secs) {
            return Err(format!(
                "key `relay.verify_timeout_secs`: {} is out of range (1 to 86400)",
                self.verify_timeout_secs
            ));
        }
        if !(50..=10_000).contains(&self.heartbeat_timeout_ms) {
            return Err(format!(
                "key `relay.heartbeat_timeout_ms`: {} is out of range (50 to 10000; the Stop hook has 15 s in all)",
                self.heartbeat_timeout_ms
            ));
        }
        if !wake_prompt_is_plain(&self.wake_prompt) {
            return Err(
                "key `relay.wake_prompt`: must be a plain slash command, optionally followed by ` resume` and ` from {packet}`, like /baton:session-relay resume (the value is not repeated: it may come from the repository)".to_string(),
            );
        }
        if let Some((i, _)) = self
            .hazard_paths
            .iter()
            .enumerate()
            .find(|(_, p)| p.trim().is_empty())
        {
            return Err(format!(
                "key `relay.hazard_paths[{i}]`: must be a file name or path, not empty"
            ));
        }
        Ok(())
    }
}

/// Whether `cmd` is a plain slash command: `/` then letters, digits, ':', '.', '_', '-'.
/// Words after the name could carry an instruction from whoever wrote the config.
fn is_plain_slash_command(cmd: &str) -> bool {
    cmd.len() >= 2
        && cmd.starts_with('/')
        && cmd
            .bytes()
            .skip(1)
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b':' | b'.' | b'_' | b'-'))
}

/// Whether `prompt` is a wake-up prompt baton will hand the model: a plain slash command,
/// then optionally ` resume`, then optionally ` from {packet}`. It becomes the next
/// session's first prompt and may come from the repository's config, so it holds no free
/// text (an instruction there would reach the model as the user's words).
fn wake_prompt_is_plain(prompt: &str) -> bool {
    let rest = prompt.trim();
    let rest = rest.strip_suffix(" from {packet}").unwrap_or(rest);
    let rest = rest.strip_suffix(" resume").unwrap_or(rest);
    is_plain_slash_command(rest)
}

impl Default for Relay {
    fn default() -> Self {
        Relay {
            enabled: true,
            cycle_budget: 5,
            verify_timeout_secs: 300,
            hazard_paths: ["mcp.rs", "store.rs", "inject.rs", "setup.rs"]
                .into_iter()
                .map(String::from)
                .collect(),
            heartbeat_timeout_ms: 2_000,
            wake_prompt: "/baton:session-relay resume".into(),
        }
    }
}

/// Audit settings.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Audit {
    /// Whether the audit's hooks run.
    pub enabled: bool,
    /// Start an `adhoc_…` session on the first event when none is current.
    pub auto_start: bool,
    /// Commit the audit trail with the repository (default: kept out of git).
    pub shared: bool,
    /// More regexes (case-insensitive) that mark a prompt as a correction of the agent, on
    /// top of the built-in rules (`core::correction`); none by default.
    pub correction_patterns: Vec<String>,
    /// Regexes (case-insensitive) that mark a prompt as an ordinary request even when the
    /// built-in rules or a correction pattern take it for a correction; none by default.
    pub request_patterns: Vec<String>,
    /// A session open longer than this many hours is flagged in the daily report.
    pub long_session_hours: u32,
    /// A file edited more than this many times in a day is flagged in the daily report.
    pub hot_file_edits: u32,
}

impl Audit {
    /// Range checks of the `audit:` keys; the error names the key.
    fn check(&self) -> std::result::Result<(), String> {
        // This runs on every hook: the user's patterns are parsed, not compiled (compiling
        // cost half a millisecond each); `baton doctor` compiles them.
        for (key, patterns) in [
            ("correction_patterns", &self.correction_patterns),
            ("request_patterns", &self.request_patterns),
        ] {
            for (i, pattern) in patterns.iter().enumerate() {
                if let Err(e) = super::scan::needles::parses(pattern) {
                    return Err(format!("key `audit.{key}[{i}]`: invalid regex: {e}"));
                }
            }
        }
        if self.long_session_hours == 0 {
            return Err("key `audit.long_session_hours`: must be at least 1".into());
        }
        if self.hot_file_edits == 0 {
            return Err("key `audit.hot_file_edits`: must be at least 1".into());
        }
        Ok(())
    }
}

impl Default for Audit {
    fn default() -> Self {
        Audit {
            enabled: true,
            auto_start: true,
            shared: false,
            correction_patterns: Vec::new(),
            request_patterns: Vec::new(),
            long_session_hours: 8,
            hot_file_edits: 10,
        }
    }
}

/// Handoff settings.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Handoff {
    /// Whether the handoff's hooks run.
    pub enabled: bool,
    /// Commit handoff artefacts with the repository (default: kept out of git).
    pub shared: bool,
    /// PreCompact with `trigger: auto` writes a minimal artefact, so an unplanned compaction
    /// still leaves a handoff.
    pub auto_save_on_compact: bool,
    /// The slash command that resumes a saved session, as printed in the resume block and at
    /// SessionStart (`/dr-continue` for datarim's own command).
    pub resume_command: String,
    /// `baton handoff stale-runtime`: globs of shipped files whose change makes other
    /// installs stale. `*` stays inside one path segment, `**` crosses segments; a glob
    /// matches at any depth (`scripts/lib/*.sh` also matches `a/scripts/lib/x.sh`).
    pub stale_runtime_globs: Vec<String>,
}

impl Handoff {
    /// Range checks of the `handoff:` keys; the error names the key.
    fn check(&self) -> std::result::Result<(), String> {
        let cmd = &self.resume_command;
        if !is_plain_slash_command(cmd) {
            return Err(
                "key `handoff.resume_command`: must be a plain slash command (letters, digits, ':', '.', '_', '-'), like /baton:dr-continue (the value is not repeated: it may come from the repository)".to_string(),
            );
        }
        for (i, glob) in self.stale_runtime_globs.iter().enumerate() {
            if glob.trim().is_empty() || glob.starts_with('/') {
                return Err(format!(
                    "key `handoff.stale_runtime_globs[{i}]`: {glob:?} must be a non-empty path glob relative to the repository"
                ));
            }
        }
        Ok(())
    }
}

impl Default for Handoff {
    fn default() -> Self {
        Handoff {
            enabled: true,
            shared: false,
            auto_save_on_compact: true,
            resume_command: "/baton:dr-continue".into(),
            stale_runtime_globs: vec!["scripts/lib/*.sh".into(), "skills/*/SKILL.md".into()],
        }
    }
}

/// Bridge settings.
// Independent switches, each a key of its own (and one flag `load` sets): not a state machine.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bridge {
    /// Whether the bridge's hooks run.
    pub enabled: bool,
    /// Commit `.rune/` after a save.
    pub commit: bool,
    /// The integrity verdict from which a memory file is not injected at session start.
    pub integrity_block_on: IntegrityBlockOn,
    /// Committer emails whose commits count as reviewed: a memory entry baton did not
    /// write itself is trusted when git blame says one of them committed it.
    pub trusted_committers: Vec<String>,
    /// Promote instincts seen in two projects to every project without asking (by
    /// default a promotion waits for `baton bridge global accept`).
    pub auto_promote: bool,
    /// Set by `load`, not a key of its own: a config file of the project's (not the user's own
    /// file, which applies to every project) says `bridge.enabled: true`, so the hooks may
    /// create the bridge's folder in a project that has none yet.
    #[serde(skip)]
    pub opted_in: bool,
}

/// `bridge.integrity_block_on`: the integrity verdict from which a memory file is kept out of
/// the model's context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IntegrityBlockOn {
    /// Only TAINTED files are kept out; SUSPICIOUS ones are injected under a warning.
    Tainted,
    /// SUSPICIOUS files are kept out too.
    Suspicious,
}

impl Default for Bridge {
    fn default() -> Self {
        Bridge {
            enabled: true,
            commit: true,
            integrity_block_on: IntegrityBlockOn::Tainted,
            trusted_committers: Vec::new(),
            auto_promote: false,
            opted_in: false,
        }
    }
}

/// Capture settings: the digest baton keeps of each Claude Code session, read from Claude
/// Code's own transcript and task list (private to the user, outside the repository).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Capture {
    /// Whether the capture's hooks run (Stop, PreCompact and SessionEnd update the digest;
    /// SessionStart shows where the last session left off).
    pub enabled: bool,
    /// Digests kept per project; the least recently updated ones beyond this are removed.
    pub keep_sessions: usize,
    /// The most characters of the SessionStart section "Where the last session left off".
    pub section_chars: usize,
}

impl Capture {
    /// Range checks of the `capture:` keys; the error names the key.
    fn check(&self) -> std::result::Result<(), String> {
        if !(1..=1_000).contains(&self.keep_sessions) {
            return Err(format!(
                "key `capture.keep_sessions`: {} is out of range (1 to 1000)",
                self.keep_sessions
            ));
        }
        if !(300..=4_000).contains(&self.section_chars) {
            return Err(format!(
                "key `capture.section_chars`: {} is out of range (300 to 4000)",
                self.section_chars
            ));
        }
        Ok(())
    }
}

impl Default for Capture {
    fn default() -> Self {
        Capture {
            enabled: true,
            keep_sessions: 50,
            section_chars: 1_200,
        }
    }
}

/// Redaction settings.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Redact {
    /// More regular expressions whose matches are replaced by `[REDACTED]`.
    pub extra_patterns: Vec<String>,
}

/// The configuration in force and where it came from.
#[derive(Debug)]
pub struct Effective {
    /// The effective configuration (the defaults when a file was invalid).
    pub config: Config,
    /// The files that were read, weakest first.
    pub sources: Vec<PathBuf>,
    /// Problems found; when not empty, `config` holds the defaults.
    pub problems: Vec<Error>,
    /// Keys that widen trust found in a file that is not the user's own (`TRUST_KEYS`):
    /// ignored, each named once here (`config <file>: key `…` …`).
    pub ignored: Vec<String>,
}

/// The keys that widen trust: who counts as a reviewer, and whether memory spreads to every
/// project without the user. Only the user's own config file may set them: a file in the
/// repository (`.claude/baton.yaml`, or the one `BATON_CONFIG` names) comes with a clone or a
/// teammate's commit, and would let whoever wrote it vouch for their own memory.
pub const TRUST_KEYS: &[(&str, &str)] = &[
    ("bridge", "trusted_committers"),
    ("bridge", "auto_promote"),
    ("bridge", "integrity_block_on"),
    // Shared: the trail or the artefacts are committed (no private `.gitignore`), and recall
    // takes a teammate's records there for the user's own.
    ("audit", "shared"),
    ("handoff", "shared"),
];

/// Whether `value` of the trust key `table.key` widens trust. `integrity_block_on` may be
/// made stricter by the project (`suspicious`), never looser than the user's own setting:
/// `tainted`, the loosest, is the user's to set.
fn widens(table: &str, key: &str, value: &serde_yaml_ng::Value) -> bool {
    match (table, key) {
        ("bridge", "integrity_block_on") => value.as_str() != Some("suspicious"),
        ("audit" | "handoff", "shared") => value.as_bool() != Some(false),
        _ => true,
    }
}

/// Takes the keys that widen trust out of `value`, read from `file` (not the user's own), and
/// says which were there.
fn strip_trust_keys(file: &Path, value: &mut serde_yaml_ng::Value) -> Vec<String> {
    let mut out = Vec::new();
    for (table, key) in TRUST_KEYS {
        let Some(map) = value
            .get_mut(*table)
            .and_then(serde_yaml_ng::Value::as_mapping_mut)
        else {
            continue;
        };
        if map.get(*key).is_some_and(|v| widens(table, key, v)) {
            map.remove(*key);
            out.push(format!(
                "config {}: key `{table}.{key}` widens trust, so baton reads it only from your own config file ($XDG_CONFIG_HOME/baton/config.yaml), never from a file in the repository; ignored",
                file.display()
            ));
        }
    }
    out
}

/// The user's own config file (`$XDG_CONFIG_HOME/baton/config.yaml`), unless git tracks it
/// in the project: a config folder inside the repository (a home folder kept in git) holds
/// whatever a clone or a teammate's commit put there, and such a file is read as the
/// project's (its keys that widen trust are ignored and named).
fn own_file(ctx: &Ctx, root: &Path) -> Option<PathBuf> {
    let file = super::paths::config_dir(&ctx.env)?.join("config.yaml");
    let real_root = root.canonicalize().ok();
    let committed = file
        .canonicalize()
        .ok()
        .zip(real_root)
        .and_then(|(f, r)| f.strip_prefix(&r).ok().map(Path::to_path_buf))
        .is_some_and(|rel| super::git::is_tracked(root, &rel));
    (!committed).then_some(file)
}

/// The config files that apply to `root`, weakest first, whether or not they exist.
pub fn candidate_files(ctx: &Ctx, root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    if let Some(dir) = super::paths::config_dir(&ctx.env) {
        files.push(dir.join("config.yaml"));
    }
    files.push(root.join(PROJECT_CONFIG));
    if let Some(extra) = ctx.env.var("BATON_CONFIG") {
        files.push(root.join(extra));
    }
    files
}

/// Loads the configuration for `root`. Never fails: problems are returned beside the
/// defaults. Every problem is reported, not only the first: a key that fails is named, set
/// aside, and the rest is checked again (`baton doctor` lists them all at once).
pub fn load(ctx: &Ctx, root: &Path) -> Effective {
    let mut merged = serde_yaml_ng::Value::Mapping(serde_yaml_ng::Mapping::new());
    let mut sources = Vec::new();
    let mut files = Vec::new();
    let mut problems = Vec::new();
    let mut ignored = Vec::new();
    let user_file = own_file(ctx, root);
    for file in candidate_files(ctx, root) {
        // A config may be a link to an endless file or a FIFO (it can be committed so):
        // read regular files only, and at most a megabyte.
        let text = match super::fsx::read_limited(&file, super::fsx::Limit::CONFIG) {
            Ok(Some(t)) => t,
            Ok(None) => continue,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        match serde_yaml_ng::from_str::<serde_yaml_ng::Value>(&text) {
            Ok(serde_yaml_ng::Value::Null) => {}
            Ok(mut value @ serde_yaml_ng::Value::Mapping(_)) => {
                if Some(&file) != user_file.as_ref() {
                    ignored.extend(strip_trust_keys(&file, &mut value));
                }
                merge(&mut merged, value.clone());
                files.push((file.clone(), value));
                sources.push(file);
            }
            Ok(_) => problems.push(Error::Config {
                path: file,
                message: "the top level must be a mapping of keys to values".into(),
            }),
            Err(e) => problems.push(Error::Config {
                path: file,
                message: format!("not valid YAML: {e}"),
            }),
        }
    }
    let fallback = root.join(PROJECT_CONFIG);
    // Only a file of the project's is the project's choice to use the bridge: the user's own
    // file applies to every project (and may just spell out the default).
    let enables = |v: &serde_yaml_ng::Value| {
        v.get("bridge")
            .and_then(|b| b.get("enabled"))
            .and_then(serde_yaml_ng::Value::as_bool)
            == Some(true)
    };
    let opted_in = enables(&merged)
        && files
            .iter()
            .any(|(f, v)| Some(f) != user_file.as_ref() && enables(v));
    // No file: the defaults, without deserialising an empty mapping (every hook loads the
    // config; a test checks that the two are the same).
    let mut config = if files.is_empty() {
        Config::default()
    } else {
        parse_all(merged, &files, &fallback, &mut problems)
    };
    config.bridge.opted_in = opted_in;
    if problems.is_empty() {
        problems.extend(
            config
                .paths
                .moved_onto_a_folder_not_batons(root, &config, &fallback),
        );
    }
    Effective {
        // Any problem means the defaults, as the hook path promises: a half-applied config
        // could move state to another folder than the one the user meant.
        config: if problems.is_empty() {
            config
        } else {
            Config::default()
        },
        sources,
        problems,
        ignored,
    }
}

/// Of `notices` (`Effective::ignored`), the ones the user has not been told yet in this
/// project: they are told once, not at every session start (a team that committed a trust key
/// before baton read it only from the user's file is told, and then left alone). What was
/// told is remembered in the project's private folder, by a digest of the notices.
pub fn untold(ctx: &Ctx, root: &Path, notices: &[String]) -> Vec<String> {
    if notices.is_empty() {
        return Vec::new();
    }
    let (Some(base), Some(dir)) = (
        super::paths::private_base(&ctx.env),
        super::paths::project_state_dir(&ctx.env, root),
    ) else {
        return notices.to_vec();
    };
    let file = dir.join("config-notices");
    let digest = format!(
        "{:016x}\n",
        super::hash::fnv1a(notices.join("\n").as_bytes())
    );
    let told = super::fsx::read_limited(&file, super::fsx::Limit::CONFIG)
        .ok()
        .flatten();
    if told.as_deref() == Some(digest.as_str()) {
        return Vec::new();
    }
    // Best effort: a folder that cannot be written means the notice comes again.
    let _ = super::fsx::ensure_private_tree(&base, &dir).and_then(|()| {
        super::fsx::replace_file(&file, digest.as_bytes(), super::fsx::PRIVATE_FILE)
    });
    notices.to_vec()
}

/// The most problems reported for one load; past it the rest of the file is not looked at.
const MAX_PROBLEMS: usize = 50;

/// Parses the merged value, collecting every problem: each failing key is reported (named
/// after the file that set it last) and removed, and the rest parsed again.
fn parse_all(
    mut merged: serde_yaml_ng::Value,
    files: &[(PathBuf, serde_yaml_ng::Value)],
    fallback: &Path,
    problems: &mut Vec<Error>,
) -> Config {
    let mut removed: Vec<Vec<Seg>> = Vec::new();
    for _ in 0..MAX_PROBLEMS {
        let (key, message) = match parse_value(merged.clone()) {
            Ok(config) => return config,
            Err(failure) => failure,
        };
        let reported = key.as_deref().map(|k| original_key(k, &removed));
        let path = reported
            .as_deref()
            .and_then(|k| files.iter().rev().find(|(_, v)| lookup(v, k)))
            .map_or_else(|| fallback.to_path_buf(), |(p, _)| p.clone());
        let message = match &reported {
            Some(k) if !k.is_empty() => format!("key `{}`: {message}", render_key(k)),
            _ => message,
        };
        problems.push(Error::Config { path, message });
        match key {
            Some(k) if !k.is_empty() && remove(&mut merged, &k) => {
                if let Some(Seg::Index(_)) = k.last() {
                    removed.push(reported.unwrap_or_default());
                }
            }
            _ => break,
        }
    }
    Config::default()
}

/// One step of a key path: a mapping key or a list index.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    Key(String),
    Index(usize),
}

/// `relay.hazard_paths[1]` as its steps.
fn parse_key(text: &str) -> Vec<Seg> {
    let mut out = Vec::new();
    for part in text.split('.') {
        let mut rest = part;
        if let Some(i) = rest.find('[') {
            out.push(Seg::Key(rest[..i].to_string()));
            rest = &rest[i..];
            while let Some(end) = rest.find(']') {
                if let Ok(n) = rest[1..end].parse() {
                    out.push(Seg::Index(n));
                }
                rest = &rest[end + 1..];
            }
        } else if !rest.is_empty() {
            out.push(Seg::Key(rest.to_string()));
        }
    }
    out
}

fn render_key(key: &[Seg]) -> String {
    let mut out = String::new();
    for seg in key {
        match seg {
            Seg::Key(k) if out.is_empty() => out.push_str(k),
            Seg::Key(k) => out.push_str(&format!(".{k}")),
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// A key path as the user wrote it: list elements already removed (`removed`, as the user
/// wrote them) shift the later indices down, so they are added back.
fn original_key(key: &[Seg], removed: &[Vec<Seg>]) -> Vec<Seg> {
    let mut out = key.to_vec();
    let Some((Seg::Index(current), parent)) = key.split_last() else {
        return out;
    };
    let mut gone: Vec<usize> = removed
        .iter()
        .filter_map(|k| match k.split_last() {
            Some((Seg::Index(r), p)) if p == parent => Some(*r),
            _ => None,
        })
        .collect();
    gone.sort_unstable();
    let mut original = *current;
    for r in gone {
        if r <= original {
            original += 1;
        }
    }
    if let Some(last) = out.last_mut() {
        *last = Seg::Index(original);
    }
    out
}

/// Whether `value` sets `key` (a list index counts when the list is set).
fn lookup(value: &serde_yaml_ng::Value, key: &[Seg]) -> bool {
    let mut at = value;
    for seg in key {
        match (seg, at) {
            (Seg::Key(k), serde_yaml_ng::Value::Mapping(m)) => match m.get(k.as_str()) {
                Some(v) => at = v,
                None => return false,
            },
            (Seg::Index(_), serde_yaml_ng::Value::Sequence(_)) => return true,
            _ => return false,
        }
    }
    true
}

/// Removes `key` from `value`; false when it is not there (nothing can be removed, so the
/// collection stops).
fn remove(value: &mut serde_yaml_ng::Value, key: &[Seg]) -> bool {
    let Some((last, parents)) = key.split_last() else {
        return false;
    };
    let mut at = value;
    for seg in parents {
        let next = match (seg, at) {
            (Seg::Key(k), serde_yaml_ng::Value::Mapping(m)) => m.get_mut(k.as_str()),
            (Seg::Index(i), serde_yaml_ng::Value::Sequence(s)) => s.get_mut(*i),
            _ => None,
        };
        match next {
            Some(v) => at = v,
            None => return false,
        }
    }
    match (last, at) {
        (Seg::Key(k), serde_yaml_ng::Value::Mapping(m)) => m.remove(k.as_str()).is_some(),
        (Seg::Index(i), serde_yaml_ng::Value::Sequence(s)) if *i < s.len() => {
            s.remove(*i);
            true
        }
        _ => false,
    }
}

/// Deserializes and checks a merged config value. A failure names the key it is about (when
/// there is one) and says what is wrong with it.
fn parse_value(
    value: serde_yaml_ng::Value,
) -> std::result::Result<Config, (Option<Vec<Seg>>, String)> {
    let config: Config = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        if path == "." {
            (None, inner)
        } else {
            (Some(parse_key(&path)), did_you_mean(&inner))
        }
    })?;
    check(&config).map_err(|message| {
        // The checks say `key `a.b[1]`: …`; the key is taken back out of the message.
        match message
            .strip_prefix("key `")
            .and_then(|rest| rest.split_once("`: "))
        {
            Some((key, rest)) => (Some(parse_key(key)), rest.to_string()),
            None => (None, message),
        }
    })?;
    Ok(config)
}

/// serde's "unknown field `x`, expected one of `a`, `b`" with a "did you mean" for a near
/// miss (a typo of one or two letters).
fn did_you_mean(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message.to_string();
    };
    let Some((field, expected)) = rest.split_once('`') else {
        return message.to_string();
    };
    let best = expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|c| (edit_distance(field, c), c))
        .filter(|(d, c)| *d <= 2 && *d < c.len())
        .min();
    match best {
        Some((_, c)) => format!("{message} (did you mean `{c}`?)"),
        None => message.to_string(),
    }
}

/// Levenshtein distance (keys are short).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(cur).min(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

/// Range checks that the types alone do not express.
fn check(config: &Config) -> std::result::Result<(), String> {
    if !(500..=9_500).contains(&config.context_budget_chars) {
        return Err(format!(
            "key `context_budget_chars`: {} is out of range (500 to 9500; Claude Code cuts hook context at 10,000 characters)",
            config.context_budget_chars
        ));
    }
    config.relay.check()?;
    config.audit.check()?;
    config.handoff.check()?;
    config.capture.check()?;
    config.paths.check()?;
    // Parsed, not compiled, as the correction patterns above.
    for (i, pattern) in config.redact.extra_patterns.iter().enumerate() {
        if let Err(e) = super::scan::needles::parses(pattern) {
            return Err(format!(
                "key `redact.extra_patterns[{i}]`: invalid regex: {e}"
            ));
        }
    }
    Ok(())
}

/// Merges `over` into `base`: mappings key by key, anything else replaced.
fn merge(base: &mut serde_yaml_ng::Value, over: serde_yaml_ng::Value) {
    match (base, over) {
        (serde_yaml_ng::Value::Mapping(b), serde_yaml_ng::Value::Mapping(o)) => {
            for (k, v) in o {
                match b.get_mut(&k) {
                    Some(existing) => merge(existing, v),
                    None => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (b, o) => *b = o,
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;
    use crate::core::clock::Clock;
    use crate::core::ctx::Env;

    fn ctx_with(home: &Path) -> Ctx {
        Ctx::for_test(
            Env::fixed([("HOME", home.to_str().unwrap())]),
            Clock::System,
            home.to_path_buf(),
        )
    }

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn no_file_means_defaults() {
        // What a load without files gives at once is what an empty file gives.
        let empty = serde_yaml_ng::Value::Mapping(serde_yaml_ng::Mapping::new());
        assert_eq!(parse_value(empty).ok(), Some(Config::default()));
        let t = tempfile::tempdir().unwrap();
        let l = load(&ctx_with(t.path()), t.path());
        assert!(l.problems.is_empty());
        assert_eq!(l.config, Config::default());
        assert_eq!(l.config.context_budget_chars, 8_000);
    }

    #[test]
    fn project_file_overrides_user_file_key_by_key() {
        let t = tempfile::tempdir().unwrap();
        write(
            t.path(),
            ".config/baton/config.yaml",
            "relay: {cycle_budget: 9}\ncontext_budget_chars: 6000\n",
        );
        write(t.path(), PROJECT_CONFIG, "relay:\n  enabled: false\n");
        let l = load(&ctx_with(t.path()), t.path());
        assert!(l.problems.is_empty(), "{:?}", l.problems);
        assert!(!l.config.relay.enabled);
        assert_eq!(l.config.relay.cycle_budget, 9);
        assert_eq!(l.config.context_budget_chars, 6000);
        assert_eq!(l.sources.len(), 2);
    }

    #[test]
    fn a_repository_file_cannot_widen_trust_but_may_narrow_it() {
        let t = tempfile::tempdir().unwrap();
        write(
            t.path(),
            ".config/baton/config.yaml",
            "bridge: {integrity_block_on: suspicious, trusted_committers: [me@example.invalid]}\n",
        );
        write(
            t.path(),
            PROJECT_CONFIG,
            "bridge:\n  integrity_block_on: tainted\n  trusted_committers: [mallory@example.invalid]\n  auto_promote: true\n  commit: false\n",
        );
        let l = load(&ctx_with(t.path()), t.path());
        assert!(l.problems.is_empty(), "{:?}", l.problems);
        assert_eq!(
            l.config.bridge.integrity_block_on,
            IntegrityBlockOn::Suspicious
        );
        assert_eq!(l.config.bridge.trusted_committers, ["me@example.invalid"]);
        assert!(!l.config.bridge.auto_promote && !l.config.bridge.commit);
        assert_eq!(l.ignored.len(), 3, "{:?}", l.ignored);
        // Sharing what is private is the user's to choose, too.
        write(
            t.path(),
            PROJECT_CONFIG,
            "audit: {shared: true}\nhandoff: {shared: true}\n",
        );
        let l = load(&ctx_with(t.path()), t.path());
        assert!(!l.config.audit.shared && !l.config.handoff.shared);
        assert_eq!(l.ignored.len(), 2, "{:?}", l.ignored);
        write(
            t.path(),
            ".config/baton/config.yaml",
            "audit: {shared: true}\n",
        );
        write(t.path(), PROJECT_CONFIG, "");
        assert!(load(&ctx_with(t.path()), t.path()).config.audit.shared);
        // Stricter than the user's own is the project's to say.
        write(t.path(), ".config/baton/config.yaml", "");
        write(
            t.path(),
            PROJECT_CONFIG,
            "bridge: {integrity_block_on: suspicious}\n",
        );
        let l = load(&ctx_with(t.path()), t.path());
        assert_eq!(
            l.config.bridge.integrity_block_on,
            IntegrityBlockOn::Suspicious
        );
        assert!(l.ignored.is_empty(), "{:?}", l.ignored);
    }

    /// A user config folder inside the repository (a home folder kept in git): the file
    /// there is the user's own while git does not track it, and the project's once a
    /// commit has put it there.
    #[test]
    fn a_user_config_file_that_git_tracks_is_the_projects() {
        let t = tempfile::tempdir().unwrap();
        let repo = git2::Repository::init(t.path()).unwrap();
        let user = ".config/baton/config.yaml";
        write(
            t.path(),
            user,
            "bridge: {trusted_committers: [mallory@example.invalid], auto_promote: true}\n",
        );
        let l = load(&ctx_with(t.path()), t.path());
        assert_eq!(
            l.config.bridge.trusted_committers,
            ["mallory@example.invalid"]
        );
        assert!(l.ignored.is_empty(), "{:?}", l.ignored);
        let mut index = repo.index().unwrap();
        index.add_path(Path::new(user)).unwrap();
        index.write().unwrap();
        let l = load(&ctx_with(t.path()), t.path());
        assert!(l.config.bridge.trusted_committers.is_empty());
        assert!(!l.config.bridge.auto_promote);
        assert_eq!(l.ignored.len(), 2, "{:?}", l.ignored);
    }

    #[test]
    fn unknown_key_is_named() {
        let t = tempfile::tempdir().unwrap();
        write(t.path(), PROJECT_CONFIG, "audit:\n  auto_strat: false\n");
        let l = load(&ctx_with(t.path()), t.path());
        let msg = l.problems[0].to_string();
        assert!(msg.contains("audit"), "{msg}");
        assert!(msg.contains("auto_strat"), "{msg}");
        assert_eq!(l.config, Config::default());
    }

    #[test]
    fn bad_value_is_named() {
        let t = tempfile::tempdir().unwrap();
        write(t.path(), PROJECT_CONFIG, "relay:\n  cycle_budget: many\n");
        let l = load(&ctx_with(t.path()), t.path());
        let msg = l.problems[0].to_string();
        assert!(msg.contains("key `relay.cycle_budget`"), "{msg}");
    }

    #[test]
    fn out_of_range_budget_and_escaping_path_are_refused() {
        let t = tempfile::tempdir().unwrap();
        write(t.path(), PROJECT_CONFIG, "context_budget_chars: 50000\n");
        let msg = load(&ctx_with(t.path()), t.path()).problems[0].to_string();
        assert!(msg.contains("context_budget_chars"), "{msg}");
        write(t.path(), PROJECT_CONFIG, "paths: {audit: ../elsewhere}\n");
        let msg = load(&ctx_with(t.path()), t.path()).problems[0].to_string();
        assert!(msg.contains("paths.audit"), "{msg}");
    }

    #[test]
    fn broken_yaml_and_bad_regex_are_reported() {
        let t = tempfile::tempdir().unwrap();
        write(t.path(), PROJECT_CONFIG, "relay: [unclosed\n");
        assert!(load(&ctx_with(t.path()), t.path()).problems[0]
            .to_string()
            .contains("not valid YAML"));
        write(
            t.path(),
            PROJECT_CONFIG,
            "redact: {extra_patterns: ['(']}\n",
        );
        assert!(load(&ctx_with(t.path()), t.path()).problems[0]
            .to_string()
            .contains("redact.extra_patterns[0]"));
    }

    #[test]
    fn relay_keys_have_defaults_and_range_checks() {
        let c = Config::default();
        assert_eq!(c.relay.verify_timeout_secs, 300);
        assert_eq!(
            c.relay.hazard_paths,
            ["mcp.rs", "store.rs", "inject.rs", "setup.rs"]
        );
        let t = tempfile::tempdir().unwrap();
        for (yaml, key) in [
            (
                "relay: {verify_timeout_secs: 0}\n",
                "relay.verify_timeout_secs",
            ),
            (
                "relay: {heartbeat_timeout_ms: 60000}\n",
                "relay.heartbeat_timeout_ms",
            ),
            (
                "relay: {hazard_paths: [mcp.rs, ' ']}\n",
                "relay.hazard_paths[1]",
            ),
        ] {
            write(t.path(), PROJECT_CONFIG, yaml);
            let msg = load(&ctx_with(t.path()), t.path()).problems[0].to_string();
            assert!(msg.contains(key), "{msg}");
        }
        write(
            t.path(),
            PROJECT_CONFIG,
            "relay: {verify_timeout_secs: 1, hazard_paths: [src/db.rs]}\n",
        );
        let l = load(&ctx_with(t.path()), t.path());
        assert!(l.problems.is_empty(), "{:?}", l.problems);
        assert_eq!(l.config.relay.hazard_paths, ["src/db.rs"]);
    }

    #[test]
    fn audit_keys_are_checked() {
        let t = tempfile::tempdir().unwrap();
        write(
            t.path(),
            PROJECT_CONFIG,
            "audit:\n  correction_patterns: ['^nope', '(']\n",
        );
        let msg = load(&ctx_with(t.path()), t.path()).problems[0].to_string();
        assert!(msg.contains("audit.correction_patterns[1]"), "{msg}");
        write(t.path(), PROJECT_CONFIG, "audit: {hot_file_edits: 0}\n");
        let msg = load(&ctx_with(t.path()), t.path()).problems[0].to_string();
        assert!(msg.contains("audit.hot_file_edits"), "{msg}");
        write(
            t.path(),
            PROJECT_CONFIG,
            "audit: {correction_patterns: ['^nope']}\n",
        );
        let l = load(&ctx_with(t.path()), t.path());
        assert!(l.problems.is_empty(), "{:?}", l.problems);
        assert_eq!(l.config.audit.correction_patterns, vec!["^nope"]);
    }

    #[test]
    fn a_resume_command_with_hidden_characters_is_named() {
        let t = tempfile::tempdir().unwrap();
        write(
            t.path(),
            PROJECT_CONFIG,
            "handoff: {resume_command: \"/dr-continue\\u202e\"}\n",
        );
        let msg = load(&ctx_with(t.path()), t.path()).problems[0].to_string();
        assert!(msg.contains("handoff.resume_command"), "{msg}");
        write(
            t.path(),
            PROJECT_CONFIG,
            "handoff: {resume_command: /dr-continue}\n",
        );
        assert!(load(&ctx_with(t.path()), t.path()).problems.is_empty());
    }

    #[test]
    fn issue_10_a_config_linked_to_an_endless_file_is_a_problem_not_a_hang() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join(".claude")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", t.path().join(PROJECT_CONFIG)).unwrap();
        let l = load(&ctx_with(t.path()), t.path());
        assert_eq!(l.config, Config::default());
        let msg = l.problems[0].to_string();
        assert!(
            msg.contains("symlink") && msg.contains("baton.yaml"),
            "{msg}"
        );
    }

    #[test]
    fn capture_keys_have_defaults_and_range_checks() {
        let c = Config::default();
        assert!(c.capture.enabled);
        assert_eq!(
            (c.capture.keep_sessions, c.capture.section_chars),
            (50, 1_200)
        );
        let t = tempfile::tempdir().unwrap();
        for (yaml, key) in [
            ("capture: {keep_sessions: 0}\n", "capture.keep_sessions"),
            ("capture: {section_chars: 99999}\n", "capture.section_chars"),
            ("capture: {enable: false}\n", "enable"),
        ] {
            write(t.path(), PROJECT_CONFIG, yaml);
            let msg = load(&ctx_with(t.path()), t.path()).problems[0].to_string();
            assert!(msg.contains(key), "{msg}");
        }
        write(t.path(), PROJECT_CONFIG, "capture: {enabled: false}\n");
        let l = load(&ctx_with(t.path()), t.path());
        assert!(l.problems.is_empty(), "{:?}", l.problems);
        assert!(!l.config.capture.enabled);
    }

    #[test]
    fn issue_17_every_config_problem_is_reported_with_its_key_and_file() {
        let t = tempfile::tempdir().unwrap();
        write(
            t.path(),
            ".config/baton/config.yaml",
            "relay: {cycle_budget: many}\n",
        );
        write(
            t.path(),
            PROJECT_CONFIG,
            "audit: {auto_strat: false, hot_file_edits: 0}\ncontext_budget_chars: 50000\n\
             redact: {extra_patterns: ['(', ok, '[']}\nbogus: 1\n",
        );
        let l = load(&ctx_with(t.path()), t.path());
        assert_eq!(l.config, Config::default());
        let msgs: Vec<String> = l.problems.iter().map(ToString::to_string).collect();
        let user = t.path().join(".config/baton/config.yaml");
        let proj = t.path().join(PROJECT_CONFIG);
        for (key, file) in [
            ("key `relay.cycle_budget`", &user),
            ("key `audit.auto_strat`", &proj),
            ("key `audit.hot_file_edits`", &proj),
            ("key `context_budget_chars`", &proj),
            ("key `redact.extra_patterns[0]`", &proj),
            ("key `redact.extra_patterns[2]`", &proj),
            ("key `bogus`", &proj),
        ] {
            let found = msgs.iter().filter(|m| m.contains(key)).collect::<Vec<_>>();
            assert_eq!(found.len(), 1, "{key} in {msgs:#?}");
            assert!(
                found[0].starts_with(&format!("config {}:", file.display())),
                "{key} names the wrong file: {}",
                found[0]
            );
        }
        assert_eq!(msgs.len(), 7, "{msgs:#?}");
        assert!(
            msgs.iter()
                .any(|m| m.contains("did you mean `auto_start`?")),
            "{msgs:#?}"
        );
    }

    #[test]
    fn key_paths_round_trip_and_removed_list_items_keep_their_numbers() {
        let k = parse_key("relay.hazard_paths[3]");
        assert_eq!(render_key(&k), "relay.hazard_paths[3]");
        // Items 1 and 2 were removed; the list's current item 1 was item 3.
        let removed = vec![parse_key("a.b[1]"), parse_key("a.b[2]")];
        assert_eq!(
            render_key(&original_key(&parse_key("a.b[1]"), &removed)),
            "a.b[3]"
        );
        assert_eq!(
            render_key(&original_key(&parse_key("a.b[0]"), &removed)),
            "a.b[0]"
        );
        assert_eq!(
            render_key(&original_key(&parse_key("a.c[1]"), &removed)),
            "a.c[1]"
        );
        assert_eq!(edit_distance("auto_strat", "auto_start"), 2);
        assert_eq!(did_you_mean("invalid type"), "invalid type");
    }

    #[test]
    fn empty_file_is_fine() {
        let t = tempfile::tempdir().unwrap();
        write(t.path(), PROJECT_CONFIG, "# nothing yet\n");
        assert!(load(&ctx_with(t.path()), t.path()).problems.is_empty());
    }
}
