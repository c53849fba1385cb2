//! Debugger conditions (of breakpoints and watchpoints): ABAP logical expressions, parsed by
//! the expression parser the statements use and judged by the interpreter's own comparison
//! rules in a frame of the stopped program, as an `IF` there would judge them. Judging one
//! runs no ABAP code (method calls and object creation are refused) and leaves the program as
//! it was.

use crate::interp::state::State;
use crate::interp::{Interp, Unwind};
use abap_data::debug::NoDebugger;
use abap_data::limits::Limits;
use abap_syntax::ast::Cond;
use abap_syntax::lexer::lex;
use abap_syntax::parser::expr::parse_full_cond;

/// Longest condition accepted, in characters.
const MAX_LEN: usize = 1000;
/// Rows a condition's constructor expressions (`VALUE … FOR`) may produce, counted as
/// statements.
const MAX_STEPS: u64 = 100_000;

/// Parses a condition; `Err` says why it is none.
pub fn parse(text: &str) -> Result<Cond, String> {
    if text.chars().count() > MAX_LEN {
        return Err(format!("condition longer than {MAX_LEN} characters"));
    }
    let toks = lex(text).map_err(|e| e.to_string())?;
    if toks.is_empty() {
        return Err("empty condition".into());
    }
    parse_full_cond(&toks).map_err(|e| e.0)
}

/// Whether `cond` holds in frame `frame` (0 = innermost) of the program whose state is `st`.
/// `Err`: it cannot be judged there (an unknown name, a value that does not convert, a
/// method call).
pub fn holds(st: &mut State<'_>, frame: usize, cond: &Cond) -> Result<bool, String> {
    let Some(f) = st.frame_from_top(frame) else {
        return Err(format!("there is no stack frame {frame}"));
    };
    let mut no_hook = NoDebugger;
    let limits = Limits {
        statements: st.steps.saturating_add(MAX_STEPS),
        ..Limits::default()
    };
    let mut it = Interp::new(st.classes, st.builtins, &mut no_hook, &limits, None);
    std::mem::swap(&mut it.st, st);
    // The frames above `frame` are set aside, so names resolve in `frame`.
    let above = it.st.frames.split_off(f + 1);
    let (steps, sy) = (it.st.steps, it.st.sy.clone());
    it.judging_condition = true;
    let judged = it.cond(cond);
    it.st.steps = steps;
    it.st.sy = sy;
    it.st.frames.extend(above);
    std::mem::swap(&mut it.st, st);
    judged.map_err(|u| match u {
        Unwind::Dump(d) => d.text,
        _ => "the condition cannot be judged here".into(),
    })
}
