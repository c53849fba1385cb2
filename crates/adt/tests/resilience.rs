//! Transient failures against a scripted HTTP server: which requests are sent again (reads,
//! never steps), and the new logon after the security session expired.

use crate::support::mock;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use adt::{Client, Config, ErrorClass, Identity, SessionMode, StepKind};
use mock::{Reply, Seen};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn config(base: &str) -> Config {
    Config {
        base_url: base.to_string(),
        user: "tester".into(),
        password: "secret".into(),
        request_timeout: Duration::from_secs(10),
        ..Default::default()
    }
}

fn identity() -> Identity {
    Identity {
        user: "TESTER".into(),
        terminal_id: "t".repeat(32),
        ide_id: "i".repeat(32),
    }
}

fn count(seen: &[Seen], method: &str, needle: &str) -> usize {
    seen.iter()
        .filter(|s| s.method == method && s.target.contains(needle))
        .count()
}

fn token() -> Reply {
    Reply::new(200, "").header("x-csrf-token", "tok")
}

/// Answers `failure()` to the first `failures` requests whose target contains `needle`.
fn flaky(
    needle: &'static str,
    failures: usize,
    failure: fn() -> Reply,
    success: fn() -> Reply,
) -> mock::Handler {
    let n = Arc::new(AtomicUsize::new(0));
    Arc::new(move |s: &Seen| {
        if s.target.starts_with("/sap/bc/adt/compatibility/graph") {
            return token();
        }
        if s.target.contains(needle) && n.fetch_add(1, Ordering::SeqCst) < failures {
            return failure();
        }
        success()
    })
}

fn icm_page() -> Reply {
    Reply::new(400, &fixture("icm_unavailable.html")).header("content-type", "text/html")
}

#[tokio::test(flavor = "multi_thread")]
async fn icm_unavailable_pages_are_retried_on_reads_only() {
    // The stack (GET) recovers after two ICM pages.
    let server = mock::start(flaky("/debugger/stack", 2, icm_page, || {
        Reply::new(200, &fixture("stack.xml"))
    }))
    .await;
    let c = Client::new(&config(&server.base), SessionMode::Stateful).unwrap();
    assert_eq!(c.stack().await.unwrap().entries.len(), 4);
    assert_eq!(count(&server.seen(), "GET", "/debugger/stack"), 3);

    // So do the variables, although they are read with POST.
    let server = mock::start(flaky("getChildVariables", 1, icm_page, || {
        Reply::new(200, &fixture("child_variables.xml"))
    }))
    .await;
    let c = Client::new(&config(&server.base), SessionMode::Stateful).unwrap();
    let vars = c.child_variables(&["@ROOT".into()]).await.unwrap();
    assert_eq!(vars.variables.len(), 4);
    assert_eq!(count(&server.seen(), "POST", "getChildVariables"), 2);

    // A step is never sent twice: the page becomes a typed error.
    let server = mock::start(flaky("stepOver", 1, icm_page, || {
        Reply::new(200, &fixture("step.xml"))
    }))
    .await;
    let c = Client::new(&config(&server.base), SessionMode::Stateful).unwrap();
    let e = c.step(StepKind::Over).await.unwrap_err();
    assert_eq!(e.class(), ErrorClass::ServerUnavailable, "{e}");
    assert_eq!(e.http_status(), Some(400));
    assert_eq!(count(&server.seen(), "POST", "stepOver"), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn lost_connections_are_retried_on_reads_only() {
    let server = mock::start(flaky("getVariables", 1, Reply::hang_up, || {
        Reply::new(200, &fixture("variables.xml"))
    }))
    .await;
    let c = Client::new(&config(&server.base), SessionMode::Stateful).unwrap();
    let vars = c.variables(&["LV_X".into()]).await.unwrap();
    assert!(!vars.is_empty());
    assert_eq!(count(&server.seen(), "POST", "getVariables"), 2);

    let server = mock::start(flaky("stepContinue", 1, Reply::hang_up, || {
        Reply::new(200, &fixture("step.xml"))
    }))
    .await;
    let c = Client::new(&config(&server.base), SessionMode::Stateful).unwrap();
    let e = c.step(StepKind::Continue).await.unwrap_err();
    assert_eq!(e.class(), ErrorClass::Transport, "{e}");
    assert_eq!(count(&server.seen(), "POST", "stepContinue"), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn timeouts_are_not_retried() {
    let stacks = Arc::new(AtomicUsize::new(0));
    let counted = stacks.clone();
    let server = mock::start(Arc::new(move |s: &Seen| {
        if s.target.contains("/debugger/stack") {
            counted.fetch_add(1, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(1500));
        }
        Reply::new(200, &fixture("stack.xml"))
    }))
    .await;
    let c = Client::new(
        &Config {
            request_timeout: Duration::from_millis(300),
            ..config(&server.base)
        },
        SessionMode::Stateful,
    )
    .unwrap();
    let e = c.stack().await.unwrap_err();
    assert_eq!(e.class(), ErrorClass::Timeout, "{e}");
    // Long enough for a retry to have arrived (the first backoff is 400 ms).
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(stacks.load(Ordering::SeqCst), 1, "sent once");
}

fn expired() -> Reply {
    Reply::new(400, "").reason("Session timed out")
}

#[tokio::test(flavor = "multi_thread")]
async fn expired_security_session_logs_on_again_when_stateless() {
    let n = Arc::new(AtomicUsize::new(0));
    let n2 = n.clone();
    let server = mock::start(Arc::new(move |s: &Seen| {
        if s.target.starts_with("/sap/bc/adt/compatibility/graph") {
            let k = n2.load(Ordering::SeqCst);
            return Reply::new(200, "")
                .header("x-csrf-token", &format!("tok{k}"))
                .header("set-cookie", &format!("SAP_SESSIONID_T01_001=s{k}; path=/"));
        }
        if n2.fetch_add(1, Ordering::SeqCst) == 0 {
            return expired();
        }
        Reply::new(200, "")
    }))
    .await;
    let c = Client::new(&config(&server.base), SessionMode::Stateless).unwrap();
    c.stop_listener(&identity()).await.unwrap();
    let seen = server.seen();
    let methods: Vec<&str> = seen.iter().map(|s| s.method.as_str()).collect();
    assert_eq!(
        methods,
        ["GET", "DELETE", "GET", "DELETE"],
        "a new logon, once"
    );
    let last = seen.last().unwrap();
    assert_eq!(last.header("x-csrf-token"), Some("tok1"));
    assert_eq!(last.header("cookie"), Some("SAP_SESSIONID_T01_001=s1"));
}

#[tokio::test(flavor = "multi_thread")]
async fn expired_security_session_is_typed_when_it_cannot_be_renewed() {
    let server = mock::start(Arc::new(|s: &Seen| {
        if s.target.starts_with("/sap/bc/adt/compatibility/graph") {
            return token();
        }
        expired()
    }))
    .await;
    // A stateful session lost its user context with it: no silent new logon.
    let c = Client::new(&config(&server.base), SessionMode::Stateful).unwrap();
    let e = c.stack().await.unwrap_err();
    assert_eq!(e.class(), ErrorClass::SessionTimedOut, "{e}");
    assert!(e.to_string().contains("Session timed out"), "{e}");
    assert_eq!(count(&server.seen(), "GET", "/compatibility/graph"), 0);
    // Injected SSO cookies alone cannot log on again.
    let sso = Client::new(
        &Config {
            password: String::new(),
            cookies: vec![("MYSAPSSO2".into(), "ticket".into())],
            ..config(&server.base)
        },
        SessionMode::Stateless,
    )
    .unwrap();
    let e = sso.listener_exists(&identity()).await.unwrap_err();
    assert_eq!(e.class(), ErrorClass::SessionTimedOut, "{e}");
    // A stateless session tries once, then reports it.
    let c = Client::new(&config(&server.base), SessionMode::Stateless).unwrap();
    let e = c.stop_listener(&identity()).await.unwrap_err();
    assert_eq!(e.class(), ErrorClass::SessionTimedOut, "{e}");
    let deletes = count(&server.seen(), "DELETE", "/debugger/listeners");
    assert_eq!(deletes, 2, "one new attempt");
}

#[tokio::test(flavor = "multi_thread")]
async fn requests_can_be_routed_to_the_debuggee_instance() {
    let server = mock::start(Arc::new(|s: &Seen| {
        if s.target.starts_with("/sap/bc/adt/compatibility/graph") {
            return token();
        }
        Reply::new(200, &fixture("attach.xml"))
    }))
    .await;
    let c = Client::new(&config(&server.base), SessionMode::Stateful).unwrap();
    c.route_to_instance("box_T01_02").unwrap();
    c.attach(&identity(), "4F3A9C0D1E2B37465A6B7C8D9E0F1A2B")
        .await
        .unwrap();
    let seen = server.seen();
    assert_eq!(seen.len(), 2, "token, attach");
    assert!(
        seen.iter().all(|s| s.header("saplb") == Some("box_T01_02")),
        "{seen:?}"
    );
    c.route_to_instance("").unwrap();
    c.stack().await.unwrap_err();
    assert_eq!(server.seen().last().unwrap().header("saplb"), None);
    assert!(c.route_to_instance("bad\nname").is_err());
}
