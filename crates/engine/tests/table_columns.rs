//! `table` names its columns with their types, so a client can convert the text of a cell
//! (dates, numbers) without asking again. On the Nushell plugin's fixture class.

use crate::common;

use common::start_with;
use serde_json::json;

const ORDERS: &str = "ZCL_NU_ORDERS";

fn fixture_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/abap")
}

/// The line of the fixture's source that holds `text` (1-based), so the test follows edits.
fn line_of(text: &str) -> usize {
    let source = std::fs::read_to_string(fixture_dir().join("zcl_nu_orders.clas.abap"))
        .expect("the fixture class");
    source
        .lines()
        .position(|l| l.contains(text))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("no line with {text}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_says_the_type_of_each_column() {
    let sim = sim::start(sim::SimConfig {
        program_dirs: vec![fixture_dir()],
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    // After the table was filled.
    let line = line_of("lv_count = lines( lt_items ).");
    h.ok("bp.set", json!({"location": format!("{ORDERS}:{line}")}))
        .await;
    let run = h.call_later("run", json!({"class": ORDERS})).await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], line, "{stop}");

    let page = h
        .ok("table", json!({"id": "LT_ITEMS", "offset": 0, "limit": 2}))
        .await;
    eprintln!("table result: {page}");
    // The simulator's technical types: string is CString, int8 INT8, f F (xstring below).
    let column = |name: &str, t: &str, meta: &str| json!({"name": name, "type": t, "meta": meta});
    assert_eq!(
        page["columns"],
        json!([
            column("ID", "I", "simple"),
            column("AMOUNT", "P", "simple"),
            column("CUSTOMER", "C", "simple"),
            column("DUE", "D", "simple"),
            column("AT", "T", "simple"),
            column("CODE", "N", "simple"),
            column("NOTE", "CString", "string"),
            column("FLAGS", "X", "simple"),
            column("BIG", "INT8", "simple"),
            column("RATIO", "F", "simple"),
        ]),
        "{page}"
    );
    // What was there stays: the rows with their cells as text.
    assert_eq!(page["total"], 300, "{page}");
    assert_eq!(page["more"], true);
    let first = &page["rows"][0]["columns"];
    assert_eq!(first["ID"], "1", "{page}");
    assert_eq!(first["AMOUNT"], "1.25", "{page}");
    assert_eq!(first["DUE"], "20261125", "{page}");
    assert_eq!(first["NOTE"], "item 1", "{page}");

    // An elementary line type: one column without a name.
    let words = h.ok("table", json!({"id": "LS_ORDER-WORDS"})).await;
    assert_eq!(
        words["columns"],
        json!([column("", "CString", "string")]),
        "{words}"
    );
    assert_eq!(words["rows"][1]["value"], "beta", "{words}");
    // A page without rows has no columns.
    let past = h
        .ok("table", json!({"id": "LT_ITEMS", "offset": 300}))
        .await;
    assert_eq!(past["rows"], json!([]), "{past}");
    assert_eq!(past["columns"], json!([]), "{past}");
    // And xstring, for the record: XString, meta string.
    let hex = h.ok("get", json!({"path": "LV_HEX"})).await;
    assert_eq!(hex["variable"]["type"], "XString", "{hex}");
    assert_eq!(hex["variable"]["meta"], "string", "{hex}");

    h.release().await;
    assert_eq!(
        h.response(&run).await["result"]["output"],
        "300 items for ACME\ndone 301"
    );
    h.finish(task).await;
    sim.shutdown().await;
}
