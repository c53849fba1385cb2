//! The walking skeleton end to end: `abapdbg sim` and `abapdbg serve` as separate processes,
//! driven by a real bash coproc script with jq.

use std::process::Command;

use e2e::{Simulator, abapdbg_bin, script};

#[test]
fn bash_coproc_drives_a_whole_session() {
    let sim = Simulator::start();
    let dir = std::env::temp_dir().join(format!("abapdbg-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let transcript = dir.join("skeleton.jsonl");
    let out = Command::new("bash")
        .arg(script("skeleton_session.sh"))
        .env("ABAPDBG_BIN", abapdbg_bin())
        .env("ABAPDBG_URL", &sim.url)
        .env("ABAPDBG_USER", "DEVELOPER")
        .env("ABAPDBG_PASSWORD", "abap")
        .env("ABAPDBG_CLIENT", "001")
        .env("TRANSCRIPT", &transcript)
        .output()
        .expect("run bash");
    let transcript_text = std::fs::read_to_string(&transcript).unwrap_or_default();
    assert!(
        out.status.success(),
        "script failed\nstdout:\n{}\nstderr:\n{}\ntranscript:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        transcript_text
    );
    // Every line of the transcript is valid against the checked-in protocol schema.
    let schema: serde_json::Value = serde_json::from_str(include_str!("../jsonl/schema.json"))
        .expect("jsonl/schema.json is JSON");
    for line in transcript_text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("transcript line is JSON");
        if let Err(e) = jsonl::validate::validate(&schema, &v) {
            panic!("transcript line breaks the schema: {line}\n{e:#?}");
        }
    }
    assert!(
        transcript_text.lines().count() > 20,
        "a whole session was recorded"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    // One of the script's two breakpoints (line 30, a comment) was rejected: never on the
    // system, so not counted as deleted.
    assert!(
        stderr.contains("abapdbg released: listener stopped, 1 breakpoint(s) deleted"),
        "serve prints its receipt on stderr: {stderr}"
    );
    assert!(sim.stop(), "the simulator exits cleanly on SIGTERM");
}

#[test]
fn demo_walks_through_a_stop() {
    let out = Command::new(abapdbg_bin())
        .arg("demo")
        .output()
        .expect("run demo");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "demo failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for expected in [
        "verified",
        "rejected: Cannot create a breakpoint at this position",
        "stopped (breakpoint) in ZCL_ABAPDBG_DEMO->LINE_TOTAL at line 48",
        "RV_TOTAL changed: 0 -> 10",
        "frame 1: IF_OO_ADT_CLASSRUN~MAIN at line 36",
        "in the caller LV_COUNT = 1 and LV_TOTAL = 0",
        "stopped again at line 48 with IV_QUANTITY = 2",
        "| Order A001: total 60, rate 12.50",
        "| Doubled rate: 25.00",
    ] {
        assert!(
            stdout.contains(expected),
            "demo output lacks {expected:?}:\n{stdout}"
        );
    }
}
