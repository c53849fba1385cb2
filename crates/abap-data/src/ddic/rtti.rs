//! The dictionary types of run time type information (type pool `ABAP`): the rows of the
//! descriptors' tables (`abap_compdescr`, `abap_componentdescr`, `abap_keydescr`,
//! `abap_attrdescr`, `abap_methdescr`, `abap_parmdescr`, `abap_intfdescr`), their tables, and
//! the one-character kinds.

use std::sync::Arc;

use crate::types::{StructType, TableKey, TableKind, TableType, Type};

/// The descriptor class that component types of `abap_componentdescr` refer to.
const DATADESCR: &str = "CL_ABAP_DATADESCR";

/// `abap_compname`: names of components, keys and interfaces.
const COMPNAME: u32 = 30;
/// `abap_attrname` / `abap_methname`: `intf~name` fits.
const ATTRNAME: u32 = 61;

fn flag() -> Type {
    Type::C(1)
}

fn structure(name: &str, comps: Vec<(&str, Type)>) -> Type {
    Type::Struct(Arc::new(StructType {
        name: name.into(),
        comps: comps.into_iter().map(|(n, t)| (n.into(), t)).collect(),
    }))
}

fn table(name: &str, line: Type, key: &[&str]) -> Type {
    Type::Table(Arc::new(TableType {
        name: name.into(),
        kind: TableKind::Standard,
        line,
        unique: false,
        key: TableKey::Comps(key.iter().map(|k| (*k).to_string()).collect()),
        secondary: Vec::new(),
    }))
}

fn compdescr() -> Type {
    structure(
        "ABAP_COMPDESCR",
        vec![
            ("LENGTH", Type::I),
            ("DECIMALS", Type::I),
            ("TYPE_KIND", flag()),
            ("NAME", Type::C(COMPNAME)),
        ],
    )
}

fn componentdescr() -> Type {
    structure(
        "ABAP_COMPONENTDESCR",
        vec![
            ("NAME", Type::String),
            ("TYPE", Type::Ref(DATADESCR.into())),
            ("AS_INCLUDE", flag()),
            ("SUFFIX", Type::String),
        ],
    )
}

fn simple_componentdescr() -> Type {
    structure(
        "ABAP_SIMPLE_COMPONENTDESCR",
        vec![
            ("NAME", Type::String),
            ("TYPE", Type::Ref(DATADESCR.into())),
        ],
    )
}

fn keydescr() -> Type {
    structure("ABAP_KEYDESCR", vec![("NAME", Type::C(COMPNAME))])
}

fn attrdescr() -> Type {
    structure(
        "ABAP_ATTRDESCR",
        vec![
            ("LENGTH", Type::I),
            ("DECIMALS", Type::I),
            ("NAME", Type::C(ATTRNAME)),
            ("TYPE_KIND", flag()),
            ("VISIBILITY", flag()),
            ("IS_INTERFACE", flag()),
            ("IS_INHERITED", flag()),
            ("IS_CLASS", flag()),
            ("IS_CONSTANT", flag()),
            ("IS_VIRTUAL", flag()),
            ("IS_READ_ONLY", flag()),
            ("ALIAS_FOR", Type::C(ATTRNAME)),
        ],
    )
}

fn parmdescr() -> Type {
    structure(
        "ABAP_PARMDESCR",
        vec![
            ("LENGTH", Type::I),
            ("DECIMALS", Type::I),
            ("NAME", Type::C(COMPNAME)),
            ("TYPE_KIND", flag()),
            ("PARM_KIND", flag()),
            ("BY_VALUE", flag()),
            ("IS_OPTIONAL", flag()),
        ],
    )
}

fn methdescr() -> Type {
    structure(
        "ABAP_METHDESCR",
        vec![
            (
                "PARAMETERS",
                table("ABAP_PARMDESCR_TAB", parmdescr(), &["NAME"]),
            ),
            ("NAME", Type::C(ATTRNAME)),
            ("VISIBILITY", flag()),
            ("IS_INTERFACE", flag()),
            ("IS_INHERITED", flag()),
            ("IS_REDEFINED", flag()),
            ("IS_ABSTRACT", flag()),
            ("IS_FINAL", flag()),
            ("IS_CLASS", flag()),
            ("ALIAS_FOR", Type::C(ATTRNAME)),
        ],
    )
}

fn intfdescr() -> Type {
    structure(
        "ABAP_INTFDESCR",
        vec![("NAME", Type::C(COMPNAME)), ("IS_INHERITED", flag())],
    )
}

/// An RTTI type of the type pool `ABAP` by its upper-case name.
pub fn rtti_type(name: &str) -> Option<Type> {
    Some(match name {
        "ABAP_COMPDESCR" => compdescr(),
        "ABAP_COMPDESCR_TAB" => table(name, compdescr(), &["NAME"]),
        "ABAP_COMPONENTDESCR" => componentdescr(),
        "ABAP_COMPONENT_TAB" => table(name, componentdescr(), &["NAME"]),
        "ABAP_SIMPLE_COMPONENTDESCR" => simple_componentdescr(),
        "ABAP_COMPONENT_VIEW_TAB" => table(name, simple_componentdescr(), &["NAME"]),
        "ABAP_KEYDESCR" => keydescr(),
        "ABAP_KEYDESCR_TAB" => table(name, keydescr(), &["NAME"]),
        "ABAP_ATTRDESCR" => attrdescr(),
        "ABAP_ATTRDESCR_TAB" => table(name, attrdescr(), &["NAME"]),
        "ABAP_METHDESCR" => methdescr(),
        "ABAP_METHDESCR_TAB" => table(name, methdescr(), &["NAME"]),
        "ABAP_PARMDESCR" => parmdescr(),
        "ABAP_PARMDESCR_TAB" => table(name, parmdescr(), &["NAME"]),
        "ABAP_INTFDESCR" => intfdescr(),
        "ABAP_INTFDESCR_TAB" => table(name, intfdescr(), &["NAME"]),
        "ABAP_COMPNAME" | "ABAP_KEYNAME" | "ABAP_INTFNAME" => Type::C(COMPNAME),
        "ABAP_ATTRNAME" | "ABAP_METHNAME" => Type::C(ATTRNAME),
        "ABAP_ABSTYPENAME" => Type::C(200),
        "ABAP_TYPEKIND" | "ABAP_TYPECATEGORY" | "ABAP_STRUCTKIND" | "ABAP_TABLEKIND"
        | "ABAP_KEYDEFKIND" | "ABAP_VISIBILITY" | "ABAP_PARMKIND" | "ABAP_CLASSKIND" => flag(),
        _ => return None,
    })
}

/// True for the types of the type pool `ABAP` (`abap_bool`, the RTTI tables): their
/// absolute names are `\TYPE-POOL=ABAP\TYPE=…`. `ABAP_BOOLEAN` is a dictionary data element.
pub fn in_abap_type_pool(name: &str) -> bool {
    name.starts_with("ABAP_") && name != "ABAP_BOOLEAN"
}
