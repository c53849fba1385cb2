//! `abap_status` and the stop resource: where the session stands, read without side effects.

use jsonl::cmd;
use jsonl::commands::NoArgs;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Answered, Call, answered, max_chars, status_now};
use crate::error::ToolError;
use crate::view::{self, DEFAULT_MAX_CHARS};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StatusArgs {
    max_chars: Option<usize>,
}

pub(super) fn status(call: &Call, a: StatusArgs) -> Result<Answered, ToolError> {
    let st = status_now(call)?;
    let bps = call.link.call::<cmd::BpList>(&NoArgs {}, call.cancelled)?;
    let stop = st
        .debuggee
        .as_ref()
        .filter(|d| !d.running)
        .and_then(|d| d.stop.as_ref())
        .map(|s| view::stop_view(call.link, s, max_chars(a.max_chars), call.cancelled));
    let threads: Vec<Value> = st
        .threads
        .iter()
        .map(|t| {
            json!({
                "thread": t.thread,
                "program": t.program,
                "current": t.current,
                "running": t.running,
                "location": t.frame.as_ref().map(view::location),
            })
        })
        .collect();
    let breakpoints: Vec<Value> = bps.breakpoints.iter().map(view::breakpoint).collect();
    let mut summary = format!(
        "{}; listener {}; {} breakpoint(s); {} thread(s)",
        st.state.as_str(),
        if st.listener.armed {
            "armed"
        } else if st.listener.wanted {
            "arming"
        } else {
            "off"
        },
        breakpoints.len(),
        threads.len()
    );
    if let Some(s) = &stop {
        summary.push_str(&format!("; {}", view::stop_summary(s)));
    }
    answered(
        json!({
            "state": st.state.as_str(),
            "system": {"url": st.system.url, "user": st.system.user},
            "listener": {"wanted": st.listener.wanted, "armed": st.listener.armed},
            "allow_writes": st.allow_writes,
            "current_thread": st.current_thread,
            "threads": threads,
            "breakpoints": breakpoints,
            "stop": stop,
            "last_end": st.last_end.as_ref().map(view::end_view),
            "settings": st.settings,
        }),
        summary,
    )
}

/// The resource `abapdbg://session/stop`: the current stop view, or null and the last end.
pub fn stop_resource(call: &Call) -> Result<Value, ToolError> {
    let st = status_now(call)?;
    let stop = st
        .debuggee
        .as_ref()
        .filter(|d| !d.running)
        .and_then(|d| d.stop.as_ref())
        .map(|s| view::stop_view(call.link, s, DEFAULT_MAX_CHARS, call.cancelled));
    Ok(json!({
        "state": st.state.as_str(),
        "stop": stop,
        "last_end": st.last_end.as_ref().map(view::end_view),
    }))
}
