//! The calculation type of an arithmetic expression (ABAP picks it from all operands and the
//! target before computing: `decfloat34` > `f` (also whenever `**` is used) > `p` > `int8` >
//! `i`) and the evaluation in the integer, `f` and `decfloat34` calculation types. The `p`
//! calculation lives in `eval.rs`.

use crate::interp::eval::Num;
use crate::interp::{Exec, Interp, Unwind};
use abap_data::conversion::float_value;
use abap_data::float::{add_significant, div_significant, mul_significant, round_significant};
use abap_data::number::{Dec, Overflow};
use abap_data::value::{Type, Value};
use abap_syntax::ast::BinOp;

/// Digits of the `decfloat34` calculation type.
const DECFLOAT_DIGITS: u32 = 34;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CalcType {
    I,
    Int8,
    P,
    F,
    DecFloat,
}

/// What an operand contributes: dates, times and bytes count as `i`, character-like text as
/// `p`.
fn of_value(v: &Value) -> CalcType {
    match v {
        Value::Int8(_) => CalcType::Int8,
        Value::F(_) => CalcType::F,
        Value::DecFloat(..) => CalcType::DecFloat,
        Value::I(_) | Value::D(_) | Value::T(_) | Value::X(_) | Value::XStr(_) => CalcType::I,
        _ => CalcType::P,
    }
}

/// What the target field contributes (`None`: it does not take part).
fn of_target(t: &Type) -> Option<CalcType> {
    Some(match t {
        Type::I | Type::D | Type::T => CalcType::I,
        Type::Int8 => CalcType::Int8,
        Type::P { .. } | Type::N(_) => CalcType::P,
        Type::F => CalcType::F,
        Type::DecFloat16 | Type::DecFloat34 => CalcType::DecFloat,
        _ => return None,
    })
}

fn of_num(n: &Num) -> (CalcType, bool) {
    match n {
        Num::Leaf(v) => (of_value(v), false),
        Num::Neg(a) => of_num(a),
        Num::Bin(op, a, b) => {
            let (ta, pa) = of_num(a);
            let (tb, pb) = of_num(b);
            (ta.max(tb), pa || pb || *op == BinOp::Power)
        }
    }
}

/// The calculation type of `n` assigned to `target`.
pub fn calc_type(n: &Num, target: Option<&Type>) -> CalcType {
    let (mut t, power) = of_num(n);
    if let Some(tt) = target.and_then(of_target) {
        t = t.max(tt);
    }
    if power && t < CalcType::F {
        t = CalcType::F;
    }
    t
}

/// The calculation type of arithmetic expressions in a comparison: from all operands of
/// both sides.
pub fn comparison_calc_type(l: &Num, r: &Num) -> CalcType {
    let (tl, pl) = of_num(l);
    let (tr, pr) = of_num(r);
    let t = tl.max(tr);
    if (pl || pr) && t < CalcType::F {
        CalcType::F
    } else {
        t
    }
}

/// Integer division rounded half away from zero (`/` in an integer calculation type).
fn div_round(a: i128, b: i128) -> i128 {
    let q = a / b;
    let r = a % b;
    if 2 * r.abs() >= b.abs() {
        q + a.signum() * b.signum()
    } else {
        q
    }
}

impl<'r> Interp<'r, '_> {
    fn arith_overflow(&self, id: &str) -> Unwind {
        self.dump(id, "Overflow in an arithmetic operation")
    }

    /// Integer calculation type `i` (`wide`: `int8`); every intermediate result must fit.
    pub fn calc_int(&self, n: &Num, wide: bool) -> Exec<i64> {
        let fits = |v: i128| {
            if wide {
                i64::try_from(v).ok()
            } else {
                i32::try_from(v).ok().map(i64::from)
            }
        };
        match n {
            Num::Leaf(Value::I(v)) => Ok(i64::from(*v)),
            Num::Leaf(Value::Int8(v)) => Ok(*v),
            Num::Leaf(v) => {
                let ty = if wide { Type::Int8 } else { Type::I };
                match v.convert(&ty).map_err(|e| self.conv_error(e))? {
                    Value::I(i) => Ok(i64::from(i)),
                    Value::Int8(i) => Ok(i),
                    _ => Err(self.not_supported("operand in an integer calculation")),
                }
            }
            Num::Neg(a) => {
                let a = self.calc_int(a, wide)?;
                fits(-i128::from(a))
                    .ok_or_else(|| self.arith_overflow("COMPUTE_INT_MINUS_OVERFLOW"))
            }
            Num::Bin(op, a, b) => {
                let a = i128::from(self.calc_int(a, wide)?);
                let b = i128::from(self.calc_int(b, wide)?);
                let (r, id) = match op {
                    BinOp::Add => (a + b, "COMPUTE_INT_PLUS_OVERFLOW"),
                    BinOp::Sub => (a - b, "COMPUTE_INT_MINUS_OVERFLOW"),
                    BinOp::Mul => (a * b, "COMPUTE_INT_TIMES_OVERFLOW"),
                    BinOp::Power => {
                        return Err(self.not_supported("** in an integer calculation"));
                    }
                    BinOp::Div | BinOp::IntDiv | BinOp::Mod => {
                        if b == 0 {
                            // ABAP: dividing zero by zero gives zero; anything else dumps.
                            return if a == 0 {
                                Ok(0)
                            } else {
                                Err(self.dump(
                                    "COMPUTE_INT_ZERODIVIDE",
                                    if wide {
                                        "Division by zero (type int8)"
                                    } else {
                                        "Division by zero (type i)"
                                    },
                                ))
                            };
                        }
                        let r = match op {
                            BinOp::Div => div_round(a, b),
                            BinOp::IntDiv => a.div_euclid(b),
                            _ => a.rem_euclid(b),
                        };
                        (r, "COMPUTE_INT_DIV_OVERFLOW")
                    }
                };
                fits(r).ok_or_else(|| self.arith_overflow(id))
            }
        }
    }

    /// Calculation type `f`.
    pub fn calc_f(&self, n: &Num) -> Exec<f64> {
        let r = match n {
            Num::Leaf(v) => return float_value(v).map_err(|e| self.conv_error(e)),
            Num::Neg(a) => -self.calc_f(a)?,
            Num::Bin(op, a, b) => {
                let a = self.calc_f(a)?;
                let b = self.calc_f(b)?;
                let zero_div = || {
                    if a == 0.0 {
                        Ok(0.0)
                    } else {
                        Err(self.dump("COMPUTE_FLOAT_ZERODIVIDE", "Division by zero (type f)"))
                    }
                };
                match op {
                    BinOp::Add => a + b,
                    BinOp::Sub => a - b,
                    BinOp::Mul => a * b,
                    BinOp::Div if b == 0.0 => return zero_div(),
                    BinOp::Div => a / b,
                    BinOp::IntDiv | BinOp::Mod if b == 0.0 => return zero_div(),
                    BinOp::IntDiv => a.div_euclid(b),
                    BinOp::Mod => a.rem_euclid(b),
                    BinOp::Power => {
                        if a == 0.0 && b < 0.0 {
                            return zero_div();
                        }
                        if a < 0.0 && b.fract() != 0.0 {
                            return Err(self.dump(
                                "COMPUTE_POW_DOMAIN",
                                "Invalid argument for the power operator",
                            ));
                        }
                        a.powf(b)
                    }
                }
            }
        };
        if r.is_finite() {
            Ok(r)
        } else {
            Err(self.arith_overflow("COMPUTE_FLOAT_PLUS_OVERFLOW"))
        }
    }

    /// Calculation type `decfloat34`: exact decimals rounded to 34 significant digits.
    pub fn calc_decfloat(&self, n: &Num) -> Exec<Dec> {
        let ov = |_: Overflow| self.arith_overflow("COMPUTE_DECFLOAT_OVERFLOW");
        let round = |d: Dec| round_significant(d, DECFLOAT_DIGITS).map_err(ov);
        match n {
            Num::Leaf(Value::F(f)) => round(abap_data::float::f_to_dec(*f).map_err(ov)?),
            Num::Leaf(v) => {
                let d = match v.convert(&Type::DecFloat34) {
                    Ok(Value::DecFloat(d, _)) => *d,
                    Ok(_) => return Err(self.not_supported("operand in a decfloat calculation")),
                    Err(e) => return Err(self.conv_error(e)),
                };
                Ok(d)
            }
            Num::Neg(a) => self.calc_decfloat(a)?.neg().map_err(ov),
            Num::Bin(op, a, b) => {
                let a = self.calc_decfloat(a)?;
                let b = self.calc_decfloat(b)?;
                let zero_div = || {
                    if a.is_zero() {
                        Ok(Dec::int(0))
                    } else {
                        Err(self.dump(
                            "COMPUTE_DECFLOAT_ZERODIVIDE",
                            "Division by zero (type decfloat34)",
                        ))
                    }
                };
                match op {
                    BinOp::Add => add_significant(a, b, DECFLOAT_DIGITS).map_err(ov),
                    BinOp::Sub => {
                        add_significant(a, b.neg().map_err(ov)?, DECFLOAT_DIGITS).map_err(ov)
                    }
                    BinOp::Mul => mul_significant(a, b, DECFLOAT_DIGITS).map_err(ov),
                    BinOp::Div => match div_significant(a, b, DECFLOAT_DIGITS).map_err(ov)? {
                        Some(d) => Ok(d),
                        None => zero_div(),
                    },
                    BinOp::IntDiv | BinOp::Mod => {
                        if b.is_zero() {
                            return zero_div();
                        }
                        let s = a.scale.max(b.scale);
                        let am = a.rescale(s).map_err(ov)?;
                        let bm = b.rescale(s).map_err(ov)?;
                        if *op == BinOp::IntDiv {
                            Ok(Dec::int(
                                am.checked_div_euclid(bm).ok_or(Overflow).map_err(ov)?,
                            ))
                        } else {
                            let r = am.checked_rem_euclid(bm).ok_or(Overflow).map_err(ov)?;
                            Ok(abap_data::float::strip_zeros(Dec { m: r, scale: s }))
                        }
                    }
                    BinOp::Power => self.decfloat_power(a, b),
                }
            }
        }
    }

    /// `a ** b` in `decfloat34`: exact for whole exponents, else through `f`.
    fn decfloat_power(&self, a: Dec, b: Dec) -> Exec<Dec> {
        let ov = |_: Overflow| self.arith_overflow("COMPUTE_DECFLOAT_OVERFLOW");
        let whole = b.normalize();
        if whole.scale == 0 && whole.m.unsigned_abs() <= 10_000 {
            let mut r = Dec::int(1);
            for _ in 0..whole.m.unsigned_abs() {
                r = mul_significant(r, a, DECFLOAT_DIGITS).map_err(ov)?;
            }
            if whole.m < 0 {
                return match div_significant(Dec::int(1), r, DECFLOAT_DIGITS).map_err(ov)? {
                    Some(d) => Ok(d),
                    None => Err(self.dump(
                        "COMPUTE_DECFLOAT_ZERODIVIDE",
                        "Division by zero (type decfloat34)",
                    )),
                };
            }
            return Ok(r);
        }
        let f = self.calc_f(&Num::Bin(
            BinOp::Power,
            Box::new(Num::Leaf(Value::DecFloat(Box::new(a), 34))),
            Box::new(Num::Leaf(Value::DecFloat(Box::new(b), 34))),
        ))?;
        let d = abap_data::float::f_to_dec(f).map_err(ov)?;
        round_significant(d, DECFLOAT_DIGITS).map_err(ov)
    }
}
