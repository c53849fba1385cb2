//! Starting programs so their stops are caught: `run` (a console class or a report) and
//! `test` (ABAP Unit). Each arms the listener first and answers when the program ends.

use std::sync::Arc;

use jsonl::args::{RunArgs, TestArgs, decode};
use jsonl::{ErrorBody, ErrorCode};
use serde_json::{Value, json};

use super::Outcome;
use super::control::{armed_for_trigger, run_failed};
use crate::engine::Engine;
use crate::errors::from_adt;

/// A session of its own for the trigger: its request stays open while the program is stopped.
fn trigger_client(engine: &Engine) -> Result<adt::Client, ErrorBody> {
    adt::Client::new(&engine.config.adt, adt::SessionMode::Stateless)
        .map_err(|e| from_adt("opening a session for the run", &e))
}

/// Exactly one of `class` and `program`, upper case.
fn one_object(
    cmd: &str,
    class: &Option<String>,
    program: &Option<String>,
) -> Result<(bool, String), ErrorBody> {
    let clean = |s: &Option<String>| {
        s.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_uppercase)
    };
    match (clean(class), clean(program)) {
        (Some(c), None) => Ok((true, c)),
        (None, Some(p)) => Ok((false, p)),
        _ => Err(ErrorBody::new(
            ErrorCode::InvalidArgs,
            format!("{cmd} needs exactly one of \"class\" and \"program\""),
        )
        .with_hint(format!(
            "e.g. {{\"cmd\":\"{cmd}\",\"args\":{{\"class\":\"ZCL_ORDER\"}}}}"
        ))),
    }
}

pub(crate) async fn run(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: RunArgs = decode("run", args)?;
    let (is_class, name) = one_object("run", &args.class, &args.program)?;
    armed_for_trigger(engine).await?;
    let client = trigger_client(engine)?;
    if is_class {
        match client.classrun(&name).await {
            Ok(output) => Ok(json!({ "class": name, "output": output })),
            Err(e) => Err(run_failed(&format!("running {name}"), &e)),
        }
    } else {
        match client.run_report(&name).await {
            Ok(list) => Ok(json!({ "program": name, "output": list })),
            Err(e) if e.class() == adt::ErrorClass::NotFound => {
                Err(run_failed(&format!("running report {name}"), &e).with_hint(
                    "either there is no such report, or the system offers no way to run reports \
                 directly (the abapdbg simulator does; on SAP, run it through a console class \
                 that SUBMITs it, or through its ABAP Unit tests with 'test')",
                ))
            }
            Err(e) => Err(run_failed(&format!("running {name}"), &e)),
        }
    }
}

pub(crate) async fn test(engine: &Arc<Engine>, args: &Value) -> Outcome {
    let args: TestArgs = decode("test", args)?;
    let (is_class, name) = one_object("test", &args.class, &args.program)?;
    armed_for_trigger(engine).await?;
    let client = trigger_client(engine)?;
    let kind = if is_class { "CLAS" } else { "PROG" };
    let uri = if is_class {
        adt::address::class_uri(&name)
    } else {
        adt::address::parse_location(&format!("PROG:{name}:1"))
            .map(|l| l.uri)
            .map_err(|e| ErrorBody::new(ErrorCode::InvalidArgs, e.to_string()))?
    };
    let result = client
        .run_unit_tests(&uri, args.method.as_deref())
        .await
        .map_err(|e| run_failed(&format!("running the tests of {name}"), &e))?;
    Ok(unit_json(kind, &name, &result))
}

fn alert_json(a: &adt::UnitAlert) -> Value {
    let location = a
        .stack
        .first()
        .map(|l| json!({"uri": l.uri, "line": l.line, "name": l.name}));
    json!({
        "kind": a.kind,
        "severity": a.severity,
        "title": a.title,
        "details": a.details,
        "location": location,
    })
}

/// The run as records a script can count: per class, per method, with `passed` and alerts.
fn unit_json(kind: &str, name: &str, r: &adt::UnitRunResult) -> Value {
    let mut passed = 0;
    let mut failed = 0;
    let classes: Vec<Value> = r
        .programs
        .iter()
        .flat_map(|p| p.classes.iter())
        .map(|c| {
            let methods: Vec<Value> = c
                .methods
                .iter()
                .map(|m| {
                    if m.passed() {
                        passed += 1;
                    } else {
                        failed += 1;
                    }
                    json!({
                        "name": m.name,
                        "passed": m.passed(),
                        "line": m.line,
                        "seconds": m.execution_seconds,
                        "alerts": m.alerts.iter().map(alert_json).collect::<Vec<_>>(),
                    })
                })
                .collect();
            json!({
                "name": c.name,
                "alerts": c.alerts.iter().map(alert_json).collect::<Vec<_>>(),
                "methods": methods,
            })
        })
        .collect();
    let alerts: Vec<Value> = r
        .alerts
        .iter()
        .chain(r.programs.iter().flat_map(|p| p.alerts.iter()))
        .map(alert_json)
        .collect();
    json!({
        "object": name,
        "type": kind,
        "passed": passed,
        "failed": failed,
        "ok": failed == 0 && alerts.iter().all(|a| a["severity"] != "critical" && a["severity"] != "fatal"),
        "alerts": alerts,
        "classes": classes,
    })
}
