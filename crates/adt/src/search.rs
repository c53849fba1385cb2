//! The repository quick search (`GET /sap/bc/adt/repository/informationsystem/search
//! ?operation=quickSearch&query=ZCL_*&maxResults=50`): object names for completing what a
//! user types. The answer is an `adtcore:objectReferences` document of
//! `adtcore:objectReference` elements with `adtcore:uri`, `adtcore:type`, `adtcore:name` and
//! `adtcore:description`; unknown attributes and elements are ignored.

use crate::codec::CodecError;
use crate::xml;

/// Where the quick search lives.
pub const QUICK_SEARCH: &str = "/sap/bc/adt/repository/informationsystem/search";

/// Most results one search may ask for.
pub const MAX_RESULTS: u32 = 200;

/// One object the search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectReference {
    /// `ZCL_ORDER`.
    pub name: String,
    /// `CLAS/OC`, `PROG/P`, `INTF/OI`, …
    pub object_type: String,
    /// `/sap/bc/adt/oo/classes/zcl_order`.
    pub uri: String,
    pub description: String,
}

/// The search's query pairs: `operation=quickSearch`, the pattern (`*` wildcards) and the
/// most results wanted (1..=[`MAX_RESULTS`]).
pub fn quick_search_query(pattern: &str, max: u32) -> Vec<(&'static str, String)> {
    vec![
        ("operation", "quickSearch".to_string()),
        ("query", pattern.to_string()),
        ("maxResults", max.clamp(1, MAX_RESULTS).to_string()),
    ]
}

/// Reads an `objectReferences` document (an empty body is no objects). Elements without a
/// name are skipped.
pub fn parse_object_references(body: &str) -> Result<Vec<ObjectReference>, CodecError> {
    if body.trim().is_empty() {
        return Ok(Vec::new());
    }
    let root = xml::parse(body)?;
    if root.name != "objectReferences" {
        return Err(CodecError(format!(
            "expected an objectReferences document, got <{}>",
            root.name
        )));
    }
    Ok(root
        .children_named("objectReference")
        .filter_map(|e| {
            let name = e.attr("name")?.trim();
            (!name.is_empty()).then(|| ObjectReference {
                name: name.to_string(),
                object_type: e.attr("type").unwrap_or_default().to_string(),
                uri: e.attr("uri").unwrap_or_default().to_string(),
                description: e.attr("description").unwrap_or_default().to_string(),
            })
        })
        .collect())
}

/// An `objectReferences` document of `objects`, as a system answers (the simulator's).
pub fn write_object_references(objects: &[ObjectReference]) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\
         <adtcore:objectReferences xmlns:adtcore=\"http://www.sap.com/adt/core\">",
    );
    for o in objects {
        out.push_str(&format!(
            "<adtcore:objectReference adtcore:uri=\"{}\" adtcore:type=\"{}\" \
             adtcore:name=\"{}\" adtcore:description=\"{}\"/>",
            xml::escape(&o.uri),
            xml::escape(&o.object_type),
            xml::escape(&o.name),
            xml::escape(&o.description)
        ));
    }
    out.push_str("</adtcore:objectReferences>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ANSWER: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<adtcore:objectReferences xmlns:adtcore="http://www.sap.com/adt/core">
  <adtcore:objectReference adtcore:uri="/sap/bc/adt/oo/classes/zcl_order" adtcore:type="CLAS/OC"
      adtcore:name="ZCL_ORDER" adtcore:packageName="ZDEMO" adtcore:description="Orders &amp; items"/>
  <adtcore:objectReference adtcore:uri="/sap/bc/adt/oo/interfaces/zif_order" adtcore:type="INTF/OI"
      adtcore:name="ZIF_ORDER"/>
  <adtcore:objectReference adtcore:uri="/nameless"/>
  <somethingElse/>
</adtcore:objectReferences>"#;

    #[test]
    fn reads_a_quick_search_answer() {
        let found = parse_object_references(ANSWER).expect("parse");
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].name, "ZCL_ORDER");
        assert_eq!(found[0].object_type, "CLAS/OC");
        assert_eq!(found[0].uri, "/sap/bc/adt/oo/classes/zcl_order");
        assert_eq!(found[0].description, "Orders & items");
        assert_eq!(found[1].description, "");
        assert_eq!(parse_object_references("  ").expect("empty"), Vec::new());
        assert!(parse_object_references("<other/>").is_err());
        assert!(parse_object_references("<adtcore:objectReferences").is_err());
    }

    #[test]
    fn query_pairs() {
        let q = quick_search_query("ZCL_*", 0);
        assert_eq!(q[2], ("maxResults", "1".to_string()));
        assert_eq!(quick_search_query("ZCL_*", 9999)[2].1, "200");
        assert_eq!(q[1], ("query", "ZCL_*".to_string()));
    }

    fn object() -> impl Strategy<Value = ObjectReference> {
        // Attribute values as a system may send them, including what needs escaping.
        let text = "[ -~äöü&<>\"']{0,24}";
        ("[A-Z_/][A-Z0-9_/]{0,29}", text, text, text).prop_map(|(name, ty, uri, d)| {
            ObjectReference {
                name,
                object_type: ty,
                uri,
                description: d,
            }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

        /// What the simulator writes, the reader reads back unchanged.
        #[test]
        fn written_documents_read_back(objects in proptest::collection::vec(object(), 0..8)) {
            let doc = write_object_references(&objects);
            prop_assert_eq!(parse_object_references(&doc).expect("own document"), objects);
        }

        /// Whatever the bytes, the reader answers (objects or an error) and never panics.
        #[test]
        fn any_text_never_panics(body in "[<>/=\"' a-zA-Z:&;#x0-9\\n]{0,300}") {
            let _ = parse_object_references(&body);
        }

        /// Mangled answers never panic either.
        #[test]
        fn cut_answers_never_panic(at in 0usize..ANSWER.len(), junk in "[<>&\"a-z:]{0,8}") {
            let mut s = ANSWER.as_bytes()[..at].to_vec();
            s.extend_from_slice(junk.as_bytes());
            let _ = parse_object_references(&String::from_utf8_lossy(&s));
        }
    }
}
