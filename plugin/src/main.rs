//! `nu_plugin_abap`: registered with `plugin add`, started by Nushell.

fn main() {
    nu_plugin::serve_plugin(
        &nu_plugin_abap::AbapPlugin::default(),
        nu_plugin::MsgPackSerializer,
    );
}
