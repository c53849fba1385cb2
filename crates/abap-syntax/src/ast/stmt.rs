//! Statements: the statement node, its kinds, and the control structures that hold statement
//! bodies (`IF`, `DO`, `WHILE`, `CASE`, `CASE TYPE OF`, `TRY`); the loops of internal tables and
//! `SELECT` hold bodies too and are in `tables.rs` and `sql.rs`.

use crate::ast::dynamic::DynStmt;
use crate::ast::expr::{CallArgs, CallExpr, Cond, Expr, Path, SubAccess};
use crate::ast::function_call::FunctionStmt;
use crate::ast::list::ListWrite;
use crate::ast::message::MessageStmt;
use crate::ast::refs::RefStmt;
use crate::ast::sql::SqlStmt;
use crate::ast::tables::{TableOp, TableStmt};
use crate::ast::text::TextStmt;
use crate::ast::time::TimeStmt;

#[derive(Debug, Clone)]
pub struct Stmt {
    /// Line where the statement starts (its stop point).
    pub line: u32,
    pub kind: StmtKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    /// `DATA(x) = …`: declares `x` with the type of the value, then assigns.
    Declare,
    Add,
    Sub,
    Mul,
    Div,
    /// `&&=`
    Concat,
}

#[derive(Debug, Clone)]
pub enum StmtKind {
    Assign {
        target: Path,
        op: AssignOp,
        expr: Expr,
    },
    /// An assignment to a table expression: `itab[ 1 ]-comp = …`, `matrix[ i ][ j ] += …`
    /// (`target` is an [`Expr::Itab`] or a chain of [`Expr::ItabOf`] on one).
    AssignRow {
        target: Box<Expr>,
        op: AssignOp,
        expr: Expr,
    },
    Call(CallExpr),
    If {
        /// `(line, condition, body)` for `IF` and each `ELSEIF`.
        branches: Vec<(u32, Cond, Vec<Stmt>)>,
        else_body: Vec<Stmt>,
    },
    Do {
        times: Option<Expr>,
        body: Vec<Stmt>,
    },
    While {
        cond: Cond,
        body: Vec<Stmt>,
    },
    Case {
        subject: Expr,
        /// `(line, alternatives, body)`; empty alternatives = `WHEN OTHERS`.
        whens: Vec<(u32, Vec<Expr>, Vec<Stmt>)>,
    },
    Clear(Vec<Path>),
    Exit,
    Continue,
    Return,
    Check(Cond),
    /// `ASSERT log_exp`; `None` for `ASSERT ID group …`, whose checkpoint group is not active
    /// (the simulator activates none).
    Assert(Option<Cond>),
    Try {
        body: Vec<Stmt>,
        catches: Vec<CatchClause>,
        /// `CLEANUP [INTO x]` block: line, target, body.
        cleanup: Option<(u32, Option<Path>, Vec<Stmt>)>,
    },
    /// `RAISE EXCEPTION TYPE cx [EXPORTING …]` / `RAISE EXCEPTION NEW cx( … )` / `RAISE
    /// EXCEPTION obj`.
    Raise(Box<Expr>),
    Message(Box<MessageStmt>),
    /// `WRITE [/] x`: new line first?, the operand (`None`: only `/`).
    /// `WRITE` to the list (see abap-runtime's `interp/list`).
    Write(Box<ListWrite>),
    /// `FORMAT` with screen options only: nothing changes in the list text.
    ListFormat,
    Uline,
    Skip(Option<Expr>),
    NewLine,
    Perform {
        form: String,
        using: Vec<Expr>,
        changing: Vec<Path>,
    },
    CreateObject {
        target: Path,
        class: Option<String>,
        args: CallArgs,
    },
    /// Internal table statements.
    Table(Box<TableStmt>),
    /// Field symbol and data reference statements (`ASSIGN`, `UNASSIGN`, `GET REFERENCE`,
    /// `CREATE DATA`).
    Refs(Box<RefStmt>),
    /// `GET TIME`, `GET TIME STAMP`, `CONVERT TIME STAMP`, `CONVERT DATE` (`interp/time.rs`).
    Time(Box<TimeStmt>),
    /// `APPEND|INSERT LINES OF`, `COLLECT`, `MODIFY … TRANSPORTING`, `MODIFY TABLE`, key
    /// reads, `DESCRIBE TABLE`, `DELETE TABLE`.
    TableOp(Box<TableOp>),
    /// `CASE TYPE OF oref. WHEN TYPE class [INTO target]. … ENDCASE.`
    CaseType(Box<CaseType>),
    /// `CONCATENATE`, `SPLIT`, `CONDENSE`, `REPLACE`, `FIND`, `TRANSLATE`, `SHIFT`, `OVERLAY`,
    /// `SEARCH`.
    Text(Box<TextStmt>),
    /// `dobj+off(len) = expr`: a write into a section of a fixed-length field.
    AssignSub {
        target: Box<SubAccess>,
        expr: Expr,
    },
    /// Open SQL (`interp/sql.rs`).
    Sql(Box<SqlStmt>),
    /// Statements with names given at run time (`interp/dynamic.rs`).
    Dynamic(Box<DynStmt>),
    /// `CALL FUNCTION`, `RAISE name`, `MESSAGE … RAISING` (`interp/function_call.rs`).
    Function(Box<FunctionStmt>),
    /// Outside the subset: a runtime error when executed.
    Unsupported {
        what: String,
        /// Declarations (`TYPES`, `FIELD-SYMBOLS`, …) and block ends are no stop points.
        stop: bool,
    },
}

/// `CATCH cx_a cx_b [INTO x]`.
#[derive(Debug, Clone)]
pub struct CatchClause {
    pub line: u32,
    /// Class names as written (upper case).
    pub classes: Vec<String>,
    pub into: Option<Path>,
    /// `INTO DATA(x)`: `into` is declared with the exception's class.
    pub into_decl: bool,
    pub body: Vec<Stmt>,
}

impl StmtKind {
    pub fn is_stop_point(&self) -> bool {
        !matches!(self, StmtKind::Unsupported { stop: false, .. })
    }

    /// The statement's keyword as the ADT statement breakpoint catalogue names it.
    pub fn keyword(&self) -> String {
        let k = match self {
            StmtKind::Assign {
                op: AssignOp::Set | AssignOp::Declare,
                expr,
                ..
            } if !matches!(expr, Expr::Bin(..) | Expr::Neg(_)) => "MOVE",
            StmtKind::Assign { .. } => "COMPUTE",
            StmtKind::AssignRow {
                op: AssignOp::Set,
                expr,
                ..
            } if !matches!(expr, Expr::Bin(..) | Expr::Neg(_)) => "MOVE",
            StmtKind::AssignRow { .. } => "COMPUTE",
            StmtKind::Call(_) => "CALL METHOD",
            StmtKind::If { .. } => "IF",
            StmtKind::Do { .. } => "DO",
            StmtKind::While { .. } => "WHILE",
            StmtKind::Case { .. } => "CASE",
            StmtKind::Clear(_) => "CLEAR",
            StmtKind::Exit => "EXIT",
            StmtKind::Continue => "CONTINUE",
            StmtKind::Return => "RETURN",
            StmtKind::Check(_) => "CHECK",
            StmtKind::Assert(_) => "ASSERT",
            StmtKind::Try { .. } => "TRY",
            StmtKind::Raise(_) => "RAISE EXCEPTION",
            StmtKind::Message(_) => "MESSAGE",
            StmtKind::Write(_) => "WRITE",
            StmtKind::ListFormat => "FORMAT",
            StmtKind::Uline => "ULINE",
            StmtKind::Skip(_) => "SKIP",
            StmtKind::NewLine => "NEW-LINE",
            StmtKind::Perform { .. } => "PERFORM",
            StmtKind::CreateObject { .. } => "CREATE OBJECT",
            StmtKind::Table(t) => t.keyword(),
            StmtKind::Refs(r) => r.keyword(),
            StmtKind::Time(t) => t.keyword(),
            StmtKind::TableOp(t) => t.keyword(),
            StmtKind::CaseType(_) => "CASE",
            StmtKind::Text(t) => t.keyword(),
            StmtKind::AssignSub { .. } => "MOVE",
            StmtKind::Sql(s) => s.keyword(),
            StmtKind::Dynamic(d) => d.keyword(),
            StmtKind::Function(f) => f.keyword(),
            StmtKind::Unsupported { what, .. } => return what.clone(),
        };
        k.to_string()
    }
}

/// `CASE TYPE OF oref.`
#[derive(Debug, Clone)]
pub struct CaseType {
    pub subject: Expr,
    pub whens: Vec<WhenType>,
}

#[derive(Debug, Clone)]
pub struct WhenType {
    pub line: u32,
    pub when: When,
    pub body: Vec<Stmt>,
}

/// What a `WHEN` of `CASE TYPE OF` tests.
#[derive(Debug, Clone)]
pub enum When {
    /// `WHEN TYPE class [INTO target]` (`true`: `INTO DATA(x)`).
    Type {
        class: String,
        into: Option<(Path, bool)>,
    },
    Others,
    /// Not understood: a runtime error when reached.
    Unsupported(String),
}
