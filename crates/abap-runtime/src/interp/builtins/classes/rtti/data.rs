//! Descriptors of data types: what `describe_by_data( )` finds for a data object (its type and
//! the names it was declared with), the attributes of `cl_abap_elemdescr`,
//! `cl_abap_structdescr`, `cl_abap_tabledescr` and `cl_abap_refdescr`, their methods, and the
//! types programs create at run time (`cl_abap_elemdescr=>get_c( )`,
//! `cl_abap_structdescr=>create( )`, `cl_abap_tabledescr=>create( )`,
//! `cl_abap_refdescr=>create( )`), which `CREATE DATA … TYPE HANDLE` instantiates.

use std::sync::Arc;

use super::names::{Spec, TypeName, builtin_name, global_name};
use super::registry::Described;
use super::{abap_bool, classes, returning};
use crate::interp::bound::Bound;
use crate::interp::builtins::classes::native::Results;
use crate::interp::{Exec, Interp};
use abap_data::place::{Place, Slot, Step};
use abap_data::value::{
    MAX_C_LENGTH, MAX_X_LENGTH, ObjId, StructType, TableKey, TableKind, TableType, Type, Value,
};
use abap_syntax::ast::{Expr, Path};

/// `type_kind` of a data type (`None` for generic types).
fn type_kind(ty: &Type) -> Option<&'static str> {
    Some(match ty {
        Type::I => "I",
        Type::Int8 => "8",
        Type::F => "F",
        Type::P { .. } => "P",
        Type::C(_) => "C",
        Type::N(_) => "N",
        Type::D => "D",
        Type::T => "T",
        Type::X(_) => "X",
        Type::String => "g",
        Type::XString => "y",
        Type::DecFloat16 => "a",
        Type::DecFloat34 => "e",
        Type::Struct(_) if ty.is_deep() => "v",
        Type::Struct(_) => "u",
        Type::Table(_) => "h",
        Type::DataRef(_) => "l",
        Type::Ref(_) => "r",
        _ => return None,
    })
}

/// `kind` and the descriptor class of a data type.
fn kind_and_class(ty: &Type) -> (&'static str, &'static str) {
    match ty {
        Type::Struct(_) => ("S", classes::STRUCTDESCR),
        Type::Table(_) => ("T", classes::TABLEDESCR),
        Type::DataRef(_) | Type::Ref(_) => ("R", classes::REFDESCR),
        _ => ("E", classes::ELEMDESCR),
    }
}

/// `length` in bytes on a Unicode system: two bytes per character, references, strings and
/// tables 8.
fn byte_length(ty: &Type) -> i32 {
    match ty {
        Type::Table(_) | Type::Ref(_) | Type::DataRef(_) | Type::String | Type::XString => 8,
        t => i32::try_from(t.byte_len()).unwrap_or(i32::MAX),
    }
}

fn decimals(ty: &Type) -> i32 {
    match ty {
        Type::P { dec, .. } => i32::try_from(*dec).unwrap_or(0),
        _ => 0,
    }
}

/// `output_length` of an elementary type where it is certain (characters of its text form);
/// 0 for numbers with decimals, floating point and strings.
fn output_length(ty: &Type) -> i32 {
    let n = match ty {
        Type::C(n) | Type::N(n) => *n,
        Type::X(n) => n.saturating_mul(2),
        Type::D => 8,
        Type::T => 6,
        Type::I => 11,
        Type::Int8 => 20,
        _ => 0,
    };
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// `struct_kind`: flat, nested (flat with substructures) or deep.
fn struct_kind(st: &StructType) -> &'static str {
    if st.comps.iter().any(|(_, t)| t.is_deep()) {
        "D"
    } else if st.comps.iter().any(|(_, t)| matches!(t, Type::Struct(_))) {
        "N"
    } else {
        "F"
    }
}

/// `type_kind`, `length` and `decimals` of a data type.
pub(super) fn facts(ty: &Type) -> (&'static str, i32, i32) {
    (type_kind(ty).unwrap_or(" "), byte_length(ty), decimals(ty))
}

/// A table of the dictionary type `table_ty` whose rows have the given components (the
/// others initial).
pub(super) fn table_value(table_ty: &Type, rows: Vec<Vec<(&str, Value)>>) -> Value {
    let Type::Table(tt) = table_ty else {
        return table_ty.initial();
    };
    let Type::Struct(line) = &tt.line else {
        return table_ty.initial();
    };
    let rows = rows
        .into_iter()
        .map(|fields| {
            let vals: Box<[Value]> = line
                .comps
                .iter()
                .map(|(n, t)| {
                    fields
                        .iter()
                        .find(|(f, _)| f == n)
                        .and_then(|(_, v)| v.convert(t).ok())
                        .unwrap_or_else(|| t.initial())
                })
                .collect();
            Value::Struct(line.clone(), vals)
        })
        .collect();
    Value::Table(tt.clone(), Box::new(rows))
}

fn rtti_table(name: &str) -> Type {
    abap_data::ddic::rtti_type(name).unwrap_or(Type::Any)
}

fn text(v: &str) -> Value {
    Value::Str(v.into())
}

/// The text of a component of a row value.
fn field(row: &Value, name: &str) -> Option<Value> {
    let Value::Struct(st, vals) = row else {
        return None;
    };
    vals.get(st.index_of(name)?).cloned()
}

fn field_text(row: &Value, name: &str) -> String {
    field(row, name)
        .and_then(|v| v.to_abap_string().ok())
        .unwrap_or_default()
        .trim()
        .to_string()
}

impl<'r> Interp<'r, '_> {
    /// The type of the data object `e` stands for, where it was declared and its names.
    pub(super) fn expr_type(
        &mut self,
        e: &Expr,
    ) -> Exec<(Type, Option<Spec<'r>>, Option<TypeName>)> {
        if let Expr::Path(p) = e {
            self.prepare_path(p)?;
            let f = self.top();
            if let Some(place) = self.st.place(f, p)
                && let Some(ty) = self.place_type(&place)
            {
                let (spec, name) = self.place_naming(&place);
                return Ok((ty, spec, name));
            }
            if p.rest.is_empty()
                && matches!(
                    p.base.as_str(),
                    "ABAP_TRUE" | "ABAP_FALSE" | "ABAP_UNDEFINED"
                )
            {
                return Ok((Type::C(1), None, Some(global_name("ABAP_BOOL"))));
            }
        }
        let v = self.eval(e)?;
        Ok((v.type_of(), None, None))
    }

    /// The name of the type of an actual parameter (for a generic formal parameter), when
    /// it has one.
    pub fn actual_type_name(&mut self, e: &Expr) -> Option<TypeName> {
        let Expr::Path(p) = e else {
            return None;
        };
        if p.rest.is_empty()
            && matches!(
                p.base.as_str(),
                "ABAP_TRUE" | "ABAP_FALSE" | "ABAP_UNDEFINED"
            )
        {
            return Some(global_name("ABAP_BOOL"));
        }
        let place = self.st.place(self.top(), p)?;
        let (spec, name) = self.place_naming(&place);
        name.or_else(|| self.spec_name(&spec?))
    }

    /// Where the data object at `place` was declared: the spec of its type, or for a generic
    /// parameter the name of its actual parameter's type.
    fn place_naming(&self, place: &Place) -> (Option<Spec<'r>>, Option<TypeName>) {
        let (mut spec, name) = self.slot_naming(&place.slot);
        if place.steps.is_empty() {
            return (spec, name);
        }
        for step in &place.steps {
            spec = spec.and_then(|s| match step {
                Step::Comp(i) => self.component_spec(&s, *i),
                Step::Row(_) => self.line_spec(&s),
            });
        }
        (spec, None)
    }

    fn slot_naming(&self, slot: &Slot) -> (Option<Spec<'r>>, Option<TypeName>) {
        let Some(var) = self.st.slot_var(slot) else {
            return (None, None);
        };
        match slot {
            Slot::Frame(fi, vi) => {
                let Some(frame) = self.st.frames.get(*fi) else {
                    return (None, None);
                };
                let declared = if *vi < frame.n_params {
                    if let Some((_, n)) = frame.actual_types.iter().find(|(p, _)| *p == var.name) {
                        return (None, Some(n.clone()));
                    }
                    let decl = self.method_decl(frame.class, &frame.method.name);
                    decl.params
                        .iter()
                        .find(|p| p.name == var.name)
                        .and_then(|p| p.ty.clone().ok())
                } else {
                    frame
                        .method
                        .locals
                        .iter()
                        .find(|d| d.name == var.name)
                        .and_then(|d| d.ty.clone().ok())
                };
                match declared {
                    Some(Type::Any) | None => (None, None),
                    Some(ty) => (
                        Some(Spec {
                            class: frame.class,
                            method: Some(frame.method),
                            ty,
                        }),
                        None,
                    ),
                }
            }
            Slot::Attr(..) | Slot::Static(..) => {
                let key = match slot {
                    Slot::Attr(o, _) => self.st.object_class(*o).unwrap_or_default(),
                    Slot::Static(k, _) => k.as_str(),
                    _ => "",
                };
                let Some(class) = self.st.class_by_key(key) else {
                    return (None, None);
                };
                let found = self.st.lineage(class).into_iter().find_map(|c| {
                    let d = c.attributes.iter().find(|a| a.name == var.name)?;
                    Some((c, d.ty.clone().ok()?))
                });
                match found {
                    Some((c, ty)) => (
                        Some(Spec {
                            class: c,
                            method: None,
                            ty,
                        }),
                        None,
                    ),
                    None => (None, None),
                }
            }
            Slot::Sy(_) => {
                let element = format!("SYST_{}", var.name);
                match abap_data::ddic::global_type(&element) {
                    Some(_) => (None, Some(global_name(&element))),
                    None => (None, None),
                }
            }
            Slot::Anon(_) => (None, None),
        }
    }

    /// A structure or table type named by its own name in the calling procedure, or a
    /// built-in type: its spec and names.
    fn names_from_type(&self, ty: &Type) -> Option<(Option<Spec<'r>>, TypeName)> {
        if let Some(b) = builtin_name(ty) {
            return Some((None, global_name(b)));
        }
        let name = match ty {
            Type::Struct(s) => s.name.clone(),
            Type::Table(t) => t.name.clone(),
            _ => return None,
        };
        if name.is_empty() {
            return None;
        }
        let frame = self.st.frames.last()?;
        let spec = Spec {
            class: frame.class,
            method: Some(frame.method),
            ty: Type::Named(name),
        };
        let resolved = self
            .resolve_type(spec.class, spec.method, &spec.ty, &[])
            .ok()?;
        if resolved != *ty {
            return None;
        }
        let n = self.spec_name(&spec)?;
        Some((Some(spec), n))
    }

    /// The descriptor object of the data type `ty`: the one made before for the same type,
    /// or a new one.
    pub(super) fn data_descriptor(
        &mut self,
        ty: &Type,
        spec: Option<Spec<'r>>,
        name: Option<TypeName>,
    ) -> Exec<ObjId> {
        let named = name.or_else(|| spec.as_ref().and_then(|s| self.spec_name(s)));
        let (spec, name) = match named {
            Some(n) => (spec, Some(n)),
            None => match self.names_from_type(ty) {
                Some((s, n)) => (s.or(spec), Some(n)),
                None => (spec, None),
            },
        };
        let existing = match &name {
            Some(n) => self.st.rtti.data_by_name(&n.absolute),
            None => self.st.rtti.technical_for(ty),
        };
        if let Some(obj) = existing {
            return Ok(obj);
        }
        let Some(tk) = type_kind(ty) else {
            return Err(self.not_supported("a type description of a generic type"));
        };
        let name = match name {
            Some(n) => n,
            None => self.st.rtti.next_technical(),
        };
        let (kind, class) = kind_and_class(ty);
        let Some(def) = crate::interp::builtins::classes::class(class) else {
            return Err(self.not_supported(class));
        };
        let obj = self.create_object(def, None)?;
        let mut attrs = vec![
            ("ABSOLUTE_NAME", text(&name.absolute)),
            ("TYPE_KIND", Value::C(tk.into())),
            ("LENGTH", Value::I(byte_length(ty))),
            ("DECIMALS", Value::I(decimals(ty))),
            ("KIND", Value::C(kind.into())),
        ];
        match ty {
            Type::Struct(st) => {
                let rows = st
                    .comps
                    .iter()
                    .map(|(n, t)| {
                        vec![
                            ("LENGTH", Value::I(byte_length(t))),
                            ("DECIMALS", Value::I(decimals(t))),
                            ("TYPE_KIND", Value::C(type_kind(t).unwrap_or(" ").into())),
                            ("NAME", text(n)),
                        ]
                    })
                    .collect();
                attrs.push(("STRUCT_KIND", Value::C(struct_kind(st).into())));
                attrs.push((
                    "COMPONENTS",
                    table_value(&rtti_table("ABAP_COMPDESCR_TAB"), rows),
                ));
                attrs.push(("HAS_INCLUDE", abap_bool(false)));
            }
            Type::Table(tt) => {
                let (kind, defkind) = table_kinds(tt);
                let keys = tt
                    .key_comps()
                    .into_iter()
                    .map(|k| vec![("NAME", text(&k))])
                    .collect();
                attrs.push(("TABLE_KIND", Value::C(kind.into())));
                attrs.push(("HAS_UNIQUE_KEY", abap_bool(tt.unique)));
                attrs.push(("KEY", table_value(&rtti_table("ABAP_KEYDESCR_TAB"), keys)));
                attrs.push(("KEY_DEFKIND", Value::C(defkind.into())));
            }
            Type::DataRef(_) | Type::Ref(_) => {}
            t => attrs.push(("OUTPUT_LENGTH", Value::I(output_length(t)))),
        }
        self.set_attributes(obj, attrs);
        self.st.rtti.entries.push((
            obj,
            Described::Data {
                ty: ty.clone(),
                name,
                spec,
            },
        ));
        Ok(obj)
    }

    /// Sets public attributes of a descriptor object.
    pub(super) fn set_attributes(&mut self, obj: ObjId, attrs: Vec<(&str, Value)>) {
        let Some(o) = self.st.heap.get_mut(obj) else {
            return;
        };
        for (name, v) in attrs {
            if let Some(a) = o.attrs.iter_mut().find(|a| a.name == name)
                && let Ok(v) = v.convert(&a.ty)
            {
                a.val = v;
            }
        }
    }

    /// `describe_by_data_ref( dref )`: the type of the data object `dref` points to.
    pub(super) fn describe_data_ref(&mut self, v: Option<&Value>) -> Exec<ObjId> {
        let place = match v {
            Some(Value::DataRef(r)) => r.target.as_ref().map(|t| t.place.clone()),
            _ => None,
        };
        let Some(place) = place else {
            return Err(self.classic_exception("DESCRIBE_BY_DATA_REF", "REFERENCE_IS_INITIAL"));
        };
        let Some(ty) = self.place_type(&place) else {
            return Err(self.not_supported("describe_by_data_ref of a vanished data object"));
        };
        let (spec, name) = self.place_naming(&place);
        self.data_descriptor(&ty, spec, name)
    }

    /// Methods of the data descriptor classes; `None` when `method` is none of them.
    pub(super) fn data_method(
        &mut self,
        class: &str,
        me: Option<&Value>,
        method: &str,
        bound: &Bound,
    ) -> Exec<Option<Results>> {
        let input = |n: &str| bound.inputs.iter().find(|(k, _)| k == n).map(|(_, v)| v);
        let int_input = |it: &Self, n: &str| -> Exec<i64> {
            match input(n) {
                Some(v) => match v.convert(&Type::I).map_err(|e| it.conv_error(e))? {
                    Value::I(n) => Ok(i64::from(n)),
                    _ => Ok(0),
                },
                None => Ok(0),
            }
        };
        let result = |it: &mut Self, ty: Type| -> Exec<Results> {
            let obj = it.data_descriptor(&ty, None, None)?;
            Ok(returning("P_RESULT", it.descriptor_ref(obj)))
        };
        Ok(Some(match (class, method) {
            (classes::ELEMDESCR, getter) if getter.starts_with("GET_") => {
                let len = int_input(self, "P_LENGTH")?;
                let ty = match getter {
                    "GET_I" => Type::I,
                    "GET_INT8" => Type::Int8,
                    "GET_F" => Type::F,
                    "GET_STRING" => Type::String,
                    "GET_XSTRING" => Type::XString,
                    "GET_D" => Type::D,
                    "GET_T" => Type::T,
                    "GET_DECFLOAT16" => Type::DecFloat16,
                    "GET_DECFLOAT34" => Type::DecFloat34,
                    "GET_C" | "GET_N" | "GET_X" => {
                        let max = if getter == "GET_X" {
                            MAX_X_LENGTH
                        } else {
                            MAX_C_LENGTH
                        };
                        let n = match u32::try_from(len) {
                            Ok(n) if (1..=max).contains(&n) => n,
                            _ => return Err(self.raise_rtti("CX_PARAMETER_INVALID_RANGE")),
                        };
                        match getter {
                            "GET_C" => Type::C(n),
                            "GET_N" => Type::N(n),
                            _ => Type::X(n),
                        }
                    }
                    "GET_P" => {
                        let dec = int_input(self, "P_DECIMALS")?;
                        match (u32::try_from(len), u32::try_from(dec)) {
                            (Ok(len), Ok(dec))
                                if (1..=16).contains(&len) && dec <= 14 && dec < 2 * len =>
                            {
                                Type::P { len, dec }
                            }
                            _ => return Err(self.raise_rtti("CX_PARAMETER_INVALID_RANGE")),
                        }
                    }
                    _ => return Ok(None),
                };
                result(self, ty)?
            }
            (classes::STRUCTDESCR, "CREATE" | "GET") => {
                let ty = self.struct_from_components(input("P_COMPONENTS"))?;
                result(self, ty)?
            }
            (classes::TABLEDESCR, "CREATE" | "GET") => {
                let ty = self.table_from_parameters(&input)?;
                result(self, ty)?
            }
            (classes::REFDESCR, "CREATE" | "GET") => {
                let ty = match input("P_REFERENCED_TYPE") {
                    Some(v) => match self.described(Some(v), method)?.1 {
                        Described::Data { ty, .. } => Type::DataRef(Box::new(ty)),
                        Described::Object(c) => Type::Ref(c.name.clone()),
                    },
                    None => return Err(self.raise_rtti("CX_SY_REF_CREATION")),
                };
                result(self, ty)?
            }
            (classes::REFDESCR, "GET_REF_TO_DATA") => {
                result(self, Type::DataRef(Box::new(Type::Any)))?
            }
            (classes::REFDESCR, "GET_REF_TO_OBJECT") => result(self, Type::Ref("OBJECT".into()))?,
            (
                _,
                "GET_COMPONENTS"
                | "GET_INCLUDED_VIEW"
                | "GET_COMPONENT_TYPE"
                | "GET_TABLE_LINE_TYPE"
                | "GET_REFERENCED_TYPE",
            ) => {
                let (_, d) = self.described(me, method)?;
                let Described::Data { ty, spec, .. } = d else {
                    return Err(self.not_supported(&format!("{method} of a class description")));
                };
                self.part_method(method, &ty, spec, input("P_NAME"))?
            }
            _ => return Ok(None),
        }))
    }

    /// The methods that describe a part of a type: components, line type, referenced type.
    fn part_method(
        &mut self,
        method: &str,
        ty: &Type,
        spec: Option<Spec<'r>>,
        name: Option<&Value>,
    ) -> Exec<Results> {
        match (method, ty) {
            // Included structures are already resolved into their components here, so the
            // included view is the components' names and types.
            ("GET_COMPONENTS" | "GET_INCLUDED_VIEW", Type::Struct(st)) => {
                // `get_components( )` shows an `INCLUDE` as one component (`as_include`);
                // the structure here holds the included components themselves.
                if method == "GET_COMPONENTS" && self.has_include(spec.as_ref()) {
                    return Err(self.not_supported("get_components( ) of a structure with INCLUDE"));
                }
                let mut rows = Vec::with_capacity(st.comps.len());
                for (i, (n, t)) in st.comps.iter().enumerate() {
                    let part = spec.as_ref().and_then(|s| self.component_spec(s, i));
                    let obj = self.data_descriptor(t, part, None)?;
                    rows.push(vec![
                        ("NAME", text(n)),
                        ("TYPE", self.descriptor_ref(obj)),
                        ("AS_INCLUDE", abap_bool(false)),
                    ]);
                }
                let table = if method == "GET_INCLUDED_VIEW" {
                    "ABAP_COMPONENT_VIEW_TAB"
                } else {
                    "ABAP_COMPONENT_TAB"
                };
                let v = table_value(&rtti_table(table), rows);
                Ok(returning("P_RESULT", v))
            }
            ("GET_COMPONENT_TYPE", Type::Struct(st)) => {
                let wanted = match name {
                    Some(v) => v.to_abap_string().map_err(|e| self.conv_error(e))?,
                    None => String::new(),
                };
                let wanted = wanted.trim().to_ascii_uppercase();
                let Some(i) = st.index_of(&wanted) else {
                    return Err(self.classic_exception(method, "COMPONENT_NOT_FOUND"));
                };
                let part = spec.as_ref().and_then(|s| self.component_spec(s, i));
                let t = st.comps[i].1.clone();
                let obj = self.data_descriptor(&t, part, None)?;
                Ok(returning("P_DESCR_REF", self.descriptor_ref(obj)))
            }
            ("GET_TABLE_LINE_TYPE", Type::Table(tt)) => {
                let part = spec.as_ref().and_then(|s| self.line_spec(s));
                let obj = self.data_descriptor(&tt.line, part, None)?;
                Ok(returning("P_DESCR_REF", self.descriptor_ref(obj)))
            }
            ("GET_REFERENCED_TYPE", Type::DataRef(inner)) if **inner != Type::Any => {
                let part = spec.as_ref().and_then(|s| self.referenced_spec(s));
                let obj = self.data_descriptor(inner, part, None)?;
                Ok(returning("P_DESCR_REF", self.descriptor_ref(obj)))
            }
            ("GET_REFERENCED_TYPE", Type::Ref(class)) => {
                let program = spec
                    .as_ref()
                    .map(|s| s.class.program.clone())
                    .unwrap_or_default();
                let Some(def) = self.st.find_class(&program, class) else {
                    return Err(self.not_supported(&format!("the referenced type {class}")));
                };
                let obj = self.object_descriptor(def)?;
                Ok(returning("P_DESCR_REF", self.descriptor_ref(obj)))
            }
            _ => Err(self.not_supported(&format!("{method} of this type description"))),
        }
    }

    /// Whether the structure `spec` describes was declared with `INCLUDE TYPE`.
    fn has_include(&self, spec: Option<&Spec<'r>>) -> bool {
        spec.and_then(|s| self.expand(s)).is_some_and(
            |s| matches!(&s.ty, Type::Struct(st) if st.comps.iter().any(|(n, _)| n.is_empty())),
        )
    }

    /// A new exception object of a built-in class (the RTTI creation errors).
    pub(super) fn raise_rtti(&mut self, class: &str) -> crate::interp::Unwind {
        let Some(def) = crate::interp::builtins::classes::class(class) else {
            return self.not_supported(class);
        };
        match self.create_object(def, None) {
            Ok(obj) => crate::interp::Unwind::Exception(obj),
            Err(e) => e,
        }
    }

    /// The structure type `cl_abap_structdescr=>create( p_components )` describes.
    fn struct_from_components(&mut self, comps: Option<&Value>) -> Exec<Type> {
        let rows: Vec<Value> = match comps {
            Some(Value::Table(_, rows)) => rows.to_vec(),
            _ => Vec::new(),
        };
        if rows.is_empty() {
            return Err(self.raise_rtti("CX_SY_STRUCT_ATTRIBUTES"));
        }
        let mut out: Vec<(String, Type)> = Vec::new();
        for row in &rows {
            let name = field_text(row, "NAME").to_ascii_uppercase();
            let (_, d) = match field(row, "TYPE") {
                Some(
                    v @ Value::Ref {
                        target: Some(_), ..
                    },
                ) => self.described(Some(&v), "create")?,
                _ => return Err(self.raise_rtti("CX_SY_STRUCT_COMP_TYPE")),
            };
            let Described::Data { ty, .. } = d else {
                return Err(self.raise_rtti("CX_SY_STRUCT_COMP_TYPE"));
            };
            let include = field_text(row, "AS_INCLUDE") == "X";
            let parts = match (include, ty) {
                (true, Type::Struct(st)) => {
                    let suffix = field_text(row, "SUFFIX").to_ascii_uppercase();
                    st.comps
                        .iter()
                        .map(|(n, t)| (format!("{n}{suffix}"), t.clone()))
                        .collect()
                }
                (true, _) => return Err(self.raise_rtti("CX_SY_STRUCT_COMP_TYPE")),
                (false, ty) => vec![(name, ty)],
            };
            for (n, t) in parts {
                let valid = !n.is_empty()
                    && n.len() <= 30
                    && n.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '/')
                    && !out.iter().any(|(o, _)| *o == n);
                if !valid {
                    return Err(self.raise_rtti("CX_SY_STRUCT_COMP_NAME"));
                }
                out.push((n, t));
            }
        }
        Ok(Type::Struct(Arc::new(StructType {
            name: String::new(),
            comps: out,
        })))
    }

    /// The table type `cl_abap_tabledescr=>create( … )` describes.
    fn table_from_parameters<'a>(
        &mut self,
        input: &dyn Fn(&str) -> Option<&'a Value>,
    ) -> Exec<Type> {
        let flag = |n: &str| {
            input(n)
                .and_then(|v| v.to_abap_string().ok())
                .unwrap_or_default()
                .trim()
                .to_string()
        };
        let line = match input("P_LINE_TYPE") {
            Some(
                v @ Value::Ref {
                    target: Some(_), ..
                },
            ) => match self.described(Some(v), "create")?.1 {
                Described::Data { ty, .. } => ty,
                Described::Object(_) => return Err(self.raise_rtti("CX_SY_TABLE_CREATION")),
            },
            _ => return Err(self.raise_rtti("CX_SY_TABLE_CREATION")),
        };
        let kind = match flag("P_TABLE_KIND").as_str() {
            "" | "S" => TableKind::Standard,
            "O" => TableKind::Sorted,
            "H" => TableKind::Hashed,
            _ => return Err(self.raise_rtti("CX_SY_TABLE_CREATION")),
        };
        let unique = flag("P_UNIQUE") == "X";
        let named: Vec<String> = match input("P_KEY") {
            Some(Value::Table(_, rows)) => rows
                .iter()
                .map(|r| field_text(r, "NAME").to_ascii_uppercase())
                .collect(),
            _ => Vec::new(),
        };
        let key = if named.is_empty() {
            match flag("P_KEY_KIND").as_str() {
                "" | "D" => TableKey::Default,
                "E" => TableKey::Empty,
                "L" => TableKey::Comps(vec!["TABLE_LINE".into()]),
                _ => return Err(self.raise_rtti("CX_SY_TABLE_CREATION")),
            }
        } else {
            if let Type::Struct(st) = &line
                && named
                    .iter()
                    .any(|k| k != "TABLE_LINE" && st.index_of(k).is_none())
            {
                return Err(self.raise_rtti("CX_SY_TABLE_CREATION"));
            }
            TableKey::Comps(named)
        };
        let consistent = match kind {
            TableKind::Standard => !unique,
            TableKind::Hashed => unique && key != TableKey::Empty,
            TableKind::Sorted => key != TableKey::Empty,
        };
        if !consistent {
            return Err(self.raise_rtti("CX_SY_TABLE_CREATION"));
        }
        Ok(Type::Table(Arc::new(TableType {
            name: String::new(),
            kind,
            line,
            unique,
            key,
            secondary: Vec::new(),
        })))
    }

    /// `CREATE DATA dref TYPE HANDLE descr`.
    pub fn exec_create_data_handle(&mut self, target: &Path, handle: &Expr) -> Exec<()> {
        let v = self.eval(handle)?;
        let (_, d) = self.described(Some(&v), "CREATE DATA … TYPE HANDLE")?;
        let ty = match d {
            Described::Data { ty, .. } => ty,
            Described::Object(_) => {
                return Err(self.dump(
                    "CREATE_DATA_ILLEGAL_HANDLE",
                    "CREATE DATA … TYPE HANDLE with the description of a class",
                ));
            }
        };
        if matches!(&ty, Type::DataRef(t) if **t == Type::Any) || ty == Type::Any {
            return Err(self.not_supported("CREATE DATA … TYPE HANDLE of a generic type"));
        }
        let target_ty = self.target_type_of(target)?;
        if !matches!(target_ty, Type::DataRef(_)) {
            return Err(self.not_supported(&format!(
                "CREATE DATA for {} that is no data reference",
                target.text()
            )));
        }
        let r = self.new_anonymous(ty.clone(), ty.initial());
        self.assign_value(target, r)
    }
}

/// `table_kind` and `key_defkind` of a table type.
fn table_kinds(tt: &TableType) -> (&'static str, &'static str) {
    let kind = match tt.kind {
        TableKind::Standard => "S",
        TableKind::Sorted => "O",
        TableKind::Hashed => "H",
    };
    let defkind = match &tt.key {
        TableKey::Default => "D",
        TableKey::Empty => "E",
        TableKey::Comps(c) if c.len() == 1 && c[0] == "TABLE_LINE" => "L",
        TableKey::Comps(_) => "U",
    };
    (kind, defkind)
}
