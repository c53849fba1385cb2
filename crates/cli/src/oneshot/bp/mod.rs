//! `abapdbg bp …`: breakpoints. The group and the table every subcommand prints.

mod delete;
mod disable;
mod enable;
mod export;
mod import;
mod list;
mod set;

use clap::Subcommand;
use serde_json::Value;

use super::OneShot;
use super::ctx::{Ctx, Failure};
use super::render::{Style, Table, text};

#[derive(Debug, Subcommand)]
pub enum BpCommand {
    /// Set breakpoints: source lines, or a statement, exception class or message.
    Set(set::SetArgs),
    /// The session's breakpoints.
    List(list::ListArgs),
    /// Delete breakpoints by id, or all of them.
    Delete(delete::DeleteArgs),
    /// Enable breakpoints again (they are set on the system anew).
    Enable(enable::EnableArgs),
    /// Disable breakpoints: they stay listed but are taken off the system.
    Disable(disable::DisableArgs),
    /// Print the breakpoints as JSON, for 'bp import'.
    Export(export::ExportArgs),
    /// Set the breakpoints of an export (from a file, or stdin).
    Import(import::ImportArgs),
}

impl OneShot for BpCommand {
    fn json(&self) -> bool {
        self.inner().json()
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        self.inner().run(ctx)
    }
}

impl BpCommand {
    fn inner(&self) -> &dyn OneShot {
        match self {
            BpCommand::Set(c) => c,
            BpCommand::List(c) => c,
            BpCommand::Delete(c) => c,
            BpCommand::Enable(c) => c,
            BpCommand::Disable(c) => c,
            BpCommand::Export(c) => c,
            BpCommand::Import(c) => c,
        }
    }
}

/// What a breakpoint stops at, as the user would type it.
fn location(bp: &Value) -> String {
    if let Some(l) = bp["location"].as_str() {
        return l.to_string();
    }
    for kind in ["statement", "exception"] {
        if let Some(s) = bp[kind].as_str() {
            return s.to_string();
        }
    }
    let m = &bp["message"];
    if m.is_object() {
        let mut parts = vec![text(&m["id"]), text(&m["number"])];
        if !m["type"].is_null() {
            parts.push(text(&m["type"]));
        }
        return parts.join(":");
    }
    String::new()
}

/// Why it is in the state it is: the runtime include it maps to, or the system's reason.
fn detail(bp: &Value) -> String {
    match bp["status"].as_str() {
        Some("rejected") => text(&bp["reason"]),
        Some("pending") => "not set yet: the system did not answer".into(),
        _ if !bp["include"].is_null() => {
            format!("{}:{}", text(&bp["include"]), text(&bp["include_line"]))
        }
        _ => String::new(),
    }
}

fn status_style(status: &str) -> Option<Style> {
    match status {
        "verified" => Some(Style::Green),
        "rejected" => Some(Style::Red),
        "pending" => Some(Style::Yellow),
        "disabled" => Some(Style::Dim),
        _ => None,
    }
}

/// The records of `result.breakpoints` as a table; `full` adds kind and condition.
fn table(result: &Value, full: bool, color: bool) -> String {
    let mut t = if full {
        Table::new(&["ID", "KIND", "STATUS", "LOCATION", "CONDITION", "DETAIL"])
    } else {
        Table::new(&["ID", "STATUS", "LOCATION", "DETAIL"])
    };
    t.align_right(0);
    for bp in result["breakpoints"].as_array().into_iter().flatten() {
        let status = text(&bp["status"]);
        let style = status_style(&status);
        let mut cells = vec![(text(&bp["id"]), None)];
        if full {
            cells.push((text(&bp["kind"]), None));
        }
        cells.push((status, style));
        cells.push((location(bp), None));
        if full {
            cells.push((text(&bp["condition"]), None));
        }
        cells.push((detail(bp), None));
        t.styled_row(cells);
    }
    if t.is_empty() {
        return "no breakpoints\n".into();
    }
    t.render(color)
}

/// Prints the breakpoint records of a result (or the result itself with `--json`).
fn print(ctx: &Ctx, result: &Value, full: bool) {
    if ctx.json {
        ctx.print_json(result);
    } else {
        super::ctx::out(&table(result, full, ctx.color));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_kind_has_a_location() {
        assert_eq!(location(&json!({"location": "ZCL_X:4"})), "ZCL_X:4");
        assert_eq!(location(&json!({"statement": "CATCH"})), "CATCH");
        assert_eq!(
            location(&json!({"message": {"id": "00", "number": "001", "type": "E"}})),
            "00:001:E"
        );
    }

    #[test]
    fn a_set_shows_status_and_reason() {
        let r = json!({"breakpoints": [
            {"id": 1, "status": "verified", "location": "ZCL_X:48", "include": "ZCL_X===CM002", "include_line": 2},
            {"id": 2, "status": "rejected", "location": "ZCL_X:30", "reason": "Cannot create a breakpoint at this position"}
        ]});
        assert_eq!(
            table(&r, false, false),
            "ID  STATUS    LOCATION  DETAIL\n 1  verified  ZCL_X:48  ZCL_X===CM002:2\n 2  rejected  ZCL_X:30  Cannot create a breakpoint at this position\n"
        );
    }
}
