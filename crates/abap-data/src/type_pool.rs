//! Types of the type pool `ABAP` that dynamic statements take: the parameter and exception
//! tables of a dynamic `CALL METHOD` (`abap_parmbind_tab`, `abap_excpbind_tab`) and the sort
//! order table of `SORT … BY (otab)` (`abap_sortorder_tab`).

use std::sync::Arc;

use crate::types::{StructType, TableKey, TableKind, TableType, Type};

/// Length of a formal parameter name (`abap_parmname`).
const PARMNAME_LENGTH: u32 = 30;

fn structure(name: &str, comps: Vec<(&str, Type)>) -> Type {
    Type::Struct(Arc::new(StructType {
        name: name.to_string(),
        comps: comps.into_iter().map(|(n, t)| (n.to_string(), t)).collect(),
    }))
}

fn table(name: &str, line: Type, kind: TableKind, key: TableKey) -> Type {
    Type::Table(Arc::new(TableType {
        name: name.to_string(),
        kind,
        line,
        unique: kind == TableKind::Hashed,
        key,
        secondary: Vec::new(),
    }))
}

fn parmbind() -> Type {
    structure(
        "ABAP_PARMBIND",
        vec![
            ("NAME", Type::C(PARMNAME_LENGTH)),
            ("KIND", Type::C(1)),
            ("VALUE", Type::DataRef(Box::new(Type::Any))),
        ],
    )
}

fn excpbind() -> Type {
    structure(
        "ABAP_EXCPBIND",
        vec![("NAME", Type::C(PARMNAME_LENGTH)), ("VALUE", Type::I)],
    )
}

fn sortorder() -> Type {
    structure(
        "ABAP_SORTORDER",
        vec![
            ("NAME", Type::String),
            ("DESCENDING", Type::C(1)),
            ("ASTEXT", Type::C(1)),
        ],
    )
}

/// A type of the type pool `ABAP` used by dynamic statements, by upper-case name.
pub fn abap_type(name: &str) -> Option<Type> {
    let by_name = || TableKey::Comps(vec!["NAME".to_string()]);
    Some(match name {
        "ABAP_PARMNAME" | "ABAP_EXCPNAME" => Type::C(PARMNAME_LENGTH),
        "ABAP_PARMKIND" => Type::C(1),
        "ABAP_PARMBIND" => parmbind(),
        "ABAP_PARMBIND_TAB" => table(name, parmbind(), TableKind::Hashed, by_name()),
        "ABAP_EXCPBIND" => excpbind(),
        "ABAP_EXCPBIND_TAB" => table(name, excpbind(), TableKind::Hashed, by_name()),
        "ABAP_SORTORDER" => sortorder(),
        "ABAP_SORTORDER_TAB" => table(name, sortorder(), TableKind::Standard, TableKey::Default),
        _ => return None,
    })
}
