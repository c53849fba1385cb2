//! How the long-lived processes keep their working memory.
//!
//! A table page is read into buffers of a megabyte and more (the answer, its records, the
//! rows). With glibc's defaults those come from `mmap` or sit at the top of a thread's heap,
//! and go back to the kernel when freed: the next page faults every one of its pages in
//! again, cleared (about 300 faults for a page of 100 rows of ten columns, a third of the
//! coprocess's time for it). Keeping up to a few pages' worth of freed memory costs a few
//! MiB of resident memory after the first big read, and nothing before it.

/// Allocations below this come from the heap, so freeing them keeps their pages (a 500-row
/// page's answer is about 4 MB); larger ones are still mapped and unmapped on their own.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 8 << 20;

/// Free memory at the top of a heap beyond this goes back to the kernel.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: libc::c_int = 16 << 20;

/// Sets the allocator up for a process that reads big answers over and over; call once, at
/// the start, before threads allocate.
pub(crate) fn keep_working_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets allocator parameters; it is called before the runtime's
    // threads exist, and a refused setting (return 0) leaves glibc's default, which is
    // correct, only slower.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
    }
}
