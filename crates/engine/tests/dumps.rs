//! From "it dumped" to "stopped right before it dumps": a class that divides by zero is run,
//! its dump listed and read (termination line and exception right), `dump.catch` turns it into
//! breakpoints, the next run stops before the failing statement with the variables that make
//! it fail, and a step into that statement ends the program with a new dump. A dump of another
//! user is not caught for ours unless asked; caught for that user, that user's next run stops
//! for us (a listener of ours for that user), ours does not, and the session's end lets go of
//! that user's listener and breakpoints.

use crate::common;

use common::{start_with, var};
use serde_json::{Value, json};

const CLASS: &str = "ZCL_SMP_DUMP_ZERODIV";

fn samples() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../sim/tests/fixtures/dumps")
}

fn line_of(file: &str, text: &str) -> u32 {
    let source = std::fs::read_to_string(samples().join(file)).expect("sample");
    source
        .lines()
        .position(|l| l.contains(text))
        .map(|i| i as u32 + 1)
        .expect("the text is in the sample")
}

fn dumps_of(result: &Value) -> Vec<Value> {
    result["dumps"].as_array().cloned().unwrap_or_default()
}

/// A classrun of `CLASS` by `user` on a session of its own (not ours).
async fn run_as(sim: &sim::SimHandle, user: &str) -> Result<String, adt::AdtError> {
    let config = adt::Config {
        user: user.into(),
        ..common::adt_config(sim)
    };
    let client = adt::Client::new(&config, adt::SessionMode::Stateless).expect("client");
    client.classrun(CLASS).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dump_is_listed_read_and_caught_before_it_happens_again() {
    let sim = sim::start(sim::SimConfig {
        program_dirs: vec![samples()],
        users: vec![
            ("DEVELOPER".into(), "abap".into()),
            ("TESTER".into(), "abap".into()),
        ],
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    let line = line_of("zcl_smp_dump_zerodiv.clas.abap", "lv_rest / iv_parts");

    assert!(dumps_of(&h.ok("dumps", json!({})).await).is_empty());
    let r = h.call("run", json!({"class": CLASS})).await;
    assert_eq!(r["error"]["code"], "run.failed", "{r}");

    // Listed: the termination point and the exception.
    let listed = dumps_of(&h.ok("dumps", json!({})).await);
    assert_eq!(listed.len(), 1, "{listed:?}");
    let d = &listed[0];
    assert_eq!(d["runtime_error"], "COMPUTE_INT_ZERODIVIDE", "{d}");
    assert_eq!(d["exception"], "CX_SY_ZERODIVIDE", "{d}");
    assert_eq!(d["user"], "DEVELOPER");
    assert_eq!(d["program"], "ZCL_SMP_DUMP_ZERODIV==========CP");
    assert_eq!(d["line"], line, "{d}");
    assert_eq!(d["file"], "zcl_smp_dump_zerodiv.clas.abap");
    assert!(
        d["include"]
            .as_str()
            .is_some_and(|i| i.starts_with("ZCL_SMP_DUMP_ZERODIV==========CM")),
        "{d}"
    );
    let time = d["time"].as_str().unwrap_or_default();
    assert!(time.len() == 20 && time.ends_with('Z'), "{d}");
    assert!(!d["short_text"].as_str().unwrap_or_default().is_empty());
    let id = d["id"].as_str().expect("id").to_string();

    // Filters, sent and applied again here.
    for (args, expected) in [
        (json!({"error": "CX_SY_ZERODIVIDE"}), 1),
        (json!({"error": "COMPUTE_INT_ZERODIVIDE"}), 1),
        (json!({"error": "ASSERTION_FAILED"}), 0),
        (json!({"since": "1h"}), 1),
        (json!({"until": "2000-01-01"}), 0),
        (json!({"program": CLASS}), 1),
        (json!({"program": "ZCL_ABAPDBG_DEMO"}), 0),
        (json!({"user": "TESTER"}), 0),
    ] {
        let got = dumps_of(&h.ok("dumps", args.clone()).await);
        assert_eq!(got.len(), expected, "{args}: {got:?}");
    }
    let bad = h.call("dumps", json!({"since": "yesterday"})).await;
    assert_eq!(bad["error"]["code"], "protocol.invalid_args", "{bad}");

    // Read: chapters, the stack innermost first, the chosen variables, the source marked.
    let dump = h.ok("dump", json!({"id": id})).await;
    assert_eq!(dump["id"], id.as_str());
    assert_eq!(dump["line"], line);
    assert_eq!(dump["exception"], "CX_SY_ZERODIVIDE");
    let titles: Vec<&str> = dump["chapters"]
        .as_array()
        .expect("chapters")
        .iter()
        .filter_map(|c| c["title"].as_str())
        .collect();
    for t in ["Short Text", "Error analysis", "Active Calls/Events"] {
        assert!(titles.contains(&t), "{t}: {titles:?}");
    }
    let stack = dump["stack"].as_array().expect("stack");
    assert_eq!(stack.len(), 2, "{dump}");
    assert_eq!(stack[0]["method"], "SHARE");
    assert_eq!(stack[0]["line"], line);
    assert_eq!(stack[0]["file"], "zcl_smp_dump_zerodiv.clas.abap");
    assert_eq!(stack[0]["object"], CLASS);
    assert_eq!(stack[1]["method"], "IF_OO_ADT_CLASSRUN~MAIN");
    // The outer frame too has its abapGit file and the line in it (its include is the
    // method's; the file is the class's main source).
    assert_eq!(stack[1]["file"], "zcl_smp_dump_zerodiv.clas.abap", "{dump}");
    assert_eq!(
        stack[1]["line"],
        line_of("zcl_smp_dump_zerodiv.clas.abap", "share( iv_total"),
        "{dump}"
    );
    assert_eq!(stack[1]["object"], CLASS);
    let variables = dump["variables"].as_array().expect("variables");
    let value = |frame: &str, name: &str| {
        variables
            .iter()
            .find(|v| v["frame"].as_str().is_some_and(|f| f.ends_with(frame)) && v["name"] == name)
            .map(|v| v["value"].clone())
    };
    assert_eq!(value("SHARE", "IV_PARTS"), Some(json!("0")), "{dump}");
    assert_eq!(value("SHARE", "LV_REST"), Some(json!("100")), "{dump}");
    let source = dump["source"].as_array().expect("source");
    let current: Vec<&Value> = source.iter().filter(|l| l["current"] == true).collect();
    assert_eq!(current.len(), 1, "{dump}");
    assert_eq!(current[0]["line"], line);
    assert!(
        current[0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("lv_rest / iv_parts"))
    );
    let missing = h.call("dump", json!({"id": "20000101000000nothing"})).await;
    assert_eq!(missing["error"]["code"], "dump.not_found", "{missing}");

    // Another user's dump: listed when asked, not caught for ours unless asked.
    assert!(run_as(&sim, "TESTER").await.is_err(), "the run dies");
    let theirs = dumps_of(&h.ok("dumps", json!({"user": "TESTER"})).await);
    assert_eq!(theirs.len(), 1);
    assert_eq!(theirs[0]["user"], "TESTER");
    assert_eq!(dumps_of(&h.ok("dumps", json!({})).await).len(), 1);
    assert_eq!(
        dumps_of(&h.ok("dumps", json!({"user": "*"})).await).len(),
        2
    );
    assert!(
        h.ok("bp.list", json!({})).await["breakpoints"]
            .as_array()
            .is_some_and(Vec::is_empty)
    );

    // Caught: a line breakpoint at the termination point and an exception breakpoint.
    let caught = h.ok("dump.catch", json!({"id": id})).await;
    assert_eq!(caught["user"], "DEVELOPER");
    let kinds: Vec<&str> = caught["breakpoints"]
        .as_array()
        .expect("breakpoints")
        .iter()
        .filter_map(|b| b["kind"].as_str())
        .collect();
    assert_eq!(kinds, vec!["line", "exception"], "{caught}");
    if caught["armed"] != true {
        h.event("listener.armed").await;
    }
    // Another user's run of the same class is not stopped: the breakpoints are ours.
    assert!(
        run_as(&sim, "TESTER").await.is_err(),
        "TESTER's run dies unstopped"
    );

    // The next run of ours stops before the failing statement.
    let run = h.call_later("run", json!({"class": CLASS})).await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["caught_for_dump"], id.as_str(), "{stop}");
    assert_eq!(stop["body"]["frame"]["line"], line, "{stop}");
    assert_eq!(stop["body"]["frame"]["method"], "SHARE", "{stop}");
    let vars = h.ok("vars", json!({})).await;
    assert_eq!(var(&vars, "IV_PARTS")["value"], "0", "{vars}");
    assert_eq!(var(&vars, "LV_REST")["value"], "100", "{vars}");
    // Stepping into the failing statement ends the program with the same runtime error.
    let step = h.ok("step", json!({"type": "into"})).await;
    let ended = &step["ended"];
    assert_eq!(ended["run"]["error"]["code"], "run.failed", "{step}");
    assert!(
        ended["run"]["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("COMPUTE_INT_ZERODIVIDE")),
        "{step}"
    );
    let out = h.response(&run).await;
    assert_eq!(out["error"]["code"], "run.failed", "{out}");
    let again = dumps_of(&h.ok("dumps", json!({})).await);
    assert_eq!(again.len(), 2, "{again:?}");
    assert_eq!(again[0]["runtime_error"], "COMPUTE_INT_ZERODIVIDE");
    assert_ne!(again[0]["id"], id.as_str(), "a new dump, newest first");

    // Asked: the other user's dump caught in our own runs.
    let ours = h
        .ok(
            "dump.catch",
            json!({"id": theirs[0]["id"], "user": "DEVELOPER"}),
        )
        .await;
    assert_eq!(ours["user"], "DEVELOPER", "{ours}");
    let theirs_id = theirs[0]["id"].as_str().expect("id").to_string();
    // The same places as the catch of our own dump: the same breakpoints, now naming
    // TESTER's dump.
    let ids = |r: &Value| -> Vec<u64> {
        r["breakpoints"]
            .as_array()
            .expect("breakpoints")
            .iter()
            .filter_map(|b| b["id"].as_u64())
            .collect()
    };
    assert_eq!(ids(&ours), ids(&caught), "{ours}");
    let kinds: Vec<&str> = ours["breakpoints"]
        .as_array()
        .expect("breakpoints")
        .iter()
        .filter_map(|b| b["kind"].as_str())
        .collect();
    assert_eq!(kinds, vec!["line", "exception"], "{ours}");
    if ours["armed"] != true {
        h.event("listener.armed").await;
    }
    // They are ours: TESTER's next run still dies unstopped, ours stops before the statement
    // that died in TESTER's run, naming TESTER's dump.
    assert!(
        run_as(&sim, "TESTER").await.is_err(),
        "TESTER's run dies unstopped"
    );
    let run = h.call_later("run", json!({"class": CLASS})).await;
    let stop = h.event("stopped").await;
    assert_eq!(
        stop["body"]["caught_for_dump"],
        theirs_id.as_str(),
        "{stop}"
    );
    assert_eq!(stop["body"]["frame"]["line"], line, "{stop}");
    h.ok("terminate", json!({})).await;
    let out = h.response(&run).await;
    assert!(out["error"].is_object(), "{out}");
    h.finish(task).await;
    sim.shutdown().await;
}

fn state(sim: &sim::SimHandle) -> Value {
    serde_json::from_str(&sim.state_json()).expect("state is JSON")
}

/// Whether the simulator holds a listener of `user` / external breakpoints of `user`.
fn holds(sim: &sim::SimHandle, user: &str) -> (bool, usize) {
    let s = state(sim);
    let listening = s["listeners"]
        .as_array()
        .is_some_and(|l| l.iter().any(|x| x["user"] == user));
    let bps = s["breakpoints"][user].as_array().map_or(0, Vec::len);
    (listening, bps)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_users_dump_is_caught_in_that_users_next_run() {
    let sim = sim::start(sim::SimConfig {
        program_dirs: vec![samples()],
        users: vec![
            ("DEVELOPER".into(), "abap".into()),
            ("TESTER".into(), "abap".into()),
        ],
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    let line = line_of("zcl_smp_dump_zerodiv.clas.abap", "lv_rest / iv_parts");

    // TESTER's run dies; we list TESTER's dump and catch it for TESTER.
    assert!(run_as(&sim, "TESTER").await.is_err(), "the run dies");
    let theirs = dumps_of(&h.ok("dumps", json!({"user": "TESTER"})).await);
    assert_eq!(theirs.len(), 1, "{theirs:?}");
    let id = theirs[0]["id"].as_str().expect("id").to_string();
    let caught = h.ok("dump.catch", json!({"id": id})).await;
    assert_eq!(caught["user"], "TESTER", "{caught}");
    assert_eq!(caught["armed"], true, "{caught}");
    let bps = caught["breakpoints"].as_array().expect("breakpoints");
    assert_eq!(bps.len(), 2, "{caught}");
    for b in bps {
        assert_eq!(b["user"], "TESTER", "{b}");
        assert_eq!(b["status"], "verified", "{b}");
    }
    let listed = h.ok("bp.list", json!({})).await;
    assert!(
        listed["breakpoints"]
            .as_array()
            .is_some_and(|l| l.len() == 2 && l.iter().all(|b| b["user"] == "TESTER")),
        "{listed}"
    );
    let status = h.ok("status", json!({})).await;
    assert_eq!(
        status["listener"]["other_users"],
        json!([{"user": "TESTER", "armed": true}]),
        "{status}"
    );
    // On the system: a listener for TESTER with our ids, and TESTER's breakpoints; none of ours.
    assert_eq!(holds(&sim, "TESTER"), (true, 2), "{}", state(&sim));
    assert_eq!(holds(&sim, "DEVELOPER"), (false, 0), "{}", state(&sim));

    // Not caught for ours unless asked: our run of the same class dies unstopped.
    let ours = h.call("run", json!({"class": CLASS})).await;
    assert_eq!(ours["error"]["code"], "run.failed", "{ours}");

    // TESTER's next run stops for us, before the failing statement.
    let config = adt::Config {
        user: "TESTER".into(),
        ..common::adt_config(&sim)
    };
    let theirs_run = tokio::spawn(async move {
        let client = adt::Client::new(&config, adt::SessionMode::Stateless).expect("client");
        client.classrun(CLASS).await
    });
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["caught_for_dump"], id.as_str(), "{stop}");
    assert_eq!(stop["body"]["frame"]["line"], line, "{stop}");
    assert_eq!(stop["body"]["frame"]["method"], "SHARE", "{stop}");
    let status = h.ok("status", json!({})).await;
    assert_eq!(status["debuggee"]["user"], "TESTER", "{status}");
    let vars = h.ok("vars", json!({})).await;
    assert_eq!(var(&vars, "IV_PARTS")["value"], "0", "{vars}");
    assert_eq!(var(&vars, "LV_REST")["value"], "100", "{vars}");
    // Continued: it runs on into the division and dies as before.
    let last = h.ok("step", json!({"type": "continue"})).await;
    assert!(last["ended"].is_object(), "{last}");
    let out = theirs_run.await.expect("join");
    assert!(out.is_err(), "TESTER's run dies after the stop: {out:?}");

    // Deleting the catch's breakpoints lets go of TESTER's listener.
    let ids: Vec<u64> = bps.iter().filter_map(|b| b["id"].as_u64()).collect();
    h.ok("bp.delete", json!({"ids": ids})).await;
    assert_eq!(holds(&sim, "TESTER"), (false, 0), "{}", state(&sim));
    let status = h.ok("status", json!({})).await;
    assert!(status["listener"].get("other_users").is_none(), "{status}");

    // Caught again and TESTER's run stopped: the session's end releases the program and
    // deletes TESTER's listener and breakpoints.
    h.ok("dump.catch", json!({"id": id})).await;
    assert_eq!(holds(&sim, "TESTER"), (true, 2), "{}", state(&sim));
    let config = adt::Config {
        user: "TESTER".into(),
        ..common::adt_config(&sim)
    };
    let held_run = tokio::spawn(async move {
        let client = adt::Client::new(&config, adt::SessionMode::Stateless).expect("client");
        client.classrun(CLASS).await
    });
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["caught_for_dump"], id.as_str(), "{stop}");
    let receipt = h.finish(task).await;
    assert!(receipt.errors.is_empty(), "{receipt:?}");
    assert_eq!(receipt.debuggees.len(), 1, "{receipt:?}");
    assert!(held_run.await.expect("join").is_err(), "released, it dies");
    assert_eq!(holds(&sim, "TESTER"), (false, 0), "{}", state(&sim));
    sim.shutdown().await;
}

/// A session killed while it holds TESTER's listener and breakpoints: the next start releases
/// them from the state file, on TESTER's identity with our ids.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_next_start_releases_another_users_catch_a_killed_session_held() {
    let sim = sim::start(sim::SimConfig {
        program_dirs: vec![samples()],
        users: vec![
            ("DEVELOPER".into(), "abap".into()),
            ("TESTER".into(), "abap".into()),
        ],
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim");
    let dir = std::env::temp_dir().join(format!("abapdbg-dumpuser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("session.json");
    // A runtime of its own: shutting it down stops every task of the session, as SIGKILL would.
    let doomed = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let file = path.clone();
    let (mut h, task) = {
        let _on = doomed.enter();
        start_with(&sim, move |c| c.state_file = Some(file))
    };
    assert!(run_as(&sim, "TESTER").await.is_err(), "the run dies");
    let theirs = dumps_of(&h.ok("dumps", json!({"user": "TESTER"})).await);
    let id = theirs[0]["id"].as_str().expect("id").to_string();
    h.ok("dump.catch", json!({"id": id})).await;
    assert_eq!(holds(&sim, "TESTER"), (true, 2), "{}", state(&sim));
    let mut recorded = Value::Null;
    // Up to 30 s, ended as soon as it holds: the record is written as things change.
    for _ in 0..1500 {
        if let Ok(text) = std::fs::read_to_string(&path) {
            recorded = serde_json::from_str(&text).unwrap_or(Value::Null);
            if recorded["others"][0]["unscoped_server_ids"]
                .as_array()
                .is_some_and(|t| t.len() == 1)
            {
                break;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let other = &recorded["others"][0];
    assert_eq!(other["user"], "TESTER", "{recorded}");
    assert_eq!(other["listener"], true, "{recorded}");
    assert_eq!(other["line_uris"].as_array().map(Vec::len), Some(1));

    drop(task);
    doomed.shutdown_background();
    drop(h);
    // The owner is dead (a pid that no longer runs): the next start releases what it held.
    let mut child = std::process::Command::new("true").spawn().expect("spawn");
    recorded["pid"] = child.id().into();
    child.wait().expect("wait");
    std::fs::write(&path, recorded.to_string()).expect("rewrite");
    let file = path.clone();
    let (mut h2, second) = start_with(&sim, move |c| c.state_file = Some(file));
    let released = h2.event("orphan.released").await;
    assert_eq!(released["body"]["errors"], json!([]), "{released}");
    assert_eq!(released["body"]["breakpoint_groups"], 2, "{released}");
    assert_eq!(holds(&sim, "TESTER"), (false, 0), "{}", state(&sim));
    h2.finish(second).await;
    let _ = std::fs::remove_dir_all(&dir);
    sim.shutdown().await;
}
