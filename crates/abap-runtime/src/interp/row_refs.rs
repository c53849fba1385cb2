//! Field symbols and data references that point into a row of an internal table follow their
//! row when a statement moves rows (`INSERT`, `DELETE`, `SORT`, `COLLECT`, `INSERT LINES OF`),
//! as in ABAP, where they point to the row itself and not to its index.
//!
//! A [`Place`] names a row by index, so after rows move every place through that table is
//! renumbered: field symbols (of every procedure and of the program), by-reference parameter
//! aliases, the tables of running `LOOP`s, and data references held anywhere (variables,
//! attributes, statics, anonymous data objects, also inside structures and tables). A field
//! symbol whose row was deleted is no longer assigned; a data reference to it is invalid
//! (`IS BOUND` is false, dereferencing is `DATREF_NOT_ASSIGNED`). Replacing a whole table
//! (assignment, `CLEAR`, `REFRESH`, `FREE`) deletes all its rows.
//!
//! A running `LOOP` over the table follows its current row too: after the current row is
//! deleted the loop goes on with the row after it, after rows are inserted before it with the
//! row after the current one.
//!
//! The renumbering map is only computed once some place goes through a moved row, and data
//! references are searched only once some data reference to a row has been created
//! ([`crate::interp::state::State::row_data_refs`]), so programs without them pay next to nothing.

use crate::interp::Interp;
use crate::interp::state::LoopCursor;
use abap_data::place::DataTarget;
use abap_data::place::{Place, Slot, Step};
use abap_data::value::Value;

/// The `call` of a [`DataTarget`] whose row was deleted: no procedure call has it, so the
/// reference is invalid from then on.
pub const DELETED_ROW: u64 = u64::MAX;

/// New index of each old row: `None` for a deleted row.
pub type RowMap = Vec<Option<usize>>;

/// `count` rows inserted before old row `at` of a table of `len` rows.
pub fn inserted(len: usize, at: usize, count: usize) -> RowMap {
    (0..len)
        .map(|i| Some(if i >= at { i + count } else { i }))
        .collect()
}

/// Rows inserted one by one into a table of `len` rows, each at the index `ats` gives (in
/// the table as it was then).
pub fn inserted_at(len: usize, ats: &[usize]) -> RowMap {
    let mut map: RowMap = (0..len).map(Some).collect();
    for at in ats {
        for j in map.iter_mut().flatten() {
            if *j >= *at {
                *j += 1;
            }
        }
    }
    map
}

/// Row `at` deleted from a table of `len` rows.
pub fn removed(len: usize, at: usize) -> RowMap {
    (0..len)
        .map(|i| match i.cmp(&at) {
            std::cmp::Ordering::Less => Some(i),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(i - 1),
        })
        .collect()
}

/// Rows kept (`true`) or deleted, in their old order.
pub fn kept(flags: &[bool]) -> RowMap {
    let mut next = 0;
    flags
        .iter()
        .map(|keep| {
            keep.then(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

/// Rows put in a new order: `order[new] = old`.
pub fn reordered(order: &[usize]) -> RowMap {
    let mut map = vec![None; order.len()];
    for (new, old) in order.iter().enumerate() {
        if let Some(slot) = map.get_mut(*old) {
            *slot = Some(new);
        }
    }
    map
}

/// Whether `v` holds a table row (a non-empty table, also inside structures and tables): only
/// then can replacing it leave references without their row.
pub fn holds_rows(v: &Value) -> bool {
    match v {
        Value::Table(_, rows) => !rows.is_empty(),
        Value::Struct(_, comps) => comps.iter().any(holds_rows),
        _ => false,
    }
}

/// A [`RowMap`] computed when first needed.
type Lookup<'m> = dyn std::ops::Deref<Target = RowMap> + 'm;

fn new_index(map: &Lookup, i: usize) -> Option<usize> {
    map.get(i).copied().flatten()
}

/// What happened to the row a place goes through.
enum Fate {
    Unrelated,
    Moved,
    Deleted,
}

/// Renumbers `p` if it goes through a row of `table` as `map` says; without a map, every row
/// of `table` and of the tables inside it is gone.
fn follow(p: &mut Place, table: &Place, map: Option<&Lookup>) -> Fate {
    let n = table.steps.len();
    if p.slot != table.slot || p.steps.get(..n) != Some(table.steps.as_slice()) {
        return Fate::Unrelated;
    }
    let Some(map) = map else {
        let below = p.steps.get(n..).unwrap_or(&[]);
        return if below.iter().any(|s| matches!(s, Step::Row(_))) {
            Fate::Deleted
        } else {
            Fate::Unrelated
        };
    };
    let Some(Step::Row(i)) = p.steps.get(n).copied() else {
        return Fate::Unrelated;
    };
    match new_index(map, i) {
        Some(j) => {
            if let Some(step) = p.steps.get_mut(n) {
                *step = Step::Row(j);
            }
            Fate::Moved
        }
        None => Fate::Deleted,
    }
}

/// Renumbers the current row of a `LOOP` over the table whose rows moved; once the current
/// row is deleted, `current` is where the row after it now is.
fn follow_cursor(l: &mut LoopCursor, map: &Lookup, len: usize) {
    if l.current_gone {
        // The first old row at or after the gap that is still there.
        l.current = map
            .get(l.current..)
            .and_then(|rest| rest.iter().find_map(|j| *j))
            .unwrap_or(len);
        return;
    }
    match new_index(map, l.current) {
        Some(j) => l.current = j,
        None => {
            // The rows kept before the current one: the row after it moved there.
            l.current = map
                .get(..l.current)
                .map_or(0, |before| before.iter().flatten().count());
            l.current_gone = true;
        }
    }
    l.first = l.first.and_then(|i| new_index(map, i));
}

fn follow_target(t: &mut DataTarget, table: &Place, map: Option<&Lookup>) {
    if let Fate::Deleted = follow(&mut t.place, table, map) {
        t.call = Some(DELETED_ROW);
    }
}

/// The data references inside `v` (structures and tables searched too).
fn follow_in_value(v: &mut Value, table: &Place, map: Option<&Lookup>) {
    match v {
        Value::DataRef(r) => {
            if let Some(t) = r.target.as_mut() {
                follow_target(t, table, map);
            }
        }
        Value::Struct(_, comps) => {
            for c in comps {
                follow_in_value(c, table, map);
            }
        }
        Value::Table(_, rows) => {
            for r in rows.iter_mut() {
                follow_in_value(r, table, map);
            }
        }
        _ => {}
    }
}

impl Interp<'_, '_> {
    /// After the rows of `table` moved as `map` says (called only when something goes
    /// through a row of `table`).
    pub(crate) fn rows_moved(&mut self, table: &Place, map: impl FnOnce() -> RowMap) {
        let map = std::cell::LazyCell::new(map);
        self.follow_rows(table, Some(&map));
    }

    /// After every row of the table at `place` (and of the tables inside it) was replaced.
    pub(crate) fn rows_replaced(&mut self, place: &Place) {
        self.follow_rows(place, None);
    }

    fn follow_rows(&mut self, table: &Place, map: Option<&Lookup>) {
        let len = self.rows(table).len();
        for f in &mut self.st.frames {
            for (_, fs) in &mut f.field_symbols {
                if let Some(p) = fs
                    && let Fate::Deleted = follow(p, table, map)
                {
                    *fs = None;
                }
            }
            for (_, p) in &mut f.aliases {
                if let Fate::Deleted = follow(p, table, map) {
                    // A parameter bound to a row that is gone: using it ends the run with
                    // the not-supported error (the place names no data object).
                    *p = Place {
                        slot: Slot::Anon(usize::MAX),
                        steps: Vec::new(),
                    };
                }
            }
            for l in &mut f.loops {
                follow(&mut l.place, table, map);
                if let Some(map) = map
                    && l.place == *table
                {
                    follow_cursor(l, map, len);
                }
            }
        }
        for (_, _, t) in &mut self.st.global_fs {
            if let Some(target) = t
                && let Fate::Deleted = follow(&mut target.place, table, map)
            {
                *t = None;
            }
        }
        if !self.st.row_data_refs.get() {
            return;
        }
        for f in &mut self.st.frames {
            for v in &mut f.vars {
                follow_in_value(&mut v.val, table, map);
            }
        }
        for o in &mut self.st.heap {
            for a in &mut o.attrs {
                follow_in_value(&mut a.val, table, map);
            }
        }
        for vars in self.st.statics.values_mut() {
            for v in vars {
                follow_in_value(&mut v.val, table, map);
            }
        }
        for v in &mut self.st.anon {
            follow_in_value(&mut v.val, table, map);
        }
    }
}
