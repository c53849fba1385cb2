//! `abapdbg test <class> [--method m]`: runs the ABAP Unit tests and returns when a test
//! stops at a breakpoint or the run ends.

use jsonl::args::TestArgs as Test;
use jsonl::cmd;
use jsonl::results::{TestResult, UnitAlert};

use super::ctx::{Ctx, Failure, out};
use super::movement::{Answer, Outcome, print, until_stop_or_end};
use super::render::{Style, Table, or_empty, paint};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Returns the stop when a breakpoint in the tests or the tested code \
    is reached, else the result: one row per test method. Failed tests exit with 1 \
    (test.failed).\n\n--json prints {\"stop\":{…}} or the protocol's unit result."
)]
pub struct TestArgs {
    /// The class (or with --report the program) whose tests to run.
    class: String,
    /// Only this test method: LTCL_X=>TEST_A or TEST_A.
    #[arg(long)]
    method: Option<String>,
    /// Test a program instead of a class.
    #[arg(long)]
    report: bool,
    #[command(flatten)]
    out: Output,
}

impl OneShot for TestArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let name = self.class.trim().to_string();
        let (class, program) = if self.report {
            (None, Some(name.clone()))
        } else {
            (Some(name.clone()), None)
        };
        let args = Test {
            class,
            program,
            method: self.method.as_ref().map(|m| m.trim().to_string()),
        };
        let outcome = until_stop_or_end::<cmd::Test>(
            ctx,
            &format!("testing {name}"),
            &args,
            Answer::Trigger,
        )?;
        let Outcome::Answered(result) = outcome else {
            return print(ctx, &outcome);
        };
        let result: TestResult = client::decode("test", result)?;
        if ctx.json {
            ctx.print_json(&result)?;
        } else {
            out(&summary(&result, ctx.color));
        }
        if !result.ok {
            return Err(Failure::new(
                "test.failed",
                format!(
                    "{} of {} tests failed in {}",
                    result.failed,
                    result.passed + result.failed,
                    result.object
                ),
            ));
        }
        Ok(())
    }
}

/// One row per test method, then the alerts of the failed ones.
fn summary(result: &TestResult, color: bool) -> String {
    let mut t = Table::new(&["CLASS", "METHOD", "RESULT", "LINE"]);
    t.align_right(3);
    let mut alerts = String::new();
    for class in &result.classes {
        for m in &class.methods {
            t.styled_row(vec![
                (class.name.clone(), None),
                (m.name.clone(), None),
                if m.passed {
                    ("passed".into(), Some(Style::Green))
                } else {
                    ("failed".into(), Some(Style::Red))
                },
                (or_empty(m.line), None),
            ]);
            for a in &m.alerts {
                alerts.push_str(&alert(&format!("{}=>{}", class.name, m.name), a));
            }
        }
    }
    for a in &result.alerts {
        alerts.push_str(&alert(&result.object, a));
    }
    let head = format!(
        "{}: {} passed, {} failed\n",
        result.object, result.passed, result.failed
    );
    let head = if result.ok {
        paint(color, Style::Green, &head)
    } else {
        paint(color, Style::Red, &head)
    };
    let mut s = head;
    if !t.is_empty() {
        s.push_str(&t.render(color));
    }
    s.push_str(&alerts);
    s
}

fn alert(owner: &str, a: &UnitAlert) -> String {
    let mut s = format!("{owner}: {}\n", a.title);
    for d in &a.details {
        s.push_str(&format!("    {d}\n"));
    }
    if let Some(l) = &a.location {
        s.push_str(&format!("    at {} line {}\n", l.name, or_empty(l.line)));
    }
    s
}
