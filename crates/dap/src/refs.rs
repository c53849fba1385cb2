//! Object references of one stop: frame ids and `variablesReference`s.
//!
//! DAP lets such references live only while the program stays stopped. Numbers are handed out
//! in increasing order and never reused within a run of the adapter, so a client that asks
//! with a reference of an earlier stop gets "no longer valid" instead of some other
//! variable; [`Handles::invalidate`] forgets every reference at once (at a stop, at a resume).

use std::collections::HashMap;

/// References to values of type `T`, valid until the next [`Handles::invalidate`].
#[derive(Debug)]
pub struct Handles<T> {
    next: i64,
    live: HashMap<i64, T>,
}

/// DAP references are positive 32-bit integers.
const MAX_REF: i64 = i32::MAX as i64;

impl<T> Default for Handles<T> {
    fn default() -> Self {
        Handles {
            next: 1,
            live: HashMap::new(),
        }
    }
}

impl<T> Handles<T> {
    /// A new reference to `value`.
    pub fn allocate(&mut self, value: T) -> i64 {
        if self.next > MAX_REF {
            // After two billion references: start again; everything older is gone by then.
            self.next = 1;
            self.live.clear();
        }
        let id = self.next;
        self.next += 1;
        self.live.insert(id, value);
        id
    }

    /// The value of a live reference.
    pub fn get(&self, id: i64) -> Option<&T> {
        self.live.get(&id)
    }

    pub fn get_mut(&mut self, id: i64) -> Option<&mut T> {
        self.live.get_mut(&id)
    }

    /// Forgets every reference handed out so far (numbers are not reused).
    pub fn invalidate(&mut self) {
        self.live.clear();
    }

    pub fn len(&self) -> usize {
        self.live.len()
    }

    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }
}
