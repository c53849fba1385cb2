//! A small element tree over quick-xml: the ADT documents are small, and a tree lets every
//! reader accept unknown elements, unknown attributes and any order. Names are kept without
//! their namespace prefix. Text is kept exactly (no trimming: `VALUE` blanks matter).

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// Deeper documents are refused rather than risking the stack (dropping a tree recurses).
/// The simulator's reader has the same bound; no ADT document nests more than about ten deep.
const MAX_DEPTH: usize = 128;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct XmlError(pub String);

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Element {
    /// Local name (prefix removed).
    pub name: String,
    /// Attributes by local name, namespace declarations left out.
    pub attrs: Vec<(String, String)>,
    /// Concatenated character data directly inside this element.
    pub text: String,
    pub children: Vec<Element>,
}

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// Text of a direct child, or `""`.
    pub fn child_text(&self, name: &str) -> &str {
        self.child(name).map(|c| c.text.as_str()).unwrap_or("")
    }
}

fn local_name(qname: &[u8]) -> String {
    let full = String::from_utf8_lossy(qname);
    match full.rfind(':') {
        Some(i) => full[i + 1..].to_string(),
        None => full.into_owned(),
    }
}

fn start(e: &BytesStart<'_>) -> Result<Element, XmlError> {
    let mut el = Element {
        name: local_name(e.name().as_ref()),
        ..Element::default()
    };
    for a in e.attributes().with_checks(false) {
        let a = a.map_err(|err| XmlError(format!("bad attribute: {err}")))?;
        let key = a.key.as_ref();
        if key == b"xmlns" || key.starts_with(b"xmlns:") {
            continue;
        }
        let value = a
            .unescape_value()
            .map_err(|err| XmlError(format!("bad attribute value: {err}")))?;
        el.attrs.push((local_name(key), value.into_owned()));
    }
    Ok(el)
}

/// Parse a whole document into its root element.
pub(crate) fn parse(body: &str) -> Result<Element, XmlError> {
    let mut reader = Reader::from_str(body);
    let mut open: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    let close =
        |el: Element, open: &mut Vec<Element>, root: &mut Option<Element>| match open.last_mut() {
            Some(parent) => parent.children.push(el),
            None => *root = Some(el),
        };
    loop {
        let event = reader.read_event().map_err(|e| {
            XmlError(format!(
                "malformed XML at byte {}: {e}",
                reader.buffer_position()
            ))
        })?;
        match event {
            Event::Start(e) => {
                if root.is_some() {
                    return Err(XmlError("more than one root element".into()));
                }
                if open.len() >= MAX_DEPTH {
                    return Err(XmlError("XML nested too deeply".into()));
                }
                open.push(start(&e)?);
            }
            Event::Empty(e) => {
                if root.is_some() {
                    return Err(XmlError("more than one root element".into()));
                }
                let el = start(&e)?;
                close(el, &mut open, &mut root);
            }
            Event::End(_) => {
                let el = open
                    .pop()
                    .ok_or_else(|| XmlError("end tag without start tag".into()))?;
                close(el, &mut open, &mut root);
            }
            Event::Text(t) => {
                let text = t
                    .decode()
                    .map_err(|e| XmlError(format!("undecodable text: {e}")))?;
                match open.last_mut() {
                    Some(el) => el.text.push_str(&text),
                    None if text.trim().is_empty() => {}
                    None => return Err(XmlError("text outside the root element".into())),
                }
            }
            Event::CData(t) => {
                if let Some(el) = open.last_mut() {
                    el.text.push_str(&String::from_utf8_lossy(&t));
                }
            }
            Event::GeneralRef(r) => {
                let resolved = match r
                    .resolve_char_ref()
                    .map_err(|e| XmlError(format!("bad character reference: {e}")))?
                {
                    Some(c) => c.to_string(),
                    None => {
                        let name = String::from_utf8_lossy(&r).into_owned();
                        quick_xml::escape::resolve_predefined_entity(&name)
                            .ok_or_else(|| XmlError(format!("unknown entity &{name};")))?
                            .to_string()
                    }
                };
                match open.last_mut() {
                    Some(el) => el.text.push_str(&resolved),
                    None => return Err(XmlError("reference outside the root element".into())),
                }
            }
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
        }
    }
    if !open.is_empty() {
        return Err(XmlError("document ends inside an element".into()));
    }
    root.ok_or_else(|| XmlError("no root element".into()))
}

/// Escape text for an attribute value or element content: the same characters as the
/// simulator's writer.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            // Not representable in XML 1.0 (its `Char` production leaves out the controls and
            // U+FFFE, U+FFFF): replace rather than send a document a strict reader refuses.
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn keeps_blanks_and_strips_prefixes() {
        let el =
            parse("<a:x xmlns:a=\"u\" a:k=\"v\"><V>12 </V><V/><W>&lt;&#65;</W></a:x>").unwrap();
        assert_eq!(el.name, "x");
        assert_eq!(el.attr("k"), Some("v"));
        assert_eq!(el.children[0].text, "12 ");
        assert_eq!(el.children[1].text, "");
        assert_eq!(el.child_text("W"), "<A");
    }

    #[test]
    fn refuses_broken_documents() {
        for bad in [
            "",
            "<a>",
            "<a></b>",
            "</a>",
            "<a/><b/>",
            "text",
            "<a>&bogus;</a>",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let deep = "<a>".repeat(MAX_DEPTH + 1);
        assert!(parse(&deep).is_err());
        let nested = "<a>".repeat(MAX_DEPTH) + &"</a>".repeat(MAX_DEPTH);
        assert!(parse(&nested).is_ok());
    }

    #[test]
    fn characters_xml_cannot_hold_are_replaced() {
        assert_eq!(
            escape("a\u{1}b\u{FFFE}c\u{FFFF}'"),
            "a\u{FFFD}b\u{FFFD}c\u{FFFD}&apos;"
        );
    }

    #[test]
    fn escape_round_trips() {
        let s = "a<b>&\"c' d\te\nf";
        let doc = format!("<x v=\"{}\">{}</x>", escape(s), escape(s));
        let el = parse(&doc).unwrap();
        assert_eq!(el.attr("v"), Some(s));
        assert_eq!(el.text, s);
    }

    proptest! {
        #[test]
        fn never_panics(s in ".{0,300}") {
            let _ = parse(&s);
        }

        #[test]
        fn never_panics_on_xmlish(s in "[<>/a-c =\"'&;#x0-9:!?\\[\\]-]{0,200}") {
            let _ = parse(&s);
        }

        #[test]
        fn text_survives_escaping(s in "[^\u{0}-\u{1f}\u{FFFE}\u{FFFF}]{0,100}") {
            let el = parse(&format!("<x>{}</x>", escape(&s))).unwrap();
            prop_assert_eq!(el.text, s);
        }
    }
}
