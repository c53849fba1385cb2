//! A protocol harness: the engine on an in-memory duplex stream, talking to a simulator over
//! real HTTP on loopback.
#![allow(dead_code)] // each test file uses a different part

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;

pub const DEMO: &str = "ZCL_ABAPDBG_DEMO";
pub const OUTPUT: &str = "Order A001: total 60, rate 12.50\nDoubled rate: 25.00";

pub struct Harness {
    pub input: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    pub lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    /// Every line read so far, in order.
    pub seen: Vec<Value>,
    /// Lines not yet consumed by `until`.
    backlog: Vec<Value>,
    next_id: u64,
}

pub type ServeTask = tokio::task::JoinHandle<Result<engine::Receipt, engine::ServeError>>;

pub fn adt_config(sim: &sim::SimHandle) -> adt::Config {
    adt::Config {
        base_url: sim.base_url(),
        user: "DEVELOPER".into(),
        password: "abap".into(),
        client: Some("001".into()),
        language: None,
        ..Default::default()
    }
}

pub fn start_with(
    sim: &sim::SimHandle,
    tune: impl FnOnce(&mut engine::EngineConfig),
) -> (Harness, ServeTask) {
    let identity = adt::Identity {
        user: "DEVELOPER".into(),
        terminal_id: "T".repeat(32),
        ide_id: format!("{:032}", std::process::id()),
    };
    let mut config = engine::EngineConfig::new(adt_config(sim), identity);
    config.listener_poll_secs = 5;
    tune(&mut config);
    let (client, server) = tokio::io::duplex(1 << 20);
    let (sr, sw) = tokio::io::split(server);
    let task = tokio::spawn(engine::serve(
        config,
        BufReader::new(sr),
        sw,
        std::future::pending::<()>(),
    ));
    let (cr, cw) = tokio::io::split(client);
    (
        Harness {
            input: cw,
            lines: BufReader::new(cr).lines(),
            seen: Vec::new(),
            backlog: Vec::new(),
            next_id: 1000,
        },
        task,
    )
}

pub fn start(sim: &sim::SimHandle) -> (Harness, ServeTask) {
    start_with(sim, |_| {})
}

impl Harness {
    /// Sends a request; it must be valid against the protocol schema.
    pub async fn send(&mut self, line: Value) {
        if let Err(e) = jsonl::schema::validate_request(&line) {
            panic!("the test sends an invalid request {line}: {e:?}");
        }
        self.input
            .write_all(format!("{line}\n").as_bytes())
            .await
            .expect("write request");
    }

    pub async fn send_raw(&mut self, bytes: &[u8]) {
        self.input.write_all(bytes).await.expect("write raw");
    }

    /// The next line (in arrival order, after the backlog) that matches.
    pub async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&pred) {
            return self.backlog.remove(i);
        }
        loop {
            let line = tokio::time::timeout(Duration::from_secs(30), self.lines.next_line())
                .await
                .unwrap_or_else(|_| panic!("no matching line within 30 s; seen: {:#?}", self.seen))
                .expect("read")
                .expect("not EOF");
            let v: Value = serde_json::from_str(&line).expect("every line is JSON");
            if let Err(e) = jsonl::schema::validate_line(&v) {
                panic!("a line breaks the protocol schema: {line}\n{e:#?}");
            }
            self.seen.push(v.clone());
            if pred(&v) {
                return v;
            }
            self.backlog.push(v);
        }
    }

    pub async fn event(&mut self, name: &str) -> Value {
        self.until(|v| v["type"] == "event" && v["event"] == name)
            .await
    }

    pub async fn response(&mut self, id: &Value) -> Value {
        let id = id.clone();
        self.until(move |v| v["type"] == "response" && v["id"] == id)
            .await
    }

    /// Sends a request and returns its response.
    pub async fn call(&mut self, cmd: &str, args: Value) -> Value {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(json!({"id": id, "cmd": cmd, "args": args})).await;
        let response = self.response(&id).await;
        // Events caused by this request say what its response says: do not let a later
        // `event()` mistake them for new ones.
        self.backlog.retain(|v| v["cause"] != id);
        response
    }

    /// Sends a request and returns its result, failing the test if it failed.
    pub async fn ok(&mut self, cmd: &str, args: Value) -> Value {
        let r = self.call(cmd, args).await;
        assert_eq!(r["ok"], true, "{cmd} failed: {r}");
        r["result"].clone()
    }

    /// Sends a request the schema refuses (to test the server's own checks); it must fail.
    pub async fn fails_invalid(&mut self, cmd: &str, args: Value) -> String {
        self.next_id += 1;
        let id = json!(self.next_id);
        let line = json!({"id": id, "cmd": cmd, "args": args});
        assert!(
            jsonl::schema::validate_request(&line).is_err(),
            "the schema should refuse {line}"
        );
        self.send_raw(format!("{line}\n").as_bytes()).await;
        let r = self.response(&id).await;
        assert_eq!(r["ok"], false, "{cmd} should have failed: {r}");
        r["error"]["code"].as_str().unwrap_or_default().to_string()
    }

    /// Sends a request that must fail, and returns the error code.
    pub async fn fails(&mut self, cmd: &str, args: Value) -> String {
        let r = self.call(cmd, args).await;
        assert_eq!(r["ok"], false, "{cmd} should have failed: {r}");
        r["error"]["code"].as_str().unwrap_or_default().to_string()
    }

    /// Sends a request without waiting for its answer; returns its id.
    pub async fn call_later(&mut self, cmd: &str, args: Value) -> Value {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(json!({"id": id, "cmd": cmd, "args": args})).await;
        id
    }

    /// Lets the stopped program go: deletes every breakpoint, then continues it once.
    pub async fn release(&mut self) -> Value {
        self.ok("bp.delete", json!({"all": true})).await;
        self.ok("step", json!({"type": "continue"})).await
    }

    /// Sends `run` for the demo class without waiting; returns the request id.
    pub async fn run_demo(&mut self) -> Value {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(json!({"id": id, "cmd": "run", "args": {"class": DEMO}}))
            .await;
        id
    }

    /// Closes stdin and waits for the serve task.
    pub async fn finish(mut self, task: ServeTask) -> engine::Receipt {
        self.input.shutdown().await.expect("close stdin");
        tokio::time::timeout(Duration::from_secs(30), task)
            .await
            .expect("serve ends after EOF")
            .expect("join")
            .expect("serve")
    }
}

/// The body of a value in a `vars` result by variable name.
pub fn var<'a>(vars: &'a Value, name: &str) -> &'a Value {
    vars["variables"]
        .as_array()
        .and_then(|a| a.iter().find(|v| v["name"] == name))
        .unwrap_or_else(|| panic!("no variable {name} in {vars}"))
}

/// Logs the engine's and the simulator's tracing to stderr as `RUST_LOG` says (nothing
/// without it), for a test whose failure needs the order of events to explain.
pub fn trace() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .try_init();
}

/// A client on the session's Unix socket, as another process would be.
pub struct SocketClient {
    pub write: tokio::net::unix::OwnedWriteHalf,
    pub lines: tokio::io::Lines<BufReader<tokio::net::unix::OwnedReadHalf>>,
    /// Lines not yet consumed by `until`.
    pub backlog: Vec<Value>,
}

impl SocketClient {
    pub async fn connect(path: &std::path::Path) -> SocketClient {
        let stream = UnixStream::connect(path).await.expect("connect");
        let (read, write) = stream.into_split();
        SocketClient {
            write,
            lines: BufReader::new(read).lines(),
            backlog: Vec::new(),
        }
    }

    /// The next line (after the backlog) that matches; every line must fit the schema.
    pub async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&pred) {
            return self.backlog.remove(i);
        }
        loop {
            let line = tokio::time::timeout(Duration::from_secs(60), self.lines.next_line())
                .await
                .unwrap_or_else(|_| panic!("a line within 60 s; seen: {:#?}", self.backlog))
                .expect("read")
                .expect("not EOF");
            let v: Value = serde_json::from_str(&line).expect("JSON");
            if let Err(e) = jsonl::schema::validate_line(&v) {
                panic!("socket line breaks the schema: {line}: {e:?}");
            }
            if pred(&v) {
                return v;
            }
            self.backlog.push(v);
        }
    }

    pub async fn call(&mut self, id: Value, cmd: &str, args: Value) -> Value {
        let line = json!({"id": id, "cmd": cmd, "args": args});
        self.write
            .write_all(format!("{line}\n").as_bytes())
            .await
            .expect("write");
        self.until(|v| v["type"] == "response" && v["id"] == id)
            .await
    }
}

/// Waits (up to 30 s, a loaded machine is slow) until the session's socket exists.
pub async fn socket_ready(path: &std::path::Path) {
    for _ in 0..3000 {
        if path.exists() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no socket at {}", path.display());
}
