//! Connections are bounded and idle ones closed (issue 25: idle connections used up the
//! simulator's file descriptors, after which a shutdown could not release what it held).

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_are_bounded_and_idle_ones_are_closed() {
    const MAX: usize = 8;
    let sim = sim::start(sim::SimConfig {
        max_connections: MAX,
        idle_connection_timeout: Duration::from_millis(700),
        ..Default::default()
    })
    .await
    .expect("sim");
    let addr = sim.base_url().trim_start_matches("http://").to_string();
    // Three times as many connections as the simulator takes, none sending anything.
    let mut idle = Vec::new();
    for _ in 0..3 * MAX {
        idle.push(
            tokio::net::TcpStream::connect(&addr)
                .await
                .expect("connect"),
        );
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        sim.open_connections() <= MAX,
        "{} connections open",
        sim.open_connections()
    );
    // Each is closed once idle: the first ones, then those that waited in the queue.
    let started = Instant::now();
    for (i, stream) in idle.iter_mut().enumerate() {
        let mut buf = [0u8; 16];
        let read = tokio::time::timeout(Duration::from_secs(20), stream.read(&mut buf)).await;
        assert!(
            matches!(read, Ok(Ok(0)) | Ok(Err(_))),
            "idle connection {i} was not closed ({:?} after {:?})",
            read.map(|r| r.map_err(|e| e.kind())),
            started.elapsed()
        );
    }
    // A client that talks is served meanwhile and afterwards.
    let s = common::session(&sim.base_url(), false).await;
    assert_eq!(s.fetch_csrf().await.status, 200);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_being_handled_keeps_its_connection_however_long() {
    let sim = sim::start(sim::SimConfig {
        idle_connection_timeout: Duration::from_millis(300),
        ..Default::default()
    })
    .await
    .expect("sim");
    let s = common::session(&sim.base_url(), true).await;
    // A long poll of 2 s, far beyond the idle limit, is answered (the server's timeout: 200
    // with no body) on its connection.
    let started = Instant::now();
    let r = s.listen(2).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(started.elapsed() >= Duration::from_millis(1500));
    // A connection that sent half a request and stopped is closed too.
    let addr = sim.base_url().trim_start_matches("http://").to_string();
    let mut half = tokio::net::TcpStream::connect(&addr)
        .await
        .expect("connect");
    half.write_all(b"GET /sap/bc/adt/compatibility/graph HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    let mut buf = [0u8; 512];
    let read = tokio::time::timeout(Duration::from_secs(10), half.read(&mut buf)).await;
    assert!(read.is_ok(), "a half request holds its connection forever");
    sim.shutdown().await;
}
