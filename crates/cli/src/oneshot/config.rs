//! `abapdbg config`: the effective target system, each setting with where it came from
//! (variable, profile, default), as every command reads it. Secrets are never shown.

use client::Session;
use jsonl::args::HelloArgs;
use jsonl::cmd;
use serde::Serialize;

use super::ctx::{Ctx, Failure, out};
use super::render::Table;
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The system comes from the ABAPDBG_* variables over the profile of \
    config.toml that ABAPDBG_PROFILE (or the file's default_profile) chooses; without a URL, \
    the embedded simulator. Asks nothing of the system; 'session' says whether a session for \
    it runs now. --json prints {\"settings\":[{\"name\",\"value\",\"source\"}…],\"running\":…}."
)]
pub struct ConfigArgs {
    #[command(subcommand)]
    action: Option<ConfigAction>,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, clap::Subcommand)]
enum ConfigAction {
    /// Log on to the system (starting its session when none runs) and say what works:
    /// logon, the debugger resources the system announces, and what the session may do.
    /// Exit 5 when the logon is refused, 4 when the system cannot be reached.
    Check(CheckArgs),
}

#[derive(Debug, clap::Args)]
struct CheckArgs {
    #[command(flatten)]
    out: Output,
}

impl OneShot for ConfigArgs {
    fn json(&self) -> bool {
        match &self.action {
            Some(ConfigAction::Check(c)) => c.out.json || self.out.json,
            None => self.out.json,
        }
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        if let Some(ConfigAction::Check(_)) = self.action {
            return check(ctx);
        }
        let t = &ctx.target;
        let running = Session::connect(t).is_ok();
        let rows = t.setting_rows();
        if ctx.json {
            return ctx.print_json(&Shown {
                settings: rows
                    .iter()
                    .map(|s| ShownSetting {
                        name: &s.name,
                        value: &s.value,
                        source: &s.source,
                    })
                    .collect(),
                running,
                binary: client::daemon_binary(t).display().to_string(),
            });
        }
        let mut table = Table::new(&["SETTING", "VALUE", "FROM"]);
        for s in rows {
            table.row(vec![s.name, s.value, s.source]);
        }
        table.row(vec![
            "session".into(),
            if running { "running" } else { "not running" }.into(),
            String::new(),
        ]);
        let mut text = table.render(ctx.color);
        if super::unconfigured::nothing_configured(t) {
            let here = std::env::current_dir().unwrap_or_default();
            text.push('\n');
            text.push_str(&super::unconfigured::advice(&here));
        }
        out(&text);
        Ok(())
    }
}

/// What `config --json` prints.
#[derive(Serialize)]
struct Shown<'a> {
    settings: Vec<ShownSetting<'a>>,
    running: bool,
    binary: String,
}

#[derive(Serialize)]
struct ShownSetting<'a> {
    name: &'a str,
    value: &'a str,
    source: &'a str,
}

/// `config check`: `hello` on the target's session logs on and reports what the system offers.
fn check(ctx: &Ctx) -> Result<(), Failure> {
    let hello = ctx.call::<cmd::Hello>(&HelloArgs::default())?;
    let system = &hello.system;
    let logon = &system.logon;
    if ctx.json {
        ctx.print_json(&hello)?;
    } else {
        let resources = system
            .supports
            .as_ref()
            .map_or(0, |s| s.debugger_resources.len());
        let mut table = Table::new(&["CHECK", "RESULT"]);
        table.row(vec!["system".into(), ctx.target.describe()]);
        table.row(vec![
            "logon".into(),
            if logon.ok {
                format!(
                    "ok as {} (client {})",
                    system.user,
                    system.client.as_deref().unwrap_or("-")
                )
            } else {
                format!(
                    "refused: {}",
                    logon.error.as_ref().map_or("-", |e| e.message.as_str())
                )
            },
        ]);
        if logon.ok {
            table.row(vec![
                "debugger".into(),
                format!("{resources} debugger resources announced"),
            ]);
        }
        table.row(vec![
            "writes".into(),
            if hello.capabilities.writes {
                "allowed"
            } else {
                "not allowed"
            }
            .into(),
        ]);
        table.row(vec![
            "session".into(),
            format!(
                "pid {} at {}",
                hello.server.pid,
                ctx.session()?.socket().display()
            ),
        ]);
        out(&table.render(ctx.color));
    }
    if logon.ok {
        return Ok(());
    }
    // The logon's own error decides the exit code (auth.* → 5, transport.* → 4).
    let failure = match &logon.error {
        Some(err) => {
            let failure = Failure::new(&err.code, err.message.clone());
            match &err.hint {
                Some(hint) => failure.with_hint(hint.clone()),
                None => failure,
            }
        }
        None => Failure::new("auth.unauthenticated", "the logon was refused"),
    };
    Err(failure)
}
