//! Fault injection over HTTP: `PUT/GET/DELETE /sim/faults` and each fault's effect on ADT
//! requests (latency, dropped connections, 5xx, ICM pages, CSRF rotation, session expiry, a
//! listener conflict from another IDE). Admin requests are never affected.

use crate::common;

use std::time::{Duration, Instant};

use common::*;

const GRAPH: &str = "/sap/bc/adt/compatibility/graph";
const LISTENERS: &str = "/sap/bc/adt/debugger/listeners";

async fn sim_with(faults: sim::Faults) -> sim::SimHandle {
    sim::start(sim::SimConfig {
        faults,
        ..sim::SimConfig::default()
    })
    .await
    .expect("start")
}

fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(30))
        .pool_max_idle_per_host(0)
        .build()
        .expect("client")
}

async fn admin(method: reqwest::Method, base: &str, body: Option<&str>) -> (u16, String) {
    let mut rb = http().request(method, format!("{base}/sim/faults"));
    if let Some(b) = body {
        rb = rb
            .header("content-type", "application/json")
            .body(b.to_string());
    }
    let r = rb.send().await.expect("send");
    let status = r.status().as_u16();
    (status, r.text().await.expect("text"))
}

async fn put_faults(base: &str, body: &str) -> serde_json::Value {
    let (status, text) = admin(reqwest::Method::PUT, base, Some(body)).await;
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).expect("json")
}

fn listener_query(ide: &str, extra: &str) -> String {
    format!(
        "{LISTENERS}?debuggingMode=user&requestUser=DEVELOPER&terminalId={TERMINAL}&ideId={ide}{extra}"
    )
}

fn state(sim: &sim::SimHandle) -> serde_json::Value {
    serde_json::from_str(&sim.state_json()).expect("state json")
}

#[tokio::test]
async fn admin_api_sets_reads_and_clears_faults() {
    let sim = sim_with(sim::Faults::default()).await;
    let base = sim.base_url();
    let (status, text) = admin(reqwest::Method::GET, &base, None).await;
    assert_eq!(status, 200);
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    for key in [
        "latencyMs",
        "dropEvery",
        "errorEvery",
        "icmEvery",
        "csrfRotateEvery",
        "sessionExpiryEvery",
    ] {
        assert_eq!(v[key], 0, "{key} in {v}");
    }
    assert_eq!(v["errorStatus"], 500);
    // Refused bodies change nothing.
    for bad in [
        "{\"nope\":1}",
        "{\"errorEvery\":-1}",
        "{\"errorStatus\":404}",
        "[]",
        "not json",
        "{\"foreignListeners\":[1]}",
    ] {
        let (status, text) = admin(reqwest::Method::PUT, &base, Some(bad)).await;
        assert_eq!(status, 400, "{bad}: {text}");
        assert!(text.contains("error"), "{text}");
    }
    let v = put_faults(&base, r#"{"errorEvery":1,"errorStatus":503}"#).await;
    assert_eq!(
        (v["errorEvery"].as_u64(), v["errorStatus"].as_u64()),
        (Some(1), Some(503))
    );
    assert_eq!(v["requests"], 0);
    // Admin requests are never hit, ADT requests always (errorEvery 1).
    for _ in 0..3 {
        let r = http()
            .get(format!("{base}/sim/state"))
            .send()
            .await
            .expect("send");
        assert_eq!(r.status(), 200);
    }
    let s = Session::new(&base, false);
    assert_eq!(s.get(GRAPH).await.status, 503);
    let (_, text) = admin(reqwest::Method::GET, &base, None).await;
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(v["requests"], 1);
    let (status, _) = admin(reqwest::Method::DELETE, &base, None).await;
    assert_eq!(status, 204);
    assert_eq!(s.get(GRAPH).await.status, 200);
    sim.shutdown().await;
}

#[tokio::test]
async fn latency_is_added_to_every_adt_request() {
    let sim = sim_with(sim::Faults {
        latency: Duration::from_millis(250),
        ..sim::Faults::default()
    })
    .await;
    let base = sim.base_url();
    let s = Session::new(&base, false);
    let started = Instant::now();
    assert_eq!(s.get(GRAPH).await.status, 200);
    assert!(started.elapsed() >= Duration::from_millis(250));
    let log = sim.request_log();
    assert!(log[0].duration >= Duration::from_millis(250), "{log:?}");
    // The admin API is not slowed down.
    put_faults(&base, r#"{"latencyMs":2000}"#).await;
    let started = Instant::now();
    let r = http()
        .get(format!("{base}/sim/state"))
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 200);
    assert!(started.elapsed() < Duration::from_millis(1500));
    put_faults(&base, r#"{"latencyMs":0}"#).await;
    let started = Instant::now();
    assert_eq!(s.get(GRAPH).await.status, 200);
    assert!(started.elapsed() < Duration::from_millis(1500));
    sim.shutdown().await;
}

#[tokio::test]
async fn every_nth_connection_is_dropped_without_an_answer() {
    let sim = sim_with(sim::Faults::default()).await;
    let base = sim.base_url();
    put_faults(&base, r#"{"dropEvery":2}"#).await;
    let client = http();
    let auth = "Basic REVWRUxPUEVSOmFiYXA="; // DEVELOPER:abap
    let mut outcomes = Vec::new();
    for _ in 0..4 {
        let r = client
            .get(format!("{base}{GRAPH}"))
            .header("authorization", auth)
            .send()
            .await;
        outcomes.push(match r {
            Ok(r) => Some(r.status().as_u16()),
            Err(_) => None,
        });
    }
    assert_eq!(outcomes, vec![Some(200), None, Some(200), None]);
    let statuses: Vec<u16> = sim.request_log().iter().map(|l| l.status).collect();
    assert_eq!(statuses, vec![200, 0, 200, 0]);
    // The simulator keeps serving.
    put_faults(&base, "{}").await;
    assert_eq!(Session::new(&base, false).get(GRAPH).await.status, 200);
    sim.shutdown().await;
}

#[tokio::test]
async fn every_nth_request_gets_a_server_error() {
    let sim = sim_with(sim::Faults {
        error_every: 3,
        ..sim::Faults::default()
    })
    .await;
    let base = sim.base_url();
    let s = Session::new(&base, false);
    let mut statuses = Vec::new();
    let mut failure = None;
    for _ in 0..6 {
        let r = s.get(GRAPH).await;
        statuses.push(r.status);
        if r.status == 500 {
            failure = Some(r);
        }
    }
    assert_eq!(statuses, vec![200, 200, 500, 200, 200, 500]);
    let r = failure.expect("a failure");
    assert_eq!(r.content_type(), Some("application/xml"));
    assert!(r.body.contains("<type id=\"AdiFailed\"/>"), "{r:?}");
    assert!(r.body.contains("<exc:exception"), "{r:?}");
    sim.shutdown().await;
}

#[tokio::test]
async fn every_nth_request_gets_the_icm_page() {
    let sim = sim_with(sim::Faults::default()).await;
    let base = sim.base_url();
    put_faults(&base, r#"{"icmEvery":2,"errorEvery":2}"#).await;
    let s = Session::new(&base, false);
    assert_eq!(s.get(GRAPH).await.status, 200);
    let r = s.get(GRAPH).await;
    assert_eq!(r.status, 400, "{r:?}");
    assert!(r.content_type().unwrap_or("").starts_with("text/html"));
    assert!(r.body.contains("Service cannot be reached"), "{r:?}");
    assert!(!r.body.contains("exc:exception"));
    sim.shutdown().await;
}

#[tokio::test]
async fn csrf_rotation_invalidates_the_token() {
    let sim = sim_with(sim::Faults::default()).await;
    let base = sim.base_url();
    let s = Session::new(&base, false);
    let old = s
        .fetch_csrf()
        .await
        .header("x-csrf-token")
        .map(str::to_string);
    let poll = listener_query(IDE, "&timeout=0");
    assert_eq!(s.post(&poll).await.status, 200);
    put_faults(&base, r#"{"rotateCsrfNow":true}"#).await;
    let r = s.post(&poll).await;
    assert_eq!(r.status, 403, "{r:?}");
    assert_eq!(r.header("x-csrf-token"), Some("Required"));
    assert_eq!(r.body, "CSRF token validation failed");
    // A fresh fetch gives a new token that works.
    let new = s
        .fetch_csrf()
        .await
        .header("x-csrf-token")
        .map(str::to_string);
    assert_ne!(old, new);
    assert_eq!(s.post(&poll).await.status, 200);
    // Periodic rotation: every 3rd request rotates before it is processed.
    put_faults(&base, r#"{"csrfRotateEvery":3}"#).await;
    assert_eq!(s.post(&poll).await.status, 200);
    assert_eq!(s.post(&poll).await.status, 200);
    assert_eq!(s.post(&poll).await.status, 403);
    s.fetch_csrf().await;
    assert_eq!(s.post(&poll).await.status, 200);
    sim.shutdown().await;
}

#[tokio::test]
async fn stateful_sessions_expire_on_demand() {
    let sim = sim_with(sim::Faults::default()).await;
    let base = sim.base_url();
    let s = Session::new(&base, true);
    s.fetch_csrf().await;
    let first = s.cookie("sap-contextid").expect("context cookie");
    assert_eq!(state(&sim)["contexts"].as_array().map(Vec::len), Some(1));
    put_faults(&base, r#"{"expireSessionsNow":true}"#).await;
    assert_eq!(state(&sim)["contexts"].as_array().map(Vec::len), Some(0));
    // Calls of the lost session now find no debuggee, and the next stateful request gets a
    // new context.
    let r = s.stack().await;
    assert_eq!(r.status, 404, "{r:?}");
    assert_eq!(subtype(&r.body).as_deref(), Some("noSessionAttached"));
    let second = s.cookie("sap-contextid").expect("context cookie");
    assert_ne!(first, second);
    // Periodic expiry: every 2nd request drops all contexts before it runs.
    put_faults(&base, r#"{"sessionExpiryEvery":2}"#).await;
    s.get(GRAPH).await;
    let third = s.cookie("sap-contextid").expect("context cookie");
    assert_eq!(second, third);
    s.get(GRAPH).await;
    let fourth = s.cookie("sap-contextid").expect("context cookie");
    assert_ne!(third, fourth);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_ide_takes_the_listener() {
    let sim = sim_with(sim::Faults::default()).await;
    let base = sim.base_url();
    let a = Session::new(&base, false);
    a.fetch_csrf().await;
    let abase = base.clone();
    let poll = tokio::spawn(async move {
        let a = Session::new(&abase, false);
        a.fetch_csrf().await;
        a.post(&listener_query(
            IDE,
            "&timeout=30&isNotifiedOnConflict=true",
        ))
        .await
    });
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..1500 {
        if a.get(&listener_query(IDE, "&checkConflict=false"))
            .await
            .status
            == 200
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let v = put_faults(&base, r#"{"foreignListeners":["developer"]}"#).await;
    assert_eq!(v["foreignListeners"][0], "DEVELOPER");
    let r = tokio::time::timeout(Duration::from_secs(5), poll)
        .await
        .expect("displaced poll ends")
        .expect("join");
    assert_eq!(r.status, 409, "{r:?}");
    assert_eq!(subtype(&r.body).as_deref(), Some("conflictNotification"));
    let r = a.get(&listener_query(IDE, "&checkConflict=true")).await;
    assert_eq!(r.status, 409, "{r:?}");
    assert_eq!(subtype(&r.body).as_deref(), Some("conflictDetected"));
    let listeners = state(&sim)["listeners"].clone();
    assert_eq!(listeners[0]["ideId"], sim::FOREIGN_IDE_ID);
    // Clearing the faults removes the other IDE's listener.
    let (status, _) = admin(reqwest::Method::DELETE, &base, None).await;
    assert_eq!(status, 204);
    assert_eq!(state(&sim)["listeners"].as_array().map(Vec::len), Some(0));
    assert_eq!(
        a.get(&listener_query(IDE, "&checkConflict=true"))
            .await
            .status,
        200
    );
    sim.shutdown().await;
}

#[tokio::test]
async fn foreign_listener_from_the_start() {
    let sim = sim_with(sim::Faults {
        foreign_listeners: vec!["DEVELOPER".to_string()],
        ..sim::Faults::default()
    })
    .await;
    let base = sim.base_url();
    let a = Session::new(&base, false);
    a.fetch_csrf().await;
    let r = a
        .post(&listener_query(IDE, "&timeout=1&checkConflict=true"))
        .await;
    assert_eq!(r.status, 409, "{r:?}");
    assert_eq!(subtype(&r.body).as_deref(), Some("conflictDetected"));
    assert!(r.body.contains("<entry key=\"ideUser\">DEVELOPER</entry>"));
    sim.shutdown().await;
}

#[tokio::test]
async fn with_an_admin_token_the_admin_api_needs_it() {
    let sim = sim::start(sim::SimConfig {
        admin_token: Some("s3cret-token".into()),
        ..sim::SimConfig::default()
    })
    .await
    .expect("start");
    let base = sim.base_url();
    for (path, method) in [
        ("/sim/faults", reqwest::Method::PUT),
        ("/sim/faults", reqwest::Method::DELETE),
        ("/sim/state", reqwest::Method::GET),
        ("/sim/requests", reqwest::Method::GET),
    ] {
        let without = http()
            .request(method.clone(), format!("{base}{path}"))
            .body(r#"{"latencyMs":600000}"#)
            .send()
            .await
            .expect("send");
        assert_eq!(without.status().as_u16(), 403, "{method} {path}");
        let wrong = http()
            .request(method.clone(), format!("{base}{path}"))
            .header("x-sim-admin-token", "s3cret-tokeN")
            .send()
            .await
            .expect("send");
        assert_eq!(wrong.status().as_u16(), 403, "{method} {path}");
    }
    let with = http()
        .get(format!("{base}/sim/state"))
        .header("x-sim-admin-token", "s3cret-token")
        .send()
        .await
        .expect("send");
    assert_eq!(with.status().as_u16(), 200);
    // Nothing was injected by the refused requests.
    let s = session(&base, false).await;
    let started = Instant::now();
    assert_eq!(s.get(GRAPH).await.status, 200);
    assert!(started.elapsed() < Duration::from_secs(5));
    sim.shutdown().await;
}
