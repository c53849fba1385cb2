//! Data elements of the ABAP Dictionary that programs commonly type with, as the built-in
//! types the simulator has for them (the simulator has no dictionary of its own).

use std::sync::Arc;

use crate::types::{MAX_C_LENGTH, StructType, TableType, Type};

mod rtti;
pub use rtti::{in_abap_type_pool, rtti_type};

/// The type of a dictionary data element by its upper-case name: `CHARnn`/`NUMCnn` (`c`/`n`
/// of that length), the `SYST_*`/`SY*` elements of the system fields, `BOOLEAN`/`BOOLE_D`.
pub fn data_element(name: &str) -> Option<Type> {
    if let Some(t) = dictionary_type(name) {
        return Some(t);
    }
    if let Some(n) = name.strip_prefix("CHAR")
        && let Ok(len) = n.parse::<u32>()
        && (1..=MAX_C_LENGTH).contains(&len)
        && !n.starts_with('0')
    {
        return Some(Type::C(len));
    }
    if let Some(n) = name.strip_prefix("NUMC")
        && let Ok(len) = n.parse::<u32>()
        && (1..=MAX_C_LENGTH).contains(&len)
        && !n.starts_with('0')
    {
        return Some(Type::N(len));
    }
    let ty = match name {
        "SYST_SUBRC" | "SYSUBRC" | "SYST_TABIX" | "SYTABIX" | "SYST_INDEX" | "SYINDEX"
        | "SYST_TFILL" | "SYTFILL" | "SYST_DBCNT" | "SYDBCNT" | "SYST_FDPOS" | "SYFDPOS" => Type::I,
        "SYST_UNAME" | "SYUNAME" => Type::C(12),
        "SYST_SYSID" | "SYSYSID" => Type::C(8),
        "SYST_MANDT" | "SYMANDT" | "MANDT" => Type::C(3),
        "SYST_MSGID" | "SYMSGID" => Type::C(20),
        "SYST_MSGTY" | "SYMSGTY" => Type::C(1),
        "SYST_MSGNO" | "SYMSGNO" => Type::N(3),
        "SYST_MSGV" | "SYMSGV" => Type::C(50),
        "SYST_REPID" | "SYREPID" => Type::C(40),
        "BOOLEAN" | "BOOLE_D" | "ABAP_BOOLEAN" | "XSDBOOLEAN" => Type::C(1),
        "XSDDATE_D" => Type::D,
        "XSDTIME_T" => Type::T,
        "TZNTSTMPS" => Type::P { len: 8, dec: 0 },
        "TZNTSTMPL" => Type::P { len: 11, dec: 7 },
        "SYSUUID_X16" => Type::X(16),
        "SYSUUID_C22" => Type::C(22),
        "SYSUUID_C32" => Type::C(32),
        _ => return None,
    };
    Some(ty)
}

/// Length of the `ATTR1` … `ATTR4` components (`SCX_ATTRNAME`).
pub const ATTRNAME_LENGTH: u32 = 255;

/// The dictionary structure `SCX_T100KEY`: message class, number and the names of the
/// attributes that fill the placeholders.
pub fn t100key_type() -> Type {
    let attr = Type::C(ATTRNAME_LENGTH);
    Type::Struct(Arc::new(StructType {
        name: "SCX_T100KEY".into(),
        comps: vec![
            ("MSGID".into(), Type::C(20)),
            ("MSGNO".into(), Type::N(3)),
            ("ATTR1".into(), attr.clone()),
            ("ATTR2".into(), attr.clone()),
            ("ATTR3".into(), attr.clone()),
            ("ATTR4".into(), attr),
        ],
    }))
}

/// Dictionary types of this area: `SCX_T100KEY`, `SCX_ATTRNAME`.
pub fn dictionary_type(name: &str) -> Option<Type> {
    match name {
        "SCX_T100KEY" => Some(t100key_type()),
        "SCX_ATTRNAME" => Some(Type::C(ATTRNAME_LENGTH)),
        _ => None,
    }
}

pub fn table_of(name: &str, line: Type) -> Type {
    TableType::standard(name, line)
}

pub fn submatch_result() -> Arc<StructType> {
    Arc::new(StructType {
        name: "SUBMATCH_RESULT".into(),
        comps: vec![("OFFSET".into(), Type::I), ("LENGTH".into(), Type::I)],
    })
}

pub fn match_result() -> Arc<StructType> {
    Arc::new(StructType {
        name: "MATCH_RESULT".into(),
        comps: vec![
            ("LINE".into(), Type::I),
            ("OFFSET".into(), Type::I),
            ("LENGTH".into(), Type::I),
            (
                "SUBMATCHES".into(),
                table_of("SUBMATCH_RESULT_TAB", Type::Struct(submatch_result())),
            ),
        ],
    })
}

pub fn repl_result() -> Arc<StructType> {
    Arc::new(StructType {
        name: "REPL_RESULT".into(),
        comps: vec![
            ("LINE".into(), Type::I),
            ("OFFSET".into(), Type::I),
            ("LENGTH".into(), Type::I),
        ],
    })
}

/// The dictionary types of match results by name.
pub fn ddic_type(name: &str) -> Option<Type> {
    Some(match name {
        "MATCH_RESULT" => Type::Struct(match_result()),
        "MATCH_RESULT_TAB" => table_of(name, Type::Struct(match_result())),
        "SUBMATCH_RESULT" => Type::Struct(submatch_result()),
        "SUBMATCH_RESULT_TAB" => table_of(name, Type::Struct(submatch_result())),
        "REPL_RESULT" => Type::Struct(repl_result()),
        "REPL_RESULT_TAB" => table_of(name, Type::Struct(repl_result())),
        _ => return rtti_type(name),
    })
}

/// A type a program may name without declaring it: the elementary ones, `string_table`, the
/// dictionary's data elements and types, the type pool `ABAP`.
pub fn global_type(name: &str) -> Option<Type> {
    let line = match name {
        "STRING_TABLE" => Type::String,
        "STRINGTAB" => Type::String,
        _ => {
            return crate::types::named_type(name)
                .or_else(|| data_element(name))
                .or_else(|| ddic_type(name))
                .or_else(|| crate::type_pool::abap_type(name));
        }
    };
    Some(TableType::standard(name, line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_elements_take_their_length_from_the_name() {
        assert_eq!(data_element("CHAR10"), Some(Type::C(10)));
        assert_eq!(data_element("CHAR255"), Some(Type::C(255)));
        assert_eq!(data_element("CHAR0"), None);
        assert_eq!(data_element("CHAR010"), None);
        assert_eq!(data_element("CHARX"), None);
        assert_eq!(data_element("CHAR99999999999"), None);
        assert_eq!(data_element("NUMC10"), Some(Type::N(10)));
        assert_eq!(data_element("NUMC0"), None);
    }

    #[test]
    fn system_field_elements() {
        assert_eq!(data_element("SYST_SUBRC"), Some(Type::I));
        assert_eq!(data_element("SYUNAME"), Some(Type::C(12)));
        assert_eq!(data_element("NOT_A_TYPE"), None);
    }
}
