//! Interface components seen through classes and aliases: instance attributes of interfaces
//! (an object holds them as `ZIF~ATTR`, as the debugger names them), static attributes and
//! constants of interfaces (one per interface: `zif=>c`, `zcl=>zif~c` and `zif~c` inside the
//! class are the same), `ALIASES a FOR zif~comp`, and the `FINAL` check at load time.

use std::collections::BTreeMap;

use crate::interp::state::{State, Var, VarKind};
use crate::interp::{Exec, Flow, Interp};
use abap_data::LoadError;
use abap_data::place::Slot;
use abap_syntax::ast::{CaseType, When};
use abap_syntax::ast::{ClassDef, Expr, Visibility};

/// Bound on interface nesting walked (against cycles in broken sources).
const MAX_INTERFACES: usize = 128;

impl<'r> State<'r> {
    /// The interfaces `class` implements: those of the class and its superclasses and the
    /// interfaces they include, each once.
    pub fn interfaces_of(&self, class: &'r ClassDef) -> Vec<&'r ClassDef> {
        let mut todo: Vec<(&'r ClassDef, &'r String)> = Vec::new();
        let lineage = if class.is_interface {
            vec![class]
        } else {
            self.lineage(class)
        };
        for c in lineage {
            todo.extend(c.interfaces.iter().map(|i| (c, i)));
        }
        let mut out: Vec<&'r ClassDef> = Vec::new();
        while let Some((owner, name)) = todo.pop() {
            if out.len() >= MAX_INTERFACES {
                break;
            }
            let Some(i) = self.find_class(&owner.program, name) else {
                continue;
            };
            if !i.is_interface || out.iter().any(|o| o.key == i.key) {
                continue;
            }
            out.push(i);
            todo.extend(i.interfaces.iter().map(|n| (i, n)));
        }
        out
    }

    /// What alias `name` stands for (`ZIF~COMP`) in `class`, its superclasses or its
    /// interfaces.
    pub fn resolve_alias(&self, class: &'r ClassDef, name: &str) -> Option<String> {
        let own = if class.is_interface {
            vec![class]
        } else {
            self.lineage(class)
        };
        own.into_iter()
            .chain(self.interfaces_of(class))
            .find_map(|c| {
                c.aliases
                    .iter()
                    .find(|(a, _)| a == name)
                    .map(|(_, full)| full.clone())
            })
    }

    /// A static attribute of an interface of class `key`: `ZIF~ATTR` or an alias.
    pub fn interface_static_slot(&self, key: &str, name: &str) -> Option<Slot> {
        let class = self.class_by_key(key)?;
        if let Some((intf, attr)) = name.split_once('~') {
            let i = self
                .interfaces_of(class)
                .into_iter()
                .find(|i| i.name == intf)
                .or_else(|| self.find_class(&class.program, intf))?;
            let vars = self.statics.get(&i.key)?;
            let at = vars.iter().position(|v| v.name == attr)?;
            return Some(Slot::Static(i.key.clone(), at));
        }
        let full = self.resolve_alias(class, name)?;
        if !full.contains('~') {
            return None;
        }
        self.interface_static_slot(key, &full)
    }

    /// The value of attribute `name` of object `obj` (own, inherited, static or through an
    /// interface).
    pub fn attr_value(&self, obj: usize, name: &str) -> Option<abap_data::value::Value> {
        let o = self.heap.get(obj)?;
        let slot = match o.attrs.iter().position(|v| v.name == name) {
            Some(i) => Slot::Attr(obj, i),
            None => self
                .interface_attr_slot(obj, name)
                .or_else(|| self.interface_static_slot(&o.class, name))
                .or_else(|| {
                    let class = self.class_by_key(&o.class)?;
                    self.lineage(class).into_iter().find_map(|c| {
                        let at = self
                            .statics
                            .get(&c.key)?
                            .iter()
                            .position(|v| v.name == name)?;
                        Some(Slot::Static(c.key.clone(), at))
                    })
                })?,
        };
        self.slot_var(&slot).map(|v| v.val.clone())
    }

    /// An interface attribute of object `obj` by alias or, through an interface reference, by
    /// its short name.
    pub fn interface_attr_slot(&self, obj: usize, name: &str) -> Option<Slot> {
        let o = self.heap.get(obj)?;
        let class = self.class_by_key(&o.class)?;
        if let Some(full) = self.resolve_alias(class, name) {
            if let Some(i) = o.attrs.iter().position(|v| v.name == full) {
                return Some(Slot::Attr(obj, i));
            }
            return self.interface_static_slot(&o.class, &full);
        }
        if name.contains('~') {
            return None;
        }
        let suffix = format!("~{name}");
        let mut hits = o
            .attrs
            .iter()
            .enumerate()
            .filter(|(_, v)| v.name.ends_with(&suffix));
        if let (Some((i, _)), None) = (hits.next(), hits.next()) {
            return Some(Slot::Attr(obj, i));
        }
        self.interfaces_of(class).into_iter().find_map(|i| {
            let at = self
                .statics
                .get(&i.key)?
                .iter()
                .position(|v| v.name == name)?;
            Some(Slot::Static(i.key.clone(), at))
        })
    }
}

impl<'r> Interp<'r, '_> {
    /// The instance attributes of the interfaces of `class`, named `ZIF~ATTR`.
    pub fn interface_attributes(&mut self, class: &'r ClassDef, attrs: &mut Vec<Var>) -> Exec<()> {
        for intf in self.st.interfaces_of(class) {
            for d in intf.attributes.iter().filter(|d| !d.is_static) {
                let Ok(ty) = &d.ty else { continue };
                let ty = self.resolve_type(intf, None, ty, attrs)?;
                let mut v = Var::new(
                    &format!("{}~{}", intf.name, d.name),
                    ty.clone(),
                    VarKind::Attr {
                        is_static: false,
                        constant: d.is_constant,
                        visibility: Visibility::Public,
                    },
                );
                v.read_only = d.is_constant;
                v.val = self.decl_value(d, &ty, attrs)?;
                attrs.push(v);
            }
        }
        Ok(())
    }

    /// Static attributes of the interfaces of `class` exist before the class uses them.
    pub fn ensure_interface_statics(&mut self, class: &'r ClassDef) -> Exec<()> {
        for intf in self.st.interfaces_of(class) {
            self.ensure_statics(intf)?;
        }
        Ok(())
    }

    /// A method name that is an alias or an interface method of an included interface, as the
    /// implementation is named (`ZIF~M`).
    pub fn interface_method_name(&self, class: &'r ClassDef, method: &str) -> Option<String> {
        if method.contains('~') {
            return None;
        }
        if let Some(full) = self.st.resolve_alias(class, method) {
            return Some(full);
        }
        self.st
            .interfaces_of(class)
            .into_iter()
            .find(|i| i.method_decl(method).is_some())
            .map(|i| format!("{}~{method}", i.name))
    }
}

impl<'r> Interp<'r, '_> {
    pub fn exec_case_type(&mut self, c: &'r CaseType) -> Exec<Flow> {
        let v = self.eval(&c.subject)?;
        if !matches!(v, abap_data::value::Value::Ref { .. }) {
            return Err(self.not_supported("CASE TYPE OF a non-reference"));
        }
        for w in &c.whens {
            let hit = match &w.when {
                When::Others => true,
                When::Unsupported(what) => return Err(self.not_supported(what)),
                When::Type { class, .. } => self.is_instance_of(&Expr::Lit(v.clone()), class)?,
            };
            if !hit {
                continue;
            }
            self.stop(w.line, crate::interp::state::Current::Keyword("WHEN"))?;
            if let When::Type {
                class,
                into: Some((path, inline)),
            } = &w.when
            {
                let ty = abap_data::value::Type::Ref(class.clone());
                if *inline {
                    self.declare_inline(&path.base, ty.clone());
                }
                let cast = self.cast(v.clone(), &ty)?;
                self.assign_value(path, cast)?;
            }
            return self.block(&w.body);
        }
        Ok(Flow::Normal)
    }
}

/// A class in `parsed` inheriting from a `FINAL` class (of `parsed` or already `loaded`; a
/// loaded class that `parsed` replaces is looked up in `parsed` first), or a loaded class
/// inheriting from a `FINAL` class of `parsed`: the syntax error.
pub fn final_violation(
    file: &str,
    parsed: &[ClassDef],
    loaded: &BTreeMap<String, ClassDef>,
) -> Option<LoadError> {
    let find = |program: &str, name: &str| -> Option<&ClassDef> {
        let local = abap_syntax::parser::local_class_key(program, name);
        parsed
            .iter()
            .find(|c| c.key == local || c.key == name)
            .or_else(|| loaded.get(&local))
            .or_else(|| loaded.get(name))
    };
    for c in parsed {
        if let Some(sup) = c.superclass.as_deref()
            && let Some(s) = find(&c.program, sup)
            && s.is_final
        {
            return Some(LoadError::Syntax {
                file: file.to_string(),
                line: c.def_line,
                message: format!("{} cannot inherit from the final class {}", c.name, s.name),
            });
        }
    }
    // Loaded classes that this file replaces do not count.
    for c in loaded
        .values()
        .filter(|c| !parsed.iter().any(|p| p.key == c.key))
    {
        if let Some(sup) = c.superclass.as_deref()
            && let Some(s) = parsed.iter().find(|p| p.key == sup && p.is_final)
        {
            return Some(LoadError::Syntax {
                file: format!("{}.clas.abap", c.name.to_ascii_lowercase()),
                line: c.def_line,
                message: format!("{} cannot inherit from the final class {}", c.name, s.name),
            });
        }
    }
    None
}
