//! `cl_abap_unit_assert` (and the older `cl_aunit_assert`): the static assertion methods
//! of ABAP Unit. A failed assertion ends the test method as `Unwind::Failure`, with the
//! details the ADT result shows.

use crate::interp::builtins::classes::native::NativeClass;
use crate::interp::{Exec, Failure, Interp, Unwind};
use abap_data::value::Value;
use abap_syntax::ast::{CallExpr, ClassDef};

/// The assertion classes, whose static methods the simulator implements.
pub const UNIT_ASSERT: &str = "CL_ABAP_UNIT_ASSERT";
pub const UNIT_ASSERT_OLD: &str = "CL_AUNIT_ASSERT";

pub(crate) const CLASS: NativeClass = NativeClass {
    name: "unit_assert",
    knows: |name| name == UNIT_ASSERT || name == UNIT_ASSERT_OLD,
    static_call: Some(|interp, class, call| interp.unit_assert_call(class, call)),
    method: None,
};

impl Interp<'_, '_> {
    fn unit_assert_call(&mut self, class: &ClassDef, call: &CallExpr) -> Exec<Option<Value>> {
        let mut args: Vec<(String, Value)> = Vec::new();
        if let Some(e) = &call.args.positional {
            let first = match call.method.as_str() {
                "ASSERT_TRUE" | "ASSERT_FALSE" | "ASSERT_INITIAL" | "ASSERT_NOT_INITIAL"
                | "ASSERT_BOUND" | "ASSERT_NOT_BOUND" => "ACT",
                "ASSERT_SUBRC" => "EXP",
                _ => "MSG",
            };
            args.push((first.into(), self.eval(e)?));
        }
        for (n, e) in &call.args.exporting {
            let v = self.eval(e)?;
            args.push((n.clone(), v));
        }
        let get = |n: &str| args.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        let msg = get("MSG")
            .and_then(|v| v.template_text().ok())
            .filter(|m| !m.is_empty());
        let text = |v: &Value| v.template_text().unwrap_or_else(|_| v.display(None));
        let truthy = |v: &Value| match v {
            Value::C(s) | Value::Str(s) => s.trim_end() == "X",
            other => !other.is_initial(),
        };
        let mut failed: Option<Vec<String>> = None;
        let need = |this: &Self, n: &str| -> Exec<Value> {
            get(n).ok_or_else(|| {
                this.dump(
                    "CALL_METHOD_PARMS_MISSING",
                    format!("parameter {n} of {} is not supplied", call.method),
                )
            })
        };
        match call.method.as_str() {
            "ASSERT_EQUALS" | "ASSERT_DIFFERS" => {
                let act = need(self, "ACT")?;
                let exp = need(self, "EXP")?;
                let equal = self.values_equal(&act, &exp)?;
                let equals = call.method == "ASSERT_EQUALS";
                if equal != equals {
                    failed = Some(if equals {
                        vec![format!("Expected [{}] Actual [{}]", text(&exp), text(&act))]
                    } else {
                        vec![format!("Values are equal: [{}]", text(&act))]
                    });
                }
            }
            "ASSERT_TRUE" | "ASSERT_FALSE" => {
                let act = need(self, "ACT")?;
                let want = call.method == "ASSERT_TRUE";
                if truthy(&act) != want {
                    failed = Some(vec![format!(
                        "Expected {} Actual [{}]",
                        if want { "true" } else { "false" },
                        text(&act)
                    )]);
                }
            }
            "ASSERT_INITIAL" | "ASSERT_NOT_INITIAL" => {
                let act = need(self, "ACT")?;
                let want = call.method == "ASSERT_INITIAL";
                if act.is_initial() != want {
                    failed = Some(vec![if want {
                        format!("Expected an initial value Actual [{}]", text(&act))
                    } else {
                        "Expected a value that is not initial".to_string()
                    }]);
                }
            }
            "ASSERT_BOUND" | "ASSERT_NOT_BOUND" => {
                let act = need(self, "ACT")?;
                let bound = matches!(
                    act,
                    Value::Ref {
                        target: Some(_),
                        ..
                    }
                );
                let want = call.method == "ASSERT_BOUND";
                if bound != want {
                    failed = Some(vec![if want {
                        "Reference is not bound".to_string()
                    } else {
                        "Reference is bound".to_string()
                    }]);
                }
            }
            "ASSERT_SUBRC" => {
                let exp = get("EXP").unwrap_or(Value::I(0));
                let act = self
                    .st
                    .sy
                    .iter()
                    .find(|v| v.name == "SUBRC")
                    .map_or(Value::I(0), |v| v.val.clone());
                if !self.values_equal(&act, &exp)? {
                    failed = Some(vec![format!(
                        "Expected SY-SUBRC [{}] Actual [{}]",
                        text(&exp),
                        text(&act)
                    )]);
                }
            }
            "ASSERT_CHAR_CP" => {
                let act = need(self, "ACT")?;
                let exp = need(self, "EXP")?;
                let a = text(&act);
                let p = text(&exp);
                if !crate::interp::text_compare::covers_pattern(&a, &p) {
                    failed = Some(vec![format!("Text [{a}] does not match the pattern [{p}]")]);
                }
            }
            "ASSERT_TABLE_CONTAINS" => {
                return Err(self.not_supported("ASSERT_TABLE_CONTAINS (internal tables)"));
            }
            "FAIL" => failed = Some(Vec::new()),
            "SKIP" => failed = Some(vec!["Test skipped".into()]),
            "ABORT" => failed = Some(vec!["Test aborted".into()]),
            other => {
                return Err(self.not_supported(&format!("method {}=>{other}", class.name)));
            }
        }
        if let Some(mut details) = failed {
            if let Some(m) = msg {
                details.insert(0, m);
            }
            return Err(Unwind::Failure(Box::new(Failure {
                assertion: call.method.clone(),
                details,
                location: self.location(),
            })));
        }
        Ok(None)
    }

    fn values_equal(&self, a: &Value, b: &Value) -> Exec<bool> {
        match (a, b) {
            (Value::Ref { .. }, Value::Ref { .. }) => {
                Ok(self.compare(a, b)? == std::cmp::Ordering::Equal)
            }
            _ => match self.compare(a, b) {
                Ok(o) => Ok(o == std::cmp::Ordering::Equal),
                // Text against a number that is no number: not equal.
                Err(Unwind::Dump(_)) => Ok(false),
                Err(e) => Err(e),
            },
        }
    }
}
