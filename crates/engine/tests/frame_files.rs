//! Issue 24: a frame says where it is in the terms of an editor — `object_type` and the
//! abapGit `file` whose `line` it is. For each kind of source the simulator's samples hold,
//! a program stops there, and the line of that file is the statement the stop shows.

use crate::common;

use std::path::{Path, PathBuf};

use common::start_with;
use serde_json::{Value, json};

fn repo_samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples")
}

fn sim_samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../sim/samples")
}

fn namespaced() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/namespaced")
}

/// Line `line` (from 1) of the abapGit file `file`, from whichever folder holds it.
fn line_of(file: &str, line: u64) -> String {
    let text = [repo_samples(), sim_samples(), namespaced()]
        .iter()
        .find_map(|dir| std::fs::read_to_string(dir.join(file)).ok())
        .unwrap_or_else(|| panic!("no abapGit file {file} in the samples"));
    let index = usize::try_from(line).expect("line") - 1;
    text.lines()
        .nth(index)
        .unwrap_or_else(|| panic!("{file} has no line {line}"))
        .to_string()
}

/// The line the stop marks as current in the source it shows.
fn shown(frame: &Value) -> String {
    frame["source"]
        .as_array()
        .and_then(|lines| lines.iter().find(|l| l["current"] == true))
        .and_then(|l| l["text"].as_str())
        .unwrap_or_else(|| panic!("no current line in {frame}"))
        .to_string()
}

struct Case {
    /// Where the breakpoint goes: the abapGit file and line, as an editor names it.
    file: &'static str,
    line: u64,
    object_type: &'static str,
    /// What starts the program: `run` or `test`, and its arguments.
    trigger: (&'static str, Value),
    /// The statement at that line.
    statement: &'static str,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frames_name_the_abapgit_file_and_line_of_each_kind_of_source() {
    let sim = sim::start(sim::SimConfig {
        program_dirs: vec![repo_samples(), namespaced()],
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim");
    let (mut h, task) = start_with(&sim, |_| {});
    let cases = [
        Case {
            file: "zcl_abapdbg_demo.clas.abap",
            line: 48,
            object_type: "CLAS",
            trigger: ("run", json!({"class": "ZCL_ABAPDBG_DEMO"})),
            statement: "rv_total = iv_quantity * iv_price.",
        },
        Case {
            file: "zcl_smp_calculator.clas.testclasses.abap",
            line: 22,
            object_type: "CLAS",
            trigger: ("test", json!({"class": "ZCL_SMP_CALCULATOR"})),
            statement: "cl_abap_unit_assert=>assert_equals( act = mo_cut->add( iv_a = 2 iv_b = 3 ) exp = 5 ).",
        },
        Case {
            file: "zcl_smp_shapes.clas.locals_imp.abap",
            line: 20,
            object_type: "CLAS",
            trigger: ("run", json!({"class": "ZCL_SMP_SHAPES"})),
            statement: "rv_area = mv_width * mv_height.",
        },
        Case {
            file: "#abapdbg#cl_frames.clas.abap",
            line: 17,
            object_type: "CLAS",
            trigger: ("run", json!({"class": "/ABAPDBG/CL_FRAMES"})),
            statement: "lv_answer = 6 * 7.",
        },
        Case {
            file: "zsmp_fg.fugr.z_smp_fg_divide.abap",
            line: 14,
            object_type: "FUGR",
            trigger: ("run", json!({"class": "ZCL_SMP_FM_EXCEPTIONS"})),
            statement: "ev_steps = 1.",
        },
        Case {
            file: "zsmp_forms.prog.abap",
            line: 17,
            object_type: "PROG",
            trigger: ("run", json!({"program": "ZSMP_FORMS"})),
            statement: "cv_sum = cv_sum + iv_value.",
        },
    ];
    for case in cases {
        assert_eq!(line_of(case.file, case.line).trim(), case.statement);
        h.ok(
            "bp.set",
            json!({"location": format!("{}:{}", case.file, case.line)}),
        )
        .await;
        let (cmd, args) = case.trigger;
        let run = h.call_later(cmd, args).await;
        let stop = h.event("stopped").await;
        let frame = &stop["body"]["frame"];
        assert_eq!(frame["file"], case.file, "{stop}");
        assert_eq!(frame["line"], case.line, "{stop}");
        assert_eq!(frame["object_type"], case.object_type, "{stop}");
        // The file's line is the statement the system shows as current.
        assert_eq!(shown(frame).trim(), case.statement, "{stop}");
        // Every frame of the stack names a file whose line is where that frame is.
        let stack = h.ok("stack", json!({})).await;
        for f in stack["frames"].as_array().expect("frames") {
            if let (Some(file), Some(line)) = (f["file"].as_str(), f["line"].as_u64()) {
                assert!(
                    !line_of(file, line).trim().is_empty(),
                    "frame {f} names an empty line"
                );
            }
        }
        h.release().await;
        let answer = h.response(&run).await;
        assert_eq!(answer["ok"], true, "{} {answer}", case.file);
    }
    h.finish(task).await;
    sim.shutdown().await;
}
