//! Field symbols and data references: `ASSIGN`, `ASSIGN COMPONENT`, `UNASSIGN`, `IS ASSIGNED`,
//! `GET REFERENCE`, `REF #( )`, `CREATE DATA`, `NEW i( )`, `dref->*`, `dref->comp`,
//! `REFERENCE INTO`.
//!
//! Both alias storage: a field symbol holds a [`Place`] (a variable, attribute, static, row or
//! component, or an anonymous data object), a data reference holds a [`DataTarget`]. Reads and
//! writes through them go to that place, never to a copy. A data reference to a local of a
//! procedure remembers the call it belongs to; after that call has ended the reference is
//! invalid (`IS BOUND` is false, dereferencing is the runtime error `DATREF_NOT_ASSIGNED`), as
//! ABAP's stack references are.

use crate::interp::state::{State, Var, VarKind};
use crate::interp::{Exec, Interp, Unwind};
use abap_data::place::{DataRef, DataTarget};
use abap_data::place::{Place, Slot, Step};
use abap_data::value::{Type, Value};
use abap_syntax::ast::{AssignSource, RefStmt};
use abap_syntax::ast::{Expr, Path, Sel};
use abap_syntax::parser::words::parse_path;

impl State<'_> {
    /// `dref->*` (`name` `*`) or `dref->comp` of the data reference `r`; `None` when `r` is
    /// initial or no longer valid.
    pub fn deref_step(&self, r: &abap_data::place::DataRef, name: &str) -> Option<Place> {
        let target = self.valid_target(r)?;
        let mut place = target.place.clone();
        if name != "*" {
            let Value::Struct(t, _) = self.value_at(&place)? else {
                return None;
            };
            place.steps.push(Step::Comp(t.index_of(name)?));
        }
        Some(place)
    }

    /// The target of `r` if it can be dereferenced.
    pub fn valid_target<'a>(&self, r: &'a DataRef) -> Option<&'a DataTarget> {
        let target = r.target.as_ref()?;
        if !self.target_alive(target) {
            return None;
        }
        self.value_at(&target.place)?;
        Some(target)
    }

    /// `ATTR->*`, `ATTR->COMP`, `ATTR-COMP` of object `obj` (debugger ids
    /// `{O:n*\CLASS=X}-ATTR->*`): the part of an attribute they name.
    pub fn object_part(&self, obj: usize, attr_path: &str) -> Option<Place> {
        let (attr, tail) = attr_path.split_at(attr_path.find('-')?);
        let o = self.heap.get(obj)?;
        let slot = match o.attrs.iter().position(|v| v.name == attr) {
            Some(i) => Slot::Attr(obj, i),
            None => {
                let i = self
                    .statics
                    .get(&o.class)?
                    .iter()
                    .position(|v| v.name == attr)?;
                Slot::Static(o.class.clone(), i)
            }
        };
        let mut place = Place {
            slot,
            steps: Vec::new(),
        };
        for (sel, name) in parse_path(&format!("X{tail}"))?.rest {
            place = self.step_into(place, sel, &name)?;
        }
        Some(place)
    }

    /// A data reference to `place` with static type `ty`.
    pub fn reference_to(&self, place: Place, ty: Type) -> Value {
        Value::DataRef(Box::new(DataRef {
            static_type: ty,
            target: Some(self.target_of(place)),
        }))
    }

    /// The field symbol `fs` seen from frame `f` (the procedure's own, else one of its
    /// program): `Some(None)` when known but unassigned.
    pub fn field_symbol(&self, f: usize, fs: &str) -> Option<Option<&Place>> {
        let frame = self.frames.get(f)?;
        if let Some((_, target)) = frame.field_symbols.iter().find(|(n, _)| n == fs) {
            return Some(target.as_ref());
        }
        let (_, _, target) = self
            .global_fs
            .iter()
            .find(|(p, n, _)| *p == frame.class.program && n == fs)?;
        // Assigned to a local of a procedure that has ended: no longer assigned.
        Some(
            target
                .as_ref()
                .filter(|t| self.target_alive(t))
                .map(|t| &t.place),
        )
    }

    /// False when `t` points to a local of a procedure call that has ended.
    fn target_alive(&self, t: &DataTarget) -> bool {
        if t.call == Some(crate::interp::row_refs::DELETED_ROW) {
            return false;
        }
        match t.place.slot {
            Slot::Frame(f, _) => self.frames.get(f).map(|fr| fr.serial) == t.call,
            _ => true,
        }
    }

    /// `place` with the call it belongs to (for places that may outlive their procedure).
    fn target_of(&self, place: Place) -> DataTarget {
        if place.steps.iter().any(|s| matches!(s, Step::Row(_))) {
            self.row_data_refs.set(true);
        }
        let call = match place.slot {
            Slot::Frame(f, _) => self.frames.get(f).map(|fr| fr.serial),
            _ => None,
        };
        DataTarget { place, call }
    }

    /// `VALUE` of a data reference as the debugger shows it: `{A:initial}`, `{A:3*\TYPE=I}`
    /// for anonymous data objects (number = creation order; the form SAP uses for anonymous
    /// data in the debugger and short dumps). References to named data objects and invalid
    /// ones have no captured form (adt-wire.md §9.4); they show `{R:NAME*\TYPE=…}` and
    /// `{R:invalid}`.
    pub fn dataref_display(&self, r: &DataRef) -> String {
        let Some(target) = r.target.as_ref() else {
            return "{A:initial}".into();
        };
        if self.valid_target(r).is_none() {
            // A stack reference whose procedure has ended (or a deleted row).
            return "{R:invalid}".into();
        }
        let ty = self
            .value_at(&target.place)
            .map(|v| type_text(&v.type_of()))
            .unwrap_or_default();
        match &target.place.slot {
            Slot::Anon(i) if target.place.steps.is_empty() => {
                format!("{{A:{}*\\TYPE={ty}}}", i + 1)
            }
            slot => {
                let name = self
                    .slot_var(slot)
                    .map(|v| v.name.clone())
                    .unwrap_or_default();
                format!("{{R:{name}*\\TYPE={ty}}}")
            }
        }
    }
}

/// A type's name in reference displays (`I`, `STRING`, `C`, a declared type name).
fn type_text(t: &Type) -> String {
    match t {
        Type::C(n) => format!("C({n})"),
        Type::P { len, dec } => format!("P({len},{dec})"),
        Type::Struct(s) if s.name.is_empty() => "%_STRUCTURE".into(),
        Type::Table(t) if t.name.is_empty() => "%_TABLE".into(),
        other => other.name(),
    }
}

impl<'r> Interp<'r, '_> {
    fn top_frame(&self) -> usize {
        self.st.frames.len().saturating_sub(1)
    }

    fn set_subrc(&mut self, v: i32) {
        if let Some(var) = self.st.sy.iter_mut().find(|s| s.name == "SUBRC") {
            var.val = Value::I(v);
        }
    }

    /// Binds `<fs>`: the procedure's own field symbol (declared with `FIELD-SYMBOLS` in the
    /// procedure or inline with `FIELD-SYMBOL(<fs>)`), else the program's (declared outside
    /// procedures, shared by its event blocks and forms).
    pub fn bind_fs(&mut self, fs: &str, place: Option<Place>, inline: bool) {
        let f = self.top_frame();
        let global = !inline
            && self
                .st
                .program_class(f)
                .is_some_and(|p| p.field_symbols.iter().any(|n| n == fs));
        let Some(frame) = self.st.frames.last_mut() else {
            return;
        };
        if let Some(entry) = frame.field_symbols.iter_mut().find(|(n, _)| n == fs) {
            entry.1 = place;
            return;
        }
        if !global {
            frame.field_symbols.push((fs.to_string(), place));
            return;
        }
        let program = frame.class.program.clone();
        let place = place.map(|p| self.st.target_of(p));
        match self
            .st
            .global_fs
            .iter_mut()
            .find(|(p, n, _)| *p == program && n == fs)
        {
            Some(entry) => entry.2 = place,
            None => self.st.global_fs.push((program, fs.to_string(), place)),
        }
    }

    /// The runtime error for a path that cannot be read or written, when a field symbol or
    /// data reference on the way is the reason.
    pub fn alias_error(&self, path: &Path) -> Option<Unwind> {
        let f = self.top_frame();
        if path.base.starts_with('<')
            && !matches!(self.st.field_symbol(f, &path.base), Some(Some(_)))
        {
            return Some(self.dump(
                "GETWA_NOT_ASSIGNED",
                format!("Field symbol {} has not been assigned", path.base),
            ));
        }
        // The first `->` after a data reference that does not lead anywhere.
        for (k, (sel, _)) in path.rest.iter().enumerate() {
            if *sel != Sel::Arrow {
                continue;
            }
            let head = Path {
                base: path.base.clone(),
                rest: path.rest.get(..k)?.to_vec(),
            };
            let place = self.st.place(f, &head)?;
            if let Some(Value::DataRef(r)) = self.st.value_at(&place)
                && self.st.valid_target(r).is_none()
            {
                let text = if r.target.is_none() {
                    format!("{} contains the null reference", head.text())
                } else {
                    format!(
                        "{} points to a data object that no longer exists",
                        head.text()
                    )
                };
                return Some(self.dump("DATREF_NOT_ASSIGNED", text));
            }
        }
        None
    }

    /// Where a data object operand (`lv_x`, `<fs>`, `itab[ 2 ]`) lives; `None` for a table
    /// expression without a matching row.
    fn operand_place(&mut self, e: &Expr) -> Exec<Option<Place>> {
        match e {
            Expr::Path(p) => self.writable_or_readonly_place(p).map(Some),
            Expr::Itab { .. } | Expr::ItabOf { .. } => self.table_expr_place(e, false),
            _ => Err(self.not_supported("reference to an expression")),
        }
    }

    /// The place of a named data object, read-only ones included (a field symbol or reference
    /// to a constant may read it).
    fn writable_or_readonly_place(&mut self, p: &Path) -> Exec<Place> {
        if let Some(place) = self.st.place(self.top_frame(), p) {
            return Ok(place);
        }
        // Not found yet: reading initialises static attributes of a named class, or gives the
        // runtime error that explains why the name does not resolve.
        self.read(p)?;
        match self.st.place(self.top_frame(), p) {
            Some(place) => Ok(place),
            None => Err(self.not_supported(&format!("reference to {}", p.text()))),
        }
    }

    pub fn exec_ref_stmt(&mut self, s: &RefStmt) -> Exec<()> {
        match s {
            RefStmt::Assign {
                source,
                fs,
                inline,
                else_unassign,
            } => self.exec_assign_fs(source, fs, *inline, *else_unassign),
            RefStmt::Unassign(fs) => {
                self.bind_fs(fs, None, false);
                Ok(())
            }
            RefStmt::GetReference { of, into, inline } => {
                let Some(place) = self.operand_place(of)? else {
                    return Err(self.line_not_found());
                };
                let r = self.reference_value(place)?;
                if *inline {
                    self.declare_inline(&into.base, r.type_of());
                }
                self.assign_value(into, r)
            }
            RefStmt::CreateData { target, ty } => self.exec_create_data(target, ty.as_ref()),
            RefStmt::CreateDataHandle { target, handle } => {
                self.exec_create_data_handle(target, handle)
            }
        }
    }

    /// A reference to `place` typed with the place's type.
    fn reference_value(&self, place: Place) -> Exec<Value> {
        let Some(ty) = self.place_type(&place) else {
            return Err(self.not_supported("reference to a vanished data object"));
        };
        Ok(self.st.reference_to(place, ty))
    }

    fn exec_assign_fs(
        &mut self,
        source: &AssignSource,
        fs: &str,
        inline: bool,
        else_unassign: bool,
    ) -> Exec<()> {
        let f = self.top_frame();
        // `Some(place)`: assigned; `None`: the assignment failed (sy-subrc 4). `sets_subrc`:
        // the dynamic variants, table expressions and `dref->*` set sy-subrc.
        let (place, sets_subrc) = match source {
            AssignSource::Static(p) => {
                let deref = p
                    .rest
                    .last()
                    .is_some_and(|(s, n)| *s == Sel::Arrow && n == "*");
                if deref {
                    (self.deref_place(p)?, true)
                } else {
                    (Some(self.writable_or_readonly_place(p)?), false)
                }
            }
            AssignSource::Row(e) => (self.operand_place(e)?, true),
            AssignSource::Component { comp, of } => (self.component_place(comp, of)?, true),
            AssignSource::Dynamic { prefix, name } => {
                let name = self.eval(name)?.to_abap_string().unwrap_or_default();
                let text = format!("{prefix}{}", name.trim().to_ascii_uppercase());
                let place = match parse_path(&text) {
                    Some(p) => {
                        // Initialises static attributes of a class named here; a name that
                        // does not resolve only means sy-subrc 4.
                        let _ = self.read(&p);
                        self.st.place(f, &p)
                    }
                    None => None,
                };
                (place, true)
            }
        };
        let ok = place.is_some();
        match place {
            Some(p) => self.bind_fs(fs, Some(p), inline),
            None if else_unassign || inline => self.bind_fs(fs, None, inline),
            None => {}
        }
        if sets_subrc {
            self.set_subrc(if ok { 0 } else { 4 });
        }
        Ok(())
    }

    /// `dref->*` in `ASSIGN`: an initial or invalid reference is no error there.
    fn deref_place(&mut self, p: &Path) -> Exec<Option<Place>> {
        let head = Path {
            base: p.base.clone(),
            rest: p
                .rest
                .get(..p.rest.len().saturating_sub(1))
                .unwrap_or(&[])
                .to_vec(),
        };
        let v = self.read(&head)?;
        let Value::DataRef(r) = &v else {
            return Err(self.not_supported(&format!("{} is not a data reference", head.text())));
        };
        Ok(self.st.deref_step(r, "*"))
    }

    /// `ASSIGN COMPONENT comp OF STRUCTURE struc`: by position (numbers) or name (text).
    fn component_place(&mut self, comp: &Expr, of: &Path) -> Exec<Option<Place>> {
        let c = self.eval(comp)?;
        let mut place = self.writable_or_readonly_place(of)?;
        let Some(Value::Struct(t, _)) = self.st.value_at(&place) else {
            // Components of a non-structure: only 0 (the whole object) exists.
            return Ok(match c {
                Value::I(0) => Some(place),
                _ => None,
            });
        };
        let index = match &c {
            Value::I(n) => {
                if *n == 0 {
                    return Ok(Some(place));
                }
                usize::try_from(*n - 1).ok().filter(|i| *i < t.comps.len())
            }
            Value::P { .. } => {
                let n = match c.convert(&Type::I) {
                    Ok(Value::I(n)) => n,
                    _ => -1,
                };
                if n == 0 {
                    return Ok(Some(place));
                }
                usize::try_from(n - 1).ok().filter(|i| *i < t.comps.len())
            }
            other => {
                let name = other.to_abap_string().unwrap_or_default();
                t.index_of(&name.trim().to_ascii_uppercase())
            }
        };
        Ok(index.map(|i| {
            place.steps.push(Step::Comp(i));
            place
        }))
    }

    /// `CREATE DATA dref [TYPE …]`.
    fn exec_create_data(&mut self, target: &Path, ty: Option<&Type>) -> Exec<()> {
        let target_ty = self.target_type_of(target)?;
        let Type::DataRef(static_ty) = &target_ty else {
            return Err(self.not_supported(&format!(
                "CREATE DATA for {} that is no data reference",
                target.text()
            )));
        };
        let ty = match ty {
            Some(t) => self.resolve_here(t)?,
            None if **static_ty == Type::Any => {
                return Err(self.not_supported("CREATE DATA without TYPE for REF TO data"));
            }
            None => (**static_ty).clone(),
        };
        let r = self.new_anonymous(ty.clone(), ty.initial());
        self.assign_value(target, r)
    }

    /// `ty` resolved in the innermost procedure.
    fn resolve_here(&self, ty: &Type) -> Exec<Type> {
        let Some(frame) = self.st.frames.last() else {
            return Err(self.not_supported("type outside a procedure"));
        };
        let (class, method, vars) = (frame.class, frame.method, frame.vars.clone());
        self.resolve_type(class, Some(method), ty, &vars)
    }

    /// A new anonymous data object of type `ty` holding `val`; a reference to it.
    pub(crate) fn new_anonymous(&mut self, ty: Type, val: Value) -> Value {
        let i = self.st.anon.len();
        let mut var = Var::new(&format!("{{A:{}}}", i + 1), ty.clone(), VarKind::Local);
        var.val = val;
        self.st.anon.push(var);
        self.st.reference_to(
            Place {
                slot: Slot::Anon(i),
                steps: Vec::new(),
            },
            ty,
        )
    }

    /// `NEW ty( … )` / `NEW #( … )` for a data type: an anonymous data object.
    pub fn new_data(&mut self, ty: &Type, args: &abap_syntax::ast::CallArgs) -> Exec<Value> {
        let ty = self.resolve_here(ty)?;
        if !args.importing.is_empty() || !args.changing.is_empty() || args.receiving.is_some() {
            return Err(self.not_supported("NEW for a data type with these arguments"));
        }
        let val = match (&args.positional, args.exporting.as_slice(), &ty) {
            (None, [], _) => ty.initial(),
            (Some(e), [], _) => self.eval_typed(e, &ty)?,
            (None, fields, Type::Struct(st)) => {
                let mut v = ty.initial();
                for (name, e) in fields {
                    let Some(i) = st.index_of(name) else {
                        return Err(self.not_supported(&format!("component {name} in NEW")));
                    };
                    let Some((_, cty)) = st.comps.get(i) else {
                        return Err(self.not_supported(&format!("component {name} in NEW")));
                    };
                    let cv = self.eval_typed(e, cty)?;
                    if let Value::Struct(_, comps) = &mut v
                        && let Some(slot) = comps.get_mut(i)
                    {
                        *slot = cv;
                    }
                }
                v
            }
            _ => return Err(self.not_supported("NEW for a data type with these arguments")),
        };
        Ok(self.new_anonymous(ty, val))
    }

    /// The type named in `NEW name( … )` if it is a data type and not a class.
    pub fn data_type_for_new(&self, name: &str) -> Option<Type> {
        if self
            .st
            .find_class(
                self.st
                    .frames
                    .last()
                    .map_or("", |f| f.class.program.as_str()),
                name,
            )
            .is_some()
        {
            return None;
        }
        self.type_named(name).ok()
    }

    /// `REF type|#( dobj )`.
    pub fn eval_ref(&mut self, ty: Option<&str>, arg: &Expr) -> Exec<Value> {
        let Some(place) = self.operand_place(arg)? else {
            return Err(self.line_not_found());
        };
        let r = self.reference_value(place)?;
        match ty {
            None => Ok(r),
            Some(name) => {
                let t = if name == "DATA" {
                    Type::Any
                } else {
                    self.type_named(name)?
                };
                r.convert(&Type::DataRef(Box::new(t)))
                    .map_err(|e| self.conv_error(e))
            }
        }
    }

    /// `IS ASSIGNED` of a field symbol.
    pub fn is_assigned(&self, e: &Expr) -> Exec<bool> {
        let Expr::Path(p) = e else {
            return Err(self.not_supported("IS ASSIGNED of an expression"));
        };
        if !p.rest.is_empty() || !p.base.starts_with('<') {
            return Err(self.not_supported("IS ASSIGNED of a non-field-symbol"));
        }
        Ok(match self.st.field_symbol(self.top_frame(), &p.base) {
            Some(Some(place)) => self.st.value_at(place).is_some(),
            _ => false,
        })
    }

    /// `IS BOUND` of a data reference.
    pub fn data_ref_bound(&self, r: &DataRef) -> bool {
        self.st.valid_target(r).is_some()
    }

    /// `REFERENCE INTO dref` of a table statement: a reference to row `i` of `table`.
    pub fn row_reference(
        &mut self,
        table: &Place,
        i: usize,
        into: &Path,
        inline: bool,
    ) -> Exec<()> {
        let mut p = table.clone();
        p.steps.push(Step::Row(i));
        let r = self.reference_value(p)?;
        if inline {
            self.declare_inline(&into.base, r.type_of());
        }
        self.assign_value(into, r)
    }
}
