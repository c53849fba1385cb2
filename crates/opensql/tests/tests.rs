//! The one test binary of the crate: the fixture dictionary under `tests/fixtures/ddic`
//! (a client-dependent header/item pair, a client-independent table with an included
//! structure, a data element with a domain) and every statement form against its data
//! files, with results worked out by hand from those files.

mod common;

mod aggregates;
mod dictionary;
mod folders;
mod for_all_entries;
mod joins;
mod parsing;
mod select;
mod subqueries;
mod transactions;
mod wide_packed;
mod writes;
