//! `abapdbg config`: the effective target system, each setting with where it came from
//! (variable, profile, default), as every command reads it. Secrets are never shown.

use client::Session;
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
    /// The same as `abapdbg doctor`: every step from the configuration to the round trip,
    /// passed or failed with what to do, the system's release and what it offers; the same
    /// --json and exit codes (0 all passed, else the first failure's family: auth 5,
    /// transport and system 4, …).
    Check(CheckArgs),
}

#[derive(Debug, clap::Args)]
struct CheckArgs {
    #[command(flatten)]
    out: Output,
}

impl ConfigArgs {
    /// `Some(json)` for `config check`.
    pub(crate) fn check(&self) -> Option<bool> {
        self.action
            .as_ref()
            .map(|ConfigAction::Check(c)| c.out.json || self.out.json)
    }
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
            // The binary runs `doctor` for it (`config_check`); reached only if it did not.
            return Err(Failure::new(
                "internal.bug",
                "config check is answered by abapdbg doctor",
            ));
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
