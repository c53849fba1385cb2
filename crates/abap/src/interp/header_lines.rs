//! Tables with header lines at run time: where a statement expects an internal table, the
//! name of a table with a header line means its body `NAME[]` (the declaration made both,
//! see `parser/header_lines.rs`); everywhere else the name is the header line.

use crate::ast::Path;
use crate::interp::Interp;
use crate::parser::header_lines::body_name;

impl Interp<'_, '_> {
    /// The table a table position names: the body of a table with a header line, else
    /// `table` itself.
    pub(crate) fn table_body(&self, table: &Path) -> Path {
        if self.has_header_line(table) {
            Path {
                base: body_name(&table.base),
                rest: Vec::new(),
            }
        } else {
            table.clone()
        }
    }

    /// Does `table` name a table with a header line (its body `NAME[]` exists here)?
    pub(crate) fn has_header_line(&self, table: &Path) -> bool {
        if !table.rest.is_empty() || table.base.ends_with("[]") || table.base.starts_with('<') {
            return false;
        }
        let body = Path {
            base: body_name(&table.base),
            rest: Vec::new(),
        };
        self.st
            .slot_exact(self.st.frames.len().saturating_sub(1), &body)
            .is_some()
    }
}
