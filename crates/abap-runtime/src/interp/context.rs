//! The debugger's read-only view of a stopped program ([`StopContext`] over [`State`]):
//! stack frames, scopes, and variables as ADT `STPDA_ADT_VARIABLE` records.

use std::borrow::Cow;
use std::cell::RefCell;

use crate::interp::state::{Current, State, Var, VarKind};
use abap_data::debug::{
    self, Location, ObjectKind, ScopeEntry, SourcePart, StopContext, VarFields, VarRecord,
};
use abap_data::place::{Place, Slot};
use abap_data::value::{Type, Value};
use abap_syntax::ast::StmtKind;
use abap_syntax::parser::words::parse_path;

/// What the hook gets: the stopped program's state, changeable through
/// [`StopContext::set_value`].
pub struct View<'s, 'r> {
    st: RefCell<&'s mut State<'r>>,
}

impl<'s, 'r> View<'s, 'r> {
    pub fn new(st: &'s mut State<'r>) -> Self {
        View {
            st: RefCell::new(st),
        }
    }
}

impl StopContext for View<'_, '_> {
    fn location(&self) -> Location {
        self.st.borrow().location()
    }
    fn stack(&self) -> Vec<debug::Frame> {
        self.st.borrow().stack()
    }
    fn depth(&self) -> usize {
        self.st.borrow().depth()
    }
    fn procedure(&self) -> Option<usize> {
        StopContext::procedure(&**self.st.borrow())
    }
    fn scopes(&self, frame: usize) -> Vec<ScopeEntry> {
        self.st.borrow().scopes(frame)
    }
    fn children(&self, frame: usize, parent_id: &str) -> Option<Vec<VarRecord>> {
        self.st.borrow().children(frame, parent_id)
    }
    fn each_child(
        &self,
        frame: usize,
        parent_id: &str,
        each: &mut dyn FnMut(VarFields<'_>),
    ) -> bool {
        self.st.borrow().each_child(frame, parent_id, each)
    }
    fn variables(&self, frame: usize, ids: &[String]) -> Vec<VarRecord> {
        self.st.borrow().variables(frame, ids)
    }
    fn statement(&self) -> String {
        self.st.borrow().statement()
    }
    fn caught_exception(&self) -> Option<String> {
        self.st.borrow().caught_exception()
    }
    fn message(&self) -> Option<(String, String, String)> {
        self.st.borrow().message()
    }
    fn can_jump_to(&self, line: u32) -> bool {
        self.st.borrow().can_jump(line)
    }
    fn set_value(&self, frame: usize, id: &str, value: &str) -> Result<VarRecord, String> {
        let Ok(mut st) = self.st.try_borrow_mut() else {
            return Err("the program is busy".into());
        };
        st.set_value(frame, id, value)
    }
    fn condition_holds(&self, frame: usize, condition: &str) -> Result<bool, String> {
        let cond = crate::interp::condition::parse(condition)?;
        let Ok(mut st) = self.st.try_borrow_mut() else {
            return Err("the program is busy".into());
        };
        crate::interp::condition::holds(&mut st, frame, &cond)
    }
}

impl State<'_> {
    /// The writable storage behind a debugger id in frame index `f` (bottom-based): variables,
    /// components, attributes, `<FS>` (the assigned data object) and `REF->*`.
    fn place_for_id(&self, f: usize, id: &str) -> Option<Place> {
        let id = id.to_ascii_uppercase();
        if let Some((obj, rest)) = State::object_id(&id) {
            let attr = rest.strip_prefix('-')?;
            if attr.contains('-') {
                return self.object_part(obj, attr);
            }
            let o = self.heap.get(obj)?;
            if let Some(i) = o.attrs.iter().position(|v| v.name == attr) {
                return Some(Place {
                    slot: Slot::Attr(obj, i),
                    steps: Vec::new(),
                });
            }
            return None;
        }
        let path = parse_path(&id)?;
        self.place(f, &path)
    }

    /// [`StopContext::set_value`] on the state.
    pub fn set_value(&mut self, frame: usize, id: &str, text: &str) -> Result<VarRecord, String> {
        let f = self
            .frame_from_top(frame)
            .ok_or_else(|| format!("there is no stack frame {frame}"))?;
        let place = self
            .place_for_id(f, id)
            .ok_or_else(|| format!("variable {id} is unknown"))?;
        let var = self
            .slot_var(&place.slot)
            .ok_or_else(|| format!("variable {id} is unknown"))?;
        let current = self
            .value_at(&place)
            .ok_or_else(|| format!("variable {id} is unknown"))?;
        if matches!(
            var.kind,
            VarKind::Constant | VarKind::Attr { constant: true, .. }
        ) {
            return Err(format!("{id} is a constant and cannot be changed"));
        }
        if !matches!(current.meta_type(), "simple" | "string") {
            return Err(format!(
                "{id} is not an elementary field; only simple and string fields can be changed"
            ));
        }
        let ty = if place.steps.is_empty() {
            var.ty.clone()
        } else {
            current.type_of()
        };
        let new = Value::Str(text.to_string().into())
            .convert(&ty)
            .map_err(|e| match e {
                abap_data::value::ConvError::NoNumber(t) => {
                    format!("\"{t}\" cannot be interpreted as a number")
                }
                abap_data::value::ConvError::Overflow => {
                    format!("\"{text}\" does not fit into {id} (type {})", ty.name())
                }
                abap_data::value::ConvError::Incompatible => {
                    format!("\"{text}\" cannot be converted to type {}", ty.name())
                }
            })?;
        if let Some(v) = self.value_at_mut(&place) {
            *v = new;
        }
        let var = self
            .slot_var(&place.slot)
            .ok_or_else(|| format!("variable {id} is unknown"))?;
        let val = self
            .value_at(&place)
            .ok_or_else(|| format!("variable {id} is unknown"))?;
        let ty = if place.steps.is_empty() {
            Cow::Borrowed(&var.ty)
        } else {
            Cow::Owned(val.type_of())
        };
        let shown = Shown {
            name: &var.name,
            ty,
            val,
            kind: var.kind,
            read_only: var.read_only,
            type_name: None,
        };
        let up = id.to_ascii_uppercase();
        Ok(self
            .fields(&up, &up, &shown, &mut Texts::default())
            .to_record())
    }

    /// [`StopContext::statement`] on the state.
    pub fn statement(&self) -> String {
        match self.current {
            Current::None => String::new(),
            Current::Stmt(k) => k.keyword(),
            Current::Keyword(k) => k.to_string(),
            Current::Catch(_) => "CATCH".into(),
        }
    }

    /// [`StopContext::caught_exception`] on the state.
    pub fn caught_exception(&self) -> Option<String> {
        match self.current {
            Current::Catch(obj) => {
                let key = self.object_class(obj)?;
                Some(
                    self.class_by_key(key)
                        .map_or_else(|| key.to_string(), |c| c.name.clone()),
                )
            }
            _ => None,
        }
    }

    /// [`StopContext::message`] on the state.
    pub fn message(&self) -> Option<(String, String, String)> {
        let m = match self.current {
            Current::Stmt(StmtKind::Message(m)) => m,
            Current::Stmt(StmtKind::Function(f)) => match &**f {
                abap_syntax::ast::FunctionStmt::MessageRaising { message, .. } => message,
                _ => return None,
            },
            _ => return None,
        };
        Some((m.id.clone()?, m.number.clone()?, m.msg_type.clone()?))
    }
}

/// A data object as the debugger shows it, borrowed from the state: nothing is copied to
/// describe it, whatever its size (a table of a million rows, a long string, a structure
/// holding a table).
pub(crate) struct Shown<'a> {
    name: &'a str,
    /// Declared type (for parts: the type of the value).
    ty: Cow<'a, Type>,
    val: &'a Value,
    kind: VarKind,
    read_only: bool,
    type_name: Option<&'a str>,
}

impl<'a> Shown<'a> {
    fn of(var: &'a Var) -> Self {
        Shown::with_value(var, &var.val)
    }

    /// `var` showing `val` (a by-reference parameter shows its actual parameter's value).
    fn with_value(var: &'a Var, val: &'a Value) -> Self {
        Shown {
            name: &var.name,
            ty: Cow::Borrowed(&var.ty),
            val,
            kind: var.kind,
            read_only: var.read_only,
            type_name: var.type_name.as_deref(),
        }
    }

    /// A component, a row or a dereferenced target inside a data object.
    fn part(name: &'a str, ty: Option<&'a Type>, val: &'a Value, read_only: bool) -> Self {
        Shown {
            name,
            ty: ty.map_or_else(|| Cow::Owned(val.type_of()), Cow::Borrowed),
            val,
            kind: VarKind::Local,
            read_only,
            type_name: None,
        }
    }
}

/// What a debugger id names: a variable, or a part of one (borrowed, never copied).
enum Resolved<'a> {
    Var(Cow<'a, Var>),
    Part {
        name: String,
        /// The declared type when the part is a whole variable (an alias), else `None`.
        ty: Option<&'a Type>,
        val: &'a Value,
        read_only: bool,
    },
}

impl Resolved<'_> {
    fn shown(&self) -> Shown<'_> {
        match self {
            Resolved::Var(v) => Shown::of(v),
            Resolved::Part {
                name,
                ty,
                val,
                read_only,
            } => Shown::part(name, *ty, val, *read_only),
        }
    }

    fn value(&self) -> &Value {
        match self {
            Resolved::Var(v) => &v.val,
            Resolved::Part { val, .. } => val,
        }
    }
}

/// The texts of a record made for it (the others are borrowed from the state), in buffers
/// reused from record to record: a page of table rows is a thousand records.
#[derive(Default)]
struct Texts {
    declared: String,
    actual: String,
    value: String,
    hex: String,
    technical: Cow<'static, str>,
}

impl State<'_> {
    /// The ADT record of a data object, borrowed from the state, `var` and `texts`.
    fn fields<'a>(
        &'a self,
        id: &'a str,
        name: &'a str,
        var: &'a Shown<'a>,
        texts: &'a mut Texts,
    ) -> VarFields<'a> {
        let target_class = match var.val {
            Value::Ref {
                target: Some(o), ..
            } => self.object_class(*o),
            _ => None,
        };
        texts.declared.clear();
        match (&var.kind, var.type_name) {
            (VarKind::System, _) => {
                texts.declared.push_str("SYST_");
                texts.declared.push_str(var.name);
            }
            (_, Some(name)) => texts.declared.push_str(name),
            _ => texts.declared.push_str(var.ty.shown_name()),
        }
        texts.actual.clear();
        let actual_is_declared = match var.val {
            Value::DataRef(r) => match self.valid_target(r).and_then(|t| self.value_at(&t.place)) {
                Some(v) => {
                    texts.actual.push_str(v.type_of().shown_name());
                    false
                }
                None => true,
            },
            _ => match target_class {
                Some(class) => {
                    texts.actual.push_str(class);
                    false
                }
                None => true,
            },
        };
        texts.value.clear();
        match var.val {
            Value::DataRef(r) => texts.value.push_str(&self.dataref_display(r)),
            v => v.push_display(&mut texts.value, target_class),
        }
        texts.hex.clear();
        var.val.push_hex(&mut texts.hex);
        texts.technical = var.val.technical_type();
        let (kind, instantiation, access, parameter_kind) = match var.kind {
            VarKind::Local | VarKind::System | VarKind::Me => {
                ("variable", "unknown", "unknown", "unknown")
            }
            VarKind::Constant => ("constant", "unknown", "unknown", "unknown"),
            VarKind::Param(k) => ("parameter", "unknown", "unknown", k.as_str()),
            VarKind::Attr {
                is_static,
                constant,
                visibility,
            } => (
                if constant { "constant" } else { "variable" },
                if is_static { "static" } else { "instance" },
                visibility.as_str(),
                "unknown",
            ),
        };
        let texts = &*texts;
        VarFields {
            id,
            name,
            declared_type_name: &texts.declared,
            actual_type_name: if actual_is_declared {
                &texts.declared
            } else {
                &texts.actual
            },
            kind,
            instantiation_kind: instantiation,
            access_kind: access,
            meta_type: var.val.meta_type(),
            parameter_kind,
            value: &texts.value,
            hex_value: &texts.hex,
            read_only: var.read_only,
            technical_type: &texts.technical,
            length: var.val.length(),
            table_lines: match var.val {
                Value::Table(_, rows) => u32::try_from(rows.len()).unwrap_or(u32::MAX),
                _ => 0,
            },
            inheritance_level: -1,
            inheritance_class: "",
        }
    }

    /// `{O:3*\CLASS=ZCL_X}` → object index 2 and the text after the closing brace.
    pub fn object_id(id: &str) -> Option<(usize, &str)> {
        let rest = id.strip_prefix("{O:")?;
        let end = rest.find(['*', '!'])?;
        let n: usize = rest.get(..end)?.parse().ok()?;
        let close = rest.find('}')?;
        Some((n.checked_sub(1)?, rest.get(close + 1..)?))
    }

    /// The data object at `place`, named `name`, as a part (borrowed).
    fn part_at(&self, place: &Place, name: String) -> Option<Resolved<'_>> {
        let owner = self.slot_var(&place.slot)?;
        Some(Resolved::Part {
            name,
            ty: place.steps.is_empty().then_some(&owner.ty),
            val: self.value_at(place)?,
            read_only: owner.read_only,
        })
    }

    /// Resolves a debugger id in frame index `f` (bottom-based), borrowing what it names: a
    /// row of a big table or a component of a deep structure costs what it is, not what the
    /// table or structure around it is.
    fn resolve_id(&self, f: usize, id: &str) -> Option<Resolved<'_>> {
        let id = id.to_ascii_uppercase();
        // `ME->ATTR` (adt-wire.md §9.5): an attribute of the frame's own object.
        if let Some(attr) = id.strip_prefix("ME->")
            && !attr.is_empty()
            && attr.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            let me = self.lookup(f, &parse_path("ME")?)?;
            let Value::Ref {
                target: Some(obj), ..
            } = &me.val
            else {
                return None;
            };
            let o = self.heap.get(*obj)?;
            return o
                .attrs
                .iter()
                .chain(self.statics.get(&o.class).into_iter().flatten())
                .find(|v| v.name == attr)
                .map(|v| Resolved::Var(Cow::Borrowed(v)));
        }
        if let Some((obj, rest)) = State::object_id(&id) {
            let o = self.heap.get(obj)?;
            if rest.is_empty() {
                return Some(Resolved::Var(Cow::Owned(Var {
                    name: id.clone(),
                    ty: Type::Ref(o.class.clone()),
                    val: Value::Ref {
                        static_type: o.class.as_str().into(),
                        target: Some(obj),
                    },
                    kind: VarKind::Me,
                    read_only: true,
                    type_name: None,
                })));
            }
            let attr = rest.strip_prefix('-')?;
            // `{O:…}-ATTR[3]-F`: rows of a table attribute.
            if let Some((head, tail)) = attr.split_once('[')
                && !head.contains('-')
            {
                let var = o
                    .attrs
                    .iter()
                    .chain(self.statics.get(&o.class).into_iter().flatten())
                    .find(|v| v.name == head)?;
                return Self::rows_part(&var.val, tail, head.to_string());
            }
            if attr.contains('-') {
                let place = self.object_part(obj, attr)?;
                return self.part_at(&place, id.clone());
            }
            return o
                .attrs
                .iter()
                .chain(self.statics.get(&o.class).into_iter().flatten())
                .find(|v| v.name == attr)
                .map(|v| Resolved::Var(Cow::Borrowed(v)));
        }
        if let Some((head, tail)) = id.split_once('[') {
            // `LT[3]`, `LT[3]-F`, `LS-T[2]-SUB-F`: rows by 1-based index.
            let path = parse_path(head)?;
            if path.base == "ME" && path.rest.is_empty() {
                return None;
            }
            let val: &Value = self.value_at(&self.place(f, &path)?)?;
            return Self::rows_part(val, tail, head.to_string());
        }
        let path = parse_path(&id)?;
        self.resolve_path(f, &path)
    }

    /// The part of table `val` that `tail` names (`3]`, `3]-F`, `2]-T[1]-G`: the text after
    /// the table's first `[`), named `name` when it is a whole row.
    fn rows_part<'a>(mut val: &'a Value, tail: &str, mut name: String) -> Option<Resolved<'a>> {
        let mut rest = tail;
        loop {
            let (n, after) = rest.split_once(']')?;
            let n: usize = n.trim().parse().ok()?;
            let Value::Table(_, rows) = val else {
                return None;
            };
            val = rows.get(n.checked_sub(1)?)?;
            rest = after;
            // Components up to the next `[`.
            let (comps, next) = match rest.split_once('[') {
                Some((c, nx)) => (c, Some(nx)),
                None => (rest, None),
            };
            for c in comps.split('-').skip(1) {
                let Value::Struct(t, vals) = val else {
                    return None;
                };
                val = vals.get(t.index_of(c)?)?;
                name = c.to_string();
            }
            match next {
                Some(nx) => rest = nx,
                None if comps.is_empty() || comps.starts_with('-') => break,
                None => return None,
            }
        }
        Some(Resolved::Part {
            name,
            ty: None,
            val,
            read_only: false,
        })
    }

    /// A name with components (`LS-A-B`, `LR->*`, `<FS>-X`) in frame `f`, borrowed where it
    /// lives; `ME` and built-in constants are made up.
    fn resolve_path(&self, f: usize, path: &abap_syntax::ast::Path) -> Option<Resolved<'_>> {
        if !(path.base == "ME" && path.rest.is_empty())
            && let Some(place) = self.place(f, path)
        {
            let var = self.slot_var(&place.slot)?;
            if place.steps.is_empty() {
                return Some(Resolved::Var(Cow::Borrowed(var)));
            }
            let name = path
                .rest
                .last()
                .map_or_else(|| path.base.clone(), |(_, n)| n.clone());
            return self.part_at(&place, name);
        }
        self.lookup(f, path).map(Resolved::Var)
    }

    /// Attributes of the object `val` refers to, as children records handed to `each`.
    fn object_children(&self, val: &Value, each: &mut dyn FnMut(VarFields<'_>)) {
        let Value::Ref {
            target: Some(obj), ..
        } = val
        else {
            return;
        };
        let Some(o) = self.heap.get(*obj) else {
            return;
        };
        let n = obj + 1;
        let lineage = self
            .class_by_key(&o.class)
            .map(|c| self.lineage(c))
            .unwrap_or_default();
        // The class (and its level above the object's class) that declares an attribute.
        let defining = |name: &str, is_static: bool| {
            lineage.iter().enumerate().find(|(_, c)| {
                c.attributes
                    .iter()
                    .any(|d| d.name == name && d.is_static == is_static)
            })
        };
        let mut texts = Texts::default();
        let instance = o.attrs.iter().map(|a| (a, false));
        let statics = self.statics.get(&o.class).into_iter().flatten();
        for (a, is_static) in instance.chain(statics.map(|a| (a, true))) {
            let (level, class) = match defining(&a.name, is_static) {
                Some((level, c)) if level > 0 => (level, Some(*c)),
                _ => (0, None),
            };
            let private = matches!(
                a.kind,
                VarKind::Attr {
                    visibility: abap_syntax::ast::Visibility::Private,
                    ..
                }
            );
            // adt-wire.md §9.5: a private attribute of a superclass is addressed through
            // that class (`{O:n!\CLASS=SUPER}-ATTR`), everything else through the
            // object's own class.
            let prefix = match class {
                Some(c) if private => format!("{{O:{n}!{}}}", absolute_class_name(&c.key)),
                _ => format!("{{O:{n}*{}}}", absolute_class_name(&o.class)),
            };
            let id = format!("{prefix}-{}", a.name);
            let shown = Shown::of(a);
            let mut r = self.fields(&id, &a.name, &shown, &mut texts);
            if let Some(c) = class {
                r.inheritance_level = i32::try_from(level).unwrap_or(i32::MAX);
                r.inheritance_class = &c.name;
            }
            each(r);
        }
    }
}

/// A class key as the absolute type name in object ids: global classes `\CLASS=ZCL_X`, local
/// classes keep their key `\PROGRAM=…\CLASS=LCL_X`.
fn absolute_class_name(key: &str) -> String {
    if key.starts_with('\\') {
        key.to_string()
    } else {
        format!("\\CLASS={key}")
    }
}

fn no_location() -> Location {
    Location {
        object: String::new(),
        kind: ObjectKind::Class,
        part: SourcePart::Main,
        program: String::new(),
        include: String::new(),
        line: 0,
        include_line: 0,
        event_type: String::new(),
        event_name: String::new(),
    }
}

impl StopContext for State<'_> {
    fn statement(&self) -> String {
        State::statement(self)
    }

    fn caught_exception(&self) -> Option<String> {
        State::caught_exception(self)
    }

    fn message(&self) -> Option<(String, String, String)> {
        State::message(self)
    }

    fn can_jump_to(&self, line: u32) -> bool {
        self.can_jump(line)
    }

    fn location(&self) -> Location {
        self.frames
            .last()
            .map_or_else(no_location, |f| f.location())
    }

    fn stack(&self) -> Vec<debug::Frame> {
        self.frames
            .iter()
            .rev()
            .map(|f| debug::Frame {
                location: f.location(),
            })
            .collect()
    }

    fn depth(&self) -> usize {
        self.frames.len()
    }

    fn procedure(&self) -> Option<usize> {
        // The procedure's parsed form lives as long as the run: its address names it.
        self.frames
            .last()
            .map(|f| std::ptr::from_ref::<abap_syntax::ast::MethodImpl>(f.method).addr())
    }

    fn scopes(&self, frame: usize) -> Vec<ScopeEntry> {
        let Some(fr) = self.frame_from_top(frame).and_then(|f| self.frames.get(f)) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if fr.me.is_some() {
            out.push(ScopeEntry {
                id: "ME".into(),
                name: String::new(),
            });
        }
        if fr.n_params > 0 {
            out.push(ScopeEntry {
                id: "@PARAMETERS".into(),
                name: "Parameters".into(),
            });
        }
        out.push(ScopeEntry {
            id: "@LOCALS".into(),
            name: "Locals".into(),
        });
        if let Some(f) = self.frame_from_top(frame)
            && self
                .program_class(f)
                .is_some_and(|p| self.statics.get(&p.key).is_some_and(|v| !v.is_empty()))
        {
            out.push(ScopeEntry {
                id: "@GLOBALS".into(),
                name: "Globals".into(),
            });
        }
        out
    }

    fn children(&self, frame: usize, parent_id: &str) -> Option<Vec<VarRecord>> {
        let mut records = Vec::new();
        self.each_child(frame, parent_id, &mut |r| records.push(r.to_record()))
            .then_some(records)
    }

    fn each_child(
        &self,
        frame: usize,
        parent_id: &str,
        each: &mut dyn FnMut(VarFields<'_>),
    ) -> bool {
        let Some(f) = self.frame_from_top(frame) else {
            return false;
        };
        let Some(fr) = self.frames.get(f) else {
            return false;
        };
        let mut texts = Texts::default();
        // The variables and the index of the first in the frame's `vars` (for aliases).
        let (vars, first) = match parent_id {
            "@PARAMETERS" => (fr.params(), Some(0)),
            "@LOCALS" => (fr.locals(), Some(fr.n_params)),
            "@GLOBALS" => {
                let Some(globals) = self.program_class(f).and_then(|p| self.statics.get(&p.key))
                else {
                    return false;
                };
                (globals.as_slice(), None)
            }
            id => {
                let Some(var) = self.resolve_id(f, id) else {
                    return false;
                };
                match var.value() {
                    Value::Table(..) => return false,
                    Value::Struct(t, vals) => {
                        let up = id.to_ascii_uppercase();
                        let mut comp_id = String::with_capacity(up.len() + 32);
                        for ((n, ty), v) in t.comps.iter().zip(vals) {
                            comp_id.clear();
                            comp_id.push_str(&up);
                            comp_id.push('-');
                            comp_id.push_str(n);
                            let comp = Shown::part(n, Some(ty), v, false);
                            let mut r = self.fields(&comp_id, n, &comp, &mut texts);
                            r.kind = "unknown";
                            each(r);
                        }
                    }
                    Value::DataRef(_) => {
                        let up = format!("{}->*", id.to_ascii_uppercase());
                        let Some(target) = self.resolve_id(f, &up) else {
                            return false;
                        };
                        let shown = target.shown();
                        let mut r = self.fields(&up, &up, &shown, &mut texts);
                        r.kind = "unknown";
                        each(r);
                    }
                    v => self.object_children(v, each),
                }
                return true;
            }
        };
        for (i, v) in vars.iter().enumerate() {
            if crate::interp::constructors::is_internal_name(&v.name) {
                continue;
            }
            // A by-reference parameter (or a procedure's static) shows the storage it stands
            // for; its own value is not kept up to date.
            let val = first
                .and_then(|first| {
                    fr.aliases
                        .iter()
                        .find(|(j, _)| *j == first + i)
                        .and_then(|(_, place)| self.value_at(place))
                })
                .unwrap_or(&v.val);
            let shown = Shown::with_value(v, val);
            each(self.fields(&v.name, &v.name, &shown, &mut texts));
        }
        true
    }

    fn variables(&self, frame: usize, ids: &[String]) -> Vec<VarRecord> {
        let Some(f) = self.frame_from_top(frame) else {
            return Vec::new();
        };
        let mut texts = Texts::default();
        ids.iter()
            .filter_map(|id| {
                let var = self.resolve_id(f, id)?;
                let shown = var.shown();
                let mut r = self.fields(id, id, &shown, &mut texts);
                r.kind = "unknown";
                r.parameter_kind = "unknown";
                r.instantiation_kind = "unknown";
                r.access_kind = "unknown";
                Some(r.to_record())
            })
            .collect()
    }
}
