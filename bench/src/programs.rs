//! The ABAP classes the harness runs, written to a folder the simulator loads.

use std::path::Path;

use crate::procs::Res;

/// A class that fills a table of `rows` ten-column rows (i, string, c, p, d, n), a ten-row
/// table of the same type, and stops after it (see [`BIG_STOP`]).
pub const BIG: &str = "ZCL_BENCH_BIG";
/// A class that loops for ever over three statements, with a structure and a small table
/// in scope: for stepping.
pub const STEP: &str = "ZCL_BENCH_STEP";
/// A class that runs `iterations` × (loop head and two assignments): statements per second.
pub const LOOP: &str = "ZCL_BENCH_LOOP";
/// A class whose main method calls a method that loops for ever: two frames to look at, for
/// the DAP adapter's requests per editor action.
pub const DAP: &str = "ZCL_BENCH_DAP";
/// Its abapGit file.
pub const DAP_FILE: &str = "zcl_bench_dap.clas.abap";

pub struct Programs {
    /// Line of `ZCL_BENCH_BIG` after the tables are filled.
    pub big_stop: u32,
    /// Line of the first statement in `ZCL_BENCH_STEP`'s loop.
    pub step_stop: u32,
    /// Line of the first statement in the loop of `ZCL_BENCH_DAP`'s inner method.
    pub dap_stop: u32,
    /// Ten executable lines of `ZCL_BENCH_BIG` that the loop benchmark never reaches.
    pub idle_lines: Vec<u32>,
    /// Statements one run of `ZCL_BENCH_LOOP` executes (loop head counted per pass).
    pub loop_statements: u64,
}

fn class(name: &str, types: &str, body: &str) -> String {
    format!(
        "CLASS {} DEFINITION PUBLIC FINAL CREATE PUBLIC.\n  PUBLIC SECTION.\n    INTERFACES if_oo_adt_classrun.\n{types}ENDCLASS.\n\nCLASS {} IMPLEMENTATION.\n  METHOD if_oo_adt_classrun~main.\n{body}  ENDMETHOD.\nENDCLASS.\n",
        name.to_lowercase(),
        name.to_lowercase()
    )
}

fn line_of(text: &str, marker: &str) -> Res<u32> {
    text.lines()
        .position(|l| l.contains(marker))
        .map(|i| i as u32 + 1)
        .ok_or_else(|| format!("no line with {marker}").into())
}

pub fn write(dir: &Path, rows: u64, iterations: u64) -> Res<Programs> {
    std::fs::create_dir_all(dir)?;
    let types = "    TYPES: BEGIN OF ty_row,\n\
                 \x20            id     TYPE i,\n\
                 \x20            name   TYPE string,\n\
                 \x20            code   TYPE c LENGTH 10,\n\
                 \x20            amount TYPE p LENGTH 8 DECIMALS 2,\n\
                 \x20            due    TYPE d,\n\
                 \x20            num    TYPE n LENGTH 8,\n\
                 \x20            qty    TYPE i,\n\
                 \x20            note   TYPE string,\n\
                 \x20            city   TYPE c LENGTH 20,\n\
                 \x20            price  TYPE p LENGTH 10 DECIMALS 3,\n\
                 \x20          END OF ty_row,\n\
                 \x20          tt_rows TYPE STANDARD TABLE OF ty_row WITH EMPTY KEY.\n";
    let big_body = format!(
        "    DATA lt_big TYPE tt_rows.\n\
         \x20   DATA lt_small TYPE tt_rows.\n\
         \x20   DATA ls_row TYPE ty_row.\n\
         \x20   DATA lv_day TYPE d VALUE '20260101'.\n\
         \x20   DO {rows} TIMES.\n\
         \x20     ls_row-id = sy-index.\n\
         \x20     ls_row-name = |name {{ sy-index }}|.\n\
         \x20     ls_row-code = |C{{ sy-index MOD 97 }}|.\n\
         \x20     ls_row-amount = sy-index * '1.25'.\n\
         \x20     ls_row-due = lv_day + sy-index MOD 365.\n\
         \x20     ls_row-num = sy-index.\n\
         \x20     ls_row-qty = sy-index MOD 13.\n\
         \x20     ls_row-note = |note, \"quoted\" {{ sy-index }}|.\n\
         \x20     ls_row-city = 'Walldorf'.\n\
         \x20     ls_row-price = sy-index / 7.\n\
         \x20     APPEND ls_row TO lt_big.\n\
         \x20     IF sy-index <= 10.\n\
         \x20       APPEND ls_row TO lt_small.\n\
         \x20     ENDIF.\n\
         \x20   ENDDO.\n\
         \x20   out->write( |{{ lines( lt_big ) }} rows| ). \" stop: big\n"
    );
    let big = class(BIG, types, &big_body);
    let step_body = "    DATA lv_i TYPE i.\n\
         \x20   DATA lv_sum TYPE i.\n\
         \x20   DATA lv_text TYPE string.\n\
         \x20   DATA ls_row TYPE ty_row.\n\
         \x20   DATA lt_rows TYPE tt_rows.\n\
         \x20   ls_row-name = `first`.\n\
         \x20   APPEND ls_row TO lt_rows.\n\
         \x20   APPEND ls_row TO lt_rows.\n\
         \x20   DO.\n\
         \x20     lv_i = lv_i + 1. \" stop: step\n\
         \x20     lv_sum = lv_sum + lv_i.\n\
         \x20     lv_text = |step { lv_i }|.\n\
         \x20     ls_row-id = lv_i.\n\
         \x20   ENDDO.\n";
    let step = class(STEP, types, step_body);
    let loop_body = format!(
        "    DATA lv_i TYPE i.\n\
         \x20   DATA lv_sum TYPE i.\n\
         \x20   DO {iterations} TIMES.\n\
         \x20     lv_i = lv_i + 1.\n\
         \x20     lv_sum = lv_sum + lv_i MOD 7.\n\
         \x20   ENDDO.\n\
         \x20   out->write( |{{ lv_sum }}| ).\n"
    );
    let lp = class(LOOP, "", &loop_body);
    std::fs::write(dir.join("zcl_bench_big.clas.abap"), &big)?;
    std::fs::write(dir.join("zcl_bench_step.clas.abap"), &step)?;
    std::fs::write(dir.join("zcl_bench_loop.clas.abap"), &lp)?;
    let dap = "CLASS zcl_bench_dap DEFINITION PUBLIC FINAL CREATE PUBLIC.\n\
         \x20 PUBLIC SECTION.\n\
         \x20   INTERFACES if_oo_adt_classrun.\n\
         \x20 PRIVATE SECTION.\n\
         \x20   METHODS work IMPORTING iv_n TYPE i.\n\
         ENDCLASS.\n\n\
         CLASS zcl_bench_dap IMPLEMENTATION.\n\
         \x20 METHOD if_oo_adt_classrun~main.\n\
         \x20   DATA lv_n TYPE i VALUE 3.\n\
         \x20   DATA lt_names TYPE STANDARD TABLE OF string WITH EMPTY KEY.\n\
         \x20   APPEND `first` TO lt_names.\n\
         \x20   work( lv_n ).\n\
         \x20 ENDMETHOD.\n\n\
         \x20 METHOD work.\n\
         \x20   DATA lv_i TYPE i.\n\
         \x20   DATA lv_sum TYPE i.\n\
         \x20   DO.\n\
         \x20     lv_i = lv_i + 1. \" stop: dap\n\
         \x20     lv_sum = lv_sum + iv_n.\n\
         \x20   ENDDO.\n\
         \x20 ENDMETHOD.\n\
         ENDCLASS.\n";
    std::fs::write(dir.join(DAP_FILE), dap)?;
    let first = line_of(&big, "ls_row-id = sy-index")?;
    Ok(Programs {
        big_stop: line_of(&big, "stop: big")?,
        step_stop: line_of(&step, "stop: step")?,
        dap_stop: line_of(dap, "stop: dap")?,
        idle_lines: (first..first + 10).collect(),
        loop_statements: 1 + iterations * 3 + 1,
    })
}
