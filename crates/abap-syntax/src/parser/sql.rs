//! Open SQL statements: which statements are Open SQL (`SELECT`, `UPDATE`, `COMMIT WORK`,
//! `ROLLBACK WORK`, and `INSERT`/`MODIFY`/`DELETE` of a database table), their text handed
//! to `opensql::parse` once when the program is loaded.

use crate::ast::{DataDecl, SqlStmt, Stmt, StmtKind, Visibility};
use crate::lexer::{Token, TokenKind, upper_word};
use crate::statements::Statement;

/// The statement's text as `opensql` reads it: the tokens with the blanks between them as
/// written (comments are gone already), literals quoted again. `None` for a token no Open SQL
/// statement has (a string template).
pub fn statement_text(tokens: &[Token]) -> Option<String> {
    let mut out = String::new();
    for (i, t) in tokens.iter().enumerate() {
        if i > 0 && t.space_before {
            out.push(' ');
        }
        match &t.kind {
            TokenKind::Word(w) => out.push_str(&encode_name(w)),
            TokenKind::CharLit(s) => {
                out.push('\'');
                out.push_str(&s.replace('\'', "''"));
                out.push('\'');
            }
            TokenKind::StrLit(s) => {
                out.push('`');
                out.push_str(&s.replace('`', "``"));
                out.push('`');
            }
            TokenKind::Comma => out.push(','),
            TokenKind::LParen => out.push('('),
            TokenKind::RParen => out.push(')'),
            TokenKind::Colon => out.push(':'),
            TokenKind::Period | TokenKind::Template(_) => return None,
        }
    }
    Some(out)
}

/// The comparison operators; any other word with `<` or `>` is a name.
const OPERATORS: &[&str] = &["<", ">", "<=", ">=", "<>", "=<", "=>", "><"];

/// What `opensql` names may not hold, and how a name spells it there: `<fs>`,
/// `lo_obj->attr`, `zcl_x=>const` become words of its name characters; [`decode_name`]
/// gives the name back. (`%` starts no ABAP name.)
const ENCODED: &[(&str, &str)] = &[("->", "%R"), ("=>", "%S"), ("<", "%L"), (">", "%G")];

fn encode_name(word: &str) -> String {
    if OPERATORS.contains(&word) || !word.contains(['<', '>']) {
        return word.to_string();
    }
    let mut out = word.to_string();
    for (from, to) in ENCODED {
        out = out.replace(from, to);
    }
    out
}

/// A name `opensql` hands back (upper case), as the program wrote it.
pub fn decode_name(name: &str) -> String {
    if !name.contains('%') {
        return name.to_string();
    }
    let mut out = name.to_string();
    for (from, to) in ENCODED {
        out = out.replace(to, from);
    }
    out
}

/// How an `INSERT`/`MODIFY`/`DELETE` reads: a database statement, one an internal table
/// statement could be too (decided at run time by the name), or an internal table statement.
#[derive(Debug, PartialEq, Eq)]
enum WriteShape {
    Database,
    Either(String),
    Table,
}

fn write_shape(kw: &str, toks: &[Token]) -> WriteShape {
    let word = |i: usize| upper_word(toks.get(i));
    let host = toks
        .iter()
        .any(|t| t.word().is_some_and(|w| w.starts_with('@')));
    let client = matches!(word(2).as_str(), "CLIENT" | "USING");
    if host || client {
        return WriteShape::Database;
    }
    match kw {
        "INSERT" if word(1) == "INTO" => WriteShape::Database,
        "INSERT" if word(2) == "FROM" && !matches!(word(1).as_str(), "LINES" | "INITIAL") => {
            WriteShape::Database
        }
        "DELETE" if word(1) == "FROM" => WriteShape::Database,
        "MODIFY" | "DELETE" if word(2) == "FROM" && word(3) == "TABLE" => WriteShape::Database,
        "MODIFY" | "DELETE" if word(2) == "FROM" && toks.len() == 4 => WriteShape::Either(word(1)),
        // `INSERT x.`: from the `TABLES` work area `x`, or a header line statement of `x`.
        "INSERT" | "MODIFY" | "DELETE" if toks.len() == 2 => WriteShape::Either(word(1)),
        _ => WriteShape::Table,
    }
}

/// True when `st` is an Open SQL statement (`kw` its first word, upper case).
pub fn is_sql(st: &Statement, kw: &str) -> bool {
    let call = st
        .tokens
        .get(1)
        .is_some_and(|t| t.kind == TokenKind::LParen && !t.space_before);
    if call {
        return false;
    }
    match kw {
        "SELECT" | "UPDATE" => true,
        "COMMIT" | "ROLLBACK" => upper_word(st.tokens.get(1)) == "WORK",
        "INSERT" | "MODIFY" | "DELETE" => write_shape(kw, &st.tokens) != WriteShape::Table,
        _ => false,
    }
}

/// True when `st` (a `SELECT`) opens a `SELECT … ENDSELECT` loop. When `opensql` cannot
/// read it, the shape decides: rows into a work area, neither `SINGLE` nor a table target.
pub fn opens_loop(st: &Statement) -> bool {
    if let Some(text) = statement_text(&st.tokens)
        && let Ok(opensql::ast::Statement::Select(s)) = opensql::parse(&text)
    {
        return s.is_loop();
    }
    let words: Vec<String> = st.tokens.iter().map(|t| upper_word(Some(t))).collect();
    let has = |w: &str| words.iter().any(|x| x == w);
    upper_word(st.tokens.get(1)) != "SINGLE"
        && (has("INTO") || has("APPENDING"))
        && !has("TABLE")
        && !has("COUNT(")
}

/// The internal table statement of `st`'s words (as `leaf_statement` parses it).
fn table_statement(st: &Statement, kw: &str) -> StmtKind {
    match crate::parser::table_ops::parse(kw, &st.tokens) {
        Some(Ok(t)) => StmtKind::TableOp(Box::new(t)),
        Some(Err(_)) => super::statements::unsupported(st, true),
        None => match crate::parser::tables::parse_table_stmt(kw, &st.tokens) {
            Ok(t) => StmtKind::Table(Box::new(t)),
            Err(_) => super::statements::unsupported(st, true),
        },
    }
}

/// The statement `st` (for which [`is_sql`] holds).
pub fn parse(st: &Statement, kw: &str) -> StmtKind {
    let Some(text) = statement_text(&st.tokens) else {
        return not_supported(kw, "a string template in an Open SQL statement");
    };
    let shape = write_shape(kw, &st.tokens);
    let stmt = match opensql::parse(&text) {
        Ok(s) => s,
        // `DELETE itab FROM 2`: no database statement reads so.
        Err(_) if matches!(shape, WriteShape::Either(_)) => return table_statement(st, kw),
        Err(e) => return not_supported(kw, &e.to_string()),
    };
    let table_form = match shape {
        WriteShape::Either(name) => Some((
            name,
            Box::new(Stmt {
                line: st.line,
                kind: table_statement(st, kw),
            }),
        )),
        _ => None,
    };
    StmtKind::Sql(Box::new(SqlStmt {
        stmt,
        table_form,
        body: Vec::new(),
    }))
}

fn not_supported(kw: &str, why: &str) -> StmtKind {
    StmtKind::Unsupported {
        what: format!("{kw} ({why})"),
        stop: true,
    }
}

/// `TABLES dbtab`: the table work area, a global structure named like the dictionary table
/// or structure and of its type (resolved when the program starts). `TABLES *dbtab` (a
/// second work area) declares nothing here: a statement using it is not supported.
pub fn tables_decl(st: &Statement) -> Option<DataDecl> {
    let word = st.tokens.get(1)?.word()?.to_ascii_uppercase();
    let ty = match word.strip_prefix('*') {
        Some(_) => Err(format!("TABLES {word}")),
        None => Ok(abap_data::value::Type::Named(word.clone())),
    };
    Some(DataDecl {
        name: word,
        ty,
        value: None,
        is_static: true,
        is_constant: false,
        visibility: Visibility::Public,
        line: st.line,
    })
}
