//! Built-in string functions (`substring( val = s off = 1 len = 2 )`, `find`, `replace`,
//! `segment`, `to_mixed`, …) with named arguments and the positional `func( x )` form.
//!
//! The text work is done by plain functions on character slices (offsets count characters);
//! [`Interp::text_function`] evaluates the arguments and turns their errors into ABAP's
//! exceptions. Calls with `regex`/`pcre` arguments (and `matches( )`, `match( )`) are handled
//! before they get here, in `regex.rs`.

use super::group::Group;
use crate::interp::{Exec, Interp, Unwind};
use abap_data::value::{Type, Value};
use abap_syntax::ast::CallExpr;

/// The functions handled here, the name their positional argument stands for, and the named
/// arguments each accepts.
const FUNCTIONS: &[(&str, &str, &[&str])] = &[
    ("SUBSTRING", "VAL", &["VAL", "OFF", "LEN"]),
    (
        "SUBSTRING_AFTER",
        "VAL",
        &["VAL", "SUB", "OCC", "LEN", "CASE"],
    ),
    (
        "SUBSTRING_BEFORE",
        "VAL",
        &["VAL", "SUB", "OCC", "LEN", "CASE"],
    ),
    (
        "SUBSTRING_FROM",
        "VAL",
        &["VAL", "SUB", "OCC", "LEN", "CASE"],
    ),
    ("SUBSTRING_TO", "VAL", &["VAL", "SUB", "OCC", "LEN", "CASE"]),
    ("SHIFT_LEFT", "VAL", &["VAL", "PLACES", "CIRCULAR", "SUB"]),
    ("SHIFT_RIGHT", "VAL", &["VAL", "PLACES", "CIRCULAR", "SUB"]),
    (
        "REPLACE",
        "VAL",
        &["VAL", "SUB", "WITH", "OCC", "CASE", "OFF", "LEN"],
    ),
    ("FIND", "VAL", &["VAL", "SUB", "OCC", "CASE", "OFF", "LEN"]),
    ("COUNT", "VAL", &["VAL", "SUB", "CASE", "OFF", "LEN"]),
    (
        "CONTAINS",
        "VAL",
        &["VAL", "SUB", "START", "END", "CASE", "OCC"],
    ),
    ("CONTAINS_ANY_OF", "VAL", &["VAL", "SUB"]),
    ("CONTAINS_ANY_NOT_OF", "VAL", &["VAL", "SUB"]),
    ("FIND_ANY_OF", "VAL", &["VAL", "SUB", "OCC", "OFF", "LEN"]),
    (
        "FIND_ANY_NOT_OF",
        "VAL",
        &["VAL", "SUB", "OCC", "OFF", "LEN"],
    ),
    ("COUNT_ANY_OF", "VAL", &["VAL", "SUB", "OFF", "LEN"]),
    ("COUNT_ANY_NOT_OF", "VAL", &["VAL", "SUB", "OFF", "LEN"]),
    ("DISTANCE", "", &["VAL1", "VAL2", "MAX"]),
    ("CONDENSE", "VAL", &["VAL", "DEL", "FROM", "TO"]),
    ("CONCAT_LINES_OF", "TABLE", &["TABLE", "SEP"]),
    ("REPEAT", "VAL", &["VAL", "OCC"]),
    ("REVERSE", "VAL", &["VAL"]),
    ("SEGMENT", "VAL", &["VAL", "INDEX", "SEP", "SPACE"]),
    ("TO_UPPER", "VAL", &["VAL"]),
    ("TO_LOWER", "VAL", &["VAL"]),
    ("TO_MIXED", "VAL", &["VAL", "SEP", "CASE", "MIN"]),
    ("FROM_MIXED", "VAL", &["VAL", "SEP", "CASE", "MIN"]),
    ("STRLEN", "VAL", &["VAL"]),
    ("NUMOFCHAR", "VAL", &["VAL"]),
    ("XSTRLEN", "VAL", &["VAL"]),
    ("INSERT", "VAL", &["VAL", "SUB", "OFF"]),
    ("TRANSLATE", "VAL", &["VAL", "FROM", "TO"]),
    (
        "CMAX",
        "",
        &[
            "VAL1", "VAL2", "VAL3", "VAL4", "VAL5", "VAL6", "VAL7", "VAL8", "VAL9",
        ],
    ),
    (
        "CMIN",
        "",
        &[
            "VAL1", "VAL2", "VAL3", "VAL4", "VAL5", "VAL6", "VAL7", "VAL8", "VAL9",
        ],
    ),
];

/// Why a string function fails.
pub(crate) const GROUP: Group = Group {
    name: "text",
    knows: |name| FUNCTIONS.iter().any(|(n, _, _)| *n == name),
    run: |interp, call| interp.text_function(call),
};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StrErr {
    /// Offset or length outside the string: `CX_SY_RANGE_OUT_OF_BOUNDS` (runtime error id).
    Range(&'static str),
    /// An argument value the function does not accept: `CX_SY_STRG_PAR_VAL`.
    ParVal(String),
    /// A result longer than the simulator builds.
    TooLarge,
    /// A use whose ABAP result is not pinned down here.
    Unsupported(String),
}

type R<T> = Result<T, StrErr>;

/// Runtime error of `CX_SY_STRG_PAR_VAL` (mapped to the class in `builtins/classes/mod.rs`).
pub const PAR_VAL_DUMP: &str = "STRG_ILLEGAL_PAR";

fn same(a: char, b: char, case: bool) -> bool {
    a == b || (!case && abap_data::char_case::lower(a) == abap_data::char_case::lower(b))
}

fn eq_at(hay: &[char], i: usize, sub: &[char], case: bool) -> bool {
    hay.get(i..i + sub.len())
        .is_some_and(|w| w.iter().zip(sub).all(|(a, b)| same(*a, *b, case)))
}

/// Offsets of the non-overlapping occurrences of `sub`, left to right (`sub` not empty).
fn matches_forward(hay: &[char], sub: &[char], case: bool) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + sub.len() <= hay.len() && !sub.is_empty() {
        if eq_at(hay, i, sub, case) {
            out.push(i);
            i += sub.len();
        } else {
            i += 1;
        }
    }
    out
}

/// Offset of the `occ`-th occurrence of `sub`: counted from the left for positive `occ`,
/// from the right (searching backwards) for negative `occ`.
fn nth_match(hay: &[char], sub: &[char], occ: i64, case: bool) -> R<Option<usize>> {
    if sub.is_empty() {
        // Measured (find, substring_after): an empty substring is an invalid argument.
        return Err(StrErr::ParVal("sub is empty".into()));
    }
    if occ == 0 {
        return Err(StrErr::ParVal("occ = 0".into()));
    }
    if occ > 0 {
        let all = matches_forward(hay, sub, case);
        return Ok(usize::try_from(occ - 1)
            .ok()
            .and_then(|k| all.get(k).copied()));
    }
    let mut end = hay.len();
    let mut found = 0i64;
    loop {
        let Some(start) = end.checked_sub(sub.len()) else {
            return Ok(None);
        };
        let Some(i) = (0..=start).rev().find(|&i| eq_at(hay, i, sub, case)) else {
            return Ok(None);
        };
        found += 1;
        if found == -occ {
            return Ok(Some(i));
        }
        end = i;
    }
}

/// The part `[off, off + len)` of a string of `n` characters (defaults: 0 and the rest); any
/// offset or length outside the string is runtime error `STRING_OFFSET_TOO_LARGE`
/// (`CX_SY_RANGE_OUT_OF_BOUNDS`), the one these functions document.
fn section(n: usize, off: Option<i64>, len: Option<i64>) -> R<(usize, usize)> {
    let bad = || StrErr::Range("STRING_OFFSET_TOO_LARGE");
    let off = usize::try_from(off.unwrap_or(0)).map_err(|_| bad())?;
    let rest = n.checked_sub(off).ok_or_else(bad)?;
    let len = match len {
        None => rest,
        Some(l) => usize::try_from(l).map_err(|_| bad())?,
    };
    if len > rest {
        return Err(bad());
    }
    Ok((off, len))
}

fn text(cs: &[char]) -> String {
    cs.iter().collect()
}

/// `substring( val off len )`.
pub fn substring(val: &[char], off: Option<i64>, len: Option<i64>) -> R<String> {
    let (o, l) = section(val.len(), off, len)?;
    Ok(text(&val[o..o + l]))
}

/// `substring_after|before|from|to( val sub occ len case )`; empty when `sub` is not found.
/// With `len`: `from`/`after` keep `len` characters from the match / after it, `before`/`to`
/// the `len` characters before the match (`to` plus the match).
pub fn substring_around(
    func: &str,
    val: &[char],
    sub: &[char],
    occ: i64,
    len: Option<i64>,
    case: bool,
) -> R<String> {
    let Some(at) = nth_match(val, sub, occ, case)? else {
        return Ok(String::new());
    };
    let end = at + sub.len();
    let bad = || StrErr::Range("STRING_OFFSET_TOO_LARGE");
    let len = len
        .map(|l| usize::try_from(l).map_err(|_| bad()))
        .transpose()?;
    let (a, b) = match (func, len) {
        ("SUBSTRING_AFTER", None) => (end, val.len()),
        ("SUBSTRING_AFTER", Some(l)) => (end, end.checked_add(l).ok_or_else(bad)?),
        ("SUBSTRING_FROM", None) => (at, val.len()),
        ("SUBSTRING_FROM", Some(l)) => (at, at.checked_add(l).ok_or_else(bad)?),
        ("SUBSTRING_BEFORE", None) => (0, at),
        ("SUBSTRING_BEFORE", Some(l)) => (at.checked_sub(l).ok_or_else(bad)?, at),
        (_, None) => (0, end),
        (_, Some(l)) => (at.checked_sub(l).ok_or_else(bad)?, end),
    };
    val.get(a..b).map(text).ok_or_else(bad)
}

/// `find( val sub occ off len case )`: offset in `val`, -1 when not found.
pub fn find(
    val: &[char],
    sub: &[char],
    occ: i64,
    off: Option<i64>,
    len: Option<i64>,
    case: bool,
) -> R<i64> {
    let (o, l) = section(val.len(), off, len)?;
    Ok(match nth_match(&val[o..o + l], sub, occ, case)? {
        Some(i) => i64::try_from(i + o).unwrap_or(i64::MAX),
        None => -1,
    })
}

/// `find_any_of|find_any_not_of( val sub occ off len )`: offset of the `occ`-th character
/// that is (not) in the set `sub` (negative `occ` from the right), -1 when there is none.
pub fn find_any(
    val: &[char],
    set: &[char],
    any_of: bool,
    occ: i64,
    off: Option<i64>,
    len: Option<i64>,
) -> R<i64> {
    if occ == 0 {
        return Err(StrErr::ParVal("occ = 0".into()));
    }
    let (o, l) = section(val.len(), off, len)?;
    if set.is_empty() {
        return Ok(-1);
    }
    let hits = (o..o + l).filter(|&i| val.get(i).is_some_and(|c| set.contains(c) == any_of));
    let k = usize::try_from(occ.unsigned_abs() - 1).unwrap_or(usize::MAX);
    let hit = if occ > 0 {
        hits.clone().nth(k)
    } else {
        hits.rev().nth(k)
    };
    Ok(hit.map_or(-1, |i| i64::try_from(i).unwrap_or(i64::MAX)))
}

/// `distance( val1 val2 )`: the Levenshtein distance (inserts, deletes, replacements).
pub fn distance(a: &[char], b: &[char]) -> R<i64> {
    if a.len().saturating_mul(b.len()) > 16_000_000 {
        return Err(StrErr::Unsupported("texts this long".into()));
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let replace = prev[j] + usize::from(ca != cb);
            cur[j + 1] = replace.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    Ok(prev
        .last()
        .map_or(0, |d| i64::try_from(*d).unwrap_or(i64::MAX)))
}

/// `count( val sub off len case )`: non-overlapping occurrences.
pub fn count(val: &[char], sub: &[char], off: Option<i64>, len: Option<i64>, case: bool) -> R<i64> {
    if sub.is_empty() {
        return Err(StrErr::ParVal("empty sub".into()));
    }
    let (o, l) = section(val.len(), off, len)?;
    Ok(i64::try_from(matches_forward(&val[o..o + l], sub, case).len()).unwrap_or(i64::MAX))
}

/// `replace( val sub with occ case )`: `occ = 0` replaces every occurrence.
/// `limit`: the longest result built (in bytes), checked before building it.
pub fn replace_sub(
    val: &[char],
    sub: &[char],
    with: &str,
    occ: i64,
    case: bool,
    limit: usize,
) -> R<String> {
    if sub.is_empty() {
        return Err(StrErr::ParVal("sub is empty".into()));
    }
    let hits: Vec<usize> = if occ == 0 {
        matches_forward(val, sub, case)
    } else {
        nth_match(val, sub, occ, case)?.into_iter().collect()
    };
    if hits
        .len()
        .saturating_mul(with.len())
        .saturating_add(val.len())
        > limit
    {
        return Err(StrErr::TooLarge);
    }
    let mut out = String::new();
    let mut i = 0;
    for h in hits {
        out.extend(&val[i..h]);
        out.push_str(with);
        i = h + sub.len();
    }
    out.extend(&val[i..]);
    Ok(out)
}

/// `replace( val off len with )`: the section replaced (only `off`: inserted there).
pub fn replace_section(val: &[char], off: Option<i64>, len: Option<i64>, with: &str) -> R<String> {
    let (o, l) = section(val.len(), Some(off.unwrap_or(0)), Some(len.unwrap_or(0)))?;
    let mut out = text(&val[..o]);
    out.push_str(with);
    out.extend(&val[o + l..]);
    Ok(out)
}

/// `places`/`circular` of the shift functions: negative or longer than the string is
/// `CX_SY_RANGE_OUT_OF_BOUNDS`.
fn places_arg(p: i64, n: usize) -> R<usize> {
    let p = usize::try_from(p).map_err(|_| StrErr::Range("STRING_LENGTH_NEGATIVE"))?;
    if p > n {
        return Err(StrErr::Range("STRING_LENGTH_TOO_LARGE"));
    }
    Ok(p)
}

/// `shift_left|right( val places|circular|sub )`.
pub fn shift(
    left: bool,
    val: &[char],
    places: Option<i64>,
    circular: Option<i64>,
    sub: Option<&[char]>,
) -> R<String> {
    let n = val.len();
    match (places, circular, sub) {
        (Some(p), None, None) => {
            let p = places_arg(p, n)?;
            Ok(if left {
                text(&val[p..])
            } else {
                text(&val[..n - p])
            })
        }
        (None, Some(c), None) => {
            let c = places_arg(c, n)?;
            if n == 0 {
                return Ok(String::new());
            }
            let k = if left { c } else { n - c };
            let mut out = text(&val[k..]);
            out.extend(&val[..k]);
            Ok(out)
        }
        (None, None, sub) => {
            // Without arguments blanks are removed.
            let sub = sub.unwrap_or(&[' ']);
            let (mut a, mut b) = (0, n);
            if !sub.is_empty() {
                if left {
                    while eq_at(val, a, sub, true) {
                        a += sub.len();
                    }
                } else {
                    while b >= sub.len() && eq_at(val, b - sub.len(), sub, true) {
                        b -= sub.len();
                    }
                }
            }
            Ok(text(&val[a..b]))
        }
        _ => Err(StrErr::Unsupported(
            "shift function with more than one of places, circular, sub".into(),
        )),
    }
}

/// `condense( val del from to )`: `del` characters removed at both ends, every run of `from`
/// characters replaced by the first character of `to`.
pub fn condense(val: &[char], del: &[char], from: &[char], to: &[char]) -> String {
    let mut a = 0;
    let mut b = val.len();
    while a < b && val.get(a).is_some_and(|c| del.contains(c)) {
        a += 1;
    }
    while b > a && val.get(b - 1).is_some_and(|c| del.contains(c)) {
        b -= 1;
    }
    let mut out = String::new();
    let mut in_run = false;
    for c in &val[a..b] {
        if from.contains(c) {
            if !in_run && let Some(t) = to.first() {
                out.push(*t);
            }
            in_run = true;
        } else {
            out.push(*c);
            in_run = false;
        }
    }
    out
}

/// `segment( val index sep )` (`sep` a string) or `segment( val index space )` (`space` a set
/// of characters; runs of them separate like one).
pub fn segment(
    val: &[char],
    index: i64,
    sep: Option<&[char]>,
    space: Option<&[char]>,
) -> R<String> {
    let parts: Vec<String> = match (sep, space) {
        (Some(sep), None) => {
            if sep.is_empty() {
                return Err(StrErr::ParVal("empty sep".into()));
            }
            let mut parts = Vec::new();
            let mut i = 0;
            for h in matches_forward(val, sep, true) {
                parts.push(text(&val[i..h]));
                i = h + sep.len();
            }
            parts.push(text(&val[i..]));
            parts
        }
        (None, Some(space)) => {
            if space.is_empty() {
                return Err(StrErr::ParVal("empty space".into()));
            }
            text(val)
                .split(|c| space.contains(&c))
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        }
        (None, None) => return segment(val, index, Some(&[' ']), None),
        _ => {
            return Err(StrErr::Unsupported(
                "segment( ) with both sep and space".into(),
            ));
        }
    };
    let i = if index > 0 {
        usize::try_from(index - 1).ok()
    } else if index < 0 {
        usize::try_from(-index)
            .ok()
            .and_then(|k| parts.len().checked_sub(k))
    } else {
        None
    };
    i.and_then(|i| parts.get(i).cloned())
        .ok_or_else(|| StrErr::ParVal(format!("segment {index} does not exist")))
}

/// `to_mixed( val sep case min )`: from the second character on, letters in lower case and
/// each separator that follows at least `min` characters (counted from the start or the last
/// removed separator) removed, the character after it in upper case; the first character as
/// `case` says (unchanged without `case`).
pub fn to_mixed(val: &[char], sep: char, first: Option<char>, min: usize) -> String {
    let mut out = String::new();
    let mut upper_next = false;
    let mut since = 0usize;
    for (i, c) in val.iter().enumerate() {
        if i == 0 {
            match first {
                Some(f) if f.is_uppercase() => out.push(abap_data::char_case::upper(*c)),
                Some(_) => out.push(abap_data::char_case::lower(*c)),
                None => out.push(*c),
            }
            since = 1;
        } else if *c == sep && since >= min {
            upper_next = true;
            since = 0;
        } else {
            if upper_next {
                out.push(abap_data::char_case::upper(*c));
                upper_next = false;
            } else {
                out.push(abap_data::char_case::lower(*c));
            }
            since += 1;
        }
    }
    out
}

/// `from_mixed( val sep case min )`: a separator before each upper case letter that follows at
/// least `min` characters (counted from the start or the last inserted separator), everything
/// in upper case (lower case when `case` starts with a lower case letter).
pub fn from_mixed(val: &[char], sep: char, lower: bool, min: usize) -> String {
    let mut out = String::new();
    let mut since = 0usize;
    for c in val {
        if since >= min && since > 0 && c.is_uppercase() {
            out.push(sep);
            since = 0;
        }
        if lower {
            out.push(abap_data::char_case::lower(*c));
        } else {
            out.push(abap_data::char_case::upper(*c));
        }
        since += 1;
    }
    out
}

/// `translate( val from to )`: each character of `from` becomes the one at the same place in
/// `to`; `from` characters without a counterpart are removed.
pub fn translate(val: &[char], from: &[char], to: &[char]) -> String {
    let mut out = String::new();
    for c in val {
        match from.iter().position(|f| f == c) {
            Some(k) => {
                if let Some(t) = to.get(k) {
                    out.push(*t);
                }
            }
            None => out.push(*c),
        }
    }
    out
}

/// Upper/lower case that keeps one character per character.
fn map_case(val: &str, upper: bool) -> String {
    if upper {
        abap_data::char_case::upper_str(val)
    } else {
        abap_data::char_case::lower_str(val)
    }
}

/// The text of a character-like argument: `c` without trailing blanks (ABAP ignores them in
/// every argument of fixed length, so `' '` is an empty text), other types converted to
/// `string`.
fn arg_text(v: &Value) -> Result<String, abap_data::value::ConvError> {
    v.to_abap_string()
}

/// The evaluated arguments of one call.
struct Args {
    vals: Vec<(String, Value)>,
}

impl Args {
    fn get(&self, name: &str) -> Option<&Value> {
        self.vals.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

impl<'r> Interp<'r, '_> {
    fn str_err(&self, func: &str, e: StrErr) -> Unwind {
        let f = func.to_ascii_lowercase();
        match e {
            StrErr::Range(id) => self.dump(
                id,
                format!("Illegal offset or length access in the function {f}( )"),
            ),
            StrErr::ParVal(what) => self.dump(
                PAR_VAL_DUMP,
                format!("Invalid argument for the function {f}( ): {what}"),
            ),
            StrErr::TooLarge => self.dump(
                "STRING_SIZE_TOO_LARGE",
                format!("The result of {f}( ) is too long"),
            ),
            StrErr::Unsupported(what) => self.not_supported(&format!("{f}( ) with {what}")),
        }
    }

    fn text_arg(&self, args: &Args, name: &str) -> Exec<Option<Vec<char>>> {
        args.get(name)
            .map(|v| {
                arg_text(v)
                    .map(|s| s.chars().collect())
                    .map_err(|e| self.conv_error(e))
            })
            .transpose()
    }

    fn int_arg(&self, args: &Args, name: &str) -> Exec<Option<i64>> {
        let Some(v) = args.get(name) else {
            return Ok(None);
        };
        match v.convert(&Type::I).map_err(|e| self.conv_error(e))? {
            Value::I(i) => Ok(Some(i64::from(i))),
            _ => Err(self.not_supported(&format!("argument {name}"))),
        }
    }

    /// `case = abap_true|abap_false` (default: case-sensitive).
    fn case_arg(&self, args: &Args) -> Exec<bool> {
        Ok(match args.get("CASE") {
            None => true,
            Some(v) => !arg_text(v)
                .map_err(|e| self.conv_error(e))?
                .trim()
                .is_empty(),
        })
    }

    /// A built-in string function; `None` when `call` names none of them.
    pub fn text_function(&mut self, call: &CallExpr) -> Exec<Option<Value>> {
        let func = call.method.as_str();
        let Some((_, positional, allowed)) = FUNCTIONS.iter().find(|(n, _, _)| *n == func) else {
            return Ok(None);
        };
        let a = &call.args;
        if !a.importing.is_empty() || !a.changing.is_empty() || a.receiving.is_some() {
            return Err(self.not_supported(&format!("{func}( ) with IMPORTING or CHANGING")));
        }
        let mut vals = Vec::new();
        if let Some(e) = &a.positional {
            if positional.is_empty() {
                return Err(self.not_supported(&format!("{func}( ) with a positional argument")));
            }
            vals.push((positional.to_string(), self.eval(e)?));
        }
        for (n, e) in &a.exporting {
            if n == "REGEX" || n == "PCRE" {
                return Err(self.not_supported(&format!(
                    "{}( ) with a regular expression ({})",
                    func.to_ascii_lowercase(),
                    n.to_ascii_lowercase()
                )));
            }
            if !allowed.contains(&n.as_str()) || vals.iter().any(|(m, _)| m == n) {
                return Err(self.not_supported(&format!(
                    "{}( ) with argument {}",
                    func.to_ascii_lowercase(),
                    n.to_ascii_lowercase()
                )));
            }
            vals.push((n.clone(), self.eval(e)?));
        }
        let args = Args { vals };
        let r = match self.text_function_of(func, &args)? {
            // Results at most twice the longest argument (insert( ), replace( off len )) are
            // checked once built.
            Ok(Value::Str(s)) if s.len() > self.limits.string_length => Err(StrErr::TooLarge),
            r => r,
        };
        r.map(Some).map_err(|e| self.str_err(func, e))
    }

    fn text_function_of(&mut self, func: &str, args: &Args) -> Exec<R<Value>> {
        let str_ok = |r: R<String>| r.map(|s| Value::Str(s.into()));
        if func == "CMAX" || func == "CMIN" {
            let mut best: Option<String> = None;
            for k in 1..=9 {
                let Some(t) = self.text_arg(args, &format!("VAL{k}"))? else {
                    continue;
                };
                let t: String = t.into_iter().collect();
                best = Some(match best {
                    Some(b) if (func == "CMAX") == (b >= t) => b,
                    _ => t,
                });
            }
            if args.get("VAL1").is_none() || args.get("VAL2").is_none() {
                return Ok(Err(StrErr::Unsupported("fewer than val1 and val2".into())));
            }
            return Ok(Ok(Value::Str(best.unwrap_or_default().into())));
        }
        if func == "CONCAT_LINES_OF" {
            let Some(Value::Table(_, rows)) = args.get("TABLE") else {
                return Ok(Err(StrErr::Unsupported(
                    "an argument that is no table".into(),
                )));
            };
            let sep: String = self
                .text_arg(args, "SEP")?
                .unwrap_or_default()
                .into_iter()
                .collect();
            let mut out = String::new();
            for (i, row) in rows.iter().enumerate() {
                if matches!(row, Value::Struct(..) | Value::Table(..)) {
                    return Ok(Err(StrErr::Unsupported(
                        "a table of structured rows".into(),
                    )));
                }
                if i > 0 {
                    out.push_str(&sep);
                }
                let row_text = arg_text(row).map_err(|e| self.conv_error(e))?;
                if out.len() + row_text.len() > self.limits.string_length {
                    return Ok(Err(StrErr::TooLarge));
                }
                // Growing it may move it: the old and the new buffer, for a moment.
                self.room_for_text(out.len().saturating_add(row_text.len()))?;
                out.push_str(&row_text);
            }
            return Ok(Ok(Value::Str(out.into())));
        }
        if func == "DISTANCE" {
            let (Some(a), Some(b)) = (self.text_arg(args, "VAL1")?, self.text_arg(args, "VAL2")?)
            else {
                return Ok(Err(StrErr::Unsupported("fewer than val1 and val2".into())));
            };
            // `max` caps the result (and the work); it must be positive.
            let max = self.int_arg(args, "MAX")?;
            if let Some(m) = max.filter(|m| *m <= 0) {
                return Ok(Err(StrErr::ParVal(format!("max = {m}"))));
            }
            return Ok(distance(&a, &b).map(|d| {
                let d = max.map_or(d, |m| d.min(m));
                Value::I(i32::try_from(d).unwrap_or(i32::MAX))
            }));
        }
        if func == "XSTRLEN" {
            return Ok(match args.get("VAL") {
                Some(Value::X(b) | Value::XStr(b)) => {
                    Ok(Value::I(i32::try_from(b.len()).unwrap_or(i32::MAX)))
                }
                _ => Err(StrErr::Unsupported(
                    "an argument that is not byte-like".into(),
                )),
            });
        }
        let Some(val) = self.text_arg(args, "VAL")? else {
            return Ok(Err(StrErr::Unsupported("no val argument".into())));
        };
        let case = self.case_arg(args)?;
        let count_of = |n: usize| Value::I(i32::try_from(n).unwrap_or(i32::MAX));
        Ok(match func {
            "SUBSTRING" => {
                let off = self.int_arg(args, "OFF")?;
                let len = self.int_arg(args, "LEN")?;
                str_ok(substring(&val, off, len))
            }
            "SUBSTRING_AFTER" | "SUBSTRING_BEFORE" | "SUBSTRING_FROM" | "SUBSTRING_TO" => {
                let Some(sub) = self.text_arg(args, "SUB")? else {
                    return Ok(Err(StrErr::Unsupported("no sub argument".into())));
                };
                let occ = self.int_arg(args, "OCC")?.unwrap_or(1);
                let len = self.int_arg(args, "LEN")?;
                str_ok(substring_around(func, &val, &sub, occ, len, case))
            }
            "SHIFT_LEFT" | "SHIFT_RIGHT" => {
                let places = self.int_arg(args, "PLACES")?;
                let circular = self.int_arg(args, "CIRCULAR")?;
                let sub = self.text_arg(args, "SUB")?;
                str_ok(shift(
                    func == "SHIFT_LEFT",
                    &val,
                    places,
                    circular,
                    sub.as_deref(),
                ))
            }
            "REPLACE" => {
                let with: String = self
                    .text_arg(args, "WITH")?
                    .unwrap_or_default()
                    .into_iter()
                    .collect();
                let off = self.int_arg(args, "OFF")?;
                let len = self.int_arg(args, "LEN")?;
                match self.text_arg(args, "SUB")? {
                    Some(sub) if off.is_none() && len.is_none() => {
                        let occ = self.int_arg(args, "OCC")?.unwrap_or(1);
                        str_ok(replace_sub(
                            &val,
                            &sub,
                            &with,
                            occ,
                            case,
                            self.limits.string_length,
                        ))
                    }
                    None if off.is_some() || len.is_some() => {
                        str_ok(replace_section(&val, off, len, &with))
                    }
                    _ => Err(StrErr::Unsupported("this combination of arguments".into())),
                }
            }
            "FIND" | "COUNT" => {
                let Some(sub) = self.text_arg(args, "SUB")? else {
                    return Ok(Err(StrErr::Unsupported("no sub argument".into())));
                };
                let off = self.int_arg(args, "OFF")?;
                let len = self.int_arg(args, "LEN")?;
                let r = if func == "FIND" {
                    let occ = self.int_arg(args, "OCC")?.unwrap_or(1);
                    find(&val, &sub, occ, off, len, case)
                } else {
                    count(&val, &sub, off, len, case)
                };
                r.map(|n| Value::I(i32::try_from(n).unwrap_or(i32::MAX)))
            }
            "CONTAINS" => {
                let occ = self.int_arg(args, "OCC")?;
                let sub = self.text_arg(args, "SUB")?;
                let start = self.text_arg(args, "START")?;
                let end = self.text_arg(args, "END")?;
                let r = match (sub, start, end) {
                    (Some(s), None, None) | (None, Some(s), None) | (None, None, Some(s))
                        if s.is_empty() =>
                    {
                        Err(StrErr::ParVal("empty sub".into()))
                    }
                    (Some(sub), None, None) => {
                        let need = occ.unwrap_or(1);
                        if need <= 0 {
                            Err(StrErr::ParVal(format!("occ = {need}")))
                        } else {
                            let n = matches_forward(&val, &sub, case).len();
                            Ok(i64::try_from(n).unwrap_or(i64::MAX) >= need)
                        }
                    }
                    (None, Some(s), None) if occ.is_none() => Ok(eq_at(&val, 0, &s, case)),
                    (None, None, Some(s)) if occ.is_none() => Ok(val
                        .len()
                        .checked_sub(s.len())
                        .is_some_and(|i| eq_at(&val, i, &s, case))),
                    _ => Err(StrErr::Unsupported("this combination of arguments".into())),
                };
                r.map(abap_bool)
            }
            "FIND_ANY_OF" | "FIND_ANY_NOT_OF" | "COUNT_ANY_OF" | "COUNT_ANY_NOT_OF" => {
                let Some(set) = self.text_arg(args, "SUB")? else {
                    return Ok(Err(StrErr::Unsupported("no sub argument".into())));
                };
                let any_of = func.ends_with("ANY_OF");
                let off = self.int_arg(args, "OFF")?;
                let len = self.int_arg(args, "LEN")?;
                let r = if func.starts_with("FIND") {
                    let occ = self.int_arg(args, "OCC")?.unwrap_or(1);
                    find_any(&val, &set, any_of, occ, off, len)
                } else {
                    section(val.len(), off, len).map(|(o, l)| {
                        let n = val[o..o + l]
                            .iter()
                            .filter(|c| set.contains(c) == any_of)
                            .count();
                        i64::try_from(n).unwrap_or(i64::MAX)
                    })
                };
                r.map(|n| Value::I(i32::try_from(n).unwrap_or(i32::MAX)))
            }
            "CONTAINS_ANY_OF" | "CONTAINS_ANY_NOT_OF" => {
                let Some(set) = self.text_arg(args, "SUB")? else {
                    return Ok(Err(StrErr::Unsupported("no sub argument".into())));
                };
                let any_of = func == "CONTAINS_ANY_OF";
                Ok(abap_bool(val.iter().any(|c| set.contains(c) == any_of)))
            }
            "CONDENSE" => {
                let blank = vec![' '];
                let del = self.text_arg(args, "DEL")?.unwrap_or_else(|| blank.clone());
                let from = self
                    .text_arg(args, "FROM")?
                    .unwrap_or_else(|| blank.clone());
                let to = self.text_arg(args, "TO")?.unwrap_or(blank);
                Ok(Value::Str(condense(&val, &del, &from, &to).into()))
            }
            "REPEAT" => {
                let occ = self.int_arg(args, "OCC")?.unwrap_or(0);
                match usize::try_from(occ) {
                    Err(_) => Err(StrErr::ParVal(format!("occ = {occ}"))),
                    Ok(n) if n.saturating_mul(val.len()) > self.limits.string_length => {
                        Err(StrErr::TooLarge)
                    }
                    Ok(n) => {
                        self.room_for_text(n.saturating_mul(val.len()))?;
                        Ok(Value::Str(text(&val).repeat(n).into()))
                    }
                }
            }
            "REVERSE" => Ok(Value::Str(val.iter().rev().collect())),
            "SEGMENT" => {
                let Some(index) = self.int_arg(args, "INDEX")? else {
                    return Ok(Err(StrErr::Unsupported("no index argument".into())));
                };
                let sep = self.text_arg(args, "SEP")?;
                let space = self.text_arg(args, "SPACE")?;
                str_ok(segment(&val, index, sep.as_deref(), space.as_deref()))
            }
            "TO_UPPER" | "TO_LOWER" => {
                Ok(Value::Str(map_case(&text(&val), func == "TO_UPPER").into()))
            }
            "TO_MIXED" | "FROM_MIXED" => {
                let sep = match self.text_arg(args, "SEP")? {
                    None => '_',
                    Some(s) => match s.first() {
                        Some(c) => *c,
                        None => return Ok(Err(StrErr::ParVal("empty sep".into()))),
                    },
                };
                let first = self
                    .text_arg(args, "CASE")?
                    .and_then(|c| c.first().copied());
                let min = self.int_arg(args, "MIN")?.unwrap_or(1);
                let Ok(min) = usize::try_from(min) else {
                    return Ok(Err(StrErr::ParVal(format!("min = {min}"))));
                };
                Ok(Value::Str(if func == "TO_MIXED" {
                    to_mixed(&val, sep, first, min).into()
                } else {
                    from_mixed(&val, sep, first.is_some_and(char::is_lowercase), min).into()
                }))
            }
            "STRLEN" => Ok(count_of(val.len())),
            "NUMOFCHAR" => {
                // Trailing blanks do not count, in strings either.
                let n = val.iter().rposition(|c| *c != ' ').map_or(0, |i| i + 1);
                Ok(count_of(n))
            }
            "INSERT" => {
                let sub: String = self
                    .text_arg(args, "SUB")?
                    .unwrap_or_default()
                    .into_iter()
                    .collect();
                let off = self.int_arg(args, "OFF")?;
                str_ok(replace_section(&val, off, Some(0), &sub))
            }
            "TRANSLATE" => {
                let from = self.text_arg(args, "FROM")?.unwrap_or_default();
                let to = self.text_arg(args, "TO")?.unwrap_or_default();
                Ok(Value::Str(translate(&val, &from, &to).into()))
            }
            other => Err(StrErr::Unsupported(format!("function {other}"))),
        })
    }
}

/// A predicate function's result as `abap_bool`.
fn abap_bool(b: bool) -> Value {
    Value::C(if b { "X" } else { " " }.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cs(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn searching() {
        let v = cs("abcabcab");
        assert_eq!(find(&v, &cs("ab"), 1, None, None, true), Ok(0));
        assert_eq!(find(&v, &cs("ab"), 2, None, None, true), Ok(3));
        assert_eq!(find(&v, &cs("ab"), -1, None, None, true), Ok(6));
        assert_eq!(find(&v, &cs("ab"), -3, None, None, true), Ok(0));
        assert_eq!(find(&v, &cs("ab"), 4, None, None, true), Ok(-1));
        assert_eq!(find(&v, &cs("AB"), 1, None, None, true), Ok(-1));
        assert_eq!(find(&v, &cs("AB"), 1, None, None, false), Ok(0));
        assert_eq!(find(&v, &cs("ab"), 1, Some(1), None, true), Ok(3));
        assert_eq!(count(&cs("aaaa"), &cs("aa"), None, None, true), Ok(2));
        // Backwards the last match wins: `aa` in `aaa` from the right is at 1.
        assert_eq!(find(&cs("aaa"), &cs("aa"), -1, None, None, true), Ok(1));
    }

    #[test]
    fn sections() {
        let v = cs("abcdef");
        assert_eq!(substring(&v, Some(2), Some(3)), Ok("cde".into()));
        assert_eq!(substring(&v, Some(6), None), Ok(String::new()));
        assert_eq!(
            substring(&v, Some(7), None),
            Err(StrErr::Range("STRING_OFFSET_TOO_LARGE"))
        );
        assert_eq!(
            substring(&v, Some(2), Some(-1)),
            Err(StrErr::Range("STRING_OFFSET_TOO_LARGE"))
        );
        assert_eq!(
            replace_section(&v, Some(1), Some(2), "XY"),
            Ok("aXYdef".into())
        );
    }

    #[test]
    fn shapes() {
        assert_eq!(condense(&cs("  a   b  "), &[' '], &[' '], &[' ']), "a b");
        assert_eq!(condense(&cs("xxaxxbxx"), &['x'], &['x'], &['-']), "a-b");
        assert_eq!(
            shift(true, &cs("abcde"), None, Some(2), None),
            Ok("cdeab".into())
        );
        assert_eq!(
            shift(false, &cs("abcde"), None, Some(2), None),
            Ok("deabc".into())
        );
        assert_eq!(shift(true, &cs("  ab"), None, None, None), Ok("ab".into()));
        assert_eq!(to_mixed(&cs("THIS_IS_A_TEXT"), '_', None, 1), "ThisIsAText");
        assert_eq!(
            to_mixed(&cs("ABAP_DOCU_START"), '_', Some('a'), 1),
            "abapDocuStart"
        );
        assert_eq!(to_mixed(&cs("_AB_C"), '_', None, 1), "_abC");
        assert_eq!(
            from_mixed(&cs("ThisIsAText"), '_', false, 1),
            "THIS_IS_A_TEXT"
        );
        assert_eq!(
            from_mixed(&cs("abapDocuStart"), '.', false, 5),
            "ABAPDOCU.START"
        );
        assert_eq!(
            segment(&cs("a,b,,c"), 3, Some(&[',']), None),
            Ok(String::new())
        );
        assert_eq!(
            segment(&cs("a  b c"), -1, None, Some(&[' '])),
            Ok("c".into())
        );
        assert_eq!(translate(&cs("abcabc"), &cs("ab"), &cs("x")), "xcxc");
        assert_eq!(distance(&cs("kitten"), &cs("sitting")), Ok(3));
        assert_eq!(distance(&cs(""), &cs("ab")), Ok(2));
        assert_eq!(
            find_any(&cs("a1b2"), &cs("0123456789"), true, 1, None, None),
            Ok(1)
        );
        assert_eq!(
            find_any(&cs("a1b2"), &cs("0123456789"), true, -1, None, None),
            Ok(3)
        );
        assert_eq!(
            find_any(&cs("a1b2"), &cs("ab"), false, 2, None, None),
            Ok(3)
        );
        assert_eq!(find_any(&cs("ab"), &cs("x"), true, 1, None, None), Ok(-1));
    }
}
