//! ABAP data: types, values, the conversion rules between them and the three text forms a
//! value has (string conversion, string-template embedding, debugger display + hex).
//!
//! Every value carries its full elementary type (a `c` value knows its length, a `p` value its
//! length and decimals) so assignment, calculation type and the debugger all see the same
//! facts.

use std::borrow::Cow;
use std::sync::Arc;

use crate::number::{Dec, pow10};
use crate::place::DataRef;
pub use crate::text::Text;

/// Index of an object in the interpreter heap (instance number = index + 1).
pub type ObjId = usize;

/// Longest `c` field accepted (ABAP's limit).
pub const MAX_C_LENGTH: u32 = 262_143;

/// Longest `x` field accepted (bytes).
pub const MAX_X_LENGTH: u32 = 524_287;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Type {
    I,
    String,
    /// `c LENGTH n`, n ≥ 1 characters.
    C(u32),
    /// `p LENGTH len DECIMALS dec`: `len` bytes (1–16), 2·len−1 digits.
    P {
        len: u32,
        dec: u32,
    },
    /// `n LENGTH n`: numeric text of n digits.
    N(u32),
    /// `d`: date `YYYYMMDD`.
    D,
    /// `t`: time `HHMMSS`.
    T,
    /// `x LENGTH n`: n bytes.
    X(u32),
    XString,
    Int8,
    /// `f`: binary floating point.
    F,
    DecFloat16,
    DecFloat34,
    /// `REF TO <class or interface>` (upper case).
    Ref(String),
    /// `REF TO <data type>`: a data reference with its static target type (`Any` for `data`).
    DataRef(Box<Type>),
    /// Generic parameter typing (`any`, `data`, `simple`, `clike`, …): takes the actual's type.
    Any,
    /// A structure (`TYPES BEGIN OF … END OF`).
    Struct(Arc<StructType>),
    /// An internal table.
    Table(Arc<TableType>),
    /// A type name declared with `TYPES` (or a DDIC name), resolved when data is created.
    Named(String),
    /// `LIKE dobj`: the type of a data object, resolved when data is created.
    Like(String),
    /// `LIKE LINE OF itab`.
    LineOf(String),
}

/// Components of a structure type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructType {
    /// Type name as declared (upper case); empty for anonymous structures (`DATA BEGIN OF`).
    pub name: String,
    pub comps: Vec<(String, Type)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    Standard,
    Sorted,
    Hashed,
}

/// The primary key of a table type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableKey {
    /// `WITH DEFAULT KEY` (also when no key is written): the character- and byte-like
    /// components (strings included), or
    /// `table_line` for elementary rows.
    Default,
    /// `WITH EMPTY KEY`.
    Empty,
    /// `WITH KEY a b` (component names; `TABLE_LINE` for the whole row).
    Comps(Vec<String>),
}

/// An internal table type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableType {
    /// Type name as declared (upper case); empty for `DATA … TYPE TABLE OF …`.
    pub name: String,
    pub kind: TableKind,
    pub line: Type,
    pub unique: bool,
    pub key: TableKey,
    /// Secondary keys (`WITH [NON-]UNIQUE SORTED|HASHED KEY name COMPONENTS …`).
    pub secondary: Vec<SecondaryKey>,
}

impl TableType {
    /// A standard table of `line` with the default key and no secondary keys, named `name`
    /// (empty for `TYPE TABLE OF …`, `OCCURS` and tables built at run time).
    pub fn standard(name: &str, line: Type) -> Type {
        Type::Table(Arc::new(TableType {
            name: name.to_string(),
            kind: TableKind::Standard,
            line,
            unique: false,
            key: TableKey::Default,
            secondary: Vec::new(),
        }))
    }
}

/// A secondary table key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecondaryKey {
    pub name: String,
    /// Sorted (else hashed).
    pub sorted: bool,
    pub unique: bool,
    pub comps: Vec<String>,
}

impl TableType {
    /// Components of the primary key as row paths (empty: the empty key).
    pub fn key_comps(&self) -> Vec<String> {
        match &self.key {
            TableKey::Empty => Vec::new(),
            TableKey::Comps(c) => c.clone(),
            TableKey::Default => match &self.line {
                Type::Struct(s) => s
                    .comps
                    .iter()
                    .filter(|(_, t)| {
                        matches!(
                            t,
                            Type::C(_)
                                | Type::N(_)
                                | Type::D
                                | Type::T
                                | Type::X(_)
                                | Type::String
                                | Type::XString
                        )
                    })
                    .map(|(n, _)| n.clone())
                    .collect(),
                Type::Table(_) => Vec::new(),
                _ => vec!["TABLE_LINE".into()],
            },
        }
    }

    pub fn kind_text(&self) -> &'static str {
        match self.kind {
            TableKind::Standard => "Standard Table",
            TableKind::Sorted => "Sorted Table",
            TableKind::Hashed => "Hashed Table",
        }
    }
}

impl StructType {
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.comps.iter().position(|(n, _)| n == name)
    }
}

/// Byte size and alignment of a type inside a structure (Unicode system: 2 bytes per
/// character; strings, tables and references are 8-byte pointers).
fn layout(t: &Type) -> (u64, u64) {
    match t {
        Type::I | Type::Any | Type::Named(_) | Type::Like(_) | Type::LineOf(_) => (4, 4),
        Type::C(n) => (2 * u64::from(*n), 2),
        Type::P { len, .. } => (u64::from(*len), 1),
        Type::N(n) => (2 * u64::from(*n), 2),
        Type::D => (16, 2),
        Type::T => (12, 2),
        Type::X(n) => (u64::from(*n), 1),
        Type::Int8 | Type::F | Type::DecFloat16 => (8, 8),
        Type::DecFloat34 => (16, 16),
        // A deep component counts as 8 bytes without alignment padding: the debugger reports
        // a structure of i and string as 12 bytes (abap-interpreter.md §3.4, captured).
        Type::String | Type::XString | Type::Ref(_) | Type::DataRef(_) | Type::Table(_) => (8, 4),
        Type::Struct(s) => {
            let mut off = 0u64;
            let mut max_align = 1u64;
            for (_, c) in &s.comps {
                let (size, align) = layout(c);
                off = off.div_ceil(align) * align + size;
                max_align = max_align.max(align);
            }
            (off.div_ceil(max_align) * max_align, max_align)
        }
    }
}

impl Type {
    /// True for strings, tables and references (and structures holding them).
    pub fn is_deep(&self) -> bool {
        match self {
            Type::String | Type::XString | Type::Ref(_) | Type::DataRef(_) | Type::Table(_) => true,
            Type::Struct(s) => s.comps.iter().any(|(_, t)| t.is_deep()),
            _ => false,
        }
    }

    /// True when every elementary component is `c`.
    fn is_charlike(&self) -> bool {
        match self {
            Type::C(_) | Type::N(_) | Type::D | Type::T => true,
            Type::Struct(s) => s.comps.iter().all(|(_, t)| t.is_charlike()),
            _ => false,
        }
    }

    /// Number of characters of a flat character-like type (its components side by side).
    fn char_len(&self) -> Option<usize> {
        match self {
            Type::C(n) | Type::N(n) => Some(*n as usize),
            Type::D => Some(8),
            Type::T => Some(6),
            Type::Struct(s) => s.comps.iter().try_fold(0usize, |sum, (_, t)| {
                Some(sum.saturating_add(t.char_len()?))
            }),
            _ => None,
        }
    }

    /// Byte length (for the debugger's `LENGTH` and table row widths).
    pub fn byte_len(&self) -> u32 {
        u32::try_from(layout(self).0).unwrap_or(u32::MAX)
    }
}

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
    /// A data reference (`REF TO data|i|ty`), see [`crate::interp::refs`].
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

/// The static type of an object reference (a class or interface name): shared and one
/// pointer wide, so a [`Value`] stays 32 bytes.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ClassName(Arc<String>);

impl From<String> for ClassName {
    fn from(s: String) -> ClassName {
        ClassName(Arc::new(s))
    }
}

impl From<&str> for ClassName {
    fn from(s: &str) -> ClassName {
        ClassName(Arc::new(s.to_string()))
    }
}

impl std::ops::Deref for ClassName {
    type Target = str;
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl std::fmt::Display for ClassName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl std::fmt::Debug for ClassName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.0.as_str())
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

    /// Name shown as declared/actual type in the debugger.
    pub fn name(&self) -> String {
        self.shown_name().to_string()
    }

    /// [`Type::name`] borrowed from the type (the debugger names the type of every cell of a
    /// table page).
    pub fn shown_name(&self) -> &str {
        match self {
            Type::I => "I",
            Type::String => "STRING",
            Type::C(_) => "C",
            Type::P { .. } => "P",
            Type::N(_) => "N",
            Type::D => "D",
            Type::T => "T",
            Type::X(_) => "X",
            Type::XString => "XSTRING",
            Type::Int8 => "INT8",
            Type::F => "F",
            Type::DecFloat16 => "DECFLOAT16",
            Type::DecFloat34 => "DECFLOAT34",
            Type::Ref(t) => t,
            Type::DataRef(t) if **t == Type::Any => "DATA",
            Type::DataRef(t) => t.shown_name(),
            Type::Any => "ANY",
            Type::Struct(s) => &s.name,
            Type::Table(t) => &t.name,
            Type::Named(n) | Type::Like(n) | Type::LineOf(n) => n,
        }
    }
}

/// The elementary type a type name stands for without `LENGTH`/`DECIMALS` (`i`, `string`,
/// `c` (one character), `p` (8 bytes, no decimals), `abap_bool` …), as constructor
/// expressions (`CONV string( … )`) name them. `None` for names outside the subset.
pub fn named_type(name: &str) -> Option<Type> {
    match name.to_ascii_uppercase().as_str() {
        "I" | "INT4" => Some(Type::I),
        "STRING" => Some(Type::String),
        "C" | "ABAP_BOOL" | "CHAR1" | "FLAG" | "XFELD" => Some(Type::C(1)),
        "P" => Some(Type::P { len: 8, dec: 0 }),
        "N" | "NUMC1" => Some(Type::N(1)),
        "X" => Some(Type::X(1)),
        // Date and time: the built-in types, the DDIC types' data elements and the system
        // fields' types.
        "D" | "DATS" | "DATUM" | "SYDATUM" | "SYST_DATUM" => Some(Type::D),
        "T" | "TIMS" | "UZEIT" | "SYUZEIT" | "SYST_UZEIT" => Some(Type::T),
        "XSTRING" => Some(Type::XString),
        "INT8" => Some(Type::Int8),
        "F" | "FLOAT" => Some(Type::F),
        "DECFLOAT16" => Some(Type::DecFloat16),
        "DECFLOAT34" => Some(Type::DecFloat34),
        "TIMESTAMP" => Some(Type::P { len: 8, dec: 0 }),
        "TIMESTAMPL" => Some(Type::P { len: 11, dec: 7 }),
        _ => None,
    }
}

/// Built-in DDIC types a program may name besides the elementary ones (`string_table`).
pub fn ddic_type(name: &str) -> Option<Type> {
    let line = match name {
        "STRING_TABLE" => Type::String,
        "STRINGTAB" => Type::String,
        _ => {
            return named_type(name)
                .or_else(|| crate::ddic::data_element(name))
                .or_else(|| crate::ddic::ddic_type(name))
                .or_else(|| crate::type_pool::abap_type(name));
        }
    };
    Some(TableType::standard(name, line))
}

fn p_fits(m: i128, len: u32) -> bool {
    match pow10(2 * len - 1) {
        Some(limit) => m.unsigned_abs() < limit.unsigned_abs(),
        None => true,
    }
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

pub(crate) fn pad_right(s: &str, n: u32) -> String {
    let n = n as usize;
    let mut out: String = s.chars().take(n).collect();
    let have = out.chars().count();
    out.extend(std::iter::repeat_n(' ', n - have));
    out
}

/// Number text with a trailing sign column: `15 `, `42-`, `12.50 `.
pub(crate) fn sign_last(d: &Dec, decimals: u32) -> String {
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
            other => crate::conversion::numeric_value(other),
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
            other => crate::conversion::string_of(other),
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
            other => Ok(crate::conversion::template_of(other)),
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
                    return crate::conversion::convert_elementary(self, ty);
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
                other => crate::conversion::to_c(other, *n),
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
            | Type::DecFloat34 => crate::conversion::convert_elementary(self, ty),
            Type::Ref(t) => match self {
                Value::Ref { target, .. } => Ok(Value::Ref {
                    static_type: t.as_str().into(),
                    target: *target,
                }),
                _ => Err(ConvError::Incompatible),
            },
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
            Value::X(b) | Value::XStr(b) => crate::conversion::push_hex(out, b.iter().copied()),
            Value::Int8(_) | Value::F(_) | Value::DecFloat(..) => {
                out.push_str(&crate::conversion::string_of(self).unwrap_or_default());
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
            // The debugger view names the target (crate::interp::refs); only the initial case is known
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
        use crate::conversion::push_hex;
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
                crate::conversion::push_utf16le_hex(out, s);
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

#[cfg(test)]
mod tests {
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
