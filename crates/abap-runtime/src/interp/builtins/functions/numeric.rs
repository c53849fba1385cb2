//! Built-in numeric functions: `abs sign ceil floor trunc frac` keep the argument's numeric
//! type (text counts as `p`, dates/times/bytes as `i`), the floating point functions (`sqrt exp
//! log log10 sin cos tan asin acos atan sinh cosh tanh`) calculate in `f`, and `round( val =
//! x dec|prec = n [mode = m] )` rounds (default half away from zero; see `numeric_args.rs`).

use super::group::{Group, single_arg};
use crate::interp::{Exec, Interp};
use abap_data::conversion::float_value;
use abap_data::float::{f_to_dec, round_significant};
use abap_data::number::Dec;
use abap_data::value::{Type, Value};
use abap_syntax::ast::CallExpr;

/// Integer part towards −∞ (`floor`), +∞ (`ceil`) or zero (`trunc`) of a decimal.
fn integral(x: Dec, how: &str) -> Option<Dec> {
    let f = 10i128.checked_pow(x.scale)?;
    let q = x.m / f;
    let r = x.m % f;
    let q = match how {
        "CEIL" if r > 0 => q + 1,
        "FLOOR" if r < 0 => q - 1,
        _ => q,
    };
    Some(Dec {
        m: q.checked_mul(f)?,
        scale: x.scale,
    })
}

pub(crate) const GROUP: Group = Group {
    name: "numeric",
    knows: |name| {
        matches!(
            name,
            "SQRT"
                | "EXP"
                | "LOG"
                | "LOG10"
                | "SIN"
                | "COS"
                | "TAN"
                | "ASIN"
                | "ACOS"
                | "ATAN"
                | "SINH"
                | "COSH"
                | "TANH"
                | "SIGN"
                | "ABS"
                | "CEIL"
                | "FLOOR"
                | "TRUNC"
                | "FRAC"
                | "ROUND"
        )
    },
    run: |interp, call| interp.numeric_call(call).map(Some),
};

impl<'r> Interp<'r, '_> {
    /// `round( val dec|prec [mode] )` with named arguments, and the functions of one
    /// argument.
    fn numeric_call(&mut self, call: &CallExpr) -> Exec<Value> {
        if call.method == "ROUND" && call.args.positional.is_none() {
            return self.round_function(call);
        }
        let arg = single_arg(self, call)?;
        let v = self.eval(arg)?;
        match call.method.as_str() {
            "ABS" if matches!(v, Value::F(_) | Value::Int8(_) | Value::DecFloat(..)) => {
                self.rounding_function("ABS", &v)
            }
            "ABS" => {
                Ok(match v {
                    Value::I(i) => Value::I(i.checked_abs().ok_or_else(|| {
                        self.dump("COMPUTE_INT_ABS_OVERFLOW", "Overflow in abs( )")
                    })?),
                    Value::P { m, len, dec } => Value::P {
                        m: m.get().abs().into(),
                        len,
                        dec,
                    },
                    other => {
                        let d = other.to_dec().map_err(|e| self.conv_error(e))?;
                        Value::P {
                            m: d.m.abs().into(),
                            len: 16,
                            dec: d.scale,
                        }
                    }
                })
            }
            other => match self.numeric_function(other, &v)? {
                Some(r) => Ok(r),
                None => Err(self.not_supported(&format!("method or built-in function {other}( )"))),
            },
        }
    }

    fn domain_error(&self, func: &str) -> crate::interp::Unwind {
        self.dump(
            "COMPUTE_MATH_DOMAIN",
            format!(
                "Invalid argument for the function {}( )",
                func.to_ascii_lowercase()
            ),
        )
    }

    /// `func( v )` for the numeric functions; `None` when `func` is none of them.
    pub fn numeric_function(&self, func: &str, v: &Value) -> Exec<Option<Value>> {
        let conv = |e| self.conv_error(e);
        Ok(Some(match func {
            "SQRT" | "EXP" | "LOG" | "LOG10" | "SIN" | "COS" | "TAN" | "ASIN" | "ACOS" | "ATAN"
            | "SINH" | "COSH" | "TANH" => {
                let x = float_value(v).map_err(conv)?;
                let r = match func {
                    "SQRT" => x.sqrt(),
                    "EXP" => x.exp(),
                    "LOG" => x.ln(),
                    "LOG10" => x.log10(),
                    "SIN" => x.sin(),
                    "COS" => x.cos(),
                    "TAN" => x.tan(),
                    "ASIN" => x.asin(),
                    "ACOS" => x.acos(),
                    "ATAN" => x.atan(),
                    "SINH" => x.sinh(),
                    "COSH" => x.cosh(),
                    _ => x.tanh(),
                };
                if r.is_nan() {
                    return Err(self.domain_error(func));
                }
                if !r.is_finite() {
                    return Err(self.dump(
                        "COMPUTE_FLOAT_PLUS_OVERFLOW",
                        format!("Overflow in {}( )", func.to_ascii_lowercase()),
                    ));
                }
                Value::F(r)
            }
            "SIGN" => {
                let s = match v {
                    Value::F(f) => {
                        if *f > 0.0 {
                            1
                        } else if *f < 0.0 {
                            -1
                        } else {
                            0
                        }
                    }
                    other => other.to_dec().map_err(conv)?.m.signum() as i32,
                };
                Value::I(s)
            }
            "ABS" | "CEIL" | "FLOOR" | "TRUNC" | "FRAC" => self.rounding_function(func, v)?,
            _ => return Ok(None),
        }))
    }

    /// `abs ceil floor trunc frac` in the argument's own numeric type.
    pub fn rounding_function(&self, func: &str, v: &Value) -> Exec<Value> {
        let conv = |e| self.conv_error(e);
        let overflow = || self.dump("COMPUTE_INT_ABS_OVERFLOW", "Overflow in abs( )");
        Ok(match v {
            Value::F(f) => Value::F(match func {
                "ABS" => f.abs(),
                "CEIL" => f.ceil(),
                "FLOOR" => f.floor(),
                "TRUNC" => f.trunc(),
                _ => f.fract(),
            }),
            Value::I(_) | Value::D(_) | Value::T(_) | Value::X(_) | Value::XStr(_) => {
                let Value::I(i) = v.convert(&Type::I).map_err(conv)? else {
                    return Err(self.not_supported("integer argument"));
                };
                match func {
                    "ABS" => Value::I(i.checked_abs().ok_or_else(overflow)?),
                    "FRAC" => Value::I(0),
                    _ => Value::I(i),
                }
            }
            Value::Int8(i) => match func {
                "ABS" => Value::Int8(i.checked_abs().ok_or_else(overflow)?),
                "FRAC" => Value::Int8(0),
                _ => Value::Int8(*i),
            },
            other => {
                let x = match other {
                    Value::DecFloat(d, _) => **d,
                    _ => other.to_dec().map_err(conv)?,
                };
                let r = match func {
                    "ABS" => Some(Dec {
                        m: x.m.abs(),
                        scale: x.scale,
                    }),
                    "FRAC" => integral(x, "TRUNC").and_then(|t| x.sub(t).ok()),
                    how => integral(x, how),
                }
                .ok_or_else(|| self.domain_error(func))?;
                match other {
                    Value::P { len, dec, .. } => Value::p_from_dec(r, *len, *dec).map_err(conv)?,
                    Value::DecFloat(..) => Value::DecFloat(
                        Box::new(round_significant(r, 34).map_err(|_| self.domain_error(func))?),
                        34,
                    ),
                    // Text arguments calculate as `p`.
                    _ => Value::P {
                        m: r.rescale(x.scale)
                            .map_err(|_| self.domain_error(func))?
                            .into(),
                        len: 16,
                        dec: x.scale,
                    },
                }
            }
        })
    }

    /// `round( val = x dec|prec = n [mode = m] )`: `x` rounded to `n` decimals or significant
    /// digits (by default half away from zero), in `x`'s
    /// type (`p` keeps its decimals, `f` stays `f`, text and integers become `decfloat34`).
    pub fn round_function(&mut self, call: &CallExpr) -> Exec<Value> {
        let mut val = None;
        let mut dec = None;
        let mut prec = None;
        let mut mode = None;
        for (n, e) in &call.args.exporting {
            match n.as_str() {
                "VAL" => val = Some(self.eval(e)?),
                "DEC" => dec = Some(self.eval(e)?),
                "PREC" => prec = Some(self.eval(e)?),
                "MODE" => mode = Some(self.eval(e)?),
                other => {
                    return Err(self.not_supported(&format!("round( ) with {other}")));
                }
            }
        }
        let int = |it: &Self, v: Value| match v.convert(&Type::I).map_err(|e| it.conv_error(e))? {
            Value::I(i) => Ok(i),
            _ => Err(it.not_supported("round( ) argument")),
        };
        let (v, places_of) = match (val, dec, prec) {
            (Some(v), Some(d), None) => (
                v,
                crate::interp::builtins::functions::numeric_args::Places::Decimals(int(self, d)?),
            ),
            (Some(v), None, Some(p)) => (
                v,
                crate::interp::builtins::functions::numeric_args::Places::Digits(int(self, p)?),
            ),
            _ => return Err(self.not_supported("round( ) without val and one of dec, prec")),
        };
        let mode = match mode {
            Some(m) => int(self, m)?,
            None => crate::interp::builtins::functions::numeric_args::ROUND_HALF_UP,
        };
        let x = match &v {
            Value::F(f) => f_to_dec(*f).map_err(|_| self.domain_error("ROUND"))?,
            other => other.to_dec().map_err(|e| self.conv_error(e))?,
        };
        let r = match crate::interp::builtins::functions::numeric_args::round_places(
            x, places_of, mode,
        ) {
            Ok(r) => r,
            Err(why) => return Err(self.not_supported(&format!("round( ) with {why}"))),
        };
        Ok(match &v {
            Value::P { len, dec, .. } => {
                Value::p_from_dec(r, *len, *dec).map_err(|e| self.conv_error(e))?
            }
            Value::F(_) => Value::F(abap_data::float::dec_to_f(&r)),
            _ => Value::DecFloat(
                Box::new(round_significant(r, 34).map_err(|_| self.domain_error("ROUND"))?),
                34,
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_helpers() {
        let d = |s: &str| Dec::parse(s).unwrap();
        assert_eq!(integral(d("-2.5"), "FLOOR").unwrap().format(1), "-3.0");
        assert_eq!(integral(d("-2.5"), "CEIL").unwrap().format(1), "-2.0");
        assert_eq!(integral(d("2.5"), "TRUNC").unwrap().format(1), "2.0");
    }
}
