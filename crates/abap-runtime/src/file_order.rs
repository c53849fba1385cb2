//! The files of this crate and of abap-data use each other in circles of at most three files,
//! measured by the scanner abap-syntax's `file_order` test uses (`file_circles.rs` there):
//! every path from `crate::`, `super::`, `self::` or a child module counts, in a `use` or
//! inline, so a file naming `super::Interp` uses the file that defines it. Method calls on
//! `Interp` from one `impl` file to another are not paths and are not counted: the
//! interpreter's recursion (statement → expression → call → statement) runs through them.

#[cfg(test)]
mod tests {
    use crate::file_circles::{circles, crate_graph};
    use std::collections::BTreeSet;
    use std::path::Path;

    /// The largest circle allowed.
    const MAX_CIRCLE: usize = 3;

    fn too_large(src: &Path, least_uses: usize) -> Vec<Vec<String>> {
        let graph = crate_graph(src);
        assert!(
            graph.values().map(BTreeSet::len).sum::<usize>() > least_uses,
            "the uses were not found: {graph:?}"
        );
        circles(&graph)
            .into_iter()
            .filter(|c| c.len() > MAX_CIRCLE)
            .collect()
    }

    #[test]
    fn no_circle_of_runtime_files_is_larger_than_three() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let found = too_large(&src, 100);
        assert!(
            found.is_empty(),
            "circles of more than {MAX_CIRCLE} files: {found:?}"
        );
    }

    #[test]
    fn parent_and_child_module_paths_are_uses() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let graph = crate_graph(&src);
        let uses = |from: &str, to: &str| graph.get(from).is_some_and(|u| u.contains(to));
        // `use super::{Exec, Interp, Unwind}` in a child of `interp` uses `interp/mod.rs`,
        // and `pub use machine::{…}` there uses `machine.rs`.
        assert!(uses("interp/calls.rs", "interp/mod.rs"), "{graph:?}");
        assert!(uses("interp/mod.rs", "interp/machine.rs"), "{graph:?}");
        assert!(!uses("interp/machine.rs", "interp/mod.rs"), "{graph:?}");
    }

    #[test]
    fn no_circle_of_data_files_is_larger_than_three() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../abap-data/src");
        let found = too_large(&src, 10);
        assert!(
            found.is_empty(),
            "circles of more than {MAX_CIRCLE} files: {found:?}"
        );
    }
}
