//! When `abapdbg` is not built, the harness runs the simulator and the coprocess from its own
//! binary (`bench --child sim|serve`): the same crates, started the way `abapdbg sim` and
//! `abapdbg serve --no-socket` start them, minus the command line.

use std::path::PathBuf;
use std::time::Duration;

pub fn run(role: Option<&str>) {
    let Ok(rt) = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    else {
        std::process::exit(1);
    };
    match role {
        Some("sim") => rt.block_on(sim()),
        Some("serve") => rt.block_on(serve()),
        _ => {
            eprintln!("bench --child sim|serve");
            std::process::exit(2);
        }
    }
}

async fn sim() {
    let mut dirs = Vec::new();
    let mut args = std::env::args().skip(3);
    while let Some(a) = args.next() {
        if a == "--programs"
            && let Some(d) = args.next()
        {
            dirs.push(PathBuf::from(d));
        }
    }
    let config = sim::SimConfig {
        program_dirs: dirs,
        limits: sim::Limits {
            statements: 2_000_000_000,
            run_time: Duration::from_secs(3600),
            table_rows: 10_000_000,
            // The harness measures the memory of big tables itself: no budget ends them.
            run_memory: usize::MAX,
            ..sim::Limits::default()
        },
        ..sim::SimConfig::default()
    };
    let Ok(handle) = sim::start(config).await else {
        std::process::exit(1);
    };
    println!("{}", handle.base_url());
    // Until the harness kills us.
    std::future::pending::<()>().await;
}

async fn serve() {
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    let adt = adt::Config {
        base_url: var("ABAPDBG_URL"),
        user: var("ABAPDBG_USER"),
        password: var("ABAPDBG_PASSWORD"),
        client: Some(var("ABAPDBG_CLIENT")),
        ..Default::default()
    };
    let identity = adt::Identity {
        user: adt.user.clone(),
        terminal_id: format!("BENCH{:027}", std::process::id()),
        ide_id: format!("BENCHIDE{:024}", std::process::id()),
    };
    let mut config = engine::EngineConfig::new(adt, identity);
    // The table figures forget what a stop has read with a `set` (a write action).
    config.allow_writes = std::env::var_os("ABAPDBG_ALLOW_WRITES").is_some();
    let input = tokio::io::BufReader::new(tokio::io::stdin());
    let _ = engine::serve(
        config,
        input,
        tokio::io::stdout(),
        std::future::pending::<()>(),
    )
    .await;
}
