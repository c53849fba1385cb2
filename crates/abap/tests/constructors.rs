//! Constructor expressions `COND`, `SWITCH` and `CONV`, run through `Repository::run_classrun`
//! and watched from the debugger.

use abap::{Resume, RunError};

use crate::harness::{class_source, on_stop, repo, run};

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn cond_picks_the_first_true_branch() {
    let main = r"    DATA n TYPE i.
    DATA t TYPE string.
    DO 4 TIMES.
      n = sy-index.
      t = COND #( WHEN n = 1 THEN `one` WHEN n < 3 AND n > 1 THEN `two` ELSE |many { n }| ).
      out->write( t ).
    ENDDO.";
    assert_eq!(
        out(main),
        r"one
two
many 3
many 4"
    );
}

#[test]
fn cond_converts_to_the_target_and_is_initial_without_else() {
    let main = r"    DATA c TYPE c LENGTH 3.
    DATA i TYPE i VALUE 7.
    DATA p TYPE p LENGTH 8 DECIMALS 2.
    c = COND #( WHEN i > 5 THEN 'ABCDEF' ).
    out->write( |<{ c }>| ).
    c = COND #( WHEN i > 50 THEN 'X' ).
    out->write( |<{ c }>| ).
    p = COND #( WHEN i = 7 THEN '1.5' ).
    out->write( |{ p }| ).
    i = COND i( WHEN i = 7 THEN '42' ) + 1.
    out->write( |{ i }| ).";
    assert_eq!(
        out(main),
        r"<ABC>
<>
1.50
43"
    );
}

#[test]
fn switch_compares_the_operand() {
    let main = r"    DATA code TYPE c LENGTH 2.
    DATA t TYPE string.
    code = 'B'.
    t = SWITCH #( code WHEN 'A' THEN `alpha` WHEN 'B' THEN `bravo` ELSE `other` ).
    out->write( t ).
    code = 'Z'.
    out->write( SWITCH string( code WHEN 'A' THEN `alpha` ELSE `other` ) ).
    DATA n TYPE i.
    n = SWITCH #( code WHEN 'A' THEN 1 ).
    out->write( |{ n }| ).";
    assert_eq!(
        out(main),
        r"bravo
other
0"
    );
}

#[test]
fn conv_converts_with_move_rules() {
    let main = r"    DATA s TYPE string.
    DATA i TYPE i.
    s = `12`.
    i = CONV i( s ) * 2.
    out->write( |{ i }| ).
    out->write( |<{ CONV string( 'ab  ' ) }>| ).
    DATA c TYPE c LENGTH 2.
    c = CONV #( `xyz` ).
    out->write( c ).
    i = CONV i( `nope` ).";
    match run(main) {
        Err(RunError::Dump { id, output, .. }) => {
            assert_eq!(id, "CONVT_NO_NUMBER");
            assert_eq!(
                output,
                r"24
<ab>
xy"
            );
        }
        other => panic!("expected a dump, got {other:?}"),
    }
}

#[test]
fn nested_constructors_and_unsupported_forms() {
    let main = "    DATA i TYPE i VALUE 2.\n    out->write( COND string( WHEN i = 2 THEN SWITCH #( i WHEN 2 THEN `two` ) ELSE `x` ) ).";
    assert_eq!(out(main), "two");
    // Outside the subset: parsed, a runtime error when executed.
    for body in [
        "    DATA i TYPE i.\n    i = EXACT #( 1 ).",
        "    DATA i TYPE i.\n    i = COND #( WHEN i = 0 THEN 1 ELSE THROW SHORTDUMP cx_sy_zerodivide( ) ).",
        "    DATA i TYPE i.\n    i = CONV zunknown_type( 1 ).",
        "    DATA i TYPE i.\n    i = COND #( ELSE 1 ).",
        "    DATA i TYPE i.\n    i = SWITCH #( i ).",
        "    DATA i TYPE i.\n    i = COND #( WHEN i = 0 THEN 1 .",
    ] {
        match run(body) {
            Err(RunError::Dump { id, text, .. }) => {
                assert_eq!(id, "SIMULATOR_NOT_SUPPORTED", "{body}");
                assert!(text.contains("not supported by the simulator"), "{text}");
            }
            other => panic!("{body}: expected a dump, got {other:?}"),
        }
    }
}

#[test]
fn debugger_sees_constructor_assignments_as_moves() {
    let src = class_source(
        "",
        r"    DATA t TYPE c LENGTH 4.
    t = COND #( WHEN 1 = 1 THEN 'ab' ).
    t = CONV #( 'xyz' ).",
        "",
    );
    // The statement keyword and the value of `T` at every stop.
    let mut seen = Vec::new();
    let mut watch = on_stop(|ctx| {
        let t = ctx
            .variables(0, &["T".to_string()])
            .into_iter()
            .next()
            .map(|r| r.value)
            .unwrap_or_default();
        seen.push((ctx.location().line, ctx.statement(), t));
        Resume::Run
    });
    repo(&[("zcl_t.clas.abap", &src)])
        .run_classrun("ZCL_T", &mut watch)
        .expect("runs");
    assert_eq!(
        seen,
        vec![
            (9, "MOVE".to_string(), "    ".to_string()),
            (10, "MOVE".to_string(), "ab  ".to_string()),
            (11, "ENDMETHOD".to_string(), "xyz ".to_string()),
        ]
    );
}
