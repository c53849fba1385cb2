//! Statement parser: the statements of a `.clas.abap` file → [`ClassDef`].
//!
//! Structure errors (missing `ENDIF`, `METHOD` without `ENDMETHOD`) fail loading; statements
//! and expressions outside the subset become [`StmtKind::Unsupported`] so that only executing
//! them fails.

use crate::LoadError;
use crate::ast::{
    AssignOp, ClassDef, Cond, DataDecl, Expr, MethodDecl, MethodImpl, ParamDecl, ParamKind, Stmt,
    StmtKind, TypeSpec, Visibility,
};
use crate::expr::{
    ExprParser, Unsup, describe, is_name, parse_full_cond, parse_full_expr, parse_path,
};
use crate::lexer::{Token, TokenKind, lex};
use crate::statements::{Statement, split};
use crate::value::{MAX_C_LENGTH, Type};

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

/// Parses a `.clas.abap` source; `object` is the (upper case) class name from the file name.
pub fn parse_class(object: &str, file: &str, text: &str) -> Result<ClassDef, LoadError> {
    let tokens = lex(text).map_err(|e| LoadError::Syntax {
        file: file.to_string(),
        line: e.line,
        message: e.message,
    })?;
    let stmts = split(tokens).map_err(|e| LoadError::Syntax {
        file: file.to_string(),
        line: e.line,
        message: "statement is not terminated by a period".into(),
    })?;
    let mut p = Parser {
        file,
        stmts,
        pos: 0,
    };
    p.class_file(object)
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

    fn class_file(&mut self, object: &str) -> Result<ClassDef, LoadError> {
        let mut class = ClassDef {
            name: object.to_string(),
            interfaces: Vec::new(),
            methods: Vec::new(),
            attributes: Vec::new(),
            implementations: Vec::new(),
        };
        let mut defined = false;
        while let Some(st) = self.next() {
            if first_kw(&st) != "CLASS" {
                continue; // e.g. a stray pragma statement; nothing to execute at top level
            }
            let name = st
                .tokens
                .get(1)
                .and_then(Token::word)
                .map(str::to_ascii_uppercase)
                .unwrap_or_default();
            let what = st
                .tokens
                .get(2)
                .and_then(Token::word)
                .map(str::to_ascii_uppercase)
                .unwrap_or_default();
            let mine = name == object;
            match what.as_str() {
                "DEFINITION"
                    if st
                        .tokens
                        .get(3)
                        .is_some_and(|t| t.is_kw("DEFERRED") || t.is_kw("LOAD")) => {}
                "DEFINITION" => {
                    if mine {
                        defined = true;
                        self.definition(&mut class)?;
                    } else {
                        self.skip_to_endclass(st.line)?;
                    }
                }
                "IMPLEMENTATION" => {
                    if mine {
                        self.implementation(&mut class)?;
                    } else {
                        self.skip_to_endclass(st.line)?;
                    }
                }
                _ => return Err(self.err(st.line, "CLASS needs DEFINITION or IMPLEMENTATION")),
            }
        }
        if !defined {
            return Err(self.err(1, format!("class {object} is not defined in this file")));
        }
        Ok(class)
    }

    fn skip_to_endclass(&mut self, line: u32) -> Result<(), LoadError> {
        while let Some(st) = self.next() {
            if first_kw(&st) == "ENDCLASS" {
                return Ok(());
            }
        }
        Err(self.err(line, "CLASS without ENDCLASS"))
    }

    fn definition(&mut self, class: &mut ClassDef) -> Result<(), LoadError> {
        let mut vis = Visibility::Public;
        let start = self.pos;
        while let Some(st) = self.next() {
            let kw = first_kw(&st);
            let second = st
                .tokens
                .get(1)
                .and_then(Token::word)
                .map(str::to_ascii_uppercase);
            match kw.as_str() {
                "ENDCLASS" => return Ok(()),
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
                "METHODS" | "CLASS-METHODS" => {
                    if let Some(m) = method_decl(&st, kw == "CLASS-METHODS") {
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
        Err(self.err(line, "CLASS DEFINITION without ENDCLASS"))
    }

    fn implementation(&mut self, class: &mut ClassDef) -> Result<(), LoadError> {
        let start_line = self
            .stmts
            .get(self.pos.saturating_sub(1))
            .map_or(1, |s| s.line);
        while let Some(st) = self.next() {
            match first_kw(&st).as_str() {
                "ENDCLASS" => return Ok(()),
                "METHOD" => {
                    let name = st
                        .tokens
                        .get(1)
                        .and_then(Token::word)
                        .map(str::to_ascii_uppercase)
                        .ok_or_else(|| self.err(st.line, "METHOD without a name"))?;
                    let include = format!(
                        "{}CM{}",
                        pad30(&class.name),
                        base36(class.implementations.len() + 1)
                    );
                    let mut body_parser = Body {
                        p: self,
                        locals: Vec::new(),
                        depth: 0,
                    };
                    let amdp = st.tokens.len() > 2;
                    let (mut body, end) = body_parser.block(&["ENDMETHOD"])?;
                    let locals = std::mem::take(&mut body_parser.locals);
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
                    class.implementations.push(MethodImpl {
                        name,
                        include,
                        method_line: st.line,
                        endmethod_line: end.line,
                        locals,
                        body,
                    });
                }
                _ => {}
            }
        }
        Err(self.err(start_line, "CLASS IMPLEMENTATION without ENDCLASS"))
    }
}

/// Parses a method body (statements between `METHOD` and `ENDMETHOD`).
struct Body<'p, 'a> {
    p: &'p mut Parser<'a>,
    locals: Vec<DataDecl>,
    depth: usize,
}

/// Block closers of the supported control structures; a stray one is a syntax error.
const CLOSERS: &[&str] = &[
    "ENDMETHOD",
    "ENDCLASS",
    "ENDIF",
    "ELSEIF",
    "ELSE",
    "ENDDO",
    "ENDWHILE",
    "WHEN",
    "ENDCASE",
];

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

    fn statement(&mut self, st: Statement, kw: &str) -> Result<Option<Stmt>, LoadError> {
        let line = st.line;
        let rest = st.tokens.get(1..).unwrap_or(&[]);
        let kind = if is_assignment(&st) {
            assignment(&st)
        } else {
            match kw {
                "DATA" | "CONSTANTS" => match data_decl(&st) {
                    Some(mut d) if d.ty.is_ok() => {
                        d.is_constant = kw == "CONSTANTS";
                        self.locals.push(d);
                        return Ok(None);
                    }
                    _ => unsupported(&st, false),
                },
                "TYPES" | "FIELD-SYMBOLS" | "STATICS" | "TYPE-POOLS" | "CLASS-DATA" => {
                    unsupported(&st, false)
                }
                "IF" => {
                    let mut branches = vec![(line, cond(rest), Vec::new())];
                    let mut else_body = Vec::new();
                    let mut opener = st.clone();
                    loop {
                        let (body, end) =
                            self.required_block(&opener, &["ELSEIF", "ELSE", "ENDIF"])?;
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
                    StmtKind::If {
                        branches,
                        else_body,
                    }
                }
                "DO" => {
                    let times = match rest {
                        [] => None,
                        [.., last] if last.is_kw("TIMES") => Some(
                            parse_full_expr(&rest[..rest.len() - 1])
                                .unwrap_or_else(|u| Expr::Unsupported(u.0)),
                        ),
                        _ => Some(Expr::Unsupported("DO VARYING".into())),
                    };
                    let (body, _) = self.required_block(&st, &["ENDDO"])?;
                    StmtKind::Do { times, body }
                }
                "WHILE" => {
                    let (body, _) = self.required_block(&st, &["ENDWHILE"])?;
                    StmtKind::While {
                        cond: cond(rest),
                        body,
                    }
                }
                "CASE" => self.case(&st)?,
                "CLEAR" => {
                    let paths: Option<Vec<_>> = if rest.len() == 1 {
                        rest[0].word().and_then(parse_path).map(|p| vec![p])
                    } else {
                        None
                    };
                    match paths {
                        Some(p) => StmtKind::Clear(p),
                        None => unsupported(&st, true),
                    }
                }
                "EXIT" if rest.is_empty() => StmtKind::Exit,
                "CONTINUE" if rest.is_empty() => StmtKind::Continue,
                "RETURN" if rest.is_empty() => StmtKind::Return,
                "CHECK" => StmtKind::Check(cond(rest)),
                _ if call_statement(&st) => match parse_full_expr(&st.tokens) {
                    Ok(Expr::Call(c)) => StmtKind::Call(*c),
                    Ok(_) => unsupported(&st, true),
                    Err(u) => StmtKind::Unsupported {
                        what: u.0,
                        stop: true,
                    },
                },
                _ => unsupported(&st, !kw.starts_with("END")),
            }
        };
        Ok(Some(Stmt { line, kind }))
    }

    fn case(&mut self, st: &Statement) -> Result<StmtKind, LoadError> {
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
    let op = match toks.get(1).and_then(Token::word) {
        Some("=") => AssignOp::Set,
        Some("+=") => AssignOp::Add,
        Some("-=") => AssignOp::Sub,
        Some("*=") => AssignOp::Mul,
        Some("/=") => AssignOp::Div,
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
    match parse_full_expr(toks.get(2..).unwrap_or(&[])) {
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
fn type_and_value(toks: &[Token]) -> (TypeSpec, Option<Expr>) {
    let mut base: Option<String> = None;
    let mut ref_to: Option<String> = None;
    let mut length = None;
    let mut decimals = None;
    let mut value = None;
    let mut i = 0;
    let bad = |t: &[Token]| -> TypeSpec {
        let words: Vec<String> = t.iter().take(4).map(describe).collect();
        Err(words.join(" "))
    };
    if toks
        .first()
        .is_some_and(|t| t.kind == TokenKind::LParen && !t.space_before)
    {
        return (Err("length in parentheses".into()), None);
    }
    while let Some(t) = toks.get(i) {
        let kw = t.word().map(str::to_ascii_uppercase).unwrap_or_default();
        match kw.as_str() {
            "TYPE" => {
                if toks.get(i + 1).is_some_and(|t| t.is_kw("REF"))
                    && toks.get(i + 2).is_some_and(|t| t.is_kw("TO"))
                {
                    ref_to = toks
                        .get(i + 3)
                        .and_then(Token::word)
                        .map(str::to_ascii_uppercase);
                    if ref_to.is_none() {
                        return (bad(&toks[i..]), None);
                    }
                    i += 4;
                } else {
                    base = toks
                        .get(i + 1)
                        .and_then(Token::word)
                        .map(str::to_ascii_uppercase);
                    if base.is_none() {
                        return (bad(&toks[i..]), None);
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
    if let Some(r) = ref_to {
        if r == "DATA" || !is_name(&r) {
            return (Err(format!("TYPE REF TO {r}")), None);
        }
        return (Ok(Type::Ref(r)), value);
    }
    let base = base.unwrap_or_else(|| "C".into());
    let ty = match (base.as_str(), length, decimals) {
        ("I" | "INT4", None, None) => Ok(Type::I),
        ("STRING", None, None) => Ok(Type::String),
        ("C", l, None) => match l.unwrap_or(1) {
            n @ 1..=MAX_C_LENGTH => Ok(Type::C(n)),
            n => Err(format!("TYPE C LENGTH {n}")),
        },
        ("ABAP_BOOL" | "CHAR1" | "FLAG" | "XFELD", None, None) => Ok(Type::C(1)),
        ("P", l, d) => {
            let len = l.unwrap_or(8);
            let dec = d.unwrap_or(0);
            if (1..=16).contains(&len) && dec <= 14 && dec < 2 * len {
                Ok(Type::P { len, dec })
            } else {
                Err(format!("TYPE P LENGTH {len} DECIMALS {dec}"))
            }
        }
        ("ANY" | "DATA" | "SIMPLE" | "CLIKE" | "CSEQUENCE" | "NUMERIC", None, None) => {
            Ok(Type::Any)
        }
        (other, _, _) => Err(format!("TYPE {other}")),
    };
    (ty, value)
}

/// `METHODS name [IMPORTING …] [EXPORTING …] [CHANGING …] [RETURNING VALUE(r) TYPE t] …`
fn method_decl(st: &Statement, is_static: bool) -> Option<MethodDecl> {
    let name = st.tokens.get(1)?.word()?.to_ascii_uppercase();
    let mut params = Vec::new();
    let toks = st.tokens.get(2..).unwrap_or(&[]);
    let mut kind: Option<ParamKind> = None;
    let mut i = 0;
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
            type_and_value(&ty_toks).0
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
    })
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
        assert!(t("TYPE STANDARD TABLE OF i").is_err());
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
