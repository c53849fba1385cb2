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
