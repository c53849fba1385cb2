//! Type descriptors in the debugger view, over real HTTP: a variable holding a
//! `cl_abap_typedescr` reference is an object reference whose attributes (`absolute_name`, the
//! `components` table, …) read like any object's.

use crate::common;

use std::time::Duration;

use common::*;

const URI: &str = "/sap/bc/adt/oo/classes/zcl_smp_rtti/source/main";
/// `DATA(lo_ref) = …`: the structure and table descriptions exist.
const LINE: u32 = 71;

/// The records of an answer, each as its text.
fn records(xml: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(start) = rest.find("<STPDA_ADT_VARIABLE>") {
        let tail = &rest[start..];
        let end = tail.find("</STPDA_ADT_VARIABLE>").unwrap_or(tail.len());
        out.push(&tail[..end]);
        rest = &tail[end..];
    }
    out
}

/// The child record named `name`.
fn child<'a>(xml: &'a str, name: &str) -> &'a str {
    records(xml)
        .into_iter()
        .find(|r| element(r, "NAME").as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no child {name}: {xml}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_descriptor_reads_as_an_object_reference() {
    let sim = common::samples_sim().await;
    let base = sim.base_url();
    let l = session(&base, false).await;
    let breakpoint = breakpoints_body(&line_breakpoint("rtti", URI, LINE));
    let r = l
        .post_xml(
            "/sap/bc/adt/debugger/breakpoints",
            "application/xml",
            breakpoint,
        )
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(!r.body.contains("errorMessage"), "{r:?}");
    let (d, run) =
        common::catch_and_attach(&base, &l, "/sap/bc/adt/oo/classrun/ZCL_SMP_RTTI").await;
    assert_eq!(top_line(&d.stack().await.body), Some(LINE));

    let r = d.variables(&["LO_STRUCT", "LO_TABLE"]).await;
    assert_eq!(r.status, 200, "{r:?}");
    for name in ["LO_STRUCT", "LO_TABLE"] {
        let rec = record(&r.body, name).unwrap_or_else(|| panic!("{name}: {r:?}"));
        assert_eq!(
            element(rec, "META_TYPE").as_deref(),
            Some("objectref"),
            "{rec}"
        );
    }

    let r = d.children(&["LO_STRUCT"]).await;
    assert_eq!(r.status, 200, "{r:?}");
    let name = child(&r.body, "ABSOLUTE_NAME");
    assert_eq!(
        element(name, "VALUE").as_deref(),
        Some("\\CLASS=ZCL_SMP_RTTI\\TYPE=TY_ORDER"),
        "{name}"
    );
    assert_eq!(
        element(child(&r.body, "TYPE_KIND"), "VALUE").as_deref(),
        Some("v")
    );
    let components = child(&r.body, "COMPONENTS");
    assert_eq!(element(components, "META_TYPE").as_deref(), Some("table"));
    assert_eq!(element(components, "TABLE_LINES").as_deref(), Some("4"));
    let comps_id = element(components, "ID").expect("the components' id");
    // The rows of the table attribute, by the id the view gave it.
    let row = format!("{comps_id}[2]");
    let name = format!("{comps_id}[2]-NAME");
    let r = d.variables(&[row.as_str(), name.as_str()]).await;
    let rec = record(&r.body, &row).unwrap_or_else(|| panic!("{row}: {r:?}"));
    assert_eq!(
        element(rec, "META_TYPE").as_deref(),
        Some("structure"),
        "{rec}"
    );
    let rec = record(&r.body, &name).unwrap_or_else(|| panic!("{name}: {r:?}"));
    assert_eq!(
        element(rec, "VALUE").map(|v| v.trim_end().to_string()),
        Some("CUSTOMER".to_string()),
        "{rec}"
    );

    for _ in 0..10 {
        let r = d.step("stepContinue").await;
        if subtype(&r.body).as_deref() == Some("debuggeeEnded") {
            break;
        }
    }
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the run answers")
        .expect("run task joins");
    assert_eq!(out.status, 200, "{out:?}");
    assert!(out.body.contains("16 descriptions written"), "{out:?}");
    sim.shutdown().await;
}
