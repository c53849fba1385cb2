//! Semantics of the supported ABAP subset, run through `Repository::run_classrun`.

use abap::{LoadError, Repository, Resume, RunError};

use crate::harness::{on_stop, repo, run_class};

/// A classrun class `ZCL_T` whose `main` has `body`; `extra` goes into the private section,
/// `methods` into the implementation.
fn class(decl: &str, main: &str, methods: &str) -> String {
    format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
  PRIVATE SECTION.
{decl}
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{main}
  ENDMETHOD.
{methods}
ENDCLASS.
"
    )
}

fn run_full(src: &str) -> Result<String, RunError> {
    run_class(src)
}

fn run(main: &str) -> Result<String, RunError> {
    run_full(&class("", main, ""))
}

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

fn dump_id(r: Result<String, RunError>) -> String {
    match r {
        Err(RunError::Dump { id, .. }) => id,
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn integer_arithmetic_rounds() {
    assert_eq!(
        out(r"DATA i TYPE i.
i = 7 / 2. out->write( i ).
i = -7 / 2. out->write( i ).
i = 5 / 3. out->write( |{ i }| ).
i = 7 DIV 2. out->write( |{ i }| ).
i = -7 MOD 3. out->write( |{ i }| ).
i = 2 + 3 * 4 - ( 1 + 1 ). out->write( |{ i }| )."),
        r"4 
4-
2
3
2
12"
    );
}

#[test]
fn packed_arithmetic_and_conversions() {
    assert_eq!(
        out(r"DATA p TYPE p LENGTH 8 DECIMALS 2.
DATA i TYPE i.
p = 7 / 2. out->write( |{ p }| ).
p = '1.005'. out->write( |{ p }| ).
p = 1 / 3. out->write( |{ p }| ).
p = -2 / 3. out->write( |{ p }| ).
i = p. out->write( |{ i }| ).
p = `12.50`. p = p * 3. out->write( p )."),
        r"3.50
1.01
0.33
-0.67
-1
37.50 "
    );
}

#[test]
fn character_fields_pad_and_truncate() {
    assert_eq!(
        out(r"DATA c3 TYPE c LENGTH 3.
DATA c TYPE c.
DATA s TYPE string.
c3 = 'ABCDEF'. out->write( |<{ c3 }>| ).
c3 = 'A'. s = c3. out->write( |<{ s }>| ).
c = 'XY'. out->write( c ).
c3 = 42. out->write( |<{ c3 }>| ).
s = 42. out->write( |<{ s }>| ).
s = c3 && `!`. out->write( s )."),
        r"<ABC>
<A>
X
<42>
<42 >
42!"
    );
}

#[test]
fn literals_and_templates() {
    assert_eq!(
        out(r"DATA n TYPE i VALUE -5.
out->write( |n={ n } \{x\}\t| ).
out->write( 'it''s' ).
out->write( `a``b` ).
out->write( |{ n * 2 }| )."),
        "n=-5 {x}\t\nit's\na`b\n-10"
    );
}

#[test]
fn chained_declarations_and_values() {
    assert_eq!(
        out(r"DATA: a TYPE i VALUE 2,
      b TYPE string VALUE `x`,
      c TYPE c LENGTH 4 VALUE 'ab'.
CONSTANTS k TYPE i VALUE 10.
a = a + k. out->write( |{ a }{ b }{ c }.| )."),
        "12xab."
    );
}

#[test]
fn control_flow() {
    assert_eq!(
        out(r"DATA i TYPE i.
DATA s TYPE string.
DO 5 TIMES.
  IF sy-index = 2.
    CONTINUE.
  ELSEIF sy-index > 4.
    EXIT.
  ELSE.
    s = s && |{ sy-index }|.
  ENDIF.
ENDDO.
out->write( s ).
WHILE i < 3.
  i = i + 1.
ENDWHILE.
out->write( |{ i }| ).
CASE i.
  WHEN 1 OR 2.
    out->write( 'low' ).
  WHEN 3.
    out->write( 'three' ).
  WHEN OTHERS.
    out->write( 'other' ).
ENDCASE.
IF NOT ( i = 3 AND s = `134` ) OR s IS INITIAL.
  out->write( 'wrong' ).
ELSE.
  out->write( 'ok' ).
ENDIF.
CHECK i = 4.
out->write( 'not reached' )."),
        r"134
3
three
ok"
    );
}

#[test]
fn method_calls_and_parameters() {
    let src = class(
        r"    DATA mv_count TYPE i VALUE 1.
    CLASS-DATA gv_calls TYPE i.
    METHODS add IMPORTING iv_a TYPE i iv_b TYPE i DEFAULT 5 RETURNING VALUE(rv) TYPE i.
    METHODS split EXPORTING ev_hi TYPE i ev_lo TYPE i CHANGING cv TYPE i.
    CLASS-METHODS twice IMPORTING iv TYPE any RETURNING VALUE(rv) TYPE string.",
        r"    DATA hi TYPE i.
    DATA lo TYPE i.
    DATA c TYPE i VALUE 47.
    out->write( |{ add( iv_a = 1 ) } { me->add( iv_a = 1 iv_b = 2 ) } { add( 10 ) }| ).
    split( IMPORTING ev_hi = hi ev_lo = lo CHANGING cv = c ).
    out->write( |{ hi } { lo } { c } { mv_count } { gv_calls }| ).
    out->write( zcl_t=>twice( `ab` ) )->write( twice( 3 ) ).",
        r"  METHOD add.
    rv = iv_a + iv_b.
    gv_calls = gv_calls + 1.
  ENDMETHOD.
  METHOD split.
    ev_hi = cv DIV 10.
    ev_lo = cv MOD 10.
    cv = 0.
    mv_count += 1.
  ENDMETHOD.
  METHOD twice.
    rv = |{ iv }{ iv }|.
  ENDMETHOD.",
    );
    assert_eq!(
        run_full(&src).expect("runs"),
        r"6 3 15
4 7 0 2 3
abab
33"
    );
}

#[test]
fn runtime_errors() {
    assert_eq!(
        dump_id(run("DATA i TYPE i.\ni = 1 / i.")),
        "COMPUTE_INT_ZERODIVIDE"
    );
    assert_eq!(out("DATA i TYPE i.\ni = i / 0. out->write( i )."), "0 ");
    assert_eq!(
        dump_id(run("DATA i TYPE i VALUE 2147483647.\ni = i + 1.")),
        "COMPUTE_INT_PLUS_OVERFLOW"
    );
    assert_eq!(
        dump_id(run("DATA p TYPE p LENGTH 8 DECIMALS 2.\np = 1 / p.")),
        "COMPUTE_BCD_ZERODIVIDE"
    );
    assert_eq!(
        dump_id(run("DATA i TYPE i.\ni = 'A001'.")),
        "CONVT_NO_NUMBER"
    );
    assert_eq!(
        dump_id(run("DATA p TYPE p LENGTH 2 DECIMALS 0.\np = 1000.")),
        "CONVT_OVERFLOW"
    );
    assert_eq!(
        dump_id(run("DATA i TYPE i.\ni = `99999999999`.")),
        "CONVT_OVERFLOW"
    );
}

#[test]
fn runtime_error_keeps_output_and_location() {
    match run(r"out->write( 'before' ).
DATA i TYPE i.
i = 1 / i.")
    {
        Err(RunError::Dump {
            output,
            location: Some(loc),
            ..
        }) => {
            assert_eq!(output, "before");
            assert_eq!((loc.line, loc.include_line), (12, 4));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn unsupported_statement_fails_when_executed() {
    let r = run(r"DATA i TYPE i.
IF i = 1.
  LOOP AT lt INTO ls.
  ENDLOOP.
ENDIF.
out->write( 'ok' ).
CALL TRANSACTION 'SE38'.");
    match r {
        Err(RunError::Dump {
            id,
            text,
            location,
            output,
        }) => {
            assert_eq!(id, "SIMULATOR_NOT_SUPPORTED");
            assert_eq!(
                text,
                "not supported by the simulator: CALL TRANSACTION at ZCL_T=========================CM001:8"
            );
            assert_eq!(output, "ok");
            assert_eq!(location.map(|l| l.line), Some(16));
        }
        other => panic!("{other:?}"),
    }
    let r = run("DATA i TYPE i.\ni = EXACT #( ).");
    let Err(RunError::Dump { text, .. }) = r else {
        panic!("no dump")
    };
    assert_eq!(
        text,
        "not supported by the simulator: constructor expression EXACT at ZCL_T=========================CM001:3"
    );
}

#[test]
fn guards_stop_endless_programs() {
    let src = class(
        "    METHODS rec IMPORTING n TYPE i.",
        "    rec( 1 ).",
        r"  METHOD rec.
    rec( n + 1 ).
  ENDMETHOD.",
    );
    let r = run_full(&src);
    let Err(RunError::Dump { id, text, .. }) = r else {
        panic!("no dump")
    };
    assert_eq!(id, "STACK_STATE_NO_ROOF_SPACE", "{text}");
}

#[test]
fn endless_loop_hits_the_budget() {
    // Runs 10 million loop passes: takes a few seconds in debug builds.
    assert_eq!(dump_id(run("DO.\nENDDO.")), "SIMULATOR_LIMIT");
}

#[test]
fn statement_hook_sees_static_method_without_me() {
    let src = class(
        "    CLASS-METHODS s.\n    DATA mv_a TYPE i VALUE 3.",
        "    s( ).",
        r"  METHOD s.
    RETURN.
  ENDMETHOD.",
    );
    let mut scopes: Vec<(u32, Vec<String>)> = Vec::new();
    let mut h = on_stop(|ctx| {
        let ids = ctx.scopes(0).into_iter().map(|s| s.id).collect();
        scopes.push((ctx.location().line, ids));
        Resume::Run
    });
    repo(&[("zcl_t.clas.abap", &src)])
        .run_classrun("zcl_t", &mut h)
        .expect("runs");
    assert_eq!(scopes[1], (14, vec!["@LOCALS".to_string()]));
    assert_eq!(scopes[2].0, 15, "RETURN stops at ENDMETHOD");
}

#[test]
fn me_children_are_attributes() {
    let src = class(
        "    DATA mv_a TYPE i VALUE 3.\n    CLASS-DATA gv_b TYPE string.",
        "    mv_a = 4.",
        "",
    );
    let mut me: Option<Vec<(String, String, String)>> = None;
    let mut h = on_stop(|ctx| {
        me = ctx.children(0, "ME").map(|v| {
            v.into_iter()
                .map(|r| (r.id, r.value, r.instantiation_kind))
                .collect()
        });
        assert!(ctx.children(0, "NO_SUCH").is_none());
        Resume::Run
    });
    repo(&[("zcl_t.clas.abap", &src)])
        .run_classrun("zcl_t", &mut h)
        .expect("runs");
    assert_eq!(
        me,
        Some(vec![
            (
                "{O:1*\\CLASS=ZCL_T}-MV_A".into(),
                "4 ".into(),
                "instance".into()
            ),
            (
                "{O:1*\\CLASS=ZCL_T}-GV_B".into(),
                "".into(),
                "static".into()
            ),
        ])
    );
}

#[test]
fn syntax_errors_fail_loading_with_line() {
    let mut r = Repository::new();
    let e = r
        .add_file(
            "zcl_t.clas.abap",
            &class("", "    DATA s TYPE string.\n    s = 'abc.", ""),
        )
        .unwrap_err();
    assert!(matches!(e, LoadError::Syntax { line: 11, .. }), "{e}");
    let e = r
        .add_file("zcl_t.clas.abap", &class("", "    IF 1 = 1.\n", ""))
        .unwrap_err();
    assert!(matches!(e, LoadError::Syntax { line: 10, .. }), "{e}");
    let e = r
        .add_file("zcl_t.clas.abap", "CLASS zcl_t DEFINITION.")
        .unwrap_err();
    assert!(matches!(e, LoadError::Syntax { .. }), "{e}");
    assert!(r.add_file("readme.md", "whatever").is_ok());
    assert!(r.objects().is_empty());
}
