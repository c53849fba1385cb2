//! The system class `CL_ABAP_STRING_UTILITIES`: `del_trailing_blanks( CHANGING str )` removes
//! the trailing blanks of a string (as `shift_right( str )` does) and
//! `c2str_preserving_blanks( EXPORTING field IMPORTING str )` copies a text field into a
//! string with its trailing blanks.

use crate::interp::builtins::classes::native::NativeClass;
use crate::interp::{Exec, Interp};
use abap_data::value::Value;
use abap_syntax::ast::CallExpr;

pub const STRING_UTILITIES: &str = "CL_ABAP_STRING_UTILITIES";

pub(crate) const CLASS: NativeClass = NativeClass {
    name: "string_utilities",
    knows: |name| name == STRING_UTILITIES,
    static_call: Some(|interp, _, call| interp.string_utilities_call(call)),
    method: None,
};

impl Interp<'_, '_> {
    pub fn string_utilities_call(&mut self, call: &CallExpr) -> Exec<Option<Value>> {
        let a = &call.args;
        let unknown = |it: &Self| {
            it.not_supported(&format!(
                "cl_abap_string_utilities=>{}( ) with these parameters",
                call.method.to_ascii_lowercase()
            ))
        };
        match call.method.as_str() {
            "DEL_TRAILING_BLANKS" => {
                let [(name, path)] = a.changing.as_slice() else {
                    return Err(unknown(self));
                };
                if name != "STR"
                    || a.positional.is_some()
                    || !a.exporting.is_empty()
                    || !a.importing.is_empty()
                {
                    return Err(unknown(self));
                }
                let text = self
                    .read(path)?
                    .to_abap_string()
                    .map_err(|e| self.conv_error(e))?;
                self.assign_value(
                    path,
                    Value::Str(text.trim_end_matches(' ').to_string().into()),
                )?;
                Ok(None)
            }
            "C2STR_PRESERVING_BLANKS" => {
                let field = match (&a.positional, a.exporting.as_slice()) {
                    (Some(e), []) => e,
                    (None, [(n, e)]) if n == "FIELD" => e,
                    _ => return Err(unknown(self)),
                };
                let [(name, target)] = a.importing.as_slice() else {
                    return Err(unknown(self));
                };
                if name != "STR" || !a.changing.is_empty() {
                    return Err(unknown(self));
                }
                let text = match self.eval(field)? {
                    Value::C(s) => s,
                    other => other
                        .to_abap_string()
                        .map_err(|e| self.conv_error(e))?
                        .into(),
                };
                self.assign_value(target, Value::Str(text))?;
                Ok(None)
            }
            other => Err(self.not_supported(&format!("method {STRING_UTILITIES}=>{other}"))),
        }
    }
}
