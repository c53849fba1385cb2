//! Exceptions with messages: the built-in interface `IF_T100_MESSAGE` (the attribute
//! `T100KEY` and the constant `DEFAULT_TEXTID`, both of the dictionary structure
//! `SCX_T100KEY`), which exception classes made by the class builder implement.
//!
//! The simulator has no message table (T100). The text of such an exception, unless the class
//! redefines `get_text`, is what `MESSAGE` shows for a message without text: `ID(NO)` followed
//! by the values of the attributes that `ATTR1` … `ATTR4` name.

use abap_data::ddic::t100key_type;
use abap_data::value::Value;
use abap_syntax::ast::{ClassDef, DataDecl, Expr, Visibility};

pub const T100_MESSAGE: &str = "IF_T100_MESSAGE";

/// The interface `IF_T100_MESSAGE`.
pub fn interface() -> ClassDef {
    let mut i = ClassDef::new(T100_MESSAGE, T100_MESSAGE, "");
    i.builtin = true;
    i.is_interface = true;
    let decl = |name: &str, is_static: bool, value: Option<Expr>| DataDecl {
        name: name.into(),
        ty: Ok(t100key_type()),
        value,
        is_static,
        is_constant: is_static,
        visibility: Visibility::Public,
        line: 0,
    };
    i.attributes.push(decl("T100KEY", false, None));
    // The system's generic message "&1&2&3&4" of class SY, number 530.
    let default = t100key_type().initial();
    let default = match default {
        Value::Struct(st, mut comps) => {
            if let Some(id) = comps.get_mut(0) {
                *id = Value::C("SY".into());
            }
            if let Some(no) = comps.get_mut(1) {
                *no = Value::N("530".into());
            }
            Value::Struct(st, comps)
        }
        other => other,
    };
    i.attributes
        .push(decl("DEFAULT_TEXTID", true, Some(Expr::Lit(default))));
    i
}

/// The text of an exception object whose `IF_T100_MESSAGE~T100KEY` is `key`, with
/// `attribute` giving the text of the object's attribute of a name.
pub fn text(key: &Value, attribute: impl Fn(&str) -> Option<String>) -> Option<String> {
    let Value::Struct(_, comps) = key else {
        return None;
    };
    let part = |i: usize| match comps.get(i) {
        Some(Value::C(s) | Value::N(s)) => s.trim_end().to_string(),
        _ => String::new(),
    };
    let (id, no) = (part(0), part(1));
    if id.is_empty() {
        return None;
    }
    let mut out = format!("{id}({no})");
    for i in 2..6 {
        let name = part(i).to_ascii_uppercase();
        if name.is_empty() {
            continue;
        }
        if let Some(v) = attribute(&name) {
            out.push(' ');
            out.push_str(v.trim_end());
        }
    }
    Some(out)
}
