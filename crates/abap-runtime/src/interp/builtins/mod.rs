//! The built-ins: functions and classes whose behaviour is the simulator's own code, not
//! ABAP source. One folder, one file per group, one list that names them all:
//!
//! - `functions/`: the built-in functions (`strlen( )`, `find( )`, `round( )`, `lines( )`, …),
//!   each group in its own file, registered in `functions::GROUPS`; a call the parser could
//!   not bind to a method reaches them through `Interp::builtin_function`;
//! - `classes/`: the built-in classes, their declarations (`classes::class`) and the groups
//!   with code of their own: the `CX_*` tree and ABAP Unit's classes (`mod.rs`), regular
//!   expression objects (`regex.rs`), RTTI (`rtti/`), `cl_abap_string_utilities`
//!   (`string_utilities.rs`), message texts (`t100.rs`).

pub(crate) mod classes;
pub(crate) mod functions;
