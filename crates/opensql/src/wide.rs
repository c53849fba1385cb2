//! Packed numbers of more than 18 digits (`DEC` up to 31, e.g. `TIMESTAMPL`'s 21,7): too wide
//! for SQLite's 64-bit integers, they are stored as text that sorts as the numbers do —
//! `P` and the 31-digit mantissa for zero and above, `N` and the mantissa's complement to
//! 10^31 below — and summed, averaged and added by functions registered on the connection,
//! exactly.

use rusqlite::Connection;
use rusqlite::functions::{Aggregate, Context, FunctionFlags};

/// Most digits of a packed column (ABAP's limit).
pub(crate) const MAX_DIGITS: u32 = 31;

/// Most digits stored as an integer.
pub(crate) const NARROW_DIGITS: u32 = 18;

const LIMIT: i128 = 10_i128.pow(MAX_DIGITS);

pub(crate) fn is_wide(digits: u32) -> bool {
    digits > NARROW_DIGITS
}

/// The stored form of mantissa `m` (|m| < 10^31).
pub(crate) fn encode(m: i128) -> String {
    if m >= 0 {
        format!("P{m:031}")
    } else {
        // |m| < 10^31: the complement is positive and below 10^31.
        format!("N{:031}", LIMIT.saturating_add(m))
    }
}

pub(crate) fn decode(s: &str) -> Option<i128> {
    let digits = s.get(1..)?;
    if digits.len() != MAX_DIGITS as usize || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v: i128 = digits.parse().ok()?;
    match s.as_bytes().first()? {
        b'P' => Some(v),
        b'N' => Some(v - LIMIT),
        _ => None,
    }
}

fn user_error(message: &str) -> rusqlite::Error {
    rusqlite::Error::UserFunctionError(message.to_string().into())
}

fn arg(ctx: &Context<'_>, i: usize) -> rusqlite::Result<Option<i128>> {
    let v: Option<String> = ctx.get(i)?;
    match v {
        None => Ok(None),
        Some(s) => decode(&s)
            .map(Some)
            .ok_or_else(|| user_error("not a stored packed number")),
    }
}

fn checked(v: Option<i128>) -> rusqlite::Result<i128> {
    match v {
        Some(v) if v.unsigned_abs() < LIMIT.unsigned_abs() => Ok(v),
        _ => Err(user_error("packed number overflow (more than 31 digits)")),
    }
}

struct Sum;

impl Aggregate<Option<i128>, Option<String>> for Sum {
    fn init(&self, _: &mut Context<'_>) -> rusqlite::Result<Option<i128>> {
        Ok(None)
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut Option<i128>) -> rusqlite::Result<()> {
        if let Some(m) = arg(ctx, 0)? {
            *acc = Some(checked(acc.unwrap_or(0).checked_add(m))?);
        }
        Ok(())
    }

    fn finalize(
        &self,
        _: &mut Context<'_>,
        acc: Option<Option<i128>>,
    ) -> rusqlite::Result<Option<String>> {
        Ok(acc.flatten().map(encode))
    }
}

/// The average of the mantissas (the caller scales it), as `AVG` gives a float.
struct Avg;

impl Aggregate<(f64, u64), Option<f64>> for Avg {
    fn init(&self, _: &mut Context<'_>) -> rusqlite::Result<(f64, u64)> {
        Ok((0.0, 0))
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut (f64, u64)) -> rusqlite::Result<()> {
        if let Some(m) = arg(ctx, 0)? {
            acc.0 += m as f64;
            acc.1 += 1;
        }
        Ok(())
    }

    fn finalize(
        &self,
        _: &mut Context<'_>,
        acc: Option<(f64, u64)>,
    ) -> rusqlite::Result<Option<f64>> {
        Ok(acc.filter(|a| a.1 > 0).map(|(s, n)| s / n as f64))
    }
}

/// `ABAP_WIDE_SUM`, `ABAP_WIDE_AVG`, `ABAP_WIDE_ADD(a, b)`, `ABAP_WIDE_SUB(a, b)`.
pub(crate) fn register(conn: &Connection) -> rusqlite::Result<()> {
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    conn.create_aggregate_function("ABAP_WIDE_SUM", 1, flags, Sum)?;
    conn.create_aggregate_function("ABAP_WIDE_AVG", 1, flags, Avg)?;
    conn.create_scalar_function("ABAP_WIDE_ADD", 2, flags, |ctx| {
        Ok(match (arg(ctx, 0)?, arg(ctx, 1)?) {
            (Some(a), Some(b)) => Some(encode(checked(a.checked_add(b))?)),
            _ => None,
        })
    })?;
    conn.create_scalar_function("ABAP_WIDE_SUB", 2, flags, |ctx| {
        Ok(match (arg(ctx, 0)?, arg(ctx, 1)?) {
            (Some(a), Some(b)) => Some(encode(checked(a.checked_sub(b))?)),
            _ => None,
        })
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_order_is_number_order() {
        let values = [-LIMIT + 1, -10_000_000, -1, 0, 1, 5, 10, LIMIT - 1];
        let encoded: Vec<String> = values.iter().map(|&v| encode(v)).collect();
        let mut sorted = encoded.clone();
        sorted.sort();
        assert_eq!(encoded, sorted);
        for v in values {
            assert_eq!(decode(&encode(v)), Some(v));
        }
        assert_eq!(decode("X000"), None);
        assert_eq!(decode(""), None);
    }
}
