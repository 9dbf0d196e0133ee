//! Path globs (globset): `*` and `?` stay inside one path segment, `**` crosses segments
//! (`src/**/*.rs`, `migrations/**`), `{a,b}` alternatives and `[…]` classes as users write
//! them in INVARIANTS.md WHERE lines and `handoff.stale_runtime_globs`. Paths use `/`.

use globset::{GlobBuilder, GlobMatcher};

/// A glob that matches a whole relative path.
pub fn whole_path(glob: &str) -> Result<GlobMatcher, String> {
    build(glob)
}

/// A glob that matches a path ending in it at any depth (`scripts/lib/*.sh` also matches
/// `a/scripts/lib/x.sh`).
pub fn any_depth(glob: &str) -> Result<GlobMatcher, String> {
    let glob = glob.trim_start_matches("./");
    if glob.starts_with("**/") || glob.starts_with('/') {
        build(glob.trim_start_matches('/'))
    } else {
        build(&format!("**/{glob}"))
    }
}

fn build(glob: &str) -> Result<GlobMatcher, String> {
    GlobBuilder::new(glob)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| e.kind().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(glob: &str, path: &str) -> bool {
        whole_path(glob).unwrap().is_match(path)
    }

    #[test]
    fn stars_and_literals() {
        assert!(full("src/**/*.rs", "src/a/b/c.rs"));
        assert!(full("src/**/*.rs", "src/c.rs"));
        assert!(!full("src/*.rs", "src/a/c.rs"));
        assert!(full("migrations/**", "migrations/2026/x.sql"));
        assert!(full("a?.md", "ab.md"));
        assert!(!full("a?.md", "a/.md"));
        assert!(full("file(1).txt", "file(1).txt"));
        assert!(!full("file(1).txt", "file1.txt"));
    }

    #[test]
    fn alternatives_and_classes() {
        assert!(full("src/**/*.{ts,tsx}", "src/ui/app.tsx"));
        assert!(!full("src/**/*.{ts,tsx}", "src/ui/app.js"));
        assert!(full(
            "db/migrations/[0-9]*.sql",
            "db/migrations/001_init.sql"
        ));
        assert!(!full("db/migrations/[0-9]*.sql", "db/migrations/init.sql"));
    }

    #[test]
    fn any_depth_matches_a_tail() {
        let m = any_depth("scripts/lib/*.sh").unwrap();
        assert!(m.is_match("scripts/lib/x.sh"));
        assert!(m.is_match("a/scripts/lib/x.sh"));
        assert!(!m.is_match("scripts/lib/sub/x.sh"));
        assert!(any_depth("./skills/*/SKILL.md")
            .unwrap()
            .is_match("skills/a/SKILL.md"));
        assert!(whole_path("src/{a").is_err());
    }
}
