//! `abapdbg doctor`: does abapdbg work with this system, and if not, why.
//!
//! One step after the other, each as far as the one before allows: the configuration (which
//! profile, where each value came from), the address (DNS), the connection (TCP, and TLS for
//! https), the logon, the CSRF token, a stateful session, the discovery document, the
//! listener (armed and deleted again, a conflict named with who holds it), a breakpoint (set
//! and deleted on an object the user names or the first the quick search finds), the batch
//! endpoint, and the round trip (median of five). Each step passes or fails with the
//! protocol's error code, what it means and what to do; a step that makes the rest
//! impossible stops the run there and says so. `--json` prints `{"ok", "steps": […]}`; the
//! exit code is 0 when every step passed, else the CLI's code for the first failure's family.
//!
//! It talks to the system directly (no session is started, nothing is left behind: what it
//! arms and sets it deletes), with the same configuration a session would use.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cli::{DoctorArgs, ServeArgs};

/// One step's outcome.
#[derive(Debug, Clone)]
struct Step {
    name: &'static str,
    ok: bool,
    skipped: bool,
    code: Option<String>,
    message: String,
    hint: Option<String>,
    ms: Option<u64>,
    /// More members of the step's JSON (the discovery step's `release` and `capabilities`).
    extra: Option<serde_json::Map<String, Value>>,
}

impl Step {
    fn pass(name: &'static str, message: impl Into<String>, started: Instant) -> Step {
        Step {
            name,
            ok: true,
            skipped: false,
            code: None,
            message: message.into(),
            hint: None,
            ms: Some(ms(started)),
            extra: None,
        }
    }

    fn fail(
        name: &'static str,
        code: &str,
        message: impl Into<String>,
        hint: impl Into<String>,
        started: Instant,
    ) -> Step {
        Step {
            name,
            ok: false,
            skipped: false,
            code: Some(code.to_string()),
            message: message.into(),
            hint: Some(hint.into()),
            ms: Some(ms(started)),
            extra: None,
        }
    }

    fn skip(name: &'static str, why: &str) -> Step {
        Step {
            name,
            ok: true,
            skipped: true,
            code: None,
            message: why.to_string(),
            hint: None,
            ms: None,
            extra: None,
        }
    }

    fn to_json(&self) -> Value {
        let mut v = json!({"name": self.name, "ok": self.ok, "message": self.message});
        if self.skipped {
            v["skipped"] = true.into();
        }
        if let Some(c) = &self.code {
            v["code"] = c.clone().into();
        }
        if let Some(h) = &self.hint {
            v["hint"] = h.clone().into();
        }
        if let Some(m) = self.ms {
            v["ms"] = m.into();
        }
        for (k, x) in self.extra.iter().flatten() {
            v[k] = x.clone();
        }
        v
    }
}

fn ms(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Every step's name, in order (a run that stops early lists the rest as skipped).
const STEPS: &[&str] = &[
    "config",
    "resolve",
    "connect",
    "logon",
    "csrf",
    "stateful",
    "discovery",
    "listener",
    "breakpoint",
    "batch",
    "round_trip",
];

/// The request a replay (`abapdbg replay`) had no recorded exchange for, when `e` is its 404:
/// the system there is a cassette, and a missing exchange is not a missing service.
fn unrecorded(e: &adt::AdtError) -> Option<&str> {
    match e {
        adt::AdtError::Server {
            status: 404, body, ..
        } => body
            .strip_prefix(replay::UNMATCHED)
            .map(|request| request.trim()),
        _ => None,
    }
}

/// The failure of an ADT call as a step, with the protocol's code and a hint.
fn adt_fail(name: &'static str, what: &str, e: &adt::AdtError, started: Instant) -> Step {
    if let Some(request) = unrecorded(e) {
        return Step::fail(
            name,
            "adt.unexpected_response",
            format!(
                "{what}: the system is a replay and did not answer {request}: its cassette holds no recorded exchange for it"
            ),
            "a replay answers only what was recorded; record this step on the system itself ('abapdbg doctor --record FILE') to check it",
            started,
        );
    }
    let class = e.class();
    let (code, hint) = match class {
        adt::ErrorClass::NotAuthorized => (
            "auth.failed",
            "check the user and password (ABAPDBG_USER, ABAPDBG_PASSWORD or the profile's password_command); a 403 means the user lacks an authorisation the debugger needs (S_ADT_RES, S_DEVELOP with DEBUG)",
        ),
        adt::ErrorClass::Csrf => (
            "auth.csrf_failed",
            "the system refused the CSRF token even fetched again: a proxy or load balancer may drop the session cookies",
        ),
        adt::ErrorClass::Timeout => (
            "transport.timeout",
            "the system answers too slowly: check the network path and the system's load",
        ),
        adt::ErrorClass::Transport | adt::ErrorClass::ServerUnavailable => (
            "transport.unreachable",
            "check the URL, the port, a proxy (HTTPS_PROXY), and for https the CA bundle (ABAPDBG_CA_BUNDLE)",
        ),
        adt::ErrorClass::NotFound => (
            "adt.not_supported",
            "the system does not offer this service: check its release and that the ICF node /sap/bc/adt is active (SICF)",
        ),
        adt::ErrorClass::ListenerConflict => (
            "conflict.listener",
            "another debugger listens for this user: end it, or use 'abapdbg listen --take-over'",
        ),
        _ => (
            "adt.error",
            "run with ABAPDBG_RECORD=FILE and send the file (docs/cassettes.md)",
        ),
    };
    Step::fail(name, code, format!("{what}: {e}"), hint, started)
}

/// Runs the checks; answers the process's exit code.
pub(crate) async fn run(args: DoctorArgs) -> std::process::ExitCode {
    let steps = checks(&args).await;
    let ok = steps.iter().all(|s| s.ok);
    // A closed pipe (`| head`) ends the output, not the process with a panic.
    use std::io::Write;
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    if args.json {
        let out = json!({"ok": ok, "steps": steps.iter().map(Step::to_json).collect::<Vec<_>>()});
        let _ = writeln!(w, "{out}");
    } else {
        for s in &steps {
            let mark = if s.skipped {
                "-"
            } else if s.ok {
                "✔"
            } else {
                "✘"
            };
            let time = s.ms.map(|m| format!(" ({m} ms)")).unwrap_or_default();
            let _ = writeln!(w, "{mark} {:<11} {}{time}", s.name, s.message);
            if let Some(code) = &s.code {
                let _ = writeln!(w, "  {:<11} {code}", "");
            }
            if let Some(h) = &s.hint {
                let _ = writeln!(w, "  {:<11} what to do: {h}", "");
            }
        }
        let _ = writeln!(
            w,
            "{}",
            if ok {
                "abapdbg can debug on this system."
            } else {
                "abapdbg cannot debug on this system until the first ✘ above is mended."
            }
        );
    }
    let first = steps.iter().find(|s| !s.ok).and_then(|s| s.code.clone());
    std::process::ExitCode::from(match first.as_deref() {
        None => 0,
        Some(code) => exit_code(code),
    })
}

/// The CLI's exit code of an error code's family (README, "Shell").
fn exit_code(code: &str) -> u8 {
    match code.split('.').next().unwrap_or_default() {
        "config" | "protocol" => 2,
        "state" => 3,
        "transport" | "adt" | "conflict" | "listener" | "session" => 4,
        "auth" => 5,
        _ => 1,
    }
}

async fn checks(args: &DoctorArgs) -> Vec<Step> {
    let mut steps = Vec::new();
    let stop_here = |steps: &mut Vec<Step>, why: &str| {
        let done = steps.len();
        for name in &STEPS[done..] {
            steps.push(Step::skip(name, why));
        }
    };
    // 1. The configuration.
    let started = Instant::now();
    let serve_args = ServeArgs::for_doctor(args.profile.clone());
    let target = match crate::system::target(&serve_args) {
        Ok(t) => t,
        Err(e) => {
            steps.push(Step::fail(
                "config",
                "config.invalid",
                e.to_string(),
                "mend the config file or the ABAPDBG_* variables ('abapdbg config' shows them)",
                started,
            ));
            stop_here(&mut steps, "the configuration is broken");
            return steps;
        }
    };
    // What decides the system and the logon, and where each came from.
    let sources: Vec<String> = target
        .setting_rows()
        .into_iter()
        .filter(|s| {
            matches!(
                s.name.as_str(),
                "profile"
                    | "url"
                    | "user"
                    | "client"
                    | "password"
                    | "bearer_token"
                    | "cookies"
                    | "client_certificate"
                    | "ca_bundle"
                    | "insecure"
            ) && !s.value.starts_with("(not set)")
                && !(s.name == "insecure" && s.value == "false")
        })
        .map(|s| format!("{} {} ({})", s.name, s.value, s.source))
        .collect();
    let mut embedded = None;
    let mut config = match crate::system::configured(&serve_args) {
        Ok(Some(c)) => {
            steps.push(Step::pass("config", sources.join(", "), started));
            c
        }
        Ok(None) => match crate::system::start_embedded().await {
            Ok((handle, c)) => {
                steps.push(Step::pass(
                    "config",
                    "no system configured (no ABAPDBG_URL, no profile): checking the embedded simulator; see 'abapdbg config'",
                    started,
                ));
                embedded = Some(handle);
                c
            }
            Err(e) => {
                steps.push(Step::fail(
                    "config",
                    "internal.bug",
                    format!("the embedded simulator did not start: {e}"),
                    "report this",
                    started,
                ));
                stop_here(&mut steps, "nothing to check");
                return steps;
            }
        },
        Err(e) => {
            let msg = e.to_string();
            let code = if msg.contains("password") || msg.contains("token") {
                "auth.no_secret"
            } else {
                "config.invalid"
            };
            steps.push(Step::fail(
                "config",
                code,
                msg,
                "set what is missing ('abapdbg config' shows where each value comes from)",
                started,
            ));
            stop_here(&mut steps, "the configuration is incomplete");
            return steps;
        }
    };
    if let Some(path) = &args.record {
        match adt::cassette::Recorder::create(
            path,
            &config.base_url,
            &[],
            adt::cassette::DEFAULT_MAX_BYTES,
        ) {
            Ok(r) => config.recorder = Some(std::sync::Arc::new(r)),
            Err(e) => {
                eprintln!(
                    "abapdbg: --record {}: {e} (a cassette is never overwritten)",
                    path.display()
                );
            }
        }
    }
    let result = system_steps(&config, args, &mut steps).await;
    if let Err(why) = result {
        stop_here(&mut steps, &why);
    }
    if let Some(handle) = embedded {
        handle.shutdown().await;
    }
    steps
}

/// The steps that talk to the system; `Err` with why the rest cannot run.
async fn system_steps(
    config: &adt::Config,
    args: &DoctorArgs,
    steps: &mut Vec<Step>,
) -> Result<(), String> {
    // 2. The address.
    let started = Instant::now();
    let Some((host, port)) = host_port(&config.base_url) else {
        steps.push(Step::fail(
            "resolve",
            "config.invalid",
            format!("'{}' is not a URL with a host", config.base_url),
            "set ABAPDBG_URL to https://host:port",
            started,
        ));
        return Err("the URL has no host".into());
    };
    let addrs: Vec<std::net::SocketAddr> = match tokio::time::timeout(
        Duration::from_secs(10),
        tokio::net::lookup_host((host.as_str(), port)),
    )
    .await
    {
        Ok(Ok(a)) => a.collect(),
        Ok(Err(e)) => {
            steps.push(Step::fail(
                "resolve",
                "transport.unreachable",
                format!("{host} does not resolve: {e}"),
                "check the host name and the DNS (a VPN?)",
                started,
            ));
            return Err("the host does not resolve".into());
        }
        Err(_) => {
            steps.push(Step::fail(
                "resolve",
                "transport.timeout",
                format!("looking up {host} took longer than 10 s"),
                "check the DNS",
                started,
            ));
            return Err("the host does not resolve".into());
        }
    };
    steps.push(Step::pass(
        "resolve",
        format!(
            "{host} is {}",
            addrs
                .iter()
                .map(|a| a.ip().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        started,
    ));
    // 3. The connection.
    let started = Instant::now();
    let mut connected = None;
    let mut last_error = String::new();
    for a in &addrs {
        match tokio::time::timeout(Duration::from_secs(10), tokio::net::TcpStream::connect(a)).await
        {
            Ok(Ok(_)) => {
                connected = Some(*a);
                break;
            }
            Ok(Err(e)) => last_error = format!("{a}: {e}"),
            Err(_) => last_error = format!("{a}: no answer within 10 s"),
        }
    }
    let Some(addr) = connected else {
        steps.push(Step::fail(
            "connect",
            "transport.unreachable",
            format!("cannot connect to port {port}: {last_error}"),
            "check the port (the ICM's HTTP or HTTPS port), a firewall or a proxy",
            started,
        ));
        return Err("nothing answers at that address".into());
    };
    let tls = if config.base_url.starts_with("https://") {
        match &config.ca_bundle {
            Some(ca) => format!(
                ", TLS checked against the platform's store and {}",
                ca.display()
            ),
            None if config.insecure => ", TLS NOT checked (insecure)".to_string(),
            None => ", TLS checked against the platform's trust store".to_string(),
        }
    } else {
        ", plain HTTP".to_string()
    };
    steps.push(Step::pass(
        "connect",
        format!("TCP to {addr}{tls}"),
        started,
    ));
    // 4. The logon (and, for https, the certificate: the first request makes the handshake).
    let started = Instant::now();
    let main = match adt::Client::new(config, adt::SessionMode::Stateless) {
        Ok(c) => c,
        Err(e) => {
            steps.push(adt_fail("logon", "preparing the HTTP client", &e, started));
            return Err("no HTTP client".into());
        }
    };
    if let Err(e) = main.logon().await {
        steps.push(adt_fail("logon", "logging on", &e, started));
        return Err("the logon failed".into());
    }
    let method = if config.bearer_token.is_some() {
        "bearer token"
    } else if !config.cookies.is_empty() {
        "SSO cookies"
    } else if config.client_certificate.is_some() {
        "client certificate"
    } else {
        "user and password"
    };
    steps.push(Step::pass(
        "logon",
        format!(
            "{} in client {} by {method}",
            config.user,
            config.client.as_deref().unwrap_or("(default)")
        ),
        started,
    ));
    // 5. The CSRF token: the logon fetched one; fetching a fresh one in the same security
    // session proves the fetch works apart from the logon (the first change, the breakpoint
    // step, proves the system takes it). Only the fetch, so the step names no other service.
    let started = Instant::now();
    match main.logon().await {
        Ok(()) => steps.push(Step::pass(
            "csrf",
            "a fresh token was fetched in the logged-on session",
            started,
        )),
        Err(e) => {
            steps.push(adt_fail("csrf", "fetching a CSRF token", &e, started));
            return Err("no CSRF token".into());
        }
    }
    // 6. A stateful session.
    let started = Instant::now();
    let stateful = match adt::Client::new(config, adt::SessionMode::Stateful) {
        Ok(c) => c,
        Err(e) => {
            steps.push(adt_fail(
                "stateful",
                "preparing a stateful session",
                &e,
                started,
            ));
            return Err("no stateful session".into());
        }
    };
    match stateful.logon().await {
        Ok(()) => {
            let ctx = stateful.context_id();
            steps.push(Step::pass(
                "stateful",
                if ctx.is_some() {
                    "a user context was opened (sap-contextid)".to_string()
                } else {
                    "opened; the system named no user context yet (it does at the first debugger call)".to_string()
                },
                started,
            ));
            let _ = stateful.end_session().await;
        }
        Err(e) => {
            steps.push(adt_fail(
                "stateful",
                "opening a stateful session",
                &e,
                started,
            ));
            return Err("no stateful session".into());
        }
    }
    // 7. Discovery.
    let started = Instant::now();
    let discovered = match main.discover().await {
        Ok(d) => d,
        Err(e) => {
            steps.push(adt_fail(
                "discovery",
                "reading the discovery document",
                &e,
                started,
            ));
            return Err("no discovery document".into());
        }
    };
    let collections = &discovered.collections;
    let debugger: Vec<&String> = collections
        .iter()
        .filter(|h| h.contains("/debugger"))
        .collect();
    let batch_announced = discovered.capabilities.batch;
    if debugger.is_empty() {
        steps.push(Step::fail(
            "discovery",
            "adt.not_supported",
            format!(
                "the system announces {} services but no debugger (/sap/bc/adt/debugger)",
                collections.len()
            ),
            "the ABAP debugger for ADT needs release 7.50 or newer with the ADT services active",
            started,
        ));
        return Err("the system offers no debugger".into());
    }
    let offered = discovered.capabilities.named();
    let lacking: Vec<&str> = offered
        .iter()
        .filter(|(_, on)| !on)
        .map(|(n, _)| *n)
        .collect();
    let mut step = Step::pass(
        "discovery",
        format!(
            "{} services, {} of the debugger; release {}; {}",
            collections.len(),
            debugger.len(),
            discovered.release.as_deref().unwrap_or("not said"),
            if lacking.is_empty() {
                "offers all the debugger uses".to_string()
            } else {
                format!(
                    "does not offer {} (refused with adt.not_supported)",
                    lacking.join(", ")
                )
            }
        ),
        started,
    );
    let mut extra = serde_json::Map::new();
    extra.insert("release".into(), json!(discovered.release));
    extra.insert(
        "capabilities".into(),
        Value::Object(
            offered
                .iter()
                .map(|(n, on)| (n.to_string(), json!(on)))
                .collect(),
        ),
    );
    step.extra = Some(extra);
    steps.push(step);
    // 8. The listener: armed (a short poll) and deleted.
    let started = Instant::now();
    let identity = adt::Identity {
        user: config.user.clone(),
        terminal_id: crate::identity::terminal_id(),
        // An IDE id of its own (random), so a running session's listener is not deleted.
        ide_id: crate::identity::ide_id(),
    };
    let listener = match adt::Client::new(config, adt::SessionMode::Stateless) {
        Ok(c) => c,
        Err(e) => {
            steps.push(adt_fail("listener", "preparing the listener", &e, started));
            return Err("no listener".into());
        }
    };
    let poll = listener.listen(&identity, 1).await;
    let _ = listener.stop_listener(&identity).await;
    match poll {
        Ok(_) => steps.push(Step::pass(
            "listener",
            format!("armed for {} and deleted again", config.user),
            started,
        )),
        Err(e) if e.class() == adt::ErrorClass::ListenerConflict => {
            steps.push(adt_fail(
                "listener",
                "another debugger holds the listener for this user",
                &e,
                started,
            ));
        }
        Err(e) => {
            steps.push(adt_fail("listener", "arming the listener", &e, started));
            return Err("the listener cannot be armed".into());
        }
    }
    // 9. A breakpoint: set and deleted on an object.
    let started = Instant::now();
    let object = match &args.object {
        Some(o) => Some(o.to_uppercase()),
        None => main.quick_search("Z*", 5).await.ok().and_then(|found| {
            found
                .into_iter()
                .find(|o| o.uri.contains("/oo/classes/") || o.uri.contains("/programs/programs/"))
                .map(|o| o.name)
        }),
    };
    match object {
        None => steps.push(Step::skip(
            "breakpoint",
            "no object to try it on (name one with --object)",
        )),
        Some(name) => match breakpoint_roundtrip(&main, &identity, &name).await {
            Ok(verdict) => steps.push(Step::pass("breakpoint", verdict, started)),
            Err(e) => steps.push(adt_fail(
                "breakpoint",
                &format!("a breakpoint in {name}"),
                &e,
                started,
            )),
        },
    }
    // 10. Batch: one harmless read (the stack, of no debuggee) sent as a batch; the client
    // finds out on the way whether the system serves the endpoint.
    let started = Instant::now();
    let _ = main.batch(vec![adt::BatchCall::stack()]).await;
    steps.push(match main.batch_served() {
        Some(true) => Step::pass(
            "batch",
            format!(
                "/debugger/batch answers{}: a step, the stack and the variables go in one request",
                if batch_announced {
                    ""
                } else {
                    " (not announced in discovery)"
                }
            ),
            started,
        ),
        Some(false) => Step::pass(
            "batch",
            "no /debugger/batch: each step costs three requests (works, slower)",
            started,
        ),
        None => Step::pass(
            "batch",
            "the batch endpoint could not be tried; a session finds out at its first step",
            started,
        ),
    });
    // 11. Round trip.
    let started = Instant::now();
    let mut times = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        if let Err(e) = main.discovery().await {
            steps.push(adt_fail(
                "round_trip",
                "measuring the round trip",
                &e,
                started,
            ));
            return Ok(());
        }
        times.push(t.elapsed());
    }
    times.sort();
    steps.push(Step::pass(
        "round_trip",
        format!("median {} ms of five requests", times[2].as_millis()),
        started,
    ));
    Ok(())
}

/// Sets a line breakpoint at line 1 of `object`'s main source and deletes it; answers the
/// system's verdict.
async fn breakpoint_roundtrip(
    main: &adt::Client,
    identity: &adt::Identity,
    object: &str,
) -> Result<String, adt::AdtError> {
    let location = adt::address::parse_location(&format!("{object}:1"))
        .map_err(|e| adt::AdtError::Config(e.to_string()))?;
    let uri = location
        .uri
        .split('#')
        .next()
        .unwrap_or_default()
        .to_string();
    let spec = adt::BreakpointSpec {
        client_id: "abapdbg-doctor-1".into(),
        kind: adt::BreakpointKind::Line {
            uri: uri.clone(),
            line: location.line,
        },
        condition: None,
    };
    let set = main
        .set_breakpoints(identity, &adt::SyncScope::Partial(uri.clone()), &[spec])
        .await;
    let deleted = main
        .set_breakpoints(identity, &adt::SyncScope::Partial(uri), &[])
        .await;
    let set = set?;
    deleted?;
    Ok(match set.first() {
        Some(adt::BreakpointResult {
            error_message: Some(why),
            ..
        }) => format!(
            "the system judged a breakpoint in {object} ({why}: line 1 may hold no statement) and nothing was left set"
        ),
        Some(_) => format!("set in {object} and deleted again"),
        None => format!("{object}: set and deleted"),
    })
}

/// `https://host:443/x` → (`host`, 443).
fn host_port(url: &str) -> Option<(String, u16)> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split('/').next()?;
    let authority = authority.rsplit('@').next()?;
    let default = if scheme == "https" { 443 } else { 80 };
    if let Some(v6) = authority.strip_prefix('[') {
        let (host, tail) = v6.split_once(']')?;
        let port = tail.strip_prefix(':').map(str::parse).transpose().ok()?;
        return Some((host.to_string(), port.unwrap_or(default)));
    }
    match authority.rsplit_once(':') {
        Some((h, p)) => Some((h.to_string(), p.parse().ok()?)),
        None => Some((authority.to_string(), default)),
    }
    .filter(|(h, _)| !h.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_ports_of_urls() {
        assert_eq!(
            host_port("https://sap.example"),
            Some(("sap.example".into(), 443))
        );
        assert_eq!(
            host_port("http://127.0.0.1:8000/"),
            Some(("127.0.0.1".into(), 8000))
        );
        assert_eq!(
            host_port("https://[::1]:44300"),
            Some(("::1".into(), 44300))
        );
        assert_eq!(host_port("nope"), None);
        assert_eq!(host_port("http://:80"), None);
        assert_eq!(host_port("http://h:notaport"), None);
    }

    #[test]
    fn a_replays_missing_exchange_is_named_not_taken_for_a_missing_service() {
        let e = adt::AdtError::Server {
            operation: "logon".into(),
            status: 404,
            class: adt::ErrorClass::NotFound,
            exception: None,
            body: format!("{} GET /sap/bc/adt/discovery", replay::UNMATCHED),
        };
        let step = adt_fail("logon", "logging on", &e, Instant::now());
        assert_eq!(step.code.as_deref(), Some("adt.unexpected_response"));
        assert!(
            step.message
                .contains("is a replay and did not answer GET /sap/bc/adt/discovery"),
            "{}",
            step.message
        );
        // A system's own 404 stays what it means.
        let e = adt::AdtError::Server {
            operation: "logon".into(),
            status: 404,
            class: adt::ErrorClass::NotFound,
            exception: None,
            body: "Not Found".into(),
        };
        let step = adt_fail("logon", "logging on", &e, Instant::now());
        assert_eq!(step.code.as_deref(), Some("adt.not_supported"));
    }

    #[test]
    fn exit_codes_follow_the_families() {
        assert_eq!(exit_code("auth.failed"), 5);
        assert_eq!(exit_code("transport.unreachable"), 4);
        assert_eq!(exit_code("adt.not_supported"), 4);
        assert_eq!(exit_code("config.invalid"), 2);
    }
}
