//! `abap_end`: terminate, detach or shutdown, and the receipt; nothing stopped is nothing to do.

use jsonl::args::AtArgs;
use jsonl::cmd;
use jsonl::commands::NoArgs;
use serde::Deserialize;
use serde_json::json;

use super::{Answered, Call, answered, status_now};
use crate::error::ToolError;
use crate::view;

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum How {
    Terminate,
    Detach,
    Shutdown,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EndArgs {
    how: How,
}

fn nothing_to_do(how: &str) -> Result<Answered, ToolError> {
    answered(
        json!({"how": how, "done": false, "note": "nothing was stopped: nothing to do"}),
        format!("{how}: nothing was stopped, nothing to do"),
    )
}

fn is_nothing_stopped(e: &ToolError) -> bool {
    matches!(
        e.code.as_str(),
        "state.not_stopped" | "state.no_debuggee" | "state.debuggee_ended"
    )
}

pub(super) fn end(call: &Call, a: EndArgs) -> Result<Answered, ToolError> {
    match a.how {
        How::Shutdown => {
            let Some(session) = call.link.existing()? else {
                return answered(
                    json!({"how": "shutdown", "done": false, "note": "no session runs: nothing to do"}),
                    "shutdown: no session runs, nothing to do",
                );
            };
            let r = session.call::<cmd::Shutdown>(
                &NoArgs {},
                crate::link::READ_TIMEOUT,
                call.cancelled,
            )?;
            call.link.reset();
            let receipt = &r.receipt;
            answered(
                json!({"how": "shutdown", "done": true, "receipt": {
                    "listener_stopped": receipt.listener_stopped,
                    "breakpoints_deleted": receipt.breakpoints_deleted,
                    "debuggees": receipt.debuggees.iter().map(|d| json!({"thread": d.thread, "program": d.program, "how": d.how})).collect::<Vec<_>>(),
                    "errors": receipt.errors,
                }}),
                receipt.summary(),
            )
        }
        How::Terminate => {
            let Some(thread) = status_now(call)?.current_thread else {
                return nothing_to_do("terminate");
            };
            match call.link.call::<cmd::Terminate>(
                &AtArgs {
                    thread: Some(thread),
                    frame: None,
                },
                call.cancelled,
            ) {
                Ok(r) => {
                    call.link.remember_end(&r.ended);
                    let v = view::end_view(&r.ended);
                    answered(
                        json!({"how": "terminate", "done": true, "ended": v}),
                        format!("terminated thread {thread}; breakpoints and listener stay"),
                    )
                }
                Err(e) if is_nothing_stopped(&e) => nothing_to_do("terminate"),
                Err(e) => Err(e),
            }
        }
        How::Detach => {
            let Some(thread) = status_now(call)?.current_thread else {
                return nothing_to_do("detach");
            };
            match call.link.call::<cmd::Detach>(
                &AtArgs {
                    thread: Some(thread),
                    frame: None,
                },
                call.cancelled,
            ) {
                Ok(r) => {
                    call.link.remember_end(&r.detached.ended);
                    let v = view::end_view(&r.detached.ended);
                    answered(
                        json!({"how": "detach", "done": true, "ended": v, "breakpoints_disabled": r.breakpoints_disabled}),
                        format!(
                            "detached thread {thread}: it runs on; {} breakpoint(s) taken off",
                            r.breakpoints_disabled.len()
                        ),
                    )
                }
                Err(e) if is_nothing_stopped(&e) => nothing_to_do("detach"),
                Err(e) => Err(e),
            }
        }
    }
}
