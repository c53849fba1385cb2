//! `abapdbg step [into|over|out|continue]`, also as the seed's `step --type <kind>`.

use clap::ValueEnum;
use serde_json::json;

use super::ctx::{Ctx, Failure};
use super::movement::{Answer, print, until_stop_or_end};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Returns the new stop (with its source) or the end of the program. \
    --json prints the protocol's answer: {\"stop\":{…}} or {\"ended\":{…}}."
)]
pub struct StepArgs {
    /// into, over (default), out or continue.
    #[arg(value_enum)]
    kind: Option<StepKind>,
    /// The same, as the seed spec writes it: --type over.
    #[arg(long = "type", value_enum, value_name = "KIND")]
    step_type: Option<StepKind>,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum StepKind {
    Into,
    Over,
    #[value(alias = "return")]
    Out,
    Continue,
}

impl OneShot for StepArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let kind = match (self.kind, self.step_type) {
            (Some(a), Some(b)) if a != b => {
                return Err(Failure::usage("the step kind is given twice, differently"));
            }
            (Some(k), _) | (None, Some(k)) => k,
            (None, None) => StepKind::Over,
        };
        step(ctx, kind)
    }
}

/// One movement, waited for and printed.
pub(crate) fn step(ctx: &Ctx, kind: StepKind) -> Result<(), Failure> {
    let (name, label) = match kind {
        StepKind::Into => ("into", "stepping into"),
        StepKind::Over => ("over", "stepping over"),
        StepKind::Out => ("out", "stepping out"),
        StepKind::Continue => ("continue", "running to the next stop"),
    };
    let outcome = until_stop_or_end(
        ctx,
        label,
        "step",
        json!({ "type": name }),
        Answer::Movement,
    )?;
    print(ctx, &outcome);
    Ok(())
}
