//! Session commands and the malformed-input battery: every bad line gets one error response
//! with a stable code, and the session stays usable.

use crate::common;

use common::{DEMO, start};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_input_gets_one_error_each_and_the_session_goes_on() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim);
    let cases: Vec<(&[u8], &str)> = vec![
        (b"{not json\n", "protocol.parse_error"),
        (b"[1,2,3]\n", "protocol.invalid_request"),
        (b"{\"cmd\":\"status\"}\n", "protocol.invalid_request"),
        (
            b"{\"id\":{},\"cmd\":\"status\"}\n",
            "protocol.invalid_request",
        ),
        (b"{\"id\":1,\"cmd\":5}\n", "protocol.invalid_request"),
        (
            b"{\"id\":2,\"cmd\":\"status\",\"args\":[1]}\n",
            "protocol.invalid_args",
        ),
        (
            b"{\"id\":3,\"cmd\":\"frobnicate\"}\n",
            "protocol.unknown_command",
        ),
        (
            b"{\"id\":4,\"cmd\":\"step\",\"args\":{\"type\":\"sideways\"}}\n",
            "protocol.invalid_args",
        ),
        (
            b"{\"id\":5,\"cmd\":\"wait\",\"args\":{\"until\":\"stopped\",\"timeout_ms\":-1}}\n",
            "protocol.invalid_args",
        ),
        (
            b"{\"id\":6,\"cmd\":\"bp.set\",\"args\":{\"location\":7}}\n",
            "protocol.invalid_args",
        ),
        (
            b"{\"id\":7,\"cmd\":\"bp.set\",\"args\":{\"location\":\"ZCL_X\"}}\n",
            "breakpoint.invalid_location",
        ),
        (b"\xff\xfe{\"id\":8}\n", "protocol.parse_error"),
        (b"{\"id\":9,\"cmd\":\"vars\"}\n", "state.not_stopped"),
        (
            b"{\"id\":10,\"cmd\":\"step\",\"args\":{\"type\":\"over\"}}\n",
            "state.not_stopped",
        ),
        (b"{\"id\":11,\"cmd\":\"terminate\"}\n", "state.not_stopped"),
        (
            b"{\"id\":12,\"cmd\":\"frame\",\"args\":{\"index\":0}}\n",
            "state.not_stopped",
        ),
        (
            b"{\"id\":13,\"cmd\":\"configure\",\"args\":{\"max_value_chars\":0}}\n",
            "protocol.invalid_args",
        ),
        (
            b"{\"id\":14,\"cmd\":\"hello\",\"args\":{\"events\":[\"nope\"]}}\n",
            "protocol.invalid_args",
        ),
    ];
    for (line, code) in &cases {
        h.send_raw(line).await;
        let r = h.until(|v| v["type"] == "response").await;
        assert_eq!(r["ok"], false, "{} -> {r}", String::from_utf8_lossy(line));
        assert_eq!(
            r["error"]["code"],
            *code,
            "{} -> {r}",
            String::from_utf8_lossy(line)
        );
        assert!(
            r["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        );
    }
    // An oversized line: one error, then the next line is read normally.
    let mut big = vec![b'x'; jsonl::MAX_LINE_BYTES + 10];
    big.push(b'\n');
    h.send_raw(&big).await;
    let r = h.until(|v| v["type"] == "response").await;
    assert_eq!(r["error"]["code"], "protocol.too_large", "{r}");
    // Blank lines are ignored; the session still answers.
    h.send_raw(b"\n   \n").await;
    let st = h.ok("status", json!({})).await;
    assert_eq!(st["state"], "idle");
    // Every line carried state and strictly increasing seq.
    let seqs: Vec<u64> = h.seen.iter().filter_map(|v| v["seq"].as_u64()).collect();
    assert_eq!(seqs.len(), h.seen.len());
    assert!(seqs.windows(2).all(|w| w[0] < w[1]));
    assert!(h.seen.iter().all(|v| v["state"].is_string()));
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hello_logs_on_and_filters_events_configure_and_cancel() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim);
    let ready = h.event("ready").await;
    assert_eq!(ready["seq"], 1);
    let hello = h
        .ok("hello", json!({"events": ["stopped", "debuggee.ended"]}))
        .await;
    assert_eq!(hello["system"]["logon"]["ok"], true, "{hello}");
    let supports = &hello["system"]["supports"];
    assert!(
        supports["debugger_resources"]
            .as_array()
            .is_some_and(|r| r.contains(&json!("/sap/bc/adt/debugger/listeners"))),
        "{supports}"
    );
    assert!(
        supports["statement_breakpoints"]
            .as_u64()
            .is_some_and(|n| n > 10),
        "{supports}"
    );
    assert_eq!(
        supports["message_types"],
        json!(["A", "E", "I", "S", "W", "X"]),
        "{supports}"
    );
    assert!(
        hello["protocol"]
            .as_str()
            .is_some_and(|p| p.starts_with("abapdbg/1."))
    );
    assert!(
        hello["commands"]
            .as_array()
            .is_some_and(|c| c.contains(&json!("cancel")))
    );
    assert_eq!(hello["subscribed"], json!(["stopped", "debuggee.ended"]));
    let schema = h.ok("schema", json!({})).await;
    assert_eq!(schema, jsonl::schema::protocol_schema());
    assert!(schema["$defs"]["Request"].is_object());

    // listener.armed is not subscribed: it must not arrive, stopped must.
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = h.run_demo().await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], 48);
    assert!(
        !h.seen.iter().any(|v| v["event"] == "listener.armed"),
        "unsubscribed event arrived"
    );

    // configure: tiny value limit shows truncation; get with full does not cut.
    let c = h
        .ok(
            "configure",
            json!({"max_value_chars": 1, "step_timeout_ms": 5000}),
        )
        .await;
    assert_eq!(c["max_value_chars"], 1);
    let vars = h.ok("vars", json!({})).await;
    let me = vars["variables"]
        .as_array()
        .and_then(|a| a.iter().find(|v| v["name"] == "ME"))
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(me["truncated"], true, "{me}");
    assert_eq!(
        me["fetch"],
        json!({"cmd": "get", "args": {"path": "ME", "full": true}})
    );
    assert_eq!(me["value"].as_str().map(|s| s.chars().count()), Some(1));
    let full = h.ok("get", json!({"path": "ME", "full": true})).await;
    assert!(full["variable"]["truncated"].is_null(), "{full}");

    // cancel: a long wait is answered request.cancelled, cancel itself succeeds.
    h.send(json!({"id": "w1", "cmd": "wait", "args": {"until": "ended", "timeout_ms": 60000}}))
        .await;
    let cancel = h.ok("cancel", json!({"id": "w1"})).await;
    assert_eq!(cancel["cancelled"], true);
    let w = h.response(&json!("w1")).await;
    assert_eq!(w["error"]["code"], "request.cancelled", "{w}");
    assert_eq!(
        h.ok("cancel", json!({"id": "nothing"})).await["cancelled"],
        false
    );

    h.release().await;
    assert_eq!(h.response(&run).await["ok"], true);
    h.finish(task).await;
    sim.shutdown().await;
}

/// A client that connects after the stop (or the end) learns it from `status`: the current
/// thread's last `stopped` body and the last `debuggee.ended` body.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_reports_the_last_stop_and_the_last_end() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim);
    let before = h.ok("status", json!({})).await;
    assert_eq!(before["last_end"], Value::Null, "{before}");
    h.ok("bp.set", json!({"location": format!("{DEMO}:48")}))
        .await;
    let run = h.run_demo().await;
    let stop = h.event("stopped").await;
    let status = h.ok("status", json!({})).await;
    assert_eq!(status["debuggee"]["stop"], stop["body"], "{status}");
    assert_eq!(status["debuggee"]["stop"]["reason"], "breakpoint");
    // Five source lines on each side by default (the class ends at line 51).
    let lines: Vec<u64> = stop["body"]["frame"]["source"]
        .as_array()
        .expect("source lines")
        .iter()
        .filter_map(|l| l["line"].as_u64())
        .collect();
    assert_eq!(lines, (43..=51).collect::<Vec<u64>>(), "{stop}");
    // `wait` answers the described stop, the same the event carried.
    let waited = h
        .ok("wait", json!({"until": "stopped", "timeout_ms": 1000}))
        .await;
    assert_eq!(waited["stop"], stop["body"], "{waited}");
    // The window is a session setting: one line on each side from now on.
    assert_eq!(
        h.fails("configure", json!({"source_context": 51})).await,
        "protocol.invalid_args"
    );
    let limits = h.ok("configure", json!({"source_context": 1})).await;
    assert_eq!(limits["source_context"], 1, "{limits}");
    let frame = h.ok("frame", json!({"index": 0})).await;
    assert_eq!(
        frame["frame"]["source"].as_array().map(Vec::len),
        Some(3),
        "{frame}"
    );
    h.ok("step", json!({"type": "over"})).await;
    let status = h.ok("status", json!({})).await;
    assert_eq!(status["debuggee"]["stop"]["reason"], "step", "{status}");
    h.call("bp.delete", json!({"all": true})).await;
    let end = h.ok("step", json!({"type": "continue"})).await;
    h.response(&run).await;
    let status = h.ok("status", json!({})).await;
    assert_eq!(status["last_end"], end["ended"], "{status}");
    assert_eq!(status["last_end"]["reason"], "finished");
    h.finish(task).await;
    sim.shutdown().await;
}

/// A line in an object the system does not have is refused as such, naming the object; a
/// comment line of an existing class stays "not executable".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_breakpoint_in_a_missing_object_names_it() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start(&sim);
    let set = h
        .ok(
            "bp.set",
            json!({"locations": ["ZCL_NO_SUCH_CLASS:10", format!("{DEMO}:30")]}),
        )
        .await;
    let missing = &set["breakpoints"][0];
    assert_eq!(missing["status"], "rejected", "{set}");
    assert_eq!(missing["code"], "breakpoint.object_not_found", "{set}");
    assert_eq!(
        missing["reason"],
        "ZCL_NO_SUCH_CLASS does not exist on the system (it answered: Cannot create a breakpoint at this position)"
    );
    let comment = &set["breakpoints"][1];
    assert_eq!(comment["code"], "breakpoint.not_executable", "{set}");
    assert_eq!(
        comment["reason"],
        "Cannot create a breakpoint at this position"
    );
    h.finish(task).await;
    sim.shutdown().await;
}
