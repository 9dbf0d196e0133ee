use super::*;

/// The labelled prompts: `expect`, `kind`, `language`, `prompt`, tab-separated.
const TABLE: &str = include_str!("prompts.tsv");

struct Row<'a> {
    correction: bool,
    kind: &'a str,
    lang: &'a str,
    prompt: &'a str,
}

fn rows() -> Vec<Row<'static>> {
    TABLE
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(n, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "prompts.tsv line {}: {l:?}", n + 1);
            assert!(
                ["correction", "request"].contains(&f[0]),
                "prompts.tsv line {}: expect is {:?}",
                n + 1,
                f[0]
            );
            assert!(
                ["plain", "both", "ambiguous"].contains(&f[1]),
                "prompts.tsv line {}: kind is {:?}",
                n + 1,
                f[1]
            );
            Row {
                correction: f[0] == "correction",
                kind: f[1],
                lang: f[2],
                prompt: f[3],
            }
        })
        .collect()
}

/// Precision and recall of `classify` over the table, printed with every prompt it gets
/// wrong (`cargo test --lib correction::tests -- --nocapture` shows them).
#[test]
fn precision_and_recall_over_the_labelled_prompts() {
    let rows = rows();
    let (mut tp, mut fp, mut fn_) = (0_u32, 0_u32, 0_u32);
    let mut wrong = Vec::new();
    for r in &rows {
        let got = classify(r.prompt);
        match (r.correction, got.is_some()) {
            (true, true) => tp += 1,
            (false, true) => fp += 1,
            (true, false) => fn_ += 1,
            (false, false) => {}
        }
        if r.correction != got.is_some() {
            wrong.push(format!(
                "  {} [{} {}] {:?}: {:?}",
                if r.correction { "missed" } else { "false " },
                r.kind,
                r.lang,
                r.prompt,
                got.map(Rule::name)
            ));
        }
    }
    let corrections = rows.iter().filter(|r| r.correction).count();
    let precision = f64::from(tp) / f64::from(tp + fp).max(1.0);
    let recall = f64::from(tp) / f64::from(tp + fn_).max(1.0);
    let languages: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.lang).collect();
    eprintln!(
        "corrections: {} prompts ({corrections} corrections, {} requests; {} both, {} ambiguous; languages {}): precision {precision:.3}, recall {recall:.3}",
        rows.len(),
        rows.len() - corrections,
        rows.iter().filter(|r| r.kind == "both").count(),
        rows.iter().filter(|r| r.kind == "ambiguous").count(),
        languages.into_iter().collect::<Vec<_>>().join(" "),
    );
    eprintln!("{}", wrong.join("\n"));
    assert!(rows.len() >= 150 && corrections >= 60 && rows.len() - corrections >= 60);
    assert!(
        precision >= 0.95,
        "precision {precision:.3}:\n{}",
        wrong.join("\n")
    );
    assert!(recall >= 0.9, "recall {recall:.3}:\n{}", wrong.join("\n"));
}

/// The two prompts of issue 34 that wording alone missed.
#[test]
fn issue_34_corrections_by_structure() {
    assert_eq!(
        classify("And no, don't use the global config, read it from the project file"),
        Some(Rule::Negation)
    );
    assert_eq!(
        classify("No — don't put the helper in utils.rs, it belongs in core"),
        Some(Rule::Negation)
    );
}

/// Only the start of a long prompt is read, and a cut inside a character is moved back.
#[test]
fn only_the_start_of_a_long_prompt_is_read() {
    let pasted = format!(
        "Here is the log:\n{}\nthat's wrong",
        "ok line\n".repeat(100)
    );
    assert_eq!(classify(&pasted), None);
    assert!(classify(&format!("that's wrong:\n{pasted}")).is_some());
    let wide = format!("{}that's wrong", "é".repeat(HEAD_BYTES));
    assert_eq!(classify(&wide), None);
    assert_eq!(classify(""), None);
    assert_eq!(classify("  \n "), None);
}

/// `rules::anywhere` looks phrases up by their first word: none may start with a wildcard.
#[test]
fn phrases_found_anywhere_start_with_a_word() {
    for (p, _) in words::ANYWHERE {
        assert!(!p.starts_with('*'), "{p}");
    }
}

/// Words are read whole: a correction word inside another word is not one.
#[test]
fn words_are_read_whole() {
    for p in [
        "nobody asked",
        "notes first",
        "stopwatch",
        "insteadof",
        "undone work",
        "wrongly",
    ] {
        assert_eq!(classify(p), None, "{p}");
    }
    assert_eq!(text::Text::new("don't").toks.len(), 2);
    let lower = text::lower("N’utilise PAS ça — Ё");
    let t = text::Text::new(&lower);
    let words: Vec<&str> = t.toks.iter().map(|t| t.text).collect();
    assert_eq!(words, ["n'", "utilise", "pas", "ça", "", "е"]);
}
