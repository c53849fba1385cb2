//! How deep procedure calls nest. On a real system the limit is memory: the ABAP stack holds
//! the parameters and local data of every active procedure, and a call that finds no room
//! ends the program with `STACK_STATE_NO_ROOF_SPACE`. Here each active procedure is charged a
//! frame plus one value for each of its data objects against [`Limits::call_stack_bytes`].
//!
//! The interpreter maps an ABAP call onto Rust calls, so its own stack grows with the ABAP
//! one: at every call it makes sure of [`RED_ZONE`] bytes of Rust stack, continuing on a new
//! heap segment (the `stacker` crate) when the current one runs low. The segments are bounded
//! too ([`MAX_SEGMENTS`]), with the same runtime error, so no recursion can crash the process.
//!
//! [`Limits::call_stack_bytes`]: abap_data::Limits::call_stack_bytes

use crate::interp::{Exec, Interp, Unwind};

/// What an active procedure takes on the ABAP stack besides its data objects.
const FRAME_BYTES: usize = 256;
/// What one parameter or local data object takes on the ABAP stack (a value's size here).
const VALUE_BYTES: usize = 32;
/// Rust stack one call level may use before the next call checks again: a procedure's
/// statements, its nested expressions (bounded by the parser) and the debugger hook.
const RED_ZONE: usize = 1024 * 1024;
/// Size of each Rust stack segment added.
const SEGMENT: usize = 8 * 1024 * 1024;
/// Segments one run may add: 384 MiB, some 20,000 call levels in a debug build and several
/// times that in a release build (where the ABAP stack limit comes first).
const MAX_SEGMENTS: usize = 48;

/// The runtime error of a real system whose ABAP stack is full.
const NO_ROOM: &str = "STACK_STATE_NO_ROOF_SPACE";

impl Interp<'_, '_> {
    /// Runs `f` (a procedure call) with room on the Rust stack for one more call level.
    pub(crate) fn with_stack_room<T>(&mut self, f: impl FnOnce(&mut Self) -> Exec<T>) -> Exec<T> {
        // Unknown bounds (a platform stacker cannot ask) count as room: the ABAP stack limit
        // still ends a runaway recursion.
        if stacker::remaining_stack().is_none_or(|left| left >= RED_ZONE) {
            return f(self);
        }
        if self.stack.segments >= MAX_SEGMENTS {
            return Err(self.stack_full());
        }
        self.stack.segments += 1;
        let result = stacker::grow(SEGMENT, || f(self));
        self.stack.segments -= 1;
        result
    }

    /// Takes the ABAP stack of a procedure with `data_objects` parameters and locals; the
    /// bytes taken, to give back with [`Interp::release_frame`].
    pub(crate) fn charge_frame(&mut self, data_objects: usize) -> Exec<usize> {
        let bytes = FRAME_BYTES.saturating_add(VALUE_BYTES.saturating_mul(data_objects));
        let total = self.stack.abap_bytes.saturating_add(bytes);
        if total > self.limits.call_stack_bytes {
            return Err(self.stack_full());
        }
        self.stack.abap_bytes = total;
        Ok(bytes)
    }

    pub(crate) fn release_frame(&mut self, bytes: usize) {
        self.stack.abap_bytes = self.stack.abap_bytes.saturating_sub(bytes);
    }

    fn stack_full(&self) -> Unwind {
        self.dump(
            NO_ROOM,
            format!(
                "no room on the ABAP stack for another procedure call ({} procedures active): \
                 probably an endless recursion",
                self.st.frames.len()
            ),
        )
    }
}
