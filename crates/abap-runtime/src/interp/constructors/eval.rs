//! Evaluation of the constructor expressions: the dispatch over `Ctor`, the `FOR`
//! iterations, `VALUE` with `BASE`/`FOR`/`LINES OF`, `REDUCE`, `FILTER`, and actual
//! parameters that are constructor expressions with `#`.

use std::cmp::Ordering;

use super::scope::Scope;
use super::{Ctor, For, ForKind, Init, Row};
use crate::interp::{Exec, Interp};
use abap_data::value::{Type, Value};
use abap_syntax::ast::{BinOp, Cond, Expr, Path};

/// `c1 = f1 AND c2 = f2 …` of `FILTER … IN ftab`: the component pairs.
fn filter_pairs(c: &Cond) -> Option<Vec<(String, String)>> {
    let name = |e: &Expr| match e {
        Expr::Path(p) => Some(p.text()),
        _ => None,
    };
    match c {
        Cond::Cmp(abap_syntax::ast::CmpOp::Eq, l, r) => Some(vec![(name(l)?, name(r)?)]),
        Cond::And(a, b) => {
            let mut v = filter_pairs(a)?;
            v.extend(filter_pairs(b)?);
            Some(v)
        }
        _ => None,
    }
}

/// A constructor expression with `#` (its type comes from where it is used).
pub(crate) fn typeless(e: &Expr) -> bool {
    match e {
        Expr::Value { ty: None, .. }
        | Expr::Conv { ty: None, .. }
        | Expr::Choose { ty: None, .. }
        | Expr::Switch { ty: None, .. } => true,
        Expr::New { class, .. } => class == "#",
        Expr::Ctor(c) => match &**c {
            Ctor::Value { ty, .. }
            | Ctor::Reduce { ty, .. }
            | Ctor::Corresponding { ty, .. }
            | Ctor::Cast { ty, .. }
            | Ctor::Filter { ty, .. } => ty.is_none(),
            Ctor::Let { inner, .. } => typeless(inner),
            Ctor::MoveCorresponding { .. }
            | Ctor::Attr { .. }
            | Ctor::Comps { .. }
            | Ctor::Bool { .. }
            | Ctor::Bits(..)
            | Ctor::BitNot(_)
            | Ctor::Optional { .. }
            | Ctor::Throw(_) => false,
        },
        _ => false,
    }
}

impl<'r> Interp<'r, '_> {
    pub fn eval_ctor(&mut self, c: &Ctor, target: Option<&Type>) -> Exec<Value> {
        let Some(frame) = self.st.frames.last() else {
            return Err(self.not_supported("constructor expression outside a procedure"));
        };
        let mut scope = Scope {
            vars_len: frame.vars.len(),
            shadowed: Vec::new(),
            field_symbols: Vec::new(),
        };
        let r = self.ctor_in_scope(c, target, &mut scope);
        self.end_scope(scope);
        r
    }

    fn ctor_in_scope(&mut self, c: &Ctor, target: Option<&Type>, scope: &mut Scope) -> Exec<Value> {
        match c {
            Ctor::Value {
                ty,
                lets,
                base,
                fors,
                fields,
                rows,
            } => {
                let t = self.ctor_type(ty.as_deref(), target, "VALUE")?;
                self.bind_lets(lets, scope)?;
                self.value_full(&t, base.as_ref(), fors, fields, rows, scope)
            }
            Ctor::Reduce {
                ty,
                lets,
                init,
                fors,
                next,
            } => {
                let t = match (ty, target) {
                    (Some(_), _) => Some(self.ctor_type(ty.as_deref(), target, "REDUCE")?),
                    (None, Some(t)) if *t != Type::Any => Some(t.clone()),
                    _ => None,
                };
                self.bind_lets(lets, scope)?;
                self.reduce(t.as_ref(), init, fors, next, scope)
            }
            Ctor::Corresponding {
                ty,
                base,
                src,
                mapping,
                except,
            } => {
                let t = self.ctor_type(ty.as_deref(), target, "CORRESPONDING")?;
                let src = self.eval(src)?;
                let start = match base {
                    Some(b) => self.eval_typed(b, &t)?,
                    None => t.initial(),
                };
                self.corresponding(start, &src, mapping, except)
            }
            Ctor::Cast { ty, arg } => {
                let t = match (ty, target) {
                    (Some(name), _) => match self.type_named(name) {
                        Ok(t) => t,
                        Err(_) => Type::Ref(name.clone()),
                    },
                    (None, Some(t)) => t.clone(),
                    (None, None) => {
                        return Err(self.not_supported("CAST # without a known target type"));
                    }
                };
                let v = self.eval(arg)?;
                self.cast(v, &t)
            }
            Ctor::Filter {
                ty,
                src,
                except,
                ftab,
                cond,
            } => {
                let src = self.eval(src)?;
                let t = match (ty, target) {
                    (None, None) | (None, Some(Type::Any)) => src.type_of(),
                    _ => self.ctor_type(ty.as_deref(), target, "FILTER")?,
                };
                let ftab = match ftab {
                    Some(f) => Some(self.eval(f)?),
                    None => None,
                };
                self.filter(&t, src, *except, ftab.as_ref(), cond)
            }
            Ctor::Bits(..) | Ctor::BitNot(_) => self.eval_bits(c),
            Ctor::Throw(exception) => {
                self.exec_raise(exception)?;
                Err(self.not_supported("THROW without an exception"))
            }
            Ctor::Optional { ty, row, default } => {
                let Expr::Itab { table, sel, comps } = row else {
                    return Err(self.not_supported("VALUE … OPTIONAL of no table expression"));
                };
                let row_type = self.table_row_type(table, comps)?;
                let v = match self.table_expr_row(table, sel)? {
                    Some(mut r) => {
                        for c in comps {
                            r = crate::interp::tables::component(&r, c)
                                .cloned()
                                .ok_or_else(|| self.not_supported(&format!("component {c}")))?;
                        }
                        r
                    }
                    None => match default {
                        Some(d) => self.eval_typed(d, &row_type)?,
                        None => row_type.initial(),
                    },
                };
                match ty {
                    Some(_) => {
                        let t = self.ctor_type(ty.as_deref(), target, "VALUE")?;
                        v.convert(&t).map_err(|e| self.move_error(e, &v, &t))
                    }
                    None => Ok(v),
                }
            }
            Ctor::Bool { string, cond } => {
                let text = if self.cond(cond)? { "X" } else { " " };
                Ok(if *string {
                    Value::Str(text.into())
                } else {
                    Value::C(text.into())
                })
            }
            Ctor::Attr { obj, attr, comps } => {
                let Value::Ref { target, .. } = self.eval(obj)? else {
                    return Err(self.not_supported("attribute of a non-reference"));
                };
                let Some(id) = target else {
                    return Err(self.dump(
                        "OBJECTS_OBJREF_NOT_ASSIGNED",
                        "Access via 'NULL' object reference not possible",
                    ));
                };
                let Some(mut v) = self.st.attr_value(id, attr) else {
                    return Err(self.not_supported(&format!("unknown attribute {attr}")));
                };
                for c in comps {
                    let Some(x) = crate::interp::tables::component(&v, c).cloned() else {
                        return Err(self.not_supported(&format!("component {c}")));
                    };
                    v = x;
                }
                Ok(v)
            }
            Ctor::Comps { base, comps } => {
                let mut v = self.eval(base)?;
                for c in comps {
                    let Some(x) = crate::interp::tables::component(&v, c) else {
                        return Err(self.not_supported(&format!("component {c} of a result")));
                    };
                    v = x.clone();
                }
                Ok(v)
            }
            Ctor::Let { lets, inner } => {
                self.bind_lets(lets, scope)?;
                self.constructed(inner, target)
            }
            Ctor::MoveCorresponding {
                src,
                dst,
                keep_lines,
            } => {
                let src = self.eval(src)?;
                let current = self.read(dst)?;
                let start = match current {
                    Value::Table(tt, rows) => Value::Table(
                        tt,
                        if *keep_lines {
                            rows
                        } else {
                            Default::default()
                        },
                    ),
                    other => other,
                };
                self.corresponding(start, &src, &[], &[])
            }
        }
    }

    /// The type of the rows of `table`, or of their component `comps`.
    fn table_row_type(&mut self, table: &Path, comps: &[String]) -> Exec<Type> {
        let Value::Table(tt, _) = self.read(table)? else {
            return Err(self.not_supported(&format!("{} is not an internal table", table.text())));
        };
        let mut t = tt.line.clone();
        for c in comps {
            t = match &t {
                Type::Struct(st) => st
                    .comps
                    .iter()
                    .find(|(n, _)| n == c)
                    .map(|(_, ct)| ct.clone())
                    .ok_or_else(|| self.not_supported(&format!("component {c}")))?,
                _ => return Err(self.not_supported(&format!("component {c} of a row"))),
            };
        }
        Ok(t)
    }

    /// The type a constructor builds: the written type, else the target's.
    fn ctor_type(&self, ty: Option<&str>, target: Option<&Type>, kind: &str) -> Exec<Type> {
        match (ty, target) {
            (Some(name), _) => match abap_data::value::named_type(name) {
                Some(t) => Ok(t),
                None => self.type_named(name),
            },
            (None, Some(t)) if *t != Type::Any => Ok(t.clone()),
            (None, _) => Err(self.not_supported(&format!("{kind} # without a known target type"))),
        }
    }

    /// An operand: arithmetic in its own calculation type, else the plain value.
    pub(super) fn operand_value(&mut self, e: &Expr) -> Exec<Value> {
        if crate::interp::shapes::is_arith(e) {
            self.arith(e, None)
        } else {
            self.eval(e)
        }
    }

    /// Runs the iterations `fors[k..]`, calling `body` in the innermost one.
    fn iterate(
        &mut self,
        fors: &[For],
        scope: &mut Scope,
        body: &mut dyn FnMut(&mut Self, &mut Scope) -> Exec<()>,
    ) -> Exec<()> {
        let Some((first, rest)) = fors.split_first() else {
            return body(self, scope);
        };
        match &first.kind {
            ForKind::In {
                table,
                index_into,
                cond,
            } => {
                let Value::Table(_, rows) = self.eval(table)? else {
                    return Err(self.not_supported("FOR … IN a non-table"));
                };
                for (i, row) in rows.into_iter().enumerate() {
                    self.tick()?;
                    if let Some(c) = cond
                        && !self.where_match(c, &row)?
                    {
                        continue;
                    }
                    self.bind_helper(&first.var, row, scope)?;
                    if let Some(ix) = index_into {
                        self.bind_helper(
                            ix,
                            Value::I(crate::interp::tables::as_i32(i + 1)),
                            scope,
                        )?;
                    }
                    self.bind_lets(&first.lets, scope)?;
                    self.iterate(rest, scope, body)?;
                }
            }
            ForKind::Groups {
                row,
                table,
                cond,
                key,
                descending,
            } => {
                let Value::Table(tt, rows) = self.eval(table)? else {
                    return Err(self.not_supported("FOR GROUPS … IN a non-table"));
                };
                let mut groups: Vec<(Vec<Value>, Vec<Value>)> = Vec::new();
                for r in *rows {
                    self.tick()?;
                    self.bind_helper(row, r.clone(), scope)?;
                    if let Some(c) = cond
                        && !self.where_match(c, &r)?
                    {
                        continue;
                    }
                    let k = match key {
                        abap_syntax::ast::GroupKey::Single(e) => vec![self.operand_value(e)?],
                        abap_syntax::ast::GroupKey::Fields(parts) => {
                            let mut k = Vec::new();
                            for (_, p) in parts {
                                if let abap_syntax::ast::KeyPart::Expr(e) = p {
                                    k.push(self.operand_value(e)?);
                                }
                            }
                            k
                        }
                    };
                    match groups.iter_mut().find(|(gk, _)| *gk == k) {
                        Some((_, members)) => members.push(r),
                        None => groups.push((k, vec![r])),
                    }
                }
                if let Some(desc) = descending {
                    let mut err = None;
                    groups.sort_by(|a, b| {
                        for (x, y) in a.0.iter().zip(&b.0) {
                            match self.compare(x, y) {
                                Ok(Ordering::Equal) => {}
                                Ok(o) => return if *desc { o.reverse() } else { o },
                                Err(e) => {
                                    err.get_or_insert(e);
                                    return Ordering::Equal;
                                }
                            }
                        }
                        Ordering::Equal
                    });
                    if let Some(e) = err {
                        return Err(e);
                    }
                }
                let members_ty = crate::interp::groups::members_type(&tt.line);
                for (gi, (k, members)) in groups.into_iter().enumerate() {
                    self.tick()?;
                    let size = members.len();
                    let value = crate::interp::groups::group_key_value(key, &k, size, gi);
                    self.bind_helper(&first.var, value, scope)?;
                    self.bind_helper(
                        &abap_syntax::parser::group_key::members_var(&first.var),
                        Value::Table(members_ty.clone(), members.into()),
                        scope,
                    )?;
                    self.bind_lets(&first.lets, scope)?;
                    self.iterate(rest, scope, body)?;
                }
            }
            ForKind::Iter {
                start,
                then,
                until,
                cond,
            } => {
                let v = self.operand_value(start)?;
                let ty = v.type_of();
                self.bind_helper(&first.var, v, scope)?;
                let var = Path {
                    base: first.var.clone(),
                    rest: Vec::new(),
                };
                let mut pass = 0usize;
                loop {
                    self.tick()?;
                    if (!*until || pass > 0) && self.cond(cond)? == *until {
                        break;
                    }
                    pass += 1;
                    self.bind_lets(&first.lets, scope)?;
                    self.iterate(rest, scope, body)?;
                    let next = match then {
                        Some(e) => self.eval_typed(e, &ty)?,
                        None => {
                            let e = Expr::Bin(
                                BinOp::Add,
                                Box::new(Expr::Path(var.clone())),
                                Box::new(Expr::Lit(Value::I(1))),
                            );
                            self.eval_typed(&e, &ty)?
                        }
                    };
                    self.assign_value(&var, next)?;
                }
            }
        }
        Ok(())
    }

    fn value_full(
        &mut self,
        t: &Type,
        base: Option<&Expr>,
        fors: &[For],
        fields: &[(String, Expr)],
        rows: &[Row],
        scope: &mut Scope,
    ) -> Exec<Value> {
        let start = match base {
            Some(b) => self.eval_typed(b, t)?,
            None => t.initial(),
        };
        match start {
            Value::Struct(st, mut comps) => {
                if !rows.is_empty() || !fors.is_empty() {
                    return Err(self.not_supported("table rows in VALUE for a structure"));
                }
                for (name, e) in fields {
                    let Some(i) = st.index_of(name) else {
                        return Err(self.not_supported(&format!("component {name} in VALUE")));
                    };
                    let cty = st.comps.get(i).map(|c| c.1.clone()).unwrap_or(Type::Any);
                    let v = self.eval_typed(e, &cty)?;
                    if let Some(slot) = comps.get_mut(i) {
                        *slot = v;
                    }
                }
                Ok(Value::Struct(st, comps))
            }
            Value::Table(tt, mut out) => {
                if !fields.is_empty() {
                    return Err(self.not_supported("VALUE with components for a table"));
                }
                let line = tt.line.clone();
                let tt2 = tt.clone();
                let mut emit = |it: &mut Self, _: &mut Scope| -> Exec<()> {
                    for r in rows {
                        let new_rows = match r {
                            Row::Line(e) => vec![it.eval_typed(e, &line)?],
                            Row::Fields(f) => {
                                let b = abap_syntax::ast::ValueBody {
                                    fields: f.clone(),
                                    rows: Vec::new(),
                                };
                                vec![it.value_of(&line, &b)?]
                            }
                            Row::Lines { src, from, to } => {
                                let src = it.row_range(src, from.as_ref(), to.as_ref())?;
                                let mut conv = Vec::with_capacity(src.len());
                                for s in src {
                                    conv.push(
                                        s.convert(&line)
                                            .map_err(|e| it.move_error(e, &s, &line))?,
                                    );
                                }
                                conv
                            }
                        };
                        for row in new_rows {
                            it.tick()?;
                            if it.insert_by_key(&tt2, &mut out, row)?.is_none() {
                                return Err(it.dump(
                                    "ITAB_DUPLICATE_KEY",
                                    "A row with the same unique key already exists",
                                ));
                            }
                        }
                    }
                    Ok(())
                };
                self.iterate(fors, scope, &mut emit)?;
                Ok(Value::Table(tt, out))
            }
            other => {
                if fields.is_empty() && rows.is_empty() && fors.is_empty() {
                    Ok(other)
                } else {
                    Err(self.not_supported("VALUE with components for an elementary type"))
                }
            }
        }
    }

    fn reduce(
        &mut self,
        t: Option<&Type>,
        init: &[Init],
        fors: &[For],
        next: &[(Path, String, Expr)],
        scope: &mut Scope,
    ) -> Exec<Value> {
        for i in init {
            let v = match (&i.ty, &i.value) {
                (Some(tn), _) => self.ctor_type(Some(tn), None, "INIT")?.initial(),
                (None, Some(e)) => self.operand_value(e)?,
                (None, None) => return Err(self.not_supported("INIT without a value")),
            };
            self.bind_helper(&i.name, v, scope)?;
        }
        let mut step = |it: &mut Self, _: &mut Scope| -> Exec<()> {
            for (target, op, e) in next {
                let ty = it.target_type_of(target)?;
                let v = match op.as_str() {
                    "=" => it.eval_typed(e, &ty)?,
                    "&&=" => {
                        let cur = it.read(target)?;
                        let add = it.operand_value(e)?;
                        let mut s = cur.to_abap_string().map_err(|e| it.conv_error(e))?;
                        s.push_str(&add.to_abap_string().map_err(|e| it.conv_error(e))?);
                        Value::Str(s.into())
                    }
                    other => {
                        let bin = match other {
                            "+=" => BinOp::Add,
                            "-=" => BinOp::Sub,
                            "*=" => BinOp::Mul,
                            _ => BinOp::Div,
                        };
                        let cur = Expr::Lit(it.read(target)?);
                        let e = Expr::Bin(bin, Box::new(cur), Box::new(e.clone()));
                        it.arith(&e, Some(&ty))?
                    }
                };
                it.assign_value(target, v)?;
            }
            Ok(())
        };
        self.iterate(fors, scope, &mut step)?;
        let Some(first) = init.first() else {
            return Err(self.not_supported("REDUCE without INIT"));
        };
        let result = self.read(&Path {
            base: first.name.clone(),
            rest: Vec::new(),
        })?;
        match t {
            Some(t) => result
                .convert(t)
                .map_err(|e| self.move_error(e, &result, t)),
            None => Ok(result),
        }
    }

    fn filter(
        &mut self,
        t: &Type,
        src: Value,
        except: bool,
        ftab: Option<&Value>,
        cond: &Cond,
    ) -> Exec<Value> {
        let Type::Table(tt) = t else {
            return Err(self.not_supported("FILTER into a non-table"));
        };
        let Value::Table(_, rows) = src else {
            return Err(self.not_supported("FILTER of a non-table"));
        };
        let pairs = match ftab {
            Some(_) => Some(filter_pairs(cond).ok_or_else(|| {
                self.not_supported("FILTER … IN with a condition other than c = f AND …")
            })?),
            None => None,
        };
        let mut out = Vec::new();
        for r in *rows {
            self.tick()?;
            let hit = match (ftab, &pairs) {
                (Some(Value::Table(_, frows)), Some(pairs)) => {
                    let mut any = false;
                    for f in frows.iter() {
                        let mut all = true;
                        for (c, fc) in pairs {
                            let (Some(x), Some(y)) = (
                                crate::interp::tables::component(&r, c),
                                crate::interp::tables::component(f, fc),
                            ) else {
                                return Err(self.not_supported(&format!("FILTER component {c}")));
                            };
                            if !self.values_eq(x, y)? {
                                all = false;
                                break;
                            }
                        }
                        if all {
                            any = true;
                            break;
                        }
                    }
                    any
                }
                (Some(_), _) => return Err(self.not_supported("FILTER … IN a non-table")),
                (None, _) => self.where_match(cond, &r)?,
            };
            if hit != except {
                let row = r
                    .convert(&tt.line)
                    .map_err(|e| self.move_error(e, &r, &tt.line))?;
                if self.insert_by_key(tt, &mut out, row)?.is_none() {
                    return Err(self.dump(
                        "ITAB_DUPLICATE_KEY",
                        "A row with the same unique key already exists",
                    ));
                }
            }
        }
        Ok(Value::Table(tt.clone(), out.into()))
    }

    /// An actual parameter for formal parameter `p` of a method of `owner`: a constructor
    /// expression with `#` takes the parameter's type.
    pub fn argument(
        &mut self,
        owner: &'r abap_syntax::ast::ClassDef,
        p: &abap_syntax::ast::ParamDecl,
        e: &Expr,
    ) -> Exec<Value> {
        let declared = match (&p.ty, typeless(e)) {
            (Ok(t), true) => Some(self.resolve_type(owner, None, t, &[])?),
            _ => None,
        };
        match (declared, e) {
            (Some(t), Expr::New { class, args }) if t != Type::Any => {
                self.new_object(class, args, Some(&t))
            }
            (Some(t), _) if t != Type::Any => self.constructed(e, Some(&t)),
            _ => self.eval(e),
        }
    }
}
