//! The layering rule of DESIGN.md, read off the source: main → cli → {hook, status, doctor, clean}
//! → {relay, audit, handoff, bridge, capture, recall} → core. No arrow points upward, no module
//! imports a sibling of its own layer, core names no module above it; and inside a module
//! folder, the files import each other without circles (a circle means a type sits in the
//! wrong file).

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

/// Macros exported at the crate root by `core::io`.
const CORE_MACROS: &[&str] = &["out", "outln"];

fn layer(module: &str) -> Option<u8> {
    if CORE_MACROS.contains(&module) {
        return Some(4);
    }
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

/// Inside one module folder, the files that each file names (`super::x`, `crate::<top>::x`).
fn file_graph() -> BTreeMap<(String, String), BTreeSet<String>> {
    let (src, files) = src_files();
    let mut graph: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    let mut present: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let (top, inner) = module_of(&src, file);
        present.entry(top).or_default().insert(inner);
    }
    for file in &files {
        let (top, inner) = module_of(&src, file);
        if inner == "mod" || top == "lib" || top == "main" {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let siblings = &present[&top];
        let mut names = BTreeSet::new();
        let prefixes = ["super::".to_string(), format!("crate::{top}::")];
        for prefix in &prefixes {
            for (i, _) in code.match_indices(prefix.as_str()) {
                if i > 0
                    && (code.as_bytes()[i - 1].is_ascii_alphanumeric()
                        || code.as_bytes()[i - 1] == b'_')
                {
                    continue;
                }
                let rest = &code[i + prefix.len()..];
                let mut candidates = Vec::new();
                if let Some(group) = rest.strip_prefix('{') {
                    let end = group.find('}').unwrap_or(group.len());
                    candidates.extend(group[..end].split(',').map(|p| p.trim().to_string()));
                } else {
                    candidates.push(rest.to_string());
                }
                for c in candidates {
                    let name: String = c
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if siblings.contains(&name) && name != inner {
                        names.insert(name);
                    }
                }
            }
        }
        graph.insert((top, inner), names);
    }
    graph
}

/// The files `from` reaches through the graph (itself excluded unless on a circle).
fn reachable(
    graph: &BTreeMap<(String, String), BTreeSet<String>>,
    top: &str,
    from: &str,
) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![from.to_string()];
    while let Some(node) = todo.pop() {
        for next in graph.get(&(top.to_string(), node)).into_iter().flatten() {
            if seen.insert(next.clone()) {
                todo.push(next.clone());
            }
        }
    }
    seen
}

#[test]
fn files_inside_a_module_have_no_circles() {
    let graph = file_graph();
    let mut circles: BTreeSet<String> = BTreeSet::new();
    for (top, file) in graph.keys() {
        let from_here = reachable(&graph, top, file);
        if !from_here.contains(file) {
            continue;
        }
        // The files on a circle with this one: those it reaches that reach it back.
        let mut members: Vec<String> = from_here
            .into_iter()
            .filter(|other| reachable(&graph, top, other).contains(file))
            .collect();
        members.sort();
        circles.insert(format!("{top}: {}", members.join(", ")));
    }
    assert!(
        circles.is_empty(),
        "files that import each other in a circle (move the shared type to the file that owns it):\n{}",
        circles.into_iter().collect::<Vec<_>>().join("\n")
    );
}
