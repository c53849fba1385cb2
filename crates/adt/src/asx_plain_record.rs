//! A quick look at one `STPDA_ADT_VARIABLE` or `STPDA_ADT_VARIABLE_HIERARCHY` record of the
//! plain shape every system writes: `<STPDA_ADT_VARIABLE>` then elements `<NAME>text</NAME>`
//! or `<NAME/>` without attributes, nothing between them, then `</STPDA_ADT_VARIABLE>`. A
//! page of table rows is a thousand records and a thousand edges; reading them through the
//! general XML events costs several times this.
//!
//! Only a fragment that the general reading takes as exactly these elements and texts is
//! recognised: names of ASCII letters, digits and `_`, text without markup whose only
//! references are the five predefined entities, end tags written `</NAME>`. Anything else
//! (attributes, prefixes, character references, comments, CDATA, blanks between elements,
//! an unexpected end) is not recognised, and the caller reads the record the general way.

use std::borrow::Cow;

/// Which record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `STPDA_ADT_VARIABLE`.
    Variable,
    /// `STPDA_ADT_VARIABLE_HIERARCHY`.
    Edge,
}

impl Kind {
    /// The record's element name.
    pub(crate) fn element(self) -> &'static str {
        match self {
            Kind::Variable => "STPDA_ADT_VARIABLE",
            Kind::Edge => "STPDA_ADT_VARIABLE_HIERARCHY",
        }
    }

    fn tags(self) -> (&'static str, &'static str) {
        match self {
            Kind::Variable => ("<STPDA_ADT_VARIABLE>", "</STPDA_ADT_VARIABLE>"),
            Kind::Edge => (
                "<STPDA_ADT_VARIABLE_HIERARCHY>",
                "</STPDA_ADT_VARIABLE_HIERARCHY>",
            ),
        }
    }
}

/// One element of the record: its name and its text (references resolved); `None` for an
/// empty-element tag `<NAME/>`, which has no text event at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Field<'a> {
    pub(crate) name: &'a str,
    pub(crate) text: Option<Cow<'a, str>>,
}

/// The record at the start of `rest`: its kind, its fields in `fields` (cleared first) and
/// the bytes it spans, or `None` when `rest` does not start with a record of the plain shape.
pub(crate) fn scan<'a>(rest: &'a str, fields: &mut Vec<Field<'a>>) -> Option<(Kind, usize)> {
    fields.clear();
    let kind = [Kind::Variable, Kind::Edge]
        .into_iter()
        .find(|k| rest.starts_with(k.tags().0))?;
    let (open, close) = kind.tags();
    let mut at = open.len();
    loop {
        let here = rest.get(at..)?;
        // `</` is the record's end or nothing this look recognises (an element name never
        // starts with `/`): the one place to compare the end tag.
        if here.as_bytes().get(1) == Some(&b'/') {
            return here.starts_with(close).then_some((kind, at + close.len()));
        }
        let after_lt = here.strip_prefix('<')?;
        let name_len = after_lt
            .bytes()
            .position(|b| !(b.is_ascii_alphanumeric() || b == b'_'))?;
        if name_len == 0 {
            return None;
        }
        let name = after_lt.get(..name_len)?;
        let after_name = after_lt.get(name_len..)?;
        if after_name.starts_with("/>") {
            fields.push(Field { name, text: None });
            at += 1 + name_len + 2;
            continue;
        }
        let body = after_name.strip_prefix('>')?;
        let text_len = memchr::memchr(b'<', body.as_bytes())?;
        let raw = body.get(..text_len)?;
        let end = body.get(text_len..)?;
        // `</NAME>` exactly.
        let end_len = 2 + name_len + 1;
        if end.get(..2) != Some("</")
            || end.get(2..2 + name_len) != Some(name)
            || end.get(2 + name_len..end_len) != Some(">")
        {
            return None;
        }
        fields.push(Field {
            name,
            text: Some(unescape(raw)?),
        });
        at += 1 + name_len + 1 + text_len + end_len;
    }
}

/// Text with the five predefined entities resolved; `None` for any other `&`.
fn unescape(raw: &str) -> Option<Cow<'_, str>> {
    if memchr::memchr(b'&', raw.as_bytes()).is_none() {
        return Some(Cow::Borrowed(raw));
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(rest.get(..amp)?);
        let after = rest.get(amp + 1..)?;
        let semi = after.find(';')?;
        out.push(match after.get(..semi)? {
            "lt" => '<',
            "gt" => '>',
            "amp" => '&',
            "quot" => '"',
            "apos" => '\'',
            _ => return None,
        });
        rest = after.get(semi + 1..)?;
    }
    out.push_str(rest);
    Some(Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names and texts of the fields.
    type Read = Vec<(String, Option<String>)>;

    fn fields(rest: &str) -> Option<(usize, Read)> {
        let mut f = Vec::new();
        let (kind, n) = scan(rest, &mut f)?;
        assert!(rest[1..].starts_with(kind.element()));
        Some((
            n,
            f.into_iter()
                .map(|f| (f.name.to_string(), f.text.map(Cow::into_owned)))
                .collect(),
        ))
    }

    #[test]
    fn plain_records_are_read_whole() {
        let rec = "<STPDA_ADT_VARIABLE><ID>LT[1]-NOTE</ID><VALUE>note, &quot;q&quot; &lt;1&gt; &amp; &apos;</VALUE><TABLE_BODY/><X_1></X_1></STPDA_ADT_VARIABLE>";
        let (n, f) = fields(&format!("{rec}<STPDA_ADT_VARIABLE>")).unwrap();
        assert_eq!(n, rec.len());
        assert_eq!(
            f,
            vec![
                ("ID".into(), Some("LT[1]-NOTE".into())),
                ("VALUE".into(), Some("note, \"q\" <1> & '".into())),
                ("TABLE_BODY".into(), None),
                ("X_1".into(), Some(String::new())),
            ]
        );
        assert_eq!(
            fields("<STPDA_ADT_VARIABLE></STPDA_ADT_VARIABLE>"),
            Some((41, Vec::new()))
        );
        let edge = "<STPDA_ADT_VARIABLE_HIERARCHY><PARENT_ID>LT[1]</PARENT_ID><CHILD_ID>LT[1]-ID</CHILD_ID><CHILD_NAME/></STPDA_ADT_VARIABLE_HIERARCHY>";
        let (n, f) = fields(&format!("{edge}<STPDA_ADT_VARIABLE_HIERARCHY>")).unwrap();
        assert_eq!(n, edge.len());
        assert_eq!(
            f,
            vec![
                ("PARENT_ID".into(), Some("LT[1]".into())),
                ("CHILD_ID".into(), Some("LT[1]-ID".into())),
                ("CHILD_NAME".into(), None),
            ]
        );
    }

    #[test]
    fn anything_else_is_left_to_the_general_reading() {
        for odd in [
            "",
            "<STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE><ID>x</ID>",
            "<STPDA_ADT_VARIABLE ><ID>x</ID></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE><ID a=\"1\">x</ID></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE><ID>x</ID ></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE><ID>x</NAME></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE><ID>x</IDX></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE><p:ID>x</p:ID></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE><ID>&#65;</ID></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE><ID>&bogus;</ID></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE><ID>a & b</ID></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE><ID><![CDATA[x]]></ID></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE><ID>x<!-- c --></ID></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE> <ID>x</ID></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE><ID><V>x</V></ID></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE><></></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE><ID/ ></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE></STPDA_ADT_VARIABLE_HIERARCHY>",
            "<STPDA_ADT_VARIABLE_HIERARCHY></STPDA_ADT_VARIABLE>",
            "<STPDA_ADT_VARIABLE_HIERARCHY><ID>x</ID></STPDA_ADT_VARIABLE_HIERARCHY ",
            "<STPDA_ADT_VARIABLEX></STPDA_ADT_VARIABLEX>",
        ] {
            assert_eq!(fields(odd), None, "{odd}");
        }
    }
}
