//! The data layer's modules use each other one way: no module reaches, through the `crate::`
//! paths of its code, back to itself. Cargo orders the crates (abap-data < abap-syntax <
//! abap-runtime); inside this crate the order is this test's. The order today, lowest first:
//! `text`, `number`, `calendar`, `char_case`, `types`, `debug`, `limits` (nothing of ours);
//! `float`, `type_pool`, `place`, `unit`; `ddic`, `value`; `conversion` (values and their
//! conversions: `impl Value` blocks there call the rules, `value.rs` never does).

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// The line without a trailing `//` comment (one outside a string literal).
    fn code(line: &str) -> &str {
        let mut quotes = 0;
        for (i, c) in line.char_indices() {
            match c {
                '"' => quotes += 1,
                '/' if quotes % 2 == 0 && line[i..].starts_with("//") => return &line[..i],
                _ => {}
            }
        }
        line
    }

    /// The modules a file's code names as `crate::name` (comments left out).
    fn uses(text: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for line in text.lines() {
            let code = code(line.trim_start());
            for (at, _) in code.match_indices("crate::") {
                let name: String = code[at + "crate::".len()..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if name.chars().next().is_some_and(char::is_lowercase) {
                    out.insert(name);
                }
            }
        }
        out
    }

    /// Every file below `dir`, as (module at the crate root, its text).
    fn files(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("src is readable") {
            let path = entry.expect("src entry").path();
            if path.is_dir() {
                files(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(root).expect("below src");
                let first = rel
                    .components()
                    .next()
                    .and_then(|c| c.as_os_str().to_str())
                    .unwrap_or_default();
                let module = first.strip_suffix(".rs").unwrap_or(first).to_string();
                let text = std::fs::read_to_string(&path).expect("source is readable");
                out.push((module, text));
            }
        }
    }

    /// A module that reaches itself through the graph, with the path it takes.
    fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
        for start in graph.keys() {
            let mut stack = vec![vec![start.clone()]];
            let mut seen = BTreeSet::new();
            while let Some(path) = stack.pop() {
                let last = path.last().expect("a path is never empty");
                for next in graph.get(last).into_iter().flatten() {
                    if next == start {
                        let mut found = path.clone();
                        found.push(next.clone());
                        return Some(found);
                    }
                    if seen.insert(next.clone()) {
                        let mut longer = path.clone();
                        longer.push(next.clone());
                        stack.push(longer);
                    }
                }
            }
        }
        None
    }

    #[test]
    fn the_data_modules_use_each_other_one_way() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut all = Vec::new();
        files(&src, &src, &mut all);
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (module, text) in all {
            if module == "lib" || module == "module_order" {
                continue; // the root declares every module; this file names them in its test
            }
            let used = uses(&text);
            let entry = graph.entry(module.clone()).or_default();
            entry.extend(used.into_iter().filter(|m| *m != module));
        }
        assert!(graph.len() > 10, "the modules were not found: {graph:?}");
        assert_eq!(circle(&graph), None);
    }

    #[test]
    fn a_circle_is_found() {
        let graph: BTreeMap<String, BTreeSet<String>> = [
            ("value", &["place"][..]),
            ("place", &["types"][..]),
            ("types", &["value"][..]),
        ]
        .into_iter()
        .map(|(m, u)| (m.to_string(), u.iter().map(|s| s.to_string()).collect()))
        .collect();
        assert_eq!(
            circle(&graph),
            Some(
                vec!["place", "types", "value", "place"]
                    .into_iter()
                    .map(String::from)
                    .collect()
            )
        );
        assert_eq!(
            uses("use crate::value::{Type, Value}; // crate::ddic"),
            ["value".to_string()].into()
        );
    }
}
