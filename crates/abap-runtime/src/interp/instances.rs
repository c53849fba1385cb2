//! Classes and objects at run time: static attributes and class constructors, creating
//! instances, the start values of declared data.

use crate::interp::bound::Bound;

use crate::interp::builtins;
use crate::interp::machine::{Exec, Interp};
use crate::interp::shapes::declared_name;
use crate::interp::state::{Object, Var, VarKind};
use abap_data::value::{ObjId, Type, Value};
use abap_syntax::ast::{CallArgs, ClassDef, DataDecl, Expr};

impl<'r> Interp<'r, '_> {
    /// Main program of the innermost frame (for local class names).
    pub(crate) fn program(&self) -> &'r str {
        self.st
            .frames
            .last()
            .map_or("", |f| f.class.program.as_str())
    }

    pub(crate) fn class(&self, name: &str) -> Exec<&'r ClassDef> {
        self.st
            .find_class(self.program(), name)
            .ok_or_else(|| self.not_supported(&format!("unknown class {name}")))
    }

    pub(crate) fn decl_value(&self, d: &DataDecl, ty: &Type, earlier: &[Var]) -> Exec<Value> {
        match &d.value {
            Some(e) => self.start_value(&d.name, e, ty, earlier),
            None => Ok(ty.initial()),
        }
    }

    /// The value of a `VALUE` clause: a literal, a constant, or for a structure declared with
    /// `BEGIN OF … END OF` the `VALUE` clauses of its components.
    pub(crate) fn start_value(
        &self,
        name: &str,
        e: &Expr,
        ty: &Type,
        earlier: &[Var],
    ) -> Exec<Value> {
        if let (Expr::Value { body, .. }, Type::Struct(st)) = (e, ty)
            && body.rows.is_empty()
        {
            let mut comps: Vec<Value> = st.comps.iter().map(|(_, t)| t.initial()).collect();
            for (comp, ce) in &body.fields {
                let (Some(i), Some((_, cty))) = (
                    st.index_of(comp),
                    st.index_of(comp).and_then(|i| st.comps.get(i)),
                ) else {
                    return Err(self.not_supported(&format!("VALUE of {name}-{comp}")));
                };
                let v = self.start_value(name, ce, cty, earlier)?;
                if let Some(slot) = comps.get_mut(i) {
                    *slot = v;
                }
            }
            return Ok(Value::Struct(st.clone(), comps.into()));
        }
        let d_name = name;
        let v = match e {
            Expr::Lit(v) => v.clone(),
            Expr::Neg(inner) => match inner.as_ref() {
                Expr::Lit(v) => {
                    let d = v.to_dec().map_err(|e| self.conv_error(e))?;
                    let n = d
                        .neg()
                        .map_err(|_| self.dump("CONVT_OVERFLOW", "Overflow"))?;
                    Value::P {
                        m: n.m.into(),
                        len: 16,
                        dec: n.scale,
                    }
                }
                _ => return Err(self.not_supported(&format!("VALUE of {}", d_name))),
            },
            Expr::Path(p) if p.rest.is_empty() => {
                if let Some(v) = earlier.iter().find(|v| v.name == p.base) {
                    v.val.clone()
                } else if let Some(v) = self
                    .st
                    .frames
                    .len()
                    .checked_sub(1)
                    .and_then(|f| self.st.lookup(f, p))
                {
                    v.val.clone()
                } else {
                    match p.base.as_str() {
                        "ABAP_TRUE" => Value::C("X".into()),
                        "ABAP_FALSE" | "SPACE" => Value::C(" ".into()),
                        _ => return Err(self.not_supported(&format!("VALUE {}", p.base))),
                    }
                }
            }
            // `VALUE cl_abap_typedescr=>typekind_int`: a constant of a built-in class, or one
            // of a class whose static attributes exist.
            Expr::Path(p) => match builtins::classes::static_constant(p) {
                Some(v) => v.val,
                None => match self
                    .st
                    .frames
                    .len()
                    .checked_sub(1)
                    .and_then(|f| self.st.lookup(f, p))
                {
                    Some(v) => v.val.clone(),
                    None => return Err(self.not_supported(&format!("VALUE of {}", d_name))),
                },
            },
            _ => return Err(self.not_supported(&format!("VALUE of {}", d_name))),
        };
        v.convert(ty).map_err(|e| self.conv_error(e))
    }

    pub fn ensure_statics(&mut self, class: &'r ClassDef) -> Exec<()> {
        if self.st.statics.contains_key(&class.key) {
            return Ok(());
        }
        self.st.statics.insert(class.key.clone(), Vec::new());
        if let Some(sup) = self.st.superclass(class) {
            self.ensure_statics(sup)?;
        }
        self.ensure_interface_statics(class)?;
        let mut vars = Vec::new();
        for d in class.attributes.iter().filter(|d| d.is_static) {
            let Ok(ty) = &d.ty else { continue };
            let ty = &self.resolve_type(class, None, ty, &vars)?;
            let mut v = Var::new(
                &d.name,
                ty.clone(),
                VarKind::Attr {
                    is_static: true,
                    constant: d.is_constant,
                    visibility: d.visibility,
                },
            );
            v.type_name = declared_name(&d.ty);
            v.val = self.decl_value(d, ty, &vars)?;
            vars.push(v);
        }
        self.st.statics.insert(class.key.clone(), vars);
        if class.implementation("CLASS_CONSTRUCTOR").is_some() {
            self.invoke(class, None, "CLASS_CONSTRUCTOR", Bound::default())?;
        }
        Ok(())
    }

    /// Creates an instance and runs the constructor (its own or the nearest inherited one).
    pub fn create_object(&mut self, class: &'r ClassDef, args: Option<&CallArgs>) -> Exec<ObjId> {
        if args.is_some_and(|a| !a.exceptions.is_empty()) {
            return Err(self.not_supported("EXCEPTIONS of a constructor"));
        }
        match self.instantiate(class, args)? {
            Some(id) => Ok(id),
            None => Err(self.not_supported("a constructor ended by a classic exception")),
        }
    }

    /// [`Interp::create_object`] for `CREATE OBJECT … EXCEPTIONS`: `None` when a classic
    /// exception the statement handles ended the constructor (no object for the program,
    /// `sy-subrc` set).
    pub fn instantiate(
        &mut self,
        class: &'r ClassDef,
        args: Option<&CallArgs>,
    ) -> Exec<Option<ObjId>> {
        if class.is_abstract || class.is_interface {
            return Err(self.dump(
                "CREATE_OBJECT_CLASS_ABSTRACT",
                format!(
                    "An instance of the abstract class {} cannot be created",
                    class.name
                ),
            ));
        }
        self.ensure_statics(class)?;
        let lineage = self.st.lineage(class);
        let mut attrs = Vec::new();
        for c in lineage.iter().rev() {
            for d in c.attributes.iter().filter(|d| !d.is_static) {
                let Ok(ty) = &d.ty else { continue };
                let ty = &self.resolve_type(c, None, ty, &attrs)?;
                let mut v = Var::new(
                    &d.name,
                    ty.clone(),
                    VarKind::Attr {
                        is_static: false,
                        constant: d.is_constant,
                        visibility: d.visibility,
                    },
                );
                v.read_only = d.is_constant;
                v.type_name = declared_name(&d.ty);
                v.val = self.decl_value(d, ty, &attrs)?;
                attrs.push(v);
            }
        }
        self.interface_attributes(class, &mut attrs)?;
        let id = self.st.heap.len();
        self.st.heap.push(Object {
            class: class.key.clone(),
            attrs,
            is_classrun_out: false,
            exc: None,
        });
        if let Some((owner, _)) = self.resolve_method(class, "CONSTRUCTOR") {
            let decl = self.method_decl(owner, "CONSTRUCTOR");
            let bound = match args {
                Some(a) => self.bind(owner, &decl, a, "CONSTRUCTOR")?,
                None => Bound::default(),
            };
            match args.map(|a| a.exceptions.as_slice()) {
                Some(exceptions) if !exceptions.is_empty() => {
                    let ended = self.with_classic_exceptions(exceptions, |it| {
                        it.invoke(owner, Some(id), "CONSTRUCTOR", bound)
                    })?;
                    if ended.is_none() {
                        return Ok(None);
                    }
                }
                _ => {
                    self.invoke(owner, Some(id), "CONSTRUCTOR", bound)?;
                }
            }
        } else if args.is_some_and(|a| a.positional.is_some() || !a.exporting.is_empty()) {
            return Err(self.dump(
                "CALL_METHOD_PARAM_UNKNOWN",
                format!("class {} has no constructor parameters", class.name),
            ));
        }
        Ok(Some(id))
    }
}
