//! Structures and internal tables: statements, table expressions and the debugger view
//! (adt-wire.md §9.3–§9.6).

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

fn out_decl(decl: &str, main: &str) -> String {
    match run_with(decl, main, &mut NoDebugger) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e:?}"),
    }
}

fn out(main: &str) -> String {
    out_decl("", main)
}

fn dump(main: &str) -> (String, String) {
    match run_with("", main, &mut NoDebugger) {
        Err(RunError::Dump { id, text, .. }) => (id, text),
        other => panic!("expected a dump, got {other:?}"),
    }
}

/// Stops at the first `BREAK-POINT`-like marker: the first statement `out->write( 'STOP' )`
/// i.e. the first `CALL METHOD` stop after `skip` of them, and runs `probe` there.
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

fn at_first_call(main: &str, probe: impl FnMut(&dyn StopContext)) {
    let mut p = Probe {
        skip: 0,
        probe,
        done: false,
    };
    if let Err(e) = run_with("", main, &mut p) {
        panic!("run failed: {e:?}");
    }
    assert!(p.done, "no stop reached");
}

fn brief(r: &VarRecord) -> String {
    format!(
        "{}|{}|{}|{}|{}|{}|{}|{}|{}",
        r.id,
        r.name,
        r.declared_type_name,
        r.meta_type,
        r.value,
        r.hex_value,
        r.technical_type,
        r.length,
        r.table_lines
    )
}

const TY: &str = r"TYPES: BEGIN OF ty_row,
  id TYPE i,
  name TYPE c LENGTH 4,
END OF ty_row.
";

#[test]
fn structures_components_read_write_clear() {
    let main = format!(
        r"{TY}DATA ls TYPE ty_row.
ls-id = 7.
ls-name = 'AB'.
out->write( ls-id ).
out->write( |{{ ls-name }}!| ).
DATA ls2 LIKE ls.
ls2 = ls.
CLEAR ls-id.
out->write( ls-id ).
out->write( ls2-id ).
CLEAR ls2.
IF ls2 IS INITIAL. out->write( 'initial' ). ENDIF."
    );
    assert_eq!(
        out(&main),
        r"7 
AB!
0 
7 
initial"
    );
}

#[test]
fn nested_structures_and_include() {
    let main = r"TYPES: BEGIN OF ty_addr,
  city TYPE string,
  zip TYPE c LENGTH 5,
END OF ty_addr.
TYPES: BEGIN OF ty_p,
  name TYPE string,
  BEGIN OF inner,
    n TYPE i,
  END OF inner,
  addr TYPE ty_addr.
  INCLUDE TYPE ty_addr.
TYPES END OF ty_p.
DATA p TYPE ty_p.
p-addr-city = `Berlin`.
p-city = `Paris`.
p-inner-n = 3.
p-inner-n += 1.
out->write( p-addr-city ).
out->write( p-city ).
out->write( p-inner-n ).";
    assert_eq!(
        out(main),
        r"Berlin
Paris
4 "
    );
}

#[test]
fn class_level_types_and_data_begin_of() {
    let decl = r"    TYPES: BEGIN OF ty_s,
      a TYPE i,
      b TYPE string,
    END OF ty_s.
    DATA ms TYPE ty_s.";
    let main = r"DATA: BEGIN OF local,
  x TYPE i,
  y TYPE c LENGTH 2,
END OF local.
local-x = 2.
ms-a = local-x * 10.
DATA s2 TYPE zcl_t=>ty_s.
s2 = ms.
out->write( s2-a ).";
    assert_eq!(out_decl(decl, main), "20 ");
}

#[test]
fn debugger_view_of_structures() {
    let main = format!(
        r"{TY}TYPES: BEGIN OF ty_deep,
  id TYPE i,
  text TYPE string,
  row TYPE ty_row,
END OF ty_deep.
DATA ls TYPE ty_row.
DATA ld TYPE ty_deep.
DATA: BEGIN OF lc,
  a TYPE c LENGTH 2,
END OF lc.
ls-id = 15.
ls-name = 'A1'.
ld-row = ls.
ld-text = `hi`.
out->write( 'STOP' )."
    );
    at_first_call(&main, |ctx| {
        let vars = ctx.variables(0, &["LS".into(), "LD".into(), "LC".into(), "LS-ID".into()]);
        let got: Vec<String> = vars.iter().map(brief).collect();
        assert_eq!(
            got,
            vec![
                "LS|LS|TY_ROW|structure|Structure: flat, not charlike|0F0000004100310020002000|Structure: flat, not charlike|12|0".to_string(),
                "LD|LD|TY_DEEP|structure|Structure: deep||Structure: deep|24|0".to_string(),
                "LC|LC|LC|structure|Structure: flat, charlike|20002000|Structure: flat, charlike|4|0".to_string(),
                "LS-ID|LS-ID|I|simple|15 |0F000000|I|4|0".to_string(),
            ]
        );
        let kids = ctx.children(0, "LS").expect("children of a structure");
        let got: Vec<String> = kids.iter().map(brief).collect();
        assert_eq!(
            got,
            vec![
                "LS-ID|ID|I|simple|15 |0F000000|I|4|0".to_string(),
                "LS-NAME|NAME|C|simple|A1  |4100310020002000|C|4|0".to_string(),
            ]
        );
        assert!(kids.iter().all(|k| k.kind == "unknown"));
        let kids = ctx.children(0, "LD-ROW").expect("nested structure");
        assert_eq!(kids[0].id, "LD-ROW-ID");
        assert_eq!(kids[0].value, "15 ");
        let v = ctx.variables(0, &["LD-ROW-NAME".into(), "LD-NOPE".into()]);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].value, "A1  ");
        let locals = ctx.children(0, "@LOCALS").expect("locals");
        let ls = locals.iter().find(|r| r.id == "LS").expect("LS listed");
        assert_eq!(ls.kind, "variable");
        assert_eq!(ls.meta_type, "structure");
    });
}

const TT: &str = r"TYPES: BEGIN OF ty_row,
  id TYPE i,
  name TYPE c LENGTH 4,
END OF ty_row.
TYPES ty_rows TYPE STANDARD TABLE OF ty_row WITH DEFAULT KEY.
";

#[test]
fn append_loop_read_modify_delete() {
    let main = format!(
        r"{TT}DATA lt TYPE ty_rows.
DATA ls TYPE ty_row.
ls-id = 3. ls-name = 'C'. APPEND ls TO lt.
APPEND VALUE #( id = 1 name = 'A' ) TO lt.
INSERT VALUE #( id = 2 name = 'B' ) INTO TABLE lt.
out->write( lines( lt ) ).
LOOP AT lt INTO DATA(wa) WHERE id >= 2.
  out->write( |{{ sy-tabix }}:{{ wa-id }}{{ wa-name }}| ).
ENDLOOP.
READ TABLE lt INTO ls WITH KEY id = 1.
out->write( |{{ sy-subrc }} {{ sy-tabix }} {{ ls-name }}| ).
READ TABLE lt TRANSPORTING NO FIELDS WITH KEY id = 9.
out->write( sy-subrc ).
LOOP AT lt ASSIGNING FIELD-SYMBOL(<r>).
  <r>-id = <r>-id * 10.
ENDLOOP.
SORT lt BY id DESCENDING.
out->write( lt[ 1 ]-id ).
ls-id = 99. MODIFY lt FROM ls INDEX 2.
DELETE lt WHERE id = 10.
LOOP AT lt INTO ls.
  out->write( |{{ ls-id }}| ).
ENDLOOP.
DELETE lt INDEX 1.
out->write( lines( lt ) )."
    );
    assert_eq!(
        out(&main),
        r"3 
1:3C
3:2B
0 2 A
4 
30 
30
99
1 "
    );
}

#[test]
fn elementary_tables_sorted_hashed_and_expressions() {
    let main = r"DATA nums TYPE TABLE OF i.
nums = VALUE #( ( 5 ) ( 1 ) ( 5 ) ( 3 ) ).
SORT nums.
DELETE ADJACENT DUPLICATES FROM nums.
LOOP AT nums INTO DATA(n).
  out->write( |{ n }| ).
ENDLOOP.
DATA st TYPE SORTED TABLE OF string WITH UNIQUE KEY table_line.
INSERT `b` INTO TABLE st.
INSERT `a` INTO TABLE st.
INSERT `b` INTO TABLE st.
out->write( sy-subrc ).
out->write( concat( ) ).";
    let main = main.replace(
        "out->write( concat( ) ).",
        r"out->write( st[ 1 ] ).
IF line_exists( st[ table_line = `b` ] ). out->write( 'yes' ). ENDIF.
DATA words TYPE string_table.
APPEND `x` TO words.
out->write( lines( words ) ).
TRY.
    DATA(w) = words[ 5 ].
  CATCH cx_sy_itab_line_not_found.
    out->write( 'not found' ).
ENDTRY.
CLEAR words.
out->write( lines( words ) ).",
    );
    assert_eq!(
        out(&main),
        r"1
3
5
4 
a
yes
1 
not found
0 "
    );
    let (id, _) = dump(
        r"DATA st TYPE SORTED TABLE OF i WITH NON-UNIQUE KEY table_line.
APPEND 2 TO st.
APPEND 1 TO st.",
    );
    assert_eq!(id, "ITAB_ILLEGAL_SORT_ORDER");
    let (id, _) = dump("DATA t TYPE TABLE OF i.\nDATA(x) = t[ 1 ].");
    assert_eq!(id, "ITAB_LINE_NOT_FOUND");
}

#[test]
fn debugger_view_of_tables() {
    let main = format!(
        r"{TT}DATA lt TYPE ty_rows.
DATA le TYPE ty_rows.
DATA li TYPE TABLE OF i.
lt = VALUE #( ( id = 1 name = 'A' ) ( id = 2 name = 'B' ) ).
li = VALUE #( ( 7 ) ).
out->write( 'STOP' )."
    );
    at_first_call(&main, |ctx| {
        let v = ctx.variables(
            0,
            &[
                "LT".into(),
                "LE".into(),
                "LI".into(),
                "LT[2]".into(),
                "LT[2]-NAME".into(),
                "LI[1]".into(),
                "LT[3]".into(),
            ],
        );
        let got: Vec<String> = v.iter().map(brief).collect();
        assert_eq!(
            got,
            vec![
                "LT|LT|TY_ROWS|table|[2x2(12)]Standard Table||Standard Table|0|2".to_string(),
                "LE|LE|TY_ROWS|table|[0x2(12)]Initial Standard Table||Standard Table|0|0".to_string(),
                "LI|LI||table|[1x1(4)]Standard Table||Standard Table|0|1".to_string(),
                "LT[2]|LT[2]|TY_ROW|structure|Structure: flat, not charlike|020000004200200020002000|Structure: flat, not charlike|12|0".to_string(),
                "LT[2]-NAME|LT[2]-NAME|C|simple|B   |4200200020002000|C|4|0".to_string(),
                "LI[1]|LI[1]|I|simple|7 |07000000|I|4|0".to_string(),
            ]
        );
        assert_eq!(ctx.children(0, "LT"), None);
        assert_eq!(ctx.children(0, "LT[3]"), None);
        let kids = ctx.children(0, "LT[1]").expect("row components");
        let ids: Vec<&str> = kids.iter().map(|k| k.id.as_str()).collect();
        assert_eq!(ids, vec!["LT[1]-ID", "LT[1]-NAME"]);
        assert_eq!(kids[0].value, "1 ");
    });
}
