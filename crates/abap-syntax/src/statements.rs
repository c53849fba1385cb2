//! Statement splitter: tokens → statements, expanding colon/comma chains.
//!
//! `DATA: a TYPE i, b TYPE string.` is two statements `DATA a TYPE i` and `DATA b TYPE
//! string`. Each chain part is its own statement (own stop point); its line is the line of its
//! first own token, except the first part, which starts where the whole statement starts.

use crate::lexer::{Token, TokenKind};

/// One ABAP statement without its terminating period.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    pub tokens: Vec<Token>,
    /// 1-based line where the statement starts.
    pub line: u32,
}

/// A statement without a terminating period at the end of the source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: statement is not terminated by a period")]
pub struct SplitError {
    pub line: u32,
}

/// Splits a token stream into statements.
pub fn split(tokens: Vec<Token>) -> Result<Vec<Statement>, SplitError> {
    let mut out = Vec::new();
    let mut prefix: Option<Vec<Token>> = None;
    let mut current: Vec<Token> = Vec::new();
    // Line of the first token of the whole (possibly chained) statement.
    let mut start_line: Option<u32> = None;
    let mut part_index = 0usize;
    let mut depth = 0usize;

    let mut emit = |prefix: &Option<Vec<Token>>,
                    current: &mut Vec<Token>,
                    start_line: Option<u32>,
                    part_index: usize| {
        let own = std::mem::take(current);
        if own.is_empty() && (part_index > 0 || prefix.as_ref().is_none_or(|p| p.is_empty())) {
            return;
        }
        let line = match (part_index, own.first()) {
            (0, _) | (_, None) => start_line.unwrap_or(1),
            (_, Some(t)) => t.line,
        };
        let mut tokens = prefix.clone().unwrap_or_default();
        tokens.extend(own);
        out.push(Statement { tokens, line });
    };

    for tok in tokens {
        if start_line.is_none() && tok.kind != TokenKind::Period {
            start_line = Some(tok.line);
        }
        match tok.kind {
            TokenKind::Period => {
                emit(&prefix, &mut current, start_line, part_index);
                prefix = None;
                start_line = None;
                part_index = 0;
                depth = 0;
            }
            TokenKind::Colon => {
                // Only the first colon starts a chain; further colons are ignored (as in ABAP).
                if prefix.is_none() {
                    prefix = Some(std::mem::take(&mut current));
                }
            }
            TokenKind::Comma if depth == 0 && prefix.is_some() => {
                emit(&prefix, &mut current, start_line, part_index);
                part_index += 1;
            }
            TokenKind::LParen => {
                depth += 1;
                current.push(tok);
            }
            TokenKind::RParen => {
                depth = depth.saturating_sub(1);
                current.push(tok);
            }
            _ => current.push(tok),
        }
    }
    if let Some(line) = start_line {
        return Err(SplitError { line });
    }
    Ok(out)
}

#[cfg(test)]
mod prop {
    use super::*;
    use crate::lexer::lex;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn lexer_and_splitter_never_panic(text in any::<String>()) {
            if let Ok(tokens) = lex(&text) {
                let _ = split(tokens);
            }
        }

        #[test]
        fn abap_charset_never_panics(text in "[a-z0-9 .,:'`|{}()\"*\\-=>\n\\\\]{0,200}") {
            if let Ok(tokens) = lex(&text) {
                let _ = split(tokens);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn stmts(src: &str) -> Vec<(u32, String)> {
        split(lex(src).unwrap())
            .unwrap()
            .into_iter()
            .map(|s| {
                let text: Vec<String> = s
                    .tokens
                    .iter()
                    .map(|t| match &t.kind {
                        TokenKind::Word(w) => w.clone(),
                        TokenKind::Comma => ",".into(),
                        TokenKind::LParen => "(".into(),
                        TokenKind::RParen => ")".into(),
                        other => format!("{other:?}"),
                    })
                    .collect();
                (s.line, text.join(" "))
            })
            .collect()
    }

    #[test]
    fn plain_statements() {
        assert_eq!(
            stmts("a = 1. b = 2.\nc = 3."),
            vec![
                (1, "a = 1".into()),
                (1, "b = 2".into()),
                (2, "c = 3".into())
            ]
        );
    }

    #[test]
    fn chains_expand_with_own_lines() {
        assert_eq!(
            stmts("DATA: a TYPE i,\n      b TYPE string."),
            vec![
                (1, "DATA a TYPE i".into()),
                (2, "DATA b TYPE string".into())
            ]
        );
        assert_eq!(
            stmts("CLEAR:\n a,\n b."),
            vec![(1, "CLEAR a".into()), (3, "CLEAR b".into())]
        );
        assert_eq!(
            stmts("x = f( a ): b, c."),
            vec![(1, "x = f ( a ) b".into()), (1, "x = f ( a ) c".into())]
        );
    }

    #[test]
    fn empty_parts_and_statements_are_dropped() {
        assert_eq!(stmts(". DATA: a, . ."), vec![(1, "DATA a".into())]);
    }

    #[test]
    fn commas_in_parentheses_do_not_split() {
        assert_eq!(
            stmts("WRITE: f( a, b ), c."),
            vec![(1, "WRITE f ( a , b )".into()), (1, "WRITE c".into())]
        );
    }

    #[test]
    fn missing_period() {
        assert_eq!(
            split(lex("a = 1.\nb = 2").unwrap()),
            Err(SplitError { line: 2 })
        );
    }
}
