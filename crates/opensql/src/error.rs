//! Everything that can go wrong, typed: loading the dictionary and the data files, parsing a
//! statement, resolving host values, and executing against the database.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{file}: {message}")]
    Definition { file: PathBuf, message: String },
    #[error("{file}: row {row}: field {field}: {message}")]
    DataRow {
        file: PathBuf,
        /// 1-based position of the row in the JSON array.
        row: usize,
        field: String,
        message: String,
    },
    #[error("{file}: {message}")]
    DataFile { file: PathBuf, message: String },
    #[error("cannot read {file}: {source}")]
    Io {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("syntax error at offset {offset}: {message}")]
    Syntax { offset: usize, message: String },
    /// A statement a real system's syntax check rejects (an ambiguous column, `SUM` of text).
    #[error("invalid statement: {0}")]
    Check(String),
    #[error("unknown database table {0}")]
    UnknownTable(String),
    #[error("unknown column {0}")]
    UnknownColumn(String),
    #[error("host value {name}: {message}")]
    Host { name: String, message: String },
    #[error("cannot convert {value} to {target}")]
    Conversion { value: String, target: String },
    /// A runtime error a real system raises (the ABAP short dump's name); a program can
    /// catch it as `CX_SY_OPEN_SQL_DB`.
    #[error("runtime error {name}: {message}")]
    Runtime { name: &'static str, message: String },
    /// A write that waited in vain for another connection's uncommitted changes.
    #[error("the database is locked: {0}")]
    Locked(String),
    /// A form whose behaviour on a real system is not certain, or that the engine lacks.
    #[error("not supported: {0}")]
    NotSupported(String),
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
}

pub type Result<T> = std::result::Result<T, Error>;

pub(crate) fn not_supported<T>(what: impl Into<String>) -> Result<T> {
    Err(Error::NotSupported(what.into()))
}
