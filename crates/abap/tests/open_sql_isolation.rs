//! Each run is its own database logical unit of work: a run stopped in the debugger with
//! changes it has not committed keeps them to itself; other runs read the last commit, their
//! `ROLLBACK WORK` undoes only their own changes, and their writes wait for the lock.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use abap::{NoDebugger, Repository, Resume};

use crate::harness::{class_source, on_stop, repo};

/// The sample tables; a write that finds the database locked fails at once.
fn database() -> Arc<Mutex<opensql::Database>> {
    let mut db = opensql::Database::open(&opensql::Options {
        lock_wait: std::time::Duration::ZERO,
        ..opensql::Options::default()
    })
    .expect("database opens");
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    db.load_dir(&samples).expect("the sample tables load");
    Arc::new(Mutex::new(db))
}

/// The class `name` (lower case) running `main`.
fn class(name: &str, main: &str) -> (String, String) {
    let source = class_source("", main, "").replace("zcl_t", name);
    (format!("{name}.clas.abap"), source)
}

/// `ZCL_WRITER` inserts a stock row, then (at `DATA(pause)`, line 14) lets the test run the
/// other classes, then reads its table again.
const WRITER: &str = r#"
    DATA ls TYPE zsmp_stock.
    ls-product = 'WASHER'.
    ls-on_hand = 7.
    INSERT zsmp_stock FROM @ls.
    out->write( |writer inserted { sy-subrc }| ).
    DATA(pause) = 1.
    SELECT COUNT( * ) FROM zsmp_stock INTO @DATA(n).
    out->write( |writer sees { n }| )."#;
const PAUSE_LINE: u32 = 14;

const READER: &str = r#"
    SELECT COUNT( * ) FROM zsmp_stock INTO @DATA(n).
    SELECT SINGLE on_hand FROM zsmp_stock WHERE product = 'WASHER' INTO @DATA(washers).
    out->write( |reader sees { n }, washer { sy-subrc }| )."#;

fn repository(extra: &[(&str, &str)]) -> Repository {
    let mut files = vec![class("zcl_writer", WRITER), class("zcl_reader", READER)];
    for (name, main) in extra {
        files.push(class(name, main));
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, s)| (n.as_str(), s.as_str()))
        .collect();
    let mut r = repo(&refs);
    r.set_database(database());
    r
}

/// Runs `ZCL_WRITER`, and at its pause each of `others` to its end: their outputs (or
/// dumps), then the writer's output.
fn writer_pausing_for(r: &Repository, others: &[&str]) -> (Vec<String>, String) {
    let mut seen = Vec::new();
    let out = r
        .run_classrun(
            "ZCL_WRITER",
            &mut on_stop(|ctx| {
                if ctx.location().line == PAUSE_LINE && seen.is_empty() {
                    for name in others {
                        seen.push(match r.run_classrun(name, &mut NoDebugger) {
                            Ok(out) => out,
                            Err(e) => format!("{e}"),
                        });
                    }
                }
                Resume::Run
            }),
        )
        .expect("the writer runs");
    (seen, out)
}

#[test]
fn uncommitted_changes_are_invisible_to_other_runs_until_the_commit() {
    let r = repository(&[]);
    let (seen, out) = writer_pausing_for(&r, &["ZCL_READER"]);
    assert_eq!(seen, ["reader sees 3, washer 4"]);
    assert_eq!(out, "writer inserted 0\nwriter sees 4");
    // The writer's end committed its row.
    let after = r.run_classrun("ZCL_READER", &mut NoDebugger).expect("runs");
    assert_eq!(after, "reader sees 4, washer 0");
}

#[test]
fn another_runs_rollback_undoes_only_its_own_changes() {
    let r = repository(&[(
        "zcl_undoer",
        r#"
    DELETE FROM zsmp_stock WHERE product = 'NOTHING'.
    ROLLBACK WORK.
    out->write( |undoer { sy-subrc }| )."#,
    )]);
    // The undoer's DELETE finds the database locked by the writer: its run ends there.
    let (seen, out) = writer_pausing_for(&r, &["ZCL_UNDOER", "ZCL_READER"]);
    assert!(seen[0].contains("locked"), "{seen:?}");
    assert_eq!(seen[1], "reader sees 3, washer 4");
    assert_eq!(out, "writer inserted 0\nwriter sees 4");
    let r = repository(&[(
        "zcl_undoer",
        r#"
    ROLLBACK WORK.
    out->write( |undoer { sy-subrc }| )."#,
    )]);
    let (seen, out) = writer_pausing_for(&r, &["ZCL_UNDOER"]);
    assert_eq!(seen, ["undoer 0"]);
    assert_eq!(
        out, "writer inserted 0\nwriter sees 4",
        "the writer's row survives"
    );
}

#[test]
fn a_commit_is_seen_by_the_next_statement_of_another_run() {
    let r = repository(&[(
        "zcl_committer",
        r#"
    DATA ls TYPE zsmp_stock.
    ls-product = 'GASKET'.
    INSERT zsmp_stock FROM @ls.
    COMMIT WORK.
    out->write( |committer { sy-subrc }| )."#,
    )]);
    // Before the reader's first SELECT (line 9), another run inserts and commits.
    let mut seen = Vec::new();
    let out = r
        .run_classrun(
            "ZCL_READER",
            &mut on_stop(|ctx| {
                if ctx.location().line == 9 && seen.is_empty() {
                    seen.push(match r.run_classrun("ZCL_COMMITTER", &mut NoDebugger) {
                        Ok(out) => out,
                        Err(e) => format!("{e}"),
                    });
                }
                Resume::Run
            }),
        )
        .expect("runs");
    assert_eq!(seen, ["committer 0"]);
    assert_eq!(out, "reader sees 4, washer 4");
}
