//! Syntax tree of the internal table statements beyond `APPEND`/`READ`/`LOOP`/`DELETE` (those
//! are `TableStmt` in `mod.rs`): `INSERT`, `MODIFY`, `COLLECT`, `SORT`, group loops, control
//! levels.

use crate::ast::Cond;
use crate::ast::Expr;
use crate::ast::Path;
use crate::ast::RowTarget;
use crate::ast::Stmt;
#[derive(Debug, Clone)]
pub enum TableOp {
    /// `APPEND LINES OF src [FROM i] [TO j] TO itab` (`insert` false) and `INSERT LINES OF src
    /// [FROM i] [TO j] INTO TABLE itab | INTO itab [INDEX n]` (`insert` true).
    Lines {
        insert: bool,
        src: Expr,
        from: Option<Expr>,
        to: Option<Expr>,
        table: Path,
        /// `INTO TABLE` (by key).
        by_key: bool,
        index: Option<Expr>,
    },
    /// `COLLECT wa INTO itab`.
    Collect { what: Expr, table: Path },
    /// `MODIFY itab FROM wa [INDEX n] TRANSPORTING c … [WHERE cond]`.
    ModifyComps {
        table: Path,
        from: Expr,
        index: Option<Expr>,
        comps: Vec<String>,
        cond: Option<Cond>,
    },
    /// `MODIFY TABLE itab FROM wa [TRANSPORTING c …]` (the row with wa's table key).
    ModifyTable {
        table: Path,
        from: Expr,
        comps: Vec<String>,
    },
    /// `READ TABLE itab … WITH [TABLE] KEY c = v … [BINARY SEARCH]` / `READ TABLE itab FROM
    /// wa …` (`from`: the table key's values come from `wa`).
    ReadKey {
        table: Path,
        target: RowTarget,
        key: Vec<(String, Expr)>,
        from: Option<Expr>,
        binary: bool,
        /// `WITH [TABLE] KEY name COMPONENTS …`: a secondary key.
        using: Option<String>,
    },
    /// `DESCRIBE TABLE itab [KIND k] [LINES n] [OCCURS o]`.
    Describe {
        table: Path,
        kind: Option<Path>,
        lines: Option<Path>,
        occurs: Option<Path>,
        /// Targets declared inline (`LINES DATA(n)`).
        declared: Vec<String>,
    },
    /// `AT FIRST|LAST|NEW c|END OF c … ENDAT` in a `LOOP` (see abap-runtime's `interp/control_levels`).
    Control(Box<crate::ast::ControlLevel>),
    /// `SUM` in an `AT … ENDAT` block.
    Sum(Box<crate::ast::SumStmt>),
    /// `LOOP AT itab … GROUP BY … ENDLOOP` (see abap-runtime's `interp/groups`).
    GroupLoop(Box<crate::ast::GroupLoop>),
    /// `DELETE itab FROM i [TO j] [WHERE cond]` / `DELETE itab TO j …`: rows by index range.
    DeleteRange {
        table: Path,
        from: Option<Expr>,
        to: Option<Expr>,
        cond: Option<Cond>,
    },
    /// `DELETE TABLE itab FROM wa` (`from`) / `DELETE TABLE itab WITH TABLE KEY c = v …`.
    DeleteTable {
        table: Path,
        from: Option<Expr>,
        key: Vec<(String, Expr)>,
    },
}

impl TableOp {
    pub fn keyword(&self) -> &'static str {
        match self {
            TableOp::Lines { insert: false, .. } => "APPEND",
            TableOp::Lines { insert: true, .. } => "INSERT",
            TableOp::Collect { .. } => "COLLECT",
            TableOp::ModifyComps { .. } | TableOp::ModifyTable { .. } => "MODIFY",
            TableOp::ReadKey { .. } => "READ TABLE",
            TableOp::Describe { .. } => "DESCRIBE",
            TableOp::GroupLoop(_) => "LOOP",
            TableOp::Control(_) => "AT",
            TableOp::Sum(_) => "SUM",
            TableOp::DeleteTable { .. } | TableOp::DeleteRange { .. } => "DELETE",
        }
    }
}

/// One component of a structured group key.
#[derive(Debug, Clone)]
pub enum KeyPart {
    Expr(Expr),
    /// `GROUP SIZE`
    Size,
    /// `GROUP INDEX`
    Index,
}

#[derive(Debug, Clone)]
pub enum GroupKey {
    Single(Expr),
    Fields(Vec<(String, KeyPart)>),
}

#[derive(Debug, Clone)]
pub struct GroupLoop {
    pub table: Path,
    pub target: RowTarget,
    pub cond: Option<Cond>,
    pub key: GroupKey,
    /// `Some(true)`: `DESCENDING`, `Some(false)`: `ASCENDING`.
    pub order: Option<bool>,
    /// `INTO group` / `INTO DATA(group)` (`true`: declared inline).
    pub group: Option<(Path, bool)>,
    pub body: Vec<Stmt>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Level {
    First,
    Last,
    New(String),
    EndOf(String),
}

#[derive(Debug, Clone)]
pub struct ControlLevel {
    pub level: Level,
    /// The enclosing `LOOP`'s target (its work area).
    pub target: RowTarget,
    pub body: Vec<Stmt>,
}

/// `SUM.` inside an `AT … ENDAT` block of level `level`.
#[derive(Debug, Clone)]
pub struct SumStmt {
    pub level: Level,
    pub target: RowTarget,
}

/// A table expression on a named table, or a chain of them.
pub fn is_row_chain(e: &Expr) -> bool {
    match e {
        Expr::Itab { .. } => true,
        Expr::ItabOf { source, .. } => is_row_chain(source),
        _ => false,
    }
}
