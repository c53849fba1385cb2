//! Completion candidates from the live session, shared by every shell's completion (the
//! Nushell plugin, bash and zsh): each asks one request with a short timeout and answers
//! nothing on any failure, so Tab never hangs and never prints an error.

use std::time::Duration;

use serde_json::{Value, json};

use crate::session::Session;

/// How long a completion may wait for the session.
pub const TIMEOUT: Duration = Duration::from_millis(300);

/// A value to offer, with what it is (shells that show descriptions show it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub value: String,
    pub description: Option<String>,
}

fn ask(session: &Session, cmd: &str, args: Value) -> Option<Value> {
    session.request(cmd, args, TIMEOUT, &|| false).ok()
}

/// Breakpoint ids, described by their locations.
pub fn breakpoints(session: &Session) -> Vec<Candidate> {
    let Some(list) = ask(session, "bp.list", json!({})) else {
        return Vec::new();
    };
    list["breakpoints"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|bp| {
            Some(Candidate {
                value: bp["id"].as_u64()?.to_string(),
                description: bp["location"].as_str().map(String::from),
            })
        })
        .collect()
}

/// Short dump ids (ours, newest first), described by their short texts.
pub fn dumps(session: &Session) -> Vec<Candidate> {
    let args = jsonl::args::DumpsArgs::default();
    let Ok(list) = session.call_within::<jsonl::cmd::Dumps>(&args, TIMEOUT) else {
        return Vec::new();
    };
    list.dumps
        .into_iter()
        .map(|d| Candidate {
            value: d.id,
            description: Some(format!("{} {}", d.runtime_error, d.short_text)),
        })
        .collect()
}

/// Thread numbers, described by their programs.
pub fn threads(session: &Session) -> Vec<Candidate> {
    let Some(list) = ask(session, "threads", json!({})) else {
        return Vec::new();
    };
    list["threads"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| {
            Some(Candidate {
                value: t["thread"].as_u64()?.to_string(),
                description: t["program"].as_str().map(String::from),
            })
        })
        .collect()
}

/// Frame indexes of the stopped program, described by their methods and lines.
pub fn frames(session: &Session) -> Vec<Candidate> {
    let Some(stack) = ask(session, "stack", json!({})) else {
        return Vec::new();
    };
    stack["frames"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| {
            Some(Candidate {
                value: f["index"].as_u64()?.to_string(),
                description: Some(format!(
                    "{} line {}",
                    f["method"].as_str().unwrap_or_default(),
                    f["line"]
                )),
            })
        })
        .collect()
}

/// Variable paths for what is typed so far: the selected frame's variables, or after
/// `LS_X-`, `LT_X[1]-` or `LO_X->` the components of that variable, as full paths.
pub fn variables(session: &Session, typed: &str) -> Vec<Candidate> {
    let typed = typed.trim_matches(['"', '\'', '`']).to_uppercase();
    let args = match parent_of(&typed) {
        Some(parent) => json!({ "id": parent, "limit": 200 }),
        None => json!({}),
    };
    let Some(vars) = ask(session, "vars", args) else {
        return Vec::new();
    };
    vars["variables"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| {
            let id = v["id"].as_str()?;
            let ty = v["type"].as_str().unwrap_or_default();
            let description = match v["meta"].as_str() {
                Some("table") => format!("{ty}, {} rows", v["rows"]),
                _ => ty.to_string(),
            };
            Some(Candidate {
                value: id.to_string(),
                description: Some(description),
            })
        })
        .collect()
}

/// Repository objects whose names start with what is typed (ADT's quick search through the
/// session's `search`), described by type and description; nothing once a `:line` follows.
pub fn objects(session: &Session, typed: &str) -> Vec<Candidate> {
    let typed = typed.trim_matches(['"', '\'', '`']).trim().to_uppercase();
    if typed.contains([':', ' ', '*']) {
        return Vec::new();
    }
    let Some(found) = ask(
        session,
        "search",
        json!({ "query": format!("{typed}*"), "max": 50 }),
    ) else {
        return Vec::new();
    };
    found["objects"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|o| {
            let name = o["name"].as_str()?;
            let ty = o["type"].as_str().unwrap_or_default();
            let description = match o["description"].as_str() {
                Some(d) if !d.is_empty() => format!("{ty} {d}"),
                _ => ty.to_string(),
            };
            Some(Candidate {
                value: name.to_string(),
                description: Some(description),
            })
        })
        .collect()
}

/// The variable whose components follow: `LS_X-` → `LS_X`, `LT[1]-CO` → `LT[1]`,
/// `LO->MV` → `LO`; `None` at the top level.
fn parent_of(typed: &str) -> Option<String> {
    let (head, _) = match (typed.rfind("->"), typed.rfind('-')) {
        (Some(arrow), Some(dash)) if arrow + 1 == dash => typed.split_at(arrow),
        (_, Some(dash)) => typed.split_at(dash),
        (Some(arrow), None) => typed.split_at(arrow),
        (None, None) => return None,
    };
    (!head.is_empty()).then(|| head.to_string())
}

#[cfg(test)]
mod tests {
    use super::parent_of;

    #[test]
    fn parents_of_paths() {
        assert_eq!(parent_of("LT_"), None);
        assert_eq!(parent_of("LS_X-"), Some("LS_X".into()));
        assert_eq!(parent_of("LS_X-CO"), Some("LS_X".into()));
        assert_eq!(parent_of("LT_X[1]-"), Some("LT_X[1]".into()));
        assert_eq!(parent_of("LS_A-B-C"), Some("LS_A-B".into()));
        assert_eq!(parent_of("ME->MV"), Some("ME".into()));
        assert_eq!(parent_of("-X"), None);
    }
}
