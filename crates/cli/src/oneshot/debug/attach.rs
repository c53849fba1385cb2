//! `abapdbg debug attach [--timeout s] [--json] [--max-listen N] [--session ID]`: `abapdbg
//! attach`, plus the two flags scripts of the original tool pass. Both are accepted and
//! ignored, each with a note on stderr saying why: abapdbg finds its session by the system
//! (ABAPDBG_URL & co.), never by an id on the command line, and it listens until --timeout.

use crate::oneshot::OneShot;
use crate::oneshot::attach::AttachArgs;
use crate::oneshot::ctx::{Ctx, Failure};

#[derive(Debug, clap::Args)]
pub struct DebugAttachArgs {
    #[command(flatten)]
    attach: AttachArgs,
    /// Ignored (with a note on stderr): abapdbg keeps listening until --timeout.
    #[arg(long, value_name = "N")]
    max_listen: Option<String>,
    /// Ignored (with a note on stderr): the session is the one of the system in ABAPDBG_URL
    /// & co.
    #[arg(long, value_name = "ID")]
    session: Option<String>,
}

/// The notes for the flags given, one line each.
fn notes(args: &DebugAttachArgs) -> Vec<&'static str> {
    let mut notes = Vec::new();
    if args.max_listen.is_some() {
        notes.push("abapdbg: note: --max-listen is ignored: abapdbg listens until --timeout");
    }
    if args.session.is_some() {
        notes.push(
            "abapdbg: note: --session is ignored: the session is the one of the system in \
             ABAPDBG_URL & co. ('abapdbg config' shows which)",
        );
    }
    notes
}

impl OneShot for DebugAttachArgs {
    fn json(&self) -> bool {
        self.attach.json()
    }

    fn interactive(&self) -> bool {
        self.attach.interactive()
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        for note in notes(self) {
            eprintln!("{note}");
        }
        self.attach.run(ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        args: DebugAttachArgs,
    }

    #[test]
    fn the_original_flags_are_noted() {
        let parse = |line: &[&str]| Line::try_parse_from(line).map(|l| l.args);
        let plain = parse(&["x", "--json", "--timeout", "5"]).expect("parses");
        assert!(notes(&plain).is_empty());
        assert!(plain.json());
        let both = parse(&["x", "--max-listen", "3", "--session", "abc"]).expect("parses");
        let n = notes(&both);
        assert_eq!(n.len(), 2);
        assert!(n[0].contains("--max-listen is ignored"), "{n:?}");
        assert!(n[1].contains("--session is ignored"), "{n:?}");
    }
}
