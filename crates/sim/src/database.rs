//! The database behind Open SQL: opened once per simulator (in memory, or the `--db` file),
//! its tables and rows read from the dictionary files of the programs folders (`.tabl.xml`
//! with `.tabl.data.json`, `.dtel.xml`, `.doma.xml`; crates/opensql/README.md).

use std::sync::{Arc, Mutex};

use crate::{SimConfig, SimError};

/// Opens the database and loads the dictionary of every programs folder. A folder whose
/// files cannot be used (a data row that does not fit its field, a duplicate key) is named
/// in the log and left out, so the programs still run; a statement on one of its tables
/// ends the run naming the table.
pub(crate) fn open(config: &SimConfig) -> Result<Arc<Mutex<opensql::Database>>, SimError> {
    let mut db = opensql::Database::open(&opensql::Options {
        file: config.db_file.clone(),
        client: config.client.clone(),
    })?;
    for dir in &config.program_dirs {
        match db.load_dir(dir) {
            Ok(report) => {
                for (table, e) in &report.refused {
                    tracing::warn!("database table {table} left out: {e}");
                }
                if !report.created.is_empty() || !report.kept.is_empty() {
                    tracing::info!(
                        "database: {} tables created, {} kept from {}",
                        report.created.len(),
                        report.kept.len(),
                        dir.display()
                    );
                }
            }
            Err(e) => tracing::warn!("database tables of {} left out: {e}", dir.display()),
        }
    }
    Ok(Arc::new(Mutex::new(db)))
}
