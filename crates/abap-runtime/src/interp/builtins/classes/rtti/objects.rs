//! Descriptors of classes and interfaces (`cl_abap_classdescr`, `cl_abap_intfdescr`):
//! `describe_by_name( 'ZCL_X' )`, `describe_by_object_ref( obj )`, their `attributes`,
//! `methods` and `interfaces`, and `get_attribute_type( )`, `get_super_class_type( )`.

use super::names::{Spec, class_path};
use super::registry::Described;
use super::{abap_bool, classes, returning};
use crate::interp::bound::Bound;
use crate::interp::builtins::classes::native::Results;
use crate::interp::{Exec, Interp};
use abap_data::value::{ObjId, Type, Value};
use abap_syntax::ast::{ClassDef, MethodDecl, ParamKind, Visibility};

fn visibility(v: Visibility) -> &'static str {
    match v {
        Visibility::Public => "U",
        Visibility::Protected => "O",
        Visibility::Private => "I",
    }
}

fn parm_kind(k: ParamKind) -> &'static str {
    match k {
        ParamKind::Importing => "I",
        ParamKind::Exporting => "E",
        ParamKind::Changing => "C",
        ParamKind::Returning => "R",
    }
}

fn text(v: &str) -> Value {
    Value::Str(v.into())
}

fn rtti_table(name: &str) -> Type {
    abap_data::ddic::rtti_type(name).unwrap_or(Type::Any)
}

impl<'r> Interp<'r, '_> {
    /// `type_kind`, `length` and `decimals` of a declared type (blank for generic types).
    fn type_facts(&self, class: &'r ClassDef, ty: &Type) -> Vec<(&'static str, Value)> {
        let Ok(t) = self.resolve_type(class, None, ty, &[]) else {
            return Vec::new();
        };
        if t == Type::Any {
            return Vec::new();
        }
        let (kind, length, decimals) = super::data::facts(&t);
        vec![
            ("TYPE_KIND", Value::C(kind.into())),
            ("LENGTH", Value::I(length)),
            ("DECIMALS", Value::I(decimals)),
        ]
    }

    /// The `parameters` table of a method.
    fn parameter_rows(&self, class: &'r ClassDef, m: &MethodDecl) -> Value {
        let mut params = Vec::new();
        for p in &m.params {
            let mut row = vec![
                ("NAME", text(&p.name)),
                ("PARM_KIND", Value::C(parm_kind(p.kind).into())),
                ("BY_VALUE", abap_bool(p.by_value)),
                ("IS_OPTIONAL", abap_bool(p.optional || p.default.is_some())),
            ];
            if let Ok(t) = &p.ty {
                row.extend(self.type_facts(class, t));
            }
            params.push(row);
        }
        super::data::table_value(&rtti_table("ABAP_PARMDESCR_TAB"), params)
    }

    /// The descriptor object of a class or interface.
    pub(super) fn object_descriptor(&mut self, def: &'r ClassDef) -> Exec<ObjId> {
        if let Some(obj) = self.st.rtti.object_for(def) {
            return Ok(obj);
        }
        let (class, kind, type_kind) = if def.is_interface {
            (classes::INTFDESCR, "I", "+")
        } else {
            (classes::CLASSDESCR, "C", "*")
        };
        let Some(descr_class) = crate::interp::builtins::classes::class(class) else {
            return Err(self.not_supported(class));
        };
        let obj = self.create_object(descr_class, None)?;
        let lineage = self.st.lineage(def);
        let mut attributes = Vec::new();
        let mut methods = Vec::new();
        let mut interfaces = Vec::new();
        for (depth, c) in lineage.iter().enumerate() {
            let inherited = depth > 0;
            for a in &c.attributes {
                if inherited && a.visibility == Visibility::Private {
                    continue;
                }
                let mut row = vec![
                    ("NAME", text(&a.name)),
                    ("VISIBILITY", Value::C(visibility(a.visibility).into())),
                    ("IS_INHERITED", abap_bool(inherited)),
                    ("IS_CLASS", abap_bool(a.is_static)),
                    ("IS_CONSTANT", abap_bool(a.is_constant)),
                ];
                if let Ok(t) = &a.ty {
                    row.extend(self.type_facts(c, t));
                }
                attributes.push(row);
            }
            for m in &c.methods {
                let vis = c
                    .method_visibility
                    .iter()
                    .find(|(n, _)| *n == m.name)
                    .map_or(Visibility::Public, |(_, v)| *v);
                if inherited && vis == Visibility::Private {
                    continue;
                }
                let redefined = inherited && def.implementation(&m.name).is_some();
                let params = self.parameter_rows(c, m);
                methods.push(vec![
                    ("PARAMETERS", params),
                    ("NAME", text(&m.name)),
                    ("VISIBILITY", Value::C(visibility(vis).into())),
                    ("IS_INHERITED", abap_bool(inherited)),
                    ("IS_REDEFINED", abap_bool(redefined)),
                    ("IS_ABSTRACT", abap_bool(m.is_abstract)),
                    ("IS_CLASS", abap_bool(m.is_static)),
                ]);
            }
            for i in &c.interfaces {
                interfaces.push(vec![
                    ("NAME", text(i)),
                    ("IS_INHERITED", abap_bool(inherited)),
                ]);
            }
        }
        // Components of the implemented interfaces, named `intf~comp`.
        for intf in self.st.interfaces_of(def) {
            if intf.key == def.key {
                continue;
            }
            for a in &intf.attributes {
                let mut row = vec![
                    ("NAME", text(&format!("{}~{}", intf.name, a.name))),
                    ("VISIBILITY", Value::C("U".into())),
                    ("IS_INTERFACE", abap_bool(true)),
                    ("IS_CLASS", abap_bool(a.is_static)),
                    ("IS_CONSTANT", abap_bool(a.is_constant)),
                ];
                if let Ok(t) = &a.ty {
                    row.extend(self.type_facts(intf, t));
                }
                attributes.push(row);
            }
            for m in &intf.methods {
                let params = self.parameter_rows(intf, m);
                methods.push(vec![
                    ("PARAMETERS", params),
                    ("NAME", text(&format!("{}~{}", intf.name, m.name))),
                    ("VISIBILITY", Value::C("U".into())),
                    ("IS_INTERFACE", abap_bool(true)),
                    ("IS_ABSTRACT", abap_bool(def.is_interface)),
                    ("IS_CLASS", abap_bool(m.is_static)),
                ]);
            }
        }
        let class_kind = if def.is_abstract {
            "A"
        } else if def.is_final {
            "F"
        } else {
            "C"
        };
        let attrs = vec![
            ("ABSOLUTE_NAME", text(&class_path(def))),
            ("TYPE_KIND", Value::C(type_kind.into())),
            ("KIND", Value::C(kind.into())),
            (
                "ATTRIBUTES",
                super::data::table_value(&rtti_table("ABAP_ATTRDESCR_TAB"), attributes),
            ),
            (
                "METHODS",
                super::data::table_value(&rtti_table("ABAP_METHDESCR_TAB"), methods),
            ),
            (
                "INTERFACES",
                super::data::table_value(&rtti_table("ABAP_INTFDESCR_TAB"), interfaces),
            ),
            ("CLASS_KIND", Value::C(class_kind.into())),
        ];
        self.set_attributes(obj, attrs);
        self.st.rtti.entries.push((obj, Described::Object(def)));
        Ok(obj)
    }

    /// Methods of `cl_abap_objectdescr`/`cl_abap_classdescr`; `None` for others.
    pub(super) fn object_method(
        &mut self,
        me: Option<&Value>,
        method: &str,
        bound: &Bound,
    ) -> Exec<Option<Results>> {
        if method == "GET_CLASS_NAME" {
            // `cl_abap_classdescr=>get_class_name( obj )`: the absolute name of its class.
            let class = match bound.inputs.iter().find(|(k, _)| k == "P_OBJECT") {
                Some((
                    _,
                    Value::Ref {
                        target: Some(o), ..
                    },
                )) => self
                    .st
                    .object_class(*o)
                    .and_then(|k| self.st.class_by_key(k)),
                _ => {
                    return Err(self.dump(
                        "OBJECTS_OBJREF_NOT_ASSIGNED",
                        "get_class_name( ) of an initial reference",
                    ));
                }
            };
            let Some(class) = class else {
                return Err(self.not_supported("get_class_name( ) of this object"));
            };
            return Ok(Some(returning("P_RESULT", text(&class_path(class)))));
        }
        if !matches!(method, "GET_ATTRIBUTE_TYPE" | "GET_SUPER_CLASS_TYPE") {
            return Ok(None);
        }
        let (_, d) = self.described(me, method)?;
        let Described::Object(def) = d else {
            return Err(self.not_supported(&format!("{method} of a data type description")));
        };
        Ok(Some(match method {
            "GET_ATTRIBUTE_TYPE" => {
                let wanted = match bound.inputs.iter().find(|(k, _)| k == "P_NAME") {
                    Some((_, v)) => v.to_abap_string().map_err(|e| self.conv_error(e))?,
                    None => String::new(),
                };
                let wanted = wanted.trim().to_ascii_uppercase();
                let found = self.st.lineage(def).into_iter().find_map(|c| {
                    let a = c.attributes.iter().find(|a| a.name == wanted)?;
                    Some((c, a.ty.clone().ok()?))
                });
                let Some((c, ty)) = found else {
                    return Err(self.classic_exception(method, "ATTRIBUTE_NOT_FOUND"));
                };
                let resolved = self.resolve_type(c, None, &ty, &[])?;
                let spec = Spec {
                    class: c,
                    method: None,
                    ty,
                };
                let obj = self.data_descriptor(&resolved, Some(spec), None)?;
                returning("P_DESCR_REF", self.descriptor_ref(obj))
            }
            "GET_SUPER_CLASS_TYPE" => {
                let Some(sup) = self.st.superclass(def) else {
                    return Err(self.classic_exception(method, "SUPER_CLASS_NOT_FOUND"));
                };
                let obj = self.object_descriptor(sup)?;
                returning("P_DESCR_REF", self.descriptor_ref(obj))
            }
            _ => return Err(self.not_supported(&format!("cl_abap_classdescr=>{method}"))),
        }))
    }
}
