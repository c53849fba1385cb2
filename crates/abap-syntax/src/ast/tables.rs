//! Syntax tree of the internal table statements: `APPEND`/`INSERT`/`READ`/`LOOP`/`MODIFY`/
//! `DELETE`/`SORT` (`TableStmt`) and those beyond them (`TableOp`): `LINES OF`, `COLLECT`,
//! key reads, group loops, control levels.

use crate::ast::constructors::GroupKey;
use crate::ast::expr::{Cond, Expr, Path};
use crate::ast::row_target::RowTarget;
use crate::ast::stmt::Stmt;

/// Internal table statements.
#[derive(Debug, Clone)]
pub enum TableStmt {
    /// `APPEND wa|VALUE …|INITIAL LINE TO itab [ASSIGNING <fs>]` (`what` `None`: initial line).
    Append {
        what: Option<Expr>,
        table: Path,
        target: RowTarget,
    },
    /// `INSERT wa INTO TABLE itab` / `INSERT wa INTO itab INDEX n`.
    Insert {
        what: Option<Expr>,
        table: Path,
        index: Option<Expr>,
        /// `ASSIGNING <fs>` / `REFERENCE INTO dref`: the inserted row.
        target: RowTarget,
    },
    Loop {
        table: Path,
        /// The table operand when it is an expression (`LOOP AT meth( ) …`, a table expression,
        /// a constructor): evaluated once before the loop into the internal variable `table`.
        source: Option<Box<Expr>>,
        target: RowTarget,
        from: Option<Expr>,
        to: Option<Expr>,
        cond: Option<Cond>,
        /// `USING KEY name` of a secondary key (`None`: the primary key); `(DOBJ)` for
        /// `USING KEY (dobj)`, the name the data object holds when the loop starts.
        key: Option<String>,
        body: Vec<Stmt>,
    },
    /// `READ TABLE itab INTO …|ASSIGNING …|TRANSPORTING NO FIELDS INDEX n|WITH [TABLE] KEY …`.
    Read {
        table: Path,
        target: RowTarget,
        index: Option<Expr>,
        key: Vec<(String, Expr)>,
    },
    /// `MODIFY itab FROM wa [INDEX n]` (without INDEX: the current `LOOP` row).
    Modify {
        table: Path,
        from: Expr,
        index: Option<Expr>,
    },
    /// `DELETE itab INDEX n|WHERE cond` (neither: the current `LOOP` row).
    Delete {
        table: Path,
        index: Option<Expr>,
        cond: Option<Cond>,
    },
    /// `DELETE ADJACENT DUPLICATES FROM itab [COMPARING c …]`.
    DeleteAdjacent { table: Path, comparing: Vec<String> },
    /// `SORT itab [ASCENDING|DESCENDING] [BY c [ASCENDING|DESCENDING] …]`.
    Sort {
        table: Path,
        descending: bool,
        by: Vec<(String, bool)>,
    },
    /// `REFRESH itab` / `FREE itab`.
    Refresh(Path, &'static str),
}

impl TableStmt {
    pub fn keyword(&self) -> &'static str {
        match self {
            TableStmt::Append { .. } => "APPEND",
            TableStmt::Insert { .. } => "INSERT",
            TableStmt::Loop { .. } => "LOOP",
            TableStmt::Read { .. } => "READ TABLE",
            TableStmt::Modify { .. } => "MODIFY",
            TableStmt::Delete { .. } | TableStmt::DeleteAdjacent { .. } => "DELETE",
            TableStmt::Sort { .. } => "SORT",
            TableStmt::Refresh(_, k) => k,
        }
    }
}

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
    Control(Box<ControlLevel>),
    /// `SUM` in an `AT … ENDAT` block.
    Sum(Box<SumStmt>),
    /// `LOOP AT itab … GROUP BY … ENDLOOP` (see abap-runtime's `interp/groups`).
    GroupLoop(Box<GroupLoop>),
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
