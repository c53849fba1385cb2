//! Syntax tree of the field symbol and data reference statements (`ASSIGN`, `UNASSIGN`,
//! `GET REFERENCE`, `CREATE DATA`).

use crate::ast::expr::{Expr, Path};
use abap_data::value::Type;
/// Field symbol and data reference statements.
#[derive(Debug, Clone)]
pub enum RefStmt {
    /// `ASSIGN source TO <fs>|FIELD-SYMBOL(<fs>) [ELSE UNASSIGN]`.
    Assign {
        source: AssignSource,
        fs: String,
        /// `FIELD-SYMBOL(<fs>)`.
        inline: bool,
        else_unassign: bool,
    },
    /// `UNASSIGN <fs>`.
    Unassign(String),
    /// `GET REFERENCE OF dobj INTO dref|DATA(dref)`.
    GetReference { of: Expr, into: Path, inline: bool },
    /// `CREATE DATA dref [TYPE …|LIKE …]` (`None`: the static type of `dref`).
    CreateData { target: Path, ty: Option<Type> },
    /// `CREATE DATA dref TYPE HANDLE descr`: the type a type description object describes.
    CreateDataHandle { target: Path, handle: Expr },
}

/// What `ASSIGN` assigns.
#[derive(Debug, Clone)]
pub enum AssignSource {
    /// A data object written statically: `lv_x`, `ls-comp`, `<fs>-comp`, `me->attr`.
    Static(Path),
    /// A table expression `itab[ … ]` (sets `sy-subrc`).
    Row(Expr),
    /// `COMPONENT comp OF STRUCTURE struc` (sets `sy-subrc`).
    Component { comp: Expr, of: Path },
    /// `(name)`, `oref->(name)`, `class=>(name)`: the data object named by `prefix` and the
    /// text (sets `sy-subrc`).
    Dynamic { prefix: String, name: Expr },
}

impl RefStmt {
    pub fn keyword(&self) -> &'static str {
        match self {
            RefStmt::Assign { .. } => "ASSIGN",
            RefStmt::Unassign(_) => "UNASSIGN",
            RefStmt::GetReference { .. } => "GET REFERENCE",
            RefStmt::CreateData { .. } | RefStmt::CreateDataHandle { .. } => "CREATE DATA",
        }
    }
}
