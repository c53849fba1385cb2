//! Regular expressions of `FIND`/`REPLACE` (`REGEX`, `PCRE`) and of the string functions
//! (`regex =`, `pcre =`), on the `regex` crate, and on the bounded backtracking matcher of
//! `regex_backtrack.rs` where that crate cannot give ABAP's answer.
//!
//! ABAP's PCRE searches leftmost-first, as the `regex` crate does; a PCRE pattern with back
//! references (`\1`) runs on the backtracking matcher. `REGEX`/`regex =` is POSIX:
//! leftmost-longest, with the groups (`SUBMATCHES`) decided by the rule of the Boost.Regex
//! library ABAP uses (`regex_backtrack::posix_better`). Without groups and alternatives the
//! two rules give the same match (a pattern of single-character pieces with greedy
//! quantifiers: the first way through is also the longest), so such a pattern runs on the
//! `regex` crate alone. A POSIX pattern with a group, an alternative or a back reference runs
//! on the backtracking matcher at the leftmost position where a match starts (found by the
//! `regex` crate when it can read the pattern), trying every way through there. What neither
//! engine can do (look-around, named groups) is refused: a refused pattern ends the run as
//! "not supported by the simulator", never with a different answer.

pub use crate::interp::regex_backtrack::TooComplex;
use crate::interp::regex_backtrack::{self, Backtrack};
use abap_syntax::ast::Flavor;
use regex::RegexBuilder;

/// Bound on the compiled program (patterns come from the program being run).
const SIZE_LIMIT: usize = 1 << 20;

/// A compiled pattern: linear time on the `regex` crate, or backtracking (bounded).
#[derive(Debug, Clone)]
pub enum AbapRegex {
    Linear(regex::Regex),
    /// PCRE with back references.
    Backtrack(Backtrack),
    /// POSIX where the longest match and its groups need every way through the pattern:
    /// `find` (when the `regex` crate reads the pattern) finds where the leftmost match
    /// starts, `exact` picks the match there.
    Posix {
        find: Option<regex::Regex>,
        exact: Backtrack,
    },
}

/// The groups of one match (group 0: the whole match) as byte spans of the text.
#[derive(Debug, Clone)]
pub struct Caps<'h> {
    text: &'h str,
    spans: Vec<Option<(usize, usize)>>,
}

/// One group of a match.
#[derive(Debug, Clone, Copy)]
pub struct Group<'h> {
    text: &'h str,
    start: usize,
    end: usize,
}

impl<'h> Group<'h> {
    pub fn start(&self) -> usize {
        self.start
    }

    pub fn end(&self) -> usize {
        self.end
    }

    pub fn as_str(&self) -> &'h str {
        self.text.get(self.start..self.end).unwrap_or("")
    }
}

impl<'h> Caps<'h> {
    /// Group `i`; `None` when it took no part in the match.
    pub fn get(&self, i: usize) -> Option<Group<'h>> {
        let (start, end) = self.spans.get(i).copied().flatten()?;
        Some(Group {
            text: self.text,
            start,
            end,
        })
    }

    pub fn iter(&self) -> impl Iterator<Item = Option<Group<'h>>> + '_ {
        (0..self.spans.len()).map(|i| self.get(i))
    }
}

impl AbapRegex {
    pub fn is_match(&self, text: &str) -> Result<bool, TooComplex> {
        match self {
            AbapRegex::Linear(re) => Ok(re.is_match(text)),
            AbapRegex::Backtrack(b) => Ok(b.search(text, 0)?.is_some()),
            AbapRegex::Posix { .. } => Ok(self.captures_at(text, 0)?.is_some()),
        }
    }

    /// The first match starting at or after byte `at` (the text before `at` still counts for
    /// `^` and `\b`).
    pub fn captures_at<'h>(
        &self,
        text: &'h str,
        at: usize,
    ) -> Result<Option<Caps<'h>>, TooComplex> {
        let spans = match self {
            AbapRegex::Linear(re) => re
                .captures_at(text, at)
                .map(|c| c.iter().map(|m| m.map(|m| (m.start(), m.end()))).collect()),
            AbapRegex::Backtrack(b) => b.search(text, at)?,
            AbapRegex::Posix { find: None, exact } => exact.search(text, at)?,
            AbapRegex::Posix {
                find: Some(find),
                exact,
            } => match find.find_at(text, at) {
                None => None,
                Some(m) => match exact.match_at(text, m.start())? {
                    Some(spans) => Some(spans),
                    // The engines read a class differently (`\d` is wider in the `regex`
                    // crate): the backtracking matcher searches on by itself.
                    None => {
                        let next = text
                            .get(m.start()..)
                            .and_then(|t| t.chars().next())
                            .map_or(text.len() + 1, |c| m.start() + c.len_utf8());
                        if next > text.len() {
                            None
                        } else {
                            exact.search(text, next)?
                        }
                    }
                },
            },
        };
        Ok(spans.map(|spans| Caps { text, spans }))
    }
}

impl crate::interp::Interp<'_, '_> {
    /// `CX_SY_REGEX_TOO_COMPLEX`: a search needed more steps than the matcher allows.
    pub(crate) fn regex_too_complex(&self) -> crate::interp::Unwind {
        self.dump(
            "REGEX_TOO_COMPLEX",
            "The regular expression is too complex for the text it searches",
        )
    }
}

/// Compiles `pattern` to match a whole text (`matches( )`, `CL_ABAP_MATCHER=>MATCHES`):
/// anchored at both ends in a group of its own, which decides nothing about the way through.
pub fn compile_whole(
    pattern: &str,
    flavor: Flavor,
    ignore_case: bool,
) -> Result<AbapRegex, String> {
    compile_as(&format!("^(?:{pattern})$"), pattern, flavor, ignore_case)
}

/// Compiles `pattern`; `Err` says why the simulator does not run it.
pub fn compile(pattern: &str, flavor: Flavor, ignore_case: bool) -> Result<AbapRegex, String> {
    compile_as(pattern, pattern, flavor, ignore_case)
}

/// Compiles `pattern`, which is `written` (the program's pattern) with what the simulator
/// wrapped around it; the engine is chosen by what was written.
fn compile_as(
    pattern: &str,
    written: &str,
    flavor: Flavor,
    ignore_case: bool,
) -> Result<AbapRegex, String> {
    let linear = || {
        RegexBuilder::new(pattern)
            .case_insensitive(ignore_case)
            .size_limit(SIZE_LIMIT)
            .dfa_size_limit(SIZE_LIMIT)
            .build()
    };
    let exact = || {
        regex_backtrack::compile(pattern, flavor == Flavor::Pcre, ignore_case)
            .map_err(|why| format!("regular expression {pattern} ({why})"))
    };
    let back_reference = regex_backtrack::has_back_reference(written);
    if flavor == Flavor::Posix {
        if back_reference || has_group_or_alternative(written) {
            let find = if back_reference { None } else { linear().ok() };
            return Ok(AbapRegex::Posix {
                find,
                exact: exact()?,
            });
        }
        // A pattern the `regex` crate does not read may still be ABAP's (`\l`, `\u`).
        return match linear() {
            Ok(re) => Ok(AbapRegex::Linear(re)),
            Err(_) => Ok(AbapRegex::Posix {
                find: None,
                exact: exact()?,
            }),
        };
    }
    if back_reference {
        return exact().map(AbapRegex::Backtrack);
    }
    linear()
        .map(AbapRegex::Linear)
        .map_err(|_| format!("regular expression {pattern}"))
}

/// The matches of `re` in `text` in the order ABAP takes them (`FIND`/`REPLACE ALL
/// OCCURRENCES`, `count( )`, `replace( … occ = 0 )`): each search starts where the last match
/// ended, so an empty match right after a non-empty one counts too (`b*` in `abbc` matches
/// at 0, 1–3, 3 and 4) except at the end of the text (`b*` in `bb` matches once); after an
/// empty match the search goes on one character later. `first`: only the first match;
/// `max`: at most that many (the caller decides whether more would have been an error).
pub fn matches_in_order<'h>(
    re: &AbapRegex,
    text: &'h str,
    first: bool,
    max: usize,
) -> Result<Vec<Caps<'h>>, TooComplex> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos <= text.len() && out.len() < max {
        let Some(caps) = re.captures_at(text, pos)? else {
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
    Ok(out)
}

/// Does `pattern` have a group `( … )` or an alternative `|` (outside bracket expressions)?
fn has_group_or_alternative(pattern: &str) -> bool {
    let mut escaped = false;
    let mut in_class = false;
    for c in pattern.chars() {
        match (escaped, in_class, c) {
            (true, _, _) => escaped = false,
            (false, _, '\\') => escaped = true,
            (false, false, '[') => in_class = true,
            (false, true, ']') => in_class = false,
            (false, false, '|' | '(') => return true,
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
    fn each_pattern_goes_to_the_engine_that_gives_abaps_answer() {
        let posix = |p: &str| compile(p, Flavor::Posix, false);
        // Alternatives and groups need every way through (POSIX), single-character pieces
        // do not; `|` in a bracket expression or escaped is a character.
        assert!(matches!(
            posix("a|ab"),
            Ok(AbapRegex::Posix { find: Some(_), .. })
        ));
        assert!(matches!(posix("x*(a)"), Ok(AbapRegex::Posix { .. })));
        assert!(matches!(posix("[a|b]+"), Ok(AbapRegex::Linear(_))));
        assert!(matches!(posix("a\\|b"), Ok(AbapRegex::Linear(_))));
        // `\l` is ABAP's, not the `regex` crate's: the backtracking matcher alone.
        assert!(matches!(
            posix("\\l+"),
            Ok(AbapRegex::Posix { find: None, .. })
        ));
        assert!(posix("a(?=b)").is_err());
        assert!(compile("a|ab", Flavor::Pcre, false).is_ok());
        assert!(compile("(a)\\1", Flavor::Pcre, false).is_ok());
        assert!(compile("(a)\\2", Flavor::Pcre, false).is_err());
        assert!(compile("a(?=b)", Flavor::Pcre, false).is_err());
    }

    #[test]
    fn matches_follow_abaps_order_with_empty_matches() {
        let spans = |p: &str, t: &str| -> Vec<(usize, usize)> {
            let re = compile(p, Flavor::Pcre, false).unwrap();
            matches_in_order(&re, t, false, usize::MAX)
                .unwrap()
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
