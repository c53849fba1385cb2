//! Syntax tree of `GET TIME [STAMP]` and `CONVERT TIME STAMP`/`CONVERT DATE`.

use crate::ast::expr::{Expr, Path};
/// Where a result goes: a data object or an inline declaration `DATA(x)`.
#[derive(Debug, Clone)]
pub enum Target {
    Path(Path),
    Inline(String),
}

#[derive(Debug, Clone)]
pub enum TimeStmt {
    /// `GET TIME [FIELD t]`.
    GetTime(Option<Target>),
    /// `GET TIME STAMP FIELD ts`.
    GetTimeStamp(Target),
    /// `CONVERT TIME STAMP ts TIME ZONE tz INTO [DATE d] [TIME t] [DAYLIGHT SAVING TIME dst]`.
    StampToDate {
        stamp: Expr,
        zone: Expr,
        date: Option<Target>,
        time: Option<Target>,
        dst: Option<Target>,
    },
    /// `CONVERT DATE d [TIME t] INTO TIME STAMP ts TIME ZONE tz`.
    DateToStamp {
        date: Expr,
        time: Option<Expr>,
        stamp: Target,
        zone: Expr,
    },
}

impl TimeStmt {
    pub fn keyword(&self) -> &'static str {
        match self {
            TimeStmt::GetTime(_) => "GET TIME",
            TimeStmt::GetTimeStamp(_) => "GET TIME STAMP",
            TimeStmt::StampToDate { .. } | TimeStmt::DateToStamp { .. } => "CONVERT",
        }
    }
}
