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

/// `--max-statements` reaches the interpreter: an endless loop ends with the runtime error.
#[test]
fn sim_limit_flags_end_an_endless_program() {
    let dir = std::env::temp_dir().join(format!("abapdbg-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(
        dir.join("zcl_endless.clas.abap"),
        "CLASS zcl_endless DEFINITION PUBLIC FINAL CREATE PUBLIC.\n  PUBLIC SECTION.\n    INTERFACES if_oo_adt_classrun.\nENDCLASS.\nCLASS zcl_endless IMPLEMENTATION.\n  METHOD if_oo_adt_classrun~main.\n    DO.\n    ENDDO.\n  ENDMETHOD.\nENDCLASS.\n",
    )
    .expect("write the class");
    let programs = dir.display().to_string();
    let sim = Simulator::start_with(&["--programs", &programs, "--max-statements", "2000"]);
    let config = adt::Config {
        base_url: sim.url.clone(),
        user: "DEVELOPER".into(),
        password: "abap".into(),
        client: Some("001".into()),
        ..Default::default()
    };
    let client = adt::Client::new(&config, adt::SessionMode::Stateless).expect("client");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let answer = rt.block_on(async {
        tokio::time::timeout(
            std::time::Duration::from_secs(30),
            client.classrun("ZCL_ENDLESS"),
        )
        .await
    });
    let _ = std::fs::remove_dir_all(&dir);
    let err = match answer {
        Ok(Err(e)) => e,
        other => panic!("expected a runtime error, got {other:?}"),
    };
    let text = format!("{err:?}");
    assert!(text.contains("SIMULATOR_LIMIT"), "{text}");
    assert!(text.contains("2000"), "{text}");
}
