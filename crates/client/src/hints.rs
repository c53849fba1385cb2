//! The session's hints, said as each front end says them. The session writes its hints for the
//! protocol (`'listen' with {"take_over":true}`, `'bp.list'`); a person at the shell types
//! `abapdbg listen --take-over`, in Nushell `abap listen --take-over`; in an IDE (DAP) the
//! launch configuration and the views are what there is; an agent (MCP) calls a tool. The
//! hints known by their error code are said anew for each front end; in the others every quoted
//! protocol command becomes what that front end types, and a hint that still shows protocol
//! JSON is dropped (the message says what went wrong).

/// Where a hint is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrontEnd {
    /// The `abapdbg` command line.
    Cli,
    /// The interactive debugger (`abapdbg attach`): its short commands (`v`, `w`, `b`, `bp
    /// list`); what it has no command for is said as the command line says it.
    Repl,
    /// The Nushell plugin (`abap …`).
    Nushell,
    /// The debug adapter: an IDE's launch configuration and views.
    Dap,
    /// The MCP tools.
    Mcp,
}

/// The hint to show in `front` for an error of `code` whose protocol hint is `hint`; `None`
/// when the hint only makes sense in protocol terms.
pub fn for_front_end(front: FrontEnd, code: &str, hint: &str) -> Option<String> {
    if let Some(own) = by_code(front, code, hint) {
        return Some(own);
    }
    let rewritten = commands(front, hint);
    if rewritten.contains('{') {
        return None;
    }
    Some(rewritten)
}

/// Hints said differently in each front end, by the error's code (and, where one code has
/// several hints, by what the protocol hint is about).
fn by_code(front: FrontEnd, code: &str, hint: &str) -> Option<String> {
    use FrontEnd::{Cli, Dap, Mcp, Nushell, Repl};
    let s = |cli: &str, repl: &str, nu: &str, dap: &str, mcp: &str| {
        Some(
            match front {
                Cli => cli,
                Repl => repl,
                Nushell => nu,
                Dap => dap,
                Mcp => mcp,
            }
            .to_string(),
        )
    };
    match code {
        "conflict.listener" if hint.contains("took the listener over") => s(
            "another debugger took the listener over; 'abapdbg listen --take-over' takes it back",
            "another debugger took the listener over; quit ('q') and 'abapdbg attach --take-over' takes it back",
            "another debugger took the listener over; 'abap listen --take-over' takes it back",
            "another debugger took the listener over; attach again with \"takeOver\": true in \
             the launch configuration to take it back",
            "another debugger took the listener over; abap_wait with take_over: true takes it \
             back",
        ),
        "conflict.listener" => s(
            "another debugger listens for this user; stop it, or take the listener over with \
             'abapdbg listen --take-over' (also 'abapdbg attach --take-over')",
            "another debugger listens for this user; stop it, or quit ('q') and take the listener over with 'abapdbg attach --take-over'",
            "another debugger listens for this user; stop it, or take the listener over with \
             'abap listen --take-over'",
            "another debugger listens for this user; stop it, or attach with \"takeOver\": true \
             in the launch configuration",
            "another debugger listens for this user; stop it, or take the listener over with \
             abap_wait and take_over: true",
        ),
        "state.not_stopped" if hint.contains("wait") && hint.contains('{') => s(
            "the program is running; 'abapdbg wait' returns when it stops",
            "the program is running; 'w' waits for its next stop",
            "the program is running; 'abap wait' returns when it stops",
            "the program is running; the debugger shows its next stop",
            "the program is running; abap_wait returns when it stops",
        ),
        "state.not_stopped" => s(
            "set a breakpoint ('abapdbg bp set ZCL_X:42'), then 'abapdbg run ZCL_X' (or \
             'abapdbg attach' and start the program)",
            "set a breakpoint ('b ZCL_X:42'), start the program, and 'w' waits for the stop",
            "set a breakpoint ('abap bp set ZCL_X:42'), then 'abap run ZCL_X' (or 'abap listen' \
             and start the program)",
            "set a breakpoint in the editor, then launch the class (or attach and start the \
             program)",
            "set a breakpoint (abap_breakpoints with set), then abap_run with class (or \
             listen: true and start the program)",
        ),
        "state.debuggee_ended" => s(
            "the program is no longer stopped; 'abapdbg run' it again to catch a new stop",
            "the program is no longer stopped; start it again and 'w' waits for its next stop",
            "the program is no longer stopped; 'abap run' it again to catch a new stop",
            "the program is no longer stopped; launch it again to catch a new stop",
            "the program is no longer stopped; abap_run it again to catch a new stop",
        ),
        "permission.write_not_allowed" => s(
            "writes are allowed by a session started with ABAPDBG_ALLOW_WRITES=true (or \
             allow_writes = true in the profile): 'abapdbg shutdown', then run the command \
             again with it",
            "writes are allowed by a session started with ABAPDBG_ALLOW_WRITES=true (or allow_writes = true in the profile): quit ('q'), 'abapdbg shutdown', then start again with it",
            "writes are allowed by a session started with ABAPDBG_ALLOW_WRITES=true (or \
             allow_writes = true in the profile): 'abap shutdown', then run the command again \
             with it",
            "writes are allowed with \"allowWrites\": true in the launch configuration (of a \
             session the adapter starts)",
            "writes are allowed by a session started with ABAPDBG_ALLOW_WRITES=true (or \
             allow_writes = true in the profile): abap_end with how: shutdown, then call the \
             tool again",
        ),
        "breakpoint.not_found" => s(
            "'abapdbg bp list' lists the breakpoints with their ids",
            "'bp list' lists the breakpoints with their ids",
            "'abap bp list' lists the breakpoints with their ids",
            "the Breakpoints view lists the breakpoints",
            "abap_breakpoints lists the breakpoints with their ids",
        ),
        "breakpoint.limit" => s(
            "delete breakpoints you no longer need ('abapdbg bp list', 'abapdbg bp delete'), \
             then set again",
            "delete breakpoints you no longer need ('bp list', 'bp delete'), then set again",
            "delete breakpoints you no longer need ('abap bp list', 'abap bp delete'), then set \
             again",
            "remove breakpoints you no longer need, then set again",
            "delete breakpoints you no longer need (abap_breakpoints with delete), then set \
             again",
        ),
        "breakpoint.invalid_location" => s(
            "write OBJECT:LINE, e.g. 'abapdbg bp set ZCL_ORDER:42' (a line of the class's \
             source), or FILE:LINE of an abapGit file",
            "write OBJECT:LINE, e.g. 'b ZCL_ORDER:42' (a line of the class's source), or FILE:LINE of an abapGit file",
            "write OBJECT:LINE, e.g. 'abap bp set ZCL_ORDER:42' (a line of the class's source), \
             or FILE:LINE of an abapGit file",
            "set the breakpoint in an abapGit file of the object, under a \"sourceRoot\" of the \
             launch configuration",
            "write OBJECT:LINE, e.g. ZCL_ORDER:42 (a line of the class's source), or FILE:LINE \
             of an abapGit file",
        ),
        "variable.not_found" => s(
            "'abapdbg vars' lists the selected frame's variables",
            "'v' lists the selected frame's variables",
            "'abap vars' lists the selected frame's variables",
            "the Variables view lists the selected frame's variables",
            "abap_variables lists the selected frame's variables",
        ),
        "adt.not_supported" => s(
            "'abapdbg doctor' lists what the system offers; if the system gained it since, \
             'abapdbg shutdown', then run the command again with ABAPDBG_REFRESH_DISCOVERY=true",
            "'abapdbg doctor' lists what the system offers; if the system gained it since, quit ('q'), 'abapdbg shutdown', then start again with ABAPDBG_REFRESH_DISCOVERY=true",
            "'abapdbg doctor' lists what the system offers; if the system gained it since, \
             'abap shutdown', then start the session again with ABAPDBG_REFRESH_DISCOVERY=true",
            "the system does not offer this; 'abapdbg doctor' lists what it offers",
            "the system does not offer this; abap_status shows system.capabilities",
        ),
        "state.stale_reference" => s(
            "read the variables again: 'abapdbg vars'",
            "read the variables again: 'v'",
            "read the variables again: 'abap vars'",
            "the program moved on: the views show the new stop",
            "read the variables again: abap_variables",
        ),
        _ => None,
    }
}

/// The protocol commands a hint names in quotes, as `front` says them: `'bp.list'` →
/// `'abapdbg bp list'` (CLI), `'bp list'` (REPL), `'abap bp list'` (Nushell), `abap_breakpoints`
/// (MCP).
fn commands(front: FrontEnd, hint: &str) -> String {
    let mut out = String::with_capacity(hint.len() + 16);
    let mut rest = hint;
    while let Some(open) = rest.find('\'') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('\'') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let quoted = &after[..close];
        match command(front, quoted) {
            Some(said) => out.push_str(&said),
            None => out.push_str(&format!("'{quoted}'")),
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// How `front` says the protocol command `protocol`, when it has one of that meaning.
fn command(front: FrontEnd, protocol: &str) -> Option<String> {
    if protocol.starts_with("abapdbg ") || protocol.starts_with("abap ") {
        return None;
    }
    let first = protocol.split_whitespace().next()?;
    if !jsonl::COMMANDS.contains(&first) {
        return None;
    }
    let words = protocol.replacen('.', " ", 1);
    let shell = matches!(
        first,
        "step"
            | "vars"
            | "stack"
            | "status"
            | "run"
            | "test"
            | "wait"
            | "listen"
            | "unlisten"
            | "terminate"
            | "detach"
            | "shutdown"
            | "get"
            | "set"
            | "source"
            | "threads"
            | "thread"
            | "frame"
            | "table"
            | "events"
    ) || first.starts_with("bp.");
    match front {
        FrontEnd::Cli => shell.then(|| format!("'abapdbg {words}'")),
        FrontEnd::Nushell => shell.then(|| format!("'abap {words}'")),
        // The REPL's short command where it has one; else the command line (another shell).
        FrontEnd::Repl => {
            let short = match first {
                "step" => Some("s".to_string()),
                "vars" => Some("v".to_string()),
                "get" => Some("p".to_string()),
                "stack" => Some("bt".to_string()),
                "frame" => Some("f".to_string()),
                "source" => Some("src".to_string()),
                "thread" => Some("t".to_string()),
                "threads" | "set" | "table" => Some(first.to_string()),
                "wait" => Some("w".to_string()),
                "detach" => Some("q".to_string()),
                "terminate" => Some("kill".to_string()),
                f if f.starts_with("bp.") => Some(words.clone()),
                _ => None,
            };
            match short {
                Some(said) => Some(format!("'{said}'")),
                None => shell.then(|| format!("'abapdbg {words}'")),
            }
        }
        FrontEnd::Dap => Some(
            match first {
                "vars" | "get" => "the Variables view",
                "stack" | "frame" | "threads" | "thread" => "the Call Stack view",
                f if f.starts_with("bp.") => "the Breakpoints view",
                _ => return None,
            }
            .to_string(),
        ),
        FrontEnd::Mcp => Some(
            match first {
                "status" => "abap_status",
                "vars" | "get" => "abap_variables",
                "stack" | "frame" => "abap_stack",
                "step" => "abap_step",
                "run" | "test" => "abap_run",
                "wait" | "listen" => "abap_wait",
                "terminate" | "detach" | "shutdown" => "abap_end",
                "table" => "abap_table",
                "set" => "abap_set_variable",
                "source" => "abap_source",
                f if f.starts_with("bp.") => "abap_breakpoints",
                _ => return None,
            }
            .to_string(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use FrontEnd::{Cli, Dap, Mcp, Nushell, Repl};

    const CONFLICT: &str =
        "another debugger listens for this user; stop it, or 'listen' with {\"take_over\":true}";

    #[test]
    fn the_take_over_hint_names_what_each_front_end_takes() {
        let said = |front| for_front_end(front, "conflict.listener", CONFLICT).expect("a hint");
        assert!(said(Cli).contains("'abapdbg listen --take-over'"));
        assert!(said(Nushell).contains("'abap listen --take-over'"));
        assert!(said(Repl).contains("quit ('q')"));
        assert!(said(Dap).contains("\"takeOver\": true"));
        assert!(said(Mcp).contains("abap_wait and take_over: true"));
        for front in [Cli, Repl, Nushell, Dap, Mcp] {
            assert!(!said(front).contains('{'), "{}", said(front));
        }
    }

    #[test]
    fn quoted_protocol_commands_become_each_front_ends_commands() {
        let hint = "check 'status' and the stderr log, then retry";
        assert_eq!(
            for_front_end(Cli, "listener.failed", hint).as_deref(),
            Some("check 'abapdbg status' and the stderr log, then retry")
        );
        assert_eq!(
            for_front_end(Nushell, "listener.failed", hint).as_deref(),
            Some("check 'abap status' and the stderr log, then retry")
        );
        assert_eq!(
            for_front_end(Mcp, "listener.failed", hint).as_deref(),
            Some("check abap_status and the stderr log, then retry")
        );
        assert_eq!(
            for_front_end(Dap, "state.no_debuggee", "list the frames with 'stack'").as_deref(),
            Some("list the frames with the Call Stack view")
        );
        assert_eq!(
            commands(Cli, "delete them ('bp.list', 'bp.delete')"),
            "delete them ('abapdbg bp list', 'abapdbg bp delete')"
        );
        assert_eq!(
            commands(Nushell, "it's 'unknown' here"),
            "it's 'unknown' here"
        );
        assert_eq!(
            for_front_end(
                Cli,
                "protocol.invalid_args",
                "e.g. {\"cmd\":\"run\",\"args\":{}}"
            ),
            None,
            "protocol JSON is no hint outside the protocol"
        );
        assert_eq!(
            for_front_end(Mcp, "transport.unreachable", "check ABAPDBG_URL").as_deref(),
            Some("check ABAPDBG_URL")
        );
    }

    #[test]
    fn a_running_program_is_waited_for_as_each_front_end_waits() {
        let hint = "wait for the 'stopped' event or send {\"cmd\":\"wait\",\"args\":{\"until\":\"stopped\"}}";
        assert_eq!(
            for_front_end(Cli, "state.not_stopped", hint).as_deref(),
            Some("the program is running; 'abapdbg wait' returns when it stops")
        );
        assert_eq!(
            for_front_end(Nushell, "state.not_stopped", hint).as_deref(),
            Some("the program is running; 'abap wait' returns when it stops")
        );
        assert_eq!(
            for_front_end(Mcp, "state.not_stopped", hint).as_deref(),
            Some("the program is running; abap_wait returns when it stops")
        );
    }

    #[test]
    fn the_repl_says_its_short_commands() {
        assert_eq!(
            for_front_end(Repl, "variable.not_found", "list them with 'vars'").as_deref(),
            Some("'v' lists the selected frame's variables")
        );
        assert_eq!(
            commands(Repl, "delete them ('bp.list', 'bp.delete'), then 'step'"),
            "delete them ('bp list', 'bp delete'), then 's'"
        );
        // What the REPL has no command for, another shell does.
        assert_eq!(
            commands(Repl, "check 'status' and the log"),
            "check 'abapdbg status' and the log"
        );
        assert_eq!(
            for_front_end(Repl, "state.not_stopped", "wait, e.g. {\"cmd\":\"wait\"}").as_deref(),
            Some("the program is running; 'w' waits for its next stop")
        );
    }
}
