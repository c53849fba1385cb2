//! Statement parser: the statements of one source file → [`ClassDef`]s. This file holds the
//! object structure (classes, interfaces, reports with their event blocks, method and `FORM`
//! bodies); [`body`] parses the statements inside a body, [`declarations`] the declarative
//! statements, [`statements`] the statements without blocks, [`names`] the program and
//! include names.
//!
//! Structure errors (missing `ENDIF`, `METHOD` without `ENDMETHOD`) fail loading; statements
//! and expressions outside the subset become [`StmtKind::Unsupported`] so that only executing
//! them fails.

pub mod access;
mod body;
pub mod constructors;
pub mod cursor;
mod declarations;
pub mod dynamic;
pub mod expr;
pub mod function_call;
pub mod function_group;
pub mod group_key;
pub mod groups;
pub mod header_lines;
pub mod list;
mod names;
pub mod oo;
pub mod refs;
pub mod row_targets;
pub mod sql;
mod statements;
pub mod table_ops;
pub mod tables;
pub mod template;
pub mod text;
pub mod time;
/// The words every parser file shares (a leaf).
pub mod words;
pub mod write_to;

pub use declarations::{TypeBuilder, type_and_value};
pub use names::{class_pool_program, local_class_key, pad30, program_key};
pub use words::inline_decl;

use crate::ast::{ClassDef, Expr, MethodDecl, MethodImpl, Place, Stmt, StmtKind, Visibility};
use crate::lexer::{Token, lex};
use crate::statements::{Statement, split};
use abap_data::LoadError;
use abap_data::debug::{ObjectKind, SourcePart};
use body::Body;
use declarations::{
    class_options, data_decl, form_decl, method_decl, parameters_decl, select_options_decl,
    struct_decl,
};
use names::base36;
use words::{first_kw, word_at};

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
    /// For a source of a function group: the group's main program (`SAPLZFG`) and the include
    /// the source is (`LZFGU01` for a function module, `LZFGTOP`, `LZFGF01`, …).
    pub pool: Option<(String, String)>,
}

impl SourceCtx {
    /// Main program of the object (`ZCL_X=====CP`, `ZREPORT`).
    pub fn program(&self) -> String {
        if let Some((program, _)) = &self.pool {
            return program.clone();
        }
        match self.kind {
            ObjectKind::Class => class_pool_program(&self.object),
            ObjectKind::Interface => format!("{}IP", pad30(&self.object)),
            ObjectKind::Program
            | ObjectKind::FunctionGroup
            | ObjectKind::FunctionModule
            | ObjectKind::FunctionInclude => self.object.clone(),
        }
    }

    /// A program or an include of one (global data, `FORM`s and event blocks at top level).
    fn program_like(&self) -> bool {
        matches!(
            self.kind,
            ObjectKind::Program
                | ObjectKind::FunctionGroup
                | ObjectKind::FunctionModule
                | ObjectKind::FunctionInclude
        )
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
        if let Some((_, include)) = &self.pool {
            return include.clone();
        }
        match (self.kind, self.part) {
            (ObjectKind::Program, _) => self.object.clone(),
            (ObjectKind::Interface, _) => format!("{}IU", pad30(&self.object)),
            (_, SourcePart::Definitions) => format!("{}CCDEF", pad30(&self.object)),
            (_, SourcePart::TestClasses) => format!("{}CCAU", pad30(&self.object)),
            _ => format!("{}CCIMP", pad30(&self.object)),
        }
    }
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
    "FUNCTION",
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
        // Radio button groups: (group, index of the first button in `prog.attributes`,
        // whether some button of the group has a DEFAULT).
        let mut radio: Vec<(String, usize, bool)> = Vec::new();
        while let Some(st) = self.next() {
            let kw = first_kw(&st);
            let rest = st.tokens.get(1..).unwrap_or(&[]);
            if ctx.program_like() && (kw == "TYPES" || (kw == "INCLUDE" && tbuild.open())) {
                let toks = if kw == "TYPES" { rest } else { &st.tokens[..] };
                if let Some((n, t, _)) = tbuild.feed(toks) {
                    prog.types.push((n, t));
                }
                continue;
            }
            if ctx.program_like()
                && matches!(kw.as_str(), "DATA" | "STATICS" | "CLASS-DATA" | "CONSTANTS")
                && (dbuild.open() || word_at(&st, 1) == "BEGIN")
            {
                if let Some((name, ty, value)) = dbuild.feed(rest) {
                    let mut d = struct_decl(name, ty, st.line, true);
                    d.is_constant = kw == "CONSTANTS";
                    d.value = value;
                    let header = dbuild.take_header_line() && kw == "DATA";
                    prog.attributes
                        .extend(header_lines::with_header_line(d, header));
                }
                continue;
            }
            match kw.as_str() {
                "CLASS" => {
                    let name = word_at(&st, 1);
                    let what = word_at(&st, 2);
                    match what.as_str() {
                        // `DEFINITION DEFERRED|LOAD`, and `DEFINITION LOCAL FRIENDS …` (a test
                        // include's friendship): one statement, no definition.
                        "DEFINITION"
                            if st.tokens.get(3).is_some_and(|t| {
                                t.is_kw("DEFERRED") || t.is_kw("LOAD") || t.is_kw("LOCAL")
                            }) => {}
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
                "FORM" if ctx.program_like() => {
                    let (decl, imp) = self.form(ctx, &st)?;
                    prog.methods.push(decl);
                    prog.implementations.push(imp);
                }
                "PARAMETERS" if ctx.program_like() => {
                    if let Some((d, group)) = parameters_decl(&st) {
                        if let Some(g) = group {
                            match radio.iter_mut().find(|(n, _, _)| *n == g) {
                                Some(entry) => entry.2 |= d.value.is_some(),
                                None => radio.push((g, prog.attributes.len(), d.value.is_some())),
                            }
                        }
                        prog.attributes.push(d);
                    }
                }
                "DATA" | "CONSTANTS" | "STATICS" | "CLASS-DATA" if ctx.program_like() => {
                    if let Some(mut d) = data_decl(&st) {
                        d.is_static = true;
                        d.is_constant = kw == "CONSTANTS";
                        let header = header_lines::strip_header_line(&st.tokens).1;
                        prog.attributes
                            .extend(header_lines::with_header_line(d, header));
                    }
                }
                "DEFINE" => {
                    while let Some(s) = self.next() {
                        if first_kw(&s) == "END-OF-DEFINITION" {
                            break;
                        }
                    }
                }
                "SELECT-OPTIONS" if ctx.program_like() => {
                    if let Some(d) = select_options_decl(&st) {
                        prog.attributes
                            .extend(header_lines::ranges_with_header_line(d));
                    }
                }
                "RANGES" if ctx.program_like() => {
                    if let Some(mut d) = crate::parser::declarations::ranges_decl(&st) {
                        d.is_static = true;
                        prog.attributes
                            .extend(header_lines::ranges_with_header_line(d));
                    }
                }
                "TABLES" if ctx.program_like() => {
                    if let Some(d) = sql::tables_decl(&st) {
                        prog.attributes.push(d);
                    }
                }
                "REPORT" | "PROGRAM" | "FUNCTION-POOL" | "TYPES" | "TYPE-POOLS" | "TABLES"
                | "SELECTION-SCREEN" | "INCLUDE" => {}
                "FUNCTION" if ctx.program_like() => {
                    let imp = self.function(ctx, &st)?;
                    prog.implementations.push(imp);
                }
                "FIELD-SYMBOLS" => {
                    if let Some(n) = st.tokens.get(1).and_then(Token::word) {
                        prog.field_symbols.push(n.to_ascii_uppercase());
                    }
                }
                _ if ctx.program_like() => {
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
        for (_, first, has_default) in radio {
            if let Some(d) = prog.attributes.get_mut(first).filter(|_| !has_default) {
                d.value = Some(Expr::Lit(abap_data::value::Value::C("X".into())));
            }
        }
        if ctx.program_like() {
            out.classes.push(prog);
        }
        Ok(out)
    }

    /// `FUNCTION name. … ENDFUNCTION.`: the module's code (its interface comes from the
    /// group's `.fugr.xml`; the `*"` block after `FUNCTION` is a comment).
    fn function(&mut self, ctx: &SourceCtx, st: &Statement) -> Result<MethodImpl, LoadError> {
        self.procedure(ctx, st, "FUNCTION", "ENDFUNCTION")
    }

    /// `FORM name [TABLES …] [USING …] [CHANGING …]. … ENDFORM.`
    fn form(
        &mut self,
        ctx: &SourceCtx,
        st: &Statement,
    ) -> Result<(MethodDecl, MethodImpl), LoadError> {
        let decl = form_decl(st, &word_at(st, 1));
        let imp = self.procedure(ctx, st, "FORM", "ENDFORM")?;
        Ok((decl, imp))
    }

    /// The body of a FUNCTION or FORM opened by `st`, up to `end_kw`, as a procedure whose
    /// frames the debugger names `event_type`.
    fn procedure(
        &mut self,
        ctx: &SourceCtx,
        st: &Statement,
        event_type: &'static str,
        end_kw: &str,
    ) -> Result<MethodImpl, LoadError> {
        let name = word_at(st, 1);
        let mut body_parser = Body::new(self);
        let (body, end) = body_parser.block(&[end_kw])?;
        let locals = std::mem::take(&mut body_parser.locals);
        let types = std::mem::take(&mut body_parser.types);
        let field_symbols = std::mem::take(&mut body_parser.field_symbols);
        let Some(end) = end else {
            return Err(self.err(st.line, format!("{event_type} without {end_kw}")));
        };
        Ok(MethodImpl {
            name,
            place: Place {
                object: ctx.object.clone(),
                kind: ctx.kind,
                part: ctx.part,
                program: ctx.program(),
                include: ctx.include(),
                include_start: None,
                event_type,
            },
            method_line: st.line,
            end_line: Some(end.line),
            locals,
            types,
            field_symbols,
            body,
        })
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
                        class.method_visibility.push((m.name.clone(), vis));
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
