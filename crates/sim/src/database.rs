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
        ..opensql::Options::default()
    })?;
    // Each folder's dictionary joins the ones before (`load_dir` merges, refusing a name
    // defined twice differently; a folder of data elements serves the tables of another).
    let with_tables = config
        .program_dirs
        .iter()
        .filter(|d| has_dictionary_files(d, 0));
    for dir in with_tables {
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

/// Directory nesting searched for table definitions (abapGit folders are shallow).
const MAX_DEPTH: usize = 32;

/// True when a `.tabl.xml`, `.dtel.xml` or `.doma.xml` file is somewhere below `dir`.
fn has_dictionary_files(dir: &std::path::Path, depth: usize) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.filter_map(Result::ok).any(|e| {
        let path = e.path();
        match e.file_type() {
            Ok(t) if t.is_dir() => depth < MAX_DEPTH && has_dictionary_files(&path, depth + 1),
            Ok(_) => e.file_name().to_str().is_some_and(|n| {
                let n = n.to_ascii_lowercase();
                [".tabl.xml", ".dtel.xml", ".doma.xml"]
                    .iter()
                    .any(|ext| n.ends_with(ext))
            }),
            Err(_) => false,
        }
    })
}
