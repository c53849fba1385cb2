//! Runtime state of one run: call frames, variables, the object heap, static attributes and
//! system fields. Shared by the interpreter (which mutates it) and the debugger view (which
//! reads it while the program is stopped), so name lookup lives here once.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::ast::{ClassDef, MethodImpl, ParamKind, Path, Sel, Visibility};
use crate::debug::{Location, ObjectKind, SourcePart};
use crate::parser::class_pool_program;
use crate::value::{ObjId, Type, Value};

/// Class of the object behind `out` in `IF_OO_ADT_CLASSRUN~MAIN`.
pub const CLASSRUN_OUT_CLASS: &str = "CL_OO_ADT_CLASSRUN_OUTPUT";
pub const CLASSRUN_OUT_INTF: &str = "IF_OO_ADT_CLASSRUN_OUT";
pub const CLASSRUN_INTF: &str = "IF_OO_ADT_CLASSRUN";
pub const CLASSRUN_MAIN: &str = "IF_OO_ADT_CLASSRUN~MAIN";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarKind {
    Local,
    Constant,
    Param(ParamKind),
    Attr {
        is_static: bool,
        constant: bool,
        visibility: Visibility,
    },
    /// A system field (`SY-INDEX`).
    System,
    /// The `ME` pseudo variable.
    Me,
}

/// A named data object.
#[derive(Debug, Clone)]
pub struct Var {
    pub name: String,
    /// Declared type (for generic parameters: the type of the actual parameter).
    pub ty: Type,
    pub val: Value,
    pub kind: VarKind,
    pub read_only: bool,
}

impl Var {
    pub fn new(name: &str, ty: Type, kind: VarKind) -> Var {
        Var {
            name: name.to_string(),
            val: ty.initial(),
            ty,
            kind,
            read_only: matches!(
                kind,
                VarKind::Constant | VarKind::Attr { constant: true, .. }
            ),
        }
    }
}

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
}

/// Position of `line` (in `source/main` of `class`) inside the method include of `method`.
pub fn method_location(class: &str, method: &MethodImpl, line: u32) -> Location {
    Location {
        object: class.to_string(),
        kind: ObjectKind::Class,
        part: SourcePart::Main,
        program: class_pool_program(class),
        include: method.include.clone(),
        line,
        include_line: line.saturating_sub(method.method_line) + 1,
        event_type: "METHOD".into(),
        event_name: method.name.clone(),
    }
}

impl Frame<'_> {
    pub fn location(&self) -> Location {
        method_location(&self.class.name, self.method, self.line)
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
    pub class: String,
    pub attrs: Vec<Var>,
    /// The built-in classrun output object.
    pub is_classrun_out: bool,
}

/// Where a named data object lives (for writes).
#[derive(Debug, Clone)]
pub enum Slot {
    Frame(usize, usize),
    Attr(ObjId, usize),
    Static(String, usize),
    Sy(usize),
}

#[derive(Debug)]
pub struct State<'r> {
    pub classes: &'r BTreeMap<String, ClassDef>,
    pub frames: Vec<Frame<'r>>,
    pub heap: Vec<Object>,
    /// Static attributes per class, created on first use of the class.
    pub statics: BTreeMap<String, Vec<Var>>,
    pub sy: Vec<Var>,
    pub output: Vec<String>,
    pub steps: u64,
}

/// Built-in constants every program sees.
fn builtin_constant(name: &str) -> Option<Var> {
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
    })
}

impl<'r> State<'r> {
    pub fn new(classes: &'r BTreeMap<String, ClassDef>) -> Self {
        let sy = ["INDEX", "SUBRC", "TABIX"]
            .into_iter()
            .map(|n| Var::new(n, Type::I, VarKind::System))
            .collect();
        State {
            classes,
            frames: Vec::new(),
            heap: Vec::new(),
            statics: BTreeMap::new(),
            sy,
            output: Vec::new(),
            steps: 0,
        }
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
            static_type: frame.class.name.clone(),
            target: Some(me),
        })
    }

    /// Resolves a name in frame `f` to where it is stored (`None`: unknown).
    /// `ME` itself is no slot (it cannot be assigned).
    pub fn slot(&self, f: usize, path: &Path) -> Option<Slot> {
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
                } else if let Some(s) = self.static_slot(&frame.class.name, base) {
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
                Sel::Static => self.static_slot(&path.base, name),
                _ => None,
            };
        }
        for (sel, name) in rest {
            let current = self.slot_var(slot.as_ref()?)?;
            slot = match (sel, &current.val) {
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
    }

    fn static_slot(&self, class: &str, name: &str) -> Option<Slot> {
        let i = self
            .statics
            .get(class)?
            .iter()
            .position(|v| v.name == name)?;
        Some(Slot::Static(class.to_string(), i))
    }

    pub fn slot_var(&self, slot: &Slot) -> Option<&Var> {
        match slot {
            Slot::Frame(f, i) => self.frames.get(*f)?.vars.get(*i),
            Slot::Attr(o, i) => self.heap.get(*o)?.attrs.get(*i),
            Slot::Static(c, i) => self.statics.get(c)?.get(*i),
            Slot::Sy(i) => self.sy.get(*i),
        }
    }

    pub fn slot_var_mut(&mut self, slot: &Slot) -> Option<&mut Var> {
        match slot {
            Slot::Frame(f, i) => self.frames.get_mut(*f)?.vars.get_mut(*i),
            Slot::Attr(o, i) => self.heap.get_mut(*o)?.attrs.get_mut(*i),
            Slot::Static(c, i) => self.statics.get_mut(c)?.get_mut(*i),
            Slot::Sy(i) => self.sy.get_mut(*i),
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
            }));
        }
        if let Some(slot) = self.slot(f, path) {
            return self.slot_var(&slot).map(Cow::Borrowed);
        }
        if path.rest.is_empty() {
            return builtin_constant(&path.base).map(Cow::Owned);
        }
        None
    }
}
