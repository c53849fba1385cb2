//! Cassettes: ADT exchanges recorded as JSON lines, with no secret in them, so a session on
//! a real system can be sent to us and replayed as a test (docs/cassettes.md).
//!
//! The first line names the format (`{"format":"abapdbg-cassette/1",…}`); every other line is
//! one [`Exchange`]: when, which HTTP session, the request (method, path, query, headers,
//! body) and the answer (status, headers, body, how long it took). Bodies are text where they
//! are UTF-8, else base64.
//!
//! Secrets never reach the file ([`Redactor`]): `Authorization` is replaced whole (the
//! password and bearer token are never written, not even hashed); the values of cookies
//! (`sap-contextid`, `SAP_SESSIONID_…`, `MYSAPSSO2`, any other) and of `x-csrf-token` become
//! placeholders that are stable within a file (`REDACTED-cookie-3`: the same value always gets
//! the same placeholder, so the sequence stays readable and a replay can tell sessions apart).
//! User names are kept unless `redact_users` says otherwise. The file is created 0600 and
//! stops growing, with a warning, past its size bound.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use base64::Engine as _;
use serde::{Deserialize, Serialize};

/// The format this version writes and reads.
pub const FORMAT: &str = "abapdbg-cassette/1";

/// Default bound on a cassette's size.
pub const DEFAULT_MAX_BYTES: u64 = 256 << 20;

/// The first line of a cassette.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    /// The system's URL as configured (scheme, host and port: not a secret).
    pub base_url: String,
    /// Seconds since the Unix epoch when recording began.
    pub started: u64,
    /// Whether user names were replaced too.
    #[serde(default)]
    pub users_redacted: bool,
}

/// A body as recorded: text, or base64 of bytes that are not UTF-8.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Body {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base64: Option<String>,
}

impl Body {
    pub fn of(bytes: &[u8]) -> Body {
        match std::str::from_utf8(bytes) {
            Ok(t) => Body {
                text: Some(t.to_string()),
                base64: None,
            },
            Err(_) => Body {
                text: None,
                base64: Some(base64::engine::general_purpose::STANDARD.encode(bytes)),
            },
        }
    }

    /// The bytes again (a bad base64 text reads as nothing).
    pub fn bytes(&self) -> Vec<u8> {
        match (&self.text, &self.base64) {
            (Some(t), _) => t.clone().into_bytes(),
            (None, Some(b)) => base64::engine::general_purpose::STANDARD
                .decode(b)
                .unwrap_or_default(),
            (None, None) => Vec::new(),
        }
    }
}

/// One request and its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exchange {
    /// Milliseconds since recording began.
    pub at_ms: u64,
    /// Which HTTP session of ours sent it: `stateless-1`, `stateful-4`.
    pub session: String,
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The query string (without `?`), as sent.
    #[serde(default)]
    pub query: String,
    /// Request headers, names in lower case, secrets replaced.
    #[serde(default)]
    pub request_headers: BTreeMap<String, String>,
    #[serde(default)]
    pub request_body: Body,
    pub status: u16,
    /// Response headers, names in lower case (`set-cookie` lines joined by `\n`), secrets
    /// replaced.
    #[serde(default)]
    pub response_headers: BTreeMap<String, String>,
    #[serde(default)]
    pub response_body: Body,
    /// How long the answer took.
    pub duration_ms: u64,
}

/// Why a cassette could not be read.
#[derive(Debug, thiserror::Error)]
pub enum CassetteError {
    #[error("cannot read the cassette {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} line {line}: {message}")]
    Bad {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

/// A cassette read back: its header and exchanges in the order recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Cassette {
    pub header: Header,
    pub exchanges: Vec<Exchange>,
}

impl Cassette {
    /// Reads a cassette file (a regular file, at most 1 GiB).
    pub fn read(path: &Path) -> Result<Cassette, CassetteError> {
        let io = |source| CassetteError::Io {
            path: path.to_path_buf(),
            source,
        };
        let meta = std::fs::metadata(path).map_err(io)?;
        if !meta.is_file() {
            return Err(io(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a regular file",
            )));
        }
        if meta.len() > 1 << 30 {
            return Err(io(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "larger than 1 GiB",
            )));
        }
        let text = std::fs::read_to_string(path).map_err(io)?;
        Cassette::parse(&text).map_err(|(line, message)| CassetteError::Bad {
            path: path.to_path_buf(),
            line,
            message,
        })
    }

    /// Reads a cassette's text; on failure the line (1-based) and what is wrong.
    pub fn parse(text: &str) -> Result<Cassette, (usize, String)> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let Some((_, first)) = lines.next() else {
            return Err((1, "empty: no header line".into()));
        };
        let header: Header =
            serde_json::from_str(first).map_err(|e| (1, format!("not a cassette header: {e}")))?;
        if header.format != FORMAT {
            return Err((
                1,
                format!(
                    "format '{}' is not '{FORMAT}' (a newer abapdbg wrote it?)",
                    header.format
                ),
            ));
        }
        let mut exchanges = Vec::new();
        for (i, line) in lines {
            let e: Exchange =
                serde_json::from_str(line).map_err(|e| (i + 1, format!("not an exchange: {e}")))?;
            exchanges.push(e);
        }
        Ok(Cassette { header, exchanges })
    }
}

/// Replaces secrets by stable placeholders.
#[derive(Debug, Default)]
pub struct Redactor {
    placeholders: HashMap<(&'static str, String), String>,
    counts: HashMap<&'static str, usize>,
    /// User names to replace, upper case (empty: users are kept).
    users: Vec<String>,
}

/// Cookies whose values are not secrets and help reading a cassette.
const PLAIN_COOKIES: &[&str] = &["sap-usercontext"];

impl Redactor {
    /// A redactor that also replaces these user names (`--redact-users`).
    pub fn with_users(users: &[String]) -> Redactor {
        Redactor {
            users: users
                .iter()
                .filter(|u| !u.trim().is_empty())
                .map(|u| u.trim().to_uppercase())
                .collect(),
            ..Redactor::default()
        }
    }

    fn placeholder(&mut self, kind: &'static str, value: &str) -> String {
        if let Some(p) = self.placeholders.get(&(kind, value.to_string())) {
            return p.clone();
        }
        let n = self.counts.entry(kind).or_default();
        *n += 1;
        let p = format!("REDACTED-{kind}-{n}");
        self.placeholders
            .insert((kind, value.to_string()), p.clone());
        p
    }

    /// A header's value as it may be written.
    pub fn header(&mut self, name: &str, value: &str) -> String {
        match name {
            "authorization" | "proxy-authorization" => {
                // The scheme says how we logged on; the credentials never reach the file.
                let scheme = value.split_whitespace().next().unwrap_or_default();
                format!("{scheme} REDACTED")
            }
            "cookie" => value
                .split(';')
                .map(|pair| self.cookie_pair(pair.trim()))
                .collect::<Vec<_>>()
                .join("; "),
            "set-cookie" => {
                let (pair, attrs) = value.split_once(';').unwrap_or((value, ""));
                let pair = self.cookie_pair(pair.trim());
                if attrs.is_empty() {
                    pair
                } else {
                    format!("{pair};{attrs}")
                }
            }
            "x-csrf-token" => {
                if value.eq_ignore_ascii_case("fetch") || value.eq_ignore_ascii_case("required") {
                    value.to_string()
                } else {
                    self.placeholder("csrf", value)
                }
            }
            _ => self.users_in(value),
        }
    }

    fn cookie_pair(&mut self, pair: &str) -> String {
        let Some((name, value)) = pair.split_once('=') else {
            return pair.to_string();
        };
        if PLAIN_COOKIES.iter().any(|c| c.eq_ignore_ascii_case(name)) || value.is_empty() {
            return self.users_in(pair);
        }
        format!("{name}={}", self.placeholder("cookie", value))
    }

    /// `text` with the user names replaced, when asked to.
    pub fn users_in(&self, text: &str) -> String {
        let mut out = text.to_string();
        for user in &self.users {
            out = replace_ignoring_case(&out, user, "REDACTED-USER");
        }
        out
    }
}

fn replace_ignoring_case(text: &str, what: &str, with: &str) -> String {
    if what.is_empty() {
        return text.to_string();
    }
    let upper = text.to_uppercase();
    // Upper-casing can change lengths outside ASCII: then compare as it is.
    if upper.len() != text.len() {
        return text.replace(what, with);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = 0;
    for (i, _) in upper.match_indices(what) {
        if i < rest {
            continue;
        }
        out.push_str(&text[rest..i]);
        out.push_str(with);
        rest = i + what.len();
    }
    out.push_str(&text[rest..]);
    out
}

/// Appends exchanges to a cassette file. Shared by every HTTP session of one process.
#[derive(Debug)]
pub struct Recorder {
    inner: Mutex<RecorderState>,
    started: std::time::Instant,
    max_bytes: u64,
    path: PathBuf,
}

#[derive(Debug)]
struct RecorderState {
    file: Option<std::fs::File>,
    written: u64,
    redactor: Redactor,
    sessions: usize,
}

impl Recorder {
    /// Creates the cassette (0600; a file already there is refused: recordings are never
    /// overwritten) and writes its header.
    pub fn create(
        path: &Path,
        base_url: &str,
        redact_users: &[String],
        max_bytes: u64,
    ) -> std::io::Result<Recorder> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(path)?;
        let header = Header {
            format: FORMAT.into(),
            base_url: base_url.to_string(),
            started: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
            users_redacted: !redact_users.is_empty(),
        };
        let mut line = serde_json::to_vec(&header).map_err(std::io::Error::other)?;
        line.push(b'\n');
        file.write_all(&line)?;
        Ok(Recorder {
            inner: Mutex::new(RecorderState {
                file: Some(file),
                written: line.len() as u64,
                redactor: Redactor::with_users(redact_users),
                sessions: 0,
            }),
            started: std::time::Instant::now(),
            max_bytes,
            path: path.to_path_buf(),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, RecorderState> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A label for a new HTTP session (`stateful-3`).
    pub fn session_label(&self, stateful: bool) -> String {
        let mut s = self.state();
        s.sessions += 1;
        format!(
            "{}-{}",
            if stateful { "stateful" } else { "stateless" },
            s.sessions
        )
    }

    /// Milliseconds since recording began.
    pub fn now_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Writes one exchange, its secrets replaced. Past the size bound, recording stops with a
    /// warning (once); a write error stops it too.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &self,
        at_ms: u64,
        session: &str,
        method: &str,
        target: &str,
        request_headers: &[(String, String)],
        request_body: &[u8],
        status: u16,
        response_headers: &[(String, String)],
        response_body: &[u8],
    ) {
        let duration_ms = self.now_ms().saturating_sub(at_ms);
        let mut s = self.state();
        if s.file.is_none() {
            return;
        }
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        let headers = |r: &mut Redactor, list: &[(String, String)]| {
            let mut map: BTreeMap<String, String> = BTreeMap::new();
            for (name, value) in list {
                let name = name.to_ascii_lowercase();
                let value = r.header(&name, value);
                map.entry(name)
                    .and_modify(|v| {
                        v.push('\n');
                        v.push_str(&value);
                    })
                    .or_insert(value);
            }
            map
        };
        let body = |r: &Redactor, bytes: &[u8]| match Body::of(bytes) {
            Body {
                text: Some(t),
                base64: None,
            } => Body {
                text: Some(r.users_in(&t)),
                base64: None,
            },
            other => other,
        };
        let exchange = Exchange {
            at_ms,
            session: session.to_string(),
            method: method.to_string(),
            path: s.redactor.users_in(path),
            query: s.redactor.users_in(query),
            request_headers: headers(&mut s.redactor, request_headers),
            request_body: body(&s.redactor, request_body),
            status,
            response_headers: headers(&mut s.redactor, response_headers),
            response_body: body(&s.redactor, response_body),
            duration_ms,
        };
        let Ok(mut line) = serde_json::to_vec(&exchange) else {
            return;
        };
        line.push(b'\n');
        if s.written + line.len() as u64 > self.max_bytes {
            tracing::warn!(
                "the cassette {} reached its bound of {} bytes: recording stops here",
                self.path.display(),
                self.max_bytes
            );
            s.file = None;
            return;
        }
        let written = s.file.as_mut().map(|f| f.write_all(&line));
        match written {
            Some(Ok(())) => s.written += line.len() as u64,
            Some(Err(e)) => {
                tracing::warn!(
                    "cannot write the cassette {}: {e}; recording stops",
                    self.path.display()
                );
                s.file = None;
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_become_stable_placeholders_and_users_only_when_asked() {
        let mut r = Redactor::default();
        assert_eq!(
            r.header("authorization", "Basic REVWRUxPUEVSOmFiYXA="),
            "Basic REDACTED"
        );
        assert_eq!(
            r.header("authorization", "Bearer eyJhbGciOi"),
            "Bearer REDACTED"
        );
        let a = r.header(
            "cookie",
            "sap-contextid=SID%3aABC; SAP_SESSIONID_A4H_001=xyz",
        );
        assert_eq!(
            a,
            "sap-contextid=REDACTED-cookie-1; SAP_SESSIONID_A4H_001=REDACTED-cookie-2"
        );
        // The same value, the same placeholder, wherever it comes.
        assert_eq!(
            r.header("set-cookie", "sap-contextid=SID%3aABC; path=/sap/bc/adt"),
            "sap-contextid=REDACTED-cookie-1; path=/sap/bc/adt"
        );
        assert_eq!(r.header("x-csrf-token", "Fetch"), "Fetch");
        assert_eq!(r.header("x-csrf-token", "k3y=="), "REDACTED-csrf-1");
        assert_eq!(r.header("x-csrf-token", "k3y=="), "REDACTED-csrf-1");
        assert_eq!(r.header("x-csrf-token", "other"), "REDACTED-csrf-2");
        assert_eq!(r.header("accept", "application/xml"), "application/xml");
        assert_eq!(r.users_in("requestUser=DEVELOPER"), "requestUser=DEVELOPER");
        let u = Redactor::with_users(&["developer".into()]);
        assert_eq!(
            u.users_in("requestUser=DEVELOPER&x=developer"),
            "requestUser=REDACTED-USER&x=REDACTED-USER"
        );
    }

    #[test]
    fn a_recording_reads_back_and_holds_no_secret() {
        let dir = std::env::temp_dir().join(format!("abapdbg-cassette-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("c.jsonl");
        let rec = Recorder::create(&path, "http://sap:8000", &[], DEFAULT_MAX_BYTES).expect("c");
        assert!(
            Recorder::create(&path, "x", &[], 1).is_err(),
            "never overwritten"
        );
        let label = rec.session_label(true);
        rec.record(
            rec.now_ms(),
            &label,
            "POST",
            "/sap/bc/adt/debugger?method=getStack",
            &[
                ("Authorization".into(), "Basic c2VjcmV0LXBhc3N3b3Jk".into()),
                ("x-csrf-token".into(), "T0KEN-VALUE".into()),
                ("Cookie".into(), "SAP_SESSIONID_X=C00KIE-VALUE".into()),
            ],
            b"",
            200,
            &[(
                "Set-Cookie".into(),
                "sap-contextid=C0NTEXT-VALUE; path=/".into(),
            )],
            &[0xff, 0x00, 0x41],
        );
        let text = std::fs::read_to_string(&path).expect("read");
        for secret in [
            "c2VjcmV0LXBhc3N3b3Jk",
            "T0KEN-VALUE",
            "C00KIE-VALUE",
            "C0NTEXT-VALUE",
        ] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("m").permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        let c = Cassette::read(&path).expect("reads back");
        assert_eq!(c.header.base_url, "http://sap:8000");
        assert_eq!(c.exchanges.len(), 1);
        let e = &c.exchanges[0];
        assert_eq!(e.session, "stateful-1");
        assert_eq!(
            (e.path.as_str(), e.query.as_str()),
            ("/sap/bc/adt/debugger", "method=getStack")
        );
        assert_eq!(e.response_body.bytes(), vec![0xff, 0x00, 0x41]);
        assert_eq!(e.request_headers["authorization"], "Basic REDACTED");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn recording_stops_at_its_bound() {
        let dir = std::env::temp_dir().join(format!("abapdbg-cassette-b-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("c.jsonl");
        let rec = Recorder::create(&path, "http://sap", &[], 2_000).expect("c");
        for _ in 0..100 {
            rec.record(0, "s", "GET", "/x", &[], b"", 200, &[], &[b'a'; 100]);
        }
        let len = std::fs::metadata(&path).expect("m").len();
        assert!(len <= 2_000, "{len}");
        assert!(
            Cassette::read(&path)
                .expect("still a cassette")
                .exchanges
                .len()
                >= 5
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    proptest::proptest! {
        #[test]
        fn reading_any_text_never_panics(s in "\\PC{0,400}") {
            let _ = Cassette::parse(&s);
            let _ = Cassette::parse(&format!("{{\"format\":\"{FORMAT}\",\"base_url\":\"x\",\"started\":1}}\n{s}"));
        }
    }
}
