//! Big data and long runs over real HTTP: rows of a 20,000-row table (the last ones, past the
//! end), the table's record, a by-reference table parameter, a structure holding a table, a
//! long string; breakpoints and a listener that arrive while a program runs. Functional
//! checks only: how fast is measured by `cargo run --release -p bench`.

use crate::common;

use std::time::Duration;

use common::*;

const SCALE: &str = "ZCL_SIM_SCALE";
const SPIN: &str = "ZCL_SIM_SPIN";
const LISTENERS: &str = "/sap/bc/adt/debugger/listeners";
/// `out->write( … )` after everything is filled.
const SCALE_STOP: u32 = 41;
/// The last statement of `fill`, where `CT_ROWS` is the by-reference parameter.
const FILL_STOP: u32 = 52;
const SPIN_LOOP: u32 = 20;
const ROWS: usize = 20_000;

fn fixtures() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scale")
}

async fn sim() -> sim::SimHandle {
    sim::start(sim::SimConfig {
        program_dirs: vec![fixtures()],
        limits: sim::Limits {
            statements: 1_000_000_000,
            run_time: Duration::from_secs(600),
            table_rows: 1_000_000,
            ..sim::Limits::default()
        },
        ..sim::SimConfig::default()
    })
    .await
    .expect("start")
}

async fn set_breakpoints(s: &Session, class: &str, lines: &[u32]) {
    let uri = format!(
        "/sap/bc/adt/oo/classes/{}/source/main",
        class.to_lowercase()
    );
    let mut body = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><dbg:breakpoints xmlns:dbg=\"http://www.sap.com/adt/debugger\" scope=\"external\" debuggingMode=\"user\" requestUser=\"DEVELOPER\" terminalId=\"{TERMINAL}\" ideId=\"{IDE}\" systemDebugging=\"false\" deactivated=\"false\"><syncScope mode=\"full\"/>"
    );
    for line in lines {
        body.push_str(&format!("<breakpoint xmlns:adtcore=\"http://www.sap.com/adt/core\" kind=\"line\" clientId=\"b{line}\" skipCount=\"0\" adtcore:uri=\"{uri}#start={line}\"/>"));
    }
    body.push_str("</dbg:breakpoints>");
    let r = s
        .post_xml("/sap/bc/adt/debugger/breakpoints", "application/xml", body)
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(!r.body.contains("errorMessage"), "{r:?}");
}

async fn wait_for_listener(s: &Session) {
    for _ in 0..1500 {
        let q = format!(
            "{LISTENERS}?debuggingMode=user&requestUser=DEVELOPER&terminalId={TERMINAL}&ideId={IDE}&checkConflict=false"
        );
        if s.get(&q).await.status == 200 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("listener never registered");
}

/// The text of `name` in the record with id `id`.
fn field(body: &str, id: &str, name: &str) -> Option<String> {
    record(body, id).and_then(|r| element(r, name))
}

/// Runs `ZCL_SIM_SCALE`, stopped at `line`, attached on a stateful session.
async fn stopped_at(sim: &sim::SimHandle, line: u32) -> (Session, Session) {
    let base = sim.base_url();
    let control = session(&base, false).await;
    set_breakpoints(&control, SCALE, &[line]).await;
    let poller = session(&base, false).await;
    let poll = tokio::spawn(async move { poller.listen(60).await });
    wait_for_listener(&control).await;
    let runner = session(&base, false).await;
    tokio::spawn(async move { runner.classrun(SCALE).await });
    let caught = poll.await.expect("poll");
    let id = element(&caught.body, "DEBUGGEE_ID").expect("caught");
    let dbg = session(&base, true).await;
    assert_eq!(dbg.attach(&id).await.status, 200);
    (control, dbg)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rows_components_and_records_of_a_big_table() {
    let sim = sim().await;
    let (_control, dbg) = stopped_at(&sim, SCALE_STOP).await;

    let r = dbg.variables(&["LT_ROWS"]).await;
    assert_eq!(
        field(&r.body, "LT_ROWS", "TABLE_LINES"),
        Some(ROWS.to_string())
    );
    assert_eq!(
        field(&r.body, "LT_ROWS", "VALUE").as_deref(),
        Some("[20000x3(20)]Standard Table")
    );

    // The last rows, one past the end (skipped), the first one.
    let r = dbg
        .children(&[
            "LT_ROWS[19999]",
            "LT_ROWS[20000]",
            "LT_ROWS[20001]",
            "LT_ROWS[1]",
        ])
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(
        field(&r.body, "LT_ROWS[20000]-NAME", "VALUE").as_deref(),
        Some("row 20000")
    );
    assert_eq!(
        field(&r.body, "LT_ROWS[19999]-ID", "VALUE").as_deref(),
        Some("19999 ")
    );
    assert_eq!(
        field(&r.body, "LT_ROWS[1]-CODE", "VALUE").as_deref(),
        Some("AB  ")
    );
    assert!(!r.body.contains("LT_ROWS[20001]"), "past the end: nothing");
    let r = dbg
        .variables(&["LT_ROWS[20000]-NAME", "LT_ROWS[20001]-NAME"])
        .await;
    assert_eq!(
        field(&r.body, "LT_ROWS[20000]-NAME", "VALUE").as_deref(),
        Some("row 20000")
    );
    assert!(!r.body.contains("LT_ROWS[20001]"));

    // A structure holding the table: its components, the table's record among them.
    let r = dbg.children(&["LS_DEEP"]).await;
    assert_eq!(
        field(&r.body, "LS_DEEP-ROWS", "TABLE_LINES"),
        Some(ROWS.to_string())
    );
    assert_eq!(
        field(&r.body, "LS_DEEP-LABEL", "VALUE").as_deref(),
        Some("deep")
    );
    let r = dbg.children(&["LS_DEEP-ROWS[7]"]).await;
    assert_eq!(
        field(&r.body, "LS_DEEP-ROWS[7]-NAME", "VALUE").as_deref(),
        Some("row 7")
    );

    // A long string: the whole value, its length, its hex (UTF-16LE).
    let r = dbg.variables(&["LV_LONG"]).await;
    let value = field(&r.body, "LV_LONG", "VALUE").expect("value");
    assert_eq!(value.len(), 10 << 17);
    assert!(value.starts_with("01234567890123"));
    assert_eq!(
        field(&r.body, "LV_LONG", "LENGTH"),
        Some((10usize << 17).to_string())
    );
    let hex = field(&r.body, "LV_LONG", "HEX_VALUE").expect("hex");
    assert_eq!(hex.len(), 4 * (10 << 17));
    assert!(hex.starts_with("3000310032003300"));

    // The locals list the table and the string as records, not their contents.
    let r = dbg.children(&["@LOCALS"]).await;
    assert_eq!(
        field(&r.body, "LT_ROWS", "TABLE_LINES"),
        Some(ROWS.to_string())
    );
    let _ = dbg.step("terminateDebuggee").await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_by_reference_table_parameter_shows_the_callers_rows() {
    let sim = sim().await;
    let (_control, dbg) = stopped_at(&sim, FILL_STOP).await;
    let r = dbg.children(&["@PARAMETERS"]).await;
    assert_eq!(
        field(&r.body, "CT_ROWS", "TABLE_LINES"),
        Some(ROWS.to_string())
    );
    assert_eq!(
        field(&r.body, "CT_ROWS", "KIND").as_deref(),
        Some("parameter")
    );
    let r = dbg.children(&["CT_ROWS[20000]"]).await;
    assert_eq!(
        field(&r.body, "CT_ROWS[20000]-NAME", "VALUE").as_deref(),
        Some("row 20000")
    );
    let _ = dbg.step("terminateDebuggee").await;
    sim.shutdown().await;
}

/// The hook remembers that nothing can stop a running program; a breakpoint set while it runs
/// and a listener that registers while it runs must still catch it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakpoints_and_listeners_that_come_while_a_program_runs_catch_it() {
    let sim = sim().await;
    let base = sim.base_url();
    let control = session(&base, false).await;

    // Listener first, the breakpoint later.
    let poller = session(&base, false).await;
    let poll = tokio::spawn(async move { poller.listen(30).await });
    wait_for_listener(&control).await;
    let runner = session(&base, false).await;
    let run = tokio::spawn(async move { runner.classrun(SPIN).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    set_breakpoints(&control, SPIN, &[SPIN_LOOP]).await;
    let caught = poll.await.expect("poll");
    let id = element(&caught.body, "DEBUGGEE_ID").expect("caught after the breakpoint came");
    let dbg = session(&base, true).await;
    assert_eq!(dbg.attach(&id).await.status, 200);
    let _ = dbg.step("terminateDebuggee").await;
    let _ = run.await;

    // The breakpoint first, the listener later.
    let _ = control.stop_listener().await;
    let runner = session(&base, false).await;
    let run = tokio::spawn(async move { runner.classrun(SPIN).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let poller = session(&base, false).await;
    let caught = poller.listen(30).await;
    let id = element(&caught.body, "DEBUGGEE_ID").expect("caught after the listener came");
    let dbg = session(&base, true).await;
    assert_eq!(dbg.attach(&id).await.status, 200);
    let _ = dbg.step("terminateDebuggee").await;
    let _ = run.await;
    sim.shutdown().await;
}
