//! Calls: methods and functional calls, the built-in functions, and how actual parameters are
//! bound to a procedure's formal ones (by value, by reference, `RETURNING`, `RECEIVING`).

use crate::interp::builtins::classes::classrun::classrun_main_decl;
use crate::interp::shapes::declared_name;
use std::borrow::Cow;

use super::{Exec, Flow, Interp, Unwind};
use crate::interp::bound::Bound;
use crate::interp::builtins::classes::classrun::CLASSRUN_MAIN;
use crate::interp::state::{Current, Frame, Var, VarKind};
use abap_data::place::{Place, Slot};
use abap_data::value::{ObjId, Type, Value};
use abap_syntax::ast::{
    CallArgs, CallExpr, CallTarget, ClassDef, DataDecl, Expr, MethodDecl, MethodImpl, ParamDecl,
    ParamKind, Path,
};

impl<'r> Interp<'r, '_> {
    /// The class that implements `method` for `class` (walking up the superclasses; interface
    /// methods by short name) and the implementation's name.
    pub fn resolve_method(
        &self,
        class: &'r ClassDef,
        method: &str,
    ) -> Option<(&'r ClassDef, String)> {
        let lineage = self.st.lineage(class);
        // A subclass implements the interfaces of its superclasses too, so a redefinition
        // (`zif~m REDEFINITION`) lives in a class that does not list the interface itself.
        let interfaces: Vec<&String> = lineage.iter().flat_map(|c| &c.interfaces).collect();
        for c in lineage {
            if c.implementation(method).is_some() {
                return Some((c, method.to_string()));
            }
            if let Some(n) = interfaces
                .iter()
                .map(|i| format!("{i}~{method}"))
                .find(|n| c.implementation(n).is_some())
            {
                return Some((c, n));
            }
            if c.builtin && c.method_decl(method).is_some() {
                return Some((c, method.to_string()));
            }
        }
        // An alias, or a method of an interface included in an implemented interface.
        let full = self.interface_method_name(class, method)?;
        self.resolve_method(class, &full)
    }

    pub(super) fn method_decl(&self, class: &'r ClassDef, name: &str) -> Cow<'r, MethodDecl> {
        for c in self.st.lineage(class) {
            if let Some(d) = c.method_decl(name) {
                return Cow::Borrowed(d);
            }
        }
        if name == CLASSRUN_MAIN {
            return Cow::Owned(classrun_main_decl());
        }
        if let Some((intf, m)) = name.split_once('~')
            && let Some(i) = self.st.find_class(&class.program, intf)
            && let Some(d) = i.method_decl(m)
        {
            return Cow::Borrowed(d);
        }
        Cow::Owned(MethodDecl {
            name: name.to_string(),
            is_static: false,
            params: Vec::new(),
            for_testing: false,
            is_abstract: false,
            line: 0,
        })
    }

    /// The callee's parameter variables from the bound actual parameters.
    pub(super) fn parameters(
        &mut self,
        class: &'r ClassDef,
        decl: &MethodDecl,
        method: &str,
        bound: &Bound,
    ) -> Exec<Vec<Var>> {
        let mut vars = Vec::new();
        for p in &decl.params {
            let ty = match &p.ty {
                Ok(t) => self.resolve_type(class, None, t, &vars)?,
                Err(t) => return Err(self.not_supported(&format!("parameter {} {t}", p.name))),
            };
            let given = bound
                .inputs
                .iter()
                .find(|(n, _)| *n == p.name)
                .map(|(_, v)| v);
            let val = match (p.kind, given) {
                (ParamKind::Returning, _) => ty.initial(),
                (_, Some(v)) => {
                    let converted = v.convert(&ty).map_err(|e| self.conv_error(e))?;
                    self.keyed_table(v, converted)?
                }
                (ParamKind::Importing, None) => match &p.default {
                    Some(e) => {
                        let v = self.eval(e)?;
                        v.convert(&ty).map_err(|e| self.conv_error(e))?
                    }
                    None if p.optional => ty.initial(),
                    None => {
                        return Err(self.dump(
                            "CALL_METHOD_PARMS_MISSING",
                            format!("parameter {} of {method} is not supplied", p.name),
                        ));
                    }
                },
                _ => ty.initial(),
            };
            let ty = if ty == Type::Any { val.type_of() } else { ty };
            vars.push(Var {
                name: p.name.clone(),
                ty,
                val,
                kind: VarKind::Param(p.kind),
                read_only: p.kind == ParamKind::Importing && !p.by_value,
                type_name: declared_name(&p.ty),
            });
        }
        Ok(vars)
    }

    /// Creates the method's locals (initial or with their VALUE) at procedure start.
    pub(super) fn init_locals(&mut self, imp: &'r MethodImpl) -> Exec<()> {
        for d in &imp.locals {
            let Ok(ty) = &d.ty else { continue };
            self.set_line(d.line);
            let kind = if d.is_constant {
                VarKind::Constant
            } else {
                VarKind::Local
            };
            let Some(class) = self.st.frames.last().map(|f| f.class) else {
                continue;
            };
            // The variables declared so far, borrowed (not copied: a copy per local is
            // quadratic and copies every table parameter).
            let ty = &self.resolve_type(class, Some(imp), ty, self.frame_vars())?;
            let mut v = Var::new(&d.name, ty.clone(), kind);
            v.type_name = declared_name(&d.ty);
            if d.is_static {
                // Lives in the procedure's static store; the frame's variable is an alias.
                let place = self.procedure_static(class, imp, d, ty)?;
                if let Some(f) = self.st.frames.last_mut() {
                    f.aliases.push((f.vars.len(), place));
                    f.vars.push(v);
                }
                continue;
            }
            v.val = self.decl_value(d, ty, self.frame_vars())?;
            if let Some(f) = self.st.frames.last_mut() {
                f.vars.push(v);
            }
        }
        Ok(())
    }

    /// The variables of the innermost frame (none without a frame).
    fn frame_vars(&self) -> &[Var] {
        self.st.frames.last().map_or(&[], |f| f.vars.as_slice())
    }

    /// The storage of a `STATICS` variable: created with its start value on the procedure's
    /// first call, kept for all later calls (of every instance).
    pub(super) fn procedure_static(
        &mut self,
        class: &'r ClassDef,
        imp: &'r MethodImpl,
        d: &DataDecl,
        ty: &Type,
    ) -> Exec<Place> {
        let key = format!("{}\\{}={}", class.key, imp.place.event_type, imp.name);
        let existing = self
            .st
            .statics
            .get(&key)
            .and_then(|vars| vars.iter().position(|v| v.name == d.name));
        let index = match existing {
            Some(i) => i,
            None => {
                let mut v = Var::new(&d.name, ty.clone(), VarKind::Local);
                v.type_name = declared_name(&d.ty);
                v.val = self.decl_value(d, ty, self.frame_vars())?;
                let vars = self.st.statics.entry(key.clone()).or_default();
                vars.push(v);
                vars.len() - 1
            }
        };
        Ok(Place {
            slot: Slot::Static(key, index),
            steps: Vec::new(),
        })
    }

    /// [`Interp::invoke`] for other modules.
    pub fn invoke_impl_named(
        &mut self,
        class: &'r ClassDef,
        me: Option<ObjId>,
        method: &str,
        bound: Bound,
    ) -> Exec<Vec<(String, ParamKind, Value)>> {
        self.invoke(class, me, method, bound)
    }

    /// Runs method `method` of `class` (the class that implements it).
    pub(super) fn invoke(
        &mut self,
        class: &'r ClassDef,
        me: Option<ObjId>,
        method: &str,
        bound: Bound,
    ) -> Exec<Vec<(String, ParamKind, Value)>> {
        let Some(imp) = class.implementation(method) else {
            if class.builtin {
                return self.native_method(class, me, method, bound);
            }
            return Err(self.not_supported(&format!(
                "method {}=>{method} without implementation",
                class.name
            )));
        };
        self.invoke_impl(class, me, imp, bound)
    }

    /// Runs a procedure (method, form, event block); returns its exporting/changing/returning
    /// values.
    pub fn invoke_impl(
        &mut self,
        class: &'r ClassDef,
        me: Option<ObjId>,
        imp: &'r MethodImpl,
        bound: Bound,
    ) -> Exec<Vec<(String, ParamKind, Value)>> {
        self.with_stack_room(|it| it.invoke_here(class, me, imp, bound))
    }

    fn invoke_here(
        &mut self,
        class: &'r ClassDef,
        me: Option<ObjId>,
        imp: &'r MethodImpl,
        bound: Bound,
    ) -> Exec<Vec<(String, ParamKind, Value)>> {
        let decl = self.method_decl(class, &imp.name);
        let me = if decl.is_static { None } else { me };
        let vars = self.parameters(class, &decl, &imp.name, &bound)?;
        let n_params = vars.len();
        // Charged before the frame exists: a full stack ends the run at the call.
        let charged = self.charge_frame(n_params + imp.locals.len())?;
        let aliases = self.by_reference(&decl, &bound, &vars);
        let supplied = bound
            .inputs
            .iter()
            .map(|(n, _)| n.clone())
            .chain(bound.outputs.iter().map(|(n, _)| n.clone()))
            .collect();
        self.st.calls += 1;
        self.st.frames.push(Frame {
            serial: self.st.calls,
            class,
            method: imp,
            me,
            vars,
            n_params,
            line: imp.method_line,
            loop_depth: 0,
            blocks: Vec::new(),
            field_symbols: imp
                .field_symbols
                .iter()
                .map(|n| (n.clone(), None))
                .collect(),
            aliases,
            supplied,
            loops: Vec::new(),
            actual_types: bound.actual_types,
        });
        let result = self.init_locals(imp).and_then(|_| {
            self.tables_header_lines();
            self.procedure_body(imp)
        });
        self.release_frame(charged);
        let frame = self.st.frames.pop();
        result?;
        let Some(frame) = frame else {
            return Ok(Vec::new());
        };
        // By-reference parameters have already changed the actual parameters.
        let aliased: Vec<usize> = frame.aliases.iter().map(|(i, _)| *i).collect();
        Ok(frame
            .vars
            .into_iter()
            .take(n_params)
            .enumerate()
            .filter(|(i, _)| !aliased.contains(i))
            .filter_map(|(_, v)| match v.kind {
                VarKind::Param(k) if k != ParamKind::Importing => Some((v.name, k, v.val)),
                _ => None,
            })
            .collect())
    }

    /// The parameters passed by reference (`CHANGING`/`EXPORTING` without `VALUE( )`, a
    /// `FORM`'s `USING`/`CHANGING`) whose actual parameter is a data object of the caller:
    /// index into `vars` and the actual's storage, resolved in the caller's frame.
    pub(super) fn by_reference(
        &self,
        decl: &MethodDecl,
        bound: &Bound,
        vars: &[Var],
    ) -> Vec<(usize, Place)> {
        let caller = self.top();
        bound
            .outputs
            .iter()
            .filter(|(name, _)| {
                decl.params.iter().any(|p| {
                    p.name == *name
                        && !p.by_value
                        && matches!(p.kind, ParamKind::Changing | ParamKind::Exporting)
                })
            })
            .filter_map(|(name, path)| {
                let i = vars.iter().position(|v| v.name == *name)?;
                let place = self.st.place(caller, path)?;
                Some((i, place))
            })
            .collect()
    }

    /// The body and the closing stop point (`ENDMETHOD`), with jumps back into the body.
    pub(super) fn procedure_body(&mut self, imp: &'r MethodImpl) -> Exec<()> {
        let end_kw = match imp.place.event_type {
            "FORM" => "ENDFORM",
            "FUNCTION" => "ENDFUNCTION",
            _ => "ENDMETHOD",
        };
        let mut start: Option<u32> = None;
        loop {
            let r = match start {
                Some(line) if Some(line) == imp.end_line => Ok(Flow::Normal),
                Some(line) => self.block_at(&imp.body, line),
                None => self.block(&imp.body),
            };
            let r = r.and_then(|_| match imp.end_line {
                Some(end) => self.stop(end, Current::Keyword(end_kw)),
                None => Ok(()),
            });
            match r {
                Err(Unwind::Jump(line))
                    if imp.end_line == Some(line)
                        || imp
                            .body
                            .iter()
                            .any(|s| s.line == line && s.kind.is_stop_point()) =>
                {
                    start = Some(line);
                }
                Err(Unwind::Jump(line)) => {
                    return Err(
                        self.dump("SIMULATOR_JUMP", format!("cannot continue at line {line}"))
                    );
                }
                other => return other,
            }
        }
    }

    /// Evaluates a call; `Some(value)` if the method has a RETURNING parameter.
    pub fn call(&mut self, call: &CallExpr) -> Exec<Option<Value>> {
        if self.judging_condition && !matches!(call.target, CallTarget::Implicit) {
            return Err(self.not_supported("a method call in a debugger condition"));
        }
        let (class, me, builtin_out) = match &call.target {
            CallTarget::Implicit => {
                let Some(frame) = self.st.frames.last() else {
                    return Err(self.not_supported("call outside a method"));
                };
                let class = frame.class;
                let me = frame.me;
                if self.resolve_method(class, &call.method).is_none() {
                    return self.builtin_function(call).map(Some);
                }
                if self.judging_condition {
                    return Err(self.not_supported("a method call in a debugger condition"));
                }
                (class, me, None)
            }
            CallTarget::Class(name) => {
                let class = self.class(name)?;
                if let Some(v) = self.rtti_static_call(class, call)? {
                    return Ok(Some(v));
                }
                if class.builtin && class.methods.is_empty() {
                    return self.native_static_call(class, call);
                }
                self.ensure_statics(class)?;
                // `zcl_x=>m( )` on an instance method of the own class (or a superclass)
                // keeps `me`.
                let me = self.st.frames.last().and_then(|f| f.me);
                (class, me, None)
            }
            CallTarget::Object(path) if path.base == "SUPER" && path.rest.is_empty() => {
                let Some(frame) = self.st.frames.last() else {
                    return Err(self.not_supported("SUPER outside a method"));
                };
                let me = frame.me;
                let Some(sup) = self.st.superclass(frame.class) else {
                    return Err(self.not_supported("SUPER in a class without superclass"));
                };
                (sup, me, None)
            }
            CallTarget::Object(path) => {
                let v = self.read(path)?;
                self.object_target(v)?
            }
            CallTarget::Value(e) => {
                let v = self.eval(e)?;
                self.object_target(v)?
            }
            CallTarget::Result(inner) => {
                let Some(v) = self.call(inner)? else {
                    return Err(self.not_supported("method chaining on a method without RETURNING"));
                };
                self.object_target(v)?
            }
        };
        if let Some(out) = builtin_out {
            return self.classrun_out_call(out, call);
        }
        self.call_user(class, me, call)
    }

    /// Calls a method of a user class with the call's actual parameters.
    pub(super) fn call_user(
        &mut self,
        class: &'r ClassDef,
        me: Option<ObjId>,
        call: &CallExpr,
    ) -> Exec<Option<Value>> {
        let Some((owner, method)) = self.resolve_method(class, &call.method) else {
            return Err(
                self.not_supported(&format!("unknown method {}=>{}", class.name, call.method))
            );
        };
        let decl = self.method_decl(owner, &method);
        let bound = self.bind(owner, &decl, &call.args, &method)?;
        let receiving = bound.receiving.clone();
        let outputs = bound.outputs.clone();
        let results = if call.args.exceptions.is_empty() {
            self.invoke(owner, me, &method, bound)?
        } else {
            if crate::interp::builtins::classes::rtti::classes::is_descriptor_class(&owner.name) {
                // The descriptor classes raise their classic exceptions themselves.
                let mut exceptions = Vec::with_capacity(call.args.exceptions.len());
                for (name, e) in &call.args.exceptions {
                    let n = self.int(e)?;
                    exceptions.push((name.clone(), i32::try_from(n).unwrap_or(i32::MAX)));
                }
                match self.invoke_with_exceptions(owner, me, &method, bound, exceptions)? {
                    Some(r) => r,
                    None => return Ok(None),
                }
            } else if owner.builtin {
                return Err(self.not_supported(&format!(
                    "EXCEPTIONS of the built-in method {}=>{method}",
                    owner.name
                )));
            } else {
                let ended = self.with_classic_exceptions(&call.args.exceptions, |it| {
                    it.invoke(owner, me, &method, bound)
                })?;
                match ended {
                    Some(results) => results,
                    // A classic exception ended the method: nothing is passed back.
                    None => return Ok(None),
                }
            }
        };
        let mut returning = None;
        for (name, kind, val) in results {
            if kind == ParamKind::Returning {
                returning = Some(val);
            } else if let Some((_, target)) = outputs.iter().find(|(n, _)| *n == name) {
                self.assign_value(target, val)?;
            }
        }
        if let (Some(target), Some(val)) = (receiving, returning.clone()) {
            self.assign_value(&target, val)?;
        }
        Ok(returning)
    }

    /// The class and object of `ref->meth( )`; the third element is set for the output object.
    pub(super) fn object_target(
        &self,
        v: Value,
    ) -> Exec<(&'r ClassDef, Option<ObjId>, Option<ObjId>)> {
        let Value::Ref { target, .. } = v else {
            return Err(self.not_supported("method call on a non-reference"));
        };
        let Some(obj) = target else {
            return Err(self.dump(
                "OBJECTS_OBJREF_NOT_ASSIGNED",
                "Access via 'NULL' object reference not possible",
            ));
        };
        let Some(o) = self.st.heap.get(obj) else {
            return Err(self.dump(
                "OBJECTS_OBJREF_NOT_ASSIGNED",
                "Access via an invalid object reference",
            ));
        };
        if o.is_classrun_out {
            // Any class works as a carrier; the output object has no ABAP class of its own.
            let Some(frame) = self.st.frames.last() else {
                return Err(self.not_supported("output outside a method"));
            };
            return Ok((frame.class, None, Some(obj)));
        }
        let Some(class) = self.st.class_by_key(&o.class) else {
            return Err(self.not_supported(&format!("unknown class {}", o.class)));
        };
        Ok((class, Some(obj), None))
    }

    /// Maps actual parameters to formal ones and evaluates the inputs.
    pub(super) fn bind(
        &mut self,
        owner: &'r ClassDef,
        decl: &MethodDecl,
        args: &CallArgs,
        method: &str,
    ) -> Exec<Bound> {
        let mut b = Bound::default();
        let unknown = |it: &Self, n: &str| {
            it.dump(
                "CALL_METHOD_PARAM_UNKNOWN",
                format!("method {method} has no parameter {n}"),
            )
        };
        if let Some(e) = &args.positional {
            let importing: Vec<&ParamDecl> = decl
                .params
                .iter()
                .filter(|p| p.kind == ParamKind::Importing)
                .collect();
            let target = match importing.as_slice() {
                [one] => Some(*one),
                many => many
                    .iter()
                    .copied()
                    .find(|p| !p.optional)
                    .or_else(|| many.first().copied()),
            };
            let Some(p) = target else {
                return Err(unknown(self, "(positional)"));
            };
            let v = self.argument(owner, p, e)?;
            self.note_actual_type(&mut b, p, e);
            b.inputs.push((p.name.clone(), v));
        }
        for (name, e) in &args.exporting {
            let Some(p) = decl
                .params
                .iter()
                .find(|p| p.name == *name && p.kind == ParamKind::Importing)
            else {
                return Err(unknown(self, name));
            };
            let v = self.argument(owner, p, e)?;
            self.note_actual_type(&mut b, p, e);
            b.inputs.push((name.clone(), v));
        }
        for (name, path) in &args.importing {
            let Some(p) = decl
                .params
                .iter()
                .find(|p| p.name == *name && p.kind == ParamKind::Exporting)
            else {
                return Err(unknown(self, name));
            };
            self.declare_for_parameter(owner, args, path, p)?;
            b.outputs.push((name.clone(), path.clone()));
        }
        for (name, path) in &args.changing {
            if !decl
                .params
                .iter()
                .any(|p| p.name == *name && p.kind == ParamKind::Changing)
            {
                return Err(unknown(self, name));
            }
            let v = self.read(path)?;
            b.inputs.push((name.clone(), v));
            b.outputs.push((name.clone(), path.clone()));
        }
        if let Some(path) = &args.receiving
            && let Some(p) = decl.params.iter().find(|p| p.kind == ParamKind::Returning)
        {
            self.declare_for_parameter(owner, args, path, p)?;
        }
        b.receiving = args.receiving.clone();
        Ok(b)
    }

    /// For a generic formal parameter: the name of the actual parameter's type, which
    /// `describe_by_data( )` of the parameter reports.
    fn note_actual_type(&mut self, b: &mut Bound, p: &ParamDecl, e: &Expr) {
        if p.ty == Ok(Type::Any)
            && let Some(name) = self.actual_type_name(e)
        {
            b.actual_types.push((p.name.clone(), name));
        }
    }

    /// `p = DATA(x)`: declares `x` with the type of formal parameter `p`.
    pub(super) fn declare_for_parameter(
        &mut self,
        owner: &'r ClassDef,
        args: &CallArgs,
        path: &Path,
        p: &ParamDecl,
    ) -> Exec<()> {
        if !path.rest.is_empty() || !args.declared.contains(&path.base) {
            return Ok(());
        }
        let ty = match &p.ty {
            Ok(t) => self.resolve_type(owner, None, t, &[])?,
            Err(e) => return Err(self.not_supported(e)),
        };
        if ty == Type::Any {
            return Err(self.not_supported(&format!(
                "DATA({}) for the generically typed parameter {}",
                path.base, p.name
            )));
        }
        self.declare_inline(&path.base, ty);
        Ok(())
    }
}
