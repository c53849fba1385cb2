//! A function module debugged through the protocol like any other procedure: a breakpoint set
//! by its abapGit file, the stop naming the module, its group's program and include, its
//! parameters, a step over the classic exception back into the caller (samples folder).

use crate::common;

use common::{start_with, var};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_breakpoint_in_a_function_module_by_its_file() {
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let sim = sim::start(sim::SimConfig {
        program_dirs: vec![samples.clone()],
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    // Line 17: `RAISE division_by_zero.`, reached by the second call (7 / 0).
    h.ok(
        "bp.set",
        json!({"location": "zsmp_fg.fugr.z_smp_fg_divide.abap:17"}),
    )
    .await;
    let run = h
        .call_later("run", json!({"class": "ZCL_SMP_FM_EXCEPTIONS"}))
        .await;
    let stop = h.event("stopped").await;
    let frame = &stop["body"]["frame"];
    assert_eq!(frame["object"], "Z_SMP_FG_DIVIDE", "{stop}");
    assert_eq!(frame["program"], "SAPLZSMP_FG", "{stop}");
    assert_eq!(frame["include"], "LZSMP_FGU02", "{stop}");
    assert_eq!(frame["event_type"], "FUNCTION", "{stop}");
    assert_eq!(frame["line"], 17, "{stop}");
    let vars = h.ok("vars", json!({})).await;
    assert_eq!(var(&vars, "IV_DIVISOR")["value"], "0", "{vars}");
    assert_eq!(var(&vars, "EV_STEPS")["value"], "1", "{vars}");
    // The exception ends the module: the next stop is the caller's next statement.
    let step = h.ok("step", json!({"type": "over"})).await;
    assert_eq!(
        step["stop"]["frame"]["object"], "ZCL_SMP_FM_EXCEPTIONS",
        "{step}"
    );
    assert_eq!(step["stop"]["frame"]["line"], 46, "{step}");
    assert_eq!(
        h.ok("get", json!({"path": "SY-SUBRC"})).await["variable"]["value"],
        "1"
    );
    h.release().await;
    let out = h.response(&run).await;
    let expected = std::fs::read_to_string(samples.join("zcl_smp_fm_exceptions.expected.txt"))
        .expect("expected output");
    assert_eq!(
        out["result"]["output"].as_str().map(str::trim_end),
        Some(expected.trim_end()),
        "{out}"
    );
    h.finish(task).await;
    sim.shutdown().await;
}
