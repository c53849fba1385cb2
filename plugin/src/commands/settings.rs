//! `abap settings [--system-debugging on|off] …`: the debugger settings of the attached
//! programs (and of those caught later), through `configure`; without flags it changes nothing.

use jsonl::args::{ConfigureArgs, SettingsArgs};
use jsonl::results::ConfigureResult;
use nu_plugin::{EngineInterface, EvaluatedCall, PluginCommand, SimplePluginCommand};
use nu_protocol::{Example, LabeledError, Record, Signature, Span, SyntaxShape, Type, Value};

use crate::AbapPlugin;
use crate::errors::invalid_arg;

pub(crate) struct Settings;

/// The flags, as the CLI's `abapdbg settings` names them, with the protocol's member names.
const FLAGS: [(&str, &str, &str); 6] = [
    (
        "system-debugging",
        "system_debugging",
        "Step into SAP-standard (system) code: on or off (or true/false).",
    ),
    (
        "create-exception-object",
        "create_exception_object",
        "Create the exception object of every exception: on or off.",
    ),
    (
        "background-rfc",
        "background_rfc",
        "Debug background RFC units: on or off.",
    ),
    (
        "shared-object-debugging",
        "shared_object_debugging",
        "Debug shared objects: on or off.",
    ),
    (
        "show-data-aging",
        "show_data_aging",
        "Show data aging: on or off.",
    ),
    (
        "update-debugging",
        "update_debugging",
        "Debug update tasks: on or off.",
    ),
];

impl SimplePluginCommand for Settings {
    type Plugin = AbapPlugin;

    fn name(&self) -> &str {
        "abap settings"
    }

    fn description(&self) -> &str {
        "The debugger settings (system debugging, exception objects, …) of the attached programs and of those caught later; a flag changes that one. Returns {system_debugging, create_exception_object, background_rfc, shared_object_debugging, show_data_aging, update_debugging, applied_to}; the settings are nothing while none were set (the system's defaults apply)."
    }

    fn signature(&self) -> Signature {
        let mut s = Signature::build(PluginCommand::name(self));
        for (flag, _, help) in FLAGS {
            s = s.named(flag, SyntaxShape::Any, help, None);
        }
        s.input_output_type(Type::Nothing, Type::record())
            .category(super::category())
    }

    fn examples(&self) -> Vec<Example<'_>> {
        vec![
            Example {
                example: "abap settings --system-debugging on",
                description: "Step into SAP-standard code from now on",
                result: None,
            },
            Example {
                example: "(abap settings).system_debugging",
                description: "Whether system debugging is on (nothing: never set)",
                result: None,
            },
        ]
    }

    fn run(
        &self,
        plugin: &AbapPlugin,
        engine: &EngineInterface,
        call: &EvaluatedCall,
        _input: &Value,
    ) -> Result<Value, LabeledError> {
        let mut want = SettingsArgs::default();
        for (flag, _, _) in FLAGS {
            let Some(on) = switch(call, flag)? else {
                continue;
            };
            let field = match flag {
                "system-debugging" => &mut want.system_debugging,
                "create-exception-object" => &mut want.create_exception_object,
                "background-rfc" => &mut want.background_rfc,
                "shared-object-debugging" => &mut want.shared_object_debugging,
                "show-data-aging" => &mut want.show_data_aging,
                _ => &mut want.update_debugging,
            };
            *field = Some(on);
        }
        let args = ConfigureArgs {
            settings: (want != SettingsArgs::default()).then_some(want),
            ..ConfigureArgs::default()
        };
        let result = plugin.call::<jsonl::cmd::Configure>(engine, call.head, &args)?;
        Ok(record(&result, call.head))
    }
}

/// A flag's value: `on`/`off` as the CLI takes them, or a bool.
fn switch(call: &EvaluatedCall, flag: &str) -> Result<Option<bool>, LabeledError> {
    let value: Option<Value> = call.get_flag(flag)?;
    match value {
        None => Ok(None),
        Some(Value::Bool { val, .. }) => Ok(Some(val)),
        Some(Value::String {
            val, internal_span, ..
        }) => match val.to_lowercase().as_str() {
            "on" | "true" => Ok(Some(true)),
            "off" | "false" => Ok(Some(false)),
            _ => Err(invalid_arg(
                "neither on nor off",
                "on or off",
                internal_span,
            )),
        },
        Some(other) => Err(invalid_arg("neither on nor off", "on or off", other.span())),
    }
}

fn record(r: &ConfigureResult, span: Span) -> Value {
    let mut rec = Record::new();
    let s = r.settings;
    for (_, member, _) in FLAGS {
        let value = s.map(|s| match member {
            "system_debugging" => s.system_debugging,
            "create_exception_object" => s.create_exception_object,
            "background_rfc" => s.background_rfc,
            "shared_object_debugging" => s.shared_object_debugging,
            "show_data_aging" => s.show_data_aging,
            _ => s.update_debugging,
        });
        rec.push(
            member,
            value.map_or(Value::nothing(span), |b| Value::bool(b, span)),
        );
    }
    rec.push(
        "applied_to",
        Value::list(
            r.settings_applied_to
                .iter()
                .map(|t| Value::int(i64::from(*t), span))
                .collect(),
            span,
        ),
    );
    Value::record(rec, span)
}
