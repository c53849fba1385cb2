//! Numeric built-in functions with several named arguments: `nmax( val1 = … val2 = … )`,
//! `nmin( … )` (up to `val9`) and `ipow( base = … exp = … )`.
//!
//! The result has the calculation type of the arguments: `i` when all are `i`, `int8` when
//! `int8` is the widest, `p` when `p` takes part (16 bytes, the largest number of decimals
//! of the arguments). Other combinations (`f`, `decfloat34`) are outside the subset.

use std::cmp::Ordering;

use crate::ast::CallExpr;
use crate::interp::{Exec, Interp, Unwind};
use crate::number::Dec;
use crate::value::{Type, Value};

const VALS: [&str; 9] = [
    "VAL1", "VAL2", "VAL3", "VAL4", "VAL5", "VAL6", "VAL7", "VAL8", "VAL9",
];

impl<'r> Interp<'r, '_> {
    /// `nmax`, `nmin`, `ipow`; `None` for every other call.
    pub fn numeric_args_function(&mut self, call: &CallExpr) -> Exec<Option<Value>> {
        let func = call.method.as_str();
        let allowed: &[&str] = match func {
            "NMAX" | "NMIN" => &VALS,
            "IPOW" => &["BASE", "EXP"],
            _ => return Ok(None),
        };
        let lower = func.to_ascii_lowercase();
        let a = &call.args;
        if a.positional.is_some()
            || !a.importing.is_empty()
            || !a.changing.is_empty()
            || a.receiving.is_some()
        {
            return Err(self.not_supported(&format!("{lower}( ) with these arguments")));
        }
        let mut args: Vec<(&str, Value)> = Vec::new();
        for (n, e) in &a.exporting {
            let Some(p) = allowed.iter().find(|p| **p == n.as_str()) else {
                return Err(self.not_supported(&format!(
                    "{lower}( ) with argument {}",
                    n.to_ascii_lowercase()
                )));
            };
            let v = self.eval(e)?;
            args.push((p, v));
        }
        let get = |name: &str| args.iter().find(|(n, _)| *n == name).map(|(_, v)| v);
        if func == "IPOW" {
            let (Some(base), Some(exp)) = (get("BASE"), get("EXP")) else {
                return Err(self.dump("CALL_METHOD_PARMS_MISSING", "ipow( ) needs base and exp"));
            };
            return self.ipow(base, exp).map(Some);
        }
        if get("VAL1").is_none() || get("VAL2").is_none() {
            return Err(self.dump(
                "CALL_METHOD_PARMS_MISSING",
                format!("{lower}( ) needs val1 and val2"),
            ));
        }
        let vals: Vec<&Value> = args.iter().map(|(_, v)| v).collect();
        self.extreme(func == "NMAX", &lower, &vals).map(Some)
    }

    fn extreme(&self, max: bool, lower: &str, vals: &[&Value]) -> Exec<Value> {
        let want = if max {
            Ordering::Greater
        } else {
            Ordering::Less
        };
        let numeric = |v: &Value| matches!(v, Value::I(_) | Value::Int8(_) | Value::P { .. });
        if !vals.iter().all(|v| numeric(v)) {
            return Err(self.not_supported(&format!(
                "{lower}( ) with arguments of types other than i, int8, p"
            )));
        }
        let mut best: Option<Dec> = None;
        let mut scale = 0;
        for v in vals {
            let d = v.to_dec().map_err(|e| self.conv_error(e))?;
            scale = scale.max(d.scale);
            if best.is_none_or(|b| d.cmp(&b) == want) {
                best = Some(d);
            }
        }
        let best = best.unwrap_or(Dec::int(0));
        let overflow = || self.bcd_overflow_dump();
        if vals.iter().any(|v| matches!(v, Value::P { .. })) {
            let m = best.rescale(scale).map_err(|_| overflow())?;
            return Ok(Value::P {
                m,
                len: 16,
                dec: scale,
            });
        }
        let m = best.rescale(0).map_err(|_| overflow())?;
        if vals.iter().any(|v| matches!(v, Value::Int8(_))) {
            return i64::try_from(m).map(Value::Int8).map_err(|_| overflow());
        }
        i32::try_from(m).map(Value::I).map_err(|_| overflow())
    }

    fn ipow(&self, base: &Value, exp: &Value) -> Exec<Value> {
        let exp = match exp.convert(&Type::I).map_err(|e| self.conv_error(e))? {
            Value::I(n) => n,
            _ => 0,
        };
        let Ok(exp) = u32::try_from(exp) else {
            return Err(self.not_supported("ipow( ) with a negative exponent"));
        };
        let int_overflow = || {
            self.dump(
                "COMPUTE_INT_TIMES_OVERFLOW",
                "Integer overflow in an arithmetic operation",
            )
        };
        match base {
            Value::I(b) => b.checked_pow(exp).map(Value::I).ok_or_else(int_overflow),
            Value::Int8(b) => b.checked_pow(exp).map(Value::Int8).ok_or_else(int_overflow),
            Value::P { m, dec, .. } => {
                let x = Dec { m: *m, scale: *dec };
                let mut r = Dec::int(1);
                for _ in 0..exp {
                    r = r.mul(x).map_err(|_| self.bcd_overflow_dump())?;
                }
                // The result keeps the base's decimals; a power with more decimals would be
                // rounded by rules not pinned down here.
                let m = r.rescale(*dec).map_err(|_| self.bcd_overflow_dump())?;
                if (Dec { m, scale: *dec }).cmp(&r) != Ordering::Equal {
                    return Err(
                        self.not_supported("ipow( ) of a p value whose power needs more decimals")
                    );
                }
                Ok(Value::P {
                    m,
                    len: 16,
                    dec: *dec,
                })
            }
            _ => Err(self.not_supported("ipow( ) with a base of type other than i, int8, p")),
        }
    }

    fn bcd_overflow_dump(&self) -> Unwind {
        self.dump(
            "COMPUTE_BCD_OVERFLOW",
            "Overflow in a calculation with packed numbers",
        )
    }
}
