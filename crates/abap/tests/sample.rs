//! The sample class of the simulator: output, stop sequence, stack and variables.

use abap::{NoDebugger, Repository, Resume, RunError, SourcePart, StopContext, VarRecord};

use crate::harness::on_stop;

const SAMPLE: &str = include_str!("../../sim/samples/zcl_abapdbg_demo.clas.abap");
const CLASS: &str = "ZCL_ABAPDBG_DEMO";

fn repo() -> Repository {
    let mut r = Repository::new();
    r.add_file("zcl_abapdbg_demo.clas.abap", SAMPLE)
        .expect("sample loads");
    r
}

#[test]
fn runs_the_sample() {
    let out = repo()
        .run_classrun("zcl_abapdbg_demo", &mut NoDebugger)
        .expect("runs");
    assert_eq!(out, "Order A001: total 60, rate 12.50\nDoubled rate: 25.00");
}

#[test]
fn load_dir_finds_the_sample() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../sim/samples");
    let mut r = Repository::new();
    // The simulator bundles the demo class and ZCL_ABAPDBG_ORDERS.
    let loaded = r.load_dir(&dir).expect("loads");
    assert_eq!((loaded.objects, loaded.skipped.len()), (2, 0));
    let mut objects = r.objects();
    objects.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        objects,
        vec![
            (CLASS.to_string(), abap::ObjectKind::Class),
            ("ZCL_ABAPDBG_ORDERS".to_string(), abap::ObjectKind::Class),
        ]
    );
    assert_eq!(r.source("zcl_abapdbg_demo", SourcePart::Main), Some(SAMPLE));
    assert_eq!(r.source(CLASS, SourcePart::Implementations), None);
}

/// Records every stop: line, depth, include and include line, and chosen variables.
#[derive(Default)]
struct Recorder {
    stops: Vec<(u32, usize, String, u32)>,
    counts: Vec<(u32, String)>,
    snapshots: Vec<(u32, ContextSnapshot)>,
    terminate_at: Option<usize>,
}

#[derive(Debug, Clone)]
struct ContextSnapshot {
    scopes: Vec<String>,
    params: Vec<VarRecord>,
    locals: Vec<VarRecord>,
    me: Option<Vec<VarRecord>>,
    vars: Vec<VarRecord>,
    stack: Vec<(String, u32, String)>,
}

impl Recorder {
    /// Records one stop; the test's hook (`on_stop`) calls it.
    fn record(&mut self, ctx: &dyn StopContext) -> Resume {
        let loc = ctx.location();
        self.stops
            .push((loc.line, ctx.depth(), loc.include.clone(), loc.include_line));
        if let Some(r) = ctx.variables(0, &["LV_COUNT".to_string()]).first() {
            self.counts.push((loc.line, r.value.clone()));
        }
        if matches!(loc.line, 36 | 39 | 44 | 48) {
            self.snapshots.push((
                loc.line,
                ContextSnapshot {
                    scopes: ctx
                        .scopes(0)
                        .into_iter()
                        .map(|s| format!("{}|{}", s.id, s.name))
                        .collect(),
                    params: ctx.children(0, "@PARAMETERS").unwrap_or_default(),
                    locals: ctx.children(0, "@LOCALS").unwrap_or_default(),
                    me: ctx.children(0, "ME"),
                    vars: ctx.variables(
                        0,
                        &[
                            "LV_TOTAL".into(),
                            "IV_PRICE".into(),
                            "ME".into(),
                            "NOPE".into(),
                            "SY-INDEX".into(),
                        ],
                    ),
                    stack: ctx
                        .stack()
                        .into_iter()
                        .map(|f| (f.location.include, f.location.line, f.location.event_name))
                        .collect(),
                },
            ));
        }
        if self.terminate_at == Some(self.stops.len()) {
            return Resume::Terminate;
        }
        Resume::Run
    }
}

fn run_recorded() -> Recorder {
    let mut rec = Recorder::default();
    let out = repo()
        .run_classrun(CLASS, &mut on_stop(|ctx| rec.record(ctx)))
        .expect("runs");
    assert_eq!(out, "Order A001: total 60, rate 12.50\nDoubled rate: 25.00");
    rec
}

#[test]
fn stop_sequence() {
    let rec = run_recorded();
    let lines: Vec<u32> = rec.stops.iter().map(|s| s.0).collect();
    assert_eq!(
        lines,
        vec![
            31, 32, 33, 34, 35, 36, 48, 49, 35, 36, 48, 49, 35, 36, 48, 49, 38, 39, 43, 44, 45
        ]
    );
    let main_inc = "ZCL_ABAPDBG_DEMO==============CM001";
    let sub_inc = "ZCL_ABAPDBG_DEMO==============CM002";
    assert_eq!(rec.stops[0], (31, 1, main_inc.to_string(), 9));
    assert_eq!(rec.stops[6], (48, 2, sub_inc.to_string(), 2));
    assert_eq!(rec.stops[7], (49, 2, sub_inc.to_string(), 3));
    assert_eq!(rec.stops[20], (45, 1, main_inc.to_string(), 23));
}

#[test]
fn variables_change_between_stops() {
    let rec = run_recorded();
    let at35: Vec<&str> = rec
        .counts
        .iter()
        .filter(|(l, _)| *l == 35)
        .map(|(_, v)| v.as_str())
        .collect();
    assert_eq!(at35, vec!["0 ", "1 ", "2 "]);
    let at36: Vec<&str> = rec
        .counts
        .iter()
        .filter(|(l, _)| *l == 36)
        .map(|(_, v)| v.as_str())
        .collect();
    assert_eq!(at36, vec!["1 ", "2 ", "3 "]);
}

#[test]
fn scopes_and_records_in_main() {
    let rec = run_recorded();
    let (_, s) = rec
        .snapshots
        .iter()
        .find(|(l, _)| *l == 39)
        .expect("stop at 39");
    assert_eq!(
        s.scopes,
        vec!["ME|", "@PARAMETERS|Parameters", "@LOCALS|Locals"]
    );
    assert_eq!(s.stack.len(), 1);

    let out = &s.params[0];
    assert_eq!(
        (
            out.id.as_str(),
            out.kind.as_str(),
            out.parameter_kind.as_str()
        ),
        ("OUT", "parameter", "importing")
    );
    assert!(out.read_only);
    assert_eq!(out.meta_type, "objectref");
    assert_eq!(out.declared_type_name, "IF_OO_ADT_CLASSRUN_OUT");
    assert_eq!(out.actual_type_name, "CL_OO_ADT_CLASSRUN_OUTPUT");
    assert_eq!(out.technical_type, "Ref to IF_OO_ADT_CLASSRUN_OUT");
    assert_eq!(out.value, "{O:2*\\CLASS=CL_OO_ADT_CLASSRUN_OUTPUT}");

    let names: Vec<&str> = s.locals.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        vec!["LV_COUNT", "LV_TOTAL", "LV_NAME", "LV_CODE", "LV_RATE"]
    );
    let get = |n: &str| s.locals.iter().find(|r| r.name == n).expect(n).clone();

    let total = get("LV_TOTAL");
    assert_eq!(
        (total.value.as_str(), total.hex_value.as_str()),
        ("60 ", "3C000000")
    );
    assert_eq!(
        (
            total.technical_type.as_str(),
            total.length,
            total.meta_type.as_str()
        ),
        ("I", 4, "simple")
    );
    assert_eq!(
        (
            total.declared_type_name.as_str(),
            total.actual_type_name.as_str()
        ),
        ("I", "I")
    );
    assert_eq!((total.kind.as_str(), total.read_only), ("variable", false));

    let name = get("LV_NAME");
    assert_eq!(
        (name.value.as_str(), name.hex_value.as_str()),
        ("Order", "4F007200640065007200")
    );
    assert_eq!(
        (
            name.technical_type.as_str(),
            name.length,
            name.meta_type.as_str()
        ),
        ("CString", 5, "string")
    );

    let code = get("LV_CODE");
    assert_eq!(code.value, "A001      ");
    assert_eq!(code.hex_value, "4100300030003100200020002000200020002000");
    assert_eq!((code.technical_type.as_str(), code.length), ("C", 10));

    let rate = get("LV_RATE");
    assert_eq!(
        (rate.value.as_str(), rate.hex_value.as_str()),
        ("12.50 ", "000000000001250C")
    );
    assert_eq!((rate.technical_type.as_str(), rate.length), ("P", 8));

    assert_eq!(s.me, Some(vec![]));
    let ids: Vec<(&str, &str, &str)> = s
        .vars
        .iter()
        .map(|r| (r.id.as_str(), r.name.as_str(), r.kind.as_str()))
        .collect();
    assert_eq!(
        ids,
        vec![
            ("LV_TOTAL", "LV_TOTAL", "unknown"),
            ("ME", "ME", "unknown"),
            ("SY-INDEX", "SY-INDEX", "unknown")
        ]
    );
    let me = &s.vars[1];
    assert_eq!(me.value, "{O:1*\\CLASS=ZCL_ABAPDBG_DEMO}");
    assert_eq!(me.technical_type, "Ref to ZCL_ABAPDBG_DEMO");
    assert_eq!(me.meta_type, "objectref");
}

#[test]
fn frames_inside_line_total() {
    let rec = run_recorded();
    let (_, s) = rec
        .snapshots
        .iter()
        .find(|(l, _)| *l == 48)
        .expect("stop at 48");
    assert_eq!(s.stack.len(), 2);
    assert_eq!(
        s.stack[0],
        (
            "ZCL_ABAPDBG_DEMO==============CM002".into(),
            48,
            "LINE_TOTAL".into()
        )
    );
    assert_eq!(
        s.stack[1],
        (
            "ZCL_ABAPDBG_DEMO==============CM001".into(),
            36,
            "IF_OO_ADT_CLASSRUN~MAIN".into()
        )
    );
    assert_eq!(
        s.scopes,
        vec!["ME|", "@PARAMETERS|Parameters", "@LOCALS|Locals"]
    );
    let p: Vec<(&str, &str, bool, &str)> = s
        .params
        .iter()
        .map(|r| {
            (
                r.name.as_str(),
                r.parameter_kind.as_str(),
                r.read_only,
                r.value.as_str(),
            )
        })
        .collect();
    assert_eq!(
        p,
        vec![
            ("IV_QUANTITY", "importing", true, "1 "),
            ("IV_PRICE", "importing", true, "10 "),
            ("RV_TOTAL", "returning", false, "0 ")
        ]
    );
    assert!(s.locals.is_empty());
    assert_eq!(
        s.vars.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        vec!["IV_PRICE", "ME", "SY-INDEX"]
    );
    assert_eq!(s.vars[2].value, "1 ", "sy-index in the first DO pass");
}

#[test]
fn stop_points() {
    let r = repo();
    for line in [31, 35, 36, 38, 39, 41, 43, 45, 48, 49] {
        assert!(
            r.stop_point(CLASS, SourcePart::Main, line).is_some(),
            "line {line}"
        );
    }
    for line in [
        0, 1, 2, 8, 11, 13, 17, 23, 24, 28, 30, 37, 40, 42, 46, 47, 50, 51, 99,
    ] {
        assert!(
            r.stop_point(CLASS, SourcePart::Main, line).is_none(),
            "line {line}"
        );
    }
    let loc = r
        .stop_point("zcl_abapdbg_demo", SourcePart::Main, 48)
        .expect("48");
    assert_eq!(loc.program, "ZCL_ABAPDBG_DEMO==============CP");
    assert_eq!(loc.include, "ZCL_ABAPDBG_DEMO==============CM002");
    assert_eq!((loc.line, loc.include_line), (48, 2));
    assert_eq!(
        (loc.event_type.as_str(), loc.event_name.as_str()),
        ("METHOD", "LINE_TOTAL")
    );
    assert!(
        r.stop_point(CLASS, SourcePart::Implementations, 48)
            .is_none()
    );
}

#[test]
fn terminate_from_the_hook() {
    let mut rec = Recorder {
        terminate_at: Some(7),
        ..Recorder::default()
    };
    assert_eq!(
        repo().run_classrun(CLASS, &mut on_stop(|ctx| rec.record(ctx))),
        Err(RunError::Terminated)
    );
    assert_eq!(rec.stops.len(), 7);
}

#[test]
fn unknown_and_unrunnable_classes() {
    let r = repo();
    assert_eq!(
        r.run_classrun("zcl_nope", &mut NoDebugger),
        Err(RunError::UnknownClass("ZCL_NOPE".into()))
    );
    let mut r = Repository::new();
    r.add_file(
        "zcl_plain.clas.abap",
        "CLASS zcl_plain DEFINITION PUBLIC. PUBLIC SECTION. METHODS m. ENDCLASS.\nCLASS zcl_plain IMPLEMENTATION. METHOD m. ENDMETHOD. ENDCLASS.",
    )
    .expect("loads");
    assert_eq!(
        r.run_classrun("ZCL_PLAIN", &mut NoDebugger),
        Err(RunError::NotRunnable("ZCL_PLAIN".into()))
    );
}

#[test]
fn repository_is_shareable_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Repository>();
    let r = std::sync::Arc::new(repo());
    let h = std::thread::spawn({
        let r = r.clone();
        move || {
            r.run_classrun(CLASS, &mut NoDebugger)
                .map_err(|e| e.to_string())
        }
    });
    assert_eq!(
        h.join().expect("thread"),
        r.run_classrun(CLASS, &mut NoDebugger)
            .map_err(|e| e.to_string())
    );
}

/// An object the parser refuses is left out with all its files and named; the others load.
#[test]
fn load_dir_skips_an_object_it_cannot_load() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("load-dir-skips-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("zcl_abapdbg_demo.clas.abap"), SAMPLE).expect("write");
    let deep = format!(
        r"CLASS lcl_deep DEFINITION.
  PUBLIC SECTION.
    METHODS m.
ENDCLASS.
CLASS lcl_deep IMPLEMENTATION.
  METHOD m.
    DATA x TYPE i.
{}{}  ENDMETHOD.
ENDCLASS.
",
        "IF x = 0.\n".repeat(5_000),
        "ENDIF.\n".repeat(5_000)
    );
    // The main source loads; the local implementations do not: the whole object is out.
    std::fs::write(
        dir.join("zcl_deep.clas.abap"),
        r"CLASS zcl_deep DEFINITION PUBLIC.
ENDCLASS.
CLASS zcl_deep IMPLEMENTATION.
ENDCLASS.
",
    )
    .expect("write");
    std::fs::write(dir.join("zcl_deep.clas.locals_imp.abap"), deep).expect("write");
    let mut r = Repository::new();
    let loaded = r.load_dir(&dir).expect("loads");
    std::fs::remove_dir_all(&dir).expect("remove temp dir");
    assert_eq!(loaded.objects, 1);
    let skipped: Vec<&str> = loaded.skipped.iter().map(|(o, _)| o.as_str()).collect();
    assert_eq!(skipped, ["ZCL_DEEP"]);
    assert!(
        loaded.skipped[0]
            .1
            .to_string()
            .contains("nested too deeply"),
        "{}",
        loaded.skipped[0].1
    );
    assert_eq!(r.source("zcl_deep", SourcePart::Main), None);
    assert_eq!(
        r.objects(),
        vec![(CLASS.to_string(), abap::ObjectKind::Class)]
    );
    let out = r
        .run_classrun("zcl_abapdbg_demo", &mut NoDebugger)
        .expect("runs");
    assert!(out.starts_with("Order A001"), "{out}");
}
