//! `abapdbg vars [path]`: the selected frame's variables, or the components of one; also the
//! seed's `vars --name v` (one variable) and `vars --expand v` (its components).

use jsonl::args::VarsArgs as Vars;
use jsonl::cmd;
use jsonl::results::Variable;

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, Table, cut, or_empty, paint};
use super::{OneShot, Output};

/// Longest value shown in a table cell; `--json` and `get` give it whole.
const MAX_CELL: usize = 100;

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("parent").args(["path", "expand"])))]
#[command(
    after_help = "--json prints the protocol's answer: {\"epoch\",\"scopes\",\
    \"variables\":[…]} for the frame (with --name narrowed to that variable), \
    {\"parent\",\"variables\"} for a variable's components (rows of a table with total, \
    offset, more). Names are accepted in any case."
)]
pub struct VarsArgs {
    /// A variable whose components to list, e.g. LS_ORDER, ME, LT_ITEMS.
    #[arg(conflicts_with_all = ["name", "expand"], add = crate::oneshot::complete::variables())]
    path: Option<String>,
    /// Only this variable of the frame.
    #[arg(long, conflicts_with = "expand", add = crate::oneshot::complete::variables())]
    name: Option<String>,
    /// The components of this variable (structure, object, or the rows of a table).
    #[arg(long, value_name = "VAR", add = crate::oneshot::complete::variables())]
    expand: Option<String>,
    /// Only variables of this scope (Locals, Parameters, …).
    #[arg(long)]
    scope: Option<String>,
    /// Rows to skip when listing a table's rows.
    #[arg(long, requires = "parent")]
    offset: Option<u32>,
    /// Rows to list of a table (default 100).
    #[arg(long, requires = "parent")]
    limit: Option<u32>,
    #[command(flatten)]
    out: Output,
}

impl OneShot for VarsArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let parent = self.path.as_deref().or(self.expand.as_deref());
        let mut args = frame_vars();
        args.id = parent.map(|p| unquoted(p).to_uppercase());
        if let Some(o) = self.offset {
            args.offset = o;
        }
        if let Some(l) = self.limit {
            args.limit = l;
        }
        let mut result = ctx.call::<cmd::Vars>(&args)?;
        if let Some(name) = &self.name {
            let name = unquoted(name);
            result
                .variables
                .retain(|v| v.name.eq_ignore_ascii_case(name) || v.id.eq_ignore_ascii_case(name));
            if result.variables.is_empty() {
                return Err(Failure::new(
                    "variable.not_found",
                    format!("no variable {name} in the selected frame"),
                )
                .with_hint("'abapdbg vars' lists them; 'abapdbg get PATH' reads components"));
            }
        }
        if let Some(scope) = &self.scope {
            result
                .variables
                .retain(|v| v.scope.eq_ignore_ascii_case(scope.trim()));
        }
        if ctx.json {
            return ctx.print_json(&result);
        }
        summarize(ctx, &mut result.variables);
        let mut text_out = table(&result.variables, ctx.color);
        if result.more == Some(true) {
            let shown = result.variables.len() as u64;
            let from = u64::from(result.offset.unwrap_or(0));
            text_out.push_str(&paint(
                ctx.color,
                Style::Dim,
                &format!(
                    "rows {}–{} of {}; more with --offset {}",
                    from + 1,
                    from + shown,
                    or_empty(result.total),
                    from + shown
                ),
            ));
            text_out.push('\n');
        }
        out(&text_out);
        Ok(())
    }
}

/// A name as typed, without the quotes a shell left in it: the original debug command's
/// users write `--expand "'<LS_ENTRY>'"` (field symbols quoted for its own parser).
fn unquoted(name: &str) -> &str {
    let name = name.trim();
    for q in ['\'', '"'] {
        if let Some(inner) = name.strip_prefix(q).and_then(|n| n.strip_suffix(q)) {
            return inner.trim();
        }
    }
    name
}

/// `vars` of the selected frame: its scopes and variables (rows of a table 100 at a time, as
/// the protocol's default).
pub(crate) fn frame_vars() -> Vars {
    Vars {
        limit: 100,
        ..Vars::default()
    }
}

/// Variables as a table: name, scope, type, value.
pub(crate) fn table(vars: &[Variable], color: bool) -> String {
    table_marked(vars, color, &|_| false)
}

/// The same, with the variables `changed` picks marked `*` in a first column (and their
/// values coloured): what the interactive debugger shows after a step.
pub(crate) fn table_marked(
    vars: &[Variable],
    color: bool,
    changed: &dyn Fn(&Variable) -> bool,
) -> String {
    if vars.is_empty() {
        return "no variables\n".into();
    }
    let marks = vars.iter().any(changed);
    let with_scope = vars.iter().any(|v| !v.scope.is_empty());
    let mut headers = Vec::new();
    if marks {
        headers.push("");
    }
    headers.extend(["NAME", "SCOPE", "TYPE", "VALUE"]);
    if !with_scope {
        headers.retain(|h| *h != "SCOPE");
    }
    let mut t = Table::new(&headers);
    for v in vars {
        let hit = changed(v);
        let style = hit.then_some(Style::Yellow);
        let mut cells = Vec::new();
        if marks {
            cells.push((if hit { "*" } else { "" }.to_string(), style));
        }
        cells.push((v.name.clone(), style));
        if with_scope {
            cells.push((v.scope.clone(), None));
        }
        cells.push((v.technical_type.clone(), None));
        cells.push((value(v), style));
        t.styled_row(cells);
    }
    t.render(color)
}

/// Structures whose components a human listing summarizes, at most (one request each); the
/// others show `…` (`abapdbg vars NAME` lists the components).
const MAX_SUMMARIES: usize = 25;

/// Components a structure's summary names, at most.
const SUMMARY_COMPONENTS: u32 = 12;

/// Human output only: a structure's VALUE becomes a short summary of its components
/// (`ID=1, CUSTOMER=ACME, AMOUNT=100.50`) instead of the system's text, which repeats its
/// TYPE (`Structure: deep`). `--json` keeps what the system sends.
pub(crate) fn summarize(ctx: &Ctx, vars: &mut [Variable]) {
    let mut asked = 0;
    for v in vars.iter_mut().filter(|v| v.meta == "structure") {
        if asked == MAX_SUMMARIES || ctx.interrupted() {
            v.value = "…".into();
            continue;
        }
        asked += 1;
        let mut args = frame_vars();
        args.id = Some(v.id.clone());
        args.limit = SUMMARY_COMPONENTS;
        v.value = match ctx.call::<cmd::Vars>(&args) {
            Ok(parts) => summary(&parts.variables, parts.more == Some(true)),
            // Not worth failing the listing for: the components are one command away.
            Err(_) => "…".into(),
        };
    }
}

/// `NAME=value, …` of components; nested structures `{…}`, tables their row count.
fn summary(components: &[Variable], more: bool) -> String {
    let mut parts: Vec<String> = components
        .iter()
        .map(|c| {
            let value = match c.meta.as_str() {
                "structure" => "{…}".to_string(),
                _ => value(c),
            };
            format!("{}={value}", c.name)
        })
        .collect();
    if more {
        parts.push("…".into());
    }
    cut(&parts.join(", "), MAX_CELL)
}

/// Whether the value is a text field (type C): its trailing blanks are padding.
fn is_text_field(v: &Variable) -> bool {
    v.technical_type == "C"
}

/// A variable's value for a cell: tables say how many rows they have; text fields (C) lose
/// their trailing blanks, as the ABAP debugger shows them (`--json` keeps them).
fn value(v: &Variable) -> String {
    // The system's text of a table (`[300x10(104)]Standard Table`) says less than a count.
    if v.meta == "table" {
        return format!("{} row{}", v.rows, if v.rows == 1 { "" } else { "s" });
    }
    let text = if is_text_field(v) {
        v.value.trim_end_matches(' ')
    } else {
        v.value.as_str()
    };
    let mut s = cut(text, MAX_CELL);
    if v.truncated && !s.ends_with('…') {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(name: &str, scope: &str, ty: &str, value: &str, meta: &str, rows: u32) -> Variable {
        Variable {
            id: name.into(),
            name: name.into(),
            scope: scope.into(),
            value: value.into(),
            technical_type: ty.into(),
            meta: meta.into(),
            rows,
            ..Variable::default()
        }
    }

    #[test]
    fn a_frame_as_a_table() {
        let vars = [
            var(
                "ME",
                "",
                "Ref to ZCL_X",
                "{O:1*\\CLASS=ZCL_X}",
                "objectref",
                0,
            ),
            var("LT_ITEMS", "Locals", "Standard Table", "", "table", 300),
            var("LV_TEXT", "Locals", "CString", "a\nb", "string", 0),
        ];
        assert_eq!(
            table(&vars, false),
            "NAME      SCOPE   TYPE            VALUE\n\
             ME                Ref to ZCL_X    {O:1*\\CLASS=ZCL_X}\n\
             LT_ITEMS  Locals  Standard Table  300 rows\n\
             LV_TEXT   Locals  CString         a\\nb\n"
        );
    }

    #[test]
    fn a_structure_is_summarized_by_its_components() {
        let parts = [
            var("ID", "", "I", "1", "simple", 0),
            var("CUSTOMER", "", "C", "ACME      ", "simple", 0),
            var(
                "ADDRESS",
                "",
                "Structure: flat",
                "Structure: flat",
                "structure",
                0,
            ),
            var("ITEMS", "", "Standard Table", "", "table", 2),
        ];
        assert_eq!(
            summary(&parts, false),
            "ID=1, CUSTOMER=ACME, ADDRESS={…}, ITEMS=2 rows"
        );
        assert_eq!(summary(&parts[..1], true), "ID=1, …");
    }

    #[test]
    fn text_fields_lose_their_padding_when_shown() {
        let padded = var("LV_C", "Locals", "C", "ab  ", "simple", 0);
        assert_eq!(
            table(std::slice::from_ref(&padded), false),
            "NAME  SCOPE   TYPE  VALUE\nLV_C  Locals  C     ab\n"
        );
        let string = var("LV_S", "Locals", "CString", "ab  ", "string", 0);
        assert_eq!(value(&string), "ab  ", "a string keeps its blanks");
        assert_eq!(value(&padded), "ab");
        assert_eq!(padded.value, "ab  ", "the value itself is kept");
    }

    #[test]
    fn quotes_around_a_name_are_dropped() {
        assert_eq!(unquoted("'<LS_ENTRY>'"), "<LS_ENTRY>");
        assert_eq!(unquoted(" \"lv_x\" "), "lv_x");
        assert_eq!(unquoted("<FS>"), "<FS>");
        assert_eq!(unquoted("'"), "'", "a lone quote is a name");
    }

    #[test]
    fn changed_variables_are_marked() {
        let vars = [
            var("LV_A", "Locals", "I", "1", "simple", 0),
            var("LV_B", "Locals", "I", "2", "simple", 0),
        ];
        assert_eq!(
            table_marked(&vars, false, &|v| v.name == "LV_B"),
            "   NAME  SCOPE   TYPE  VALUE\n   LV_A  Locals  I     1\n*  LV_B  Locals  I     2\n"
        );
    }
}
