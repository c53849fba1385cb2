//! Discovery (issue 28): what the system lists decides what the session offers, is carried
//! in `hello` and `status`, is cached per system, and a system may refuse a read of a scope a
//! stop does not have without failing the stop.

use crate::common;

use common::{DEMO, Harness, OUTPUT, start_with, var};
use serde_json::{Value, json};

fn sim_config(faults: sim::Faults) -> sim::SimConfig {
    sim::SimConfig {
        faults,
        ..Default::default()
    }
}

fn without(hrefs: &[&str]) -> sim::Faults {
    sim::Faults {
        discovery_without: hrefs.iter().map(|h| h.to_string()).collect(),
        ..Default::default()
    }
}

fn discovery_reads(sim: &sim::SimHandle) -> usize {
    sim.request_log()
        .iter()
        .filter(|r| r.path.starts_with("/sap/bc/adt/discovery"))
        .count()
}

async fn stopped_at(h: &mut Harness, line: u64) -> Value {
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], line, "{stop}");
    stop
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hello_and_status_carry_the_release_and_what_the_system_offers_cached_per_system() {
    use std::os::unix::fs::PermissionsExt;
    let state = tempfile::tempdir().expect("tmp");
    let cache = state.path().join("abapdbg");
    let sim = sim::start(sim_config(without(&["/sap/bc/adt/debugger/watchpoints"])))
        .await
        .expect("sim");

    let dir = cache.clone();
    let (mut h, task) = start_with(&sim, move |c| c.discovery_cache = Some(dir));
    let hello = h.ok("hello", json!({})).await;
    let system = &hello["system"];
    assert_eq!(system["release"], "758", "{system}");
    let want = json!({"batch": true, "watchpoints": false, "settings": true,
        "dumps": true, "abap_unit": true, "classrun": true});
    assert_eq!(system["capabilities"], want, "{system}");
    let status = h.ok("status", json!({})).await;
    assert_eq!(status["system"]["release"], "758");
    assert_eq!(status["system"]["capabilities"], want);
    assert_eq!(discovery_reads(&sim), 1, "read once");
    h.finish(task).await;

    // One file of ours per system: 0600 in a 0700 directory.
    let files: Vec<_> = std::fs::read_dir(&cache)
        .expect("cache dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let mode =
        |p: &std::path::Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode(&files[0]), 0o600);
    assert_eq!(mode(&cache), 0o700);

    // The next session of the same system reads the cache, not the system.
    sim.clear_request_log();
    let dir = cache.clone();
    let (mut h, task) = start_with(&sim, move |c| c.discovery_cache = Some(dir));
    let hello = h.ok("hello", json!({})).await;
    assert_eq!(hello["system"]["capabilities"], want);
    assert_eq!(discovery_reads(&sim), 0, "answered from the cache");
    h.finish(task).await;

    // Asked to refresh, it reads the system again (which now lists watchpoints).
    sim.clear_request_log();
    sim_faults_clear(&sim).await;
    let dir = cache.clone();
    let (mut h, task) = start_with(&sim, move |c| {
        c.discovery_cache = Some(dir);
        c.refresh_discovery = true;
    });
    let hello = h.ok("hello", json!({})).await;
    assert_eq!(hello["system"]["capabilities"]["watchpoints"], true);
    assert_eq!(discovery_reads(&sim), 1);
    h.finish(task).await;

    // A link where the cache file is is never followed: the target stays as it was.
    let target = state.path().join("precious");
    std::fs::write(&target, "keep").expect("w");
    std::fs::remove_file(&files[0]).expect("rm");
    std::os::unix::fs::symlink(&target, &files[0]).expect("ln");
    let dir = cache.clone();
    let (mut h, task) = start_with(&sim, move |c| c.discovery_cache = Some(dir));
    assert_eq!(h.ok("hello", json!({})).await["system"]["release"], "758");
    h.finish(task).await;
    assert_eq!(std::fs::read_to_string(&target).expect("r"), "keep");
    assert!(
        !std::fs::symlink_metadata(&files[0])
            .expect("meta")
            .file_type()
            .is_symlink(),
        "the link was replaced by a file of ours"
    );
    sim.shutdown().await;
}

/// `DELETE /sim/faults`, through the admin API as another tool would.
async fn sim_faults_clear(sim: &sim::SimHandle) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = sim.base_url().trim_start_matches("http://").to_string();
    let mut s = tokio::net::TcpStream::connect(&host)
        .await
        .expect("connect");
    s.write_all(
        format!("DELETE /sim/faults HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    )
    .await
    .expect("send");
    let mut answer = String::new();
    s.read_to_string(&mut answer).await.expect("read");
    assert!(answer.starts_with("HTTP/1.1 2"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_system_does_not_list_is_refused_before_anything_is_sent() {
    let sim = sim::start(sim_config(without(&[
        "/sap/bc/adt/debugger/watchpoints",
        "/sap/bc/adt/runtime/dumps",
        "/sap/bc/adt/abapunit/testruns",
        "/sap/bc/adt/oo/classrun",
        "/sap/bc/adt/debugger",
    ])))
    .await
    .expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    let hello = h.ok("hello", json!({})).await;
    assert_eq!(
        hello["system"]["capabilities"],
        json!({"batch": true, "watchpoints": false, "settings": false,
            "dumps": false, "abap_unit": false, "classrun": false})
    );
    sim.clear_request_log();
    let refused = [
        ("watch.set", json!({"variable": "LV_X"})),
        ("watch.list", json!({})),
        ("dumps", json!({})),
        ("dump", json!({"id": "ABC"})),
        ("test", json!({"class": DEMO})),
        ("run", json!({"class": DEMO})),
        ("configure", json!({"settings": {"system_debugging": true}})),
    ];
    for (cmd, args) in refused {
        let r = h.call(cmd, args).await;
        assert_eq!(r["ok"], false, "{cmd}: {r}");
        assert_eq!(r["error"]["code"], "adt.not_supported", "{cmd}: {r}");
        assert!(
            r["error"]["hint"]
                .as_str()
                .is_some_and(|h| h.contains("doctor")),
            "{cmd}: {r}"
        );
        assert_eq!(r["error"]["retryable"], false);
    }
    let sent: Vec<String> = sim.request_log().iter().map(|r| r.path.clone()).collect();
    assert!(sent.is_empty(), "nothing was sent: {sent:?}");
    // What does not need them goes on.
    h.ok("configure", json!({"max_value_chars": 100})).await;
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_batch_endpoint_every_read_is_one_request_from_the_first_step() {
    let sim = sim::start(sim_config(without(&["/sap/bc/adt/debugger/batch"])))
        .await
        .expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    let hello = h.ok("hello", json!({})).await;
    assert_eq!(hello["system"]["capabilities"]["batch"], false);
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = h.run_demo().await;
    stopped_at(&mut h, 48).await;
    let vars = h.ok("vars", json!({})).await;
    assert_eq!(var(&vars, "IV_QUANTITY")["value"], "1", "{vars}");
    let s = h.ok("step", json!({"type": "over"})).await;
    assert_eq!(s["stop"]["frame"]["line"], 49, "{s}");
    h.ok("vars", json!({})).await;
    h.release().await;
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    let batches: Vec<String> = sim
        .request_log()
        .iter()
        .filter(|r| r.path.starts_with("/sap/bc/adt/debugger/batch"))
        .map(|r| r.path.clone())
        .collect();
    assert!(batches.is_empty(), "no batch was ever tried: {batches:?}");
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_scope_read_degrades_to_what_root_names_and_the_stop_stands() {
    let sim = sim::start(sim_config(sim::Faults {
        refuse_unknown_scopes: true,
        ..Default::default()
    }))
    .await
    .expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = h.run_demo().await;
    stopped_at(&mut h, 48).await;
    let vars = h.ok("vars", json!({})).await;
    assert_eq!(var(&vars, "IV_QUANTITY")["value"], "1", "{vars}");
    assert_eq!(var(&vars, "IV_QUANTITY")["scope"], "Parameters");
    // A batched step asks for the usual scopes too: its variables part is refused, the step
    // is not.
    let s = h.ok("step", json!({"type": "over"})).await;
    assert_eq!(s["stop"]["frame"]["line"], 49, "{s}");
    let moved = h.ok("vars", json!({})).await;
    assert_eq!(var(&moved, "IV_QUANTITY")["value"], "1", "{moved}");
    let refused: Vec<_> = sim
        .request_log()
        .into_iter()
        .filter(|r| r.path.contains("getChildVariables") && r.status == 400)
        .collect();
    assert!(
        refused.iter().any(|r| r.batch_part.is_some()),
        "the simulator refused a part inside a batch: {refused:?}"
    );
    h.release().await;
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    sim.shutdown().await;
}
