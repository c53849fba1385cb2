//! Where data lives: a [`Place`] (a variable slot plus component and row steps), and the data
//! references and field symbols that hold one. Part of the data model, below the syntax tree.

use crate::types::{ObjId, Type};
/// A step from a data object into a part of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Structure component by position.
    Comp(usize),
    /// Table row, 0-based.
    Row(usize),
}

/// A data object or a part of one (component, row): where reads and writes go.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    pub slot: Slot,
    pub steps: Vec<Step>,
}

/// Where a named data object lives (for writes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slot {
    Frame(usize, usize),
    Attr(ObjId, usize),
    Static(String, usize),
    Sy(usize),
    /// An anonymous data object (`CREATE DATA`, `NEW i( )`) in [`State::anon`].
    Anon(usize),
}

/// The value of a data reference variable.
#[derive(Debug, Clone, PartialEq)]
pub struct DataRef {
    /// Static type of the target (`Type::Any` for `REF TO data`).
    pub static_type: Type,
    pub target: Option<DataTarget>,
}

/// What a non-initial data reference points to.
#[derive(Debug, Clone, PartialEq)]
pub struct DataTarget {
    pub place: Place,
    /// For a local of a procedure: the `Frame::serial` (abap-runtime, `interp/state.rs`) of its call.
    pub call: Option<u64>,
}

impl DataRef {
    /// The static type as the debugger names it (`DATA`, `I`, `TY_ROW`).
    pub fn type_name(&self) -> String {
        match &self.static_type {
            Type::Any => "DATA".into(),
            t => t.name(),
        }
    }
}
