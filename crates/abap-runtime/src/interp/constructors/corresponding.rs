//! `CORRESPONDING` and `MOVE-CORRESPONDING`: components of the same name (or mapped) from
//! one structure or table into another.

use crate::interp::{Exec, Interp};
use abap_data::value::Value;

impl Interp<'_, '_> {
    /// `CORRESPONDING`: components of `src` with the same name (or mapped) into `start`.
    pub(super) fn corresponding(
        &mut self,
        start: Value,
        src: &Value,
        mapping: &[(String, String)],
        except: &[String],
    ) -> Exec<Value> {
        match (start, src) {
            (Value::Struct(st, mut comps), Value::Struct(sst, svals)) => {
                if except.iter().any(|e| e == "*") {
                    // Only the mapped components.
                    for (t, s) in mapping {
                        self.copy_comp(&st, &mut comps, t, sst, svals, s)?;
                    }
                    return Ok(Value::Struct(st, comps));
                }
                let names: Vec<String> = st.comps.iter().map(|(n, _)| n.clone()).collect();
                for name in names {
                    if except.contains(&name) {
                        continue;
                    }
                    let source = match mapping.iter().find(|(t, _)| *t == name) {
                        Some((_, s)) => s.clone(),
                        None => {
                            // A component mapped elsewhere still goes by its own name too.
                            name.clone()
                        }
                    };
                    self.copy_comp(&st, &mut comps, &name, sst, svals, &source)?;
                }
                Ok(Value::Struct(st, comps))
            }
            (Value::Table(tt, mut rows), Value::Table(_, srows)) => {
                for r in srows.iter() {
                    self.tick()?;
                    let row = self.corresponding(tt.line.initial(), r, mapping, except)?;
                    if self.insert_by_key(&tt, &mut rows, row)?.is_none() {
                        return Err(self.dump(
                            "ITAB_DUPLICATE_KEY",
                            "A row with the same unique key already exists",
                        ));
                    }
                }
                Ok(Value::Table(tt, rows))
            }
            (start, s) => {
                let ty = start.type_of();
                s.convert(&ty).map_err(|e| self.move_error(e, s, &ty))
            }
        }
    }

    fn copy_comp(
        &mut self,
        st: &abap_data::value::StructType,
        comps: &mut [Value],
        target: &str,
        sst: &abap_data::value::StructType,
        svals: &[Value],
        source: &str,
    ) -> Exec<()> {
        let (Some(ti), Some(si)) = (st.index_of(target), sst.index_of(source)) else {
            return Ok(());
        };
        let (Some(slot), Some(v)) = (comps.get_mut(ti), svals.get(si)) else {
            return Ok(());
        };
        let new = match (&*slot, v) {
            (Value::Struct(..), Value::Struct(..)) | (Value::Table(..), Value::Table(..)) => {
                let cur = slot.clone();
                self.corresponding(cur, v, &[], &[])?
            }
            _ => {
                let ty = slot.type_of();
                v.convert(&ty).map_err(|e| self.move_error(e, v, &ty))?
            }
        };
        if let Some(slot) = comps.get_mut(ti) {
            *slot = new;
        }
        Ok(())
    }
}
