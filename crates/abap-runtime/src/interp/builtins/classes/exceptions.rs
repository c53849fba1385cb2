//! The methods every built-in class has from `CX_ROOT`: `constructor` (the attributes from
//! the importing parameters of the same name) and `get_text( )`/`get_longtext( )`.

use crate::interp::bound::Bound;
use crate::interp::builtins::classes::native::{NativeClass, Results};
use crate::interp::{Exec, Interp};
use abap_data::value::{ObjId, Value};
use abap_syntax::ast::{ClassDef, ParamKind};

/// Last in the registry: any built-in class without a method of its own gets these.
pub(crate) const CLASS: NativeClass = NativeClass {
    name: "exceptions",
    knows: |_| true,
    static_call: None,
    method: Some(|interp, class, me, method, bound| {
        interp.exception_method(class, me, method, bound).map(Some)
    }),
};

impl Interp<'_, '_> {
    fn exception_method(
        &mut self,
        class: &ClassDef,
        me: Option<ObjId>,
        method: &str,
        bound: &Bound,
    ) -> Exec<Results> {
        match method {
            "CONSTRUCTOR" => {
                if let Some(o) = me.and_then(|m| self.st.heap.get_mut(m)) {
                    for (name, val) in &bound.inputs {
                        if let Some(a) = o.attrs.iter_mut().find(|a| a.name == *name)
                            && let Ok(v) = val.convert(&a.ty)
                        {
                            a.val = v;
                        }
                    }
                }
                Ok(Vec::new())
            }
            "GET_TEXT" | "GET_LONGTEXT" => {
                let text = me.map(|m| self.exception_text(m)).unwrap_or_default();
                Ok(vec![(
                    "RESULT".into(),
                    ParamKind::Returning,
                    Value::Str(text.into()),
                )])
            }
            other => Err(self.not_supported(&format!("method {}=>{other}", class.name))),
        }
    }
}
