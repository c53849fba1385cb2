//! The run's descriptor objects and what each describes: execution state that the run keeps
//! (`State::rtti`) and the descriptor methods (`mod.rs`, `data.rs`, `objects.rs`) read and
//! extend. It needs nothing of the interpreter, so the state can hold it.

use crate::interp::builtins::classes::rtti::names::{Spec, TypeName};
use abap_data::value::{ObjId, Type};
use abap_syntax::ast::ClassDef;

/// What one descriptor object describes.
#[derive(Debug, Clone)]
pub(crate) enum Described<'r> {
    Data {
        ty: Type,
        name: TypeName,
        /// Where the type was written, for the names of its parts.
        spec: Option<Spec<'r>>,
    },
    Object(&'r ClassDef),
}

/// The descriptor objects of a run.
#[derive(Debug, Default)]
pub struct Registry<'r> {
    pub(super) entries: Vec<(ObjId, Described<'r>)>,
    /// Technical type names handed out so far.
    pub(super) technical: usize,
    /// The `EXCEPTIONS` of the descriptor method call running (frame depth of its caller,
    /// exception name → `sy-subrc`).
    pub(super) handled: Option<(usize, Vec<(String, i32)>)>,
}

impl<'r> Registry<'r> {
    pub(crate) fn get(&self, obj: ObjId) -> Option<&Described<'r>> {
        self.entries.iter().find(|(o, _)| *o == obj).map(|(_, d)| d)
    }

    pub(super) fn data_by_name(&self, absolute: &str) -> Option<ObjId> {
        self.entries.iter().find_map(|(o, d)| match d {
            Described::Data { name, .. } if name.absolute == absolute => Some(*o),
            _ => None,
        })
    }

    pub(super) fn technical_for(&self, ty: &Type) -> Option<ObjId> {
        self.entries.iter().find_map(|(o, d)| match d {
            Described::Data { ty: t, name, .. } if name.relative.is_empty() && t == ty => Some(*o),
            _ => None,
        })
    }

    pub(super) fn object_for(&self, class: &ClassDef) -> Option<ObjId> {
        self.entries.iter().find_map(|(o, d)| match d {
            Described::Object(c) if c.key == class.key => Some(*o),
            _ => None,
        })
    }

    pub(super) fn next_technical(&mut self) -> TypeName {
        self.technical += 1;
        TypeName {
            absolute: format!("\\TYPE=%_T{:010}", self.technical),
            relative: String::new(),
            ddic: false,
        }
    }
}
