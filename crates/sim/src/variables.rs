//! `STPDA_ADT_VARIABLE` records and the asXML answers of `getChildVariables` (§9.1) and
//! `getVariables` (§9.2).

use abap::{VarFields, VarRecord};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::xml::{Tags, XML_DECL, push_esc, push_int, tagged, tags};

const ASX_OPEN: &str =
    "<asx:abap version=\"1.0\" xmlns:asx=\"http://www.sap.com/abapxml\"><asx:values><DATA>";
const ASX_CLOSE: &str = "</DATA></asx:values></asx:abap>";

/// At most what a `getChildVariables` document ends with after its last record, besides the
/// hierarchy's rows.
const DOC_END: usize = "</VARIABLES><HIERARCHIES></HIERARCHIES>".len() + ASX_CLOSE.len();

/// Most room made ahead in a `getChildVariables` document (bytes): what the first parent's
/// rows suggest for the others, within reason.
const ROOM_AHEAD: usize = 16 * 1024 * 1024;

const ID: Tags = tags!("ID");
const NAME: Tags = tags!("NAME");
const DECLARED_TYPE_NAME: Tags = tags!("DECLARED_TYPE_NAME");
const ACTUAL_TYPE_NAME: Tags = tags!("ACTUAL_TYPE_NAME");
const KIND: Tags = tags!("KIND");
const INSTANTIATION_KIND: Tags = tags!("INSTANTIATION_KIND");
const ACCESS_KIND: Tags = tags!("ACCESS_KIND");
const META_TYPE: Tags = tags!("META_TYPE");
const PARAMETER_KIND: Tags = tags!("PARAMETER_KIND");
const VALUE: Tags = tags!("VALUE");
const HEX_VALUE: Tags = tags!("HEX_VALUE");
const READ_ONLY: Tags = tags!("READ_ONLY");
const TECHNICAL_TYPE: Tags = tags!("TECHNICAL_TYPE");
const INHERITANCE_CLASS: Tags = tags!("INHERITANCE_CLASS");
const CHILD_ID: Tags = tags!("CHILD_ID");
const CHILD_NAME: Tags = tags!("CHILD_NAME");

/// One record, all elements in captured order; empty values self-closing, VALUE untrimmed.
pub(crate) fn record_xml(out: &mut String, r: &VarFields<'_>) {
    record_xml_as(out, r, r.name, r.kind);
}

/// [`record_xml`] with another `NAME` and `KIND`. The numbers are never empty: their tags
/// and the always empty elements between them are written as one piece each.
fn record_xml_as(out: &mut String, r: &VarFields<'_>, name: &str, kind: &str) {
    out.push_str("<STPDA_ADT_VARIABLE>");
    tagged(out, &ID, r.id);
    tagged(out, &NAME, name);
    tagged(out, &DECLARED_TYPE_NAME, r.declared_type_name);
    tagged(out, &ACTUAL_TYPE_NAME, r.actual_type_name);
    tagged(out, &KIND, kind);
    tagged(out, &INSTANTIATION_KIND, r.instantiation_kind);
    tagged(out, &ACCESS_KIND, r.access_kind);
    tagged(out, &META_TYPE, r.meta_type);
    tagged(out, &PARAMETER_KIND, r.parameter_kind);
    tagged(out, &VALUE, r.value);
    tagged(out, &HEX_VALUE, r.hex_value);
    tagged(out, &READ_ONLY, if r.read_only { "X" } else { "" });
    tagged(out, &TECHNICAL_TYPE, r.technical_type);
    out.push_str("<LENGTH>");
    push_int(out, i64::from(r.length));
    out.push_str("</LENGTH><TABLE_BODY/><TABLE_LINES>");
    push_int(out, i64::from(r.table_lines));
    out.push_str("</TABLE_LINES><IS_VALUE_INCOMPLETE/><IS_EXCEPTION/><INHERITANCE_LEVEL>");
    push_int(out, i64::from(r.inheritance_level));
    out.push_str("</INHERITANCE_LEVEL>");
    tagged(out, &INHERITANCE_CLASS, r.inheritance_class);
    out.push_str("</STPDA_ADT_VARIABLE>");
}

/// The `getChildVariables` document, written while the stopped program is read (its records
/// borrowed, never built): the records of every parent first, then the hierarchy, both in
/// the order the parents were asked for. Zero bytes when no parent resolved.
pub(crate) struct ChildVariables {
    /// The document up to the last record written.
    doc: String,
    /// The hierarchy's rows, appended to the document at the end.
    hierarchy: String,
    /// The parent whose rows are being written, escaped.
    parent: String,
    /// Parents asked for, and written so far.
    parents: usize,
    parents_done: usize,
    any_record: bool,
    any_resolved: bool,
}

/// The rows of one parent ([`ChildVariables::parent`]).
pub(crate) struct Rows<'a> {
    doc: &'a mut ChildVariables,
    written: usize,
}

impl ChildVariables {
    /// A document for `parents` parents.
    pub fn new(parents: usize) -> Self {
        let mut doc = String::with_capacity(4096);
        doc.push_str(XML_DECL);
        doc.push_str(ASX_OPEN);
        ChildVariables {
            doc,
            hierarchy: String::with_capacity(1024),
            parent: String::new(),
            parents,
            parents_done: 0,
            any_record: false,
            any_resolved: false,
        }
    }

    /// The children of `parent`, written by `rows` through [`Rows::row`]; `rows` answers
    /// `false` (having written nothing) when the parent cannot be expanded. A parent without
    /// children has one row with an empty child.
    pub fn parent(&mut self, parent: &str, rows: impl FnOnce(&mut Rows<'_>) -> bool) {
        self.parent.clear();
        push_esc(&mut self.parent, parent);
        let (doc_before, hierarchy_before) = (self.doc.len(), self.hierarchy.len());
        let mut r = Rows {
            doc: self,
            written: 0,
        };
        let resolved = rows(&mut r);
        if resolved && r.written == 0 {
            r.row("", "", None);
        }
        self.any_resolved |= resolved;
        let first = self.parents_done == 0;
        self.parents_done += 1;
        let left = self.parents.saturating_sub(self.parents_done);
        if first && left > 0 {
            // The other parents' rows are most likely like the first's (a page of table
            // rows): room for them is made once instead of the document growing step by
            // step, up to what a batch answer may hold. A quarter more than the first's
            // share, as later rows are often a little longer (`LT[10]` after `LT[9]`), and
            // the hierarchy the document ends with: growing the document near its end would
            // copy all of it once more.
            let room = |written: usize| {
                written
                    .saturating_mul(left)
                    .saturating_add(written.saturating_mul(left) / 4)
                    .min(ROOM_AHEAD)
            };
            let hierarchy_room = room(self.hierarchy.len() - hierarchy_before);
            self.doc.reserve(
                room(self.doc.len() - doc_before) + self.hierarchy.len() + hierarchy_room + DOC_END,
            );
            self.hierarchy.reserve(hierarchy_room);
        }
    }

    /// The document, or `None` when no parent resolved (a zero-byte answer).
    pub fn finish(self) -> Option<String> {
        if !self.any_resolved {
            return None;
        }
        let mut doc = self.doc;
        doc.push_str(if self.any_record {
            "</VARIABLES>"
        } else {
            "<VARIABLES/>"
        });
        // A parent that resolved has at least one row.
        doc.reserve(self.hierarchy.len() + DOC_END);
        doc.push_str("<HIERARCHIES>");
        doc.push_str(&self.hierarchy);
        doc.push_str("</HIERARCHIES>");
        doc.push_str(ASX_CLOSE);
        Some(doc)
    }
}

impl Rows<'_> {
    /// A child of the parent: its id, its display name (scope pseudo-nodes: `Locals`) and
    /// its record (none for a scope pseudo-node).
    pub fn row(&mut self, id: &str, name: &str, record: Option<&VarFields<'_>>) {
        let d = &mut *self.doc;
        if let Some(r) = record {
            if !d.any_record {
                d.doc.push_str("<VARIABLES>");
                d.any_record = true;
            }
            record_xml(&mut d.doc, r);
        }
        let h = &mut d.hierarchy;
        h.push_str("<STPDA_ADT_VARIABLE_HIERARCHY>");
        if d.parent.is_empty() {
            h.push_str("<PARENT_ID/>");
        } else {
            h.push_str("<PARENT_ID>");
            h.push_str(&d.parent);
            h.push_str("</PARENT_ID>");
        }
        tagged(h, &CHILD_ID, id);
        tagged(h, &CHILD_NAME, name);
        h.push_str("</STPDA_ADT_VARIABLE_HIERARCHY>");
        self.written += 1;
    }
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
        record_xml_as(&mut s, &r.fields(), &r.id, "unknown");
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
            r.extensions_mut().insert(crate::batch::TextBody);
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
    use crate::xml::elem;
    use proptest::prelude::*;

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

    /// One child of a parent, its record built beforehand, as the documents were first
    /// written from.
    #[derive(Debug, Clone)]
    struct ChildRow {
        child_id: String,
        child_name: String,
        record: Option<VarRecord>,
    }

    /// The children of one parent; `None` when it cannot be expanded.
    #[derive(Debug, Clone)]
    struct ParentChildren {
        parent: String,
        rows: Option<Vec<ChildRow>>,
    }

    /// A record as it was first written, element by element: the reference.
    fn record_by_elems(out: &mut String, r: &VarRecord, name: &str, kind: &str) {
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
        elem(out, "LENGTH", &r.length.to_string());
        elem(out, "TABLE_BODY", "");
        elem(out, "TABLE_LINES", &r.table_lines.to_string());
        elem(out, "IS_VALUE_INCOMPLETE", "");
        elem(out, "IS_EXCEPTION", "");
        elem(out, "INHERITANCE_LEVEL", &r.inheritance_level.to_string());
        elem(out, "INHERITANCE_CLASS", &r.inheritance_class);
        out.push_str("</STPDA_ADT_VARIABLE>");
    }

    /// The `getChildVariables` document as it was first written, from records built
    /// beforehand: the reference.
    fn child_variables_by_records(answers: &[ParentChildren]) -> Option<String> {
        if answers.iter().all(|a| a.rows.is_none()) {
            return None;
        }
        let mut s = String::new();
        s.push_str(XML_DECL);
        s.push_str(ASX_OPEN);
        let mut any_record = false;
        for c in answers.iter().filter_map(|a| a.rows.as_ref()).flatten() {
            if let Some(r) = &c.record {
                if !any_record {
                    s.push_str("<VARIABLES>");
                    any_record = true;
                }
                record_by_elems(&mut s, r, &r.name, &r.kind);
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

    /// The same rows through [`ChildVariables`].
    fn child_variables_xml(answers: &[ParentChildren]) -> Option<String> {
        let mut doc = ChildVariables::new(answers.len());
        for a in answers {
            doc.parent(&a.parent, |rows| {
                let Some(children) = &a.rows else {
                    return false;
                };
                for c in children {
                    let record = c.record.as_ref().map(VarRecord::fields);
                    rows.row(&c.child_id, &c.child_name, record.as_ref());
                }
                true
            });
        }
        doc.finish()
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
        // A parent without children: one row with an empty child.
        let answers = vec![ParentChildren {
            parent: "LS_EMPTY".into(),
            rows: Some(Vec::new()),
        }];
        let x = child_variables_xml(&answers).unwrap();
        assert!(x.contains("<VARIABLES/><HIERARCHIES><STPDA_ADT_VARIABLE_HIERARCHY><PARENT_ID>LS_EMPTY</PARENT_ID><CHILD_ID/><CHILD_NAME/></STPDA_ADT_VARIABLE_HIERARCHY></HIERARCHIES>"));
    }

    #[test]
    fn variables() {
        assert!(variables_xml(&[]).is_none());
        let x = variables_xml(&[rec("LS-A", "1 ")]).unwrap();
        assert!(x.contains("<DATA><STPDA_ADT_VARIABLE><ID>LS-A</ID><NAME>LS-A</NAME>"));
        assert!(x.contains("<KIND>unknown</KIND>"));
    }

    /// Texts as records hold them: empty, plain, or with what escaping replaces.
    fn text() -> impl Strategy<Value = String> {
        "(|[A-Z0-9_ -]{1,8}|[a<>&\"'\t\n\r\u{1}\u{7f}\u{e9}\u{FFFE}\u{FFFF}]{1,5})"
    }

    fn record() -> impl Strategy<Value = VarRecord> {
        (
            proptest::collection::vec(text(), 14),
            any::<bool>(),
            any::<u32>(),
            any::<u32>(),
            any::<i32>(),
        )
            .prop_map(|(t, read_only, length, table_lines, level)| {
                let t = |i: usize| t.get(i).cloned().unwrap_or_default();
                VarRecord {
                    id: t(0),
                    name: t(1),
                    declared_type_name: t(2),
                    actual_type_name: t(3),
                    kind: t(4),
                    instantiation_kind: t(5),
                    access_kind: t(6),
                    meta_type: t(7),
                    parameter_kind: t(8),
                    value: t(9),
                    hex_value: t(10),
                    read_only,
                    technical_type: t(11),
                    length,
                    table_lines,
                    inheritance_level: level,
                    inheritance_class: t(12),
                }
            })
    }

    fn parent() -> impl Strategy<Value = ParentChildren> {
        let row = (text(), text(), proptest::option::of(record())).prop_map(
            |(child_id, child_name, record)| ChildRow {
                child_id,
                child_name,
                record,
            },
        );
        (
            text(),
            proptest::option::of(proptest::collection::vec(row, 0..4)),
        )
            .prop_map(|(parent, rows)| ParentChildren { parent, rows })
    }

    proptest! {
        #[test]
        fn child_variables_written_as_read_are_the_documents_of_built_records(
            answers in proptest::collection::vec(parent(), 0..5)
        ) {
            prop_assert_eq!(
                child_variables_xml(&answers),
                child_variables_by_records(&answers)
            );
        }

        #[test]
        fn variables_are_written_as_by_elements(
            records in proptest::collection::vec(record(), 0..4)
        ) {
            let want = (!records.is_empty()).then(|| {
                let mut s = String::new();
                s.push_str(XML_DECL);
                s.push_str(ASX_OPEN);
                for r in &records {
                    record_by_elems(&mut s, r, &r.id, "unknown");
                }
                s.push_str(ASX_CLOSE);
                s
            });
            prop_assert_eq!(variables_xml(&records), want);
        }
    }
}
