//! `abapdbg bp …`: breakpoints. The group and the table every subcommand prints.

pub(crate) mod delete;
mod disable;
mod enable;
mod export;
mod import;
pub(crate) mod list;
pub(crate) mod set;

use clap::Subcommand;
use jsonl::args::BpIdsArgs;
use jsonl::results::Breakpoint;
use serde::Serialize;

use super::OneShot;
use super::ctx::{Ctx, Failure};
use super::render::{Style, Table, or_empty};

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
fn location(bp: &Breakpoint) -> String {
    if !bp.location.is_empty() {
        return bp.location.clone();
    }
    if let Some(s) = bp.statement.as_ref().or(bp.exception.as_ref()) {
        return s.clone();
    }
    match &bp.message {
        Some(m) => {
            let mut parts = vec![m.id.as_str(), m.number.as_str()];
            if !m.ty.is_empty() {
                parts.push(&m.ty);
            }
            parts.join(":")
        }
        None => String::new(),
    }
}

/// Why it is in the state it is: the runtime include it maps to, or the system's reason.
fn detail(bp: &Breakpoint) -> String {
    match bp.status.as_str() {
        "rejected" => bp.reason.clone().unwrap_or_default(),
        "pending" => "not set yet: the system did not answer".into(),
        _ => match &bp.include {
            Some(include) => format!("{include}:{}", or_empty(bp.include_line)),
            None => String::new(),
        },
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

/// Breakpoint records as a table; `full` adds kind and condition. A `USER` column names whose
/// runs each stops when one is for another user (`dump catch` of that user's dump).
pub(crate) fn table(breakpoints: &[Breakpoint], full: bool, color: bool) -> String {
    let others = breakpoints.iter().any(|b| b.user.is_some());
    let mut headers = vec!["ID"];
    if full {
        headers.push("KIND");
    }
    headers.extend(["STATUS", "LOCATION"]);
    if others {
        headers.push("USER");
    }
    if full {
        headers.push("CONDITION");
    }
    headers.push("DETAIL");
    let mut t = Table::new(&headers);
    t.align_right(0);
    for bp in breakpoints {
        let style = status_style(&bp.status);
        let mut cells = vec![(bp.id.to_string(), None)];
        if full {
            cells.push((bp.kind.clone(), None));
        }
        cells.push((bp.status.clone(), style));
        cells.push((location(bp), None));
        if others {
            // Blank: the session's own user.
            cells.push((bp.user.clone().unwrap_or_default(), None));
        }
        if full {
            cells.push((bp.condition.clone().unwrap_or_default(), None));
        }
        cells.push((detail(bp), None));
        t.styled_row(cells);
    }
    if t.is_empty() {
        return "no breakpoints\n".into();
    }
    t.render(color)
}

/// Prints a result's breakpoint records (or the result itself with `--json`).
fn print(
    ctx: &Ctx,
    result: &impl Serialize,
    breakpoints: &[Breakpoint],
    full: bool,
) -> Result<(), Failure> {
    if ctx.json {
        return ctx.print_json(result);
    }
    super::ctx::out(&table(breakpoints, full, ctx.color));
    Ok(())
}

/// The arguments of `bp.enable`, `bp.disable` and `bp.delete`: these ids, or all.
fn ids(ids: Vec<u32>, all: bool) -> BpIdsArgs {
    BpIdsArgs {
        id: None,
        ids: if all { Vec::new() } else { ids },
        all,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonl::args::MessageArgs;

    #[test]
    fn every_kind_has_a_location() {
        let at = |location: &str| Breakpoint {
            location: location.into(),
            ..Breakpoint::default()
        };
        assert_eq!(location(&at("ZCL_X:4")), "ZCL_X:4");
        let catch = Breakpoint {
            statement: Some("CATCH".into()),
            ..Breakpoint::default()
        };
        assert_eq!(location(&catch), "CATCH");
        let message = Breakpoint {
            message: Some(MessageArgs {
                id: "00".into(),
                number: "001".into(),
                ty: "E".into(),
            }),
            ..Breakpoint::default()
        };
        assert_eq!(location(&message), "00:001:E");
    }

    #[test]
    fn a_set_shows_status_and_reason() {
        let r = [
            Breakpoint {
                id: 1,
                status: "verified".into(),
                location: "ZCL_X:48".into(),
                include: Some("ZCL_X===CM002".into()),
                include_line: Some(2),
                ..Breakpoint::default()
            },
            Breakpoint {
                id: 2,
                status: "rejected".into(),
                location: "ZCL_X:30".into(),
                reason: Some("Cannot create a breakpoint at this position".into()),
                ..Breakpoint::default()
            },
        ];
        assert_eq!(
            table(&r, false, false),
            "ID  STATUS    LOCATION  DETAIL\n 1  verified  ZCL_X:48  ZCL_X===CM002:2\n 2  rejected  ZCL_X:30  Cannot create a breakpoint at this position\n"
        );
    }

    #[test]
    fn another_users_breakpoints_name_the_user() {
        let r = [
            Breakpoint {
                id: 1,
                status: "verified".into(),
                location: "ZCL_X:48".into(),
                ..Breakpoint::default()
            },
            Breakpoint {
                id: 2,
                status: "verified".into(),
                location: "ZCL_X:30".into(),
                user: Some("TESTER".into()),
                ..Breakpoint::default()
            },
        ];
        assert_eq!(
            table(&r, false, false),
            "ID  STATUS    LOCATION  USER    DETAIL\n 1  verified  ZCL_X:48\n 2  verified  ZCL_X:30  TESTER\n"
        );
    }
}
