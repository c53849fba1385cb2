//! Numeric built-in functions with several named arguments: `nmax( val1 = … val2 = … )`,
//! `nmin( … )` (up to `val9`), `ipow( base = … exp = … )`, and the rounding rule behind
//! `round( val dec|prec [mode] )`.
//!
//! The result has the calculation type of the arguments: `i` when all are `i`, `int8` when
//! `int8` is the widest, `p` when `p` takes part (16 bytes, the largest number of decimals
//! of the arguments). Other combinations (`f`, `decfloat34`) are outside the subset.

use std::cmp::Ordering;

use super::group::Group;
use crate::interp::{Exec, Interp, Unwind};
use abap_data::number::{Dec, pow10};
use abap_data::value::{Type, Value};
use abap_syntax::ast::CallExpr;

/// `cl_abap_math=>round_half_up`, the mode `round( )` uses by default.
pub const ROUND_HALF_UP: i32 = 2;

/// What `round( )` keeps: decimals (`dec`, negative: tens, hundreds, …) or significant
/// digits (`prec`).
#[derive(Debug, Clone, Copy)]
pub enum Places {
    Decimals(i32),
    Digits(i32),
}

/// `x` rounded as `round( )` does with `mode` (the values of `cl_abap_math=>round_…`:
/// ceiling 0, up 1, half up 2, half even 3, half down 4, down 5, floor 6). `Err` names what
/// is outside the subset.
pub fn round_places(x: Dec, places: Places, mode: i32) -> Result<Dec, &'static str> {
    let scale = i64::from(x.scale);
    let keep = match places {
        Places::Decimals(d) => i64::from(d),
        Places::Digits(p) if p <= 0 => return Err("prec below 1"),
        Places::Digits(p) => {
            if x.m == 0 {
                return Ok(x);
            }
            let digits = i64::try_from(x.m.unsigned_abs().to_string().len()).unwrap_or(0);
            i64::from(p) - digits + scale
        }
    };
    let drop = scale - keep;
    if drop <= 0 {
        return Ok(x);
    }
    let f = u32::try_from(drop)
        .ok()
        .and_then(|d| 10i128.checked_pow(d))
        .ok_or("so many places")?;
    let (q, r) = (x.m / f, x.m % f);
    let twice = r.unsigned_abs().saturating_mul(2);
    let half = f.unsigned_abs();
    let away = match mode {
        0 => r > 0,
        1 => r != 0,
        2 => twice >= half,
        3 => twice > half || (twice == half && q % 2 != 0),
        4 => twice > half,
        5 => false,
        6 => r < 0,
        _ => return Err("an unknown mode"),
    };
    let q = if away { q + x.m.signum() } else { q };
    if keep >= 0 {
        Ok(Dec {
            m: q,
            scale: u32::try_from(keep).map_err(|_| "so many places")?,
        })
    } else {
        let back = u32::try_from(-keep)
            .ok()
            .and_then(|k| 10i128.checked_pow(k))
            .ok_or("so many places")?;
        q.checked_mul(back).map(Dec::int).ok_or("so many places")
    }
}

const VALS: [&str; 9] = [
    "VAL1", "VAL2", "VAL3", "VAL4", "VAL5", "VAL6", "VAL7", "VAL8", "VAL9",
];

pub(crate) const GROUP: Group = Group {
    name: "numeric_args",
    knows: |name| matches!(name, "NMAX" | "NMIN" | "IPOW"),
    run: |interp, call| interp.numeric_args_function(call),
};

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
                m: m.into(),
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
                let m = m.get();
                let x = Dec { m, scale: *dec };
                let one = pow10(*dec).unwrap_or(1);
                // Bound the loop: beyond a few hundred factors only 0 and ±1 stay finite
                // and exact.
                if exp > 256 {
                    return match m.unsigned_abs() {
                        0 => Ok(Value::P {
                            m: 0.into(),
                            len: 16,
                            dec: *dec,
                        }),
                        a if a == one.unsigned_abs() => Ok(Value::P {
                            m: if m < 0 && exp % 2 == 1 { -one } else { one }.into(),
                            len: 16,
                            dec: *dec,
                        }),
                        a if a > one.unsigned_abs() => Err(self.bcd_overflow_dump()),
                        _ => Err(self
                            .not_supported("ipow( ) of a p value whose power needs more decimals")),
                    };
                }
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
                    m: m.into(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn r(x: &str, places: Places, mode: i32) -> String {
        let d = Dec::parse(x).unwrap();
        let out = round_places(d, places, mode).unwrap();
        out.format(out.scale)
    }

    #[test]
    fn rounding_modes() {
        use Places::{Decimals as D, Digits as P};
        assert_eq!(r("2.345", D(2), 2), "2.35");
        assert_eq!(r("-2.345", D(2), 2), "-2.35");
        assert_eq!(r("2.345", D(2), 4), "2.34");
        assert_eq!(r("2.345", D(2), 3), "2.34");
        assert_eq!(r("2.355", D(2), 3), "2.36");
        assert_eq!(r("2.341", D(2), 1), "2.35");
        assert_eq!(r("-2.341", D(2), 1), "-2.35");
        assert_eq!(r("2.349", D(2), 5), "2.34");
        assert_eq!(r("-2.341", D(2), 0), "-2.34");
        assert_eq!(r("2.341", D(2), 0), "2.35");
        assert_eq!(r("-2.341", D(2), 6), "-2.35");
        assert_eq!(r("1250", D(-2), 2), "1300");
        assert_eq!(r("1234.5678", P(3), 2), "1230");
        assert_eq!(r("0.012345", P(2), 2), "0.012");
        assert_eq!(r("9.99", P(2), 2), "10.0");
    }
}
