//! The table functions: `lines( itab )`, `line_exists( itab[ … ] )` and
//! `line_index( itab[ … ] )` (the row's index, 0 when no row matches).

use super::group::{Group, single_arg};
use crate::interp::{Exec, Interp};
use abap_data::value::{TableKind, Value};
use abap_syntax::ast::{CallExpr, Expr};

pub(crate) const GROUP: Group = Group {
    name: "table",
    knows: |name| matches!(name, "LINES" | "LINE_EXISTS" | "LINE_INDEX"),
    run: |interp, call| interp.table_function(call).map(Some),
};

impl Interp<'_, '_> {
    fn table_function(&mut self, call: &CallExpr) -> Exec<Value> {
        let arg = single_arg(self, call)?;
        let exists = call.method == "LINE_EXISTS";
        let found = |found: Option<usize>| {
            if exists {
                Value::C(if found.is_some() { "X" } else { " " }.into())
            } else {
                Value::I(found.map_or(0, |i| i32::try_from(i + 1).unwrap_or(i32::MAX)))
            }
        };
        if call.method == "LINE_EXISTS" || call.method == "LINE_INDEX" {
            if let Expr::ItabOf { source, sel, .. } = arg {
                let Value::Table(tt, rows) = self.eval(source)? else {
                    return Err(self.not_supported("a table expression on no table"));
                };
                if !exists && tt.kind == TableKind::Hashed {
                    return Err(self.not_supported("line_index( ) on a hashed table"));
                }
                let row = self.select_row(&tt, &rows, sel)?;
                return Ok(found(row));
            }
            let Expr::Itab { table, sel, .. } = arg else {
                return Err(self.not_supported("line_exists( ) without a table expression"));
            };
            if !exists
                && let Value::Table(tt, _) = self.read(table)?
                && tt.kind == TableKind::Hashed
            {
                // A hashed table has no index; what line_index( ) gives there is not pinned
                // down here.
                return Err(self.not_supported("line_index( ) on a hashed table"));
            }
            let row = self.table_expr_index(table, sel)?;
            return Ok(found(row));
        }
        if let Expr::Path(path) = arg {
            // Count the rows where they are: reading the table would copy all of them.
            self.prepare_path(path)?;
            let rows =
                self.st
                    .place(self.top(), path)
                    .and_then(|place| match self.st.value_at(&place) {
                        Some(Value::Table(_, rows)) => Some(rows.len()),
                        _ => None,
                    });
            if let Some(n) = rows {
                return Ok(Value::I(i32::try_from(n).unwrap_or(i32::MAX)));
            }
        }
        match self.eval(arg)? {
            Value::Table(_, rows) => Ok(Value::I(i32::try_from(rows.len()).unwrap_or(i32::MAX))),
            _ => Err(self.not_supported("lines( ) of a non-table")),
        }
    }
}
