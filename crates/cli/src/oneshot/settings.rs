//! `abapdbg settings [--system-debugging on|off] [--create-exception-object on|off] …`: the
//! debugger settings of the attached programs (and those caught later), through `configure`.
//! Without flags it changes nothing and prints them.

use jsonl::args::{ConfigureArgs, SettingsArgs};
use jsonl::cmd;
use jsonl::results::Settings;

use super::ctx::{Ctx, Failure, out};
use super::render::Table;
use super::{OneShot, Output};

/// `on` or `off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Switch {
    On,
    Off,
}

fn on(s: Option<Switch>) -> Option<bool> {
    s.map(|s| s == Switch::On)
}

#[derive(Debug, clap::Args)]
pub struct SettingsCmd {
    /// Step into SAP-standard (system) code.
    #[arg(long, value_name = "on|off")]
    system_debugging: Option<Switch>,
    /// Create the exception object of every exception (for an exception breakpoint's look).
    #[arg(long, value_name = "on|off")]
    create_exception_object: Option<Switch>,
    /// Debug background RFC units.
    #[arg(long, value_name = "on|off")]
    background_rfc: Option<Switch>,
    /// Debug shared objects.
    #[arg(long, value_name = "on|off")]
    shared_object_debugging: Option<Switch>,
    /// Show data aging.
    #[arg(long, value_name = "on|off")]
    show_data_aging: Option<Switch>,
    /// Debug update tasks.
    #[arg(long, value_name = "on|off")]
    update_debugging: Option<Switch>,
    #[command(flatten)]
    out: Output,
}

impl SettingsCmd {
    fn settings(&self) -> Option<SettingsArgs> {
        let s = SettingsArgs {
            system_debugging: on(self.system_debugging),
            create_exception_object: on(self.create_exception_object),
            background_rfc: on(self.background_rfc),
            shared_object_debugging: on(self.shared_object_debugging),
            show_data_aging: on(self.show_data_aging),
            update_debugging: on(self.update_debugging),
        };
        (s != SettingsArgs::default()).then_some(s)
    }
}

impl OneShot for SettingsCmd {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let args = ConfigureArgs {
            settings: self.settings(),
            ..ConfigureArgs::default()
        };
        let result = ctx.call::<cmd::Configure>(&args)?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        match &result.settings {
            Some(s) => out(&table(s)),
            None => out("no debugger settings yet: the session applies the system's defaults\n"),
        }
        Ok(())
    }
}

fn table(s: &Settings) -> String {
    let word = |b: bool| if b { "on" } else { "off" }.to_string();
    let mut t = Table::new(&["SETTING", "VALUE"]);
    for (name, value) in [
        ("system-debugging", s.system_debugging),
        ("create-exception-object", s.create_exception_object),
        ("background-rfc", s.background_rfc),
        ("shared-object-debugging", s.shared_object_debugging),
        ("show-data-aging", s.show_data_aging),
        ("update-debugging", s.update_debugging),
    ] {
        t.row(vec![name.to_string(), word(value)]);
    }
    t.render(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        settings: SettingsCmd,
    }

    #[test]
    fn flags_name_only_what_changes() {
        let cli = Cli::try_parse_from(["x", "--system-debugging", "on"]).expect("parse");
        assert_eq!(
            cli.settings.settings(),
            Some(SettingsArgs {
                system_debugging: Some(true),
                ..SettingsArgs::default()
            })
        );
        let none = Cli::try_parse_from(["x"]).expect("parse");
        assert_eq!(none.settings.settings(), None);
        assert!(Cli::try_parse_from(["x", "--system-debugging", "yes"]).is_err());
    }
}
