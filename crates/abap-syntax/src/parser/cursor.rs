//! The one cursor over a statement's tokens: where parsing is, keyword tests, and the nesting
//! and operator budget that bounds recursion. The expression grammar (`expr.rs`), the string
//! statements (`text.rs`) and the constructor expressions (`constructors.rs`) are methods on
//! it.

use crate::lexer::{Token, TokenKind, upper_word};
use crate::parser::words::{PResult, Unsup, describe};

/// Bound on expression nesting so hostile input cannot overflow the stack.
pub(super) const MAX_DEPTH: usize = 64;

/// Bound on binary operators and chained calls per statement: operator chains build left-deep
/// trees, which evaluation (and dropping) walks recursively.
pub(super) const MAX_OPS: usize = 256;

/// A position in a token slice, with the nesting depth and the operators counted so far.
#[derive(Debug, Clone)]
pub struct Cursor<'t> {
    pub(super) toks: &'t [Token],
    pub(super) pos: usize,
    pub(super) depth: usize,
    pub(super) ops: usize,
}

impl<'t> Cursor<'t> {
    pub fn new(toks: &'t [Token]) -> Self {
        Cursor {
            toks,
            pos: 0,
            depth: 0,
            ops: 0,
        }
    }

    /// A parser for a nested token slice that shares the nesting and operator budget.
    pub fn nested(toks: &'t [Token], depth: usize, ops: usize) -> PResult<Self> {
        if depth > MAX_DEPTH {
            return Err(Unsup("expression nested too deeply".into()));
        }
        Ok(Cursor {
            toks,
            pos: 0,
            depth,
            ops,
        })
    }

    /// Operators counted so far (to hand the budget on to [`Cursor::nested`]).
    pub fn ops(&self) -> usize {
        self.ops
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// Tokens consumed so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// True if the next token is one of the keywords.
    pub fn peek_kw_any(&self, kws: &[&str]) -> bool {
        kws.iter().any(|k| self.peek_kw(k))
    }

    /// Consumes the keyword `kw` if it is next.
    pub fn skip_kw(&mut self, kw: &str) -> bool {
        if self.peek_kw(kw) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn peek(&self) -> Option<&'t Token> {
        self.toks.get(self.pos)
    }

    pub(super) fn peek_at(&self, n: usize) -> Option<&'t Token> {
        self.toks.get(self.pos + n)
    }

    pub(super) fn peek_kw(&self, kw: &str) -> bool {
        self.peek().is_some_and(|t| t.is_kw(kw))
    }

    pub(super) fn next(&mut self) -> Option<&'t Token> {
        let t = self.toks.get(self.pos);
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    pub fn expect_end(&self) -> PResult<()> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(Unsup(format!("unexpected {}", describe(t)))),
        }
    }

    pub(super) fn count_op(&mut self) -> PResult<()> {
        self.ops += 1;
        if self.ops > MAX_OPS {
            return Err(Unsup("expression with too many operators".into()));
        }
        Ok(())
    }

    pub(super) fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Unsup("expression nested too deeply".into()));
        }
        Ok(())
    }

    pub(super) fn expect_rparen(&mut self) -> PResult<()> {
        match self.next() {
            Some(Token {
                kind: TokenKind::RParen,
                ..
            }) => Ok(()),
            Some(t) => Err(Unsup(format!("unexpected {}", describe(t)))),
            None => Err(Unsup("missing )".into())),
        }
    }

    /// The tokens up to the `)` matching an already consumed `(`; consumes the `)`.
    pub(super) fn group(&mut self) -> PResult<&'t [Token]> {
        let start = self.pos;
        let mut depth = 0usize;
        for (i, t) in self.toks[start..].iter().enumerate() {
            match t.kind {
                TokenKind::LParen => depth += 1,
                TokenKind::RParen if depth == 0 => {
                    self.pos = start + i + 1;
                    let toks: &'t [Token] = self.toks;
                    return Ok(&toks[start..start + i]);
                }
                TokenKind::RParen => depth -= 1,
                _ => {}
            }
        }
        Err(Unsup("missing )".into()))
    }

    /// True if the next tokens are the keywords `ks`.
    pub(super) fn peek_kws(&self, ks: &[&str]) -> bool {
        ks.iter()
            .enumerate()
            .all(|(i, k)| self.toks.get(self.pos + i).is_some_and(|t| t.is_kw(k)))
    }

    /// Consumes the keywords `ks` if they are next.
    pub(super) fn eat_kws(&mut self, ks: &[&str]) -> bool {
        if self.peek_kws(ks) {
            self.pos += ks.len();
            true
        } else {
            false
        }
    }

    /// The word `k` tokens ahead, upper case (empty if none).
    pub(super) fn word_at(&self, k: usize) -> String {
        upper_word(self.toks.get(self.pos + k))
    }

    /// Consumes the keyword `kw` or fails.
    pub(super) fn expect_kw(&mut self, kw: &str) -> PResult<()> {
        if self.peek_kw(kw) {
            self.pos += 1;
            Ok(())
        } else {
            Err(Unsup(format!("{kw} expected")))
        }
    }
}
