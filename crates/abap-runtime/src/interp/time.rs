//! The clock of a run and the statements that read it: `GET TIME [FIELD t]`, `GET TIME STAMP
//! FIELD ts`, `CONVERT TIME STAMP … INTO DATE … TIME …` and `CONVERT DATE … INTO TIME STAMP`.
//!
//! The clock is deterministic: it is `sy-datum`/`sy-uzeit` of the run, and the system time
//! zone is UTC, so time stamps are those fields side by side. Time zones other than UTC (or
//! blank, meaning UTC) are outside the simulator.

use crate::interp::tables::sy_set;
use crate::interp::{Exec, Interp};
use abap_data::calendar::{day_number, seconds};
use abap_data::number::Dec;
use abap_data::value::{Type, Value};
use abap_syntax::ast::{Expr, Path};
use abap_syntax::ast::{Target, TimeStmt};

impl<'r> Interp<'r, '_> {
    pub(crate) fn sy_text(&self, name: &str) -> String {
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
