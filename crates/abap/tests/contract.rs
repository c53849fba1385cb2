//! The debugger contract extensions (statement, caught exception, message, set_value, jump)
//! and the report and ABAP Unit triggers, run through real ABAP source.

use abap::{
    DebugHook, NoDebugger, ObjectKind, Repository, Resume, RunError, SourcePart, TestStatus,
};

use crate::harness::{on_stop, repo};

fn classrun_class(main: &str, methods: &str) -> String {
    format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
    METHODS helper RETURNING VALUE(r) TYPE i.
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{main}
  ENDMETHOD.
  METHOD helper.
    r = 42.
  ENDMETHOD.
{methods}
ENDCLASS.
"
    )
}

fn classrun(main: &str) -> Result<String, RunError> {
    let r = repo(&[("zcl_t.clas.abap", &classrun_class(main, ""))]);
    r.run_classrun("ZCL_T", &mut NoDebugger)
}

/// (line, statement, caught exception, message) at a stop.
type StopInfo = (
    u32,
    String,
    Option<String>,
    Option<(String, String, String)>,
);

#[test]
fn try_catch_raise_and_cx_tree() {
    let out = classrun(
        r"    DATA lx TYPE REF TO cx_root.
    DATA i TYPE i.
    TRY.
        i = 1 / i.
      CATCH cx_sy_zerodivide INTO lx.
        out->write( lx->get_text( ) ).
    ENDTRY.
    TRY.
        RAISE EXCEPTION TYPE cx_sy_itab_line_not_found.
      CATCH cx_sy_arithmetic_error.
        out->write( `wrong` ).
      CATCH cx_dynamic_check INTO lx.
        out->write( `dynamic` ).
    ENDTRY.
    TRY.
        TRY.
            RAISE EXCEPTION NEW cx_sy_zerodivide( ).
          CLEANUP.
            out->write( `cleanup` ).
        ENDTRY.
      CATCH cx_root INTO lx.
        out->write( `outer` ).
        IF lx->previous IS NOT BOUND.
          out->write( `no previous` ).
        ENDIF.
    ENDTRY.",
    )
    .expect("runs");
    assert_eq!(
        out,
        r"Division by zero (type i)
dynamic
cleanup
outer
no previous"
    );
}

#[test]
fn uncaught_exception_is_a_dump_at_the_raise() {
    match classrun("    out->write( `a` ).\n    RAISE EXCEPTION TYPE cx_sy_zerodivide.") {
        Err(RunError::Dump {
            id,
            location,
            output,
            ..
        }) => {
            assert_eq!(id, "UNCAUGHT_EXCEPTION");
            assert_eq!(output, "a");
            assert_eq!(location.map(|l| l.line), Some(10));
        }
        other => panic!("{other:?}"),
    }
    // A runtime error nobody catches keeps its own id.
    match classrun(
        r"    DATA i TYPE i.
    TRY.
    i = 1 / i.
    CATCH cx_sy_conversion_error.
    ENDTRY.",
    ) {
        Err(RunError::Dump { id, .. }) => assert_eq!(id, "COMPUTE_INT_ZERODIVIDE"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn stop_context_names_statements_exceptions_and_messages() {
    let src = classrun_class(
        r"    DATA i TYPE i.
    i = 1.
    i = i + 1.
    helper( ).
    TRY.
        RAISE EXCEPTION TYPE cx_sy_zerodivide.
      CATCH cx_root.
        MESSAGE e001(zmsg) WITH 'x'.
    ENDTRY.
    MESSAGE 'hello' TYPE 'I'.",
        "",
    );
    let r = repo(&[("zcl_t.clas.abap", &src)]);
    // Every stop.
    let mut stops: Vec<StopInfo> = Vec::new();
    let mut rec = on_stop(|ctx| {
        stops.push((
            ctx.location().line,
            ctx.statement(),
            ctx.caught_exception(),
            ctx.message(),
        ));
        Resume::Run
    });
    let out = r.run_classrun("ZCL_T", &mut rec).expect("runs");
    assert_eq!(out, "E: ZMSG(001) x\nI: hello");
    let by_line: Vec<(u32, &str)> = stops.iter().map(|s| (s.0, s.1.as_str())).collect();
    assert_eq!(
        by_line,
        vec![
            (10, "MOVE"),
            (11, "COMPUTE"),
            (12, "CALL METHOD"),
            (21, "MOVE"),
            (22, "ENDMETHOD"),
            (13, "TRY"),
            (14, "RAISE EXCEPTION"),
            (15, "CATCH"),
            (16, "MESSAGE"),
            (18, "MESSAGE"),
            (19, "ENDMETHOD"),
        ]
    );
    let catch = stops.iter().find(|s| s.0 == 15).expect("catch stop");
    assert_eq!(catch.2.as_deref(), Some("CX_SY_ZERODIVIDE"));
    assert!(stops.iter().filter(|s| s.0 != 15).all(|s| s.2.is_none()));
    let msg = stops.iter().find(|s| s.0 == 16).expect("message stop");
    assert_eq!(
        msg.3,
        Some(("ZMSG".to_string(), "001".to_string(), "E".to_string()))
    );
    let msg = stops.iter().find(|s| s.0 == 18).expect("message stop");
    assert_eq!(
        msg.3,
        Some((String::new(), "000".to_string(), "I".to_string()))
    );
}

#[test]
fn set_value_converts_like_a_move() {
    let src = classrun_class(
        r"    DATA i TYPE i.
    DATA c TYPE c LENGTH 4.
    DATA p TYPE p LENGTH 8 DECIMALS 2.
    CONSTANTS k TYPE i VALUE 1.
    out->write( |{ i } { c } { p }| ).",
        "",
    );
    let r = repo(&[("zcl_t.clas.abap", &src)]);
    // Sets values at the first stop on line 13.
    let mut sets: Vec<(&str, &str)> = vec![
        ("I", "15"),
        ("c", "abcdef"),
        ("P", "-1.5"),
        ("I", "x1"),
        ("NOPE", "1"),
        ("K", "2"),
        ("ME", "1"),
    ];
    let mut results = Vec::new();
    let mut h = on_stop(|ctx| {
        if ctx.location().line == 13 {
            for (id, v) in std::mem::take(&mut sets) {
                results.push(ctx.set_value(0, id, v).map(|r| (r.value, r.hex_value)));
            }
        }
        Resume::Run
    });
    let out = r.run_classrun("ZCL_T", &mut h).expect("runs");
    assert_eq!(out, "15 abcd -1.50");
    assert_eq!(results[0], Ok(("15 ".into(), "0F000000".into())));
    assert_eq!(results[1], Ok(("abcd".into(), "6100620063006400".into())));
    assert_eq!(results[2], Ok(("1.50-".into(), "000000000000150D".into())));
    for (i, needle) in [
        (3, "number"),
        (4, "unknown"),
        (5, "constant"),
        (6, "unknown"),
    ] {
        let err = results[i].clone().expect_err("fails");
        assert!(err.contains(needle), "{err}");
    }
}

/// Runs `ZCL_T`, jumping once from line `from` to `to`; asks there whether each line of
/// `probe` can be jumped to. Returns the output and the answers.
fn jumped(r: &Repository, from: u32, to: u32, probe: &[u32]) -> (String, Vec<(u32, bool)>) {
    let (mut done, mut can) = (false, Vec::new());
    let mut hook = on_stop(|ctx| {
        if !done && ctx.location().line == from {
            done = true;
            can = probe.iter().map(|l| (*l, ctx.can_jump_to(*l))).collect();
            return Resume::JumpTo(to);
        }
        Resume::Run
    });
    let out = r.run_classrun("ZCL_T", &mut hook).expect("runs");
    (out, can)
}

#[test]
fn jump_skips_or_repeats_statements() {
    let main = r"    DATA i TYPE i.
    i = 1.
    i = i + 10.
    DO 2 TIMES.
      i = i + 100.
    ENDDO.
    out->write( i ).";
    let src = classrun_class(main, "");
    let r = repo(&[("zcl_t.clas.abap", &src)]);
    // Skip `i = i + 10`.
    let (out, can) = jumped(&r, 11, 12, &[10, 12, 13, 14, 15, 16, 3, 21]);
    assert_eq!(out, "201 ");
    assert_eq!(
        can,
        vec![
            (10, true),
            (12, true),
            (13, false),
            (14, false),
            (15, true),
            (16, true),
            (3, false),
            (21, false)
        ]
    );
    // Back from inside the loop to before it: the loop starts again.
    assert_eq!(jumped(&r, 13, 10, &[]).0, "211 ");
    // A line that is no stop point is ignored.
    assert_eq!(jumped(&r, 11, 9, &[]).0, "211 ");
}

const REPORT: &str = r"REPORT zrep.

DATA gv_count TYPE i.

INITIALIZATION.
  gv_count = 1.

START-OF-SELECTION.
  WRITE 'Hello'.
  WRITE 'World'.
  PERFORM add USING 5 CHANGING gv_count.
  WRITE / gv_count.
  ULINE.
  SKIP.
  WRITE: / 'n', 'x'.
  NEW-LINE.
  WRITE 'end'.

END-OF-SELECTION.
  WRITE / 'done'.

FORM add USING iv_n TYPE i CHANGING cv_sum TYPE i.
  DATA lv_tmp TYPE i.
  lv_tmp = iv_n * 2.
  cv_sum = cv_sum + lv_tmp.
ENDFORM.
";

#[test]
fn report_events_forms_and_list() {
    let r = repo(&[("zrep.prog.abap", REPORT)]);
    let out = r.run_report("zrep", &mut NoDebugger).expect("runs");
    let uline = "-".repeat(83);
    // `WRITE / gv_count`: 11 places, the last one the sign column (a blank, cut with the
    // line's trailing blanks).
    assert_eq!(
        out,
        format!(
            r"Hello World
        11
{uline}

n x
end
done"
        )
    );
    assert!(matches!(
        r.run_report("ZNONE", &mut NoDebugger),
        Err(RunError::UnknownClass(_))
    ));
    let loc = r
        .stop_point("ZREP", SourcePart::Main, 24)
        .expect("form statement");
    assert_eq!(
        (
            loc.program.as_str(),
            loc.include.as_str(),
            loc.include_line,
            loc.event_type.as_str(),
            loc.event_name.as_str()
        ),
        ("ZREP", "ZREP", 24, "FORM", "ADD")
    );
    assert!(r.stop_point("ZREP", SourcePart::Main, 3).is_none());
    assert!(r.stop_point("ZREP", SourcePart::Main, 26).is_some());
}

/// (program, include, line, event type, event name) of a frame.
type FrameInfo = (String, String, u32, String, String);

/// A hook that keeps the stack, and the globals (name, value), at the first stop on `line`.
fn stack_at<'a>(
    line: u32,
    stack: &'a mut Vec<FrameInfo>,
    globals: &'a mut Vec<(String, String)>,
) -> impl DebugHook + 'a {
    on_stop(move |ctx| {
        if ctx.location().line == line && stack.is_empty() {
            *stack = ctx
                .stack()
                .into_iter()
                .map(|f| {
                    let l = f.location;
                    (l.program, l.include, l.line, l.event_type, l.event_name)
                })
                .collect();
            if ctx.scopes(0).iter().any(|s| s.id == "@GLOBALS") {
                *globals = ctx
                    .children(0, "@GLOBALS")
                    .unwrap_or_default()
                    .into_iter()
                    .map(|r| (r.name, r.value))
                    .collect();
            }
        }
        Resume::Run
    })
}

#[test]
fn report_frames_name_events_and_forms() {
    let r = repo(&[("zrep.prog.abap", REPORT)]);
    let (mut stack, mut globals) = (Vec::new(), Vec::new());
    r.run_report("ZREP", &mut stack_at(24, &mut stack, &mut globals))
        .expect("runs");
    assert_eq!(
        stack,
        vec![
            (
                "ZREP".into(),
                "ZREP".into(),
                24,
                "FORM".into(),
                "ADD".into()
            ),
            (
                "ZREP".into(),
                "ZREP".into(),
                11,
                "EVENT".into(),
                "START-OF-SELECTION".into()
            ),
        ]
    );
    assert_eq!(globals, vec![("GV_COUNT".to_string(), "1 ".to_string())]);
}

const CUT: &str = r"CLASS zcl_calc DEFINITION PUBLIC CREATE PUBLIC.
  PUBLIC SECTION.
    METHODS add IMPORTING a TYPE i b TYPE i RETURNING VALUE(r) TYPE i.
    METHODS div IMPORTING a TYPE i b TYPE i RETURNING VALUE(r) TYPE i.
ENDCLASS.

CLASS zcl_calc IMPLEMENTATION.
  METHOD add.
    r = a + b.
  ENDMETHOD.
  METHOD div.
    r = a / b.
  ENDMETHOD.
ENDCLASS.
";

const TESTS: &str = r"CLASS ltcl_calc DEFINITION FINAL FOR TESTING
  DURATION SHORT
  RISK LEVEL HARMLESS.
  PRIVATE SECTION.
    DATA cut TYPE REF TO zcl_calc.
    CLASS-DATA setups TYPE i.
    METHODS setup.
    METHODS adds FOR TESTING.
    METHODS fails FOR TESTING.
    METHODS divides_by_zero FOR TESTING.
    METHODS old_api FOR TESTING.
    METHODS helper.
ENDCLASS.

CLASS ltcl_calc IMPLEMENTATION.
  METHOD setup.
    cut = NEW #( ).
    setups = setups + 1.
  ENDMETHOD.
  METHOD adds.
    cl_abap_unit_assert=>assert_equals( act = cut->add( a = 1 b = 2 ) exp = 3 ).
    cl_abap_unit_assert=>assert_bound( cut ).
    cl_abap_unit_assert=>assert_char_cp( act = `Hello World` exp = 'Hello*' ).
    cl_abap_unit_assert=>assert_true( abap_true ).
  ENDMETHOD.
  METHOD fails.
    cl_abap_unit_assert=>assert_equals( act = cut->add( a = 1 b = 1 ) exp = 3 msg = 'one and one' ).
    cl_abap_unit_assert=>fail( 'not reached' ).
  ENDMETHOD.
  METHOD divides_by_zero.
    cut->div( a = 1 b = 0 ).
  ENDMETHOD.
  METHOD old_api.
    cl_aunit_assert=>assert_differs( act = setups exp = 0 ).
  ENDMETHOD.
  METHOD helper.
  ENDMETHOD.
ENDCLASS.

CLASS ltd_double DEFINITION FOR TESTING.
  PUBLIC SECTION.
    METHODS answer RETURNING VALUE(r) TYPE i.
ENDCLASS.

CLASS ltd_double IMPLEMENTATION.
  METHOD answer.
    r = 42.
  ENDMETHOD.
ENDCLASS.
";

#[test]
fn unit_tests_pass_fail_and_err() {
    let r = repo(&[
        ("zcl_calc.clas.abap", CUT),
        ("zcl_calc.clas.testclasses.abap", TESTS),
    ]);
    // Where the first stop in the test include is.
    let mut first: Option<abap::Location> = None;
    let mut h = on_stop(|ctx| {
        let l = ctx.location();
        if first.is_none() && l.part == SourcePart::TestClasses {
            first = Some(l);
        }
        Resume::Run
    });
    let res = r
        .run_unit_tests("zcl_calc", ObjectKind::Class, None, &mut h)
        .expect("runs");
    assert!(!res.passed());
    // The test double (FOR TESTING, no test methods) is no test class of the result.
    assert_eq!(res.classes.len(), 1);
    let c = &res.classes[0];
    assert_eq!(
        (
            c.name.as_str(),
            c.line,
            c.risk_level.as_str(),
            c.duration.as_str()
        ),
        ("LTCL_CALC", 1, "harmless", "short")
    );
    let st: Vec<(&str, TestStatus)> = c
        .methods
        .iter()
        .map(|m| (m.name.as_str(), m.status))
        .collect();
    assert_eq!(
        st,
        vec![
            ("ADDS", TestStatus::Passed),
            ("FAILS", TestStatus::Failed),
            ("DIVIDES_BY_ZERO", TestStatus::Error),
            ("OLD_API", TestStatus::Passed),
        ]
    );
    let fails = &c.methods[1];
    assert_eq!(fails.line, 26);
    let a = &fails.alerts[0];
    assert_eq!(a.kind, "failedAssertion");
    assert_eq!(a.severity, "critical");
    assert_eq!(a.title, "Critical Assertion Error: 'Fails: ASSERT_EQUALS'");
    assert_eq!(a.details, vec!["one and one", "Expected [3] Actual [2]"]);
    let loc = a.location.as_ref().expect("location");
    assert_eq!(
        (loc.part, loc.line, loc.include.as_str(), loc.include_line),
        (
            SourcePart::TestClasses,
            27,
            "ZCL_CALC======================CCAU",
            27
        )
    );
    let e = &c.methods[2].alerts[0];
    assert_eq!(e.kind, "exception");
    assert_eq!(e.title, "Exception Error <COMPUTE_INT_ZERODIVIDE>");
    let first = first.expect("stopped in the test include");
    assert_eq!(
        (
            first.line,
            first.event_type.as_str(),
            first.event_name.as_str(),
            first.program.as_str()
        ),
        (17, "METHOD", "SETUP", "ZCL_CALC======================CP")
    );
    // One method only.
    let res = r
        .run_unit_tests("ZCL_CALC", ObjectKind::Class, Some("adds"), &mut NoDebugger)
        .expect("runs");
    assert!(res.passed());
    assert_eq!(res.classes[0].methods.len(), 1);
    // No test classes: empty result.
    let r2 = repo(&[("zcl_calc.clas.abap", CUT)]);
    let res = r2
        .run_unit_tests("ZCL_CALC", ObjectKind::Class, None, &mut NoDebugger)
        .expect("runs");
    assert!(res.classes.is_empty());
    assert!(matches!(
        r2.run_unit_tests("ZCL_NONE", ObjectKind::Class, None, &mut NoDebugger),
        Err(RunError::UnknownClass(_))
    ));
}

#[test]
fn local_classes_and_inheritance_in_class_includes() {
    let main = r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
    DATA lo TYPE REF TO lcl_base.
    lo = NEW lcl_child( 5 ).
    out->write( lo->describe( ) ).
    CREATE OBJECT lo TYPE lcl_base EXPORTING iv = 2.
    out->write( lo->describe( ) ).
  ENDMETHOD.
ENDCLASS.
";
    let defs = r"CLASS lcl_base DEFINITION.
  PUBLIC SECTION.
    METHODS constructor IMPORTING iv TYPE i.
    METHODS describe RETURNING VALUE(r) TYPE string.
  PROTECTED SECTION.
    DATA mv TYPE i.
ENDCLASS.
CLASS lcl_child DEFINITION INHERITING FROM lcl_base.
  PUBLIC SECTION.
    METHODS describe REDEFINITION.
ENDCLASS.
";
    let imps = r"CLASS lcl_base IMPLEMENTATION.
  METHOD constructor.
    mv = iv.
  ENDMETHOD.
  METHOD describe.
    r = |base { mv }|.
  ENDMETHOD.
ENDCLASS.
CLASS lcl_child IMPLEMENTATION.
  METHOD describe.
    r = super->describe( ).
    r = |child of { r }|.
  ENDMETHOD.
ENDCLASS.
";
    let r = repo(&[
        ("zcl_t.clas.abap", main),
        ("zcl_t.clas.locals_def.abap", defs),
        ("zcl_t.clas.locals_imp.abap", imps),
    ]);
    let (mut stack, mut globals) = (Vec::new(), Vec::new());
    let out = r
        .run_classrun("ZCL_T", &mut stack_at(6, &mut stack, &mut globals))
        .expect("runs");
    assert_eq!(out, "child of base 5\nbase 2");
    assert_eq!(
        stack[0],
        (
            "ZCL_T=========================CP".into(),
            "ZCL_T=========================CCIMP".into(),
            6,
            "METHOD".into(),
            "DESCRIBE".into()
        )
    );
    let loc = r
        .stop_point("ZCL_T", SourcePart::Implementations, 3)
        .expect("stop in locals_imp");
    assert_eq!(loc.include_line, 3);
}

#[test]
fn inline_declarations_in_assignments_and_catch() {
    let out = classrun(
        r"    DATA(n) = 7.
    DATA(s) = |n={ n }|.
    DATA(c) = 'abc'.
    n = n / 2.
    TRY.
        n = n / 0.
      CATCH cx_sy_zerodivide INTO DATA(lx).
        out->write( lx->get_text( ) ).
    ENDTRY.
    out->write( s && c && n ).",
    )
    .expect("runs");
    assert_eq!(out, "Division by zero (type i)\nn=7abc4 ");
}

/// Runs `ZCL_T` and reads the record of `id` at (the last stop on) `line`: value, technical
/// type, declared type name.
fn read_at(r: &Repository, line: u32, id: &str) -> Option<(String, String, String)> {
    let mut got = None;
    let mut hook = on_stop(|ctx| {
        if ctx.location().line == line {
            got = ctx
                .variables(0, &[id.to_string()])
                .into_iter()
                .next()
                .map(|r| (r.value, r.technical_type, r.declared_type_name));
        }
        Resume::Run
    });
    r.run_classrun("ZCL_T", &mut hook).expect("runs");
    got
}

#[test]
fn inline_variables_appear_once_declared() {
    let src = classrun_class(
        r"    DATA(n) = 7.
    DATA(s) = `x`.
    out->write( s ).",
        "",
    );
    let r = repo(&[("zcl_t.clas.abap", &src)]);
    assert_eq!(read_at(&r, 9, "N"), None);
    assert_eq!(
        read_at(&r, 11, "S"),
        Some(("x".into(), "CString".into(), "STRING".into()))
    );
}
