//! A third-party ADT client, abap-adt-api (written and verified against real SAP systems),
//! runs a whole debug session against the simulator unchanged: login, breakpoints with an
//! in-band refusal, listener, classrun trigger, attach, stack, scopes and variables, a step,
//! a frame switch, continue to the end, the run's output, cleanup; then a run that divides by
//! zero and the dumps feed read with the client's own reader (`dumps`, with and without a
//! `$query`).
//!
//! Needs Node.js and `npm ci` in tests/conformance (scripts/test-all.sh does both).

use std::process::Command;

use e2e::Simulator;

#[test]
fn abap_adt_api_runs_a_whole_session_against_the_simulator() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
    assert!(
        dir.join("node_modules/abap-adt-api").exists(),
        "abap-adt-api is not installed: run `npm ci --prefix tests/conformance` (scripts/test-all.sh does)"
    );
    let dumps =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/sim/tests/fixtures/dumps");
    let sim = Simulator::start_with(&["--programs", &dumps.to_string_lossy()]);
    let out = Command::new("node")
        .arg(dir.join("adt_api_session.mjs"))
        .args([&sim.url, "DEVELOPER", "abap"])
        .current_dir(&dir)
        .output()
        .expect("run node (Node.js must be installed)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("conformance session ok"),
        "abap-adt-api session failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(
        stdout.lines().filter(|l| l.starts_with("ok: ")).count() >= 29,
        "{stdout}"
    );
    assert!(sim.stop(), "the simulator exits cleanly");
}
