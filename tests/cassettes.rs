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

    /// Runs the script; answers every line `serve` wrote, in order.
    fn run(mut self, requests: &[Value]) -> Vec<Value> {
        let mut stdin = self.child.stdin.take().expect("stdin");
        for (i, r) in requests.iter().enumerate() {
            let id = i as u64 + 1;
            let line = json!({"id": id, "cmd": r["cmd"], "args": r["args"]});
            writeln!(stdin, "{line}").expect("write");
            stdin.flush().expect("flush");
            if r["until"] == "stopped" {
                self.until("a stop", |v| v["event"] == "stopped");
            } else {
                self.until("the answer", |v| v["type"] == "response" && v["id"] == id);
            }
        }
        // Every request answered (a run answers when its program ends), then EOF.
        for id in 1..=requests.len() as u64 {
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
            Value::Object(m) => Value::Object(
                m.iter()
                    .filter(|(k, _)| {
                        !matches!(k.as_str(), "seq" | "pid" | "url" | "ide_id" | "system")
                    })
                    .map(|(k, x)| (k.clone(), strip(x)))
                    .collect(),
            ),
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

#[test]
fn every_cassette_replays_to_the_answers_it_was_recorded_with() {
    let update = std::env::var_os("ABAPDBG_UPDATE_CASSETTES").is_some();
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
        let no_secrets = |text: &str| {
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
                                assert!(
                                    v.starts_with("REDACTED-cookie-"),
                                    "{name}: cookie {n}={v}"
                                );
                            }
                        }
                    }
                }
            }
        };
        if update {
            let sim = Simulator::start();
            let dir = scratch(&name);
            let _ = std::fs::remove_file(&cassette);
            let lines = Serve::start(&sim.url, &dir, Some(&cassette)).run(&requests);
            let text = serde_json::to_string_pretty(&comparable(&lines)).expect("json");
            std::fs::write(&answers, text + "\n").expect("write answers");
            let _ = std::fs::remove_dir_all(&dir);
        }
        no_secrets(&std::fs::read_to_string(&cassette).expect("the cassette"));
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(&answers)
                .unwrap_or_else(|e| panic!("{}: {e}", answers.display())),
        )
        .expect("answers JSON");
        let replay = Replay::start(&cassette);
        let dir = scratch(&name);
        let lines = Serve::start(&replay.url, &dir, None).run(&requests);
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
        let only_got: Vec<&Value> = got.iter().filter(|v| !expected.contains(v)).collect();
        let only_expected: Vec<&Value> = expected.iter().filter(|v| !got.contains(v)).collect();
        assert!(
            only_got.is_empty() && only_expected.is_empty() && got.len() == expected.len(),
            "{name}: the replayed session answered otherwise than the recorded one\n\
             only in the replay: {only_got:#?}\nonly in the recording: {only_expected:#?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
