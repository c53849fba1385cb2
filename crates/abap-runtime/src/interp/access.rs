//! Offset/length access: `dobj+off(len)`, `dobj+off`, `dobj(len)` read a section of a
//! character-like or byte-like data object, and write one of a fixed-length field.
//!
//! The section of a `c` field is a `c` field, of a string a string, of `n`, `d` and `t` an `n`
//! field, of `x`/`xstring` bytes. A section outside the data object is the catchable runtime
//! error `CX_SY_RANGE_OUT_OF_BOUNDS`. Strings cannot be written through a section (ABAP
//! forbids it).

use crate::interp::{Exec, Interp};
use abap_data::value::{Type, Value};
use abap_syntax::ast::SubAccess;

/// What a section is cut from.
enum Whole {
    Chars(Vec<char>, Kind),
    Bytes(Vec<u8>, bool),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    C,
    Str,
    /// `n`, `d`, `t`: sections are numeric text.
    Numc,
}

fn whole(v: &Value) -> Option<Whole> {
    Some(match v {
        Value::C(s) => Whole::Chars(s.chars().collect(), Kind::C),
        Value::Str(s) => Whole::Chars(s.chars().collect(), Kind::Str),
        Value::N(s) | Value::D(s) | Value::T(s) => Whole::Chars(s.chars().collect(), Kind::Numc),
        Value::X(b) => Whole::Bytes(b.clone(), true),
        Value::XStr(b) => Whole::Bytes(b.clone(), false),
        _ => return None,
    })
}

impl Interp<'_, '_> {
    /// The section `(off, len)` of a data object of `total` characters or bytes.
    fn section(&mut self, a: &SubAccess, total: usize, fixed: bool) -> Exec<(usize, usize)> {
        let off = match &a.off {
            Some(e) => self.int(e)?,
            None => 0,
        };
        let len = match &a.len {
            Some(e) => Some(self.int(e)?),
            None => None,
        };
        let off = usize::try_from(off).ok().filter(|o| *o <= total);
        let len = match (off, len) {
            (Some(o), None) => Some(total - o),
            (Some(o), Some(l)) => usize::try_from(l).ok().filter(|l| o + l <= total),
            (None, _) => None,
        };
        match (off, len) {
            (Some(o), Some(l)) if !(fixed && l == 0) => Ok((o, l)),
            (off, _) => {
                let (id, what) = match (fixed, off) {
                    (true, _) => ("DATA_OFFSET_LENGTH_TOO_LARGE", "offset or length"),
                    (false, None) => ("STRING_OFFSET_TOO_LARGE", "offset"),
                    (false, Some(_)) => ("STRING_LENGTH_TOO_LARGE", "length"),
                };
                Err(self.dump(
                    id,
                    format!(
                        "Access to {} with an {what} outside its {total} characters",
                        a.base.text()
                    ),
                ))
            }
        }
    }

    /// Reads `dobj+off(len)`.
    pub fn eval_sub(&mut self, a: &SubAccess) -> Exec<Value> {
        let v = self.read(&a.base)?;
        let Some(whole) = whole(&v) else {
            return Err(self.not_supported("offset/length access to a non-character field"));
        };
        Ok(match whole {
            Whole::Chars(chars, kind) => {
                let (o, l) = self.section(a, chars.len(), kind != Kind::Str)?;
                let part: String = chars.get(o..o + l).unwrap_or(&[]).iter().collect();
                match kind {
                    Kind::C => Value::C(part.into()),
                    Kind::Str => Value::Str(part.into()),
                    Kind::Numc => Value::N(part.into()),
                }
            }
            Whole::Bytes(bytes, fixed) => {
                let (o, l) = self.section(a, bytes.len(), fixed)?;
                let part = bytes.get(o..o + l).unwrap_or(&[]).to_vec();
                if fixed {
                    Value::X(part)
                } else {
                    Value::XStr(part)
                }
            }
        })
    }

    /// Writes `val` into `dobj+off(len)` with the conversion rules of a field of the section's
    /// type and length; the rest of the field stays.
    pub fn assign_sub(&mut self, a: &SubAccess, val: Value) -> Exec<()> {
        let place = self.writable_place(&a.base)?;
        let Some(current) = self.st.value_at(&place).cloned() else {
            return Err(self.not_supported("assignment to a vanished data object"));
        };
        let new = match (whole(&current), &current) {
            (Some(Whole::Chars(mut chars, kind)), _) if kind != Kind::Str => {
                let (o, l) = self.section(a, chars.len(), true)?;
                let part_ty = if kind == Kind::C {
                    Type::C(u32::try_from(l).unwrap_or(u32::MAX))
                } else {
                    Type::N(u32::try_from(l).unwrap_or(u32::MAX))
                };
                let part = val
                    .convert(&part_ty)
                    .map_err(|e| self.move_error(e, &val, &part_ty))?;
                let text = match part {
                    Value::C(s) | Value::N(s) => s,
                    _ => return Err(self.not_supported("offset/length assignment")),
                };
                for (slot, c) in chars.iter_mut().skip(o).take(l).zip(text.chars()) {
                    *slot = c;
                }
                let text: String = chars.into_iter().collect();
                match current {
                    Value::C(_) => Value::C(text.into()),
                    Value::N(_) => Value::N(text.into()),
                    Value::D(_) => Value::D(text.into()),
                    _ => Value::T(text.into()),
                }
            }
            (Some(Whole::Bytes(mut bytes, true)), _) => {
                let (o, l) = self.section(a, bytes.len(), true)?;
                let part_ty = Type::X(u32::try_from(l).unwrap_or(u32::MAX));
                let part = val
                    .convert(&part_ty)
                    .map_err(|e| self.move_error(e, &val, &part_ty))?;
                let Value::X(part) = part else {
                    return Err(self.not_supported("offset/length assignment"));
                };
                for (slot, b) in bytes.iter_mut().skip(o).take(l).zip(part) {
                    *slot = b;
                }
                Value::X(bytes)
            }
            _ => {
                return Err(self.not_supported(&format!(
                    "offset/length write access to {} (strings and non-character fields cannot be written by section)",
                    a.base.text()
                )));
            }
        };
        if let Some(v) = self.st.value_at_mut(&place) {
            *v = new;
        }
        Ok(())
    }
}
