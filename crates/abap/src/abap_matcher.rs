//! The static methods `cl_abap_matcher=>matches( pattern text [ignore_case] )` (does the
//! whole text match the POSIX regular expression?) and `cl_abap_matcher=>contains( … )` (is
//! there a match anywhere?), both returning `abap_bool`. Patterns run through `abap_regex`
//! (refused ones end the run as not supported); the matcher objects are outside the subset.

use crate::abap_regex::{self, Flavor};
use crate::ast::CallExpr;
use crate::interp::{Exec, Interp};
use crate::value::Value;

pub const ABAP_MATCHER: &str = "CL_ABAP_MATCHER";

impl Interp<'_, '_> {
    pub fn abap_matcher_call(&mut self, call: &CallExpr) -> Exec<Option<Value>> {
        let whole = match call.method.as_str() {
            "MATCHES" => true,
            "CONTAINS" => false,
            other => {
                return Err(self.not_supported(&format!("method {ABAP_MATCHER}=>{other}")));
            }
        };
        let a = &call.args;
        if a.positional.is_some() || !a.importing.is_empty() || !a.changing.is_empty() {
            return Err(self.not_supported(&format!(
                "{ABAP_MATCHER}=>{} with these parameters",
                call.method
            )));
        }
        let mut pattern = None;
        let mut text = None;
        let mut ignore_case = false;
        for (n, e) in &a.exporting {
            let v = self.eval(e)?;
            let s = v.to_abap_string().map_err(|e| self.conv_error(e))?;
            match n.as_str() {
                "PATTERN" => pattern = Some(s),
                "TEXT" => text = Some(s),
                "IGNORE_CASE" => ignore_case = !s.trim().is_empty(),
                other => {
                    return Err(self.not_supported(&format!(
                        "{ABAP_MATCHER}=>{} with parameter {other}",
                        call.method
                    )));
                }
            }
        }
        let (Some(pattern), Some(text)) = (pattern, text) else {
            return Err(self.dump(
                "CALL_METHOD_PARMS_MISSING",
                format!("{ABAP_MATCHER}=>{} needs PATTERN and TEXT", call.method),
            ));
        };
        let source = if whole {
            format!("^(?:{pattern})$")
        } else {
            pattern.clone()
        };
        let re = abap_regex::compile(&source, Flavor::Posix, ignore_case)
            .map_err(|_| self.not_supported(&format!("regular expression {pattern}")))?;
        let hit = re.is_match(&text);
        let result = Value::C(if hit { "X" } else { " " }.into());
        if let Some(target) = &a.receiving {
            self.assign_value(target, result.clone())?;
        }
        Ok(Some(result))
    }
}
