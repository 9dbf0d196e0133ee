//! Path globs as regular expressions: `**/` any number of directories, `**` anything, `*`
//! and `?` within one path segment, everything else literal. Callers anchor the result.

/// The regex (unanchored) for `glob`.
pub fn regex_body(glob: &str) -> String {
    let chars: Vec<char> = glob.chars().collect();
    let mut re = String::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '*' if chars.get(i + 1) == Some(&'*') => {
                if chars.get(i + 2) == Some(&'/') {
                    re.push_str("(?:.*/)?");
                    i += 3;
                } else {
                    re.push_str(".*");
                    i += 2;
                }
                continue;
            }
            '*' => re.push_str("[^/]*"),
            '?' => re.push_str("[^/]"),
            c => re.push_str(&regex::escape(c.encode_utf8(&mut [0; 4]))),
        }
        i += 1;
    }
    re
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(glob: &str, path: &str) -> bool {
        regex::Regex::new(&format!("^{}$", regex_body(glob)))
            .unwrap()
            .is_match(path)
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
}
