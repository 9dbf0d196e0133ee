//! The one "Resume here" section of a session start: every handler offers its candidates
//! (`Contribution::resume`); `core::resume` picks the one next action and lists the rest.
//! The section goes right after the status line, before every subsystem's own sections.

use super::bus::Dispatched;
use crate::core::handler::Contribution;
use crate::core::resume;
use chrono::{DateTime, Utc};

/// Takes every contribution's resume points and puts the one section they make in front of
/// the titled sections (after the untitled status line).
pub(crate) fn merge_into(d: &mut Dispatched, now: DateTime<Utc>) {
    let points: Vec<resume::ResumePoint> = d
        .contributions
        .iter_mut()
        .flat_map(|c| std::mem::take(&mut c.resume))
        .collect();
    let Some(section) = resume::section(&points, now) else {
        return;
    };
    // After the contributions whose sections are all untitled (the status line).
    let at = d
        .contributions
        .iter()
        .position(|c| c.sections.iter().any(|s| !s.title.is_empty()))
        .unwrap_or(d.contributions.len());
    d.contributions
        .insert(at, Contribution::sections(vec![section]));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::budget::Section;
    use crate::core::resume::{Precedence, ResumePoint};

    #[test]
    fn one_section_after_the_status_line() {
        let now = crate::core::time::parse("2026-12-01T12:00:00Z").unwrap();
        let point = |action: &str| {
            ResumePoint::new(
                "checkpoint",
                ".rune/checkpoint.md",
                Precedence::Explicit,
                Some(now),
                action,
            )
        };
        let mut d = Dispatched {
            contributions: vec![
                Contribution::sections(vec![Section::new("", "baton is active.", 1)]),
                Contribution {
                    sections: vec![Section::new("Relay", "x", 1)],
                    resume: vec![point("a")],
                    ..Contribution::default()
                },
                Contribution {
                    resume: vec![point("b")],
                    ..Contribution::default()
                },
            ],
            errors: vec![],
        };
        merge_into(&mut d, now);
        let titles: Vec<&str> = d
            .contributions
            .iter()
            .flat_map(|c| c.sections.iter().map(|s| s.title.as_str()))
            .collect();
        assert_eq!(titles, vec!["", "Resume here", "Relay"]);
        assert!(d.contributions.iter().all(|c| c.resume.is_empty()));
    }
}
