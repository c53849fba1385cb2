//! Breakpoint and watchpoint conditions: a small ABAP logical-expression evaluator over the
//! debuggee's variable values (the interpreter offers no expression evaluation to the
//! debugger).
//!
//! Grammar (case-insensitive keywords):
//! `cond := term { OR term }`, `term := factor { AND factor }`,
//! `factor := NOT factor | ( cond ) | operand IS [NOT] INITIAL | operand op operand`,
//! `op := = | EQ | <> | NE | < | LT | > | GT | <= | LE | >= | GE`,
//! `operand := variable id (LV_X, LS-F, LT[2]-F, ME->A, SY-SUBRC) | number | 'text' | `text``.
//! Numbers compare numerically when both sides read as numbers (ADT display values such as
//! `15 `, `42-`, `12.50 `); otherwise texts compare with trailing blanks ignored.

use abap::VarRecord;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Operand {
    Var(String),
    Num(f64),
    Text(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cond {
    Cmp(Operand, Op, Operand),
    Initial(Operand),
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
}

/// Longest condition accepted.
const MAX_LEN: usize = 1000;
const MAX_NESTING: usize = 32;

fn tokens(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '\'' || c == '`' {
            let mut s = String::from(c);
            i += 1;
            loop {
                match chars.get(i) {
                    None => return Err("unterminated literal".into()),
                    Some(&d) if d == c => {
                        if chars.get(i + 1) == Some(&c) {
                            s.push(c);
                            i += 2;
                        } else {
                            i += 1;
                            break;
                        }
                    }
                    Some(&d) => {
                        s.push(d);
                        i += 1;
                    }
                }
            }
            out.push(s);
        } else if c == '(' || c == ')' {
            out.push(c.to_string());
            i += 1;
        } else if c == '<'
            && chars
                .get(i + 1)
                .is_some_and(|d| d.is_alphabetic() || *d == '_')
            && chars[i..]
                .iter()
                .take_while(|d| !d.is_whitespace())
                .any(|d| *d == '>')
        {
            // A field symbol `<FS>` (possibly followed by a path such as `<FS>-COMP`).
            let mut s = String::new();
            while let Some(&d) = chars.get(i) {
                s.push(d);
                i += 1;
                if d == '>' {
                    break;
                }
            }
            i = word(&chars, i, &mut s);
            out.push(s);
        } else if c == '<' || c == '>' || c == '=' {
            let mut s = c.to_string();
            if let Some(&d) = chars.get(i + 1)
                && (d == '=' || (c == '<' && d == '>'))
            {
                s.push(d);
                i += 1;
            }
            out.push(s);
            i += 1;
        } else {
            let mut s = String::new();
            i = word(&chars, i, &mut s);
            if s.is_empty() {
                return Err(format!("unexpected character '{c}'"));
            }
            out.push(s);
        }
    }
    Ok(out)
}

/// Continue a word (variable path or number) from `i`; `->` and `=>` stay inside it.
fn word(chars: &[char], mut i: usize, s: &mut String) -> usize {
    while let Some(&d) = chars.get(i) {
        let arrow = (d == '-' || d == '=') && chars.get(i + 1) == Some(&'>');
        if arrow {
            s.push(d);
            s.push('>');
            i += 2;
            continue;
        }
        if d.is_whitespace() || matches!(d, '(' | ')' | '=' | '\'' | '`' | '<' | '>') {
            break;
        }
        s.push(d);
        i += 1;
    }
    i
}

struct Parser {
    toks: Vec<String>,
    pos: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<String> {
        self.toks.get(self.pos).map(|t| t.to_ascii_uppercase())
    }

    fn next(&mut self) -> Option<String> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }

    fn cond(&mut self) -> Result<Cond, String> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err("condition nested too deeply".into());
        }
        let mut left = self.term()?;
        while self.peek().as_deref() == Some("OR") {
            self.pos += 1;
            let right = self.term()?;
            left = Cond::Or(Box::new(left), Box::new(right));
        }
        self.depth -= 1;
        Ok(left)
    }

    fn term(&mut self) -> Result<Cond, String> {
        let mut left = self.factor()?;
        while self.peek().as_deref() == Some("AND") {
            self.pos += 1;
            let right = self.factor()?;
            left = Cond::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn factor(&mut self) -> Result<Cond, String> {
        match self.peek().as_deref() {
            Some("NOT") => {
                self.pos += 1;
                self.depth += 1;
                if self.depth > MAX_NESTING {
                    return Err("condition nested too deeply".into());
                }
                let inner = self.factor()?;
                self.depth -= 1;
                Ok(Cond::Not(Box::new(inner)))
            }
            Some("(") => {
                self.pos += 1;
                let inner = self.cond()?;
                if self.next().as_deref() != Some(")") {
                    return Err("')' expected".into());
                }
                Ok(inner)
            }
            _ => {
                let left = self.operand()?;
                let op = self.next().ok_or("comparison operator expected")?;
                let op = match op.to_ascii_uppercase().as_str() {
                    "=" | "EQ" => Op::Eq,
                    "<>" | "NE" => Op::Ne,
                    "<" | "LT" => Op::Lt,
                    ">" | "GT" => Op::Gt,
                    "<=" | "LE" => Op::Le,
                    ">=" | "GE" => Op::Ge,
                    "IS" => {
                        let negated = self.peek().as_deref() == Some("NOT");
                        if negated {
                            self.pos += 1;
                        }
                        if self.next().map(|t| t.to_ascii_uppercase()).as_deref() != Some("INITIAL")
                        {
                            return Err("INITIAL expected after IS".into());
                        }
                        let c = Cond::Initial(left);
                        return Ok(if negated { Cond::Not(Box::new(c)) } else { c });
                    }
                    other => return Err(format!("unknown operator {other}")),
                };
                let right = self.operand()?;
                Ok(Cond::Cmp(left, op, right))
            }
        }
    }

    fn operand(&mut self) -> Result<Operand, String> {
        let t = self.next().ok_or("operand expected")?;
        if let Some(rest) = t.strip_prefix('\'').or_else(|| t.strip_prefix('`')) {
            return Ok(Operand::Text(rest.to_string()));
        }
        if matches!(t.as_str(), "(" | ")") {
            return Err(format!("operand expected, found '{t}'"));
        }
        if let Ok(n) = t.parse::<f64>() {
            return Ok(Operand::Num(n));
        }
        let upper = t.to_ascii_uppercase();
        if matches!(upper.as_str(), "AND" | "OR" | "NOT" | "IS") {
            return Err(format!("operand expected, found {upper}"));
        }
        Ok(Operand::Var(upper))
    }
}

/// Parse a condition; `Err` carries a message for the client.
pub(crate) fn parse(text: &str) -> Result<Cond, String> {
    if text.len() > MAX_LEN {
        return Err("condition too long".into());
    }
    let toks = tokens(text)?;
    if toks.is_empty() {
        return Err("empty condition".into());
    }
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    let c = p.cond()?;
    if p.pos < p.toks.len() {
        return Err(format!("unexpected '{}'", p.toks[p.pos]));
    }
    Ok(c)
}

/// An ADT display value as a number (`15 `, `42-`, `12.50 `).
fn number(display: &str) -> Option<f64> {
    let t = display.trim();
    if t.is_empty() {
        return None;
    }
    let (t, neg) = match t.strip_suffix('-') {
        Some(r) => (r.trim(), true),
        None => (t, false),
    };
    let n: f64 = t.parse().ok()?;
    Some(if neg { -n } else { n })
}

enum Val {
    Num(f64),
    Text(String),
    Table(u32),
}

fn value(o: &Operand, lookup: &dyn Fn(&str) -> Option<VarRecord>) -> Result<Val, String> {
    Ok(match o {
        Operand::Num(n) => Val::Num(*n),
        Operand::Text(t) => Val::Text(t.clone()),
        Operand::Var(id) => {
            let r = lookup(id).ok_or_else(|| format!("Variable {id} is unknown"))?;
            if r.meta_type == "table" {
                Val::Table(r.table_lines)
            } else if matches!(r.meta_type.as_str(), "simple" | "")
                && let Some(n) = number(&r.value)
                && r.technical_type != "C"
                && r.technical_type != "N"
                && r.technical_type != "D"
                && r.technical_type != "T"
            {
                Val::Num(n)
            } else {
                Val::Text(r.value)
            }
        }
    })
}

fn compare(a: Val, op: Op, b: Val) -> bool {
    use std::cmp::Ordering;
    let ord = match (&a, &b) {
        (Val::Num(x), Val::Num(y)) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        (Val::Table(x), Val::Table(y)) => x.cmp(y),
        (Val::Num(x), Val::Text(t)) => match number(t) {
            Some(y) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
            None => x.to_string().cmp(&t.trim_end().to_string()),
        },
        (Val::Text(t), Val::Num(y)) => match number(t) {
            Some(x) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
            None => t.trim_end().to_string().cmp(&y.to_string()),
        },
        _ => text_of(&a).trim_end().cmp(text_of(&b).trim_end()),
    };
    match op {
        Op::Eq => ord == Ordering::Equal,
        Op::Ne => ord != Ordering::Equal,
        Op::Lt => ord == Ordering::Less,
        Op::Gt => ord == Ordering::Greater,
        Op::Le => ord != Ordering::Greater,
        Op::Ge => ord != Ordering::Less,
    }
}

fn text_of(v: &Val) -> &str {
    match v {
        Val::Text(t) => t,
        _ => "",
    }
}

/// Evaluate; `Err` = the condition cannot be resolved here (unknown variable).
pub(crate) fn eval(c: &Cond, lookup: &dyn Fn(&str) -> Option<VarRecord>) -> Result<bool, String> {
    Ok(match c {
        Cond::Cmp(a, op, b) => compare(value(a, lookup)?, *op, value(b, lookup)?),
        Cond::Initial(a) => match value(a, lookup)? {
            Val::Num(n) => n == 0.0,
            Val::Table(n) => n == 0,
            Val::Text(t) => {
                let t = t.trim();
                t.is_empty() || t.chars().all(|c| c == '0') || t.starts_with("{O:INITIAL")
            }
        },
        Cond::Not(x) => !eval(x, lookup)?,
        Cond::And(x, y) => eval(x, lookup)? && eval(y, lookup)?,
        Cond::Or(x, y) => eval(x, lookup)? || eval(y, lookup)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rec(id: &str, value: &str, tech: &str) -> VarRecord {
        VarRecord {
            id: id.into(),
            value: value.into(),
            technical_type: tech.into(),
            meta_type: "simple".into(),
            ..VarRecord::default()
        }
    }

    fn lookup(id: &str) -> Option<VarRecord> {
        match id {
            "LV_COUNT" => Some(rec(id, "2 ", "I")),
            "LV_NEG" => Some(rec(id, "42-", "I")),
            "LV_CODE" => Some(rec(id, "A001      ", "C")),
            "LV_RATE" => Some(rec(id, "12.50 ", "P")),
            "LS-F" => Some(rec(id, "0 ", "I")),
            _ => None,
        }
    }

    fn ev(s: &str) -> Result<bool, String> {
        eval(&parse(s)?, &lookup)
    }

    #[test]
    fn evaluates() {
        assert_eq!(ev("LV_COUNT = 2"), Ok(true));
        assert_eq!(ev("lv_count > 1 AND lv_count < 3"), Ok(true));
        assert_eq!(ev("LV_COUNT GE 3 OR LV_NEG LT -40"), Ok(true));
        assert_eq!(ev("LV_CODE = 'A001'"), Ok(true));
        assert_eq!(ev("LV_CODE <> `A001`"), Ok(false));
        assert_eq!(ev("LV_RATE >= '12.5'"), Ok(true));
        assert_eq!(ev("LS-F IS INITIAL"), Ok(true));
        assert_eq!(ev("NOT ( LV_COUNT IS NOT INITIAL )"), Ok(false));
        assert_eq!(ev("LV_COUNT<>2"), Ok(false));
        assert!(ev("LV_NOPE = 1").is_err());
        assert!(parse("LV_COUNT =").is_err());
        assert!(parse("= 1").is_err());
        assert!(parse("(LV_COUNT = 1").is_err());
        assert!(parse("'abc").is_err());
        assert!(parse("").is_err());
        assert_eq!(
            parse("ME->MV_X = 1 AND <FS> IS INITIAL").unwrap(),
            Cond::And(
                Box::new(Cond::Cmp(
                    Operand::Var("ME->MV_X".into()),
                    Op::Eq,
                    Operand::Num(1.0)
                )),
                Box::new(Cond::Initial(Operand::Var("<FS>".into())))
            )
        );
    }

    proptest! {
        #[test]
        fn never_panics(s in ".{0,200}") {
            if let Ok(c) = parse(&s) {
                let _ = eval(&c, &lookup);
            }
        }

        #[test]
        fn deep_nesting_is_refused(n in 0usize..200) {
            let s = format!("{}LV_COUNT = 1{}", "( ".repeat(n), " )".repeat(n));
            let _ = parse(&s);
            let s = format!("{}LV_COUNT = 1", "NOT ".repeat(n));
            let _ = parse(&s);
        }
    }
}
