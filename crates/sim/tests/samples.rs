//! The sample objects in `<repo>/samples`, run over HTTP through the simulator and compared
//! with the expected output next to each object (`name.expected.txt`).
//!
//! - Classes implementing `IF_OO_ADT_CLASSRUN`: `POST /sap/bc/adt/oo/classrun/<CLASS>`, the
//!   answer is the output.
//! - Reports (`.prog.abap`): `POST /sap/bc/adt/abapdbg/reportrun/<PROGRAM>`, the answer is the
//!   list.
//! - Classes with `.clas.testclasses.abap`: `POST /sap/bc/adt/abapunit/testruns`; the expected
//!   file holds `tests:`, `passed:`, `failed:` and for each failing method a `failure:` line
//!   (`CLASS=>METHOD: title`) followed by its `detail:` lines.
//! - Interfaces: the simulator serves the source as it is in the file, and the expected file
//!   names the sample that uses the interface (`interface used by: <OBJECT>`).
//! - Database tables (`.tabl.xml` with `.tabl.data.json`, `.dtel.xml`, `.doma.xml`) are no
//!   samples: the SQL samples read and write them, and expect what their data files hold.
//! - Function groups (`<group>.fugr.*`) are no samples either: the samples that call their
//!   modules expect what the modules do.
//!
//! Every sample must give its expected output. (An allow-list of samples known to differ, run
//! by an ignored test, was removed once it was empty: that test could only fail. A sample the
//! interpreter gets wrong is a failure of `every_sample_gives_its_expected_output`, which
//! names it and what differs.)

use crate::common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::Session;

const AUNIT: &str = "/sap/bc/adt/abapunit/testruns";
const AUNIT_CT: &str = "application/vnd.sap.adt.abapunit.testruns.config.v4+xml";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Classrun,
    Report,
    Unit,
    Interface,
}

#[derive(Debug)]
struct Sample {
    /// Lower case object name, as in the file name.
    name: String,
    kind: Kind,
    /// The main source file.
    source: PathBuf,
    expected: String,
}

fn samples() -> Vec<Sample> {
    let dir = common::samples_dir();
    let mut found: BTreeMap<String, Sample> = BTreeMap::new();
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read samples folder {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("readable directory entry").path();
        let file = path
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or_default()
            .to_string();
        let (name, kind) = if let Some(n) = file.strip_suffix(".clas.abap") {
            let tests = dir.join(format!("{n}.clas.testclasses.abap"));
            let kind = if tests.exists() {
                Kind::Unit
            } else {
                Kind::Classrun
            };
            (n.to_string(), kind)
        } else if let Some(n) = file.strip_suffix(".prog.abap") {
            (n.to_string(), Kind::Report)
        } else if let Some(n) = file.strip_suffix(".intf.abap") {
            (n.to_string(), Kind::Interface)
        } else {
            continue;
        };
        let expected_path = dir.join(format!("{name}.expected.txt"));
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|e| {
            panic!(
                "sample {name} has no expected output {}: {e}",
                expected_path.display()
            )
        });
        found.insert(
            name.clone(),
            Sample {
                name,
                kind,
                source: path,
                expected,
            },
        );
    }
    found.into_values().collect()
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

fn attr(xml: &str, name: &str) -> Option<String> {
    common::attribute(xml, name).map(|v| unescape(&v))
}

/// The summary of an `aunit:runResult` in the format of the expected files.
fn unit_summary(xml: &str) -> String {
    let mut total = 0;
    let mut failed = 0;
    let mut failures = String::new();
    let mut class = String::new();
    let mut rest = xml;
    loop {
        let next_class = rest.find("<testClass ");
        let next_method = rest.find("<testMethod ");
        match (next_class, next_method) {
            (Some(c), m) if m.is_none_or(|m| c < m) => {
                class = attr(&rest[c..], "adtcore:name").unwrap_or_default();
                rest = &rest[c + 1..];
            }
            (_, Some(m)) => {
                let body = &rest[m..];
                let end = body.find("</testMethod>").unwrap_or(body.len());
                let method_xml = &body[..end];
                let method = attr(method_xml, "adtcore:name").unwrap_or_default();
                total += 1;
                if method_xml.contains("<alert ") {
                    failed += 1;
                    let title = method_xml
                        .find("<title>")
                        .and_then(|s| {
                            let t = &method_xml[s + 7..];
                            t.find("</title>").map(|e| unescape(&t[..e]))
                        })
                        .unwrap_or_default();
                    failures.push_str(&format!("failure: {class}=>{method}: {title}\n"));
                    let mut details = method_xml;
                    while let Some(d) = details.find("<detail ") {
                        let text = attr(&details[d..], "text").unwrap_or_default();
                        failures.push_str(&format!("detail: {text}\n"));
                        details = &details[d + 1..];
                    }
                }
                rest = &body[end..];
            }
            _ => break,
        }
    }
    format!(
        "tests: {total}\npassed: {}\nfailed: {failed}\n{failures}",
        total - failed
    )
}

/// Runs one sample; `Err` says how the answer differs from the expected file.
async fn check(s: &Session, sample: &Sample, names: &[String]) -> Result<(), String> {
    let expected = sample.expected.trim_end_matches('\n');
    let actual = match sample.kind {
        Kind::Classrun | Kind::Report => {
            let path = if sample.kind == Kind::Classrun {
                format!("/sap/bc/adt/oo/classrun/{}", sample.name.to_uppercase())
            } else {
                format!(
                    "/sap/bc/adt/abapdbg/reportrun/{}",
                    sample.name.to_uppercase()
                )
            };
            let r = s.post(&path).await;
            if r.status != 200 {
                return Err(format!("{path} answered {r:?}"));
            }
            r.body.trim_end_matches('\n').to_string()
        }
        Kind::Unit => {
            let config = run_config(&format!("/sap/bc/adt/oo/classes/{}", sample.name));
            let r = s.post_xml(AUNIT, AUNIT_CT, config).await;
            if r.status != 200 {
                return Err(format!("ABAP Unit run answered {r:?}"));
            }
            unit_summary(&r.body).trim_end_matches('\n').to_string()
        }
        Kind::Interface => {
            let path = format!("/sap/bc/adt/oo/interfaces/{}/source/main", sample.name);
            let r = s.get(&path).await;
            let file = std::fs::read_to_string(&sample.source).map_err(|e| e.to_string())?;
            if r.status != 200 || r.body != file {
                return Err(format!("{path} does not serve the file: {r:?}"));
            }
            let user = expected
                .strip_prefix("interface used by: ")
                .ok_or("expected file of an interface must say `interface used by: <OBJECT>`")?;
            if !names.iter().any(|n| n.eq_ignore_ascii_case(user)) {
                return Err(format!("the user {user} of the interface is no sample"));
            }
            expected.to_string()
        }
    };
    if actual == expected {
        Ok(())
    } else {
        Err(format!(
            "output differs\n--- expected\n{expected}\n--- actual\n{actual}\n---"
        ))
    }
}

fn run_config(uri: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><aunit:runConfiguration xmlns:aunit=\"http://www.sap.com/adt/aunit\"><external><coverage active=\"false\"/></external><options><uriType value=\"semantic\"/><testDeterminationStrategy sameProgram=\"true\" assignedTests=\"false\"/><testRiskLevels harmless=\"true\" dangerous=\"true\" critical=\"true\"/><testDurations short=\"true\" medium=\"true\" long=\"true\"/></options><adtcore:objectSets xmlns:adtcore=\"http://www.sap.com/adt/core\"><objectSet kind=\"inclusive\"><adtcore:objectReferences><adtcore:objectReference adtcore:uri=\"{uri}\"/></adtcore:objectReferences></objectSet></adtcore:objectSets></aunit:runConfiguration>"
    )
}

async fn check_all() {
    let sim = common::samples_sim().await;
    let s = Session::new(&sim.base_url(), false);
    s.fetch_csrf().await;
    let all = samples();
    let names: Vec<String> = all.iter().map(|x| x.name.clone()).collect();
    let mut failures = Vec::new();
    let mut checked = 0;
    for sample in &all {
        checked += 1;
        if let Err(e) = check(&s, sample, &names).await {
            failures.push(format!("{} ({:?}): {e}", sample.name, sample.kind));
        }
    }
    sim.shutdown().await;
    assert!(checked > 0, "no samples checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} samples differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_folder_has_at_least_40_objects_each_with_expected_output() {
    let all = samples();
    assert!(
        all.len() >= 40,
        "only {} sample objects in {}",
        all.len(),
        common::samples_dir().display()
    );
    for kind in [Kind::Classrun, Kind::Report, Kind::Unit, Kind::Interface] {
        assert!(
            all.iter().any(|s| s.kind == kind),
            "no sample of kind {kind:?}"
        );
    }
    // At least one deliberately failing unit test.
    assert!(
        all.iter()
            .any(|s| s.kind == Kind::Unit && s.expected.contains("\nfailure: ")),
        "no sample with a failing unit test"
    );
    // Every sample file belongs to an object with an expected file, or is a dictionary file
    // (table, data element, domain, table data) that another sample file names.
    let dir = common::samples_dir();
    let mut texts = String::new();
    for entry in std::fs::read_dir(&dir).expect("samples folder readable") {
        let path = entry.expect("directory entry").path();
        let file = path
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or_default();
        if !is_dictionary_file(file) {
            texts.push_str(
                &std::fs::read_to_string(&path)
                    .unwrap_or_default()
                    .to_lowercase(),
            );
        }
    }
    for entry in std::fs::read_dir(&dir).expect("samples folder readable") {
        let path = entry.expect("directory entry").path();
        let file = path
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or_default();
        let object = file.split('.').next().unwrap_or_default();
        if is_dictionary_file(file) {
            let own = std::fs::read_to_string(&path)
                .unwrap_or_default()
                .to_lowercase();
            let named_elsewhere = texts.contains(object)
                || std::fs::read_dir(&dir)
                    .expect("samples folder readable")
                    .filter_map(|e| e.ok())
                    .filter(|e| {
                        e.file_name()
                            .to_str()
                            .is_some_and(|f| f.ends_with(".tabl.xml"))
                    })
                    .any(|e| {
                        e.path() != path
                            && std::fs::read_to_string(e.path())
                                .unwrap_or_default()
                                .to_lowercase()
                                .contains(object)
                    });
            assert!(
                named_elsewhere && !own.is_empty(),
                "dictionary file {file} is used by no sample"
            );
            continue;
        }
        if file.contains(".fugr.") {
            assert!(
                group_is_called(&dir, object, &texts),
                "function group file {file}: no sample calls a module of its group"
            );
            continue;
        }
        assert!(
            all.iter().any(|s| s.name == object),
            "{file} belongs to no sample object"
        );
    }
}

/// Does some sample file call (`CALL FUNCTION 'name'`) a function module of group `group`?
/// `texts` holds the samples' sources, lower case.
fn group_is_called(dir: &std::path::Path, group: &str, texts: &str) -> bool {
    let prefix = format!("{group}.fugr.");
    std::fs::read_dir(dir)
        .expect("samples folder readable")
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter_map(|f| Some(f.strip_prefix(&prefix)?.strip_suffix(".abap")?.to_string()))
        .any(|member| texts.contains(&format!("call function '{member}'")))
}

/// The database's files beside the samples: tables (with their data) and the data elements
/// and domains their fields refer to.
fn is_dictionary_file(file: &str) -> bool {
    [".tabl.xml", ".tabl.data.json", ".dtel.xml", ".doma.xml"]
        .iter()
        .any(|suffix| file.ends_with(suffix))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_sample_gives_its_expected_output() {
    check_all().await;
}

#[test]
fn unit_summary_reads_a_run_result() {
    let xml = "<aunit:runResult><program><testClasses><testClass adtcore:name=\"LTC_A\"><alerts/><testMethods><testMethod adtcore:name=\"OK\"><alerts/></testMethod><testMethod adtcore:name=\"BAD\"><alerts><alert kind=\"failedAssertion\"><title>Critical Assertion Error: &apos;x&apos;</title><details><detail text=\"Expected [1] Actual [2]\"/></details></alert></alerts></testMethod></testMethods></testClass></testClasses></program></aunit:runResult>";
    assert_eq!(
        unit_summary(xml),
        "tests: 2\npassed: 1\nfailed: 1\nfailure: LTC_A=>BAD: Critical Assertion Error: 'x'\ndetail: Expected [1] Actual [2]\n"
    );
}
