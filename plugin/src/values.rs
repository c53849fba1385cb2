//! Protocol JSON as typed Nushell values: ABAP values by their type, records, tables.

use chrono::{FixedOffset, NaiveDate, TimeZone};
use nu_protocol::{Record, Span, Value};
use serde_json::Value as Json;

/// Any JSON as the nearest Nushell value (objects → records, arrays → lists).
pub(crate) fn from_json(v: &Json, span: Span) -> Value {
    match v {
        Json::Null => Value::nothing(span),
        Json::Bool(b) => Value::bool(*b, span),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::int(i, span),
            None => Value::float(n.as_f64().unwrap_or(f64::NAN), span),
        },
        Json::String(s) => Value::string(s, span),
        Json::Array(items) => Value::list(items.iter().map(|i| from_json(i, span)).collect(), span),
        Json::Object(map) => {
            let mut rec = Record::new();
            for (k, v) in map {
                rec.push(k, from_json(v, span));
            }
            Value::record(rec, span)
        }
    }
}

/// An ABAP value given as text (`value` of the protocol) in the type the system names
/// (`I`, `P`, `D`, `CString`, …): the Nushell value that keeps it exactly.
pub(crate) fn typed(technical_type: &str, text: &str, span: Span) -> Value {
    let t = technical_type.trim().to_ascii_uppercase();
    match t.as_str() {
        "I" | "INT1" | "INT2" | "INT4" | "INT8" | "B" | "S" | "8" | "BYTE" | "SHORT" => {
            int_or_text(text, span)
        }
        "F" | "FLOAT" => match text.trim().parse::<f64>() {
            Ok(f) => Value::float(f, span),
            Err(_) => Value::string(text, span),
        },
        "P" | "DECFLOAT16" | "DECFLOAT34" | "A" | "E" => decimal(text, span),
        "D" | "DATE" => date(text, span),
        "T" | "TIME" => time(text, span),
        "C" | "CHAR" => Value::string(text.trim_end_matches(' '), span),
        "X" | "XSTRING" | "RAW" => match hex(text) {
            Some(bytes) => Value::binary(bytes, span),
            None => Value::string(text, span),
        },
        _ => Value::string(text, span),
    }
}

fn int_or_text(text: &str, span: Span) -> Value {
    match text.trim().parse::<i64>() {
        Ok(i) => Value::int(i, span),
        Err(_) => Value::string(text, span),
    }
}

/// A packed or decimal float number: a float when printing it back with as many decimals
/// gives the same digits, else the text, so nothing is lost.
fn decimal(text: &str, span: Span) -> Value {
    let t = text.trim();
    let Ok(f) = t.parse::<f64>() else {
        return Value::string(text, span);
    };
    let decimals = t.split_once('.').map(|(_, d)| d.len()).unwrap_or(0);
    let back = format!("{f:.decimals$}");
    let same = back == t || back.strip_prefix('-').is_some_and(|b| b == t) && f == 0.0;
    if same && f.is_finite() {
        Value::float(f, span)
    } else {
        Value::string(text, span)
    }
}

/// `YYYYMMDD` → a date at midnight UTC; the initial date `00000000` → nothing.
fn date(text: &str, span: Span) -> Value {
    let t = text.trim();
    if t.is_empty() || t.bytes().all(|b| b == b'0') {
        return Value::nothing(span);
    }
    let parsed = NaiveDate::parse_from_str(t, "%Y%m%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .and_then(|dt| FixedOffset::east_opt(0)?.from_local_datetime(&dt).single());
    match parsed {
        Some(d) => Value::date(d, span),
        None => Value::string(text, span),
    }
}

/// `HHMMSS` → `"HH:MM:SS"`.
fn time(text: &str, span: Span) -> Value {
    let t = text.trim();
    if t.len() == 6 && t.bytes().all(|b| b.is_ascii_digit()) {
        Value::string(format!("{}:{}:{}", &t[0..2], &t[2..4], &t[4..6]), span)
    } else {
        Value::string(text, span)
    }
}

fn hex(text: &str) -> Option<Vec<u8>> {
    let t = text.trim();
    if !t.len().is_multiple_of(2) {
        return None;
    }
    (0..t.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(t.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A Nushell value as the text an ABAP assignment takes (`set`): dates as `YYYYMMDD`, times
/// as `HHMMSS`, booleans as `X` or blank.
pub(crate) fn to_abap_text(v: &Value) -> Option<String> {
    Some(match v {
        Value::String { val, .. } => {
            // "HH:MM:SS" back to the form a t field takes.
            let t = val.as_str();
            if t.len() == 8 && t.as_bytes()[2] == b':' && t.as_bytes()[5] == b':' {
                t.replace(':', "")
            } else {
                val.clone()
            }
        }
        Value::Int { val, .. } => val.to_string(),
        Value::Float { val, .. } => val.to_string(),
        Value::Bool { val, .. } => if *val { "X" } else { " " }.to_string(),
        Value::Date { val, .. } => val.format("%Y%m%d").to_string(),
        Value::Binary { val, .. } => val.iter().map(|b| format!("{b:02X}")).collect(),
        Value::Nothing { .. } => String::new(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s() -> Span {
        Span::test_data()
    }

    #[test]
    fn integers_floats_and_decimals() {
        assert_eq!(typed("I", "42", s()), Value::test_int(42));
        assert_eq!(typed("I", "-7", s()), Value::test_int(-7));
        assert_eq!(
            typed("INT8", "20000000000", s()),
            Value::test_int(20_000_000_000)
        );
        assert_eq!(
            typed("F", "2.5000000000000000E-01", s()),
            Value::test_float(0.25)
        );
        assert_eq!(typed("P", "-12.50", s()), Value::test_float(-12.5));
        assert_eq!(typed("P", "3", s()), Value::test_float(3.0));
        // More digits than a float keeps: the text, not a rounded number.
        assert_eq!(
            typed("P", "12345678901234567.89", s()),
            Value::test_string("12345678901234567.89")
        );
    }

    #[test]
    fn characters_dates_times_and_bytes() {
        assert_eq!(typed("C", "C1        ", s()), Value::test_string("C1"));
        assert_eq!(typed("N", "000042", s()), Value::test_string("000042"));
        assert_eq!(typed("T", "134501", s()), Value::test_string("13:45:01"));
        assert_eq!(typed("D", "00000000", s()), Value::test_nothing());
        let d = typed("D", "20261125", s());
        assert_eq!(
            d.as_date().map(|d| d.format("%Y-%m-%d").to_string()).ok(),
            Some("2026-11-25".into())
        );
        assert_eq!(typed("D", "2026xx25", s()), Value::test_string("2026xx25"));
        assert_eq!(
            typed("X", "BEEF", s()),
            Value::test_binary(vec![0xBE, 0xEF])
        );
        assert_eq!(
            typed("XSTRING", "CAFE01", s()),
            Value::test_binary(vec![0xCA, 0xFE, 0x01])
        );
        assert_eq!(typed("XSTRING", "CAF", s()), Value::test_string("CAF"));
        assert_eq!(typed("CString", "a  ", s()), Value::test_string("a  "));
    }

    #[test]
    fn values_back_to_abap_text() {
        assert_eq!(
            to_abap_text(&Value::test_string("13:45:01")).as_deref(),
            Some("134501")
        );
        assert_eq!(to_abap_text(&Value::test_int(5)).as_deref(), Some("5"));
        assert_eq!(to_abap_text(&Value::test_bool(true)).as_deref(), Some("X"));
        let d = typed("D", "20261125", s());
        assert_eq!(to_abap_text(&d).as_deref(), Some("20261125"));
        assert_eq!(to_abap_text(&Value::test_list(vec![])), None);
    }
}
