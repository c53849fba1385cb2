//! Features that need more of the ABAP language than the demo class: writes (`set`,
//! `jump_to_line`), exception and statement breakpoints, reports and ABAP Unit, on fixture
//! programs loaded into the simulator.

use crate::common;

use common::{Harness, ServeTask, start_with, var};
use serde_json::json;

const CALC: &str = "ZCL_ABAPDBG_CALC";

async fn sim_with_fixtures() -> sim::SimHandle {
    sim::start(sim::SimConfig {
        program_dirs: vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")],
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim")
}

fn writable(sim: &sim::SimHandle) -> (Harness, ServeTask) {
    start_with(sim, |c| c.allow_writes = true)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_changes_a_value_the_program_then_uses() {
    let sim = sim_with_fixtures().await;
    let (mut h, task) = writable(&sim);
    // Line 31: lv_quot = safe_div( … ) — after lv_sum was computed, before the output.
    h.ok("bp.set", json!({"location": format!("{CALC}:31")}))
        .await;
    let run = h.call_later("run", json!({"class": CALC})).await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], 31, "{stop}");
    let vars = h.ok("vars", json!({})).await;
    assert_eq!(var(&vars, "LV_SUM")["value"], "5");
    let set = h.ok("set", json!({"path": "lv_sum", "value": "42"})).await;
    assert_eq!(set["variable"]["value"], "42", "{set}");
    let changed = h.event("variable.changed").await;
    assert_eq!(changed["body"]["path"], "LV_SUM");
    assert_eq!(
        changed["body"]["thread"], stop["body"]["thread"],
        "{changed}"
    );
    assert_eq!(changed["body"]["frame"], 0, "{changed}");
    assert_eq!(
        h.ok("get", json!({"path": "LV_SUM"})).await["variable"]["value"],
        "42"
    );
    assert_eq!(
        h.fails("set", json!({"path": "LV_SUM", "value": "not a number"}))
            .await,
        "adt.backend_exception"
    );
    h.release().await;
    let out = h.response(&run).await;
    assert_eq!(out["result"]["output"], "sum 42 quotient -1", "{out}");
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jump_to_line_skips_code_without_running_it() {
    let sim = sim_with_fixtures().await;
    let (mut h, task) = writable(&sim);
    h.ok("bp.set", json!({"location": format!("{CALC}:30")}))
        .await;
    let run = h.call_later("run", json!({"class": CALC})).await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], 30, "{stop}");
    // Skip the addition: LV_SUM stays initial.
    let j = h.ok("jump_to_line", json!({"line": 31})).await;
    assert_eq!(j["stop"]["frame"]["line"], 31, "{j}");
    assert_eq!(
        h.ok("get", json!({"path": "LV_SUM"})).await["variable"]["value"],
        "0"
    );
    h.release().await;
    assert_eq!(
        h.response(&run).await["result"]["output"],
        "sum 0 quotient -1"
    );
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exception_and_statement_breakpoints_stop_where_they_should() {
    let sim = sim_with_fixtures().await;
    let (mut h, task) = start_with(&sim, |_| {});
    h.ok("bp.set", json!({"exception": "CX_SY_ZERODIVIDE"}))
        .await;
    let run = h.call_later("run", json!({"class": CALC})).await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["reason"], "exception", "{stop}");
    assert_eq!(stop["body"]["exception"], "CX_SY_ZERODIVIDE", "{stop}");
    assert_eq!(stop["body"]["frame"]["method"], "SAFE_DIV", "{stop}");
    h.ok("bp.delete", json!({"all": true})).await;
    h.ok("bp.set", json!({"statement": "WRITE"})).await;
    h.ok("step", json!({"type": "continue"})).await;
    assert_eq!(
        h.response(&run).await["result"]["output"],
        "sum 5 quotient -1"
    );
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reports_run_and_stop_in_their_forms() {
    let sim = sim_with_fixtures().await;
    let (mut h, task) = start_with(&sim, |_| {});
    h.ok("bp.set", json!({"location": "PROG:ZABAPDBG_REPORT:13"}))
        .await;
    let run = h
        .call_later("run", json!({"program": "ZABAPDBG_REPORT"}))
        .await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["event_type"], "FORM", "{stop}");
    assert_eq!(stop["body"]["frame"]["method"], "ADD_UP", "{stop}");
    let stack = h.ok("stack", json!({})).await;
    assert_eq!(stack["frames"][1]["event_type"], "EVENT", "{stack}");
    h.release().await;
    let out = h.response(&run).await;
    assert!(
        out["result"]["output"]
            .as_str()
            .is_some_and(|o| o.contains("Total 10")),
        "{out}"
    );
    h.finish(task).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abap_unit_results_come_back_as_records_and_tests_can_be_debugged() {
    let sim = sim_with_fixtures().await;
    let (mut h, task) = start_with(&sim, |_| {});
    let t = h.ok("test", json!({"class": CALC})).await;
    assert_eq!(t["passed"], 1, "{t}");
    assert_eq!(t["failed"], 1, "{t}");
    assert_eq!(t["ok"], false);
    let methods = t["classes"][0]["methods"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let wrong = methods
        .iter()
        .find(|m| m["name"] == "ADDS_WRONG")
        .expect("ADDS_WRONG");
    assert_eq!(wrong["passed"], false);
    assert_eq!(wrong["alerts"][0]["kind"], "failedAssertion", "{wrong}");
    // One method only, with a breakpoint in the test include.
    h.ok(
        "bp.set",
        json!({"location": format!("{CALC}/testclasses:21")}),
    )
    .await;
    let run = h
        .call_later("test", json!({"class": CALC, "method": "LTCL_CALC=>ADDS"}))
        .await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["method"], "ADDS", "{stop}");
    assert!(
        stop["body"]["frame"]["uri"]
            .as_str()
            .is_some_and(|u| u.contains("/includes/testclasses")),
        "{stop}"
    );
    h.release().await;
    let one = h.response(&run).await;
    assert_eq!(one["result"]["passed"], 1, "{one}");
    assert_eq!(one["result"]["failed"], 0, "{one}");
    h.finish(task).await;
    sim.shutdown().await;
}

const ORDERS: &str = "ZCL_ABAPDBG_ORDERS";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_are_paged_listed_and_exported() {
    let sim = sim_with_fixtures().await;
    let (mut h, task) = start_with(&sim, |_| {});
    // Line 35: the output, after both tables were filled.
    h.ok("bp.set", json!({"location": format!("{ORDERS}:35")}))
        .await;
    let run = h.call_later("run", json!({"class": ORDERS})).await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], 35, "{stop}");
    let vars = h.ok("vars", json!({})).await;
    let items = var(&vars, "LT_ITEMS");
    assert_eq!(items["meta"], "table", "{items}");
    assert_eq!(items["rows"], 5);

    // A page of rows as records with their columns.
    let page = h
        .ok("table", json!({"id": "lt_items", "offset": 1, "limit": 2}))
        .await;
    assert_eq!(page["total"], 5, "{page}");
    assert_eq!(page["more"], true);
    let rows = page["rows"].as_array().cloned().unwrap_or_default();
    assert_eq!(rows.len(), 2, "{page}");
    assert_eq!(rows[0]["index"], 2);
    assert_eq!(rows[0]["columns"]["ID"], "2", "{page}");
    assert_eq!(rows[0]["columns"]["NAME"], "Item 2");
    assert_eq!(
        rows[0]["columns"]["CODE"], "X1  ",
        "character blanks are kept"
    );
    assert_eq!(rows[1]["columns"]["PRICE"], "4.50");
    let last = h.ok("table", json!({"id": "LT_ITEMS", "offset": 4})).await;
    assert_eq!(last["more"], false);
    assert_eq!(last["rows"].as_array().map(Vec::len), Some(1));
    let numbers = h.ok("table", json!({"id": "LT_NUMBERS"})).await;
    assert_eq!(numbers["rows"][2]["value"], "3", "{numbers}");

    // vars of a table: its rows as variables, paged.
    let rows = h
        .ok("vars", json!({"id": "LT_ITEMS", "offset": 3, "limit": 5}))
        .await;
    assert_eq!(rows["total"], 5, "{rows}");
    assert_eq!(
        rows["variables"].as_array().map(Vec::len),
        Some(2),
        "{rows}"
    );
    assert_eq!(rows["variables"][0]["id"], "LT_ITEMS[4]");
    let row = h.ok("vars", json!({"id": "LT_ITEMS[4]"})).await;
    assert_eq!(var(&row, "NAME")["value"], "Item 4", "{row}");
    assert_eq!(
        h.ok("get", json!({"path": "LT_ITEMS[5]-ID"})).await["variable"]["value"],
        "5"
    );

    // Export in three formats.
    let j = h
        .ok("export", json!({"id": "LT_ITEMS", "format": "json"}))
        .await;
    let parsed: serde_json::Value =
        serde_json::from_str(j["content"].as_str().unwrap_or_default()).expect("JSON export");
    assert_eq!(parsed.as_array().map(Vec::len), Some(5), "{j}");
    assert_eq!(parsed[4]["ID"], 5);
    assert_eq!(parsed[4]["PRICE"], 7.5);
    let c = h
        .ok("export", json!({"id": "LT_ITEMS", "format": "csv"}))
        .await;
    let csv = c["content"].as_str().unwrap_or_default().to_string();
    assert!(
        csv.starts_with("ID,NAME,CODE,PRICE\r\n1,Item 1,\"X1  \",1.50\r\n"),
        "{csv}"
    );
    let a = h
        .ok("export", json!({"id": "LT_NUMBERS", "format": "abap"}))
        .await;
    assert_eq!(
        a["content"],
        "VALUE #(\n  ( 1 )\n  ( 2 )\n  ( 3 )\n  ( 4 )\n  ( 5 )\n)"
    );
    let file = std::env::temp_dir().join(format!("abapdbg-export-{}.csv", std::process::id()));
    let f = h
        .ok(
            "export",
            json!({"id": "LT_ITEMS", "format": "csv", "file": file.display().to_string()}),
        )
        .await;
    assert_eq!(f["file"], file.display().to_string());
    assert_eq!(std::fs::read_to_string(&file).unwrap_or_default(), csv);
    let _ = std::fs::remove_file(&file);

    h.release().await;
    assert_eq!(h.response(&run).await["result"]["output"], "5 items");
    h.finish(task).await;
    sim.shutdown().await;
}
