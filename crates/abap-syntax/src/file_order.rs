//! The crate's files use each other in circles of at most three: a file uses another when its
//! code names an item of the other through a `crate::` or `super::` path. Mutual recursion
//! the grammar has (an expression holds a constructor expression, which holds expressions)
//! stays within three files (`parser/expr.rs`, `parser/constructors.rs`,
//! `parser/group_key.rs`); a helper statements and expressions both need lives below both.
//! A call of a `Cursor` method is no path and is not seen here: `group_key.rs` parses its
//! expressions through `expr.rs` that way, which the three above already count.

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// The largest circle allowed.
    const MAX_CIRCLE: usize = 3;

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

    /// The paths a file's code names, from the crate root; `module` is the file's module.
    fn paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        for start in ["crate::", "super::"] {
            for (at, _) in code.match_indices(start) {
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
                let base: Vec<String> = if start == "crate::" {
                    Vec::new()
                } else {
                    // `super` of `a/b.rs` is `a`; of `a/b/mod.rs` (module `a::b`) also `a`.
                    module[..module.len().saturating_sub(1)].to_vec()
                };
                expand(&base, &rest[..end], &mut out);
            }
        }
        out
    }

    /// Every file below `dir`: its path from `src` and its module path.
    fn files(dir: &Path, src: &Path, out: &mut Vec<(String, Vec<String>, String)>) {
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

    /// The file-to-file graph: each file to the files whose items its code names.
    fn graph(all: &[(String, Vec<String>, String)]) -> BTreeMap<String, BTreeSet<String>> {
        let by_module: BTreeMap<&[String], &str> = all
            .iter()
            .map(|(name, module, _)| (module.as_slice(), name.as_str()))
            .collect();
        let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (name, module, text) in all {
            let entry = out.entry(name.clone()).or_default();
            for path in paths(&code(text), module) {
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
    fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
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

    #[test]
    fn no_circle_of_files_is_larger_than_three() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut all = Vec::new();
        files(&src, &src, &mut all);
        let graph = graph(&all);
        assert!(
            graph.values().map(BTreeSet::len).sum::<usize>() > 50,
            "the uses were not found: {graph:?}"
        );
        let too_large: Vec<_> = circles(&graph)
            .into_iter()
            .filter(|c| c.len() > MAX_CIRCLE)
            .collect();
        assert!(
            too_large.is_empty(),
            "circles of more than {MAX_CIRCLE} files: {too_large:?}"
        );
    }

    #[test]
    fn uses_and_circles_are_found() {
        let all: Vec<(String, Vec<String>, String)> = [
            ("a.rs", "a", "use crate::b::{x, c::y};\n"),
            (
                "b/mod.rs",
                "b",
                "pub fn x() { super::d::z() } // crate::a\n",
            ),
            ("b/c.rs", "b/c", "use super::x;\n"),
            (
                "d.rs",
                "d",
                "use crate::a::w;\n#[cfg(test)]\nuse crate::b::c;\n",
            ),
        ]
        .into_iter()
        .map(|(name, module, text)| {
            let module = module.split('/').map(String::from).collect();
            (name.to_string(), module, text.to_string())
        })
        .collect();
        let graph = graph(&all);
        let edges = |f: &str| graph[f].iter().cloned().collect::<Vec<_>>();
        assert_eq!(edges("a.rs"), ["b/c.rs", "b/mod.rs"]);
        assert_eq!(edges("b/mod.rs"), ["d.rs"]);
        assert_eq!(edges("b/c.rs"), ["b/mod.rs"]);
        assert_eq!(edges("d.rs"), ["a.rs"]);
        assert_eq!(
            circles(&graph),
            [vec!["a.rs", "b/c.rs", "b/mod.rs", "d.rs"]]
        );
    }
}
