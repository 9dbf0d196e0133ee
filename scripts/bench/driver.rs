//! The measuring half of `scripts/bench-hooks` (which compiles this file with plain `rustc`:
//! no crate, no dependency, so a fresh machine with the Rust toolchain runs it). It runs every
//! hook registered in hooks/hooks.json the way Claude Code runs it, next to the spawn floor,
//! over several repositories, and writes a table and JSON.
//!
//! How one run is measured: the clock starts before the spawn and stops when the child is
//! reaped. The child gets the event on a pipe (one JSON line and "\n", then closed); its
//! stdout and stderr are read through pipes until both close; the child's own exit is
//! watched through a pidfd in the same `poll`, so nothing sleeps between the pipes closing and
//! the reap (Python's `communicate(timeout=…)` slept up to 1 ms there). At the hook's timeout
//! from hooks.json the child's process group is killed (a kill timer, not a wait). `wait4`
//! reaps it and gives its peak RSS.
//!
//! The floor is `/bin/true` exec'd the same way (same arguments, environment, working
//! directory and stdin pipe); a shell-form hook's floor is `/bin/sh -c 'exec /bin/true'`, the
//! shell then `/bin/true` as the hook is the shell then baton (`/bin/sh -c true` would run the
//! shell's builtin: a floor of one program under a hook of two). Hook and floor
//! runs alternate, and which goes first alternates too, so drift hits both alike. Ratios are
//! p50 over floor p50 from the same run.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{IsTerminal, Read, Write};
use std::os::unix::io::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// The few system calls std does not offer: poll, wait4 (peak RSS), kill, pidfd_open.

mod sys {
    #[repr(C)]
    #[derive(Default, Clone, Copy)]
    pub struct Timeval {
        pub sec: i64,
        pub usec: i64,
    }

    /// `struct rusage` of 64-bit Linux (and the BSDs' layout for the fields read here).
    #[repr(C)]
    #[derive(Default, Clone, Copy)]
    pub struct Rusage {
        pub utime: Timeval,
        pub stime: Timeval,
        pub maxrss: i64,
        pub rest: [i64; 13],
    }

    #[repr(C)]
    pub struct PollFd {
        pub fd: i32,
        pub events: i16,
        pub revents: i16,
    }

    pub const POLLIN: i16 = 0x1;
    pub const SIGKILL: i32 = 9;

    extern "C" {
        fn poll(fds: *mut PollFd, nfds: u64, timeout: i32) -> i32;
        fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
        fn kill(pid: i32, sig: i32) -> i32;
        #[cfg(target_os = "linux")]
        fn syscall(num: i64, ...) -> i64;
    }

    pub fn poll_fds(fds: &mut [PollFd], timeout_ms: i32) -> i32 {
        unsafe { poll(fds.as_mut_ptr(), fds.len() as u64, timeout_ms) }
    }

    /// Reaps `pid` (blocking): its wait status and resource use.
    pub fn reap(pid: i32) -> (i32, Rusage) {
        let mut status = 0;
        let mut ru = Rusage::default();
        loop {
            let r = unsafe { wait4(pid, &mut status, 0, &mut ru) };
            if r == pid || r == -1 && std::io::Error::last_os_error().raw_os_error() != Some(4) {
                return (status, ru);
            }
        }
    }

    pub fn kill_group(pgid: i32) {
        unsafe {
            kill(-pgid, SIGKILL);
        }
    }

    /// A pidfd for `pid` (readable once it exits); `None` where there is none.
    pub fn pidfd(pid: i32) -> Option<i32> {
        #[cfg(target_os = "linux")]
        {
            // pidfd_open is 434 on every Linux architecture.
            let fd = unsafe { syscall(434, pid as i64, 0i64) };
            if fd >= 0 {
                return Some(fd as i32);
            }
        }
        let _ = pid;
        None
    }

    pub fn close(fd: i32) {
        extern "C" {
            fn close(fd: i32) -> i32;
        }
        unsafe {
            close(fd);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A small JSON value: hooks.json and the event fixtures in, the report out.

#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn parse(text: &str) -> Result<Json, String> {
        let mut p = Parser {
            b: text.as_bytes(),
            i: 0,
        };
        let v = p.value()?;
        p.ws();
        if p.i != p.b.len() {
            return Err(format!("trailing characters at byte {}", p.i));
        }
        Ok(v)
    }

    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            _ => &[],
        }
    }

    /// `@NAME@` placeholders replaced in every string.
    fn fill(&self, vars: &[(&str, &str)]) -> Json {
        match self {
            Json::Str(s) => {
                let mut s = s.clone();
                for (k, v) in vars {
                    s = s.replace(k, v);
                }
                Json::Str(s)
            }
            Json::Arr(a) => Json::Arr(a.iter().map(|x| x.fill(vars)).collect()),
            Json::Obj(o) => Json::Obj(o.iter().map(|(k, x)| (k.clone(), x.fill(vars))).collect()),
            other => other.clone(),
        }
    }

    fn write(&self, out: &mut String, indent: Option<usize>) {
        let nl = |out: &mut String, depth: usize| {
            if let Some(step) = indent {
                out.push('\n');
                out.push_str(&" ".repeat(step * depth));
            }
        };
        fn go(v: &Json, out: &mut String, indent: Option<usize>, depth: usize, nl: &dyn Fn(&mut String, usize)) {
            match v {
                Json::Null => out.push_str("null"),
                Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                Json::Num(n) => {
                    if n.fract() == 0.0 && n.abs() < 1e15 {
                        let _ = write!(out, "{}", *n as i64);
                    } else {
                        let _ = write!(out, "{n}");
                    }
                }
                Json::Str(s) => quote(s, out),
                Json::Arr(a) => {
                    out.push('[');
                    for (i, x) in a.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        nl(out, depth + 1);
                        go(x, out, indent, depth + 1, nl);
                    }
                    if !a.is_empty() {
                        nl(out, depth);
                    }
                    out.push(']');
                }
                Json::Obj(o) => {
                    out.push('{');
                    for (i, (k, x)) in o.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        nl(out, depth + 1);
                        quote(k, out);
                        out.push(':');
                        if indent.is_some() {
                            out.push(' ');
                        }
                        go(x, out, indent, depth + 1, nl);
                    }
                    if !o.is_empty() {
                        nl(out, depth);
                    }
                    out.push('}');
                }
            }
        }
        go(self, out, indent, 0, &nl);
    }

    fn compact(&self) -> String {
        let mut s = String::new();
        self.write(&mut s, None);
        s
    }
}

fn quote(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && b" \t\r\n".contains(&self.b[self.i]) {
            self.i += 1;
        }
    }

    fn eat(&mut self, lit: &str) -> bool {
        if self.b[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        let Some(&c) = self.b.get(self.i) else {
            return Err("unexpected end".into());
        };
        match c {
            b'{' => {
                self.i += 1;
                let mut fields = Vec::new();
                self.ws();
                if self.eat("}") {
                    return Ok(Json::Obj(fields));
                }
                loop {
                    self.ws();
                    let Json::Str(k) = self.value()? else {
                        return Err(format!("object key expected at byte {}", self.i));
                    };
                    self.ws();
                    if !self.eat(":") {
                        return Err(format!("':' expected at byte {}", self.i));
                    }
                    fields.push((k, self.value()?));
                    self.ws();
                    if self.eat("}") {
                        return Ok(Json::Obj(fields));
                    }
                    if !self.eat(",") {
                        return Err(format!("',' expected at byte {}", self.i));
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.eat("]") {
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value()?);
                    self.ws();
                    if self.eat("]") {
                        return Ok(Json::Arr(items));
                    }
                    if !self.eat(",") {
                        return Err(format!("',' expected at byte {}", self.i));
                    }
                }
            }
            b'"' => {
                self.i += 1;
                let mut s = String::new();
                loop {
                    let Some(&c) = self.b.get(self.i) else {
                        return Err("unterminated string".into());
                    };
                    self.i += 1;
                    match c {
                        b'"' => return Ok(Json::Str(s)),
                        b'\\' => {
                            let e = *self.b.get(self.i).ok_or("bad escape")?;
                            self.i += 1;
                            match e {
                                b'n' => s.push('\n'),
                                b't' => s.push('\t'),
                                b'r' => s.push('\r'),
                                b'b' => s.push('\u{8}'),
                                b'f' => s.push('\u{c}'),
                                b'u' => {
                                    let hex = std::str::from_utf8(&self.b[self.i..self.i + 4])
                                        .map_err(|e| e.to_string())?;
                                    self.i += 4;
                                    let n = u32::from_str_radix(hex, 16).map_err(|e| e.to_string())?;
                                    s.push(char::from_u32(n).unwrap_or('\u{FFFD}'));
                                }
                                other => s.push(other as char),
                            }
                        }
                        _ => {
                            // Copy the whole UTF-8 sequence.
                            let start = self.i - 1;
                            let mut end = self.i;
                            while end < self.b.len() && (self.b[end] & 0xC0) == 0x80 {
                                end += 1;
                            }
                            s.push_str(std::str::from_utf8(&self.b[start..end]).map_err(|e| e.to_string())?);
                            self.i = end;
                        }
                    }
                }
            }
            b't' if self.eat("true") => Ok(Json::Bool(true)),
            b'f' if self.eat("false") => Ok(Json::Bool(false)),
            b'n' if self.eat("null") => Ok(Json::Null),
            _ => {
                let start = self.i;
                while self.i < self.b.len() && b"+-.eE0123456789".contains(&self.b[self.i]) {
                    self.i += 1;
                }
                std::str::from_utf8(&self.b[start..self.i])
                    .ok()
                    .and_then(|t| t.parse().ok())
                    .map(Json::Num)
                    .ok_or_else(|| format!("bad value at byte {start}"))
            }
        }
    }
}

fn obj(fields: Vec<(&str, Json)>) -> Json {
    Json::Obj(fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn num(x: f64) -> Json {
    Json::Num((x * 1000.0).round() / 1000.0)
}

// ---------------------------------------------------------------------------------------------
// One run of one program.

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Exit {
    Code(i32),
    Signal(i32),
    Killed,
}

impl Exit {
    fn label(&self) -> String {
        match self {
            Exit::Code(c) => c.to_string(),
            Exit::Signal(s) => format!("sig{s}"),
            Exit::Killed => "timeout".into(),
        }
    }
}

struct Sample {
    ns: u64,
    exit: Exit,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    maxrss_kb: i64,
}

/// What to run: argv, and the environment and folder it runs with.
#[derive(Clone)]
struct Spec {
    argv: Vec<String>,
    env: Vec<(String, String)>,
    cwd: PathBuf,
    timeout: Duration,
}

fn run_once(spec: &Spec, stdin: &[u8]) -> Result<Sample, String> {
    let mut cmd = Command::new(&spec.argv[0]);
    cmd.args(&spec.argv[1..])
        .env_clear()
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .current_dir(&spec.cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|e| format!("spawn {}: {e}", spec.argv[0]))?;
    let pid = child.id() as i32;
    let pidfd = sys::pidfd(pid);
    if let Some(mut input) = child.stdin.take() {
        // A hook that exits without reading closes the pipe: that is its business.
        let _ = input.write_all(stdin);
    }
    let mut out = child.stdout.take().ok_or("no stdout")?;
    let mut err = child.stderr.take().ok_or("no stderr")?;
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let (mut out_open, mut err_open, mut alive) = (true, true, pidfd.is_some());
    let deadline = start + spec.timeout;
    let mut killed = false;
    let mut buf = [0u8; 65536];
    while out_open || err_open || alive {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            sys::kill_group(pid);
            killed = true;
            break;
        }
        let mut fds = Vec::with_capacity(3);
        let mut which = Vec::with_capacity(3);
        if out_open {
            fds.push(sys::PollFd { fd: out.as_raw_fd(), events: sys::POLLIN, revents: 0 });
            which.push(0);
        }
        if err_open {
            fds.push(sys::PollFd { fd: err.as_raw_fd(), events: sys::POLLIN, revents: 0 });
            which.push(1);
        }
        if alive {
            fds.push(sys::PollFd { fd: pidfd.unwrap_or(-1), events: sys::POLLIN, revents: 0 });
            which.push(2);
        }
        let ms = i32::try_from(left.as_millis().max(1)).unwrap_or(i32::MAX);
        if sys::poll_fds(&mut fds, ms) < 0 {
            continue; // EINTR
        }
        for (fd, w) in fds.iter().zip(&which) {
            if fd.revents == 0 {
                continue;
            }
            match w {
                0 => match out.read(&mut buf) {
                    Ok(0) | Err(_) => out_open = false,
                    Ok(n) => stdout.extend_from_slice(&buf[..n]),
                },
                1 => match err.read(&mut buf) {
                    Ok(0) | Err(_) => err_open = false,
                    Ok(n) => stderr.extend_from_slice(&buf[..n]),
                },
                _ => alive = false,
            }
        }
    }
    // Killed or exited: reaped here either way (a pidfd-less system blocks in wait4, which
    // is when the pipes have closed: the child is exiting).
    let (status, ru) = sys::reap(pid);
    let ns = start.elapsed().as_nanos() as u64;
    if let Some(fd) = pidfd {
        sys::close(fd);
    }
    let exit = if killed {
        Exit::Killed
    } else if status & 0x7f == 0 {
        Exit::Code((status >> 8) & 0xff)
    } else {
        Exit::Signal(status & 0x7f)
    };
    Ok(Sample {
        ns,
        exit,
        stdout,
        stderr,
        maxrss_kb: if cfg!(target_os = "macos") { ru.maxrss / 1024 } else { ru.maxrss },
    })
}

// ---------------------------------------------------------------------------------------------
// Options.

struct Opts {
    repo: PathBuf,
    bin: PathBuf,
    runs: usize,
    large_runs: usize,
    json: PathBuf,
    only: Vec<String>,
    large: bool,
    records: usize,
}

const USAGE: &str = "Usage: scripts/bench-hooks [--runs N] [--large-runs N] [--records N] [--no-large]
                          [--only NAME]... [--json FILE] [--bin PATH]

Hook latency as Claude Code runs it (hooks/hooks.json: exec form without a shell, SessionStart
through /bin/sh -c), next to the spawn floor (/bin/true exec'd the same way; through the shell,
/bin/sh -c 'exec /bin/true'), in five repositories: empty, active, large memory, large audit session, long history. Prints p50/p95, the
ratio p50/floor p50, and the peak RSS; writes JSON.

  --runs N        timed runs per case (default 200; 3 warm-up runs are added and discarded)
  --large-runs N  timed runs per large case (default 20)
  --records N     audit records in the large session (default 2000000)
  --no-large      skip the large-memory and large-session repositories
  --only NAME     only cases whose name contains NAME (repeatable)
  --json FILE     the JSON report (default: target/bench-hooks.json in the repository)
  --bin PATH      the baton binary (default: bin/baton, built by
                  cargo install --locked --path . --root .)

Exit status: 0 (a measurement, not a test), 1 on a usage or setup error, 2 if a hook exited 2.";

fn opts() -> Result<Opts, String> {
    let mut args = std::env::args().skip(1);
    let mut o = Opts {
        repo: PathBuf::new(),
        bin: PathBuf::new(),
        runs: 200,
        large_runs: 20,
        json: PathBuf::new(),
        only: Vec::new(),
        large: true,
        records: 2_000_000,
    };
    let mut bin = None;
    let mut json = None;
    while let Some(a) = args.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (a.clone(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            inline.clone().or_else(|| args.next()).ok_or(format!("{name} needs a value"))
        };
        let count = |v: String, name: &str| -> Result<usize, String> {
            v.parse::<usize>().ok().filter(|n| *n > 0).ok_or(format!("{name} must be a positive integer (got '{v}')"))
        };
        match flag.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            "--repo" => o.repo = PathBuf::from(value("--repo")?),
            "--runs" => o.runs = count(value("--runs")?, "--runs")?,
            "--large-runs" => o.large_runs = count(value("--large-runs")?, "--large-runs")?,
            "--records" => o.records = count(value("--records")?, "--records")?,
            "--no-large" => o.large = false,
            "--only" => o.only.push(value("--only")?),
            "--json" => json = Some(PathBuf::from(value("--json")?)),
            "--bin" => bin = Some(PathBuf::from(value("--bin")?)),
            other => return Err(format!("unknown argument: {other}\n{USAGE}")),
        }
    }
    if o.repo.as_os_str().is_empty() {
        return Err("--repo is set by scripts/bench-hooks".into());
    }
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    o.bin = bin.map_or_else(|| o.repo.join("bin/baton"), |b| cwd.join(b));
    o.json = json.map_or_else(|| o.repo.join("target/bench-hooks.json"), |j| cwd.join(j));
    if !o.bin.is_file() {
        return Err(format!(
            "no baton binary at {}; build it: cd {} && cargo install --locked --path . --root .",
            o.bin.display(),
            o.repo.display()
        ));
    }
    o.bin = o.bin.canonicalize().map_err(|e| e.to_string())?;
    Ok(o)
}

// ---------------------------------------------------------------------------------------------
// The sandbox: a plugin root, a HOME, and the repositories.

const SESSION_ID: &str = "e9fc3b1e-6a0d-4c2b-9f7e-2d1a5c8b4e10";

struct Sandbox {
    tmp: PathBuf,
    plugin_root: PathBuf,
    home: PathBuf,
    hooks: Json,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        // BENCH_HOOKS_KEEP=1 leaves the sandbox for a look (profiling a case by hand).
        if std::env::var_os("BENCH_HOOKS_KEEP").is_some() {
            eprintln!("bench-hooks: sandbox kept at {}", self.tmp.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.tmp);
        }
    }
}

fn sh(cwd: &Path, argv: &[&str]) -> Result<(), String> {
    let st = Command::new(argv[0])
        .args(&argv[1..])
        .current_dir(cwd)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("{}: {e}", argv[0]))?;
    if st.success() {
        Ok(())
    } else {
        Err(format!("{} failed in {}", argv.join(" "), cwd.display()))
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

impl Sandbox {
    fn new(o: &Opts) -> Result<Sandbox, String> {
        let base = std::env::var_os("TMPDIR").map_or_else(|| PathBuf::from("/tmp"), PathBuf::from);
        let tmp = base.join(format!("bench-hooks.{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
        let tmp = tmp.canonicalize().map_err(|e| e.to_string())?;
        // The plugin root: the folder holding bin/baton; another binary is copied into one.
        let plugin_root = match o.bin.parent() {
            Some(d) if o.bin.file_name() == Some("baton".as_ref()) && d.file_name() == Some("bin".as_ref()) => {
                d.parent().ok_or("bin/ has no parent")?.to_path_buf()
            }
            _ => {
                let root = tmp.join("plugin");
                std::fs::create_dir_all(root.join("bin")).map_err(|e| e.to_string())?;
                std::fs::copy(&o.bin, root.join("bin/baton")).map_err(|e| e.to_string())?;
                root
            }
        };
        let hooks_text = std::fs::read_to_string(o.repo.join("hooks/hooks.json")).map_err(|e| format!("hooks/hooks.json: {e}"))?;
        let hooks = Json::parse(&hooks_text).map_err(|e| format!("hooks/hooks.json: {e}"))?;
        let home = tmp.join("home");
        for d in ["plugin-data", "home/.config", "home/.cache", "home/.local/share", "home/.local/state"] {
            std::fs::create_dir_all(tmp.join(d)).map_err(|e| e.to_string())?;
        }
        Ok(Sandbox { tmp, plugin_root, home, hooks })
    }

    /// A git repository with one commit, as the benchmark's project.
    fn repo(&self, name: &str) -> Result<PathBuf, String> {
        let p = self.tmp.join(name);
        write(&p.join("README.md"), "# demo\n\nA small crate the benchmark's hooks run in.\n")?;
        write(
            &p.join("src/lib.rs"),
            "pub fn parse(input: &str) -> Vec<String> {\n    assert!(!input.is_empty());\n    input.split(',').map(str::to_owned).collect()\n}\n",
        )?;
        let git = |args: &[&str]| {
            let mut argv = vec!["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null", "-c", "init.defaultBranch=main"];
            argv.extend_from_slice(args);
            sh(&p, &argv)
        };
        git(&["init", "-q"])?;
        git(&["add", "-A"])?;
        git(&["commit", "-q", "-m", "initial commit"])?;
        Ok(p)
    }

    /// The environment a hook gets: this process's, with HOME and the XDG folders in the
    /// sandbox (so the user's own caches neither help nor suffer), and what Claude Code adds.
    fn env(&self, project: &Path, event: &str) -> Vec<(String, String)> {
        let mut env: BTreeMap<String, String> = std::env::vars()
            .filter(|(k, _)| !k.starts_with("BATON_") && !k.starts_with("XDG_") && !k.starts_with("CLAUDE"))
            .collect();
        let h = |s: &str| self.home.join(s).to_string_lossy().into_owned();
        for (k, v) in [
            ("HOME", h("")),
            ("XDG_CONFIG_HOME", h(".config")),
            ("XDG_CACHE_HOME", h(".cache")),
            ("XDG_DATA_HOME", h(".local/share")),
            ("XDG_STATE_HOME", h(".local/state")),
            ("CLAUDE_PROJECT_DIR", project.to_string_lossy().into_owned()),
            ("CLAUDE_PLUGIN_ROOT", self.plugin_root.to_string_lossy().into_owned()),
            ("CLAUDE_PLUGIN_DATA", self.tmp.join("plugin-data").to_string_lossy().into_owned()),
            ("CLAUDE_CODE_SESSION_ID", SESSION_ID.to_string()),
            ("CLAUDECODE", "1".into()),
            ("CLAUDE_CODE_ENTRYPOINT", "cli".into()),
        ] {
            env.insert(k.to_string(), v);
        }
        if event == "SessionStart" {
            let dir = self.tmp.join("claude/session-env").join(SESSION_ID);
            let _ = std::fs::create_dir_all(&dir);
            env.insert("CLAUDE_ENV_FILE".into(), dir.join("sessionstart-hook-1.sh").to_string_lossy().into_owned());
        }
        env.into_iter().collect()
    }

    /// The transcript Claude Code would have written for `project`.
    fn transcript(&self, o: &Opts, project: &Path) -> Result<String, String> {
        let dir_name: String = project.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
        let path = self.home.join(".claude/projects").join(dir_name).join(format!("{SESSION_ID}.jsonl"));
        let shown = path.to_string_lossy().into_owned();
        let src = std::fs::read_to_string(o.repo.join("scripts/bench/transcript.jsonl")).map_err(|e| e.to_string())?;
        let vars = [("@CWD@", project.to_str().unwrap_or("")), ("@TRANSCRIPT@", shown.as_str()), ("@SESSION_ID@", SESSION_ID)];
        let mut text = String::new();
        for line in src.lines().filter(|l| !l.trim().is_empty()) {
            text.push_str(&Json::parse(line)?.fill(&vars).compact());
            text.push('\n');
        }
        write(&path, &text)?;
        Ok(shown)
    }

    /// The hooks hooks.json registers for `event` whose matcher takes `payload`, as specs,
    /// with their floors.
    fn hooks_for(&self, event: &str, payload: &Json, project: &Path) -> Vec<(Spec, Spec, &'static str)> {
        let mut out = Vec::new();
        let groups = self.hooks.get("hooks").and_then(|h| h.get(event)).map(Json::arr).unwrap_or(&[]);
        let env = self.env(project, event);
        let expand = |s: &str| {
            s.replace("${CLAUDE_PLUGIN_ROOT}", &self.plugin_root.to_string_lossy())
                .replace("${CLAUDE_PLUGIN_DATA}", &self.tmp.join("plugin-data").to_string_lossy())
                .replace("${CLAUDE_PROJECT_DIR}", &project.to_string_lossy())
        };
        for g in groups {
            if !matcher_takes(event, g.get("matcher").and_then(Json::str).unwrap_or(""), payload) {
                continue;
            }
            for h in g.get("hooks").map(Json::arr).unwrap_or(&[]) {
                let Some(command) = h.get("command").and_then(Json::str) else { continue };
                let timeout = match h.get("timeout") {
                    Some(Json::Num(n)) => Duration::from_secs_f64(*n),
                    _ => Duration::from_secs(if event == "UserPromptSubmit" { 30 } else { 600 }),
                };
                let spec = |argv: Vec<String>| Spec { argv, env: env.clone(), cwd: project.to_path_buf(), timeout };
                match h.get("args") {
                    Some(args) => {
                        let args: Vec<String> = args.arr().iter().filter_map(Json::str).map(expand).collect();
                        let mut hook = vec![expand(command)];
                        hook.extend(args.iter().cloned());
                        let mut floor = vec!["/bin/true".to_string()];
                        floor.extend(args);
                        out.push((spec(hook), spec(floor), "exec"));
                    }
                    None => out.push((
                        spec(vec!["/bin/sh".into(), "-c".into(), command.to_string()]),
                        spec(vec!["/bin/sh".into(), "-c".into(), "exec /bin/true".into()]),
                        "shell",
                    )),
                }
            }
        }
        out
    }
}

/// Claude Code's matcher rules for the fields the fixtures carry.
fn matcher_takes(event: &str, matcher: &str, payload: &Json) -> bool {
    if matcher.is_empty() || matcher == "*" {
        return true;
    }
    let field = match event {
        "SessionStart" => "source",
        "PreToolUse" | "PostToolUse" | "PostToolUseFailure" => "tool_name",
        "PreCompact" | "PostCompact" => "trigger",
        "SessionEnd" => "reason",
        _ => return true,
    };
    let value = payload.get(field).and_then(Json::str).unwrap_or("");
    matcher.split(['|', ',']).any(|m| m.trim() == value)
}

// ---------------------------------------------------------------------------------------------
// The repositories' state.

/// `.rune/` of an ordinary project: the clean corpus of the tests.
fn active_state(o: &Opts, project: &Path) -> Result<(), String> {
    let src = o.repo.join("tests/fixtures/bridge/clean");
    let rd = std::fs::read_dir(&src).map_err(|e| format!("{}: {e}", src.display()))?;
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name == "false-positives.md" {
            continue;
        }
        let text = std::fs::read_to_string(e.path()).map_err(|e| e.to_string())?;
        write(&project.join(".rune").join(&name), &text)?;
    }
    Ok(())
}

/// `.rune/` with 5,000 decisions, 10,000 learnings and a 2 MB notes file.
fn large_memory(project: &Path) -> Result<(), String> {
    let mut d = String::from("# Decisions Log\n");
    for i in 0..5000 {
        let _ = write!(
            d,
            "\n## [2026-{:02}-{:02} 10:{:02}] Decision: Decision number {i}\n\n**Context:** The module grew and needed a boundary between parsing and validation, case {i}.\n**Decision:** Split parse.rs from validate.rs and keep the error type in one place.\n**Rationale:** Smaller files, one concept each; tests stay next to the code.\n**Impact:** src/parse.rs, src/validate.rs\n",
            1 + i % 12,
            1 + i % 28,
            i % 60
        );
    }
    write(&project.join(".rune/decisions.md"), &d)?;
    let mut l = String::new();
    for i in 0..10_000 {
        let _ = writeln!(
            l,
            "{{\"ts\":\"2026-11-{:02}T10:00:00Z\",\"skill\":\"bench\",\"type\":\"insight\",\"key\":\"key-{i}\",\"insight\":\"Insight number {i}: batching the writes keeps the lock short.\",\"confidence\":0.6,\"files\":[\"src/x.rs\"]}}",
            1 + i % 28
        );
    }
    write(&project.join(".rune/learnings.jsonl"), &l)?;
    let mut n = String::from("# Cumulative Project Notes\n\n## Project Profile\n\n- [2026-11-01] A demo crate.\n\n## Architecture Map\n\n");
    let mut i = 0;
    while n.len() < 2 * 1024 * 1024 {
        let _ = writeln!(n, "- [2026-11-{:02}] Component {i} talks to component {} through the queue.", 1 + i % 28, i + 1);
        i += 1;
    }
    n.push_str("\n## Recurring Themes\n\n## Active Topics\n\n- [2026-11-30] the parser\n\n## Relationship Map\n\n## Follow-Up Items\n\n- [ ] [2026-11-30] add fuzzing\n\n## Attention Points\n\n- [2026-11-30] keep hooks fast\n");
    write(&project.join(".rune/cumulative-notes.md"), &n)
}

/// A decisions log of `mb` megabytes.
fn decisions(path: &Path, mb: usize) -> Result<(), String> {
    let mut d = String::from("# Decisions Log\n");
    let mut i = 0;
    while d.len() < mb * 1024 * 1024 {
        let _ = write!(d, "\n## [2026-11-{:02} 10:00] Decision: Decision number {i}\n\n**Context:** The module grew and needed a boundary between parsing and validation, case {i}.\n**Decision:** Split parse.rs from validate.rs.\n**Rationale:** Smaller files, one concept each.\n**Impact:** src/parse.rs\n", 1 + i % 28);
        i += 1;
    }
    write(path, &d)
}

/// The current audit session's id (`.boo/runs/.current_session`).
fn current_session(project: &Path) -> Result<String, String> {
    let p = project.join(".boo/runs/.current_session");
    Ok(std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?.trim().to_string())
}

/// `n` tool-call records in the current session's buffer (written straight to the file, as
/// the hooks would have appended them), every tenth a change of one of 500 files.
fn session_records(project: &Path, n: usize) -> Result<(), String> {
    let id = current_session(project)?;
    let path = project.join(".boo/runs").join(&id).join("audit_buffer.jsonl");
    let f = std::fs::OpenOptions::new().append(true).create(true).open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
    for i in 0..n {
        let (h, m, s, ms) = (10 + (i / 3_600_000) % 10, (i / 60_000) % 60, (i / 1000) % 60, i % 1000);
        let line = if i % 10 == 0 {
            format!("{{\"claude_session\":\"{SESSION_ID}\",\"duration_ms\":3,\"id\":\"t-{i:016x}\",\"input\":\"src/mod{0}.rs\",\"outcome\":\"ok\",\"path\":\"src/mod{0}.rs\",\"tool\":\"Edit\",\"tool_use_id\":\"toolu_{i}\",\"ts\":\"2026-11-30T{h:02}:{m:02}:{s:02}.{ms:03}Z\",\"type\":\"change\"}}\n", (i / 10) % 500)
        } else {
            format!("{{\"claude_session\":\"{SESSION_ID}\",\"duration_ms\":12,\"id\":\"t-{i:016x}\",\"input\":\"cargo test --quiet\",\"outcome\":\"ok\",\"tool\":\"Bash\",\"tool_use_id\":\"toolu_{i}\",\"ts\":\"2026-11-30T{h:02}:{m:02}:{s:02}.{ms:03}Z\",\"type\":\"data\"}}\n")
        };
        w.write_all(line.as_bytes()).map_err(|e| e.to_string())?;
    }
    w.flush().map_err(|e| e.to_string())
}

/// `n` ended audit sessions before this one, each with its run folder (session.json and a
/// trail of five tool calls): a year or so of use. `baton audit reindex` then lists them.
fn history(project: &Path, n: usize) -> Result<(), String> {
    for i in 0..n {
        let (month, day, hour, minute) = (1 + i / 400 % 12, 1 + i / 16 % 25, 8 + i / 4 % 4, i % 4 * 15);
        let id = format!("adhoc_2025{month:02}{day:02}_{hour:02}{minute:02}");
        let dir = project.join(".boo/runs").join(&id);
        let stamp = |m: usize| format!("2025-{month:02}-{day:02}T{hour:02}:{:02}:00Z", minute + m);
        write(
            &dir.join("session.json"),
            &format!(
                "{{\"session_id\":\"{id}\",\"task\":\"(auto)\",\"start_time\":\"{}\",\"status\":\"completed\",\"expected_record_types\":[\"data\",\"change\",\"conversation\"],\"end_time\":\"{}\",\"started_by\":\"auto\",\"integrity\":[]}}\n",
                stamp(0),
                stamp(10)
            ),
        )?;
        let mut trail = String::new();
        for k in 0..5 {
            let _ = writeln!(
                trail,
                "{{\"claude_session\":\"s-{i}\",\"duration_ms\":12,\"id\":\"t-{i}-{k}\",\"input\":\"cargo test --quiet\",\"outcome\":\"ok\",\"tool\":\"Bash\",\"tool_use_id\":\"toolu_{i}_{k}\",\"ts\":\"{}\",\"type\":\"data\"}}",
                stamp(k)
            );
        }
        write(&dir.join("audit_trail.jsonl"), &trail)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Cases.

/// What runs before each timed run of a case (outside the clock).
#[derive(Clone, Copy, PartialEq)]
enum Before {
    Nothing,
    /// A line appended to `.rune/session-log.md` (what a save or a teammate's pull does): the
    /// next session start rescans that file's end.
    ChangeMemory,
    /// Five tool calls recorded in the audit buffer (what a turn leaves for Stop to move).
    ToolCalls,
    /// The SessionEnd hook run (untimed): what a session start after an ordinary session end
    /// finds (a new audit session to begin; baton's line in the private session log).
    SessionEnd,
    /// A teammate commits 10 entries (5 decisions, 5 learnings) to the team's origin and the
    /// clone pulls them.
    Pull,
    /// One word of the decision in the middle of decisions.md changed (alternately back).
    EditMiddle,
    /// The clone's provenance ledger put back as it was before `bridge review --all` ran.
    RestoreLedger,
}

struct Case {
    name: String,
    repo: String,
    event: String,
    /// The payload (one JSON line and "\n").
    payload: Vec<u8>,
    specs: Vec<(Spec, Spec, &'static str)>,
    runs: usize,
    before: Before,
    project: PathBuf,
    /// What `Before::SessionEnd` runs: the SessionEnd hooks and their payload.
    pre: Vec<(Spec, Vec<u8>)>,
}

struct Result_ {
    case: String,
    repo: String,
    event: String,
    form: &'static str,
    hook_ns: Vec<u64>,
    floor_ns: Vec<u64>,
    maxrss_kb: i64,
    floor_maxrss_kb: i64,
    exits: BTreeMap<String, usize>,
    stderr_sample: Option<String>,
    stdout_bytes: usize,
    argv: Vec<String>,
}

fn percentile(sorted: &[u64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let k = (sorted.len() - 1) as f64 * q;
    let lo = k.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    (sorted[lo] as f64 + (sorted[hi] as f64 - sorted[lo] as f64) * (k - lo as f64)) / 1e6
}

const WARMUPS: usize = 3;

fn before(case: &Case, i: usize) -> Result<(), String> {
    match case.before {
        Before::Nothing => Ok(()),
        Before::ChangeMemory => {
            let p = case.project.join(".rune/session-log.md");
            let mut f = std::fs::OpenOptions::new().append(true).create(true).open(&p).map_err(|e| e.to_string())?;
            writeln!(f, "[2026-11-30 10:{:02}] — benchmark session {i} ended", i % 60).map_err(|e| e.to_string())
        }
        Before::SessionEnd => {
            for (spec, payload) in &case.pre {
                run_once(spec, payload)?;
            }
            Ok(())
        }
        Before::Pull => team_pull(&case.project, i),
        Before::EditMiddle => edit_middle(&case.project, i),
        Before::RestoreLedger => restore_ledger(&case.project),
        Before::ToolCalls => {
            let id = current_session(&case.project)?;
            let path = case.project.join(".boo/runs").join(id).join("audit_buffer.jsonl");
            let mut f = std::fs::OpenOptions::new().append(true).create(true).open(&path).map_err(|e| e.to_string())?;
            for k in 0..5 {
                writeln!(f, "{{\"claude_session\":\"{SESSION_ID}\",\"duration_ms\":12,\"id\":\"t-b{i}-{k}\",\"input\":\"cargo test --quiet\",\"outcome\":\"ok\",\"tool\":\"Bash\",\"tool_use_id\":\"toolu_b{i}_{k}\",\"ts\":\"2026-11-30T11:00:00.000Z\",\"type\":\"data\"}}").map_err(|e| e.to_string())?;
            }
            Ok(())
        }
    }
}

/// Runs every hook of one event at once (as Claude Code does) and waits for all.
fn run_batch(specs: &[&Spec], payload: &[u8]) -> Result<(u64, Vec<Sample>), String> {
    if let [one] = specs {
        let s = run_once(one, payload)?;
        return Ok((s.ns, vec![s]));
    }
    let start = Instant::now();
    let samples: Vec<Result<Sample, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = specs.iter().map(|s| scope.spawn(move || run_once(s, payload))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("panicked".into()))).collect()
    });
    let ns = start.elapsed().as_nanos() as u64;
    Ok((ns, samples.into_iter().collect::<Result<_, _>>()?))
}

fn measure(case: &Case) -> Result<Result_, String> {
    let hooks: Vec<&Spec> = case.specs.iter().map(|(h, _, _)| h).collect();
    let floors: Vec<&Spec> = case.specs.iter().map(|(_, f, _)| f).collect();
    let mut r = Result_ {
        case: case.name.clone(),
        repo: case.repo.clone(),
        event: case.event.clone(),
        form: case.specs.first().map_or("exec", |s| s.2),
        hook_ns: Vec::new(),
        floor_ns: Vec::new(),
        maxrss_kb: 0,
        floor_maxrss_kb: 0,
        exits: BTreeMap::new(),
        stderr_sample: None,
        stdout_bytes: 0,
        argv: hooks.first().map(|s| s.argv.clone()).unwrap_or_default(),
    };
    for i in 0..WARMUPS + case.runs {
        let warm = i < WARMUPS;
        let mut order = [true, false];
        if i % 2 == 1 {
            order.reverse();
        }
        for is_hook in order {
            if is_hook {
                before(case, i)?;
                let (ns, samples) = run_batch(&hooks, &case.payload)?;
                if warm {
                    continue;
                }
                r.hook_ns.push(ns);
                for s in samples {
                    *r.exits.entry(s.exit.label()).or_default() += 1;
                    r.maxrss_kb = r.maxrss_kb.max(s.maxrss_kb);
                    r.stdout_bytes = s.stdout.len();
                    if s.exit != Exit::Code(0) && r.stderr_sample.is_none() {
                        let text = String::from_utf8_lossy(&s.stderr);
                        r.stderr_sample = Some(text.trim().chars().take(500).collect());
                    }
                }
            } else {
                let (ns, samples) = run_batch(&floors, &case.payload)?;
                if !warm {
                    r.floor_ns.push(ns);
                    for s in samples {
                        r.floor_maxrss_kb = r.floor_maxrss_kb.max(s.maxrss_kb);
                    }
                }
            }
        }
    }
    r.hook_ns.sort_unstable();
    r.floor_ns.sort_unstable();
    Ok(r)
}

fn payload(o: &Opts, event: &str, variant: &str, project: &Path, transcript: &str) -> Result<(Json, Vec<u8>), String> {
    let file = o.repo.join("scripts/bench/events").join(format!("{event}.json"));
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let vars = [("@CWD@", project.to_str().unwrap_or("")), ("@TRANSCRIPT@", transcript), ("@SESSION_ID@", SESSION_ID)];
    let mut v = Json::parse(&text).map_err(|e| format!("{}: {e}", file.display()))?.fill(&vars);
    if variant == "curl" {
        // The same call with a URL in the command: the redactor's URL rule has work to do.
        if let Json::Obj(fields) = &mut v {
            for (k, x) in fields.iter_mut() {
                if k == "tool_input" {
                    *x = obj(vec![
                        ("command", Json::Str("curl -fsSL https://example.invalid/api/v1/items?page=2 | head -n 20".into())),
                        ("description", Json::Str("Fetch the first page".into())),
                    ]);
                }
            }
        }
    }
    if variant == "secrets" {
        // A command with secrets in it: the redactor has tokens to take out.
        set_field(&mut v, "tool_input", obj(vec![
            ("command", Json::Str(format!("GITHUB_TOKEN={} AWS_ACCESS_KEY_ID={} gh api repos/acme/widgets/releases -H 'Authorization: Bearer {}'", SECRET_GITHUB, SECRET_AWS, SECRET_BEARER))),
            ("description", Json::Str("List the releases".into())),
        ]));
    }
    if variant == "10mb" {
        // A tool that printed 10 MB (a build log): lines of 100 characters.
        let line = "   Compiling widget-core v0.4.1 (/work/widgets/crates/core) finished in 0.42s ok ok ok ok ok ok\n";
        let mut out = String::with_capacity(10 * 1024 * 1024 + line.len());
        while out.len() < 10 * 1024 * 1024 {
            out.push_str(line);
        }
        set_field(&mut v, "tool_response", obj(vec![
            ("stdout", Json::Str(out)),
            ("stderr", Json::Str(String::new())),
            ("interrupted", Json::Bool(false)),
            ("isImage", Json::Bool(false)),
        ]));
    }
    let mut bytes = v.compact().into_bytes();
    bytes.push(b'\n');
    Ok((v, bytes))
}

/// Sets field `key` of the object `v`.
fn set_field(v: &mut Json, key: &str, value: Json) {
    if let Json::Obj(fields) = v {
        for (k, x) in fields.iter_mut() {
            if k == key {
                *x = value;
                return;
            }
        }
        fields.push((key.to_string(), value));
    }
}

/// Made-up secrets of the shapes the redactor knows (not real credentials).
const SECRET_GITHUB: &str = "ghp_R8s2Lk4Vn7Tz1XbQ3mCe5Pq8Wd2LkVn5Tz7X";
const SECRET_AWS: &str = "AKIAQ3EGRTYXB7JN2WMZ";
const SECRET_BEARER: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiZW5jaCJ9.c2lnbmF0dXJlLW9mLXRoZS1iZW5jaA";

const EVENTS: [&str; 9] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PreCompact",
    "PostCompact",
    "Stop",
    "SessionEnd",
];

/// Runs one hook once outside the clock (setup).
fn once(sb: &Sandbox, o: &Opts, project: &Path, event: &str, timeout: Duration) -> Result<(), String> {
    let transcript = sb.transcript(o, project)?;
    let (v, bytes) = payload(o, event, "", project, &transcript)?;
    for (mut hook, _, _) in sb.hooks_for(event, &v, project) {
        hook.timeout = timeout;
        let s = run_once(&hook, &bytes)?;
        if s.exit != Exit::Code(0) {
            return Err(format!("setup: {event} in {} exited {}: {}", project.display(), s.exit.label(), String::from_utf8_lossy(&s.stderr)));
        }
    }
    Ok(())
}

fn cases_for(sb: &Sandbox, o: &Opts, repo: &str, project: &Path, runs: usize, extra: &[(&str, &str, Before)]) -> Result<Vec<Case>, String> {
    let transcript = sb.transcript(o, project)?;
    let mut list: Vec<(String, &str, &str, Before)> = EVENTS.iter().map(|e| (format!("{repo}/{e}"), *e, "", Before::Nothing)).collect();
    for (label, event, before) in extra {
        let variant = if label.contains("curl") {
            "curl"
        } else if label.contains("secrets") {
            "secrets"
        } else if label.contains("10 MB") {
            "10mb"
        } else {
            ""
        };
        let case = (format!("{repo}/{label}"), *event, variant, *before);
        // A session start after a memory change runs right after the plain one, before the
        // other events add their lines to the session log it rescans (a hundred PostCompact
        // summaries would make it a log of a hundred compactions).
        if matches!(*before, Before::ChangeMemory | Before::SessionEnd) {
            list.insert(1, case);
        } else {
            list.push(case);
        }
    }
    // SessionEnd ends the Claude session's automatic audit session: it runs last, so the
    // cases that add tool calls to the current session still find one.
    list.sort_by_key(|(_, event, _, _)| *event == "SessionEnd");
    let mut out = Vec::new();
    for (name, event, variant, before) in list {
        if !o.only.is_empty() && !o.only.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let (v, bytes) = payload(o, event, variant, project, &transcript)?;
        let specs = sb.hooks_for(event, &v, project);
        if specs.is_empty() {
            eprintln!("note: {name}: no hook in hooks.json takes the fixture; skipped");
            continue;
        }
        let mut pre = Vec::new();
        if before == Before::SessionEnd {
            let (v, end) = payload(o, "SessionEnd", "", project, &transcript)?;
            for (hook, _, _) in sb.hooks_for("SessionEnd", &v, project) {
                pre.push((hook, end.clone()));
            }
        }
        out.push(Case { name, repo: repo.to_string(), event: event.to_string(), payload: bytes, specs, runs, before, project: project.to_path_buf(), pre });
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// `baton bridge save` over a 50 MB decisions.md (a command, not a hook: measured the same way).

fn bridge_save_cases(sb: &Sandbox, o: &Opts) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for commit in [false, true] {
        let name = if commit { "decisions-50mb/bridge save (commit)" } else { "decisions-50mb/bridge save" };
        if !o.only.is_empty() && !o.only.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let project = sb.repo(if commit { "decisions-50mb-commit" } else { "decisions-50mb" })?;
        generated(&["decisions", &project.join(".rune/decisions.md").to_string_lossy(), "50"])?;
        if !commit {
            write(&project.join(".claude/baton.yaml"), "bridge:\n  commit: false\n")?;
        }
        sh(&project, &["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "core.hooksPath=/dev/null", "add", "-A"])?;
        sh(&project, &["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "memory"])?;
        let env = sb.env(&project, "");
        let baton = sb.plugin_root.join("bin/baton").to_string_lossy().into_owned();
        let spec = |argv: Vec<String>| Spec { argv, env: env.clone(), cwd: project.clone(), timeout: Duration::from_secs(120) };
        let args = ["bridge", "save"].map(String::from);
        let mut hook = vec![baton];
        hook.extend(args.iter().cloned());
        let mut floor = vec!["/bin/true".to_string()];
        floor.extend(args);
        let input = "summary: benchmark save\ndecisions:\n  - {title: Keep the save O(1), context: a 50 MB log, decision: append only, rationale: the hook budget, impact: src/bridge/save.rs}\n";
        // Warm the verdict cache once, as the saves before this one would have.
        run_once(&spec(vec![sb.plugin_root.join("bin/baton").to_string_lossy().into_owned(), "bridge".into(), "load".into()]), b"")?;
        out.push(Case {
            name: name.to_string(),
            repo: "decisions-50mb".into(),
            event: "bridge save".into(),
            payload: input.as_bytes().to_vec(),
            specs: vec![(spec(hook), spec(floor), "exec")],
            runs: o.large_runs,
            before: Before::Nothing,
            project,
            pre: Vec::new(),
        });
    }
    Ok(out)
}

/// Accepts the memory of `project` as the user's own (`baton bridge review --all`), as a user
/// of that memory would have after the first session: a session start then reads reviewed
/// memory, as in a project whose memory baton wrote.
fn reviewed(sb: &Sandbox, project: &Path) -> Result<(), String> {
    baton_command(sb, project, &["bridge", "review", "--all"])
}

/// Runs `baton ARGS` in `project` as the user would from a terminal (setup, untimed).
fn baton_command(sb: &Sandbox, project: &Path, args: &[&str]) -> Result<(), String> {
    let baton = sb.plugin_root.join("bin/baton").to_string_lossy().into_owned();
    let mut argv = vec![baton];
    argv.extend(args.iter().map(|a| a.to_string()));
    let spec = Spec {
        argv,
        // The user's own terminal, not Claude Code's shell.
        env: sb.env(project, "").into_iter().filter(|(k, _)| k != "CLAUDECODE").collect(),
        cwd: project.to_path_buf(),
        timeout: Duration::from_secs(600),
    };
    let s = run_once(&spec, b"")?;
    if s.exit != Exit::Code(0) {
        return Err(format!("setup: baton {} in {} exited {}: {}", args.join(" "), project.display(), s.exit.label(), String::from_utf8_lossy(&s.stderr)));
    }
    Ok(())
}

/// The repositories and the cases to measure in them; a case that has to be measured while
/// setup is under way (the Stop over a huge buffer) is measured there, into `early`.
fn setup(sb: &Sandbox, o: &Opts, early: &mut Vec<Result_>) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    let empty = sb.repo("empty")?;
    cases.extend(cases_for(sb, o, "empty", &empty, o.runs, &[])?);

    let active = sb.repo("active")?;
    active_state(o, &active)?;
    reviewed(sb, &active)?;
    once(sb, o, &active, "SessionStart", Duration::from_secs(60))?;
    for _ in 0..50 {
        once(sb, o, &active, "PostToolUse", Duration::from_secs(60))?;
    }
    once(sb, o, &active, "Stop", Duration::from_secs(60))?;
    cases.extend(cases_for(
        sb,
        o,
        "active",
        &active,
        o.runs,
        &[
            ("PostToolUse curl https", "PostToolUse", Before::Nothing),
            ("PostToolUse with secrets in the command", "PostToolUse", Before::Nothing),
            ("PostToolUse with a 10 MB tool_response", "PostToolUse", Before::Nothing),
            ("SessionStart after a memory change", "SessionStart", Before::ChangeMemory),
            ("SessionStart after a session end", "SessionStart", Before::SessionEnd),
            ("Stop after 5 tool calls", "Stop", Before::ToolCalls),
            ("PreCompact after 5 tool calls", "PreCompact", Before::ToolCalls),
        ],
    )?);

    if o.large {
        let big = sb.repo("large-memory")?;
        generated(&["large-memory", &big.to_string_lossy()])?;
        reviewed(sb, &big)?;
        once(sb, o, &big, "SessionStart", Duration::from_secs(600))?;
        cases.extend(cases_for(sb, o, "large-memory", &big, o.large_runs, &[("SessionStart after a memory change", "SessionStart", Before::ChangeMemory), ("SessionStart after a session end", "SessionStart", Before::SessionEnd)])?);

        let session = sb.repo("large-session")?;
        once(sb, o, &session, "SessionStart", Duration::from_secs(600))?;
        let t = Instant::now();
        generated(&["records", &session.to_string_lossy(), &o.records.to_string()])?;
        eprintln!("setup: {} records in the large session's buffer ({:.1} s)", o.records, t.elapsed().as_secs_f64());
        // A Stop over them all (a turn that piled them up): each moves one slice. Measured
        // here, while the buffer holds them.
        let label = format!("Stop over {} buffered records", o.records);
        for c in cases_for(sb, o, &format!("session-{}", short(o.records)), &session, o.large_runs, &[(label.as_str(), "Stop", Before::Nothing)])? {
            if c.name.ends_with(&label) {
                early.push(measure(&c)?);
            }
        }
        // The hooks' own moves of the rest (what the next Stops do).
        let t = Instant::now();
        let buffer = session.join(".boo/runs").join(current_session(&session)?).join("audit_buffer.jsonl");
        let mut stops = 0;
        while std::fs::metadata(&buffer).map_or(0, |m| m.len()) > 0 {
            once(sb, o, &session, "Stop", Duration::from_secs(600))?;
            stops += 1;
        }
        eprintln!("setup: the rest moved by {stops} Stops ({:.1} s)", t.elapsed().as_secs_f64());
        cases.extend(cases_for(sb, o, &format!("session-{}", short(o.records)), &session, o.large_runs, &[])?);

        // A long history: 3,000 ended sessions in the audit index (a year or so of use).
        let history = sb.repo("history")?;
        active_state(o, &history)?;
        reviewed(sb, &history)?;
        generated(&["history", &history.to_string_lossy(), "3000"])?;
        baton_command(sb, &history, &["audit", "reindex"])?;
        once(sb, o, &history, "SessionStart", Duration::from_secs(60))?;
        cases.extend(cases_for(sb, o, "history-3k", &history, o.large_runs, &[("SessionStart after a session end", "SessionStart", Before::SessionEnd)])?);

        cases.extend(bridge_save_cases(sb, o)?);
        if o.only.is_empty() || TEAM_CASES.iter().any(|n| o.only.iter().any(|f| n.contains(f.as_str()))) {
            cases.extend(team_cases(sb, o)?);
        }
    }
    Ok(cases)
}

fn short(n: usize) -> String {
    if n >= 1_000_000 && n % 1_000_000 == 0 {
        format!("{}m", n / 1_000_000)
    } else if n >= 1000 && n % 1000 == 0 {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// The team: memory of 5,000 decisions and 10,000 learnings committed over 500 commits by three
// authors, pulled into a clone whose user reviewed the first half.

const AUTHORS: [&str; 3] = ["alice", "bob", "carol"];

/// The team's cases (`--only` picks from these before the repository is made).
const TEAM_CASES: [&str; 5] = [
    "team/SessionStart",
    "team/bridge review",
    "team/bridge review --all",
    "team/SessionStart after a git pull of 10 entries",
    "team/SessionStart after a one-word edit in the middle of decisions.md",
];

/// `git ARGS` in `dir` as `who` (author and committer), quietly; setup, so a failure ends it.
fn git_as(dir: &Path, who: &str, args: &[&str]) -> Result<(), String> {
    let st = Command::new("git")
        .args(["-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null", "-c", "init.defaultBranch=main", "-c", "core.looseCompression=1", "-c", "pull.rebase=false"])
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", who)
        .env("GIT_AUTHOR_EMAIL", format!("{who}@example.invalid"))
        .env("GIT_COMMITTER_NAME", who)
        .env("GIT_COMMITTER_EMAIL", format!("{who}@example.invalid"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("git: {e}"))?;
    if st.success() {
        Ok(())
    } else {
        Err(format!("git {} failed in {}", args.join(" "), dir.display()))
    }
}

/// Appends commit `c`'s entries (10 decisions, 20 learnings, by its author) to the memory of
/// `repo` and commits them as that author.
fn team_commit(repo: &Path, c: usize, decisions: usize, learnings: usize) -> Result<(), String> {
    let who = AUTHORS[c % 3];
    // Each commit an hour after the one before, from the start of 2026.
    let (day, hour) = (1 + c / 24, c % 24);
    let (month, dom) = (1 + (day - 1) / 28 % 12, 1 + (day - 1) % 28);
    let stamp = |m: usize| format!("2026-{month:02}-{dom:02} {hour:02}:{m:02}:00Z");
    let mut d = String::new();
    for k in 0..decisions {
        let n = c * 10 + k;
        let _ = write!(d, "\n## [{}] Decision: Decision number {n}\n**Context:** The module grew and needed a boundary between parsing and validation, case {n}.\n**Decision:** Split parse.rs from validate.rs and keep the error type in one place.\n**Rationale:** Smaller files, one concept each; tests stay next to the code.\n**Impact:** src/parse.rs, src/validate.rs\n**By:** {who}\n", stamp(k));
    }
    let mut l = String::new();
    for k in 0..learnings {
        let n = c * 20 + k;
        let _ = writeln!(l, "{{\"ts\":\"2026-{month:02}-{dom:02}T{hour:02}:{k:02}:00Z\",\"skill\":\"team\",\"type\":\"insight\",\"key\":\"key-{n}\",\"insight\":\"Insight number {n}: batching the writes keeps the lock short.\",\"confidence\":0.6,\"files\":[\"src/x.rs\"],\"by\":\"{who}\"}}");
    }
    let append = |name: &str, text: &str, header: &str| -> Result<(), String> {
        let path = repo.join(".rune").join(name);
        if !path.exists() {
            write(&path, header)?;
        }
        let mut f = std::fs::OpenOptions::new().append(true).open(&path).map_err(|e| e.to_string())?;
        f.write_all(text.as_bytes()).map_err(|e| e.to_string())
    };
    append("decisions.md", &d, "# Decisions Log\n")?;
    append("learnings.jsonl", &l, "")?;
    git_as(repo, who, &["add", "-A", ".rune"])?;
    git_as(repo, who, &["commit", "-q", "-m", &format!("memory {c}")])
}

/// Commits `from..to` of the team's history in `repo` (`--generate team REPO FROM TO`).
fn team_history(repo: &Path, from: usize, to: usize) -> Result<(), String> {
    for c in from..to {
        team_commit(repo, c, 10, 20)?;
    }
    Ok(())
}

/// The origin of the team clone `project` (beside it).
fn team_origin(project: &Path) -> PathBuf {
    project.with_file_name("team-origin")
}

/// A teammate's commit of 5 decisions and 5 learnings, pulled into the clone.
fn team_pull(project: &Path, i: usize) -> Result<(), String> {
    team_commit(&team_origin(project), 1000 + i, 5, 5)?;
    git_as(project, "alice", &["pull", "-q", "--no-edit"])
}

/// Changes one word of the decision in the middle of the clone's decisions.md (`boundary`
/// and `border`, in turn), in place.
fn edit_middle(project: &Path, i: usize) -> Result<(), String> {
    let path = project.join(".rune/decisions.md");
    let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let at = text.find("Decision: Decision number 2500\n").ok_or("no middle decision")?;
    let (from, to) = if i % 2 == 0 { ("a boundary between", "a border between") } else { ("a border between", "a boundary between") };
    let end = at + text[at..].find("**Decision:**").ok_or("no field")?;
    let entry = text[at..end].replacen(from, to, 1);
    let edited = format!("{}{entry}{}", &text[..at], &text[end..]);
    std::fs::write(&path, edited).map_err(|e| e.to_string())
}

/// FNV-1a 64, as baton keys a project's private folders.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The clone's ledger folder, and where setup keeps a copy of it.
fn ledger_dirs(project: &Path) -> Result<(PathBuf, PathBuf), String> {
    let canonical = project.canonicalize().map_err(|e| e.to_string())?;
    let key = format!("{:016x}", fnv1a(canonical.to_string_lossy().as_bytes()));
    let home = project.parent().ok_or("no parent")?.join("home/.local/state/baton/provenance");
    Ok((home.join(&key), project.with_file_name("team-ledger-before-review")))
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
    for e in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?.flatten() {
        std::fs::copy(e.path(), to.join(e.file_name())).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Puts the clone's ledger back as setup saved it (before `bridge review --all`).
fn restore_ledger(project: &Path) -> Result<(), String> {
    let (ledger, saved) = ledger_dirs(project)?;
    copy_dir(&saved, &ledger)
}

/// The team's origin and its clone: 250 commits, cloned, every entry reviewed by the clone's
/// user (`bridge review --all`: the ledger), 250 more commits pulled; the origins index and
/// the verdict cache warmed by one session start. The cases: a start, the review list and
/// `--all`, a start after a pull, a start after a one-word edit.
fn team_cases(sb: &Sandbox, o: &Opts) -> Result<Vec<Case>, String> {
    let t = Instant::now();
    let origin = sb.tmp.join("team-origin");
    std::fs::create_dir_all(&origin).map_err(|e| e.to_string())?;
    git_as(&origin, "alice", &["init", "-q"])?;
    generated(&["team", &origin.to_string_lossy(), "0", "250"])?;
    let project = sb.tmp.join("team");
    git_as(&sb.tmp, "alice", &["clone", "-q", "team-origin", "team"])?;
    reviewed(sb, &project)?;
    generated(&["team", &origin.to_string_lossy(), "250", "500"])?;
    git_as(&project, "alice", &["pull", "-q", "--no-edit"])?;
    baton_command(sb, &project, &["bridge", "index"])?;
    let (ledger, saved) = ledger_dirs(&project)?;
    copy_dir(&ledger, &saved)?;
    once(sb, o, &project, "SessionStart", Duration::from_secs(600))?;
    eprintln!("setup: the team's repository ({:.1} s)", t.elapsed().as_secs_f64());
    let mut cases = cases_for(sb, o, "team", &project, o.large_runs, &[])?
        .into_iter()
        .filter(|c| c.event == "SessionStart")
        .collect::<Vec<_>>();
    cases.extend(command_cases(sb, o, &project, &[
        ("team/bridge review", &["bridge", "review"], Before::Nothing),
        ("team/bridge review --all", &["bridge", "review", "--all"], Before::RestoreLedger),
    ])?);
    cases.extend(cases_for(sb, o, "team", &project, o.large_runs, &[
        ("SessionStart after a git pull of 10 entries", "SessionStart", Before::Pull),
    ])?.into_iter().filter(|c| c.before == Before::Pull));
    cases.extend(cases_for(sb, o, "team", &project, o.large_runs, &[
        ("SessionStart after a one-word edit in the middle of decisions.md", "SessionStart", Before::EditMiddle),
    ])?.into_iter().filter(|c| c.before == Before::EditMiddle));
    Ok(cases)
}

/// `baton ARGS` in `project` as the user runs it from a terminal, measured like a hook.
fn command_cases(sb: &Sandbox, o: &Opts, project: &Path, list: &[(&str, &[&str], Before)]) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for (name, args, before) in list {
        if !o.only.is_empty() && !o.only.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let env: Vec<(String, String)> = sb.env(project, "").into_iter().filter(|(k, _)| k != "CLAUDECODE").collect();
        let spec = |argv: Vec<String>| Spec { argv, env: env.clone(), cwd: project.to_path_buf(), timeout: Duration::from_secs(600) };
        let mut hook = vec![sb.plugin_root.join("bin/baton").to_string_lossy().into_owned()];
        hook.extend(args.iter().map(|a| a.to_string()));
        let mut floor = vec!["/bin/true".to_string()];
        floor.extend(args.iter().map(|a| a.to_string()));
        out.push(Case {
            name: name.to_string(),
            repo: "team".into(),
            event: args.join(" "),
            payload: Vec::new(),
            specs: vec![(spec(hook), spec(floor), "exec")],
            runs: o.large_runs,
            before: *before,
            project: project.to_path_buf(),
            pre: Vec::new(),
        });
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Report.

fn report(o: &Opts, sb: &Sandbox, results: &[Result_]) -> Result<bool, String> {
    let header = ["case", "p50 ms", "p95 ms", "floor p50", "ratio", "RSS MB", "exits"];
    let mut rows: Vec<[String; 7]> = Vec::new();
    let mut events = Vec::new();
    let mut blocking = false;
    for r in results {
        let p50 = percentile(&r.hook_ns, 0.5);
        let p95 = percentile(&r.hook_ns, 0.95);
        let f50 = percentile(&r.floor_ns, 0.5);
        let f95 = percentile(&r.floor_ns, 0.95);
        let ratio = if f50 > 0.0 { p50 / f50 } else { 0.0 };
        let mut exits: Vec<String> = r.exits.iter().map(|(k, v)| format!("{k}:{v}")).collect();
        if r.exits.keys().any(|k| k != "0") {
            exits.push("<- NON-ZERO".into());
        }
        blocking |= r.exits.contains_key("2");
        let label = if r.form == "shell" { format!("{} (sh -c)", r.case) } else { r.case.clone() };
        rows.push([label, format!("{p50:.2}"), format!("{p95:.2}"), format!("{f50:.2}"), format!("{ratio:.2}x"), format!("{:.1}", r.maxrss_kb as f64 / 1024.0), exits.join(" ")]);
        let mut fields = vec![
            ("case", Json::Str(r.case.clone())),
            ("repo", Json::Str(r.repo.clone())),
            ("event", Json::Str(r.event.clone())),
            ("runs", Json::Num(r.hook_ns.len() as f64)),
            ("p50_ms", num(p50)),
            ("p95_ms", num(p95)),
            ("min_ms", num(r.hook_ns.first().copied().unwrap_or(0) as f64 / 1e6)),
            ("max_ms", num(r.hook_ns.last().copied().unwrap_or(0) as f64 / 1e6)),
            ("floor_p50_ms", num(f50)),
            ("floor_p95_ms", num(f95)),
            ("ratio_p50", num(ratio)),
            ("over_floor_p50_ms", num(p50 - f50)),
            ("max_rss_mb", num(r.maxrss_kb as f64 / 1024.0)),
            ("floor_max_rss_mb", num(r.floor_maxrss_kb as f64 / 1024.0)),
            ("exit_codes", Json::Obj(r.exits.iter().map(|(k, v)| (k.clone(), Json::Num(*v as f64))).collect())),
            ("form", Json::Str(r.form.into())),
            ("argv", Json::Arr(r.argv.iter().cloned().map(Json::Str).collect())),
            ("stdout_bytes", Json::Num(r.stdout_bytes as f64)),
        ];
        if let Some(s) = &r.stderr_sample {
            fields.push(("stderr_sample", Json::Str(s.clone())));
        }
        events.push(obj(fields));
    }
    let widths: Vec<usize> = (0..header.len()).map(|c| rows.iter().map(|r| r[c].chars().count()).chain([header[c].len()]).max().unwrap_or(0)).collect();
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (c, cell) in cells.iter().enumerate() {
            if c > 0 {
                s.push_str(" | ");
            }
            let pad = widths[c].saturating_sub(cell.chars().count());
            if c == 0 || c == cells.len() - 1 {
                s.push_str(cell);
                s.push_str(&" ".repeat(pad));
            } else {
                s.push_str(&" ".repeat(pad));
                s.push_str(cell);
            }
        }
        s.trim_end().to_string()
    };
    println!("baton hook latency: {} runs per case, {} per large case (+{WARMUPS} warm-up), binary {}", o.runs, o.large_runs, o.bin.display());
    println!("{}", line(&header.map(String::from)));
    println!("{}", widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("-+-"));
    for r in &rows {
        println!("{}", line(r));
    }
    println!("floor: /bin/true exec'd the same way; (sh -c) rows: /bin/sh -c 'exec /bin/true'. ratio: p50 / floor p50 of the same run.");
    for r in results {
        if let Some(s) = &r.stderr_sample {
            println!("note: {}: stderr: {}", r.case, s.lines().next().unwrap_or(""));
        }
    }
    let cpu = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|t| t.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split_once(':')).map(|(_, v)| v.trim().to_string()));
    let nproc = std::thread::available_parallelism().map_or(0, usize::from);
    let uname = Command::new("uname").arg("-a").output().ok().map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let doc = obj(vec![
        ("runs", Json::Num(o.runs as f64)),
        ("large_runs", Json::Num(o.large_runs as f64)),
        ("warmups", Json::Num(WARMUPS as f64)),
        ("large_session_records", Json::Num(if o.large { o.records as f64 } else { 0.0 })),
        ("binary", Json::Str(o.bin.to_string_lossy().into_owned())),
        ("plugin_root", Json::Str(sb.plugin_root.to_string_lossy().into_owned())),
        ("cases", Json::Arr(events)),
        ("machine", obj(vec![
            ("nproc", Json::Num(nproc as f64)),
            ("uname", uname.map_or(Json::Null, Json::Str)),
            ("cpu", cpu.map_or(Json::Null, Json::Str)),
        ])),
    ]);
    let mut text = String::new();
    doc.write(&mut text, Some(2));
    text.push('\n');
    write(&o.json, &text)?;
    println!("json: {}", o.json.display());
    Ok(blocking)
}

/// Writes a large fixture in a process of its own (`--generate KIND ARGS…`): the measuring
/// process stays small, since a child's peak RSS counts its parent's from before `exec`.
fn generate(args: &[String]) -> Result<(), String> {
    match args {
        [kind, project] if kind == "large-memory" => large_memory(Path::new(project)),
        [kind, project, n] if kind == "records" => {
            session_records(Path::new(project), n.parse().map_err(|_| "bad count")?)
        }
        [kind, project, n] if kind == "history" => {
            history(Path::new(project), n.parse().map_err(|_| "bad count")?)
        }
        [kind, repo, from, to] if kind == "team" => team_history(
            Path::new(repo),
            from.parse().map_err(|_| "bad count")?,
            to.parse().map_err(|_| "bad count")?,
        ),
        [kind, path, mb] if kind == "decisions" => {
            decisions(Path::new(path), mb.parse().map_err(|_| "bad size")?)
        }
        _ => Err(format!("unknown fixture {args:?}")),
    }
}

/// Runs `generate` in a child.
fn generated(args: &[&str]) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let st = Command::new(exe).arg("--generate").args(args).status().map_err(|e| e.to_string())?;
    if st.success() {
        Ok(())
    } else {
        Err(format!("generating {args:?} failed"))
    }
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    if argv.get(1).map(String::as_str) == Some("--generate") {
        if let Err(e) = generate(&argv[2..]) {
            eprintln!("bench-hooks: {e}");
            std::process::exit(1);
        }
        return;
    }
    let o = match opts() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("bench-hooks: {e}");
            std::process::exit(1);
        }
    };
    let code = (|| -> Result<i32, String> {
        let sb = Sandbox::new(&o)?;
        let mut results = Vec::new();
        let cases = setup(&sb, &o, &mut results)?;
        // baton does not cache a memory file's integrity verdict while the file is less than
        // a second old (its stamp could still change within the same tick): the first runs
        // would rescan what setup just wrote. Every case starts from settled files.
        std::thread::sleep(Duration::from_millis(1100));
        let tty = std::io::stderr().is_terminal();
        for c in &cases {
            if tty {
                eprint!("\r{:70}", c.name);
            }
            results.push(measure(c)?);
        }
        if tty {
            eprint!("\r{:70}\r", "");
        }
        let blocking = report(&o, &sb, &results)?;
        if blocking {
            eprintln!("bench-hooks: a hook exited 2 (blocking)");
            return Ok(2);
        }
        Ok(0)
    })();
    match code {
        Ok(c) => std::process::exit(c),
        Err(e) => {
            eprintln!("bench-hooks: {e}");
            std::process::exit(1);
        }
    }
}
