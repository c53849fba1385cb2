//! Which system to talk to: flags, then environment, then the embedded simulator.

use std::error::Error;

use crate::cli::ServeArgs;

type BoxError = Box<dyn Error + Send + Sync>;

/// The system connection, and the embedded simulator when we started one.
pub(crate) struct System {
    pub(crate) adt: adt::Config,
    pub(crate) embedded: Option<sim::SimHandle>,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// The configured system, or `None` for the embedded simulator (no URL given).
pub(crate) fn configured(args: &ServeArgs) -> Result<Option<adt::Config>, BoxError> {
    let Some(url) = args.url.clone().or_else(|| env("ABAPDBG_URL")) else {
        return Ok(None);
    };
    let user = args
        .user
        .clone()
        .or_else(|| env("ABAPDBG_USER"))
        .ok_or("no SAP user: set ABAPDBG_USER (or --user) together with ABAPDBG_PASSWORD")?;
    let password = env("ABAPDBG_PASSWORD")
        .ok_or("no password: set ABAPDBG_PASSWORD (it is never read from the command line)")?;
    Ok(Some(adt::Config {
        base_url: url.trim_end_matches('/').to_string(),
        user: user.to_uppercase(),
        password,
        client: args.client.clone().or_else(|| env("ABAPDBG_CLIENT")),
        language: args.language.clone().or_else(|| env("ABAPDBG_LANGUAGE")),
        ..Default::default()
    }))
}

/// The configured system, or the embedded simulator started now.
pub(crate) async fn resolve(args: &ServeArgs) -> Result<System, BoxError> {
    if let Some(adt) = configured(args)? {
        return Ok(System {
            adt,
            embedded: None,
        });
    }
    let handle = sim::start(sim::SimConfig::default()).await?;
    tracing::info!(
        "no ABAPDBG_URL: using the embedded simulator at {}",
        handle.base_url()
    );
    Ok(System {
        adt: embedded_config(&handle),
        embedded: Some(handle),
    })
}

/// Logon data for the embedded simulator's default user.
pub(crate) fn embedded_config(handle: &sim::SimHandle) -> adt::Config {
    adt::Config {
        base_url: handle.base_url(),
        user: "DEVELOPER".into(),
        password: "abap".into(),
        client: Some("001".into()),
        language: Some("EN".into()),
        ..Default::default()
    }
}
