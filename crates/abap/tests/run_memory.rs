//! The memory one run may hold (`Limits::run_memory`, issue 25 item 3): programs that pile up
//! strings, tables or matches end with the real system's runtime error, and the thread that
//! ran them runs the next program as if nothing had happened.
//!
//! The budgets are small (tens of MiB) and the programs hold a few times that without the
//! budget, so without it a test fails on its assertion, never by exhausting the test
//! process's memory.

use std::time::{Duration, Instant};

use abap::{Limits, NoDebugger, Repository, RunError};

use crate::harness::{self, class_source, dump};

const MIB: usize = 1024 * 1024;

fn run(main: &str, limits: Limits) -> Result<String, RunError> {
    let mut r: Repository = harness::repo(&[("zcl_t.clas.abap", &class_source("", main, ""))]);
    r.set_limits(limits);
    r.run_classrun("ZCL_T", &mut NoDebugger)
}

fn budget(mib: usize) -> Limits {
    Limits {
        run_memory: mib * MIB,
        ..Limits::default()
    }
}

/// 40 strings of 4 MB (160 MB) against a budget of 48 MiB.
const BIG_STRINGS: &str = r"DATA lt TYPE STANDARD TABLE OF string WITH EMPTY KEY.
DO 40 TIMES.
  APPEND repeat( val = `x` occ = 4000000 ) TO lt.
ENDDO.
out->write( lines( lt ) ).";

/// 40 copies of a table of 100,000 rows (some 130 MB) against a budget of 48 MiB.
const BIG_TABLES: &str = r"TYPES ty_ints TYPE STANDARD TABLE OF i WITH EMPTY KEY.
DATA lt_big TYPE ty_ints.
DATA lt_all TYPE STANDARD TABLE OF ty_ints WITH EMPTY KEY.
DO 100000 TIMES.
  APPEND sy-index TO lt_big.
ENDDO.
DO 40 TIMES.
  APPEND lt_big TO lt_all.
ENDDO.
out->write( lines( lt_all ) ).";

/// A program well inside the budget: 8 strings of 2 MB.
const SMALL: &str = r"DATA lt TYPE STANDARD TABLE OF string WITH EMPTY KEY.
DO 8 TIMES.
  APPEND repeat( val = `y` occ = 2000000 ) TO lt.
ENDDO.
out->write( lines( lt ) ).";

/// Runs `f`, failing when it takes longer than a few seconds.
fn quick<T>(f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let r = f();
    let took = start.elapsed();
    assert!(took < Duration::from_secs(10), "took {took:?}");
    r
}

#[test]
fn many_big_strings_end_with_string_size_too_large() {
    let (id, text) = dump(quick(|| run(BIG_STRINGS, budget(48))));
    assert_eq!(id, "STRING_SIZE_TOO_LARGE");
    assert!(text.contains(&(48 * MIB).to_string()), "{text}");
    // The memory is given back: the same thread runs the next program normally.
    assert_eq!(run(SMALL, budget(48)).expect("runs"), "8 ");
}

#[test]
fn a_string_past_the_memory_budget_is_catchable() {
    let main = r"DATA lt TYPE STANDARD TABLE OF string WITH EMPTY KEY.
TRY.
    DO 40 TIMES.
      APPEND repeat( val = `x` occ = 4000000 ) TO lt.
    ENDDO.
  CATCH cx_sy_string_size_too_large INTO DATA(lx).
    DATA(lv_held) = lines( lt ).
    CLEAR lt.
    out->write( |caught after { lv_held }| ).
ENDTRY.
APPEND repeat( val = `z` occ = 1000000 ) TO lt.
out->write( strlen( lt[ 1 ] ) ).";
    let out = quick(|| run(main, budget(48))).expect("runs");
    assert!(out.starts_with("caught after "), "{out}");
    assert!(out.ends_with("1000000 "), "{out}");
}

#[test]
fn many_big_tables_end_with_tsv_tnew_page_alloc_failed() {
    let (id, text) = dump(quick(|| run(BIG_TABLES, budget(48))));
    assert_eq!(id, "TSV_TNEW_PAGE_ALLOC_FAILED");
    assert!(text.contains("memory"), "{text}");
    assert_eq!(run(SMALL, budget(48)).expect("runs"), "8 ");
    // Not a limit that ends everything: a tenth of the copies fits.
    let fewer = BIG_TABLES.replace("DO 40 TIMES", "DO 4 TIMES");
    assert_eq!(run(&fewer, budget(48)).expect("runs"), "4 ");
}

/// Set in the child process [`in_child`] starts.
const CHILD: &str = "ABAP_RUN_MEMORY_CHILD";

/// Runs the test `name` of this binary alone in a child process (its peak memory is its
/// own); returns whether it passed, with what it printed.
fn in_child(name: &str) -> (bool, String) {
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = std::process::Command::new(exe)
        .args([
            "--exact",
            name,
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .output()
        .expect("the test binary runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success() && text.contains("1 passed"), text)
}

/// The process's peak resident memory in bytes (`VmHWM`).
fn peak_rss() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
        .map(|kb| kb * 1024)
        .expect("VmHWM in /proc/self/status")
}

/// 200,000 matches against a limit of 1000 rows: the search stops at row 1001, so the
/// process never holds the 200,000 matches and rows (some 400 MB) it would build first.
#[test]
#[ignore = "runs in a child process, started by find_all_occurrences_results_respect_the_row_limit"]
fn child_find_results_over_a_long_text() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let limits = Limits {
        table_rows: 1000,
        ..Limits::default()
    };
    let main = r"DATA(lv) = repeat( val = `a` occ = 200000 ).
FIND ALL OCCURRENCES OF `a` IN lv RESULTS DATA(lt_res).
out->write( lines( lt_res ) ).";
    let (id, text) = dump(quick(|| run(main, limits)));
    assert_eq!(id, "TSV_TNEW_PAGE_ALLOC_FAILED");
    assert!(text.contains("1000 rows"), "{text}");
    let peak = peak_rss();
    eprintln!("peak resident memory {peak} bytes");
    assert!(peak < 64 * MIB, "peak resident memory {peak} bytes");
}

#[test]
fn find_all_occurrences_results_respect_the_row_limit() {
    let (passed, out) = in_child("run_memory::child_find_results_over_a_long_text");
    assert!(passed, "{out}");
    let limits = Limits {
        table_rows: 1000,
        ..Limits::default()
    };
    for of in ["`a`", "REGEX 'a'", "PCRE 'a'"] {
        let main = format!(
            r"DATA(lv) = repeat( val = `a` occ = 20000 ).
FIND ALL OCCURRENCES OF {of} IN lv RESULTS DATA(lt_res).
out->write( lines( lt_res ) )."
        );
        let (id, text) = dump(quick(|| run(&main, limits)));
        assert_eq!(id, "TSV_TNEW_PAGE_ALLOC_FAILED", "{of}");
        assert!(text.contains("1000 rows"), "{of}: {text}");
    }
    let replace = r"DATA(lv) = repeat( val = `a` occ = 20000 ).
REPLACE ALL OCCURRENCES OF `a` IN lv WITH `b` RESULTS DATA(lt_res).
out->write( lines( lt_res ) ).";
    let (id, _) = dump(quick(|| run(replace, limits)));
    assert_eq!(id, "TSV_TNEW_PAGE_ALLOC_FAILED");
    let within = r"DATA(lv) = repeat( val = `a` occ = 1000 ).
FIND ALL OCCURRENCES OF `a` IN lv RESULTS DATA(lt_res).
out->write( lines( lt_res ) ).";
    assert_eq!(run(within, limits).expect("runs"), "1000 ");
}

#[test]
fn find_all_occurrences_over_a_long_text_stops_at_the_memory_budget() {
    // 300,000 matches collected take some 20 MB; the budget leaves room for far fewer.
    let main = r"DATA(lv) = repeat( val = `a` occ = 300000 ).
FIND ALL OCCURRENCES OF `a` IN lv MATCH COUNT DATA(lv_count).
out->write( lv_count ).";
    let (id, text) = dump(quick(|| run(main, budget(16))));
    assert_eq!(id, "TSV_TNEW_PAGE_ALLOC_FAILED");
    assert!(text.contains("matches"), "{text}");
    let regex = main.replace("OF `a`", "OF REGEX 'a'");
    let (id, _) = dump(quick(|| run(&regex, budget(16))));
    assert_eq!(id, "TSV_TNEW_PAGE_ALLOC_FAILED");
    let count = r"DATA(lv) = repeat( val = `a` occ = 300000 ).
out->write( count( val = lv regex = 'a' ) ).";
    let (id, _) = dump(quick(|| run(count, budget(16))));
    assert_eq!(id, "TSV_TNEW_PAGE_ALLOC_FAILED");
    // With the default budget the same search counts them all.
    assert_eq!(run(main, Limits::default()).expect("runs"), "300000 ");
}

#[test]
fn many_objects_end_with_tsv_tnew_page_alloc_failed() {
    let main = r"DATA lt TYPE STANDARD TABLE OF REF TO zcl_t WITH EMPTY KEY.
DO 100000 TIMES.
  DATA(lo) = NEW zcl_t( ).
  lo->mv_text = |object { sy-index } and a text long enough to be on the heap|.
  APPEND lo TO lt.
ENDDO.
out->write( lines( lt ) ).";
    let source = class_source("    DATA mv_text TYPE string.", main, "");
    let run_objects = |limits: Limits| {
        let mut r = harness::repo(&[("zcl_t.clas.abap", &source)]);
        r.set_limits(limits);
        r.run_classrun("ZCL_T", &mut NoDebugger)
    };
    let (id, text) = dump(quick(|| run_objects(budget(16))));
    assert_eq!(id, "TSV_TNEW_PAGE_ALLOC_FAILED");
    assert!(text.contains("memory"), "{text}");
    assert_eq!(run_objects(Limits::default()).expect("runs"), "100000 ");
}
