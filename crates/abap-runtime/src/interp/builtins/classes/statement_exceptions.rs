//! The exception classes of statements that reach outside the program (dynamic calls and
//! data, `CALL FUNCTION`, Open SQL) and the runtime errors they turn into. They are data of
//! the registry, which builds the classes from them; the statements (`dynamic.rs`,
//! `function_call.rs`, `sql.rs`) raise the runtime errors by id.

/// The exception classes of dynamic statements: `(class, superclass, text of get_text( ))`.
pub const DYNAMIC_EXCEPTIONS: &[(&str, Option<&str>, &str)] = &[
    (
        "CX_SY_DYN_CALL_ERROR",
        Some("CX_DYNAMIC_CHECK"),
        "Error in a dynamic method call",
    ),
    (
        "CX_SY_DYN_CALL_ILLEGAL_CLASS",
        Some("CX_SY_DYN_CALL_ERROR"),
        "The class of a dynamic method call does not exist",
    ),
    (
        "CX_SY_DYN_CALL_ILLEGAL_METHOD",
        Some("CX_SY_DYN_CALL_ERROR"),
        "The method of a dynamic method call cannot be called",
    ),
    (
        "CX_SY_DYN_CALL_PARAMETER_ERROR",
        Some("CX_SY_DYN_CALL_ERROR"),
        "Error in the parameters of a dynamic method call",
    ),
    (
        "CX_SY_DYN_CALL_EXCP_NOT_FOUND",
        Some("CX_SY_DYN_CALL_PARAMETER_ERROR"),
        "The exception of a dynamic method call does not exist",
    ),
    (
        "CX_SY_DYN_CALL_ILLEGAL_TYPE",
        Some("CX_SY_DYN_CALL_PARAMETER_ERROR"),
        "Type conflict in a dynamic method call",
    ),
    (
        "CX_SY_DYN_CALL_PARAM_MISSING",
        Some("CX_SY_DYN_CALL_PARAMETER_ERROR"),
        "A parameter of a dynamic method call is missing",
    ),
    (
        "CX_SY_DYN_CALL_PARAM_NOT_FOUND",
        Some("CX_SY_DYN_CALL_PARAMETER_ERROR"),
        "A parameter of a dynamic method call does not exist",
    ),
    (
        "CX_SY_CREATE_DATA_ERROR",
        Some("CX_DYNAMIC_CHECK"),
        "The data object cannot be created",
    ),
    (
        "CX_SY_DYN_TABLE_ERROR",
        Some("CX_DYNAMIC_CHECK"),
        "Error in a dynamic table operation",
    ),
    (
        "CX_SY_DYN_TABLE_ILL_COMP_VAL",
        Some("CX_SY_DYN_TABLE_ERROR"),
        "Invalid value in a dynamic component specification",
    ),
    (
        "CX_SY_DYN_TABLE_ILL_LINE_TYPE",
        Some("CX_SY_DYN_TABLE_ERROR"),
        "Invalid line type of a dynamic specification table",
    ),
    (
        "CX_SY_ITAB_DYN_LOOP",
        Some("CX_SY_ITAB_ERROR"),
        "Error in a dynamic WHERE condition",
    ),
];

/// The catchable runtime errors of dynamic statements, with their exception class.
pub fn dynamic_exception_for_dump(id: &str) -> Option<&'static str> {
    Some(match id {
        "DYN_CALL_METH_CLASS_NOT_FOUND" => "CX_SY_DYN_CALL_ILLEGAL_CLASS",
        "DYN_CALL_METH_NOT_FOUND"
        | "DYN_CALL_METH_NO_CLASS_METHOD"
        | "DYN_CALL_METH_CONSTRUCTOR"
        | "DYN_CALL_METH_CLASSCONSTRUCTOR"
        | "DYN_CALL_METH_PRIVATE"
        | "DYN_CALL_METH_PROTECTED" => "CX_SY_DYN_CALL_ILLEGAL_METHOD",
        "DYN_CALL_METH_PARAM_KIND" => "CX_SY_DYN_CALL_ILLEGAL_TYPE",
        "DYN_CALL_METH_PARAM_MISSING" | "DYN_CALL_METH_PARREF_INITIAL" => {
            "CX_SY_DYN_CALL_PARAM_MISSING"
        }
        "DYN_CALL_METH_PARAM_NOT_FOUND" => "CX_SY_DYN_CALL_PARAM_NOT_FOUND",
        "DYN_CALL_METH_REF_IS_INITIAL" => "CX_SY_REF_IS_INITIAL",
        "CREATE_OBJECT_CLASS_NOT_FOUND"
        | "CREATE_OBJECT_CLASS_ABSTRACT"
        | "CREATE_OBJECT_CREATE_PRIVATE"
        | "CREATE_OBJECT_CREATE_PROTECTED" => "CX_SY_CREATE_OBJECT_ERROR",
        "CREATE_DATA_UNKNOWN_TYPE"
        | "CREATE_DATA_NOT_ALLOWED_TYPE"
        | "CREATE_DATA_LEN_NOT_ALLOWED"
        | "CREATE_DATA_ILLEGAL_LENGTH"
        | "CREATE_DATA_ILLEGAL_DECIMALS" => "CX_SY_CREATE_DATA_ERROR",
        "DYN_TABLE_ILL_COMP_VAL" => "CX_SY_DYN_TABLE_ILL_COMP_VAL",
        "DYN_TABLE_ILL_LINE_TYPE" => "CX_SY_DYN_TABLE_ILL_LINE_TYPE",
        "DYN_WHERE_PARSE_ERROR" => "CX_SY_ITAB_DYN_LOOP",
        _ => return None,
    })
}

/// The exception class of a call of a function module that does not exist (its parent is
/// [`DYNAMIC_EXCEPTIONS`]'s `CX_SY_DYN_CALL_ERROR`).
pub const FUNCTION_EXCEPTIONS: &[(&str, Option<&str>, &str)] = &[(
    "CX_SY_DYN_CALL_ILLEGAL_FUNC",
    Some("CX_SY_DYN_CALL_ERROR"),
    "The function module of a call does not exist",
)];

/// The catchable runtime errors of `CALL FUNCTION`, with their exception class.
pub fn function_exception_for_dump(id: &str) -> Option<&'static str> {
    Some(match id {
        "CALL_FUNCTION_NOT_FOUND" => "CX_SY_DYN_CALL_ILLEGAL_FUNC",
        "CALL_FUNCTION_PARM_UNKNOWN" => "CX_SY_DYN_CALL_PARAM_NOT_FOUND",
        "CALL_FUNCTION_PARM_MISSING" => "CX_SY_DYN_CALL_PARAM_MISSING",
        _ => return None,
    })
}

/// The exception class of the runtime errors a database statement raises.
pub const OPEN_SQL_EXCEPTION: &str = "CX_SY_OPEN_SQL_DB";

/// True for the id of a runtime error of a database statement (catchable as
/// [`OPEN_SQL_EXCEPTION`]).
pub fn is_database_dump(id: &str) -> bool {
    id.starts_with("SAPSQL_") || id.starts_with("DBSQL_")
}
