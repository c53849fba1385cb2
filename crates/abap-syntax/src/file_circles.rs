//! The measure of circles between a crate's files, shared by the crates' `file_order` tests
//! (abap-runtime includes this file by path, so the one scanner serves both).
//!
//! A file uses another when its code names an item the other defines through a path that
//! starts at the crate (`crate::`), the parent module (`super::`), the file's own module
//! (`self::`) or one of its child modules (`calc::…` written in `interp/mod.rs`), whether in a
//! `use` or inline. A path ends at the deepest module a file defines: naming `super::Interp`
//! from `interp/calc.rs` uses `interp/mod.rs`. Code after the first `cfg(test)` attribute
//! and `//` comments do not count. Method calls are no paths and are not seen.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A source file: its path from `src`, its module path, its text.
pub type File = (String, Vec<String>, String);

/// The file-to-file graph: each file to the files whose items its code names.
pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// The code of a file before its tests, without `//` comments (outside string literals).
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    let mut out = String::new();
    for line in text.lines() {
        let mut quotes = 0;
        let mut end = line.len();
        for (i, c) in line.char_indices() {
            match c {
                '"' => quotes += 1,
                '/' if quotes % 2 == 0 && line[i..].starts_with("//") => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        out.push_str(&line[..end]);
        out.push('\n');
    }
    out
}

/// The paths of a use tree such as `parser::{expr::parse, words::{is_name, Unsup}}`.
fn expand(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let mut depth = 0;
        let mut from = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(prefix, &inner[from..i], out);
                    from = i + 1;
                }
                _ => {}
            }
        }
        expand(prefix, &inner[from..], out);
        return;
    }
    if tree.is_empty() {
        return;
    }
    let mut path = prefix.to_vec();
    match tree.split_once("::") {
        Some((head, rest)) => {
            path.push(head.trim().to_string());
            expand(&path, rest, out);
        }
        None => {
            path.push(tree.split(" as ").next().unwrap_or(tree).trim().to_string());
            out.push(path);
        }
    }
}

/// The paths a file's code names, from the crate root; `module` is the file's module and
/// `children` the names of the modules declared in it.
fn paths(code: &str, module: &[String], children: &[String]) -> Vec<Vec<String>> {
    let parent = module[..module.len().saturating_sub(1)].to_vec();
    let mut starts: Vec<(String, Vec<String>)> = vec![
        ("crate::".into(), Vec::new()),
        // `super` of `a/b.rs` is `a`; of `a/b/mod.rs` (module `a::b`) also `a`.
        ("super::".into(), parent),
        ("self::".into(), module.to_vec()),
    ];
    for child in children {
        let mut base = module.to_vec();
        base.push(child.clone());
        starts.push((format!("{child}::"), base));
    }
    let mut out = Vec::new();
    for (start, base) in &starts {
        for (at, _) in code.match_indices(start.as_str()) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let rest = &code[at + start.len()..];
            let mut depth = 0;
            let mut end = rest.len();
            for (i, c) in rest.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        end = i;
                        break;
                    }
                    '}' => depth -= 1,
                    c if depth == 0 && !(c.is_alphanumeric() || c == '_' || c == ':') => {
                        end = i;
                        break;
                    }
                    _ => {}
                }
            }
            let rest = &rest[..end];
            if rest.is_empty() {
                // `use super::calc;` names the module itself.
                out.push(base.clone());
            } else {
                expand(base, rest, &mut out);
            }
        }
    }
    out
}

/// Every file below `dir`: its path from `src` and its module path.
pub fn files(dir: &Path, src: &Path, out: &mut Vec<File>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("src entry").path();
        if path.is_dir() {
            files(&path, src, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(src).expect("below src");
            let name = rel.to_string_lossy().replace('\\', "/");
            let mut module: Vec<String> = name
                .trim_end_matches(".rs")
                .split('/')
                .map(String::from)
                .collect();
            if module.last().is_some_and(|m| m == "mod" || m == "lib") {
                module.pop();
            }
            let text = std::fs::read_to_string(&path).expect("source is readable");
            out.push((name, module, text));
        }
    }
}

/// The file-to-file graph of `all`.
pub fn graph(all: &[File]) -> Graph {
    let by_module: BTreeMap<&[String], &str> = all
        .iter()
        .map(|(name, module, _)| (module.as_slice(), name.as_str()))
        .collect();
    let mut out = Graph::new();
    for (name, module, text) in all {
        let children: Vec<String> = by_module
            .keys()
            .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
            .filter_map(|m| m.last().cloned())
            .collect();
        let entry = out.entry(name.clone()).or_default();
        for path in paths(&code(text), module, &children) {
            // The deepest module the path names is the file that defines the item.
            let target = (0..=path.len())
                .rev()
                .find_map(|n| by_module.get(&path[..n]).copied());
            if let Some(target) = target
                && target != name
            {
                entry.insert(target.to_string());
            }
        }
    }
    out
}

/// The circles (strongly connected sets of more than one file), each sorted.
pub fn circles(graph: &Graph) -> Vec<Vec<String>> {
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(f) = todo.pop() {
            for next in graph.get(&f).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|f| (f, reach(f))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for (f, r) in &reaches {
        if !r.contains(*f) || out.iter().any(|c| c.contains(*f)) {
            continue;
        }
        let circle: Vec<String> = r
            .iter()
            .filter(|g| reaches.get(g).is_some_and(|back| back.contains(*f)))
            .cloned()
            .collect();
        out.push(circle);
    }
    out
}

/// The graph of the crate whose sources are in `src`.
pub fn crate_graph(src: &Path) -> Graph {
    let mut all = Vec::new();
    files(src, src, &mut all);
    graph(&all)
}
