//! `INSERT`, `UPDATE`, `MODIFY`, `DELETE` and the `sy-subrc` / `sy-dbcnt` each sets. A
//! statement is atomic: when it ends in a runtime error, none of its rows stay changed.

use rusqlite::types::Value as Sql;

use crate::ast::{Delete, SetValue, Source, Update, Write};
use crate::cond::{Gen, Scope};
use crate::db::{Database, insert_sql};
use crate::error::{Error, Result, not_supported};
use crate::host::{Components, HostResolver, HostValue};
use crate::outcome::Outcome;
use crate::types::{DdicType, TableDef};

fn outcome(subrc: i32, dbcnt: usize) -> Outcome {
    Outcome {
        subrc,
        dbcnt: Some(i64::try_from(dbcnt).unwrap_or(i64::MAX)),
        result: None,
    }
}

/// The rows of a write's source, and whether it was `FROM TABLE`.
fn source_rows(source: &Source, host: &mut dyn HostResolver) -> Result<(Vec<Components>, bool)> {
    let (name, table) = match source {
        Source::Row(n) => (n, false),
        Source::Table(n) => (n, true),
    };
    let v = host.value(name).map_err(|message| Error::Host {
        name: name.clone(),
        message,
    })?;
    match (v, table) {
        (HostValue::Struct(c), false) => Ok((vec![c], false)),
        (HostValue::Table(rows), true) => Ok((rows, true)),
        (_, false) => Err(Error::Host {
            name: name.clone(),
            message: "a structure (work area) expected".into(),
        }),
        (_, true) => Err(Error::Host {
            name: name.clone(),
            message: "an internal table expected".into(),
        }),
    }
}

/// A work area as one storage value per field; the client field takes `client` unless the
/// statement says `CLIENT SPECIFIED`.
fn storage_row(t: &TableDef, row: &Components, client: Option<&str>) -> Result<Vec<Sql>> {
    let client_field = t.client_field().map(|f| f.name.as_str());
    let mut out = Vec::with_capacity(t.fields.len());
    for f in &t.fields {
        if let (Some(c), Some(cf)) = (client, client_field)
            && cf == f.name
        {
            out.push(Sql::Text(c.to_string()));
            continue;
        }
        let cell = row
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(&f.name))
            .map(|(_, c)| c)
            .ok_or_else(|| Error::Host {
                name: f.name.clone(),
                message: format!("the work area has no component {} of {}", f.name, t.name),
            })?;
        out.push(cell.to_storage(f.ddic).map_err(|m| Error::Conversion {
            value: format!("{}: {m}", f.name),
            target: f.ddic.name().to_string(),
        })?);
    }
    Ok(out)
}

/// Runs `body` inside a savepoint: undone entirely when it fails.
fn atomic<T>(db: &Database, body: impl FnOnce() -> Result<T>) -> Result<T> {
    db.conn.execute_batch("SAVEPOINT opensql_statement")?;
    match body() {
        Ok(v) => {
            db.conn.execute_batch("RELEASE opensql_statement")?;
            Ok(v)
        }
        Err(e) => {
            db.conn
                .execute_batch("ROLLBACK TO opensql_statement; RELEASE opensql_statement")?;
            Err(e)
        }
    }
}

fn key_where(t: &TableDef) -> String {
    t.key_fields()
        .map(|f| format!("\"{}\" = ?", f.name))
        .collect::<Vec<_>>()
        .join(" AND ")
}

fn key_values(t: &TableDef, row: &[Sql]) -> Vec<Sql> {
    t.fields
        .iter()
        .zip(row)
        .filter(|(f, _)| f.key)
        .map(|(_, v)| v.clone())
        .collect()
}

fn need_key(t: &TableDef) -> Result<()> {
    if t.key_fields().next().is_none() {
        return not_supported(format!("writes by key to {}, a table without key", t.name));
    }
    Ok(())
}

/// `INSERT dbtab FROM @wa` / `INSERT INTO dbtab VALUES @wa`: 0 and 1 row, or 4 and 0 when
/// the key exists. `FROM TABLE @itab`: 0 and the rows inserted; a duplicate key is the
/// runtime error `SAPSQL_ARRAY_INSERT_DUPREC` (nothing inserted), unless `ACCEPTING
/// DUPLICATE KEYS`, which skips it and sets 4.
pub(crate) fn insert(db: &mut Database, w: &Write, host: &mut dyn HostResolver) -> Result<Outcome> {
    let t = db.table(&w.table)?.clone();
    let client = db.client_of(&w.client, host)?;
    let (rows, from_table) = source_rows(&w.source, host)?;
    let sql = insert_sql(&t, "INSERT OR IGNORE");
    atomic(db, || {
        let mut stmt = db.conn.prepare(&sql)?;
        let (mut inserted, mut duplicates) = (0usize, 0usize);
        for row in &rows {
            let values = storage_row(&t, row, client.as_deref())?;
            if stmt.execute(rusqlite::params_from_iter(values.iter()))? == 1 {
                inserted += 1;
            } else {
                duplicates += 1;
                if from_table && !w.accepting_duplicates {
                    return Err(Error::Runtime {
                        name: "SAPSQL_ARRAY_INSERT_DUPREC",
                        message: format!(
                            "INSERT {} FROM TABLE: a row with an existing key",
                            t.name
                        ),
                    });
                }
            }
        }
        Ok(outcome(if duplicates > 0 { 4 } else { 0 }, inserted))
    })
}

/// `MODIFY dbtab FROM @wa | FROM TABLE @itab`: each row inserted or, when its key exists,
/// overwritten; 0 and the rows processed.
pub(crate) fn modify(db: &mut Database, w: &Write, host: &mut dyn HostResolver) -> Result<Outcome> {
    let t = db.table(&w.table)?.clone();
    need_key(&t)?;
    let client = db.client_of(&w.client, host)?;
    let (rows, _) = source_rows(&w.source, host)?;
    let sql = insert_sql(&t, "INSERT OR REPLACE");
    atomic(db, || {
        let mut stmt = db.conn.prepare(&sql)?;
        for row in &rows {
            let values = storage_row(&t, row, client.as_deref())?;
            stmt.execute(rusqlite::params_from_iter(values.iter()))?;
        }
        Ok(outcome(0, rows.len()))
    })
}

/// `UPDATE dbtab FROM @wa | FROM TABLE @itab` (by key: 0 when every row was found, else 4;
/// `sy-dbcnt` the rows changed) and `UPDATE dbtab SET … [WHERE …]` (0 when a row changed,
/// else 4).
pub(crate) fn update(
    db: &mut Database,
    u: &Update,
    host: &mut dyn HostResolver,
) -> Result<Outcome> {
    match u {
        Update::From(w) => {
            let t = db.table(&w.table)?.clone();
            need_key(&t)?;
            let client = db.client_of(&w.client, host)?;
            let (rows, _) = source_rows(&w.source, host)?;
            let mut sets: Vec<String> = t
                .fields
                .iter()
                .filter(|f| !f.key)
                .map(|f| format!("\"{}\" = ?", f.name))
                .collect();
            if sets.is_empty() {
                // Only key fields: the row is "changed" into itself.
                let k = t
                    .key_fields()
                    .next()
                    .map(|f| f.name.clone())
                    .unwrap_or_default();
                sets.push(format!("\"{k}\" = \"{k}\""));
            }
            let sql = format!(
                "UPDATE \"{}\" SET {} WHERE {}",
                t.name,
                sets.join(", "),
                key_where(&t)
            );
            atomic(db, || {
                let mut stmt = db.conn.prepare(&sql)?;
                let mut changed = 0;
                for row in &rows {
                    let values = storage_row(&t, row, client.as_deref())?;
                    let mut params: Vec<Sql> = t
                        .fields
                        .iter()
                        .zip(&values)
                        .filter(|(f, _)| !f.key)
                        .map(|(_, v)| v.clone())
                        .collect();
                    params.extend(key_values(&t, &values));
                    changed += stmt.execute(rusqlite::params_from_iter(params.iter()))?;
                }
                Ok(outcome(if changed == rows.len() { 0 } else { 4 }, changed))
            })
        }
        Update::Set {
            table,
            client,
            sets,
            where_,
        } => {
            let t = db.table(table)?.clone();
            let client = db.client_of(client, host)?;
            let scope = Scope::new(vec![(t.name.clone(), &t)]);
            let mut sqlgen = Gen {
                scope: &scope,
                params: Vec::new(),
                host,
                driver: None,
                dict: &db.dict,
                client: client.as_deref(),
                subqueries: 0,
            };
            let mut set_sql = Vec::new();
            for item in sets {
                let f = t
                    .field(&item.field)
                    .ok_or_else(|| Error::UnknownColumn(item.field.clone()))?;
                let rhs = match &item.value {
                    SetValue::Operand(o) => match sqlgen.value_of(o)? {
                        Some(v) => {
                            let v = convert(&v, f.ddic, &f.name)?;
                            sqlgen.push(v)
                        }
                        None => {
                            let c = match o {
                                crate::ast::Operand::Column(c) => c.clone(),
                                crate::ast::Operand::Name(n) => crate::ast::ColRef {
                                    table: None,
                                    field: n.clone(),
                                },
                                _ => return not_supported("this SET operand"),
                            };
                            let (sql, ct) = scope.column(&c)?;
                            same_scale(f.ddic, ct)?;
                            sql
                        }
                    },
                    SetValue::Add(c, o) | SetValue::Sub(c, o) => {
                        let (sql, ct) = scope.column(c)?;
                        same_scale(f.ddic, ct)?;
                        let Some(v) = sqlgen.value_of(o)? else {
                            return not_supported("SET arithmetic with two columns");
                        };
                        let v = convert(&v, ct, &c.field)?;
                        let p = sqlgen.push(v);
                        let add = matches!(item.value, SetValue::Add(..));
                        if matches!(ct, DdicType::Dec { digits, .. } if crate::wide::is_wide(digits))
                        {
                            let f = if add {
                                "ABAP_WIDE_ADD"
                            } else {
                                "ABAP_WIDE_SUB"
                            };
                            format!("{f}({sql}, {p})")
                        } else {
                            format!("({sql} {} {p})", if add { "+" } else { "-" })
                        }
                    }
                };
                set_sql.push(format!("\"{}\" = {rhs}", f.name));
            }
            let mut conds = Vec::new();
            if let (Some(c), Some(cf)) = (&client, t.client_field()) {
                let p = sqlgen.push(Sql::Text(c.clone()));
                conds.push(format!("t0.\"{}\" = {p}", cf.name));
            }
            if let Some(w) = where_ {
                conds.push(sqlgen.cond(w, false)?);
            }
            let mut sql = format!("UPDATE \"{}\" AS t0 SET {}", t.name, set_sql.join(", "));
            if !conds.is_empty() {
                sql.push_str(&format!(" WHERE {}", conds.join(" AND ")));
            }
            let params = std::mem::take(&mut sqlgen.params);
            let changed = atomic(db, || {
                Ok(db
                    .conn
                    .execute(&sql, rusqlite::params_from_iter(params.iter()))?)
            })?;
            Ok(outcome(if changed > 0 { 0 } else { 4 }, changed))
        }
    }
}

fn convert(v: &crate::cell::Cell, t: DdicType, field: &str) -> Result<Sql> {
    v.to_storage(t).map_err(|m| Error::Conversion {
        value: format!("{field}: {m}"),
        target: t.name().to_string(),
    })
}

/// `SET f = g …` between packed columns of different decimals is refused (the scaled
/// integers would need rescaling with ABAP's rounding).
fn same_scale(a: DdicType, b: DdicType) -> Result<()> {
    let wide = |t| matches!(t, DdicType::Dec { digits, .. } if crate::wide::is_wide(digits));
    if wide(a) != wide(b) {
        return not_supported("SET between packed columns of up to and of more than 18 digits");
    }
    match (a, b) {
        (DdicType::Dec { decimals: x, .. }, DdicType::Dec { decimals: y, .. }) if x != y => {
            not_supported("SET between packed columns of different decimals")
        }
        (DdicType::Dec { .. }, DdicType::Dec { .. }) => Ok(()),
        (DdicType::Dec { .. }, _) | (_, DdicType::Dec { .. }) => {
            not_supported("SET between a packed and a non-packed column")
        }
        _ => Ok(()),
    }
}

/// `DELETE dbtab FROM @wa | FROM TABLE @itab` (by key: 0 when every row was found, else
/// 4) and `DELETE FROM dbtab [WHERE …]` (0 when a row was deleted, else 4); `sy-dbcnt` the
/// rows deleted.
pub(crate) fn delete(
    db: &mut Database,
    d: &Delete,
    host: &mut dyn HostResolver,
) -> Result<Outcome> {
    match d {
        Delete::From(w) => {
            let t = db.table(&w.table)?.clone();
            need_key(&t)?;
            let client = db.client_of(&w.client, host)?;
            let (rows, _) = source_rows(&w.source, host)?;
            let sql = format!("DELETE FROM \"{}\" WHERE {}", t.name, key_where(&t));
            atomic(db, || {
                let mut stmt = db.conn.prepare(&sql)?;
                let mut deleted = 0;
                for row in &rows {
                    let values = key_row(&t, row, client.as_deref())?;
                    deleted += stmt.execute(rusqlite::params_from_iter(values.iter()))?;
                }
                Ok(outcome(if deleted == rows.len() { 0 } else { 4 }, deleted))
            })
        }
        Delete::Where {
            table,
            client,
            where_,
        } => {
            let t = db.table(table)?.clone();
            let client = db.client_of(client, host)?;
            let scope = Scope::new(vec![(t.name.clone(), &t)]);
            let mut sqlgen = Gen {
                scope: &scope,
                params: Vec::new(),
                host,
                driver: None,
                dict: &db.dict,
                client: client.as_deref(),
                subqueries: 0,
            };
            let mut conds = Vec::new();
            if let (Some(c), Some(cf)) = (&client, t.client_field()) {
                let p = sqlgen.push(Sql::Text(c.clone()));
                conds.push(format!("t0.\"{}\" = {p}", cf.name));
            }
            if let Some(w) = where_ {
                conds.push(sqlgen.cond(w, false)?);
            }
            let mut sql = format!("DELETE FROM \"{}\" AS t0", t.name);
            if !conds.is_empty() {
                sql.push_str(&format!(" WHERE {}", conds.join(" AND ")));
            }
            let params = std::mem::take(&mut sqlgen.params);
            let deleted = atomic(db, || {
                Ok(db
                    .conn
                    .execute(&sql, rusqlite::params_from_iter(params.iter()))?)
            })?;
            Ok(outcome(if deleted > 0 { 0 } else { 4 }, deleted))
        }
    }
}

/// The key values of a work area (only its key components are needed).
fn key_row(t: &TableDef, row: &Components, client: Option<&str>) -> Result<Vec<Sql>> {
    let client_field = t.client_field().map(|f| f.name.as_str());
    let mut out = Vec::new();
    for f in t.key_fields() {
        if let (Some(c), Some(cf)) = (client, client_field)
            && cf == f.name
        {
            out.push(Sql::Text(c.to_string()));
            continue;
        }
        let cell = row
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(&f.name))
            .map(|(_, c)| c)
            .ok_or_else(|| Error::Host {
                name: f.name.clone(),
                message: format!(
                    "the work area has no key component {} of {}",
                    f.name, t.name
                ),
            })?;
        out.push(convert(cell, f.ddic, &f.name)?);
    }
    Ok(out)
}
