//! Running `loop/verify-on-resume.sh` and, when it fails, writing `loop/NEEDS-HUMAN`.
//!
//! A missing script counts as a pass, said out loud: the seed's step is "run the script; if it
//! fails, halt", and a loop that never wrote one has nothing to verify. Only "not found" is
//! missing: a script that cannot be checked (a dangling symlink, a permission error) fails.
//! The script runs as `bash SCRIPT` in the project root, stdin closed, stdout and stderr
//! captured together; at `relay.verify_timeout_secs` its whole process group is killed and
//! the run is a failure.

use super::layout::Layout;
use crate::core::error::Result;
use crate::core::exec::{self, Ended};
use crate::core::fsx;
use crate::core::redact::Redactor;
use regex::Regex;
use serde::Serialize;
use std::sync::LazyLock;
use std::time::Duration;

/// Lines of output kept in NEEDS-HUMAN.
const KEPT_LINES: usize = 200;
/// How much output `core::exec` keeps (its end): a capture this long lost its start.
const CAPTURE_BYTES: usize = 256 * 1024;

static PEM_BEGIN: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----").ok());
static PEM_END: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"-----END [A-Z0-9 ]*PRIVATE KEY-----").ok());

/// What the verify step found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verify", rename_all = "snake_case")]
pub(crate) enum Verdict {
    /// No script: nothing verified.
    Missing { script: String },
    /// Exit 0.
    Passed { script: String, millis: u128 },
    /// Non-zero exit, a signal, the timeout, or no way to start it.
    Failed {
        script: String,
        reason: String,
        /// The redacted output (its tail when long).
        output: String,
    },
}

/// Runs the verify script of `layout` with `timeout`.
pub(crate) fn run(layout: &Layout, timeout: Duration, redactor: &Redactor) -> Verdict {
    let script = Layout::show(&layout.verify_rel);
    let path = layout.abs(&layout.verify_rel);
    if let Err(reason) = check_script(&path) {
        return match reason {
            None => Verdict::Missing { script },
            Some(reason) => Verdict::Failed {
                script,
                reason,
                output: String::new(),
            },
        };
    }
    let mut cmd = exec::command("bash");
    cmd.arg(&path).current_dir(&layout.root);
    let run = exec::run(cmd, timeout, true);
    if run.ok() {
        return Verdict::Passed {
            script,
            millis: run.elapsed.as_millis(),
        };
    }
    let reason = match &run.ended {
        Ended::Exited(Some(code)) => format!("exited {code}"),
        Ended::Exited(None) => "was killed by a signal".into(),
        Ended::TimedOut => format!(
            "timed out after {} s and was killed (relay.verify_timeout_secs)",
            timeout.as_secs()
        ),
        Ended::SpawnFailed(e) => format!("could not be started: {e}"),
    };
    Verdict::Failed {
        script,
        reason,
        output: tail(
            &redactor
                .redact(&scrub_cut(&run.output, run.output.len() >= CAPTURE_BYTES))
                .text,
            KEPT_LINES,
        ),
    }
}

/// Whether the script can be run: `Err(None)` when nothing is there (only `NotFound` means
/// that), `Err(Some(reason))` when something is there that cannot be checked or followed (a
/// dangling symlink, a permission error): a failure, never "nothing verified".
fn check_script(path: &std::path::Path) -> std::result::Result<(), Option<String>> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(None),
        Err(e) => Err(Some(format!("could not be checked: {e}"))),
        Ok(m) if m.file_type().is_symlink() => match std::fs::metadata(path) {
            Ok(_) => Ok(()),
            Err(e) => Err(Some(format!(
                "is a symlink whose target cannot be read ({e}): fix or delete it"
            ))),
        },
        Ok(_) => Ok(()),
    }
}

/// Whether a verify script is there (a dangling symlink counts: resume reports it as a
/// failure, not as "nothing verified").
pub(crate) fn script_present(layout: &Layout) -> bool {
    check_script(&layout.abs(&layout.verify_rel)) != Err(None)
}

/// Why the verify script that is there cannot be run, if so (resume will fail on it).
pub(crate) fn script_problem(layout: &Layout) -> Option<String> {
    check_script(&layout.abs(&layout.verify_rel))
        .err()
        .flatten()
}

/// Makes a capture that may have lost its start safe for the redactor. When `cut`, the
/// partial first line goes. Then a private key whose `-----BEGIN … PRIVATE KEY-----` line was
/// cut off (an `-----END … PRIVATE KEY-----` with no BEGIN before it) would pass the
/// redactor's BEGIN…END rule: everything from the start through that END line becomes
/// `[REDACTED]`.
pub(crate) fn scrub_cut(text: &str, cut: bool) -> String {
    let text = if cut {
        text.split_once('\n').map_or("", |(_, rest)| rest)
    } else {
        text
    };
    let (Some(begin), Some(end)) = (PEM_BEGIN.as_ref(), PEM_END.as_ref()) else {
        return text.to_string();
    };
    let first_begin = begin.find(text).map_or(text.len(), |m| m.start());
    let Some(orphan) = end.find_iter(&text[..first_begin]).last() else {
        return text.to_string();
    };
    let through = text[orphan.end()..]
        .find('\n')
        .map_or(text.len(), |i| orphan.end() + i);
    format!("[REDACTED]{}", &text[through..])
}

/// The last `n` lines of `text`.
pub(crate) fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let from = lines.len().saturating_sub(n);
    let mut out = lines[from..].join("\n");
    if from > 0 {
        out = format!("[… {from} earlier lines left out]\n{out}");
    }
    out
}

/// The text of NEEDS-HUMAN for a failed verify.
pub(crate) fn needs_human_text(
    at: &str,
    packet: &str,
    packet_id: &str,
    script: &str,
    reason: &str,
    output: &str,
) -> String {
    let output = if output.trim().is_empty() {
        "(no output)".to_string()
    } else {
        output.trim_end().to_string()
    };
    format!(
        "NEEDS-HUMAN: {script} {reason} ({at})\n\
packet: {packet} ({packet_id})\n\
The weave-loop must not continue. Fix the tree, delete this file, then run `baton relay resume`.\n\
\n--- output (redacted) ---\n{output}\n"
    )
}

/// Writes NEEDS-HUMAN (0600: it holds command output) atomically.
pub(crate) fn write_needs_human(layout: &Layout, text: &str) -> Result<()> {
    let path = layout.abs(&layout.needs_human_rel);
    if let Some(dir) = path.parent() {
        fsx::ensure_dir_in(&layout.root, dir)?;
    }
    fsx::atomic_write(&path, text.as_bytes(), fsx::PRIVATE_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::config::Config;

    fn layout_with(script: Option<&str>) -> (tempfile::TempDir, Layout) {
        let t = tempfile::tempdir().unwrap();
        let l = Layout::new(t.path(), &Config::default());
        if let Some(s) = script {
            fsx::ensure_dir_in(t.path(), &t.path().join(".handoff/loop")).unwrap();
            std::fs::write(l.abs(&l.verify_rel), s).unwrap();
        }
        (t, l)
    }

    #[test]
    fn missing_passing_and_failing_scripts() {
        let r = Redactor::builtin();
        let (_t, l) = layout_with(None);
        assert!(matches!(
            run(&l, Duration::from_secs(5), &r),
            Verdict::Missing { .. }
        ));
        let (_t, l) = layout_with(Some("pwd >/dev/null; exit 0\n"));
        assert!(matches!(
            run(&l, Duration::from_secs(5), &r),
            Verdict::Passed { .. }
        ));
        let secret = ["ghp_", "abcdefghijklmnopqrstuvwxyz0123456789"].concat();
        let (_t, l) = layout_with(Some(&format!(
            "echo 'test failed'; echo {secret} >&2; exit 4\n"
        )));
        let Verdict::Failed { reason, output, .. } = run(&l, Duration::from_secs(5), &r) else {
            panic!("expected a failure")
        };
        assert_eq!(reason, "exited 4");
        assert!(
            output.contains("test failed") && !output.contains(&secret),
            "{output}"
        );
    }

    #[test]
    fn a_dangling_verify_symlink_is_a_failure_not_missing() {
        let r = Redactor::builtin();
        let (t, l) = layout_with(None);
        fsx::ensure_dir_in(t.path(), &t.path().join(".handoff/loop")).unwrap();
        std::os::unix::fs::symlink(t.path().join("gone.sh"), l.abs(&l.verify_rel)).unwrap();
        let Verdict::Failed { reason, .. } = run(&l, Duration::from_secs(5), &r) else {
            panic!("a dangling symlink must fail the verify")
        };
        assert!(reason.contains("symlink"), "{reason}");
        assert!(script_present(&l));
        assert!(script_problem(&l).is_some_and(|p| p.contains("symlink")));
        // A symlink to a real script runs it.
        std::fs::remove_file(l.abs(&l.verify_rel)).unwrap();
        std::fs::write(t.path().join("real.sh"), "exit 0\n").unwrap();
        std::os::unix::fs::symlink(t.path().join("real.sh"), l.abs(&l.verify_rel)).unwrap();
        assert!(matches!(
            run(&l, Duration::from_secs(5), &r),
            Verdict::Passed { .. }
        ));
    }

    #[test]
    fn a_cut_capture_does_not_leak_an_orphan_private_key_body() {
        let end = ["-----END RSA ", "PRIVATE KEY-----"].concat();
        let begin = ["-----BEGIN RSA ", "PRIVATE KEY-----"].concat();
        // The BEGIN line was cut off: a partial body line, more body, END, then output.
        let text = format!("XyZpartial\nMIIEowIBAAKCAQEAbody\n{end}\ntest failed\n");
        let s = scrub_cut(&text, true);
        assert_eq!(s, "[REDACTED]\ntest failed\n");
        let r = Redactor::builtin().redact(&s).text;
        assert!(!r.contains("MIIE") && r.contains("test failed"), "{r}");
        // Not cut, a whole key later on: only the orphan part goes; the whole key is the
        // redactor's.
        let text = format!("body1\n{end}\nok\n{begin}\nsecretbody\n{end}\ndone\n");
        let s = scrub_cut(&text, false);
        assert!(
            s.starts_with("[REDACTED]\nok\n") && s.contains(&begin),
            "{s}"
        );
        let r = Redactor::builtin().redact(&s).text;
        assert!(!r.contains("secretbody") && r.ends_with("done\n"), "{r}");
        // Nothing of the kind: only the partial first line goes.
        assert_eq!(scrub_cut("part\nline\n", true), "line\n");
        assert_eq!(scrub_cut("part\nline\n", false), "part\nline\n");
    }

    #[test]
    fn a_long_failing_verify_does_not_leak_the_body_of_a_cut_private_key() {
        let r = Redactor::builtin();
        // ~300 KB of key body: the capture keeps the last 256 KB, without the BEGIN line.
        let script = "echo '-----BEGIN RSA PRIVATE KEY-----'\n\
for i in $(seq 1 5000); do echo MIIEowIBAAKCAQEAsecretkeybodysecretkeybodysecretkeybody0123456789; done\n\
echo '-----END RSA PRIVATE KEY-----'\necho 'test failed'\nexit 1\n";
        let (_t, l) = layout_with(Some(script));
        let Verdict::Failed { output, .. } = run(&l, Duration::from_secs(30), &r) else {
            panic!("expected a failure")
        };
        assert!(!output.contains("secretkeybody"), "{output}");
        assert!(output.contains("test failed"), "{output}");
    }

    #[test]
    fn tail_keeps_the_end() {
        assert_eq!(tail("a\nb\nc", 5), "a\nb\nc");
        assert_eq!(tail("a\nb\nc", 2), "[… 1 earlier lines left out]\nb\nc");
    }
}
