//! Which system a front end means, and where that system's session listens.
//!
//! Everything comes from the *caller's* environment through a lookup function: in Nushell
//! that is `$env` as the engine reports it, not the plugin process's own environment.
//!
//! A setting comes from its `ABAPDBG_*` variable, else from the profile chosen (an explicit
//! name such as `--profile`, else `ABAPDBG_PROFILE`, else the config file's `default_profile`;
//! see [`crate::profile`]), else it is unset. No URL at all means the embedded simulator.
//! Secrets (password, bearer token, cookies) are only *located* here; commands that produce
//! them run in [`Target::credentials`], which only starting a session calls.

use std::path::{Path, PathBuf};

use crate::profile::{self, ConfigFile, PasswordFrom, Profile, ProfileError};

/// The settings a profile can give, by profile key, with the variable that overrides each.
/// A daemon started for a target gets the effective value of each as that variable.
const FIELDS: &[(&str, &str)] = &[
    ("url", "ABAPDBG_URL"),
    ("client", "ABAPDBG_CLIENT"),
    ("language", "ABAPDBG_LANGUAGE"),
    ("user", "ABAPDBG_USER"),
    ("client_certificate", "ABAPDBG_CLIENT_CERT"),
    ("ca_bundle", "ABAPDBG_CA_BUNDLE"),
    ("insecure", "ABAPDBG_INSECURE"),
    ("allow_writes", "ABAPDBG_ALLOW_WRITES"),
];

/// Variables a daemon started for a target gets as the caller has them: where sessions keep
/// their files and logs, the terminal id, where the config file is, and which certificate
/// authorities the platform's store holds (`SSL_CERT_*` replace it, as for OpenSSL).
const PASSED: &[&str] = &[
    "ABAPDBG_RUNTIME_DIR",
    "ABAPDBG_STATE_DIR",
    "ABAPDBG_TERMINAL_ID",
    "ABAPDBG_LOG",
    "ABAPDBG_SOURCE_CONTEXT",
    "ABAPDBG_CONFIG",
    "XDG_RUNTIME_DIR",
    "XDG_STATE_HOME",
    "XDG_CONFIG_HOME",
    "HOME",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
];

/// The variables that carry secrets to a daemon; set from [`Target::credentials`] only.
pub(crate) const SECRET_VARIABLES: [&str; 3] = [
    "ABAPDBG_PASSWORD",
    "ABAPDBG_BEARER_TOKEN",
    "ABAPDBG_COOKIES",
];

/// Where a secret is to be had.
#[derive(Clone, PartialEq, Eq)]
enum Secret {
    /// Known already: from a variable, or the file's cookies.
    Value(String),
    /// A shell command, run when a session is started.
    Command(String),
    /// `password_env` names this variable, and the caller has not set it.
    Unset(String),
}

/// A value and where it came from (`ABAPDBG_URL`, `profile dev`, …), for `abapdbg config`.
#[derive(Clone, PartialEq, Eq)]
struct Sourced<T> {
    value: T,
    source: String,
}

fn sourced<T>(value: T, source: impl Into<String>) -> Sourced<T> {
    Sourced {
        value,
        source: source.into(),
    }
}

/// One line of [`Target::setting_rows`]: a setting, its effective value (secrets redacted) and
/// where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    pub name: String,
    pub value: String,
    /// `env ABAPDBG_URL`, `profile dev`, `default`, …
    pub source: String,
}

/// The secrets a session logs on with, obtained by [`Target::credentials`].
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Credentials {
    pub password: Option<String>,
    pub bearer_token: Option<String>,
    pub cookies: Vec<(String, String)>,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("password", &self.password.as_ref().map(|_| "<redacted>"))
            .field(
                "bearer_token",
                &self.bearer_token.as_ref().map(|_| "<redacted>"),
            )
            .field(
                "cookies",
                &self
                    .cookies
                    .iter()
                    .map(|(n, _)| format!("{n}=<redacted>"))
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// The system a front end talks to, read from the caller's environment and config file.
#[derive(Clone, PartialEq, Eq)]
pub struct Target {
    /// Effective values of [`FIELDS`]' variables, the caller's [`PASSED`] ones, and
    /// `ABAPDBG_PROFILE` (the profile chosen): set and not blank.
    vars: Vec<(&'static str, String)>,
    /// Where each of [`FIELDS`] that is set came from, by profile key.
    sources: Vec<(&'static str, String)>,
    password: Option<Sourced<Secret>>,
    bearer_token: Option<Sourced<Secret>>,
    cookies: Option<Sourced<Vec<(String, String)>>>,
    /// The profile chosen and what chose it.
    profile: Option<Sourced<String>>,
    /// The config file looked at, what named it, and whether it exists.
    config: Option<(PathBuf, &'static str, bool)>,
    /// What was wrong with the configuration ([`Target::from_lookup`] keeps it here; sessions
    /// are not reached while it is set).
    problem: Option<ProfileError>,
    /// `ABAPDBG_BIN` of the caller, if set: the binary that starts sessions.
    pub(crate) bin: Option<PathBuf>,
}

// Secrets must never reach a log or an error message.
impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Target")
            .field("system", &self.describe())
            .finish_non_exhaustive()
    }
}

/// `true`/`false` in the spellings people use for a switch.
fn parse_bool(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

fn profile_field(p: &Profile, key: &str) -> Option<String> {
    let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
    let flag = |b: Option<bool>| b.map(|b| b.to_string());
    match key {
        "url" => p.url.clone(),
        "client" => p.client.clone(),
        "language" => p.language.clone(),
        "user" => p.user.clone(),
        "client_certificate" => path(&p.client_certificate),
        "ca_bundle" => path(&p.ca_bundle),
        "insecure" => flag(p.insecure),
        "allow_writes" => flag(p.allow_writes),
        _ => None,
    }
}

impl Target {
    /// Reads the target from the process environment (and the config file it points to).
    /// A configuration problem is kept and reported when a session is reached.
    pub fn from_process_env() -> Target {
        Target::from_lookup(|k| std::env::var(k).ok())
    }

    /// [`Target::resolve`] on the process environment: for the CLI's `--profile`.
    pub fn resolve_process_env(profile: Option<&str>) -> Result<Target, ProfileError> {
        Target::resolve(|k| std::env::var(k).ok(), profile)
    }

    /// Reads the target through `lookup` (a variable's value in the caller's environment),
    /// with the profile `ABAPDBG_PROFILE` or `default_profile` chooses. Never fails: when the
    /// configuration is wrong (a malformed file, an unknown profile) the target holds the
    /// variables alone and the error, which [`Target::problem`] tells and which connecting or
    /// starting a session returns. Use [`Target::resolve`] to get the error at once.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Target {
        let (mut target, problem) = Target::build(&lookup, None);
        target.problem = problem;
        target
    }

    /// Reads the target through `lookup` with the profile named by `profile` (e.g.
    /// `--profile`), else `ABAPDBG_PROFILE`, else the file's `default_profile`; each
    /// `ABAPDBG_*` variable overrides its field of the profile.
    pub fn resolve(
        lookup: impl Fn(&str) -> Option<String>,
        profile: Option<&str>,
    ) -> Result<Target, ProfileError> {
        match Target::build(&lookup, profile) {
            (_, Some(problem)) => Err(problem),
            (target, None) => Ok(target),
        }
    }

    /// The names of the profiles in the caller's config file, sorted (for completing
    /// `--profile`); none when there is no file or it cannot be read.
    pub fn profiles(lookup: impl Fn(&str) -> Option<String>) -> Vec<String> {
        let get = |k: &str| lookup(k).filter(|v| !v.trim().is_empty());
        let Some((path, explicit)) = profile::config_path(&get) else {
            return Vec::new();
        };
        let home = get("HOME").map(PathBuf::from);
        match profile::load(&path, explicit, home.as_deref()) {
            Ok(Some(file)) => profile::names(&file),
            _ => Vec::new(),
        }
    }

    /// The target, and the first configuration problem met on the way (the target then
    /// holds what could be read: the variables alone when the file or profile is at fault).
    fn build(
        lookup: &dyn Fn(&str) -> Option<String>,
        explicit: Option<&str>,
    ) -> (Target, Option<ProfileError>) {
        let get = |k: &str| lookup(k).filter(|v| !v.trim().is_empty());
        let mut problem: Option<ProfileError> = None;
        // The first problem is the one to tell.
        fn note(problem: &mut Option<ProfileError>, e: ProfileError) {
            problem.get_or_insert(e);
        }

        // The file and the profile.
        let located = profile::config_path(&get);
        let home = get("HOME").map(PathBuf::from);
        let mut file: Option<ConfigFile> = None;
        let mut config = None;
        if let Some((path, named)) = &located {
            let by = if *named {
                "ABAPDBG_CONFIG"
            } else if get("XDG_CONFIG_HOME").is_some() {
                "XDG_CONFIG_HOME"
            } else {
                "HOME"
            };
            match profile::load(path, *named, home.as_deref()) {
                Ok(f) => {
                    config = Some((path.clone(), by, f.is_some()));
                    file = f;
                }
                Err(e) => {
                    config = Some((path.clone(), by, path.exists()));
                    note(&mut problem, e);
                }
            }
        }
        let chosen =
            match explicit.map(str::trim).filter(|p| !p.is_empty()) {
                Some(name) => Some(sourced(name.to_string(), "--profile")),
                None => match get("ABAPDBG_PROFILE") {
                    Some(name) => Some(sourced(name.trim().to_string(), "env ABAPDBG_PROFILE")),
                    None => file.as_ref().and_then(|f| f.default_profile.as_ref()).map(
                        |(name, line)| {
                            sourced(name.clone(), format!("default_profile (line {line})"))
                        },
                    ),
                },
            };
        let mut profile: Option<&Profile> = None;
        let mut profile_name = None;
        if let Some(chosen) = &chosen
            && problem.is_none()
        {
            match file.as_ref().and_then(|f| f.profiles.get(&chosen.value)) {
                Some(p) => {
                    profile = Some(p);
                    profile_name = Some(chosen.clone());
                }
                None => note(
                    &mut problem,
                    ProfileError::UnknownProfile {
                        name: chosen.value.clone(),
                        chosen_by: chosen.source.trim_start_matches("env ").to_string(),
                        file: located.as_ref().map(|(p, _)| p.clone()),
                        known: file.as_ref().map(profile::names).unwrap_or_default(),
                    },
                ),
            }
        }
        let from_profile = |p: &str| format!("profile {p}");

        // The settings, variable over profile.
        let mut vars: Vec<(&'static str, String)> = Vec::new();
        let mut sources = Vec::new();
        for (key, var) in FIELDS {
            let value = match get(var) {
                Some(v) => Some((v, format!("env {var}"))),
                None => profile
                    .zip(profile_name.as_ref())
                    .and_then(|(p, n)| Some((profile_field(p, key)?, from_profile(&n.value)))),
            };
            let Some((mut value, source)) = value else {
                continue;
            };
            if matches!(*key, "insecure" | "allow_writes") {
                match parse_bool(&value) {
                    Some(b) => value = b.to_string(),
                    None => {
                        note(
                            &mut problem,
                            ProfileError::InvalidVariable {
                                variable: (*var).to_string(),
                                message: format!(
                                    "'{}' is not a switch: use true or false",
                                    value.escape_debug()
                                ),
                            },
                        );
                        continue;
                    }
                }
            }
            vars.push((var, value));
            sources.push((*key, source));
        }
        for var in PASSED {
            if let Some(v) = get(var) {
                vars.push((var, v));
            }
        }
        if let Some(p) = &profile_name {
            vars.push(("ABAPDBG_PROFILE", p.value.clone()));
        }

        // Where the secrets are.
        let pname = profile_name
            .as_ref()
            .map(|p| p.value.as_str())
            .unwrap_or("");
        let password = match get("ABAPDBG_PASSWORD") {
            Some(v) => Some(sourced(Secret::Value(v), "env ABAPDBG_PASSWORD")),
            None => match profile.and_then(|p| p.password.as_ref()) {
                Some(PasswordFrom::Command(c)) => Some(sourced(
                    Secret::Command(c.clone()),
                    format!("password_command of profile {pname}"),
                )),
                Some(PasswordFrom::Env(var)) => Some(sourced(
                    match get(var) {
                        Some(v) => Secret::Value(v),
                        None => Secret::Unset(var.clone()),
                    },
                    format!("password_env {var} of profile {pname}"),
                )),
                None => None,
            },
        };
        let bearer_token = match get("ABAPDBG_BEARER_TOKEN") {
            Some(v) => Some(sourced(Secret::Value(v), "env ABAPDBG_BEARER_TOKEN")),
            None => profile
                .and_then(|p| p.bearer_token_command.as_ref())
                .map(|c| {
                    sourced(
                        Secret::Command(c.clone()),
                        format!("bearer_token_command of profile {pname}"),
                    )
                }),
        };
        let cookies = match get("ABAPDBG_COOKIES") {
            Some(v) => match profile::parse_cookies(&v) {
                Ok(c) if !c.is_empty() => Some(sourced(c, "env ABAPDBG_COOKIES")),
                Ok(_) => None,
                Err(message) => {
                    note(
                        &mut problem,
                        ProfileError::InvalidVariable {
                            variable: "ABAPDBG_COOKIES".into(),
                            message,
                        },
                    );
                    None
                }
            },
            None => profile
                .and_then(|p| p.cookies.clone())
                .map(|c| sourced(c, from_profile(pname))),
        };
        let target = Target {
            vars,
            sources,
            password,
            bearer_token,
            cookies,
            profile: profile_name,
            config,
            problem: None,
            bin: get("ABAPDBG_BIN").map(PathBuf::from),
        };
        (target, problem)
    }

    pub(crate) fn var(&self, name: &str) -> Option<&str> {
        self.vars
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The system's URL; `None` means the embedded simulator.
    pub fn url(&self) -> Option<&str> {
        self.var("ABAPDBG_URL")
    }

    /// The logon user, as configured (the system sees it upper case).
    pub fn user(&self) -> Option<&str> {
        self.var("ABAPDBG_USER")
    }

    /// The SAP client, e.g. `001`.
    pub fn client(&self) -> Option<&str> {
        self.var("ABAPDBG_CLIENT")
    }

    /// The logon language, e.g. `EN`.
    pub fn language(&self) -> Option<&str> {
        self.var("ABAPDBG_LANGUAGE")
    }

    /// PEM file with the client certificate and its key (X.509 logon).
    pub fn client_certificate(&self) -> Option<&Path> {
        self.var("ABAPDBG_CLIENT_CERT").map(Path::new)
    }

    /// PEM file with more trusted CA certificates.
    pub fn ca_bundle(&self) -> Option<&Path> {
        self.var("ABAPDBG_CA_BUNDLE").map(Path::new)
    }

    /// Whether server certificates are accepted unchecked.
    pub fn insecure(&self) -> bool {
        self.var("ABAPDBG_INSECURE") == Some("true")
    }

    /// Whether write actions (`set`, `jump_to_line`) are allowed.
    pub fn allow_writes(&self) -> bool {
        self.var("ABAPDBG_ALLOW_WRITES") == Some("true")
    }

    /// The profile in effect, if any.
    pub fn profile(&self) -> Option<&str> {
        self.profile.as_ref().map(|p| p.value.as_str())
    }

    /// The config file looked at (it may not exist).
    pub fn config_file(&self) -> Option<&Path> {
        self.config.as_ref().map(|(p, _, _)| p.as_path())
    }

    /// What is wrong with the configuration, when this target came from
    /// [`Target::from_lookup`] and something is.
    pub fn problem(&self) -> Option<&ProfileError> {
        self.problem.as_ref()
    }

    /// The secrets to log on with: runs `password_command` and `bearer_token_command` now.
    /// Only starting a session needs them (`serve` and [`crate::Session::connect_or_start`]
    /// when no session runs); connecting to a running one never does.
    pub fn credentials(&self) -> Result<Credentials, ProfileError> {
        if let Some(p) = &self.problem {
            return Err(p.clone());
        }
        let obtain = |what: &str, s: &Sourced<Secret>| match &s.value {
            Secret::Value(v) => Ok(v.clone()),
            Secret::Command(c) => {
                profile::run_secret_command(c).map_err(|reason| ProfileError::Credentials {
                    what: what.into(),
                    from: s.source.clone(),
                    reason,
                })
            }
            Secret::Unset(var) => Err(ProfileError::Credentials {
                what: what.into(),
                from: s.source.clone(),
                reason: format!("{var} is not set"),
            }),
        };
        Ok(Credentials {
            password: self
                .password
                .as_ref()
                .map(|s| obtain("password", s))
                .transpose()?,
            bearer_token: self
                .bearer_token
                .as_ref()
                .map(|s| obtain("bearer token", s))
                .transpose()?,
            cookies: self
                .cookies
                .as_ref()
                .map(|c| c.value.clone())
                .unwrap_or_default(),
        })
    }

    /// The environment of a daemon started for this target: every variable it reads, set to
    /// the effective value or removed (so the starting process's own environment cannot
    /// change which system it serves), the secrets from `credentials`.
    pub(crate) fn daemon_env(
        &self,
        credentials: &Credentials,
    ) -> Vec<(&'static str, Option<String>)> {
        let mut env: Vec<(&'static str, Option<String>)> = FIELDS
            .iter()
            .map(|(_, var)| *var)
            .chain(PASSED.iter().copied())
            .chain(["ABAPDBG_PROFILE"])
            .map(|var| (var, self.var(var).map(str::to_string)))
            .collect();
        let cookies =
            (!credentials.cookies.is_empty()).then(|| profile::cookie_header(&credentials.cookies));
        let [password, bearer, jar] = SECRET_VARIABLES;
        env.push((password, credentials.password.clone()));
        env.push((bearer, credentials.bearer_token.clone()));
        env.push((jar, cookies));
        env
    }

    /// `user@url (client c)`, or "the embedded simulator", with the profile: for messages
    /// and status lines.
    pub fn describe(&self) -> String {
        let system = match self.url() {
            None => "the embedded simulator".to_string(),
            Some(url) => {
                let user = self.user().unwrap_or("?");
                match self.client() {
                    Some(c) => format!("{user}@{url} (client {c})"),
                    None => format!("{user}@{url}"),
                }
            }
        };
        match self.profile() {
            Some(p) => format!("{system}, profile {p}"),
            None => system,
        }
    }

    /// The effective settings, each with where it came from; secrets redacted (for
    /// `abapdbg config`).
    pub fn setting_rows(&self) -> Vec<Setting> {
        let row = |name: &str, value: String, source: &str| Setting {
            name: name.to_string(),
            value,
            source: source.to_string(),
        };
        let mut rows = Vec::new();
        rows.push(match &self.config {
            Some((path, by, found)) => row(
                "config",
                if *found {
                    path.display().to_string()
                } else {
                    format!("{} (not found)", path.display())
                },
                &format!("env {by}"),
            ),
            None => row("config", "(none: HOME is not set)".into(), "default"),
        });
        rows.push(match &self.profile {
            Some(p) => row("profile", p.value.clone(), &p.source),
            None => row("profile", "(none)".into(), "default"),
        });
        rows.push(row("system", self.describe(), "derived"));
        for (key, var) in FIELDS {
            let source = self.sources.iter().find(|(k, _)| k == key);
            rows.push(match (self.var(var), source) {
                (Some("true"), Some((_, s))) if *key == "insecure" => {
                    row(key, "true (server certificates are not checked)".into(), s)
                }
                (Some(v), Some((_, s))) => row(key, v.to_string(), s),
                _ => row(
                    key,
                    match *key {
                        "url" => "(none: the embedded simulator)".into(),
                        "insecure" | "allow_writes" => "false".into(),
                        _ => "(not set)".into(),
                    },
                    "default",
                ),
            });
            if *key == "user" {
                for (name, secret) in [
                    ("password", &self.password),
                    ("bearer_token", &self.bearer_token),
                ] {
                    rows.push(match secret {
                        None => row(name, "(not set)".into(), "default"),
                        Some(s) => row(
                            name,
                            match &s.value {
                                Secret::Value(_) => "<redacted>".into(),
                                Secret::Command(_) => {
                                    "<from a command, run when a session starts>".into()
                                }
                                Secret::Unset(var) => format!("(not set: {var} is empty)"),
                            },
                            &s.source,
                        ),
                    });
                }
                rows.push(match &self.cookies {
                    None => row("cookies", "(not set)".into(), "default"),
                    Some(c) => row(
                        "cookies",
                        c.value
                            .iter()
                            .map(|(n, _)| format!("{n}=<redacted>"))
                            .collect::<Vec<_>>()
                            .join("; "),
                        &c.source,
                    ),
                });
            }
        }
        if let Some(socket) = self.socket_path() {
            rows.push(row("socket", socket.display().to_string(), "derived"));
        }
        if let Some(p) = &self.problem {
            rows.push(row("problem", p.to_string(), p.code()));
        }
        rows
    }

    /// The effective settings as `(name, "value (source)")`, secrets redacted.
    pub fn settings(&self) -> Vec<(String, String)> {
        self.setting_rows()
            .into_iter()
            .map(|s| (s.name, format!("{} ({})", s.value, s.source)))
            .collect()
    }

    /// The session's Unix socket: in [`socket_dir`], one file per system URL, client and user.
    pub fn socket_path(&self) -> Option<PathBuf> {
        let dir = socket_dir(|k| self.var(k).map(str::to_string))?;
        let key = profile_key(
            self.url(),
            self.var("ABAPDBG_CLIENT"),
            self.var("ABAPDBG_USER").unwrap_or_default(),
        );
        Some(dir.join(jsonl::paths::socket_file(&key)))
    }

    /// The record a session of this system keeps of what it holds on it (the engine's state
    /// file), by the rule `serve` names it by: left behind by a session that was killed, it
    /// says the next start has something to release. `None` for the embedded simulator.
    pub fn state_file_path(&self) -> Option<PathBuf> {
        self.url()?;
        let key = profile_key(
            self.url(),
            self.var("ABAPDBG_CLIENT"),
            self.var("ABAPDBG_USER").unwrap_or_default(),
        );
        Some(self.state_dir()?.join(format!("session-{key}.json")))
    }

    /// Where sessions keep their records and logs: see [`state_dir`].
    pub fn state_dir(&self) -> Option<PathBuf> {
        state_dir(|k| self.var(k).map(str::to_string))
    }
}

/// The name of the directory abapdbg makes for itself in a runtime or state directory. It is
/// the only directory whose mode abapdbg sets (0700): the one named by a variable may be
/// shared (`/tmp`) and stays as it is.
pub const OWN_DIR: &str = "abapdbg";

/// Where session sockets live: `$ABAPDBG_RUNTIME_DIR/abapdbg`, else
/// `$XDG_RUNTIME_DIR/abapdbg`, else the [`state_dir`]. `var` reads a variable (the caller's
/// environment). `serve` opens its socket here and every front end looks for it here: this
/// is the one rule.
pub fn socket_dir(var: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let set = |k: &str| var(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    set("ABAPDBG_RUNTIME_DIR")
        .or_else(|| set("XDG_RUNTIME_DIR"))
        .map(|d| d.join(OWN_DIR))
        .or_else(|| state_dir(var))
}

/// Where sessions keep their state files and logs: `$ABAPDBG_STATE_DIR/abapdbg`, else
/// `$XDG_STATE_HOME/abapdbg`, else `~/.local/state/abapdbg`.
pub fn state_dir(var: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let set = |k: &str| var(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    set("ABAPDBG_STATE_DIR")
        .or_else(|| set("XDG_STATE_HOME"))
        .or_else(|| set("HOME").map(|d| d.join(".local/state")))
        .map(|d| d.join(OWN_DIR))
}

/// The name that tells one session's files from another's: a hash of the system URL, client
/// and user, or `embedded` for the embedded simulator (there is one per user and machine).
/// `serve` names its socket and state file with this too, so both sides always agree.
pub fn profile_key(url: Option<&str>, client: Option<&str>, user: &str) -> String {
    match url {
        None => "embedded".into(),
        Some(url) => {
            let key = format!(
                "{}|{}|{}",
                url.trim().trim_end_matches('/').to_lowercase(),
                client.map(str::trim).unwrap_or(""),
                user.trim().to_uppercase()
            );
            format!("{:016x}", fnv1a(key.as_bytes()))
        }
    }
}

/// FNV-1a, 64 bit: a hash whose value never changes between builds (file names depend on it).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
    }

    fn target(pairs: &[(&str, &str)]) -> Target {
        Target::from_lookup(lookup(pairs))
    }

    /// A config file with `text` in a directory of its own; removed on drop.
    struct Config(PathBuf);

    impl Config {
        fn new(name: &str, text: &str) -> Config {
            let dir =
                std::env::temp_dir().join(format!("abapdbg-target-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("temp dir");
            std::fs::write(dir.join("config.toml"), text).expect("write config");
            Config(dir)
        }
        fn file(&self) -> String {
            self.0.join("config.toml").display().to_string()
        }
        fn dir(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Config {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    const PROFILES: &str = r#"
default_profile = "dev"

[profiles.dev]
url = "http://dev:8000"
client = "001"
user = "developer"
password_env = "DEV_PW"
allow_writes = true

[profiles.qa]
url = "https://qa:44300"
user = "tester"
language = "DE"
password_command = "printf qa-pw"
cookies = ["MYSAPSSO2=sso-secret"]
ca_bundle = "ca.pem"
insecure = true

[profiles.sim]
"#;

    #[test]
    fn the_hash_is_stable() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn one_socket_per_system_client_and_user() {
        let a = target(&[
            ("ABAPDBG_URL", "http://h:1/"),
            ("ABAPDBG_USER", "dev"),
            ("HOME", "/home/x"),
        ]);
        let b = target(&[
            ("ABAPDBG_URL", "http://H:1"),
            ("ABAPDBG_USER", "DEV"),
            ("HOME", "/home/x"),
        ]);
        let other = target(&[
            ("ABAPDBG_URL", "http://h:2"),
            ("ABAPDBG_USER", "DEV"),
            ("HOME", "/home/x"),
        ]);
        assert_eq!(a.socket_path(), b.socket_path());
        assert_ne!(a.socket_path(), other.socket_path());
    }

    #[test]
    fn runtime_directories_in_order() {
        let t = target(&[
            ("ABAPDBG_RUNTIME_DIR", "/r"),
            ("XDG_RUNTIME_DIR", "/x"),
            ("HOME", "/nonexistent-home"),
        ]);
        assert_eq!(
            t.socket_path(),
            Some(PathBuf::from("/r/abapdbg/session-embedded.sock"))
        );
        let t = target(&[("XDG_RUNTIME_DIR", "/x"), ("HOME", "/nonexistent-home")]);
        assert_eq!(
            t.socket_path(),
            Some(PathBuf::from("/x/abapdbg/session-embedded.sock"))
        );
        let t = target(&[("HOME", "/nonexistent-home"), ("ABAPDBG_URL", "   ")]);
        assert_eq!(
            t.socket_path(),
            Some(PathBuf::from(
                "/nonexistent-home/.local/state/abapdbg/session-embedded.sock"
            ))
        );
        assert_eq!(target(&[]).socket_path(), None);
    }

    #[test]
    fn debug_output_never_shows_the_password() {
        let t = target(&[("ABAPDBG_URL", "http://h"), ("ABAPDBG_PASSWORD", "s3cret!")]);
        assert!(!format!("{t:?}").contains("s3cret!"));
    }

    #[test]
    fn nothing_configured_is_the_embedded_simulator() {
        let t = Target::resolve(lookup(&[("HOME", "/nonexistent-home")]), None).expect("ok");
        assert_eq!(t.url(), None);
        assert_eq!(t.profile(), None);
        assert_eq!(t.describe(), "the embedded simulator");
        let settings = t.settings();
        assert!(
            settings
                .iter()
                .any(|(k, v)| k == "url" && v.contains("embedded simulator")),
            "{settings:?}"
        );
        assert!(
            settings
                .iter()
                .any(|(k, v)| k == "config" && v.contains("(not found)")),
            "{settings:?}"
        );
        assert_eq!(t.credentials(), Ok(Credentials::default()));
    }

    #[test]
    fn the_profile_is_chosen_by_name_then_variable_then_default() {
        let c = Config::new("choose", PROFILES);
        let base = [
            ("ABAPDBG_CONFIG", c.file()),
            ("ABAPDBG_RUNTIME_DIR", "/r".to_string()),
        ];
        let with = |extra: &[(&str, &str)]| {
            let mut v: Vec<(&str, &str)> = base.iter().map(|(k, v)| (*k, v.as_str())).collect();
            v.extend_from_slice(extra);
            lookup(&v)
        };
        // default_profile
        let t = Target::resolve(with(&[]), None).expect("ok");
        assert_eq!(t.profile(), Some("dev"));
        assert_eq!(t.url(), Some("http://dev:8000"));
        assert_eq!(
            t.describe(),
            "developer@http://dev:8000 (client 001), profile dev"
        );
        assert!(t.allow_writes());
        // ABAPDBG_PROFILE over default_profile
        let t = Target::resolve(with(&[("ABAPDBG_PROFILE", "qa")]), None).expect("ok");
        assert_eq!(t.profile(), Some("qa"));
        assert_eq!(t.language(), Some("DE"));
        assert!(t.insecure() && !t.allow_writes());
        assert_eq!(t.ca_bundle(), Some(c.dir().join("ca.pem").as_path()));
        // the name given over ABAPDBG_PROFILE
        let t = Target::resolve(with(&[("ABAPDBG_PROFILE", "qa")]), Some("dev")).expect("ok");
        assert_eq!(t.profile(), Some("dev"));
        // from_lookup follows ABAPDBG_PROFILE too (what the plugin calls)
        let t = Target::from_lookup(with(&[("ABAPDBG_PROFILE", "qa")]));
        assert_eq!((t.profile(), t.problem()), (Some("qa"), None));
        // a profile without a URL is the embedded simulator
        let t = Target::resolve(with(&[]), Some("sim")).expect("ok");
        assert_eq!(t.describe(), "the embedded simulator, profile sim");
        assert_eq!(
            t.socket_path()
                .and_then(|p| p.file_name().map(|f| f.to_owned())),
            Some("session-embedded.sock".into())
        );
        assert_eq!(Target::profiles(with(&[])), ["dev", "qa", "sim"]);
        assert!(Target::profiles(lookup(&[])).is_empty());
    }

    #[test]
    fn variables_override_the_profile_field_by_field() {
        let c = Config::new("override", PROFILES);
        let file = c.file();
        let t = Target::resolve(
            lookup(&[
                ("ABAPDBG_CONFIG", &file),
                ("ABAPDBG_USER", "other"),
                ("ABAPDBG_ALLOW_WRITES", "no"),
                ("ABAPDBG_PASSWORD", "from-env"),
            ]),
            Some("dev"),
        )
        .expect("ok");
        assert_eq!(t.url(), Some("http://dev:8000"));
        assert_eq!(t.user(), Some("other"));
        assert!(!t.allow_writes());
        assert_eq!(
            t.credentials().map(|c| c.password),
            Ok(Some("from-env".into()))
        );
        let rows = t.setting_rows();
        let source = |name: &str| {
            rows.iter()
                .find(|r| r.name == name)
                .map(|r| r.source.clone())
                .unwrap_or_default()
        };
        assert_eq!(source("url"), "profile dev");
        assert_eq!(source("user"), "env ABAPDBG_USER");
        assert_eq!(source("password"), "env ABAPDBG_PASSWORD");
        assert_eq!(source("language"), "default");
        assert_eq!(source("profile"), "--profile");
    }

    #[test]
    fn a_session_is_found_whether_chosen_by_profile_or_by_variables() {
        let c = Config::new("same-socket", PROFILES);
        let file = c.file();
        let by_profile = Target::resolve(
            lookup(&[("ABAPDBG_CONFIG", &file), ("ABAPDBG_RUNTIME_DIR", "/r")]),
            Some("dev"),
        )
        .expect("ok");
        let by_variables = Target::resolve(
            lookup(&[
                ("ABAPDBG_URL", "http://dev:8000/"),
                ("ABAPDBG_CLIENT", "001"),
                ("ABAPDBG_USER", "DEVELOPER"),
                ("ABAPDBG_RUNTIME_DIR", "/r"),
            ]),
            None,
        )
        .expect("ok");
        assert!(by_profile.socket_path().is_some());
        assert_eq!(by_profile.socket_path(), by_variables.socket_path());
    }

    #[test]
    fn secrets_are_obtained_only_when_asked_and_never_shown() {
        let c = Config::new("secrets", "");
        let runs = c.dir().join("runs");
        let text = format!(
            "[profiles.p]\nurl = \"http://h\"\nuser = \"u\"\npassword_command = \"echo run >> '{}'; printf cmd-secret\"\nbearer_token_command = \"printf token-secret\"\ncookie = \"A=cookie-secret\"\n",
            runs.display()
        );
        std::fs::write(c.file(), text).expect("write");
        let file = c.file();
        let t = Target::resolve(lookup(&[("ABAPDBG_CONFIG", &file)]), Some("p")).expect("ok");
        let shown = format!("{t:?} {:?} {:?}", t.settings(), t.setting_rows());
        assert!(!runs.exists(), "resolving ran the password command");
        for secret in ["cmd-secret", "token-secret", "cookie-secret"] {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
        assert!(shown.contains("A=<redacted>"), "{shown}");
        let creds = t.credentials().expect("credentials");
        assert_eq!(creds.password.as_deref(), Some("cmd-secret"));
        assert_eq!(creds.bearer_token.as_deref(), Some("token-secret"));
        assert_eq!(
            creds.cookies,
            [("A".to_string(), "cookie-secret".to_string())]
        );
        assert_eq!(std::fs::read_to_string(&runs).expect("runs"), "run\n");
        assert!(!format!("{creds:?}").contains("secret"), "{creds:?}");
        // The daemon gets every setting and secret as a variable; what is unset is removed.
        let env = t.daemon_env(&creds);
        let get = |k: &str| env.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone());
        assert_eq!(get("ABAPDBG_PASSWORD"), Some(Some("cmd-secret".into())));
        assert_eq!(
            get("ABAPDBG_BEARER_TOKEN"),
            Some(Some("token-secret".into()))
        );
        assert_eq!(get("ABAPDBG_COOKIES"), Some(Some("A=cookie-secret".into())));
        assert_eq!(get("ABAPDBG_PROFILE"), Some(Some("p".into())));
        assert_eq!(get("ABAPDBG_URL"), Some(Some("http://h".into())));
        assert_eq!(get("ABAPDBG_CONFIG"), Some(Some(file.clone())));
        assert_eq!(get("ABAPDBG_CLIENT"), Some(None));
        assert_eq!(get("HOME"), Some(None));
    }

    #[test]
    fn password_env_is_read_from_the_callers_environment() {
        let c = Config::new("pwenv", PROFILES);
        let file = c.file();
        let t = Target::resolve(
            lookup(&[("ABAPDBG_CONFIG", &file), ("DEV_PW", "pw-from-var")]),
            None,
        )
        .expect("ok");
        assert_eq!(
            t.credentials().map(|c| c.password),
            Ok(Some("pw-from-var".into()))
        );
        // Unset: resolving works (a running session needs no password), starting does not.
        let t = Target::resolve(lookup(&[("ABAPDBG_CONFIG", &file)]), None).expect("ok");
        let err = t.credentials().expect_err("no password");
        assert_eq!(err.code(), "auth.credentials_unavailable");
        let text = err.to_string();
        assert!(
            text.contains("DEV_PW") && text.contains("profile dev"),
            "{text}"
        );
    }

    #[test]
    fn a_failing_password_command_says_which_and_why() {
        let c = Config::new(
            "pwfail",
            "[profiles.p]\nurl = \"http://h\"\npassword_command = \"echo 'no key' >&2; exit 2\"\n",
        );
        let file = c.file();
        let t = Target::resolve(lookup(&[("ABAPDBG_CONFIG", &file)]), Some("p")).expect("ok");
        let err = t.credentials().expect_err("fails");
        let text = err.to_string();
        assert!(text.contains("password_command of profile p"), "{text}");
        assert!(text.contains("no key"), "{text}");
    }

    #[test]
    fn configuration_errors_are_typed_and_say_where() {
        let c = Config::new("errors", PROFILES);
        let file = c.file();
        // An unknown profile names the file and the profiles it has.
        let err = Target::resolve(lookup(&[("ABAPDBG_CONFIG", &file)]), Some("prod"))
            .expect_err("unknown");
        match &err {
            ProfileError::UnknownProfile {
                name,
                chosen_by,
                known,
                ..
            } => {
                assert_eq!((name.as_str(), chosen_by.as_str()), ("prod", "--profile"));
                assert_eq!(known, &["dev", "qa", "sim"]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(err.code(), "config.unknown_profile");
        assert!(err.to_string().contains(&file), "{err}");
        let err = Target::resolve(
            lookup(&[("ABAPDBG_CONFIG", &file), ("ABAPDBG_PROFILE", "x")]),
            None,
        )
        .expect_err("unknown");
        assert!(err.to_string().contains("ABAPDBG_PROFILE"), "{err}");
        // A profile named with no config file at all.
        let err = Target::resolve(lookup(&[("HOME", "/nonexistent-home")]), Some("dev"))
            .expect_err("no file");
        assert!(
            err.to_string()
                .contains("/nonexistent-home/.config/abapdbg/config.toml"),
            "{err}"
        );
        // A default_profile that is not there.
        std::fs::write(c.file(), "default_profile = \"gone\"\n[profiles.a]\n").expect("write");
        let err = Target::resolve(lookup(&[("ABAPDBG_CONFIG", &file)]), None).expect_err("gone");
        assert!(
            err.to_string().contains("default_profile (line 1)"),
            "{err}"
        );
        // A malformed file: from_lookup keeps the variables and the problem, and the problem
        // stops credentials (so no session is started on the wrong system).
        std::fs::write(c.file(), "[profiles.a]\nurl = \n").expect("write");
        let t = Target::from_lookup(lookup(&[
            ("ABAPDBG_CONFIG", &file),
            ("ABAPDBG_URL", "http://h"),
        ]));
        assert_eq!(t.url(), Some("http://h"));
        let problem = t.problem().expect("a problem").clone();
        assert!(matches!(
            problem,
            ProfileError::Malformed { line: Some(2), .. }
        ));
        assert_eq!(t.credentials(), Err(problem));
        assert!(t.settings().iter().any(|(k, _)| k == "problem"));
        // Bad switches in variables.
        let err = Target::resolve(lookup(&[("ABAPDBG_INSECURE", "maybe")]), None)
            .expect_err("bad switch");
        assert_eq!(err.code(), "config.invalid_variable");
        assert!(err.to_string().contains("ABAPDBG_INSECURE"), "{err}");
        let err = Target::resolve(lookup(&[("ABAPDBG_COOKIES", "A=secret-1; B")]), None)
            .expect_err("bad cookies");
        assert!(!err.to_string().contains("secret-1"), "{err}");
        // A named file that does not exist.
        let err = Target::resolve(lookup(&[("ABAPDBG_CONFIG", "/nonexistent/c.toml")]), None)
            .expect_err("missing");
        assert!(matches!(err, ProfileError::Read { .. }), "{err:?}");
    }

    #[test]
    fn a_password_in_the_file_is_refused() {
        let c = Config::new(
            "pwfile",
            "[profiles.a]\nurl = \"http://h\"\npassword = \"pw\"\n",
        );
        let file = c.file();
        let err =
            Target::resolve(lookup(&[("ABAPDBG_CONFIG", &file)]), Some("a")).expect_err("refused");
        assert!(
            matches!(err, ProfileError::PasswordInFile { line: 3, .. }),
            "{err:?}"
        );
    }
}
