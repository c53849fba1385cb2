//! The parsed program: classes, methods, statements and expressions.
//!
//! All identifiers are upper case here (ABAP names are case-insensitive), so the interpreter
//! and the debugger compare names without further normalisation.

use abap_data::debug::{ObjectKind, SourcePart};
use abap_data::value::{Type, Value};

mod access;
mod constructors;
mod dynamic;
mod function_call;
mod list;
mod oo;
mod refs;
mod sql;
mod tables;
mod template;
mod text;
mod time;

pub use access::*;
pub use constructors::*;
pub use dynamic::*;
pub use function_call::*;
pub use list::*;
pub use oo::*;
pub use refs::*;
pub use sql::*;
pub use tables::*;
pub use template::*;
pub use text::*;
pub use time::*;

/// A class: global (`.clas.abap`), local (class includes, programs), built-in (`CX_*`) or the
/// pseudo class of a program that holds its global data, event blocks and `FORM`s.
#[derive(Debug, Clone)]
pub struct ClassDef {
    /// Name as written (upper case), `LCL_X` for a local class.
    pub name: String,
    /// Key in the class table: the name for global classes, `\PROGRAM=<main program>\CLASS=<name>`
    /// for local classes, `\PROGRAM=<name>` for a program's pseudo class.
    pub key: String,
    /// Main program the class belongs to (`ZCL_X=====CP`, `ZREPORT`); empty for built-ins.
    pub program: String,
    /// `INHERITING FROM` (upper case name as written).
    pub superclass: Option<String>,
    pub is_abstract: bool,
    /// `FINAL`: no class may inherit from it.
    pub is_final: bool,
    /// `CREATE PUBLIC|PROTECTED|PRIVATE`: who may create instances.
    pub create: Visibility,
    /// `[GLOBAL] FRIENDS …`: other classes may create instances and see private components.
    pub has_friends: bool,
    /// `ALIASES a FOR zif~comp`: alias name and the component it names (`ZIF~COMP`).
    pub aliases: Vec<(String, String)>,
    /// `FOR TESTING` (an ABAP Unit test class).
    pub for_testing: bool,
    /// `RISK LEVEL` / `DURATION` of a test class (lower case, empty when not given).
    pub risk_level: String,
    pub duration: String,
    /// Line of `CLASS … DEFINITION` and the source part it is in.
    pub def_line: u32,
    pub def_part: SourcePart,
    /// Built-in class (methods implemented by the interpreter).
    pub builtin: bool,
    /// Interface (`INTERFACE … ENDINTERFACE`): only declarations.
    pub is_interface: bool,
    /// Interfaces named in `INTERFACES` (upper case).
    pub interfaces: Vec<String>,
    pub methods: Vec<MethodDecl>,
    /// The section each method is declared in (RTTI's `methods` table).
    pub method_visibility: Vec<(String, Visibility)>,
    pub attributes: Vec<DataDecl>,
    pub implementations: Vec<MethodImpl>,
    /// `TYPES` of the class (or program, or interface), by upper-case name.
    pub types: Vec<(String, TypeSpec)>,
    /// `FIELD-SYMBOLS` of a program outside its procedures (upper case, with `<>`).
    pub field_symbols: Vec<String>,
    /// The function modules of a function group's program (their code is in
    /// `implementations`, their parameters in `methods`).
    pub functions: Vec<FunctionInterface>,
}

impl ClassDef {
    pub fn method_decl(&self, name: &str) -> Option<&MethodDecl> {
        self.methods.iter().find(|m| m.name == name)
    }

    pub fn implementation(&self, name: &str) -> Option<&MethodImpl> {
        self.implementations.iter().find(|m| m.name == name)
    }

    /// An empty class with the given name and key.
    pub fn new(name: &str, key: &str, program: &str) -> ClassDef {
        ClassDef {
            name: name.to_string(),
            key: key.to_string(),
            program: program.to_string(),
            superclass: None,
            is_abstract: false,
            is_final: false,
            create: Visibility::Public,
            has_friends: false,
            aliases: Vec::new(),
            for_testing: false,
            risk_level: String::new(),
            duration: String::new(),
            def_line: 0,
            def_part: SourcePart::Main,
            builtin: false,
            is_interface: false,
            interfaces: Vec::new(),
            methods: Vec::new(),
            method_visibility: Vec::new(),
            attributes: Vec::new(),
            implementations: Vec::new(),
            types: Vec::new(),
            field_symbols: Vec::new(),
            functions: Vec::new(),
        }
    }
}

/// Where a procedure's code lives, as the debugger names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub object: String,
    pub kind: ObjectKind,
    pub part: SourcePart,
    /// Main program (`ZCL_X=====CP`, `ZREPORT`).
    pub program: String,
    /// Runtime include (`…CM001`, `…CCIMP`, `…CCAU`, `ZREPORT`).
    pub include: String,
    /// For a method include: the line of the `METHOD` statement (include line 1); `None` when
    /// the include is the whole source part (line numbers are the same).
    pub include_start: Option<u32>,
    /// `METHOD`, `FORM`, `EVENT`.
    pub event_type: &'static str,
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
    /// `FOR TESTING` (a test method).
    pub for_testing: bool,
    pub is_abstract: bool,
    /// Line of the declaration.
    pub line: u32,
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
    /// Method name, `FORM` name or event name (`START-OF-SELECTION`).
    pub name: String,
    pub place: Place,
    /// Line of the `METHOD`/`FORM`/event statement in its source part.
    pub method_line: u32,
    /// Line of `ENDMETHOD`/`ENDFORM` (a stop point); `None` for event blocks.
    pub end_line: Option<u32>,
    /// Locals declared anywhere in the body; they exist from procedure start.
    pub locals: Vec<DataDecl>,
    /// `TYPES` declared in the body.
    pub types: Vec<(String, TypeSpec)>,
    /// `FIELD-SYMBOLS <fs> …` declared in the body (upper case, with `<>`).
    pub field_symbols: Vec<String>,
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
    Write(Box<crate::ast::ListWrite>),
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
    Refs(Box<crate::ast::RefStmt>),
    /// `GET TIME`, `GET TIME STAMP`, `CONVERT TIME STAMP`, `CONVERT DATE` (`interp/time.rs`).
    Time(Box<crate::ast::TimeStmt>),
    /// `APPEND|INSERT LINES OF`, `COLLECT`, `MODIFY … TRANSPORTING`, `MODIFY TABLE`, key
    /// reads, `DESCRIBE TABLE`, `DELETE TABLE`.
    TableOp(Box<crate::ast::TableOp>),
    /// `CASE TYPE OF oref. WHEN TYPE class [INTO target]. … ENDCASE.`
    CaseType(Box<crate::ast::CaseType>),
    /// `CONCATENATE`, `SPLIT`, `CONDENSE`, `REPLACE`, `FIND`, `TRANSLATE`, `SHIFT`, `OVERLAY`,
    /// `SEARCH`.
    Text(Box<crate::ast::TextStmt>),
    /// `dobj+off(len) = expr`: a write into a section of a fixed-length field.
    AssignSub {
        target: Box<crate::ast::SubAccess>,
        expr: Expr,
    },
    /// Open SQL (`interp/sql.rs`).
    Sql(Box<crate::ast::SqlStmt>),
    /// Statements with names given at run time (`interp/dynamic.rs`).
    Dynamic(Box<crate::ast::DynStmt>),
    /// `CALL FUNCTION`, `RAISE name`, `MESSAGE … RAISING` (`interp/function_call.rs`).
    Function(Box<FunctionStmt>),
    /// Outside the subset: a runtime error when executed.
    Unsupported {
        what: String,
        /// Declarations (`TYPES`, `FIELD-SYMBOLS`, …) and block ends are no stop points.
        stop: bool,
    },
}

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

/// `MESSAGE …`.
#[derive(Debug, Clone)]
pub struct MessageStmt {
    /// Statically known id, number and type (`MESSAGE e001(zmsg)`); text messages have an empty
    /// id and number `000`.
    pub id: Option<String>,
    pub number: Option<String>,
    pub msg_type: Option<String>,
    /// `MESSAGE 'text' TYPE 'I'` / `MESSAGE lv_text TYPE 'E'`.
    pub text: Option<Expr>,
    /// `TYPE` given as an expression (not a literal).
    pub type_expr: Option<Expr>,
    pub with: Vec<Expr>,
    /// `DISPLAY LIKE`, `INTO`: `INTO` target.
    pub into: Option<Path>,
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
    Ctor(Box<crate::ast::Ctor>),
    /// Offset/length access `dobj+off(len)` (see abap-runtime's `interp/access`).
    Sub(Box<crate::ast::SubAccess>),
    /// Outside the subset (a runtime error when evaluated); the text names the construct.
    Unsupported(String),
}

#[derive(Debug, Clone)]
pub enum TemplateItem {
    Text(String),
    Expr(Expr),
    /// `{ expr OPTION = value … }` (see `interp/template.rs`).
    Formatted(Expr, Vec<crate::ast::TemplateOption>),
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
    Bits(crate::ast::BitCmp, Expr, Expr),
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
