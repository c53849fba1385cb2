//! `abapdbg config`: the effective target system, each setting with where it came from
//! (variable, profile, default), as every command reads it. Secrets are never shown.

use client::Session;
use serde_json::{Value, json};

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
pub(crate) struct ConfigArgs {
    #[command(flatten)]
    out: Output,
}

impl OneShot for ConfigArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let t = &ctx.target;
        let running = Session::connect(t).is_ok();
        let rows = t.setting_rows();
        if ctx.json {
            let settings: Vec<Value> = rows
                .iter()
                .map(|s| json!({"name": s.name, "value": s.value, "source": s.source}))
                .collect();
            ctx.print_json(&json!({
                "settings": settings,
                "running": running,
                "binary": client::daemon_binary(t).display().to_string(),
            }));
            return Ok(());
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
        out(&table.render(ctx.color));
        Ok(())
    }
}
