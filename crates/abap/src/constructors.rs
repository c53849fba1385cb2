//! Constructor expressions beyond the basic `VALUE`/`COND`/`SWITCH`/`CONV`: `VALUE` with
//! `BASE`, `LET`, `FOR` iterations and `LINES OF`, `REDUCE`, `CORRESPONDING` (structures and
//! tables, `BASE`, `MAPPING`, `EXCEPT`) and `CAST` (with the down-cast check, also behind the
//! `?=` assignment).
//!
//! Helper variables of `LET`, `FOR` and `INIT` live in the current frame while the expression
//! is evaluated and are removed afterwards (a variable of the same name is restored).
//! `FOR … UNTIL` checks its condition from the second pass on (at least one pass), `FOR …
//! WHILE` before every pass.

use std::cmp::Ordering;

use crate::ast::{BinOp, Cond, Expr, Path};
use crate::expr::{ExprParser, Unsup, is_name, parse_path};
use crate::interp::{Exec, Interp};
use crate::lexer::{Token, TokenKind};
use crate::state::{Place, Slot, Var, VarKind};
use crate::value::{Type, Value};

type PResult<T> = Result<T, Unsup>;

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

/// `MOVE-CORRESPONDING src TO dst [EXPANDING NESTED TABLES] [KEEPING TARGET LINES]` as an
/// assignment to `dst`.
pub fn move_corresponding(toks: &[Token]) -> Result<crate::ast::StmtKind, String> {
    let rest = toks.get(1..).unwrap_or(&[]);
    let to = rest
        .iter()
        .position(|t| t.is_kw("TO"))
        .ok_or("MOVE-CORRESPONDING without TO")?;
    let src = crate::expr::parse_full_expr(rest.get(..to).unwrap_or(&[])).map_err(|u| u.0)?;
    let dst = rest
        .get(to + 1)
        .and_then(Token::word)
        .and_then(parse_path)
        .ok_or("MOVE-CORRESPONDING target")?;
    let mut keep_lines = false;
    let words: Vec<String> = rest.iter().skip(to + 2).map(|t| upper(Some(t))).collect();
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
        key: crate::groups::GroupKey,
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

// ------------------------------------------------------------------ parsing

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
        t if crate::expr::is_type_name(t) => Some(t.to_string()),
        _ => return Err(Unsup(format!("constructor expression {kind} {ty_word}"))),
    };
    let mut c = Cur {
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
            let arg = c.expr()?;
            Ctor::Cast { ty, arg }
        }
    };
    if let Some(t) = c.peek() {
        return Err(Unsup(format!(
            "constructor expression {kind}: unexpected {}",
            crate::expr::describe(t)
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
    let mut c = Cur {
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
    let mut p = ExprParser::nested(&synthetic, c.depth, c.ops)?;
    let e = p.expr()?;
    p.expect_end()?;
    Ok((Expr::Ctor(Box::new(Ctor::Let { lets, inner: e })), p.ops()))
}

/// A cursor over the tokens of a constructor body.
struct Cur<'t> {
    toks: &'t [Token],
    pos: usize,
    depth: usize,
    ops: usize,
}

fn upper(t: Option<&Token>) -> String {
    t.and_then(Token::word)
        .map(str::to_ascii_uppercase)
        .unwrap_or_default()
}

impl<'t> Cur<'t> {
    fn peek(&self) -> Option<&'t Token> {
        self.toks.get(self.pos)
    }

    fn peek_kw(&self, kw: &str) -> bool {
        self.peek().is_some_and(|t| t.is_kw(kw))
    }

    fn word_at(&self, k: usize) -> String {
        upper(self.toks.get(self.pos + k))
    }

    fn expect_kw(&mut self, kw: &str) -> PResult<()> {
        if self.peek_kw(kw) {
            self.pos += 1;
            Ok(())
        } else {
            Err(Unsup(format!("{kw} expected")))
        }
    }

    fn name(&mut self) -> PResult<String> {
        let w = self.word_at(0);
        let ok = is_name(&w) || (w.len() > 2 && w.starts_with('<') && w.ends_with('>'));
        if !ok {
            return Err(Unsup(format!("name expected, found {w}")));
        }
        self.pos += 1;
        Ok(w)
    }

    fn budget(&mut self) -> PResult<()> {
        self.ops += 1;
        if self.ops > 256 {
            return Err(Unsup("expression with too many operators".into()));
        }
        Ok(())
    }

    /// The longest expression at the cursor.
    fn expr(&mut self) -> PResult<Expr> {
        let rest = self.toks.get(self.pos..).unwrap_or(&[]);
        let mut p = ExprParser::nested(rest, self.depth, self.ops)?;
        let e = p.expr()?;
        self.pos += p.position();
        self.ops = p.ops();
        self.budget()?;
        Ok(e)
    }

    /// A whole token slice as one expression.
    fn full_expr(&mut self, toks: &[Token]) -> PResult<Expr> {
        let mut p = ExprParser::nested(toks, self.depth, self.ops)?;
        let e = p.expr()?;
        p.expect_end()?;
        self.ops = p.ops();
        self.budget()?;
        Ok(e)
    }

    fn full_cond(&mut self, toks: &[Token]) -> PResult<Cond> {
        let mut p = ExprParser::nested(toks, self.depth, self.ops)?;
        let c = p.cond()?;
        p.expect_end()?;
        self.ops = p.ops();
        self.budget()?;
        Ok(c)
    }

    /// The tokens inside the `(` at the cursor; moves past the matching `)`.
    fn group(&mut self) -> PResult<&'t [Token]> {
        if !self.peek().is_some_and(|t| t.kind == TokenKind::LParen) {
            return Err(Unsup("( expected".into()));
        }
        let start = self.pos + 1;
        let mut depth = 0usize;
        for (i, t) in self.toks.get(start..).unwrap_or(&[]).iter().enumerate() {
            match t.kind {
                TokenKind::LParen => depth += 1,
                TokenKind::RParen if depth == 0 => {
                    self.pos = start + i + 1;
                    return Ok(self.toks.get(start..start + i).unwrap_or(&[]));
                }
                TokenKind::RParen => depth -= 1,
                _ => {}
            }
        }
        Err(Unsup("missing )".into()))
    }

    /// `name = expr …` pairs while they follow.
    fn assignments(&mut self) -> PResult<Vec<(String, Expr)>> {
        let mut out = Vec::new();
        while is_name(&self.word_at(0)) && self.word_at(1) == "=" {
            let n = self.word_at(0);
            self.pos += 2;
            out.push((n, self.expr()?));
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
                        base: crate::groups::members_var(&group),
                        rest: Vec::new(),
                    }),
                    index_into: None,
                    cond: None,
                }
            } else if self.peek_kw("IN") {
                self.pos += 1;
                let table_toks = self.until(|t, i| {
                    let w = upper(t.get(i));
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
                            let c = self.group()?;
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
                let start_toks = self
                    .until(|t, i| matches!(upper(t.get(i)).as_str(), "THEN" | "UNTIL" | "WHILE"));
                let start = self.full_expr(start_toks)?;
                let then = if self.peek_kw("THEN") {
                    self.pos += 1;
                    let t =
                        self.until(|t, i| matches!(upper(t.get(i)).as_str(), "UNTIL" | "WHILE"));
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
                    let w = upper(t.get(i));
                    let prev = upper(t.get(i.wrapping_sub(1)));
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
            self.until(|t, i| matches!(upper(t.get(i)).as_str(), "WHERE" | "GROUP" | "USING"));
        let table = self.full_expr(table_toks)?;
        let cond = if self.peek_kw("WHERE") {
            self.pos += 1;
            let c = self.group()?;
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
            self.group()?;
            self.toks.get(start..self.pos).unwrap_or(&[])
        } else {
            self.until(|t, i| {
                let w = upper(t.get(i));
                matches!(
                    w.as_str(),
                    "ASCENDING" | "DESCENDING" | "WITHOUT" | "LET" | "FOR" | "NEXT"
                ) || row_start(t, i)
            })
        };
        let key = crate::groups::group_key(key_toks).map_err(Unsup)?;
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
            Some(self.expr()?)
        } else {
            None
        };
        let fors = self.fors()?;
        let fields = self.assignments()?;
        let mut rows = Vec::new();
        while self.peek().is_some_and(|t| t.kind == TokenKind::LParen) {
            let inner = self.group()?;
            let mut rc = Cur {
                toks: inner,
                pos: 0,
                depth: self.depth + 1,
                ops: self.ops,
            };
            let row = if rc.peek_kw("LINES") && rc.word_at(1) == "OF" {
                rc.pos += 2;
                let src = rc.expr()?;
                let mut from = None;
                let mut to = None;
                if rc.peek_kw("FROM") {
                    rc.pos += 1;
                    from = Some(rc.expr()?);
                }
                if rc.peek_kw("TO") {
                    rc.pos += 1;
                    to = Some(rc.expr()?);
                }
                Row::Lines { src, from, to }
            } else if is_name(&rc.word_at(0)) && rc.word_at(1) == "=" {
                Row::Fields(rc.assignments()?)
            } else if inner.is_empty() {
                Row::Fields(Vec::new())
            } else {
                Row::Line(rc.expr()?)
            };
            if rc.peek().is_some() {
                return Err(Unsup("VALUE row with more than one operand".into()));
            }
            self.ops = rc.ops;
            self.budget()?;
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
                        value: Some(self.expr()?),
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
            next.push((path, op, self.expr()?));
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
                upper(t.get(i)).as_str(),
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
            let t = self.until(|t, i| matches!(upper(t.get(i)).as_str(), "USING" | "WHERE"));
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
            let g = self.group()?;
            Some(self.full_expr(g)?)
        } else {
            None
        };
        if self.peek_kw("DEEP") {
            return Err(Unsup("CORRESPONDING DEEP".into()));
        }
        let src_toks = self.until(|t, i| {
            matches!(
                upper(t.get(i)).as_str(),
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
                        let w = upper(Some(t));
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

/// Variables the interpreter keeps for itself (`%FOR%<fs>`, `%MEMBERS%group`): not shown in
/// the debugger.
pub fn is_internal_name(name: &str) -> bool {
    name.starts_with('%')
}

/// `c1 = f1 AND c2 = f2 …` of `FILTER … IN ftab`: the component pairs.
fn filter_pairs(c: &Cond) -> Option<Vec<(String, String)>> {
    let name = |e: &Expr| match e {
        Expr::Path(p) => Some(p.text()),
        _ => None,
    };
    match c {
        Cond::Cmp(crate::ast::CmpOp::Eq, l, r) => Some(vec![(name(l)?, name(r)?)]),
        Cond::And(a, b) => {
            let mut v = filter_pairs(a)?;
            v.extend(filter_pairs(b)?);
            Some(v)
        }
        _ => None,
    }
}

/// A constructor expression with `#` (its type comes from where it is used).
fn typeless(e: &Expr) -> bool {
    match e {
        Expr::Value { ty: None, .. }
        | Expr::Conv { ty: None, .. }
        | Expr::Choose { ty: None, .. }
        | Expr::Switch { ty: None, .. } => true,
        Expr::New { class, .. } => class == "#",
        Expr::Ctor(c) => match &**c {
            Ctor::Value { ty, .. }
            | Ctor::Reduce { ty, .. }
            | Ctor::Corresponding { ty, .. }
            | Ctor::Cast { ty, .. }
            | Ctor::Filter { ty, .. } => ty.is_none(),
            Ctor::Let { inner, .. } => typeless(inner),
            Ctor::MoveCorresponding { .. }
            | Ctor::Attr { .. }
            | Ctor::Bool { .. }
            | Ctor::Optional { .. }
            | Ctor::Throw(_) => false,
        },
        _ => false,
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
    let mut p = ExprParser::nested(inner, depth, ops)?;
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
        t if crate::expr::is_type_name(t) => Some(t.to_string()),
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

// ------------------------------------------------------------------ evaluation

/// The frame state to restore when an expression's helper variables go away.
struct Scope {
    vars_len: usize,
    shadowed: Vec<(usize, Var)>,
    field_symbols: Vec<(String, Option<Place>)>,
}

impl<'r> Interp<'r, '_> {
    pub fn eval_ctor(&mut self, c: &Ctor, target: Option<&Type>) -> Exec<Value> {
        let Some(frame) = self.st.frames.last() else {
            return Err(self.not_supported("constructor expression outside a procedure"));
        };
        let mut scope = Scope {
            vars_len: frame.vars.len(),
            shadowed: Vec::new(),
            field_symbols: Vec::new(),
        };
        let r = self.ctor_in_scope(c, target, &mut scope);
        self.end_scope(scope);
        r
    }

    fn ctor_in_scope(&mut self, c: &Ctor, target: Option<&Type>, scope: &mut Scope) -> Exec<Value> {
        match c {
            Ctor::Value {
                ty,
                lets,
                base,
                fors,
                fields,
                rows,
            } => {
                let t = self.ctor_type(ty.as_deref(), target, "VALUE")?;
                self.bind_lets(lets, scope)?;
                self.value_full(&t, base.as_ref(), fors, fields, rows, scope)
            }
            Ctor::Reduce {
                ty,
                lets,
                init,
                fors,
                next,
            } => {
                let t = match (ty, target) {
                    (Some(_), _) => Some(self.ctor_type(ty.as_deref(), target, "REDUCE")?),
                    (None, Some(t)) if *t != Type::Any => Some(t.clone()),
                    _ => None,
                };
                self.bind_lets(lets, scope)?;
                self.reduce(t.as_ref(), init, fors, next, scope)
            }
            Ctor::Corresponding {
                ty,
                base,
                src,
                mapping,
                except,
            } => {
                let t = self.ctor_type(ty.as_deref(), target, "CORRESPONDING")?;
                let src = self.eval(src)?;
                let start = match base {
                    Some(b) => self.eval_typed(b, &t)?,
                    None => t.initial(),
                };
                self.corresponding(start, &src, mapping, except)
            }
            Ctor::Cast { ty, arg } => {
                let t = match (ty, target) {
                    (Some(name), _) => match self.type_named(name) {
                        Ok(t) => t,
                        Err(_) => Type::Ref(name.clone()),
                    },
                    (None, Some(t)) => t.clone(),
                    (None, None) => {
                        return Err(self.not_supported("CAST # without a known target type"));
                    }
                };
                let v = self.eval(arg)?;
                self.cast(v, &t)
            }
            Ctor::Filter {
                ty,
                src,
                except,
                ftab,
                cond,
            } => {
                let src = self.eval(src)?;
                let t = match (ty, target) {
                    (None, None) | (None, Some(Type::Any)) => src.type_of(),
                    _ => self.ctor_type(ty.as_deref(), target, "FILTER")?,
                };
                let ftab = match ftab {
                    Some(f) => Some(self.eval(f)?),
                    None => None,
                };
                self.filter(&t, src, *except, ftab.as_ref(), cond)
            }
            Ctor::Throw(exception) => {
                self.exec_raise(exception)?;
                Err(self.not_supported("THROW without an exception"))
            }
            Ctor::Optional { ty, row, default } => {
                let Expr::Itab { table, sel, comps } = row else {
                    return Err(self.not_supported("VALUE … OPTIONAL of no table expression"));
                };
                let row_type = self.table_row_type(table, comps)?;
                let v = match self.table_expr_row(table, sel)? {
                    Some(mut r) => {
                        for c in comps {
                            r = crate::itab::component(&r, c)
                                .cloned()
                                .ok_or_else(|| self.not_supported(&format!("component {c}")))?;
                        }
                        r
                    }
                    None => match default {
                        Some(d) => self.eval_typed(d, &row_type)?,
                        None => row_type.initial(),
                    },
                };
                match ty {
                    Some(_) => {
                        let t = self.ctor_type(ty.as_deref(), target, "VALUE")?;
                        v.convert(&t).map_err(|e| self.move_error(e, &v, &t))
                    }
                    None => Ok(v),
                }
            }
            Ctor::Bool { string, cond } => {
                let text = if self.cond(cond)? { "X" } else { " " };
                Ok(if *string {
                    Value::Str(text.into())
                } else {
                    Value::C(text.into())
                })
            }
            Ctor::Attr { obj, attr, comps } => {
                let Value::Ref { target, .. } = self.eval(obj)? else {
                    return Err(self.not_supported("attribute of a non-reference"));
                };
                let Some(id) = target else {
                    return Err(self.dump(
                        "OBJECTS_OBJREF_NOT_ASSIGNED",
                        "Access via 'NULL' object reference not possible",
                    ));
                };
                let Some(mut v) = self.st.attr_value(id, attr) else {
                    return Err(self.not_supported(&format!("unknown attribute {attr}")));
                };
                for c in comps {
                    let Some(x) = crate::itab::component(&v, c).cloned() else {
                        return Err(self.not_supported(&format!("component {c}")));
                    };
                    v = x;
                }
                Ok(v)
            }
            Ctor::Let { lets, inner } => {
                self.bind_lets(lets, scope)?;
                self.constructed(inner, target)
            }
            Ctor::MoveCorresponding {
                src,
                dst,
                keep_lines,
            } => {
                let src = self.eval(src)?;
                let current = self.read(dst)?;
                let start = match current {
                    Value::Table(tt, rows) => {
                        Value::Table(tt, if *keep_lines { rows } else { Vec::new() })
                    }
                    other => other,
                };
                self.corresponding(start, &src, &[], &[])
            }
        }
    }

    /// The type a constructor builds: the written type, else the target's.
    /// The type of the rows of `table`, or of their component `comps`.
    fn table_row_type(&mut self, table: &Path, comps: &[String]) -> Exec<Type> {
        let Value::Table(tt, _) = self.read(table)? else {
            return Err(self.not_supported(&format!("{} is not an internal table", table.text())));
        };
        let mut t = tt.line.clone();
        for c in comps {
            t = match &t {
                Type::Struct(st) => st
                    .comps
                    .iter()
                    .find(|(n, _)| n == c)
                    .map(|(_, ct)| ct.clone())
                    .ok_or_else(|| self.not_supported(&format!("component {c}")))?,
                _ => return Err(self.not_supported(&format!("component {c} of a row"))),
            };
        }
        Ok(t)
    }

    fn ctor_type(&self, ty: Option<&str>, target: Option<&Type>, kind: &str) -> Exec<Type> {
        match (ty, target) {
            (Some(name), _) => match crate::value::named_type(name) {
                Some(t) => Ok(t),
                None => self.type_named(name),
            },
            (None, Some(t)) if *t != Type::Any => Ok(t.clone()),
            (None, _) => Err(self.not_supported(&format!("{kind} # without a known target type"))),
        }
    }

    fn end_scope(&mut self, scope: Scope) {
        let Some(frame) = self.st.frames.last_mut() else {
            return;
        };
        frame.vars.truncate(scope.vars_len);
        for (i, v) in scope.shadowed.into_iter().rev() {
            if let Some(slot) = frame.vars.get_mut(i) {
                *slot = v;
            }
        }
        for (name, place) in scope.field_symbols.into_iter().rev() {
            match frame.field_symbols.iter_mut().find(|(n, _)| *n == name) {
                Some(entry) => entry.1 = place,
                None => frame.field_symbols.push((name, place)),
            }
        }
    }

    /// Binds helper variable `name` to `val` (its type is the value's).
    fn bind_helper(&mut self, name: &str, val: Value, scope: &mut Scope) -> Exec<()> {
        let f = self.st.frames.len().saturating_sub(1);
        let Some(frame) = self.st.frames.last_mut() else {
            return Err(self.not_supported("helper variable outside a procedure"));
        };
        if name.starts_with('<') {
            // A field symbol: points to a hidden variable holding the row.
            let hidden = format!("%FOR%{name}");
            let idx = match frame.vars.iter().position(|v| v.name == hidden) {
                Some(i) => {
                    if let Some(v) = frame.vars.get_mut(i) {
                        v.ty = val.type_of();
                        v.val = val;
                    }
                    i
                }
                None => {
                    let mut v = Var::new(&hidden, val.type_of(), VarKind::Local);
                    v.val = val;
                    frame.vars.push(v);
                    frame.vars.len() - 1
                }
            };
            let place = Place {
                slot: Slot::Frame(f, idx),
                steps: Vec::new(),
            };
            let old = frame
                .field_symbols
                .iter()
                .find(|(n, _)| n == name)
                .and_then(|(_, p)| p.clone());
            if !scope.field_symbols.iter().any(|(n, _)| n == name) {
                scope.field_symbols.push((name.to_string(), old));
            }
            match frame.field_symbols.iter_mut().find(|(n, _)| n == name) {
                Some(entry) => entry.1 = Some(place),
                None => frame.field_symbols.push((name.to_string(), Some(place))),
            }
            return Ok(());
        }
        match frame.vars.iter().position(|v| v.name == name) {
            Some(i) => {
                if i < scope.vars_len
                    && !scope.shadowed.iter().any(|(k, _)| *k == i)
                    && let Some(v) = frame.vars.get(i)
                {
                    scope.shadowed.push((i, v.clone()));
                }
                if let Some(v) = frame.vars.get_mut(i) {
                    v.ty = val.type_of();
                    v.val = val;
                    v.read_only = false;
                }
            }
            None => {
                let mut v = Var::new(name, val.type_of(), VarKind::Local);
                v.val = val;
                frame.vars.push(v);
            }
        }
        Ok(())
    }

    fn bind_lets(&mut self, lets: &[(String, Expr)], scope: &mut Scope) -> Exec<()> {
        for (name, e) in lets {
            let v = self.operand_value(e)?;
            self.bind_helper(name, v, scope)?;
        }
        Ok(())
    }

    /// An operand: arithmetic in its own calculation type, else the plain value.
    fn operand_value(&mut self, e: &Expr) -> Exec<Value> {
        if crate::interp::is_arith(e) {
            self.arith(e, None)
        } else {
            self.eval(e)
        }
    }

    /// Runs the iterations `fors[k..]`, calling `body` in the innermost one.
    fn iterate(
        &mut self,
        fors: &[For],
        scope: &mut Scope,
        body: &mut dyn FnMut(&mut Self, &mut Scope) -> Exec<()>,
    ) -> Exec<()> {
        let Some((first, rest)) = fors.split_first() else {
            return body(self, scope);
        };
        match &first.kind {
            ForKind::In {
                table,
                index_into,
                cond,
            } => {
                let Value::Table(_, rows) = self.eval(table)? else {
                    return Err(self.not_supported("FOR … IN a non-table"));
                };
                for (i, row) in rows.into_iter().enumerate() {
                    self.tick()?;
                    if let Some(c) = cond
                        && !self.where_match(c, &row)?
                    {
                        continue;
                    }
                    self.bind_helper(&first.var, row, scope)?;
                    if let Some(ix) = index_into {
                        self.bind_helper(ix, Value::I(crate::itab::as_i32(i + 1)), scope)?;
                    }
                    self.bind_lets(&first.lets, scope)?;
                    self.iterate(rest, scope, body)?;
                }
            }
            ForKind::Groups {
                row,
                table,
                cond,
                key,
                descending,
            } => {
                let Value::Table(tt, rows) = self.eval(table)? else {
                    return Err(self.not_supported("FOR GROUPS … IN a non-table"));
                };
                let mut groups: Vec<(Vec<Value>, Vec<Value>)> = Vec::new();
                for r in rows {
                    self.tick()?;
                    self.bind_helper(row, r.clone(), scope)?;
                    if let Some(c) = cond
                        && !self.where_match(c, &r)?
                    {
                        continue;
                    }
                    let k = match key {
                        crate::groups::GroupKey::Single(e) => vec![self.operand_value(e)?],
                        crate::groups::GroupKey::Fields(parts) => {
                            let mut k = Vec::new();
                            for (_, p) in parts {
                                if let crate::groups::KeyPart::Expr(e) = p {
                                    k.push(self.operand_value(e)?);
                                }
                            }
                            k
                        }
                    };
                    match groups.iter_mut().find(|(gk, _)| *gk == k) {
                        Some((_, members)) => members.push(r),
                        None => groups.push((k, vec![r])),
                    }
                }
                if let Some(desc) = descending {
                    let mut err = None;
                    groups.sort_by(|a, b| {
                        for (x, y) in a.0.iter().zip(&b.0) {
                            match self.compare(x, y) {
                                Ok(Ordering::Equal) => {}
                                Ok(o) => return if *desc { o.reverse() } else { o },
                                Err(e) => {
                                    err.get_or_insert(e);
                                    return Ordering::Equal;
                                }
                            }
                        }
                        Ordering::Equal
                    });
                    if let Some(e) = err {
                        return Err(e);
                    }
                }
                let members_ty = crate::groups::members_type(&tt.line);
                for (gi, (k, members)) in groups.into_iter().enumerate() {
                    self.tick()?;
                    let size = members.len();
                    let value = crate::groups::group_key_value(key, &k, size, gi);
                    self.bind_helper(&first.var, value, scope)?;
                    self.bind_helper(
                        &crate::groups::members_var(&first.var),
                        Value::Table(members_ty.clone(), members),
                        scope,
                    )?;
                    self.bind_lets(&first.lets, scope)?;
                    self.iterate(rest, scope, body)?;
                }
            }
            ForKind::Iter {
                start,
                then,
                until,
                cond,
            } => {
                let v = self.operand_value(start)?;
                let ty = v.type_of();
                self.bind_helper(&first.var, v, scope)?;
                let var = Path {
                    base: first.var.clone(),
                    rest: Vec::new(),
                };
                let mut pass = 0usize;
                loop {
                    self.tick()?;
                    if (!*until || pass > 0) && self.cond(cond)? == *until {
                        break;
                    }
                    pass += 1;
                    self.bind_lets(&first.lets, scope)?;
                    self.iterate(rest, scope, body)?;
                    let next = match then {
                        Some(e) => self.eval_typed(e, &ty)?,
                        None => {
                            let e = Expr::Bin(
                                BinOp::Add,
                                Box::new(Expr::Path(var.clone())),
                                Box::new(Expr::Lit(Value::I(1))),
                            );
                            self.eval_typed(&e, &ty)?
                        }
                    };
                    self.assign_value(&var, next)?;
                }
            }
        }
        Ok(())
    }

    fn value_full(
        &mut self,
        t: &Type,
        base: Option<&Expr>,
        fors: &[For],
        fields: &[(String, Expr)],
        rows: &[Row],
        scope: &mut Scope,
    ) -> Exec<Value> {
        let start = match base {
            Some(b) => self.eval_typed(b, t)?,
            None => t.initial(),
        };
        match start {
            Value::Struct(st, mut comps) => {
                if !rows.is_empty() || !fors.is_empty() {
                    return Err(self.not_supported("table rows in VALUE for a structure"));
                }
                for (name, e) in fields {
                    let Some(i) = st.index_of(name) else {
                        return Err(self.not_supported(&format!("component {name} in VALUE")));
                    };
                    let cty = st.comps.get(i).map(|c| c.1.clone()).unwrap_or(Type::Any);
                    let v = self.eval_typed(e, &cty)?;
                    if let Some(slot) = comps.get_mut(i) {
                        *slot = v;
                    }
                }
                Ok(Value::Struct(st, comps))
            }
            Value::Table(tt, mut out) => {
                if !fields.is_empty() {
                    return Err(self.not_supported("VALUE with components for a table"));
                }
                let line = tt.line.clone();
                let tt2 = tt.clone();
                let mut emit = |it: &mut Self, _: &mut Scope| -> Exec<()> {
                    for r in rows {
                        let new_rows = match r {
                            Row::Line(e) => vec![it.eval_typed(e, &line)?],
                            Row::Fields(f) => {
                                let b = crate::ast::ValueBody {
                                    fields: f.clone(),
                                    rows: Vec::new(),
                                };
                                vec![it.value_of(&line, &b)?]
                            }
                            Row::Lines { src, from, to } => {
                                let src = it.row_range(src, from.as_ref(), to.as_ref())?;
                                let mut conv = Vec::with_capacity(src.len());
                                for s in src {
                                    conv.push(
                                        s.convert(&line)
                                            .map_err(|e| it.move_error(e, &s, &line))?,
                                    );
                                }
                                conv
                            }
                        };
                        for row in new_rows {
                            it.tick()?;
                            if it.insert_by_key(&tt2, &mut out, row)?.is_none() {
                                return Err(it.dump(
                                    "ITAB_DUPLICATE_KEY",
                                    "A row with the same unique key already exists",
                                ));
                            }
                        }
                    }
                    Ok(())
                };
                self.iterate(fors, scope, &mut emit)?;
                Ok(Value::Table(tt, out))
            }
            other => {
                if fields.is_empty() && rows.is_empty() && fors.is_empty() {
                    Ok(other)
                } else {
                    Err(self.not_supported("VALUE with components for an elementary type"))
                }
            }
        }
    }

    fn reduce(
        &mut self,
        t: Option<&Type>,
        init: &[Init],
        fors: &[For],
        next: &[(Path, String, Expr)],
        scope: &mut Scope,
    ) -> Exec<Value> {
        for i in init {
            let v = match (&i.ty, &i.value) {
                (Some(tn), _) => self.ctor_type(Some(tn), None, "INIT")?.initial(),
                (None, Some(e)) => self.operand_value(e)?,
                (None, None) => return Err(self.not_supported("INIT without a value")),
            };
            self.bind_helper(&i.name, v, scope)?;
        }
        let mut step = |it: &mut Self, _: &mut Scope| -> Exec<()> {
            for (target, op, e) in next {
                let ty = it.target_type_of(target)?;
                let v = match op.as_str() {
                    "=" => it.eval_typed(e, &ty)?,
                    "&&=" => {
                        let cur = it.read(target)?;
                        let add = it.operand_value(e)?;
                        let mut s = cur.to_abap_string().map_err(|e| it.conv_error(e))?;
                        s.push_str(&add.to_abap_string().map_err(|e| it.conv_error(e))?);
                        Value::Str(s)
                    }
                    other => {
                        let bin = match other {
                            "+=" => BinOp::Add,
                            "-=" => BinOp::Sub,
                            "*=" => BinOp::Mul,
                            _ => BinOp::Div,
                        };
                        let cur = Expr::Lit(it.read(target)?);
                        let e = Expr::Bin(bin, Box::new(cur), Box::new(e.clone()));
                        it.arith(&e, Some(&ty))?
                    }
                };
                it.assign_value(target, v)?;
            }
            Ok(())
        };
        self.iterate(fors, scope, &mut step)?;
        let Some(first) = init.first() else {
            return Err(self.not_supported("REDUCE without INIT"));
        };
        let result = self.read(&Path {
            base: first.name.clone(),
            rest: Vec::new(),
        })?;
        match t {
            Some(t) => result
                .convert(t)
                .map_err(|e| self.move_error(e, &result, t)),
            None => Ok(result),
        }
    }

    fn filter(
        &mut self,
        t: &Type,
        src: Value,
        except: bool,
        ftab: Option<&Value>,
        cond: &Cond,
    ) -> Exec<Value> {
        let Type::Table(tt) = t else {
            return Err(self.not_supported("FILTER into a non-table"));
        };
        let Value::Table(_, rows) = src else {
            return Err(self.not_supported("FILTER of a non-table"));
        };
        let pairs = match ftab {
            Some(_) => Some(filter_pairs(cond).ok_or_else(|| {
                self.not_supported("FILTER … IN with a condition other than c = f AND …")
            })?),
            None => None,
        };
        let mut out = Vec::new();
        for r in rows {
            self.tick()?;
            let hit = match (ftab, &pairs) {
                (Some(Value::Table(_, frows)), Some(pairs)) => {
                    let mut any = false;
                    for f in frows {
                        let mut all = true;
                        for (c, fc) in pairs {
                            let (Some(x), Some(y)) =
                                (crate::itab::component(&r, c), crate::itab::component(f, fc))
                            else {
                                return Err(self.not_supported(&format!("FILTER component {c}")));
                            };
                            if !self.values_eq(x, y)? {
                                all = false;
                                break;
                            }
                        }
                        if all {
                            any = true;
                            break;
                        }
                    }
                    any
                }
                (Some(_), _) => return Err(self.not_supported("FILTER … IN a non-table")),
                (None, _) => self.where_match(cond, &r)?,
            };
            if hit != except {
                let row = r
                    .convert(&tt.line)
                    .map_err(|e| self.move_error(e, &r, &tt.line))?;
                if self.insert_by_key(tt, &mut out, row)?.is_none() {
                    return Err(self.dump(
                        "ITAB_DUPLICATE_KEY",
                        "A row with the same unique key already exists",
                    ));
                }
            }
        }
        Ok(Value::Table(tt.clone(), out))
    }

    /// `CORRESPONDING`: components of `src` with the same name (or mapped) into `start`.
    fn corresponding(
        &mut self,
        start: Value,
        src: &Value,
        mapping: &[(String, String)],
        except: &[String],
    ) -> Exec<Value> {
        match (start, src) {
            (Value::Struct(st, mut comps), Value::Struct(sst, svals)) => {
                if except.iter().any(|e| e == "*") {
                    // Only the mapped components.
                    for (t, s) in mapping {
                        self.copy_comp(&st, &mut comps, t, sst, svals, s)?;
                    }
                    return Ok(Value::Struct(st, comps));
                }
                let names: Vec<String> = st.comps.iter().map(|(n, _)| n.clone()).collect();
                for name in names {
                    if except.contains(&name) {
                        continue;
                    }
                    let source = match mapping.iter().find(|(t, _)| *t == name) {
                        Some((_, s)) => s.clone(),
                        None => {
                            // A component mapped elsewhere still goes by its own name too.
                            name.clone()
                        }
                    };
                    self.copy_comp(&st, &mut comps, &name, sst, svals, &source)?;
                }
                Ok(Value::Struct(st, comps))
            }
            (Value::Table(tt, mut rows), Value::Table(_, srows)) => {
                for r in srows {
                    self.tick()?;
                    let row = self.corresponding(tt.line.initial(), r, mapping, except)?;
                    if self.insert_by_key(&tt, &mut rows, row)?.is_none() {
                        return Err(self.dump(
                            "ITAB_DUPLICATE_KEY",
                            "A row with the same unique key already exists",
                        ));
                    }
                }
                Ok(Value::Table(tt, rows))
            }
            (start, s) => {
                let ty = start.type_of();
                s.convert(&ty).map_err(|e| self.move_error(e, s, &ty))
            }
        }
    }

    fn copy_comp(
        &mut self,
        st: &crate::value::StructType,
        comps: &mut [Value],
        target: &str,
        sst: &crate::value::StructType,
        svals: &[Value],
        source: &str,
    ) -> Exec<()> {
        let (Some(ti), Some(si)) = (st.index_of(target), sst.index_of(source)) else {
            return Ok(());
        };
        let (Some(slot), Some(v)) = (comps.get_mut(ti), svals.get(si)) else {
            return Ok(());
        };
        let new = match (&*slot, v) {
            (Value::Struct(..), Value::Struct(..)) | (Value::Table(..), Value::Table(..)) => {
                let cur = slot.clone();
                self.corresponding(cur, v, &[], &[])?
            }
            _ => {
                let ty = slot.type_of();
                v.convert(&ty).map_err(|e| self.move_error(e, v, &ty))?
            }
        };
        if let Some(slot) = comps.get_mut(ti) {
            *slot = new;
        }
        Ok(())
    }

    /// An actual parameter for formal parameter `p` of a method of `owner`: a constructor
    /// expression with `#` takes the parameter's type.
    pub fn argument(
        &mut self,
        owner: &'r crate::ast::ClassDef,
        p: &crate::ast::ParamDecl,
        e: &Expr,
    ) -> Exec<Value> {
        let declared = match (&p.ty, typeless(e)) {
            (Ok(t), true) => Some(self.resolve_type(owner, None, t, &[])?),
            _ => None,
        };
        match (declared, e) {
            (Some(t), Expr::New { class, args }) if t != Type::Any => {
                self.new_object(class, args, Some(&t))
            }
            (Some(t), _) if t != Type::Any => self.constructed(e, Some(&t)),
            _ => self.eval(e),
        }
    }

    /// `CAST`/`?=`: an object reference keeps its object when the object's class is the
    /// target type (or below it); otherwise `CX_SY_MOVE_CAST_ERROR`.
    pub fn cast(&mut self, v: Value, t: &Type) -> Exec<Value> {
        let Type::Ref(name) = t else {
            return v.convert(t).map_err(|e| self.move_error(e, &v, t));
        };
        let Value::Ref { target, .. } = &v else {
            return Err(self.dump(
                "MOVE_CAST_ERROR",
                format!("Source type is not compatible with target type {name}"),
            ));
        };
        let Some(obj) = *target else {
            return Ok(Value::Ref {
                static_type: name.clone(),
                target: None,
            });
        };
        if name != "OBJECT" {
            let program = self
                .st
                .frames
                .last()
                .map(|f| f.class.program.clone())
                .unwrap_or_default();
            let Some(def) = self.st.find_class(&program, name) else {
                return Err(self.not_supported(&format!("unknown class {name}")));
            };
            let key = self.st.object_class(obj).unwrap_or_default().to_string();
            if !self.st.is_a(&key, def) && !self.implements_via_interface(&key, def) {
                return Err(self.dump(
                    "MOVE_CAST_ERROR",
                    format!(
                        "Source type \\CLASS={} is not compatible, for the purposes of assignment, with target type {name}",
                        self.st.class_by_key(&key).map_or(key.as_str(), |c| c.name.as_str())
                    ),
                ));
            }
        }
        Ok(Value::Ref {
            static_type: name.clone(),
            target: Some(obj),
        })
    }

    /// True when class `key` implements an interface that includes interface `target`.
    pub fn implements_via_interface(&self, key: &str, target: &crate::ast::ClassDef) -> bool {
        if !target.is_interface {
            return false;
        }
        let Some(c) = self.st.class_by_key(key) else {
            return false;
        };
        let mut todo: Vec<(String, String)> = self
            .st
            .lineage(c)
            .iter()
            .flat_map(|c| c.interfaces.iter().map(|i| (c.program.clone(), i.clone())))
            .collect();
        let mut seen = 0usize;
        while let Some((program, name)) = todo.pop() {
            seen += 1;
            if seen > 256 {
                return false;
            }
            let Some(i) = self.st.find_class(&program, &name) else {
                continue;
            };
            if i.key == target.key {
                return true;
            }
            todo.extend(i.interfaces.iter().map(|n| (i.program.clone(), n.clone())));
        }
        false
    }
}
