//! The dictionary's built-in types, the ABAP types they map to, and table definitions.

/// A DDIC built-in type (DD03P/DD04V/DD01V `DATATYPE`) with its length and decimals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DdicType {
    Char(u32),
    Clnt,
    Lang,
    Cuky,
    Unit(u32),
    Numc(u32),
    Dats,
    Tims,
    Int1,
    Int2,
    Int4,
    Int8,
    Fltp,
    /// `DEC`/`CURR`/`QUAN`: `digits` in total, `decimals` of them after the point.
    Dec {
        kind: DecKind,
        digits: u32,
        decimals: u32,
    },
    String,
    SString(u32),
    Raw(u32),
    RawString,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecKind {
    Dec,
    Curr,
    Quan,
}

/// Most digits a packed column may have (ABAP's limit).
pub const MAX_PACKED_DIGITS: u32 = crate::wide::MAX_DIGITS;

impl DdicType {
    /// The type from DDIC's `DATATYPE`, `LENG` and `DECIMALS`; `Err` says why not.
    pub fn from_ddic(datatype: &str, leng: u32, decimals: u32) -> Result<DdicType, String> {
        // The dictionary's limits: CHAR 30000, NUMC 255, SSTRING 1333, RAW 32000.
        let need_len = |t: fn(u32) -> DdicType, max: u32| {
            if leng == 0 || leng > max {
                Err(format!("{datatype} of length {leng} (1 to {max})"))
            } else {
                Ok(t(leng))
            }
        };
        let dec = |kind| {
            if leng == 0 || leng > MAX_PACKED_DIGITS {
                Err(format!(
                    "{datatype} with {leng} digits (1 to {MAX_PACKED_DIGITS} are supported)"
                ))
            } else if decimals > leng {
                Err(format!("{datatype} with more decimals than digits"))
            } else {
                Ok(DdicType::Dec {
                    kind,
                    digits: leng,
                    decimals,
                })
            }
        };
        match datatype {
            "CHAR" => need_len(DdicType::Char, 30_000),
            "CLNT" => Ok(DdicType::Clnt),
            "LANG" => Ok(DdicType::Lang),
            "CUKY" => Ok(DdicType::Cuky),
            // Units of measurement have three characters at most.
            "UNIT" => Ok(DdicType::Unit(if (1..=3).contains(&leng) {
                leng
            } else {
                3
            })),
            "NUMC" => need_len(DdicType::Numc, 255),
            "DATS" => Ok(DdicType::Dats),
            "TIMS" => Ok(DdicType::Tims),
            "INT1" => Ok(DdicType::Int1),
            "INT2" => Ok(DdicType::Int2),
            "INT4" => Ok(DdicType::Int4),
            "INT8" => Ok(DdicType::Int8),
            "FLTP" => Ok(DdicType::Fltp),
            "DEC" => dec(DecKind::Dec),
            "CURR" => dec(DecKind::Curr),
            "QUAN" => dec(DecKind::Quan),
            "STRING" => Ok(DdicType::String),
            "SSTRING" => need_len(DdicType::SString, 1333),
            "RAW" => need_len(DdicType::Raw, 32_000),
            "RAWSTRING" => Ok(DdicType::RawString),
            other => Err(format!("built-in type {other} is not supported")),
        }
    }

    /// The ABAP type a program sees for a column of this type.
    pub fn abap(self) -> AbapType {
        match self {
            DdicType::Char(n) | DdicType::Unit(n) => AbapType::C(n),
            DdicType::Clnt => AbapType::C(3),
            DdicType::Lang => AbapType::C(1),
            DdicType::Cuky => AbapType::C(5),
            DdicType::Numc(n) => AbapType::N(n),
            DdicType::Dats => AbapType::D,
            DdicType::Tims => AbapType::T,
            DdicType::Int1 => AbapType::Int1,
            DdicType::Int2 => AbapType::Int2,
            DdicType::Int4 => AbapType::I,
            DdicType::Int8 => AbapType::Int8,
            DdicType::Fltp => AbapType::F,
            DdicType::Dec {
                digits, decimals, ..
            } => AbapType::P {
                len: digits / 2 + 1,
                dec: decimals,
            },
            DdicType::String | DdicType::SString(_) => AbapType::String,
            DdicType::Raw(n) => AbapType::X(n),
            DdicType::RawString => AbapType::XString,
        }
    }

    /// The DDIC name of the type (`CHAR`, `CURR`, …).
    pub fn name(self) -> &'static str {
        match self {
            DdicType::Char(_) => "CHAR",
            DdicType::Clnt => "CLNT",
            DdicType::Lang => "LANG",
            DdicType::Cuky => "CUKY",
            DdicType::Unit(_) => "UNIT",
            DdicType::Numc(_) => "NUMC",
            DdicType::Dats => "DATS",
            DdicType::Tims => "TIMS",
            DdicType::Int1 => "INT1",
            DdicType::Int2 => "INT2",
            DdicType::Int4 => "INT4",
            DdicType::Int8 => "INT8",
            DdicType::Fltp => "FLTP",
            DdicType::Dec { kind, .. } => match kind {
                DecKind::Dec => "DEC",
                DecKind::Curr => "CURR",
                DecKind::Quan => "QUAN",
            },
            DdicType::String => "STRING",
            DdicType::SString(_) => "SSTRING",
            DdicType::Raw(_) => "RAW",
            DdicType::RawString => "RAWSTRING",
        }
    }
}

/// An ABAP elementary type, as the interpreter declares data with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AbapType {
    /// `c LENGTH n`.
    C(u32),
    /// `n LENGTH n`.
    N(u32),
    D,
    T,
    /// `b` (INT1).
    Int1,
    /// `s` (INT2).
    Int2,
    I,
    Int8,
    /// `p LENGTH len DECIMALS dec` (`len` in bytes).
    P {
        len: u32,
        dec: u32,
    },
    F,
    String,
    /// `x LENGTH n`.
    X(u32),
    XString,
}

impl AbapType {
    /// Decimals of a packed type, 0 for every other.
    pub fn decimals(self) -> u32 {
        match self {
            AbapType::P { dec, .. } => dec,
            _ => 0,
        }
    }
}

/// One column of a table or structure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// Upper case.
    pub name: String,
    pub ddic: DdicType,
    pub key: bool,
    /// The data element (`ROLLNAME`), when the field has one.
    pub data_element: Option<String>,
}

impl Field {
    pub fn abap(&self) -> AbapType {
        self.ddic.abap()
    }
}

/// `TABCLASS`: a database table or a structure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableClass {
    Transparent,
    Structure,
}

/// A table or structure from a `.tabl.xml` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableDef {
    /// Upper case.
    pub name: String,
    pub class: TableClass,
    /// Fields in their dictionary order (includes expanded).
    pub fields: Vec<Field>,
    /// True when the first key field is of type `CLNT`.
    pub client_dependent: bool,
}

impl TableDef {
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(name))
    }

    pub fn key_fields(&self) -> impl Iterator<Item = &Field> {
        self.fields.iter().filter(|f| f.key)
    }

    /// The client column (`MANDT` or whatever the first `CLNT` key field is called).
    pub fn client_field(&self) -> Option<&Field> {
        if self.client_dependent {
            self.fields.first()
        } else {
            None
        }
    }
}
