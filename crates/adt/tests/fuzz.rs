//! Bounded fuzzing of every parser (see FUZZING.md): mutations of the fixture files and
//! arbitrary bytes must never panic. Runs in a few seconds; `examples/fuzz.rs` runs the same
//! targets longer.

use crate::support::fuzz_targets;

use fuzz_targets::{Rng, SEEDS, mutate, run_all};
use proptest::prelude::*;

#[test]
fn seeds_parse_without_panicking() {
    for (_, bytes) in SEEDS {
        run_all(bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_fixtures_never_panic(seed in any::<u64>(), which in 0usize..1000, rounds in 1usize..4) {
        let mut rng = Rng::new(seed);
        let mut input = SEEDS[which % SEEDS.len()].1.to_vec();
        for _ in 0..rounds {
            input = mutate(&mut rng, &input);
        }
        run_all(&input);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
        run_all(&bytes);
    }

    #[test]
    fn xmlish_text_never_panics(s in "[<>/a-zA-Z =\"'&;#x0-9:!?\\[\\]\r\n-]{0,400}") {
        run_all(s.as_bytes());
    }
}
