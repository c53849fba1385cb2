//! `abapdbg dumps [--since 1h] [--until …] [--user U] [--program P] [--error E] [--limit N]`:
//! the short dumps, newest first, as a table.

use jsonl::args::DumpsArgs;
use jsonl::cmd;
use jsonl::results::DumpSummary;

use super::ctx::{Ctx, Failure, out};
use super::render::{Table, cut};
use super::{OneShot, Output};

#[derive(Debug, clap::Args)]
pub struct DumpsCmd {
    /// Only dumps at or after this time: ISO 8601 UTC, a date, or an age (30m, 1h, 2d).
    #[arg(long, value_name = "TIME")]
    since: Option<String>,
    /// Only dumps at or before this time (as --since).
    #[arg(long, value_name = "TIME")]
    until: Option<String>,
    /// The user whose dumps to list (default: ours; '*' everyone's).
    #[arg(long)]
    user: Option<String>,
    /// The terminated program, or the object it belongs to (ZCL_ORDER).
    #[arg(long, add = super::complete::objects())]
    program: Option<String>,
    /// A runtime error (COMPUTE_INT_ZERODIVIDE) or an exception class (CX_SY_ZERODIVIDE).
    #[arg(long)]
    error: Option<String>,
    /// At most this many dumps (1 to 200).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=200))]
    limit: u32,
    #[command(flatten)]
    out: Output,
}

impl DumpsCmd {
    pub(crate) fn args(&self) -> DumpsArgs {
        DumpsArgs {
            since: self.since.clone(),
            until: self.until.clone(),
            user: self.user.clone(),
            program: self.program.clone(),
            error: self.error.clone(),
            limit: self.limit,
        }
    }
}

impl OneShot for DumpsCmd {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let result = ctx.call::<cmd::Dumps>(&self.args())?;
        if ctx.json {
            return ctx.print_json(&result);
        }
        out(&table(&result.dumps, ctx.color));
        Ok(())
    }
}

/// Where a dump terminated: the abapGit file and line, else the include and line.
pub(crate) fn at(d: &DumpSummary) -> String {
    let place = d.file.as_deref().unwrap_or(if d.include.is_empty() {
        &d.program
    } else {
        &d.include
    });
    if d.line == 0 {
        place.to_string()
    } else {
        format!("{place}:{}", d.line)
    }
}

/// The dumps as a table (the id last: it is long, and what `dump show` takes).
pub(crate) fn table(dumps: &[DumpSummary], color: bool) -> String {
    if dumps.is_empty() {
        return "no dumps\n".into();
    }
    let mut t = Table::new(&[
        "TIME",
        "USER",
        "RUNTIME ERROR",
        "PROGRAM",
        "AT",
        "SHORT TEXT",
        "ID",
    ]);
    for d in dumps {
        t.row(vec![
            d.time.clone(),
            d.user.clone(),
            d.runtime_error.clone(),
            d.program.clone(),
            at(d),
            cut(&d.short_text, 60),
            d.id.clone(),
        ]);
    }
    t.render(color)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dump() -> DumpSummary {
        DumpSummary {
            id: "20261128101500%20ABC".into(),
            time: "2026-11-28T10:15:00Z".into(),
            user: "DEVELOPER".into(),
            runtime_error: "COMPUTE_INT_ZERODIVIDE".into(),
            exception: Some("CX_SY_ZERODIVIDE".into()),
            program: "ZCL_ORDER=====================CP".into(),
            include: "ZCL_ORDER=====================CM002".into(),
            line: 12,
            file: Some("src/zcl_order.clas.abap".into()),
            short_text: "Division by zero".into(),
        }
    }

    #[test]
    fn a_dump_is_at_its_file_else_its_include() {
        let mut d = dump();
        assert_eq!(at(&d), "src/zcl_order.clas.abap:12");
        d.file = None;
        assert_eq!(at(&d), "ZCL_ORDER=====================CM002:12");
        d.include.clear();
        d.line = 0;
        assert_eq!(at(&d), "ZCL_ORDER=====================CP");
    }

    #[test]
    fn the_table_has_a_row_per_dump() {
        let text = table(&[dump(), dump()], false);
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(text.starts_with("TIME"), "{text}");
        assert!(text.contains("COMPUTE_INT_ZERODIVIDE"), "{text}");
        assert_eq!(table(&[], false), "no dumps\n");
    }
}
