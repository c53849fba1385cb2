//! One file per command; `all` lists them for the plugin.

mod abap;
mod bp;
mod continue_cmd;
mod detach;
mod dump;
mod dumps;
mod events;
mod frame;
mod get;
mod jump_to;
mod listen;
mod run;
mod run_to;
mod set;
mod settings;
mod shutdown;
mod source;
mod stack;
mod status;
mod step;
mod table;
mod terminate;
mod test;
mod thread;
mod threads;
mod unlisten;
mod vars;
mod wait;
mod watch;

use nu_plugin::PluginCommand;
use nu_protocol::{Category, Signature, SyntaxShape};

use crate::AbapPlugin;

pub(crate) fn all() -> Vec<Box<dyn PluginCommand<Plugin = AbapPlugin>>> {
    let mut out: Vec<Box<dyn PluginCommand<Plugin = AbapPlugin>>> = vec![
        Box::new(abap::Abap),
        Box::new(status::Status),
        Box::new(listen::Listen),
        Box::new(unlisten::Unlisten),
        Box::new(run::Run),
        Box::new(test::Test),
        Box::new(wait::Wait),
        Box::new(step::Step),
        Box::new(continue_cmd::Continue),
        Box::new(run_to::RunTo),
        Box::new(jump_to::JumpTo),
        Box::new(stack::Stack),
        Box::new(frame::Frame),
        Box::new(vars::Vars),
        Box::new(table::Table),
        Box::new(get::Get),
        Box::new(set::Set),
        Box::new(source::Source),
        Box::new(threads::Threads),
        Box::new(thread::Thread),
        Box::new(terminate::Terminate),
        Box::new(detach::Detach),
        Box::new(events::Events),
        Box::new(shutdown::Shutdown),
        Box::new(dumps::Dumps),
        Box::new(dump::Dump),
        Box::new(dump::DumpCatch),
        Box::new(settings::Settings),
    ];
    out.extend(bp::commands());
    out.extend(watch::commands());
    out
}

/// `--thread` and `--frame` on a command that reads a stop: named, they hold for this command
/// only (another client's view, and the session's current thread and selected frame, stay as
/// they are); left out, the session's current thread and its selected frame are read.
fn at_flags(signature: Signature) -> Signature {
    signature
        .named(
            "thread",
            SyntaxShape::Int,
            "Read this thread (see 'abap threads') for this command only.",
            None,
        )
        .named(
            "frame",
            SyntaxShape::Int,
            "Read this stack frame (0 = innermost, see 'abap stack') for this command only.",
            None,
        )
}

/// The `--thread` and `--frame` a command was given.
fn at(call: &nu_plugin::EvaluatedCall) -> Result<crate::variables::At, nu_protocol::LabeledError> {
    let thread: Option<nu_protocol::Spanned<i64>> = call.get_flag("thread")?;
    let frame: Option<nu_protocol::Spanned<i64>> = call.get_flag("frame")?;
    let thread = thread
        .map(|t| {
            u32::try_from(t.item).map_err(|_| {
                crate::errors::invalid_arg("no such thread", "a thread number", t.span)
            })
        })
        .transpose()?;
    let frame = frame
        .map(|f| {
            usize::try_from(f.item).map_err(|_| {
                crate::errors::invalid_arg("no such frame", "0 is the innermost frame", f.span)
            })
        })
        .transpose()?;
    Ok(crate::variables::At { thread, frame })
}

/// Where `help commands` groups ours.
pub(crate) fn category() -> Category {
    Category::Custom("abap".into())
}

/// A line of the current source (`42`, `"42"`) or a location (`ZCL_X:42`), for `run-to` and
/// `jump-to`.
fn line_target(
    call: &nu_plugin::EvaluatedCall,
) -> Result<(jsonl::args::LineTargetArgs, nu_protocol::Span), nu_protocol::LabeledError> {
    let target: nu_protocol::Value = call.req(0)?;
    let span = target.span();
    let text = match &target {
        nu_protocol::Value::Int { val, .. } => val.to_string(),
        nu_protocol::Value::String { val, .. } => val.trim().to_string(),
        _ => {
            return Err(crate::errors::invalid_arg(
                "not a line",
                "a line number or a location such as ZCL_X:40",
                span,
            ));
        }
    };
    let args = match text.parse::<u32>() {
        Ok(line) => jsonl::args::LineTargetArgs {
            line: Some(line),
            ..Default::default()
        },
        Err(_) => jsonl::args::LineTargetArgs {
            location: Some(text),
            ..Default::default()
        },
    };
    Ok((args, span))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A duplicate flag panics when Nushell builds the signature; catch it here.
    #[test]
    fn every_signature_builds_and_names_are_unique() {
        let mut names = std::collections::HashSet::new();
        for cmd in all() {
            let sig = cmd.signature();
            assert!(names.insert(sig.name.clone()), "{} twice", sig.name);
            assert!(!cmd.description().is_empty(), "{}", sig.name);
            assert!(!cmd.examples().is_empty(), "{} has no example", sig.name);
        }
    }
}
