//! How far a file being moved in slices has been moved (`trail::drain_with` with a limit: a
//! Stop moves at most a few megabytes of a huge buffer and leaves the rest for the next).
//!
//! While a file is moved in slices it is not cut: the lines moved so far stay in it, and
//! `<file>.moved` beside it says up to which byte they go, with a SHA-256 of the 64 bytes
//! before that point. The cursor holds only while the file still has those bytes there: once
//! the file has been emptied (its last slice moved) and written again, the bytes differ, and
//! the file is read from its start. So a cursor left behind by a move killed after the file
//! was emptied never makes a reader skip a line. Appenders only add to the file's end, so a
//! cursor that holds stays true.

use crate::core::fsx;
use crate::core::hash::sha256_hex_with_prefix;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// The bytes before the cursor that its guard hashes.
const GUARD: u64 = 64;

/// Where the cursor of `file` lives.
pub(crate) fn path_of(file: &Path) -> PathBuf {
    let mut name = file.file_name().unwrap_or_default().to_os_string();
    name.push(".moved");
    file.with_file_name(name)
}

/// The SHA-256 of the `GUARD` bytes of `f` before `at` (fewer at the file's start); `None`
/// when they cannot be read.
fn guard(f: &std::fs::File, at: u64) -> Option<String> {
    let from = at.saturating_sub(GUARD);
    let mut buf = vec![0u8; usize::try_from(at - from).ok()?];
    f.read_exact_at(&mut buf, from).ok()?;
    Some(sha256_hex_with_prefix(&buf, usize::MAX).0)
}

/// Where the unmoved part of `file` (opened as `f`, `len` bytes long) starts: the cursor when
/// it holds, else 0.
pub(crate) fn start(file: &Path, f: &std::fs::File, len: u64) -> u64 {
    let Ok(Some(text)) = fsx::read_limited(&path_of(file), fsx::Limit::STATE) else {
        return 0;
    };
    let mut parts = text.split_whitespace();
    let (Some(at), Some(sum)) = (
        parts.next().and_then(|n| n.parse::<u64>().ok()),
        parts.next(),
    ) else {
        return 0;
    };
    if at == 0 || at > len || guard(f, at).as_deref() != Some(sum) {
        return 0;
    }
    at
}

/// Where the unmoved part of `file` starts (0 when it is missing or has no cursor that
/// holds), for readers that do not hold its lock: a move in between only moves the cursor
/// on, so what they read from here may hold a few lines moved meanwhile (readers collapse
/// records by id), never miss one.
pub(crate) fn unmoved_from(file: &Path) -> u64 {
    let Ok(Some(f)) = fsx::open_regular(file) else {
        return 0;
    };
    let len = f.metadata().map_or(0, |m| m.len());
    start(file, &f, len)
}

/// Records that `file` (opened as `f`) is moved up to byte `at`; synced, so that after a
/// power loss the lines before are not moved a second time.
pub(crate) fn write(
    file: &Path,
    f: &std::fs::File,
    at: u64,
    mode: u32,
) -> crate::core::error::Result<()> {
    let sum = guard(f, at).unwrap_or_default();
    fsx::atomic_write(&path_of(file), format!("{at} {sum}\n").as_bytes(), mode)
}

/// Removes the cursor of `file` (its last slice moved, the file emptied).
pub(crate) fn remove(file: &Path) {
    let _ = std::fs::remove_file(path_of(file));
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files directly
mod tests {
    use super::*;

    #[test]
    fn a_cursor_holds_only_while_the_bytes_before_it_are_there() {
        let t = tempfile::tempdir().unwrap();
        let file = t.path().join("buffer.jsonl");
        std::fs::write(&file, "{\"id\":\"a\"}\n{\"id\":\"b\"}\n").unwrap();
        let f = fsx::open_regular(&file).unwrap().unwrap();
        write(&file, &f, 11, 0o600).unwrap();
        assert_eq!(unmoved_from(&file), 11);
        // Grown: still holds.
        std::fs::write(&file, "{\"id\":\"a\"}\n{\"id\":\"b\"}\n{\"id\":\"c\"}\n").unwrap();
        assert_eq!(unmoved_from(&file), 11);
        // Emptied and written again: the bytes before the cursor differ.
        std::fs::write(&file, "{\"id\":\"x\"}\n{\"id\":\"y\"}\n").unwrap();
        assert_eq!(unmoved_from(&file), 0);
        // Shorter than the cursor.
        std::fs::write(&file, "{}\n").unwrap();
        assert_eq!(unmoved_from(&file), 0);
        remove(&file);
        assert!(!path_of(&file).exists());
    }
}
