//! One test per error of adt-wire.md §13.2 that the simulator produces: HTTP status, `type`,
//! subType and T100 key (the keys clients switch on, §13.1). The mapping to the catalogue rows
//! is listed in SIMULATOR.md ("Errors of §13.2").

use crate::common;

use std::time::Duration;

use common::*;

const DEMO: &str = "ZCL_ABAPDBG_DEMO";
const DEMO_URI: &str = "/sap/bc/adt/oo/classes/zcl_abapdbg_demo/source/main";
const DEBUGGER: &str = "/sap/bc/adt/debugger";

/// What a client switches on.
#[derive(Debug, PartialEq, Eq)]
struct Key {
    status: u16,
    type_id: Option<String>,
    sub_type: Option<String>,
    t100: Option<(String, String)>,
}

fn entry(body: &str, key: &str) -> Option<String> {
    let open = format!("<entry key=\"{key}\">");
    let start = body.find(&open)? + open.len();
    let end = body[start..].find('<')? + start;
    Some(body[start..end].to_string())
}

fn key(r: &Resp) -> Key {
    let type_id = r.body.find("<type id=\"").and_then(|at| {
        let rest = &r.body[at + 10..];
        rest.find('"').map(|end| rest[..end].to_string())
    });
    let t100 = match (entry(&r.body, "T100KEY-ID"), entry(&r.body, "T100KEY-NO")) {
        (Some(id), Some(no)) => Some((id, no)),
        _ => None,
    };
    Key {
        status: r.status,
        type_id,
        sub_type: subtype(&r.body),
        t100,
    }
}

fn expect(status: u16, type_id: &str, sub: Option<&str>, t100: Option<(&str, &str)>) -> Key {
    Key {
        status,
        type_id: Some(type_id.to_string()),
        sub_type: sub.map(str::to_string),
        t100: t100.map(|(a, b)| (a.to_string(), b.to_string())),
    }
}

fn assert_error(r: &Resp, want: Key) {
    assert_eq!(key(r), want, "{r:?}");
    assert_eq!(r.content_type(), Some("application/xml"), "{r:?}");
}

async fn sim() -> sim::SimHandle {
    sim::start(sim::SimConfig::default()).await.expect("start")
}

fn listener_query(ide: &str, extra: &str) -> String {
    format!(
        "{DEBUGGER}/listeners?debuggingMode=user&requestUser=DEVELOPER&terminalId={TERMINAL}&ideId={ide}{extra}"
    )
}

async fn put_faults(base: &str, body: &str) {
    let r = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client")
        .put(format!("{base}/sim/faults"))
        .body(body.to_string())
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 200);
}

/// The demo class stopped at line 31 and attached by a stateful session.
async fn attached(base: &str) -> (Session, tokio::task::JoinHandle<Resp>) {
    let l = session(base, false).await;
    let r = l.set_breakpoints(&[("bp", 31)], false).await;
    assert_eq!(r.status, 200, "{r:?}");
    let lbase = base.to_string();
    let listen = tokio::spawn(async move { session(&lbase, false).await.listen(30).await });
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..1500 {
        if l.get(&listener_query(IDE, "&checkConflict=false"))
            .await
            .status
            == 200
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let tbase = base.to_string();
    let run = tokio::spawn(async move { session(&tbase, false).await.classrun(DEMO).await });
    let hit = tokio::time::timeout(Duration::from_secs(60), listen)
        .await
        .expect("hit")
        .expect("join");
    let id = element(&hit.body, "DEBUGGEE_ID").expect("debuggee");
    let d = session(base, true).await;
    let r = d.attach(&id).await;
    assert_eq!(r.status, 200, "{r:?}");
    (d, run)
}

async fn end(d: &Session, run: tokio::task::JoinHandle<Resp>) {
    let _ = d.step("terminateDebuggee").await;
    let _ = tokio::time::timeout(Duration::from_secs(20), run).await;
}

#[tokio::test]
async fn e01_csrf_missing_is_403_text_plain_required() {
    let sim = sim().await;
    let s = Session::new(&sim.base_url(), false);
    let r = s.post(&listener_query(IDE, "&timeout=0")).await;
    assert_eq!(r.status, 403);
    assert_eq!(r.content_type(), Some("text/plain"));
    assert_eq!(r.header("x-csrf-token"), Some("Required"));
    assert_eq!(r.body, "CSRF token validation failed");
}

/// One HTTP/1.1 request on its own connection: the status line, the `Set-Cookie` values and
/// the body (the status text is what §13.2 row 2 is about, and no client library shows it).
async fn raw_request(base: &str, path: &str, headers: &str) -> (String, Vec<String>, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = base.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = tokio::net::TcpStream::connect(host).await.expect("connect");
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n{headers}Connection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut raw = String::new();
    stream.read_to_string(&mut raw).await.expect("read");
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((raw.as_str(), ""));
    let status = head.lines().next().unwrap_or_default().to_string();
    let cookies = head
        .lines()
        .filter_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .map(|c| c.split(';').next().unwrap_or_default().to_string())
        .collect();
    (status, cookies, body.to_string())
}

#[tokio::test]
async fn e02_expired_security_session_is_400_session_timed_out() {
    let sim = sim::start(sim::SimConfig {
        security_session_timeout: Duration::from_millis(300),
        ..sim::SimConfig::default()
    })
    .await
    .expect("start");
    let base = sim.base_url();
    let basic = "Authorization: Basic REVWRUxPUEVSOmFiYXA=\r\n";
    let path = "/sap/bc/adt/compatibility/graph";
    let (status, cookies, _) =
        raw_request(&base, path, &format!("{basic}x-csrf-token: fetch\r\n")).await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    let session = cookies
        .iter()
        .find(|c| c.starts_with("SAP_SESSIONID_"))
        .expect("a security-session cookie")
        .clone();
    let with_cookie = format!("Cookie: {session}\r\n");
    // In use, the session lives on.
    let (status, _, _) = raw_request(&base, path, &with_cookie).await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (status, _, body) = raw_request(&base, path, &with_cookie).await;
    assert_eq!(status, "HTTP/1.1 400 Session timed out");
    assert_eq!(body, "Session timed out");
    // Credentials open a new session; the old cookie means nothing any more.
    let (status, cookies, _) = raw_request(
        &base,
        path,
        &format!("{basic}{with_cookie}x-csrf-token: fetch\r\n"),
    )
    .await;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    assert!(
        cookies
            .iter()
            .any(|c| c.starts_with("SAP_SESSIONID_") && *c != session),
        "{cookies:?}"
    );
}

#[tokio::test]
async fn e04_unknown_resource_is_404_resource_not_found() {
    let sim = sim().await;
    let s = session(&sim.base_url(), false).await;
    let r = s.get("/sap/bc/adt/debugger/nothing_here").await;
    assert_error(&r, expect(404, "ExceptionResourceNotFound", None, None));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e05_listener_conflict_detected_is_409() {
    let sim = sim().await;
    let base = sim.base_url();
    put_faults(&base, r#"{"foreignListeners":["DEVELOPER"]}"#).await;
    let s = session(&base, false).await;
    for r in [
        s.get(&listener_query(IDE, "&checkConflict=true")).await,
        s.post(&listener_query(IDE, "&checkConflict=true&timeout=1"))
            .await,
    ] {
        assert_error(
            &r,
            expect(
                409,
                "AdiFailed",
                Some("conflictDetected"),
                Some(("SY", "530")),
            ),
        );
        assert!(entry(&r.body, "conflictText").is_some());
        assert_eq!(entry(&r.body, "ideUser").as_deref(), Some("DEVELOPER"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e06_listener_displaced_is_409_conflict_notification() {
    let sim = sim().await;
    let base = sim.base_url();
    let s = session(&base, false).await;
    let pbase = base.clone();
    let poll = tokio::spawn(async move {
        session(&pbase, false)
            .await
            .post(&listener_query(
                IDE,
                "&timeout=30&isNotifiedOnConflict=true",
            ))
            .await
    });
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..1500 {
        if s.get(&listener_query(IDE, "&checkConflict=false"))
            .await
            .status
            == 200
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    put_faults(&base, r#"{"foreignListeners":["DEVELOPER"]}"#).await;
    let r = tokio::time::timeout(Duration::from_secs(5), poll)
        .await
        .expect("ends")
        .expect("join");
    assert_error(
        &r,
        expect(
            409,
            "AdiFailed",
            Some("conflictNotification"),
            Some(("SY", "530")),
        ),
    );
}

#[tokio::test]
async fn e07_listener_check_without_listener_is_404() {
    let sim = sim().await;
    let s = session(&sim.base_url(), false).await;
    let r = s.get(&listener_query(IDE, "&checkConflict=false")).await;
    assert_error(&r, expect(404, "ExceptionResourceNotFound", None, None));
    assert!(r.body.contains("Resource   does not exist."));
}

#[tokio::test]
async fn e08_attach_to_a_gone_debuggee_is_500_invalid_debuggee() {
    let sim = sim().await;
    let d = session(&sim.base_url(), true).await;
    let r = d.attach("NO_SUCH_DEBUGGEE").await;
    assert_error(
        &r,
        expect(
            500,
            "AdiFailed",
            Some("invalidDebuggee"),
            Some(("SY", "530")),
        ),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e09_second_attach_on_a_session_is_500_invalid_debuggee() {
    let sim = sim().await;
    let (d, run) = attached(&sim.base_url()).await;
    let r = d.attach("ANOTHER").await;
    assert_error(
        &r,
        expect(
            500,
            "AdiFailed",
            Some("invalidDebuggee"),
            Some(("SY", "530")),
        ),
    );
    assert!(r.body.contains("Debuggee already attached"), "{r:?}");
    end(&d, run).await;
}

#[tokio::test]
async fn e10_e11_breakpoint_refusals_are_in_band_200() {
    let sim = sim().await;
    let s = session(&sim.base_url(), false).await;
    let inner = format!(
        "<breakpoint xmlns:adtcore=\"http://www.sap.com/adt/core\" kind=\"line\" clientId=\"c1\" adtcore:uri=\"{DEMO_URI}#start=1\"/><breakpoint kind=\"badi\" clientId=\"c2\"/>"
    );
    let r = s
        .post_xml(
            &format!("{DEBUGGER}/breakpoints"),
            "application/xml",
            breakpoints_body(&inner),
        )
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(
        r.body
            .contains("errorMessage=\"Cannot create a breakpoint at this position\""),
        "{r:?}"
    );
    assert!(
        r.body
            .contains("errorMessage=\"Invalid breakpoint kind  badi\""),
        "{r:?}"
    );
    assert!(!r.body.contains(" id=\""), "{r:?}");
}

#[tokio::test]
async fn e12_message_breakpoint_without_msgty_is_400_with_xml_path() {
    let sim = sim().await;
    let s = session(&sim.base_url(), false).await;
    let inner = "<breakpoint kind=\"message\" clientId=\"m\" msgId=\"00\" msgNo=\"001\"/>";
    let r = s
        .post_xml(
            &format!("{DEBUGGER}/breakpoints"),
            "application/xml",
            breakpoints_body(inner),
        )
        .await;
    assert_error(&r, expect(400, "ExceptionInvalidData", None, None));
    assert!(r.body.contains("Attribute 'msgTy' expected"), "{r:?}");
    assert!(entry(&r.body, "XML_PATH").is_some(), "{r:?}");
}

#[tokio::test]
async fn e13_delete_breakpoint_without_ids_is_400_parameter_not_found() {
    let sim = sim().await;
    let s = session(&sim.base_url(), false).await;
    let r = s
        .delete(&format!(
            "{DEBUGGER}/breakpoints/KIND%3D0?scope=external&debuggingMode=user&requestUser=DEVELOPER"
        ))
        .await;
    assert_error(
        &r,
        expect(
            400,
            "ExceptionParameterNotFound",
            None,
            Some(("SADT_RESOURCE", "017")),
        ),
    );
}

#[tokio::test]
async fn e14_run_to_line_without_uri_is_400_parameter_not_found() {
    let sim = sim().await;
    let d = session(&sim.base_url(), true).await;
    let r = d.step("stepRunToLine").await;
    assert_error(
        &r,
        expect(
            400,
            "ExceptionParameterNotFound",
            None,
            Some(("SADT_RESOURCE", "017")),
        ),
    );
    assert_eq!(entry(&r.body, "T100KEY-V1").as_deref(), Some("uri"));
    assert!(r.body.contains("Parameter uri could not be found."));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e15_jump_to_an_impossible_line_is_step_not_possible() {
    let sim = sim().await;
    let (d, run) = attached(&sim.base_url()).await;
    let target = "/sap/bc/adt/oo/classes/zcl_nope/source/main#start=3";
    let enc = percent_encoding::utf8_percent_encode(target, percent_encoding::NON_ALPHANUMERIC);
    let r = d.step(&format!("stepJumpToLine&uri={enc}")).await;
    assert_error(
        &r,
        expect(
            500,
            "AdiFailed",
            Some("stepNotPossible"),
            Some(("SY", "530")),
        ),
    );
    end(&d, run).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e16_program_end_during_a_step_is_500_debuggee_ended() {
    let sim = sim().await;
    let (d, run) = attached(&sim.base_url()).await;
    let r = d.step("stepContinue").await;
    assert_error(
        &r,
        expect(
            500,
            "AdiFailed",
            Some("debuggeeEnded"),
            Some(("TPDA_ADT", "030")),
        ),
    );
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("classrun ends")
        .expect("join");
    assert_eq!(out.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e18_e19_terminate_is_500_and_later_steps_say_session_stopped() {
    let sim = sim().await;
    let (d, run) = attached(&sim.base_url()).await;
    let r = d.step("terminateDebuggee").await;
    assert_error(
        &r,
        expect(
            500,
            "AdiFailed",
            Some("terminateDebuggee"),
            Some(("SY", "530")),
        ),
    );
    assert_eq!(
        entry(&r.body, "previous1ExceptionClassName").as_deref(),
        Some("CX_TPDAPI_FAILURE")
    );
    assert_eq!(
        entry(&r.body, "previous2ExceptionClassName").as_deref(),
        Some("CX_TPDA_SYS_COMM_DBGSESSIONEND")
    );
    let r = d.step("stepOver").await;
    let want = Key {
        status: 500,
        type_id: Some("AdiFailed".into()),
        sub_type: None,
        t100: Some(("TPDAPI".into(), "021".into())),
    };
    assert_error(&r, want);
    assert_eq!(
        entry(&r.body, "previous1ExceptionClassName").as_deref(),
        Some("CX_TPDAPI_DEBUGGEE_ENDED")
    );
    let _ = tokio::time::timeout(Duration::from_secs(20), run).await;
}

#[tokio::test]
async fn e20_get_stack_without_debuggee_is_404_adt_failed() {
    let sim = sim().await;
    let d = session(&sim.base_url(), true).await;
    let r = d.stack().await;
    assert_error(
        &r,
        expect(
            404,
            "AdtFailed",
            Some("noSessionAttached"),
            Some(("SY", "530")),
        ),
    );
}

#[tokio::test]
async fn e21_get_variables_without_debuggee_is_500_adi_failed() {
    let sim = sim().await;
    let d = session(&sim.base_url(), true).await;
    let r = d.variables(&["SY-SUBRC"]).await;
    assert_error(
        &r,
        expect(
            500,
            "AdiFailed",
            Some("noSessionAttached"),
            Some(("SY", "530")),
        ),
    );
}

#[tokio::test]
async fn e22_step_continue_without_debuggee_is_400_invalid_data() {
    let sim = sim().await;
    let d = session(&sim.base_url(), true).await;
    let r = d.step("stepContinue").await;
    assert_error(
        &r,
        expect(
            400,
            "ExceptionInvalidData",
            Some("noSessionAttached"),
            Some(("SADT_REST", "006")),
        ),
    );
}

#[tokio::test]
async fn e23_unknown_method_is_400_tpda_adt_001() {
    let sim = sim().await;
    let d = session(&sim.base_url(), true).await;
    let r = d.post(&format!("{DEBUGGER}?method=detach")).await;
    assert_error(
        &r,
        expect(400, "ExceptionInvalidData", None, Some(("TPDA_ADT", "001"))),
    );
    assert!(r.body.contains("Unknown method detach"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e24_e25_watchpoint_errors() {
    let sim = sim().await;
    let (d, run) = attached(&sim.base_url()).await;
    let r = d.get(&format!("{DEBUGGER}/watchpoints/4711")).await;
    assert_error(
        &r,
        expect(404, "AdtFailed", None, Some(("TPDA_ADT", "013"))),
    );
    let r = d.post(&format!("{DEBUGGER}/watchpoints")).await;
    assert_error(
        &r,
        expect(
            400,
            "ExceptionParameterNotFound",
            None,
            Some(("SADT_RESOURCE", "017")),
        ),
    );
    end(&d, run).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e26_variables_data_resource_is_500_and_loses_the_session() {
    let sim = sim().await;
    let (d, run) = attached(&sim.base_url()).await;
    let r = d.get(&format!("{DEBUGGER}/variables/LV_COUNT/data")).await;
    assert_eq!(r.status, 500, "{r:?}");
    assert!(r.body.contains("<exc:exception"));
    // The session is gone: the stack of that session finds no debuggee.
    let r = d.stack().await;
    assert_eq!(
        subtype(&r.body).as_deref(),
        Some("noSessionAttached"),
        "{r:?}"
    );
    // The released debuggee runs to its end.
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("classrun ends")
        .expect("join");
    assert_eq!(out.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e03_wrong_concrete_accept_is_406_not_acceptable() {
    let sim = sim().await;
    let base = sim.base_url();
    let s = session(&base, true).await;
    let get = |path: &'static str, accept: &'static str| {
        let s = &s;
        async move {
            s.raw(
                reqwest::Method::GET,
                path,
                &[("accept", accept)],
                None,
                true,
            )
            .await
        }
    };
    let stack = "/sap/bc/adt/debugger/stack?method=getStack&emode=_&semanticURIs=true";
    let r = get(stack, "application/json").await;
    assert_error(
        &r,
        expect(406, "ExceptionResourceNotAcceptable", None, None),
    );
    assert!(r.body.contains("application/xml"), "{r:?}");
    // Wildcards and the documented type pass (here to the usual noSessionAttached).
    for accept in [
        "*/*",
        "application/*",
        "application/xml",
        "text/html, application/xml;q=0.5",
    ] {
        assert_eq!(get(stack, accept).await.status, 404, "{accept}");
    }
    let r = get(
        "/sap/bc/adt/debugger/memorysizes?includeAbap=true",
        "application/xml",
    )
    .await;
    assert_eq!(r.status, 406, "{r:?}");
    // asx resources want the asx type (parameters are not compared).
    let r = s
        .raw(
            reqwest::Method::POST,
            "/sap/bc/adt/debugger?method=getVariables",
            &[("accept", "application/xml")],
            None,
            true,
        )
        .await;
    assert_eq!(r.status, 406, "{r:?}");
    let r = s
        .raw(
            reqwest::Method::POST,
            "/sap/bc/adt/debugger?method=getVariables",
            &[(
                "accept",
                "application/vnd.sap.as+xml; charset=UTF-8; dataname=com.sap.adt.debugger.Variables",
            )],
            None,
            true,
        )
        .await;
    assert_ne!(r.status, 406, "{r:?}");
    // Resources without a documented type are not checked.
    let r = get("/sap/bc/adt/compatibility/graph", "application/json").await;
    assert_eq!(r.status, 200, "{r:?}");
}
