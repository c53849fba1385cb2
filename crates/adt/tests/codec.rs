//! Parsers and request builders against fixture files shaped like the public captures of
//! real systems (adt-wire.md §15; our own files, values made up).

use adt::codec;
use adt::error::{classify, parse_exception};
use adt::{BatchCall, DebuggerSettings, ErrorClass, StepKind};

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn debuggee_record() {
    let d = codec::parse_debuggee(&fixture("debuggee.xml"))
        .unwrap()
        .unwrap();
    assert_eq!(d.id, "4F3A9C0D1E2B37465A6B7C8D9E0F1A2B");
    assert_eq!(d.client, "007", "client keeps its leading zeros");
    assert_eq!(d.include_line, 4);
    assert_eq!(d.instance_name, "box_T01_02");
    assert!(d.uri.ends_with("#start=41"));
    assert!(!d.is_attach_impossible);
    assert_eq!(d.field("TERMINAL_ID"), Some(""));
    assert_eq!(d.field("SYSID"), Some("T01#####"));
    assert_eq!(d.field("DESCRIPTION"), Some(""));
    assert_eq!(
        d.field("DEBUGGEE_ID"),
        None,
        "mapped fields are not repeated"
    );
    assert_eq!(d.unmapped.len(), 41 - 11, "every other field of the record");
    assert_eq!(codec::parse_debuggee("").unwrap(), None);
}

#[test]
fn breakpoint_verdicts_in_server_order_with_error_kind() {
    let body = fixture("breakpoints.xml");
    let plain = codec::parse_breakpoints(&body).unwrap();
    let detail = codec::parse_breakpoints_detailed(&body).unwrap();
    assert_eq!(plain.len(), 4);
    assert_eq!(plain[0].client_id, "bp-3");
    assert_eq!(plain[0].id, None);
    assert_eq!(
        plain[0].error_message.as_deref(),
        Some("Cannot create a breakpoint at this position")
    );
    assert_eq!(detail[0].error_kind, None);
    assert_eq!(detail[1].error_kind.as_deref(), Some("error"));
    assert_eq!(
        detail[1].error_message.as_deref(),
        Some("Invalid breakpoint kind  badi"),
        "two blanks kept"
    );
    assert_eq!(detail[2].object_type.as_deref(), Some("CLAS/OC"));
    assert_eq!(detail[2].object_name.as_deref(), Some("ZCL_INVOICE_TOTALS"));
    assert_eq!(
        detail[2].condition, None,
        "empty condition echo is no condition"
    );
    assert_eq!(
        plain[2].uri.as_deref(),
        Some("/sap/bc/adt/oo/classes/zcl_invoice_totals/source/main#start=41")
    );
    assert_eq!(detail[3].condition.as_deref(), Some("LV_N > 2"));
    assert_eq!(detail[3].result(), plain[3]);
    assert!(codec::parse_breakpoints("").unwrap().is_empty());
    assert!(codec::parse_breakpoints("<dbg:stack/>").is_err());
}

#[test]
fn breakpoint_request_in_debugger_scope() {
    let identity = adt::Identity {
        user: "TESTER".into(),
        terminal_id: "T".into(),
        ide_id: "I".into(),
    };
    let specs = [adt::BreakpointSpec {
        client_id: "c<1>".into(),
        kind: adt::BreakpointKind::Message {
            id: "00".into(),
            number: "001".into(),
            ty: "E".into(),
        },
        condition: Some("A > 'x'".into()),
    }];
    let s = codec::breakpoints_request_in(
        adt::BreakpointScope::Debugger,
        &identity,
        &adt::SyncScope::Additive,
        &specs,
    );
    assert!(s.contains("scope=\"debugger\""), "{s}");
    assert!(s.contains("clientId=\"c&lt;1&gt;\""), "{s}");
    assert!(s.contains("condition=\"A &gt; &apos;x&apos;\""), "{s}");
    assert!(s.contains("msgId=\"00\" msgNo=\"001\" msgTy=\"E\""), "{s}");
    assert!(!s.contains("syncScope"));
    let external = codec::breakpoints_request(&identity, &adt::SyncScope::Full, &[]);
    assert!(
        external.contains("scope=\"external\"") && external.contains("<syncScope mode=\"full\"/>")
    );
}

#[test]
fn catalogues() {
    let types = codec::parse_named_items(&fixture("messagetypes.xml")).unwrap();
    assert_eq!(
        types,
        vec![
            ("A".to_string(), "Termination".to_string()),
            ("E".to_string(), "Error".to_string()),
            ("W".to_string(), "Warning".to_string())
        ]
    );
    let statements = codec::parse_named_items(&fixture("statements.xml")).unwrap();
    assert_eq!(statements[0].0, "CALL FUNCTION");
    assert_eq!(statements.len(), 3);
}

#[test]
fn attach_and_actions() {
    let body = fixture("attach.xml");
    let a = codec::parse_attach(&body).unwrap();
    assert_eq!(a.debug_session_id, "A1B2C3D4E5F60718293A4B5C6D7E8F90");
    assert!(a.is_user_authorized_for_changes && a.is_stepping_possible);
    assert_eq!(a.reached_breakpoints.len(), 1);
    let actions = codec::parse_actions(&body).unwrap();
    assert_eq!(actions[0].name, "updateDebugging");
    assert_eq!(
        actions[0].link,
        "/sap/bc/adt/debugger/actions?action=updateDebugging&value=true"
    );
    assert_eq!(actions[1].style, "push");
    let r = codec::parse_action_result(&fixture("action.xml")).unwrap();
    assert_eq!(r.name, "memorySnapshot");
    assert_eq!(r.data, "box_T01_02,T01_0001");
    assert_eq!(r.message_kind, "info");
    assert!(!r.is_error);
}

#[test]
fn step_with_watchpoint_settings_and_actions() {
    let info = codec::parse_step_info(&fixture("step.xml")).unwrap();
    assert_eq!(info.reached_breakpoints, vec!["KIND=1.STATEMENT=CATCH"]);
    assert_eq!(info.reached_watchpoints.len(), 1);
    let w = &info.reached_watchpoints[0];
    assert_eq!((w.id.as_str(), w.variable_name.as_str()), ("3", "LV_SUM"));
    assert_eq!(w.current_value.as_deref(), Some("30 "), "value not trimmed");
    assert!(!w.expired);
    let s = info.settings.unwrap();
    assert!(s.create_exception_object && s.show_data_aging && !s.system_debugging);
    assert_eq!(info.actions[0].name, "commitWork");
    let plain = codec::parse_step_info(&fixture("step_plain.xml")).unwrap();
    assert!(plain.reached_breakpoints.is_empty() && plain.reached_watchpoints.is_empty());
    assert_eq!(plain.settings, Some(DebuggerSettings::default()));
    assert_eq!(codec::parse_step_info("").unwrap(), Default::default());
    assert!(codec::parse_step("<dbg:attach/>").is_err());
}

#[test]
fn settings_round_trip() {
    let s = DebuggerSettings {
        system_debugging: true,
        create_exception_object: true,
        show_data_aging: true,
        ..Default::default()
    };
    assert_eq!(
        codec::parse_settings(&codec::settings_request(&s)).unwrap(),
        s
    );
    assert_eq!(codec::parse_settings(&fixture("settings.xml")).unwrap(), s);
}

#[test]
fn stack_with_dynpro_frame_and_cursor() {
    let st = codec::parse_stack(&fixture("stack.xml")).unwrap();
    assert_eq!(st.entries.len(), 4);
    assert_eq!(st.cursor_index, 1);
    assert_eq!(st.entries[0].line, 41);
    assert_eq!(st.entries[0].event_name, "ADD_LINE");
    assert!(st.entries[0].uri.ends_with("#start=41,0"));
    assert!(st.entries[2].system_program);
    assert_eq!(st.entries[3].stack_type, "DYNP");
    assert_eq!(st.entries[3].position, 2, "positions count per stack type");
    assert_eq!(st.entries[3].source_type, "DYNP");
    assert!(st.entries[3].is_vit && !st.entries[0].is_vit);
    assert!(st.entries[0].unmapped.is_empty(), "{:?}", st.entries[0]);
    let vit: Vec<&str> = st.entries[3]
        .unmapped
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(vit, ["canVitOpen", "type", "name"]);
    assert_eq!(
        codec::fragment_line(&st.entries[2].uri),
        Some(105),
        "semantic fragment"
    );
}

#[test]
fn variables_keep_blanks_and_ignore_unknown_fields() {
    let cv = codec::parse_child_variables(&fixture("child_variables.xml")).unwrap();
    assert_eq!(cv.variables.len(), 4);
    assert_eq!(cv.variables[0].value, "7 ");
    assert_eq!(cv.variables[1].value, "B7    ");
    assert_eq!(cv.variables[2].value, "19.90-");
    assert!(cv.variables[2].read_only);
    assert_eq!(cv.variables[2].parameter_kind, "importing");
    assert_eq!(cv.variables[3].table_lines, 4);
    assert_eq!(cv.variables[3].meta_type, "table");
    assert_eq!(cv.hierarchies.len(), 3);
    assert_eq!(cv.hierarchies[1].child_name, "Locals");
    assert_eq!(cv.hierarchies[2].child_name, "");
    assert_eq!(
        codec::parse_child_variables("").unwrap(),
        Default::default()
    );
    let v = codec::parse_variables(&fixture("variables.xml")).unwrap();
    assert_eq!(v[0].id, "LT_LINES[2]-AMOUNT");
    assert_eq!(v[0].kind, "unknown");
    assert_eq!(v[1].value, "4 ");
    assert_eq!(v[1].inheritance_level, None, "-1: not inherited");
    let kept: Vec<&str> = v[1].unmapped.iter().map(|(k, _)| k.as_str()).collect();
    // TABLE_BODY, in every record, has a field of its own (empty in every capture).
    assert_eq!(kept, ["STRUC_COMPONENT_GROUPS"]);
    assert_eq!(v[1].table_body, "");
    assert!(codec::parse_variables("").unwrap().is_empty());
    let o = codec::parse_variables(&fixture("variables_object.xml")).unwrap();
    assert!(o[0].is_exception && !o[0].is_value_incomplete);
    assert_eq!(o[0].meta_type, "objectref");
    assert!(o[1].is_value_incomplete && !o[1].is_exception);
    assert_eq!(o[1].inheritance_level, Some(2));
    assert_eq!(o[1].inheritance_class, "CX_ROOT");
    assert_eq!(o[1].access_kind, "public");
    assert_eq!(
        o[1].unmapped.last(),
        Some(&("LATER_RELEASE_FIELD".to_string(), "kept".to_string()))
    );
}

#[test]
fn variable_requests_escape_ids() {
    let body = codec::child_variables_request(&["@ROOT".into(), "<FS>".into()]);
    assert!(body.contains("<PARENT_ID>@ROOT</PARENT_ID>"));
    assert!(body.contains("<PARENT_ID>&lt;FS&gt;</PARENT_ID>"));
    let body = codec::variables_request(&["{O:1*\\CLASS=ZCL_X}-A".into()]);
    assert!(body.contains("<ID>{O:1*\\CLASS=ZCL_X}-A</ID>"));
}

#[test]
fn watchpoints() {
    let w = codec::parse_watchpoints(&fixture("watchpoints.xml")).unwrap();
    assert_eq!(w.len(), 2);
    assert_eq!(w[0].id, "3");
    assert_eq!(w[0].condition.as_deref(), Some("LV_SUM > 20"));
    assert_eq!(w[0].old_value.as_deref(), Some("0 "));
    assert_eq!(w[0].current_value.as_deref(), Some("30 "));
    assert_eq!(w[0].procedure, "ADD_LINE");
    assert!(w[0].active && !w[0].expired);
    assert!(!w[1].active && w[1].expired);
    assert_eq!(w[1].condition, None);
    assert!(codec::parse_watchpoints("").unwrap().is_empty());
}

#[test]
fn memory_sizes_keep_what_they_cannot_map() {
    let m = codec::parse_memory_sizes(&fixture("memory_sizes.xml")).unwrap();
    assert_eq!(m.abap_static_variables, 123_456);
    assert_eq!(m.abap_dynamic_objects_allocated, 260_000);
    assert_eq!(m.internal_peak_used, 4_100_000);
    assert_eq!(m.external_internal_sessions, 2);
    assert_eq!(
        m.unmapped,
        vec![("external/sharedBuffers".to_string(), "17".to_string())]
    );
}

#[test]
fn error_documents_are_classified() {
    let cases = [
        (
            "exception_debuggee_ended.xml",
            500,
            ErrorClass::DebuggeeEnded,
        ),
        ("exception_terminate.xml", 500, ErrorClass::Terminated),
        (
            "exception_after_terminate.xml",
            500,
            ErrorClass::DebuggeeEnded,
        ),
        ("exception_conflict.xml", 409, ErrorClass::ListenerConflict),
        (
            "exception_no_session.xml",
            404,
            ErrorClass::NoSessionAttached,
        ),
        ("exception_not_found.xml", 404, ErrorClass::NotFound),
        ("icm_unavailable.html", 400, ErrorClass::ServerUnavailable),
    ];
    for (file, status, class) in cases {
        let body = fixture(file);
        let ex = parse_exception(&body);
        assert_eq!(classify(status, false, ex.as_ref(), &body), class, "{file}");
    }
    let c = parse_exception(&fixture("exception_conflict.xml")).unwrap();
    assert_eq!(c.ide_user.as_deref(), Some("TESTER"));
    assert_eq!(c.t100_no.as_deref(), Some("530"));
    assert_eq!(c.t100_vars, vec!["TESTER"]);
    assert!(c.conflict_text.unwrap().contains("global debugging scope"));
    let t = parse_exception(&fixture("exception_terminate.xml")).unwrap();
    assert_eq!(
        t.property("previous1SourcePositionSourceLine"),
        Some("15 "),
        "sign blank kept"
    );
    let csrf = fixture("csrf.txt");
    assert!(parse_exception(&csrf).is_none());
    assert_eq!(classify(403, true, None, &csrf), ErrorClass::Csrf);
    assert_eq!(classify(403, false, None, ""), ErrorClass::NotAuthorized);
    assert_eq!(
        classify(400, false, None, "Session timed out"),
        ErrorClass::SessionTimedOut
    );
}

#[test]
fn unit_run_result() {
    let r = codec::parse_unit_run_result(&fixture("aunit_result.xml")).unwrap();
    assert_eq!(r.programs.len(), 1);
    let p = &r.programs[0];
    assert_eq!(p.name, "ZCL_INVOICE_TOTALS");
    assert_eq!(p.object_type, "CLAS/OC");
    let c = &p.classes[0];
    assert_eq!(c.name, "LTCL_TOTALS");
    assert_eq!(c.line, Some(3));
    assert_eq!(
        (c.duration_category.as_str(), c.risk_level.as_str()),
        ("short", "harmless")
    );
    assert_eq!(c.methods.len(), 2);
    assert!(c.methods[0].passed());
    assert_eq!(c.methods[0].execution_seconds, Some(0.004));
    assert_eq!(c.methods[0].line, Some(12));
    let m = &c.methods[1];
    assert!(!m.passed());
    let a = &m.alerts[0];
    assert_eq!(
        (a.kind.as_str(), a.severity.as_str()),
        ("failedAssertion", "critical")
    );
    assert_eq!(a.details[0], "Expected [10] Actual [11]");
    assert!(a.details[1].contains("LTCL_TOTALS->ROUNDS_DOWN"));
    assert_eq!(a.stack[0].line, Some(21));
    assert!(a.stack[0].description.contains("CCAU"));
    assert!(!r.passed());
    assert_eq!(r.methods().count(), 2);
    let empty = codec::parse_unit_run_result(&fixture("aunit_empty.xml")).unwrap();
    assert!(empty.programs.is_empty() && empty.passed());
    let req = codec::unit_run_request("/sap/bc/adt/oo/classes/zcl_x#testclass=L;testmethod=M");
    assert!(req.contains("adtcore:objectReference adtcore:uri=\"/sap/bc/adt/oo/classes/zcl_x#testclass=L;testmethod=M\""));
}

#[test]
fn batch_request_is_crlf_framed() {
    let calls = vec![
        BatchCall::step(StepKind::Over),
        BatchCall::stack(),
        BatchCall::child_variables(&["@ROOT".into()]),
    ];
    let b = codec::batch_boundary(&calls, 42);
    let body = codec::batch_request(&b, &calls);
    assert!(body.starts_with(&format!("--{b}\r\nContent-Type: application/http\r\ncontent-transfer-encoding: binary\r\n\r\nPOST /sap/bc/adt/debugger?method=stepOver HTTP/1.1\r\nAccept:application/xml\r\n\r\n\r\n--{b}\r\n")), "{body}");
    assert!(body.contains(
        "POST /sap/bc/adt/debugger?emode=_&semanticURIs=true&method=getStack HTTP/1.1\r\n"
    ));
    assert!(body.contains("Content-Type:application/vnd.sap.as+xml; charset=UTF-8; dataname=com.sap.adt.debugger.ChildVariables\r\n"));
    assert!(body.ends_with(&format!("</asx:abap>\r\n--{b}--\r\n")));
    // No bare LF anywhere in the framing (bodies here have none either).
    assert!(!body.replace("\r\n", "").contains('\n'));
    // Header injection through a target is impossible.
    let evil = BatchCall::new("GET", "/x\r\nX-Evil: 1", "*/*");
    let body = codec::batch_request("b", &[evil]);
    assert!(!body.contains("\r\nX-Evil"));
}

#[test]
fn batch_boundary_avoids_bodies() {
    let first = codec::batch_boundary(&[], 7);
    let mut call = BatchCall::variables(&["X".into()]);
    call.body = Some(("text/plain".into(), format!("--{first}")));
    let b = codec::batch_boundary(&[call], 7);
    assert_ne!(b, first);
}

type BatchParts = Vec<Result<adt::BatchAnswer, codec::CodecError>>;

/// The parts of a batch answer `body`.
fn batch(content_type: &str, body: &str) -> Result<BatchParts, codec::CodecError> {
    codec::parse_batch_response(content_type, &std::sync::Arc::new(body.to_string()))
}

#[test]
fn batch_parts_are_ranges_of_the_one_answer() {
    let ct = fixture("batch_ok.content-type");
    let whole = std::sync::Arc::new(fixture("batch_ok.multipart"));
    let parts = codec::parse_batch_response(ct.trim(), &whole).unwrap();
    let span = whole.as_bytes().as_ptr_range();
    for part in &parts {
        let body = part.as_ref().unwrap().body.as_bytes().as_ptr_range();
        assert!(
            span.start <= body.start && body.end <= span.end,
            "a part's body is not a copy"
        );
    }
    // Bodies from elsewhere (the calls sent one by one) read the same way.
    let own = adt::PartBody::from("x".to_string());
    assert_eq!(own, "x");
    assert_eq!(format!("{own:?}"), "\"x\"");
}

#[test]
fn batch_answers() {
    let ct = fixture("batch_ok.content-type");
    let parts = batch(ct.trim(), &fixture("batch_ok.multipart")).unwrap();
    assert_eq!(parts.len(), 3);
    let step = parts[0].as_ref().unwrap();
    assert_eq!(step.status, 200);
    assert_eq!(step.content_type.as_deref(), Some("application/xml"));
    assert!(codec::parse_step_info(&step.body).is_ok());
    let stack = codec::parse_stack(&parts[1].as_ref().unwrap().body).unwrap();
    assert_eq!(stack.entries.len(), 4);
    let vars = codec::parse_child_variables(&parts[2].as_ref().unwrap().body).unwrap();
    assert_eq!(vars.variables[1].value, "B7    ");

    let ct = fixture("batch_ended.content-type");
    let parts = batch(ct.trim(), &fixture("batch_ended.multipart")).unwrap();
    assert_eq!(parts.len(), 3);
    let ended = parts[0].as_ref().unwrap();
    assert_eq!(ended.status, 500);
    let ex = parse_exception(&ended.body);
    assert_eq!(
        classify(500, false, ex.as_ref(), &ended.body),
        ErrorClass::DebuggeeEnded
    );
    assert_eq!(parts[1].as_ref().unwrap().status, 404);
    let empty = parts[2].as_ref().unwrap();
    assert_eq!((empty.status, empty.body.as_str()), (200, ""));
}

#[test]
fn batch_answers_tolerate_lf_and_missing_close() {
    let body = "--b\nContent-Type: application/http\n\nHTTP/1.1 200 OK\ncontent-type: text/plain\n\nhello\n--b\nContent-Type: application/http\n\nHTTP/1.1 204 No Content\n\n";
    let parts = batch("multipart/mixed;boundary=b", body).unwrap();
    assert_eq!(parts.len(), 2);
    assert_eq!(parts[0].as_ref().unwrap().body, "hello");
    assert_eq!(parts[1].as_ref().unwrap().status, 204);
    // A body line that merely starts like the boundary is not a delimiter.
    let body = "--b\r\n\r\nHTTP/1.1 200 OK\r\n\r\n--bx\r\n--b--\r\n";
    let parts = batch("multipart/mixed; boundary=b", body).unwrap();
    assert_eq!(parts[0].as_ref().unwrap().body, "--bx");
    // Garbage part: an error in its own slot.
    let body = "--b\r\n\r\nnot http\r\n--b\r\n\r\nHTTP/1.1 200 OK\r\n\r\nx\r\n--b--";
    let parts = batch("multipart/mixed; boundary=b", body).unwrap();
    assert!(parts[0].is_err());
    assert_eq!(parts[1].as_ref().unwrap().body, "x");
    assert!(batch("text/plain", body).is_err());
    assert!(batch("multipart/mixed; boundary=zz", body).is_err());
}

#[test]
fn dumps_feed_entries() {
    let entries = adt::dumps::parse_dumps_feed(&fixture("dumps_feed.xml")).unwrap();
    assert_eq!(entries.len(), 2);
    let e = &entries[0];
    assert_eq!(
        e.id, "20261128101500vhcalnplci_NPL_00%20%20%20DEVELOPER%20001%2001",
        "the id from the self link, as written"
    );
    assert_eq!(e.runtime_error, "COMPUTE_INT_ZERODIVIDE");
    assert_eq!(e.program, "ZCL_ORDER=====================CP");
    assert_eq!(e.user, "DEVELOPER");
    assert_eq!(e.time, "2026-11-28T10:15:00Z");
    assert_eq!(e.short_text, "Division by zero");
    // Translated labels: the order decides; no self link: the tail of atom:id.
    let e = &entries[1];
    assert_eq!(e.runtime_error, "ASSERTION_FAILED");
    assert_eq!(e.program, "ZREPORT");
    assert_eq!(
        e.id,
        "20261127090000vhcalnplci_NPL_00%20%20%20TESTER%20001%2007"
    );
    assert_eq!(adt::dumps::parse_dumps_feed("").unwrap(), vec![]);
    assert!(adt::dumps::parse_dumps_feed("<stack/>").is_err());
}

#[test]
fn dump_document_and_its_formatted_text() {
    let doc = adt::dumps::parse_dump(&fixture("dump.xml")).unwrap();
    assert_eq!(doc.runtime_error, "COMPUTE_INT_ZERODIVIDE");
    assert_eq!(doc.exception, "CX_SY_ZERODIVIDE");
    assert_eq!(doc.user, "DEVELOPER");
    assert_eq!(doc.time, "2026-11-28T10:15:00Z");
    assert_eq!(
        doc.termination(),
        Some((
            "/sap/bc/adt/oo/classes/zcl_order/source/main".to_string(),
            41
        ))
    );
    assert_eq!(doc.chapters.len(), 5);
    let f = adt::dumps::parse_formatted(&fixture("dump_formatted.txt"), &doc.chapters);
    assert_eq!(f.header("Except."), Some("CX_SY_ZERODIVIDE"));
    assert_eq!(f.short_text(), "Division by zero");
    let t = f.termination();
    assert_eq!(t.line, 3);
    assert_eq!(t.include, "ZCL_ORDER=====================CM002");
    assert_eq!(t.procedure, "DIVIDE");
    let calls = f.calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].name, "ZCL_ORDER=>DIVIDE");
    assert_eq!(calls[0].line, 3);
    assert_eq!(calls[1].include, "ZCL_ORDER=====================CM001");
    let vars = f.variables();
    assert_eq!(
        vars.iter()
            .map(|v| (v.frame.as_str(), v.name.as_str(), v.value.as_str()))
            .collect::<Vec<_>>(),
        vec![
            ("ZCL_ORDER=>DIVIDE", "IV_A", "10"),
            ("ZCL_ORDER=>DIVIDE", "IV_B", "0")
        ]
    );
    let source = f.source();
    assert_eq!(source.len(), 4);
    assert!(source[2].current && source[2].line == 3, "{source:?}");
    assert!(source[2].text.contains("iv_a / iv_b"));
    // Without the document's lines the boxes are found by their rules.
    let alone = adt::dumps::parse_formatted(&fixture("dump_formatted.txt"), &[]);
    assert_eq!(alone.short_text(), "Division by zero");
    assert_eq!(alone.calls().len(), 2);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

        /// A multipart answer built from arbitrary bodies reads back to the same bodies.
        #[test]
        fn batch_answers_round_trip(bodies in proptest::collection::vec("[ -~\r\n]{0,80}", 1..5), crlf in any::<bool>()) {
            let nl = if crlf { "\r\n" } else { "\n" };
            let boundary = "q_7f3e";
            let mut s = String::new();
            for (i, b) in bodies.iter().enumerate() {
                s.push_str(&format!("--{boundary}{nl}Content-Type: application/http{nl}{nl}HTTP/1.1 {} X{nl}content-length: {}{nl}{nl}{b}{nl}", 200 + i, b.len()));
            }
            s.push_str(&format!("--{boundary}--{nl}"));
            prop_assume!(!bodies.iter().any(|b| b.contains(boundary)));
            let parts = batch(&format!("multipart/mixed; boundary=\"{boundary}\""), &s).unwrap();
            prop_assert_eq!(parts.len(), bodies.len());
            for (i, (p, b)) in parts.iter().zip(&bodies).enumerate() {
                let p = p.as_ref().unwrap();
                prop_assert_eq!(p.status as usize, 200 + i);
                prop_assert_eq!(&p.body, b);
            }
        }

        /// The formatted-dump reader never panics on rows built from its own vocabulary
        /// (rules, fences, numbered and marked rows, frame headers), cut at any lines.
        #[test]
        fn formatted_dumps_never_panic(
            rows in proptest::collection::vec(prop_oneof![
                Just("-".repeat(20)), Just(String::new()), Just("|Short Text|".to_string()),
                Just("|>>>>>|  x = 1 / 0.".to_string()), Just("|  12|  y.".to_string()),
                Just("|2   METHOD  P  I  9|".to_string()), Just("|    ZCL=>M|".to_string()),
                Just("|Name  ZCL=>M|".to_string()), Just("|No. 1 Ty. METHOD|".to_string()),
                Just("|IV_A|".to_string()), Just("|    7|".to_string()),
                "[ -~|]{0,40}",
            ], 0..40),
            cuts in proptest::collection::vec(0u32..50, 0..6),
        ) {
            let text = rows.join("\n");
            let chapters: Vec<adt::dumps::DumpChapter> = cuts
                .iter()
                .map(|&line| adt::dumps::DumpChapter { line, ..Default::default() })
                .collect();
            let f = adt::dumps::parse_formatted(&text, &chapters);
            let _ = (f.short_text(), f.termination(), f.calls(), f.variables(), f.source());
        }

        /// Settings survive the request builder and the parser.
        #[test]
        fn settings_round_trip(bits in 0u8..64) {
            let s = DebuggerSettings {
                system_debugging: bits & 1 != 0,
                create_exception_object: bits & 2 != 0,
                background_rfc: bits & 4 != 0,
                shared_object_debugging: bits & 8 != 0,
                show_data_aging: bits & 16 != 0,
                update_debugging: bits & 32 != 0,
            };
            prop_assert_eq!(codec::parse_settings(&codec::settings_request(&s)).unwrap(), s);
        }

        /// Child-variable requests carry any id unchanged.
        #[test]
        fn parent_ids_survive(ids in proptest::collection::vec("[^\u{0}-\u{1f}]{1,30}", 1..4)) {
            let body = codec::child_variables_request(&ids);
            let back: Vec<String> = body
                .split("<PARENT_ID>")
                .skip(1)
                .filter_map(|s| s.split_once("</PARENT_ID>").map(|(v, _)| v.to_string()))
                .map(|v| v.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&amp;", "&"))
                .collect();
            prop_assert_eq!(back, ids);
        }
    }
}
