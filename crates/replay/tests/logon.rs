//! The replay answers a logon and a CSRF fetch the cassette did not record, as a system does,
//! and answers the recorded one when there is one.

use adt::cassette::Cassette;
use replay::{CSRF_TOKEN, Replay};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const HEADER: &str = r#"{"format":"abapdbg-cassette/1","base_url":"http://sys.invalid","started":0,"users_redacted":false}"#;

/// A recorded logon: its token and cookie are the recording's placeholders.
const RECORDED_LOGON: &str = r#"{"at_ms":1,"session":"stateless-1","method":"GET","path":"/sap/bc/adt/compatibility/graph","query":"","request_headers":{"x-csrf-token":"fetch"},"request_body":{"text":""},"status":200,"response_headers":{"set-cookie":"SAP_SESSIONID_A4H_001=REDACTED-cookie-1; path=/","x-csrf-token":"REDACTED-csrf-1"},"response_body":{"text":"<graph/>"},"duration_ms":0}"#;

async fn start(lines: &[&str]) -> Replay {
    let cassette = Cassette::parse(&lines.join("\n")).expect("the cassette parses");
    Replay::start(cassette, ([127, 0, 0, 1], 0).into())
        .await
        .expect("the replay starts")
}

/// One request over a fresh connection; the raw answer (status line, headers, body).
async fn send(replay: &Replay, request_line: &str, headers: &[&str]) -> String {
    let host = replay.base_url().trim_start_matches("http://").to_string();
    let mut stream = tokio::net::TcpStream::connect(&host)
        .await
        .expect("connect");
    let mut request = format!("{request_line} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for h in headers {
        request.push_str(h);
        request.push_str("\r\n");
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("read");
    answer
}

fn header<'a>(answer: &'a str, name: &str) -> Vec<&'a str> {
    let head = answer.split("\r\n\r\n").next().unwrap_or_default();
    head.lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .filter(|(n, _)| n.trim().eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim())
        .collect()
}

#[tokio::test]
async fn a_cassette_without_logon_answers_the_csrf_fetch_with_a_token() {
    let replay = start(&[HEADER]).await;
    let logon = send(
        &replay,
        "GET /sap/bc/adt/compatibility/graph",
        &["Authorization: Basic YW55OmFueQ==", "x-csrf-token: Fetch"],
    )
    .await;
    assert!(logon.starts_with("HTTP/1.1 200"), "{logon}");
    assert_eq!(header(&logon, "x-csrf-token"), [CSRF_TOKEN], "{logon}");
    // A token fetch elsewhere is answered the same way.
    let fetch = send(
        &replay,
        "HEAD /sap/bc/adt/discovery",
        &["x-csrf-token: fetch"],
    )
    .await;
    assert!(fetch.starts_with("HTTP/1.1 200"), "{fetch}");
    assert_eq!(header(&fetch, "x-csrf-token"), [CSRF_TOKEN], "{fetch}");
    // That same path without a fetch is not made up.
    let discovery = send(&replay, "GET /sap/bc/adt/discovery", &[]).await;
    assert!(discovery.starts_with("HTTP/1.1 404"), "{discovery}");
    // A POST asking for a token is no logon: unmatched.
    let post = send(
        &replay,
        "POST /sap/bc/adt/debugger?method=getStack",
        &["x-csrf-token: fetch", "Content-Length: 0"],
    )
    .await;
    assert!(post.starts_with("HTTP/1.1 404"), "{post}");
    let unmatched: Vec<String> = replay.unmatched().into_iter().map(|u| u.target).collect();
    assert_eq!(
        unmatched,
        [
            "/sap/bc/adt/discovery",
            "/sap/bc/adt/debugger?method=getStack"
        ]
    );
    replay.shutdown().await;
}

#[tokio::test]
async fn the_adt_client_logs_on_to_a_cassette_without_logon() {
    let replay = start(&[HEADER]).await;
    let config = adt::Config {
        base_url: replay.base_url(),
        user: "ANYONE".into(),
        password: "anything".into(),
        ..adt::Config::default()
    };
    let client = adt::Client::new(&config, adt::SessionMode::Stateful).expect("a client");
    client.logon().await.expect("the replay answers the logon");
    assert!(replay.unmatched().is_empty(), "{:?}", replay.unmatched());
    replay.shutdown().await;
}

#[tokio::test]
async fn a_recorded_logon_is_answered_as_recorded() {
    let replay = start(&[HEADER, RECORDED_LOGON]).await;
    for _ in 0..2 {
        let logon = send(
            &replay,
            "GET /sap/bc/adt/compatibility/graph",
            &["x-csrf-token: Fetch"],
        )
        .await;
        assert!(logon.starts_with("HTTP/1.1 200"), "{logon}");
        assert_eq!(
            header(&logon, "x-csrf-token"),
            ["REDACTED-csrf-1"],
            "{logon}"
        );
        assert_eq!(
            header(&logon, "set-cookie"),
            ["SAP_SESSIONID_A4H_001=REDACTED-cookie-1; path=/"],
            "{logon}"
        );
        assert!(logon.ends_with("<graph/>"), "{logon}");
    }
    assert!(replay.left().is_empty(), "{:?}", replay.left());
    replay.shutdown().await;
}
