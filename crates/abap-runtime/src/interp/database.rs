//! The simulator's database as one run holds it: the shared database and the run's own
//! connection (its logical unit of work), owned by whoever starts the run and lent to the
//! interpreter (`sql.rs` runs the statements on it).

use std::sync::{Arc, Mutex, MutexGuard};

/// The simulator's database as a run sees it: the dictionary and the committed rows every
/// run shares, and, for a run, a connection of its own opened at its first statement (its
/// database logical unit of work: its uncommitted changes are invisible to other runs).
#[derive(Clone)]
pub struct SharedDb {
    pub(crate) shared: Arc<Mutex<opensql::Database>>,
    /// This run's connection; `None` in the repository's handle, which belongs to no run.
    pub(crate) run: Option<Arc<Mutex<Option<opensql::Database>>>>,
}

impl std::fmt::Debug for SharedDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedDb")
    }
}

impl SharedDb {
    pub fn new(db: Arc<Mutex<opensql::Database>>) -> SharedDb {
        SharedDb {
            shared: db,
            run: None,
        }
    }

    /// The handle of one run: the same database through a connection of the run's own.
    pub fn for_run(&self) -> SharedDb {
        SharedDb {
            shared: self.shared.clone(),
            run: Some(Arc::new(Mutex::new(None))),
        }
    }

    /// `f` on the run's connection (opened now if this is the run's first statement), or on
    /// the shared connection for a handle of no run.
    pub(crate) fn with<T>(
        &self,
        f: impl FnOnce(&mut opensql::Database) -> opensql::Result<T>,
    ) -> opensql::Result<T> {
        let Some(slot) = &self.run else {
            return f(&mut lock(&self.shared));
        };
        let mut conn = slot.lock().unwrap_or_else(|e| e.into_inner());
        if conn.is_none() {
            let session = lock(&self.shared).session()?;
            *conn = Some(session);
        }
        match conn.as_mut() {
            Some(db) => f(db),
            None => Err(opensql::Error::NotSupported(
                "the run's database connection".into(),
            )),
        }
    }

    /// Ends the run's logical unit of work (commit or rollback) when it has a connection.
    pub(crate) fn end_luw(&self, commit: bool) {
        let Some(slot) = &self.run else {
            return;
        };
        if let Some(db) = slot.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            // The program is over: a failing commit or rollback has no one to report to,
            // and closing the connection rolls back whatever is left.
            let _ = if commit { db.commit() } else { db.rollback() };
        }
    }
}

/// Rolls the run's database changes back when dropped: the end of an ABAP Unit run, on
/// every way out.
pub struct RollbackOnDrop(pub Option<SharedDb>);

impl Drop for RollbackOnDrop {
    fn drop(&mut self) {
        if let Some(db) = &self.0 {
            db.end_luw(false);
        }
    }
}

pub(crate) fn lock(db: &Arc<Mutex<opensql::Database>>) -> MutexGuard<'_, opensql::Database> {
    db.lock().unwrap_or_else(|e| e.into_inner())
}
