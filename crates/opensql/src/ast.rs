//! The Open SQL statement model: what the parser makes of one statement's text.
//!
//! Names are kept upper case; host variables keep the name as written after `@` (upper case),
//! components with `-` (`LS_WA-FIELD`), so the interpreter resolves them like any operand.

/// One Open SQL statement.
#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    Select(Box<Select>),
    Insert(Write),
    Update(Update),
    Modify(Write),
    Delete(Delete),
    CommitWork,
    RollbackWork,
}

/// `SELECT`.
#[derive(Debug, Clone, PartialEq)]
pub struct Select {
    pub single: bool,
    pub distinct: bool,
    /// `*` (`None`) or the listed columns and aggregates.
    pub fields: Option<Vec<SelectItem>>,
    pub from: From,
    pub client: ClientHandling,
    /// Absent only for `SELECT COUNT( * ) FROM …` without a target (`SELECT * FROM dbtab`
    /// without one reads into the table work area, [`Target::WorkArea`]).
    pub into: Option<Into>,
    /// `FOR ALL ENTRIES IN @itab`: the driver table's name.
    pub for_all_entries: Option<String>,
    pub where_: Option<Cond>,
    pub group_by: Vec<ColRef>,
    pub having: Option<Cond>,
    pub order_by: Option<OrderBy>,
    pub up_to: Option<Operand>,
    pub offset: Option<Operand>,
}

impl Select {
    /// True when the statement opens a loop closed by `ENDSELECT`: a multi-row result read
    /// into a work area (not a table), unless the list holds only aggregates and no
    /// `GROUP BY` (one row).
    pub fn is_loop(&self) -> bool {
        let Some(into) = &self.into else {
            return false;
        };
        !self.single && into.kind == IntoKind::Row && !self.aggregates_only()
    }

    /// The select list is `COUNT( * )` alone, without an alias: over no rows such a
    /// statement sets sy-subrc 4 and sy-dbcnt 0 where other aggregate-only lists set 0 and 1.
    pub fn count_star_alone(&self) -> bool {
        self.group_by.is_empty()
            && matches!(
                self.fields.as_deref(),
                Some([SelectItem {
                    expr: SelectExpr::Aggregate(Aggregate {
                        func: AggFunc::Count,
                        distinct: false,
                        arg: None,
                    }),
                    alias: None,
                }])
            )
    }

    /// True when every selected item is an aggregate and there is no `GROUP BY`: the result
    /// is exactly one row.
    pub fn aggregates_only(&self) -> bool {
        self.group_by.is_empty()
            && self.fields.as_ref().is_some_and(|f| {
                !f.is_empty() && f.iter().all(|i| matches!(i.expr, SelectExpr::Aggregate(_)))
            })
    }
}

/// One entry of the select list.
#[derive(Debug, Clone, PartialEq)]
pub struct SelectItem {
    pub expr: SelectExpr,
    /// `AS alias` (upper case).
    pub alias: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SelectExpr {
    Column(ColRef),
    /// `tab~*`: every column of one table of a join.
    AllOf(String),
    Aggregate(Aggregate),
    /// A host value or literal (`@abap_true`, `'X'`): the same value in every row.
    Value(Operand),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AggFunc {
    Count,
    Sum,
    Min,
    Max,
    Avg,
}

/// `COUNT( * )` (no column), `COUNT( DISTINCT f )`, `SUM( f )`, …
#[derive(Debug, Clone, PartialEq)]
pub struct Aggregate {
    pub func: AggFunc,
    pub distinct: bool,
    pub arg: Option<ColRef>,
}

/// A column, `f` or `tab~f` (table name or alias).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColRef {
    pub table: Option<String>,
    pub field: String,
}

/// `FROM` with its joins.
#[derive(Debug, Clone, PartialEq)]
pub struct From {
    pub table: TableRef,
    pub joins: Vec<Join>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRef {
    pub name: String,
    pub alias: Option<String>,
}

impl TableRef {
    /// The name columns are qualified with: the alias, else the table name.
    pub fn qualifier(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinKind {
    Inner,
    LeftOuter,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Join {
    pub kind: JoinKind,
    pub table: TableRef,
    pub on: Cond,
}

/// Client handling of a statement.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientHandling {
    /// The logon client, added by the engine.
    Automatic,
    /// `USING CLIENT operand`.
    Using(Operand),
    /// `CLIENT SPECIFIED`: no client condition; the program names the client column itself.
    Specified,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntoKind {
    /// `INTO wa` / `INTO (a, b)`: one row at a time.
    Row,
    /// `INTO TABLE itab`: the table is replaced.
    Table,
    /// `APPENDING TABLE itab`: rows are appended.
    Appending,
}

/// The `INTO` / `APPENDING` clause.
#[derive(Debug, Clone, PartialEq)]
pub struct Into {
    pub kind: IntoKind,
    /// `CORRESPONDING FIELDS OF`: columns go to the components of the same name.
    pub corresponding: bool,
    pub target: Target,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// A host variable, `@wa` or `wa`.
    Host(String),
    /// No `INTO` in `SELECT [SINGLE] * FROM dbtab …` (the obsolete short form of reports):
    /// the table work area that `TABLES dbtab` declares, named like the table.
    WorkArea(String),
    /// `@DATA( name )`: declared by the statement with the type of the result.
    Inline(String),
    /// `( @a, @b )`: one target per column.
    List(Vec<Target>),
}

/// `ORDER BY`.
#[derive(Debug, Clone, PartialEq)]
pub enum OrderBy {
    PrimaryKey,
    Columns(Vec<(OrderKey, bool)>),
}

/// What `ORDER BY` sorts by (the flag beside it: descending).
#[derive(Debug, Clone, PartialEq)]
pub enum OrderKey {
    Column(ColRef),
    /// An alias of the select list or an aggregate.
    Aggregate(Aggregate),
}

/// A comparison operand.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    Column(ColRef),
    /// `@name`.
    Host(String),
    /// A bare name of the old syntax: a column if one of the tables has it, else a host
    /// variable (the column wins, as in ABAP).
    Name(String),
    /// `'text'`: a text field literal.
    Text(String),
    /// `` `text` ``: a string literal.
    StringLit(String),
    /// An integer literal (sign included).
    Number(i64),
    Aggregate(Aggregate),
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

impl CmpOp {
    pub fn sql(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "<>",
            CmpOp::Lt => "<",
            CmpOp::Gt => ">",
            CmpOp::Le => "<=",
            CmpOp::Ge => ">=",
        }
    }
}

/// A condition of `WHERE`, `ON` or `HAVING`.
#[derive(Debug, Clone, PartialEq)]
pub enum Cond {
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Not(Box<Cond>),
    Compare(Operand, CmpOp, Operand),
    Between {
        operand: Operand,
        low: Operand,
        high: Operand,
        negated: bool,
    },
    Like {
        operand: Operand,
        pattern: Operand,
        escape: Option<Operand>,
        negated: bool,
    },
    /// `IN ( a, b, … )`.
    InList {
        operand: Operand,
        list: Vec<Operand>,
        negated: bool,
    },
    /// `IN @range`: a ranges table.
    InRange {
        operand: Operand,
        range: String,
        negated: bool,
    },
    IsNull {
        operand: Operand,
        negated: bool,
    },
    IsInitial {
        operand: Operand,
        negated: bool,
    },
    /// `EXISTS ( SELECT … )`.
    Exists(Box<Select>),
    /// `operand [NOT] IN ( SELECT col … )`.
    InQuery {
        operand: Operand,
        query: Box<Select>,
        negated: bool,
    },
    /// `operand op ( SELECT aggregate … )`: a subquery of exactly one value.
    CompareQuery {
        operand: Operand,
        op: CmpOp,
        query: Box<Select>,
    },
}

/// Where the rows of a write come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// `FROM @wa` / `VALUES @wa`.
    Row(String),
    /// `FROM TABLE @itab`.
    Table(String),
}

/// `INSERT` and `MODIFY`.
#[derive(Debug, Clone, PartialEq)]
pub struct Write {
    pub table: String,
    pub client: ClientHandling,
    pub source: Source,
    /// `ACCEPTING DUPLICATE KEYS` (INSERT … FROM TABLE only).
    pub accepting_duplicates: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Update {
    /// `UPDATE dbtab FROM @wa` / `FROM TABLE @itab`.
    From(Write),
    /// `UPDATE dbtab SET … [WHERE …]`.
    Set {
        table: String,
        client: ClientHandling,
        sets: Vec<SetItem>,
        where_: Option<Cond>,
    },
}

/// `f = operand`, `f = f + operand`, `f = f - operand`.
#[derive(Debug, Clone, PartialEq)]
pub struct SetItem {
    pub field: String,
    pub value: SetValue,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SetValue {
    Operand(Operand),
    Add(ColRef, Operand),
    Sub(ColRef, Operand),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Delete {
    /// `DELETE dbtab FROM @wa` / `FROM TABLE @itab`.
    From(Write),
    /// `DELETE FROM dbtab [WHERE …]`.
    Where {
        table: String,
        client: ClientHandling,
        where_: Option<Cond>,
    },
}
