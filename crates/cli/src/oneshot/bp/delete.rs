//! `abapdbg bp delete <id>… | --id <id> | --all | --object X --line N`. `--id` also takes the
//! system's id of a breakpoint (`server_id` in `bp list --json`), as the original debug
//! command printed them.

use clap::ArgGroup;
use jsonl::cmd;
use jsonl::commands::NoArgs;
use jsonl::results::Breakpoint;

use crate::oneshot::ctx::{Ctx, Failure, out};
use crate::oneshot::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(group(ArgGroup::new("which").required(true).multiple(true)
    .args(["ids", "id", "all", "object"])))]
pub struct DeleteArgs {
    /// Breakpoint ids (see 'abapdbg bp list').
    #[arg(add = crate::oneshot::complete::breakpoints())]
    ids: Vec<u32>,
    /// A breakpoint id, or the system's id of one (repeatable).
    #[arg(long = "id", value_name = "ID", add = crate::oneshot::complete::breakpoints())]
    id: Vec<String>,
    /// Delete every breakpoint of the session.
    #[arg(long, conflicts_with_all = ["ids", "id", "object"])]
    all: bool,
    /// The breakpoint at this object's --line.
    #[arg(long, requires = "line", add = crate::oneshot::complete::objects())]
    object: Option<String>,
    /// The line of --object.
    #[arg(long, requires = "object")]
    line: Option<u32>,
    #[command(flatten)]
    out: Output,
}

impl OneShot for DeleteArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let mut ids = self.ids.clone();
        let mut named = Vec::new();
        for id in &self.id {
            match id.trim().parse::<u32>() {
                Ok(n) => ids.push(n),
                Err(_) => named.push(id.trim()),
            }
        }
        if !named.is_empty() || self.object.is_some() {
            let listed = ctx.call::<cmd::BpList>(&NoArgs {})?.breakpoints;
            for name in named {
                ids.push(by_server_id(&listed, name)?);
            }
            if let (Some(object), Some(line)) = (&self.object, self.line) {
                ids.extend(at(&listed, object.trim(), line)?);
            }
        }
        let result = ctx.call::<cmd::BpDelete>(&super::ids(ids, self.all))?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        let deleted: Vec<String> = result.deleted.iter().map(u32::to_string).collect();
        out(&if deleted.is_empty() {
            "no breakpoints to delete\n".to_string()
        } else {
            format!("deleted {}\n", deleted.join(", "))
        });
        Ok(())
    }
}

fn not_found(message: String) -> Failure {
    Failure::new("breakpoint.not_found", message)
        .with_hint("'abapdbg bp list' lists the breakpoints with their ids")
}

/// Our id of the breakpoint the system knows by `server_id`.
fn by_server_id(listed: &[Breakpoint], server_id: &str) -> Result<u32, Failure> {
    listed
        .iter()
        .find(|bp| bp.server_id.as_deref() == Some(server_id))
        .map(|bp| bp.id)
        .ok_or_else(|| not_found(format!("no breakpoint {server_id}")))
}

/// The ids of the line breakpoints at `object`'s `line` (as `--object X --line N` set them).
fn at(listed: &[Breakpoint], object: &str, line: u32) -> Result<Vec<u32>, Failure> {
    let written = format!("{object}:{line}");
    let ids: Vec<u32> = listed
        .iter()
        .filter(|bp| {
            bp.location.eq_ignore_ascii_case(&written)
                || (bp.kind == "line"
                    && bp.line == Some(line)
                    && bp
                        .object
                        .as_deref()
                        .is_some_and(|o| o.eq_ignore_ascii_case(object)))
        })
        .map(|bp| bp.id)
        .collect();
    if ids.is_empty() {
        return Err(not_found(format!("no breakpoint at {written}")));
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bp(id: u32, location: &str, object: &str, line: u32, server_id: &str) -> Breakpoint {
        Breakpoint {
            id,
            kind: "line".into(),
            location: location.into(),
            object: Some(object.into()),
            line: Some(line),
            server_id: Some(server_id.into()),
            ..Breakpoint::default()
        }
    }

    #[test]
    fn found_by_location_or_the_systems_id() {
        let listed = [
            bp(1, "ZCL_X:42", "ZCL_X", 42, "KIND=0.A"),
            bp(2, "src/zcl_y.clas.abap:7", "ZCL_Y", 7, "KIND=0.B"),
        ];
        assert_eq!(at(&listed, "zcl_x", 42).ok(), Some(vec![1]));
        assert_eq!(at(&listed, "ZCL_Y", 7).ok(), Some(vec![2]));
        let missing = at(&listed, "ZCL_X", 43).expect_err("no such breakpoint");
        assert_eq!(missing.code, "breakpoint.not_found");
        assert_eq!(by_server_id(&listed, "KIND=0.B").ok(), Some(2));
        assert!(by_server_id(&listed, "KIND=0.C").is_err());
    }
}
