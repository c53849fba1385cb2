//! Structure tests: the simulator's live answers against the shapes of real systems written
//! down in `tests/fixtures/shapes/*.shape` (element and attribute names and their order,
//! headers, status codes; never values). The notation is described in that folder's README.

use crate::common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::*;
use quick_xml::events::Event;

const DEMO: &str = "ZCL_ABAPDBG_DEMO";

// --- The live document as names ------------------------------------------------------------

#[derive(Debug, Default)]
struct Doc {
    root: Option<String>,
    /// Per element name: the attribute names of each occurrence.
    attrs: BTreeMap<String, Vec<Vec<String>>>,
    /// Per element name: the child element names of each occurrence.
    children: BTreeMap<String, Vec<Vec<String>>>,
    /// `entry/@key` in document order.
    keys: Vec<String>,
}

fn parse(xml: &str) -> Doc {
    let mut doc = Doc::default();
    let mut reader = quick_xml::Reader::from_str(xml);
    // Stack of (name, children so far).
    let mut stack: Vec<(String, Vec<String>)> = Vec::new();
    loop {
        let event = reader.read_event().expect("well-formed XML");
        let (start, empty) = match &event {
            Event::Start(e) => (Some(e.clone()), false),
            Event::Empty(e) => (Some(e.clone()), true),
            Event::End(_) => {
                let (name, kids) = stack.pop().expect("balanced");
                doc.children.entry(name).or_default().push(kids);
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let Some(e) = start else { continue };
        let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
        let mut names = Vec::new();
        for a in e.attributes() {
            let a = a.expect("attribute");
            let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
            if name == "entry" && key == "key" {
                doc.keys
                    .push(a.unescape_value().expect("value").into_owned());
            }
            names.push(key);
        }
        doc.attrs.entry(name.clone()).or_default().push(names);
        match stack.last_mut() {
            Some((_, kids)) => kids.push(name.clone()),
            None => doc.root = Some(name.clone()),
        }
        if empty {
            doc.children.entry(name).or_default().push(Vec::new());
        } else {
            stack.push((name, Vec::new()));
        }
    }
    doc
}

// --- Matching ---------------------------------------------------------------------------------

/// `items` (actual names) against `pattern` (names with `?`, `+`, `*` suffixes).
fn matches(pattern: &[String], items: &[String]) -> bool {
    let mut i = 0;
    for p in pattern {
        let (name, min, many) = match p.chars().last() {
            Some('?') => (&p[..p.len() - 1], 0, false),
            Some('+') => (&p[..p.len() - 1], 1, true),
            Some('*') => (&p[..p.len() - 1], 0, true),
            _ => (p.as_str(), 1, false),
        };
        let mut n = 0;
        while i < items.len() && items[i] == name && (many || n == 0) {
            i += 1;
            n += 1;
        }
        if n < min {
            return false;
        }
    }
    i == items.len()
}

fn collapse(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        if out.last() != Some(n) {
            out.push(n.clone());
        }
    }
    out
}

fn norm_ct(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase()
}

fn shape_file(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/shapes")
        .join(format!("{name}.shape"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Compare a live answer with a shape; returns the differences.
fn differences(shape: &str, r: &Resp) -> Vec<String> {
    let mut out = Vec::new();
    let doc = if r.body.trim_start().starts_with('<') {
        Some(parse(&r.body))
    } else {
        None
    };
    let mut attr_rules: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    for line in shape.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let words: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
        match word {
            "status" => {
                if rest.trim() != r.status.to_string() {
                    out.push(format!("status {} instead of {rest}", r.status));
                }
            }
            "content-type" => {
                if r.content_type().map(norm_ct) != Some(norm_ct(rest)) {
                    out.push(format!(
                        "content-type {:?} instead of {rest}",
                        r.content_type()
                    ));
                }
            }
            "no-content-type" => {
                if r.content_type().is_some() {
                    out.push(format!("unexpected content-type {:?}", r.content_type()));
                }
            }
            "empty-body" => {
                if !r.body.is_empty() {
                    out.push("body is not empty".to_string());
                }
            }
            "header" => {
                let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
                if r.header(name) != Some(value.trim()) {
                    out.push(format!("header {name}: {:?}", r.header(name)));
                }
            }
            "root" => {
                let root = doc.as_ref().and_then(|d| d.root.clone());
                if root.as_deref() != Some(rest.trim()) {
                    out.push(format!("root {root:?} instead of {rest}"));
                }
            }
            "attrs" => {
                let (elem, list) = words.split_first().expect("attrs ELEMENT …");
                attr_rules
                    .entry(elem.clone())
                    .or_default()
                    .push(list.to_vec());
            }
            "children" => {
                let (elem, list) = words.split_first().expect("children ELEMENT …");
                let pattern: Vec<String> = if list == ["-"] {
                    Vec::new()
                } else {
                    list.to_vec()
                };
                let Some(all) = doc.as_ref().and_then(|d| d.children.get(elem)) else {
                    out.push(format!("no element {elem}"));
                    continue;
                };
                for kids in all {
                    if !matches(&pattern, &collapse(kids)) {
                        out.push(format!("children of {elem}: {kids:?} vs {pattern:?}"));
                        break;
                    }
                }
            }
            "keys" => {
                let keys = doc.as_ref().map(|d| d.keys.clone()).unwrap_or_default();
                let order: Vec<&str> = words.iter().map(|k| k.trim_end_matches('!')).collect();
                for k in words.iter().filter(|k| k.ends_with('!')) {
                    let k = k.trim_end_matches('!');
                    if !keys.iter().any(|have| have == k) {
                        out.push(format!("missing property {k} in {keys:?}"));
                    }
                }
                let positions: Vec<usize> = keys
                    .iter()
                    .filter_map(|k| order.iter().position(|o| o == k))
                    .collect();
                if positions.windows(2).any(|w| w[0] > w[1]) {
                    out.push(format!("property order {keys:?}"));
                }
            }
            other => panic!("unknown shape directive {other}"),
        }
    }
    for (elem, alternatives) in &attr_rules {
        let Some(all) = doc.as_ref().and_then(|d| d.attrs.get(elem)) else {
            out.push(format!("no element {elem}"));
            continue;
        };
        for names in all {
            if !alternatives.iter().any(|alt| matches(alt, names)) {
                out.push(format!(
                    "attributes of {elem}: {names:?} vs {alternatives:?}"
                ));
                break;
            }
        }
    }
    out
}

fn check(name: &str, r: &Resp, failures: &mut Vec<String>) {
    for d in differences(&shape_file(name), r) {
        failures.push(format!("{name}: {d}\n    answer: {r:?}"));
    }
}

// --- The live session ------------------------------------------------------------------------

fn listener_query(extra: &str) -> String {
    format!(
        "/sap/bc/adt/debugger/listeners?debuggingMode=user&requestUser=DEVELOPER&terminalId={TERMINAL}&ideId={IDE}{extra}"
    )
}

#[test]
fn the_matcher_understands_the_notation() {
    let v = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert!(matches(&v("a b? c+"), &v("a c")));
    assert!(matches(&v("a b? c+"), &v("a b c")));
    assert!(!matches(&v("a b? c+"), &v("a b")));
    assert!(!matches(&v("a b"), &v("b a")));
    assert!(matches(&v("x*"), &v("")));
    assert!(!matches(&v("a"), &v("a a")));
    let r = Resp {
        status: 200,
        headers: reqwest::header::HeaderMap::new(),
        body: "<r xmlns:a=\"u\" b=\"1\"><c/><c/><d x=\"1\"/></r>".to_string(),
    };
    assert!(differences("root r\nattrs r xmlns:a b\nchildren r c+ d\nattrs d x", &r).is_empty());
    assert_eq!(
        differences("attrs r b xmlns:a\nchildren r d c+", &r).len(),
        2
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn live_answers_have_the_captured_shapes() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("start");
    let base = sim.base_url();
    let mut failures = Vec::new();

    // CSRF required.
    let plain = Session::new(&base, false);
    let r = plain.post(&listener_query("&timeout=0")).await;
    check("csrf-required", &r, &mut failures);

    // Listener timeout, breakpoints (line 1 is a comment in no method: refused).
    let l = session(&base, false).await;
    check("listener-timeout", &l.listen(0).await, &mut failures);
    let r = l
        .set_breakpoints(&[("refused", 1), ("accepted", 31)], false)
        .await;
    check("breakpoints", &r, &mut failures);
    assert!(r.body.contains("errorMessage"), "{r:?}");
    assert!(r.body.contains(" id=\""), "{r:?}");

    // Stop the demo class and look at it.
    let lbase = base.clone();
    let listen = tokio::spawn(async move { session(&lbase, false).await.listen(30).await });
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..1500 {
        if l.get(&listener_query("&checkConflict=false")).await.status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let other = session(&base, false).await;
    let r = other
        .get(&format!(
            "/sap/bc/adt/debugger/listeners?debuggingMode=user&requestUser=DEVELOPER&terminalId={TERMINAL}&ideId=OTHER&checkConflict=true"
        ))
        .await;
    check("listener-conflict", &r, &mut failures);
    check("exception", &r, &mut failures);
    let tbase = base.clone();
    let run = tokio::spawn(async move { session(&tbase, false).await.classrun(DEMO).await });
    let hit = tokio::time::timeout(Duration::from_secs(60), listen)
        .await
        .expect("hit in time")
        .expect("join");
    check("listener-hit", &hit, &mut failures);
    let debuggee = element(&hit.body, "DEBUGGEE_ID").expect("debuggee id");
    let d = session(&base, true).await;
    check("stack-without-debuggee", &d.stack().await, &mut failures);
    check("exception", &d.stack().await, &mut failures);
    check("attach", &d.attach(&debuggee).await, &mut failures);
    check("stack", &d.stack().await, &mut failures);
    check(
        "child-variables",
        &d.children(&["@ROOT"]).await,
        &mut failures,
    );
    let r = d.children(&["@ROOT"]).await;
    let scope = if r.body.contains("@LOCALS") {
        "@LOCALS"
    } else {
        "@PARAMETERS"
    };
    check(
        "child-variables",
        &d.children(&[scope]).await,
        &mut failures,
    );
    check(
        "variables",
        &d.variables(&["SY-SUBRC"]).await,
        &mut failures,
    );
    check("step", &d.step("stepOver").await, &mut failures);
    let r = d
        .get("/sap/bc/adt/debugger/memorysizes?includeAbap=true")
        .await;
    check("memory-sizes", &r, &mut failures);
    check("stack", &d.stack().await, &mut failures);
    let r = d.step("terminateDebuggee").await;
    check("terminate", &r, &mut failures);
    check("exception", &r, &mut failures);
    let r = d.step("stepOver").await;
    check("step-after-terminate", &r, &mut failures);
    check("exception", &r, &mut failures);
    let _ = tokio::time::timeout(Duration::from_secs(20), run).await;
    check(
        "empty-200",
        &l.get("/sap/bc/adt/debugger/breakpoints").await,
        &mut failures,
    );
    let stop = l
        .delete(&listener_query("&checkConflict=false&notifyConflict=true"))
        .await;
    check("empty-200", &stop, &mut failures);
    sim.shutdown().await;
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn displaced_poll_has_the_captured_shape() {
    let sim = sim::start(sim::SimConfig::default()).await.expect("start");
    let base = sim.base_url();
    let s = session(&base, false).await;
    let pbase = base.clone();
    let poll = tokio::spawn(async move {
        session(&pbase, false)
            .await
            .post(&listener_query("&timeout=30&isNotifiedOnConflict=true"))
            .await
    });
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..1500 {
        if s.get(&listener_query("&checkConflict=false")).await.status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Another IDE takes the listener (fault injection).
    let r = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client")
        .put(format!("{base}/sim/faults"))
        .body(r#"{"foreignListeners":["DEVELOPER"]}"#)
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 200);
    let r = tokio::time::timeout(Duration::from_secs(5), poll)
        .await
        .expect("ends")
        .expect("join");
    let mut failures = Vec::new();
    check("conflict-notification", &r, &mut failures);
    check("exception", &r, &mut failures);
    sim.shutdown().await;
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
