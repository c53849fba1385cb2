//! ABAP values, with the facts a value knows of itself (its type, whether it is initial, its
//! length and technical type). The conversion rules between values and the text forms a value
//! has (string conversion, template embedding, debugger display and hex) are `conversion.rs`'s;
//! the types are `types.rs`'s, re-exported here.
//!
//! Every value carries its full elementary type (a `c` value knows its length, a `p` value its
//! length and decimals) so assignment, calculation type and the debugger all see the same
//! facts.

use std::borrow::Cow;
use std::sync::Arc;

use crate::number::{Dec, pow10};
use crate::place::DataRef;
pub use crate::text::Text;
pub use crate::types::{
    ClassName, MAX_C_LENGTH, MAX_X_LENGTH, ObjId, SecondaryKey, StructType, TableKey, TableKind,
    TableType, Type, named_type,
};

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    I(i32),
    /// Mantissa scaled by 10^dec.
    P {
        m: Mant,
        len: u32,
        dec: u32,
    },
    /// Exactly `len` characters (blank padded).
    C(Text),
    Str(Text),
    /// `n`: exactly `len` characters (digits).
    N(Text),
    /// `d`: 8 characters (`YYYYMMDD` when valid).
    D(Text),
    /// `t`: 6 characters (`HHMMSS` when valid).
    T(Text),
    /// `x`: exactly `len` bytes.
    X(Vec<u8>),
    XStr(Vec<u8>),
    Int8(i64),
    F(f64),
    /// `decfloat16` / `decfloat34` (the number of significant digits: 16 or 34); boxed, as
    /// its `i128` would make every value 16-byte aligned.
    DecFloat(Box<Dec>, u32),
    Ref {
        static_type: ClassName,
        target: Option<ObjId>,
    },
    /// A data reference (`REF TO data|i|ty`), see abap-runtime's `interp/refs.rs`.
    DataRef(Box<DataRef>),
    /// Component values in the order of the type's components (a structure never changes
    /// its number of components: a boxed slice, one word smaller than a `Vec`).
    Struct(Arc<StructType>, Box<[Value]>),
    /// Rows of an internal table. Boxed on purpose: a `Vec` inline would make every value
    /// 40 bytes, and tables are far fewer than values.
    #[allow(clippy::box_collection)]
    Table(Arc<TableType>, Box<Vec<Value>>),
}

/// The mantissa of a `p` value: an `i128` kept as two 8-byte halves. An `i128` field would
/// make every [`Value`] 16-byte aligned (48 bytes instead of 32), and a table of a million
/// ten-column rows holds ten million values.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mant {
    lo: u64,
    hi: i64,
}

impl Mant {
    pub const fn new(v: i128) -> Mant {
        Mant {
            lo: v as u64,
            hi: (v >> 64) as i64,
        }
    }

    pub const fn get(self) -> i128 {
        ((self.hi as i128) << 64) | self.lo as i128
    }
}

impl From<i128> for Mant {
    fn from(v: i128) -> Mant {
        Mant::new(v)
    }
}

impl std::fmt::Debug for Mant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.get())
    }
}

/// Why a conversion failed (mapped to ABAP runtime errors by the interpreter).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConvError {
    /// `CONVT_NO_NUMBER`: text is not a number.
    NoNumber(String),
    /// `CONVT_OVERFLOW`: the value does not fit the target.
    Overflow,
    /// Reference ↔ data, or incompatible references.
    Incompatible,
}

impl Type {
    pub fn initial(&self) -> Value {
        match self {
            Type::I | Type::Any | Type::Named(_) | Type::Like(_) | Type::LineOf(_) => Value::I(0),
            Type::Struct(s) => Value::Struct(
                s.clone(),
                s.comps.iter().map(|(_, t)| t.initial()).collect(),
            ),
            Type::Table(t) => Value::Table(t.clone(), Default::default()),
            Type::String => Value::Str(String::new().into()),
            Type::C(n) => Value::C(" ".repeat(*n as usize).into()),
            Type::P { len, dec } => Value::P {
                m: Mant::new(0),
                len: *len,
                dec: *dec,
            },
            Type::Ref(t) => Value::Ref {
                static_type: t.as_str().into(),
                target: None,
            },
            Type::DataRef(t) => Value::DataRef(Box::new(DataRef {
                static_type: (**t).clone(),
                target: None,
            })),
            Type::N(n) => Value::N("0".repeat(*n as usize).into()),
            Type::D => Value::D("00000000".into()),
            Type::T => Value::T("000000".into()),
            Type::X(n) => Value::X(vec![0; *n as usize]),
            Type::XString => Value::XStr(Vec::new()),
            Type::Int8 => Value::Int8(0),
            Type::F => Value::F(0.0),
            Type::DecFloat16 => Value::DecFloat(Box::new(Dec::int(0)), 16),
            Type::DecFloat34 => Value::DecFloat(Box::new(Dec::int(0)), 34),
        }
    }
}

fn p_fits(m: i128, len: u32) -> bool {
    match pow10(2 * len - 1) {
        Some(limit) => m.unsigned_abs() < limit.unsigned_abs(),
        None => true,
    }
}

pub fn pad_right(s: &str, n: u32) -> String {
    let n = n as usize;
    let mut out: String = s.chars().take(n).collect();
    let have = out.chars().count();
    out.extend(std::iter::repeat_n(' ', n - have));
    out
}

/// Number text with a trailing sign column: `15 `, `42-`, `12.50 `.
pub fn sign_last(d: &Dec, decimals: u32) -> String {
    let mut out = String::new();
    d.push_sign_last(&mut out, decimals);
    out
}

impl Value {
    pub fn type_of(&self) -> Type {
        match self {
            Value::I(_) => Type::I,
            Value::P { len, dec, .. } => Type::P {
                len: *len,
                dec: *dec,
            },
            Value::C(s) => Type::C(u32::try_from(s.chars().count()).unwrap_or(u32::MAX)),
            Value::Str(_) => Type::String,
            Value::Ref { static_type, .. } => Type::Ref(static_type.to_string()),
            Value::DataRef(r) => Type::DataRef(Box::new(r.static_type.clone())),
            Value::Struct(t, _) => Type::Struct(t.clone()),
            Value::Table(t, _) => Type::Table(t.clone()),
            Value::N(s) => Type::N(u32::try_from(s.chars().count()).unwrap_or(u32::MAX)),
            Value::D(_) => Type::D,
            Value::T(_) => Type::T,
            Value::X(b) => Type::X(u32::try_from(b.len()).unwrap_or(u32::MAX)),
            Value::XStr(_) => Type::XString,
            Value::Int8(_) => Type::Int8,
            Value::F(_) => Type::F,
            Value::DecFloat(_, 16) => Type::DecFloat16,
            Value::DecFloat(..) => Type::DecFloat34,
        }
    }

    /// A `c` value of the literal's own length (`''` is one blank, as in ABAP).
    pub fn c_literal(s: &str) -> Value {
        if s.is_empty() {
            Value::C(" ".into())
        } else {
            Value::C(s.into())
        }
    }

    pub fn is_initial(&self) -> bool {
        match self {
            Value::I(i) => *i == 0,
            Value::P { m, .. } => m.get() == 0,
            Value::C(s) => s.chars().all(|c| c == ' '),
            Value::Str(s) => s.is_empty(),
            Value::Ref { target, .. } => target.is_none(),
            Value::DataRef(r) => r.target.is_none(),
            Value::Struct(_, c) => c.iter().all(Value::is_initial),
            Value::Table(_, rows) => rows.is_empty(),
            Value::N(s) => s.chars().all(|c| c == '0'),
            Value::D(s) | Value::T(s) => s.chars().all(|c| c == '0'),
            Value::X(b) => b.iter().all(|b| *b == 0),
            Value::XStr(b) => b.is_empty(),
            Value::Int8(i) => *i == 0,
            Value::F(f) => *f == 0.0,
            Value::DecFloat(d, _) => d.is_zero(),
        }
    }

    pub fn p_from_dec(d: Dec, len: u32, dec: u32) -> Result<Value, ConvError> {
        let m = d.rescale(dec).map_err(|_| ConvError::Overflow)?;
        if !p_fits(m, len) {
            return Err(ConvError::Overflow);
        }
        Ok(Value::P {
            m: m.into(),
            len,
            dec,
        })
    }

    /// `TECHNICAL_TYPE`.
    pub fn technical_type(&self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            Value::I(_) => "I",
            Value::P { .. } => "P",
            Value::C(_) => "C",
            Value::Str(_) => "CString",
            Value::N(_) => "N",
            Value::D(_) => "D",
            Value::T(_) => "T",
            Value::X(_) => "X",
            Value::XStr(_) => "XString",
            Value::Int8(_) => "INT8",
            Value::F(_) => "F",
            Value::DecFloat(_, 16) => "DECFLOAT16",
            Value::DecFloat(..) => "DECFLOAT34",
            Value::Ref { static_type, .. } => return format!("Ref to {static_type}").into(),
            Value::DataRef(r) => return format!("Ref to {}", r.type_name()).into(),
            Value::Struct(t, _) => {
                let ty = Type::Struct(t.clone());
                if ty.is_deep() {
                    "Structure: deep"
                } else if ty.is_charlike() {
                    "Structure: flat, charlike"
                } else {
                    "Structure: flat, not charlike"
                }
            }
            Value::Table(t, _) => t.kind_text(),
        })
    }

    /// `META_TYPE`.
    pub fn meta_type(&self) -> &'static str {
        match self {
            Value::I(_)
            | Value::P { .. }
            | Value::C(_)
            | Value::N(_)
            | Value::D(_)
            | Value::T(_)
            | Value::X(_)
            | Value::Int8(_)
            | Value::F(_)
            | Value::DecFloat(..) => "simple",
            Value::Str(_) | Value::XStr(_) => "string",
            Value::Ref { .. } => "objectref",
            Value::DataRef(_) => "dataref",
            Value::Struct(..) => "structure",
            Value::Table(..) => "table",
        }
    }

    /// `LENGTH`: bytes for `i`/`p`, characters for `c` and strings.
    pub fn length(&self) -> u32 {
        match self {
            Value::I(_) => 4,
            Value::P { len, .. } => *len,
            Value::C(s) | Value::Str(s) | Value::N(s) | Value::D(s) | Value::T(s) => {
                // An ASCII text (nearly all) has as many UTF-16 units as bytes: not decoded.
                let s: &str = s;
                let units = if s.is_ascii() {
                    s.len()
                } else {
                    s.encode_utf16().count()
                };
                u32::try_from(units).unwrap_or(u32::MAX)
            }
            Value::X(b) | Value::XStr(b) => u32::try_from(b.len()).unwrap_or(u32::MAX),
            Value::Int8(_) | Value::F(_) | Value::DecFloat(_, 16) => 8,
            Value::DecFloat(..) => 16,
            Value::Ref { .. } | Value::DataRef(_) => 8,
            Value::Struct(t, _) => Type::Struct(t.clone()).byte_len(),
            Value::Table(..) => 0,
        }
    }
}
