//! `loop/loop_state.md`: `key: value` lines. baton reads and sets the keys it knows and keeps
//! every other line (comments, keys other tools add) as it was, in place.

use super::layout::{read_opt, Layout};
use crate::core::error::{Error, Result};
use crate::core::fsx;
use std::path::Path;

/// Cycles finished in the running session.
pub(crate) const CYCLES_THIS_SESSION: &str = "cycles_this_session";
/// Cycles per session before a handoff.
pub(crate) const CYCLE_BUDGET: &str = "cycle_budget";
/// Sessions resumed so far (bumped by each resume, as the seed spec says).
pub(crate) const CYCLES_TOTAL: &str = "cycles_total";
/// The id (`WL-NNN@written_at`) of the packet last resumed.
pub(crate) const LAST_RESUMED: &str = "last_resumed_packet";
/// The id of the packet last handed off.
pub(crate) const LAST_HANDOFF: &str = "last_handoff_packet";
/// The loop's id, `WL-NNN`.
pub(crate) const LOOP_ID: &str = "loop_id";

const HEADER: &str =
    "# weave-loop state, kept by `baton relay` (key: value lines; other keys are kept)";

#[derive(Debug, Clone, PartialEq, Eq)]
enum Line {
    /// A `key: value` line: the key, the unquoted value, and the line as it was read (`None`
    /// once baton sets it). A line baton never sets is written back verbatim (quotes,
    /// spacing and `x: ""` kept).
    Pair(String, String, Option<String>),
    Other(String),
}

/// The parsed file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct LoopState {
    lines: Vec<Line>,
}

impl LoopState {
    /// Parses the file's text.
    pub(crate) fn parse(text: &str) -> LoopState {
        let lines = text
            .lines()
            .map(|l| match l.split_once(':') {
                Some((k, v))
                    if !k.trim().is_empty()
                        && !l.trim_start().starts_with('#')
                        && k.trim()
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') =>
                {
                    Line::Pair(
                        k.trim().to_string(),
                        unquote(v.trim()).to_string(),
                        Some(l.to_string()),
                    )
                }
                _ => Line::Other(l.to_string()),
            })
            .collect();
        LoopState { lines }
    }

    /// A new file: the header and every key baton keeps (loop id, the cycle counters and
    /// budget, the packets last resumed and handed off), empty or zero.
    pub(crate) fn fresh(cycle_budget: u32) -> LoopState {
        let mut s = LoopState {
            lines: vec![Line::Other(HEADER.into())],
        };
        s.set(LOOP_ID, "");
        s.set(CYCLES_THIS_SESSION, "0");
        s.set(CYCLE_BUDGET, &cycle_budget.to_string());
        s.set(CYCLES_TOTAL, "0");
        s.set(LAST_RESUMED, "");
        s.set(LAST_HANDOFF, "");
        s
    }

    /// Loads the file; `None` when it does not exist.
    pub(crate) fn load(layout: &Layout) -> Result<Option<LoopState>> {
        Ok(read_opt(&layout.abs(&layout.loop_state_rel))?.map(|t| LoopState::parse(&t)))
    }

    /// Loads the file or starts a fresh one; the cycle counters, the budget and
    /// `last_resumed_packet` are present afterwards (a file written by hand may lack them).
    pub(crate) fn load_or_fresh(layout: &Layout, cycle_budget: u32) -> Result<LoopState> {
        let mut s = LoopState::load(layout)?.unwrap_or_else(|| LoopState::fresh(cycle_budget));
        for (key, default) in [
            (CYCLES_THIS_SESSION, "0".to_string()),
            (CYCLE_BUDGET, cycle_budget.to_string()),
            (CYCLES_TOTAL, "0".to_string()),
            (LAST_RESUMED, String::new()),
        ] {
            if s.get(key).is_none() {
                s.set(key, &default);
            }
        }
        Ok(s)
    }

    /// The value of `key` (empty values are `Some("")`).
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.lines.iter().find_map(|l| match l {
            Line::Pair(k, v, _) if k == key => Some(v.as_str()),
            _ => None,
        })
    }

    /// The value of `key`, `None` when missing or empty.
    pub(crate) fn non_empty(&self, key: &str) -> Option<&str> {
        self.get(key).filter(|v| !v.is_empty())
    }

    /// Sets `key` (in place when present, else appended). A value never holds a newline.
    pub(crate) fn set(&mut self, key: &str, value: &str) {
        let value = value.replace(['\n', '\r'], " ");
        for l in &mut self.lines {
            if let Line::Pair(k, v, raw) = l {
                if k == key {
                    if *v != value {
                        *v = value;
                        *raw = None;
                    }
                    return;
                }
            }
        }
        self.lines.push(Line::Pair(key.to_string(), value, None));
    }

    /// `key` as a number; a missing or empty value is `default`, a bad one an error naming
    /// the key and the file.
    pub(crate) fn number(&self, key: &str, default: u64, file: &Path) -> Result<u64> {
        match self.non_empty(key) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| Error::Malformed {
                path: file.into(),
                message: format!(
                    "{}: `{key}: {v}` is not a whole number; fix that line (or delete it to start from {default})",
                    file.display()
                ),
            }),
        }
    }

    /// The text of the file.
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        for l in &self.lines {
            match l {
                Line::Pair(_, _, Some(t)) | Line::Other(t) => {
                    out.push_str(t);
                    out.push('\n');
                }
                Line::Pair(k, v, None) if v.is_empty() => out.push_str(&format!("{k}:\n")),
                Line::Pair(k, v, None) => out.push_str(&format!("{k}: {v}\n")),
            }
        }
        out
    }

    /// Writes the file atomically (0644: it is committed); `false` when it already holds
    /// exactly this text (nothing is rewritten).
    pub(crate) fn save(&self, layout: &Layout) -> Result<bool> {
        let path = layout.abs(&layout.loop_state_rel);
        let text = self.render();
        if read_opt(&path)?.as_deref() == Some(text.as_str()) {
            return Ok(false);
        }
        if let Some(dir) = path.parent() {
            fsx::ensure_dir_in(&layout.root, dir)?;
        }
        fsx::atomic_write(&path, text.as_bytes(), fsx::SHARED_FILE)?;
        Ok(true)
    }
}

fn unquote(v: &str) -> &str {
    for q in ['"', '\''] {
        if let Some(inner) = v.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_unknown_lines_and_sets_in_place() {
        let text = "# mine\nphase: verify\ncycles_this_session: 2\nnote: \"a: b\"\n\nfree text\n";
        let mut s = LoopState::parse(text);
        assert_eq!(s.get("phase"), Some("verify"));
        assert_eq!(s.get("note"), Some("a: b"));
        assert_eq!(s.number(CYCLES_THIS_SESSION, 0, Path::new("f")).unwrap(), 2);
        s.set(CYCLES_THIS_SESSION, "3");
        s.set(CYCLES_TOTAL, "1");
        assert_eq!(
            s.render(),
            "# mine\nphase: verify\ncycles_this_session: 3\nnote: \"a: b\"\n\nfree text\ncycles_total: 1\n"
        );
    }

    #[test]
    fn lines_of_keys_baton_does_not_set_are_kept_verbatim() {
        let text =
            "owner: \"team a\"\nx: \"\"\ny:   'q'  \ncycles_this_session: 1\nloop_id: \"WL-1\"\n";
        let mut s = LoopState::parse(text);
        assert_eq!(s.get("x"), Some(""));
        assert_eq!(s.render(), text);
        s.set(CYCLES_THIS_SESSION, "2");
        s.set(LOOP_ID, "WL-1"); // the same value: the line stays as it is
        assert_eq!(
            s.render(),
            "owner: \"team a\"\nx: \"\"\ny:   'q'  \ncycles_this_session: 2\nloop_id: \"WL-1\"\n"
        );
    }

    #[test]
    fn fresh_has_the_required_keys_and_bad_numbers_are_named() {
        let s = LoopState::fresh(4);
        assert_eq!(
            s.render(),
            format!("{HEADER}\nloop_id:\ncycles_this_session: 0\ncycle_budget: 4\ncycles_total: 0\nlast_resumed_packet:\nlast_handoff_packet:\n")
        );
        assert_eq!(s.non_empty(LAST_RESUMED), None);
        let bad = LoopState::parse("cycles_total: many\n");
        let e = bad
            .number(CYCLES_TOTAL, 0, Path::new("loop_state.md"))
            .unwrap_err();
        assert!(matches!(e, Error::Malformed { .. }), "{e}");
    }

    #[test]
    fn save_is_skipped_when_unchanged() {
        let t = tempfile::tempdir().unwrap();
        let l = Layout::new(t.path(), &crate::core::config::Config::default());
        let s = LoopState::load_or_fresh(&l, 5).unwrap();
        assert!(s.save(&l).unwrap());
        assert!(!s.save(&l).unwrap());
        assert_eq!(
            LoopState::load(&l).unwrap().map(|r| r.render()),
            Some(s.render())
        );
    }
}
