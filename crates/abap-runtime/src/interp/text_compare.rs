//! The relational operators for character strings: `CO CN CA NA CS NS CP NP`. Each sets
//! `sy-fdpos` as ABAP does: an offset in the left operand where the comparison decided, or the
//! left operand's length.
//!
//! Which trailing blanks count follows ABAP: `CO`/`CN`/`CA`/`NA` compare every character of
//! fixed-length operands including trailing blanks; `CS`/`NS` ignore trailing blanks of a
//! fixed-length right operand; `CP`/`NP` ignore trailing blanks of both operands (a `c` field is
//! matched by its content).

use crate::interp::{Exec, Interp};
use abap_data::value::Value;
use abap_syntax::ast::{Expr, TextOp};

/// An operand as the comparison sees it: its characters, and whether it has a fixed length
/// (`c`, `n`, `d`, `t`: trailing blanks are part of the content).
struct Operand {
    chars: Vec<char>,
    fixed: bool,
}

impl Operand {
    /// Without trailing blanks when the operand has a fixed length.
    fn content(&self) -> &[char] {
        if !self.fixed {
            return &self.chars;
        }
        let end = self
            .chars
            .iter()
            .rposition(|c| *c != ' ')
            .map_or(0, |i| i + 1);
        self.chars.get(..end).unwrap_or(&[])
    }
}

impl Operand {
    /// A `CP` pattern without trailing blanks when it has a fixed length, except a blank that
    /// the escape `#` makes part of the pattern (`'ab# '`).
    fn pattern_content(&self) -> &[char] {
        let content = self.content();
        let end = escaped_blank_end(content, &self.chars);
        self.chars.get(..end).unwrap_or(content)
    }
}

/// Where a pattern whose trailing blanks were cut (`content`) ends: one character later when
/// it ends in an escape `#` (an odd run of `#`) and a blank followed in `full`.
fn escaped_blank_end(content: &[char], full: &[char]) -> usize {
    let hashes = content.iter().rev().take_while(|c| **c == '#').count();
    if hashes % 2 == 1 && full.len() > content.len() {
        content.len() + 1
    } else {
        content.len()
    }
}

/// The outcome: whether the comparison holds and the value of `sy-fdpos`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub holds: bool,
    pub fdpos: usize,
}

/// Compares two operands' characters (pure: the interpreter converts and sets `sy-fdpos`).
fn compare(op: TextOp, a: &Operand, b: &Operand) -> Outcome {
    let len = a.chars.len();
    match op {
        TextOp::Co | TextOp::Cn => {
            // An empty string on the right contains nothing: only an empty string is "only".
            let first_other = a.chars.iter().position(|c| !b.chars.contains(c));
            let co = first_other.is_none();
            let fdpos = first_other.unwrap_or(len);
            Outcome {
                holds: co == (op == TextOp::Co),
                fdpos,
            }
        }
        TextOp::Ca | TextOp::Na => {
            let first_common = a.chars.iter().position(|c| b.chars.contains(c));
            Outcome {
                holds: first_common.is_some() == (op == TextOp::Ca),
                fdpos: first_common.unwrap_or(len),
            }
        }
        TextOp::Cs | TextOp::Ns => {
            let needle: Vec<char> = b.content().iter().map(|c| upper(*c)).collect();
            let hay: Vec<char> = a.chars.iter().map(|c| upper(*c)).collect();
            let found = find(&hay, &needle);
            let fdpos = found.unwrap_or(a.content().len());
            Outcome {
                holds: found.is_some() == (op == TextOp::Cs),
                fdpos,
            }
        }
        TextOp::Cp | TextOp::Np => {
            let found = pattern_match(a.content(), b.pattern_content());
            Outcome {
                holds: found.is_some() == (op == TextOp::Cp),
                fdpos: found.unwrap_or(a.content().len()),
            }
        }
    }
}

fn upper(c: char) -> char {
    abap_data::char_case::upper(c)
}

/// First position of `needle` in `hay` (an empty needle is found at 0).
fn find(hay: &[char], needle: &[char]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

/// One element of a `CP` pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pat {
    /// `*`: any character string.
    Any,
    /// `+`: any one character.
    One,
    /// A character compared without case.
    Char(char),
    /// A character after the escape `#`: compared exactly.
    Exact(char),
}

fn compile(pattern: &[char]) -> Vec<Pat> {
    let mut out = Vec::new();
    let mut it = pattern.iter();
    while let Some(c) = it.next() {
        out.push(match c {
            '*' => Pat::Any,
            '+' => Pat::One,
            '#' => match it.next() {
                Some(n) => Pat::Exact(*n),
                // A lone `#` at the end stands for itself.
                None => Pat::Exact('#'),
            },
            c => Pat::Char(*c),
        });
    }
    out
}

/// Does `text` match the `CP` pattern? `Some(offset)`: where the match of the first
/// character that is no `*` begins (ABAP's `sy-fdpos`), `None`: no match.
fn pattern_match(text: &[char], pattern: &[char]) -> Option<usize> {
    let pat = compile(pattern);
    // Iterative matching with backtracking to the last `*` (linear in practice, no recursion).
    let (mut ti, mut pi) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    let mut first: Option<usize> = None;
    let mut first_at_star: Option<usize> = None;
    while ti < text.len() {
        let c = text.get(ti).copied();
        match pat.get(pi) {
            Some(Pat::Any) => {
                star = Some((pi, ti));
                first_at_star = first;
                pi += 1;
                continue;
            }
            Some(Pat::One) => {}
            Some(Pat::Char(p)) if c.is_some_and(|c| upper(c) == upper(*p)) => {}
            Some(Pat::Exact(p)) if c == Some(*p) => {}
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                    first = first_at_star;
                    continue;
                }
                None => return None,
            },
        }
        first.get_or_insert(ti);
        ti += 1;
        pi += 1;
    }
    if pat.get(pi..).unwrap_or(&[]).iter().all(|p| *p == Pat::Any) {
        Some(first.unwrap_or(0))
    } else {
        None
    }
}

/// `text CP pattern` for two texts, trailing blanks of both ignored.
pub fn covers_pattern(text: &str, pattern: &str) -> bool {
    let text: Vec<char> = text.trim_end_matches(' ').chars().collect();
    let full: Vec<char> = pattern.chars().collect();
    let trimmed = pattern.trim_end_matches(' ').chars().count();
    let end = escaped_blank_end(full.get(..trimmed).unwrap_or(&[]), &full);
    let pattern = full.get(..end).unwrap_or(&[]);
    pattern_match(&text, pattern).is_some()
}

impl Interp<'_, '_> {
    /// Evaluates `l op r` and sets `sy-fdpos`.
    pub fn text_compare(&mut self, op: TextOp, l: &Expr, r: &Expr) -> Exec<bool> {
        let a = self.eval(l)?;
        let b = self.eval(r)?;
        self.text_compare_values(op, &a, &b)
    }

    pub fn text_compare_values(&mut self, op: TextOp, a: &Value, b: &Value) -> Exec<bool> {
        let a = self.text_operand(a)?;
        let b = self.text_operand(b)?;
        let outcome = compare(op, &a, &b);
        self.st
            .set_sy("FDPOS", i32::try_from(outcome.fdpos).unwrap_or(i32::MAX));
        Ok(outcome.holds)
    }

    fn text_operand(&self, v: &Value) -> Exec<Operand> {
        let fixed = matches!(v, Value::C(_) | Value::N(_) | Value::D(_) | Value::T(_));
        let text = match v {
            Value::C(s) | Value::N(s) | Value::D(s) | Value::T(s) | Value::Str(s) => s.clone(),
            other => other
                .to_abap_string()
                .map_err(|e| self.conv_error(e))?
                .into(),
        };
        Ok(Operand {
            chars: text.chars().collect(),
            fixed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(text: &str, fixed: bool) -> Operand {
        Operand {
            chars: text.chars().collect(),
            fixed,
        }
    }

    fn run(o: TextOp, a: &str, b: &str) -> (bool, usize) {
        let r = compare(o, &op(a, false), &op(b, false));
        (r.holds, r.fdpos)
    }

    #[test]
    fn contains_only_and_any() {
        assert_eq!(run(TextOp::Co, "ABCA", "ABC"), (true, 4));
        assert_eq!(run(TextOp::Co, "ABXA", "ABC"), (false, 2));
        assert_eq!(run(TextOp::Cn, "ABXA", "ABC"), (true, 2));
        assert_eq!(run(TextOp::Ca, "xyzB", "ABC"), (true, 3));
        assert_eq!(run(TextOp::Ca, "xyz", "ABC"), (false, 3));
        assert_eq!(run(TextOp::Na, "xyz", "ABC"), (true, 3));
        // Case matters for CO/CA.
        assert_eq!(run(TextOp::Co, "abc", "ABC"), (false, 0));
    }

    #[test]
    fn trailing_blanks_of_fixed_length_fields() {
        // `c` field 'AB  ' CO 'AB': its trailing blanks are characters too.
        let r = compare(TextOp::Co, &op("AB  ", true), &op("AB", false));
        assert_eq!((r.holds, r.fdpos), (false, 2));
        // CS ignores the trailing blanks of a fixed-length right operand.
        let r = compare(TextOp::Cs, &op("HELLO WORLD", false), &op("WORLD   ", true));
        assert_eq!((r.holds, r.fdpos), (true, 6));
    }

    #[test]
    fn contains_string_ignores_case() {
        assert_eq!(run(TextOp::Cs, "Hello World", "WORLD"), (true, 6));
        assert_eq!(run(TextOp::Cs, "Hello", "xyz"), (false, 5));
        assert_eq!(run(TextOp::Ns, "Hello", "xyz"), (true, 5));
        assert_eq!(run(TextOp::Cs, "Hello", ""), (true, 0));
    }

    #[test]
    fn covers_pattern() {
        assert_eq!(run(TextOp::Cp, "ABCDEF", "*CD*"), (true, 2));
        assert_eq!(run(TextOp::Cp, "ABCDEF", "ab*"), (true, 0));
        assert_eq!(run(TextOp::Cp, "ABCDEF", "A+C*"), (true, 0));
        assert_eq!(run(TextOp::Cp, "ABCDEF", "*X*"), (false, 6));
        assert_eq!(run(TextOp::Np, "ABCDEF", "*X*"), (true, 6));
        assert_eq!(run(TextOp::Cp, "ABC", "ABC"), (true, 0));
        assert_eq!(run(TextOp::Cp, "ABCD", "ABC"), (false, 4));
        assert_eq!(run(TextOp::Cp, "", "*"), (true, 0));
        // The escape makes a wildcard literal and the letter case-sensitive.
        assert_eq!(run(TextOp::Cp, "A*B", "A#*B"), (true, 0));
        assert_eq!(run(TextOp::Cp, "AXB", "A#*B"), (false, 3));
        assert_eq!(run(TextOp::Cp, "abc", "#abc"), (true, 0));
        assert_eq!(run(TextOp::Cp, "Abc", "#abc"), (false, 3));
        // Backtracking over several stars.
        assert_eq!(run(TextOp::Cp, "XAXBXC", "*A*B*C"), (true, 1));
        let r = compare(TextOp::Cp, &op("abc   ", true), &op("ABC ", true));
        assert!(r.holds);
        // An escaped trailing blank stays part of a fixed-length pattern; `##` escapes `#`.
        assert!(compare(TextOp::Cp, &op("ab ", false), &op("ab# ", true)).holds);
        assert!(!compare(TextOp::Cp, &op("ab", false), &op("ab# ", true)).holds);
        assert!(compare(TextOp::Cp, &op("ab#", false), &op("ab##  ", true)).holds);
    }
}
