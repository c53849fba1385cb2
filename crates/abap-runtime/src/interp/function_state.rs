//! What the interpreter keeps of the function modules running (`function_call.rs` runs them):
//! the `EXCEPTIONS` their callers handle, and a classic exception on its way to its caller.

/// A `CALL FUNCTION` whose module is running: what its caller handles.
#[derive(Debug)]
pub struct ActiveCall {
    /// Index of the module's frame.
    pub(crate) frame: usize,
    /// `EXCEPTIONS name = n` (upper case), without `OTHERS` and `ERROR_MESSAGE`.
    pub(crate) handled: Vec<(String, i32)>,
    pub(crate) others: Option<i32>,
    pub(crate) error_message: Option<i32>,
}

impl ActiveCall {
    pub(crate) fn subrc_for(&self, exception: &str) -> Option<i32> {
        self.handled
            .iter()
            .find(|(n, _)| n == exception)
            .map(|(_, v)| *v)
            .or(self.others)
    }
}

/// A classic exception the caller handles, on its way to the `CALL FUNCTION` of the module
/// whose frame is `frame`.
#[derive(Debug)]
pub struct Raised {
    pub(crate) frame: usize,
    pub(crate) subrc: i32,
}

impl Raised {
    /// A classic exception of a built-in method (which runs without a frame of its own)
    /// that the method call at frame depth `depth` handles with `sy-subrc` = `subrc`.
    pub(crate) fn of_builtin_method(depth: usize, subrc: i32) -> Raised {
        Raised {
            frame: depth,
            subrc,
        }
    }

    /// The frame depth and `sy-subrc` of an exception raised by [`Raised::of_builtin_method`].
    pub(crate) fn handled_at(&self) -> (usize, i32) {
        (self.frame, self.subrc)
    }
}
