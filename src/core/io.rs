//! The CLI's standard streams, once: reading a command's input from stdin (with a deadline,
//! so an inherited stdin that nobody closes cannot hang a command) and printing to stdout.
//!
//! Output goes through `out!`/`outln!` and `print_json`: a closed stdout (`baton … | head`)
//! ends the command quietly with exit 0, as ripgrep does — told from the write's
//! `BrokenPipe` error, not from a panic message. (The hook path prints its one answer itself,
//! in `hook::run`.)

use super::error::{Error, Result};
use std::io::{IsTerminal, Read, Write};
use std::sync::mpsc;
use std::time::Duration;

/// Whether stdin is a terminal (nobody piped anything in).
pub fn stdin_is_terminal() -> bool {
    std::io::stdin().is_terminal()
}

/// What reading stdin gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stdin {
    /// Everything up to end of file.
    Text(String),
    /// stdin was not closed within the wait: nothing was read.
    NotClosed,
}

/// Reads stdin to the end, or gives up after `wait` when it is never closed.
pub fn read_stdin(wait: Duration) -> Result<Stdin> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let r = std::io::stdin().read_to_end(&mut bytes).map(|_| bytes);
        let _ = tx.send(r);
    });
    match rx.recv_timeout(wait) {
        Ok(Ok(bytes)) => String::from_utf8(bytes)
            .map(Stdin::Text)
            .map_err(|_| Error::Stdin("stdin is not valid UTF-8".into())),
        Ok(Err(e)) => Err(Error::Stdin(format!("could not read stdin: {e}"))),
        Err(_) => Ok(Stdin::NotClosed),
    }
}

/// Writes `args` to stdout. A closed pipe ends the process with exit 0 (the reader has all it
/// wanted); any other write error ends it with one line on stderr and exit 1.
pub fn write_stdout(args: std::fmt::Arguments<'_>) {
    #[allow(clippy::disallowed_methods)] // the one place the CLI writes to stdout
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("baton: could not write to stdout: {e}");
        std::process::exit(1);
    }
}

/// `print!` for the CLI: see `write_stdout`. Path-addressed (`use crate::core::io::out`).
macro_rules! out {
    ($($arg:tt)*) => { $crate::core::io::write_stdout(format_args!($($arg)*)) };
}

/// `println!` for the CLI: see `write_stdout`.
macro_rules! outln {
    () => { $crate::core::io::write_stdout(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::core::io::write_stdout(format_args!("{}\n", format_args!($($arg)*))) };
}
pub(crate) use {out, outln};

/// Prints `text` as it is.
pub fn print(text: &str) {
    write_stdout(format_args!("{text}"));
}

/// Prints `value` as one line of JSON (what `--json` gives).
pub fn print_json<T: serde::Serialize + ?Sized>(value: &T) {
    match serde_json::to_string(value) {
        Ok(text) => write_stdout(format_args!("{text}\n")),
        Err(e) => {
            eprintln!("baton: internal error (this is a bug in baton): JSON output: {e}");
            std::process::exit(1);
        }
    }
}
