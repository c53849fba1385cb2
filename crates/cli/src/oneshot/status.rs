//! `abapdbg status`: where the session stands.

use jsonl::cmd;
use jsonl::commands::NoArgs;
use jsonl::results::StatusResult;

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, end_reason, paint, place_of};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "--json prints the protocol's answer (state, epoch, listener, \
    current_thread, debuggee with its last stop, threads, breakpoints, last_end, \
    allow_writes, system, settings: the debugger settings, null while none were set)."
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
        let result = ctx.call::<cmd::Status>(&NoArgs {})?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        let mut text = render(&result, ctx.target.url().is_none(), ctx.color);
        if super::unconfigured::nothing_configured(&ctx.target) {
            text.push_str(&format!("{}\n", super::unconfigured::NOTE));
        }
        out(&text);
        Ok(())
    }
}

fn render(s: &StatusResult, embedded: bool, color: bool) -> String {
    let mut rows: Vec<(&str, String)> = Vec::new();
    rows.push(("state", s.state.as_str().to_string()));
    let mut system = format!("{} ({})", s.system.url, s.system.user);
    if embedded {
        system.push_str(", the embedded simulator");
    }
    rows.push(("system", system));
    rows.push((
        "listener",
        if s.listener.armed {
            "armed".into()
        } else if s.listener.wanted {
            "arming".into()
        } else {
            "off".into()
        },
    ));
    let threads = s.threads.len();
    if let Some(d) = &s.debuggee {
        let state = if d.running { "running" } else { "stopped" };
        rows.push((
            "thread",
            format!(
                "{} of {threads}: {state} at {}",
                d.thread,
                place_of(d.frame.as_ref())
            ),
        ));
    } else {
        rows.push(("threads", threads.to_string()));
    }
    rows.push(("breakpoints", s.breakpoints.to_string()));
    rows.push((
        "writes",
        if s.allow_writes {
            "allowed".into()
        } else {
            "not allowed".into()
        },
    ));
    rows.push(("settings", settings(s.settings.as_ref())));
    if let Some(end) = &s.last_end {
        rows.push((
            "last end",
            format!("thread {} {}", end.thread, end_reason(end.reason)),
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

/// The settings that are on, by their `abapdbg settings` flag names.
fn settings(s: Option<&jsonl::results::Settings>) -> String {
    let Some(s) = s else {
        return "the system's defaults".into();
    };
    let on: Vec<&str> = [
        ("system-debugging", s.system_debugging),
        ("create-exception-object", s.create_exception_object),
        ("background-rfc", s.background_rfc),
        ("shared-object-debugging", s.shared_object_debugging),
        ("show-data-aging", s.show_data_aging),
        ("update-debugging", s.update_debugging),
    ]
    .into_iter()
    .filter_map(|(name, on)| on.then_some(name))
    .collect();
    if on.is_empty() {
        "all off".into()
    } else {
        format!("{} on", on.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_simulator_is_named() {
        let s: StatusResult = serde_json::from_value(serde_json::json!({"state": "idle",
            "epoch": 0, "current_thread": null,
            "system": {"url": "http://127.0.0.1:1", "user": "DEVELOPER"},
            "listener": {"wanted": false, "armed": false}, "threads": [], "breakpoints": 0,
            "allow_writes": false, "debuggee": null, "last_end": null}))
        .expect("a status result");
        assert_eq!(
            render(&s, true, false),
            "state        idle\n\
             system       http://127.0.0.1:1 (DEVELOPER), the embedded simulator\n\
             listener     off\n\
             threads      0\n\
             breakpoints  0\n\
             writes       not allowed\n\
             settings     the system's defaults\n"
        );
    }

    #[test]
    fn the_settings_that_are_on_are_named() {
        let s = jsonl::results::Settings {
            system_debugging: true,
            create_exception_object: false,
            background_rfc: false,
            shared_object_debugging: false,
            show_data_aging: false,
            update_debugging: true,
        };
        assert_eq!(settings(Some(&s)), "system-debugging, update-debugging on");
        let off = jsonl::results::Settings {
            system_debugging: false,
            update_debugging: false,
            ..s
        };
        assert_eq!(settings(Some(&off)), "all off");
    }
}
