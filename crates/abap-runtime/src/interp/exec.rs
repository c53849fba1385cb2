//! Statements beyond the core: exceptions (`TRY`/`CATCH`/`CLEANUP`/`RAISE`), `MESSAGE`, list
//! output (`WRITE`), `PERFORM`, object creation, and the entry to the built-in classes'
//! methods (`native_method`, `native_static_call`: the registry in `builtins/classes/`).

use crate::interp::bound::Bound;
use crate::interp::builtins::classes;
use crate::interp::state::{Current, ExcInfo, Object};
use crate::interp::{Dump, Exec, Flow, Interp, Unwind};
use abap_data::value::{ObjId, Type, Value};
use abap_syntax::ast::{
    CallArgs, CallExpr, CatchClause, ClassDef, Expr, MessageStmt, ParamKind, Path, Stmt,
};

impl<'r> Interp<'r, '_> {
    /// The exception object for an unwinding at a `TRY`: class-based exceptions as they are,
    /// catchable runtime errors as a new object of their `CX_SY_*` class.
    fn exception_of(&mut self, e: &Unwind) -> Option<ObjId> {
        match e {
            Unwind::Exception(obj) => Some(*obj),
            Unwind::Dump(d) => {
                let class = classes::exception_for_dump(&d.id)?;
                let def = classes::class(class)?;
                Some(self.new_exception(def, d))
            }
            _ => None,
        }
    }

    fn new_exception(&mut self, def: &'r ClassDef, d: &Dump) -> ObjId {
        let mut attrs = Vec::new();
        for c in self.st.lineage(def).iter().rev() {
            for a in c.attributes.iter().filter(|a| !a.is_static) {
                if let Ok(ty) = &a.ty {
                    attrs.push(crate::interp::state::Var::new(
                        &a.name,
                        ty.clone(),
                        crate::interp::state::VarKind::Attr {
                            is_static: false,
                            constant: false,
                            visibility: a.visibility,
                        },
                    ));
                }
            }
        }
        let id = self.st.heap.len();
        self.st.heap.push(Object {
            class: def.key.clone(),
            attrs,
            is_classrun_out: false,
            exc: Some(ExcInfo {
                text: Some(d.text.clone()),
                dump_id: Some(d.id.clone()),
                location: d.location.clone(),
            }),
        });
        id
    }

    fn catch_matches(&self, obj: ObjId, clause: &CatchClause) -> bool {
        self.st
            .object_class(obj)
            .is_some_and(|key| self.clause_names(self.program_name(), clause, key))
    }

    fn program_name(&self) -> &'r str {
        self.st
            .frames
            .last()
            .map_or("", |f| f.class.program.as_str())
    }

    pub fn exec_try(
        &mut self,
        body: &'r [Stmt],
        catches: &'r [CatchClause],
        cleanup: Option<&'r (u32, Option<Path>, Vec<Stmt>)>,
    ) -> Exec<Flow> {
        self.handlers.push((self.program_name(), catches));
        let result = self.block(body);
        self.handlers.pop();
        let err = match result {
            Ok(flow) => return Ok(flow),
            Err(e @ (Unwind::Terminated | Unwind::Jump(_) | Unwind::Failure(_))) => return Err(e),
            Err(e) => e,
        };
        // A runtime error becomes an exception object only when a handler (here or further
        // out) catches its CX_SY_* class; otherwise it stays a runtime error and nothing runs.
        let obj = match &err {
            Unwind::Exception(obj) => *obj,
            Unwind::Dump(d) => {
                let wanted = classes::exception_for_dump(&d.id)
                    .and_then(classes::class)
                    .is_some_and(|def| {
                        catches
                            .iter()
                            .any(|cl| self.clause_names(self.program_name(), cl, &def.key))
                            || self.handled_further_out(&def.key)
                    });
                match self.exception_of(&err) {
                    Some(obj) if wanted => obj,
                    _ => return Err(err),
                }
            }
            _ => return Err(err),
        };
        for clause in catches {
            if !self.catch_matches(obj, clause) {
                continue;
            }
            self.stop(clause.line, Current::Catch(obj))?;
            if let Some(target) = &clause.into {
                let v = self.exception_ref(obj);
                if clause.into_decl {
                    self.declare_inline(&target.base, v.type_of());
                }
                self.assign_value(target, v)?;
            }
            return self.block(&clause.body);
        }
        // CLEANUP runs while the exception travels to a handler; with no handler anywhere the
        // program ends where the exception was raised and no CLEANUP block runs.
        let key = self.st.object_class(obj).unwrap_or_default().to_string();
        if let Some((line, into, body)) = cleanup
            && self.handled_further_out(&key)
        {
            self.stop(*line, Current::Keyword("CLEANUP"))?;
            if let Some(target) = into {
                let v = self.exception_ref(obj);
                self.assign_value(target, v)?;
            }
            self.block(body)?;
        }
        Err(Unwind::Exception(obj))
    }

    /// Does a `CATCH` clause name a class the class `key` is (or inherits from)?
    fn clause_names(&self, program: &str, clause: &CatchClause, key: &str) -> bool {
        clause.classes.iter().any(|n| {
            self.st
                .find_class(program, n)
                .is_some_and(|t| self.st.is_a(key, t))
        })
    }

    /// Will a `TRY` further out (or the ABAP Unit framework) handle an exception of class
    /// `key`?
    pub(crate) fn handled_further_out(&self, key: &str) -> bool {
        self.framework_handles_all
            || self.handlers.iter().any(|(program, catches)| {
                catches.iter().any(|cl| self.clause_names(program, cl, key))
            })
    }

    fn exception_ref(&self, obj: ObjId) -> Value {
        Value::Ref {
            static_type: self.st.object_class(obj).unwrap_or("CX_ROOT").into(),
            target: Some(obj),
        }
    }

    pub fn exec_raise(&mut self, e: &Expr) -> Exec<Flow> {
        let v = self.eval(e)?;
        let Value::Ref {
            target: Some(obj), ..
        } = v
        else {
            return Err(self.dump(
                "OBJECTS_OBJREF_NOT_ASSIGNED",
                "RAISE EXCEPTION with an initial reference",
            ));
        };
        let is_exception = self
            .st
            .object_class(obj)
            .zip(classes::class("CX_ROOT"))
            .is_some_and(|(k, root)| self.st.is_a(k, root));
        if !is_exception {
            return Err(self.not_supported("RAISE EXCEPTION of a non-exception object"));
        }
        let location = self.location();
        if let Some(o) = self.st.heap.get_mut(obj) {
            let info = o.exc.get_or_insert_with(ExcInfo::default);
            if info.location.is_none() {
                info.location = location;
            }
        }
        Err(Unwind::Exception(obj))
    }

    /// `NEW cls( … )` / `RAISE EXCEPTION TYPE cls …`; `#` takes the class from `target`.
    pub fn new_object(
        &mut self,
        class: &str,
        args: &CallArgs,
        target: Option<&Type>,
    ) -> Exec<Value> {
        if self.judging_condition {
            return Err(self.not_supported("NEW in a debugger condition"));
        }
        let name = if class == "#" {
            match target {
                Some(Type::Ref(t)) => t.clone(),
                Some(Type::DataRef(t)) => return self.new_data(t, args),
                _ => return Err(self.not_supported("NEW # without a known type")),
            }
        } else {
            class.to_string()
        };
        if let Some(ty) = self.data_type_for_new(&name) {
            return self.new_data(&ty, args);
        }
        let def = self.class_named(&name)?;
        let obj = self.create_object(def, Some(args))?;
        Ok(Value::Ref {
            static_type: def.name.as_str().into(),
            target: Some(obj),
        })
    }

    fn class_named(&self, name: &str) -> Exec<&'r ClassDef> {
        self.st
            .find_class(self.program_name(), name)
            .ok_or_else(|| self.not_supported(&format!("unknown class {name}")))
    }

    pub fn exec_create_object(
        &mut self,
        target: &Path,
        class: Option<&str>,
        args: &CallArgs,
    ) -> Exec<Flow> {
        let ty = self.target_type_of(target)?;
        let name = match (class, &ty) {
            (Some(c), _) => c.to_string(),
            (None, Type::Ref(t)) => t.clone(),
            _ => return Err(self.not_supported("CREATE OBJECT of a non-reference")),
        };
        if args.exceptions.is_empty() {
            let v = self.new_object(&name, args, None)?;
            self.assign_value(target, v)?;
            return Ok(Flow::Normal);
        }
        if self.judging_condition {
            return Err(self.not_supported("CREATE OBJECT in a debugger condition"));
        }
        let def = self.class_named(&name)?;
        // Ended by a handled classic exception: the reference keeps what it held.
        if let Some(obj) = self.instantiate(def, Some(args))? {
            let v = Value::Ref {
                static_type: def.name.as_str().into(),
                target: Some(obj),
            };
            self.assign_value(target, v)?;
        }
        Ok(Flow::Normal)
    }

    pub fn exec_message(&mut self, m: &MessageStmt) -> Exec<Flow> {
        let ty = match (&m.msg_type, &m.type_expr) {
            (Some(t), _) => t.clone(),
            (None, Some(e)) => {
                let v = self.eval(e)?;
                v.to_abap_string()
                    .map_err(|e| self.conv_error(e))?
                    .to_ascii_uppercase()
            }
            (None, None) => "I".into(),
        };
        let mut vars = Vec::new();
        for e in &m.with {
            let v = self.eval(e)?;
            vars.push(v.template_text().map_err(|e| self.conv_error(e))?);
        }
        let text = match &m.text {
            Some(e) => {
                let v = self.eval(e)?;
                v.template_text().map_err(|e| self.conv_error(e))?
            }
            None => {
                let id = m.id.clone().unwrap_or_default();
                let no = m.number.clone().unwrap_or_default();
                let mut t = format!("{id}({no})");
                for v in &vars {
                    t.push(' ');
                    t.push_str(v);
                }
                t
            }
        };
        let set = |st: &mut crate::interp::state::State<'r>, name: &str, v: &str| {
            if let Some(var) = st.sy.iter_mut().find(|x| x.name == name)
                && let Ok(val) = Value::Str(v.to_string().into()).convert(&var.ty)
            {
                var.val = val;
            }
        };
        set(&mut self.st, "MSGID", m.id.as_deref().unwrap_or(""));
        set(&mut self.st, "MSGNO", m.number.as_deref().unwrap_or("000"));
        set(&mut self.st, "MSGTY", &ty);
        for (i, n) in ["MSGV1", "MSGV2", "MSGV3", "MSGV4"].iter().enumerate() {
            let v = if m.text.is_some() && i == 0 && vars.is_empty() {
                text.as_str()
            } else {
                vars.get(i).map_or("", String::as_str)
            };
            set(&mut self.st, n, v);
        }
        if let Some(target) = &m.into {
            self.assign_value(target, Value::Str(text.into()))?;
            return Ok(Flow::Normal);
        }
        if ty == "A" || ty == "X" {
            return Err(self.dump(
                if ty == "X" {
                    "MESSAGE_TYPE_X"
                } else {
                    "MESSAGE_TYPE_A"
                },
                text,
            ));
        }
        let line = format!("{ty}: {text}");
        self.st.output.push(line.clone());
        self.st.flush_line();
        self.st.list.push(line);
        Ok(Flow::Normal)
    }

    pub fn exec_perform(&mut self, form: &str, using: &[Expr], changing: &[Path]) -> Exec<Flow> {
        let Some(frame) = self.st.frames.last() else {
            return Err(self.not_supported("PERFORM outside a program"));
        };
        let prog_key = abap_syntax::parser::program_key(&frame.class.program);
        let Some(prog) = self.st.classes.get(&prog_key) else {
            return Err(self.not_supported(&format!("PERFORM {form} outside a report")));
        };
        let (Some(decl), Some(imp)) = (prog.method_decl(form), prog.implementation(form)) else {
            return Err(self.dump("PERFORM_NOT_FOUND", format!("FORM {form} does not exist")));
        };
        if decl.params.len() != using.len() + changing.len() {
            return Err(self.dump(
                "PERFORM_PARAMETER_MISSING",
                format!("FORM {form} has {} parameters", decl.params.len()),
            ));
        }
        let mut bound = Bound::default();
        let actuals: Vec<(&Expr, Option<Path>)> = using
            .iter()
            .map(|e| match e {
                Expr::Path(p) => (e, Some(p.clone())),
                _ => (e, None),
            })
            .collect();
        let changing_exprs: Vec<Expr> = changing.iter().map(|p| Expr::Path(p.clone())).collect();
        let all = actuals.into_iter().chain(
            changing_exprs
                .iter()
                .zip(changing)
                .map(|(e, p)| (e, Some(p.clone()))),
        );
        for (p, (e, path)) in decl.params.iter().zip(all) {
            let v = self.eval(e)?;
            bound.inputs.push((p.name.clone(), v));
            if p.kind == ParamKind::Changing
                && let Some(path) = path
            {
                bound.outputs.push((p.name.clone(), path));
            }
        }
        let outputs = bound.outputs.clone();
        let results = self.invoke_impl(prog, None, imp, bound)?;
        for (name, _, val) in results {
            if let Some((_, target)) = outputs.iter().find(|(n, _)| *n == name) {
                self.assign_value(target, val)?;
            }
        }
        Ok(Flow::Normal)
    }

    // ---------------------------------------------------------------- built-in methods

    /// Instance methods of built-in classes: offered to the registry's classes in turn
    /// (`builtins::classes::CLASSES`).
    pub fn native_method(
        &mut self,
        class: &'r ClassDef,
        me: Option<ObjId>,
        method: &str,
        bound: Bound,
    ) -> Exec<Vec<(String, ParamKind, Value)>> {
        for native in classes::natives_of(&class.name) {
            if let Some(run) = native.method
                && let Some(results) = run(self, class, me, method, &bound)?
            {
                return Ok(results);
            }
        }
        Err(self.not_supported(&format!("method {}=>{method}", class.name)))
    }

    /// Static methods of built-in classes without declarations (`cl_abap_unit_assert`): the
    /// first class of the registry that has them runs the call.
    pub fn native_static_call(
        &mut self,
        class: &'r ClassDef,
        call: &CallExpr,
    ) -> Exec<Option<Value>> {
        match classes::natives_of(&class.name).find_map(|n| n.static_call) {
            Some(run) => run(self, class, call),
            None => Err(self.not_supported(&format!("method {}=>{}", class.name, call.method))),
        }
    }
}
