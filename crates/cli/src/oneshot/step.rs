//! `abapdbg step [into|over|out|continue]`, also as the seed's `step --type <kind>`.

use clap::ValueEnum;
use jsonl::args::{StepArgs as Step, StepType};
use jsonl::cmd;

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

impl StepKind {
    /// What the spinner says meanwhile.
    pub(crate) fn label(self) -> &'static str {
        match self {
            StepKind::Into => "stepping into",
            StepKind::Over => "stepping over",
            StepKind::Out => "stepping out",
            StepKind::Continue => "running to the next stop",
        }
    }

    /// The `step` request, for the session's current thread and frame.
    pub(crate) fn args(self) -> Step {
        let step_type = match self {
            StepKind::Into => StepType::Into,
            StepKind::Over => StepType::Over,
            StepKind::Out => StepType::Out,
            StepKind::Continue => StepType::Continue,
        };
        Step {
            step_type,
            timeout_ms: None,
            thread: None,
            frame: None,
        }
    }
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
    let outcome =
        until_stop_or_end::<cmd::Step>(ctx, kind.label(), &kind.args(), Answer::Movement)?;
    print(ctx, &outcome)
}
