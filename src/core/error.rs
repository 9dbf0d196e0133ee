//! The one error type of the library. Every failure has a name and a message that says what
//! was wrong and, where it can, what to do about it.

use std::path::{Path, PathBuf};

/// A failure in baton. Its `Display` is the one line the user sees.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or directory operation failed.
    #[error("{action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The config file is invalid. `key` names the offending key.
    #[error("config {path}: {message}")]
    Config { path: PathBuf, message: String },
    /// An id or path component that would be unsafe or malformed as part of a path.
    #[error("invalid {what} {value:?}: {reason}")]
    InvalidId {
        what: &'static str,
        value: String,
        reason: &'static str,
    },
    /// A lock is held by a live process and did not free up in time.
    #[error("lock {path} is held by another process (waited {waited_ms} ms); try again, or remove it if no baton is running")]
    LockTimeout { path: PathBuf, waited_ms: u128 },
    /// A path is a symlink where baton does not expect one.
    #[error("refusing to follow symlink at {0}")]
    Symlink(PathBuf),
    /// A path that should lie inside the project does not (`..`, an absolute path).
    #[error("refusing {path}: it is not inside {root}")]
    Outside { path: PathBuf, root: PathBuf },
    /// A file baton reads is not a regular file (a FIFO, a device, a directory).
    #[error("refusing to read {path}: it is {kind}, not a regular file")]
    NotRegular { path: PathBuf, kind: &'static str },
    /// A file is larger than baton reads for its kind.
    #[error("refusing to read {path}: {size} bytes is over the {limit}-byte limit for {what}; shorten or remove it")]
    TooLarge {
        path: PathBuf,
        what: &'static str,
        size: u64,
        limit: u64,
    },
    /// The hook input could not be understood.
    #[error("hook input: {0}")]
    Input(String),
    /// A git operation failed on a repository that exists.
    #[error("git: {0}")]
    Git(String),
    /// The command was called wrongly (exit 2, as usage errors do).
    #[error("usage: {0}")]
    Usage(String),
    /// Reading stdin failed (not UTF-8, a read error, never closed).
    #[error("{0}")]
    Stdin(String),
    /// YAML input (stdin, a front matter) that does not parse (`key`: `None`), or whose `key`
    /// has a wrong value or is unknown. The message is the line the user sees.
    #[error("{message}")]
    Yaml {
        key: Option<String>,
        message: String,
    },
    /// A request's or a record's fields are wrong; `fields` names each (`key`, `sessionId`).
    #[error("{message}")]
    Fields {
        fields: Vec<String>,
        message: String,
    },
    /// A file baton keeps is not in its format; the message says how to fix it.
    #[error("{message}")]
    Malformed { path: PathBuf, message: String },
    /// What a command names does not exist: a session, a correction, a record, a file.
    #[error("{0}")]
    NotFound(String),
    /// A check failed; the message says which and why.
    #[error("{0}")]
    Invalid(String),
    /// Something that should not happen: a bug in baton.
    #[error("internal error (this is a bug in baton): {0}")]
    Internal(String),
}

impl Error {
    /// The exit code of a CLI command that failed with this error: 2 for usage, 3 for a lock
    /// held too long (the handoff writer's contract), 1 otherwise. The hook path never uses
    /// these: it always exits 0 or 1.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) => 2,
            Error::LockTimeout { .. } => 3,
            _ => 1,
        }
    }

    /// `Fields` naming one field.
    pub fn field(field: &str, message: String) -> Self {
        Error::Fields {
            fields: vec![field.into()],
            message,
        }
    }

    /// Wraps an I/O error with what was being done and to which path.
    pub fn io(action: &'static str, path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            action,
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The library's result type.
pub type Result<T> = std::result::Result<T, Error>;
