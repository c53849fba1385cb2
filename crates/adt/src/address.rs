//! What users type for a source position, mapped to ADT source URIs.
//!
//! Accepted forms:
//!
//! * `ZCL_ORDER:42` — line 42 of a class's `/source/main` (names that look like classes:
//!   `CL_`, `CX_`, `ZCL_`, `YCL_`, `/NS/CL_…`, …); interfaces (`IF_`, `ZIF_`) go to
//!   `/oo/interfaces`; any other name is a program (`/programs/programs`).
//! * `CLAS:ZORDER:42`, `INTF:…`, `PROG:…` — an explicit object type for names that do not
//!   follow the conventions.
//! * `ZCL_ORDER/testclasses:12` (also `implementations`, `definitions`, `locals_imp`,
//!   `locals_def`) — a class include.
//! * abapGit file paths: `src/zcl_order.clas.abap:42`, `zcl_order.clas.testclasses.abap:12`,
//!   `zcl_order.clas.locals_imp.abap:3`, `zif_x.intf.abap:5`, `zreport.prog.abap:9`, and
//!   function groups: `zfg.fugr.z_fm.abap:3` (function module), `zfg.fugr.lzfgtop.abap:2`
//!   (include), `zfg.fugr.saplzfg.abap:1` (main program); namespaces as `#ns#fg.fugr.…`.
//! * Function groups: `FUGR:ZFG:5` (the group's main program `SAPLZFG`), `FUGR:ZFG/LZFGF01:5`
//!   (an include of the group: its name starts with `L<group>`), `FUGR:ZFG/Z_FM:5` or
//!   `FUNC:ZFG/Z_FM:5` (a function module; ADT addresses modules through their group).
//!   Namespaced: `FUGR:/NS/FG//NS/FM:5` (a `/` between group and member, the member keeps its
//!   own leading `/`).
//! * Program includes: `INCL:ZINCLUDE:7` (`/programs/includes/…`).
//!
//! Names go into URIs lower case and percent-encoded (`/NS/CL_X` → `%2fns%2fcl_x`).

use crate::transport::encode;

/// A line in an object's source, ready for a breakpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceLocation {
    /// Object name, upper case (`ZCL_ORDER`, `/NS/CL_X`).
    pub object: String,
    /// Source URI without fragment.
    pub uri: String,
    /// 1-based line in that source.
    pub line: u32,
}

/// Why a location text was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct AddressError(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Class,
    Interface,
    Program,
    ProgramInclude,
    /// `FUGR:`: the group itself or a member (include or function module).
    FunctionGroup,
    /// `FUNC:`: a function module of a group.
    FunctionModule,
}

/// Class include names in URIs, from what users may write.
fn class_include(part: &str) -> Option<&'static str> {
    match part.to_ascii_lowercase().as_str() {
        "main" | "source" => Some("main"),
        "testclasses" => Some("testclasses"),
        "implementations" | "locals_imp" => Some("implementations"),
        "definitions" | "locals_def" => Some("definitions"),
        "macros" => Some("macros"),
        _ => None,
    }
}

fn valid_name(name: &str) -> bool {
    if name.is_empty() || name.len() > 40 {
        return false;
    }
    // Namespaced names: /NS/NAME.
    let bare = match name.strip_prefix('/') {
        Some(rest) => match rest.split_once('/') {
            Some((ns, tail)) if !ns.is_empty() && !tail.is_empty() => {
                if !ns.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return false;
                }
                tail
            }
            _ => return false,
        },
        None => name,
    };
    bare.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn guess_kind(name: &str) -> Kind {
    let bare = match name.strip_prefix('/') {
        Some(rest) => rest.split_once('/').map(|(_, t)| t).unwrap_or(rest),
        None => name,
    };
    let bare = bare.trim_start_matches(['Z', 'Y']);
    if bare.starts_with("CL_") || bare.starts_with("CX_") {
        Kind::Class
    } else if bare.starts_with("IF_") {
        Kind::Interface
    } else {
        Kind::Program
    }
}

/// The object a source URI belongs to, upper case: `/sap/bc/adt/oo/classes/%2fns%2fcl_x/…`
/// → `/NS/CL_X`; for a function group's sources the module, the include or the group
/// (`…/groups/zfg/fmodules/z_fm/…` → `Z_FM`, the object [`parse_location`] names). Empty when
/// the URI names no class, interface, program or function group.
pub fn object_name(uri: &str) -> String {
    let path = uri.split('#').next().unwrap_or(uri);
    let segments: Vec<&str> = path.split('/').collect();
    let after = |kind: &str| {
        let i = segments.iter().rposition(|s| *s == kind)?;
        segments.get(i + 1).copied()
    };
    let name = if path.contains("/functions/groups/") {
        after("fmodules")
            .or_else(|| after("includes"))
            .or_else(|| after("groups"))
            .unwrap_or_default()
    } else if let Some(rest) = path.strip_prefix("/sap/bc/adt/programs/includes/") {
        rest.split('/').next().unwrap_or_default()
    } else {
        ["classes", "programs", "interfaces", "includes"]
            .iter()
            .find_map(|kind| after(kind))
            .unwrap_or_default()
    };
    percent_encoding::percent_decode_str(name)
        .decode_utf8_lossy()
        .to_uppercase()
}

/// The `/source/main` URI of a class.
pub fn class_uri(class: &str) -> String {
    format!("/sap/bc/adt/oo/classes/{}/source/main", encode_name(class))
}

fn encode_name(name: &str) -> String {
    encode(&name.to_lowercase()).to_lowercase()
}

fn uri_of(kind: Kind, name: &str, include: &str) -> String {
    let n = encode_name(name);
    match kind {
        Kind::Class if include == "main" => format!("/sap/bc/adt/oo/classes/{n}/source/main"),
        Kind::Class => format!("/sap/bc/adt/oo/classes/{n}/includes/{include}"),
        Kind::Interface => format!("/sap/bc/adt/oo/interfaces/{n}/source/main"),
        Kind::Program => format!("/sap/bc/adt/programs/programs/{n}/source/main"),
        Kind::ProgramInclude => format!("/sap/bc/adt/programs/includes/{n}/source/main"),
        Kind::FunctionGroup | Kind::FunctionModule => {
            format!("/sap/bc/adt/functions/groups/{n}/source/main")
        }
    }
}

/// A member of a function group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Member {
    /// The group's main program (`SAPL<group>`).
    Main,
    Include,
    Module,
}

/// The name without its namespace (`/NS/FG` → `FG`).
fn bare(name: &str) -> &str {
    match name.strip_prefix('/') {
        Some(rest) => rest.split_once('/').map(|(_, t)| t).unwrap_or(rest),
        None => name,
    }
}

/// The namespace prefix with its slashes (`/NS/FG` → `/NS/`), or `""`.
fn namespace(name: &str) -> &str {
    match name.strip_prefix('/').and_then(|r| r.find('/')) {
        Some(i) => &name[..i + 2],
        None => "",
    }
}

/// What a member name of group `group` is: `SAPL<group>` the main program, `L<group>…` an
/// include, anything else a function module.
fn member_kind(group: &str, member: &str) -> Member {
    let (g, m) = (bare(group), bare(member));
    let same_ns = namespace(member) == namespace(group);
    if same_ns && m == format!("SAPL{g}") {
        Member::Main
    } else if same_ns && m.len() > g.len() + 1 && m.starts_with(&format!("L{g}")) {
        Member::Include
    } else {
        Member::Module
    }
}

fn function_uri(group: &str, member: &str, kind: Member) -> String {
    let g = encode_name(group);
    let m = encode_name(member);
    match kind {
        Member::Main => format!("/sap/bc/adt/functions/groups/{g}/source/main"),
        Member::Include => format!("/sap/bc/adt/functions/groups/{g}/includes/{m}/source/main"),
        Member::Module => format!("/sap/bc/adt/functions/groups/{g}/fmodules/{m}/source/main"),
    }
}

/// Split `GROUP/MEMBER` where either may be namespaced (`/NS/FG//NS/FM`).
fn split_group_member(s: &str) -> (&str, Option<&str>) {
    let group_end = if let Some(rest) = s.strip_prefix('/') {
        match rest.find('/') {
            Some(i) => match rest[i + 1..].find('/') {
                Some(j) => 1 + i + 1 + j,
                None => return (s, None),
            },
            None => return (s, None),
        }
    } else {
        match s.find('/') {
            Some(i) => i,
            None => return (s, None),
        }
    };
    (&s[..group_end], Some(&s[group_end + 1..]))
}

/// `FUGR:`/`FUNC:` locations.
fn function_location(kind: Kind, rest: &str, line: u32) -> Result<SourceLocation, String> {
    let (group, member) = split_group_member(rest.trim());
    let group = group.trim().to_uppercase();
    if !valid_name(&group) {
        return Err("not a function group name".into());
    }
    let member = member.map(|m| m.trim().to_uppercase());
    match (kind, member) {
        (Kind::FunctionModule, None) => {
            Err("a function module is addressed through its group: FUNC:GROUP/MODULE:LINE".into())
        }
        (_, None) => Ok(SourceLocation {
            uri: function_uri(&group, "", Member::Main),
            object: group,
            line,
        }),
        (_, Some(m)) if !valid_name(&m) => Err("not a function module or include name".into()),
        (kind, Some(m)) => {
            let what = if kind == Kind::FunctionModule {
                Member::Module
            } else {
                member_kind(&group, &m)
            };
            Ok(SourceLocation {
                uri: function_uri(&group, &m, what),
                object: if what == Member::Main { group } else { m },
                line,
            })
        }
    }
}

fn bad(text: &str, why: &str) -> AddressError {
    AddressError(format!("cannot read location '{text}': {why}"))
}

/// Parse a location such as `ZCL_ORDER:42` (see the module docs for every form).
pub fn parse_location(text: &str) -> Result<SourceLocation, AddressError> {
    let t = text.trim();
    let (head, line) = t
        .rsplit_once(':')
        .ok_or_else(|| bad(t, "expected OBJECT:LINE"))?;
    let line: u32 = line
        .trim()
        .parse()
        .map_err(|_| bad(t, "the line must be a number"))?;
    if line == 0 {
        return Err(bad(t, "lines count from 1"));
    }
    let head = head.trim();
    if let Some(loc) = from_file_path(head, line) {
        return loc.map_err(|why| bad(t, &why));
    }
    // Explicit type prefix.
    let (explicit, rest) = match head.split_once(':') {
        Some((ty, rest)) => {
            let kind = match ty.trim().to_ascii_uppercase().as_str() {
                "CLAS" => Kind::Class,
                "INTF" => Kind::Interface,
                "PROG" => Kind::Program,
                "INCL" | "PROG/I" => Kind::ProgramInclude,
                "FUGR" => Kind::FunctionGroup,
                "FUNC" | "FUGR/FF" => Kind::FunctionModule,
                other => {
                    return Err(bad(
                        t,
                        &format!(
                            "unknown object type '{other}' (use CLAS, INTF, PROG, INCL, FUGR or FUNC)"
                        ),
                    ));
                }
            };
            (Some(kind), rest)
        }
        None => (None, head),
    };
    if matches!(explicit, Some(Kind::FunctionGroup | Kind::FunctionModule)) {
        let kind = explicit.unwrap_or(Kind::FunctionGroup);
        return function_location(kind, rest, line).map_err(|why| bad(t, &why));
    }
    // Optional class include after the last '/' that is not part of a namespace.
    let (name, include) = split_include(rest);
    let name = name.to_uppercase();
    if !valid_name(&name) {
        return Err(bad(t, "not an ABAP object name"));
    }
    let kind = explicit.unwrap_or_else(|| guess_kind(&name));
    let include = match include {
        None => "main",
        Some(part) => {
            if kind != Kind::Class {
                return Err(bad(t, "only classes have includes"));
            }
            class_include(part).ok_or_else(|| {
                bad(
                    t,
                    "unknown class include (testclasses, locals_imp, locals_def, macros)",
                )
            })?
        }
    };
    Ok(SourceLocation {
        uri: uri_of(kind, &name, include),
        object: name,
        line,
    })
}

/// `ZCL_X/testclasses` → (`ZCL_X`, `testclasses`); `/NS/CL_X` stays whole.
fn split_include(s: &str) -> (&str, Option<&str>) {
    match s.rfind('/') {
        Some(i) if i > 0 => {
            let (name, part) = (&s[..i], &s[i + 1..]);
            // `/NS/CL_X`: the last slash belongs to the namespace.
            if name.starts_with('/') && !name[1..].contains('/') {
                (s, None)
            } else {
                (name, Some(part))
            }
        }
        _ => (s, None),
    }
}

/// abapGit file names: `dir/name.clas.abap`, `name.clas.testclasses.abap`, … read by the
/// `abapgit` crate, the one place that knows those names. `None` when the text is not a file
/// path at all.
fn from_file_path(head: &str, line: u32) -> Option<Result<SourceLocation, String>> {
    if !head.to_ascii_lowercase().ends_with(".abap") {
        return None;
    }
    // Only the file name counts; a Windows path separates directories with backslashes.
    let file = head.rsplit(['/', '\\']).next().unwrap_or(head);
    let unit = match abapgit::SourceUnit::from_path(file) {
        Ok(unit) => unit,
        Err(e) => return Some(Err(e.to_string())),
    };
    let location = match unit {
        abapgit::SourceUnit::FunctionGroup { group, member } => {
            let what = member_kind(&group, &member);
            SourceLocation {
                uri: function_uri(&group, &member, what),
                object: if what == Member::Main { group } else { member },
                line,
            }
        }
        abapgit::SourceUnit::Class { name, part } => SourceLocation {
            uri: uri_of(Kind::Class, &name, part.uri_part()),
            object: name,
            line,
        },
        abapgit::SourceUnit::Interface { name } => SourceLocation {
            uri: uri_of(Kind::Interface, &name, "main"),
            object: name,
            line,
        },
        abapgit::SourceUnit::Program { name } => SourceLocation {
            uri: uri_of(Kind::Program, &name, "main"),
            object: name,
            line,
        },
    };
    Some(Ok(location))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn uri(text: &str) -> (String, String, u32) {
        let l = parse_location(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        (l.object, l.uri, l.line)
    }

    #[test]
    fn class_forms() {
        assert_eq!(
            uri("ZCL_ORDER:42"),
            (
                "ZCL_ORDER".into(),
                "/sap/bc/adt/oo/classes/zcl_order/source/main".into(),
                42
            )
        );
        assert_eq!(
            uri(" zcl_order : 7 ").1,
            "/sap/bc/adt/oo/classes/zcl_order/source/main"
        );
        assert_eq!(
            uri("CL_ABAP_TYPEDESCR:1").1,
            "/sap/bc/adt/oo/classes/cl_abap_typedescr/source/main"
        );
        assert_eq!(
            uri("ZCX_FAIL:1").1,
            "/sap/bc/adt/oo/classes/zcx_fail/source/main"
        );
        assert_eq!(
            uri("/NS/CL_X:3"),
            (
                "/NS/CL_X".into(),
                "/sap/bc/adt/oo/classes/%2fns%2fcl_x/source/main".into(),
                3
            )
        );
        assert_eq!(
            uri("ZCL_ORDER/testclasses:12").1,
            "/sap/bc/adt/oo/classes/zcl_order/includes/testclasses"
        );
        assert_eq!(
            uri("ZCL_ORDER/locals_imp:2").1,
            "/sap/bc/adt/oo/classes/zcl_order/includes/implementations"
        );
        assert_eq!(
            uri("/NS/CL_X/locals_def:2").1,
            "/sap/bc/adt/oo/classes/%2fns%2fcl_x/includes/definitions"
        );
        assert_eq!(
            uri("CLAS:ZORDER:5").1,
            "/sap/bc/adt/oo/classes/zorder/source/main"
        );
    }

    #[test]
    fn other_objects() {
        assert_eq!(
            uri("ZIF_ORDER:3").1,
            "/sap/bc/adt/oo/interfaces/zif_order/source/main"
        );
        assert_eq!(
            uri("ZREPORT:9").1,
            "/sap/bc/adt/programs/programs/zreport/source/main"
        );
        assert_eq!(
            uri("PROG:ZCL_LOOKS_LIKE_CLASS:9").1,
            "/sap/bc/adt/programs/programs/zcl_looks_like_class/source/main"
        );
    }

    #[test]
    fn abapgit_paths() {
        assert_eq!(
            uri("src/zcl_order.clas.abap:42").1,
            "/sap/bc/adt/oo/classes/zcl_order/source/main"
        );
        assert_eq!(
            uri("src/zcl_order.clas.testclasses.abap:12").1,
            "/sap/bc/adt/oo/classes/zcl_order/includes/testclasses"
        );
        assert_eq!(
            uri("zcl_order.clas.locals_imp.abap:1").1,
            "/sap/bc/adt/oo/classes/zcl_order/includes/implementations"
        );
        assert_eq!(uri("src/#ns#cl_x.clas.abap:4").0, "/NS/CL_X");
        assert_eq!(
            uri("a\\b\\zif_x.intf.abap:5").1,
            "/sap/bc/adt/oo/interfaces/zif_x/source/main"
        );
        assert_eq!(
            uri("zrep.prog.abap:9").1,
            "/sap/bc/adt/programs/programs/zrep/source/main"
        );
    }

    #[test]
    fn function_groups_and_includes() {
        assert_eq!(
            uri("FUGR:ZFG:5"),
            (
                "ZFG".into(),
                "/sap/bc/adt/functions/groups/zfg/source/main".into(),
                5
            )
        );
        assert_eq!(
            uri("FUGR:ZFG/Z_GET_ORDER:12"),
            (
                "Z_GET_ORDER".into(),
                "/sap/bc/adt/functions/groups/zfg/fmodules/z_get_order/source/main".into(),
                12
            )
        );
        assert_eq!(
            uri("func:zfg/z_get_order:12").1,
            "/sap/bc/adt/functions/groups/zfg/fmodules/z_get_order/source/main"
        );
        assert_eq!(
            uri("FUGR:ZFG/LZFGTOP:2"),
            (
                "LZFGTOP".into(),
                "/sap/bc/adt/functions/groups/zfg/includes/lzfgtop/source/main".into(),
                2
            )
        );
        // A module whose name happens to start with L: only L<group>… is an include.
        assert_eq!(
            uri("FUGR:ZFG/LOAD_ORDER:2").1,
            "/sap/bc/adt/functions/groups/zfg/fmodules/load_order/source/main"
        );
        assert_eq!(
            uri("FUNC:ZFG/LZFGX:2").1,
            "/sap/bc/adt/functions/groups/zfg/fmodules/lzfgx/source/main"
        );
        assert_eq!(
            uri("FUGR:ZFG/SAPLZFG:1").1,
            "/sap/bc/adt/functions/groups/zfg/source/main"
        );
        assert_eq!(
            uri("FUGR:/NS/FG//NS/GET:3"),
            (
                "/NS/GET".into(),
                "/sap/bc/adt/functions/groups/%2fns%2ffg/fmodules/%2fns%2fget/source/main".into(),
                3
            )
        );
        assert_eq!(
            uri("FUGR:/NS/FG//NS/LFGF01:3").1,
            "/sap/bc/adt/functions/groups/%2fns%2ffg/includes/%2fns%2flfgf01/source/main"
        );
        assert_eq!(
            uri("FUGR:/NS/FG:3").1,
            "/sap/bc/adt/functions/groups/%2fns%2ffg/source/main"
        );
        assert_eq!(
            uri("INCL:ZORDER_TOP:7"),
            (
                "ZORDER_TOP".into(),
                "/sap/bc/adt/programs/includes/zorder_top/source/main".into(),
                7
            )
        );
        assert_eq!(
            uri("INCL:/NS/TOP:7").1,
            "/sap/bc/adt/programs/includes/%2fns%2ftop/source/main"
        );
        assert_eq!(
            uri("PROG:/NS/REPORT:1").1,
            "/sap/bc/adt/programs/programs/%2fns%2freport/source/main"
        );
        assert_eq!(
            uri("/NS/IF_X:1").1,
            "/sap/bc/adt/oo/interfaces/%2fns%2fif_x/source/main"
        );
    }

    #[test]
    fn abapgit_function_group_paths() {
        assert_eq!(
            uri("src/zfg.fugr.z_get_order.abap:3"),
            (
                "Z_GET_ORDER".into(),
                "/sap/bc/adt/functions/groups/zfg/fmodules/z_get_order/source/main".into(),
                3
            )
        );
        assert_eq!(
            uri("src/zfg.fugr.lzfgtop.abap:2").1,
            "/sap/bc/adt/functions/groups/zfg/includes/lzfgtop/source/main"
        );
        assert_eq!(
            uri("src/zfg.fugr.saplzfg.abap:1").1,
            "/sap/bc/adt/functions/groups/zfg/source/main"
        );
        assert_eq!(
            uri("src/#ns#fg.fugr.#ns#lfgu01.abap:9").1,
            "/sap/bc/adt/functions/groups/%2fns%2ffg/includes/%2fns%2flfgu01/source/main"
        );
        assert_eq!(
            uri("src/#ns#fg.fugr.#ns#get.abap:9").1,
            "/sap/bc/adt/functions/groups/%2fns%2ffg/fmodules/%2fns%2fget/source/main"
        );
        assert_eq!(
            uri("SRC/ZCL_ORDER.CLAS.LOCALS_DEF.ABAP:4").1,
            "/sap/bc/adt/oo/classes/zcl_order/includes/definitions"
        );
    }

    #[test]
    fn refusals_say_why() {
        for (text, why) in [
            ("ZCL_ORDER", "OBJECT:LINE"),
            ("ZCL_ORDER:x", "number"),
            ("ZCL_ORDER:0", "from 1"),
            (":4", "object name"),
            ("Z CL:4", "object name"),
            ("ZCL_ORDER/bogus:4", "include"),
            ("ZREPORT/testclasses:4", "only classes"),
            ("DDLS:ZX:4", "unknown object type"),
            ("zx.fugr.abap:4", "not a class"),
            ("zx.tabl.abap:4", "not a class"),
            ("FUNC:Z_FM:4", "through its group"),
            ("FUGR:ZFG/Z FM:4", "not a function module"),
            ("FUGR:Z G:4", "function group"),
        ] {
            let e = parse_location(text).expect_err(text).to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }

    #[test]
    fn object_names_come_from_uris() {
        assert_eq!(
            object_name("/sap/bc/adt/oo/classes/zcl_x/source/main#start=3,0"),
            "ZCL_X"
        );
        assert_eq!(
            object_name("/sap/bc/adt/oo/classes/%2fns%2fcl_y/source/main"),
            "/NS/CL_Y"
        );
        assert_eq!(
            object_name("/sap/bc/adt/programs/programs/zprog/source/main"),
            "ZPROG"
        );
        assert_eq!(
            object_name("/sap/bc/adt/oo/interfaces/zif_a/source/main"),
            "ZIF_A"
        );
        assert_eq!(object_name("garbage"), "");
        assert_eq!(object_name("/classes/%zz"), "%ZZ");
        // Round trip with the URIs this module builds.
        for text in [
            "ZCL_ORDER:1",
            "/NS/CL_X:3",
            "ZREPORT:9",
            "ZIF_ORDER:2",
            "INCL:ZORDER_TOP:7",
            "zfg.fugr.z_fm.abap:3",
            "zfg.fugr.lzfgtop.abap:2",
            "zfg.fugr.saplzfg.abap:1",
            "FUGR:/NS/FG//NS/GET:3",
        ] {
            let loc = parse_location(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(object_name(&loc.uri), loc.object, "{text}");
        }
    }

    proptest! {
        #[test]
        fn never_panics(s in ".{0,80}") {
            let _ = parse_location(&s);
        }

        #[test]
        fn function_modules_round_trip(group in "Z[A-Z0-9_]{0,10}", fm in "Z_[A-Z0-9_]{0,20}", line in 1u32..100_000) {
            let l = parse_location(&format!("FUNC:{group}/{fm}:{line}")).unwrap();
            prop_assert_eq!(l.object, fm.clone());
            prop_assert_eq!(l.line, line);
            prop_assert_eq!(l.uri, format!(
                "/sap/bc/adt/functions/groups/{}/fmodules/{}/source/main",
                group.to_lowercase(),
                fm.to_lowercase()
            ));
        }

        #[test]
        fn uris_never_carry_raw_specials(s in "[A-Za-z/#:._ 0-9]{0,40}", line in 1u32..100) {
            if let Ok(l) = parse_location(&format!("{s}:{line}")) {
                let tail = l.uri.trim_start_matches("/sap/bc/adt/");
                prop_assert!(!tail.contains(['#', ' ', ':']), "{}", l.uri);
            }
        }

        #[test]
        fn class_names_round_trip(name in "Z[A-Z0-9_]{0,20}", line in 1u32..100_000) {
            let text = format!("CLAS:{name}:{line}");
            let l = parse_location(&text).unwrap();
            prop_assert_eq!(l.object, name.clone());
            prop_assert_eq!(l.line, line);
            prop_assert_eq!(l.uri, format!("/sap/bc/adt/oo/classes/{}/source/main", name.to_lowercase()));
        }
    }
}
