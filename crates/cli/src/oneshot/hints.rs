//! The session's hints, said as the command line says them. The session writes its hints for
//! the protocol ('listen' with {"take_over":true}, 'bp.list'); a person at the shell types
//! `abapdbg listen --take-over`, `abapdbg bp list`. The hints this front end knows by their
//! error code are said anew; in the others every quoted protocol command becomes the
//! `abapdbg` command, and a hint that still shows protocol JSON is dropped (the message says
//! what went wrong; `--help` says how to write it).

/// The hint to show for an error of `code` whose protocol hint is `hint`.
pub(crate) fn for_cli(code: &str, hint: &str) -> Option<String> {
    if let Some(own) = by_code(code, hint) {
        return Some(own.to_string());
    }
    let rewritten = commands(hint);
    if rewritten.contains('{') {
        return None;
    }
    Some(rewritten)
}

/// Hints said differently on the command line, by the error's code (and, where one code has
/// several hints, by what the protocol hint is about).
fn by_code(code: &str, hint: &str) -> Option<&'static str> {
    Some(match code {
        "conflict.listener" => {
            if hint.contains("took the listener over") {
                "another debugger took the listener over; 'abapdbg listen --take-over' takes it back"
            } else {
                "another debugger listens for this user; stop it, or take the listener over \
                 with 'abapdbg listen --take-over' (also 'abapdbg attach --take-over')"
            }
        }
        "state.not_stopped" if hint.contains("wait") && hint.contains('{') => {
            "the program is running; 'abapdbg wait' returns when it stops"
        }
        "state.not_stopped" => {
            "set a breakpoint ('abapdbg bp set ZCL_X:42'), then 'abapdbg run ZCL_X' (or \
             'abapdbg attach' and start the program)"
        }
        "state.debuggee_ended" => {
            "the program is no longer stopped; 'abapdbg run' it again to catch a new stop"
        }
        "permission.write_not_allowed" => {
            "writes are allowed by a session started with ABAPDBG_ALLOW_WRITES=true (or \
             allow_writes = true in the profile): 'abapdbg shutdown', then run the command \
             again with it"
        }
        "breakpoint.not_found" => "'abapdbg bp list' lists the breakpoints with their ids",
        "adt.not_supported" => {
            "'abapdbg doctor' lists what the system offers; if the system gained it since, \
             'abapdbg shutdown', then run the command again with ABAPDBG_REFRESH_DISCOVERY=true"
        }
        "breakpoint.limit" => {
            "delete breakpoints you no longer need ('abapdbg bp list', 'abapdbg bp delete'), \
             then set again"
        }
        "breakpoint.invalid_location" => {
            "write OBJECT:LINE, e.g. 'abapdbg bp set ZCL_ORDER:42' (a line of the class's \
             source), or FILE:LINE of an abapGit file"
        }
        "variable.not_found" => "'abapdbg vars' lists the selected frame's variables",
        "state.stale_reference" => "read the variables again: 'abapdbg vars'",
        _ => return None,
    })
}

/// The protocol commands a hint names in quotes, as `abapdbg` commands: `'bp.list'` →
/// `'abapdbg bp list'`, `'status'` → `'abapdbg status'`.
fn commands(hint: &str) -> String {
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
        match cli_command(quoted) {
            Some(cli) => out.push_str(&format!("'abapdbg {cli}'")),
            None => out.push_str(&format!("'{quoted}'")),
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The command line of a protocol command, when a one-shot command of that name exists.
fn cli_command(protocol: &str) -> Option<String> {
    if protocol.starts_with("abapdbg ") {
        return None;
    }
    let first = protocol.split_whitespace().next()?;
    if !jsonl::COMMANDS.contains(&first) {
        return None;
    }
    let words = protocol.replacen('.', " ", 1);
    let cli = match first {
        "step" | "vars" | "stack" | "status" | "run" | "test" | "wait" | "listen" | "unlisten"
        | "terminate" | "detach" | "shutdown" | "get" | "set" | "source" | "threads" | "thread"
        | "frame" | "table" | "events" => words,
        f if f.starts_with("bp.") => words,
        _ => return None,
    };
    Some(cli)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_take_over_hint_names_the_flag() {
        let hint = for_cli(
            "conflict.listener",
            "another debugger listens for this user; stop it, or 'listen' with {\"take_over\":true}",
        )
        .expect("a hint");
        assert!(hint.contains("'abapdbg listen --take-over'"), "{hint}");
        assert!(!hint.contains('{'), "{hint}");
    }

    #[test]
    fn quoted_protocol_commands_become_abapdbg_commands() {
        assert_eq!(
            for_cli(
                "listener.failed",
                "check 'status' and the stderr log, then retry"
            )
            .as_deref(),
            Some("check 'abapdbg status' and the stderr log, then retry")
        );
        assert_eq!(
            for_cli("state.no_debuggee", "list the frames with 'stack'").as_deref(),
            Some("list the frames with 'abapdbg stack'")
        );
        assert_eq!(
            commands("delete them ('bp.list', 'bp.delete')"),
            "delete them ('abapdbg bp list', 'abapdbg bp delete')"
        );
        assert_eq!(commands("it's 'unknown' here"), "it's 'unknown' here");
        assert_eq!(
            for_cli(
                "protocol.invalid_args",
                "e.g. {\"cmd\":\"run\",\"args\":{}}"
            ),
            None,
            "protocol JSON is no hint for the shell"
        );
        assert_eq!(
            for_cli("transport.unreachable", "check ABAPDBG_URL").as_deref(),
            Some("check ABAPDBG_URL")
        );
    }

    #[test]
    fn a_running_program_is_waited_for_with_the_wait_command() {
        let hint = for_cli(
            "state.not_stopped",
            "wait for the 'stopped' event or send {\"cmd\":\"wait\",\"args\":{\"until\":\"stopped\"}}",
        );
        assert_eq!(
            hint.as_deref(),
            Some("the program is running; 'abapdbg wait' returns when it stops")
        );
    }
}
