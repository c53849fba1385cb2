//! Tab completion at the prompt: command words, and from the live session variable names
//! (components after `LS_X-`), frame numbers and breakpoint ids. The candidates come from
//! `client::candidates` on a connection of the completer's own, with a short timeout: Tab
//! never hangs and never prints an error.

use client::Session;
use client::candidates::{self, Candidate};
use reedline::{Completer, CompletionResult, Span, Suggestion};

use super::commands::COMMANDS;

pub(crate) struct ReplCompleter {
    session: Option<Session>,
}

impl ReplCompleter {
    pub(crate) fn new(session: Option<Session>) -> ReplCompleter {
        ReplCompleter { session }
    }
}

/// What the word under the cursor is.
#[derive(Debug, PartialEq, Eq)]
enum Slot {
    Command,
    Variable,
    Frame,
    Thread,
    Breakpoint,
    Dump,
    BpSubcommand,
    Nothing,
}

/// The slot of the word after `before` (the words typed before the cursor's word).
fn slot(before: &[&str]) -> Slot {
    let Some(head) = before.first() else {
        return Slot::Command;
    };
    match (head.to_lowercase().as_str(), before.len()) {
        ("x" | "expand" | "p" | "print" | "v" | "vars" | "set" | "table", 1) => Slot::Variable,
        ("f" | "frame", 1) => Slot::Frame,
        ("t" | "thread", 1) => Slot::Thread,
        ("bp", 1) => Slot::BpSubcommand,
        ("dump", 1) => Slot::Dump,
        ("dump", 2) if matches!(before[1], "show" | "catch") => Slot::Dump,
        ("bp", _) if matches!(before[1], "delete" | "enable" | "disable") => Slot::Breakpoint,
        _ => Slot::Nothing,
    }
}

impl Completer for ReplCompleter {
    fn complete(&mut self, line: &str, pos: usize) -> CompletionResult {
        CompletionResult::fresh(self.suggestions(line, pos))
    }
}

impl ReplCompleter {
    /// What to offer for the word before `pos`.
    fn suggestions(&self, line: &str, pos: usize) -> Vec<Suggestion> {
        let upto = line.get(..pos).unwrap_or(line);
        let start = upto.rfind(char::is_whitespace).map_or(0, |i| {
            i + upto[i..].chars().next().map_or(1, char::len_utf8)
        });
        let typed = &upto[start..];
        let before: Vec<&str> = upto[..start].split_whitespace().collect();
        let span = Span::new(start, pos);
        let suggest = |value: String, description: Option<String>, space: bool| Suggestion {
            value,
            description,
            span,
            append_whitespace: space,
            ..Suggestion::default()
        };
        let from_session = |cands: Vec<Candidate>, upper: bool, space: bool| {
            let want = if upper {
                typed.to_uppercase()
            } else {
                typed.to_string()
            };
            cands
                .into_iter()
                .filter(|c| c.value.starts_with(&want))
                .map(|c| suggest(c.value, c.description, space))
                .collect::<Vec<_>>()
        };
        match slot(&before) {
            Slot::Command => COMMANDS
                .iter()
                .flat_map(|(words, _, what)| words.iter().map(move |w| (*w, *what)))
                .filter(|(w, _)| w.len() > 1 && w.starts_with(&typed.to_lowercase()))
                .map(|(w, what)| suggest(w.to_string(), Some(what.to_string()), true))
                .collect(),
            Slot::BpSubcommand => ["list", "delete", "enable", "disable", "set"]
                .iter()
                .filter(|w| w.starts_with(typed))
                .map(|w| suggest(w.to_string(), None, true))
                .collect(),
            Slot::Variable => match &self.session {
                Some(s) => from_session(candidates::variables(s, typed), true, false),
                None => Vec::new(),
            },
            Slot::Frame => match &self.session {
                Some(s) => from_session(candidates::frames(s), false, true),
                None => Vec::new(),
            },
            Slot::Thread => match &self.session {
                Some(s) => from_session(candidates::threads(s), false, true),
                None => Vec::new(),
            },
            Slot::Breakpoint => match &self.session {
                Some(s) => from_session(candidates::breakpoints(s), false, true),
                None => Vec::new(),
            },
            Slot::Dump => match &self.session {
                Some(s) => from_session(candidates::dumps(s), false, true),
                None => Vec::new(),
            },
            Slot::Nothing => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_by_the_words_before() {
        assert_eq!(slot(&[]), Slot::Command);
        assert_eq!(slot(&["x"]), Slot::Variable);
        assert_eq!(slot(&["P"]), Slot::Variable);
        assert_eq!(slot(&["set"]), Slot::Variable);
        assert_eq!(slot(&["set", "LV_A"]), Slot::Nothing);
        assert_eq!(slot(&["f"]), Slot::Frame);
        assert_eq!(slot(&["thread"]), Slot::Thread);
        assert_eq!(slot(&["bp"]), Slot::BpSubcommand);
        assert_eq!(slot(&["bp", "delete"]), Slot::Breakpoint);
        assert_eq!(slot(&["bp", "delete", "1"]), Slot::Breakpoint);
        assert_eq!(slot(&["dump"]), Slot::Dump);
        assert_eq!(slot(&["dump", "catch"]), Slot::Dump);
        assert_eq!(slot(&["dump", "D1"]), Slot::Nothing);
        assert_eq!(slot(&["n"]), Slot::Nothing);
    }

    #[test]
    fn command_words_complete_without_a_session() {
        let c = ReplCompleter::new(None);
        let got: Vec<String> = c
            .suggestions("con", 3)
            .into_iter()
            .map(|s| s.value)
            .collect();
        assert_eq!(got, vec!["continue"]);
        let got: Vec<String> = c
            .suggestions("bp de", 5)
            .into_iter()
            .map(|s| s.value)
            .collect();
        assert_eq!(got, vec!["delete"]);
        assert!(c.suggestions("x lt_", 5).is_empty());
    }
}
