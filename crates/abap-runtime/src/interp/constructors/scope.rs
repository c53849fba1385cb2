//! Scopes of the helper variables of `LET`, `FOR` and `INIT`: they are bound in the current
//! frame while an expression is evaluated, and the frame is restored afterwards.

use crate::interp::state::{Var, VarKind};
use crate::interp::{Exec, Interp};
use abap_data::place::{Place, Slot};
use abap_data::value::Value;
use abap_syntax::ast::Expr;

/// Variables the interpreter keeps for itself (`%FOR%<fs>`, `%MEMBERS%group`): not shown in
/// the debugger.
pub fn is_internal_name(name: &str) -> bool {
    name.starts_with('%')
}

/// The frame state to restore when an expression's helper variables go away.
pub(super) struct Scope {
    pub(super) vars_len: usize,
    pub(super) shadowed: Vec<(usize, Var)>,
    pub(super) field_symbols: Vec<(String, Option<Place>)>,
}

impl Interp<'_, '_> {
    pub(super) fn end_scope(&mut self, scope: Scope) {
        let Some(frame) = self.st.frames.last_mut() else {
            return;
        };
        frame.vars.truncate(scope.vars_len);
        for (i, v) in scope.shadowed.into_iter().rev() {
            if let Some(slot) = frame.vars.get_mut(i) {
                *slot = v;
            }
        }
        for (name, place) in scope.field_symbols.into_iter().rev() {
            match frame.field_symbols.iter_mut().find(|(n, _)| *n == name) {
                Some(entry) => entry.1 = place,
                None => frame.field_symbols.push((name, place)),
            }
        }
    }

    /// Binds helper variable `name` to `val` (its type is the value's).
    pub(super) fn bind_helper(&mut self, name: &str, val: Value, scope: &mut Scope) -> Exec<()> {
        let f = self.st.frames.len().saturating_sub(1);
        let Some(frame) = self.st.frames.last_mut() else {
            return Err(self.not_supported("helper variable outside a procedure"));
        };
        if name.starts_with('<') {
            // A field symbol: points to a hidden variable holding the row.
            let hidden = format!("%FOR%{name}");
            let idx = match frame.vars.iter().position(|v| v.name == hidden) {
                Some(i) => {
                    if let Some(v) = frame.vars.get_mut(i) {
                        v.ty = val.type_of();
                        v.val = val;
                    }
                    i
                }
                None => {
                    let mut v = Var::new(&hidden, val.type_of(), VarKind::Local);
                    v.val = val;
                    frame.vars.push(v);
                    frame.vars.len() - 1
                }
            };
            let place = Place {
                slot: Slot::Frame(f, idx),
                steps: Vec::new(),
            };
            let old = frame
                .field_symbols
                .iter()
                .find(|(n, _)| n == name)
                .and_then(|(_, p)| p.clone());
            if !scope.field_symbols.iter().any(|(n, _)| n == name) {
                scope.field_symbols.push((name.to_string(), old));
            }
            match frame.field_symbols.iter_mut().find(|(n, _)| n == name) {
                Some(entry) => entry.1 = Some(place),
                None => frame.field_symbols.push((name.to_string(), Some(place))),
            }
            return Ok(());
        }
        match frame.vars.iter().position(|v| v.name == name) {
            Some(i) => {
                if i < scope.vars_len
                    && !scope.shadowed.iter().any(|(k, _)| *k == i)
                    && let Some(v) = frame.vars.get(i)
                {
                    scope.shadowed.push((i, v.clone()));
                }
                if let Some(v) = frame.vars.get_mut(i) {
                    v.ty = val.type_of();
                    v.val = val;
                    v.read_only = false;
                }
            }
            None => {
                let mut v = Var::new(name, val.type_of(), VarKind::Local);
                v.val = val;
                frame.vars.push(v);
            }
        }
        Ok(())
    }

    pub(super) fn bind_lets(&mut self, lets: &[(String, Expr)], scope: &mut Scope) -> Exec<()> {
        for (name, e) in lets {
            let v = self.operand_value(e)?;
            self.bind_helper(name, v, scope)?;
        }
        Ok(())
    }
}
