//! The crate's files use each other in circles of at most three: a file uses another when its
//! code names an item of the other through a path (`file_circles.rs` says which paths count).
//! Mutual recursion the grammar has (an expression holds a constructor expression, which holds expressions)
//! stays within three files (`parser/expr.rs`, `parser/constructors.rs`,
//! `parser/group_key.rs`); a helper statements and expressions both need lives below both.
//! A call of a `Cursor` method is no path and is not seen here: `group_key.rs` parses its
//! expressions through `expr.rs` that way, which the three above already count. The syntax
//! tree's types (`ast/`) are layered the same way: expressions (`ast/expr.rs` ↔
//! `ast/constructors.rs`) below the statement groups' nodes, statements with the nodes that hold
//! statement bodies (`ast/stmt.rs`, `ast/tables.rs`, `ast/sql.rs`) above them.

#[cfg(test)]
mod tests {
    use crate::file_circles::{File, circles, crate_graph, graph};
    use std::collections::BTreeSet;
    use std::path::Path;

    /// The largest circle allowed.
    const MAX_CIRCLE: usize = 3;

    #[test]
    fn no_circle_of_files_is_larger_than_three() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let graph = crate_graph(&src);
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
        let all: Vec<File> = [
            ("a.rs", "a", "use crate::b::{x, c::y};\n"),
            (
                "b/mod.rs",
                "b",
                "pub fn x() -> c::Y { super::d::z() } // crate::a\n",
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
        assert_eq!(edges("b/mod.rs"), ["b/c.rs", "d.rs"]);
        assert_eq!(edges("b/c.rs"), ["b/mod.rs"]);
        assert_eq!(edges("d.rs"), ["a.rs"]);
        assert_eq!(
            circles(&graph),
            [vec!["a.rs", "b/c.rs", "b/mod.rs", "d.rs"]]
        );
    }
}
