//! Every operation of the client against the simulator over HTTP on loopback.

use std::time::Duration;

use adt::{
    AdtError, BatchCall, BreakpointKind, BreakpointScope, BreakpointSpec, Client, Config,
    DebuggerSettings, ErrorClass, Identity, SessionMode, StepKind, StepOutcome, SyncScope,
};

const DEMO: &str = "ZCL_ABAPDBG_DEMO";
const DEMO_URI: &str = "/sap/bc/adt/oo/classes/zcl_abapdbg_demo/source/main";
const OUTPUT: &str = "Order A001: total 60, rate 12.50\nDoubled rate: 25.00";

fn config(sim: &sim::SimHandle) -> Config {
    Config {
        base_url: sim.base_url(),
        user: "developer".into(),
        password: "abap".into(),
        client: Some("001".into()),
        language: Some("EN".into()),
        request_timeout: Duration::from_secs(20),
        ..Default::default()
    }
}

fn identity(ide: &str) -> Identity {
    Identity {
        user: "DEVELOPER".into(),
        terminal_id: "T".repeat(32),
        ide_id: format!("{ide:0>32}"),
    }
}

fn line_bp(client_id: &str, line: u32) -> BreakpointSpec {
    BreakpointSpec {
        client_id: client_id.into(),
        kind: BreakpointKind::Line {
            uri: DEMO_URI.into(),
            line,
        },
        condition: None,
    }
}

async fn sim_with(dirs: Vec<std::path::PathBuf>) -> sim::SimHandle {
    sim::start(sim::SimConfig {
        program_dirs: dirs,
        ..Default::default()
    })
    .await
    .expect("simulator")
}

/// A program stopped at a breakpoint and attached by `debug`.
struct Stopped {
    sim: sim::SimHandle,
    id: Identity,
    /// Stateless: breakpoints, listener.
    bp: Client,
    /// Stateful: attached.
    debug: Client,
    trigger: tokio::task::JoinHandle<Result<String, AdtError>>,
}

impl Stopped {
    /// Remove the external breakpoints of the demo class.
    async fn clear_breakpoints(&self) {
        self.bp
            .set_breakpoints(&self.id, &SyncScope::Partial(DEMO_URI.into()), &[])
            .await
            .unwrap();
    }

    async fn output(self) -> Result<String, AdtError> {
        tokio::time::timeout(Duration::from_secs(60), self.trigger)
            .await
            .expect("trigger ends")
            .expect("trigger task")
    }
}

async fn stop_at(ide: &str, lines: &[u32]) -> Stopped {
    let sim = sim_with(Vec::new()).await;
    let cfg = config(&sim);
    let id = identity(ide);
    let bp = Client::new(&cfg, SessionMode::Stateless).unwrap();
    let specs: Vec<_> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| line_bp(&format!("c{i}"), *l))
        .collect();
    let verdicts = bp
        .set_breakpoints(&id, &SyncScope::Partial(DEMO_URI.into()), &specs)
        .await
        .unwrap();
    assert!(verdicts.iter().all(|v| v.id.is_some()), "{verdicts:?}");
    let (listener, lid) = (bp.clone(), id.clone());
    let listen = tokio::spawn(async move { listener.listen(&lid, 30).await });
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..3000 {
        if bp.listener_exists(&id).await.unwrap() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let runner = Client::new(&cfg, SessionMode::Stateless).unwrap();
    let trigger = tokio::spawn(async move { runner.classrun(DEMO).await });
    let debuggee = listen
        .await
        .unwrap()
        .unwrap()
        .expect("the listener reports the stop");
    assert_eq!(debuggee.program.trim_end_matches(['=', 'C', 'P']), DEMO);
    let debug = Client::new(&cfg, SessionMode::Stateful).unwrap();
    let info = debug.attach(&id, &debuggee.id).await.unwrap();
    assert_eq!(info.reached_breakpoints.len(), 1);
    Stopped {
        sim,
        id,
        bp,
        debug,
        trigger,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn logon_catalogues_and_auth_failures() {
    let sim = sim_with(Vec::new()).await;
    let client = Client::new(&config(&sim), SessionMode::Stateless).unwrap();
    client.logon().await.unwrap();
    let statements = client.statements().await.unwrap();
    assert!(
        statements.iter().any(|s| s == "CALL FUNCTION"),
        "{statements:?}"
    );
    assert!(statements.iter().any(|s| s == "CATCH"));
    let types = client.message_types().await.unwrap();
    assert_eq!(types.len(), 6);
    assert_eq!(types[0], ("A".to_string(), "Termination".to_string()));

    let wrong = Client::new(
        &Config {
            password: "nope".into(),
            ..config(&sim)
        },
        SessionMode::Stateless,
    )
    .unwrap();
    assert_eq!(
        wrong.logon().await.unwrap_err().class(),
        ErrorClass::NotAuthorized
    );
    let bearer = Client::new(
        &Config {
            bearer_token: Some("token".into()),
            ..config(&sim)
        },
        SessionMode::Stateless,
    )
    .unwrap();
    assert_eq!(
        bearer.statements().await.unwrap_err().class(),
        ErrorClass::NotAuthorized,
        "the simulator knows Basic only"
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn listener_check_timeout_stop_and_conflict() {
    let sim = sim_with(Vec::new()).await;
    let cfg = config(&sim);
    let me = identity("me");
    let other = identity("other");
    let a = Client::new(&cfg, SessionMode::Stateless).unwrap();
    let b = Client::new(&cfg, SessionMode::Stateless).unwrap();
    assert!(!a.listener_exists(&me).await.unwrap());
    assert_eq!(a.listen(&me, 1).await.unwrap(), None, "timeout is Ok(None)");
    assert!(a.listener_exists(&me).await.unwrap());
    let e = b.listen(&other, 1).await.unwrap_err();
    assert_eq!(e.class(), ErrorClass::ListenerConflict);
    assert_eq!(e.http_status(), Some(409));
    assert_eq!(
        e.exception().and_then(|x| x.ide_user.as_deref()),
        Some("DEVELOPER")
    );
    a.stop_listener(&me).await.unwrap();
    assert!(!a.listener_exists(&me).await.unwrap());
    // Taking over is allowed without the conflict check.
    assert_eq!(b.listen_opts(&other, 1, false).await.unwrap(), None);
    b.stop_listener(&other).await.unwrap();
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn breakpoints_of_every_kind() {
    let sim = sim_with(Vec::new()).await;
    let client = Client::new(&config(&sim), SessionMode::Stateless).unwrap();
    let id = identity("bps");
    let specs = vec![
        line_bp("line", 35),
        line_bp("comment", 30),
        BreakpointSpec {
            client_id: "stmt".into(),
            kind: BreakpointKind::Statement {
                statement: "CATCH".into(),
            },
            condition: None,
        },
        BreakpointSpec {
            client_id: "exc".into(),
            kind: BreakpointKind::Exception {
                class: "CX_SY_ZERODIVIDE".into(),
            },
            condition: Some("SY-SUBRC = 0".into()),
        },
        BreakpointSpec {
            client_id: "msg".into(),
            kind: BreakpointKind::Message {
                id: "00".into(),
                number: "001".into(),
                ty: "E".into(),
            },
            condition: None,
        },
    ];
    let v = client
        .set_breakpoints_detailed(&id, BreakpointScope::External, &SyncScope::Additive, &specs)
        .await
        .unwrap();
    let by = |c: &str| v.iter().find(|d| d.client_id == c).unwrap().clone();
    assert!(by("comment").id.is_none());
    assert!(by("comment").error_message.is_some());
    let line = by("line");
    assert!(
        line.id.as_deref().unwrap().starts_with("KIND=0."),
        "{line:?}"
    );
    assert_eq!(line.object_name.as_deref(), Some(DEMO));
    assert_eq!(by("stmt").id.as_deref(), Some("KIND=1.STATEMENT=CATCH"));
    assert_eq!(
        by("exc").id.as_deref(),
        Some("KIND=5.EXCEPTION_CLASS=CX_SY_ZERODIVIDE")
    );
    assert!(by("msg").id.as_deref().unwrap().starts_with("KIND=12."));
    client
        .delete_breakpoint(&id, by("stmt").id.as_deref().unwrap())
        .await
        .unwrap();
    client
        .delete_breakpoint_in(
            &id,
            BreakpointScope::External,
            by("exc").id.as_deref().unwrap(),
        )
        .await
        .unwrap();
    let state = sim.state_json();
    assert!(!state.contains("STATEMENT=CATCH"), "{state}");
    assert!(state.contains("MSGID=00"), "{state}");
    // The plain form answers the same verdicts.
    let plain = client
        .set_breakpoints(
            &id,
            &SyncScope::Partial(DEMO_URI.into()),
            &[line_bp("again", 36)],
        )
        .await
        .unwrap();
    assert!(plain[0].id.is_some());
    // Full sync with nothing clears everything of this ide.
    assert!(
        client
            .set_breakpoints(&id, &SyncScope::Full, &[])
            .await
            .unwrap()
            .is_empty()
    );
    assert!(!sim.state_json().contains("MSGID=00"));
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn full_debug_session() {
    let s = stop_at("session", &[35]).await;
    let d = &s.debug;
    // Stack and variables.
    let stack = d.stack().await.unwrap();
    assert_eq!(stack.entries[0].line, 35);
    assert_eq!(stack.cursor_index, 0);
    let root = d.child_variables(&["@ROOT".into()]).await.unwrap();
    let scopes: Vec<String> = root
        .hierarchies
        .iter()
        .filter(|h| h.parent_id == "@ROOT")
        .map(|h| h.child_id.to_string())
        .collect();
    assert!(!scopes.is_empty(), "{root:?}");
    let scoped = d.child_variables(&scopes).await.unwrap();
    let count = scoped
        .variables
        .iter()
        .find(|v| v.id == "LV_COUNT")
        .expect("LV_COUNT is listed");
    assert_eq!(count.value, "0 ", "the sign column is kept");
    let vars = d
        .variables(&["LV_CODE".into(), "SY-SUBRC".into(), "NO_SUCH".into()])
        .await
        .unwrap();
    assert_eq!(vars.len(), 2, "unknown ids are left out");
    assert_eq!(vars[0].value, "A001      ");
    // Settings, memory, actions.
    let settings = DebuggerSettings {
        create_exception_object: true,
        show_data_aging: true,
        ..Default::default()
    };
    assert_eq!(d.settings(&settings).await.unwrap(), settings);
    let memory = d.memory_sizes().await.unwrap();
    assert!(
        memory.abap_stack_used > 0 && memory.internal_used > 0,
        "{memory:?}"
    );
    let snapshot = d.action("memorySnapshot", None).await.unwrap();
    assert_eq!(snapshot.name, "memorySnapshot");
    assert!(!snapshot.is_error);
    // Steps into the method, then a frame switch back to the caller.
    assert!(matches!(
        d.step(StepKind::Over).await.unwrap(),
        StepOutcome::Stopped { .. }
    ));
    assert_eq!(d.stack().await.unwrap().entries[0].line, 36);
    d.step(StepKind::Into).await.unwrap();
    let inner = d.stack().await.unwrap();
    assert_eq!(inner.entries[0].line, 48, "{inner:?}");
    assert!(inner.entries.len() >= 2);
    d.set_stack_position(&inner.entries[1]).await.unwrap();
    let switched = d.stack().await.unwrap();
    assert_eq!(switched.cursor_index, 1);
    let caller = d.variables(&["LV_COUNT".into()]).await.unwrap();
    assert_eq!(
        caller[0].value, "1 ",
        "variables answer in the caller's frame"
    );
    d.set_stack_position(&inner.entries[0]).await.unwrap();
    d.step(StepKind::Return).await.unwrap();
    // Run to a line, then watch a variable and continue until it changes.
    s.clear_breakpoints().await;
    d.step_to_line(false, DEMO_URI, 43).await.unwrap();
    assert_eq!(d.stack().await.unwrap().entries[0].line, 43);
    let created = d.create_watchpoint("LV_RATE", None).await.unwrap();
    assert_eq!(created.len(), 1);
    assert_eq!(created[0].variable_name, "LV_RATE");
    let listed = d.watchpoints().await.unwrap();
    assert_eq!(listed.len(), 1);
    let modified = d
        .modify_watchpoint(&created[0].id, Some("LV_RATE > 1"), Some(true))
        .await
        .unwrap();
    assert_eq!(modified[0].condition.as_deref(), Some("LV_RATE > 1"));
    let detail = d.step_detailed(StepKind::Continue).await.unwrap();
    assert!(matches!(detail.outcome, StepOutcome::Stopped { .. }));
    assert_eq!(detail.reached_watchpoints.len(), 1, "{detail:?}");
    assert_eq!(detail.reached_watchpoints[0].variable_name, "LV_RATE");
    assert_eq!(
        detail.reached_watchpoints[0].current_value.as_deref(),
        Some("25.00 ")
    );
    let wp = d.watchpoints().await.unwrap();
    d.delete_watchpoint(&wp[0].id).await.unwrap();
    assert!(d.watchpoints().await.unwrap().is_empty());
    let e = d.delete_watchpoint(&wp[0].id).await.unwrap_err();
    assert_eq!(e.http_status(), Some(404));
    // Run to the end.
    assert_eq!(
        d.step_detailed(StepKind::Continue).await.unwrap().outcome,
        StepOutcome::Ended
    );
    assert_eq!(
        d.stack().await.unwrap_err().class(),
        ErrorClass::NoSessionAttached
    );
    d.end_session().await.unwrap();
    let sim_state = s.sim.state_json();
    assert_eq!(s.output().await.unwrap().trim_end(), OUTPUT);
    assert!(sim_state.contains("debuggees"));
}

#[tokio::test(flavor = "multi_thread")]
async fn one_round_trip_for_step_stack_and_variables() {
    let s = stop_at("batch", &[35]).await;
    s.clear_breakpoints().await;
    s.sim.clear_request_log();
    let seen = s
        .debug
        .step_and_inspect(StepKind::Over, &["@ROOT".into()])
        .await
        .unwrap();
    let log = s.sim.request_log();
    let trips: Vec<_> = log.iter().filter(|r| r.is_round_trip()).collect();
    assert_eq!(trips.len(), 1, "one HTTP round trip: {log:#?}");
    assert_eq!(trips[0].method, "POST");
    assert!(trips[0].path.starts_with("/sap/bc/adt/debugger/batch"));
    assert_eq!(trips[0].status, 202);
    assert_eq!(log.iter().filter(|r| r.batch_part.is_some()).count(), 3);
    assert!(matches!(seen.outcome, StepOutcome::Stopped { .. }));
    let stack = seen.stack.expect("stack");
    assert_eq!(stack.entries[0].line, 36);
    let vars = seen.variables.expect("variables");
    assert!(vars.hierarchies.iter().any(|h| h.parent_id == "@ROOT"));
    // A second one, then the end of the program in the same shape.
    s.debug
        .step_and_inspect(StepKind::Into, &["@ROOT".into()])
        .await
        .unwrap();
    let end = s
        .debug
        .step_and_inspect(StepKind::Continue, &["@ROOT".into()])
        .await
        .unwrap();
    assert_eq!(end.outcome, StepOutcome::Ended);
    assert!(end.stack.is_none() && end.variables.is_none());
    // Three round trips of the debug session (the trigger's classrun ends in the log too).
    let debugger_trips: Vec<_> = s
        .sim
        .request_log()
        .into_iter()
        .filter(|r| r.is_round_trip() && r.path.starts_with("/sap/bc/adt/debugger"))
        .map(|r| r.path)
        .collect();
    assert_eq!(debugger_trips.len(), 3, "{debugger_trips:?}");
    assert_eq!(s.output().await.unwrap().trim_end(), OUTPUT);
}

#[tokio::test(flavor = "multi_thread")]
async fn batch_maps_each_part_to_its_answer_or_error() {
    let s = stop_at("parts", &[35]).await;
    let answers = s
        .debug
        .batch(vec![
            BatchCall::new("POST", "/sap/bc/adt/debugger/stack", "application/xml"),
            BatchCall::stack(),
            BatchCall::variables(&["LV_CODE".into()]),
            BatchCall::new(
                "POST",
                "/sap/bc/adt/debugger?method=detach",
                "application/xml",
            ),
        ])
        .await
        .unwrap();
    assert_eq!(answers.len(), 4);
    assert_eq!(answers[0].as_ref().unwrap_err().http_status(), Some(405));
    let stack = adt::codec::parse_stack(&answers[1].as_ref().unwrap().body).unwrap();
    assert_eq!(stack.entries[0].line, 35);
    let vars = adt::codec::parse_variables(&answers[2].as_ref().unwrap().body).unwrap();
    assert_eq!(vars[0].value, "A001      ");
    let detach = answers[3].as_ref().unwrap_err();
    assert_eq!(detach.http_status(), Some(400));
    assert_eq!(
        detach.exception().map(|e| e.exception_type.as_str()),
        Some("ExceptionInvalidData")
    );
    assert!(s.debug.batch(Vec::new()).await.unwrap().is_empty());
    s.clear_breakpoints().await;
    s.debug.step(StepKind::Continue).await.unwrap();
    assert_eq!(s.output().await.unwrap().trim_end(), OUTPUT);
}

#[tokio::test(flavor = "multi_thread")]
async fn debugger_scope_breakpoints_and_terminate() {
    let s = stop_at("scope", &[35]).await;
    s.clear_breakpoints().await;
    let v = s
        .debug
        .set_breakpoints_detailed(
            &s.id,
            BreakpointScope::Debugger,
            &SyncScope::Additive,
            &[line_bp("dbg", 43)],
        )
        .await
        .unwrap();
    let id = v[0].id.clone().expect("accepted");
    match s.debug.step(StepKind::Continue).await.unwrap() {
        StepOutcome::Stopped {
            reached_breakpoints,
        } => assert_eq!(reached_breakpoints, vec![id.clone()]),
        other => panic!("{other:?}"),
    }
    s.debug
        .delete_breakpoint_in(&s.id, BreakpointScope::Debugger, &id)
        .await
        .unwrap();
    // Debugger-scope breakpoints need the attached session.
    let e =
        s.bp.set_breakpoints_detailed(
            &s.id,
            BreakpointScope::Debugger,
            &SyncScope::Additive,
            &[line_bp("x", 43)],
        )
        .await
        .unwrap_err();
    assert_eq!(e.class(), ErrorClass::NoSessionAttached);
    s.debug.terminate().await.unwrap();
    assert!(s.output().await.is_err(), "the trigger learns of the abort");
}

#[tokio::test(flavor = "multi_thread")]
async fn set_variable_value_without_debuggee_is_typed() {
    let sim = sim_with(Vec::new()).await;
    let d = Client::new(&config(&sim), SessionMode::Stateful).unwrap();
    let e = d.set_variable_value("LV_COUNT", "5").await.unwrap_err();
    assert_eq!(e.class(), ErrorClass::NoSessionAttached, "{e}");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn set_variable_value_echoes() {
    let s = stop_at("setvalue", &[35]).await;
    let echo = s.debug.set_variable_value("LV_COUNT", "41").await.unwrap();
    assert_eq!(echo, "41 ");
    let code = s
        .debug
        .set_variable_value("LV_CODE", "TOOLONG_VALUE")
        .await
        .unwrap();
    assert_eq!(code, "TOOLONG_VA");
    s.debug.step(StepKind::Over).await.unwrap();
    let v = s.debug.variables(&["LV_COUNT".into()]).await.unwrap();
    assert_eq!(v[0].value, "42 ");
    s.clear_breakpoints().await;
    s.debug.step(StepKind::Continue).await.unwrap();
    let _ = s.output().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn unit_tests_of_an_object_without_tests() {
    let sim = sim_with(Vec::new()).await;
    let c = Client::new(&config(&sim), SessionMode::Stateless).unwrap();
    let r = c
        .run_unit_tests("/sap/bc/adt/oo/classes/zcl_abapdbg_demo", None)
        .await
        .unwrap();
    assert!(r.programs.is_empty() && r.passed(), "{r:?}");
    let e = c
        .run_unit_tests("/sap/bc/adt/oo/classes/zcl_no_such_class", None)
        .await
        .unwrap_err();
    assert_eq!(e.class(), ErrorClass::NotFound);
    sim.shutdown().await;
}

fn own_sources() -> Vec<std::path::PathBuf> {
    vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/src")]
}

#[tokio::test(flavor = "multi_thread")]
async fn unit_tests_run_and_report_failures() {
    let sim = sim_with(own_sources()).await;
    let c = Client::new(&config(&sim), SessionMode::Stateless).unwrap();
    let r = c
        .run_unit_tests("/sap/bc/adt/oo/classes/zcl_adt_unit", None)
        .await
        .unwrap();
    let methods: Vec<_> = r.methods().map(|(_, m)| m.name.clone()).collect();
    assert_eq!(methods, vec!["DOUBLES", "FAILS"]);
    assert!(!r.passed());
    let (_, fails) = r.methods().find(|(_, m)| m.name == "FAILS").unwrap();
    assert_eq!(fails.alerts[0].kind, "failedAssertion");
    assert!(fails.alerts[0].stack[0].line.is_some());
    let one = c
        .run_unit_tests(
            "/sap/bc/adt/oo/classes/zcl_adt_unit",
            Some("LTCL_DOUBLE=>DOUBLES"),
        )
        .await
        .unwrap();
    assert_eq!(one.methods().count(), 1);
    assert!(one.passed());
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn report_run_of_an_unknown_program_is_not_found() {
    let sim = sim_with(Vec::new()).await;
    let c = Client::new(&config(&sim), SessionMode::Stateless).unwrap();
    let e = c.run_report("ZNO_SUCH_REPORT").await.unwrap_err();
    assert_eq!(e.class(), ErrorClass::NotFound);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn report_run_answers_the_list() {
    let sim = sim_with(own_sources()).await;
    let c = Client::new(&config(&sim), SessionMode::Stateless).unwrap();
    assert_eq!(
        c.run_report("zadt_report").await.unwrap().trim_end(),
        "Answer 42"
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn sources_are_read_verbatim() {
    let sim = sim_with(Vec::new()).await;
    let c = Client::new(&config(&sim), SessionMode::Stateless).unwrap();
    let text = c.source(&format!("{DEMO_URI}#start=3")).await.unwrap();
    assert!(text.contains("METHOD if_oo_adt_classrun~main."));
    let e = c
        .source("/sap/bc/adt/oo/classes/zcl_no_such/source/main")
        .await
        .unwrap_err();
    assert_eq!(e.class(), ErrorClass::NotFound);
    sim.shutdown().await;
}

/// Listen as `id`, start `trigger`, and attach the debuggee the listener reports.
async fn catch<F>(
    sim: &sim::SimHandle,
    id: &Identity,
    trigger: F,
) -> (Client, adt::Debuggee, tokio::task::JoinHandle<F::Output>)
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let listener = Client::new(&config(sim), SessionMode::Stateless).unwrap();
    let lid = id.clone();
    let l2 = listener.clone();
    let listen = tokio::spawn(async move { l2.listen(&lid, 30).await });
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..3000 {
        if listener.listener_exists(id).await.unwrap() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let trigger = tokio::spawn(trigger);
    let debuggee = listen
        .await
        .unwrap()
        .unwrap()
        .expect("the listener reports the stop");
    let debug = Client::new(&config(sim), SessionMode::Stateful).unwrap();
    debug.attach(id, &debuggee.id).await.unwrap();
    (debug, debuggee, trigger)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_unit_test_stops_at_a_breakpoint_in_its_test_class() {
    let sim = sim_with(own_sources()).await;
    let id = identity("unitdebug");
    let bp = Client::new(&config(&sim), SessionMode::Stateless).unwrap();
    let include = "/sap/bc/adt/oo/classes/zcl_adt_unit/includes/testclasses";
    let v = bp
        .set_breakpoints(
            &id,
            &SyncScope::Partial(include.into()),
            &[BreakpointSpec {
                client_id: "t".into(),
                kind: BreakpointKind::Line {
                    uri: include.into(),
                    line: 15,
                },
                condition: None,
            }],
        )
        .await
        .unwrap();
    assert!(v[0].id.is_some(), "{v:?}");
    let runner = Client::new(&config(&sim), SessionMode::Stateless).unwrap();
    let (debug, _, run) = catch(&sim, &id, async move {
        runner
            .run_unit_tests("/sap/bc/adt/oo/classes/zcl_adt_unit", Some("FAILS"))
            .await
    })
    .await;
    let stack = debug.stack().await.unwrap();
    assert_eq!(stack.entries[0].line, 15, "{stack:?}");
    assert!(
        stack.entries[0].uri.contains("/includes/testclasses"),
        "{stack:?}"
    );
    bp.set_breakpoints(&id, &SyncScope::Full, &[])
        .await
        .unwrap();
    assert_eq!(
        debug.step(StepKind::Continue).await.unwrap(),
        StepOutcome::Ended
    );
    let result = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the run ends")
        .unwrap()
        .unwrap();
    let names: Vec<_> = result.methods().map(|(_, m)| m.name.clone()).collect();
    assert_eq!(names, vec!["FAILS"]);
    assert!(!result.passed());
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_statement_breakpoint_stops_a_report() {
    let sim = sim_with(own_sources()).await;
    let id = identity("report");
    let bp = Client::new(&config(&sim), SessionMode::Stateless).unwrap();
    let v = bp
        .set_breakpoints(
            &id,
            &SyncScope::Additive,
            &[BreakpointSpec {
                client_id: "w".into(),
                kind: BreakpointKind::Statement {
                    statement: "WRITE".into(),
                },
                condition: None,
            }],
        )
        .await
        .unwrap();
    let bp_id = v[0].id.clone().expect("accepted");
    let runner = Client::new(&config(&sim), SessionMode::Stateless).unwrap();
    let (debug, debuggee, run) = catch(
        &sim,
        &id,
        async move { runner.run_report("ZADT_REPORT").await },
    )
    .await;
    assert!(debuggee.program.starts_with("ZADT_REPORT"), "{debuggee:?}");
    let stack = debug.stack().await.unwrap();
    assert_eq!(stack.entries[0].line, 7, "{stack:?}");
    let n = debug.variables(&["GV_N".into()]).await.unwrap();
    assert_eq!(n[0].value.trim(), "42");
    // Change the value before the WRITE runs.
    debug.set_variable_value("GV_N", "7").await.unwrap();
    bp.delete_breakpoint(&id, &bp_id).await.unwrap();
    assert_eq!(
        debug.step(StepKind::Continue).await.unwrap(),
        StepOutcome::Ended
    );
    let list = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the report ends")
        .unwrap()
        .unwrap();
    assert_eq!(list.trim_end(), "Answer 7");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn jump_to_line_moves_the_execution_point() {
    let s = stop_at("jump", &[35]).await;
    s.clear_breakpoints().await;
    let moved = s.debug.step_to_line(true, DEMO_URI, 43).await.unwrap();
    assert!(matches!(moved, StepOutcome::Stopped { .. }), "{moved:?}");
    assert_eq!(s.debug.stack().await.unwrap().entries[0].line, 43);
    assert_eq!(
        s.debug.step(StepKind::Continue).await.unwrap(),
        StepOutcome::Ended
    );
    // The loop and the first WRITE were skipped; the rate was never doubled before.
    assert_eq!(s.output().await.unwrap().trim_end(), "Doubled rate: 25.00");
}

/// The simulator expires idle security sessions with 400 `Session timed out` (adt-wire.md
/// §13.2); a stateless client logs on again once and the call succeeds.
#[tokio::test]
async fn stateless_client_logs_on_again_after_the_security_session_expired() {
    let sim = sim::start(sim::SimConfig {
        security_session_timeout: Duration::from_millis(300),
        ..Default::default()
    })
    .await
    .expect("simulator");
    let client = Client::new(&config(&sim), SessionMode::Stateless).expect("client");
    client.logon().await.expect("logon");
    assert_eq!(client.classrun(DEMO).await.expect("first run"), OUTPUT);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        client.classrun(DEMO).await.expect("run after the expiry"),
        OUTPUT
    );
    // The expiry was answered once, as the catalogue says, and the client then logged on anew.
    let log = sim.request_log();
    let timed_out = log.iter().filter(|r| r.status == 400).count();
    assert_eq!(timed_out, 1, "{log:?}");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn short_dumps_listed_read_and_missing() {
    let dumps =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../sim/tests/fixtures/dumps");
    let sim = sim_with(vec![dumps]).await;
    let client = Client::new(&config(&sim), SessionMode::Stateless).unwrap();
    let filter = adt::dumps::DumpsFilter {
        user: Some("developer".into()),
        from: Some("20000101000000".into()),
        to: None,
    };
    assert!(client.dumps(&filter).await.unwrap().is_empty());
    assert!(client.classrun("ZCL_SMP_DUMP_CUSTOM").await.is_err());
    let listed = client.dumps(&filter).await.unwrap();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0].runtime_error, "UNCAUGHT_EXCEPTION");
    assert_eq!(listed[0].user, "DEVELOPER");
    let other = adt::dumps::DumpsFilter {
        user: Some("TESTER".into()),
        ..Default::default()
    };
    assert!(client.dumps(&other).await.unwrap().is_empty());
    let doc = client.dump(&listed[0].id).await.unwrap();
    assert_eq!(doc.exception, "ZCX_SMP_DUMP_CUSTOM");
    let text = client.dump_formatted(&listed[0].id).await.unwrap();
    let formatted = adt::dumps::parse_formatted(&text, &doc.chapters);
    assert_eq!(formatted.header("Except."), Some("ZCX_SMP_DUMP_CUSTOM"));
    assert_eq!(formatted.termination().procedure, "IF_OO_ADT_CLASSRUN~MAIN");
    // The id as the feed wrote it and the same id decoded reach the same dump.
    let decoded = listed[0].id.replace("%20", " ");
    assert_eq!(client.dump(&decoded).await.unwrap(), doc);
    let missing = client.dump("20000101000000nothing").await.unwrap_err();
    assert_eq!(missing.class(), ErrorClass::NotFound, "{missing:?}");
    sim.shutdown().await;
}
