//! A redirect to another host does not tell it where we came from: our URLs carry the user
//! and the terminal id (listener and breakpoint queries), so no `Referer` is sent.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::mpsc;

/// Answers every request with `answer(request head)`; sends each request head to `seen`.
fn server(seen: mpsc::Sender<String>, answer: impl Fn(&str) -> String + Send + 'static) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(match stream.try_clone() {
                Ok(s) => s,
                Err(_) => continue,
            });
            let mut head = String::new();
            loop {
                let mut line = String::new();
                match reader.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if line == "\r\n" => break,
                    Ok(_) => head.push_str(&line),
                }
            }
            let _ = seen.send(head.clone());
            let mut stream = stream;
            let _ = stream.write_all(answer(&head).as_bytes());
        }
    });
    port
}

/// A stateless client of the system at `http://127.0.0.1:{port}`.
fn client_of(port: u16) -> adt::Client {
    let config = adt::Config {
        base_url: format!("http://127.0.0.1:{port}"),
        user: "DEVELOPER".into(),
        password: "abap".into(),
        ..Default::default()
    };
    adt::Client::new(&config, adt::SessionMode::Stateless).expect("client")
}

#[tokio::test]
async fn a_cross_host_redirect_carries_no_referer() {
    let (to_test, seen) = mpsc::channel();
    let other = server(to_test.clone(), |_| {
        "HTTP/1.1 200 OK\r\nx-csrf-token: T0K3N\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            .to_string()
    });
    // "localhost" and "127.0.0.1" are different hosts to the client.
    let first = server(to_test, move |_| {
        format!(
            "HTTP/1.1 307 Temporary Redirect\r\nlocation: http://localhost:{other}/elsewhere\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
        )
    });
    let client = client_of(first);
    client
        .logon()
        .await
        .expect("the redirected logon gets its token");
    let heads: Vec<String> = seen.try_iter().collect();
    assert_eq!(heads.len(), 2, "{heads:#?}");
    assert!(heads[1].starts_with("GET /elsewhere"), "{heads:#?}");
    assert!(
        !heads[1].to_ascii_lowercase().contains("\nreferer:"),
        "the other host learns nothing of where we came from: {}",
        heads[1]
    );
    assert!(
        !heads[1].to_ascii_lowercase().contains("\nauthorization:"),
        "nor our credentials: {}",
        heads[1]
    );
}

/// An http:// system is spoken to without TLS (its trust store is not even loaded), so a
/// redirect to https is refused with the URL to configure instead of failing on a
/// certificate it never could check.
#[tokio::test]
async fn a_redirect_from_http_to_https_names_the_url_to_configure() {
    let (to_test, seen) = mpsc::channel();
    let first = server(to_test, |_| {
        "HTTP/1.1 301 Moved Permanently\r\nlocation: https://localhost:44300/sap/bc/adt/discovery\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            .to_string()
    });
    let client = client_of(first);
    let err = client
        .logon()
        .await
        .expect_err("the redirect to https is not followed");
    let text = format!("{err:#}");
    assert!(
        text.contains("redirected from http:// to https://localhost:44300")
            && text.contains("set the system URL to https://localhost:44300"),
        "{text}"
    );
    assert_eq!(
        seen.try_iter().count(),
        1,
        "nothing was sent to the https side"
    );
}
