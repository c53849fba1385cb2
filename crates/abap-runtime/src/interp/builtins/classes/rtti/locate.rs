//! Where a type written in code is defined, and the names that gives it (`names.rs` says
//! what the names look like): the interpreter's lookup of types, procedure to dictionary.

use crate::interp::Interp;
use crate::interp::builtins::classes::rtti::names::{
    MAX_FOLLOW, Scope, Spec, TypeName, builtin_name, class_path, global_name,
};
use abap_data::value::Type;
use abap_syntax::ast::{ClassDef, MethodImpl, Sel};
use abap_syntax::parser::words::parse_path;

impl<'r> Interp<'r, '_> {
    /// Where `name` is defined, seen from `method` of `class` (the lookup order of
    /// `resolve_type`): the procedure, the class and its superclasses, the program, then
    /// the global types; with its definition.
    pub(crate) fn locate_type(
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
