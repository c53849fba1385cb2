//! Subqueries of a condition (`EXISTS`, `IN ( SELECT … )`, a comparison with a subquery of
//! one value) as nested SQLite queries. A subquery's tables are numbered apart from the
//! statement's; its columns may name the enclosing queries' tables (correlated). It applies
//! the statement's client, as ABAP does.

use crate::ast::{ClientHandling, JoinKind, Select, SelectExpr};
use crate::cond::{Gen, Scope, agg_sql};
use crate::error::{Error, Result, not_supported};
use crate::types::{DdicType, TableDef};

/// What the enclosing condition needs of the subquery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Rows or none (`EXISTS`).
    Rows,
    /// One column (`IN`).
    Column,
    /// One value: a single aggregate without `GROUP BY`.
    Value,
}

impl Gen<'_, '_> {
    /// The SQL of subquery `q` and the type of its one column (`Shape::Rows`: none).
    pub fn subquery(&mut self, q: &Select, shape: Shape) -> Result<(String, Option<DdicType>)> {
        self.subqueries += 1;
        let prefix = format!("q{}t", self.subqueries);
        let mut tables = vec![(
            q.from.table.qualifier().to_string(),
            self.dict.database_table(&q.from.table.name)?,
        )];
        for j in &q.from.joins {
            tables.push((
                j.table.qualifier().to_string(),
                self.dict.database_table(&j.table.name)?,
            ));
        }
        let mut outer: Vec<(String, &TableDef, String)> = self
            .scope
            .tables
            .iter()
            .enumerate()
            .map(|(i, (qual, t))| (qual.clone(), *t, format!("{}{i}", self.scope.prefix)))
            .collect();
        outer.extend(self.scope.outer.iter().cloned());
        let child = Scope {
            tables,
            prefix,
            outer,
        };
        let client = match (&q.client, self.client) {
            (ClientHandling::Automatic, Some(c)) => Some(c.to_string()),
            (ClientHandling::Specified, _) => None,
            (ClientHandling::Automatic, None) => {
                return not_supported(
                    "a subquery with automatic client handling under CLIENT SPECIFIED",
                );
            }
            (ClientHandling::Using(_), _) => return not_supported("USING CLIENT in a subquery"),
        };

        let one = match (&q.fields, shape) {
            (_, Shape::Rows) => None,
            (Some(items), _) if items.len() == 1 => Some(&items[0].expr),
            _ => {
                return Err(Error::Check(
                    "a subquery compared with a value selects exactly one column".into(),
                ));
            }
        };
        if shape == Shape::Value
            && !(matches!(one, Some(SelectExpr::Aggregate(_))) && q.group_by.is_empty())
        {
            return not_supported(
                "a comparison with a subquery that may give more than one row (only a single aggregate without GROUP BY)",
            );
        }
        let (column_sql, column_type) = match one {
            None => ("1".to_string(), None),
            Some(SelectExpr::Column(c)) => {
                let (sql, t) = child.column(c)?;
                (sql, Some(t))
            }
            Some(SelectExpr::Aggregate(a)) => {
                let (sql, t) = agg_sql(&child, a)?;
                (sql, Some(t))
            }
            Some(_) => return not_supported("this column of a subquery"),
        };

        let mut inner = Gen {
            scope: &child,
            params: std::mem::take(&mut self.params),
            host: &mut *self.host,
            driver: self.driver,
            dict: self.dict,
            client: self.client,
            subqueries: self.subqueries,
        };
        let sql = subquery_sql(&mut inner, q, &child, &column_sql, client.as_deref());
        self.params = std::mem::take(&mut inner.params);
        self.subqueries = inner.subqueries;
        Ok((sql?, column_type))
    }
}

fn subquery_sql(
    g: &mut Gen,
    q: &Select,
    scope: &Scope,
    column_sql: &str,
    client: Option<&str>,
) -> Result<String> {
    let p = &scope.prefix;
    let mut sql = format!(
        "SELECT {}{column_sql} FROM \"{}\" AS {p}0",
        if q.distinct { "DISTINCT " } else { "" },
        scope.tables[0].1.name
    );
    for (i, j) in q.from.joins.iter().enumerate() {
        let t = scope.tables[i + 1].1;
        let kind = match j.kind {
            JoinKind::Inner => "INNER JOIN",
            JoinKind::LeftOuter => "LEFT OUTER JOIN",
        };
        let on = g.cond(&j.on, false)?;
        sql.push_str(&format!(" {kind} \"{}\" AS {p}{} ON {on}", t.name, i + 1));
        if let (Some(c), Some(f)) = (client, t.client_field()) {
            let m = g.push(rusqlite::types::Value::Text(c.to_string()));
            sql.push_str(&format!(" AND {p}{}.\"{}\" = {m}", i + 1, f.name));
        }
    }
    let mut conds = Vec::new();
    if let (Some(c), Some(f)) = (client, scope.tables[0].1.client_field()) {
        let m = g.push(rusqlite::types::Value::Text(c.to_string()));
        conds.push(format!("{p}0.\"{}\" = {m}", f.name));
    }
    if let Some(w) = &q.where_ {
        conds.push(g.cond(w, false)?);
    }
    if !conds.is_empty() {
        sql.push_str(&format!(" WHERE {}", conds.join(" AND ")));
    }
    if !q.group_by.is_empty() {
        let mut cols = Vec::new();
        for c in &q.group_by {
            cols.push(scope.column(c)?.0);
        }
        sql.push_str(&format!(" GROUP BY {}", cols.join(", ")));
    }
    if let Some(h) = &q.having {
        let h = g.cond(h, true)?;
        sql.push_str(&format!(" HAVING {h}"));
    }
    Ok(sql)
}
