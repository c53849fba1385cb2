//! Structures and internal tables: statements, table expressions and the debugger view
//! (adt-wire.md §9.3–§9.6).

use abap::{DebugHook, NoDebugger, Repository, Resume, RunError, StopContext, VarRecord};

fn class(decl: &str, main: &str) -> String {
    format!(
        "CLASS zcl_t DEFINITION PUBLIC FINAL CREATE PUBLIC.\n  PUBLIC SECTION.\n    INTERFACES if_oo_adt_classrun.\n{decl}\n  PRIVATE SECTION.\nENDCLASS.\n\nCLASS zcl_t IMPLEMENTATION.\n  METHOD if_oo_adt_classrun~main.\n{main}\n  ENDMETHOD.\nENDCLASS.\n"
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

const TY: &str = "TYPES: BEGIN OF ty_row,\n  id TYPE i,\n  name TYPE c LENGTH 4,\nEND OF ty_row.\n";

#[test]
fn structures_components_read_write_clear() {
    let main = format!(
        "{TY}DATA ls TYPE ty_row.\nls-id = 7.\nls-name = 'AB'.\nout->write( ls-id ).\nout->write( |{{ ls-name }}!| ).\nDATA ls2 LIKE ls.\nls2 = ls.\nCLEAR ls-id.\nout->write( ls-id ).\nout->write( ls2-id ).\nCLEAR ls2.\nIF ls2 IS INITIAL. out->write( 'initial' ). ENDIF."
    );
    assert_eq!(out(&main), "7 \nAB!\n0 \n7 \ninitial");
}

#[test]
fn nested_structures_and_include() {
    let main = "TYPES: BEGIN OF ty_addr,\n  city TYPE string,\n  zip TYPE c LENGTH 5,\nEND OF ty_addr.\nTYPES: BEGIN OF ty_p,\n  name TYPE string,\n  BEGIN OF inner,\n    n TYPE i,\n  END OF inner,\n  addr TYPE ty_addr.\n  INCLUDE TYPE ty_addr.\nTYPES END OF ty_p.\nDATA p TYPE ty_p.\np-addr-city = `Berlin`.\np-city = `Paris`.\np-inner-n = 3.\np-inner-n += 1.\nout->write( p-addr-city ).\nout->write( p-city ).\nout->write( p-inner-n ).";
    assert_eq!(out(main), "Berlin\nParis\n4 ");
}

#[test]
fn class_level_types_and_data_begin_of() {
    let decl = "    TYPES: BEGIN OF ty_s,\n      a TYPE i,\n      b TYPE string,\n    END OF ty_s.\n    DATA ms TYPE ty_s.";
    let main = "DATA: BEGIN OF local,\n  x TYPE i,\n  y TYPE c LENGTH 2,\nEND OF local.\nlocal-x = 2.\nms-a = local-x * 10.\nDATA s2 TYPE zcl_t=>ty_s.\ns2 = ms.\nout->write( s2-a ).";
    assert_eq!(out_decl(decl, main), "20 ");
}

#[test]
fn debugger_view_of_structures() {
    let main = format!(
        "{TY}TYPES: BEGIN OF ty_deep,\n  id TYPE i,\n  text TYPE string,\n  row TYPE ty_row,\nEND OF ty_deep.\nDATA ls TYPE ty_row.\nDATA ld TYPE ty_deep.\nDATA: BEGIN OF lc,\n  a TYPE c LENGTH 2,\nEND OF lc.\nls-id = 15.\nls-name = 'A1'.\nld-row = ls.\nld-text = `hi`.\nout->write( 'STOP' )."
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

const TT: &str = "TYPES: BEGIN OF ty_row,\n  id TYPE i,\n  name TYPE c LENGTH 4,\nEND OF ty_row.\nTYPES ty_rows TYPE STANDARD TABLE OF ty_row WITH DEFAULT KEY.\n";

#[test]
fn append_loop_read_modify_delete() {
    let main = format!(
        "{TT}DATA lt TYPE ty_rows.\nDATA ls TYPE ty_row.\nls-id = 3. ls-name = 'C'. APPEND ls TO lt.\nAPPEND VALUE #( id = 1 name = 'A' ) TO lt.\nINSERT VALUE #( id = 2 name = 'B' ) INTO TABLE lt.\nout->write( lines( lt ) ).\nLOOP AT lt INTO DATA(wa) WHERE id >= 2.\n  out->write( |{{ sy-tabix }}:{{ wa-id }}{{ wa-name }}| ).\nENDLOOP.\nREAD TABLE lt INTO ls WITH KEY id = 1.\nout->write( |{{ sy-subrc }} {{ sy-tabix }} {{ ls-name }}| ).\nREAD TABLE lt TRANSPORTING NO FIELDS WITH KEY id = 9.\nout->write( sy-subrc ).\nLOOP AT lt ASSIGNING FIELD-SYMBOL(<r>).\n  <r>-id = <r>-id * 10.\nENDLOOP.\nSORT lt BY id DESCENDING.\nout->write( lt[ 1 ]-id ).\nls-id = 99. MODIFY lt FROM ls INDEX 2.\nDELETE lt WHERE id = 10.\nLOOP AT lt INTO ls.\n  out->write( |{{ ls-id }}| ).\nENDLOOP.\nDELETE lt INDEX 1.\nout->write( lines( lt ) )."
    );
    assert_eq!(out(&main), "3 \n1:3C\n3:2B\n0 2 A\n4 \n30 \n30\n99\n1 ");
}

#[test]
fn elementary_tables_sorted_hashed_and_expressions() {
    let main = "DATA nums TYPE TABLE OF i.\nnums = VALUE #( ( 5 ) ( 1 ) ( 5 ) ( 3 ) ).\nSORT nums.\nDELETE ADJACENT DUPLICATES FROM nums.\nLOOP AT nums INTO DATA(n).\n  out->write( |{ n }| ).\nENDLOOP.\nDATA st TYPE SORTED TABLE OF string WITH UNIQUE KEY table_line.\nINSERT `b` INTO TABLE st.\nINSERT `a` INTO TABLE st.\nINSERT `b` INTO TABLE st.\nout->write( sy-subrc ).\nout->write( concat( ) ).";
    let main = main.replace("out->write( concat( ) ).", "out->write( st[ 1 ] ).\nIF line_exists( st[ table_line = `b` ] ). out->write( 'yes' ). ENDIF.\nDATA words TYPE string_table.\nAPPEND `x` TO words.\nout->write( lines( words ) ).\nTRY.\n    DATA(w) = words[ 5 ].\n  CATCH cx_sy_itab_line_not_found.\n    out->write( 'not found' ).\nENDTRY.\nCLEAR words.\nout->write( lines( words ) ).");
    assert_eq!(out(&main), "1\n3\n5\n4 \na\nyes\n1 \nnot found\n0 ");
    let (id, _) = dump(
        "DATA st TYPE SORTED TABLE OF i WITH NON-UNIQUE KEY table_line.\nAPPEND 2 TO st.\nAPPEND 1 TO st.",
    );
    assert_eq!(id, "ITAB_ILLEGAL_SORT_ORDER");
    let (id, _) = dump("DATA t TYPE TABLE OF i.\nDATA(x) = t[ 1 ].");
    assert_eq!(id, "ITAB_LINE_NOT_FOUND");
}

#[test]
fn debugger_view_of_tables() {
    let main = format!(
        "{TT}DATA lt TYPE ty_rows.\nDATA le TYPE ty_rows.\nDATA li TYPE TABLE OF i.\nlt = VALUE #( ( id = 1 name = 'A' ) ( id = 2 name = 'B' ) ).\nli = VALUE #( ( 7 ) ).\nout->write( 'STOP' )."
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
