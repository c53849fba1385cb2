//! Recursion over real HTTP: a classrun 10,000 calls deep answers its output, and an endless
//! recursion answers the runtime error `STACK_STATE_NO_ROOF_SPACE` (the simulator goes on
//! serving: the next run works).

use crate::common;

use std::path::PathBuf;

use common::*;

async fn sim() -> sim::SimHandle {
    sim::start(sim::SimConfig {
        program_dirs: vec![
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/recursion"),
        ],
        ..sim::SimConfig::default()
    })
    .await
    .expect("start")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_recursion_runs_and_endless_recursion_ends_with_a_runtime_error() {
    let sim = sim().await;
    let s = session(&sim.base_url(), false).await;
    let r = s.classrun("ZSIM_DEEP").await;
    assert_eq!(r.status, 200, "{r:?}");
    // 1 + 2 + … + 10000.
    assert_eq!(r.body.trim_end(), "50005000");
    let r = s.classrun("ZSIM_ENDLESS").await;
    assert_eq!(r.status, 500, "{r:?}");
    assert!(r.body.contains("runtimeError"), "{r:?}");
    assert!(r.body.contains("STACK_STATE_NO_ROOF_SPACE"), "{r:?}");
    assert!(
        r.body.contains("started"),
        "the output before the dump: {r:?}"
    );
    let r = s.classrun("ZSIM_DEEP").await;
    assert_eq!(r.status, 200, "{r:?}");
    sim.shutdown().await;
}
