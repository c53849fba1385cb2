//! Starting programs so their stops are caught: `run` (a console class or a report) and
//! `test` (ABAP Unit). Each arms the listener first and answers when the program ends.
//!
//! A run in flight is registered in `Inner::runs`; the debuggee it catches is tagged with it
//! (`Inner::add_thread`), and when that thread ends, its end carries the run's answer
//! (`crate::runs`), so whoever sees the program end sees its output.

use std::future::Future;
use std::sync::Arc;

use jsonl::args::{RunArgs, TestArgs, decode};
use jsonl::results::RunResult;
use jsonl::{ErrorBody, ErrorCode};
use serde_json::Value;

use super::Outcome;
use super::control::{armed_for_trigger, run_failed};
use crate::engine::{Engine, Origin, RunLink};
use crate::errors::from_adt;
use crate::runs::RunAnswer;
use crate::to_proto;

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

/// The program a debuggee started by running this object is caught in: a class pool is named
/// after its class, padded with `=` to 30 characters, plus `CP`; a report is itself.
fn caught_program(is_class: bool, name: &str) -> String {
    if is_class {
        format!("{name:=<30}CP")
    } else {
        name.to_string()
    }
}

/// Registers a run in flight and runs its trigger on a task of its own, so that a cancelled
/// or abandoned request does not cut the trigger off. The request answers with what
/// `runs::deliver` hands it: normally its own trigger's answer, kept for the thread it
/// caught, if any (a run that caught nothing keeps nothing).
async fn tracked(
    engine: &Arc<Engine>,
    origin: &Origin,
    cmd: &'static str,
    is_class: bool,
    name: &str,
    trigger: impl Future<Output = Result<RunAnswer, ErrorBody>> + Send + 'static,
) -> Outcome {
    let (reply, answered) = tokio::sync::oneshot::channel();
    let run = engine.update(|inner| {
        let run = inner.next_run;
        inner.next_run += 1;
        inner.runs.insert(
            run,
            RunLink {
                cmd,
                kind: if is_class { "class" } else { "program" },
                name: name.to_string(),
                program: caught_program(is_class, name),
                thread: None,
                answer: None,
                released: None,
                origin: Some(origin.clone()),
            },
        );
        inner.run_replies.insert(run, reply);
        run
    });
    let engine2 = engine.clone();
    let max_threads = engine.config.max_threads;
    tokio::spawn(async move {
        let outcome = match tokio::spawn(trigger).await {
            Ok(outcome) => outcome,
            Err(join) => Err(ErrorBody::new(
                ErrorCode::Internal,
                format!("{cmd} task failed: {join}"),
            )),
        };
        crate::runs::deliver(&engine2, run, outcome, max_threads);
    });
    match answered.await {
        Ok(Ok(RunAnswer::Run(result))) => to_proto::ok(result),
        Ok(Ok(RunAnswer::Test(result))) => to_proto::ok(result),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(ErrorBody::new(
            ErrorCode::Internal,
            format!("{cmd} ended without an answer"),
        )),
    }
}

pub(crate) async fn run(engine: &Arc<Engine>, args: &Value, origin: &Origin) -> Outcome {
    let args: RunArgs = decode("run", args)?;
    let (is_class, name) = one_object("run", &args.class, &args.program)?;
    if is_class {
        crate::discovery::require(engine, crate::discovery::Feature::Classrun, "run").await?;
    }
    armed_for_trigger(engine).await?;
    let client = trigger_client(engine)?;
    let object = name.clone();
    // The answer is kept: the end of the program it caught carries it too.
    let trigger = async move {
        let answer: Result<RunResult, ErrorBody> = if is_class {
            match client.classrun(&object).await {
                Ok(output) => Ok(RunResult {
                    class: Some(object),
                    program: None,
                    output,
                    released: None,
                }),
                Err(e) => Err(run_failed(&format!("running {object}"), &e)),
            }
        } else {
            match client.run_report(&object).await {
                Ok(list) => Ok(RunResult {
                    class: None,
                    program: Some(object),
                    output: list,
                    released: None,
                }),
                Err(e) if e.class() == adt::ErrorClass::NotFound => Err(run_failed(
                    &format!("running report {object}"),
                    &e,
                )
                .with_hint(
                    "either there is no such report, or the system offers no way to run reports \
                 directly (the abapdbg simulator does; on SAP, run it through a console class \
                 that SUBMITs it, or through its ABAP Unit tests with 'test')",
                )),
                Err(e) => Err(run_failed(&format!("running {object}"), &e)),
            }
        };
        answer.map(RunAnswer::Run)
    };
    tracked(engine, origin, "run", is_class, &name, trigger).await
}

pub(crate) async fn test(engine: &Arc<Engine>, args: &Value, origin: &Origin) -> Outcome {
    let args: TestArgs = decode("test", args)?;
    let (is_class, name) = one_object("test", &args.class, &args.program)?;
    crate::discovery::require(engine, crate::discovery::Feature::AbapUnit, "test").await?;
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
    let (object, method) = (name.clone(), args.method);
    let trigger = async move {
        let result = client
            .run_unit_tests(&uri, method.as_deref())
            .await
            .map_err(|e| run_failed(&format!("running the tests of {object}"), &e))?;
        Ok(RunAnswer::Test(to_proto::unit_result(
            kind, &object, &result,
        )))
    };
    tracked(engine, origin, "test", is_class, &name, trigger).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_is_caught_in_its_class_pool_and_a_report_in_itself() {
        assert_eq!(
            caught_program(true, "ZCL_NU_ORDERS"),
            "ZCL_NU_ORDERS=================CP"
        );
        assert_eq!(caught_program(true, "ZCL_NU_ORDERS").len(), 32);
        assert_eq!(
            caught_program(true, "/NS/CL_X"),
            "/NS/CL_X======================CP"
        );
        assert_eq!(caught_program(false, "ZREP"), "ZREP");
    }
}
