//! Regular expressions of `FIND`/`REPLACE` (`REGEX`, `PCRE`) and of the string functions
//! (`regex =`, `pcre =`), on the `regex` crate.
//!
//! ABAP's PCRE searches leftmost-first, as the `regex` crate does. `REGEX`/`regex =` is POSIX:
//! leftmost-longest. The two agree unless a pattern offers alternatives (`a|ab`), so the
//! simulator refuses alternatives in POSIX patterns instead of risking another match. What the
//! `regex` crate cannot do (back references, look-around) is refused as well: a refused pattern
//! ends the run as "not supported by the simulator", never with a different answer.

use crate::ast::Flavor;
use regex::{Captures, Regex, RegexBuilder};

/// Bound on the compiled program (patterns come from the program being run).
const SIZE_LIMIT: usize = 1 << 20;

/// Compiles `pattern`; `Err` says why the simulator does not run it.
pub fn compile(pattern: &str, flavor: Flavor, ignore_case: bool) -> Result<Regex, String> {
    if flavor == Flavor::Posix && has_alternation(pattern) {
        return Err(format!(
            "POSIX regular expression with alternatives (leftmost-longest matching) {pattern}"
        ));
    }
    RegexBuilder::new(pattern)
        .case_insensitive(ignore_case)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(SIZE_LIMIT)
        .build()
        .map_err(|_| format!("regular expression {pattern}"))
}

/// The matches of `re` in `text` in the order ABAP takes them (`FIND`/`REPLACE ALL
/// OCCURRENCES`, `count( )`, `replace( … occ = 0 )`): each search starts where the last match
/// ended, so an empty match right after a non-empty one counts too (`b*` in `abbc` matches
/// at 0, 1–3, 3 and 4) except at the end of the text (`b*` in `bb` matches once); after an
/// empty match the search goes on one character later. `first`: only the first match.
pub fn matches_in_order<'h>(re: &Regex, text: &'h str, first: bool) -> Vec<Captures<'h>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos <= text.len() {
        let Some(caps) = re.captures_at(text, pos) else {
            break;
        };
        let Some(m) = caps.get(0) else {
            break;
        };
        let (start, end) = (m.start(), m.end());
        out.push(caps);
        if first {
            break;
        }
        if end > start {
            pos = end;
            if pos == text.len() {
                break;
            }
        } else {
            // One character further (a character may have several bytes).
            match text.get(start..).and_then(|t| t.chars().next()) {
                Some(c) => pos = start + c.len_utf8(),
                None => break,
            }
        }
    }
    out
}

/// Is there a `|` outside a bracket expression and not escaped?
fn has_alternation(pattern: &str) -> bool {
    let mut escaped = false;
    let mut in_class = false;
    for c in pattern.chars() {
        match (escaped, in_class, c) {
            (true, _, _) => escaped = false,
            (false, _, '\\') => escaped = true,
            (false, false, '[') => in_class = true,
            (false, true, ']') => in_class = false,
            (false, false, '|') => return true,
            _ => {}
        }
    }
    false
}

/// The replacement text for one match: `$0`/`$&` the match, `$1`…`$9` and `${n}` groups, `\x`
/// the character x; everything else as written.
pub fn expand(replacement: &str, groups: &[Option<&str>]) -> String {
    let mut out = String::new();
    let mut chars = replacement.chars().peekable();
    let group = |n: usize| groups.get(n).copied().flatten().unwrap_or("");
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '$' => match chars.peek().copied() {
                Some('&') => {
                    chars.next();
                    out.push_str(group(0));
                }
                Some(d) if d.is_ascii_digit() => {
                    chars.next();
                    out.push_str(group(d.to_digit(10).map_or(0, |d| d as usize)));
                }
                Some('{') => {
                    let mut digits = String::new();
                    let mut look = chars.clone();
                    look.next();
                    let mut closed = false;
                    for d in look.by_ref() {
                        if d == '}' {
                            closed = true;
                            break;
                        }
                        digits.push(d);
                    }
                    match digits.parse::<usize>() {
                        Ok(n) if closed => {
                            chars = look;
                            out.push_str(group(n));
                        }
                        _ => out.push('$'),
                    }
                }
                _ => out.push('$'),
            },
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posix_alternatives_and_unsupported_features_are_refused() {
        assert!(compile("a|ab", Flavor::Posix, false).is_err());
        assert!(compile("[a|b]+", Flavor::Posix, false).is_ok());
        assert!(compile("a\\|b", Flavor::Posix, false).is_ok());
        assert!(compile("a|ab", Flavor::Pcre, false).is_ok());
        assert!(compile("(a)\\1", Flavor::Pcre, false).is_err());
        assert!(compile("a(?=b)", Flavor::Pcre, false).is_err());
    }

    #[test]
    fn matches_follow_abaps_order_with_empty_matches() {
        let spans = |p: &str, t: &str| -> Vec<(usize, usize)> {
            let re = Regex::new(p).unwrap();
            matches_in_order(&re, t, false)
                .iter()
                .filter_map(|c| c.get(0).map(|m| (m.start(), m.end())))
                .collect()
        };
        assert_eq!(spans("b*", "abbc"), vec![(0, 0), (1, 3), (3, 3), (4, 4)]);
        assert_eq!(spans("b*", "bb"), vec![(0, 2)]);
        assert_eq!(spans("x*", "abc"), vec![(0, 0), (1, 1), (2, 2), (3, 3)]);
        assert_eq!(spans("x*", "ä"), vec![(0, 0), (2, 2)]);
        assert_eq!(spans("a", "aXa"), vec![(0, 1), (2, 3)]);
    }

    #[test]
    fn replacement_groups_and_escapes() {
        let groups = [Some("1-2"), Some("1"), Some("2"), None];
        assert_eq!(
            expand("$2:$1 (${1}) \\$ $& [$3]", &groups),
            "2:1 (1) $ 1-2 []"
        );
        assert_eq!(expand("cost: $", &groups), "cost: $");
    }
}
