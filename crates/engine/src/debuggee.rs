//! One caught program: its own stateful ADT session, and how its stops are described.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::engine::Engine;

/// A debuggee we attached to. One stateful session per debuggee (adt-wire.md §1.3).
pub(crate) struct Attached {
    pub(crate) thread: u32,
    pub(crate) client: adt::Client,
    pub(crate) record: adt::Debuggee,
    /// A step or continue is in flight.
    pub(crate) running: bool,
    /// The last stop's top frame, as sent in the `stopped` event.
    pub(crate) frame: Value,
}

/// Why the program stopped.
pub(crate) enum StopReason {
    Breakpoint(Vec<String>),
    Step,
}

/// Upper-case object name from an ADT source URI (`/sap/bc/adt/oo/classes/zcl_x/source/main`).
pub(crate) fn object_from_uri(uri: &str) -> String {
    let path = uri.split('#').next().unwrap_or(uri);
    let segments: Vec<&str> = path.split('/').collect();
    let name = ["classes", "programs", "interfaces", "includes"]
        .iter()
        .find_map(|kind| {
            let i = segments.iter().rposition(|s| s == kind)?;
            segments.get(i + 1).copied()
        })
        .unwrap_or_default();
    percent_decode(name).to_uppercase()
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = s.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A stack entry as the protocol shows it.
pub(crate) fn frame_json(index: usize, e: &adt::StackEntry) -> Value {
    json!({
        "index": index,
        "object": object_from_uri(&e.uri),
        "method": e.event_name,
        "event_type": e.event_type,
        "program": e.program,
        "include": e.include,
        "line": e.line,
        "uri": e.uri,
        "system": e.system_program,
    })
}

/// Reads the stack and describes the stop: the body of a `stopped` event. Bumps the epoch.
pub(crate) async fn describe_stop(
    engine: &Arc<Engine>,
    client: &adt::Client,
    reason: StopReason,
) -> Result<Value, adt::AdtError> {
    let stack = client.stack().await?;
    let mut frame = stack
        .entries
        .first()
        .map(|e| frame_json(0, e))
        .unwrap_or_else(|| json!({}));
    if let Some(top) = stack.entries.first() {
        let source = engine
            .sources
            .context(client, &top.uri, top.line, 2, 2)
            .await;
        frame["source"] = Value::Array(source);
    }
    let (reason, server_ids) = match reason {
        StopReason::Breakpoint(ids) if !ids.is_empty() => ("breakpoint", ids),
        StopReason::Breakpoint(ids) => ("breakpoint", ids),
        StopReason::Step => ("step", Vec::new()),
    };
    let body = engine.update(|inner| {
        inner.epoch += 1;
        let ours = inner.breakpoints.ids_for_server_ids(&server_ids);
        let thread = inner.debuggee.as_ref().map(|d| d.thread);
        json!({
            "epoch": inner.epoch,
            "reason": reason,
            "breakpoints": ours,
            "thread": thread,
            "frame": frame,
            "depth": stack.entries.len(),
        })
    });
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_names_come_from_uris() {
        assert_eq!(
            object_from_uri("/sap/bc/adt/oo/classes/zcl_x/source/main#start=3,0"),
            "ZCL_X"
        );
        assert_eq!(
            object_from_uri("/sap/bc/adt/oo/classes/%2fns%2fcl_y/source/main"),
            "/NS/CL_Y"
        );
        assert_eq!(
            object_from_uri("/sap/bc/adt/programs/programs/zprog/source/main"),
            "ZPROG"
        );
        assert_eq!(object_from_uri("garbage"), "");
        assert_eq!(object_from_uri("/classes/%zz"), "%ZZ");
    }
}
