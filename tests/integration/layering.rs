//! The layering rule of DESIGN.md, read off the source: main → cli → {hook, status, doctor, clean}
//! → {relay, audit, handoff, bridge, capture, recall} → core. No arrow points upward, no module
//! imports a sibling of its own layer, core names no module above it; and inside every module
//! folder, at any depth, its files and subfolders import each other without circles (a circle
//! means a type sits in the wrong file).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module's layer; a module may name only itself and layers below it.
const LAYERS: &[(&str, u8)] = &[
    ("main", 0),
    ("cli", 1),
    ("hook", 2),
    ("status", 2),
    ("doctor", 2),
    ("clean", 2),
    ("relay", 3),
    ("audit", 3),
    ("handoff", 3),
    ("bridge", 3),
    ("capture", 3),
    ("recall", 3),
    ("core", 4),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without its tests (the `#[cfg(test)]` module at the end of a file may
/// use anything), comments and string literals (a path in a doc comment or a message is not
/// an import).
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or(text);
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'r'
            && matches!(b.get(i + 1), Some(b'"' | b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            // Raw string: r"…", r#"…"#, …
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(b[i] as char);
                i += 1;
                continue;
            }
            j += 1;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            while j < b.len() && !b[j..].starts_with(&close) {
                j += 1;
            }
            i = j + close.len();
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            // A char literal like '"'.
            i += 3;
            out.push_str("' '");
        } else if b[i] == b'\'' && b.get(i + 1) == Some(&b'\\') {
            i += 2;
            while i < b.len() && b[i] != b'\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// The top-level module a file belongs to, and its path inside it (`audit`, `store`).
fn module_of(src: &Path, file: &Path) -> (String, String) {
    let rel = file.strip_prefix(src).unwrap();
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    let top = parts[0].clone();
    let inner = parts[1..].join("::");
    (
        top,
        if inner.is_empty() || inner == "mod" {
            "mod".into()
        } else {
            inner
        },
    )
}

/// Every `crate::<name>` a file's code names.
fn crate_refs(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        if i > 0 {
            let prev = code.as_bytes()[i - 1];
            if prev.is_ascii_alphanumeric() || prev == b'_' || prev == b'$' {
                continue;
            }
        }
        let rest = &code[i + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.insert(name);
        }
        // `use crate::{a, b}` names several.
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
    }
    out
}

fn src_files() -> (PathBuf, Vec<PathBuf>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    (src, files)
}

#[test]
fn modules_import_only_downwards() {
    let (src, files) = src_files();
    let mut bad = Vec::new();
    for file in &files {
        let (top, _) = module_of(&src, file);
        if top == "lib" {
            continue; // declares the modules; imports nothing
        }
        let own = layer(&top).unwrap_or_else(|| panic!("{top} has no layer in LAYERS"));
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        for name in crate_refs(&code) {
            if name == top {
                continue;
            }
            let Some(theirs) = layer(&name) else {
                bad.push(format!("{}: crate::{name} is in no layer", file.display()));
                continue;
            };
            if theirs <= own {
                bad.push(format!(
                    "{}: {top} (layer {own}) names crate::{name} (layer {theirs})",
                    file.strip_prefix(&src).unwrap().display()
                ));
            }
        }
        // `super::super` would leave a subsystem's folder unseen by the check above.
        if code.contains("super::super") {
            bad.push(format!("{}: super::super", file.display()));
        }
    }
    assert!(bad.is_empty(), "layering broken:\n{}", bad.join("\n"));
}

/// A file's module path: `bridge/integrity/rules.rs` is `bridge::integrity::rules`,
/// `core/git/mod.rs` is `core::git`, `lib.rs` the crate root (empty).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .strip_prefix(src)
        .unwrap()
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod")) || parts == ["lib"] {
        parts.pop();
    }
    parts
}

/// The module paths a file's code names: `crate::a::b`, `super::a` (from the file's parent
/// module), `self::a`, each with its `{…}` groups spelled out. Items are left on the end
/// (`crate::core::git::Outcome`); `resolve` cuts them to a module that is a file.
fn named_paths(code: &str, own: &[String]) -> Vec<Vec<String>> {
    let parent = &own[..own.len().saturating_sub(1)];
    let mut out = Vec::new();
    for (prefix, base) in [("crate::", &[][..]), ("super::", parent), ("self::", own)] {
        for (i, _) in code.match_indices(prefix) {
            let before = code[..i].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            spell_out(&code[i + prefix.len()..], base.to_vec(), &mut out);
        }
    }
    out
}

/// Adds to `out` the paths `rest` starts with (`a::b`, `a::{b, c::d}`), each after `base`.
fn spell_out(rest: &str, base: Vec<String>, out: &mut Vec<Vec<String>>) {
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let after = &rest[name.len()..];
    if name.is_empty() {
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                spell_out(part.trim(), base.clone(), out);
            }
        }
        out.push(base);
        return;
    }
    let mut path = base;
    path.push(name);
    match after.strip_prefix("::") {
        Some(more) => spell_out(more, path, out),
        None => out.push(path),
    }
}

/// `path` cut to the longest module of `modules` it starts with.
fn resolve<'a>(path: &[String], modules: &'a BTreeSet<Vec<String>>) -> Option<&'a Vec<String>> {
    (0..=path.len())
        .rev()
        .find_map(|n| modules.get(&path[..n].to_vec()))
}

/// Per module folder (its path), the edges between its members: member `a` → member `b`
/// when a file in `a` (the member's own file, or any file below it) names `b` or something
/// in it. The folder's own root file (its `mod.rs`, or `x.rs` beside `x/`) declares the
/// members and is left out, as are names of the folder itself (`super::Status`).
fn member_graph(src: &Path) -> BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.retain(|f| f.file_name().is_some_and(|n| n != "main.rs"));
    let paths: Vec<Vec<String>> = files.iter().map(|f| module_path(src, f)).collect();
    let modules: BTreeSet<Vec<String>> = paths.iter().cloned().collect();
    let mut graph: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (file, own) in files.iter().zip(&paths) {
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        for named in named_paths(&code, own) {
            let Some(target) = resolve(&named, &modules) else {
                continue;
            };
            // The deepest folder holding both, and the member of it on each side.
            let common = own.iter().zip(target).take_while(|(a, b)| a == b).count();
            if common >= own.len() || common >= target.len() {
                continue; // a file naming its own folder's root, or something inside itself
            }
            graph
                .entry(own[..common].to_vec())
                .or_default()
                .entry(own[common].clone())
                .or_default()
                .insert(target[common].clone());
        }
    }
    graph
}

/// The circles among the members of every module folder below `src`, one line each
/// (`bridge::integrity: prefilter, rules`; `(crate)` for the top level).
fn circles(src: &Path) -> Vec<String> {
    let mut out = BTreeSet::new();
    for (folder, edges) in member_graph(src) {
        let reach = |from: &String| {
            let mut seen = BTreeSet::new();
            let mut todo = vec![from.clone()];
            while let Some(node) = todo.pop() {
                for next in edges.get(&node).into_iter().flatten() {
                    if seen.insert(next.clone()) {
                        todo.push(next.clone());
                    }
                }
            }
            seen
        };
        for member in edges.keys() {
            let from_here = reach(member);
            if !from_here.contains(member) {
                continue;
            }
            let on_circle: Vec<String> = from_here
                .into_iter()
                .filter(|other| reach(other).contains(member))
                .collect();
            let name = if folder.is_empty() {
                "(crate)".to_string()
            } else {
                folder.join("::")
            };
            out.insert(format!("{name}: {}", on_circle.join(", ")));
        }
    }
    out.into_iter().collect()
}

#[test]
fn files_inside_a_module_have_no_circles() {
    let found = circles(&src_files().0);
    assert!(
        found.is_empty(),
        "files that import each other in a circle (move the shared type to the file that owns it):\n{}",
        found.join("\n")
    );
}

/// The check sees a circle however deep it is: two files two folders down that name each
/// other (one through `super::`, one through `crate::`), and a circle that runs through a
/// subfolder (a file of it names a sibling of the folder, which names the folder back).
#[test]
fn a_planted_circle_two_folders_deep_is_reported() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("src");
    let write = |rel: &str, text: &str| {
        let p = src.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("lib.rs", "mod core;\n");
    write("core/mod.rs", "pub mod scan;\npub mod paths;\n");
    write("core/paths.rs", "pub fn home() {}\n");
    write(
        "core/scan/mod.rs",
        "mod rules;\nmod checks;\npub use rules::Rule;\n",
    );
    write(
        "core/scan/rules.rs",
        "use super::checks::run;\n/// Not an import: super::nothing\npub struct Rule;\n",
    );
    write(
        "core/scan/checks.rs",
        "pub fn run(_: &crate::core::scan::rules::Rule) { crate::core::paths::home() }\n",
    );
    assert_eq!(circles(&src), ["core::scan: checks, rules"]);
    // Opened: the rule no longer names its checks.
    write("core/scan/rules.rs", "pub struct Rule;\n");
    assert_eq!(circles(&src), Vec::<String>::new());
    // A circle through a folder: scan's checks name paths, paths names scan.
    write(
        "core/paths.rs",
        "pub fn home() { let _ = super::scan::Rule; }\n",
    );
    assert_eq!(circles(&src), ["core: paths, scan"]);
}
