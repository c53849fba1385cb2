//! Short dumps over real HTTP: every runtime error a run ends with (and a program the
//! debugger terminates) is in the feed and readable as a dump, read back with the ADT client's
//! own readers.

use std::time::Duration;

use super::common::*;

const ZERODIV: &str = "/sap/bc/adt/oo/classrun/ZCL_SMP_DUMP_ZERODIV";

fn samples() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dumps")
}

async fn dump_sim() -> sim::SimHandle {
    sim::start(sim::SimConfig {
        program_dirs: vec![samples()],
        users: vec![
            ("DEVELOPER".into(), "abap".into()),
            ("TESTER".into(), "abap".into()),
        ],
        // Small enough that doubling a string reaches it at once.
        limits: abap::Limits {
            string_length: 1 << 16,
            ..abap::Limits::default()
        },
        ..sim::SimConfig::default()
    })
    .await
    .expect("the simulator starts with the dump samples")
}

/// The 1-based line of the first line of `file` (in the dump samples) holding `text`.
fn line_of(file: &str, text: &str) -> u32 {
    let source = std::fs::read_to_string(samples().join(file)).expect("sample");
    source
        .lines()
        .position(|l| l.contains(text))
        .map(|i| i as u32 + 1)
        .expect("the text is in the sample")
}

async fn feed(s: &Session, query: &str) -> Vec<adt::dumps::DumpEntry> {
    let r = s.get(&format!("/sap/bc/adt/runtime/dumps{query}")).await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(
        r.content_type()
            .is_some_and(|c| c.starts_with("application/atom+xml")),
        "{r:?}"
    );
    adt::dumps::parse_dumps_feed(&r.body).expect("the feed reads")
}

fn unit_config(class: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><aunit:runConfiguration xmlns:aunit=\"http://www.sap.com/adt/aunit\"><external><coverage active=\"false\"/></external><options><uriType value=\"semantic\"/><testDeterminationStrategy sameProgram=\"true\" assignedTests=\"false\"/><testRiskLevels harmless=\"true\" dangerous=\"true\" critical=\"true\"/><testDurations short=\"true\" medium=\"true\" long=\"true\"/></options><adtcore:objectSets xmlns:adtcore=\"http://www.sap.com/adt/core\"><objectSet kind=\"inclusive\"><adtcore:objectReferences><adtcore:objectReference adtcore:uri=\"/sap/bc/adt/oo/classes/{class}\"/></adtcore:objectReferences></objectSet></adtcore:objectSets></aunit:runConfiguration>"
    )
}

#[tokio::test]
async fn every_runtime_error_is_kept_as_a_dump_and_served_in_the_real_shapes() {
    let sim = dump_sim().await;
    let base = sim.base_url();
    let s = session(&base, false).await;
    assert!(feed(&s, "").await.is_empty(), "no run, no dump");

    for class in [
        "ZCL_SMP_DUMP_ZERODIV",
        "ZCL_SMP_DUMP_CUSTOM",
        "ZCL_SMP_DUMP_STRING",
        "ZCL_SMP_DUMP_ASSERT",
    ] {
        let r = s.post(&format!("/sap/bc/adt/oo/classrun/{class}")).await;
        assert_eq!(r.status, 500, "{class} ends in a runtime error: {r:?}");
    }
    // An ABAP Unit run whose test dies of a runtime error no framework catches.
    let r = s
        .post_xml(
            "/sap/bc/adt/abapunit/testruns",
            "application/vnd.sap.adt.abapunit.testruns.config.v4+xml",
            unit_config("zcl_smp_dump_assert"),
        )
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(r.body.contains("ASSERTION_FAILED"), "{r:?}");
    // A program the debugger terminates.
    let l = session(&base, false).await;
    let r = l.set_breakpoints(&[(DEMO_URI, 48)], true).await;
    assert_eq!(r.status, 200, "{r:?}");
    let (d, run) = catch_and_attach(&base, &l, "/sap/bc/adt/oo/classrun/ZCL_ABAPDBG_DEMO").await;
    assert_eq!(d.step("terminateDebuggee").await.status, 500);
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the run answers")
        .expect("join");
    assert_eq!(out.status, 500, "{out:?}");
    l.set_breakpoints(&[], true).await;
    l.stop_listener().await;

    let all = feed(&s, "").await;
    let errors: Vec<&str> = all.iter().map(|e| e.runtime_error.as_str()).collect();
    assert_eq!(
        errors,
        vec![
            "SYSTEM_CANCELED",
            "ASSERTION_FAILED",
            "ASSERTION_FAILED",
            "ASSERTION_FAILED",
            "STRING_SIZE_TOO_LARGE",
            "UNCAUGHT_EXCEPTION",
            "COMPUTE_INT_ZERODIVIDE",
        ],
        "newest first, each dying test its own dump: {all:?}"
    );
    assert!(all.iter().all(|e| e.user == "DEVELOPER"));
    assert_eq!(all[6].program, "ZCL_SMP_DUMP_ZERODIV==========CP");
    assert_eq!(all[0].program, "ZCL_ABAPDBG_DEMO==============CP");
    assert!(
        all[6].time.ends_with('Z') && all[6].time.len() == 20,
        "{:?}",
        all[6].time
    );

    // The division by zero, read as a client reads it.
    let zerodiv = &all[6];
    assert!(
        zerodiv.id.contains("%20DEVELOPER%20001%20"),
        "{}",
        zerodiv.id
    );
    let r = s
        .get(&format!("/sap/bc/adt/runtime/dump/{}", zerodiv.id))
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(
        r.content_type()
            .is_some_and(|c| c.starts_with("application/vnd.sap.adt.runtime.dump.v1+xml"))
    );
    let doc = adt::dumps::parse_dump(&r.body).expect("the dump reads");
    assert_eq!(doc.runtime_error, "COMPUTE_INT_ZERODIVIDE");
    assert_eq!(doc.exception, "CX_SY_ZERODIVIDE");
    assert_eq!(doc.user, "DEVELOPER");
    let line = line_of("zcl_smp_dump_zerodiv.clas.abap", "lv_rest / iv_parts");
    assert_eq!(
        doc.termination(),
        Some((
            "/sap/bc/adt/oo/classes/zcl_smp_dump_zerodiv/source/main".to_string(),
            line
        ))
    );
    let r = s
        .get(&format!(
            "/sap/bc/adt/runtime/dump/{}/formatted",
            zerodiv.id
        ))
        .await;
    assert_eq!(r.status, 200);
    let f = adt::dumps::parse_formatted(&r.body, &doc.chapters);
    // The document's chapter lines point at the chapters' title rows.
    for c in &doc.chapters {
        let row = r.body.lines().nth(c.line as usize - 1).unwrap_or_default();
        assert!(row.starts_with(&format!("|{}", c.title)), "{c:?}: {row}");
    }
    let titles: Vec<&str> = f.chapters.iter().map(|(t, _)| t.as_str()).collect();
    for t in [
        "Short Text",
        "What happened?",
        "Error analysis",
        "How to correct the error",
        "Information on where terminated",
        "Source Code Extract",
        "Active Calls/Events",
        "Chosen Variables",
    ] {
        assert!(titles.contains(&t), "{t} missing: {titles:?}");
    }
    assert_eq!(f.header("Except."), Some("CX_SY_ZERODIVIDE"));
    let t = f.termination();
    assert_eq!(t.procedure, "SHARE");
    assert!(
        t.include.starts_with("ZCL_SMP_DUMP_ZERODIV") && t.line == 3,
        "{t:?}"
    );
    let calls = f.calls();
    assert_eq!(
        calls.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        vec![
            "ZCL_SMP_DUMP_ZERODIV=>SHARE",
            "ZCL_SMP_DUMP_ZERODIV=>IF_OO_ADT_CLASSRUN~MAIN"
        ]
    );
    let vars = f.variables();
    let var = |frame: &str, name: &str| {
        vars.iter()
            .find(|v| v.frame.ends_with(frame) && v.name == name)
            .map(|v| v.value.clone())
    };
    assert_eq!(var("SHARE", "IV_PARTS").as_deref(), Some("0"), "{vars:?}");
    assert_eq!(var("SHARE", "LV_REST").as_deref(), Some("100"), "{vars:?}");
    assert_eq!(var("MAIN", "LV_PARTS").as_deref(), Some("0"), "{vars:?}");
    let source = f.source();
    let current: Vec<_> = source.iter().filter(|l| l.current).collect();
    assert_eq!(current.len(), 1, "{source:?}");
    assert!(current[0].text.contains("lv_rest / iv_parts"));
    assert_eq!(current[0].line, 3, "numbered in the method include");

    // The custom exception names its class; the assertion has none.
    let custom = adt::dumps::parse_dump(
        &s.get(&format!("/sap/bc/adt/runtime/dump/{}", all[5].id))
            .await
            .body,
    )
    .expect("reads");
    assert_eq!(custom.exception, "ZCX_SMP_DUMP_CUSTOM");
    assert_eq!(
        custom.termination().map(|t| t.1),
        Some(line_of(
            "zcl_smp_dump_custom.clas.abap",
            "RAISE EXCEPTION TYPE"
        ))
    );
    let assert_doc = adt::dumps::parse_dump(
        &s.get(&format!("/sap/bc/adt/runtime/dump/{}", all[3].id))
            .await
            .body,
    )
    .expect("reads");
    assert_eq!(assert_doc.exception, "");
    let unit = adt::dumps::parse_dump(
        &s.get(&format!("/sap/bc/adt/runtime/dump/{}", all[1].id))
            .await
            .body,
    )
    .expect("reads");
    assert!(
        unit.termination()
            .is_some_and(|(uri, _)| uri.ends_with("/includes/testclasses")),
        "{unit:?}"
    );

    // Filters.
    assert_eq!(
        feed(&s, "?$query=and(equals(user,DEVELOPER))").await.len(),
        7
    );
    assert!(
        feed(&s, "?$query=and(equals(user,TESTER))")
            .await
            .is_empty()
    );
    assert_eq!(
        feed(&s, "?$query=equals(error,ASSERTION_FAILED)")
            .await
            .len(),
        3
    );
    assert_eq!(
        feed(
            &s,
            "?$query=equals(program,ZCL_SMP_DUMP_ZERODIV==========CP)"
        )
        .await
        .len(),
        1
    );
    assert_eq!(
        feed(&s, "?$query=equals(exception,CX_SY_ZERODIVIDE)")
            .await
            .len(),
        1
    );
    assert!(feed(&s, "?from=29991231000000").await.is_empty());
    assert_eq!(
        feed(&s, "?from=20000101000000&to=29991231000000")
            .await
            .len(),
        7
    );
    assert_eq!(feed(&s, "?$top=2").await.len(), 2);
    assert_eq!(
        s.get("/sap/bc/adt/runtime/dumps?$query=equals(colour,red)")
            .await
            .status,
        400
    );
    assert_eq!(s.get("/sap/bc/adt/runtime/dump/nope").await.status, 404);

    // Kept per user, newest first and bounded.
    let t = Session::with_user(&base, false, "TESTER", "abap");
    t.fetch_csrf().await;
    assert_eq!(t.post(ZERODIV).await.status, 500);
    let tester = feed(&s, "?$query=and(equals(user,TESTER))").await;
    assert_eq!(tester.len(), 1);
    assert_eq!(tester[0].user, "TESTER");
    assert_eq!(
        feed(&s, "").await.len(),
        8,
        "the feed lists every user's dumps"
    );
    for _ in 0..50 {
        assert_eq!(s.post(ZERODIV).await.status, 500);
    }
    let mine = feed(&s, "?$query=and(equals(user,DEVELOPER))").await;
    assert_eq!(mine.len(), 50, "at most 50 per user");
    assert!(
        mine.iter()
            .all(|e| e.runtime_error == "COMPUTE_INT_ZERODIVIDE")
    );
    assert_eq!(
        feed(&s, "?$query=and(equals(user,TESTER))").await.len(),
        1,
        "another user's dumps are kept apart"
    );
    sim.shutdown().await;
}

#[tokio::test]
async fn a_caught_runtime_error_leaves_no_dump() {
    let sim = samples_sim().await;
    let s = session(&sim.base_url(), false).await;
    // Raises and catches its own exception.
    let r = s
        .post("/sap/bc/adt/oo/classrun/ZCL_SMP_OWN_EXCEPTION")
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    let r = s.get("/sap/bc/adt/runtime/dumps").await;
    assert_eq!(r.status, 200);
    assert!(
        adt::dumps::parse_dumps_feed(&r.body)
            .expect("reads")
            .is_empty(),
        "{}",
        r.body
    );
    let discovery = s.get("/sap/bc/adt/discovery").await;
    assert!(
        discovery
            .body
            .contains("href=\"/sap/bc/adt/runtime/dumps\"")
    );
    sim.shutdown().await;
}
