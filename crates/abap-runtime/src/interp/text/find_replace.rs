//! Running `FIND` and `REPLACE`: locating the matches of a [`Search`] (also used by
//! `FIND`/`REPLACE … IN TABLE`, `RESULTS` and the regex objects) and applying them.

use super::{Out, Search};
use crate::interp::abap_regex::{compile, expand};
use crate::interp::tables::sy_set;
use crate::interp::{Exec, Interp};
use abap_data::value::{Type, Value};
use abap_syntax::ast::{Expr, Path};

/// What one match of `FIND`/`REPLACE ALL OCCURRENCES` takes while it is collected (its
/// `Hit`, the regular expression's groups, the row it may become), for the run's memory
/// budget: a search stops once the matches it found would fill it.
pub(crate) const MATCH_BYTES: usize = 256;

/// One match of `FIND`/`REPLACE`.
pub(crate) struct Hit {
    /// Char offset in the searched text.
    pub(crate) pos: usize,
    pub(crate) len: usize,
    /// For regular expressions: group 0 (the match) and the subgroups.
    pub(crate) groups: Vec<Option<String>>,
    /// Char offset (in the searched text) and length of each subgroup (1, 2, …); `None`
    /// for a group that took no part in the match.
    pub(crate) spans: Vec<Option<(usize, usize)>>,
}

fn upper(c: char) -> char {
    abap_data::char_case::upper(c)
}

/// Non-overlapping occurrences of `needle` in `hay` from the left (start positions).
pub(super) fn occurrences(
    hay: &[char],
    needle: &[char],
    ignoring_case: bool,
    all: bool,
    max: usize,
) -> Vec<usize> {
    let mut out = Vec::new();
    if needle.is_empty() || needle.len() > hay.len() {
        return out;
    }
    let eq = |a: &char, b: &char| {
        if ignoring_case {
            upper(*a) == upper(*b)
        } else {
            a == b
        }
    };
    let mut i = 0;
    while i + needle.len() <= hay.len() && out.len() < max {
        let window = hay.get(i..i + needle.len()).unwrap_or(&[]);
        if window.iter().zip(needle).all(|(a, b)| eq(a, b)) {
            out.push(i);
            if !all {
                break;
            }
            i += needle.len();
        } else {
            i += 1;
        }
    }
    out
}

fn as_i32(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

impl Interp<'_, '_> {
    /// Offset and length of a `SECTION` inside a text of `len` characters (checked).
    pub(super) fn section_bounds(
        &mut self,
        len: usize,
        offset: Option<&Expr>,
        length: Option<&Expr>,
    ) -> Exec<(usize, usize)> {
        let off = match offset {
            Some(e) => self.int(e)?,
            None => 0,
        };
        let off = usize::try_from(off).ok().filter(|o| *o <= len);
        let Some(off) = off else {
            return Err(self.dump(
                "STRING_OFFSET_TOO_LARGE",
                "Illegal access to a string (offset too large)",
            ));
        };
        let sec_len = match length {
            Some(e) => {
                let l = self.int(e)?;
                match usize::try_from(l).ok().filter(|l| off + l <= len) {
                    Some(l) => l,
                    None => {
                        return Err(self.dump(
                            "STRING_LENGTH_TOO_LARGE",
                            "Illegal access to a string (length too large)",
                        ));
                    }
                }
            }
            None => len - off,
        };
        Ok((off, sec_len))
    }

    /// Where `search` occurs in `hay` (char positions), how long each match is and, for a
    /// regular expression, its groups (group 0: the match).
    ///
    /// `as_rows`: the matches become the rows of a `RESULTS` table, so no more than
    /// `Limits::table_rows` are collected; in any case no more than the run's memory holds.
    /// A search stopped at either ends the run with `TSV_TNEW_PAGE_ALLOC_FAILED`.
    pub(crate) fn locate(
        &mut self,
        search: &Search,
        hay: &[char],
        what: &str,
        as_rows: bool,
    ) -> Exec<Vec<Hit>> {
        let sub = self.content_of(&search.sub)?;
        let (from, sec_len) = match &search.section {
            Some((o, l)) => self.section_bounds(hay.len(), o.as_ref(), l.as_ref())?,
            None => (0, hay.len()),
        };
        let window = hay.get(from..from + sec_len).unwrap_or(&[]);
        if let Some(flavor) = search.regex {
            let pattern: String = sub.iter().collect();
            let re = compile(&pattern, flavor, search.ignoring_case)
                .map_err(|why| self.not_supported(&why))?;
            let text: String = window.iter().collect();
            let (cap, memory_cap) = self.hit_caps(search.all, as_rows);
            let found = crate::interp::abap_regex::matches_in_order(&re, &text, !search.all, cap)
                .map_err(|_| self.regex_too_complex())?;
            self.enough_hits(search.all, found.len(), memory_cap, as_rows)?;
            let mut hits = Vec::with_capacity(found.len());
            // Character offsets counted on from the last match (matches come left to right),
            // so a text with many matches is read once.
            let (mut byte, mut chars) = (0, 0);
            for caps in found {
                let Some(m) = caps.get(0) else { continue };
                chars += text.get(byte..m.start()).map_or(0, |t| t.chars().count());
                byte = m.start();
                let pos = chars;
                let at = |b: usize| match text.get(m.start()..b) {
                    Some(t) => pos + t.chars().count(),
                    None => text.get(..b).map_or(0, |t| t.chars().count()),
                };
                hits.push(Hit {
                    pos: pos + from,
                    len: m.as_str().chars().count(),
                    groups: caps
                        .iter()
                        .map(|g| g.map(|g| g.as_str().to_string()))
                        .collect(),
                    spans: caps
                        .iter()
                        .skip(1)
                        .map(|g| g.map(|g| (at(g.start()) + from, g.as_str().chars().count())))
                        .collect(),
                });
                if !search.all {
                    break;
                }
            }
            return Ok(hits);
        }
        if sub.is_empty() {
            // An empty pattern is found before the first character (of the section); `ALL
            // OCCURRENCES` of it would never end, which `REPLACE` reports as an exception.
            return match (search.all, what) {
                (false, _) => Ok(vec![Hit {
                    pos: from,
                    len: 0,
                    groups: Vec::new(),
                    spans: Vec::new(),
                }]),
                (true, "REPLACE") => Err(self.dump(
                    "REPLACE_INFINITE_LOOP",
                    "REPLACE ALL OCCURRENCES of an empty pattern would never end",
                )),
                (true, _) => {
                    Err(self.not_supported(&format!("{what} ALL OCCURRENCES of an empty string")))
                }
            };
        }
        let (cap, memory_cap) = self.hit_caps(search.all, as_rows);
        let found = occurrences(window, &sub, search.ignoring_case, search.all, cap);
        self.enough_hits(search.all, found.len(), memory_cap, as_rows)?;
        Ok(found
            .into_iter()
            .map(|p| Hit {
                pos: p + from,
                len: sub.len(),
                groups: Vec::new(),
                spans: Vec::new(),
            })
            .collect())
    }

    /// How many matches to collect at most, and how many the run's memory holds.
    fn hit_caps(&self, all: bool, as_rows: bool) -> (usize, usize) {
        let memory_cap = self.match_cap(MATCH_BYTES);
        let cap = match (all, as_rows) {
            (false, _) => 1,
            (true, true) => memory_cap.min(self.limits.table_rows.saturating_add(1)),
            (true, false) => memory_cap,
        };
        (cap, memory_cap)
    }

    /// Ends the run when a search for all matches stopped at a cap of [`Interp::hit_caps`].
    fn enough_hits(&self, all: bool, found: usize, memory_cap: usize, as_rows: bool) -> Exec<()> {
        if !all {
            return Ok(());
        }
        if as_rows {
            self.room_for_rows(found)?;
        }
        if found >= memory_cap {
            return Err(self.matches_fill_memory(found));
        }
        Ok(())
    }

    pub(super) fn find(
        &mut self,
        search: &Search,
        text: &Expr,
        [count, offset, length]: [&Option<Out>; 3],
        submatches: &[Out],
        as_rows: bool,
    ) -> Exec<Vec<Hit>> {
        let (hay, _) = self.text_of_expr(text)?;
        let found = self.locate(search, &hay, "FIND", as_rows)?;
        if let Some(out) = count {
            self.store_out(out, Value::I(as_i32(found.len())), Type::I)?;
        }
        let last = found.last();
        for (out, value) in [(offset, last.map(|h| h.pos)), (length, last.map(|h| h.len))] {
            match (out, value) {
                (Some(out), Some(v)) => self.store_out(out, Value::I(as_i32(v)), Type::I)?,
                // Not found: the field keeps its value (an inline one is declared, initial).
                (Some(Out::Decl(name)), None) => self.declare_inline(name, Type::I),
                _ => {}
            }
        }
        if let Some(hit) = last {
            for (i, out) in submatches.iter().enumerate() {
                let group = hit.groups.get(i + 1).cloned().flatten().unwrap_or_default();
                self.store_out(out, Value::Str(group.into()), Type::String)?;
            }
        }
        sy_set(self, "SUBRC", if found.is_empty() { 4 } else { 0 });
        Ok(found)
    }

    /// The text that replaces `hit`, once it is known that the result so far (`built`
    /// characters) can take it. A regular expression's replacement may name groups (`$1`,
    /// `$0`), each at most the whole match: its length is bounded before it is expanded.
    pub(crate) fn replacement_for(
        &self,
        search: &Search,
        replacement: &str,
        new: &[char],
        hit: &Hit,
        built: usize,
    ) -> Exec<Vec<char>> {
        if search.regex.is_some() {
            let mut bound = replacement.len();
            if replacement.contains('$') {
                bound = bound.saturating_mul(hit.len.max(1));
            }
            self.room_for_text(built.saturating_add(bound))?;
            let groups: Vec<Option<&str>> = hit.groups.iter().map(Option::as_deref).collect();
            Ok(expand(replacement, &groups).chars().collect())
        } else {
            self.room_for_text(built.saturating_add(new.len()))?;
            Ok(new.to_vec())
        }
    }

    pub(super) fn replace(
        &mut self,
        search: &Search,
        target: &Path,
        with: &Expr,
        results: [&Option<Out>; 3],
        as_rows: bool,
    ) -> Exec<Vec<(usize, usize)>> {
        let new = self.content_of(with)?;
        // A `c` field is searched with its trailing blanks (and cut back to its length when
        // stored).
        let (hay, _) = self.text_of_path(target)?;
        let found = self.locate(search, &hay, "REPLACE", as_rows)?;
        let [count, offset, length] = results;
        if let Some(out) = count {
            self.store_out(out, Value::I(as_i32(found.len())), Type::I)?;
        }
        if found.is_empty() {
            sy_set(self, "SUBRC", 4);
            return Ok(Vec::new());
        }
        let mut done = Vec::with_capacity(found.len());
        let mut out: Vec<char> = Vec::new();
        let mut start = 0;
        let (mut last_at, mut last_len) = (0, 0);
        let replacement: String = new.iter().collect();
        for hit in &found {
            out.extend(hay.get(start..hit.pos).unwrap_or(&[]));
            last_at = out.len();
            let text = self.replacement_for(search, &replacement, &new, hit, out.len())?;
            last_len = text.len();
            done.push((last_at, last_len));
            out.extend(text);
            start = hit.pos + hit.len;
        }
        out.extend(hay.get(start..).unwrap_or(&[]));
        if let Some(o) = offset {
            self.store_out(o, Value::I(as_i32(last_at)), Type::I)?;
        }
        if let Some(o) = length {
            self.store_out(o, Value::I(as_i32(last_len)), Type::I)?;
        }
        let cut = self.store_text(target, out)?;
        sy_set(self, "SUBRC", if cut { 2 } else { 0 });
        Ok(done)
    }
}
