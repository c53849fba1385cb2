//! Open SQL in the simulator over real HTTP: a line breakpoint on a `SELECT`, a statement
//! breakpoint on `SELECT`, and the database kept in a file (`SimConfig::db_file`, the
//! `--db FILE` option) across simulator restarts.

use crate::common;

use std::path::PathBuf;
use std::time::Duration;

use common::*;

const SELECT_CLASS: &str = "ZCL_SMP_SQL_SELECT";
const SELECT_URI: &str = "/sap/bc/adt/oo/classes/zcl_smp_sql_select/source/main";
/// The lines of the sample's first two `SELECT`s.
const FIRST_SELECT: u32 = 28;
const SECOND_SELECT: u32 = 30;

/// Sets `breakpoints`, runs the SELECT sample and attaches at the first stop: the debug
/// session and the running classrun.
async fn stopped(base: &str, breakpoints: &str) -> (Session, tokio::task::JoinHandle<Resp>) {
    let l = session(base, false).await;
    let r = l
        .post_xml(
            "/sap/bc/adt/debugger/breakpoints",
            "application/xml",
            breakpoints_body(breakpoints),
        )
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(!r.body.contains("errorMessage"), "{r:?}");
    catch_and_attach(base, &l, &format!("/sap/bc/adt/oo/classrun/{SELECT_CLASS}")).await
}

/// Continues until the program ends; the classrun's answer must be the sample's output.
async fn run_to_end(d: &Session, run: tokio::task::JoinHandle<Resp>) {
    let mut ended = false;
    for _ in 0..20 {
        let r = d.step("stepContinue").await;
        if subtype(&r.body).as_deref() == Some("debuggeeEnded") {
            ended = true;
            break;
        }
        assert_eq!(r.status, 200, "continue: {r:?}");
    }
    assert!(ended, "the program did not end");
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("trigger answers")
        .expect("join");
    assert_eq!(out.status, 200, "{out:?}");
    let expected =
        std::fs::read_to_string(common::samples_dir().join("zcl_smp_sql_select.expected.txt"))
            .expect("expected output of the sample");
    assert_eq!(out.body.trim_end(), expected.trim_end());
}

fn value(xml: &str, id: &str) -> Option<String> {
    record(xml, id).and_then(|r| element(r, "VALUE"))
}

/// A line breakpoint on a `SELECT` stops before it runs; a step over it shows the row it
/// read and `sy-dbcnt`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_breakpoint_on_a_select_stops_before_it_and_a_step_shows_the_row() {
    let sim = common::samples_sim().await;
    let base = sim.base_url();
    let bp = format!(
        "<breakpoint xmlns:adtcore=\"http://www.sap.com/adt/core\" kind=\"line\" clientId=\"sel\" skipCount=\"0\" adtcore:uri=\"{SELECT_URI}#start={FIRST_SELECT}\"/>"
    );
    let (d, run) = stopped(&base, &bp).await;
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(FIRST_SELECT), "{r:?}");
    let r = d.variables(&["SY-DBCNT"]).await;
    assert_eq!(value(&r.body, "SY-DBCNT").as_deref(), Some("0 "), "{r:?}");
    let r = d.step("stepOver").await;
    assert_eq!(r.status, 200, "{r:?}");
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(FIRST_SELECT + 1), "{r:?}");
    let r = d
        .variables(&["LS_ORDER-CUSTOMER", "LS_ORDER-ORDER_ID", "SY-DBCNT"])
        .await;
    assert_eq!(
        value(&r.body, "LS_ORDER-CUSTOMER").as_deref(),
        Some("ACME      "),
        "{r:?}"
    );
    assert_eq!(
        value(&r.body, "LS_ORDER-ORDER_ID").as_deref(),
        Some("0003"),
        "{r:?}"
    );
    assert_eq!(value(&r.body, "SY-DBCNT").as_deref(), Some("1 "), "{r:?}");
    run_to_end(&d, run).await;
    sim.shutdown().await;
}

/// A statement breakpoint on `SELECT` stops at every `SELECT` (also one of the old syntax
/// and a `SELECT … ENDSELECT`), and is reported as the breakpoint reached.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_statement_breakpoint_on_select_stops_at_each_select() {
    let sim = common::samples_sim().await;
    let base = sim.base_url();
    let (d, run) = stopped(
        &base,
        "<breakpoint kind=\"statement\" clientId=\"st\" statement=\"SELECT\"/>",
    )
    .await;
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(FIRST_SELECT), "{r:?}");
    let r = d.step("stepContinue").await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(
        r.body.contains("id=\"KIND=1.STATEMENT=SELECT\""),
        "the statement breakpoint is the one reached: {r:?}"
    );
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(SECOND_SELECT), "{r:?}");
    // The rest of the sample: every further SELECT stops; count them.
    let mut stops = 2;
    loop {
        let r = d.step("stepContinue").await;
        if subtype(&r.body).as_deref() == Some("debuggeeEnded") {
            break;
        }
        assert_eq!(r.status, 200, "{r:?}");
        stops += 1;
        assert!(stops < 100, "more stops than the sample has SELECTs");
    }
    let source =
        std::fs::read_to_string(common::samples_dir().join("zcl_smp_sql_select.clas.abap"))
            .expect("the sample's source");
    let selects = source
        .lines()
        .filter(|l| l.trim_start().starts_with("SELECT "))
        .count();
    assert_eq!(stops, selects, "one stop per SELECT of the sample");
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("trigger answers")
        .expect("join");
    assert_eq!(out.status, 200, "{out:?}");
    sim.shutdown().await;
}

/// A folder of its own under the system's temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let dir = std::env::temp_dir().join(format!("{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary folder");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const KEEP_CLASS: &str = r#"CLASS zcl_sql_keep DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.

CLASS zcl_sql_keep IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
    DATA ls TYPE zsmp_stock.
    ls = VALUE #( product = 'KEPT' on_hand = 1 location = 'K1' ).
    INSERT zsmp_stock FROM @ls.
    DATA(lv_inserted) = sy-subrc.
    SELECT COUNT( * ) FROM zsmp_stock.
    out->write( |{ lv_inserted } { sy-dbcnt }| ).
  ENDMETHOD.
ENDCLASS.
"#;

/// With a database file the rows a program committed are there after a restart (the data
/// file is not read again); without one, every simulator starts from the data files.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_file_keeps_committed_rows_across_restarts() {
    let tmp = TempDir::new("abapdbg-sql-db");
    let programs = tmp.0.join("src");
    std::fs::create_dir_all(&programs).expect("programs folder");
    for file in ["zsmp_stock.tabl.xml", "zsmp_stock.tabl.data.json"] {
        std::fs::copy(common::samples_dir().join(file), programs.join(file))
            .expect("copy the table");
    }
    std::fs::write(programs.join("zcl_sql_keep.clas.abap"), KEEP_CLASS).expect("class");
    let db_file = tmp.0.join("sim.db");
    let run_once = |db_file: Option<PathBuf>| {
        let programs = programs.clone();
        async move {
            let sim = sim::start(sim::SimConfig {
                program_dirs: vec![programs],
                db_file,
                ..sim::SimConfig::default()
            })
            .await
            .expect("the simulator starts");
            let s = session(&sim.base_url(), false).await;
            let r = s.classrun("ZCL_SQL_KEEP").await;
            sim.shutdown().await;
            assert_eq!(r.status, 200, "{r:?}");
            r.body.trim_end().to_string()
        }
    };
    // The first run inserts (3 rows of the data file + 1), the second finds the row kept
    // (sy-subrc 4 of the INSERT).
    assert_eq!(run_once(Some(db_file.clone())).await, "0 4");
    assert!(db_file.exists(), "the database file is written");
    assert_eq!(run_once(Some(db_file.clone())).await, "4 4");
    // Without a file (a temporary database): each simulator starts from the data file again.
    assert_eq!(run_once(None).await, "0 4");
    assert_eq!(run_once(None).await, "0 4");
}
