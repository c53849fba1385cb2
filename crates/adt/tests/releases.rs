//! Behaviour the simulator does not imitate, against a scripted HTTP server: older releases
//! (no `/stack` resource, no `PUT` frame switch, no batch endpoint), auth headers, the CSRF
//! refetch and configuration errors.

use crate::support::mock;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use adt::{AdtError, Client, Config, ErrorClass, SessionMode, StackEntry, StepKind, StepOutcome};
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
        client: Some("007".into()),
        language: Some("DE".into()),
        ..Default::default()
    }
}

const NOT_FOUND: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?><exc:exception xmlns:exc=\"http://www.sap.com/abapxml/types/communicationframework\"><namespace id=\"com.sap.adt\"/><type id=\"ExceptionResourceNotFound\"/><message lang=\"EN\">No suitable resource found</message><properties/></exc:exception>";

/// A 750-like system: no `GET /stack`, no `PUT <stackUri>`, no batch endpoint.
fn old_release(seen: &Seen) -> Reply {
    let t = seen.target.as_str();
    match seen.method.as_str() {
        "GET" if t.starts_with("/sap/bc/adt/compatibility/graph") => {
            Reply::new(200, "<graph/>").header("x-csrf-token", "tok123")
        }
        "GET" if t.starts_with("/sap/bc/adt/debugger/stack") => Reply::new(404, NOT_FOUND),
        "PUT" if t.starts_with("/sap/bc/adt/debugger/stack/") => {
            Reply::new(405, "Method not allowed")
        }
        "POST" if t == "/sap/bc/adt/debugger/batch" => Reply::new(404, NOT_FOUND),
        "POST" if t.contains("method=getStack") => Reply::new(200, &fixture("stack.xml")),
        "POST" if t.contains("method=setStackPosition") => Reply::new(200, ""),
        "POST" if t.contains("method=stepOver") => Reply::new(200, &fixture("step.xml")),
        "POST" if t.contains("method=stepContinue") => {
            Reply::new(500, &fixture("exception_debuggee_ended.xml"))
        }
        "POST" if t.contains("method=getChildVariables") => {
            Reply::new(200, &fixture("child_variables.xml"))
        }
        _ => Reply::new(400, "unexpected"),
    }
}

fn count(seen: &[Seen], method: &str, prefix: &str) -> usize {
    seen.iter()
        .filter(|s| s.method == method && s.target.starts_with(prefix))
        .count()
}

#[tokio::test(flavor = "multi_thread")]
async fn old_release_forms_are_found_and_remembered() {
    let server = mock::start(Arc::new(old_release)).await;
    let c = Client::new(&config(&server.base), SessionMode::Stateful).unwrap();
    for _ in 0..2 {
        let stack = c.stack().await.unwrap();
        assert_eq!(stack.entries.len(), 4);
    }
    let seen = server.seen();
    assert_eq!(
        count(&seen, "GET", "/sap/bc/adt/debugger/stack"),
        1,
        "tried once"
    );
    assert_eq!(
        count(&seen, "POST", "/sap/bc/adt/debugger?method=getStack"),
        2
    );
    let entry = StackEntry {
        position: 2,
        stack_type: "ABAP".into(),
        stack_uri: "/sap/bc/adt/debugger/stack/type/ABAP/position/2".into(),
        ..Default::default()
    };
    c.set_stack_position(&entry).await.unwrap();
    c.set_stack_position(&entry).await.unwrap();
    let seen = server.seen();
    assert_eq!(count(&seen, "PUT", "/sap/bc/adt/debugger/stack/"), 1);
    assert_eq!(
        count(
            &seen,
            "POST",
            "/sap/bc/adt/debugger?method=setStackPosition&position=2"
        ),
        2
    );
    // No batch endpoint: three single calls, and the batch is not tried again.
    let first = c
        .step_and_inspect(StepKind::Over, &["@ROOT".into()])
        .await
        .unwrap();
    assert_eq!(first.reached_breakpoints, vec!["KIND=1.STATEMENT=CATCH"]);
    assert_eq!(first.stack.unwrap().entries.len(), 4);
    assert_eq!(first.variables.unwrap().variables.len(), 4);
    let end = c
        .step_and_inspect(StepKind::Continue, &["@ROOT".into()])
        .await
        .unwrap();
    assert_eq!(end.outcome, StepOutcome::Ended);
    assert!(end.stack.is_none());
    let seen = server.seen();
    assert_eq!(count(&seen, "POST", "/sap/bc/adt/debugger/batch"), 1);
    // The general batch falls back the same way.
    let answers = c
        .batch(vec![
            adt::BatchCall::stack(),
            adt::BatchCall::step(StepKind::Continue),
        ])
        .await
        .unwrap();
    assert!(answers[0].is_ok());
    assert_eq!(
        answers[1].as_ref().unwrap_err().class(),
        ErrorClass::DebuggeeEnded
    );
    assert_eq!(
        count(&server.seen(), "POST", "/sap/bc/adt/debugger/batch"),
        1
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn no_session_attached_is_not_a_missing_resource() {
    let server = mock::start(Arc::new(|s: &Seen| {
        if s.method == "GET" && s.target.starts_with("/sap/bc/adt/debugger/stack") {
            Reply::new(404, &fixture("exception_no_session.xml"))
        } else {
            Reply::new(200, "").header("x-csrf-token", "t")
        }
    }))
    .await;
    let c = Client::new(&config(&server.base), SessionMode::Stateful).unwrap();
    let e = c.stack().await.unwrap_err();
    assert_eq!(e.class(), ErrorClass::NoSessionAttached);
    assert_eq!(
        count(
            &server.seen(),
            "POST",
            "/sap/bc/adt/debugger?method=getStack"
        ),
        0,
        "no fallback for a debugger state"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn headers_auth_and_csrf_refetch() {
    let posts = Arc::new(AtomicUsize::new(0));
    let p = posts.clone();
    let server = mock::start(Arc::new(move |s: &Seen| {
        if s.method == "GET" {
            let n = p.load(Ordering::SeqCst);
            return Reply::new(200, "")
                .header("x-csrf-token", &format!("token{n}"))
                .header("set-cookie", "SAP_SESSIONID_T01_007=abc; path=/")
                .header("set-cookie", "sap-contextid=ctx1; path=/sap/bc/adt");
        }
        if p.fetch_add(1, Ordering::SeqCst) == 0 {
            return Reply::new(403, "CSRF token validation failed")
                .header("x-csrf-token", "Required")
                .header("content-type", "text/plain");
        }
        Reply::new(200, &fixture("settings.xml"))
    }))
    .await;
    let c = Client::new(&config(&server.base), SessionMode::Stateful).unwrap();
    let s = c.settings(&Default::default()).await.unwrap();
    assert!(s.system_debugging, "the echo is what the server sent");
    assert_eq!(c.context_id().as_deref(), Some("ctx1"));
    let seen = server.seen();
    let methods: Vec<&str> = seen.iter().map(|s| s.method.as_str()).collect();
    assert_eq!(
        methods,
        ["GET", "POST", "GET", "POST"],
        "one refetch, one retry"
    );
    let last = seen.last().unwrap();
    assert_eq!(last.header("x-csrf-token"), Some("token1"));
    assert_eq!(last.header("sap-client"), Some("007"));
    assert_eq!(last.header("sap-language"), Some("DE"));
    assert_eq!(last.header("x-sap-adt-sessiontype"), Some("stateful"));
    assert!(last.header("authorization").unwrap().starts_with("Basic "));
    assert!(
        last.header("cookie")
            .unwrap()
            .contains("sap-contextid=ctx1")
    );
    assert!(last.body.contains("dbg:settings"));

    // Bearer token.
    let bearer = Client::new(
        &Config {
            bearer_token: Some("eyJ.token".into()),
            ..config(&server.base)
        },
        SessionMode::Stateless,
    )
    .unwrap();
    bearer.logon().await.unwrap();
    let seen = server.seen();
    assert_eq!(
        seen.last().unwrap().header("authorization"),
        Some("Bearer eyJ.token")
    );
    // SSO cookies without a password: no Authorization at all.
    let sso = Client::new(
        &Config {
            password: String::new(),
            cookies: vec![("MYSAPSSO2".into(), "AjQxMDM=".into())],
            ..config(&server.base)
        },
        SessionMode::Stateless,
    )
    .unwrap();
    sso.logon().await.unwrap();
    let seen = server.seen();
    let last = seen.last().unwrap();
    assert_eq!(last.header("authorization"), None);
    assert_eq!(last.header("cookie"), Some("MYSAPSSO2=AjQxMDM="));
}

#[test]
fn configuration_errors_are_reported() {
    let base = "https://sap.example:44300";
    let missing = Config {
        ca_bundle: Some("/nonexistent/ca.pem".into()),
        ..config(base)
    };
    let e = Client::new(&missing, SessionMode::Stateless).unwrap_err();
    assert!(
        matches!(e, AdtError::Config(_)) && e.to_string().contains("CA bundle"),
        "{e}"
    );
    let dir = std::env::temp_dir().join(format!("adt-cfg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let junk = dir.join("junk.pem");
    std::fs::write(&junk, "not a certificate").unwrap();
    let e = Client::new(
        &Config {
            client_certificate: Some(junk.clone()),
            ..config(base)
        },
        SessionMode::Stateless,
    )
    .unwrap_err();
    assert!(e.to_string().contains("client certificate"), "{e}");
    let e = Client::new(
        &Config {
            ca_bundle: Some(junk),
            ..config(base)
        },
        SessionMode::Stateless,
    )
    .unwrap_err();
    assert!(e.to_string().contains("CA bundle"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        Client::new(
            &Config {
                insecure: true,
                ..config(base)
            },
            SessionMode::Stateless
        )
        .is_ok()
    );
    let e = Client::new(
        &Config {
            cookies: vec![("bad name".into(), "x".into())],
            ..config(base)
        },
        SessionMode::Stateless,
    )
    .unwrap_err();
    assert!(e.to_string().contains("cookie"), "{e}");
    let dbg = format!(
        "{:?}",
        Config {
            bearer_token: Some("sekrit".into()),
            cookies: vec![("MYSAPSSO2".into(), "sekrit".into())],
            ..config(base)
        }
    );
    assert!(!dbg.contains("sekrit") && !dbg.contains("secret"), "{dbg}");
}
