//! ADT object URIs: parsing breakpoint/object references and building source positions.

use abap::{Location, ObjectKind, SourcePart};
use percent_encoding::percent_decode_str;

/// An object source named by an ADT URI, with an optional `#start=` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SourceRef {
    pub kind: ObjectKind,
    /// Upper case.
    pub object: String,
    pub part: SourcePart,
    pub line: Option<u32>,
    /// The function group of a function group's source (upper case), as the URI names it.
    pub group: Option<String>,
}

fn decode(s: &str) -> String {
    percent_decode_str(s).decode_utf8_lossy().into_owned()
}

/// Parse `/sap/bc/adt/oo/classes/<name>[/source/main|/includes/<x>][#start=N[,C]]` (also
/// programs and interfaces). `None` when it names nothing we know.
pub(crate) fn parse_source_uri(uri: &str) -> Option<SourceRef> {
    let (path, fragment) = match uri.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (uri, None),
    };
    let path = path.split('?').next().unwrap_or(path);
    if let Some(rest) = path.strip_prefix("/sap/bc/adt/functions/groups/") {
        return parse_function_uri(rest, fragment);
    }
    let (kind, rest) = if let Some(r) = path.strip_prefix("/sap/bc/adt/oo/classes/") {
        (ObjectKind::Class, r)
    } else if let Some(r) = path.strip_prefix("/sap/bc/adt/oo/interfaces/") {
        (ObjectKind::Interface, r)
    } else if let Some(r) = path.strip_prefix("/sap/bc/adt/programs/programs/") {
        (ObjectKind::Program, r)
    } else {
        return None;
    };
    let mut segs = rest.splitn(2, '/');
    let name = decode(segs.next()?).trim().to_uppercase();
    if name.is_empty() {
        return None;
    }
    let part = match segs.next().map(|s| s.trim_end_matches('/')) {
        None | Some("") | Some("source/main") => SourcePart::Main,
        Some("includes/definitions") => SourcePart::Definitions,
        Some("includes/implementations") => SourcePart::Implementations,
        Some("includes/testclasses") => SourcePart::TestClasses,
        Some(_) => return None,
    };
    let line = fragment.and_then(parse_start);
    Some(SourceRef {
        kind,
        object: name,
        part,
        line,
        group: None,
    })
}

/// The part of a function group URI after `/functions/groups/`: `<group>[/source/main]` (the
/// main program), `<group>/fmodules/<module>[/source/main]`, `<group>/includes/<include>
/// [/source/main]`.
fn parse_function_uri(rest: &str, fragment: Option<&str>) -> Option<SourceRef> {
    let segs: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
    let name = |s: &str| decode(s).trim().to_uppercase();
    let group = name(segs.first()?);
    let (kind, object, tail) = match segs.as_slice() {
        [_, "fmodules", m, tail @ ..] => (ObjectKind::FunctionModule, name(m), tail),
        [_, "includes", i, tail @ ..] => (ObjectKind::FunctionInclude, name(i), tail),
        [_, tail @ ..] => (ObjectKind::FunctionGroup, group.clone(), tail),
        [] => return None,
    };
    if group.is_empty() || object.is_empty() || !matches!(tail, [] | ["source", "main"]) {
        return None;
    }
    Some(SourceRef {
        kind,
        object,
        part: SourcePart::Main,
        line: fragment.and_then(parse_start),
        group: Some(group),
    })
}

/// The group whose main program is `program`: `SAPLZFG` → `ZFG`, `/NS/SAPLFG` → `/NS/FG`.
fn group_of_program(program: &str) -> String {
    let (ns, bare) = match program.strip_prefix('/').and_then(|r| r.find('/')) {
        Some(i) => program.split_at(i + 2),
        None => ("", program),
    };
    format!("{ns}{}", bare.strip_prefix("SAPL").unwrap_or(bare))
}

/// `start=N` or `start=N,C` inside a fragment such as `start=12,0` or `type=…;start=12`.
fn parse_start(fragment: &str) -> Option<u32> {
    fragment.split(';').find_map(|item| {
        let v = item.trim().strip_prefix("start=")?;
        let n = v.split(',').next()?.trim();
        n.parse::<u32>().ok()
    })
}

fn part_suffix(part: SourcePart) -> &'static str {
    match part {
        SourcePart::Main => "source/main",
        SourcePart::Definitions => "includes/definitions",
        SourcePart::Implementations => "includes/implementations",
        SourcePart::TestClasses => "includes/testclasses",
    }
}

fn encode_name(name: &str) -> String {
    percent_encoding::utf8_percent_encode(&name.to_lowercase(), percent_encoding::NON_ALPHANUMERIC)
        .to_string()
        .to_lowercase()
        .replace("%5f", "_")
}

/// The ADT object URI (without fragment) of an object part; `group` is the function group of
/// the function group kinds.
pub(crate) fn object_source_uri(
    kind: ObjectKind,
    object: &str,
    part: SourcePart,
    group: &str,
) -> String {
    let base = match kind {
        ObjectKind::Class => "/sap/bc/adt/oo/classes/",
        ObjectKind::Interface => "/sap/bc/adt/oo/interfaces/",
        ObjectKind::Program => "/sap/bc/adt/programs/programs/",
        ObjectKind::FunctionGroup => {
            return format!(
                "/sap/bc/adt/functions/groups/{}/source/main",
                encode_name(group)
            );
        }
        ObjectKind::FunctionModule | ObjectKind::FunctionInclude => {
            let what = if kind == ObjectKind::FunctionModule {
                "fmodules"
            } else {
                "includes"
            };
            return format!(
                "/sap/bc/adt/functions/groups/{}/{what}/{}/source/main",
                encode_name(group),
                encode_name(object)
            );
        }
    };
    format!("{base}{}/{}", encode_name(object), part_suffix(part))
}

/// `…/source/main#start=N` for a stop location (`,0` appended when `top`).
pub(crate) fn location_uri(loc: &Location, top: bool) -> String {
    let mut s = format!(
        "{}#start={}",
        object_source_uri(
            loc.kind,
            &loc.object,
            loc.part,
            &group_of_program(&loc.program)
        ),
        loc.line
    );
    if top {
        s.push_str(",0");
    }
    s
}

/// ADT object type (`CLAS/OC`, `INTF/OI`, `PROG/P`).
pub(crate) fn adt_type(kind: ObjectKind) -> &'static str {
    match kind {
        ObjectKind::Class => "CLAS/OC",
        ObjectKind::Interface => "INTF/OI",
        ObjectKind::Program => "PROG/P",
        ObjectKind::FunctionGroup => "FUGR/F",
        ObjectKind::FunctionModule => "FUGR/FF",
        ObjectKind::FunctionInclude => "FUGR/I",
    }
}

/// `NAME` of a debuggee record: the class name, or for programs the main program padded to
/// 40 characters followed by the include.
pub(crate) fn debuggee_name(loc: &Location) -> String {
    match loc.kind {
        ObjectKind::Program
        | ObjectKind::FunctionGroup
        | ObjectKind::FunctionModule
        | ObjectKind::FunctionInclude => format!("{:<40}{}", loc.program, loc.include),
        _ => loc.object.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_class_uris() {
        let r = parse_source_uri("/sap/bc/adt/oo/classes/zcl_x/source/main#start=35,0").unwrap();
        assert_eq!(r.object, "ZCL_X");
        assert_eq!(r.kind, ObjectKind::Class);
        assert_eq!(r.part, SourcePart::Main);
        assert_eq!(r.line, Some(35));
        let r = parse_source_uri("/sap/bc/adt/oo/classes/ZCL_X").unwrap();
        assert_eq!(r.line, None);
        let r = parse_source_uri("/sap/bc/adt/programs/programs/%2fabc%2fprog/source/main#start=3")
            .unwrap();
        assert_eq!(r.object, "/ABC/PROG");
        assert!(parse_source_uri("/sap/bc/adt/oo/classes//source/main").is_none());
        assert!(parse_source_uri("/x").is_none());
        assert_eq!(
            parse_source_uri("/sap/bc/adt/oo/classes/a/source/main#type=X;start=7")
                .unwrap()
                .line,
            Some(7)
        );
    }

    #[test]
    fn builds_uris() {
        assert_eq!(
            object_source_uri(ObjectKind::Class, "/ABC/ZCL_X", SourcePart::Main, ""),
            "/sap/bc/adt/oo/classes/%2fabc%2fzcl_x/source/main"
        );
        assert_eq!(
            object_source_uri(ObjectKind::FunctionModule, "Z_FM", SourcePart::Main, "ZFG"),
            "/sap/bc/adt/functions/groups/zfg/fmodules/z_fm/source/main"
        );
        assert_eq!(group_of_program("SAPLZFG"), "ZFG");
        assert_eq!(group_of_program("/NS/SAPLFG"), "/NS/FG");
    }

    #[test]
    fn parses_function_group_uris() {
        let r = parse_source_uri(
            "/sap/bc/adt/functions/groups/zfg/fmodules/z_fm/source/main#start=4,0",
        )
        .unwrap();
        assert_eq!(
            (r.kind, r.object.as_str(), r.group.as_deref(), r.line),
            (ObjectKind::FunctionModule, "Z_FM", Some("ZFG"), Some(4))
        );
        let r = parse_source_uri("/sap/bc/adt/functions/groups/zfg/includes/lzfgtop/source/main")
            .unwrap();
        assert_eq!(
            (r.kind, r.object.as_str()),
            (ObjectKind::FunctionInclude, "LZFGTOP")
        );
        let r = parse_source_uri("/sap/bc/adt/functions/groups/%2fns%2ffg/source/main").unwrap();
        assert_eq!(
            (r.kind, r.object.as_str()),
            (ObjectKind::FunctionGroup, "/NS/FG")
        );
        assert!(
            parse_source_uri("/sap/bc/adt/functions/groups/zfg/fmodules//source/main").is_none()
        );
        assert!(parse_source_uri("/sap/bc/adt/functions/groups/zfg/other/x").is_none());
    }
}
