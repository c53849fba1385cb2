//! The output object of a classrun (`IF_OO_ADT_CLASSRUN_OUT`): `out->write( data [name] )`
//! appends the text of `data` (after `name`, when given) to the run's output.

use crate::interp::{Exec, Interp};
use abap_data::value::Type;
use abap_data::value::{ObjId, Value};
use abap_syntax::ast::{CallExpr, MethodDecl, ParamDecl, ParamKind};

/// Class of the object behind `out` in `IF_OO_ADT_CLASSRUN~MAIN`.
pub const CLASSRUN_OUT_CLASS: &str = "CL_OO_ADT_CLASSRUN_OUTPUT";
pub const CLASSRUN_OUT_INTF: &str = "IF_OO_ADT_CLASSRUN_OUT";
pub const CLASSRUN_INTF: &str = "IF_OO_ADT_CLASSRUN";
pub const CLASSRUN_MAIN: &str = "IF_OO_ADT_CLASSRUN~MAIN";

impl Interp<'_, '_> {
    /// `out->write( … )` of the classrun output object.
    pub(crate) fn classrun_out_call(&mut self, out: ObjId, call: &CallExpr) -> Exec<Option<Value>> {
        let method = call.method.rsplit('~').next().unwrap_or_default();
        if method != "WRITE" {
            return Err(self.not_supported(&format!("{CLASSRUN_OUT_INTF}~{method}")));
        }
        let mut data = None;
        let mut name = None;
        if let Some(e) = &call.args.positional {
            data = Some(self.eval(e)?);
        }
        for (n, e) in &call.args.exporting {
            match n.as_str() {
                "DATA" => data = Some(self.eval(e)?),
                "NAME" => name = Some(self.eval(e)?),
                other => {
                    return Err(self.dump(
                        "CALL_METHOD_PARAM_UNKNOWN",
                        format!("method WRITE has no parameter {other}"),
                    ));
                }
            }
        }
        if let Some(n) = name {
            let text = n.to_abap_string().map_err(|e| self.conv_error(e))?;
            self.st.output.push(text);
        }
        let Some(data) = data else {
            return Err(self.dump(
                "CALL_METHOD_PARMS_MISSING",
                "parameter DATA of WRITE is not supplied",
            ));
        };
        let text = match data.to_abap_string() {
            Ok(t) => t,
            Err(_) => return Err(self.not_supported("writing a reference")),
        };
        self.st.output.push(text);
        Ok(Some(Value::Ref {
            static_type: CLASSRUN_OUT_INTF.into(),
            target: Some(out),
        }))
    }
}

/// The implicit signature of `IF_OO_ADT_CLASSRUN~MAIN`.
pub(crate) fn classrun_main_decl() -> MethodDecl {
    MethodDecl {
        name: CLASSRUN_MAIN.into(),
        is_static: false,
        params: vec![ParamDecl {
            name: "OUT".into(),
            kind: ParamKind::Importing,
            ty: Ok(Type::Ref(CLASSRUN_OUT_INTF.into())),
            by_value: false,
            optional: false,
            default: None,
        }],
        for_testing: false,
        is_abstract: false,
        line: 0,
    }
}
