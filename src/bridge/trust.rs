//! Trust at load: whether a memory entry shown is reviewed — baton's ledger knows it
//! (`provenance`), or a team's trusted committer committed it — and where an unreviewed one
//! came from, from the origins index (`origins`: never git blame, never a walk of history
//! on the hook path).

use super::origins_update::{self, Budget, State};
use super::provenance::{digest, Ledger};
use crate::core::project::Project;
use std::cell::{OnceCell, RefCell};
use std::collections::HashSet;

/// What load knows about a shown entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// baton wrote it (recorded), or a trusted committer committed it.
    Reviewed,
    /// Neither: shown as quoted data, with where it came from.
    Unreviewed(String),
}

impl Verdict {
    pub(crate) fn reviewed(&self) -> bool {
        *self == Verdict::Reviewed
    }
}

/// Provenance at load: the ledger, and the origins index for where an unreviewed entry came
/// from (`origins`: never git blame, never a walk of history on the hook path).
pub(crate) struct Trust<'a> {
    ledger: Ledger,
    /// The project (the origins index, the trusted committers); `None`: no origins (tests).
    project: Option<&'a Project>,
    /// The memory folder.
    rune: Option<super::store::Rune>,
    /// No ledger yet for this project: the first load since baton kept provenance.
    pub(crate) first: bool,
    /// Unreviewed entries shown, as (file, digest).
    shown: RefCell<HashSet<(String, String)>>,
    /// How much bringing the origins index up to date may read.
    budget: Budget,
    /// The origins index, brought up to date at the first lookup.
    origins: OnceCell<State>,
}

impl<'a> Trust<'a> {
    /// The trust of `project`'s memory in `rune`'s folder: on the hook path the origins
    /// index is brought up to date only as far as a hook may (the rest in the background).
    pub(crate) fn of(project: &'a Project, rune: &super::store::Rune) -> Trust<'a> {
        let ledger = Ledger::of(project);
        let budget = if crate::core::deadline::on_hook_path() {
            Budget::Hook
        } else {
            Budget::Whole
        };
        Trust {
            first: !ledger.exists(),
            ledger,
            project: Some(project),
            rune: Some(rune.clone()),
            shown: RefCell::new(HashSet::new()),
            budget,
            origins: OnceCell::new(),
        }
    }

    /// A trust over `ledger` alone (tests).
    #[cfg(test)]
    pub(crate) fn with(ledger: Ledger) -> Trust<'static> {
        Trust {
            first: !ledger.exists(),
            ledger,
            project: None,
            rune: None,
            shown: RefCell::new(HashSet::new()),
            budget: Budget::Hook,
            origins: OnceCell::new(),
        }
    }

    /// The same, reading the whole history the origins index lacks (a command: review).
    pub(crate) fn looking_up_origins(mut self) -> Self {
        self.budget = Budget::Whole;
        self
    }

    /// Whether baton's ledger knows the entry `text` of `file` (nothing counted as shown).
    pub(crate) fn knows(&self, file: &str, text: &str) -> bool {
        self.ledger.knows(file, text)
    }

    /// The verdict on the entry `text` of `file`.
    pub(crate) fn verdict(&self, file: &str, text: &str) -> Verdict {
        self.verdict_of(file, &digest(file, text))
    }

    /// The verdict on the entry of `file` whose digest is `d`.
    pub(crate) fn verdict_of(&self, file: &str, d: &str) -> Verdict {
        if self.ledger.knows_digest(file, d) {
            return Verdict::Reviewed;
        }
        let (origin, current) = match self.origins() {
            Some(State::Current(index)) => (index.lookup(d), true),
            Some(State::Behind(index)) => (index.lookup(d), false),
            _ => (None, false),
        };
        if let Some(o) = &origin {
            let trusted = self.project.is_some_and(|p| {
                p.config()
                    .bridge
                    .trusted_committers
                    .iter()
                    .any(|t| t.eq_ignore_ascii_case(&o.committer_email))
            });
            if trusted {
                return Verdict::Reviewed;
            }
        }
        self.shown
            .borrow_mut()
            .insert((file.to_string(), d.to_string()));
        Verdict::Unreviewed(match origin {
            Some(o) => format!("committed by {} in {}", o.author, o.commit),
            // Every commit up to HEAD is indexed: not in one of them.
            None if current => "edited here, not committed".into(),
            None if self.first => {
                "written before baton kept provenance here, or by someone else".into()
            }
            None => "origin unknown".into(),
        })
    }

    /// How many unreviewed entries were shown.
    pub(crate) fn unreviewed_shown(&self) -> usize {
        self.shown.borrow().len()
    }

    /// The origins index, brought up to date (once) as far as this trust's budget allows; a
    /// hook's update that could not finish goes on in the background.
    fn origins(&self) -> Option<&State> {
        let (project, rune) = (self.project?, self.rune.as_ref()?);
        Some(self.origins.get_or_init(|| {
            let state = origins_update::update(project, rune, self.budget);
            if self.budget == Budget::Hook && matches!(state, State::Behind(_)) {
                super::later::catch_up(project);
            }
            state
        }))
    }
}
