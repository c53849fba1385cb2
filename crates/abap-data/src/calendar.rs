//! ABAP's date and time arithmetic: a `d` field counts days since 01.01.0001 (Julian calendar
//! up to 04.10.1582, Gregorian from 15.10.1582, the ten days between do not exist), a `t`
//! field counts seconds since midnight.

/// Day number of 31.12.9999, the last valid date.
pub const MAX_DAY: i64 = 3_652_060;

/// Seconds in a day (`t` arithmetic wraps around midnight).
pub const DAY_SECONDS: i64 = 86_400;

/// Julian day number of 01.01.0001 in the Julian calendar (ABAP's day 0).
const EPOCH_JDN: i64 = 1_721_424;

/// First Julian day number of the Gregorian calendar (15.10.1582).
const GREGORIAN_START_JDN: i64 = 2_299_161;

fn is_julian(y: i64, m: i64, d: i64) -> bool {
    (y, m, d) < (1582, 10, 15)
}

fn days_in_month(y: i64, m: i64) -> i64 {
    let leap = if y < 1582 || (y == 1582 && m <= 10) {
        y % 4 == 0
    } else {
        (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
    };
    match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn jdn(y: i64, m: i64, d: i64) -> i64 {
    let a = (14 - m) / 12;
    let yy = y + 4800 - a;
    let mm = m + 12 * a - 3;
    let base = d + (153 * mm + 2) / 5 + 365 * yy + yy / 4;
    if is_julian(y, m, d) {
        base - 32083
    } else {
        base - yy / 100 + yy / 400 - 32045
    }
}

/// The day number of a `d` value `YYYYMMDD`; `None` when it is no valid date (initial
/// `00000000` included).
pub fn day_number(text: &str) -> Option<i64> {
    if text.len() != 8 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let y: i64 = text.get(0..4)?.parse().ok()?;
    let m: i64 = text.get(4..6)?.parse().ok()?;
    let d: i64 = text.get(6..8)?.parse().ok()?;
    if y < 1 || !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return None;
    }
    // 05.10.1582–14.10.1582 were skipped.
    if y == 1582 && m == 10 && (5..=14).contains(&d) {
        return None;
    }
    Some(jdn(y, m, d) - EPOCH_JDN)
}

/// `YYYYMMDD` of a day number; `00000000` outside 1 … 31.12.9999.
pub fn date_text(day: i64) -> String {
    if !(1..=MAX_DAY).contains(&day) {
        return "00000000".into();
    }
    let j = day + EPOCH_JDN;
    let (c, century_years) = if j >= GREGORIAN_START_JDN {
        let a = j + 32044;
        let b = (4 * a + 3) / 146_097;
        (a - 146_097 * b / 4, 100 * b)
    } else {
        (j + 32082, 0)
    };
    let d = (4 * c + 3) / 1461;
    let e = c - 1461 * d / 4;
    let m = (5 * e + 2) / 153;
    let day_of_month = e - (153 * m + 2) / 5 + 1;
    let month = m + 3 - 12 * (m / 10);
    let year = century_years + d - 4800 + m / 10;
    format!("{year:04}{month:02}{day_of_month:02}")
}

/// Seconds since midnight of a `t` value `HHMMSS` (digits only; otherwise `None`).
pub fn seconds(text: &str) -> Option<i64> {
    if text.len() != 6 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let h: i64 = text.get(0..2)?.parse().ok()?;
    let m: i64 = text.get(2..4)?.parse().ok()?;
    let s: i64 = text.get(4..6)?.parse().ok()?;
    Some(h * 3600 + m * 60 + s)
}

/// `HHMMSS` of a number of seconds (taken modulo one day).
pub fn time_text(secs: i64) -> String {
    let s = secs.rem_euclid(DAY_SECONDS);
    format!("{:02}{:02}{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn day_numbers() {
        assert_eq!(day_number("00010101"), Some(0));
        assert_eq!(day_number("00010102"), Some(1));
        assert_eq!(day_number("99991231"), Some(MAX_DAY));
        assert_eq!(day_number("20000101"), Some(730_121));
        assert_eq!(
            day_number("15821015").map(|d| d - 1),
            day_number("15821004")
        );
        assert_eq!(day_number("15821010"), None);
        assert_eq!(day_number("00000000"), None);
        assert_eq!(day_number("20230229"), None);
        assert!(day_number("20240229").is_some());
        assert_eq!(day_number("19000229"), None);
        assert!(day_number("15000229").is_some());
    }

    #[test]
    fn dates_round_trip() {
        for text in [
            "00010102", "15821004", "15821015", "19000228", "20000229", "20240101", "99991231",
        ] {
            let n = day_number(text).unwrap();
            assert_eq!(date_text(n), text);
        }
        assert_eq!(date_text(0), "00000000");
        assert_eq!(date_text(MAX_DAY + 1), "00000000");
    }

    #[test]
    fn times() {
        assert_eq!(seconds("123045"), Some(45_045));
        assert_eq!(time_text(45_045), "123045");
        assert_eq!(time_text(-1), "235959");
        assert_eq!(time_text(DAY_SECONDS + 61), "000101");
        assert_eq!(seconds("12ab45"), None);
    }
}
