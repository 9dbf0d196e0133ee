//! The pieces of one move of `trail::drain_with`: reading the slice of the source to move,
//! and making the destination whole again after a move that was killed half-way (its torn
//! last line cut off; lines it appended before the source was cut recognised, so they are
//! not appended twice).

use crate::core::error::{Error, Result};
use crate::core::fault;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// The most of the destination's end read to find its last line (a record is far shorter).
const LAST_LINE_MAX: u64 = 1024 * 1024;

/// Bytes `start..` of `f` (`len` bytes long) up to `limit` of them (all without one), cut
/// back to a line end unless they reach the end of the file; a first line longer than the
/// limit is taken whole. Also where the slice ends in the file.
pub(crate) fn read(
    f: &File,
    path: &Path,
    start: u64,
    len: u64,
    limit: Option<u64>,
) -> Result<(Vec<u8>, u64)> {
    let want = limit.map_or(len - start, |l| l.min(len - start));
    let mut block = read_at(f, path, start, want)?;
    let mut end = start + block.len() as u64;
    if end >= len {
        return Ok((block, len));
    }
    if let Some(i) = memchr::memrchr(b'\n', &block) {
        block.truncate(i + 1);
        end = start + block.len() as u64;
    } else {
        // One line longer than the limit: to its end.
        let rest = read_at(f, path, end, len - end)?;
        let take = memchr::memchr(b'\n', &rest).map_or(rest.len(), |i| i + 1);
        block.extend_from_slice(&rest[..take]);
        end += take as u64;
    }
    Ok((block, end))
}

/// `n` bytes of `f` from `at` (fewer when the file is shorter).
fn read_at(f: &File, path: &Path, at: u64, n: u64) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; usize::try_from(n).unwrap_or(0)];
    let mut got = 0;
    while got < buf.len() {
        match f.read_at(&mut buf[got..], at + got as u64) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::io("read", path, e)),
        }
    }
    buf.truncate(got);
    Ok(buf)
}

/// Cuts a torn last line off `out` (the destination, locked): only a move appends to it,
/// in whole lines, so a last line without its newline is what a move killed while writing
/// left, and its record is still in the source.
pub(crate) fn repair_torn_end(out: &File, path: &Path) -> Result<()> {
    let len = out
        .metadata()
        .map_err(|e| Error::io("stat", path, e))?
        .len();
    if len == 0 {
        return Ok(());
    }
    let mut last = [0u8; 1];
    out.read_exact_at(&mut last, len - 1)
        .map_err(|e| Error::io("read", path, e))?;
    if last[0] == b'\n' {
        return Ok(());
    }
    let mut at = len;
    let mut keep = 0;
    while at > 0 {
        let from = at.saturating_sub(64 * 1024);
        let chunk = read_at(out, path, from, at - from)?;
        if let Some(i) = memchr::memrchr(b'\n', &chunk) {
            keep = from + i as u64 + 1;
            break;
        }
        at = from;
    }
    out.set_len(keep)
        .map_err(|e| Error::io("truncate", path, e))
}

/// How many bytes at the start of `block` the destination `out` already ends with: a move
/// killed after it appended them and before it cut the source (or moved its cursor). Found
/// by the destination's last line: where `block` holds that line at a line start, and the
/// destination's end is `block` up to there, byte for byte. 0 otherwise. Skipping bytes the
/// destination holds the same never loses a record.
pub(crate) fn already_appended(out: &File, path: &Path, block: &[u8]) -> usize {
    let Ok(meta) = out.metadata() else {
        return 0;
    };
    let len = meta.len();
    if len == 0 {
        return 0;
    }
    let from = len.saturating_sub(LAST_LINE_MAX);
    let Ok(tail) = read_at(out, path, from, len - from) else {
        return 0;
    };
    let body = tail.strip_suffix(b"\n").unwrap_or(&tail);
    let Some(line_start) = memchr::memrchr(b'\n', body).map(|i| i + 1) else {
        if from > 0 {
            return 0;
        }
        return matching_end(out, path, len, block, &tail);
    };
    matching_end(out, path, len, block, &tail[line_start..])
}

/// With `last` the destination's last line (its newline included): the end of the first
/// place `block` holds it at a line start, when the destination ends with `block` up to
/// there; else 0.
fn matching_end(out: &File, path: &Path, len: u64, block: &[u8], last: &[u8]) -> usize {
    for at in memchr::memmem::find_iter(block, last) {
        if at > 0 && block[at - 1] != b'\n' {
            continue;
        }
        let end = at + last.len();
        let Some(from) = len.checked_sub(end as u64) else {
            return 0;
        };
        let same = read_at(out, path, from, end as u64).is_ok_and(|tail| tail == block[..end]);
        return if same { end } else { 0 };
    }
    0
}

/// Appends `block` to `out` (opened for appending, locked).
pub(crate) fn append(out: &mut File, path: &Path, block: &[u8]) -> Result<()> {
    let err = |e| Error::io("append to", path, e);
    if cfg!(debug_assertions) && !block.is_empty() {
        // A test kills a move here, with half of its lines written.
        let half = block.len() / 2;
        out.write_all(&block[..half]).map_err(err)?;
        fault::pause_at("move:half-written");
        return out.write_all(&block[half..]).map_err(err);
    }
    out.write_all(block).map_err(err)
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files directly
mod tests {
    use super::*;

    fn file(dir: &Path, name: &str, text: &str) -> (std::path::PathBuf, File) {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        let f = std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .open(&p)
            .unwrap();
        (p, f)
    }

    #[test]
    fn a_slice_ends_at_a_line_end_and_a_long_line_is_taken_whole() {
        let t = tempfile::tempdir().unwrap();
        let (p, f) = file(t.path(), "src", "aaaa\nbbbb\ncccc\n");
        assert_eq!(
            read(&f, &p, 0, 15, Some(12)).unwrap(),
            (b"aaaa\nbbbb\n".to_vec(), 10)
        );
        assert_eq!(
            read(&f, &p, 10, 15, Some(2)).unwrap(),
            (b"cccc\n".to_vec(), 15)
        );
        assert_eq!(
            read(&f, &p, 0, 15, Some(2)).unwrap(),
            (b"aaaa\n".to_vec(), 5)
        );
        assert_eq!(
            read(&f, &p, 5, 15, None).unwrap(),
            (b"bbbb\ncccc\n".to_vec(), 15)
        );
    }

    #[test]
    fn a_torn_end_is_cut_and_lines_appended_before_a_kill_are_recognised() {
        let t = tempfile::tempdir().unwrap();
        let (dst, out) = file(t.path(), "dst", "{\"id\":1}\n{\"id\":2}\n{\"id\":3");
        repair_torn_end(&out, &dst).unwrap();
        assert_eq!(
            std::fs::read_to_string(&dst).unwrap(),
            "{\"id\":1}\n{\"id\":2}\n"
        );
        repair_torn_end(&out, &dst).unwrap();
        assert_eq!(std::fs::read_to_string(&dst).unwrap().len(), 18);
        // The source's slice: 1 and 2 were appended, 3 and 4 not yet.
        let block = b"{\"id\":1}\n{\"id\":2}\n{\"id\":3}\n{\"id\":4}\n";
        assert_eq!(already_appended(&out, &dst, block), 18);
        // Lines the destination does not end with: nothing skipped.
        assert_eq!(already_appended(&out, &dst, b"{\"id\":3}\n{\"id\":4}\n"), 0);
        // The last line found, but what comes before it differs: nothing skipped.
        let other = b"{\"id\":9}\n{\"id\":2}\n{\"id\":5}\n";
        assert_eq!(already_appended(&out, &dst, other), 0);
        // Only at a line start.
        assert_eq!(already_appended(&out, &dst, b"x{\"id\":2}\n"), 0);
        let (empty, none) = file(t.path(), "empty", "");
        assert_eq!(already_appended(&none, &empty, block), 0);
        repair_torn_end(&none, &empty).unwrap();
        let (torn, only) = file(t.path(), "torn-only", "{\"id\":");
        repair_torn_end(&only, &torn).unwrap();
        assert_eq!(std::fs::read_to_string(&torn).unwrap(), "");
    }
}
