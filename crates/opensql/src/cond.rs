//! Conditions (`WHERE`, `ON`, `HAVING`) as SQLite SQL with bound parameters. Host values and
//! literals are converted to the type of the column they are compared with, as ABAP does, so
//! text, numeric text, dates and packed numbers compare in their storage form exactly.

use rusqlite::types::Value as Sql;

use crate::ast::{AggFunc, Aggregate, CmpOp, ColRef, Cond, Operand};
use crate::cell::{Cell, initial};
use crate::ddic::Dictionary;
use crate::error::{Error, Result, not_supported};
use crate::host::{Components, HostResolver, HostValue};
use crate::subquery::Shape;
use crate::types::{DdicType, TableDef};

/// The tables of a query: qualifier (alias or name, upper case) and definition; table `i`
/// is `{prefix}{i}` in the generated SQL (`t0`, `t1` … for the statement, `q1t0` … for its
/// subqueries). `outer` holds the tables of the enclosing queries with their SQL names, for
/// the columns a correlated subquery names.
pub(crate) struct Scope<'d> {
    pub tables: Vec<(String, &'d TableDef)>,
    pub prefix: String,
    pub outer: Vec<(String, &'d TableDef, String)>,
}

impl<'d> Scope<'d> {
    /// The tables of a statement.
    pub fn new(tables: Vec<(String, &'d TableDef)>) -> Scope<'d> {
        Scope {
            tables,
            prefix: "t".into(),
            outer: Vec::new(),
        }
    }

    /// Own tables as (qualifier, definition, SQL name), then those of the enclosing queries.
    fn levels(&self) -> [Vec<(&str, &'d TableDef, String)>; 2] {
        let own = self
            .tables
            .iter()
            .enumerate()
            .map(|(i, (q, t))| (q.as_str(), *t, format!("{}{i}", self.prefix)))
            .collect();
        let outer = self
            .outer
            .iter()
            .map(|(q, t, sql)| (q.as_str(), *t, sql.clone()))
            .collect();
        [own, outer]
    }

    /// The SQL of column `c` and its type: a column of the query's own tables, else of an
    /// enclosing query's.
    pub fn column(&self, c: &ColRef) -> Result<(String, DdicType)> {
        for level in self.levels() {
            let found: Vec<(String, &crate::types::Field)> = level
                .iter()
                .filter(|(q, _, _)| {
                    c.table
                        .as_deref()
                        .is_none_or(|want| q.eq_ignore_ascii_case(want))
                })
                .filter_map(|(_, t, sql)| t.field(&c.field).map(|f| (sql.clone(), f)))
                .collect();
            match found.as_slice() {
                [(sql, f)] => return Ok((format!("{sql}.\"{}\"", f.name), f.ddic)),
                [] => continue,
                _ => {
                    return Err(Error::Check(format!(
                        "column {} is in more than one table: write tab~{}",
                        c.field, c.field
                    )));
                }
            }
        }
        if let Some(t) = &c.table
            && !self
                .levels()
                .iter()
                .flatten()
                .any(|(q, _, _)| q.eq_ignore_ascii_case(t))
        {
            return Err(Error::UnknownTable(t.clone()));
        }
        Err(Error::UnknownColumn(match &c.table {
            Some(t) => format!("{t}~{}", c.field),
            None => c.field.clone(),
        }))
    }

    /// True when `name` is a column of one of the tables (old syntax: the column wins).
    pub fn has_column(&self, name: &str) -> bool {
        !name.contains('-')
            && self
                .levels()
                .iter()
                .flatten()
                .any(|(_, t, _)| t.field(name).is_some())
    }
}

/// One side of a comparison once resolved.
enum Side {
    /// SQL over columns with the type it has.
    Sql(String, DdicType),
    Value(Cell),
}

/// Generates SQL for conditions, collecting parameters.
pub(crate) struct Gen<'a, 'd> {
    pub scope: &'a Scope<'d>,
    pub params: Vec<Sql>,
    pub host: &'a mut dyn HostResolver,
    /// `FOR ALL ENTRIES`: the driver table's name and the current row.
    pub driver: Option<(&'a str, &'a Components)>,
    /// The tables subqueries read.
    pub dict: &'d Dictionary,
    /// The client of the statement's automatic client handling, for its subqueries (`None`:
    /// `CLIENT SPECIFIED`).
    pub client: Option<&'a str>,
    /// Subqueries generated so far (their SQL names are numbered).
    pub subqueries: usize,
}

fn cmp_sql(op: CmpOp) -> &'static str {
    op.sql()
}

pub(crate) fn agg_sql(scope: &Scope, a: &Aggregate) -> Result<(String, DdicType)> {
    let distinct = if a.distinct { "DISTINCT " } else { "" };
    let Some(col) = &a.arg else {
        return Ok(("COUNT(*)".into(), DdicType::Int8));
    };
    let (sql, t) = scope.column(col)?;
    let numeric = matches!(
        t,
        DdicType::Int1
            | DdicType::Int2
            | DdicType::Int4
            | DdicType::Int8
            | DdicType::Dec { .. }
            | DdicType::Fltp
    );
    Ok(match a.func {
        AggFunc::Count => (format!("COUNT({distinct}{sql})"), DdicType::Int8),
        AggFunc::Min | AggFunc::Max => {
            let f = if a.func == AggFunc::Min { "MIN" } else { "MAX" };
            (format!("{f}({distinct}{sql})"), t)
        }
        AggFunc::Sum if matches!(t, DdicType::Dec { digits, .. } if crate::wide::is_wide(digits)) => {
            (format!("ABAP_WIDE_SUM({distinct}{sql})"), t)
        }
        AggFunc::Avg if matches!(t, DdicType::Dec { digits, .. } if crate::wide::is_wide(digits)) =>
        {
            let dec = match t {
                DdicType::Dec { decimals, .. } => decimals,
                _ => 0,
            };
            (
                format!("(ABAP_WIDE_AVG({distinct}{sql}) / 1e{dec})"),
                DdicType::Fltp,
            )
        }
        AggFunc::Sum => {
            if !numeric {
                return Err(Error::Check(format!(
                    "SUM of the non-numeric column {}",
                    col.field
                )));
            }
            // SQLite sums integers exactly (an overflow is an error, never a rounding), and
            // packed columns are scaled integers.
            let t = match t {
                DdicType::Int1 | DdicType::Int2 => DdicType::Int4,
                other => other,
            };
            (format!("SUM({distinct}{sql})"), t)
        }
        AggFunc::Avg => {
            if !numeric {
                return Err(Error::Check(format!(
                    "AVG of the non-numeric column {}",
                    col.field
                )));
            }
            let scale = match t {
                DdicType::Dec { decimals, .. } if decimals > 0 => format!(" / 1e{decimals}"),
                _ => String::new(),
            };
            (format!("(AVG({distinct}{sql}){scale})"), DdicType::Fltp)
        }
    })
}

fn conv(cell: &Cell, t: DdicType) -> Result<Sql> {
    cell.to_storage(t).map_err(|m| Error::Conversion {
        value: m,
        target: t.name().to_string(),
    })
}

/// `ABAP CP` / `LIKE` patterns as `GLOB` patterns (case-sensitive, as the database compares).
pub(crate) fn glob_of(pattern: &str, any: char, one: char, escape: Option<char>) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if Some(c) == escape {
            match chars.next() {
                Some(n) => push_literal(&mut out, n),
                None => push_literal(&mut out, c),
            }
        } else if c == any {
            out.push('*');
        } else if c == one {
            out.push('?');
        } else {
            push_literal(&mut out, c);
        }
    }
    out
}

fn push_literal(out: &mut String, c: char) {
    match c {
        '*' => out.push_str("[*]"),
        '?' => out.push_str("[?]"),
        '[' => out.push_str("[[]"),
        _ => out.push(c),
    }
}

/// Text of a pattern operand: `c` values lose their trailing blanks.
fn pattern_text(c: &Cell) -> Result<String> {
    match c {
        Cell::Char(s) | Cell::Numc(s) | Cell::Date(s) | Cell::Time(s) => {
            Ok(s.trim_end_matches(' ').to_string())
        }
        Cell::String(s) => Ok(s.clone()),
        other => Err(Error::Conversion {
            value: other.to_string(),
            target: "a pattern".into(),
        }),
    }
}

impl Gen<'_, '_> {
    pub fn push(&mut self, v: Sql) -> String {
        self.params.push(v);
        "?".into()
    }

    /// The value of host operand `name` (a driver-row component under `FOR ALL ENTRIES`).
    pub fn host_value(&mut self, name: &str) -> Result<HostValue> {
        if let Some((driver, row)) = self.driver
            && let Some(comp) = name.strip_prefix(driver).and_then(|r| r.strip_prefix('-'))
        {
            return row
                .iter()
                .find(|(n, _)| n == comp)
                .map(|(_, c)| HostValue::Scalar(c.clone()))
                .ok_or_else(|| Error::Host {
                    name: name.to_string(),
                    message: format!("the rows of {driver} have no component {comp}"),
                });
        }
        self.host.value(name).map_err(|message| Error::Host {
            name: name.to_string(),
            message,
        })
    }

    pub fn scalar(&mut self, name: &str) -> Result<Cell> {
        match self.host_value(name)? {
            HostValue::Scalar(c) => Ok(c),
            _ => Err(Error::Host {
                name: name.to_string(),
                message: "an elementary value expected".into(),
            }),
        }
    }

    /// An operand that is no column: a host value or a literal.
    pub fn value_of(&mut self, o: &Operand) -> Result<Option<Cell>> {
        Ok(Some(match o {
            Operand::Host(n) => self.scalar(n)?,
            Operand::Name(n) if !self.scope.has_column(n) => self.scalar(n)?,
            Operand::Text(s) => Cell::Char(s.clone()),
            Operand::StringLit(s) => Cell::String(s.clone()),
            Operand::Number(i) => Cell::Int(*i),
            _ => return Ok(None),
        }))
    }

    fn side(&mut self, o: &Operand, aggregates: bool) -> Result<Side> {
        if let Some(c) = self.value_of(o)? {
            return Ok(Side::Value(c));
        }
        match o {
            Operand::Column(c) => {
                let (sql, t) = self.scope.column(c)?;
                Ok(Side::Sql(sql, t))
            }
            Operand::Name(n) => {
                let (sql, t) = self.scope.column(&ColRef {
                    table: None,
                    field: n.clone(),
                })?;
                Ok(Side::Sql(sql, t))
            }
            Operand::Aggregate(a) if aggregates => {
                let (sql, t) = agg_sql(self.scope, a)?;
                Ok(Side::Sql(sql, t))
            }
            Operand::Aggregate(_) => not_supported("aggregates outside HAVING"),
            _ => not_supported("this operand"),
        }
    }

    /// SQL for `operand` compared as a column, with its type (the left side of LIKE, IN, …).
    fn column_side(&mut self, o: &Operand, aggregates: bool) -> Result<(String, DdicType)> {
        match self.side(o, aggregates)? {
            Side::Sql(s, t) => Ok((s, t)),
            Side::Value(_) => not_supported("a condition without a column on its left"),
        }
    }

    pub fn cond(&mut self, c: &Cond, aggregates: bool) -> Result<String> {
        Ok(match c {
            // A chain of ANDs (ORs) is a left-deep tree as long as the chain: walked in a
            // loop, not by recursion.
            Cond::And(..) | Cond::Or(..) => {
                let and = matches!(c, Cond::And(..));
                let mut parts = Vec::new();
                let mut rest = c;
                loop {
                    match rest {
                        Cond::And(l, r) if and => {
                            parts.push(&**r);
                            rest = l;
                        }
                        Cond::Or(l, r) if !and => {
                            parts.push(&**r);
                            rest = l;
                        }
                        other => {
                            parts.push(other);
                            break;
                        }
                    }
                }
                parts.reverse();
                let mut sqls = Vec::with_capacity(parts.len());
                for p in parts {
                    sqls.push(self.cond(p, aggregates)?);
                }
                format!("({})", sqls.join(if and { " AND " } else { " OR " }))
            }
            Cond::Not(a) => format!("(NOT {})", self.cond(a, aggregates)?),
            Cond::Compare(l, op, r) => {
                let l = self.side(l, aggregates)?;
                let r = self.side(r, aggregates)?;
                match (l, r) {
                    (Side::Sql(a, ta), Side::Sql(b, tb)) => {
                        let (a, b) = rescaled(a, ta, b, tb)?;
                        format!("({a} {} {b})", cmp_sql(*op))
                    }
                    (Side::Sql(a, t), Side::Value(v)) => {
                        let p = self.push(conv(&v, t)?);
                        format!("({a} {} {p})", cmp_sql(*op))
                    }
                    (Side::Value(v), Side::Sql(b, t)) => {
                        let p = self.push(conv(&v, t)?);
                        format!("({p} {} {b})", cmp_sql(*op))
                    }
                    (Side::Value(_), Side::Value(_)) => {
                        return not_supported("a comparison without a column");
                    }
                }
            }
            Cond::Between {
                operand,
                low,
                high,
                negated,
            } => {
                let (a, t) = self.column_side(operand, aggregates)?;
                let lo = self.bound(low, t, aggregates)?;
                let hi = self.bound(high, t, aggregates)?;
                let not = if *negated { "NOT " } else { "" };
                format!("({a} {not}BETWEEN {lo} AND {hi})")
            }
            Cond::Like {
                operand,
                pattern,
                escape,
                negated,
            } => {
                let (a, _) = self.column_side(operand, aggregates)?;
                let Some(p) = self.value_of(pattern)? else {
                    return not_supported("LIKE with a column as pattern");
                };
                let esc = match escape {
                    None => None,
                    Some(e) => {
                        let Some(e) = self.value_of(e)? else {
                            return not_supported("ESCAPE with a column");
                        };
                        let e = pattern_text(&e)?;
                        let mut chars = e.chars();
                        match (chars.next(), chars.next()) {
                            (Some(c), None) => Some(c),
                            _ => {
                                return Err(Error::Check(
                                    "ESCAPE needs exactly one character".into(),
                                ));
                            }
                        }
                    }
                };
                let glob = glob_of(&pattern_text(&p)?, '%', '_', esc);
                let p = self.push(Sql::Text(glob));
                let not = if *negated { "NOT " } else { "" };
                format!("({not}({a} GLOB {p}))")
            }
            Cond::InList {
                operand,
                list,
                negated,
            } => {
                let (a, t) = self.column_side(operand, aggregates)?;
                let mut items = Vec::with_capacity(list.len());
                for o in list {
                    items.push(self.bound(o, t, aggregates)?);
                }
                let not = if *negated { "NOT " } else { "" };
                format!("({a} {not}IN ({}))", items.join(", "))
            }
            Cond::InRange {
                operand,
                range,
                negated,
            } => {
                let (a, t) = self.column_side(operand, aggregates)?;
                let rows = match self.host_value(range)? {
                    HostValue::Table(rows) => rows,
                    _ => {
                        return Err(Error::Host {
                            name: range.clone(),
                            message: "a ranges table expected".into(),
                        });
                    }
                };
                let sql = self.range(&a, t, range, &rows)?;
                if *negated {
                    format!("(NOT {sql})")
                } else {
                    sql
                }
            }
            Cond::IsNull { operand, negated } => {
                let (a, _) = self.column_side(operand, aggregates)?;
                let not = if *negated { "NOT " } else { "" };
                format!("({a} IS {not}NULL)")
            }
            Cond::Exists(q) => {
                let (sql, _) = self.subquery(q, Shape::Rows)?;
                format!("(EXISTS ({sql}))")
            }
            Cond::InQuery {
                operand,
                query,
                negated,
            } => {
                let (a, t) = self.column_side(operand, aggregates)?;
                let (sql, qt) = self.subquery(query, Shape::Column)?;
                same_storage(t, qt)?;
                let not = if *negated { "NOT " } else { "" };
                format!("({a} {not}IN ({sql}))")
            }
            Cond::CompareQuery { operand, op, query } => {
                let (a, t) = self.column_side(operand, aggregates)?;
                let (sql, qt) = self.subquery(query, Shape::Value)?;
                same_storage(t, qt)?;
                format!("({a} {} ({sql}))", cmp_sql(*op))
            }
            Cond::IsInitial { operand, negated } => {
                let (a, t) = self.column_side(operand, aggregates)?;
                let p = self.push(initial(t));
                let op = if *negated { "<>" } else { "=" };
                format!("({a} {op} {p})")
            }
        })
    }

    /// A bound of BETWEEN / an IN list entry: a value converted to `t`, or a column.
    fn bound(&mut self, o: &Operand, t: DdicType, aggregates: bool) -> Result<String> {
        match self.side(o, aggregates)? {
            Side::Value(v) => {
                let v = conv(&v, t)?;
                Ok(self.push(v))
            }
            Side::Sql(s, _) => Ok(s),
        }
    }

    /// `col IN @range`: (any I line) AND NOT (any E line); an empty table selects all.
    fn range(&mut self, col: &str, t: DdicType, name: &str, rows: &[Components]) -> Result<String> {
        let mut include = Vec::new();
        let mut exclude = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let comp = |n: &str| {
                row.iter()
                    .find(|(c, _)| c == n)
                    .map(|(_, v)| v.clone())
                    .ok_or_else(|| Error::Host {
                        name: name.to_string(),
                        message: format!("row {}: no component {n} (not a ranges table)", i + 1),
                    })
            };
            let text = |c: Cell| match c {
                Cell::Char(s) | Cell::String(s) => s.trim_end().to_string(),
                other => other.to_string(),
            };
            let sign = text(comp("SIGN")?);
            let option = text(comp("OPTION")?);
            let low = comp("LOW")?;
            let bad = |what: &str| Error::Host {
                name: name.to_string(),
                message: format!("row {}: {what}", i + 1),
            };
            let sql = match option.as_str() {
                "EQ" | "NE" | "GT" | "GE" | "LT" | "LE" => {
                    let op = match option.as_str() {
                        "EQ" => "=",
                        "NE" => "<>",
                        "GT" => ">",
                        "GE" => ">=",
                        "LT" => "<",
                        _ => "<=",
                    };
                    let p = self.push(conv(&low, t)?);
                    format!("({col} {op} {p})")
                }
                "BT" | "NB" => {
                    let high = comp("HIGH")?;
                    let lo = self.push(conv(&low, t)?);
                    let hi = self.push(conv(&high, t)?);
                    let not = if option == "NB" { "NOT " } else { "" };
                    format!("({col} {not}BETWEEN {lo} AND {hi})")
                }
                "CP" | "NP" => {
                    let pat = pattern_text(&low)?;
                    let not = if option == "NP" { "NOT " } else { "" };
                    if pat.contains(['*', '+']) {
                        let p = self.push(Sql::Text(glob_of(&pat, '*', '+', Some('#'))));
                        format!("({not}({col} GLOB {p}))")
                    } else {
                        // A pattern without wildcards compares for equality.
                        let plain = glob_of(&pat, '*', '+', Some('#'))
                            .replace("[*]", "*")
                            .replace("[?]", "?")
                            .replace("[[]", "[");
                        let p = self.push(conv(&Cell::String(plain), t)?);
                        format!("({not}({col} = {p}))")
                    }
                }
                other => return Err(bad(&format!("OPTION {other:?} is not an option"))),
            };
            match sign.as_str() {
                "I" => include.push(sql),
                "E" => exclude.push(sql),
                other => return Err(bad(&format!("SIGN {other:?} is neither I nor E"))),
            }
        }
        let inc = if include.is_empty() {
            "1".to_string()
        } else {
            format!("({})", include.join(" OR "))
        };
        Ok(if exclude.is_empty() {
            inc
        } else {
            format!("({inc} AND NOT ({}))", exclude.join(" OR "))
        })
    }
}

/// A column compared with a subquery's column: both must be stored alike (packed columns
/// with the same decimals), as the subquery's values cannot be rescaled.
fn same_storage(a: DdicType, b: Option<DdicType>) -> Result<()> {
    let Some(b) = b else { return Ok(()) };
    let packed = |t: DdicType| match t {
        DdicType::Dec {
            digits, decimals, ..
        } => Some((crate::wide::is_wide(digits), decimals)),
        _ => None,
    };
    if packed(a) != packed(b) {
        return not_supported(
            "comparing with a subquery column of other packed decimals or storage",
        );
    }
    Ok(())
}

/// Two packed columns of different decimals brought to the same scale.
fn rescaled(a: String, ta: DdicType, b: String, tb: DdicType) -> Result<(String, String)> {
    let wide = |t| matches!(t, DdicType::Dec { digits, .. } if crate::wide::is_wide(digits));
    if (wide(ta) || wide(tb)) && ta.abap().decimals() != tb.abap().decimals()
        || wide(ta) != wide(tb)
    {
        return not_supported(
            "comparing a packed column of more than 18 digits with a column of other type or decimals",
        );
    }
    Ok(match (ta, tb) {
        (DdicType::Dec { decimals: da, .. }, DdicType::Dec { decimals: db, .. }) if da != db => {
            if da < db {
                (format!("({a} * 1{})", "0".repeat((db - da) as usize)), b)
            } else {
                (a, format!("({b} * 1{})", "0".repeat((da - db) as usize)))
            }
        }
        _ => (a, b),
    })
}
