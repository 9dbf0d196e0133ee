//! What re-verification reports: one `Finding` per claim of a saved block that was checked
//! against the repository now, with its `Kind` (the label the replay prints). Its own file
//! because both checkers produce findings — `heads` (Layer 1's `HEAD:` lines) and `reverify`
//! (Layer 3's paths, `verified:` SHAs) — and `reverify` calls `heads`.

/// What a finding says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Ok,
    Stale,
    ShaMissing,
    NotAncestor,
    RepoMissing,
    FileMissing,
    ClaimUnverified,
}

impl Kind {
    /// The label printed.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Kind::Ok => "OK",
            Kind::Stale => "STALE",
            Kind::ShaMissing => "SHA-MISSING",
            Kind::NotAncestor => "NOT-ANCESTOR",
            Kind::RepoMissing => "REPO-MISSING",
            Kind::FileMissing => "FILE-MISSING",
            Kind::ClaimUnverified => "CLAIM-UNVERIFIED",
        }
    }
}

/// One result of re-verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    pub(crate) kind: Kind,
    pub(crate) text: String,
}

impl Finding {
    pub(crate) fn new(kind: Kind, text: impl Into<String>) -> Self {
        Finding {
            kind,
            text: text.into(),
        }
    }
}
