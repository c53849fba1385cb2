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
    /// Data elements with a `.dtel.xml` file, by upper-case name, as their built-in type.
    elements: BTreeMap<String, DdicType>,
    refused: BTreeMap<String, (PathBuf, String)>,
}

/// One table definition as read: its file, its `DD03P` records and its `DD02V` record.
type TableSource = (PathBuf, Vec<Record>, Record);

/// The abapGit files of the folder trees, read but not yet resolved.
#[derive(Default)]
struct Sources {
    tables: BTreeMap<String, TableSource>,
    /// Second and further definitions of a table name (another package, another folder).
    twins: Vec<(String, TableSource)>,
    elements: BTreeMap<String, (PathBuf, Record)>,
    domains: BTreeMap<String, (PathBuf, Record)>,
    /// Files that could not be read as what their name says, by object name; also data
    /// elements and domains defined twice with different types.
    broken: BTreeMap<String, (PathBuf, String)>,
}

/// The fields of a `.dtel.xml` (`DD04V`) or `.doma.xml` (`DD01V`) record that make its type.
const TYPE_FIELDS: [&str; 4] = ["DATATYPE", "LENG", "DECIMALS", "DOMNAME"];

/// True when two data element or domain records give the same type.
fn same_type(a: &Record, b: &Record) -> bool {
    TYPE_FIELDS.iter().all(|f| {
        let norm = |r: &Record| {
            let t = text(r, f).to_ascii_uppercase();
            // `LENG` `000010` and `10` are one length.
            match t.parse::<u64>() {
                Ok(n) => n.to_string(),
                Err(_) => t,
            }
        };
        norm(a) == norm(b)
    })
}

impl Dictionary {
    /// Every `.tabl.xml` under `dir` (recursively), resolved against the `.dtel.xml` and
    /// `.doma.xml` files under it.
    pub fn load_dir(dir: &Path) -> Result<Dictionary> {
        Self::load_dirs(&[dir.to_path_buf()])
    }

    /// Every `.tabl.xml` under the folders `dirs` (recursively: abapGit packages with their
    /// subpackages), resolved against the `.dtel.xml` and `.doma.xml` files under any of them.
    /// A name defined twice (in two folders or subfolders) is one definition when both files
    /// say the same; when they differ, it is refused naming both files.
    pub fn load_dirs(dirs: &[PathBuf]) -> Result<Dictionary> {
        let mut src = Sources::default();
        let mut files = Vec::new();
        for dir in dirs {
            collect_files(dir, &mut files, 0)?;
        }
        // A folder given twice, or one inside another, holds its files once.
        let mut seen = std::collections::HashSet::new();
        files.retain(|f| seen.insert(std::fs::canonicalize(f).unwrap_or_else(|_| f.clone())));
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
                        let def = (file.clone(), fields, head);
                        match src.tables.entry(name) {
                            std::collections::btree_map::Entry::Occupied(e) => {
                                src.twins.push((e.key().clone(), def));
                            }
                            std::collections::btree_map::Entry::Vacant(e) => {
                                e.insert(def);
                            }
                        }
                    }
                    Err(message) => {
                        src.broken.insert(name, (file.clone(), message));
                    }
                }
            } else if let Some(stem) = lower.strip_suffix(".dtel.xml") {
                let xml = read()?;
                match first(&xml, "DD04V") {
                    Ok(rec) => src.add_type(true, stem.to_ascii_uppercase(), &file, rec),
                    Err(message) => {
                        src.broken
                            .insert(stem.to_ascii_uppercase(), (file.clone(), message));
                    }
                }
            } else if let Some(stem) = lower.strip_suffix(".doma.xml") {
                let xml = read()?;
                match first(&xml, "DD01V") {
                    Ok(rec) => src.add_type(false, stem.to_ascii_uppercase(), &file, rec),
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
        for (name, (file, rows, head)) in &src.twins {
            dict.merge_twin(&src, name, file, rows, head);
        }
        for (name, (file, message)) in &src.broken {
            if !src.elements.contains_key(name) && !src.domains.contains_key(name) {
                dict.refused
                    .insert(name.clone(), (file.clone(), message.clone()));
            }
        }
        for name in src.elements.keys() {
            if src.broken.contains_key(name) {
                continue;
            }
            if let Ok(t) = src.element(name) {
                dict.elements.insert(name.clone(), t);
            }
        }
        Ok(dict)
    }

    /// A second definition of table `name`: the same as the first is no conflict (the rows
    /// come from the data file beside either, not both); a different one refuses the name.
    fn merge_twin(
        &mut self,
        src: &Sources,
        name: &str,
        file: &Path,
        rows: &[Record],
        head: &Record,
    ) {
        let Some(first_file) = src.tables.get(name).map(|(f, _, _)| f.clone()) else {
            return;
        };
        let refuse = |dict: &mut Dictionary, message: String| {
            dict.tables.remove(name);
            dict.refused
                .insert(name.to_string(), (file.to_path_buf(), message));
        };
        if self.refused.contains_key(name) && !self.tables.contains_key(name) {
            // Refused already (its first definition cannot be used, or a third one).
            if let Some((_, m)) = self.refused.get(name)
                && !m.contains(" is defined in ")
            {
                let message = format!(
                    "table {name} is defined in {} and in {} ({m})",
                    first_file.display(),
                    file.display()
                );
                refuse(self, message);
            }
            return;
        }
        let second = src.build(name, rows, head, 0);
        let same = matches!((&second, self.tables.get(name)), (Ok(b), Some((a, _))) if a == b);
        if !same {
            let message = format!(
                "table {name} is defined in {} and differently in {}",
                first_file.display(),
                file.display()
            );
            refuse(self, message);
            return;
        }
        let first_data = data_file_of(&first_file).exists();
        if data_file_of(file).exists() {
            if first_data {
                let message = format!(
                    "table {name} has rows in {} and in {}: one data file is used, which is not certain",
                    data_file_of(&first_file).display(),
                    data_file_of(file).display()
                );
                refuse(self, message);
            } else if let Some(entry) = self.tables.get_mut(name) {
                entry.1 = file.to_path_buf();
            }
        }
    }

    /// The built-in type of data element `name` (any case) from its `.dtel.xml` file (with
    /// its domain's type when it has a domain), or of the few elements every system has.
    pub fn data_element(&self, name: &str) -> Option<DdicType> {
        let name = name.to_ascii_uppercase();
        if self.refused.contains_key(&name) {
            return None;
        }
        self.elements
            .get(&name)
            .copied()
            .or_else(|| standard_element(&name))
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
    /// A data element (`element`) or domain record read from `file`; a second file for the
    /// same name that gives another type makes the name unusable.
    fn add_type(&mut self, element: bool, name: String, file: &Path, rec: Record) {
        let map = if element {
            &mut self.elements
        } else {
            &mut self.domains
        };
        match map.get(&name) {
            None => {
                map.insert(name, (file.to_path_buf(), rec));
            }
            Some((first, earlier)) if !same_type(earlier, &rec) => {
                let what = if element { "data element" } else { "domain" };
                let message = format!(
                    "{what} {name} is defined in {} and differently in {}",
                    first.display(),
                    file.display()
                );
                self.broken.insert(name, (file.to_path_buf(), message));
            }
            Some(_) => {}
        }
    }

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
        self.build(name, rows, head, depth)
    }

    /// The definition of table `name` from its records.
    fn build(
        &self,
        name: &str,
        rows: &[Record],
        head: &Record,
        depth: usize,
    ) -> std::result::Result<TableDef, String> {
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
        if let Some((file, message)) = self.broken.get(name) {
            return Err(format!(
                "data element {name} ({}): {message}",
                file.display()
            ));
        }
        if let Some((_, rec)) = self.elements.get(name) {
            if let Some(t) = direct_type(rec)? {
                return Ok(t);
            }
            let domain = text(rec, "DOMNAME").to_ascii_uppercase();
            if domain.is_empty() {
                return Err(format!(
                    "data element {name} has neither a type nor a domain"
                ));
            }
            if let Some((file, message)) = self.broken.get(&domain) {
                return Err(format!("domain {domain} ({}): {message}", file.display()));
            }
            return match self.domains.get(&domain) {
                Some((_, d)) => {
                    direct_type(d)?.ok_or_else(|| format!("domain {domain} has no DATATYPE"))
                }
                None => standard_domain(&domain)
                    .ok_or_else(|| format!("domain {domain} has no .doma.xml")),
            };
        }
        standard_element(name).ok_or_else(|| format!("data element {name} has no .dtel.xml"))
    }
}

/// `<name>.tabl.data.json` beside `<name>.tabl.xml`.
pub(crate) fn data_file_of(def: &Path) -> PathBuf {
    let name = def.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let stem = &name[..name.len().saturating_sub(".xml".len())];
    def.with_file_name(format!("{stem}.data.json"))
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
