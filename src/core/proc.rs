//! Which process runs the hook — Claude Code, the hook's parent — and whether a process seen
//! earlier is still running: a session start tells a Claude session that was cut off (its
//! process gone) from one still running in another terminal (which must not be taken over).
//!
//! A process is named by its pid and its start time (`/proc/<pid>/stat`, field 22, in clock
//! ticks since boot), so a pid the kernel gave to another process since does not pass for it.
//! Where there is no `/proc` (macOS), nothing is known: callers fall back on the age of the
//! session's transcript.

use serde::{Deserialize, Serialize};

/// A process, as `/proc` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Process {
    pub pid: u32,
    /// Its start time, in clock ticks since boot.
    pub started: u64,
}

/// Shells a hook may run under (`sh -c "… exec baton …"` leaves none; a hook command that
/// does not `exec` would).
const SHELLS: &[&str] = &["sh", "dash", "bash", "zsh"];

/// The process that runs this hook: the parent, or the parent's parent when the parent is a
/// shell. `None` without `/proc`.
pub fn host() -> Option<Process> {
    static HOST: std::sync::OnceLock<Option<Process>> = std::sync::OnceLock::new();
    *HOST.get_or_init(look_up_host)
}

fn look_up_host() -> Option<Process> {
    let parent = std::os::unix::process::parent_id();
    let stat = read_stat(parent)?;
    if SHELLS.contains(&stat.comm.as_str()) {
        return read_stat(stat.parent).map(|s| s.process);
    }
    Some(stat.process)
}

/// Whether `p` still runs: `Some(true)` when a process of that pid started at that time,
/// `Some(false)` when not, `None` when this system cannot tell (no `/proc`).
pub fn alive(p: Process) -> Option<bool> {
    if std::fs::symlink_metadata("/proc/self/stat").is_err() {
        return None;
    }
    Some(read_stat(p.pid).is_some_and(|s| s.process.started == p.started))
}

/// What is read of `/proc/<pid>/stat`.
struct Stat {
    process: Process,
    comm: String,
    parent: u32,
}

/// `/proc/<pid>/stat`: its name (in parentheses, which may hold spaces and parentheses),
/// then fields 3 on; the parent is field 4, the start time field 22.
#[allow(clippy::disallowed_methods)] // a kernel file of /proc: no link, no FIFO, a few bytes
fn read_stat(pid: u32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let comm = text.get(open + 1..close)?.to_string();
    let fields: Vec<&str> = text.get(close + 1..)?.split_whitespace().collect();
    // fields[0] is field 3 (the state).
    let parent = fields.get(1)?.parse().ok()?;
    let started = fields.get(19)?.parse().ok()?;
    Some(Stat {
        process: Process { pid, started },
        comm,
        parent,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_a_changed_start_time_is_not() {
        let Some(me) = read_stat(std::process::id()).map(|s| s.process) else {
            return; // no /proc here
        };
        assert_eq!(alive(me), Some(true));
        let other = Process {
            started: me.started + 1,
            ..me
        };
        assert_eq!(alive(other), Some(false));
        assert!(host().is_some());
    }
}
