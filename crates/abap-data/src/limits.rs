//! Guards that end a run with a runtime error instead of letting a program hang the
//! simulator or exhaust its memory.

use std::time::Duration;

/// Limits of one run (classrun, report, unit test run). A program that crosses one ends with a
/// short dump, as a real system ends a dialog step that runs too long or asks for too much
/// memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Statements executed (runtime error `SIMULATOR_LIMIT`).
    pub statements: u64,
    /// Time the program runs, not counting time it is stopped in the debugger (runtime error
    /// `TIME_OUT`, the real system's name for a dialog step past its time limit).
    pub run_time: Duration,
    /// Rows in one internal table (runtime error `TSV_TNEW_PAGE_ALLOC_FAILED`, the real
    /// system's name for a table that cannot grow any more).
    pub table_rows: usize,
    /// Length of one string or xstring, in characters or bytes, and of any string a statement
    /// or expression builds (runtime error `STRING_SIZE_TOO_LARGE`, the real system's name for
    /// a string that cannot grow any more).
    pub string_length: usize,
    /// Memory of the procedures active at one time: each takes a frame of 256 bytes and 32
    /// bytes for each of its parameters and local data objects (runtime error
    /// `STACK_STATE_NO_ROOF_SPACE`, the real system's name for a full ABAP stack). The default
    /// lets a small recursive method nest some 40,000 times.
    pub call_stack_bytes: usize,
    /// Bytes of memory one run may hold: its strings, tables, objects and the interpreter's
    /// own state, measured as its thread allocates and frees them. A string that would pass
    /// it is refused before it is built (`STRING_SIZE_TOO_LARGE`, catchable), a row before
    /// it is added, and a run found holding more before a statement ends
    /// (`TSV_TNEW_PAGE_ALLOC_FAILED`, the real system's name for memory that runs out), so a
    /// run stops at about this much and the simulator goes on.
    pub run_memory: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            statements: 10_000_000,
            run_time: Duration::from_secs(60),
            table_rows: 1_000_000,
            string_length: 64 * 1024 * 1024,
            call_stack_bytes: 16 * 1024 * 1024,
            run_memory: 512 * 1024 * 1024,
        }
    }
}
