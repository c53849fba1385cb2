//! The debugger's read-only view of a stopped program ([`StopContext`] over [`State`]):
//! stack frames, scopes, and variables as ADT `STPDA_ADT_VARIABLE` records.

use std::borrow::Cow;

use crate::debug::{self, Location, ObjectKind, ScopeEntry, SourcePart, StopContext, VarRecord};
use crate::expr::parse_path;
use crate::state::{State, Var, VarKind};
use crate::value::{Type, Value};

impl State<'_> {
    /// The ADT record of `var`.
    fn record(&self, id: String, name: String, var: &Var) -> VarRecord {
        let target_class = match &var.val {
            Value::Ref {
                target: Some(o), ..
            } => self.object_class(*o),
            _ => None,
        };
        let declared = match var.kind {
            VarKind::System => format!("SYST_{}", var.name),
            _ => var.ty.name(),
        };
        let actual = target_class.map_or_else(|| declared.clone(), str::to_string);
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
        VarRecord {
            id,
            name,
            declared_type_name: declared,
            actual_type_name: actual,
            kind: kind.into(),
            instantiation_kind: instantiation.into(),
            access_kind: access.into(),
            meta_type: var.val.meta_type().into(),
            parameter_kind: parameter_kind.into(),
            value: var.val.display(target_class),
            hex_value: var.val.hex(),
            read_only: var.read_only,
            technical_type: var.val.technical_type(),
            length: var.val.length(),
            table_lines: 0,
        }
    }

    /// `{O:3*\CLASS=ZCL_X}` → object index 2 and the text after the closing brace.
    fn object_id(id: &str) -> Option<(usize, &str)> {
        let rest = id.strip_prefix("{O:")?;
        let end = rest.find(['*', '!'])?;
        let n: usize = rest.get(..end)?.parse().ok()?;
        let close = rest.find('}')?;
        Some((n.checked_sub(1)?, rest.get(close + 1..)?))
    }

    /// Resolves a debugger variable id in frame index `f` (bottom-based).
    fn resolve_id(&self, f: usize, id: &str) -> Option<Cow<'_, Var>> {
        let id = id.to_ascii_uppercase();
        if let Some((obj, rest)) = State::object_id(&id) {
            let o = self.heap.get(obj)?;
            if rest.is_empty() {
                return Some(Cow::Owned(Var {
                    name: id.clone(),
                    ty: Type::Ref(o.class.clone()),
                    val: Value::Ref {
                        static_type: o.class.clone(),
                        target: Some(obj),
                    },
                    kind: VarKind::Me,
                    read_only: true,
                }));
            }
            let attr = rest.strip_prefix('-')?;
            return o
                .attrs
                .iter()
                .chain(self.statics.get(&o.class).into_iter().flatten())
                .find(|v| v.name == attr)
                .map(Cow::Borrowed);
        }
        let path = parse_path(&id)?;
        self.lookup(f, &path)
    }

    /// Attributes of the object `var` refers to, as children records.
    fn object_children(&self, var: &Var) -> Vec<VarRecord> {
        let Value::Ref {
            target: Some(obj), ..
        } = &var.val
        else {
            return Vec::new();
        };
        let Some(o) = self.heap.get(*obj) else {
            return Vec::new();
        };
        let prefix = format!("{{O:{}*\\CLASS={}}}", obj + 1, o.class);
        o.attrs
            .iter()
            .chain(self.statics.get(&o.class).into_iter().flatten())
            .map(|a| self.record(format!("{prefix}-{}", a.name), a.name.clone(), a))
            .collect()
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
        out
    }

    fn children(&self, frame: usize, parent_id: &str) -> Option<Vec<VarRecord>> {
        let f = self.frame_from_top(frame)?;
        let fr = self.frames.get(f)?;
        let vars = match parent_id {
            "@PARAMETERS" => fr.params(),
            "@LOCALS" => fr.locals(),
            id => {
                let var = self.resolve_id(f, id)?;
                return Some(self.object_children(&var));
            }
        };
        Some(
            vars.iter()
                .map(|v| self.record(v.name.clone(), v.name.clone(), v))
                .collect(),
        )
    }

    fn variables(&self, frame: usize, ids: &[String]) -> Vec<VarRecord> {
        let Some(f) = self.frame_from_top(frame) else {
            return Vec::new();
        };
        ids.iter()
            .filter_map(|id| {
                let var = self.resolve_id(f, id)?;
                let mut r = self.record(id.clone(), id.clone(), &var);
                r.kind = "unknown".into();
                r.parameter_kind = "unknown".into();
                r.instantiation_kind = "unknown".into();
                r.access_kind = "unknown".into();
                Some(r)
            })
            .collect()
    }
}
