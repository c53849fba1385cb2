//! The statements of a method, `FORM` or event block body: the block statements (`IF`, `DO`,
//! `WHILE`, `LOOP`, `AT`, `TRY`, `CASE`) recurse through [`Body::block`]; declarations are
//! recorded, other statements go to [`super::statements`].

use super::Parser;
use super::declarations::{TypeBuilder, data_decl, struct_decl};
use super::statements::{assignment, cond, is_assignment, leaf_statement, unsupported};
use super::words::inline_decl;
use super::words::{first_kw, word_at};
use crate::ast::{CatchClause, DataDecl, Expr, Stmt, StmtKind, TypeSpec};
use crate::lexer::Token;
use crate::parser::cursor::Cursor;
use crate::parser::expr::parse_full_expr;
use crate::parser::words::parse_path;
use crate::statements::Statement;
use abap_data::LoadError;

/// Bound on block nesting (IF in DO in IF …) so hostile input cannot overflow the stack.
const MAX_BLOCK_DEPTH: usize = 64;

/// Parses a method body (statements between `METHOD` and `ENDMETHOD`).
pub(super) struct Body<'p, 'a> {
    p: &'p mut Parser<'a>,
    pub(super) locals: Vec<DataDecl>,
    depth: usize,
    pub(super) types: Vec<(String, TypeSpec)>,
    pub(super) field_symbols: Vec<String>,
    tbuild: TypeBuilder,
    dbuild: TypeBuilder,
    /// The keyword that opened the structure `dbuild` is building (`DATA`, `STATICS`,
    /// `CONSTANTS`).
    dbuild_kind: String,
    /// Targets of the `LOOP`s around the statement being parsed (for `AT NEW` and `SUM`).
    loop_targets: Vec<crate::ast::RowTarget>,
    /// Levels of the `AT … ENDAT` blocks around the statement being parsed.
    at_levels: Vec<crate::ast::Level>,
}

impl<'p, 'a> Body<'p, 'a> {
    pub(super) fn new(p: &'p mut Parser<'a>) -> Self {
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
    pub(super) fn block(
        &mut self,
        ends: &[&str],
    ) -> Result<(Vec<Stmt>, Option<Statement>), LoadError> {
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
            "SELECT" if crate::parser::sql::opens_loop(st) => self.select_loop(st),
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
                    let header = self.dbuild.take_header_line() && self.dbuild_kind == "DATA";
                    self.locals
                        .extend(crate::parser::header_lines::with_header_line(d, header));
                }
                Declaration::Recorded
            }
            "FIELD-SYMBOLS" => {
                if let Some(n) = rest.first().and_then(Token::word) {
                    self.field_symbols.push(n.to_ascii_uppercase());
                }
                Declaration::Recorded
            }
            "RANGES" => match crate::parser::declarations::ranges_decl(st) {
                Some(d) => {
                    self.locals
                        .extend(crate::parser::header_lines::ranges_with_header_line(d));
                    Declaration::Recorded
                }
                None => Declaration::Unsupported(Box::new(unsupported(st, false))),
            },
            "DATA" | "CONSTANTS" | "STATICS" => match data_decl(st) {
                Some(mut d) if d.ty.is_ok() => {
                    d.is_constant = kw == "CONSTANTS";
                    // STATICS: one data object per procedure, kept between calls.
                    d.is_static = kw == "STATICS";
                    let header = crate::parser::header_lines::strip_header_line(&st.tokens).1;
                    self.locals
                        .extend(crate::parser::header_lines::with_header_line(d, header));
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
                    crate::ast::TableOp::Sum(Box::new(crate::ast::SumStmt {
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

    /// `SELECT … ENDSELECT`.
    #[inline(never)]
    fn select_loop(&mut self, st: &Statement) -> Result<StmtKind, LoadError> {
        let mut kind = crate::parser::sql::parse(st, "SELECT");
        let (body, _) = self.required_block(st, &["ENDSELECT"])?;
        if let StmtKind::Sql(s) = &mut kind {
            s.body = body;
        }
        Ok(kind)
    }

    #[inline(never)]
    fn loop_block(&mut self, st: &Statement) -> Result<StmtKind, LoadError> {
        if crate::parser::groups::group_by_at(&st.tokens).is_some() {
            let at = crate::parser::groups::group_by_at(&st.tokens).unwrap_or_default();
            let parsed = crate::parser::groups::parse_group_loop(&st.tokens, at);
            let (body, _) = self.required_block(st, &["ENDLOOP"])?;
            Ok(match parsed {
                Ok(mut g) => {
                    g.body = body;
                    StmtKind::TableOp(Box::new(crate::ast::TableOp::GroupLoop(Box::new(g))))
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
                crate::parser::groups::parse_group_members_loop(&st.tokens)
            } else {
                crate::parser::tables::parse_loop(&st.tokens)
            };
            self.loop_targets.push(match &parsed {
                Ok(crate::ast::TableStmt::Loop { target, .. }) => target.clone(),
                _ => crate::ast::RowTarget::None,
            });
            let block = self.required_block(st, &["ENDLOOP"]);
            self.loop_targets.pop();
            let (body, _) = block?;
            Ok(match parsed {
                Ok(mut l @ crate::ast::TableStmt::Loop { .. }) => {
                    if let crate::ast::TableStmt::Loop { body: b, .. } = &mut l {
                        *b = body;
                    }
                    StmtKind::Table(Box::new(l))
                }
                Ok(_) => unsupported(st, true),
                Err(what) => StmtKind::Unsupported { what, stop: true },
            })
        }
    }

    #[inline(never)]
    fn at_block(&mut self, st: &Statement) -> Result<StmtKind, LoadError> {
        let level = crate::parser::groups::parse_level(&st.tokens);
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
            (Ok(level), Some(target)) => StmtKind::TableOp(Box::new(crate::ast::TableOp::Control(
                Box::new(crate::ast::ControlLevel {
                    level,
                    target,
                    body,
                }),
            ))),
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
            let when = crate::parser::oo::parse_when_type(&end.tokens);
            let (body, next) = self.required_block(st, &["WHEN", "ENDCASE"])?;
            whens.push(crate::ast::WhenType {
                line: end.line,
                when,
                body,
            });
            end = next;
        }
        Ok(crate::parser::oo::case_type(
            st.tokens.get(3..).unwrap_or(&[]),
            whens,
        ))
    }
}

fn when_alternatives(toks: &[Token]) -> Vec<Expr> {
    let mut p = Cursor::new(toks);
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
