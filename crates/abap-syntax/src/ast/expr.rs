//! Expressions and conditions: data object names, operators, method calls, string templates,
//! table expressions, offset/length access, and the nodes they hold (constructor expressions
//! are in `constructors.rs`, which holds expressions in turn).

use abap_data::value::{Type, Value};

use crate::ast::constructors::{BitCmp, Ctor};

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
    /// `**`
    Power,
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
    /// `NEW zcl_x( … )` (`class` `#`: the type of the target).
    New {
        class: String,
        args: Box<CallArgs>,
    },
    /// `COND type|#( WHEN c THEN x … [ELSE y] )`; `ty` `None` for `#` (the target's type).
    Choose {
        ty: Option<Type>,
        branches: Vec<(Cond, Expr)>,
        otherwise: Option<Box<Expr>>,
    },
    /// `SWITCH type|#( operand WHEN v THEN x … [ELSE y] )`.
    Switch {
        ty: Option<Type>,
        subject: Box<Expr>,
        whens: Vec<(Expr, Expr)>,
        otherwise: Option<Box<Expr>>,
    },
    /// `CONV type|#( x )`.
    Conv {
        ty: Option<Type>,
        arg: Box<Expr>,
    },
    /// `VALUE type|#( … )` (`ty` `None` for `#`).
    Value {
        ty: Option<String>,
        body: Box<ValueBody>,
    },
    /// `itab[ n ]`, `itab[ c = v … ]`, followed by components `-c`.
    Itab {
        table: Path,
        sel: Box<RowSel>,
        comps: Vec<String>,
    },
    /// `meth( )[ … ][-comp]`: a row of the table an expression gives.
    ItabOf {
        source: Box<Expr>,
        sel: Box<RowSel>,
        comps: Vec<String>,
    },
    /// `REF type|#( dobj )` (`ty` `None` for `#`): a data reference to `dobj` (a data object or
    /// a table expression).
    Ref {
        ty: Option<String>,
        arg: Box<Expr>,
    },
    /// `VALUE` with `BASE`/`FOR`/`LET`/`LINES OF`, `REDUCE`, `CORRESPONDING`, `CAST` (see
    /// abap-runtime's `interp/constructors`).
    Ctor(Box<Ctor>),
    /// Offset/length access `dobj+off(len)` (see abap-runtime's `interp/access`).
    Sub(Box<SubAccess>),
    /// Outside the subset (a runtime error when evaluated); the text names the construct.
    Unsupported(String),
}

#[derive(Debug, Clone)]
pub enum TemplateItem {
    Text(String),
    Expr(Expr),
    /// `{ expr OPTION = value … }` (see `interp/template.rs`).
    Formatted(Expr, Vec<TemplateOption>),
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

/// The relational operators for character strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextOp {
    /// Contains only.
    Co,
    Cn,
    /// Contains any.
    Ca,
    Na,
    /// Contains string.
    Cs,
    Ns,
    /// Covers pattern.
    Cp,
    Np,
}

#[derive(Debug, Clone)]
pub enum Cond {
    Cmp(CmpOp, Expr, Expr),
    IsInitial(Expr),
    IsBound(Expr),
    /// `<fs> IS ASSIGNED`.
    IsAssigned(Expr),
    /// `x IN range` (see abap-runtime's `interp/ranges`).
    In(Expr, Expr),
    /// `p IS SUPPLIED` (parameter name).
    IsSupplied(String),
    /// `oref IS INSTANCE OF class|interface`.
    IsInstanceOf(Expr, String),
    /// `x BETWEEN low AND high` (`x` evaluated once).
    Between(Expr, Expr, Expr),
    /// `a CO b`, `a CS b`, `a CP b`, …: comparisons of character strings (they set
    /// `sy-fdpos`).
    Text(TextOp, Expr, Expr),
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    /// `a EQUIV b`.
    Equiv(Box<Cond>, Box<Cond>),
    /// `WHERE (cond_syntax)` of `LOOP AT`/`DELETE`: a condition whose text the operand holds
    /// at run time (`interp/dynamic.rs`).
    Dynamic(Box<Expr>),
    /// `a O|Z|M mask`: bit patterns (see `interp/bit_ops.rs`).
    Bits(BitCmp, Expr, Expr),
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
    /// `NEW zcl_x( )->m( )`, `CAST zcl_x( o )->m( )`: a method of the object an expression
    /// gives.
    Value(Box<Expr>),
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
    /// `IMPORTING p = DATA(x)` / `RECEIVING r = DATA(x)`: the variables declared inline, with
    /// the type of their formal parameter.
    pub declared: Vec<String>,
    /// `EXCEPTIONS name = n`: the classic exceptions the caller handles (upper case, `OTHERS`
    /// included) with the value `sy-subrc` gets (`interp/function_call.rs`).
    pub exceptions: Vec<(String, Expr)>,
}

#[derive(Debug, Clone)]
pub struct CallExpr {
    pub target: CallTarget,
    pub method: String,
    pub args: CallArgs,
}

/// `VALUE type|#( … )`: component assignments of a structure and/or table rows; a row is
/// either components or one operand (elementary lines, `( 1 )`).
#[derive(Debug, Clone, Default)]
pub struct ValueBody {
    pub fields: Vec<(String, Expr)>,
    pub rows: Vec<ValueRow>,
}

#[derive(Debug, Clone)]
pub enum ValueRow {
    Fields(Vec<(String, Expr)>),
    Line(Expr),
}

/// Which row a table expression means.
#[derive(Debug, Clone)]
pub enum RowSel {
    Index(Expr),
    /// A free key: `c = v …`.
    Key(Vec<(String, Expr)>),
    /// `KEY k INDEX n`: the n-th row in the order of table key `k`.
    KeyIndex(String, Expr),
    /// `KEY k [COMPONENTS] c = v …`: the first row in the order of table key `k` with these
    /// component values.
    KeyComps(String, Vec<(String, Expr)>),
}

/// Offset/length access `base+off(len)`; a missing offset is 0, a missing length the rest of
/// the data object.
#[derive(Debug, Clone)]
pub struct SubAccess {
    pub base: Path,
    pub off: Option<Expr>,
    pub len: Option<Expr>,
}

/// The value of a string template formatting option (`WIDTH = 10`, `ALIGN = RIGHT`, …): a
/// keyword (`ISO`) or an operand (`(dobj)`, a literal).
#[derive(Debug, Clone)]
pub enum OptionValue {
    Keyword(String),
    Operand(Expr),
}

#[derive(Debug, Clone)]
pub struct TemplateOption {
    /// Upper case (`DATE`).
    pub name: String,
    pub value: OptionValue,
}
