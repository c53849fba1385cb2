//! A system that never answers a step cannot hang the client: blocking calls have a long but
//! finite timeout of their own (`Config::blocking_timeout`).

use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::{Duration, Instant};

/// Answers GETs with a CSRF token; holds every other request open without answering.
fn silent_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut stream = stream;
                loop {
                    let mut buf = [0u8; 8192];
                    let n = match stream.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => n,
                    };
                    if buf[..n].starts_with(b"GET") {
                        let _ = stream.write_all(
                            b"HTTP/1.1 200 OK\r\nx-csrf-token: T0K3N\r\ncontent-length: 0\r\n\r\n",
                        );
                    } else {
                        // Never answer; keep the connection open a long time.
                        std::thread::sleep(Duration::from_secs(120));
                        return;
                    }
                }
            });
        }
    });
    format!("http://{addr}")
}

#[tokio::test]
async fn a_step_the_system_never_answers_times_out() {
    let config = adt::Config {
        base_url: silent_server(),
        user: "DEVELOPER".into(),
        password: "abap".into(),
        request_timeout: Duration::from_secs(5),
        blocking_timeout: Duration::from_millis(400),
        ..Default::default()
    };
    let client = adt::Client::new(&config, adt::SessionMode::Stateful).expect("client");
    let started = Instant::now();
    let outcome = client.step(adt::StepKind::Continue).await;
    let took = started.elapsed();
    let err = outcome.expect_err("no answer is an error, not a hang");
    assert_eq!(err.class(), adt::ErrorClass::Timeout, "{err}");
    assert!(matches!(err, adt::AdtError::Timeout { .. }), "{err:?}");
    assert!(
        took < Duration::from_secs(4),
        "gave up after the blocking timeout, took {took:?}"
    );
    assert!(took >= Duration::from_millis(400), "{took:?}");
}
