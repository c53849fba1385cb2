//! Classes, their declarations (methods, parameters, attributes) and method implementations.

use abap_data::debug::{ObjectKind, SourcePart};
use abap_data::value::Type;

use crate::ast::expr::Expr;
use crate::ast::function_call::FunctionInterface;
use crate::ast::stmt::Stmt;

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
