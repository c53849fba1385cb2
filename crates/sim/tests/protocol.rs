//! Wire behaviour that does not need a program to stop: auth, CSRF, sessions, listener,
//! error documents.

use crate::common;

use std::time::{Duration, Instant};

use common::*;

async fn sim() -> sim::SimHandle {
    sim::start(sim::SimConfig::default()).await.expect("start")
}

#[tokio::test]
async fn unauthenticated_requests_get_401() {
    let sim = sim().await;
    let s = Session::new(&sim.base_url(), false);
    let r = s
        .raw(
            reqwest::Method::GET,
            "/sap/bc/adt/discovery",
            &[],
            None,
            false,
        )
        .await;
    assert_eq!(r.status, 401);
    assert_eq!(
        r.header("www-authenticate"),
        Some("Basic realm=\"SAP NetWeaver Application Server [SIM/001]\"")
    );
    let wrong = Session::with_user(&sim.base_url(), false, "DEVELOPER", "nope");
    assert_eq!(wrong.get("/sap/bc/adt/discovery").await.status, 401);
    let lower = Session::with_user(&sim.base_url(), false, "developer", "abap");
    assert_eq!(
        lower
            .get("/sap/bc/adt/discovery?sap-client=001")
            .await
            .status,
        200
    );
    assert_eq!(
        lower
            .get("/sap/bc/adt/discovery?sap-client=002")
            .await
            .status,
        401
    );
    sim.shutdown().await;
}

#[tokio::test]
async fn csrf_fetch_and_required() {
    let sim = sim().await;
    let s = Session::new(&sim.base_url(), false);
    // Modifying request without a token.
    let r = s.post("/sap/bc/adt/debugger/breakpoints").await;
    assert_eq!(r.status, 403);
    assert_eq!(r.header("x-csrf-token"), Some("Required"));
    assert_eq!(r.content_type(), Some("text/plain"));
    assert_eq!(r.body, "CSRF token validation failed");
    for path in [
        "/sap/bc/adt/discovery",
        "/sap/bc/adt/compatibility/graph",
        "/sap/bc/adt/core/discovery",
    ] {
        let r = s
            .raw(
                reqwest::Method::GET,
                path,
                &[("x-csrf-token", "fetch")],
                None,
                true,
            )
            .await;
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.header("x-csrf-token").is_some_and(|t| t.len() >= 20),
            "{path}"
        );
    }
    let r = s.fetch_csrf().await;
    assert!(
        s.cookie("SAP_SESSIONID_SIM_001").is_some(),
        "{:?}",
        r.headers
    );
    // A POST with "fetch" is no token either.
    let r = s
        .raw(
            reqwest::Method::POST,
            "/sap/bc/adt/debugger/breakpoints",
            &[("x-csrf-token", "fetch")],
            None,
            true,
        )
        .await;
    assert_eq!(r.status, 403);
    // With the token: through (an empty breakpoint set).
    let r = s.set_breakpoints(&[], false).await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(
        r.body
            .contains("<dbg:breakpoints xmlns:dbg=\"http://www.sap.com/adt/debugger\"/>")
    );
    // The token belongs to the security session: another cookie jar cannot use it.
    let other = Session::new(&sim.base_url(), false);
    let token = s
        .fetch_csrf()
        .await
        .header("x-csrf-token")
        .unwrap()
        .to_string();
    let r = other
        .raw(
            reqwest::Method::POST,
            "/sap/bc/adt/debugger/breakpoints",
            &[("x-csrf-token", &token)],
            None,
            true,
        )
        .await;
    assert_eq!(r.status, 403);
    sim.shutdown().await;
}

#[tokio::test]
async fn listener_times_out_with_an_empty_200() {
    let sim = sim().await;
    let s = Session::new(&sim.base_url(), false);
    s.fetch_csrf().await;
    let t = Instant::now();
    let r = s.listen(1).await;
    assert!(t.elapsed() >= Duration::from_millis(900));
    assert_eq!(r.status, 200);
    assert_eq!(r.body, "");
    assert_eq!(r.content_type(), None);
    assert_eq!(r.header("content-length"), Some("0"));
    // The listener stays registered between polls: the check finds it.
    let check = s
        .get(&format!("/sap/bc/adt/debugger/listeners?debuggingMode=user&requestUser=DEVELOPER&terminalId={TERMINAL}&ideId={IDE}&checkConflict=false"))
        .await;
    assert_eq!(check.status, 200);
    let conflict = s
        .get("/sap/bc/adt/debugger/listeners?debuggingMode=user&requestUser=DEVELOPER&terminalId=OTHER&ideId=OTHER&checkConflict=true")
        .await;
    assert_eq!(conflict.status, 409);
    assert_eq!(subtype(&conflict.body).as_deref(), Some("conflictDetected"));
    assert_eq!(s.stop_listener().await.status, 200);
    let check = s
        .get(&format!("/sap/bc/adt/debugger/listeners?debuggingMode=user&requestUser=DEVELOPER&terminalId={TERMINAL}&ideId={IDE}&checkConflict=false"))
        .await;
    assert_eq!(check.status, 404);
    assert!(check.body.contains("Resource   does not exist."));
    sim.shutdown().await;
}

#[tokio::test]
async fn deleting_the_listener_ends_a_waiting_poll() {
    let sim = sim().await;
    let base = sim.base_url();
    let poll = tokio::spawn(async move {
        let s = Session::new(&base, false);
        s.fetch_csrf().await;
        s.listen(30).await
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let s = Session::new(&sim.base_url(), false);
    s.fetch_csrf().await;
    assert_eq!(s.stop_listener().await.status, 200);
    let r = tokio::time::timeout(Duration::from_secs(5), poll)
        .await
        .expect("poll ends")
        .expect("join");
    assert_eq!(r.status, 200);
    assert_eq!(r.body, "");
    sim.shutdown().await;
}

#[tokio::test]
async fn shutdown_ends_waiting_polls() {
    let sim = sim().await;
    let base = sim.base_url();
    let poll = tokio::spawn(async move {
        let s = Session::new(&base, false);
        s.fetch_csrf().await;
        s.listen(60).await
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    tokio::time::timeout(Duration::from_secs(6), sim.shutdown())
        .await
        .expect("shutdown in time");
    let r = tokio::time::timeout(Duration::from_secs(5), poll)
        .await
        .expect("poll ends")
        .expect("join");
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn calls_without_a_debuggee() {
    let sim = sim().await;
    let s = Session::new(&sim.base_url(), true);
    s.fetch_csrf().await;
    assert!(s.cookie("sap-contextid").is_some());
    let r = s.stack().await;
    assert_eq!(r.status, 404, "{r:?}");
    assert_eq!(subtype(&r.body).as_deref(), Some("noSessionAttached"));
    assert!(r.body.contains("<type id=\"AdtFailed\"/>"));
    let r = s.step("stepContinue").await;
    assert_eq!(r.status, 400, "{r:?}");
    assert_eq!(subtype(&r.body).as_deref(), Some("noSessionAttached"));
    assert!(r.body.contains("<type id=\"ExceptionInvalidData\"/>"));
    let r = s.step("detach").await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("Unknown method detach"), "{r:?}");
    assert!(r.body.contains(
        "<entry key=\"T100KEY-ID\">TPDA_ADT</entry><entry key=\"T100KEY-NO\">001</entry>"
    ));
    let r = s.attach("00000000000000000000000000000000").await;
    assert_eq!(r.status, 500);
    assert_eq!(subtype(&r.body).as_deref(), Some("invalidDebuggee"));
    let r = s.children(&["@ROOT"]).await;
    assert_eq!(r.status, 500);
    let r = s.classrun("ZCL_DOES_NOT_EXIST").await;
    assert_eq!(r.status, 404);
    assert!(r.body.contains("ExceptionResourceNotFound"));
    let r = s.get("/sap/bc/adt/nothing/here").await;
    assert_eq!(r.status, 404);
    let r = s.get("/sap/bc/adt/debugger/breakpoints").await;
    assert_eq!((r.status, r.body.as_str()), (200, ""));
    // Malformed bodies are answered, not crashed on.
    let r = s
        .post_xml(
            "/sap/bc/adt/debugger/breakpoints",
            "application/xml",
            "<dbg:breakpoints".into(),
        )
        .await;
    assert_eq!(r.status, 400);
    let r = s
        .delete("/sap/bc/adt/debugger/breakpoints/X?scope=external&debuggingMode=user&requestUser=DEVELOPER")
        .await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("ExceptionParameterNotFound"));
    // A stateless request with the context cookie ends the context.
    let ctx = s.cookie("sap-contextid").unwrap();
    let stateless = s
        .raw(
            reqwest::Method::GET,
            "/sap/bc/adt/compatibility/graph",
            &[("X-sap-adt-sessiontype", "stateless")],
            None,
            true,
        )
        .await;
    assert_eq!(stateless.status, 200);
    let log = sim.request_log();
    assert!(
        log.iter()
            .any(|l| l.context.as_deref() == Some(ctx.as_str()))
    );
    sim.shutdown().await;
}

/// Garbage in bodies, queries, cookies and headers gets an answer, never a dead server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_is_answered() {
    let sim = sim().await;
    let s = Session::new(&sim.base_url(), true);
    s.fetch_csrf().await;
    let bodies = [
        String::new(),
        "<".into(),
        "<a><b></a>".into(),
        "<asx:abap><DATA><PARENT_ID>&#xFFFFFF;</PARENT_ID></DATA></asx:abap>".into(),
        "<dbg:breakpoints><breakpoint kind=\"line\" adtcore:uri=\"/sap/bc/adt/oo/classes/zcl_abapdbg_demo/source/main#start=99999999999\"/></dbg:breakpoints>".into(),
        "<dbg:breakpoints><syncScope mode=\"bogus\"/></dbg:breakpoints>".into(),
        "\u{0}\u{1}\u{ffff}".into(),
        "<a>".repeat(10_000),
    ];
    let paths = [
        "/sap/bc/adt/debugger/breakpoints",
        "/sap/bc/adt/debugger?method=getChildVariables",
        "/sap/bc/adt/debugger?method=getVariables",
        "/sap/bc/adt/debugger?method=setDebuggerSettings",
        "/sap/bc/adt/debugger?method=%FF%FE",
        "/sap/bc/adt/debugger?method=attach&debuggeeId=%00",
        "/sap/bc/adt/debugger/listeners?timeout=0&requestUser=%ZZ",
        "/sap/bc/adt/oo/classrun/%FF",
    ];
    for path in paths {
        for body in &bodies {
            let r = s.post_xml(path, "application/xml", body.clone()).await;
            assert!(r.status < 600, "{path}");
        }
    }
    for cookie in [
        "=",
        ";;;",
        "sap-contextid",
        "SAP_SESSIONID_SIM_001=%%%",
        "a=b=c",
    ] {
        let r = s
            .raw(
                reqwest::Method::GET,
                "/sap/bc/adt/discovery",
                &[("cookie", cookie)],
                None,
                true,
            )
            .await;
        assert_eq!(r.status, 200, "{cookie}");
    }
    for auth in [
        "Basic",
        "Basic ====",
        "Basic ZGV2ZWxvcGVy",
        "basic ZGV2ZWxvcGVyOmFiYXA=",
    ] {
        let r = s
            .raw(
                reqwest::Method::GET,
                "/sap/bc/adt/discovery",
                &[("authorization", auth)],
                None,
                false,
            )
            .await;
        assert!(r.status == 401 || r.status == 200, "{auth}");
    }
    let r = s
        .raw(
            reqwest::Method::PUT,
            "/sap/bc/adt/debugger/stack/type/ABAP/position/99999999999999999999",
            &[],
            None,
            true,
        )
        .await;
    assert!(r.status >= 400);
    // Still serving.
    assert_eq!(s.get("/sap/bc/adt/discovery").await.status, 200);
    sim.shutdown().await;
}
