//! ABAP's conversion rules for the elementary types beyond `c`, `string`, `i` and `p`: numeric
//! text `n`, date `d`, time `t`, bytes `x`/`xstring`, `int8`, `f` and `decfloat16/34` — as
//! source and as target of a move.

use crate::calendar::{date_text, day_number, seconds, time_text};
use crate::float::{
    dec_to_f, decfloat_template, decfloat_text, f_template, f_to_c, f_to_dec, f_to_string,
    parse_decimal, parse_f, round_significant,
};
use crate::number::Dec;
use std::sync::Arc;

use crate::place::DataRef;
use crate::text::Text;
use crate::value::{ConvError, StructType, Type, Value, pad_right, sign_last};

/// Upper-case hex digits of bytes.
pub fn hex_text(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    push_hex(&mut out, bytes.iter().copied());
    out
}

/// Appends upper-case hex digits of `bytes` (two per byte): linear, no allocation per byte,
/// so the hex of a long string costs what the string costs.
pub fn push_hex(out: &mut String, bytes: impl Iterator<Item = u8>) {
    out.reserve(2 * bytes.size_hint().0);
    for b in bytes {
        out.push(hex_digit(b >> 4));
        out.push(hex_digit(b & 0x0F));
    }
}

/// Appends the upper-case hex digits of `s` in UTF-16LE (`HEX_VALUE` of character data): an
/// ASCII text (nearly all) without decoding it, each character its two digits and `00`.
pub fn push_utf16le_hex(out: &mut String, s: &str) {
    out.reserve(s.len() * 4);
    if s.is_ascii() {
        for b in s.bytes() {
            out.push(hex_digit(b >> 4));
            out.push(hex_digit(b & 0x0F));
            out.push_str("00");
        }
    } else {
        push_hex(out, s.encode_utf16().flat_map(u16::to_le_bytes));
    }
}

/// The upper-case digit of `d` (below 16), computed rather than looked up: the compiler then
/// knows it is ASCII and appends it as one byte, without the check for a wider character
/// (a page of table rows is mostly `HEX_VALUE`s).
fn hex_digit(d: u8) -> char {
    char::from(if d < 10 { b'0' + d } else { b'A' + (d - 10) })
}

/// Bytes of hex text: the leading hex digits up to the first other character (trailing blanks
/// and everything after an invalid character are ignored); an odd last digit is the high
/// half of a byte.
pub fn parse_hex(text: &str) -> Vec<u8> {
    let digits: Vec<u8> = text
        .chars()
        .map_while(|c| match c {
            '0'..='9' | 'A'..='F' => c.to_digit(16).and_then(|d| u8::try_from(d).ok()),
            _ => None,
        })
        .collect();
    digits
        .chunks(2)
        .map(|p| match p {
            [h, l] => h << 4 | l,
            [h] => h << 4,
            _ => 0,
        })
        .collect()
}

/// Bytes as a big-endian two's-complement integer of `width` bytes: the last `width` bytes,
/// padded with zero bytes on the left.
fn bytes_to_int(bytes: &[u8], width: usize) -> i64 {
    let take = bytes.len().min(width);
    let mut raw: u64 = 0;
    for b in &bytes[bytes.len() - take..] {
        raw = raw << 8 | u64::from(*b);
    }
    let bits = 8 * width as u32;
    if bits < 64 && raw & (1 << (bits - 1)) != 0 {
        // Sign-extend a negative value of `width` bytes.
        (raw | !0u64 << bits) as i64
    } else {
        raw as i64
    }
}

/// The numeric value of a value of one of this file's types: `d` counts days, `t` seconds,
/// bytes are an integer (`i`), an invalid date or time is 0.
pub fn numeric_value(v: &Value) -> Result<Dec, ConvError> {
    Ok(match v {
        Value::N(s) => Dec::parse(s).map_err(|_| ConvError::NoNumber(s.trim_end().to_string()))?,
        Value::D(s) => Dec::int(i128::from(day_number(s).unwrap_or(0))),
        Value::T(s) => Dec::int(i128::from(seconds(s).unwrap_or(0))),
        Value::X(b) | Value::XStr(b) => Dec::int(i128::from(bytes_to_int(b, 4))),
        Value::Int8(i) => Dec::int(i128::from(*i)),
        Value::F(f) => f_to_dec(*f).map_err(|_| ConvError::Overflow)?,
        Value::DecFloat(d, _) => **d,
        Value::I(i) => Dec::int(i128::from(*i)),
        Value::P { m, dec, .. } => Dec {
            m: m.get(),
            scale: *dec,
        },
        Value::C(s) | Value::Str(s) => {
            Dec::parse(s).map_err(|_| ConvError::NoNumber(s.trim_end().to_string()))?
        }
        Value::Ref { .. } | Value::DataRef(_) | Value::Struct(..) | Value::Table(..) => {
            return Err(ConvError::Incompatible);
        }
    })
}

/// The value as `f`; text may use scientific notation.
pub fn float_value(v: &Value) -> Result<f64, ConvError> {
    match v {
        Value::F(f) => Ok(*f),
        Value::I(i) => Ok(f64::from(*i)),
        Value::Int8(i) => Ok(*i as f64),
        Value::C(s) | Value::Str(s) | Value::N(s) => {
            parse_f(s).map_err(|_| ConvError::NoNumber(s.trim_end().to_string()))
        }
        other => Ok(dec_to_f(&numeric_value(other)?)),
    }
}

/// The value as an exact decimal for a `decfloat` target; text may use scientific notation.
fn decimal_value(v: &Value) -> Result<Dec, ConvError> {
    match v {
        Value::C(s) | Value::Str(s) => {
            parse_decimal(s).map_err(|_| ConvError::NoNumber(s.trim_end().to_string()))
        }
        other => numeric_value(other),
    }
}

/// Conversion to `string` of a value of one of this file's types.
pub fn string_of(v: &Value) -> Result<String, ConvError> {
    Ok(match v {
        Value::N(s) | Value::D(s) | Value::T(s) => s.to_string(),
        Value::X(b) | Value::XStr(b) => hex_text(b),
        Value::Int8(i) => sign_last(&Dec::int(i128::from(*i)), 0),
        Value::F(f) => f_to_string(*f),
        Value::DecFloat(d, _) => decfloat_text(d),
        Value::I(_) | Value::P { .. } | Value::C(_) | Value::Str(_) => v.to_abap_string()?,
        Value::Ref { .. } | Value::DataRef(_) | Value::Struct(..) | Value::Table(..) => {
            return Err(ConvError::Incompatible);
        }
    })
}

/// The value embedded in a string template (predefined format): `d`/`t`/`n` as stored,
/// bytes in hex, numbers with a leading minus.
pub fn template_of(v: &Value) -> String {
    match v {
        Value::N(s) | Value::D(s) | Value::T(s) => s.trim_end_matches(' ').to_string(),
        Value::X(b) | Value::XStr(b) => hex_text(b),
        Value::Int8(i) => i.to_string(),
        Value::F(f) => f_template(*f),
        Value::DecFloat(d, _) => decfloat_template(d),
        other => other.template_text().unwrap_or_default(),
    }
}

/// Text of a value in a list (`WRITE`): dates and times in the user's format
/// (`DD.MM.YYYY`, `HH:MM:SS`), numbers right-aligned in their output length.
pub fn list_text(v: &Value) -> Option<String> {
    let right = |t: String, width: usize| format!("{t:>width$}");
    Some(match v {
        Value::D(s) => {
            let (y, rest) = (s.get(0..4)?, s.get(4..)?);
            format!("{}.{}.{y}", rest.get(2..4)?, rest.get(0..2)?)
        }
        Value::T(s) => format!("{}:{}:{}", s.get(0..2)?, s.get(2..4)?, s.get(4..6)?),
        Value::Int8(_) => {
            let t = string_of(v).ok()?;
            right(t.trim_end().to_string(), 20)
        }
        Value::F(f) => f_to_c(*f, 24),
        Value::DecFloat(_, digits) => {
            let width = if *digits == 16 { 24 } else { 46 };
            right(string_of(v).ok()?, width)
        }
        other => string_of(other).ok()?,
    })
}

/// Numbers into `c`: right-aligned; too long, cut on the left with `*` in front.
fn number_into_c(text: &str, n: usize) -> String {
    let count = text.chars().count();
    if count <= n {
        format!("{}{text}", " ".repeat(n - count))
    } else {
        let tail: String = text.chars().skip(count - n + 1).collect();
        format!("*{tail}")
    }
}

/// Conversion into `c LENGTH n` of a value of one of this file's types.
pub fn to_c(v: &Value, n: u32) -> Result<Value, ConvError> {
    let len = n as usize;
    Ok(Value::C(match v {
        Value::N(s) | Value::D(s) | Value::T(s) => pad_right(s, n).into(),
        Value::X(b) | Value::XStr(b) => pad_right(&hex_text(b), n).into(),
        Value::F(f) => f_to_c(*f, len).into(),
        Value::Int8(_) | Value::DecFloat(..) => number_into_c(&string_of(v)?, len).into(),
        other => return other.convert(&Type::C(n)),
    }))
}

/// A whole number for `n`, `d`, `t`, `x`: rounded half away from zero.
fn whole(v: &Value) -> Result<i128, ConvError> {
    numeric_value(v)?
        .rescale(0)
        .map_err(|_| ConvError::Overflow)
}

/// Digits right-aligned into `n` characters, zero-padded, cut on the left.
fn digits_into_n(digits: &str, n: usize) -> String {
    let count = digits.chars().count();
    if count >= n {
        digits.chars().skip(count - n).collect()
    } else {
        format!("{}{digits}", "0".repeat(n - count))
    }
}

/// Bytes into `x LENGTH n`: left-aligned, padded with zero bytes, cut on the right.
fn bytes_into_x(bytes: &[u8], n: usize) -> Vec<u8> {
    let mut out: Vec<u8> = bytes.iter().copied().take(n).collect();
    out.resize(n, 0);
    out
}

/// An integer's big-endian bytes right-aligned into `n` bytes (padded with zero bytes on the
/// left, cut on the left).
fn int_into_x(bytes: &[u8], n: usize) -> Vec<u8> {
    if bytes.len() >= n {
        bytes[bytes.len() - n..].to_vec()
    } else {
        let mut out = vec![0; n - bytes.len()];
        out.extend_from_slice(bytes);
        out
    }
}

/// Big-endian bytes of a number moved to a byte type: `int8` keeps 8 bytes, everything else
/// is first an `i` (4 bytes).
fn int_bytes(v: &Value) -> Result<Vec<u8>, ConvError> {
    match v {
        Value::Int8(i) => Ok(i.to_be_bytes().to_vec()),
        other => {
            let i = i32::try_from(whole(other)?).map_err(|_| ConvError::Overflow)?;
            Ok(i.to_be_bytes().to_vec())
        }
    }
}

/// Conversion into one of this file's types (`n d t x xstring int8 f decfloat16/34`), and
/// from bytes into `i`.
pub fn convert_elementary(v: &Value, ty: &Type) -> Result<Value, ConvError> {
    if matches!(
        v,
        Value::Ref { .. } | Value::DataRef(_) | Value::Struct(..) | Value::Table(..)
    ) {
        return Err(ConvError::Incompatible);
    }
    let text = match v {
        Value::C(s) | Value::Str(s) | Value::N(s) | Value::D(s) | Value::T(s) => Some(s.as_str()),
        _ => None,
    };
    Ok(match ty {
        Type::I => match v {
            Value::X(b) | Value::XStr(b) => {
                Value::I(i32::try_from(bytes_to_int(b, 4)).map_err(|_| ConvError::Overflow)?)
            }
            other => other.convert(ty)?,
        },
        Type::N(n) => {
            let n = *n as usize;
            match text {
                // Text: its digits only.
                Some(t) => {
                    let digits: String = t.chars().filter(char::is_ascii_digit).collect();
                    Value::N(digits_into_n(&digits, n).into())
                }
                // Numbers and bytes: the absolute value of the whole number.
                None => Value::N(digits_into_n(&whole(v)?.unsigned_abs().to_string(), n).into()),
            }
        }
        Type::D => match (v, text) {
            (Value::T(_), _) => return Err(ConvError::Incompatible),
            (_, Some(t)) => Value::D(pad_right(t, 8).into()),
            _ => {
                let day = i64::try_from(whole(v)?).unwrap_or(-1);
                Value::D(date_text(day).into())
            }
        },
        Type::T => match (v, text) {
            (Value::D(_), _) => return Err(ConvError::Incompatible),
            (_, Some(t)) => Value::T(pad_right(t, 6).into()),
            _ => {
                let secs = whole(v)?.rem_euclid(i128::from(crate::calendar::DAY_SECONDS));
                Value::T(time_text(i64::try_from(secs).unwrap_or(0)).into())
            }
        },
        Type::X(n) => {
            let n = *n as usize;
            match v {
                Value::C(s) | Value::Str(s) => Value::X(bytes_into_x(&parse_hex(s), n)),
                Value::X(b) | Value::XStr(b) => Value::X(bytes_into_x(b, n)),
                other => Value::X(int_into_x(&int_bytes(other)?, n)),
            }
        }
        Type::XString => match v {
            Value::C(s) | Value::Str(s) => Value::XStr(parse_hex(s.trim_end_matches(' '))),
            Value::X(b) | Value::XStr(b) => Value::XStr(b.clone()),
            other => Value::XStr(int_bytes(other)?),
        },
        Type::Int8 => match v {
            Value::Int8(i) => Value::Int8(*i),
            Value::X(b) | Value::XStr(b) => Value::Int8(bytes_to_int(b, 8)),
            other => Value::Int8(i64::try_from(whole(other)?).map_err(|_| ConvError::Overflow)?),
        },
        Type::F => Value::F(float_value(v)?),
        Type::DecFloat16 | Type::DecFloat34 => {
            let digits = if *ty == Type::DecFloat16 { 16 } else { 34 };
            let d = decimal_value(v)?;
            Value::DecFloat(
                Box::new(round_significant(d, digits).map_err(|_| ConvError::Overflow)?),
                digits,
            )
        }
        other => v.convert(other)?,
    })
}

/// The components of the flat character-like structure `st` cast from `chars` in turn.
fn fill_charlike(st: &Arc<StructType>, chars: &mut impl Iterator<Item = char>) -> Value {
    let mut comps = Vec::with_capacity(st.comps.len());
    for (_, t) in &st.comps {
        let mut take = |n: usize| -> Text { chars.by_ref().take(n).collect::<String>().into() };
        comps.push(match t {
            Type::C(n) => Value::C(take(*n as usize)),
            Type::N(n) => Value::N(take(*n as usize)),
            Type::D => Value::D(take(8)),
            Type::T => Value::T(take(6)),
            Type::Struct(inner) => fill_charlike(inner, chars),
            other => other.initial(),
        });
    }
    Value::Struct(st.clone(), comps.into())
}

impl Value {
    /// The numeric value (text is parsed as a number).
    pub fn to_dec(&self) -> Result<Dec, ConvError> {
        match self {
            Value::I(i) => Ok(Dec::int(i128::from(*i))),
            Value::P { m, dec, .. } => Ok(Dec {
                m: m.get(),
                scale: *dec,
            }),
            Value::C(s) | Value::Str(s) => {
                Dec::parse(s).map_err(|_| ConvError::NoNumber(s.trim_end().to_string()))
            }
            Value::Ref { .. } | Value::DataRef(_) | Value::Struct(..) | Value::Table(..) => {
                Err(ConvError::Incompatible)
            }
            other => numeric_value(other),
        }
    }

    /// Conversion to `string` (ABAP `CONV string( )`): numbers with a trailing sign column,
    /// `c` without trailing blanks.
    pub fn to_abap_string(&self) -> Result<String, ConvError> {
        match self {
            Value::I(i) => Ok(sign_last(&Dec::int(i128::from(*i)), 0)),
            Value::P { m, dec, .. } => Ok(sign_last(
                &Dec {
                    m: m.get(),
                    scale: *dec,
                },
                *dec,
            )),
            Value::C(s) => Ok(s.trim_end_matches(' ').to_string()),
            Value::Str(s) => Ok(s.to_string()),
            Value::Ref { .. } | Value::DataRef(_) | Value::Table(..) => {
                Err(ConvError::Incompatible)
            }
            // A flat structure converts as its components side by side (charlike view).
            Value::Struct(_, c) => {
                let mut out = String::new();
                for v in c {
                    match v {
                        Value::C(s) => out.push_str(s),
                        other => out.push_str(&other.to_abap_string()?),
                    }
                }
                Ok(out)
            }
            other => string_of(other),
        }
    }

    /// Text of the value embedded in a string template: `-5`, `12.50`, `c` without trailing
    /// blanks.
    pub fn template_text(&self) -> Result<String, ConvError> {
        match self {
            Value::I(i) => Ok(i.to_string()),
            Value::P { m, dec, .. } => Ok(Dec {
                m: m.get(),
                scale: *dec,
            }
            .format(*dec)),
            Value::C(_) | Value::Str(_) => self.to_abap_string(),
            Value::Ref { .. } | Value::DataRef(_) | Value::Struct(..) | Value::Table(..) => {
                Err(ConvError::Incompatible)
            }
            other => Ok(template_of(other)),
        }
    }

    /// Converts to `ty` following ABAP's conversion rules.
    pub fn convert(&self, ty: &Type) -> Result<Value, ConvError> {
        match (ty, self) {
            (Type::Struct(st), Value::Struct(_, comps)) => {
                if st.comps.len() != comps.len() {
                    return Err(ConvError::Incompatible);
                }
                let mut out = Vec::with_capacity(comps.len());
                for ((_, t), v) in st.comps.iter().zip(comps) {
                    out.push(v.convert(t)?);
                }
                return Ok(Value::Struct(st.clone(), out.into()));
            }
            (Type::Table(tt), Value::Table(_, rows)) => {
                let mut out = Vec::with_capacity(rows.len());
                for r in rows.iter() {
                    out.push(r.convert(&tt.line)?);
                }
                return Ok(Value::Table(tt.clone(), out.into()));
            }
            (Type::Struct(_) | Type::Table(_), _) | (_, Value::Struct(..) | Value::Table(..))
                if *ty != Type::Any =>
            {
                // Character-like views of flat structures.
                return match (ty, self) {
                    // As one c field: a string does not take its trailing blanks.
                    (Type::String, Value::Struct(..)) if self.type_of().is_charlike() => {
                        let text = self.to_abap_string()?;
                        Ok(Value::Str(text.trim_end_matches(' ').into()))
                    }
                    (Type::C(_) | Type::String, Value::Struct(..)) => {
                        Value::Str(self.to_abap_string()?.into()).convert(ty)
                    }
                    // A flat character-like structure takes text as one c field of its
                    // length: left-aligned, truncated or padded with blanks.
                    (Type::Struct(st), Value::C(s) | Value::Str(s)) if ty.is_charlike() => {
                        let len = ty.char_len().ok_or(ConvError::Incompatible)?;
                        let mut chars = s.chars().chain(std::iter::repeat(' ')).take(len);
                        Ok(fill_charlike(st, &mut chars))
                    }
                    _ => Err(ConvError::Incompatible),
                };
            }
            _ => {}
        }
        match ty {
            Type::Any | Type::Named(_) | Type::Like(_) | Type::LineOf(_) => Ok(self.clone()),
            Type::Struct(_) | Type::Table(_) => Err(ConvError::Incompatible),
            Type::I => {
                if let Value::I(i) = self {
                    return Ok(Value::I(*i));
                }
                if matches!(self, Value::X(_) | Value::XStr(_)) {
                    return convert_elementary(self, ty);
                }
                let m = self.to_dec()?.rescale(0).map_err(|_| ConvError::Overflow)?;
                i32::try_from(m)
                    .map(Value::I)
                    .map_err(|_| ConvError::Overflow)
            }
            Type::P { len, dec } => Value::p_from_dec(self.to_dec()?, *len, *dec),
            Type::String => self.to_abap_string().map(|s| Value::Str(s.into())),
            Type::C(n) => match self {
                Value::C(s) | Value::Str(s) => Ok(Value::C(pad_right(s, *n).into())),
                Value::I(_) | Value::P { .. } => {
                    let text = self.to_abap_string()?;
                    let count = text.chars().count();
                    let n = *n as usize;
                    if count <= n {
                        Ok(Value::C(format!("{}{text}", " ".repeat(n - count)).into()))
                    } else {
                        let tail: String = text.chars().skip(count - n).collect();
                        let rest: String = tail.chars().skip(1).collect();
                        Ok(Value::C(format!("*{rest}").into()))
                    }
                }
                Value::Ref { .. } | Value::DataRef(_) | Value::Struct(..) | Value::Table(..) => {
                    Err(ConvError::Incompatible)
                }
                other => to_c(other, *n),
            },
            Type::DataRef(t) => match self {
                Value::DataRef(r) => Ok(Value::DataRef(Box::new(DataRef {
                    static_type: (**t).clone(),
                    target: r.target.clone(),
                }))),
                _ => Err(ConvError::Incompatible),
            },
            Type::N(_)
            | Type::D
            | Type::T
            | Type::X(_)
            | Type::XString
            | Type::Int8
            | Type::F
            | Type::DecFloat16
            | Type::DecFloat34 => convert_elementary(self, ty),
            Type::Ref(t) => match self {
                Value::Ref { target, .. } => Ok(Value::Ref {
                    static_type: t.as_str().into(),
                    target: *target,
                }),
                _ => Err(ConvError::Incompatible),
            },
        }
    }

    /// `VALUE` as the ADT debugger shows it (never trimmed).
    pub fn display(&self, ref_class: Option<&str>) -> String {
        let mut out = String::new();
        self.push_display(&mut out, ref_class);
        out
    }

    /// [`Value::display`] appended to `out`: numbers and texts without a string of their own
    /// (the debugger shows every cell of a table page).
    pub fn push_display(&self, out: &mut String, ref_class: Option<&str>) {
        match self {
            Value::I(i) => Dec::int(i128::from(*i)).push_sign_last(out, 0),
            Value::P { m, dec, .. } => Dec {
                m: m.get(),
                scale: *dec,
            }
            .push_sign_last(out, *dec),
            Value::C(s) | Value::Str(s) | Value::N(s) | Value::D(s) | Value::T(s) => {
                out.push_str(s);
            }
            Value::X(b) | Value::XStr(b) => push_hex(out, b.iter().copied()),
            Value::Int8(_) | Value::F(_) | Value::DecFloat(..) => {
                out.push_str(&string_of(self).unwrap_or_default());
            }
            Value::Ref { target, .. } => match (target, ref_class) {
                (Some(id), Some(class)) if class.starts_with('\\') => {
                    out.push_str(&format!("{{O:{}*{class}}}", id + 1));
                }
                (Some(id), Some(class)) => {
                    out.push_str(&format!("{{O:{}*\\CLASS={class}}}", id + 1));
                }
                _ => out.push_str("{O:initial}"),
            },
            // The debugger view names the target (abap-runtime's interp/refs.rs); only the initial case is known
            // here.
            Value::DataRef(_) => out.push_str("{A:initial}"),
            Value::Struct(..) => out.push_str(&self.technical_type()),
            Value::Table(t, rows) => {
                let cols = match &t.line {
                    Type::Struct(s) => s.comps.len(),
                    _ => 1,
                };
                out.push_str(&format!(
                    "[{}x{}({})]{}{}",
                    rows.len(),
                    cols,
                    t.line.byte_len(),
                    if rows.is_empty() { "Initial " } else { "" },
                    t.kind_text()
                ));
            }
        }
    }

    /// `HEX_VALUE`, appended to `out`: little-endian for `i`, packed BCD for `p`, UTF-16LE for
    /// characters.
    pub fn push_hex(&self, out: &mut String) {
        use push_hex;
        match self {
            Value::I(i) => push_hex(out, i.to_le_bytes().into_iter()),
            Value::P { m, len, .. } => {
                let m = m.get();
                let mut buf = [0; 39];
                let digits = crate::number::decimal_digits(m.unsigned_abs(), &mut buf);
                let width = (2 * *len - 1) as usize;
                if digits.len() >= width {
                    out.push_str(&digits[digits.len() - width..]);
                } else {
                    out.extend(std::iter::repeat_n('0', width - digits.len()));
                    out.push_str(digits);
                }
                out.push(if m < 0 { 'D' } else { 'C' });
            }
            Value::C(s) | Value::Str(s) | Value::N(s) | Value::D(s) | Value::T(s) => {
                push_utf16le_hex(out, s);
            }
            Value::X(b) | Value::XStr(b) => push_hex(out, b.iter().copied()),
            Value::Int8(i) => push_hex(out, i.to_le_bytes().into_iter()),
            Value::F(f) => push_hex(out, f.to_le_bytes().into_iter()),
            // The IEEE 754 decimal encoding is not modelled.
            Value::DecFloat(..) => {}
            Value::Ref { .. } | Value::DataRef(_) | Value::Table(..) => {}
            Value::Struct(t, c) => {
                if !Type::Struct(t.clone()).is_deep() {
                    for v in c {
                        v.push_hex(out);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
/// The `Value` methods above: moves to `i`, `p`, `c` and `string`, template texts, the
/// debugger's `VALUE` and `HEX_VALUE`.
mod value_tests {
    use super::*;

    fn hex(v: &Value) -> String {
        let mut out = String::new();
        v.push_hex(&mut out);
        out
    }

    /// `HEX_VALUE` and `VALUE` of a `p` as they were written first, on `to_string` and
    /// [`Dec::format`]: the reference.
    fn p_texts_by_strings(m: i128, len: u32, dec: u32) -> (String, String) {
        let digits = m.unsigned_abs().to_string();
        let width = (2 * len - 1) as usize;
        let mut hex = if digits.len() >= width {
            digits[digits.len() - width..].to_string()
        } else {
            format!("{}{digits}", "0".repeat(width - digits.len()))
        };
        hex.push(if m < 0 { 'D' } else { 'C' });
        let text = Dec { m, scale: dec }.format(dec);
        let shown = match text.strip_prefix('-') {
            Some(abs) => format!("{abs}-"),
            None => format!("{text} "),
        };
        (hex, shown)
    }

    proptest::proptest! {
        #[test]
        fn p_texts_are_the_strings_they_were(
            narrow in proptest::prelude::any::<i64>(),
            wide in proptest::prelude::any::<i128>(),
            len in 1u32..=16,
            dec in 0u32..=14,
        ) {
            for m in [i128::from(narrow), wide, i128::from(narrow % 1000)] {
                let v = Value::P { m: m.into(), len, dec };
                let (want_hex, want_shown) = p_texts_by_strings(m, len, dec);
                proptest::prop_assert_eq!(hex(&v), want_hex);
                let mut shown = String::from("x");
                v.push_display(&mut shown, None);
                proptest::prop_assert_eq!(&shown[1..], want_shown.as_str());
                proptest::prop_assert_eq!(v.display(None), want_shown);
            }
        }
    }

    #[test]
    fn deep_structure_length_counts_eight_bytes_per_deep_component_unpadded() {
        let st = Type::Struct(Arc::new(StructType {
            name: "TY_ROW".into(),
            comps: vec![("ID".into(), Type::I), ("NAME".into(), Type::String)],
        }));
        assert_eq!(st.byte_len(), 12);
    }

    fn p(s: &str, len: u32, dec: u32) -> Value {
        Value::Str(s.into()).convert(&Type::P { len, dec }).unwrap()
    }

    #[test]
    fn to_i_rounds_and_checks_range() {
        assert_eq!(Value::Str("3.5".into()).convert(&Type::I), Ok(Value::I(4)));
        assert_eq!(
            Value::Str("-3.5".into()).convert(&Type::I),
            Ok(Value::I(-4))
        );
        assert_eq!(Value::C(" 42 ".into()).convert(&Type::I), Ok(Value::I(42)));
        assert_eq!(Value::C("   ".into()).convert(&Type::I), Ok(Value::I(0)));
        assert_eq!(p("2.50", 8, 2).convert(&Type::I), Ok(Value::I(3)));
        assert_eq!(
            Value::Str("2147483648".into()).convert(&Type::I),
            Err(ConvError::Overflow)
        );
        assert_eq!(
            Value::C("A001".into()).convert(&Type::I),
            Err(ConvError::NoNumber("A001".into()))
        );
    }

    #[test]
    fn to_p_rounds_and_checks_digits() {
        assert_eq!(
            p("12.50", 8, 2),
            Value::P {
                m: 1250.into(),
                len: 8,
                dec: 2
            }
        );
        assert_eq!(
            p("1.005", 8, 2),
            Value::P {
                m: 101.into(),
                len: 8,
                dec: 2
            }
        );
        assert_eq!(
            p("-1.005", 8, 2),
            Value::P {
                m: (-101).into(),
                len: 8,
                dec: 2
            }
        );
        assert_eq!(
            Value::I(7).convert(&Type::P { len: 2, dec: 0 }),
            Ok(Value::P {
                m: 7.into(),
                len: 2,
                dec: 0
            })
        );
        assert_eq!(
            Value::I(1000).convert(&Type::P { len: 2, dec: 0 }),
            Err(ConvError::Overflow)
        );
        assert_eq!(
            Value::I(10).convert(&Type::P { len: 2, dec: 2 }),
            Err(ConvError::Overflow)
        );
    }

    #[test]
    fn to_c_and_string() {
        assert_eq!(
            Value::C("A001".into()).convert(&Type::C(6)),
            Ok(Value::C("A001  ".into()))
        );
        assert_eq!(
            Value::Str("ABCDEFG".into()).convert(&Type::C(3)),
            Ok(Value::C("ABC".into()))
        );
        assert_eq!(
            Value::I(123).convert(&Type::C(6)),
            Ok(Value::C("  123 ".into()))
        );
        assert_eq!(
            Value::I(-123).convert(&Type::C(4)),
            Ok(Value::C("123-".into()))
        );
        assert_eq!(
            Value::I(123456).convert(&Type::C(4)),
            Ok(Value::C("*56 ".into()))
        );
        assert_eq!(
            Value::C("ab  ".into()).convert(&Type::String),
            Ok(Value::Str("ab".into()))
        );
        assert_eq!(
            Value::I(-5).convert(&Type::String),
            Ok(Value::Str("5-".into()))
        );
        assert_eq!(
            p("12.5", 8, 2).convert(&Type::String),
            Ok(Value::Str("12.50 ".into()))
        );
    }

    #[test]
    fn template_texts() {
        assert_eq!(Value::I(-5).template_text().unwrap(), "-5");
        assert_eq!(Value::I(60).template_text().unwrap(), "60");
        assert_eq!(p("12.5", 8, 2).template_text().unwrap(), "12.50");
        assert_eq!(p("-0.5", 8, 2).template_text().unwrap(), "-0.50");
        assert_eq!(
            Value::C("A001      ".into()).template_text().unwrap(),
            "A001"
        );
    }

    #[test]
    fn debugger_display_i() {
        let v = Value::I(15);
        assert_eq!(v.display(None), "15 ");
        assert_eq!(hex(&v), "0F000000");
        assert_eq!(
            (&*v.technical_type(), v.length(), v.meta_type()),
            ("I", 4, "simple")
        );
        let v = Value::I(-42);
        assert_eq!(v.display(None), "42-");
        assert_eq!(hex(&v), "D6FFFFFF");
        assert_eq!(Value::I(0).display(None), "0 ");
    }

    #[test]
    fn debugger_display_p() {
        let v = p("12.5", 8, 2);
        assert_eq!(v.display(None), "12.50 ");
        assert_eq!(hex(&v), "000000000001250C");
        assert_eq!((&*v.technical_type(), v.length()), ("P", 8));
        let v = p("-123.45", 8, 2);
        assert_eq!(v.display(None), "123.45-");
        assert_eq!(hex(&v), "000000000012345D");
        assert_eq!(hex(&p("12.5", 5, 2)), "000001250C");
        assert_eq!(p("0", 8, 4).display(None), "0.0000 ");
    }

    #[test]
    fn debugger_display_c_and_string() {
        let v = Value::C("A001".into()).convert(&Type::C(10)).unwrap();
        assert_eq!(v.display(None), "A001      ");
        assert_eq!(hex(&v), "4100300030003100200020002000200020002000");
        assert_eq!(
            (&*v.technical_type(), v.length(), v.meta_type()),
            ("C", 10, "simple")
        );
        let v = Value::Str("CV".into());
        assert_eq!(v.display(None), "CV");
        assert_eq!(hex(&v), "43005600");
        assert_eq!(
            (&*v.technical_type(), v.length(), v.meta_type()),
            ("CString", 2, "string")
        );
    }

    #[test]
    fn debugger_display_ref() {
        let v = Value::Ref {
            static_type: "ZCL_A".into(),
            target: Some(0),
        };
        assert_eq!(v.display(Some("ZCL_A")), "{O:1*\\CLASS=ZCL_A}");
        assert_eq!(v.technical_type(), "Ref to ZCL_A");
        assert_eq!(v.meta_type(), "objectref");
        let v = Value::Ref {
            static_type: "ZCL_A".into(),
            target: None,
        };
        assert_eq!(v.display(None), "{O:initial}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn hex_text_is_two_upper_case_digits_per_byte(
            bytes in proptest::collection::vec(any::<u8>(), 0..200)
        ) {
            let want: String = bytes.iter().map(|b| format!("{b:02X}")).collect();
            let mut out = String::from("x");
            push_hex(&mut out, bytes.iter().copied());
            prop_assert_eq!(&out[1..], want.as_str());
            prop_assert_eq!(hex_text(&bytes), want);
        }

        #[test]
        fn utf16le_hex_is_the_hex_of_the_utf16le_bytes(s in "(\\PC|[\u{0}-\u{7f}]){0,40}") {
            let bytes: Vec<u8> = s.encode_utf16().flat_map(u16::to_le_bytes).collect();
            let mut out = String::from("x");
            push_utf16le_hex(&mut out, &s);
            let want = hex_text(&bytes);
            prop_assert_eq!(&out[1..], want.as_str());
        }
    }

    fn conv(v: Value, t: Type) -> Value {
        convert_elementary(&v, &t).unwrap()
    }

    #[test]
    fn into_n() {
        assert_eq!(
            conv(Value::C("a1b2 3".into()), Type::N(5)),
            Value::N("00123".into())
        );
        assert_eq!(conv(Value::I(-42), Type::N(4)), Value::N("0042".into()));
        assert_eq!(conv(Value::I(123_456), Type::N(3)), Value::N("456".into()));
        assert_eq!(
            conv(Value::Str("".into()), Type::N(2)),
            Value::N("00".into())
        );
    }

    #[test]
    fn dates_and_times() {
        assert_eq!(conv(Value::I(1), Type::D), Value::D("00010102".into()));
        assert_eq!(conv(Value::I(0), Type::D), Value::D("00000000".into()));
        assert_eq!(
            conv(Value::I(730_121), Type::D),
            Value::D("20000101".into())
        );
        assert_eq!(
            conv(Value::C("2024".into()), Type::D),
            Value::D("2024    ".into())
        );
        assert_eq!(conv(Value::I(3_661), Type::T), Value::T("010101".into()));
        assert_eq!(conv(Value::I(-1), Type::T), Value::T("235959".into()));
        assert_eq!(
            Value::D("20000101".into()).convert(&Type::I),
            Ok(Value::I(730_121))
        );
        assert_eq!(
            Value::D("2000ABCD".into()).convert(&Type::I),
            Ok(Value::I(0))
        );
        assert_eq!(
            Value::T("010101".into()).convert(&Type::I),
            Ok(Value::I(3_661))
        );
        assert_eq!(
            convert_elementary(&Value::T("010101".into()), &Type::D),
            Err(ConvError::Incompatible)
        );
    }

    #[test]
    fn bytes() {
        assert_eq!(
            conv(Value::C("FF01".into()), Type::X(3)),
            Value::X(vec![0xFF, 1, 0])
        );
        assert_eq!(
            conv(Value::C("ABZ9".into()), Type::X(2)),
            Value::X(vec![0xAB, 0])
        );
        assert_eq!(
            conv(Value::Str("F".into()), Type::XString),
            Value::XStr(vec![0xF0])
        );
        assert_eq!(conv(Value::I(255), Type::X(2)), Value::X(vec![0, 0xFF]));
        assert_eq!(conv(Value::I(-1), Type::X(4)), Value::X(vec![0xFF; 4]));
        assert_eq!(
            conv(Value::I(-1), Type::X(6)),
            Value::X(vec![0, 0, 0xFF, 0xFF, 0xFF, 0xFF])
        );
        assert_eq!(Value::X(vec![0xFF]).convert(&Type::I), Ok(Value::I(255)));
        assert_eq!(Value::X(vec![0xFF; 4]).convert(&Type::I), Ok(Value::I(-1)));
        assert_eq!(
            Value::X(vec![0xAB, 0x01]).convert(&Type::String),
            Ok(Value::Str("AB01".into()))
        );
        assert_eq!(
            Value::X(vec![0xAB]).convert(&Type::C(4)),
            Ok(Value::C("AB  ".into()))
        );
    }

    #[test]
    fn int8_and_float() {
        assert_eq!(
            conv(Value::Str("9223372036854775807".into()), Type::Int8),
            Value::Int8(i64::MAX)
        );
        assert_eq!(
            convert_elementary(&Value::Str("9223372036854775808".into()), &Type::Int8),
            Err(ConvError::Overflow)
        );
        assert_eq!(
            Value::Int8(3_000_000_000).convert(&Type::I),
            Err(ConvError::Overflow)
        );
        assert_eq!(conv(Value::C("1.5E2".into()), Type::F), Value::F(150.0));
        assert_eq!(Value::F(2.5).convert(&Type::I), Ok(Value::I(3)));
        assert_eq!(Value::F(-2.5).convert(&Type::I), Ok(Value::I(-3)));
        assert_eq!(
            Value::F(12.5).convert(&Type::String),
            Ok(Value::Str("1.2500000000000000E+01".into()))
        );
        assert_eq!(
            Value::Int8(-5).convert(&Type::C(4)),
            Ok(Value::C("  5-".into()))
        );
    }

    #[test]
    fn decfloat() {
        let v = conv(Value::C("1.50".into()), Type::DecFloat34);
        assert_eq!(v.to_abap_string(), Ok("1.50".into()));
        assert_eq!(v.template_text(), Ok("1.5".into()));
        let v = conv(Value::Str("-1E3".into()), Type::DecFloat16);
        assert_eq!(v.to_abap_string(), Ok("-1000".into()));
    }
}
