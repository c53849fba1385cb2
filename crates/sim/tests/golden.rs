//! Golden tests of the debugger view: for representative stops in the samples folder, the
//! `dbg:stack` entries and the `STPDA_ADT_VARIABLE` records are pinned against files under
//! `tests/golden/`. The golden files are written by hand after adt-wire.md §8.2 and §9.4
//! (trailing sign column, padded `C`, BCD `P` in `HEX_VALUE`, UTF-16LE text); they are never
//! regenerated from the simulator's output. `GOLDEN_PRINT=1` prints what the simulator shows
//! next to a failing comparison.
//!
//! Golden file format: one line per stack entry and per variable record, `key=[value]` pairs
//! separated by blanks (brackets keep trailing blanks visible).

use crate::common;

use std::path::PathBuf;
use std::time::Duration;

use common::{Resp, Session, attribute, element, session};

const ORDER_URI: &str = "/sap/bc/adt/oo/classes/zcl_smp_order/source/main";
const FORMS_URI: &str = "/sap/bc/adt/programs/programs/zsmp_forms/source/main";
const VIEW_URI: &str = "/sap/bc/adt/oo/classes/zcl_smp_debug_view/source/main";

const STACK_KEYS: &[&str] = &[
    "programName",
    "includeName",
    "line",
    "eventType",
    "eventName",
    "adtcore:uri",
];
const VARIABLE_KEYS: &[&str] = &[
    "ID",
    "NAME",
    "DECLARED_TYPE_NAME",
    "META_TYPE",
    "VALUE",
    "HEX_VALUE",
    "TECHNICAL_TYPE",
    "LENGTH",
];

fn golden(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("golden file {} unreadable: {e}", path.display()))
}

fn breakpoints(uri: &str, line: u32) -> String {
    common::breakpoints_body(&common::line_breakpoint(&format!("g{line}"), uri, line))
}

/// A simulator over the samples folder, stopped at `uri`/`line` after `trigger` (a POST) and
/// attached: the simulator, the debug session and the running trigger.
async fn stopped_at(
    uri: &str,
    line: u32,
    trigger: &str,
) -> (sim::SimHandle, Session, tokio::task::JoinHandle<Resp>) {
    let sim = common::samples_sim().await;
    let base = sim.base_url();
    let l = session(&base, false).await;
    let r = l
        .post_xml(
            "/sap/bc/adt/debugger/breakpoints",
            "application/xml",
            breakpoints(uri, line),
        )
        .await;
    assert_eq!(r.status, 200, "setting the breakpoint: {r:?}");
    assert!(
        !r.body.contains("errorMessage"),
        "breakpoint at {uri}#{line} refused: {r:?}"
    );
    let (d, run) = common::catch_and_attach(&base, &l, trigger).await;
    (sim, d, run)
}

/// Continue past every further hit of the breakpoint until the program ends (adt-wire.md
/// §7.3: the last continue answers 500 `debuggeeEnded`), then the trigger's answer.
async fn finish(sim: sim::SimHandle, d: &Session, run: tokio::task::JoinHandle<Resp>) {
    let mut ended = false;
    for _ in 0..10 {
        let r = d.step("stepContinue").await;
        if common::subtype(&r.body).as_deref() == Some("debuggeeEnded") {
            ended = true;
            break;
        }
        assert_eq!(r.status, 200, "continue: {r:?}");
    }
    assert!(ended, "the program did not end after ten continues");
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the trigger answers within 20 s")
        .expect("trigger task joins");
    assert_eq!(out.status, 200, "trigger: {out:?}");
    sim.shutdown().await;
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The pinned attributes of every `stackEntry`, one line each.
fn stack_lines(xml: &str) -> String {
    let mut out = String::new();
    for (at, _) in xml.match_indices("<stackEntry ") {
        let entry = &xml[at..];
        let entry = &entry[..entry.find("/>").unwrap_or(entry.len())];
        let fields: Vec<String> = STACK_KEYS
            .iter()
            .map(|k| {
                let v = attribute(entry, k)
                    .map(|v| unescape(&v))
                    .unwrap_or_default();
                format!("{k}=[{v}]")
            })
            .collect();
        out.push_str(&fields.join(" "));
        out.push('\n');
    }
    out
}

fn record_line(record: &str) -> String {
    let fields: Vec<String> = VARIABLE_KEYS
        .iter()
        .map(|k| {
            let empty = format!("<{k}/>");
            let v = if record.contains(&empty) {
                String::new()
            } else {
                element(record, k).map(|v| unescape(&v)).unwrap_or_default()
            };
            format!("{k}=[{v}]")
        })
        .collect();
    fields.join(" ")
}

/// The pinned elements of the records with these ids (in this order), one line each; an id
/// the simulator does not answer gives a line saying so.
fn variable_lines(xml: &str, ids: &[&str]) -> String {
    let mut out = String::new();
    for id in ids {
        match common::record(xml, id) {
            Some(r) => out.push_str(&record_line(r)),
            None => out.push_str(&format!("ID={id} missing")),
        }
        out.push('\n');
    }
    out
}

/// Every record of a `getChildVariables` answer, one line each.
fn all_records(xml: &str) -> String {
    let mut out = String::new();
    let mut rest = xml;
    while let Some(start) = rest.find("<STPDA_ADT_VARIABLE>") {
        let tail = &rest[start..];
        let end = tail.find("</STPDA_ADT_VARIABLE>").unwrap_or(tail.len());
        out.push_str(&record_line(&tail[..end]));
        out.push('\n');
        rest = &tail[end..];
    }
    out
}

/// Stack, chosen variables and the children of chosen parents at the current stop.
async fn view(d: &Session, ids: &[&str], parents: &[&str]) -> String {
    let r = d.stack().await;
    assert_eq!(r.status, 200, "stack: {r:?}");
    let mut out = String::from("[stack]\n");
    out.push_str(&stack_lines(&r.body));
    out.push_str("[variables]\n");
    let r = d.variables(ids).await;
    assert_eq!(r.status, 200, "getVariables: {r:?}");
    out.push_str(&variable_lines(&r.body, ids));
    for parent in parents {
        let r = d.children(&[parent]).await;
        assert_eq!(r.status, 200, "getChildVariables {parent}: {r:?}");
        out.push_str(&format!("[children {parent}]\n"));
        out.push_str(&all_records(&r.body));
    }
    out
}

fn compare(name: &str, actual: &str) {
    let expected = golden(name);
    if std::env::var_os("GOLDEN_PRINT").is_some() {
        println!("--- {name} as the simulator shows it\n{actual}---");
    }
    let diff: Vec<String> = expected
        .lines()
        .zip(actual.lines())
        .filter(|(e, a)| e != a)
        .map(|(e, a)| format!("  golden: {e}\n  actual: {a}"))
        .collect();
    assert!(
        expected == actual,
        "{name}: the debugger view differs from the golden file ({} vs {} lines)\n{}\n--- full actual\n{actual}",
        expected.lines().count(),
        actual.lines().count(),
        diff.join("\n")
    );
}

/// The stop inside a method with i, p, c and string parameters and locals, with the caller's
/// frame below it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn method_with_i_p_c_string_parameters_and_locals() {
    let (sim, d, run) = stopped_at(ORDER_URI, 55, "/sap/bc/adt/oo/classrun/ZCL_SMP_ORDER").await;
    let actual = view(
        &d,
        &[
            "IV_QUANTITY",
            "IV_PRICE",
            "IV_CODE",
            "IV_TEXT",
            "LV_DELTA",
            "LV_LABEL",
            "LV_NOTE",
            "RV_AMOUNT",
        ],
        &[],
    )
    .await;
    compare("method_parameters_and_locals.txt", &actual);
    finish(sim, &d, run).await;
}

/// A negative integer (sign column at the end, two's complement little-endian hex).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn negative_number() {
    let (sim, d, run) = stopped_at(ORDER_URI, 52, "/sap/bc/adt/oo/classrun/ZCL_SMP_ORDER").await;
    // First hit: 3 pieces (delta 7); second hit: 12 pieces (delta -2).
    let r = d.step("stepContinue").await;
    assert_eq!(r.status, 200, "continue to the second hit: {r:?}");
    let actual = view(&d, &["IV_QUANTITY", "LV_DELTA"], &[]).await;
    compare("negative_number.txt", &actual);
    finish(sim, &d, run).await;
}

/// The object reference ME and its attributes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn object_reference_me() {
    let (sim, d, run) = stopped_at(ORDER_URI, 56, "/sap/bc/adt/oo/classrun/ZCL_SMP_ORDER").await;
    let actual = view(&d, &["ME"], &["ME"]).await;
    compare("object_reference_me.txt", &actual);
    finish(sim, &d, run).await;
}

/// Attributes addressed by path through `getVariables` (adt-wire.md §9.2: `ME->MV_NAME`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn me_attribute_paths() {
    let (sim, d, run) = stopped_at(ORDER_URI, 56, "/sap/bc/adt/oo/classrun/ZCL_SMP_ORDER").await;
    let actual = view(&d, &["ME->MV_CUSTOMER", "ME->MV_LINES"], &[]).await;
    compare("me_attribute_paths.txt", &actual);
    finish(sim, &d, run).await;
}

/// A FORM in a report: `FORM` frame above the `START-OF-SELECTION` event frame.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn report_form() {
    let (sim, d, run) = stopped_at(FORMS_URI, 17, "/sap/bc/adt/abapdbg/reportrun/ZSMP_FORMS").await;
    let actual = view(&d, &["IV_VALUE", "CV_SUM", "GV_TOTAL", "GV_TEXT"], &[]).await;
    compare("report_form.txt", &actual);
    finish(sim, &d, run).await;
}

/// At ENDFORM after `cv_sum = cv_sum + iv_value`: a FORM's CHANGING parameter without
/// VALUE( ) is passed by reference, so the global it is bound to has changed too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn report_form_changing_by_reference() {
    let (sim, d, run) = stopped_at(FORMS_URI, 18, "/sap/bc/adt/abapdbg/reportrun/ZSMP_FORMS").await;
    let actual = view(&d, &["IV_VALUE", "CV_SUM", "GV_TOTAL"], &[]).await;
    compare("report_form_endform.txt", &actual);
    finish(sim, &d, run).await;
}

/// The caught exception object in the CATCH block.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn caught_exception_object() {
    let (sim, d, run) = stopped_at(ORDER_URI, 40, "/sap/bc/adt/oo/classrun/ZCL_SMP_ORDER").await;
    let actual = view(&d, &["LX_ERROR", "LV_AMOUNT"], &[]).await;
    compare("caught_exception.txt", &actual);
    finish(sim, &d, run).await;
}

const DATA_REFS_URI: &str = "/sap/bc/adt/oo/classes/zcl_smp_data_refs/source/main";
const FIELD_SYMBOLS_URI: &str = "/sap/bc/adt/oo/classes/zcl_smp_field_symbols/source/main";

/// Data references (META_TYPE `dataref`, `{A:n*\TYPE=…}` for anonymous data objects, the
/// target through `REF->*` and `REF->COMP`) and a field symbol assigned to an anonymous
/// structure. adt-wire.md §9.4 has no capture of a data reference's VALUE; the `{A:…}` form is
/// the one SAP's debugger and short dumps use for anonymous data objects.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn data_references() {
    let (sim, d, run) = stopped_at(
        DATA_REFS_URI,
        57,
        "/sap/bc/adt/oo/classrun/ZCL_SMP_DATA_REFS",
    )
    .await;
    let actual = view(
        &d,
        &[
            "LR_COUNT",
            "LR_COUNT->*",
            "LR_TEXT",
            "LR_TEXT->*",
            "LR_DATA",
            "LR_TYPED->OWNER",
            "<LS_ACCOUNT>-BALANCE",
        ],
        &["LR_COUNT", "LR_TYPED->*"],
    )
    .await;
    compare("data_references.txt", &actual);
    finish(sim, &d, run).await;
}

/// Field symbols show the data object they are assigned to (a row of a table, a component,
/// an attribute); an unknown one is not answered; `getChildVariables` of a field symbol
/// assigned to a structure gives its components. (The records of deep structures are left
/// out: their LENGTH follows the shared layout rule, not this area.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn field_symbols() {
    let (sim, d, run) = stopped_at(
        FIELD_SYMBOLS_URI,
        65,
        "/sap/bc/adt/oo/classrun/ZCL_SMP_FIELD_SYMBOLS",
    )
    .await;
    let actual = view(
        &d,
        &["<LV_INT>", "<LV_ANY>", "<LS_SECOND>-NAME", "<LV_UNKNOWN>"],
        &["<LS_SECOND>"],
    )
    .await;
    compare("field_symbols.txt", &actual);
    finish(sim, &d, run).await;
}

/// A flat structure, a table with its rows and an empty one, a static attribute and an object
/// whose attributes come from its class and its superclass (adt-wire.md §9.4–§9.6).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn structures_tables_statics_and_inherited_attributes() {
    let (sim, d, run) =
        stopped_at(VIEW_URI, 39, "/sap/bc/adt/oo/classrun/ZCL_SMP_DEBUG_VIEW").await;
    let actual = view(
        &d,
        &[
            "LS_ITEM",
            "LT_ITEMS",
            "LT_EMPTY",
            "LT_ITEMS[2]",
            "LT_ITEMS[1]-QTY",
            "ZCL_SMP_DEBUG_VIEW=>GV_RUNS",
            "LO_ANIMAL",
        ],
        &["LT_ITEMS[2]", "LO_ANIMAL"],
    )
    .await;
    compare("debug_view_structures_tables_objects.txt", &actual);

    // Who declares each attribute (§9.3): the superclass one level up for the inherited ones,
    // and the private one is addressed through that class and can be read by its id.
    let r = d.children(&["LO_ANIMAL"]).await;
    let program = "ZCL_SMP_DEBUG_VIEW============CP";
    let expected = [
        (
            format!("{{O:3*\\PROGRAM={program}\\CLASS=LCL_DOG}}-MV_NAME"),
            "protected",
            "1",
            "LCL_ANIMAL",
        ),
        (
            format!("{{O:3!\\PROGRAM={program}\\CLASS=LCL_ANIMAL}}-MV_LEGS"),
            "private",
            "1",
            "LCL_ANIMAL",
        ),
        (
            format!("{{O:3*\\PROGRAM={program}\\CLASS=LCL_DOG}}-MV_GOOD"),
            "public",
            "-1",
            "",
        ),
    ];
    for (id, access, level, class) in &expected {
        let record = common::record(&r.body, id).unwrap_or_else(|| panic!("{id} missing: {r:?}"));
        let field = |k: &str| {
            if record.contains(&format!("<{k}/>")) {
                String::new()
            } else {
                element(record, k).unwrap_or_default()
            }
        };
        assert_eq!(field("ACCESS_KIND"), *access, "{id}");
        assert_eq!(field("INSTANTIATION_KIND"), "instance", "{id}");
        assert_eq!(field("INHERITANCE_LEVEL"), *level, "{id}");
        assert_eq!(field("INHERITANCE_CLASS"), *class, "{id}");
    }
    let legs = &expected[1].0;
    let r = d.variables(&[legs.as_str()]).await;
    let record = common::record(&r.body, legs).unwrap_or_else(|| panic!("{legs}: {r:?}"));
    assert_eq!(element(record, "VALUE").as_deref(), Some("4 "), "{record}");
    finish(sim, &d, run).await;
}

const DATES_URI: &str = "/sap/bc/adt/oo/classes/zcl_smp_dates/source/main";
const NUMC_HEX_URI: &str = "/sap/bc/adt/oo/classes/zcl_smp_numc_hex/source/main";
const FLOAT_INT8_URI: &str = "/sap/bc/adt/oo/classes/zcl_smp_float_int8/source/main";

/// Date parameters and a date result (type `d`: the raw `YYYYMMDD` digits, UTF-16LE hex,
/// length 8) at the `ENDMETHOD` of a method that adds days.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn date_parameters() {
    let (sim, d, run) = stopped_at(DATES_URI, 57, "/sap/bc/adt/oo/classrun/ZCL_SMP_DATES").await;
    let actual = view(&d, &["IV_DATE", "IV_DAYS", "RV_DATE"], &[]).await;
    compare("date_parameters.txt", &actual);
    finish(sim, &d, run).await;
}

/// Numeric text `n` (digits, UTF-16LE), bytes `x` and `xstring` (hex in VALUE and
/// HEX_VALUE, length in bytes, `xstring` shown like a string).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn numc_and_bytes() {
    let (sim, d, run) =
        stopped_at(NUMC_HEX_URI, 48, "/sap/bc/adt/oo/classrun/ZCL_SMP_NUMC_HEX").await;
    let actual = view(
        &d,
        &[
            "LV_MATNR", "LV_COUNT", "LV_FLAGS", "LV_INT", "LV_BYTES", "LV_TEXT",
        ],
        &[],
    )
    .await;
    compare("numc_and_bytes.txt", &actual);
    finish(sim, &d, run).await;
}

/// `int8` (sign column, 8 bytes little-endian) and `f` (conversion to string: scientific
/// notation with 17 digits; IEEE double little-endian). The `decfloat34` local of the sample
/// is left out: its HEX_VALUE (the IEEE 754 decimal encoding) is not modelled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn int8_and_float() {
    let (sim, d, run) = stopped_at(
        FLOAT_INT8_URI,
        47,
        "/sap/bc/adt/oo/classrun/ZCL_SMP_FLOAT_INT8",
    )
    .await;
    let actual = view(&d, &["LV_BIG", "LV_INT", "LV_FLOAT", "LV_AMOUNT"], &[]).await;
    compare("int8_and_float.txt", &actual);
    finish(sim, &d, run).await;
}

/// `setVariableValue` through a field symbol and a dereferenced data reference changes the
/// data object behind them (adt-wire.md §9.7: the answer is the stored value).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_value_through_field_symbols_and_references() {
    let (sim, d, run) = stopped_at(
        FIELD_SYMBOLS_URI,
        65,
        "/sap/bc/adt/oo/classrun/ZCL_SMP_FIELD_SYMBOLS",
    )
    .await;
    let r = d
        .raw(
            reqwest::Method::POST,
            "/sap/bc/adt/debugger?method=setVariableValue&variableName=%3CLV_INT%3E",
            &[],
            Some(("text/plain", "7".to_string())),
            true,
        )
        .await;
    assert_eq!((r.status, r.body.as_str()), (200, "7 "), "{r:?}");
    let r = d.variables(&["ME->MV_CALLS"]).await;
    assert!(
        common::record(&r.body, "ME->MV_CALLS")
            .is_some_and(|rec| rec.contains("<VALUE>7 </VALUE>")),
        "{r:?}"
    );
    finish(sim, &d, run).await;

    let (sim, d, run) = stopped_at(
        DATA_REFS_URI,
        57,
        "/sap/bc/adt/oo/classrun/ZCL_SMP_DATA_REFS",
    )
    .await;
    let r = d
        .raw(
            reqwest::Method::POST,
            "/sap/bc/adt/debugger?method=setVariableValue&variableName=LR_COUNT-%3E*",
            &[],
            Some(("text/plain", "99".to_string())),
            true,
        )
        .await;
    assert_eq!((r.status, r.body.as_str()), (200, "99 "), "{r:?}");
    let r = d
        .raw(
            reqwest::Method::POST,
            "/sap/bc/adt/debugger?method=setVariableValue&variableName=LR_COUNT",
            &[],
            Some(("text/plain", "1".to_string())),
            true,
        )
        .await;
    assert_eq!(r.status, 400, "a reference itself cannot be set: {r:?}");
    finish(sim, &d, run).await;
}

/// `setVariableValue` on a date and an integer parameter converts the typed text with move
/// semantics (a date takes the text as `YYYYMMDD`; the answer is the stored value) and the
/// program goes on with the new values.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_value_of_a_date() {
    let (sim, d, run) = stopped_at(DATES_URI, 56, "/sap/bc/adt/oo/classrun/ZCL_SMP_DATES").await;
    for (name, text, stored) in [("IV_DATE", "20241231", "20241231"), ("IV_DAYS", "1", "1 ")] {
        let r = d
            .raw(
                reqwest::Method::POST,
                &format!("/sap/bc/adt/debugger?method=setVariableValue&variableName={name}"),
                &[],
                Some(("text/plain", text.to_string())),
                true,
            )
            .await;
        assert_eq!((r.status, r.body.as_str()), (200, stored), "{name}: {r:?}");
    }
    let r = d.step("stepOver").await;
    assert_eq!(r.status, 200, "step over the addition: {r:?}");
    let actual = view(&d, &["RV_DATE"], &[]).await;
    assert!(
        actual.contains("ID=[RV_DATE] NAME=[RV_DATE] DECLARED_TYPE_NAME=[D] META_TYPE=[simple] VALUE=[20250101] HEX_VALUE=[32003000320035003000310030003100] TECHNICAL_TYPE=[D] LENGTH=[8]"),
        "{actual}"
    );
    finish(sim, &d, run).await;
}

const SQL_SELECT_URI: &str = "/sap/bc/adt/oo/classes/zcl_smp_sql_select/source/main";

/// After `SELECT * … INTO TABLE @lt_open` on the sample table ZSMP_ORDERS: `sy-subrc`,
/// `sy-dbcnt` (the rows read), the table of the dictionary structure with the rows its data
/// file gives (a CURR(15,2) column is `p` of 8 bytes, a DATS column `d`), and a component of
/// the row an earlier `SELECT SINGLE` filled. Components with a data element are left out:
/// their declared type name (the data element) is not modelled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn select_into_a_dictionary_table() {
    let (sim, d, run) = stopped_at(
        SQL_SELECT_URI,
        131,
        "/sap/bc/adt/oo/classrun/ZCL_SMP_SQL_SELECT",
    )
    .await;
    let actual = view(
        &d,
        &[
            "SY-SUBRC",
            "SY-DBCNT",
            "LT_OPEN",
            "LT_OPEN[3]",
            "LT_OPEN[3]-TOTAL",
            "LT_OPEN[1]-ORDER_DATE",
            "LS_ORDER-TOTAL",
        ],
        &[],
    )
    .await;
    compare("select_into_dictionary_table.txt", &actual);
    finish(sim, &d, run).await;
}

const SQL_REPORT_URI: &str = "/sap/bc/adt/programs/programs/zsmp_sql_report/source/main";

/// In the body of a report's `SELECT … ENDSELECT` (old syntax, a global work area of the
/// dictionary type), second pass: the work area holds the second row, `sy-dbcnt` counts the
/// rows so far, and the sum of the first pass is there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn select_loop_second_pass() {
    let (sim, d, run) = stopped_at(
        SQL_REPORT_URI,
        11,
        "/sap/bc/adt/abapdbg/reportrun/ZSMP_SQL_REPORT",
    )
    .await;
    let r = d.step("stepContinue").await;
    assert_eq!(r.status, 200, "continue to the second pass: {r:?}");
    let actual = view(
        &d,
        &[
            "SY-SUBRC",
            "SY-DBCNT",
            "GS_ORDER",
            "GS_ORDER-ORDER_ID",
            "GS_ORDER-TOTAL",
            "GV_SUM",
        ],
        &[],
    )
    .await;
    compare("select_loop_second_pass.txt", &actual);
    finish(sim, &d, run).await;
}

/// Inside a function module: a line breakpoint at the URI the ADT client derives from the
/// abapGit file `zsmp_fg.fugr.z_smp_fg_add.abap:20`; the module's frame in the group's main
/// program and its `L<group>U01` include, its parameters of every kind (by value, by
/// reference, CHANGING) and the group's global data and constant.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inside_a_function_module() {
    let at = adt::address::parse_location("zsmp_fg.fugr.z_smp_fg_add.abap:20")
        .expect("the ADT client maps a function module file");
    let (sim, d, run) = stopped_at(
        &at.uri,
        at.line,
        "/sap/bc/adt/oo/classrun/ZCL_SMP_FM_PARAMS",
    )
    .await;
    let actual = view(
        &d,
        &[
            "IV_A",
            "IV_B",
            "EV_SUM",
            "EV_TEXT",
            "CV_CALLS",
            "GV_CALLS",
            "GC_PREFIX",
        ],
        &[],
    )
    .await;
    compare("function_module.txt", &actual);
    // The scopes of the module's frame: its parameters, its locals, the group's globals.
    let r = d.children(&["@ROOT"]).await;
    assert_eq!(r.status, 200, "getChildVariables @ROOT: {r:?}");
    for scope in ["@PARAMETERS", "@LOCALS", "@GLOBALS"] {
        assert!(r.body.contains(scope), "{scope} missing: {}", r.body);
    }
    finish(sim, &d, run).await;
}
