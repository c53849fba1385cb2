//! A 20,000-row table through the protocol: exports complete and byte-exact against the rows
//! (JSON of all 20,000 rows, too big to be inline; JSON, CSV and ABAP of the first 1,234, to
//! a file and inline), pages at the end of the table (`table` and `vars`), a cell by `get`;
//! and the stop's reads: `stack` and `vars`
//! right after a stop ask the system nothing, a repeated read is not asked again, and what
//! was read is forgotten at the next stop, at a frame switch and after `set`. Functional
//! checks only; speed is measured by `cargo run --release -p bench`.

use crate::common;

use common::{Harness, start_with};
use serde_json::{Value, json};

const BIG: &str = "ZCL_ENG_BIG";
const ROWS: u32 = 20_000;
/// Rows of `LT_SOME` (the first rows of `LT_ROWS`): three pages of an export, the last one
/// partial.
const SOME: u32 = 1_234;
/// Where the main method calls `fill`.
const CALL: u32 = 36;
/// `lv_count = lines( lt_rows ).` in the main method, after the table is filled.
const COUNTED: u32 = 37;
/// The last statement of `fill` (frame 0 there; the main method is frame 1).
const IN_FILL: u32 = 63;

fn fixture_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/big")
}

async fn big_sim() -> sim::SimHandle {
    sim::start(sim::SimConfig {
        program_dirs: vec![fixture_dir()],
        ..sim::SimConfig::default()
    })
    .await
    .expect("sim")
}

/// Row `i` as the class builds it: (id, name, code, amount, due, num) as the protocol shows
/// the cells (numbers with a leading sign, characters with their blanks).
fn row(i: u32) -> [String; 6] {
    let quarters = i64::from(i) * 25; // hundredths
    let cents = if i.is_multiple_of(5) {
        -quarters
    } else {
        quarters
    };
    let amount = format!(
        "{}{}.{:02}",
        if cents < 0 { "-" } else { "" },
        cents.abs() / 100,
        cents.abs() % 100
    );
    [
        i.to_string(),
        format!("row {i}, \"q\""),
        format!("{:<6}", format!("C{}", i % 7)),
        amount,
        if i.is_multiple_of(2) {
            "20260315"
        } else {
            "20261231"
        }
        .to_string(),
        format!("{:05}", i % 1000),
    ]
}

const NAMES: [&str; 6] = ["ID", "NAME", "CODE", "AMOUNT", "DUE", "NUM"];

/// The documented export formats, written out independently of the engine.
fn expected_csv(n: u32) -> String {
    let quote = |s: &str| {
        if s.contains([',', '"']) || s.starts_with(' ') || s.ends_with(' ') {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut out = format!("{}\r\n", NAMES.join(","));
    for i in 1..=n {
        let cells: Vec<String> = row(i).iter().map(|c| quote(c)).collect();
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    out
}

fn expected_json(n: u32) -> String {
    let mut out = String::from("[");
    for i in 1..=n {
        if i > 1 {
            out.push(',');
        }
        let r = row(i);
        // Numbers as JSON numbers with the decimals the system shows (0.25, 1.00, -1.25):
        // the export keeps a packed number's digits rather than going through f64.
        let amount = &r[3];
        out.push_str(&format!(
            "{{\"ID\":{},\"NAME\":{},\"CODE\":{},\"AMOUNT\":{},\"DUE\":\"{}\",\"NUM\":\"{}\"}}",
            r[0],
            serde_json::to_string(&r[1]).expect("json"),
            serde_json::to_string(&r[2]).expect("json"),
            amount,
            r[4],
            r[5]
        ));
    }
    out.push(']');
    out
}

fn expected_abap(n: u32) -> String {
    let mut out = String::from("VALUE #(");
    for i in 1..=n {
        let r = row(i);
        let amount = if r[3].contains('.') || r[3].starts_with('-') {
            format!("'{}'", r[3])
        } else {
            r[3].clone()
        };
        out.push_str(&format!(
            "\n  ( id = {} name = `{}` code = '{}' amount = {amount} due = '{}' num = '{}' )",
            r[0],
            r[1],
            r[2].trim_end(),
            r[4],
            r[5]
        ));
    }
    out.push_str("\n)");
    out
}

/// Requests to the system (listener polls left out) since the log was cleared.
fn asked(sim: &sim::SimHandle) -> Vec<String> {
    sim.request_log()
        .into_iter()
        .filter(|l| l.is_round_trip() && !l.path.contains("/listeners"))
        .map(|l| l.path)
        .collect()
}

async fn stopped_at(sim: &sim::SimHandle, line: u32, writes: bool) -> Harness {
    let (mut h, _task) = start_with(sim, |c| c.allow_writes = writes);
    h.ok("bp.set", json!({"location": format!("{BIG}:{line}")}))
        .await;
    h.call_later("run", json!({"class": BIG})).await;
    let stop = h.event("stopped").await;
    assert_eq!(stop["body"]["frame"]["line"], line, "{stop}");
    h
}

/// `text` is `expected`, or a panic that shows where they part.
fn same(what: &str, text: &str, expected: &str) {
    if text != expected {
        let at = text
            .bytes()
            .zip(expected.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(text.len().min(expected.len()));
        let around = |s: &str| {
            let from = s.floor_char_boundary(at.saturating_sub(60));
            let to = s.ceil_char_boundary((at + 60).min(s.len()));
            s[from..to].to_string()
        };
        panic!(
            "{what} differs at byte {at} (lengths {} / {}): {:?} / expected {:?}",
            text.len(),
            expected.len(),
            around(text),
            around(expected)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exports_of_a_big_table_are_complete_and_byte_exact() {
    let sim = big_sim().await;
    let mut h = stopped_at(&sim, COUNTED, false).await;

    // All 20,000 rows, no file asked for: too big to be inline, so a file of its own.
    let r = h
        .ok("export", json!({"id": "LT_ROWS", "format": "json"}))
        .await;
    assert_eq!(r["rows"], ROWS, "{r}");
    assert_eq!(r["truncated"], false);
    assert!(r.get("content").is_none());
    let file = r["file"]
        .as_str()
        .expect("a file for a big export")
        .to_string();
    // Ours alone (issue 25, item 1): a 0600 file in a directory of the session's own
    // (0700, a name nobody can guess), never a predictable name in the shared /tmp.
    {
        use std::os::unix::fs::PermissionsExt;
        let path = std::path::Path::new(&file);
        let mode = |p: &std::path::Path| {
            std::fs::symlink_metadata(p)
                .expect("meta")
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(mode(path), 0o600, "{file}");
        let dir = path.parent().expect("a directory");
        assert_ne!(dir, std::env::temp_dir(), "not straight in the shared /tmp");
        assert_eq!(mode(dir), 0o700, "{}", dir.display());
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        assert_ne!(
            name,
            format!("abapdbg-export-{}-LT_ROWS.json", std::process::id()),
            "a name nobody can guess"
        );
    }
    let written = std::fs::read_to_string(&file).expect("the export");
    let _ = std::fs::remove_file(&file);
    assert_eq!(r["bytes"], written.len());
    same("json of all rows", &written, &expected_json(ROWS));

    // Every format of the first rows, to a file and inline.
    let dir = std::env::temp_dir().join(format!("abapdbg-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for (format, expected) in [
        ("csv", expected_csv(SOME)),
        ("json", expected_json(SOME)),
        ("abap", expected_abap(SOME)),
    ] {
        let file = dir.join(format!("rows.{format}"));
        let r = h
            .ok(
                "export",
                json!({"id": "LT_SOME", "format": format, "file": file.display().to_string()}),
            )
            .await;
        assert_eq!(r["rows"], SOME, "{r}");
        assert_eq!(r["file"], file.display().to_string());
        let written = std::fs::read_to_string(&file).expect("the export");
        assert_eq!(r["bytes"], written.len(), "{format}");
        same(format, &written, &expected);
        let r = h
            .ok("export", json!({"id": "LT_SOME", "format": format}))
            .await;
        assert!(r.get("file").is_none(), "{format} is small: inline");
        same(format, r["content"].as_str().unwrap_or_default(), &expected);
    }
    let _ = std::fs::remove_dir_all(&dir);
    h.ok("terminate", json!({})).await;
    sim.shutdown().await;
}

/// A `file` that is a link or a FIFO (put there by another local user, say) is refused at
/// once: the link's target is not written, the FIFO does not hang the request, and the
/// session answers as before (issue 25, item 1).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_into_a_link_or_a_fifo_is_refused_at_once() {
    let sim = big_sim().await;
    let mut h = stopped_at(&sim, COUNTED, false).await;
    let dir = tempfile::tempdir().expect("tmp");
    let precious = dir.path().join("precious");
    std::fs::write(&precious, "keep me").expect("write");
    let link = dir.path().join("rows.csv");
    std::os::unix::fs::symlink(&precious, &link).expect("ln");
    let fifo = dir.path().join("rows.fifo");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(status.success());
    for file in [&link, &fifo] {
        let started = std::time::Instant::now();
        let e = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            h.fails(
                "export",
                json!({"id": "LT_SOME", "format": "csv", "file": file.display().to_string()}),
            ),
        )
        .await
        .unwrap_or_else(|_| panic!("an export into {} hung", file.display()));
        assert_eq!(e, "protocol.invalid_args", "{}", file.display());
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
    assert_eq!(std::fs::read_to_string(&precious).expect("read"), "keep me");
    let st = h.ok("status", json!({})).await;
    assert_eq!(st["state"], "stopped", "{st}");
    h.ok("terminate", json!({})).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_at_the_end_of_a_big_table_and_one_cell() {
    let sim = big_sim().await;
    let mut h = stopped_at(&sim, COUNTED, false).await;

    // The table's record and the page's rows: one round trip.
    sim.clear_request_log();
    let page = h
        .ok(
            "table",
            json!({"id": "LT_ROWS", "offset": ROWS - 10, "limit": 100}),
        )
        .await;
    assert_eq!(asked(&sim).len(), 1, "{:?}", asked(&sim));
    assert_eq!(page["total"], ROWS);
    assert_eq!(page["more"], false);
    let rows = page["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 10, "{page}");
    assert_eq!(rows[9]["index"], ROWS);
    assert_eq!(rows[9]["id"], format!("LT_ROWS[{ROWS}]"));
    let last = row(ROWS);
    for (name, cell) in NAMES.iter().zip(&last) {
        assert_eq!(rows[9]["columns"][name], cell.as_str(), "{name}");
    }
    assert_eq!(page["columns"][5]["name"], "NUM");

    let past = h
        .ok(
            "table",
            json!({"id": "LT_ROWS", "offset": ROWS, "limit": 100}),
        )
        .await;
    assert_eq!(past["rows"], json!([]));
    assert_eq!(past["more"], false);

    let vars = h
        .ok(
            "vars",
            json!({"id": "LT_ROWS", "offset": ROWS - 5, "limit": 10}),
        )
        .await;
    let names: Vec<&str> = vars["variables"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|v| v["name"].as_str())
        .collect();
    assert_eq!(
        names,
        ["[19996]", "[19997]", "[19998]", "[19999]", "[20000]"]
    );
    assert_eq!(vars["total"], ROWS);
    assert_eq!(vars["more"], false);

    let cell = h.ok("get", json!({"path": "LT_ROWS[12345]-NAME"})).await;
    assert_eq!(cell["variable"]["value"], row(12345)[1].as_str());
    let cell = h.ok("get", json!({"path": "LT_ROWS[20000]-AMOUNT"})).await;
    assert_eq!(cell["variable"]["value"], "-5000.00");
    h.ok("terminate", json!({})).await;
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_stop_read_is_not_read_again_and_is_forgotten_when_it_stops_being_true() {
    let sim = big_sim().await;
    let mut h = stopped_at(&sim, IN_FILL, true).await;

    // Right after the stop (a catch): the stack is known; reading it asks nothing.
    sim.clear_request_log();
    let stack = h.ok("stack", json!({})).await;
    assert_eq!(stack["frames"][0]["line"], IN_FILL);
    assert_eq!(stack["frames"][1]["line"], CALL, "main calls fill there");
    assert!(asked(&sim).is_empty(), "{:?}", asked(&sim));

    // The catch read the frame's variables along with the stack: vars asks nothing, and
    // nothing again; get of one id once, then nothing.
    let first = h.ok("vars", json!({})).await;
    assert!(first.to_string().contains("LS_ROW"), "{first}");
    let n = asked(&sim).len();
    assert_eq!(n, 0, "vars after a catch: {:?}", asked(&sim));
    let again = h.ok("vars", json!({})).await;
    assert_eq!(first, again);
    assert_eq!(asked(&sim).len(), n, "vars again asks nothing");
    let id = h.ok("get", json!({"path": "LS_ROW-ID"})).await;
    assert_eq!(id["variable"]["value"], "20000");
    h.ok("get", json!({"path": "LS_ROW-ID"})).await;
    assert_eq!(asked(&sim).len(), n + 1, "the second get asks nothing");

    // set changes the value: the next get reads it again and sees the change.
    h.ok("set", json!({"path": "LS_ROW-ID", "value": "7"}))
        .await;
    let id = h.ok("get", json!({"path": "LS_ROW-ID"})).await;
    assert_eq!(id["variable"]["value"], "7");

    // Another frame: other variables, read from that frame.
    h.ok("frame", json!({"index": 1})).await;
    sim.clear_request_log();
    let main = h.ok("vars", json!({})).await;
    assert_eq!(
        asked(&sim).len(),
        1,
        "the root and the scopes in one request: {:?}",
        asked(&sim)
    );
    let names: Vec<&str> = main["variables"]
        .as_array()
        .expect("vars")
        .iter()
        .filter_map(|v| v["name"].as_str())
        .collect();
    assert!(names.contains(&"LV_COUNT"), "{main}");
    assert!(!names.contains(&"LS_ROW"), "{main}");
    h.ok("frame", json!({"index": 0})).await;
    let back = h.ok("vars", json!({})).await;
    assert!(back.to_string().contains("LS_ROW"), "{back}");

    // The next stop (in main, after the call): stack and variables of the new stop, and no
    // request for either after the step.
    h.ok("step", json!({"type": "out"})).await;
    let line = h.ok("stack", json!({})).await["frames"][0]["line"].clone();
    h.ok("step", json!({"type": "over"})).await;
    sim.clear_request_log();
    let stack = h.ok("stack", json!({})).await;
    assert_ne!(stack["frames"][0]["line"], line, "{stack}");
    assert_eq!(stack["frames"][0]["line"], COUNTED + 1, "{stack}");
    let vars = h.ok("vars", json!({})).await;
    assert!(
        asked(&sim).is_empty(),
        "stack and vars after a step: {:?}",
        asked(&sim)
    );
    let count = vars["variables"]
        .as_array()
        .expect("vars")
        .iter()
        .find(|v| v["name"] == "LV_COUNT")
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(count["value"], "20000", "{vars}");
    let got = h.ok("get", json!({"path": "LV_COUNT"})).await;
    assert_eq!(got["variable"]["value"], "20000");
    h.ok("terminate", json!({})).await;
    sim.shutdown().await;
}
