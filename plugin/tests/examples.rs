//! Every command's examples run as tests, in one scenario against a real session: the plugin
//! in process (nu-plugin-test-support), the session daemon it starts (`abapdbg serve
//! --daemon`, the embedded simulator, writes allowed), in an isolated runtime directory.
//!
//! The examples are written as one story (set breakpoints, run, look, step, …), so they run in
//! the order below; `setup` lines move the story on between them without being examples.

// ShellError is Nushell's own error type; its size is not ours to choose.
#![allow(clippy::result_large_err)]

use std::path::PathBuf;

use nu_plugin_abap::AbapPlugin;
use nu_plugin_test_support::PluginTest;
use nu_protocol::{PipelineData, ShellError, Span, Value};

/// A step of the story.
enum Step {
    /// Run the examples of the command with this name.
    Examples(&'static str),
    /// Run this pipeline (not an example) and ignore its value.
    Setup(&'static str),
}

use Step::{Examples, Setup};

const STORY: &[Step] = &[
    Examples("abap status"),
    Examples("abap bp set"),
    Examples("abap bp list"),
    Examples("abap bp disable"),
    Examples("abap bp enable"),
    Examples("abap bp delete"),
    Examples("abap listen"),
    Examples("abap unlisten"),
    Examples("abap run"),
    Examples("abap wait"),
    Examples("abap stack"),
    Examples("abap vars"),
    Examples("abap get"),
    Examples("abap source"),
    Examples("abap set"),
    Examples("abap watch set"),
    Examples("abap watch list"),
    Examples("abap watch delete"),
    Examples("abap threads"),
    Examples("abap thread"),
    Examples("abap frame"),
    Examples("abap step"),
    Examples("abap continue"),
    Setup("abap bp delete --all"),
    Setup("abap step out"),
    Examples("abap run-to"),
    Examples("abap jump-to"),
    Examples("abap detach"),
    Setup("abap bp set ZCL_ABAPDBG_ORDERS:67"),
    Setup("abap run ZCL_ABAPDBG_ORDERS"),
    Examples("abap table"),
    Examples("abap terminate"),
    Setup("abap bp delete --all"),
    Examples("abap test"),
    Examples("abap shutdown"),
];

/// The abapdbg binary of this build (`ABAPDBG_BIN` overrides): target/<profile>/abapdbg.
fn abapdbg_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("ABAPDBG_BIN") {
        return PathBuf::from(bin);
    }
    let exe = std::env::current_exe().expect("test binary path");
    let bin = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target directory")
        .join("abapdbg");
    assert!(
        bin.exists(),
        "{} not found: build the workspace first (cargo build --workspace)",
        bin.display()
    );
    bin
}

fn eval(test: &mut PluginTest, source: &str) -> Result<Value, ShellError> {
    test.eval_with(source, PipelineData::empty())?
        .into_value(Span::test_data())
}

#[test]
fn every_example_holds_against_a_real_session() -> Result<(), ShellError> {
    let dir = std::env::temp_dir().join(format!("abapdbg-plugin-examples-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut test = PluginTest::new("abap", AbapPlugin::default().into())?;
    let state = test.engine_state_mut();
    let env = [
        ("ABAPDBG_BIN", abapdbg_bin().display().to_string()),
        ("ABAPDBG_RUNTIME_DIR", dir.join("run").display().to_string()),
        ("ABAPDBG_STATE_DIR", dir.join("state").display().to_string()),
        ("ABAPDBG_ALLOW_WRITES", "true".to_string()),
    ];
    for (k, v) in env {
        state.add_env_var(k.into(), Value::test_string(v));
    }
    let commands = nu_plugin::Plugin::commands(&AbapPlugin::default());
    let mut failures = Vec::new();
    let mut ran = std::collections::HashSet::new();
    for step in STORY {
        match step {
            Setup(source) => {
                if let Err(e) = eval(&mut test, source) {
                    failures.push(format!("setup `{source}` failed: {e:?}"));
                    break;
                }
            }
            Examples(name) => {
                let cmd = commands
                    .iter()
                    .find(|c| c.name() == *name)
                    .unwrap_or_else(|| panic!("no command {name}"));
                ran.insert(*name);
                for ex in cmd.examples() {
                    let Some(expected) = &ex.result else { continue };
                    match eval(&mut test, ex.example) {
                        Ok(got) if got == *expected => {}
                        Ok(got) => failures.push(format!(
                            "`{}`: expected {expected:?}, got {got:?}",
                            ex.example
                        )),
                        Err(e) => failures.push(format!("`{}` failed: {e:?}", ex.example)),
                    }
                }
            }
        }
    }
    // Whatever happened, end the session the story started.
    let _ = eval(&mut test, "abap shutdown");
    // Every example with a result ran somewhere in the story.
    for cmd in &commands {
        if cmd.examples().iter().any(|e| e.result.is_some()) && !ran.contains(cmd.name()) {
            failures.push(format!(
                "{} has examples the story does not run",
                cmd.name()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    Ok(())
}
