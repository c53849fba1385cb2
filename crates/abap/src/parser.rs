//! Statement parser: the statements of a `.clas.abap` file → [`ClassDef`].
//!
//! Structure errors (missing `ENDIF`, `METHOD` without `ENDMETHOD`) fail loading; statements
//! and expressions outside the subset become [`StmtKind::Unsupported`] so that only executing
//! them fails.

use crate::LoadError;
use crate::ast::{
    AssignOp, CallArgs, CatchClause, ClassDef, Cond, DataDecl, Expr, MessageStmt, MethodDecl,
    MethodImpl, ParamDecl, ParamKind, Path, Place, Stmt, StmtKind, TypeSpec, Visibility,
};
use crate::debug::{ObjectKind, SourcePart};
use crate::expr::{
    ExprParser, Unsup, describe, is_name, parse_call_args, parse_full_cond, parse_full_expr,
    parse_path,
};
use crate::lexer::{Token, TokenKind, lex};
use crate::statements::{Statement, split};
use crate::value::{
    MAX_C_LENGTH, MAX_X_LENGTH, SecondaryKey, StructType, TableKey, TableKind, TableType, Type,
    named_type,
};

/// A data declaration made with `DATA BEGIN OF … END OF`.
fn struct_decl(name: String, ty: TypeSpec, line: u32, is_static: bool) -> DataDecl {
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

/// Bound on block nesting (IF in DO in IF …) so hostile input cannot overflow the stack.
const MAX_BLOCK_DEPTH: usize = 64;

/// `ZCL_X` → `ZCL_X=========================` (padded with `=` to 30 characters).
pub fn pad30(name: &str) -> String {
    format!("{name:=<30}")
}

/// Main program of a class pool.
pub fn class_pool_program(class: &str) -> String {
    format!("{}CP", pad30(class))
}

/// 3-character base-36 counter of method includes (`001`, …, `00Z`, `010`).
fn base36(mut n: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut s = [b'0'; 3];
    for slot in s.iter_mut().rev() {
        *slot = DIGITS[n % 36];
        n /= 36;
    }
    String::from_utf8_lossy(&s).into_owned()
}

fn first_kw(st: &Statement) -> String {
    st.tokens
        .first()
        .and_then(Token::word)
        .map(str::to_ascii_uppercase)
        .unwrap_or_default()
}

fn is_assignment(st: &Statement) -> bool {
    st.tokens
        .get(1)
        .and_then(Token::word)
        .is_some_and(|w| matches!(w, "=" | "+=" | "-=" | "*=" | "/=" | "?="))
        || crate::offset_length::assignment_target(&st.tokens).is_some()
        || inline_decl(&st.tokens)
            .is_some_and(|(_, n)| st.tokens.get(n).and_then(Token::word) == Some("="))
}

/// `DATA(x)` / `FINAL(x)` at the start of `toks`: the name and the number of tokens.
pub fn inline_decl(toks: &[Token]) -> Option<(String, usize)> {
    let kw = toks.first()?;
    if !(kw.is_kw("DATA") || kw.is_kw("FINAL")) {
        return None;
    }
    let open = toks.get(1)?;
    if open.kind != TokenKind::LParen || open.space_before {
        return None;
    }
    let name = toks.get(2)?.word()?.to_ascii_uppercase();
    if !is_name(&name) || toks.get(3)?.kind != TokenKind::RParen {
        return None;
    }
    Some((name, 4))
}

/// The statement's keyword(s) for "not supported" messages (`LOOP AT`, `SELECT SINGLE`).
fn keywords(st: &Statement) -> String {
    const SECOND: &[&str] = &[
        "AT",
        "TABLE",
        "FUNCTION",
        "METHOD",
        "OBJECT",
        "EXCEPTION",
        "SINGLE",
        "LINES",
        "INITIAL",
        "ADJACENT",
        "REFERENCE",
        "SCREEN",
        "TRANSACTION",
        "EVENT",
        "COMPONENT",
        "CORRESPONDING",
        "WORK",
        "TRANSFORMATION",
        "DATA",
        "OF",
        "TYPE",
    ];
    let mut out = st.tokens.first().map(describe).unwrap_or_default();
    if let Some(w) = st.tokens.get(1).and_then(Token::word)
        && SECOND.iter().any(|k| w.eq_ignore_ascii_case(k))
    {
        out.push(' ');
        out.push_str(&w.to_ascii_uppercase());
    }
    out
}

struct Parser<'a> {
    file: &'a str,
    stmts: Vec<Statement>,
    pos: usize,
}

/// Which object and source part a file is.
#[derive(Debug, Clone)]
pub struct SourceCtx {
    /// Object name, upper case.
    pub object: String,
    pub kind: ObjectKind,
    pub part: SourcePart,
    /// File name for error messages.
    pub file: String,
}

impl SourceCtx {
    /// Main program of the object (`ZCL_X=====CP`, `ZREPORT`).
    pub fn program(&self) -> String {
        match self.kind {
            ObjectKind::Class => class_pool_program(&self.object),
            ObjectKind::Interface => format!("{}IP", pad30(&self.object)),
            ObjectKind::Program => self.object.clone(),
        }
    }

    /// Key of a class declared in this source.
    fn class_key(&self, name: &str) -> String {
        if self.kind == ObjectKind::Class && self.part == SourcePart::Main && name == self.object
            || self.kind == ObjectKind::Interface && name == self.object
        {
            name.to_string()
        } else {
            local_class_key(&self.program(), name)
        }
    }

    /// Include of code outside method includes.
    fn include(&self) -> String {
        match (self.kind, self.part) {
            (ObjectKind::Program, _) => self.object.clone(),
            (ObjectKind::Interface, _) => format!("{}IU", pad30(&self.object)),
            (_, SourcePart::Definitions) => format!("{}CCDEF", pad30(&self.object)),
            (_, SourcePart::TestClasses) => format!("{}CCAU", pad30(&self.object)),
            _ => format!("{}CCIMP", pad30(&self.object)),
        }
    }
}

/// Key of a local class `name` of main program `program`.
pub fn local_class_key(program: &str, name: &str) -> String {
    format!("\\PROGRAM={program}\\CLASS={name}")
}

/// Key of the pseudo class holding a program's globals, events and forms.
pub fn program_key(program: &str) -> String {
    format!("\\PROGRAM={program}")
}

/// What one source file declares: classes (definitions merged with implementations found in
/// the same file) and implementations of classes defined elsewhere (`locals_imp` implements
/// what `locals_def` defines).
#[derive(Debug, Default, Clone)]
pub struct Parsed {
    pub classes: Vec<ClassDef>,
    /// `(class key, implementation)` for classes not defined in this file.
    pub foreign_impls: Vec<(String, MethodImpl)>,
}

/// Event keywords that start an event block of a report.
const EVENTS: &[&str] = &[
    "LOAD-OF-PROGRAM",
    "INITIALIZATION",
    "START-OF-SELECTION",
    "END-OF-SELECTION",
    "AT",
    "TOP-OF-PAGE",
    "END-OF-PAGE",
];

/// Statements that end an event block (the next block starts).
const BLOCK_STARTS: &[&str] = &[
    "LOAD-OF-PROGRAM",
    "INITIALIZATION",
    "START-OF-SELECTION",
    "END-OF-SELECTION",
    "AT",
    "TOP-OF-PAGE",
    "END-OF-PAGE",
    "FORM",
    "CLASS",
    "INTERFACE",
    "MODULE",
];

/// Parses one source file of an object.
pub fn parse_source(ctx: &SourceCtx, text: &str) -> Result<Parsed, LoadError> {
    let tokens = lex(text).map_err(|e| LoadError::Syntax {
        file: ctx.file.clone(),
        line: e.line,
        message: e.message,
    })?;
    let stmts = split(tokens).map_err(|e| LoadError::Syntax {
        file: ctx.file.clone(),
        line: e.line,
        message: "statement is not terminated by a period".into(),
    })?;
    let mut p = Parser {
        file: &ctx.file,
        stmts,
        pos: 0,
    };
    p.source(ctx)
}

fn word_at(st: &Statement, i: usize) -> String {
    st.tokens
        .get(i)
        .and_then(Token::word)
        .map(str::to_ascii_uppercase)
        .unwrap_or_default()
}

impl<'a> Parser<'a> {
    fn err(&self, line: u32, message: impl Into<String>) -> LoadError {
        LoadError::Syntax {
            file: self.file.to_string(),
            line,
            message: message.into(),
        }
    }

    fn next(&mut self) -> Option<Statement> {
        let s = self.stmts.get(self.pos).cloned();
        if s.is_some() {
            self.pos += 1;
        }
        s
    }

    fn source(&mut self, ctx: &SourceCtx) -> Result<Parsed, LoadError> {
        let mut out = Parsed::default();
        let program = ctx.program();
        let mut prog = ClassDef::new(&ctx.object, &program_key(&program), &program);
        prog.def_part = ctx.part;
        let mut impls: Vec<(String, MethodImpl)> = Vec::new();
        let mut cm_counter = 0usize;
        let mut tbuild = TypeBuilder::default();
        let mut dbuild = TypeBuilder::default();
        while let Some(st) = self.next() {
            let kw = first_kw(&st);
            let rest = st.tokens.get(1..).unwrap_or(&[]);
            if ctx.kind == ObjectKind::Program
                && (kw == "TYPES" || (kw == "INCLUDE" && tbuild.open()))
            {
                let toks = if kw == "TYPES" { rest } else { &st.tokens[..] };
                if let Some((n, t, _)) = tbuild.feed(toks) {
                    prog.types.push((n, t));
                }
                continue;
            }
            if ctx.kind == ObjectKind::Program
                && matches!(kw.as_str(), "DATA" | "STATICS" | "CLASS-DATA" | "CONSTANTS")
                && (dbuild.open() || word_at(&st, 1) == "BEGIN")
            {
                if let Some((name, ty, value)) = dbuild.feed(rest) {
                    let mut d = struct_decl(name, ty, st.line, true);
                    d.is_constant = kw == "CONSTANTS";
                    d.value = value;
                    prog.attributes.push(d);
                }
                continue;
            }
            match kw.as_str() {
                "CLASS" => {
                    let name = word_at(&st, 1);
                    let what = word_at(&st, 2);
                    match what.as_str() {
                        "DEFINITION"
                            if st
                                .tokens
                                .get(3)
                                .is_some_and(|t| t.is_kw("DEFERRED") || t.is_kw("LOAD")) => {}
                        "DEFINITION" => {
                            let mut class = ClassDef::new(&name, &ctx.class_key(&name), &program);
                            class.def_line = st.line;
                            class.def_part = ctx.part;
                            class_options(&st, &mut class);
                            self.definition(&mut class, "ENDCLASS")?;
                            out.classes.push(class);
                        }
                        "IMPLEMENTATION" => {
                            let key = ctx.class_key(&name);
                            let global = key == name;
                            let methods = self.implementation(ctx, global, &mut cm_counter)?;
                            impls.extend(methods.into_iter().map(|m| (key.clone(), m)));
                        }
                        _ => {
                            return Err(
                                self.err(st.line, "CLASS needs DEFINITION or IMPLEMENTATION")
                            );
                        }
                    }
                }
                "INTERFACE" => {
                    let name = word_at(&st, 1);
                    if st
                        .tokens
                        .get(2)
                        .is_some_and(|t| t.is_kw("DEFERRED") || t.is_kw("LOAD"))
                    {
                        continue;
                    }
                    let mut intf = ClassDef::new(&name, &ctx.class_key(&name), &program);
                    intf.is_interface = true;
                    intf.def_line = st.line;
                    intf.def_part = ctx.part;
                    self.definition(&mut intf, "ENDINTERFACE")?;
                    out.classes.push(intf);
                }
                "FORM" if ctx.kind == ObjectKind::Program => {
                    let (decl, imp) = self.form(ctx, &st)?;
                    prog.methods.push(decl);
                    prog.implementations.push(imp);
                }
                "DATA" | "CONSTANTS" | "STATICS" | "PARAMETERS" | "CLASS-DATA"
                    if ctx.kind == ObjectKind::Program =>
                {
                    if let Some(mut d) = data_decl(&st) {
                        d.is_static = true;
                        d.is_constant = kw == "CONSTANTS";
                        prog.attributes.push(d);
                    }
                }
                "DEFINE" => {
                    while let Some(s) = self.next() {
                        if first_kw(&s) == "END-OF-DEFINITION" {
                            break;
                        }
                    }
                }
                "REPORT" | "PROGRAM" | "TYPES" | "TYPE-POOLS" | "TABLES" | "SELECTION-SCREEN"
                | "SELECT-OPTIONS" | "INCLUDE" => {}
                "FIELD-SYMBOLS" => {
                    if let Some(n) = st.tokens.get(1).and_then(Token::word) {
                        prog.field_symbols.push(n.to_ascii_uppercase());
                    }
                }
                _ if ctx.kind == ObjectKind::Program => {
                    // An event block; statements before any event belong to
                    // START-OF-SELECTION.
                    let (name, line) = if EVENTS.contains(&kw.as_str()) {
                        let mut name = kw.clone();
                        if kw == "AT" {
                            name = st
                                .tokens
                                .iter()
                                .filter_map(Token::word)
                                .map(str::to_ascii_uppercase)
                                .collect::<Vec<_>>()
                                .join(" ");
                        }
                        (name, st.line)
                    } else {
                        self.pos -= 1;
                        ("START-OF-SELECTION".to_string(), st.line)
                    };
                    let place = Place {
                        object: ctx.object.clone(),
                        kind: ctx.kind,
                        part: ctx.part,
                        program: program.clone(),
                        include: ctx.include(),
                        include_start: None,
                        event_type: "EVENT",
                    };
                    let mut body_parser = Body::new(self);
                    let (body, end) = body_parser.block(BLOCK_STARTS)?;
                    let locals = std::mem::take(&mut body_parser.locals);
                    prog.types.append(&mut body_parser.types);
                    let field_symbols = std::mem::take(&mut body_parser.field_symbols);
                    if end.is_some() {
                        self.pos -= 1;
                    }
                    // Data declared in event blocks is global.
                    for mut d in locals {
                        d.is_static = true;
                        prog.attributes.push(d);
                    }
                    prog.implementations.push(MethodImpl {
                        name,
                        place,
                        method_line: line,
                        end_line: None,
                        locals: Vec::new(),
                        types: Vec::new(),
                        field_symbols,
                        body,
                    });
                }
                _ => {} // e.g. a stray pragma statement; nothing to execute at top level
            }
        }
        // Attach implementations to the classes of this file; keep the others.
        for (key, imp) in impls {
            match out.classes.iter_mut().find(|c| c.key == key) {
                Some(c) => c.implementations.push(imp),
                None => out.foreign_impls.push((key, imp)),
            }
        }
        if ctx.kind == ObjectKind::Program {
            out.classes.push(prog);
        }
        Ok(out)
    }

    /// `FORM name [TABLES …] [USING …] [CHANGING …]. … ENDFORM.`
    fn form(
        &mut self,
        ctx: &SourceCtx,
        st: &Statement,
    ) -> Result<(MethodDecl, MethodImpl), LoadError> {
        let name = word_at(st, 1);
        let decl = form_decl(st, &name);
        let mut body_parser = Body::new(self);
        let (body, end) = body_parser.block(&["ENDFORM"])?;
        let locals = std::mem::take(&mut body_parser.locals);
        let types = std::mem::take(&mut body_parser.types);
        let field_symbols = std::mem::take(&mut body_parser.field_symbols);
        let Some(end) = end else {
            return Err(self.err(st.line, "FORM without ENDFORM"));
        };
        let imp = MethodImpl {
            name,
            place: Place {
                object: ctx.object.clone(),
                kind: ctx.kind,
                part: ctx.part,
                program: ctx.program(),
                include: ctx.include(),
                include_start: None,
                event_type: "FORM",
            },
            method_line: st.line,
            end_line: Some(end.line),
            locals,
            types,
            field_symbols,
            body,
        };
        Ok((decl, imp))
    }

    fn definition(&mut self, class: &mut ClassDef, end_kw: &str) -> Result<(), LoadError> {
        let mut vis = Visibility::Public;
        let start = self.pos;
        let mut tbuild = TypeBuilder::default();
        let mut dbuild = TypeBuilder::default();
        while let Some(st) = self.next() {
            let kw = first_kw(&st);
            let rest = st.tokens.get(1..).unwrap_or(&[]);
            if kw == "TYPES" || (kw == "INCLUDE" && tbuild.open()) {
                let toks = if kw == "TYPES" { rest } else { &st.tokens[..] };
                if let Some((n, t, _)) = tbuild.feed(toks) {
                    class.types.push((n, t));
                }
                continue;
            }
            if matches!(kw.as_str(), "DATA" | "CLASS-DATA" | "CONSTANTS")
                && (dbuild.open() || word_at(&st, 1) == "BEGIN")
            {
                if let Some((name, ty, value)) = dbuild.feed(rest) {
                    let mut d = struct_decl(name, ty, st.line, kw != "DATA");
                    d.visibility = vis;
                    d.is_constant = kw == "CONSTANTS";
                    d.value = value;
                    class.attributes.push(d);
                }
                continue;
            }
            let second = st
                .tokens
                .get(1)
                .and_then(Token::word)
                .map(str::to_ascii_uppercase);
            match kw.as_str() {
                k if k == end_kw => return Ok(()),
                "PUBLIC" | "PROTECTED" | "PRIVATE" if second.as_deref() == Some("SECTION") => {
                    vis = match kw.as_str() {
                        "PUBLIC" => Visibility::Public,
                        "PROTECTED" => Visibility::Protected,
                        _ => Visibility::Private,
                    };
                }
                "INTERFACES" => {
                    if let Some(n) = second {
                        class.interfaces.push(n);
                    }
                }
                "ALIASES" if word_at(&st, 2) == "FOR" => {
                    if let Some(n) = second {
                        class.aliases.push((n, word_at(&st, 3)));
                    }
                }
                // A redefinition keeps the inherited signature.
                "METHODS" if st.tokens.iter().any(|t| t.is_kw("REDEFINITION")) => {}
                "METHODS" | "CLASS-METHODS" => {
                    if let Some(mut m) = method_decl(&st, kw == "CLASS-METHODS") {
                        if class.is_interface {
                            m.is_abstract = true;
                        }
                        class.methods.push(m);
                    }
                }
                "DATA" | "CLASS-DATA" | "CONSTANTS" => {
                    if let Some(mut d) = data_decl(&st) {
                        d.is_static = kw != "DATA";
                        d.is_constant = kw == "CONSTANTS";
                        d.visibility = vis;
                        class.attributes.push(d);
                    }
                }
                _ => {} // TYPES, ALIASES, EVENTS, …: nothing to run
            }
        }
        let line = self
            .stmts
            .get(start.saturating_sub(1))
            .map_or(1, |s| s.line);
        Err(self.err(line, format!("definition without {end_kw}")))
    }

    fn implementation(
        &mut self,
        ctx: &SourceCtx,
        global: bool,
        cm_counter: &mut usize,
    ) -> Result<Vec<MethodImpl>, LoadError> {
        let start_line = self
            .stmts
            .get(self.pos.saturating_sub(1))
            .map_or(1, |s| s.line);
        let mut out = Vec::new();
        while let Some(st) = self.next() {
            match first_kw(&st).as_str() {
                "ENDCLASS" => return Ok(out),
                "METHOD" => {
                    let name = st
                        .tokens
                        .get(1)
                        .and_then(Token::word)
                        .map(str::to_ascii_uppercase)
                        .ok_or_else(|| self.err(st.line, "METHOD without a name"))?;
                    let (include, include_start) = if global {
                        *cm_counter += 1;
                        (
                            format!("{}CM{}", pad30(&ctx.object), base36(*cm_counter)),
                            Some(st.line),
                        )
                    } else {
                        (ctx.include(), None)
                    };
                    let mut body_parser = Body::new(self);
                    let amdp = st.tokens.len() > 2;
                    let (mut body, end) = body_parser.block(&["ENDMETHOD"])?;
                    let locals = std::mem::take(&mut body_parser.locals);
                    let types = std::mem::take(&mut body_parser.types);
                    let field_symbols = std::mem::take(&mut body_parser.field_symbols);
                    let Some(end) = end else {
                        return Err(self.err(st.line, "METHOD without ENDMETHOD"));
                    };
                    if amdp {
                        // `METHOD m BY DATABASE PROCEDURE …`: not ABAP inside.
                        body = vec![Stmt {
                            line: st.line,
                            kind: StmtKind::Unsupported {
                                what: "METHOD BY DATABASE PROCEDURE".into(),
                                stop: false,
                            },
                        }];
                    }
                    out.push(MethodImpl {
                        name,
                        place: Place {
                            object: ctx.object.clone(),
                            kind: ctx.kind,
                            part: ctx.part,
                            program: ctx.program(),
                            include,
                            include_start,
                            event_type: "METHOD",
                        },
                        method_line: st.line,
                        end_line: Some(end.line),
                        locals,
                        types,
                        field_symbols,
                        body,
                    });
                }
                _ => {}
            }
        }
        Err(self.err(start_line, "CLASS IMPLEMENTATION without ENDCLASS"))
    }
}

/// Options of `CLASS x DEFINITION …`.
fn class_options(st: &Statement, class: &mut ClassDef) {
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
fn form_decl(st: &Statement, name: &str) -> MethodDecl {
    let toks = st.tokens.get(2..).unwrap_or(&[]);
    let mut params = Vec::new();
    let mut section: Option<ParamKind> = None;
    let mut i = 0;
    while let Some(t) = toks.get(i) {
        let w = t.word().map(str::to_ascii_uppercase).unwrap_or_default();
        match w.as_str() {
            "USING" | "TABLES" => {
                section = Some(ParamKind::Importing);
                i += 1;
                continue;
            }
            "CHANGING" => {
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
            (word_of(toks.get(i + 2)), w == "VALUE", i + 4)
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
        }
        if is_name(&pname) {
            // `USING` without VALUE is by reference: written back like CHANGING.
            let kind = if kind == ParamKind::Importing && !by_value {
                ParamKind::Changing
            } else {
                kind
            };
            params.push(ParamDecl {
                name: pname,
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

fn word_of(t: Option<&Token>) -> String {
    t.and_then(Token::word)
        .map(str::to_ascii_uppercase)
        .unwrap_or_default()
}

/// Parses a method body (statements between `METHOD` and `ENDMETHOD`).
struct Body<'p, 'a> {
    p: &'p mut Parser<'a>,
    locals: Vec<DataDecl>,
    depth: usize,
    types: Vec<(String, TypeSpec)>,
    field_symbols: Vec<String>,
    tbuild: TypeBuilder,
    dbuild: TypeBuilder,
    /// The keyword that opened the structure `dbuild` is building (`DATA`, `STATICS`,
    /// `CONSTANTS`).
    dbuild_kind: String,
    /// Targets of the `LOOP`s around the statement being parsed (for `AT NEW` and `SUM`).
    loop_targets: Vec<crate::ast::RowTarget>,
    /// Levels of the `AT … ENDAT` blocks around the statement being parsed.
    at_levels: Vec<crate::control_levels::Level>,
}

impl<'p, 'a> Body<'p, 'a> {
    fn new(p: &'p mut Parser<'a>) -> Self {
        Body {
            p,
            locals: Vec::new(),
            depth: 0,
            types: Vec::new(),
            field_symbols: Vec::new(),
            tbuild: TypeBuilder::default(),
            dbuild: TypeBuilder::default(),
            dbuild_kind: String::new(),
            loop_targets: Vec::new(),
            at_levels: Vec::new(),
        }
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
}

impl TypeBuilder {
    /// True while a `BEGIN OF` is open.
    pub fn open(&self) -> bool {
        !self.stack.is_empty()
    }

    /// Feeds one statement (the tokens after `TYPES`/`DATA`); returns a finished top-level
    /// declaration: name and type (tables get their name).
    pub fn feed(&mut self, rest: &[Token]) -> Option<(String, TypeSpec, Option<Expr>)> {
        let w = |i: usize| word_of(rest.get(i));
        if w(0) == "BEGIN" && w(1) == "OF" {
            let err = (self.stack.len() >= MAX_STRUCT_DEPTH)
                .then(|| "structure nested too deeply".to_string());
            self.stack.push((w(2), Vec::new(), err));
            return None;
        }
        if w(0) == "END" && w(1) == "OF" {
            let (name, comps, err) = self.stack.pop()?;
            let ty = match err {
                Some(e) => Err(e),
                None => Ok(Type::Struct(std::sync::Arc::new(StructType {
                    name: name.clone(),
                    comps,
                }))),
            };
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

/// Block closers of the supported control structures; a stray one is a syntax error.
const CLOSERS: &[&str] = &[
    "ENDMETHOD",
    "ENDFORM",
    "ENDTRY",
    "CATCH",
    "CLEANUP",
    "ENDCLASS",
    "ENDIF",
    "ELSEIF",
    "ELSE",
    "ENDDO",
    "ENDWHILE",
    "WHEN",
    "ENDCASE",
    "ENDLOOP",
];

/// What [`Body::declaration`] made of a statement.
enum Declaration {
    /// Recorded as a local, a type or a field symbol.
    Recorded,
    /// A declaration the subset does not handle.
    Unsupported(Box<StmtKind>),
    /// Not a declaration.
    NotOne,
}

impl Body<'_, '_> {
    /// Statements up to one whose keyword is in `ends`; returns them and that statement.
    fn block(&mut self, ends: &[&str]) -> Result<(Vec<Stmt>, Option<Statement>), LoadError> {
        self.depth += 1;
        if self.depth > MAX_BLOCK_DEPTH {
            let line = self.p.stmts.get(self.p.pos).map_or(1, |s| s.line);
            return Err(self.p.err(line, "blocks nested too deeply"));
        }
        let mut out = Vec::new();
        while let Some(st) = self.p.next() {
            let kw = first_kw(&st);
            if !is_assignment(&st) {
                if ends.contains(&kw.as_str()) {
                    self.depth -= 1;
                    return Ok((out, Some(st)));
                }
                if (kw == "ENDMETHOD" && self.depth > 1) || kw == "ENDCLASS" {
                    // Leave it to the enclosing block; the caller reports the open block.
                    self.p.pos -= 1;
                    self.depth -= 1;
                    return Ok((out, None));
                }
                if CLOSERS.contains(&kw.as_str()) {
                    return Err(self.p.err(st.line, format!("unexpected {kw}")));
                }
            }
            if let Some(s) = self.statement(st, &kw)? {
                out.push(s);
            }
        }
        self.depth -= 1;
        Ok((out, None))
    }

    fn required_block(
        &mut self,
        opener: &Statement,
        ends: &[&str],
    ) -> Result<(Vec<Stmt>, Statement), LoadError> {
        let (body, end) = self.block(ends)?;
        match end {
            Some(e) => Ok((body, e)),
            None => Err(self.p.err(
                opener.line,
                format!(
                    "{} without {}",
                    first_kw(opener),
                    ends.last().copied().unwrap_or("end")
                ),
            )),
        }
    }

    /// One statement. Block statements recurse through [`Body::block`] once per nesting level,
    /// so this dispatcher and each block parser keep only their own temporaries (each is a
    /// separate, non-inlined function): deep nesting then ends at the nesting limit, not in a
    /// stack overflow (23 KiB per level once overflowed a test thread's 2 MiB at 64 levels).
    fn statement(&mut self, st: Statement, kw: &str) -> Result<Option<Stmt>, LoadError> {
        let line = st.line;
        // One call and one `?` here: in debug builds every arm's temporaries would take room in
        // this frame, which recurses once per nesting level.
        let kind = if is_assignment(&st) {
            assignment(&st)
        } else {
            match self.non_assignment(&st, kw)? {
                Some(kind) => kind,
                None => return Ok(None),
            }
        };
        Ok(Some(Stmt { line, kind }))
    }

    /// A statement that is not an assignment; `None` for declarations, which are recorded
    /// rather than executed.
    #[inline(never)]
    fn non_assignment(&mut self, st: &Statement, kw: &str) -> Result<Option<StmtKind>, LoadError> {
        let block = match kw {
            "IF" => self.if_block(st),
            "DO" => self.do_block(st),
            "WHILE" => self.while_block(st),
            "CASE" => self.case(st),
            "TRY" => self.try_block(st),
            "LOOP" => self.loop_block(st),
            "AT" if matches!(word_at(st, 1).as_str(), "FIRST" | "LAST" | "NEW" | "END") => {
                self.at_block(st)
            }
            _ => {
                return Ok(match self.declaration(st, kw) {
                    Declaration::Recorded => None,
                    Declaration::Unsupported(k) => Some(*k),
                    Declaration::NotOne => Some(self.simple_statement(st, kw)),
                });
            }
        };
        block.map(Some)
    }

    /// Declarations are collected into the procedure's locals and types, not into statements.
    #[inline(never)]
    fn declaration(&mut self, st: &Statement, kw: &str) -> Declaration {
        let line = st.line;
        let rest = st.tokens.get(1..).unwrap_or(&[]);
        match kw {
            "INCLUDE" if self.tbuild.open() || self.dbuild.open() => {
                let b = if self.tbuild.open() {
                    &mut self.tbuild
                } else {
                    &mut self.dbuild
                };
                b.feed(&st.tokens);
                Declaration::Recorded
            }
            "TYPES" => {
                if let Some((n, t, _)) = self.tbuild.feed(rest) {
                    self.types.push((n, t));
                }
                Declaration::Recorded
            }
            "DATA" | "STATICS" | "CONSTANTS" if self.dbuild.open() || word_at(st, 1) == "BEGIN" => {
                if !self.dbuild.open() {
                    self.dbuild_kind = kw.to_string();
                }
                if let Some((name, ty, value)) = self.dbuild.feed(rest) {
                    let mut d = struct_decl(name, ty, line, false);
                    d.is_static = self.dbuild_kind == "STATICS";
                    d.is_constant = self.dbuild_kind == "CONSTANTS";
                    d.value = value;
                    self.locals.push(d);
                }
                Declaration::Recorded
            }
            "FIELD-SYMBOLS" => {
                if let Some(n) = rest.first().and_then(Token::word) {
                    self.field_symbols.push(n.to_ascii_uppercase());
                }
                Declaration::Recorded
            }
            "DATA" | "CONSTANTS" | "STATICS" => match data_decl(st) {
                Some(mut d) if d.ty.is_ok() => {
                    d.is_constant = kw == "CONSTANTS";
                    // STATICS: one data object per procedure, kept between calls.
                    d.is_static = kw == "STATICS";
                    self.locals.push(d);
                    Declaration::Recorded
                }
                _ => Declaration::Unsupported(Box::new(unsupported(st, false))),
            },
            "TYPE-POOLS" | "CLASS-DATA" => {
                Declaration::Unsupported(Box::new(unsupported(st, false)))
            }
            _ => Declaration::NotOne,
        }
    }

    /// Statements without blocks of their own, and the table-loop statements that depend on the
    /// enclosing loop (`SUM`).
    #[inline(never)]
    fn simple_statement(&mut self, st: &Statement, kw: &str) -> StmtKind {
        let rest = st.tokens.get(1..).unwrap_or(&[]);
        match kw {
            "SUM" if rest.is_empty() => match (self.at_levels.last(), self.loop_targets.last()) {
                (Some(level), Some(target)) => StmtKind::TableOp(Box::new(
                    crate::itab_ops::TableOp::Sum(Box::new(crate::control_levels::SumStmt {
                        level: level.clone(),
                        target: target.clone(),
                    })),
                )),
                _ => unsupported(st, true),
            },
            _ if let Some(kind) = leaf_statement(st, kw, rest) => kind,
            _ => unsupported(st, !kw.starts_with("END")),
        }
    }

    #[inline(never)]
    fn if_block(&mut self, st: &Statement) -> Result<StmtKind, LoadError> {
        let line = st.line;
        let rest = st.tokens.get(1..).unwrap_or(&[]);
        let mut branches = vec![(line, cond(rest), Vec::new())];
        let mut else_body = Vec::new();
        let mut opener = st.clone();
        loop {
            let (body, end) = self.required_block(&opener, &["ELSEIF", "ELSE", "ENDIF"])?;
            match first_kw(&end).as_str() {
                "ELSEIF" => {
                    if let Some(b) = branches.last_mut() {
                        b.2 = body;
                    }
                    branches.push((
                        end.line,
                        cond(end.tokens.get(1..).unwrap_or(&[])),
                        Vec::new(),
                    ));
                    opener = end;
                }
                "ELSE" => {
                    if let Some(b) = branches.last_mut() {
                        b.2 = body;
                    }
                    let (body, _) = self.required_block(&opener, &["ENDIF"])?;
                    else_body = body;
                    break;
                }
                _ => {
                    if let Some(b) = branches.last_mut() {
                        b.2 = body;
                    }
                    break;
                }
            }
        }
        Ok(StmtKind::If {
            branches,
            else_body,
        })
    }

    #[inline(never)]
    fn do_block(&mut self, st: &Statement) -> Result<StmtKind, LoadError> {
        let rest = st.tokens.get(1..).unwrap_or(&[]);
        let times = match rest {
            [] => None,
            [.., last] if last.is_kw("TIMES") => Some(
                parse_full_expr(&rest[..rest.len() - 1]).unwrap_or_else(|u| Expr::Unsupported(u.0)),
            ),
            _ => Some(Expr::Unsupported("DO VARYING".into())),
        };
        let (body, _) = self.required_block(st, &["ENDDO"])?;
        Ok(StmtKind::Do { times, body })
    }

    #[inline(never)]
    fn while_block(&mut self, st: &Statement) -> Result<StmtKind, LoadError> {
        let rest = st.tokens.get(1..).unwrap_or(&[]);
        let (body, _) = self.required_block(st, &["ENDWHILE"])?;
        Ok(StmtKind::While {
            cond: cond(rest),
            body,
        })
    }

    #[inline(never)]
    fn loop_block(&mut self, st: &Statement) -> Result<StmtKind, LoadError> {
        if crate::groups::group_by_at(&st.tokens).is_some() {
            let at = crate::groups::group_by_at(&st.tokens).unwrap_or_default();
            let parsed = crate::groups::parse_group_loop(&st.tokens, at);
            let (body, _) = self.required_block(st, &["ENDLOOP"])?;
            Ok(match parsed {
                Ok(mut g) => {
                    g.body = body;
                    StmtKind::TableOp(Box::new(crate::itab_ops::TableOp::GroupLoop(Box::new(g))))
                }
                Err(what) => StmtKind::Unsupported { what, stop: true },
            })
        } else {
            let group_members = word_at(st, 1) == "AT"
                && word_at(st, 2) == "GROUP"
                && !matches!(
                    word_at(st, 3).as_str(),
                    "" | "INTO"
                        | "ASSIGNING"
                        | "REFERENCE"
                        | "TRANSPORTING"
                        | "WHERE"
                        | "FROM"
                        | "TO"
                );
            let parsed = if group_members {
                crate::groups::parse_group_members_loop(&st.tokens)
            } else {
                crate::itab::parse_loop(&st.tokens)
            };
            self.loop_targets.push(match &parsed {
                Ok(crate::ast::TableStmt::Loop { target, .. }) => target.clone(),
                _ => crate::ast::RowTarget::None,
            });
            let block = self.required_block(st, &["ENDLOOP"]);
            self.loop_targets.pop();
            let (body, _) = block?;
            Ok(match parsed {
                Ok(crate::ast::TableStmt::Loop {
                    table,
                    target,
                    from,
                    to,
                    cond,
                    key,
                    ..
                }) => StmtKind::Table(Box::new(crate::ast::TableStmt::Loop {
                    table,
                    target,
                    from,
                    to,
                    cond,
                    key,
                    body,
                })),
                Ok(_) => unsupported(st, true),
                Err(what) => StmtKind::Unsupported { what, stop: true },
            })
        }
    }

    #[inline(never)]
    fn at_block(&mut self, st: &Statement) -> Result<StmtKind, LoadError> {
        let level = crate::control_levels::parse_level(&st.tokens);
        let target = self.loop_targets.last().cloned();
        if let Ok(l) = &level {
            self.at_levels.push(l.clone());
        }
        let block = self.required_block(st, &["ENDAT"]);
        if level.is_ok() {
            self.at_levels.pop();
        }
        let (body, _) = block?;
        Ok(match (level, target) {
            (Ok(level), Some(target)) => StmtKind::TableOp(Box::new(
                crate::itab_ops::TableOp::Control(Box::new(crate::control_levels::ControlLevel {
                    level,
                    target,
                    body,
                })),
            )),
            (Err(what), _) => StmtKind::Unsupported { what, stop: true },
            (Ok(_), None) => StmtKind::Unsupported {
                what: "AT outside LOOP".into(),
                stop: true,
            },
        })
    }

    fn try_block(&mut self, st: &Statement) -> Result<StmtKind, LoadError> {
        let (body, mut end) = self.required_block(st, &["CATCH", "CLEANUP", "ENDTRY"])?;
        let mut catches = Vec::new();
        let mut cleanup = None;
        loop {
            match first_kw(&end).as_str() {
                "CATCH" => {
                    let toks = end.tokens.get(1..).unwrap_or(&[]);
                    let mut classes = Vec::new();
                    let mut into = None;
                    let mut into_decl = false;
                    let mut i = 0;
                    while let Some(t) = toks.get(i) {
                        if t.is_kw("BEFORE") && toks.get(i + 1).is_some_and(|t| t.is_kw("UNWIND")) {
                            i += 2;
                            continue;
                        }
                        if t.is_kw("INTO") {
                            let target = toks.get(i + 1..).unwrap_or(&[]);
                            if let Some((name, _)) = inline_decl(target) {
                                into_decl = true;
                                into = parse_path(&name);
                            } else {
                                into = target.first().and_then(Token::word).and_then(parse_path);
                            }
                            break;
                        }
                        if let Some(w) = t.word() {
                            classes.push(w.to_ascii_uppercase());
                        }
                        i += 1;
                    }
                    let (cbody, next) = self.required_block(st, &["CATCH", "CLEANUP", "ENDTRY"])?;
                    catches.push(CatchClause {
                        line: end.line,
                        classes,
                        into,
                        into_decl,
                        body: cbody,
                    });
                    end = next;
                }
                "CLEANUP" => {
                    let into = end.tokens.get(2).and_then(Token::word).and_then(parse_path);
                    let (cbody, next) = self.required_block(st, &["ENDTRY"])?;
                    cleanup = Some((end.line, into, cbody));
                    end = next;
                }
                _ => break,
            }
        }
        Ok(StmtKind::Try {
            body,
            catches,
            cleanup,
        })
    }

    fn case(&mut self, st: &Statement) -> Result<StmtKind, LoadError> {
        if word_at(st, 1) == "TYPE" && word_at(st, 2) == "OF" {
            return self.case_type(st);
        }
        let subject = parse_full_expr(st.tokens.get(1..).unwrap_or(&[]))
            .unwrap_or_else(|u| Expr::Unsupported(u.0));
        let (before, mut end) = self.required_block(st, &["WHEN", "ENDCASE"])?;
        if let Some(s) = before.first() {
            return Err(self.p.err(s.line, "statement between CASE and WHEN"));
        }
        let mut whens = Vec::new();
        while first_kw(&end) == "WHEN" {
            let toks = end.tokens.get(1..).unwrap_or(&[]);
            let alts = if toks.len() == 1 && toks[0].is_kw("OTHERS") {
                Vec::new()
            } else {
                when_alternatives(toks)
            };
            let (body, next) = self.required_block(st, &["WHEN", "ENDCASE"])?;
            whens.push((end.line, alts, body));
            end = next;
        }
        Ok(StmtKind::Case { subject, whens })
    }
}

impl Body<'_, '_> {
    /// `CASE TYPE OF oref. WHEN TYPE class [INTO target]. … [WHEN OTHERS. …] ENDCASE.`
    fn case_type(&mut self, st: &Statement) -> Result<StmtKind, LoadError> {
        let (before, mut end) = self.required_block(st, &["WHEN", "ENDCASE"])?;
        if let Some(s) = before.first() {
            return Err(self.p.err(s.line, "statement between CASE and WHEN"));
        }
        let mut whens = Vec::new();
        while first_kw(&end) == "WHEN" {
            let when = crate::oo::parse_when_type(&end.tokens);
            let (body, next) = self.required_block(st, &["WHEN", "ENDCASE"])?;
            whens.push(crate::oo::WhenType {
                line: end.line,
                when,
                body,
            });
            end = next;
        }
        Ok(crate::oo::case_type(
            st.tokens.get(3..).unwrap_or(&[]),
            whens,
        ))
    }
}

fn when_alternatives(toks: &[Token]) -> Vec<Expr> {
    let mut p = ExprParser::new(toks);
    let mut alts = Vec::new();
    loop {
        match p.expr() {
            Ok(e) => alts.push(e),
            Err(u) => return vec![Expr::Unsupported(u.0)],
        }
        if p.at_end() {
            return alts;
        }
        if !p.skip_kw("OR") {
            return vec![Expr::Unsupported("WHEN operand".into())];
        }
    }
}

/// `RAISE EXCEPTION TYPE cx [EXPORTING …]`, `RAISE EXCEPTION NEW cx( … )`, `RAISE EXCEPTION
/// obj`.
fn raise(st: &Statement) -> StmtKind {
    let toks = &st.tokens;
    if !toks.get(1).is_some_and(|t| t.is_kw("EXCEPTION")) {
        return unsupported(st, true);
    }
    let rest = toks.get(2..).unwrap_or(&[]);
    let expr = if rest.first().is_some_and(|t| t.is_kw("TYPE")) {
        let class = rest
            .get(1)
            .and_then(Token::word)
            .map(str::to_ascii_uppercase);
        let Some(class) = class.filter(|c| is_name(c)) else {
            return unsupported(st, true);
        };
        let args_toks = rest.get(2..).unwrap_or(&[]);
        let mut args = CallArgs::default();
        if let Some(first) = args_toks.first() {
            if first.is_kw("MESSAGE") || first.is_kw("USING") {
                return StmtKind::Unsupported {
                    what: "RAISE EXCEPTION … MESSAGE".into(),
                    stop: true,
                };
            }
            match parse_call_args(args_toks) {
                Ok(a) => args = a,
                Err(u) => {
                    return StmtKind::Unsupported {
                        what: u.0,
                        stop: true,
                    };
                }
            }
        }
        Expr::New {
            class,
            args: Box::new(args),
        }
    } else {
        match parse_full_expr(rest) {
            Ok(e) => e,
            Err(u) => {
                return StmtKind::Unsupported {
                    what: u.0,
                    stop: true,
                };
            }
        }
    };
    StmtKind::Raise(Box::new(expr))
}

/// `MESSAGE e001(zmsg) [WITH …]`, `MESSAGE ID 'Z' TYPE 'E' NUMBER '001' [WITH …]`, `MESSAGE
/// 'text' TYPE 'I' [DISPLAY LIKE 'E']`, `… INTO target`.
fn message(st: &Statement) -> StmtKind {
    let toks = st.tokens.get(1..).unwrap_or(&[]);
    let mut m = MessageStmt {
        id: None,
        number: None,
        msg_type: None,
        text: None,
        type_expr: None,
        with: Vec::new(),
        into: None,
    };
    let bad = |what: &str| StmtKind::Unsupported {
        what: format!("MESSAGE {what}"),
        stop: true,
    };
    let mut i;
    let lit = |t: Option<&Token>| -> Option<String> {
        match &t?.kind {
            TokenKind::CharLit(s) | TokenKind::StrLit(s) => Some(s.to_ascii_uppercase()),
            _ => None,
        }
    };
    // The message itself.
    match toks.first() {
        Some(t) if t.is_kw("ID") => {
            m.id = lit(toks.get(1));
            if m.id.is_none() {
                return bad("ID with a variable");
            }
            i = 2;
        }
        Some(t) => {
            // `e001(zmsg)`: a word glued to `(`.
            let short = t.word().and_then(|w| {
                let up = w.to_ascii_uppercase();
                let mut chars = up.chars();
                let ty = chars.next()?;
                let num: String = chars.collect();
                ("AEISWX".contains(ty) && num.len() == 3 && num.chars().all(|c| c.is_ascii_digit()))
                    .then_some((ty.to_string(), num))
            });
            let glued = toks
                .get(1)
                .is_some_and(|p| p.kind == TokenKind::LParen && !p.space_before);
            if let (Some((ty, num)), true) = (short, glued) {
                m.msg_type = Some(ty);
                m.number = Some(num);
                m.id = toks
                    .get(2)
                    .and_then(Token::word)
                    .map(str::to_ascii_uppercase);
                if !toks.get(3).is_some_and(|t| t.kind == TokenKind::RParen) {
                    return bad("short form");
                }
                i = 4;
            } else {
                // A text operand up to TYPE.
                let end = toks
                    .iter()
                    .position(|t| t.is_kw("TYPE"))
                    .unwrap_or(toks.len());
                match parse_full_expr(&toks[..end]) {
                    Ok(e) => m.text = Some(e),
                    Err(u) => return bad(&u.0),
                }
                m.id = Some(String::new());
                m.number = Some("000".into());
                i = end;
            }
        }
        None => return bad(""),
    }
    while let Some(t) = toks.get(i) {
        let w = t.word().map(str::to_ascii_uppercase).unwrap_or_default();
        match w.as_str() {
            "TYPE" => {
                match lit(toks.get(i + 1)) {
                    Some(ty) => m.msg_type = Some(ty),
                    None => match toks
                        .get(i + 1)
                        .map(|t| parse_full_expr(std::slice::from_ref(t)))
                    {
                        Some(Ok(e)) => m.type_expr = Some(e),
                        _ => return bad("TYPE"),
                    },
                }
                i += 2;
            }
            "NUMBER" => {
                m.number = lit(toks.get(i + 1)).or_else(|| {
                    toks.get(i + 1)
                        .and_then(Token::word)
                        .map(|w| format!("{:0>3}", w))
                });
                i += 2;
            }
            "DISPLAY" => i += 3,
            "INTO" => {
                m.into = toks.get(i + 1).and_then(Token::word).and_then(parse_path);
                if m.into.is_none() {
                    return bad("INTO");
                }
                i += 2;
            }
            "WITH" => {
                let mut p = ExprParser::new(toks.get(i + 1..).unwrap_or(&[]));
                while !p.at_end() && !p.peek_kw_any(&["INTO", "DISPLAY", "RAISING"]) {
                    match p.expr() {
                        Ok(e) => m.with.push(e),
                        Err(u) => return bad(&u.0),
                    }
                }
                i += 1 + p.position();
            }
            _ => return bad(&w),
        }
    }
    StmtKind::Message(Box::new(m))
}

/// `WRITE [AT] [/] operand [options]`.
fn write(st: &Statement) -> StmtKind {
    let mut toks = st.tokens.get(1..).unwrap_or(&[]);
    let mut newline = false;
    if toks.first().is_some_and(|t| t.is_kw("AT")) {
        toks = toks.get(1..).unwrap_or(&[]);
    }
    if toks.first().is_some_and(|t| t.word() == Some("/")) {
        newline = true;
        toks = toks.get(1..).unwrap_or(&[]);
    }
    if toks.is_empty() {
        return StmtKind::Write {
            newline,
            expr: None,
        };
    }
    match parse_full_expr(toks) {
        Ok(e) => StmtKind::Write {
            newline,
            expr: Some(e),
        },
        Err(_) => unsupported(st, true),
    }
}

/// `PERFORM form [USING a b] [CHANGING c]`.
fn perform(st: &Statement) -> StmtKind {
    let toks = st.tokens.get(1..).unwrap_or(&[]);
    let Some(form) = toks
        .first()
        .and_then(Token::word)
        .map(str::to_ascii_uppercase)
    else {
        return unsupported(st, true);
    };
    if !is_name(&form)
        || toks
            .get(1)
            .is_some_and(|t| t.is_kw("IN") || t.kind == TokenKind::LParen)
    {
        return unsupported(st, true);
    }
    let mut using = Vec::new();
    let mut changing = Vec::new();
    let mut section = "";
    let mut i = 1;
    while let Some(t) = toks.get(i) {
        if t.is_kw("USING") || t.is_kw("CHANGING") || t.is_kw("TABLES") {
            section = if t.is_kw("CHANGING") { "C" } else { "U" };
            i += 1;
            continue;
        }
        let Some(p) = t.word().and_then(parse_path) else {
            // Literals are only possible in USING.
            match (section, parse_full_expr(std::slice::from_ref(t))) {
                ("U", Ok(e)) => using.push(e),
                _ => return unsupported(st, true),
            }
            i += 1;
            continue;
        };
        match section {
            "U" => using.push(Expr::Path(p)),
            "C" => changing.push(p),
            _ => return unsupported(st, true),
        }
        i += 1;
    }
    StmtKind::Perform {
        form,
        using,
        changing,
    }
}

/// `CREATE OBJECT ref [TYPE cls] [EXPORTING …]`.
fn create_object(st: &Statement) -> StmtKind {
    let toks = st.tokens.get(2..).unwrap_or(&[]);
    let Some(target) = toks.first().and_then(Token::word).and_then(parse_path) else {
        return unsupported(st, true);
    };
    let mut rest = toks.get(1..).unwrap_or(&[]);
    let mut class = None;
    if rest.first().is_some_and(|t| t.is_kw("TYPE")) {
        match rest.get(1).and_then(Token::word) {
            Some(c) if is_name(&c.to_ascii_uppercase()) => class = Some(c.to_ascii_uppercase()),
            _ => {
                return StmtKind::Unsupported {
                    what: "CREATE OBJECT … TYPE (dynamic)".into(),
                    stop: true,
                };
            }
        }
        rest = rest.get(2..).unwrap_or(&[]);
    }
    match parse_call_args(rest) {
        Ok(args) => StmtKind::CreateObject {
            target,
            class,
            args,
        },
        Err(u) => StmtKind::Unsupported {
            what: u.0,
            stop: true,
        },
    }
}

/// `CALL METHOD ref->meth [EXPORTING …] [IMPORTING …]` / `CALL METHOD meth( … )`.
fn call_method(st: &Statement) -> StmtKind {
    let toks = st.tokens.get(2..).unwrap_or(&[]);
    let Some(first) = toks.first() else {
        return unsupported(st, true);
    };
    let glued = toks
        .get(1)
        .is_some_and(|t| t.kind == TokenKind::LParen && !t.space_before);
    let expr = if glued {
        parse_full_expr(toks)
    } else {
        // Rebuild as `meth( args )`.
        let mut v = vec![first.clone()];
        v.push(Token {
            kind: TokenKind::LParen,
            line: first.line,
            space_before: false,
        });
        v.extend(toks.get(1..).unwrap_or(&[]).iter().cloned());
        v.push(Token {
            kind: TokenKind::RParen,
            line: first.line,
            space_before: true,
        });
        parse_full_expr(&v)
    };
    match expr {
        Ok(Expr::Call(c)) => StmtKind::Call(*c),
        Ok(_) => unsupported(st, true),
        Err(u) => StmtKind::Unsupported {
            what: u.0,
            stop: true,
        },
    }
}

fn cond(toks: &[Token]) -> Cond {
    parse_full_cond(toks).unwrap_or_else(|u| Cond::Unsupported(u.0))
}

fn unsupported(st: &Statement, stop: bool) -> StmtKind {
    StmtKind::Unsupported {
        what: keywords(st),
        stop,
    }
}

/// A statement that is one method call: `meth( … ).`, `out->write( … )->write( … ).`
fn call_statement(st: &Statement) -> bool {
    matches!(st.tokens.get(1), Some(t) if t.kind == TokenKind::LParen && !t.space_before)
        && st
            .tokens
            .first()
            .and_then(Token::word)
            .and_then(parse_path)
            .is_some()
}

fn assignment(st: &Statement) -> StmtKind {
    let toks = &st.tokens;
    if let Some((target, used)) = crate::offset_length::assignment_target(toks) {
        return match parse_full_expr(toks.get(used + 1..).unwrap_or(&[])) {
            Ok(expr) => StmtKind::AssignSub {
                target: Box::new(target),
                expr,
            },
            Err(Unsup(what)) => StmtKind::Unsupported { what, stop: true },
        };
    }
    if let Some((name, n)) = inline_decl(toks) {
        return match parse_full_expr(toks.get(n + 1..).unwrap_or(&[])) {
            Ok(expr) => StmtKind::Assign {
                target: Path {
                    base: name,
                    rest: Vec::new(),
                },
                op: AssignOp::Declare,
                expr,
            },
            Err(Unsup(what)) => StmtKind::Unsupported { what, stop: true },
        };
    }
    let op = match toks.get(1).and_then(Token::word) {
        Some("=") => AssignOp::Set,
        Some("+=") => AssignOp::Add,
        Some("-=") => AssignOp::Sub,
        Some("*=") => AssignOp::Mul,
        Some("/=") => AssignOp::Div,
        // `a ?= b` is `a = CAST #( b )`.
        Some("?=") => AssignOp::Set,
        _ => {
            return StmtKind::Unsupported {
                what: "?=".into(),
                stop: true,
            };
        }
    };
    let Some(target) = toks.first().and_then(Token::word).and_then(parse_path) else {
        let what = toks.first().map(describe).unwrap_or_default();
        return StmtKind::Unsupported {
            what: format!("assignment target {what}"),
            stop: true,
        };
    };
    let cast = toks.get(1).and_then(Token::word) == Some("?=");
    match parse_full_expr(toks.get(2..).unwrap_or(&[])) {
        Ok(arg) if cast => StmtKind::Assign {
            target,
            op,
            expr: Expr::Ctor(Box::new(crate::constructors::Ctor::Cast { ty: None, arg })),
        },
        Ok(expr) => StmtKind::Assign { target, op, expr },
        Err(Unsup(what)) => StmtKind::Unsupported { what, stop: true },
    }
}

/// `DATA name TYPE … [LENGTH n] [DECIMALS d] [VALUE v] [READ-ONLY]`; `None` if there is no
/// name. An unsupported type gives `ty: Err(text)`.
fn data_decl(st: &Statement) -> Option<DataDecl> {
    let name_tok = st.tokens.get(1)?;
    let name = name_tok.word()?.to_ascii_uppercase();
    if !is_name(&name) {
        return None;
    }
    let rest = st.tokens.get(2..).unwrap_or(&[]);
    let (ty, value) = type_and_value(rest);
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
                let w = |k: usize| word_of(toks.get(i + k));
                if kw == "TYPE" && w(1) == "REF" && w(2) == "TO" {
                    let r = w(3);
                    if r.is_empty() {
                        return (bad(&toks[i..]), None);
                    }
                    if !is_name(&r) {
                        return (Err(format!("TYPE REF TO {r}")), None);
                    }
                    ty = Some(Ok(crate::refs::ref_to(&r)));
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
                    ty = Some(low.map(crate::ranges::range_type));
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
            _ => return (bad(&toks[i..]), None),
        }
    }
    if let Some(t) = ty {
        return (t, value);
    }
    let base = base.unwrap_or_else(|| "C".into());
    (elementary(&base, length, decimals), value)
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
    let w = |k: usize| word_of(toks.get(k));
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
            r if is_name(&r) => Ok(crate::refs::ref_to(&r)),
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
fn method_decl(st: &Statement, is_static: bool) -> Option<MethodDecl> {
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

/// Statements that contain no statements of their own (no blocks), parsed apart from
/// [`Body::statement`]: their large temporaries stay out of the frame that nests once per block
/// level, so deep nesting fails with the nesting limit, not with a stack overflow.
#[inline(never)]
fn leaf_statement(st: &Statement, kw: &str, rest: &[Token]) -> Option<StmtKind> {
    let kind = match kw {
        "RAISE" => raise(st),
        "MESSAGE" => message(st),
        "WRITE" if crate::write_to::is_write_to(rest) => match crate::write_to::parse(rest) {
            Ok(w) => StmtKind::Text(Box::new(crate::string_statements::TextStmt::WriteTo(w))),
            Err(Unsup(what)) => StmtKind::Unsupported { what, stop: true },
        },
        "WRITE" => write(st),
        "ULINE" => StmtKind::Uline,
        "SKIP" => match rest {
            [] => StmtKind::Skip(None),
            [t] => match parse_full_expr(std::slice::from_ref(t)) {
                Ok(e) => StmtKind::Skip(Some(e)),
                Err(u) => StmtKind::Unsupported {
                    what: u.0,
                    stop: true,
                },
            },
            _ => unsupported(st, true),
        },
        "NEW-LINE" if rest.is_empty() => StmtKind::NewLine,
        "PERFORM" => perform(st),
        "GET" if word_at(st, 1) == "TIME" && !call_statement(st) => {
            match crate::clock::parse_get_time(&st.tokens) {
                Ok(t) => StmtKind::Time(Box::new(t)),
                Err(what) => StmtKind::Unsupported { what, stop: true },
            }
        }
        "CONVERT" if matches!(word_at(st, 1).as_str(), "TIME" | "DATE") && !call_statement(st) => {
            match crate::clock::parse_convert(&st.tokens) {
                Ok(t) => StmtKind::Time(Box::new(t)),
                Err(what) => StmtKind::Unsupported { what, stop: true },
            }
        }
        "ASSIGN" | "UNASSIGN" | "GET" | "CREATE"
            if !call_statement(st)
                && match kw {
                    "CREATE" => word_at(st, 1) == "DATA",
                    "GET" => word_at(st, 1) == "REFERENCE",
                    _ => true,
                } =>
        {
            let parsed = match kw {
                "ASSIGN" => crate::refs::parse_assign(&st.tokens),
                "UNASSIGN" => crate::refs::parse_unassign(&st.tokens),
                "GET" => crate::refs::parse_get_reference(&st.tokens),
                _ => crate::refs::parse_create_data(&st.tokens),
            };
            match parsed {
                Ok(r) => StmtKind::Refs(Box::new(r)),
                Err(what) => StmtKind::Unsupported { what, stop: true },
            }
        }
        "CREATE" if st.tokens.get(1).is_some_and(|t| t.is_kw("OBJECT")) => create_object(st),
        "CALL" if st.tokens.get(1).is_some_and(|t| t.is_kw("METHOD")) => call_method(st),
        "CLEAR" => {
            let paths: Option<Vec<_>> = if rest.len() == 1 {
                rest[0].word().and_then(parse_path).map(|p| vec![p])
            } else {
                None
            };
            match paths {
                Some(p) => StmtKind::Clear(p),
                None => unsupported(st, true),
            }
        }
        "APPEND" | "INSERT" | "READ" | "MODIFY" | "DELETE" | "COLLECT" | "DESCRIBE"
            if let Some(op) = crate::itab_ops::parse(kw, &st.tokens) =>
        {
            match op {
                Ok(t) => StmtKind::TableOp(Box::new(t)),
                Err(_) => unsupported(st, true),
            }
        }
        // (`split( … ).` is a call of a method that happens to have that name.)
        "CONCATENATE" | "SPLIT" | "CONDENSE" | "REPLACE" | "FIND" | "TRANSLATE" | "SHIFT"
        | "OVERLAY" | "SEARCH"
            if !call_statement(st) =>
        {
            match crate::string_statements::parse(kw, rest) {
                Ok(t) => StmtKind::Text(Box::new(t)),
                Err(Unsup(what)) => StmtKind::Unsupported { what, stop: true },
            }
        }
        "APPEND" | "INSERT" | "READ" | "MODIFY" | "DELETE" | "SORT" | "REFRESH" | "FREE" => {
            match crate::itab::parse_table_stmt(kw, &st.tokens) {
                Ok(t) => StmtKind::Table(Box::new(t)),
                Err(_) => unsupported(st, true),
            }
        }
        "EXIT" if rest.is_empty() => StmtKind::Exit,
        "CONTINUE" if rest.is_empty() => StmtKind::Continue,
        "RETURN" if rest.is_empty() => StmtKind::Return,
        "CHECK" => StmtKind::Check(cond(rest)),
        "MOVE-CORRESPONDING" => match crate::constructors::move_corresponding(&st.tokens) {
            Ok(k) => k,
            Err(what) => StmtKind::Unsupported { what, stop: true },
        },
        // `NEW zcl_x( )->m( ).`, `CAST zcl_x( o )->m( ).`
        "NEW" | "CAST" => match parse_full_expr(&st.tokens) {
            Ok(Expr::Call(c)) => StmtKind::Call(*c),
            Ok(_) => unsupported(st, true),
            Err(u) => StmtKind::Unsupported {
                what: u.0,
                stop: true,
            },
        },
        _ if call_statement(st) => match parse_full_expr(&st.tokens) {
            Ok(Expr::Call(c)) => StmtKind::Call(*c),
            Ok(_) => unsupported(st, true),
            Err(u) => StmtKind::Unsupported {
                what: u.0,
                stop: true,
            },
        },
        _ => return None,
    };
    Some(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_counter() {
        assert_eq!(base36(1), "001");
        assert_eq!(base36(10), "00A");
        assert_eq!(base36(35), "00Z");
        assert_eq!(base36(36), "010");
        assert_eq!(
            class_pool_program("ZCL_ABAPDBG_DEMO"),
            "ZCL_ABAPDBG_DEMO==============CP"
        );
    }

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
