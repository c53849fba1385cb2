//! Field symbols and data references alias the storage they point to (ASSIGN, ASSIGN
//! COMPONENT, UNASSIGN, GET REFERENCE, REF #( ), CREATE DATA, NEW, ->*), and their debugger
//! view (adt-wire.md §9.3–§9.5).

use abap::{DebugHook, NoDebugger, Repository, Resume, RunError, StopContext, VarRecord};

fn class(decl: &str, main: &str) -> String {
    format!(
        r"CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
{decl}
  PRIVATE SECTION.
ENDCLASS.

CLASS zcl_t IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
{main}
  ENDMETHOD.
ENDCLASS.
"
    )
}

fn run_with(decl: &str, main: &str, hook: &mut dyn DebugHook) -> Result<String, RunError> {
    let mut r = Repository::new();
    r.add_file("zcl_t.clas.abap", &class(decl, main))
        .expect("loads");
    r.run_classrun("ZCL_T", hook)
}

/// The output with trailing blanks of each line removed (`out->write( 5 )` prints the sign
/// column `5 `; these tests are about aliasing, not number formats).
fn out_decl(decl: &str, main: &str) -> String {
    match run_with(decl, main, &mut NoDebugger) {
        Ok(o) => o.lines().map(str::trim_end).collect::<Vec<_>>().join("\n"),
        Err(e) => panic!("run failed: {e:?}"),
    }
}

fn out(main: &str) -> String {
    out_decl("", main)
}

fn dump_decl(decl: &str, main: &str) -> (String, String) {
    match run_with(decl, main, &mut NoDebugger) {
        Err(RunError::Dump { id, text, .. }) => (id, text),
        other => panic!("expected a dump, got {other:?}"),
    }
}

fn dump(main: &str) -> (String, String) {
    dump_decl("", main)
}

/// Runs `probe` at the `skip`-th `CALL METHOD` stop.
struct Probe<F: FnMut(&dyn StopContext)> {
    skip: usize,
    probe: F,
    done: bool,
}

impl<F: FnMut(&dyn StopContext)> DebugHook for Probe<F> {
    fn before_statement(&mut self, ctx: &dyn StopContext) -> Resume {
        if !self.done && ctx.statement() == "CALL METHOD" {
            if self.skip == 0 {
                self.done = true;
                (self.probe)(ctx);
            } else {
                self.skip -= 1;
            }
        }
        Resume::Run
    }
}

fn at_first_call(main: &str, probe: impl FnMut(&dyn StopContext)) -> String {
    let mut hook = Probe {
        skip: 0,
        probe,
        done: false,
    };
    let r = run_with("", main, &mut hook);
    assert!(hook.done, "the probe did not run: {r:?}");
    r.unwrap_or_else(|e| panic!("run failed: {e:?}"))
}

fn var(ctx: &dyn StopContext, id: &str) -> VarRecord {
    ctx.variables(0, &[id.to_string()])
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no record for {id}"))
}

// ---------------------------------------------------------------- field symbols

#[test]
fn assign_aliases_a_variable() {
    let o = out("    DATA lv_x TYPE i VALUE 5.
    FIELD-SYMBOLS <fs> TYPE i.
    ASSIGN lv_x TO <fs>.
    <fs> = <fs> + 10.
    out->write( lv_x ).
    lv_x = 3.
    out->write( <fs> ).");
    assert_eq!(o, "15\n3");
}

#[test]
fn generic_field_symbols_take_the_assigned_type() {
    let o = out("    DATA lv_c TYPE c LENGTH 4 VALUE 'AB'.
    DATA lv_s TYPE string VALUE `text`.
    FIELD-SYMBOLS <any> TYPE any.
    ASSIGN lv_c TO <any>.
    <any> = 'ABCDEFG'.
    out->write( lv_c ).
    ASSIGN lv_s TO <any>.
    <any> = 'ABCDEFG'.
    out->write( lv_s ).");
    assert_eq!(o, "ABCD\nABCDEFG");
}

#[test]
fn assign_components_rows_and_other_field_symbols() {
    let o = out(
        "    TYPES: BEGIN OF ty_row, id TYPE i, name TYPE string, END OF ty_row.
    DATA ls_row TYPE ty_row.
    DATA lt_rows TYPE STANDARD TABLE OF ty_row WITH EMPTY KEY.
    FIELD-SYMBOLS: <row> TYPE ty_row, <name> TYPE string.
    ASSIGN ls_row-name TO <name>.
    <name> = `direct`.
    out->write( ls_row-name ).
    APPEND VALUE #( id = 1 name = `one` ) TO lt_rows.
    APPEND VALUE #( id = 2 name = `two` ) TO lt_rows.
    ASSIGN lt_rows[ 2 ] TO <row>.
    out->write( sy-subrc ).
    ASSIGN <row>-name TO <name>.
    <name> = `TWO`.
    <row>-id = 20.
    out->write( lt_rows[ 2 ]-name ).
    out->write( lt_rows[ 2 ]-id ).
    ASSIGN lt_rows[ id = 1 ] TO <row>.
    out->write( <row>-name ).
    ASSIGN lt_rows[ 9 ] TO <row>.
    out->write( sy-subrc ).
    out->write( <row>-name ).",
    );
    assert_eq!(
        o,
        r"direct
0
TWO
20
one
4
one"
    );
}

#[test]
fn inline_field_symbol_and_is_assigned() {
    let o = out("    DATA lv_x TYPE i VALUE 7.
    FIELD-SYMBOLS <g> TYPE any.
    IF <g> IS ASSIGNED.
      out->write( 'assigned' ).
    ELSE.
      out->write( 'not assigned' ).
    ENDIF.
    ASSIGN lv_x TO FIELD-SYMBOL(<i>).
    <i> = 8.
    out->write( lv_x ).
    ASSIGN lv_x TO <g>.
    IF <g> IS ASSIGNED.
      out->write( 'assigned' ).
    ENDIF.
    UNASSIGN <g>.
    IF <g> IS NOT ASSIGNED.
      out->write( 'unassigned' ).
    ENDIF.");
    assert_eq!(
        o,
        r"not assigned
8
assigned
unassigned"
    );
}

#[test]
fn assign_component_by_name_and_index() {
    let o = out(
        "    TYPES: BEGIN OF ty_s, a TYPE i, b TYPE c LENGTH 3, END OF ty_s.
    DATA ls TYPE ty_s.
    FIELD-SYMBOLS <c> TYPE any.
    ASSIGN COMPONENT 'B' OF STRUCTURE ls TO <c>.
    out->write( sy-subrc ).
    <c> = 'xyz'.
    ASSIGN COMPONENT 1 OF STRUCTURE ls TO <c>.
    <c> = 42.
    out->write( |{ ls-a } { ls-b }| ).
    DATA lv_name TYPE string VALUE `b`.
    ASSIGN COMPONENT lv_name OF STRUCTURE ls TO <c>.
    out->write( <c> ).
    ASSIGN COMPONENT 'NOPE' OF STRUCTURE ls TO <c>.
    out->write( sy-subrc ).
    ASSIGN COMPONENT 3 OF STRUCTURE ls TO <c>.
    out->write( sy-subrc ).
    DATA lv_i TYPE i.
    DO 2 TIMES.
      ASSIGN COMPONENT sy-index OF STRUCTURE ls TO <c>.
      out->write( <c> ).
    ENDDO.",
    );
    assert_eq!(
        o,
        r"0
42 xyz
xyz
4
4
42
xyz"
    );
}

#[test]
fn dynamic_assign_by_name() {
    let o = out("    DATA lv_x TYPE i VALUE 3.
    DATA lv_name TYPE string VALUE `LV_X`.
    FIELD-SYMBOLS <fs> TYPE any.
    ASSIGN (lv_name) TO <fs>.
    out->write( sy-subrc ).
    <fs> = 4.
    out->write( lv_x ).
    ASSIGN ('LV_NOTHING') TO <fs>.
    out->write( sy-subrc ).");
    assert_eq!(
        o,
        r"0
4
4"
    );
}

#[test]
fn assign_attributes_and_statics() {
    let o = out_decl(
        "    DATA mv_count TYPE i.\n    CLASS-DATA gv_total TYPE i.",
        "    ASSIGN mv_count TO FIELD-SYMBOL(<m>).
    <m> = 5.
    ASSIGN zcl_t=>gv_total TO FIELD-SYMBOL(<g>).
    <g> = 6.
    ASSIGN me->mv_count TO FIELD-SYMBOL(<me>).
    <me> = <me> + 1.
    out->write( |{ mv_count } { gv_total }| ).",
    );
    assert_eq!(o, "6 6");
}

#[test]
fn reading_an_unassigned_field_symbol_dumps_uncatchably() {
    let (id, text) = dump(
        "    FIELD-SYMBOLS <fs> TYPE i.
    TRY.
        out->write( <fs> ).
      CATCH cx_root.
        out->write( 'caught' ).
    ENDTRY.",
    );
    assert_eq!(id, "GETWA_NOT_ASSIGNED");
    assert!(text.contains("<FS>"), "{text}");
    let (id, _) = dump("    FIELD-SYMBOLS <fs> TYPE i.\n    <fs> = 1.");
    assert_eq!(id, "GETWA_NOT_ASSIGNED");
}

#[test]
fn loop_assigning_writes_rows() {
    let o = out("    DATA lt TYPE STANDARD TABLE OF i WITH EMPTY KEY.
    lt = VALUE #( ( 1 ) ( 2 ) ( 3 ) ).
    LOOP AT lt ASSIGNING FIELD-SYMBOL(<n>).
      <n> = <n> * 10.
    ENDLOOP.
    LOOP AT lt ASSIGNING <n>.
      out->write( <n> ).
    ENDLOOP.");
    assert_eq!(
        o,
        r"10
20
30"
    );
}

// ---------------------------------------------------------------- data references

#[test]
fn get_reference_and_dereference() {
    let o = out("    DATA lv_x TYPE i VALUE 1.
    DATA lr TYPE REF TO i.
    GET REFERENCE OF lv_x INTO lr.
    lr->* = lr->* + 41.
    out->write( lv_x ).
    DATA(lr2) = REF #( lv_x ).
    lr2->* = 7.
    out->write( lr->* ).
    IF lr = lr2.
      out->write( 'same' ).
    ENDIF.");
    assert_eq!(
        o,
        r"42
7
same"
    );
}

#[test]
fn create_data_makes_anonymous_objects() {
    let o = out("    DATA lr TYPE REF TO data.
    DATA lr_i TYPE REF TO i.
    CREATE DATA lr_i.
    lr_i->* = 5.
    CREATE DATA lr TYPE string.
    ASSIGN lr->* TO FIELD-SYMBOL(<s>).
    <s> = `hello`.
    DATA(lr_copy) = lr_i.
    lr_copy->* = lr_copy->* * 2.
    out->write( lr_i->* ).
    ASSIGN lr->* TO FIELD-SYMBOL(<again>).
    out->write( <again> ).
    CREATE DATA lr_i.
    out->write( lr_i->* ).
    out->write( lr_copy->* ).");
    assert_eq!(
        o,
        r"10
hello
0
10"
    );
}

#[test]
fn new_for_data_types() {
    let o = out("    TYPES: BEGIN OF ty_p, x TYPE i, y TYPE i, END OF ty_p.
    DATA(lr_i) = NEW i( 12 ).
    DATA(lr_p) = NEW ty_p( x = 1 y = 2 ).
    DATA lr_s TYPE REF TO string.
    lr_s = NEW #( `abc` ).
    lr_p->y = lr_p->x + lr_p->y + lr_i->*.
    out->write( |{ lr_p->x } { lr_p->y } { lr_s->* }| ).
    out->write( lr_p->*-y ).");
    assert_eq!(o, "1 15 abc\n15");
}

#[test]
fn structure_references_and_create_data_like() {
    let o = out(
        "    TYPES: BEGIN OF ty_row, id TYPE i, name TYPE string, END OF ty_row.
    DATA ls_row TYPE ty_row.
    DATA lr_row TYPE REF TO ty_row.
    lr_row = REF #( ls_row ).
    lr_row->id = 3.
    lr_row->name = `three`.
    out->write( |{ ls_row-id } { ls_row-name }| ).
    DATA lr_any TYPE REF TO data.
    CREATE DATA lr_any LIKE ls_row.
    FIELD-SYMBOLS <row> TYPE ty_row.
    ASSIGN lr_any->* TO <row>.
    <row>-id = 9.
    out->write( <row>-id ).
    DATA lr_tab TYPE REF TO data.
    CREATE DATA lr_tab TYPE STANDARD TABLE OF ty_row WITH EMPTY KEY.
    FIELD-SYMBOLS <tab> TYPE STANDARD TABLE.
    ASSIGN lr_tab->* TO <tab>.
    APPEND ls_row TO <tab>.
    out->write( lines( <tab> ) ).",
    );
    assert_eq!(
        o,
        r"3 three
9
1"
    );
}

#[test]
fn is_bound_is_initial_and_clear() {
    let o = out("    DATA lr TYPE REF TO i.
    IF lr IS INITIAL AND lr IS NOT BOUND.
      out->write( 'initial' ).
    ENDIF.
    lr = NEW #( 1 ).
    IF lr IS BOUND AND lr IS NOT INITIAL.
      out->write( 'bound' ).
    ENDIF.
    CLEAR lr.
    IF lr IS INITIAL.
      out->write( 'cleared' ).
    ENDIF.
    ASSIGN lr->* TO FIELD-SYMBOL(<x>).
    out->write( sy-subrc ).");
    assert_eq!(
        o,
        r"initial
bound
cleared
4"
    );
}

#[test]
fn dereferencing_an_initial_reference_dumps() {
    let (id, _) = dump(
        "    DATA lr TYPE REF TO i.
    TRY.
        out->write( lr->* ).
      CATCH cx_root.
        out->write( 'caught' ).
    ENDTRY.",
    );
    assert_eq!(id, "DATREF_NOT_ASSIGNED");
    let (id, _) = dump("    DATA lr TYPE REF TO i.\n    lr->* = 1.");
    assert_eq!(id, "DATREF_NOT_ASSIGNED");
}

#[test]
fn reference_into_for_tables() {
    let o = out("    TYPES: BEGIN OF ty_row, id TYPE i, END OF ty_row.
    DATA lt TYPE STANDARD TABLE OF ty_row WITH EMPTY KEY.
    lt = VALUE #( ( id = 1 ) ( id = 2 ) ).
    LOOP AT lt REFERENCE INTO DATA(lr).
      lr->id = lr->id * 100.
    ENDLOOP.
    READ TABLE lt INDEX 2 REFERENCE INTO lr.
    out->write( lr->id ).
    DATA lr_row TYPE REF TO ty_row.
    READ TABLE lt WITH KEY id = 100 REFERENCE INTO lr_row.
    lr_row->id = 1.
    out->write( lt[ 1 ]-id ).");
    assert_eq!(o, "200\n1");
}

#[test]
fn references_to_locals_of_finished_methods_are_invalid() {
    let decl = "    METHODS get_ref RETURNING VALUE(r) TYPE REF TO i.";
    let main = "    DATA(lr) = get_ref( ).
    IF lr IS NOT BOUND AND lr IS NOT INITIAL.
      out->write( 'dangling' ).
    ENDIF.
    out->write( lr->* ).
  ENDMETHOD.
  METHOD get_ref.
    DATA lv_local TYPE i VALUE 5.
    r = REF #( lv_local ).";
    let (id, _) = dump_decl(decl, main);
    assert_eq!(id, "DATREF_NOT_ASSIGNED");
}

#[test]
fn references_to_attributes_stay_valid() {
    let decl =
        "    DATA mv_n TYPE i VALUE 4.\n    METHODS get_ref RETURNING VALUE(r) TYPE REF TO i.";
    let main = "    DATA(lr) = get_ref( ).
    lr->* = lr->* + 1.
    out->write( mv_n ).
  ENDMETHOD.
  METHOD get_ref.
    r = REF #( mv_n ).";
    assert_eq!(out_decl(decl, main), "5");
}

// ---------------------------------------------------------------- debugger view

#[test]
fn debugger_shows_field_symbols_and_references() {
    at_first_call(
        "    DATA lv_x TYPE i VALUE 15.
    FIELD-SYMBOLS <fs> TYPE i.
    FIELD-SYMBOLS <none> TYPE any.
    ASSIGN lv_x TO <fs>.
    DATA(lr) = NEW i( 42 ).
    DATA lr_x TYPE REF TO i.
    lr_x = REF #( lv_x ).
    DATA lr_init TYPE REF TO data.
    out->write( lv_x ).",
        |ctx| {
            let fs = var(ctx, "<FS>");
            assert_eq!(
                (
                    fs.value.as_str(),
                    fs.meta_type.as_str(),
                    fs.technical_type.as_str()
                ),
                ("15 ", "simple", "I")
            );
            assert_eq!(fs.hex_value, "0F000000");
            let r = var(ctx, "LR");
            assert_eq!(r.meta_type, "dataref");
            assert_eq!(r.value, "{A:1*\\TYPE=I}");
            assert_eq!(r.technical_type, "Ref to I");
            assert_eq!(r.hex_value, "");
            let deref = var(ctx, "LR->*");
            assert_eq!(
                (deref.value.as_str(), deref.meta_type.as_str()),
                ("42 ", "simple")
            );
            let init = var(ctx, "LR_INIT");
            assert_eq!(init.value, "{A:initial}");
            assert_eq!(init.technical_type, "Ref to DATA");
            assert!(ctx.variables(0, &["<NONE>".into()]).is_empty());
            assert!(ctx.variables(0, &["LR_INIT->*".into()]).is_empty());
            assert_eq!(var(ctx, "LR_X->*").value, "15 ");
            // A reference expands to its target.
            let kids = ctx.children(0, "LR").expect("children of a data reference");
            assert_eq!(kids.len(), 1);
            assert_eq!(kids[0].id, "LR->*");
            assert_eq!(kids[0].value, "42 ");
            // Changing through the field symbol and the reference changes the original.
            let rec = ctx.set_value(0, "<FS>", "16").expect("set through <FS>");
            assert_eq!(rec.value, "16 ");
            assert_eq!(var(ctx, "LV_X").value, "16 ");
            ctx.set_value(0, "LR->*", "43").expect("set through LR->*");
            assert_eq!(var(ctx, "LR->*").value, "43 ");
        },
    );
}

#[test]
fn program_field_symbols_are_shared_by_forms() {
    let mut r = Repository::new();
    r.add_file(
        "zsmp_t.prog.abap",
        "REPORT zsmp_t.
FIELD-SYMBOLS <gv> TYPE i.
DATA gv_total TYPE i VALUE 1.
START-OF-SELECTION.
  ASSIGN gv_total TO <gv>.
  PERFORM add.
  WRITE / |{ gv_total }|.
FORM add.
  <gv> = <gv> + 41.
ENDFORM.
",
    )
    .expect("loads");
    let o = r.run_report("ZSMP_T", &mut NoDebugger).expect("runs");
    assert_eq!(o, "42");
}

#[test]
fn program_field_symbol_on_a_local_of_an_ended_form_is_unassigned() {
    let mut r = Repository::new();
    r.add_file(
        "zsmp_t.prog.abap",
        "REPORT zsmp_t.
FIELD-SYMBOLS <gv> TYPE i.
START-OF-SELECTION.
  PERFORM bind.
  IF <gv> IS NOT ASSIGNED.
    WRITE / 'unassigned'.
  ENDIF.
  PERFORM other.
FORM bind.
  DATA lv_local TYPE i VALUE 5.
  ASSIGN lv_local TO <gv>.
ENDFORM.
FORM other.
  DATA lv_other TYPE i VALUE 6.
  WRITE / <gv>.
ENDFORM.
",
    )
    .expect("loads");
    match r.run_report("ZSMP_T", &mut NoDebugger) {
        Err(RunError::Dump { id, output, .. }) => {
            assert_eq!(id, "GETWA_NOT_ASSIGNED");
            assert_eq!(output, "unassigned");
        }
        other => panic!("expected GETWA_NOT_ASSIGNED, got {other:?}"),
    }
}

#[test]
fn ref_with_a_type_and_create_data_table_of() {
    let o = out("    DATA lv_x TYPE i VALUE 2.
    DATA(lr_any) = REF data( lv_x ).
    ASSIGN lr_any->* TO FIELD-SYMBOL(<x>).
    <x> = 3.
    DATA lr_tab TYPE REF TO data.
    CREATE DATA lr_tab TYPE TABLE OF i.
    FIELD-SYMBOLS <tab> TYPE STANDARD TABLE.
    ASSIGN lr_tab->* TO <tab>.
    APPEND lv_x TO <tab>.
    APPEND 4 TO <tab>.
    out->write( |{ lv_x } { lines( <tab> ) }| ).");
    assert_eq!(o, "3 2");
}

#[test]
fn debugger_expands_data_reference_attributes() {
    let mut hook = Probe {
        skip: 0,
        probe: |ctx: &dyn StopContext| {
            let me = ctx.children(0, "ME").expect("attributes of ME");
            let attr = me
                .iter()
                .find(|r| r.name == "MR_NUM")
                .expect("MR_NUM is listed");
            assert_eq!(attr.meta_type, "dataref");
            assert_eq!(attr.value, "{A:1*\\TYPE=I}");
            let kids = ctx.children(0, &attr.id).expect("the reference expands");
            assert_eq!(kids.len(), 1);
            assert_eq!(kids[0].id, format!("{}->*", attr.id));
            assert_eq!(kids[0].value, "9 ");
            assert_eq!(var(ctx, "ME->MR_NUM->*").value, "9 ");
            let rec = ctx
                .set_value(0, &kids[0].id, "10")
                .expect("set through the id");
            assert_eq!(rec.value, "10 ");
        },
        done: false,
    };
    let r = run_with(
        "    DATA mr_num TYPE REF TO i.",
        "    mr_num = NEW #( 9 ).\n    out->write( |{ mr_num->* }| ).",
        &mut hook,
    );
    assert!(hook.done);
    assert_eq!(r.expect("runs"), "10");
}

#[test]
fn inline_field_symbols_of_recursive_calls_stay_separate() {
    let decl = "    METHODS walk IMPORTING iv_depth TYPE i RETURNING VALUE(rv) TYPE string.";
    let main = "    out->write( walk( 2 ) ).
  ENDMETHOD.
  METHOD walk.
    DATA lt TYPE STANDARD TABLE OF i WITH EMPTY KEY.
    lt = VALUE #( ( iv_depth ) ( iv_depth * 10 ) ).
    LOOP AT lt ASSIGNING FIELD-SYMBOL(<n>).
      IF iv_depth > 0 AND sy-tabix = 1.
        DATA(lv_inner) = walk( iv_depth - 1 ).
        rv = |{ rv }[{ lv_inner }]|.
      ENDIF.
      rv = |{ rv }{ <n> };|.
    ENDLOOP.";
    assert_eq!(out_decl(decl, main), "[[0;0;]1;10;]2;20;");
}

#[test]
fn dynamic_assign_of_attributes() {
    let o = out_decl(
        "    DATA mv_size TYPE i VALUE 4.\n    CLASS-DATA gv_count TYPE i VALUE 2.",
        "    DATA lv_attr TYPE string VALUE `MV_SIZE`.
    ASSIGN me->(lv_attr) TO FIELD-SYMBOL(<a>).
    out->write( |{ sy-subrc } { <a> }| ).
    ASSIGN zcl_t=>('GV_COUNT') TO FIELD-SYMBOL(<s>).
    out->write( |{ sy-subrc } { <s> }| ).
    ASSIGN ('ZCL_T=>GV_COUNT') TO <s>.
    <s> = 3.
    out->write( |{ sy-subrc } { gv_count }| ).
    ASSIGN me->('NOPE') TO <a>.
    out->write( |{ sy-subrc }| ).",
    );
    assert_eq!(
        o,
        r"0 4
0 2
0 3
4"
    );
}
