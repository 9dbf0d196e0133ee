//! Block entries as git's union merge may leave them. The driver keeps every line either
//! side added, but a run of four or more lines that both sides added alike is written once:
//! two entries whose bodies are the same (one instinct learned in two clones, one decision
//! recorded twice) come out as both headings, the shared body, then both `**By:**` lines.
//! The bridge writes block entries so that nothing else can be shared (no blank or filler
//! line inside an entry, one line per progress group, the author last), and the readers undo
//! this one shape here: each heading gets the shared body back, with its own author.

/// `entries` (each its heading line and body, with its first line number, in file order)
/// with every run of bare headings followed by an entry given that entry's body: the
/// shared lines, then the k-th trailing `**By:**` line for the k-th heading (all of them
/// the one line when a merge kept just one).
pub(crate) fn repair(entries: Vec<(usize, String)>) -> Vec<(usize, String)> {
    let bare = |t: &str| !t.trim().contains('\n');
    let mut out = Vec::with_capacity(entries.len());
    let mut group: Vec<(usize, String)> = Vec::new();
    for (line, text) in entries {
        if bare(&text) {
            group.push((line, text));
            continue;
        }
        if group.is_empty() {
            out.push((line, text));
            continue;
        }
        group.push((line, text));
        out.extend(share(std::mem::take(&mut group)));
    }
    out.extend(group);
    out
}

/// The members of one group: bare headings, the last with the shared body and the authors.
/// Only the merge's shape is undone — one author line per heading, or headings that all
/// name the same thing — so a heading someone left without a body keeps it so.
fn share(group: Vec<(usize, String)>) -> Vec<(usize, String)> {
    let Some((_, last)) = group.last() else {
        return group;
    };
    let body: Vec<&str> = last.trim_end().lines().skip(1).collect();
    let by_from = body
        .iter()
        .rposition(|l| !l.trim().starts_with("**By:**"))
        .map_or(0, |i| i + 1);
    let (shared, bys) = body.split_at(by_from);
    let title = |t: &str| {
        let head = t.lines().next().unwrap_or("");
        head.split_once(']')
            .map_or(head, |(_, r)| r)
            .trim()
            .to_string()
    };
    let same_titles = group.iter().all(|(_, t)| title(t) == title(last));
    if bys.len() != group.len() && !same_titles {
        return group;
    }
    let shared = shared.join("\n");
    let ending = if last.ends_with('\n') { "\n" } else { "" };
    group
        .iter()
        .enumerate()
        .map(|(k, (line, text))| {
            let head = text.trim_end().lines().next().unwrap_or("");
            let mut t = format!("{head}\n{shared}");
            let by = if bys.len() == group.len() {
                bys.get(k)
            } else {
                bys.last()
            };
            if let Some(by) = by {
                t.push('\n');
                t.push_str(by);
            }
            t.push_str(ending);
            (*line, t)
        })
        .collect()
}

/// `repair` over texts without line numbers.
pub(crate) fn repair_texts(entries: Vec<String>) -> Vec<String> {
    repair(entries.into_iter().map(|t| (0, t)).collect())
        .into_iter()
        .map(|(_, t)| t)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_body_goes_back_to_each_heading_with_its_author() {
        let merged = vec![
            "## [1] Instinct: fmt".to_string(),
            "## [2] Instinct: fmt".to_string(),
            "## [3] Instinct: fmt\n**Trigger:** t\n**Action:** a\n**By:** alice\n**By:** bob\n**By:** carol".to_string(),
            "## [4] Decision: other\n**Decision:** d\n**By:** dan".to_string(),
        ];
        let fixed = repair_texts(merged);
        assert_eq!(
            fixed,
            vec![
                "## [1] Instinct: fmt\n**Trigger:** t\n**Action:** a\n**By:** alice",
                "## [2] Instinct: fmt\n**Trigger:** t\n**Action:** a\n**By:** bob",
                "## [3] Instinct: fmt\n**Trigger:** t\n**Action:** a\n**By:** carol",
                "## [4] Decision: other\n**Decision:** d\n**By:** dan",
            ]
        );
        // One author line kept (both were the same): each heading gets it.
        let fixed = repair_texts(vec![
            "## [1] Decision: x".into(),
            "## [2] Decision: x\n**Decision:** d\n**By:** bob\n".into(),
        ]);
        assert_eq!(
            fixed[0],
            "## [1] Decision: x\n**Decision:** d\n**By:** bob\n"
        );
        // A bare heading at the end stays as it is, and one before another entry too when the
        // shape is not the merge's (other titles, no author line each).
        assert_eq!(repair_texts(vec!["## [1] x".into()]), vec!["## [1] x"]);
        let own = vec![
            "## [1] Decision: placeholder".to_string(),
            "## [2] Decision: real\n**Decision:** d\n**By:** bob".to_string(),
        ];
        assert_eq!(repair_texts(own.clone()), own);
    }
}
