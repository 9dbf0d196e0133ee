//! Word neighbours: for each word of a general software vocabulary, the words a sentence
//! model places nearest to it ("restart" → reboot, reset, reload). A question's word also
//! finds its neighbours, at `NEIGHBOUR_WEIGHT` times their closeness, so a question in other
//! words than the record's still finds it. Like the thesaurus, only the question is expanded.
//!
//! The table (`neighbours.tsv`, in the binary) is data derived once from all-MiniLM-L6-v2 by
//! `scripts/build-recall-neighbours`; baton never runs the model and never downloads anything.

use super::terms::term;
use std::sync::OnceLock;

/// How much a neighbour's match counts, times its closeness (cosine 0.55–1).
pub(crate) const NEIGHBOUR_WEIGHT: f32 = 0.6;

/// One line per word, sorted by word: `word\tneighbour cosine\t…`.
const TABLE: &str = include_str!("neighbours.tsv");

/// The table's rows, in order.
fn rows() -> &'static [&'static str] {
    static ROWS: OnceLock<Vec<&'static str>> = OnceLock::new();
    ROWS.get_or_init(|| {
        TABLE
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect()
    })
}

/// The row of `word`, if the table has it.
fn row(word: &str) -> Option<&'static str> {
    let rows = rows();
    rows.binary_search_by(|l| key(l).cmp(word))
        .ok()
        .map(|i| rows[i])
}

/// A row's word.
fn key(line: &str) -> &str {
    line.split('\t').next().unwrap_or_default()
}

/// The terms near the question's word `word` (lower-cased, as typed) whose own term is
/// `norm`, each with the weight a match of it counts; never `norm` itself.
pub(crate) fn neighbours(word: &str, norm: &str) -> Vec<(String, f32)> {
    let Some(line) = row(word).or_else(|| row(norm)) else {
        return Vec::new();
    };
    let mut out: Vec<(String, f32)> = Vec::new();
    for field in line.split('\t').skip(1) {
        let Some((near, cosine)) = field.split_once(' ') else {
            continue;
        };
        let Ok(cosine) = cosine.parse::<f32>() else {
            continue;
        };
        let t = term(near);
        let w = NEIGHBOUR_WEIGHT * cosine.clamp(0.0, 1.0);
        if t.is_empty() || t == norm || out.iter().any(|(o, _)| *o == t) {
            continue;
        }
        out.push((t, w));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_so_a_word_is_found() {
        let keys: Vec<&str> = rows().iter().map(|l| key(l)).collect();
        assert!(keys.len() > 10_000, "{} rows", keys.len());
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "unsorted or repeated");
        assert!(keys.iter().all(|k| row(k).is_some()));
    }

    #[test]
    fn a_word_finds_what_a_developer_means_by_it() {
        let near = |w: &str| -> Vec<String> {
            neighbours(w, &term(w))
                .into_iter()
                .map(|(t, _)| t)
                .collect()
        };
        assert!(
            near("restart").contains(&term("reboot")),
            "{:?}",
            near("restart")
        );
        assert!(
            near("database").contains(&term("sql")),
            "{:?}",
            near("database")
        );
        // an inflected question word finds the row of its stem
        assert!(!near("restarting").is_empty());
        assert!(near("zzqx").is_empty());
    }

    #[test]
    fn a_neighbour_counts_less_than_a_synonym_and_never_as_the_word() {
        for w in ["restart", "slow", "secret", "database", "rollback"] {
            let t = term(w);
            let near = neighbours(w, &t);
            assert!(!near.is_empty(), "{w} has no neighbours");
            for (n, weight) in near {
                assert_ne!(n, t);
                assert!(
                    weight > 0.0 && weight <= NEIGHBOUR_WEIGHT,
                    "{w} → {n}: {weight}"
                );
                assert!(weight < super::super::thesaurus::SYNONYM_WEIGHT);
            }
        }
    }
}
