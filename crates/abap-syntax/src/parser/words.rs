//! The words of the grammar every parser file shares, with nothing of the grammars
//! themselves: what "not supported" is (`Unsup`), names (`is_name`, `is_type_name`), a name
//! word split at its selectors (`parse_path`), an inline declaration `DATA(x)`, a token as a
//! message names it. A leaf: the parser files use it, it uses none of them.

use crate::ast::{Path, Sel};
use crate::lexer::{Token, TokenKind};
use crate::statements::Statement;

/// The construct named is outside the supported subset (or not understood).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsup(pub String);

pub type PResult<T> = Result<T, Unsup>;

/// A name word split at its selectors: `out->write` → `OUT`, `[(->, WRITE)]`.
pub fn parse_path(word: &str) -> Option<Path> {
    // `itab[]`: the table body; a plain name keeps the brackets (the body of a table with a
    // header line is a variable of that name, see `header_lines.rs`), elsewhere they go.
    let (word, body) = match word.strip_suffix("[]") {
        Some(w) if !w.is_empty() && !w.ends_with('[') => (w, true),
        _ => (word, false),
    };
    let up = word.to_ascii_uppercase();
    let mut parts: Vec<(Option<Sel>, String)> = Vec::new();
    let mut cur = String::new();
    let mut sel: Option<Sel> = None;
    let mut chars = up.chars().peekable();
    while let Some(c) = chars.next() {
        let next_sel = match (c, chars.peek()) {
            ('-', Some('>')) => Some(Sel::Arrow),
            ('=', Some('>')) => Some(Sel::Static),
            ('-', _) => Some(Sel::Dash),
            _ => None,
        };
        if let Some(s) = next_sel {
            if s != Sel::Dash {
                chars.next();
            }
            parts.push((sel, std::mem::take(&mut cur)));
            sel = Some(s);
        } else {
            cur.push(c);
        }
    }
    parts.push((sel, cur));
    let field_symbol = |n: &str| {
        n.len() > 2
            && n.starts_with('<')
            && n.ends_with('>')
            && is_name(n.get(1..n.len() - 1).unwrap_or(""))
    };
    if parts.iter().enumerate().any(|(i, (s, n))| {
        // `dref->*` dereferences a data reference.
        let deref = n == "*" && *s == Some(Sel::Arrow);
        !(is_name(n) || deref || (i == 0 && field_symbol(n)))
    }) {
        return None;
    }
    let mut it = parts.into_iter();
    let (_, mut base) = it.next()?;
    let rest: Vec<(Sel, String)> = it.filter_map(|(s, n)| s.map(|s| (s, n))).collect();
    if body && rest.is_empty() && !base.starts_with('<') {
        base.push_str("[]");
    }
    Some(Path { base, rest })
}

/// A type name as a constructor expression writes it: `ty`, `zcl=>ty`, `zif~ty` or a
/// component of a structured type `ty-comp`.
pub fn is_type_name(n: &str) -> bool {
    let n = n
        .split_once("=>")
        .map_or(n, |(class, ty)| if is_name(class) { ty } else { "" });
    !n.is_empty() && n.split('-').all(is_name)
}

/// An ABAP identifier (upper case): letters, digits, `_`, `/` namespaces, `~` for interface
/// components; not starting with a digit.
pub fn is_name(n: &str) -> bool {
    let mut chars = n.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '/' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '/' | '~'))
}

/// A token as a "not supported" message names it.
pub fn describe(t: &Token) -> String {
    match &t.kind {
        TokenKind::Word(w) => w.to_ascii_uppercase(),
        TokenKind::CharLit(_) => "literal".into(),
        TokenKind::StrLit(_) => "string literal".into(),
        TokenKind::Template(_) => "string template".into(),
        TokenKind::Period => ".".into(),
        TokenKind::Comma => ",".into(),
        TokenKind::Colon => ":".into(),
        TokenKind::LParen => "(".into(),
        TokenKind::RParen => ")".into(),
    }
}

/// `DATA(x)` / `FINAL(x)` at the start of `toks`: the name and the number of tokens.
pub fn inline_decl(toks: &[Token]) -> Option<(String, usize)> {
    let kw = toks.first()?;
    if !(kw.is_kw("DATA") || kw.is_kw("FINAL")) {
        return None;
    }
    let open = toks.get(1)?;
    if open.kind != TokenKind::LParen || open.space_before {
        return None;
    }
    let name = toks.get(2)?.word()?.to_ascii_uppercase();
    if !is_name(&name) || toks.get(3)?.kind != TokenKind::RParen {
        return None;
    }
    Some((name, 4))
}

/// The first word of a statement, upper case (empty when it starts with no word).
pub(crate) fn first_kw(st: &Statement) -> String {
    word_at(st, 0)
}

/// The word at token `i` of a statement, upper case (empty when there is none).
pub(crate) fn word_at(st: &Statement, i: usize) -> String {
    st.tokens
        .get(i)
        .and_then(Token::word)
        .map(str::to_ascii_uppercase)
        .unwrap_or_default()
}
