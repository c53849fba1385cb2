//! Run time type information: `cl_abap_typedescr=>describe_by_data( )` and friends. A
//! descriptor is an object of a built-in class (`classes.rs`) whose public attributes hold
//! what a real system shows (`kind`, `type_kind`, `absolute_name`, `length`, `decimals`,
//! `components`, …), so the debugger shows them like any object; what it describes (the type,
//! its names, where it was written) stays in the run's [`Registry`]. One descriptor object per
//! type, as on a real system: describing the same type twice gives the same reference.
//!
//! `data.rs` describes and creates data types, `objects.rs` classes and interfaces,
//! `names.rs` finds absolute names.

pub(crate) mod classes;
mod data;
mod locate;
pub(crate) mod names;
mod objects;
pub(crate) mod registry;

use crate::interp::bound::Bound;
use crate::interp::builtins::classes::native::{NativeClass, Results};
use crate::interp::{Exec, Interp, Unwind};
use abap_data::value::{ObjId, Type, Value};
use abap_syntax::ast::{CallExpr, ClassDef, Expr, ParamKind};

pub use names::Spec;
use registry::Described;

pub(crate) const CLASS: NativeClass = NativeClass {
    name: "rtti",
    knows: classes::is_descriptor_class,
    static_call: None,
    method: Some(|interp, class, me, method, bound| interp.rtti_method(class, me, method, bound)),
};

fn returning(name: &str, v: Value) -> Results {
    vec![(name.into(), ParamKind::Returning, v)]
}

fn abap_bool(b: bool) -> Value {
    Value::C(if b { "X" } else { " " }.into())
}

impl<'r> Interp<'r, '_> {
    /// A reference to descriptor `obj`.
    fn descriptor_ref(&self, obj: ObjId) -> Value {
        Value::Ref {
            static_type: self
                .st
                .object_class(obj)
                .unwrap_or(classes::TYPEDESCR)
                .into(),
            target: Some(obj),
        }
    }

    /// The descriptor a reference value points to.
    fn described(&self, v: Option<&Value>, what: &str) -> Exec<(ObjId, Described<'r>)> {
        let obj = match v {
            Some(Value::Ref {
                target: Some(o), ..
            }) => *o,
            _ => {
                return Err(self.dump(
                    "OBJECTS_OBJREF_NOT_ASSIGNED",
                    format!("{what}: the type description reference is initial"),
                ));
            }
        };
        match self.st.rtti.get(obj) {
            Some(d) => Ok((obj, d.clone())),
            None => Err(self.not_supported(&format!("{what} with this object"))),
        }
    }

    /// A classic exception of a descriptor method: to the call when its `EXCEPTIONS` name it
    /// (or `OTHERS`), else the runtime error `RAISE_EXCEPTION`.
    fn classic_exception(&self, method: &str, exception: &str) -> Unwind {
        if let Some((depth, handled)) = &self.st.rtti.handled
            && let Some((_, subrc)) = handled
                .iter()
                .find(|(n, _)| n == exception)
                .or_else(|| handled.iter().find(|(n, _)| n == "OTHERS"))
        {
            return Unwind::Raised(Box::new(
                crate::interp::function_state::Raised::of_builtin_method(*depth, *subrc),
            ));
        }
        self.dump(
            "RAISE_EXCEPTION",
            format!("exception condition {exception} raised by {method}"),
        )
    }

    /// Calls descriptor method `method` of `owner` with the call's `EXCEPTIONS`: a classic
    /// exception they name ends the call with its `sy-subrc` (`None`: no result).
    pub fn invoke_with_exceptions(
        &mut self,
        owner: &'r ClassDef,
        me: Option<ObjId>,
        method: &str,
        bound: Bound,
        exceptions: Vec<(String, i32)>,
    ) -> Exec<Option<Results>> {
        let depth = self.st.frames.len();
        let outer = self.st.rtti.handled.replace((depth, exceptions));
        let result = self.invoke_impl_named(owner, me, method, bound);
        self.st.rtti.handled = outer;
        match result {
            Err(Unwind::Raised(r)) if r.handled_at().0 == depth => {
                let subrc = r.handled_at().1;
                self.st.set_sy("SUBRC", subrc);
                Ok(None)
            }
            Err(e) => Err(e),
            Ok(r) => {
                self.st.set_sy("SUBRC", 0);
                Ok(Some(r))
            }
        }
    }

    /// `cl_abap_typedescr=>describe_by_data( dobj )` (also through a subclass): answered from
    /// the actual parameter as written, so the names of its declared type are known.
    /// `None` for any other call.
    pub fn rtti_static_call(
        &mut self,
        class: &'r ClassDef,
        call: &CallExpr,
    ) -> Exec<Option<Value>> {
        if !classes::is_descriptor_class(&class.name) || call.method != "DESCRIBE_BY_DATA" {
            return Ok(None);
        }
        let arg = match (&call.args.positional, call.args.exporting.as_slice()) {
            (Some(e), []) => e,
            (None, [(n, e)]) if n == "P_DATA" => e,
            _ => return Err(self.not_supported("describe_by_data with these parameters")),
        };
        let v = self.describe_expr(arg)?;
        if let Some(target) = &call.args.receiving {
            self.assign_value(target, v.clone())?;
        }
        Ok(Some(v))
    }

    /// The descriptor of the data object `e` stands for.
    fn describe_expr(&mut self, e: &Expr) -> Exec<Value> {
        let (ty, spec, name) = self.expr_type(e)?;
        let obj = self.data_descriptor(&ty, spec, name)?;
        Ok(self.descriptor_ref(obj))
    }

    /// Methods of the descriptor classes; `None` for other classes.
    pub fn rtti_method(
        &mut self,
        class: &ClassDef,
        me: Option<ObjId>,
        method: &str,
        bound: &Bound,
    ) -> Exec<Option<Results>> {
        if !classes::is_descriptor_class(&class.name) {
            return Ok(None);
        }
        let input = |n: &str| bound.inputs.iter().find(|(k, _)| k == n).map(|(_, v)| v);
        let me_ref = me.map(|o| Value::Ref {
            static_type: classes::TYPEDESCR.into(),
            target: Some(o),
        });
        let results = match method {
            "DESCRIBE_BY_DATA" => {
                let Some(v) = input("P_DATA") else {
                    return Err(self.not_supported("describe_by_data without P_DATA"));
                };
                let ty = v.type_of();
                let obj = self.data_descriptor(&ty, None, None)?;
                returning("P_DESCR_REF", self.descriptor_ref(obj))
            }
            "DESCRIBE_BY_NAME" => {
                let name = match input("P_NAME") {
                    Some(v) => v.to_abap_string().map_err(|e| self.conv_error(e))?,
                    None => String::new(),
                };
                let obj = self.describe_by_name(name.trim().to_ascii_uppercase().as_str())?;
                returning("P_DESCR_REF", self.descriptor_ref(obj))
            }
            "DESCRIBE_BY_DATA_REF" => {
                let obj = self.describe_data_ref(input("P_DATA_REF"))?;
                returning("P_DESCR_REF", self.descriptor_ref(obj))
            }
            "DESCRIBE_BY_OBJECT_REF" => {
                let target = match input("P_OBJECT_REF") {
                    Some(Value::Ref {
                        target: Some(o), ..
                    }) => *o,
                    _ => return Err(self.classic_exception(method, "REFERENCE_IS_INITIAL")),
                };
                let key = self.st.object_class(target).unwrap_or_default().to_string();
                let Some(def) = self.st.class_by_key(&key) else {
                    return Err(self.not_supported("describe_by_object_ref of this object"));
                };
                let obj = self.object_descriptor(def)?;
                returning("P_DESCR_REF", self.descriptor_ref(obj))
            }
            "GET_RELATIVE_NAME" | "IS_DDIC_TYPE" => {
                let (_, d) = self.described(me_ref.as_ref(), method)?;
                let (relative, ddic) = match &d {
                    Described::Data { name, .. } => (name.relative.clone(), name.ddic),
                    Described::Object(c) => (c.name.clone(), false),
                };
                if method == "IS_DDIC_TYPE" {
                    returning("P_ABAP_BOOL", abap_bool(ddic))
                } else {
                    returning("P_RELATIVE_NAME", Value::Str(relative.into()))
                }
            }
            _ => match self.data_method(&class.name, me_ref.as_ref(), method, bound)? {
                Some(r) => r,
                None => match self.object_method(me_ref.as_ref(), method, bound)? {
                    Some(r) => r,
                    None => {
                        return Err(self.not_supported(&format!("method {}=>{method}", class.name)));
                    }
                },
            },
        };
        Ok(Some(results))
    }

    /// `describe_by_name( … )`: a class or interface, else a data type seen from the calling
    /// procedure; absolute names (`\TYPE=…`, `\CLASS=…`, technical names) too.
    fn describe_by_name(&mut self, name: &str) -> Exec<ObjId> {
        const METHOD: &str = "DESCRIBE_BY_NAME";
        if let Some(obj) = self.st.rtti.data_by_name(name) {
            return Ok(obj);
        }
        let Some(frame) = self.st.frames.last() else {
            return Err(self.not_supported("describe_by_name outside a procedure"));
        };
        let (class, method) = (frame.class, frame.method);
        let relative = match name.strip_prefix('\\') {
            Some(abs) => {
                let parts: Vec<&str> = abs.split('\\').collect();
                match parts.as_slice() {
                    [one] => one.to_string(),
                    [owner, ty] => match (owner.split_once('='), ty.strip_prefix("TYPE=")) {
                        (Some(("CLASS" | "INTERFACE", c)), Some(t)) => format!("{c}=>{t}"),
                        (Some(("TYPE-POOL", _)), Some(t)) => t.to_string(),
                        _ => return Err(self.not_supported(&format!("type name {name}"))),
                    },
                    _ => return Err(self.not_supported(&format!("type name {name}"))),
                }
            }
            None => name.to_string(),
        };
        let (kind, simple) = match relative.split_once('=') {
            Some((k @ ("TYPE" | "CLASS" | "INTERFACE"), n)) if !relative.contains("=>") => {
                (Some(k), n.to_string())
            }
            _ => (None, relative),
        };
        if kind != Some("TYPE")
            && let Some(def) = self.st.find_class(&class.program, &simple)
        {
            return self.object_descriptor(def);
        }
        if kind.is_some_and(|k| k != "TYPE") {
            return Err(self.classic_exception(METHOD, "TYPE_NOT_FOUND"));
        }
        let spec = Spec {
            class,
            method: Some(method),
            ty: Type::Named(simple.clone()),
        };
        if self.spec_name(&spec).is_none() {
            return Err(self.classic_exception(METHOD, "TYPE_NOT_FOUND"));
        }
        let ty = match self.resolve_type(class, Some(method), &spec.ty, &[]) {
            Ok(t) => t,
            Err(Unwind::Dump(_)) => return Err(self.classic_exception(METHOD, "TYPE_NOT_FOUND")),
            Err(e) => return Err(e),
        };
        self.data_descriptor(&ty, Some(spec), None)
    }
}
