//! The parsed program: classes, methods, statements and expressions.
//!
//! All identifiers are upper case here (ABAP names are case-insensitive), so the interpreter
//! and the debugger compare names without further normalisation.

use crate::value::{Type, Value};

/// A global class from a `.clas.abap` file.
#[derive(Debug, Clone)]
pub struct ClassDef {
    pub name: String,
    /// Interfaces named in `INTERFACES` (upper case).
    pub interfaces: Vec<String>,
    pub methods: Vec<MethodDecl>,
    pub attributes: Vec<DataDecl>,
    pub implementations: Vec<MethodImpl>,
}

impl ClassDef {
    pub fn method_decl(&self, name: &str) -> Option<&MethodDecl> {
        self.methods.iter().find(|m| m.name == name)
    }

    pub fn implementation(&self, name: &str) -> Option<&MethodImpl> {
        self.implementations.iter().find(|m| m.name == name)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    Public,
    Protected,
    Private,
}

impl Visibility {
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Public => "public",
            Visibility::Protected => "protected",
            Visibility::Private => "private",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    Importing,
    Exporting,
    Changing,
    Returning,
}

impl ParamKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ParamKind::Importing => "importing",
            ParamKind::Exporting => "exporting",
            ParamKind::Changing => "changing",
            ParamKind::Returning => "returning",
        }
    }
}

/// A type as written; `Err` carries the text of a type outside the subset (fails when used).
pub type TypeSpec = Result<Type, String>;

#[derive(Debug, Clone)]
pub struct ParamDecl {
    pub name: String,
    pub kind: ParamKind,
    pub ty: TypeSpec,
    pub by_value: bool,
    pub optional: bool,
    pub default: Option<Expr>,
}

#[derive(Debug, Clone)]
pub struct MethodDecl {
    pub name: String,
    pub is_static: bool,
    pub params: Vec<ParamDecl>,
}

/// `DATA`/`CLASS-DATA`/`CONSTANTS` (attributes and method locals).
#[derive(Debug, Clone)]
pub struct DataDecl {
    pub name: String,
    pub ty: TypeSpec,
    /// `VALUE` clause (a literal or constant).
    pub value: Option<Expr>,
    pub is_static: bool,
    pub is_constant: bool,
    pub visibility: Visibility,
    pub line: u32,
}

/// `METHOD x. … ENDMETHOD.` with its place in the class pool.
#[derive(Debug, Clone)]
pub struct MethodImpl {
    pub name: String,
    /// Runtime include (`ZCL_X=========…CM001`).
    pub include: String,
    /// Line of the `METHOD` statement in `source/main`.
    pub method_line: u32,
    pub endmethod_line: u32,
    /// Locals declared anywhere in the body; they exist from procedure start.
    pub locals: Vec<DataDecl>,
    pub body: Vec<Stmt>,
}

#[derive(Debug, Clone)]
pub struct Stmt {
    /// Line where the statement starts (its stop point).
    pub line: u32,
    pub kind: StmtKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Debug, Clone)]
pub enum StmtKind {
    Assign {
        target: Path,
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
    /// Outside the subset: a runtime error when executed.
    Unsupported {
        what: String,
        /// Declarations (`TYPES`, `FIELD-SYMBOLS`, …) and block ends are no stop points.
        stop: bool,
    },
}

impl StmtKind {
    pub fn is_stop_point(&self) -> bool {
        !matches!(self, StmtKind::Unsupported { stop: false, .. })
    }
}

/// How two name parts are joined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sel {
    /// `->` (object component)
    Arrow,
    /// `=>` (static component)
    Static,
    /// `-` (structure component)
    Dash,
}

/// A data object name: `LV_X`, `ME->MV_A`, `ZCL_X=>GV`, `SY-INDEX`.
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    pub base: String,
    pub rest: Vec<(Sel, String)>,
}

impl Path {
    pub fn text(&self) -> String {
        let mut s = self.base.clone();
        for (sel, n) in &self.rest {
            s.push_str(match sel {
                Sel::Arrow => "->",
                Sel::Static => "=>",
                Sel::Dash => "-",
            });
            s.push_str(n);
        }
        s
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    IntDiv,
    Mod,
}

#[derive(Debug, Clone)]
pub enum Expr {
    Lit(Value),
    Path(Path),
    Call(Box<CallExpr>),
    Template(Vec<TemplateItem>),
    Neg(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Concat(Box<Expr>, Box<Expr>),
    /// Outside the subset (a runtime error when evaluated); the text names the construct.
    Unsupported(String),
}

#[derive(Debug, Clone)]
pub enum TemplateItem {
    Text(String),
    Expr(Expr),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

#[derive(Debug, Clone)]
pub enum Cond {
    Cmp(CmpOp, Expr, Expr),
    IsInitial(Expr),
    IsBound(Expr),
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    /// Outside the subset (a runtime error when evaluated).
    Unsupported(String),
}

/// Who a method is called on.
#[derive(Debug, Clone)]
pub enum CallTarget {
    /// `meth( )`: the current object or class.
    Implicit,
    /// `ref->meth( )`, including `me->meth( )`.
    Object(Path),
    /// `zcl_x=>meth( )`.
    Class(String),
    /// `a( )->b( )`.
    Result(Box<CallExpr>),
}

#[derive(Debug, Clone, Default)]
pub struct CallArgs {
    /// `meth( x )`.
    pub positional: Option<Expr>,
    /// `meth( a = 1 )` or `EXPORTING a = 1`.
    pub exporting: Vec<(String, Expr)>,
    pub importing: Vec<(String, Path)>,
    pub changing: Vec<(String, Path)>,
    pub receiving: Option<Path>,
}

#[derive(Debug, Clone)]
pub struct CallExpr {
    pub target: CallTarget,
    pub method: String,
    pub args: CallArgs,
}
