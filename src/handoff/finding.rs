//! What re-verification reports: one `Finding` per claim of a saved block that was checked
//! against the repository now, with its `Kind` (the label the replay prints). Its own file
//! because both checkers produce findings — `heads` (Layer 1's `HEAD:` lines) and `reverify`
//! (Layer 3's paths, `verified:` SHAs) — and `reverify` calls `heads`.

impl Kind {
    /// Whether the finding says part of the saved state no longer holds (OK and the
    /// content-landing evidence do not).
    pub(crate) fn is_problem(self) -> bool {
        !matches!(self, Kind::Ok | Kind::ContentLanded)
    }
}

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
    /// Evidence beside a CLAIM-UNVERIFIED: the claimed commit's files landed under another
    /// SHA (a squash merge), so the work is not lost. Not a problem of its own.
    ContentLanded,
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
            Kind::ContentLanded => "CONTENT-LANDED",
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
