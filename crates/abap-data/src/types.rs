//! ABAP types: elementary types with their lengths, structure and table types, the static
//! type of an object reference, and the elementary type a built-in type name stands for.
//! No values here (`value.rs`), no dictionary (`ddic.rs`): the modules above use this one.

use std::sync::Arc;

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
    pub fn is_charlike(&self) -> bool {
        match self {
            Type::C(_) | Type::N(_) | Type::D | Type::T => true,
            Type::Struct(s) => s.comps.iter().all(|(_, t)| t.is_charlike()),
            _ => false,
        }
    }

    /// Number of characters of a flat character-like type (its components side by side).
    pub fn char_len(&self) -> Option<usize> {
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

impl Type {
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
