//! `abap_table`'s `where`: a condition on a row's components in ABAP syntax, judged here on the
//! cell texts the protocol's `table` command answers (the debugger API has no filtered read).
//!
//! The subset: comparisons `=`, `<>`, `<`, `>`, `<=`, `>=` and their words `EQ`, `NE`, `LT`,
//! `GT`, `LE`, `GE`; `AND`, `OR`, `NOT` (binding in ABAP's order: `NOT` before `AND` before
//! `OR`), parentheses; operands are component names (`AMOUNT`, `TABLE_LINE` for a table of
//! elementary lines; case does not matter) and literals (`'text'` with `''` for a quote,
//! `` `text` ``, numbers such as `42`, `-1.5`). Two operands that both read as numbers compare
//! as numbers; otherwise as texts without trailing blanks (as ABAP compares `c` fields).

use std::cmp::Ordering;

/// Why a condition could not be read or judged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConditionError {
    #[error("the condition cannot be read at '{at}': {what}")]
    Syntax { at: String, what: &'static str },
    #[error("the row has no component '{name}' (components: {known})")]
    UnknownComponent { name: String, known: String },
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    Text(String),
    Number(String),
    Op(Cmp),
    Open,
    Close,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

#[derive(Debug, Clone, PartialEq)]
enum Operand {
    Component(String),
    Literal(String),
}

/// A condition, read once and judged for every row.
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    Compare(Comparison),
    And(Box<Condition>, Box<Condition>),
    Or(Box<Condition>, Box<Condition>),
    Not(Box<Condition>),
}

/// One comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    left: Operand,
    cmp: Cmp,
    right: Operand,
}

impl Condition {
    /// Reads a condition.
    pub fn parse(text: &str) -> Result<Condition, ConditionError> {
        let tokens = tokenize(text)?;
        let mut p = Parser { tokens, pos: 0 };
        let c = p.or()?;
        if p.pos < p.tokens.len() {
            return Err(p.error("nothing more was expected"));
        }
        Ok(c)
    }

    /// Whether the row holds. `cell` answers a component's text by its upper-case name, or
    /// `None` for a name the row does not have; `known` lists the names for the error.
    pub fn holds(
        &self,
        cell: &dyn Fn(&str) -> Option<String>,
        known: &dyn Fn() -> String,
    ) -> Result<bool, ConditionError> {
        Ok(match self {
            Condition::And(a, b) => a.holds(cell, known)? && b.holds(cell, known)?,
            Condition::Or(a, b) => a.holds(cell, known)? || b.holds(cell, known)?,
            Condition::Not(c) => !c.holds(cell, known)?,
            Condition::Compare(c) => {
                let value = |o: &Operand| match o {
                    Operand::Literal(t) => Ok(t.clone()),
                    Operand::Component(name) => {
                        cell(name).ok_or_else(|| ConditionError::UnknownComponent {
                            name: name.clone(),
                            known: known(),
                        })
                    }
                };
                let order = compare(&value(&c.left)?, &value(&c.right)?);
                match c.cmp {
                    Cmp::Eq => order == Ordering::Equal,
                    Cmp::Ne => order != Ordering::Equal,
                    Cmp::Lt => order == Ordering::Less,
                    Cmp::Gt => order == Ordering::Greater,
                    Cmp::Le => order != Ordering::Greater,
                    Cmp::Ge => order != Ordering::Less,
                }
            }
        })
    }
}

fn compare(a: &str, b: &str) -> Ordering {
    match (number(a), number(b)) {
        (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        _ => a.trim_end().cmp(b.trim_end()),
    }
}

/// A text as a number: optional sign, digits, an optional fraction (and the trailing minus
/// ABAP writes for negative packed numbers). Blanks around are ignored.
fn number(text: &str) -> Option<f64> {
    let t = text.trim();
    let (t, negative) = match t.strip_suffix('-') {
        Some(rest) if !rest.is_empty() => (rest, true),
        _ => (t, false),
    };
    let body = t.strip_prefix(['-', '+']).unwrap_or(t);
    let digits_ok = !body.is_empty()
        && body.chars().all(|c| c.is_ascii_digit() || c == '.')
        && body.chars().filter(|&c| c == '.').count() <= 1
        && body.chars().any(|c| c.is_ascii_digit());
    if !digits_ok {
        // Floats as the system writes them: 2.5000000000000000E-01.
        return t.parse::<f64>().ok().filter(|_| {
            t.contains(['E', 'e'])
                && t.chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit() || c == '-')
        });
    }
    let n: f64 = t.parse().ok()?;
    Some(if negative { -n } else { n })
}

fn tokenize(text: &str) -> Result<Vec<Token>, ConditionError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let at = |i: usize| chars[i.min(chars.len())..].iter().collect::<String>();
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        match c {
            '(' => {
                out.push(Token::Open);
                i += 1;
            }
            ')' => {
                out.push(Token::Close);
                i += 1;
            }
            '\'' | '`' => {
                let quote = c;
                let mut s = String::new();
                i += 1;
                loop {
                    match chars.get(i) {
                        None => {
                            return Err(ConditionError::Syntax {
                                at: at(i.saturating_sub(s.len() + 1)),
                                what: "a text literal is not closed",
                            });
                        }
                        Some(&q) if q == quote => {
                            if chars.get(i + 1) == Some(&quote) {
                                s.push(quote);
                                i += 2;
                            } else {
                                i += 1;
                                break;
                            }
                        }
                        Some(&ch) => {
                            s.push(ch);
                            i += 1;
                        }
                    }
                }
                out.push(Token::Text(s));
            }
            '=' => {
                out.push(Token::Op(Cmp::Eq));
                i += 1;
            }
            '<' | '>' => {
                let next = chars.get(i + 1).copied();
                let (op, len) = match (c, next) {
                    ('<', Some('>')) => (Cmp::Ne, 2),
                    ('<', Some('=')) => (Cmp::Le, 2),
                    ('>', Some('=')) => (Cmp::Ge, 2),
                    ('<', _) => (Cmp::Lt, 1),
                    _ => (Cmp::Gt, 1),
                };
                out.push(Token::Op(op));
                i += len;
            }
            _ if c.is_ascii_digit()
                || (matches!(c, '-' | '+')
                    && chars.get(i + 1).is_some_and(char::is_ascii_digit)) =>
            {
                let start = i;
                i += 1;
                while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                    i += 1;
                }
                out.push(Token::Number(chars[start..i].iter().collect()));
            }
            _ if c.is_alphanumeric() || matches!(c, '_' | '/' | '-' | '<' | '>') => {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_alphanumeric() || matches!(chars[i], '_' | '/' | '-'))
                {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect::<String>().to_uppercase();
                let op = match word.as_str() {
                    "EQ" => Some(Cmp::Eq),
                    "NE" => Some(Cmp::Ne),
                    "LT" => Some(Cmp::Lt),
                    "GT" => Some(Cmp::Gt),
                    "LE" => Some(Cmp::Le),
                    "GE" => Some(Cmp::Ge),
                    _ => None,
                };
                out.push(op.map_or(Token::Word(word), Token::Op));
            }
            _ => {
                return Err(ConditionError::Syntax {
                    at: at(i),
                    what: "unexpected character",
                });
            }
        }
    }
    Ok(out)
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
}

impl Parser {
    fn error(&self, what: &'static str) -> ConditionError {
        let at = self
            .tokens
            .get(self.pos)
            .map(|t| match t {
                Token::Word(w) | Token::Number(w) => w.clone(),
                Token::Text(t) => format!("'{t}'"),
                Token::Op(_) => "a comparison".into(),
                Token::Open => "(".into(),
                Token::Close => ")".into(),
            })
            .unwrap_or_else(|| "the end".into());
        ConditionError::Syntax { at, what }
    }

    fn keyword(&mut self, word: &str) -> bool {
        if matches!(self.tokens.get(self.pos), Some(Token::Word(w)) if w == word) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn or(&mut self) -> Result<Condition, ConditionError> {
        let mut left = self.and()?;
        while self.keyword("OR") {
            left = Condition::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Condition, ConditionError> {
        let mut left = self.not()?;
        while self.keyword("AND") {
            left = Condition::And(Box::new(left), Box::new(self.not()?));
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Condition, ConditionError> {
        if self.keyword("NOT") {
            return Ok(Condition::Not(Box::new(self.not()?)));
        }
        if self.tokens.get(self.pos) == Some(&Token::Open) {
            self.pos += 1;
            let inner = self.or()?;
            if self.tokens.get(self.pos) != Some(&Token::Close) {
                return Err(self.error("a ')' was expected"));
            }
            self.pos += 1;
            return Ok(inner);
        }
        let left = self.operand()?;
        let cmp = match self.tokens.get(self.pos) {
            Some(Token::Op(op)) => *op,
            _ => return Err(self.error("a comparison (=, <>, <, >, <=, >=, EQ, …) was expected")),
        };
        self.pos += 1;
        let right = self.operand()?;
        Ok(Condition::Compare(Comparison { left, cmp, right }))
    }

    fn operand(&mut self) -> Result<Operand, ConditionError> {
        let operand = match self.tokens.get(self.pos) {
            Some(Token::Word(w)) if !matches!(w.as_str(), "AND" | "OR" | "NOT") => {
                Operand::Component(w.clone())
            }
            Some(Token::Text(t)) => Operand::Literal(t.clone()),
            Some(Token::Number(n)) => Operand::Literal(n.clone()),
            _ => return Err(self.error("a component name or a literal was expected")),
        };
        self.pos += 1;
        Ok(operand)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(condition: &str, row: &[(&str, &str)]) -> Result<bool, ConditionError> {
        let c = Condition::parse(condition)?;
        c.holds(
            &|name| {
                row.iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(name))
                    .map(|(_, v)| v.to_string())
            },
            &|| row.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", "),
        )
    }

    const ROW: &[(&str, &str)] = &[
        ("ID", "12"),
        ("AMOUNT", "15.00"),
        ("CUSTOMER", "C5        "),
        ("NOTE", "it's"),
        ("RATIO", "3.0000000000000000E+00"),
    ];

    #[test]
    fn comparisons_in_symbols_and_words() {
        for (c, want) in [
            ("id = 12", true),
            ("ID EQ 12", true),
            ("id <> 12", false),
            ("ID ne 11", true),
            ("amount > 14.5", true),
            ("AMOUNT GT 15", false),
            ("amount >= 15", true),
            ("amount <= 15", true),
            ("amount LE 14.99", false),
            ("amount < 100", true),
            ("id LT 2", false),
            ("id GE 12", true),
            ("ratio = 3", true),
            ("12 = id", true),
        ] {
            assert_eq!(judge(c, ROW), Ok(want), "{c}");
        }
    }

    #[test]
    fn texts_compare_without_trailing_blanks() {
        assert_eq!(judge("customer = 'C5'", ROW), Ok(true));
        assert_eq!(judge("customer = `C5`", ROW), Ok(true));
        assert_eq!(judge("customer < 'C6'", ROW), Ok(true));
        assert_eq!(judge("note = 'it''s'", ROW), Ok(true));
        // Numbers compare as numbers, not as texts ("9" > "12" as texts).
        assert_eq!(judge("id > 9", ROW), Ok(true));
    }

    #[test]
    fn and_or_not_in_abap_order_with_parentheses() {
        assert_eq!(judge("id = 1 OR id = 12 AND amount = 15", ROW), Ok(true));
        assert_eq!(judge("(id = 1 OR id = 12) AND amount = 16", ROW), Ok(false));
        assert_eq!(judge("NOT id = 12", ROW), Ok(false));
        assert_eq!(
            judge("not ( id = 1 ) and not customer = 'C4'", ROW),
            Ok(true)
        );
        assert_eq!(judge("id = 1 or id = 2 or id = 12", ROW), Ok(true));
    }

    #[test]
    fn errors_name_what_is_wrong() {
        assert!(matches!(
            judge("price > 3", ROW),
            Err(ConditionError::UnknownComponent { name, known }) if name == "PRICE" && known.contains("AMOUNT")
        ));
        for bad in [
            "id =",
            "id 12",
            "(id = 1",
            "id = 'open",
            "id = 1 )",
            "",
            "AND = 1",
            "id ! 1",
        ] {
            assert!(
                matches!(Condition::parse(bad), Err(ConditionError::Syntax { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn numbers_as_the_system_writes_them() {
        assert_eq!(number("12.50-"), Some(-12.5));
        assert_eq!(number(" -3 "), Some(-3.0));
        assert_eq!(number("2.5000000000000000E-01"), Some(0.25));
        assert_eq!(number("C5"), None);
        assert_eq!(number("-"), None);
        assert_eq!(number("1.2.3"), None);
        assert_eq!(number("20261125"), Some(20261125.0));
    }
}
