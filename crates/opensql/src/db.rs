//! The database: SQLite in a file (a temporary one by default, or a file to keep it), the
//! tables of a dictionary, the logon client and the transaction model of ABAP's database
//! logical unit of work: every change is visible at once to the connection that made it,
//! `COMMIT WORK` makes it durable and visible to the others, `ROLLBACK WORK` undoes everything
//! since the last commit. Each run gets a connection of its own ([`Database::session`]), so
//! runs do not see each other's uncommitted changes.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rusqlite::Connection;

use crate::ast::{ClientHandling, Statement};
use crate::cell::Cell;
use crate::ddic::{Dictionary, data_file_of};
use crate::error::{Error, Result};
use crate::host::HostResolver;
use crate::outcome::Outcome;
use crate::parser::parse;
use crate::types::{DdicType, TableClass, TableDef};

/// How to open a database.
#[derive(Debug, Clone)]
pub struct Options {
    /// A file to keep the database in (`--db FILE`); `None`: a temporary file removed when
    /// the [`Database`] and its sessions are dropped.
    pub file: Option<PathBuf>,
    /// The logon client (`sy-mandt`), three characters.
    pub client: String,
    /// How long a write waits while another connection holds uncommitted changes before it
    /// fails with [`Error::Locked`].
    pub lock_wait: Duration,
}

/// The default of [`Options::lock_wait`]: a commit elsewhere takes far less; a wait this long
/// means a run holds its changes (stopped in the debugger, or running on).
pub const DEFAULT_LOCK_WAIT: Duration = Duration::from_secs(2);

impl Default for Options {
    fn default() -> Options {
        Options {
            file: None,
            client: "001".into(),
            lock_wait: DEFAULT_LOCK_WAIT,
        }
    }
}

/// What [`Database::load_dir`] did.
#[derive(Debug, Default)]
pub struct LoadReport {
    /// Tables created, with the number of rows loaded from their data file.
    pub created: Vec<(String, usize)>,
    /// Tables the database file already had (their data file is not read again).
    pub kept: Vec<String>,
    /// Definitions that could not be used: name and the error a statement naming it gets.
    pub refused: Vec<(String, Error)>,
}

/// The folder of a temporary database, removed when the last connection to it is dropped.
#[derive(Debug)]
struct TempFolder(PathBuf);

impl Drop for TempFolder {
    fn drop(&mut self) {
        // Nothing to report to; a folder left behind holds only this database.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Temporary databases opened by this process so far (for unique folder names).
static TEMP_COUNT: AtomicU64 = AtomicU64::new(0);

fn temp_folder() -> Result<TempFolder> {
    let io = |file: PathBuf| move |source| Error::Io { file, source };
    let base = std::env::temp_dir();
    remove_abandoned(&base);
    for _ in 0..100 {
        let n = TEMP_COUNT.fetch_add(1, Ordering::Relaxed);
        let dir = base.join(format!("opensql-{}-{n}", std::process::id()));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(TempFolder(dir)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io(dir)(e)),
        }
    }
    Err(Error::NotSupported(format!(
        "no free name for a temporary database in {}",
        base.display()
    )))
}

/// Removes the temporary databases of processes that ended without dropping them (killed, or
/// exiting with the database in a static). Only where `/proc` tells which processes live
/// (Linux), and only folders named as [`temp_folder`] names them holding nothing but the
/// database's files.
fn remove_abandoned(base: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("opensql-"))
            .and_then(|rest| rest.split_once('-'))
            .filter(|(pid, n)| {
                !pid.is_empty()
                    && !n.is_empty()
                    && pid.bytes().all(|b| b.is_ascii_digit())
                    && n.bytes().all(|b| b.is_ascii_digit())
            })
            .map(|(pid, _)| pid.to_string())
        else {
            continue;
        };
        if Path::new("/proc").join(&pid).exists() {
            continue;
        }
        let dir = entry.path();
        let only_database = std::fs::read_dir(&dir).is_ok_and(|files| {
            files.flatten().all(|f| {
                f.file_name()
                    .to_str()
                    .is_some_and(|n| n.starts_with("db.sqlite"))
            })
        });
        if only_database {
            // Best effort: another process may be removing it at the same moment.
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

pub struct Database {
    pub(crate) conn: Connection,
    pub(crate) dict: Dictionary,
    pub(crate) client: String,
    /// The folders loaded so far: the dictionary is read from all of them together.
    dirs: Vec<PathBuf>,
    /// The database file every session connects to.
    path: PathBuf,
    lock_wait: Duration,
    /// The temporary folder of a database without `Options::file`, shared by its sessions.
    _temp: Option<Arc<TempFolder>>,
}

// The simulator keeps the database behind a lock shared by its threads: it must be `Send`.
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Database>();
};

/// A connection to `path` as every connection of a database is set up: write-ahead logging,
/// so readers see the last commit while a writer holds its changes; autocommit until a
/// write begins a logical unit of work; the wide packed functions.
fn connect(path: &Path, lock_wait: Duration, temporary: bool) -> Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(lock_wait)?;
    if temporary {
        // Nothing of a temporary database must survive a crash: no waiting for the disk.
        conn.execute_batch("PRAGMA synchronous = OFF")?;
    }
    let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(Error::NotSupported(format!(
            "{}: the database file cannot use write-ahead logging (journal mode {mode})",
            path.display()
        )));
    }
    crate::wide::register(&conn)?;
    Ok(conn)
}

impl Database {
    pub fn open(options: &Options) -> Result<Database> {
        if options.client.chars().count() != 3 {
            return Err(Error::NotSupported(format!(
                "client {:?}: a client has three characters",
                options.client
            )));
        }
        let (path, temp) = match &options.file {
            Some(f) => (f.clone(), None),
            None => {
                let folder = temp_folder()?;
                (folder.0.join("db.sqlite"), Some(Arc::new(folder)))
            }
        };
        let conn = connect(&path, options.lock_wait, temp.is_some())?;
        Ok(Database {
            conn,
            dict: Dictionary::default(),
            client: options.client.clone(),
            dirs: Vec::new(),
            path,
            lock_wait: options.lock_wait,
            _temp: temp,
        })
    }

    /// A connection of its own to the same database, with the same dictionary and client:
    /// one run's database logical unit of work. Its uncommitted changes are invisible to
    /// every other connection, and while it holds some, a write elsewhere waits (up to
    /// `Options::lock_wait`; the simulator locks the whole database where a real system
    /// locks the rows changed).
    pub fn session(&self) -> Result<Database> {
        let conn = connect(&self.path, self.lock_wait, self._temp.is_some())?;
        Ok(Database {
            conn,
            dict: self.dict.clone(),
            client: self.client.clone(),
            dirs: self.dirs.clone(),
            path: self.path.clone(),
            lock_wait: self.lock_wait,
            _temp: self._temp.clone(),
        })
    }

    /// The database file (a temporary one unless `Options::file` named one).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Begins the logical unit of work's transaction at its first write, taking the
    /// database's write lock (waiting while another connection holds uncommitted changes).
    pub(crate) fn begin_writing(&mut self) -> Result<()> {
        if !self.conn.is_autocommit() {
            return Ok(());
        }
        match self.conn.execute_batch("BEGIN IMMEDIATE") {
            Ok(()) => Ok(()),
            Err(rusqlite::Error::SqliteFailure(f, _))
                if f.code == rusqlite::ErrorCode::DatabaseBusy =>
            {
                Err(Error::Locked(format!(
                    "another run holds uncommitted changes (waited {} ms; the simulator locks the whole database for a logical unit of work where a real system locks the rows changed)",
                    self.lock_wait.as_millis()
                )))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Reads the dictionary under `dir` together with the folders loaded before (a table
    /// may use a data element or include a structure of another folder; a name defined in
    /// two folders differently is refused, naming both files) and creates the database
    /// tables not created yet, filling each new one from its `.tabl.data.json` file (if
    /// any); committed at once. When it fails, nothing of `dir` is kept.
    pub fn load_dir(&mut self, dir: &Path) -> Result<LoadReport> {
        let mut dirs = self.dirs.clone();
        dirs.push(dir.to_path_buf());
        let dict = Dictionary::load_dirs(&dirs)?;
        self.begin_writing()?;
        match self.create_tables(&dict) {
            Ok(report) => {
                self.commit()?;
                self.dict = dict;
                self.dirs = dirs;
                Ok(report)
            }
            Err(e) => {
                // Tables and rows of this call are undone (SQLite's DDL is transactional).
                self.rollback()?;
                Err(e)
            }
        }
    }

    /// Creates the database tables of `dict` that this database does not have yet.
    fn create_tables(&mut self, dict: &Dictionary) -> Result<LoadReport> {
        let mut report = LoadReport::default();
        for table in dict.tables() {
            if table.class != TableClass::Transparent {
                continue;
            }
            // Created by an earlier call: neither new nor kept from a file.
            if self.dict.table(&table.name) == Some(table) {
                continue;
            }
            let exists: bool = self.conn.query_row(
                "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = ?1",
                [&table.name],
                |r| r.get(0),
            )?;
            if exists {
                report.kept.push(table.name.clone());
                continue;
            }
            self.conn.execute_batch(&create_sql(table))?;
            let mut loaded = 0;
            if let Some(def_file) = dict.file_of(&table.name) {
                let data = data_file_of(def_file);
                if data.exists() {
                    let rows = crate::data::read_rows(&data, table, &self.client)?;
                    let sql = insert_sql(table, "INSERT");
                    let mut stmt = self.conn.prepare(&sql)?;
                    for (i, row) in rows.iter().enumerate() {
                        stmt.execute(rusqlite::params_from_iter(row.iter()))
                            .map_err(|e| match e {
                                rusqlite::Error::SqliteFailure(f, _)
                                    if f.code == rusqlite::ErrorCode::ConstraintViolation =>
                                {
                                    Error::DataRow {
                                        file: data.clone(),
                                        row: i + 1,
                                        field: table
                                            .key_fields()
                                            .map(|f| f.name.as_str())
                                            .collect::<Vec<_>>()
                                            .join("+"),
                                        message: "duplicate key".into(),
                                    }
                                }
                                other => other.into(),
                            })?;
                    }
                    loaded = rows.len();
                }
            }
            report.created.push((table.name.clone(), loaded));
        }
        for (name, _, _) in dict.refused() {
            // Refusals of the folders loaded before were reported then.
            if let Some(e) = dict.refusal(name)
                && self.dict.refusal(name).is_none()
            {
                report.refused.push((name.to_string(), e));
            }
        }
        Ok(report)
    }

    pub fn dictionary(&self) -> &Dictionary {
        &self.dict
    }

    /// The logon client.
    pub fn client(&self) -> &str {
        &self.client
    }

    /// True when `name` is a database table (not a structure): the interpreter asks this to
    /// tell `DELETE dbtab FROM wa` from the internal-table statement of the same shape.
    pub fn is_table(&self, name: &str) -> bool {
        self.dict
            .table(name)
            .is_some_and(|t| t.class == TableClass::Transparent)
    }

    /// Parses and executes one statement.
    pub fn run(&mut self, text: &str, host: &mut dyn HostResolver) -> Result<(Statement, Outcome)> {
        let stmt = parse(text)?;
        let outcome = self.execute(&stmt, host)?;
        Ok((stmt, outcome))
    }

    pub fn execute(&mut self, stmt: &Statement, host: &mut dyn HostResolver) -> Result<Outcome> {
        match stmt {
            Statement::Select(s) => crate::query::select(self, s, host),
            Statement::Insert(w) => {
                self.begin_writing()?;
                crate::write::insert(self, w, host)
            }
            Statement::Update(u) => {
                self.begin_writing()?;
                crate::write::update(self, u, host)
            }
            Statement::Modify(w) => {
                self.begin_writing()?;
                crate::write::modify(self, w, host)
            }
            Statement::Delete(d) => {
                self.begin_writing()?;
                crate::write::delete(self, d, host)
            }
            Statement::CommitWork => {
                self.commit()?;
                Ok(Outcome {
                    subrc: 0,
                    dbcnt: None,
                    result: None,
                })
            }
            Statement::RollbackWork => {
                self.rollback()?;
                Ok(Outcome {
                    subrc: 0,
                    dbcnt: None,
                    result: None,
                })
            }
        }
    }

    /// Makes every change so far durable and visible to the other connections (`COMMIT
    /// WORK`, and the end of a program).
    pub fn commit(&mut self) -> Result<()> {
        if !self.conn.is_autocommit() {
            self.conn.execute_batch("COMMIT")?;
        }
        Ok(())
    }

    /// Undoes every change since the last commit (`ROLLBACK WORK`, a runtime error).
    pub fn rollback(&mut self) -> Result<()> {
        if !self.conn.is_autocommit() {
            self.conn.execute_batch("ROLLBACK")?;
        }
        Ok(())
    }

    /// True while this connection holds changes not committed yet.
    pub fn has_uncommitted_changes(&self) -> bool {
        !self.conn.is_autocommit()
    }

    /// A transparent table by name.
    pub(crate) fn table(&self, name: &str) -> Result<&TableDef> {
        self.dict.database_table(name)
    }

    /// The client a statement works in (`None`: `CLIENT SPECIFIED`).
    pub(crate) fn client_of(
        &self,
        handling: &ClientHandling,
        host: &mut dyn HostResolver,
    ) -> Result<Option<String>> {
        Ok(match handling {
            ClientHandling::Automatic => Some(self.client.clone()),
            ClientHandling::Specified => None,
            ClientHandling::Using(op) => {
                let cell = match op {
                    crate::ast::Operand::Host(n) | crate::ast::Operand::Name(n) => {
                        match host.value(n).map_err(|message| Error::Host {
                            name: n.clone(),
                            message,
                        })? {
                            crate::host::HostValue::Scalar(c) => c,
                            _ => {
                                return Err(Error::Host {
                                    name: n.clone(),
                                    message: "a client (c LENGTH 3) expected".into(),
                                });
                            }
                        }
                    }
                    crate::ast::Operand::Text(s) => Cell::Char(s.clone()),
                    _ => return Err(Error::NotSupported("this USING CLIENT operand".into())),
                };
                match cell.to_storage(DdicType::Clnt) {
                    Ok(rusqlite::types::Value::Text(t)) => Some(t),
                    _ => {
                        return Err(Error::Conversion {
                            value: cell.to_string(),
                            target: "CLNT".into(),
                        });
                    }
                }
            }
        })
    }
}

fn column_sql(t: DdicType) -> &'static str {
    match t {
        DdicType::Dec { digits, .. } if crate::wide::is_wide(digits) => "TEXT NOT NULL",
        DdicType::Char(_)
        | DdicType::Clnt
        | DdicType::Lang
        | DdicType::Cuky
        | DdicType::Unit(_) => "TEXT NOT NULL COLLATE RTRIM",
        DdicType::Numc(_)
        | DdicType::Dats
        | DdicType::Tims
        | DdicType::String
        | DdicType::SString(_) => "TEXT NOT NULL",
        DdicType::Int1
        | DdicType::Int2
        | DdicType::Int4
        | DdicType::Int8
        | DdicType::Dec { .. } => "INTEGER NOT NULL",
        DdicType::Fltp => "REAL NOT NULL",
        DdicType::Raw(_) | DdicType::RawString => "BLOB NOT NULL",
    }
}

fn create_sql(t: &TableDef) -> String {
    let mut cols: Vec<String> = t
        .fields
        .iter()
        .map(|f| format!("\"{}\" {}", f.name, column_sql(f.ddic)))
        .collect();
    let keys: Vec<String> = t.key_fields().map(|f| format!("\"{}\"", f.name)).collect();
    if keys.is_empty() {
        return format!("CREATE TABLE \"{}\" ({})", t.name, cols.join(", "));
    }
    cols.push(format!("PRIMARY KEY ({})", keys.join(", ")));
    format!(
        "CREATE TABLE \"{}\" ({}) WITHOUT ROWID",
        t.name,
        cols.join(", ")
    )
}

/// `INSERT [OR …] INTO t (all fields) VALUES (?, …)`.
pub(crate) fn insert_sql(t: &TableDef, verb: &str) -> String {
    let names: Vec<String> = t.fields.iter().map(|f| format!("\"{}\"", f.name)).collect();
    let marks = vec!["?"; t.fields.len()].join(", ");
    format!(
        "{verb} INTO \"{}\" ({}) VALUES ({marks})",
        t.name,
        names.join(", ")
    )
}
