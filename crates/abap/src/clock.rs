//! The clock of a run and the statements that read it: `GET TIME [FIELD t]`, `GET TIME STAMP
//! FIELD ts`, `CONVERT TIME STAMP … INTO DATE … TIME …` and `CONVERT DATE … INTO TIME STAMP`.
//!
//! The clock is deterministic: it is `sy-datum`/`sy-uzeit` of the run, and the system time
//! zone is UTC, so time stamps are those fields side by side. Time zones other than UTC (or
//! blank, meaning UTC) are outside the simulator.

use crate::ast::{CallExpr, Expr, Path};
use crate::ast::{Target, TimeStmt};
use crate::calendar::{day_number, seconds};
use crate::expr::{parse_full_expr, parse_path};
use crate::interp::{Exec, Interp};
use crate::itab::sy_set;
use crate::lexer::Token;
use crate::lexer::upper_word;
use crate::number::Dec;
use crate::parser::inline_decl;
use crate::value::{Type, Value};

fn target(toks: &[Token]) -> Option<Target> {
    if let Some((name, n)) = inline_decl(toks) {
        return (n == toks.len()).then_some(Target::Inline(name));
    }
    match toks {
        [t] => t.word().and_then(parse_path).map(Target::Path),
        _ => None,
    }
}

/// Splits `toks` at the given keyword phrases (each a sequence of words, in any order, each at
/// most once): the operand tokens after each phrase.
fn clauses<'t>(toks: &'t [Token], phrases: &[&[&str]]) -> Option<Vec<Option<&'t [Token]>>> {
    let mut starts: Vec<(usize, usize, usize)> = Vec::new(); // (phrase, start, operand start)
    let mut i = 0;
    while i < toks.len() {
        let found = phrases.iter().enumerate().find(|(_, p)| {
            p.iter()
                .enumerate()
                .all(|(k, w)| toks.get(i + k).is_some_and(|t| t.is_kw(w)))
        });
        match found {
            Some((n, p)) => {
                if starts.iter().any(|(m, _, _)| *m == n) {
                    return None;
                }
                starts.push((n, i, i + p.len()));
                i += p.len();
            }
            None => i += 1,
        }
    }
    if starts.first().is_none_or(|(_, s, _)| *s != 0) {
        return None;
    }
    let mut out = vec![None; phrases.len()];
    for (k, (n, _, from)) in starts.iter().enumerate() {
        let to = starts.get(k + 1).map_or(toks.len(), |(_, s, _)| *s);
        let slot = out.get_mut(*n)?;
        *slot = Some(toks.get(*from..to)?);
    }
    Some(out)
}

/// `GET TIME …` (tokens of the whole statement).
pub fn parse_get_time(toks: &[Token]) -> Result<TimeStmt, String> {
    let bad = || "GET TIME".to_string();
    match (
        upper_word(toks.get(2)).as_str(),
        upper_word(toks.get(3)).as_str(),
    ) {
        ("", _) => Ok(TimeStmt::GetTime(None)),
        ("FIELD", _) => target(toks.get(3..).unwrap_or(&[]))
            .map(|t| TimeStmt::GetTime(Some(t)))
            .ok_or_else(bad),
        ("STAMP", "FIELD") => target(toks.get(4..).unwrap_or(&[]))
            .map(TimeStmt::GetTimeStamp)
            .ok_or_else(|| "GET TIME STAMP".to_string()),
        _ => Err(bad()),
    }
}

fn operand(toks: Option<&[Token]>) -> Option<Expr> {
    parse_full_expr(toks?).ok()
}

/// `CONVERT TIME STAMP …` / `CONVERT DATE …` (tokens of the whole statement).
pub fn parse_convert(toks: &[Token]) -> Result<TimeStmt, String> {
    let rest = toks.get(1..).unwrap_or(&[]);
    let bad = || format!("CONVERT {}", upper_word(rest.first()));
    if upper_word(rest.first()) == "TIME" && upper_word(rest.get(1)) == "STAMP" {
        let c = clauses(
            rest,
            &[
                &["TIME", "STAMP"],
                &["TIME", "ZONE"],
                &["INTO", "DATE"],
                &["INTO", "TIME"],
                &["TIME"],
                &["DAYLIGHT", "SAVING", "TIME"],
            ],
        )
        .ok_or_else(bad)?;
        let get = |k: usize| c.get(k).copied().flatten();
        // `INTO TIME t` without DATE is the `INTO TIME` phrase; after DATE it is `TIME`.
        let time = get(3).or(get(4));
        let tgt = |t: Option<&[Token]>| match t {
            Some(t) => target(t).map(Some).ok_or_else(bad),
            None => Ok(None),
        };
        return Ok(TimeStmt::StampToDate {
            stamp: operand(get(0)).ok_or_else(bad)?,
            zone: operand(get(1)).ok_or_else(bad)?,
            date: tgt(get(2))?,
            time: tgt(time)?,
            dst: tgt(get(5))?,
        });
    }
    if upper_word(rest.first()) == "DATE" {
        let c = clauses(
            rest,
            &[
                &["DATE"],
                &["TIME", "ZONE"],
                &["INTO", "TIME", "STAMP"],
                &["TIME"],
                &["DAYLIGHT", "SAVING", "TIME"],
            ],
        )
        .ok_or_else(bad)?;
        let get = |k: usize| c.get(k).copied().flatten();
        if get(4).is_some() {
            return Err("CONVERT DATE … DAYLIGHT SAVING TIME".into());
        }
        return Ok(TimeStmt::DateToStamp {
            date: operand(get(0)).ok_or_else(bad)?,
            time: match get(3) {
                Some(t) => Some(operand(Some(t)).ok_or_else(bad)?),
                None => None,
            },
            stamp: get(2).and_then(target).ok_or_else(bad)?,
            zone: operand(get(1)).ok_or_else(bad)?,
        });
    }
    Err(bad())
}

impl<'r> Interp<'r, '_> {
    fn sy_text(&self, name: &str) -> String {
        self.st
            .sy
            .iter()
            .find(|v| v.name == name)
            .and_then(|v| v.val.to_abap_string().ok())
            .unwrap_or_default()
    }

    fn put(&mut self, t: &Target, v: Value, inline: Type) -> Exec<()> {
        match t {
            Target::Path(p) => self.assign_value(p, v),
            Target::Inline(name) => {
                self.declare_inline(name, inline);
                self.assign_value(
                    &Path {
                        base: name.clone(),
                        rest: Vec::new(),
                    },
                    v,
                )
            }
        }
    }

    /// True for the time zones the simulator converts (UTC; blank means UTC).
    fn utc_zone(&mut self, zone: &Expr) -> Exec<bool> {
        let z = self.eval(zone)?;
        let text = z.to_abap_string().map_err(|e| self.conv_error(e))?;
        match text.trim().to_ascii_uppercase().as_str() {
            "" | "UTC" => Ok(true),
            _ => Err(self.not_supported(&format!("time zone {}", text.trim()))),
        }
    }

    /// `cl_abap_context_info=>get_system_date( )` and friends: the run's clock and user.
    pub fn context_info_call(&mut self, call: &CallExpr) -> Exec<Value> {
        if call.args.positional.is_some() || !call.args.exporting.is_empty() {
            return Err(self.not_supported(&format!(
                "cl_abap_context_info=>{}( ) with parameters",
                call.method.to_ascii_lowercase()
            )));
        }
        Ok(match call.method.as_str() {
            "GET_SYSTEM_DATE" => Value::D(self.sy_text("DATUM").into()),
            "GET_SYSTEM_TIME" => Value::T(self.sy_text("UZEIT").into()),
            "GET_USER_TECHNICAL_NAME" => {
                Value::C(format!("{:<12}", self.sy_text("UNAME").trim_end()).into())
            }
            "GET_USER_TIME_ZONE" => Value::C("UTC   ".into()),
            other => {
                return Err(self.not_supported(&format!("method CL_ABAP_CONTEXT_INFO=>{other}")));
            }
        })
    }

    pub fn exec_time_stmt(&mut self, s: &TimeStmt) -> Exec<()> {
        match s {
            TimeStmt::GetTime(field) => {
                if let Some(f) = field {
                    let now = Value::T(self.sy_text("UZEIT").into());
                    self.put(f, now, Type::T)?;
                }
                Ok(())
            }
            TimeStmt::GetTimeStamp(field) => {
                let text = format!("{}{}", self.sy_text("DATUM"), self.sy_text("UZEIT"));
                let stamp = Value::Str(text.into());
                self.put(field, stamp, Type::P { len: 8, dec: 0 })
            }
            TimeStmt::StampToDate {
                stamp,
                zone,
                date,
                time,
                dst,
            } => {
                let stamp = self.eval(stamp)?;
                self.utc_zone(zone)?;
                let whole = stamp
                    .to_dec()
                    .map_err(|e| self.conv_error(e))?
                    .rescale(0)
                    .unwrap_or(-1);
                let digits = format!("{whole:014}");
                let (d, t) = (digits.get(0..8), digits.get(8..14));
                let valid = whole >= 0
                    && digits.len() == 14
                    && d.and_then(day_number).is_some()
                    && t.and_then(seconds).is_some_and(|s| s < 86_400);
                if !valid {
                    sy_set(self, "SUBRC", 12);
                    return Ok(());
                }
                if let Some(target) = date {
                    self.put(target, Value::D(d.unwrap_or_default().into()), Type::D)?;
                }
                if let Some(target) = time {
                    self.put(target, Value::T(t.unwrap_or_default().into()), Type::T)?;
                }
                if let Some(target) = dst {
                    self.put(target, Value::C(" ".into()), Type::C(1))?;
                }
                sy_set(self, "SUBRC", 0);
                Ok(())
            }
            TimeStmt::DateToStamp {
                date,
                time,
                stamp,
                zone,
            } => {
                let d = self
                    .eval(date)?
                    .convert(&Type::D)
                    .map_err(|e| self.conv_error(e))?;
                let t = match time {
                    Some(t) => self
                        .eval(t)?
                        .convert(&Type::T)
                        .map_err(|e| self.conv_error(e))?,
                    None => Value::T("000000".into()),
                };
                self.utc_zone(zone)?;
                let (Value::D(d), Value::T(t)) = (d, t) else {
                    return Err(self.not_supported("CONVERT DATE operands"));
                };
                if day_number(&d).is_none() || seconds(&t).is_none_or(|s| s >= 86_400) {
                    sy_set(self, "SUBRC", 12);
                    return Ok(());
                }
                let m: i128 = format!("{d}{t}").parse().unwrap_or(0);
                let v = Value::p_from_dec(Dec::int(m), 8, 0).map_err(|e| self.conv_error(e))?;
                self.put(stamp, v, Type::P { len: 8, dec: 0 })?;
                sy_set(self, "SUBRC", 0);
                Ok(())
            }
        }
    }
}
