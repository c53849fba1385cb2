//! Named profiles: `config.toml` says what a name such as `dev` stands for (system, client,
//! user, where the password comes from, TLS settings), so nobody types those each time.
//!
//! ```toml
//! default_profile = "dev"
//!
//! [profiles.dev]
//! url = "https://dev.example.com:44300"
//! client = "001"
//! user = "DEVELOPER"
//! password_command = "pass show sap/dev"
//! ```
//!
//! The file is found through the caller's environment: `$ABAPDBG_CONFIG`, else
//! `$XDG_CONFIG_HOME/abapdbg/config.toml`, else `~/.config/abapdbg/config.toml`. A password
//! is never read from it: `password_command` (a command whose first line of output is the
//! password) or `password_env` (the name of a variable that holds it) say where it comes from,
//! and both are asked only when a session has to be started ([`crate::Target::credentials`]).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;
use toml::Spanned;

/// Largest config file read: a profile file is a few hundred bytes.
const MAX_FILE_BYTES: u64 = 1 << 20;

/// How long a `password_command` or `bearer_token_command` may take (it may ask for a
/// passphrase on the terminal).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(120);

/// What can be wrong with the configuration: the file, the profile chosen, a variable, or
/// getting a secret. Every message names where (file and line, key or variable) and what to do;
/// none carries a secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    /// The file exists but cannot be read (or `$ABAPDBG_CONFIG` names one that does not exist).
    #[error("cannot read the config file {}: {reason}", file.display())]
    Read { file: PathBuf, reason: String },
    /// Not TOML, or a key or value of the wrong kind.
    #[error("{}{}: {message} (fix the file: see README, \"Profiles\")", file.display(), at(*line, *column))]
    Malformed {
        file: PathBuf,
        line: Option<usize>,
        column: Option<usize>,
        message: String,
    },
    /// A value the file may hold, but not this one.
    #[error("{}{}: {key}: {message}", file.display(), at(Some(*line), None))]
    Invalid {
        file: PathBuf,
        line: usize,
        /// The key with its table, e.g. `profiles.dev.url`.
        key: String,
        /// What is wrong and what to write instead.
        message: String,
    },
    /// A `password` key: passwords are never kept in the file.
    #[error(
        "{}{}: {key}: abapdbg never reads a password from the config file; remove it and use \
         password_command (a command that prints the password, e.g. \"pass show sap/dev\") or \
         password_env (the name of a variable that holds it)",
        file.display(), at(Some(*line), None)
    )]
    PasswordInFile {
        file: PathBuf,
        line: usize,
        key: String,
    },
    /// The profile chosen is not in the file (or there is no file).
    #[error("{}", unknown_profile(name, chosen_by, file.as_deref(), known))]
    UnknownProfile {
        name: String,
        /// `--profile`, `ABAPDBG_PROFILE` or `default_profile (line N)`.
        chosen_by: String,
        /// The file looked at; `None` when no config file could be placed (no HOME).
        file: Option<PathBuf>,
        /// The profiles the file has.
        known: Vec<String>,
    },
    /// An `ABAPDBG_*` variable with a value we cannot use.
    #[error("{variable}: {message}")]
    InvalidVariable { variable: String, message: String },
    /// A secret could not be had: the command failed, printed nothing, or the variable named
    /// by `password_env` is not set.
    #[error("cannot get the {what} from {from}: {reason}")]
    Credentials {
        /// `password` or `bearer token`.
        what: String,
        /// e.g. `password_command of profile dev`.
        from: String,
        reason: String,
    },
}

fn at(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!(", line {l}, column {c}"),
        (Some(l), None) => format!(", line {l}"),
        _ => String::new(),
    }
}

fn unknown_profile(name: &str, chosen_by: &str, file: Option<&Path>, known: &[String]) -> String {
    let Some(file) = file else {
        return format!(
            "no profile '{name}' (chosen by {chosen_by}): there is no config file (set HOME, \
             XDG_CONFIG_HOME or ABAPDBG_CONFIG)"
        );
    };
    if known.is_empty() {
        format!(
            "no profile '{name}' (chosen by {chosen_by}): {} has no profiles; add \
             [profiles.{}] there, or unset {chosen_by}",
            file.display(),
            toml_key(name)
        )
    } else {
        format!(
            "no profile '{name}' (chosen by {chosen_by}) in {}; it has {}",
            file.display(),
            known.join(", ")
        )
    }
}

/// `name` as a TOML key: bare when it can be, quoted otherwise.
fn toml_key(name: &str) -> String {
    let bare = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare {
        name.to_string()
    } else {
        format!("{name:?}")
    }
}

impl ProfileError {
    /// A stable code in the protocol's families: `config.*` for the file and the profile
    /// chosen, `auth.credentials_unavailable` when a secret could not be had.
    pub fn code(&self) -> &'static str {
        match self {
            ProfileError::UnknownProfile { .. } => "config.unknown_profile",
            ProfileError::Credentials { .. } => "auth.credentials_unavailable",
            ProfileError::InvalidVariable { .. } => "config.invalid_variable",
            _ => "config.invalid",
        }
    }

    /// What to do next, in one sentence.
    pub fn hint(&self) -> Option<String> {
        Some(match self {
            ProfileError::Read { .. } => {
                "make it a readable regular file, or point ABAPDBG_CONFIG at another file".into()
            }
            ProfileError::Malformed { .. }
            | ProfileError::Invalid { .. }
            | ProfileError::PasswordInFile { .. } => {
                "edit the config file at the line named; 'abapdbg config' shows what is in effect"
                    .into()
            }
            ProfileError::UnknownProfile { known, .. } if !known.is_empty() => {
                format!("use one of: {}", known.join(", "))
            }
            ProfileError::UnknownProfile { .. } => {
                "add the profile to the config file, or choose none to use the variables alone"
                    .into()
            }
            ProfileError::InvalidVariable { .. } => "correct or unset the variable".into(),
            ProfileError::Credentials { .. } => {
                "run the profile's password_command by hand to see what it says, or set \
                 ABAPDBG_PASSWORD"
                    .into()
            }
        })
    }
}

/// Where the config file is, from the caller's environment, and whether the caller named it
/// (`$ABAPDBG_CONFIG`: then it must exist).
pub(crate) fn config_path(get: &dyn Fn(&str) -> Option<String>) -> Option<(PathBuf, bool)> {
    if let Some(p) = get("ABAPDBG_CONFIG") {
        return Some((PathBuf::from(p), true));
    }
    if let Some(d) = get("XDG_CONFIG_HOME") {
        return Some((PathBuf::from(d).join("abapdbg/config.toml"), false));
    }
    get("HOME").map(|h| (PathBuf::from(h).join(".config/abapdbg/config.toml"), false))
}

/// Where a profile's password comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PasswordFrom {
    /// A shell command; the first line it prints.
    Command(String),
    /// The value of this variable in the caller's environment.
    Env(String),
}

/// One profile of the file, checked.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Profile {
    pub(crate) url: Option<String>,
    pub(crate) client: Option<String>,
    pub(crate) language: Option<String>,
    pub(crate) user: Option<String>,
    pub(crate) password: Option<PasswordFrom>,
    pub(crate) bearer_token_command: Option<String>,
    pub(crate) cookies: Option<Vec<(String, String)>>,
    pub(crate) client_certificate: Option<PathBuf>,
    pub(crate) ca_bundle: Option<PathBuf>,
    pub(crate) insecure: Option<bool>,
    pub(crate) allow_writes: Option<bool>,
}

// Cookies are secrets.
impl std::fmt::Debug for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Profile")
            .field("url", &self.url)
            .field("user", &self.user)
            .field("client", &self.client)
            .finish_non_exhaustive()
    }
}

/// The config file, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConfigFile {
    pub(crate) path: PathBuf,
    /// `default_profile` and its line.
    pub(crate) default_profile: Option<(String, usize)>,
    pub(crate) profiles: BTreeMap<String, Profile>,
}

/// Reads and checks the file at `path`. A file that is not there is no error unless the
/// caller named it (`explicit`); `home` expands `~/` in paths.
pub(crate) fn load(
    path: &Path,
    explicit: bool,
    home: Option<&Path>,
) -> Result<Option<ConfigFile>, ProfileError> {
    let read_error = |reason: String| ProfileError::Read {
        file: path.to_path_buf(),
        reason,
    };
    // Only a regular file, and a bounded read: a FIFO there would hang every command.
    let bytes = match crate::regular_file::read_regular(path, MAX_FILE_BYTES) {
        Ok(b) => b,
        Err(e) if e.is_not_found() && !explicit => return Ok(None),
        Err(e) if e.is_not_found() => {
            return Err(read_error(
                "it does not exist (ABAPDBG_CONFIG names it); create it or unset ABAPDBG_CONFIG"
                    .into(),
            ));
        }
        Err(e) => return Err(read_error(e.to_string())),
    };
    let text = String::from_utf8(bytes).map_err(|e| ProfileError::Malformed {
        file: path.to_path_buf(),
        line: None,
        column: None,
        message: format!("not UTF-8 (byte {})", e.utf8_error().valid_up_to()),
    })?;
    parse(&text, path, home).map(Some)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    default_profile: Option<Spanned<String>>,
    #[serde(default)]
    profiles: BTreeMap<String, RawProfile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfile {
    url: Option<Spanned<String>>,
    client: Option<Spanned<String>>,
    language: Option<Spanned<String>>,
    user: Option<Spanned<String>>,
    /// Refused whatever it holds; known here so the refusal can name its line.
    password: Option<Spanned<serde::de::IgnoredAny>>,
    password_command: Option<Spanned<String>>,
    password_env: Option<Spanned<String>>,
    bearer_token_command: Option<Spanned<String>>,
    cookie: Option<Spanned<Cookies>>,
    cookies: Option<Spanned<Cookies>>,
    client_certificate: Option<Spanned<String>>,
    ca_bundle: Option<Spanned<String>>,
    insecure: Option<bool>,
    allow_writes: Option<bool>,
}

/// `"A=1; B=2"`, `["A=1", "B=2"]` or `{ A = "1", B = "2" }`.
#[derive(Deserialize)]
#[serde(untagged)]
enum Cookies {
    Header(String),
    List(Vec<String>),
    Table(BTreeMap<String, String>),
}

/// Line and column (from 1) of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let line = before.iter().filter(|b| **b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
    (line, column)
}

/// Checks the text of a config file; `file` names it in errors.
pub(crate) fn parse(
    text: &str,
    file: &Path,
    home: Option<&Path>,
) -> Result<ConfigFile, ProfileError> {
    let raw: RawFile = toml::from_str(text).map_err(|e| {
        let (line, column) = match e.span() {
            Some(span) => {
                let (l, c) = line_col(text, span.start);
                (Some(l), Some(c))
            }
            None => (None, None),
        };
        ProfileError::Malformed {
            file: file.to_path_buf(),
            line,
            column,
            message: e.message().trim().to_string(),
        }
    })?;
    let line = |span: std::ops::Range<usize>| line_col(text, span.start).0;
    let dir = file.parent().unwrap_or(Path::new(""));
    let mut profiles = BTreeMap::new();
    for (name, p) in raw.profiles {
        let key = |k: &str| format!("profiles.{}.{k}", toml_key(&name));
        let invalid =
            |k: &str, span: std::ops::Range<usize>, message: String| ProfileError::Invalid {
                file: file.to_path_buf(),
                line: line(span),
                key: key(k),
                message,
            };
        if let Some(pw) = &p.password {
            return Err(ProfileError::PasswordInFile {
                file: file.to_path_buf(),
                line: line(pw.span()),
                key: key("password"),
            });
        }
        // A present key must say something: an empty value is a mistake, not "unset".
        let text_of =
            |k: &str, v: Option<Spanned<String>>| -> Result<Option<String>, ProfileError> {
                match v {
                    None => Ok(None),
                    Some(v) if v.get_ref().trim().is_empty() => Err(invalid(
                        k,
                        v.span(),
                        "is empty; give a value or remove the key".into(),
                    )),
                    Some(v) => Ok(Some(v.into_inner().trim().to_string())),
                }
            };
        let path_of =
            |k: &str, v: Option<Spanned<String>>| -> Result<Option<PathBuf>, ProfileError> {
                Ok(text_of(k, v)?.map(|p| expand_path(&p, dir, home)))
            };
        if let Some(u) = &p.url {
            let lower = u.get_ref().trim().to_ascii_lowercase();
            if !(lower.starts_with("http://") || lower.starts_with("https://")) {
                return Err(invalid(
                    "url",
                    u.span(),
                    "expected the system's address as http(s)://host:port, e.g. \
                     \"https://dev.example.com:44300\""
                        .into(),
                ));
            }
        }
        let password = match (p.password_command, p.password_env) {
            (Some(_), Some(env)) => {
                return Err(invalid(
                    "password_env",
                    env.span(),
                    "give one of password_command and password_env, not both".into(),
                ));
            }
            (Some(cmd), None) => text_of("password_command", Some(cmd))?.map(PasswordFrom::Command),
            (None, Some(env)) => {
                let span = env.span();
                let name = text_of("password_env", Some(env))?;
                if let Some(n) = &name
                    && !is_variable_name(n)
                {
                    return Err(invalid(
                        "password_env",
                        span,
                        "expected the name of an environment variable (letters, digits and _), \
                         e.g. \"SAP_DEV_PASSWORD\""
                            .into(),
                    ));
                }
                name.map(PasswordFrom::Env)
            }
            (None, None) => None,
        };
        let cookies = match (p.cookie, p.cookies) {
            (Some(_), Some(both)) => {
                return Err(invalid(
                    "cookies",
                    both.span(),
                    "give one of cookie and cookies, not both".into(),
                ));
            }
            (Some(c), None) => Some(("cookie", c)),
            (None, Some(c)) => Some(("cookies", c)),
            (None, None) => None,
        };
        let cookies = match cookies {
            None => None,
            Some((k, c)) => {
                let span = c.span();
                let parsed = match c.into_inner() {
                    Cookies::Header(h) => parse_cookies(&h),
                    Cookies::List(list) => parse_cookies(&list.join(";")),
                    Cookies::Table(t) => t
                        .into_iter()
                        .map(|(n, v)| check_cookie(n.trim(), v.trim()))
                        .collect(),
                };
                let parsed = parsed.map_err(|m| invalid(k, span.clone(), m))?;
                if parsed.is_empty() {
                    return Err(invalid(
                        k,
                        span,
                        "holds no cookie; give NAME=VALUE pairs or remove the key".into(),
                    ));
                }
                Some(parsed)
            }
        };
        let profile = Profile {
            url: text_of("url", p.url)?,
            client: text_of("client", p.client)?,
            language: text_of("language", p.language)?,
            user: text_of("user", p.user)?,
            password,
            bearer_token_command: text_of("bearer_token_command", p.bearer_token_command)?,
            cookies,
            client_certificate: path_of("client_certificate", p.client_certificate)?,
            ca_bundle: path_of("ca_bundle", p.ca_bundle)?,
            insecure: p.insecure,
            allow_writes: p.allow_writes,
        };
        profiles.insert(name, profile);
    }
    let default_profile = match raw.default_profile {
        None => None,
        Some(d) if d.get_ref().trim().is_empty() => {
            return Err(ProfileError::Invalid {
                file: file.to_path_buf(),
                line: line(d.span()),
                key: "default_profile".into(),
                message: "is empty; name one of the profiles or remove the key".into(),
            });
        }
        Some(d) => {
            let l = line(d.span());
            Some((d.into_inner().trim().to_string(), l))
        }
    };
    Ok(ConfigFile {
        path: file.to_path_buf(),
        default_profile,
        profiles,
    })
}

fn is_variable_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `~/x` under `home`, a relative path under the config file's directory (the file is where
/// the user wrote it, whatever directory a front end runs in).
fn expand_path(p: &str, dir: &Path, home: Option<&Path>) -> PathBuf {
    if let (Some(rest), Some(home)) = (p.strip_prefix("~/"), home) {
        return home.join(rest);
    }
    let path = PathBuf::from(p);
    if path.is_relative() && !dir.as_os_str().is_empty() {
        dir.join(path)
    } else {
        path
    }
}

/// `NAME=VALUE; NAME2=VALUE2` (a `Cookie` header's form) into pairs. Errors name cookies, never
/// their values.
pub(crate) fn parse_cookies(header: &str) -> Result<Vec<(String, String)>, String> {
    header
        .split(';')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .enumerate()
        .map(|(i, part)| match part.split_once('=') {
            Some((n, v)) => check_cookie(n.trim(), v.trim()),
            None => Err(format!(
                "cookie {} has no '=': expected NAME=VALUE pairs separated by ';'",
                i + 1
            )),
        })
        .collect()
}

fn check_cookie(name: &str, value: &str) -> Result<(String, String), String> {
    let token = |c: char| c.is_ascii_graphic() && !"()<>@,;:\\\"/[]?={}".contains(c);
    if name.is_empty() || !name.chars().all(token) {
        return Err(format!(
            "'{}' is not a cookie name: expected NAME=VALUE pairs separated by ';'",
            name.escape_debug()
        ));
    }
    if value.is_empty()
        || !value
            .chars()
            .all(|c| c.is_ascii_graphic() && c != ';' && c != ',')
    {
        return Err(format!(
            "the value of cookie {name} is empty or has characters a cookie cannot carry"
        ));
    }
    Ok((name.to_string(), value.to_string()))
}

/// The cookies as one `Cookie` header value, the form `ABAPDBG_COOKIES` carries.
pub(crate) fn cookie_header(cookies: &[(String, String)]) -> String {
    cookies
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Runs `command` with `sh` and returns the first line it prints. The command reaches the
/// shell through its environment, not its arguments, so it never shows in a process list;
/// stdin is closed (a front end's stdin may be a protocol), stderr is kept for the error.
pub(crate) fn run_secret_command(command: &str) -> Result<String, String> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("c=$ABAPDBG_SECRET_COMMAND; unset ABAPDBG_SECRET_COMMAND; eval \"$c\"")
        .env("ABAPDBG_SECRET_COMMAND", command)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run sh: {e}"))?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        let (tx, rx) = std::sync::mpsc::channel();
        if let Some(mut pipe) = pipe {
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                let _ = pipe.by_ref().take(MAX_FILE_BYTES).read_to_end(&mut buf);
                let _ = tx.send(buf);
            });
        }
        rx
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let deadline = Instant::now() + COMMAND_TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "it did not finish within {} s",
                    COMMAND_TIMEOUT.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(format!("cannot wait for it: {e}")),
        }
    };
    // The pipes close when the command and whatever it left behind are done with them.
    let grace = Duration::from_secs(5);
    let out = out.recv_timeout(grace).unwrap_or_default();
    let err = err.recv_timeout(grace).unwrap_or_default();
    if !status.success() {
        let said = String::from_utf8_lossy(&err);
        let last: String = said
            .trim()
            .lines()
            .last()
            .unwrap_or("")
            .chars()
            .take(200)
            .collect();
        return Err(if last.is_empty() {
            format!("it failed ({status})")
        } else {
            format!("it failed ({status}): {last}")
        });
    }
    let out = String::from_utf8(out).map_err(|_| "it printed something that is not UTF-8")?;
    let first = out.lines().next().unwrap_or("");
    if first.is_empty() {
        return Err("it printed nothing on its first line".into());
    }
    Ok(first.to_string())
}

/// The names of the profiles in the file, sorted.
pub(crate) fn names(file: &ConfigFile) -> Vec<String> {
    file.profiles.keys().cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse_str(text: &str) -> Result<ConfigFile, ProfileError> {
        parse(
            text,
            Path::new("/etc/abapdbg/config.toml"),
            Some(Path::new("/home/u")),
        )
    }

    #[test]
    fn a_full_profile() {
        let file = parse_str(
            r#"
default_profile = "dev"

[profiles.dev]
url = "https://dev.example.com:44300/"
client = "001"
language = "EN"
user = "developer"
password_command = "pass show sap/dev"
bearer_token_command = "get-token"
cookies = { MYSAPSSO2 = "abc", SAP_SESSIONID_DEV_001 = "x=y" }
client_certificate = "~/certs/me.pem"
ca_bundle = "ca.pem"
insecure = true
allow_writes = false

[profiles."qa system"]
url = "http://qa:8000"
password_env = "QA_PW"
cookie = "A=1; B=2"
"#,
        )
        .expect("parses");
        assert_eq!(file.default_profile, Some(("dev".into(), 2)));
        assert_eq!(names(&file), ["dev", "qa system"]);
        let dev = &file.profiles["dev"];
        assert_eq!(dev.url.as_deref(), Some("https://dev.example.com:44300/"));
        assert_eq!(dev.client.as_deref(), Some("001"));
        assert_eq!(
            dev.password,
            Some(PasswordFrom::Command("pass show sap/dev".into()))
        );
        assert_eq!(
            dev.cookies,
            Some(vec![
                ("MYSAPSSO2".into(), "abc".into()),
                ("SAP_SESSIONID_DEV_001".into(), "x=y".into())
            ])
        );
        assert_eq!(
            dev.client_certificate,
            Some(PathBuf::from("/home/u/certs/me.pem"))
        );
        assert_eq!(dev.ca_bundle, Some(PathBuf::from("/etc/abapdbg/ca.pem")));
        assert_eq!((dev.insecure, dev.allow_writes), (Some(true), Some(false)));
        let qa = &file.profiles["qa system"];
        assert_eq!(qa.password, Some(PasswordFrom::Env("QA_PW".into())));
        assert_eq!(
            qa.cookies,
            Some(vec![("A".into(), "1".into()), ("B".into(), "2".into())])
        );
        assert!(!format!("{dev:?}").contains("abc"));
    }

    #[test]
    fn an_empty_file_has_no_profiles() {
        let file = parse_str("").expect("parses");
        assert!(file.profiles.is_empty());
        assert_eq!(file.default_profile, None);
    }

    #[test]
    fn a_password_in_the_file_is_refused_with_its_line() {
        let err = parse_str("[profiles.dev]\nurl = \"http://h\"\npassword = \"hunter2\"\n")
            .expect_err("refused");
        assert_eq!(
            err,
            ProfileError::PasswordInFile {
                file: "/etc/abapdbg/config.toml".into(),
                line: 3,
                key: "profiles.dev.password".into()
            }
        );
        let text = err.to_string();
        assert!(text.contains("line 3"), "{text}");
        assert!(text.contains("password_command"), "{text}");
        assert!(text.contains("password_env"), "{text}");
        assert!(!text.contains("hunter2"), "{text}");
        // Whatever the kind of value.
        assert!(matches!(
            parse_str("[profiles.dev]\npassword = 42\n"),
            Err(ProfileError::PasswordInFile { line: 2, .. })
        ));
    }

    #[test]
    fn malformed_files_name_line_and_column() {
        let err = parse_str("[profiles.dev]\nurl = \"http://h\"\nuser = \n").expect_err("bad");
        match &err {
            ProfileError::Malformed { line, .. } => assert_eq!(*line, Some(3), "{err}"),
            other => panic!("{other:?}"),
        }
        assert!(
            err.to_string()
                .starts_with("/etc/abapdbg/config.toml, line 3")
        );
        // An unknown key says which keys there are.
        let err = parse_str("[profiles.dev]\n\nurll = \"http://h\"\n").expect_err("bad");
        let text = err.to_string();
        assert!(text.contains("line 3"), "{text}");
        assert!(text.contains("urll") && text.contains("url"), "{text}");
        // A client written as a number loses its zeros: refused.
        let err = parse_str("[profiles.dev]\nclient = 001\n").expect_err("bad");
        assert!(err.to_string().contains("line 2"), "{err}");
        // Unknown top-level key.
        assert!(parse_str("profile = \"x\"\n").is_err());
    }

    #[test]
    fn values_the_file_may_not_hold() {
        for (text, key, line) in [
            ("[profiles.a]\nurl = \"dev:44300\"\n", "profiles.a.url", 2),
            ("[profiles.a]\nuser = \"  \"\n", "profiles.a.user", 2),
            (
                "[profiles.a]\npassword_env = \"A\"\npassword_command = \"x\"\n",
                "profiles.a.password_env",
                2,
            ),
            (
                "[profiles.a]\npassword_env = \"not a name\"\n",
                "profiles.a.password_env",
                2,
            ),
            (
                "[profiles.a]\ncookie = \"A=1\"\ncookies = [\"B=2\"]\n",
                "profiles.a.cookies",
                3,
            ),
            (
                "[profiles.a]\ncookie = \"novalue\"\n",
                "profiles.a.cookie",
                2,
            ),
            ("[profiles.a]\ncookies = []\n", "profiles.a.cookies", 2),
            ("default_profile = \"\"\n", "default_profile", 1),
        ] {
            match parse_str(text) {
                Err(ProfileError::Invalid {
                    key: k, line: l, ..
                }) => {
                    assert_eq!((k.as_str(), l), (key, line), "{text}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn cookie_errors_never_show_values() {
        let err = parse_cookies("A=sec ret; B").expect_err("bad");
        assert!(!err.contains("sec"), "{err}");
        let err = parse_str("[profiles.a]\ncookie = \"A=topsecret; B\"\n").expect_err("bad");
        assert!(!err.to_string().contains("topsecret"), "{err}");
        assert_eq!(
            parse_cookies(" A=1 ;B=x=y; "),
            Ok(vec![("A".into(), "1".into()), ("B".into(), "x=y".into())])
        );
        assert_eq!(
            cookie_header(&[("A".into(), "1".into()), ("B".into(), "2".into())]),
            "A=1; B=2"
        );
    }

    #[test]
    fn line_and_column_count_characters() {
        assert_eq!(line_col("", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("äb", 2), (1, 2));
        assert_eq!(line_col("ab", 99), (1, 3));
    }

    #[test]
    fn where_the_file_is() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let all = env(&[
            ("ABAPDBG_CONFIG", "/c.toml"),
            ("XDG_CONFIG_HOME", "/x"),
            ("HOME", "/h"),
        ]);
        assert_eq!(config_path(&all), Some(("/c.toml".into(), true)));
        let xdg = env(&[("XDG_CONFIG_HOME", "/x"), ("HOME", "/h")]);
        assert_eq!(
            config_path(&xdg),
            Some(("/x/abapdbg/config.toml".into(), false))
        );
        let home = env(&[("HOME", "/h")]);
        assert_eq!(
            config_path(&home),
            Some(("/h/.config/abapdbg/config.toml".into(), false))
        );
        assert_eq!(config_path(&env(&[])), None);
    }

    #[test]
    fn a_missing_file_is_no_error_unless_named() {
        let path = Path::new("/nonexistent/abapdbg/config.toml");
        assert_eq!(load(path, false, None), Ok(None));
        let err = load(path, true, None).expect_err("named");
        assert!(err.to_string().contains("ABAPDBG_CONFIG"), "{err}");
    }

    #[test]
    fn secret_commands() {
        assert_eq!(
            run_secret_command("printf 'pw one\\nsecond'"),
            Ok("pw one".into())
        );
        assert_eq!(run_secret_command("echo 'x\r'"), Ok("x".into()));
        let err = run_secret_command("echo oops >&2; exit 3").expect_err("fails");
        assert!(err.contains("oops"), "{err}");
        assert!(run_secret_command("true").is_err());
        assert!(run_secret_command("printf '\\nlater'").is_err());
        // The command does not see the variable that carried it.
        assert_eq!(
            run_secret_command("printf %s \"${ABAPDBG_SECRET_COMMAND:-unset}\""),
            Ok("unset".into())
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Whatever the text, the loader answers (never panics), and a line it names is in the
        /// text.
        #[test]
        fn any_text_loads_or_says_where(text in ".{0,400}") {
            check_any(&text);
        }

        /// Text made of TOML's own pieces gets further into the checks.
        #[test]
        fn toml_like_text_loads_or_says_where(parts in proptest::collection::vec(prop_oneof![
            Just("[profiles.dev]\n".to_string()),
            Just("[profiles.\"a b\"]\n".to_string()),
            Just("[profiles]\n".to_string()),
            Just("default_profile = \"dev\"\n".to_string()),
            Just("password = \"x\"\n".to_string()),
            Just("url = \"http://h:1\"\n".to_string()),
            Just("url = 5\n".to_string()),
            Just("client = \"001\"\n".to_string()),
            Just("cookie = \"A=1; B\"\n".to_string()),
            Just("cookies = { A = \"1\" }\n".to_string()),
            Just("cookies = [\"A=1\", 2]\n".to_string()),
            Just("insecure = true\n".to_string()),
            Just("allow_writes = \"yes\"\n".to_string()),
            Just("password_env = \"PW\"\n".to_string()),
            Just("password_command = \"\"\n".to_string()),
            Just("ca_bundle = \"~/ca.pem\"\n".to_string()),
            "[a-z_]{1,12} = \"[^\"\\\\\n]{0,10}\"\n",
            "[\\[\\]=\"{}\\n ,.a-z0-9]{0,20}",
        ], 0..12)) {
            check_any(&parts.concat());
        }
    }

    fn check_any(text: &str) {
        let lines = text.split('\n').count();
        match parse_str(text) {
            Ok(file) => {
                for p in file.profiles.values() {
                    if let Some(url) = &p.url {
                        assert!(url.to_ascii_lowercase().starts_with("http"), "{url}");
                    }
                }
            }
            Err(ProfileError::Malformed { line, .. }) => {
                if let Some(l) = line {
                    assert!(l >= 1 && l <= lines, "line {l} of {lines}");
                }
            }
            Err(ProfileError::Invalid { line, .. } | ProfileError::PasswordInFile { line, .. }) => {
                assert!(line >= 1 && line <= lines, "line {line} of {lines}");
            }
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
}
