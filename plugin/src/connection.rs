//! The plugin's connections to sessions, one per target system, reused between commands of
//! one plugin process.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use client::{ClientError, Session, Target};
use nu_plugin::EngineInterface;
use nu_protocol::{LabeledError, Span};

use crate::errors::to_labeled;

/// How long a request that does not wait for the program may take.
pub(crate) const REQUEST_TIMEOUT: Duration = Duration::from_secs(120);

/// The plugin: open connections by session socket.
#[derive(Default)]
pub struct AbapPlugin {
    sessions: Mutex<HashMap<PathBuf, Arc<Session>>>,
}

/// The target system as the caller's `$env` names it.
pub(crate) fn target(engine: &EngineInterface) -> Result<Target, LabeledError> {
    let vars = engine.get_env_vars()?;
    Ok(Target::from_lookup(|k| {
        vars.get(k).and_then(|v| v.coerce_string().ok())
    }))
}

impl AbapPlugin {
    /// The session of the caller's target, started when none runs.
    pub(crate) fn session(
        &self,
        engine: &EngineInterface,
        span: Span,
    ) -> Result<Arc<Session>, LabeledError> {
        let target = target(engine)?;
        self.session_for(&target, true)
            .map_err(|e| to_labeled(&e, span))
    }

    /// The session of `target`; with `start` false only one that already runs.
    pub(crate) fn session_for(
        &self,
        target: &Target,
        start: bool,
    ) -> Result<Arc<Session>, ClientError> {
        let socket = target.socket_path().ok_or(ClientError::NoSocketDir)?;
        let mut map = self
            .sessions
            .lock()
            .map_err(|_| ClientError::Disconnected)?;
        if let Some(s) = map.get(&socket).filter(|s| s.is_open()) {
            return Ok(s.clone());
        }
        let session = Arc::new(if start {
            Session::connect_or_start(target)?
        } else {
            Session::connect(target)?
        });
        map.insert(socket, session.clone());
        Ok(session)
    }

    /// Forgets the connection to `session` (after `shutdown`).
    pub(crate) fn forget(&self, session: &Session) {
        if let Ok(mut map) = self.sessions.lock() {
            map.retain(|_, s| s.socket() != session.socket());
        }
    }

    /// One typed request (command `C`) on the caller's session, errors labelled at `span`.
    pub(crate) fn call<C: jsonl::CommandSpec>(
        &self,
        engine: &EngineInterface,
        span: Span,
        args: &C::Args,
    ) -> Result<C::Result, LabeledError> {
        let session = self.session(engine, span)?;
        typed::<C>(&session, engine, span, args)
    }
}

/// One typed request (command `C`) on `session`, errors labelled at `span`; Ctrl-C lets it go.
pub(crate) fn typed<C: jsonl::CommandSpec>(
    session: &Session,
    engine: &EngineInterface,
    span: Span,
    args: &C::Args,
) -> Result<C::Result, LabeledError> {
    let signals = engine.signals().clone();
    session
        .call::<C>(args, REQUEST_TIMEOUT, &|| signals.interrupted())
        .map_err(|e| to_labeled(&e, span))
}
