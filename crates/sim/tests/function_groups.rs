//! Function groups over HTTP: their sources at the ADT URIs (module, include, main program),
//! the quick search naming them, and a line breakpoint in an include of the group (a `FORM`)
//! set where the ADT client sends it for the abapGit file, stopping with the module's frame
//! and the group's include frame as ADT names them.

use crate::common;

use std::time::Duration;

use common::{attribute, breakpoints_body, element, line_breakpoint, session};

fn sample(file: &str) -> String {
    std::fs::read_to_string(common::samples_dir().join(file)).expect("sample file readable")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sources_at_their_adt_uris_and_in_the_quick_search() {
    let sim = common::samples_sim().await;
    let s = session(&sim.base_url(), false).await;
    for (file, uri) in [
        (
            "zsmp_fg.fugr.z_smp_fg_add.abap",
            "/sap/bc/adt/functions/groups/zsmp_fg/fmodules/z_smp_fg_add/source/main",
        ),
        (
            "zsmp_fg.fugr.lzsmp_fgtop.abap",
            "/sap/bc/adt/functions/groups/zsmp_fg/includes/lzsmp_fgtop/source/main",
        ),
        (
            "zsmp_fg.fugr.saplzsmp_fg.abap",
            "/sap/bc/adt/functions/groups/zsmp_fg/source/main",
        ),
    ] {
        // The URI the ADT client derives from the file is the one served.
        let at = adt::address::parse_location(&format!("{file}:1")).expect("a group file");
        assert_eq!(at.uri, uri);
        let r = s.get(uri).await;
        assert_eq!(r.status, 200, "{uri}: {r:?}");
        assert_eq!(r.body, sample(file), "{uri}");
    }
    // A module is found only through its own group.
    let r = s
        .get("/sap/bc/adt/functions/groups/other/fmodules/z_smp_fg_add/source/main")
        .await;
    assert_eq!(r.status, 404, "{r:?}");
    let r = s
        .get(
            "/sap/bc/adt/repository/informationsystem/search?operation=quickSearch&query=Z*SMP_FG*",
        )
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(
        r.body.contains("adtcore:uri=\"/sap/bc/adt/functions/groups/zsmp_fg/fmodules/z_smp_fg_add\" adtcore:type=\"FUGR/FF\""),
        "{}",
        r.body
    );
    assert!(
        r.body.contains(
            "adtcore:uri=\"/sap/bc/adt/functions/groups/zsmp_fg\" adtcore:type=\"FUGR/F\""
        ),
        "{}",
        r.body
    );
    sim.shutdown().await;
}

/// The `stackEntry` attributes of interest, innermost first.
fn frames(stack: &str) -> Vec<String> {
    stack
        .match_indices("<stackEntry ")
        .map(|(at, _)| {
            let entry = &stack[at..];
            let entry = &entry[..entry.find("/>").unwrap_or(entry.len())];
            [
                "programName",
                "includeName",
                "line",
                "eventType",
                "eventName",
                "adtcore:uri",
            ]
            .iter()
            .map(|k| attribute(entry, k).unwrap_or_default())
            .collect::<Vec<_>>()
            .join(" ")
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_breakpoint_in_a_form_of_the_group_stops_there() {
    let sim = common::samples_sim().await;
    let base = sim.base_url();
    let at = adt::address::parse_location("zsmp_fg.fugr.lzsmp_fgf01.abap:6")
        .expect("the ADT client maps an include of a group");
    let l = session(&base, false).await;
    let body = breakpoints_body(&line_breakpoint("f6", &at.uri, at.line));
    let r = l
        .post_xml("/sap/bc/adt/debugger/breakpoints", "application/xml", body)
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(!r.body.contains("errorMessage"), "refused: {}", r.body);
    assert!(
        r.body.contains("FUGR/I"),
        "the object type of an include: {}",
        r.body
    );
    let (d, run) =
        common::catch_and_attach(&base, &l, "/sap/bc/adt/oo/classrun/ZCL_SMP_FM_GLOBALS").await;
    let stack = d.stack().await;
    assert_eq!(stack.status, 200, "{stack:?}");
    assert_eq!(
        frames(&stack.body),
        [
            "SAPLZSMP_FG LZSMP_FGF01 6 FORM REMEMBER /sap/bc/adt/functions/groups/zsmp_fg/includes/lzsmp_fgf01/source/main#start=6,0",
            "SAPLZSMP_FG LZSMP_FGU04 11 FUNCTION Z_SMP_FG_COUNT /sap/bc/adt/functions/groups/zsmp_fg/fmodules/z_smp_fg_count/source/main#start=11",
            "ZCL_SMP_FM_GLOBALS============CP ZCL_SMP_FM_GLOBALS============CM001 22 METHOD IF_OO_ADT_CLASSRUN~MAIN /sap/bc/adt/oo/classes/zcl_smp_fm_globals/source/main#start=22",
        ]
    );
    // The FORM sees the group's globals: the module has counted this first call.
    let r = d.variables(&["IV_NOTE", "GV_CALLS"]).await;
    assert_eq!(r.status, 200, "{r:?}");
    let value = |id: &str| common::record(&r.body, id).and_then(|rec| element(rec, "VALUE"));
    assert_eq!(value("IV_NOTE").as_deref(), Some("first"));
    assert_eq!(value("GV_CALLS").as_deref(), Some("1 "));
    // Two calls: two stops, then the end.
    let r = d.step("stepContinue").await;
    assert_eq!(r.status, 200, "{r:?}");
    let r = d.step("stepContinue").await;
    assert_eq!(
        common::subtype(&r.body).as_deref(),
        Some("debuggeeEnded"),
        "{r:?}"
    );
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the run answers")
        .expect("run task joins");
    assert_eq!(out.status, 200, "{out:?}");
    assert_eq!(
        out.body.trim_end(),
        sample("zcl_smp_fm_globals.expected.txt").trim_end()
    );
    sim.shutdown().await;
}
