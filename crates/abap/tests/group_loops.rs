//! `LOOP AT … GROUP BY` with representative and group binding, `LOOP AT GROUP`.

use abap::{Repository, RunError};

use crate::harness::run_class;

const TYPES: &str = "    TYPES: BEGIN OF ty_sale,
             region TYPE string,
             item   TYPE string,
             qty    TYPE i,
           END OF ty_sale,
           tt_sales TYPE STANDARD TABLE OF ty_sale WITH EMPTY KEY.";

const DATA: &str = "    DATA(sales) = VALUE tt_sales( ( region = `N` item = `a` qty = 1 ) ( region = `S` item = `b` qty = 2 )
                                  ( region = `N` item = `c` qty = 3 ) ( region = `E` item = `d` qty = 4 ) ).
";

fn run(main: &str) -> Result<String, RunError> {
    let src = format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
{TYPES}
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{DATA}{main}
  ENDMETHOD.
ENDCLASS.
"
    );
    run_class(&src)
}

fn out(main: &str) -> String {
    match run(main) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

#[test]
fn representative_binding() {
    let o = out("    LOOP AT sales INTO DATA(s) GROUP BY s-region.
      DATA(items) = ``.
      LOOP AT GROUP s INTO DATA(m).
        items = items && m-item.
      ENDLOOP.
      out->write( |{ s-region } { s-item } { items }| ).
    ENDLOOP.");
    assert_eq!(
        o,
        r"N a ac
S b b
E d d"
    );
}

#[test]
fn group_binding_with_size_index_order_and_where() {
    let o = out("    LOOP AT sales ASSIGNING FIELD-SYMBOL(<s>) WHERE qty > 1
         GROUP BY ( region = <s>-region size = GROUP SIZE index = GROUP INDEX ) DESCENDING
         INTO DATA(grp).
      DATA(total) = 0.
      LOOP AT GROUP grp ASSIGNING FIELD-SYMBOL(<m>).
        total = total + <m>-qty.
      ENDLOOP.
      out->write( |{ grp-region } { grp-size } { grp-index } { total }| ).
    ENDLOOP.
    LOOP AT sales INTO DATA(x) GROUP BY x-qty MOD 2 ASCENDING INTO DATA(parity).
      out->write( |{ parity }| ).
      IF parity = 0.
        EXIT.
      ENDIF.
    ENDLOOP.");
    assert_eq!(
        o,
        r"S 1 1 2
N 1 2 3
E 1 3 4
0"
    );
}

struct LocalsAtFirstCall {
    names: Option<Vec<String>>,
}

impl abap::DebugHook for LocalsAtFirstCall {
    fn before_statement(&mut self, ctx: &dyn abap::StopContext) -> abap::Resume {
        if self.names.is_none() && ctx.statement() == "CALL METHOD" {
            self.names = ctx
                .children(0, "@LOCALS")
                .map(|v| v.into_iter().map(|r| r.name).collect());
        }
        abap::Resume::Run
    }
}

#[test]
fn internal_helper_variables_are_not_shown() {
    let src = format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
{TYPES}
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{DATA}    LOOP AT sales INTO DATA(s) GROUP BY s-region.
      out->write( s-region ).
    ENDLOOP.
  ENDMETHOD.
ENDCLASS.
"
    );
    let mut r = Repository::new();
    r.add_file("zcl_t.clas.abap", &src).expect("loads");
    let mut hook = LocalsAtFirstCall { names: None };
    r.run_classrun("ZCL_T", &mut hook).expect("runs");
    let names = hook.names.expect("stopped at the call");
    assert!(names.contains(&"S".to_string()), "{names:?}");
    assert!(!names.iter().any(|n| n.starts_with('%')), "{names:?}");
}

#[test]
fn control_levels_with_sum() {
    let o = out("    TYPES: BEGIN OF ty_l,
             region TYPE c LENGTH 2,
             item   TYPE c LENGTH 3,
             qty    TYPE i,
           END OF ty_l.
    DATA lines TYPE STANDARD TABLE OF ty_l WITH EMPTY KEY.
    lines = VALUE #( ( region = 'E' item = 'd' qty = 4 ) ( region = 'N' item = 'a' qty = 1 )
                     ( region = 'N' item = 'c' qty = 3 ) ( region = 'S' item = 'b' qty = 2 ) ).
    DATA s TYPE ty_l.
    LOOP AT lines INTO s.
      AT FIRST.
        out->write( `first` ).
      ENDAT.
      AT NEW region.
        out->write( |new { s-region } { s-item }| ).
      ENDAT.
      out->write( |row { s-item }| ).
      AT END OF region.
        SUM.
        out->write( |end { s-region } { s-qty }| ).
      ENDAT.
      AT LAST.
        SUM.
        out->write( |total { s-qty } { s-region }| ).
      ENDAT.
    ENDLOOP.");
    assert_eq!(
        o,
        r"first
new E ***
row d
end E 4
new N ***
row a
row c
end N 4
new S ***
row b
end S 2
total 10 **"
    );
}

#[test]
fn for_groups_in_value_and_reduce() {
    let o = out("    TYPES: BEGIN OF ty_total,
             region TYPE string,
             count  TYPE i,
             qty    TYPE i,
           END OF ty_total,
           tt_totals TYPE STANDARD TABLE OF ty_total WITH EMPTY KEY.
    DATA(totals) = VALUE tt_totals(
      FOR GROUPS grp OF s IN sales WHERE ( qty > 1 ) GROUP BY s-region ASCENDING
      ( region = grp
        count = REDUCE i( INIT n = 0 FOR m IN GROUP grp NEXT n = n + 1 )
        qty = REDUCE i( INIT q = 0 FOR m IN GROUP grp NEXT q = q + m-qty ) ) ).
    LOOP AT totals INTO DATA(t).
      out->write( |{ t-region } { t-count } { t-qty }| ).
    ENDLOOP.
    DATA(sizes) = REDUCE string( INIT txt = ``
      FOR GROUPS g OF r IN sales GROUP BY ( reg = r-region size = GROUP SIZE )
      NEXT txt = |{ txt }{ g-reg }{ g-size }| ).
    out->write( sizes ).");
    assert_eq!(
        o,
        r"E 1 4
N 1 3
S 1 2
N2S1E1"
    );
}
