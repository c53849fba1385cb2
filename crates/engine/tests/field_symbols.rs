//! Field symbols at a stop: `vars` lists the assigned ones in their procedure's scope, named as
//! declared (`<LS_ENTRY>`), though the system lists none among a scope's children.

use crate::common;

use common::{start, var};
use serde_json::json;

const ENTRIES: &str = "ZCL_ABAPDBG_ENTRIES";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vars_lists_an_assigned_inline_field_symbol_in_the_locals() {
    let sim = sim::start(sim::SimConfig {
        program_dirs: vec![
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/field_symbols"),
        ],
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim");
    let (mut h, task) = start(&sim);
    // Line 29: lv_total = lv_total + <ls_entry>-amount, inside the LOOP … ASSIGNING.
    h.ok("bp.set", json!({"location": format!("{ENTRIES}:29")}))
        .await;
    let run = h.call_later("run", json!({"class": ENTRIES})).await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], 29, "{stop}");

    let vars = h.ok("vars", json!({})).await;
    let entry = var(&vars, "<LS_ENTRY>");
    assert_eq!(entry["id"], "<LS_ENTRY>", "{vars}");
    assert_eq!(entry["scope"], "Locals", "{vars}");
    assert_eq!(entry["meta"], "structure", "{vars}");
    assert_eq!(entry["expandable"], true, "{vars}");
    // Listed after the method's other locals, in the order of the listing.
    let names: Vec<&str> = vars["variables"]
        .as_array()
        .expect("variables")
        .iter()
        .filter_map(|v| v["name"].as_str())
        .collect();
    let at = |n: &str| names.iter().position(|x| *x == n);
    assert!(at("LT_ENTRIES") < at("<LS_ENTRY>"), "{names:?}");
    // Declared but not assigned: the system answers nothing for it, so it is not listed.
    assert_eq!(at("<LV_UNUSED>"), None, "{names:?}");

    let expanded = h.ok("vars", json!({"id": "<ls_entry>"})).await;
    assert_eq!(expanded["parent"], "<LS_ENTRY>", "{expanded}");
    let amount = var(&expanded, "AMOUNT");
    assert_eq!(amount["id"], "<LS_ENTRY>-AMOUNT", "{expanded}");
    assert_eq!(amount["value"], "1.50", "{expanded}");
    // A text field keeps its trailing blanks in JSON, as the system sends them.
    assert_eq!(var(&expanded, "NAME")["value"], "First     ", "{expanded}");
    let got = h.ok("get", json!({"path": "<LS_ENTRY>-AMOUNT"})).await;
    assert_eq!(got["variable"]["name"], amount["name"], "{got}");
    assert_eq!(got["variable"]["value"], amount["value"], "{got}");

    // The next pass of the loop: the field symbol shows the second row.
    h.ok("step", json!({"type": "continue"})).await;
    let vars = h.ok("vars", json!({})).await;
    assert_eq!(var(&vars, "<LS_ENTRY>")["scope"], "Locals", "{vars}");
    let expanded = h.ok("vars", json!({"id": "<LS_ENTRY>"})).await;
    assert_eq!(var(&expanded, "ID")["value"], "2", "{expanded}");

    h.release().await;
    let out = h.response(&run).await;
    assert_eq!(out["result"]["output"], "total 3.75", "{out}");
    h.finish(task).await;
    sim.shutdown().await;
}
