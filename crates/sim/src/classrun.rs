//! `POST /sap/bc/adt/oo/classrun/<CLASS>`: run a console application on its own thread with
//! the debug hook, answering with its output when the run ends (§5.1 of the interpreter
//! reference; §14.2: the trigger stays blocked while the program is stopped).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use abap::{ObjectKind, RunError};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::debuggee::{DebuggeeEntry, SimHook};
use crate::errors::{self, AdtError};
use crate::state::Shared;

/// Stack for interpreter threads (deep ABAP recursion).
const RUN_STACK_BYTES: usize = 64 * 1024 * 1024;

fn text_ok(body: String) -> Response {
    let mut r = (StatusCode::OK, body).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

fn run_failed(message: impl Into<String>) -> AdtError {
    AdtError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "ExceptionResourceFailure",
        message,
    )
}

/// Map the outcome of a run to the HTTP answer.
pub(crate) fn answer(result: Result<String, RunError>) -> Response {
    match result {
        Ok(out) => text_ok(out),
        Err(RunError::Terminated) => run_failed("Program terminated by the debugger")
            .sub_type("programTerminated")
            .into_response(),
        Err(RunError::Dump {
            id,
            text,
            location,
            output,
        }) => {
            let mut e = run_failed(format!("Runtime error {id}: {text}"))
                .sub_type("runtimeError")
                .prop("DUMP_ID", id)
                .prop("DUMP_TEXT", text);
            if let Some(loc) = location {
                e = e
                    .prop("previous1SourcePositionProgram", loc.program)
                    .prop("previous1SourcePositionInclude", loc.include)
                    .prop(
                        "previous1SourcePositionSourceLine",
                        format!("{} ", loc.include_line),
                    );
            }
            if !output.is_empty() {
                e = e.prop("OUTPUT", output);
            }
            e.into_response()
        }
        Err(RunError::UnknownClass(c)) => {
            errors::not_found(format!("Class {c} does not exist")).into_response()
        }
        Err(RunError::NotRunnable(c)) => AdtError::new(
            StatusCode::BAD_REQUEST,
            "ExceptionInvalidData",
            format!("Class {c} does not implement IF_OO_ADT_CLASSRUN"),
        )
        .into_response(),
    }
}

/// Why a run produced no result of its own.
enum RunFailure {
    /// The interpreter thread could not be started.
    Spawn(String),
    /// The interpreter panicked (caught per run).
    Panic,
}

/// Run `work` on its own interpreter thread with the debug hook of a new debuggee of `user`;
/// the request waits while the program is stopped (§14.2).
#[allow(clippy::result_large_err)] // `abap::RunError` is the interpreter's type.
async fn run_debuggable<T: Send + 'static>(
    shared: Arc<Shared>,
    user: &str,
    work: impl FnOnce(&abap::Repository, &mut SimHook) -> Result<T, RunError> + Send + 'static,
) -> Result<Result<T, RunError>, RunFailure> {
    let (entry, rx) = DebuggeeEntry::new(user, &shared.config.client);
    shared.debuggees.add(entry.clone());
    let (done, result) = tokio::sync::oneshot::channel();
    let thread_shared = shared.clone();
    let thread_entry = entry.clone();
    let spawned = std::thread::Builder::new()
        .name(format!("abap-run-{}", entry.id))
        .stack_size(RUN_STACK_BYTES)
        .spawn(move || {
            let mut hook = SimHook::new(thread_shared.clone(), thread_entry, rx);
            let outcome = catch_unwind(AssertUnwindSafe(|| work(&thread_shared.repo, &mut hook)))
                .map_err(|_| ());
            hook.finish();
            let _ = done.send(outcome);
        });
    if let Err(e) = spawned {
        shared.debuggees.remove(&entry.id);
        return Err(RunFailure::Spawn(e.to_string()));
    }
    match result.await {
        Ok(Ok(outcome)) => Ok(outcome),
        Ok(Err(())) | Err(_) => Err(RunFailure::Panic),
    }
}

fn failure_answer(f: RunFailure) -> Response {
    match f {
        RunFailure::Spawn(e) => {
            run_failed(format!("cannot start the program: {e}")).into_response()
        }
        RunFailure::Panic => run_failed("internal error of the ABAP interpreter")
            .sub_type("runtimeError")
            .into_response(),
    }
}

fn known(shared: &Shared, kind: ObjectKind, name: &str) -> bool {
    shared
        .repo
        .objects()
        .iter()
        .any(|(n, k)| *k == kind && n.eq_ignore_ascii_case(name))
}

fn decoded_name(raw: &str) -> String {
    percent_encoding::percent_decode_str(raw)
        .decode_utf8_lossy()
        .trim()
        .to_uppercase()
}

/// Run `class` for `user`.
#[allow(clippy::result_large_err)] // `abap::RunError` is the interpreter's type.
pub(crate) async fn run(shared: Arc<Shared>, user: &str, class: &str) -> Response {
    let class = decoded_name(class);
    if !known(&shared, ObjectKind::Class, &class) {
        return errors::not_found(format!("Class {class} does not exist")).into_response();
    }
    match run_debuggable(shared, user, move |repo, hook| {
        repo.run_classrun(&class, hook)
    })
    .await
    {
        Ok(outcome) => answer(outcome),
        Err(f) => failure_answer(f),
    }
}

/// `GET /sap/bc/adt/oo/classes/<name>/source/main` (and the other parts/kinds).
pub(crate) fn source(shared: &Shared, path: &str) -> Response {
    let Some(r) = crate::uri::parse_source_uri(path).filter(|r| {
        // A function group's source is addressed through its own group.
        r.group.is_none() || r.group.as_deref() == shared.repo.function_group(&r.object)
    }) else {
        return errors::not_found(format!("Resource {path} does not exist.")).into_response();
    };
    match shared.repo.source(&r.object, r.part) {
        Some(text) => text_ok(text.to_string()),
        None => errors::not_found(format!("Resource {path} does not exist.")).into_response(),
    }
}

/// `POST /sap/bc/adt/abapdbg/reportrun/<PROGRAM>` (simulator only): run a report; 200
/// `text/plain` with its list, errors as for classrun; unknown programs → 404.
#[allow(clippy::result_large_err)] // `abap::RunError` is the interpreter's type.
pub(crate) async fn report(shared: Arc<Shared>, user: &str, program: &str) -> Response {
    let program = decoded_name(program);
    if !known(&shared, ObjectKind::Program, &program) {
        return errors::not_found(format!("Program {program} does not exist")).into_response();
    }
    match run_debuggable(shared, user, move |repo, hook| {
        repo.run_report(&program, hook)
    })
    .await
    {
        Ok(Err(RunError::UnknownClass(p))) => {
            errors::not_found(format!("Program {p} does not exist")).into_response()
        }
        Ok(outcome) => answer(outcome),
        Err(f) => failure_answer(f),
    }
}

/// `POST /sap/bc/adt/abapunit/testruns`: ABAP Unit. All named objects run on one
/// interpreter thread (debuggable like any run: breakpoints in test classes stop it).
#[allow(clippy::result_large_err)] // `abap::RunError` is the interpreter's type.
pub(crate) async fn unit_tests(shared: Arc<Shared>, user: &str, body: &str) -> Response {
    let targets = match crate::aunit::parse_run_configuration(body) {
        Ok(t) => t,
        Err(e) => return errors::invalid_data(e.0).into_response(),
    };
    for t in &targets {
        if !known(&shared, t.kind, &t.object) {
            return errors::not_found(format!("Object {} does not exist", t.object))
                .into_response();
        }
    }
    let run_targets = targets.clone();
    let outcome = run_debuggable(shared, user, move |repo, hook| {
        let mut results = Vec::new();
        for t in &run_targets {
            let filter = t.filter();
            results.push(repo.run_unit_tests(&t.object, t.kind, filter.as_deref(), hook)?);
        }
        Ok(results)
    })
    .await;
    let results = match outcome {
        Ok(Ok(results)) => results,
        Ok(Err(e)) => return answer(Err(e)),
        Err(f) => return failure_answer(f),
    };
    let programs: Vec<crate::aunit::ProgramResult> = targets
        .into_iter()
        .zip(results)
        .map(|(target, result)| crate::aunit::program_result(target, &result))
        .collect();
    let mut r = (StatusCode::OK, crate::aunit::run_result_xml(&programs)).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/xml; charset=utf-8"),
    );
    r
}
