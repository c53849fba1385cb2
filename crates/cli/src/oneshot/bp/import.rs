//! `abapdbg bp import [FILE]`: sets the breakpoints of a `bp export` (from FILE, or stdin).

use std::io::{IsTerminal, Read};
use std::path::PathBuf;

use jsonl::args::{BpImportArgs, BpSetArgs};
use jsonl::cmd;
use serde_json::Value;

use crate::oneshot::ctx::{Ctx, Failure};
use crate::oneshot::{OneShot, Output};

#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The export to read; '-' or nothing reads stdin.
    file: Option<PathBuf>,
    #[command(flatten)]
    out: Output,
}

impl OneShot for ImportArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let text = match self.file.as_deref() {
            Some(p) if p.as_os_str() != "-" => std::fs::read_to_string(p)
                .map_err(|e| Failure::usage(format!("cannot read {}: {e}", p.display())))?,
            _ => {
                let stdin = std::io::stdin();
                if stdin.is_terminal() {
                    return Err(Failure::usage(
                        "no export to read: give a file, or pipe one into stdin",
                    )
                    .with_hint("abapdbg bp export > bps.json; abapdbg bp import bps.json"));
                }
                let mut s = String::new();
                stdin
                    .lock()
                    .read_to_string(&mut s)
                    .map_err(|e| Failure::usage(format!("cannot read stdin: {e}")))?;
                s
            }
        };
        let args = import_args(&text)?;
        let result = ctx.call::<cmd::BpImport>(&args)?;
        super::print(ctx, &result, &result.breakpoints, true)
    }
}

/// The export object, or a bare list of its entries.
fn import_args(text: &str) -> Result<BpImportArgs, Failure> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| Failure::usage(format!("the export is not JSON: {e}")))?;
    let not_an_export = |e: serde_json::Error| {
        Failure::usage(format!(
            "not a breakpoint export ({e}): expected {{\"breakpoints\":[…]}} as 'bp export' prints it"
        ))
    };
    if value.is_array() {
        let breakpoints: Vec<BpSetArgs> = serde_json::from_value(value).map_err(not_an_export)?;
        return Ok(BpImportArgs { breakpoints });
    }
    serde_json::from_value(value).map_err(not_an_export)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_and_bare_lists_are_read() {
        let export = r#"{"format":"abapdbg-breakpoints/1","breakpoints":[{"location":"ZCL_X:4"}]}"#;
        assert_eq!(
            import_args(export)
                .ok()
                .and_then(|a| a.breakpoints.into_iter().next())
                .and_then(|b| b.location),
            Some("ZCL_X:4".to_string())
        );
        assert_eq!(
            import_args(r#"[{"statement":"CATCH"}]"#)
                .ok()
                .map(|a| a.breakpoints),
            Some(vec![BpSetArgs {
                statement: Some("CATCH".into()),
                enabled: true,
                ..BpSetArgs::default()
            }])
        );
        assert!(
            import_args(r#"[{"where":"ZCL_X:4"}]"#).is_err(),
            "an unknown member"
        );
        assert!(import_args("{}").is_err());
        assert!(import_args("nope").is_err());
    }
}
