//! Random requests — every command, arguments of random shape — against a live session:
//! each gets exactly one response, every line stays valid against the protocol schema, and
//! the session still answers afterwards. A fixed seed keeps runs repeatable; set
//! ABAPDBG_FUZZ_SEED and ABAPDBG_FUZZ_REQUESTS to explore further.

use crate::common;

use std::collections::HashSet;
use std::time::Duration;

use common::{DEMO, start_with};
use serde_json::{Map, Value, json};

/// xorshift64*: small, deterministic, good enough to pick shapes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "location",
    "locations",
    "id",
    "ids",
    "all",
    "type",
    "until",
    "timeout_ms",
    "class",
    "program",
    "method",
    "line",
    "index",
    "path",
    "value",
    "offset",
    "limit",
    "format",
    "variable",
    "events",
    "statement",
    "exception",
    "message",
    "condition",
    "epoch",
    "full",
    "take_over",
    "settings",
];

fn value(rng: &mut Rng, depth: u32) -> Value {
    match rng.below(if depth > 2 { 6 } else { 9 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 0),
        2 => json!(rng.below(60)),
        3 => json!(-(rng.below(5) as i64)),
        4 => json!(*rng.pick(&[
            "ZCL_ABAPDBG_DEMO:35",
            "ZCL_ABAPDBG_DEMO:48",
            "ZCL_ABAPDBG_DEMO:30",
            "ZCL_X",
            "",
            "over",
            "into",
            "out",
            "continue",
            "stopped",
            "ended",
            "caught",
            "LV_COUNT",
            "IV_QUANTITY",
            "ME",
            "@ROOT",
            "json",
            "csv",
            "abap",
            "CATCH",
            "\u{0}\u{7f}",
            "ZCL_ABAPDBG_DEMO",
            "LT[1]-X",
            "<FS>",
            "a\"b\\c",
        ])),
        5 => json!(1.5),
        6 => Value::Array((0..rng.below(3)).map(|_| value(rng, depth + 1)).collect()),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(4) {
                m.insert(rng.pick(WORDS).to_string(), value(rng, depth + 1));
            }
            Value::Object(m)
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_requests_each_get_one_answer_and_the_session_survives() {
    let seed = std::env::var("ABAPDBG_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED_ABA9_u64);
    let count: u64 = std::env::var("ABAPDBG_FUZZ_REQUESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(250);
    let sim = sim::start(sim::SimConfig::default()).await.expect("sim");
    let (mut h, task) = start_with(&sim, |c| {
        c.listener_poll_secs = 2;
        c.default_step_timeout = Duration::from_millis(300);
        c.allow_writes = true;
    });
    let mut rng = Rng(seed | 1);
    let commands: Vec<&str> = jsonl::COMMANDS
        .iter()
        .copied()
        .filter(|c| *c != "shutdown")
        .collect();
    let mut sent = HashSet::new();
    for n in 0..count {
        let cmd = *rng.pick(&commands);
        let mut args = value(&mut rng, 0);
        // Keep waits and runs short so the test stays fast.
        if let Some(t) = args.as_object_mut().and_then(|o| o.get_mut("timeout_ms")) {
            *t = json!(rng.below(200));
        }
        if cmd == "wait" && rng.below(2) == 0 {
            args = json!({"until": "stopped", "timeout_ms": rng.below(100)});
        }
        if cmd == "run" && rng.below(3) > 0 {
            args = json!({"class": DEMO});
        }
        let id = format!("f{n}");
        let line = json!({"id": id, "cmd": cmd, "args": args});
        h.send_raw(format!("{line}\n").as_bytes()).await;
        sent.insert(id);
        // Now and then let the program move on so stops do not pile up.
        if n % 25 == 24 {
            h.send_raw(b"{\"id\":\"tidy\",\"cmd\":\"bp.delete\",\"args\":{\"all\":true}}\n")
                .await;
            h.until(|v| v["id"] == "tidy").await;
        }
    }
    // Release whatever is stopped so every run can end, then collect every answer.
    h.send_raw(b"{\"id\":\"clear\",\"cmd\":\"bp.delete\",\"args\":{\"all\":true}}\n")
        .await;
    h.until(|v| v["id"] == "clear").await;
    for _ in 0..10 {
        h.send_raw(b"{\"id\":\"go\",\"cmd\":\"step\",\"args\":{\"type\":\"continue\",\"timeout_ms\":2000}}\n").await;
        let r = h.until(|v| v["id"] == "go").await;
        if r["error"]["code"] == "state.not_stopped" && r["state"] != "running" {
            break;
        }
    }
    let mut answered: HashSet<String> = HashSet::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while answered.len() < sent.len() && tokio::time::Instant::now() < deadline {
        let mut got = Vec::new();
        for v in &h.seen {
            if v["type"] == "response"
                && let Some(id) = v["id"].as_str()
                && sent.contains(id)
            {
                got.push(id.to_string());
            }
        }
        for id in got {
            answered.insert(id);
        }
        if answered.len() < sent.len() {
            h.send_raw(b"{\"id\":\"ping\",\"cmd\":\"status\"}\n").await;
            h.until(|v| v["id"] == "ping").await;
        }
    }
    let missing: Vec<&String> = sent.iter().filter(|id| !answered.contains(*id)).collect();
    assert!(
        missing.is_empty(),
        "requests without an answer: {missing:?}"
    );
    let mut counts = std::collections::HashMap::new();
    for v in &h.seen {
        if v["type"] == "response"
            && let Some(id) = v["id"].as_str()
            && id.starts_with('f')
        {
            *counts.entry(id.to_string()).or_insert(0) += 1;
        }
    }
    assert!(
        counts.values().all(|n| *n == 1),
        "a request answered twice: {counts:?}"
    );
    let st = h.ok("status", json!({})).await;
    assert!(st["state"].is_string());
    h.finish(task).await;
    sim.shutdown().await;
}
