//! Just enough of an XML reader for abapGit's dictionary files: the leaf elements of each
//! record element (`DD02V`, `DD03P`, `DD04V`, `DD01V`) as name → text.

use std::collections::HashMap;

use quick_xml::Reader;
use quick_xml::events::Event;

/// One record: leaf element name → its text.
pub(crate) type Record = HashMap<String, String>;

/// Every element named `record` with its leaf children, in document order.
pub(crate) fn records(xml: &str, record: &str) -> Result<Vec<Record>, String> {
    let mut reader = Reader::from_str(xml);
    let mut out: Vec<Record> = Vec::new();
    // Names of the open elements; `inside` is the depth of the open record element.
    let mut open: Vec<String> = Vec::new();
    let mut inside: Option<usize> = None;
    let mut text = String::new();
    loop {
        let event = reader
            .read_event()
            .map_err(|e| format!("malformed XML at byte {}: {e}", reader.buffer_position()))?;
        match event {
            Event::Start(e) => {
                let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                if inside.is_none() && name == record {
                    inside = Some(open.len());
                    out.push(Record::new());
                }
                open.push(name);
                text.clear();
            }
            Event::End(_) => {
                let name = open.pop().ok_or("end tag without start tag")?;
                match inside {
                    Some(depth) if depth == open.len() => inside = None,
                    // A leaf directly inside the record.
                    Some(depth) if depth + 1 == open.len() => {
                        if let Some(rec) = out.last_mut() {
                            rec.insert(name, std::mem::take(&mut text));
                        }
                    }
                    _ => {}
                }
                text.clear();
            }
            Event::Text(t) => {
                let s = t.decode().map_err(|e| format!("undecodable text: {e}"))?;
                text.push_str(&s);
            }
            Event::GeneralRef(r) => {
                let resolved = match r
                    .resolve_char_ref()
                    .map_err(|e| format!("bad character reference: {e}"))?
                {
                    Some(c) => c.to_string(),
                    None => {
                        let name = String::from_utf8_lossy(&r).into_owned();
                        quick_xml::escape::resolve_predefined_entity(&name)
                            .ok_or_else(|| format!("unknown entity &{name};"))?
                            .to_string()
                    }
                };
                text.push_str(&resolved);
            }
            Event::CData(t) => text.push_str(&String::from_utf8_lossy(&t)),
            Event::Eof => break,
            Event::Empty(_)
            | Event::Decl(_)
            | Event::PI(_)
            | Event::Comment(_)
            | Event::DocType(_) => {}
        }
    }
    if !open.is_empty() {
        return Err("document ends inside an element".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn leaves_of_each_record() {
        let recs = records(
            "<a><R><X>1</X><Y>&lt;2&gt;</Y><Z><deep>no</deep></Z></R><R><X>3</X></R></a>",
            "R",
        )
        .unwrap_or_default();
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0].get("Y").map(String::as_str), Some("<2>"));
        assert!(!recs[0].contains_key("deep"), "only direct children");
        assert_eq!(recs[1].get("X").map(String::as_str), Some("3"));
        assert!(records("<a><R>", "R").is_err());
    }

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,300}") {
            let _ = records(&text, "DD03P");
        }
    }
}
