//! The field symbols a frame's procedure declares, found in its source. The system never lists
//! field symbols among a scope's children (adt-wire.md §9.5, abap-interpreter.md §3.4), yet
//! answers `getVariables` for `<NAME>` while one is assigned: `vars` asks for the declared ones
//! by name and lists those the system answers.

/// Upper-case names (`<LS_ENTRY>`) of the field symbols declared in the procedure around `line`
/// (1-based) of `lines`: `FIELD-SYMBOLS <a> …` (also chained) and inline `FIELD-SYMBOL(<a>)`.
/// Outside any procedure (a report's main program) the whole source is searched.
pub(crate) fn declared(lines: &[String], line: u32) -> Vec<String> {
    let (first, last) = procedure(lines, line);
    let mut code = String::new();
    for text in lines.get(first..last).unwrap_or_default() {
        if text.starts_with('*') {
            continue;
        }
        code.push_str(without_comment(text));
        code.push(' ');
    }
    let code = code.to_ascii_uppercase();
    let mut names: Vec<String> = Vec::new();
    let mut add = |name: String| {
        if !names.contains(&name) {
            names.push(name);
        }
    };
    for statement in code.split('.') {
        let statement = statement.trim_start();
        if let Some(rest) = statement.strip_prefix("FIELD-SYMBOLS") {
            // `FIELD-SYMBOLS: <a> TYPE x, <b> LIKE LINE OF t.`: every bracketed name.
            let mut rest = rest;
            while let Some(open) = rest.find('<') {
                rest = &rest[open..];
                match bracketed(rest) {
                    Some(name) => {
                        rest = &rest[name.len()..];
                        add(name);
                    }
                    None => rest = &rest[1..],
                }
            }
            continue;
        }
        let mut rest = statement;
        while let Some(at) = rest.find("FIELD-SYMBOL(") {
            rest = &rest[at + "FIELD-SYMBOL(".len()..];
            if let Some(name) = bracketed(rest.trim_start()) {
                add(name);
            }
        }
    }
    names
}

/// Lines `first..last` (0-based, end exclusive) of the procedure holding `line`.
fn procedure(lines: &[String], line: u32) -> (usize, usize) {
    let at = (line as usize).saturating_sub(1).min(lines.len());
    let first = lines[..at]
        .iter()
        .rposition(|l| opens(l))
        .filter(|&start| !lines[start..at].iter().any(|l| closes(l)));
    let Some(first) = first else {
        return (0, lines.len());
    };
    let last = lines[at..]
        .iter()
        .position(|l| closes(l))
        .map_or(lines.len(), |end| at + end + 1);
    (first, last)
}

fn keyword(line: &str) -> String {
    let word: String = line
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    word.to_ascii_uppercase()
}

fn opens(line: &str) -> bool {
    matches!(
        keyword(line).as_str(),
        "METHOD" | "FORM" | "FUNCTION" | "MODULE"
    )
}

fn closes(line: &str) -> bool {
    matches!(
        keyword(line).as_str(),
        "ENDMETHOD" | "ENDFORM" | "ENDFUNCTION" | "ENDMODULE"
    )
}

/// The line without its `"` comment (a `"` inside a '…' or `…` literal is kept).
fn without_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '"') => return &line[..i],
            (None, '\'' | '`' | '|') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
    }
    line
}

/// `<NAME>` at the start of `text`, when it is a field symbol's name.
fn bracketed(text: &str) -> Option<String> {
    let inner = text.strip_prefix('<')?;
    let end = inner.find('>')?;
    let name = &inner[..end];
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '/');
    valid.then(|| format!("<{name}>"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    const CLASS: &str = "CLASS zcl_x IMPLEMENTATION.
  METHOD first.
    FIELD-SYMBOLS <other> TYPE i.
  ENDMETHOD.
  METHOD run.
    FIELD-SYMBOLS: <ls_a> TYPE ty_a, <lv_b> TYPE i.
    \" FIELD-SYMBOL(<in_comment>)
* FIELD-SYMBOLS <starred> TYPE i.
    LOOP AT lt_items ASSIGNING FIELD-SYMBOL(<ls_entry>).
      IF lv_a < lv_b AND lv_c > 3.
        lv_text = '<not_one>'.
      ENDIF.
    ENDLOOP.
    READ TABLE lt_items ASSIGNING FIELD-SYMBOL( <ls_Second> ) INDEX 1.
  ENDMETHOD.
ENDCLASS.";

    #[test]
    fn the_procedure_around_the_line_declares_them() {
        assert_eq!(
            declared(&source(CLASS), 11),
            ["<LS_A>", "<LV_B>", "<LS_ENTRY>", "<LS_SECOND>"]
        );
        assert_eq!(declared(&source(CLASS), 3), ["<OTHER>"]);
    }

    #[test]
    fn outside_any_procedure_the_whole_source_counts() {
        let report = source(
            "REPORT z.\nFIELD-SYMBOLS <gs> TYPE i.\nSTART-OF-SELECTION.\n  ASSIGN gv TO <gs>.",
        );
        assert_eq!(declared(&report, 4), ["<GS>"]);
        assert!(declared(&source(CLASS), 16).contains(&"<OTHER>".to_string()));
    }
}
