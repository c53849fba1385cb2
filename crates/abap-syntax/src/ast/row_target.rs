//! Where a row a table statement reads goes.

use crate::ast::expr::Path;

/// Where a row goes: `INTO wa`, `INTO DATA(wa)`, `ASSIGNING <fs>` (also
/// `FIELD-SYMBOL(<fs>)`), or nowhere (`TRANSPORTING NO FIELDS`).
#[derive(Debug, Clone)]
pub enum RowTarget {
    None,
    Into(Path),
    IntoDecl(String),
    Assign(String),
    /// `REFERENCE INTO dref` (`true`: `REFERENCE INTO DATA(dref)`).
    Ref(Path, bool),
    /// No target written (`LOOP AT itab.`, `READ TABLE itab …`): the header line of a table
    /// that has one, else nothing (see `parser/header_lines.rs`).
    HeaderLine(Path),
}
