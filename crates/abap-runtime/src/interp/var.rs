//! A named data object and its kind: what the execution state holds and what the built-in
//! classes declare, below both.

use abap_data::value::{Type, Value};
use abap_syntax::ast::{ParamKind, Visibility};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarKind {
    Local,
    Constant,
    Param(ParamKind),
    Attr {
        is_static: bool,
        constant: bool,
        visibility: Visibility,
    },
    /// A system field (`SY-INDEX`).
    System,
    /// The `ME` pseudo variable.
    Me,
}

/// A named data object.
#[derive(Debug, Clone)]
pub struct Var {
    pub name: String,
    /// Declared type (for generic parameters: the type of the actual parameter).
    pub ty: Type,
    pub val: Value,
    pub kind: VarKind,
    pub read_only: bool,
    /// The type's name as declared when it was given by name (`TY_AMOUNT`, `ABAP_BOOL`,
    /// `SYST_SUBRC`): the debugger's `DECLARED_TYPE_NAME`.
    pub type_name: Option<String>,
}

impl Var {
    pub fn new(name: &str, ty: Type, kind: VarKind) -> Var {
        Var {
            name: name.to_string(),
            val: ty.initial(),
            ty,
            kind,
            read_only: matches!(
                kind,
                VarKind::Constant | VarKind::Attr { constant: true, .. }
            ),
            type_name: None,
        }
    }
}
