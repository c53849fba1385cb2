//! The descriptor classes of run time type information as built-in classes: their
//! hierarchy (`CL_ABAP_TYPEDESCR` → `CL_ABAP_DATADESCR` → `CL_ABAP_ELEMDESCR`,
//! `CL_ABAP_COMPLEXDESCR` → `CL_ABAP_STRUCTDESCR`/`CL_ABAP_TABLEDESCR`, `CL_ABAP_REFDESCR`;
//! `CL_ABAP_TYPEDESCR` → `CL_ABAP_OBJECTDESCR` → `CL_ABAP_CLASSDESCR`/`CL_ABAP_INTFDESCR`),
//! their public attributes and method signatures (the methods run in `rtti/mod.rs`), and
//! their constants with the one-character values of a real system.

use crate::interp::builtins::classes::native::{attribute, method, param};
use crate::interp::var::{Var, VarKind};
use abap_data::value::{Type, Value};
use abap_syntax::ast::{ClassDef, ParamDecl, ParamKind, Visibility};

pub const TYPEDESCR: &str = "CL_ABAP_TYPEDESCR";
pub const DATADESCR: &str = "CL_ABAP_DATADESCR";
pub const ELEMDESCR: &str = "CL_ABAP_ELEMDESCR";
pub const COMPLEXDESCR: &str = "CL_ABAP_COMPLEXDESCR";
pub const STRUCTDESCR: &str = "CL_ABAP_STRUCTDESCR";
pub const TABLEDESCR: &str = "CL_ABAP_TABLEDESCR";
pub const REFDESCR: &str = "CL_ABAP_REFDESCR";
pub const OBJECTDESCR: &str = "CL_ABAP_OBJECTDESCR";
pub const CLASSDESCR: &str = "CL_ABAP_CLASSDESCR";
pub const INTFDESCR: &str = "CL_ABAP_INTFDESCR";

/// Every descriptor class, superclass first.
pub const ALL: [&str; 10] = [
    TYPEDESCR,
    DATADESCR,
    ELEMDESCR,
    COMPLEXDESCR,
    STRUCTDESCR,
    TABLEDESCR,
    REFDESCR,
    OBJECTDESCR,
    CLASSDESCR,
    INTFDESCR,
];

pub fn is_descriptor_class(name: &str) -> bool {
    ALL.contains(&name)
}

fn rtti(name: &str) -> Type {
    abap_data::ddic::rtti_type(name).unwrap_or(Type::C(1))
}

fn flag() -> Type {
    Type::C(1)
}

fn imp(name: &str, ty: Type) -> ParamDecl {
    param(name, ParamKind::Importing, ty, false)
}

fn opt(name: &str, ty: Type) -> ParamDecl {
    param(name, ParamKind::Importing, ty, true)
}

fn ret(name: &str, class: &str) -> ParamDecl {
    param(name, ParamKind::Returning, Type::Ref(class.into()), false)
}

fn ret_ty(name: &str, ty: Type) -> ParamDecl {
    param(name, ParamKind::Returning, ty, false)
}

fn class(name: &str, parent: Option<&str>, abstract_: bool) -> ClassDef {
    let mut c = ClassDef::new(name, name, "");
    c.builtin = true;
    c.superclass = parent.map(str::to_string);
    c.is_abstract = abstract_;
    c
}

fn public(c: &mut ClassDef, attrs: Vec<(&str, Type)>) {
    for (n, t) in attrs {
        c.attributes.push(attribute(n, t, Visibility::Public));
    }
}

/// The class definitions.
pub fn classes() -> Vec<ClassDef> {
    let mut typedescr = class(TYPEDESCR, None, true);
    public(
        &mut typedescr,
        vec![
            ("ABSOLUTE_NAME", Type::String),
            ("TYPE_KIND", flag()),
            ("LENGTH", Type::I),
            ("DECIMALS", Type::I),
            ("KIND", flag()),
        ],
    );
    typedescr.methods = vec![
        method(
            "DESCRIBE_BY_DATA",
            true,
            vec![imp("P_DATA", Type::Any), ret("P_DESCR_REF", TYPEDESCR)],
        ),
        method(
            "DESCRIBE_BY_NAME",
            true,
            vec![imp("P_NAME", Type::Any), ret("P_DESCR_REF", TYPEDESCR)],
        ),
        method(
            "DESCRIBE_BY_DATA_REF",
            true,
            vec![imp("P_DATA_REF", Type::Any), ret("P_DESCR_REF", TYPEDESCR)],
        ),
        method(
            "DESCRIBE_BY_OBJECT_REF",
            true,
            vec![
                imp("P_OBJECT_REF", Type::Any),
                ret("P_DESCR_REF", TYPEDESCR),
            ],
        ),
        method(
            "GET_RELATIVE_NAME",
            false,
            vec![ret_ty("P_RELATIVE_NAME", Type::String)],
        ),
        method("IS_DDIC_TYPE", false, vec![ret_ty("P_ABAP_BOOL", flag())]),
    ];

    let datadescr = class(DATADESCR, Some(TYPEDESCR), true);

    let mut elemdescr = class(ELEMDESCR, Some(DATADESCR), false);
    public(&mut elemdescr, vec![("OUTPUT_LENGTH", Type::I)]);
    let length = || imp("P_LENGTH", Type::I);
    let mut getters: Vec<_> = [
        "GET_I",
        "GET_INT8",
        "GET_F",
        "GET_STRING",
        "GET_XSTRING",
        "GET_D",
        "GET_T",
        "GET_DECFLOAT16",
        "GET_DECFLOAT34",
    ]
    .into_iter()
    .map(|n| method(n, true, vec![ret("P_RESULT", ELEMDESCR)]))
    .collect();
    for n in ["GET_C", "GET_N", "GET_X"] {
        getters.push(method(n, true, vec![length(), ret("P_RESULT", ELEMDESCR)]));
    }
    getters.push(method(
        "GET_P",
        true,
        vec![
            length(),
            imp("P_DECIMALS", Type::I),
            ret("P_RESULT", ELEMDESCR),
        ],
    ));
    elemdescr.methods = getters;

    let complexdescr = class(COMPLEXDESCR, Some(DATADESCR), true);

    let mut structdescr = class(STRUCTDESCR, Some(COMPLEXDESCR), false);
    public(
        &mut structdescr,
        vec![
            ("STRUCT_KIND", flag()),
            ("COMPONENTS", rtti("ABAP_COMPDESCR_TAB")),
            ("HAS_INCLUDE", flag()),
        ],
    );
    let create_struct = |name: &str| {
        method(
            name,
            true,
            vec![
                imp("P_COMPONENTS", rtti("ABAP_COMPONENT_TAB")),
                opt("P_STRICT", flag()),
                ret("P_RESULT", STRUCTDESCR),
            ],
        )
    };
    structdescr.types = vec![
        ("COMPONENT".into(), Ok(rtti("ABAP_COMPONENTDESCR"))),
        ("COMPONENT_TABLE".into(), Ok(rtti("ABAP_COMPONENT_TAB"))),
        ("INCLUDED_VIEW".into(), Ok(rtti("ABAP_COMPONENT_VIEW_TAB"))),
    ];
    structdescr.methods = vec![
        method(
            "GET_INCLUDED_VIEW",
            false,
            vec![
                opt("P_LEVEL", Type::I),
                ret_ty("P_RESULT", rtti("ABAP_COMPONENT_VIEW_TAB")),
            ],
        ),
        method(
            "GET_COMPONENTS",
            false,
            vec![ret_ty("P_RESULT", rtti("ABAP_COMPONENT_TAB"))],
        ),
        method(
            "GET_COMPONENT_TYPE",
            false,
            vec![imp("P_NAME", Type::Any), ret("P_DESCR_REF", DATADESCR)],
        ),
        create_struct("CREATE"),
        create_struct("GET"),
    ];

    let mut tabledescr = class(TABLEDESCR, Some(COMPLEXDESCR), false);
    public(
        &mut tabledescr,
        vec![
            ("TABLE_KIND", flag()),
            ("HAS_UNIQUE_KEY", flag()),
            ("KEY", rtti("ABAP_KEYDESCR_TAB")),
            ("KEY_DEFKIND", flag()),
            ("INITIAL_SIZE", Type::I),
        ],
    );
    let create_table = |name: &str| {
        method(
            name,
            true,
            vec![
                imp("P_LINE_TYPE", Type::Ref(DATADESCR.into())),
                opt("P_TABLE_KIND", flag()),
                opt("P_UNIQUE", flag()),
                opt("P_KEY", rtti("ABAP_KEYDESCR_TAB")),
                opt("P_KEY_KIND", flag()),
                ret("P_RESULT", TABLEDESCR),
            ],
        )
    };
    tabledescr.methods = vec![
        method(
            "GET_TABLE_LINE_TYPE",
            false,
            vec![ret("P_DESCR_REF", DATADESCR)],
        ),
        create_table("CREATE"),
        create_table("GET"),
    ];

    let mut refdescr = class(REFDESCR, Some(DATADESCR), false);
    let create_ref = |name: &str| {
        method(
            name,
            true,
            vec![
                imp("P_REFERENCED_TYPE", Type::Ref(TYPEDESCR.into())),
                ret("P_RESULT", REFDESCR),
            ],
        )
    };
    refdescr.methods = vec![
        method(
            "GET_REFERENCED_TYPE",
            false,
            vec![ret("P_DESCR_REF", TYPEDESCR)],
        ),
        create_ref("CREATE"),
        create_ref("GET"),
        method("GET_REF_TO_DATA", true, vec![ret("P_RESULT", REFDESCR)]),
        method("GET_REF_TO_OBJECT", true, vec![ret("P_RESULT", REFDESCR)]),
    ];

    let mut objectdescr = class(OBJECTDESCR, Some(TYPEDESCR), true);
    public(
        &mut objectdescr,
        vec![
            ("ATTRIBUTES", rtti("ABAP_ATTRDESCR_TAB")),
            ("METHODS", rtti("ABAP_METHDESCR_TAB")),
            ("INTERFACES", rtti("ABAP_INTFDESCR_TAB")),
        ],
    );
    objectdescr.methods = vec![method(
        "GET_ATTRIBUTE_TYPE",
        false,
        vec![imp("P_NAME", Type::Any), ret("P_DESCR_REF", DATADESCR)],
    )];

    let mut classdescr = class(CLASSDESCR, Some(OBJECTDESCR), false);
    public(&mut classdescr, vec![("CLASS_KIND", flag())]);
    classdescr.methods = vec![
        method(
            "GET_SUPER_CLASS_TYPE",
            false,
            vec![ret("P_DESCR_REF", CLASSDESCR)],
        ),
        method(
            "GET_CLASS_NAME",
            true,
            vec![
                imp("P_OBJECT", Type::Any),
                ret_ty("P_RESULT", rtti("ABAP_ABSTYPENAME")),
            ],
        ),
    ];
    let intfdescr = class(INTFDESCR, Some(OBJECTDESCR), false);

    vec![
        typedescr,
        datadescr,
        elemdescr,
        complexdescr,
        structdescr,
        tabledescr,
        refdescr,
        objectdescr,
        classdescr,
        intfdescr,
    ]
}

/// `(class, constant, value)`: the constants, each on the class that declares it.
const CONSTANTS: &[(&str, &str, &str)] = &[
    (TYPEDESCR, "TYPEKIND_ANY", "~"),
    (TYPEDESCR, "TYPEKIND_CHAR", "C"),
    (TYPEDESCR, "TYPEKIND_CLASS", "*"),
    (TYPEDESCR, "TYPEKIND_CLIKE", "&"),
    (TYPEDESCR, "TYPEKIND_CSEQUENCE", "?"),
    (TYPEDESCR, "TYPEKIND_DATA", "#"),
    (TYPEDESCR, "TYPEKIND_DATE", "D"),
    (TYPEDESCR, "TYPEKIND_DECFLOAT", "/"),
    (TYPEDESCR, "TYPEKIND_DECFLOAT16", "a"),
    (TYPEDESCR, "TYPEKIND_DECFLOAT34", "e"),
    (TYPEDESCR, "TYPEKIND_DREF", "l"),
    (TYPEDESCR, "TYPEKIND_ENUM", "k"),
    (TYPEDESCR, "TYPEKIND_FLOAT", "F"),
    (TYPEDESCR, "TYPEKIND_HEX", "X"),
    (TYPEDESCR, "TYPEKIND_INT", "I"),
    (TYPEDESCR, "TYPEKIND_INT1", "b"),
    (TYPEDESCR, "TYPEKIND_INT2", "s"),
    (TYPEDESCR, "TYPEKIND_INT8", "8"),
    (TYPEDESCR, "TYPEKIND_INTF", "+"),
    (TYPEDESCR, "TYPEKIND_IREF", "m"),
    (TYPEDESCR, "TYPEKIND_NUM", "N"),
    (TYPEDESCR, "TYPEKIND_NUMERIC", "%"),
    (TYPEDESCR, "TYPEKIND_OREF", "r"),
    (TYPEDESCR, "TYPEKIND_PACKED", "P"),
    (TYPEDESCR, "TYPEKIND_SIMPLE", "$"),
    (TYPEDESCR, "TYPEKIND_STRING", "g"),
    (TYPEDESCR, "TYPEKIND_STRUCT1", "u"),
    (TYPEDESCR, "TYPEKIND_STRUCT2", "v"),
    (TYPEDESCR, "TYPEKIND_TABLE", "h"),
    (TYPEDESCR, "TYPEKIND_TIME", "T"),
    (TYPEDESCR, "TYPEKIND_UTCLONG", "p"),
    (TYPEDESCR, "TYPEKIND_W", "w"),
    (TYPEDESCR, "TYPEKIND_XSEQUENCE", "!"),
    (TYPEDESCR, "TYPEKIND_XSTRING", "y"),
    (TYPEDESCR, "TYPEKIND_BREF", "j"),
    (TYPEDESCR, "KIND_ELEM", "E"),
    (TYPEDESCR, "KIND_STRUCT", "S"),
    (TYPEDESCR, "KIND_TABLE", "T"),
    (TYPEDESCR, "KIND_REF", "R"),
    (TYPEDESCR, "KIND_CLASS", "C"),
    (TYPEDESCR, "KIND_INTF", "I"),
    (TYPEDESCR, "TRUE", "X"),
    (TYPEDESCR, "FALSE", " "),
    (STRUCTDESCR, "STRUCTKIND_FLAT", "F"),
    (STRUCTDESCR, "STRUCTKIND_NESTED", "N"),
    (STRUCTDESCR, "STRUCTKIND_DEEP", "D"),
    (TABLEDESCR, "TABLEKIND_ANY", "A"),
    (TABLEDESCR, "TABLEKIND_INDEX", "I"),
    (TABLEDESCR, "TABLEKIND_STD", "S"),
    (TABLEDESCR, "TABLEKIND_SORTED", "O"),
    (TABLEDESCR, "TABLEKIND_HASHED", "H"),
    (TABLEDESCR, "KEYDEFKIND_DEFAULT", "D"),
    (TABLEDESCR, "KEYDEFKIND_USER", "U"),
    (TABLEDESCR, "KEYDEFKIND_EMPTY", "E"),
    (TABLEDESCR, "KEYDEFKIND_TABLELINE", "L"),
    (OBJECTDESCR, "PUBLIC", "U"),
    (OBJECTDESCR, "PROTECTED", "O"),
    (OBJECTDESCR, "PRIVATE", "I"),
    (OBJECTDESCR, "IMPORTING", "I"),
    (OBJECTDESCR, "EXPORTING", "E"),
    (OBJECTDESCR, "CHANGING", "C"),
    (OBJECTDESCR, "RETURNING", "R"),
    (OBJECTDESCR, "RECEIVING", "R"),
    (CLASSDESCR, "CLASSKIND_ABSTRACT", "A"),
    (CLASSDESCR, "CLASSKIND_FINAL", "F"),
    (CLASSDESCR, "CLASSKIND_COMMON", "C"),
];

/// A constant of a descriptor class (`cl_abap_typedescr=>typekind_int`), also through a
/// subclass (`cl_abap_elemdescr=>typekind_int`).
pub fn constant(class: &str, name: &str) -> Option<Var> {
    let lineage = lineage_names(class)?;
    let (_, _, v) = CONSTANTS
        .iter()
        .find(|(c, n, _)| *n == name && lineage.contains(c))?;
    Some(Var {
        name: name.to_string(),
        ty: Type::C(1),
        val: Value::C((*v).into()),
        kind: VarKind::Constant,
        read_only: true,
        type_name: None,
    })
}

/// The class and its superclasses, by name.
fn lineage_names(class: &str) -> Option<Vec<&'static str>> {
    let parent = |c: &str| -> Option<&'static str> {
        Some(match c {
            DATADESCR | OBJECTDESCR => TYPEDESCR,
            ELEMDESCR | COMPLEXDESCR | REFDESCR => DATADESCR,
            STRUCTDESCR | TABLEDESCR => COMPLEXDESCR,
            CLASSDESCR | INTFDESCR => OBJECTDESCR,
            _ => return None,
        })
    };
    let mut out = vec![*ALL.iter().find(|c| **c == class)?];
    while let Some(p) = out.last().and_then(|c| parent(c)) {
        out.push(p);
    }
    Some(out)
}
