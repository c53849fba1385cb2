//! Lexer: ABAP source text → tokens with line numbers.
//!
//! ABAP separates almost everything by blanks, so a "word" is any run of characters that are
//! not blanks or one of the few self-delimiting characters (`. , : ( ) ' " \` |`). Operators
//! (`=`, `+`, `<>`) and selectors inside names (`out->write`, `sy-index`, `zcl=>x`) are therefore
//! words; the expression parser splits them. Whether a `(` touches the word before it matters
//! (`meth( )` is a call, `( a + b )` a group), so every token records `space_before`.

/// A lexing failure that makes the file unusable (unterminated literal, stray brace).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct LexError {
    pub line: u32,
    pub message: String,
}

/// One part of a string template `|text { expr } text|`.
#[derive(Debug, Clone, PartialEq)]
pub enum TemplatePart {
    /// Literal text with escapes already resolved.
    Text(String),
    /// The tokens of an embedded expression `{ … }`.
    Expr(Vec<Token>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum TokenKind {
    /// Identifier, keyword, operator or number, exactly as written.
    Word(String),
    /// `'text'` (type `c`), quotes removed, `''` unescaped.
    CharLit(String),
    /// `` `text` `` (type `string`), backquotes removed, doubled backquote unescaped.
    StrLit(String),
    /// `|…|` string template.
    Template(Vec<TemplatePart>),
    Period,
    Comma,
    Colon,
    LParen,
    RParen,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    /// 1-based source line of the token's first character.
    pub line: u32,
    /// True when blanks (or a line start) precede the token.
    pub space_before: bool,
}

impl Token {
    /// The word text, if this is a word.
    pub fn word(&self) -> Option<&str> {
        match &self.kind {
            TokenKind::Word(w) => Some(w),
            _ => None,
        }
    }

    /// True if this is the word `kw` (case-insensitive).
    pub fn is_kw(&self, kw: &str) -> bool {
        self.word().is_some_and(|w| w.eq_ignore_ascii_case(kw))
    }
}

/// The word of a token, upper case (ABAP keywords and names are case-insensitive); empty for
/// no token or a token that is no word.
pub fn upper_word(t: Option<&Token>) -> String {
    t.and_then(Token::word)
        .map(str::to_ascii_uppercase)
        .unwrap_or_default()
}

/// Nesting limit for templates inside template expressions (keeps recursion bounded).
const MAX_TEMPLATE_DEPTH: usize = 16;

/// Splits `text` into tokens. Comments and pragmas (`##NEEDED`) are dropped.
pub fn lex(text: &str) -> Result<Vec<Token>, LexError> {
    let chars: Vec<char> = text.chars().collect();
    let mut lx = Lexer {
        chars,
        pos: 0,
        line: 1,
        line_start: true,
    };
    lx.tokens(0, false)
}

struct Lexer {
    chars: Vec<char>,
    pos: usize,
    line: u32,
    /// At the first column of a line (for `*` comments).
    line_start: bool,
}

fn is_delimiter(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '.' | ',' | ':' | '(' | ')' | '\'' | '"' | '`' | '|' | '{' | '}'
        )
}

impl Lexer {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.line_start = true;
        } else {
            self.line_start = false;
        }
        Some(c)
    }

    fn err(&self, line: u32, message: impl Into<String>) -> LexError {
        LexError {
            line,
            message: message.into(),
        }
    }

    /// Lexes until end of input, or (inside a template, `in_template`) until the closing `}`.
    fn tokens(&mut self, depth: usize, in_template: bool) -> Result<Vec<Token>, LexError> {
        let mut out = Vec::new();
        let mut space_before = true;
        loop {
            let at_line_start = self.line_start;
            let Some(c) = self.peek() else {
                if in_template {
                    return Err(self.err(
                        self.line,
                        "unterminated embedded expression in string template",
                    ));
                }
                return Ok(out);
            };
            let line = self.line;
            if c == '*' && at_line_start {
                self.skip_to_eol();
                space_before = true;
                continue;
            }
            if c.is_whitespace() {
                self.bump();
                space_before = true;
                continue;
            }
            let kind = match c {
                '"' => {
                    self.skip_to_eol();
                    space_before = true;
                    continue;
                }
                '.' => {
                    self.bump();
                    TokenKind::Period
                }
                ',' => {
                    self.bump();
                    TokenKind::Comma
                }
                ':' => {
                    self.bump();
                    TokenKind::Colon
                }
                '(' => {
                    self.bump();
                    TokenKind::LParen
                }
                ')' => {
                    self.bump();
                    TokenKind::RParen
                }
                '\'' => TokenKind::CharLit(self.quoted('\'')?),
                '`' => TokenKind::StrLit(self.quoted('`')?),
                '|' => TokenKind::Template(self.template(depth)?),
                '}' if in_template => {
                    self.bump();
                    return Ok(out);
                }
                '{' | '}' => return Err(self.err(line, format!("unexpected character '{c}'"))),
                _ => {
                    let w = self.word();
                    if w.starts_with("##") {
                        // Pragma: no meaning for execution.
                        space_before = true;
                        continue;
                    }
                    TokenKind::Word(w)
                }
            };
            out.push(Token {
                kind,
                line,
                space_before,
            });
            space_before = false;
        }
    }

    fn skip_to_eol(&mut self) {
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            self.bump();
        }
    }

    fn word(&mut self) -> String {
        let mut w = String::new();
        while let Some(c) = self.peek() {
            if is_delimiter(c) {
                break;
            }
            w.push(c);
            self.bump();
        }
        w
    }

    /// A `'…'` or `` `…` `` literal; the quote doubled inside means one quote. Ends on its line.
    fn quoted(&mut self, q: char) -> Result<String, LexError> {
        let line = self.line;
        self.bump();
        let mut s = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => return Err(self.err(line, "unterminated literal")),
                Some(c) if c == q => {
                    self.bump();
                    if self.peek() == Some(q) {
                        self.bump();
                        s.push(q);
                    } else {
                        return Ok(s);
                    }
                }
                Some(c) => {
                    self.bump();
                    s.push(c);
                }
            }
        }
    }

    fn template(&mut self, depth: usize) -> Result<Vec<TemplatePart>, LexError> {
        let line = self.line;
        if depth >= MAX_TEMPLATE_DEPTH {
            return Err(self.err(line, "string templates nested too deeply"));
        }
        self.bump();
        let mut parts = Vec::new();
        let mut text = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => return Err(self.err(line, "unterminated string template")),
                Some('|') => {
                    self.bump();
                    if !text.is_empty() {
                        parts.push(TemplatePart::Text(text));
                    }
                    return Ok(parts);
                }
                Some('\\') => {
                    self.bump();
                    let esc = match self.peek() {
                        Some('n') => '\n',
                        Some('t') => '\t',
                        Some('r') => '\r',
                        Some(c @ ('\\' | '|' | '{' | '}')) => c,
                        _ => return Err(self.err(self.line, "invalid escape in string template")),
                    };
                    self.bump();
                    text.push(esc);
                }
                Some('{') => {
                    self.bump();
                    if !text.is_empty() {
                        parts.push(TemplatePart::Text(std::mem::take(&mut text)));
                    }
                    let toks = self.tokens(depth + 1, true)?;
                    parts.push(TemplatePart::Expr(toks));
                }
                Some('}') => return Err(self.err(self.line, "unexpected '}' in string template")),
                Some(c) => {
                    self.bump();
                    text.push(c);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(src: &str) -> Vec<String> {
        lex(src)
            .unwrap()
            .into_iter()
            .map(|t| match t.kind {
                TokenKind::Word(w) => w,
                TokenKind::CharLit(s) => format!("'{s}'"),
                TokenKind::StrLit(s) => format!("`{s}`"),
                TokenKind::Template(p) => format!("|{}|", p.len()),
                TokenKind::Period => ".".into(),
                TokenKind::Comma => ",".into(),
                TokenKind::Colon => ":".into(),
                TokenKind::LParen => "(".into(),
                TokenKind::RParen => ")".into(),
            })
            .collect()
    }

    #[test]
    fn words_literals_and_punctuation() {
        assert_eq!(
            words("lv_x = out->write( 'it''s' ). \" comment\n* full line\nDATA: a, b."),
            vec![
                "lv_x",
                "=",
                "out->write",
                "(",
                "'it's'",
                ")",
                ".",
                "DATA",
                ":",
                "a",
                ",",
                "b",
                "."
            ]
        );
        assert_eq!(words("x = `a``b` ##NEEDED."), vec!["x", "=", "`a`b`", "."]);
    }

    #[test]
    fn star_only_comments_in_column_one() {
        assert_eq!(
            words("x = a * b.\n  * not a comment"),
            vec!["x", "=", "a", "*", "b", ".", "*", "not", "a", "comment"]
        );
    }

    #[test]
    fn lines_and_spacing() {
        let t = lex("a\n  meth( b ).").unwrap();
        assert_eq!(t[0].line, 1);
        assert_eq!(t[1].line, 2);
        assert!(t[1].space_before);
        assert!(!t[2].space_before, "( touches meth");
        assert!(t[3].space_before);
    }

    #[test]
    fn templates() {
        let t = lex(r"x = |a\n{ b }\|{ |{ c }| }|.").unwrap();
        let TokenKind::Template(parts) = &t[2].kind else {
            panic!("no template")
        };
        assert_eq!(parts.len(), 4);
        assert_eq!(parts[0], TemplatePart::Text("a\n".into()));
        assert!(matches!(&parts[1], TemplatePart::Expr(e) if e.len() == 1));
        assert_eq!(parts[2], TemplatePart::Text("|".into()));
    }

    #[test]
    fn errors_have_lines() {
        assert_eq!(lex("a.\nx = 'abc.\n").unwrap_err().line, 2);
        assert_eq!(lex("x = |abc").unwrap_err().line, 1);
        assert_eq!(lex("x = |{ a |.").unwrap_err().line, 1);
        assert!(lex("x = `abc\n`.").is_err());
    }
}
