//! What a session start shows of the big memory files — the newest conventions and
//! decisions, the notes' three sections, the top learnings — kept per user beside the
//! verdict cache (`<cache>/baton/integrity/<key>.shown.json`, 0600) and reused while the
//! file's stamp (device, inode, size, mtime, ctime: `scan_cache::Stamp`) is unchanged. A
//! start over a large memory then reads a few kilobytes instead of megabytes (a 2 MB notes
//! file was read whole at every start), and its cost no longer grows with the files.
//!
//! Only the extract is kept: the entries' text as the file holds it. Ages, authors and
//! provenance verdicts are worked out from that text afresh at every start, and the
//! integrity verdict that decides whether a file is shown at all is the scan's. An extract
//! is kept only when the file's stamp was the same before and after the read and is older
//! than a second (a second write within a timestamp's tick would not change it), and only
//! when the redactor finds nothing in it (DESIGN: every byte baton persists passes the
//! redactor; an extract with a secret in it is read from the file every time instead). A
//! cache that cannot be read counts as empty; one that cannot be written is skipped: the
//! files are read again next time.

use super::scan_cache::{self, Stamp};
use super::store::Rune;
use crate::core::ctx::Env;
use crate::core::error::Result;
use crate::core::fsx;
use crate::core::redact::Redactor;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What the extracts were made by: another baton (or another way of extracting, with
/// `FORMAT`) makes them again.
const FORMAT: u32 = 1;

#[derive(Debug, Default, Serialize, Deserialize)]
struct Kept {
    /// `<baton version>/<FORMAT>`.
    made_by: String,
    /// Per file and kind of extract (`decisions.md:newest`).
    files: BTreeMap<String, Extract>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Extract {
    stamp: Stamp,
    shown: serde_json::Value,
}

/// The extracts of one memory folder for one run: read once, written back if any changed.
#[derive(Debug, Default)]
pub(crate) struct Shown {
    path: Option<PathBuf>,
    kept: Kept,
    changed: bool,
}

fn made_by() -> String {
    format!("{}/{FORMAT}", env!("CARGO_PKG_VERSION"))
}

impl Shown {
    /// The extracts kept for `rune` (none where there is no cache folder).
    pub(crate) fn read(env: &Env, rune: &Rune) -> Shown {
        let path = scan_cache::location(env, &rune.dir).map(|p| p.with_extension("shown.json"));
        let kept = path
            .as_deref()
            .and_then(|p| fsx::read_bytes_limited(p, fsx::Limit::STATE).ok().flatten())
            .and_then(|b| serde_json::from_slice::<Kept>(&b).ok())
            .filter(|k| k.made_by == made_by())
            .unwrap_or_default();
        Shown {
            path,
            kept,
            changed: false,
        }
    }

    /// `extract` (named `kind`) of the memory file `name`: the kept one while the file's
    /// stamp is unchanged, else `extract(path)`, kept when the stamp allows and `red` finds
    /// nothing in it.
    pub(crate) fn get<T: Serialize + DeserializeOwned>(
        &mut self,
        rune: &Rune,
        name: &str,
        kind: &str,
        red: &Redactor,
        extract: impl FnOnce(&Path) -> Result<T>,
    ) -> Result<T> {
        let path = rune.path(name);
        let key = format!("{name}:{kind}");
        let before = Stamp::of(&path);
        if let Some(e) = before
            .as_ref()
            .and_then(|s| self.kept.files.get(&key).filter(|e| &e.stamp == s))
        {
            if let Ok(value) = serde_json::from_value(e.shown.clone()) {
                return Ok(value);
            }
        }
        let value = extract(&path)?;
        let settled = before.filter(|s| !s.is_racy() && Stamp::of(&path).as_ref() == Some(s));
        let shown = serde_json::to_value(&value)
            .ok()
            .filter(|v| nothing_to_redact(v, red));
        match settled.zip(shown) {
            Some((stamp, shown)) => {
                self.kept.files.insert(key, Extract { stamp, shown });
                self.changed = true;
            }
            None => self.changed |= self.kept.files.remove(&key).is_some(),
        }
        Ok(value)
    }

    /// Writes the extracts back when one changed (not synced: a cache).
    pub(crate) fn write(&mut self) {
        let Some(path) = self.path.as_deref().filter(|_| self.changed) else {
            return;
        };
        let Some(dir) = path.parent() else {
            return;
        };
        self.kept.made_by = made_by();
        if fsx::ensure_private_dir(dir).is_err() {
            return;
        }
        if let Ok(bytes) = serde_json::to_vec(&self.kept) {
            let _ = fsx::replace_file(path, &bytes, fsx::PRIVATE_FILE);
        }
        self.changed = false;
    }
}

/// Whether `red` would take nothing out of any text in `value`.
fn nothing_to_redact(value: &serde_json::Value, red: &Redactor) -> bool {
    match value {
        serde_json::Value::String(s) => red.redact(s).count == 0,
        serde_json::Value::Array(items) => items.iter().all(|v| nothing_to_redact(v, red)),
        serde_json::Value::Object(map) => map.values().all(|v| nothing_to_redact(v, red)),
        _ => true,
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files directly
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::os::unix::fs::PermissionsExt;

    fn setup() -> (tempfile::TempDir, Rune, Env) {
        let (t, rune) = Rune::temp();
        let cache = t.path().join("cache");
        let env = Env::fixed([("XDG_CACHE_HOME", cache.to_str().unwrap())]);
        (t, rune, env)
    }

    /// Waits until a file written now is no longer racy (its ctime cannot be set back).
    fn settle() {
        std::thread::sleep(std::time::Duration::from_millis(1100));
    }

    #[test]
    fn an_extract_is_reused_while_the_file_is_unchanged_and_made_again_after_any_change() {
        let (_t, rune, env) = setup();
        let redactor = Redactor::with_extra(&[]);
        let p = rune.path("notes.md");
        std::fs::write(&p, "one\n").unwrap();
        let first_mtime = std::fs::metadata(&p).unwrap().modified().unwrap();
        settle();
        let calls = Cell::new(0);
        let read = |shown: &mut Shown| {
            shown
                .get(&rune, "notes.md", "all", &redactor, |path| {
                    calls.set(calls.get() + 1);
                    Ok(std::fs::read_to_string(path).unwrap())
                })
                .unwrap()
        };
        let mut s = Shown::read(&env, &rune);
        assert_eq!(read(&mut s), "one\n");
        s.write();
        let mut s = Shown::read(&env, &rune);
        assert_eq!(read(&mut s), "one\n");
        assert_eq!(calls.get(), 1, "the second run reads the kept extract");

        // Same size, the mtime set back: the ctime still tells.
        std::fs::write(&p, "two\n").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_modified(first_mtime)
            .unwrap();
        settle();
        let mut s = Shown::read(&env, &rune);
        assert_eq!(read(&mut s), "two\n");
        assert_eq!(calls.get(), 2);
        s.write();

        // A change within the last second is read, and not kept.
        std::fs::write(&p, "three\n").unwrap();
        let mut s = Shown::read(&env, &rune);
        assert_eq!(read(&mut s), "three\n");
        s.write();
        let mut s = Shown::read(&env, &rune);
        assert_eq!(read(&mut s), "three\n");
        assert_eq!(calls.get(), 4);

        // A removed file is extracted again (as absent).
        std::fs::remove_file(&p).unwrap();
        let mut s = Shown::read(&env, &rune);
        let gone = s
            .get(
                &rune,
                "notes.md",
                "all",
                &redactor,
                |path| Ok(path.exists()),
            )
            .unwrap();
        assert!(!gone);
    }

    /// An extract with a secret in it is not written to the cache: it is read each time.
    #[test]
    fn an_extract_holding_a_secret_is_never_kept() {
        let (_t, rune, env) = setup();
        let red = Redactor::with_extra(&[]);
        let p = rune.path("decisions.md");
        std::fs::write(&p, "x\n").unwrap();
        settle();
        // Assembled at run time: this file holds no string a secret scanner would flag.
        let secret = ["AKIA", "IOSFODNN7EXAMPLE"].concat();
        let calls = Cell::new(0);
        for _ in 0..2 {
            let mut s = Shown::read(&env, &rune);
            let got = s
                .get(&rune, "decisions.md", "newest3", &red, |_| {
                    calls.set(calls.get() + 1);
                    Ok(vec![format!(
                        "## [2026-11-30 10:15] Decision: key {secret}"
                    )])
                })
                .unwrap();
            assert!(got[0].contains(&secret));
            s.write();
            if let Some(path) = &s.path {
                let kept = std::fs::read_to_string(path).unwrap_or_default();
                assert!(!kept.contains(&secret), "{kept}");
            }
        }
        assert_eq!(calls.get(), 2, "read from the file both times");
    }

    #[test]
    fn a_broken_or_foreign_cache_counts_as_empty() {
        let (_t, rune, env) = setup();
        let red = Redactor::with_extra(&[]);
        let p = rune.path("notes.md");
        std::fs::write(&p, "one\n").unwrap();
        settle();
        let mut s = Shown::read(&env, &rune);
        s.get(&rune, "notes.md", "all", &red, |_| Ok(1u32)).unwrap();
        s.write();
        let cache = s.path.clone().unwrap();
        assert!(cache.to_string_lossy().ends_with(".shown.json"));
        assert_eq!(
            std::fs::metadata(&cache).unwrap().permissions().mode() & 0o777,
            0o600
        );
        for broken in [
            "{not json".to_string(),
            std::fs::read_to_string(&cache)
                .unwrap()
                .replace(&made_by(), "0.0.0/1"),
        ] {
            std::fs::write(&cache, broken).unwrap();
            let mut s = Shown::read(&env, &rune);
            assert_eq!(
                s.get(&rune, "notes.md", "all", &red, |_| Ok(2u32)).unwrap(),
                2
            );
        }
        // A kept value of another shape is extracted again.
        let mut s = Shown::read(&env, &rune);
        s.get(&rune, "notes.md", "all", &red, |_| Ok("text".to_string()))
            .unwrap();
        assert_eq!(
            s.get(&rune, "notes.md", "all", &red, |_| Ok(3u32)).unwrap(),
            3
        );
    }
}
