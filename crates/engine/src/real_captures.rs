//! Every debugger response in the captures of real systems (tests/cassettes/real, converted
//! by scripts/captures-to-cassettes.py) read by the ADT client's readers and turned into the
//! protocol values a client receives, and those values checked against what the capture
//! shows: a reader that only parses is not enough, it has to read the right thing.

use std::path::PathBuf;

use adt::cassette::{Cassette, Exchange};
use adt::{AdtError, ErrorClass};
use jsonl::results::{Frame, Variable};

use crate::breakpoints::{include_of, refusal_code};
use crate::commands::inspect::short_name_of;
use crate::commands::tables::cell_of;
use crate::table_json::Row;
use crate::{errors, to_proto};

/// What our client reads from one answer.
#[derive(Debug)]
enum Reading {
    Breakpoints(Vec<adt::BreakpointDetail>),
    Attach(adt::AttachInfo),
    Stack(Vec<Frame>),
    /// Parent → child edges (`getChildVariables`) and the variables.
    Variables(Vec<(String, String)>, Vec<Variable>),
    /// A refusal: its class, and the protocol error a command answers with.
    Refused(ErrorClass, jsonl::ErrorBody),
}

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/cassettes/real")
}

fn cassette(name: &str) -> Vec<Exchange> {
    let path = corpus().join(format!("{name}.jsonl"));
    Cassette::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .exchanges
}

fn query_method(e: &Exchange) -> &str {
    e.query
        .split('&')
        .find_map(|p| p.strip_prefix("method="))
        .unwrap_or_default()
}

/// Longer than any value in the captures: nothing is cut.
const NO_LIMIT: usize = 10_000;

/// The reader our client uses for this request, applied to its answer. Panics on a debugger
/// answer no reader takes: every one in the corpus must be read.
fn read(e: &Exchange) -> Reading {
    let body = String::from_utf8(e.response_body.bytes()).expect("a text body");
    if e.status >= 400 {
        let exception = adt::error::parse_exception(&body);
        let class = adt::error::classify(e.status, false, exception.as_ref(), &body);
        let err = AdtError::Server {
            operation: query_method(e).to_string(),
            status: e.status,
            class,
            exception: exception.map(Box::new),
            body: body.clone(),
        };
        return Reading::Refused(class, errors::from_adt(query_method(e), &err));
    }
    let method = query_method(e);
    let what = format!("{} {}?{}", e.method, e.path, e.query);
    if e.path.ends_with("/debugger/breakpoints") && e.method == "POST" {
        return Reading::Breakpoints(adt::codec::parse_breakpoints_detailed(&body).expect(&what));
    }
    if e.path.ends_with("/debugger/stack") || method == "getStack" {
        let stack = adt::codec::parse_stack(&body).expect(&what);
        let frames = stack
            .entries
            .iter()
            .enumerate()
            .map(|(i, s)| to_proto::frame(i, s))
            .collect();
        return Reading::Stack(frames);
    }
    match method {
        "attach" => Reading::Attach(adt::codec::parse_attach(&body).expect(&what)),
        "getChildVariables" => {
            let c = adt::codec::parse_child_variables(&body).expect(&what);
            let edges = c
                .hierarchies
                .iter()
                .map(|h| (h.parent_id.to_string(), h.child_id.to_string()))
                .collect();
            let vars = c
                .variables
                .iter()
                .map(|v| to_proto::variable(v, "", NO_LIMIT))
                .collect();
            Reading::Variables(edges, vars)
        }
        "getVariables" => {
            let vars = adt::codec::parse_variables(&body)
                .expect(&what)
                .iter()
                .map(|v| to_proto::variable(v, "", NO_LIMIT))
                .collect();
            Reading::Variables(Vec::new(), vars)
        }
        _ => panic!("no reader for {what}: every debugger answer of the corpus must be read"),
    }
}

fn readings(name: &str) -> Vec<Reading> {
    cassette(name).iter().map(read).collect()
}

fn variable<'a>(vars: &'a [Variable], id: &str) -> &'a Variable {
    vars.iter()
        .find(|v| v.id == id)
        .unwrap_or_else(|| panic!("{id} in {vars:#?}"))
}

/// A4H: attach, a report's stack, `@GLOBALS` with every kind of value, char and packed
/// formatting, variables that do not exist, terminate.
#[test]
fn an_a4h_stop_reads_as_the_system_showed_it() {
    let r = readings("a4h-stop-vars-terminate");
    assert_eq!(r.len(), 6, "{r:#?}");

    let Reading::Attach(attach) = &r[0] else {
        panic!("attach: {:?}", r[0])
    };
    let reached =
        "KIND=0.SOURCETYPE=ABAP.MAIN_PROGRAM=ZMCP_DBG_DEMO.INCLUDE=ZMCP_DBG_DEMO.LINE_NR=84";
    assert_eq!(attach.reached_breakpoints, vec![reached.to_string()]);
    assert!(attach.is_stepping_possible && attach.is_termination_possible);
    assert_eq!(attach.server_name, "a4hsandbox_A4H_00");
    assert_eq!(include_of(reached), Some(("ZMCP_DBG_DEMO".to_string(), 84)));

    let Reading::Stack(frames) = &r[1] else {
        panic!("stack: {:?}", r[1])
    };
    assert_eq!(frames.len(), 1, "{frames:#?}");
    let f = &frames[0];
    assert_eq!(
        (f.object.as_str(), f.object_type.as_str(), f.file.as_deref()),
        ("ZMCP_DBG_DEMO", "PROG", Some("zmcp_dbg_demo.prog.abap"))
    );
    assert_eq!(
        (f.event_type.as_str(), f.method.as_str(), f.line),
        ("EVENT", "START-OF-SELECTION", 84)
    );
    assert_eq!((f.program.as_str(), f.system), ("ZMCP_DBG_DEMO", false));

    let Reading::Variables(edges, globals) = &r[2] else {
        panic!("@GLOBALS: {:?}", r[2])
    };
    assert_eq!(globals.len(), 11, "{globals:#?}");
    assert_eq!(edges.len(), 11);
    assert!(
        edges.iter().all(|(parent, _)| parent == "@GLOBALS"),
        "{edges:?}"
    );
    // A table: its row count from TABLE_LINES, expandable; an empty one says so.
    let items = variable(globals, "LT_ITEMS");
    assert_eq!(
        (items.meta.as_str(), items.rows, items.expandable),
        ("table", 15, true)
    );
    assert_eq!(items.value, "[15x7(136)]Standard Table");
    let empty = variable(globals, "LT_CAT_TOTALS");
    assert_eq!(
        (empty.rows, empty.value.as_str()),
        (0, "[0x3(32)]Initial Standard Table")
    );
    // A structure: expandable, its length in bytes.
    let item = variable(globals, "LS_ITEM");
    assert_eq!(
        (item.meta.as_str(), item.length, item.expandable),
        ("structure", 136, true)
    );
    assert_eq!(item.declared_type, "ZMCP_DBG_ITEM");
    // Packed and integer: the sign column goes from `value`, `raw` keeps it.
    let total = variable(globals, "LV_GRAND_TOTAL");
    assert_eq!(
        (
            total.technical_type.as_str(),
            total.value.as_str(),
            total.raw.as_deref()
        ),
        ("P", "0.00", Some("0.00 "))
    );
    assert_eq!(variable(globals, "LV_AVERAGE").value, "0.0000");
    let counter = variable(globals, "LV_COUNTER");
    assert_eq!((counter.value.as_str(), counter.length), ("0", 4));
    // An initial char field: its blanks, all ten.
    let category = variable(globals, "LV_TOP_CATEGORY");
    assert_eq!(
        (category.value.as_str(), category.length),
        ("          ", 10)
    );

    let Reading::Variables(_, values) = &r[3] else {
        panic!("getVariables: {:?}", r[3])
    };
    assert_eq!(values.len(), 10, "{values:#?}");
    // Char cells padded to their length, as the system sent them.
    assert_eq!(variable(values, "LT_ITEMS[1]-ITEM_ID").value, "A001      ");
    assert_eq!(
        variable(values, "LT_ITEMS[1]-MATERIAL").value,
        format!("{:<30}", "Laptop Sleeve")
    );
    assert_eq!(variable(values, "LT_ITEMS[1]-CATEGORY").value, "ACCESSORY ");
    let price = variable(values, "LT_ITEMS[1]-UNIT_PRICE");
    assert_eq!(
        (price.value.as_str(), price.raw.as_deref(), price.length),
        ("12.50", Some("12.50 "), 5)
    );
    assert_eq!(variable(values, "LS_ITEM-MATERIAL").value, " ".repeat(30));

    // Four asked for, two of them unknown to the program: the answer leaves those out.
    let Reading::Variables(_, known) = &r[4] else {
        panic!("getVariables: {:?}", r[4])
    };
    let ids: Vec<&str> = known.iter().map(|v| v.id.as_str()).collect();
    assert_eq!(ids, ["LV_GRAND_TOTAL", "LT_ITEMS[1]-UNIT_PRICE"]);

    // terminateDebuggee's 500 is how the system says it worked: the client's terminate
    // takes this class as success, and a later request finds the program gone.
    let Reading::Refused(class, error) = &r[5] else {
        panic!("terminate: {:?}", r[5])
    };
    assert_eq!(*class, ErrorClass::Terminated);
    assert_eq!(error.code, "state.debuggee_ended", "{error:?}");
}

/// A4H's refusals: a breakpoint on a comment line (refused inside a 200), a row past the end
/// and a variable that does not exist (empty 200 answers), another IDE's listener (409).
#[test]
fn a4h_refusals_read_with_their_reasons() {
    let exchanges = cassette("a4h-refusals");
    let r: Vec<Reading> = exchanges.iter().map(read).collect();
    assert_eq!(r.len(), 4, "{r:#?}");

    let Reading::Breakpoints(bps) = &r[0] else {
        panic!("breakpoints: {:?}", r[0])
    };
    assert_eq!(bps.len(), 1, "{bps:#?}");
    assert_eq!(
        (bps[0].client_id.as_str(), bps[0].id.as_deref()),
        ("bp82", None)
    );
    let reason = bps[0].error_message.as_deref().unwrap_or_default();
    assert_eq!(reason, "Cannot create a breakpoint at this position");
    assert_eq!(refusal_code(reason), "breakpoint.not_executable");

    // Row 99 of a 15-row table, and a name the program does not have: zero-byte answers,
    // read as no variable at all.
    for (i, asked) in [(1, "LT_ITEMS[99]-ITEM_ID"), (2, "ZZ_NO_SUCH_VARIABLE")] {
        assert_eq!(exchanges[i].response_body.bytes().len(), 0, "{asked}");
        let Reading::Variables(edges, vars) = &r[i] else {
            panic!("{asked}: {:?}", r[i])
        };
        assert!(edges.is_empty() && vars.is_empty(), "{asked}: {vars:#?}");
    }

    // The listener of another session of the same user: 409, who holds it and the
    // system's words, as the listener.conflict event carries them.
    let Reading::Refused(class, error) = &r[3] else {
        panic!("listen: {:?}", r[3])
    };
    assert_eq!(*class, ErrorClass::ListenerConflict);
    assert_eq!(error.code, "conflict.listener", "{error:?}");
    let body = String::from_utf8(exchanges[3].response_body.bytes()).expect("text");
    let ex = adt::error::parse_exception(&body).expect("an exception document");
    assert_eq!(ex.ide_user.as_deref(), Some("DEVELOPER"));
    assert_eq!(
        ex.conflict_text.as_deref(),
        Some("Another session already exists with global debugging scope for user DEVELOPER")
    );
    assert_eq!(ex.subtype.as_deref(), Some("conflictDetected"));
}

/// S/4HANA 2023 (758): a refusal listed before the accepted breakpoint, an exception
/// breakpoint, a stack of 13 ABAP frames and a dynpro, the end of the program, no session.
#[test]
fn an_s4h_758_session_reads_as_the_system_showed_it() {
    let exchanges = cassette("s4h758-breakpoints-stack-end");
    let r: Vec<Reading> = exchanges.iter().map(read).collect();
    assert_eq!(r.len(), 6, "{r:#?}");

    let Reading::Breakpoints(bps) = &r[0] else {
        panic!("breakpoints: {:?}", r[0])
    };
    assert_eq!(bps.len(), 2, "{bps:#?}");
    let refused = &bps[0];
    let reason = refused.error_message.as_deref().unwrap_or_default();
    assert_eq!(reason, "Cannot create a breakpoint at this position");
    assert_eq!(
        (refused.id.as_deref(), refused.kind.as_str()),
        (None, "line")
    );
    assert_eq!(refusal_code(reason), "breakpoint.not_executable");
    let set = &bps[1];
    assert_eq!(set.error_message, None);
    let id = set.id.as_deref().unwrap_or_default();
    assert_eq!(
        include_of(id),
        Some(("ZCL_CV_DBG_MEASURE============CM002".to_string(), 9))
    );
    assert_eq!(set.condition.as_deref(), Some("LV_MARKER = 'CVDBG-7Q4'"));
    assert_eq!(set.object_name.as_deref(), Some("ZCL_CV_DBG_MEASURE"));
    assert_eq!(
        set.uri.as_deref(),
        Some("/sap/bc/adt/oo/classes/zcl_cv_dbg_measure/source/main#start=32")
    );

    // An exception class the system does not know is still accepted.
    let Reading::Breakpoints(exc) = &r[1] else {
        panic!("exception breakpoint: {:?}", r[1])
    };
    assert_eq!(exc.len(), 1);
    assert_eq!(
        (
            exc[0].kind.as_str(),
            exc[0].id.as_deref(),
            exc[0].error_message.as_deref()
        ),
        (
            "exception",
            Some("KIND=5.EXCEPTION_CLASS=ZCX_DOES_NOT_EXIST_7Q4"),
            None
        )
    );

    // Rows 1, 2 and 120 of a table in one getChildVariables: a table page's rows and
    // columns as the `table` command builds them from it.
    let Reading::Variables(edges, _) = &r[2] else {
        panic!("rows: {:?}", r[2])
    };
    let body = String::from_utf8(exchanges[2].response_body.bytes()).expect("text");
    let kids = adt::codec::parse_child_variables(&body).expect("rows");
    let rows: Vec<Row> = ["LT_ROWS[1]", "LT_ROWS[2]", "LT_ROWS[120]"]
        .iter()
        .map(|row| Row {
            index: 0,
            id: row.to_string(),
            cells: edges
                .iter()
                .filter(|(parent, _)| parent == row)
                .filter_map(|(_, child)| kids.variables.iter().find(|v| v.id == child))
                .map(|v| cell_of(short_name_of(&v.id), v))
                .collect(),
        })
        .collect();
    let columns: Vec<(String, String)> = to_proto::columns(&rows)
        .into_iter()
        .map(|c| (c.name, c.technical_type))
        .collect();
    assert_eq!(
        columns,
        [("ID".into(), "I".into()), ("NAME".into(), "CString".into())]
    );
    let cells: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| r.cells.iter().map(|c| c.value.as_str()).collect())
        .collect();
    assert_eq!(cells, [["1", "row 1"], ["2", "row 2"], ["120", "row 120"]]);

    let Reading::Stack(frames) = &r[3] else {
        panic!("stack: {:?}", r[3])
    };
    assert_eq!(frames.len(), 14, "{frames:#?}");
    let top = &frames[0];
    assert_eq!(
        (
            top.object.as_str(),
            top.object_type.as_str(),
            top.method.as_str(),
            top.line
        ),
        ("ZCL_CV_DBG_MEASURE", "CLAS", "DOUBLE", 38)
    );
    assert_eq!(top.include, "ZCL_CV_DBG_MEASURE============CM001");
    assert_eq!(top.file.as_deref(), Some("zcl_cv_dbg_measure.clas.abap"));
    assert_eq!(
        (frames[1].method.as_str(), frames[1].line),
        ("IF_OO_ADT_CLASSRUN~MAIN", 32)
    );
    // A method of a system class, its URI naming the method: object and line from it.
    let classrun = &frames[2];
    assert_eq!(
        (
            classrun.object.as_str(),
            classrun.method.as_str(),
            classrun.line
        ),
        ("CL_OO_ADT_RES_CLASSRUN", "EXECUTE_CLAS", 105)
    );
    let server = &frames[10];
    assert_eq!(
        (server.object.as_str(), server.system),
        ("CL_HTTP_SERVER", true)
    );
    // A function module.
    let function = &frames[11];
    assert_eq!(
        (
            function.event_type.as_str(),
            function.method.as_str(),
            function.line
        ),
        ("FUNCTION", "HTTP_DISPATCH_REQUEST", 1627)
    );
    assert_eq!(function.program, "SAPLHTTP_RUNTIME");
    // The module of the program the dynpro belongs to.
    let module = &frames[12];
    assert_eq!(
        (module.object.as_str(), module.object_type.as_str()),
        ("SAPMHTTP", "PROG")
    );
    assert_eq!(
        (
            module.event_type.as_str(),
            module.method.as_str(),
            module.line
        ),
        ("MODULE (PBO)", "%_HTTP_START", 12)
    );
    // The dynpro frame (a VIT URI, no source): its program names it.
    let dynpro = &frames[13];
    assert_eq!(
        (dynpro.object.as_str(), dynpro.program.as_str()),
        ("SAPMHTTP", "SAPMHTTP")
    );
    assert_eq!(
        (
            dynpro.event_type.as_str(),
            dynpro.method.as_str(),
            dynpro.line
        ),
        ("PBO SCREEN", "0010", 2)
    );
    assert_eq!(dynpro.include, "0010");

    // stepContinue ran the program to its end: 500 debuggeeEnded, an end and not a failure.
    let Reading::Refused(class, error) = &r[4] else {
        panic!("stepContinue: {:?}", r[4])
    };
    assert_eq!(*class, ErrorClass::DebuggeeEnded);
    assert_eq!(error.code, "state.debuggee_ended");

    // A step on a session without a program: 400 noSessionAttached.
    let Reading::Refused(class, error) = &r[5] else {
        panic!("stepContinue without a program: {:?}", r[5])
    };
    assert_eq!(*class, ErrorClass::NoSessionAttached);
    assert_eq!(error.code, "state.session_lost");
    let adt = error.adt.as_ref().expect("error.adt");
    assert_eq!(adt["http_status"], 400);
    assert_eq!(adt["exception"]["subtype"], "noSessionAttached");
    assert_eq!(adt["exception"]["t100"]["id"], "SADT_REST");
}
