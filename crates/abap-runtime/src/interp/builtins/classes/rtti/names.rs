//! Absolute type names (`\TYPE=I`, `\CLASS=ZCL_X\TYPE=TY_S`,
//! `\PROGRAM=ZREPORT\CLASS=LCL\METHOD=M\TYPE=TY`, `\TYPE-POOL=ABAP\TYPE=ABAP_BOOL`): where a
//! type written in code was defined, seen from the code that names it. A type that exists
//! only as the property of a data object (`c LENGTH 10`, `TABLE OF i`, a type created at run
//! time) has no relative name; its absolute name is a technical one, `\TYPE=%_T` and a
//! number the simulator counts (a real system's numbers are its own).

use crate::interp::Interp;
use abap_data::value::Type;
use abap_syntax::ast::{ClassDef, MethodImpl, Sel};
use abap_syntax::parser::words::parse_path;

/// Nesting bound when following type names to their definitions.
const MAX_FOLLOW: usize = 32;

/// A type as written in code (`ty_s`, `TABLE OF ty_s`, `abap_bool`), with the procedure and
/// class it was written in: what names it and its parts.
#[derive(Debug, Clone)]
pub struct Spec<'r> {
    pub class: &'r ClassDef,
    pub method: Option<&'r MethodImpl>,
    pub ty: Type,
}

/// The names of a type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeName {
    pub absolute: String,
    /// Empty for technical (anonymous) types.
    pub relative: String,
    /// A type of the ABAP Dictionary.
    pub ddic: bool,
}

/// Where a type name is defined.
enum Scope<'r> {
    Method(&'r ClassDef, &'r MethodImpl),
    Class(&'r ClassDef),
    /// The dictionary, a type pool or the built-in types.
    Global,
}

/// Built-in ABAP types with a complete technical type: their absolute name is `\TYPE=` and
/// their name, and they are no dictionary types.
const BUILTIN: &[&str] = &[
    "I",
    "INT8",
    "F",
    "STRING",
    "XSTRING",
    "D",
    "T",
    "DECFLOAT16",
    "DECFLOAT34",
    "UTCLONG",
];

/// The name of a built-in type that needs no length (`i`, `string`, …).
pub fn builtin_name(ty: &Type) -> Option<&'static str> {
    Some(match ty {
        Type::I => "I",
        Type::Int8 => "INT8",
        Type::F => "F",
        Type::String => "STRING",
        Type::XString => "XSTRING",
        Type::D => "D",
        Type::T => "T",
        Type::DecFloat16 => "DECFLOAT16",
        Type::DecFloat34 => "DECFLOAT34",
        _ => return None,
    })
}

/// `\TYPE=…` of a global type: the type pool `ABAP` for its types, else the dictionary.
pub fn global_name(name: &str) -> TypeName {
    let absolute = if abap_data::ddic::in_abap_type_pool(name) {
        format!("\\TYPE-POOL=ABAP\\TYPE={name}")
    } else {
        format!("\\TYPE={name}")
    };
    TypeName {
        absolute,
        relative: name.to_string(),
        ddic: !BUILTIN.contains(&name) && !abap_data::ddic::in_abap_type_pool(name),
    }
}

/// The absolute name of a class or interface (`\CLASS=ZCL_X`,
/// `\CLASS-POOL=ZCL_X\CLASS=LCL_Y`, `\PROGRAM=ZREPORT\CLASS=LCL`), or of a program's own
/// context (`\PROGRAM=ZREPORT`, `\CLASS-POOL=ZCL_X`) for its pseudo class.
pub fn class_path(class: &ClassDef) -> String {
    let own = |c: &ClassDef| {
        let kind = if c.is_interface { "INTERFACE" } else { "CLASS" };
        format!("\\{kind}={}", c.name)
    };
    if class.key == class.name {
        return own(class);
    }
    let pool = program_path(&class.program);
    if class.key == abap_syntax::parser::program_key(&class.program) {
        pool
    } else {
        format!("{pool}{}", own(class))
    }
}

/// `\CLASS-POOL=ZCL_X` for a class pool (`ZCL_X=====…CP`), `\PROGRAM=…` otherwise.
fn program_path(program: &str) -> String {
    if program.len() == 32
        && let Some(name) = program.strip_suffix("CP")
    {
        return format!("\\CLASS-POOL={}", name.trim_end_matches('='));
    }
    format!("\\PROGRAM={program}")
}

impl<'r> Interp<'r, '_> {
    /// Where `name` is defined, seen from `method` of `class` (the lookup order of
    /// `resolve_type`): the procedure, the class and its superclasses, the program, then
    /// the global types; with its definition.
    fn locate_type(
        &self,
        class: &'r ClassDef,
        method: Option<&'r MethodImpl>,
        name: &str,
    ) -> Option<(Scope<'r>, String, Type)> {
        if let Some(path) = parse_path(name)
            && let [(Sel::Static, tname)] = path.rest.as_slice()
        {
            let owner = self.st.find_class(&class.program, &path.base)?;
            return self.locate_type(owner, None, tname);
        }
        if let Some((intf, tname)) = name.split_once('~') {
            let owner = self.st.find_class(&class.program, intf)?;
            return self.locate_type(owner, None, tname);
        }
        if name.contains('-') || name.contains("=>") || name.contains('~') {
            return None;
        }
        if let Some(m) = method
            && let Some((_, t)) = m.types.iter().rev().find(|(n, _)| n == name)
        {
            return Some((Scope::Method(class, m), name.into(), t.clone().ok()?));
        }
        for c in self.st.lineage(class) {
            if let Some((_, t)) = c.types.iter().find(|(n, _)| n == name) {
                return Some((Scope::Class(c), name.into(), t.clone().ok()?));
            }
        }
        if let Some(p) = self
            .st
            .classes
            .get(&abap_syntax::parser::program_key(&class.program))
            && let Some((_, t)) = p.types.iter().find(|(n, _)| n == name)
        {
            return Some((Scope::Class(p), name.into(), t.clone().ok()?));
        }
        let global = abap_data::ddic::global_type(name).or_else(|| self.database_type(name))?;
        Some((Scope::Global, name.into(), global))
    }

    /// The names of the type `spec` stands for; `None` for a technical type.
    pub(super) fn spec_name(&self, spec: &Spec<'r>) -> Option<TypeName> {
        if let Some(b) = builtin_name(&spec.ty) {
            return Some(global_name(b));
        }
        let Type::Named(name) = &spec.ty else {
            return None;
        };
        let (scope, relative, _) = self.locate_type(spec.class, spec.method, name)?;
        let absolute = match scope {
            Scope::Method(c, m) => format!("{}\\METHOD={}\\TYPE={relative}", class_path(c), m.name),
            Scope::Class(c) => format!("{}\\TYPE={relative}", class_path(c)),
            Scope::Global => return Some(global_name(&relative)),
        };
        Some(TypeName {
            absolute,
            relative,
            ddic: false,
        })
    }

    /// `spec` with its type names replaced by their definitions (in their own context) until
    /// it is a structure, table or reference written out, or an elementary type.
    pub(super) fn expand(&self, spec: &Spec<'r>) -> Option<Spec<'r>> {
        let mut cur = spec.clone();
        for _ in 0..MAX_FOLLOW {
            let Type::Named(name) = &cur.ty else {
                return Some(cur);
            };
            let (scope, _, def) = self.locate_type(cur.class, cur.method, name)?;
            cur = match scope {
                Scope::Method(c, m) => Spec {
                    class: c,
                    method: Some(m),
                    ty: def,
                },
                Scope::Class(c) => Spec {
                    class: c,
                    method: None,
                    ty: def,
                },
                Scope::Global => Spec {
                    class: cur.class,
                    method: None,
                    ty: def,
                },
            };
        }
        None
    }

    /// The spec of component `index` of the structure `spec` describes.
    pub(super) fn component_spec(&self, spec: &Spec<'r>, index: usize) -> Option<Spec<'r>> {
        let s = self.expand(spec)?;
        let Type::Struct(st) = &s.ty else {
            return None;
        };
        // `INCLUDE TYPE` moves the positions: no names then.
        if st.comps.iter().any(|(n, _)| n.is_empty()) {
            return None;
        }
        let (_, t) = st.comps.get(index)?;
        Some(Spec { ty: t.clone(), ..s })
    }

    /// The spec of the line type of the table `spec` describes.
    pub(super) fn line_spec(&self, spec: &Spec<'r>) -> Option<Spec<'r>> {
        let s = self.expand(spec)?;
        let Type::Table(t) = &s.ty else {
            return None;
        };
        Some(Spec {
            ty: t.line.clone(),
            ..s
        })
    }

    /// The spec of the type a data reference type `spec` points to.
    pub(super) fn referenced_spec(&self, spec: &Spec<'r>) -> Option<Spec<'r>> {
        let s = self.expand(spec)?;
        let ty = match &s.ty {
            Type::DataRef(t) => (**t).clone(),
            // `REF TO ty` where `ty` is a data type.
            Type::Ref(n) => Type::Named(n.clone()),
            _ => return None,
        };
        Some(Spec { ty, ..s })
    }
}
