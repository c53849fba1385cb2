//! ABAP Unit over ADT (`POST /sap/bc/adt/abapunit/testruns`, interpreter reference §5.2): the
//! `aunit:runConfiguration` reader and the `aunit:runResult` writer.

use abap::ObjectKind;

use crate::uri::{adt_type, parse_source_uri};
use crate::xml::{XML_DECL, XmlError, attr, parse_tree};

const AUNIT_NS: &str = "http://www.sap.com/adt/aunit";
const ADTCORE_NS: &str = "http://www.sap.com/adt/core";

/// One object named in the run configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UnitTarget {
    pub kind: ObjectKind,
    /// Upper case.
    pub object: String,
    /// `#testclass=<C>` of the reference: only this test class (upper case).
    pub class: Option<String>,
    /// `#testmethod=<M>` of the reference: only test methods of this name (upper case).
    pub method: Option<String>,
}

impl UnitTarget {
    /// The method filter for `Repository::run_unit_tests`: `M`, `C=>M` or `C=>`.
    pub fn filter(&self) -> Option<String> {
        match (&self.class, &self.method) {
            (None, None) => None,
            (None, Some(m)) => Some(m.clone()),
            (Some(c), m) => Some(format!("{c}=>{}", m.as_deref().unwrap_or(""))),
        }
    }
}

/// `testclass=` and `testmethod=` of a reference's fragment (`…#testclass=LTCL;testmethod=M`).
fn test_filter(uri: &str) -> (Option<String>, Option<String>) {
    let Some((_, fragment)) = uri.split_once('#') else {
        return (None, None);
    };
    let mut class = None;
    let mut method = None;
    for item in fragment.split(';') {
        let Some((k, v)) = item.split_once('=') else {
            continue;
        };
        let v = percent_encoding::percent_decode_str(v.trim())
            .decode_utf8_lossy()
            .trim()
            .to_uppercase();
        if v.is_empty() {
            continue;
        }
        match k.trim() {
            "testclass" => class = Some(v),
            "testmethod" => method = Some(v),
            _ => {}
        }
    }
    (class, method)
}

/// The objects of an `aunit:runConfiguration` (document order, duplicates dropped).
pub(crate) fn parse_run_configuration(body: &str) -> Result<Vec<UnitTarget>, XmlError> {
    let root = parse_tree(body)?;
    if root.name != "runConfiguration" {
        return Err(XmlError(format!(
            "expected aunit:runConfiguration, found {}",
            root.name
        )));
    }
    let mut refs = Vec::new();
    root.descendants("objectReference", &mut refs);
    let mut out: Vec<UnitTarget> = Vec::new();
    for r in refs {
        let Some(uri) = r.attr("uri") else { continue };
        let Some(src) = parse_source_uri(uri) else {
            return Err(XmlError(format!("object {uri} cannot be tested")));
        };
        let (class, method) = test_filter(uri);
        let t = UnitTarget {
            kind: src.kind,
            object: src.object,
            class,
            method,
        };
        if !out.contains(&t) {
            out.push(t);
        }
    }
    Ok(out)
}

/// An alert of a test method (or class).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Alert {
    /// `failedAssertion`, `exception`, `warning`.
    pub kind: String,
    /// `critical`, `fatal`, `tolerable`.
    pub severity: String,
    pub title: String,
    pub details: Vec<String>,
    /// Line in the test-class include where it happened (0: unknown).
    pub line: u32,
    /// Method the line belongs to.
    pub method: String,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MethodResult {
    pub name: String,
    /// Line of the `METHOD` statement in the test include (0: unknown).
    pub line: u32,
    pub seconds: f64,
    pub alerts: Vec<Alert>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ClassResult {
    pub name: String,
    pub line: u32,
    pub duration: String,
    pub risk: String,
    pub alerts: Vec<Alert>,
    pub methods: Vec<MethodResult>,
}

/// The result for one tested object.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ProgramResult {
    pub target: UnitTarget,
    pub classes: Vec<ClassResult>,
}

/// The source part whose lines a stack entry of `t` names (test-class include of a class,
/// the program source of a program).
fn alert_part(t: &UnitTarget) -> abap::SourcePart {
    match t.kind {
        ObjectKind::Class => abap::SourcePart::TestClasses,
        _ => abap::SourcePart::Main,
    }
}

fn alert_of(t: &UnitTarget, a: &abap::UnitAlert, method: &str) -> Alert {
    let line = a
        .location
        .as_ref()
        .filter(|l| l.object == t.object && l.part == alert_part(t))
        .map_or(0, |l| l.line);
    Alert {
        kind: a.kind.clone(),
        severity: a.severity.clone(),
        title: a.title.clone(),
        details: a.details.clone(),
        line,
        method: method.to_string(),
    }
}

/// The writer's view of the interpreter's result for one object.
pub(crate) fn program_result(target: UnitTarget, result: &abap::UnitRunResult) -> ProgramResult {
    let classes = result
        .classes
        .iter()
        .map(|c| ClassResult {
            name: c.name.clone(),
            line: c.line,
            duration: c.duration.clone(),
            risk: c.risk_level.clone(),
            alerts: c
                .alerts
                .iter()
                .map(|a| alert_of(&target, a, &c.name))
                .collect(),
            methods: c
                .methods
                .iter()
                .map(|m| MethodResult {
                    name: m.name.clone(),
                    line: m.line,
                    seconds: 0.0,
                    alerts: m
                        .alerts
                        .iter()
                        .map(|a| alert_of(&target, a, &m.name))
                        .collect(),
                })
                .collect(),
        })
        .collect();
    ProgramResult { target, classes }
}

fn object_uri(t: &UnitTarget) -> String {
    let main = crate::uri::object_source_uri(t.kind, &t.object, abap::SourcePart::Main, "");
    main.trim_end_matches("/source/main").to_string()
}

fn include_uri(t: &UnitTarget) -> String {
    match t.kind {
        ObjectKind::Class => format!("{}/includes/testclasses", object_uri(t)),
        _ => format!("{}/source/main", object_uri(t)),
    }
}

fn include_type(t: &UnitTarget) -> &'static str {
    match t.kind {
        ObjectKind::Class => "CLAS/OCN/testclasses",
        _ => "PROG/PL",
    }
}

fn at(base: &str, line: u32, column: u32) -> String {
    if line == 0 {
        base.to_string()
    } else {
        format!("{base}#start={line},{column}")
    }
}

fn alerts_xml(s: &mut String, t: &UnitTarget, alerts: &[Alert]) {
    if alerts.is_empty() {
        s.push_str("<alerts/>");
        return;
    }
    s.push_str("<alerts>");
    for a in alerts {
        s.push_str("<alert");
        attr(s, "kind", &a.kind);
        attr(s, "severity", &a.severity);
        s.push_str("><title>");
        s.push_str(&crate::xml::esc(&a.title));
        s.push_str("</title><details>");
        for d in &a.details {
            s.push_str("<detail");
            attr(s, "text", d);
            s.push_str("/>");
        }
        s.push_str("</details><stack>");
        if a.line > 0 {
            s.push_str("<stackEntry");
            attr(
                s,
                "adtcore:uri",
                &format!("{}#start={},0;end={},0", include_uri(t), a.line, a.line),
            );
            attr(s, "adtcore:type", include_type(t));
            attr(s, "adtcore:name", &t.object);
            attr(
                s,
                "adtcore:description",
                &format!(
                    "Include: <{}> Line: <{}> ({})",
                    test_include(t),
                    a.line,
                    a.method
                ),
            );
            s.push_str("/>");
        }
        s.push_str("</stack></alert>");
    }
    s.push_str("</alerts>");
}

/// Runtime name of the test-class include (`…CCAU` for classes).
fn test_include(t: &UnitTarget) -> String {
    match t.kind {
        ObjectKind::Class => format!("{:=<30}CCAU", t.object),
        _ => t.object.clone(),
    }
}

/// The `aunit:runResult` document. Objects without test classes are left out; with no test
/// class at all the root is empty.
pub(crate) fn run_result_xml(programs: &[ProgramResult]) -> String {
    let mut s = String::from(XML_DECL);
    s.push_str("<aunit:runResult");
    attr(&mut s, "xmlns:aunit", AUNIT_NS);
    let with_tests: Vec<&ProgramResult> =
        programs.iter().filter(|p| !p.classes.is_empty()).collect();
    if with_tests.is_empty() {
        s.push_str("/>");
        return s;
    }
    s.push_str("><external><coverage");
    attr(&mut s, "active", "false");
    s.push_str("/></external><alerts/>");
    for p in with_tests {
        let t = &p.target;
        s.push_str("<program");
        attr(&mut s, "adtcore:uri", &object_uri(t));
        attr(&mut s, "adtcore:type", adt_type(t.kind));
        attr(&mut s, "adtcore:name", &t.object);
        attr(&mut s, "adtcore:packageName", "$TMP");
        attr(&mut s, "xmlns:adtcore", ADTCORE_NS);
        s.push_str("><alerts/><testClasses>");
        for c in &p.classes {
            s.push_str("<testClass");
            attr(&mut s, "adtcore:uri", &at(&include_uri(t), c.line, 6));
            attr(&mut s, "adtcore:type", include_type(t));
            attr(&mut s, "adtcore:name", &c.name);
            attr(&mut s, "adtcore:packageName", "$TMP");
            attr(&mut s, "durationCategory", &c.duration);
            attr(&mut s, "riskLevel", &c.risk);
            s.push('>');
            alerts_xml(&mut s, t, &c.alerts);
            s.push_str("<testMethods>");
            for m in &c.methods {
                s.push_str("<testMethod");
                attr(&mut s, "adtcore:uri", &at(&include_uri(t), m.line, 11));
                attr(&mut s, "adtcore:type", include_type(t));
                attr(&mut s, "adtcore:name", &m.name);
                attr(&mut s, "adtcore:packageName", "$TMP");
                attr(&mut s, "executionTime", &format!("{:.3}", m.seconds));
                attr(&mut s, "unit", "s");
                s.push('>');
                alerts_xml(&mut s, t, &m.alerts);
                s.push_str("</testMethod>");
            }
            s.push_str("</testMethods></testClass>");
        }
        s.push_str("</testClasses></program>");
    }
    s.push_str("</aunit:runResult>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const CONFIG: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<aunit:runConfiguration xmlns:aunit="http://www.sap.com/adt/aunit">
  <external><coverage active="false"/></external>
  <options><uriType value="semantic"/></options>
  <adtcore:objectSets xmlns:adtcore="http://www.sap.com/adt/core">
    <objectSet kind="inclusive"><adtcore:objectReferences>
      <adtcore:objectReference adtcore:uri="/sap/bc/adt/oo/classes/ZCL_SIM_PARTS"/>
      <adtcore:objectReference adtcore:uri="/sap/bc/adt/programs/programs/zsim_report"/>
      <adtcore:objectReference adtcore:uri="/sap/bc/adt/oo/classes/zcl_sim_parts"/>
    </adtcore:objectReferences></objectSet>
  </adtcore:objectSets>
</aunit:runConfiguration>"#;

    #[test]
    fn reads_configuration() {
        let t = parse_run_configuration(CONFIG).unwrap();
        assert_eq!(
            t,
            vec![
                UnitTarget {
                    kind: ObjectKind::Class,
                    object: "ZCL_SIM_PARTS".into(),
                    class: None,
                    method: None,
                },
                UnitTarget {
                    kind: ObjectKind::Program,
                    object: "ZSIM_REPORT".into(),
                    class: None,
                    method: None,
                }
            ]
        );
        let filtered = parse_run_configuration(&CONFIG.replace(
            "ZCL_SIM_PARTS\"",
            "ZCL_SIM_PARTS/includes/testclasses#testclass=ltc_double;testmethod=doubles\"",
        ))
        .unwrap();
        assert_eq!(filtered[0].filter().as_deref(), Some("LTC_DOUBLE=>DOUBLES"));
        assert_eq!(filtered[1].filter(), None);
        assert!(parse_run_configuration("<x/>").is_err());
        assert!(parse_run_configuration(&CONFIG.replace("/sap/bc/adt/oo", "/nope")).is_err());
    }

    #[test]
    fn writes_result() {
        let target = UnitTarget {
            kind: ObjectKind::Class,
            object: "ZCL_X".into(),
            class: None,
            method: None,
        };
        assert_eq!(
            run_result_xml(&[ProgramResult {
                target: target.clone(),
                classes: vec![]
            }]),
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><aunit:runResult xmlns:aunit=\"http://www.sap.com/adt/aunit\"/>"
        );
        let x = run_result_xml(&[ProgramResult {
            target,
            classes: vec![ClassResult {
                name: "LTC_X".into(),
                line: 1,
                duration: "short".into(),
                risk: "harmless".into(),
                alerts: vec![],
                methods: vec![MethodResult {
                    name: "FAILS".into(),
                    line: 20,
                    seconds: 0.0,
                    alerts: vec![Alert {
                        kind: "failedAssertion".into(),
                        severity: "critical".into(),
                        title: "Critical Assertion Error: 'Assert Equals: <1> <2>'".into(),
                        details: vec!["Expected [2] Actual [1]".into()],
                        line: 22,
                        method: "FAILS".into(),
                    }],
                }],
            }],
        }]);
        assert!(x.contains("<program adtcore:uri=\"/sap/bc/adt/oo/classes/zcl_x\" adtcore:type=\"CLAS/OC\" adtcore:name=\"ZCL_X\""), "{x}");
        assert!(x.contains("<testClass adtcore:uri=\"/sap/bc/adt/oo/classes/zcl_x/includes/testclasses#start=1,6\" adtcore:type=\"CLAS/OCN/testclasses\" adtcore:name=\"LTC_X\""), "{x}");
        assert!(x.contains("executionTime=\"0.000\" unit=\"s\"><alerts><alert kind=\"failedAssertion\" severity=\"critical\"><title>"), "{x}");
        assert!(x.contains("adtcore:description=\"Include: &lt;ZCL_X=========================CCAU&gt; Line: &lt;22&gt; (FAILS)\""), "{x}");
    }

    proptest! {
        #[test]
        fn never_panics(s in ".{0,300}") {
            let _ = parse_run_configuration(&s);
        }
    }
}
