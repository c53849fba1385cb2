//! The face every group of built-in classes shows the registry (`mod.rs`): what a group is
//! and the builders of the declarations it makes. The groups and the registry depend on this
//! file; it depends on neither.

use crate::interp::bound::Bound;
use crate::interp::{Exec, Interp};
use abap_data::value::{ObjId, Type, Value};
use abap_syntax::ast::{
    CallExpr, ClassDef, DataDecl, MethodDecl, ParamDecl, ParamKind, Visibility,
};

/// What a method returns: its exporting, changing and returning parameters with values.
pub(crate) type Results = Vec<(String, ParamKind, Value)>;

/// A static method call of a built-in class: `None` when the call gives no value.
pub(crate) type StaticRun =
    for<'r, 'h> fn(&mut Interp<'r, 'h>, &'r ClassDef, &CallExpr) -> Exec<Option<Value>>;

/// A method call on an object of (or a static call bound to) a built-in class: `None` when
/// the method is not this group's, so the next group is asked.
pub(crate) type MethodRun = for<'r, 'h> fn(
    &mut Interp<'r, 'h>,
    &'r ClassDef,
    Option<ObjId>,
    &str,
    &Bound,
) -> Exec<Option<Results>>;

/// A group of built-in classes whose methods are the simulator's code.
pub(crate) struct NativeClass {
    /// The group's name, as its file is named (the registry's tests read it).
    #[cfg_attr(not(test), allow(dead_code))]
    pub name: &'static str,
    /// Whether a class of this (upper-case) name is the group's.
    pub knows: fn(&str) -> bool,
    /// Static calls of methods the class does not declare (`cl_abap_unit_assert=>…`).
    pub static_call: Option<StaticRun>,
    /// Methods of the class's declarations that have no ABAP implementation.
    pub method: Option<MethodRun>,
}

/// An instance attribute of a built-in class.
pub(crate) fn attribute(name: &str, ty: Type, visibility: Visibility) -> DataDecl {
    DataDecl {
        name: name.into(),
        ty: Ok(ty),
        value: None,
        is_static: false,
        is_constant: false,
        visibility,
        line: 0,
    }
}

/// A parameter of a built-in method (`RETURNING` is by value).
pub(crate) fn param(name: &str, kind: ParamKind, ty: Type, optional: bool) -> ParamDecl {
    ParamDecl {
        name: name.into(),
        kind,
        ty: Ok(ty),
        by_value: kind == ParamKind::Returning,
        optional,
        default: None,
    }
}

/// A method of a built-in class.
pub(crate) fn method(name: &str, is_static: bool, params: Vec<ParamDecl>) -> MethodDecl {
    MethodDecl {
        name: name.into(),
        is_static,
        params,
        for_testing: false,
        is_abstract: false,
        line: 0,
    }
}
