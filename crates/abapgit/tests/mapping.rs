//! abapGit file names ↔ the session's locations and a frame's URI.

use abapgit::{ClassPart, PathError, SourceUnit};
use proptest::prelude::*;

fn unit(path: &str) -> SourceUnit {
    SourceUnit::from_path(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn class_files_and_their_includes() {
    let cases = [
        (
            "src/zcl_order.clas.abap",
            ClassPart::Main,
            "CLAS:ZCL_ORDER:42",
            "/sap/bc/adt/oo/classes/zcl_order/source/main",
        ),
        (
            "src/zcl_order.clas.testclasses.abap",
            ClassPart::TestClasses,
            "CLAS:ZCL_ORDER/testclasses:42",
            "/sap/bc/adt/oo/classes/zcl_order/includes/testclasses",
        ),
        (
            "/w/src/zcl_order.clas.locals_imp.abap",
            ClassPart::LocalsImp,
            "CLAS:ZCL_ORDER/locals_imp:42",
            "/sap/bc/adt/oo/classes/zcl_order/includes/implementations",
        ),
        (
            "zcl_order.clas.locals_def.abap",
            ClassPart::LocalsDef,
            "CLAS:ZCL_ORDER/locals_def:42",
            "/sap/bc/adt/oo/classes/zcl_order/includes/definitions",
        ),
        (
            "C:\\w\\zcl_order.clas.macros.abap",
            ClassPart::Macros,
            "CLAS:ZCL_ORDER/macros:42",
            "/sap/bc/adt/oo/classes/zcl_order/includes/macros",
        ),
    ];
    for (path, part, location, uri) in cases {
        let path = if path.contains('\\') && !cfg!(windows) {
            // Only the file name counts; on Unix a backslash path is one name.
            "zcl_order.clas.macros.abap"
        } else {
            path
        };
        let u = unit(path);
        assert_eq!(
            u,
            SourceUnit::Class {
                name: "ZCL_ORDER".into(),
                part
            },
            "{path}"
        );
        assert_eq!(u.location(42), location);
        assert_eq!(u.uri(), uri);
        assert_eq!(
            SourceUnit::from_uri(&format!("{uri}#start=42,0")),
            Some(u.clone())
        );
        assert_eq!(
            u.file_name(),
            std::path::Path::new(path)
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
        );
    }
}

#[test]
fn interfaces_programs_and_names_off_convention() {
    let i = unit("src/zif_order.intf.abap");
    assert_eq!(i.location(5), "INTF:ZIF_ORDER:5");
    assert_eq!(
        SourceUnit::from_uri("/sap/bc/adt/oo/interfaces/zif_order/source/main"),
        Some(i)
    );
    let p = unit("zreport.prog.abap");
    assert_eq!(p.location(9), "PROG:ZREPORT:9");
    assert_eq!(
        SourceUnit::from_uri("/sap/bc/adt/programs/programs/zreport/source/main#start=9"),
        Some(p.clone())
    );
    assert_eq!(p.file_name(), "zreport.prog.abap");
    // A class whose name does not look like one keeps its type.
    assert_eq!(unit("zorder.clas.abap").location(1), "CLAS:ZORDER:1");
}

#[test]
fn function_group_files() {
    let fm = unit("src/zfg.fugr.z_get_order.abap");
    assert_eq!(
        fm,
        SourceUnit::FunctionGroup {
            group: "ZFG".into(),
            member: "Z_GET_ORDER".into()
        }
    );
    assert_eq!(fm.location(3), "FUGR:ZFG/Z_GET_ORDER:3");
    assert_eq!(
        fm.uri(),
        "/sap/bc/adt/functions/groups/zfg/fmodules/z_get_order/source/main"
    );
    let top = unit("src/zfg.fugr.lzfgtop.abap");
    assert_eq!(top.location(2), "FUGR:ZFG/LZFGTOP:2");
    assert_eq!(
        top.uri(),
        "/sap/bc/adt/functions/groups/zfg/includes/lzfgtop/source/main"
    );
    let main = unit("src/zfg.fugr.saplzfg.abap");
    assert_eq!(main.location(1), "FUGR:ZFG:1");
    assert_eq!(main.uri(), "/sap/bc/adt/functions/groups/zfg/source/main");
    for u in [fm, top, main] {
        assert_eq!(SourceUnit::from_uri(&u.uri()), Some(u.clone()));
        assert_eq!(unit(&u.file_name()), u);
    }
}

#[test]
fn namespaces_are_written_with_hashes() {
    let c = unit("src/#abc#cl_order.clas.testclasses.abap");
    assert_eq!(
        c,
        SourceUnit::Class {
            name: "/ABC/CL_ORDER".into(),
            part: ClassPart::TestClasses
        }
    );
    assert_eq!(c.location(7), "CLAS:/ABC/CL_ORDER/testclasses:7");
    assert_eq!(
        c.uri(),
        "/sap/bc/adt/oo/classes/%2fabc%2fcl_order/includes/testclasses"
    );
    assert_eq!(
        SourceUnit::from_uri("/sap/bc/adt/oo/classes/%2Fabc%2Fcl_order/includes/testclasses"),
        Some(c.clone())
    );
    assert_eq!(c.file_name(), "#abc#cl_order.clas.testclasses.abap");
    let f = unit("#ns#fg.fugr.#ns#lfgu01.abap");
    assert_eq!(f.location(9), "FUGR:/NS/FG//NS/LFGU01:9");
    assert_eq!(SourceUnit::from_uri(&f.uri()), Some(f));
}

#[test]
fn other_files_are_refused_with_the_reason() {
    assert!(matches!(
        SourceUnit::from_path("README.md"),
        Err(PathError::NotAbap(_))
    ));
    assert!(matches!(
        SourceUnit::from_path("zcl_x.clas.xml"),
        Err(PathError::NotAbap(_))
    ));
    assert!(matches!(
        SourceUnit::from_path("zcl_x.clas.other.abap"),
        Err(PathError::UnknownClassPart { .. })
    ));
    assert!(matches!(
        SourceUnit::from_path("zx.tabl.abap"),
        Err(PathError::UnknownType(_))
    ));
    assert!(matches!(
        SourceUnit::from_path("z-x.prog.abap"),
        Err(PathError::BadName(_))
    ));
    let msg = SourceUnit::from_path("zcl_x.clas.other.abap")
        .unwrap_err()
        .to_string();
    assert!(msg.contains("testclasses, locals_imp"), "{msg}");
    assert_eq!(
        SourceUnit::from_uri("/sap/bc/adt/ddic/tables/zt/source/main"),
        None
    );
    assert_eq!(SourceUnit::from_uri("file:///x"), None);
}

proptest! {
    #[test]
    fn class_files_round_trip(name in "Z[A-Z0-9_]{0,20}", part in 0usize..5, line in 1u32..100_000) {
        let parts = ["", ".testclasses", ".locals_imp", ".locals_def", ".macros"];
        let file = format!("src/{}.clas{}.abap", name.to_lowercase(), parts[part]);
        let u = SourceUnit::from_path(&file).unwrap();
        prop_assert_eq!(SourceUnit::from_uri(&u.uri()), Some(u.clone()));
        prop_assert_eq!(format!("src/{}", u.file_name()), file);
        let suffix = format!(":{}", line);
        prop_assert!(u.location(line).ends_with(&suffix));
    }

    #[test]
    fn paths_and_uris_never_panic(s in ".{0,80}") {
        let _ = SourceUnit::from_path(&s);
        let _ = SourceUnit::from_uri(&s);
        let _ = SourceUnit::from_uri(&format!("/sap/bc/adt/{s}"));
    }
}
