//! The one "Resume here" section of a session start: every handler offers its candidates
//! (`Contribution::resume`); `core::resume` picks the one next action by the rule there and
//! lists the rest. The section goes right after the status line, before every subsystem's
//! own sections. On a fresh start the point named is written to the resume log
//! (`core::resume_log`), so that a session that goes on from it does not, by its work,
//! supersede it.

use super::bus::Dispatched;
use crate::core::handler::Contribution;
use crate::core::project::Project;
use crate::core::resume::{self, Situation, Start};
use crate::core::resume_log;

/// Takes every contribution's resume points and puts the one section they make in front of
/// the titled sections (after the untitled status line).
pub(crate) fn merge_into(d: &mut Dispatched, project: &Project, source: &str, session: &str) {
    let points: Vec<resume::ResumePoint> = d
        .contributions
        .iter_mut()
        .flat_map(|c| std::mem::take(&mut c.resume))
        .collect();
    if points.is_empty() {
        return;
    }
    let log = resume_log::read(project);
    let start = Start::of_source(source);
    let situation = Situation {
        start,
        session,
        log: &log,
    };
    let Some((section, named)) = resume::section(&points, project.now(), &situation) else {
        return;
    };
    if let Some(id) = named.filter(|_| start == Start::Fresh && !session.is_empty()) {
        if log.offered_to(session) != Some(id.as_str()) {
            // Best effort: without it a session that goes on from the point supersedes it.
            let _ = resume_log::record_offered(project, session, &id);
        }
    }
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
        let t = tempfile::tempdir().unwrap();
        let ctx = crate::core::ctx::Ctx::for_test(
            crate::core::ctx::Env::fixed(Vec::<(String, String)>::new()),
            crate::core::clock::Clock::fixed(now),
            t.path().to_path_buf(),
        );
        let project = Project::with_config(
            ctx,
            t.path().to_path_buf(),
            crate::core::config::Config::default(),
        );
        merge_into(&mut d, &project, "startup", "");
        let titles: Vec<&str> = d
            .contributions
            .iter()
            .flat_map(|c| c.sections.iter().map(|s| s.title.as_str()))
            .collect();
        assert_eq!(titles, vec!["", "Resume here", "Relay"]);
        assert!(d.contributions.iter().all(|c| c.resume.is_empty()));
    }
}
