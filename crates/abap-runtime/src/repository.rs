//! The loaded objects (abapGit file layout) with their sources, parsed classes and the line
//! map of stop points used for breakpoint validation.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::interp;
use crate::interp::state::method_location;
use crate::interp::unit_run;
use abap_data::debug::{DebugHook, Location, ObjectKind, SourcePart};
use abap_data::unit::UnitRunResult;
use abap_data::{Limits, LoadError, RunError};
use abap_syntax::ast::{ClassDef, MethodImpl, Stmt, StmtKind};
use abap_syntax::parser::{Parsed, SourceCtx, parse_source};

mod function_groups;

/// Directory nesting followed by [`Repository::load_dir`] (abapGit folders are shallow).
const MAX_DIR_DEPTH: usize = 32;

#[derive(Debug, Default)]
struct Object {
    kind: Option<ObjectKind>,
    sources: HashMap<SourcePart, String>,
    /// What each source part declares.
    parsed: HashMap<SourcePart, Parsed>,
    /// Class keys this object contributed to the class table.
    keys: Vec<String>,
    /// The function group a function module or include belongs to (and a group itself).
    group: Option<String>,
}

/// What [`Repository::load_dir`] loaded.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Objects loaded with all their files.
    pub objects: usize,
    /// Objects left out, by name, with the error of the file that could not be loaded.
    pub skipped: Vec<(String, LoadError)>,
}

/// All loaded ABAP objects. Immutable while programs run, so it can be shared across threads.
#[derive(Debug, Default)]
pub struct Repository {
    objects: BTreeMap<String, Object>,
    classes: BTreeMap<String, ClassDef>,
    /// Per object and part: line → the stop point starting there.
    stops: HashMap<(String, SourcePart), BTreeMap<u32, Location>>,
    limits: Limits,
    /// The database of Open SQL statements (none: such a statement ends as not supported).
    database: Option<crate::interp::database::SharedDb>,
    /// Function groups by name, with their files (`repository/function_groups.rs`).
    groups: BTreeMap<String, function_groups::GroupFiles>,
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

fn collect_stops(imp: &MethodImpl, body: &[Stmt], out: &mut BTreeMap<u32, Location>) {
    let add = |line: u32, out: &mut BTreeMap<u32, Location>| {
        out.entry(line)
            .or_insert_with(|| method_location(imp, line));
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
                    collect_stops(imp, b, out);
                }
                collect_stops(imp, else_body, out);
            }
            StmtKind::Do { body, .. } | StmtKind::While { body, .. } => {
                collect_stops(imp, body, out)
            }
            StmtKind::Table(t) => {
                if let abap_syntax::ast::TableStmt::Loop { body, .. } = &**t {
                    collect_stops(imp, body, out);
                }
            }
            StmtKind::Sql(q) => collect_stops(imp, &q.body, out),
            StmtKind::CaseType(c) => {
                for w in &c.whens {
                    add(w.line, out);
                    collect_stops(imp, &w.body, out);
                }
            }
            StmtKind::TableOp(t) => match &**t {
                abap_syntax::ast::TableOp::GroupLoop(g) => collect_stops(imp, &g.body, out),
                abap_syntax::ast::TableOp::Control(c) => collect_stops(imp, &c.body, out),
                _ => {}
            },
            StmtKind::Case { whens, .. } => {
                for (line, _, b) in whens {
                    add(*line, out);
                    collect_stops(imp, b, out);
                }
            }
            StmtKind::Try {
                body,
                catches,
                cleanup,
            } => {
                collect_stops(imp, body, out);
                for c in catches {
                    add(c.line, out);
                    collect_stops(imp, &c.body, out);
                }
                if let Some((line, _, b)) = cleanup {
                    add(*line, out);
                    collect_stops(imp, b, out);
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

    /// The limits every later run gets (statements, run time, table rows).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The database every later run's Open SQL statements use: each run through a
    /// connection of its own (its uncommitted changes are invisible to other runs), which
    /// commits when the run ends, or rolls back when it ends in a runtime error.
    pub fn set_database(&mut self, db: std::sync::Arc<std::sync::Mutex<opensql::Database>>) {
        self.database = Some(crate::interp::database::SharedDb::new(db));
    }

    /// Loads every abapGit object file below `dir`. An object with a file that cannot be read
    /// or parsed is left out (all its files) and named in [`Loaded::skipped`]; the others
    /// load. Only a directory that cannot be read fails the whole load.
    pub fn load_dir(&mut self, dir: &Path) -> Result<Loaded, LoadError> {
        let mut files = Vec::new();
        collect_files(dir, 0, &mut files)?;
        let mut by_object: BTreeMap<String, Vec<(String, std::path::PathBuf)>> = BTreeMap::new();
        for path in files {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let object = classify(&name)
                .map(|(object, _, _)| object)
                .or_else(|| function_groups::group_file(&name).map(|(group, _)| group));
            if let Some(object) = object {
                by_object.entry(object).or_default().push((name, path));
            }
        }
        let mut loaded = Loaded::default();
        for (object, mut files) in by_object {
            files.sort();
            match self
                .add_object_files(&files)
                .and_then(|()| self.check_group(&object))
            {
                Ok(()) => loaded.objects += 1,
                Err(e) => {
                    self.remove_object(&object);
                    loaded.skipped.push((object, e));
                }
            }
        }
        Ok(loaded)
    }

    fn add_object_files(
        &mut self,
        files: &[(String, std::path::PathBuf)],
    ) -> Result<(), LoadError> {
        for (name, path) in files {
            let text = std::fs::read_to_string(path).map_err(|source| LoadError::Io {
                path: path.display().to_string(),
                source,
            })?;
            self.add_file(name, &text)?;
        }
        Ok(())
    }

    /// Forgets an object: its sources, classes and stop points.
    fn remove_object(&mut self, object: &str) {
        self.remove_group(object);
        if let Some(obj) = self.objects.remove(object) {
            for key in obj.keys {
                self.classes.remove(&key);
            }
        }
        self.stops.retain(|(o, _), _| o != object);
    }

    /// Adds one file by its abapGit name (`zcl_x.clas.abap`, `zfg.fugr.z_fm.abap`,
    /// `zfg.fugr.xml`: a function group is rebuilt with each of its files); unknown kinds are
    /// ignored.
    pub fn add_file(&mut self, file_name: &str, text: &str) -> Result<(), LoadError> {
        if let Some((group, what)) = function_groups::group_file(file_name) {
            return self.add_group_file(&group, what, file_name, text);
        }
        let Some((object, kind, part)) = classify(file_name) else {
            return Ok(());
        };
        let body = text.strip_prefix('\u{feff}').unwrap_or(text);
        let ctx = SourceCtx {
            object: object.clone(),
            kind,
            part,
            file: file_name.to_string(),
            pool: None,
        };
        let parsed = parse_source(&ctx, body)?;
        if let Some(e) =
            crate::interp::oo::final_violation(file_name, &parsed.classes, &self.classes)
        {
            return Err(e);
        }
        if kind == ObjectKind::Class
            && part == SourcePart::Main
            && !parsed.classes.iter().any(|c| c.key == object)
        {
            return Err(LoadError::Syntax {
                file: file_name.to_string(),
                line: 1,
                message: format!("class {object} is not defined in this file"),
            });
        }
        let entry = self.objects.entry(object.clone()).or_default();
        entry.kind = Some(kind);
        entry.sources.insert(part, text.to_string());
        entry.parsed.insert(part, parsed);
        self.rebuild(&object);
        Ok(())
    }

    /// Recomputes the classes and stop points of `object` from its parsed parts.
    fn rebuild(&mut self, object: &str) {
        let Some(obj) = self.objects.get_mut(object) else {
            return;
        };
        for key in obj.keys.drain(..) {
            self.classes.remove(&key);
        }
        let parts = [
            SourcePart::Main,
            SourcePart::Definitions,
            SourcePart::Implementations,
            SourcePart::TestClasses,
        ];
        let mut classes: BTreeMap<String, ClassDef> = BTreeMap::new();
        for part in parts {
            if let Some(p) = obj.parsed.get(&part) {
                for c in &p.classes {
                    classes.insert(c.key.clone(), c.clone());
                }
            }
        }
        for part in parts {
            if let Some(p) = obj.parsed.get(&part) {
                for (key, imp) in &p.foreign_impls {
                    if let Some(c) = classes.get_mut(key) {
                        c.implementations.push(imp.clone());
                    }
                }
            }
        }
        let mut stops: HashMap<SourcePart, BTreeMap<u32, Location>> = HashMap::new();
        for c in classes.values() {
            for imp in &c.implementations {
                let map = stops.entry(imp.place.part).or_default();
                collect_stops(imp, &imp.body, map);
                if let Some(end) = imp.end_line {
                    map.entry(end).or_insert_with(|| method_location(imp, end));
                }
            }
        }
        for part in parts {
            self.stops.remove(&(object.to_string(), part));
        }
        for (part, map) in stops {
            self.stops.insert((object.to_string(), part), map);
        }
        obj.keys = classes.keys().cloned().collect();
        self.classes.extend(classes);
    }

    /// Object names (upper case) with their kind.
    pub fn objects(&self) -> Vec<(String, ObjectKind)> {
        self.objects
            .iter()
            .filter_map(|(n, o)| o.kind.map(|k| (n.clone(), k)))
            .collect()
    }

    /// The function group of a function module or include (or of the group itself).
    pub fn function_group(&self, object: &str) -> Option<&str> {
        self.objects
            .get(&object.to_ascii_uppercase())?
            .group
            .as_deref()
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
        interp::run::run_classrun(
            &self.classes,
            class,
            hook,
            self.limits,
            self.database.as_ref(),
        )
    }

    /// Runs a report (`.prog.abap`): `LOAD-OF-PROGRAM`, `INITIALIZATION`,
    /// `START-OF-SELECTION` (including statements before any event keyword) and
    /// `END-OF-SELECTION`, with `FORM`s and local classes; the hook sees every stop point.
    /// Returns the list written with `WRITE`/`ULINE`/`SKIP`/`NEW-LINE` (and `MESSAGE`s), one
    /// list line per text line, trailing blanks removed. An unknown program gives
    /// [`RunError::UnknownClass`].
    #[expect(
        clippy::result_large_err,
        reason = "RunError is the crate's contract type; one per run"
    )]
    pub fn run_report(&self, program: &str, hook: &mut dyn DebugHook) -> Result<String, RunError> {
        interp::run::run_report(
            &self.classes,
            program,
            hook,
            self.limits,
            self.database.as_ref(),
        )
    }

    /// Runs the ABAP Unit tests of a class (test classes in `.clas.testclasses.abap`) or a
    /// program (local test classes in its source); `method` restricts the run: `M` to test
    /// methods of that name, `C=>M` to method `M` of test class `C`, `C=>` to test class `C`
    /// (classes filtered out are not run at all, not even their `class_setup`). Test failures are results, not errors; `Err` means the object is unknown
    /// ([`RunError::UnknownClass`]) or the debugger terminated the run.
    #[expect(
        clippy::result_large_err,
        reason = "RunError is the crate's contract type; one per run"
    )]
    pub fn run_unit_tests(
        &self,
        object: &str,
        kind: ObjectKind,
        method: Option<&str>,
        hook: &mut dyn DebugHook,
    ) -> Result<UnitRunResult, RunError> {
        let name = object.to_ascii_uppercase();
        match self.objects.get(&name) {
            Some(o) if o.kind == Some(kind) => {}
            _ => return Err(RunError::UnknownClass(name)),
        }
        unit_run::run(
            &self.classes,
            &name,
            kind,
            method,
            hook,
            self.limits,
            self.database.as_ref(),
        )
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
