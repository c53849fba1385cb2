//! Syntax tree of the string statements (`CONCATENATE`, `SPLIT`, `FIND`, `REPLACE`, …).

use crate::ast::expr::{Expr, Path};
use crate::ast::list::WriteTo;

/// Where a result goes: a data object or an inline declaration `DATA(x)`.
#[derive(Debug, Clone)]
pub enum Out {
    Path(Path),
    Decl(String),
}

/// What `FIND`/`REPLACE` look for and where.
#[derive(Debug, Clone)]
pub struct Search {
    pub all: bool,
    pub sub: Expr,
    /// `REGEX`/`PCRE`: `sub` is a regular expression.
    pub regex: Option<Flavor>,
    pub ignoring_case: bool,
    /// `SECTION OFFSET o LENGTH l OF`.
    pub section: Option<(Option<Expr>, Option<Expr>)>,
}

#[derive(Debug, Clone)]
pub enum TextStmt {
    Concatenate {
        parts: Vec<Expr>,
        /// `CONCATENATE LINES OF itab`.
        lines_of: bool,
        into: Out,
        separated_by: Option<Expr>,
        respecting_blanks: bool,
    },
    Split {
        text: Expr,
        at: Expr,
        into: Vec<Out>,
        /// `INTO TABLE itab`.
        table: Option<Path>,
        /// `INTO TABLE DATA(itab)`: `table` is declared first (a standard table of strings).
        declare_table: bool,
    },
    Condense {
        target: Path,
        no_gaps: bool,
    },
    Translate {
        target: Path,
        /// `Some(true)`: `TO UPPER CASE`, `Some(false)`: `TO LOWER CASE`, `None`: `USING`.
        upper: Option<bool>,
        mask: Option<Expr>,
    },
    Shift {
        target: Path,
        right: bool,
        circular: bool,
        by: Option<Expr>,
        up_to: Option<Expr>,
        /// `DELETING LEADING|TRAILING mask`.
        deleting: Option<Expr>,
    },
    Find {
        search: Search,
        text: Expr,
        count: Option<Out>,
        offset: Option<Out>,
        length: Option<Out>,
        /// `SUBMATCHES s1 s2 …`: the groups of the last match of a regular expression.
        submatches: Vec<Out>,
        /// `RESULTS result_tab|result_wa` (see `match_results.rs`).
        results: Option<Out>,
    },
    Replace {
        search: Search,
        target: Path,
        with: Expr,
        count: Option<Out>,
        offset: Option<Out>,
        length: Option<Out>,
        /// `RESULTS result_tab|result_wa` (see `match_results.rs`).
        results: Option<Out>,
    },
    /// `FIND … IN TABLE itab … [MATCH LINE l]` (execution in `table_search.rs`).
    FindInTable {
        search: Search,
        table: Path,
        /// `MATCH COUNT`, `MATCH LINE`, `MATCH OFFSET`, `MATCH LENGTH`.
        results: [Option<Out>; 4],
        submatches: Vec<Out>,
        /// `RESULTS result_tab|result_wa`.
        result_tab: Option<Out>,
    },
    /// `REPLACE … IN TABLE itab WITH new … [REPLACEMENT LINE l]`.
    ReplaceInTable {
        search: Search,
        table: Path,
        with: Expr,
        /// `REPLACEMENT COUNT`, `REPLACEMENT LINE`, `REPLACEMENT OFFSET`, `REPLACEMENT LENGTH`.
        results: [Option<Out>; 4],
        /// `RESULTS result_tab|result_wa`.
        result_tab: Option<Out>,
    },
    /// `REPLACE SECTION OFFSET o LENGTH l OF dobj WITH new`.
    ReplaceSection {
        target: Path,
        offset: Option<Expr>,
        length: Option<Expr>,
        with: Expr,
    },
    Overlay {
        target: Path,
        with: Expr,
        mask: Option<Expr>,
    },
    /// Obsolete `SEARCH dobj FOR pattern` (plain and `.pattern.` forms).
    Search {
        text: Expr,
        pattern: Expr,
    },
    /// `WRITE source TO destination` (see `write_to.rs`).
    WriteTo(WriteTo),
}

impl TextStmt {
    pub fn keyword(&self) -> &'static str {
        match self {
            TextStmt::Concatenate { .. } => "CONCATENATE",
            TextStmt::Split { .. } => "SPLIT",
            TextStmt::Condense { .. } => "CONDENSE",
            TextStmt::Translate { .. } => "TRANSLATE",
            TextStmt::Shift { .. } => "SHIFT",
            TextStmt::Find { .. } | TextStmt::FindInTable { .. } => "FIND",
            TextStmt::Replace { .. }
            | TextStmt::ReplaceSection { .. }
            | TextStmt::ReplaceInTable { .. } => "REPLACE",
            TextStmt::Overlay { .. } => "OVERLAY",
            TextStmt::Search { .. } => "SEARCH",
            TextStmt::WriteTo(_) => "WRITE",
        }
    }
}

/// Which regular expression language a program asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// `REGEX`, `regex =`.
    Posix,
    /// `PCRE`, `pcre =`.
    Pcre,
}
