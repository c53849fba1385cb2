//! `SELECT`: the statement model as one SQLite query (or one per chunk of a `FOR ALL
//! ENTRIES` driver table), the rows read back as typed cells, and `sy-subrc` / `sy-dbcnt`.

use std::collections::HashSet;

use rusqlite::types::Value as Sql;

use crate::ast::{AggFunc, Cond, JoinKind, OrderBy, OrderKey, Select, SelectExpr};
use crate::cell::Cell;
use crate::cond::{Gen, Scope, agg_sql};
use crate::db::Database;
use crate::error::{Error, Result, not_supported};
use crate::host::{Components, HostResolver, HostValue};
use crate::outcome::{Column, Outcome, ResultSet};
use crate::types::AbapType;

/// Driver rows per query under `FOR ALL ENTRIES` (the database's expression depth bounds a
/// chain of `OR`s).
const DRIVER_CHUNK: usize = 100;

pub(crate) fn select(
    db: &mut Database,
    s: &Select,
    host: &mut dyn HostResolver,
) -> Result<Outcome> {
    let mut tables = vec![(
        s.from.table.qualifier().to_string(),
        db.table(&s.from.table.name)?,
    )];
    for j in &s.from.joins {
        tables.push((j.table.qualifier().to_string(), db.table(&j.table.name)?));
    }
    let scope = Scope::new(tables);
    let client = db.client_of(&s.client, host)?;
    let (list_sql, columns) = select_list(&scope, s, host, &db.dict)?;
    let aggregates_only = s.aggregates_only();

    let driver: Option<Vec<Components>> = match &s.for_all_entries {
        None => None,
        Some(name) => match host.value(name).map_err(|message| Error::Host {
            name: name.clone(),
            message,
        })? {
            HostValue::Table(rows) => Some(rows),
            _ => {
                return Err(Error::Host {
                    name: name.clone(),
                    message: "FOR ALL ENTRIES needs an internal table".into(),
                });
            }
        },
    };
    if driver.is_some() && (aggregates_only || !s.group_by.is_empty() || s.having.is_some()) {
        return not_supported("FOR ALL ENTRIES with aggregates, GROUP BY or HAVING");
    }

    let mut rows: Vec<Vec<Sql>> = Vec::new();
    match &driver {
        // An empty driver table: the WHERE condition is ignored and every row is read.
        Some(d) if d.is_empty() => {
            rows = run(
                db,
                &scope,
                s,
                &list_sql,
                client.as_deref(),
                host,
                Where::Ignored,
                aggregates_only,
            )?;
            dedupe(&mut rows);
        }
        Some(d) => {
            let mut unique: Vec<&Components> = Vec::new();
            let mut seen = HashSet::new();
            for r in d {
                if seen.insert(format!("{r:?}")) {
                    unique.push(r);
                }
            }
            let chunks: Vec<&[&Components]> = unique.chunks(DRIVER_CHUNK).collect();
            if chunks.len() > 1 && (s.order_by.is_some() || s.up_to.is_some() || s.offset.is_some())
            {
                return not_supported(format!(
                    "FOR ALL ENTRIES with more than {DRIVER_CHUNK} distinct driver rows and ORDER BY, UP TO or OFFSET"
                ));
            }
            for chunk in chunks {
                let name = s.for_all_entries.as_deref().unwrap_or_default();
                rows.extend(run(
                    db,
                    &scope,
                    s,
                    &list_sql,
                    client.as_deref(),
                    host,
                    Where::Driver(name, chunk),
                    aggregates_only,
                )?);
            }
            dedupe(&mut rows);
        }
        None => {
            rows = run(
                db,
                &scope,
                s,
                &list_sql,
                client.as_deref(),
                host,
                Where::Plain,
                aggregates_only,
            )?;
        }
    }

    // With aggregates only, the hidden last column counts the rows that matched.
    let (subrc, dbcnt) = if aggregates_only {
        let matched = match rows.first().and_then(|r| r.last()) {
            Some(Sql::Integer(n)) => *n,
            _ => 0,
        };
        for r in &mut rows {
            r.pop();
        }
        if s.into.is_none() {
            // `SELECT COUNT( * ) FROM …` without a target: the count goes to sy-dbcnt.
            (if matched > 0 { 0 } else { 4 }, matched)
        } else if rows.is_empty() {
            // `HAVING` removed the one row: whether a real system still passes a row is not
            // certain.
            return not_supported("a SELECT of only aggregates whose HAVING condition is false");
        } else if matched > 0 || !s.count_star_alone() {
            // Over no rows the one row still comes (`COUNT` 0, the other aggregates null:
            // the target's initial value), with 0 and 1.
            (0, 1)
        } else {
            // `COUNT( * )` alone and without an alias over no rows: 4 and 0, the target 0.
            (4, 0)
        }
    } else {
        let n = i64::try_from(rows.len()).unwrap_or(i64::MAX);
        (if n > 0 { 0 } else { 4 }, n)
    };
    let rows = rows
        .into_iter()
        .map(|r| {
            r.into_iter()
                .zip(&columns)
                .map(|(v, c)| Cell::from_storage(v, c.ty))
                .collect()
        })
        .collect();
    Ok(Outcome {
        subrc,
        dbcnt: Some(dbcnt),
        result: Some(ResultSet { columns, rows }),
    })
}

/// Removes repeated rows, keeping the first of each.
fn dedupe(rows: &mut Vec<Vec<Sql>>) {
    let mut seen = HashSet::new();
    rows.retain(|r| seen.insert(format!("{r:?}")));
}

enum Where<'a> {
    Plain,
    Ignored,
    Driver(&'a str, &'a [&'a Components]),
}

#[allow(clippy::too_many_arguments)]
fn run(
    db: &Database,
    scope: &Scope,
    s: &Select,
    list_sql: &str,
    client: Option<&str>,
    host: &mut dyn HostResolver,
    mode: Where,
    aggregates_only: bool,
) -> Result<Vec<Vec<Sql>>> {
    let mut sqlgen = Gen {
        scope,
        params: Vec::new(),
        host,
        driver: None,
        dict: &db.dict,
        client,
        subqueries: 0,
    };
    let distinct = s.distinct || matches!(mode, Where::Driver(..));
    let mut sql = format!(
        "SELECT {}{list_sql}{} FROM \"{}\" AS t0",
        if distinct { "DISTINCT " } else { "" },
        if aggregates_only { ", COUNT(*)" } else { "" },
        scope.tables[0].1.name
    );
    for (i, j) in s.from.joins.iter().enumerate() {
        let t = scope.tables[i + 1].1;
        let kind = match j.kind {
            JoinKind::Inner => "INNER JOIN",
            JoinKind::LeftOuter => "LEFT OUTER JOIN",
        };
        let on = sqlgen.cond(&j.on, false)?;
        sql.push_str(&format!(" {kind} \"{}\" AS t{} ON {on}", t.name, i + 1));
        if let (Some(c), Some(f)) = (client, t.client_field()) {
            let p = sqlgen.push(Sql::Text(c.to_string()));
            sql.push_str(&format!(" AND t{}.\"{}\" = {p}", i + 1, f.name));
        }
    }
    let mut conds: Vec<String> = Vec::new();
    if let (Some(c), Some(f)) = (client, scope.tables[0].1.client_field()) {
        let p = sqlgen.push(Sql::Text(c.to_string()));
        conds.push(format!("t0.\"{}\" = {p}", f.name));
    }
    match (&mode, &s.where_) {
        (Where::Ignored, _) | (_, None) => {}
        (Where::Plain, Some(w)) => conds.push(sqlgen.cond(w, false)?),
        (Where::Driver(name, rows), Some(w)) => {
            let mut alts = Vec::new();
            for row in rows.iter() {
                alts.push(driver_cond(&mut sqlgen, w, name, row)?);
            }
            conds.push(format!("({})", alts.join(" OR ")));
        }
    }
    if !conds.is_empty() {
        sql.push_str(" WHERE ");
        sql.push_str(&conds.join(" AND "));
    }
    if !s.group_by.is_empty() {
        let mut cols = Vec::new();
        for c in &s.group_by {
            cols.push(scope.column(c)?.0);
        }
        sql.push_str(&format!(" GROUP BY {}", cols.join(", ")));
    }
    if let Some(h) = &s.having {
        if s.group_by.is_empty() && !aggregates_only {
            return not_supported("HAVING without GROUP BY");
        }
        let h = sqlgen.cond(h, true)?;
        sql.push_str(&format!(" HAVING {h}"));
    }
    if let Some(o) = &s.order_by {
        sql.push_str(&format!(" ORDER BY {}", order_sql(scope, s, o)?));
    }
    let up_to = match &s.up_to {
        Some(o) => count_of(&mut sqlgen, o, "UP TO")?,
        None => 0,
    };
    let offset = match &s.offset {
        Some(o) => count_of(&mut sqlgen, o, "OFFSET")?,
        None => 0,
    };
    let limit = if s.single {
        1
    } else if up_to > 0 {
        up_to
    } else {
        -1
    };
    if limit >= 0 || offset > 0 {
        sql.push_str(&format!(" LIMIT {limit} OFFSET {offset}"));
    }
    let params = std::mem::take(&mut sqlgen.params);
    let mut stmt = db.conn.prepare(&sql)?;
    let n = stmt.column_count();
    let mut out = Vec::new();
    let mut q = stmt.query(rusqlite::params_from_iter(params.iter()))?;
    while let Some(row) = q.next()? {
        let mut r = Vec::with_capacity(n);
        for i in 0..n {
            r.push(row.get::<_, Sql>(i)?);
        }
        out.push(r);
    }
    Ok(out)
}

/// The WHERE condition for one driver row.
fn driver_cond(sqlgen: &mut Gen, w: &Cond, name: &str, row: &Components) -> Result<String> {
    // `sqlgen.driver` borrows the row for this call only.
    let mut inner = Gen {
        scope: sqlgen.scope,
        params: std::mem::take(&mut sqlgen.params),
        host: &mut *sqlgen.host,
        driver: Some((name, row)),
        dict: sqlgen.dict,
        client: sqlgen.client,
        subqueries: sqlgen.subqueries,
    };
    let sql = inner.cond(w, false);
    sqlgen.params = std::mem::take(&mut inner.params);
    sqlgen.subqueries = inner.subqueries;
    sql
}

fn count_of(sqlgen: &mut Gen, o: &crate::ast::Operand, what: &str) -> Result<i64> {
    let v = sqlgen
        .value_of(o)?
        .ok_or_else(|| Error::NotSupported(format!("{what} with a column")))?;
    let n = match &v {
        Cell::Int(i) => *i,
        Cell::Packed { mant, dec: 0 } => i64::try_from(*mant).unwrap_or(i64::MAX),
        Cell::Char(s) | Cell::Numc(s) | Cell::String(s) => {
            s.trim().parse().map_err(|_| Error::Conversion {
                value: v.to_string(),
                target: "a number of rows".into(),
            })?
        }
        _ => {
            return Err(Error::Conversion {
                value: v.to_string(),
                target: "a number of rows".into(),
            });
        }
    };
    if n < 0 {
        return not_supported(format!("{what} with a negative number"));
    }
    Ok(n)
}

fn select_list(
    scope: &Scope,
    s: &Select,
    host: &mut dyn HostResolver,
    dict: &crate::ddic::Dictionary,
) -> Result<(String, Vec<Column>)> {
    let mut sql = Vec::new();
    let mut cols = Vec::new();
    let all_of = |i: usize, sql: &mut Vec<String>, cols: &mut Vec<Column>| {
        for f in &scope.tables[i].1.fields {
            sql.push(format!("t{i}.\"{}\"", f.name));
            cols.push(Column {
                name: f.name.clone(),
                ty: f.abap(),
                ddic: Some(f.ddic),
            });
        }
    };
    match &s.fields {
        None => {
            for i in 0..scope.tables.len() {
                all_of(i, &mut sql, &mut cols);
            }
        }
        Some(items) => {
            for item in items {
                match &item.expr {
                    SelectExpr::Column(c) => {
                        let (q, t) = scope.column(c)?;
                        sql.push(match &item.alias {
                            Some(a) => format!("{q} AS \"{a}\""),
                            None => q,
                        });
                        cols.push(Column {
                            name: item.alias.clone().unwrap_or_else(|| c.field.clone()),
                            ty: t.abap(),
                            ddic: Some(t),
                        });
                    }
                    SelectExpr::Value(o) => {
                        let mut values = Gen {
                            scope,
                            params: Vec::new(),
                            host: &mut *host,
                            driver: None,
                            dict,
                            client: None,
                            subqueries: 0,
                        };
                        let Some(cell) = values.value_of(o)? else {
                            return not_supported("this operand in the select list");
                        };
                        let (literal, ty) = value_literal(&cell)?;
                        sql.push(literal);
                        cols.push(Column {
                            name: item.alias.clone().unwrap_or_default(),
                            ty,
                            ddic: None,
                        });
                    }
                    SelectExpr::AllOf(q) => {
                        let i = scope
                            .tables
                            .iter()
                            .position(|(n, _)| n.eq_ignore_ascii_case(q))
                            .ok_or_else(|| Error::UnknownTable(q.clone()))?;
                        all_of(i, &mut sql, &mut cols);
                    }
                    SelectExpr::Aggregate(a) => {
                        let (q, t) = agg_sql(scope, a)?;
                        let (ty, ddic) = match a.func {
                            AggFunc::Count => (AbapType::I, None),
                            AggFunc::Avg => (AbapType::F, None),
                            _ => (t.abap(), Some(t)),
                        };
                        let name = item.alias.clone().unwrap_or_else(|| {
                            match a.func {
                                AggFunc::Count => "COUNT",
                                AggFunc::Sum => "SUM",
                                AggFunc::Min => "MIN",
                                AggFunc::Max => "MAX",
                                AggFunc::Avg => "AVG",
                            }
                            .to_string()
                        });
                        sql.push(match &item.alias {
                            Some(a) => format!("{q} AS \"{a}\""),
                            None => q,
                        });
                        cols.push(Column { name, ty, ddic });
                    }
                }
            }
        }
    }
    Ok((sql.join(", "), cols))
}

/// A value of the select list as an SQL literal (it is the same in every row) and its type.
fn value_literal(cell: &Cell) -> Result<(String, AbapType)> {
    let quoted = |s: &str| format!("'{}'", s.replace('\'', "''"));
    let len = |s: &str| u32::try_from(s.chars().count().max(1)).unwrap_or(u32::MAX);
    Ok(match cell {
        Cell::Char(s) => {
            let t = s.trim_end_matches(' ');
            (quoted(t), AbapType::C(len(s)))
        }
        Cell::Numc(s) => (quoted(s), AbapType::N(len(s))),
        Cell::String(s) => (quoted(s), AbapType::String),
        Cell::Int(i) => (i.to_string(), AbapType::I),
        other => return not_supported(format!("{other} in the select list")),
    })
}

fn order_sql(scope: &Scope, s: &Select, o: &OrderBy) -> Result<String> {
    match o {
        OrderBy::PrimaryKey => {
            if !s.from.joins.is_empty() {
                return not_supported("ORDER BY PRIMARY KEY with joins");
            }
            let keys: Vec<String> = scope.tables[0]
                .1
                .key_fields()
                .map(|f| format!("t0.\"{}\"", f.name))
                .collect();
            if keys.is_empty() {
                return not_supported("ORDER BY PRIMARY KEY of a table without key");
            }
            Ok(keys.join(", "))
        }
        OrderBy::Columns(keys) => {
            let mut out = Vec::new();
            for (k, desc) in keys {
                let sql = match k {
                    OrderKey::Column(c) => {
                        let is_alias = c.table.is_none()
                            && s.fields.as_ref().is_some_and(|items| {
                                items
                                    .iter()
                                    .any(|i| i.alias.as_deref() == Some(c.field.as_str()))
                            });
                        if is_alias {
                            format!("\"{}\"", c.field)
                        } else {
                            scope.column(c)?.0
                        }
                    }
                    OrderKey::Aggregate(a) => agg_sql(scope, a)?.0,
                };
                out.push(format!("{sql}{}", if *desc { " DESC" } else { "" }));
            }
            Ok(out.join(", "))
        }
    }
}
