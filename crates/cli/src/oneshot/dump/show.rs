//! `abapdbg dump show <id>`: the chapters, the source window with the termination line
//! marked, and the active calls.

use jsonl::args::DumpArgs;
use jsonl::cmd;
use jsonl::results::DumpResult;

use crate::oneshot::ctx::{Ctx, Failure, out};
use crate::oneshot::render::{Style, Table, location, paint, source_window};
use crate::oneshot::{OneShot, Output};

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The dump's id, as 'abapdbg dumps' lists it.
    #[arg(add = crate::oneshot::complete::dumps())]
    pub(crate) id: String,
    #[command(flatten)]
    pub(crate) out: Output,
}

impl OneShot for ShowArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.call::<cmd::Dump>(&DumpArgs {
            id: self.id.clone(),
        })?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        out(&render(&result, ctx.color));
        Ok(())
    }
}

/// The dump as text: a heading, each chapter, the source window, the stack, the variables.
pub(crate) fn render(d: &DumpResult, color: bool) -> String {
    let s = &d.summary;
    let mut text = format!(
        "{}  {}  {}\n",
        paint(color, Style::Red, &s.runtime_error),
        s.time,
        s.user
    );
    if let Some(exception) = &s.exception {
        text.push_str(&format!("exception  {exception}\n"));
    }
    text.push_str(&format!(
        "at         {}\n{}\n",
        super::super::dumps::at(s),
        s.short_text
    ));
    for chapter in &d.chapters {
        // The chapters shown below from the structured fields are not repeated as text.
        let shown_below = (chapter.title.starts_with("Source Code Extract")
            && !d.source.is_empty())
            || (chapter.title.starts_with("Active Calls") && !d.stack.is_empty())
            || (chapter.title.starts_with("Chosen Variables") && !d.variables.is_empty());
        if shown_below {
            continue;
        }
        text.push_str(&format!(
            "\n{}\n{}\n",
            paint(color, Style::Bold, &chapter.title),
            chapter.text.trim_end()
        ));
    }
    if !d.source.is_empty() {
        text.push_str(&format!("\n{}\n", paint(color, Style::Bold, "Source")));
        text.push_str(&source_window(&d.source, color));
    }
    if !d.stack.is_empty() {
        text.push_str(&format!(
            "\n{}\n",
            paint(color, Style::Bold, "Active calls")
        ));
        let mut t = Table::new(&["#", "LOCATION", "METHOD", "INCLUDE"]);
        t.align_right(0);
        for f in &d.stack {
            t.row(vec![
                f.index.to_string(),
                location(f),
                f.method.clone(),
                f.include.clone(),
            ]);
        }
        text.push_str(&t.render(color));
    }
    if !d.variables.is_empty() {
        text.push_str(&format!(
            "\n{}\n",
            paint(color, Style::Bold, "Chosen variables")
        ));
        let mut t = Table::new(&["FRAME", "NAME", "TYPE", "VALUE"]);
        for v in &d.variables {
            t.row(vec![
                v.frame.clone(),
                v.name.clone(),
                v.ty.clone(),
                v.value.clone(),
            ]);
        }
        text.push_str(&t.render(color));
    }
    text
}
