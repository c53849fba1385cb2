//! The interpreter's abilities wired into the simulator, over real HTTP: statement, exception
//! and message breakpoints firing, setVariableValue, stepJumpToLine, report runs and ABAP
//! Unit runs.

use crate::common;

use std::path::PathBuf;
use std::time::Duration;

use common::*;

const WIRING: &str = "ZSIM_WIRING";
const WIRING_URI: &str = "/sap/bc/adt/oo/classes/zsim_wiring/source/main";
const WIRING_OUTPUT: &str = "Division by zero (type i)\nI: ZSIM(001) 11\n11 AB";
const AUNIT: &str = "/sap/bc/adt/abapunit/testruns";
const AUNIT_CT: &str = "application/vnd.sap.adt.abapunit.testruns.config.v4+xml";

fn fixture(dir: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(dir)
}

async fn sim() -> sim::SimHandle {
    sim::start(sim::SimConfig {
        program_dirs: vec![fixture("wiring"), fixture("src")],
        ..sim::SimConfig::default()
    })
    .await
    .expect("start")
}

fn line_bp(uri: &str, line: u32) -> String {
    line_breakpoint(&format!("l{line}"), uri, line)
}

/// Breakpoints, a listener poll and the trigger `path` (a POST); once the listener reported
/// the stop: the attached debug session and the running trigger.
async fn stopped(
    base: &str,
    breakpoints: &str,
    path: &str,
    body: Option<String>,
) -> (Session, tokio::task::JoinHandle<Resp>) {
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
    catch_and_attach_posting(base, &l, path, body.map(|b| (AUNIT_CT, b))).await
}

async fn finish(run: tokio::task::JoinHandle<Resp>) -> Resp {
    tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("trigger answers")
        .expect("join")
}

fn value_of(xml: &str, id: &str) -> Option<String> {
    element(record(xml, id)?, "VALUE")
}

fn reached_ids(step: &str) -> Vec<String> {
    step.match_indices("<dbg:breakpoint ")
        .filter_map(|(at, _)| attribute(&step[at..], "id"))
        .collect()
}

async fn set_value(d: &Session, name: &str, value: &str) -> Resp {
    d.raw(
        reqwest::Method::POST,
        &format!("/sap/bc/adt/debugger?method=setVariableValue&variableName={name}"),
        &[],
        Some(("text/plain", value.to_string())),
        true,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statement_exception_and_message_breakpoints_fire() {
    let sim = sim().await;
    let base = sim.base_url();
    let (d, run) = stopped(
        &base,
        "<breakpoint kind=\"exception\" clientId=\"ex\" exceptionClass=\"cx_sy_zerodivide\"/><breakpoint kind=\"exception\" clientId=\"other\" exceptionClass=\"cx_sy_itab_line_not_found\"/><breakpoint kind=\"message\" clientId=\"msg\" msgId=\"ZSIM\" msgNo=\"1\" msgTy=\"I\"/><breakpoint kind=\"statement\" clientId=\"st\" statement=\"MESSAGE\"/><breakpoint kind=\"statement\" clientId=\"raise\" statement=\"RAISE\"/>",
        &format!("/sap/bc/adt/oo/classrun/{WIRING}"),
        None,
    )
    .await;
    // First stop: the CATCH that caught CX_SY_ZERODIVIDE.
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(24), "{r:?}");
    // Then the MESSAGE: the statement and the message breakpoint, both reported.
    let r = d.step("stepContinue").await;
    assert_eq!(r.status, 200, "{r:?}");
    let mut ids = reached_ids(&r.body);
    ids.sort();
    assert_eq!(
        ids,
        vec![
            "KIND=1.STATEMENT=MESSAGE".to_string(),
            "KIND=12.MSGID=ZSIM.MSGNO=1.MSGTY=I".to_string(),
        ],
        "{r:?}"
    );
    assert!(r.body.contains("id=\"KIND=1.STATEMENT=MESSAGE\""), "{r:?}");
    assert!(r.body.contains("kind=\"message\""), "{r:?}");
    assert_eq!(reached_ids(&r.body).len(), 2, "{r:?}");
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(27), "{r:?}");
    let r = d.step("stepContinue").await;
    assert_eq!(subtype(&r.body).as_deref(), Some("debuggeeEnded"), "{r:?}");
    let out = finish(run).await;
    assert_eq!(out.status, 200, "{out:?}");
    assert_eq!(out.body.trim_end(), WIRING_OUTPUT);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exception_breakpoint_reported_on_attach() {
    let sim = sim().await;
    let base = sim.base_url();
    let l = session(&base, false).await;
    let r = l
        .post_xml(
            "/sap/bc/adt/debugger/breakpoints",
            "application/xml",
            breakpoints_body(
                "<breakpoint kind=\"exception\" clientId=\"ex\" exceptionClass=\"CX_SY_ZERODIVIDE\"/>",
            ),
        )
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    let lbase = base.clone();
    let listen = tokio::spawn(async move {
        let l = session(&lbase, false).await;
        l.listen(30).await
    });
    wait_for_listener(&l).await;
    let tbase = base.clone();
    let run =
        tokio::spawn(async move { session(&tbase, false).await.classrun("zsim_wiring").await });
    let caught = listen.await.expect("join");
    let d = session(&base, true).await;
    let id = element(&caught.body, "DEBUGGEE_ID").expect("debuggee id");
    let r = d.attach(&id).await;
    assert!(
        r.body
            .contains("id=\"KIND=5.EXCEPTION_CLASS=CX_SY_ZERODIVIDE\""),
        "{r:?}"
    );
    // The exception object is there, in the variables of the CATCH.
    let r = d.step("stepOver").await;
    assert_eq!(r.status, 200, "{r:?}");
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(25), "{r:?}");
    let r = d.step("stepContinue").await;
    assert_eq!(subtype(&r.body).as_deref(), Some("debuggeeEnded"));
    assert_eq!(finish(run).await.body.trim_end(), WIRING_OUTPUT);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_variable_value_converts_and_answers_the_new_value() {
    let sim = sim().await;
    let base = sim.base_url();
    let (d, run) = stopped(
        &base,
        &line_bp(WIRING_URI, 21),
        &format!("/sap/bc/adt/oo/classrun/{WIRING}"),
        None,
    )
    .await;
    let r = set_value(&d, "LV_N", "41").await;
    assert_eq!((r.status, r.body.as_str()), (200, "41 "), "{r:?}");
    assert_eq!(r.content_type(), Some("text/plain; charset=utf-8"));
    // Lower case ids, C truncation, a negative I.
    let r = set_value(&d, "lv_code", "TOOLONG").await;
    assert_eq!((r.status, r.body.as_str()), (200, "TOOL"), "{r:?}");
    let r = d.variables(&["LV_N", "LV_CODE"]).await;
    assert_eq!(value_of(&r.body, "LV_N").as_deref(), Some("41 "));
    assert_eq!(value_of(&r.body, "LV_CODE").as_deref(), Some("TOOL"));
    // Refusals: not a number, unknown variable, not elementary.
    for (name, value, needle) in [
        ("LV_N", "x1", "x1"),
        ("LV_NOPE", "1", "unknown"),
        ("ME", "1", "ME"),
    ] {
        let r = set_value(&d, name, value).await;
        assert_eq!(r.status, 400, "{name}: {r:?}");
        assert!(r.body.contains(needle), "{name}: {r:?}");
        assert!(r.body.contains("ExceptionInvalidData"), "{r:?}");
    }
    let r = d.variables(&["LV_N"]).await;
    assert_eq!(value_of(&r.body, "LV_N").as_deref(), Some("41 "));
    // The program goes on with the new value.
    let r = d.step("stepOver").await;
    assert_eq!(r.status, 200, "{r:?}");
    let r = d.variables(&["LV_N"]).await;
    assert_eq!(value_of(&r.body, "LV_N").as_deref(), Some("51 "));
    let r = d.step("stepContinue").await;
    assert_eq!(subtype(&r.body).as_deref(), Some("debuggeeEnded"));
    let out = finish(run).await;
    assert_eq!(
        out.body.trim_end(),
        "Division by zero (type i)\nI: ZSIM(001) 51\n51 TOOL"
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jump_to_line_skips_code_and_refuses_impossible_targets() {
    let sim = sim().await;
    let base = sim.base_url();
    let (d, run) = stopped(
        &base,
        &line_bp(WIRING_URI, 21),
        &format!("/sap/bc/adt/oo/classrun/{WIRING}"),
        None,
    )
    .await;
    let jump = |target: String| {
        let enc: String =
            percent_encoding::utf8_percent_encode(&target, percent_encoding::NON_ALPHANUMERIC)
                .to_string();
        format!("stepJumpToLine&uri={enc}")
    };
    // Impossible: a declaration, a line inside the TRY block (not running), another object,
    // an unknown object, no line at all. The debuggee stays where it is.
    for target in [
        format!("{WIRING_URI}#start=17"),
        format!("{WIRING_URI}#start=23"),
        "/sap/bc/adt/oo/classes/zcl_abapdbg_demo/source/main#start=35".to_string(),
        "/sap/bc/adt/oo/classes/zcl_nope/source/main#start=21".to_string(),
        WIRING_URI.to_string(),
    ] {
        let r = d.step(&jump(target.clone())).await;
        assert_eq!(r.status, 500, "{target}: {r:?}");
        assert_eq!(
            subtype(&r.body).as_deref(),
            Some("stepNotPossible"),
            "{target}"
        );
        let r = d.stack().await;
        assert_eq!(top_line(&r.body), Some(21), "{target}: {r:?}");
    }
    // Skip `lv_n = lv_n + 10` and the whole TRY block.
    let r = d.step(&jump(format!("{WIRING_URI}#start=27"))).await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(r.body.contains("<dbg:step "), "{r:?}");
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(27), "{r:?}");
    let r = d.variables(&["LV_N"]).await;
    assert_eq!(value_of(&r.body, "LV_N").as_deref(), Some("1 "));
    // Back again: `lv_code = 'AB'` runs a second time, then on.
    let r = d.step(&jump(format!("{WIRING_URI}#start=19"))).await;
    assert_eq!(r.status, 200, "{r:?}");
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(19), "{r:?}");
    let r = d.step("stepContinue").await;
    // The line breakpoint on 21 is reached again.
    assert_eq!(r.status, 200, "{r:?}");
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(21), "{r:?}");
    let r = d.step(&jump(format!("{WIRING_URI}#start=28"))).await;
    assert_eq!(r.status, 200, "{r:?}");
    let r = d.step("stepContinue").await;
    assert_eq!(subtype(&r.body).as_deref(), Some("debuggeeEnded"));
    assert_eq!(finish(run).await.body.trim_end(), "1 AB");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn report_runs_answer_the_list_and_stop_in_forms() {
    let sim = sim().await;
    let base = sim.base_url();
    let t = session(&base, false).await;
    let r = t.post("/sap/bc/adt/abapdbg/reportrun/zsim_list").await;
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(r.content_type(), Some("text/plain; charset=utf-8"));
    // ULINE draws the list width (sy-linsz 83).
    assert_eq!(
        r.body.trim_end(),
        format!("Report\nTotal 41\n{}\ndone", "-".repeat(83))
    );
    let r = t.post("/sap/bc/adt/abapdbg/reportrun/znope").await;
    assert_eq!(r.status, 404, "{r:?}");
    // A class is no report.
    let r = t.post("/sap/bc/adt/abapdbg/reportrun/zsim_wiring").await;
    assert_eq!(r.status, 404, "{r:?}");
    // Debugged: a breakpoint in the FORM.
    let (d, run) = stopped(
        &base,
        &line_bp("/sap/bc/adt/programs/programs/zsim_list/source/main", 18),
        "/sap/bc/adt/abapdbg/reportrun/ZSIM_LIST",
        None,
    )
    .await;
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(18), "{r:?}");
    assert!(
        r.body.contains("eventType=\"FORM\" eventName=\"ADD\""),
        "{r:?}"
    );
    assert!(r.body.contains("eventName=\"START-OF-SELECTION\""), "{r:?}");
    let r = d.variables(&["CV_SUM", "IV_N"]).await;
    assert_eq!(value_of(&r.body, "CV_SUM").as_deref(), Some("1 "), "{r:?}");
    assert_eq!(value_of(&r.body, "IV_N").as_deref(), Some("4 "), "{r:?}");
    let r = set_value(&d, "CV_SUM", "2").await;
    assert_eq!(r.body, "2 ");
    let r = d.step("stepContinue").await;
    assert_eq!(subtype(&r.body).as_deref(), Some("debuggeeEnded"));
    let out = finish(run).await;
    assert!(out.body.contains("Total 42"), "{out:?}");
    sim.shutdown().await;
}

fn run_config(uri: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><aunit:runConfiguration xmlns:aunit=\"http://www.sap.com/adt/aunit\"><external><coverage active=\"false\"/></external><options><uriType value=\"semantic\"/><testDeterminationStrategy sameProgram=\"true\" assignedTests=\"false\"/><testRiskLevels harmless=\"true\" dangerous=\"true\" critical=\"true\"/><testDurations short=\"true\" medium=\"true\" long=\"true\"/></options><adtcore:objectSets xmlns:adtcore=\"http://www.sap.com/adt/core\"><objectSet kind=\"inclusive\"><adtcore:objectReferences><adtcore:objectReference adtcore:uri=\"{uri}\"/></adtcore:objectReferences></objectSet></adtcore:objectSets></aunit:runConfiguration>"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abap_unit_runs_test_classes_and_reports_failures() {
    let sim = sim().await;
    let base = sim.base_url();
    let s = session(&base, false).await;
    let r = s
        .post_xml(
            AUNIT,
            AUNIT_CT,
            run_config("/sap/bc/adt/oo/classes/zcl_sim_parts"),
        )
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    let b = &r.body;
    assert!(b.contains("<program adtcore:uri=\"/sap/bc/adt/oo/classes/zcl_sim_parts\" adtcore:type=\"CLAS/OC\" adtcore:name=\"ZCL_SIM_PARTS\""), "{b}");
    assert!(b.contains("<testClass adtcore:uri=\"/sap/bc/adt/oo/classes/zcl_sim_parts/includes/testclasses#start=1,6\" adtcore:type=\"CLAS/OCN/testclasses\" adtcore:name=\"LTC_DOUBLE\" adtcore:packageName=\"$TMP\" durationCategory=\"short\" riskLevel=\"harmless\"><alerts/>"), "{b}");
    assert!(b.contains("adtcore:name=\"DOUBLES\" adtcore:packageName=\"$TMP\" executionTime=\"0.000\" unit=\"s\"><alerts/></testMethod>"), "{b}");
    assert!(b.contains("adtcore:name=\"FAILS\""), "{b}");
    assert!(
        b.contains("<alert kind=\"failedAssertion\" severity=\"critical\"><title>Critical Assertion Error: 'Fails: ASSERT_EQUALS'</title>"),
        "{b}"
    );
    assert!(b.contains("<stackEntry adtcore:uri=\"/sap/bc/adt/oo/classes/zcl_sim_parts/includes/testclasses#start=22,0;end=22,0\" adtcore:type=\"CLAS/OCN/testclasses\" adtcore:name=\"ZCL_SIM_PARTS\" adtcore:description=\"Include: &lt;ZCL_SIM_PARTS=================CCAU&gt; Line: &lt;22&gt; (FAILS)\"/>"), "{b}");
    // One method only.
    let r = s
        .post_xml(
            AUNIT,
            AUNIT_CT,
            run_config(
                "/sap/bc/adt/oo/classes/zcl_sim_parts/includes/testclasses#testclass=LTC_DOUBLE;testmethod=DOUBLES",
            ),
        )
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(r.body.contains("adtcore:name=\"DOUBLES\""), "{r:?}");
    assert!(!r.body.contains("adtcore:name=\"FAILS\""), "{r:?}");
    assert!(!r.body.contains("<alert "), "{r:?}");
    // A class that names no test class of the object: nothing ran.
    let r = s
        .post_xml(
            AUNIT,
            AUNIT_CT,
            run_config(
                "/sap/bc/adt/oo/classes/zcl_sim_parts/includes/testclasses#testclass=LTC_NOPE",
            ),
        )
        .await;
    assert!(
        r.body
            .ends_with("<aunit:runResult xmlns:aunit=\"http://www.sap.com/adt/aunit\"/>"),
        "{r:?}"
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abap_unit_runs_stop_at_breakpoints_in_test_classes() {
    let sim = sim().await;
    let base = sim.base_url();
    let (d, run) = stopped(
        &base,
        &line_bp(
            "/sap/bc/adt/oo/classes/zcl_sim_parts/includes/testclasses",
            22,
        ),
        AUNIT,
        Some(run_config("/sap/bc/adt/oo/classes/zcl_sim_parts")),
    )
    .await;
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(22), "{r:?}");
    assert!(r.body.contains("CCAU"), "{r:?}");
    assert!(r.body.contains("eventName=\"FAILS\""), "{r:?}");
    let r = d.step("stepContinue").await;
    assert_eq!(subtype(&r.body).as_deref(), Some("debuggeeEnded"));
    let out = finish(run).await;
    assert_eq!(out.status, 200, "{out:?}");
    assert!(out.body.contains("failedAssertion"), "{out:?}");
    sim.shutdown().await;
}

fn classrun_class(name: &str, body: &str) -> String {
    format!(
        "CLASS {name} DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.

CLASS {name} IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{body}
  ENDMETHOD.
ENDCLASS.
"
    )
}

/// A source the parser refuses (5,000 nested `IF`s) once kept the simulator from starting.
/// Now that object is skipped (and logged); the simulator starts, serves and runs the others,
/// and answers for the skipped one as for an object that does not exist.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_object_that_cannot_load_is_skipped_and_the_others_serve() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("unloadable-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let deep = format!(
        "    DATA x TYPE i.\n{}{}",
        "IF x = 0.\n".repeat(5_000),
        "ENDIF.\n".repeat(5_000)
    );
    std::fs::write(
        dir.join("zsim_deep.clas.abap"),
        classrun_class("zsim_deep", &deep),
    )
    .expect("write");
    std::fs::write(
        dir.join("zsim_fine.clas.abap"),
        classrun_class("zsim_fine", "    out->write( `fine` )."),
    )
    .expect("write");
    let sim = sim::start(sim::SimConfig {
        program_dirs: vec![dir.clone()],
        ..sim::SimConfig::default()
    })
    .await
    .expect("starts although one object cannot be loaded");
    let base = sim.base_url();
    let s = session(&base, false).await;
    let fine = s.get("/sap/bc/adt/oo/classes/zsim_fine/source/main").await;
    assert_eq!(fine.status, 200, "{fine:?}");
    let deep = s.get("/sap/bc/adt/oo/classes/zsim_deep/source/main").await;
    assert_eq!(deep.status, 404, "{deep:?}");
    let run = s.classrun("ZSIM_FINE").await;
    assert_eq!((run.status, run.body.as_str()), (200, "fine"), "{run:?}");
    sim.shutdown().await;
    std::fs::remove_dir_all(&dir).expect("remove temp dir");
}

/// Breakpoint conditions are judged as ABAP judges them: `2^53 + 1` is not `2^53` for an
/// `int8`, although both are the same `f64` (the simulator once compared numbers as `f64`
/// and stopped here).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakpoint_conditions_compare_int8_values_exactly() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("int8-condition-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let body = "    DATA lv_big TYPE int8 VALUE 9007199254740993.
    out->write( lv_big ).
    out->write( `end` ).";
    std::fs::write(
        dir.join("zsim_big.clas.abap"),
        classrun_class("zsim_big", body),
    )
    .expect("write");
    let sim = sim::start(sim::SimConfig {
        program_dirs: vec![dir.clone()],
        ..sim::SimConfig::default()
    })
    .await
    .expect("start");
    let base = sim.base_url();
    let uri = "/sap/bc/adt/oo/classes/zsim_big/source/main";
    let conditional = format!(
        "<breakpoint xmlns:adtcore=\"http://www.sap.com/adt/core\" kind=\"line\" clientId=\"c9\" skipCount=\"0\" condition=\"lv_big = 9007199254740992\" adtcore:uri=\"{uri}#start=9\"/>"
    );
    let (d, run) = stopped(
        &base,
        &format!("{conditional}{}", line_bp(uri, 10)),
        "/sap/bc/adt/oo/classrun/ZSIM_BIG",
        None,
    )
    .await;
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(10), "{r:?}");
    let r = d.step("stepContinue").await;
    assert_eq!(subtype(&r.body).as_deref(), Some("debuggeeEnded"), "{r:?}");
    let out = finish(run).await;
    assert_eq!(out.status, 200, "{out:?}");
    sim.shutdown().await;
    std::fs::remove_dir_all(&dir).expect("remove temp dir");
}

/// A program that doubles a string 40 times once aborted the whole simulator (a failed
/// allocation). It ends with the runtime error a real system gives, and the simulator serves
/// the next run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_string_that_grows_without_bound_ends_the_run_not_the_simulator() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("growing-string-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let doubling = "    DATA lv_s TYPE string VALUE `ab`.
    DO 40 TIMES.
      lv_s = lv_s && lv_s.
    ENDDO.
    out->write( strlen( lv_s ) ).";
    std::fs::write(
        dir.join("zsim_grow.clas.abap"),
        classrun_class("zsim_grow", doubling),
    )
    .expect("write");
    let sim = sim::start(sim::SimConfig {
        program_dirs: vec![dir.clone()],
        // Small enough to reach quickly; the default (64 MiB) is reached the same way.
        limits: sim::Limits {
            string_length: 100_000,
            ..sim::Limits::default()
        },
        ..sim::SimConfig::default()
    })
    .await
    .expect("start");
    let base = sim.base_url();
    let s = session(&base, false).await;
    let r = s.classrun("ZSIM_GROW").await;
    assert_eq!(r.status, 500, "{r:?}");
    assert!(r.body.contains("STRING_SIZE_TOO_LARGE"), "{r:?}");
    let r = s.classrun("ZCL_ABAPDBG_DEMO").await;
    assert_eq!(r.status, 200, "{r:?}");
    sim.shutdown().await;
    std::fs::remove_dir_all(&dir).expect("remove temp dir");
}

/// Issue 25, item 3: programs that pile up strings or tables once aborted the whole simulator
/// ("memory allocation failed"), losing every session. Each now ends its run with the
/// runtime error a real system gives when a run's memory is used up; the other session's
/// run, at the same time, completes, and the next runs are normal. The budget (48 MiB) is
/// small so that without it the programs would complete, holding some 150 MB each; the
/// search's 100,000 matches stop at row 50,001, before any row is built.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn programs_past_the_memory_budget_end_their_run_not_the_simulator() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("run-memory-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let strings = "    DATA lt TYPE STANDARD TABLE OF string WITH EMPTY KEY.
    DO 40 TIMES.
      APPEND repeat( val = `x` occ = 4000000 ) TO lt.
    ENDDO.
    out->write( lines( lt ) ).";
    let tables = "    TYPES ty_ints TYPE STANDARD TABLE OF i WITH EMPTY KEY.
    DATA lt_big TYPE ty_ints.
    DATA lt_all TYPE STANDARD TABLE OF ty_ints WITH EMPTY KEY.
    DO 100000 TIMES.
      APPEND sy-index TO lt_big.
    ENDDO.
    DO 40 TIMES.
      APPEND lt_big TO lt_all.
    ENDDO.
    out->write( lines( lt_all ) ).";
    let find = "    DATA(lv) = repeat( val = `a` occ = 100000 ).
    FIND ALL OCCURRENCES OF `a` IN lv RESULTS DATA(lt_res).
    out->write( lines( lt_res ) ).";
    for (name, body) in [
        ("zsim_strings", strings),
        ("zsim_tables", tables),
        ("zsim_find", find),
    ] {
        std::fs::write(
            dir.join(format!("{name}.clas.abap")),
            classrun_class(name, body),
        )
        .expect("write");
    }
    let sim = sim::start(sim::SimConfig {
        program_dirs: vec![dir.clone()],
        limits: sim::Limits {
            run_memory: 48 * 1024 * 1024,
            table_rows: 50_000,
            ..sim::Limits::default()
        },
        ..sim::SimConfig::default()
    })
    .await
    .expect("start");
    let base = sim.base_url();
    let (heavy, other) = (session(&base, false).await, session(&base, false).await);
    for (class, error) in [
        ("ZSIM_STRINGS", "STRING_SIZE_TOO_LARGE"),
        ("ZSIM_TABLES", "TSV_TNEW_PAGE_ALLOC_FAILED"),
        ("ZSIM_FIND", "TSV_TNEW_PAGE_ALLOC_FAILED"),
    ] {
        let start = std::time::Instant::now();
        let (r, o) = tokio::join!(heavy.classrun(class), other.classrun("ZCL_ABAPDBG_DEMO"));
        assert!(start.elapsed() < Duration::from_secs(20), "{class}");
        assert_eq!(r.status, 500, "{class}: {r:?}");
        assert!(r.body.contains(error), "{class}: {r:?}");
        assert_eq!(o.status, 200, "{class}: {o:?}");
        let next = heavy.classrun("ZCL_ABAPDBG_DEMO").await;
        assert_eq!(next.status, 200, "after {class}: {next:?}");
    }
    sim.shutdown().await;
    std::fs::remove_dir_all(&dir).expect("remove temp dir");
}
