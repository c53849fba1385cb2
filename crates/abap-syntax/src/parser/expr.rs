//! Expression parser: tokens of one statement → [`Expr`] / [`Cond`] / calls.
//!
//! Anything outside the subset is reported as [`Unsup`] with a short name of the construct;
//! the statement parser turns that into an "unsupported" statement so loading never fails on
//! valid ABAP the simulator does not know yet.

use crate::ast::{
    BinOp, CallArgs, CallExpr, CallTarget, CmpOp, Cond, Expr, Path, RowSel, Sel, TemplateItem,
    ValueBody, ValueRow,
};
use crate::ast::{BitCmp, BitOp, Ctor, TextOp};
use crate::lexer::{TemplatePart, Token, TokenKind};
use crate::parser::cursor::Cursor;
use crate::parser::cursor::MAX_DEPTH;
use crate::parser::words::{PResult, Unsup, describe, is_name, is_type_name, parse_path};
use abap_data::number::Dec;
use abap_data::value::{Type, Value};

/// Keywords that start constructor expressions (`NEW`, `COND`, `SWITCH` and `CONV` are parsed;
/// the others are outside the subset for now).
const CONSTRUCTORS: &[&str] = &[
    "VALUE",
    "NEW",
    "CONV",
    "CAST",
    "REF",
    "COND",
    "SWITCH",
    "CORRESPONDING",
    "EXACT",
    "REDUCE",
    "FILTER",
    "LET",
];

/// Parses the whole slice as one expression.
pub fn parse_full_expr(toks: &[Token]) -> PResult<Expr> {
    let mut p = Cursor::new(toks);
    let e = p.expr()?;
    p.expect_end()?;
    Ok(e)
}

/// Parses the whole slice as one logical expression.
pub fn parse_full_cond(toks: &[Token]) -> PResult<Cond> {
    let mut p = Cursor::new(toks);
    let c = p.cond()?;
    p.expect_end()?;
    Ok(c)
}

/// Parses the whole slice as call arguments without parentheses (`EXPORTING a = 1 …`, `a = 1`).
pub fn parse_call_args(toks: &[Token]) -> PResult<CallArgs> {
    if toks.is_empty() {
        return Ok(CallArgs::default());
    }
    let mut p = Cursor::new(toks);
    let a = p.call_args()?;
    p.expect_end()?;
    Ok(a)
}

fn cmp_op(w: &str) -> Option<CmpOp> {
    Some(match w.to_ascii_uppercase().as_str() {
        "=" | "EQ" => CmpOp::Eq,
        "<>" | "NE" => CmpOp::Ne,
        "<" | "LT" => CmpOp::Lt,
        ">" | "GT" => CmpOp::Gt,
        "<=" | "LE" => CmpOp::Le,
        ">=" | "GE" => CmpOp::Ge,
        _ => return None,
    })
}

/// A numeric literal: digits, perhaps after a sign (`-1`, `+1`: the ABAP documentation's
/// numeric literals may be "prefixed with a plus or minus sign").
fn number(w: &str) -> Option<PResult<Value>> {
    let digits = w
        .strip_prefix('-')
        .or_else(|| w.strip_prefix('+'))
        .unwrap_or(w);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let Ok(d) = Dec::parse(w) else {
        return Some(Err(Unsup(format!("number literal {w}"))));
    };
    if let Ok(i) = i32::try_from(d.m) {
        return Some(Ok(Value::I(i)));
    }
    // Larger literals have type p (up to 31 digits).
    Some(Value::p_from_dec(d, 16, 0).map_err(|_| Unsup(format!("number literal {w}"))))
}

impl<'t> Cursor<'t> {
    // ---- logical expressions ----

    pub fn cond(&mut self) -> PResult<Cond> {
        self.enter()?;
        let r = self.cond_equiv();
        self.depth -= 1;
        r
    }

    /// `a EQUIV b` binds weakest: true when both sides are true or both are false.
    fn cond_equiv(&mut self) -> PResult<Cond> {
        let mut l = self.cond_or()?;
        while self.peek_kw("EQUIV") {
            self.pos += 1;
            let r = self.cond_or()?;
            self.count_op()?;
            l = Cond::Equiv(Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn cond_or(&mut self) -> PResult<Cond> {
        let mut l = self.cond_and()?;
        while self.peek_kw("OR") {
            self.pos += 1;
            let r = self.cond_and()?;
            self.count_op()?;
            l = Cond::Or(Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn cond_and(&mut self) -> PResult<Cond> {
        let mut l = self.cond_not()?;
        while self.peek_kw("AND") {
            self.pos += 1;
            let r = self.cond_not()?;
            self.count_op()?;
            l = Cond::And(Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn cond_not(&mut self) -> PResult<Cond> {
        if self.peek_kw("NOT") {
            self.pos += 1;
            self.enter()?;
            let c = self.cond_not();
            self.depth -= 1;
            return Ok(Cond::Not(Box::new(c?)));
        }
        // `( cond )` — but `( a + 1 ) > 2` is an arithmetic group: try, and backtrack.
        if matches!(self.peek(), Some(t) if t.kind == TokenKind::LParen && t.space_before) {
            let save = self.pos;
            self.pos += 1;
            if let Ok(c) = self.cond()
                && self.expect_rparen().is_ok()
                && !self.peek().is_some_and(is_operator)
            {
                return Ok(c);
            }
            self.pos = save;
        }
        self.predicate()
    }

    fn predicate(&mut self) -> PResult<Cond> {
        let left = self.expr()?;
        // `line_exists( … )` is a predicate function.
        if let Expr::Call(c) = &left
            && matches!(c.target, CallTarget::Implicit)
            && (c.method == "LINE_EXISTS" || crate::parser::expr::is_predicate_function(&c.method))
            && self.peek().is_none_or(|t| {
                t.is_kw("AND") || t.is_kw("OR") || t.is_kw("EQUIV") || t.kind == TokenKind::RParen
            })
        {
            return Ok(Cond::Cmp(CmpOp::Eq, left, Expr::Lit(Value::C("X".into()))));
        }
        let Some(t) = self.peek() else {
            // A lone functional call `IF meth( ).` is a predicative method call.
            return Err(Unsup("predicative expression".into()));
        };
        if t.is_kw("IS") {
            self.pos += 1;
            let negate = if self.peek_kw("NOT") {
                self.pos += 1;
                true
            } else {
                false
            };
            let c = match self
                .next()
                .and_then(Token::word)
                .map(str::to_ascii_uppercase)
            {
                Some(w) if w == "INITIAL" => Cond::IsInitial(left),
                Some(w) if w == "BOUND" => Cond::IsBound(left),
                Some(w) if w == "ASSIGNED" => Cond::IsAssigned(left),
                Some(w) if w == "SUPPLIED" => match &left {
                    Expr::Path(p) if p.rest.is_empty() => Cond::IsSupplied(p.base.clone()),
                    _ => return Err(Unsup("IS SUPPLIED of a non-parameter".into())),
                },
                Some(w) if w == "INSTANCE" && self.peek_kw("OF") => {
                    self.pos += 1;
                    let class = self
                        .next()
                        .and_then(Token::word)
                        .map(str::to_ascii_uppercase)
                        .filter(|c| is_name(c))
                        .ok_or_else(|| Unsup("IS INSTANCE OF without a class".into()))?;
                    Cond::IsInstanceOf(left, class)
                }
                Some(w) => return Err(Unsup(format!("IS {w}"))),
                None => return Err(Unsup("IS".into())),
            };
            return Ok(if negate { Cond::Not(Box::new(c)) } else { c });
        }
        let negate_in = t.is_kw("NOT") && self.peek_at(1).is_some_and(|n| n.is_kw("IN"));
        if negate_in || t.is_kw("IN") {
            self.pos += if negate_in { 2 } else { 1 };
            let range = self.expr()?;
            self.count_op()?;
            let c = Cond::In(left, range);
            return Ok(if negate_in { Cond::Not(Box::new(c)) } else { c });
        }
        let negate = t.is_kw("NOT") && self.peek_at(1).is_some_and(|n| n.is_kw("BETWEEN"));
        if negate || t.is_kw("BETWEEN") {
            self.pos += if negate { 2 } else { 1 };
            let low = self.expr()?;
            if !self.peek_kw("AND") {
                return Err(Unsup("BETWEEN without AND".into()));
            }
            self.pos += 1;
            let high = self.expr()?;
            self.count_op()?;
            let c = Cond::Between(left, low, high);
            return Ok(if negate { Cond::Not(Box::new(c)) } else { c });
        }
        if let Some(op) = t.word().and_then(cmp_op) {
            self.pos += 1;
            let right = self.expr()?;
            return Ok(Cond::Cmp(op, left, right));
        }
        if let Some(op) = t.word().and_then(bit_cmp) {
            self.pos += 1;
            let right = self.expr()?;
            return Ok(Cond::Bits(op, left, right));
        }
        if let Some(op) = t.word().and_then(crate::parser::expr::text_op) {
            self.pos += 1;
            let right = self.expr()?;
            return Ok(Cond::Text(op, left, right));
        }
        Err(Unsup(format!("relational operator {}", describe(t))))
    }

    // ---- value expressions ----

    pub fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.bit_or();
        self.depth -= 1;
        r
    }

    /// Bit expressions: `BIT-OR` binds weakest, then `BIT-XOR`, `BIT-AND`, `BIT-NOT`.
    fn bit_or(&mut self) -> PResult<Expr> {
        self.bit_level(BitOp::Or)
    }

    fn bit_level(&mut self, op: BitOp) -> PResult<Expr> {
        let (keyword, tighter) = match op {
            BitOp::Or => ("BIT-OR", Some(BitOp::Xor)),
            BitOp::Xor => ("BIT-XOR", Some(BitOp::And)),
            BitOp::And => ("BIT-AND", None),
        };
        let operand = |p: &mut Self| match tighter {
            Some(t) => p.bit_level(t),
            None => p.bit_not(),
        };
        let mut l = operand(self)?;
        while self.peek_kw(keyword) {
            self.pos += 1;
            let r = operand(self)?;
            self.count_op()?;
            l = Expr::Ctor(Box::new(Ctor::Bits(op, l, r)));
        }
        Ok(l)
    }

    fn bit_not(&mut self) -> PResult<Expr> {
        if !self.peek_kw("BIT-NOT") {
            return self.concat();
        }
        self.pos += 1;
        self.count_op()?;
        self.enter()?;
        let e = self.bit_not();
        self.depth -= 1;
        Ok(Expr::Ctor(Box::new(Ctor::BitNot(e?))))
    }

    fn concat(&mut self) -> PResult<Expr> {
        let mut l = self.additive()?;
        while self.peek_kw("&&") {
            self.pos += 1;
            let r = self.additive()?;
            self.count_op()?;
            l = Expr::Concat(Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn additive(&mut self) -> PResult<Expr> {
        let mut l = self.multiplicative()?;
        loop {
            let op = match self.peek().and_then(Token::word) {
                Some("+") => BinOp::Add,
                Some("-") => BinOp::Sub,
                _ => return Ok(l),
            };
            self.pos += 1;
            let r = self.multiplicative()?;
            self.count_op()?;
            l = Expr::Bin(op, Box::new(l), Box::new(r));
        }
    }

    fn multiplicative(&mut self) -> PResult<Expr> {
        let mut l = self.power()?;
        loop {
            let op = match self
                .peek()
                .and_then(Token::word)
                .map(str::to_ascii_uppercase)
            {
                Some(w) if w == "*" => BinOp::Mul,
                Some(w) if w == "/" => BinOp::Div,
                Some(w) if w == "DIV" => BinOp::IntDiv,
                Some(w) if w == "MOD" => BinOp::Mod,
                _ => return Ok(l),
            };
            self.pos += 1;
            let r = self.power()?;
            self.count_op()?;
            l = Expr::Bin(op, Box::new(l), Box::new(r));
        }
    }

    /// `a ** b`: binds tighter than `*` and groups from the right (`2 ** 3 ** 2` is 2 ** 9).
    fn power(&mut self) -> PResult<Expr> {
        let base = self.unary()?;
        if self.peek().and_then(Token::word) != Some("**") {
            return Ok(base);
        }
        self.pos += 1;
        self.count_op()?;
        self.enter()?;
        let exp = self.power();
        self.depth -= 1;
        Ok(Expr::Bin(BinOp::Power, Box::new(base), Box::new(exp?)))
    }

    fn unary(&mut self) -> PResult<Expr> {
        match self.peek().and_then(Token::word) {
            Some("-") => {
                self.pos += 1;
                self.enter()?;
                let e = self.unary();
                self.depth -= 1;
                Ok(Expr::Neg(Box::new(e?)))
            }
            Some("+") => {
                self.pos += 1;
                self.enter()?;
                let e = self.unary();
                self.depth -= 1;
                e
            }
            _ => self.primary(),
        }
    }

    /// One operand and nothing after it (an assignment target such as `itab[ 1 ]-c`).
    pub fn operand_only(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.primary();
        self.depth -= 1;
        r
    }

    fn primary(&mut self) -> PResult<Expr> {
        let Some(t) = self.next() else {
            return Err(Unsup("missing operand".into()));
        };
        match &t.kind {
            TokenKind::CharLit(s) => Ok(Expr::Lit(Value::c_literal(s))),
            TokenKind::StrLit(s) => Ok(Expr::Lit(Value::Str(s.clone().into()))),
            TokenKind::Template(parts) => self.template(parts),
            TokenKind::LParen => {
                let e = self.expr()?;
                self.expect_rparen()?;
                Ok(e)
            }
            TokenKind::Word(w) => self.word_operand(w),
            _ => Err(Unsup(format!("unexpected {}", describe(t)))),
        }
    }

    /// An operand that starts with a word: a literal number, a constructor expression, a table
    /// expression, a call or a data object. Apart from [`Cursor::primary`] so that the frame
    /// of the `( … )` recursion stays small in debug builds.
    #[inline(never)]
    fn word_operand(&mut self, w: &str) -> PResult<Expr> {
        if let Some(n) = number(w) {
            return n.map(Expr::Lit);
        }
        let up = w.to_ascii_uppercase();
        let glued_paren =
            matches!(self.peek(), Some(n) if n.kind == TokenKind::LParen && !n.space_before);
        // `VALUE ty( `, `NEW #( `: a constructor only when a type and a glued `(`
        // follow; otherwise the word names a data object (`value`, `ref`, …).
        let ctor_form =
            self.peek().is_some_and(|t| t.word().is_some()) && glued_paren_next(self.peek_at(1));
        if up == "NEW" && ctor_form {
            let class = self
                .next()
                .and_then(Token::word)
                .map(str::to_ascii_uppercase);
            let glued =
                matches!(self.peek(), Some(n) if n.kind == TokenKind::LParen && !n.space_before);
            match class {
                Some(c) if glued && (c == "#" || is_name(&c)) => {
                    self.pos += 1;
                    let args = self.call_args()?;
                    self.expect_rparen()?;
                    return self.chained(Expr::New {
                        class: c,
                        args: Box::new(args),
                    });
                }
                _ => return Err(Unsup("constructor expression NEW".into())),
            }
        }
        if matches!(up.as_str(), "COND" | "SWITCH" | "CONV") && ctor_form {
            let e = self.constructor(&up)?;
            return self.chained(e);
        }
        if up == "VALUE" && ctor_form {
            let e = self.value_constructor()?;
            return self.chained(e);
        }
        if matches!(up.as_str(), "REDUCE" | "CORRESPONDING" | "CAST" | "FILTER") && ctor_form {
            return self.other_constructor(&up);
        }
        if up == "REF" && ctor_form {
            return self.ref_constructor();
        }
        if let Some(name) = w.strip_suffix('[') {
            return self.table_expr(name);
        }
        if matches!(up.as_str(), "XSDBOOL" | "BOOLC") && glued_paren {
            self.pos += 1;
            let inner = self.group()?;
            let cond = self.sub_cond(inner)?;
            return Ok(Expr::Ctor(Box::new(crate::ast::Ctor::Bool {
                string: up == "BOOLC",
                cond,
            })));
        }
        if CONSTRUCTORS.contains(&up.as_str()) && ctor_form {
            return Err(Unsup(format!("constructor expression {up}")));
        }
        let rest = self.toks.get(self.pos..).unwrap_or(&[]);
        if let Some((access, used)) = crate::parser::access::parse(w, rest)? {
            self.pos += used;
            return Ok(Expr::Sub(Box::new(access)));
        }
        let Some(path) = parse_path(w) else {
            return Err(Unsup(format!("operand {w}")));
        };
        if glued_paren {
            self.pos += 1;
            let call = self.call_rest(path)?;
            return self.attribute_of(Expr::Call(Box::new(call)));
        }
        Ok(Expr::Path(path))
    }

    /// `name = expr …` until the end of the parser's tokens.
    fn field_list(&mut self) -> PResult<Vec<(String, Expr)>> {
        let mut out = Vec::new();
        while self.named_arg_follows() {
            let name = self
                .next()
                .and_then(Token::word)
                .unwrap_or_default()
                .to_ascii_uppercase();
            self.pos += 1;
            let e = self.expr()?;
            self.count_op()?;
            out.push((name, e));
        }
        Ok(out)
    }

    /// After `VALUE`: `type|#( [c = v …] [( row ) …] )`.
    fn value_constructor(&mut self) -> PResult<Expr> {
        let unsup = |what: &str| Unsup(format!("constructor expression VALUE {what}"));
        let ty_word = self
            .next()
            .and_then(Token::word)
            .map(str::to_ascii_uppercase)
            .ok_or_else(|| unsup("without a type"))?;
        if !matches!(self.peek(), Some(n) if n.kind == TokenKind::LParen && !n.space_before) {
            return Err(unsup("without ( )"));
        }
        self.pos += 1;
        let inner = self.group()?;
        let mut p = Cursor::new(inner);
        p.depth = self.depth + 1;
        p.ops = self.ops;
        if p.depth > MAX_DEPTH {
            return Err(Unsup("expression nested too deeply".into()));
        }
        if let Some((e, ops)) =
            crate::parser::constructors::parse_optional(self.depth + 1, self.ops, &ty_word, inner)?
        {
            self.ops = ops;
            return Ok(e);
        }
        if crate::parser::constructors::needs_full_value(inner) {
            let (e, ops) = crate::parser::constructors::parse(
                self.depth + 1,
                self.ops,
                "VALUE",
                &ty_word,
                inner,
            )?;
            self.ops = ops;
            return Ok(e);
        }
        let mut body = ValueBody {
            fields: p.field_list()?,
            rows: Vec::new(),
        };
        while matches!(p.peek(), Some(t) if t.kind == TokenKind::LParen) {
            p.pos += 1;
            let row = p.group()?;
            let mut rp = Cursor::new(row);
            rp.depth = p.depth + 1;
            rp.ops = p.ops;
            // `( )`: an initial row.
            let r = if rp.named_arg_follows() || row.is_empty() {
                ValueRow::Fields(rp.field_list()?)
            } else {
                ValueRow::Line(rp.expr()?)
            };
            rp.expect_end()?;
            rp.count_op()?;
            p.ops = rp.ops;
            body.rows.push(r);
        }
        p.expect_end()?;
        self.ops = p.ops;
        let ty = if ty_word == "#" {
            None
        } else if parse_path(&ty_word).is_some() {
            Some(ty_word)
        } else {
            return Err(unsup(&ty_word));
        };
        Ok(Expr::Value {
            ty,
            body: Box::new(body),
        })
    }

    /// After `REDUCE`/`CORRESPONDING`/`CAST`: `type|#( … )`, see abap-runtime's `interp/constructors`.
    fn other_constructor(&mut self, kind: &str) -> PResult<Expr> {
        let ty_word = self
            .next()
            .and_then(Token::word)
            .map(str::to_ascii_uppercase)
            .ok_or_else(|| Unsup(format!("constructor expression {kind} without a type")))?;
        self.pos += 1;
        let inner = self.group()?;
        let (e, ops) =
            crate::parser::constructors::parse(self.depth + 1, self.ops, kind, &ty_word, inner)?;
        self.ops = ops;
        self.chained(e)
    }

    /// `e->attr[-comp…]` when an attribute selector is glued to `e` (a call or constructor
    /// result), else `e`.
    fn attribute_of(&mut self, e: Expr) -> PResult<Expr> {
        let Some(t) = self.peek() else {
            return Ok(e);
        };
        // `meth( )[ … ]`: a row of the table the call returns.
        if t.word() == Some("[") && !t.space_before {
            self.pos += 1;
            self.count_op()?;
            let (sel, comps, more) = self.row_selector()?;
            let row = Expr::ItabOf {
                source: Box::new(e),
                sel: Box::new(sel),
                comps,
            };
            return self.chained_rows(row, more);
        }
        let Some(w) = t.word() else {
            return Ok(e);
        };
        if t.space_before {
            return Ok(e);
        }
        // `meth( )-comp-sub`, `VALUE ty( … )-comp[ … ]`: components of the structure the
        // expression gives (and a row of a table component).
        if let Some(path) = w.strip_prefix('-')
            && !path.starts_with('>')
        {
            let (path, row) = match path.strip_suffix('[') {
                Some(p) => (p, true),
                None => (path, false),
            };
            let comps: Vec<String> = path.split('-').map(str::to_ascii_uppercase).collect();
            if comps.iter().any(|c| !is_name(c)) {
                return Err(Unsup(format!("component selection on a result {w}")));
            }
            self.count_op()?;
            self.pos += 1;
            let e = Expr::Ctor(Box::new(crate::ast::Ctor::Comps { base: e, comps }));
            return if row {
                self.chained_rows(e, true)
            } else {
                self.chained(e)
            };
        }
        let Some(sel) = w.strip_prefix("->") else {
            return Ok(e);
        };
        let up = sel.to_ascii_uppercase();
        let mut parts = up.split('-');
        let attr = parts.next().unwrap_or_default().to_string();
        let comps: Vec<String> = parts.map(str::to_string).collect();
        if !is_name(&attr) || comps.iter().any(|c| !is_name(c)) {
            return Err(Unsup(format!("attribute access on a call result {w}")));
        }
        self.count_op()?;
        self.pos += 1;
        Ok(Expr::Ctor(Box::new(crate::ast::Ctor::Attr {
            obj: e,
            attr,
            comps,
        })))
    }

    /// `e->m( )…` when a method call is glued to the expression `e`, else `e`.
    fn chained(&mut self, e: Expr) -> PResult<Expr> {
        let Some(t) = self.peek() else {
            return Ok(e);
        };
        let Some(w) = t.word() else {
            return Ok(e);
        };
        if t.space_before {
            return Ok(e);
        }
        let glued =
            matches!(self.peek_at(1), Some(n) if n.kind == TokenKind::LParen && !n.space_before);
        let name = w.trim_start_matches("->").to_ascii_uppercase();
        if !w.starts_with("->") || !glued {
            return self.attribute_of(e);
        }
        if !is_name(&name) {
            return Err(Unsup(format!(
                "attribute access on a constructor result {w}"
            )));
        }
        self.count_op()?;
        self.pos += 2;
        let args = self.call_args()?;
        self.expect_rparen()?;
        let call = self.chain_calls(CallExpr {
            target: CallTarget::Value(Box::new(e)),
            method: name,
            args,
        })?;
        self.attribute_of(Expr::Call(Box::new(call)))
    }

    /// After `REF`: `type|#( dobj )`.
    fn ref_constructor(&mut self) -> PResult<Expr> {
        let ty_word = self
            .next()
            .and_then(Token::word)
            .map(str::to_ascii_uppercase)
            .ok_or_else(|| Unsup("constructor expression REF without a type".into()))?;
        if !matches!(self.peek(), Some(n) if n.kind == TokenKind::LParen && !n.space_before) {
            return Err(Unsup("constructor expression REF without ( )".into()));
        }
        self.pos += 1;
        let inner = self.group()?;
        let arg = crate::parser::constructors::parse_ref_operand(inner).map_err(Unsup)?;
        let ty = match ty_word.as_str() {
            "#" => None,
            t if is_name(t) => Some(ty_word.clone()),
            _ => return Err(Unsup(format!("constructor expression REF {ty_word}"))),
        };
        Ok(Expr::Ref {
            ty,
            arg: Box::new(arg),
        })
    }

    /// After `itab[`: the row selector, its components and the selectors chained to it
    /// (`matrix[ i ][ j ]`, `itab[ 1 ]-sub[ 2 ]-f`).
    fn table_expr(&mut self, name: &str) -> PResult<Expr> {
        let Some(table) = parse_path(name) else {
            return Err(Unsup(format!("table expression {name}")));
        };
        let (sel, comps, more) = self.row_selector()?;
        let e = Expr::Itab {
            table,
            sel: Box::new(sel),
            comps,
        };
        self.chained_rows(e, more)
    }

    /// `e` followed by the table expressions chained to it while a selector ends in `[`.
    fn chained_rows(&mut self, mut e: Expr, mut more: bool) -> PResult<Expr> {
        while more {
            self.count_op()?;
            let (sel, comps, next) = self.row_selector()?;
            e = Expr::ItabOf {
                source: Box::new(e),
                sel: Box::new(sel),
                comps,
            };
            more = next;
        }
        Ok(e)
    }

    /// The inside of `[ … ]` (the `[` consumed) up to and with the closing `]` and the
    /// components after it (`]-comp-sub`); true when the closing token opens the next
    /// selector (`][`, `]-sub[`).
    fn row_selector(&mut self) -> PResult<(RowSel, Vec<String>, bool)> {
        let start = self.pos;
        let close = closing_bracket(&self.toks[start..])
            .ok_or_else(|| Unsup("table expression without ]".into()))?;
        let toks: &'t [Token] = self.toks;
        let inner = &toks[start..start + close];
        let tail = toks[start + close].word().unwrap_or("]");
        self.pos = start + close + 1;
        let mut p = Cursor::nested(inner, self.depth + 1, self.ops)?;
        let sel = p.row_spec()?;
        p.expect_end()?;
        self.ops = p.ops;
        let rest = tail.trim_start_matches(']');
        let (rest, more) = match rest.strip_suffix('[') {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let mut comps = Vec::new();
        if !rest.is_empty() {
            let Some(r) = rest.strip_prefix('-') else {
                return Err(Unsup(format!("table expression {tail}")));
            };
            for c in r.split('-') {
                let c = c.to_ascii_uppercase();
                if !is_name(&c) {
                    return Err(Unsup(format!("table expression {tail}")));
                }
                comps.push(c);
            }
        }
        Ok((sel, comps, more))
    }

    /// What is inside the brackets: `[KEY k INDEX] n`, `c = v …`, `KEY k [COMPONENTS] c = v …`.
    fn row_spec(&mut self) -> PResult<RowSel> {
        if self.skip_kw("KEY") {
            let key = self
                .next()
                .and_then(Token::word)
                .map(str::to_ascii_uppercase)
                .filter(|k| is_name(k))
                .ok_or_else(|| Unsup("table expression with KEY".into()))?;
            if self.skip_kw("INDEX") {
                return Ok(RowSel::KeyIndex(key, self.expr()?));
            }
            self.skip_kw("COMPONENTS");
            if !self.named_arg_follows() {
                return Err(Unsup("table expression with KEY".into()));
            }
            return Ok(RowSel::KeyComps(key, self.field_list()?));
        }
        if self.named_arg_follows() {
            Ok(RowSel::Key(self.field_list()?))
        } else {
            Ok(RowSel::Index(self.expr()?))
        }
    }

    /// After `COND`/`SWITCH`/`CONV`: `type|#( … )`.
    fn constructor(&mut self, kind: &str) -> PResult<Expr> {
        let unsup = |what: &str| Unsup(format!("constructor expression {kind} {what}"));
        let ty_word = self
            .next()
            .and_then(Token::word)
            .map(str::to_ascii_uppercase)
            .ok_or_else(|| unsup("without a type"))?;
        let glued =
            matches!(self.peek(), Some(n) if n.kind == TokenKind::LParen && !n.space_before);
        if !glued {
            return Err(unsup("without ( )"));
        }
        let ty = if ty_word == "#" {
            None
        } else {
            // A built-in name, else a name declared with `TYPES` (also `ty-comp`), resolved
            // when the expression runs.
            match abap_data::value::named_type(&ty_word) {
                Some(t) => Some(t),
                None if is_type_name(&ty_word) => Some(Type::Named(ty_word.clone())),
                None => return Err(unsup(&ty_word)),
            }
        };
        self.pos += 1;
        // The matching `)`.
        let start = self.pos;
        let mut depth = 0usize;
        let mut end = None;
        for (i, t) in self.toks[start..].iter().enumerate() {
            match t.kind {
                TokenKind::LParen => depth += 1,
                TokenKind::RParen if depth == 0 => {
                    end = Some(start + i);
                    break;
                }
                TokenKind::RParen => depth -= 1,
                _ => {}
            }
        }
        let end = end.ok_or_else(|| Unsup("missing )".into()))?;
        let toks: &'t [Token] = self.toks;
        let inner = &toks[start..end];
        self.pos = end + 1;
        // Split at the top-level WHEN / THEN / ELSE.
        let mut segments: Vec<(String, &[Token])> = Vec::new();
        let mut depth = 0usize;
        let mut from = 0;
        let mut key = String::new();
        for (i, t) in inner.iter().enumerate() {
            match t.kind {
                TokenKind::LParen => depth += 1,
                TokenKind::RParen => depth = depth.saturating_sub(1),
                _ => {}
            }
            let kw = t.word().map(str::to_ascii_uppercase).unwrap_or_default();
            if depth == 0 && matches!(kw.as_str(), "WHEN" | "THEN" | "ELSE") {
                segments.push((std::mem::take(&mut key), &inner[from..i]));
                key = kw;
                from = i + 1;
            }
        }
        segments.push((key, &inner[from..]));
        if inner.first().is_some_and(|t| t.is_kw("LET")) {
            let (e, ops) = crate::parser::constructors::parse_let(
                self.depth + 1,
                self.ops,
                kind,
                &ty_word,
                inner,
            )?;
            self.ops = ops;
            return Ok(e);
        }
        if inner.first().is_some_and(|t| t.is_kw("BASE")) {
            return Err(unsup("with BASE"));
        }
        self.enter()?;
        let r = self.constructor_parts(kind, ty, &segments);
        self.depth -= 1;
        r
    }

    fn constructor_parts(
        &mut self,
        kind: &str,
        ty: Option<abap_data::value::Type>,
        segments: &[(String, &[Token])],
    ) -> PResult<Expr> {
        let unsup = |what: &str| Unsup(format!("constructor expression {kind} {what}"));
        let Some(((_, head), rest)) = segments.split_first() else {
            return Err(unsup("without operands"));
        };
        if kind == "CONV" {
            if !rest.is_empty() {
                return Err(unsup("with WHEN"));
            }
            let arg = self.sub_expr(head)?;
            return Ok(Expr::Conv {
                ty,
                arg: Box::new(arg),
            });
        }
        let subject = if kind == "SWITCH" {
            Some(self.sub_expr(head)?)
        } else if head.is_empty() {
            None
        } else {
            return Err(unsup("with LET"));
        };
        let mut pairs: Vec<(&[Token], &[Token])> = Vec::new();
        let mut otherwise = None;
        let mut i = 0;
        while let Some((key, toks)) = rest.get(i) {
            match (key.as_str(), rest.get(i + 1)) {
                ("WHEN", Some((then, value))) if then == "THEN" && otherwise.is_none() => {
                    pairs.push((toks, value));
                    i += 2;
                }
                ("ELSE", None) => {
                    otherwise = Some(Box::new(self.branch_expr(toks)?));
                    i += 1;
                }
                _ => return Err(unsup(&format!("with {key} here"))),
            }
        }
        if pairs.is_empty() {
            return Err(unsup("without WHEN"));
        }
        match subject {
            Some(subject) => {
                let mut whens = Vec::new();
                for (w, t) in pairs {
                    whens.push((self.sub_expr(w)?, self.branch_expr(t)?));
                }
                Ok(Expr::Switch {
                    ty,
                    subject: Box::new(subject),
                    whens,
                    otherwise,
                })
            }
            None => {
                let mut branches = Vec::new();
                for (w, t) in pairs {
                    branches.push((self.sub_cond(w)?, self.branch_expr(t)?));
                }
                Ok(Expr::Choose {
                    ty,
                    branches,
                    otherwise,
                })
            }
        }
    }

    /// The operand after `THEN`/`ELSE` of `COND`/`SWITCH`: an expression, or `THROW cx( … )`,
    /// which raises that exception when the branch is chosen.
    fn branch_expr(&mut self, toks: &[Token]) -> PResult<Expr> {
        let Some(rest) = toks
            .split_first()
            .filter(|(t, _)| t.is_kw("THROW"))
            .map(|(_, r)| r)
        else {
            return self.sub_expr(toks);
        };
        if rest
            .first()
            .is_some_and(|t| t.is_kw("RESUMABLE") || t.is_kw("SHORTDUMP"))
        {
            return Err(Unsup("THROW RESUMABLE|SHORTDUMP".into()));
        }
        match self.sub_expr(rest)? {
            Expr::Call(c) if matches!(c.target, CallTarget::Implicit) => Ok(Expr::Ctor(Box::new(
                crate::ast::Ctor::Throw(Box::new(Expr::New {
                    class: c.method,
                    args: Box::new(c.args),
                })),
            ))),
            _ => Err(Unsup("THROW without an exception class".into())),
        }
    }

    /// A nested token slice as one whole expression (depth and operator budget shared).
    fn sub_expr(&mut self, toks: &[Token]) -> PResult<Expr> {
        if toks.is_empty() {
            return Err(Unsup("missing operand".into()));
        }
        let mut inner = Cursor::new(toks);
        inner.depth = self.depth;
        inner.ops = self.ops;
        let e = inner.expr()?;
        inner.expect_end()?;
        self.ops = inner.ops;
        Ok(e)
    }

    fn sub_cond(&mut self, toks: &[Token]) -> PResult<Cond> {
        if toks.is_empty() {
            return Err(Unsup("missing condition".into()));
        }
        let mut inner = Cursor::new(toks);
        inner.depth = self.depth;
        inner.ops = self.ops;
        let c = inner.cond()?;
        inner.expect_end()?;
        self.ops = inner.ops;
        Ok(c)
    }

    fn template(&mut self, parts: &[TemplatePart]) -> PResult<Expr> {
        let mut items = Vec::new();
        for p in parts {
            match p {
                TemplatePart::Text(s) => items.push(TemplateItem::Text(s.clone())),
                TemplatePart::Expr(toks) => {
                    let mut inner = Cursor::new(toks);
                    inner.depth = self.depth + 1;
                    inner.ops = self.ops;
                    let e = inner.expr()?;
                    self.ops = inner.ops;
                    if inner.at_end() {
                        items.push(TemplateItem::Expr(e));
                    } else {
                        let opts = crate::parser::template::parse_options(
                            toks.get(inner.position()..).unwrap_or(&[]),
                        )?;
                        items.push(TemplateItem::Formatted(e, opts));
                    }
                }
            }
        }
        Ok(Expr::Template(items))
    }

    /// After `name(`: arguments, `)`, then chained `->meth( )` calls.
    fn call_rest(&mut self, path: Path) -> PResult<CallExpr> {
        let (target, method) = split_call_path(path)?;
        let args = self.call_args()?;
        self.expect_rparen()?;
        self.chain_calls(CallExpr {
            target,
            method,
            args,
        })
    }

    /// `call->b( )->c( )…`: the next word starts with `->` and touches the `)`.
    fn chain_calls(&mut self, mut call: CallExpr) -> PResult<CallExpr> {
        while let Some(t) = self.peek() {
            let Some(w) = t.word() else { break };
            if t.space_before || !w.starts_with("->") {
                break;
            }
            let glued = matches!(self.peek_at(1), Some(n) if n.kind == TokenKind::LParen && !n.space_before);
            let name = w.trim_start_matches("->").to_ascii_uppercase();
            if !glued {
                // An attribute of the result: the caller reads it (`attribute_of`).
                break;
            }
            if !is_name(&name) {
                return Err(Unsup(format!("attribute access on a call result {w}")));
            }
            self.count_op()?;
            self.pos += 2;
            let args = self.call_args()?;
            self.expect_rparen()?;
            call = CallExpr {
                target: CallTarget::Result(Box::new(call)),
                method: name,
                args,
            };
        }
        Ok(call)
    }

    fn call_args(&mut self) -> PResult<CallArgs> {
        let mut args = CallArgs::default();
        let Some(t) = self.peek() else {
            return Err(Unsup("missing )".into()));
        };
        if t.kind == TokenKind::RParen {
            return Ok(args);
        }
        let section = |t: &Token| {
            [
                "EXPORTING",
                "IMPORTING",
                "CHANGING",
                "RECEIVING",
                "EXCEPTIONS",
            ]
            .into_iter()
            .find(|k| t.is_kw(k))
        };
        if section(t).is_some() {
            while let Some(t) = self.peek() {
                if t.kind == TokenKind::RParen {
                    break;
                }
                let Some(kw) = section(t) else {
                    return Err(Unsup(format!("unexpected {}", describe(t))));
                };
                self.pos += 1;
                while self.named_arg_follows() {
                    let name = self
                        .next()
                        .and_then(Token::word)
                        .unwrap_or_default()
                        .to_ascii_uppercase();
                    self.pos += 1; // `=`
                    match kw {
                        "EXPORTING" => {
                            let e = self.expr()?;
                            args.exporting.push((name, e));
                        }
                        "EXCEPTIONS" => {
                            let e = self.expr()?;
                            args.exceptions.push((name, e));
                        }
                        "IMPORTING" | "RECEIVING"
                            if let Some((declared, used)) = self
                                .toks
                                .get(self.pos..)
                                .and_then(crate::parser::words::inline_decl) =>
                        {
                            self.pos += used;
                            let p = Path {
                                base: declared.clone(),
                                rest: Vec::new(),
                            };
                            args.declared.push(declared);
                            match kw {
                                "IMPORTING" => args.importing.push((name, p)),
                                _ => args.receiving = Some(p),
                            }
                        }
                        _ => {
                            let p = self.target_path()?;
                            match kw {
                                "IMPORTING" => args.importing.push((name, p)),
                                "CHANGING" => args.changing.push((name, p)),
                                _ => args.receiving = Some(p),
                            }
                        }
                    }
                }
            }
            return Ok(args);
        }
        if self.named_arg_follows() {
            while self.named_arg_follows() {
                let name = self
                    .next()
                    .and_then(Token::word)
                    .unwrap_or_default()
                    .to_ascii_uppercase();
                self.pos += 1;
                let e = self.expr()?;
                args.exporting.push((name, e));
            }
            return Ok(args);
        }
        args.positional = Some(self.expr()?);
        Ok(args)
    }

    /// `name =` ahead.
    fn named_arg_follows(&self) -> bool {
        let name = self.peek().and_then(Token::word).is_some_and(is_name_word);
        let eq = self.peek_at(1).is_some_and(|t| t.word() == Some("="));
        name && eq
    }

    /// A writable data object name (call `IMPORTING`/`CHANGING` targets).
    pub fn target_path(&mut self) -> PResult<Path> {
        match self.next() {
            Some(t) => match t.word().and_then(parse_path) {
                Some(p) if !matches!(self.peek(), Some(n) if n.kind == TokenKind::LParen && !n.space_before) => {
                    Ok(p)
                }
                _ => Err(Unsup(format!("target {}", describe(t)))),
            },
            None => Err(Unsup("missing target".into())),
        }
    }
}

/// A `(` glued to the word before it.
fn glued_paren_next(t: Option<&Token>) -> bool {
    t.is_some_and(|n| n.kind == TokenKind::LParen && !n.space_before)
}

fn is_name_word(w: &str) -> bool {
    is_name(&w.to_ascii_uppercase())
}

/// Splits `ref->meth` / `zcl=>meth` / `meth` into the call target and method name.
fn split_call_path(mut path: Path) -> PResult<(CallTarget, String)> {
    match path.rest.pop() {
        None => Ok((CallTarget::Implicit, path.base)),
        Some((Sel::Arrow, m)) => Ok((CallTarget::Object(path), m)),
        Some((Sel::Static, m)) if path.rest.is_empty() => Ok((CallTarget::Class(path.base), m)),
        Some((_, m)) => Err(Unsup(format!("call of {m}"))),
    }
}

/// Tokens that continue an expression after a `)` (so a parenthesis was not a condition).
fn is_operator(t: &Token) -> bool {
    t.word().is_some_and(|w| {
        cmp_op(w).is_some()
            || matches!(
                w.to_ascii_uppercase().as_str(),
                "+" | "-" | "*" | "/" | "DIV" | "MOD" | "**" | "&&" | "IS"
            )
    })
}

/// Where the `]` that closes a table expression's selector is in `toks` (which start after
/// its `[`): selectors nested inside it (`t[ u[ 1 ] ]`) are skipped.
fn closing_bracket(toks: &[Token]) -> Option<usize> {
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate() {
        let Some(w) = t.word() else { continue };
        if w.starts_with(']') {
            if depth == 0 {
                return Some(i);
            }
            depth -= 1;
        }
        if w.ends_with('[') {
            depth += 1;
        }
    }
    None
}

/// The operator named by a word (`CO`, `cs`, …).
/// `O`, `Z`, `M`: the relational operators for bit patterns.
fn bit_cmp(w: &str) -> Option<BitCmp> {
    Some(match w.to_ascii_uppercase().as_str() {
        "O" => BitCmp::Ones,
        "Z" => BitCmp::Zeros,
        "M" => BitCmp::Mixed,
        _ => return None,
    })
}

pub fn text_op(w: &str) -> Option<TextOp> {
    Some(match w.to_ascii_uppercase().as_str() {
        "CO" => TextOp::Co,
        "CN" => TextOp::Cn,
        "CA" => TextOp::Ca,
        "NA" => TextOp::Na,
        "CS" => TextOp::Cs,
        "NS" => TextOp::Ns,
        "CP" => TextOp::Cp,
        "NP" => TextOp::Np,
        _ => return None,
    })
}

/// Functions that are only allowed as a logical expression (`IF contains( … )`).
pub fn is_predicate_function(name: &str) -> bool {
    matches!(
        name,
        "CONTAINS" | "CONTAINS_ANY_OF" | "CONTAINS_ANY_NOT_OF" | "MATCHES"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn e(src: &str) -> PResult<Expr> {
        parse_full_expr(&lex(src).unwrap())
    }

    fn c(src: &str) -> PResult<Cond> {
        parse_full_cond(&lex(src).unwrap())
    }

    #[test]
    fn paths() {
        assert_eq!(
            parse_path("out->write"),
            Some(Path {
                base: "OUT".into(),
                rest: vec![(Sel::Arrow, "WRITE".into())]
            })
        );
        assert_eq!(
            parse_path("sy-index").map(|p| p.text()),
            Some("SY-INDEX".into())
        );
        assert_eq!(
            parse_path("zcl_x=>gv").map(|p| p.text()),
            Some("ZCL_X=>GV".into())
        );
        assert_eq!(parse_path("if_x~m").map(|p| p.base), Some("IF_X~M".into()));
        assert_eq!(parse_path("-"), None);
        assert_eq!(parse_path("1abc"), None);
    }

    #[test]
    fn arithmetic_precedence() {
        let Ok(Expr::Bin(BinOp::Add, _, r)) = e("a + b * 2") else {
            panic!("not add")
        };
        assert!(matches!(*r, Expr::Bin(BinOp::Mul, _, _)));
        let Ok(Expr::Bin(BinOp::Mul, l, _)) = e("( a + b ) * 2") else {
            panic!("not mul")
        };
        assert!(matches!(*l, Expr::Bin(BinOp::Add, _, _)));
        assert!(matches!(e("-5"), Ok(Expr::Lit(Value::I(-5)))));
        assert!(matches!(e("- a"), Ok(Expr::Neg(_))));
        assert!(matches!(e("99999999999"), Ok(Expr::Lit(Value::P { .. }))));
    }

    #[test]
    fn calls() {
        let Ok(Expr::Call(call)) = e("line_total( iv_quantity = lv_count iv_price = 10 )") else {
            panic!()
        };
        assert!(matches!(call.target, CallTarget::Implicit));
        assert_eq!(call.method, "LINE_TOTAL");
        assert_eq!(call.args.exporting.len(), 2);
        let Ok(Expr::Call(call)) = e("out->write( |a{ x }| )->write( 1 )") else {
            panic!()
        };
        assert!(matches!(call.target, CallTarget::Result(_)));
        let Ok(Expr::Call(call)) = e("me->m( EXPORTING a = 1 IMPORTING b = c )") else {
            panic!()
        };
        assert_eq!(call.args.importing.len(), 1);
        assert!(e("VALUE #( )").is_ok());
        assert!(e("REDUCE #( )").is_err());
    }

    #[test]
    fn conditions() {
        assert!(matches!(c("a > 50"), Ok(Cond::Cmp(CmpOp::Gt, _, _))));
        assert!(matches!(
            c("a EQ 1 AND NOT b = 2 OR c IS INITIAL"),
            Ok(Cond::Or(_, _))
        ));
        assert!(matches!(
            c("( a = 1 OR b = 2 ) AND c = 3"),
            Ok(Cond::And(_, _))
        ));
        assert!(matches!(c("( a + 1 ) > 2"), Ok(Cond::Cmp(CmpOp::Gt, _, _))));
        assert!(matches!(c("r IS NOT BOUND"), Ok(Cond::Not(_))));
        assert!(c("a").is_err());
    }
}
