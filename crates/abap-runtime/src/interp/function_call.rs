//! Function modules at run time: `CALL FUNCTION` (the group's program loaded once per run,
//! its global data kept between calls), parameter binding by the module's interface, and
//! the classic exceptions (`RAISE name`, `MESSAGE … RAISING name`, `EXCEPTIONS …
//! error_message = n`) that end a module with `sy-subrc` set in the caller.

use crate::interp::bound::Bound;
use crate::interp::function_state::{ActiveCall, Raised};
use crate::interp::{Exec, Flow, Interp, Unwind};
use abap_data::value::{Type, Value};
use abap_syntax::ast::{
    ClassDef, FunctionCall, FunctionInterface, FunctionStmt, MessageStmt, MethodDecl, MethodImpl,
    ParamKind, Path,
};
use abap_syntax::parser::function_group::function_key;
use abap_syntax::parser::program_key;

/// The parts of a function module found by its name.
struct Module<'r> {
    program: &'r ClassDef,
    imp: &'r MethodImpl,
    decl: &'r MethodDecl,
    interface: &'r FunctionInterface,
}

impl<'r> Interp<'r, '_> {
    pub fn exec_function(&mut self, f: &'r FunctionStmt) -> Exec<Flow> {
        match f {
            FunctionStmt::Call(c) => self.call_function(c).map(|()| Flow::Normal),
            FunctionStmt::Raise(name) => Err(self.raise_classic(name)?),
            FunctionStmt::MessageRaising { message, exception } => {
                self.message_raising(message, exception)
            }
        }
    }

    fn module(&self, name: &str) -> Option<Module<'r>> {
        let index = self.st.classes.get(&function_key(name))?;
        let program = self.st.classes.get(&program_key(&index.program))?;
        let imp = program
            .implementations
            .iter()
            .find(|i| i.place.event_type == "FUNCTION" && i.name == name)?;
        let decl = program.method_decl(name)?;
        let interface = program.functions.iter().find(|f| f.name == name)?;
        Some(Module {
            program,
            imp,
            decl,
            interface,
        })
    }

    /// Loads the group's program on its first call in this run: global data, then
    /// `LOAD-OF-PROGRAM`.
    fn load_function_group(&mut self, program: &'r ClassDef) -> Exec<()> {
        if self.st.statics.contains_key(&program.key) {
            return Ok(());
        }
        self.ensure_statics(program)?;
        for imp in program
            .implementations
            .iter()
            .filter(|m| m.name == "LOAD-OF-PROGRAM")
        {
            self.invoke_impl(program, None, imp, Bound::default())?;
        }
        Ok(())
    }

    fn subrc_after_call(&mut self, v: i32) {
        if let Some(var) = self.st.sy.iter_mut().find(|v| v.name == "SUBRC") {
            var.val = Value::I(v);
        }
    }

    fn exception_value(&mut self, name: &str, e: &abap_syntax::ast::Expr) -> Exec<i32> {
        match self.eval(e)?.convert(&Type::I) {
            Ok(Value::I(n)) => Ok(n),
            _ => Err(self.not_supported(&format!("EXCEPTIONS {name} with a non-numeric value"))),
        }
    }

    fn call_function(&mut self, call: &'r FunctionCall) -> Exec<()> {
        let name = self
            .eval(&call.name)?
            .to_abap_string()
            .map_err(|e| self.conv_error(e))?
            .trim()
            .to_ascii_uppercase();
        let Some(m) = self.module(&name) else {
            return Err(self.dump(
                "CALL_FUNCTION_NOT_FOUND",
                format!("Function module \"{name}\" not found"),
            ));
        };
        self.load_function_group(m.program)?;
        let bound = self.bind_function(&m, call)?;
        let outputs = bound.outputs.clone();
        let ended = self.with_classic_exceptions(&call.exceptions, |it| {
            it.invoke_impl(m.program, None, m.imp, bound)
        })?;
        if let Some(results) = ended {
            for (name, _, val) in results {
                if let Some((_, target)) = outputs.iter().find(|(n, _)| *n == name) {
                    self.assign_value(target, val)?;
                }
            }
            // The assignments leave sy-subrc as the call set it.
            self.subrc_after_call(0);
        }
        Ok(())
    }

    /// Runs a call (of a function module, or of a method whose caller lists `EXCEPTIONS`)
    /// whose procedure's frame will be the next one: `Some` with what it gave when it ended
    /// normally (`sy-subrc` 0), `None` when a classic exception its caller handles ended it
    /// (`sy-subrc` the handled value).
    pub(crate) fn with_classic_exceptions<T>(
        &mut self,
        exceptions: &[(String, abap_syntax::ast::Expr)],
        run: impl FnOnce(&mut Self) -> Exec<T>,
    ) -> Exec<Option<T>> {
        let mut active = ActiveCall {
            frame: self.st.frames.len(),
            handled: Vec::new(),
            others: None,
            error_message: None,
        };
        for (exc, e) in exceptions {
            let v = self.exception_value(exc, e)?;
            match exc.as_str() {
                "OTHERS" => active.others = Some(v),
                "ERROR_MESSAGE" => active.error_message = Some(v),
                _ => active.handled.push((exc.clone(), v)),
            }
        }
        self.function_calls.push(active);
        let result = run(self);
        let active = self.function_calls.pop();
        match result {
            Ok(v) => {
                self.subrc_after_call(0);
                Ok(Some(v))
            }
            Err(Unwind::Raised(r)) if active.is_some_and(|a| a.frame == r.frame) => {
                self.subrc_after_call(r.subrc);
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Maps the actual parameters to the module's formal ones: `EXPORTING` to importing
    /// parameters, `IMPORTING` from exporting ones, `CHANGING` and `TABLES` both ways.
    fn bind_function(&mut self, m: &Module<'r>, call: &'r FunctionCall) -> Exec<Bound> {
        let unknown = |it: &Self, n: &str| {
            it.dump(
                "CALL_FUNCTION_PARM_UNKNOWN",
                format!("Function module {} has no parameter {n}", m.decl.name),
            )
        };
        // A TABLES parameter `p` is declared as its body `p[]`.
        let formal = |name: &str, kind: ParamKind, table: bool| {
            let is_table = m.interface.tables.iter().any(|t| t.as_str() == name);
            if is_table != table {
                return None;
            }
            let declared = if table {
                abap_syntax::parser::header_lines::body_name(name)
            } else {
                name.to_string()
            };
            m.decl
                .params
                .iter()
                .find(|p| p.name == declared && p.kind == kind)
        };
        let mut b = Bound::default();
        for (name, e) in &call.exporting {
            if formal(name, ParamKind::Importing, false).is_none() {
                return Err(unknown(self, name));
            }
            let v = self.eval(e)?;
            b.inputs.push((name.clone(), v));
        }
        for (name, path) in &call.importing {
            if formal(name, ParamKind::Exporting, false).is_none() {
                return Err(unknown(self, name));
            }
            // The actual must exist (and be writable) before the module runs.
            self.writable_place(path)?;
            b.outputs.push((name.clone(), path.clone()));
        }
        let both: [(&[(String, Path)], bool); 2] = [(&call.changing, false), (&call.tables, true)];
        for (list, table) in both {
            for (name, path) in list {
                let Some(p) = formal(name, ParamKind::Changing, table) else {
                    return Err(unknown(self, name));
                };
                // An actual table with a header line passes its body.
                let path = if table {
                    self.table_body(path)
                } else {
                    path.clone()
                };
                let v = self.read(&path)?;
                b.inputs.push((p.name.clone(), v));
                b.outputs.push((p.name.clone(), path));
            }
        }
        for p in &m.decl.params {
            let given = b.inputs.iter().any(|(n, _)| *n == p.name);
            match p.kind {
                ParamKind::Importing | ParamKind::Changing if !given && !p.optional => {
                    return Err(self.dump(
                        "CALL_FUNCTION_PARM_MISSING",
                        format!(
                            "Function module {}: the parameter {} is not supplied",
                            m.decl.name, p.name
                        ),
                    ));
                }
                ParamKind::Changing if !given && p.default.is_some() => {
                    return Err(self.not_supported(&format!(
                        "the DEFAULT of the unsupplied CHANGING parameter {}",
                        p.name
                    )));
                }
                _ => {}
            }
        }
        Ok(b)
    }

    /// The procedure a classic exception leaves: the innermost function module (walking out
    /// through `FORM`s, as `RAISE` does) or method, and the call of it that handles classic
    /// exceptions (`None`: its caller lists none).
    fn raising_module(&self, what: &str) -> Exec<(usize, Option<&ActiveCall>)> {
        for (i, f) in self.st.frames.iter().enumerate().rev() {
            match f.method.place.event_type {
                "FORM" => continue,
                "FUNCTION" | "METHOD" => {
                    let call = self.function_calls.iter().rev().find(|c| c.frame == i);
                    if call.is_none() && f.method.place.event_type == "FUNCTION" {
                        // Every CALL FUNCTION records its call.
                        return Err(self.not_supported(what));
                    }
                    return Ok((i, call));
                }
                _ => break,
            }
        }
        Err(self.not_supported(&format!("{what} outside a function module or method")))
    }

    /// `RAISE name`: the unwinding to the handling `CALL FUNCTION`, or the runtime error
    /// when the caller does not handle the exception.
    fn raise_classic(&self, name: &str) -> Exec<Unwind> {
        let what = format!("RAISE {name}");
        let (frame, active) = self.raising_module(&what)?;
        self.check_declared(frame, name, &what)?;
        match active.and_then(|a| a.subrc_for(name)) {
            Some(subrc) => Ok(Unwind::Raised(Box::new(Raised { frame, subrc }))),
            None => Err(self.dump(
                "RAISE_EXCEPTION",
                format!("Exception condition \"{name}\" triggered"),
            )),
        }
    }

    /// A classic exception of a function module must be one its interface declares (a
    /// method's `EXCEPTIONS` are not recorded: not checked).
    fn check_declared(&self, frame: usize, name: &str, what: &str) -> Exec<()> {
        if self
            .st
            .frames
            .get(frame)
            .is_some_and(|f| f.method.place.event_type == "METHOD")
        {
            return Ok(());
        }
        let declared = self.st.frames.get(frame).is_some_and(|f| {
            f.class
                .functions
                .iter()
                .find(|i| i.name == f.method.name)
                .is_some_and(|i| !i.class_based && i.exceptions.iter().any(|e| e == name))
        });
        if declared {
            Ok(())
        } else {
            Err(self.not_supported(&format!(
                "{what}: an exception the function module does not declare"
            )))
        }
    }

    /// Sets `sy-msgid`, `sy-msgty`, `sy-msgno` and `sy-msgv1` … `sy-msgv4` as `message`
    /// would, without sending it.
    fn message_fields(&mut self, message: &MessageStmt) -> Exec<()> {
        const HOLDER: &str = "%MESSAGE";
        self.declare_inline(HOLDER, Type::String);
        let mut quiet = message.clone();
        quiet.into = Some(Path {
            base: HOLDER.into(),
            rest: Vec::new(),
        });
        self.exec_message(&quiet).map(|_| ())
    }

    /// `MESSAGE … RAISING name`: with the exception handled by the caller the module ends
    /// (the message's fields set, the message not sent); otherwise the message is sent as
    /// without the addition.
    fn message_raising(&mut self, message: &'r MessageStmt, exception: &str) -> Exec<Flow> {
        let what = format!("MESSAGE … RAISING {exception}");
        let (frame, active) = self.raising_module(&what)?;
        let subrc = active.and_then(|a| a.subrc_for(exception));
        self.check_declared(frame, exception, &what)?;
        match subrc {
            Some(subrc) => {
                self.message_fields(message)?;
                Err(Unwind::Raised(Box::new(Raised { frame, subrc })))
            }
            None => self.message_in_function(message),
        }
    }

    /// `MESSAGE` while a function module runs whose caller gave `error_message = n`: type
    /// `E` ends the module like an exception (the message's fields set), `I`, `S` and `W` are
    /// not sent; anything else is sent as always.
    pub fn message_in_function(&mut self, message: &'r MessageStmt) -> Exec<Flow> {
        let Some(subrc) = self.function_calls.last().and_then(|c| c.error_message) else {
            return self.exec_message(message);
        };
        if message.into.is_some() {
            return self.exec_message(message);
        }
        let ty = match (&message.msg_type, &message.type_expr) {
            (Some(t), _) => t.clone(),
            (None, Some(e)) => self
                .eval(e)?
                .to_abap_string()
                .map_err(|e| self.conv_error(e))?
                .to_ascii_uppercase(),
            (None, None) => "I".into(),
        };
        match ty.as_str() {
            "E" => {
                let frame = self.function_calls.last().map_or(0, |c| c.frame);
                self.message_fields(message)?;
                Err(Unwind::Raised(Box::new(Raised { frame, subrc })))
            }
            "I" | "S" | "W" => Ok(Flow::Normal),
            // Type A also rolls back; not pinned down here.
            "A" => Err(self.not_supported("a type A message caught by error_message")),
            _ => self.exec_message(message),
        }
    }
}
