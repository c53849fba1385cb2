//! The tools as agents see them: name, description, `inputSchema` and `outputSchema`, written
//! by hand so their shapes are exactly the contract of the MCP issue (and of docs/agents.md).
//! Every output schema is an object at the root whose members are all optional, so the error
//! result `{"error": {…}}` is valid against each one.

use serde_json::{Value, json};

fn nullable(t: &str) -> Value {
    json!({"type": [t, "null"]})
}

fn error_schema() -> Value {
    json!({
        "type": "object",
        "description": "Set instead of the answer when the tool failed (the result then has isError: true).",
        "properties": {
            "code": {"type": "string", "description": "Stable error code (jsonl/PROTOCOL.md), e.g. state.not_stopped."},
            "message": {"type": "string"},
            "hint": {"type": ["string", "null"], "description": "The next step."}
        },
        "required": ["code", "message"]
    })
}

fn variable_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "id": {"type": "string", "description": "The path to read it again or expand it (abap_variables path)."},
            "scope": {"type": "string"},
            "type": {"type": "string", "description": "Technical type (I, P, C, CString, …)."},
            "declared_type": {"type": "string"},
            "meta": {"type": "string", "description": "simple, string, structure, table, objectref, dataref, …"},
            "value": {"type": "string"},
            "changed": {"type": "boolean", "description": "Differs from its value at the previous stop this server read it at."},
            "children": {"type": ["integer", "null"], "description": "Rows of a table; 0 for a leaf; null when expandable (read it with its id as path)."},
            "expandable": {"type": "boolean"},
            "truncated": {"type": "boolean", "description": "value was cut at max_chars."},
            "full_length": {"type": "integer", "description": "Characters of the whole value, when truncated."}
        },
        "required": ["name", "id", "type", "value", "changed", "truncated"]
    })
}

fn location_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "index": {"type": "integer", "description": "Frame index, 0 = innermost."},
            "object": {"type": "string"},
            "object_type": {"type": "string", "description": "CLAS, INTF, PROG, FUGR, or empty."},
            "method": {"type": "string"},
            "event_type": {"type": "string"},
            "program": {"type": "string"},
            "include": {"type": "string"},
            "file": {"type": ["string", "null"], "description": "The abapGit file the line belongs to (zcl_x.clas.abap), derived from object and include alone."},
            "line": {"type": "integer", "description": "Line in file."},
            "system": {"type": "boolean"}
        },
        "required": ["object", "method", "include", "line"]
    })
}

fn source_lines_schema() -> Value {
    json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "line": {"type": "integer"},
                "text": {"type": "string"},
                "current": {"type": "boolean", "description": "The line the frame stands at."}
            },
            "required": ["line", "text", "current"]
        }
    })
}

fn stop_schema() -> Value {
    json!({
        "type": "object",
        "description": "The stop view: everything to look at after a move.",
        "properties": {
            "thread": {"type": "integer"},
            "epoch": nullable("integer"),
            "reason": {
                "type": "object",
                "properties": {
                    "kind": {"enum": ["breakpoint", "step", "exception", "watchpoint"]},
                    "breakpoint_id": {"type": "integer"},
                    "exception": {
                        "type": "object",
                        "properties": {"class": {"type": "string"}, "text": {"type": ["string", "null"]}},
                        "required": ["class"]
                    },
                    "watchpoints": {"type": "array", "items": {"type": "object"}}
                },
                "required": ["kind"]
            },
            "depth": {"type": ["integer", "null"], "description": "Frames on the stack."},
            "location": {"anyOf": [location_schema(), {"type": "null"}]},
            "source": source_lines_schema(),
            "variables": {"type": "array", "items": variable_schema(), "description": "The top frame's variables."},
            "variables_error": {"type": "string"},
            "error_reading_stop": {"type": "string"}
        },
        "required": ["thread", "reason", "location", "source", "variables"]
    })
}

fn end_schema() -> Value {
    json!({
        "type": "object",
        "description": "How the program ended.",
        "properties": {
            "thread": {"type": "integer"},
            "reason": {"enum": ["finished", "terminated", "detached", "lost", "runtime_error"]},
            "runtime_error": {"type": ["string", "null"], "description": "The runtime error's name."},
            "message": {"type": "string"},
            "output": {"type": ["string", "null"], "description": "What the program wrote (classrun output)."},
            "unit": {
                "type": "object",
                "description": "ABAP Unit results per method.",
                "properties": {
                    "object": {"type": "string"},
                    "passed": {"type": "integer"},
                    "failed": {"type": "integer"},
                    "ok": {"type": "boolean"},
                    "methods": {"type": "array", "items": {
                        "type": "object",
                        "properties": {
                            "class": {"type": "string"},
                            "method": {"type": "string"},
                            "passed": {"type": "boolean"},
                            "alerts": {"type": "array", "items": {"type": "object"}}
                        },
                        "required": ["class", "method", "passed"]
                    }}
                },
                "required": ["passed", "failed", "methods"]
            }
        },
        "required": ["reason"]
    })
}

fn breakpoint_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "kind": {"enum": ["line", "statement", "exception", "message"]},
            "location": {"type": "string"},
            "status": {"enum": ["verified", "rejected", "pending", "disabled"]},
            "verified": {"type": "boolean"},
            "enabled": {"type": "boolean"},
            "object": {"type": "string"},
            "line": {"type": "integer"},
            "file": {"type": "string"},
            "condition": {"type": "string"},
            "statement": {"type": "string"},
            "exception": {"type": "string"},
            "message": {"type": "object"},
            "reason": {"type": "string", "description": "The system's words, when rejected."},
            "code": {"type": "string"},
            "user": {"type": "string", "description": "Another user whose runs it stops (catch of that user's dump); absent: ours."}
        },
        "required": ["id", "kind", "status", "verified"]
    })
}

fn dump_summary_properties() -> Value {
    json!({
        "id": {"type": "string", "description": "The system's id; what abap_dumps id and abap_breakpoints catch take."},
        "time": {"type": "string", "description": "ISO 8601 UTC."},
        "user": {"type": "string"},
        "runtime_error": {"type": "string", "description": "COMPUTE_INT_ZERODIVIDE, …"},
        "exception": {"type": ["string", "null"], "description": "The exception class of a class-based error."},
        "program": {"type": "string"},
        "include": {"type": "string"},
        "line": {"type": "integer", "description": "The termination line in file; 0 when not known."},
        "file": {"type": ["string", "null"], "description": "The abapGit file of the termination point."},
        "short_text": {"type": "string"}
    })
}

/// `abap_dumps`: the list, or one dump's summary fields with its chapters, stack, variables
/// and source.
fn dump_properties() -> Value {
    let summary = dump_summary_properties();
    let mut props = summary.clone();
    if let Some(p) = props.as_object_mut() {
        p.insert(
            "dumps".into(),
            json!({"type": "array", "items": {
                "type": "object",
                "properties": summary,
                "required": ["id", "time", "user", "runtime_error", "program", "line", "short_text"]
            }}),
        );
        p.insert(
            "chapters".into(),
            json!({"type": "array", "items": {
                "type": "object",
                "properties": {"title": {"type": "string"}, "text": {"type": "string"}},
                "required": ["title", "text"]
            }}),
        );
        p.insert(
            "stack".into(),
            json!({"type": "array", "items": location_schema()}),
        );
        p.insert("variables".into(), json!({"type": "array", "items": {
            "type": "object",
            "properties": {
                "frame": {"type": "string", "description": "The procedure (ZCL_ORDER=>DIVIDE)."},
                "name": {"type": "string"},
                "type": {"type": "string", "description": "Empty when the dump does not say."},
                "value": {"type": "string"}
            },
            "required": ["frame", "name", "type", "value"]
        }}));
        p.insert("source".into(), source_lines_schema());
    }
    props
}

/// An output schema: an object whose members (all optional) are `properties`, plus `error`.
fn output(mut properties: Value) -> Value {
    if let Some(p) = properties.as_object_mut() {
        p.insert("error".into(), error_schema());
    }
    json!({"type": "object", "properties": properties})
}

fn outcome_output() -> Value {
    output(json!({
        "stop": stop_schema(),
        "end": end_schema(),
        "waiting": {"type": "boolean", "description": "Nothing happened within wait_seconds; the session and the program go on (call abap_wait)."},
        "state": {"enum": ["listening", "running"]},
        "elapsed_seconds": {"type": "number"}
    }))
}

fn input(properties: Value, required: &[&str]) -> Value {
    let mut s = json!({"type": "object", "properties": properties, "additionalProperties": false});
    if !required.is_empty() {
        s["required"] = json!(required);
    }
    s
}

fn thread_arg() -> Value {
    json!({"type": "integer", "minimum": 1, "description": "The thread (a caught program; abap_status lists them). Default: the session's current one. Never changes what others see."})
}

fn frame_arg() -> Value {
    json!({"type": "integer", "minimum": 0, "description": "The stack frame, 0 = innermost (default). Never moves anyone's cursor."})
}

fn wait_arg() -> Value {
    json!({"type": "number", "minimum": 0, "maximum": 600, "description": "Longest time this call may wait, in seconds (default 60, at most 600). Then it answers {waiting: true} and the program goes on."})
}

fn max_chars_arg() -> Value {
    json!({"type": "integer", "minimum": 1, "description": "Values longer than this are cut (truncated, full_length); default 512."})
}

/// Every tool, as `tools/list` answers them.
pub fn list() -> Vec<Value> {
    let outcome_note = "Answers one of {stop: the stop view (thread, reason, location with abapGit file and line, source window with the current line marked, the top frame's variables with `changed`, stack depth)}, {end: reason, output, runtime error, unit results} or {waiting: true, state, elapsed_seconds} when nothing happened within wait_seconds (the session and program go on; call abap_wait). Sends progress notifications while it waits when the request has a progress token; cancelling it ends the wait at once and leaves session and program as they are.";
    vec![
        json!({
            "name": "abap_status",
            "title": "Debugger status",
            "description": "Where the debugging session stands: state (idle, listening, stopped, running, ended), system, listener, caught programs (threads), breakpoints, the current stop view or the last end, the debugger settings. Cheap; changes nothing.",
            "inputSchema": input(json!({"max_chars": max_chars_arg()}), &[]),
            "outputSchema": output(json!({
                "state": {"enum": ["idle", "listening", "stopped", "running", "ended"]},
                "system": {"type": "object", "properties": {"url": {"type": "string"}, "user": {"type": "string"}}},
                "listener": {"type": "object", "properties": {"wanted": {"type": "boolean"}, "armed": {"type": "boolean"}}},
                "allow_writes": {"type": "boolean"},
                "current_thread": nullable("integer"),
                "threads": {"type": "array", "items": {"type": "object", "properties": {
                    "thread": {"type": "integer"}, "program": {"type": "string"}, "current": {"type": "boolean"},
                    "running": {"type": "boolean"}, "location": {"anyOf": [location_schema(), {"type": "null"}]}
                }, "required": ["thread", "program", "running"]}},
                "breakpoints": {"type": "array", "items": breakpoint_schema()},
                "stop": {"anyOf": [stop_schema(), {"type": "null"}]},
                "last_end": {"anyOf": [end_schema(), {"type": "null"}]},
                "settings": {
                    "description": "The debugger settings the session applies to the programs it attaches; null while none were set (the system's defaults apply).",
                    "anyOf": [{"type": "object", "properties": {
                        "system_debugging": {"type": "boolean"},
                        "create_exception_object": {"type": "boolean"},
                        "background_rfc": {"type": "boolean"},
                        "shared_object_debugging": {"type": "boolean"},
                        "show_data_aging": {"type": "boolean"},
                        "update_debugging": {"type": "boolean"}
                    }, "required": ["system_debugging", "create_exception_object"]}, {"type": "null"}]
                }
            })),
            "annotations": {"readOnlyHint": true, "openWorldHint": true}
        }),
        json!({
            "name": "abap_breakpoints",
            "title": "Set and delete breakpoints",
            "description": "Changes our breakpoints and answers the whole list, each verified or rejected with the system's reason. set: a list of {location, condition?} for a line (OBJ:line such as ZCL_ORDER:42, ZCL_ORDER/testclasses:12, or an abapGit file such as src/zcl_order.clas.abap:42), {statement: 'CATCH'}, {exception: 'CX_SY_ZERODIVIDE'}, {message: {id, number, type}}; a condition is an ABAP logical expression. delete: ids; all: true deletes every one of ours (deletions happen before the set). catch: {dump: an id from abap_dumps, user?} stops the next occurrence of that short dump before it dies (a line breakpoint at its termination point, and an exception breakpoint for its class when class-based) and arms the listener; for another user's dump it stops that user's runs (we also listen for that user), unless user names ours (then our own runs are caught). Without arguments: the list.",
            "inputSchema": input(json!({
                "set": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "location": {"type": "string"},
                        "statement": {"type": "string"},
                        "exception": {"type": "string"},
                        "message": {"type": "object", "properties": {"id": {"type": "string"}, "number": {"type": "string"}, "type": {"type": "string"}}, "required": ["id", "number", "type"]},
                        "condition": {"type": "string"},
                        "enabled": {"type": "boolean"}
                    },
                    "additionalProperties": false
                }},
                "delete": {"type": "array", "items": {"type": "integer"}},
                "all": {"type": "boolean"},
                "catch": {
                    "type": "object",
                    "description": "Catch the next occurrence of a short dump (after delete and set).",
                    "properties": {
                        "dump": {"type": "string", "description": "The dump's id, as abap_dumps answers it."},
                        "user": {"type": "string", "description": "Whose runs to catch: default the dump's user (another user's runs stop for us through a listener for that user); name our user to catch it in our own runs."}
                    },
                    "required": ["dump"],
                    "additionalProperties": false
                }
            }), &[]),
            "outputSchema": output(json!({
                "breakpoints": {"type": "array", "items": breakpoint_schema()},
                "deleted": {"type": "array", "items": {"type": "integer"}},
                "warning": {"type": "string"},
                "caught": {
                    "type": "object",
                    "description": "What catch set: the dump, the user whose runs stop, whether the listener holds, and the ids of the breakpoints (in breakpoints) it set.",
                    "properties": {
                        "dump": {"type": "string"},
                        "user": {"type": "string"},
                        "armed": {"type": "boolean"},
                        "breakpoints": {"type": "array", "items": {"type": "integer"}}
                    },
                    "required": ["dump", "user", "armed", "breakpoints"]
                }
            })),
            "annotations": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": true}
        }),
        json!({
            "name": "abap_run",
            "title": "Run to the next stop",
            "description": format!("Starts a program and waits for its first stop or its end: class (runs it as a console application, IF_OO_ADT_CLASSRUN), or test {{class, method?}} (its ABAP Unit tests), or listen: true (catches a program someone starts elsewhere, e.g. from SAP GUI or an HTTP call, for the same user). {outcome_note}"),
            "inputSchema": input(json!({
                "class": {"type": "string"},
                "test": {"type": "object", "properties": {"class": {"type": "string"}, "method": {"type": "string", "description": "LTCL_X=>TEST_A or TEST_A"}}, "required": ["class"], "additionalProperties": false},
                "listen": {"type": "boolean"},
                "wait_seconds": wait_arg(),
                "max_chars": max_chars_arg()
            }), &[]),
            "outputSchema": outcome_output(),
            "annotations": {"readOnlyHint": false, "destructiveHint": false, "openWorldHint": true}
        }),
        json!({
            "name": "abap_wait",
            "title": "Wait for a stop or an end",
            "description": format!("Waits for the next stop or end of what runs, arming the listener first when it is not armed (then a program started elsewhere is caught). Answers at once when a program is stopped now, or with an end not answered before. {outcome_note}"),
            "inputSchema": input(json!({"wait_seconds": wait_arg(), "max_chars": max_chars_arg(), "take_over": {"type": "boolean", "description": "Takes the listener over from another debugger listening for the same user (that one is told)."}}), &[]),
            "outputSchema": outcome_output(),
            "annotations": {"readOnlyHint": false, "destructiveHint": false, "openWorldHint": true}
        }),
        json!({
            "name": "abap_step",
            "title": "Step",
            "description": format!("Moves the stopped program: into, over, out, continue (to the next breakpoint or the end), to_line (runs to line of the current source), jump_to_line (moves the execution point without running what lies between; a write action). {outcome_note}"),
            "inputSchema": input(json!({
                "kind": {"enum": ["into", "over", "out", "continue", "to_line", "jump_to_line"]},
                "line": {"type": "integer", "minimum": 1, "description": "For to_line and jump_to_line: the line in the current frame's source."},
                "location": {"type": "string", "description": "For to_line and jump_to_line instead of line: OBJ:line."},
                "thread": thread_arg(),
                "wait_seconds": wait_arg(),
                "max_chars": max_chars_arg()
            }), &["kind"]),
            "outputSchema": outcome_output(),
            "annotations": {"readOnlyHint": false, "destructiveHint": false, "openWorldHint": true}
        }),
        json!({
            "name": "abap_stack",
            "title": "Call stack",
            "description": "The stopped program's call stack, innermost first: object, method, include, abapGit file and line of each frame.",
            "inputSchema": input(json!({"thread": thread_arg()}), &[]),
            "outputSchema": output(json!({
                "thread": {"type": "integer"},
                "epoch": {"type": "integer"},
                "frames": {"type": "array", "items": location_schema()}
            })),
            "annotations": {"readOnlyHint": true, "openWorldHint": true}
        }),
        json!({
            "name": "abap_variables",
            "title": "Variables",
            "description": "Variables of a frame. Without path: the frame's scopes with their variables. With path (a variable's id, e.g. LS_ORDER, ME, LT_ITEMS[3], ZCL_X=>GV_A): its components, or a table's rows paged by offset and limit. Each variable has name, type, value, changed (since the previous stop), children; long values are cut at max_chars (truncated, full_length). Use abap_table for table rows as records.",
            "inputSchema": input(json!({
                "thread": thread_arg(),
                "frame": frame_arg(),
                "path": {"type": "string"},
                "offset": {"type": "integer", "minimum": 0},
                "limit": {"type": "integer", "minimum": 1, "maximum": 1000},
                "max_chars": max_chars_arg()
            }), &[]),
            "outputSchema": output(json!({
                "thread": {"type": "integer"},
                "frame": {"type": "integer"},
                "epoch": {"type": "integer"},
                "path": {"type": "string"},
                "scopes": {"type": "array", "items": {"type": "object", "properties": {
                    "id": {"type": "string"}, "name": {"type": "string"},
                    "variables": {"type": "array", "items": variable_schema()}
                }, "required": ["name", "variables"]}},
                "variables": {"type": "array", "items": variable_schema()},
                "total": {"type": "integer"},
                "offset": {"type": "integer"},
                "next_offset": {"type": ["integer", "null"]}
            })),
            "annotations": {"readOnlyHint": true, "openWorldHint": true}
        }),
        json!({
            "name": "abap_table",
            "title": "Internal table rows",
            "description": "Rows of an internal table as objects (index and values by column), at most limit rows (default 50, at most 1000) from offset (0-based), with total and next_offset (null at the end). columns keeps only the named components. where filters: a condition on the row's components in ABAP syntax as in breakpoint conditions, of which this subset is supported: comparisons =, <>, <, >, <=, >= and EQ, NE, LT, GT, LE, GE; AND, OR, NOT; parentheses; component names (TABLE_LINE for elementary lines) and literals ('text', `text`, numbers). Operands that both read as numbers compare as numbers, others as texts without trailing blanks. With where the table is scanned page by page from offset, at most max_scan rows (default 100000); matched counts the matching rows among the scanned ones, scanned how many were read, next_offset where to continue.",
            "inputSchema": input(json!({
                "path": {"type": "string", "description": "The table variable (LT_ITEMS, LS_ORDER-ITEMS, ME->MT_ROWS)."},
                "thread": thread_arg(),
                "frame": frame_arg(),
                "offset": {"type": "integer", "minimum": 0},
                "limit": {"type": "integer", "minimum": 1, "maximum": 1000},
                "columns": {"type": "array", "items": {"type": "string"}},
                "where": {"type": "string"},
                "max_scan": {"type": "integer", "minimum": 1},
                "max_chars": max_chars_arg()
            }), &["path"]),
            "outputSchema": output(json!({
                "path": {"type": "string"},
                "epoch": {"type": "integer"},
                "total": {"type": "integer"},
                "columns": {"type": "array", "items": {"type": "object", "properties": {
                    "name": {"type": "string"}, "type": {"type": "string"}, "meta": {"type": "string"}
                }, "required": ["name"]}},
                "rows": {"type": "array", "items": {"type": "object", "properties": {
                    "index": {"type": "integer", "description": "1-based, as in ABAP."},
                    "values": {"type": "object"},
                    "value": {"type": "string"},
                    "truncated": {"type": "array", "items": {"type": "string"}}
                }, "required": ["index"]}},
                "matched": {"type": "integer"},
                "scanned": {"type": "integer"},
                "next_offset": {"type": ["integer", "null"]}
            })),
            "annotations": {"readOnlyHint": true, "openWorldHint": true}
        }),
        json!({
            "name": "abap_set_variable",
            "title": "Change a variable",
            "description": "Assigns a value to a variable of the stopped program (with ABAP conversion) and answers the new value. A write action: refused (permission.write_not_allowed) unless writes are allowed for the system (serve --allow-writes, ABAPDBG_ALLOW_WRITES=true, or the profile's allow_writes).",
            "inputSchema": input(json!({
                "path": {"type": "string"},
                "value": {"type": "string"},
                "thread": thread_arg(),
                "frame": frame_arg(),
                "max_chars": max_chars_arg()
            }), &["path", "value"]),
            "outputSchema": output(json!({
                "path": {"type": "string"},
                "value": {"type": "string"},
                "echo": {"type": "string"},
                "variable": {"anyOf": [variable_schema(), {"type": "null"}]}
            })),
            "annotations": {"readOnlyHint": false, "destructiveHint": true, "openWorldHint": true}
        }),
        json!({
            "name": "abap_source",
            "title": "Source lines",
            "description": "Numbered source lines: around a location (OBJ:line, or an abapGit file with :line), or around line of object (a name such as ZCL_ORDER, or an abapGit file name such as zcl_order.clas.testclasses.abap), or, with neither, around where the frame stands (current line marked). around: lines before and after (default 5).",
            "inputSchema": input(json!({
                "location": {"type": "string"},
                "object": {"type": "string"},
                "line": {"type": "integer", "minimum": 1},
                "around": {"type": "integer", "minimum": 0, "maximum": 500},
                "thread": thread_arg(),
                "frame": frame_arg()
            }), &[]),
            "outputSchema": output(json!({
                "uri": {"type": "string"},
                "file": {"type": ["string", "null"]},
                "line": {"type": "integer"},
                "lines": source_lines_schema()
            })),
            "annotations": {"readOnlyHint": true, "openWorldHint": true}
        }),
        json!({
            "name": "abap_dumps",
            "title": "Short dumps",
            "description": "The system's short dumps (ST22), newest first: id, time (ISO 8601 UTC), user, runtime_error, exception (class, when class-based), program, include, line and abapGit file of the termination point, short_text. Filters: since/until (ISO 8601 time or an age such as 30m, 1h, 2d), user (default ours; '*' for everyone's), program (ZCL_ORDER), error (runtime error or exception class), limit (1..200, default 20). With id instead: that dump whole, adding chapters (title, text), stack (the active calls, innermost first, with file and line where known), variables (frame, name, type, value) and source (the lines around the termination line, current marked). To stop its next occurrence: abap_breakpoints {catch: {dump: id}}.",
            "inputSchema": input(json!({
                "id": {"type": "string", "description": "One dump, by the id the list answered."},
                "since": {"type": "string"},
                "until": {"type": "string"},
                "user": {"type": "string"},
                "program": {"type": "string"},
                "error": {"type": "string"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 200}
            }), &[]),
            "outputSchema": output(dump_properties()),
            "annotations": {"readOnlyHint": true, "openWorldHint": true}
        }),
        json!({
            "name": "abap_end",
            "title": "Release",
            "description": "Lets go. terminate: aborts the stopped program (breakpoints and listener stay, the session goes on). detach: takes our breakpoints off and lets the program run on. shutdown: releases everything (listener, breakpoints, programs) and ends the session; the next tool call starts a new one. When nothing is stopped, terminate and detach answer that there was nothing to do. Answers what was released.",
            "inputSchema": input(json!({"how": {"enum": ["terminate", "detach", "shutdown"]}}), &["how"]),
            "outputSchema": output(json!({
                "how": {"enum": ["terminate", "detach", "shutdown"]},
                "done": {"type": "boolean", "description": "false: there was nothing to do."},
                "note": {"type": "string"},
                "ended": end_schema(),
                "breakpoints_disabled": {"type": "array", "items": {"type": "integer"}},
                "receipt": {"type": "object", "properties": {
                    "listener_stopped": {"type": "boolean"},
                    "breakpoints_deleted": {"type": "integer"},
                    "debuggees": {"type": "array", "items": {"type": "object"}},
                    "errors": {"type": "array", "items": {"type": "string"}}
                }}
            })),
            "annotations": {"readOnlyHint": false, "destructiveHint": true, "openWorldHint": true}
        }),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_output_schema_is_an_object_that_admits_an_error() {
        let tools = list();
        assert_eq!(tools.len(), 12);
        for t in &tools {
            let out = &t["outputSchema"];
            assert_eq!(out["type"], "object", "{}", t["name"]);
            assert!(out.get("required").is_none(), "{}", t["name"]);
            assert_eq!(out["properties"]["error"]["type"], "object");
            assert_eq!(t["inputSchema"]["type"], "object");
        }
    }
}
