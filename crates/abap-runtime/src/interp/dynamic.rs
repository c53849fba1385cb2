//! Dynamic programming: statements whose class, method, type or component names are given at
//! run time (`ast/dynamic.rs`), and dynamic `WHERE` conditions.
//!
//! A dynamic call is checked before it runs, so the errors a real system reports as catchable
//! `CX_SY_DYN_CALL_*` exceptions are raised as such (unknown class or method, unknown or
//! missing parameter, wrong parameter kind); then it runs as the static call does. A
//! `PARAMETER-TABLE` becomes an ordinary parameter list whose actual parameters are field
//! symbols of the caller assigned to the data the table's references point to, so by-reference
//! passing aliases that data exactly as a static call aliases its actual parameters.

use crate::interp::tables::{as_i32, component, sy_set};
use crate::interp::{Exec, Flow, Interp};
use abap_data::place::Place;
use abap_data::value::{ObjId, TableType, Type, Value};
use abap_syntax::ast::{
    CallArgs, CallExpr, CallTarget, ClassDef, Cond, DynArgs, DynCall, DynCallTarget, DynDataKind,
    DynName, DynStmt, Expr, MethodDecl, ParamKind, Path, RowTarget,
};

/// Prefix of the caller's field symbols that carry a parameter table's actual parameters.
const PARAM_FS: &str = "<%PARAM";

/// The formal parameter kind a `KIND` value of a parameter table names (the caller's view:
/// `E`xporting is the callee's importing parameter).
fn kind_of(code: &str) -> Option<ParamKind> {
    Some(match code {
        "E" => ParamKind::Importing,
        "I" => ParamKind::Exporting,
        "C" => ParamKind::Changing,
        "R" => ParamKind::Returning,
        _ => return None,
    })
}

/// The text of a name operand: its content without surrounding blanks.
fn name_text(v: &Value) -> String {
    v.to_abap_string()
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// A component of a structure value by name (`TABLE_LINE`: the whole row).
fn comp_text(row: &Value, name: &str) -> String {
    component(row, name).map(name_text).unwrap_or_default()
}

impl<'r> Interp<'r, '_> {
    pub fn exec_dynamic(&mut self, s: &'r DynStmt) -> Exec<Flow> {
        match s {
            DynStmt::CallMethod(c) => self.dyn_call(c).map(|_| Flow::Normal),
            DynStmt::CreateObject {
                target,
                class,
                args,
            } => self.dyn_create_object(target, class, args),
            DynStmt::CreateData {
                target,
                kind,
                name,
                length,
                decimals,
            } => self.dyn_create_data(target, *kind, name, length.as_ref(), decimals.as_ref()),
            DynStmt::Sort {
                table,
                descending,
                by,
            } => self.dyn_sort(table, *descending, by),
            DynStmt::Read {
                table,
                target,
                key,
                table_key,
            } => self.dyn_read(table, target, key, *table_key),
        }
    }

    /// The text a name operand holds (a static name as written).
    fn dyn_name(&mut self, n: &DynName) -> Exec<String> {
        match n {
            DynName::Static(s) => Ok(s.clone()),
            DynName::Dynamic(e) => {
                let v = self.eval(e)?;
                Ok(name_text(&v))
            }
        }
    }

    /// The main program of the running procedure (where class names are looked up).
    fn program_here(&self) -> String {
        self.st
            .frames
            .last()
            .map(|f| f.class.program.clone())
            .unwrap_or_default()
    }

    /// A class by the name a dynamic statement gives (also `\CLASS=name`).
    fn dyn_class(&self, name: &str) -> Option<&'r ClassDef> {
        let name = match name.strip_prefix("\\CLASS=") {
            Some(n) if !n.contains('\\') => n,
            _ => name,
        };
        if name.is_empty() {
            return None;
        }
        self.st.find_class(&self.program_here(), name)
    }

    // ------------------------------------------------------------------ CALL METHOD

    fn dyn_call(&mut self, c: &DynCall) -> Exec<()> {
        let method = self.dyn_name(&c.method)?;
        let (class, me) = match &c.target {
            DynCallTarget::Own => {
                let Some(frame) = self.st.frames.last() else {
                    return Err(self.not_supported("CALL METHOD outside a method"));
                };
                (frame.class, frame.me)
            }
            DynCallTarget::Object(path) => {
                let v = self.read(path)?;
                let Value::Ref { target, .. } = v else {
                    return Err(self.not_supported("CALL METHOD on a non-reference"));
                };
                if target.is_none() {
                    return Err(self.dump(
                        "DYN_CALL_METH_REF_IS_INITIAL",
                        format!("{} contains the null reference", path.text()),
                    ));
                }
                let (class, me, out) = self.object_target(v)?;
                if out.is_some() {
                    return Err(self.not_supported("dynamic call of the classrun output"));
                }
                (class, me)
            }
            DynCallTarget::Class(name) => {
                let name = self.dyn_name(name)?;
                let Some(class) = self.dyn_class(&name) else {
                    return Err(self.dump(
                        "DYN_CALL_METH_CLASS_NOT_FOUND",
                        format!("The class {name} does not exist"),
                    ));
                };
                if class.builtin && class.methods.is_empty() {
                    return Err(self.not_supported(&format!("dynamic call of {name}")));
                }
                self.ensure_statics(class)?;
                (class, None)
            }
        };
        let (resolved, decl) = self.dyn_method(class, &method)?;
        if let Some(id) = self.method_hidden(class, &method) {
            return Err(self.dump(id, format!("The method {method} is not visible here")));
        }
        if me.is_none() && !decl.is_static {
            return Err(self.dump(
                "DYN_CALL_METH_NO_CLASS_METHOD",
                format!("The method {method} is an instance method"),
            ));
        }
        let (args, carriers) = self.dyn_call_args(&c.args, &decl, &method)?;
        let call = CallExpr {
            target: CallTarget::Implicit,
            method: resolved,
            args,
        };
        sy_set(self, "SUBRC", 0);
        let result = self.call_user(class, me, &call);
        self.drop_carriers(carriers);
        result.map(|_| ())
    }

    /// The method a dynamic call names: its name where it is implemented and its declaration;
    /// the runtime errors for names that cannot be called dynamically.
    fn dyn_method(&self, class: &'r ClassDef, method: &str) -> Exec<(String, MethodDecl)> {
        if matches!(method, "CONSTRUCTOR" | "CLASS_CONSTRUCTOR") {
            let id = if method == "CONSTRUCTOR" {
                "DYN_CALL_METH_CONSTRUCTOR"
            } else {
                "DYN_CALL_METH_CLASSCONSTRUCTOR"
            };
            return Err(self.dump(
                id,
                format!("The method {method} cannot be called dynamically"),
            ));
        }
        let Some((owner, resolved)) = self.resolve_method(class, method) else {
            return Err(self.dump(
                "DYN_CALL_METH_NOT_FOUND",
                format!("The method {method} of class {} does not exist", class.name),
            ));
        };
        let decl = self.method_decl(owner, &resolved).into_owned();
        Ok((resolved, decl))
    }

    /// `PRIVATE`/`PROTECTED` methods seen from the running procedure: the runtime error for a
    /// call from outside the declaring class (and, for `PROTECTED`, its subclasses). Callers in
    /// the declaring class's own program and classes with friends are let through
    /// (friendship is not modelled).
    fn method_hidden(&self, class: &'r ClassDef, method: &str) -> Option<&'static str> {
        let (declaring, visibility) = self.st.lineage(class).into_iter().find_map(|c| {
            c.method_visibility
                .iter()
                .find(|(n, _)| n == method)
                .map(|(_, v)| (c, *v))
        })?;
        if visibility == abap_syntax::ast::Visibility::Public || declaring.has_friends {
            return None;
        }
        let caller = self.st.frames.last()?.class;
        if caller.program == declaring.program {
            return None;
        }
        match visibility {
            abap_syntax::ast::Visibility::Private => Some("DYN_CALL_METH_PRIVATE"),
            _ if self.st.is_a(&caller.key, declaring) => None,
            _ => Some("DYN_CALL_METH_PROTECTED"),
        }
    }

    /// The actual parameters of a dynamic call as a parameter list, checked against `decl`;
    /// with the number of carrier field symbols a parameter table needed.
    fn dyn_call_args(
        &mut self,
        args: &DynArgs,
        decl: &MethodDecl,
        method: &str,
    ) -> Exec<(CallArgs, usize)> {
        let (list, carriers) = match args {
            DynArgs::List(a) => (a.clone(), 0),
            DynArgs::Tables { params, exceptions } => {
                let handled = match exceptions {
                    Some(e) => self.exception_table(e)?,
                    None => Vec::new(),
                };
                let (mut list, carriers) = match params {
                    Some(p) => self.parameter_table(p, decl, method)?,
                    None => (CallArgs::default(), 0),
                };
                list.exceptions = handled;
                (list, carriers)
            }
        };
        if let Err(e) = self.check_parameters(&list, decl, method) {
            self.drop_carriers(carriers);
            return Err(e);
        }
        Ok((list, carriers))
    }

    /// Parameter names and kinds of `args` against the signature.
    fn check_parameters(&self, args: &CallArgs, decl: &MethodDecl, method: &str) -> Exec<()> {
        let given = args
            .exporting
            .iter()
            .map(|(n, _)| (n, ParamKind::Importing))
            .chain(
                args.importing
                    .iter()
                    .map(|(n, _)| (n, ParamKind::Exporting)),
            )
            .chain(args.changing.iter().map(|(n, _)| (n, ParamKind::Changing)));
        for (name, kind) in given {
            let Some(p) = decl.params.iter().find(|p| p.name == *name) else {
                return Err(self.dump(
                    "DYN_CALL_METH_PARAM_NOT_FOUND",
                    format!("The method {method} has no parameter {name}"),
                ));
            };
            if p.kind != kind {
                return Err(self.dump(
                    "DYN_CALL_METH_PARAM_KIND",
                    format!("The parameter {name} of {method} is passed with the wrong kind"),
                ));
            }
        }
        if args.receiving.is_some() && !decl.params.iter().any(|p| p.kind == ParamKind::Returning) {
            return Err(self.dump(
                "DYN_CALL_METH_PARAM_NOT_FOUND",
                format!("The method {method} has no RETURNING parameter"),
            ));
        }
        if args.positional.is_some() {
            return Err(self.not_supported("a positional parameter in a dynamic call"));
        }
        let supplied = |n: &str| {
            args.exporting.iter().any(|(x, _)| x == n) || args.changing.iter().any(|(x, _)| x == n)
        };
        if let Some(p) = decl.params.iter().find(|p| {
            matches!(p.kind, ParamKind::Importing | ParamKind::Changing)
                && !p.optional
                && p.default.is_none()
                && !supplied(&p.name)
        }) {
            return Err(self.dump(
                "DYN_CALL_METH_PARAM_MISSING",
                format!("The parameter {} of {method} is not supplied", p.name),
            ));
        }
        Ok(())
    }

    /// `EXCEPTION-TABLE etab` as the `EXCEPTIONS name = n` of a parameter list (the names are
    /// not checked against the method's declaration, which the simulator does not keep).
    fn exception_table(&mut self, e: &Expr) -> Exec<Vec<(String, Expr)>> {
        let v = self.eval(e)?;
        let Value::Table(_, rows) = &v else {
            return Err(self.not_supported("EXCEPTION-TABLE of a non-table"));
        };
        Ok(rows
            .iter()
            .map(|r| {
                let value = component(r, "VALUE").cloned().unwrap_or(Value::I(0));
                (comp_text(r, "NAME"), Expr::Lit(value))
            })
            .collect())
    }

    /// `PARAMETER-TABLE ptab` as a parameter list: each row's reference becomes a field
    /// symbol of the caller, passed as the actual parameter of the row's formal one.
    fn parameter_table(
        &mut self,
        e: &Expr,
        decl: &MethodDecl,
        method: &str,
    ) -> Exec<(CallArgs, usize)> {
        let v = self.eval(e)?;
        let Value::Table(_, rows) = v else {
            return Err(self.not_supported("PARAMETER-TABLE of a non-table"));
        };
        let mut args = CallArgs::default();
        let mut carriers = 0;
        let result = (|| {
            for row in rows.iter() {
                let name = comp_text(row, "NAME");
                let Some(p) = decl.params.iter().find(|p| p.name == name) else {
                    return Err(self.dump(
                        "DYN_CALL_METH_PARAM_NOT_FOUND",
                        format!("The method {method} has no parameter {name}"),
                    ));
                };
                let code = comp_text(row, "KIND");
                if !code.is_empty() && kind_of(&code) != Some(p.kind) {
                    return Err(self.dump(
                        "DYN_CALL_METH_PARAM_KIND",
                        format!("The parameter {name} of {method} is not of kind {code}"),
                    ));
                }
                let target = match component(row, "VALUE") {
                    Some(Value::DataRef(r)) => self.st.valid_target(r).map(|t| t.place.clone()),
                    _ => return Err(self.not_supported("PARAMETER-TABLE without VALUE")),
                };
                let Some(place) = target else {
                    return Err(self.dump(
                        "DYN_CALL_METH_PARREF_INITIAL",
                        format!("The reference for parameter {name} of {method} is initial"),
                    ));
                };
                carriers += 1;
                let fs = format!("{PARAM_FS}{carriers}>");
                self.bind_fs(&fs, Some(place), true);
                let actual = Path {
                    base: fs,
                    rest: Vec::new(),
                };
                match p.kind {
                    ParamKind::Importing => args.exporting.push((name, Expr::Path(actual))),
                    ParamKind::Exporting => args.importing.push((name, actual)),
                    ParamKind::Changing => args.changing.push((name, actual)),
                    ParamKind::Returning => args.receiving = Some(actual),
                }
            }
            Ok(())
        })();
        match result {
            Ok(()) => Ok((args, carriers)),
            Err(e) => {
                self.drop_carriers(carriers);
                Err(e)
            }
        }
    }

    /// Removes the carrier field symbols of a parameter table from the caller's frame.
    fn drop_carriers(&mut self, carriers: usize) {
        if carriers == 0 {
            return;
        }
        if let Some(f) = self.st.frames.last_mut() {
            f.field_symbols.retain(|(n, _)| !n.starts_with(PARAM_FS));
        }
    }

    // ------------------------------------------------------------------ CREATE OBJECT

    fn dyn_create_object(&mut self, target: &Path, class: &Expr, args: &DynArgs) -> Exec<Flow> {
        let v = self.eval(class)?;
        let name = name_text(&v);
        let Some(def) = self.dyn_class(&name) else {
            return Err(self.dump(
                "CREATE_OBJECT_CLASS_NOT_FOUND",
                format!("The class {name} does not exist"),
            ));
        };
        if def.builtin && def.methods.is_empty() && def.attributes.is_empty() {
            return Err(self.not_supported(&format!("CREATE OBJECT of {name}")));
        }
        if def.is_abstract || def.is_interface {
            return Err(self.dump(
                "CREATE_OBJECT_CLASS_ABSTRACT",
                format!("An instance of the abstract class {name} cannot be created"),
            ));
        }
        if let Some(id) = self.creation_refused(def) {
            return Err(self.dump(
                id,
                format!("The class {name} does not allow its instantiation here"),
            ));
        }
        match self.target_type_of(target)? {
            Type::Ref(static_type) if static_type == "OBJECT" => {}
            Type::Ref(static_type) => {
                let program = self.program_here();
                let fits = self.st.find_class(&program, &static_type).is_some_and(|s| {
                    self.st.is_a(&def.key, s) || self.implements_via_interface(&def.key, s)
                });
                if !fits {
                    return Err(self.not_supported(&format!(
                        "CREATE OBJECT of {name} for a reference of type {static_type}"
                    )));
                }
            }
            _ => return Err(self.not_supported("CREATE OBJECT of a non-reference")),
        }
        let constructor = self
            .resolve_method(def, "CONSTRUCTOR")
            .map(|(owner, m)| self.method_decl(owner, &m).into_owned())
            .unwrap_or_else(|| MethodDecl {
                name: "CONSTRUCTOR".into(),
                is_static: false,
                params: Vec::new(),
                for_testing: false,
                is_abstract: false,
                line: 0,
            });
        let (list, carriers) = self.dyn_call_args(args, &constructor, "CONSTRUCTOR")?;
        let created = self.create_object(def, Some(&list));
        self.drop_carriers(carriers);
        let obj: ObjId = created?;
        self.assign_value(
            target,
            Value::Ref {
                static_type: def.name.as_str().into(),
                target: Some(obj),
            },
        )?;
        Ok(Flow::Normal)
    }

    /// `CREATE PRIVATE|PROTECTED` seen from the running procedure: the runtime error for a
    /// creation outside the class (and, for `PROTECTED`, its subclasses). A class with
    /// friends, or a caller in the class's own program (where a test include's `LOCAL
    /// FRIENDS` may grant it), is let through: friendship is not modelled.
    fn creation_refused(&self, def: &'r ClassDef) -> Option<&'static str> {
        if def.create == abap_syntax::ast::Visibility::Public || def.has_friends {
            return None;
        }
        let caller = self.st.frames.last()?.class;
        if caller.program == def.program {
            return None;
        }
        match def.create {
            abap_syntax::ast::Visibility::Private => Some("CREATE_OBJECT_CREATE_PRIVATE"),
            _ if self.st.is_a(&caller.key, def) => None,
            _ => Some("CREATE_OBJECT_CREATE_PROTECTED"),
        }
    }

    // ------------------------------------------------------------------ CREATE DATA

    fn dyn_create_data(
        &mut self,
        target: &Path,
        kind: DynDataKind,
        name: &DynName,
        length: Option<&Expr>,
        decimals: Option<&Expr>,
    ) -> Exec<Flow> {
        let name = self.dyn_name(name)?.to_ascii_uppercase();
        let ty = match kind {
            DynDataKind::Type if length.is_some() || decimals.is_some() => {
                self.sized_type(&name, length, decimals)?
            }
            DynDataKind::RefTo => match self.dyn_class(&name) {
                Some(c) => Type::Ref(c.name.clone()),
                None => Type::DataRef(Box::new(self.dyn_data_type(&name)?)),
            },
            DynDataKind::Type => self.dyn_data_type(&name)?,
            DynDataKind::TableOf => {
                let line = self.dyn_data_type(&name)?;
                TableType::standard("", line)
            }
        };
        match self.target_type_of(target)? {
            Type::DataRef(st) if *st == Type::Any || *st == ty => {}
            Type::DataRef(_) => {
                return Err(self.not_supported(&format!(
                    "CREATE DATA {} with a type other than its static type",
                    target.text()
                )));
            }
            _ => {
                return Err(self.not_supported(&format!(
                    "CREATE DATA for {} that is no data reference",
                    target.text()
                )));
            }
        }
        let r = self.new_anonymous(ty.clone(), ty.initial());
        self.assign_value(target, r)?;
        Ok(Flow::Normal)
    }

    /// `c|n|x|p LENGTH len [DECIMALS dec]` with values known at run time, checked as
    /// `CREATE DATA` checks them.
    fn sized_type(
        &mut self,
        name: &str,
        length: Option<&Expr>,
        decimals: Option<&Expr>,
    ) -> Exec<Type> {
        let base = name.strip_prefix("\\TYPE=").unwrap_or(name);
        if !matches!(base, "C" | "N" | "X" | "P") {
            if length.is_some() {
                return Err(self.dump(
                    "CREATE_DATA_LEN_NOT_ALLOWED",
                    format!("LENGTH is not allowed for the type {name}"),
                ));
            }
            return Err(self.dump(
                "CREATE_DATA_ILLEGAL_DECIMALS",
                format!("DECIMALS is not allowed for the type {name}"),
            ));
        }
        let len = match length {
            Some(e) => Some(self.int(e)?),
            None => None,
        };
        let dec = match decimals {
            Some(e) => Some(self.int(e)?),
            None => None,
        };
        let max = match base {
            "X" => i64::from(abap_data::value::MAX_X_LENGTH),
            "P" => 16,
            _ => i64::from(abap_data::value::MAX_C_LENGTH),
        };
        let len = match len {
            Some(n) if !(1..=max).contains(&n) => {
                return Err(self.dump(
                    "CREATE_DATA_ILLEGAL_LENGTH",
                    format!("Illegal length {n} for the type {name}"),
                ));
            }
            Some(n) => u32::try_from(n).unwrap_or(1),
            None if base == "P" => 8,
            None => 1,
        };
        let dec = match (dec, base) {
            (None, _) => 0,
            (Some(d), "P") if (0..=14).contains(&d) => u32::try_from(d).unwrap_or(0),
            (Some(d), _) => {
                return Err(self.dump(
                    "CREATE_DATA_ILLEGAL_DECIMALS",
                    format!("Illegal decimals {d} for the type {name}"),
                ));
            }
        };
        if dec > 2 * len - 1 {
            return Err(
                self.not_supported(&format!("CREATE DATA TYPE p LENGTH {len} DECIMALS {dec}"))
            );
        }
        Ok(match base {
            "C" => Type::C(len),
            "N" => Type::N(len),
            "X" => Type::X(len),
            _ => Type::P { len, dec },
        })
    }

    /// The data type a dynamic `CREATE DATA` names (also `\TYPE=name`, `\CLASS=c\TYPE=t`):
    /// `CREATE_DATA_UNKNOWN_TYPE` for a name no type has here, `CREATE_DATA_NOT_ALLOWED_TYPE`
    /// for a generic type.
    fn dyn_data_type(&self, name: &str) -> Exec<Type> {
        let plain = if let Some(rest) = name.strip_prefix("\\CLASS=")
            && let Some((class, ty)) = rest.split_once("\\TYPE=")
        {
            format!("{class}=>{ty}")
        } else if let Some(rest) = name.strip_prefix("\\INTERFACE=")
            && let Some((intf, ty)) = rest.split_once("\\TYPE=")
        {
            format!("{intf}=>{ty}")
        } else {
            name.strip_prefix("\\TYPE=").unwrap_or(name).to_string()
        };
        let unknown = || {
            self.dump(
                "CREATE_DATA_UNKNOWN_TYPE",
                format!("The type {name} is unknown"),
            )
        };
        if plain.is_empty() || abap_syntax::parser::words::parse_path(&plain).is_none() {
            return Err(unknown());
        }
        match self.type_named(&plain) {
            Ok(Type::Any) => Err(self.dump(
                "CREATE_DATA_NOT_ALLOWED_TYPE",
                format!("The type {name} is generic"),
            )),
            Ok(t) => Ok(t),
            Err(_) => Err(unknown()),
        }
    }

    // ------------------------------------------------------------------ SORT, READ TABLE

    /// Whether the rows of `tt` have the component `name` (`A-B` for a substructure's,
    /// `TABLE_LINE` for the whole row).
    fn has_component(tt: &TableType, name: &str) -> bool {
        if name == "TABLE_LINE" {
            return true;
        }
        let mut ty = &tt.line;
        for part in name.split('-') {
            let Type::Struct(st) = ty else {
                return false;
            };
            let Some(i) = st.index_of(part) else {
                return false;
            };
            let Some((_, t)) = st.comps.get(i) else {
                return false;
            };
            ty = t;
        }
        true
    }

    fn dyn_sort(
        &mut self,
        table: &Path,
        descending: bool,
        by: &[(DynName, Option<bool>)],
    ) -> Exec<Flow> {
        let (_, tt) = self.table_place(table)?;
        let mut key: Vec<(String, bool)> = Vec::new();
        for (name, dir) in by {
            let dir = dir.unwrap_or(descending);
            let v = match name {
                DynName::Static(n) => {
                    key.push((n.clone(), dir));
                    continue;
                }
                DynName::Dynamic(e) => self.eval(e)?,
            };
            if let Value::Table(otab, rows) = &v {
                if by.len() != 1 {
                    return Err(self.not_supported("SORT BY (otab) with other components"));
                }
                self.sort_order_table(&tt, otab, rows, &mut key)?;
                continue;
            }
            let n = name_text(&v).to_ascii_uppercase();
            if n.is_empty() {
                continue;
            }
            if !Self::has_component(&tt, &n) {
                return Err(self.dump(
                    "ITAB_ILLEGAL_COMPONENT",
                    format!("The table has no component {n}"),
                ));
            }
            key.push((n, dir));
        }
        if key.is_empty() {
            return Ok(Flow::Normal);
        }
        self.table_sort(table, &false, &key)
    }

    /// The rows of an `abap_sortorder_tab` as sort key components.
    fn sort_order_table(
        &self,
        tt: &TableType,
        otab: &TableType,
        rows: &[Value],
        key: &mut Vec<(String, bool)>,
    ) -> Exec<()> {
        let Type::Struct(line) = &otab.line else {
            return Err(self.dump(
                "DYN_TABLE_ILL_LINE_TYPE",
                "The sort order table has an invalid line type",
            ));
        };
        if line.index_of("NAME").is_none() || line.index_of("DESCENDING").is_none() {
            return Err(self.dump(
                "DYN_TABLE_ILL_LINE_TYPE",
                "The sort order table has an invalid line type",
            ));
        }
        for row in rows {
            let name = comp_text(row, "NAME");
            let desc = comp_text(row, "DESCENDING");
            let as_text = comp_text(row, "ASTEXT");
            let flag_ok = |f: &str| f.is_empty() || f == "X";
            if !Self::has_component(tt, &name) || !flag_ok(&desc) || !flag_ok(&as_text) {
                return Err(self.dump(
                    "DYN_TABLE_ILL_COMP_VAL",
                    format!("Invalid sort order row for component {name}"),
                ));
            }
            if as_text == "X" {
                return Err(self.not_supported("SORT BY (otab) with ASTEXT"));
            }
            key.push((name, desc == "X"));
        }
        Ok(())
    }

    fn dyn_read(
        &mut self,
        table: &Path,
        target: &RowTarget,
        key: &[(DynName, Expr)],
        table_key: bool,
    ) -> Exec<Flow> {
        let (place, tt) = self.table_place(table)?;
        let primary = tt.key_comps();
        let mut k = Vec::new();
        for (name, e) in key {
            let n = self.dyn_name(name)?.to_ascii_uppercase();
            if n.is_empty() {
                continue;
            }
            if !Self::has_component(&tt, &n) {
                return Err(self.dump(
                    "ITAB_ILLEGAL_COMPONENT",
                    format!("The table has no component {n}"),
                ));
            }
            if table_key && !primary.contains(&n) {
                return Err(self.not_supported(&format!(
                    "WITH TABLE KEY naming {n}, which is no key component"
                )));
            }
            let v = self.eval(e)?;
            k.push((n, v));
        }
        let found = self.find_row(self.rows(&place), &k)?;
        self.read_result(&place, found, target)
    }

    fn read_result(
        &mut self,
        place: &Place,
        found: Option<usize>,
        target: &RowTarget,
    ) -> Exec<Flow> {
        match found {
            Some(i) => {
                self.put_row(place, i, target)?;
                sy_set(self, "SUBRC", 0);
                sy_set(self, "TABIX", as_i32(i + 1));
            }
            None => {
                sy_set(self, "SUBRC", 4);
                sy_set(self, "TABIX", 0);
            }
        }
        Ok(Flow::Normal)
    }

    // ------------------------------------------------------------------ WHERE (cond)

    /// `WHERE (cond_syntax)` on a row: the operand's text (a text, or a table of text lines)
    /// parsed as a condition; an initial operand is true.
    pub(crate) fn dynamic_where_match(&mut self, e: &Expr, row: &Value) -> Exec<bool> {
        let v = self.eval(e)?;
        let text = match &v {
            Value::Table(_, lines) => lines.iter().map(name_text).collect::<Vec<_>>().join(" "),
            other => name_text(other),
        };
        if text.is_empty() {
            return Ok(true);
        }
        let bad = |it: &Self, why: &str| {
            it.dump(
                "DYN_WHERE_PARSE_ERROR",
                format!("Error in the dynamic WHERE condition {text}: {why}"),
            )
        };
        let tokens = match abap_syntax::lexer::lex(&text) {
            Ok(t) => t,
            Err(e) => return Err(bad(self, &e.message)),
        };
        let cond = match abap_syntax::parser::expr::parse_full_cond(&tokens) {
            Ok(Cond::Unsupported(what)) => return Err(bad(self, &what)),
            Ok(c) => c,
            Err(u) => return Err(bad(self, &u.0)),
        };
        if matches!(cond, Cond::Dynamic(_)) {
            return Err(bad(self, "nested dynamic condition"));
        }
        self.where_match(&cond, row)
    }
}
