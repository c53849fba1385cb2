//! What a call hands to the called procedure: the interface between the call machinery
//! (`calls.rs`, `dynamic.rs`, `function_call.rs`) and the procedures it calls, the built-in
//! classes' methods included, which therefore need not know how calls are made.

use crate::interp::builtins::classes::rtti::names::TypeName;
use abap_data::value::Value;
use abap_syntax::ast::Path;

/// Values handed into a call, by formal parameter name.
#[derive(Default)]
pub struct Bound {
    pub inputs: Vec<(String, Value)>,
    /// Formal exporting/changing parameter → caller's target.
    pub outputs: Vec<(String, Path)>,
    pub receiving: Option<Path>,
    /// Generic importing parameters whose actual parameter's type has a name.
    pub actual_types: Vec<(String, TypeName)>,
}
