//! What a line typed at the prompt means: the seed spec's commands (s, n, o, c, v, x, bt, q,
//! kill, h) and ours (b, bp, f, p, set, t, table, threads, w). Commands that a one-shot command already
//! does are handed to it as its own command line (see [`Cmd::OneShot`]).

use crate::oneshot::step::StepKind;

/// Rows `table` and `x` show unless told otherwise.
pub(crate) const TABLE_ROWS: &str = "20";

/// One line's command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Cmd {
    /// Nothing typed.
    Empty,
    /// Into, over, out or continue.
    Step(StepKind),
    /// The selected frame's variables, the changed ones marked.
    Vars,
    /// The one-shot command with these words (`vars LT_ITEMS`, `bp set ZCL_X:42`, …).
    OneShot(Vec<String>),
    /// `x <var>`: the rows of a table, the components of anything else.
    Expand(String),
    /// `f <n>`: a frame, kept to know which variables may be marked.
    Frame(usize),
    /// `t <n>`: another caught program becomes the current one.
    Thread(u32),
    /// Wait for the next stop.
    Wait,
    Quit,
    Kill,
    Help,
}

/// The command words, for completion and help: (words, arguments, what it does).
pub(crate) const COMMANDS: &[(&[&str], &str, &str)] = &[
    (&["s", "step"], "", "step into"),
    (&["n", "next"], "", "step over"),
    (&["o", "out"], "", "step out (return to the caller)"),
    (
        &["c", "continue"],
        "",
        "continue to the next stop or the end",
    ),
    (
        &["v", "vars"],
        "",
        "variables of the frame (* = changed by the last step)",
    ),
    (
        &["x", "expand"],
        "<var>",
        "components of a structure, object or table",
    ),
    (
        &["p", "print"],
        "<path>",
        "one variable: LT_ITEMS[3]-PRICE, ME->MV_NAME",
    ),
    (
        &["set"],
        "<path> <value>",
        "assign a value (needs writes); set system on|off: SAP code",
    ),
    (
        &["table"],
        "<var> [offset] [limit]",
        "rows of an internal table",
    ),
    (&["bt", "stack"], "", "the call stack"),
    (
        &["f", "frame"],
        "<n>",
        "select a frame of the stack for v, x and p",
    ),
    (&["src", "source"], "", "the source around the current line"),
    (&["threads"], "", "the caught programs"),
    (
        &["t", "thread"],
        "<n>",
        "make a caught program the current one",
    ),
    (
        &["b", "break"],
        "<location>",
        "set a breakpoint, e.g. ZCL_X:42",
    ),
    (
        &["bp"],
        "list|delete|enable|disable …",
        "breakpoints, as 'abapdbg bp'",
    ),
    (
        &["dumps"],
        "[--since 1h] [--error E] …",
        "the short dumps, as 'abapdbg dumps'",
    ),
    (
        &["dump"],
        "<id>",
        "one short dump: chapters, source, active calls",
    ),
    (&["w", "wait"], "", "wait for the next stop"),
    (
        &["q", "quit"],
        "",
        "detach: our breakpoints off, the program runs on; exit",
    ),
    (&["kill"], "", "terminate the program; exit"),
    (&["h", "help"], "", "this help"),
];

/// The help text.
pub(crate) fn help() -> String {
    let mut out = String::new();
    for (words, args, what) in COMMANDS {
        let head = format!("{} {args}", words.join(", "));
        out.push_str(&format!("  {head:<40}{what}\n"));
    }
    out.push_str("  Tab completes commands and variable names; Ctrl-D quits like q.\n");
    out
}

/// Parses a line; the error is a message for the user.
pub(crate) fn parse(line: &str) -> Result<Cmd, String> {
    let words = split(line)?;
    let Some((head, rest)) = words.split_first() else {
        return Ok(Cmd::Empty);
    };
    let one = |name: &str| -> Result<String, String> {
        match rest {
            [arg] => Ok(arg.clone()),
            [] => Err(format!("{head}: which {name}?")),
            _ => Err(format!("{head} takes one {name}")),
        }
    };
    let none = |cmd: Cmd| -> Result<Cmd, String> {
        if rest.is_empty() {
            Ok(cmd)
        } else {
            Err(format!("{head} takes no arguments"))
        }
    };
    let with = |words: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        v.extend(rest.iter().cloned());
        v
    };
    match head.to_lowercase().as_str() {
        "s" | "step" => none(Cmd::Step(StepKind::Into)),
        "n" | "next" => none(Cmd::Step(StepKind::Over)),
        "o" | "out" => none(Cmd::Step(StepKind::Out)),
        "c" | "continue" => none(Cmd::Step(StepKind::Continue)),
        "v" | "vars" if rest.is_empty() => Ok(Cmd::Vars),
        "v" | "vars" => Ok(Cmd::OneShot(vec!["vars".into(), one("variable")?])),
        "x" | "expand" => Ok(Cmd::Expand(one("variable")?)),
        "p" | "print" => Ok(Cmd::OneShot(vec!["get".into(), one("path")?])),
        // `set system on|off`: system debugging (a variable SYSTEM is set with `set SYSTEM …`).
        "set" if matches!(rest, [w, v] if w == "system" && (v == "on" || v == "off")) => {
            Ok(Cmd::OneShot(vec![
                "settings".into(),
                "--system-debugging".into(),
                rest[1].clone(),
            ]))
        }
        "set" => match rest {
            [path, value @ ..] if !value.is_empty() => Ok(Cmd::OneShot(vec![
                "set".into(),
                path.clone(),
                value.join(" "),
            ])),
            _ => Err("set <path> <value>".into()),
        },
        "table" => match rest {
            [var] => Ok(Cmd::OneShot(vec![
                "table".into(),
                var.clone(),
                "--limit".into(),
                TABLE_ROWS.into(),
            ])),
            [var, offset] => Ok(Cmd::OneShot(vec![
                "table".into(),
                var.clone(),
                "--offset".into(),
                offset.clone(),
                "--limit".into(),
                TABLE_ROWS.into(),
            ])),
            [var, offset, limit] => Ok(Cmd::OneShot(vec![
                "table".into(),
                var.clone(),
                "--offset".into(),
                offset.clone(),
                "--limit".into(),
                limit.clone(),
            ])),
            _ => Err("table <var> [offset] [limit]".into()),
        },
        "bt" | "stack" => none(Cmd::OneShot(vec!["stack".into()])),
        "f" | "frame" => {
            let n = one("frame number")?;
            n.parse::<usize>()
                .map(Cmd::Frame)
                .map_err(|_| format!("{head}: '{n}' is not a frame number (see bt)"))
        }
        "src" | "source" => Ok(Cmd::OneShot(with(&["source"]))),
        "threads" => none(Cmd::OneShot(vec!["threads".into()])),
        "t" | "thread" => {
            let n = one("thread number")?;
            n.parse::<u32>()
                .map(Cmd::Thread)
                .map_err(|_| format!("{head}: '{n}' is not a thread number (see threads)"))
        }
        "b" | "break" if rest.is_empty() => Err(format!("{head}: where? e.g. {head} ZCL_X:42")),
        "b" | "break" => Ok(Cmd::OneShot(with(&["bp", "set"]))),
        "bp" if rest.is_empty() => Ok(Cmd::OneShot(vec!["bp".into(), "list".into()])),
        "bp" => Ok(Cmd::OneShot(with(&["bp"]))),
        "dumps" => Ok(Cmd::OneShot(with(&["dumps"]))),
        "dump" => match rest {
            [sub, ..] if sub == "show" || sub == "catch" => Ok(Cmd::OneShot(with(&["dump"]))),
            _ => Ok(Cmd::OneShot(vec![
                "dump".into(),
                "show".into(),
                one("dump id")?,
            ])),
        },
        "w" | "wait" => none(Cmd::Wait),
        "q" | "quit" | "exit" => none(Cmd::Quit),
        "kill" => none(Cmd::Kill),
        "h" | "help" | "?" => Ok(Cmd::Help),
        other => Err(format!("unknown command '{other}' (h lists them)")),
    }
}

/// Splits a line into words; single or double quotes keep blanks in a word.
pub(crate) fn split(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_default().push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_default();
            }
            (None, c) if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            (None, c) => word.get_or_insert_default().push(c),
        }
    }
    if quote.is_some() {
        return Err("a quote is not closed".into());
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: &[&str]) -> Cmd {
        Cmd::OneShot(v.iter().map(|w| w.to_string()).collect())
    }

    #[test]
    fn the_seed_commands() {
        assert_eq!(parse("s"), Ok(Cmd::Step(StepKind::Into)));
        assert_eq!(parse(" n "), Ok(Cmd::Step(StepKind::Over)));
        assert_eq!(parse("o"), Ok(Cmd::Step(StepKind::Out)));
        assert_eq!(parse("continue"), Ok(Cmd::Step(StepKind::Continue)));
        assert_eq!(parse("v"), Ok(Cmd::Vars));
        assert_eq!(parse("x lt_items"), Ok(Cmd::Expand("lt_items".into())));
        assert_eq!(parse("bt"), Ok(words(&["stack"])));
        assert_eq!(parse("q"), Ok(Cmd::Quit));
        assert_eq!(parse("kill"), Ok(Cmd::Kill));
        assert_eq!(parse("h"), Ok(Cmd::Help));
        assert_eq!(parse(""), Ok(Cmd::Empty));
        assert!(parse("n 2").is_err());
        assert!(parse("frobnicate").is_err());
    }

    #[test]
    fn ours() {
        assert_eq!(parse("b ZCL_X:42"), Ok(words(&["bp", "set", "ZCL_X:42"])));
        assert_eq!(
            parse("b ZCL_X:42 --condition 'LV_A > 2'"),
            Ok(words(&["bp", "set", "ZCL_X:42", "--condition", "LV_A > 2"]))
        );
        assert_eq!(parse("bp delete 3"), Ok(words(&["bp", "delete", "3"])));
        assert_eq!(parse("f 1"), Ok(Cmd::Frame(1)));
        assert_eq!(parse("t 2"), Ok(Cmd::Thread(2)));
        assert_eq!(parse("thread 2"), Ok(Cmd::Thread(2)));
        assert!(parse("t").is_err());
        assert!(parse("t x").is_err());
        assert_eq!(parse("threads"), Ok(words(&["threads"])));
        assert_eq!(
            parse("set system on"),
            Ok(words(&["settings", "--system-debugging", "on"]))
        );
        assert_eq!(parse("set SYSTEM on"), Ok(words(&["set", "SYSTEM", "on"])));
        assert_eq!(parse("dumps"), Ok(words(&["dumps"])));
        assert_eq!(
            parse("dumps --since 1h"),
            Ok(words(&["dumps", "--since", "1h"]))
        );
        assert_eq!(parse("dump D1"), Ok(words(&["dump", "show", "D1"])));
        assert_eq!(parse("dump catch D1"), Ok(words(&["dump", "catch", "D1"])));
        assert!(parse("dump").is_err());
        assert!(parse("f x").is_err());
        assert_eq!(
            parse("p ls_order-number"),
            Ok(words(&["get", "ls_order-number"]))
        );
        assert_eq!(
            parse("set lv_name \"ACME corp\""),
            Ok(words(&["set", "lv_name", "ACME corp"]))
        );
        assert_eq!(
            parse("table lt_items"),
            Ok(words(&["table", "lt_items", "--limit", "20"]))
        );
        assert_eq!(
            parse("table lt_items 10 5"),
            Ok(words(&[
                "table", "lt_items", "--offset", "10", "--limit", "5"
            ]))
        );
        assert_eq!(parse("w"), Ok(Cmd::Wait));
        assert!(parse("set x").is_err());
        assert!(parse("p 'open").is_err());
    }
}
