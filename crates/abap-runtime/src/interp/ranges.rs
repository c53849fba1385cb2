//! Range tables (`TYPE|LIKE RANGE OF`) and the predicates `x IN range`, `p IS SUPPLIED` and
//! `oref IS INSTANCE OF class|interface`.
//!
//! `x IN r`: true for an empty range; otherwise `x` must match at least one row with `SIGN`
//! `I` (when there is one) and no row with `SIGN` `E`. Options: `EQ NE GT GE LT LE` compare
//! with `LOW`, `BT`/`NB` test `LOW ≤ x ≤ HIGH`, `CP`/`NP` match `LOW` as a pattern.

use std::cmp::Ordering;

use crate::interp::{Exec, Interp};
use abap_data::value::Value;
use abap_syntax::ast::Expr;

/// `SIGN`, `OPTION`, `LOW`, `HIGH` of a range row.
fn range_row(row: &Value) -> Option<(String, String, &Value, &Value)> {
    let Value::Struct(st, vals) = row else {
        return None;
    };
    let get = |n: &str| st.index_of(n).and_then(|i| vals.get(i));
    let text = |v: &Value| match v {
        Value::C(s) | Value::Str(s) => s.trim_end().to_ascii_uppercase(),
        _ => String::new(),
    };
    Some((
        text(get("SIGN")?),
        text(get("OPTION")?),
        get("LOW")?,
        get("HIGH")?,
    ))
}

impl<'r> Interp<'r, '_> {
    /// The range table of `x IN r`: of a table with a header line (`SELECT-OPTIONS`,
    /// `RANGES`) its body.
    pub(crate) fn range_operand(&mut self, r: &Expr) -> Exec<Value> {
        match r {
            Expr::Path(p) if self.has_header_line(p) => self.read(&self.table_body(p)),
            _ => self.eval(r),
        }
    }

    /// `x IN range`.
    pub fn in_range(&mut self, x: &Value, range: &Value) -> Exec<bool> {
        let Value::Table(_, rows) = range else {
            return Err(self.not_supported("IN with an operand that is no range table"));
        };
        let mut any_include = false;
        let mut included = false;
        for row in rows.iter() {
            let Some((sign, option, low, high)) = range_row(row) else {
                return Err(self.not_supported("IN with a table that is no range table"));
            };
            let hit = self.option_matches(x, &option, low, high)?;
            match sign.as_str() {
                "I" => {
                    any_include = true;
                    included |= hit;
                }
                "E" => {
                    if hit {
                        return Ok(false);
                    }
                }
                other => {
                    return Err(self.dump(
                        "SELOPT_ILLEGAL_SIGN",
                        format!("Illegal SIGN '{other}' in a range table"),
                    ));
                }
            }
        }
        Ok(included || !any_include)
    }

    fn option_matches(&mut self, x: &Value, option: &str, low: &Value, high: &Value) -> Exec<bool> {
        let cmp = |it: &Self, v: &Value| it.compare(x, v);
        Ok(match option {
            "EQ" => cmp(self, low)? == Ordering::Equal,
            "NE" => cmp(self, low)? != Ordering::Equal,
            "GT" => cmp(self, low)? == Ordering::Greater,
            "GE" => cmp(self, low)? != Ordering::Less,
            "LT" => cmp(self, low)? == Ordering::Less,
            "LE" => cmp(self, low)? != Ordering::Greater,
            "BT" | "NB" => {
                let inside =
                    cmp(self, low)? != Ordering::Less && cmp(self, high)? != Ordering::Greater;
                inside == (option == "BT")
            }
            "CP" | "NP" => {
                let text = x.to_abap_string().map_err(|e| self.conv_error(e))?;
                let pattern = low.to_abap_string().map_err(|e| self.conv_error(e))?;
                crate::interp::text_compare::covers_pattern(&text, &pattern) == (option == "CP")
            }
            other => {
                return Err(self.dump(
                    "SELOPT_ILLEGAL_OPTION",
                    format!("Illegal OPTION '{other}' in a range table"),
                ));
            }
        })
    }

    /// `p IS SUPPLIED`: the current procedure's caller gave an actual parameter for `p`.
    pub fn is_supplied(&self, name: &str) -> Exec<bool> {
        let Some(frame) = self.st.frames.last() else {
            return Err(self.not_supported("IS SUPPLIED outside a procedure"));
        };
        // A function module's TABLES parameter `p` is the parameter `p[]` (its body).
        let body = abap_syntax::parser::header_lines::body_name(name);
        let param = frame
            .vars
            .iter()
            .take(frame.n_params)
            .find(|v| v.name == name || v.name == body);
        let Some(param) = param else {
            return Err(
                self.not_supported(&format!("IS SUPPLIED of {name}, which is no parameter"))
            );
        };
        Ok(frame.supplied.contains(&param.name))
    }

    /// `oref IS INSTANCE OF class|interface`.
    pub fn is_instance_of(&mut self, e: &Expr, class: &str) -> Exec<bool> {
        let v = self.eval(e)?;
        let Value::Ref { target, .. } = v else {
            return Err(self.not_supported("IS INSTANCE OF on a non-reference"));
        };
        let Some(obj) = target else {
            return Ok(false);
        };
        if class == "OBJECT" {
            return Ok(true);
        }
        let program = self
            .st
            .frames
            .last()
            .map(|f| f.class.program.clone())
            .unwrap_or_default();
        let Some(def) = self.st.find_class(&program, class) else {
            return Err(self.not_supported(&format!("unknown class {class}")));
        };
        let key = self.st.object_class(obj).unwrap_or_default().to_string();
        Ok(self.st.is_a(&key, def) || self.implements_via_interface(&key, def))
    }
}
