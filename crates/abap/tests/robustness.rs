//! Source text is external input: loading and running arbitrary text must never panic.

use abap::{DebugHook, Repository, Resume, SourcePart};

use crate::harness::on_stop;
use proptest::prelude::*;

/// Exercises the whole debugger view at every stop and ends long runs early.
fn inspector() -> impl DebugHook {
    let mut stops = 0usize;
    on_stop(move |ctx| {
        stops += 1;
        let _ = ctx.location();
        for frame in 0..=ctx.depth() {
            let _ = ctx.stack();
            for scope in ctx.scopes(frame) {
                let _ = ctx.children(frame, &scope.id);
            }
            let ids = [
                "X",
                "Y",
                "ME",
                "SY-INDEX",
                "OUT",
                "ME->X",
                "{O:1*\\CLASS=ZCL_T}-X",
                "{O:99*",
                "{O:0*\\X}",
                "a->b->c",
            ];
            let _ = ctx.variables(frame, &ids.map(String::from));
            for id in ids {
                let _ = ctx.children(frame, id);
            }
        }
        if stops > 2_000 {
            Resume::Terminate
        } else {
            Resume::Run
        }
    })
}

fn wrap(body: &str) -> String {
    format!(
        r"CLASS zcl_t DEFINITION PUBLIC.
 PUBLIC SECTION.
 INTERFACES if_oo_adt_classrun.
 DATA x TYPE i.
 METHODS m IMPORTING a TYPE i RETURNING VALUE(r) TYPE i.
ENDCLASS.
CLASS zcl_t IMPLEMENTATION.
 METHOD if_oo_adt_classrun~main.
 DATA y TYPE string.
 TYPES: BEGIN OF ty_s, f TYPE i, g TYPE string, END OF ty_s.
 DATA lt TYPE STANDARD TABLE OF ty_s WITH DEFAULT KEY.
 DATA ls TYPE ty_s.
{body}
 ENDMETHOD.
 METHOD m.
 r = a * 2.
 ENDMETHOD.
ENDCLASS.
"
    )
}

const WORDS: &[&str] = &[
    "DATA",
    "z",
    "TYPE",
    "i",
    "string",
    "c",
    "LENGTH",
    "p",
    "DECIMALS",
    "2",
    "10",
    "0",
    "-1",
    "=",
    "+",
    "-",
    "*",
    "/",
    "DIV",
    "MOD",
    "&&",
    "(",
    ")",
    "( ",
    " )",
    "'a'",
    "'12.5'",
    "`b`",
    "|{ x }|",
    "|t{ y }|",
    ".",
    ".\n",
    ",",
    ":",
    "IF",
    "ELSEIF",
    "ELSE",
    "ENDIF",
    "DO",
    "3",
    "TIMES",
    "ENDDO",
    "WHILE",
    "ENDWHILE",
    "CASE",
    "WHEN",
    "OTHERS",
    "ENDCASE",
    "out->write(",
    "m(",
    "me->m(",
    "a",
    "=",
    "x",
    "y",
    "me->x",
    "sy-index",
    "AND",
    "OR",
    "NOT",
    "<>",
    ">",
    "<=",
    "IS",
    "INITIAL",
    "BOUND",
    "EXIT",
    "CONTINUE",
    "CHECK",
    "RETURN",
    "CLEAR",
    "LOOP",
    "AT",
    "VALUE",
    "#(",
    "EXPORTING",
    "IMPORTING",
    "\"c\n",
    "*\n",
    "2147483647",
    "99999999999999999999",
    "zcl_t=>m(",
    "me",
    "COND",
    "SWITCH",
    "CONV",
    "#(",
    "i(",
    "WHEN",
    "THEN",
    "ELSE",
    "BETWEEN",
    "APPEND",
    "TO",
    "lt",
    "ls",
    "ls-f",
    "lt[",
    "]",
    "]-f",
    "INTO",
    "TABLE",
    "READ",
    "WITH",
    "KEY",
    "INDEX",
    "ENDLOOP",
    "SORT",
    "BY",
    "DELETE",
    "WHERE",
    "ASSIGNING",
    "<fs>",
    "FIELD-SYMBOL(<fs>)",
    "BEGIN",
    "END",
    "OF",
    "TYPES",
    "(",
    ")",
    // String statements, comparisons of character strings, offset/length access.
    "CONCATENATE",
    "SPLIT",
    "CONDENSE",
    "REPLACE",
    "FIND",
    "SHIFT",
    "TRANSLATE",
    "OVERLAY",
    "SEPARATED",
    "ALL",
    "OCCURRENCES",
    "FIRST",
    "OCCURRENCE",
    "MATCH",
    "COUNT",
    "OFFSET",
    "SECTION",
    "PLACES",
    "LEFT",
    "RIGHT",
    "CIRCULAR",
    "DELETING",
    "LEADING",
    "UP",
    "NO-GAPS",
    "RESPECTING",
    "BLANKS",
    "IGNORING",
    "REPLACEMENT",
    "USING",
    "CS",
    "CP",
    "CO",
    "NA",
    "y+1(2)",
    "y+x",
    "y(1)",
    "y+99(1)",
    "DATA(n)",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(WORDS), 0..60).prop_map(|w| w.join(" "))
}

fn operand() -> impl Strategy<Value = String> {
    prop::sample::select(
        &[
            "x",
            "y",
            "z",
            "sy-index",
            "'12.50'",
            "'A001'",
            "`7`",
            "`abc`",
            "0",
            "1",
            "-3",
            "2147483647",
            "99999999999",
            "me->x",
            "abap_true",
        ][..],
    )
    .prop_map(String::from)
}

fn expression() -> impl Strategy<Value = String> {
    operand().prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(&["+", "-", "*", "/", "DIV", "MOD", "&&"][..]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("{a} {op} {b}")),
            inner.clone().prop_map(|e| format!("( {e} )")),
            inner.clone().prop_map(|e| format!("m( a = {e} )")),
            inner.clone().prop_map(|e| format!("|<{{ {e} }}>|")),
            inner.clone().prop_map(|e| format!("- {e}")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, b, c)| format!("COND #( WHEN {a} > {b} THEN {c} ELSE {b} )")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, b, c)| format!("SWITCH string( {a} WHEN {b} THEN {c} )")),
            inner.prop_map(|e| format!("CONV i( {e} )")),
        ]
    })
}

fn condition() -> impl Strategy<Value = String> {
    prop_oneof![
        (
            expression(),
            prop::sample::select(&["=", "<>", "<", ">=", "EQ", "GT"][..]),
            expression(),
        )
            .prop_map(|(a, op, b)| format!("{a} {op} {b}")),
        (expression(), expression(), expression())
            .prop_map(|(a, b, c)| format!("{a} NOT BETWEEN {b} AND {c}")),
    ]
}

fn statement() -> impl Strategy<Value = String> {
    let simple = prop_oneof![
        (
            prop::sample::select(&["x", "y", "z", "me->x"][..]),
            expression()
        )
            .prop_map(|(t, e)| format!("{t} = {e}.")),
        expression().prop_map(|e| format!("out->write( {e} ).")),
        Just("CLEAR y.".to_string()),
        Just("EXIT.".to_string()),
        Just("CONTINUE.".to_string()),
        condition().prop_map(|c| format!("CHECK {c}.")),
        Just("RAISE EXCEPTION TYPE cx_sy_zerodivide.".to_string()),
        Just("RAISE EXCEPTION NEW cx_root( ).".to_string()),
        Just("MESSAGE e001(zz) WITH y.".to_string()),
        expression().prop_map(|e| format!("MESSAGE {e} TYPE 'I'.")),
        expression().prop_map(|e| format!("WRITE / {e}.")),
        Just("ULINE.".to_string()),
        Just("SKIP 2.".to_string()),
        Just("x = NEW zcl_t( )->m( 3 ).".to_string()),
        expression().prop_map(|e| format!("APPEND VALUE #( f = {e} ) TO lt.")),
        expression().prop_map(|e| format!("READ TABLE lt INTO ls WITH KEY f = {e}.")),
        expression().prop_map(|e| format!("READ TABLE lt INTO ls INDEX {e}.")),
        expression().prop_map(|e| format!("DELETE lt INDEX {e}.")),
        expression().prop_map(|e| format!("x = lt[ {e} ]-f.")),
        expression().prop_map(|e| format!("INSERT ls INTO lt INDEX {e}.")),
        condition().prop_map(|c| format!("DELETE lt WHERE {c}.")),
        Just("SORT lt BY f DESCENDING.".to_string()),
        Just("DELETE ADJACENT DUPLICATES FROM lt.".to_string()),
        Just("x = lines( lt ).".to_string()),
        Just("ls-f = ls-f + 1. MODIFY lt FROM ls INDEX 1.".to_string()),
    ];
    simple.prop_recursive(3, 20, 4, |inner| {
        prop_oneof![
            (
                condition(),
                prop::collection::vec(inner.clone(), 0..3),
                prop::collection::vec(inner.clone(), 0..3)
            )
                .prop_map(|(c, a, b)| format!(
                    r"IF {c}.
{}
ELSE.
{}
ENDIF.",
                    a.join("\n"),
                    b.join("\n")
                )),
            (0..4u8, prop::collection::vec(inner.clone(), 0..3)).prop_map(|(n, b)| format!(
                r"DO {n} TIMES.
{}
ENDDO.",
                b.join("\n")
            )),
            (
                prop::collection::vec(inner.clone(), 0..3),
                prop::collection::vec(inner.clone(), 0..2)
            )
                .prop_map(|(a, b)| format!(
                    r"TRY.
{}
CATCH cx_sy_arithmetic_error cx_static_check.
{}
CATCH cx_root.
CLEANUP.
ENDTRY.",
                    a.join("\n"),
                    b.join("\n")
                )),
            prop::collection::vec(inner.clone(), 0..3).prop_map(|b| format!(
                r"LOOP AT lt ASSIGNING FIELD-SYMBOL(<r>).
<r>-f = <r>-f + 1.
{}
ENDLOOP.",
                b.join("\n")
            )),
            (condition(), prop::collection::vec(inner.clone(), 0..3)).prop_map(|(c, b)| format!(
                r"LOOP AT lt INTO ls WHERE {c}.
APPEND ls TO lt.
{}
ENDLOOP.",
                b.join("\n")
            )),
            (expression(), prop::collection::vec(inner, 0..3)).prop_map(|(e, b)| format!(
                r"CASE {e}.
WHEN 1 OR 'A001'.
{}
WHEN OTHERS.
ENDCASE.",
                b.join("\n")
            )),
        ]
    })
}

/// Jumps to, and sets values at, arbitrary places.
fn meddler(mut seed: u32) -> impl DebugHook {
    let mut stops = 0usize;
    on_stop(move |ctx| {
        stops += 1;
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let _ = ctx.statement();
        let _ = ctx.caught_exception();
        let _ = ctx.message();
        for id in [
            "X",
            "Y",
            "Z",
            "ME->X",
            "SY-SUBRC",
            "GV",
            "{O:1*\\CLASS=ZCL_T}-X",
        ] {
            let _ = ctx.set_value(0, id, "12");
            let _ = ctx.set_value(1, id, "abc");
        }
        let line = seed % 40;
        if stops > 3_000 {
            Resume::Terminate
        } else if ctx.can_jump_to(line) || seed.is_multiple_of(7) {
            Resume::JumpTo(line)
        } else {
            Resume::Run
        }
    })
}

fn report(body: &str) -> String {
    format!(
        r"REPORT zr.
DATA gv TYPE i.
START-OF-SELECTION.
{body}
  PERFORM f USING 1 CHANGING gv.
FORM f USING a TYPE i CHANGING b TYPE i.
{body}
  b = a.
ENDFORM.
"
    )
}

fn test_class(body: &str) -> String {
    format!(
        r"CLASS ltcl DEFINITION FOR TESTING.
 PRIVATE SECTION.
 DATA x TYPE i.
 METHODS setup.
 METHODS t FOR TESTING.
ENDCLASS.
CLASS ltcl IMPLEMENTATION.
 METHOD setup.
 x = 1.
 ENDMETHOD.
 METHOD t.
 DATA y TYPE string.
 DATA z TYPE i.
{body}
 cl_abap_unit_assert=>assert_equals( act = x exp = 1 ).
 ENDMETHOD.
ENDCLASS.
"
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn reports_and_unit_tests_never_panic(stmts in prop::collection::vec(statement(), 1..6), seed in any::<u32>()) {
        let body = stmts.join("\n");
        let mut r = Repository::new();
        if r.add_file("zr.prog.abap", &report(&body)).is_ok() {
            let _ = r.run_report("ZR", &mut inspector());
            let _ = r.run_report("ZR", &mut meddler(seed));
        }
        let mut r = Repository::new();
        r.add_file("zcl_t.clas.abap", &wrap("")).expect("loads");
        if r.add_file("zcl_t.clas.testclasses.abap", &test_class(&body)).is_ok() {
            let _ = r.run_unit_tests("ZCL_T", abap::ObjectKind::Class, None, &mut inspector());
            let _ = r.run_unit_tests("ZCL_T", abap::ObjectKind::Class, None, &mut meddler(seed));
        }
        let _ = r.run_classrun("ZCL_T", &mut meddler(seed));
    }

    #[test]
    fn arbitrary_text_as_every_file_kind_never_panics(text in any::<String>()) {
        let mut r = Repository::new();
        for name in ["zr.prog.abap", "zif_x.intf.abap", "zcl_t.clas.locals_imp.abap", "zcl_t.clas.locals_def.abap", "zcl_t.clas.testclasses.abap"] {
            let _ = r.add_file(name, &text);
        }
        let _ = r.run_report("ZR", &mut inspector());
        let _ = r.run_unit_tests("ZR", abap::ObjectKind::Program, None, &mut inspector());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn loading_arbitrary_text_never_panics(text in any::<String>(), line in any::<u32>()) {
        let mut r = Repository::new();
        let _ = r.add_file("zcl_t.clas.abap", &text);
        let _ = r.add_file("zcl_t.clas.abap", &wrap(&text));
        let _ = r.stop_point("ZCL_T", SourcePart::Main, line);
        let _ = r.run_classrun("zcl_t", &mut inspector());
    }

    #[test]
    fn abap_like_soup_never_panics(body in soup()) {
        let mut r = Repository::new();
        if r.add_file("zcl_t.clas.abap", &wrap(&body)).is_ok() {
            for line in 0..30 {
                let _ = r.stop_point("ZCL_T", SourcePart::Main, line);
            }
            let _ = r.run_classrun("ZCL_T", &mut inspector());
        }
    }

    #[test]
    fn generated_programs_never_panic(stmts in prop::collection::vec(statement(), 1..8)) {
        let body = format!("DATA z TYPE p LENGTH 8 DECIMALS 2.\n{}", stmts.join("\n"));
        let mut r = Repository::new();
        r.add_file("zcl_t.clas.abap", &wrap(&body)).expect("generated programs are well-formed");
        let _ = r.run_classrun("ZCL_T", &mut inspector());
    }

    #[test]
    fn statement_soup_never_panics(stmts in prop::collection::vec(soup(), 0..12)) {
        let body = stmts.join(".\n") + ".";
        let mut r = Repository::new();
        if r.add_file("zcl_t.clas.abap", &wrap(&body)).is_ok() {
            let _ = r.run_classrun("ZCL_T", &mut inspector());
        }
    }
}

#[test]
fn huge_expressions_are_refused_not_overflowing() {
    for body in [
        format!("x = 1{}.", " + 1".repeat(50_000)),
        format!("IF x = 1{}.\nENDIF.", " OR x = 1".repeat(50_000)),
        format!("y = `a`{}.", " && `b`".repeat(50_000)),
        format!("x = m( a = 1 ){}.", "->m( a = 1 )".repeat(50_000)),
        format!("x = {}1{}.", "( ".repeat(50_000), " )".repeat(50_000)),
        format!("y = {}{}.", "|{ ".repeat(5_000), " }|".repeat(5_000)),
        format!(
            "x = {}1{}.",
            "COND #( WHEN x = 1 THEN ".repeat(20_000),
            " )".repeat(20_000)
        ),
        format!(
            "x = {}1{}.",
            "CONV i( SWITCH #( x WHEN 1 THEN ".repeat(10_000),
            " ) )".repeat(10_000)
        ),
        format!(
            "{}{}",
            "IF x = 1.\n".repeat(5_000),
            "ENDIF.\n".repeat(5_000)
        ),
        format!(
            "TYPES: {} f TYPE i, {}.\nDATA d TYPE t0.",
            (0..50_000)
                .map(|i| format!("BEGIN OF t{i},"))
                .collect::<String>(),
            (0..50_000)
                .rev()
                .map(|i| format!("END OF t{i}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        format!(
            "lt = {}{}.",
            "VALUE #( ( f = 1 g = VALUE #( ".repeat(20_000),
            " ) ) )".repeat(20_000)
        ),
        format!("x = {}1{}.", "lt[ ".repeat(20_000), " ]".repeat(20_000)),
        r"DO.
  APPEND ls TO lt.
ENDDO."
            .to_string(),
        r"APPEND ls TO lt. LOOP AT lt INTO ls.
  APPEND ls TO lt.
ENDLOOP."
            .to_string(),
    ] {
        let mut r = Repository::new();
        if r.add_file("zcl_t.clas.abap", &wrap(&body)).is_ok() {
            let res = r.run_classrun("ZCL_T", &mut inspector());
            assert!(res.is_err(), "{:?}", res);
        }
    }
}

/// Every block statement nested as deep as the parser allows still loads and runs on a test
/// thread's stack (2 MiB): the parser's and interpreter's per-level frames stay small as the
/// language grows (this failed once when one parsing function had grown to hold every
/// statement's temporaries).
#[test]
fn the_deepest_allowed_nesting_of_every_block_kind_loads_and_runs() {
    let kinds: [(&str, &str); 6] = [
        ("IF x = 0.\n", "ENDIF.\n"),
        ("DO 1 TIMES.\n", "ENDDO.\n"),
        (
            "WHILE x < 1.\n",
            r"x = 1.
ENDWHILE.
",
        ),
        ("LOOP AT lt INTO ls.\n", "ENDLOOP.\n"),
        (
            "TRY.\n",
            r"CATCH cx_root.
ENDTRY.
",
        ),
        (
            r"CASE x.
WHEN 0.
",
            "ENDCASE.\n",
        ),
    ];
    for (open, close) in kinds {
        let body = format!(
            r"APPEND ls TO lt.
{}out->write( `deep` ).
{}",
            open.repeat(63),
            close.repeat(63)
        );
        let mut r = Repository::new();
        r.add_file("zcl_t.clas.abap", &wrap(&body))
            .unwrap_or_else(|e| panic!("{open}: {e}"));
        let out = r
            .run_classrun("ZCL_T", &mut inspector())
            .unwrap_or_else(|e| panic!("{open}: {e}"));
        assert_eq!(out, "deep", "{open}");
    }
}
