//! The string functions with a regular expression (`regex = …` POSIX, `pcre = …` PCRE):
//! `find`, `find_end`, `count`, `contains`, `replace`, `substring_after/_before/_from/_to`,
//! and the functions that only exist with one: `matches( )` (a predicate function) and
//! `match( )`. The plain-substring forms are in `text.rs`.
//!
//! ABAP rules used here: offsets count characters of `val` (a `c` argument without its
//! trailing blanks); `off`/`len` outside the text raise `CX_SY_RANGE_OUT_OF_BOUNDS`; `occ`
//! counts matches from the left (1, 2, …) or, negative, from the right, and `occ = 0` raises
//! `CX_SY_STRG_PAR_VAL` (in `replace` it means every match); `case = abap_false` matches
//! without case. Which patterns run is decided by `abap_regex` (refused ones end the run as
//! not supported).

use super::group::Group;
use crate::interp::abap_regex;
use crate::interp::abap_regex::{AbapRegex, TooComplex};
use crate::interp::builtins::functions::text::PAR_VAL_DUMP;
use crate::interp::text::MATCH_BYTES;
use crate::interp::{Exec, Interp, Unwind};
use abap_data::value::{Type, Value};
use abap_syntax::ast::CallExpr;
use abap_syntax::ast::Flavor;

/// The parameters each function accepts together with `regex`/`pcre`.
fn params(func: &str) -> Option<&'static [&'static str]> {
    const AROUND: &[&str] = &["VAL", "REGEX", "PCRE", "OCC", "LEN", "CASE"];
    Some(match func {
        "FIND" | "FIND_END" => &["VAL", "REGEX", "PCRE", "OCC", "OFF", "LEN", "CASE"],
        "COUNT" | "MATCHES" => &["VAL", "REGEX", "PCRE", "OFF", "LEN", "CASE"],
        "CONTAINS" => &["VAL", "REGEX", "PCRE", "OCC", "OFF", "LEN", "CASE"],
        "MATCH" => &["VAL", "REGEX", "PCRE", "OCC", "CASE"],
        "REPLACE" => &["VAL", "REGEX", "PCRE", "WITH", "OCC", "CASE"],
        "SUBSTRING_AFTER" | "SUBSTRING_BEFORE" | "SUBSTRING_FROM" | "SUBSTRING_TO" => AROUND,
        _ => return None,
    })
}

/// One match: character offsets and the text of each group (0: the whole match).
struct RxMatch {
    start: usize,
    end: usize,
    groups: Vec<Option<String>>,
}

/// The non-overlapping matches of `re` in `hay`, left to right, at most `max`.
fn rx_matches(re: &AbapRegex, hay: &[char], max: usize) -> Result<Vec<RxMatch>, TooComplex> {
    let text: String = hay.iter().collect();
    // Byte offset → character offset.
    let mut starts: Vec<usize> = text.char_indices().map(|(b, _)| b).collect();
    starts.push(text.len());
    let at = |b: usize| starts.binary_search(&b).unwrap_or_else(|i| i);
    Ok(abap_regex::matches_in_order(re, &text, false, max)?
        .into_iter()
        .filter_map(|caps| {
            let whole = caps.get(0)?;
            Some(RxMatch {
                start: at(whole.start()),
                end: at(whole.end()),
                groups: caps
                    .iter()
                    .map(|m| m.map(|m| m.as_str().to_string()))
                    .collect(),
            })
        })
        .collect())
}

/// The `occ`-th element (1-based; negative from the end).
fn nth<T>(items: &[T], occ: i64) -> Option<&T> {
    if occ > 0 {
        items.get(usize::try_from(occ - 1).ok()?)
    } else {
        let back = usize::try_from(occ.unsigned_abs()).ok()?;
        items.len().checked_sub(back).and_then(|i| items.get(i))
    }
}

fn chars_value(cs: &[char]) -> Value {
    Value::Str(cs.iter().collect())
}

fn int_value(n: usize) -> Value {
    Value::I(i32::try_from(n).unwrap_or(i32::MAX))
}

/// Evaluated arguments by parameter name.
struct Args(Vec<(&'static str, Value)>);

impl Args {
    fn get(&self, name: &str) -> Option<&Value> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
}

pub(crate) const GROUP: Group = Group {
    name: "regex",
    knows: |name| params(name).is_some() || (super::text::GROUP.knows)(name),
    run: |interp, call| interp.regex_function(call),
};

impl<'r> Interp<'r, '_> {
    /// The matches of `re` in `hay` ([`rx_matches`]), as many as the run's memory holds.
    fn rx_all(&self, re: &AbapRegex, hay: &[char]) -> Exec<Vec<RxMatch>> {
        let cap = self.match_cap(MATCH_BYTES);
        let hits = rx_matches(re, hay, cap).map_err(|_| self.regex_too_complex())?;
        if hits.len() >= cap {
            return Err(self.matches_fill_memory(hits.len()));
        }
        Ok(hits)
    }

    /// A string function called with `regex`/`pcre`, or `matches( )`/`match( )`; `None` for
    /// every other call.
    pub fn regex_function(&mut self, call: &CallExpr) -> Exec<Option<Value>> {
        let func = call.method.as_str();
        let with_regex = call
            .args
            .exporting
            .iter()
            .any(|(n, _)| n == "REGEX" || n == "PCRE");
        if !with_regex && !matches!(func, "MATCHES" | "MATCH") {
            return Ok(None);
        }
        let lower = func.to_ascii_lowercase();
        let Some(allowed) = params(func) else {
            return Err(self.not_supported(&format!("{lower}( ) with a regular expression")));
        };
        let a = &call.args;
        if a.positional.is_some()
            || !a.importing.is_empty()
            || !a.changing.is_empty()
            || a.receiving.is_some()
        {
            return Err(self.not_supported(&format!("{lower}( ) with these arguments")));
        }
        let mut vals = Vec::new();
        for (n, e) in &a.exporting {
            let Some(p) = allowed.iter().find(|p| **p == n.as_str()) else {
                return Err(self.not_supported(&format!(
                    "{lower}( ) with argument {}",
                    n.to_ascii_lowercase()
                )));
            };
            vals.push((*p, self.eval(e)?));
        }
        let args = Args(vals);
        self.regex_function_of(func, &lower, &args).map(Some)
    }

    fn regex_function_of(&mut self, func: &str, lower: &str, args: &Args) -> Exec<Value> {
        let Some(val) = self.rx_text(args, "VAL")? else {
            return Err(self.dump(
                "CALL_METHOD_PARMS_MISSING",
                format!("{lower}( ) needs the argument val"),
            ));
        };
        let re = self.rx_compile(args, lower, func == "MATCHES")?;
        match func {
            "MATCHES" => {
                let (from, to) = self.rx_section(args, val.len(), lower)?;
                let area: String = val.get(from..to).unwrap_or(&[]).iter().collect();
                let hit = re.is_match(&area).map_err(|_| self.regex_too_complex())?;
                Ok(Value::C(if hit { "X" } else { " " }.into()))
            }
            "FIND" | "FIND_END" | "COUNT" | "CONTAINS" => {
                let (from, to) = self.rx_section(args, val.len(), lower)?;
                let hits = self.rx_all(&re, val.get(from..to).unwrap_or(&[]))?;
                if hits.iter().any(|m| m.start == m.end) {
                    return Err(self.not_supported(&format!(
                        "{lower}( ) with a regular expression that matches the empty string"
                    )));
                }
                if func == "COUNT" {
                    return Ok(int_value(hits.len()));
                }
                let occ = self.rx_occ(args, lower)?;
                let hit = nth(&hits, occ);
                Ok(match (func, hit) {
                    ("CONTAINS", h) => Value::C(if h.is_some() { "X" } else { " " }.into()),
                    ("FIND", Some(m)) => int_value(from + m.start),
                    (_, Some(m)) => int_value(from + m.end),
                    (_, None) => Value::I(-1),
                })
            }
            "MATCH" => {
                let occ = self.rx_occ(args, lower)?;
                let hits = self.rx_all(&re, &val)?;
                Ok(match nth(&hits, occ) {
                    Some(m) => chars_value(val.get(m.start..m.end).unwrap_or(&[])),
                    None => Value::Str(String::new().into()),
                })
            }
            "REPLACE" => {
                let with: String = self
                    .rx_text(args, "WITH")?
                    .unwrap_or_default()
                    .into_iter()
                    .collect();
                let occ = self.rx_int(args, "OCC")?.unwrap_or(1);
                let hits = self.rx_all(&re, &val)?;
                let chosen: Vec<&RxMatch> = if occ == 0 {
                    hits.iter().collect()
                } else {
                    nth(&hits, occ).into_iter().collect()
                };
                let mut out = String::new();
                let mut last = 0;
                for m in chosen {
                    out.extend(val.get(last..m.start).unwrap_or(&[]));
                    let groups: Vec<Option<&str>> = m.groups.iter().map(|g| g.as_deref()).collect();
                    out.push_str(&abap_regex::expand(&with, &groups));
                    last = m.end;
                }
                out.extend(val.get(last..).unwrap_or(&[]));
                Ok(Value::Str(out.into()))
            }
            _ => self.rx_substring(func, lower, args, &val, &re),
        }
    }

    /// `substring_after|before|from|to( val regex occ len case )`; empty when nothing matches.
    fn rx_substring(
        &mut self,
        func: &str,
        lower: &str,
        args: &Args,
        val: &[char],
        re: &AbapRegex,
    ) -> Exec<Value> {
        let occ = self.rx_occ(args, lower)?;
        let hits = self.rx_all(re, val)?;
        let Some(m) = nth(&hits, occ) else {
            return Ok(Value::Str(String::new().into()));
        };
        // As with `sub` (`text::substring_around`): `len` characters after the
        // match (`_after`) or from its start (`_from`); before it (`_before`), or before it
        // and the match (`_to`).
        let len = match self.rx_int(args, "LEN")? {
            None => None,
            Some(l) => Some(usize::try_from(l).map_err(|_| self.rx_range(lower))?),
        };
        let (a, b) = match (func, len) {
            ("SUBSTRING_AFTER", None) => Some((m.end, val.len())),
            ("SUBSTRING_AFTER", Some(l)) => m.end.checked_add(l).map(|b| (m.end, b)),
            ("SUBSTRING_FROM", None) => Some((m.start, val.len())),
            ("SUBSTRING_FROM", Some(l)) => m.start.checked_add(l).map(|b| (m.start, b)),
            ("SUBSTRING_BEFORE", None) => Some((0, m.start)),
            ("SUBSTRING_BEFORE", Some(l)) => m.start.checked_sub(l).map(|a| (a, m.start)),
            (_, None) => Some((0, m.end)),
            (_, Some(l)) => m.start.checked_sub(l).map(|a| (a, m.end)),
        }
        .ok_or_else(|| self.rx_range(lower))?;
        match val.get(a..b) {
            Some(part) => Ok(chars_value(part)),
            None => Err(self.rx_range(lower)),
        }
    }

    fn rx_range(&self, lower: &str) -> Unwind {
        self.dump(
            "STRING_OFFSET_TOO_LARGE",
            format!("Illegal offset or length access in the function {lower}( )"),
        )
    }

    // ------------------------------------------------------------ arguments

    /// A character-like argument (`c` without trailing blanks).
    fn rx_text(&self, args: &Args, name: &str) -> Exec<Option<Vec<char>>> {
        args.get(name)
            .map(|v| {
                v.to_abap_string()
                    .map(|s| s.chars().collect())
                    .map_err(|e| self.conv_error(e))
            })
            .transpose()
    }

    fn rx_int(&self, args: &Args, name: &str) -> Exec<Option<i64>> {
        let Some(v) = args.get(name) else {
            return Ok(None);
        };
        match v.convert(&Type::I).map_err(|e| self.conv_error(e))? {
            Value::I(i) => Ok(Some(i64::from(i))),
            _ => Err(self.not_supported(&format!("argument {}", name.to_ascii_lowercase()))),
        }
    }

    fn rx_occ(&self, args: &Args, lower: &str) -> Exec<i64> {
        match self.rx_int(args, "OCC")? {
            Some(0) => Err(self.dump(
                PAR_VAL_DUMP,
                format!("Invalid argument for the function {lower}( ): occ = 0"),
            )),
            Some(n) => Ok(n),
            None => Ok(1),
        }
    }

    /// The compiled `regex`/`pcre` (anchored at both ends for `matches( )`).
    fn rx_compile(&self, args: &Args, lower: &str, whole: bool) -> Exec<AbapRegex> {
        let (pattern, flavor) = match (args.get("REGEX"), args.get("PCRE")) {
            (Some(p), None) => (p, Flavor::Posix),
            (None, Some(p)) => (p, Flavor::Pcre),
            _ => {
                return Err(
                    self.not_supported(&format!("{lower}( ) without exactly one of regex, pcre"))
                );
            }
        };
        let pattern = pattern.to_abap_string().map_err(|e| self.conv_error(e))?;
        let ignore_case = match args.get("CASE") {
            None => false,
            Some(v) => v
                .to_abap_string()
                .map_err(|e| self.conv_error(e))?
                .trim()
                .is_empty(),
        };
        let compiled = if whole {
            abap_regex::compile_whole(&pattern, flavor, ignore_case)
        } else {
            abap_regex::compile(&pattern, flavor, ignore_case)
        };
        compiled.map_err(|why| {
            self.not_supported(&if whole {
                format!("regular expression {pattern}")
            } else {
                why
            })
        })
    }

    /// `[off, off + len)` of `n` characters (defaults: 0 and the rest).
    fn rx_section(&self, args: &Args, n: usize, lower: &str) -> Exec<(usize, usize)> {
        let off = self.rx_int(args, "OFF")?.unwrap_or(0);
        let off = usize::try_from(off)
            .ok()
            .filter(|o| *o <= n)
            .ok_or_else(|| self.rx_range(lower))?;
        let len = match self.rx_int(args, "LEN")? {
            None => n - off,
            Some(l) => usize::try_from(l)
                .ok()
                .filter(|l| *l <= n - off)
                .ok_or_else(|| self.rx_range(lower))?,
        };
        Ok((off, off + len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_are_in_characters_with_their_groups() {
        let re = abap_regex::compile("([0-9])([0-9]*)", Flavor::Pcre, false).unwrap();
        let hay: Vec<char> = "äb12c3".chars().collect();
        let ms = rx_matches(&re, &hay, usize::MAX).unwrap();
        assert_eq!(
            ms.iter().map(|m| (m.start, m.end)).collect::<Vec<_>>(),
            vec![(2, 4), (5, 6)]
        );
        assert_eq!(ms[0].groups[2].as_deref(), Some("2"));
        assert_eq!(ms[1].groups[2].as_deref(), Some(""));
    }

    #[test]
    fn nth_counts_from_both_ends() {
        let v = [1, 2, 3];
        assert_eq!(nth(&v, 1), Some(&1));
        assert_eq!(nth(&v, -1), Some(&3));
        assert_eq!(nth(&v, 4), None);
        assert_eq!(nth(&v, -4), None);
    }
}
