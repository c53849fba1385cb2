//! ABAP-typed values crossing the boundary (host values in, result cells out) and their
//! storage form in SQLite:
//!
//! | DDIC type | stored as |
//! |---|---|
//! | CHAR, CLNT, LANG, CUKY, UNIT | TEXT without trailing blanks, column collation `RTRIM` |
//! | NUMC(n) | TEXT of exactly n digits (text order = numeric order) |
//! | DATS / TIMS | TEXT `YYYYMMDD` / `HHMMSS` (text order = time order) |
//! | INT1/2/4/8 | INTEGER |
//! | DEC/CURR/QUAN(n,d), n ≤ 18 | INTEGER = value·10^d (exact) |
//! | DEC/CURR/QUAN(n,d), n > 18 | TEXT that sorts as the numbers do ([`crate::wide`]) |
//! | FLTP | REAL |
//! | STRING, SSTRING | TEXT |
//! | RAW(n), RAWSTRING | BLOB |

use rusqlite::types::Value as Sql;

use crate::decimal;
use crate::types::{AbapType, DdicType};

/// One ABAP value.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// `c` (also CLNT, LANG, CUKY, UNIT columns): the text, trailing blanks insignificant.
    Char(String),
    /// `n`: digits.
    Numc(String),
    /// `d`: `YYYYMMDD`.
    Date(String),
    /// `t`: `HHMMSS`.
    Time(String),
    /// `b`, `s`, `i`, `int8`.
    Int(i64),
    /// `p`: `mant·10^-dec`.
    Packed {
        mant: i128,
        dec: u32,
    },
    Float(f64),
    String(String),
    /// `x`.
    Hex(Vec<u8>),
    XString(Vec<u8>),
    /// The null value (a column of a `LEFT OUTER JOIN` without partner, an aggregate over
    /// no rows): a target receives its initial value.
    Null,
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cell::Char(s) | Cell::Numc(s) | Cell::Date(s) | Cell::Time(s) | Cell::String(s) => {
                write!(f, "'{s}'")
            }
            Cell::Int(i) => write!(f, "{i}"),
            Cell::Packed { mant, dec } => f.write_str(&decimal::format(*mant, *dec)),
            Cell::Float(x) => write!(f, "{x:E}"),
            Cell::Hex(b) | Cell::XString(b) => {
                for byte in b {
                    write!(f, "{byte:02X}")?;
                }
                Ok(())
            }
            Cell::Null => f.write_str("NULL"),
        }
    }
}

fn hex_decode(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

fn all_digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

/// The initial value of a column of type `t`, in storage form.
pub(crate) fn initial(t: DdicType) -> Sql {
    match t {
        DdicType::Numc(n) => Sql::Text("0".repeat(n as usize)),
        DdicType::Dats => Sql::Text("00000000".into()),
        DdicType::Tims => Sql::Text("000000".into()),
        DdicType::Dec { digits, .. } if crate::wide::is_wide(digits) => {
            Sql::Text(crate::wide::encode(0))
        }
        DdicType::Int1
        | DdicType::Int2
        | DdicType::Int4
        | DdicType::Int8
        | DdicType::Dec { .. } => Sql::Integer(0),
        DdicType::Fltp => Sql::Real(0.0),
        DdicType::Raw(n) => Sql::Blob(vec![0; n as usize]),
        DdicType::RawString => Sql::Blob(Vec::new()),
        DdicType::Char(_)
        | DdicType::Clnt
        | DdicType::Lang
        | DdicType::Cuky
        | DdicType::Unit(_)
        | DdicType::String
        | DdicType::SString(_) => Sql::Text(String::new()),
    }
}

/// `text` as a value of a column of type `t` (data files, text host values). `exact`
/// (data files): a packed value must not lose decimals; otherwise it is rounded, as ABAP
/// converts.
fn text_to_storage(text: &str, t: DdicType, exact: bool) -> Result<Sql, String> {
    let char_len = |n: u32| -> Sql {
        let trimmed = text.trim_end_matches(' ');
        Sql::Text(trimmed.chars().take(n as usize).collect())
    };
    Ok(match t {
        DdicType::Char(n) | DdicType::Unit(n) => char_len(n),
        DdicType::Clnt => char_len(3),
        DdicType::Lang => char_len(1),
        DdicType::Cuky => char_len(5),
        DdicType::Numc(n) => {
            let d = text.trim();
            if !all_digits(d) {
                return Err(format!("{text:?} is not numeric text"));
            }
            let d = d.trim_start_matches('0');
            if d.len() > n as usize {
                return Err(format!("{text:?} has more than {n} digits"));
            }
            Sql::Text(format!("{d:0>width$}", width = n as usize))
        }
        DdicType::Dats | DdicType::Tims => {
            let width = if t == DdicType::Dats { 8 } else { 6 };
            let d = text.trim();
            if d.is_empty() {
                return Ok(initial(t));
            }
            if d.len() != width || !all_digits(d) {
                return Err(format!("{text:?} is not {width} digits"));
            }
            Sql::Text(d.to_string())
        }
        DdicType::Int1 | DdicType::Int2 | DdicType::Int4 | DdicType::Int8 => {
            let (m, scale) = decimal::parse(text).ok_or(format!("{text:?} is not a number"))?;
            let v = decimal::rescale(m, scale, 0).ok_or(format!("{text:?} overflows"))?;
            int_in_range(v, t)?
        }
        DdicType::Dec {
            digits, decimals, ..
        } => {
            let (m, scale) = decimal::parse(text).ok_or(format!("{text:?} is not a number"))?;
            if exact
                && scale > decimals
                && decimal::rescale(m, scale, decimals)
                    .and_then(|v| decimal::rescale(v, decimals, scale))
                    != Some(m)
            {
                return Err(format!("{text:?} has more than {decimals} decimals"));
            }
            packed_in_range(m, scale, digits, decimals)?
        }
        DdicType::Fltp => Sql::Real(
            text.trim()
                .parse::<f64>()
                .map_err(|_| format!("{text:?} is not a floating point number"))?,
        ),
        DdicType::String => Sql::Text(text.to_string()),
        DdicType::SString(n) => Sql::Text(text.chars().take(n as usize).collect()),
        DdicType::Raw(n) => {
            let mut b = hex_decode(text).ok_or(format!("{text:?} is not hexadecimal"))?;
            if b.len() > n as usize {
                return Err(format!("{text:?} is longer than {n} bytes"));
            }
            b.resize(n as usize, 0);
            Sql::Blob(b)
        }
        DdicType::RawString => {
            Sql::Blob(hex_decode(text).ok_or(format!("{text:?} is not hexadecimal"))?)
        }
    })
}

fn int_in_range(v: i128, t: DdicType) -> Result<Sql, String> {
    let (lo, hi): (i128, i128) = match t {
        DdicType::Int1 => (0, 255),
        DdicType::Int2 => (-32768, 32767),
        DdicType::Int4 => (i32::MIN.into(), i32::MAX.into()),
        _ => (i64::MIN.into(), i64::MAX.into()),
    };
    if v < lo || v > hi {
        return Err(format!("{v} is outside the range of {}", t.name()));
    }
    i64::try_from(v)
        .map(Sql::Integer)
        .map_err(|_| format!("{v} overflows"))
}

fn packed_in_range(m: i128, scale: u32, digits: u32, decimals: u32) -> Result<Sql, String> {
    let v = decimal::rescale(m, scale, decimals).ok_or("the number overflows".to_string())?;
    if decimal::digits(v) > digits {
        return Err(format!(
            "{} does not fit {digits} digits with {decimals} decimals",
            decimal::format(m, scale)
        ));
    }
    if crate::wide::is_wide(digits) {
        return Ok(Sql::Text(crate::wide::encode(v)));
    }
    i64::try_from(v)
        .map(Sql::Integer)
        .map_err(|_| "the number overflows".to_string())
}

impl Cell {
    /// This value converted to a column of type `t`, in storage form.
    pub(crate) fn to_storage(&self, t: DdicType) -> Result<Sql, String> {
        let numeric_only = |what: &str| {
            Err(format!(
                "{what} {self} cannot be compared with or stored in a {} column",
                t.name()
            ))
        };
        match self {
            Cell::Null => Ok(Sql::Null),
            // A `c` value loses its trailing blanks on the way to any column (to a `string`
            // too, as ABAP converts `c` to `string`).
            Cell::Char(s) => text_to_storage(s.trim_end_matches(' '), t, false),
            Cell::Numc(s) | Cell::Date(s) | Cell::Time(s) | Cell::String(s) => {
                text_to_storage(s, t, false)
            }
            Cell::Int(i) => match t {
                DdicType::Int1 | DdicType::Int2 | DdicType::Int4 | DdicType::Int8 => {
                    int_in_range(i128::from(*i), t)
                }
                DdicType::Dec {
                    digits, decimals, ..
                } => packed_in_range(i128::from(*i), 0, digits, decimals),
                DdicType::Fltp => Ok(Sql::Real(*i as f64)),
                DdicType::Numc(_) if *i >= 0 => text_to_storage(&i.to_string(), t, false),
                DdicType::String => Ok(Sql::Text(i.to_string())),
                _ => numeric_only("integer"),
            },
            Cell::Packed { mant, dec } => match t {
                DdicType::Int1 | DdicType::Int2 | DdicType::Int4 | DdicType::Int8 => {
                    let v = decimal::rescale(*mant, *dec, 0).ok_or("overflow")?;
                    int_in_range(v, t)
                }
                DdicType::Dec {
                    digits, decimals, ..
                } => packed_in_range(*mant, *dec, digits, decimals),
                DdicType::Fltp => Ok(Sql::Real(
                    decimal::format(*mant, *dec).parse::<f64>().unwrap_or(0.0),
                )),
                DdicType::Numc(_) if *mant >= 0 && *dec == 0 => {
                    text_to_storage(&mant.to_string(), t, false)
                }
                _ => numeric_only("packed number"),
            },
            Cell::Float(x) => match t {
                DdicType::Fltp => Ok(Sql::Real(*x)),
                DdicType::Int1 | DdicType::Int2 | DdicType::Int4 | DdicType::Int8
                    if x.is_finite() =>
                {
                    int_in_range(x.round() as i128, t)
                }
                DdicType::Dec { .. } if x.is_finite() => {
                    text_to_storage(&format!("{x:.15}"), t, false)
                }
                _ => numeric_only("floating point number"),
            },
            Cell::Hex(b) | Cell::XString(b) => match t {
                DdicType::Raw(n) => {
                    let mut b = b.clone();
                    b.resize(n as usize, 0);
                    Ok(Sql::Blob(b))
                }
                DdicType::RawString => Ok(Sql::Blob(b.clone())),
                _ => numeric_only("byte string"),
            },
        }
    }

    /// A stored value read back as a cell of type `t`.
    pub(crate) fn from_storage(v: Sql, t: AbapType) -> Cell {
        match (v, t) {
            (Sql::Null, _) => Cell::Null,
            (Sql::Text(s), AbapType::C(_)) => Cell::Char(s),
            (Sql::Text(s), AbapType::N(_)) => Cell::Numc(s),
            (Sql::Text(s), AbapType::D) => Cell::Date(s),
            (Sql::Text(s), AbapType::T) => Cell::Time(s),
            (Sql::Text(s), AbapType::P { dec, .. }) => match crate::wide::decode(&s) {
                Some(mant) => Cell::Packed { mant, dec },
                None => Cell::String(s),
            },
            (Sql::Text(s), _) => Cell::String(s),
            (Sql::Integer(i), AbapType::P { dec, .. }) => Cell::Packed {
                mant: i128::from(i),
                dec,
            },
            (Sql::Integer(i), AbapType::F) => Cell::Float(i as f64),
            (Sql::Integer(i), _) => Cell::Int(i),
            (Sql::Real(x), _) => Cell::Float(x),
            (Sql::Blob(b), AbapType::X(_)) => Cell::Hex(b),
            (Sql::Blob(b), _) => Cell::XString(b),
        }
    }
}

/// A JSON value of a data file as a value of a column of type `t`.
pub(crate) fn json_to_storage(v: &serde_json::Value, t: DdicType) -> Result<Sql, String> {
    match v {
        serde_json::Value::String(s) => text_to_storage(s, t, true),
        serde_json::Value::Number(n) => text_to_storage(&n.to_string(), t, true),
        serde_json::Value::Null => Err("null is not a value (leave the field out)".into()),
        serde_json::Value::Bool(_) => Err("true/false is not a value (write \"X\" or \"\")".into()),
        _ => Err("arrays and objects are not values".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DecKind;
    use proptest::prelude::*;

    const TYPES: &[DdicType] = &[
        DdicType::Char(3),
        DdicType::Numc(4),
        DdicType::Dats,
        DdicType::Tims,
        DdicType::Int1,
        DdicType::Int4,
        DdicType::Int8,
        DdicType::Dec {
            kind: DecKind::Curr,
            digits: 15,
            decimals: 2,
        },
        DdicType::Dec {
            kind: DecKind::Dec,
            digits: 31,
            decimals: 7,
        },
        DdicType::Fltp,
        DdicType::String,
        DdicType::SString(5),
        DdicType::Raw(2),
        DdicType::RawString,
    ];

    proptest! {
        #[test]
        fn any_text_or_number_converts_or_errs(text in "\\PC{0,40}", m in any::<i128>(), dec in 0u32..40, i in any::<i64>(), x in any::<f64>()) {
            for &t in TYPES {
                let _ = text_to_storage(&text, t, true);
                let _ = Cell::Char(text.clone()).to_storage(t);
                let _ = Cell::Packed { mant: m, dec }.to_storage(t);
                let _ = Cell::Int(i).to_storage(t);
                let _ = Cell::Float(x).to_storage(t);
            }
        }
    }
}
