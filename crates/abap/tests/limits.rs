//! Guards of a run (`abap::Limits`): statements, run time outside the debugger, table rows.

use std::time::{Duration, Instant};

use abap::{DebugHook, Limits, NoDebugger, Repository, Resume, StopContext};

use crate::harness::{self, class_source, dump};

fn repo(main: &str, limits: Limits) -> Repository {
    let mut r = harness::repo(&[("zcl_t.clas.abap", &class_source("", main, ""))]);
    r.set_limits(limits);
    r
}

const ENDLESS: &str = r"DATA lv TYPE i.
DO.
  lv = lv + 1.
  IF lv > 1000000000.
    lv = 0.
  ENDIF.
ENDDO.";

#[test]
fn statement_limit_ends_an_endless_loop() {
    let limits = Limits {
        statements: 5_000,
        ..Limits::default()
    };
    let (id, text) = dump(repo(ENDLESS, limits).run_classrun("ZCL_T", &mut NoDebugger));
    assert_eq!(id, "SIMULATOR_LIMIT");
    assert!(text.contains("5000"), "{text}");
}

#[test]
fn run_time_limit_ends_an_endless_loop() {
    let limits = Limits {
        statements: u64::MAX,
        run_time: Duration::from_millis(200),
        ..Limits::default()
    };
    let (id, _) = dump(repo(ENDLESS, limits).run_classrun("ZCL_T", &mut NoDebugger));
    assert_eq!(id, "TIME_OUT");
}

/// Holds the program at its first statement for a while, as a user at a breakpoint would.
/// Its own hook, not the harness's: it reports the time held through `DebugHook::paused`.
struct HoldsFirstStop {
    hold: Duration,
    held: Duration,
}

impl DebugHook for HoldsFirstStop {
    fn before_statement(&mut self, _ctx: &dyn StopContext) -> Resume {
        if self.held.is_zero() {
            let start = Instant::now();
            std::thread::sleep(self.hold);
            self.held = start.elapsed();
        }
        Resume::Run
    }

    fn paused(&self) -> Duration {
        self.held
    }
}

#[test]
fn time_stopped_in_the_debugger_does_not_count_as_run_time() {
    let limits = Limits {
        run_time: Duration::from_millis(300),
        ..Limits::default()
    };
    // Enough statements that the clock is read after the long stop (every 1024).
    let main = r"DATA lv TYPE i.
DO 5000 TIMES.
  lv = lv + 1.
ENDDO.
out->write( lv ).";
    let mut hook = HoldsFirstStop {
        hold: Duration::from_millis(600),
        held: Duration::ZERO,
    };
    let out = repo(main, limits)
        .run_classrun("ZCL_T", &mut hook)
        .expect("runs");
    assert_eq!(out, "5000 ");
    assert!(hook.held >= Duration::from_millis(600));
}

#[test]
fn table_row_limit_ends_a_growing_table() {
    let limits = Limits {
        table_rows: 100,
        ..Limits::default()
    };
    let appended = r"DATA lt TYPE STANDARD TABLE OF i WITH EMPTY KEY.
DO 100 TIMES.
  APPEND sy-index TO lt.
ENDDO.
out->write( lines( lt ) ).
APPEND 101 TO lt.";
    let (id, text) = dump(repo(appended, limits).run_classrun("ZCL_T", &mut NoDebugger));
    assert_eq!(id, "TSV_TNEW_PAGE_ALLOC_FAILED");
    assert!(text.contains("100 rows"), "{text}");
    let inserted = r"DATA lt TYPE SORTED TABLE OF i WITH NON-UNIQUE KEY table_line.
DO 101 TIMES.
  INSERT sy-index INTO TABLE lt.
ENDDO.";
    let (id, _) = dump(repo(inserted, limits).run_classrun("ZCL_T", &mut NoDebugger));
    assert_eq!(id, "TSV_TNEW_PAGE_ALLOC_FAILED");
}

#[test]
fn tables_up_to_the_limit_are_fine() {
    let limits = Limits {
        table_rows: 100,
        ..Limits::default()
    };
    let main = r"DATA lt TYPE STANDARD TABLE OF i WITH EMPTY KEY.
DO 100 TIMES.
  INSERT sy-index INTO lt INDEX 1.
ENDDO.
out->write( lines( lt ) ).";
    let out = repo(main, limits)
        .run_classrun("ZCL_T", &mut NoDebugger)
        .expect("runs");
    assert_eq!(out, "100 ");
}

fn small_strings() -> Limits {
    Limits {
        string_length: 1_000,
        table_rows: 1_000,
        ..Limits::default()
    }
}

fn string_dump(main: &str) -> String {
    let (id, text) = dump(repo(main, small_strings()).run_classrun("ZCL_T", &mut NoDebugger));
    assert_eq!(id, "STRING_SIZE_TOO_LARGE", "{main}\n{text}");
    text
}

/// Every statement and expression that can grow a string or xstring ends the run with
/// `STRING_SIZE_TOO_LARGE` at the limit, instead of asking the allocator for more and more
/// (doubling a string 40 times once aborted the whole simulator).
#[test]
fn growing_strings_end_with_string_size_too_large() {
    let doubled = |step: &str, decl: &str| {
        format!(
            r"{decl}
DO 40 TIMES.
  {step}
ENDDO.
out->write( strlen( lv_s ) )."
        )
    };
    let s = "DATA lv_s TYPE string VALUE `ab`.";
    string_dump(&doubled("lv_s = lv_s && lv_s.", s));
    string_dump(&doubled("CONCATENATE lv_s lv_s INTO lv_s.", s));
    string_dump(&doubled("lv_s = |{ lv_s }{ lv_s }|.", s));
    string_dump(&doubled("lv_s = lv_s && `-` && lv_s.", s));
    string_dump(&doubled(
        "REPLACE ALL OCCURRENCES OF `a` IN lv_s WITH `aa`.",
        s,
    ));
    string_dump(&doubled(
        "lv_s = replace( val = lv_s sub = `a` with = `aa` occ = 0 ).",
        s,
    ));
    string_dump(&doubled("lv_s = insert( val = lv_s sub = lv_s ).", s));
    string_dump(&doubled("SHIFT lv_s RIGHT BY 300 PLACES.", s));
    string_dump("DATA lv_s TYPE string VALUE `ab`.\nSHIFT lv_s RIGHT BY 2000000000 PLACES.");
    string_dump(&doubled(
        "CONCATENATE lv_s lv_s INTO lv_s SEPARATED BY lv_s.",
        s,
    ));
    string_dump(
        r"DATA lt TYPE string_table.
DO 20 TIMES.
  APPEND `0123456789012345678901234567890123456789012345678901234567890123456789` TO lt.
ENDDO.
DATA lv_s TYPE string.
CONCATENATE LINES OF lt INTO lv_s.",
    );
    string_dump(
        r"DATA lt TYPE string_table.
DO 20 TIMES.
  APPEND `0123456789012345678901234567890123456789012345678901234567890123456789` TO lt.
ENDDO.
DATA(lv_s) = concat_lines_of( table = lt ).",
    );
    let x = "DATA lv_x TYPE xstring VALUE 'ABCD'.";
    string_dump(&format!(
        r"{x}
DO 40 TIMES.
  lv_x = lv_x && lv_x.
ENDDO."
    ));
}

#[test]
fn strings_up_to_the_limit_are_fine() {
    let main = r"DATA lv_s TYPE string VALUE `ab`.
DO 8 TIMES.
  lv_s = lv_s && lv_s.
ENDDO.
CONCATENATE lv_s `x` INTO DATA(lv_t).
out->write( strlen( lv_t ) ).";
    let out = repo(main, small_strings())
        .run_classrun("ZCL_T", &mut NoDebugger)
        .expect("runs");
    assert_eq!(out, "513 ");
}

/// Tables grown by statements that add many rows at once stop at the row limit.
#[test]
fn tables_grown_in_bulk_end_with_tsv_tnew_page_alloc_failed() {
    let table_dump = |main: &str| {
        let limits = Limits {
            table_rows: 100,
            ..Limits::default()
        };
        let (id, text) = dump(repo(main, limits).run_classrun("ZCL_T", &mut NoDebugger));
        assert_eq!(id, "TSV_TNEW_PAGE_ALLOC_FAILED", "{main}\n{text}");
    };
    table_dump(
        r"DATA lt TYPE STANDARD TABLE OF i WITH EMPTY KEY.
APPEND 1 TO lt.
DO 40 TIMES.
  APPEND LINES OF lt TO lt.
ENDDO.",
    );
    table_dump(
        r"DATA lt TYPE STANDARD TABLE OF i WITH EMPTY KEY.
APPEND 1 TO lt.
DO 40 TIMES.
  INSERT LINES OF lt INTO TABLE lt.
ENDDO.",
    );
    table_dump(
        "TYPES ty_t TYPE STANDARD TABLE OF i WITH EMPTY KEY.\nDATA(lt) = VALUE ty_t( FOR i = 1 UNTIL i > 100000000 ( i ) ).",
    );
    table_dump(
        r"DATA lv_s TYPE string VALUE `a,a,a,a,a,a,a,a,a,a`.
DATA lt TYPE string_table.
DO 4 TIMES.
  lv_s = lv_s && `,` && lv_s.
ENDDO.
SPLIT lv_s AT `,` INTO TABLE lt.",
    );
}
