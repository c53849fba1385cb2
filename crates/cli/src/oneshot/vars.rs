//! `abapdbg vars [path]`: the selected frame's variables, or the components of one; also the
//! seed's `vars --name v` (one variable) and `vars --expand v` (its components).

use serde_json::{Value, json};

use super::ctx::{Ctx, Failure, out};
use super::render::{Style, Table, cut, paint, text};
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
        let parent = self.path.as_ref().or(self.expand.as_ref());
        let mut args = match parent {
            Some(p) => json!({ "id": p.trim().to_uppercase() }),
            None => json!({}),
        };
        if let Some(o) = self.offset {
            args["offset"] = o.into();
        }
        if let Some(l) = self.limit {
            args["limit"] = l.into();
        }
        let mut result = ctx.request("vars", args)?;
        if let Some(name) = &self.name {
            narrow(&mut result, |v| {
                v["name"]
                    .as_str()
                    .is_some_and(|n| n.eq_ignore_ascii_case(name.trim()))
                    || v["id"]
                        .as_str()
                        .is_some_and(|n| n.eq_ignore_ascii_case(name.trim()))
            });
            if result["variables"].as_array().is_none_or(Vec::is_empty) {
                return Err(Failure::new(
                    "variable.not_found",
                    format!("no variable {} in the selected frame", name.trim()),
                )
                .with_hint("'abapdbg vars' lists them; 'abapdbg get PATH' reads components"));
            }
        }
        if let Some(scope) = &self.scope {
            narrow(&mut result, |v| {
                v["scope"]
                    .as_str()
                    .is_some_and(|s| s.eq_ignore_ascii_case(scope.trim()))
            });
        }
        if ctx.json {
            ctx.print_json(&result);
            return Ok(());
        }
        let mut text_out = table(&result["variables"], ctx.color);
        if result["more"] == true {
            let shown = result["variables"].as_array().map_or(0, Vec::len) as u64;
            let from = result["offset"].as_u64().unwrap_or(0);
            text_out.push_str(&paint(
                ctx.color,
                Style::Dim,
                &format!(
                    "rows {}–{} of {}; more with --offset {}",
                    from + 1,
                    from + shown,
                    text(&result["total"]),
                    from + shown
                ),
            ));
            text_out.push('\n');
        }
        out(&text_out);
        Ok(())
    }
}

/// Keeps only the variables `keep` likes.
fn narrow(result: &mut Value, keep: impl Fn(&Value) -> bool) {
    if let Some(list) = result["variables"].as_array_mut() {
        list.retain(|v| keep(v));
    }
}

/// Variables as a table: name, scope, type, value.
pub(crate) fn table(vars: &Value, color: bool) -> String {
    table_marked(vars, color, &|_| false)
}

/// The same, with the variables `changed` picks marked `*` in a first column (and their
/// values coloured): what the interactive debugger shows after a step.
pub(crate) fn table_marked(vars: &Value, color: bool, changed: &dyn Fn(&Value) -> bool) -> String {
    let list: Vec<&Value> = vars.as_array().into_iter().flatten().collect();
    if list.is_empty() {
        return "no variables\n".into();
    }
    let marks = list.iter().any(|v| changed(v));
    let with_scope = list.iter().any(|v| !text(&v["scope"]).is_empty());
    let mut headers = Vec::new();
    if marks {
        headers.push("");
    }
    headers.extend(["NAME", "SCOPE", "TYPE", "VALUE"]);
    if !with_scope {
        headers.retain(|h| *h != "SCOPE");
    }
    let mut t = Table::new(&headers);
    for v in list {
        let hit = changed(v);
        let style = hit.then_some(Style::Yellow);
        let mut cells = Vec::new();
        if marks {
            cells.push((if hit { "*" } else { "" }.to_string(), style));
        }
        cells.push((text(&v["name"]), style));
        if with_scope {
            cells.push((text(&v["scope"]), None));
        }
        cells.push((text(&v["type"]), None));
        cells.push((value(v), style));
        t.styled_row(cells);
    }
    t.render(color)
}

/// A variable's value for a cell: tables say how many rows they have.
fn value(v: &Value) -> String {
    // The system's text of a table (`[300x10(104)]Standard Table`) says less than a count.
    if v["meta"] == "table" {
        let rows = v["rows"].as_u64().unwrap_or(0);
        return format!("{rows} row{}", if rows == 1 { "" } else { "s" });
    }
    let mut s = cut(&text(&v["value"]), MAX_CELL);
    if v["truncated"] == true && !s.ends_with('…') {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_as_a_table() {
        let vars = json!([
            {"name": "ME", "scope": "", "type": "Ref to ZCL_X", "value": "{O:1*\\CLASS=ZCL_X}", "meta": "objectref"},
            {"name": "LT_ITEMS", "scope": "Locals", "type": "Standard Table", "value": "", "meta": "table", "rows": 300},
            {"name": "LV_TEXT", "scope": "Locals", "type": "CString", "value": "a\nb", "meta": "string"}
        ]);
        assert_eq!(
            table(&vars, false),
            "NAME      SCOPE   TYPE            VALUE\n\
             ME                Ref to ZCL_X    {O:1*\\CLASS=ZCL_X}\n\
             LT_ITEMS  Locals  Standard Table  300 rows\n\
             LV_TEXT   Locals  CString         a\\nb\n"
        );
    }

    #[test]
    fn changed_variables_are_marked() {
        let vars = json!([
            {"name": "LV_A", "scope": "Locals", "type": "I", "value": "1"},
            {"name": "LV_B", "scope": "Locals", "type": "I", "value": "2"}
        ]);
        assert_eq!(
            table_marked(&vars, false, &|v| v["name"] == "LV_B"),
            "   NAME  SCOPE   TYPE  VALUE\n   LV_A  Locals  I     1\n*  LV_B  Locals  I     2\n"
        );
    }
}
