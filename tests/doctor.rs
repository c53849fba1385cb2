//! `abapdbg doctor` against the simulator: every step passes on a system that works; each
//! failure stops at the right step with its code and the CLI's exit code; what it records
//! holds no secret and replays to the same verdict.

use std::process::Command;

use e2e::{Simulator, abapdbg_bin};
use serde_json::Value;

const STEPS: &[&str] = &[
    "config",
    "resolve",
    "connect",
    "logon",
    "csrf",
    "stateful",
    "discovery",
    "listener",
    "breakpoint",
    "batch",
    "round_trip",
];

/// `abapdbg doctor --json` against `url` with this password: exit code and the report.
fn doctor(url: &str, password: &str, extra: &[&str]) -> (Option<i32>, Value) {
    run_json(&["doctor", "--json"], url, password, extra)
}

/// `command` (doctor or its alias) against `url`: exit code and the report.
fn run_json(command: &[&str], url: &str, password: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let dir = std::env::temp_dir().join(format!("abapdbg-doctor-{}", std::process::id()));
    let out = Command::new(abapdbg_bin())
        .args(command)
        .args(extra)
        .env("ABAPDBG_URL", url)
        .env("ABAPDBG_USER", "DEVELOPER")
        .env("ABAPDBG_PASSWORD", password)
        .env("ABAPDBG_CLIENT", "001")
        .env("ABAPDBG_STATE_DIR", dir.join("state"))
        .env("ABAPDBG_RUNTIME_DIR", dir.join("run"))
        .env_remove("ABAPDBG_PROFILE")
        .env_remove("ABAPDBG_RECORD")
        .output()
        .expect("run doctor");
    let text = String::from_utf8_lossy(&out.stdout);
    let report: Value =
        serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("doctor --json: {e}: {text}"));
    let names: Vec<&str> = report["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|s| s["name"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(names, STEPS, "every step named, in order: {report}");
    (out.status.code(), report)
}

fn step<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["steps"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["name"] == name))
        .expect("the step")
}

/// The first failed step's name, and that every step after it was skipped.
fn stopped_at(report: &Value) -> &str {
    let steps = report["steps"].as_array().expect("steps");
    let i = steps
        .iter()
        .position(|s| s["ok"] == false)
        .unwrap_or_else(|| panic!("no step failed: {report}"));
    for s in &steps[i + 1..] {
        assert_eq!(
            s["skipped"], true,
            "after a stop, the rest is skipped: {report}"
        );
    }
    steps[i]["name"].as_str().unwrap_or_default()
}

#[test]
fn a_working_system_passes_every_step_and_each_failure_stops_at_its_step() {
    let sim = Simulator::start();
    let (code, report) = doctor(&sim.url, "abap", &["--object", "ZCL_ABAPDBG_DEMO"]);
    assert_eq!(code, Some(0), "{report}");
    assert_eq!(report["ok"], true);
    for s in report["steps"].as_array().expect("steps") {
        assert_eq!(s["ok"], true, "{s}");
        assert!(
            s.get("skipped").is_none(),
            "nothing skipped on a working system: {s}"
        );
        assert!(s["ms"].is_u64(), "{s}");
    }
    assert!(
        step(&report, "batch")["message"]
            .as_str()
            .unwrap_or_default()
            .contains("answers"),
        "{report}"
    );
    // The discovery step says the release and what the system offers.
    let discovery = step(&report, "discovery");
    assert_eq!(discovery["release"], "758", "{discovery}");
    assert_eq!(
        discovery["capabilities"],
        serde_json::json!({"batch": true, "watchpoints": true, "settings": true,
            "dumps": true, "abap_unit": true, "classrun": true}),
        "{discovery}"
    );
    // Nothing left behind on the system: no listener, no breakpoint.
    let state = e2e::sim_state(&sim.url);
    assert_eq!(state["listeners"], serde_json::json!([]), "{state}");
    assert_eq!(state["breakpoints"], serde_json::json!({}), "{state}");

    // A wrong password: the logon step, auth, exit 5.
    let (code, report) = doctor(&sim.url, "wrong", &[]);
    assert_eq!(code, Some(5), "{report}");
    assert_eq!(stopped_at(&report), "logon");
    assert_eq!(step(&report, "logon")["code"], "auth.failed");
    assert!(step(&report, "logon")["hint"].is_string());

    // Nothing listens at the port: the connect step, transport, exit 4.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("port");
    let port = closed.local_addr().expect("addr").port();
    drop(closed);
    let (code, report) = doctor(&format!("http://127.0.0.1:{port}"), "abap", &[]);
    assert_eq!(code, Some(4), "{report}");
    assert_eq!(stopped_at(&report), "connect");
    assert_eq!(step(&report, "connect")["code"], "transport.unreachable");

    // A host that does not resolve: the resolve step.
    let (code, report) = doctor("http://no-such-host.invalid:8000", "abap", &[]);
    assert_eq!(code, Some(4), "{report}");
    assert_eq!(stopped_at(&report), "resolve");
}

#[test]
fn another_debuggers_listener_is_named_and_the_rest_still_runs() {
    let sim = Simulator::start_with(&["--foreign-listener", "DEVELOPER"]);
    let (code, report) = doctor(&sim.url, "abap", &["--object", "ZCL_ABAPDBG_DEMO"]);
    assert_eq!(code, Some(4), "{report}");
    let listener = step(&report, "listener");
    assert_eq!(listener["ok"], false, "{report}");
    assert_eq!(listener["code"], "conflict.listener");
    // A conflict does not make the rest impossible.
    assert_eq!(step(&report, "breakpoint")["ok"], true, "{report}");
    assert!(step(&report, "round_trip").get("skipped").is_none());
}

#[test]
fn what_doctor_records_holds_no_secret_and_replays_to_the_same_verdict() {
    let sim = Simulator::start();
    let dir = std::env::temp_dir().join(format!("abapdbg-doctor-rec-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let cassette = dir.join("doctor.jsonl");
    let path = cassette.display().to_string();
    let (code, report) = doctor(
        &sim.url,
        "abap",
        &["--object", "ZCL_ABAPDBG_DEMO", "--record", &path],
    );
    assert_eq!(code, Some(0), "{report}");
    let text = std::fs::read_to_string(&cassette).expect("the cassette");
    // DEVELOPER:abap as Basic credentials.
    assert!(
        !text.contains("REVWRUxPUEVSOmFiYXA="),
        "the password is in the cassette"
    );
    assert!(text.contains("Basic REDACTED"));
    let mut replay = Command::new(abapdbg_bin())
        .arg("replay")
        .arg(&cassette)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("replay");
    let mut url = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(replay.stdout.take().expect("stdout")),
        &mut url,
    )
    .expect("the replay's URL");
    // Another password: a replay takes any credentials, and none is in the file.
    let (code, again) = doctor(url.trim(), "other", &["--object", "ZCL_ABAPDBG_DEMO"]);
    let _ = replay.kill();
    let _ = replay.wait();
    assert_eq!(code, Some(0), "{again}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `PUT /sim/faults`.
fn faults(sim: &Simulator, body: Value) {
    use std::io::{Read, Write};
    let host = sim.url.trim_start_matches("http://").to_string();
    let body = body.to_string();
    let mut stream = std::net::TcpStream::connect(&host).expect("connect to the simulator");
    write!(
        stream,
        "PUT /sim/faults HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "faults refused: {answer}"
    );
}

#[test]
fn config_check_is_doctor_with_its_steps_json_and_exit_codes() {
    let sim = Simulator::start();
    let (code, report) = run_json(&["config", "check", "--json"], &sim.url, "abap", &[]);
    assert_eq!(code, Some(0), "{report}");
    assert_eq!(report["ok"], true, "{report}");
    assert_eq!(step(&report, "discovery")["release"], "758", "{report}");
    let (code, report) = run_json(&["config", "check", "--json"], &sim.url, "wrong", &[]);
    assert_eq!(code, Some(5), "{report}");
    assert_eq!(stopped_at(&report), "logon");
    // Without --json: doctor's lines.
    let out = Command::new(abapdbg_bin())
        .args(["config", "check"])
        .env("ABAPDBG_URL", &sim.url)
        .env("ABAPDBG_USER", "DEVELOPER")
        .env("ABAPDBG_PASSWORD", "abap")
        .env("ABAPDBG_CLIENT", "001")
        .env_remove("ABAPDBG_PROFILE")
        .output()
        .expect("config check");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("✔ discovery"), "{text}");
    assert!(text.contains("release 758"), "{text}");
}

#[test]
fn what_the_system_does_not_list_is_reported_by_the_discovery_step() {
    let sim = Simulator::start();
    faults(
        &sim,
        serde_json::json!({"discoveryWithout": ["/sap/bc/adt/debugger/watchpoints", "/sap/bc/adt/runtime/dumps"]}),
    );
    let (code, report) = doctor(&sim.url, "abap", &["--object", "ZCL_ABAPDBG_DEMO"]);
    assert_eq!(code, Some(0), "still a working debugger: {report}");
    let discovery = step(&report, "discovery");
    assert_eq!(
        discovery["capabilities"]["watchpoints"], false,
        "{discovery}"
    );
    assert_eq!(discovery["capabilities"]["dumps"], false, "{discovery}");
    assert_eq!(discovery["capabilities"]["batch"], true, "{discovery}");
    let message = discovery["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("does not offer watchpoints, dumps"),
        "{discovery}"
    );
}

/// `abapdbg replay CASSETTE`, ended when dropped.
struct Replay {
    child: std::process::Child,
    url: String,
}

impl Replay {
    fn start(cassette: &std::path::Path) -> Replay {
        let mut child = Command::new(abapdbg_bin())
            .arg("replay")
            .arg(cassette)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start abapdbg replay");
        let mut url = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().expect("stdout")),
            &mut url,
        )
        .expect("the replay's URL");
        Replay {
            child,
            url: url.trim().to_string(),
        }
    }
}

impl Drop for Replay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The real captures (tests/cassettes/real/) hold debugger exchanges only: no CSRF fetch, no
/// discovery, no listener or breakpoint of doctor's. Against a replay of each, doctor passes
/// the logon, the CSRF fetch and the stateful logon (the replay answers those itself when
/// nothing recorded them), and the discovery document is the first request the capture did
/// not record: it stops there saying the replay did not answer that request, not that the
/// system lacks a service, and exits with the code of the `adt` family (4).
#[test]
fn against_a_replay_of_each_real_capture_doctor_stops_at_what_the_capture_lacks() {
    let real = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cassettes/real");
    // Each cassette, with the object its breakpoints name (for the breakpoint step).
    let captures = [
        ("a4h-stop-vars-terminate.jsonl", "ZMCP_DBG_DEMO"),
        ("a4h-refusals.jsonl", "ZMCP_DBG_DEMO"),
        ("s4h758-breakpoints-stack-end.jsonl", "ZCL_CV_DBG_MEASURE"),
    ];
    let mut listed: Vec<String> = std::fs::read_dir(&real)
        .expect("tests/cassettes/real")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".jsonl"))
        .collect();
    listed.sort();
    let mut named: Vec<String> = captures.iter().map(|(c, _)| c.to_string()).collect();
    named.sort();
    assert_eq!(listed, named, "every real capture is checked here");
    for (cassette, object) in captures {
        let replay = Replay::start(&real.join(cassette));
        let (code, report) = doctor(&replay.url, "any", &["--object", object]);
        assert_eq!(code, Some(4), "{cassette}: {report}");
        assert_eq!(report["ok"], false, "{cassette}: {report}");
        for passed in ["config", "resolve", "connect", "logon", "csrf", "stateful"] {
            let s = step(&report, passed);
            assert_eq!(s["ok"], true, "{cassette}: {s}");
            assert!(s.get("skipped").is_none(), "{cassette}: {s}");
        }
        assert!(
            step(&report, "connect")["message"]
                .as_str()
                .unwrap_or_default()
                .contains("plain HTTP"),
            "{cassette}: {report}"
        );
        // The replay answered the logon and the CSRF fetches itself (none was recorded); the
        // stateful logon got no user context, as the capture names one only at the attach.
        assert!(
            step(&report, "stateful")["message"]
                .as_str()
                .unwrap_or_default()
                .contains("no user context yet"),
            "{cassette}: {report}"
        );
        assert_eq!(stopped_at(&report), "discovery", "{cassette}: {report}");
        let discovery = step(&report, "discovery");
        assert_eq!(
            discovery["code"], "adt.unexpected_response",
            "{cassette}: {discovery}"
        );
        let message = discovery["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with(
                "reading the discovery document: the system is a replay and did not answer GET /sap/bc/adt/discovery"
            ),
            "{cassette}: {discovery}"
        );
        assert!(
            discovery["hint"]
                .as_str()
                .unwrap_or_default()
                .contains("doctor --record"),
            "{cassette}: {discovery}"
        );
        // The replay's own account: that read, and nothing after it.
        let unmatched: Value =
            serde_json::from_str(&e2e::http_get(&replay.url, "/replay/unmatched"))
                .expect("unmatched is JSON");
        let unmatched = unmatched.as_array().expect("a list");
        assert_eq!(unmatched.len(), 1, "{cassette}: {unmatched:?}");
        assert_eq!(unmatched[0]["method"], "GET", "{cassette}: {unmatched:?}");
        assert_eq!(
            unmatched[0]["target"], "/sap/bc/adt/discovery",
            "{cassette}: {unmatched:?}"
        );
    }
}
