//! abapGit file names ↔ the ABAP source they hold.
//!
//! An editor names a source by its file (`src/zcl_order.clas.testclasses.abap`); the session
//! names it by object and include (the location `ZCL_ORDER/testclasses:12`, a frame's URI
//! `/sap/bc/adt/oo/classes/zcl_order/includes/testclasses`). This file maps both ways:
//! [`SourceUnit::from_path`] reads a file name, [`SourceUnit::location`] writes the session's
//! location for a line, [`SourceUnit::from_uri`] reads a frame's URI and
//! [`SourceUnit::file_name`] gives the abapGit file that holds it.
//!
//! abapGit writes names in lower case, namespaces as `#ns#name`, and function groups as one
//! file per member: `zfg.fugr.z_fm.abap` (a function module), `zfg.fugr.lzfgtop.abap` (an
//! include), `zfg.fugr.saplzfg.abap` (the group's main program).
//!
//! This crate is the one place that knows these rules: the ADT client (reading what users
//! type), the engine (naming a frame's `file`), the CLI, the Nushell plugin and the DAP
//! adapter all use it. It speaks no HTTP and knows no session.

use std::path::Path;

/// A part of a class's source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassPart {
    /// `.clas.abap`: `/source/main`.
    Main,
    /// `.clas.testclasses.abap`.
    TestClasses,
    /// `.clas.locals_imp.abap`: ADT's `implementations` include.
    LocalsImp,
    /// `.clas.locals_def.abap`: ADT's `definitions` include.
    LocalsDef,
    /// `.clas.macros.abap`.
    Macros,
}

impl ClassPart {
    /// The abapGit file suffix part (`testclasses` in `.clas.testclasses.abap`).
    fn file_part(self) -> Option<&'static str> {
        match self {
            ClassPart::Main => None,
            ClassPart::TestClasses => Some("testclasses"),
            ClassPart::LocalsImp => Some("locals_imp"),
            ClassPart::LocalsDef => Some("locals_def"),
            ClassPart::Macros => Some("macros"),
        }
    }

    /// The include's name in ADT URIs (`/includes/<part>`; `main` is `/source/main`).
    pub fn uri_part(self) -> &'static str {
        match self {
            ClassPart::Main => "main",
            ClassPart::TestClasses => "testclasses",
            ClassPart::LocalsImp => "implementations",
            ClassPart::LocalsDef => "definitions",
            ClassPart::Macros => "macros",
        }
    }

    fn from_file_part(part: &str) -> Option<ClassPart> {
        Some(match part {
            "testclasses" => ClassPart::TestClasses,
            "locals_imp" => ClassPart::LocalsImp,
            "locals_def" => ClassPart::LocalsDef,
            "macros" => ClassPart::Macros,
            _ => return None,
        })
    }

    fn from_uri_part(part: &str) -> Option<ClassPart> {
        Some(match part {
            "main" => ClassPart::Main,
            "testclasses" => ClassPart::TestClasses,
            "implementations" => ClassPart::LocalsImp,
            "definitions" => ClassPart::LocalsDef,
            "macros" => ClassPart::Macros,
            _ => return None,
        })
    }
}

/// One source an abapGit file holds. Names are upper case, namespaces with slashes
/// (`/NS/CL_X`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceUnit {
    Class {
        name: String,
        part: ClassPart,
    },
    Interface {
        name: String,
    },
    Program {
        name: String,
    },
    /// A member of a function group: `SAPL<group>`, an include `L<group>…`, or a module.
    FunctionGroup {
        group: String,
        member: String,
    },
}

/// Why a path is not an abapGit source file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    #[error("'{0}' is not an ABAP file (abapGit names end in .abap)")]
    NotAbap(String),
    #[error("'{0}' does not start with an ABAP object name")]
    BadName(String),
    #[error(
        "'{file}': unknown class include '.{part}.abap' (testclasses, locals_imp, locals_def, macros)"
    )]
    UnknownClassPart { file: String, part: String },
    #[error("'{0}' is not a class, interface, program or function group file")]
    UnknownType(String),
}

/// `#ns#name` → `/NS/NAME`.
fn from_file_name(name: &str) -> String {
    name.replace('#', "/").to_uppercase()
}

/// `/NS/NAME` → `#ns#name`.
fn to_file_name(name: &str) -> String {
    name.replace('/', "#").to_lowercase()
}

/// ABAP object names: letters, digits, `_`, and a `/NS/` namespace prefix; at most 40.
fn valid_name(name: &str) -> bool {
    let bare = match name.strip_prefix('/') {
        Some(rest) => match rest.split_once('/') {
            Some((ns, bare)) if !ns.is_empty() => bare,
            _ => return false,
        },
        None => name,
    };
    !bare.is_empty()
        && name.len() <= 40
        && bare
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// Undoes the percent-encoding of names in URIs (`%2fns%2fcl_x` → `/ns/cl_x`).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = s.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The name of a function group member, without its namespace.
fn bare(name: &str) -> &str {
    match name.strip_prefix('/').and_then(|r| r.find('/')) {
        Some(i) => &name[i + 2..],
        None => name,
    }
}

impl SourceUnit {
    /// Reads an abapGit file path (any directory; only the file name counts).
    pub fn from_path(path: &str) -> Result<SourceUnit, PathError> {
        let file = Path::new(path)
            .file_name()
            .map(|f| f.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let parts: Vec<&str> = file.split('.').collect();
        if parts.last() != Some(&"abap") || parts.len() < 3 {
            return Err(PathError::NotAbap(file));
        }
        let name = from_file_name(parts[0]);
        if !valid_name(&name) {
            return Err(PathError::BadName(file));
        }
        match &parts[1..] {
            ["clas", "abap"] => Ok(SourceUnit::Class {
                name,
                part: ClassPart::Main,
            }),
            ["clas", part, "abap"] => match ClassPart::from_file_part(part) {
                Some(part) => Ok(SourceUnit::Class { name, part }),
                None => Err(PathError::UnknownClassPart {
                    file: file.clone(),
                    part: (*part).to_string(),
                }),
            },
            ["intf", "abap"] => Ok(SourceUnit::Interface { name }),
            ["prog", "abap"] => Ok(SourceUnit::Program { name }),
            ["fugr", member, "abap"] => {
                let member = from_file_name(member);
                if !valid_name(&member) {
                    return Err(PathError::BadName(file));
                }
                Ok(SourceUnit::FunctionGroup {
                    group: name,
                    member,
                })
            }
            _ => Err(PathError::UnknownType(file)),
        }
    }

    /// The abapGit file name that holds this source (`zcl_x.clas.locals_imp.abap`).
    pub fn file_name(&self) -> String {
        match self {
            SourceUnit::Class { name, part } => match part.file_part() {
                None => format!("{}.clas.abap", to_file_name(name)),
                Some(p) => format!("{}.clas.{p}.abap", to_file_name(name)),
            },
            SourceUnit::Interface { name } => format!("{}.intf.abap", to_file_name(name)),
            SourceUnit::Program { name } => format!("{}.prog.abap", to_file_name(name)),
            SourceUnit::FunctionGroup { group, member } => {
                format!("{}.fugr.{}.abap", to_file_name(group), to_file_name(member))
            }
        }
    }

    /// The session's location of `line` in this source (jsonl/PROTOCOL.md, `bp.set`), with the
    /// object type spelled out so names off the naming conventions work too.
    pub fn location(&self, line: u32) -> String {
        match self {
            SourceUnit::Class { name, part } => match part.file_part() {
                None => format!("CLAS:{name}:{line}"),
                Some(p) => format!("CLAS:{name}/{p}:{line}"),
            },
            SourceUnit::Interface { name } => format!("INTF:{name}:{line}"),
            SourceUnit::Program { name } => format!("PROG:{name}:{line}"),
            SourceUnit::FunctionGroup { group, member } => {
                if bare(member) == format!("SAPL{}", bare(group)) {
                    format!("FUGR:{group}:{line}")
                } else {
                    format!("FUGR:{group}/{member}:{line}")
                }
            }
        }
    }

    /// The repository type of the object the source belongs to: `CLAS`, `INTF`, `PROG`,
    /// `FUGR`.
    pub fn object_type(&self) -> &'static str {
        match self {
            SourceUnit::Class { .. } => "CLAS",
            SourceUnit::Interface { .. } => "INTF",
            SourceUnit::Program { .. } => "PROG",
            SourceUnit::FunctionGroup { .. } => "FUGR",
        }
    }

    /// The object the source belongs to (the class, the group), for display.
    pub fn object(&self) -> &str {
        match self {
            SourceUnit::Class { name, .. }
            | SourceUnit::Interface { name }
            | SourceUnit::Program { name } => name,
            SourceUnit::FunctionGroup { group, .. } => group,
        }
    }

    /// The ADT source URI (without a fragment), names lower case and percent-encoded.
    pub fn uri(&self) -> String {
        let enc = |n: &str| n.to_lowercase().replace('/', "%2f");
        match self {
            SourceUnit::Class { name, part } => match part {
                ClassPart::Main => format!("/sap/bc/adt/oo/classes/{}/source/main", enc(name)),
                p => format!(
                    "/sap/bc/adt/oo/classes/{}/includes/{}",
                    enc(name),
                    p.uri_part()
                ),
            },
            SourceUnit::Interface { name } => {
                format!("/sap/bc/adt/oo/interfaces/{}/source/main", enc(name))
            }
            SourceUnit::Program { name } => {
                format!("/sap/bc/adt/programs/programs/{}/source/main", enc(name))
            }
            SourceUnit::FunctionGroup { group, member } => {
                let g = enc(group);
                if bare(member) == format!("SAPL{}", bare(group)) {
                    format!("/sap/bc/adt/functions/groups/{g}/source/main")
                } else if bare(member).starts_with(&format!("L{}", bare(group))) {
                    format!(
                        "/sap/bc/adt/functions/groups/{g}/includes/{}/source/main",
                        enc(member)
                    )
                } else {
                    format!(
                        "/sap/bc/adt/functions/groups/{g}/fmodules/{}/source/main",
                        enc(member)
                    )
                }
            }
        }
    }

    /// Reads an ADT source URI as a frame carries it (`…/oo/classes/zcl_x/source/main#start=4`);
    /// `None` for URIs of other shapes.
    pub fn from_uri(uri: &str) -> Option<SourceUnit> {
        let path = uri.split(['#', '?']).next().unwrap_or_default();
        let rest = path.strip_prefix("/sap/bc/adt/")?;
        let segs: Vec<String> = rest.split('/').map(percent_decode).collect();
        let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
        let up = |s: &str| s.to_uppercase();
        match segs.as_slice() {
            ["oo", "classes", name, "source", "main"] => Some(SourceUnit::Class {
                name: up(name),
                part: ClassPart::Main,
            }),
            ["oo", "classes", name, "includes", part] => Some(SourceUnit::Class {
                name: up(name),
                part: ClassPart::from_uri_part(part)?,
            }),
            ["oo", "interfaces", name, "source", "main"] => {
                Some(SourceUnit::Interface { name: up(name) })
            }
            ["programs", "programs", name, "source", "main"] => {
                Some(SourceUnit::Program { name: up(name) })
            }
            ["functions", "groups", group, "source", "main"] => {
                let group = up(group);
                let member = match group.strip_prefix('/').and_then(|r| r.split_once('/')) {
                    Some((ns, g)) => format!("/{ns}/SAPL{g}"),
                    None => format!("SAPL{group}"),
                };
                Some(SourceUnit::FunctionGroup { group, member })
            }
            [
                "functions",
                "groups",
                group,
                "fmodules" | "includes",
                member,
                "source",
                "main",
            ] => Some(SourceUnit::FunctionGroup {
                group: up(group),
                member: up(member),
            }),
            _ => None,
        }
    }
}
