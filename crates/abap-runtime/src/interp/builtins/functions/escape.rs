//! `escape( val = text format = cl_abap_format=>e_… )` for the formats whose rules are pinned
//! down: HTML text (`&` `<` `>` as entities), HTML attributes (also `"` and `'`) and JSON
//! strings (`\` and `"` escaped, control characters as `\b \t \n \f \r` or `\u00XX`). Other
//! formats end the run as not supported. The `cl_abap_format=>e_…` values are in
//! `builtins/classes/mod.rs`.

use super::group::Group;
use crate::interp::{Exec, Interp};
use abap_data::value::{Type, Value};
use abap_syntax::ast::CallExpr;

/// `cl_abap_format=>e_html_text`, `e_html_attr`, `e_json_string`.
const E_HTML_TEXT: i32 = 4;
const E_HTML_ATTR: i32 = 5;
const E_JSON_STRING: i32 = 24;

/// `text` escaped for `format`; `None` for formats outside the subset.
pub fn escape(text: &str, format: i32) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match (format, c) {
            (E_HTML_TEXT | E_HTML_ATTR, '&') => out.push_str("&amp;"),
            (E_HTML_TEXT | E_HTML_ATTR, '<') => out.push_str("&lt;"),
            (E_HTML_TEXT | E_HTML_ATTR, '>') => out.push_str("&gt;"),
            (E_HTML_ATTR, '"') => out.push_str("&quot;"),
            (E_HTML_ATTR, '\'') => out.push_str("&#39;"),
            (E_HTML_TEXT | E_HTML_ATTR, c) => out.push(c),
            (E_JSON_STRING, '\\') => out.push_str("\\\\"),
            (E_JSON_STRING, '"') => out.push_str("\\\""),
            (E_JSON_STRING, '\u{8}') => out.push_str("\\b"),
            (E_JSON_STRING, '\t') => out.push_str("\\t"),
            (E_JSON_STRING, '\n') => out.push_str("\\n"),
            (E_JSON_STRING, '\u{c}') => out.push_str("\\f"),
            (E_JSON_STRING, '\r') => out.push_str("\\r"),
            (E_JSON_STRING, c) if u32::from(c) < 0x20 => {
                out.push_str(&format!("\\u{:04X}", u32::from(c)));
            }
            (E_JSON_STRING, c) => out.push(c),
            _ => return None,
        }
    }
    Some(out)
}

pub(crate) const GROUP: Group = Group {
    name: "escape",
    knows: |name| name == "ESCAPE",
    run: |interp, call| interp.escape_function(call),
};

impl Interp<'_, '_> {
    /// `escape( val format )`; `None` for every other call.
    pub fn escape_function(&mut self, call: &CallExpr) -> Exec<Option<Value>> {
        if call.method != "ESCAPE" {
            return Ok(None);
        }
        let a = &call.args;
        if a.positional.is_some()
            || !a.importing.is_empty()
            || !a.changing.is_empty()
            || a.receiving.is_some()
        {
            return Err(self.not_supported("escape( ) with these arguments"));
        }
        let mut val = None;
        let mut format = None;
        for (n, e) in &a.exporting {
            match n.as_str() {
                "VAL" => val = Some(self.eval(e)?),
                "FORMAT" => format = Some(self.eval(e)?),
                other => {
                    return Err(self.not_supported(&format!(
                        "escape( ) with argument {}",
                        other.to_ascii_lowercase()
                    )));
                }
            }
        }
        let (Some(val), Some(format)) = (val, format) else {
            return Err(self.dump(
                "CALL_METHOD_PARMS_MISSING",
                "escape( ) needs val and format",
            ));
        };
        let text = val.to_abap_string().map_err(|e| self.conv_error(e))?;
        let format = match format.convert(&Type::I).map_err(|e| self.conv_error(e))? {
            Value::I(f) => f,
            _ => -1,
        };
        match escape(&text, format) {
            Some(s) => Ok(Some(Value::Str(s.into()))),
            None => Err(self.not_supported(&format!("escape( ) with format {format}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_and_json() {
        let s = "abc123&<>\"'";
        assert_eq!(escape(s, E_HTML_TEXT).unwrap(), "abc123&amp;&lt;&gt;\"'");
        assert_eq!(
            escape(s, E_HTML_ATTR).unwrap(),
            "abc123&amp;&lt;&gt;&quot;&#39;"
        );
        assert_eq!(escape(s, E_JSON_STRING).unwrap(), "abc123&<>\\\"'");
        assert_eq!(
            escape("a\\b\n\u{1}", E_JSON_STRING).unwrap(),
            "a\\\\b\\n\\u0001"
        );
        assert_eq!(escape("x", 12), None);
    }
}
