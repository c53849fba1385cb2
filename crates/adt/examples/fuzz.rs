//! Longer mutation fuzzing of every parser of the crate (see FUZZING.md).
//!
//! ```text
//! cargo run -p abapdbg-adt --release --example fuzz -- [ITERATIONS] [SEED]
//! ```
//!
//! Each iteration takes a fixture file, applies random edits and runs every parser on the
//! result. A panic is a finding: the input is written to `fuzz-crash-<seed>-<n>.bin` in the
//! current directory and the run exits with status 1.

#[path = "../tests/support/fuzz_targets.rs"]
mod fuzz_targets;

use std::panic;
use std::time::Instant;

use fuzz_targets::{Rng, SEEDS, mutate, run_all};

fn main() {
    let mut args = std::env::args().skip(1);
    let iterations: u64 = match args.next().map(|a| a.parse()) {
        None => 100_000,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            eprintln!("usage: fuzz [ITERATIONS] [SEED]");
            std::process::exit(2);
        }
    };
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    println!(
        "fuzzing every parser from {} seeds, {iterations} iterations, seed {seed}",
        SEEDS.len()
    );
    let mut rng = Rng::new(seed);
    let started = Instant::now();
    let mut findings = 0u32;
    // Keep a few interesting inputs alive: mutate mutants too.
    let mut pool: Vec<Vec<u8>> = SEEDS.iter().map(|(_, b)| b.to_vec()).collect();
    for n in 0..iterations {
        let base = &pool[rng.below(pool.len())];
        let input = mutate(&mut rng, base);
        let outcome = panic::catch_unwind(|| run_all(&input));
        if outcome.is_err() {
            findings += 1;
            let file = format!("fuzz-crash-{seed}-{n}.bin");
            match std::fs::write(&file, &input) {
                Ok(()) => eprintln!("PANIC on iteration {n}: input saved to {file}"),
                Err(e) => eprintln!("PANIC on iteration {n}: cannot save the input: {e}"),
            }
            if findings >= 10 {
                break;
            }
        } else if rng.below(50) == 0 {
            if pool.len() < 512 {
                pool.push(input);
            } else {
                let i = SEEDS.len() + rng.below(pool.len() - SEEDS.len());
                pool[i] = input;
            }
        }
        if n > 0 && n % 100_000 == 0 {
            println!("{n} iterations, {:.0?}", started.elapsed());
        }
    }
    println!(
        "done: {iterations} iterations in {:.1?}, {findings} panics",
        started.elapsed()
    );
    if findings > 0 {
        std::process::exit(1);
    }
}
