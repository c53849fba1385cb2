//! The logical unit of work: changes visible at once, undone by ROLLBACK WORK, kept by
//! COMMIT WORK.

use opensql::{HostMap, HostValue};

use crate::common::{db, head, run, select};

#[test]
fn rollback_undoes_everything_since_the_last_commit() {
    let mut db = db();
    let mut host = HostMap::new().with("wa", HostValue::Struct(head("0200", "TX", "20250101", 1)));
    run(&mut db, "DELETE FROM zsql_item", &mut host);
    let (rc, cnt, _) = select(&mut db, "SELECT * FROM zsql_item INTO TABLE @DATA(t)");
    assert_eq!((rc, cnt), (4, 0), "the program sees its own change at once");
    let o = run(&mut db, "ROLLBACK WORK", &mut host);
    assert_eq!((o.subrc, o.dbcnt), (0, None));
    let (_, cnt, _) = select(&mut db, "SELECT * FROM zsql_item INTO TABLE @DATA(t)");
    assert_eq!(cnt, 5);

    run(&mut db, "INSERT zsql_head FROM @wa", &mut host);
    let o = run(&mut db, "COMMIT WORK", &mut host);
    assert_eq!(o.subrc, 0);
    run(
        &mut db,
        "DELETE FROM zsql_head WHERE order_id = '0200'",
        &mut host,
    );
    run(&mut db, "ROLLBACK WORK", &mut host);
    let (rc, _, _) = select(
        &mut db,
        "SELECT SINGLE * FROM zsql_head WHERE order_id = '0200' INTO @DATA(wa)",
    );
    assert_eq!(rc, 0, "committed before the rollback");
    run(&mut db, "COMMIT WORK AND WAIT", &mut host);
}

#[test]
fn a_temporary_database_of_an_ended_process_is_removed_and_one_of_a_live_one_kept() {
    if !std::path::Path::new("/proc/self").exists() {
        return; // Which processes live is known only where /proc tells.
    }
    let base = std::env::temp_dir();
    // No process has an id this large on Linux (the maximum is 2^22).
    let abandoned = base.join("opensql-4294967294-7");
    let live = base.join(format!("opensql-{}-999999", std::process::id()));
    let foreign = base.join("opensql-4294967294-8");
    for dir in [&abandoned, &live, &foreign] {
        std::fs::create_dir_all(dir).expect("folder");
        std::fs::write(dir.join("db.sqlite"), b"").expect("file");
    }
    std::fs::write(foreign.join("notes.txt"), b"not a database").expect("file");
    let db = opensql::Database::open(&opensql::Options::default()).expect("open");
    drop(db);
    let (gone, kept, kept_foreign) = (!abandoned.exists(), live.exists(), foreign.exists());
    for dir in [&abandoned, &live, &foreign] {
        let _ = std::fs::remove_dir_all(dir);
    }
    assert!(gone, "the ended process's database is removed");
    assert!(kept, "a live process's database is kept");
    assert!(kept_foreign, "a folder holding other files is kept");
}

#[test]
fn a_temporary_database_is_removed_with_its_last_connection() {
    let db = opensql::Database::open(&opensql::Options::default()).expect("open");
    let session = db.session().expect("session");
    let file = db.path().to_path_buf();
    assert!(file.exists());
    drop(db);
    assert!(file.exists(), "a session keeps the file");
    drop(session);
    assert!(!file.exists(), "removed with the last connection");
    assert!(file.parent().is_some_and(|d| !d.exists()), "and its folder");
}

#[test]
fn sessions_are_units_of_work_of_their_own() {
    let mut root = opensql::Database::open(&opensql::Options {
        lock_wait: std::time::Duration::ZERO,
        ..opensql::Options::default()
    })
    .expect("open");
    root.load_dir(&crate::common::fixtures()).expect("fixtures");
    let mut one = root.session().expect("session");
    let mut two = root.session().expect("session");
    let mut host = HostMap::new();
    let count =
        |db: &mut opensql::Database| select(db, "SELECT * FROM zsql_item INTO TABLE @DATA(t)").1;
    run(
        &mut one,
        "DELETE FROM zsql_item WHERE order_id = '0001'",
        &mut host,
    );
    assert!(one.has_uncommitted_changes() && !two.has_uncommitted_changes());
    assert_eq!(count(&mut one), 3, "its own change at once");
    assert_eq!(count(&mut two), 5, "not another's uncommitted one");
    // A write of the other waits for the lock (here not at all) and fails.
    match two.run("DELETE FROM zsql_item", &mut host) {
        Err(opensql::Error::Locked(m)) => assert!(m.contains("uncommitted"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(count(&mut two), 5, "the failed write changed nothing");
    // The other's ROLLBACK WORK undoes nothing of the first's.
    run(&mut two, "ROLLBACK WORK", &mut host);
    assert_eq!(count(&mut one), 3);
    run(&mut one, "COMMIT WORK", &mut host);
    assert_eq!(count(&mut two), 3, "a commit is seen by the next statement");
    assert_eq!(count(&mut root), 3);
    // Now the other may write.
    run(&mut two, "DELETE FROM zsql_item", &mut host);
    assert_eq!(count(&mut one), 3);
    drop(two);
    assert_eq!(
        count(&mut one),
        3,
        "a connection dropped undoes what it did not commit"
    );
}
