//! `abapdbg config`: the effective target system and where its session lives, from the
//! environment exactly as every command reads it. The password is never shown.

use client::Session;
use serde_json::{Value, json};

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, paint};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The system comes from ABAPDBG_URL, ABAPDBG_USER, ABAPDBG_PASSWORD, \
    ABAPDBG_CLIENT and ABAPDBG_LANGUAGE; without ABAPDBG_URL the embedded simulator. Asks \
    nothing of the system; 'running' says whether a session for it runs now."
)]
pub(crate) struct ConfigArgs {
    #[command(flatten)]
    out: Output,
}

/// A variable as the client reads it: set and not blank.
fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

impl OneShot for ConfigArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let t = &ctx.target;
        let socket = t.socket_path();
        let running = Session::connect(t).is_ok();
        let config = json!({
            "system": t.describe(),
            "embedded": t.url().is_none(),
            "url": t.url(),
            "user": var("ABAPDBG_USER"),
            "client": var("ABAPDBG_CLIENT"),
            "language": var("ABAPDBG_LANGUAGE"),
            "password": var("ABAPDBG_PASSWORD").map(|_| "<redacted>"),
            "allow_writes": var("ABAPDBG_ALLOW_WRITES").is_some(),
            "socket": socket.as_ref().map(|p| p.display().to_string()),
            "state_dir": t.state_dir().map(|p| p.display().to_string()),
            "binary": client::daemon_binary(t).display().to_string(),
            "running": running,
        });
        if ctx.json {
            ctx.print_json(&config);
        } else {
            out(&render(&config, ctx.color));
        }
        Ok(())
    }
}

fn render(c: &Value, color: bool) -> String {
    let show = |v: &Value| match v {
        Value::Null => "(not set)".to_string(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let system = if c["embedded"] == true {
        "the embedded simulator (no ABAPDBG_URL)".to_string()
    } else {
        show(&c["url"])
    };
    let rows = [
        ("system", system),
        ("user", show(&c["user"])),
        ("client", show(&c["client"])),
        ("language", show(&c["language"])),
        ("password", show(&c["password"])),
        (
            "writes",
            if c["allow_writes"] == true {
                "allowed"
            } else {
                "not allowed"
            }
            .into(),
        ),
        ("socket", show(&c["socket"])),
        ("state dir", show(&c["state_dir"])),
        ("binary", show(&c["binary"])),
        (
            "session",
            if c["running"] == true {
                "running"
            } else {
                "not running"
            }
            .into(),
        ),
    ];
    rows.iter()
        .map(|(k, v)| format!("{}  {v}\n", paint(color, Style::Bold, &format!("{k:<9}"))))
        .collect()
}
