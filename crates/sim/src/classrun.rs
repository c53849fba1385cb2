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

/// Run on this thread; a panic of the interpreter becomes `Err(())`.
#[allow(clippy::result_large_err)] // `abap::RunError` is the interpreter's type.
fn run_guarded(
    repo: &abap::Repository,
    class: &str,
    hook: &mut SimHook,
) -> Result<Result<String, RunError>, ()> {
    catch_unwind(AssertUnwindSafe(|| repo.run_classrun(class, hook))).map_err(|_| ())
}

/// Run `class` for `user`.
pub(crate) async fn run(shared: Arc<Shared>, user: &str, class: &str) -> Response {
    let class = percent_encoding::percent_decode_str(class)
        .decode_utf8_lossy()
        .trim()
        .to_uppercase();
    let known = shared
        .repo
        .objects()
        .iter()
        .any(|(name, kind)| *kind == ObjectKind::Class && name.eq_ignore_ascii_case(&class));
    if !known {
        return errors::not_found(format!("Class {class} does not exist")).into_response();
    }
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
            let outcome = run_guarded(&thread_shared.repo, &class, &mut hook);
            hook.finish();
            let _ = done.send(outcome);
        });
    if let Err(e) = spawned {
        shared.debuggees.remove(&entry.id);
        return run_failed(format!("cannot start the program: {e}")).into_response();
    }
    match result.await {
        Ok(Ok(outcome)) => answer(outcome),
        Ok(Err(())) | Err(_) => run_failed("internal error of the ABAP interpreter")
            .sub_type("runtimeError")
            .into_response(),
    }
}

/// `GET /sap/bc/adt/oo/classes/<name>/source/main` (and the other parts/kinds).
pub(crate) fn source(shared: &Shared, path: &str) -> Response {
    let Some(r) = crate::uri::parse_source_uri(path) else {
        return errors::not_found(format!("Resource {path} does not exist.")).into_response();
    };
    match shared.repo.source(&r.object, r.part) {
        Some(text) => text_ok(text.to_string()),
        None => errors::not_found(format!("Resource {path} does not exist.")).into_response(),
    }
}

/// `POST /sap/bc/adt/abapdbg/reportrun/<PROGRAM>` (simulator only): run a report.
pub(crate) async fn report(_shared: Arc<Shared>, _user: &str, program: &str) -> Response {
    let program = percent_encoding::percent_decode_str(program)
        .decode_utf8_lossy()
        .trim()
        .to_uppercase();
    errors::not_found(format!("Program {program} cannot be run yet")).into_response()
}

/// `POST /sap/bc/adt/abapunit/testruns`: ABAP Unit.
pub(crate) async fn unit_tests(shared: Arc<Shared>, _user: &str, body: &str) -> Response {
    let targets = match crate::aunit::parse_run_configuration(body) {
        Ok(t) => t,
        Err(e) => return errors::invalid_data(e.0).into_response(),
    };
    let mut programs = Vec::new();
    for t in targets {
        let known = shared
            .repo
            .objects()
            .iter()
            .any(|(name, kind)| *kind == t.kind && *name == t.object);
        if !known {
            return errors::not_found(format!("Object {} does not exist", t.object))
                .into_response();
        }
        if shared
            .repo
            .source(&t.object, abap::SourcePart::TestClasses)
            .is_some()
        {
            return AdtError::new(
                StatusCode::NOT_IMPLEMENTED,
                "ExceptionNotSupported",
                "ABAP Unit runs need the interpreter's unit runner (not available yet)",
            )
            .into_response();
        }
        programs.push(crate::aunit::ProgramResult {
            target: t,
            classes: Vec::new(),
        });
    }
    let mut r = (StatusCode::OK, crate::aunit::run_result_xml(&programs)).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/xml; charset=utf-8"),
    );
    r
}
