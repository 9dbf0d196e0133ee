//! Path globs (globset): `*` and `?` stay inside one path segment, `**` crosses segments
//! (`src/**/*.rs`, `migrations/**`), `{a,b}` alternatives and `[…]` classes as users write
//! them in INVARIANTS.md WHERE lines and `handoff.stale_runtime_globs`. Paths use `/`.

use globset::{GlobBuilder, GlobMatcher};

/// A glob that matches a whole relative path.
pub fn whole_path(glob: &str) -> Result<GlobMatcher, String> {
    build(glob)
}

/// Whether `glob` matches the whole relative `path`; `false` for a glob that does not
/// compile. The glob is compiled only when the path begins with the glob's text before its
/// first wildcard (every match does), and a glob without wildcards is compared as text: an
/// edit hook checks every invariant's globs against one path.
pub fn matches_whole_path(glob: &str, path: &str) -> bool {
    let literal = glob
        .find(['*', '?', '[', ']', '{', '}', '\\'])
        .map_or(glob, |i| &glob[..i]);
    if literal.len() == glob.len() {
        return glob == path;
    }
    path.starts_with(literal) && whole_path(glob).is_ok_and(|m| m.is_match(path))
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

    /// The shortcuts (a literal glob compared as text, a path without the glob's literal
    /// start never compiled) answer as the compiled glob does.
    #[test]
    fn matches_whole_path_agrees_with_the_compiled_glob() {
        let globs = [
            "src/**/*.rs",
            "src/**",
            "**/x.rs",
            "migrations/**",
            "a?.md",
            "file(1).txt",
            "src/**/*.{ts,tsx}",
            "db/migrations/[0-9]*.sql",
            "README.md",
            "a\\*b",
            "src/{a",
            "*.md",
            "docs/*",
        ];
        let paths = [
            "src/a/b/c.rs",
            "src/c.rs",
            "src",
            "src/",
            "x.rs",
            "a/x.rs",
            "migrations/1.sql",
            "ab.md",
            "file(1).txt",
            "src/ui/app.tsx",
            "db/migrations/001_init.sql",
            "README.md",
            "a*b",
            "axb",
            "docs/a.md",
            "docs",
            "",
            "README.md/x",
        ];
        for g in globs {
            for p in paths {
                let compiled = whole_path(g).is_ok_and(|m| m.is_match(p));
                assert_eq!(matches_whole_path(g, p), compiled, "{g} on {p}");
            }
        }
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
