//! The harness's short mode works: every section runs and reports (CI runs this; the numbers
//! are not judged, a loaded machine makes them meaningless).

#[test]
fn quick_mode_runs_every_section() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bench"))
        .arg("--quick")
        .output()
        .expect("the harness runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    for section in [
        "## Step-to-view",
        "## Coprocess overhead",
        "## Front ends",
        "## DAP: session requests",
        "## A 2,000-row table",
        "## Coprocess start",
        "## Interpreter statements",
    ] {
        assert!(stdout.contains(section), "{section} missing:\n{stdout}");
    }
    assert!(!stdout.contains("FAILED"), "{stdout}");
    for figure in [
        "HTTP round trips per step + stack + vars",
        "next, then stack, scopes, locals of the top frame",
        "table, first page (100 rows)",
        "export csv",
        "peak RSS (VmHWM) of serve",
        "RSS after hello",
        "statements/s",
    ] {
        assert!(stdout.contains(figure), "{figure} missing:\n{stdout}");
    }
}
