//! Statement lists and the statements that have no file of their own: the dispatch of every
//! statement to the code that runs it, `IF`, `DO`, `WHILE`, `CASE`, `CLEAR`, assignments.

use crate::interp::builtins;
use crate::interp::context::View;
use crate::interp::machine::{Exec, Flow, Interp, Unwind};
use crate::interp::shapes::is_arith;
use crate::interp::state::{Current, Var, VarKind};
use abap_data::debug;
use abap_data::value::{Type, Value};
use abap_syntax::ast::{AssignOp, BinOp, Cond, Expr, Path, Stmt, StmtKind};

/// Width of `ULINE` in the list output (the default line size of a report list).
const LIST_WIDTH: usize = 83;

impl<'r> Interp<'r, '_> {
    pub fn block(&mut self, stmts: &'r [Stmt]) -> Exec<Flow> {
        self.block_from(stmts, 0)
    }

    /// Runs `stmts` from the statement starting on `line` (a jump target).
    pub(crate) fn block_at(&mut self, stmts: &'r [Stmt], line: u32) -> Exec<Flow> {
        match stmts
            .iter()
            .position(|s| s.line == line && s.kind.is_stop_point())
        {
            Some(i) => self.block_from(stmts, i),
            None => Err(Unwind::Jump(line)),
        }
    }

    pub(crate) fn block_from(&mut self, stmts: &'r [Stmt], start: usize) -> Exec<Flow> {
        if let Some(f) = self.st.frames.last_mut() {
            f.blocks.push(stmts);
        }
        let mut i = start;
        let result = loop {
            let Some(s) = stmts.get(i) else {
                break Ok(Flow::Normal);
            };
            match self.statement(s) {
                Ok(Flow::Normal) => i += 1,
                Ok(flow) => break Ok(flow),
                Err(Unwind::Jump(line)) => {
                    match stmts
                        .iter()
                        .position(|s| s.line == line && s.kind.is_stop_point())
                    {
                        Some(j) => i = j,
                        None => break Err(Unwind::Jump(line)),
                    }
                }
                Err(e) => {
                    self.report_if_uncaught(&e);
                    break Err(e);
                }
            }
        };
        if let Some(f) = self.st.frames.last_mut() {
            f.blocks.pop();
        }
        result
    }

    /// Tells the hook of a runtime error no handler will catch, once, where it was raised
    /// (the innermost block sees it first, with the stack intact; the next statement that
    /// starts, in an ABAP Unit run the next test's, clears the mark).
    pub(crate) fn report_if_uncaught(&mut self, e: &Unwind) {
        if self.error_reported {
            return;
        }
        let error = match e {
            Unwind::Exception(obj) => {
                let Some(key) = self.st.object_class(*obj).map(str::to_string) else {
                    return;
                };
                if self.handled_further_out(&key) {
                    return;
                }
                let class = self
                    .st
                    .class_by_key(&key)
                    .map_or_else(|| key.clone(), |c| c.name.clone());
                let dump_id = self
                    .st
                    .heap
                    .get(*obj)
                    .and_then(|o| o.exc.as_ref())
                    .and_then(|i| i.dump_id.clone());
                debug::RuntimeError {
                    id: dump_id.unwrap_or_else(|| "UNCAUGHT_EXCEPTION".to_string()),
                    text: self.exception_text(*obj),
                    exception: Some(class),
                }
            }
            Unwind::Dump(d) => {
                let class =
                    builtins::classes::exception_for_dump(&d.id).and_then(builtins::classes::class);
                if class.is_some_and(|def| self.handled_further_out(&def.key)) {
                    return;
                }
                debug::RuntimeError {
                    id: d.id.clone(),
                    text: d.text.clone(),
                    exception: class.map(|def| def.name.clone()),
                }
            }
            _ => return,
        };
        self.error_reported = true;
        let view = View::new(&mut self.st);
        self.hook.runtime_error(&view, &error);
    }

    pub(crate) fn in_loop(&self) -> bool {
        self.st.frames.last().is_some_and(|f| f.loop_depth > 0)
    }

    pub(crate) fn statement(&mut self, s: &'r Stmt) -> Exec<Flow> {
        self.error_reported = false;
        if s.kind.is_stop_point() {
            self.stop(s.line, Current::Stmt(&s.kind))?;
        } else {
            self.set_line(s.line);
            self.tick()?;
        }
        self.statement_kind(s)
    }

    /// What statement `s` does, once its stop point is passed.
    pub(crate) fn statement_kind(&mut self, s: &'r Stmt) -> Exec<Flow> {
        // Each kind runs in its own function: in debug builds a single big match would put
        // every arm's locals into the frame of every recursion level.
        match &s.kind {
            StmtKind::Assign { target, op, expr } => self.exec_assign(target, *op, expr),
            StmtKind::Call(c) => {
                self.call(c)?;
                Ok(Flow::Normal)
            }
            StmtKind::If {
                branches,
                else_body,
            } => self.exec_if(branches, else_body),
            StmtKind::Do { times, body } => self.exec_do(times.as_ref(), body),
            StmtKind::While { cond, body } => self.exec_while(s.line, cond, body),
            StmtKind::Case { subject, whens } => self.exec_case(subject, whens),
            StmtKind::Clear(paths) => self.exec_clear(paths),
            StmtKind::Exit => Ok(if self.in_loop() {
                Flow::Exit
            } else {
                Flow::Return
            }),
            StmtKind::Continue => Ok(if self.in_loop() {
                Flow::Continue
            } else {
                Flow::Normal
            }),
            StmtKind::Return => Ok(Flow::Return),
            StmtKind::Assert(Some(c)) => {
                if self.cond(c)? {
                    Ok(Flow::Normal)
                } else {
                    Err(self.dump("ASSERTION_FAILED", "The ASSERT condition was violated"))
                }
            }
            StmtKind::Assert(None) => Ok(Flow::Normal),
            StmtKind::Check(c) => {
                if self.cond(c)? {
                    Ok(Flow::Normal)
                } else if self.in_loop() {
                    Ok(Flow::Continue)
                } else {
                    Ok(Flow::Return)
                }
            }
            StmtKind::Try {
                body,
                catches,
                cleanup,
            } => self.exec_try(body, catches, cleanup.as_ref()),
            StmtKind::Raise(e) => self.exec_raise(e),
            StmtKind::Message(m) => self.message_in_function(m),
            StmtKind::Write(w) => self.exec_list_write(w),
            StmtKind::ListFormat => Ok(Flow::Normal),
            StmtKind::Uline => {
                self.before_list_output()?;
                self.st.flush_line();
                self.st.list.push("-".repeat(LIST_WIDTH));
                Ok(Flow::Normal)
            }
            StmtKind::Skip(n) => {
                let n = match n {
                    Some(e) => match self.eval(e)?.convert(&Type::I) {
                        Ok(Value::I(n)) => n.clamp(0, 1000),
                        _ => 1,
                    },
                    None => 1,
                };
                self.before_list_output()?;
                self.st.flush_line();
                for _ in 0..n {
                    self.st.list.push(String::new());
                }
                Ok(Flow::Normal)
            }
            StmtKind::NewLine => {
                self.st.flush_line();
                Ok(Flow::Normal)
            }
            StmtKind::Perform {
                form,
                using,
                changing,
            } => self.exec_perform(form, using, changing),
            StmtKind::CreateObject {
                target,
                class,
                args,
            } => self.exec_create_object(target, class.as_deref(), args),
            StmtKind::Table(t) => self.exec_table(t),
            StmtKind::TableOp(t) => self.exec_table_op(t),
            StmtKind::CaseType(c) => self.exec_case_type(c),
            StmtKind::Text(t) => {
                self.exec_text(t)?;
                Ok(Flow::Normal)
            }
            StmtKind::AssignRow { target, op, expr } => self.exec_assign_row(target, *op, expr),
            StmtKind::AssignSub { target, expr } => {
                let v = self.eval(expr)?;
                self.assign_sub(target, v)?;
                Ok(Flow::Normal)
            }
            StmtKind::Refs(r) => {
                self.exec_ref_stmt(r)?;
                Ok(Flow::Normal)
            }
            StmtKind::Time(t) => {
                self.exec_time_stmt(t)?;
                Ok(Flow::Normal)
            }
            StmtKind::Sql(q) => self.exec_sql(q),
            StmtKind::Dynamic(d) => self.exec_dynamic(d),
            StmtKind::Function(f) => self.exec_function(f),
            StmtKind::Unsupported { what, .. } => Err(self.not_supported(what)),
        }
    }

    /// Declares a local of the innermost frame (inline `DATA(x)`) unless it exists.
    pub fn declare_inline(&mut self, name: &str, ty: Type) {
        if let Some(f) = self.st.frames.last_mut()
            && !f.vars.iter().any(|v| v.name == name)
        {
            f.vars.push(Var::new(name, ty, VarKind::Local));
        }
    }

    pub(crate) fn exec_assign(&mut self, target: &Path, op: AssignOp, expr: &Expr) -> Exec<Flow> {
        if op == AssignOp::Declare {
            let val = if is_arith(expr) {
                self.arith(expr, None)?
            } else {
                self.eval(expr)?
            };
            self.declare_inline(&target.base, val.type_of());
            self.assign_value(target, val)?;
            return Ok(Flow::Normal);
        }
        let ty = self.target_type_of(target)?;
        let current = match op {
            AssignOp::Set | AssignOp::Declare => None,
            _ => Some(self.read(target)?),
        };
        let val = self.value_for_target(&ty, op, expr, current)?;
        self.assign_value(target, val)?;
        Ok(Flow::Normal)
    }

    /// The value an assignment with `op` gives a target of type `ty` holding `current`
    /// (`None` for `=`): constructor expressions take the target's type, `+=` and friends
    /// calculate in the target's calculation type.
    pub(crate) fn value_for_target(
        &mut self,
        ty: &Type,
        op: AssignOp,
        expr: &Expr,
        current: Option<Value>,
    ) -> Exec<Value> {
        let current = match (op, current) {
            (AssignOp::Set | AssignOp::Declare, _) => {
                return self.set_value_for(ty, expr);
            }
            (_, Some(c)) => c,
            (_, None) => return Err(self.not_supported("compound assignment without a value")),
        };
        let bin = match op {
            AssignOp::Add => BinOp::Add,
            AssignOp::Sub => BinOp::Sub,
            AssignOp::Mul => BinOp::Mul,
            AssignOp::Div => BinOp::Div,
            AssignOp::Set | AssignOp::Declare | AssignOp::Concat => {
                // `a &&= b` is `a = a && b`.
                let mut s = current.to_abap_string().map_err(|e| self.conv_error(e))?;
                let add = self.operand(expr)?;
                let add = add.to_abap_string().map_err(|e| self.conv_error(e))?;
                self.room_for_text(s.len().saturating_add(add.len()))?;
                s.push_str(&add);
                return Ok(Value::Str(s.into()));
            }
        };
        let e = Expr::Bin(bin, Box::new(Expr::Lit(current)), Box::new(expr.clone()));
        self.arith(&e, Some(ty))
    }

    /// The value `target = expr` gives a target of type `ty`.
    pub(crate) fn set_value_for(&mut self, ty: &Type, expr: &Expr) -> Exec<Value> {
        Ok(match expr {
            e if is_arith(e) => self.arith(e, Some(ty))?,
            Expr::New { class, args } => self.new_object(class, args, Some(ty))?,
            Expr::Choose { .. }
            | Expr::Switch { .. }
            | Expr::Conv { .. }
            | Expr::Value { .. }
            | Expr::Ctor(_) => self.constructed(expr, Some(ty))?,
            e if crate::interp::template::is_sole_alpha(e) => self.sole_alpha_template(e, ty)?,
            e => self.eval(e)?,
        })
    }

    pub(crate) fn exec_if(
        &mut self,
        branches: &'r [(u32, Cond, Vec<Stmt>)],
        else_body: &'r [Stmt],
    ) -> Exec<Flow> {
        for (i, (line, cond, body)) in branches.iter().enumerate() {
            if i > 0 {
                self.stop(*line, Current::Keyword("ELSEIF"))?;
            }
            if self.cond(cond)? {
                return self.block(body);
            }
        }
        self.block(else_body)
    }

    pub(crate) fn exec_do(&mut self, times: Option<&Expr>, body: &'r [Stmt]) -> Exec<Flow> {
        let n = match times {
            Some(e) => {
                let v = self.eval(e)?;
                match v.convert(&Type::I).map_err(|e| self.conv_error(e))? {
                    Value::I(n) => Some(n.max(0)),
                    _ => Some(0),
                }
            }
            None => None,
        };
        self.run_loop(|_, pass| {
            Ok(if n.is_some_and(|n| pass > n) {
                None
            } else {
                Some(body)
            })
        })
    }

    pub(crate) fn exec_while(&mut self, line: u32, cond: &'r Cond, body: &'r [Stmt]) -> Exec<Flow> {
        self.run_loop(|it, pass| {
            if pass > 1 {
                it.stop(line, Current::Keyword("WHILE"))?;
            }
            Ok(if it.cond(cond)? { Some(body) } else { None })
        })
    }

    pub(crate) fn exec_case(
        &mut self,
        subject: &Expr,
        whens: &'r [(u32, Vec<Expr>, Vec<Stmt>)],
    ) -> Exec<Flow> {
        let v = self.eval(subject)?;
        for (line, alts, body) in whens {
            let mut hit = alts.is_empty();
            for a in alts {
                let w = self.eval(a)?;
                if self.compare(&v, &w)? == std::cmp::Ordering::Equal {
                    hit = true;
                    break;
                }
            }
            if hit {
                self.stop(*line, Current::Keyword("WHEN"))?;
                return self.block(body);
            }
        }
        Ok(Flow::Normal)
    }

    pub(crate) fn exec_clear(&mut self, paths: &[Path]) -> Exec<Flow> {
        for p in paths {
            let place = self.writable_place(p)?;
            if let Some(ty) = self.place_type(&place)
                && let Some(v) = self.st.value_at_mut(&place)
            {
                let had_rows = crate::interp::row_refs::holds_rows(v);
                *v = ty.initial();
                if had_rows {
                    self.rows_replaced(&place);
                }
            }
        }
        Ok(Flow::Normal)
    }

    /// Runs a loop: `next(pass)` (pass 1, 2, …) gives the body for this pass or ends the loop.
    /// Maintains `sy-index` (restored afterwards, as ABAP does for nested loops).
    pub(crate) fn run_loop<F>(&mut self, mut next: F) -> Exec<Flow>
    where
        F: FnMut(&mut Self, i32) -> Exec<Option<&'r [Stmt]>>,
    {
        let saved = self.st.sy.first().map(|v| v.val.clone());
        if let Some(f) = self.st.frames.last_mut() {
            f.loop_depth += 1;
        }
        let result = self.loop_passes(&mut next);
        if let Some(f) = self.st.frames.last_mut() {
            f.loop_depth = f.loop_depth.saturating_sub(1);
        }
        if let (Some(v), Some(sy_index)) = (saved, self.st.sy.first_mut()) {
            sy_index.val = v;
        }
        result
    }

    pub(crate) fn loop_passes<F>(&mut self, next: &mut F) -> Exec<Flow>
    where
        F: FnMut(&mut Self, i32) -> Exec<Option<&'r [Stmt]>>,
    {
        let mut pass: i32 = 0;
        loop {
            pass = pass
                .checked_add(1)
                .ok_or_else(|| self.dump("SIMULATOR_LIMIT", "loop pass counter overflow"))?;
            if pass > 1 {
                self.tick()?;
            }
            let Some(body) = next(self, pass)? else {
                return Ok(Flow::Normal);
            };
            if let Some(sy_index) = self.st.sy.first_mut() {
                sy_index.val = Value::I(pass);
            }
            match self.block(body)? {
                Flow::Exit => return Ok(Flow::Normal),
                Flow::Return => return Ok(Flow::Return),
                Flow::Normal | Flow::Continue => {}
            }
        }
    }
}
