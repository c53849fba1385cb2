//! Issue-4 features over real HTTP: request log, listener conflicts, breakpoint kinds and
//! conditions, frame switch, watchpoints, memory sizes, actions, the destructive variables
//! resources, batch, session expiry, several debuggees, the admin API.

use crate::common;

use std::time::Duration;

use common::*;

const DEMO: &str = "ZCL_ABAPDBG_DEMO";
const OUTPUT: &str = "Order A001: total 60, rate 12.50\nDoubled rate: 25.00";
const LISTENERS: &str = "/sap/bc/adt/debugger/listeners";

async fn sim_with(config: sim::SimConfig) -> sim::SimHandle {
    sim::start(config).await.expect("start")
}

async fn sim() -> sim::SimHandle {
    sim_with(sim::SimConfig::default()).await
}

fn listener_query(ide: &str, extra: &str) -> String {
    format!(
        "{LISTENERS}?debuggingMode=user&requestUser=DEVELOPER&terminalId={TERMINAL}&ideId={ide}{extra}"
    )
}

async fn wait_for_listener(s: &Session, ide: &str) {
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..1500 {
        if s.get(&listener_query(ide, "&checkConflict=false"))
            .await
            .status
            == 200
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("listener never registered");
}

fn bps_body(sync: &str, inner: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><dbg:breakpoints xmlns:dbg=\"http://www.sap.com/adt/debugger\" scope=\"external\" debuggingMode=\"user\" requestUser=\"DEVELOPER\" terminalId=\"{TERMINAL}\" ideId=\"{IDE}\" systemDebugging=\"false\" deactivated=\"false\">{sync}{inner}</dbg:breakpoints>"
    )
}

fn line_bp(client: &str, line: u32, condition: &str) -> String {
    let cond = if condition.is_empty() {
        String::new()
    } else {
        format!(
            " condition=\"{}\"",
            condition.replace('>', "&gt;").replace('<', "&lt;")
        )
    };
    format!(
        "<breakpoint xmlns:adtcore=\"http://www.sap.com/adt/core\" kind=\"line\" clientId=\"{client}\" skipCount=\"0\"{cond} adtcore:uri=\"{DEMO_URI}#start={line}\"/>"
    )
}

fn partial() -> String {
    format!(
        "<syncScope mode=\"partial\"><adtcore:objectReference xmlns:adtcore=\"http://www.sap.com/adt/core\" adtcore:uri=\"{DEMO_URI}\"/></syncScope>"
    )
}

async fn post_bps(s: &Session, body: String) -> Resp {
    s.post_xml("/sap/bc/adt/debugger/breakpoints", "application/xml", body)
        .await
}

/// Breakpoints as given, a listener poll, a classrun: the listener's answer, the classrun
/// task and the listener session.
async fn stop_with(
    base: &str,
    breakpoints: String,
) -> (Resp, tokio::task::JoinHandle<Resp>, Session) {
    let l = session(base, false).await;
    let r = post_bps(&l, breakpoints).await;
    assert_eq!(r.status, 200, "{r:?}");
    let lbase = base.to_string();
    let listen = tokio::spawn(async move {
        let l = session(&lbase, false).await;
        l.listen(30).await
    });
    wait_for_listener(&l, IDE).await;
    let tbase = base.to_string();
    let run = tokio::spawn(async move {
        let t = session(&tbase, false).await;
        t.classrun(DEMO).await
    });
    let caught = tokio::time::timeout(Duration::from_secs(60), listen)
        .await
        .expect("listener answers")
        .expect("join");
    assert_eq!(caught.status, 200, "{caught:?}");
    (caught, run, l)
}

async fn attached(base: &str, caught: &Resp) -> Session {
    let d = session(base, true).await;
    let id = element(&caught.body, "DEBUGGEE_ID").expect("debuggee id");
    let r = d.attach(&id).await;
    assert_eq!(r.status, 200, "{r:?}");
    d
}

async fn finish(run: tokio::task::JoinHandle<Resp>) -> Resp {
    tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("classrun answers")
        .expect("join")
}

fn value_of(xml: &str, id: &str) -> Option<String> {
    element(record(xml, id)?, "VALUE")
}

fn state(sim: &sim::SimHandle) -> serde_json::Value {
    serde_json::from_str(&sim.state_json()).expect("state json")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listener_conflicts_checks_and_stop() {
    let sim = sim().await;
    let base = sim.base_url();
    let a = session(&base, false).await;
    // Nothing registered yet: check without conflict → 404, with conflict → 200 empty.
    let r = a.get(&listener_query(IDE, "&checkConflict=false")).await;
    assert_eq!(r.status, 404, "{r:?}");
    assert!(r.body.contains("Resource   does not exist."), "{r:?}");
    assert!(r.body.contains("<type id=\"ExceptionResourceNotFound\"/>"));
    let r = a.get(&listener_query(IDE, "&checkConflict=true")).await;
    assert_eq!((r.status, r.body.as_str()), (200, ""));

    let abase = base.clone();
    let first = tokio::spawn(async move {
        let a = session(&abase, false).await;
        a.post(&listener_query(
            IDE,
            "&timeout=30&checkConflict=true&isNotifiedOnConflict=true",
        ))
        .await
    });
    wait_for_listener(&a, IDE).await;
    // Another IDE checks: conflict (409, conflictText, ideUser).
    let other = "OTHERIDE000000000000000000000000";
    let r = a.get(&listener_query(other, "&checkConflict=true")).await;
    assert_eq!(r.status, 409, "{r:?}");
    assert_eq!(subtype(&r.body).as_deref(), Some("conflictDetected"));
    assert!(r.body.contains("<entry key=\"conflictText\">"), "{r:?}");
    assert!(r.body.contains("<entry key=\"ideUser\">DEVELOPER</entry>"));
    // The same IDE sees no conflict; empty ideId (VSC's second check) sees one.
    assert_eq!(
        a.get(&listener_query(IDE, "&checkConflict=true"))
            .await
            .status,
        200
    );
    assert_eq!(
        a.get(&listener_query("", "&checkConflict=true"))
            .await
            .status,
        409
    );
    // Listening with checkConflict=true from another IDE: refused at once.
    let b = session(&base, false).await;
    let r = b
        .post(&listener_query(other, "&timeout=30&checkConflict=true"))
        .await;
    assert_eq!(r.status, 409);
    assert_eq!(subtype(&r.body).as_deref(), Some("conflictDetected"));
    // Without checkConflict it takes over; the first poll is told (it asked to be).
    let bbase = base.clone();
    let second = tokio::spawn(async move {
        let b = session(&bbase, false).await;
        b.post(&listener_query(
            "OTHERIDE000000000000000000000000",
            "&timeout=30",
        ))
        .await
    });
    let r = tokio::time::timeout(Duration::from_secs(5), first)
        .await
        .expect("displaced poll ends")
        .expect("join");
    assert_eq!(r.status, 409, "{r:?}");
    assert_eq!(subtype(&r.body).as_deref(), Some("conflictNotification"));
    wait_for_listener(&b, other).await;
    assert_eq!(
        a.get(&listener_query(IDE, "&checkConflict=false"))
            .await
            .status,
        404
    );
    // DELETE ends the waiting poll with an empty 200 within a few seconds.
    let started = std::time::Instant::now();
    let r = b
        .delete(&listener_query(
            other,
            "&checkConflict=false&notifyConflict=true",
        ))
        .await;
    assert_eq!((r.status, r.body.as_str()), (200, ""));
    let r = tokio::time::timeout(Duration::from_secs(5), second)
        .await
        .expect("deleted poll ends")
        .expect("join");
    assert_eq!((r.status, r.body.as_str()), (200, ""));
    assert!(r.content_type().is_none());
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(state(&sim)["listeners"].as_array().map(Vec::len), Some(0));
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debuggee_record_has_every_field_in_order() {
    let sim = sim().await;
    let base = sim.base_url();
    let (caught, run, l) = stop_with(&base, bps_body(&partial(), &line_bp("c", 44, ""))).await;
    let body = &caught.body;
    let start = body.find("<STPDA_DEBUGGEE>").expect("record") + "<STPDA_DEBUGGEE>".len();
    let end = body.find("</STPDA_DEBUGGEE>").expect("end");
    let mut names = Vec::new();
    let mut rest = &body[start..end];
    while let Some(i) = rest.find('<') {
        let tail = &rest[i + 1..];
        let stop = tail.find(['>', '/']).expect("tag end");
        let name = &tail[..stop];
        if !name.is_empty() {
            names.push(name.to_string());
        }
        // Skip to the end of this element.
        let close_self = tail.find("/>");
        let close_full = tail.find(&format!("</{name}>"));
        let skip = match (close_self, close_full) {
            (Some(s), Some(_)) if s < tail.find('>').unwrap_or(usize::MAX) => s + 2,
            (_, Some(f)) => f + name.len() + 3,
            (Some(s), None) => s + 2,
            (None, None) => tail.len(),
        };
        rest = &tail[skip..];
    }
    let expected = "CLIENT DEBUGGEE_ID TERMINAL_ID IDE_ID DEBUGGEE_USER PRG_CURR INCL_CURR LINE_CURR RFCDEST APPLSERVER SYSID SYSNR DBGKEY TSTMP DBGEE_KIND DUMPID DUMPDATE DUMPTIME DUMPHOST DUMPMODNO LISTENER_CTX_ID IS_ATTACH_IMPOSSIBLE APPSERVER IS_SAME_SERVER CAN_ADT_CROSS_SERVER INSTANCE_NAME HOST DUMP_ID DUMP_DATE DUMP_TIME DUMP_HOST DUMP_UNAME DUMP_MODNO DUMP_CLIENT DUMP_URI URI TYPE NAME PARENT_URI PACKAGE_NAME DESCRIPTION";
    assert_eq!(names.join(" "), expected, "{body}");
    assert_eq!(element(body, "DBGEE_KIND").as_deref(), Some("DEBUGGEE"));
    assert_eq!(
        element(body, "IS_ATTACH_IMPOSSIBLE").as_deref(),
        Some("false")
    );
    assert_eq!(element(body, "TYPE").as_deref(), Some("CLAS/OC"));
    assert_eq!(element(body, "NAME").as_deref(), Some(DEMO));
    // The admin state shows it waiting, at its position.
    let st = state(&sim);
    let d = &st["debuggees"][0];
    assert_eq!(d["phase"], "waiting");
    assert_eq!(d["position"]["line"], 44);
    let dbg = attached(&base, &caught).await;
    let st = state(&sim);
    assert_eq!(st["debuggees"][0]["phase"], "attached");
    assert_eq!(st["contexts"].as_array().map(Vec::len), Some(1));
    let r = dbg.step("stepContinue").await;
    assert_eq!(r.status, 500);
    assert_eq!(subtype(&r.body).as_deref(), Some("debuggeeEnded"));
    assert_eq!(finish(run).await.body.trim_end(), OUTPUT);
    assert_eq!(state(&sim)["debuggees"].as_array().map(Vec::len), Some(0));
    l.stop_listener().await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakpoint_kinds_refusals_and_sync_scope() {
    let sim = sim().await;
    let s = session(&sim.base_url(), false).await;
    let inner = format!(
        "{}<breakpoint kind=\"statement\" clientId=\"st\" statement=\"call method\"/><breakpoint kind=\"exception\" clientId=\"ex\" exceptionClass=\"cx_sy_zerodivide\"/><breakpoint kind=\"message\" clientId=\"msg\" msgId=\"00\" msgNo=\"001\" msgTy=\"E\"/><breakpoint kind=\"badi\" clientId=\"badi\"/><breakpoint kind=\"statement\" clientId=\"nost\" statement=\"NOPE\"/>{}",
        line_bp("ln", 35, "LV_COUNT > 1"),
        line_bp("bad", 30, "")
    );
    let r = post_bps(&s, bps_body(&partial(), &inner)).await;
    assert_eq!(r.status, 200, "{r:?}");
    let b = &r.body;
    assert!(b.contains("<breakpoint kind=\"statement\" clientId=\"st\" id=\"KIND=1.STATEMENT=CALL METHOD\" nonAbapFlavour=\"\" condition=\"\" statement=\"CALL METHOD\"/>"), "{b}");
    assert!(
        b.contains("id=\"KIND=5.EXCEPTION_CLASS=CX_SY_ZERODIVIDE\""),
        "{b}"
    );
    assert!(
        b.contains("id=\"KIND=12.MSGID=00.MSGNO=001.MSGTY=E\""),
        "{b}"
    );
    assert!(b.contains("<breakpoint kind=\"badi\" clientId=\"badi\" errorMessage=\"Invalid breakpoint kind  badi\" nonAbapFlavour=\"\"/>"), "{b}");
    assert!(
        b.contains("clientId=\"bad\" errorMessage=\"Cannot create a breakpoint at this position\"")
    );
    assert!(b.contains("clientId=\"nost\" errorMessage="));
    assert!(b.contains("condition=\"LV_COUNT &gt; 1\""), "{b}");
    // Refusals come first.
    assert!(b.find("clientId=\"badi\"") < b.find("clientId=\"ln\""));
    // A malformed condition is refused in-band.
    let r = post_bps(&s, bps_body("", &line_bp("cond", 36, "LV_COUNT >"))).await;
    assert!(
        r.body
            .contains("clientId=\"cond\" errorMessage=\"Condition is invalid"),
        "{r:?}"
    );
    // A message breakpoint without msgTy fails the whole request.
    let r = post_bps(
        &s,
        bps_body(
            "",
            "<breakpoint kind=\"message\" clientId=\"m\" msgId=\"00\" msgNo=\"1\"/>",
        ),
    )
    .await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("Attribute 'msgTy' expected"), "{r:?}");
    assert!(r.body.contains("<entry key=\"XML_PATH\">"));
    let ids = |sim: &sim::SimHandle| -> Vec<String> {
        state(sim)["breakpoints"]["DEVELOPER"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(ids(&sim).len(), 4, "{:?}", ids(&sim));
    // Partial replaces only the object's (line) breakpoints.
    let r = post_bps(&s, bps_body(&partial(), &line_bp("l2", 36, ""))).await;
    assert_eq!(r.status, 200);
    let now = ids(&sim);
    assert_eq!(now.len(), 4, "{now:?}");
    assert!(now.iter().any(|i| i.ends_with("LINE_NR=14")), "{now:?}");
    assert!(!now.iter().any(|i| i.ends_with("LINE_NR=13")), "{now:?}");
    // Without syncScope: additive.
    post_bps(&s, bps_body("", &line_bp("l3", 44, ""))).await;
    assert_eq!(ids(&sim).len(), 5);
    // DELETE by id.
    let r = s.delete_breakpoint("KIND=1.STATEMENT=CALL METHOD").await;
    assert_eq!((r.status, r.body.as_str()), (200, ""));
    assert_eq!(ids(&sim).len(), 4);
    // Full with no children clears everything (an empty root answer).
    let r = post_bps(&s, bps_body("<syncScope mode=\"full\"/>", "")).await;
    assert_eq!(r.status, 200);
    assert!(
        r.body
            .ends_with("<dbg:breakpoints xmlns:dbg=\"http://www.sap.com/adt/debugger\"/>"),
        "{r:?}"
    );
    assert!(ids(&sim).is_empty());
    // Catalogues.
    let r = s.get("/sap/bc/adt/debugger/breakpoints/statements").await;
    assert_eq!(r.status, 200);
    assert!(
        r.body
            .contains("<nameditem:name>CALL FUNCTION</nameditem:name>")
    );
    let r = s.get("/sap/bc/adt/debugger/breakpoints/messagetypes").await;
    assert!(
        r.body
            .contains("<nameditem:totalItemCount>6</nameditem:totalItemCount>")
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conditional_breakpoint_stops_only_when_true() {
    let sim = sim().await;
    let base = sim.base_url();
    let (caught, run, l) = stop_with(
        &base,
        bps_body(&partial(), &line_bp("c", 35, "LV_COUNT = 1")),
    )
    .await;
    let d = attached(&base, &caught).await;
    let r = d.variables(&["LV_COUNT"]).await;
    assert_eq!(
        value_of(&r.body, "LV_COUNT").as_deref(),
        Some("1 "),
        "{r:?}"
    );
    // It does not stop again (LV_COUNT is 2 on the next pass): the program ends.
    let r = d.step("stepContinue").await;
    assert_eq!(subtype(&r.body).as_deref(), Some("debuggeeEnded"), "{r:?}");
    assert_eq!(finish(run).await.body.trim_end(), OUTPUT);
    l.stop_listener().await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frame_switch_and_variables_in_frame() {
    let sim = sim().await;
    let base = sim.base_url();
    let (caught, run, l) = stop_with(&base, bps_body(&partial(), &line_bp("c", 48, ""))).await;
    let d = attached(&base, &caught).await;
    let r = d.stack().await;
    assert!(r.body.contains("debugCursorStackIndex=\"0\""));
    assert!(r.body.contains("stackPosition=\"2\""));
    // New form: PUT the stackUri of the caller.
    let r = d
        .raw(
            reqwest::Method::PUT,
            "/sap/bc/adt/debugger/stack/type/ABAP/position/1",
            &[],
            None,
            true,
        )
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(r.body.contains("<dbg:stack"), "{r:?}");
    assert!(r.body.contains("debugCursorStackIndex=\"1\""), "{r:?}");
    // Variables now answer in the caller (MAIN).
    let r = d.variables(&["LV_COUNT", "IV_QUANTITY"]).await;
    assert_eq!(
        value_of(&r.body, "LV_COUNT").as_deref(),
        Some("1 "),
        "{r:?}"
    );
    assert!(record(&r.body, "IV_QUANTITY").is_none(), "{r:?}");
    let r = d.stack().await;
    assert!(r.body.contains("debugCursorStackIndex=\"1\""));
    // Old form back to the top frame.
    let r = d
        .post("/sap/bc/adt/debugger?method=setStackPosition&position=2")
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    let r = d.variables(&["IV_QUANTITY"]).await;
    assert_eq!(
        value_of(&r.body, "IV_QUANTITY").as_deref(),
        Some("1 "),
        "{r:?}"
    );
    // Out of range.
    let r = d
        .raw(
            reqwest::Method::PUT,
            "/sap/bc/adt/debugger/stack/type/ABAP/position/7",
            &[],
            None,
            true,
        )
        .await;
    assert_eq!(r.status, 404);
    // Run to a line with uri.
    let r = d.step("stepRunToLine").await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("Parameter uri could not be found."));
    let uri = percent_encoding::utf8_percent_encode(
        &format!("{DEMO_URI}#start=43"),
        percent_encoding::NON_ALPHANUMERIC,
    )
    .to_string();
    // Remove the breakpoint first so the loop does not stop at 48 again.
    l.set_breakpoints(&[], true).await;
    let r = d
        .post(&format!(
            "/sap/bc/adt/debugger?method=stepRunToLine&uri={uri}"
        ))
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(top_line(&d.stack().await.body), Some(43));
    let r = d.step("stepContinue").await;
    assert_eq!(r.status, 500);
    assert_eq!(finish(run).await.body.trim_end(), OUTPUT);
    l.stop_listener().await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watchpoints_crud_and_hit() {
    let sim = sim().await;
    let base = sim.base_url();
    let (caught, run, l) = stop_with(&base, bps_body(&partial(), &line_bp("c", 35, ""))).await;
    let d = attached(&base, &caught).await;
    // Without variableName.
    let r = d.post("/sap/bc/adt/debugger/watchpoints").await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("ExceptionParameterNotFound"));
    let r = d
        .post("/sap/bc/adt/debugger/watchpoints?variableName=LV_TOTAL")
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(r.body.contains("<watchpoint id=\"1\" variableName=\"LV_TOTAL\" kind=\"local\" active=\"true\" expired=\"false\" procedure=\"IF_OO_ADT_CLASSRUN~MAIN\">"), "{r:?}");
    assert!(r.body.contains("<currentValue>0 </currentValue>"));
    assert!(
        r.body
            .contains("href=\"/sap/bc/adt/debugger/watchpoints/1\"")
    );
    let r = d.get("/sap/bc/adt/debugger/watchpoints").await;
    assert!(r.body.contains("id=\"1\""));
    let r = d.get("/sap/bc/adt/debugger/watchpoints/9").await;
    assert_eq!(r.status, 404);
    assert!(r.body.contains("Watchpoint not found"));
    assert!(r.body.contains(
        "<entry key=\"T100KEY-ID\">TPDA_ADT</entry><entry key=\"T100KEY-NO\">013</entry>"
    ));
    // Modify: a new id.
    let cond =
        percent_encoding::utf8_percent_encode("LV_TOTAL > 0", percent_encoding::NON_ALPHANUMERIC)
            .to_string();
    let r = d
        .raw(
            reqwest::Method::PUT,
            &format!("/sap/bc/adt/debugger/watchpoints/1?condition={cond}&active=true"),
            &[],
            None,
            true,
        )
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(r.body.contains("<watchpoint id=\"2\""), "{r:?}");
    assert!(r.body.contains("<condition>LV_TOTAL &gt; 0</condition>"));
    // Drop the line breakpoint: only the watchpoint stops now.
    l.set_breakpoints(&[], true).await;
    let r = d.step("stepContinue").await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(r.body.contains("<reachedWatchpoints><watchpoint id=\"2\" expired=\"false\" variableName=\"LV_TOTAL\"><currentValue>10 </currentValue><atom:link"), "{r:?}");
    let settings = r.body.find("<dbg:settings").unwrap();
    let watched = r.body.find("<reachedWatchpoints").unwrap();
    let actions = r.body.find("<dbg:actions").unwrap();
    assert!(settings < watched && watched < actions);
    let r = d.get("/sap/bc/adt/debugger/watchpoints/2").await;
    assert!(
        r.body
            .contains("<oldValue>0 </oldValue><currentValue>10 </currentValue>"),
        "{r:?}"
    );
    let r = d.delete("/sap/bc/adt/debugger/watchpoints/2").await;
    assert_eq!((r.status, r.body.as_str()), (200, ""));
    assert_eq!(
        d.delete("/sap/bc/adt/debugger/watchpoints/2").await.status,
        404
    );
    let r = d.step("stepContinue").await;
    assert_eq!(subtype(&r.body).as_deref(), Some("debuggeeEnded"));
    assert_eq!(finish(run).await.body.trim_end(), OUTPUT);
    l.stop_listener().await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_actions_settings_and_the_destructive_variables_resource() {
    let sim = sim().await;
    let base = sim.base_url();
    let (caught, run, l) = stop_with(&base, bps_body(&partial(), &line_bp("c", 44, ""))).await;
    let d = attached(&base, &caught).await;
    let r = d
        .get("/sap/bc/adt/debugger/memorysizes?includeAbap=true")
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.content_type(),
        Some("application/vnd.sap.adt.debugger.memory.sizes.v1+xml; charset=utf-8")
    );
    assert!(r.body.contains("<dbg:memorySizes xmlns:dbg=\"http://www.sap.com/adt/debugger\"><dbg:abap><dbg:staticVariables>"));
    assert!(
        r.body
            .contains("<dbg:numberOfInternalSessions>1</dbg:numberOfInternalSessions>")
    );
    let r = d
        .post("/sap/bc/adt/debugger/actions?action=memorySnapshot")
        .await;
    assert_eq!(r.status, 200);
    assert!(
        r.body.contains(
            "<dbg:action xmlns:dbg=\"http://www.sap.com/adt/debugger\" name=\"memorySnapshot\""
        ),
        "{r:?}"
    );
    assert!(r.body.contains("messageKind=\"info\""));
    let r = d
        .post_xml(
            "/sap/bc/adt/debugger?method=setDebuggerSettings",
            "application/xml",
            "<dbg:settings xmlns:dbg=\"http://www.sap.com/adt/debugger\" systemDebugging=\"false\" createExceptionObject=\"true\" backgroundRFC=\"false\" sharedObjectDebugging=\"false\" showDataAging=\"true\" updateDebugging=\"false\"/>".into(),
        )
        .await;
    assert_eq!(r.status, 200);
    assert!(r.body.contains("createExceptionObject=\"true\""));
    let ctx = d.cookie("sap-contextid").expect("context");
    // The destructive resource: 500, the session is gone, the program runs on.
    let r = d.get("/sap/bc/adt/debugger/variables/LV_RATE/data").await;
    assert_eq!(r.status, 500, "{r:?}");
    assert_eq!(finish(run).await.body.trim_end(), OUTPUT);
    let st = state(&sim);
    assert!(
        !st["contexts"]
            .as_array()
            .expect("contexts")
            .iter()
            .any(|c| c["id"] == ctx.as_str()),
        "{st}"
    );
    let r = d.stack().await;
    assert_eq!(r.status, 404);
    assert_eq!(subtype(&r.body).as_deref(), Some("noSessionAttached"));
    l.stop_listener().await;
    sim.shutdown().await;
}

fn batch_part(request: &str) -> String {
    format!(
        "--batch_5b1d\r\nContent-Type: application/http\r\ncontent-transfer-encoding: binary\r\n\r\n{request}\r\n"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_runs_parts_in_order_on_the_session() {
    let sim = sim().await;
    let base = sim.base_url();
    let (caught, run, l) = stop_with(&base, bps_body(&partial(), &line_bp("c", 44, ""))).await;
    let d = attached(&base, &caught).await;
    sim.clear_request_log();
    let root = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><asx:abap xmlns:asx=\"http://www.sap.com/abapxml\" version=\"1.0\"><asx:values><DATA><HIERARCHIES><STPDA_ADT_VARIABLE_HIERARCHY><PARENT_ID>@ROOT</PARENT_ID></STPDA_ADT_VARIABLE_HIERARCHY></HIERARCHIES></DATA></asx:values></asx:abap>";
    let body = [
        batch_part("POST /sap/bc/adt/debugger?method=stepOver HTTP/1.1\r\nAccept:application/xml\r\n"),
        batch_part("POST /sap/bc/adt/debugger?emode=_&semanticURIs=true&method=getStack HTTP/1.1\r\nAccept:application/xml\r\n"),
        batch_part(&format!("POST /sap/bc/adt/debugger?method=getChildVariables HTTP/1.1\r\nContent-Type:application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.debugger.ChildVariables\r\nAccept:application/vnd.sap.as+xml\r\n\r\n{root}")),
        batch_part("POST /sap/bc/adt/debugger/stack HTTP/1.1\r\nAccept:application/xml\r\n"),
        batch_part("this is not http"),
        "--batch_5b1d--\r\n".to_string(),
    ]
    .concat();
    let r = d
        .raw(
            reqwest::Method::POST,
            "/sap/bc/adt/debugger/batch",
            &[("accept", "multipart/mixed")],
            Some(("multipart/mixed; boundary=batch_5b1d", body)),
            true,
        )
        .await;
    assert_eq!(r.status, 202, "{r:?}");
    let ct = r.content_type().expect("content type").to_string();
    let boundary = ct
        .strip_prefix("multipart/mixed; boundary=")
        .expect("multipart answer");
    let parts: Vec<&str> = r
        .body
        .split(&format!("--{boundary}"))
        .filter(|p| p.contains("HTTP/1.1"))
        .collect();
    assert_eq!(parts.len(), 5, "{}", r.body);
    assert!(parts[0].contains("Content-Type: application/http\r\ncontent-transfer-encoding: binary\r\n\r\nHTTP/1.1 200 OK\r\n"), "{}", parts[0]);
    assert!(parts[0].contains("<dbg:step"));
    assert!(parts[1].contains("HTTP/1.1 200 OK"));
    assert_eq!(top_line(parts[1]), Some(45), "{}", parts[1]);
    assert!(parts[1].contains("debugCursorStackIndex=\"0\""));
    assert!(
        parts[2].contains("<CHILD_ID>@PARAMETERS</CHILD_ID>") || parts[2].contains("<HIERARCHIES>"),
        "{}",
        parts[2]
    );
    assert!(parts[3].contains("HTTP/1.1 405"), "{}", parts[3]);
    assert!(parts[3].contains("Resource controller does not support method POST"));
    assert!(parts[4].contains("HTTP/1.1 400"), "{}", parts[4]);
    // The log: four inner requests marked with their part, one round trip.
    let log = sim.request_log();
    let inner: Vec<_> = log.iter().filter(|e| e.batch_part.is_some()).collect();
    assert_eq!(inner.len(), 5, "{log:?}");
    assert_eq!(inner[0].path, "/sap/bc/adt/debugger?method=stepOver");
    assert_eq!(inner[0].batch_part, Some(0));
    assert_eq!(inner[3].status, 405);
    assert!(inner.iter().all(|e| e.session_type == "stateful"));
    let ctx = d.cookie("sap-contextid");
    assert!(inner.iter().all(|e| e.context == ctx));
    assert_eq!(log.iter().filter(|e| e.is_round_trip()).count(), 1);
    let outer = log.last().expect("outer");
    assert_eq!((outer.status, outer.batch_part), (202, None));
    // Garbage batches are answered.
    for (ct, body) in [
        ("multipart/mixed", "x".to_string()),
        ("text/plain", "--a\r\n".to_string()),
        ("multipart/mixed; boundary=zz", "no delimiter".to_string()),
    ] {
        let r = d
            .raw(
                reqwest::Method::POST,
                "/sap/bc/adt/debugger/batch",
                &[],
                Some((ct, body)),
                true,
            )
            .await;
        assert_eq!(r.status, 400, "{ct}");
    }
    let r = d.step("stepContinue").await;
    assert_eq!(r.status, 500);
    assert_eq!(finish(run).await.body.trim_end(), OUTPUT);
    l.stop_listener().await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expired_session_leaves_a_frozen_debuggee() {
    let sim = sim_with(sim::SimConfig {
        session_idle_timeout: Duration::from_millis(300),
        stopped_debuggee_expiry: Duration::from_secs(3),
        ..sim::SimConfig::default()
    })
    .await;
    let base = sim.base_url();
    let (caught, run, l) = stop_with(&base, bps_body(&partial(), &line_bp("c", 44, ""))).await;
    let d = attached(&base, &caught).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let st = state(&sim);
    assert_eq!(st["contexts"].as_array().map(Vec::len), Some(0), "{st}");
    assert_eq!(st["debuggees"][0]["phase"], "attached", "{st}");
    assert!(!run.is_finished());
    // The old cookie no longer reaches the debuggee.
    let r = d.stack().await;
    assert_eq!(r.status, 404);
    // The simulator's own expiry aborts the frozen program.
    let out = finish(run).await;
    assert_eq!(out.status, 500, "{out:?}");
    assert_eq!(state(&sim)["debuggees"].as_array().map(Vec::len), Some(0));
    l.stop_listener().await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn several_debuggees_each_caught_by_one_poll() {
    let sim = sim().await;
    let base = sim.base_url();
    let l = session(&base, false).await;
    post_bps(&l, bps_body(&partial(), &line_bp("c", 44, ""))).await;
    let listen = |base: String| {
        tokio::spawn(async move {
            let l = session(&base, false).await;
            l.listen(30).await
        })
    };
    let first_poll = listen(base.clone());
    wait_for_listener(&l, IDE).await;
    let runs: Vec<_> = (0..2)
        .map(|_| {
            let b = base.clone();
            tokio::spawn(async move { session(&b, false).await.classrun(DEMO).await })
        })
        .collect();
    let first = tokio::time::timeout(Duration::from_secs(60), first_poll)
        .await
        .expect("first poll")
        .expect("join");
    // Both are stopped; the second is reported to the next poll.
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..1500 {
        if state(&sim)["debuggees"]
            .as_array()
            .is_some_and(|d| d.iter().filter(|x| x["phase"] == "waiting").count() == 2)
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let second = listen(base.clone()).await.expect("join");
    let a = element(&first.body, "DEBUGGEE_ID").expect("first id");
    let b = element(&second.body, "DEBUGGEE_ID").expect("second id");
    assert_ne!(a, b);
    let da = attached(&base, &first).await;
    let db = attached(&base, &second).await;
    assert_ne!(da.cookie("sap-contextid"), db.cookie("sap-contextid"));
    for d in [&da, &db] {
        let r = d.step("stepContinue").await;
        assert_eq!(subtype(&r.body).as_deref(), Some("debuggeeEnded"));
    }
    for run in runs {
        assert_eq!(finish(run).await.body.trim_end(), OUTPUT);
    }
    l.stop_listener().await;
    sim.shutdown().await;
}

#[tokio::test]
async fn request_log_and_admin_api() {
    let sim = sim().await;
    let base = sim.base_url();
    let s = session(&base, true).await;
    s.get("/sap/bc/adt/compatibility/graph").await;
    let log = sim.request_log();
    assert_eq!(log.len(), 2);
    assert_eq!(log[0].session_type, "stateful");
    assert_eq!(log[1].method, "GET");
    assert_eq!(log[1].path, "/sap/bc/adt/compatibility/graph");
    assert!(log[1].context.is_some());
    // The admin API over HTTP (no auth, not logged).
    let http = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client");
    let r = http
        .get(format!("{base}/sim/requests"))
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 200);
    let v: serde_json::Value = serde_json::from_str(&r.text().await.expect("text")).expect("json");
    assert_eq!(v.as_array().map(Vec::len), Some(2));
    assert_eq!(v[1]["path"], "/sap/bc/adt/compatibility/graph");
    let r = http
        .delete(format!("{base}/sim/requests"))
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 204);
    assert!(sim.request_log().is_empty());
    let r = http
        .get(format!("{base}/sim/state"))
        .send()
        .await
        .expect("send");
    let v: serde_json::Value = serde_json::from_str(&r.text().await.expect("text")).expect("json");
    assert_eq!(v["contexts"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        http.get(format!("{base}/sim/nope"))
            .send()
            .await
            .expect("send")
            .status(),
        404
    );
    sim.shutdown().await;
}

fn fixtures() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/src")
}

#[tokio::test]
async fn sources_of_classes_includes_interfaces_and_programs() {
    let sim = sim_with(sim::SimConfig {
        program_dirs: vec![fixtures()],
        ..sim::SimConfig::default()
    })
    .await;
    let s = session(&sim.base_url(), false).await;
    for (path, file) in [
        (
            "/sap/bc/adt/oo/classes/zcl_sim_parts/source/main",
            "zcl_sim_parts.clas.abap",
        ),
        (
            "/sap/bc/adt/oo/classes/zcl_sim_parts/includes/testclasses",
            "zcl_sim_parts.clas.testclasses.abap",
        ),
        (
            "/sap/bc/adt/oo/classes/zcl_sim_parts/includes/implementations",
            "zcl_sim_parts.clas.locals_imp.abap",
        ),
        (
            "/sap/bc/adt/oo/classes/zcl_sim_parts/includes/definitions",
            "zcl_sim_parts.clas.locals_def.abap",
        ),
        (
            "/sap/bc/adt/oo/interfaces/zif_sim_sample/source/main",
            "zif_sim_sample.intf.abap",
        ),
        (
            "/sap/bc/adt/programs/programs/zsim_report/source/main",
            "zsim_report.prog.abap",
        ),
    ] {
        let r = s.get(path).await;
        assert_eq!(r.status, 200, "{path}: {r:?}");
        assert_eq!(r.content_type(), Some("text/plain; charset=utf-8"));
        let expected = std::fs::read_to_string(fixtures().join(file)).expect("fixture");
        assert_eq!(r.body, expected, "{path}");
    }
    let r = s
        .get("/sap/bc/adt/oo/classes/zcl_abapdbg_demo/includes/testclasses")
        .await;
    assert_eq!(r.status, 404);
    let r = s
        .get("/sap/bc/adt/programs/programs/znope/source/main")
        .await;
    assert_eq!(r.status, 404);
    sim.shutdown().await;
}

/// A long poll on a stateful session holds the session: the next request of that session
/// waits for it (§1.3); another session is not held up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_of_one_stateful_session_are_serialised() {
    let sim = sim().await;
    let base = sim.base_url();
    let s = std::sync::Arc::new(session(&base, true).await);
    let poller = s.clone();
    let poll = tokio::spawn(async move { poller.post(&listener_query(IDE, "&timeout=2")).await });
    let other = session(&base, false).await;
    wait_for_listener(&other, IDE).await;
    let started = std::time::Instant::now();
    let r = other.get("/sap/bc/adt/compatibility/graph").await;
    assert_eq!(r.status, 200);
    assert!(started.elapsed() < Duration::from_millis(1000));
    let r = s.get("/sap/bc/adt/compatibility/graph").await;
    assert_eq!(r.status, 200);
    assert!(
        started.elapsed() >= Duration::from_millis(1500),
        "the second request waited for the poll"
    );
    assert_eq!(poll.await.expect("join").status, 200);
    sim.shutdown().await;
}

#[tokio::test]
async fn abap_unit_trigger_reads_the_run_configuration() {
    let sim = sim().await;
    let s = session(&sim.base_url(), false).await;
    let config = |uri: &str| {
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><aunit:runConfiguration xmlns:aunit=\"http://www.sap.com/adt/aunit\"><external><coverage active=\"false\"/></external><options><uriType value=\"semantic\"/><testDeterminationStrategy sameProgram=\"true\" assignedTests=\"false\"/><testRiskLevels harmless=\"true\" dangerous=\"true\" critical=\"true\"/><testDurations short=\"true\" medium=\"true\" long=\"true\"/></options><adtcore:objectSets xmlns:adtcore=\"http://www.sap.com/adt/core\"><objectSet kind=\"inclusive\"><adtcore:objectReferences><adtcore:objectReference adtcore:uri=\"{uri}\"/></adtcore:objectReferences></objectSet></adtcore:objectSets></aunit:runConfiguration>"
        )
    };
    let ct = "application/vnd.sap.adt.abapunit.testruns.config.v4+xml";
    // A class without test classes: 200 with an empty runResult.
    let r = s
        .post_xml(
            "/sap/bc/adt/abapunit/testruns",
            ct,
            config("/sap/bc/adt/oo/classes/zcl_abapdbg_demo"),
        )
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(
        r.body
            .ends_with("<aunit:runResult xmlns:aunit=\"http://www.sap.com/adt/aunit\"/>")
    );
    let r = s
        .post_xml(
            "/sap/bc/adt/abapunit/testruns",
            ct,
            config("/sap/bc/adt/oo/classes/zcl_nope"),
        )
        .await;
    assert_eq!(r.status, 404);
    let r = s
        .post_xml("/sap/bc/adt/abapunit/testruns", ct, "<garbage".into())
        .await;
    assert_eq!(r.status, 400);
    sim.shutdown().await;
}

#[tokio::test]
async fn set_variable_value_and_other_calls_without_a_debuggee() {
    let sim = sim().await;
    let s = session(&sim.base_url(), true).await;
    let r = s.post("/sap/bc/adt/debugger?method=setVariableValue").await;
    assert_eq!(r.status, 400);
    assert!(
        r.body
            .contains("Parameter variableName could not be found.")
    );
    let r = s
        .post("/sap/bc/adt/debugger?method=setVariableValue&variableName=LV_X")
        .await;
    assert_eq!(r.status, 500);
    assert_eq!(subtype(&r.body).as_deref(), Some("noSessionAttached"));
    for path in [
        "/sap/bc/adt/debugger/memorysizes?includeAbap=true",
        "/sap/bc/adt/debugger/watchpoints",
    ] {
        let r = s.get(path).await;
        assert_eq!(r.status, 500, "{path}");
        assert_eq!(subtype(&r.body).as_deref(), Some("noSessionAttached"));
    }
    let r = s
        .post("/sap/bc/adt/debugger/actions?action=garbageCollector")
        .await;
    assert_eq!(r.status, 500);
    // Debugger-scope breakpoints need the attached session.
    let body =
        bps_body("", &line_bp("d", 35, "")).replace("scope=\"external\"", "scope=\"debugger\"");
    let r = post_bps(&s, body).await;
    assert_eq!(r.status, 500);
    let r = s.step("stepJumpToLine").await;
    assert_eq!(r.status, 400);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugger_scope_breakpoints_live_in_the_attached_session() {
    let sim = sim().await;
    let base = sim.base_url();
    let (caught, run, l) = stop_with(&base, bps_body(&partial(), &line_bp("c", 35, ""))).await;
    l.set_breakpoints(&[], true).await;
    let d = attached(&base, &caught).await;
    let body =
        bps_body("", &line_bp("dbg", 48, "")).replace("scope=\"external\"", "scope=\"debugger\"");
    let r = post_bps(&d, body).await;
    assert_eq!(r.status, 200, "{r:?}");
    let id = attribute(&r.body, "id").expect("id");
    let st = state(&sim);
    assert!(
        st["breakpoints"]
            .as_object()
            .is_some_and(|m| m.keys().any(|k| k.starts_with("debuggee:"))),
        "{st}"
    );
    let r = d.step("stepContinue").await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(
        r.body
            .contains(&format!("<dbg:breakpoint id=\"{id}\" kind=\"line\"")),
        "{r:?}"
    );
    assert_eq!(top_line(&d.stack().await.body), Some(48));
    let enc = percent_encoding::utf8_percent_encode(&id, percent_encoding::NON_ALPHANUMERIC);
    let r = d
        .delete(&format!("/sap/bc/adt/debugger/breakpoints/{enc}?scope=debugger&debuggingMode=user&requestUser=DEVELOPER&terminalId={TERMINAL}&ideId={IDE}"))
        .await;
    assert_eq!(r.status, 200);
    let r = d.step("stepContinue").await;
    assert_eq!(subtype(&r.body).as_deref(), Some("debuggeeEnded"), "{r:?}");
    assert_eq!(finish(run).await.body.trim_end(), OUTPUT);
    let st = state(&sim);
    assert_eq!(
        st["breakpoints"].as_object().map(|m| m.len()),
        Some(0),
        "{st}"
    );
    l.stop_listener().await;
    sim.shutdown().await;
}
