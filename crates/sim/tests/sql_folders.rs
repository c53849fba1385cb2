//! Dictionary files spread over several programs folders (and subfolders, as abapGit
//! packages have them) make one dictionary: a table of one folder uses a data element of
//! another, and a program reads tables of both.

use crate::common;

use std::path::{Path, PathBuf};

use common::*;

const ELEMENT: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<abapGit version="v1.0.0" serializer="LCL_OBJECT_DTEL" serializer_version="v1.0.0">
 <asx:abap xmlns:asx="http://www.sap.com/abapxml" version="1.0">
  <asx:values>
   <DD04V>
    <ROLLNAME>ZSQL_BIN</ROLLNAME>
    <DATATYPE>NUMC</DATATYPE>
    <LENG>000003</LENG>
   </DD04V>
  </asx:values>
 </asx:abap>
</abapGit>
"#;

const TABLE: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<abapGit version="v1.0.0" serializer="LCL_OBJECT_TABL" serializer_version="v1.0.0">
 <asx:abap xmlns:asx="http://www.sap.com/abapxml" version="1.0">
  <asx:values>
   <DD02V>
    <TABNAME>ZSQL_BINS</TABNAME>
    <TABCLASS>TRANSP</TABCLASS>
   </DD02V>
   <DD03P_TABLE>
    <DD03P>
     <FIELDNAME>MANDT</FIELDNAME>
     <KEYFLAG>X</KEYFLAG>
     <ROLLNAME>MANDT</ROLLNAME>
    </DD03P>
    <DD03P>
     <FIELDNAME>BIN</FIELDNAME>
     <KEYFLAG>X</KEYFLAG>
     <ROLLNAME>ZSQL_BIN</ROLLNAME>
    </DD03P>
    <DD03P>
     <FIELDNAME>PRODUCT</FIELDNAME>
     <DATATYPE>CHAR</DATATYPE>
     <LENG>000010</LENG>
    </DD03P>
   </DD03P_TABLE>
  </asx:values>
 </asx:abap>
</abapGit>
"#;

const CLASS: &str = r#"CLASS zcl_sql_bins DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.
CLASS zcl_sql_bins IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
    DATA lv_bin TYPE zsql_bin VALUE 7.
    SELECT b~bin, s~on_hand
      FROM zsql_bins AS b INNER JOIN zsmp_stock AS s ON s~product = b~product
      ORDER BY b~bin
      INTO TABLE @DATA(lt_bins).
    LOOP AT lt_bins INTO DATA(ls_bin).
      out->write( |{ ls_bin-bin } { ls_bin-on_hand }| ).
    ENDLOOP.
    out->write( |{ lv_bin }| ).
  ENDMETHOD.
ENDCLASS.
"#;

/// A folder of its own under the system's temporary directory, removed on drop.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("folder");
    }
    std::fs::write(path, text).expect("write");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_of_several_programs_folders_are_one_dictionary() {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let root = Scratch(std::env::temp_dir().join(format!(
        "abapdbg-sql-folders-{}-{nanos}",
        std::process::id()
    )));
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    // Folder one: the stock table, in a subpackage, and the data element alone elsewhere.
    let one = root.0.join("one");
    for file in ["zsmp_stock.tabl.xml", "zsmp_stock.tabl.data.json"] {
        let text = std::fs::read_to_string(samples.join(file)).expect("sample table");
        write(&one.join("src/stock").join(file), &text);
    }
    let elements = root.0.join("elements");
    write(&elements.join("zsql_bin.dtel.xml"), ELEMENT);
    // Folder two: a table using that element, its rows, and the program.
    let two = root.0.join("two");
    write(&two.join("zsql_bins.tabl.xml"), TABLE);
    write(
        &two.join("zsql_bins.tabl.data.json"),
        r#"[{"bin": 12, "product": "NUT"}, {"bin": "3", "product": "BOLT"}]"#,
    );
    write(&two.join("zcl_sql_bins.clas.abap"), CLASS);
    let sim = sim::start(sim::SimConfig {
        program_dirs: vec![one, elements, two],
        ..sim::SimConfig::default()
    })
    .await
    .expect("the simulator starts");
    let r = session(&sim.base_url(), false)
        .await
        .classrun("ZCL_SQL_BINS")
        .await;
    sim.shutdown().await;
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(r.body.trim_end(), "003 120\n012 500\n007");
}
