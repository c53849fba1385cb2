//! The shapes agents read, built from the protocol's typed results: the stop view (everything
//! after a move in one answer), the end, a variable (cut at `max_chars`, `changed` marked), a
//! frame's location, a breakpoint. tools.rs declares the same shapes as output schemas.

use jsonl::results::{
    Breakpoint, EndReason, Ended, Frame, RunResult, SourceLine, StopReason, Stopped, TestResult,
    Variable,
};
use serde_json::{Map, Value, json};

use crate::link::Link;

/// Where long values are cut unless the call names another `max_chars`.
pub const DEFAULT_MAX_CHARS: usize = 512;

/// A text cut at `max` characters: the text, and the whole length when it was cut.
pub fn cut(text: &str, max: usize) -> (String, Option<usize>) {
    match text.char_indices().nth(max) {
        Some((at, _)) => (text[..at].to_string(), Some(text.chars().count())),
        None => (text.to_string(), None),
    }
}

/// The key under which a frame's variables are remembered for `changed`.
pub fn frame_key(frame: &Frame) -> String {
    format!("{}->{}", frame.object, frame.method)
}

/// A variable as the tools show it. `changed` is judged against the earlier stop the server
/// read it at (`frame_key` names the frame).
pub fn variable(
    link: &Link,
    v: &Variable,
    thread: u32,
    frame_key: &str,
    epoch: u64,
    max_chars: usize,
) -> Value {
    let changed = link
        .memory()
        .changed(thread, frame_key, &v.id, epoch, &v.value);
    let (value, cut_at) = cut(&v.value, max_chars);
    let full_length = cut_at.or(if v.truncated { v.full_length } else { None });
    let children = if v.meta == "table" {
        json!(v.rows)
    } else if v.expandable {
        Value::Null
    } else {
        json!(0)
    };
    let mut out = json!({
        "name": v.name,
        "id": v.id,
        "scope": v.scope,
        "type": v.technical_type,
        "declared_type": v.declared_type,
        "meta": v.meta,
        "value": value,
        "changed": changed,
        "children": children,
        "expandable": v.expandable,
        "truncated": full_length.is_some(),
    });
    if let (Some(n), Some(map)) = (full_length, out.as_object_mut()) {
        map.insert("full_length".into(), json!(n));
    }
    out
}

/// A frame's place: object, method, include, the abapGit `file` and the `line` in it.
pub fn location(frame: &Frame) -> Value {
    json!({
        "index": frame.index,
        "object": frame.object,
        "object_type": frame.object_type,
        "method": frame.method,
        "event_type": frame.event_type,
        "program": frame.program,
        "include": frame.include,
        "file": frame.file,
        "line": frame.line,
        "system": frame.system,
    })
}

pub fn source_lines(lines: &[SourceLine]) -> Value {
    Value::Array(
        lines
            .iter()
            .map(|l| json!({"line": l.line, "text": l.text, "current": l.current}))
            .collect(),
    )
}

/// Numbered lines with the current one marked, for the text summary.
pub fn numbered(lines: &[SourceLine]) -> String {
    lines
        .iter()
        .map(|l| {
            format!(
                "{}{:>5}  {}",
                if l.current { ">" } else { " " },
                l.line,
                l.text
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn reason(stop: &Stopped) -> Value {
    let kind = match stop.reason {
        StopReason::Breakpoint => "breakpoint",
        StopReason::Step => "step",
        StopReason::Exception => "exception",
        StopReason::Watchpoint => "watchpoint",
    };
    let mut r = Map::new();
    r.insert("kind".into(), json!(kind));
    if let Some(id) = stop.breakpoints.as_ref().and_then(|b| b.first()) {
        r.insert("breakpoint_id".into(), json!(id));
    }
    if let Some(class) = &stop.exception {
        // The stop names the class only; the text is the exception object's, which the
        // protocol does not read at a stop.
        r.insert("exception".into(), json!({"class": class, "text": null}));
    }
    if let Some(w) = &stop.watchpoints {
        r.insert(
            "watchpoints".into(),
            Value::Array(
                w.iter()
                    .map(|w| json!({"id": w.id, "variable": w.variable, "value": w.value}))
                    .collect(),
            ),
        );
    }
    Value::Object(r)
}

/// The stop view: thread, reason, the top frame's place and source window, its variables
/// (read now, for the thread and frame 0 named explicitly), the stack depth.
pub fn stop_view(
    link: &Link,
    stop: &Stopped,
    max_chars: usize,
    cancelled: &dyn Fn() -> bool,
) -> Value {
    let mut view = json!({
        "thread": stop.thread,
        "epoch": stop.epoch,
        "reason": reason(stop),
        "depth": stop.depth,
        "location": stop.frame.as_ref().map(location),
        "source": source_lines(stop.frame.as_ref().and_then(|f| f.source.as_deref()).unwrap_or_default()),
        "variables": [],
    });
    let args = jsonl::args::VarsArgs {
        thread: Some(stop.thread),
        frame: Some(0),
        limit: 100,
        ..Default::default()
    };
    let key = stop.frame.as_ref().map(frame_key).unwrap_or_default();
    match link.call::<jsonl::cmd::Vars>(&args, cancelled) {
        Ok(vars) => {
            let list: Vec<Value> = vars
                .variables
                .iter()
                .map(|v| variable(link, v, stop.thread, &key, vars.epoch, max_chars))
                .collect();
            view["variables"] = Value::Array(list);
        }
        Err(e) => view["variables_error"] = json!(e.text()),
    }
    if let Some(e) = &stop.error {
        view["error_reading_stop"] = json!(e);
    }
    view
}

/// One line for hosts that show text only.
pub fn stop_summary(view: &Value) -> String {
    let loc = &view["location"];
    let mut s = format!(
        "stopped ({}) in thread {} at {}->{} line {}",
        view["reason"]["kind"].as_str().unwrap_or("?"),
        view["thread"],
        loc["object"].as_str().unwrap_or("?"),
        loc["method"].as_str().unwrap_or("?"),
        loc["line"],
    );
    if let Some(file) = loc["file"].as_str() {
        s.push_str(&format!(" ({file})"));
    }
    let current = view["source"]
        .as_array()
        .and_then(|l| l.iter().find(|l| l["current"] == true))
        .and_then(|l| l["text"].as_str());
    if let Some(text) = current {
        s.push_str(&format!(": {}", text.trim()));
    }
    s
}

fn unit(test: &TestResult) -> Value {
    let mut methods = Vec::new();
    for class in &test.classes {
        for m in &class.methods {
            methods.push(json!({
                "class": class.name,
                "method": m.name,
                "passed": m.passed,
                "alerts": m.alerts.iter().map(|a| json!({
                    "kind": a.kind, "severity": a.severity, "title": a.title, "details": a.details,
                })).collect::<Vec<_>>(),
            }));
        }
    }
    json!({
        "object": test.object,
        "passed": test.passed,
        "failed": test.failed,
        "ok": test.ok,
        "methods": methods,
    })
}

/// The end of a program, as the session reported it.
pub fn end_view(ended: &Ended) -> Value {
    let failed = ended
        .run
        .as_ref()
        .and_then(|r| r.error.as_ref())
        .filter(|e| e.code == "run.failed");
    let reason = match (failed, ended.reason) {
        (Some(_), EndReason::Finished) => "runtime_error",
        (_, EndReason::Finished) => "finished",
        (_, EndReason::Terminated) => "terminated",
        (_, EndReason::Detached) => "detached",
        (_, EndReason::Lost) => "lost",
    };
    let mut out = json!({
        "thread": ended.thread,
        "reason": reason,
        "output": ended.output,
    });
    if let Some(e) = failed.filter(|_| reason == "runtime_error") {
        out["runtime_error"] = json!(runtime_error_name(&e.message));
        out["message"] = json!(e.message);
    } else if let Some(m) = &ended.message {
        out["message"] = json!(m);
    }
    if let Some(t) = &ended.test {
        out["unit"] = unit(t);
    }
    out
}

/// The end of a run or test whose request answered (the program never stopped).
pub fn answered_end(cmd: &str, result: Value) -> Value {
    if cmd == "test" {
        match serde_json::from_value::<TestResult>(result) {
            Ok(t) => json!({"reason": "finished", "output": null, "unit": unit(&t)}),
            Err(e) => json!({"reason": "finished", "output": null, "message": e.to_string()}),
        }
    } else {
        match serde_json::from_value::<RunResult>(result) {
            Ok(r) => json!({"reason": "finished", "output": r.output}),
            Err(e) => json!({"reason": "finished", "output": null, "message": e.to_string()}),
        }
    }
}

/// The end of a run that failed with a runtime error (`run.failed`).
pub fn failed_end(message: &str) -> Value {
    json!({
        "reason": "runtime_error",
        "runtime_error": runtime_error_name(message),
        "message": message,
        "output": null,
    })
}

/// The runtime error's name (`COMPUTE_INT_ZERODIVIDE`) as the message names it after
/// "runtime error", else the exception class (`CX_SY_ZERODIVIDE`) it names.
fn runtime_error_name(message: &str) -> Option<String> {
    let word = |text: &str| -> Option<String> {
        let w: String = text
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
            .collect();
        (w.len() > 3 && w.contains('_')).then_some(w)
    };
    let lower = message.to_ascii_lowercase();
    if let Some(at) = lower.find("runtime error ")
        && let Some(name) = word(&message[at + "runtime error ".len()..])
    {
        return Some(name);
    }
    message
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|w| w.starts_with("CX_"))
        .map(str::to_string)
}

pub fn end_summary(end: &Value) -> String {
    let mut s = format!("ended: {}", end["reason"].as_str().unwrap_or("?"));
    if let Some(name) = end["runtime_error"].as_str() {
        s.push_str(&format!(" {name}"));
    }
    if let Some(out) = end["output"].as_str().filter(|o| !o.is_empty()) {
        s.push_str(&format!("; output:\n{out}"));
    }
    if let Some(u) = end.get("unit") {
        s.push_str(&format!(
            "; unit tests: {} passed, {} failed",
            u["passed"], u["failed"]
        ));
    }
    s
}

pub fn breakpoint(b: &Breakpoint) -> Value {
    let mut out = json!({
        "id": b.id,
        "kind": b.kind,
        "location": b.location,
        "status": b.status,
        "verified": b.status == "verified",
        "enabled": b.enabled,
    });
    let file = b.uri.as_deref().and_then(abapgit::SourceUnit::from_uri);
    let extra = [
        ("object", b.object.as_ref().map(|v| json!(v))),
        ("line", b.line.map(|v| json!(v))),
        ("file", file.map(|f| json!(f.file_name()))),
        ("condition", b.condition.as_ref().map(|v| json!(v))),
        ("statement", b.statement.as_ref().map(|v| json!(v))),
        ("exception", b.exception.as_ref().map(|v| json!(v))),
        (
            "message",
            b.message
                .as_ref()
                .map(|m| json!({"id": m.id, "number": m.number, "type": m.ty})),
        ),
        ("reason", b.reason.as_ref().map(|v| json!(v))),
        ("code", b.code.as_ref().map(|v| json!(v))),
        ("user", b.user.as_ref().map(|v| json!(v))),
    ];
    if let Some(map) = out.as_object_mut() {
        for (k, v) in extra {
            if let Some(v) = v {
                map.insert(k.into(), v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_counts_characters_not_bytes() {
        assert_eq!(cut("abc", 5), ("abc".into(), None));
        assert_eq!(cut("abcdef", 3), ("abc".into(), Some(6)));
        assert_eq!(cut("äöüß", 2), ("äö".into(), Some(4)));
        assert_eq!(cut("abc", 3), ("abc".into(), None));
    }

    #[test]
    fn runtime_error_names() {
        assert_eq!(
            runtime_error_name("runtime error COMPUTE_INT_ZERODIVIDE in ZCL_X"),
            Some("COMPUTE_INT_ZERODIVIDE".into())
        );
        assert_eq!(
            runtime_error_name(
                "running ZCL_MCP_DUMP: classrun: Runtime error COMPUTE_INT_ZERODIVIDE: Division by zero (type i)"
            ),
            Some("COMPUTE_INT_ZERODIVIDE".into())
        );
        assert_eq!(
            runtime_error_name("exception CX_SY_ZERODIVIDE raised"),
            Some("CX_SY_ZERODIVIDE".into())
        );
        assert_eq!(runtime_error_name("the program was terminated"), None);
    }
}
