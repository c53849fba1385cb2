//! `abapdbg status`: where the session stands.

use serde_json::{Value, json};

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, paint, place, text};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "--json prints the protocol's answer (state, epoch, listener, \
    current_thread, debuggee with its last stop, threads, breakpoints, last_end, \
    allow_writes, system)."
)]
pub struct StatusArgs {
    #[command(flatten)]
    out: Output,
}

impl OneShot for StatusArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.request("status", json!({}))?;
        if ctx.json {
            ctx.print_json(&result);
        } else {
            out(&render(&result, ctx.target.url().is_none(), ctx.color));
        }
        Ok(())
    }
}

fn render(s: &Value, embedded: bool, color: bool) -> String {
    let mut rows: Vec<(&str, String)> = Vec::new();
    rows.push(("state", text(&s["state"])));
    let mut system = format!(
        "{} ({})",
        text(&s["system"]["url"]),
        text(&s["system"]["user"])
    );
    if embedded {
        system.push_str(", the embedded simulator");
    }
    rows.push(("system", system));
    let listener = &s["listener"];
    rows.push((
        "listener",
        if listener["armed"] == true {
            "armed".into()
        } else if listener["wanted"] == true {
            "arming".into()
        } else {
            "off".into()
        },
    ));
    let threads = s["threads"].as_array().map_or(0, Vec::len);
    let d = &s["debuggee"];
    if d.is_object() {
        let state = if d["running"] == true {
            "running"
        } else {
            "stopped"
        };
        rows.push((
            "thread",
            format!(
                "{} of {threads}: {state} at {}",
                text(&d["thread"]),
                place(&d["frame"])
            ),
        ));
    } else {
        rows.push(("threads", threads.to_string()));
    }
    rows.push(("breakpoints", text(&s["breakpoints"])));
    rows.push((
        "writes",
        if s["allow_writes"] == true {
            "allowed".into()
        } else {
            "not allowed".into()
        },
    ));
    let end = &s["last_end"];
    if end.is_object() {
        rows.push((
            "last end",
            format!("thread {} {}", text(&end["thread"]), text(&end["reason"])),
        ));
    }
    let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    rows.iter()
        .map(|(k, v)| {
            format!(
                "{}  {v}\n",
                paint(color, Style::Bold, &format!("{k:<width$}"))
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_simulator_is_named() {
        let s = json!({"state": "idle", "system": {"url": "http://127.0.0.1:1", "user": "DEVELOPER"},
            "listener": {"wanted": false, "armed": false}, "threads": [], "breakpoints": 0,
            "allow_writes": false, "debuggee": null, "last_end": null});
        assert_eq!(
            render(&s, true, false),
            "state        idle\n\
             system       http://127.0.0.1:1 (DEVELOPER), the embedded simulator\n\
             listener     off\n\
             threads      0\n\
             breakpoints  0\n\
             writes       not allowed\n"
        );
    }
}
