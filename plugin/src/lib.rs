//! The abapdbg debugger as Nushell commands: `abap bp set`, `abap run`, `abap vars | where …`.
//!
//! Every command is a thin mapping onto one or a few requests of the JSON-lines protocol,
//! sent through the session client (`client`) to the session daemon, which holds the
//! debugging state. The plugin process keeps nothing that matters: Nushell may stop it between
//! commands (plugin GC) and separate `nu` processes share the same session.

mod commands;
mod completion;
mod connection;
mod errors;
mod stop;
mod values;
mod variables;

use nu_plugin::{Plugin, PluginCommand};

pub use connection::AbapPlugin;

impl Plugin for AbapPlugin {
    fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").into()
    }

    fn commands(&self) -> Vec<Box<dyn PluginCommand<Plugin = Self>>> {
        commands::all()
    }
}
