//! Tables with header lines at run time: where a statement expects an internal table, the
//! name of a table with a header line means its body `NAME[]` (the declaration made both,
//! see `parser/header_lines.rs`); everywhere else the name is the header line.

use crate::interp::Interp;
use crate::interp::state::{Var, VarKind};
use abap_data::value::Value;
use abap_syntax::ast::Path;
use abap_syntax::parser::header_lines::body_name;

impl Interp<'_, '_> {
    /// The table a table position names: the body of a table with a header line, else
    /// `table` itself.
    pub(crate) fn table_body(&self, table: &Path) -> Path {
        if self.has_header_line(table) {
            Path {
                base: body_name(&table.base),
                rest: Vec::new(),
            }
        } else {
            table.clone()
        }
    }

    /// A `FORM`'s `TABLES` parameters (`P[]`, the body) get their header line `P`, a work area
    /// of the line type of the table passed.
    pub(crate) fn tables_header_lines(&mut self) {
        let f = self.st.frames.len().saturating_sub(1);
        let Some(frame) = self.st.frames.get(f) else {
            return;
        };
        let bodies: Vec<String> = frame
            .params()
            .iter()
            .filter(|v| v.name.ends_with("[]"))
            .map(|v| v.name.clone())
            .collect();
        for body in bodies {
            let path = Path {
                base: body.clone(),
                rest: Vec::new(),
            };
            let line = self
                .st
                .place(f, &path)
                .and_then(|p| match self.st.value_at(&p) {
                    Some(Value::Table(tt, _)) => Some(tt.line.clone()),
                    _ => None,
                });
            let (Some(line), Some(name)) = (line, body.strip_suffix("[]")) else {
                continue;
            };
            if let Some(frame) = self.st.frames.get_mut(f)
                && !frame.vars.iter().any(|v| v.name == name)
            {
                frame.vars.push(Var::new(name, line, VarKind::Local));
            }
        }
    }

    /// Does `table` name a table with a header line (its body `NAME[]` exists here)?
    pub(crate) fn has_header_line(&self, table: &Path) -> bool {
        if !table.rest.is_empty() || table.base.ends_with("[]") || table.base.starts_with('<') {
            return false;
        }
        let body = Path {
            base: body_name(&table.base),
            rest: Vec::new(),
        };
        self.st
            .slot_exact(self.st.frames.len().saturating_sub(1), &body)
            .is_some()
    }
}
