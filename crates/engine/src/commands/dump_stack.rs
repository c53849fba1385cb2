//! A dump's active calls as protocol frames, each with the abapGit `file` and the line in it
//! where its include is known. A dump names a call by program, include and line in the
//! include; frames name it by the object's source and the line there, so the include is
//! mapped to its source (a class's method include lies inside the class's main source, from
//! its `METHOD` statement on).

use abapgit::{ClassPart, SourceUnit};
use adt::dumps::{DumpCall, FormattedDump};
use jsonl::results::Frame;

use crate::engine::Engine;

/// Where an include's lines are in the object's source.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    /// The include is the whole source: its line is the file's.
    Whole(SourceUnit),
    /// A class's method include: line 1 is the `METHOD` statement of `method` in the class's
    /// main source.
    Method { class: String, method: String },
}

/// The active calls, innermost first. The innermost has the termination point's URI and line
/// (in the object's source); the others the line their include maps to, when it does.
pub(super) async fn stack(
    engine: &Engine,
    text: &FormattedDump,
    termination: Option<&(String, u32)>,
) -> Vec<Frame> {
    let mut frames = Vec::new();
    for (index, call) in text.calls().into_iter().enumerate() {
        let method = call
            .name
            .rsplit_once("=>")
            .map_or(call.name.as_str(), |(_, m)| m)
            .to_string();
        let placed = match (index, termination) {
            (0, Some((uri, line))) if *line > 0 => Some((uri.clone(), *line)),
            _ => place(engine, &call, &method).await,
        };
        let (uri, line) = match placed {
            Some((uri, line)) => (format!("{uri}#start={line}"), line),
            None => (String::new(), call.line),
        };
        let unit = SourceUnit::from_uri(&uri);
        frames.push(Frame {
            index,
            object: if uri.is_empty() {
                super::dumps::object_of_program(&call.program)
            } else {
                adt::address::object_name(&uri)
            },
            object_type: unit
                .as_ref()
                .map(|u| u.object_type().to_string())
                .unwrap_or_default(),
            file: unit.map(|u| u.file_name()),
            method,
            event_type: call.event_type,
            program: call.program,
            include: call.include,
            line,
            uri,
            system: false,
            source: None,
        });
    }
    frames
}

/// The source URI and the line in it of a call, when its include is known.
async fn place(engine: &Engine, call: &DumpCall, method: &str) -> Option<(String, u32)> {
    match place_of(&call.program, &call.include, method)? {
        Place::Whole(unit) => Some((unit.uri(), call.line)),
        Place::Method { class, method } => {
            let unit = SourceUnit::Class {
                name: class,
                part: ClassPart::Main,
            };
            let uri = unit.uri();
            let lines = engine.sources.lines(&engine.main, &uri).await?;
            let start = method_line(&lines, &method)?;
            Some((uri, start + call.line.max(1) - 1))
        }
    }
}

/// What source an include of `program` is: a class pool's method include or one of its local
/// includes, or a report (or a report's include).
fn place_of(program: &str, include: &str, method: &str) -> Option<Place> {
    let (pool, pool_part) = split_pool(program)?;
    if pool_part.is_empty() {
        // A report or one of its includes; a function group's program is not one.
        if program.starts_with("SAPL") || program.contains("/SAPL") {
            return None;
        }
        let name = if include.is_empty() { program } else { include };
        return Some(Place::Whole(SourceUnit::Program {
            name: name.to_string(),
        }));
    }
    if pool_part != "CP" {
        return None;
    }
    let (class, part) = split_pool(include)?;
    if class != pool {
        return None;
    }
    let whole = |part| {
        Some(Place::Whole(SourceUnit::Class {
            name: class.to_string(),
            part,
        }))
    };
    match part {
        "CCIMP" => whole(ClassPart::LocalsImp),
        "CCDEF" => whole(ClassPart::LocalsDef),
        "CCAU" => whole(ClassPart::TestClasses),
        "CCMAC" => whole(ClassPart::Macros),
        p if p.starts_with("CM") && p.len() == 5 => Some(Place::Method {
            class: class.to_string(),
            method: method.to_string(),
        }),
        _ => None,
    }
}

/// `ZCL_X=========CM001` → (`ZCL_X`, `CM001`); a name without padding → (name, ``).
/// Class pools and their includes pad the name with `=` to 30 characters.
fn split_pool(name: &str) -> Option<(&str, &str)> {
    if name.is_empty() {
        return None;
    }
    match name.find('=') {
        Some(at) => Some((&name[..at], name[at..].trim_start_matches('='))),
        None if name.len() > 30 && name.is_char_boundary(30) => Some((&name[..30], &name[30..])),
        None => Some((name, "")),
    }
}

/// The 1-based line of `METHOD <method>.` in a class's source (`IF_X~RUN` as written).
fn method_line(lines: &[String], method: &str) -> Option<u32> {
    let want = method.to_uppercase();
    lines
        .iter()
        .position(|l| {
            let words: Vec<String> = l
                .split_whitespace()
                .take(2)
                .map(str::to_uppercase)
                .collect();
            words.len() == 2 && words[0] == "METHOD" && words[1].trim_end_matches('.') == want
        })
        .and_then(|i| u32::try_from(i + 1).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn includes_map_to_their_sources() {
        let pool = "ZCL_ORDER=====================CP";
        assert_eq!(
            place_of(pool, "ZCL_ORDER=====================CM002", "DIVIDE"),
            Some(Place::Method {
                class: "ZCL_ORDER".into(),
                method: "DIVIDE".into()
            })
        );
        assert_eq!(
            place_of(pool, "ZCL_ORDER=====================CCIMP", "RUN"),
            Some(Place::Whole(SourceUnit::Class {
                name: "ZCL_ORDER".into(),
                part: ClassPart::LocalsImp
            }))
        );
        assert_eq!(
            place_of(pool, "ZCL_ORDER=====================CCAU", "TEST"),
            Some(Place::Whole(SourceUnit::Class {
                name: "ZCL_ORDER".into(),
                part: ClassPart::TestClasses
            }))
        );
        // Another class's include, a section include, a function group: not known.
        assert_eq!(
            place_of(pool, "ZCL_OTHER=====================CM001", "X"),
            None
        );
        assert_eq!(
            place_of(pool, "ZCL_ORDER=====================CU", "X"),
            None
        );
        assert_eq!(place_of("SAPLZFG", "LZFGU01", "Z_FM"), None);
        assert_eq!(
            place_of("ZREPORT", "ZREPORT_F01", "FORM1"),
            Some(Place::Whole(SourceUnit::Program {
                name: "ZREPORT_F01".into()
            }))
        );
    }

    #[test]
    fn a_method_is_found_by_its_statement() {
        let lines: Vec<String> = [
            "CLASS zcl_x IMPLEMENTATION.",
            "  METHOD if_oo_adt_classrun~main.",
            "  ENDMETHOD.",
            "  method share .",
            "  ENDMETHOD.",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(method_line(&lines, "IF_OO_ADT_CLASSRUN~MAIN"), Some(2));
        assert_eq!(method_line(&lines, "SHARE"), Some(4));
        assert_eq!(method_line(&lines, "NOPE"), None);
    }
}
