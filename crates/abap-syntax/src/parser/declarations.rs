//! Declarative statements: `TYPES`/`DATA` (types with `LENGTH`, `DECIMALS`, tables, `BEGIN
//! OF` structures, `VALUE`), `METHODS` and `FORM` signatures, `CLASS … DEFINITION` options.

use crate::ast::{
    ClassDef, DataDecl, Expr, MethodDecl, ParamDecl, ParamKind, TypeSpec, Visibility,
};
use crate::lexer::upper_word;
use crate::lexer::{Token, TokenKind};
use crate::parser::expr::parse_full_expr;
use crate::parser::words::{describe, is_name, parse_path};
use crate::statements::Statement;
use abap_data::value::{
    MAX_C_LENGTH, MAX_X_LENGTH, SecondaryKey, StructType, TableKey, TableKind, TableType, Type,
    named_type,
};
use std::sync::Arc;

/// A data declaration made with `DATA BEGIN OF … END OF`.
pub(super) fn struct_decl(name: String, ty: TypeSpec, line: u32, is_static: bool) -> DataDecl {
    DataDecl {
        name,
        ty,
        value: None,
        is_static,
        is_constant: false,
        visibility: Visibility::Public,
        line,
    }
}

/// Options of `CLASS x DEFINITION …`.
pub(super) fn class_options(st: &Statement, class: &mut ClassDef) {
    let words: Vec<String> = st
        .tokens
        .iter()
        .filter_map(Token::word)
        .map(str::to_ascii_uppercase)
        .collect();
    let mut i = 3;
    while let Some(w) = words.get(i) {
        match w.as_str() {
            "INHERITING" => {
                class.superclass = words.get(i + 2).cloned();
                i += 3;
                continue;
            }
            "ABSTRACT" => class.is_abstract = true,
            "FINAL" => class.is_final = true,
            "CREATE" => {
                class.create = match words.get(i + 1).map(String::as_str) {
                    Some("PRIVATE") => Visibility::Private,
                    Some("PROTECTED") => Visibility::Protected,
                    _ => Visibility::Public,
                };
                i += 1;
            }
            "FRIENDS" => class.has_friends = true,
            "FOR" if words.get(i + 1).is_some_and(|n| n == "TESTING") => {
                class.for_testing = true;
                i += 1;
            }
            "RISK" => {
                if let Some(l) = words.get(i + 2) {
                    class.risk_level = l.to_ascii_lowercase();
                }
                i += 2;
            }
            "DURATION" => {
                if let Some(l) = words.get(i + 1) {
                    class.duration = l.to_ascii_lowercase();
                }
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
}

/// The type of a parameter (`TYPE x`, `TYPE REF TO x`, `LIKE x`). A parameter typed with a
/// bare incomplete elementary type (`TYPE c`, `TYPE p`, `TYPE n`, `TYPE x`) is generic: it
/// takes length and decimals from the actual parameter.
fn param_type(ty_toks: &[Token]) -> TypeSpec {
    if let [kw, name] = ty_toks
        && kw.is_kw("TYPE")
        && ["C", "N", "P", "X", "DECFLOAT"]
            .iter()
            .any(|generic| name.is_kw(generic))
    {
        return Ok(Type::Any);
    }
    type_and_value(ty_toks).0
}

/// `FORM f TABLES … USING a TYPE i VALUE(b) … CHANGING c …`: parameters as a method
/// signature (`USING` by reference and `CHANGING` as changing parameters, `USING VALUE( )`
/// as importing by value).
pub(super) fn form_decl(st: &Statement, name: &str) -> MethodDecl {
    let toks = st.tokens.get(2..).unwrap_or(&[]);
    let mut params = Vec::new();
    let mut section: Option<ParamKind> = None;
    // `TABLES p`: the parameter is the body `P[]`; the header line `P` is made at the call
    // (`interp/header_lines.rs`).
    let mut tables = false;
    let mut i = 0;
    while let Some(t) = toks.get(i) {
        let w = t.word().map(str::to_ascii_uppercase).unwrap_or_default();
        match w.as_str() {
            "USING" | "TABLES" => {
                section = Some(ParamKind::Importing);
                tables = w == "TABLES";
                i += 1;
                continue;
            }
            "CHANGING" => {
                tables = false;
                section = Some(ParamKind::Changing);
                i += 1;
                continue;
            }
            "RAISING" => break,
            _ => {}
        }
        let Some(kind) = section else {
            i += 1;
            continue;
        };
        let (pname, by_value, next) = if (w == "VALUE" || w == "REFERENCE")
            && toks
                .get(i + 1)
                .is_some_and(|t| t.kind == TokenKind::LParen && !t.space_before)
        {
            (upper_word(toks.get(i + 2)), w == "VALUE", i + 4)
        } else {
            (w.clone(), false, i + 1)
        };
        let mut j = next;
        let mut ty: TypeSpec = Ok(Type::Any);
        if toks
            .get(j)
            .is_some_and(|t| t.is_kw("TYPE") || t.is_kw("LIKE"))
        {
            let is_ref = toks.get(j + 1).is_some_and(|t| t.is_kw("REF"));
            let n = if is_ref { 4 } else { 2 };
            let ty_toks = toks.get(j..j + n).unwrap_or(&[]);
            if toks.get(j).is_some_and(|t| t.is_kw("TYPE")) {
                ty = param_type(ty_toks);
            }
            j += n;
        } else if toks.get(j).is_some_and(|t| t.is_kw("STRUCTURE")) {
            // `TABLES p STRUCTURE s`: a table with rows like `s` (typed generically here).
            j += 2;
        }
        if is_name(&pname) {
            // `USING` without VALUE is by reference: written back like CHANGING.
            let kind = if kind == ParamKind::Importing && !by_value {
                ParamKind::Changing
            } else {
                kind
            };
            params.push(ParamDecl {
                name: if tables {
                    crate::parser::header_lines::body_name(&pname)
                } else {
                    pname
                },
                kind,
                ty,
                by_value,
                optional: false,
                default: None,
            });
        }
        i = j.max(i + 1);
    }
    MethodDecl {
        name: name.to_string(),
        is_static: true,
        params,
        for_testing: false,
        is_abstract: false,
        line: st.line,
    }
}

/// Bound on `BEGIN OF` nesting (nested types are walked recursively).
const MAX_STRUCT_DEPTH: usize = 32;

/// An open `BEGIN OF`: name, components, first unsupported component type.
type OpenStruct = (String, Vec<(String, Type)>, Option<String>);

/// Collects `TYPES`/`DATA` chains with `BEGIN OF … END OF` (nested, `INCLUDE TYPE`).
#[derive(Default)]
pub struct TypeBuilder {
    /// Open structures: name, components, first unsupported component type.
    stack: Vec<OpenStruct>,
    /// `VALUE` clauses of the outermost structure's components (`CONSTANTS BEGIN OF`).
    values: Vec<(String, Expr)>,
    /// The outermost structure was opened with `OCCURS n`: it is the line of a table.
    occurs: bool,
    /// The declaration just finished was `BEGIN OF … OCCURS n` (`DATA`: with a header line).
    finished_occurs: bool,
}

impl TypeBuilder {
    /// True while a `BEGIN OF` is open.
    pub fn open(&self) -> bool {
        !self.stack.is_empty()
    }

    /// Was the declaration [`TypeBuilder::feed`] returned last `BEGIN OF … OCCURS n` (a table
    /// with a header line when declared with `DATA`)? Asking resets it.
    pub fn take_header_line(&mut self) -> bool {
        std::mem::take(&mut self.finished_occurs)
    }

    /// Feeds one statement (the tokens after `TYPES`/`DATA`); returns a finished top-level
    /// declaration: name and type (tables get their name).
    pub fn feed(&mut self, rest: &[Token]) -> Option<(String, TypeSpec, Option<Expr>)> {
        let w = |i: usize| upper_word(rest.get(i));
        if w(0) == "BEGIN" && w(1) == "OF" {
            if self.stack.is_empty() {
                self.occurs = w(3) == "OCCURS";
            }
            let err = (self.stack.len() >= MAX_STRUCT_DEPTH)
                .then(|| "structure nested too deeply".to_string());
            self.stack.push((w(2), Vec::new(), err));
            return None;
        }
        if w(0) == "END" && w(1) == "OF" {
            let (name, comps, err) = self.stack.pop()?;
            let mut ty = match err {
                Some(e) => Err(e),
                None => Ok(Type::Struct(std::sync::Arc::new(StructType {
                    name: name.clone(),
                    comps,
                }))),
            };
            if self.stack.is_empty() && std::mem::take(&mut self.occurs) {
                ty = ty.map(occurs_table);
                self.finished_occurs = true;
            }
            let value = (self.stack.is_empty() && !self.values.is_empty()).then(|| Expr::Value {
                ty: None,
                body: Box::new(crate::ast::ValueBody {
                    fields: std::mem::take(&mut self.values),
                    rows: Vec::new(),
                }),
            });
            return self.add(name, ty, value);
        }
        if w(0) == "INCLUDE" && (w(1) == "TYPE" || w(1) == "STRUCTURE") {
            let t = Type::Named(w(2));
            return self.add(String::new(), Ok(t), None);
        }
        let name = w(0);
        if !is_name(&name) {
            if let Some(top) = self.stack.last_mut() {
                top.2.get_or_insert_with(|| format!("component {name}"));
            }
            return None;
        }
        let (ty, value) = type_and_value(rest.get(1..).unwrap_or(&[]));
        let value = match (self.stack.len(), value) {
            (1, Some(v)) => {
                self.values.push((name.clone(), v));
                None
            }
            (n, Some(_)) if n > 1 => {
                if let Some(top) = self.stack.last_mut() {
                    top.2
                        .get_or_insert_with(|| format!("VALUE of nested component {name}"));
                }
                None
            }
            (_, v) => v,
        };
        let ty = ty.map(|t| match t {
            Type::Table(t) if t.name.is_empty() => {
                let mut t = (*t).clone();
                t.name = name.clone();
                Type::Table(std::sync::Arc::new(t))
            }
            other => other,
        });
        self.add(name, ty, value)
    }

    fn add(
        &mut self,
        name: String,
        ty: TypeSpec,
        value: Option<Expr>,
    ) -> Option<(String, TypeSpec, Option<Expr>)> {
        match self.stack.last_mut() {
            Some(top) => {
                match ty {
                    Ok(_) if top.2.is_some() => {}
                    Ok(t) => top.1.push((name, t)),
                    Err(e) => {
                        top.2.get_or_insert(e);
                    }
                }
                None
            }
            None => Some((name, ty, value)),
        }
    }
}

/// `DATA name TYPE … [LENGTH n] [DECIMALS d] [VALUE v] [READ-ONLY]`; `None` if there is no
/// name. An unsupported type gives `ty: Err(text)`.
pub(super) fn data_decl(st: &Statement) -> Option<DataDecl> {
    let name_tok = st.tokens.get(1)?;
    let name = name_tok.word()?.to_ascii_uppercase();
    if !is_name(&name) {
        return None;
    }
    let (rest, _) =
        crate::parser::header_lines::strip_header_line(st.tokens.get(2..).unwrap_or(&[]));
    let (ty, value) = type_and_value(&rest);
    Some(DataDecl {
        name,
        ty,
        value,
        is_static: false,
        is_constant: false,
        visibility: Visibility::Public,
        line: st.line,
    })
}

/// `PARAMETERS p [(len)] [TYPE …|LIKE …] [DEFAULT val] [AS CHECKBOX] [RADIOBUTTON GROUP g]
/// [screen and value options]`: a global elementary variable. The simulator shows no
/// selection screen; a report runs as if submitted without one, so a parameter holds its
/// `DEFAULT` value (converted to its type), and of a radio button group without a default the
/// first button is `X`. Returns the declaration and the radio button group, if any.
pub(super) fn parameters_decl(st: &Statement) -> Option<(DataDecl, Option<String>)> {
    let toks = st.tokens.get(2..).unwrap_or(&[]);
    let mut kept: Vec<Token> = Vec::new();
    let mut default = None;
    let mut group = None;
    let mut flag = false;
    let mut i = 0;
    while let Some(t) = toks.get(i) {
        let w = upper_word(Some(t));
        let next = upper_word(toks.get(i + 1));
        i += match (w.as_str(), next.as_str()) {
            ("DEFAULT", _) => {
                default = toks.get(i + 1).cloned();
                2
            }
            ("AS", "CHECKBOX") => {
                flag = true;
                2
            }
            ("AS", "LISTBOX") | ("LOWER", "CASE") | ("VALUE", "CHECK") => 2,
            ("RADIOBUTTON", "GROUP") => {
                flag = true;
                group = Some(upper_word(toks.get(i + 2)));
                3
            }
            ("MEMORY", "ID")
            | ("MATCHCODE", "OBJECT")
            | ("MODIF", "ID")
            | ("VISIBLE", "LENGTH") => 3,
            ("USER-COMMAND", _) => 2,
            ("OBLIGATORY" | "NO-DISPLAY", _) => 1,
            _ => {
                kept.push(t.clone());
                1
            }
        };
    }
    let name = st.tokens.get(1)?.word()?.to_ascii_uppercase();
    if !is_name(&name) {
        return None;
    }
    let (ty, _) = if flag && kept.is_empty() {
        (Ok(Type::C(1)), None)
    } else {
        type_and_value(&kept)
    };
    let value = default.map(|t| {
        parse_full_expr(std::slice::from_ref(&t)).unwrap_or_else(|u| Expr::Unsupported(u.0))
    });
    Some((
        DataDecl {
            name,
            ty,
            value,
            is_static: true,
            is_constant: false,
            visibility: Visibility::Public,
            line: st.line,
        },
        group,
    ))
}

/// `RANGES r FOR dobj [OCCURS n]` (obsolete): a ranges table of `dobj`'s type; the caller
/// gives it its header line.
pub(super) fn ranges_decl(st: &Statement) -> Option<DataDecl> {
    let mut d = select_options_decl(st)?;
    d.value = None;
    d.is_static = false;
    Some(d)
}

/// `SELECT-OPTIONS s FOR dobj [options]`: a ranges table of `dobj`'s type, empty as when the
/// report is submitted without its selection screen; the caller gives it its header line
/// (`s-low`). A `DEFAULT` ends the run as not supported when the program starts.
pub(super) fn select_options_decl(st: &Statement) -> Option<DataDecl> {
    let name = st.tokens.get(1)?.word()?.to_ascii_uppercase();
    if !is_name(&name) || upper_word(st.tokens.get(2)) != "FOR" {
        return None;
    }
    let field = upper_word(st.tokens.get(3));
    let value = st
        .tokens
        .iter()
        .any(|t| t.is_kw("DEFAULT"))
        .then(|| Expr::Unsupported("SELECT-OPTIONS … DEFAULT".into()));
    Some(DataDecl {
        name,
        ty: Ok(crate::parser::declarations::range_type(Type::Like(field))),
        value,
        is_static: true,
        is_constant: false,
        visibility: Visibility::Public,
        line: st.line,
    })
}

fn num_arg(t: Option<&Token>) -> Option<u32> {
    match &t?.kind {
        TokenKind::Word(w) | TokenKind::CharLit(w) => w.trim().parse().ok(),
        _ => None,
    }
}

/// Type and `VALUE` clause of a data declaration.
pub fn type_and_value(toks: &[Token]) -> (TypeSpec, Option<Expr>) {
    let mut ty: Option<TypeSpec> = None;
    let mut base: Option<String> = None;
    let mut length = None;
    let mut decimals = None;
    let mut value = None;
    // `OCCURS n` (obsolete): a standard table of the type written before it.
    let mut occurs = false;
    let mut i = 0;
    let bad = |t: &[Token]| -> TypeSpec {
        let words: Vec<String> = t.iter().take(4).map(describe).collect();
        Err(words.join(" "))
    };
    // Old form `name(len) TYPE c|n|x|p`.
    if toks
        .first()
        .is_some_and(|t| t.kind == TokenKind::LParen && !t.space_before)
    {
        match (num_arg(toks.get(1)), toks.get(2)) {
            (Some(n), Some(t)) if t.kind == TokenKind::RParen => {
                length = Some(n);
                i = 3;
            }
            _ => return (Err("length in parentheses".into()), None),
        }
    }
    while let Some(t) = toks.get(i) {
        let kw = t.word().map(str::to_ascii_uppercase).unwrap_or_default();
        match kw.as_str() {
            "TYPE" | "LIKE" => {
                let w = |k: usize| upper_word(toks.get(i + k));
                if kw == "TYPE" && w(1) == "REF" && w(2) == "TO" {
                    let r = w(3);
                    if r.is_empty() {
                        return (bad(&toks[i..]), None);
                    }
                    if !is_referable(&r) {
                        return (Err(format!("TYPE REF TO {r}")), None);
                    }
                    ty = Some(Ok(crate::parser::declarations::ref_to(&r)));
                    i += 4;
                } else if kw == "LIKE" && w(1) == "LINE" && w(2) == "OF" {
                    ty = Some(Ok(Type::LineOf(w(3))));
                    i += 4;
                } else if kw == "TYPE" && w(1) == "LINE" && w(2) == "OF" {
                    ty = Some(Ok(Type::LineOf(format!("TYPE {}", w(3)))));
                    i += 4;
                } else if w(1) == "RANGE" && w(2) == "OF" {
                    let low = if kw == "LIKE" {
                        Ok(Type::Like(w(3)))
                    } else {
                        elementary(&w(3), None, None)
                    };
                    ty = Some(low.map(crate::parser::declarations::range_type));
                    i += 4;
                } else if let Some((t, n)) = table_phrase(&kw, &toks[i + 1..]) {
                    ty = Some(t);
                    i += 1 + n;
                } else {
                    let name = w(1);
                    if name.is_empty() {
                        return (bad(&toks[i..]), None);
                    }
                    if kw == "LIKE" {
                        ty = Some(Ok(Type::Like(name)));
                    } else {
                        base = Some(name);
                    }
                    i += 2;
                }
            }
            "LENGTH" => {
                length = num_arg(toks.get(i + 1));
                if length.is_none() {
                    return (bad(&toks[i..]), None);
                }
                i += 2;
            }
            "DECIMALS" => {
                decimals = num_arg(toks.get(i + 1));
                if decimals.is_none() {
                    return (bad(&toks[i..]), None);
                }
                i += 2;
            }
            "VALUE" => {
                let end = toks[i + 1..]
                    .iter()
                    .position(|t| t.is_kw("READ-ONLY"))
                    .map_or(toks.len(), |p| p + i + 1);
                let vt = &toks[i + 1..end];
                if vt.len() == 2 && vt[0].is_kw("IS") && vt[1].is_kw("INITIAL") {
                    value = None;
                } else {
                    match parse_full_expr(vt) {
                        Ok(e) => value = Some(e),
                        Err(u) => return (Err(format!("VALUE {}", u.0)), None),
                    }
                }
                i = end;
            }
            "READ-ONLY" => i += 1,
            "OCCURS" if num_arg(toks.get(i + 1)).is_some() => {
                occurs = true;
                i += 2;
            }
            _ => return (bad(&toks[i..]), None),
        }
    }
    let ty = match ty {
        Some(t) => t,
        None => elementary(&base.unwrap_or_else(|| "C".into()), length, decimals),
    };
    if occurs {
        return (ty.map(occurs_table), value);
    }
    (ty, value)
}

/// `… OCCURS n`: a standard table of `line` with the default key.
fn occurs_table(line: Type) -> Type {
    TableType::standard("", line)
}

/// An elementary type name with `LENGTH`/`DECIMALS`; other names are types resolved at run
/// time (`TYPES`, DDIC).
fn elementary(base: &str, length: Option<u32>, decimals: Option<u32>) -> TypeSpec {
    match (base, length, decimals) {
        ("I" | "INT4", None, None) => Ok(Type::I),
        ("STRING", None, None) => Ok(Type::String),
        ("C", l, None) => match l.unwrap_or(1) {
            n @ 1..=MAX_C_LENGTH => Ok(Type::C(n)),
            n => Err(format!("TYPE C LENGTH {n}")),
        },
        // Dictionary names stay names (resolved when data is created), so the debugger can
        // show the declared type name.
        ("ABAP_BOOL" | "CHAR1" | "FLAG" | "XFELD", None, None) => Ok(Type::Named(base.to_string())),
        ("P", l, d) => {
            let len = l.unwrap_or(8);
            let dec = d.unwrap_or(0);
            if (1..=16).contains(&len) && dec <= 14 && dec < 2 * len {
                Ok(Type::P { len, dec })
            } else {
                Err(format!("TYPE P LENGTH {len} DECIMALS {dec}"))
            }
        }
        (
            "ANY" | "DATA" | "SIMPLE" | "CLIKE" | "CSEQUENCE" | "NUMERIC" | "XSEQUENCE"
            | "DECFLOAT",
            None,
            None,
        ) => Ok(Type::Any),
        ("N" | "X", l, None) => match l.unwrap_or(1) {
            n @ 1..=MAX_C_LENGTH if base == "N" => Ok(Type::N(n)),
            n @ 1..=MAX_X_LENGTH => Ok(Type::X(n)),
            n => Err(format!("TYPE {base} LENGTH {n}")),
        },
        ("D" | "T" | "F" | "XSTRING" | "INT8" | "DECFLOAT16" | "DECFLOAT34", None, None) => {
            named_type(base).ok_or_else(|| format!("TYPE {base}"))
        }
        (
            "D" | "T" | "F" | "XSTRING" | "INT8" | "DECFLOAT16" | "DECFLOAT34" | "UTCLONG" | "B"
            | "S" | "INT1" | "INT2",
            _,
            _,
        ) => Err(format!("TYPE {base}")),
        (other, None, None) if parse_path(other).is_some() => Ok(Type::Named(other.to_string())),
        (other, _, _) => Err(format!("TYPE {other}")),
    }
}

/// `[STANDARD|SORTED|HASHED] TABLE OF t [WITH [UNIQUE|NON-UNIQUE] DEFAULT KEY|EMPTY KEY|KEY
/// c …] [INITIAL SIZE n]` after `TYPE`/`LIKE`: the type and the tokens used; `None` if the
/// tokens are no table type.
fn table_phrase(kw: &str, toks: &[Token]) -> Option<(TypeSpec, usize)> {
    let w = |k: usize| upper_word(toks.get(k));
    let mut i = 0;
    let kind = match w(0).as_str() {
        "STANDARD" => {
            i += 1;
            TableKind::Standard
        }
        "SORTED" => {
            i += 1;
            TableKind::Sorted
        }
        "HASHED" => {
            i += 1;
            TableKind::Hashed
        }
        "INDEX" | "ANY" => {
            i += 1;
            TableKind::Standard
        }
        _ => TableKind::Standard,
    };
    if w(i) != "TABLE" {
        return None;
    }
    i += 1;
    if w(i) != "OF" {
        // `TYPE ANY TABLE`, `TYPE STANDARD TABLE` (generic).
        return Some((Ok(Type::Any), i));
    }
    i += 1;
    let line = if w(i) == "REF" && w(i + 1) == "TO" {
        i += 3;
        match w(i - 1) {
            r if is_referable(&r) => Ok(crate::parser::declarations::ref_to(&r)),
            r => Err(format!("TABLE OF REF TO {r}")),
        }
    } else {
        let n = w(i);
        i += 1;
        if kw == "LIKE" {
            Ok(Type::Like(n))
        } else {
            elementary(&n, None, None)
        }
    };
    let mut unique = false;
    let mut key = TableKey::Default;
    let mut secondary_keys: Vec<SecondaryKey> = Vec::new();
    let mut err: Option<String> = None;
    let stop = |x: &str| matches!(x, "WITH" | "INITIAL" | "VALUE" | "READ-ONLY" | "");
    while i < toks.len() {
        match w(i).as_str() {
            "WITH" => {
                i += 1;
                // Each `WITH` clause has its own uniqueness; SORTED/HASHED make it secondary.
                let mut clause_unique = None;
                let mut secondary_sorted = None;
                loop {
                    match w(i).as_str() {
                        "UNIQUE" => clause_unique = Some(true),
                        "NON-UNIQUE" => clause_unique = Some(false),
                        "SORTED" => secondary_sorted = Some(true),
                        "HASHED" => secondary_sorted = Some(false),
                        _ => break,
                    }
                    i += 1;
                }
                match w(i).as_str() {
                    "DEFAULT" if w(i + 1) == "KEY" => {
                        key = TableKey::Default;
                        unique = clause_unique.unwrap_or(unique);
                        i += 2;
                    }
                    "EMPTY" if w(i + 1) == "KEY" => {
                        key = TableKey::Empty;
                        i += 2;
                    }
                    "KEY" => {
                        i += 1;
                        let mut comps = Vec::new();
                        let mut name = None;
                        if w(i + 1) == "COMPONENTS" || w(i + 1) == "ALIAS" {
                            name = Some(w(i));
                            i += if w(i + 1) == "ALIAS" { 4 } else { 2 };
                        }
                        while i < toks.len() && !stop(&w(i)) {
                            comps.push(w(i));
                            i += 1;
                        }
                        let secondary = secondary_sorted.is_some()
                            || name.as_deref().is_some_and(|n| n != "PRIMARY_KEY");
                        match (secondary, name) {
                            (true, Some(name)) => secondary_keys.push(SecondaryKey {
                                name,
                                sorted: secondary_sorted != Some(false),
                                unique: clause_unique.unwrap_or(false),
                                comps,
                            }),
                            (true, None) => {
                                err.get_or_insert_with(|| {
                                    "secondary table key without a name".into()
                                });
                            }
                            (false, _) => {
                                key = TableKey::Comps(comps);
                                unique = clause_unique.unwrap_or(unique);
                            }
                        }
                    }
                    other => {
                        err.get_or_insert_with(|| format!("table key {other}"));
                        i += 1;
                    }
                }
            }
            "INITIAL" if w(i + 1) == "SIZE" => i += 3,
            _ => break,
        }
    }
    let ty = match (line, err) {
        (_, Some(e)) | (Err(e), _) => Err(e),
        (Ok(line), None) => Ok(Type::Table(std::sync::Arc::new(TableType {
            name: String::new(),
            kind,
            line,
            unique,
            key,
            secondary: secondary_keys,
        }))),
    };
    Some((ty, i))
}

/// `METHODS name [IMPORTING …] [EXPORTING …] [CHANGING …] [RETURNING VALUE(r) TYPE t] …`
pub(super) fn method_decl(st: &Statement, is_static: bool) -> Option<MethodDecl> {
    let name = st.tokens.get(1)?.word()?.to_ascii_uppercase();
    let mut params = Vec::new();
    let toks = st.tokens.get(2..).unwrap_or(&[]);
    let mut kind: Option<ParamKind> = None;
    let mut i = 0;
    let for_testing = toks
        .windows(2)
        .any(|w| w[0].is_kw("FOR") && w[1].is_kw("TESTING"));
    let is_abstract = toks.iter().any(|t| t.is_kw("ABSTRACT"));
    while let Some(t) = toks.get(i) {
        let kw = t.word().map(str::to_ascii_uppercase).unwrap_or_default();
        let section = match kw.as_str() {
            "IMPORTING" => Some(Some(ParamKind::Importing)),
            "EXPORTING" => Some(Some(ParamKind::Exporting)),
            "CHANGING" => Some(Some(ParamKind::Changing)),
            "RETURNING" => Some(Some(ParamKind::Returning)),
            "RAISING" | "EXCEPTIONS" | "ABSTRACT" | "FINAL" | "REDEFINITION" | "DEFAULT"
            | "FOR" | "TESTING" => Some(None),
            "PREFERRED" => {
                i += 3; // PREFERRED PARAMETER p
                kind = None;
                continue;
            }
            _ => None,
        };
        if let Some(k) = section {
            kind = k;
            i += 1;
            continue;
        }
        let Some(pk) = kind else {
            i += 1; // exception names after RAISING etc.
            continue;
        };
        // [VALUE(p) | REFERENCE(p) | p] TYPE …
        let (pname, by_value, next) = if (kw == "VALUE" || kw == "REFERENCE")
            && toks
                .get(i + 1)
                .is_some_and(|t| t.kind == TokenKind::LParen && !t.space_before)
        {
            let n = toks
                .get(i + 2)
                .and_then(Token::word)
                .map(str::to_ascii_uppercase)
                .unwrap_or_default();
            (n, kw == "VALUE", i + 4)
        } else {
            (kw.clone(), pk == ParamKind::Returning, i + 1)
        };
        // `!name`: the escape that lets a parameter have a keyword's name.
        let pname = pname
            .strip_prefix('!')
            .map_or(pname.clone(), str::to_string);
        // Type tokens run to OPTIONAL/DEFAULT/the next parameter or section.
        let mut j = next;
        let mut ty_toks = Vec::new();
        if toks
            .get(j)
            .is_some_and(|t| t.is_kw("TYPE") || t.is_kw("LIKE"))
        {
            ty_toks.push(toks[j].clone());
            j += 1;
            if toks.get(j).is_some_and(|t| t.is_kw("REF")) {
                ty_toks.extend(toks.get(j..j + 3).unwrap_or(&[]).iter().cloned());
                j += 3;
            } else if let Some(t) = toks.get(j) {
                ty_toks.push(t.clone());
                j += 1;
            }
        }
        let ty = if ty_toks.is_empty() {
            Err("untyped parameter".into())
        } else {
            param_type(&ty_toks)
        };
        let mut optional = false;
        let mut default = None;
        loop {
            if toks.get(j).is_some_and(|t| t.is_kw("OPTIONAL")) {
                optional = true;
                j += 1;
            } else if toks.get(j).is_some_and(|t| t.is_kw("DEFAULT")) {
                optional = true;
                default = toks.get(j + 1).map(|t| {
                    parse_full_expr(std::slice::from_ref(t))
                        .unwrap_or_else(|u| Expr::Unsupported(u.0))
                });
                j += 2;
            } else {
                break;
            }
        }
        if is_name(&pname) {
            params.push(ParamDecl {
                name: pname,
                kind: pk,
                ty,
                by_value,
                optional,
                default,
            });
        }
        i = j.max(i + 1);
    }
    Some(MethodDecl {
        name,
        is_static,
        params,
        for_testing,
        is_abstract,
        line: st.line,
    })
}

/// `REF TO name` as written: `data` and built-in elementary types are data references;
/// other names stay [`Type::Ref`] until resolution decides between a class and a data type.
/// What `REF TO` may name: a class, interface or type, also a type of a class or interface
/// (`REF TO zif_x=>ty`).
fn is_referable(name: &str) -> bool {
    is_name(name)
        || name
            .split_once("=>")
            .is_some_and(|(a, b)| is_name(a) && is_name(b))
}

fn ref_to(name: &str) -> Type {
    if name == "DATA" {
        return Type::DataRef(Box::new(Type::Any));
    }
    match abap_data::value::named_type(name) {
        Some(t) if !matches!(name, "ABAP_BOOL" | "FLAG" | "XFELD" | "CHAR1") => {
            Type::DataRef(Box::new(t))
        }
        _ => Type::Ref(name.to_string()),
    }
}

/// The table type of `RANGE OF t`: rows `SIGN c(1) OPTION c(2) LOW t HIGH t`.
fn range_type(low: Type) -> Type {
    Type::Table(Arc::new(TableType {
        name: String::new(),
        kind: TableKind::Standard,
        line: Type::Struct(Arc::new(StructType {
            name: String::new(),
            comps: vec![
                ("SIGN".into(), Type::C(1)),
                ("OPTION".into(), Type::C(2)),
                ("LOW".into(), low.clone()),
                ("HIGH".into(), low),
            ],
        })),
        unique: false,
        key: TableKey::Default,
        secondary: Vec::new(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use crate::statements::split;

    #[test]
    fn data_types() {
        let t = |s: &str| type_and_value(&lex(s).unwrap()).0;
        assert_eq!(t("TYPE i"), Ok(Type::I));
        assert_eq!(t("TYPE c LENGTH 10"), Ok(Type::C(10)));
        assert_eq!(t("TYPE c"), Ok(Type::C(1)));
        assert_eq!(t(""), Ok(Type::C(1)));
        assert_eq!(t("TYPE p"), Ok(Type::P { len: 8, dec: 0 }));
        assert_eq!(
            t("TYPE p LENGTH 8 DECIMALS 2"),
            Ok(Type::P { len: 8, dec: 2 })
        );
        assert_eq!(t("TYPE REF TO zcl_x"), Ok(Type::Ref("ZCL_X".into())));
        assert!(matches!(t("TYPE STANDARD TABLE OF i"), Ok(Type::Table(_))));
        assert!(matches!(
            t("TYPE SORTED TABLE OF i WITH NON-UNIQUE SORTED KEY k COMPONENTS table_line"),
            Ok(Type::Table(tt)) if tt.secondary.len() == 1 && tt.secondary[0].name == "K"
        ));
        assert_eq!(t("TYPE d"), Ok(Type::D));
        assert_eq!(t("TYPE n LENGTH 10"), Ok(Type::N(10)));
        let old_form = lex("DATA h(4) TYPE x.").unwrap();
        assert_eq!(
            type_and_value(&old_form[2..old_form.len() - 1]).0,
            Ok(Type::X(4))
        );
        assert_eq!(t("TYPE int8"), Ok(Type::Int8));
        assert!(t("TYPE d LENGTH 4").is_err());
        assert!(t("TYPE utclong").is_err());
        assert_eq!(t("TYPE ty_x"), Ok(Type::Named("TY_X".into())));
        assert!(t("TYPE c LENGTH 0").is_err());
    }

    #[test]
    fn method_signatures() {
        let st = &split(lex("METHODS m IMPORTING iv_a TYPE i VALUE(iv_b) TYPE string OPTIONAL EXPORTING ev TYPE i RETURNING VALUE(r) TYPE REF TO zcl_x RAISING cx_a.").unwrap()).unwrap()[0];
        let m = method_decl(st, false).unwrap();
        let names: Vec<_> = m
            .params
            .iter()
            .map(|p| (p.name.as_str(), p.kind, p.by_value, p.optional))
            .collect();
        assert_eq!(
            names,
            vec![
                ("IV_A", ParamKind::Importing, false, false),
                ("IV_B", ParamKind::Importing, true, true),
                ("EV", ParamKind::Exporting, false, false),
                ("R", ParamKind::Returning, true, false),
            ]
        );
        assert_eq!(m.params[3].ty, Ok(Type::Ref("ZCL_X".into())));
    }
}
