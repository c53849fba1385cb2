//! `abapdbg bp import [FILE]`: sets the breakpoints of a `bp export` (from FILE, or stdin).

use std::io::{IsTerminal, Read};
use std::path::PathBuf;

use serde_json::{Value, json};

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
        let result = ctx.request("bp.import", args)?;
        super::print(ctx, &result, true);
        Ok(())
    }
}

/// The export object, or a bare list of its entries.
fn import_args(text: &str) -> Result<Value, Failure> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| Failure::usage(format!("the export is not JSON: {e}")))?;
    match value {
        Value::Array(entries) => Ok(json!({ "breakpoints": entries })),
        Value::Object(ref o) if o.contains_key("breakpoints") => Ok(value),
        _ => Err(Failure::usage(
            "not a breakpoint export: expected {\"breakpoints\":[…]} as 'bp export' prints it",
        )),
    }
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
                .map(|v| v["breakpoints"][0]["location"].clone()),
            Some(json!("ZCL_X:4"))
        );
        assert_eq!(
            import_args(r#"[{"statement":"CATCH"}]"#).ok(),
            Some(json!({"breakpoints": [{"statement": "CATCH"}]}))
        );
        assert!(import_args("{}").is_err());
        assert!(import_args("nope").is_err());
    }
}
