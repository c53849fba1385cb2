//! Syntax tree of `WRITE` to a report's list and `WRITE … TO` a field.

use crate::ast::expr::{Expr, Path};
/// One `WRITE` to the list.
#[derive(Debug, Clone, Default)]
pub struct ListWrite {
    /// `/`: a new line before the output.
    pub newline: bool,
    /// The column the output starts in (1-based).
    pub pos: Option<usize>,
    /// `(len)`: the output length.
    pub len: Option<usize>,
    /// `None`: only `WRITE /`.
    pub source: Option<Expr>,
    /// `NO-GAP`: no blank between this output and the next.
    pub no_gap: bool,
    pub options: WriteOptions,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Justify {
    /// The type's own alignment.
    #[default]
    Own,
    Left,
    Right,
    Centered,
}

/// The options after the destination.
#[derive(Debug, Clone, Default)]
pub struct WriteOptions {
    pub justify: Justify,
    pub no_grouping: bool,
    pub no_sign: bool,
    pub no_zero: bool,
    /// `DECIMALS n`.
    pub decimals: Option<Expr>,
    /// A date mask (`DD/MM/YYYY`, `YYMMDD`, …) as written.
    pub date_mask: Option<&'static str>,
}

/// `WRITE source TO destination …` (the tokens after `WRITE`).
#[derive(Debug, Clone)]
pub struct WriteTo {
    pub source: Expr,
    pub target: Path,
    pub options: WriteOptions,
}
