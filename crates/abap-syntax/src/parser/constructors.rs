//! Parsing of the constructor expressions (`VALUE` with `BASE`/`LET`/`FOR`/`LINES OF`,
//! `REDUCE`, `FILTER`, `CORRESPONDING`, `CAST`, `LET … IN`, `OPTIONAL`/`DEFAULT`) and of the
//! statement `MOVE-CORRESPONDING`, as methods of the shared `Cursor` (`cursor.rs`).

use crate::ast::{Cond, Expr, Path};
use crate::ast::{Ctor, For, ForKind, Init, Row};
use crate::lexer::upper_word;
use crate::lexer::{Token, TokenKind};
use crate::parser::cursor::Cursor;
use crate::parser::words::{Unsup, is_name, parse_path};

type PResult<T> = Result<T, Unsup>;

/// `MOVE-CORRESPONDING src TO dst [EXPANDING NESTED TABLES] [KEEPING TARGET LINES]` as an
/// assignment to `dst`.
pub fn move_corresponding(toks: &[Token]) -> Result<crate::ast::StmtKind, String> {
    let rest = toks.get(1..).unwrap_or(&[]);
    let to = rest
        .iter()
        .position(|t| t.is_kw("TO"))
        .ok_or("MOVE-CORRESPONDING without TO")?;
    let src =
        crate::parser::expr::parse_full_expr(rest.get(..to).unwrap_or(&[])).map_err(|u| u.0)?;
    let dst = rest
        .get(to + 1)
        .and_then(Token::word)
        .and_then(parse_path)
        .ok_or("MOVE-CORRESPONDING target")?;
    let mut keep_lines = false;
    let words: Vec<String> = rest
        .iter()
        .skip(to + 2)
        .map(|t| upper_word(Some(t)))
        .collect();
    let mut i = 0;
    while i < words.len() {
        match words.get(i..i + 3) {
            Some([a, b, c]) if a == "KEEPING" && b == "TARGET" && c == "LINES" => keep_lines = true,
            Some([a, b, c]) if a == "EXPANDING" && b == "NESTED" && c == "TABLES" => {}
            _ => return Err("MOVE-CORRESPONDING with additions".into()),
        }
        i += 3;
    }
    Ok(crate::ast::StmtKind::Assign {
        target: dst.clone(),
        op: crate::ast::AssignOp::Set,
        expr: Expr::Ctor(Box::new(Ctor::MoveCorresponding {
            src,
            dst,
            keep_lines,
        })),
    })
}

/// True when a `VALUE` body needs this module: it starts with `BASE`/`FOR`/`LET` or has a
/// `( LINES OF … )` row.
pub fn needs_full_value(inner: &[Token]) -> bool {
    if inner
        .first()
        .is_some_and(|t| t.is_kw("BASE") || t.is_kw("FOR") || t.is_kw("LET"))
    {
        return true;
    }
    let mut depth = 0usize;
    for (i, t) in inner.iter().enumerate() {
        match t.kind {
            TokenKind::LParen => {
                if depth == 0 && inner.get(i + 1).is_some_and(|n| n.is_kw("LINES")) {
                    return true;
                }
                depth += 1;
            }
            TokenKind::RParen => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// Parses the body of constructor `kind` with type word `ty_word`; returns the expression and
/// the operator budget used so far.
pub fn parse(
    depth: usize,
    ops: usize,
    kind: &str,
    ty_word: &str,
    inner: &[Token],
) -> PResult<(Expr, usize)> {
    let ty = match ty_word {
        "#" => None,
        t if crate::parser::words::is_type_name(t) => Some(t.to_string()),
        _ => return Err(Unsup(format!("constructor expression {kind} {ty_word}"))),
    };
    let mut c = Cursor {
        toks: inner,
        pos: 0,
        depth,
        ops,
    };
    let ctor = match kind {
        "VALUE" => c.value(ty)?,
        "REDUCE" => c.reduce(ty)?,
        "CORRESPONDING" => c.corresponding(ty)?,
        "FILTER" => c.filter(ty)?,
        _ => {
            let arg = c.ctor_operand()?;
            Ctor::Cast { ty, arg }
        }
    };
    if let Some(t) = c.peek() {
        return Err(Unsup(format!(
            "constructor expression {kind}: unexpected {}",
            crate::parser::words::describe(t)
        )));
    }
    Ok((Expr::Ctor(Box::new(ctor)), c.ops))
}

/// `kind type|#( LET … IN rest )` for `COND`/`SWITCH`/`CONV`: the `LET` part here, `rest`
/// parsed as `kind type|#( rest )`.
pub fn parse_let(
    depth: usize,
    ops: usize,
    kind: &str,
    ty_word: &str,
    inner: &[Token],
) -> PResult<(Expr, usize)> {
    let mut c = Cursor {
        toks: inner,
        pos: 0,
        depth,
        ops,
    };
    let lets = c.lets()?;
    let line = inner.first().map_or(0, |t| t.line);
    let tok = |kind: TokenKind, space_before: bool| Token {
        kind,
        line,
        space_before,
    };
    let mut synthetic = vec![
        tok(TokenKind::Word(kind.to_string()), true),
        tok(TokenKind::Word(ty_word.to_string()), true),
        tok(TokenKind::LParen, false),
    ];
    synthetic.extend(inner.iter().skip(c.pos).cloned());
    synthetic.push(tok(TokenKind::RParen, true));
    let mut p = Cursor::nested(&synthetic, c.depth, c.ops)?;
    let e = p.expr()?;
    p.expect_end()?;
    Ok((Expr::Ctor(Box::new(Ctor::Let { lets, inner: e })), p.ops()))
}

impl<'t> Cursor<'t> {
    fn name(&mut self) -> PResult<String> {
        let w = self.word_at(0);
        let ok = is_name(&w) || (w.len() > 2 && w.starts_with('<') && w.ends_with('>'));
        if !ok {
            return Err(Unsup(format!("name expected, found {w}")));
        }
        self.pos += 1;
        Ok(w)
    }

    /// The longest expression at the cursor.
    fn ctor_operand(&mut self) -> PResult<Expr> {
        let rest = self.toks.get(self.pos..).unwrap_or(&[]);
        let mut p = Cursor::nested(rest, self.depth, self.ops)?;
        let e = p.expr()?;
        self.pos += p.position();
        self.ops = p.ops();
        self.count_op()?;
        Ok(e)
    }

    /// A whole token slice as one expression.
    fn full_expr(&mut self, toks: &[Token]) -> PResult<Expr> {
        let mut p = Cursor::nested(toks, self.depth, self.ops)?;
        let e = p.expr()?;
        p.expect_end()?;
        self.ops = p.ops();
        self.count_op()?;
        Ok(e)
    }

    fn full_cond(&mut self, toks: &[Token]) -> PResult<Cond> {
        let mut p = Cursor::nested(toks, self.depth, self.ops)?;
        let c = p.cond()?;
        p.expect_end()?;
        self.ops = p.ops();
        self.count_op()?;
        Ok(c)
    }

    /// The tokens inside the `(` at the cursor; moves past the matching `)`.
    fn paren_group(&mut self) -> PResult<&'t [Token]> {
        if !self.peek().is_some_and(|t| t.kind == TokenKind::LParen) {
            return Err(Unsup("( expected".into()));
        }
        self.pos += 1;
        self.group()
    }

    /// `name = expr …` pairs while they follow.
    fn assignments(&mut self) -> PResult<Vec<(String, Expr)>> {
        let mut out = Vec::new();
        while is_name(&self.word_at(0)) && self.word_at(1) == "=" {
            let n = self.word_at(0);
            self.pos += 2;
            out.push((n, self.ctor_operand()?));
        }
        Ok(out)
    }

    /// `LET x = v … IN` (none when no `LET` follows).
    fn lets(&mut self) -> PResult<Vec<(String, Expr)>> {
        if !self.peek_kw("LET") {
            return Ok(Vec::new());
        }
        self.pos += 1;
        let l = self.assignments()?;
        if l.is_empty() {
            return Err(Unsup("LET without helper variables".into()));
        }
        self.expect_kw("IN")?;
        Ok(l)
    }

    /// Tokens from the cursor up to (not including) the first top-level token `stop` accepts.
    fn until(&mut self, stop: impl Fn(&[Token], usize) -> bool) -> &'t [Token] {
        let start = self.pos;
        let mut depth = 0usize;
        let mut i = start;
        while let Some(t) = self.toks.get(i) {
            if depth == 0 && i > start && stop(self.toks, i) {
                break;
            }
            match t.kind {
                TokenKind::LParen => depth += 1,
                TokenKind::RParen => depth = depth.saturating_sub(1),
                _ => {}
            }
            i += 1;
        }
        self.pos = i;
        self.toks.get(start..i).unwrap_or(&[])
    }

    fn fors(&mut self) -> PResult<Vec<For>> {
        let mut out = Vec::new();
        while self.peek_kw("FOR") {
            self.pos += 1;
            if self.peek_kw("GROUPS") {
                out.push(self.for_groups()?);
                continue;
            }
            let var = self.name()?;
            let kind = if self.peek_kw("IN") && self.word_at(1) == "GROUP" {
                self.pos += 2;
                let group = self.name()?;
                ForKind::In {
                    table: Expr::Path(Path {
                        base: crate::parser::group_key::members_var(&group),
                        rest: Vec::new(),
                    }),
                    index_into: None,
                    cond: None,
                }
            } else if self.peek_kw("IN") {
                self.pos += 1;
                let table_toks = self.until(|t, i| {
                    let w = upper_word(t.get(i));
                    matches!(
                        w.as_str(),
                        "INDEX" | "WHERE" | "USING" | "FROM" | "TO" | "FOR" | "LET" | "NEXT"
                    ) || row_start(t, i)
                });
                let table = self.full_expr(table_toks)?;
                let mut index_into = None;
                let mut cond = None;
                loop {
                    match self.word_at(0).as_str() {
                        "INDEX" if self.word_at(1) == "INTO" => {
                            self.pos += 2;
                            index_into = Some(self.name()?);
                        }
                        "WHERE" => {
                            self.pos += 1;
                            let c = self.paren_group()?;
                            cond = Some(self.full_cond(c)?);
                        }
                        "USING" | "FROM" | "TO" => {
                            return Err(Unsup(format!("FOR … IN … {}", self.word_at(0))));
                        }
                        _ => break,
                    }
                }
                ForKind::In {
                    table,
                    index_into,
                    cond,
                }
            } else {
                self.expect_kw("=")?;
                let start_toks = self.until(|t, i| {
                    matches!(upper_word(t.get(i)).as_str(), "THEN" | "UNTIL" | "WHILE")
                });
                let start = self.full_expr(start_toks)?;
                let then = if self.peek_kw("THEN") {
                    self.pos += 1;
                    let t = self
                        .until(|t, i| matches!(upper_word(t.get(i)).as_str(), "UNTIL" | "WHILE"));
                    Some(self.full_expr(t)?)
                } else {
                    None
                };
                let until = match self.word_at(0).as_str() {
                    "UNTIL" => true,
                    "WHILE" => false,
                    _ => return Err(Unsup("FOR without UNTIL or WHILE".into())),
                };
                self.pos += 1;
                let cond_toks = self.until(|t, i| {
                    let w = upper_word(t.get(i));
                    let prev = upper_word(t.get(i.wrapping_sub(1)));
                    matches!(w.as_str(), "FOR" | "LET" | "NEXT")
                        || (row_start(t, i) && !matches!(prev.as_str(), "AND" | "OR" | "NOT"))
                });
                let cond = self.full_cond(cond_toks)?;
                ForKind::Iter {
                    start,
                    then,
                    until,
                    cond,
                }
            };
            let lets = self.lets()?;
            out.push(For { var, kind, lets });
        }
        Ok(out)
    }

    /// After `FOR`: `GROUPS group OF wa IN itab [WHERE ( … )] GROUP BY key [ASCENDING|
    /// DESCENDING] [WITHOUT MEMBERS] [LET …]`.
    fn for_groups(&mut self) -> PResult<For> {
        self.pos += 1;
        let var = self.name()?;
        self.expect_kw("OF")?;
        let row = self.name()?;
        self.expect_kw("IN")?;
        let table_toks =
            self.until(|t, i| matches!(upper_word(t.get(i)).as_str(), "WHERE" | "GROUP" | "USING"));
        let table = self.full_expr(table_toks)?;
        let cond = if self.peek_kw("WHERE") {
            self.pos += 1;
            let c = self.paren_group()?;
            Some(self.full_cond(c)?)
        } else {
            None
        };
        if !(self.peek_kw("GROUP") && self.word_at(1) == "BY") {
            return Err(Unsup("FOR GROUPS without GROUP BY".into()));
        }
        self.pos += 2;
        let key_toks = if self.peek().is_some_and(|t| t.kind == TokenKind::LParen) {
            let start = self.pos;
            self.paren_group()?;
            self.toks.get(start..self.pos).unwrap_or(&[])
        } else {
            self.until(|t, i| {
                let w = upper_word(t.get(i));
                matches!(
                    w.as_str(),
                    "ASCENDING" | "DESCENDING" | "WITHOUT" | "LET" | "FOR" | "NEXT"
                ) || row_start(t, i)
            })
        };
        let key = crate::parser::group_key::group_key(key_toks).map_err(Unsup)?;
        let mut descending = None;
        loop {
            match self.word_at(0).as_str() {
                "ASCENDING" => descending = Some(false),
                "DESCENDING" => descending = Some(true),
                "WITHOUT" if self.word_at(1) == "MEMBERS" => self.pos += 1,
                _ => break,
            }
            self.pos += 1;
        }
        let lets = self.lets()?;
        Ok(For {
            var,
            kind: ForKind::Groups {
                row,
                table,
                cond,
                key,
                descending,
            },
            lets,
        })
    }

    fn value(&mut self, ty: Option<String>) -> PResult<Ctor> {
        let lets = self.lets()?;
        let base = if self.peek_kw("BASE") {
            self.pos += 1;
            Some(self.ctor_operand()?)
        } else {
            None
        };
        let fors = self.fors()?;
        let fields = self.assignments()?;
        let mut rows = Vec::new();
        while self.peek().is_some_and(|t| t.kind == TokenKind::LParen) {
            let inner = self.paren_group()?;
            let mut rc = Cursor {
                toks: inner,
                pos: 0,
                depth: self.depth + 1,
                ops: self.ops,
            };
            let row = if rc.peek_kw("LINES") && rc.word_at(1) == "OF" {
                rc.pos += 2;
                let src = rc.ctor_operand()?;
                let mut from = None;
                let mut to = None;
                if rc.peek_kw("FROM") {
                    rc.pos += 1;
                    from = Some(rc.ctor_operand()?);
                }
                if rc.peek_kw("TO") {
                    rc.pos += 1;
                    to = Some(rc.ctor_operand()?);
                }
                Row::Lines { src, from, to }
            } else if is_name(&rc.word_at(0)) && rc.word_at(1) == "=" {
                Row::Fields(rc.assignments()?)
            } else if inner.is_empty() {
                Row::Fields(Vec::new())
            } else {
                Row::Line(rc.ctor_operand()?)
            };
            if rc.peek().is_some() {
                return Err(Unsup("VALUE row with more than one operand".into()));
            }
            self.ops = rc.ops;
            self.count_op()?;
            rows.push(row);
        }
        if !fors.is_empty() && rows.is_empty() {
            return Err(Unsup("VALUE FOR without rows".into()));
        }
        Ok(Ctor::Value {
            ty,
            lets,
            base,
            fors,
            fields,
            rows,
        })
    }

    fn reduce(&mut self, ty: Option<String>) -> PResult<Ctor> {
        let lets = self.lets()?;
        self.expect_kw("INIT")?;
        let mut init = Vec::new();
        while !self.peek_kw("FOR") && self.peek().is_some() {
            let name = self.name()?;
            match self.word_at(0).as_str() {
                "=" => {
                    self.pos += 1;
                    init.push(Init {
                        name,
                        ty: None,
                        value: Some(self.ctor_operand()?),
                    });
                }
                "TYPE" => {
                    let t = self.word_at(1);
                    if !is_name(&t) {
                        return Err(Unsup(format!("INIT … TYPE {t}")));
                    }
                    self.pos += 2;
                    init.push(Init {
                        name,
                        ty: Some(t),
                        value: None,
                    });
                }
                other => return Err(Unsup(format!("INIT {name} {other}"))),
            }
        }
        if init.is_empty() {
            return Err(Unsup("REDUCE without INIT".into()));
        }
        let fors = self.fors()?;
        if fors.is_empty() {
            return Err(Unsup("REDUCE without FOR".into()));
        }
        self.expect_kw("NEXT")?;
        let mut next = Vec::new();
        while self.peek().is_some() {
            let target = self.word_at(0);
            let op = self.word_at(1);
            let Some(path) = parse_path(&target) else {
                return Err(Unsup(format!("NEXT {target}")));
            };
            if !matches!(op.as_str(), "=" | "+=" | "-=" | "*=" | "/=" | "&&=") {
                return Err(Unsup(format!("NEXT {target} {op}")));
            }
            self.pos += 2;
            next.push((path, op, self.ctor_operand()?));
        }
        Ok(Ctor::Reduce {
            ty,
            lets,
            init,
            fors,
            next,
        })
    }

    fn filter(&mut self, ty: Option<String>) -> PResult<Ctor> {
        let src_toks = self.until(|t, i| {
            matches!(
                upper_word(t.get(i)).as_str(),
                "EXCEPT" | "IN" | "USING" | "WHERE"
            )
        });
        let src = self.full_expr(src_toks)?;
        let except = if self.peek_kw("EXCEPT") {
            self.pos += 1;
            true
        } else {
            false
        };
        let ftab = if self.peek_kw("IN") {
            self.pos += 1;
            let t = self.until(|t, i| matches!(upper_word(t.get(i)).as_str(), "USING" | "WHERE"));
            Some(self.full_expr(t)?)
        } else {
            None
        };
        if self.peek_kw("USING") {
            return Err(Unsup("FILTER … USING KEY".into()));
        }
        self.expect_kw("WHERE")?;
        let rest = self.toks.get(self.pos..).unwrap_or(&[]);
        self.pos = self.toks.len();
        let cond = self.full_cond(rest)?;
        Ok(Ctor::Filter {
            ty,
            src,
            except,
            ftab,
            cond,
        })
    }

    fn corresponding(&mut self, ty: Option<String>) -> PResult<Ctor> {
        let base = if self.peek_kw("BASE") {
            self.pos += 1;
            let g = self.paren_group()?;
            Some(self.full_expr(g)?)
        } else {
            None
        };
        if self.peek_kw("DEEP") {
            return Err(Unsup("CORRESPONDING DEEP".into()));
        }
        let src_toks = self.until(|t, i| {
            matches!(
                upper_word(t.get(i)).as_str(),
                "MAPPING" | "EXCEPT" | "DISCARDING" | "DEFAULT"
            )
        });
        let src = self.full_expr(src_toks)?;
        let mut mapping = Vec::new();
        let mut except = Vec::new();
        loop {
            match self.word_at(0).as_str() {
                "MAPPING" => {
                    self.pos += 1;
                    while is_name(&self.word_at(0)) && self.word_at(1) == "=" {
                        let t = self.word_at(0);
                        let s = self.word_at(2);
                        if !is_name(&s) {
                            return Err(Unsup(format!("MAPPING {t} = {s}")));
                        }
                        self.pos += 3;
                        mapping.push((t, s));
                    }
                }
                "EXCEPT" => {
                    self.pos += 1;
                    while let Some(t) = self.peek() {
                        let w = upper_word(Some(t));
                        if w != "*" && !is_name(&w) {
                            break;
                        }
                        except.push(w);
                        self.pos += 1;
                    }
                }
                "" => break,
                other => return Err(Unsup(format!("CORRESPONDING … {other}"))),
            }
        }
        Ok(Ctor::Corresponding {
            ty,
            base,
            src,
            mapping,
            except,
        })
    }
}

/// `VALUE type|#( itab[ … ] OPTIONAL )` / `… DEFAULT def )` (`inner`: the tokens inside the
/// parentheses); `None` when `inner` has neither addition at its top level.
pub fn parse_optional(
    depth: usize,
    ops: usize,
    ty_word: &str,
    inner: &[Token],
) -> PResult<Option<(Expr, usize)>> {
    let mut level = 0usize;
    let top_default = inner.iter().any(|t| {
        match t.kind {
            TokenKind::LParen => level += 1,
            TokenKind::RParen => level = level.saturating_sub(1),
            _ => {}
        }
        level == 0 && t.is_kw("DEFAULT")
    });
    if !(top_default || inner.last().is_some_and(|t| t.is_kw("OPTIONAL"))) {
        return Ok(None);
    }
    let mut p = Cursor::nested(inner, depth, ops)?;
    let row = p.expr()?;
    if !matches!(row, Expr::Itab { .. }) {
        return Err(Unsup(
            "VALUE … OPTIONAL|DEFAULT of no table expression".into(),
        ));
    }
    let default = if p.skip_kw("OPTIONAL") {
        None
    } else if p.skip_kw("DEFAULT") {
        Some(p.expr()?)
    } else {
        return Err(Unsup("VALUE … OPTIONAL|DEFAULT".into()));
    };
    p.expect_end()?;
    let ty = match ty_word {
        "#" => None,
        t if crate::parser::words::is_type_name(t) => Some(t.to_string()),
        t => return Err(Unsup(format!("constructor expression VALUE {t}"))),
    };
    Ok(Some((
        Expr::Ctor(Box::new(Ctor::Optional { ty, row, default })),
        p.ops(),
    )))
}

/// A `(` with a blank before it at `i`: a row specification (not a call's parenthesis).
fn row_start(toks: &[Token], i: usize) -> bool {
    toks.get(i)
        .is_some_and(|t| t.kind == TokenKind::LParen && t.space_before)
}

/// The inside of `REF type|#( … )`: one data object or table expression.
pub fn parse_ref_operand(inner: &[Token]) -> Result<Expr, String> {
    match crate::parser::expr::parse_full_expr(inner).map_err(|u| u.0)? {
        e if matches!(e, Expr::Path(_)) || crate::ast::is_row_chain(&e) => Ok(e),
        _ => Err("constructor expression REF of a non-data-object".into()),
    }
}
