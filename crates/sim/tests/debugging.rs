//! Breakpoints, listener, attach, stack, variables, steps and terminate against the demo
//! class, over real HTTP.

use crate::common;

use std::time::Duration;

use common::*;

const DEMO: &str = "ZCL_ABAPDBG_DEMO";
const OUTPUT: &str = "Order A001: total 60, rate 12.50\nDoubled rate: 25.00";

async fn sim_with(attach_timeout: Duration) -> sim::SimHandle {
    sim::start(sim::SimConfig {
        attach_timeout,
        ..sim::SimConfig::default()
    })
    .await
    .expect("start")
}

/// Wait until the listener of DEVELOPER is registered (a poll is in flight).
async fn listener_registered(s: &Session) {
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..1500 {
        let r = s
            .get(&format!("/sap/bc/adt/debugger/listeners?debuggingMode=user&requestUser=DEVELOPER&terminalId={TERMINAL}&ideId={IDE}&checkConflict=false"))
            .await;
        if r.status == 200 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("listener never registered");
}

/// Set a breakpoint at `line`, listen, trigger the classrun; returns (listener answer,
/// classrun task, breakpoint id).
async fn stop_at(base: &str, line: u32) -> (Resp, tokio::task::JoinHandle<Resp>, String, Session) {
    let l = session(base, false).await;
    let r = l.set_breakpoints(&[("bp", line)], true).await;
    assert_eq!(r.status, 200, "{r:?}");
    let id = attribute(&r.body, "id").expect("accepted breakpoint");
    let lbase = base.to_string();
    let listen = tokio::spawn(async move {
        let l = session(&lbase, false).await;
        l.listen(30).await
    });
    listener_registered(&l).await;
    let tbase = base.to_string();
    let run = tokio::spawn(async move {
        let t = session(&tbase, false).await;
        t.classrun(DEMO).await
    });
    let caught = tokio::time::timeout(Duration::from_secs(60), listen)
        .await
        .expect("listener answers")
        .expect("join");
    (caught, run, id, l)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakpoints_accepted_and_refused() {
    let sim = sim_with(Duration::from_secs(60)).await;
    let s = session(&sim.base_url(), false).await;
    let r = s
        .set_breakpoints(&[("ok35", 35), ("comment30", 30), ("ok48", 48)], true)
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.content_type(), Some("application/xml; charset=utf-8"));
    let body = &r.body;
    // Refusals first.
    let refused = body.find("clientId=\"comment30\"").expect("refusal");
    let accepted = body.find("clientId=\"ok35\"").expect("accepted");
    assert!(refused < accepted, "{body}");
    assert!(body.contains("<breakpoint kind=\"line\" clientId=\"comment30\" errorMessage=\"Cannot create a breakpoint at this position\" nonAbapFlavour=\"\"/>"), "{body}");
    assert!(body.contains(&format!(
        "<breakpoint kind=\"line\" clientId=\"ok35\" id=\"KIND=0.SOURCETYPE=ABAP.MAIN_PROGRAM=ZCL_ABAPDBG_DEMO==============CP.INCLUDE=ZCL_ABAPDBG_DEMO==============CM001.LINE_NR=13\" nonAbapFlavour=\"\" condition=\"\" adtcore:uri=\"{DEMO_URI}#start=35\" adtcore:type=\"CLAS/OC\" adtcore:name=\"ZCL_ABAPDBG_DEMO\" xmlns:adtcore=\"http://www.sap.com/adt/core\"/>"
    )), "{body}");
    assert!(
        body.contains("INCLUDE=ZCL_ABAPDBG_DEMO==============CM002.LINE_NR=2"),
        "{body}"
    );
    // Fragment `N,0`, unknown objects and other kinds.
    let body = "<?xml version=\"1.0\"?><dbg:breakpoints xmlns:dbg=\"http://www.sap.com/adt/debugger\" scope=\"external\" debuggingMode=\"user\" requestUser=\"DEVELOPER\" terminalId=\"T\" ideId=\"I\"><breakpoint xmlns:adtcore=\"http://www.sap.com/adt/core\" kind=\"line\" clientId=\"a\" adtcore:uri=\"/sap/bc/adt/oo/classes/zcl_abapdbg_demo/source/main#start=36,0\"/><breakpoint xmlns:adtcore=\"http://www.sap.com/adt/core\" kind=\"line\" clientId=\"b\" adtcore:uri=\"/sap/bc/adt/oo/classes/zcl_nope/source/main#start=3\"/><breakpoint kind=\"badi\" clientId=\"c\"/></dbg:breakpoints>".to_string();
    let r = s
        .post_xml("/sap/bc/adt/debugger/breakpoints", "application/xml", body)
        .await;
    assert_eq!(r.status, 200);
    assert!(r.body.contains("clientId=\"a\" id=\"KIND=0."), "{r:?}");
    assert!(r.body.contains("#start=36,0\""), "{r:?}");
    assert!(
        r.body.contains(
            "clientId=\"b\" errorMessage=\"Cannot create a breakpoint at this position\""
        )
    );
    assert!(
        r.body
            .contains("clientId=\"c\" errorMessage=\"Invalid breakpoint kind  badi\"")
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn source_is_served() {
    let sim = sim_with(Duration::from_secs(60)).await;
    let s = session(&sim.base_url(), false).await;
    let r = s.get(DEMO_URI).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.content_type(), Some("text/plain; charset=utf-8"));
    assert!(r.body.contains("lv_count = lv_count + 1."));
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn classrun_without_breakpoints() {
    let sim = sim_with(Duration::from_secs(60)).await;
    let s = session(&sim.base_url(), false).await;
    let r = s.classrun("zcl_abapdbg_demo").await;
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(r.content_type(), Some("text/plain; charset=utf-8"));
    assert_eq!(r.body.trim_end(), OUTPUT);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_debugging_flow() {
    let sim = sim_with(Duration::from_secs(60)).await;
    let base = sim.base_url();
    let (caught, run, bp_id, l) = stop_at(&base, 35).await;
    assert_eq!(caught.status, 200, "{caught:?}");
    assert_eq!(
        caught.content_type(),
        Some(
            "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.debugger.DebuggeesList"
        )
    );
    let body = &caught.body;
    let debuggee = element(body, "DEBUGGEE_ID").expect("DEBUGGEE_ID");
    assert_eq!(debuggee.len(), 32);
    assert_eq!(element(body, "CLIENT").as_deref(), Some("001"));
    assert_eq!(element(body, "DEBUGGEE_USER").as_deref(), Some("DEVELOPER"));
    assert_eq!(element(body, "LINE_CURR").as_deref(), Some("13"));
    assert_eq!(
        element(body, "INCL_CURR").as_deref(),
        Some("ZCL_ABAPDBG_DEMO==============CM001")
    );
    assert_eq!(
        element(body, "URI").as_deref(),
        Some(format!("{DEMO_URI}#start=35").as_str())
    );
    assert!(body.contains("<TERMINAL_ID/><IDE_ID/>"));
    assert!(body.contains("<PARENT_URI/><PACKAGE_NAME/><DESCRIPTION/></STPDA_DEBUGGEE>"));

    // Attach on a fresh stateful session.
    let d = session(&base, true).await;
    let r = d.attach(&debuggee).await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(r.body.contains("<dbg:attach"), "{r:?}");
    assert!(
        r.body
            .contains(&format!("<dbg:breakpoint id=\"{bp_id}\" kind=\"line\"")),
        "{r:?}"
    );
    // A second session cannot take it.
    let other = session(&base, true).await;
    let r = other.attach(&debuggee).await;
    assert_eq!(r.status, 500);
    assert_eq!(subtype(&r.body).as_deref(), Some("invalidDebuggee"));

    let r = d.stack().await;
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(top_line(&r.body), Some(35), "{r:?}");
    assert!(
        r.body
            .contains(&format!("adtcore:uri=\"{DEMO_URI}#start=35,0\"")),
        "{r:?}"
    );
    assert!(r.body.contains("stackPosition=\"1\""));
    // The old POST form answers the same.
    let r2 = d
        .post("/sap/bc/adt/debugger?method=getStack&emode=_&semanticURIs=true")
        .await;
    assert_eq!(r2.status, 200);
    assert_eq!(r2.body, r.body);

    let r = d.children(&["@ROOT"]).await;
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(
        r.content_type(),
        Some(
            "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.debugger.ChildVariables"
        )
    );
    assert!(
        r.body
            .contains("<PARENT_ID>@ROOT</PARENT_ID><CHILD_ID>@LOCALS</CHILD_ID>"),
        "{r:?}"
    );
    let vars_at = r.body.find("<VARIABLES").unwrap();
    let hier_at = r.body.find("<HIERARCHIES").unwrap();
    assert!(vars_at < hier_at);

    let r = d.children(&["@LOCALS"]).await;
    assert_eq!(r.status, 200, "{r:?}");
    let rec = record(&r.body, "LV_COUNT").expect("LV_COUNT");
    assert!(rec.contains("<VALUE>0 </VALUE>"), "{rec}");
    assert!(rec.contains("<NAME>LV_COUNT</NAME>"), "{rec}");
    let code = record(&r.body, "LV_CODE").expect("LV_CODE");
    assert!(code.contains("<VALUE>A001      </VALUE>"), "{code}");

    // A table/unknown parent: zero-byte answer.
    let r = d.children(&["NO_SUCH_VARIABLE"]).await;
    assert_eq!(
        (r.status, r.body.as_str(), r.content_type()),
        (200, "", None)
    );

    let r = d.step("stepOver").await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(r.body.contains("<dbg:step"));
    assert!(r.body.contains("<dbg:settings"));
    assert!(r.body.contains("<dbg:actions>"));
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(36), "{r:?}");

    let r = d.variables(&["LV_COUNT", "NOPE"]).await;
    assert_eq!(r.status, 200, "{r:?}");
    let rec = record(&r.body, "LV_COUNT").expect("LV_COUNT");
    assert!(rec.contains("<VALUE>1 </VALUE>"), "{rec}");
    assert!(rec.contains("<KIND>unknown</KIND>"), "{rec}");
    let r = d.variables(&["NOPE"]).await;
    assert_eq!((r.status, r.body.as_str()), (200, ""));

    // Step into the method call on line 36 → LINE_TOTAL, then back out.
    let r = d.step("stepInto").await;
    assert_eq!(r.status, 200, "{r:?}");
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(48), "{r:?}");
    assert!(r.body.contains("eventName=\"LINE_TOTAL\""), "{r:?}");
    assert!(r.body.contains("stackPosition=\"2\""), "{r:?}");
    let r = d.step("stepReturn").await;
    assert_eq!(r.status, 200, "{r:?}");
    let r = d.stack().await;
    assert!(!r.body.contains("eventName=\"LINE_TOTAL\""), "{r:?}");

    // The loop comes back to line 35: the breakpoint is reached again.
    let r = d.step("stepContinue").await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(
        r.body.contains(&format!(
            "<dbg:reachedBreakpoints><dbg:breakpoint id=\"{bp_id}\""
        )),
        "{r:?}"
    );
    assert_eq!(top_line(&d.stack().await.body), Some(35));

    // Release: delete the breakpoint, continue to the end.
    let r = l.delete_breakpoint(&bp_id).await;
    assert_eq!((r.status, r.body.as_str()), (200, ""));
    let r = d.step("stepContinue").await;
    assert_eq!(r.status, 500, "{r:?}");
    assert_eq!(subtype(&r.body).as_deref(), Some("debuggeeEnded"));
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("classrun answers")
        .expect("join");
    assert_eq!(out.status, 200, "{out:?}");
    assert_eq!(out.body.trim_end(), OUTPUT);

    // The session has no debuggee any more.
    let r = d.stack().await;
    assert_eq!(r.status, 404);
    assert_eq!(subtype(&r.body).as_deref(), Some("noSessionAttached"));
    let r = d.step("stepContinue").await;
    assert_eq!(r.status, 400);
    assert_eq!(subtype(&r.body).as_deref(), Some("noSessionAttached"));
    // One stateful session = one debuggee.
    let r = d.attach(&debuggee).await;
    assert_eq!(r.status, 500);
    assert!(r.body.contains("Debuggee already attached"));
    l.stop_listener().await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminate_flow() {
    let sim = sim_with(Duration::from_secs(60)).await;
    let base = sim.base_url();
    let (caught, run, _bp, l) = stop_at(&base, 48).await;
    let debuggee = element(&caught.body, "DEBUGGEE_ID").expect("debuggee");
    assert_eq!(element(&caught.body, "LINE_CURR").as_deref(), Some("2"));
    let d = session(&base, true).await;
    assert_eq!(d.attach(&debuggee).await.status, 200);
    let r = d.stack().await;
    assert_eq!(top_line(&r.body), Some(48));
    let r = d.step("terminateDebuggee").await;
    assert_eq!(r.status, 500, "{r:?}");
    assert_eq!(subtype(&r.body).as_deref(), Some("terminateDebuggee"));
    assert!(
        r.body
            .contains("<entry key=\"previous1ExceptionClassName\">CX_TPDAPI_FAILURE</entry>")
    );
    assert!(r.body.contains(
        "<entry key=\"previous2ExceptionClassName\">CX_TPDA_SYS_COMM_DBGSESSIONEND</entry>"
    ));
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("classrun answers")
        .expect("join");
    assert_eq!(out.status, 500, "{out:?}");
    assert!(
        out.body.contains("Program terminated by the debugger"),
        "{out:?}"
    );
    let r = d.step("stepOver").await;
    assert_eq!(r.status, 500);
    assert!(r.body.contains("Debuggee session stopped"));
    assert_eq!(subtype(&r.body), None);
    let r = d.stack().await;
    assert_eq!(r.status, 404);
    assert_eq!(subtype(&r.body).as_deref(), Some("noSessionAttached"));
    l.set_breakpoints(&[], true).await;
    l.stop_listener().await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakpoints_need_a_listener() {
    let sim = sim_with(Duration::from_secs(60)).await;
    let s = session(&sim.base_url(), false).await;
    assert_eq!(s.set_breakpoints(&[("bp", 35)], true).await.status, 200);
    let r = tokio::time::timeout(Duration::from_secs(60), s.classrun(DEMO))
        .await
        .expect("no stop without a listener");
    assert_eq!(r.body.trim_end(), OUTPUT);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unattached_debuggee_runs_on() {
    let sim = sim_with(Duration::from_millis(500)).await;
    let base = sim.base_url();
    let (caught, run, _bp, l) = stop_at(&base, 44).await;
    assert_eq!(caught.status, 200);
    // A generous bound: under a loaded machine the run can take long to be scheduled.
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the run goes on without attach")
        .expect("join");
    assert_eq!(out.body.trim_end(), OUTPUT);
    // Gone: attach fails.
    let d = session(&base, true).await;
    let debuggee = element(&caught.body, "DEBUGGEE_ID").unwrap();
    assert_eq!(d.attach(&debuggee).await.status, 500);
    l.stop_listener().await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_releases_a_stopped_program() {
    let sim = sim_with(Duration::from_secs(60)).await;
    let base = sim.base_url();
    let (caught, run, _bp, _l) = stop_at(&base, 35).await;
    let debuggee = element(&caught.body, "DEBUGGEE_ID").unwrap();
    let d = session(&base, true).await;
    assert_eq!(d.attach(&debuggee).await.status, 200);
    tokio::time::timeout(Duration::from_secs(6), sim.shutdown())
        .await
        .expect("shutdown does not hang");
    let out = tokio::time::timeout(Duration::from_secs(5), run)
        .await
        .expect("classrun answered")
        .expect("join");
    assert_eq!(out.status, 500, "{out:?}");
}
