//! The built-in functions and their registry. Each group (one file) says which names it
//! answers (`Group::knows`) and runs a call of them (`Group::run`); `GROUPS` lists every group
//! in the order a call is offered to them, and `Interp::builtin_function` is the one entry.
//!
//! A name may belong to two groups: `find( )`, `replace( )`, `count( )`, … are the regex
//! group's when called with `regex =`/`pcre =` and the text group's otherwise, so the regex
//! group comes first and answers `None` for a call without a pattern.

pub(crate) mod escape;
pub(crate) mod group;
pub(crate) mod numeric;
pub(crate) mod numeric_args;
pub(crate) mod regex;
pub(crate) mod table;
pub(crate) mod text;

use crate::interp::builtins::functions::group::{Group, single_arg};
use crate::interp::{Exec, Interp};
use abap_data::value::Value;
use abap_syntax::ast::CallExpr;

/// Every group, in the order a call is offered to them.
pub(crate) const GROUPS: &[Group] = &[
    escape::GROUP,
    numeric_args::GROUP,
    regex::GROUP,
    text::GROUP,
    table::GROUP,
    numeric::GROUP,
];

/// The groups that have a function named `name`, in registry order.
pub(crate) fn groups_of(name: &str) -> impl Iterator<Item = &'static Group> + '_ {
    GROUPS.iter().filter(move |g| (g.knows)(name))
}

impl Interp<'_, '_> {
    /// A built-in function (`strlen( )`, `to_upper( )`, …): the first group that answers the
    /// call runs it; a name no group has is not supported.
    pub(crate) fn builtin_function(&mut self, call: &CallExpr) -> Exec<Value> {
        for group in groups_of(&call.method) {
            if let Some(v) = (group.run)(self, call)? {
                return Ok(v);
            }
        }
        let with_regex = call
            .args
            .exporting
            .iter()
            .any(|(n, _)| n == "REGEX" || n == "PCRE");
        if with_regex {
            return Err(self.not_supported(&format!(
                "{}( ) with a regular expression",
                call.method.to_ascii_lowercase()
            )));
        }
        // The argument is evaluated first, as a real system would run it before the call:
        // what it raises comes before the verdict on the name.
        let arg = single_arg(self, call)?;
        self.eval(arg)?;
        Err(self.not_supported(&format!("method or built-in function {}( )", call.method)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups(name: &str) -> Vec<&'static str> {
        groups_of(name).map(|g| g.name).collect()
    }

    #[test]
    fn a_string_function_is_offered_to_the_regex_group_first() {
        // The regex group takes the call when it has `regex =`/`pcre =` (and refuses a
        // pattern on a function that takes none); the text group takes it otherwise.
        assert_eq!(groups("FIND"), ["regex", "text"]);
        assert_eq!(groups("STRLEN"), ["regex", "text"]);
        assert_eq!(groups("MATCHES"), ["regex"]);
    }

    #[test]
    fn every_other_name_has_one_group() {
        for (name, group) in [
            ("ESCAPE", "escape"),
            ("NMAX", "numeric_args"),
            ("IPOW", "numeric_args"),
            ("LINES", "table"),
            ("LINE_EXISTS", "table"),
            ("SQRT", "numeric"),
            ("ABS", "numeric"),
            ("ROUND", "numeric"),
        ] {
            assert_eq!(groups(name), [group], "{name}");
        }
        assert!(groups("NO_SUCH_FUNCTION").is_empty());
    }
}
