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

use std::borrow::Cow;

use crate::asx_plain_record::{self, Field, Fields, Kind};
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

/// A record's elements in the order systems write them, with their indices in
/// [`variable_field`]: what [`PlainVariable`] guesses.
const WRITTEN_ORDER: [(&str, usize); 20] = [
    ("ID", 0),
    ("NAME", 1),
    ("DECLARED_TYPE_NAME", 2),
    ("ACTUAL_TYPE_NAME", 3),
    ("KIND", 4),
    ("INSTANTIATION_KIND", 5),
    ("ACCESS_KIND", 6),
    ("META_TYPE", 7),
    ("PARAMETER_KIND", 8),
    ("VALUE", 9),
    ("HEX_VALUE", 10),
    ("READ_ONLY", 11),
    ("TECHNICAL_TYPE", 12),
    ("LENGTH", 13),
    ("TABLE_BODY", 19),
    ("TABLE_LINES", 14),
    ("IS_VALUE_INCOMPLETE", 15),
    ("IS_EXCEPTION", 16),
    ("INHERITANCE_LEVEL", 17),
    ("INHERITANCE_CLASS", 18),
];

fn flag(s: &str) -> bool {
    matches!(s.trim(), "true" | "X")
}

fn number(s: &str) -> u32 {
    s.trim().parse::<u32>().unwrap_or(0)
}

/// Sets the field of index `i` (see [`variable_field`]) of `v` from its element's text.
fn set_field(v: &mut Variable, i: usize, text: &str) {
    let text_of = || CompactString::from(text);
    match i {
        0 => v.id = text_of(),
        1 => v.name = text_of(),
        2 => v.declared_type_name = text_of(),
        3 => v.actual_type_name = text_of(),
        4 => v.kind = text_of(),
        5 => v.instantiation_kind = text_of(),
        6 => v.access_kind = text_of(),
        7 => v.meta_type = text_of(),
        8 => v.parameter_kind = text_of(),
        9 => v.value = text_of(),
        10 => v.hex_value = text_of(),
        11 => v.read_only = flag(text),
        12 => v.technical_type = text_of(),
        13 => v.length = number(text),
        14 => v.table_lines = number(text),
        15 => v.is_value_incomplete = flag(text),
        16 => v.is_exception = flag(text),
        17 => v.inheritance_level = text.trim().parse().ok(),
        18 => v.inheritance_class = text_of(),
        _ => v.table_body = text_of(),
    }
}

/// A record of the plain shape read straight into a [`Variable`], with the outcome of its
/// events: the first element of each known name is the field, later ones are ignored,
/// unknown ones are kept in `unmapped`.
#[derive(Default)]
struct PlainVariable {
    v: Variable,
    seen: u32,
    /// Where in [`WRITTEN_ORDER`] the next element probably is.
    next: usize,
}

impl<'a> Fields<'a> for PlainVariable {
    fn guess(&self) -> Option<&'static str> {
        WRITTEN_ORDER.get(self.next).map(|(name, _)| *name)
    }

    fn field(&mut self, name: &'a str, text: Option<Cow<'a, str>>, guessed: bool) {
        let i = match WRITTEN_ORDER.get(self.next) {
            Some((_, i)) if guessed => *i,
            _ => match variable_field(name.as_bytes()) {
                Some(i) => i,
                None => {
                    let text = text.map(Cow::into_owned).unwrap_or_default();
                    self.v.unmapped.push((name.to_string(), text));
                    return;
                }
            },
        };
        if self.seen & (1 << i) != 0 {
            return;
        }
        self.seen |= 1 << i;
        self.next = if guessed {
            self.next + 1
        } else {
            WRITTEN_ORDER
                .iter()
                .position(|(_, f)| *f == i)
                .map_or(self.next, |k| k + 1)
        };
        // An empty element leaves the field as it is without one (empty, 0, false, `None`).
        if let Some(text) = text {
            set_field(&mut self.v, i, &text);
        }
    }
}

/// A hierarchy edge of the plain shape read straight into a [`Hierarchy`]: the first element
/// of each of its three names counts, anything else is ignored (as its events do).
#[derive(Default)]
struct PlainEdge {
    edge: Hierarchy,
    seen: u8,
}

impl<'a> Fields<'a> for PlainEdge {
    fn guess(&self) -> Option<&'static str> {
        HIERARCHY_FIELDS
            .get(self.seen.count_ones() as usize)
            .copied()
    }

    fn field(&mut self, name: &'a str, text: Option<Cow<'a, str>>, guessed: bool) {
        let i = if guessed {
            Some(self.seen.count_ones() as usize)
        } else {
            HIERARCHY_FIELDS.iter().position(|f| *f == name)
        };
        let Some(i) = i else {
            return;
        };
        if self.seen & (1 << i) != 0 {
            return;
        }
        self.seen |= 1 << i;
        let text = CompactString::from(text.as_deref().unwrap_or_default());
        match i {
            0 => self.edge.parent_id = text,
            1 => self.edge.child_id = text,
            _ => self.edge.child_name = text,
        }
    }
}

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
        let mut v = Variable {
            unmapped: std::mem::take(&mut self.unmapped),
            ..Variable::default()
        };
        for (i, f) in self.fields.iter_mut().enumerate() {
            set_field(&mut v, i, f);
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

    /// The record of the plain shape at the start of `rest`, if there is one: read with the
    /// same outcome as its events, and the bytes it spans.
    fn plain_record(&mut self, rest: &str) -> Result<Option<usize>, CodecError> {
        let Some(kind) = asx_plain_record::kind_at(rest) else {
            return Ok(None);
        };
        // Where the events would open a record or an edge, it is read straight into one.
        let parent = self.open.last().copied();
        let record_here = match parent {
            Some(At::Variables) => true,
            Some(At::Data) => self.layout == Layout::Flat,
            _ => false,
        };
        if self.open.len() < MAX_DEPTH {
            if kind == Kind::Variable && record_here {
                let mut record = PlainVariable::default();
                let Some((_, n)) = asx_plain_record::scan(rest, &mut record) else {
                    return Ok(None);
                };
                self.out.variables.push(record.v);
                return Ok(Some(n));
            }
            if kind == Kind::Edge && parent == Some(At::Hierarchies) {
                let mut edge = PlainEdge::default();
                let Some((_, n)) = asx_plain_record::scan(rest, &mut edge) else {
                    return Ok(None);
                };
                self.out.hierarchies.push(edge.edge);
                return Ok(Some(n));
            }
        }
        // Anywhere else: the same steps as its events, element by element.
        let mut fields: Vec<Field<'_>> = Vec::new();
        let Some((_, n)) = asx_plain_record::scan(rest, &mut fields) else {
            return Ok(None);
        };
        self.open_named(kind.element().as_bytes())?;
        for f in &fields {
            self.open_named(f.name.as_bytes())?;
            if let Some(text) = f.text.as_deref()
                && !text.is_empty()
            {
                self.text(text)?;
            }
            self.close()?;
        }
        self.close()?;
        Ok(Some(n))
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
        // Room for more records than a document of this size has (a record and its edge
        // take about 900 bytes as systems write them), so the vectors do not grow by copying
        // a page of records; what is not used is never touched.
        out: ChildVariables {
            variables: Vec::with_capacity(body.len() / 600),
            hierarchies: Vec::with_capacity(body.len() / 600),
        },
    };
    // Right after a tag the reader's input starts where the next text or tag does: records
    // of the plain shape are read from there without events (the reader is moved past
    // them; `skipped` keeps the byte positions of errors right).
    let mut after_tag = false;
    let mut skipped = 0;
    loop {
        if after_tag {
            let mut rest: &[u8] = reader.get_ref();
            while let Some(n) = match body.get(body.len().saturating_sub(rest.len())..) {
                Some(text) => r.plain_record(text)?,
                None => None,
            } {
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
        // The guessed order names every field once, with its index.
        for (name, i) in WRITTEN_ORDER {
            assert_eq!(variable_field(name.as_bytes()), Some(i), "{name}");
        }
        let mut indices: Vec<usize> = WRITTEN_ORDER.iter().map(|(_, i)| *i).collect();
        indices.sort_unstable();
        assert_eq!(indices, (0..VARIABLE_FIELDS.len()).collect::<Vec<_>>());
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
