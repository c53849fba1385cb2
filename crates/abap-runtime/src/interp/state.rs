//! Runtime state of one run: call frames, variables, the object heap, static attributes and
//! system fields. Shared by the interpreter (which mutates it) and the debugger view (which
//! reads it while the program is stopped), so name lookup lives here once.

use std::borrow::Cow;
use std::collections::BTreeMap;

use abap_data::debug::Location;
use abap_data::place::{Place, Slot, Step};
use abap_data::value::{ObjId, Type, Value};
use abap_syntax::ast::{ClassDef, MethodImpl, Path, Sel, Stmt, StmtKind};
use abap_syntax::parser::{local_class_key, program_key};

pub use crate::interp::var::{Var, VarKind};

/// One ABAP call frame.
#[derive(Debug)]
pub struct Frame<'r> {
    pub class: &'r ClassDef,
    pub method: &'r MethodImpl,
    pub me: Option<ObjId>,
    /// Parameters first (`n_params` of them), then locals, in declaration order.
    pub vars: Vec<Var>,
    pub n_params: usize,
    /// Line (in the class's `source/main`) of the statement being executed.
    pub line: u32,
    /// Loops currently open in this frame (`EXIT`/`CHECK` mean something else outside loops).
    pub loop_depth: usize,
    /// Statement lists being executed in this frame, outermost first (jump targets).
    pub blocks: Vec<&'r [Stmt]>,
    /// Field symbols of the procedure (upper case with `<>`) and what they are assigned to.
    pub field_symbols: Vec<(String, Option<Place>)>,
    /// Parameters passed by reference (index into `vars`) and the actual parameter's storage:
    /// reads and writes go there, so the caller's data changes at once, as in ABAP. The
    /// parameter's own `val` is not kept up to date: the debugger's listing shows the value
    /// at the place (`context.rs`).
    pub aliases: Vec<(usize, Place)>,
    /// Unique number of this procedure call (data references to its locals carry it, so they
    /// become invalid when the call ends).
    pub serial: u64,
    /// Parameters the caller gave an actual parameter for (`IS SUPPLIED`).
    pub supplied: Vec<String>,
    /// The `LOOP`s running in this procedure, innermost last (for `AT NEW`/`AT END OF`).
    pub loops: Vec<LoopCursor>,
    /// Generic parameters (`TYPE any`) whose actual parameter's type has a name: that name
    /// (what `describe_by_data( )` of the parameter reports).
    pub actual_types: Vec<(
        String,
        crate::interp::builtins::classes::rtti::names::TypeName,
    )>,
}

/// Where a running `LOOP` is: its table, the first row it processed and the current row
/// (0-based).
#[derive(Debug, Clone)]
pub struct LoopCursor {
    pub place: Place,
    pub first: Option<usize>,
    pub current: usize,
    /// The current row was deleted in this pass: `current` is where the row after it is now
    /// (the loop goes on there). Kept up to date by `row_refs.rs`.
    pub current_gone: bool,
}

/// Position of `line` (in the source part of `method`) as the debugger reports it.
pub fn method_location(method: &MethodImpl, line: u32) -> Location {
    let p = &method.place;
    Location {
        object: p.object.clone(),
        kind: p.kind,
        part: p.part,
        program: p.program.clone(),
        include: p.include.clone(),
        line,
        include_line: match p.include_start {
            Some(start) => line.saturating_sub(start) + 1,
            None => line,
        },
        event_type: p.event_type.into(),
        event_name: method.name.clone(),
    }
}

impl Frame<'_> {
    pub fn location(&self) -> Location {
        method_location(self.method, self.line)
    }

    pub fn params(&self) -> &[Var] {
        self.vars.get(..self.n_params).unwrap_or(&[])
    }

    pub fn locals(&self) -> &[Var] {
        self.vars.get(self.n_params..).unwrap_or(&[])
    }
}

#[derive(Debug)]
pub struct Object {
    /// Key of the object's class.
    pub class: String,
    pub attrs: Vec<Var>,
    /// The built-in classrun output object.
    pub is_classrun_out: bool,
    /// For exception objects: the text of a runtime error turned into an exception and where
    /// the exception was raised.
    pub exc: Option<ExcInfo>,
}

#[derive(Debug, Clone, Default)]
pub struct ExcInfo {
    pub text: Option<String>,
    /// The runtime error id the exception stands for (`COMPUTE_INT_ZERODIVIDE`).
    pub dump_id: Option<String>,
    pub location: Option<Location>,
}

/// What the statement about to run is (for [`abap_data::debug::StopContext::statement`]).
#[derive(Debug, Clone, Copy, Default)]
pub enum Current<'r> {
    #[default]
    None,
    Stmt(&'r StmtKind),
    /// A stop point that is no statement of its own (`ELSEIF`, `WHEN`, `ENDMETHOD`).
    Keyword(&'static str),
    /// The `CATCH` that caught an exception of the object.
    Catch(ObjId),
}

/// The built-in classes as the state consults them after the program's own: given by whoever
/// starts the run, because their registry (`builtins/classes/mod.rs`) sits above the state.
#[derive(Debug, Clone, Copy)]
pub struct BuiltinClasses {
    /// A built-in class by key.
    pub class: fn(&str) -> Option<&'static ClassDef>,
    /// A constant attribute of a built-in class (`cl_abap_typedescr=>typekind_int`).
    pub static_constant: fn(&Path) -> Option<Var>,
}

#[derive(Debug)]
pub struct State<'r> {
    /// The built-in classes (looked up after the program's classes).
    pub builtins: BuiltinClasses,
    pub classes: &'r BTreeMap<String, ClassDef>,
    pub current: Current<'r>,
    /// List output of a report (`WRITE`): finished lines and the current line.
    pub list: Vec<String>,
    pub list_line: Option<String>,
    /// Some data reference to a table row has been created: row moves must renumber data
    /// references too (see `row_refs.rs`).
    pub row_data_refs: std::cell::Cell<bool>,
    /// The last output of the current line had `NO-GAP`.
    pub list_no_gap: bool,
    /// `TOP-OF-PAGE` has run for the list's (single) page.
    pub top_of_page_done: bool,
    pub frames: Vec<Frame<'r>>,
    pub heap: Vec<Object>,
    /// Static attributes per class, created on first use of the class.
    pub statics: BTreeMap<String, Vec<Var>>,
    pub sy: Vec<Var>,
    pub output: Vec<String>,
    pub steps: u64,
    /// Anonymous data objects (never freed during a run, like the object heap).
    pub anon: Vec<Var>,
    /// Field symbols of programs (declared outside procedures): program, name, target.
    pub global_fs: Vec<(String, String, Option<abap_data::place::DataTarget>)>,
    /// Procedure calls started so far (for [`Frame::serial`]).
    pub calls: u64,
    /// The type descriptor objects of the run (`cl_abap_typedescr`).
    pub rtti: crate::interp::builtins::classes::rtti::registry::Registry<'r>,
}

/// Built-in constants every program sees.
pub fn builtin_constant(name: &str) -> Option<Var> {
    let v = match name {
        "ABAP_TRUE" => "X",
        "ABAP_FALSE" | "SPACE" | "ABAP_UNDEFINED" => " ",
        _ => return None,
    };
    let v = if name == "ABAP_UNDEFINED" { "-" } else { v };
    Some(Var {
        name: name.to_string(),
        ty: Type::C(1),
        val: Value::C(v.into()),
        kind: VarKind::Constant,
        read_only: true,
        type_name: None,
    })
}

impl<'r> State<'r> {
    /// Sets system field `SY-<name>` to `v`.
    pub fn set_sy(&mut self, name: &str, v: i32) {
        if let Some(var) = self.sy.iter_mut().find(|s| s.name == name) {
            var.val = Value::I(v);
        }
    }

    pub fn new(classes: &'r BTreeMap<String, ClassDef>, builtins: BuiltinClasses) -> Self {
        let mut sy: Vec<Var> = ["INDEX", "SUBRC", "TABIX", "TFILL", "DBCNT", "FDPOS"]
            .into_iter()
            .map(|n| Var::new(n, Type::I, VarKind::System))
            .collect();
        for (n, len, v) in [
            ("MSGID", 20, ""),
            ("MSGNO", 3, "000"),
            ("MSGTY", 1, ""),
            ("MSGV1", 50, ""),
            ("MSGV2", 50, ""),
            ("MSGV3", 50, ""),
            ("MSGV4", 50, ""),
            ("UNAME", 12, "DEVELOPER"),
            ("SYSID", 8, "NPL"),
            ("MANDT", 3, "001"),
            ("LANGU", 1, "E"),
            ("REPID", 40, ""),
            ("ABCDE", 26, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
            ("VLINE", 1, "|"),
        ] {
            let mut var = Var::new(n, Type::C(len), VarKind::System);
            var.val = Value::C(format!("{v:<width$}", width = len as usize).into());
            sy.push(var);
        }
        // A horizontal line for lists (`WRITE sy-uline(20)`).
        let mut uline = Var::new("ULINE", Type::C(255), VarKind::System);
        uline.val = Value::C("-".repeat(255).into());
        sy.push(uline);
        // Date and time of the run (fixed, so runs are reproducible).
        let mut datum = Var::new("DATUM", Type::D, VarKind::System);
        datum.val = Value::D("20240101".into());
        let mut uzeit = Var::new("UZEIT", Type::T, VarKind::System);
        uzeit.val = Value::T("120000".into());
        sy.extend([datum, uzeit]);
        State {
            builtins,
            classes,
            current: Current::None,
            list: Vec::new(),
            list_line: None,
            row_data_refs: std::cell::Cell::new(false),
            list_no_gap: false,
            top_of_page_done: false,
            frames: Vec::new(),
            heap: Vec::new(),
            statics: BTreeMap::new(),
            sy,
            output: Vec::new(),
            steps: 0,
            anon: Vec::new(),
            global_fs: Vec::new(),
            calls: 0,
            rtti: Default::default(),
        }
    }

    /// Ends the current list line (`WRITE /`, `NEW-LINE`, `ULINE`).
    pub fn flush_line(&mut self) {
        if let Some(l) = self.list_line.take() {
            self.list.push(l.trim_end().to_string());
        }
    }

    /// The list output as text (lines joined by `\n`).
    pub fn list_text(&self) -> String {
        self.list.join("\n")
    }

    /// True if the innermost procedure can continue at `line` (see
    /// [`abap_data::debug::StopContext::can_jump_to`]).
    pub fn can_jump(&self, line: u32) -> bool {
        let Some(frame) = self.frames.last() else {
            return false;
        };
        let has = |stmts: &[Stmt]| {
            stmts
                .iter()
                .any(|s| s.line == line && s.kind.is_stop_point())
        };
        frame.method.end_line == Some(line)
            || has(&frame.method.body)
            || frame.blocks.iter().any(|b| has(b))
    }

    /// A class by key (user classes, then built-ins).
    pub fn class_by_key(&self, key: &str) -> Option<&'r ClassDef> {
        self.classes.get(key).or_else(|| (self.builtins.class)(key))
    }

    /// Resolves a class name used in code of main program `program`: local classes of that
    /// program first, then global and built-in classes.
    pub fn find_class(&self, program: &str, name: &str) -> Option<&'r ClassDef> {
        if name.starts_with('\\') {
            return self.class_by_key(name);
        }
        if !program.is_empty()
            && let Some(c) = self.classes.get(&local_class_key(program, name))
        {
            return Some(c);
        }
        self.class_by_key(name)
    }

    /// The superclass of `class`.
    pub fn superclass(&self, class: &ClassDef) -> Option<&'r ClassDef> {
        let name = class.superclass.as_deref()?;
        self.find_class(&class.program, name)
    }

    /// `class` and its superclasses, most derived first (bounded against cycles).
    pub fn lineage(&self, class: &'r ClassDef) -> Vec<&'r ClassDef> {
        let mut out = vec![class];
        let mut cur = class;
        while let Some(s) = self.superclass(cur) {
            if out.len() > 64 || out.iter().any(|c| c.key == s.key) {
                break;
            }
            out.push(s);
            cur = s;
        }
        out
    }

    /// True if class `key` is `target` or inherits from it or implements it.
    pub fn is_a(&self, key: &str, target: &ClassDef) -> bool {
        let Some(c) = self.class_by_key(key) else {
            return false;
        };
        self.lineage(c)
            .iter()
            .any(|c| c.key == target.key || c.interfaces.contains(&target.name))
    }

    /// The program pseudo class (globals, events, forms) of frame `f`'s program.
    pub fn program_class(&self, f: usize) -> Option<&'r ClassDef> {
        let frame = self.frames.get(f)?;
        self.classes.get(&program_key(&frame.class.program))
    }

    /// Frame `n` counted from the innermost (0) outwards, as the debugger numbers them.
    pub fn frame_from_top(&self, n: usize) -> Option<usize> {
        self.frames.len().checked_sub(n + 1)
    }

    pub fn object_class(&self, id: ObjId) -> Option<&str> {
        self.heap.get(id).map(|o| o.class.as_str())
    }

    /// The `ME` reference of frame `f`.
    pub fn me_value(&self, f: usize) -> Option<Value> {
        let frame = self.frames.get(f)?;
        let me = frame.me?;
        Some(Value::Ref {
            static_type: frame.class.name.as_str().into(),
            target: Some(me),
        })
    }

    /// Resolves a name with components (`LS-SUB-F`, `<FS>-F`, `ME->MS-F`) in frame `f`.
    pub fn place(&self, f: usize, path: &Path) -> Option<Place> {
        self.frames.get(f)?;
        if path.base.starts_with('<') {
            let mut place = self.field_symbol(f, &path.base)??.clone();
            for (sel, name) in &path.rest {
                place = self.step_into(place, *sel, name)?;
            }
            return Some(place);
        }
        // The longest prefix that names a variable (attributes via `->`), then components.
        let mut n = path.rest.len();
        loop {
            let head = Path {
                base: path.base.clone(),
                rest: path.rest.get(..n)?.to_vec(),
            };
            if let Some(slot) = self.slot(f, &head) {
                let mut place = match self.alias_of(&slot) {
                    Some(actual) => actual.clone(),
                    None => Place {
                        slot,
                        steps: Vec::new(),
                    },
                };
                for (sel, name) in path.rest.get(n..)? {
                    place = self.step_into(place, *sel, name)?;
                }
                return Some(place);
            }
            if n == 0 || path.base == "SY" {
                return None;
            }
            n -= 1;
        }
    }

    pub fn step_into(&self, mut place: Place, sel: Sel, name: &str) -> Option<Place> {
        let v = self.value_at(&place)?;
        match (sel, v) {
            (Sel::Dash, Value::Struct(t, _)) => {
                place.steps.push(Step::Comp(t.index_of(name)?));
                Some(place)
            }
            (
                Sel::Arrow,
                Value::Ref {
                    target: Some(obj), ..
                },
            ) => Some(Place {
                slot: self.attr_slot(*obj, name)?,
                steps: Vec::new(),
            }),
            (Sel::Arrow, Value::DataRef(r)) => self.deref_step(r, name),
            _ => None,
        }
    }

    /// The value at a place.
    pub fn value_at(&self, place: &Place) -> Option<&Value> {
        let mut v = &self.slot_var(&place.slot)?.val;
        for s in &place.steps {
            v = match (s, v) {
                (Step::Comp(i), Value::Struct(_, c)) => c.get(*i)?,
                (Step::Row(i), Value::Table(_, rows)) => rows.get(*i)?,
                _ => return None,
            };
        }
        Some(v)
    }

    pub fn value_at_mut(&mut self, place: &Place) -> Option<&mut Value> {
        let mut v = &mut self.slot_var_mut(&place.slot)?.val;
        for s in &place.steps {
            v = match (s, v) {
                (Step::Comp(i), Value::Struct(_, c)) => c.get_mut(*i)?,
                (Step::Row(i), Value::Table(_, rows)) => rows.get_mut(*i)?,
                _ => return None,
            };
        }
        Some(v)
    }

    /// Resolves a name in frame `f` to where it is stored (`None`: unknown).
    /// `ME` itself is no slot (it cannot be assigned).
    /// Where the data object `path` names lives; `itab[]` is the body of a table with a
    /// header line, else the table `itab` itself.
    pub fn slot(&self, f: usize, path: &Path) -> Option<Slot> {
        let exact = self.slot_exact(f, path);
        match path.base.strip_suffix("[]") {
            Some(table) if exact.is_none() => self.slot_exact(
                f,
                &Path {
                    base: table.to_string(),
                    rest: path.rest.clone(),
                },
            ),
            _ => exact,
        }
    }

    pub fn slot_exact(&self, f: usize, path: &Path) -> Option<Slot> {
        let frame = self.frames.get(f)?;
        let mut slot = match path.base.as_str() {
            "ME" if !path.rest.is_empty() => None,
            "SY" => {
                let [(Sel::Dash, field)] = path.rest.as_slice() else {
                    return None;
                };
                let i = self.sy.iter().position(|v| &v.name == field)?;
                return Some(Slot::Sy(i));
            }
            base => {
                if let Some(i) = frame.vars.iter().position(|v| v.name == base) {
                    Some(Slot::Frame(f, i))
                } else if let Some(s) = frame.me.and_then(|me| self.attr_slot(me, base)) {
                    Some(s)
                } else if let Some(s) = self.static_slot(&frame.class.key, base) {
                    Some(s)
                } else if let Some(s) = self
                    .program_class(f)
                    .and_then(|p| self.static_slot(&p.key, base))
                {
                    Some(s)
                } else if path.rest.first().is_some_and(|(s, _)| *s == Sel::Static) {
                    None
                } else {
                    return None;
                }
            }
        };
        let mut rest = path.rest.iter();
        if slot.is_none() {
            // `ME->x` or `CLASS=>x`
            let (sel, name) = rest.next()?;
            slot = match sel {
                Sel::Arrow if path.base == "ME" => self.attr_slot(frame.me?, name),
                Sel::Static => {
                    let class = self.find_class(&frame.class.program, &path.base)?;
                    self.static_slot(&class.key, name)
                }
                _ => None,
            };
        }
        for (sel, name) in rest {
            let current = slot.as_ref()?;
            let val = match self.alias_of(current) {
                Some(actual) => self.value_at(actual)?,
                None => &self.slot_var(current)?.val,
            };
            slot = match (sel, val) {
                (
                    Sel::Arrow,
                    Value::Ref {
                        target: Some(obj), ..
                    },
                ) => self.attr_slot(*obj, name),
                _ => None,
            };
        }
        slot
    }

    fn attr_slot(&self, obj: ObjId, name: &str) -> Option<Slot> {
        let o = self.heap.get(obj)?;
        if let Some(i) = o.attrs.iter().position(|v| v.name == name) {
            return Some(Slot::Attr(obj, i));
        }
        self.static_slot(&o.class, name)
            .or_else(|| self.interface_attr_slot(obj, name))
    }

    /// A static attribute of class `key` or one of its superclasses.
    fn static_slot(&self, key: &str, name: &str) -> Option<Slot> {
        let class = self.class_by_key(key)?;
        for c in self.lineage(class) {
            if let Some(i) = self
                .statics
                .get(&c.key)
                .and_then(|vars| vars.iter().position(|v| v.name == name))
            {
                return Some(Slot::Static(c.key.clone(), i));
            }
        }
        self.interface_static_slot(key, name)
    }

    /// The actual parameter behind a by-reference parameter.
    pub fn alias_of(&self, slot: &Slot) -> Option<&Place> {
        let Slot::Frame(f, i) = slot else {
            return None;
        };
        let frame = self.frames.get(*f)?;
        frame
            .aliases
            .iter()
            .find(|(var, _)| var == i)
            .map(|(_, place)| place)
    }

    pub fn slot_var(&self, slot: &Slot) -> Option<&Var> {
        match slot {
            Slot::Frame(f, i) => self.frames.get(*f)?.vars.get(*i),
            Slot::Attr(o, i) => self.heap.get(*o)?.attrs.get(*i),
            Slot::Static(c, i) => self.statics.get(c)?.get(*i),
            Slot::Sy(i) => self.sy.get(*i),
            Slot::Anon(i) => self.anon.get(*i),
        }
    }

    pub fn slot_var_mut(&mut self, slot: &Slot) -> Option<&mut Var> {
        match slot {
            Slot::Frame(f, i) => self.frames.get_mut(*f)?.vars.get_mut(*i),
            Slot::Attr(o, i) => self.heap.get_mut(*o)?.attrs.get_mut(*i),
            Slot::Static(c, i) => self.statics.get_mut(c)?.get_mut(*i),
            Slot::Sy(i) => self.sy.get_mut(*i),
            Slot::Anon(i) => self.anon.get_mut(*i),
        }
    }

    /// Reads a name in frame `f`: variables, `ME`, attributes, statics, `SY-…`, constants.
    pub fn lookup(&self, f: usize, path: &Path) -> Option<Cow<'_, Var>> {
        if path.base == "ME" && path.rest.is_empty() {
            let frame = self.frames.get(f)?;
            return Some(Cow::Owned(Var {
                name: "ME".into(),
                ty: Type::Ref(frame.class.name.clone()),
                val: self.me_value(f)?,
                kind: VarKind::Me,
                read_only: true,
                type_name: None,
            }));
        }
        if let Some(place) = self.place(f, path) {
            let var = self.slot_var(&place.slot)?;
            if place.steps.is_empty() {
                return Some(Cow::Borrowed(var));
            }
            let val = self.value_at(&place)?.clone();
            return Some(Cow::Owned(Var {
                name: path
                    .rest
                    .last()
                    .map_or_else(|| path.base.clone(), |(_, n)| n.clone()),
                ty: val.type_of(),
                val,
                kind: VarKind::Local,
                read_only: var.read_only,
                type_name: None,
            }));
        }
        if path.rest.is_empty() {
            return builtin_constant(&path.base).map(Cow::Owned);
        }
        (self.builtins.static_constant)(path).map(Cow::Owned)
    }
}
