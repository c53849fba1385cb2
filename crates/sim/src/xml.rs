//! XML helpers: escaping for the writers, and a small bounded tree reader (quick-xml) for
//! request bodies. Readers never panic; they return [`XmlError`].

use quick_xml::Reader;
use quick_xml::events::Event;

/// Maximum element nesting accepted in request bodies: the same bound as crates/adt's
/// reader (no ADT document nests more than about ten deep; the bound keeps the recursive
/// walks, `Node::descendants` and dropping a tree, far from the stack's limit).
const MAX_DEPTH: usize = 128;

/// A request body that is not the XML we expect.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct XmlError(pub String);

/// Escape text for element content or attribute values.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    push_esc(&mut out, s);
    out
}

/// Appends `s` escaped. As crates/adt's writer, except `'`: attributes are written in double
/// quotes, where `'` is plain text, and the simulator's tests compare its documents with
/// texts quoted from captures (`Attribute 'msgTy' expected`); the client escapes it, and each
/// side's reader takes both forms.
///
/// Nearly every text is plain throughout (hex digits, numbers, names, values; a page of table
/// rows has tens of thousands): that is found a word of eight bytes at a time and the text
/// copied in one piece. Inlined: the check is, where the text is written; the escaping
/// byte by byte is not.
#[inline]
pub(crate) fn push_esc(out: &mut String, s: &str) {
    if is_plain(s.as_bytes()) {
        out.push_str(s);
    } else {
        push_esc_bytes(out, s);
    }
}

/// [`push_esc`] byte by byte: runs of plain characters are copied whole.
///
/// Looks at bytes, not characters: everything replaced is ASCII except U+FFFE and U+FFFF
/// (`EF BF BE`, `EF BF BF` in UTF-8), so a replacement always starts at a character
/// boundary, and plain text is passed over without decoding it.
#[inline(never)]
fn push_esc_bytes(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    let mut plain = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if !SPECIAL[b as usize] {
            i += 1;
            continue;
        }
        let (replacement, width) = match b {
            b'&' => ("&amp;", 1),
            b'<' => ("&lt;", 1),
            b'>' => ("&gt;", 1),
            b'"' => ("&quot;", 1),
            b'\t' => ("&#9;", 1),
            b'\n' => ("&#10;", 1),
            b'\r' => ("&#13;", 1),
            // Not representable in XML 1.0: the other control characters, U+FFFE, U+FFFF.
            0..=0x1f => ("\u{FFFD}", 1),
            _ if bytes.get(i + 1) == Some(&0xBF)
                && matches!(bytes.get(i + 2), Some(0xBE | 0xBF)) =>
            {
                ("\u{FFFD}", 3)
            }
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(s.get(plain..i).unwrap_or_default());
        out.push_str(replacement);
        i += width;
        plain = i;
    }
    out.push_str(s.get(plain..).unwrap_or_default());
}

const ONES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGH: u64 = u64::from_le_bytes([0x80; 8]);

/// Whether `bytes` are ASCII without a control character or `& < > "`: what [`push_esc`]
/// copies as it is without looking closer (non-ASCII texts are left to the bytes: only U+FFFE
/// and U+FFFF among them are replaced). Looks at whole words, the last one overlapping the
/// one before; a text shorter than a word is read as one, filled up with blanks.
fn is_plain(bytes: &[u8]) -> bool {
    let Some(last) = bytes.len().checked_sub(8) else {
        return plain_word(short_word(bytes));
    };
    bytes.chunks_exact(8).all(|w| plain_word(word(w)))
        && plain_word(word(bytes.get(last..).unwrap_or_default()))
}

/// Eight bytes as a word (fewer or more: zero, which is not plain).
fn word(bytes: &[u8]) -> u64 {
    <[u8; 8]>::try_from(bytes).map_or(0, u64::from_le_bytes)
}

/// A text of fewer than eight bytes as a word: read in two overlapping halves, the rest blanks.
fn short_word(bytes: &[u8]) -> u64 {
    const BLANKS: u64 = ONES * 0x20;
    let n = bytes.len();
    let two = |at: usize| {
        bytes
            .get(at..at + 2)
            .and_then(|b| <[u8; 2]>::try_from(b).ok())
            .map_or(0, |b| u64::from(u16::from_le_bytes(b)))
    };
    let four = |at: usize| {
        bytes
            .get(at..at + 4)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map_or(0, |b| u64::from(u32::from_le_bytes(b)))
    };
    match n {
        0 => BLANKS,
        1 => BLANKS << 8 | bytes.first().map_or(0, |&b| u64::from(b)),
        2 | 3 => BLANKS << 32 | two(n - 2) << 16 | two(0),
        _ => four(n - 4) << 32 | four(0),
    }
}

/// Whether the eight bytes of `w` are ASCII without a control character or `& < > "`.
fn plain_word(w: u64) -> bool {
    // Each byte's high bit set where the byte of `w` is zero; exact as to whether any is.
    let has_zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGH;
    let has = |b: u8| has_zero(w ^ (ONES * u64::from(b)));
    // With no high bit set, subtracting 0x20 from each byte borrows only out of a byte below
    // 0x20 (a borrow passed on from there is one more hit, never a miss).
    let special = (w & HIGH)
        | (w.wrapping_sub(ONES * 0x20) & HIGH)
        | has(b'&')
        | has(b'<')
        | has(b'>')
        | has(b'"');
    special == 0
}

/// Bytes [`push_esc`] looks at: `& < > "`, the control characters, and 0xEF (the first
/// byte of U+FFFE and U+FFFF, and of other characters it leaves alone).
static SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'&' as usize] = true;
    t[b'<' as usize] = true;
    t[b'>' as usize] = true;
    t[b'"' as usize] = true;
    t[0xEF] = true;
    t
};

/// ` name="value"` with the value escaped.
pub(crate) fn attr(out: &mut String, name: &str, value: &str) {
    out.push(' ');
    out.push_str(name);
    out.push_str("=\"");
    push_esc(out, value);
    out.push('"');
}

/// `<NAME>value</NAME>`, or `<NAME/>` when the value is empty.
pub(crate) fn elem(out: &mut String, name: &str, value: &str) {
    if value.is_empty() {
        out.push('<');
        out.push_str(name);
        out.push_str("/>");
    } else {
        out.push('<');
        out.push_str(name);
        out.push('>');
        push_esc(out, value);
        out.push_str("</");
        out.push_str(name);
        out.push('>');
    }
}

/// An element's three tags, written out once (`<ID>`, `</ID>`, `<ID/>`): [`tagged`] copies
/// each as one piece, where [`elem`] copies the brackets and the name apart. Made by [`tags!`].
pub(crate) struct Tags {
    pub open: &'static str,
    pub close: &'static str,
    pub empty: &'static str,
}

/// The [`Tags`] of the element named by a literal.
macro_rules! tags {
    ($name:literal) => {
        $crate::xml::Tags {
            open: concat!("<", $name, ">"),
            close: concat!("</", $name, ">"),
            empty: concat!("<", $name, "/>"),
        }
    };
}
pub(crate) use tags;

/// [`elem`] by its [`Tags`]: `<NAME>value</NAME>`, or `<NAME/>` when the value is empty.
/// Inlined so that the tags, constants where it is called, are copied as such rather than by
/// a call to `memcpy` each (twenty elements in each of a page's thousand records).
#[inline(always)]
pub(crate) fn tagged(out: &mut String, tags: &Tags, value: &str) {
    if value.is_empty() {
        out.push_str(tags.empty);
    } else {
        out.push_str(tags.open);
        push_esc(out, value);
        out.push_str(tags.close);
    }
}

/// Appends the decimal text of `n`, as `Display` writes it, without the formatting machinery
/// (three numbers in each of a page's thousand records).
pub(crate) fn push_int(out: &mut String, n: i64) {
    out.push_str(itoa::Buffer::new().format(n));
}

pub(crate) const XML_DECL: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>";

/// An element of a parsed request body. Names are local names (prefix stripped).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Node {
    pub name: String,
    /// Attributes by local name; namespace declarations are dropped.
    pub attrs: Vec<(String, String)>,
    pub text: String,
    pub children: Vec<Node>,
}

impl Node {
    pub fn attr(&self, local: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == local)
            .map(|(_, v)| v.as_str())
    }

    /// All descendants (depth first, document order) with that local name.
    pub fn descendants<'a>(&'a self, local: &str, out: &mut Vec<&'a Node>) {
        for c in &self.children {
            if c.name == local {
                out.push(c);
            }
            c.descendants(local, out);
        }
    }
}

fn local(qname: &[u8]) -> String {
    let s = String::from_utf8_lossy(qname);
    match s.rsplit_once(':') {
        Some((_, l)) => l.to_string(),
        None => s.into_owned(),
    }
}

fn open_node(e: &quick_xml::events::BytesStart<'_>) -> Result<Node, XmlError> {
    let mut node = Node {
        name: local(e.name().as_ref()),
        ..Node::default()
    };
    for a in e.attributes() {
        let a = a.map_err(|err| XmlError(format!("bad attribute: {err}")))?;
        let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
        if key == "xmlns" || key.starts_with("xmlns:") {
            continue;
        }
        let value = a
            .unescape_value()
            .map_err(|err| XmlError(format!("bad attribute value: {err}")))?
            .into_owned();
        node.attrs.push((local(key.as_bytes()), value));
    }
    Ok(node)
}

/// The text a character reference or a predefined entity stands for.
fn resolve_ref(r: &quick_xml::events::BytesRef<'_>) -> Result<String, XmlError> {
    if let Some(c) = r
        .resolve_char_ref()
        .map_err(|e| XmlError(format!("bad character reference: {e}")))?
    {
        return Ok(c.to_string());
    }
    let name = String::from_utf8_lossy(r).into_owned();
    quick_xml::escape::resolve_predefined_entity(&name)
        .map(str::to_string)
        .ok_or_else(|| XmlError(format!("unknown entity &{name};")))
}

/// Parse a whole document into its root element.
pub(crate) fn parse_tree(body: &str) -> Result<Node, XmlError> {
    let mut reader = Reader::from_str(body);
    let mut stack: Vec<Node> = Vec::new();
    let mut root: Option<Node> = None;
    loop {
        let ev = reader
            .read_event()
            .map_err(|e| XmlError(format!("malformed XML: {e}")))?;
        match ev {
            Event::Start(e) => {
                if root.is_some() {
                    return Err(XmlError("content after the root element".into()));
                }
                if stack.len() >= MAX_DEPTH {
                    return Err(XmlError("XML nested too deeply".into()));
                }
                stack.push(open_node(&e)?);
            }
            Event::Empty(e) => {
                if root.is_some() {
                    return Err(XmlError("content after the root element".into()));
                }
                let node = open_node(&e)?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None => root = Some(node),
                }
            }
            Event::End(_) => {
                let node = stack
                    .pop()
                    .ok_or_else(|| XmlError("unbalanced end tag".into()))?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None => root = Some(node),
                }
            }
            Event::Text(t) => {
                if let Some(top) = stack.last_mut() {
                    let s = t.decode().map_err(|e| XmlError(format!("bad text: {e}")))?;
                    top.text.push_str(&s);
                } else if !t.iter().all(|b| b.is_ascii_whitespace()) {
                    return Err(XmlError("text outside the root element".into()));
                }
            }
            Event::CData(t) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&String::from_utf8_lossy(&t));
                }
            }
            Event::GeneralRef(r) => {
                let resolved = resolve_ref(&r)?;
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&resolved);
                } else {
                    return Err(XmlError("reference outside the root element".into()));
                }
            }
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
        }
    }
    if !stack.is_empty() {
        return Err(XmlError("unexpected end of XML".into()));
    }
    root.ok_or_else(|| XmlError("no root element".into()))
}

/// One `breakpoint` element of a `dbg:breakpoints` request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BreakpointSpec {
    pub kind: String,
    pub client_id: String,
    /// `adtcore:uri` (line breakpoints).
    pub uri: String,
    pub condition: String,
    pub validation_only: bool,
    /// All attributes by local name (statement, exceptionClass, msgId, …).
    pub attrs: Vec<(String, String)>,
}

impl BreakpointSpec {
    /// An attribute by local name.
    pub fn attr(&self, local: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == local)
            .map(|(_, v)| v.as_str())
    }
}

/// `syncScope` of a breakpoints request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyncScope {
    /// Replace all breakpoints of this user/IDE.
    Full,
    /// Replace the breakpoints of the referenced objects (their URIs).
    Partial(Vec<String>),
}

/// A parsed `dbg:breakpoints` request body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BreakpointsRequest {
    pub scope: String,
    pub debugging_mode: String,
    pub request_user: String,
    pub terminal_id: String,
    pub ide_id: String,
    pub system_debugging: bool,
    pub deactivated: bool,
    pub sync_scope: Option<SyncScope>,
    pub breakpoints: Vec<BreakpointSpec>,
}

/// Parse a `dbg:breakpoints` request (§4.1).
pub fn parse_breakpoints_request(body: &str) -> Result<BreakpointsRequest, XmlError> {
    let root = parse_tree(body)?;
    if root.name != "breakpoints" {
        return Err(XmlError(format!(
            "expected dbg:breakpoints, found {}",
            root.name
        )));
    }
    let get = |k: &str| root.attr(k).unwrap_or("").to_string();
    let mut req = BreakpointsRequest {
        scope: get("scope"),
        debugging_mode: get("debuggingMode"),
        request_user: get("requestUser"),
        terminal_id: get("terminalId"),
        ide_id: get("ideId"),
        system_debugging: root.attr("systemDebugging") == Some("true"),
        deactivated: root.attr("deactivated") == Some("true"),
        ..BreakpointsRequest::default()
    };
    for child in &root.children {
        match child.name.as_str() {
            "syncScope" => {
                let mode = child.attr("mode").unwrap_or("");
                req.sync_scope = match mode {
                    "full" => Some(SyncScope::Full),
                    "partial" => {
                        let mut refs = Vec::new();
                        child.descendants("objectReference", &mut refs);
                        Some(SyncScope::Partial(
                            refs.iter()
                                .filter_map(|r| r.attr("uri"))
                                .map(str::to_string)
                                .collect(),
                        ))
                    }
                    other => {
                        return Err(XmlError(format!("invalid syncScope mode '{other}'")));
                    }
                };
            }
            "breakpoint" => {
                let a = |k: &str| child.attr(k).unwrap_or("").to_string();
                req.breakpoints.push(BreakpointSpec {
                    kind: a("kind"),
                    client_id: a("clientId"),
                    uri: a("uri"),
                    condition: a("condition"),
                    validation_only: child.attr("validationOnly") == Some("true"),
                    attrs: child.attrs.clone(),
                });
            }
            _ => {}
        }
    }
    Ok(req)
}

/// The texts of the elements named `element` (local name), in document order, trimmed:
/// what [`parse_tree`] and a walk of its tree find, read from the events without building the
/// tree (a `getChildVariables` request for a page of table rows names a hundred parents, two
/// elements each). Every check of [`parse_tree`] is made at the same event with the same
/// error, so a body is accepted or refused as there.
fn texts_of(body: &str, element: &str) -> Result<Vec<String>, XmlError> {
    let mut reader = Reader::from_str(body);
    // The open elements: for each, where its text goes in `found` when it is one asked for.
    let mut stack: Vec<Option<usize>> = Vec::new();
    let mut found: Vec<String> = Vec::new();
    let mut root_done = false;
    let open = |name: quick_xml::name::QName<'_>, found: &mut Vec<String>| {
        let local = name
            .as_ref()
            .rsplit(|&b| b == b':')
            .next()
            .unwrap_or_default();
        (local == element.as_bytes()).then(|| {
            found.push(String::new());
            found.len() - 1
        })
    };
    let text_of = |stack: &[Option<usize>]| stack.last().copied().flatten();
    loop {
        let ev = reader
            .read_event()
            .map_err(|e| XmlError(format!("malformed XML: {e}")))?;
        match ev {
            Event::Start(e) => {
                if root_done {
                    return Err(XmlError("content after the root element".into()));
                }
                if stack.len() >= MAX_DEPTH {
                    return Err(XmlError("XML nested too deeply".into()));
                }
                check_attributes(&e)?;
                let slot = open(e.name(), &mut found);
                stack.push(slot);
            }
            Event::Empty(e) => {
                if root_done {
                    return Err(XmlError("content after the root element".into()));
                }
                check_attributes(&e)?;
                open(e.name(), &mut found);
                root_done = stack.is_empty();
            }
            Event::End(_) => {
                stack
                    .pop()
                    .ok_or_else(|| XmlError("unbalanced end tag".into()))?;
                root_done = stack.is_empty();
            }
            Event::Text(t) => {
                if !stack.is_empty() {
                    let s = t.decode().map_err(|e| XmlError(format!("bad text: {e}")))?;
                    if let Some(text) = text_of(&stack).and_then(|i| found.get_mut(i)) {
                        text.push_str(&s);
                    }
                } else if !t.iter().all(|b| b.is_ascii_whitespace()) {
                    return Err(XmlError("text outside the root element".into()));
                }
            }
            Event::CData(t) => {
                if let Some(text) = text_of(&stack).and_then(|i| found.get_mut(i)) {
                    text.push_str(&String::from_utf8_lossy(&t));
                }
            }
            Event::GeneralRef(r) => {
                let resolved = resolve_ref(&r)?;
                if stack.is_empty() {
                    return Err(XmlError("reference outside the root element".into()));
                }
                if let Some(text) = text_of(&stack).and_then(|i| found.get_mut(i)) {
                    text.push_str(&resolved);
                }
            }
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
        }
    }
    if !stack.is_empty() {
        return Err(XmlError("unexpected end of XML".into()));
    }
    if !root_done {
        return Err(XmlError("no root element".into()));
    }
    Ok(found.iter().map(|t| t.trim().to_string()).collect())
}

/// The attribute checks of [`open_node`], without keeping the attributes.
fn check_attributes(e: &quick_xml::events::BytesStart<'_>) -> Result<(), XmlError> {
    for a in e.attributes() {
        let a = a.map_err(|err| XmlError(format!("bad attribute: {err}")))?;
        let key = a.key.as_ref();
        if key == b"xmlns" || key.starts_with(b"xmlns:") {
            continue;
        }
        a.unescape_value()
            .map_err(|err| XmlError(format!("bad attribute value: {err}")))?;
    }
    Ok(())
}

/// `PARENT_ID`s of a `getChildVariables` request (§9.1), in document order.
pub fn parse_parent_ids(body: &str) -> Result<Vec<String>, XmlError> {
    texts_of(body, "PARENT_ID")
}

/// `ID`s of a `getVariables` request (§9.2), in document order.
pub fn parse_ids(body: &str) -> Result<Vec<String>, XmlError> {
    texts_of(body, "ID")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const BPS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<dbg:breakpoints xmlns:dbg="http://www.sap.com/adt/debugger"
    scope="external" debuggingMode="user" requestUser="JDOE"
    terminalId="T" ideId="I" systemDebugging="false" deactivated="false">
  <syncScope mode="partial">
    <adtcore:objectReference xmlns:adtcore="http://www.sap.com/adt/core"
        adtcore:uri="/sap/bc/adt/oo/classes/zcl_order_calc/source/main"/>
  </syncScope>
  <breakpoint xmlns:adtcore="http://www.sap.com/adt/core" kind="line" clientId="c1" skipCount="0"
      adtcore:uri="/sap/bc/adt/oo/classes/zcl_order_calc/source/main#start=58"/>
  <breakpoint xmlns:adtcore="http://www.sap.com/adt/core" kind="line" clientId="c2" skipCount="0"
      condition="LV_QTY &gt; 10"
      adtcore:uri="/sap/bc/adt/oo/classes/zcl_order_calc/source/main#start=61"/>
  <breakpoint kind="statement" clientId="c3" statement="CATCH"/>
</dbg:breakpoints>"#;

    #[test]
    fn breakpoints_request() {
        let r = parse_breakpoints_request(BPS).unwrap();
        assert_eq!(r.scope, "external");
        assert_eq!(r.request_user, "JDOE");
        assert_eq!(
            r.sync_scope,
            Some(SyncScope::Partial(vec![
                "/sap/bc/adt/oo/classes/zcl_order_calc/source/main".into()
            ]))
        );
        assert_eq!(r.breakpoints.len(), 3);
        assert_eq!(r.breakpoints[1].condition, "LV_QTY > 10");
        assert_eq!(
            r.breakpoints[0].uri,
            "/sap/bc/adt/oo/classes/zcl_order_calc/source/main#start=58"
        );
        assert_eq!(r.breakpoints[2].kind, "statement");
    }

    #[test]
    fn hierarchy_and_ids() {
        let body = r#"<asx:abap xmlns:asx="http://www.sap.com/abapxml" version="1.0"><asx:values><DATA><HIERARCHIES>
<STPDA_ADT_VARIABLE_HIERARCHY><PARENT_ID>@ROOT</PARENT_ID></STPDA_ADT_VARIABLE_HIERARCHY>
<STPDA_ADT_VARIABLE_HIERARCHY><PARENT_ID>&lt;FS&gt;</PARENT_ID></STPDA_ADT_VARIABLE_HIERARCHY>
</HIERARCHIES></DATA></asx:values></asx:abap>"#;
        assert_eq!(parse_parent_ids(body).unwrap(), vec!["@ROOT", "<FS>"]);
        let body = "<asx:abap><asx:values><DATA><STPDA_ADT_VARIABLE><ID>SY-SUBRC</ID></STPDA_ADT_VARIABLE></DATA></asx:values></asx:abap>";
        assert_eq!(parse_ids(body).unwrap(), vec!["SY-SUBRC"]);
    }

    #[test]
    fn malformed() {
        assert!(parse_tree("").is_err());
        assert!(parse_tree("<a>").is_err());
        assert!(parse_tree("<a></b>").is_err());
        assert!(parse_tree("<a/><b/>").is_err());
        assert!(parse_tree("<a>&bogus;</a>").is_err());
        let nested = |n: usize| "<a>".repeat(n) + &"</a>".repeat(n);
        assert!(parse_tree(&nested(MAX_DEPTH)).is_ok());
        assert!(parse_tree(&nested(MAX_DEPTH + 1)).is_err());
        assert!(parse_breakpoints_request("<x/>").is_err());
    }

    #[test]
    fn escaping() {
        assert_eq!(
            esc("a<&>\"'\n\u{1}\u{FFFE}\u{FFFF}"),
            "a&lt;&amp;&gt;&quot;'&#10;\u{FFFD}\u{FFFD}\u{FFFD}"
        );
        let mut s = String::new();
        elem(&mut s, "V", "");
        elem(&mut s, "W", "1 ");
        assert_eq!(s, "<V/><W>1 </W>");
    }

    /// The escaping as it was written first, character by character: the reference.
    fn esc_by_chars(s: &str) -> String {
        let mut out = String::new();
        for c in s.chars() {
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' => out.push_str("&quot;"),
                '\t' => out.push_str("&#9;"),
                '\n' => out.push_str("&#10;"),
                '\r' => out.push_str("&#13;"),
                c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                    out.push('\u{FFFD}')
                }
                c => out.push(c),
            }
        }
        out
    }

    /// The texts as they were read first, from the tree: the reference.
    fn texts_of_tree(body: &str, element: &str) -> Result<Vec<String>, XmlError> {
        let root = parse_tree(body)?;
        let mut found = Vec::new();
        if root.name == element {
            found.push(&root);
        }
        root.descendants(element, &mut found);
        Ok(found.iter().map(|n| n.text.trim().to_string()).collect())
    }

    /// Pieces of request bodies: the elements asked for with and without a prefix, nested
    /// in each other, texts with references, CDATA, comments, attributes (broken ones too),
    /// blanks and stray text.
    fn body_piece() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("<PARENT_ID>".to_string()),
            Just("</PARENT_ID>".to_string()),
            Just("<PARENT_ID/>".to_string()),
            Just("<a:PARENT_ID>".to_string()),
            Just("</a:PARENT_ID>".to_string()),
            Just("<ID>".to_string()),
            Just("</ID>".to_string()),
            Just("<asx:abap xmlns:asx=\"x\">".to_string()),
            Just("</asx:abap>".to_string()),
            Just("<H k=\"v&amp;\" xmlns=\"&bad;\">".to_string()),
            Just("<H k=\"&bad;\">".to_string()),
            Just("<H k=v>".to_string()),
            Just("</H>".to_string()),
            Just("<![CDATA[ c<d ]]>".to_string()),
            Just("<!-- c -->".to_string()),
            Just("<?xml version=\"1.0\"?>".to_string()),
            "&(amp|lt|gt|quot|apos|bogus|#65|#x41|#xD800|#0);",
            "[ \n]{1,2}",
            "[A-Z_\\[\\]0-9 é<>&]{1,6}",
        ]
    }

    /// Well-formed documents: elements (those asked for among them, with and without a
    /// prefix, nested in each other) holding texts with references, CDATA and comments.
    fn document() -> impl Strategy<Value = String> {
        let text = prop_oneof![
            "[A-Z_0-9 é\\[\\]\n]{0,8}",
            "&(amp|lt|gt|quot|apos|#65|#x41);",
            Just("<![CDATA[ c<d ]]>".to_string()),
            Just("<!-- c -->".to_string()),
        ];
        let name = prop_oneof![
            Just("PARENT_ID"),
            Just("a:PARENT_ID"),
            Just("ID"),
            Just("H"),
            Just("asx:abap")
        ];
        let attrs = prop_oneof![
            Just(""),
            Just(" k=\"v&amp;\""),
            Just(" xmlns:a=\"x\""),
            Just(" k='1' l=\"2\"")
        ];
        let leaf = (name.clone(), attrs.clone(), text.clone()).prop_map(|(n, a, t)| {
            if t.is_empty() {
                format!("<{n}{a}/>")
            } else {
                format!("<{n}{a}>{t}</{n}>")
            }
        });
        let element = leaf.prop_recursive(4, 40, 5, move |inner| {
            (
                name.clone(),
                attrs.clone(),
                proptest::collection::vec(prop_oneof![inner, text.clone()], 0..5),
            )
                .prop_map(|(n, a, children)| format!("<{n}{a}>{}</{n}>", children.concat()))
        });
        (
            prop_oneof![Just(""), Just("<?xml version=\"1.0\"?>\n")],
            element,
            "[ \n]{0,2}",
        )
            .prop_map(|(decl, root, tail)| format!("{decl}{root}{tail}"))
    }

    #[test]
    fn texts_read_from_the_events_are_those_of_the_tree_on_examples() {
        let bodies = [
            "<asx:abap><DATA><H><PARENT_ID> LT[1] </PARENT_ID></H><H><PARENT_ID>&lt;FS&gt;</PARENT_ID></H></DATA></asx:abap>",
            "<PARENT_ID>a<PARENT_ID>b</PARENT_ID>c</PARENT_ID>",
            "<PARENT_ID/>",
            "<a><PARENT_ID>x</PARENT_ID></a><b/>",
            "<a>",
            "</a>",
            "",
            " x <a/>",
            "<a/>&amp;",
            "<a>&bogus;</a>",
        ];
        for body in bodies {
            assert_eq!(
                texts_of(body, "PARENT_ID"),
                texts_of_tree(body, "PARENT_ID"),
                "{body}"
            );
        }
        let nested = |n: usize| "<a>".repeat(n) + &"</a>".repeat(n);
        for n in [MAX_DEPTH, MAX_DEPTH + 1] {
            assert_eq!(texts_of(&nested(n), "a"), texts_of_tree(&nested(n), "a"));
        }
    }

    #[test]
    fn tagged_is_elem() {
        for value in ["", "1 ", "a<b&\"c\"\n"] {
            let (mut a, mut b) = (String::new(), String::new());
            elem(&mut a, "ID", value);
            tagged(&mut b, &tags!("ID"), value);
            assert_eq!(a, b);
        }
    }

    proptest! {
        #[test]
        fn int_text_is_display(n in any::<i64>(), small in -1000i64..1000) {
            for n in [n, small, i64::MIN, i64::MAX, 0] {
                let mut s = String::from("x");
                push_int(&mut s, n);
                prop_assert_eq!(&s[1..], n.to_string());
            }
        }

        #[test]
        fn escaping_by_bytes_is_escaping_by_characters(
            s in "([\u{0}-\u{7f}]|[\u{ef00}-\u{ffff}]|\u{FFFE}|\u{FFFF}|.){0,40}"
        ) {
            prop_assert_eq!(esc(&s), esc_by_chars(&s));
        }

        #[test]
        fn mostly_plain_texts_are_escaped_by_characters(
            s in "([A-Za-z0-9 _*(){}-]{0,19}[&<>\"'\u{0}-\u{1f}\u{7f}\u{e9}\u{ef00}-\u{efff}\u{FFFE}\u{FFFF}]?){0,6}"
        ) {
            prop_assert_eq!(esc(&s), esc_by_chars(&s));
        }

        #[test]
        fn plain_texts_are_the_ascii_ones_without_special_bytes(
            s in "([ -~]{0,9}[\u{0}-\u{1f}\u{80}-\u{7ff}\u{ef00}-\u{efff}\u{FFFF}]?){0,4}"
        ) {
            let want = s.bytes().all(|b| b < 0x80 && !SPECIAL[b as usize]);
            prop_assert_eq!(is_plain(s.as_bytes()), want);
            // Every length up to a few words, and the special byte at every place.
            for n in 0..s.len().min(26) {
                if let Some(head) = s.get(..n) {
                    let want = head.bytes().all(|b| b < 0x80 && !SPECIAL[b as usize]);
                    prop_assert_eq!(is_plain(head.as_bytes()), want, "{:?}", head);
                }
            }
        }

        #[test]
        fn texts_read_from_the_events_are_those_of_the_tree(
            pieces in proptest::collection::vec(body_piece(), 0..30)
        ) {
            let body = pieces.concat();
            for element in ["PARENT_ID", "ID", "H"] {
                prop_assert_eq!(texts_of(&body, element), texts_of_tree(&body, element));
            }
        }

        #[test]
        fn texts_of_documents_are_those_of_the_tree(body in document()) {
            let tree = texts_of_tree(&body, "PARENT_ID");
            prop_assert!(tree.is_ok(), "{:?}", body);
            prop_assert_eq!(texts_of(&body, "PARENT_ID"), tree);
            for element in ["ID", "H", "abap"] {
                prop_assert_eq!(texts_of(&body, element), texts_of_tree(&body, element));
            }
        }

        #[test]
        fn texts_of_any_text_are_those_of_the_tree(s in "(<[a-zA-Z:]{0,6}( [a-z:]{1,5}=\"[^\"]{0,5}\")?/?>|</[a-zA-Z:]{0,6}>|&[a-z#0-9]{0,5};|[a-z <>&\"=/]){0,60}") {
            for element in ["a", "b", "ID"] {
                prop_assert_eq!(texts_of(&s, element), texts_of_tree(&s, element));
            }
        }

        #[test]
        fn readers_never_panic(s in ".{0,400}") {
            let _ = parse_breakpoints_request(&s);
            let _ = parse_parent_ids(&s);
            let _ = parse_ids(&s);
        }

        #[test]
        fn readers_never_panic_on_xmlish(s in "(<[a-zA-Z:]{0,6}( [a-z:]{1,5}=\"[^\"]{0,5}\")?/?>|</[a-zA-Z:]{0,6}>|&[a-z#0-9]{0,5};|[a-z <>&\"=/]){0,60}") {
            let _ = parse_breakpoints_request(&s);
            let _ = parse_parent_ids(&s);
            let _ = parse_ids(&s);
        }

        #[test]
        fn escaped_text_round_trips(s in "[^\u{0}-\u{1f}\u{FFFE}\u{FFFF}]{0,50}") {
            let body = format!("<asx:abap><DATA><ID>{}</ID></DATA></asx:abap>", esc(&s));
            let ids = parse_ids(&body).unwrap();
            prop_assert_eq!(ids, vec![s.trim().to_string()]);
        }
    }
}
