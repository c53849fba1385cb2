//! References live within one stop; hit conditions count as documented.

use dap::HitCondition;
use dap::refs::Handles;

#[test]
fn references_are_forgotten_at_the_next_stop_and_never_reused() {
    let mut h = Handles::default();
    let a = h.allocate("LT_ITEMS");
    let b = h.allocate("LS_ORDER");
    assert!(a > 0 && b > a);
    assert_eq!(h.get(a), Some(&"LT_ITEMS"));
    h.invalidate();
    assert_eq!(h.get(a), None);
    assert!(h.is_empty());
    let c = h.allocate("LT_ITEMS");
    assert!(c > b, "a number of an earlier stop is not handed out again");
    assert_eq!(h.get(c), Some(&"LT_ITEMS"));
}

#[test]
fn hit_conditions() {
    let stops = |text: &str| {
        let c = HitCondition::parse(text).unwrap();
        (1..=10).filter(|n| c.stops_at(*n)).collect::<Vec<u64>>()
    };
    assert_eq!(stops("3"), vec![3]);
    assert_eq!(stops("== 3"), vec![3]);
    assert_eq!(stops(">8"), vec![9, 10]);
    assert_eq!(stops(">=9"), vec![9, 10]);
    assert_eq!(stops("<3"), vec![1, 2]);
    assert_eq!(stops("<=2"), vec![1, 2]);
    assert_eq!(stops("%4"), vec![4, 8]);
    assert!(HitCondition::parse("often").is_err());
    assert!(HitCondition::parse("%0").is_err());
    assert!(HitCondition::parse("").is_err());
}
