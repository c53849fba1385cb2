//! adt
