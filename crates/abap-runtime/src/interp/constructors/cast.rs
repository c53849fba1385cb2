//! `CAST` and `?=`: the down-cast check of object references.

use crate::interp::{Exec, Interp};
use abap_data::value::{Type, Value};

impl Interp<'_, '_> {
    /// `CAST`/`?=`: an object reference keeps its object when the object's class is the
    /// target type (or below it); otherwise `CX_SY_MOVE_CAST_ERROR`.
    pub fn cast(&mut self, v: Value, t: &Type) -> Exec<Value> {
        let Type::Ref(name) = t else {
            return v.convert(t).map_err(|e| self.move_error(e, &v, t));
        };
        let Value::Ref { target, .. } = &v else {
            return Err(self.dump(
                "MOVE_CAST_ERROR",
                format!("Source type is not compatible with target type {name}"),
            ));
        };
        let Some(obj) = *target else {
            return Ok(Value::Ref {
                static_type: name.as_str().into(),
                target: None,
            });
        };
        if name != "OBJECT" {
            let program = self
                .st
                .frames
                .last()
                .map(|f| f.class.program.clone())
                .unwrap_or_default();
            let Some(def) = self.st.find_class(&program, name) else {
                return Err(self.not_supported(&format!("unknown class {name}")));
            };
            let key = self.st.object_class(obj).unwrap_or_default().to_string();
            if !self.st.is_a(&key, def) && !self.implements_via_interface(&key, def) {
                return Err(self.dump(
                    "MOVE_CAST_ERROR",
                    format!(
                        "Source type \\CLASS={} is not compatible, for the purposes of assignment, with target type {name}",
                        self.st.class_by_key(&key).map_or(key.as_str(), |c| c.name.as_str())
                    ),
                ));
            }
        }
        Ok(Value::Ref {
            static_type: name.as_str().into(),
            target: Some(obj),
        })
    }

    /// True when class `key` implements an interface that includes interface `target`.
    pub fn implements_via_interface(&self, key: &str, target: &abap_syntax::ast::ClassDef) -> bool {
        if !target.is_interface {
            return false;
        }
        let Some(c) = self.st.class_by_key(key) else {
            return false;
        };
        let mut todo: Vec<(String, String)> = self
            .st
            .lineage(c)
            .iter()
            .flat_map(|c| c.interfaces.iter().map(|i| (c.program.clone(), i.clone())))
            .collect();
        let mut seen = 0usize;
        while let Some((program, name)) = todo.pop() {
            seen += 1;
            if seen > 256 {
                return false;
            }
            let Some(i) = self.st.find_class(&program, &name) else {
                continue;
            };
            if i.key == target.key {
                return true;
            }
            todo.extend(i.interfaces.iter().map(|n| (i.program.clone(), n.clone())));
        }
        false
    }
}
