//! `cl_abap_context_info`: the run's clock (`sy-datum`, `sy-uzeit`), user and time zone.

use crate::interp::builtins::classes::native::NativeClass;
use crate::interp::{Exec, Interp};
use abap_data::value::Value;
use abap_syntax::ast::CallExpr;

/// System date, time and user of the run (`time.rs`).
pub const CONTEXT_INFO: &str = "CL_ABAP_CONTEXT_INFO";

pub(crate) const CLASS: NativeClass = NativeClass {
    name: "context_info",
    knows: |name| name == CONTEXT_INFO,
    static_call: Some(|interp, _, call| interp.context_info_call(call).map(Some)),
    method: None,
};

impl Interp<'_, '_> {
    /// `cl_abap_context_info=>get_system_date( )` and friends: the run's clock and user.
    fn context_info_call(&mut self, call: &CallExpr) -> Exec<Value> {
        if call.args.positional.is_some() || !call.args.exporting.is_empty() {
            return Err(self.not_supported(&format!(
                "cl_abap_context_info=>{}( ) with parameters",
                call.method.to_ascii_lowercase()
            )));
        }
        Ok(match call.method.as_str() {
            "GET_SYSTEM_DATE" => Value::D(self.sy_text("DATUM").into()),
            "GET_SYSTEM_TIME" => Value::T(self.sy_text("UZEIT").into()),
            "GET_USER_TECHNICAL_NAME" => {
                Value::C(format!("{:<12}", self.sy_text("UNAME").trim_end()).into())
            }
            "GET_USER_TIME_ZONE" => Value::C("UTC   ".into()),
            other => {
                return Err(self.not_supported(&format!("method CL_ABAP_CONTEXT_INFO=>{other}")));
            }
        })
    }
}
