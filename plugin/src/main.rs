//! `nu_plugin_abap`: registered with `plugin add`, started by Nushell.

fn main() {
    // Nushell starts the plugin with --stdio or --local-socket; a person asks for the version.
    if let Some(arg) = std::env::args_os().nth(1)
        && (arg == "--version" || arg == "-V")
    {
        println!("{}", nu_plugin_abap::version_text());
        return;
    }
    nu_plugin::serve_plugin(
        &nu_plugin_abap::AbapPlugin::default(),
        nu_plugin::MsgPackSerializer,
    );
}
