//! With nothing configured (no ABAPDBG_URL, no profile), every command uses the embedded
//! simulator. Said once, when a command starts the session, on stderr; `status` says it too.
//! When the current directory holds the original debug command's configuration
//! (`.abapGitAgent`), the note also shows the profile that names its system: host, client and
//! user, never the password it keeps.

use std::io::Read;
use std::path::Path;

use client::Target;
use serde_json::Value;

/// The note's first line.
pub(crate) const NOTE: &str =
    "no system configured: using the embedded simulator; see `abapdbg config`";

/// The largest `.abapGitAgent` read (it is a few hundred bytes).
const MAX_AGENT_FILE: u64 = 64 * 1024;

/// Whether nothing chooses a system: no URL and no profile.
pub(crate) fn nothing_configured(target: &Target) -> bool {
    target.url().is_none() && target.profile().is_none()
}

/// What to print on stderr when a session starts with nothing configured, from `dir`.
pub(crate) fn note(dir: &Path) -> String {
    let mut s = format!("abapdbg: {NOTE}\n");
    if let Some(profile) = read_agent_file(&dir.join(".abapGitAgent")).and_then(|t| profile(&t)) {
        s.push_str(&profile);
    }
    s
}

/// What `abapdbg config` adds when nothing is configured: how to name a system, from the
/// directory's `.abapGitAgent` when it has one.
pub(crate) fn advice(dir: &Path) -> String {
    match read_agent_file(&dir.join(".abapGitAgent")).and_then(|t| profile(&t)) {
        Some(profile) => profile.trim_start_matches("abapdbg: ").to_string(),
        None => "No system configured: commands use the embedded simulator. To debug on a \
                 system, set ABAPDBG_URL, ABAPDBG_USER and ABAPDBG_PASSWORD, or add a profile \
                 to the config file above (README: Profiles).\n"
            .to_string(),
    }
}

fn read_agent_file(path: &Path) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    let mut text = String::new();
    file.take(MAX_AGENT_FILE).read_to_string(&mut text).ok()?;
    Some(text)
}

/// The profile for the system a `.abapGitAgent` names, with how to use it; `None` when it
/// names no host.
fn profile(text: &str) -> Option<String> {
    let v: Value = serde_json::from_str(text).ok()?;
    let field = |k: &str| match v.get(k) {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let host = field("host")?;
    let url = if host.starts_with("http://") || host.starts_with("https://") {
        host
    } else {
        let scheme = field("protocol").unwrap_or_else(|| "https".into());
        match field("sapport") {
            Some(port) => format!("{scheme}://{host}:{port}"),
            None => format!("{scheme}://{host}"),
        }
    };
    // Quoted for TOML: the values are the file's, not ours.
    let quote = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let mut s = String::from(
        "abapdbg: .abapGitAgent here names a system; to debug on it, add this profile to \
         ~/.config/abapdbg/config.toml and choose it with --profile agent (or default_profile \
         = \"agent\"):\n[profiles.agent]\n",
    );
    s.push_str(&format!("url = {}\n", quote(&url)));
    if let Some(client) = field("client") {
        s.push_str(&format!("client = {}\n", quote(&client)));
    }
    if let Some(user) = field("user") {
        s.push_str(&format!("user = {}\n", quote(&user.to_uppercase())));
    }
    s.push_str(
        "password_env = \"ABAPDBG_PASSWORD\"   # or password_command; config.toml never holds a password\n",
    );
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_from_the_agent_file_never_shows_its_password() {
        let text = r#"{"host":"sap.example.com","sapport":44300,"client":"100",
            "user":"developer","password":"s3cret-pw","language":"EN"}"#;
        let p = profile(text).expect("a profile");
        assert!(
            p.contains("url = \"https://sap.example.com:44300\"\n"),
            "{p}"
        );
        assert!(p.contains("client = \"100\"\n"), "{p}");
        assert!(p.contains("user = \"DEVELOPER\"\n"), "{p}");
        assert!(!p.contains("s3cret-pw"), "{p}");
        assert_eq!(
            profile(r#"{"host":"http://h:8000","user":"u"}"#)
                .map(|p| p.contains("url = \"http://h:8000\"")),
            Some(true)
        );
        assert!(profile(r#"{"user":"u"}"#).is_none(), "no host, no profile");
        assert!(profile("not json").is_none());
    }

    #[test]
    fn the_note_names_the_config_command() {
        let dir = std::env::temp_dir().join(format!("abapdbg-unconfigured-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        assert_eq!(note(&dir), format!("abapdbg: {NOTE}\n"));
        assert!(advice(&dir).contains("ABAPDBG_URL"), "{}", advice(&dir));
        let _ = std::fs::write(
            dir.join(".abapGitAgent"),
            r#"{"host":"h","client":"100","user":"u","password":"pw-x"}"#,
        );
        let advised = advice(&dir);
        assert!(
            advised.starts_with(".abapGitAgent here names a system"),
            "{advised}"
        );
        assert!(!advised.contains("pw-x"), "{advised}");
        assert!(note(&dir).contains("[profiles.agent]"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
