//! The memory a run holds, measured where it is allocated.
//!
//! A run is one thread (the simulator starts one per run), so the bytes its thread has
//! allocated and not yet freed are the memory it holds: strings, table rows, objects, the
//! interpreter's own state, all counted as they grow and released as they shrink or are freed,
//! shared text counted once. The process's allocator is the system's with a thread-local
//! counter beside it: an addition per allocation, no lock, no walk over the values. What
//! another thread frees of a run's memory (an answer sent to the HTTP side) stays counted: an
//! estimate that errs towards ending the run, never towards the allocator failing.
//!
//! `Interp` reads the counter before every statement and before it builds a string or adds a
//! row (`Interp::room_for_memory`), against `Limits::run_memory`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    /// Bytes this thread allocated minus bytes it freed. Const-initialised and without a
    /// destructor: reading it never allocates and works while the thread ends.
    static HELD: Cell<isize> = const { Cell::new(0) };
}

fn add(bytes: usize) {
    let _ = HELD.try_with(|h| h.set(h.get().wrapping_add_unsigned(bytes)));
}

fn sub(bytes: usize) {
    let _ = HELD.try_with(|h| h.set(h.get().wrapping_sub_unsigned(bytes)));
}

/// The system allocator, counting per thread.
pub struct CountingAlloc;

// SAFETY: every call is forwarded unchanged to `System`; the counter is a plain thread-local
// cell that neither allocates nor unwinds.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on as it is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            add(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            add(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        sub(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as `dealloc`; `new_size` is the caller's, checked by its contract.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            sub(layout.size());
            add(new_size);
        }
        p
    }
}

/// Every program that links the interpreter counts its threads' memory: the simulator, the
/// coprocess that embeds it, and the tests, so no binary can run ABAP without the budget.
#[global_allocator]
static ALLOCATOR: CountingAlloc = CountingAlloc;

/// Bytes the calling thread has allocated and not freed since it started (negative when it
/// freed more than it allocated).
pub fn held_by_thread() -> isize {
    HELD.try_with(Cell::get).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::held_by_thread;

    #[test]
    fn a_thread_counts_what_it_holds() {
        let before = held_by_thread();
        let v: Vec<u8> = vec![1; 1 << 20];
        let during = held_by_thread() - before;
        assert!(during >= 1 << 20, "{during}");
        drop(v);
        let after = held_by_thread() - before;
        assert!(after < 4096, "{after}");
    }

    #[test]
    fn another_thread_does_not_count_here() {
        let before = held_by_thread();
        let v = std::thread::spawn(|| vec![0u8; 1 << 20])
            .join()
            .unwrap_or_default();
        assert!(held_by_thread() - before < 4096);
        assert_eq!(v.len(), 1 << 20);
    }
}
