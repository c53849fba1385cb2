//! Runtime errors and the debugger hook: the dumps a statement ends with, the step, memory
//! and text budgets, and stopping at a statement for the debugger.

use crate::interp::builtins;
use crate::interp::context::View;
use crate::interp::machine::{Dump, Exec, Interp, Unwind};
use crate::interp::state::{Current, Frame};
use abap_data::debug::{Location, Resume};
use abap_data::value::{ConvError, ObjId, Value};

impl<'r> Interp<'r, '_> {
    /// `get_text( )` of an exception object.
    pub fn exception_text(&self, obj: ObjId) -> String {
        let Some(o) = self.st.heap.get(obj) else {
            return String::new();
        };
        if let Some(t) = o.exc.as_ref().and_then(|e| e.text.clone()) {
            return t;
        }
        let t100_key = format!(
            "{}~T100KEY",
            crate::interp::builtins::classes::t100::T100_MESSAGE
        );
        if let Some(key) = o.attrs.iter().find(|a| a.name == t100_key)
            && let Some(t) = crate::interp::builtins::classes::t100::text(&key.val, |name| {
                let v = o.attrs.iter().find(|a| a.name == name)?;
                v.val.template_text().ok()
            })
        {
            return t;
        }
        let Some(class) = self.st.class_by_key(&o.class) else {
            return "An exception was raised".into();
        };
        self.st
            .lineage(class)
            .iter()
            .find_map(|c| builtins::classes::default_text(&c.key))
            .unwrap_or("An exception was raised")
            .to_string()
    }

    // ---------------------------------------------------------------- errors and hooks

    pub fn location(&self) -> Option<Location> {
        self.st.frames.last().map(Frame::location)
    }

    pub fn dump(&self, id: &str, text: impl Into<String>) -> Unwind {
        Unwind::Dump(Box::new(Dump {
            id: id.into(),
            text: text.into(),
            location: self.location(),
        }))
    }

    /// `SIMULATOR_NOT_SUPPORTED` naming the construct and the include position.
    pub fn not_supported(&self, what: &str) -> Unwind {
        let at = self
            .location()
            .map(|l| format!(" at {}:{}", l.include, l.include_line))
            .unwrap_or_default();
        self.dump(
            "SIMULATOR_NOT_SUPPORTED",
            format!("not supported by the simulator: {what}{at}"),
        )
    }

    pub fn conv_error(&self, e: ConvError) -> Unwind {
        match e {
            ConvError::NoNumber(t) => self.dump(
                "CONVT_NO_NUMBER",
                format!("Unable to interpret \"{t}\" as a number"),
            ),
            ConvError::Overflow => self.dump("CONVT_OVERFLOW", "Overflow during a conversion"),
            ConvError::Incompatible => self.dump(
                "OBJECTS_MOVE_NOT_SUPPORTED",
                "Conversion between a reference and data is not possible",
            ),
        }
    }

    pub(crate) fn set_line(&mut self, line: u32) {
        if let Some(f) = self.st.frames.last_mut() {
            f.line = line;
        }
    }

    /// Counts work so that endless loops end with a runtime error instead of hanging.
    pub fn tick(&mut self) -> Exec<()> {
        self.st.steps += 1;
        if self.st.steps > self.limits.statements {
            return Err(self.dump(
                "SIMULATOR_LIMIT",
                format!(
                    "statement limit of {} executed statements reached",
                    self.limits.statements
                ),
            ));
        }
        // What the last statement built without asking first (a copied table, an object)
        // ends the run here: at most one statement past the budget.
        self.room_for_memory(0, "TSV_TNEW_PAGE_ALLOC_FAILED")?;
        // The clock is read now and then: a statement is far shorter than the limit.
        if self.st.steps.is_multiple_of(1024) {
            let running = self.started.elapsed().saturating_sub(self.hook.paused());
            if running > self.limits.run_time {
                return Err(self.dump(
                    "TIME_OUT",
                    format!(
                        "the program ran longer than the time limit of {} s",
                        self.limits.run_time.as_secs_f64()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Can a table that has `rows` rows take one more? Its row vector may double as it
    /// grows, so that much memory must be left (32 bytes a value, `value.rs`).
    pub fn room_for(&self, rows: usize) -> Exec<()> {
        self.room_for_memory(
            rows.saturating_mul(size_of::<Value>()),
            "TSV_TNEW_PAGE_ALLOC_FAILED",
        )?;
        if rows >= self.limits.table_rows {
            return Err(self.dump(
                "TSV_TNEW_PAGE_ALLOC_FAILED",
                format!(
                    "an internal table cannot grow beyond the limit of {} rows",
                    self.limits.table_rows
                ),
            ));
        }
        Ok(())
    }

    /// How many matches of a search the run's memory can still hold, at `per_match` bytes
    /// each (at least one). A search that finds that many ends the run
    /// ([`Interp::matches_fill_memory`]) instead of collecting on.
    pub(crate) fn match_cap(&self, per_match: usize) -> usize {
        let left = self.limits.run_memory.saturating_sub(self.memory_held());
        (left / per_match.max(1)).max(1)
    }

    /// `TSV_TNEW_PAGE_ALLOC_FAILED` of a search whose matches fill the run's memory.
    pub(crate) fn matches_fill_memory(&self, found: usize) -> Unwind {
        self.dump(
            "TSV_TNEW_PAGE_ALLOC_FAILED",
            format!(
                "the {found} matches found so far fill the memory of the run (limit {} bytes)",
                self.limits.run_memory
            ),
        )
    }

    /// Can a string or xstring of `len` characters (bytes) be built? Asked before building
    /// it, so a program that doubles a string never asks the allocator for more than the
    /// limit.
    pub fn room_for_text(&self, len: usize) -> Exec<()> {
        self.room_for_memory(len, "STRING_SIZE_TOO_LARGE")?;
        self.text_fits(len)
    }

    /// Is a string of `len` characters within `Limits::string_length`? For a string already
    /// built (and counted in the run's memory).
    pub(crate) fn text_fits(&self, len: usize) -> Exec<()> {
        if len > self.limits.string_length {
            return Err(self.dump(
                "STRING_SIZE_TOO_LARGE",
                format!(
                    "a string cannot grow beyond the limit of {} characters",
                    self.limits.string_length
                ),
            ));
        }
        Ok(())
    }

    /// A stop point: the hook may stop here and inspect the state.
    pub fn stop(&mut self, line: u32, current: Current<'r>) -> Exec<()> {
        self.set_line(line);
        self.tick()?;
        self.st.current = current;
        let before = crate::run_memory::held_by_thread();
        let resume = {
            let view = View::new(&mut self.st);
            self.hook.before_statement(&view)
        };
        // What the hook keeps is the debugger's (a document it wrote and sent away), not the
        // program's.
        self.memory_base = self
            .memory_base
            .saturating_add(crate::run_memory::held_by_thread().saturating_sub(before));
        self.st.current = Current::None;
        match resume {
            Resume::Run => Ok(()),
            Resume::Terminate => Err(Unwind::Terminated),
            Resume::JumpTo(target) if self.st.can_jump(target) => Err(Unwind::Jump(target)),
            Resume::JumpTo(_) => Ok(()),
        }
    }
}
