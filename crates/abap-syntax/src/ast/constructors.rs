//! Syntax tree of the constructor expressions `VALUE` (with `BASE`/`LET`/`FOR`), `REDUCE`,
//! `FILTER`, `CORRESPONDING`, `CAST`, and the group key of `FOR GROUPS` and `LOOP AT … GROUP BY`.

use crate::ast::expr::{Cond, Expr, Path};

#[derive(Debug, Clone)]
pub enum Ctor {
    /// `VALUE type|#( [LET …] [BASE b] [FOR …] c = v … | ( row ) … )`.
    Value {
        ty: Option<String>,
        lets: Vec<(String, Expr)>,
        base: Option<Expr>,
        fors: Vec<For>,
        fields: Vec<(String, Expr)>,
        rows: Vec<Row>,
    },
    /// `REDUCE type|#( [LET …] INIT x = v … FOR … NEXT x = … )`.
    Reduce {
        ty: Option<String>,
        lets: Vec<(String, Expr)>,
        init: Vec<Init>,
        fors: Vec<For>,
        next: Vec<(Path, String, Expr)>,
    },
    /// `CORRESPONDING type|#( [BASE ( b )] src [MAPPING t = s …] [EXCEPT c …|*] )`.
    Corresponding {
        ty: Option<String>,
        base: Option<Expr>,
        src: Expr,
        mapping: Vec<(String, String)>,
        except: Vec<String>,
    },
    /// `CAST type|#( ref )`.
    Cast { ty: Option<String>, arg: Expr },
    /// `FILTER type|#( itab [EXCEPT] [IN ftab] WHERE cond )`; with `IN ftab` the condition
    /// is `c = f [AND …]` (`c` a row component, `f` a component of `ftab`'s rows).
    Filter {
        ty: Option<String>,
        src: Expr,
        except: bool,
        ftab: Option<Expr>,
        cond: Cond,
    },
    /// A bit expression: `a BIT-AND b`, `a BIT-OR b`, `a BIT-XOR b` (see
    /// `interp/bit_ops.rs`).
    Bits(BitOp, Expr, Expr),
    /// `BIT-NOT a`.
    BitNot(Expr),
    /// `xsdbool( cond )` (`c` of length 1) and `boolc( cond )` (`string`): `X` when the
    /// condition holds, else a blank.
    Bool { string: bool, cond: Cond },
    /// `call( )->attr[-comp…]`, `NEW c( )->attr`: an attribute of the object a call or
    /// constructor gives.
    Attr {
        obj: Expr,
        attr: String,
        comps: Vec<String>,
    },
    /// `call( )-comp[-comp…]`, `VALUE ty( … )-comp`: components of the structure a functional
    /// call or a constructor expression gives.
    Comps { base: Expr, comps: Vec<String> },
    /// `COND|SWITCH|CONV type|#( LET x = v … IN … )`: the helper variables, then the
    /// expression without its `LET`.
    Let {
        lets: Vec<(String, Expr)>,
        inner: Expr,
    },
    /// `THROW cx( … )` as the operand of a `COND`/`SWITCH` branch: the `NEW cx( … )` raised.
    Throw(Box<Expr>),
    /// `VALUE type|#( itab[ … ][-comp] OPTIONAL|DEFAULT def )`: the row (or its component);
    /// when there is none, the initial value of its type (`OPTIONAL`) or `def` converted to it.
    Optional {
        ty: Option<String>,
        row: Expr,
        default: Option<Expr>,
    },
    /// The statement `MOVE-CORRESPONDING src TO dst [KEEPING TARGET LINES]` as the value
    /// assigned to `dst`.
    MoveCorresponding {
        src: Expr,
        dst: Path,
        keep_lines: bool,
    },
}

/// One row specification of a table `VALUE`.
#[derive(Debug, Clone)]
pub enum Row {
    Fields(Vec<(String, Expr)>),
    Line(Expr),
    /// `( LINES OF itab [FROM i] [TO j] )`.
    Lines {
        src: Expr,
        from: Option<Expr>,
        to: Option<Expr>,
    },
}

#[derive(Debug, Clone)]
pub struct For {
    /// Iteration variable (a field symbol when it starts with `<`).
    pub var: String,
    pub kind: ForKind,
    pub lets: Vec<(String, Expr)>,
}

#[derive(Debug, Clone)]
pub enum ForKind {
    /// `FOR wa IN itab [INDEX INTO i] [WHERE ( cond )]`.
    In {
        table: Expr,
        index_into: Option<String>,
        cond: Option<Cond>,
    },
    /// `FOR GROUPS group OF wa IN itab [WHERE ( cond )] GROUP BY key [ASCENDING|DESCENDING]
    /// [WITHOUT MEMBERS]`: `group` holds each group's key; `FOR m IN GROUP group` walks its
    /// members.
    Groups {
        row: String,
        table: Expr,
        cond: Option<Cond>,
        key: GroupKey,
        descending: Option<bool>,
    },
    /// `FOR i = start [THEN next] UNTIL|WHILE cond`.
    Iter {
        start: Expr,
        then: Option<Expr>,
        until: bool,
        cond: Cond,
    },
}

/// `INIT x = v` or `INIT x TYPE t`.
#[derive(Debug, Clone)]
pub struct Init {
    pub name: String,
    pub ty: Option<String>,
    pub value: Option<Expr>,
}

/// The binary bit operators, lowest priority last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BitOp {
    And,
    Xor,
    Or,
}

/// The relational operators for bit patterns: `a O mask` (the mask's 1 bits are 1 in `a`),
/// `a Z mask` (they are 0), `a M mask` (mixed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BitCmp {
    Ones,
    Zeros,
    Mixed,
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
