//! Upper and lower case as ABAP changes it: one character for one character (`TRANSLATE … TO
//! UPPER CASE`, `to_upper( )`, `CASE = UPPER`, comparisons without case). A character whose
//! case mapping would need several characters keeps its case (`ß` stays `ß`, where Rust's full
//! mapping gives `SS`).

/// `c` in upper case (itself when that needs more than one character).
pub fn upper(c: char) -> char {
    single(c.to_uppercase()).unwrap_or(c)
}

/// `c` in lower case (itself when that needs more than one character).
pub fn lower(c: char) -> char {
    single(c.to_lowercase()).unwrap_or(c)
}

pub fn upper_str(s: &str) -> String {
    s.chars().map(upper).collect()
}

pub fn lower_str(s: &str) -> String {
    s.chars().map(lower).collect()
}

fn single(mut it: impl Iterator<Item = char>) -> Option<char> {
    match (it.next(), it.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_character_for_one() {
        assert_eq!(upper_str("straße äöü"), "STRAßE ÄÖÜ");
        assert_eq!(lower_str("ÄÖÜ ABC"), "äöü abc");
        assert_eq!(upper('ß'), 'ß');
        assert_eq!(lower('A'), 'a');
    }
}
