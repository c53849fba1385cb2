//! The dictionary: tables and structures from abapGit `.tabl.xml` files, with the data
//! elements (`.dtel.xml`) and domains (`.doma.xml`) their fields refer to.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::types::{DdicType, Field, TableClass, TableDef};
use crate::xml::{Record, records};

/// How deep `.INCLUDE`s may nest (a cycle must not loop).
const MAX_INCLUDE_DEPTH: usize = 16;

/// Tables and structures by upper-case name, with where each came from, and the
/// definitions that could not be used (with why), so one odd table does not keep the others
/// from loading.
#[derive(Debug, Default, Clone)]
pub struct Dictionary {
    tables: BTreeMap<String, (TableDef, PathBuf)>,
    refused: BTreeMap<String, (PathBuf, String)>,
}

/// The abapGit files of one folder tree, read but not yet resolved.
#[derive(Default)]
struct Sources {
    tables: BTreeMap<String, (PathBuf, Vec<Record>, Record)>,
    elements: BTreeMap<String, Record>,
    domains: BTreeMap<String, Record>,
    /// Files that could not be read as what their name says, by object name.
    broken: BTreeMap<String, (PathBuf, String)>,
}

impl Dictionary {
    /// Every `.tabl.xml` under `dir` (recursively), resolved against the `.dtel.xml` and
    /// `.doma.xml` files under it.
    pub fn load_dir(dir: &Path) -> Result<Dictionary> {
        let mut src = Sources::default();
        let mut files = Vec::new();
        collect_files(dir, &mut files, 0)?;
        files.sort();
        for file in files {
            let Some(name) = file.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let lower = name.to_ascii_lowercase();
            let read = || {
                std::fs::read_to_string(&file).map_err(|source| Error::Io {
                    file: file.clone(),
                    source,
                })
            };
            let first = |xml: &str, record: &str| -> std::result::Result<Record, String> {
                records(xml, record)?
                    .into_iter()
                    .next()
                    .ok_or_else(|| format!("no {record}"))
            };
            if let Some(stem) = lower.strip_suffix(".tabl.xml") {
                let xml = read()?;
                let name = stem.to_ascii_uppercase();
                match first(&xml, "DD02V").and_then(|h| Ok((h, records(&xml, "DD03P")?))) {
                    Ok((head, fields)) => {
                        src.tables.insert(name, (file.clone(), fields, head));
                    }
                    Err(message) => {
                        src.broken.insert(name, (file.clone(), message));
                    }
                }
            } else if let Some(stem) = lower.strip_suffix(".dtel.xml") {
                let xml = read()?;
                match first(&xml, "DD04V") {
                    Ok(rec) => {
                        src.elements.insert(stem.to_ascii_uppercase(), rec);
                    }
                    Err(message) => {
                        src.broken
                            .insert(stem.to_ascii_uppercase(), (file.clone(), message));
                    }
                }
            } else if let Some(stem) = lower.strip_suffix(".doma.xml") {
                let xml = read()?;
                match first(&xml, "DD01V") {
                    Ok(rec) => {
                        src.domains.insert(stem.to_ascii_uppercase(), rec);
                    }
                    Err(message) => {
                        src.broken
                            .insert(stem.to_ascii_uppercase(), (file.clone(), message));
                    }
                }
            }
        }
        let mut dict = Dictionary::default();
        for (name, (file, _, _)) in &src.tables {
            match src.table(name, 0) {
                Ok(def) => {
                    dict.tables.insert(name.clone(), (def, file.clone()));
                }
                Err(message) => {
                    dict.refused.insert(name.clone(), (file.clone(), message));
                }
            }
        }
        for (name, (file, message)) in &src.broken {
            if !src.elements.contains_key(name) && !src.domains.contains_key(name) {
                dict.refused
                    .insert(name.clone(), (file.clone(), message.clone()));
            }
        }
        Ok(dict)
    }

    /// Why the definition of `name` could not be used, as the error a statement naming it
    /// gets (`None`: not refused).
    pub fn refusal(&self, name: &str) -> Option<Error> {
        self.refused
            .get(&name.to_ascii_uppercase())
            .map(|(file, message)| Error::Definition {
                file: file.clone(),
                message: message.clone(),
            })
    }

    /// The database table `name` (a structure is none; a refused definition gives its error).
    pub fn database_table(&self, name: &str) -> Result<&TableDef> {
        if let Some(e) = self.refusal(name) {
            return Err(e);
        }
        match self.table(name) {
            Some(t) if t.class == TableClass::Transparent => Ok(t),
            Some(_) => Err(Error::UnknownTable(format!(
                "{name} (a structure, not a database table)"
            ))),
            None => Err(Error::UnknownTable(name.to_string())),
        }
    }

    /// Every refused definition: name, file and why.
    pub fn refused(&self) -> impl Iterator<Item = (&str, &Path, &str)> {
        self.refused
            .iter()
            .map(|(n, (f, m))| (n.as_str(), f.as_path(), m.as_str()))
    }

    /// The table or structure `name` (any case).
    pub fn table(&self, name: &str) -> Option<&TableDef> {
        self.tables.get(&name.to_ascii_uppercase()).map(|(t, _)| t)
    }

    /// The `.tabl.xml` file `name` was read from.
    pub fn file_of(&self, name: &str) -> Option<&Path> {
        self.tables
            .get(&name.to_ascii_uppercase())
            .map(|(_, f)| f.as_path())
    }

    pub fn tables(&self) -> impl Iterator<Item = &TableDef> {
        self.tables.values().map(|(t, _)| t)
    }
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) -> Result<()> {
    if depth > 32 {
        return Ok(());
    }
    let io = |source| Error::Io {
        file: dir.to_path_buf(),
        source,
    };
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.is_dir() {
            collect_files(&path, out, depth + 1)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

fn number(rec: &Record, name: &str) -> std::result::Result<u32, String> {
    match rec.get(name).map(|s| s.trim()) {
        None | Some("") => Ok(0),
        Some(s) => s
            .parse()
            .map_err(|_| format!("{name} {s:?} is not a number")),
    }
}

fn text<'a>(rec: &'a Record, name: &str) -> &'a str {
    rec.get(name).map(|s| s.trim()).unwrap_or_default()
}

/// The built-in type a record (DD03P, DD04V or DD01V) states directly, if it states one.
fn direct_type(rec: &Record) -> std::result::Result<Option<DdicType>, String> {
    let datatype = text(rec, "DATATYPE");
    if datatype.is_empty() {
        return Ok(None);
    }
    DdicType::from_ddic(datatype, number(rec, "LENG")?, number(rec, "DECIMALS")?).map(Some)
}

impl Sources {
    fn table(&self, name: &str, depth: usize) -> std::result::Result<TableDef, String> {
        if depth > MAX_INCLUDE_DEPTH {
            return Err(format!("includes nested too deeply at {name}"));
        }
        let (_, rows, head) = self
            .tables
            .get(name)
            .ok_or_else(|| match self.broken.get(name) {
                Some((file, message)) => {
                    format!("structure {name} ({}): {message}", file.display())
                }
                None => format!("included structure {name} has no .tabl.xml"),
            })?;
        let class = match text(head, "TABCLASS") {
            "TRANSP" => TableClass::Transparent,
            // Append structures are structures too (their fields join the table they extend).
            "INTTAB" | "APPEND" => TableClass::Structure,
            other => return Err(format!("TABCLASS {other} is not supported")),
        };
        let mut fields: Vec<Field> = Vec::new();
        for rec in rows {
            let fieldname = text(rec, "FIELDNAME").to_ascii_uppercase();
            let key = text(rec, "KEYFLAG") == "X";
            // `.INCLUDE` / `.APPEND`, and `.INCLU-<suffix>`: the included structure's fields,
            // each name with the suffix appended.
            let suffix = match fieldname.as_str() {
                ".INCLUDE" | ".APPEND" => Some(""),
                other => other.strip_prefix(".INCLU-"),
            };
            if let Some(suffix) = suffix {
                let inc = text(rec, "PRECFIELD").to_ascii_uppercase();
                let sub = self.table(&inc, depth + 1)?;
                for mut f in sub.fields {
                    f.key = key;
                    f.name.push_str(suffix);
                    if fields.iter().any(|g| g.name == f.name) {
                        return Err(format!("field {} appears twice", f.name));
                    }
                    fields.push(f);
                }
                continue;
            }
            if fieldname.is_empty() || fieldname.starts_with('.') {
                return Err(format!("field {fieldname:?} is not supported"));
            }
            let comptype = text(rec, "COMPTYPE");
            if comptype == "S" || comptype == "L" || comptype == "R" {
                return Err(format!(
                    "field {fieldname}: nested structures, tables and references are not supported"
                ));
            }
            let rollname = text(rec, "ROLLNAME").to_ascii_uppercase();
            let ddic = match direct_type(rec).map_err(|e| format!("field {fieldname}: {e}"))? {
                Some(t) => t,
                None if !rollname.is_empty() => self
                    .element(&rollname)
                    .map_err(|e| format!("field {fieldname}: {e}"))?,
                None => {
                    return Err(format!(
                        "field {fieldname} has neither a type nor a data element"
                    ));
                }
            };
            if fields.iter().any(|f| f.name == fieldname) {
                return Err(format!("field {fieldname} appears twice"));
            }
            fields.push(Field {
                name: fieldname,
                ddic,
                key,
                data_element: (!rollname.is_empty()).then_some(rollname),
            });
        }
        if fields.is_empty() {
            return Err(format!("{name} has no fields"));
        }
        let client_dependent = class == TableClass::Transparent
            && fields
                .first()
                .is_some_and(|f| f.key && f.ddic == DdicType::Clnt);
        Ok(TableDef {
            name: name.to_string(),
            class,
            fields,
            client_dependent,
        })
    }

    /// The built-in type of data element `name`: its own, its domain's, or (for the few
    /// elements every system has) the standard one.
    fn element(&self, name: &str) -> std::result::Result<DdicType, String> {
        if let Some(rec) = self.elements.get(name) {
            if let Some(t) = direct_type(rec)? {
                return Ok(t);
            }
            let domain = text(rec, "DOMNAME").to_ascii_uppercase();
            if domain.is_empty() {
                return Err(format!(
                    "data element {name} has neither a type nor a domain"
                ));
            }
            return match self.domains.get(&domain) {
                Some(d) => {
                    direct_type(d)?.ok_or_else(|| format!("domain {domain} has no DATATYPE"))
                }
                None => standard_domain(&domain)
                    .ok_or_else(|| format!("domain {domain} has no .doma.xml")),
            };
        }
        if let Some((file, message)) = self.broken.get(name) {
            return Err(format!(
                "data element {name} ({}): {message}",
                file.display()
            ));
        }
        standard_element(name).ok_or_else(|| format!("data element {name} has no .dtel.xml"))
    }
}

/// Data elements of every system that tables commonly use without shipping them.
fn standard_element(name: &str) -> Option<DdicType> {
    Some(match name {
        "MANDT" => DdicType::Clnt,
        "SPRAS" | "LANGU" => DdicType::Lang,
        "WAERS" => DdicType::Cuky,
        "MEINS" => DdicType::Unit(3),
        "DATUM" | "SYDATUM" => DdicType::Dats,
        "UZEIT" | "SYUZEIT" => DdicType::Tims,
        "XFELD" | "BOOLE_D" | "ABAP_BOOLEAN" | "FLAG" => DdicType::Char(1),
        "TIMESTAMP" => DdicType::Dec {
            kind: crate::types::DecKind::Dec,
            digits: 15,
            decimals: 0,
        },
        "TIMESTAMPL" => DdicType::Dec {
            kind: crate::types::DecKind::Dec,
            digits: 21,
            decimals: 7,
        },
        "INT4" => DdicType::Int4,
        "STRING" => DdicType::String,
        "XSTRING" => DdicType::RawString,
        _ => return None,
    })
}

/// Domains of every system, for data elements shipped without their domain.
fn standard_domain(name: &str) -> Option<DdicType> {
    Some(match name {
        "MANDT" => DdicType::Clnt,
        "SPRAS" => DdicType::Lang,
        "WAERS" => DdicType::Cuky,
        "MEINS" => DdicType::Unit(3),
        "DATUM" => DdicType::Dats,
        "UZEIT" => DdicType::Tims,
        "XFELD" | "BOOLEAN" => DdicType::Char(1),
        _ => return None,
    })
}
