//! Syntax tree of the dynamic statements: names given at run time in parentheses
//! (`CREATE OBJECT … TYPE (name)`, `CREATE DATA … TYPE (name)`, `CALL METHOD (name)`, `SORT …
//! BY (name)`, `READ TABLE … WITH KEY (name) = …`), run by `interp/dynamic.rs`.

use crate::ast::expr::{CallArgs, Expr, Path};
use crate::ast::row_target::RowTarget;

/// A name written statically or as `(dobj)`, whose content names it at run time.
#[derive(Debug, Clone)]
pub enum DynName {
    /// Written in the source (upper case).
    Static(String),
    /// `(dobj)`: the operand whose text is the name.
    Dynamic(Expr),
}

/// Statements with names given at run time.
#[derive(Debug, Clone)]
pub enum DynStmt {
    /// `CALL METHOD (meth)|oref->(meth)|class=>(meth)|(class)=>(meth)|(class)=>meth …`.
    CallMethod(Box<DynCall>),
    /// `CREATE OBJECT oref TYPE (name) [EXPORTING …|PARAMETER-TABLE ptab]`.
    CreateObject {
        target: Path,
        class: Expr,
        args: Box<DynArgs>,
    },
    /// `CREATE DATA dref TYPE (name)|TYPE [STANDARD] TABLE OF (name)|TYPE REF TO (name)`, and
    /// `TYPE c|n|x|p|(name) LENGTH len [DECIMALS dec]` with lengths known at run time.
    CreateData {
        target: Path,
        kind: DynDataKind,
        name: DynName,
        length: Option<Expr>,
        decimals: Option<Expr>,
    },
    /// `SORT itab [ASCENDING|DESCENDING] BY (name) [ASCENDING|DESCENDING] …`, `BY (otab)` or
    /// `BY expr` (an expression giving a sort order table).
    Sort {
        table: Path,
        descending: bool,
        /// Components; a single dynamic one may be a sort order table (`abap_sortorder_tab`).
        by: Vec<(DynName, Option<bool>)>,
    },
    /// `READ TABLE itab … WITH [TABLE] KEY (name) = v …`.
    Read {
        table: Path,
        target: RowTarget,
        key: Vec<(DynName, Expr)>,
        /// `WITH TABLE KEY`: only components of the primary key may be named.
        table_key: bool,
    },
}

/// What `CREATE DATA … TYPE (name)` creates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DynDataKind {
    /// `TYPE (name)`: a data object of that type.
    Type,
    /// `TYPE [STANDARD] TABLE OF (name)`: a standard table with the default key.
    TableOf,
    /// `TYPE REF TO (name)`: a reference to that data type or class.
    RefTo,
}

/// Who a dynamic method call is on.
#[derive(Debug, Clone)]
pub enum DynCallTarget {
    /// `(meth)`: a method of the current class (as `me->(meth)`).
    Own,
    /// `oref->(meth)`.
    Object(Path),
    /// `class=>(meth)`, `(class)=>(meth)`, `(class)=>meth`.
    Class(DynName),
}

/// `CALL METHOD …` with a name given at run time.
#[derive(Debug, Clone)]
pub struct DynCall {
    pub target: DynCallTarget,
    pub method: DynName,
    pub args: DynArgs,
}

/// The actual parameters of a dynamic call: written out, or in tables.
#[derive(Debug, Clone)]
pub enum DynArgs {
    /// `EXPORTING … IMPORTING … CHANGING … RECEIVING …`.
    List(CallArgs),
    /// `PARAMETER-TABLE ptab [EXCEPTION-TABLE etab]` (either may be absent).
    Tables {
        params: Option<Expr>,
        exceptions: Option<Expr>,
    },
}

impl DynStmt {
    pub fn keyword(&self) -> &'static str {
        match self {
            DynStmt::CallMethod(_) => "CALL METHOD",
            DynStmt::CreateObject { .. } => "CREATE OBJECT",
            DynStmt::CreateData { .. } => "CREATE DATA",
            DynStmt::Sort { .. } => "SORT",
            DynStmt::Read { .. } => "READ TABLE",
        }
    }
}
