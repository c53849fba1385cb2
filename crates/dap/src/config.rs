//! The arguments of `launch` and `attach` (docs/dap.md lists them), and the system they name.
//!
//! The system comes from the launch configuration's `profile`, `url`, `user`, `client` and
//! `language` over the adapter's environment (the `ABAPDBG_*` variables and the config file,
//! as for every front end). A password is taken from the configuration only when the user put
//! one there; otherwise from the environment or the profile, when a session has to be started.

use std::path::PathBuf;

use client::Target;
use serde_json::Value;

/// What a launch runs under the debugger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    /// A class as console application (`IF_OO_ADT_CLASSRUN`).
    Class(String),
    /// A report.
    Report(String),
    /// The ABAP Unit tests of a class, optionally one method.
    Test {
        class: String,
        method: Option<String>,
    },
}

/// `launch` or `attach`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    Launch(Program),
    Attach,
}

/// Everything a launch configuration says.
#[derive(Debug, Clone)]
pub struct LaunchConfig {
    pub mode: Mode,
    pub profile: Option<String>,
    pub url: Option<String>,
    pub user: Option<String>,
    pub client: Option<String>,
    pub language: Option<String>,
    /// Only when the user wrote it into the configuration.
    pub password: Option<String>,
    /// `setVariable` and `goto` (write actions) are allowed.
    pub allow_writes: bool,
    /// `systemDebugging`: step into and stop in SAP-standard (system) code, or not; applied
    /// to the session with `configure` at launch. `None` leaves the session's setting.
    pub system_debugging: Option<bool>,
    /// Folders with the abapGit files of the objects debugged.
    pub source_roots: Vec<PathBuf>,
    /// Whether the debuggee is terminated on `disconnect` when the client does not say.
    pub terminate_on_disconnect: bool,
    /// `attach` takes the listener over from another debugger listening for the same user.
    pub take_over: bool,
}

/// Why a configuration cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("'{0}' must be a string")]
    NotAString(&'static str),
    #[error("'{0}' must be true or false")]
    NotABool(&'static str),
    #[error("'sourceRoot' must be a folder or a list of folders")]
    BadSourceRoot,
    #[error(
        "launch needs one of \"class\", \"report\" or \"test\" (e.g. {{\"class\": \"ZCL_ORDER\"}})"
    )]
    NothingToLaunch,
    #[error("launch takes only one of \"class\", \"report\" and \"test\"")]
    TooMuchToLaunch,
}

fn string(args: &Value, key: &'static str) -> Result<Option<String>, ConfigError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.trim().to_string())),
        Some(_) => Err(ConfigError::NotAString(key)),
    }
}

fn boolean(args: &Value, key: &'static str) -> Result<Option<bool>, ConfigError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(ConfigError::NotABool(key)),
    }
}

impl LaunchConfig {
    /// Reads the arguments of `launch` (`attach` false) or `attach`.
    pub fn parse(args: &Value, attach: bool) -> Result<LaunchConfig, ConfigError> {
        let mode = if attach {
            Mode::Attach
        } else {
            let class = string(args, "class")?;
            let report = string(args, "report")?;
            let test = string(args, "test")?;
            let method = string(args, "method")?;
            match (class, report, test) {
                (Some(c), None, None) => Mode::Launch(Program::Class(c.to_uppercase())),
                (None, Some(r), None) => Mode::Launch(Program::Report(r.to_uppercase())),
                (None, None, Some(t)) => Mode::Launch(Program::Test {
                    class: t.to_uppercase(),
                    method: method.map(|m| m.to_uppercase()),
                }),
                (None, None, None) => return Err(ConfigError::NothingToLaunch),
                _ => return Err(ConfigError::TooMuchToLaunch),
            }
        };
        let source_roots = match args.get("sourceRoot") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::String(s)) => vec![PathBuf::from(s)],
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(PathBuf::from))
                .collect::<Option<Vec<_>>>()
                .ok_or(ConfigError::BadSourceRoot)?,
            Some(_) => return Err(ConfigError::BadSourceRoot),
        };
        Ok(LaunchConfig {
            terminate_on_disconnect: !attach,
            mode,
            profile: string(args, "profile")?,
            url: string(args, "url")?,
            user: string(args, "user")?,
            client: string(args, "client")?,
            language: string(args, "language")?,
            password: string(args, "password")?,
            allow_writes: boolean(args, "allowWrites")?.unwrap_or(false),
            system_debugging: boolean(args, "systemDebugging")?,
            take_over: boolean(args, "takeOver")?.unwrap_or(false),
            source_roots,
        })
    }

    /// The variable a configuration member stands for, when it sets one.
    fn overrides(&self, var: &str) -> Option<String> {
        match var {
            "ABAPDBG_URL" => self.url.clone(),
            "ABAPDBG_USER" => self.user.clone(),
            "ABAPDBG_CLIENT" => self.client.clone(),
            "ABAPDBG_LANGUAGE" => self.language.clone(),
            "ABAPDBG_PASSWORD" => self.password.clone(),
            // A session started for this configuration allows writes when it asks for them.
            "ABAPDBG_ALLOW_WRITES" if self.allow_writes => Some("true".into()),
            _ => None,
        }
    }

    /// The system, through `env` (the adapter's environment) with this configuration over it.
    pub fn target(
        &self,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Target, client::ProfileError> {
        Target::resolve(
            |k| self.overrides(k).or_else(|| env(k)),
            self.profile.as_deref(),
        )
    }
}
