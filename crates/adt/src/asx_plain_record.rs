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

/// What the elements of a record go to, one at a time, as they are read.
pub(crate) trait Fields<'a> {
    /// The name the next element most likely has (systems write a record's elements in one
    /// order): when it is there, its name is not read byte by byte.
    fn guess(&self) -> Option<&'static str> {
        None
    }

    /// One element: its name and its text (references resolved); `None` for an
    /// empty-element tag `<NAME/>`, which has no text event at all. `guessed`: the name is
    /// the one [`Fields::guess`] gave.
    fn field(&mut self, name: &'a str, text: Option<Cow<'a, str>>, guessed: bool);
}

/// One element of a record, as [`Fields`] are handed over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Field<'a> {
    pub(crate) name: &'a str,
    pub(crate) text: Option<Cow<'a, str>>,
}

/// The elements collected in order.
impl<'a> Fields<'a> for Vec<Field<'a>> {
    fn field(&mut self, name: &'a str, text: Option<Cow<'a, str>>, _: bool) {
        self.push(Field { name, text });
    }
}

/// The kind of the record `rest` starts with, if it starts with a record's start tag.
pub(crate) fn kind_at(rest: &str) -> Option<Kind> {
    [Kind::Variable, Kind::Edge]
        .into_iter()
        .find(|k| rest.starts_with(k.tags().0))
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `a == b` for the short names of a record, compared in line a word or two at a time (a
/// call to `memcmp` per comparison was a third of the reading).
fn same(a: &[u8], b: &[u8]) -> bool {
    fn word(s: &[u8], at: usize) -> u64 {
        let mut w = [0; 8];
        w.copy_from_slice(&s[at..at + 8]);
        u64::from_ne_bytes(w)
    }
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 8 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    // Words from the front, then the last word (overlapping what was compared).
    let mut at = 0;
    while at + 8 < n {
        if word(a, at) != word(b, at) {
            return false;
        }
        at += 8;
    }
    word(a, n - 8) == word(b, n - 8)
}

/// Where the text starting at `from` ends (the next `<`), and whether it has a `&`. Texts
/// are short (values, type names, hex digits): eight bytes are looked at a time, in line,
/// rather than setting up a vector search for each.
fn text_end(b: &[u8], from: usize) -> Option<(usize, bool)> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    // The high bit of each zero byte of `w`. A borrow can also mark a byte above a zero
    // byte, never one below: the lowest mark is always a zero byte.
    let zeros = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS;
    let mut amp = false;
    let mut at = from;
    while let Some(word) = b.get(at..at + 8) {
        let mut bytes = [0; 8];
        bytes.copy_from_slice(word);
        // Little-endian: the first byte of the text is the lowest of the word.
        let w = u64::from_le_bytes(bytes);
        let lt = zeros(w ^ (ONES * u64::from(b'<')));
        let amps = zeros(w ^ (ONES * u64::from(b'&')));
        if lt != 0 {
            // The first `<`, and any `&` before it.
            let below = lt & lt.wrapping_neg();
            amp |= amps & (below - 1) != 0;
            return Some((at + (lt.trailing_zeros() / 8) as usize, amp));
        }
        amp |= amps != 0;
        at += 8;
    }
    loop {
        match *b.get(at)? {
            b'<' => return Some((at, amp)),
            b'&' => amp = true,
            _ => {}
        }
        at += 1;
    }
}

/// The record at the start of `rest`, its elements handed to `fields` as they are read: its
/// kind and the bytes it spans, or `None` when `rest` does not start with a record of the
/// plain shape. After `None`, what `fields` was given is to be forgotten: the record is read
/// the general way.
pub(crate) fn scan<'a>(rest: &'a str, fields: &mut impl Fields<'a>) -> Option<(Kind, usize)> {
    let kind = kind_at(rest)?;
    let (open, close) = kind.tags();
    let b = rest.as_bytes();
    let mut at = open.len();
    loop {
        if *b.get(at)? != b'<' {
            return None;
        }
        // `</` is the record's end or nothing this look recognises (an element name never
        // starts with `/`): the one place to compare the end tag.
        if b.get(at + 1) == Some(&b'/') {
            return rest
                .get(at..)?
                .starts_with(close)
                .then_some((kind, at + close.len()));
        }
        let name_start = at + 1;
        // The guessed name counts only when the next byte ends it.
        let guessed = fields.guess().filter(|g| {
            b.get(name_start..name_start + g.len())
                .is_some_and(|here| same(here, g.as_bytes()))
                && b.get(name_start + g.len())
                    .is_some_and(|&c| !is_name_byte(c))
        });
        let name_end = match guessed {
            Some(g) => name_start + g.len(),
            None => {
                let len = b
                    .get(name_start..)?
                    .iter()
                    .position(|&c| !is_name_byte(c))?;
                if len == 0 {
                    return None;
                }
                name_start + len
            }
        };
        let name = rest.get(name_start..name_end)?;
        match *b.get(name_end)? {
            b'/' if b.get(name_end + 1) == Some(&b'>') => {
                fields.field(name, None, guessed.is_some());
                at = name_end + 2;
            }
            b'>' => {
                let text_start = name_end + 1;
                let (text_end, amp) = text_end(b, text_start)?;
                // `</NAME>` exactly.
                let close_name = text_end + 2;
                if b.get(text_end + 1) != Some(&b'/')
                    || !b
                        .get(close_name..close_name + name.len())
                        .is_some_and(|here| same(here, name.as_bytes()))
                    || b.get(close_name + name.len()) != Some(&b'>')
                {
                    return None;
                }
                let raw = rest.get(text_start..text_end)?;
                let text = if amp {
                    Cow::Owned(unescape(raw)?)
                } else {
                    Cow::Borrowed(raw)
                };
                fields.field(name, Some(text), guessed.is_some());
                at = close_name + name.len() + 1;
            }
            _ => return None,
        }
    }
}

/// Text with the five predefined entities resolved; `None` for any other `&`.
fn unescape(raw: &str) -> Option<String> {
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
    Some(out)
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

    /// [`text_end`] a byte at a time.
    fn text_end_bytewise(b: &[u8], from: usize) -> Option<(usize, bool)> {
        let end = from + b.get(from..)?.iter().position(|&c| c == b'<')?;
        Some((end, b[from..end].contains(&b'&')))
    }

    proptest::proptest! {
        #[test]
        fn text_ends_where_a_bytewise_look_finds_them(
            text in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just(b'a'),
                    proptest::strategy::Just(b'<'),
                    proptest::strategy::Just(b'&'),
                    proptest::strategy::Just(b'='),
                    proptest::strategy::Just(b'%'),
                    proptest::strategy::Just(0xC3u8),
                    proptest::strategy::Just(0x00u8),
                    proptest::strategy::Just(0xFFu8),
                ],
                0..40,
            ),
            from in 0usize..12,
        ) {
            proptest::prop_assert_eq!(text_end(&text, from), text_end_bytewise(&text, from));
        }
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
