//! Regular expressions of `FIND`/`REPLACE` (`REGEX`, `PCRE`) and of the string functions
//! (`regex =`, `pcre =`), on the `regex` crate.
//!
//! ABAP's PCRE searches leftmost-first, as the `regex` crate does. `REGEX`/`regex =` is POSIX:
//! leftmost-longest. The two agree unless a pattern offers alternatives (`a|ab`), so the
//! simulator refuses alternatives in POSIX patterns instead of risking another match. What the
//! `regex` crate cannot do (back references, look-around) is refused as well: a refused pattern
//! ends the run as "not supported by the simulator", never with a different answer.

use regex::{Regex, RegexBuilder};

/// Which regular expression language a program asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// `REGEX`, `regex =`.
    Posix,
    /// `PCRE`, `pcre =`.
    Pcre,
}

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
    fn replacement_groups_and_escapes() {
        let groups = [Some("1-2"), Some("1"), Some("2"), None];
        assert_eq!(
            expand("$2:$1 (${1}) \\$ $& [$3]", &groups),
            "2:1 (1) $ 1-2 []"
        );
        assert_eq!(expand("cost: $", &groups), "cost: $");
    }
}
