//! Absolute type names (`\TYPE=I`, `\CLASS=ZCL_X\TYPE=TY_S`,
//! `\PROGRAM=ZREPORT\CLASS=LCL\METHOD=M\TYPE=TY`, `\TYPE-POOL=ABAP\TYPE=ABAP_BOOL`): where a
//! type written in code was defined, seen from the code that names it. A type that exists
//! only as the property of a data object (`c LENGTH 10`, `TABLE OF i`, a type created at run
//! time) has no relative name; its absolute name is a technical one, `\TYPE=%_T` and a
//! number the simulator counts (a real system's numbers are its own).

use abap_data::value::Type;
use abap_syntax::ast::{ClassDef, MethodImpl};

/// Nesting bound when following type names to their definitions.
pub(crate) const MAX_FOLLOW: usize = 32;

/// A type as written in code (`ty_s`, `TABLE OF ty_s`, `abap_bool`), with the procedure and
/// class it was written in: what names it and its parts.
#[derive(Debug, Clone)]
pub struct Spec<'r> {
    pub class: &'r ClassDef,
    pub method: Option<&'r MethodImpl>,
    pub ty: Type,
}

/// The names of a type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeName {
    pub absolute: String,
    /// Empty for technical (anonymous) types.
    pub relative: String,
    /// A type of the ABAP Dictionary.
    pub ddic: bool,
}

/// Where a type name is defined.
pub(crate) enum Scope<'r> {
    Method(&'r ClassDef, &'r MethodImpl),
    Class(&'r ClassDef),
    /// The dictionary, a type pool or the built-in types.
    Global,
}

/// Built-in ABAP types with a complete technical type: their absolute name is `\TYPE=` and
/// their name, and they are no dictionary types.
const BUILTIN: &[&str] = &[
    "I",
    "INT8",
    "F",
    "STRING",
    "XSTRING",
    "D",
    "T",
    "DECFLOAT16",
    "DECFLOAT34",
    "UTCLONG",
];

/// The name of a built-in type that needs no length (`i`, `string`, …).
pub fn builtin_name(ty: &Type) -> Option<&'static str> {
    Some(match ty {
        Type::I => "I",
        Type::Int8 => "INT8",
        Type::F => "F",
        Type::String => "STRING",
        Type::XString => "XSTRING",
        Type::D => "D",
        Type::T => "T",
        Type::DecFloat16 => "DECFLOAT16",
        Type::DecFloat34 => "DECFLOAT34",
        _ => return None,
    })
}

/// `\TYPE=…` of a global type: the type pool `ABAP` for its types, else the dictionary.
pub fn global_name(name: &str) -> TypeName {
    let absolute = if abap_data::ddic::in_abap_type_pool(name) {
        format!("\\TYPE-POOL=ABAP\\TYPE={name}")
    } else {
        format!("\\TYPE={name}")
    };
    TypeName {
        absolute,
        relative: name.to_string(),
        ddic: !BUILTIN.contains(&name) && !abap_data::ddic::in_abap_type_pool(name),
    }
}

/// The absolute name of a class or interface (`\CLASS=ZCL_X`,
/// `\CLASS-POOL=ZCL_X\CLASS=LCL_Y`, `\PROGRAM=ZREPORT\CLASS=LCL`), or of a program's own
/// context (`\PROGRAM=ZREPORT`, `\CLASS-POOL=ZCL_X`) for its pseudo class.
pub fn class_path(class: &ClassDef) -> String {
    let own = |c: &ClassDef| {
        let kind = if c.is_interface { "INTERFACE" } else { "CLASS" };
        format!("\\{kind}={}", c.name)
    };
    if class.key == class.name {
        return own(class);
    }
    let pool = program_path(&class.program);
    if class.key == abap_syntax::parser::program_key(&class.program) {
        pool
    } else {
        format!("{pool}{}", own(class))
    }
}

/// `\CLASS-POOL=ZCL_X` for a class pool (`ZCL_X=====…CP`), `\PROGRAM=…` otherwise.
fn program_path(program: &str) -> String {
    if program.len() == 32
        && let Some(name) = program.strip_suffix("CP")
    {
        return format!("\\CLASS-POOL={}", name.trim_end_matches('='));
    }
    format!("\\PROGRAM={program}")
}
