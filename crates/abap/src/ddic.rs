//! Data elements of the ABAP Dictionary that programs commonly type with, as the built-in
//! types the simulator has for them (the simulator has no dictionary of its own).

use crate::value::{MAX_C_LENGTH, Type};

/// The type of a dictionary data element by its upper-case name: `CHARnn`/`NUMCnn` (`c`/`n`
/// of that length), the `SYST_*`/`SY*` elements of the system fields, `BOOLEAN`/`BOOLE_D`.
pub fn data_element(name: &str) -> Option<Type> {
    if let Some(t) = crate::t100::dictionary_type(name) {
        return Some(t);
    }
    if let Some(n) = name.strip_prefix("CHAR")
        && let Ok(len) = n.parse::<u32>()
        && (1..=MAX_C_LENGTH).contains(&len)
        && !n.starts_with('0')
    {
        return Some(Type::C(len));
    }
    if let Some(n) = name.strip_prefix("NUMC")
        && let Ok(len) = n.parse::<u32>()
        && (1..=MAX_C_LENGTH).contains(&len)
        && !n.starts_with('0')
    {
        return Some(Type::N(len));
    }
    let ty = match name {
        "SYST_SUBRC" | "SYSUBRC" | "SYST_TABIX" | "SYTABIX" | "SYST_INDEX" | "SYINDEX"
        | "SYST_TFILL" | "SYTFILL" | "SYST_DBCNT" | "SYDBCNT" | "SYST_FDPOS" | "SYFDPOS" => Type::I,
        "SYST_UNAME" | "SYUNAME" => Type::C(12),
        "SYST_SYSID" | "SYSYSID" => Type::C(8),
        "SYST_MANDT" | "SYMANDT" | "MANDT" => Type::C(3),
        "SYST_MSGID" | "SYMSGID" => Type::C(20),
        "SYST_MSGTY" | "SYMSGTY" => Type::C(1),
        "SYST_MSGNO" | "SYMSGNO" => Type::N(3),
        "SYST_MSGV" | "SYMSGV" => Type::C(50),
        "SYST_REPID" | "SYREPID" => Type::C(40),
        "BOOLEAN" | "BOOLE_D" | "ABAP_BOOLEAN" => Type::C(1),
        _ => return None,
    };
    Some(ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_elements_take_their_length_from_the_name() {
        assert_eq!(data_element("CHAR10"), Some(Type::C(10)));
        assert_eq!(data_element("CHAR255"), Some(Type::C(255)));
        assert_eq!(data_element("CHAR0"), None);
        assert_eq!(data_element("CHAR010"), None);
        assert_eq!(data_element("CHARX"), None);
        assert_eq!(data_element("CHAR99999999999"), None);
        assert_eq!(data_element("NUMC10"), Some(Type::N(10)));
        assert_eq!(data_element("NUMC0"), None);
    }

    #[test]
    fn system_field_elements() {
        assert_eq!(data_element("SYST_SUBRC"), Some(Type::I));
        assert_eq!(data_element("SYUNAME"), Some(Type::C(12)));
        assert_eq!(data_element("NOT_A_TYPE"), None);
    }
}
