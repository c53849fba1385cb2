//! Reading and writing data by path: places, their types, assignment with conversion.

use crate::interp::machine::{Exec, Interp, Unwind};
use crate::interp::shapes::display_type;
use abap_data::place::Place;
use abap_data::value::{ConvError, Type, Value};
use abap_syntax::ast::{Path, Sel};

impl<'r> Interp<'r, '_> {
    pub(crate) fn top(&self) -> usize {
        self.st.frames.len().saturating_sub(1)
    }

    /// Makes sure `ZCL_X=>attr` can be resolved.
    pub(crate) fn prepare_path(&mut self, path: &Path) -> Exec<()> {
        // Local classes and interfaces too (`lif=>const`), keyed by their program.
        if path.rest.first().is_some_and(|(s, _)| *s == Sel::Static)
            && let Some(class) = self.st.find_class(self.program(), &path.base)
        {
            self.ensure_statics(class)?;
        }
        Ok(())
    }

    pub fn read(&mut self, path: &Path) -> Exec<Value> {
        self.prepare_path(path)?;
        match self.st.lookup(self.top(), path) {
            Some(v) => Ok(v.val.clone()),
            None => Err(self.alias_error(path).unwrap_or_else(|| self.unknown(path))),
        }
    }

    pub(crate) fn unknown(&self, path: &Path) -> Unwind {
        self.not_supported(&format!("unknown data object {}", path.text()))
    }

    /// The place of a data object that is only read: write-protected ones (`IMPORTING`
    /// parameters, constants) too. Writes through it still meet the protection, because it is
    /// checked on the data object a place starts from (see [`Interp::writable_place`]).
    pub fn readable_place(&mut self, path: &Path) -> Exec<Place> {
        self.prepare_path(path)?;
        match self.st.place(self.top(), path) {
            Some(place) => Ok(place),
            None => Err(self.alias_error(path).unwrap_or_else(|| self.unknown(path))),
        }
    }

    pub fn writable_place(&mut self, path: &Path) -> Exec<Place> {
        let place = self.readable_place(path)?;
        if self.st.slot_var(&place.slot).is_some_and(|v| v.read_only) {
            return Err(self.dump(
                "MOVE_TO_LIT_NOTALLOWED_NODATA",
                format!("{} is write-protected and cannot be changed", path.text()),
            ));
        }
        Ok(place)
    }

    /// The type of the data object at `place` (declared type for whole variables).
    pub fn place_type(&self, place: &Place) -> Option<Type> {
        if place.steps.is_empty() {
            return self.st.slot_var(&place.slot).map(|v| v.ty.clone());
        }
        self.st.value_at(place).map(Value::type_of)
    }

    /// Assigns `val` to `place` with conversion to the target's type.
    pub fn assign_place(&mut self, place: &Place, val: Value) -> Exec<()> {
        let Some(ty) = self.place_type(place) else {
            return Err(self.not_supported("assignment to a vanished data object"));
        };
        let converted = val
            .convert(&ty)
            .map_err(|e| self.move_error(e, &val, &ty))?;
        let converted = self.keyed_table(&val, converted)?;
        match &converted {
            Value::Table(_, rows) if rows.len() > self.limits.table_rows => {
                self.room_for(rows.len())?
            }
            Value::Str(s) => self.text_fits(s.len())?,
            Value::XStr(x) => self.text_fits(x.len())?,
            _ => {}
        }
        let mut replaces_rows = false;
        if let Some(v) = self.st.value_at_mut(place) {
            replaces_rows = crate::interp::row_refs::holds_rows(v);
            *v = converted;
        }
        if replaces_rows {
            // The old rows are gone: references into them follow no row any more.
            self.rows_replaced(place);
        }
        Ok(())
    }

    /// The runtime error of a failed conversion of `val` to `ty`.
    pub fn move_error(&self, e: ConvError, val: &Value, ty: &Type) -> Unwind {
        let complex = |t: &Type| matches!(t, Type::Struct(_) | Type::Table(_));
        if e == ConvError::Incompatible && (complex(ty) || complex(&val.type_of())) {
            return self.dump(
                "OBJECTS_MOVE_NOT_SUPPORTED",
                format!(
                    "Conversion of type {} to type {} is not supported",
                    display_type(&val.type_of()),
                    display_type(ty)
                ),
            );
        }
        self.conv_error(e)
    }

    /// Assigns `val` to `path` with conversion to the target's type.
    pub fn assign_value(&mut self, path: &Path, val: Value) -> Exec<()> {
        let place = self.writable_place(path)?;
        self.assign_place(&place, val)
    }

    pub fn target_type_of(&mut self, path: &Path) -> Exec<Type> {
        let place = self.writable_place(path)?;
        match self.place_type(&place) {
            Some(t) => Ok(t),
            None => Err(self.unknown(path)),
        }
    }
}
