//! [`Text`]: the characters of a `c`, `n`, `d`, `t` or `string` value, kept inline when
//! short (up to 22 bytes: most field values, every date and time) and on the heap otherwise.
//! 24 bytes either way, like a `String`, but a short value needs no allocation of its own:
//! a table of a million rows with six text columns holds six million of them.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// Bytes kept inline.
const INLINE: usize = 22;

#[derive(Clone)]
enum Repr {
    Inline { len: u8, buf: [u8; INLINE] },
    Heap(Box<str>),
}

/// Text of a character-like value; reads as a `str`.
#[derive(Clone)]
pub struct Text(Repr);

impl Text {
    pub fn new(s: &str) -> Text {
        let bytes = s.as_bytes();
        match u8::try_from(bytes.len()) {
            Ok(len) if bytes.len() <= INLINE => {
                let mut buf = [0; INLINE];
                buf[..bytes.len()].copy_from_slice(bytes);
                Text(Repr::Inline { len, buf })
            }
            _ => Text(Repr::Heap(s.into())),
        }
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Always built from a `str` cut at its length: valid UTF-8.
            Repr::Inline { len, buf } => {
                std::str::from_utf8(&buf[..usize::from(*len)]).unwrap_or_default()
            }
            Repr::Heap(s) => s,
        }
    }

    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Heap(s) => s.into_string(),
            Repr::Inline { .. } => self.as_str().to_string(),
        }
    }

    pub fn push_str(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        let mut all = String::with_capacity(self.len() + s.len());
        all.push_str(self);
        all.push_str(s);
        *self = Text::from(all);
    }

    pub fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }
}

impl Default for Text {
    fn default() -> Text {
        Text(Repr::Inline {
            len: 0,
            buf: [0; INLINE],
        })
    }
}

impl Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::new(s)
    }
}

impl From<&String> for Text {
    fn from(s: &String) -> Text {
        Text::new(s)
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        if s.len() <= INLINE {
            Text::new(&s)
        } else {
            Text(Repr::Heap(s.into_boxed_str()))
        }
    }
}

impl From<Text> for String {
    fn from(t: Text) -> String {
        t.into_string()
    }
}

impl FromIterator<char> for Text {
    fn from_iter<I: IntoIterator<Item = char>>(iter: I) -> Text {
        Text::from(iter.into_iter().collect::<String>())
    }
}

impl<'a> FromIterator<&'a char> for Text {
    fn from_iter<I: IntoIterator<Item = &'a char>>(iter: I) -> Text {
        Text::from(iter.into_iter().collect::<String>())
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Text) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Text {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_texts_are_inline_long_ones_on_the_heap_both_read_the_same() {
        assert_eq!(std::mem::size_of::<Text>(), 24);
        for s in [
            "",
            "A001      ",
            "20261231",
            "exactly twenty-two b.",
            "äöü€ – 😀 mixed",
            &"x".repeat(23),
            &"long ".repeat(100),
        ] {
            let t = Text::from(s);
            assert_eq!(t.as_str(), s);
            assert_eq!(Text::from(s.to_string()), t);
            assert_eq!(t.clone().into_string(), s);
            assert_eq!(t.len(), s.len());
        }
        assert!(matches!(Text::from("x".repeat(22)).0, Repr::Inline { .. }));
        assert!(matches!(Text::from("x".repeat(23)).0, Repr::Heap(_)));
        let mut t = Text::from("abc");
        t.push_str(&"d".repeat(30));
        t.push('é');
        assert_eq!(t.as_str(), format!("abc{}é", "d".repeat(30)));
        let (a, b) = (Text::from("a"), Text::from("b"));
        assert_eq!(a.cmp(&b), std::cmp::Ordering::Less);
    }
}
