//! Built-in classes: the `CX_*` exception tree (with `get_text( )` and `previous`), the
//! ABAP Unit assertion classes and constants such as `cl_abap_char_utilities=>newline`.
//! Their methods are the simulator's code, not ABAP: each group of classes with methods has a
//! file below and a `NativeClass` entry in `CLASSES`, which `Interp::native_method` and
//! `Interp::native_static_call` (`exec.rs`) ask in order.

/// The classrun output object (`out->write( )`).
pub(crate) mod classrun;
/// `CL_ABAP_CONTEXT_INFO`.
pub(crate) mod context_info;
/// `CONSTRUCTOR` and `GET_TEXT` of the `CX_ROOT` family.
pub(crate) mod exceptions;
/// What a group of built-in classes is and how it declares its classes (below the groups).
pub(crate) mod native;
/// `CL_ABAP_REGEX` and `CL_ABAP_MATCHER`.
pub(crate) mod regex;
/// RTTI: `CL_ABAP_TYPEDESCR` and its subclasses.
pub(crate) mod rtti;
/// The exception classes of dynamic statements, `CALL FUNCTION` and Open SQL.
pub(crate) mod statement_exceptions;
/// `CL_ABAP_STRING_UTILITIES`.
pub(crate) mod string_utilities;
/// Message texts (`T100`) and `IF_T100_MESSAGE`.
pub(crate) mod t100;
/// `CL_ABAP_UNIT_ASSERT`, `CL_AUNIT_ASSERT`.
pub(crate) mod unit_assert;

/// Every group, in the order a call is offered to them; the `CX_ROOT` methods come last,
/// as every built-in class has them.
pub(crate) const CLASSES: &[NativeClass] = &[
    unit_assert::CLASS,
    context_info::CLASS,
    string_utilities::CLASS,
    regex::CLASS,
    rtti::CLASS,
    exceptions::CLASS,
];

/// The groups that know a class named `name`, in registry order.
pub(crate) fn natives_of(name: &str) -> impl Iterator<Item = &'static NativeClass> + '_ {
    CLASSES.iter().filter(move |c| (c.knows)(name))
}

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::interp::builtins::classes::context_info::CONTEXT_INFO;
use crate::interp::builtins::classes::native::{NativeClass, attribute, method, param};
use crate::interp::builtins::classes::unit_assert::{UNIT_ASSERT, UNIT_ASSERT_OLD};
use crate::interp::state::BuiltinClasses;
use crate::interp::var::{Var, VarKind};
use abap_data::value::{Type, Value};
use abap_syntax::ast::{ClassDef, DataDecl, ParamKind, Path, Sel, Visibility};

/// `(class, superclass, text of get_text( ))`.
const EXCEPTIONS: &[(&str, Option<&str>, &str)] = &[
    ("CX_ROOT", None, "An exception was raised"),
    (
        "CX_STATIC_CHECK",
        Some("CX_ROOT"),
        "An exception was raised",
    ),
    (
        "CX_DYNAMIC_CHECK",
        Some("CX_ROOT"),
        "An exception was raised",
    ),
    ("CX_NO_CHECK", Some("CX_ROOT"), "An exception was raised"),
    (
        "CX_SY_ARITHMETIC_ERROR",
        Some("CX_DYNAMIC_CHECK"),
        "Arithmetic error",
    ),
    (
        "CX_SY_ZERODIVIDE",
        Some("CX_SY_ARITHMETIC_ERROR"),
        "Division by zero",
    ),
    (
        "CX_SY_ARITHMETIC_OVERFLOW",
        Some("CX_SY_ARITHMETIC_ERROR"),
        "Overflow in an arithmetic operation",
    ),
    (
        "CX_SY_ARG_OUT_OF_DOMAIN",
        Some("CX_SY_ARITHMETIC_ERROR"),
        "Invalid argument for a mathematical function or operator",
    ),
    (
        "CX_SY_CONVERSION_ERROR",
        Some("CX_DYNAMIC_CHECK"),
        "Conversion error",
    ),
    (
        "CX_SY_CONVERSION_NO_NUMBER",
        Some("CX_SY_CONVERSION_ERROR"),
        "The value cannot be interpreted as a number",
    ),
    (
        "CX_SY_CONVERSION_OVERFLOW",
        Some("CX_SY_CONVERSION_ERROR"),
        "Overflow during a conversion",
    ),
    (
        "CX_SY_ITAB_ERROR",
        Some("CX_DYNAMIC_CHECK"),
        "Error in an internal table operation",
    ),
    (
        "CX_SY_ITAB_LINE_NOT_FOUND",
        Some("CX_SY_ITAB_ERROR"),
        "Table line not found",
    ),
    (
        "CX_SY_ITAB_DUPLICATE_KEY",
        Some("CX_SY_ITAB_ERROR"),
        "Duplicate key in a table with a unique key",
    ),
    (
        "CX_SY_MOVE_CAST_ERROR",
        Some("CX_DYNAMIC_CHECK"),
        "Type conflict in a down cast",
    ),
    (
        "CX_SY_REF_IS_INITIAL",
        Some("CX_DYNAMIC_CHECK"),
        "Access via a 'NULL' reference is not possible",
    ),
    (
        "CX_SY_DATA_ACCESS_ERROR",
        Some("CX_DYNAMIC_CHECK"),
        "Invalid access to data",
    ),
    (
        "CX_SY_RANGE_OUT_OF_BOUNDS",
        Some("CX_SY_DATA_ACCESS_ERROR"),
        "Illegal offset or length access",
    ),
    (
        "CX_SY_REPLACE_INFINITE_LOOP",
        Some("CX_DYNAMIC_CHECK"),
        "Infinite loop in REPLACE ALL OCCURRENCES",
    ),
    (
        "CX_SY_STRG_PAR_VAL",
        Some("CX_DYNAMIC_CHECK"),
        "Invalid parameter value for a string function",
    ),
    (
        "CX_SY_CREATE_OBJECT_ERROR",
        Some("CX_DYNAMIC_CHECK"),
        "The object cannot be created",
    ),
    (
        "CX_SY_REGEX",
        Some("CX_DYNAMIC_CHECK"),
        "Illegal regular expression",
    ),
    (
        "CX_SY_REGEX_TOO_COMPLEX",
        Some("CX_DYNAMIC_CHECK"),
        "The regular expression is too complex",
    ),
    (
        "CX_SY_STRING_SIZE_TOO_LARGE",
        Some("CX_DYNAMIC_CHECK"),
        "The string cannot grow any more",
    ),
    (
        "CX_SY_SQL_ERROR",
        Some("CX_DYNAMIC_CHECK"),
        "Error in a database statement",
    ),
    (
        statement_exceptions::OPEN_SQL_EXCEPTION,
        Some("CX_SY_SQL_ERROR"),
        "Error in the database while executing an Open SQL statement",
    ),
    (
        "CX_SY_NO_HANDLER",
        Some("CX_NO_CHECK"),
        "An exception was not handled",
    ),
    (
        "CX_SY_TYPE_CREATION",
        Some("CX_DYNAMIC_CHECK"),
        "A type cannot be created",
    ),
    (
        "CX_SY_STRUCT_CREATION",
        Some("CX_SY_TYPE_CREATION"),
        "A structure type cannot be created",
    ),
    (
        "CX_SY_STRUCT_ATTRIBUTES",
        Some("CX_SY_STRUCT_CREATION"),
        "Invalid attributes for a structure type",
    ),
    (
        "CX_SY_STRUCT_COMP_NAME",
        Some("CX_SY_STRUCT_CREATION"),
        "Invalid component name",
    ),
    (
        "CX_SY_STRUCT_COMP_TYPE",
        Some("CX_SY_STRUCT_CREATION"),
        "Invalid component type",
    ),
    (
        "CX_SY_TABLE_CREATION",
        Some("CX_SY_TYPE_CREATION"),
        "A table type cannot be created",
    ),
    (
        "CX_SY_REF_CREATION",
        Some("CX_SY_TYPE_CREATION"),
        "A reference type cannot be created",
    ),
    (
        "CX_PARAMETER_INVALID",
        Some("CX_DYNAMIC_CHECK"),
        "Invalid parameter",
    ),
    (
        "CX_PARAMETER_INVALID_RANGE",
        Some("CX_PARAMETER_INVALID"),
        "Parameter value out of range",
    ),
    (
        "CX_PARAMETER_INVALID_TYPE",
        Some("CX_PARAMETER_INVALID"),
        "Parameter of an invalid type",
    ),
];

/// Runtime error ids that are catchable, with their exception class.
pub fn exception_for_dump(id: &str) -> Option<&'static str> {
    Some(match id {
        "COMPUTE_INT_ZERODIVIDE"
        | "COMPUTE_BCD_ZERODIVIDE"
        | "COMPUTE_FLOAT_ZERODIVIDE"
        | "COMPUTE_DECFLOAT_ZERODIVIDE" => "CX_SY_ZERODIVIDE",
        "COMPUTE_POW_DOMAIN" | "COMPUTE_MATH_DOMAIN" => "CX_SY_ARG_OUT_OF_DOMAIN",
        "COMPUTE_INT_PLUS_OVERFLOW"
        | "COMPUTE_INT_MINUS_OVERFLOW"
        | "COMPUTE_INT_TIMES_OVERFLOW"
        | "COMPUTE_INT_DIV_OVERFLOW"
        | "COMPUTE_INT_ABS_OVERFLOW"
        | "COMPUTE_BCD_OVERFLOW"
        | "COMPUTE_FLOAT_PLUS_OVERFLOW"
        | "COMPUTE_DECFLOAT_OVERFLOW" => "CX_SY_ARITHMETIC_OVERFLOW",
        "CONVT_NO_NUMBER" => "CX_SY_CONVERSION_NO_NUMBER",
        "CONVT_OVERFLOW" | "BCD_FIELD_OVERFLOW" => "CX_SY_CONVERSION_OVERFLOW",
        "OBJECTS_OBJREF_NOT_ASSIGNED" | "OBJECTS_OBJREF_NOT_ASSIGNED_NO" => "CX_SY_REF_IS_INITIAL",
        "ITAB_LINE_NOT_FOUND" => "CX_SY_ITAB_LINE_NOT_FOUND",
        "ITAB_DUPLICATE_KEY" => "CX_SY_ITAB_DUPLICATE_KEY",
        "MOVE_CAST_ERROR" => "CX_SY_MOVE_CAST_ERROR",
        "STRING_OFFSET_TOO_LARGE"
        | "STRING_LENGTH_TOO_LARGE"
        | "DATA_OFFSET_LENGTH_TOO_LARGE"
        | "STRING_OFFSET_NEGATIVE"
        | "STRING_LENGTH_NEGATIVE" => "CX_SY_RANGE_OUT_OF_BOUNDS",
        crate::interp::builtins::functions::text::PAR_VAL_DUMP => "CX_SY_STRG_PAR_VAL",
        "REPLACE_INFINITE_LOOP" => "CX_SY_REPLACE_INFINITE_LOOP",
        "REGEX_TOO_COMPLEX" => "CX_SY_REGEX_TOO_COMPLEX",
        // The real system's one catchable memory error: a string that cannot grow
        // (`TSV_TNEW_PAGE_ALLOC_FAILED` of a table cannot be caught).
        "STRING_SIZE_TOO_LARGE" => "CX_SY_STRING_SIZE_TOO_LARGE",
        id if statement_exceptions::is_database_dump(id) => {
            statement_exceptions::OPEN_SQL_EXCEPTION
        }
        id => {
            return statement_exceptions::dynamic_exception_for_dump(id)
                .or_else(|| statement_exceptions::function_exception_for_dump(id));
        }
    })
}

/// Default `get_text( )` of a built-in exception class.
pub fn default_text(class: &str) -> Option<&'static str> {
    EXCEPTIONS
        .iter()
        .chain(statement_exceptions::DYNAMIC_EXCEPTIONS)
        .chain(statement_exceptions::FUNCTION_EXCEPTIONS)
        .find(|(n, _, _)| *n == class)
        .map(|(_, _, t)| *t)
}

fn attr(name: &str, ty: Type) -> DataDecl {
    attribute(name, ty, Visibility::Public)
}

fn build() -> BTreeMap<String, ClassDef> {
    let mut out = BTreeMap::new();
    for (name, parent, _) in EXCEPTIONS
        .iter()
        .chain(statement_exceptions::DYNAMIC_EXCEPTIONS)
        .chain(statement_exceptions::FUNCTION_EXCEPTIONS)
    {
        let mut c = ClassDef::new(name, name, "");
        c.builtin = true;
        c.superclass = parent.map(str::to_string);
        c.is_abstract = matches!(
            *name,
            "CX_ROOT" | "CX_STATIC_CHECK" | "CX_DYNAMIC_CHECK" | "CX_NO_CHECK"
        );
        if *name == "CX_ROOT" {
            c.attributes.push(attr("TEXTID", Type::C(32)));
            c.attributes
                .push(attr("PREVIOUS", Type::Ref("CX_ROOT".into())));
            c.attributes.push(attr("IS_RESUMABLE", Type::C(1)));
            c.methods.push(method(
                "CONSTRUCTOR",
                false,
                vec![
                    param("TEXTID", ParamKind::Importing, Type::C(32), true),
                    param(
                        "PREVIOUS",
                        ParamKind::Importing,
                        Type::Ref("CX_ROOT".into()),
                        true,
                    ),
                ],
            ));
            c.methods.push(method(
                "GET_TEXT",
                false,
                vec![param("RESULT", ParamKind::Returning, Type::String, false)],
            ));
            c.methods.push(method(
                "GET_LONGTEXT",
                false,
                vec![param("RESULT", ParamKind::Returning, Type::String, false)],
            ));
        }
        out.insert(name.to_string(), c);
    }
    for name in [
        UNIT_ASSERT,
        UNIT_ASSERT_OLD,
        "CL_ABAP_CHAR_UTILITIES",
        "CL_ABAP_MATH",
        "CL_ABAP_FORMAT",
        crate::interp::builtins::classes::string_utilities::STRING_UTILITIES,
        CONTEXT_INFO,
    ] {
        let mut c = ClassDef::new(name, name, "");
        c.builtin = true;
        out.insert(name.to_string(), c);
    }
    for c in crate::interp::builtins::classes::regex::classes() {
        out.insert(c.name.clone(), c);
    }
    for c in crate::interp::builtins::classes::rtti::classes::classes() {
        out.insert(c.name.clone(), c);
    }
    let t100 = crate::interp::builtins::classes::t100::interface();
    out.insert(t100.name.clone(), t100);
    out
}

/// The lookups a run's state falls back on (`State::builtins`).
pub const BUILTIN_CLASSES: BuiltinClasses = BuiltinClasses {
    class,
    static_constant,
};

/// A built-in class by name.
pub fn class(name: &str) -> Option<&'static ClassDef> {
    static CLASSES: OnceLock<BTreeMap<String, ClassDef>> = OnceLock::new();
    CLASSES.get_or_init(build).get(name)
}

/// Constants of built-in classes (`cl_abap_char_utilities=>newline`).
pub fn static_constant(path: &Path) -> Option<Var> {
    let [(Sel::Static, attr)] = path.rest.as_slice() else {
        return None;
    };
    if let Some(v) = crate::interp::builtins::classes::rtti::classes::constant(&path.base, attr) {
        return Some(v);
    }
    if path.base == "CL_ABAP_MATH" {
        return math_constant(attr);
    }
    if path.base == "CL_ABAP_FORMAT" {
        return format_constant(attr);
    }
    if path.base == "CL_ABAP_CHAR_UTILITIES" && attr == "CHARSIZE" {
        // Bytes per character in a Unicode system.
        return Some(int_constant(attr, 2));
    }
    let text = match (path.base.as_str(), attr.as_str()) {
        ("CL_ABAP_CHAR_UTILITIES", "NEWLINE") => "\n",
        ("CL_ABAP_CHAR_UTILITIES", "CR_LF") => "\r\n",
        ("CL_ABAP_CHAR_UTILITIES", "HORIZONTAL_TAB") => "\t",
        ("CL_ABAP_CHAR_UTILITIES", "FORM_FEED") => "\u{c}",
        ("CL_ABAP_CHAR_UTILITIES", "VERTICAL_TAB") => "\u{b}",
        ("CL_ABAP_CHAR_UTILITIES", "BACKSPACE") => "\u{8}",
        // The application server's byte order (little endian on x86-64).
        ("CL_ABAP_CHAR_UTILITIES", "ENDIAN") => "L",
        _ => return None,
    };
    let ty = Type::C(u32::try_from(text.chars().count()).unwrap_or(1));
    Some(Var {
        name: attr.clone(),
        ty,
        val: Value::C(text.into()),
        kind: VarKind::Constant,
        read_only: true,
        type_name: None,
    })
}

/// The formats of `escape( … format = … )` (`cl_abap_format=>e_json_string`, …).
fn format_constant(attr: &str) -> Option<Var> {
    const FORMATS: &[(&str, i32)] = &[
        ("E_XML_TEXT", 0),
        ("E_XML_ATTR", 1),
        ("E_XML_ATTR_DQ", 2),
        ("E_XML_ATTR_SQ", 3),
        ("E_HTML_TEXT", 4),
        ("E_HTML_ATTR", 5),
        ("E_HTML_ATTR_DQ", 6),
        ("E_HTML_ATTR_SQ", 7),
        ("E_HTML_JS", 8),
        ("E_HTML_JS_HTML", 10),
        ("E_URL", 12),
        ("E_URL_FULL", 14),
        ("E_URI", 16),
        ("E_URI_FULL", 18),
        ("E_REGEX", 20),
        ("E_STRING_TPL", 22),
        ("E_JSON_STRING", 24),
    ];
    let (_, v) = FORMATS.iter().find(|(n, _)| *n == attr)?;
    Some(int_constant(attr, *v))
}

fn int_constant(name: &str, v: i32) -> Var {
    Var {
        name: name.to_string(),
        ty: Type::I,
        val: Value::I(v),
        kind: VarKind::Constant,
        read_only: true,
        type_name: None,
    }
}

/// The rounding modes of `round( … mode = … )` (`cl_abap_math=>round_half_up`, …).
fn math_constant(attr: &str) -> Option<Var> {
    let v = match attr {
        "ROUND_CEILING" => 0,
        "ROUND_UP" => 1,
        "ROUND_HALF_UP" => 2,
        "ROUND_HALF_EVEN" => 3,
        "ROUND_HALF_DOWN" => 4,
        "ROUND_DOWN" => 5,
        "ROUND_FLOOR" => 6,
        _ => return None,
    };
    Some(Var {
        name: attr.to_string(),
        ty: Type::I,
        val: Value::I(v),
        kind: VarKind::Constant,
        read_only: true,
        type_name: None,
    })
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    fn groups(name: &str) -> Vec<&'static str> {
        natives_of(name).map(|c| c.name).collect()
    }

    #[test]
    fn each_built_in_class_is_offered_to_its_group_then_to_the_exceptions() {
        assert_eq!(groups(UNIT_ASSERT), ["unit_assert", "exceptions"]);
        assert_eq!(groups(UNIT_ASSERT_OLD), ["unit_assert", "exceptions"]);
        assert_eq!(groups(CONTEXT_INFO), ["context_info", "exceptions"]);
        assert_eq!(
            groups("CL_ABAP_STRING_UTILITIES"),
            ["string_utilities", "exceptions"]
        );
        assert_eq!(groups("CL_ABAP_MATCHER"), ["regex", "exceptions"]);
        assert_eq!(groups("CL_ABAP_STRUCTDESCR"), ["rtti", "exceptions"]);
        assert_eq!(groups("CX_SY_ZERODIVIDE"), ["exceptions"]);
    }

    #[test]
    fn static_calls_go_to_the_groups_that_have_them() {
        let with_static: Vec<&str> = CLASSES
            .iter()
            .filter(|c| c.static_call.is_some())
            .map(|c| c.name)
            .collect();
        assert_eq!(
            with_static,
            ["unit_assert", "context_info", "string_utilities"]
        );
    }
}
