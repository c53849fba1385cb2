//! Each run is its own database logical unit of work, over real HTTP: a classrun stopped in
//! the debugger after an `INSERT` keeps its row to itself; a classrun at the same time reads
//! the last commit, and sees the row once the stopped run has ended (and committed).

use crate::common;

use std::path::PathBuf;
use std::time::Duration;

use common::*;

const HOLD_URI: &str = "/sap/bc/adt/oo/classes/zcl_sql_hold/source/main";
/// The line after the `INSERT` of `HOLD_CLASS`.
const HOLD_STOP: u32 = 10;

const HOLD_CLASS: &str = r#"CLASS zcl_sql_hold DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.
CLASS zcl_sql_hold IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
    DATA ls TYPE zsmp_stock.
    ls = VALUE #( product = 'HELD' on_hand = 1 location = 'H1' ).
    INSERT zsmp_stock FROM @ls.
    out->write( |held { sy-subrc }| ).
  ENDMETHOD.
ENDCLASS.
"#;

const COUNT_CLASS: &str = r#"CLASS zcl_sql_count DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.
CLASS zcl_sql_count IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
    SELECT COUNT( * ) FROM zsmp_stock INTO @DATA(n).
    SELECT SINGLE location FROM zsmp_stock WHERE product = 'HELD' INTO @DATA(where).
    out->write( |{ n } rows, HELD { sy-subrc }| ).
  ENDMETHOD.
ENDCLASS.
"#;

/// A programs folder with the stock table and the two classes, removed on drop.
struct Programs(PathBuf);

impl Programs {
    fn new() -> Programs {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let dir = std::env::temp_dir().join(format!(
            "abapdbg-sql-isolation-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("programs folder");
        let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples");
        for file in ["zsmp_stock.tabl.xml", "zsmp_stock.tabl.data.json"] {
            std::fs::copy(samples.join(file), dir.join(file)).expect("copy the table");
        }
        std::fs::write(dir.join("zcl_sql_hold.clas.abap"), HOLD_CLASS).expect("class");
        std::fs::write(dir.join("zcl_sql_count.clas.abap"), COUNT_CLASS).expect("class");
        Programs(dir)
    }
}

impl Drop for Programs {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_runs_uncommitted_insert_is_invisible_to_a_run_at_the_same_time() {
    let programs = Programs::new();
    let sim = sim::start(sim::SimConfig {
        program_dirs: vec![programs.0.clone()],
        ..sim::SimConfig::default()
    })
    .await
    .expect("the simulator starts");
    let base = sim.base_url();

    let l = session(&base, false).await;
    let r = l
        .post_xml(
            "/sap/bc/adt/debugger/breakpoints",
            "application/xml",
            breakpoints_body(&line_breakpoint("hold", HOLD_URI, HOLD_STOP)),
        )
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(!r.body.contains("errorMessage"), "{r:?}");
    let (d, held) =
        common::catch_and_attach(&base, &l, "/sap/bc/adt/oo/classrun/ZCL_SQL_HOLD").await;
    let r = d.stack().await;
    assert_eq!(
        top_line(&r.body),
        Some(HOLD_STOP),
        "stopped after the INSERT: {r:?}"
    );

    // Another classrun while the first holds its uncommitted row.
    let other = session(&base, false).await.classrun("ZCL_SQL_COUNT").await;
    assert_eq!(other.status, 200, "{other:?}");
    assert_eq!(other.body.trim_end(), "3 rows, HELD 4");

    // The stopped run goes on to its end, which commits.
    let mut ended = false;
    for _ in 0..20 {
        let r = d.step("stepContinue").await;
        if subtype(&r.body).as_deref() == Some("debuggeeEnded") {
            ended = true;
            break;
        }
        assert_eq!(r.status, 200, "continue: {r:?}");
    }
    assert!(ended, "the held run did not end");
    let out = tokio::time::timeout(Duration::from_secs(60), held)
        .await
        .expect("trigger answers")
        .expect("join");
    assert_eq!(out.body.trim_end(), "held 0", "{out:?}");
    let after = session(&base, false).await.classrun("ZCL_SQL_COUNT").await;
    assert_eq!(after.body.trim_end(), "4 rows, HELD 0", "{after:?}");
    sim.shutdown().await;
}
