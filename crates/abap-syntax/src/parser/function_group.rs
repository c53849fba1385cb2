//! Function groups in abapGit form: the names of a group's programs and includes, the
//! function modules' interfaces from `<group>.fugr.xml`, and the group's program assembled
//! from the parsed includes.
//!
//! A group `ZFG` is the program `SAPLZFG`; its sources are includes: `LZFGTOP` (global
//! data), `LZFGUxx` (one per function module, numbered here in the order of the modules in
//! `.fugr.xml`; abapGit writes the module's own file `zfg.fugr.z_fm.abap` and no `LZFGUXX`),
//! and any further `LZFG…` include (`F01` forms, `P01` local classes). Namespaced groups keep
//! the namespace in front: `/NS/FG` → `/NS/SAPLFG`, `/NS/LFGTOP`.

use std::collections::BTreeMap;

use quick_xml::Reader;
use quick_xml::events::Event;

use crate::ast::{ClassDef, Expr, FunctionInterface, MethodDecl, ParamDecl, ParamKind, TypeSpec};
use crate::lexer::lex;
use crate::parser::Parsed;
use crate::parser::declarations::type_and_value;
use crate::parser::expr::parse_full_expr;
use crate::parser::names::program_key;
use abap_data::value::Type;

/// Nesting followed in `.fugr.xml` (the real files are six levels deep).
const MAX_XML_DEPTH: usize = 64;

/// `(namespace with slashes, bare name)`: `/NS/FG` → (`/NS/`, `FG`).
fn split_namespace(name: &str) -> (&str, &str) {
    match name.strip_prefix('/').and_then(|r| r.find('/')) {
        Some(i) => name.split_at(i + 2),
        None => ("", name),
    }
}

/// The main program of group `group`: `ZFG` → `SAPLZFG`.
pub fn main_program(group: &str) -> String {
    let (ns, bare) = split_namespace(group);
    format!("{ns}SAPL{bare}")
}

/// The prefix of the group's includes: `ZFG` → `LZFG`.
fn include_prefix(group: &str) -> String {
    let (ns, bare) = split_namespace(group);
    format!("{ns}L{bare}")
}

/// The include holding the `n`-th (1-based) function module: `LZFGU01`.
pub fn module_include(group: &str, n: usize) -> String {
    format!("{}U{n:02}", include_prefix(group))
}

/// Key of the class table entry naming the program of function module `module`.
pub fn function_key(module: &str) -> String {
    format!("\\FUNCTION={module}")
}

/// What a member file of a group is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Member {
    /// `sapl<group>`: the main program (only `INCLUDE`s).
    MainProgram,
    /// `l<group>…`: an include.
    Include,
    /// Anything else: a function module.
    Module,
}

/// The role of member `member` (upper case) of group `group`, by the names ADT and abapGit
/// use.
pub fn member_kind(group: &str, member: &str) -> Member {
    let prefix = include_prefix(group);
    if member == main_program(group) {
        Member::MainProgram
    } else if member.len() > prefix.len() && member.starts_with(&prefix) {
        Member::Include
    } else {
        Member::Module
    }
}

/// One element of the XML document: name, text, children.
#[derive(Debug, Default)]
struct Element {
    name: String,
    text: String,
    children: Vec<Element>,
}

impl Element {
    fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    fn leaf(&self, name: &str) -> &str {
        self.child(name).map_or("", |c| c.text.trim())
    }
}

fn read_tree(xml: &str) -> Result<Element, String> {
    let mut reader = Reader::from_str(xml);
    let mut open: Vec<Element> = vec![Element::default()];
    loop {
        let event = reader
            .read_event()
            .map_err(|e| format!("malformed XML at byte {}: {e}", reader.buffer_position()))?;
        match event {
            Event::Start(e) => {
                if open.len() > MAX_XML_DEPTH {
                    return Err("XML nested too deeply".into());
                }
                open.push(Element {
                    name: String::from_utf8_lossy(e.local_name().as_ref()).into_owned(),
                    ..Element::default()
                });
            }
            Event::Empty(e) => {
                let el = Element {
                    name: String::from_utf8_lossy(e.local_name().as_ref()).into_owned(),
                    ..Element::default()
                };
                if let Some(parent) = open.last_mut() {
                    parent.children.push(el);
                }
            }
            Event::End(_) => {
                let el = open.pop().ok_or("end tag without start tag")?;
                let Some(parent) = open.last_mut() else {
                    return Err("end tag without start tag".into());
                };
                parent.children.push(el);
            }
            Event::Text(t) => {
                let s = t.decode().map_err(|e| format!("undecodable text: {e}"))?;
                if let Some(el) = open.last_mut() {
                    el.text.push_str(&s);
                }
            }
            Event::GeneralRef(r) => {
                let resolved = match r
                    .resolve_char_ref()
                    .map_err(|e| format!("bad character reference: {e}"))?
                {
                    Some(c) => c.to_string(),
                    None => {
                        let name = String::from_utf8_lossy(&r).into_owned();
                        quick_xml::escape::resolve_predefined_entity(&name)
                            .ok_or_else(|| format!("unknown entity &{name};"))?
                            .to_string()
                    }
                };
                if let Some(el) = open.last_mut() {
                    el.text.push_str(&resolved);
                }
            }
            Event::CData(t) => {
                if let Some(el) = open.last_mut() {
                    el.text.push_str(&String::from_utf8_lossy(&t));
                }
            }
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
        }
    }
    match (open.pop(), open.is_empty()) {
        (Some(root), true) => Ok(root),
        _ => Err("document ends inside an element".into()),
    }
}

/// A function module's interface: what [`FunctionInterface`] records and its parameters as
/// a method signature of the group's program.
#[derive(Debug, Clone)]
pub struct ModuleInterface {
    pub interface: FunctionInterface,
    pub decl: MethodDecl,
}

/// The type of a parameter as `.fugr.xml` gives it: `TYP` (`TYPE`, `TYPE REF TO` with
/// `REF_CLASS`), `DBFIELD` (`LIKE`), `DBSTRUCT` (a `TABLES` parameter's line type); none of
/// them: generic.
fn param_type(rec: &Element) -> TypeSpec {
    let typ = rec.leaf("TYP");
    let text = if !typ.is_empty() {
        // A bare incomplete elementary type is generic, as in method signatures.
        if ["C", "N", "P", "X", "DECFLOAT"].contains(&typ.to_ascii_uppercase().as_str()) {
            return Ok(Type::Any);
        }
        if rec.leaf("REF_CLASS") == "X" {
            format!("TYPE REF TO {typ}")
        } else {
            format!("TYPE {typ}")
        }
    } else if !rec.leaf("DBFIELD").is_empty() {
        format!("LIKE {}", rec.leaf("DBFIELD"))
    } else if !rec.leaf("DBSTRUCT").is_empty() {
        format!(
            "TYPE STANDARD TABLE OF {} WITH DEFAULT KEY",
            rec.leaf("DBSTRUCT")
        )
    } else {
        return Ok(Type::Any);
    };
    match lex(&text) {
        Ok(toks) => type_and_value(&toks).0,
        Err(e) => Err(e.message),
    }
}

/// One parameter record (`RSIMP`, `RSEXP`, `RSCHA`, `RSTBL`); a type outside the subset
/// stays in the declaration and fails only a call that binds it.
fn parameter(rec: &Element, kind: ParamKind, tables: bool) -> Result<ParamDecl, String> {
    let name = rec.leaf("PARAMETER").to_ascii_uppercase();
    if name.is_empty() {
        return Err("a parameter without a name".into());
    }
    let default = match rec.leaf("DEFAULT") {
        "" => None,
        text => Some(match lex(text) {
            Ok(toks) => parse_full_expr(&toks).unwrap_or_else(|u| Expr::Unsupported(u.0)),
            Err(e) => Expr::Unsupported(e.message),
        }),
    };
    Ok(ParamDecl {
        ty: param_type(rec),
        name,
        kind,
        // `TABLES` parameters are always passed by reference.
        by_value: !tables && rec.leaf("REFERENCE") != "X",
        optional: rec.leaf("OPTIONAL") == "X" || default.is_some(),
        default,
    })
}

/// The function modules of a group's `.fugr.xml`, in the order written.
pub fn read_interfaces(xml: &str) -> Result<Vec<ModuleInterface>, String> {
    let root = read_tree(xml)?;
    let values = root
        .child("abapGit")
        .and_then(|g| g.child("abap"))
        .and_then(|a| a.child("values"))
        .ok_or("no abapGit/asx:abap/asx:values element")?;
    let mut out = Vec::new();
    let Some(functions) = values.child("FUNCTIONS") else {
        return Ok(out);
    };
    for item in functions.children.iter().filter(|c| c.name == "item") {
        let name = item.leaf("FUNCNAME").to_ascii_uppercase();
        if name.is_empty() {
            return Err("a function module without FUNCNAME".into());
        }
        let mut params = Vec::new();
        let mut tables = Vec::new();
        let sections = [
            ("IMPORT", "RSIMP", ParamKind::Importing),
            ("EXPORT", "RSEXP", ParamKind::Exporting),
            ("CHANGING", "RSCHA", ParamKind::Changing),
            ("TABLES", "RSTBL", ParamKind::Changing),
        ];
        for (section, record, kind) in sections {
            let Some(list) = item.child(section) else {
                continue;
            };
            for rec in list.children.iter().filter(|c| c.name == record) {
                let is_table = section == "TABLES";
                let mut p = parameter(rec, kind, is_table).map_err(|e| format!("{name}: {e}"))?;
                if is_table {
                    // Inside the module `p` is the header line, `p[]` the table (as for a
                    // FORM's TABLES parameter; interp/header_lines.rs adds the header line).
                    tables.push(p.name.clone());
                    p.name = crate::parser::header_lines::body_name(&p.name);
                }
                params.push(p);
            }
        }
        let exceptions = item
            .child("EXCEPTION")
            .map(|list| {
                list.children
                    .iter()
                    .filter(|c| c.name == "RSEXC")
                    .map(|e| e.leaf("EXCEPTION").to_ascii_uppercase())
                    .filter(|e| !e.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        out.push(ModuleInterface {
            interface: FunctionInterface {
                name: name.clone(),
                tables,
                exceptions,
                class_based: item.leaf("EXCEPTION_CLASSES") == "X",
            },
            decl: MethodDecl {
                name,
                is_static: true,
                params,
                for_testing: false,
                is_abstract: false,
                line: 0,
            },
        });
    }
    Ok(out)
}

/// The classes of a function group: its program (global data, types, `FORM`s, event blocks
/// and the function modules with their interfaces), its local classes, and one entry per
/// module that names the program ([`function_key`]).
pub fn assemble(
    main_program: &str,
    parsed: Vec<Parsed>,
    interfaces: &[ModuleInterface],
) -> Vec<ClassDef> {
    let key = program_key(main_program);
    let mut program = ClassDef::new(main_program, &key, main_program);
    let mut locals: BTreeMap<String, ClassDef> = BTreeMap::new();
    let mut foreign = Vec::new();
    for p in parsed {
        for c in p.classes {
            if c.key == key {
                let mut c = c;
                program.attributes.append(&mut c.attributes);
                program.types.append(&mut c.types);
                program.methods.append(&mut c.methods);
                program.implementations.append(&mut c.implementations);
                program.field_symbols.append(&mut c.field_symbols);
            } else {
                locals.insert(c.key.clone(), c);
            }
        }
        foreign.extend(p.foreign_impls);
    }
    for (class, imp) in foreign {
        if let Some(c) = locals.get_mut(&class) {
            c.implementations.push(imp);
        }
    }
    let mut index = Vec::new();
    for m in interfaces {
        let has_code = program
            .implementations
            .iter()
            .any(|i| i.place.event_type == "FUNCTION" && i.name == m.interface.name);
        if has_code {
            index.push(ClassDef::new(
                &m.interface.name,
                &function_key(&m.interface.name),
                main_program,
            ));
        }
        program.methods.push(m.decl.clone());
        program.functions.push(m.interface.clone());
    }
    let mut out = vec![program];
    out.extend(locals.into_values());
    out.extend(index);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const XML: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<abapGit version="v1.0.0" serializer="LCL_OBJECT_FUGR" serializer_version="v1.0.0">
 <asx:abap xmlns:asx="http://www.sap.com/abapxml" version="1.0">
  <asx:values>
   <AREAT>Test</AREAT>
   <FUNCTIONS>
    <item>
     <FUNCNAME>Z_ONE</FUNCNAME>
     <IMPORT>
      <RSIMP>
       <PARAMETER>IV_TEXT</PARAMETER>
       <DEFAULT>&apos;abc&apos;</DEFAULT>
       <OPTIONAL>X</OPTIONAL>
       <TYP>STRING</TYP>
      </RSIMP>
      <RSIMP>
       <PARAMETER>IV_ANY</PARAMETER>
       <REFERENCE>X</REFERENCE>
      </RSIMP>
     </IMPORT>
     <TABLES>
      <RSTBL>
       <PARAMETER>T_ROWS</PARAMETER>
       <DBSTRUCT>ZSTRUC</DBSTRUCT>
      </RSTBL>
     </TABLES>
     <EXCEPTION>
      <RSEXC>
       <EXCEPTION>NOT_FOUND</EXCEPTION>
      </RSEXC>
     </EXCEPTION>
    </item>
   </FUNCTIONS>
  </asx:values>
 </asx:abap>
</abapGit>"#;

    proptest::proptest! {
        #[test]
        fn arbitrary_metadata_never_panics(text in "\\PC{0,300}") {
            let _ = read_interfaces(&text);
        }

        #[test]
        fn deep_nesting_is_refused(depth in 65usize..400) {
            let xml = format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
            proptest::prop_assert!(read_interfaces(&xml).is_err());
        }
    }

    #[test]
    fn names() {
        assert_eq!(main_program("ZFG"), "SAPLZFG");
        assert_eq!(main_program("/NS/FG"), "/NS/SAPLFG");
        assert_eq!(module_include("ZFG", 3), "LZFGU03");
        assert_eq!(module_include("/NS/FG", 1), "/NS/LFGU01");
        assert_eq!(member_kind("ZFG", "LZFGTOP"), Member::Include);
        assert_eq!(member_kind("ZFG", "SAPLZFG"), Member::MainProgram);
        assert_eq!(member_kind("ZFG", "LOAD_ORDER"), Member::Module);
        assert_eq!(member_kind("ZFG", "LZFG"), Member::Module);
    }

    #[test]
    fn interfaces() {
        let fms = read_interfaces(XML).unwrap_or_default();
        let [one] = fms.as_slice() else {
            panic!("one module expected: {fms:?}");
        };
        assert_eq!(one.interface.name, "Z_ONE");
        assert_eq!(one.interface.tables, ["T_ROWS"]);
        assert_eq!(one.interface.exceptions, ["NOT_FOUND"]);
        let p = &one.decl.params;
        assert_eq!(p.len(), 3);
        assert!(p[0].by_value && p[0].optional && p[0].default.is_some());
        assert_eq!(p[0].ty, Ok(Type::String));
        assert!(!p[1].by_value && !p[1].optional);
        assert_eq!(p[1].ty, Ok(Type::Any));
        assert_eq!(p[2].kind, ParamKind::Changing);
        assert!(!p[2].by_value);
        assert!(read_interfaces("<a><b>").is_err());
        assert!(read_interfaces("<x/>").is_err());
    }
}
