//! Definitions from abapGit files and rows from data files, with their typed errors.

use std::path::{Path, PathBuf};

use opensql::{AbapType, Database, DdicType, DecKind, Dictionary, Error, Options, TableClass};

use crate::common::{fixtures, select};

/// A fresh directory holding the fixture definitions, for variations of the data files.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("opensql-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    for entry in std::fs::read_dir(fixtures()).expect("fixtures") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.ends_with(".xml") {
            std::fs::copy(&path, dir.join(name)).expect("copy");
        }
    }
    dir
}

fn load(dir: &Path) -> Result<Database, Error> {
    let mut db = Database::open(&Options::default())?;
    db.load_dir(dir)?;
    Ok(db)
}

#[test]
fn fields_keys_types_and_client_dependence() {
    let dict = Dictionary::load_dir(&fixtures()).expect("dictionary");
    let head = dict.table("zsql_head").expect("ZSQL_HEAD");
    assert_eq!(head.class, TableClass::Transparent);
    assert!(head.client_dependent);
    let names: Vec<&str> = head.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "MANDT",
            "ORDER_ID",
            "CUSTOMER",
            "ORDER_DATE",
            "TOTAL",
            "CURRENCY",
            "NOTE",
            "PRIORITY",
            "CHANGED_AT"
        ]
    );
    let keys: Vec<&str> = head.key_fields().map(|f| f.name.as_str()).collect();
    assert_eq!(keys, ["MANDT", "ORDER_ID"]);
    let ty = |n: &str| head.field(n).expect(n).ddic;
    assert_eq!(ty("MANDT"), DdicType::Clnt);
    assert_eq!(ty("ORDER_ID"), DdicType::Numc(4));
    // Through data element ZSQL_CUSTOMER and its domain.
    assert_eq!(ty("CUSTOMER"), DdicType::Char(10));
    assert_eq!(
        head.field("CUSTOMER")
            .and_then(|f| f.data_element.clone())
            .as_deref(),
        Some("ZSQL_CUSTOMER")
    );
    assert_eq!(ty("ORDER_DATE"), DdicType::Dats);
    assert_eq!(
        ty("TOTAL"),
        DdicType::Dec {
            kind: DecKind::Curr,
            digits: 15,
            decimals: 2
        }
    );
    assert_eq!(ty("TOTAL").abap(), AbapType::P { len: 8, dec: 2 });
    assert_eq!(ty("CURRENCY"), DdicType::Cuky);
    assert_eq!(ty("NOTE"), DdicType::String);
    // A data element with its own built-in type.
    assert_eq!(ty("PRIORITY"), DdicType::Int4);
    // A standard data element without file: TIMESTAMPL, DEC 21,7.
    assert_eq!(ty("CHANGED_AT").abap(), AbapType::P { len: 11, dec: 7 });
}

#[test]
fn structures_are_types_and_includes_expand() {
    let dict = Dictionary::load_dir(&fixtures()).expect("dictionary");
    let addr = dict.table("ZSQL_S_ADDR").expect("structure");
    assert_eq!(addr.class, TableClass::Structure);
    assert!(!addr.client_dependent);
    let cust = dict.table("ZSQL_CUST").expect("ZSQL_CUST");
    assert!(!cust.client_dependent);
    let names: Vec<&str> = cust.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["KUNNR", "STREET", "CITY", "RATING", "LOGO", "SCORE"]
    );
    let db = crate::common::db();
    assert!(db.is_table("zsql_cust"));
    assert!(
        !db.is_table("ZSQL_S_ADDR"),
        "a structure is no database table"
    );
    assert!(!db.is_table("ZNOPE"));
}

#[test]
fn data_files_fill_missing_fields_and_the_client() {
    let mut db = crate::common::db();
    let (_, _, r) = select(
        &mut db,
        "SELECT * FROM zsql_cust CLIENT SPECIFIED INTO TABLE @DATA(rows) ORDER BY kunnr",
    );
    assert_eq!(r.rows.len(), 2);
    // BETA has no street, logo, score: initial values.
    assert_eq!(r.rows[1][1], opensql::Cell::Char(String::new()));
    assert_eq!(r.rows[1][4], opensql::Cell::Hex(vec![0, 0]));
    assert_eq!(r.rows[1][5], opensql::Cell::Float(0.0));
    assert_eq!(r.rows[0][4], opensql::Cell::Hex(vec![0xCA, 0xFE]));
    // MANDT absent in the data file: the logon client; the row written with 002 stays there.
    let (_, _, r) = select(
        &mut db,
        "SELECT mandt, order_id FROM zsql_head CLIENT SPECIFIED INTO TABLE @DATA(rows) ORDER BY mandt, order_id",
    );
    let clients: Vec<String> = r.rows.iter().map(|row| row[0].to_string()).collect();
    assert_eq!(
        clients,
        ["'001'", "'001'", "'001'", "'001'", "'001'", "'002'"]
    );
}

fn data_error(tag: &str, table: &str, json: &str) -> Error {
    let dir = scratch(tag);
    std::fs::write(dir.join(format!("{table}.tabl.data.json")), json).expect("write");
    let err = match load(&dir) {
        Ok(_) => panic!("{json} loaded"),
        Err(e) => e,
    };
    let _ = std::fs::remove_dir_all(&dir);
    err
}

#[test]
fn data_errors_name_file_row_and_field() {
    let e = data_error(
        "numc",
        "zsql_head",
        r#"[{"order_id": 1}, {"order_id": "12345"}]"#,
    );
    match &e {
        Error::DataRow {
            file, row, field, ..
        } => {
            assert!(file.ends_with("zsql_head.tabl.data.json"), "{file:?}");
            assert_eq!(*row, 2);
            assert_eq!(field, "ORDER_ID");
        }
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().contains("more than 4 digits"), "{e}");

    let e = data_error(
        "date",
        "zsql_head",
        r#"[{"order_id": 1, "order_date": "2024-01-01"}]"#,
    );
    assert!(
        matches!(&e, Error::DataRow { field, row: 1, .. } if field == "ORDER_DATE"),
        "{e:?}"
    );

    let e = data_error("dec", "zsql_head", r#"[{"order_id": 1, "total": "1.234"}]"#);
    assert!(
        matches!(&e, Error::DataRow { field, .. } if field == "TOTAL"),
        "{e:?}"
    );
    let e = data_error("int1", "zsql_cust", r#"[{"kunnr": "X", "rating": 256}]"#);
    assert!(
        matches!(&e, Error::DataRow { field, .. } if field == "RATING"),
        "{e:?}"
    );

    let e = data_error(
        "unknown",
        "zsql_head",
        r#"[{"order_id": 1, "colour": "red"}]"#,
    );
    assert!(
        matches!(&e, Error::DataRow { field, .. } if field == "colour"),
        "{e:?}"
    );

    let e = data_error(
        "dup",
        "zsql_head",
        r#"[{"order_id": 1}, {"ORDER_ID": "0001"}]"#,
    );
    assert!(e.to_string().contains("duplicate key"), "{e}");

    let e = data_error("shape", "zsql_head", r#"{"order_id": 1}"#);
    assert!(matches!(e, Error::DataFile { .. }), "{e:?}");
    let e = data_error("json", "zsql_head", "[{");
    assert!(matches!(e, Error::DataFile { .. }), "{e:?}");
    let e = data_error("bool", "zsql_head", r#"[{"order_id": true}]"#);
    assert!(matches!(e, Error::DataRow { .. }), "{e:?}");
}

#[test]
fn a_definition_that_cannot_be_used_is_refused_alone() {
    let dir = scratch("def");
    std::fs::write(
        dir.join("zsql_bad.tabl.xml"),
        r#"<abapGit><asx:abap xmlns:asx="http://www.sap.com/abapxml"><asx:values>
<DD02V><TABNAME>ZSQL_BAD</TABNAME><TABCLASS>TRANSP</TABCLASS></DD02V>
<DD03P_TABLE><DD03P><FIELDNAME>X</FIELDNAME><ROLLNAME>ZNOWHERE</ROLLNAME></DD03P></DD03P_TABLE>
</asx:values></asx:abap></abapGit>"#,
    )
    .expect("write");
    std::fs::write(dir.join("zsql_broken.tabl.xml"), "<abapGit><DD02V>").expect("write");
    std::fs::write(
        dir.join("zsql_wide.tabl.xml"),
        r#"<abapGit><asx:abap xmlns:asx="http://www.sap.com/abapxml"><asx:values>
<DD02V><TABNAME>ZSQL_WIDE</TABNAME><TABCLASS>TRANSP</TABCLASS></DD02V>
<DD03P_TABLE><DD03P><FIELDNAME>X</FIELDNAME><DATATYPE>D16N</DATATYPE><LENG>16</LENG></DD03P></DD03P_TABLE>
</asx:values></asx:abap></abapGit>"#,
    )
    .expect("write");
    let mut db = Database::open(&Options::default()).expect("open");
    let report = db.load_dir(&dir).expect("the other tables load");
    let _ = std::fs::remove_dir_all(&dir);
    let refused: Vec<&str> = report.refused.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(refused, ["ZSQL_BAD", "ZSQL_BROKEN", "ZSQL_WIDE"]);
    assert!(
        report
            .created
            .iter()
            .any(|(n, rows)| n == "ZSQL_HEAD" && *rows == 0)
    );
    let mut host = opensql::HostMap::new();
    match db.run("SELECT * FROM zsql_bad INTO TABLE @DATA(t)", &mut host) {
        Err(Error::Definition { file, message }) => {
            assert!(file.ends_with("zsql_bad.tabl.xml"));
            assert!(message.contains("ZNOWHERE"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    match db.run("DELETE FROM zsql_wide", &mut host) {
        Err(Error::Definition { message, .. }) => assert!(message.contains("D16N"), "{message}"),
        other => panic!("{other:?}"),
    }
    let (rc, _, _) = select(&mut db, "SELECT * FROM zsql_head INTO TABLE @DATA(t)");
    assert_eq!(rc, 4, "loaded, without its data file in the scratch folder");
}

#[test]
fn a_database_file_keeps_committed_rows_between_opens() {
    let dir = scratch("file");
    let file = dir.join("db.sqlite");
    let options = Options {
        file: Some(file.clone()),
        client: "001".into(),
        ..Options::default()
    };
    {
        let mut db = Database::open(&options).expect("open");
        let report = db.load_dir(&fixtures()).expect("load");
        assert!(
            report.created.contains(&("ZSQL_HEAD".into(), 6)),
            "{report:?}"
        );
        let mut host = opensql::HostMap::new();
        crate::common::run(
            &mut db,
            "DELETE FROM zsql_head WHERE order_id = '0009'",
            &mut host,
        );
        crate::common::run(&mut db, "COMMIT WORK", &mut host);
        crate::common::run(
            &mut db,
            "DELETE FROM zsql_head WHERE order_id = '0010'",
            &mut host,
        );
        // Not committed: gone when the database is closed.
    }
    let mut db = Database::open(&options).expect("reopen");
    let report = db.load_dir(&fixtures()).expect("load");
    assert!(report.kept.contains(&"ZSQL_HEAD".to_string()), "{report:?}");
    let (_, n, r) = select(
        &mut db,
        "SELECT order_id FROM zsql_head INTO TABLE @DATA(t) ORDER BY order_id",
    );
    assert_eq!(n, 4);
    let ids: Vec<String> = r.rows.iter().map(|row| row[0].to_string()).collect();
    assert_eq!(ids, ["'0001'", "'0002'", "'0010'", "'0011'"]);
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn includes_with_suffix_and_append_structures() {
    let dir = scratch("incl");
    let wrap = |body: &str| {
        format!(
            r#"<abapGit><asx:abap xmlns:asx="http://www.sap.com/abapxml"><asx:values>{body}</asx:values></asx:abap></abapGit>"#
        )
    };
    std::fs::write(
        dir.join("zsql_pair.tabl.xml"),
        wrap(
            "<DD02V><TABNAME>ZSQL_PAIR</TABNAME><TABCLASS>TRANSP</TABCLASS></DD02V><DD03P_TABLE>\
             <DD03P><FIELDNAME>ID</FIELDNAME><KEYFLAG>X</KEYFLAG><DATATYPE>INT4</DATATYPE><LENG>10</LENG></DD03P>\
             <DD03P><FIELDNAME>.INCLU-_FROM</FIELDNAME><PRECFIELD>ZSQL_S_ADDR</PRECFIELD></DD03P>\
             <DD03P><FIELDNAME>.INCLU-_TO</FIELDNAME><PRECFIELD>zsql_s_addr</PRECFIELD></DD03P>\
             <DD03P><FIELDNAME>.APPEND</FIELDNAME><PRECFIELD>ZSQL_PAIR_APP</PRECFIELD></DD03P>\
             </DD03P_TABLE>",
        ),
    )
    .expect("write");
    std::fs::write(
        dir.join("zsql_pair_app.tabl.xml"),
        wrap(
            "<DD02V><TABNAME>ZSQL_PAIR_APP</TABNAME><TABCLASS>APPEND</TABCLASS></DD02V><DD03P_TABLE>\
             <DD03P><FIELDNAME>ZZEXTRA</FIELDNAME><DATATYPE>CHAR</DATATYPE><LENG>3</LENG></DD03P>\
             </DD03P_TABLE>",
        ),
    )
    .expect("write");
    let dict = Dictionary::load_dir(&dir).expect("dictionary");
    let _ = std::fs::remove_dir_all(&dir);
    let pair = dict.table("ZSQL_PAIR").expect("ZSQL_PAIR");
    let names: Vec<&str> = pair.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "ID",
            "STREET_FROM",
            "CITY_FROM",
            "STREET_TO",
            "CITY_TO",
            "ZZEXTRA"
        ]
    );
    assert!(!pair.client_dependent);
    assert_eq!(
        dict.table("ZSQL_PAIR_APP").map(|t| t.class),
        Some(TableClass::Structure)
    );
}
