//! The protocol commands against the simulator over HTTP: breakpoints, inspection, movement,
//! threads.

use crate::common;

use common::{DEMO, Harness, OUTPUT, start, start_with, var};
use serde_json::{Value, json};

async fn stopped_at(h: &mut Harness, line: u64) -> Value {
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], line, "{stop}");
    stop
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakpoints_are_set_listed_disabled_enabled_exported_imported_and_deleted() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim);
    let r = h
        .ok("bp.set", json!({"locations": [format!("{DEMO}:35"), format!("{DEMO}:48"), format!("{DEMO}:30")]}))
        .await;
    let bps = r["breakpoints"].as_array().expect("list").clone();
    assert_eq!(bps.len(), 3);
    assert_eq!(bps[0]["status"], "verified");
    assert_eq!(
        bps[0]["include_line"], 13,
        "class line 35 is line 13 of the method include"
    );
    assert!(
        bps[0]["include"]
            .as_str()
            .unwrap_or_default()
            .ends_with("CM001"),
        "{r}"
    );
    assert_eq!(bps[2]["status"], "rejected");
    assert_eq!(bps[2]["code"], "breakpoint.not_executable");
    let (b35, b48) = (bps[0]["id"].clone(), bps[1]["id"].clone());

    // A typo anywhere rejects the whole request and registers nothing.
    assert_eq!(
        h.fails(
            "bp.set",
            json!({"locations": [format!("{DEMO}:36"), "ZCL_X:abc"]})
        )
        .await,
        "breakpoint.invalid_location"
    );
    assert_eq!(
        h.ok("bp.list", json!({})).await["breakpoints"]
            .as_array()
            .map(Vec::len),
        Some(3)
    );
    assert_eq!(
        h.fails("bp.delete", json!({"id": 99})).await,
        "breakpoint.not_found"
    );
    assert_eq!(
        h.fails("bp.delete", json!({})).await,
        "protocol.invalid_args"
    );
    assert_eq!(
        h.fails(
            "bp.set",
            json!({"message": {"id": "00", "number": "1", "type": "Q"}})
        )
        .await,
        "protocol.invalid_args"
    );

    // Disabled: the program runs past line 35 and stops at 48 only.
    let d = h.ok("bp.disable", json!({"id": b35})).await;
    assert_eq!(d["breakpoints"][0]["status"], "disabled");
    h.ok("listen", json!({})).await;
    let run = h.run_demo().await;
    let stop = stopped_at(&mut h, 48).await;
    assert_eq!(stop["body"]["breakpoints"], json!([b48]), "{stop}");
    // Enabled again while stopped: the next continue stops at 35 in the next iteration.
    let e = h.ok("bp.enable", json!({"id": b35})).await;
    assert_eq!(e["breakpoints"][0]["status"], "verified");
    let s = h.ok("step", json!({"type": "continue"})).await;
    assert_eq!(s["stop"]["frame"]["line"], 35, "{s}");

    let export = h.ok("bp.export", json!({})).await;
    assert_eq!(
        export["breakpoints"][0],
        json!({"location": format!("{DEMO}:35"), "enabled": true})
    );
    // Delete everything; the program then runs to its end.
    let del = h.ok("bp.delete", json!({"all": true})).await;
    assert_eq!(del["deleted"].as_array().map(Vec::len), Some(3));
    let s = h.ok("step", json!({"type": "continue"})).await;
    assert_eq!(s["ended"]["reason"], "finished", "{s}");
    let out = h.response(&run).await;
    assert_eq!(out["result"]["output"], OUTPUT);

    // Import what was exported: the same breakpoints come back.
    let imported = h.ok("bp.import", export.clone()).await;
    assert_eq!(imported["imported"], 3);
    assert_eq!(imported["breakpoints"][0]["status"], "verified");
    assert_eq!(imported["breakpoints"][2]["status"], "rejected");
    let receipt = h.finish(task).await;
    assert!(receipt.errors.is_empty(), "{receipt:?}");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frames_variables_paths_sources_and_stale_references() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim);
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = h.run_demo().await;
    let stop = stopped_at(&mut h, 48).await;
    let epoch = stop["body"]["epoch"].clone();
    let stack = h.ok("stack", json!({})).await;
    assert_eq!(stack["frames"].as_array().map(Vec::len), Some(2), "{stack}");
    assert_eq!(stack["frames"][1]["line"], 36);
    assert_eq!(stack["current"], 0);

    let vars = h.ok("vars", json!({})).await;
    assert_eq!(var(&vars, "IV_QUANTITY")["value"], "1");
    assert_eq!(var(&vars, "IV_QUANTITY")["scope"], "Parameters");
    let got = h
        .ok("get", json!({"path": "iv_price", "epoch": epoch}))
        .await;
    assert_eq!(got["variable"]["value"], "10");
    assert_eq!(got["variable"]["name"], "IV_PRICE");
    assert_eq!(
        h.fails("get", json!({"path": "LV_NOPE"})).await,
        "variable.not_found"
    );

    // The caller's frame: its locals, its source line.
    let f = h.ok("frame", json!({"index": 1})).await;
    assert_eq!(f["frame"]["line"], 36, "{f}");
    assert_eq!(f["frame"]["method"], "IF_OO_ADT_CLASSRUN~MAIN");
    let caller = h.ok("vars", json!({})).await;
    assert_eq!(var(&caller, "LV_COUNT")["value"], "1", "{caller}");
    assert_eq!(h.ok("stack", json!({})).await["current"], 1);
    let src = h.ok("source", json!({"before": 1, "after": 1})).await;
    let current: Vec<&Value> = src["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .filter(|l| l["current"] == true)
        .collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0]["line"], 36);
    assert_eq!(
        h.fails("frame", json!({"index": 7})).await,
        "protocol.invalid_args"
    );
    let src = h
        .ok(
            "source",
            json!({"location": format!("{DEMO}:48"), "before": 0, "after": 0}),
        )
        .await;
    assert_eq!(
        src["lines"][0]["text"],
        "    rv_total = iv_quantity * iv_price."
    );

    // A step moves to a new epoch: references from the old one are refused.
    let s = h.ok("step", json!({"type": "over"})).await;
    assert_eq!(s["stop"]["frame"]["line"], 49);
    assert_eq!(
        h.fails("vars", json!({"epoch": epoch})).await,
        "state.stale_reference"
    );
    assert_eq!(
        h.fails("get", json!({"path": "RV_TOTAL", "epoch": epoch}))
            .await,
        "state.stale_reference"
    );
    let now = s["stop"]["epoch"].clone();
    assert_eq!(
        h.ok("get", json!({"path": "RV_TOTAL", "epoch": now})).await["variable"]["value"],
        "10"
    );
    // Writes are refused unless the session allows them.
    assert_eq!(
        h.fails("set", json!({"path": "RV_TOTAL", "value": "5"}))
            .await,
        "permission.write_not_allowed"
    );
    assert_eq!(
        h.fails("jump_to_line", json!({"line": 48})).await,
        "permission.write_not_allowed"
    );
    assert_eq!(
        h.fails("table", json!({"id": "RV_TOTAL"})).await,
        "protocol.invalid_args"
    );
    assert_eq!(
        h.fails("export", json!({"id": "RV_TOTAL", "format": "csv"}))
            .await,
        "protocol.invalid_args"
    );
    assert_eq!(
        h.fails("export", json!({"id": "LV_NOPE", "format": "json"}))
            .await,
        "variable.not_found"
    );

    let s = h.release().await;
    assert!(s.get("ended").is_some(), "{s}");
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_to_line_terminate_detach_and_unlisten() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim);
    h.ok("bp.set", json!({"location": format!("{DEMO}:35")}))
        .await;
    let run = h.run_demo().await;
    stopped_at(&mut h, 35).await;
    assert_eq!(
        h.fails("run_to_line", json!({})).await,
        "protocol.invalid_args"
    );
    let r = h.ok("run_to_line", json!({"line": 36})).await;
    assert_eq!(r["stop"]["frame"]["line"], 36, "{r}");
    // Terminate: the run answers with an error, the thread is gone.
    let t = h.ok("terminate", json!({})).await;
    assert_eq!(t["ended"]["reason"], "terminated");
    let ended = h.response(&run).await;
    assert_eq!(ended["ok"], false, "{ended}");
    assert_eq!(ended["error"]["code"], "run.failed");
    assert_eq!(h.ok("status", json!({})).await["state"], "ended");

    // Detach: breakpoints off (kept, disabled), the program runs to its end.
    let run = h.run_demo().await;
    stopped_at(&mut h, 35).await;
    let d = h.ok("detach", json!({})).await;
    assert_eq!(
        d["breakpoints_disabled"].as_array().map(Vec::len),
        Some(1),
        "{d}"
    );
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    let list = h.ok("bp.list", json!({})).await;
    assert_eq!(list["breakpoints"][0]["status"], "disabled");

    let u = h.ok("unlisten", json!({})).await;
    assert_eq!(u["stopped"], true);
    h.event("listener.stopped").await;
    let st = h.ok("status", json!({})).await;
    assert_eq!(st["listener"]["armed"], false);
    assert_eq!(
        h.fails("step", json!({"type": "over"})).await,
        "state.not_stopped"
    );
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_debuggees_are_two_threads() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |c| c.max_threads = 2);
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run1 = h.run_demo().await;
    let first = h.event("stopped").await;
    h.send(json!({"id": "catch", "cmd": "wait", "args": {"until": "caught", "timeout_ms": 20000}}))
        .await;
    let run2 = h.run_demo().await;
    let second = h.event("stopped").await;
    let caught = h.response(&json!("catch")).await;
    assert_eq!(caught["result"]["reached"], true, "{caught}");
    let (t1, t2) = (
        first["body"]["thread"].clone(),
        second["body"]["thread"].clone(),
    );
    assert_ne!(t1, t2);
    let threads = h.ok("threads", json!({})).await;
    assert_eq!(
        threads["threads"].as_array().map(Vec::len),
        Some(2),
        "{threads}"
    );
    assert_eq!(threads["current"], t1, "the first stop stays current");

    // Switch to the second and look at it.
    h.ok("thread", json!({"id": t2})).await;
    assert_eq!(
        h.fails("thread", json!({"id": 99})).await,
        "state.no_debuggee"
    );
    let vars = h.ok("vars", json!({})).await;
    assert_eq!(var(&vars, "IV_QUANTITY")["value"], "1");
    let s = h.ok("step", json!({"type": "continue"})).await;
    assert_eq!(s["stop"]["thread"], t2);
    assert_eq!(
        h.ok("get", json!({"path": "IV_QUANTITY"})).await["variable"]["value"],
        "2"
    );
    // Terminating the second makes the first current again.
    h.ok("terminate", json!({})).await;
    assert_eq!(h.response(&run2).await["ok"], false);
    let threads = h.ok("threads", json!({})).await;
    assert_eq!(threads["current"], t1, "{threads}");
    assert_eq!(
        h.ok("get", json!({"path": "IV_QUANTITY"})).await["variable"]["value"],
        "1"
    );
    h.release().await;
    assert_eq!(h.response(&run1).await["result"]["output"], OUTPUT);
    let w = h
        .ok("wait", json!({"until": "ended", "timeout_ms": 2000}))
        .await;
    assert_eq!(w["reached"], true);
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listener_conflict_is_reported_and_taken_over_only_on_request() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut a, task_a) = start_with(&sim, |c| c.identity.ide_id = "A".repeat(32));
    let (mut b, task_b) = start_with(&sim, |c| c.identity.ide_id = "B".repeat(32));
    a.ok("listen", json!({})).await;
    a.event("listener.armed").await;

    b.ok("listen", json!({})).await;
    let conflict = b.event("listener.conflict").await;
    assert_eq!(conflict["body"]["displaced"], false, "{conflict}");
    assert_eq!(conflict["body"]["holder"], "DEVELOPER", "{conflict}");
    assert!(
        conflict["body"]["conflict_text"]
            .as_str()
            .is_some_and(|t| !t.is_empty()),
        "{conflict}"
    );
    // A trigger cannot be caught while the other one listens: refused, not hung.
    let run = b.call("run", json!({"class": DEMO})).await;
    assert_eq!(run["error"]["code"], "conflict.listener", "{run}");
    assert_eq!(a.ok("status", json!({})).await["listener"]["armed"], true);

    // Taken over on request: B listens, A is told it was displaced.
    b.ok("listen", json!({"take_over": true})).await;
    b.event("listener.armed").await;
    let displaced = a.event("listener.conflict").await;
    assert_eq!(displaced["body"]["displaced"], true, "{displaced}");
    assert_eq!(a.ok("status", json!({})).await["listener"]["armed"], false);
    // B catches the run now.
    b.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = b.run_demo().await;
    stopped_at(&mut b, 48).await;
    b.ok("bp.delete", json!({"all": true})).await;
    b.ok("step", json!({"type": "continue"})).await;
    assert_eq!(b.response(&run).await["result"]["output"], OUTPUT);
    a.finish(task_a).await;
    b.finish(task_b).await;
    sim.shutdown().await;
}

/// Requests the debug session sent for variables (the listener's polls are not counted).
fn variable_reads(sim: &sim::SimHandle) -> usize {
    sim.request_log()
        .iter()
        .filter(|r| r.path.contains("ChildVariables") || r.path.contains("getVariables"))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_are_cached_per_stop_and_frame() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim);
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = h.run_demo().await;
    stopped_at(&mut h, 48).await;
    sim.clear_request_log();
    let first = h.ok("vars", json!({})).await;
    let after_first = variable_reads(&sim);
    assert_eq!(
        after_first, 0,
        "the catch read the frame's variables along with the stack"
    );
    let second = h.ok("vars", json!({})).await;
    assert_eq!(
        variable_reads(&sim),
        after_first,
        "the same stop is answered from the cache"
    );
    assert_eq!(first["variables"], second["variables"]);
    // Another frame, then another stop: read again.
    h.ok("frame", json!({"index": 1})).await;
    h.ok("vars", json!({})).await;
    let after_frame = variable_reads(&sim);
    assert!(after_frame > after_first, "a frame switch reads again");
    h.ok("step", json!({"type": "over"})).await;
    let moved = h.ok("vars", json!({})).await;
    assert!(variable_reads(&sim) > after_frame, "a new stop reads again");
    assert_eq!(
        var(&moved, "RV_TOTAL")["value"],
        "10",
        "fresh values after the step"
    );
    h.release().await;
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakpoints_without_an_object_are_added_and_removed_by_id() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim);
    let r = h
        .ok(
            "bp.set",
            json!({"statement": "catch", "exception": "cx_sy_zerodivide"}),
        )
        .await;
    let bps = r["breakpoints"].as_array().cloned().unwrap_or_default();
    assert_eq!(bps.len(), 2, "{r}");
    assert_eq!(bps[0]["kind"], "statement");
    assert_eq!(bps[0]["statement"], "CATCH");
    assert_eq!(bps[0]["status"], "verified", "{r}");
    assert_eq!(bps[0]["server_id"], "KIND=1.STATEMENT=CATCH");
    assert_eq!(
        bps[1]["server_id"],
        "KIND=5.EXCEPTION_CLASS=CX_SY_ZERODIVIDE"
    );
    let m = h
        .ok(
            "bp.set",
            json!({"message": {"id": "00", "number": "001", "type": "E"}}),
        )
        .await;
    assert_eq!(
        m["breakpoints"][0]["server_id"], "KIND=12.MSGID=00.MSGNO=001.MSGTY=E",
        "{m}"
    );
    let held = |sim: &sim::SimHandle| -> usize {
        let state: Value = serde_json::from_str(&sim.state_json()).unwrap_or(Value::Null);
        state["breakpoints"]
            .as_object()
            .map(|o| o.values().filter_map(|v| v.as_array()).map(Vec::len).sum())
            .unwrap_or(0)
    };
    assert_eq!(held(&sim), 3, "{}", sim.state_json());
    h.ok("bp.disable", json!({"id": bps[0]["id"]})).await;
    assert_eq!(held(&sim), 2, "disabled: off the system");
    h.ok("bp.enable", json!({"id": bps[0]["id"]})).await;
    assert_eq!(held(&sim), 3, "enabled: back");
    h.ok("bp.delete", json!({"id": bps[1]["id"]})).await;
    assert_eq!(held(&sim), 2);
    let receipt = h.finish(task).await;
    assert_eq!(receipt.breakpoints_deleted, 2, "{receipt:?}");
    assert_eq!(held(&sim), 0, "nothing left after the session");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_and_the_variables_after_it_take_one_round_trip() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim);
    h.ok("bp.set", json!({"location": format!("{DEMO}:35")}))
        .await;
    let run = h.run_demo().await;
    stopped_at(&mut h, 35).await;
    // The first look at the frame learns its scopes.
    h.ok("vars", json!({})).await;
    sim.clear_request_log();
    let s = h.ok("step", json!({"type": "over"})).await;
    assert_eq!(s["stop"]["frame"]["line"], 36, "{s}");
    let vars = h.ok("vars", json!({})).await;
    assert_eq!(var(&vars, "LV_COUNT")["value"], "1", "{vars}");
    let debug_session: Vec<_> = sim
        .request_log()
        .into_iter()
        .filter(|r| {
            r.is_round_trip() && !r.path.contains("/listeners") && !r.path.contains("/source/")
        })
        .collect();
    let paths: Vec<&str> = debug_session.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(
        debug_session.len(),
        1,
        "step + stack + variables in one batch: {paths:?}"
    );
    assert!(
        paths[0].starts_with("/sap/bc/adt/debugger/batch"),
        "{paths:?}"
    );
    h.release().await;
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watchpoint_stops_a_continue_when_the_value_changes() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim);
    h.ok("bp.set", json!({"location": format!("{DEMO}:35")}))
        .await;
    let run = h.run_demo().await;
    stopped_at(&mut h, 35).await;
    assert_eq!(
        h.fails_invalid("watch.delete", json!({"nope": 1})).await,
        "protocol.invalid_args"
    );
    let w = h.ok("watch.set", json!({"variable": "lv_total"})).await;
    let id = w["watchpoints"][0]["id"].clone();
    assert_eq!(w["watchpoints"][0]["variable"], "LV_TOTAL", "{w}");
    let s = h.release().await;
    assert_eq!(s["stop"]["reason"], "watchpoint", "{s}");
    assert_eq!(s["stop"]["watchpoints"][0]["variable"], "LV_TOTAL", "{s}");
    assert_eq!(
        s["stop"]["watchpoints"][0]["value"].as_str().map(str::trim),
        Some("10"),
        "{s}"
    );
    let list = h.ok("watch.list", json!({})).await;
    assert_eq!(
        list["watchpoints"].as_array().map(Vec::len),
        Some(1),
        "{list}"
    );
    h.ok("watch.delete", json!({"id": id})).await;
    assert_eq!(
        h.ok("watch.list", json!({})).await["watchpoints"],
        json!([])
    );
    let s = h.ok("step", json!({"type": "continue"})).await;
    assert!(s.get("ended").is_some(), "{s}");
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    assert_eq!(h.fails("watch.list", json!({})).await, "state.not_stopped");
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugger_settings_apply_to_attached_and_later_programs() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim);
    let c = h
        .ok(
            "configure",
            json!({"settings": {"create_exception_object": true}}),
        )
        .await;
    assert_eq!(c["settings"]["create_exception_object"], true, "{c}");
    assert_eq!(c["settings"]["system_debugging"], false);
    assert_eq!(c["settings_applied_to"], json!([]));
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = h.run_demo().await;
    let stop = h.event("stopped").await;
    let thread = stop["body"]["thread"].clone();
    let c = h
        .ok("configure", json!({"settings": {"system_debugging": true}}))
        .await;
    assert_eq!(c["settings_applied_to"], json!([thread]), "{c}");
    assert_eq!(
        c["settings"]["create_exception_object"], true,
        "earlier settings are kept"
    );
    assert_eq!(
        h.fails_invalid("configure", json!({"settings": {"bogus": true}}))
            .await,
        "protocol.invalid_args"
    );
    h.release().await;
    assert_eq!(h.response(&run).await["result"]["output"], OUTPUT);
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn triggers_check_their_arguments_and_report_what_the_system_says() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim);
    assert_eq!(h.fails("run", json!({})).await, "protocol.invalid_args");
    assert_eq!(
        h.fails("run", json!({"class": DEMO, "program": "ZREP"}))
            .await,
        "protocol.invalid_args"
    );
    assert_eq!(h.fails("test", json!({})).await, "protocol.invalid_args");
    // A class without test classes: an empty run, said so.
    let t = h.ok("test", json!({"class": DEMO})).await;
    assert_eq!(t["object"], DEMO, "{t}");
    assert_eq!(t["passed"], 0, "{t}");
    assert_eq!(t["failed"], 0, "{t}");
    let r = h.call("run", json!({"program": "ZNO_SUCH_REPORT"})).await;
    assert_eq!(r["error"]["code"], "run.failed", "{r}");
    assert!(
        r["error"]["hint"]
            .as_str()
            .is_some_and(|t| t.contains("report")),
        "{r}"
    );
    h.finish(task).await;
    sim.shutdown().await;
}
