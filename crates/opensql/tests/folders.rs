//! Dictionaries spread over several folders (abapGit packages with subpackages, several
//! programs folders): merged, with a clear refusal of a name defined twice differently; and
//! the data elements a program declares data with.

use std::path::{Path, PathBuf};

use opensql::{Database, DdicType, Dictionary, Error, HostMap, Options};

use crate::common::{fixtures, select};

/// A fresh, empty directory for this test.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("opensql-dirs-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn wrap(body: &str) -> String {
    format!(
        r#"<abapGit><asx:abap xmlns:asx="http://www.sap.com/abapxml"><asx:values>{body}</asx:values></asx:abap></abapGit>"#
    )
}

/// A client-independent table `name` with an INT4 key `ID` and a field `PRIO` typed by the
/// data element `prio_element`.
fn table_xml(name: &str, prio_element: &str) -> String {
    wrap(&format!(
        "<DD02V><TABNAME>{name}</TABNAME><TABCLASS>TRANSP</TABCLASS></DD02V><DD03P_TABLE>\
         <DD03P><FIELDNAME>ID</FIELDNAME><KEYFLAG>X</KEYFLAG><DATATYPE>INT4</DATATYPE><LENG>10</LENG></DD03P>\
         <DD03P><FIELDNAME>PRIO</FIELDNAME><ROLLNAME>{prio_element}</ROLLNAME></DD03P>\
         </DD03P_TABLE>"
    ))
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("folder");
    }
    std::fs::write(path, text).expect("write");
}

fn copy_fixtures(to: &Path) {
    std::fs::create_dir_all(to).expect("folder");
    for entry in std::fs::read_dir(fixtures()).expect("fixtures") {
        let path = entry.expect("entry").path();
        if let Some(name) = path.file_name() {
            std::fs::copy(&path, to.join(name)).expect("copy");
        }
    }
}

#[test]
fn a_second_folder_adds_its_tables_and_uses_the_first_ones_elements() {
    let other = scratch("second");
    // ZSQL_PRIO is a data element of the fixtures folder, not of this one.
    write(
        &other.join("zsql_extra.tabl.xml"),
        &table_xml("ZSQL_EXTRA", "ZSQL_PRIO"),
    );
    write(
        &other.join("zsql_extra.tabl.data.json"),
        r#"[{"id": 1, "prio": 7}, {"id": 2, "prio": 3}]"#,
    );
    let mut db = Database::open(&Options::default()).expect("open");
    db.load_dir(&fixtures()).expect("fixtures");
    let report = db.load_dir(&other).expect("second folder");
    let _ = std::fs::remove_dir_all(&other);
    assert_eq!(report.created, [("ZSQL_EXTRA".to_string(), 2)]);
    assert!(
        report.kept.is_empty() && report.refused.is_empty(),
        "{report:?}"
    );
    let (rc, n, _) = select(&mut db, "SELECT * FROM zsql_extra INTO TABLE @DATA(t)");
    assert_eq!((rc, n), (0, 2));
    // The first folder's tables are still there with their rows.
    let (_, n, _) = select(&mut db, "SELECT * FROM zsql_head INTO TABLE @DATA(t)");
    assert_eq!(n, 5, "the six rows of ZSQL_HEAD, one of them in client 002");
    assert_eq!(
        db.dictionary()
            .table("ZSQL_EXTRA")
            .and_then(|t| t.field("PRIO"))
            .map(|f| f.ddic),
        Some(DdicType::Int4)
    );
}

#[test]
fn subpackages_of_one_folder_are_one_dictionary() {
    let root = scratch("packages");
    copy_fixtures(&root.join("src").join("core"));
    write(
        &root.join("src/reports/sub/zsql_extra.tabl.xml"),
        &table_xml("ZSQL_EXTRA", "ZSQL_PRIO"),
    );
    let dict = Dictionary::load_dir(&root.join("src")).expect("dictionary");
    let _ = std::fs::remove_dir_all(&root);
    assert!(dict.table("ZSQL_EXTRA").is_some());
    assert!(dict.table("ZSQL_HEAD").is_some());
    assert_eq!(dict.refused().count(), 0);
}

#[test]
fn the_same_definition_twice_is_one_table() {
    let root = scratch("same");
    copy_fixtures(&root.join("a"));
    // The same ZSQL_HEAD again, without rows: the first folder's rows are the table's.
    write(
        &root.join("b/zsql_head.tabl.xml"),
        &std::fs::read_to_string(fixtures().join("zsql_head.tabl.xml")).expect("read"),
    );
    let mut db = Database::open(&Options::default()).expect("open");
    db.load_dir(&root.join("a")).expect("a");
    let report = db.load_dir(&root.join("b")).expect("b");
    let _ = std::fs::remove_dir_all(&root);
    assert!(
        report.created.is_empty() && report.refused.is_empty(),
        "{report:?}"
    );
    let (_, n, _) = select(&mut db, "SELECT * FROM zsql_head INTO TABLE @DATA(t)");
    assert_eq!(n, 5, "the six rows of ZSQL_HEAD, one of them in client 002");
}

#[test]
fn a_table_defined_twice_differently_is_refused_naming_both_files() {
    let root = scratch("differ");
    write(
        &root.join("a/zsql_twice.tabl.xml"),
        &table_xml("ZSQL_TWICE", "INT4"),
    );
    write(
        &root.join("b/zsql_twice.tabl.xml"),
        &table_xml("ZSQL_TWICE", "ZSQL_PRIO_TEXT"),
    );
    write(
        &root.join("b/zsql_prio_text.dtel.xml"),
        &wrap(
            "<DD04V><ROLLNAME>ZSQL_PRIO_TEXT</ROLLNAME><DATATYPE>CHAR</DATATYPE><LENG>000004</LENG></DD04V>",
        ),
    );
    write(
        &root.join("b/zsql_other.tabl.xml"),
        &table_xml("ZSQL_OTHER", "INT4"),
    );
    let mut db = Database::open(&Options::default()).expect("open");
    db.load_dir(&root.join("a")).expect("a");
    let report = db
        .load_dir(&root.join("b"))
        .expect("b loads its other tables");
    let _ = std::fs::remove_dir_all(&root);
    let refused: Vec<&str> = report.refused.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(refused, ["ZSQL_TWICE"]);
    assert_eq!(report.created, [("ZSQL_OTHER".to_string(), 0)]);
    match db.run(
        "SELECT * FROM zsql_twice INTO TABLE @DATA(t)",
        &mut HostMap::new(),
    ) {
        Err(Error::Definition { message, .. }) => {
            assert!(message.contains("differently"), "{message}");
            let a = Path::new("a").join("zsql_twice.tabl.xml");
            let b = Path::new("b").join("zsql_twice.tabl.xml");
            assert!(message.contains(&a.display().to_string()), "{message}");
            assert!(message.contains(&b.display().to_string()), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_data_element_defined_twice_differently_refuses_its_tables() {
    let root = scratch("element");
    let element = |len: &str| {
        wrap(&format!(
            "<DD04V><ROLLNAME>ZSQL_CODE</ROLLNAME><DATATYPE>CHAR</DATATYPE><LENG>{len}</LENG></DD04V>"
        ))
    };
    write(&root.join("a/zsql_code.dtel.xml"), &element("000004"));
    write(&root.join("b/zsql_code.dtel.xml"), &element("000008"));
    write(
        &root.join("b/zsql_coded.tabl.xml"),
        &table_xml("ZSQL_CODED", "ZSQL_CODE"),
    );
    // The same element twice, with lengths written differently, is one element.
    write(
        &root.join("a/zsql_same.dtel.xml"),
        &wrap("<DD04V><DATATYPE>NUMC</DATATYPE><LENG>000006</LENG></DD04V>"),
    );
    write(
        &root.join("b/zsql_same.dtel.xml"),
        &wrap("<DD04V><DATATYPE>NUMC</DATATYPE><LENG>6</LENG></DD04V>"),
    );
    let dict = Dictionary::load_dirs(&[root.join("a"), root.join("b")]).expect("dictionary");
    let _ = std::fs::remove_dir_all(&root);
    let why = dict
        .refusal("ZSQL_CODED")
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        why.contains("ZSQL_CODE") && why.contains("differently"),
        "{why}"
    );
    assert_eq!(dict.data_element("zsql_code"), None);
    assert_eq!(dict.data_element("ZSQL_SAME"), Some(DdicType::Numc(6)));
}

#[test]
fn a_folder_that_fails_to_load_leaves_nothing_behind() {
    let other = scratch("fails");
    write(
        &other.join("zsql_extra.tabl.xml"),
        &table_xml("ZSQL_EXTRA", "INT4"),
    );
    write(&other.join("zsql_extra.tabl.data.json"), r#"[{"id": "x"}]"#);
    let mut db = Database::open(&Options::default()).expect("open");
    db.load_dir(&fixtures()).expect("fixtures");
    let e = db.load_dir(&other).err();
    let _ = std::fs::remove_dir_all(&other);
    assert!(matches!(e, Some(Error::DataRow { .. })), "{e:?}");
    assert!(db.dictionary().table("ZSQL_EXTRA").is_none());
    match db.run(
        "SELECT * FROM zsql_extra INTO TABLE @DATA(t)",
        &mut HostMap::new(),
    ) {
        Err(Error::UnknownTable(_)) => {}
        other => panic!("{other:?}"),
    }
    let (_, n, _) = select(&mut db, "SELECT * FROM zsql_head INTO TABLE @DATA(t)");
    assert_eq!(n, 5, "the six rows of ZSQL_HEAD, one of them in client 002");
}

#[test]
fn data_elements_give_their_own_or_their_domains_type() {
    let dict = Dictionary::load_dir(&fixtures()).expect("dictionary");
    assert_eq!(dict.data_element("ZSQL_PRIO"), Some(DdicType::Int4));
    assert_eq!(dict.data_element("zsql_customer"), Some(DdicType::Char(10)));
    // Elements every system has need no file.
    assert_eq!(dict.data_element("WAERS"), Some(DdicType::Cuky));
    assert_eq!(dict.data_element("ZSQL_NOWHERE"), None);
}
