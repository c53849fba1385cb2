//! Which system to talk to: flags, then `ABAPDBG_*` variables, then the profile chosen
//! (`--profile`, `ABAPDBG_PROFILE`, `default_profile`), then the embedded simulator. The rule
//! is the session client's ([`client::Target::resolve`]), so `serve` and every front end agree.

use std::error::Error;
use std::path::PathBuf;

use crate::cli::ServeArgs;

type BoxError = Box<dyn Error + Send + Sync>;

/// The system connection, and the embedded simulator when we started one.
pub(crate) struct System {
    pub(crate) adt: adt::Config,
    pub(crate) embedded: Option<sim::SimHandle>,
    /// `allow_writes` of the profile or `ABAPDBG_ALLOW_WRITES` (`--allow-writes` adds to it).
    pub(crate) allow_writes: bool,
}

/// The system as flags, the process environment and the config file name it; secrets are
/// not obtained yet.
pub(crate) fn target(args: &ServeArgs) -> Result<client::Target, BoxError> {
    let insecure = args.insecure.then(|| "true".to_string());
    let flags = [
        ("ABAPDBG_URL", &args.url),
        ("ABAPDBG_USER", &args.user),
        ("ABAPDBG_CLIENT", &args.client),
        ("ABAPDBG_LANGUAGE", &args.language),
        ("ABAPDBG_CA_BUNDLE", &args.ca_bundle),
        ("ABAPDBG_INSECURE", &insecure),
    ];
    // A flag counts as the variable it stands for, so it overrides the profile's field too.
    let lookup = |k: &str| {
        flags
            .iter()
            .find(|(name, v)| *name == k && v.is_some())
            .and_then(|(_, v)| (*v).clone())
            .or_else(|| std::env::var(k).ok())
    };
    Ok(client::Target::resolve(lookup, args.profile.as_deref())?)
}

/// The configured system, or `None` for the embedded simulator (no URL given). Runs the
/// profile's `password_command` and `bearer_token_command` unless the environment already
/// carries their results (`ABAPDBG_PASSWORD`, `ABAPDBG_BEARER_TOKEN`: what a front end that
/// starts a session passes).
pub(crate) fn configured(args: &ServeArgs) -> Result<Option<adt::Config>, BoxError> {
    adt_config(&target(args)?)
}

fn adt_config(target: &client::Target) -> Result<Option<adt::Config>, BoxError> {
    let Some(url) = target.url() else {
        return Ok(None);
    };
    let user = target.user().ok_or(
        "no SAP user: set ABAPDBG_USER (or --user, or user in the profile) together with \
         ABAPDBG_PASSWORD",
    )?;
    let credentials = target.credentials()?;
    let other_logon = credentials.bearer_token.is_some()
        || !credentials.cookies.is_empty()
        || target.client_certificate().is_some();
    if credentials.password.is_none() && !other_logon {
        return Err(format!(
            "no password for {}: set ABAPDBG_PASSWORD, or password_command or password_env in \
             the profile (it is never read from the command line or the config file)",
            target.describe()
        )
        .into());
    }
    if target.insecure() {
        tracing::warn!(
            "insecure: server certificates of {url} are not checked ({})",
            target.describe()
        );
    }
    Ok(Some(adt::Config {
        base_url: url.trim_end_matches('/').to_string(),
        user: user.to_uppercase(),
        password: credentials.password.unwrap_or_default(),
        client: target.client().map(str::to_string),
        language: target.language().map(str::to_string),
        bearer_token: credentials.bearer_token,
        cookies: credentials.cookies,
        client_certificate: target.client_certificate().map(PathBuf::from),
        ca_bundle: target.ca_bundle().map(PathBuf::from),
        insecure: target.insecure(),
        ..Default::default()
    }))
}

/// The secrets of `adt` as the variables a `serve` started from this one reads, so a
/// `password_command` runs once per start (`serve --daemon` passes them to its session).
pub(crate) fn secret_env(adt: Option<&adt::Config>) -> Vec<(&'static str, Option<String>)> {
    let Some(adt) = adt else {
        return Vec::new();
    };
    let cookies = adt
        .cookies
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join("; ");
    vec![
        (
            "ABAPDBG_PASSWORD",
            (!adt.password.is_empty()).then(|| adt.password.clone()),
        ),
        ("ABAPDBG_BEARER_TOKEN", adt.bearer_token.clone()),
        ("ABAPDBG_COOKIES", (!cookies.is_empty()).then_some(cookies)),
    ]
}

/// The configured system, or the embedded simulator started now.
pub(crate) async fn resolve(args: &ServeArgs) -> Result<System, BoxError> {
    let target = target(args)?;
    let allow_writes = target.allow_writes();
    if let Some(adt) = adt_config(&target)? {
        return Ok(System {
            adt,
            embedded: None,
            allow_writes,
        });
    }
    let (handle, adt) = start_embedded().await?;
    tracing::info!(
        "no ABAPDBG_URL: using the embedded simulator at {}",
        handle.base_url()
    );
    Ok(System {
        adt,
        embedded: Some(handle),
        allow_writes,
    })
}

/// Starts the embedded simulator, and the logon data for it. It listens on loopback, where
/// every local user can reach it, so it is closed to them (issue 25): its user's password
/// and its admin API's token are random per start and known only to this process, never
/// written anywhere.
pub(crate) async fn start_embedded() -> Result<(sim::SimHandle, adt::Config), sim::SimError> {
    let password = sim::random_secret();
    let handle = sim::start(sim::SimConfig {
        users: vec![(EMBEDDED_USER.to_string(), password.clone())],
        admin_token: Some(sim::random_secret()),
        ..sim::SimConfig::default()
    })
    .await?;
    let adt = embedded_config(&handle, password);
    Ok((handle, adt))
}

/// The embedded simulator's user: the sample user, so programs and docs read the same.
const EMBEDDED_USER: &str = "DEVELOPER";

/// Logon data for the embedded simulator's user.
fn embedded_config(handle: &sim::SimHandle, password: String) -> adt::Config {
    adt::Config {
        base_url: handle.base_url(),
        user: EMBEDDED_USER.into(),
        password,
        client: Some("001".into()),
        language: Some("EN".into()),
        ..Default::default()
    }
}
