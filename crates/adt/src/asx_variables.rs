//! The variable documents (`getChildVariables`, `getVariables`, §9.1–§9.3) read straight from
//! the XML events into [`Variable`]s and [`Hierarchy`]s, without building an element tree:
//! a page of table rows is thousands of records (a megabyte for a hundred rows of ten
//! columns), and the tree cost several times the reading. What is accepted is exactly what
//! the tree reading accepts (`codec.rs` keeps it as the reference for the tests): the first
//! `values/DATA` of an `abap` root, there the first `VARIABLES` and `HIERARCHIES` (or, for
//! `getVariables`, the records right under `DATA`); in a record the first element of each
//! known name, the others kept as `unmapped`; unknown elements anywhere, any order.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use crate::asx_plain_record::{self, Field, Kind};
use crate::codec::CodecError;
use crate::types::{ChildVariables, CompactString, Hierarchy, Variable};

/// Deeper documents are refused rather than risking anything (as the element tree does).
const MAX_DEPTH: usize = 128;

/// The `STPDA_ADT_VARIABLE` elements with a field in [`Variable`], in field order (the
/// reading matches names with [`variable_field`]; the tree reading of the tests uses this).
#[cfg(test)]
pub(crate) const VARIABLE_FIELDS: [&str; 20] = [
    "ID",
    "NAME",
    "DECLARED_TYPE_NAME",
    "ACTUAL_TYPE_NAME",
    "KIND",
    "INSTANTIATION_KIND",
    "ACCESS_KIND",
    "META_TYPE",
    "PARAMETER_KIND",
    "VALUE",
    "HEX_VALUE",
    "READ_ONLY",
    "TECHNICAL_TYPE",
    "LENGTH",
    "TABLE_LINES",
    "IS_VALUE_INCOMPLETE",
    "IS_EXCEPTION",
    "INHERITANCE_LEVEL",
    "INHERITANCE_CLASS",
    "TABLE_BODY",
];

const HIERARCHY_FIELDS: [&str; 3] = ["PARENT_ID", "CHILD_ID", "CHILD_NAME"];

/// The index in [`VARIABLE_FIELDS`] of an element name (a `match` the compiler turns into a
/// few comparisons, not nineteen: a page of rows has twenty thousand field elements).
fn variable_field(name: &[u8]) -> Option<usize> {
    Some(match name {
        b"ID" => 0,
        b"NAME" => 1,
        b"DECLARED_TYPE_NAME" => 2,
        b"ACTUAL_TYPE_NAME" => 3,
        b"KIND" => 4,
        b"INSTANTIATION_KIND" => 5,
        b"ACCESS_KIND" => 6,
        b"META_TYPE" => 7,
        b"PARAMETER_KIND" => 8,
        b"VALUE" => 9,
        b"HEX_VALUE" => 10,
        b"READ_ONLY" => 11,
        b"TECHNICAL_TYPE" => 12,
        b"LENGTH" => 13,
        b"TABLE_LINES" => 14,
        b"IS_VALUE_INCOMPLETE" => 15,
        b"IS_EXCEPTION" => 16,
        b"INHERITANCE_LEVEL" => 17,
        b"INHERITANCE_CLASS" => 18,
        b"TABLE_BODY" => 19,
        _ => return None,
    })
}

/// Which document: records under `DATA/VARIABLES` with `DATA/HIERARCHIES`
/// (`getChildVariables`), or records right under `DATA` (`getVariables`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    Children,
    Flat,
}

/// Where an open element is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    Root,
    Values,
    Data,
    Variables,
    Hierarchies,
    Record,
    Edge,
    /// A known field of the record being read (its index, see [`variable_field`]).
    Field(usize),
    /// An element of the record without a field: its text goes to `unmapped`.
    Unmapped,
    /// A known field of the edge being read (index into [`HIERARCHY_FIELDS`]).
    EdgeField(usize),
    /// Anything else, and everything inside it.
    Ignored,
}

fn local_name(qname: &[u8]) -> &[u8] {
    match qname.iter().rposition(|b| *b == b':') {
        Some(i) => &qname[i + 1..],
        None => qname,
    }
}

/// The record being read: field texts, which fields were seen (the first one counts), and
/// the elements without a field. The field buffers are reused from record to record (the
/// record gets its own copies, most of them inline).
#[derive(Default)]
struct Record {
    fields: [String; 20],
    seen: u32,
    unmapped: Vec<(String, String)>,
}

impl Record {
    fn finish(&mut self) -> Variable {
        let flag = |s: &str| matches!(s.trim(), "true" | "X");
        let number = |s: &str| s.trim().parse::<u32>().unwrap_or(0);
        let read_only = flag(&self.fields[11]);
        let length = number(&self.fields[13]);
        let table_lines = number(&self.fields[14]);
        let incomplete = flag(&self.fields[15]);
        let exception = flag(&self.fields[16]);
        let level = self.fields[17].trim().parse().ok();
        let f = &self.fields;
        let take = |i: usize| CompactString::from(f[i].as_str());
        let v = Variable {
            id: take(0),
            name: take(1),
            declared_type_name: take(2),
            actual_type_name: take(3),
            kind: take(4),
            instantiation_kind: take(5),
            access_kind: take(6),
            meta_type: take(7),
            parameter_kind: take(8),
            value: take(9),
            hex_value: take(10),
            read_only,
            technical_type: take(12),
            length,
            table_lines,
            is_value_incomplete: incomplete,
            is_exception: exception,
            inheritance_level: level,
            inheritance_class: take(18),
            table_body: take(19),
            unmapped: std::mem::take(&mut self.unmapped),
        };
        for f in &mut self.fields {
            f.clear();
        }
        self.seen = 0;
        v
    }
}

struct Reading {
    layout: Layout,
    open: Vec<At>,
    root_done: bool,
    values_seen: bool,
    data_seen: bool,
    variables_seen: bool,
    hierarchies_seen: bool,
    record: Record,
    /// The edge's field buffers, reused as the record's.
    edge: [String; 3],
    edge_seen: u8,
    out: ChildVariables,
}

impl Reading {
    /// What a new element named `name` is, inside the innermost open element.
    fn classify(&mut self, name: &[u8]) -> Result<At, CodecError> {
        let Some(parent) = self.open.last().copied() else {
            if self.root_done {
                return Err(CodecError("more than one root element".into()));
            }
            if name != b"abap" {
                return Err(CodecError(format!(
                    "expected a abap document, got <{}>",
                    String::from_utf8_lossy(name)
                )));
            }
            return Ok(At::Root);
        };
        Ok(match parent {
            At::Root if name == b"values" && !self.values_seen => {
                self.values_seen = true;
                At::Values
            }
            At::Values if name == b"DATA" && !self.data_seen => {
                self.data_seen = true;
                At::Data
            }
            At::Data if self.layout == Layout::Children => {
                if name == b"VARIABLES" && !self.variables_seen {
                    self.variables_seen = true;
                    At::Variables
                } else if name == b"HIERARCHIES" && !self.hierarchies_seen {
                    self.hierarchies_seen = true;
                    At::Hierarchies
                } else {
                    At::Ignored
                }
            }
            At::Data if name == b"STPDA_ADT_VARIABLE" => At::Record,
            At::Variables if name == b"STPDA_ADT_VARIABLE" => At::Record,
            At::Hierarchies if name == b"STPDA_ADT_VARIABLE_HIERARCHY" => At::Edge,
            At::Record => self.record_element(name),
            At::Edge => match HIERARCHY_FIELDS.iter().position(|f| f.as_bytes() == name) {
                Some(i) if self.edge_seen & (1 << i) == 0 => {
                    self.edge_seen |= 1 << i;
                    At::EdgeField(i)
                }
                _ => At::Ignored,
            },
            _ => At::Ignored,
        })
    }

    /// What an element named `name` right inside a record is.
    fn record_element(&mut self, name: &[u8]) -> At {
        match variable_field(name) {
            Some(i) if self.record.seen & (1 << i) == 0 => {
                self.record.seen |= 1 << i;
                At::Field(i)
            }
            Some(_) => At::Ignored,
            None => {
                self.record
                    .unmapped
                    .push((String::from_utf8_lossy(name).into_owned(), String::new()));
                At::Unmapped
            }
        }
    }

    fn open(&mut self, e: &BytesStart<'_>) -> Result<(), CodecError> {
        if self.open.len() >= MAX_DEPTH {
            return Err(CodecError("XML nested too deeply".into()));
        }
        // Attributes are not used, but a broken one makes the document malformed (the
        // records' elements have none: nothing to look at).
        if !e.attributes_raw().iter().all(u8::is_ascii_whitespace) {
            for a in e.attributes().with_checks(false) {
                let a = a.map_err(|err| CodecError(format!("bad attribute: {err}")))?;
                a.unescape_value()
                    .map_err(|err| CodecError(format!("bad attribute value: {err}")))?;
            }
        }
        self.open_named(local_name(e.name().as_ref()))
    }

    /// An element without attributes opens.
    fn open_named(&mut self, name: &[u8]) -> Result<(), CodecError> {
        if self.open.len() >= MAX_DEPTH {
            return Err(CodecError("XML nested too deeply".into()));
        }
        let at = self.classify(name)?;
        self.open.push(at);
        Ok(())
    }

    /// A record read by [`asx_plain_record::scan`]: the same steps as its events.
    fn plain_record(&mut self, kind: Kind, fields: &[Field<'_>]) -> Result<(), CodecError> {
        self.open_named(kind.element().as_bytes())?;
        if self.open.last() == Some(&At::Record) {
            // Each element of a record is a field (or unmapped, or ignored) with text and
            // nothing inside: what opening it, its text and closing it do, without the stack
            // (a record is shallow: no depth limit to meet).
            for f in fields {
                let at = self.record_element(f.name.as_bytes());
                if let Some(text) = f.text.as_deref() {
                    self.text_in(at, text);
                }
            }
            return self.close();
        }
        for f in fields {
            self.open_named(f.name.as_bytes())?;
            if let Some(text) = f.text.as_deref()
                && !text.is_empty()
            {
                self.text(text)?;
            }
            self.close()?;
        }
        self.close()
    }

    fn close(&mut self) -> Result<(), CodecError> {
        let at = self
            .open
            .pop()
            .ok_or_else(|| CodecError("end tag without start tag".into()))?;
        match at {
            At::Root => self.root_done = true,
            At::Record => {
                let v = self.record.finish();
                self.out.variables.push(v);
            }
            At::Edge => {
                let [parent_id, child_id, child_name] = &mut self.edge;
                self.out.hierarchies.push(Hierarchy {
                    parent_id: CompactString::from(parent_id.as_str()),
                    child_id: CompactString::from(child_id.as_str()),
                    child_name: CompactString::from(child_name.as_str()),
                });
                for f in &mut self.edge {
                    f.clear();
                }
                self.edge_seen = 0;
            }
            _ => {}
        }
        Ok(())
    }

    /// Character data directly inside the innermost open element.
    fn text(&mut self, text: &str) -> Result<(), CodecError> {
        match self.open.last() {
            Some(at) => self.text_in(*at, text),
            None if text.trim().is_empty() => {}
            None => return Err(CodecError("text outside the root element".into())),
        }
        Ok(())
    }

    /// Character data directly inside an element that is `at`.
    fn text_in(&mut self, at: At, text: &str) {
        match at {
            At::Field(i) => {
                if let Some(f) = self.record.fields.get_mut(i) {
                    f.push_str(text);
                }
            }
            At::Unmapped => {
                if let Some((_, t)) = self.record.unmapped.last_mut() {
                    t.push_str(text);
                }
            }
            At::EdgeField(i) => {
                if let Some(f) = self.edge.get_mut(i) {
                    f.push_str(text);
                }
            }
            _ => {}
        }
    }
}

/// Reads a variables document (not empty; the caller answers a zero-byte body itself).
pub(crate) fn read(body: &str, layout: Layout) -> Result<ChildVariables, CodecError> {
    let mut reader = Reader::from_str(body);
    let mut r = Reading {
        layout,
        open: Vec::new(),
        root_done: false,
        values_seen: false,
        data_seen: false,
        variables_seen: false,
        hierarchies_seen: false,
        record: Record::default(),
        edge: Default::default(),
        edge_seen: 0,
        out: ChildVariables::default(),
    };
    // Right after a tag the reader's input starts where the next text or tag does: records
    // of the plain shape are read from there without events (the reader is moved past
    // them; `skipped` keeps the byte positions of errors right).
    let mut after_tag = false;
    let mut skipped = 0;
    let mut fields = Vec::new();
    loop {
        if after_tag {
            let mut rest: &[u8] = reader.get_ref();
            while let Some((kind, n)) = body
                .get(body.len().saturating_sub(rest.len())..)
                .and_then(|text| asx_plain_record::scan(text, &mut fields))
            {
                r.plain_record(kind, &fields)?;
                rest = rest.get(n..).unwrap_or_default();
                *reader.get_mut() = rest;
                skipped += n as u64;
            }
        }
        let event = reader.read_event().map_err(|e| {
            CodecError(format!(
                "malformed XML at byte {}: {e}",
                reader.buffer_position() + skipped
            ))
        })?;
        after_tag = matches!(event, Event::Start(_) | Event::Empty(_) | Event::End(_));
        match event {
            Event::Start(e) => r.open(&e)?,
            Event::Empty(e) => {
                r.open(&e)?;
                r.close()?;
            }
            Event::End(_) => r.close()?,
            Event::Text(t) => {
                let text = t
                    .decode()
                    .map_err(|e| CodecError(format!("undecodable text: {e}")))?;
                r.text(&text)?;
            }
            Event::CData(t) => {
                if !r.open.is_empty() {
                    r.text(&String::from_utf8_lossy(&t))?;
                }
            }
            Event::GeneralRef(g) => {
                let resolved = match g
                    .resolve_char_ref()
                    .map_err(|e| CodecError(format!("bad character reference: {e}")))?
                {
                    Some(c) => c.to_string(),
                    None => {
                        let name = String::from_utf8_lossy(&g).into_owned();
                        quick_xml::escape::resolve_predefined_entity(&name)
                            .ok_or_else(|| CodecError(format!("unknown entity &{name};")))?
                            .to_string()
                    }
                };
                if r.open.is_empty() {
                    return Err(CodecError("reference outside the root element".into()));
                }
                r.text(&resolved)?;
            }
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
        }
    }
    if !r.open.is_empty() {
        return Err(CodecError("document ends inside an element".into()));
    }
    if !r.root_done {
        return Err(CodecError("no root element".into()));
    }
    if !r.data_seen {
        return Err(CodecError("asXML document without values/DATA".into()));
    }
    Ok(r.out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::tree;
    use proptest::prelude::*;

    fn both_children(
        body: &str,
    ) -> (
        Result<ChildVariables, String>,
        Result<ChildVariables, String>,
    ) {
        (
            read(body, Layout::Children).map_err(|e| e.0),
            tree::parse_child_variables(body).map_err(|e| e.0),
        )
    }

    fn both_flat(body: &str) -> (Result<Vec<Variable>, String>, Result<Vec<Variable>, String>) {
        (
            read(body, Layout::Flat)
                .map(|c| c.variables)
                .map_err(|e| e.0),
            tree::parse_variables(body).map_err(|e| e.0),
        )
    }

    fn agree(body: &str) {
        let (a, b) = both_children(body);
        match (&a, &b) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{body}"),
            (Err(_), Err(_)) => {}
            _ => panic!("the readings disagree on {body}: {a:?} / {b:?}"),
        }
        let (a, b) = both_flat(body);
        match (&a, &b) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{body}"),
            (Err(_), Err(_)) => {}
            _ => panic!("the readings disagree on {body}: {a:?} / {b:?}"),
        }
    }

    #[test]
    fn field_names_match_their_indices() {
        for (i, name) in VARIABLE_FIELDS.iter().enumerate() {
            assert_eq!(variable_field(name.as_bytes()), Some(i), "{name}");
        }
        assert_eq!(variable_field(b"STRUC_COMPONENT_GROUPS"), None);
        assert_eq!(variable_field(b"id"), None);
    }

    #[test]
    fn the_captured_documents_read_as_the_tree_reads_them() {
        for f in [
            include_str!("../tests/fixtures/child_variables.xml"),
            include_str!("../tests/fixtures/variables.xml"),
            include_str!("../tests/fixtures/variables_object.xml"),
        ] {
            agree(f);
        }
    }

    #[test]
    fn odd_documents_read_as_the_tree_reads_them() {
        let head = "<asx:abap xmlns:asx=\"x\"><asx:values><DATA>";
        let tail = "</DATA></asx:values></asx:abap>";
        for inner in [
            "",
            "<VARIABLES/>",
            "<VARIABLES><STPDA_ADT_VARIABLE/></VARIABLES><HIERARCHIES><STPDA_ADT_VARIABLE_HIERARCHY/></HIERARCHIES>",
            "<VARIABLES><STPDA_ADT_VARIABLE><ID>A</ID><ID>B</ID><VALUE>1 &amp; 2&#65;<X>no</X> </VALUE><TABLE_BODY>t<Y>u</Y></TABLE_BODY><NEW>n</NEW><READ_ONLY>X</READ_ONLY><LENGTH> 7 </LENGTH><INHERITANCE_LEVEL>-1</INHERITANCE_LEVEL></STPDA_ADT_VARIABLE></VARIABLES><VARIABLES><STPDA_ADT_VARIABLE><ID>second</ID></STPDA_ADT_VARIABLE></VARIABLES>",
            "<STPDA_ADT_VARIABLE><ID>flat</ID><VALUE><![CDATA[<raw>]]></VALUE></STPDA_ADT_VARIABLE><Z><STPDA_ADT_VARIABLE><ID>deeper</ID></STPDA_ADT_VARIABLE></Z>",
            "<HIERARCHIES><STPDA_ADT_VARIABLE_HIERARCHY><PARENT_ID>@ROOT</PARENT_ID><CHILD_ID>@LOCALS</CHILD_ID><CHILD_NAME>Locals</CHILD_NAME><CHILD_ID>x</CHILD_ID></STPDA_ADT_VARIABLE_HIERARCHY></HIERARCHIES>",
        ] {
            agree(&format!("{head}{inner}{tail}"));
        }
        for whole in [
            "<abap/>",
            "<abap><values/></abap>",
            "<abap><values><DATA/></values><values><DATA><STPDA_ADT_VARIABLE/></DATA></values></abap>",
            "<other><values><DATA/></values></other>",
            "<abap><values><DATA></values></abap>",
            "<abap/><abap/>",
            "text<abap/>",
            "<abap><values><DATA>&bogus;</DATA></values></abap>",
            "<abap a=\"&bogus;\"><values><DATA/></values></abap>",
        ] {
            agree(whole);
        }
    }

    fn name() -> impl Strategy<Value = &'static str> {
        prop_oneof![
            Just("VARIABLES"),
            Just("HIERARCHIES"),
            Just("STPDA_ADT_VARIABLE"),
            Just("STPDA_ADT_VARIABLE_HIERARCHY"),
            Just("ID"),
            Just("VALUE"),
            Just("LENGTH"),
            Just("READ_ONLY"),
            Just("TABLE_LINES"),
            Just("INHERITANCE_LEVEL"),
            Just("CHILD_ID"),
            Just("PARENT_ID"),
            Just("TABLE_BODY"),
            Just("x:OTHER"),
        ]
    }

    /// Well-formed content: text, references, CDATA and elements of the names the readers
    /// care about, nested a few levels.
    fn content() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("x".to_string()),
            Just(" 12 ".to_string()),
            Just("X".to_string()),
            Just("&lt;".to_string()),
            Just("&#66;".to_string()),
            Just("<![CDATA[c]]>".to_string()),
            Just("-1".to_string()),
            name().prop_map(|n| format!("<{n}/>")),
            // Attributes: ignored when well-formed, an error when not.
            name().prop_map(|n| format!("<{n} a=\"&lt;\">7</{n}>")),
            name().prop_map(|n| format!("<{n} a=\"&bogus;\"/>")),
            name().prop_map(|n| format!("<{n}  >2</{n} >")),
        ];
        leaf.prop_recursive(5, 64, 6, |inner| {
            (name(), proptest::collection::vec(inner, 0..6))
                .prop_map(|(n, kids)| format!("<{n}>{}</{n}>", kids.concat()))
        })
    }

    /// A record as systems write it, or close to it: known and unknown fields (some twice),
    /// texts with entities, and now and then something the quick look leaves to the events.
    fn plain_record() -> impl Strategy<Value = String> {
        plain("STPDA_ADT_VARIABLE")
    }

    /// A hierarchy edge the same way (with a variable's fields now and then).
    fn plain_edge() -> impl Strategy<Value = String> {
        plain("STPDA_ADT_VARIABLE_HIERARCHY")
    }

    /// A `record` element of the plain shape, or close to it.
    fn plain(record: &'static str) -> impl Strategy<Value = String> {
        let field = prop_oneof![
            Just("PARENT_ID"),
            Just("CHILD_ID"),
            Just("CHILD_NAME"),
            Just("STPDA_ADT_VARIABLE_HIERARCHY"),
            Just("ID"),
            Just("NAME"),
            Just("VALUE"),
            Just("LENGTH"),
            Just("READ_ONLY"),
            Just("TABLE_LINES"),
            Just("INHERITANCE_LEVEL"),
            Just("IS_EXCEPTION"),
            Just("TABLE_BODY"),
            Just("OTHER_1"),
            Just("STPDA_ADT_VARIABLE"),
        ];
        let text = prop_oneof![
            Just(""),
            Just("LT[1]-ID"),
            Just(" 12 "),
            Just("X"),
            Just("-1"),
            Just("a &amp; b &lt;c&gt; &quot;d&quot; &apos;"),
            Just("]]> >"),
            Just("&#65;"),
            Just("&bogus;"),
            Just("a & b"),
            Just("\r\n"),
            Just("<![CDATA[c]]>"),
        ];
        let element = (field, text, 0..8u8).prop_map(|(f, t, odd)| match odd {
            0 => format!("<{f}/>"),
            1 => format!("<{f} a=\"1\">{t}</{f}>"),
            2 => format!(" <{f}>{t}</{f} >"),
            _ => format!("<{f}>{t}</{f}>"),
        });
        proptest::collection::vec(element, 0..8)
            .prop_map(move |fields| format!("<{record}>{}</{record}>", fields.concat()))
    }

    proptest! {
        // Pages of records read the same through the quick look as through the tree, in
        // both layouts, also when a record is broken off (the rest of the document is then
        // malformed for both).
        #[test]
        fn plain_records_read_as_the_tree_reads_them(
            records in proptest::collection::vec(plain_record(), 0..6),
            edges in proptest::collection::vec(plain_edge(), 0..4),
            cut in 0usize..2000,
        ) {
            let records = records.concat();
            let edges = edges.concat();
            let children = format!(
                "<?xml version=\"1.0\"?><asx:abap xmlns:asx=\"x\" version=\"1.0\"><asx:values><DATA><VARIABLES>{records}</VARIABLES><HIERARCHIES><STPDA_ADT_VARIABLE_HIERARCHY><PARENT_ID>P</PARENT_ID><CHILD_ID>LT[1]-ID</CHILD_ID><CHILD_NAME/></STPDA_ADT_VARIABLE_HIERARCHY>{edges}</HIERARCHIES></DATA></asx:values></asx:abap>"
            );
            agree(&children);
            let flat = format!("<asx:abap><asx:values><DATA>{records}{edges}</DATA></asx:values></asx:abap>");
            agree(&flat);
            // Each kind where the other belongs: read as the events read them there.
            let swapped = format!(
                "<asx:abap><asx:values><DATA><VARIABLES>{edges}{records}</VARIABLES><HIERARCHIES>{records}{edges}</HIERARCHIES></DATA></asx:values></asx:abap>"
            );
            agree(&swapped);
            // A blank answer is the caller's (a zero-byte answer), not a document.
            let at = cut.min(children.len());
            if let Some(head) = children.get(..at).filter(|h| !h.trim().is_empty()) {
                agree(head);
            }
        }

        // Documents put together from the pieces the readers care about, in any order and
        // nesting, read the same both ways.
        #[test]
        fn generated_documents_read_as_the_tree_reads_them(
            parts in proptest::collection::vec(content(), 0..6)
        ) {
            let body = format!(
                "<asx:abap xmlns:asx=\"x\"><asx:values><DATA>{}</DATA></asx:values></asx:abap>",
                parts.concat()
            );
            agree(&body);
        }
    }
}
