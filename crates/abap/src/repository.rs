//! The loaded objects (abapGit file layout) with their sources, parsed classes and the line
//! map of stop points used for breakpoint validation.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::ast::{ClassDef, MethodImpl, Stmt, StmtKind};
use crate::debug::{DebugHook, Location, ObjectKind, SourcePart};
use crate::parser::parse_class;
use crate::state::method_location;
use crate::{LoadError, RunError, interp};

/// Directory nesting followed by [`Repository::load_dir`] (abapGit folders are shallow).
const MAX_DIR_DEPTH: usize = 32;

#[derive(Debug, Default)]
struct Object {
    kind: Option<ObjectKind>,
    sources: HashMap<SourcePart, String>,
}

/// All loaded ABAP objects. Immutable while programs run, so it can be shared across threads.
#[derive(Debug, Default)]
pub struct Repository {
    objects: BTreeMap<String, Object>,
    classes: BTreeMap<String, ClassDef>,
    /// Per object and part: line → the stop point starting there.
    stops: HashMap<(String, SourcePart), BTreeMap<u32, Location>>,
}

/// What an abapGit file name stands for.
fn classify(file_name: &str) -> Option<(String, ObjectKind, SourcePart)> {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    let lower = base.to_ascii_lowercase();
    let (object, suffix) = lower.split_once('.')?;
    let (kind, part) = match suffix {
        "clas.abap" => (ObjectKind::Class, SourcePart::Main),
        "clas.locals_def.abap" => (ObjectKind::Class, SourcePart::Definitions),
        "clas.locals_imp.abap" => (ObjectKind::Class, SourcePart::Implementations),
        "clas.testclasses.abap" => (ObjectKind::Class, SourcePart::TestClasses),
        "intf.abap" => (ObjectKind::Interface, SourcePart::Main),
        "prog.abap" => (ObjectKind::Program, SourcePart::Main),
        _ => return None,
    };
    if object.is_empty() {
        return None;
    }
    // abapGit writes namespaces `/NS/` as `#ns#`.
    Some((object.replace('#', "/").to_ascii_uppercase(), kind, part))
}

fn collect_stops(class: &str, imp: &MethodImpl, body: &[Stmt], out: &mut BTreeMap<u32, Location>) {
    let add = |line: u32, out: &mut BTreeMap<u32, Location>| {
        out.entry(line)
            .or_insert_with(|| method_location(class, imp, line));
    };
    for s in body {
        if s.kind.is_stop_point() {
            add(s.line, out);
        }
        match &s.kind {
            StmtKind::If {
                branches,
                else_body,
            } => {
                for (i, (line, _, b)) in branches.iter().enumerate() {
                    if i > 0 {
                        add(*line, out);
                    }
                    collect_stops(class, imp, b, out);
                }
                collect_stops(class, imp, else_body, out);
            }
            StmtKind::Do { body, .. } | StmtKind::While { body, .. } => {
                collect_stops(class, imp, body, out)
            }
            StmtKind::Case { whens, .. } => {
                for (line, _, b) in whens {
                    add(*line, out);
                    collect_stops(class, imp, b, out);
                }
            }
            _ => {}
        }
    }
}

impl Repository {
    pub fn new() -> Self {
        Self::default()
    }

    /// Loads every abapGit object file below `dir`; returns how many objects were loaded.
    pub fn load_dir(&mut self, dir: &Path) -> Result<usize, LoadError> {
        let mut files = Vec::new();
        collect_files(dir, 0, &mut files)?;
        files.sort();
        let mut loaded = std::collections::BTreeSet::new();
        for path in files {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let Some((object, _, _)) = classify(&name) else {
                continue;
            };
            let text = std::fs::read_to_string(&path).map_err(|source| LoadError::Io {
                path: path.display().to_string(),
                source,
            })?;
            self.add_file(&name, &text)?;
            loaded.insert(object);
        }
        Ok(loaded.len())
    }

    /// Adds one file by its abapGit name (`zcl_x.clas.abap`); unknown kinds are ignored.
    pub fn add_file(&mut self, file_name: &str, text: &str) -> Result<(), LoadError> {
        let Some((object, kind, part)) = classify(file_name) else {
            return Ok(());
        };
        if kind == ObjectKind::Class && part == SourcePart::Main {
            let body = text.strip_prefix('\u{feff}').unwrap_or(text);
            let class = parse_class(&object, file_name, body)?;
            let mut stops = BTreeMap::new();
            for imp in &class.implementations {
                collect_stops(&class.name, imp, &imp.body, &mut stops);
                stops
                    .entry(imp.endmethod_line)
                    .or_insert_with(|| method_location(&class.name, imp, imp.endmethod_line));
            }
            self.stops.insert((object.clone(), part), stops);
            self.classes.insert(object.clone(), class);
        }
        let entry = self.objects.entry(object).or_default();
        entry.kind = Some(kind);
        entry.sources.insert(part, text.to_string());
        Ok(())
    }

    /// Object names (upper case) with their kind.
    pub fn objects(&self) -> Vec<(String, ObjectKind)> {
        self.objects
            .iter()
            .filter_map(|(n, o)| o.kind.map(|k| (n.clone(), k)))
            .collect()
    }

    /// Exact source text of an object part.
    pub fn source(&self, object: &str, part: SourcePart) -> Option<&str> {
        self.objects
            .get(&object.to_ascii_uppercase())?
            .sources
            .get(&part)
            .map(String::as_str)
    }

    /// The stop point starting on `line`, if any.
    pub fn stop_point(&self, object: &str, part: SourcePart, line: u32) -> Option<Location> {
        self.stops
            .get(&(object.to_ascii_uppercase(), part))?
            .get(&line)
            .cloned()
    }

    /// Runs `IF_OO_ADT_CLASSRUN~MAIN` of `class`; the hook sees every stop point.
    #[expect(
        clippy::result_large_err,
        reason = "RunError is the crate's contract type; one per run"
    )]
    pub fn run_classrun(&self, class: &str, hook: &mut dyn DebugHook) -> Result<String, RunError> {
        interp::run_classrun(&self.classes, class, hook)
    }
}

fn collect_files(
    dir: &Path,
    depth: usize,
    out: &mut Vec<std::path::PathBuf>,
) -> Result<(), LoadError> {
    let io = |source| LoadError::Io {
        path: dir.display().to_string(),
        source,
    };
    let entries = std::fs::read_dir(dir).map_err(io)?;
    for entry in entries {
        let entry = entry.map_err(io)?;
        let ft = entry.file_type().map_err(io)?;
        let path = entry.path();
        if ft.is_dir() {
            // Symlinked directories are not followed (no cycles).
            if depth < MAX_DIR_DEPTH {
                collect_files(&path, depth + 1, out)?;
            }
        } else if ft.is_file() || (ft.is_symlink() && path.is_file()) {
            out.push(path);
        }
    }
    Ok(())
}
