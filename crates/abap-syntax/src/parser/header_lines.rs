//! Tables with header lines in legacy programs (`DATA itab TYPE … OCCURS 0 WITH HEADER LINE`,
//! `DATA: BEGIN OF itab OCCURS 0, … END OF itab`): one name for two data objects. The
//! declaration becomes two variables, as the ABAP debugger shows them: `ITAB`, the header
//! line (a work area of the line type), and `ITAB[]`, the table body. `itab[]` names the body
//! everywhere (and a table without a header line itself); a plain `itab` names the header
//! line, except where a statement expects a table (`interp/tables.rs`, `table_body`).

use crate::ast::DataDecl;
use crate::lexer::Token;
use abap_data::value::Type;

/// The name of the body of the table with a header line `name`.
pub fn body_name(name: &str) -> String {
    format!("{name}[]")
}

/// `toks` without `WITH HEADER LINE`, and whether it was there.
pub(super) fn strip_header_line(toks: &[Token]) -> (Vec<Token>, bool) {
    let at = toks
        .windows(3)
        .position(|w| w[0].is_kw("WITH") && w[1].is_kw("HEADER") && w[2].is_kw("LINE"));
    match at {
        Some(i) => {
            let mut out = toks.to_vec();
            out.drain(i..i + 3);
            (out, true)
        }
        None => (toks.to_vec(), false),
    }
}

/// The variables a declaration makes: itself, or (`header`) the body `NAME[]` and the header
/// line `NAME` of the line type.
pub(super) fn with_header_line(d: DataDecl, header: bool) -> Vec<DataDecl> {
    if !header {
        return vec![d];
    }
    let line = match &d.ty {
        Ok(Type::Table(tt)) => Ok(tt.line.clone()),
        Ok(Type::Named(n)) => Ok(Type::LineOf(format!("TYPE {n}"))),
        Ok(Type::Like(n)) => Ok(Type::LineOf(n.clone())),
        Ok(_) => Err("WITH HEADER LINE of a non-table type".to_string()),
        Err(e) => Err(e.clone()),
    };
    let body = DataDecl {
        name: body_name(&d.name),
        value: None,
        ..d.clone()
    };
    let header = DataDecl {
        ty: line,
        value: None,
        ..d
    };
    vec![header, body]
}

/// The header line `NAME` and body `NAME[]` of a ranges table (`SELECT-OPTIONS`, `RANGES`):
/// a `VALUE` clause (an unsupported `DEFAULT`) stays with the body.
pub(super) fn ranges_with_header_line(d: DataDecl) -> Vec<DataDecl> {
    let value = d.value.clone();
    let mut out = with_header_line(d, true);
    if let Some(body) = out.last_mut() {
        body.value = value;
    }
    out
}
