//! The regression corpus of recorded ADT sessions (tests/cassettes/README.md): each cassette
//! served by `abapdbg replay` gives `serve` the same protocol answers as the session it was
//! recorded from; a request nothing in the cassette answers fails the test.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use e2e::{Simulator, abapdbg_bin};
use serde_json::{Value, json};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cassettes")
}

/// `abapdbg serve` on stdio against `url`, optionally recording.
struct Serve {
    child: Child,
    lines: Receiver<Value>,
    seen: Vec<Value>,
}

impl Serve {
    fn start(url: &str, dir: &Path, record: Option<&Path>) -> Serve {
        let mut cmd = Command::new(abapdbg_bin());
        cmd.args(["serve", "--no-socket", "--listener-poll-secs", "2"]);
        if let Some(r) = record {
            cmd.arg("--record").arg(r);
        }
        let mut child = cmd
            .env("ABAPDBG_URL", url)
            .env("ABAPDBG_USER", "DEVELOPER")
            .env("ABAPDBG_PASSWORD", "abap")
            .env("ABAPDBG_CLIENT", "001")
            .env("ABAPDBG_STATE_DIR", dir.join("state"))
            .env("ABAPDBG_RUNTIME_DIR", dir.join("run"))
            .env_remove("ABAPDBG_PROFILE")
            .env_remove("ABAPDBG_RECORD")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start serve");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let v: Value = serde_json::from_str(&line).expect("a JSON line");
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let mut s = Serve {
            child,
            lines,
            seen: Vec::new(),
        };
        s.until("ready", |v| v["event"] == "ready");
        s
    }

    fn until(&mut self, what: &str, pred: impl Fn(&Value) -> bool) {
        loop {
            match self.lines.recv_timeout(Duration::from_secs(60)) {
                Ok(v) => {
                    let done = pred(&v);
                    self.seen.push(v);
                    if done {
                        return;
                    }
                }
                Err(e) => panic!("no {what} within 60 s ({e}); lines: {:#?}", self.seen),
            }
        }
    }

    /// Runs the script; answers every line `serve` wrote, in order. A `faults` step is
    /// sent to the simulator (`sim`: only while recording; a replay already answers what the
    /// fault made the system answer) and takes no request id.
    fn run(mut self, steps: &[Value], sim: Option<&str>) -> Vec<Value> {
        let mut stdin = self.child.stdin.take().expect("stdin");
        let count = steps.iter().filter(|s| s.get("faults").is_none()).count() as u64;
        let mut id: u64 = 0;
        for r in steps {
            if let Some(faults) = r.get("faults") {
                if let Some(url) = sim {
                    put_faults(url, faults);
                }
                continue;
            }
            id += 1;
            let line = json!({"id": id, "cmd": r["cmd"], "args": r["args"]});
            writeln!(stdin, "{line}").expect("write");
            stdin.flush().expect("flush");
            // `until` names the event the request waits for (`stopped`, `listener.conflict`).
            if let Some(event) = r["until"].as_str() {
                self.until(event, |v| v["event"] == event);
            } else {
                self.until("the answer", |v| v["type"] == "response" && v["id"] == id);
            }
        }
        // Every request answered (a run answers when its program ends), then EOF.
        for id in 1..=count {
            if !self
                .seen
                .iter()
                .any(|v| v["type"] == "response" && v["id"] == id)
            {
                self.until("every answer", |v| v["type"] == "response" && v["id"] == id);
            }
        }
        drop(stdin);
        let status = self.child.wait().expect("wait");
        assert!(status.success(), "serve ends cleanly");
        while let Ok(v) = self.lines.recv_timeout(Duration::from_millis(200)) {
            self.seen.push(v);
        }
        self.seen
    }
}

/// What must be equal between the recorded and the replayed session: every line, but what
/// differs from run to run, in a canonical order (lines of different requests may come in
/// either order, as they do from a system).
fn comparable(lines: &[Value]) -> Vec<Value> {
    fn strip(v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut out: serde_json::Map<String, Value> = m
                    .iter()
                    .filter(|(k, _)| {
                        !matches!(k.as_str(), "seq" | "pid" | "url" | "ide_id" | "system")
                    })
                    .map(|(k, x)| (k.clone(), strip(x)))
                    .collect();
                // A terminated program's end names the run it answers only when the run's
                // own answer (the classrun's 500) came before the terminate's: the two race.
                if out.get("reason") == Some(&json!("terminated")) {
                    out.remove("run");
                }
                Value::Object(out)
            }
            Value::Array(a) => Value::Array(a.iter().map(strip).collect()),
            other => other.clone(),
        }
    }
    // The session state on each line says when it was written, which races between
    // requests (a run's answer and the continue that ended its program).
    let mut out: Vec<Value> = lines
        .iter()
        .map(|l| {
            let mut l = strip(l);
            if let Some(m) = l.as_object_mut() {
                m.remove("state");
            }
            l
        })
        .collect();
    out.sort_by_cached_key(Value::to_string);
    out
}

/// Whether `got` says everything `expected` says: the same scalars and array lengths, and
/// every member of an expected object (a member added to the protocol since the recording
/// does not count as a difference; one removed or changed does).
fn covers(got: &Value, expected: &Value) -> bool {
    match (got, expected) {
        (Value::Object(g), Value::Object(e)) => e
            .iter()
            .all(|(k, v)| g.get(k).is_some_and(|gv| covers(gv, v))),
        (Value::Array(g), Value::Array(e)) => {
            g.len() == e.len() && g.iter().zip(e).all(|(a, b)| covers(a, b))
        }
        (g, e) => g == e,
    }
}

/// Pairs every recorded line with a replayed line that covers it; answers the lines left
/// over on each side.
fn pair_up<'a>(got: &'a [Value], expected: &'a [Value]) -> (Vec<&'a Value>, Vec<&'a Value>) {
    let mut used = vec![false; got.len()];
    let mut missing = Vec::new();
    for e in expected {
        match (0..got.len()).find(|&i| !used[i] && covers(&got[i], e)) {
            Some(i) => used[i] = true,
            None => missing.push(e),
        }
    }
    let extra = got
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(g, _)| g)
        .collect();
    (extra, missing)
}

struct Replay {
    child: Child,
    url: String,
}

impl Replay {
    fn start(cassette: &Path) -> Replay {
        let mut child = Command::new(abapdbg_bin())
            .arg("replay")
            .arg(cassette)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start abapdbg replay");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut first)
            .expect("the replay's URL");
        Replay {
            child,
            url: first.trim().to_string(),
        }
    }
}

impl Drop for Replay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("abapdbg-cassette-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

/// `PUT /sim/faults` on the simulator the session is recorded against.
fn put_faults(url: &str, faults: &Value) {
    use std::io::Read;
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let body = faults.to_string();
    let mut stream = std::net::TcpStream::connect(host).expect("connect to the simulator");
    write!(
        stream,
        "PUT /sim/faults HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send the faults");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "faults {body}: {answer}"
    );
}

/// The simulator a script is recorded against: its `programs` (files of this repository)
/// loaded besides the built-in classes.
fn simulator_for(name: &str, script: &Value) -> (Simulator, Option<PathBuf>) {
    let Some(files) = script["programs"].as_array() else {
        return (Simulator::start(), None);
    };
    let dir = scratch(&format!("{name}-programs"));
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    for f in files {
        let rel = f.as_str().expect("a program file");
        let from = root.join(rel);
        let to = dir.join(Path::new(rel).file_name().expect("a file name"));
        std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
    let sim = Simulator::start_with(&["--programs", &dir.display().to_string()]);
    (sim, Some(dir))
}

/// No password, token or cookie value of the session is in the cassette: the Basic
/// credentials of the test user, and every CSRF token and cookie value only as a placeholder.
fn assert_no_secrets(name: &str, text: &str) {
    // DEVELOPER:abap in Basic, and the token and cookie values the simulator hands out.
    assert!(!text.contains("REVWRUxPUEVSOmFiYXA="), "{name}: a password");
    for line in text.lines().skip(1) {
        let e: Value = serde_json::from_str(line).expect("an exchange");
        let auth = e["request_headers"]["authorization"]
            .as_str()
            .unwrap_or("x REDACTED");
        assert!(auth.ends_with(" REDACTED"), "{name}: {auth}");
        for h in ["x-csrf-token"] {
            for side in ["request_headers", "response_headers"] {
                let v = e[side][h].as_str().unwrap_or("Fetch");
                assert!(
                    v.starts_with("REDACTED-")
                        || v.eq_ignore_ascii_case("fetch")
                        || v.eq_ignore_ascii_case("required"),
                    "{name}: a CSRF token {v}"
                );
            }
        }
        for side in ["request_headers", "response_headers"] {
            for key in ["cookie", "set-cookie"] {
                for pair in e[side][key].as_str().unwrap_or("").split(['\n', ';']) {
                    if let Some((n, v)) = pair.trim().split_once('=')
                        && !v.is_empty()
                        && !n.eq_ignore_ascii_case("path")
                        && !n.eq_ignore_ascii_case("sap-usercontext")
                        && !n.eq_ignore_ascii_case("expires")
                    {
                        assert!(v.starts_with("REDACTED-cookie-"), "{name}: cookie {n}={v}");
                    }
                }
            }
        }
    }
}

#[test]
fn every_cassette_replays_to_the_answers_it_was_recorded_with() {
    // `1` records every cassette again, `a,b` only those named.
    let update_list = std::env::var("ABAPDBG_UPDATE_CASSETTES").ok();
    let update_of = |name: &str| match update_list.as_deref() {
        None => false,
        Some("1") => true,
        Some(names) => names.split(',').any(|n| n.trim() == name),
    };
    let mut names: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(corpus()).expect("tests/cassettes") {
        let path = entry.expect("entry").path();
        let file = path
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or_default()
            .to_string();
        if let Some(name) = file.strip_suffix(".script.json") {
            names.push(name.to_string());
        } else if let Some(name) = file.strip_suffix(".jsonl") {
            assert!(
                corpus().join(format!("{name}.script.json")).exists(),
                "the cassette {file} has no script: it would never be replayed"
            );
        }
    }
    names.sort();
    assert!(names.len() >= 2, "the corpus: {names:?}");
    for name in names {
        let script: Value = serde_json::from_str(
            &std::fs::read_to_string(corpus().join(format!("{name}.script.json"))).expect("script"),
        )
        .expect("script JSON");
        let requests = script["requests"].as_array().expect("requests").clone();
        let cassette = corpus().join(format!("{name}.jsonl"));
        let answers = corpus().join(format!("{name}.answers.json"));
        if update_of(&name) {
            let (sim, programs) = simulator_for(&name, &script);
            let dir = scratch(&name);
            let _ = std::fs::remove_file(&cassette);
            let lines =
                Serve::start(&sim.url, &dir, Some(&cassette)).run(&requests, Some(&sim.url));
            let text = serde_json::to_string_pretty(&comparable(&lines)).expect("json");
            std::fs::write(&answers, text + "\n").expect("write answers");
            let _ = std::fs::remove_dir_all(&dir);
            if let Some(p) = programs {
                let _ = std::fs::remove_dir_all(p);
            }
        }
        assert_no_secrets(
            &name,
            &std::fs::read_to_string(&cassette).expect("the cassette"),
        );
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(&answers)
                .unwrap_or_else(|e| panic!("{}: {e}", answers.display())),
        )
        .expect("answers JSON");
        let replay = Replay::start(&cassette);
        let dir = scratch(&name);
        let lines = Serve::start(&replay.url, &dir, None).run(&requests, None);
        let unmatched: Value =
            serde_json::from_str(&e2e::http_get(&replay.url, "/replay/unmatched"))
                .expect("unmatched JSON");
        assert_eq!(
            unmatched,
            json!([]),
            "{name}: requests the cassette does not answer"
        );
        let got = comparable(&lines);
        let expected = expected.as_array().cloned().unwrap_or_default();
        let (only_got, only_expected) = pair_up(&got, &expected);
        // As JSON: the lines of a new cassette's answers are taken from here (docs/cassettes.md).
        let pretty = |v: &Vec<&Value>| serde_json::to_string_pretty(v).unwrap_or_default();
        assert!(
            only_got.is_empty() && only_expected.is_empty(),
            "{name}: the replayed session answered otherwise than the recorded one\n\
             only in the replay: {}\nonly in the recording: {}",
            pretty(&only_got),
            pretty(&only_expected)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The captures of real systems (tests/cassettes/real, read value by value in
/// crates/engine/src/real_captures.rs): no secret in them, and `abapdbg replay` serves each
/// with every exchange on offer.
#[test]
fn the_real_captures_hold_no_secret_and_replay_serves_them() {
    let real = corpus().join("real");
    let mut seen = 0;
    for entry in std::fs::read_dir(&real).expect("tests/cassettes/real") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
            continue;
        }
        seen += 1;
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).expect("the cassette");
        assert_no_secrets(&name, &text);
        let exchanges = text.lines().skip(1).count();
        let replay = Replay::start(&path);
        let left: Value =
            serde_json::from_str(&e2e::http_get(&replay.url, "/replay/left")).expect("left JSON");
        assert_eq!(
            left.as_array().map(Vec::len),
            Some(exchanges),
            "{name}: the replay offers every exchange: {left}"
        );
    }
    assert!(seen >= 2, "the real captures: {seen}");
}
