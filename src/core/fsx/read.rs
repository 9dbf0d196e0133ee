//! Bounded reads of state and config files. Every file baton reads from a project may have
//! been put there by someone else: a link to `/dev/zero` or a FIFO at a config path must not
//! make a hook read until it is killed or wait forever. So a file is opened without following
//! a symlink and without blocking (a FIFO's open returns at once), must be a regular file,
//! and is read only up to the limit for its kind; past it the read fails with an error that
//! names the file, its size and the limit.

use crate::core::error::{Error, Result};
use std::fs::{File, OpenOptions};
use std::io::{Read, Take};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The most baton reads of one kind of file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// What kind of file, for the error message.
    pub what: &'static str,
    /// Bytes.
    pub max: u64,
}

impl Limit {
    /// A one-line pointer file (`.current_session`, a lock's owner file, `/proc` entries).
    pub const POINTER: Limit = Limit {
        what: "a pointer file",
        max: 4 * 1024,
    };
    /// A config file.
    pub const CONFIG: Limit = Limit {
        what: "a config file",
        max: 1024 * 1024,
    };
    /// A structured state file (JSON, YAML, a packet, a loop state, a task list).
    pub const STATE: Limit = Limit {
        what: "a state file",
        max: 16 * 1024 * 1024,
    };
    /// A document a person keeps growing (memory files, artefacts, reports).
    pub const DOCUMENT: Limit = Limit {
        what: "a document",
        max: 256 * 1024 * 1024,
    };
    /// A log baton appends to (audit trails): the largest kind.
    pub const LOG: Limit = Limit {
        what: "a log",
        max: 1024 * 1024 * 1024,
    };
}

/// Opens `path` for reading: no symlink followed, no wait on a FIFO, regular files only.
/// `Ok(None)` when it does not exist.
pub fn open_regular(path: &Path) -> Result<Option<File>> {
    let file = match OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(Error::Symlink(path.to_path_buf()))
        }
        Err(e) => return Err(Error::io("open", path, e)),
    };
    let meta = file.metadata().map_err(|e| Error::io("inspect", path, e))?;
    let ft = meta.file_type();
    if !ft.is_file() {
        let kind = if ft.is_dir() {
            "a directory"
        } else if ft.is_fifo() {
            "a FIFO"
        } else if ft.is_char_device() || ft.is_block_device() {
            "a device"
        } else if ft.is_socket() {
            "a socket"
        } else {
            "not a file"
        };
        return Err(Error::NotRegular {
            path: path.to_path_buf(),
            kind,
        });
    }
    Ok(Some(file))
}

/// `path` opened as `open_regular` does, refused when it is larger than `limit.max`, and
/// never read past one byte more than that (it may grow while it is read); with its size.
/// For a file read as a stream; `read_bytes_limited` reads it whole.
pub fn open_limited(path: &Path, limit: Limit) -> Result<Option<(Take<File>, u64)>> {
    let Some(file) = open_regular(path)? else {
        return Ok(None);
    };
    let size = file.metadata().map_or(0, |m| m.len());
    if size > limit.max {
        return Err(too_large(path, limit, size));
    }
    Ok(Some((file.take(limit.max + 1), size)))
}

fn too_large(path: &Path, limit: Limit, size: u64) -> Error {
    Error::TooLarge {
        path: path.to_path_buf(),
        what: limit.what,
        size,
        limit: limit.max,
    }
}

/// The bytes of `path`, at most `limit.max` of them; `Ok(None)` when it does not exist.
pub fn read_bytes_limited(path: &Path, limit: Limit) -> Result<Option<Vec<u8>>> {
    let Some((mut file, size)) = open_limited(path, limit)? else {
        return Ok(None);
    };
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.read_to_end(&mut bytes)
        .map_err(|e| Error::io("read", path, e))?;
    if bytes.len() as u64 > limit.max {
        return Err(too_large(path, limit, bytes.len() as u64));
    }
    Ok(Some(bytes))
}

/// The text of `path` like `read_limited`, with bytes that are not UTF-8 read as U+FFFD (a
/// log with one torn byte loses one line, not the file).
pub fn read_lossy(path: &Path, limit: Limit) -> Result<Option<String>> {
    Ok(
        read_bytes_limited(path, limit)?.map(|b| match String::from_utf8(b) {
            Ok(t) => t,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }),
    )
}

/// The last `max` bytes of `path` from the first line that starts in them (all of it when
/// it is shorter), read lossily, and whether that is the whole file. `Ok(None)` when it does
/// not exist. For logs read from their end: what is newest without reading what is old.
pub fn read_tail(path: &Path, max: u64) -> Result<Option<(String, bool)>> {
    use std::io::{Seek, SeekFrom};
    let Some(mut f) = open_regular(path)? else {
        return Ok(None);
    };
    let len = f.metadata().map_err(|e| Error::io("stat", path, e))?.len();
    let start = len.saturating_sub(max);
    f.seek(SeekFrom::Start(start))
        .map_err(|e| Error::io("seek", path, e))?;
    let mut bytes = Vec::new();
    f.take(max)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io("read", path, e))?;
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    if start > 0 {
        match text.find('\n') {
            Some(i) => text.drain(..=i),
            None => text.drain(..),
        };
    }
    Ok(Some((text, start == 0)))
}

/// The text of `path`, at most `limit.max` bytes; `Ok(None)` when it does not exist. Text
/// that is not UTF-8 is an error naming the file.
pub fn read_limited(path: &Path, limit: Limit) -> Result<Option<String>> {
    match read_bytes_limited(path, limit)? {
        None => Ok(None),
        Some(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| Error::Invalid(format!("{} is not valid UTF-8 text", path.display()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Limit = Limit {
        what: "a test file",
        max: 8,
    };

    #[test]
    fn reads_small_files_and_says_none_for_missing_ones() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("f");
        std::fs::write(&p, "hello").unwrap();
        assert_eq!(read_limited(&p, SMALL).unwrap().as_deref(), Some("hello"));
        assert_eq!(read_limited(&t.path().join("none"), SMALL).unwrap(), None);
    }

    #[test]
    fn an_endless_file_behind_a_link_is_refused_not_read() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("baton.yaml");
        std::os::unix::fs::symlink("/dev/zero", &p).unwrap();
        assert!(matches!(
            read_limited(&p, Limit::CONFIG),
            Err(Error::Symlink(_))
        ));
    }

    #[test]
    fn a_device_a_fifo_and_a_directory_are_refused_at_once() {
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("fifo");
        let made = crate::core::exec::run(
            {
                let mut c = crate::core::exec::command("mkfifo");
                c.arg(&fifo);
                c
            },
            std::time::Duration::from_secs(5),
            false,
        );
        if made.ok() {
            let err = read_limited(&fifo, Limit::CONFIG).unwrap_err();
            assert!(
                matches!(err, Error::NotRegular { kind: "a FIFO", .. }),
                "{err}"
            );
        }
        let err = read_limited(Path::new("/dev/zero"), Limit::CONFIG).unwrap_err();
        assert!(
            matches!(
                err,
                Error::NotRegular {
                    kind: "a device",
                    ..
                }
            ),
            "{err}"
        );
        let err = read_limited(t.path(), Limit::CONFIG).unwrap_err();
        assert!(
            matches!(
                err,
                Error::NotRegular {
                    kind: "a directory",
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn a_file_over_its_limit_is_named_with_its_size() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("big");
        std::fs::write(&p, "0123456789").unwrap();
        let err = read_limited(&p, SMALL).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("10 bytes") && msg.contains("8-byte limit for a test file"),
            "{msg}"
        );
    }
}
