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

/// What `nu_plugin_abap --version` prints: the plugin's version, the nu-plugin protocol it
/// was built with (Nushell loads a plugin only when its own version is semver compatible with
/// this one: 0.115.x for 0.115.1), and the abapdbg protocol it speaks to the session.
pub fn version_text() -> String {
    format!(
        "nu_plugin_abap {} (nu-plugin {}, for Nushell {}; protocol {})",
        env!("CARGO_PKG_VERSION"),
        nu_plugin_protocol::ProtocolInfo::default().version,
        nushell_line(&nu_plugin_protocol::ProtocolInfo::default().version),
        jsonl::PROTOCOL_VERSION
    )
}

/// `0.115.1` → `0.115.x`: the Nushell releases a plugin of that protocol loads into.
fn nushell_line(version: &str) -> String {
    match version.rsplit_once('.') {
        Some((minor, _)) => format!("{minor}.x"),
        None => version.to_string(),
    }
}

impl Plugin for AbapPlugin {
    fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").into()
    }

    fn commands(&self) -> Vec<Box<dyn PluginCommand<Plugin = Self>>> {
        commands::all()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_version_names_nu_plugin_and_the_protocol() {
        let text = super::version_text();
        assert!(text.contains("nu-plugin 0.115.1"), "{text}");
        assert!(text.contains("for Nushell 0.115.x"), "{text}");
        assert!(text.contains(jsonl::PROTOCOL_VERSION), "{text}");
    }
}
