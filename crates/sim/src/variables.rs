//! `STPDA_ADT_VARIABLE` records and the asXML answers of `getChildVariables` (§9.1) and
//! `getVariables` (§9.2).

use abap::VarRecord;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::debuggee::ParentChildren;
use crate::xml::{XML_DECL, elem};

const ASX_OPEN: &str =
    "<asx:abap version=\"1.0\" xmlns:asx=\"http://www.sap.com/abapxml\"><asx:values><DATA>";
const ASX_CLOSE: &str = "</DATA></asx:values></asx:abap>";

/// One record, all elements in captured order; empty values self-closing, VALUE untrimmed.
pub(crate) fn record_xml(out: &mut String, r: &VarRecord) {
    record_xml_as(out, r, &r.name, &r.kind);
}

/// [`record_xml`] with another `NAME` and `KIND`.
fn record_xml_as(out: &mut String, r: &VarRecord, name: &str, kind: &str) {
    out.push_str("<STPDA_ADT_VARIABLE>");
    elem(out, "ID", &r.id);
    elem(out, "NAME", name);
    elem(out, "DECLARED_TYPE_NAME", &r.declared_type_name);
    elem(out, "ACTUAL_TYPE_NAME", &r.actual_type_name);
    elem(out, "KIND", kind);
    elem(out, "INSTANTIATION_KIND", &r.instantiation_kind);
    elem(out, "ACCESS_KIND", &r.access_kind);
    elem(out, "META_TYPE", &r.meta_type);
    elem(out, "PARAMETER_KIND", &r.parameter_kind);
    elem(out, "VALUE", &r.value);
    elem(out, "HEX_VALUE", &r.hex_value);
    elem(out, "READ_ONLY", if r.read_only { "X" } else { "" });
    elem(out, "TECHNICAL_TYPE", &r.technical_type);
    number(out, "LENGTH", r.length);
    elem(out, "TABLE_BODY", "");
    number(out, "TABLE_LINES", r.table_lines);
    elem(out, "IS_VALUE_INCOMPLETE", "");
    elem(out, "IS_EXCEPTION", "");
    number(out, "INHERITANCE_LEVEL", r.inheritance_level);
    elem(out, "INHERITANCE_CLASS", &r.inheritance_class);
    out.push_str("</STPDA_ADT_VARIABLE>");
}

/// `<NAME>n</NAME>` without an intermediate string.
fn number(out: &mut String, name: &str, n: impl std::fmt::Display) {
    use std::fmt::Write;
    out.push('<');
    out.push_str(name);
    out.push('>');
    let _ = write!(out, "{n}");
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

/// The `getChildVariables` document, or `None` when nothing resolved (zero-byte answer).
pub(crate) fn child_variables_xml(answers: &[ParentChildren]) -> Option<String> {
    if answers.iter().all(|a| a.rows.is_none()) {
        return None;
    }
    let records: usize = answers
        .iter()
        .filter_map(|a| a.rows.as_ref())
        .map(Vec::len)
        .sum();
    let mut s = String::with_capacity(256 + records * 1024);
    s.push_str(XML_DECL);
    s.push_str(ASX_OPEN);
    // Records first, then the hierarchy: written straight into the document.
    let mut any_record = false;
    for c in answers.iter().filter_map(|a| a.rows.as_ref()).flatten() {
        if let Some(r) = &c.record {
            if !any_record {
                s.push_str("<VARIABLES>");
                any_record = true;
            }
            record_xml(&mut s, r);
        }
    }
    s.push_str(if any_record {
        "</VARIABLES>"
    } else {
        "<VARIABLES/>"
    });
    let mut any_row = false;
    for a in answers {
        let Some(children) = &a.rows else { continue };
        let mut edge = |s: &mut String, id: &str, name: &str| {
            if !any_row {
                s.push_str("<HIERARCHIES>");
                any_row = true;
            }
            s.push_str("<STPDA_ADT_VARIABLE_HIERARCHY>");
            elem(s, "PARENT_ID", &a.parent);
            elem(s, "CHILD_ID", id);
            elem(s, "CHILD_NAME", name);
            s.push_str("</STPDA_ADT_VARIABLE_HIERARCHY>");
        };
        if children.is_empty() {
            edge(&mut s, "", "");
        }
        for c in children {
            edge(&mut s, &c.child_id, &c.child_name);
        }
    }
    s.push_str(if any_row {
        "</HIERARCHIES>"
    } else {
        "<HIERARCHIES/>"
    });
    s.push_str(ASX_CLOSE);
    Some(s)
}

/// The `getVariables` document (NAME = ID, KIND unknown), or `None` when nothing resolved.
pub(crate) fn variables_xml(records: &[VarRecord]) -> Option<String> {
    if records.is_empty() {
        return None;
    }
    let mut s = String::with_capacity(256 + records.len() * 1024);
    s.push_str(XML_DECL);
    s.push_str(ASX_OPEN);
    for r in records {
        record_xml_as(&mut s, r, &r.id, "unknown");
    }
    s.push_str(ASX_CLOSE);
    Some(s)
}

/// 200 with the asXML content type of `dataname`, or a zero-byte 200 without content type.
pub(crate) fn asx_response(body: Option<String>, dataname: &str) -> Response {
    match body {
        None => StatusCode::OK.into_response(),
        Some(b) => {
            let mut r = (StatusCode::OK, b).into_response();
            let ct = format!(
                "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.debugger.{dataname}"
            );
            if let Ok(v) = HeaderValue::from_str(&ct) {
                r.headers_mut().insert(header::CONTENT_TYPE, v);
            }
            r
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debuggee::ChildRow;

    fn rec(id: &str, value: &str) -> VarRecord {
        VarRecord {
            id: id.into(),
            name: id.into(),
            kind: "variable".into(),
            value: value.into(),
            technical_type: "I".into(),
            length: 4,
            ..VarRecord::default()
        }
    }

    #[test]
    fn child_variables() {
        let answers = vec![
            ParentChildren {
                parent: "@ROOT".into(),
                rows: Some(vec![ChildRow {
                    child_id: "@LOCALS".into(),
                    child_name: "Locals".into(),
                    record: None,
                }]),
            },
            ParentChildren {
                parent: "LT".into(),
                rows: None,
            },
        ];
        let x = child_variables_xml(&answers).unwrap();
        assert!(x.contains("<DATA><VARIABLES/><HIERARCHIES><STPDA_ADT_VARIABLE_HIERARCHY><PARENT_ID>@ROOT</PARENT_ID><CHILD_ID>@LOCALS</CHILD_ID><CHILD_NAME>Locals</CHILD_NAME></STPDA_ADT_VARIABLE_HIERARCHY></HIERARCHIES></DATA>"));
        assert!(child_variables_xml(&answers[1..]).is_none());
        let answers = vec![ParentChildren {
            parent: "@LOCALS".into(),
            rows: Some(vec![ChildRow {
                child_id: "LV_COUNT".into(),
                child_name: String::new(),
                record: Some(rec("LV_COUNT", "0 ")),
            }]),
        }];
        let x = child_variables_xml(&answers).unwrap();
        assert!(x.contains("<VARIABLES><STPDA_ADT_VARIABLE><ID>LV_COUNT</ID><NAME>LV_COUNT</NAME><DECLARED_TYPE_NAME/><ACTUAL_TYPE_NAME/><KIND>variable</KIND><INSTANTIATION_KIND/><ACCESS_KIND/><META_TYPE/><PARAMETER_KIND/><VALUE>0 </VALUE><HEX_VALUE/><READ_ONLY/><TECHNICAL_TYPE>I</TECHNICAL_TYPE><LENGTH>4</LENGTH><TABLE_BODY/><TABLE_LINES>0</TABLE_LINES>"));
        assert!(x.contains("<CHILD_ID>LV_COUNT</CHILD_ID><CHILD_NAME/>"));
    }

    #[test]
    fn variables() {
        assert!(variables_xml(&[]).is_none());
        let x = variables_xml(&[rec("LS-A", "1 ")]).unwrap();
        assert!(x.contains("<DATA><STPDA_ADT_VARIABLE><ID>LS-A</ID><NAME>LS-A</NAME>"));
        assert!(x.contains("<KIND>unknown</KIND>"));
    }
}
