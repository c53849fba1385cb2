//! Type resolution at run time: names declared with `TYPES` (procedure, class, program,
//! `intf=>ty`), `LIKE dobj`, `LIKE LINE OF itab` and DDIC names become concrete types when data
//! is created.

use std::sync::Arc;

use crate::interp::state::Var;
use crate::interp::{Exec, Interp};
use abap_data::ddic::global_type;
use abap_data::value::{StructType, TableType, Type};
use abap_syntax::ast::{ClassDef, MethodImpl, Path};
use abap_syntax::parser::program_key;
use abap_syntax::parser::words::parse_path;

/// Bound on nested type references (`TYPES a TYPE b. TYPES b TYPE a.` must not loop).
const MAX_TYPE_DEPTH: usize = 32;

impl<'r> Interp<'r, '_> {
    /// `ty` with every name replaced by its definition, seen from `method` of `class`; `earlier`
    /// are data objects declared before (for `LIKE`).
    pub fn resolve_type(
        &self,
        class: &'r ClassDef,
        method: Option<&'r MethodImpl>,
        ty: &Type,
        earlier: &[Var],
    ) -> Exec<Type> {
        self.resolve_at(class, method, ty, earlier, 0)
            .map_err(|what| self.not_supported(&what))
    }

    fn resolve_at(
        &self,
        class: &'r ClassDef,
        method: Option<&'r MethodImpl>,
        ty: &Type,
        earlier: &[Var],
        depth: usize,
    ) -> Result<Type, String> {
        if depth > MAX_TYPE_DEPTH {
            return Err("type definitions nested too deeply".into());
        }
        let again = |t: &Type| self.resolve_at(class, method, t, earlier, depth + 1);
        Ok(match ty {
            // `TYPE ty_struct-comp`: the type of a component of a structured type.
            // Also `TYPE zif_x=>ty-comp`: the head names the type, with `=>`.
            Type::Named(n) if self.type_def(class, method, n).is_none() && n.contains('-') => {
                let mut parts = n.split('-');
                let head = parts.next().unwrap_or_default();
                let mut t = again(&Type::Named(head.to_string()))?;
                for comp in parts {
                    t = match &t {
                        Type::Struct(st) => st
                            .comps
                            .iter()
                            .find(|(c, _)| c == comp)
                            .map(|(_, ct)| ct.clone())
                            .ok_or_else(|| format!("TYPE {n}"))?,
                        _ => return Err(format!("TYPE {n}")),
                    };
                }
                again(&t)?
            }
            Type::Named(n) => {
                let (owner, meth, def) = self
                    .type_def(class, method, n)
                    .ok_or_else(|| format!("TYPE {n}"))?;
                match def {
                    Ok(t) => self.resolve_at(owner, meth, &t, earlier, depth + 1)?,
                    Err(e) => return Err(e),
                }
            }
            Type::Like(n) => {
                let var = earlier
                    .iter()
                    .rev()
                    .find(|v| v.name == *n)
                    .map(|v| v.ty.clone())
                    .or_else(|| component_of_earlier(earlier, n))
                    .or_else(|| {
                        let path = parse_path(n)?;
                        let f = self.st.frames.len().checked_sub(1)?;
                        self.st.lookup(f, &path).map(|v| v.ty.clone())
                    });
                match var {
                    Some(t) => t,
                    // `LIKE attr` in a method signature (`previous LIKE previous` of every
                    // exception class): an attribute of the class or of a superclass.
                    None => match self.attribute_type(class, n) {
                        Some((owner, t)) => self.resolve_at(owner, None, &t, &[], depth + 1)?,
                        None => return Err(format!("LIKE {n}")),
                    },
                }
            }
            Type::LineOf(n) => {
                let table = match n.strip_prefix("TYPE ") {
                    Some(name) => again(&Type::Named(name.to_string()))?,
                    None => again(&Type::Like(n.clone()))?,
                };
                match table {
                    Type::Table(t) => t.line.clone(),
                    _ => return Err(format!("LINE OF {n}")),
                }
            }
            Type::Struct(s) => {
                let mut comps = Vec::with_capacity(s.comps.len());
                for (name, t) in &s.comps {
                    let t = again(t)?;
                    match (name.is_empty(), t) {
                        // `INCLUDE TYPE`: the components of the included structure.
                        (true, Type::Struct(inc)) => comps.extend(inc.comps.iter().cloned()),
                        (true, _) => return Err("INCLUDE TYPE of a non-structure".into()),
                        (false, t) => comps.push((name.clone(), t)),
                    }
                }
                Type::Struct(Arc::new(StructType {
                    name: s.name.clone(),
                    comps,
                }))
            }
            Type::Table(t) => {
                let line = again(&t.line)?;
                Type::Table(Arc::new(TableType {
                    line,
                    ..(**t).clone()
                }))
            }
            // `REF TO name`: a data reference when `name` is a data type and no class.
            Type::Ref(n)
                if self.st.find_class(&class.program, n).is_none()
                    && self.type_def(class, method, n).is_some() =>
            {
                Type::DataRef(Box::new(again(&Type::Named(n.clone()))?))
            }
            Type::DataRef(t) if **t != Type::Any => Type::DataRef(Box::new(again(t)?)),
            other => other.clone(),
        })
    }

    /// The declared type of attribute `name` of `class` or a superclass, with the class that
    /// declares it.
    fn attribute_type(&self, class: &'r ClassDef, name: &str) -> Option<(&'r ClassDef, Type)> {
        // `LIKE intf=>attr` / `LIKE class=>attr`: an attribute of that class or interface.
        if let Some((owner, attr)) = name.split_once("=>") {
            let owner = self.st.find_class(&class.program, owner)?;
            return self.attribute_type(owner, attr);
        }
        self.st.lineage(class).into_iter().find_map(|c| {
            let decl = c.attributes.iter().find(|a| a.name == name)?;
            decl.ty.as_ref().ok().map(|t| (c, t.clone()))
        })
    }

    /// Where the type `name` is defined, seen from `method` of `class`.
    fn type_def(
        &self,
        class: &'r ClassDef,
        method: Option<&'r MethodImpl>,
        name: &str,
    ) -> Option<(
        &'r ClassDef,
        Option<&'r MethodImpl>,
        abap_syntax::ast::TypeSpec,
    )> {
        if let Some(Path { base, rest }) = parse_path(name)
            && let [(abap_syntax::ast::Sel::Static, tname)] = rest.as_slice()
        {
            let owner = self.st.find_class(&class.program, &base)?;
            return self.type_def(owner, None, tname);
        }
        // `intf~ty`: a type of an interface, as a class implementing it names it.
        if let Some((intf, tname)) = name.split_once('~') {
            let owner = self.st.find_class(&class.program, intf)?;
            return self.type_def(owner, None, tname);
        }
        if let Some(m) = method
            && let Some((_, t)) = m.types.iter().rev().find(|(n, _)| n == name)
        {
            return Some((class, Some(m), t.clone()));
        }
        for c in self.st.lineage(class) {
            if let Some((_, t)) = c.types.iter().find(|(n, _)| n == name) {
                return Some((c, None, t.clone()));
            }
        }
        if let Some(p) = self.st.classes.get(&program_key(&class.program))
            && let Some((_, t)) = p.types.iter().find(|(n, _)| n == name)
        {
            return Some((p, None, t.clone()));
        }
        global_type(name)
            .or_else(|| self.database_type(name))
            .map(|t| (class, None, Ok(t)))
    }
}

/// The type of `wa-comp` (`LIKE wa-comp`, `SELECT-OPTIONS s FOR wa-comp`) when `wa` is a
/// structure declared before among `earlier` (a program's globals as they are created).
fn component_of_earlier(earlier: &[Var], name: &str) -> Option<Type> {
    let mut parts = name.split('-');
    let head = parts.next()?;
    let mut ty = earlier.iter().rev().find(|v| v.name == head)?.ty.clone();
    for comp in parts {
        ty = match &ty {
            Type::Struct(st) => st.comps.iter().find(|(c, _)| c == comp)?.1.clone(),
            _ => return None,
        };
    }
    Some(ty)
}
