//! `dumps`, `dump`, `dump.catch`: the system's short dumps (ST22) as structured data, and one
//! turned into breakpoints that stop its next occurrence before it dies. Stateless: they need
//! no debuggee.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use adt::dumps::{DumpDocument, DumpEntry, FormattedDump};
use jsonl::args::{DumpArgs, DumpCatchArgs, DumpsArgs, decode};
use jsonl::results::{
    BreakpointsResult, DumpCatchResult, DumpChapter, DumpResult, DumpSummary, DumpVariable,
    DumpsResult, SourceLine,
};
use jsonl::{ErrorBody, ErrorCode};
use serde_json::{Value, json};

use crate::engine::Engine;
use crate::errors::from_adt;

/// How long `dump.catch` waits for another user's listener to be armed: its answer says
/// whether that user's next run is caught.
const ARM_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Source lines shown before and after the termination line.
const SOURCE_AROUND: u32 = 5;

pub(crate) async fn dumps(engine: &Arc<Engine>, args: &Value) -> Result<DumpsResult, ErrorBody> {
    let args: DumpsArgs = decode("dumps", args)?;
    crate::discovery::require(engine, crate::discovery::Feature::Dumps, "dumps").await?;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let since = args
        .since
        .as_deref()
        .map(|s| stamp("since", s, now))
        .transpose()?;
    let until = args
        .until
        .as_deref()
        .map(|s| stamp("until", s, now))
        .transpose()?;
    let user = match args.user.as_deref().map(str::trim) {
        Some("*") => None,
        Some(u) if !u.is_empty() => Some(u.to_uppercase()),
        _ => Some(engine.config.identity.user.to_uppercase()),
    };
    let filter = adt::dumps::DumpsFilter {
        user: user.clone(),
        from: since.clone(),
        to: until.clone(),
    };
    let mut entries = engine
        .main
        .dumps(&filter)
        .await
        .map_err(|e| from_adt("reading the short dumps", &e))?;
    // Systems ignore some filters (DUMPS.md): all of them again here, newest first.
    let program = args.program.as_deref().map(|p| p.trim().to_uppercase());
    entries.retain(|e| {
        let stamp = adt::dumps::stamp_of_iso(&e.time).unwrap_or_default();
        user.as_ref().is_none_or(|u| e.user.eq_ignore_ascii_case(u))
            && since.as_ref().is_none_or(|s| stamp >= *s)
            && until.as_ref().is_none_or(|u| stamp <= *u)
            && program
                .as_ref()
                .is_none_or(|p| e.program == *p || object_of_program(&e.program) == *p)
    });
    entries.sort_by(|a, b| {
        let key = |e: &DumpEntry| adt::dumps::stamp_of_iso(&e.time).unwrap_or_default();
        key(b).cmp(&key(a))
    });
    let error = args.error.as_deref().map(|e| e.trim().to_uppercase());
    let limit = args.limit.clamp(1, 200) as usize;
    let mut out = Vec::new();
    for entry in entries {
        if out.len() == limit {
            break;
        }
        // A class-based error is asked for by its class: the entry does not name it, the
        // dump does. A runtime error the entry names decides before anything is read.
        if let Some(want) = &error
            && !entry.runtime_error.eq_ignore_ascii_case(want)
            && !looks_like_class(want)
        {
            continue;
        }
        let (doc, text) = read(engine, &entry.id).await?;
        let summary = summary(&entry.id, Some(&entry), &doc, &text);
        if let Some(want) = &error
            && !summary.runtime_error.eq_ignore_ascii_case(want)
            && summary.exception.as_deref() != Some(want.as_str())
        {
            continue;
        }
        out.push(summary);
    }
    Ok(DumpsResult { dumps: out })
}

pub(crate) async fn dump(engine: &Arc<Engine>, args: &Value) -> Result<DumpResult, ErrorBody> {
    let args: DumpArgs = decode("dump", args)?;
    crate::discovery::require(engine, crate::discovery::Feature::Dumps, "dump").await?;
    let id = checked_id(&args.id)?;
    let (doc, text) = read(engine, &id).await?;
    let summary = summary(&id, None, &doc, &text);
    let chapters = text
        .chapters
        .iter()
        .map(|(title, text)| DumpChapter {
            title: title.clone(),
            text: text.clone(),
        })
        .collect();
    let termination = doc.termination();
    let stack = super::dump_stack::stack(engine, &text, termination.as_ref()).await;
    let variables = text
        .variables()
        .into_iter()
        .map(|v| DumpVariable {
            frame: v.frame,
            name: v.name,
            ty: String::new(),
            value: v.value,
        })
        .collect();
    let mut source = Vec::new();
    if let Some((uri, line)) = &termination
        && *line > 0
    {
        source = engine
            .sources
            .context(&engine.main, uri, *line, SOURCE_AROUND, SOURCE_AROUND)
            .await;
    }
    if source.is_empty() {
        // The dump's own extract, numbered as its include is.
        source = text
            .source()
            .into_iter()
            .map(|l| SourceLine {
                line: l.line,
                text: l.text,
                current: l.current,
            })
            .collect();
    }
    Ok(DumpResult {
        summary,
        chapters,
        stack,
        variables,
        source,
    })
}

pub(crate) async fn catch(engine: &Arc<Engine>, args: &Value) -> Result<Value, ErrorBody> {
    let args: DumpCatchArgs = decode("dump.catch", args)?;
    crate::discovery::require(engine, crate::discovery::Feature::Dumps, "dump.catch").await?;
    let id = checked_id(&args.id)?;
    let doc = engine
        .main
        .dump(&id)
        .await
        .map_err(|e| dump_error(&id, &e))?;
    let ours = engine.config.identity.user.to_uppercase();
    let user = args
        .user
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .unwrap_or(&doc.user)
        .to_uppercase();
    let Some((uri, line)) = doc.termination().filter(|(_, line)| *line > 0) else {
        return Err(ErrorBody::new(
            ErrorCode::InvalidArgs,
            format!("dump {id} names no termination point in source"),
        )
        .with_hint("set a statement breakpoint on the failing statement with bp.set"));
    };
    let location = abapgit::SourceUnit::from_uri(&uri)
        .map(|u| u.location(line))
        .unwrap_or_else(|| format!("{uri}#start={line}"));
    let mut request = json!({"location": location});
    if !doc.exception.is_empty() {
        request["exception"] = json!(doc.exception);
    }
    // Another user's dump: breakpoints with that user as `requestUser`, caught by a listener
    // of ours for that user (a run by that user in any session stops there).
    let other = (user != ours).then_some(user.as_str());
    let set = match other {
        Some(u) => super::bp::set_for(engine, &request, u).await?,
        None => super::bp::set(engine, &request).await?,
    };
    let set: BreakpointsResult = serde_json::from_value(set).map_err(|e| {
        ErrorBody::new(
            ErrorCode::Internal,
            format!("dump.catch: the breakpoints' answer does not read: {e}"),
        )
    })?;
    engine.update(|inner| {
        for b in &set.breakpoints {
            inner.dump_catches.insert(b.id, id.clone());
        }
    });
    let armed = match other {
        Some(u) => {
            crate::user_listeners::ensure_started(engine, u);
            crate::user_listeners::wait_armed(engine, u, ARM_WAIT).await?;
            true
        }
        None => {
            let listening = super::control::listen(engine, &json!({})).await?;
            listening
                .get("armed")
                .and_then(Value::as_bool)
                .unwrap_or(false)
        }
    };
    crate::to_proto::ok(DumpCatchResult {
        id,
        user,
        breakpoints: set.breakpoints,
        armed,
        warning: set.warning,
    })
}

/// The id as the feed writes it; nothing that could leave the dump's address.
fn checked_id(id: &str) -> Result<String, ErrorBody> {
    let id = id.trim();
    if id.is_empty() || id.contains(['/', '?', '#']) {
        return Err(
            ErrorBody::new(ErrorCode::InvalidArgs, format!("'{id}' is not a dump id"))
                .with_hint("take the id from the 'dumps' answer"),
        );
    }
    Ok(id.to_string())
}

fn dump_error(id: &str, e: &adt::AdtError) -> ErrorBody {
    if e.class() == adt::ErrorClass::NotFound {
        ErrorBody::new(ErrorCode::DumpNotFound, format!("no short dump {id}"))
            .with_hint("list the dumps with 'dumps'; the system deletes old ones")
    } else {
        from_adt("reading the short dump", e)
    }
}

/// The dump's document and its formatted text, cut into chapters.
async fn read(engine: &Engine, id: &str) -> Result<(DumpDocument, FormattedDump), ErrorBody> {
    let doc = engine.main.dump(id).await.map_err(|e| dump_error(id, &e))?;
    let text = engine
        .main
        .dump_formatted(id)
        .await
        .map_err(|e| dump_error(id, &e))?;
    let formatted = adt::dumps::parse_formatted(&text, &doc.chapters);
    Ok((doc, formatted))
}

fn summary(
    id: &str,
    entry: Option<&DumpEntry>,
    doc: &DumpDocument,
    text: &FormattedDump,
) -> DumpSummary {
    let pick =
        |a: Option<&str>, b: &str| a.filter(|s| !s.is_empty()).unwrap_or(b).trim().to_string();
    let termination = text.termination();
    let (line, file) = match doc.termination() {
        Some((uri, line)) => (
            line,
            abapgit::SourceUnit::from_uri(&uri).map(|u| u.file_name()),
        ),
        None => (termination.line, None),
    };
    let exception = Some(doc.exception.clone())
        .filter(|e| !e.is_empty())
        .or_else(|| text.header("Except.").map(str::to_string));
    let short_text = Some(text.short_text())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| entry.map(|e| e.short_text.clone()).unwrap_or_default());
    DumpSummary {
        id: id.to_string(),
        time: pick(entry.map(|e| e.time.as_str()), &doc.time),
        user: pick(entry.map(|e| e.user.as_str()), &doc.user),
        runtime_error: pick(entry.map(|e| e.runtime_error.as_str()), &doc.runtime_error),
        exception,
        program: pick(entry.map(|e| e.program.as_str()), &doc.program),
        include: termination.include,
        line,
        file,
        short_text,
    }
}

/// `ZCL_ORDER` of the class pool `ZCL_ORDER=====…CP`; a report's name as it is.
pub(super) fn object_of_program(program: &str) -> String {
    match program.split_once('=') {
        Some((object, _)) => object.to_string(),
        None => program.to_string(),
    }
}

/// `CX_SY_ZERODIVIDE`, `ZCX_ORDER`, `/NS/CX_X`: an exception class rather than a runtime
/// error's name.
fn looks_like_class(name: &str) -> bool {
    let base = name.rsplit('/').next().unwrap_or(name);
    base.starts_with("CX_") || base.get(1..4) == Some("CX_")
}

/// `YYYYMMDDhhmmss` of an ISO 8601 time or an age (`30m`, `1h`, `2d`, `45s`) before `now`.
fn stamp(what: &str, text: &str, now: u64) -> Result<String, ErrorBody> {
    let text = text.trim();
    let age = text
        .strip_suffix(['s', 'm', 'h', 'd', 'w'])
        .and_then(|n| n.parse::<u64>().ok())
        .map(|n| {
            let unit = match text.chars().last() {
                Some('s') => 1,
                Some('m') => 60,
                Some('h') => 3_600,
                Some('d') => 86_400,
                _ => 604_800,
            };
            n.saturating_mul(unit)
        });
    match age {
        Some(secs) => Ok(adt::dumps::stamp_of_unix(now.saturating_sub(secs))),
        None => adt::dumps::stamp_of_iso(text).ok_or_else(|| {
            ErrorBody::new(
                ErrorCode::InvalidArgs,
                format!("dumps: {what} '{text}' is neither an ISO 8601 time nor an age"),
            )
            .with_hint("e.g. 2026-11-28T10:00:00Z, 2026-11-28, 30m, 1h or 2d")
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_and_times() {
        let now = 1_795_169_700; // 2026-11-20T10:15:00Z
        assert_eq!(stamp("since", "1h", now).unwrap(), "20261120091500");
        assert_eq!(stamp("since", "2d", now).unwrap(), "20261118101500");
        assert_eq!(
            stamp("since", "2026-11-20T08:00:00Z", now).unwrap(),
            "20261120080000"
        );
        assert!(stamp("since", "yesterday", now).is_err());
    }

    #[test]
    fn names() {
        assert!(looks_like_class("CX_SY_ZERODIVIDE"));
        assert!(looks_like_class("ZCX_ORDER"));
        assert!(looks_like_class("/NS/CX_X"));
        assert!(!looks_like_class("COMPUTE_INT_ZERODIVIDE"));
        assert_eq!(object_of_program("ZCL_X=========CP"), "ZCL_X");
        assert_eq!(object_of_program("ZREPORT"), "ZREPORT");
        assert!(checked_id("a/b").is_err());
        assert!(checked_id(" x%20y ").is_ok());
    }
}
