//! `abapdbg sim` on the command line: fault injection switched on from the start.

use e2e::Simulator;
use serde_json::Value;

#[test]
fn sim_fault_flags_inject_from_the_start() {
    let sim = Simulator::start_with(&["--icm-every", "1", "--latency-ms", "5"]);
    let faults = e2e::http_get(&sim.url, "/sim/faults");
    let faults: Value = serde_json::from_str(&faults).expect("faults JSON");
    assert_eq!(faults["icmEvery"], 1, "{faults}");
    assert_eq!(faults["latencyMs"], 5, "{faults}");
    let (status, body) = e2e::http_raw(&sim.url, "GET", "/sap/bc/adt/compatibility/graph");
    assert!(status.contains(" 400"), "{status}");
    assert!(body.contains("Service cannot be reached"), "{body}");
}
