//! The crate's layers, and the test that keeps dependencies pointing one way:
//!
//! 1. data: values and types (`value.rs`, `text.rs`, `number.rs`, `float.rs`, `calendar.rs`,
//!    `conversion.rs`, `ddic.rs`, `type_pool.rs`, `char_case.rs`), where data lives (`place.rs`), and what the
//!    debugger and the callers see (`debug.rs`, `limits.rs`, `unit.rs`);
//! 2. syntax: `lexer.rs`, the statement splitter `statements.rs`, the tree `ast/`;
//! 3. parser: `parser/`;
//! 4. runtime: `interp/` (the interpreter and everything that runs a program), with the run's
//!    state (`interp/state.rs`): a frame points into the parsed program (its class and
//!    procedure), so the state sits above the syntax tree, not in the data layer;
//! 5. the crate's surface: `lib.rs`, `repository.rs` (loading and running).
//!
//! A module may use its own layer and the layers below it, never one above: the syntax tree
//! knows nothing of how it is parsed or run, the parser nothing of the interpreter. The test
//! reads the sources (`crate::…` paths outside comments).

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    /// The layer of a module, by its first path segment below the crate root.
    fn layer_of_module(name: &str) -> Option<u8> {
        Some(match name {
            "value" | "place" | "text" | "number" | "float" | "calendar" | "conversion"
            | "ddic" | "char_case" | "debug" | "limits" | "unit" | "type_pool" => 1,
            // Types declared in lib.rs itself, part of the data model.
            "LoadError" | "RunError" | "Limits" => 1,
            "lexer" | "statements" | "ast" => 2,
            "parser" => 3,
            "interp" => 4,
            "repository" | "layers" => 5,
            _ => return None,
        })
    }

    /// The layer of a source file, by its path below `src/`.
    fn layer_of_file(rel: &Path) -> u8 {
        let first = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .unwrap_or_default();
        let module = first.strip_suffix(".rs").unwrap_or(first);
        if module == "lib" {
            return 5;
        }
        layer_of_module(module).unwrap_or_else(|| panic!("{} is in no layer", rel.display()))
    }

    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src is readable") {
            let path = entry.expect("src entry").path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

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

    /// The first segments of the `crate::` paths a line names, `use crate::{a, b::c}` too.
    fn crate_modules(line: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (at, _) in line.match_indices("crate::") {
            let rest = &line[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let group = group.split('}').next().unwrap_or_default();
                for part in group.split(',') {
                    let name: String = part
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.push(name);
                    }
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push(name);
            }
        }
        out
    }

    #[test]
    fn no_module_uses_a_layer_above_its_own() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        files.sort();
        let mut wrong = Vec::new();
        for file in &files {
            let rel = file.strip_prefix(&src).expect("below src");
            if rel == Path::new("layers.rs") {
                continue; // this test's own text names paths of every layer
            }
            let own = layer_of_file(rel);
            let text = std::fs::read_to_string(file).expect("source is readable");
            for (n, line) in text.lines().enumerate() {
                let line = code(line.trim_start());
                for module in crate_modules(line) {
                    let Some(used) = layer_of_module(&module) else {
                        wrong.push(format!(
                            "{}:{}: crate::{module} is in no layer",
                            rel.display(),
                            n + 1
                        ));
                        continue;
                    };
                    if used > own {
                        wrong.push(format!(
                            "{}:{}: layer {own} uses crate::{module} (layer {used})",
                            rel.display(),
                            n + 1
                        ));
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn the_reader_finds_what_a_line_uses() {
        assert_eq!(crate_modules("use crate::value::{Type, Value};"), ["value"]);
        assert_eq!(
            crate_modules("use crate::{Limits, interp::state};"),
            ["Limits", "interp"]
        );
        assert_eq!(code("let x = 1; // crate::interp"), "let x = 1; ");
        assert_eq!(code(r#"let u = "http://x"; "#), r#"let u = "http://x"; "#);
        assert_eq!(layer_of_file(Path::new("parser/expr.rs")), 3);
        assert_eq!(layer_of_file(Path::new("lib.rs")), 5);
    }
}
