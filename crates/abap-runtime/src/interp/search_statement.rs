//! The obsolete statement `SEARCH dobj FOR pattern` (parsed in `parser/text.rs`).

use crate::interp::tables::sy_set;
use crate::interp::{Exec, Interp};

impl Interp<'_, '_> {
    /// Obsolete `SEARCH dobj FOR pattern`: the first place of `pattern` in `dobj`, without
    /// case (`sy-subrc` 0 and `sy-fdpos` its offset, else `sy-subrc` 4). `.pat.` searches
    /// `pat` with its blanks; the word forms `*pat`/`pat*` are outside the subset.
    pub fn search(
        &mut self,
        text: &abap_syntax::ast::Expr,
        pattern: &abap_syntax::ast::Expr,
    ) -> Exec<()> {
        let (hay, _) = self.text_of_expr(text)?;
        let pat = self.content_of(pattern)?;
        let needle: Vec<char> = match pat.as_slice() {
            ['.', inner @ .., '.'] if !inner.is_empty() => inner.to_vec(),
            [] => return Err(self.not_supported("SEARCH for an empty pattern")),
            p if p.first() == Some(&'*') || p.last() == Some(&'*') => {
                return Err(self.not_supported("SEARCH for a word pattern (*)"));
            }
            p => p.to_vec(),
        };
        let lower = |c: &char| abap_data::char_case::lower(*c);
        let hit = (0..hay.len())
            .filter(|i| i + needle.len() <= hay.len())
            .find(|&i| {
                hay.get(i..i + needle.len())
                    .is_some_and(|w| w.iter().zip(&needle).all(|(a, b)| lower(a) == lower(b)))
            });
        match hit {
            Some(i) => {
                sy_set(self, "SUBRC", 0);
                sy_set(self, "FDPOS", i32::try_from(i).unwrap_or(i32::MAX));
            }
            None => sy_set(self, "SUBRC", 4),
        }
        Ok(())
    }
}
