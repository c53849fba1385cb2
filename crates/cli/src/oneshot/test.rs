//! `abapdbg test <class> [--method m]`: runs the ABAP Unit tests and returns when a test
//! stops at a breakpoint or the run ends.

use serde_json::{Value, json};

use super::ctx::{Ctx, Failure, out};
use super::movement::{Answer, Outcome, print, until_stop_or_end};
use super::render::{Style, Table, paint, text};
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
        let name = self.class.trim();
        let mut args = if self.report {
            json!({ "program": name })
        } else {
            json!({ "class": name })
        };
        if let Some(m) = &self.method {
            args["method"] = Value::String(m.trim().to_string());
        }
        let outcome = until_stop_or_end(
            ctx,
            &format!("testing {name}"),
            "test",
            args,
            Answer::Trigger,
        )?;
        let Outcome::Answered(result) = &outcome else {
            print(ctx, &outcome);
            return Ok(());
        };
        if ctx.json {
            ctx.print_json(result);
        } else {
            out(&summary(result, ctx.color));
        }
        if result["ok"] == false {
            return Err(Failure::new(
                "test.failed",
                format!(
                    "{} of {} tests failed in {}",
                    text(&result["failed"]),
                    result["passed"].as_u64().unwrap_or(0) + result["failed"].as_u64().unwrap_or(0),
                    text(&result["object"])
                ),
            ));
        }
        Ok(())
    }
}

/// One row per test method, then the alerts of the failed ones.
fn summary(result: &Value, color: bool) -> String {
    let mut t = Table::new(&["CLASS", "METHOD", "RESULT", "LINE"]);
    t.align_right(3);
    let mut alerts = String::new();
    for class in result["classes"].as_array().into_iter().flatten() {
        for m in class["methods"].as_array().into_iter().flatten() {
            let passed = m["passed"] == true;
            t.styled_row(vec![
                (text(&class["name"]), None),
                (text(&m["name"]), None),
                if passed {
                    ("passed".into(), Some(Style::Green))
                } else {
                    ("failed".into(), Some(Style::Red))
                },
                (text(&m["line"]), None),
            ]);
            for a in m["alerts"].as_array().into_iter().flatten() {
                alerts.push_str(&alert(
                    &format!("{}=>{}", text(&class["name"]), text(&m["name"])),
                    a,
                ));
            }
        }
    }
    for a in result["alerts"].as_array().into_iter().flatten() {
        alerts.push_str(&alert(&text(&result["object"]), a));
    }
    let head = format!(
        "{}: {} passed, {} failed\n",
        text(&result["object"]),
        text(&result["passed"]),
        text(&result["failed"])
    );
    let head = if result["ok"] == true {
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

fn alert(owner: &str, a: &Value) -> String {
    let mut s = format!("{owner}: {}\n", text(&a["title"]));
    for d in a["details"].as_array().into_iter().flatten() {
        s.push_str(&format!("    {}\n", text(d)));
    }
    let l = &a["location"];
    if l.is_object() {
        s.push_str(&format!(
            "    at {} line {}\n",
            text(&l["name"]),
            text(&l["line"])
        ));
    }
    s
}
