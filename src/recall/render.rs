//! How a search's outcome reads: text for people and the model (`baton recall`,
//! `/baton:recall`, the MCP tool, whose result is capped), and JSON (`--json`).

use super::search::{Hit, Outcome, Request};
use crate::core::text::clip;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// Text of `out`; with `cap`, at most that many characters (hits that do not fit are left
/// out whole, and the last line says so).
pub(crate) fn text(out: &Outcome, req: &Request, cap: Option<usize>) -> String {
    let mut s = header(out, req);
    let footer = footer(out);
    let budget = cap.map(|c| c.saturating_sub(footer.chars().count() + 200));
    let mut shown = 0;
    for (i, h) in out.hits.iter().enumerate() {
        let block = hit_block(i + 1, h);
        if budget.is_some_and(|b| s.chars().count() + block.chars().count() > b) {
            break;
        }
        s.push_str(&block);
        shown += 1;
    }
    if shown < out.hits.len() {
        let _ = writeln!(
            s,
            "\n({} more hits not shown: the result is capped at {} characters; use fewer or more distinctive words, or a smaller limit)",
            out.hits.len() - shown,
            cap.unwrap_or(0)
        );
    }
    s.push_str(&footer);
    match cap {
        Some(c) => clip(&s, c),
        None => s,
    }
}

fn header(out: &Outcome, req: &Request) -> String {
    let secs = out.elapsed.as_secs_f64();
    let scope = scope(req);
    if out.hits.is_empty() {
        return format!(
            "No matches for \"{}\"{scope} in {} records ({secs:.2} s). Try the words the records would use (a technical term, a file or tool name), fewer words, or drop --kind / --since.\n",
            req.query.text,
            count(out.stats.docs)
        );
    }
    format!(
        "{} of {} matches for \"{}\"{scope} (searched {} records in {secs:.2} s)\n",
        out.hits.len(),
        count(out.matched),
        req.query.text,
        count(out.stats.docs)
    )
}

/// ` (kinds: …, since …)` when the search was narrowed.
fn scope(req: &Request) -> String {
    let mut parts = Vec::new();
    if !req.kinds.is_empty() {
        let names: Vec<&str> = req.kinds.iter().map(|k| k.as_str()).collect();
        parts.push(format!("kinds: {}", names.join(", ")));
    }
    if let Some(s) = req.since {
        parts.push(format!("since {}", s.format("%Y-%m-%d %H:%M")));
    }
    if let Some(u) = req.until {
        parts.push(format!("until {}", u.format("%Y-%m-%d %H:%M")));
    }
    if req.global {
        parts.push("with the cross-project store".into());
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join("; "))
    }
}

fn hit_block(rank: usize, h: &Hit) -> String {
    let mut meta = vec![h.kind.to_string()];
    if let Some(t) = h.at {
        meta.push(t.format("%Y-%m-%d %H:%M").to_string());
    }
    if let Some(a) = &h.author {
        meta.push(format!("by {a}"));
    }
    let quoted = match (h.trust, h.trust_note.as_deref()) {
        (Some("unreviewed"), _) => {
            meta.push("⚠ unreviewed".into());
            true
        }
        (Some("suspicious"), note) => {
            meta.push(format!(
                "⚠ SUSPICIOUS ({})",
                note.unwrap_or("integrity scan")
            ));
            true
        }
        _ => false,
    };
    let mut place = h.source.clone();
    if let Some(l) = h.line {
        place.push_str(&format!(":{l}"));
    }
    meta.push(place);
    if let Some(id) = h.id.as_ref().filter(|id| !h.title.contains(id.as_str())) {
        meta.push(id.clone());
    }
    if h.similar > 0 {
        meta.push(format!("+{} similar", h.similar));
    }
    // An entry nobody reviewed is quoted, as SessionStart quotes unreviewed memory.
    let lead = if quoted { "   > " } else { "   " };
    let mut s = format!("\n{rank}. {}\n{lead}{}\n", meta.join(" · "), h.title);
    if !h.excerpt.is_empty() && h.excerpt != h.title {
        let _ = writeln!(s, "{lead}{}", h.excerpt);
    }
    s
}

/// Whether any hit is an entry nobody reviewed, or one the integrity scan flagged.
pub(crate) fn any_untrusted(out: &Outcome) -> bool {
    out.hits
        .iter()
        .any(|h| matches!(h.trust, Some("unreviewed" | "suspicious")))
}

fn footer(out: &Outcome) -> String {
    let mut s = String::new();
    if out.stats.corrupt > 0 {
        let _ = writeln!(
            s,
            "\n{} unreadable lines skipped (first: {})",
            count(out.stats.corrupt),
            out.stats.corrupt_examples.join("; ")
        );
    }
    for w in &out.stats.withheld {
        let _ = writeln!(s, "not searched: {w}");
    }
    s
}

/// `1234567` → `1,234,567`.
pub(crate) fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `--json`.
pub(crate) fn json(out: &Outcome, req: &Request) -> Value {
    json!({
        "query": req.query.text,
        "kinds": req.kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>(),
        "since": req.since.map(crate::core::time::rfc3339),
        "until": req.until.map(crate::core::time::rfc3339),
        "matched": out.matched,
        "hits": out.hits,
        "searched": out.stats.docs,
        "stores": out.stores,
        "corrupt": out.stats.corrupt,
        "corrupt_examples": out.stats.corrupt_examples,
        "withheld": out.stats.withheld,
        "elapsed_ms": u64::try_from(out.elapsed.as_millis()).unwrap_or(u64::MAX),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::recall::ScanStats;
    use crate::recall::query::Query;
    use std::time::Duration;

    fn hit(i: usize) -> Hit {
        Hit {
            kind: "decision",
            ts: Some("2026-11-28T10:15:00Z".into()),
            source: ".rune/decisions.md".into(),
            line: Some(3 + i),
            id: None,
            session: None,
            author: None,
            trust: None,
            trust_note: None,
            title: format!("Decision: cache policy {i}"),
            excerpt: "we **evict** the **cache** by LRU".into(),
            score: 1.0,
            similar: 0,
            at: crate::core::time::parse("2026-11-28T10:15:00Z"),
        }
    }

    fn outcome(n: usize) -> (Outcome, Request) {
        let out = Outcome {
            hits: (0..n).map(hit).collect(),
            matched: 40,
            stats: ScanStats {
                docs: 1_234_567,
                corrupt: 2,
                corrupt_examples: vec!["a.jsonl:3: not valid JSON".into()],
                ..ScanStats::default()
            },
            stores: vec!["bridge"],
            elapsed: Duration::from_millis(420),
        };
        let req = Request {
            query: Query::parse("cache eviction").unwrap(),
            kinds: Vec::new(),
            since: None,
            until: None,
            limit: 10,
            global: false,
        };
        (out, req)
    }

    #[test]
    fn text_names_kind_date_place_and_marks_words() {
        let (out, req) = outcome(1);
        let t = text(&out, &req, None);
        assert_eq!(
            t,
            "1 of 40 matches for \"cache eviction\" (searched 1,234,567 records in 0.42 s)\n\n1. decision · 2026-11-28 10:15 · .rune/decisions.md:3\n   Decision: cache policy 0\n   we **evict** the **cache** by LRU\n\n2 unreadable lines skipped (first: a.jsonl:3: not valid JSON)\n"
        );
    }

    #[test]
    fn a_capped_text_leaves_out_whole_hits_and_says_so() {
        let (out, req) = outcome(100);
        let t = text(&out, &req, Some(2_000));
        assert!(t.chars().count() <= 2_000);
        assert!(t.contains("more hits not shown"), "{t}");
        assert!(t.ends_with("not valid JSON)\n"), "{t}");
    }

    #[test]
    fn counts_have_separators() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1_000), "1,000");
        assert_eq!(count(1_061_234), "1,061,234");
    }
}
