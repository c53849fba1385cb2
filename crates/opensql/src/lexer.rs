//! Tokens of one Open SQL statement.

use crate::error::{Error, Result};

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    /// A name or keyword (upper case), with `-` components and `~` columns inside:
    /// `LS_WA-FIELD`, `T~FIELD`, `T~*`, `/NS/TAB`.
    Word(String),
    /// `'text'`.
    Text(String),
    /// `` `text` ``.
    Str(String),
    Int(i64),
    /// `@ ( ) , = <> < > <= >= + - *`.
    Sym(&'static str),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub tok: Tok,
    /// Byte offset in the statement.
    pub at: usize,
}

fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '/' || c == '$' || c == '%'
}

pub(crate) fn lex(text: &str) -> Result<Vec<Token>> {
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    let err = |at: usize, message: &str| Error::Syntax {
        offset: at,
        message: message.into(),
    };
    while let Some(&(at, c)) = chars.get(i) {
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        // A pragma (`##NEEDED`, `##SELECT_FAE_WITH_LOB[field]`) says nothing to the engine.
        if c == '#' && chars.get(i + 1).map(|&(_, n)| n) == Some('#') {
            i += 2;
            while let Some(&(_, d)) = chars.get(i) {
                if d.is_whitespace() {
                    break;
                }
                i += 1;
            }
            continue;
        }
        if c == '\'' || c == '`' {
            let mut s = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => return Err(err(at, "literal not closed")),
                    Some(&(_, q)) if q == c => {
                        if chars.get(i + 1).map(|&(_, n)| n) == Some(c) {
                            s.push(c);
                            i += 2;
                        } else {
                            i += 1;
                            break;
                        }
                    }
                    Some(&(_, ch)) => {
                        s.push(ch);
                        i += 1;
                    }
                }
            }
            out.push(Token {
                tok: if c == '\'' { Tok::Text(s) } else { Tok::Str(s) },
                at,
            });
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while chars.get(i).is_some_and(|&(_, d)| d.is_ascii_digit()) {
                i += 1;
            }
            // A name may start with a digit only when letters follow (`1ST`): keep numbers
            // strictly numeric.
            if chars.get(i).is_some_and(|&(_, d)| word_char(d)) {
                return Err(err(at, "a name cannot start with a digit"));
            }
            let digits: String = chars[start..i].iter().map(|&(_, d)| d).collect();
            let n = digits
                .parse::<i64>()
                .map_err(|_| err(at, "number too large"))?;
            out.push(Token {
                tok: Tok::Int(n),
                at,
            });
            continue;
        }
        if word_char(c) {
            let mut s = String::new();
            while let Some(&(_, d)) = chars.get(i) {
                let next_is_word = chars.get(i + 1).is_some_and(|&(_, n)| word_char(n));
                if word_char(d) {
                    s.push(d.to_ascii_uppercase());
                    i += 1;
                } else if (d == '-' || d == '~') && next_is_word {
                    s.push(d);
                    i += 1;
                } else if d == '~' && chars.get(i + 1).map(|&(_, n)| n) == Some('*') {
                    s.push_str("~*");
                    i += 2;
                    break;
                } else {
                    break;
                }
            }
            out.push(Token {
                tok: Tok::Word(s),
                at,
            });
            continue;
        }
        let two: String = chars[i..chars.len().min(i + 2)]
            .iter()
            .map(|&(_, d)| d)
            .collect();
        let sym: &'static str = match two.as_str() {
            "<>" => "<>",
            "<=" => "<=",
            ">=" => ">=",
            "><" => "<>",
            "=<" => "<=",
            "=>" => ">=",
            _ => match c {
                '@' => "@",
                '(' => "(",
                ')' => ")",
                ',' => ",",
                '=' => "=",
                '<' => "<",
                '>' => ">",
                '+' => "+",
                '-' => "-",
                '*' => "*",
                _ => return Err(err(at, &format!("unexpected character {c:?}"))),
            },
        };
        // Every symbol is ASCII: its length in bytes is its length in characters.
        i += sym.len();
        out.push(Token {
            tok: Tok::Sym(sym),
            at,
        });
    }
    Ok(out)
}
