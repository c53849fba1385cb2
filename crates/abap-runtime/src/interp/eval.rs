//! Expression evaluation: operands, string templates, arithmetic with ABAP's calculation type,
//! comparisons and logical expressions.
//!
//! Arithmetic first evaluates every operand (left to right, so method calls run in source
//! order), then picks the calculation type from all operands and the target (`calc.rs`) and
//! only then computes. That is why `i = 7 / 2` is 4 (rounded) while `p = 7 / 2` is 3.5.

use std::cmp::Ordering;

use crate::interp::calc::{CalcType, calc_type, comparison_calc_type};
use crate::interp::shapes::is_arith;
use crate::interp::{Exec, Interp};
use abap_data::conversion::float_value;
use abap_data::number::{Dec, Overflow};
use abap_data::value::{Type, Value};
use abap_syntax::ast::{BinOp, CallExpr, CallTarget, CmpOp, Cond, Expr, ParamKind, TemplateItem};

/// An arithmetic expression with evaluated operands.
pub enum Num {
    Leaf(Value),
    Neg(Box<Num>),
    Bin(BinOp, Box<Num>, Box<Num>),
}

impl Num {
    /// Largest number of decimals of a `p` operand (the result keeps at least that many).
    fn max_decimals(&self) -> u32 {
        match self {
            Num::Leaf(Value::P { dec, .. }) => *dec,
            Num::Leaf(_) => 0,
            Num::Neg(n) => n.max_decimals(),
            Num::Bin(_, a, b) => a.max_decimals().max(b.max_decimals()),
        }
    }
}

impl<'r> Interp<'r, '_> {
    pub fn eval(&mut self, e: &Expr) -> Exec<Value> {
        match e {
            Expr::Lit(v) => Ok(v.clone()),
            Expr::Path(p) => self.read(p),
            Expr::Call(c) => match self.call(c)? {
                Some(v) => Ok(v),
                None => Err(self.not_supported(&format!(
                    "functional call of {} without RETURNING",
                    c.method
                ))),
            },
            Expr::Template(items) => {
                let mut s = String::new();
                for item in items {
                    match item {
                        TemplateItem::Text(t) => s.push_str(t),
                        TemplateItem::Expr(e) => {
                            let v = self.operand(e)?;
                            match v.template_text() {
                                Ok(t) => {
                                    self.room_for_text(s.len().saturating_add(t.len()))?;
                                    s.push_str(&t)
                                }
                                Err(_) => {
                                    return Err(
                                        self.not_supported("reference in a string template")
                                    );
                                }
                            }
                        }
                        TemplateItem::Formatted(e, opts) => {
                            let v = self.operand(e)?;
                            let Ok(t) = v.template_text() else {
                                return Err(self.not_supported("reference in a string template"));
                            };
                            let t = self.format_embedded(&v, t, opts, None)?;
                            self.room_for_text(s.len().saturating_add(t.len()))?;
                            s.push_str(&t);
                        }
                    }
                }
                Ok(Value::Str(s.into()))
            }
            Expr::Neg(_) | Expr::Bin(..) => self.arith(e, None),
            Expr::Concat(a, b) => {
                let a = self.operand(a)?;
                let b = self.operand(b)?;
                let mut s = a.to_abap_string().map_err(|e| self.conv_error(e))?;
                let b = b.to_abap_string().map_err(|e| self.conv_error(e))?;
                self.room_for_text(s.len().saturating_add(b.len()))?;
                s.push_str(&b);
                Ok(Value::Str(s.into()))
            }
            Expr::New { class, args } => self.new_object(class, args, None),
            Expr::Choose { .. } | Expr::Switch { .. } | Expr::Conv { .. } => {
                self.constructed(e, None)
            }
            Expr::Value {
                ty: Some(name),
                body,
            } => {
                let ty = self.type_named(name)?;
                self.value_of(&ty, body)
            }
            Expr::Value { ty: None, .. } => {
                Err(self.not_supported("VALUE # without a known target type"))
            }
            // Found where the row is: only the row (or component) is copied, not the table.
            Expr::Itab { .. } => match self.table_expr_place(e, false)? {
                Some(place) => match self.st.value_at(&place) {
                    Some(v) => Ok(v.clone()),
                    None => Err(self.line_not_found()),
                },
                None => Err(self.line_not_found()),
            },
            Expr::ItabOf { source, sel, comps } => {
                let Value::Table(tt, rows) = self.eval(source)? else {
                    return Err(self.not_supported("a table expression on no table"));
                };
                let i = self.select_row(&tt, &rows, sel)?;
                let Some(mut row) = i.and_then(|i| rows.get(i).cloned()) else {
                    return Err(self.line_not_found());
                };
                for c in comps {
                    row = crate::interp::tables::component(&row, c)
                        .cloned()
                        .ok_or_else(|| {
                            self.not_supported(&format!("component {c} of a table row"))
                        })?;
                }
                Ok(row)
            }
            Expr::Ref { ty, arg } => self.eval_ref(ty.as_deref(), arg),
            Expr::Ctor(c) => self.eval_ctor(c, None),
            Expr::Sub(access) => self.eval_sub(access),
            Expr::Unsupported(what) => Err(self.not_supported(what)),
        }
    }

    /// `COND`/`SWITCH`/`CONV`: the chosen operand converted to the expression's type — the
    /// written type, else (`#`) `target` (the assignment's target), else the operand's own.
    /// With no matching `WHEN` and no `ELSE`, the initial value of that type (without a type
    /// to go by: of the first `THEN` operand when it is a literal or a variable).
    pub fn constructed(&mut self, e: &Expr, target: Option<&Type>) -> Exec<Value> {
        if let Expr::Ctor(c) = e {
            return self.eval_ctor(c, target);
        }
        if let Expr::Value { ty, body } = e {
            let t = match (ty, target) {
                (Some(name), _) => self.type_named(name)?,
                (None, Some(t)) if *t != Type::Any => t.clone(),
                (None, _) => return Err(self.not_supported("VALUE # without a known target type")),
            };
            return self.value_of(&t, body);
        }
        let (ty, chosen, first) = match e {
            Expr::Conv { ty, arg } => (ty, Some(&**arg), None),
            Expr::Choose {
                ty,
                branches,
                otherwise,
            } => {
                let mut chosen = None;
                for (c, x) in branches {
                    if self.cond(c)? {
                        chosen = Some(x);
                        break;
                    }
                }
                (
                    ty,
                    chosen.or(otherwise.as_deref()),
                    branches.first().map(|b| &b.1),
                )
            }
            Expr::Switch {
                ty,
                subject,
                whens,
                otherwise,
            } => {
                let subject = self.operand(subject)?;
                let mut chosen = None;
                for (w, x) in whens {
                    let w = self.operand(w)?;
                    if self.compare(&subject, &w)? == Ordering::Equal {
                        chosen = Some(x);
                        break;
                    }
                }
                (
                    ty,
                    chosen.or(otherwise.as_deref()),
                    whens.first().map(|w| &w.1),
                )
            }
            other => return self.eval(other),
        };
        let declared = match ty {
            Some(Type::Named(name)) => Some(self.type_named(name)?),
            other => other.clone(),
        };
        let mut ty = declared
            .as_ref()
            .or(target)
            .filter(|t| **t != Type::Any)
            .cloned();
        // ABAP documentation (COND, SWITCH): with `#` where the operand position fixes no
        // type (an inline declaration, a string template), the type is the one of the operand
        // after the first THEN; every chosen operand is converted to it.
        let own_type = ty.is_none() && !std::ptr::eq(chosen.unwrap_or(e), first.unwrap_or(e));
        if own_type {
            let Some(first) = first else {
                return Err(self.not_supported("COND/SWITCH # without a THEN"));
            };
            match self.static_type(first)? {
                Some(t) => ty = Some(t),
                None => {
                    return Err(self.not_supported(
                        "COND/SWITCH # whose type comes from a first THEN operand other than a \
                         literal, a data object, a template, a typed constructor expression, a \
                         call of a method or string function, or a calculation of literals and \
                         data objects in i, int8, f or decfloat34",
                    ));
                }
            }
        }
        match chosen {
            Some(x) => {
                let v = match (&ty, x) {
                    (Some(t), Expr::New { class, args }) if class == "#" => {
                        self.new_object(class, args, Some(t))?
                    }
                    (Some(t), x) if crate::interp::constructors::typeless(x) => {
                        self.constructed(x, Some(t))?
                    }
                    _ => self.operand(x)?,
                };
                match &ty {
                    Some(t) => v.convert(t).map_err(|e| self.conv_error(e)),
                    None => Ok(v),
                }
            }
            None => match ty {
                Some(t) => Ok(t.initial()),
                None => Err(self.not_supported("COND/SWITCH # without a type")),
            },
        }
    }

    /// The type an operand has without running it: a literal's, a data object's as declared,
    /// a template's (`string`), a constructor expression's when it names its type. `None`
    /// for other operands (calls, calculations), whose type only running them would tell.
    fn static_type(&mut self, e: &Expr) -> Exec<Option<Type>> {
        Ok(match e {
            Expr::Lit(v) => Some(v.type_of()),
            Expr::Template(_) | Expr::Concat(..) => Some(Type::String),
            Expr::Path(p) => {
                self.prepare_path(p)?;
                match self.st.place(self.top(), p) {
                    Some(place) => self.place_type(&place),
                    None => Some(self.read(p)?.type_of()),
                }
            }
            Expr::Conv { ty: Some(t), .. }
            | Expr::Choose { ty: Some(t), .. }
            | Expr::Switch { ty: Some(t), .. } => Some(match t {
                Type::Named(name) => self.type_named(name)?,
                other => other.clone(),
            }),
            Expr::Value { ty: Some(name), .. } => Some(self.type_named(name)?),
            Expr::Call(call) => self.static_call_type(call)?,
            // `itab[ … ]-comp`: the line type of the table as declared, then its components.
            Expr::Itab { table, comps, .. } => {
                match self.static_type(&Expr::Path(table.clone()))? {
                    Some(Type::Table(tt)) => {
                        let mut ty = tt.line.clone();
                        for c in comps {
                            ty = match &ty {
                                Type::Struct(st) => match st.index_of(c) {
                                    Some(i) => st.comps[i].1.clone(),
                                    None => return Ok(None),
                                },
                                _ => return Ok(None),
                            };
                        }
                        Some(ty)
                    }
                    _ => None,
                }
            }
            // A calculation of literals and data objects: its calculation type, when that
            // fixes the result's type (`p` takes its decimals from the values).
            Expr::Bin(..) | Expr::Neg(_) => match self.static_num(e)? {
                Some(num) => match calc_type(&num, None) {
                    CalcType::I => Some(Type::I),
                    CalcType::Int8 => Some(Type::Int8),
                    CalcType::F => Some(Type::F),
                    CalcType::DecFloat => Some(Type::DecFloat34),
                    CalcType::P => None,
                },
                None => None,
            },
            _ => None,
        })
    }

    /// The type of a call's result without making the call: the RETURNING parameter's of a
    /// method of the running class or of a named class, the result type of a built-in
    /// function that has one (`i` of `strlen( )`, `string` of `to_upper( )`, as the ABAP
    /// documentation of each function gives it). `None` for other calls.
    fn static_call_type(&mut self, call: &CallExpr) -> Exec<Option<Type>> {
        let class = match &call.target {
            CallTarget::Implicit => match self.st.frames.last() {
                Some(frame) => frame.class,
                None => return Ok(None),
            },
            CallTarget::Class(name) => self.class(name)?,
            _ => return Ok(None),
        };
        if self.resolve_method(class, &call.method).is_none() {
            return Ok(match &call.target {
                CallTarget::Implicit => builtin_result_type(&call.method),
                _ => None,
            });
        }
        let decl = self.method_decl(class, &call.method);
        let Some(Ok(ty)) = decl
            .params
            .iter()
            .find(|p| p.kind == ParamKind::Returning)
            .map(|p| p.ty.clone())
        else {
            return Ok(None);
        };
        let ty = self.resolve_type(class, None, &ty, &[])?;
        Ok(Some(ty).filter(|t| *t != Type::Any))
    }

    /// An arithmetic expression with the initial values of its operands' types in place of
    /// their values; `None` when an operand is neither a literal nor a data object.
    fn static_num(&mut self, e: &Expr) -> Exec<Option<Num>> {
        Ok(match e {
            Expr::Bin(op, a, b) => match (self.static_num(a)?, self.static_num(b)?) {
                (Some(a), Some(b)) => Some(Num::Bin(*op, Box::new(a), Box::new(b))),
                _ => None,
            },
            Expr::Neg(a) => self.static_num(a)?.map(|a| Num::Neg(Box::new(a))),
            Expr::Lit(_) | Expr::Path(_) => self.static_type(e)?.map(|t| Num::Leaf(t.initial())),
            _ => None,
        })
    }

    /// An operand position: arithmetic without a target, else a plain value.
    pub(crate) fn operand(&mut self, e: &Expr) -> Exec<Value> {
        if is_arith(e) {
            self.arith(e, None)
        } else {
            self.eval(e)
        }
    }

    fn collect(&mut self, e: &Expr) -> Exec<Num> {
        Ok(match e {
            Expr::Bin(op, a, b) => {
                let a = self.collect(a)?;
                let b = self.collect(b)?;
                Num::Bin(*op, Box::new(a), Box::new(b))
            }
            Expr::Neg(a) => Num::Neg(Box::new(self.collect(a)?)),
            other => Num::Leaf(self.eval(other)?),
        })
    }

    /// Evaluates an arithmetic expression; `target` (the assigned field) takes part in choosing
    /// the calculation type.
    pub fn arith(&mut self, e: &Expr, target: Option<&Type>) -> Exec<Value> {
        let num = self.collect(e)?;
        let calc = calc_type(&num, target);
        self.compute(&num, calc, target.is_none())
    }

    /// The operands of a comparison: arithmetic expressions on either side are calculated in
    /// one calculation type taken from all operands of the comparison.
    fn compared_operands(&mut self, l: &Expr, r: &Expr) -> Exec<(Value, Value)> {
        let ln = self.collect(l)?;
        let rn = self.collect(r)?;
        let calc = comparison_calc_type(&ln, &rn);
        let value = |this: &mut Self, e: &Expr, n: Num| match n {
            Num::Leaf(v) if !is_arith(e) => Ok(v),
            n => this.compute(&n, calc, true),
        };
        let l = value(self, l, ln)?;
        let r = value(self, r, rn)?;
        Ok((l, r))
    }

    /// Calculates `num` in the calculation type `calc`; `keep_decimals`: a `p` result keeps at
    /// least the decimals of its `p` operands (no target field decides them).
    fn compute(&mut self, num: &Num, calc: CalcType, keep_decimals: bool) -> Exec<Value> {
        let target_given = !keep_decimals;
        match calc {
            CalcType::I => {
                let v = self.calc_int(num, false)?;
                return Ok(Value::I(i32::try_from(v).unwrap_or_default()));
            }
            CalcType::Int8 => return self.calc_int(num, true).map(Value::Int8),
            CalcType::F => return self.calc_f(num).map(Value::F),
            CalcType::DecFloat => {
                return self
                    .calc_decfloat(num)
                    .map(|d| Value::DecFloat(Box::new(d), 34));
            }
            CalcType::P => {}
        }
        let d = self.calc_p(num)?;
        let keep = num.max_decimals();
        let d = if !target_given && d.scale < keep {
            Dec {
                m: d.rescale(keep).map_err(|_| self.bcd_overflow())?,
                scale: keep,
            }
        } else {
            d
        };
        Ok(Value::P {
            m: d.m.into(),
            len: 16,
            dec: d.scale,
        })
    }

    fn bcd_overflow(&self) -> crate::interp::Unwind {
        self.dump(
            "COMPUTE_BCD_OVERFLOW",
            "Overflow in a calculation with packed numbers",
        )
    }

    fn calc_p(&self, n: &Num) -> Exec<Dec> {
        let ov = |_: Overflow| self.bcd_overflow();
        match n {
            Num::Leaf(v) => v.to_dec().map_err(|e| self.conv_error(e)),
            Num::Neg(a) => self.calc_p(a)?.neg().map_err(ov),
            Num::Bin(op, a, b) => {
                let a = self.calc_p(a)?;
                let b = self.calc_p(b)?;
                let zero_div = || {
                    if a.is_zero() {
                        Ok(Dec::int(0))
                    } else {
                        Err(self.dump("COMPUTE_BCD_ZERODIVIDE", "Division by zero (type p)"))
                    }
                };
                match op {
                    BinOp::Power => Err(self.not_supported("** in a packed calculation")),
                    BinOp::Add => a.add(b).map_err(ov),
                    BinOp::Sub => a.sub(b).map_err(ov),
                    BinOp::Mul => a.mul(b).map_err(ov),
                    BinOp::Div => match a.div(b).map_err(ov)? {
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
                            let q = am
                                .checked_div_euclid(bm)
                                .ok_or_else(|| self.bcd_overflow())?;
                            Ok(Dec::int(q))
                        } else {
                            let r = am
                                .checked_rem_euclid(bm)
                                .ok_or_else(|| self.bcd_overflow())?;
                            Ok(Dec { m: r, scale: s }.normalize())
                        }
                    }
                }
            }
        }
    }

    /// ABAP comparison: numeric if either side is a number, else character-wise (trailing
    /// blanks of `c` fields do not count); references by identity.
    pub fn compare(&self, a: &Value, b: &Value) -> Exec<Ordering> {
        let parts = match (a, b) {
            (Value::Struct(_, x), Value::Struct(_, y)) => Some((&x[..], &y[..])),
            (Value::Table(_, x), Value::Table(_, y)) => Some((&x[..], &y[..])),
            _ => None,
        };
        if let Some((x, y)) = parts {
            if matches!(a, Value::Table(..)) && x.len() != y.len() {
                return Ok(x.len().cmp(&y.len()));
            }
            for (p, q) in x.iter().zip(y) {
                let o = self.compare(p, q)?;
                if o != Ordering::Equal {
                    return Ok(o);
                }
            }
            return Ok(x.len().cmp(&y.len()));
        }
        match (a, b) {
            (Value::Struct(..) | Value::Table(..), _)
            | (_, Value::Struct(..) | Value::Table(..)) => {
                Err(self
                    .not_supported("comparison of a structure or table with another kind of data"))
            }
            (Value::Ref { target: x, .. }, Value::Ref { target: y, .. }) => Ok(x.cmp(y)),
            // Any total order will do for sorting; equal targets compare equal.
            (Value::DataRef(x), Value::DataRef(y)) => {
                Ok(format!("{:?}", x.target).cmp(&format!("{:?}", y.target)))
            }
            (Value::DataRef(_), _) | (_, Value::DataRef(_)) => {
                Err(self.not_supported("comparison of a data reference with other data"))
            }
            (Value::Ref { .. }, _) | (_, Value::Ref { .. }) => {
                Err(self.not_supported("comparison of a reference with data"))
            }
            (Value::I(x), Value::I(y)) => Ok(x.cmp(y)),
            (Value::F(_), _) | (_, Value::F(_)) => {
                let x = float_value(a).map_err(|e| self.conv_error(e))?;
                let y = float_value(b).map_err(|e| self.conv_error(e))?;
                Ok(x.partial_cmp(&y).unwrap_or(Ordering::Equal))
            }
            (Value::I(_) | Value::P { .. } | Value::Int8(_) | Value::DecFloat(..), _)
            | (_, Value::I(_) | Value::P { .. } | Value::Int8(_) | Value::DecFloat(..)) => {
                let x = a.to_dec().map_err(|e| self.conv_error(e))?;
                let y = b.to_dec().map_err(|e| self.conv_error(e))?;
                Ok(x.cmp(&y))
            }
            // Numeric text against text: as numbers when both are numbers.
            (Value::N(_), Value::C(_) | Value::Str(_) | Value::N(_))
            | (Value::C(_) | Value::Str(_), Value::N(_))
                if a.to_dec().is_ok() && b.to_dec().is_ok() =>
            {
                let x = a.to_dec().map_err(|e| self.conv_error(e))?;
                let y = b.to_dec().map_err(|e| self.conv_error(e))?;
                Ok(x.cmp(&y))
            }
            (Value::X(x) | Value::XStr(x), Value::X(y) | Value::XStr(y)) => {
                // The shorter operand counts as padded with zero bytes.
                let n = x.len().max(y.len());
                let pad = |v: &[u8]| {
                    let mut v = v.to_vec();
                    v.resize(n, 0);
                    v
                };
                Ok(pad(x).cmp(&pad(y)))
            }
            _ => {
                let text = |v: &Value| -> String {
                    match v {
                        Value::C(s) | Value::N(s) | Value::D(s) | Value::T(s) => {
                            s.trim_end_matches(' ').to_string()
                        }
                        Value::Str(s) => s.to_string(),
                        Value::X(b) | Value::XStr(b) => abap_data::conversion::hex_text(b),
                        _ => String::new(),
                    }
                };
                Ok(text(a).cmp(&text(b)))
            }
        }
    }

    pub fn cond(&mut self, c: &Cond) -> Exec<bool> {
        match c {
            Cond::Cmp(op, l, r) => {
                let (l, r) = if is_arith(l) || is_arith(r) {
                    self.compared_operands(l, r)?
                } else {
                    (self.operand(l)?, self.operand(r)?)
                };
                let o = self.compare(&l, &r)?;
                Ok(match op {
                    CmpOp::Eq => o == Ordering::Equal,
                    CmpOp::Ne => o != Ordering::Equal,
                    CmpOp::Lt => o == Ordering::Less,
                    CmpOp::Gt => o == Ordering::Greater,
                    CmpOp::Le => o != Ordering::Greater,
                    CmpOp::Ge => o != Ordering::Less,
                })
            }
            Cond::IsInitial(e) => Ok(self.operand(e)?.is_initial()),
            Cond::IsAssigned(e) => self.is_assigned(e),
            Cond::In(x, r) => {
                let x = self.operand(x)?;
                let r = self.range_operand(r)?;
                self.in_range(&x, &r)
            }
            Cond::IsSupplied(name) => self.is_supplied(name),
            Cond::IsInstanceOf(e, class) => self.is_instance_of(e, class),
            Cond::IsBound(e) => match self.operand(e)? {
                Value::Ref { target, .. } => Ok(target.is_some()),
                Value::DataRef(r) => Ok(self.data_ref_bound(&r)),
                _ => Err(self.not_supported("IS BOUND on data")),
            },
            Cond::Between(x, low, high) => {
                let x = self.operand(x)?;
                let low = self.operand(low)?;
                let high = self.operand(high)?;
                Ok(self.compare(&x, &low)? != Ordering::Less
                    && self.compare(&x, &high)? != Ordering::Greater)
            }
            Cond::Text(op, l, r) => self.text_compare(*op, l, r),
            Cond::Bits(op, l, r) => self.bit_compare(*op, l, r),
            Cond::Not(c) => Ok(!self.cond(c)?),
            Cond::And(a, b) => Ok(self.cond(a)? && self.cond(b)?),
            Cond::Or(a, b) => Ok(self.cond(a)? || self.cond(b)?),
            Cond::Equiv(a, b) => Ok(self.cond(a)? == self.cond(b)?),
            Cond::Dynamic(_) => Err(self.not_supported("a dynamic condition outside WHERE")),
            Cond::Unsupported(what) => Err(self.not_supported(what)),
        }
    }
}

/// The result type of a built-in function whose result type does not depend on its
/// arguments: `i` for the length and search functions, `string` for the functions that
/// build a text (ABAP documentation of the string functions).
fn builtin_result_type(name: &str) -> Option<Type> {
    Some(match name {
        "STRLEN" | "NUMOFCHAR" | "XSTRLEN" | "LINES" | "LINE_INDEX" | "FIND" | "FIND_END"
        | "FIND_ANY_OF" | "FIND_ANY_NOT_OF" | "COUNT" | "COUNT_ANY_OF" | "COUNT_ANY_NOT_OF"
        | "DISTANCE" => Type::I,
        "TO_UPPER" | "TO_LOWER" | "TO_MIXED" | "FROM_MIXED" | "CONDENSE" | "SUBSTRING"
        | "SUBSTRING_AFTER" | "SUBSTRING_BEFORE" | "SUBSTRING_FROM" | "SUBSTRING_TO"
        | "REPLACE" | "SHIFT_LEFT" | "SHIFT_RIGHT" | "REPEAT" | "REVERSE" | "SEGMENT"
        | "ESCAPE" | "CONCAT_LINES_OF" | "TRANSLATE" | "INSERT" | "CMAX" | "CMIN" | "MATCH" => {
            Type::String
        }
        _ => return None,
    })
}
