//! Exact decimal numbers (`i128` mantissa, decimal scale): the calculation type `p` and every
//! numeric conversion go through this, so rounding is ABAP's "half away from zero" everywhere.

use std::cmp::Ordering;

/// `m / 10^scale`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dec {
    pub m: i128,
    pub scale: u32,
}

/// Largest scale we keep for intermediate results (ABAP keeps 31 digits for `p` calculations).
pub const MAX_SCALE: u32 = 20;

/// The calculation overflowed the representable range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

/// The text is not a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotANumber;

pub fn pow10(n: u32) -> Option<i128> {
    10i128.checked_pow(n)
}

/// The decimal digits of `n`, written at the end of `buf` (a `u128` has at most 39), without
/// the string `to_string` makes: the debugger writes numbers for every cell of a table page.
pub fn decimal_digits(n: u128, buf: &mut [u8; 39]) -> &str {
    let mut start = buf.len();
    let mut put = |digit: u8| {
        start -= 1;
        if let Some(b) = buf.get_mut(start) {
            *b = b'0' + digit;
        }
    };
    // Most numbers fit 64 bits, whose division is one instruction (128 bits' is a call).
    if let Ok(mut rest) = u64::try_from(n) {
        loop {
            put((rest % 10) as u8);
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
    } else {
        let mut rest = n;
        loop {
            put((rest % 10) as u8);
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
    }
    std::str::from_utf8(buf.get(start..).unwrap_or_default()).unwrap_or_default()
}

// `add`, `sub`, … are checked (they answer `Overflow`), so they are not the `std::ops` traits.
#[allow(clippy::should_implement_trait)]
impl Dec {
    pub fn int(v: i128) -> Dec {
        Dec { m: v, scale: 0 }
    }

    pub fn is_zero(&self) -> bool {
        self.m == 0
    }

    /// Mantissa for `scale` decimals, rounding half away from zero when decimals are dropped.
    pub fn rescale(&self, scale: u32) -> Result<i128, Overflow> {
        match scale.cmp(&self.scale) {
            Ordering::Equal => Ok(self.m),
            Ordering::Greater => {
                let f = pow10(scale - self.scale).ok_or(Overflow)?;
                self.m.checked_mul(f).ok_or(Overflow)
            }
            Ordering::Less => {
                let Some(f) = pow10(self.scale - scale) else {
                    // More than 38 dropped digits: the value rounds to zero.
                    return Ok(0);
                };
                let q = self.m / f;
                let r = self.m % f;
                // |r| >= f/2, written without overflow.
                if r.unsigned_abs() >= f.unsigned_abs() - r.unsigned_abs() {
                    Ok(q + self.m.signum())
                } else {
                    Ok(q)
                }
            }
        }
    }

    /// Drops trailing zero decimals and caps the scale (keeps numbers small).
    pub fn normalize(self) -> Dec {
        let mut d = self;
        if d.scale > MAX_SCALE {
            let m = d.rescale(MAX_SCALE).unwrap_or(0);
            d = Dec {
                m,
                scale: MAX_SCALE,
            };
        }
        while d.scale > 0 && d.m % 10 == 0 {
            d.m /= 10;
            d.scale -= 1;
        }
        d
    }

    fn align(a: Dec, b: Dec) -> Result<(i128, i128, u32), Overflow> {
        let s = a.scale.max(b.scale);
        Ok((a.rescale(s)?, b.rescale(s)?, s))
    }

    pub fn add(self, o: Dec) -> Result<Dec, Overflow> {
        let (a, b, s) = Dec::align(self, o)?;
        Ok(Dec {
            m: a.checked_add(b).ok_or(Overflow)?,
            scale: s,
        }
        .normalize())
    }

    pub fn sub(self, o: Dec) -> Result<Dec, Overflow> {
        let (a, b, s) = Dec::align(self, o)?;
        Ok(Dec {
            m: a.checked_sub(b).ok_or(Overflow)?,
            scale: s,
        }
        .normalize())
    }

    pub fn mul(self, o: Dec) -> Result<Dec, Overflow> {
        Ok(Dec {
            m: self.m.checked_mul(o.m).ok_or(Overflow)?,
            scale: self.scale + o.scale,
        }
        .normalize())
    }

    /// Division with up to [`MAX_SCALE`] decimals (rounded); `None` when `o` is zero.
    pub fn div(self, o: Dec) -> Result<Option<Dec>, Overflow> {
        if o.m == 0 {
            return Ok(None);
        }
        // self.m/10^sa / (o.m/10^sb) = self.m * 10^(sb + k) / o.m / 10^(sa + k)
        for extra in (0..=MAX_SCALE).rev() {
            let Some(f) = pow10(o.scale + extra) else {
                continue;
            };
            let Some(num) = self.m.checked_mul(f) else {
                continue;
            };
            let Some(f10) = num.checked_mul(10) else {
                continue;
            };
            // Truncated 10x quotient; its last digit decides the rounding.
            let Some(q10) = f10.checked_div(o.m) else {
                continue;
            };
            let m = Dec { m: q10, scale: 1 }.rescale(0)?;
            return Ok(Some(
                Dec {
                    m,
                    scale: self.scale + extra,
                }
                .normalize(),
            ));
        }
        Err(Overflow)
    }

    pub fn neg(self) -> Result<Dec, Overflow> {
        Ok(Dec {
            m: self.m.checked_neg().ok_or(Overflow)?,
            scale: self.scale,
        })
    }

    pub fn cmp(&self, o: &Dec) -> Ordering {
        match Dec::align(*self, *o) {
            Ok((a, b, _)) => a.cmp(&b),
            // Alignment overflows only for huge magnitudes; compare integer parts then.
            Err(_) => {
                let a = self.rescale(0).unwrap_or(self.m);
                let b = o.rescale(0).unwrap_or(o.m);
                a.cmp(&b)
            }
        }
    }

    /// Parses ABAP number text: blanks around, sign in front or at the end, optional decimal
    /// point; all blanks means zero.
    pub fn parse(text: &str) -> Result<Dec, NotANumber> {
        let t = text.trim_matches(|c: char| c == ' ' || c == '\t');
        if t.is_empty() {
            return Ok(Dec::int(0));
        }
        let (neg, body) = if let Some(r) = t.strip_prefix('-') {
            (true, r.trim_start())
        } else if let Some(r) = t.strip_prefix('+') {
            (false, r.trim_start())
        } else if let Some(r) = t.strip_suffix('-') {
            (true, r.trim_end())
        } else if let Some(r) = t.strip_suffix('+') {
            (false, r.trim_end())
        } else {
            (false, t)
        };
        let (int, frac) = match body.split_once('.') {
            Some((i, f)) => (i, f),
            None => (body, ""),
        };
        if int.is_empty() && frac.is_empty() {
            return Err(NotANumber);
        }
        if !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) {
            return Err(NotANumber);
        }
        // Too many digits for i128 (even after dropping leading zeros): not representable.
        let int = int.trim_start_matches('0');
        let frac = frac.trim_end_matches('0');
        if int.len() + frac.len() > 36 {
            return Err(NotANumber);
        }
        let mut m: i128 = 0;
        for c in int.chars().chain(frac.chars()) {
            let d = i128::from(c.to_digit(10).ok_or(NotANumber)?);
            m = m
                .checked_mul(10)
                .and_then(|m| m.checked_add(d))
                .ok_or(NotANumber)?;
        }
        let scale = u32::try_from(frac.len()).map_err(|_| NotANumber)?;
        Ok(Dec {
            m: if neg { -m } else { m },
            scale,
        })
    }

    /// `123.45` style text with exactly `decimals` decimals and a leading `-` when negative.
    pub fn format(&self, decimals: u32) -> String {
        let m = self.rescale(decimals).unwrap_or(self.m);
        let digits = m.unsigned_abs().to_string();
        let d = decimals as usize;
        let body = if d == 0 {
            digits
        } else if digits.len() <= d {
            format!("0.{}{}", "0".repeat(d - digits.len()), digits)
        } else {
            let (i, f) = digits.split_at(digits.len() - d);
            format!("{i}.{f}")
        };
        if m < 0 { format!("-{body}") } else { body }
    }

    /// [`Dec::format`] with the sign in a column after the number (`15 `, `42-`, `12.50 `),
    /// appended to `out`.
    pub fn push_sign_last(&self, out: &mut String, decimals: u32) {
        let m = self.rescale(decimals).unwrap_or(self.m);
        let mut buf = [0; 39];
        let digits = decimal_digits(m.unsigned_abs(), &mut buf);
        let d = decimals as usize;
        if d == 0 {
            out.push_str(digits);
        } else if digits.len() <= d {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', d - digits.len()));
            out.push_str(digits);
        } else {
            let (int, frac) = digits.split_at(digits.len() - d);
            out.push_str(int);
            out.push('.');
            out.push_str(frac);
        }
        out.push(if m < 0 { '-' } else { ' ' });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Dec {
        Dec::parse(s).unwrap()
    }

    #[test]
    fn parse_forms() {
        assert_eq!(d("12.50").rescale(2), Ok(1250));
        assert_eq!(d(" 42- ").rescale(0), Ok(-42));
        assert_eq!(d("-0.5").rescale(1), Ok(-5));
        assert_eq!(d("   ").rescale(0), Ok(0));
        assert_eq!(d(".5").rescale(1), Ok(5));
        assert!(Dec::parse("1a").is_err());
        assert!(Dec::parse(".").is_err());
        assert!(Dec::parse("1.2.3").is_err());
    }

    #[test]
    fn rounding_half_away_from_zero() {
        assert_eq!(d("2.5").rescale(0), Ok(3));
        assert_eq!(d("-2.5").rescale(0), Ok(-3));
        assert_eq!(d("2.49").rescale(0), Ok(2));
        assert_eq!(d("1.005").rescale(2), Ok(101));
        assert_eq!(d("-1.004").rescale(2), Ok(-100));
    }

    #[test]
    fn arithmetic() {
        assert_eq!(d("7").div(d("2")).unwrap().unwrap().rescale(1), Ok(35));
        assert_eq!(d("1").div(d("3")).unwrap().unwrap().rescale(4), Ok(3333));
        assert_eq!(d("2").div(d("3")).unwrap().unwrap().rescale(2), Ok(67));
        assert!(d("1").div(d("0")).unwrap().is_none());
        assert_eq!(d("12.5").mul(d("2")).unwrap().format(2), "25.00");
        assert_eq!(d("0.1").add(d("0.2")).unwrap().format(1), "0.3");
        assert_eq!(d("1").sub(d("1.25")).unwrap().format(2), "-0.25");
    }

    #[test]
    fn formatting() {
        assert_eq!(d("0").format(2), "0.00");
        assert_eq!(d("0.05").format(2), "0.05");
        assert_eq!(d("-123.456").format(2), "-123.46");
        assert_eq!(d("15").format(0), "15");
    }

    /// The sign column as it was written first, on [`Dec::format`]: the reference.
    fn sign_last_by_format(d: &Dec, decimals: u32) -> String {
        let text = d.format(decimals);
        match text.strip_prefix('-') {
            Some(abs) => format!("{abs}-"),
            None => format!("{text} "),
        }
    }

    #[test]
    fn digits_of_the_extremes() {
        let mut buf = [0; 39];
        assert_eq!(decimal_digits(0, &mut buf), "0");
        assert_eq!(decimal_digits(u128::MAX, &mut buf), u128::MAX.to_string());
        assert_eq!(
            decimal_digits(u128::from(u64::MAX), &mut buf),
            u64::MAX.to_string()
        );
        assert_eq!(
            decimal_digits(u128::from(u64::MAX) + 1, &mut buf),
            (u128::from(u64::MAX) + 1).to_string()
        );
        let mut s = String::new();
        Dec {
            m: i128::MIN,
            scale: 3,
        }
        .push_sign_last(&mut s, 3);
        assert_eq!(
            s,
            sign_last_by_format(
                &Dec {
                    m: i128::MIN,
                    scale: 3
                },
                3
            )
        );
    }

    proptest::proptest! {
        #[test]
        fn sign_last_is_format_with_the_sign_moved(
            m in proptest::prelude::any::<i128>(),
            small in -100_000i128..100_000,
            scale in 0u32..=20,
            decimals in 0u32..=20,
        ) {
            for m in [m, small, m >> 64, small * 1_000] {
                let d = Dec { m, scale };
                let mut s = String::from("x");
                d.push_sign_last(&mut s, decimals);
                proptest::prop_assert_eq!(&s[1..], sign_last_by_format(&d, decimals));
                let mut buf = [0; 39];
                proptest::prop_assert_eq!(
                    decimal_digits(m.unsigned_abs(), &mut buf),
                    m.unsigned_abs().to_string()
                );
            }
        }
    }
}
