//! Host values: what the interpreter hands over for `@x`, `@wa`, `@itab`, `@range`.

use crate::cell::Cell;

/// The components of a structure (or of a table row) by name, upper case, in order.
pub type Components = Vec<(String, Cell)>;

/// The value of one host operand.
#[derive(Debug, Clone, PartialEq)]
pub enum HostValue {
    Scalar(Cell),
    Struct(Components),
    /// An internal table; rows of an elementary line type have the single component
    /// `TABLE_LINE`.
    Table(Vec<Components>),
}

/// Resolves host operands. `name` is the operand as written after `@` (upper case), with
/// components (`LS_WA-FIELD`); for old-syntax operands without `@` the engine asks only for
/// names that are no column of the statement's tables.
pub trait HostResolver {
    /// The value of `name`, or why there is none (an unknown name is `Err`).
    fn value(&mut self, name: &str) -> Result<HostValue, String>;
}

/// A resolver over a fixed list of values (tests, tools).
#[derive(Debug, Default, Clone)]
pub struct HostMap(pub Vec<(String, HostValue)>);

impl HostMap {
    pub fn new() -> HostMap {
        HostMap::default()
    }

    /// Adds `name` (any case).
    pub fn with(mut self, name: &str, value: HostValue) -> HostMap {
        self.0.push((name.to_ascii_uppercase(), value));
        self
    }
}

impl HostResolver for HostMap {
    fn value(&mut self, name: &str) -> Result<HostValue, String> {
        if let Some((_, v)) = self.0.iter().find(|(n, _)| n == name) {
            return Ok(v.clone());
        }
        // `WA-COMP`: a component of a structure in the map.
        if let Some((base, comp)) = name.split_once('-')
            && let Some((_, HostValue::Struct(comps))) = self.0.iter().find(|(n, _)| n == base)
            && let Some((_, c)) = comps.iter().find(|(n, _)| n == comp)
        {
            return Ok(HostValue::Scalar(c.clone()));
        }
        Err(format!("unknown data object {name}"))
    }
}
