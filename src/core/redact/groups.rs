//! Where a rule's match and its named groups are, and the type of a rule read by hand
//! (`flat`), which gives them as a regex does.

use std::ops::Range;

/// Where a match and its named groups are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Groups {
    pub(super) whole: Range<usize>,
    pub(super) keep: Option<Range<usize>>,
    pub(super) tail: Option<Range<usize>>,
    pub(super) value: Option<Range<usize>>,
    pub(super) kname: Option<Range<usize>>,
    pub(super) kvalue: Option<Range<usize>>,
}

impl Groups {
    /// A match with no named group.
    pub(super) fn whole(whole: Range<usize>) -> Self {
        Groups {
            whole,
            keep: None,
            tail: None,
            value: None,
            kname: None,
            kvalue: None,
        }
    }
}

/// A rule read by hand: the first match at or after byte `at` (what stands before `at` is
/// still seen by `\b`).
pub(super) type Matcher = fn(&str, usize) -> Option<Groups>;
