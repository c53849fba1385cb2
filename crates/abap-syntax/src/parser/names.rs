//! Names of programs, includes and class keys, as the debugger shows them.

/// `ZCL_X` → `ZCL_X=========================` (padded with `=` to 30 characters).
pub fn pad30(name: &str) -> String {
    format!("{name:=<30}")
}

/// Main program of a class pool.
pub fn class_pool_program(class: &str) -> String {
    format!("{}CP", pad30(class))
}

/// 3-character base-36 counter of method includes (`001`, …, `00Z`, `010`).
pub(super) fn base36(mut n: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut s = [b'0'; 3];
    for slot in s.iter_mut().rev() {
        *slot = DIGITS[n % 36];
        n /= 36;
    }
    String::from_utf8_lossy(&s).into_owned()
}

/// Key of a local class `name` of main program `program`.
pub fn local_class_key(program: &str, name: &str) -> String {
    format!("\\PROGRAM={program}\\CLASS={name}")
}

/// Key of the pseudo class holding a program's globals, events and forms.
pub fn program_key(program: &str) -> String {
    format!("\\PROGRAM={program}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_counter() {
        assert_eq!(base36(1), "001");
        assert_eq!(base36(10), "00A");
        assert_eq!(base36(35), "00Z");
        assert_eq!(base36(36), "010");
        assert_eq!(
            class_pool_program("ZCL_ABAPDBG_DEMO"),
            "ZCL_ABAPDBG_DEMO==============CP"
        );
    }
}
