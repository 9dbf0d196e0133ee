//! Runs a child process with a deadline: its own process group, stdout and stderr merged
//! into one capture (the last `CAPTURE_MAX` bytes kept), polled with `try_wait`, and at the
//! deadline the whole group is killed (a script's children too) and the run is a timeout.
//! `spawn_detached` starts one that is not waited for (a hook's background work).

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How much output is kept (the end of it).
const CAPTURE_MAX: usize = 256 * 1024;
/// How often the child is polled.
const POLL: Duration = Duration::from_millis(20);
/// How long to wait for the output pipe to close after the child is gone.
const DRAIN: Duration = Duration::from_secs(1);

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// Exited with this code (`None`: killed by a signal).
    Exited(Option<i32>),
    /// Still running at the deadline: killed.
    TimedOut,
    /// Could not be started.
    SpawnFailed(String),
}

/// What a run did.
#[derive(Debug, Clone)]
pub struct Run {
    pub ended: Ended,
    /// stdout and stderr, merged, lossy UTF-8 (the tail when long).
    pub output: String,
    pub elapsed: Duration,
}

impl Run {
    /// Whether the process exited 0.
    pub fn ok(&self) -> bool {
        self.ended == Ended::Exited(Some(0))
    }
}

/// A command for `run` (the one place baton builds a child process, so every child gets a
/// deadline).
#[allow(clippy::disallowed_methods)]
pub fn command(program: impl AsRef<std::ffi::OsStr>) -> Command {
    Command::new(program)
}

/// Runs `cmd` (stdin closed) for at most `timeout`. With `capture` false, output is dropped.
pub fn run(mut cmd: Command, timeout: Duration, capture: bool) -> Run {
    let start = Instant::now();
    let spawn_failed = |e: std::io::Error| Run {
        ended: Ended::SpawnFailed(e.to_string()),
        output: String::new(),
        elapsed: start.elapsed(),
    };
    cmd.stdin(Stdio::null()).process_group(0);
    let (buf, drained) = if capture {
        match capture_output(&mut cmd) {
            Ok((buf, rx)) => (buf, Some(rx)),
            Err(e) => return spawn_failed(e),
        }
    } else {
        cmd.stdout(Stdio::null()).stderr(Stdio::null());
        (Arc::new(Mutex::new(Vec::new())), None)
    };
    let spawned = cmd.spawn();
    // The Command holds our copies of the pipe's write end: drop them, or EOF never comes.
    drop(cmd);
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => return spawn_failed(e),
    };
    let ended = wait_until(&mut child, start, timeout);
    if let Some(rx) = drained {
        // A background process the child left behind may hold the pipe: end it too.
        if rx.recv_timeout(DRAIN).is_err() {
            kill_group(child.id());
            let _ = rx.recv_timeout(DRAIN);
        }
    }
    let output = buf
        .lock()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    Run {
        ended,
        output,
        elapsed: start.elapsed(),
    }
}

/// The output a run keeps, shared with the thread that drains the pipe.
type Capture = Arc<Mutex<Vec<u8>>>;

/// Sends the command's stdout and stderr into one pipe whose far end a thread drains into
/// the returned buffer (its last `CAPTURE_MAX` bytes); the receiver hears when the pipe closed.
fn capture_output(cmd: &mut Command) -> std::io::Result<(Capture, mpsc::Receiver<()>)> {
    let (mut reader, writer) = std::io::pipe()?;
    let writer2 = writer.try_clone()?;
    cmd.stdout(writer).stderr(writer2);
    let (tx, rx) = mpsc::channel();
    let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    let sink = Arc::clone(&buf);
    std::thread::spawn(move || {
        let mut chunk = [0u8; 8192];
        while let Ok(n) = reader.read(&mut chunk) {
            if n == 0 {
                break;
            }
            if let Ok(mut b) = sink.lock() {
                b.extend_from_slice(&chunk[..n]);
                if b.len() > CAPTURE_MAX {
                    let cut = b.len() - CAPTURE_MAX;
                    b.drain(..cut);
                }
            }
        }
        let _ = tx.send(());
    });
    Ok((buf, rx))
}

/// Polls `child` until it exits or `timeout` (from `start`) passes; then its whole process
/// group is killed.
fn wait_until(child: &mut std::process::Child, start: Instant, timeout: Duration) -> Ended {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ended::Exited(status.code()),
            Ok(None) if start.elapsed() >= timeout => {
                kill_group(child.id());
                let _ = child.kill();
                let _ = child.wait();
                return Ended::TimedOut;
            }
            Ok(None) => std::thread::sleep(POLL),
            Err(e) => {
                kill_group(child.id());
                let _ = child.kill();
                let _ = child.wait();
                return Ended::SpawnFailed(format!("wait: {e}"));
            }
        }
    }
}

/// Starts `cmd` in a process group of its own, its standard streams closed, and does not
/// wait for it: work a hook leaves for after itself (STYLE: slow work in a detached child).
/// The child finishes on its own; the hook's exit does not end it. Whether it started.
pub fn spawn_detached(mut cmd: Command) -> bool {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0);
    cmd.spawn().is_ok()
}

/// Kills process group `pgid` (the child was made its leader). Uses kill(1): the crate
/// forbids `unsafe`, which `libc::killpg` needs.
fn kill_group(pgid: u32) {
    let _ = command("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Where `name` is on `path` (a `PATH` value): the first executable file.
pub fn which(name: &str, path: Option<&str>) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    path?
        .split(':')
        .filter(|d| !d.is_empty())
        .map(|d| std::path::Path::new(d).join(name))
        .find(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = command("sh");
        c.args(["-c", script]);
        c
    }

    #[test]
    fn captures_merged_output_and_exit_code() {
        let r = run(
            sh("echo out; echo err >&2; exit 3"),
            Duration::from_secs(10),
            true,
        );
        assert_eq!(r.ended, Ended::Exited(Some(3)));
        assert!(
            r.output.contains("out\n") && r.output.contains("err\n"),
            "{r:?}"
        );
        assert!(!r.ok());
        assert!(run(sh("true"), Duration::from_secs(10), false).ok());
    }

    #[test]
    fn a_hanging_child_and_its_children_are_killed_at_the_deadline() {
        let r = run(
            sh("echo started; sleep 30; echo never"),
            Duration::from_millis(300),
            true,
        );
        assert_eq!(r.ended, Ended::TimedOut);
        assert!(
            r.output.contains("started") && !r.output.contains("never"),
            "{r:?}"
        );
        assert!(r.elapsed < Duration::from_secs(5), "{r:?}");
    }

    #[test]
    fn missing_program_is_a_spawn_failure() {
        let r = run(
            command("/nonexistent/baton-test-prog"),
            Duration::from_secs(1),
            true,
        );
        assert!(matches!(r.ended, Ended::SpawnFailed(_)), "{r:?}");
    }

    #[test]
    fn which_finds_executables_only() {
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("weave");
        std::fs::write(&f, "#!/bin/sh\n").unwrap();
        let dir = t.path().to_str().unwrap().to_string();
        assert_eq!(which("weave", Some(&dir)), None);
        std::fs::set_permissions(&f, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        assert_eq!(which("weave", Some(&format!("/nope:{dir}"))), Some(f));
        assert_eq!(which("weave", None), None);
    }
}
